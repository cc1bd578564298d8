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

"""Table-driven tests: every rule fires on its positive case and stays quiet on its negative."""

import math
import random

import mesh_attacks
import numpy as np
import pytest

from urdf_link_tools.analysis import analyze
from urdf_link_tools.checks import joints, plausibility, RULES
from urdf_link_tools.checks.base import CheckContext
from urdf_link_tools.checks.density import group_bounds
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.meshes import MeshInfo
from urdf_link_tools.parser import parse_urdf_string

NO_MESHES = CheckConfig(check_meshes=False)


def robot(body: str, name: str = 'r') -> str:
    return f'<robot name="{name}">{body}</robot>'


def inertial(mass='1', ixx='0.1', iyy='0.1', izz='0.1', ixy='0', ixz='0', iyz='0',
             xyz='0 0 0', rpy='0 0 0') -> str:
    return (f'<inertial><origin xyz="{xyz}" rpy="{rpy}"/><mass value="{mass}"/>'
            f'<inertia ixx="{ixx}" ixy="{ixy}" ixz="{ixz}" iyy="{iyy}" iyz="{iyz}" '
            f'izz="{izz}"/></inertial>')


def box(size='0.1 0.1 0.1', group='collision', xyz='0 0 0', extra='') -> str:
    return (f'<{group}><origin xyz="{xyz}"/><geometry><box size="{size}"/></geometry>'
            f'{extra}</{group}>')


def moving(child_body: str, joint_type='revolute', root_body='') -> str:
    """Return a robot with a root 'base' and a child 'part' on a joint."""
    return robot(f'<link name="base">{root_body}</link>'
                 f'<joint name="j" type="{joint_type}"><parent link="base"/>'
                 f'<child link="part"/><axis xyz="0 0 1"/>'
                 f'<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
                 f'<link name="part">{child_body}</link>')


def cube_inertial(mass=1.0, side=0.1, **kw) -> str:
    moment = mass * 2 * side * side / 12
    return inertial(mass=repr(mass), ixx=repr(moment), iyy=repr(moment), izz=repr(moment), **kw)


GOOD_PART = cube_inertial(1.0, 0.1) + box('0.1 0.1 0.1')
#: 1 kg, the tensor of a solid 0.1 x 0.1 x 1 m box
TALL_BOX = inertial(ixx='0.0841667', iyy='0.0841667', izz='0.00166667')
# A 1 kg, 10 cm cube has a density of 1000 kg/m^3 and moments 1/600.

