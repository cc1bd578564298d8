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

"""collision-visual-turned: collision geometry standing turned from the visual geometry."""

import math

from mesh_attacks import binary_stl, boxes
import numpy as np
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.checks.alignment import matrix_to_rpy, overlap, TURNS
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.geometry import rpy_to_matrix
from urdf_link_tools.parser import parse_urdf_string

RULE = 'collision-visual-turned'


def _part_mesh(folder, name='part.stl', up='z'):
    """Write an L-shaped bracket 0.3 m along its up axis, 0.1 and 0.04 across (asymmetric)."""
    points, faces = boxes([((0.0, 0.0, 0.0), (0.1, 0.04, 0.04)),
                           ((0.0, 0.0, 0.0), (0.04, 0.04, 0.3))])
    if up == 'y':  # exported Y-up: z goes to y, y to -z (a turn of 90 degrees about x)
        points = points @ rpy_to_matrix((math.pi / 2, 0.0, 0.0)).T
    return binary_stl(folder / name, points, faces)


def _robot(links: str) -> str:
    return f'<robot name="r"><link name="base"/>{links}</robot>'


def _link(name: str, visual: str, collision: str, parent: str = 'base') -> str:
    return (f'<joint name="{name}_joint" type="revolute"><parent link="{parent}"/>'
            f'<child link="{name}"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" '
            f'velocity="1"/></joint><link name="{name}"><inertial><origin xyz="0.02 0.02 0.1"/>'
            '<mass value="0.5"/><inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" iyz="0" '
            f'izz="0.0002"/></inertial><visual>{visual}</visual><collision>{collision}'
            '</collision></link>')


def _mesh(path, rpy='0 0 0', scale='1 1 1') -> str:
    return (f'<origin rpy="{rpy}"/><geometry><mesh filename="file://{path}" scale="{scale}"/>'
            '</geometry>')


def _turned(text: str):
    analysis = analyze(parse_urdf_string(text), CheckConfig())
    return [finding for finding in analysis.findings if finding.rule == RULE]


def test_a_collision_mesh_exported_y_up_is_found_with_the_turn_back(tmp_path):
    # Flexiv Rizon 10: every collision STL exported Y-up, the visuals Z-up; nothing said.
    visual, collision = _part_mesh(tmp_path, 'v.stl'), _part_mesh(tmp_path, 'c.stl', up='y')
    (finding,) = _turned(_robot(_link('arm', _mesh(visual), _mesh(collision))))
    assert finding.link == 'arm' and finding.severity.name == 'WARNING'
    assert '90 degrees about x' in finding.message, finding.message
    assert '<origin rpy="-1.5708 0 0"/> on the collision' in finding.suggestion, finding
    # The fix it gives puts the collision back onto the visual: nothing left to say.
    assert _turned(_robot(_link('arm', _mesh(visual), _mesh(collision, rpy='-1.5708 0 0')))) \
        == []


def test_the_fix_of_a_collision_placed_off_the_link_origin_moves_it_too():
    # Mirte's right mecanum wheels (sweep N): a cylinder 25 mm down the axle, the visual
    # 25 mm up it: "turned 180 degrees about x", fixed with rpy="3.14159 0 0" alone, which
    # turns the cylinder about its own origin and leaves it where it was (then a new turn
    # was asked). The turn is about the link origin: the fix moves the collision too.
    wheel = '<geometry><cylinder radius="0.05" length="0.05"/></geometry>'
    text = _robot(_link('wheel', f'<origin xyz="0 0 0.025"/>{wheel}',
                        f'<origin xyz="0 0 -0.025"/>{wheel}'))
    (finding,) = _turned(text)
    assert '<origin xyz="0 0 0.025" rpy="3.14159 0 0"/> on the collision' in \
        finding.suggestion, finding.suggestion
    fixed = text.replace('<origin xyz="0 0 -0.025"/>',
                         '<origin xyz="0 0 0.025" rpy="3.14159 0 0"/>')
    assert _turned(fixed) == []


