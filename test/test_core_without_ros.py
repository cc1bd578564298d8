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

"""The core and the CLI never import rclpy or message packages, so CI needs no ROS graph."""

import os
import pkgutil
import subprocess
import sys


ROS_MODULES = ('rclpy', 'std_msgs', 'visualization_msgs', 'diagnostic_msgs', 'geometry_msgs',
               'shape_msgs', 'sensor_msgs', 'urdf_link_tools.msg', 'urdf_link_tools.srv')
SOURCE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      'urdf_link_tools')


def core_modules():
    """Every module of the package's sources outside the ros layer."""
    # The sources only: urdf_link_tools.__path__ also holds the generated interfaces (msg/,
    # srv/) of an install prefix, which are ROS modules by design.
    names = []
    for info in pkgutil.walk_packages([SOURCE], 'urdf_link_tools.'):
        if not info.name.startswith('urdf_link_tools.ros'):
            names.append(info.name)
    return names


def test_core_and_cli_do_not_import_rclpy():
    modules = core_modules()
    assert 'urdf_link_tools.cli' in modules and 'urdf_link_tools.parser' in modules
    code = ('import sys\n'
            f'for name in {modules!r}:\n'
            '    __import__(name)\n'
            f'bad = [m for m in {ROS_MODULES!r} if m in sys.modules]\n'
            'print(",".join(bad))\n')
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          timeout=120, cwd=root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == '', f'core imports ROS modules: {done.stdout.strip()}'