# (rule, urdf text, expected severity or None for "must not fire")
CASES = [
    # mass-not-positive
    ('mass-not-positive', moving(box()), Severity.ERROR),
    ('mass-not-positive', moving(inertial(mass='0') + box()), Severity.ERROR),
    ('mass-not-positive', moving(inertial(mass='-2') + box()), Severity.ERROR),
    ('mass-not-positive', moving('', joint_type='fixed'), None),      # pure frame
    ('mass-not-positive', robot('<link name="frame"/>'), None),      # root frame
    # a massless fixed or root link with collision: info only when its body has no mass
    ('mass-not-positive', moving(box(), joint_type='fixed'), Severity.INFO),
    ('mass-not-positive', robot('<link name="root">' + box() + '</link>'), Severity.INFO),
    ('mass-not-positive', moving(box(), joint_type='fixed', root_body=GOOD_PART), None),
    ('mass-not-positive', moving(GOOD_PART), None),
    # massless moving link whose fixed child carries the mass: lumped, fine
    ('mass-not-positive', robot(
        '<link name="base"/><joint name="j" type="continuous"><parent link="base"/>'
        '<child link="part"/></joint><link name="part"/>'
        '<joint name="w" type="fixed"><parent link="part"/><child link="mass"/></joint>'
        f'<link name="mass">{GOOD_PART}</link>'), None),
    # mass-not-finite
    ('mass-not-finite', moving(inertial(mass='nan') + box()), Severity.ERROR),
    ('mass-not-finite', moving(inertial(mass='inf') + box()), Severity.ERROR),
    ('mass-not-finite', moving(GOOD_PART), None),
    # inertia-not-finite
    ('inertia-not-finite', moving(inertial(ixy='nan') + box()), Severity.ERROR),
    ('inertia-not-finite', moving(inertial(izz='-inf') + box()), Severity.ERROR),
    ('inertia-not-finite', moving(GOOD_PART), None),
    # mass-tiny-on-moving-link: boundary at min_mass (1e-6) and MuJoCo's 1e-15
    ('mass-tiny-on-moving-link', moving(cube_inertial(9.9e-7)), Severity.WARNING),
    ('mass-tiny-on-moving-link', moving(cube_inertial(1e-6)), None),
    ('mass-tiny-on-moving-link', moving(cube_inertial(1e-16)), Severity.ERROR),
    ('mass-tiny-on-moving-link', moving(cube_inertial(1e-7), joint_type='fixed'), None),
    # inertia-not-positive-definite
    ('inertia-not-positive-definite', moving(inertial(ixx='-0.1')), Severity.ERROR),
    ('inertia-not-positive-definite', moving(inertial(ixy='0.2')), Severity.ERROR),
    ('inertia-not-positive-definite', moving(inertial(ixx='0', iyy='-1', izz='2')),
     Severity.ERROR),
    ('inertia-not-positive-definite', moving(inertial(ixy='0.05', ixz='0.05', iyz='0.05')),
     None),
    # inertia-moment-tiny: MuJoCo's floor is 1e-14
    ('inertia-moment-tiny', moving(inertial(ixx='0', iyy='0', izz='0')), Severity.ERROR),
    # a welded point mass is fused into the body above: MuJoCo compiles it
    ('inertia-moment-tiny', moving(inertial(ixx='0', iyy='0', izz='0'), joint_type='fixed'),
     None),
    # a moving point mass whose welded child has inertia: MuJoCo compiles the fused body
    ('inertia-moment-tiny', robot(
        '<link name="base"/><joint name="j" type="continuous"><parent link="base"/>'
        '<child link="part"/></joint><link name="part">' + inertial(ixx='0', iyy='0', izz='0')
        + '</link><joint name="w" type="fixed"><parent link="part"/><child link="mass"/>'
        f'</joint><link name="mass">{GOOD_PART}</link>'), None),
    # a floating-base root with mass and no inertia: MuJoCo refuses it with a free joint
    ('inertia-moment-tiny', robot('<link name="base">' + inertial(ixx='0', iyy='0', izz='0')
                                  + '</link>'), Severity.ERROR),
    ('inertia-moment-tiny', moving(inertial(ixx='0.9e-14', iyy='0.1', izz='0.1')),
     Severity.ERROR),
    ('inertia-moment-tiny', moving(inertial(ixx='1e-14', iyy='1e-14', izz='1e-14',
                                            mass='1e-6')), None),
    # inertia-triangle-inequality
    ('inertia-triangle-inequality', moving(inertial(ixx='0.01', iyy='0.01', izz='0.05')),
     Severity.ERROR),
    ('inertia-triangle-inequality', moving(inertial(ixx='0.01', iyy='0.01', izz='0.02')),
     None),   # a thin plate sits exactly on the boundary
    ('inertia-triangle-inequality', moving(inertial(ixx='0.01', iyy='0.01', izz='0.0200001')),
     Severity.ERROR),
    # root-link-inertia
    ('root-link-inertia', moving(GOOD_PART, root_body=GOOD_PART), Severity.INFO),
    ('root-link-inertia', moving(GOOD_PART), None),
    # a robot of one link (Bullet's and Genesis's props): no tree for KDL
    ('root-link-inertia', robot('<link name="base">' + GOOD_PART + '</link>'), None),
    # inertial-origin-rotated: a portability note
    ('inertial-origin-rotated', moving(inertial(ixy='0.01', rpy='0 0 0.3')), Severity.INFO),
    ('inertial-origin-rotated', moving(inertial(iyy='0.2', rpy='0 0 0.3')), Severity.INFO),
    # ... but not when the rotation changes no number: a sphere's tensor, a half turn
    ('inertial-origin-rotated', moving(inertial(rpy='0 0 0.3')), None),
    ('inertial-origin-rotated', moving(inertial(iyy='0.2', rpy='0 0 3.14159')), None),
    ('inertial-origin-rotated', moving(inertial(ixy='0.01')), None),
    # inertia-geometry-mismatch: factor 10 either way; 'larger' past what the part can
    # have at all is inertia-exceeds-extent (an error), and a tensor that is the box of
    # the whole part (visual bounds) is not off because the collision is a short slab
    ('inertia-geometry-mismatch', moving(inertial(ixx='100', iyy='100', izz='100')
                                         + box('1 1 1')), None),
    ('inertia-exceeds-extent', moving(inertial(ixx='100', iyy='100', izz='100')
                                      + box('1 1 1')), Severity.ERROR),
    ('inertia-exceeds-extent', moving(inertial(ixx='0.5', iyy='0.5', izz='0.5')
                                      + box('1 1 1')), None),  # the bound: m (0.25 + 0.25)
    ('inertia-exceeds-extent', moving(inertial(ixx='0.59', iyy='0.59', izz='0.59')
                                      + box('1 1 1')), None),  # within the 1.2 margin
    ('inertia-exceeds-extent', moving(inertial(ixx='0.61', iyy='0.61', izz='0.61')
                                      + box('1 1 1')), Severity.WARNING),  # just over it
    # under 2x the bound, a coarser shape's tensor (UR3e's wrist 2: 1.20x): a warning
    ('inertia-exceeds-extent', moving(inertial(ixx='0.99', iyy='0.99', izz='0.99')
                                      + box('1 1 1')), Severity.WARNING),
    ('inertia-exceeds-extent', moving(inertial(ixx='1.01', iyy='1.01', izz='1.01')
                                      + box('1 1 1')), Severity.ERROR),
    # inertia-exceeds-robot: no geometry on the link's body; the robot bounds it
    ('inertia-exceeds-robot', moving(inertial(mass='0.001', ixx='0.001', iyy='0.001',
                                              izz='0.001'), root_body=GOOD_PART),
     Severity.WARNING),
    ('inertia-exceeds-robot', moving(inertial(mass='0.001', ixx='1e-8', iyy='1e-8',
                                              izz='1e-8'), root_body=GOOD_PART), None),
    ('inertia-geometry-mismatch', moving(TALL_BOX + box('0.1 0.1 0.02')
                                         + box('0.1 0.1 1', group='visual')), None),
    ('inertia-exceeds-extent', moving(TALL_BOX + box('0.1 0.1 0.02')
                                      + box('0.1 0.1 1', group='visual')), None),
    ('inertia-exceeds-extent', moving(TALL_BOX + box('0.1 0.1 0.02')), Severity.ERROR),
    ('inertia-geometry-mismatch', moving(cube_inertial(1.0, 1.0) + box('1 1 1')), None),
    ('inertia-geometry-mismatch', moving(inertial(ixx='0.0166', iyy='0.0166', izz='0.0166')
                                         + box('1 1 1')), Severity.WARNING),
    # density-implausible (1 kg in 1 m^3 of box = 1 kg/m^3)
    ('density-implausible', moving(cube_inertial(1.0, 1.0) + box('1 1 1')), Severity.WARNING),
    ('density-implausible', moving(GOOD_PART), None),
    # com-outside-geometry
    ('com-outside-geometry', moving(cube_inertial(1.0, 0.1, xyz='0 0 0.5') + box()),
     Severity.WARNING),
    ('com-outside-geometry', moving(cube_inertial(1.0, 0.1, xyz='0 0 0.05') + box()), None),
    # within 1 cm of a small part's bounds: quiet
    ('com-outside-geometry', moving(cube_inertial(1.0, 0.1, xyz='0 0 0.059') + box()), None),
    # collision-missing
    ('collision-missing', moving(cube_inertial() + box(group='visual')), Severity.WARNING),
    ('collision-missing', moving(cube_inertial()), Severity.INFO),   # nothing to draw
    ('collision-missing', moving(cube_inertial() + box('0.005 0.005 0.005', group='visual')),
     None),   # a marker
    ('collision-missing', moving(box(group='visual'), joint_type='fixed',
                                 root_body=GOOD_PART), None),   # welded to a colliding body
    ('collision-missing', moving('', joint_type='fixed'), None),
    ('collision-missing', moving(GOOD_PART), None),
    # geometry-degenerate
    ('geometry-degenerate', moving(cube_inertial() + box('0 0.1 0.1')), Severity.ERROR),
    ('geometry-degenerate', moving(cube_inertial() + '<collision><geometry><cylinder '
                                   'radius="-0.1" length="0.2"/></geometry></collision>'),
     Severity.ERROR),
    ('geometry-degenerate', moving(cube_inertial() + '<collision><geometry><sphere '
                                   'radius="0"/></geometry></collision>'), Severity.ERROR),
    ('geometry-degenerate', moving(GOOD_PART + box('0 0 0', group='visual')), Severity.INFO),
    ('geometry-degenerate', moving(GOOD_PART), None),
    # geometry-not-finite
    ('geometry-not-finite', moving(cube_inertial() + box('nan 0.1 0.1')), Severity.ERROR),
    ('geometry-not-finite', moving(GOOD_PART), None),
    # origin-not-finite
    ('origin-not-finite', moving(cube_inertial() + box(xyz='0 inf 0')), Severity.ERROR),
    ('origin-not-finite', moving(cube_inertial(xyz='nan 0 0') + box()), Severity.ERROR),
    ('origin-not-finite', moving(GOOD_PART), None),
    # material-undefined / material-color-range
    ('material-undefined', moving(GOOD_PART + box(group='visual',
                                                  extra='<material name="Nope"/>')),
     Severity.WARNING),
    # KHI's duaro: an empty name, which urdfdom skips: an info (not "define <material
    # name="">", which would change nothing)
    ('material-undefined', moving(GOOD_PART + box(group='visual', extra='<material name=""/>')),
     Severity.INFO),
    ('material-undefined', robot('<material name="Red"><color rgba="1 0 0 1"/></material>'
                                 '<link name="a">' + box(group='visual',
                                                         extra='<material name="Red"/>')
                                 + box() + '</link>'), None),
    ('material-color-range', robot('<material name="Red"><color rgba="255 0 0 1"/></material>'
                                   '<link name="a"/>'), Severity.WARNING),
    ('material-color-range', robot('<material name="Red"><color rgba="1 0 0 1"/></material>'
                                   '<link name="a"/>'), None),
    # structure
    ('robot-empty', robot(''), Severity.ERROR),
    ('link-duplicate-name', robot('<link name="a"/><link name="a"/>'), Severity.ERROR),
    ('link-duplicate-name', robot('<link name="a"/>'), None),
    ('joint-duplicate-name', robot(
        '<link name="a"/><link name="b"/><link name="c"/>'
        '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>'
        '<joint name="j" type="fixed"><parent link="a"/><child link="c"/></joint>'),
     Severity.ERROR),
    ('joint-unknown-link', robot('<link name="a"/><joint name="j" type="fixed">'
                                 '<parent link="a"/><child link="b"/></joint>'), Severity.ERROR),
    ('joint-unknown-link', moving(GOOD_PART), None),
    ('link-multiple-parents', robot(
        '<link name="a"/><link name="b"/><link name="c"/>'
        '<joint name="j1" type="fixed"><parent link="a"/><child link="c"/></joint>'
        '<joint name="j2" type="fixed"><parent link="b"/><child link="c"/></joint>'),
     Severity.ERROR),
    ('kinematic-loop', robot(
        '<link name="root"/><link name="a"/><link name="b"/>'
        '<joint name="j0" type="fixed"><parent link="root"/><child link="a"/></joint>'
        '<joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>'
        '<joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint>'),
     Severity.ERROR),
    ('kinematic-loop', moving(GOOD_PART), None),
    ('robot-multiple-roots', robot('<link name="a"/><link name="b"/>'), Severity.ERROR),
    ('robot-multiple-roots', moving(GOOD_PART), None),
    # (links of a second tree are robot-multiple-roots' since the thirty-first round: those
    # of a closed chain that no root reaches are still disconnected one by one)
    ('link-disconnected', robot(
        '<link name="a"/><link name="b"/><link name="c"/>'
        '<joint name="j1" type="fixed"><parent link="b"/><child link="c"/></joint>'
        '<joint name="j2" type="fixed"><parent link="c"/><child link="b"/></joint>'),
     Severity.ERROR),
    ('link-disconnected', moving(GOOD_PART), None),
]


def _ids():
    seen = {}
    out = []
    for rule, _, severity in CASES:
        seen[rule] = seen.get(rule, 0) + 1
        out.append(f'{rule}-{severity.label if severity else "quiet"}-{seen[rule]}')
    return out


@pytest.mark.parametrize('rule,text,severity', CASES, ids=_ids())
def test_rule_table(rule, text, severity):
    analysis = analyze(parse_urdf_string(text), NO_MESHES)
    found = [finding for finding in analysis.findings if finding.rule == rule]
    if severity is None:
        assert not found, [f.message for f in found]
    else:
        assert found, f'{rule} did not fire; got {[f.rule for f in analysis.findings]}'
        assert found[0].severity == severity, found[0]
        assert found[0].message
        assert rule in RULES


def test_every_documented_rule_has_a_case_or_is_tested_elsewhere():
    tested = {rule for rule, _, _ in CASES}
    elsewhere = {'mesh-not-found', 'mesh-unreadable', 'collision-mesh-too-complex',
                 'collision-reuses-visual-mesh', 'inertia-unrepresentable-box',
                 'internal-error', 'custom-element-unreadable', 'robot-name-missing',
                 'material-duplicate', 'analysis-incomplete',
                 # test_meshes_broken.py, test_meshes_attacks.py (they need mesh files)
                 'collision-mesh-broken', 'collision-mesh-unmeasured',
                 # test_checks_model_wide.py (robots of several links)
                 'robot-kinematics-only', 'robot-collision-partial', 'robot-placeholder-limits',
                 'xacro-unexpanded',
                 # test_checks_engines.py (mesh files, run in MuJoCo)
                 'mujoco-mesh-format', 'mujoco-mesh-coplanar', 'mujoco-mesh-name-clash',
                 'mujoco-repeated-material', 'mujoco-repeated-element',
                 'gazebo-reference-unknown', 'mujoco-start-outside-limits',
                 # test_meshes_formats.py (glTF files)
                 'mesh-gltf-up-axis',
                 # test_checks_bounds.py, test_checks_model_wide.py (chains of links)
                 'inertia-about-link-origin', 'inertial-placeholder',
                 # test_checks_collisions.py
                 'collision-overlap-at-rest', 'collision-overlap-not-all-tested',
                 'srdf-unknown-links',
                 # test_checks_collision_targets.py (run in MuJoCo)
                 'mujoco-joined-links-collide',
                 # test_a_mass_or_centre_of_mass_no_part_has_is_one_error_and_no_tensor_fix
                 'inertial-out-of-range',
                 # test_checks_alignment.py (mesh files)
                 'collision-visual-turned', 'collision-visual-apart',
                 # test_checks_bounds.py (chains of links)
                 'density-solid-metal', 'inertia-axes-turned'}
    parse_notes = {rule for rule in RULES if rule.startswith('parse-')}
    # the suppression-* rules are about comments: test_ci_suppression.py has their cases
    suppression = {rule for rule in RULES if rule.startswith('suppression-')}
    joint_rules = {rule.rule_id for rule in joints.RULES}  # test_checks_joints.py
    assert set(RULES) - tested - elsewhere - parse_notes - suppression - joint_rules == set()


