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
The joint rules: each defect fires at its line, its benign neighbour stays quiet.

The claims the findings make about other tools are checked against them: Pinocchio embeds
urdfdom (its parser refuses what urdfdom refuses), and MuJoCo reads URDF itself.
"""

import collections
import contextlib
import os

from corpus import urdf_paths
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.checks import RULES
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.parser import parse_urdf_string

JOINT_RULES = sorted(rule for rule in RULES if rule.startswith('joint-') and rule not in (
    'joint-duplicate-name', 'joint-unknown-link'))
INERTIAL = ('<inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" '
            'iyz="0" izz="0.01"/></inertial>')
LIMIT = '<limit lower="-1" upper="1" effort="10" velocity="2"/>'


def robot(joint_body, joint_type='revolute', extra=''):
    """Two links joined by joint 'j' (its body on line 3), plus extra XML."""
    return (f'<robot name="r">\n<link name="a">{INERTIAL}</link><link name="b">{INERTIAL}'
            f'</link><joint name="j" type="{joint_type}"><parent link="a"/><child link="b"/>\n'
            f'{joint_body}</joint>{extra}</robot>')


def joint_findings(text):
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    return [f for f in analysis.findings if f.rule.startswith(('joint-', 'parse-'))]


MIMIC = ('<link name="c">' + INERTIAL + '</link><joint name="k" type="revolute">'
         '<parent link="b"/><child link="c"/>' + LIMIT + '<mimic joint="{}"/></joint>')

# (rule, severity, defective joint body, type, extra, benign body, benign extra)
CASES = [
    ('joint-limit-missing', Severity.ERROR, '<axis xyz="0 0 1"/>', 'revolute', '',
     '<axis xyz="0 0 1"/>' + LIMIT, ''),
    ('joint-limit-missing', Severity.ERROR, '<axis xyz="0 0 1"/>', 'prismatic', '',
     '<axis xyz="0 0 1"/>' + LIMIT, ''),
    ('joint-range-missing', Severity.ERROR, '<limit effort="10" velocity="2"/>', 'revolute', '',
     '<limit lower="0" upper="1" effort="10" velocity="2"/>', ''),
    ('joint-range-inverted', Severity.ERROR,
     '<limit lower="1" upper="-1" effort="10" velocity="2"/>', 'revolute', '', LIMIT, ''),
    ('joint-range-inverted', Severity.ERROR, '<limit lower="0.5" effort="10" velocity="2"/>',
     'prismatic', '', '<limit upper="0.5" effort="10" velocity="2"/>', ''),
    ('joint-range-zero', Severity.WARNING,
     '<limit lower="0.3" upper="0.3" effort="10" velocity="2"/>', 'revolute', '', LIMIT, ''),
    # Unitree B2's thighs: lower="-94" for -0.94 (its shipped URDF has -0.94); a Fanuc wrist
    # of +-7.85 rad and a huge value written for no limit are not slips.
    ('joint-range-implausible', Severity.WARNING,
     '<limit lower="-94" upper="4.69" effort="10" velocity="2"/>', 'revolute', '',
     '<limit lower="-7.85" upper="7.85" effort="10" velocity="2"/>', ''),
    ('joint-range-implausible', Severity.WARNING,
     '<limit lower="-180" upper="180" effort="10" velocity="2"/>', 'revolute', '',
     '<limit lower="-1e16" upper="1e16" effort="10" velocity="2"/>', ''),
    ('joint-limit-zero', Severity.WARNING,
     '<limit lower="-1" upper="1" effort="10" velocity="0"/>', 'revolute', '', LIMIT, ''),
    ('joint-limit-zero', Severity.INFO,
     '<limit lower="-1" upper="1" effort="0" velocity="0"/>', 'revolute', '', LIMIT, ''),
    # effort 0 on an endless joint, no actuated joint named: a passive wheel or caster?
    ('joint-limit-zero', Severity.INFO, '<limit effort="0" velocity="3"/>', 'continuous',
     '', '<limit effort="1" velocity="3"/>', ''),
    # ... a warning on one a <transmission> drives
    ('joint-limit-zero', Severity.WARNING, '<limit effort="0" velocity="3"/>', 'continuous',
     '<transmission name="t"><joint name="j"/></transmission>',
     '<limit effort="1" velocity="3"/>',
     '<transmission name="t"><joint name="j"/></transmission>'),
    ('joint-limit-negative', Severity.ERROR,
     '<limit lower="-1" upper="1" effort="-10" velocity="2"/>', 'revolute', '', LIMIT, ''),
    ('joint-limit-negative', Severity.ERROR, '<limit effort="10" velocity="-3"/>', 'continuous',
     '', '<limit effort="10" velocity="3"/>', ''),
    ('joint-axis-zero', Severity.ERROR, '<axis xyz="0 0 0"/>' + LIMIT, 'revolute', '',
     '<axis xyz="0 0 1"/>' + LIMIT, ''),
    ('joint-axis-zero', Severity.ERROR, '<axis/>', 'continuous', '', '', ''),
    ('joint-mimic-unknown', Severity.WARNING, LIMIT, 'revolute', MIMIC.format('jj'),
     LIMIT, MIMIC.format('j')),
    ('joint-value-not-finite', Severity.ERROR,
     '<limit lower="-1" upper="inf" effort="10" velocity="2"/>', 'revolute', '', LIMIT, ''),
    ('joint-value-not-finite', Severity.ERROR, '<axis xyz="0 nan 1"/>' + LIMIT, 'revolute', '',
     '<axis xyz="0 1 1"/>' + LIMIT, ''),
    ('joint-value-not-finite', Severity.ERROR, LIMIT + '<dynamics damping="nan"/>', 'revolute',
     '', LIMIT + '<dynamics damping="0.1"/>', ''),
    ('joint-value-not-finite', Severity.ERROR, LIMIT + '<calibration rising="-inf"/>',
     'revolute', '', LIMIT + '<calibration rising="0.1"/>', ''),
    ('joint-value-not-finite', Severity.ERROR,
     LIMIT + '<safety_controller k_velocity="1" k_position="inf"/>', 'revolute', '',
     LIMIT + '<safety_controller k_velocity="1" k_position="10"/>', ''),
    ('joint-value-not-finite', Severity.ERROR, LIMIT, 'revolute',
     MIMIC.format('j').replace('<mimic joint="j"/>', '<mimic joint="j" offset="nan"/>'),
     LIMIT, MIMIC.format('j').replace('<mimic joint="j"/>', '<mimic joint="j" offset="1"/>')),
]


@pytest.mark.parametrize('rule, severity, body, joint_type, extra, benign, benign_extra', CASES,
                         ids=[f'{case[0]}-{case[3]}-{i}' for i, case in enumerate(CASES)])
def test_joint_defect_fires_and_benign_neighbour_is_quiet(
        rule, severity, body, joint_type, extra, benign, benign_extra):
    found = joint_findings(robot(body, joint_type, extra))
    assert [(f.rule, f.severity) for f in found] == [(rule, severity)], \
        [(f.rule, f.message) for f in found]
    (finding,) = found
    assert finding.line in (2, 3)  # the joint, or its element on line 3
    assert finding.link in ('b', 'c') and '\n' not in finding.message
    assert joint_findings(robot(benign, joint_type, benign_extra)) == []


def test_an_implausible_range_names_both_readings_and_is_one_finding_on_alike_joints():
    (finding,) = joint_findings(robot(
        '<limit lower="-94" upper="4.69" effort="10" velocity="2"/>'))
    assert finding.message == (
        "revolute joint 'j': lower -94 and upper 4.69 rad: the joint spans 98.69 rad (15.7 "
        'turns), where a revolute joint turns within a turn or two, so nothing limits it '
        "wherever limits are enforced (MoveIt, Pinocchio, ros2_control, MuJoCo's range)"), \
        finding.message
    assert finding.suggestion.startswith(
        'write the limit in radians: lower="-0.94" (a decimal slip) or "-1.641" (degrees)')
    legs = ''.join(
        f'<link name="t{i}">{INERTIAL}</link><joint name="thigh{i}" type="revolute">'
        f'<parent link="b"/><child link="t{i}"/><axis xyz="0 1 0"/>'
        '<limit lower="-94" upper="4.69" effort="10" velocity="2"/></joint>' for i in range(4))
    (finding,) = joint_findings(robot(LIMIT, extra=legs))
    assert finding.message.startswith('4 revolute joints (thigh0, thigh1, thigh2, thigh3): '
                                      'lower -94 and upper 4.69 rad: each joint spans 98.69 '
                                      'rad'), finding.message


def test_every_joint_rule_has_a_case():
    assert {case[0] for case in CASES} == set(JOINT_RULES)


def _pinocchio_loads(text):
    pinocchio = pytest.importorskip('pinocchio')
    with open(os.devnull, 'w') as sink, contextlib.redirect_stderr(sink):
        try:
            return pinocchio.buildModelFromXML(text)
        except (RuntimeError, ValueError):
            return None


def _mujoco_loads(text):
    mujoco = pytest.importorskip('mujoco')
    try:
        return mujoco.MjModel.from_xml_string(text)
    except ValueError:
        return None


@pytest.mark.parametrize('body, joint_type', [
    ('<axis xyz="0 0 1"/>', 'revolute'),
    ('<axis xyz="0 0 1"/>', 'prismatic'),
    ('<limit lower="-1" upper="nan" effort="10" velocity="2"/>', 'revolute'),
    (LIMIT + '<safety_controller k_velocity="inf"/>', 'revolute'),
    (LIMIT + '<dynamics damping="inf"/>', 'revolute'),
])
def test_claim_urdfdom_refuses(body, joint_type):
    """What is reported with 'urdfdom refuses this robot', Pinocchio's urdfdom refuses."""
    text = robot(body, joint_type)
    assert any('urdfdom refuses this robot' in f.message for f in joint_findings(text))
    assert _pinocchio_loads(text) is None
    assert _pinocchio_loads(robot(LIMIT, joint_type)) is not None


