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
Message conversion without a ROS graph: services, markers and diagnostics as pure functions.

None of these tests starts rclpy; they build messages from analyses of the sample robot and
of small hand-written robots and look at the fields.
"""

import dataclasses
import math
import subprocess
import sys

from diagnostic_msgs.msg import DiagnosticStatus
import numpy as np
import pytest
from report_harness import robot_wide_listing
from ros_harness import REPO, SAMPLE_URDF
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Finding, Severity
from urdf_link_tools.geometry import rpy_to_matrix
from urdf_link_tools.inertia import com_sphere_diameter, rotate_inertia
from urdf_link_tools.parser import parse_urdf_string

interfaces = pytest.importorskip(
    'urdf_link_tools.srv',
    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

from urdf_link_tools.ros import conversions, diagnostics, markers  # noqa: E402
from visualization_msgs.msg import Marker  # noqa: E402

messages = pytest.importorskip('urdf_link_tools.msg')
FindingMsg = messages.Finding
LinkGeometry = messages.LinkGeometry
GetLinkFindings = interfaces.GetLinkFindings
GetLinkGeometry = interfaces.GetLinkGeometry
ListLinks = interfaces.ListLinks

CONFIG = CheckConfig(package_dirs=(('urdf_link_tools', str(REPO)),))


@pytest.fixture(scope='module')
def sample():
    robot = parse_urdf_string(SAMPLE_URDF.read_bytes(), str(SAMPLE_URDF))
    return analyze(robot, CONFIG)


def _analysis(text, config=CONFIG):
    return analyze(parse_urdf_string(text), config)


def _quaternion_matrix(q):
    x, y, z, w = q.x, q.y, q.z, q.w
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def test_ros_conversion_modules_do_not_import_rclpy():
    code = ('import sys\n'
            'import urdf_link_tools.ros.conversions, urdf_link_tools.ros.markers\n'
            'import urdf_link_tools.ros.diagnostics, urdf_link_tools.ros.parameters\n'
            'import urdf_link_tools.ros.snapshot, urdf_link_tools.ros.worker\n'
            'print("rclpy" in sys.modules)\n')
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          timeout=120, cwd=str(REPO))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == 'False'


# ---------------------------------------------------------------------- findings, names

@pytest.mark.parametrize('finding, expected', [
    (Finding('inertia-triangle-inequality', Severity.ERROR, 'bad', link='arm', element='i',
             line=12, suggestion='fix'),
     {'rule': 'inertia-triangle-inequality', 'severity': FindingMsg.ERROR, 'link': 'arm',
      'element': 'i', 'line': 12, 'message': 'bad', 'suggestion': 'fix'}),
    (Finding('robot-wide', Severity.INFO, 'note'),
     {'rule': 'robot-wide', 'severity': FindingMsg.INFO, 'link': '', 'element': '',
      'line': 0, 'message': 'note', 'suggestion': ''}),
])
def test_ros_finding_msg(finding, expected):
    message = conversions.finding_msg(finding)
    assert {key: getattr(message, key) for key in expected} == expected


@pytest.mark.parametrize('name, known, expected', [
    ('arm_lnk', ['arm_link', 'tool0'], "unknown link 'arm_lnk' (did you mean 'arm_link'?)"),
    ('xyz', ['arm_link'], "unknown link 'xyz' (known: 'arm_link')"),
    ('xyz', [], "unknown link 'xyz' (there is none)"),
    ('l', [f'link_{i}' for i in range(20)], "unknown link 'l' (known: 'link_0', 'link_1', "
     "'link_2', 'link_3', 'link_4', 'link_5', 'link_6', 'link_7', ... (20 in all))"),
])
def test_ros_unknown_name_message(name, known, expected):
    assert conversions.unknown_name_message('link', name, known) == expected


# ---------------------------------------------------------------------- services

@pytest.mark.parametrize('fill, args', [
    (conversions.fill_list_links, (ListLinks.Response(),)),
    (conversions.fill_link_geometry, (GetLinkGeometry.Response(), 'arm_link')),
    (conversions.fill_link_findings, (GetLinkFindings.Response(), 'arm_link')),
])
def test_ros_services_without_a_description(fill, args):
    response, rest = args[0], args[1:]
    answer = fill(response, None, *rest)
    assert answer.success is False
    assert answer.message == conversions.NO_DESCRIPTION


def test_ros_list_links(sample):
    response = conversions.fill_list_links(ListLinks.Response(), sample)
    assert response.success
    assert response.robot_name == 'sample_robot'
    assert response.root_link == 'base_footprint'
    rows = {row.name: row for row in response.links}
    assert list(rows) == ['base_footprint', 'base_link', 'my_link', 'arm_link',
                          'gripper_link', 'camera_link', 'tool0']
    arm = rows['arm_link']
    assert (arm.parent_joint, arm.parent_joint_type) == ('shoulder_joint', 'revolute')
    assert (arm.mass, arm.visual_count, arm.collision_count) == (2.0, 1, 1)
    assert list(arm.custom_groups) == ['collision_checking']
    assert arm.has_findings and arm.worst_severity == FindingMsg.ERROR
    assert rows['base_footprint'].parent_joint == '' and not rows['base_footprint'].has_findings
    assert rows['gripper_link'].worst_severity == FindingMsg.WARNING
    assert rows['camera_link'].worst_severity == FindingMsg.ERROR
    assert rows['arm_link'].line > rows['my_link'].line > 0


def test_ros_link_geometry_primitives_in_moveit_form(sample):
    response = conversions.fill_link_geometry(GetLinkGeometry.Response(), sample, 'my_link')
    assert response.success, response.message
    assert response.frame_id == 'my_link'
    (cylinder,) = response.geometries
    assert cylinder.type == LinkGeometry.PRIMITIVE
    assert cylinder.primitive.type == cylinder.primitive.CYLINDER
    # shape_msgs order: height first, then radius.
    assert list(cylinder.primitive.dimensions) == [0.5, 1.0]
    assert response.has_bounds
    assert (response.bounds_min.x, response.bounds_max.z) == (-1.0, 0.25)
    assert response.mass == 1.0
    assert response.inertia.m == 1.0 and response.inertia.com.z == 0.5
    assert response.inertia.ixx == 100.0
    visual = conversions.fill_link_geometry(GetLinkGeometry.Response(), sample, 'my_link',
                                            'visual')
    (box,) = visual.geometries
    assert box.primitive.type == box.primitive.BOX
    assert list(box.primitive.dimensions) == [1.0, 1.0, 1.0]


def test_ros_link_geometry_custom_group(sample):
    response = conversions.fill_link_geometry(
        GetLinkGeometry.Response(), sample, 'arm_link', 'collision_checking')
    assert response.success, response.message
    (entry,) = response.geometries
    assert entry.primitive.type == entry.primitive.CYLINDER
    assert list(entry.primitive.dimensions) == [0.45, 0.06]
    assert entry.pose.position.z == pytest.approx(0.2)
    assert entry.line > 0
    assert response.bounds_max.z == pytest.approx(0.425)
    assert {finding.rule for finding in response.findings} >= {'inertia-triangle-inequality'}


def test_ros_link_geometry_mesh(sample):
    plain = conversions.fill_link_geometry(GetLinkGeometry.Response(), sample, 'arm_link')
    (mesh,) = plain.geometries
    assert mesh.type == LinkGeometry.MESH
    assert mesh.name == 'arm_collision'
    assert mesh.mesh_uri == 'package://urdf_link_tools/samples/meshes/arm_visual.stl'
    assert mesh.mesh_path == str(REPO / 'samples' / 'meshes' / 'arm_visual.stl')
    assert (mesh.mesh_scale.x, mesh.mesh_scale.y, mesh.mesh_scale.z) == (1.0, 1.0, 1.0)
    assert len(mesh.mesh.triangles) == 0
    full = conversions.fill_link_geometry(GetLinkGeometry.Response(), sample, 'arm_link',
                                          'collision', include_mesh_triangles=True)
    triangles = full.geometries[0].mesh
    assert len(triangles.triangles) == 1520
    vertices = np.array([[p.x, p.y, p.z] for p in triangles.vertices])
    assert np.all(vertices.min(axis=0) >= [full.bounds_min.x, full.bounds_min.y,
                                           full.bounds_min.z])


@pytest.mark.parametrize('link, group, expected', [
    ('arm_lnk', '', "unknown link 'arm_lnk' (did you mean 'arm_link'"),
    ('arm_link', 'collision_check', "link 'arm_link' has no group 'collision_check' "
     "(did you mean 'collision_checking'?)"),
])
def test_ros_link_geometry_unknown_names(sample, link, group, expected):
    response = conversions.fill_link_geometry(GetLinkGeometry.Response(), sample, link, group)
    assert not response.success
    assert response.message.startswith(expected)


def test_ros_link_geometry_rotates_the_inertia_into_link_axes():
    analysis = _analysis("""<robot name="r"><link name="a"><inertial>
        <origin xyz="0.1 0 0" rpy="0.3 -0.2 0.5"/><mass value="2"/>
        <inertia ixx="0.3" ixy="0.01" ixz="0" iyy="0.2" iyz="0.02" izz="0.25"/>
        </inertial></link></robot>""")
    response = conversions.fill_link_geometry(GetLinkGeometry.Response(), analysis, 'a')
    inertial = analysis.robot.link('a').inertial
    expected = rotate_inertia(inertial.inertia, rpy_to_matrix(inertial.origin.rpy))
    got = response.inertia
    np.testing.assert_allclose(
        [[got.ixx, got.ixy, got.ixz], [got.ixy, got.iyy, got.iyz], [got.ixz, got.iyz, got.izz]],
        expected, atol=1e-12)
    assert response.inertial_pose.position.x == 0.1
    assert not response.has_bounds and response.geometries == []


def test_ros_link_findings(sample):
    arm = conversions.fill_link_findings(GetLinkFindings.Response(), sample, 'arm_link')
    assert arm.success
    assert [finding.link for finding in arm.findings] == ['arm_link'] * len(arm.findings)
    assert arm.findings[0].severity == FindingMsg.ERROR
    unknown = conversions.fill_link_findings(GetLinkFindings.Response(), sample, 'nope')
    assert not unknown.success and unknown.message.startswith("unknown link 'nope'")
    robot = conversions.fill_link_findings(GetLinkFindings.Response(), sample, '')
    assert robot.success and all(finding.link == '' for finding in robot.findings)


def test_ros_a_finding_about_several_links_reaches_each_of_them():
    # One package's missing meshes are one robot-level finding listing the links: a planner
    # asking about one of those links gets it, and the link table shows its severity.
    from urdf_link_tools.meshes import MeshLibrary
    links = ''.join(
        f'<link name="m{index}"><collision><geometry><mesh filename="package://gone_pkg/'
        f'{index}.stl"/></geometry></collision></link><joint name="j{index}" type="fixed">'
        f'<parent link="base"/><child link="m{index}"/></joint>' for index in range(3))
    analysis = analyze(parse_urdf_string(f'<robot name="r"><link name="base"/>{links}</robot>'),
                       CheckConfig(), MeshLibrary(use_ament_index=False))
    answer = conversions.fill_link_findings(GetLinkFindings.Response(), analysis, 'm1')
    missing = [f for f in answer.findings if f.rule == 'mesh-not-found']
    assert len(missing) == 1 and missing[0].link == '' and 'gone_pkg' in missing[0].message
    assert conversions.link_summary(analysis, analysis.robot.link('m1')).worst_severity == \
        FindingMsg.ERROR
    robot = conversions.fill_link_findings(GetLinkFindings.Response(), analysis, '')
    assert [f.rule for f in robot.findings].count('mesh-not-found') == 1
    base = conversions.fill_link_findings(GetLinkFindings.Response(), analysis, 'base')
    assert 'mesh-not-found' not in [f.rule for f in base.findings]


# ---------------------------------------------------------------------- markers

def _by_namespace(array):
    found = {}
    for marker in array.markers:
        found.setdefault(marker.ns, []).append(marker)
    return found


def test_ros_markers_frames_namespaces_and_positions(sample):
    array = markers.link_markers(sample)
    assert array.markers[0].action == Marker.DELETEALL
    spaces = _by_namespace(array)
    assert spaces.pop('') == [array.markers[0]]
    assert set(spaces) == {'com', 'inertia', 'collision', 'labels'}
    for namespace, items in spaces.items():
        assert len({item.id for item in items}) == len(items), namespace
        assert all(item.frame_locked and item.action == Marker.ADD for item in items)
    com = {item.header.frame_id: item for item in spaces['com']}
    # Frame-only and massless links have no sphere; the others sit at their inertial origin.
    assert set(com) == {'base_link', 'my_link', 'arm_link', 'gripper_link'}
    assert com['my_link'].pose.position.z == 0.5
    assert com['my_link'].scale.x == pytest.approx(com_sphere_diameter(1.0))
    assert com['gripper_link'].scale.x == pytest.approx(
        2 * (0.75 * 250 / (math.pi * 11340)) ** (1 / 3))
    colors = markers.MarkerOptions()
    assert tuple(getattr(com['arm_link'].color, c) for c in 'rgba') == \
        pytest.approx(colors.color_error)
    assert tuple(getattr(com['base_link'].color, c) for c in 'rgba') == \
        pytest.approx(colors.color_ok)
    assert tuple(getattr(com['gripper_link'].color, c) for c in 'rgba') == \
        pytest.approx(colors.color_warning)
    # arm_link breaks the triangle inequality: RViz draws no box, neither do we.
    assert {item.header.frame_id for item in spaces['inertia']} == \
        {'base_link', 'my_link', 'gripper_link'}
    labels = {item.header.frame_id: item for item in spaces['labels']}
    assert set(labels) == set(sample.robot.link_names)
    assert labels['gripper_link'].text == 'gripper_link\n250 kg'
    assert labels['camera_link'].text == 'camera_link\nno <inertial>'


def test_ros_markers_draw_a_link_only_robot_wide_findings_list_paler():
    # As the HTML report: three links are listed by robot-wide warnings (one mass and one
    # tensor on links of different sizes); l3 has its own misplaced centre of mass. Every
    # link was orange in RViz; now the listed-only ones take the same hue, paler.
    text = robot_wide_listing()
    names = ['l0', 'l1', 'l2', 'l3']
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    com = {item.header.frame_id: item for item in
           _by_namespace(markers.link_markers(analysis))['com']}
    options = markers.MarkerOptions()
    orange = options.color_warning
    pale = tuple(c + 0.6 * (1.0 - c) for c in orange[:3]) + (orange[3],)
    rgba = {name: tuple(getattr(com[name].color, c) for c in 'rgba') for name in names}
    assert rgba['l0'] == pytest.approx(orange)  # one finding of its own, an info
    assert rgba['l1'] == pytest.approx(pale) and rgba['l2'] == pytest.approx(pale)
    assert rgba['l3'] == pytest.approx(orange)


def test_ros_markers_collision_overlay(sample):
    spaces = _by_namespace(markers.link_markers(sample))
    collision = {item.header.frame_id: item for item in spaces['collision']}
    assert set(collision) == {'base_link', 'my_link', 'arm_link', 'gripper_link'}
    mesh = collision['arm_link']
    assert mesh.type == Marker.MESH_RESOURCE
    assert mesh.mesh_resource == 'package://urdf_link_tools/samples/meshes/arm_visual.stl'
    assert (mesh.scale.x, mesh.scale.y, mesh.scale.z) == (1.0, 1.0, 1.0)
    cylinder = collision['my_link']
    assert cylinder.type == Marker.CYLINDER
    assert (cylinder.scale.x, cylinder.scale.y, cylinder.scale.z) == (2.0, 2.0, 0.5)
    assert collision['gripper_link'].pose.position.z == pytest.approx(0.05)
    assert all(0.0 < item.color.a < 1.0 for item in collision.values())


def test_ros_markers_inertia_box_as_rviz_draws_it():
    analysis = _analysis("""<robot name="r"><link name="a"><inertial>
        <origin xyz="0.1 0.2 0.3" rpy="0.3 -0.2 0.5"/><mass value="2"/>
        <inertia ixx="0.3" ixy="0.01" ixz="-0.02" iyy="0.2" iyz="0.02" izz="0.25"/>
        </inertial></link></robot>""")
    (box,) = _by_namespace(markers.link_markers(analysis))['inertia']
    assert box.type == Marker.CUBE and box.header.frame_id == 'a'
    assert (box.pose.position.x, box.pose.position.y, box.pose.position.z) == (0.1, 0.2, 0.3)
    # A uniform box of that mass and size, turned by the marker's orientation, has the
    # link's inertia expressed in the link frame: the rotation is origin rpy x principal axes.
    a, b, c = box.scale.x, box.scale.y, box.scale.z
    box_inertia = 2.0 / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    rotation = _quaternion_matrix(box.pose.orientation)
    inertial = analysis.robot.link('a').inertial
    expected = rotate_inertia(inertial.inertia, rpy_to_matrix(inertial.origin.rpy))
    np.testing.assert_allclose(rotation @ box_inertia @ rotation.T, expected, atol=1e-9)


def test_ros_markers_skip_what_rviz_would_refuse():
    analysis = _analysis("""<robot name="r"><link name="a"><inertial>
        <origin xyz="nan 0 0"/><mass value="inf"/>
        <inertia ixx="nan" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
        <collision><origin xyz="0 nan 0"/><geometry><box size="1 1 1"/></geometry></collision>
        <collision><geometry><sphere radius="-1"/></geometry></collision>
        <collision><geometry><cylinder radius="inf" length="1"/></geometry></collision>
        </link></robot>""", CheckConfig(check_meshes=False))
    array = markers.link_markers(analysis)
    assert [item.ns for item in array.markers] == ['', 'labels']
    for item in array.markers:
        values = (item.pose.position.x, item.pose.position.y, item.pose.position.z,
                  item.scale.x, item.scale.y, item.scale.z)
        assert all(math.isfinite(value) for value in values)


@pytest.mark.parametrize('flag, namespace', [
    ('publish_com', 'com'), ('publish_inertia', 'inertia'),
    ('publish_collision', 'collision'), ('publish_labels', 'labels')])
def test_ros_markers_groups_can_be_turned_off(sample, flag, namespace):
    options = markers.MarkerOptions(**{flag: False})
    spaces = _by_namespace(markers.link_markers(sample, options))
    assert namespace not in spaces
    assert len(spaces) == 4  # DELETEALL ('') and the three others


@pytest.mark.parametrize('filename, path, expected', [
    ('package://p/m.stl', '/abs/m.stl', 'package://p/m.stl'),
    ('file:///abs/m.stl', '/abs/m.stl', 'file:///abs/m.stl'),
    ('meshes/m.stl', '/abs/meshes/m.stl', 'file:///abs/meshes/m.stl'),
    ('meshes/m.stl', None, 'meshes/m.stl'),
])
def test_ros_mesh_resource_uri(filename, path, expected):
    assert markers.mesh_resource(filename, path) == expected


def test_ros_robot_com_markers():
    array = markers.robot_com_markers('base', (0.1, -0.2, 0.7))
    sphere, disc, line = array.markers
    assert {item.ns for item in array.markers} == {'robot_com'}
    assert all(item.header.frame_id == 'base' for item in array.markers)
    assert (sphere.pose.position.x, sphere.pose.position.y, sphere.pose.position.z) == \
        (0.1, -0.2, 0.7)
    assert (disc.pose.position.x, disc.pose.position.y, disc.pose.position.z) == \
        (0.1, -0.2, 0.0)
    assert [(p.x, p.y, p.z) for p in line.points] == [(0.1, -0.2, 0.7), (0.1, -0.2, 0.0)]
    for com in (None, (float('nan'), 0.0, 0.0)):
        (cleared,) = markers.robot_com_markers('base', com).markers
        assert cleared.action == Marker.DELETEALL


# ---------------------------------------------------------------------- diagnostics

def test_ros_link_statuses(sample):
    statuses = {status.name: status for status in diagnostics.analysis_statuses(sample)}
    assert list(statuses) == [f'urdf_link_tools: {name}' for name in sample.robot.link_names]
    levels = {name.split(': ', 1)[1]: status.level for name, status in statuses.items()}
    assert levels == {
        'base_footprint': DiagnosticStatus.OK, 'base_link': DiagnosticStatus.OK,
        'my_link': DiagnosticStatus.ERROR, 'arm_link': DiagnosticStatus.ERROR,
        'gripper_link': DiagnosticStatus.WARN, 'camera_link': DiagnosticStatus.ERROR,
        'tool0': DiagnosticStatus.OK}
    arm = statuses['urdf_link_tools: arm_link']
    assert arm.hardware_id == 'sample_robot'
    assert arm.message.startswith('error: the principal moments')
    assert '\n' not in arm.message
    values = {item.key: item.value for item in arm.values}
    assert values['#1 inertia-triangle-inequality'].startswith('error: line ')
    assert 'ixx="0.02' in values['#1 suggestion']
    assert statuses['urdf_link_tools: tool0'].message == 'OK'


def test_ros_link_status_includes_the_findings_that_list_the_link():
    # One package's missing meshes on four links are one finding on the robot that lists
    # them: each link's status says it, as get_link_findings does.
    links = ''.join(
        f'<link name="l{i}"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" '
        'izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial><visual><geometry>'
        f'<mesh filename="package://nowhere_pkg/meshes/l{i}.stl"/></geometry></visual>'
        '<collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>'
        for i in range(4))
    joints = ''.join(f'<joint name="j{i}" type="fixed"><parent link="l{i - 1}"/>'
                     f'<child link="l{i}"/><origin xyz="0 0 1"/></joint>' for i in range(1, 4))
    analysis = _analysis(f'<robot name="r">{links}{joints}</robot>')
    (grouped,) = [finding for finding in analysis.findings if finding.rule == 'mesh-not-found']
    assert grouped.link is None and grouped.links == ('l0', 'l1', 'l2', 'l3')
    statuses = {status.name.split(': ', 1)[1]: status
                for status in diagnostics.analysis_statuses(analysis)}
    for name in ('l1', 'l2', 'l3'):
        assert statuses[name].level == diagnostics.level_for(grouped.severity)
        assert 'nowhere_pkg' in statuses[name].message
    per_rule = diagnostics.analysis_statuses(analysis, max_link_statuses=2)
    assert 'links with findings' in {item.key for item in per_rule[0].values}
    assert {item.key: item.value for item in per_rule[0].values}['links with findings'] == '4'


def test_ros_a_finding_merged_with_its_mirror_is_each_sides_own():
    # checks.mirrors: the left and right arms' centres of mass, one finding; each arm's
    # status, its get_link_findings answer and the per-rule status still show it, once.
    arm = ('<link name="{0}_arm"><inertial><origin xyz="0 {1} 0"/><mass value="1"/>'
           '<inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/>'
           '</inertial><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>'
           '</link><joint name="{0}_joint" type="revolute"><parent link="base"/>'
           '<child link="{0}_arm"/><origin xyz="0 {1} 0"/><axis xyz="0 1 0"/>'
           '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')
    analysis = _analysis('<robot name="r"><link name="base"/>' + arm.format('left', 0.3)
                         + arm.format('right', -0.3) + '</robot>')
    (merged,) = [f for f in analysis.findings if f.rule == 'com-outside-geometry']
    assert merged.links == ('left_arm', 'right_arm')
    statuses = {status.name.split(': ', 1)[1]: status
                for status in diagnostics.analysis_statuses(analysis)}
    for name in ('left_arm', 'right_arm'):
        assert statuses[name].level == diagnostics.level_for(merged.severity)
        assert "its mirror link 'right_arm' has the same" in statuses[name].message
        assert [f.rule for f in analysis.findings_about(name)].count(
            'com-outside-geometry') == 1
    per_rule = {status.name: status for status in
                diagnostics.analysis_statuses(analysis, max_link_statuses=1)}
    rule = per_rule['urdf_link_tools: rule com-outside-geometry']
    assert rule.message.startswith('1 findings on 2 links')


def test_ros_robot_status(sample):
    status = diagnostics.robot_status(sample, com=(263.0, (0.0, 0.0, 0.77)),
                                      root='base_footprint', joint_count=None)
    assert status.name == 'urdf_link_tools'
    assert status.level == DiagnosticStatus.ERROR
    values = {item.key: item.value for item in status.values}
    assert values['errors'] == '3' and values['total mass'] == '263 kg'
    assert values['COM'] == '(0.0000, 0.0000, 0.7700) m'
    assert values['joint_states'].startswith('none received')
    assert 'no joint_states' in status.message
    moving = diagnostics.robot_status(sample, com=None, root='base_footprint', joint_count=3)
    assert {item.key: item.value for item in moving.values}['joint_states'] == \
        '3 joint positions received'


def test_ros_description_error_status():
    status = diagnostics.description_error_status(
        "line 7: <inertia> in link 'a': ixx: \"x\" is not a number", 7,
        'robot_description topic', 'sample_robot')
    assert status.level == DiagnosticStatus.ERROR
    assert status.name == 'urdf_link_tools: robot_description'
    assert 'line 7' in status.message and "'sample_robot'" in status.message
    assert {item.key: item.value for item in status.values}['line'] == '7'
    waiting = diagnostics.waiting_status()
    assert waiting.level == DiagnosticStatus.STALE and waiting.name == 'urdf_link_tools'


def _missing_children(count):
    # A root and count links in closed pairs no root reaches: one link-disconnected each (a
    # second tree's links are robot-multiple-roots' since the thirty-first round).
    links = '<link name="base"/>' + ''.join(f'<link name="segment_{i}"/>' for i in range(count))
    joints = ''.join(f'<joint name="j{i}" type="fixed"><parent link="segment_{i}"/>'
                     f'<child link="segment_{i ^ 1}"/></joint>' for i in range(count))
    # every finding listed (the checker's own cap, max_findings_per_rule, is tested elsewhere)
    return _analysis(f'<robot name="many">{links}{joints}</robot>',
                     dataclasses.replace(CONFIG, max_findings_per_rule=10 * count))


def test_ros_statuses_grouped_by_rule_above_the_threshold():
    analysis = _missing_children(150)  # fewer than max_findings_per_rule: none capped
    per_link = diagnostics.analysis_statuses(analysis, max_link_statuses=151)
    assert len(per_link) == 151
    grouped = {status.name: status for status in
               diagnostics.analysis_statuses(analysis, max_link_statuses=150)}
    assert list(grouped)[0] == 'urdf_link_tools: links'
    assert 'more than diagnostics_max_link_statuses=150' in \
        grouped['urdf_link_tools: links'].message
    disconnected = grouped['urdf_link_tools: rule link-disconnected']
    values = {item.key: item.value for item in disconnected.values}
    assert disconnected.level == DiagnosticStatus.ERROR or \
        disconnected.level == DiagnosticStatus.WARN
    assert values['links'] == str(int(values['findings']))
    assert int(values['links']) >= 149
    assert len(disconnected.values) <= 2 + diagnostics.MAX_LINKS_PER_RULE + 1
    assert len(grouped) < 10


def test_ros_status_lists_a_bounded_number_of_findings():
    findings = [Finding(rule='r', severity=Severity.WARNING, message='x' * 5000, link='a')
                for _ in range(diagnostics.MAX_FINDINGS + 7)]
    rows = diagnostics.findings_values(findings)
    assert rows[-1].key == 'more findings' and rows[-1].value.startswith('7 more')
    assert all(len(row.value) <= diagnostics.MAX_TEXT + 40 for row in rows)
    assert diagnostics.clip('y' * 10, 4) == 'yyyy... (10 characters)'


def test_ros_near_miss_index_is_bounded_and_finds_the_typo():
    from urdf_link_tools.ros.names import NameIndex

    index = NameIndex([f'link_{i}' for i in range(50_000)] + ['gripper_finger_left'])
    assert len(index.candidates('gripper_fingr_left')) <= 64
    assert index.suggest('gripper_fingr_left') == "(did you mean 'gripper_finger_left'?)"
    assert "'link_4242'" in index.suggest('lnk_4242')
    message = conversions.unknown_name_message('link', 'q' * 10_000, index)
    assert len(message) < 1000


def test_ros_mesh_triangles_above_the_limit_are_left_out_with_a_reason(sample):
    response = conversions.fill_link_geometry(
        GetLinkGeometry.Response(), sample, 'arm_link', 'collision', True,
        triangles=conversions.triangles_for(1000))
    assert response.success
    assert len(response.geometries[0].mesh.triangles) == 0
    assert 'mesh_triangles_max=1000' in response.message and '1520 triangles' in \
        response.message


@pytest.mark.parametrize('node, prefix', [
    ('/urdf_link_tools', 'urdf_link_tools'),
    ('/robot_a/urdf_link_tools', 'robot_a/urdf_link_tools'),
    ('/fleet/robot_b/checker', 'fleet/robot_b/checker'),
])
def test_ros_status_names_carry_the_namespace(node, prefix):
    assert diagnostics.status_prefix(node) == prefix
    analysis = _analysis('<robot name="r"><link name="a"/></robot>')
    names = [status.name for status in diagnostics.analysis_statuses(analysis, prefix)]
    assert names == [f'{prefix}: a']