def test_spec_example_my_link_is_flagged_with_the_cylinder_tensor():
    text = moving(inertial(ixx='100', iyy='100', izz='100', xyz='0 0 0.5')
                  + box('1 1 1', group='visual')
                  + '<collision><geometry><cylinder radius="1" length="0.5"/></geometry>'
                    '</collision>')
    analysis = analyze(parse_urdf_string(text), NO_MESHES)
    # 100 kg m^2 for 1 kg is more than any body within the 2 x 2 x 1 m geometry can have:
    # an error of its own (the mismatch, a lesser claim, is not repeated)
    mismatch = [f for f in analysis.findings if f.rule == 'inertia-exceeds-extent']
    assert len(mismatch) == 1 and mismatch[0].severity == Severity.ERROR
    assert 'inertia-geometry-mismatch' not in {f.rule for f in analysis.findings}
    ixx, ixy, ixz, iyy, iyz, izz = mismatch[0].suggested_inertia
    assert ixx == pytest.approx((3 * 1 + 0.25) / 12)   # m (3 r^2 + l^2) / 12
    assert izz == pytest.approx(0.5)                   # m r^2 / 2
    assert (ixy, ixz, iyz) == (0, 0, 0)
    # the centre of mass is inside the visual box: the collision cylinder is not the part
    rules = {f.rule for f in analysis.findings}
    assert 'density-implausible' in rules and 'com-outside-geometry' not in rules
    # (equal moments: a placeholder tensor beside the placeholder mass, each said by its rule)
    assert 'far too light' not in mismatch[0].message


def test_spec_example_as_issue_states_it_one_metre_cube_gives_one_sixth():
    text = moving(inertial(ixx='100', iyy='100', izz='100') + box('1 1 1'))
    analysis = analyze(parse_urdf_string(text), NO_MESHES)
    mismatch = [f for f in analysis.findings if f.rule == 'inertia-exceeds-extent']
    assert mismatch and mismatch[0].severity == Severity.ERROR
    assert mismatch[0].suggested_inertia[0] == pytest.approx(1 / 6)
    assert '0.1667' in mismatch[0].suggestion or '0.166666667' in mismatch[0].suggestion
    assert 'at most m (V_y + V_z) = 0.5 kg m^2' in mismatch[0].message


# 10x larger than a solid box's moment is past the bound (3x for a centred box):
# inertia-exceeds-extent (CASES); the factor is reached only downwards or with partial geometry
@pytest.mark.parametrize('declared,fires', [
    (1 / 6 / 10 * 0.9999, True), (1 / 6 / 10 * 1.0001, False)])
def test_mismatch_factor_boundary(declared, fires):
    value = repr(declared)
    text = moving(inertial(ixx=value, iyy=value, izz=value) + box('1 1 1'))
    rules = {f.rule for f in analyze(parse_urdf_string(text), NO_MESHES).findings}
    assert ('inertia-geometry-mismatch' in rules) == fires


def test_mismatch_uses_the_inertial_frame_rotation():
    # A 1 x 1 x 4 box, tensor written in a frame rotated 90 degrees about x: the long axis
    # is the frame's y axis, so izz (not iyy) is the small moment.
    m = 1.0
    small = m * (1 + 1) / 12
    big = m * (1 + 16) / 12
    good = inertial(ixx=repr(big), iyy=repr(small), izz=repr(big), rpy=f'{math.pi / 2} 0 0')
    text = moving(good + box('1 1 4'))
    analysis = analyze(parse_urdf_string(text),
                       CheckConfig(check_meshes=False, inertia_mismatch_factor=1.01,
                                   density_min=0.1))
    assert 'inertia-geometry-mismatch' not in {f.rule for f in analysis.findings}


@pytest.mark.parametrize('density,fires', [(49.99, True), (50.0, False), (25000.0, False),
                                           (25000.1, True)])
def test_density_boundaries(density, fires):
    mass = density * 1.0   # in a 1 m^3 cube
    text = moving(cube_inertial(mass, 1.0) + box('1 1 1'))
    rules = {f.rule for f in analyze(parse_urdf_string(text), NO_MESHES).findings}
    assert ('density-implausible' in rules) == fires


@pytest.mark.parametrize('declared,fires', [(('0.00454', '0.00454', '0.000388'), False),
                                            (('0.0002', '0.0002', '0.00002'), True)])
def test_a_tensor_of_the_visual_part_is_not_judged_by_a_partial_collision(declared, fires):
    # Unitree H1's upper arm: the tensor of its 25 cm visual (a cylinder here), a 1 cm disc
    # as collision. Suggesting the disc's tensor would make the arm 10 times too light to
    # turn; a tensor unlike both is still reported.
    ixx, iyy, izz = declared
    part = (inertial(mass='0.862', ixx=ixx, iyy=iyy, izz=izz, xyz='0 0 -0.123')
            + '<visual><origin xyz="0 0 -0.123"/><geometry><cylinder radius="0.03" '
              'length="0.246"/></geometry></visual>'
            + '<collision><origin xyz="0 0 -0.11"/><geometry><cylinder radius="0.04" '
              'length="0.01"/></geometry></collision>')
    rules = {f.rule for f in analyze(parse_urdf_string(moving(part)), NO_MESHES).findings}
    assert ('inertia-geometry-mismatch' in rules) == fires


def _visual(shape: str, xyz: str, rpy: str) -> str:
    return (f'<visual><origin xyz="{xyz}" rpy="{rpy}"/><geometry>{shape}</geometry>'
            '</visual>')


def test_the_bound_that_spares_measuring_a_visual_holds_for_any_shape():
    # _fits_visual gives up without measuring a visual mesh when the declared largest moment
    # is over BOX_FIT times mass * |half diagonal of the visual bounds|^2. Sound only if no
    # body of that mass within those bounds has a larger moment: checked on rotated, offset
    # primitives, alone and three together.
    rng = random.Random(7)
    shapes = [lambda: f'<box size="{rng.uniform(0.01, 1)} {rng.uniform(0.01, 1)} '
                      f'{rng.uniform(0.01, 1)}"/>',
              lambda: f'<cylinder radius="{rng.uniform(0.01, 0.5)}" '
                      f'length="{rng.uniform(0.01, 1)}"/>',
              lambda: f'<sphere radius="{rng.uniform(0.01, 0.5)}"/>']
    closest = 0.0
    for _ in range(300):
        visuals = ''.join(_visual(rng.choice(shapes)(),
                                  ' '.join(str(rng.uniform(-0.3, 0.3)) for _ in range(3)),
                                  ' '.join(str(rng.uniform(-3, 3)) for _ in range(3)))
                          for _ in range(rng.choice((1, 1, 3))))
        parsed = parse_urdf_string(moving(inertial() + visuals))
        ctx = CheckContext(parsed, NO_MESHES)
        link = parsed.link('part')
        model, _ = ctx.visual_model(link)
        bounds = group_bounds(ctx, link.visuals)
        half = (bounds[1] - bounds[0]) / 2.0
        largest = float(np.linalg.eigvalsh(model.unit_inertia / model.volume)[-1])
        assert largest <= float(half @ half)
        closest = max(closest, largest / float(half @ half))
    assert closest > 0.3  # the bound is near enough to be worth taking


def test_a_tensor_far_above_any_body_in_the_visual_bounds_is_decided_unmeasured():
    # A UR5 wrist declares 142x the moments of its collision mesh: no body in its visual
    # bounds comes within BOX_FIT, so the visual mesh (20 ms of Qhull) is never measured.
    parsed = parse_urdf_string(moving(
        inertial(ixx='1', iyy='1', izz='2')
        + _visual('<box size="0.1 0.1 0.1"/>', '0 0 0', '0 0 0') + box()))
    ctx = CheckContext(parsed, NO_MESHES)
    link = parsed.link('part')
    assert not plausibility._fits_visual(ctx, link, np.array([1.0, 1.0, 2.0]))
    assert not any(key.startswith('visual-') for key in ctx._models)
    assert plausibility._fits_visual(ctx, link, np.array([1.0, 1.0, 1.2]) / 600)
    assert any(key.startswith('visual-') for key in ctx._models)


def test_a_density_on_the_limit_but_for_rounding_is_within():
    # rrbot's links: 1 kg in 0.1 x 0.1 x 2 m, 49.99999999999999 kg/m^3 in floating point,
    # were reported as "50 kg/m^3, outside 50 to 2.5e+04 kg/m^3".
    text = moving(cube_inertial(1.0, 0.1) + box('0.1 0.1 2.0'))
    rules = {f.rule for f in analyze(parse_urdf_string(text), NO_MESHES).findings}
    assert 'density-implausible' not in rules
    heavier = moving(cube_inertial(0.999, 0.1) + box('0.1 0.1 2.0'))
    rules = {f.rule for f in analyze(parse_urdf_string(heavier), NO_MESHES).findings}
    assert 'density-implausible' in rules


