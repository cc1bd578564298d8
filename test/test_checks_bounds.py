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
Physical bounds on tensors, the placeholder tensor copied onto many links, and the fixes.

The welded-body claim (MuJoCo fuses a link welded by a fixed joint, so a placeholder tensor
multiplies the body's inertia) is run against the installed MuJoCo.
"""

import numpy as np
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.checks.base import fmt
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.parser import parse_urdf_string

try:
    import mujoco
except ImportError:  # a test dependency: never skip silently
    mujoco = None

NO_MESHES = CheckConfig(check_meshes=False)


def inertial(mass, moment, xyz='0 0 0'):
    return (f'<inertial><origin xyz="{xyz}"/><mass value="{mass}"/><inertia ixx="{moment}" '
            f'ixy="0" ixz="0" iyy="{moment}" iyz="0" izz="{moment}"/></inertial>')


def box(size, group='collision'):
    return f'<{group}><geometry><box size="{size}"/></geometry></{group}>'


GRIPPER = inertial(0.5, 0.0005) + box('0.1 0.1 0.1') + box('0.1 0.1 0.1', 'visual')


def gripper_with_pad(pad_moment):
    """Return a 0.5 kg gripper on a revolute joint with a 1 g pad link welded to it."""
    return (
        '<robot name="r"><link name="base">' + inertial(1, 0.01) + box('0.2 0.2 0.2')
        + '</link><joint name="j" type="revolute"><parent link="base"/><child link="grip"/>'
        '<origin xyz="0 0 0.2"/><axis xyz="0 0 1"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        '<link name="grip">' + GRIPPER + '</link>'
        '<joint name="w" type="fixed"><parent link="grip"/><child link="pad"/>'
        '<origin xyz="0 0 0.04"/></joint>'
        '<link name="pad">' + inertial(0.001, pad_moment) + box('0.02 0.02 0.004')
        + '</link></robot>')


def rules(text, config=NO_MESHES):
    return [f for f in analyze(parse_urdf_string(text), config).findings
            if f.rule.startswith('inertia-exceeds')]


def test_a_placeholder_on_a_welded_link_is_an_error_that_names_its_effect():
    found = rules(gripper_with_pad(1e-3))
    assert [(f.rule, f.link, f.severity) for f in found] == \
        [('inertia-exceeds-extent', 'pad', Severity.ERROR)]
    assert "welded to 'grip'" in found[0].message
    assert 'multiplies the largest moment of that body by 2.99' in found[0].message
    assert not rules(gripper_with_pad(1e-8))


def test_the_welded_effect_matches_mujoco_fused_body():
    if mujoco is None:
        pytest.skip('mujoco is not installed: a test dependency (make setup; in a '
                    "workspace, pip install mujoco: the README's tests block)")

    def largest_moment(text):
        model = mujoco.MjModel.from_xml_string(text)
        body = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, 'grip')
        return float(model.body_inertia[body].max())

    with_pad = largest_moment(gripper_with_pad(1e-3))
    without = largest_moment(gripper_with_pad(1e-12))
    factor = with_pad / without
    message = rules(gripper_with_pad(1e-3))[0].message
    assert f'by {fmt(factor, 3)}' in message, (factor, message)


def test_a_collision_that_cannot_be_the_part_is_not_called_missing():
    # Unitree Aliengo's IMU: 1 g in a 1 mm collision box (1e6 kg/m^3) with a 1e-4 tensor.
    # The suggestion falls back to a sphere, and says why the box is not used: there is one.
    text = gripper_with_pad(1e-4).replace(box('0.02 0.02 0.004'), box('0.001 0.001 0.001'))
    found = rules(text)
    assert [f.link for f in found] == ['pad'], found
    assert 'no collision geometry' not in found[0].suggestion
    assert found[0].suggestion.startswith(
        'the collision geometry cannot be the part (0.001 kg in at most 1e-09 m^3 is '
        '1e+06 kg/m^3, above 2.5e+04 kg/m^3), so no tensor is derived from it: a solid '
        'sphere of 0.001 kg'), found[0].suggestion
    without = text.replace(box('0.001 0.001 0.001'), '')
    assert 'no collision geometry to derive it from' in rules(without)[0].suggestion


def test_a_negligible_welded_placeholder_is_an_info():
    text = gripper_with_pad(1e-3).replace(inertial(0.5, 0.0005), inertial(50, 0.08))
    found = rules(text)
    assert [f.severity for f in found] == [Severity.INFO]
    assert 'under 10 %' in found[0].message


def test_one_tensor_copied_onto_many_links_is_reported_once():
    links = ''.join(f'<link name="f{i}">{inertial(0.01, 0.001)}{box("0.02 0.02 0.02")}'
                    f'{box("0.02 0.02 0.02", "visual")}</link>' for i in range(5))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="f{i - 1}"/><child link="f{i}"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for i in range(1, 5))
    found = rules(f'<robot name="hand">{links}{joints}</robot>')
    assert len(found) == 1 and found[0].link is None
    assert found[0].links == ('f0', 'f1', 'f2', 'f3', 'f4')
    assert '5 links declare the same tensor' in found[0].message


def test_the_copied_tensor_is_shown_on_the_link_it_fits_worst():
    # PR2's 0.01 placeholder on 8 links was shown on a camera barely over its bound: the
    # example is the member furthest over it (here the smallest link), the list stays in order.
    sizes = ['0.04 0.04 0.04', '0.04 0.04 0.04', '0.02 0.02 0.02', '0.04 0.04 0.04']
    links = ''.join(f'<link name="f{i}">{inertial(0.01, 0.001)}{box(size)}</link>'
                    for i, size in enumerate(sizes))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="f{i - 1}"/><child link="f{i}"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for i in range(1, 4))
    (found,) = rules(f'<robot name="hand">{links}{joints}</robot>')
    assert found.links == ('f0', 'f1', 'f2', 'f3')
    assert '(f0, f1, f2, f3); f2: ' in found.message


def test_the_bound_is_the_corner_distribution():
    """All the mass at the 8 corners of the box has exactly the bound's moments."""
    half = np.array([0.3, 0.2, 0.1])
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * half
    mass = 2.0
    ixx = mass / 8 * float(np.sum(corners[:, 1] ** 2 + corners[:, 2] ** 2))
    assert ixx == pytest.approx(mass * (half[1] ** 2 + half[2] ** 2))
    size = ' '.join(repr(2 * float(v)) for v in half)

    def robot(scale):
        return ('<robot name="r"><link name="a"/><joint name="j" type="revolute">'
                '<parent link="a"/><child link="b"/><axis xyz="0 0 1"/><limit lower="-1" '
                'upper="1" effort="1" velocity="1"/></joint><link name="b"><inertial><mass '
                f'value="2"/><inertia ixx="{ixx * scale}" ixy="0" ixz="0" '
                f'iyy="{mass * (0.09 + 0.01) * scale}" iyz="0" '
                f'izz="{mass * (0.09 + 0.04) * scale}"/></inertial>{box(size)}</link></robot>')

    assert not rules(robot(0.999))
    assert not rules(robot(1.19))  # within the margin (geometry that omits small parts)
    assert [f.rule for f in rules(robot(1.21))] == ['inertia-exceeds-extent']


def test_the_suggested_tensor_passes_the_rule_it_fixes():
    # A thin part drawn only as a visual (no collision geometry) with its centre of mass off
    # the middle: the fallback sphere of plausible density would be over the bound too (as
    # Unitree H2's ankle links were), so the suggestion is a box that fits about the centre
    # of mass; applied with fix_inertia, the rule is silent.
    from urdf_link_tools.fix import fix_inertia
    text = ('<robot name="r"><link name="a"/><joint name="j" type="revolute">'
            '<parent link="a"/><child link="b"/><axis xyz="0 0 1"/><limit lower="-1" '
            'upper="1" effort="1" velocity="1"/></joint><link name="b">'
            '<inertial><origin xyz="-0.0145 0 0" rpy="0 0 0.3"/><mass value="0.1232"/>'
            '<inertia ixx="1.4e-05" ixy="0" ixz="0" iyy="1.45e-05" iyz="0" izz="1.4e-05"/>'
            '</inertial><visual><origin xyz="-0.0145 0 0"/><geometry><box size="0.008 0.0746 '
            '0.008"/></geometry></visual></link></robot>')
    analysis = analyze(parse_urdf_string(text), NO_MESHES)
    found = [f for f in analysis.findings if f.rule == 'inertia-exceeds-extent']
    assert len(found) == 1 and found[0].suggested_inertia is not None
    assert 'a solid box of 0.1232 kg centred on the declared centre of mass' in \
        found[0].suggestion
    assert 'there is none' not in found[0].suggestion
    fixed, fixes = fix_inertia(text.encode(), analysis)
    assert len(fixes) == 1
    assert not rules(fixed.decode())
    # A centre of mass on the corner of the geometry: no box fits, no tensor is suggested.
    edge = text.replace('<origin xyz="-0.0145 0 0" rpy="0 0 0.3"/>',
                        '<origin xyz="-0.0105 0.0373 0"/>')
    found = [f for f in analyze(parse_urdf_string(edge), NO_MESHES).findings
             if f.rule == 'inertia-exceeds-extent']
    assert len(found) == 1 and found[0].suggested_inertia is None
    assert 'no tensor can be derived that passes every inertia rule' in found[0].suggestion


def test_a_misplaced_material_inside_geometry_is_not_an_extra_shape():
    text = ('<robot name="r"><link name="a"><visual><geometry><box size="1 1 1"/>'
            '<material name="red"><color rgba="1 0 0 1"/></material></geometry></visual>'
            '</link></robot>')
    found = [f.rule for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.rule.startswith('parse-')]
    assert found == ['parse-ignored-element']
    two = text.replace('<material', '<sphere radius="1"/><material')
    found = [f.rule for f in analyze(parse_urdf_string(two), NO_MESHES).findings
             if f.rule.startswith('parse-')]
    assert sorted(found) == ['parse-extra-shape', 'parse-ignored-element']


def _placeholder_findings(parts, step, masses=None):
    """
    Return the findings of a chain whose links all declare ixx=iyy=izz=1 (and 1 kg).

    :param parts: (side of the link's collision cube, its height in the link frame) per link
    :param step: the height of each joint above the previous link
    :param masses: each link's mass, if not 1 kg each
    """
    masses = masses or [1] * len(parts)
    links = ''.join(
        f'<link name="l{i}"><inertial><mass value="{mass}"/><inertia ixx="1" ixy="0" ixz="0" '
        'iyy="1" iyz="0" izz="1"/></inertial><collision><origin xyz="0 0 '
        f'{z}"/><geometry><box size="{side} {side} {side}"/></geometry></collision></link>'
        for i, ((side, z), mass) in enumerate(zip(parts, masses)))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child link="l{i}"/>'
        f'<origin xyz="0 0 {step}"/><axis xyz="0 0 1"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for i in range(1, len(parts)))
    return analyze(parse_urdf_string(f'<robot name="r">{links}{joints}</robot>'),
                   CheckConfig(check_meshes=False)).findings


def test_a_placeholder_copied_onto_every_link_is_one_finding_with_every_carrier():
    # ros2_control_demos' r6bot: one macro line gives all 7 links 1 kg and ixx=iyy=izz=1,
    # and a centre of mass at the link origin. 4 links are judged over their bound; 3 have
    # the origin outside their geometry, and are over the looser bound about it too: one
    # finding for the 7, not compared with their geometry each (7 more warnings), and their
    # shared centre of mass is one finding.
    names = [f'l{i}' for i in range(7)]
    findings = _placeholder_findings([(0.1, 0.0 if i < 4 else 0.2) for i in range(7)], 0.3)
    (placeholder,) = [f for f in findings if f.rule == 'inertia-exceeds-extent']
    assert placeholder.links == tuple(names)
    assert placeholder.message.startswith('7 links declare the same tensor')
    assert 'on each it exceeds what the link can have (l0, l1, l2, l3, l4, l5, l6); l0: ' \
        in placeholder.message
    assert not [f for f in findings if f.rule == 'inertia-geometry-mismatch']
    (com,) = [f for f in findings if f.rule == 'com-outside-geometry']
    assert com.link is None and com.links == ('l4', 'l5', 'l6')
    assert com.message.startswith('3 links put their centre of mass at xyz="0 0 0"')


def test_the_count_of_a_copied_tensor_includes_the_links_within_their_bound():
    # KHI's RS080N: all 7 links declare ixx=iyy=izz=1, the message said "4 links declare the
    # same tensor": the three heaviest, within their bound, were not counted.
    # One tensor on parts 20x apart in size: inertial-placeholder, naming all six and the
    # four over their bound (whatever their masses).
    parts = [(0.1 if i < 4 else 2.0, 0.0) for i in range(6)]
    for masses in (None, [1, 1.1, 1.2, 1.3, 1.4, 1.5]):
        (placeholder,) = [f for f in _placeholder_findings(parts, 3.0, masses)
                          if f.rule.startswith(('inertia-', 'inertial-'))]
        assert placeholder.rule == 'inertial-placeholder'
        assert placeholder.links == ('l0', 'l1', 'l2', 'l3', 'l4', 'l5')
        assert placeholder.message.startswith('6 links declare the same inertia tensor')
        assert 'as written, l0, l1, l2, l3 exceed their physical bound' in placeholder.message


def _chain(parts):
    """Return a robot of the given <link> bodies joined one after the other by revolute joints."""
    names = [f'l{i}' for i in range(len(parts))]
    links = ''.join(f'<link name="{name}">{body}</link>' for name, body in zip(names, parts))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="{names[i - 1]}"/>'
        f'<child link="{names[i]}"/><origin xyz="0 0 0.3"/><axis xyz="0 0 1"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for i in range(1, len(parts)))
    return f'<robot name="r">{links}{joints}</robot>'


def _body(mass, moment, size):
    return (f'<inertial><mass value="{mass}"/><inertia ixx="{moment}" ixy="0" ixz="0" '
            f'iyy="{moment}" iyz="0" izz="{moment}"/></inertial><collision><geometry>'
            f'<box size="{size} {size} {size}"/></geometry></collision>')


@pytest.mark.parametrize('count', [2, 4])
def test_one_tensor_off_the_geometry_of_many_links_is_one_finding(count):
    # KUKA's KR120: 2 kg and 0.01 kg m^2 on every link, 16x to 29x off each link's geometry:
    # one inertia-geometry-mismatch and one density-implausible, not one a link.
    sizes = (0.6, 0.7, 0.8, 0.9)[:count]
    text = _chain([_body(2.0, 0.01, size) for size in sizes])
    findings = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False)).findings
    for rule, start in (('inertia-geometry-mismatch', f'{count} links declare the same tensor '
                         '(ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"), each off '
                         'its collision geometry'),
                        ('density-implausible', f'{count} links declare the same mass (2 kg), '
                         'implausible for the geometry of each')):
        found = [f for f in findings if f.rule == rule]
        if count < 3:
            assert [f.link for f in found] == [f'l{i}' for i in range(count)], rule
            continue
        (finding,) = found
        assert finding.link is None and finding.links == tuple(f'l{i}' for i in range(count))
        assert finding.message.startswith(start), finding.message


