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
End to end: the whole-robot centre of mass follows joint_states, checked against Pinocchio.

For two real robots (talos with mimic joints, tiago with continuous and prismatic joints)
the test publishes the URDF and joint states to the node process and compares the
``~/robot_com`` it publishes with Pinocchio's ``centerOfMass`` for the same positions.
"""

import time

import corpus
from geometry_msgs.msg import PointStamped
import numpy as np
from pinocchio_oracle import PinocchioCom, random_positions
import pytest
from ros_harness import NodeSession, SAMPLE_URDF, statuses_of
from urdf_link_tools.parser import parse_urdf_string
from visualization_msgs.msg import Marker, MarkerArray

pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

TIMEOUT = 30.0


def _point(message):
    return np.array([message.point.x, message.point.y, message.point.z])


def _of_a_robot(statuses):
    """Return the summary status once it is about a robot, else None."""
    summary = statuses.get('urdf_link_tools')
    if summary is None or summary.message.startswith('waiting for robot_description'):
        return None
    return summary


@pytest.mark.parametrize('name, robot_name', [
    ('talos_full_v2.urdf', 'talos'), ('tiago.urdf', 'tiago')])
def test_ros_e2e_robot_com_follows_joint_states(name, robot_name):
    pytest.importorskip('pinocchio', reason='Pinocchio is the oracle: pip install pin')
    try:
        path = corpus.urdf_path(name)
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    text = path.read_text()
    robot = parse_urdf_string(text)
    oracle = PinocchioCom(str(path), robot)
    root = robot.root_links[0]
    # Meshes play no part in the COM: skip loading them to keep the test quick.
    with NodeSession('com', {'check_meshes': False}) as session:
        client = session.client
        points = client.collect(PointStamped, session.private('robot_com'))
        marker_arrays = client.collect(MarkerArray, session.private('robot_com_marker'),
                                       client.latched_qos())
        diagnostics = session.diagnostics()
        client.publish_description(text)
        session.wait_for_robot(robot_name)

        # No joint_states yet: zero positions.
        _, expected = oracle.com({})
        first = client.spin_until(lambda: points and points[-1], TIMEOUT, 'robot_com')
        assert first.header.frame_id == root
        np.testing.assert_allclose(_point(first), expected, atol=1e-9)
        # /diagnostics is not latched: the status published before the analysis ('waiting
        # for robot_description') may still be the latest received when robot_com arrives.
        summary = client.spin_until(lambda: _of_a_robot(statuses_of(diagnostics)),
                                    TIMEOUT, 'the summary status of the robot')
        assert 'no joint_states' in summary.message

        rng = np.random.default_rng(4)
        for _ in range(2):
            positions = random_positions(robot, rng)
            for joint in robot.joints:
                if joint.mimic is not None:
                    positions[joint.name] = 99.0  # ignored: mimic joints follow their leader
            # not kept: a name that is no joint of the model (a publisher inventing long
            # names grew the node for good, tenth red-team review)
            positions['not_a_joint_' + 'x' * 5000] = 0.5
            _, expected = oracle.com(positions)
            # Streamed as joint_state_publisher does (10 Hz) until the node reacts.
            moved = client.publish_joint_states_until(
                positions,
                lambda: points and np.allclose(_point(points[-1]), expected, atol=1e-9)
                and points[-1], TIMEOUT, 'robot_com at the published joint positions')
            assert moved.header.frame_id == root

        def markers_at(target):
            if not marker_arrays:
                return None
            by_id = {marker.id: marker for marker in marker_arrays[-1].markers}
            sphere = by_id.get(0)
            if sphere is None or not np.allclose(
                    [sphere.pose.position.x, sphere.pose.position.y, sphere.pose.position.z],
                    target, atol=1e-9):
                return None
            return by_id
        by_id = client.spin_until(lambda: markers_at(expected), TIMEOUT, 'robot_com markers')
        assert {marker.ns for marker in by_id.values()} == {'robot_com'}
        assert all(marker.header.frame_id == root for marker in by_id.values())
        disc, line = by_id[1], by_id[2]
        assert disc.type == Marker.CYLINDER and disc.pose.position.z == 0.0
        assert (disc.pose.position.x, disc.pose.position.y) == pytest.approx(
            (expected[0], expected[1]))
        assert line.type == Marker.LINE_LIST and line.points[1].z == 0.0

        count = len(diagnostics)
        client.spin_until(lambda: len(diagnostics) > count, TIMEOUT, 'diagnostics')
        summary = statuses_of(diagnostics[count:])['urdf_link_tools']
        values = {item.key: item.value for item in summary.values}
        assert values['joint_states'].endswith('joint positions received')
        moving = [joint for joint in robot.joints
                  if joint.type in ('revolute', 'continuous', 'prismatic')]
        assert int(values['joint_states'].split()[0]) == len(moving), values['joint_states']
        assert values['COM frame'] == root


def test_ros_e2e_robot_com_is_latched_and_follows_each_analysis():
    """A late subscriber gets ~/robot_com at once; every analysis publishes it again."""
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

    text = SAMPLE_URDF.read_text()
    with NodeSession('com_latched', {'check_meshes': False}) as session:
        client = session.client
        client.publish_description(text)
        served = session.wait_for_robot('sample_robot')
        topic = f'{session.namespace}/{session.private("robot_com")}'
        infos = client.spin_until(lambda: client.node.get_publishers_info_by_topic(topic),
                                  TIMEOUT, f'the publisher of {topic}')
        # Discovery carries reliability and durability, not the history (checked below).
        qos = infos[0].qos_profile
        assert (qos.reliability, qos.durability) == (
            ReliabilityPolicy.RELIABLE, DurabilityPolicy.TRANSIENT_LOCAL)

        # Subscribed after the node published, no joint_states at all: the latched sample.
        points = client.collect(PointStamped, session.private('robot_com'),
                                client.latched_qos())
        first = client.spin_until(lambda: points and points[-1], TIMEOUT, 'latched robot_com')
        assert first.header.frame_id == served.root_link

        # The same robot again (a new description, positions unchanged): published again.
        count = len(points)
        client.publish_description(text.replace('</robot>', '<!-- again --></robot>'))
        again = client.spin_until(lambda: len(points) > count and points[-1], TIMEOUT,
                                  'robot_com after the second analysis')
        np.testing.assert_allclose(_point(again), _point(first), atol=1e-12)

        # Two samples were published; a late reader keeping 10 gets the last one only
        # (KEEP_LAST 1 on the node's side).
        late = client.collect(PointStamped, session.private('robot_com'), QoSProfile(
            history=HistoryPolicy.KEEP_LAST, depth=10, reliability=ReliabilityPolicy.RELIABLE,
            durability=DurabilityPolicy.TRANSIENT_LOCAL))
        client.spin_until(lambda: late, TIMEOUT, 'robot_com for a late reader')
        end = time.monotonic() + 1.0
        client.spin_until(lambda: time.monotonic() > end, 2.0, 'one second')
        assert [message.header.stamp for message in late] == [again.header.stamp]