@pytest.mark.parametrize('visual_scale,fires', [('1 1 1', True), ('2 2 2', False)])
def test_a_visual_that_is_the_collision_mesh_counts_once_in_the_volume(tmp_path, visual_scale,
                                                                       fires):
    # DENSO VS060's J6: 1 kg in one 24.5 cm^3 mesh used as visual and collision. Its box added
    # to the mesh's hull made room for 88 cm^3 (11,000 kg/m^3, unreported); counted once it
    # is 41,000 kg/m^3. A visual of its own (here twice the size) still counts.
    corners = np.array([(x, y, z) for x in (0, 0.03) for y in (0, 0.03) for z in (0, 0.03)])
    faces = np.array([(0, 2, 1), (1, 2, 3), (4, 5, 6), (5, 7, 6), (0, 1, 4), (1, 5, 4),
                      (2, 6, 3), (3, 6, 7), (0, 4, 2), (2, 4, 6), (1, 3, 5), (3, 7, 5)])
    stl = mesh_attacks.binary_stl(tmp_path / 'part.stl', corners, faces)
    mesh = f'<geometry><mesh filename="file://{stl}" scale="{{}}"/></geometry>'
    part = (cube_inertial(1.0, 0.03, xyz='0.015 0.015 0.015')
            + f'<visual>{mesh.format(visual_scale)}</visual>'
            + f'<collision>{mesh.format("1 1 1")}</collision>')
    analysis = analyze(parse_urdf_string(moving(part), source=str(tmp_path / 'r.urdf')),
                       CheckConfig())
    assert analysis.meshes and all(isinstance(m, MeshInfo) for m in analysis.meshes.values())
    density = [f for f in analysis.findings if f.rule == 'density-implausible']
    assert bool(density) == fires, density
    if fires:
        assert float(dict(density[0].values)['density']) == pytest.approx(1.0 / 0.03 ** 3, 1e-3)


def test_a_collision_stub_is_not_judged_while_the_visual_mesh_is_unknown(tmp_path):
    # Unitree H1's hip motors: 2.965 kg, a 1 cm collision cylinder, and a 0.8 L visual mesh
    # in a package that was not found. "Grams written as kilograms" would have made the
    # motor 3 g; without the visual's size the collision stub bounds nothing.
    stub = ('<collision><geometry><cylinder radius="0.01" length="0.02"/></geometry>'
            '</collision>')
    visual = ('<visual><geometry><mesh filename="package://absent_pkg/hip.stl"/></geometry>'
              '</visual>')
    for body, fires in ((visual + stub, False), (stub, True)):
        text = moving(inertial(mass='2.965', ixx='0.005', iyy='0.005', izz='0.004') + body)
        rules = {f.rule for f in analyze(parse_urdf_string(text, source=str(tmp_path / 'r.urdf')),
                                         CheckConfig()).findings}
        assert ('density-implausible' in rules) == fires, rules


def test_a_singular_tensor_shows_its_zero_moments_as_zero():
    # Sawyer's right_hand: every product equal to the moments, a tensor of rank 1. The
    # message printed "-3.262e-18 + 1.868e-18 = -1.394e-18 < 0.03", rounding noise.
    text = moving(inertial(mass='0.01', ixx='0.01', iyy='0.01', izz='0.01', ixy='0.01',
                           ixz='0.01', iyz='0.01') + box())
    (finding,) = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                  if f.rule == 'inertia-triangle-inequality']
    assert 'moments 0 + 0 = 0 < 0.03' in finding.message, finding.message
    assert 'each product was written as the moment' in finding.message
    assert 'e-1' not in finding.message


def test_a_tensor_giving_only_its_largest_moment_keeps_it_in_the_fix():
    # KUKA's KR210 R3100 ultra link_1: izz=31.24 with ixx=iyy=0. The nearest valid tensor
    # (10.41, 10.41, 20.83) cut the one moment the vendor gave by a third.
    text = moving(inertial(mass='395.7', ixx='0', iyy='0', izz='31.24') + box('1 1 1'))
    (finding,) = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                  if f.rule == 'inertia-triangle-inequality']
    assert finding.suggested_inertia is not None
    values = dict(zip(('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'), finding.suggested_inertia))
    assert values['izz'] == pytest.approx(31.24)
    assert values['ixx'] == pytest.approx(15.62) and values['iyy'] == pytest.approx(15.62)


def test_density_hints_name_the_unit_slip():
    grams = moving(cube_inertial(1000.0, 0.1) + box())   # 1e6 kg/m^3
    finding = [f for f in analyze(parse_urdf_string(grams), NO_MESHES).findings
               if f.rule == 'density-implausible'][0]
    assert 'grams' in finding.suggestion
    millimetres = moving(cube_inertial(1.0, 100.0) + box('100 100 100'))  # 1e-6 kg/m^3
    finding = [f for f in analyze(parse_urdf_string(millimetres), NO_MESHES).findings
               if f.rule == 'density-implausible'][0]
    assert 'millimetres' in finding.suggestion


@pytest.mark.parametrize('offset,fires', [(0.5 + 0.086, False), (0.5 + 0.087, True)])
def test_com_tolerance_boundary(offset, fires):
    # Tolerance is 5 % of the geometry bounds' diagonal: 0.05 * sqrt(3) * 1 = 0.0866 m.
    text = moving(cube_inertial(1000.0, 1.0, xyz=f'0 0 {offset}') + box('1 1 1'))
    rules = {f.rule for f in analyze(parse_urdf_string(text), NO_MESHES).findings}
    assert ('com-outside-geometry' in rules) == fires


@pytest.mark.parametrize('body_mass,fires', [(6.0, False), (0.2, True)])
def test_com_of_a_light_link_welded_to_a_heavy_one(body_mass, fires):
    # PR2's 0.1 kg roll links, welded to 2.6 to 6 kg links, declare a centre of mass 25 mm
    # outside their 2 cm box: fused, the body's centre of mass moves by about 1 mm at most.
    # Welded to a link of comparable mass, it is reported (the roll link sits on the heavy
    # link's top face, its centre of mass above both).
    text = robot(
        '<link name="base"/><joint name="j" type="revolute"><parent link="base"/>'
        '<child link="heavy"/><axis xyz="0 0 1"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        f'<link name="heavy">{cube_inertial(body_mass, 0.2)}{box("0.2 0.2 0.2")}</link>'
        '<joint name="w" type="fixed"><parent link="heavy"/><child link="roll"/>'
        '<origin xyz="0 0 0.1"/></joint>'
        f'<link name="roll">{cube_inertial(0.1, 0.02, xyz="0 0 0.035")}'
        f'{box("0.02 0.02 0.02")}</link>')
    found = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.rule == 'com-outside-geometry']
    assert [f.link for f in found] == (['roll'] if fires else [])


@pytest.mark.parametrize('visual,fires', [
    ('<mesh filename="package://nowhere/hip.dae"/>', False), ('<box size="0.1 0.1 0.1"/>', True)])
def test_com_is_not_judged_against_a_visual_of_unknown_size(visual, fires):
    # Go1's hips with --no-meshes: the centre of mass sits near the hip axis, inside the
    # hip mesh that was not read, outside the small collision cylinder. Unread, the visual
    # may hold it; a visual box beside the collision box, away from it, is judged.
    part = (cube_inertial(1.0, 0.1, xyz='0 0 0.3')
            + f'<visual><geometry>{visual}</geometry></visual>' + box('0.1 0.1 0.1'))
    rules = {f.rule for f in analyze(parse_urdf_string(moving(part)), NO_MESHES).findings}
    assert ('com-outside-geometry' in rules) == fires


@pytest.mark.parametrize('moments,hint', [
    (('0.0108333', '0.00833333', '0.00416667'), True), (('0.011', '0.0105', '0.001'), False)])
def test_a_tensor_with_the_geometrys_proportions_names_the_mass_too(moments, hint):
    # TurtleBot 4's standoffs: the tensor of a 15 g rod their size, with a mass of 0.26 kg.
    # Declared here: 20 kg with the moments of a 1 kg box 0.1 x 0.2 x 0.3 m, each 20x small:
    # the mass may be what is wrong (1 kg, 166.7 kg/m^3). A tensor off by different factors
    # gets no such hint.
    ixx, iyy, izz = moments
    part = inertial(mass='20', ixx=ixx, iyy=iyy, izz=izz) + box('0.1 0.2 0.3')
    (finding,) = [f for f in analyze(parse_urdf_string(moving(part)), NO_MESHES).findings
                  if f.rule == 'inertia-geometry-mismatch']
    said = 'or the mass is what is wrong: the declared moments have the geometry' in \
        finding.suggestion
    assert said == hint, finding.suggestion
    if hint:
        assert 'with the tensor as it is the mass would be 1 kg (166.7 kg/m^3)' in \
            finding.suggestion


def test_a_suggested_tensor_far_from_the_centre_of_mass_says_where_it_is_taken():
    # TM14's forearm declares its centre of mass at the elbow, 0.24 m from its geometry's
    # centroid: the tensor about that centroid alone is half the fix.
    part = (inertial(mass='3', ixx='1', iyy='1', izz='1')
            + box('0.5 0.1 0.4', xyz='0.2 0 0'))
    findings = analyze(parse_urdf_string(moving(part)), NO_MESHES).findings
    (finding,) = [f for f in findings if f.rule == 'inertia-exceeds-extent']
    assert finding.suggestion.startswith('the tensor of the collision geometry at uniform')
    assert finding.suggestion.endswith(
        '; it is about the collision geometry\'s centroid, xyz="0.2 0 0", 0.2 m from the '
        "declared centre of mass: if the part's centre of mass is there, move the inertial "
        'origin too')