def test_equal_moments_of_different_sizes_off_elongated_parts_are_one_finding():
    # Reachy 2's tripod bars: two sphere-like tensors (three equal moments) on six bars,
    # each far off its bar: one finding for the formula, not a copied-tensor finding beside
    # two more per link.
    def bar(mass, moment):
        return (f'<inertial><mass value="{mass}"/><inertia ixx="{moment}" ixy="0" ixz="0" '
                f'iyy="{moment}" iyz="0" izz="{moment}"/></inertial><collision><geometry>'
                '<cylinder radius="0.02" length="0.5"/></geometry></collision>')

    def found(parts):
        return [f for f in analyze(parse_urdf_string(_chain(parts)), NO_MESHES).findings
                if f.rule == 'inertia-geometry-mismatch']

    (finding,) = found([bar(0.76, 0.0002), bar(0.76, 0.0002), bar(1.76, 0.00047)])
    assert finding.links == ('l0', 'l1', 'l2')
    assert finding.message.startswith('3 links declare tensors with three equal moments and '
                                      "no products (a sphere's or a cube's formula, or a "
                                      'placeholder), each off its collision geometry')
    assert [name for name, _ in finding.links_suggested_inertia] == ['l0', 'l1', 'l2']
    # one value on all of them stays the copied tensor
    (copied,) = found([bar(0.76, 0.0002)] * 3)
    assert 'links declare the same tensor' in copied.message
    # two are per link
    assert [f.link for f in found([bar(0.76, 0.0002), bar(1.76, 0.00047)])] == ['l0', 'l1']


def test_one_placeholder_diagonal_over_tensors_of_their_own_is_one_finding():
    # iCub's Gazebo model: ixx = iyy = izz = 0.01 on 18 links, the products of each from its
    # CAD tensor, so no two tensors are the same six numbers: one finding, not 18 errors.
    def part(product):
        return ('<inertial><mass value="0.5"/><inertia ixx="0.01" ixy="{p}" ixz="0" '
                'iyy="0.01" iyz="0" izz="0.01"/></inertial><collision><geometry><box '
                'size="0.05 0.05 0.05"/></geometry></collision>').format(p=product)

    def found(products):
        return [f for f in analyze(parse_urdf_string(_chain([part(p) for p in products])),
                                   NO_MESHES).findings if f.rule == 'inertia-exceeds-extent']

    (finding,) = found([1e-5, -2e-5, 3e-5])
    assert finding.links == ('l0', 'l1', 'l2') and finding.severity == Severity.ERROR
    assert finding.message.startswith('3 links declare the same moments, ixx = iyy = izz = '
                                      '0.01, each with products of its own')
    assert [name for name, _ in finding.links_suggested_inertia] == ['l0', 'l1', 'l2']
    assert [f.link for f in found([1e-5, -2e-5])] == ['l0', 'l1']
    # An exporter's arithmetic leaves izz="0.009999999999999998" on some (iCub V2_10's
    # shoulders, elbows, wrists, each of its own mass): the same placeholder, one finding.
    parts = [('<inertial><mass value="{m}"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" '
              'iyz="0" izz="{z}"/></inertial><collision><geometry><box size="0.05 0.05 0.05"/>'
              '</geometry></collision>').format(m=mass, z=izz)
             for mass, izz in ((0.5, '0.01'), (0.6, '0.009999999999999998'), (0.7, '0.01'))]
    (finding,) = [f for f in analyze(parse_urdf_string(_chain(parts)), NO_MESHES).findings
                  if f.rule == 'inertia-exceeds-extent']
    assert sorted(finding.links) == ['l0', 'l1', 'l2'], finding


def test_a_tensor_exported_in_kg_mm2_is_named_and_rescaled():
    # ROBOTIS AI Worker's base: 1.19e6, 1.09e6, 4.49e5 for 54 kg, a CAD export in kg mm^2;
    # the fix is the same tensor divided by 10^6, not the geometry's.
    part = ('<inertial><mass value="2"/><inertia ixx="13000" ixy="50" ixz="0" iyy="12000" '
            'iyz="0" izz="11000"/></inertial><collision><geometry><box size="0.2 0.2 0.2"/>'
            '</geometry></collision>')
    right = part
    for mm2, m2 in (('13000', '1.3e-2'), ('12000', '1.2e-2'), ('11000', '1.1e-2'),
                    ('"50"', '"5e-5"')):
        right = right.replace(mm2, m2)
    findings = analyze(parse_urdf_string(_chain([part, right])), NO_MESHES).findings
    (finding,) = [f for f in findings if f.rule == 'inertia-exceeds-extent']
    assert finding.link == 'l0'
    assert finding.suggestion.startswith('the tensor reads as written in kg mm^2: divided by '
                                         '1,000,000 (to kg m^2) it is within its bound')
    assert finding.suggested_inertia == pytest.approx((0.013, 5e-5, 0.0, 0.012, 0.0, 0.011))
    # equal moments are a placeholder, not an export (ixx = iyy = izz = 1e4)
    even = part.replace('13000', '10000').replace('12000', '10000').replace('11000', '10000')
    (placeholder,) = [f for f in analyze(parse_urdf_string(_chain([even])), NO_MESHES)
                      .findings if f.rule.startswith('inertia-exceeds')]
    assert 'reads as written' not in placeholder.suggestion


def test_a_centre_of_mass_on_a_face_of_its_box_is_named_and_unfixed_links_are_said():
    # Bullet's quadruped: ixx=iyy=izz=1 on 25 links; the 8 lower legs have no <origin> in
    # their <inertial>, so the centre of mass is the leg's end; no tensor fits about it, and
    # "--fix-inertia writes it on each" left those 8 silently as they were.
    placeholder = ('<inertial><mass value="0.05"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" '
                   'iyz="0" izz="1"/></inertial>')
    leg = (placeholder + '<collision><origin xyz="0 0 0.1"/><geometry><box '
           'size="0.01 0.01 0.2"/></geometry></collision>')
    body = placeholder + '<collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>'
    (finding,) = [f for f in analyze(parse_urdf_string(_chain([body, leg, body, leg])),
                                     NO_MESHES).findings if f.rule == 'inertia-exceeds-extent']
    assert finding.links == ('l0', 'l1', 'l2', 'l3')
    assert finding.message.endswith('(the centre of mass lies on a face of that box, at its z '
                                    'minimum: the <inertial> has no <origin>, so it is at '
                                    'xyz="0 0 0"; a part\'s centre of mass lies inside it)')
    assert '--fix-inertia writes it on 2 of them; not on l1, l3, for which no tensor' in \
        finding.suggestion
    assert [name for name, _ in finding.links_suggested_inertia] == ['l0', 'l2']


def _one_link(body: str) -> str:
    return ('<robot name="r"><link name="base"/><link name="pole">' + body + '</link>'
            '<joint name="j" type="prismatic"><axis xyz="1 0 0"/><parent link="base"/>'
            '<child link="pole"/><limit effort="1" lower="-0.3" upper="0" velocity="1"/>'
            '</joint></robot>')


def test_a_centre_of_mass_at_a_parts_end_gets_the_origin_and_tensor_that_pass():
    # r2d2's gripper pole (pybullet_robots, urdf_tutorial's copies): a 0.2 m cylinder turned
    # by rpy 1.57075 from the link origin, no <origin> in its <inertial>. The rounded quarter
    # turn put the end face 0.46 um past the centre of mass, so "on a face" went unsaid, and
    # the fix read "no tensor can be derived" though the cylinder's passes about its centre.
    pole = ('<collision><origin rpy="0 1.57075 0" xyz="0.1 0 0"/><geometry><cylinder '
            'length="0.2" radius="0.01"/></geometry></collision><inertial><mass value="0.05"/>'
            '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>')
    (finding,) = [f for f in analyze(parse_urdf_string(_one_link(pole)), NO_MESHES).findings
                  if f.rule == 'inertia-exceeds-extent']
    assert '(the centre of mass lies on a face of that box, at its x minimum' in finding.message
    assert ('the centre of mass on the boundary of the body is the likelier fault: move the '
            '<inertial> origin to the collision geometry\'s centroid, xyz="0.1 0 0", about '
            'which its tensor at uniform density passes every inertia rule: ixx="2.5') in \
        finding.suggestion
    assert 'iyy="0.000167916667"' in finding.suggestion
    assert finding.suggested_inertia is None  # --fix-inertia writes tensors, not origins


def test_a_visual_only_part_with_its_centre_of_mass_on_an_edge_gets_the_visual_tensor():
    # gazebo_ros2_control's mimic gripper demo: a finger drawn as a visual box from z = 0 to
    # 1 m, its centre of mass at the link origin (an edge of the box), ixx=iyy=izz=1.
    finger = ('<visual><origin xyz="0 0.05 0.5"/><geometry><box size="0.4 0.1 1"/></geometry>'
              '</visual><inertial><mass value="5"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" '
              'iyz="0" izz="1"/></inertial>')
    (finding,) = [f for f in analyze(parse_urdf_string(_one_link(finger)), NO_MESHES).findings
                  if f.rule == 'inertia-exceeds-extent']
    assert ('move the <inertial> origin to the visual geometry\'s centroid, xyz="0 0.05 0.5", '
            'about which its tensor at uniform density passes every inertia rule: '
            'ixx="0.420833333" ixy="0" ixz="0" iyy="0.483333333" iyz="0" izz="0.0708333333"'
            ) in finding.suggestion


def test_a_placeholder_on_two_links_and_carried_by_a_third_is_one_finding():
    # Interbotix's wx250s: 0.001 kg m^2 on three 1 g gripper links welded to the gripper; two
    # are over their bound, the third has its centre of mass off the body, and is over the
    # looser bound about it. One finding, and the effect on the gripper is counted without
    # the other copies (1.48x with them).
    gripper = _body(0.1, 0.00008, 0.08)
    tiny = ('<inertial><origin xyz="{x} 0 0"/><mass value="0.001"/><inertia ixx="0.001" '
            'ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial><collision><geometry>'
            '<box size="0.02 0.02 0.02"/></geometry></collision>')
    text = ('<robot name="r"><link name="base"/><joint name="j" type="revolute">'
            '<parent link="base"/><child link="gripper"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            f'<link name="gripper">{gripper}</link>'
            + ''.join(f'<link name="{name}">{tiny.format(x=x)}</link><joint name="w{name}" '
                      f'type="fixed"><parent link="gripper"/><child link="{name}"/></joint>'
                      for name, x in (('a', 0), ('b', 0), ('c', 0.2)))
            + '</robot>')
    findings = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False)).findings
    (finding,) = [f for f in findings if f.rule.startswith('inertia-exceeds')]
    assert finding.links == ('a', 'b', 'c')
    assert 'on each it exceeds what the link can have (a, b, c)' in finding.message
    assert '(with the 2 other welded links carrying the same tensor)' in finding.message
    growth = float(finding.message.split('multiplies the largest moment of that body by ')[1]
                   .split()[0])
    assert growth > 10.0
    assert not [f for f in findings if f.rule == 'inertia-geometry-mismatch']


