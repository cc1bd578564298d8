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

"""Collision markers: mirrored meshes are drawn, zero scales are not; overlaps show the pair."""

from cli_harness import ROOT
from collision_robots import box_link, envelope, joint, OVERLAPPING, robot
import numpy as np
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.parser import parse_urdf_string

pytest.importorskip('visualization_msgs.msg', reason='the ROS message packages (make setup)')
from urdf_link_tools.ros import markers  # noqa: E402
from visualization_msgs.msg import Marker  # noqa: E402

MESH = (ROOT / 'samples' / 'meshes' / 'arm_collision.stl').as_posix()


def _collision(scale: str, shape: str = ''):
    geometry = shape or f'<mesh filename="{MESH}" scale="{scale}"/>'
    robot = parse_urdf_string(f'<robot name="r"><link name="l"><collision><geometry>{geometry}'
                              '</geometry></collision></link></robot>')
    link = robot.links[0]
    return markers.collision_marker(link, link.collisions[0], 0, (1, 0, 0, 1))


@pytest.mark.parametrize('scale', ['-1 1 1', '1 -1 1', '-0.001 -0.001 -0.001'])
def test_mirrored_mesh_is_drawn_with_its_scale(scale):
    marker = _collision(scale)
    assert marker is not None and marker.type == Marker.MESH_RESOURCE
    assert (marker.scale.x, marker.scale.y, marker.scale.z) == \
        tuple(float(v) for v in scale.split())


@pytest.mark.parametrize('scale, shape', [
    ('0 1 1', ''),                                  # RViz refuses a zero scale
    ('nan 1 1', ''),
    ('', '<box size="-0.1 0.1 0.1"/>'),             # a negative primitive: nothing to draw
    ('', '<sphere radius="0"/>'),
])
def test_zero_scales_and_negative_primitives_are_not_drawn(scale, shape):
    assert _collision(scale, shape) is None


def test_mirrored_arm_of_a_robot_gets_its_markers():
    robot = parse_urdf_string(
        f'<robot name="r"><link name="right"><collision><geometry><mesh filename="{MESH}"/>'
        f'</geometry></collision></link><link name="left"><collision><geometry>'
        f'<mesh filename="{MESH}" scale="1 -1 1"/></geometry></collision></link>'
        '<joint name="j" type="fixed"><parent link="right"/><child link="left"/>'
        '<origin xyz="0 1 0"/></joint></robot>')
    drawn = [m for m in markers.link_markers(analyze(robot, CheckConfig())).markers
             if m.ns == markers.NS_COLLISION]
    assert sorted(m.header.frame_id for m in drawn) == ['left', 'right']


def test_overlapping_pair_is_drawn_with_the_contact_point():
    analysis = analyze(parse_urdf_string(OVERLAPPING.format(lower=-1, upper=1)),
                       CheckConfig(check_meshes=False))
    drawn = [m for m in markers.link_markers(analysis).markers if m.ns == markers.NS_OVERLAP]
    assert [(m.header.frame_id, m.type) for m in drawn] == [
        ('arm', Marker.CYLINDER), ('camera', Marker.CUBE), ('arm', Marker.SPHERE)]
    assert len({m.id for m in drawn}) == 3
    point = drawn[2].pose.position
    assert 0.0 <= point.x <= 0.05 and point.z == pytest.approx(0.3, abs=0.05)
    off = markers.link_markers(analysis, markers.MarkerOptions(publish_collision=False))
    assert not [m for m in off.markers if m.ns == markers.NS_OVERLAP]


def test_a_link_overlapping_many_draws_each_of_them_and_every_contact():
    analysis = analyze(parse_urdf_string(envelope(4)), CheckConfig(check_meshes=False))
    drawn = [m for m in markers.link_markers(analysis).markers if m.ns == markers.NS_OVERLAP]
    cubes = sorted(m.header.frame_id for m in drawn if m.type == Marker.CUBE)
    assert cubes == ['f1', 'f2', 'f3', 'f4', 'shell']
    spheres = [m for m in drawn if m.type == Marker.SPHERE]
    assert len(spheres) == 4 and {m.header.frame_id for m in spheres} == {'shell'}
    assert all(abs(m.pose.position.z - 0.19) < 0.02 for m in spheres)
    assert len({m.id for m in drawn}) == len(drawn)


def test_a_pair_merged_with_its_mirror_pair_draws_both_pairs():
    # checks.mirrors: the left arm in its cover and the right arm in its are one finding;
    # RViz still shows the four links and a contact point in each pair.
    limbs = ''.join(
        box_link(name) + joint(f'{name}_joint', 'revolute', 'base', name, f'0 {y} 0')
        for name, y in (('left_arm', 0.3), ('left_cover', 0.32), ('right_arm', -0.3),
                        ('right_cover', -0.32)))
    analysis = analyze(parse_urdf_string(robot('r', box_link('base', '0.3 0.3 0.3'), limbs)),
                       CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings if f.rule == 'collision-overlap-at-rest']
    assert dict(finding.values)['mirror_other_link'] == 'right_cover'
    drawn = [m for m in markers.link_markers(analysis).markers if m.ns == markers.NS_OVERLAP]
    assert sorted(m.header.frame_id for m in drawn if m.type == Marker.CUBE) == \
        ['left_arm', 'left_cover', 'right_arm', 'right_cover']
    spheres = [m for m in drawn if m.type == Marker.SPHERE]
    assert sorted(m.header.frame_id for m in spheres) == ['left_arm', 'right_arm']
    assert spheres[0].pose.position.y == pytest.approx(-spheres[1].pose.position.y)
    assert len({m.id for m in drawn}) == len(drawn)