def test_claim_range_missing_locks_the_joint_in_pinocchio_mujoco_ignores_it():
    text = robot('<limit effort="10" velocity="2"/>')
    model = _pinocchio_loads(text)
    assert model.lowerPositionLimit[0] == model.upperPositionLimit[0] == 0.0
    assert not _mujoco_loads(text).jnt_limited[0]


@pytest.mark.parametrize('limit', ['<limit lower="1" upper="-1" effort="10" velocity="2"/>',
                                   '<limit lower="0.3" upper="0.3" effort="10" velocity="2"/>'])
def test_claim_mujoco_ignores_an_inverted_or_zero_range_pinocchio_keeps_it(limit):
    text = robot(limit)
    assert not _mujoco_loads(text).jnt_limited[0]
    model = _pinocchio_loads(text)
    assert model.lowerPositionLimit[0] >= model.upperPositionLimit[0]


@pytest.mark.parametrize('axis', ['<axis xyz="0 0 0"/>', '<axis/>'])
def test_claim_mujoco_refuses_a_zero_axis(axis):
    assert _mujoco_loads(robot(axis + LIMIT)) is None
    assert _mujoco_loads(robot('<axis xyz="0 0 1"/>' + LIMIT)) is not None


def test_claim_pinocchio_reads_a_zero_effort_and_velocity_limit():
    model = _pinocchio_loads(robot('<limit lower="-1" upper="1" effort="0" velocity="0"/>'))
    assert model.effortLimit[0] == model.velocityLimit[0] == 0.0