@pytest.mark.parametrize('scale,com', [('1 1 1', '0 0.3 0'), ('1 -1 1', '0 -0.3 0')])
def test_a_mirrored_mesh_is_judged_as_its_twin(tmp_path, scale, com):
    # TALOS mirrors its right leg with scale="1 -1 1": the right side's impossible tensor and
    # misplaced centre of mass went unsaid while the left side's were reported.
    import trimesh
    path = tmp_path / 'part.stl'
    trimesh.creation.box(extents=(0.1, 0.2, 0.1), transform=trimesh.transformations
                         .translation_matrix((0, 0.1, 0))).export(str(path))
    body = (f'<inertial><origin xyz="{com}"/><mass value="1"/><inertia ixx="0.5" ixy="0" '
            f'ixz="0" iyy="0.5" iyz="0" izz="0.5"/></inertial><collision><geometry><mesh '
            f'filename="{path}" scale="{scale}"/></geometry></collision>')
    text = ('<robot name="r"><link name="base"/><joint name="j" type="revolute"><parent '
            'link="base"/><child link="leg"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" '
            f'effort="1" velocity="1"/></joint><link name="leg">{body}</link></robot>')
    findings = analyze(parse_urdf_string(text, str(tmp_path / 'r.urdf')),
                       CheckConfig()).findings
    com_found = [f for f in findings if f.rule == 'com-outside-geometry']
    assert [f.link for f in com_found] == ['leg']
    assert float(dict(com_found[0].values)['distance']) == pytest.approx(0.1, abs=1e-6)
    centred = text.replace(f'xyz="{com}"', f'xyz="0 {float(com.split()[1]) / 3:g} 0"')
    findings = analyze(parse_urdf_string(centred, str(tmp_path / 'r.urdf')),
                       CheckConfig()).findings
    assert [f.link for f in findings if f.rule == 'inertia-exceeds-extent'] == ['leg']


def test_a_placeholder_on_the_top_of_a_welded_body_is_fused_away():
    # ANYmal D: a 1 g hip link with 1e-6 kg m^2 on the HAA joint, the 0.36 kg hip (mesh,
    # no collision) welded below it. Every engine fuses them: the tensor changes the hip's
    # under 10 %, an info, and the hip link is not 'nothing to draw' (the hip draws it).
    hip = ('<visual><geometry><box size="0.1 0.06 0.08"/></geometry></visual><inertial>'
           '<mass value="0.36"/><inertia ixx="0.00024" ixy="0" ixz="0" iyy="0.00055" iyz="0" '
           'izz="0.00044"/></inertial>')
    text = ('<robot name="r"><link name="base"><collision><geometry><box size="0.5 0.3 0.2"/>'
            '</geometry></collision></link>'
            + ''.join(
                f'<joint name="{leg}_HAA" type="revolute"><parent link="base"/><child '
                f'link="{leg}_HIP"/><origin xyz="0.3 0 0"/><axis xyz="1 0 0"/><limit '
                'lower="-1" upper="1" effort="1" velocity="1"/></joint>'
                f'<link name="{leg}_HIP"><inertial><origin xyz="0.05 0.03 0.04"/><mass '
                'value="0.001"/><inertia ixx="1e-06" ixy="0" ixz="0" iyy="1e-06" iyz="0" '
                'izz="1e-06"/></inertial></link>'
                f'<joint name="{leg}_fix" type="fixed"><parent link="{leg}_HIP"/><child '
                f'link="{leg}_hip"/></joint><link name="{leg}_hip">{hip}</link>'
                for leg in ('LF', 'RF', 'LH', 'RH'))
            + '</robot>')
    findings = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False)).findings
    (placeholder,) = [f for f in findings if f.rule == 'inertia-exceeds-extent']
    assert placeholder.severity == Severity.INFO
    assert 'changes the largest moment of that body by under 10 %' in placeholder.message
    missing = [f for f in findings if f.rule == 'collision-missing']
    assert all('nothing to draw' not in f.message for f in missing)
    assert not any(link.endswith('_HIP') for f in missing for link in (f.link,) + f.links)


def on_a_mount(root: str) -> str:
    """Return a 1 kg base of 0.1 kg m^2 welded to a root link, an arm's joint on it."""
    name = root.split('"')[1]
    return ('<robot name="r">' + root + '<joint name="mount" type="fixed">'
            f'<parent link="{name}"/><child link="base"/></joint>'
            '<link name="base">' + inertial(1, 0.1) + box('0.2 0.2 0.2') + '</link>'
            '<joint name="j" type="revolute"><parent link="base"/><child link="grip"/>'
            '<origin xyz="0 0 0.2"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            '<link name="grip">' + GRIPPER + '</link></robot>')


@pytest.mark.parametrize('root,severity', [
    ('<link name="world"/>', Severity.INFO),  # a fixed base: never moves
    ('<link name="world">' + inertial(5, 0.1) + '</link>', Severity.ERROR),  # not the world
    ('<link name="stand"/>', Severity.ERROR)])  # a root Gazebo leaves floating
def test_a_base_welded_to_the_world_is_an_info(root, severity):
    # Barrett WAM, JAKA zu18: 1 kg base with 0.1 kg m^2, welded to the massless 'world'
    # root link: impossible, but no simulator moves it; an arm error it is not.
    text = on_a_mount(root)
    (found,) = [f for f in rules(text) if f.link == 'base']
    assert found.severity == severity
    assert ("welded to 'world' (a fixed base)" in found.message) == (severity == Severity.INFO)


@pytest.mark.parametrize('ixz,pasted', [('0.00007582', True), ('0.00007', False)])
def test_a_product_that_repeats_a_moment_is_named_as_pasted(ixz, pasted):
    # Barrett WAM's wrist_yaw_link: ixz is its iyy (0.00007582), which makes the tensor not
    # positive definite; the fix names the slip before any suggested tensor.
    text = ('<robot name="r"><link name="l"><inertial><mass value="1.054"/>'
            f'<inertia ixx="0.00005029" ixy="0" ixz="{ixz}" iyy="0.00007582" iyz="0" '
            'izz="0.00006270"/></inertial></link></robot>')
    found = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.rule == 'inertia-not-positive-definite']
    assert len(found) == 1
    # Here that tensor fails a rule (a 1 kg body cannot be that compact): the fix written
    # comes first, the slip after it, with why it is not the one written.
    assert ('(ixz="7.582e-05" repeats iyy: a value pasted into the wrong attribute? With '
            'ixz="0" the tensor is valid, but its largest moment 7.582e-05 is smaller than '
            'any body of 1.054 kg can have' in found[0].suggestion) == pasted, found[0]


def test_a_product_equal_to_a_moment_by_rounding_is_no_paste_and_mirrors_get_mirrored_fixes():
    # Petoi Nybble's 5.7 g thighs, rounded to 1e-6 by fusion2urdf: ixz="1e-06" equals izz by
    # rounding. It was "a value pasted into the wrong attribute?" with ixz="0" written, while
    # the mirrored thigh (ixz="-1e-06") got the nearest valid tensor, with products of 1e-23.
    def thigh(name, sign):
        return (f'<link name="{name}"><inertial><mass value="0.0057"/><inertia ixx="2e-06" '
                f'ixy="0" ixz="{sign}1e-06" iyy="2e-06" iyz="0" izz="1e-06"/></inertial></link>')
    text = f'<robot name="r">{thigh("thigh_l", "")}{thigh("thigh_r", "-")}</robot>'
    found = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.rule.startswith('inertia-') and f.link]
    assert not any('pasted' in f.suggestion for f in found)
    written = {f.link: f.suggested_inertia for f in found}  # what --fix-inertia writes
    for finding in found:
        written.update(finding.links_suggested_inertia)
    left, right = written['thigh_l'], written['thigh_r']
    assert left == pytest.approx((right[0], 0.0, -right[2], right[3], 0.0, right[5]))
    assert left[1] == left[4] == right[1] == right[4] == 0.0


def _arm(masses_moments, ratios=(0.9, 0.8)):
    """Return a chain of 0.1 m cubes, link i with (mass, moment) masses_moments[i]."""
    def own(mass, moment):  # a CAD tensor: three different moments (by default)
        return (f'<inertial><mass value="{mass}"/><inertia ixx="{moment}" ixy="0" ixz="0" '
                f'iyy="{moment * ratios[0]}" iyz="0" izz="{moment * ratios[1]}"/></inertial>')

    return _chain([own(mass, moment) + box('0.1 0.1 0.1') for mass, moment in masses_moments])


def test_one_mass_on_many_links_with_their_own_tensors_is_the_placeholder():
    # AgileX Piper: 1e-5 kg on 9 links, each with its CAD tensor. One finding about the
    # mass, with the least mass each tensor needs; no tensor suggested (--fix-inertia would
    # have shrunk 54 right numbers to the placeholder mass).
    found = rules(_arm([(1e-5, 2e-4), (1e-5, 1e-4), (1e-5, 5e-5), (1, 0.002)]))
    (finding,) = found
    assert finding.link is None and finding.links == ('l0', 'l1', 'l2')
    assert finding.element == 'inertial/mass' and finding.severity == Severity.ERROR
    assert finding.message.startswith('3 links declare the same mass, 1e-05 kg, with '
                                      'different tensors that only bodies of ')
    assert finding.suggested_inertia is None and not finding.links_suggested_inertia
    # a bound of m (V_y + V_z) = m * 2 * 0.05^2 for a 0.1 m cube about its centre
    least = [float(value) for value in dict(finding.values)['least_masses_kg'].split()]
    assert least == pytest.approx([2e-4 / 0.005, 1e-4 / 0.005, 5e-5 / 0.005], rel=0.02)
    # The placeholder mass is that one finding: not a second about its density (Piper's
    # 9 links had one of each, for the same 1e-5 kg).
    every = analyze(parse_urdf_string(_arm([(1e-5, 2e-4), (1e-5, 1e-4), (1e-5, 5e-5),
                                            (1, 0.002)])), NO_MESHES).findings
    assert not [f for f in every if f.rule == 'density-implausible']
    # a tensor only twice over its bound is the tensor's fault: per link, with a fix
    mixed = sorted(rules(_arm([(1e-5, 2e-4), (1e-5, 1e-4), (1e-5, 1e-7)])),
                   key=lambda finding: finding.link)
    assert [f.link for f in mixed] == ['l0', 'l1', 'l2']
    assert mixed[2].suggested_inertia is not None
    # (40 and 20 times over, at 0.01 kg/m^3: each one's mass is its placeholder, said with
    # the tensor, which is kept: Barrett WAM's racquet; no density finding beside it)
    assert [f.suggested_inertia for f in mixed[:2]] == [None, None]
    assert all(f.suggestion.startswith("write the link's real mass") and
               'far too light for its geometry' in f.message for f in mixed[:2])
    # equal moments are a placeholder tensor (PR2's 0.001 frames): the tensor's rules
    isotropic = _arm([(1e-5, 2e-4), (1e-5, 1e-4), (1e-5, 5e-5)], ratios=(1, 1))
    assert 'the same mass' not in ' '.join(f.message for f in rules(isotropic))


def _offset_parts(coms):
    """Links whose 0.04 m cube sits at xyz="0.02 0.01 0", each with its centre of mass."""
    part = ('<inertial><origin xyz="{com}"/><mass value="0.1"/><inertia ixx="1e-5" ixy="0" '
            'ixz="0" iyy="1e-5" iyz="0" izz="1e-5"/></inertial><collision><origin '
            'xyz="0.02 0.01 0"/><geometry><box size="0.04 0.04 0.04"/></geometry></collision>')
    return _chain([part.format(com=com) for com in coms])


def test_centres_of_mass_at_one_length_slip_are_one_finding():
    # Schunk SVH: 21 centres of mass, most exactly 10x their geometry's centroid (a model
    # exported at another scale): one finding naming the factor, not one per link.
    def found(coms):
        return [f for f in analyze(parse_urdf_string(_offset_parts(coms)), NO_MESHES).findings
                if f.rule == 'com-outside-geometry']

    (slip,) = found(['0.2 0.1 0', '0.21 0.095 0', '0.19 0.1 0.001', '0.02 0.01 0'])
    assert slip.links == ('l0', 'l1', 'l2') and dict(slip.values)['factor'] == '10'
    assert 'each about 10x too far from the link origin (l0, l1, l2): divided by 10, each ' \
        "comes to its collision geometry's centroid;" in slip.message
    assert 'divide each centre of mass by 10' in slip.suggestion
    (milli,) = found(['20 10 0', '20 10 0.5', '19.5 10 0'])
    assert 'millimetres read as metres' in milli.message
    # two are two findings; offsets that are no single factor stay per link
    assert [f.link for f in found(['0.2 0.1 0', '0.2 0.1 0.001'])] == ['l0', 'l1']
    assert sorted(f.link for f in found(['0.2 0.1 0', '0.07 0.2 0', '-0.3 0 0'])) == \
        ['l0', 'l1', 'l2']


def _slipped_part(com, moment):
    """Return a 0.04 m cube at xyz="0.02 0.01 0" of 0.1 kg, its moments about `moment`."""
    return ('<inertial><origin xyz="{com}"/><mass value="0.1"/><inertia ixx="{m}" ixy="0" '
            'ixz="0" iyy="{m1}" iyz="0" izz="{m2}"/></inertial><collision><origin '
            'xyz="0.02 0.01 0"/><geometry><box size="0.04 0.04 0.04"/></geometry>'
            '</collision>').format(com=com, m=moment, m1=moment * 1.1, m2=moment * 0.9)


