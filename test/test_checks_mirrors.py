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
A left link and its right mirror with the same fault are one finding (checks.mirrors).

Real parsing and analysis of URDFs written here and of example-robot-data's TALOS; the
mirror's diagnostics, services, JUnit case and --fix-inertia still see the fault.
"""

import corpus
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.checks.mirrors import fore_aft_names, mirror_name, mirror_names
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.fix import fix_inertia
from urdf_link_tools.meshes import MeshLibrary
from urdf_link_tools.parser import parse_urdf_string
from urdf_link_tools.reports.scene import collision_pairs

NO_MESHES = CheckConfig(check_meshes=False)
BOX = '<geometry><box size="0.1 0.1 0.1"/></geometry>'
BASE = ('<link name="base_link"><inertial><mass value="5"/><inertia ixx="0.05" ixy="0" '
        'ixz="0" iyy="0.05" iyz="0" izz="0.05"/></inertial>'
        '<visual><geometry><box size="0.3 0.3 0.3"/></geometry></visual>'
        '<collision><geometry><box size="0.3 0.3 0.3"/></geometry></collision></link>')


def limb(name, y, inertial, geometry=BOX):
    """Return a link on a revolute joint from base_link at y, with an inertial and geometry."""
    return (f'<link name="{name}">{inertial}<visual>{geometry}</visual>'
            f'<collision>{geometry}</collision></link>'
            f'<joint name="{name}_joint" type="revolute"><parent link="base_link"/>'
            f'<child link="{name}"/><origin xyz="0 {y} 0"/><axis xyz="0 1 0"/>'
            '<limit lower="-1" upper="1" effort="10" velocity="1"/></joint>')


def com_at(y, mass='1', inertia='0.001'):
    return (f'<inertial><origin xyz="0 {y} 0"/><mass value="{mass}"/><inertia ixx="{inertia}" '
            f'ixy="0" ixz="0" iyy="{inertia}" iyz="0" izz="{inertia}"/></inertial>')


def robot(*limbs):
    return f'<robot name="r">{BASE}{"".join(limbs)}</robot>'


def arms_in_covers(right_cover_y=-0.32):
    """Return a robot whose arms each overlap their cover at rest (the right one's at y)."""
    return robot(limb('left_arm_link', 0.3, com_at(0)), limb('left_cover', 0.32, com_at(0)),
                 limb('right_arm_link', -0.3, com_at(0)),
                 limb('right_cover', right_cover_y, com_at(0)))


def housings():
    """Return a robot whose housing on each side overlaps three finger links at rest."""
    housing = '<geometry><box size="0.5 0.5 0.5"/></geometry>'
    parts = []
    for side, sign in (('left', 1), ('right', -1)):
        parts.append(limb(f'{side}_housing', sign, com_at(0), housing))
        parts += [limb(f'{side}_finger_{i}', sign * (1 + 0.12 * (i - 1)), com_at(0))
                  for i in range(3)]
    return robot(*parts)


def legs_in_shoulders():
    """Return a quadruped whose four thighs each overlap their shoulder at rest."""
    return robot(*(limb(name, y, com_at(0)) for leg, y in (
        ('FL', 0.3), ('FR', -0.3), ('RL', 0.9), ('RR', -0.9))
        for name, y in ((f'{leg}_thigh', y), (f'{leg}_thigh_shoulder', y * 1.07))))


def needs_coal():
    pytest.importorskip('coal', reason='the overlaps at rest need coal (not in the Python '
                                       '3.10 pass, whose NumPy is older than its wheels)')


def of_rule(analysis, rule):
    return [finding for finding in analysis.findings if finding.rule == rule]


@pytest.mark.parametrize('name, mirror', [
    ('leg_left_5_link', 'leg_right_5_link'), ('LWristRollLink', 'RWristRollLink'),
    ('l_forearm', 'r_forearm'), ('r_hip_1', 'l_hip_1'), ('FL_thigh', 'FR_thigh'),
    ('RR_calf', 'RL_calf'), ('LH_SHANK', 'RH_SHANK'), ('lf_foot', 'rf_foot'),
    ('wheel_R', 'wheel_L'), ('arm_right_5_link', 'arm_left_5_link'),
    ('r_gripper_l_finger', 'l_gripper_r_finger'), ('L_ankle', 'R_ankle'),
    ('base_link', None), ('Link', None), ('torso', None), ('Lfoot', None),
    ('RHipYaw', 'LHipYaw'), ('roll_link', None), ('cr_link', None), ('lb_leg', 'rb_leg'),
    ('RB3', 'LB3')])
def test_mirror_names(name, mirror):
    assert mirror_name(name) == mirror


def test_a_name_of_many_side_marks_is_tried_once():
    # A hostile name of 5,000 marks: the full swap only, not 5,000 names of 10,000 bytes.
    assert mirror_names('l_' * 5000 + 'x') == ['r_' * 5000 + 'x']
    assert len(mirror_names('l_r_l_x')) == 4  # a few marks: each tried alone too


def test_a_lone_letter_that_is_no_side_is_kept():
    # psyonic's fingers: Left_index_L2's mirror is Right_index_L2 (L2: the second phalanx).
    assert mirror_names('Left_index_L2')[:2] == ['Right_index_R2', 'Right_index_L2']
    text = robot(limb('Left_index_L2', 0.3, com_at(0.2)),
                 limb('Right_index_L2', -0.3, com_at(-0.2)))
    (finding,) = of_rule(analyze(parse_urdf_string(text), NO_MESHES), 'com-outside-geometry')
    assert finding.links == ('Left_index_L2', 'Right_index_L2')


def test_mirrored_centres_of_mass_are_one_finding():
    analysis = analyze(parse_urdf_string(robot(
        limb('left_arm_link', 0.3, com_at(0.2)), limb('right_arm_link', -0.3, com_at(-0.2)))),
        NO_MESHES)
    found = of_rule(analysis, 'com-outside-geometry')
    assert len(found) == 1
    finding = found[0]
    assert finding.link == 'left_arm_link'
    assert finding.links == ('left_arm_link', 'right_arm_link')
    assert dict(finding.values)['mirror_link'] == 'right_arm_link'
    assert finding.message.endswith("; its mirror link 'right_arm_link' has the same")
    assert "likewise (mirrored) on 'right_arm_link'" in finding.suggestion
    # The mirror's own view (services, diagnostics, JUnit, the report's colours) keeps it.
    assert finding in analysis.link_findings('right_arm_link')
    assert analysis.findings_about('right_arm_link').count(finding) == 1
    assert {'left_arm_link', 'right_arm_link'} <= analysis.concerned_links()


def test_a_parse_note_on_both_mirrors_is_one_finding():
    # diffbot: one line of its wheel macro writes two shapes in a <geometry>, on each side;
    # the parser's note was said once per wheel while that pair's other faults were merged.
    description = robot(limb('left_wheel', 0.3, com_at(0)), limb('right_wheel', -0.3, com_at(0)))
    two_shapes = '<geometry><box size="0.1 0.1 0.1"/><sphere radius="0.05"/></geometry>'
    description = description.replace(f'<visual>{BOX}', f'<visual>{two_shapes}')
    analysis = analyze(parse_urdf_string(description), NO_MESHES)
    found = of_rule(analysis, 'parse-extra-shape')
    assert [(f.link, f.links) for f in found] == [('left_wheel', ('left_wheel', 'right_wheel'))]
    assert "its mirror link 'right_wheel' has the same" in found[0].message
    assert found[0] in analysis.link_findings('right_wheel')


def test_one_side_only_stays_one_finding_of_its_own():
    analysis = analyze(parse_urdf_string(robot(
        limb('left_arm_link', 0.3, com_at(0.2)), limb('right_arm_link', -0.3, com_at(0)))),
        NO_MESHES)
    found = of_rule(analysis, 'com-outside-geometry')
    assert [(f.link, f.links) for f in found] == [('left_arm_link', ())]
    assert 'mirror' not in found[0].message


def test_different_numbers_say_the_mirrors_own():
    analysis = analyze(parse_urdf_string(robot(
        limb('left_arm_link', 0.3, com_at(0.2)), limb('right_arm_link', -0.3, com_at(-0.4)))),
        NO_MESHES)
    found = of_rule(analysis, 'com-outside-geometry')
    assert len(found) == 1
    message = found[0].message
    assert "its mirror link 'right_arm_link' has the same fault: " in message
    assert 'xyz="0 0.2 0"' in message and 'xyz="0 -0.4 0"' in message


def test_not_merged_across_rules_severities_or_with_a_non_mirror():
    analysis = analyze(parse_urdf_string(robot(
        limb('left_arm_link', 0.3, com_at(0.2)), limb('upper_arm_link', -0.3, com_at(-0.2)),
        limb('l_hand', 0.6, com_at(0, inertia='0.5')),
        limb('r_hand', -0.6, com_at(0.2)))), NO_MESHES)
    assert not [f for f in analysis.findings if dict(f.values).get('mirror_link')]
    assert len(of_rule(analysis, 'com-outside-geometry')) == 3


def test_fix_inertia_writes_both_sides():
    sphere = '<geometry><sphere radius="{}"/></geometry>'
    text = robot(limb('l_hand', 0.3, com_at(0, '0.2', '0.5'), sphere.format(0.04)),
                 limb('r_hand', -0.3, com_at(0, '0.2', '0.5'), sphere.format(0.05)))
    analysis = analyze(parse_urdf_string(text), NO_MESHES)
    found = of_rule(analysis, 'inertia-exceeds-extent')
    assert len(found) == 1 and found[0].links == ('l_hand', 'r_hand')
    # Each side's own numbers (the spheres differ), and each side's own tensor written.
    assert 'has the same fault' in found[0].message
    fixed, fixes = fix_inertia(text.encode(), analysis)
    assert sorted(fix.link for fix in fixes) == ['l_hand', 'r_hand']
    again = analyze(parse_urdf_string(fixed), NO_MESHES)
    assert not of_rule(again, 'inertia-exceeds-extent')


def test_mirror_overlap_pairs_are_one_finding_with_both_fixes():
    needs_coal()
    # The left arm in its cover and the right arm in its: one finding, with the mirror pair
    # named, each pair's SRDF entry, and both pairs drawn in the HTML report.
    analysis = analyze(parse_urdf_string(arms_in_covers()))
    overlaps = of_rule(analysis, 'collision-overlap-at-rest')
    assert len(overlaps) == 1
    finding = overlaps[0]
    values = dict(finding.values)
    assert (finding.link, values['other_link']) == ('left_arm_link', 'left_cover')
    assert (values['mirror_link'], values['mirror_other_link']) == \
        ('right_arm_link', 'right_cover')
    assert values['mirror_depth_mm'] == values['depth_mm']
    assert finding.links == ()  # not an envelope: reports draw two pairs, not a fan
    assert "the mirror pair 'right_arm_link' and 'right_cover' overlaps too, about" in \
        finding.message
    for pair in (('left_arm_link', 'left_cover'), ('right_arm_link', 'right_cover')):
        assert '<disable_collisions link1="{}" link2="{}"'.format(*pair) in finding.suggestion
    for name in ('left_cover', 'right_arm_link', 'right_cover'):
        assert finding in analysis.findings_about(name)
    assert finding in analysis.link_findings('right_arm_link')
    assert sorted(pair['links'] for pair in collision_pairs(analysis)) == \
        [['left_arm_link', 'left_cover'], ['right_arm_link', 'right_cover']]


def test_an_envelope_and_its_mirror_are_one_finding_drawn_whole():
    needs_coal()
    # A housing over three finger links on each side: one finding, both fans drawn, each
    # side's SRDF entries, the right fingers' own views keep it.
    analysis = analyze(parse_urdf_string(housings()))
    (finding,) = of_rule(analysis, 'collision-overlap-at-rest')
    values = dict(finding.values)
    assert finding.links[0] == 'left_housing' and len(finding.links) == 4
    assert values['mirror_link'] == 'right_housing'
    assert sorted(values['mirror_links'].split(', ')) == [f'right_finger_{i}' for i in range(3)]
    assert "its mirror link 'right_housing' intersects their mirrors too" in finding.message
    assert '<disable_collisions link1="right_housing" link2=...' in finding.suggestion
    for name in ('right_housing', 'right_finger_0', 'left_finger_2'):
        assert finding in analysis.findings_about(name)
    drawn = sorted(tuple(pair['links']) for pair in collision_pairs(analysis))
    assert drawn == sorted([(f'{side}_housing', f'{side}_finger_{i}')
                            for side in ('left', 'right') for i in range(3)])


def test_an_overlap_without_its_mirror_stays_a_pair():
    needs_coal()
    analysis = analyze(parse_urdf_string(arms_in_covers(right_cover_y=-0.5)))
    overlaps = of_rule(analysis, 'collision-overlap-at-rest')
    assert [(f.link, dict(f.values).get('mirror_link')) for f in overlaps] == \
        [('left_arm_link', None)]


def test_talos_legs_are_one_finding():
    path = corpus.urdf_path('talos_reduced.urdf')
    analysis = analyze(parse_urdf_string(path.read_bytes(), str(path)), CheckConfig(),
                       meshes=MeshLibrary(ament_prefix_path=corpus.ament_prefixes()))
    found = [f for f in of_rule(analysis, 'com-outside-geometry')
             if 'leg_left_5_link' in (f.link, *f.links)]
    assert len(found) == 1
    assert set(found[0].links) == {'leg_left_5_link', 'leg_right_5_link'}
    assert not [f for f in of_rule(analysis, 'com-outside-geometry')
                if f.link == 'leg_right_5_link' and not f.links]


@pytest.mark.parametrize('name, counterparts', [
    ('FL_thigh', ['RL_thigh', 'HL_thigh', 'BL_thigh']), ('RR_calf', ['FR_calf']),
    ('LF_SHANK', ['LH_SHANK', 'LB_SHANK']), ('rh_foot', ['rf_foot']), ('hl_knee', ['fl_knee']),
    ('front_left_wheel', ['rear_left_wheel', 'hind_left_wheel', 'back_left_wheel']),
    ('Rear_wheel_L', ['Front_wheel_L']), ('base_link', []), ('left_arm', []),
    ('FL_to_RL', []), ('RL', ['FL']), ('lf3', ['lh3', 'lb3']), ('rb_leg', ['rf_leg']),
    ('LB_foot', ['LF_foot']), ('base_f_bumper_link', ['base_b_bumper_link']),
    ('base_B_bumper', ['base_F_bumper']), ('wheel_r', []), ('f_b', [])])
def test_fore_aft_names(name, counterparts):
    assert fore_aft_names(name) == counterparts


def four_legs(rear_y=0.2):
    """Return a quadruped whose calves' centres of mass are outside them (the rear at y)."""
    return robot(*(limb(f'{leg}_calf', y, com_at(offset)) for leg, y, offset in (
        ('FL', 0.3, 0.2), ('FR', -0.3, -0.2), ('RL', 0.9, rear_y), ('RR', -0.9, -rear_y))))


def test_four_legs_with_the_same_fault_are_one_finding():
    analysis = analyze(parse_urdf_string(four_legs()), NO_MESHES)
    (finding,) = of_rule(analysis, 'com-outside-geometry')
    legs = ('FL_calf', 'FR_calf', 'RL_calf', 'RR_calf')
    assert finding.links == legs
    assert dict(finding.values)['fore_aft_links'] == 'RL_calf, RR_calf'
    assert finding.message.endswith(
        "; its mirror link 'FR_calf' has the same; its fore-aft counterparts 'RL_calf' and "
        "'RR_calf' have the same")
    assert "likewise on 'RL_calf' and 'RR_calf'" in finding.suggestion
    for leg in legs:  # each leg's diagnostics, services and JUnit case keep it as its own
        assert finding in analysis.link_findings(leg)
        assert analysis.findings_about(leg).count(finding) == 1
    assert set(legs) <= analysis.concerned_links()


#: Mini Pupper's legs (mangdangroboticsclub/mini_pupper_ros): one CAD tensor pasted on the
#: four, left back (lb) equal to left front (lf) to 1e-15, the right side's products mirrored
_PUPPER_LEG = """
  <joint name="{leg}_hip" type="revolute"><parent link="base"/><child link="{leg}_leg"/>
    <origin xyz="{x} {y} 0"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="5" velocity="1.5"/></joint>
  <link name="{leg}_leg">
    <inertial><origin xyz="0.0087495 {c} -0.0045069"/><mass value="0.0005"/>
      <inertia ixx="{ixx}" ixy="{ixy}" ixz="-3.80902489021625E-08" iyy="1.01534357250605E-06"
               iyz="{ixy}" izz="5.74768328209026E-07"/></inertial>
    <collision><origin xyz="0.009 {c} -0.005"/><geometry><box size="0.05 0.045 0.04"/>
    </geometry></collision></link>"""


#: Mini Pupper's pasted tensor on its four legs: (code, x, y, centre's y, ixx, ixy)
_PUPPER_LEGS = (('lf', 0.1, 0.1, -0.0058, '8.1813456986579E-07', '8.786282796E-08'),
                ('rf', 0.1, -0.1, 0.0058, '8.18135114571354E-07', '-8.786282796E-08'),
                ('lb', -0.1, 0.1, -0.0058, '8.18134569865789E-07', '8.786282796E-08'),
                ('rb', -0.1, -0.1, 0.0058, '8.18135114571351E-07', '-8.786282796E-08'))


def _pupper_finding(leg_name, foot=''):
    """Return the one inertia-exceeds-extent finding of the four legs (named leg_name(code))."""
    legs = ''.join(_PUPPER_LEG.format(leg=leg, x=x, y=y, c=c, ixx=ixx, ixy=ixy).replace(
        f'{leg}_leg', leg_name(leg)) + foot.format(leg=leg)
        for leg, x, y, c, ixx, ixy in _PUPPER_LEGS)
    text = ('<robot name="pupper"><link name="base"><collision><geometry>'
            '<box size="0.2 0.08 0.04"/></geometry></collision></link>' + legs + '</robot>')
    (finding,) = of_rule(analyze(parse_urdf_string(text), NO_MESHES), 'inertia-exceeds-extent')
    return finding


def test_legs_coded_left_back_and_right_back_join_the_front_pair():
    # lb/rb (left back, right back) were no side marks: the front pair was one finding, the
    # rear legs one each (3 warnings of one pasted tensor).
    finding = _pupper_finding(lambda leg: f'{leg}_leg')
    assert finding.links == ('lf_leg', 'rf_leg', 'lb_leg', 'rb_leg')
    assert "its fore-aft counterparts 'lb_leg' and 'rb_leg' have the same" in finding.message


_GLUED_FOOT = """
  <joint name="{leg}_foot_joint" type="fixed"><parent link="{leg}3"/><child link="{leg}foot"/>
    <origin xyz="0 0 -0.03"/></joint>
  <link name="{leg}foot"><inertial><mass value="0.001"/><inertia ixx="1e-8" ixy="0" ixz="0"
    iyy="1e-8" iyz="0" izz="1e-8"/></inertial>
    <collision><geometry><sphere radius="0.005"/></geometry></collision></link>"""


def test_legs_whose_feet_carry_the_side_mark_glued_are_one_finding():
    # Mini Pupper 2's lf3..rb3, each welded to its foot lffoot..rbfoot, the side mark glued
    # to the foot's name: each message named its own foot, and the four alike findings
    # stayed four (sweep X).
    finding = _pupper_finding(lambda leg: f'{leg}3', _GLUED_FOOT)
    assert finding.links == ('lf3', 'rf3', 'lb3', 'rb3')
    assert "welded to 'lffoot'" in finding.message
    assert "its fore-aft counterparts 'lb3' and 'rb3' have the same" in finding.message


def test_rear_legs_with_other_numbers_say_theirs_and_other_faults_stay_apart():
    (finding,) = of_rule(analyze(parse_urdf_string(four_legs(0.4)), NO_MESHES),
                         'com-outside-geometry')
    assert "its fore-aft counterparts 'RL_calf' and 'RR_calf' have the same fault: " in \
        finding.message and 'xyz="0 0.4 0"' in finding.message
    # The rear legs' centres of mass inside them: the front pair stays a pair of its own.
    (finding,) = of_rule(analyze(parse_urdf_string(four_legs(0)), NO_MESHES),
                         'com-outside-geometry')
    assert finding.links == ('FL_calf', 'FR_calf')
    assert 'fore_aft_links' not in dict(finding.values)


def test_fix_inertia_writes_all_four_legs():
    sphere = '<geometry><sphere radius="0.04"/></geometry>'
    # The rear feet's tensor differs from the front's: no tensor copied onto 3 links.
    text = robot(*(limb(leg, y, com_at(0, '0.2', moment), sphere) for leg, y, moment in (
        ('FL_foot', 0.3, '0.5'), ('FR_foot', -0.3, '0.5'), ('RL_foot', 0.9, '0.6'),
        ('RR_foot', -0.9, '0.6'))))
    analysis = analyze(parse_urdf_string(text), NO_MESHES)
    (finding,) = of_rule(analysis, 'inertia-exceeds-extent')
    assert len(finding.links) == 4 and 'have the same fault' in finding.message
    fixed, fixes = fix_inertia(text.encode(), analysis)
    assert sorted(fix.link for fix in fixes) == ['FL_foot', 'FR_foot', 'RL_foot', 'RR_foot']
    assert not of_rule(analyze(parse_urdf_string(fixed), NO_MESHES), 'inertia-exceeds-extent')


def test_four_legs_overlapping_their_shoulders_are_one_finding_drawn_whole():
    needs_coal()
    analysis = analyze(parse_urdf_string(legs_in_shoulders()))
    (finding,) = of_rule(analysis, 'collision-overlap-at-rest')
    values = dict(finding.values)
    assert (finding.link, values['other_link']) == ('FL_thigh', 'FL_thigh_shoulder')
    assert values['fore_aft_links'] == 'RL_thigh, RR_thigh'
    assert values['fore_aft_other_links'] == 'RL_thigh_shoulder, RR_thigh_shoulder'
    assert len(values['fore_aft_depths_mm'].split()) == 2
    assert "the fore-aft pairs 'RL_thigh' and 'RL_thigh_shoulder', 'RR_thigh' and " \
        "'RR_thigh_shoulder' overlap too, about" in finding.message
    pairs = [(f'{leg}_thigh', f'{leg}_thigh_shoulder') for leg in ('FL', 'FR', 'RL', 'RR')]
    for pair in pairs:
        assert '<disable_collisions link1="{}" link2="{}"'.format(*pair) in finding.suggestion
        for name in pair:
            assert analysis.findings_about(name).count(finding) == 1
    for leg in ('FR', 'RL', 'RR'):
        assert finding in analysis.link_findings(f'{leg}_thigh')
    assert sorted(pair['links'] for pair in collision_pairs(analysis)) == \
        [list(pair) for pair in pairs]


def test_a_front_link_and_its_rear_counterpart_without_mirrors_are_one_finding():
    # ros2_control's car-like robot: a virtual front wheel and a virtual rear wheel, each
    # drawn and moving without mass or collision: one finding per fault, not two.
    wheel = '<geometry><cylinder radius="0.05" length="0.02"/></geometry>'
    text = robot(*(f'<link name="virtual_{end}_wheel"><visual>{wheel}</visual></link>'
                   f'<joint name="{end}_joint" type="continuous"><parent link="base_link"/>'
                   f'<child link="virtual_{end}_wheel"/><origin xyz="{x} 0 0"/>'
                   '<axis xyz="0 1 0"/></joint>' for end, x in (('front', 0.4), ('rear', -0.4))))
    analysis = analyze(parse_urdf_string(text), NO_MESHES)
    for rule in ('mass-not-positive', 'collision-missing'):
        (finding,) = of_rule(analysis, rule)
        assert finding.links == ('virtual_front_wheel', 'virtual_rear_wheel')
        assert finding.message.endswith(
            "; its fore-aft counterpart 'virtual_rear_wheel' has the same")
        assert finding in analysis.link_findings('virtual_rear_wheel')


def test_numbered_copies_of_a_pair_are_one_finding_drawn_whole():
    needs_coal()
    # franka's dual_panda_example: one arm macro called with panda_1_ and panda_2_; each
    # arm's link1 overlaps its link3 the same way. 10 overlap findings were 6 after this.
    analysis = analyze(parse_urdf_string(robot(
        limb('arm_1_link1', 0.3, com_at(0)), limb('arm_1_link3', 0.32, com_at(0)),
        limb('arm_2_link1', 1.3, com_at(0)), limb('arm_2_link3', 1.32, com_at(0)))))
    (finding,) = of_rule(analysis, 'collision-overlap-at-rest')
    values = dict(finding.values)
    assert (finding.link, values['other_link']) == ('arm_1_link1', 'arm_1_link3')
    assert (values['copy_links'], values['copy_other_links']) == ('arm_2_link1', 'arm_2_link3')
    assert values['copy_depths_mm'] == values['depth_mm']
    assert "the copy pair 'arm_2_link1' and 'arm_2_link3' (another instance" in finding.message
    assert '<disable_collisions link1="arm_2_link1" link2="arm_2_link3"' in finding.suggestion
    assert finding in analysis.link_findings('arm_2_link1')
    assert sorted(pair['links'] for pair in collision_pairs(analysis)) == \
        [['arm_1_link1', 'arm_1_link3'], ['arm_2_link1', 'arm_2_link3']]


def test_parts_numbered_after_their_names_are_copies_too():
    needs_coal()
    # Bullet's Vision 60: each leg's hip overlaps its toe the same way, hip0/toe0 to
    # hip3/toe3, the leg's number after each name: four findings, now one.
    analysis = analyze(parse_urdf_string(robot(*(
        limb(f'{part}{leg}', x + leg, com_at(0)) for leg in range(4)
        for part, x in (('hip', 0.3), ('toe', 0.32))))))
    (finding,) = of_rule(analysis, 'collision-overlap-at-rest')
    values = dict(finding.values)
    assert (finding.link, values['other_link']) == ('hip0', 'toe0')
    assert (values['copy_links'], values['copy_other_links']) == (
        'hip1, hip2, hip3', 'toe1, toe2, toe3')
    # hip1 with toe2 is no copy of hip0 with toe0 (another number on each side)
    analysis = analyze(parse_urdf_string(robot(
        limb('hip0', 0.3, com_at(0)), limb('toe0', 0.32, com_at(0)),
        limb('hip1', 1.3, com_at(0)), limb('toe2', 1.32, com_at(0)))))
    assert len(of_rule(analysis, 'collision-overlap-at-rest')) == 2


def test_links_of_one_chain_are_no_copies_and_other_depths_stay_apart():
    needs_coal()
    # link1/link3 and link5/link7 of one arm overlap alike: renumbering link1 into link5
    # would make link3 link7 only by a second, other renumbering: two findings.
    chain = analyze(parse_urdf_string(robot(
        limb('link1', 0.3, com_at(0)), limb('link3', 0.32, com_at(0)),
        limb('link5', 1.3, com_at(0)), limb('link7', 1.32, com_at(0)))))
    assert len(of_rule(chain, 'collision-overlap-at-rest')) == 2
    # Copies overlapping by other depths are two findings.
    apart = analyze(parse_urdf_string(robot(
        limb('arm_1_link1', 0.3, com_at(0)), limb('arm_1_link3', 0.32, com_at(0)),
        limb('arm_2_link1', 1.3, com_at(0)), limb('arm_2_link3', 1.35, com_at(0)))))
    assert len(of_rule(apart, 'collision-overlap-at-rest')) == 2


def test_mirrors_whose_worst_axis_flips_on_a_tie_are_one_finding():
    # kuavo's feet (sweep K): ixx = iyy on a foot square in x and y whose right mesh is the
    # left one turned, bounds 1e-9 m apart: "about the link's x axis" on the left, y on the
    # right, two errors of one tensor; each keeps its own suggested tensor.
    tensor = ('<inertial><mass value="0.069"/><inertia ixx="0.000666" ixy="0" ixz="0" '
              'iyy="0.000666" iyz="0" izz="0.0001"/></inertial>')
    feet = [limb(name, y, tensor, f'<geometry><box size="{sx} {sy} 0.012"/></geometry>')
            for name, y, sx, sy in (('left_foot', 0.1, '0.038', '0.038000001'),
                                    ('right_foot', -0.1, '0.038000001', '0.038'))]
    analysis = analyze(parse_urdf_string(robot(*feet)), NO_MESHES)
    (finding,) = of_rule(analysis, 'inertia-exceeds-extent')
    assert "its mirror link 'right_foot' has the same" in finding.message, finding.message
    assert set(dict(finding.links_suggested_inertia)) == {'left_foot', 'right_foot'}


def test_a_mirror_is_compared_without_its_list_order_or_its_contact_point():
    # DRCSim's iRobot hands: each palm's four neighbours, as deep within rounding, listed in
    # another order (deepest first), touching at another point of a flat contact: two stars
    from urdf_link_tools.checks.mirrors import _shape
    from urdf_link_tools.findings import Finding, Severity

    def star(side, names, point):
        return Finding('collision-overlap-at-rest', Severity.WARNING,
                       f"the collision geometry of '{side}_base' (collision[0]) intersects "
                       f"that of 3 links at rest ({', '.join(names)}); the deepest is "
                       f"'{names[0]}' (collision[0]), about 41.5 mm deep, at ({point}) in "
                       f"'{side}_base''s frame", link=f'{side}_base')

    left = star('left', ['l_farm', 'left_finger_1', 'l_larm'], '-0.02018 0.007019 0.02825')
    right = star('right', ['r_farm', 'r_larm', 'right_finger_1'], '-0.02353 -0.007 0.02825')
    assert _shape(left) == _shape(right)
    deeper = star('right', ['r_farm', 'r_larm', 'right_finger_1'], '-0.02353 -0.007 0.02825')
    deeper = Finding(deeper.rule, deeper.severity, deeper.message.replace('41.5', '45.5'),
                     link=deeper.link)
    assert _shape(left) != _shape(deeper)  # (another depth: the mirror's own fault)


def test_a_lone_side_letter_is_not_blanked_at_the_start_of_other_names():
    # (_glued_marks blanks a leg code or side word, never a lone letter: l_arm's finding
    # naming 'link_base' would lose its 'l' and no longer match r_arm's.)
    from urdf_link_tools.checks.mirrors import _glued_marks
    assert _glued_marks("welded to 'lffoot'", 'lf3') == "welded to '~foot'"
    assert _glued_marks("welded to 'leftfoot'", 'left_leg') == "welded to '~foot'"
    assert _glued_marks("welded to 'link_base'", 'l_arm') == "welded to 'link_base'"