@pytest.mark.parametrize('limit', ['<limit lower="-1" upper="1" effort="-10" velocity="2"/>',
                                   '<limit lower="-1" upper="1" effort="10" velocity="-2"/>'])
def test_claim_pinocchio_refuses_a_negative_effort_or_velocity(limit):
    # found by fuzzing the parser against Pinocchio: a negative limit was not reported
    text = robot(limit)
    (finding,) = joint_findings(text)
    assert 'Pinocchio refuses the robot' in finding.message
    assert _pinocchio_loads(text) is None
    assert _pinocchio_loads(robot(LIMIT)) is not None
    # a claim about Pinocchio only; 3 joints alike are one finding
    config = CheckConfig(check_meshes=False, targets=frozenset({'gazebo', 'rviz'}))
    assert not [f for f in analyze(parse_urdf_string(text), config).findings
                if f.rule == 'joint-limit-negative']
    legs = ''.join(
        f'<link name="t{i}">{INERTIAL}</link><joint name="leg{i}" type="revolute">'
        f'<parent link="b"/><child link="t{i}"/><axis xyz="0 1 0"/>{limit}</joint>'
        for i in range(3))
    (finding,) = joint_findings(robot(LIMIT, extra=legs))
    assert finding.message.startswith('3 revolute joints (leg0, leg1, leg2): '), finding.message


