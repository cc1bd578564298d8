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
Two robots, two nodes: real processes in two namespaces of one DDS domain.

As a user launches one node per robot (``--ros-args -r __ns:=/robot_a``, or the launch
file's ``namespace:=``), both publish on the one /diagnostics topic: their status names must
differ, or diagnostic_aggregator and rqt_robot_monitor show one robot flapping between two
states. test_launch_urdf_link_tools.py does the same through the launch file where launch is
installed.
"""

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
import pytest
from ros_harness import (allocate_domain_id, NodeProcess, REPO, RosClient, SAMPLE_URDF,
                         unique_namespace)

pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

TIMEOUT = 60.0
PACKAGE_DIRS = [f'urdf_link_tools={REPO}']


def test_two_namespaced_nodes_publish_distinct_status_names():
    domain = allocate_domain_id()
    namespaces = [unique_namespace('robot_a'), unique_namespace('robot_b')]
    nodes = [NodeProcess(domain, namespace, {'package_dirs': PACKAGE_DIRS})
             for namespace in namespaces]
    client = None
    try:
        client = RosClient(domain, '/', lambda: '\n'.join(node.output()[-3000:]
                                                          for node in nodes))
        arrays = client.collect(DiagnosticArray, '/diagnostics', 10)
        text = SAMPLE_URDF.read_text()
        for namespace in namespaces:
            client.publish_description(text, f'{namespace}/robot_description')
        prefixes = [f'{namespace.lstrip("/")}/urdf_link_tools' for namespace in namespaces]
        wanted = {f'{prefix}{suffix}' for prefix in prefixes for suffix in ('', ': arm_link')}

        def both_robots():
            names = {status.name for array in arrays for status in array.status}
            return names if wanted <= names else None

        names = client.spin_until(both_robots, TIMEOUT, 'the statuses of both nodes')
        first = {name for name in names if name.startswith(prefixes[0])}
        second = {name for name in names if name.startswith(prefixes[1])}
        assert first and second and not first & second
        assert first | second == names, sorted(names - first - second)
        # the same robot, link by link, under each node's own names
        assert {name[len(prefixes[0]):] for name in first} == \
            {name[len(prefixes[1]):] for name in second}
        latest = {status.name: status for array in arrays for status in array.status}
        for prefix in prefixes:
            assert latest[f'{prefix}: arm_link'].level == DiagnosticStatus.ERROR
            assert latest[prefix].hardware_id == 'sample_robot'
    finally:
        if client is not None:
            client.close()
        for node in nodes:
            node.stop()
