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
End to end on the sample robot: the node as a real process over DDS, a URDF on the topic.

The node runs in a domain and a namespace of its own with localhost discovery; the test
publishes samples/sample_robot.urdf on robot_description (latched, as robot_state_publisher
does) and checks what arrives: per-link diagnostics, markers, service answers.
"""

import math

from diagnostic_msgs.msg import DiagnosticStatus
import pytest
from ros_harness import NodeSession, REPO, SAMPLE_URDF, statuses_of

pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

from urdf_link_tools.inertia import com_sphere_diameter  # noqa: E402
from urdf_link_tools.msg import Finding, LinkGeometry  # noqa: E402
from visualization_msgs.msg import Marker  # noqa: E402

TIMEOUT = 30.0
PACKAGE_DIRS = [f'urdf_link_tools={REPO}']
LEVELS = {
    'base_footprint': DiagnosticStatus.OK, 'base_link': DiagnosticStatus.OK,
    'my_link': DiagnosticStatus.ERROR, 'arm_link': DiagnosticStatus.ERROR,
    'gripper_link': DiagnosticStatus.WARN, 'camera_link': DiagnosticStatus.ERROR,
    'tool0': DiagnosticStatus.OK}


@pytest.fixture(scope='module')
def session():
    with NodeSession('sample', {'package_dirs': PACKAGE_DIRS}) as session:
        session.client.publish_description(SAMPLE_URDF.read_text())
        session.wait_for_robot('sample_robot')
        yield session


def test_ros_e2e_before_any_description():
    with NodeSession('waiting') as session:
        answer = session.list_links()
        assert not answer.success
        assert answer.message.startswith('no robot_description received yet')
        geometry = session.link_geometry('arm_link')
        assert not geometry.success and 'no robot_description' in geometry.message
        arrays = session.diagnostics()
        summary = session.client.spin_until(
            lambda: statuses_of(arrays).get('urdf_link_tools'), TIMEOUT, 'a summary status')
        assert summary.level == DiagnosticStatus.STALE
        assert 'waiting for robot_description' in summary.message


def test_ros_e2e_diagnostics_per_link(session):
    arrays = session.diagnostics()
    names = {f'urdf_link_tools: {link}' for link in LEVELS} | {'urdf_link_tools'}

    def complete():
        found = statuses_of(arrays)
        return found if names <= set(found) else None

    statuses = session.client.spin_until(complete, TIMEOUT, 'a status per link')
    for link, level in LEVELS.items():
        status = statuses[f'urdf_link_tools: {link}']
        assert status.level == level, (link, status.message)
        assert status.hardware_id == 'sample_robot'
    arm = {item.key: item.value for item in statuses['urdf_link_tools: arm_link'].values}
    assert arm['#1 inertia-triangle-inequality'].startswith('error: line 95')
    summary = statuses['urdf_link_tools']
    assert summary.level == DiagnosticStatus.ERROR
    values = {item.key: item.value for item in summary.values}
    assert (values['errors'], values['total mass']) == ('3', '263 kg')
    assert values['joint_states'].startswith('none received')


def test_ros_e2e_markers_in_link_frames(session):
    # Subscribing after the publication: the markers are latched (TRANSIENT_LOCAL).
    arrays = session.markers()
    (array,) = session.client.spin_until(lambda: arrays, TIMEOUT, 'the latched markers')
    assert array.markers[0].action == Marker.DELETEALL
    by_key = {(marker.ns, marker.header.frame_id): marker for marker in array.markers[1:]}
    assert {ns for ns, _ in by_key} == {'com', 'inertia', 'collision', 'labels'}
    assert {frame for ns, frame in by_key if ns == 'labels'} == set(LEVELS)
    sphere = by_key[('com', 'my_link')]
    assert (sphere.pose.position.x, sphere.pose.position.y, sphere.pose.position.z) == \
        (0.0, 0.0, 0.5)
    assert sphere.scale.x == pytest.approx(com_sphere_diameter(1.0))
    assert sphere.frame_locked and sphere.color.r > sphere.color.g  # a warning: orange
    gripper = by_key[('inertia', 'gripper_link')]
    assert gripper.pose.position.z == pytest.approx(0.05)
    arm = by_key[('collision', 'arm_link')]
    assert arm.type == Marker.MESH_RESOURCE
    assert arm.mesh_resource == 'package://urdf_link_tools/samples/meshes/arm_visual.stl'
    assert arm.color.a < 1.0
    assert ('inertia', 'arm_link') not in by_key  # RViz draws no box for it either


def test_ros_e2e_list_links(session):
    answer = session.list_links()
    assert answer.success and answer.root_link == 'base_footprint'
    rows = {row.name: row for row in answer.links}
    assert list(rows) == list(LEVELS)
    assert rows['arm_link'].parent_joint == 'shoulder_joint'
    assert list(rows['arm_link'].custom_groups) == ['collision_checking']
    assert rows['camera_link'].worst_severity == Finding.ERROR
    assert rows['gripper_link'].mass == 250.0


def test_ros_e2e_link_geometry_known_and_unknown(session):
    mesh = session.link_geometry('arm_link', triangles=True)
    assert mesh.success and mesh.frame_id == 'arm_link'
    (entry,) = mesh.geometries
    assert entry.type == LinkGeometry.MESH
    assert entry.mesh_path.endswith('samples/meshes/arm_visual.stl')
    assert len(entry.mesh.triangles) == 1520
    assert {finding.rule for finding in mesh.findings} >= {'inertia-triangle-inequality'}
    unknown = session.link_geometry('arm_lnk')
    assert not unknown.success
    assert unknown.message == "unknown link 'arm_lnk' (did you mean 'arm_link'?)"


def test_ros_e2e_custom_collision_checking_group(session):
    answer = session.link_geometry('arm_link', 'collision_checking')
    assert answer.success, answer.message
    (cylinder,) = answer.geometries
    assert cylinder.primitive.type == cylinder.primitive.CYLINDER
    assert list(cylinder.primitive.dimensions) == [0.45, 0.06]
    assert cylinder.pose.position.z == pytest.approx(0.2)
    assert answer.has_bounds and answer.bounds_max.z == pytest.approx(0.425)
    missing = session.link_geometry('my_link', 'collision_checking')
    assert not missing.success and "'collision_checking'" in missing.message


def test_ros_e2e_link_findings(session):
    camera = session.link_findings('camera_link')
    assert camera.success
    assert camera.findings[0].severity == Finding.ERROR
    assert all(finding.link == 'camera_link' for finding in camera.findings)
    assert not session.link_findings('camera').success


def test_ros_e2e_robot_com_without_joint_states(session):
    from geometry_msgs.msg import PointStamped

    points = session.client.collect(PointStamped, session.private('robot_com'))
    # Re-publishing the same description makes a new snapshot and so a new COM message.
    session.client.publish_description(SAMPLE_URDF.read_text())
    point = session.client.spin_until(lambda: points and points[-1], TIMEOUT, 'robot_com')
    assert point.header.frame_id == 'base_footprint'
    # Zero positions: every COM on the z axis; 263 kg of links, most of it the gripper.
    assert math.isclose(point.point.x, 0.0, abs_tol=1e-12)
    assert point.point.z == pytest.approx(
        (10 * 0.05 + 1 * 0.85 + 2 * 0.8 + 250 * 1.05) / 263.0)