def test_links_turned_the_same_way_are_one_finding(tmp_path):
    visual, collision = _part_mesh(tmp_path, 'v.stl'), _part_mesh(tmp_path, 'c.stl', up='y')
    links = ''.join(_link(f'l{index}', _mesh(visual), _mesh(collision)) for index in range(4))
    (finding,) = _turned(_robot(links))
    assert finding.link is None and finding.links == ('l0', 'l1', 'l2', 'l3')
    assert finding.message.startswith('on 4 links (l0, l1, l2, l3)'), finding.message


@pytest.mark.parametrize('collision_rpy, scale, fix', [
    ('0 0 0', '1 1 1', 'rpy="1.571 0 0" on its <origin>'),  # Alex SAKE hand: rpy left out
    ('1.571 0 0', '1 -1 1', 'scale="1 1 -1" on its <mesh>'),  # TIAGo dual: mirrored otherwise
])
def test_the_same_mesh_placed_otherwise_gets_the_visuals_placement(
        tmp_path, collision_rpy, scale, fix):
    mesh = _part_mesh(tmp_path)
    (finding,) = _turned(_robot(_link('finger', _mesh(mesh, rpy='1.571 0 0', scale='1 1 -1'
                                                      if 'scale' in fix else '1 1 1'),
                                      _mesh(mesh, rpy=collision_rpy, scale=scale))))
    assert 'names the same mesh file as the visual' in finding.suggestion, finding
    assert fix in finding.suggestion, finding.suggestion


@pytest.mark.parametrize('collision', [
    # a simpler shape inside the visual (a cylinder along the part)
    '<origin xyz="0.02 0.02 0.15"/><geometry><cylinder radius="0.03" length="0.3"/></geometry>',
    # a box around the part, a bit larger
    '<origin xyz="0.05 0.02 0.15"/><geometry><box size="0.12 0.06 0.32"/></geometry>',
    # the same part, shifted (not turned): another rule's concern, not this one
    '<origin xyz="0 0 0.2"/><geometry><box size="0.1 0.04 0.3"/></geometry>',
])
def test_a_collision_that_is_not_the_visual_turned_is_not_reported(tmp_path, collision):
    visual = _part_mesh(tmp_path)
    assert _turned(_robot(_link('arm', _mesh(visual), collision))) == []


def test_a_cube_or_a_ball_is_never_turned(tmp_path):
    # Any turn of a shape with every side alike fits it: nothing to tell apart.
    cube = '<geometry><box size="0.1 0.1 0.1"/></geometry>'
    ball = '<origin xyz="0.3 0 0"/><geometry><sphere radius="0.05"/></geometry>'
    assert _turned(_robot(_link('a', cube, cube) + _link('b', ball, cube))) == []


def test_the_turns_and_their_rpy():
    assert len(TURNS) == 23 and all(abs(np.linalg.det(turn) - 1.0) < 1e-12 for turn in TURNS)
    for turn in TURNS:
        assert np.allclose(rpy_to_matrix(matrix_to_rpy(turn)), turn, atol=1e-9)
    box = (np.zeros(3), np.array([1.0, 2.0, 3.0]))
    assert overlap(box, box) == pytest.approx(1.0)
    assert overlap(box, (box[0] + 10.0, box[1] + 10.0)) == 0.0


def _at(path, xyz) -> str:
    return f'<origin xyz="{xyz}"/><geometry><mesh filename="file://{path}"/></geometry>'


@pytest.mark.parametrize('xyz,apart', [('-25 0 0', True), ('0 0 0.5', True),
                                       ('0 0 0.02', False), ('0 0 0', False)])
