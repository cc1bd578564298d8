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

"""The test client and the node it starts get the same discovery variables, per distribution."""

import os

import pytest
from ros_discovery import localhost_discovery
import ros_harness


@pytest.mark.parametrize('distro, localhost_only', [
    ('humble', '1'), ('jazzy', None), ('kilted', None), ('rolling', None)])
def test_discovery_variables_per_distribution(monkeypatch, distro, localhost_only):
    monkeypatch.setenv('ROS_DISTRO', distro)
    monkeypatch.setenv('ROS_LOCALHOST_ONLY', '0')  # a user's setting never leaks through
    node = ros_harness.ros_environment(7)
    from bench import ros_processes
    bench_node = ros_processes.ros_environment(7)
    client = dict(os.environ)
    localhost_discovery(client)  # what ClientNode does to os.environ before rclpy.init
    for env in (node, bench_node, client):
        assert env['ROS_AUTOMATIC_DISCOVERY_RANGE'] == 'LOCALHOST'
        assert env['ROS_STATIC_PEERS'] == ''
        assert env.get('ROS_LOCALHOST_ONLY') == localhost_only
    assert node['ROS_DOMAIN_ID'] == bench_node['ROS_DOMAIN_ID'] == '7'
