# Copyright 2026 urdf_link_tools contributors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""Explain what is wrong with a URDF's links: a pure core plus a thin ROS 2 layer."""

from pkgutil import extend_path

# The ROS build (CMakeLists.txt) installs this package's messages and services (msg/, srv/) into
# an install prefix; the development environment runs this source tree, which has none. With
# the source tree first on sys.path, this makes `import urdf_link_tools.srv` find the generated
# interfaces of the installed package too. Nothing else is imported here: the core stays free
# of ROS.
__path__ = extend_path(__path__, __name__)

__version__ = '0.1.0'
