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
Structure checks stay near-linear and their output bounded on generated hostile inputs.

Each input is checked by the real CLI in a child process under a wall-clock limit, so a
quadratic regression fails the test (instead of hanging the suite).
"""

import json
import os
import subprocess
import sys
import time

import pytest

#: Wall-clock limit of one child process; each case takes well under a second of analysis.
LIMIT_S = 20.0
#: The whole JSON report stays under this size whatever the input.
MAX_OUTPUT = 2_000_000


def _missing_links(n: int) -> str:
    """Return n joints whose children are misspelt names of n existing links (48 s before)."""
    links = ''.join(f'<link name="segment_{i}_link"/>' for i in range(n))
    joints = ''.join(f'<joint name="j{i}" type="fixed"><parent link="segment_0_link"/>'
                     f'<child link="segmnet_{i}_link"/></joint>' for i in range(n))
    return f'<robot name="m">{links}{joints}</robot>'


def _roots(n: int) -> str:
    """Return n links and no joint: n roots (list.index per root took 248 s for 100k)."""
    return '<robot name="r">' + ''.join(f'<link name="l{i}"/>' for i in range(n)) + '</robot>'


def _two_link_loops(n: int) -> str:
    """Return n separate loops a <-> b: every loop used to be listed (69 MB of output)."""
    parts = []
    for i in range(n):
        parts.append(f'<link name="a{i}"/><link name="b{i}"/>'
                     f'<joint name="ab{i}" type="fixed"><parent link="a{i}"/>'
                     f'<child link="b{i}"/></joint>'
                     f'<joint name="ba{i}" type="fixed"><parent link="b{i}"/>'
                     f'<child link="a{i}"/></joint>')
    return '<robot name="l"><link name="root"/>' + ''.join(parts) + '</robot>'


def _one_big_loop(n: int) -> str:
    """One loop through n links: the message names a few and counts the rest."""
    links = ''.join(f'<link name="c{i}"/>' for i in range(n))
    joints = ''.join(f'<joint name="j{i}" type="fixed"><parent link="c{i}"/>'
                     f'<child link="c{(i + 1) % n}"/></joint>' for i in range(n))
    return f'<robot name="c"><link name="root"/>{links}{joints}</robot>'


def _many_parents(n: int) -> str:
    """One link that is the child of n joints."""
    links = '<link name="hub"/>' + ''.join(f'<link name="p{i}"/>' for i in range(n))
    joints = ''.join(f'<joint name="j{i}" type="fixed"><parent link="p{i}"/>'
                     f'<child link="hub"/></joint>' for i in range(n))
    return f'<robot name="p">{links}{joints}</robot>'


def _undefined_materials(n: int) -> str:
    """Return n visuals naming n undefined materials among n defined ones (difflib per visual)."""
    materials = ''.join(f'<material name="paint_{i}"><color rgba="1 0 0 1"/></material>'
                        for i in range(n))
    links = ''.join(f'<link name="l{i}"><visual><geometry><box size="1 1 1"/></geometry>'
                    f'<material name="pain_{i}"/></visual></link>' for i in range(n))
    joints = ''.join(f'<joint name="j{i}" type="fixed"><parent link="l0"/>'
                     f'<child link="l{i}"/></joint>' for i in range(1, n))
    return f'<robot name="mat">{materials}{links}{joints}</robot>'


def _welded_chain(n: int) -> str:
    """Return n links welded in one chain, each with mass, a placeholder and geometry."""
    part = ('<inertial><mass value="1e-6"/><inertia ixx="1e-12" ixy="0" ixz="0" iyy="1e-12" '
            'iyz="0" izz="1e-12"/></inertial><visual><geometry><box size="0.1 0.1 0.1"/>'
            '</geometry></visual>')
    links = ''.join(f'<link name="w{i}">{part if i % 2 else ""}</link>' for i in range(n))
    joints = ''.join(f'<joint name="j{i}" type="fixed"><parent link="w{i}"/>'
                     f'<child link="w{i + 1}"/><origin xyz="0 0 0.1"/></joint>'
                     for i in range(n - 1))
    return f'<robot name="w">{links}{joints}</robot>'


#: (at most limits.ROBOT_MAX_LINKS links: more is an input error, test_trust_deep_inputs)
CASES = [
    ('joint-unknown-link', _missing_links, 5000),
    ('robot-multiple-roots', _roots, 49_000),
    ('kinematic-loop', _two_link_loops, 20_000),
    ('kinematic-loop', _one_big_loop, 49_000),
    ('link-multiple-parents', _many_parents, 49_000),
    ('material-undefined', _undefined_materials, 5000),
    # one body of 5,000 drawn links without collision: the robot-level finding (listed links
    # capped in the message), not 5,000 collision-missing
    ('robot-collision-partial', _welded_chain, 10_000),
]


def _run_check(path: str):
    env = dict(os.environ)
    start = time.monotonic()
    completed = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', path, '--no-meshes',
         '--format', 'json'], capture_output=True, timeout=LIMIT_S, env=env)
    return completed, time.monotonic() - start


@pytest.mark.parametrize('rule,make,n', CASES, ids=[f'{c[1].__name__}-{c[2]}' for c in CASES])
def test_structure_checks_are_bounded(tmp_path, rule, make, n):
    path = tmp_path / 'generated.urdf'
    path.write_text(make(n))
    completed, elapsed = _run_check(str(path))
    assert completed.returncode in (0, 2), completed.stderr.decode()[-2000:]
    assert b'Traceback' not in completed.stderr
    assert len(completed.stdout) < MAX_OUTPUT, len(completed.stdout)
    document = json.loads(completed.stdout)
    findings = [f for f in document['findings'] if f['rule'] == rule]
    assert findings, rule
    # No message grows with the input.
    assert max(len(f['message']) for f in document['findings']) < 2000
    print(f'{make.__name__}({n}): {elapsed:.2f} s, {len(completed.stdout)} bytes')


def test_capped_rule_says_how_many_were_left_out(tmp_path):
    path = tmp_path / 'roots.urdf'
    # 600 disconnected 2-link trees: 599 link-disconnected findings... times two links.
    path.write_text(_two_link_loops(600))
    completed, _ = _run_check(str(path))
    document = json.loads(completed.stdout)
    loops = [f for f in document['findings'] if f['rule'] == 'kinematic-loop']
    # 20 loops listed, one finding counting the other 580.
    assert len(loops) == 21
    assert any('580 more joints close a loop' in f['message'] for f in loops)
    disconnected = [f for f in document['findings'] if f['rule'] == 'link-disconnected']
    assert len(disconnected) == 201
    summary = [f for f in disconnected if f.get('link') is None]
    assert len(summary) == 1 and '1000 more link-disconnected' in summary[0]['message']


def test_suggestion_still_given_for_a_typo(tmp_path):
    path = tmp_path / 'typo.urdf'
    path.write_text(_missing_links(3))
    completed, _ = _run_check(str(path))
    document = json.loads(completed.stdout)
    messages = [f['suggestion'] for f in document['findings'] if f['rule'] == 'joint-unknown-link']
    assert any("did you mean 'segment_1_link'" in m for m in messages), messages


def test_a_world_parent_without_its_link_is_told_to_declare_it():
    # Drake's PR2 (world_joint_for_rbt_compat): 'world' is a frame Gazebo and Drake provide,
    # so the fix is the link, not another name.
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.config import CheckConfig
    from urdf_link_tools.parser import parse_urdf_string
    text = ('<robot name="r"><link name="base"/><joint name="fix" type="fixed">'
            '<parent link="world"/><child link="base"/></joint></robot>')
    (finding,) = [f for f in analyze(parse_urdf_string(text), CheckConfig()).findings
                  if f.rule == 'joint-unknown-link']
    assert finding.suggestion == 'add <link name="world"/> to fix the robot to the world frame'
    assert "Gazebo and Drake provide a 'world' frame" in finding.message


def test_links_hung_from_a_missing_parent_are_said_once():
    # Sawyer's gazebo xacro: the camera's joint names a parent 'head_camera' that does not
    # exist; that one name cuts off the camera and its optical frame. The joint's finding
    # says it, not a link-disconnected per link cut off; a link with no joint at all is a
    # second root, which robot-multiple-roots says and lists (not link-disconnected again).
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.config import CheckConfig
    from urdf_link_tools.parser import parse_urdf_string
    text = ('<robot name="r"><link name="base"/><link name="camera"/><link name="optical"/>'
            '<link name="stray"/>'
            '<joint name="cam" type="fixed"><parent link="head_camera"/><child link="camera"/>'
            '</joint><joint name="opt" type="fixed"><parent link="camera"/>'
            '<child link="optical"/></joint></robot>')
    found = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False)).findings
    assert sorted((f.rule, f.link or '', f.links) for f in found if f.rule in (
        'joint-unknown-link', 'link-disconnected', 'robot-multiple-roots')) == [
        ('joint-unknown-link', 'camera', ()), ('robot-multiple-roots', '', ('stray',))]


def test_unknown_parent_is_never_guessed_as_the_joints_own_child():
    # Stretch's base IMU fragment: joint_base_imu hangs base_imu from base_link, which the
    # fragment does not define. 'base_imu' is the closest name, but a joint cannot join a
    # link to itself: it was suggested anyway ("did you mean 'base_imu'?").
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.config import CheckConfig
    from urdf_link_tools.parser import parse_urdf_string

    text = ('<robot name="imu"><link name="base_imu"/><link name="base_lin"/>'
            '<joint name="joint_base_imu" type="fixed"><parent link="base_link"/>'
            '<child link="base_imu"/></joint></robot>')
    analysis = analyze(parse_urdf_string(text, 'imu.urdf'), CheckConfig(check_meshes=False))
    (unknown,) = [f for f in analysis.findings if f.rule == 'joint-unknown-link']
    # the next closest name is given instead; with none, no guess at all
    assert "did you mean 'base_lin'?" in unknown.suggestion
    alone = text.replace('<link name="base_lin"/>', '')
    analysis = analyze(parse_urdf_string(alone, 'imu.urdf'), CheckConfig(check_meshes=False))
    (unknown,) = [f for f in analysis.findings if f.rule == 'joint-unknown-link']
    assert 'did you mean' not in unknown.suggestion


def test_a_fragment_hung_from_several_links_is_one_finding():
    # NAO's nao_sensors.xacro: 19 sensor frames hung from 'Head', 'torso', 'l_ankle' and
    # others of the robot that includes it gave 19 errors, each with the same advice; one
    # cause, one finding, naming every joint and every missing link.
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.config import CheckConfig
    from urdf_link_tools.parser import parse_urdf_string

    frames = [('head_touch', 'Head'), ('imu', 'torso'), ('sonar', 'torso'),
              ('l_bumper', 'l_ankle'), ('r_bumper', 'r_ankle')]
    text = '<robot name="sensors">' + ''.join(
        f'<link name="{frame}_frame"/><joint name="{frame}_joint" type="fixed">'
        f'<parent link="{parent}"/><child link="{frame}_frame"/></joint>'
        for frame, parent in frames) + '</robot>'
    found = analyze(parse_urdf_string(text, 'sensors.urdf'),
                    CheckConfig(check_meshes=False)).findings
    (unknown,) = [f for f in found if f.rule == 'joint-unknown-link']
    assert unknown.link is None and unknown.line == 1
    assert unknown.message.startswith(
        "5 joints name links this file does not define: 'Head', 'torso' (2 joints), "
        "'l_ankle', 'r_ankle'; the file is a part that robots include"), unknown.message
    assert unknown.links == tuple(f'{frame}_frame' for frame, _ in frames)
    assert dict(unknown.values)['joints'].split() == [f'{frame}_joint' for frame, _ in frames]
    assert '--skip-macro-files' in unknown.suggestion
    assert not [f for f in found if f.rule == 'link-disconnected']
    # a robot (it has its root) whose joints name missing parents keeps one finding per
    # joint (the mirrored bumpers' two are one)
    robot = text.replace('<robot name="sensors">', '<robot name="sensors"><link name="base">'
                         '<visual><geometry><box size="1 1 1"/></geometry></visual></link>')
    found = analyze(parse_urdf_string(robot, 'sensors.urdf'),
                    CheckConfig(check_meshes=False)).findings
    assert len([f for f in found if f.rule == 'joint-unknown-link']) == 4


def test_a_link_declared_twice_with_a_joint_each_is_one_finding():
    # Robonaut 2's r2_left_gripper.urdf declares 'r2/left_leg/ati' twice (lines 18 and 61),
    # each with its parent joint: link-duplicate-name and link-multiple-parents both fired,
    # two errors for one mistake. A link with more parents than declarations keeps both.
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.config import CheckConfig
    from urdf_link_tools.parser import parse_urdf_string

    text = ('<robot name="r"><link name="base"/>\n<link name="ati"/>\n'
            '<joint name="a" type="fixed"><parent link="base"/><child link="ati"/></joint>\n'
            '<link name="arm"/>\n'
            '<joint name="b" type="fixed"><parent link="base"/><child link="arm"/></joint>\n'
            '<link name="ati"/>\n'
            '<joint name="c" type="fixed"><parent link="arm"/><child link="ati"/></joint>\n'
            '</robot>')
    found = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False)).findings
    rules = [f.rule for f in found if f.rule in ('link-duplicate-name', 'link-multiple-parents')]
    assert rules == ['link-duplicate-name'], rules
    (duplicate,) = [f for f in found if f.rule == 'link-duplicate-name']
    assert duplicate.message == (
        "the link name 'ati' is used again (first on line 2) and 'a' (line 3), 'c' (line 7) "
        'name it as their child; URDF readers refuse the file'), duplicate.message
    third = text.replace('</robot>', '<joint name="d" type="fixed"><parent link="arm"/>'
                         '<child link="ati"/></joint></robot>')
    found = analyze(parse_urdf_string(third), CheckConfig(check_meshes=False)).findings
    assert [f.rule for f in found if f.rule in (
        'link-duplicate-name', 'link-multiple-parents')] == [
        'link-duplicate-name', 'link-multiple-parents']


@pytest.mark.parametrize('fingers, findings', [(2, 2), (3, 1), (4, 1)])
def test_links_closed_onto_by_a_macros_copies_are_one_finding(fingers, findings):
    # Sweep Q: the ReFlex hand's finger macro closes each flexure onto its distal link, one
    # error per finger for one choice. 3 or more links whose parent joints are named alike
    # but for their numbers are one finding naming them; fewer keep one each.
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.config import CheckConfig
    from urdf_link_tools.parser import parse_urdf_string

    parts = ['<link name="palm"/>']
    for i in range(1, fingers + 1):
        parts.append(
            f'<link name="flex_{i}"/><link name="distal_{i}"/>'
            f'<joint name="finger[{i}]/base" type="revolute"><parent link="palm"/>'
            f'<child link="flex_{i}"/><axis xyz="0 0 1"/>'
            '<limit lower="0" upper="1" effort="1" velocity="1"/></joint>'
            f'<joint name="finger[{i}]/flex_to_dist" type="fixed"><parent link="flex_{i}"/>'
            f'<child link="distal_{i}"/></joint>'
            f'<joint name="distal_joint_{i}" type="fixed"><parent link="palm"/>'
            f'<child link="distal_{i}"/></joint>')
    text = '<robot name="hand">' + '\n'.join(parts) + '</robot>'
    found = [f for f in analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
             .findings if f.rule == 'link-multiple-parents']
    assert len(found) == findings, [f.message for f in found]
    if findings == 1:
        (finding,) = found
        assert finding.links == tuple(f'distal_{i}' for i in range(1, fingers + 1))
        assert finding.message.startswith(f'{fingers} links are each the child of 2 joints '
                                          'named alike'), finding.message


def test_a_joint_naming_a_commented_out_link_says_where_it_is(tmp_path):
    # Fairino's FR3WML (sweep T): joint 'tool' names 'tool_Link', whose <link> is inside
    # <!-- ... -->: "fix the child link name" was no help.
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.config import CheckConfig
    from urdf_link_tools.parser import parse_urdf_string
    text = ('<robot name="r">\n<link name="base"/>\n<!-- <link\n  name="tool_Link"/> -->\n'
            '<joint name="tool" type="fixed"><parent link="base"/><child link="tool_Link"/>'
            '</joint>\n<!-- a\nb <link name="x"/>\n<link name="grip"/> -->\n<joint '
            'name="g" type="fixed"><parent link="base"/><child link="grip"/></joint>\n'
            '</robot>\n')
    path = tmp_path / 'r.urdf'
    path.write_text(text)
    found = [f for f in analyze(parse_urdf_string(text, str(path)),
                                CheckConfig(check_meshes=False)).findings
             if f.rule == 'joint-unknown-link']
    finding, grip = found
    assert finding.message.endswith('its <link> is commented out (line 3)'), finding.message
    assert grip.message.endswith('its <link> is commented out (line 8)'), grip.message
    assert finding.suggestion == ('uncomment the <link name="tool_Link"> at line 3, or remove '
                                  "joint 'tool'")


def test_a_macro_called_twice_is_one_finding_naming_both_calls(tmp_path):
    # SMARC's SAM calls its robot macro in its own file and again in the file including it:
    # 17 links and 16 joints made twice were 33 errors (sweep U), each for the one mistake.
    from cli_harness import run

    (tmp_path / 'arm.xacro').write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="arm">\n'
        '<xacro:macro name="arm">\n'
        '<link name="base"/>\n<link name="upper"/>\n<link name="lower"/>\n'
        '<joint name="shoulder" type="fixed"><parent link="base"/><child link="upper"/>'
        '</joint>\n'
        '<joint name="elbow" type="fixed"><parent link="upper"/><child link="lower"/>'
        '</joint>\n'
        '</xacro:macro>\n'
        '<xacro:arm/>\n'
        '</robot>\n')
    (tmp_path / 'robot.urdf.xacro').write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="robot">\n'
        '<xacro:include filename="arm.xacro"/>\n'
        '<xacro:arm/>\n'
        '</robot>\n')
    _, out, _ = run(['check', str(tmp_path / 'robot.urdf.xacro'), '--no-meshes',
                     '--format', 'json'])
    found = [f for f in json.loads(out)['findings'] if f['rule'].endswith('-duplicate-name')]
    assert len(found) == 1, [f['message'] for f in found]
    (finding,) = found
    assert finding['message'].startswith(
        '3 link names and 2 joint names are used again, all from one block of the '
        'description made twice (a macro called twice, or a file included twice; first on '
        "line 3, from the call of 'arm' at line 9): 'base', 'upper', 'lower', 'shoulder', "
        "'elbow'; URDF readers refuse the file"), finding['message']
    assert [call['line'] for call in finding['macro_stack']] == [3]