@pytest.mark.parametrize('xyz,hint', [
    ('0.08 0 0', 'x has the wrong sign: with it negated the centre of mass, xyz="-0.08 0 0", '
                 'lies within the geometry (a value written for the mirrored part?)'),
    ('0.3 0.3 0', 'check that the centre of mass is in the link frame')])
def test_a_centre_of_mass_with_a_sign_slip_says_which(xyz, hint):
    # Kinova's Gen3 lite fingers declare x=+0.02026 for a part centred at x=-0.02024.
    part = cube_inertial(0.1, 0.05, xyz=xyz) + box('0.1 0.05 0.05', xyz='-0.05 0 0')
    (finding,) = [f for f in analyze(parse_urdf_string(moving(part)), NO_MESHES).findings
                  if f.rule == 'com-outside-geometry']
    assert finding.suggestion.startswith(hint)
    assert 'the collision geometry\'s centroid is at xyz="-0.05 0 0"' in finding.suggestion


@pytest.mark.parametrize('z, error', [('-1.04720367321', True), ('1.5708', True),
                                      ('-1.2', False)])
def test_a_centre_of_mass_coordinate_that_is_an_angle_is_an_error_saying_so(z, error):
    # Sweep Q: AR3's link_3 declares xyz="-0.00029765 -0.023661 -1.04720367321" on a 10 cm
    # part: -pi/3 to 6 digits, an rpy value in the xyz; a warning said only "1 m outside".
    part = cube_inertial(0.1, 0.05, xyz=f'0.01 0 {z}') + box('0.1 0.05 0.05')
    (finding,) = [f for f in analyze(parse_urdf_string(moving(part)), NO_MESHES).findings
                  if f.rule == 'com-outside-geometry']
    assert (finding.severity == Severity.ERROR) == error, finding
    assert ('(an angle in radians): an rpy value written into the xyz?' in
            finding.suggestion) == error, finding.suggestion


def test_centres_of_mass_with_sign_slips_on_three_links_are_one_finding():
    # Kinova's Gen3 lite: the forearm, the upper wrist and three finger links each put their
    # centre of mass outside the part, one coordinate's sign wrong: 4 findings, one export.
    parts, parent = ['<link name="base"/>'], 'base'
    for index, (com, centre) in enumerate((('0.08 0 0', '-0.05 0 0'),
                                           ('0 0.07 0', '0 -0.05 0'),
                                           ('0 0 0.09', '0 0 -0.05'))):
        name = f'l{index}'
        parts.append(f'<joint name="j{index}" type="revolute"><parent link="{parent}"/>'
                     f'<child link="{name}"/><origin xyz="{index} 0 0"/><axis xyz="0 0 1"/>'
                     '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
                     f'<link name="{name}">{cube_inertial(0.1, 0.05, xyz=com)}'
                     f'{box("0.1 0.1 0.1", xyz=centre)}</link>')
        parent = name
    found = [f for f in analyze(parse_urdf_string(robot(''.join(parts))), NO_MESHES).findings
             if f.rule == 'com-outside-geometry']
    (finding,) = found
    assert finding.links == ('l0', 'l1', 'l2')
    assert finding.message.startswith(
        '3 links put their centre of mass outside their geometry with one coordinate of the '
        'wrong sign'), finding.message
    assert finding.suggestion.startswith('each link its own; for l0: x has the wrong sign')
    # Two stay two, each with its fix.
    two = [f for f in analyze(parse_urdf_string(robot(''.join(parts[:-1]))), NO_MESHES).findings
           if f.rule == 'com-outside-geometry']
    assert [f.link for f in two] == ['l0', 'l1']


@pytest.mark.parametrize('com_z,fires', [(0.159, False), (0.7, True)])
def test_com_inside_the_geometry_of_a_link_welded_to_it(com_z, fires):
    # TIAGo's torso plate (a 1 cm slab) carries the torso column's mass, the column (welded
    # to the same base) its 0.55 m box: one rigid body, which every engine fuses. Above
    # the column too, the centre of mass is misplaced.
    text = robot(
        '<link name="base"/><joint name="j" type="prismatic"><parent link="base"/>'
        '<child link="carriage"/><axis xyz="0 0 1"/>'
        '<limit lower="0" upper="0.3" effort="1" velocity="1"/></joint>'
        f'<link name="carriage">{cube_inertial(10.0, 0.3)}{box("0.3 0.3 0.3")}</link>'
        '<joint name="p" type="fixed"><parent link="carriage"/><child link="plate"/>'
        '<origin xyz="0 0 0.2"/></joint>'
        f'<link name="plate">{cube_inertial(12.0, 0.2, xyz=f"0.02 0 {com_z}")}'
        f'{box("0.4 0.25 0.01")}</link>'
        '<joint name="c" type="fixed"><parent link="carriage"/><child link="column"/>'
        '<origin xyz="0 0 0.2"/></joint>'
        f'<link name="column">{cube_inertial(0.5, 0.2, xyz="0 0 0.275")}'
        f'{box("0.23 0.23 0.55", xyz="0 0 0.275")}</link>')
    found = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.rule == 'com-outside-geometry']
    assert [f.link for f in found] == (['plate'] if fires else [])


def test_triangle_suggestion_is_valid_and_keeps_axes():
    text = moving(inertial(ixx='0.01', iyy='0.01', izz='0.05'))
    finding = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
               if f.rule == 'inertia-triangle-inequality'][0]
    ixx, ixy, ixz, iyy, iyz, izz = finding.suggested_inertia
    assert (ixy, ixz, iyz) == (0, 0, 0)
    assert ixx + iyy >= izz
    assert ixx + iyy <= izz * 1.001
    assert 'margin' in dict(finding.values)


def test_ignore_rules_drop_findings():
    text = moving(box())
    config = CheckConfig(check_meshes=False, ignore_rules=frozenset({'mass-not-positive'}))
    rules = {f.rule for f in analyze(parse_urdf_string(text), config).findings}
    assert 'mass-not-positive' not in rules


def _targeted(targets):
    """Return the configuration without meshes for these targets (None: all)."""
    return NO_MESHES if targets is None else CheckConfig(check_meshes=False,
                                                         targets=frozenset(targets))


@pytest.mark.parametrize('targets,severity', [
    (None, Severity.INFO), (('kdl',), Severity.INFO), (('mujoco', 'kdl'), Severity.INFO),
    (('gazebo',), None), (('mujoco',), None), (('moveit', 'rviz', 'pinocchio'), None)])
def test_root_link_inertia_is_a_claim_about_kdl_only(targets, severity):
    # a floating base carries its mass on the root by design: only KDL drops it
    text = moving(GOOD_PART, root_body=GOOD_PART)
    config = _targeted(targets)
    found = [f for f in analyze(parse_urdf_string(text), config).findings
             if f.rule == 'root-link-inertia']
    assert [f.severity for f in found] == ([] if severity is None else [severity])
    # The dummy root it suggests would weigh 1 kg in Bullet (a link without <inertial>:
    # BulletUrdfImporter's mass=1, unit tensor): the fix says not to there.
    assert all('not for Bullet' in f.suggestion for f in found)


@pytest.mark.parametrize('targets,severity,said', [
    (None, Severity.ERROR, ('MuJoCo refuses it', 'RViz cannot draw', 'Gazebo accepts it')),
    (('mujoco',), Severity.ERROR, ('MuJoCo refuses it',)),
    (('rviz', 'moveit', 'kdl'), Severity.INFO, ('RViz cannot draw',)),
    (('gazebo',), None, ()), (('moveit', 'kdl', 'pinocchio'), None, ())])
def test_a_tiny_moment_is_a_claim_about_mujoco_rviz_and_gazebo(targets, severity, said):
    # Valkyrie's IMU frames (1e-22 kg m^2): MuJoCo refuses them, RViz draws no inertia box,
    # Gazebo accepts them within its tolerance; a user of RViz, MoveIt and KDL is not told
    # about MuJoCo (sweep of 372 published URDFs, 2026-11-29).
    text = moving(inertial(ixx='1e-22', iyy='1e-22', izz='1e-22', mass='0.01') + box())
    config = _targeted(targets)
    found = [f for f in analyze(parse_urdf_string(text), config).findings
             if f.rule == 'inertia-moment-tiny']
    assert [f.severity for f in found] == ([] if severity is None else [severity])
    for finding in found:
        for text in ('MuJoCo refuses it', 'RViz cannot draw', 'Gazebo accepts it'):
            assert (text in finding.message) == (text in said), (text, finding.message)
        assert ("MuJoCo's floor" in finding.message) == ('MuJoCo refuses it' in said)