def test_claim_a_mimic_of_an_unknown_joint_is_ignored_not_refused():
    text = robot(LIMIT, extra=MIMIC.format('jj'))
    assert _pinocchio_loads(text).nq == 2 and _mujoco_loads(text).neq == 0
    assert _mujoco_loads(robot(LIMIT, extra=MIMIC.format('j'))).neq == 1


# Every firing of the joint rules on example-robot-data, judged one by one:
# - alex_psyonic_hands: the finger mimics name 'index_q1' where the joints are
#   'Left_index_q1'/'Right_index_q1' (a prefix the xacro did not apply): real, fix it.
# - centauro wheels and quadruped knees: revolute with effort and velocity only, so 0..0:
#   Pinocchio, Gazebo and MoveIt lock them: real.
# - double_pendulum(_simple): lower="0" upper="0" on revolute joints meant to swing: real
#   (double_pendulum_continuous is the same robot written right).
# - double_pendulum*, iris rotors, romeo hands: effort and velocity both 0, the way passive
#   joints and placeholders are written: INFO only. On iris all 4 rotors are written so:
#   one robot-placeholder-limits info instead (test_checks_model_wide.py).
# A left finger and its right mirror with the same fault are one finding (checks.mirrors):
# psyonic's 8 mimics are 4, romeo's two hands one.
CORPUS_COUNTS = {
    # 8 mimics naming 'index_q1' for 'Left_index_q1': one finding (sweep N's InMoov)
    ('joint-mimic-unknown', 'alex_psyonic_hands.urdf'): 1,
    # four knees each, one macro: one finding per robot (check_alike_limits)
    ('joint-range-missing', 'centauro.urdf'): 1,
    ('joint-range-missing', 'quadruped.urdf'): 1,
    # both joints, one exporter default: one finding (every moving joint of the robot)
    ('joint-range-zero', 'double_pendulum.urdf'): 1,
    ('joint-range-zero', 'double_pendulum_simple.urdf'): 1,
    # (their effort and velocity 0 are said by joint-range-zero since the thirty-first round)
    ('joint-limit-zero', 'double_pendulum_continuous.urdf'): 1,  # (both joints: one)
    ('joint-limit-zero', 'romeo.urdf'): 1,
}


def test_joint_rules_on_example_robot_data_fire_only_where_judged_real():
    paths = urdf_paths()
    assert len(paths) >= 60
    counts = collections.Counter()
    for path in paths:
        analysis = analyze(parse_urdf_string(path.read_bytes(), str(path)),
                           CheckConfig(check_meshes=False))
        for finding in analysis.findings:
            if finding.rule in JOINT_RULES:
                counts[(finding.rule, path.name)] += 1
                if finding.rule == 'joint-limit-zero':
                    assert finding.severity == Severity.INFO, finding.message
    assert dict(counts) == CORPUS_COUNTS


def test_an_effort_of_zero_names_passive_joints():
    # Cassie's knee and ankle springs have effort="0" on purpose: the fix says when it is right.
    (finding,) = joint_findings(robot('<limit effort="0" velocity="3"/>', 'continuous', ''))
    assert finding.suggestion.endswith('; a passive joint (a spring, an unactuated wheel) has '
                                       'no actuator effort: effort 0 is right there')
    (finding,) = joint_findings(robot('<limit lower="-1" upper="1" effort="10" velocity="0"/>',
                                      'revolute', ''))
    assert 'passive' not in finding.suggestion


def test_a_caster_named_as_one_with_effort_zero_is_not_reported():
    # Trossen's mobile base (sweep L): 8 caster joints, velocity 3, effort 0, no actuated
    # joint named: an info asking for 'the real effort' of a wheel nothing drives. A caster
    # or idler named as one (joint or child link) is passive; a plain wheel stays an info.
    body = '<limit effort="0" velocity="3"/>'
    for name in ('caster_wheel_joint', 'rear_Castor_swivel', 'idler_pulley'):
        text = robot(body, 'continuous').replace('name="j"', f'name="{name}"')
        assert not joint_findings(text), name
    caster_link = robot(body, 'continuous').replace('"b"', '"left_caster_link"')
    assert not joint_findings(caster_link)
    (wheel,) = joint_findings(robot(body, 'continuous').replace('name="j"', 'name="wheel"'))
    assert wheel.rule == 'joint-limit-zero' and wheel.severity == Severity.INFO
    # velocity 0 on a caster is still a slip
    (slow,) = joint_findings(robot('<limit effort="1" velocity="0"/>', 'continuous').replace(
        'name="j"', 'name="caster_joint"'))
    assert slow.rule == 'joint-limit-zero' and slow.severity == Severity.WARNING


