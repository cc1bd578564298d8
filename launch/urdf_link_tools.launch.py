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
Start the urdf_link_tools node with its parameter file, next to a robot or on a URDF file.

    ros2 launch urdf_link_tools urdf_link_tools.launch.py
    ros2 launch urdf_link_tools urdf_link_tools.launch.py \
        urdf_file:=$(ros2 pkg prefix --share urdf_link_tools)/samples/sample_robot.urdf \
        use_robot_state_publisher:=true use_rviz:=true

Arguments: ``urdf_file`` (URDF or xacro; empty: listen to robot_description only),
``namespace``, ``config_file`` (the parameters, config/urdf_link_tools.yaml by default),
``package_dirs`` and ``xacro_args`` (items separated by spaces; empty: the config file's),
``use_rviz`` (rviz2 with config/urdf_link_tools.rviz, its topics in ``namespace``) and
``use_robot_state_publisher`` (robot_state_publisher and joint_state_publisher on
``urdf_file``, for when no robot is running and RViz needs TF).

robot_state_publisher, joint_state_publisher and rviz2 are optional: when one that an argument
asks for is not installed, the launch says which and how to install it, and starts nothing
(rather than a node the user did not ask for alone, or one left running after launch failed).
"""

import os
import tempfile

from ament_index_python.packages import get_package_prefix, get_package_share_directory
from ament_index_python.packages import PackageNotFoundError
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction, RegisterEventHandler
from launch.event_handlers import OnShutdown
from launch.substitutions import Command, LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
import yaml

PACKAGE = 'urdf_link_tools'
# launch argument -> the optional packages it needs
OPTIONAL = {
    'use_robot_state_publisher': ('robot_state_publisher', 'joint_state_publisher'),
    'use_rviz': ('rviz2',),
}
TRUE = ('true', '1', 'yes', 'on')
#: list parameters of the node that launch arguments may set, items separated by spaces
LISTS = ('package_dirs', 'xacro_args')


class OptionalPackageMissing(RuntimeError):
    """An optional package an argument asked for is not installed; nothing was started."""


def _installed(package: str) -> bool:
    try:
        get_package_prefix(package)
    except PackageNotFoundError:
        return False
    return True


def _namespace(text: str) -> str:
    """Return the namespace as an absolute name without a trailing slash ('' for none)."""
    text = text.strip().strip('/')
    return f'/{text}' if text else ''


def namespaced_rviz_config(path: str, namespace: str) -> str:
    """
    Return the text of an RViz config whose absolute topics are moved into ``namespace``.

    :param path: the RViz config file
    :param namespace: an absolute namespace such as '/ns'
    """
    with open(path, encoding='utf-8') as stream:
        config = yaml.safe_load(stream)

    def visit(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key.endswith('Topic') and isinstance(value, dict) and \
                        isinstance(value.get('Value'), str) and value['Value'].startswith('/') \
                        and not value['Value'].startswith(('/tf', '/clock')):
                    value['Value'] = namespace + value['Value']
                else:
                    visit(value)
        elif isinstance(node, list):
            for item in node:
                visit(item)
    visit(config)
    return yaml.safe_dump(config, sort_keys=False)


def _launch_setup(context):
    wanted = {name: LaunchConfiguration(name).perform(context).strip().lower() in TRUE
              for name in OPTIONAL}
    urdf_file = LaunchConfiguration('urdf_file').perform(context)
    namespace = _namespace(LaunchConfiguration('namespace').perform(context))
    missing = [(argument, package) for argument, packages in OPTIONAL.items()
               if wanted[argument] for package in packages if not _installed(package)]
    if missing:
        distro = os.environ.get('ROS_DISTRO', '<distro>')
        raise OptionalPackageMissing(
            'urdf_link_tools.launch.py started nothing: '
            + '; '.join(f'{argument}:=true needs the ROS package {package!r}, which is not '
                        'installed' for argument, package in missing)
            + '. Install it (apt install '
            + ' '.join(f"ros-{distro}-{package.replace('_', '-')}" for _, package in missing)
            + ') or launch with '
            + ' '.join(sorted({f'{argument}:=false' for argument, _ in missing})))
    if wanted['use_robot_state_publisher'] and not urdf_file:
        raise OptionalPackageMissing(
            'urdf_link_tools.launch.py started nothing: use_robot_state_publisher:=true needs '
            'urdf_file:=<URDF or xacro file> to publish')

    share = get_package_share_directory(PACKAGE)
    # A string even when empty: launch would read '' as YAML null.
    overrides = {'urdf_file': ParameterValue(urdf_file, value_type=str)}
    lists = {name: LaunchConfiguration(name).perform(context).split() for name in LISTS}
    overrides.update({name: items for name, items in lists.items() if items})
    actions = [Node(
        package=PACKAGE, executable='urdf_link_tools_node', name='urdf_link_tools',
        namespace=namespace, output='screen', emulate_tty=True,
        parameters=[LaunchConfiguration('config_file'), overrides])]
    if wanted['use_robot_state_publisher']:
        # The xacro command (python3-xacro / PyPI xacro) also reads plain URDF.
        description = ParameterValue(
            Command(['xacro ', urdf_file] + [' ' + item for item in lists['xacro_args']]),
            value_type=str)
        actions += [
            Node(package='robot_state_publisher', executable='robot_state_publisher',
                 namespace=namespace, parameters=[{'robot_description': description}]),
            Node(package='joint_state_publisher', executable='joint_state_publisher',
                 namespace=namespace)]
    if wanted['use_rviz']:
        rviz_config = os.path.join(share, 'config', 'urdf_link_tools.rviz')
        if namespace:
            # RViz configs hold absolute topics: write one for this namespace, removed when
            # launch shuts down.
            handle, rviz_config_ns = tempfile.mkstemp(prefix='urdf_link_tools_', suffix='.rviz')
            with os.fdopen(handle, 'w', encoding='utf-8') as stream:
                stream.write(namespaced_rviz_config(rviz_config, namespace))
            rviz_config = rviz_config_ns
            actions.append(RegisterEventHandler(OnShutdown(
                on_shutdown=lambda event, context: os.remove(rviz_config_ns)
                if os.path.exists(rviz_config_ns) else None)))
        actions.append(Node(
            package='rviz2', executable='rviz2', name='rviz2', namespace=namespace,
            output='screen', arguments=['-d', rviz_config]))
    return actions


def generate_launch_description():
    """Return the launch description; see the module docstring for the arguments."""
    share = get_package_share_directory(PACKAGE)
    return LaunchDescription([
        DeclareLaunchArgument(
            'urdf_file', default_value='',
            description='URDF or xacro file to analyse; empty: only the robot_description '
                        'topic'),
        DeclareLaunchArgument(
            'namespace', default_value='', description='Namespace of the node'),
        DeclareLaunchArgument(
            'config_file',
            default_value=os.path.join(share, 'config', 'urdf_link_tools.yaml'),
            description='Parameter file of the node'),
        DeclareLaunchArgument(
            'package_dirs', default_value='',
            description='NAME=PATH entries separated by spaces: where package:// meshes and '
                        "xacro's $(find NAME) are found before the ament index (empty: the "
                        "config file's)"),
        DeclareLaunchArgument(
            'xacro_args', default_value='',
            description='name:=value xacro arguments separated by spaces, for a .xacro '
                        "urdf_file (empty: the config file's)"),
        DeclareLaunchArgument(
            'use_rviz', default_value='false',
            description='Start rviz2 with config/urdf_link_tools.rviz (optional package)'),
        DeclareLaunchArgument(
            'use_robot_state_publisher', default_value='false',
            description='Start robot_state_publisher and joint_state_publisher on urdf_file '
                        '(optional packages)'),
        OpaqueFunction(function=_launch_setup),
    ])