def test_a_welded_frame_of_no_mass_is_told_to_drop_its_inertial():
    # Unitree B2's lidar and camera frames (sweep J): 4.19e-15 kg, 1.68e-27 kg m^2, welded.
    # The fix said "the collision geometry's tensor fails too (it is 1.65e+05x off the
    # collision geometry)", or proposed 2e-12 kg m^2 (a 0.69 m radius of gyration) for a
    # camera frame, and never what MuJoCo then loads: the link without its <inertial>.
    frame = inertial(mass='4.19e-15', ixx='1.68e-27', iyy='1.68e-27', izz='1.68e-27')
    for body in (frame + box('0.05 0.05 0.05'), frame):
        (finding,) = [f for f in analyze(parse_urdf_string(moving(body, joint_type='fixed')),
                                         CheckConfig()).findings
                      if f.rule == 'inertia-moment-tiny']
        assert finding.suggestion.startswith(
            "its mass, 4.19e-15 kg, is no part's: the link is a frame (a sensor's mount "
            'point): remove its <inertial>'), finding.suggestion
        assert finding.suggested_inertia is None
    # On a moving joint the link needs a mass: the tensor is suggested as before.
    (finding,) = [f for f in analyze(parse_urdf_string(moving(frame + box())),
                                     CheckConfig()).findings if f.rule == 'inertia-moment-tiny']
    assert 'remove its <inertial>' not in finding.suggestion
    assert 'x off the collision geometry' not in finding.suggestion, finding.suggestion


@pytest.mark.parametrize('targets', [None, ('gazebo', 'rviz'), ('moveit',)])
def test_a_point_mass_on_a_moving_link_is_a_claim_about_mujoco(targets):
    text = moving(inertial(ixx='0', iyy='0', izz='0') + box())
    config = _targeted(targets)
    found = [f for f in analyze(parse_urdf_string(text), config).findings
             if f.rule == 'inertia-moment-tiny']
    assert [f.severity for f in found] == ([Severity.ERROR] if targets is None else [])


@pytest.mark.parametrize('targets,engines', [
    (None, 'Gazebo and MuJoCo refuse them'), (('mujoco', 'rviz'), 'MuJoCo refuses them'),
    (('rviz', 'moveit', 'kdl'), None)])
def test_a_broken_triangle_names_only_the_selected_engines(targets, engines):
    # A tensor no rigid body has is an error whatever the targets; which engines refuse it
    # is said only of those selected (Drake's Atlas robotiq.urdf, with --target rviz,...).
    text = moving(inertial(ixx='0.01', iyy='0.01', izz='0.05') + box())
    config = _targeted(targets)
    (finding,) = [f for f in analyze(parse_urdf_string(text), config).findings
                  if f.rule == 'inertia-triangle-inequality']
    assert finding.severity == Severity.ERROR
    assert 'no rigid body has them' in finding.message
    if engines is None:
        assert 'refuse' not in finding.message
    else:
        assert finding.message.endswith(engines)


@pytest.mark.parametrize('targets,severity,said', [
    (None, Severity.ERROR, 'MuJoCo refuses it ("size must be positive") and collision '
                           'checkers skip it'),
    (('mujoco',), Severity.ERROR, 'MuJoCo refuses it ("size must be positive")'),
    (('rviz', 'moveit', 'kdl'), Severity.WARNING, 'collision checkers skip it'),
    (('rviz', 'kdl'), None, None)])
def test_a_collision_of_size_zero_is_a_claim_about_colliding_engines(targets, severity, said):
    # Drake's Atlas and Valkyrie feet: radius-0 point-contact spheres. MuJoCo refuses them,
    # the collision checkers skip them; RViz and KDL do not collide.
    text = moving(GOOD_PART.replace('</collision>', '</collision><collision><geometry>'
                                    '<sphere radius="0"/></geometry></collision>', 1))
    config = _targeted(targets)
    found = [f for f in analyze(parse_urdf_string(text), config).findings
             if f.rule == 'geometry-degenerate']
    assert [f.severity for f in found] == ([] if severity is None else [severity])
    for finding in found:
        assert f'radius=0: {said} (Drake reads it' in finding.message, finding.message
    # a negative size is no real part's, whatever the targets
    negative = text.replace('radius="0"', 'radius="-0.01"')
    found = [f for f in analyze(parse_urdf_string(negative), config).findings
             if f.rule == 'geometry-degenerate']
    assert [f.severity for f in found] == [Severity.ERROR]
    if severity is None:
        assert found[0].message.endswith('radius=-0.01: no real part has a negative size')


@pytest.mark.parametrize('targets,said', [
    (None, 'Gazebo leaves the link and its joint out of the model and MuJoCo refuses to '
           'compile'),
    (('gazebo', 'rviz'), 'Gazebo leaves the link and its joint out of the model'),
    (('mujoco',), 'MuJoCo refuses to compile'),
    (('rviz', 'moveit', 'kdl'), None)])
def test_a_moving_link_without_mass_is_a_claim_about_gazebo_and_mujoco(targets, said):
    # Drake's PR2 planar base (prismatic x and y links without <inertial>): Gazebo drops
    # them, MuJoCo refuses them; RViz, MoveIt and robot_state_publisher need no mass, and a
    # user checking for them is not told (sweep of 372 published URDFs, 2026-11-29).
    text = moving('', root_body=GOOD_PART)
    config = _targeted(targets)
    found = [f for f in analyze(parse_urdf_string(text), config).findings
             if f.rule == 'mass-not-positive']
    if said is None:
        assert found == []
        return
    (finding,) = found
    assert finding.severity == Severity.ERROR
    assert finding.message == f"has no <inertial> but moves (joint 'j', revolute): {said}"


def test_parse_notes_are_findings():
    text = robot('<link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" '
                 'ixz="0" iyy="1" iyz="0" izz="1"/></inertial><inertial><mass value="2"/>'
                 '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>')
    gazebo = CheckConfig(check_meshes=False, targets=frozenset({'gazebo'}))
    rules = {f.rule for f in analyze(parse_urdf_string(text), gazebo).findings}
    assert 'parse-duplicate-inertial' in rules
    # With MuJoCo, which refuses the robot for it, its finding says it once (urdfdom's first).
    found = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.rule.startswith(('parse-duplicate-', 'mujoco-repeated-'))]
    assert [f.rule for f in found] == ['mujoco-repeated-element']
    assert 'where urdfdom uses the first' in found[0].message


def test_findings_are_sorted_errors_first_and_counted():
    text = moving(inertial(ixx='0.01', iyy='0.01', izz='0.05') + box(group='visual'))
    analysis = analyze(parse_urdf_string(text), NO_MESHES)
    severities = [f.severity for f in analysis.findings]
    assert severities == sorted(severities, reverse=True)
    counts = analysis.counts()
    assert counts['error'] >= 1 and counts['warning'] >= 1
    assert analysis.worst('part') == Severity.ERROR
    assert analysis.link_findings('part')


def test_every_rule_and_its_severity_policy_is_documented():
    import os
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        'docs', 'rules.md')
    text = open(path, encoding='utf-8').read()
    policy = text[text.index('## Severity policy per rule'):]
    for rule in RULES:
        assert f'`{rule}`' in text, rule
        if not rule.startswith('parse-') and rule != 'internal-error':
            assert rule in policy or rule in ('robot-empty', 'link-duplicate-name',
                                              'joint-duplicate-name', 'joint-unknown-link',
                                              'link-multiple-parents', 'kinematic-loop',
                                              'robot-multiple-roots', 'link-disconnected'), rule


def _mirrored(count: int, scale: str = '-1 1 1') -> str:
    links = ''.join(
        f'<link name="m{index}"><visual><geometry><mesh filename="m.stl" scale="{scale}"/>'
        f'</geometry></visual></link><joint name="j{index}" type="fixed"><parent link="base"/>'
        f'<child link="m{index}"/></joint>' for index in range(count))
    return f'<robot name="r"><link name="base"/>{links}</robot>'


def test_meshes_mirrored_on_many_links_are_one_note():
    # Left parts drawn from the right parts' meshes with scale="-1 1 1" are one choice: one
    # info listing the links from 2 elements on (a pair of mirrored wheels, sweep L); one
    # stays per element.
    def notes(count):
        analysis = analyze(parse_urdf_string(_mirrored(count)), NO_MESHES)
        return [f for f in analysis.findings if f.rule == 'geometry-degenerate']

    (note,) = notes(4)
    assert note.severity == Severity.INFO and note.link is None
    assert note.links == ('m0', 'm1', 'm2', 'm3')
    assert note.message.startswith('4 mesh elements are mirrored by a negative scale')
    assert note.line is not None
    (two,) = notes(2)
    assert two.links == ('m0', 'm1') and two.message.startswith('2 mesh elements are')
    (one,) = notes(1)
    assert (one.link, one.element, one.severity) == ('m0', 'visual[0]', Severity.INFO)
    assert 'the mesh scale "-1 1 1" is negative: it mirrors the mesh' in one.message
    # one wheel's visual and collision, both mirrored: one note naming the link
    wheel = _mirrored(1).replace('</visual>', '</visual><collision><geometry><mesh '
                                 'filename="m.stl" scale="-1 1 1"/></geometry></collision>')
    (both,) = [f for f in analyze(parse_urdf_string(wheel), NO_MESHES).findings
               if f.rule == 'geometry-degenerate']
    assert both.message.endswith('do not re-orient them): link m0'), both.message


@pytest.mark.parametrize('scale,mirrors', [('-1 -1 1', False), ('1 -0.5 -2', False),
                                           ('-1 -1 -1', True), ('0.001 0.001 -0.001', True)])
def test_a_scale_mirrors_only_with_an_odd_count_of_negative_factors(scale, mirrors):
    # pal_gripper's fingers use scale="-1 -1 1": a half turn about z, whose determinant is
    # positive; nothing is mirrored and the winding stays, so nothing is said.
    analysis = analyze(parse_urdf_string(_mirrored(1, scale)), NO_MESHES)
    found = [f for f in analysis.findings if f.rule == 'geometry-degenerate']
    assert bool(found) == mirrors, found