PASSIVE = '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="0" velocity="2"/>'
OTHER = ('<link name="c">' + INERTIAL + '</link><joint name="k" type="revolute">'
         '<parent link="b"/><child link="c"/><axis xyz="0 0 1"/>' + LIMIT + '</joint>')


@pytest.mark.parametrize('declared,reported', [
    ('', True),  # no actuators declared: a slip
    ('<transmission name="t"><joint name="k"/><actuator name="m"/></transmission>', False),
    ('<transmission name="t"><joint name="j"/></transmission>', True),  # j is driven
    ('<ros2_control name="h" type="system"><joint name="k"><command_interface '
     'name="position"/></joint><joint name="j"><state_interface name="position"/></joint>'
     '</ros2_control>', False)])  # j is only read
def test_effort_zero_on_a_joint_no_actuator_drives_is_passive(declared, reported):
    # Cassie: effort="0" on the shin and ankle springs, which no <transmission> names while
    # the motors' joints have one each: passive joints, effort 0 is right, nothing to fix.
    found = [f for f in joint_findings(robot(PASSIVE, extra=OTHER + declared))
             if f.rule == 'joint-limit-zero']
    assert bool(found) == reported, found


def test_a_locked_joint_with_zero_limits_is_one_finding():
    # Toyota HSR's bumpers (sweep K): lower = upper = 0, effort and velocity 0, were
    # joint-range-zero (fix: type="fixed") and joint-limit-zero ("write the real effort and
    # velocity"), moot once fixed; a SolidWorks export's zeros on a real joint (the corpus's
    # double pendulum) get the whole fix in the one finding.
    found = joint_findings(robot('<limit lower="0" upper="0" effort="0" velocity="0"/>'))
    assert [(f.rule, f.severity) for f in found] == [('joint-range-zero', Severity.WARNING)]
    assert found[0].suggestion == ('use type="fixed" for a locked joint, type="continuous" '
                                   'for one meant to turn freely (a pendulum), or write the '
                                   'real range and effort and velocity'), found[0].suggestion
    assert ', and effort and velocity are 0: ' in found[0].message
    # Many locked joints (uuv_simulator's 17 sensor joints) are no placeholder limits either.
    parts = ''.join(f'<link name="s{index}">{INERTIAL}</link><joint name="k{index}" '
                    f'type="revolute"><parent link="a"/><child link="s{index}"/>'
                    '<limit lower="0" upper="0" effort="0" velocity="0"/></joint>'
                    for index in range(4))
    analysis = analyze(parse_urdf_string(robot(LIMIT, extra=parts)),
                       CheckConfig(check_meshes=False))
    assert not [f for f in analysis.findings if f.rule in (
        'robot-placeholder-limits', 'joint-limit-zero')], analysis.findings


def test_mimics_naming_joints_that_do_not_exist_name_the_joint_meant_once_for_many():
    # InMoov's hand (sweep N): 12 <mimic> elements naming 'r_index' for 'r_index_joint'
    # (the suffix left out), 12 warnings saying only "fix the joint name".
    def hand(count, name):
        links = ''.join(f'<link name="f{i}">{INERTIAL}</link>' for i in range(count))
        joints = ''.join(
            f'<joint name="f{i}_joint" type="revolute"><parent link="b"/><child link="f{i}"/>'
            f'{LIMIT}<mimic joint="{name}"/></joint>' for i in range(count))
        return robot(LIMIT, extra=links + joints).replace('name="j"', 'name="r_index_joint"')
    (one,) = [f for f in joint_findings(hand(1, 'r_index')) if f.rule == 'joint-mimic-unknown']
    assert "names the joint 'r_index', which does not exist (did you mean 'r_index_joint'?)" \
        in one.message and one.suggestion == 'write <mimic joint="r_index_joint" .../>'
    (many,) = [f for f in joint_findings(hand(4, 'r_index'))
               if f.rule == 'joint-mimic-unknown']
    assert many.message.startswith('4 joints have a <mimic> naming a joint that does not '
                                   'exist (f0_joint, f1_joint, f2_joint, f3_joint)')
    assert many.message.endswith("by their names, 'r_index' for 'r_index_joint'")
    assert many.links == ('f0', 'f1', 'f2', 'f3')
    for name in ('zzz', ''):  # nothing close, or no name at all: no guess
        (unknown,) = [f for f in joint_findings(hand(1, name))
                      if f.rule == 'joint-mimic-unknown']
        assert 'did you mean' not in unknown.message, name


