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
launch_testing test of launch/urdf_link_tools.launch.py: the node comes up and serves.

It launches the real launch file on the sample robot (``urdf_file``) twice, as for two robots:
in two namespaces of one DDS domain of its own with localhost discovery. It waits for the node
to analyse the robot, calls ``~/list_links``, checks that the two instances publish
/diagnostics statuses of different names (each prefixed with its namespace), and that both
exit cleanly when launch stops them.

launch, launch_ros and launch_testing are not installable from the Python registries this
project uses (they come with a ROS installation); where they are missing the module is
skipped with that reason.
"""

import os
import sys
import unittest

import pytest

# launch_test, unlike pytest, does not put this file's folder on sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ros_harness import allocate_domain_id, REPO, RosClient, SAMPLE_URDF  # noqa: E402, I100
from ros_harness import unique_namespace  # noqa: E402

_MISSING = ('{} is not installed: launch, launch_ros and launch_testing come with a ROS 2 '
            'installation (apt ros-<distro>-launch-testing-ros), not from PyPI')
launch = pytest.importorskip('launch', reason=_MISSING.format('launch'))
launch_ros = pytest.importorskip('launch_ros', reason=_MISSING.format('launch_ros'))
launch_testing = pytest.importorskip('launch_testing', reason=_MISSING.format('launch_testing'))
pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

# Only importable once the checks above passed, hence after them (and out of order).
from launch.actions import IncludeLaunchDescription, SetEnvironmentVariable  # noqa: E402, I100
from launch.launch_description_sources import PythonLaunchDescriptionSource  # noqa: E402
import launch_testing.actions  # noqa: E402
import launch_testing.asserts  # noqa: E402
from urdf_link_tools.srv import GetLinkFindings, ListLinks  # noqa: E402

DOMAIN_ID = allocate_domain_id()
NAMESPACE = unique_namespace('launch')
SECOND_NAMESPACE = unique_namespace('launch_b')
LAUNCH_FILE = REPO / 'launch' / 'urdf_link_tools.launch.py'
CONFIG_FILE = REPO / 'config' / 'urdf_link_tools.yaml'
TIMEOUT = 30.0


@pytest.mark.launch_test
def generate_test_description():
    """Launch the node through the launch file twice, on the sample robot."""
    includes = []
    for namespace in (NAMESPACE, SECOND_NAMESPACE):
        includes.append(IncludeLaunchDescription(
            PythonLaunchDescriptionSource(str(LAUNCH_FILE)),
            launch_arguments={'urdf_file': str(SAMPLE_URDF), 'namespace': namespace.strip('/'),
                              'config_file': str(CONFIG_FILE)}.items()))
    return launch.LaunchDescription([
        SetEnvironmentVariable('ROS_DOMAIN_ID', str(DOMAIN_ID)),
        SetEnvironmentVariable('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST'),
        SetEnvironmentVariable('PYTHONUNBUFFERED', '1'),
        *includes,
        launch_testing.actions.ReadyToTest(),
    ])


class TestNodeServes(unittest.TestCase):
    """While the launch runs."""

    def test_analyses_the_file_and_answers(self, proc_output):
        proc_output.assertWaitFor("analysed 'sample_robot'", timeout=TIMEOUT, stream='stderr')
        client = RosClient(DOMAIN_ID, NAMESPACE)
        try:
            answer = client.call(ListLinks, 'urdf_link_tools/list_links', ListLinks.Request(),
                                 timeout=TIMEOUT)
            arm = client.call(GetLinkFindings, 'urdf_link_tools/get_link_findings',
                              GetLinkFindings.Request(link_name='arm_link'), timeout=TIMEOUT)
        finally:
            client.close()
        self.assertTrue(answer.success, answer.message)
        self.assertEqual(answer.robot_name, 'sample_robot')
        self.assertEqual(len(answer.links), 7)
        # The sample's package:// mesh resolves through the installed share folder.
        rules = {finding.rule for finding in arm.findings}
        self.assertIn('inertia-triangle-inequality', rules)
        self.assertNotIn('mesh-not-found', rules)

    def test_two_instances_publish_distinct_status_names(self):
        from diagnostic_msgs.msg import DiagnosticArray

        prefixes = [f'{namespace.strip("/")}/urdf_link_tools'
                    for namespace in (NAMESPACE, SECOND_NAMESPACE)]
        wanted = {f'{prefix}: arm_link' for prefix in prefixes} | set(prefixes)
        client = RosClient(DOMAIN_ID, '/')
        try:
            arrays = client.collect(DiagnosticArray, '/diagnostics', 10)

            def both():
                seen = {status.name for array in arrays for status in array.status}
                return seen if wanted <= seen else None
            names = client.spin_until(both, TIMEOUT, 'the statuses of both instances')
        finally:
            client.close()
        first = {name for name in names if name.startswith(prefixes[0])}
        second = {name for name in names if name.startswith(prefixes[1])}
        self.assertTrue(first and second)
        self.assertFalse(first & second)
        self.assertEqual(first | second, names)


@launch_testing.post_shutdown_test()
class TestShutdown(unittest.TestCase):
    """After launch stopped the node."""

    def test_exit_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