def test_tensors_at_one_length_slip_are_one_finding():
    # Schunk SVH: 22 tensors about 100x their geometry's (74x to 152x per moment), the model
    # exported at 10x: one inertia finding naming the slip, not one per link. The cube's own
    # moment at 0.1 kg is 2.67e-5 kg m^2.
    def found(parts):
        return [f for f in analyze(parse_urdf_string(_chain(parts)), NO_MESHES).findings
                if f.rule in ('inertia-geometry-mismatch', 'com-outside-geometry')]

    slipped = [_slipped_part('0.2 0.1 0', 2.6e-3), _slipped_part('0.21 0.1 0', 2.7e-3),
               _slipped_part('0.2 0.09 0', 2.8e-3)]
    com, tensor = sorted(found(slipped), key=lambda f: f.rule)
    assert (com.rule, tensor.rule) == ('com-outside-geometry', 'inertia-geometry-mismatch')
    assert tensor.links == ('l0', 'l1', 'l2') and tensor.link is None
    assert tensor.message.startswith('3 links declare tensors each about 100x larger than '
                                     'their collision geometry gives at their mass')
    assert 'a model exported at 10x?' in tensor.message
    assert 'centres of mass show the same slip' in tensor.message
    assert 'divide each tensor by 100' in tensor.suggestion
    # Over their physical bounds about the declared centres of mass (l0: 2.1x, below): an
    # error, as inertia-exceeds-extent is on one such link alone (Schunk SVH's 21 links, its
    # hand base 32x over, passed CI as two warnings); the centres of mass stay a warning
    assert tensor.severity == Severity.ERROR and com.severity == Severity.WARNING
    assert tensor.message.endswith('; l0, l1, l2 declare tensors 2x or more over what any '
                                   'body of their mass inside their geometry can have about '
                                   'their declared centre of mass (inertia-exceeds-extent): '
                                   'either way the model is wrong')
    # centres of mass ten times further out bound the same tensors loosely: a warning
    far = [_slipped_part(xyz, moment) for xyz, moment in
           (('2 1 0', 2.6e-3), ('2.1 1 0', 2.7e-3), ('2 0.9 0', 2.8e-3))]
    far_com, far_tensor = sorted(found(far), key=lambda f: f.rule)
    assert far_tensor.links == ('l0', 'l1', 'l2') and 'a model exported at 10x?' in \
        far_tensor.message
    assert far_tensor.severity == far_com.severity == Severity.WARNING
    assert 'over what any body' not in far_tensor.message + far_com.message
    # tensors over their bounds that show no slip of their own (375x: no named square):
    # the centres of mass' slip finding is the error
    loose = [_slipped_part(xyz, 1e-2) for xyz in ('0.2 0.1 0', '0.21 0.1 0', '0.2 0.09 0')]
    (com,) = [f for f in found(loose) if f.rule == 'com-outside-geometry']
    assert com.links == ('l0', 'l1', 'l2') and com.severity == Severity.ERROR
    assert '; l0, l1, l2 declare tensors 2x or more over' in com.message
    # --fix-inertia keeps each link's own tensor
    assert [name for name, _ in tensor.links_suggested_inertia] == ['l0', 'l1', 'l2']
    # two are per link, and named no slip: each tensor is over the bound about its centre
    # of mass (1.25e-3 kg m^2 about x for l0: 2.1x), an error in place of the mismatch; a
    # factor that is no slip's square (30x) names no slip (the three links of one mass with
    # tensors all too large are one finding for that: model_wide)
    two = analyze(parse_urdf_string(_chain(slipped[:2])), NO_MESHES).findings
    assert [(f.rule, f.link) for f in two if f.rule.startswith('inertia-')] == \
        [('inertia-exceeds-extent', 'l0'), ('inertia-exceeds-extent', 'l1')]
    off = [_slipped_part('0.2 0.1 0', moment) for moment in (8e-4, 8.2e-4, 7.9e-4)]
    (tensor,) = [f for f in found(off) if f.rule == 'inertia-geometry-mismatch']
    assert tensor.links == ('l0', 'l1', 'l2') and 'slip' not in tensor.message
    assert 'links of the same mass' in tensor.message
    # centres of mass that com-outside-geometry does not judge (a visual mesh of unknown
    # size may hold them: Bullet's racecar) are not said to show the slip
    unjudged = [part.replace('</collision>', '</collision><visual><geometry><mesh '
                             'filename="gone.stl"/></geometry></visual>') for part in slipped]
    (tensor,) = found(unjudged)
    assert tensor.links == ('l0', 'l1', 'l2') and 'centres of mass' not in tensor.message


def test_a_centre_of_mass_the_tensor_shows_slipped_joins_the_slip():
    # SVH's base link: its centre of mass 8x its hull's centroid, not 10x, but its tensor is
    # 100x and the centre of mass divided by 10 lies in its geometry: the same slip.
    parts = [_slipped_part('0.2 0.1 0', 2.6e-3), _slipped_part('0.21 0.1 0', 2.7e-3),
             _slipped_part('0.3 -0.02 0', 2.8e-3)]
    (com,) = [f for f in analyze(parse_urdf_string(_chain(parts)), NO_MESHES).findings
              if f.rule == 'com-outside-geometry']
    assert com.links == ('l0', 'l1', 'l2')
    assert "(l2: within its geometry, its tensor 100x the geometry's)" in com.message
    # without the tensor's slip, that centre of mass is its own finding
    parts[2] = _slipped_part('0.3 -0.02 0', 2.7e-5)
    found = [f for f in analyze(parse_urdf_string(_chain(parts)), NO_MESHES).findings
             if f.rule == 'com-outside-geometry']
    assert sorted(f.link for f in found) == ['l0', 'l1', 'l2']


@pytest.mark.parametrize('com,moment,judged', [
    ('0.0498 0 0', 0.03, True),  # 7.4x the bound about the box's centre
    ('0.0498 0 0', 0.006, None),  # 1.5x: the geometry may miss a flange (AUBO iS5): quiet
    ('0.2 0 0', 0.03, False),  # com-outside-geometry, and the bound about the declared point
    ('0.2 0 0', 0.008, None)])  # 1.98x that bound: com-outside-geometry alone
def test_a_centre_of_mass_just_outside_is_judged_about_the_box_centre(com, moment, judged):
    # Rokae SR4's link6: 9.8 mm outside its geometry, under com-outside-geometry's 1 cm: a
    # radius of gyration of 0.18 m in a 9 cm part was said by neither rule. Within that
    # tolerance the bound is taken about the box's centre (the loosest of a centre inside);
    # further out, com-outside-geometry speaks, and the tensor is judged by the bound about
    # the declared centre of mass (m (0.045^2 + 0.045^2) = 0.00405 kg m^2 about x).
    text = ('<robot name="r"><link name="l"><inertial><origin xyz="' + com + '"/>'
            f'<mass value="1"/><inertia ixx="{moment}" ixy="0" ixz="0" iyy="{moment}" iyz="0" '
            f'izz="{moment}"/></inertial>' + box('0.09 0.09 0.09') + '</link></robot>')
    findings = analyze(parse_urdf_string(text), NO_MESHES).findings
    bound = [f for f in findings if f.rule == 'inertia-exceeds-extent']
    outside = [f for f in findings if f.rule == 'com-outside-geometry']
    far = com == '0.2 0 0'
    expected = (int(judged is not None), int(far))
    assert (len(bound), len(outside)) == expected, findings
    if judged:
        assert '(about their centre: the declared centre of mass lies 4.8 mm outside them)' \
            in bound[0].message
    elif judged is False:
        assert ': at most m (D_y + D_z) = 0.00405 kg m^2 about the declared centre of mass, ' \
            'which lies 155 mm outside the geometry' in bound[0].message


@pytest.mark.parametrize('count', [2, 3, 5])
def test_tensors_of_their_own_with_a_moment_near_zero_are_one_finding(count):
    # Ginger's exporter wrote each thin part a rod's tensor (0, I, I) with its own I and a
    # smallest moment of 1e-27 to 1e-20 (19 links, 19 findings): from 3 links, one finding
    # listing them, each link's suggested tensor kept for --fix-inertia.
    parts = ''.join(
        f'<link name="rod{i}"><inertial><mass value="0.1"/><inertia ixx="{1e-22 * (i + 1)}" '
        f'ixy="0" ixz="0" iyy="{0.001 * (i + 1)}" iyz="0" izz="{0.001 * (i + 1)}"/>'
        f'</inertial>{box("0.2 0.02 0.02")}</link>' for i in range(count))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="base"/><child link="rod{i}"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for i in range(count))
    text = f'<robot name="r"><link name="base"/>{parts}{joints}</robot>'
    found = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.rule == 'inertia-moment-tiny']
    if count < 3:
        assert sorted(f.link for f in found) == [f'rod{i}' for i in range(count)]
        return
    (finding,) = found
    assert finding.links == tuple(f'rod{i}' for i in range(count))
    assert finding.message.startswith(f'{count} links declare tensors whose smallest '
                                      'principal moment is near 0')
    assert [name for name, _ in finding.links_suggested_inertia] == list(finding.links)


@pytest.mark.parametrize('count', [1, 3])
def test_a_tensor_zero_but_for_round_off_is_the_zero_tensor(count):
    # iCub: 'ixx="-5.42101e-20" iyy="-5.42101e-20"' on a 0.5 kg link, 'iyy="4.07592e-18"' on a
    # 2 kg one, beside exact zeros: one design choice (point masses) said as 5 not positive
    # definite tensors, a broken triangle and a group of the exact zeros (7 errors). A tiny
    # real tensor (a 1 g, 1 cm part: 1.7e-8 kg m^2) is not round-off.
    tensors = ('ixx="-5.42101e-20" ixy="0" ixz="0" iyy="-5.42101e-20" iyz="0" izz="0"',
               'ixx="0" ixy="0" ixz="0" iyy="4.07592e-18" iyz="-2.71051e-20" izz="0"',
               'ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"')[:count]
    parts = ''.join(f'<link name="p{i}"><inertial><mass value="0.5"/><inertia {tensor}/>'
                    f'</inertial>{box("0.1 0.1 0.1")}</link>'
                    for i, tensor in enumerate(tensors))
    parts += ('<link name="screw"><inertial><mass value="0.001"/><inertia ixx="1.7e-8" '
              'ixy="0" ixz="0" iyy="1.7e-8" iyz="0" izz="1.7e-8"/></inertial>'
              f'{box("0.01 0.01 0.01")}</link>')
    joints = ''.join(
        f'<joint name="j{name}" type="revolute"><parent link="base"/><child link="{name}"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for name in [f'p{i}' for i in range(count)] + ['screw'])
    text = f'<robot name="r"><link name="base"/>{parts}{joints}</robot>'
    findings = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                if f.rule.startswith('inertia-')]
    assert [f.rule for f in findings] == ['inertia-moment-tiny'], findings
    (finding,) = findings
    if count == 1:
        assert finding.link == 'p0'
        assert finding.message.startswith(
            'the inertia tensor is zero but for round-off (its largest entry, 5.421e-20 kg '
            'm^2, is a radius of gyration of 3.293e-10 m): a point mass of 0.5 kg'), \
            finding.message
    else:
        assert finding.links == ('p0', 'p1', 'p2')
        assert finding.message.startswith('3 links declare a zero tensor (every entry 0, or '
                                          'round-off under a micrometre radius of gyration)')
        assert [name for name, _ in finding.links_suggested_inertia] == ['p0', 'p1', 'p2']


def test_a_centre_of_mass_on_an_edge_is_named_and_moving_it_is_suggested():
    # ROBOTIS OP2's arm links: the <inertial> at the corner of the part's box (its x and y
    # minimum), where no tensor fits: the finding says the edge, and the fix says to move
    # the origin into the part, at its geometry's centroid, with the tensor that passes there.
    part = ('<inertial><mass value="0.01"/><inertia ixx="1e-6" ixy="0" ixz="0" iyy="1e-6" '
            'iyz="0" izz="1e-6"/></inertial><collision><origin xyz="0.016 0.016 0"/>'
            '<geometry><box size="0.032 0.032 0.035"/></geometry></collision>')
    (finding,) = [f for f in analyze(parse_urdf_string(_chain([part])), NO_MESHES).findings
                  if f.rule == 'inertia-exceeds-extent']
    assert '(the centre of mass lies on an edge of that box, at its x minimum and y minimum' \
        in finding.message
    assert finding.suggestion.endswith(
        'move the <inertial> origin to the collision geometry\'s centroid, xyz="0.016 0.016 0", '
        'about which its tensor at uniform density passes every inertia rule: '
        'ixx="1.87416667e-06" ixy="0" ixz="0" iyy="1.87416667e-06" iyz="0" '
        'izz="1.70666667e-06" (write both by hand: --fix-inertia changes tensors only)'
        ), finding.suggestion


def test_a_whole_robot_too_light_for_its_geometry_is_one_finding():
    # Dobot CR20: 36 g in all for a 20 kg-payload arm, every link 100 to 100,000 times too
    # light, each its own mass: 7 findings of one slip before.
    masses = (0.002, 0.009, 0.0005, 0.0019, 0.0031)
    text = _chain([_body(mass, 1e-6, 0.2) for mass in masses])
    findings = [f for f in analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
                .findings if f.rule == 'density-implausible']
    (finding,) = findings
    assert finding.links == tuple(f'l{i}' for i in range(len(masses)))
    assert finding.message.startswith('5 of the 5 links whose density can be judged are far '
                                      'lighter than their geometry can be'), finding.message
    assert 'the robot weighs 0.0165 kg in all' in finding.message, finding.message
    # One link of plausible mass among them: still one slip when the others are 3 of 4 or
    # more; with 2 of 4 light, each is said on its own.
    text = _chain([_body(mass, 1e-6, 0.2) for mass in (0.002, 0.009, 0.0005)]
                  + [_body(8.0, 0.05, 0.2)])
    (finding,) = [f for f in analyze(parse_urdf_string(text), CheckConfig(
        check_meshes=False)).findings if f.rule == 'density-implausible']
    assert finding.message.startswith('3 of the 4 links'), finding.message
    text = _chain([_body(mass, 1e-6, 0.2) for mass in (0.002, 0.009)]
                  + [_body(8.0, 0.05, 0.2), _body(8.0, 0.05, 0.2)])
    assert [f.link for f in analyze(parse_urdf_string(text), CheckConfig(
        check_meshes=False)).findings if f.rule == 'density-implausible'] == ['l0', 'l1']