def test_did_you_mean_for_a_mimic_is_bounded():
    # Red-team review 7: 180 joints and 180 mimics, each name a 1,300-character shuffle of
    # one set of letters, made difflib compare every pair at length squared (993 KB: 235 s).
    # Long names get no suggestion; the check stays a fraction of a second.
    import random
    from urdf_link_tools.checks.names import NameSuggester
    shuffle = random.Random(1)
    letters = [chr(code) for code in range(0x100, 0x164) for _ in range(13)]

    def name():
        shuffle.shuffle(letters)
        return 'j' + ''.join(letters)

    joints = [name() for _ in range(40)]
    parts = ['<link name="b"/>'] + [f'<link name="l{i}"/>' for i in range(80)]
    parts += [f'<joint name="{joint}" type="revolute"><parent link="b"/><child link="l{i}"/>'
              '<limit effort="1" velocity="1" lower="-1" upper="1"/></joint>'
              for i, joint in enumerate(joints)]
    parts += [f'<joint name="m{i}" type="revolute"><parent link="b"/><child link="l{40 + i}"/>'
              '<limit effort="1" velocity="1" lower="-1" upper="1"/>'
              f'<mimic joint="{name()}"/></joint>' for i in range(40)]
    found = [f for f in analyze(parse_urdf_string('<robot name="r">' + ''.join(parts)
                                                  + '</robot>'), CheckConfig()).findings
             if f.rule == 'joint-mimic-unknown']
    assert found and 'did you mean' not in found[0].message
    assert NameSuggester(joints).suggest(joints[0][:-1] + 'x') == ''  # (too long to compare)


def test_a_zero_limit_is_said_only_for_the_targets_that_read_limits():
    # Thymio's wheels (sweep V): effort 0, said under --target mujoco with Pinocchio's and
    # MoveIt's effects; MuJoCo ignores effort and velocity (RViz and KDL too).
    text = robot('<limit lower="-1" upper="1" effort="0" velocity="3"/>')

    def rules(targets):
        config = CheckConfig(check_meshes=False, targets=frozenset(targets))
        return [(f.rule, f.severity) for f in analyze(parse_urdf_string(text), config).findings
                if f.rule == 'joint-limit-zero']
    assert rules({'mujoco', 'rviz', 'kdl'}) == []
    for target in ('pinocchio', 'moveit', 'gazebo'):
        assert rules({target}) == [('joint-limit-zero', Severity.WARNING)], target


def test_every_moving_joint_locked_alike_is_one_finding():
    # The corpus's double pendulum: both joints lower = upper = 0, effort and velocity 0,
    # an exporter's default on a robot meant to swing: two warnings were one choice.
    text = ('<robot name="p"><link name="base"/><link name="l1"/><link name="l2"/>'
            + ''.join(f'<joint name="j{i}" type="revolute"><parent link="{parent}"/>'
                      f'<child link="l{i}"/><axis xyz="1 0 0"/><limit lower="0" upper="0" '
                      'effort="0" velocity="0"/></joint>'
                      for i, parent in ((1, 'base'), (2, 'l1'))) + '</robot>')
    found = [f for f in analyze(parse_urdf_string(text), CheckConfig(
        check_meshes=False)).findings if f.rule == 'joint-range-zero']
    assert len(found) == 1 and found[0].links == ('l1', 'l2'), found
    assert found[0].message.startswith('2 revolute joints (j1, j2): lower and upper are equal '
                                       'on each: MoveIt, Gazebo and limit-aware IK')
    assert 'type="continuous" for one meant to turn freely' in found[0].suggestion
    # One of two moving joints locked: its own finding.
    one = text.replace('lower="0" upper="0" effort="0" velocity="0"/></joint></robot>',
                       'lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    (single,) = [f for f in analyze(parse_urdf_string(one), CheckConfig(
        check_meshes=False)).findings if f.rule == 'joint-range-zero']
    assert single.message.startswith("revolute joint 'j1': lower and upper are both 0")