def test_meshes_of_a_missing_package_are_one_finding_from_three_on():
    from urdf_link_tools.meshes import MeshLibrary

    def missing(count, group='visual'):
        links = ''.join(
            f'<link name="m{index}"><{group}><geometry><mesh filename="package://gone_pkg/'
            f'{index}.stl"/></geometry></{group}></link><joint name="j{index}" type="fixed">'
            f'<parent link="base"/><child link="m{index}"/></joint>' for index in range(count))
        text = f'<robot name="r"><link name="base"/>{links}</robot>'
        analysis = analyze(parse_urdf_string(text), CheckConfig(),
                           MeshLibrary(use_ament_index=False))
        return [f for f in analysis.findings if f.rule == 'mesh-not-found']

    (one,) = missing(3)
    assert one.severity == Severity.WARNING and one.links == ('m0', 'm1', 'm2')
    assert dict(one.values)['package'] == 'gone_pkg' and one.link is None
    assert missing(3, 'collision')[0].severity == Severity.ERROR
    two = missing(2)
    assert [(f.link, f.element) for f in two] == [('m0', 'visual[0]'), ('m1', 'visual[0]')]
    assert "package 'gone_pkg' was not found" in two[0].message
    # What else it costs is said: the links' sizes are unknown, their inertia is not bounded.
    assert 'the inertia bound of its body) skip the link and the links welded' in \
        two[0].message
    assert 'density' not in two[0].message and 'density' in missing(2, 'collision')[0].message
    assert "nor the rules that need those links' sizes" in one.message


def test_one_missing_file_named_by_a_visual_and_a_collision_is_one_finding(tmp_path):
    # Summit XL's helios_16p.stl, myCobot's G_base.dae: the usual <visual> and <collision>
    # of one mesh; one missing file is one finding, at the collision's severity, naming both.
    from urdf_link_tools.meshes import MeshLibrary

    def found(visual, collision):
        text = (f'<robot name="r"><link name="base"><visual><geometry><mesh filename="{visual}"/>'
                f'</geometry></visual><collision><geometry><mesh filename="{collision}"/>'
                '</geometry></collision></link></robot>')
        path = tmp_path / 'r.urdf'
        path.write_text(text)
        analysis = analyze(parse_urdf_string(text, str(path)), CheckConfig(),
                           MeshLibrary(use_ament_index=False))
        return [f for f in analysis.findings if f.rule == 'mesh-not-found']

    (one,) = found('meshes/gone.stl', ' meshes/gone.stl')
    assert (one.element, one.severity) == ('collision[0]', Severity.ERROR)
    assert '(the same file as its visual[0])' in one.message
    assert dict(one.values)['also'] == 'visual[0]'
    two = found('meshes/gone.stl', 'meshes/other.stl')  # two files: two findings
    assert sorted((f.element, f.severity) for f in two) == [
        ('collision[0]', Severity.ERROR), ('visual[0]', Severity.WARNING)]


def test_meshes_in_a_format_the_tool_does_not_read_are_its_limit_said_once(tmp_path):
    # AUBO's .3ds visuals: RViz reads them (Assimp), this tool does not. A visual is an
    # info, not a warning; three or more files of the format are one finding per robot.
    from urdf_link_tools.meshes import MeshLibrary

    def found(count, group='visual', ext='.3ds', rule='mesh-unreadable'):
        for index in range(count):
            (tmp_path / f'{index}{ext}').write_bytes(b'MM\x00\x00')
        links = ''.join(
            f'<link name="m{index}"><{group}><geometry><mesh filename="{index}{ext}"/>'
            f'</geometry></{group}></link><joint name="j{index}" type="fixed">'
            f'<parent link="base"/><child link="m{index}"/></joint>' for index in range(count))
        text = f'<robot name="r"><link name="base"/>{links}</robot>'
        path = tmp_path / 'r.urdf'
        analysis = analyze(parse_urdf_string(text, str(path)), CheckConfig(),
                           MeshLibrary(use_ament_index=False))
        return [f for f in analysis.findings if f.rule == rule]

    (one,) = found(1)
    assert one.severity == Severity.INFO and one.link == 'm0'
    assert 'this tool does not read .3ds meshes' in one.message and 'Assimp' in one.message
    (grouped,) = found(7)
    assert grouped.severity == Severity.INFO and grouped.link is None
    assert grouped.links == tuple(f'm{index}' for index in range(7))
    assert dict(grouped.values)['format'] == '.3ds'
    assert '7 meshes (0 collision) on 7 links are .3ds files' in grouped.message
    # A collision in a format Assimp imports is MoveIt's to load: the tool's limit is an
    # info, and MuJoCo's refusal its own error (one error per file, not two)
    (collision,) = found(1, 'collision')
    assert collision.severity == Severity.INFO and 'export an STL' in collision.suggestion
    assert [f.severity for f in found(3, 'collision')] == [Severity.INFO]
    assert [f.severity for f in found(1, 'collision', rule='mujoco-mesh-format')] == \
        [Severity.ERROR]
    # a format nothing reads is an error on a collision
    assert [f.severity for f in found(1, 'collision', '.foo')] == [Severity.ERROR]


def test_meshes_under_a_folder_missing_here_are_one_finding(tmp_path):
    # A description generated in another machine's workspace names absolute paths into it:
    # one finding for the missing folder, whose fix is package:// URIs (--package-dir cannot
    # remap an absolute path); a missing file in a folder that exists stays its own finding.
    from urdf_link_tools.meshes import MeshLibrary
    gone = tmp_path / 'other_ws' / 'install' / 'arm' / 'meshes'
    (tmp_path / 'here').mkdir()
    names = [f'file://{gone}/{index}.dae' for index in range(3)] + [f'{tmp_path}/here/x.stl']
    links = ''.join(
        f'<link name="m{index}"><visual><geometry><mesh filename="{name}"/></geometry></visual>'
        f'</link><joint name="j{index}" type="fixed"><parent link="base"/>'
        f'<child link="m{index}"/></joint>' for index, name in enumerate(names))
    analysis = analyze(parse_urdf_string(f'<robot name="r"><link name="base"/>{links}</robot>'),
                       CheckConfig(), MeshLibrary(use_ament_index=False))
    found = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    (folder,) = [f for f in found if f.link is None]
    assert folder.links == ('m0', 'm1', 'm2')
    assert folder.message.startswith(f'{tmp_path / "other_ws"} does not exist on this machine')
    assert 'package://' in folder.suggestion and '--package-dir' not in folder.suggestion
    (alone,) = [f for f in found if f.link is not None]
    assert alone.link == 'm3' and '--package-dir' not in alone.suggestion
    assert 'package://PACKAGE' in alone.suggestion
    assert 'an absolute path works only on the machine' in alone.suggestion