def test_a_twin_part_with_another_mass_is_named_in_the_density_fix():
    # duAro's upper_link_j4: 10 kg in 17 cm^3 ("grams as kilograms?"), while lower_link_j4,
    # the same part exported again, has 0.5 kg: the copy slip is the likelier story.
    text = _chain([_body(1.0, 0.004, 0.2), _body(10.0, 1e-4, 0.02), _body(0.05, 1e-6, 0.02)])
    (finding,) = [f for f in analyze(parse_urdf_string(text), CheckConfig(
        check_meshes=False)).findings if f.rule == 'density-implausible']
    assert finding.link == 'l1', finding
    assert finding.suggestion.startswith("'l2' has collision geometry of the same volume and "
                                         '0.05 kg: if it is the same part'), finding.suggestion
    # one volume by chance, another shape: not named (Maxwell's laser box and shoulder
    # bracket, sweep V): 0.02^3 m^3 as a 0.04 x 0.01 x 0.02 box
    other = _body(0.05, 1e-6, 0.02).replace('0.02 0.02 0.02', '0.04 0.01 0.02')
    text = _chain([_body(1.0, 0.004, 0.2), _body(10.0, 1e-4, 0.02), other])
    (finding,) = [f for f in analyze(parse_urdf_string(text), CheckConfig(
        check_meshes=False)).findings if f.rule == 'density-implausible' and f.link == 'l1']
    assert 'same volume' not in finding.suggestion, finding.suggestion


def test_a_pasted_product_is_what_the_fixer_writes_when_that_is_valid():
    # HSR's hand_l_distal_link: the text led with ixz="0", --fix-inertia wrote the nearest
    # valid tensor (iyy changed too). Where the tensor with that product 0 passes every
    # rule, it is the suggested one, and the text says so.
    text = ('<robot name="r"><link name="l"><inertial><mass value="1"/>'
            '<inertia ixx="0.0021" ixy="0" ixz="0.0031" iyy="0.0031" iyz="0" izz="0.0042"/>'
            '</inertial></link></robot>')
    (found,) = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                if f.rule == 'inertia-not-positive-definite']
    assert found.suggestion.startswith(
        'ixz="0.0031" repeats iyy: a value pasted into the wrong attribute? With ixz="0" the '
        'tensor is valid (--fix-inertia writes that); if the value is right, '), found
    assert found.suggested_inertia == (0.0021, 0.0, 0.0, 0.0031, 0.0, 0.0042), found


def test_two_placeholder_moments_with_a_computed_third_are_one_finding():
    # duAro's macro: ixx="1" iyy="1" izz="${Izz+length*length*mass}" on 4 links (each its
    # own izz), each over its bound: 4 errors of one macro line before.
    parts = [('<inertial><mass value="{m}"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
              'izz="{z}"/></inertial><collision><geometry><box size="0.2 0.2 0.2"/></geometry>'
              '</collision>').format(m=mass, z=izz)
             for mass, izz in ((3.0, 0.5), (4.0, 0.6), (5.0, 0.7), (6.0, 0.8))]
    (finding,) = [f for f in analyze(parse_urdf_string(_chain(parts)), NO_MESHES).findings
                  if f.rule == 'inertia-exceeds-extent']
    assert sorted(finding.links) == ['l0', 'l1', 'l2', 'l3'], finding
    assert finding.message.startswith('4 links declare the same moments, ixx = iyy = 1, each '
                                      'with izz and products of its own'), finding.message


def test_an_arm_as_dense_as_solid_steel_is_one_note():
    # JAKA Zu 7: four of six moving links at the CAD's default steel over their whole
    # volume, a 92 kg arm of 22 kg. Said once, as an info; two such links are not an arm.
    def steel(side, density=7850.0, visual=True):
        mass = density * side ** 3
        moment = mass * side * side / 6.0
        shown = f'<visual><geometry><box size="{side} {side} {side}"/></geometry></visual>'
        return _body(round(mass, 6), round(moment, 9), side) + (shown if visual else '')

    def notes(parts):
        return [f for f in analyze(parse_urdf_string(_chain(parts)), NO_MESHES).findings
                if f.rule == 'density-solid-metal']

    (finding,) = notes([steel(0.2)] + [steel(0.1)] * 4)
    assert finding.severity == Severity.INFO and finding.links == ('l1', 'l2', 'l3', 'l4')
    assert finding.message.startswith('4 of the 4 moving links whose density can be judged '
                                      'are as dense as solid metal'), finding.message
    assert notes([steel(0.2)] + [steel(0.1)] * 2 + [steel(0.1, 1500.0)] * 2) == []
    assert notes([steel(0.2)] + [steel(0.1, 2700.0)] * 4) == []  # aluminium through: fine
    # A collision shape that is not the whole part (no visual to compare, or a smaller box
    # inside it: Unitree H1's hips, Robotiq 3F's fingers) holds the mass in less volume.
    assert notes([steel(0.2)] + [steel(0.1, visual=False)] * 4) == []
    inside = steel(0.1).replace('<visual><geometry><box size="0.1 0.1 0.1"/>',
                                '<visual><geometry><box size="0.2 0.2 0.2"/>')
    assert notes([steel(0.2)] + [inside] * 4) == []


@pytest.mark.parametrize('joint,flagged', [('fixed', False), ('continuous', True)])
def test_a_welded_tensor_off_its_geometry_is_judged_by_its_body(joint, flagged):
    # Neobotix MPO-700: its wheels welded into the 140 kg base; one declares a tensor 11x
    # smaller than its wheel's, which changes the fused body's inertia by under 1 %. The
    # three whose tensors were 5.7x over their own bounds were judged by the body (silent):
    # so is this one. On a joint that turns, the wheel is a body of its own: flagged.
    wheel = ('<collision><origin rpy="1.5708 0 0"/><geometry><cylinder radius="0.09" '
             'length="0.03"/></geometry></collision>')
    text = ('<robot name="r"><link name="base_link">' + inertial(140, 5)
            + box('0.9 0.6 0.3') + box('0.9 0.6 0.3', 'visual') + '</link>'
            f'<joint name="wheel_joint" type="{joint}"><parent link="base_link"/>'
            '<child link="wheel"/><origin xyz="0.3 0.3 -0.1"/><axis xyz="0 1 0"/></joint>'
            '<link name="wheel"><inertial><mass value="2"/><inertia ixx="0.0004433" ixy="0" '
            'ixz="0" iyy="0.00072" iyz="0" izz="0.0004433"/></inertial>' + wheel
            + wheel.replace('collision', 'visual') + '</link></robot>')
    findings = analyze(parse_urdf_string(text), NO_MESHES).findings
    mismatches = [f.link for f in findings if f.rule == 'inertia-geometry-mismatch']
    assert mismatches == (['wheel'] if flagged else []), findings


def test_a_placeholder_over_one_bound_and_off_the_geometry_of_its_copies_is_one_finding():
    # Robotnik RB-1: ixx=iyy=izz=1 on 6 links. One (a 1 kg head on its own joint) is over
    # its bound: an error; the others, welded into a 100 kg column whose bounds allow it,
    # were a separate warning for the same tensor, 65x to 695x off their geometry.
    unit = inertial(1, 1)
    parts = ''.join(
        f'<joint name="w{i}" type="fixed"><parent link="column"/><child link="cover{i}"/>'
        f'<origin xyz="0 0 {0.3 * i - 0.3}"/></joint>'
        f'<link name="cover{i}">{unit}{box("0.1 0.1 0.1")}{box("0.1 0.1 0.1", "visual")}</link>'
        for i in range(3))
    text = ('<robot name="r"><link name="column">' + inertial(100, 80)
            + box('2 2 3') + box('2 2 3', 'visual') + '</link>' + parts
            + '<joint name="neck" type="revolute"><parent link="column"/><child link="head"/>'
            '<origin xyz="0 0 1.6"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            f'<link name="head">{unit}{box("0.2 0.2 0.1")}{box("0.2 0.2 0.1", "visual")}</link>'
            '</robot>')
    findings = analyze(parse_urdf_string(text), NO_MESHES).findings
    rules = ('inertia-exceeds-extent', 'inertia-geometry-mismatch')
    tensor = [f for f in findings if f.rule in rules]
    assert [(f.rule, f.severity, f.links) for f in tensor] == [
        ('inertia-exceeds-extent', Severity.ERROR, ('head', 'cover0', 'cover1', 'cover2'))]
    assert 'cover0, cover1, cover2 carry it too (within the bound of the body each is in, ' \
        'but off its collision geometry by 600x, 600x, 600x)' in tensor[0].message


def _swapped(visual_size, joint='revolute'):
    # A 0.4 m bar along x whose tensor has the moments of x and y swapped (the inertial rpy
    # turned 90 degrees about z): the moments of the bar, on other axes.
    return ('<robot name="r"><link name="base">' + inertial(5, 0.05) + box('0.3 0.3 0.3')
            + f'</link><joint name="j" type="{joint}"><parent link="base"/><child link="bar"/>'
            '<origin xyz="0 0 0.5"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            '<link name="bar"><inertial><mass value="1"/><inertia ixx="0.01354" ixy="0" ixz="0" '
            'iyy="0.00354" iyz="0" izz="0.01667"/></inertial>' + box('0.4 0.2 0.05')
            + box(visual_size, 'visual') + '</link></robot>')


def test_an_error_over_the_bound_says_the_moments_are_on_other_axes():
    # Elfin 5's link2: 2.34x over its bound, the geometry's moments turned 90 degrees about z:
    # the warning under 2x said it in its message, the error only in its fix.
    text = ('<robot name="r"><link name="base">' + inertial(5, 0.05) + box('0.3 0.3 0.3')
            + '</link><joint name="j" type="revolute"><parent link="base"/><child link="bar"/>'
            '<origin xyz="0 0 0.5"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            '<link name="bar"><inertial><mass value="1"/><inertia ixx="0.01337" ixy="0" '
            'ixz="0" iyy="0.000867" iyz="0" izz="0.01417"/></inertial>' + box('0.4 0.1 0.02')
            + box('0.4 0.1 0.02', 'visual') + '</link></robot>')
    (over,) = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
               if f.link == 'bar' and f.rule.startswith('inertia-')]
    assert (over.rule, over.severity) == ('inertia-exceeds-extent', Severity.ERROR)
    assert "(5.14x: the collision geometry's moments, on other axes)" in over.message, \
        over.message


def test_a_centre_of_mass_a_hair_outside_its_box_is_on_its_boundary():
    # Schunk LWA's arm_7_link: 'the declared centre of mass lies 2.83e-07 mm outside them'.
    text = ('<robot name="r"><link name="l"><inertial><origin xyz="0.045000001 0 0"/>'
            '<mass value="1"/><inertia ixx="0.03" ixy="0" ixz="0" iyy="0.03" iyz="0" '
            'izz="0.03"/></inertial>' + box('0.09 0.09 0.09') + '</link></robot>')
    (bound,) = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                if f.rule == 'inertia-exceeds-extent']
    assert bound.message.endswith('(the declared centre of mass lies on the boundary of that '
                                  "box, within a micrometre; a part's centre of mass lies "
                                  'inside it)'), bound.message


def test_a_tensor_with_its_geometry_moments_on_other_axes_is_said_turned():
    # KUKA KR 560 R3100-2's link_3 (241 kg): (6.42, 26.6, 29.6) kg m^2 where its mesh gives
    # (26.7, 6.10, 28.6). Sorted, the moments matched: nothing was said.
    findings = analyze(parse_urdf_string(_swapped('0.4 0.4 0.4')), NO_MESHES).findings
    (turned,) = [f for f in findings if f.link == 'bar' and f.rule.startswith('inertia-')]
    assert turned.rule == 'inertia-axes-turned' and turned.severity == Severity.WARNING
    assert "about the inertial frame's y axis, where the geometry gives 0.01354 kg m^2, " \
        'the tensor has 0.00354 (3.83x); the inertial frame looks turned' in turned.message
    assert turned.suggestion.startswith('the declared tensor turned -90 degrees about z fits '
                                        "the geometry's axes within 1x")
    assert turned.suggested_inertia == pytest.approx((0.00354, 0, 0, 0.01354, 0, 0.01667))
    # Over its bound (the visual no larger than the bar), the bound's finding says why.
    findings = analyze(parse_urdf_string(_swapped('0.4 0.2 0.05')), NO_MESHES).findings
    (over,) = [f for f in findings if f.link == 'bar' and f.rule.startswith('inertia-')]
    assert over.rule == 'inertia-exceeds-extent'
    assert "x: the collision geometry's moments, on other axes)" in over.message
    assert 'the inertial frame looks turned; turned -90 degrees about z' in over.suggestion
    assert over.suggested_inertia == pytest.approx((0.00354, 0, 0, 0.01354, 0, 0.01667))
    # Welded 0.5 m from a 5 kg base, the bar turned changes that body by about 3 %: fused.
    findings = analyze(parse_urdf_string(_swapped('0.4 0.4 0.4', 'fixed')), NO_MESHES).findings
    assert not [f for f in findings if f.rule == 'inertia-axes-turned']