def test_an_envelope_merged_with_its_mirror_draws_both_fans():
    from test_checks_mirrors import housings
    analysis = analyze(parse_urdf_string(housings()))
    drawn = [m for m in markers.link_markers(analysis).markers if m.ns == markers.NS_OVERLAP]
    cubes = sorted(m.header.frame_id for m in drawn if m.type == Marker.CUBE)
    assert cubes == sorted(f'{side}_{part}' for side in ('left', 'right')
                           for part in ('housing', 'finger_0', 'finger_1', 'finger_2'))
    spheres = [m for m in drawn if m.type == Marker.SPHERE]
    assert sorted(m.header.frame_id for m in spheres) == ['left_housing'] * 3 + \
        ['right_housing'] * 3
    assert len({m.id for m in drawn}) == len(drawn)


def test_four_legs_merged_fore_aft_draw_the_four_pairs():
    # checks.mirrors: the four thighs in their shoulders are one finding; RViz still shows
    # the eight links and a contact point in each pair.
    from test_checks_mirrors import legs_in_shoulders
    analysis = analyze(parse_urdf_string(legs_in_shoulders()))
    drawn = [m for m in markers.link_markers(analysis).markers if m.ns == markers.NS_OVERLAP]
    legs = ('FL', 'FR', 'RL', 'RR')
    assert sorted(m.header.frame_id for m in drawn if m.type == Marker.CUBE) == sorted(
        f'{leg}_{part}' for leg in legs for part in ('thigh', 'thigh_shoulder'))
    assert sorted(m.header.frame_id for m in drawn if m.type == Marker.SPHERE) == \
        [f'{leg}_thigh' for leg in legs]
    assert len({m.id for m in drawn}) == len(drawn)


def test_an_overlap_of_links_welded_together_is_drawn_quietly():
    # An info (they never move apart): the parts in the collision colour, the contact in the
    # warning colour; a warning's parts are orange and its contact red.
    text = robot('welded', box_link('trunk', '0.4 0.4 0.1'),
                 box_link('face', '0.1 0.2 0.2', '0.3 0 0'),
                 box_link('cage', '0.1 0.2 0.2', '0.35 0 0'),
                 joint('jf', 'fixed', 'trunk', 'face'), joint('jc', 'fixed', 'trunk', 'cage'))
    options = markers.MarkerOptions()
    drawn = [m for m in markers.link_markers(analyze(parse_urdf_string(text), CheckConfig(
        check_meshes=False)), options).markers if m.ns == markers.NS_OVERLAP]
    parts = [m for m in drawn if m.type == Marker.CUBE]
    (contact,) = [m for m in drawn if m.type == Marker.SPHERE]
    assert parts and all((m.color.r, m.color.g, m.color.b) == pytest.approx(
        options.color_collision[:3]) for m in parts)
    assert (contact.color.r, contact.color.g, contact.color.b) == pytest.approx(
        options.color_warning[:3])


@pytest.mark.parametrize('scale, inward', [('1 1 1', False), ('-1 1 1', True),
                                           ('-1 -1 1', False), ('2 2 -2', True)])
def test_returned_triangles_are_scaled_and_mirrored_ones_point_inward(scale, inward):
    from urdf_link_tools.ros import conversions
    from urdf_link_tools.srv import GetLinkGeometry
    robot = parse_urdf_string(f'<robot name="r"><link name="l"><collision><geometry>'
                              f'<mesh filename="{MESH}" scale="{scale}"/></geometry>'
                              '</collision></link></robot>')
    response = conversions.fill_link_geometry(GetLinkGeometry.Response(),
                                              analyze(robot, CheckConfig()), 'l',
                                              include_mesh_triangles=True)
    mesh = response.geometries[0].mesh
    points = np.array([(v.x, v.y, v.z) for v in mesh.vertices])
    faces = np.array([list(t.vertex_indices) for t in mesh.triangles])
    a, b, c = (points[faces[:, i]] for i in range(3))
    signed_volume = np.einsum('ij,ij->i', a, np.cross(b, c)).sum() / 6.0
    factors = np.array([float(v) for v in scale.split()])
    original = parse_urdf_string(f'<robot name="r"><link name="l"><collision><geometry>'
                                 f'<mesh filename="{MESH}"/></geometry></collision></link>'
                                 '</robot>')
    plain = analyze(original, CheckConfig()).mesh_for(original.links[0].collisions[0])
    np.testing.assert_allclose(points, plain.vertices * factors)   # already scaled
    assert (signed_volume < 0) == inward


def test_a_second_collision_model_draws_every_pair_and_contact():
    # Franka-like arm (collision_robots.second_model): one finding for three pairs; RViz
    # shows the four links and a contact point per pair, in the root link's frame.
    from collision_robots import second_model
    analysis = analyze(parse_urdf_string(second_model(2)), CheckConfig(check_meshes=False))
    drawn = [m for m in markers.link_markers(analysis).markers if m.ns == markers.NS_OVERLAP]
    assert sorted(m.header.frame_id for m in drawn if m.type == Marker.CUBE) == \
        ['base', 'link1', 'link1_sc', 'link2_sc']
    spheres = [m for m in drawn if m.type == Marker.SPHERE]
    assert [m.header.frame_id for m in spheres] == ['base'] * 3
    assert sorted(round(m.pose.position.z, 3) for m in spheres) == [0.075, 0.45, 0.506]
    assert len({m.id for m in drawn}) == len(drawn)