def test_a_missing_relative_mesh_path_is_told_where_readers_look(tmp_path):
    # LEAP hand's robot.urdf names palm_lower.stl (a relative path): the advice about
    # absolute paths did not apply; readers disagree where a relative path is.
    from urdf_link_tools.meshes import MeshLibrary
    path = tmp_path / 'robot.urdf'
    text = ('<robot name="r"><link name="base"><visual><geometry><mesh '
            'filename="palm_lower.stl"/></geometry></visual></link></robot>')
    analysis = analyze(parse_urdf_string(text, str(path)), CheckConfig(),
                       MeshLibrary(use_ament_index=False))
    (found,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    assert "a relative path is looked up from the URDF's folder" in found.suggestion
    assert 'absolute path' not in found.suggestion and 'package://PACKAGE' in found.suggestion
    assert str(tmp_path / 'palm_lower.stl') in found.suggestion


ZERO_TENSOR_ARM = """<robot name="zero">
  <link name="base_link"><inertial><mass value="0.84"/><inertia ixx="0" ixy="0" ixz="0"
    iyy="0" iyz="0" izz="0"/></inertial><collision><geometry><cylinder radius="0.05"
    length="0.1"/></geometry></collision></link>
""" + ''.join(f"""  <link name="l{i}"><inertial><mass value="0.5"/><inertia ixx="0" ixy="0" ixz="0"
    iyy="0" iyz="0" izz="0"/></inertial><collision><origin xyz="0 0 0.05"/><geometry>
    <cylinder radius="0.04" length="0.1"/></geometry></collision></link>
  <joint name="j{i}" type="revolute"><parent link="{'base_link' if i == 1 else f'l{i - 1}'}"/>
    <child link="l{i}"/><origin xyz="0 0 0.11"/><axis xyz="0 1 0"/><limit lower="-2"
    upper="2" effort="10" velocity="1"/></joint>
""" for i in (1, 2, 3)) + '</robot>'


def test_a_group_is_shown_by_a_member_that_moves():
    # RealMan's arm: one all-zero tensor on its root and its moving links was shown by the
    # root's finding ("... accepts it welded to the world"), not by what breaks the arm.
    (finding,) = [f for f in analyze(parse_urdf_string(ZERO_TENSOR_ARM), NO_MESHES).findings
                  if f.rule == 'inertia-moment-tiny']
    assert finding.links == ('base_link', 'l1', 'l2', 'l3')
    assert finding.severity == Severity.ERROR
    assert '(base_link, l1, l2, l3); on l1: the inertia tensor is all zero: a point mass of ' \
        "0.5 kg on a moving link (joint 'j1')" in finding.message
    assert 'welded to the world' not in finding.message
    assert finding.suggestion.startswith('each link its own; for l1: ')


def test_a_joint_between_two_links_that_do_not_exist_is_about_the_robot():
    # urdfdom's autogenerated.urdf: each joint's missing parent was said under a heading for
    # its missing child (and the reverse), and the summary read "in 18 of 9 links".
    from urdf_link_tools.reports.text import summary_line
    text = ('<robot name="r"><link name="a"/><joint name="j1" type="fixed"><parent link="p1"/>'
            '<child link="c1"/></joint><joint name="j2" type="fixed"><parent link="a"/>'
            '<child link="c2"/></joint></robot>')
    analysis = analyze(parse_urdf_string(text), NO_MESHES)
    unknown = [(f.link, f.message.split(' names ')[1].split(',')[0]) for f in analysis.findings
               if f.rule == 'joint-unknown-link']
    assert sorted(unknown, key=str) == sorted(
        [(None, "the parent link 'p1'"), (None, "the child link 'c1'"),
         ('a', "the child link 'c2'")], key=str)
    assert summary_line(analysis).endswith(' in 1 of 1 links')


def test_links_of_one_body_without_mass_are_one_note():
    # Onshape's soccer field: 12 parts with collision welded to a massless base, 12 notes.
    part = ('<link name="p{0}"><inertial><mass value="0"/><inertia ixx="0" ixy="0" ixz="0" '
            'iyy="0" iyz="0" izz="0"/></inertial><collision><geometry><box size="1 1 0.1"/>'
            '</geometry></collision></link><joint name="j{0}" type="fixed"><parent link="base"/>'
            '<child link="p{0}"/><origin xyz="{0} 0 0"/></joint>')

    def notes(count):
        text = '<robot name="field"><link name="base"/>' + ''.join(
            part.format(i) for i in range(count)) + '</robot>'
        return [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                if f.rule == 'mass-not-positive']

    (note,) = notes(4)
    assert note.severity == Severity.INFO and note.links == ('p0', 'p1', 'p2', 'p3')
    assert note.message.startswith('4 links welded into one body without mass have collision '
                                   'geometry (p0, p1, p2, p3)')
    assert [f.link for f in notes(2)] == ['p0', 'p1']  # two: each its own


def test_a_root_inertial_of_mass_zero_is_said_to_be_removed_not_moved():
    # NASA's M2020 rover: 'ground' holds <inertial> of mass 0 (KDL still warns of it): a
    # dummy root above it would carry nothing either
    text = moving(GOOD_PART, root_body='<inertial><mass value="0"/><inertia ixx="0" ixy="0" '
                                       'ixz="0" iyy="0" iyz="0" izz="0"/></inertial>')
    found = [f for f in analyze(parse_urdf_string(text)).findings
             if f.rule == 'root-link-inertia']
    assert len(found) == 1 and found[0].suggestion.startswith('remove the <inertial>')


def test_one_tiny_mass_on_many_moving_links_is_one_finding():
    # SMARC's SAM (sweep U) gives its 6 actuator links 1e-8 kg each: one dummy value, 4
    # warnings (two merged as fore-aft counterparts). 3 or more: one finding listing them.
    parts = ''.join(
        f'<link name="p{i}">{cube_inertial(1e-8)}{box()}</link>'
        f'<joint name="j{i}" type="revolute"><parent link="base"/><child link="p{i}"/>'
        f'<origin xyz="{i} 0 0"/><axis xyz="0 0 1"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>' for i in range(4))
    text = robot(f'<link name="base">{GOOD_PART}</link>{parts}')
    found = [f for f in analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
             .findings if f.rule == 'mass-tiny-on-moving-link']
    assert len(found) == 1, [f.message for f in found]
    assert found[0].links == ('p0', 'p1', 'p2', 'p3')
    assert found[0].message.startswith('4 links move with the same tiny mass (1e-08 kg)')


def test_a_part_denser_than_any_material_in_its_drawn_shape_is_a_warning():
    # Clearpath's Boxer (sweep U): 100 kg wheels and castors in cylinders of about a litre
    # (124,000 kg/m^3), drawn with the same cylinders. The wheels were an info ("a ballast, a
    # deliberately small collision shape"); the castors, welded to the base, were judged
    # over the whole base's volume and not said at all.
    wheel = ('<inertial><mass value="100"/><inertia ixx="0.2" ixy="0" ixz="0" iyy="0.2" '
             'iyz="0" izz="0.2"/></inertial>'
             + ''.join(f'<{group}><origin rpy="0 1.5708 0"/><geometry><cylinder length="0.04" '
                       f'radius="0.08"/></geometry></{group}>'
                       for group in ('visual', 'collision')))
    base = cube_inertial(20.0, 0.5) + box('0.5 0.5 0.5') + box('0.5 0.5 0.5', 'visual')
    text = robot(f'<link name="base">{base}</link>'
                 f'<link name="wheel">{wheel}</link><link name="castor">{wheel}</link>'
                 '<joint name="w" type="continuous"><parent link="base"/><child link="wheel"/>'
                 '<origin xyz="0 0.3 0"/><axis xyz="1 0 0"/></joint>'
                 '<joint name="c" type="fixed"><parent link="base"/><child link="castor"/>'
                 '<origin xyz="0 -0.3 0"/></joint>')
    found = [f for f in analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
             .findings if f.rule == 'density-implausible']
    assert {(f.link, f.severity) for f in found} == {
        ('wheel', Severity.WARNING), ('castor', Severity.WARNING)}, \
        [(f.link, f.severity, f.message) for f in found]
    assert 'its visual is its collision geometry' in found[0].suggestion
    # drawn with another shape (a contact cylinder in a bigger visual): not the part
    partial = text.replace('<visual><origin rpy="0 1.5708 0"/><geometry><cylinder '
                           'length="0.04" radius="0.08"/>', '<visual><origin rpy="0 1.5708 0"/>'
                           '<geometry><cylinder length="0.2" radius="0.3"/>')
    found = [f for f in analyze(parse_urdf_string(partial), CheckConfig(check_meshes=False))
             .findings if f.rule == 'density-implausible']
    assert all(f.severity == Severity.INFO for f in found), [(f.link, f.severity) for f in found]


def test_a_mass_or_centre_of_mass_no_part_has_is_one_error_and_no_tensor_fix():
    # UBTECH Walker's right palm (sweep V): 3.12e21 kg, its centre of mass 2.7e13 m away, and
    # a tensor to match; the only finding was the tensor's, "a slipped decimal" whose fix
    # --fix-inertia wrote, and the check then passed.
    part = inertial(mass='3.12234020972045E+21', ixx='1.5e47', iyy='3.2458e45', izz='1.5e47',
                    xyz='-3.8e12 -2.7e13 -9.7e11') + box()
    found = analyze(parse_urdf_string(moving(part)), CheckConfig(check_meshes=False)).findings
    on_part = [(f.rule, f.severity) for f in found if f.link == 'part']
    assert on_part == [('inertial-out-of-range', Severity.ERROR)], on_part
    (finding,) = [f for f in found if f.rule == 'inertial-out-of-range']
    assert finding.message.startswith('a mass of 3.122e+21 kg and its centre of mass '
                                      "2.728e+13 m from the link's origin"), finding.message
    assert finding.suggested_inertia is None
    # the bounds: 100 t, 1 km
    for mass, xyz, fires in (('1e5', '0 0 0', False), ('1.01e5', '0 0 0', True),
                             ('1', '0 0 999', False), ('1', '0 600 900', True),
                             ('1', '1e200 1e200 0', True)):  # (its square overflows)
        text = moving(cube_inertial(float(mass), xyz=xyz) + box())
        rules = {f.rule for f in analyze(parse_urdf_string(text),
                                         CheckConfig(check_meshes=False)).findings}
        assert ('inertial-out-of-range' in rules) == fires, (mass, xyz, rules)
        assert 'internal-error' not in rules, (mass, xyz)  # (LAPACK on overflowed tensors)
    # Extreme but finite numbers anywhere (moments of 1e-300, centres 1e154 m out whose
    # squares overflow): findings, never a check that fails (four did: eigh on infinities,
    # a geometric mean whose product underflowed to 0).
    for mass, xyz, moment in (('1', '1e154 0 0', '1e-300'), ('1', '1e200 1e200 0', '0.01'),
                              ('1e6', '0 0 1e-300', '1e200')):
        part = inertial(mass=mass, ixx=moment, iyy=moment, izz=moment, xyz=xyz) + box()
        rules = {f.rule for f in analyze(parse_urdf_string(moving(part)),
                                         CheckConfig(check_meshes=False)).findings}
        assert 'internal-error' not in rules, (mass, xyz, moment)


def test_a_frame_of_zero_size_is_told_to_drop_its_shape():
    # SCITOS's base_footprint (sweep V): a massless frame with a box of size 0, told to
    # "give the real dimensions" of a part it does not have.
    frame = box('0 0 0')
    text = robot(f'<link name="base_footprint">{frame}</link><link name="base">{GOOD_PART}'
                 '</link><joint name="f" type="fixed"><parent link="base_footprint"/>'
                 '<child link="base"/></joint>')
    (found,) = [f for f in analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
                .findings if f.rule == 'geometry-degenerate']
    assert found.suggestion.startswith('remove the <collision> (a frame needs no geometry)'), \
        found.suggestion
    # a part with mass keeps "give the real dimensions"
    text = moving(cube_inertial() + box('0 0.1 0.1'))
    (found,) = [f for f in analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
                .findings if f.rule == 'geometry-degenerate']
    assert found.suggestion.startswith('give the real dimensions'), found.suggestion