def test_a_tensor_is_not_said_turned_against_a_collision_turned_from_its_visual():
    # Flexiv Rizon 10: its collision meshes stand -90 degrees about x from the visuals
    # (collision-visual-turned says so); link3's and link5's tensors, right for the parts,
    # were told to turn with them. A bar along y, its collision along x.
    def bar(visual, collision):
        return ('<robot name="r"><link name="base">' + inertial(5, 0.05) + box('0.3 0.3 0.3')
                + '</link><joint name="j" type="revolute"><parent link="base"/>'
                '<child link="bar"/><origin xyz="0 0 0.5"/><axis xyz="0 0 1"/>'
                '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
                '<link name="bar"><inertial><mass value="1"/><inertia ixx="0.05354" ixy="0" '
                'ixz="0" iyy="0.00104" iyz="0" izz="0.05417"/></inertial>' + box(collision)
                + box(visual, 'visual') + '</link></robot>')

    rules = [f.rule for f in analyze(parse_urdf_string(bar('0.1 0.8 0.05', '0.8 0.1 0.05')),
                                     NO_MESHES).findings if f.link == 'bar']
    assert rules == ['collision-visual-turned']
    # the collision turned back: nothing; the tensor turned from both: still said
    assert not [f for f in analyze(parse_urdf_string(bar('0.1 0.8 0.05', '0.1 0.8 0.05')),
                                   NO_MESHES).findings if f.link == 'bar']
    rules = [f.rule for f in analyze(parse_urdf_string(bar('0.8 0.1 0.05', '0.8 0.1 0.05')),
                                     NO_MESHES).findings if f.link == 'bar']
    assert rules == ['inertia-exceeds-extent']


def _arm_about_origin(count, negate=False, about_origin=True, masses=(4.0, 3.0, 5.0)):
    # Links 0.6 m long along x, their centre of mass mid-way (and 5 cm up): the box's own
    # tensor about it, or (as Neuromeka's Indy writes them) about the link origin, with the
    # products' signs of the CAD convention when negate. Each link its own mass (a design
    # of its own), unless masses repeat one.
    size, com = np.array([0.6, 0.1, 0.1]), np.array([0.3, 0.0, 0.05])
    links, joints, parent = '', '', 'base'
    centrals = []
    for index in range(count):
        mass = masses[index % len(masses)]
        central = np.diag(mass / 12.0 * (size @ size - size * size))
        centrals.append(central)
        shift = mass * (com @ com * np.eye(3) - np.outer(com, com))
        tensor = central + shift if about_origin else central
        if negate:
            tensor = np.diag(np.diag(tensor)) - (tensor - np.diag(np.diag(tensor)))
        values = ' '.join(f'{name}="{float(tensor[i, j])!r}"' for name, (i, j) in (
            ('ixx', (0, 0)), ('ixy', (0, 1)), ('ixz', (0, 2)), ('iyy', (1, 1)),
            ('iyz', (1, 2)), ('izz', (2, 2))))
        links += (f'<link name="l{index}"><inertial><origin xyz="0.3 0 0.05"/>'
                  f'<mass value="{mass}"/><inertia {values}/></inertial>'
                  '<collision><origin xyz="0.3 0 0.05"/><geometry><box size="0.6 0.1 0.1"/>'
                  '</geometry></collision></link>')
        joints += (f'<joint name="j{index}" type="revolute"><parent link="{parent}"/>'
                   f'<child link="l{index}"/><origin xyz="0.6 0 0"/><axis xyz="0 0 1"/>'
                   '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')
        parent = f'l{index}'
    text = (f'<robot name="r"><link name="base">{inertial(5, 0.05)}{box("0.3 0.3 0.3")}'
            f'</link>{links}{joints}</robot>')
    return text, centrals


@pytest.mark.parametrize('negate', [False, True])
def test_tensors_written_about_the_link_origin_are_one_finding_with_each_fix(negate):
    # Neuromeka Indy (all six models): each tensor about the link origin, 3.7x to 8.4x off
    # its geometry, said as 4 unrelated inertia-exceeds-extent (a shape larger than the
    # part?) whose fix replaced the CAD data with the geometry's tensor.
    text, centrals = _arm_about_origin(3, negate)
    findings = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                if f.rule.startswith('inertia-')]
    assert [f.rule for f in findings] == ['inertia-about-link-origin'], findings
    (finding,) = findings
    assert finding.links == ('l0', 'l1', 'l2')
    assert finding.message.startswith(
        '3 links declare tensors about the link origin, not about their centre of mass (l0, '
        'l1, l2): as written they are'), finding.message
    assert ('their products negated (l0, l1, l2)' in finding.message) == negate
    for (name, values), central in zip(finding.links_suggested_inertia, centrals):
        expected = (central[0, 0], 0.0, 0.0, central[1, 1], 0.0, central[2, 2])
        assert values == pytest.approx(expected, abs=1e-12), name
    assert finding.suggested_inertia == pytest.approx(finding.links_suggested_inertia[0][1])


def test_one_link_about_its_origin_or_tensors_about_the_centre_of_mass_are_not_said_so():
    # one link, or one design on several (a left/right pair, four legs: TALOS's ankles,
    # which a test with the whole hull did not confirm): one fit could be chance
    for count, masses in ((1, (4.0,)), (4, (4.0,))):
        text, _ = _arm_about_origin(count, masses=masses)
        assert not [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                    if f.rule == 'inertia-about-link-origin'], count
    text, _ = _arm_about_origin(3, about_origin=False)
    assert not [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                if f.rule.startswith('inertia-')]


@pytest.mark.parametrize('negate', [False, True])
def test_one_link_whose_tensor_fits_about_its_centre_of_mass_says_so_in_its_fix(negate):
    # One design is no finding of its own (a chance fit), but the bound's fix replaced the
    # CAD tensor by the geometry's without a word of the alternative.
    text, centrals = _arm_about_origin(1, negate, masses=(4.0,))
    (found,) = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                if f.rule.startswith('inertia-')]
    assert found.rule == 'inertia-exceeds-extent'
    assert found.suggestion.endswith(
        '; or, if the tensor is written about the link origin (as CAD tools report it "at the '
        'output coordinate system"), not about the centre of mass: less m (|c|^2 E - c c^T) '
        'for its centre of mass c' + (', its products negated,' if negate else '')
        + ' it fits the geometry within 1x (as written 4x off): ixx="0.00666666667" ixy="0" '
        'ixz="0" iyy="0.123333333" iyz="0" izz="0.123333333"'), found.suggestion
    # The same tensor on a part ten times lighter: less the term of its mass it fits nothing
    text = text.replace('<mass value="4.0"/>', '<mass value="0.4"/>')
    found = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.rule.startswith('inertia-')]
    assert found and not [f for f in found if 'link origin' in f.suggestion], found


def test_fix_inertia_writes_each_tensor_about_its_centre_of_mass():
    from urdf_link_tools.fix import fix_inertia
    text, _ = _arm_about_origin(3, negate=True)
    fixed, fixes = fix_inertia(text.encode(), analyze(parse_urdf_string(text), NO_MESHES))
    assert sorted(fix.link for fix in fixes) == ['l0', 'l1', 'l2']
    assert {fix.rule for fix in fixes} == {'inertia-about-link-origin'}
    assert not [f for f in analyze(parse_urdf_string(fixed), NO_MESHES).findings
                if f.rule.startswith('inertia-')]


def test_a_whole_inertial_turned_is_one_finding_with_its_centre_of_mass():
    # Niryo Ned3 Pro's arm_link: the <inertial> in the CAD frame turned 90 degrees about z
    # (no rpy): its axes turned and its centre of mass 0.067 m outside were two findings.
    # The part: a 0.1 x 0.4 x 0.1 m box from the origin along y; the inertial as if it ran
    # along x (centre of mass at x = 0.2, the small moment about x).
    text = ('<robot name="r"><link name="base">' + inertial(5, 0.05) + box('0.3 0.3 0.3')
            + '</link><joint name="j" type="revolute"><parent link="base"/><child link="arm"/>'
            '<origin xyz="0 0 0.5"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            '<link name="arm"><inertial><origin xyz="0.2 0 0"/><mass value="1"/><inertia '
            'ixx="0.001667" ixy="0" ixz="0" iyy="0.01417" iyz="0" izz="0.01417"/></inertial>'
            '<collision><origin xyz="0 0.2 0"/><geometry><box size="0.1 0.4 0.1"/></geometry>'
            '</collision></link></robot>')
    found = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.link == 'arm']
    assert [f.rule for f in found] == ['inertia-axes-turned'], found
    assert found[0].message.endswith(
        'the inertial frame looks turned; turned 90 degrees about z too, the centre of mass, '
        'written outside the part, lies within it (xyz="0 0.2 0"): the whole <inertial> is '
        "written in a frame turned from the link's"), found[0].message
    assert 'with the centre of mass at xyz="0 0.2 0"' in found[0].suggestion


def _wrist(com, rpy='0 0 0', moments=(0.111172755531, 0.111172755531, 0.21942), mass=1.219,
           size='0.078 0.085 0.105', at='0 0.09 -0.005'):
    """Return one moving link of one box, its inertial as given (robot-assets' UR5 wrist)."""
    ixx, iyy, izz = moments
    return ('<robot name="r"><link name="base"/><joint name="j" type="revolute">'
            '<parent link="base"/><child link="wrist"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint><link name="wrist">'
            f'<inertial><origin xyz="{com}" rpy="{rpy}"/><mass value="{mass}"/>'
            f'<inertia ixx="{ixx}" ixy="0" ixz="0" iyy="{iyy}" iyz="0" izz="{izz}"/></inertial>'
            f'<collision><origin xyz="{at}"/><geometry><box size="{size}"/></geometry>'
            '</collision></link></robot>')


def test_a_tensor_too_large_about_a_centre_of_mass_outside_the_part_is_an_error():
    # robot-assets' ur5_gripper.urdf, wrist_1_link: 1.219 kg with Izz 0.219 kg m^2 (a radius
    # of gyration of 0.42 m) on a 0.1 m part, its centre of mass at the link origin, 47.5 mm
    # outside the part: only com-outside-geometry and a mismatch warning were said, where
    # the centre of mass inside gave the error. About any axis through the declared point,
    # no body inside has more than all its mass at the farthest corners: about y,
    # 1.219 (0.039^2 + 0.0575^2) = 0.005884 kg m^2 (0.111 declared, 18.9x).
    inside = analyze(parse_urdf_string(_wrist('0 0.09 -0.005')), NO_MESHES).findings
    outside = analyze(parse_urdf_string(_wrist('0 0 0')), NO_MESHES).findings
    assert [f.rule for f in inside if f.severity == Severity.ERROR] == \
        ['inertia-exceeds-extent']
    (found,) = [f for f in outside if f.rule == 'inertia-exceeds-extent']
    assert (found.link, found.severity) == ('wrist', Severity.ERROR)
    values = dict(found.values)
    assert values['axis'] == 'y'
    assert float(values['bound']) == pytest.approx(1.219 * (0.039 ** 2 + 0.0575 ** 2),
                                                   rel=1e-3)
    assert "the moment about the link's y axis is 0.1112 kg m^2" in found.message
    assert ': at most m (D_x + D_z) = 0.005884 kg m^2 about the declared centre of mass, ' \
        'which lies 47.5 mm outside the geometry (-0.039 0.0475 -0.0575 to 0.039 0.133 ' \
        '0.0475 m)' in found.message
    # the error replaces the mismatch warning; the centre of mass is still its own finding
    assert sorted(f.rule for f in outside if f.link == 'wrist') == \
        ['com-outside-geometry', 'inertia-exceeds-extent']


@pytest.mark.parametrize('ratio,said', [(1.99, False), (2.01, True)])
def test_the_bound_about_an_outside_centre_of_mass_is_the_farthest_corner(ratio, said):
    """All the mass at the corner farthest from the axis has the bound; said from 2x over."""
    # a 0.2 x 0.1 x 0.06 m box from (0.1, 0.05, 0) to (0.3, 0.15, 0.06), the centre of
    # mass at the origin (0.1 m outside): the farthest corner is (0.3, 0.15, 0.06)
    corner = np.array([0.3, 0.15, 0.06])
    mass = 2.0
    farthest = mass * np.array([corner[1] ** 2 + corner[2] ** 2,
                                corner[0] ** 2 + corner[2] ** 2,
                                corner[0] ** 2 + corner[1] ** 2])
    # the same ratio to the bound on all three axes
    text = _wrist('0 0 0', moments=tuple(farthest * ratio), mass=mass, size='0.2 0.1 0.06',
                  at='0.2 0.1 0.03')
    found = rules(text)
    assert [f.rule for f in found] == (['inertia-exceeds-extent'] if said else [])
    if said:
        values = dict(found[0].values)
        assert float(values['bound']) == pytest.approx(farthest['xyz'.index(values['axis'])],
                                                       rel=1e-3)
        assert float(values['over']) == pytest.approx(ratio, rel=1e-3)


@pytest.mark.parametrize('rpy,said', [('0 0 0', False), ('0 0 1.5707963267948966', True)])
def test_the_bound_about_an_outside_centre_of_mass_is_on_the_link_axes(rpy, said):
    # A 0.02 x 0.4 x 0.02 m bar along y, the centre of mass 0.09 m above it: about the link's
    # y axis through it at most 1 kg (0.01^2 + 0.11^2) = 0.0122 kg m^2, about x and z 0.0521
    # and 0.0401. The moments (0.03, 0.001, 0.03) fit; turned a quarter about z by the
    # inertial rpy, 0.03 lies about y: 2.46x over.
    text = _wrist('0 0 0.1', rpy, moments=(0.03, 0.001, 0.03), mass=1.0,
                  size='0.02 0.4 0.02', at='0 0 0')
    found = rules(text)
    assert [f.rule for f in found] == (['inertia-exceeds-extent'] if said else [])
    if said:
        values = dict(found[0].values)
        assert values['axis'] == 'y'
        assert float(values['bound']) == pytest.approx(0.01 ** 2 + 0.11 ** 2, rel=1e-3)
        assert float(values['over']) == pytest.approx(0.03 / 0.0122, rel=1e-3)


