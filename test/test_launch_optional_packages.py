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
launch/urdf_link_tools.launch.py with optional packages missing, and RViz in a namespace.

A launch that asks for robot_state_publisher, joint_state_publisher or rviz2 where the
package is not installed must say so once, clearly, and start nothing: no
urdf_link_tools_node left running after launch gave up. The launch runs for real
(launch.LaunchService, as ``ros2 launch`` does) in a process of its own.
"""

import importlib.util
from pathlib import Path
import subprocess
import sys

import pytest
from ros_harness import allocate_domain_id, REPO, ros_environment, SAMPLE_URDF, unique_namespace
import yaml

_MISSING = ('{} is not installed: launch and launch_ros come with a ROS 2 installation '
            '(apt ros-<distro>-launch-ros), not from PyPI')
pytest.importorskip('launch', reason=_MISSING.format('launch'))
pytest.importorskip('launch_ros', reason=_MISSING.format('launch_ros'))
packages = pytest.importorskip('ament_index_python.packages')

LAUNCH_FILE = REPO / 'launch' / 'urdf_link_tools.launch.py'
RVIZ_CONFIG = REPO / 'config' / 'urdf_link_tools.rviz'
RUN_LAUNCH = """
import sys
from launch import LaunchService
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
service = LaunchService()
service.include_launch_description(IncludeLaunchDescription(
    PythonLaunchDescriptionSource(sys.argv[1]),
    launch_arguments=[argument.split(':=', 1) for argument in sys.argv[2:]]))
sys.exit(service.run())
"""


def _installed(package):
    try:
        packages.get_package_prefix(package)
    except packages.PackageNotFoundError:
        return False
    return True


def _processes_with(marker):
    """Return the command lines of this machine's processes that contain ``marker``."""
    found = []
    for entry in Path('/proc').iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / 'cmdline').read_bytes().replace(b'\0', b' ').decode()
        except OSError:
            continue
        if marker in command and 'RUN_LAUNCH' not in command:
            found.append(command)
    return found


@pytest.mark.parametrize('argument, package', [
    ('use_rviz', 'rviz2'),
    ('use_robot_state_publisher', 'robot_state_publisher'),
    ('use_robot_state_publisher', 'joint_state_publisher')])
def test_missing_optional_package_starts_nothing(argument, package):
    if not _installed('urdf_link_tools'):
        pytest.skip('urdf_link_tools is not installed in an ament prefix: run scripts/setup.sh')
    if _installed(package):
        pytest.skip(f'{package} is installed here: this case needs it missing')
    namespace = unique_namespace('optional').strip('/')
    done = subprocess.run(
        [sys.executable, '-c', RUN_LAUNCH, str(LAUNCH_FILE), f'urdf_file:={SAMPLE_URDF}',
         f'namespace:={namespace}', f'{argument}:=true'],
        env=ros_environment(allocate_domain_id()), capture_output=True, text=True, timeout=60,
        cwd=str(REPO))
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert f"{argument}:=true needs the ROS package '{package}', which is not installed" \
        in output, output
    assert 'started nothing' in output and f'{argument}:=false' in output
    assert output.count('started nothing') == 1, output
    assert 'Traceback' not in output, output
    # Nothing was started, so nothing is left: no node in this launch's namespace.
    assert 'process started' not in output, output
    assert _processes_with(namespace) == []


def _launch_module():
    spec = importlib.util.spec_from_file_location('urdf_link_tools_launch', LAUNCH_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _topics(config):
    """Return every display topic of an RViz config, by display name."""
    topics = {}
    for display in config['Visualization Manager']['Displays']:
        for key, value in display.items():
            if key.endswith('Topic'):
                topics[display['Name']] = value['Value']
    return topics


def test_rviz_config_moves_the_topics_into_the_namespace():
    original = _topics(yaml.safe_load(RVIZ_CONFIG.read_text()))
    assert original['RobotModel'] == '/robot_description'
    assert original['Link markers'] == '/urdf_link_tools/markers'
    moved = _topics(yaml.safe_load(
        _launch_module().namespaced_rviz_config(str(RVIZ_CONFIG), '/arm')))
    assert moved == {name: '/arm' + topic for name, topic in original.items()}
