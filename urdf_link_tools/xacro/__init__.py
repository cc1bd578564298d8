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

"""
The xacro trust boundary: everything that runs a xacro program, in one place.

- :mod:`~urdf_link_tools.xacro.sandbox` starts the child process, with its limits, and reads
  its answer;
- :mod:`~urdf_link_tools.xacro.child` is that child: xacro with a restricted evaluator and
  only the reads the parent allows;
- :mod:`~urdf_link_tools.xacro.failures` says, in the child, why an expansion failed, where
  and what to do;
- :mod:`~urdf_link_tools.xacro.evaluator` is the restricted ``${...}`` evaluator;
- :mod:`~urdf_link_tools.xacro.source_map` maps expanded lines back to the files and lines the
  user wrote.

This package imports nothing at import time: the child runs as
``python -m urdf_link_tools.xacro.child`` and loads only what it needs.
"""