def test_a_copy_within_the_bound_about_its_outside_centre_of_mass_is_a_carrier():
    # ixx=iyy=izz=1 on 7 links of 1 kg (as r6bot): 4 parts of 1 m over their bound (0.5
    # kg m^2), and 3 parts of 1.2 m, 0.6 m above their centre of mass (at the link origin),
    # within the looser bound about it (about z at most 1 kg (0.6^2 + 0.6^2) = 0.72 kg m^2):
    # they carry the placeholder, and the finding says which bound they were judged by.
    findings = _placeholder_findings([(1.0, 0.0)] * 4 + [(1.2, 1.2)] * 3, 0.3)
    (placeholder,) = [f for f in findings if f.rule == 'inertia-exceeds-extent']
    assert 'on 4 it exceeds what the link can have (l0, l1, l2, l3); l4, l5, l6 carry it too ' \
        '(within the looser bound about the declared centre of mass, which lies outside the ' \
        'geometry, by 600, 600, 600 mm)' in placeholder.message


def test_a_link_without_geometry_off_its_body_is_not_judged_by_the_looser_bound():
    # iCub's root 'base_link': 1e-6 kg with a 1.33e-6 kg m^2 placeholder, no geometry,
    # welded to the 4.72 kg pelvis whose mesh its centre of mass lies 43 mm off; Drake's
    # atlas_minimal_contact draws no hand, and its 0.58 kg 'l_hand' was judged in the 1 cm
    # box of the force-torque sensor welded to it. Errors on a box that is not the part's.
    # A link with geometry of its own there is judged (a 2 cm box 0.2 m off its centre).
    def robot(mass, moment, own=''):
        return ('<robot name="r"><link name="base"><inertial><mass value="'
                f'{mass}"/><inertia ixx="{moment}" ixy="0" ixz="0" iyy="{moment}" iyz="0" '
                f'izz="{moment}"/></inertial>{own}</link>'
                '<joint name="fix" type="fixed"><parent link="base"/><child link="pelvis"/>'
                '</joint><link name="pelvis"><inertial><mass value="4.72"/><inertia ixx="0.05" '
                'ixy="0" ixz="0" iyy="0.005" iyz="0" izz="0.05"/></inertial><collision><origin '
                'xyz="0 -0.1 0"/><geometry><box size="0.064 0.114 0.047"/></geometry>'
                '</collision></link></robot>')

    def exceeding(text):
        return [f.link for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                if f.rule == 'inertia-exceeds-extent']

    assert exceeding(robot('1e-6', '1.33e-6')) == []
    assert exceeding(robot('0.5', '0.05')) == []
    assert exceeding(robot('0.5', '0.05', '<collision><origin xyz="0 -0.2 0"/><geometry><box '
                           'size="0.02 0.02 0.02"/></geometry></collision>')) == ['base']


def test_a_carrier_without_geometry_off_its_body_is_said_not_judged():
    # Two 1 g parts with a 0.001 kg m^2 placeholder over their bound, and a third carrier
    # of it with no geometry of its own, its centre of mass 0.2 m off the gripper it is
    # welded to: listed as not judged, and why (it was "within the looser bound").
    gripper = _body(0.1, 0.00008, 0.08)
    tiny = ('<inertial><origin xyz="{x} 0 0"/><mass value="0.001"/><inertia ixx="0.001" '
            'ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>{geometry}')
    box = '<collision><geometry><box size="0.02 0.02 0.02"/></geometry></collision>'
    text = ('<robot name="r"><link name="base"/><joint name="j" type="revolute">'
            '<parent link="base"/><child link="gripper"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            f'<link name="gripper">{gripper}</link>'
            + ''.join(f'<link name="{name}">{tiny.format(x=x, geometry=geometry)}</link>'
                      f'<joint name="w{name}" type="fixed"><parent link="gripper"/>'
                      f'<child link="{name}"/></joint>'
                      for name, x, geometry in (('a', 0, box), ('b', 0, box), ('c', 0.2, '')))
            + '</robot>')
    findings = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False)).findings
    (finding,) = [f for f in findings if f.rule.startswith('inertia-exceeds')]
    assert 'on 2 it exceeds what the link can have (a, b); c carries it too' in finding.message
    assert 'c carries it too (not judged by its bound: no geometry of its own, its centre of ' \
        "mass outside its body's, by " in finding.message, finding.message


def test_a_link_that_is_most_of_its_welded_body_is_not_said_to_multiply_it():
    # Neobotix MP-500: base_link (all the mass) under a massless base_footprint. Its tensor
    # is the body's; "multiplies the largest moment of that body by 9.64" only confused.
    text = ('<robot name="r"><link name="base_footprint"/><joint name="f" type="fixed">'
            '<parent link="base_footprint"/><child link="base_link"/></joint>'
            '<link name="base_link"><inertial><origin xyz="-0.1 0 0.15"/><mass value="5"/>'
            '<inertia ixx="1.7" ixy="0" '
            'ixz="0" iyy="1.7" iyz="0" izz="1.7"/></inertial><collision><geometry><box '
            'size="0.8 0.5 0.3"/></geometry></collision></link>'
            '<joint name="l" type="fixed"><parent link="base_link"/><child link="laser"/>'
            '<origin xyz="0.3 0 0.2"/></joint><link name="laser"><inertial><mass value="0.2"/>'
            '<inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4" iyz="0" izz="1e-4"/></inertial>'
            '<collision><geometry><box size="0.05 0.05 0.05"/></geometry></collision></link>'
            '<joint name="w" type="continuous"><parent link="base_link"/><child link="wheel"/>'
            '<axis xyz="0 1 0"/></joint><link name="wheel"><inertial><mass value="1"/>'
            '<inertia ixx="0.002" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.002"/>'
            '</inertial><collision><geometry><cylinder radius="0.08" length="0.04"/>'
            '</geometry></collision></link></robot>')
    (found,) = [f for f in rules(text) if f.link == 'base_link']
    assert found.severity == Severity.ERROR and 'welded to' not in found.message


def _flange(size, children='', moment='0.001'):
    """Return an arm whose end link, a box of ``size`` m, has ABB's inflated flange tensor."""
    return ('<robot name="abb"><link name="base"><collision><geometry><box size="0.2 0.2 0.2"/>'
            '</geometry></collision></link><link name="link_6"><inertial><mass value="0.137"/>'
            f'<inertia ixx="{moment}" ixy="0" ixz="0" iyy="{moment}" iyz="0" izz="{moment}"/>'
            f'</inertial><collision><geometry><box size="{size} {size} {size}"/></geometry>'
            '</collision>'
            '</link><joint name="joint_6" type="revolute"><parent link="base"/>'
            '<child link="link_6"/><origin xyz="0 0 0.3"/><axis xyz="1 0 0"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>' + children
            + '</robot>')


def test_a_small_end_links_inflated_tensor_names_damping_and_armature():
    # ABB IRB120/1200 (sweep J): a 5 mm flange given 0.137 kg and 0.001 kg m^2 on purpose (the
    # real values upset Gazebo): the fix shrank it back and said nothing of the alternative.
    note = 'give its joint damping or armature instead'

    def findings(text, rule):
        return [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                if f.rule == rule]
    (finding,) = findings(_flange(0.02), 'inertia-exceeds-extent')
    assert note in finding.suggestion, finding.suggestion
    (finding,) = findings(_flange(0.06, moment='0.01'), 'inertia-exceeds-extent')  # 6 cm
    assert note not in finding.suggestion
    tool = ('<link name="tool0"/><joint name="t" type="fixed"><parent link="link_6"/>'
            '<child link="tool0"/></joint>')
    (finding,) = findings(_flange(0.02, tool), 'inertia-exceeds-extent')  # no end link
    assert note not in finding.suggestion


def test_a_pasted_product_is_quoted_with_every_digit_the_file_has():
    # moveo (sweep K): ixz="0.000000503765" was quoted as ixz="5.038e-07", which a search of
    # the file does not find; every written digit is quoted now.
    text = ('<robot name="r"><link name="l"><inertial><mass value="0.5"/>'
            '<inertia ixx="0.000000403121" ixy="0" ixz="0.000000503765" iyy="0.000000503765" '
            'iyz="0" izz="0.000000600007"/></inertial>'
            '<collision><geometry><box size="0.003 0.0025 0.002"/></geometry></collision>'
            '</link></robot>')
    found = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.rule == 'inertia-not-positive-definite']
    assert len(found) == 1
    assert 'ixz="5.03765e-07" repeats iyy' in found[0].suggestion, found[0]


def _stick(mass, izz):
    return (f'<inertial><mass value="{mass}"/><inertia ixx="{izz * 2.1}" ixy="0" ixz="0" '
            f'iyy="{izz * 2.2}" iyz="0" izz="{izz}"/></inertial><visual><geometry>'
            '<cylinder radius="0.015" length="0.2"/></geometry></visual><collision><geometry>'
            '<cylinder radius="0.015" length="0.2"/></geometry></collision>')


@pytest.mark.parametrize('mesh', [False, True])
def test_tensors_over_a_schematic_figure_of_primitives_are_one_warning(mesh):
    # NAO V32 (sweep K): every part a primitive (a 15 mm cylinder for the 1 kg torso), the
    # manufacturer's tensors 1.5x to 3.5x over them: four errors whose fixes were the thin
    # cylinders' tensors. With no mesh in the robot, one warning with both readings and no
    # tensor for --fix-inertia; a robot that has meshes keeps its findings per link.
    base = _body(2.0, 0.01, 0.3) + (
        '<visual><geometry><mesh filename="base.stl"/></geometry></visual>' if mesh else '')
    parts = [base, _stick(1.0, 0.0015), _stick(0.8, 0.0011), _stick(0.5, 0.0007)]
    found = rules(_chain(parts))
    if mesh:
        assert sorted(f.link for f in found) == ['l1', 'l2', 'l3'], found
        return
    assert len(found) == 1, found
    (figure,) = found
    assert figure.severity == Severity.WARNING
    assert figure.links == ('l1', 'l2', 'l3')
    assert figure.message.startswith(
        '3 links declare tensors over what a body inside their shapes can have, by '), figure
    assert 'every shape of the robot is a primitive (no mesh): a schematic figure' in \
        figure.message
    assert 'give the links collision shapes the size of the parts' in figure.suggestion
    assert figure.suggested_inertia is None and not figure.links_suggested_inertia


def test_a_centre_of_mass_inside_a_welded_box_is_inside_though_a_mesh_is_missing(tmp_path):
    # spot_mini_mini (sweep L): front and back brackets welded to the base at its origin, a
    # point inside the body's collision box; the body's visual mesh was not found, and the
    # exemption for a centre inside the welded geometry was lost: "4 links put their centre
    # of mass at xyz=0 0 0, outside their geometry".
    bracket = ('<inertial><mass value="0.1"/><inertia ixx="7.7e-05" ixy="0" ixz="0" '
               'iyy="0.000168" iyz="0" izz="0.000125"/></inertial><collision><origin '
               'xyz="{x} 0 0.006"/><geometry><box size="0.045 0.114 0.085"/></geometry>'
               '</collision>')
    text = ('<robot name="welded"><link name="base_link"/><link name="body"><inertial>'
            '<mass value="1.5"/><inertia ixx="0.006" ixy="0" ixz="0" iyy="0.0029" iyz="0" '
            'izz="0.0066"/></inertial><visual><geometry><mesh filename="MAINBODY.stl"/>'
            '</geometry></visual><collision><geometry><box size="0.2 0.114 0.1"/>'
            '</geometry></collision></link>'
            '<joint name="base_body" type="fixed"><parent link="base_link"/>'
            '<child link="body"/></joint>'
            + ''.join(f'<link name="{name}">{bracket.format(x=x)}</link><joint '
                      f'name="base_{name}" type="fixed"><parent link="base_link"/><child '
                      f'link="{name}"/></joint>'
                      for name, x in (('front', 0.16), ('back', -0.16)))
            + '</robot>')
    findings = analyze(parse_urdf_string(text, str(tmp_path / 'spot.urdf'))).findings
    assert [f.rule for f in findings if f.rule != 'mesh-not-found'] == [], findings


def test_tensors_over_their_bounds_by_one_order_on_most_links_are_one_error():
    # orcahand v2 (sweep L): 17 errors per hand, every tensor thousands of times its bound,
    # one export's fault; JAKA's Zu arms the same at 6 to 11x. One error naming the links,
    # each link's fix kept for --fix-inertia.
    parts = [_body(2.0, 0.01, 0.3)] + [_body(mass, moment, 0.05) for mass, moment in (
        (0.5, 0.9), (0.4, 0.5), (0.3, 0.6), (0.2, 0.25))]
    found = rules(_chain(parts))
    assert len(found) == 1, found
    (error,) = found
    assert error.severity == Severity.ERROR and error.links == ('l1', 'l2', 'l3', 'l4')
    assert 'the same order of excess on most of the robot' in error.message, error.message
    assert [name for name, _ in error.links_suggested_inertia] == ['l1', 'l2', 'l3', 'l4']
    # Excess factors apart by more than 10x are faults of their own.
    parts[4] = _body(0.2, 0.0015, 0.05)
    assert len(rules(_chain(parts))) == 4