def test_a_visual_away_from_its_collision_of_the_same_mesh_is_said(tmp_path, xyz, apart):
    # Orbbec's Gemini 335: a lens's visual at xyz="-25 0 0", its collision (the same STL) at
    # the link: nothing was said, and the part, "25 m across" with a lens's tensor, made
    # its correct tensor and its two twins' a placeholder.
    path = _part_mesh(tmp_path)
    links = ''.join(_link(name, _at(path, xyz if name == 'a' else '0 0 0'), _at(path, '0 0 0'))
                    for name in ('a', 'b', 'c'))
    findings = analyze(parse_urdf_string(_robot(links)), CheckConfig()).findings
    found = [f for f in findings if f.rule == 'collision-visual-apart']
    assert [f.link for f in found] == (['a'] if apart else [])
    if apart:
        assert f'the visual at xyz="{xyz}", the collision at xyz="0 0 0"' in found[0].message
        assert found[0].suggestion.startswith('give both the same <origin> xyz: xyz="0 0 0" '
                                              'on the visual')
    assert not [f for f in findings if f.rule == 'inertial-placeholder']
    # three such links: one finding
    links = ''.join(_link(name, _at(path, '-25 0 0'), _at(path, '0 0 0'))
                    for name in ('a', 'b', 'c'))
    (group,) = [f for f in analyze(parse_urdf_string(_robot(links)), CheckConfig()).findings
                if f.rule == 'collision-visual-apart']
    assert group.links == ('a', 'b', 'c') and group.message.startswith('3 links draw their '
                                                                       'visual mesh 25 to 25 m')


def test_two_copies_of_a_part_in_one_link_are_not_apart(tmp_path):
    # onshape-to-robot's Open Duck Mini: the trunk holds two bearings (one STL) 0.5 m apart
    # here, each visual at its own collision; visual 1 was paired with collision 0 and told
    # to move onto the other copy. A visual with no collision of its mesh beside it still is.
    path = _part_mesh(tmp_path)
    pair = (f'<visual>{_at(path, "0 0 0")}</visual><collision>{_at(path, "0 0 0")}</collision>'
            f'<visual>{_at(path, "0 0.5 0")}</visual><collision>{_at(path, "0 0.5 0")}'
            '</collision>')
    link = _link('a', _at(path, '0 0 0'), _at(path, '0 0 0')).replace(
        f'<visual>{_at(path, "0 0 0")}</visual><collision>{_at(path, "0 0 0")}</collision>',
        pair)
    assert link.count('<visual>') == 2
    findings = analyze(parse_urdf_string(_robot(link)), CheckConfig()).findings
    assert not [f for f in findings if f.rule == 'collision-visual-apart']
    stray = link.replace(f'<visual>{_at(path, "0 0.5 0")}</visual>',
                         f'<visual>{_at(path, "0 -3 0")}</visual>')
    (found,) = [f for f in analyze(parse_urdf_string(_robot(stray)), CheckConfig()).findings
                if f.rule == 'collision-visual-apart']
    assert 'the visual at xyz="0 -3 0", the collision at xyz="0 0 0"' in found.message


def test_one_mesh_moved_less_than_its_size_is_apart_not_turned(tmp_path):
    # Cobotta's vacuum cup (sweep X): the visual and the collision name one DAE, both
    # unturned, the visual 87.5 mm down; the part, 90 mm tall and alike turned about x,
    # was said turned 180 degrees, with a fix that put the cup upside down. It is moved.
    cup = tmp_path / 'cup.stl'
    binary_stl(cup, *boxes([((-0.03, -0.03, 0.0), (0.03, 0.03, 0.09))]))
    text = _robot(_link('cup', _at(cup, '0 0 -0.0875'), _at(cup, '0 0 0')))
    findings = analyze(parse_urdf_string(text), CheckConfig()).findings
    assert not [f for f in findings if f.rule == RULE]
    (found,) = [f for f in findings if f.rule == 'collision-visual-apart']
    assert 'the visual at xyz="0 0 -0.0875", the collision at xyz="0 0 0"), their bounds ' \
        'sharing 1 % as placed: one origin is wrong' in found.message, found.message
    assert found.suggestion.startswith('give both the same <origin> xyz: xyz="0 0 0" on the '
                                       'visual')
