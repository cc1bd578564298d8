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
``use_rviz`` (rviz2 with config/urdf_link_tools.rviz) and ``use_robot_state_publisher``
(robot_state_publisher and joint_state_publisher on ``urdf_file``, for when no robot is
running and RViz needs TF).
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import Command, LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    """Return the launch description; see the module docstring for the arguments."""
    share = FindPackageShare('urdf_link_tools')
    urdf_file = LaunchConfiguration('urdf_file')
    namespace = LaunchConfiguration('namespace')
    arguments = [
        DeclareLaunchArgument(
            'urdf_file', default_value='',
            description='URDF or xacro file to analyse; empty: only the robot_description '
                        'topic'),
        DeclareLaunchArgument(
            'namespace', default_value='', description='Namespace of the node'),
        DeclareLaunchArgument(
            'config_file',
            default_value=PathJoinSubstitution([share, 'config', 'urdf_link_tools.yaml']),
            description='Parameter file of the node'),
        DeclareLaunchArgument(
            'use_rviz', default_value='false',
            description='Start rviz2 with config/urdf_link_tools.rviz'),
        DeclareLaunchArgument(
            'use_robot_state_publisher', default_value='false',
            description='Start robot_state_publisher and joint_state_publisher on urdf_file'),
    ]
    analyser = Node(
        package='urdf_link_tools', executable='urdf_link_tools_node', name='urdf_link_tools',
        namespace=namespace, output='screen', emulate_tty=True,
        parameters=[LaunchConfiguration('config_file'),
                    # A string even when empty: launch would read '' as YAML null.
                    {'urdf_file': ParameterValue(urdf_file, value_type=str)}])
    with_state_publisher = IfCondition(LaunchConfiguration('use_robot_state_publisher'))
    description = ParameterValue(Command(['xacro ', urdf_file]), value_type=str)
    robot_state_publisher = Node(
        package='robot_state_publisher', executable='robot_state_publisher',
        namespace=namespace, condition=with_state_publisher,
        parameters=[{'robot_description': description}])
    joint_state_publisher = Node(
        package='joint_state_publisher', executable='joint_state_publisher',
        namespace=namespace, condition=with_state_publisher)
    rviz = Node(
        package='rviz2', executable='rviz2', name='rviz2', output='screen',
        arguments=['-d', PathJoinSubstitution([share, 'config', 'urdf_link_tools.rviz'])],
        condition=IfCondition(LaunchConfiguration('use_rviz')))
    return LaunchDescription(
        arguments + [analyser, robot_state_publisher, joint_state_publisher, rviz])