def test_the_welded_body_of_a_finding_is_summed_once_per_body(monkeypatch):
    # Red-team review 4: one placeholder tensor on 4,096 links welded to one root took 145 s
    # (8,000 links: 559 s): each link's finding walked the whole welded body. Counted, not
    # timed: the tensors turned into the body's frame grow with the links, not their square.
    from urdf_link_tools.checks import bounds
    calls = []
    original = bounds.rpy_to_matrix
    monkeypatch.setattr(bounds, 'rpy_to_matrix', lambda rpy: calls.append(1) or original(rpy))
    count = 200
    links = ''.join(
        f'<link name="l{i}"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" '
        'ixy="0" ixz="0" iyz="0"/></inertial><collision><geometry><box size="0.1 0.1 0.1"/>'
        f'</geometry></collision></link><joint name="j{i}" type="fixed"><parent link="l0"/>'
        f'<child link="l{i}"/></joint>' for i in range(1, count))
    found = rules(f'<robot name="r"><link name="l0"/>{links}</robot>')
    assert found and len(calls) < 5 * count, len(calls)


def test_a_light_part_drawn_with_primitives_gets_its_own_shapes_tensor():
    # raspimouse's light sensors: 1e-6 kg (a placeholder) in a 10 x 5 x 7 mm visual box,
    # welded to the base, tensor 1e-4: the fix was the largest box fitting the base (3.5e-10
    # and 7.7e-10 on sensors placed otherwise); it is the sensor box's, 6.2e-12
    text = ('<robot name="mouse"><link name="base"><inertial><mass value="1"/><inertia '
            'ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.003"/></inertial>'
            '<collision><geometry><box size="0.13 0.1 0.08"/></geometry></collision></link>'
            '<link name="sensor"><visual><geometry><box size="0.01 0.005 0.007"/></geometry>'
            '</visual><inertial><mass value="0.000001"/><inertia ixx="0.0001" ixy="0" '
            'ixz="0" iyy="0.0001" iyz="0" izz="0.0001"/></inertial></link>'
            '<joint name="j" type="fixed"><parent link="base"/><child link="sensor"/>'
            '<origin xyz="0.05 0.03 0.02"/></joint></robot>')
    (finding,) = [f for f in analyze(parse_urdf_string(text), CheckConfig()).findings
                  if f.link == 'sensor' and f.suggested_inertia is not None]
    ixx, _, _, _, _, izz = finding.suggested_inertia
    assert ixx == pytest.approx(1e-6 / 12 * (0.005 ** 2 + 0.007 ** 2))
    assert izz == pytest.approx(1e-6 / 12 * (0.01 ** 2 + 0.005 ** 2))


def test_the_placeholder_mass_names_a_link_whose_tensor_is_refused_and_says_no_density():
    # Barrett WAM: 1e-4 kg on 7 links; wrist_yaw's tensor is not positive definite (a product
    # pasted from a moment), so it was left out of the placeholder's finding and said again
    # as "0.0001 kg ... 0.54 kg/m^3"
    broken = ('<inertial><mass value="1e-05"/><inertia ixx="1e-4" ixy="0" ixz="2e-4" '
              'iyy="1e-4" iyz="0" izz="1e-4"/></inertial>' + box('0.1 0.1 0.1'))
    text = _arm([(1e-5, 2e-4), (1e-5, 1e-4), (1e-5, 5e-5), (1, 0.002)])
    text = text.replace('</robot>', '') + broken_link(broken) + '</robot>'
    every = analyze(parse_urdf_string(text), NO_MESHES).findings
    (grouped,) = [f for f in every if 'links declare the same mass' in f.message]
    assert grouped.message.endswith('; extra declares it too')
    assert not [f for f in every if f.rule == 'density-implausible']
    assert [f.rule for f in every if f.link == 'extra'] == ['inertia-not-positive-definite']


def broken_link(inside):
    """Return a link 'extra' hung from the chain's root by a revolute joint."""
    return (f'<link name="extra">{inside}</link><joint name="je" type="revolute"><parent '
            'link="l0"/><child link="extra"/><origin xyz="2 0 0"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')


@pytest.mark.parametrize('fingers', [3, 2])
def test_a_placeholder_inertial_copied_onto_fingers_is_one_finding(fingers):
    # Sweep Q: Romeo's finger links declare 2e-06 kg and ixx=iyy=izz=1.1e-09, over what
    # their geometry allows and far too light for it: inertia-exceeds-extent (the copied
    # tensor) and density-implausible (the copied mass) said one placeholder twice.
    links = ['<link name="palm">' + inertial(0.5, 0.0005) + box('0.1 0.1 0.1') + '</link>']
    for i in range(4):
        mass = '2e-06' if i < fingers else '0.02'
        links.append(
            f'<link name="finger{i}">' + inertial(mass, '1.1e-09') + box('0.02 0.02 0.02')
            + f'</link><joint name="j{i}" type="revolute"><parent link="palm"/>'
            f'<child link="finger{i}"/><origin xyz="{0.03 * i} 0 0.06"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')
    text = '<robot name="hand">' + ''.join(links) + '</robot>'
    found = analyze(parse_urdf_string(text), NO_MESHES).findings
    (tensor,) = [f for f in found if f.rule == 'inertia-exceeds-extent']
    light = [f for f in found if f.rule == 'density-implausible']
    if fingers >= 3:
        assert '3 of them also declare one mass, 2e-06 kg, too light' in tensor.message, \
            tensor.message
        assert not light, [f.message for f in light]
    else:  # two too light: each its own density finding, as before
        assert 'too light for their geometry' not in tensor.message
        assert sorted(f.link for f in light) == ['finger0', 'finger1']


@pytest.mark.parametrize('sensors', [3, 2])
def test_small_parts_a_body_hardly_feels_are_one_info(sensors):
    # Sweep Q: REEM-C's sensor and tool frames carry generic tensors over what their geometry
    # allows, each welded to a body it changes by under 10 %: four infos a robot for one
    # habit. From 3, one info naming every link, the tensors to write kept.
    links = ['<link name="base">' + inertial(10, 0.4) + box('0.5 0.5 0.5') + '</link>']
    for i in range(sensors):
        links.append(
            f'<link name="sensor{i}">' + inertial(0.001, f'{1e-4 * (i + 1)}')
            + box('0.02 0.02 0.02') + f'</link><joint name="s{i}" type="fixed">'
            f'<parent link="base"/><child link="sensor{i}"/>'
            f'<origin xyz="{0.1 * i} 0 0.26"/></joint>')
    text = '<robot name="r">' + ''.join(links) + '</robot>'
    found = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.rule == 'inertia-exceeds-extent']
    assert all(f.severity == Severity.INFO for f in found), [f.message for f in found]
    if sensors >= 3:
        (finding,) = found
        assert finding.links == ('sensor0', 'sensor1', 'sensor2'), finding.links
        assert finding.message.startswith('3 links declare tensors beyond what their '
                                          'geometry allows, each welded to a body')
        assert {name for name, _ in finding.links_suggested_inertia} <= set(finding.links)
    else:
        assert sorted(f.link for f in found) == ['sensor0', 'sensor1']


def test_one_body_copied_onto_links_in_their_own_frames_is_one_finding():
    # LinkerHand's L25 (sweep U): 18 finger links carry the palm's inertial, each expressed
    # in its own frame: the same mass, the centre of mass at the palm's point at rest, the
    # palm's tensor turned. Not one tensor (the placeholder rule's), so it was 17 centres
    # of mass outside and 8 tensors over their bounds, some told to flip a sign.
    from urdf_link_tools.kinematics import forward_kinematics

    names = ['palm', 'f1', 'f2', 'f3', 'f4']
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="{names[i - 1]}"/>'
        f'<child link="{names[i]}"/><origin xyz="0 0 0.12" rpy="0.3 0 0"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for i in range(1, len(names)))
    shape = ('<collision><origin xyz="0 0 0.05"/><geometry><box size="0.02 0.02 0.1"/>'
             '</geometry></collision>')
    skeleton = parse_urdf_string('<robot name="hand">' + ''.join(
        f'<link name="{n}">{shape}</link>' for n in names) + joints + '</robot>')
    poses = forward_kinematics(skeleton, {})
    palm_com, tensor = np.array([0.0, 0.0, 0.05]), np.diag([0.0018, 0.0015, 0.0004])
    links = []
    for name in names:  # the palm's centre of mass and tensor, written in each link's frame
        turn, at = poses[name][:3, :3], poses[name][:3, 3]
        local, t = turn.T @ (palm_com - at), turn.T @ tensor @ turn
        values = ' '.join(f'{k}="{v:.12g}"' for k, v in zip(
            ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'),
            (t[0, 0], t[0, 1], t[0, 2], t[1, 1], t[1, 2], t[2, 2])))
        links.append(f'<link name="{name}"><inertial><origin xyz="{local[0]:.12g} '
                     f'{local[1]:.12g} {local[2]:.12g}"/><mass value="0.2692"/>'
                     f'<inertia {values}/></inertial>{shape}</link>')
    robot = parse_urdf_string('<robot name="hand">' + ''.join(links) + joints + '</robot>')
    findings = analyze(robot, NO_MESHES).findings
    (copied,) = [f for f in findings if f.rule == 'inertial-placeholder']
    assert copied.links == tuple(names), copied.links
    assert copied.message.startswith(
        "5 links carry one body's mass properties: each 0.2692 kg, its centre of mass at one "
        "point of the robot at rest (0 0 0.05 in 'palm''s frame)"), copied.message
    assert 'the robot weighs 1.346 kg in all, 1.346 kg of it these copies' in copied.message
    # their symptoms are not said link by link
    assert not [f for f in findings if f.rule in ('com-outside-geometry',
                                                  'inertia-exceeds-extent',
                                                  'inertia-geometry-mismatch')
                and f.link in names], [(f.rule, f.link) for f in findings]


def test_copies_are_looked_for_among_links_of_a_share_of_a_positive_mass():
    # Review 13: a root of -1e9 kg made every link "1 % of the robot's mass" or more, and the
    # 10,000 links of one mass were compared with each other (118 s). Positive masses only:
    # at most 100 links can each carry 1 % of them, and 300 light copies are not a body's.
    from urdf_link_tools.checks.base import CheckContext
    from urdf_link_tools.checks.plausibility import copied_bodies
    children = ''.join(
        f'<link name="c{i}">{inertial(1.0, 0.001, xyz="0.5 0 0")}{box("0.01 0.01 0.01")}'
        f'</link><joint name="j{i}" type="fixed"><parent link="base"/><child link="c{i}"/>'
        '</joint>' for i in range(300))
    text = (f'<robot name="r"><link name="base">{inertial(-1e9, 0.001)}</link>'
            f'{children}</robot>')
    ctx = CheckContext(parse_urdf_string(text), NO_MESHES)
    assert copied_bodies(ctx, set()) == []


def test_one_copied_tensor_over_both_bounds_is_one_finding():
    # MuSHR (sweep V): ixx=iyy=izz=1 on 11 links, an inertia-exceeds-extent error on those
    # with geometry and an inertia-exceeds-robot warning on those without: one choice.
    with_shape = [_body(0.1, 1.0, 0.1) for _ in range(3)]
    without = [inertial(0.1, 1.0) for _ in range(2)]
    found = [f for f in analyze(parse_urdf_string(_chain(with_shape + without)),
                                NO_MESHES).findings if f.rule.startswith('inertia-exceeds')]
    assert len(found) == 1, [(f.rule, f.message[:80]) for f in found]
    assert found[0].rule == 'inertia-exceeds-extent' and found[0].severity == Severity.ERROR
    assert found[0].message.startswith('5 links declare the same tensor'), found[0].message
    assert set(found[0].links) == {'l0', 'l1', 'l2', 'l3', 'l4'}


def test_a_base_an_arm_turns_on_is_fixed_without_gazebo():
    # The finger_edu (precision review X): a placeholder inertial on the link welded to its
    # root, which one moving joint turns on: MuJoCo and Pinocchio fix that root (Gazebo
    # does not, without a world link): two warnings for engines where it changes nothing.
    text = on_a_mount('<link name="stand">' + inertial(1, 0.01) + '</link>')
    (default,) = [f for f in rules(text) if f.link == 'base']
    assert default.severity == Severity.ERROR  # Gazebo moves a model without a world link
    config = CheckConfig(check_meshes=False, targets=frozenset({'mujoco', 'pinocchio'}))
    (fixed,) = [f for f in analyze(parse_urdf_string(text), config).findings
                if f.link == 'base' and f.rule == default.rule]
    assert fixed.severity == Severity.INFO
    assert "it is welded to 'stand', a fixed base for the engines selected (MuJoCo and " \
        'Pinocchio fix a base that stands on no legs or wheels)' in fixed.message, fixed.message
    # A base on wheels (a continuous joint about a horizontal axis) floats: not fixed.
    wheeled = text.replace('</robot>', '<joint name="k" type="continuous"><parent link="base"/>'
                           '<child link="wheel"/><axis xyz="0 1 0"/></joint><link name="wheel">'
                           + GRIPPER + '</link></robot>')
    assert [f.severity for f in analyze(parse_urdf_string(wheeled), config).findings
            if f.link == 'base' and f.rule == default.rule] == [Severity.ERROR]
