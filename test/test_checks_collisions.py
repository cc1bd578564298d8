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

"""collision-overlap-at-rest on robots built for it: what is reported, depth, place, silence."""

import json

from cli_harness import ROOT, run
from collision_robots import (box_link, envelope, joint, matrix_of, OVERLAPPING as ROBOT,
                              robot, second_model)
import corpus
import numpy as np
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.cli import EXIT_USAGE
from urdf_link_tools.collision.overlap import near_pairs
from urdf_link_tools.config import CheckConfig, config_from_mapping
from urdf_link_tools.findings import Severity
from urdf_link_tools.parser import parse_urdf_string

RULE = 'collision-overlap-at-rest'
MESH = (ROOT / 'samples' / 'meshes' / 'arm_collision.stl').as_posix()


def overlaps(text: str, config: CheckConfig = CheckConfig(check_meshes=False)):
    analysis = analyze(parse_urdf_string(text), config)
    return [finding for finding in analysis.findings if finding.rule == RULE]


def test_non_adjacent_overlap_names_both_links_depth_and_place():
    found = overlaps(ROBOT.format(lower=-1, upper=1))
    assert len(found) == 1
    finding = found[0]
    values = dict(finding.values)
    assert (finding.link, values['other_link']) == ('arm', 'camera')
    assert finding.element == 'collision[0]' and values['other_element'] == 'collision[0] "lens"'
    assert float(values['depth_mm']) == pytest.approx(50.0, abs=1.0)
    point = [float(v) for v in values['point_in_link'].split()]
    assert 0.0 <= point[0] <= 0.05 and 0.25 <= point[2] <= 0.35
    assert "'arm' and 'camera' overlap at rest" in finding.message
    assert 'reason="Default"' in finding.suggestion
    assert finding.line == 3


_SPHERE_IN_DISC = (
    '<robot name="hand"><link name="base"><collision><origin xyz="0 0 -1"/><geometry>'
    '<box size="0.1 0.1 0.1"/></geometry></collision></link>'
    '<link name="wrist"><collision><origin rpy="{rpy}"/><geometry>'
    '<cylinder radius="0.025" length="0.00975"/></geometry></collision></link>'
    '<link name="thumb"><collision><origin xyz="{xyz}"/><geometry><sphere radius="0.001"/>'
    '</geometry></collision></link>'
    '<joint name="w" type="revolute"><parent link="base"/><child link="wrist"/>'
    '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
    '<joint name="t" type="prismatic"><parent link="base"/><child link="thumb"/>'
    '<axis xyz="1 0 0"/><limit lower="0" upper="0.2" effort="1" velocity="1"/></joint>'
    '</robot>')


@pytest.mark.parametrize('rpy,xyz,depth_mm', [
    ('0 0 0', '0 0 0', 5.875),  # out through a cap: 4.875 + 1, not 26 (the side)
    ('0 0 0', '0.0245 0 0.0045', 1.375),  # nearest way out: the cap, 0.375 + 1
    ('0 0 0', '0.0215 0 0', 4.5),  # nearest way out: the side, 3.5 + 1
    ('1.5707963267948966 0 0', '0 0.004 0', 1.875),  # the disc turned: caps along y
    ('0 0 0', '0 0 0.0055', 0.375)])  # the centre outside: coal measures it
def test_a_sphere_inside_a_cylinder_is_as_deep_as_its_nearest_way_out(rpy, xyz, depth_mm):
    # TIAGo's hand: 1 mm spheres at the middle of a 9.75 mm thick wrist disc of radius 25 mm
    # were "about 26 mm deep" (coal's sphere-cylinder depth measures the side only).
    (finding,) = overlaps(_SPHERE_IN_DISC.format(rpy=rpy, xyz=xyz))
    assert float(dict(finding.values)['depth_mm']) == pytest.approx(depth_mm, abs=0.01)


def test_a_pair_the_srdf_disables_is_not_reported(tmp_path):
    # The arm and the camera overlap on purpose here: the MoveIt config's SRDF disables the
    # pair, and MoveIt never checks it. In the configuration, as a node parameter gives it
    # ('LINK1 LINK2', either order), and from the SRDF file with --srdf. The SRDF declares
    # the overlap meant: left out for every target (MuJoCo's exclusions are written apart).
    text = ROBOT.format(lower=-1, upper=1)
    config = CheckConfig(check_meshes=False)
    assert len(overlaps(text, config)) == 1
    for entry in (['camera arm'], ['arm camera', ''], [('arm', 'camera')]):
        silenced = config_from_mapping({'disabled_collisions': entry}, config)
        assert silenced.disabled_collisions == frozenset({('arm', 'camera')})
        assert overlaps(text, silenced) == []
    assert overlaps(text, config_from_mapping({'disabled_collisions': ['arm tool']}, config))
    with pytest.raises(ValueError, match='is not two link names'):
        config_from_mapping({'disabled_collisions': ['arm']}, config)
    robot = tmp_path / 'robot.urdf'
    robot.write_text(text)
    srdf = tmp_path / 'robot.srdf'
    srdf.write_text('<robot name="overlapping"><disable_collisions link1="camera" link2="arm" '
                    'reason="Never"/></robot>')
    status, out, _ = run(['check', str(robot), '--no-meshes', '--format', 'json'])
    assert RULE in [finding['rule'] for finding in json.loads(out)['findings']]
    status, out, _ = run(['check', str(robot), '--no-meshes', '--format', 'json',
                          '--srdf', str(srdf)])
    assert RULE not in [finding['rule'] for finding in json.loads(out)['findings']]
    status, _, err = run(['check', str(robot), '--srdf', str(tmp_path / 'none.srdf')])
    assert status == EXIT_USAGE and '--srdf' in err and 'cannot read it' in err
    srdf.write_text('<robot><disable_collisions')
    status, _, err = run(['check', str(robot), '--srdf', str(srdf)])
    assert status == EXIT_USAGE and f'--srdf {srdf}' in err


@pytest.mark.parametrize('git', [True, False])
def test_the_srdf_of_the_descriptions_repository_is_named_when_none_is_given(
        tmp_path, monkeypatch, git):
    # Ewellix's lift (sweep S): its telescope's stages overlap by design, and its MoveIt
    # config's SRDF, in the same repository, disables the pair; checked without --srdf, the
    # warning told nothing of it.
    repository = tmp_path / 'repo'
    description = repository / 'robot_description' / 'urdf'
    config = repository / 'robot_moveit_config' / 'config'
    description.mkdir(parents=True)
    config.mkdir(parents=True)
    if git:
        (repository / '.git').mkdir()
    (repository / 'robot_description' / 'package.xml').write_text(
        '<package format="3"><name>robot_description</name></package>')
    robot = description / 'robot.urdf'
    robot.write_text(ROBOT.format(lower=-1, upper=1))
    (config / 'robot.srdf').write_text(
        '<robot name="overlapping"><disable_collisions link1="camera" link2="arm" '
        'reason="Never"/></robot>')
    (config / 'other.srdf').write_text('<robot name="o"><disable_collisions link1="tool" '
                                       'link2="base" reason="Never"/></robot>')
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(['check', str(robot), '--no-meshes', '--format', 'json'])
    (finding,) = [f for f in json.loads(out)['findings'] if f['rule'] == RULE]
    named = ('repo/robot_moveit_config/config/robot.srdf, in this repository, disables 1 of '
             'the 1 pairs reported here: give it with --srdf '
             'repo/robot_moveit_config/config/robot.srdf')
    # only inside the git work tree holding the description (without one, its package)
    assert finding['suggestion'].startswith(named) == git, finding['suggestion']
    # given, nothing is said (and the pair is left out)
    status, out, _ = run(['check', str(robot), '--no-meshes', '--format', 'json', '--srdf',
                          str(config / 'robot.srdf')])
    assert RULE not in [f['rule'] for f in json.loads(out)['findings']]


def test_a_fifo_named_srdf_in_the_checkout_is_passed_over(tmp_path):
    # Review 12: the SRDF hint opened every *.srdf of the checkout, and a FIFO blocked the
    # open for good (no output, no timeout). Now only regular files are read, non-blocking.
    import os
    import subprocess
    import sys
    (tmp_path / '.git').mkdir()
    robot = tmp_path / 'robot.urdf'
    robot.write_text(ROBOT.format(lower=-1, upper=1))
    os.mkfifo(tmp_path / 'config.srdf')
    (tmp_path / 'robot.srdf').write_text(
        '<robot name="overlapping"><disable_collisions link1="camera" link2="arm" '
        'reason="Never"/></robot>')
    done = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', str(robot), '--no-meshes',
         '--format', 'json'], capture_output=True, text=True, timeout=60, cwd=str(tmp_path))
    (finding,) = [f for f in json.loads(done.stdout)['findings'] if f['rule'] == RULE]
    assert finding['suggestion'].startswith('robot.srdf, in this repository, disables 1 of'), \
        finding['suggestion']


def test_an_srdf_that_cannot_be_the_moveit_configs_is_said(tmp_path):
    # A new user gave an unexpanded .srdf.xacro and the robot's own URDF as --srdf: both were
    # taken silently, disabling nothing.
    robot = tmp_path / 'robot.urdf'
    robot.write_text(ROBOT.format(lower=-1, upper=1))
    status, _, err = run(['check', str(robot), '--srdf', str(robot)])
    assert status == EXIT_USAGE and 'this is a URDF' in err
    xacro_srdf = tmp_path / 'robot.srdf.xacro'
    xacro_srdf.write_text('<robot xmlns:xacro="http://wiki.ros.org/xacro" name="r">'
                          '<xacro:arg name="prefix" default=""/><disable_collisions '
                          'link1="$(arg prefix)arm" link2="$(arg prefix)camera" '
                          'reason="Never"/></robot>')
    # A .srdf.xacro is expanded as the robot is, with the same arguments (Kassow's SRDF,
    # expanded by hand with its default prefix, named none of the robot's links).
    status, out, err = run(['check', str(robot), '--no-meshes', '--format', 'json',
                            '--srdf', str(xacro_srdf)])
    assert status in (0, 1, 2) and RULE not in out, err
    robot_xacro = tmp_path / 'robot.urdf.xacro'
    robot_xacro.write_text(ROBOT.format(lower=-1, upper=1))
    status, out, err = run(['check', str(robot_xacro), '--no-meshes', '--format', 'json',
                            '--srdf', str(xacro_srdf), 'prefix:=r_'])
    rules = [finding['rule'] for finding in json.loads(out)['findings']]
    assert RULE in rules and 'srdf-unknown-links' in rules, err
    # xacro in a file not named .xacro is not run: said.
    disguised = tmp_path / 'robot_xacro.srdf'
    disguised.write_text(xacro_srdf.read_text())
    status, _, err = run(['check', str(robot), '--srdf', str(disguised)])
    assert status == EXIT_USAGE and 'this SRDF is xacro: expand it first' in err
    empty = tmp_path / 'empty.srdf'
    empty.write_text('<robot name="r"><group name="arm"><link name="arm"/></group></robot>')
    status, out, err = run(['check', str(robot), '--no-meshes', '--srdf', str(empty),
                            '--fail-on', 'never'])
    assert status == 0 and 'disables no pair of links' in err and RULE in out


def test_rest_is_the_middle_of_limits_that_exclude_zero():
    # j1 in [1.2, 1.8]: at rest the arm lies near horizontal (1.5 rad), clear of the camera
    assert overlaps(ROBOT.format(lower=1.2, upper=1.8)) == []


def test_adjacent_overlaps_are_silent():
    # the camera moved into the base's edge, clear of the arm; the tool sits on the arm's top
    text = ROBOT.format(lower=-1, upper=1).replace('"0.05 0 0.3"', '"0.2 0 0"')
    assert overlaps(text) == []


def test_mesh_overlap_uses_the_triangles_read(tmp_path):
    text = f"""<robot name="m">
      <link name="base"><collision><geometry><box size="0.01 0.01 0.01"/></geometry>
        </collision></link>
      <link name="a"><collision><geometry><mesh filename="{MESH}"/></geometry></collision></link>
      <link name="b"><collision><geometry><mesh filename="{MESH}" scale="-1 1 1"/></geometry>
        </collision></link>
      <joint name="ja" type="continuous"><parent link="base"/><child link="a"/></joint>
      <joint name="jb" type="continuous"><parent link="base"/><child link="b"/>
        <origin xyz="0.01 0 0"/></joint>
    </robot>"""
    path = tmp_path / 'm.urdf'
    path.write_text(text)
    with_meshes = overlaps(text, CheckConfig())
    assert [(f.link, dict(f.values)['other_link']) for f in with_meshes] == [('a', 'b')]
    assert overlaps(text) == []  # --no-meshes: nothing to test the meshes with
    status, stdout, _ = run(['check', str(path), '--fail-on', 'warning'])
    assert status != 0 and f'warning: {RULE}' in stdout  # (and two massless moving links)


@pytest.mark.parametrize('name', ['panda.urdf', 'ur5_robot.urdf'])
def test_overlaps_at_rest_are_the_matrix_default_pairs(name):
    # panda at MoveIt's default state (joint4 and joint6 mid-range: folded) touches its hand
    # to link5; its fingers overlap (moveit_resources' SRDF disables them as Default too)
    text = corpus.urdf_path(name).read_bytes()
    found = {(f.link, dict(f.values)['other_link']) for f in overlaps(text, CheckConfig())}
    assert found == set(matrix_of(text, samples=0).pairs('Default'))
    assert found == ({('panda_hand', 'panda_link5'), ('panda_leftfinger', 'panda_rightfinger'),
                      ('panda_link5', 'panda_link7')} if name == 'panda.urdf' else set())


@pytest.mark.parametrize('count, spread', [(2, 0.1), (50, 1.0), (300, 3.0), (300, 0.2)])
def test_sweep_finds_every_pair_of_overlapping_spheres(count, spread):
    rng = np.random.default_rng(count)
    centres = rng.random((count, 3)) * spread
    radii = rng.random(count) * 0.1
    pairs, truncated = near_pairs(centres, radii, 10**9)
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    expected = {(i, j) for i in range(count) for j in range(i + 1, count)
                if distance[i, j] <= radii[i] + radii[j]}
    assert not truncated
    assert {tuple(sorted(map(int, p))) for p in pairs} == expected


def test_a_pile_of_links_is_cut_and_said():
    links = ''.join(f'<link name="l{i}"><collision><geometry><sphere radius="0.1"/></geometry>'
                    f'</collision></link>' for i in range(260))
    joints = ''.join(f'<joint name="j{i}" type="fixed"><parent link="l0"/>'
                     f'<child link="l{i}"/></joint>' for i in range(1, 260))
    analysis = analyze(parse_urdf_string(f'<robot name="pile">{links}{joints}</robot>'),
                       CheckConfig(check_meshes=False, max_findings_per_rule=100000))
    rules = [finding.rule for finding in analysis.findings]
    assert 'collision-overlap-not-all-tested' in rules
    assert 0 < rules.count(RULE) <= 20_000


def test_an_ignored_rule_does_not_load_the_collision_library():
    # (both rules that collide parts at rest: MuJoCo's adjacent pairs need coal too)
    import subprocess
    import sys
    code = ('import sys\n'
            'from urdf_link_tools.analysis import analyze\n'
            'from urdf_link_tools.config import CheckConfig\n'
            'from urdf_link_tools.parser import parse_urdf_string\n'
            f'text = {ROBOT.format(lower=-1, upper=1)!r}\n'
            "ignored = CheckConfig(check_meshes=False, ignore_rules=frozenset({'" + RULE
            + "', 'mujoco-joined-links-collide'}))\n"
            'analyze(parse_urdf_string(text), ignored)\n'
            "print('coal' in sys.modules)\n"
            'analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))\n'
            "print('coal' in sys.modules)\n")
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          timeout=120, cwd=str(ROOT))
    assert done.stdout.split() == ['False', 'True'], done.stderr


FLAT_OVERLAP = """<robot name="flat">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><origin xyz="-0.1 -0.1 0"/><geometry><mesh filename="quad.stl"/></geometry>
    </collision></link>
  <link name="arm"><inertial><mass value="1"/>
    <inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.004"/></inertial>
    <collision><geometry><sphere radius="0.01"/></geometry></collision></link>
  <link name="hand"><inertial><mass value="1"/>
    <inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.004"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.5"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="k" type="fixed"><parent link="arm"/><child link="hand"/>
    <origin xyz="0 0 -0.5"/></joint>
</robot>
"""


def test_a_flat_collision_mesh_in_an_overlap_does_not_crash_the_check(tmp_path):
    # coal's Qhull ended the process with a segmentation fault on the quad's flat hull when
    # the depth of the overlap was measured; run in a child so a crash fails this test only.
    import struct
    import subprocess
    import sys
    quad = [((0, 0, 0), (0.2, 0, 0), (0.2, 0.2, 0)), ((0, 0, 0), (0.2, 0.2, 0), (0, 0.2, 0))]
    with open(tmp_path / 'quad.stl', 'wb') as stream:
        stream.write(b'\0' * 80 + struct.pack('<I', len(quad)))
        for triangle in quad:
            stream.write(struct.pack('<3f', 0, 0, 1))
            for vertex in triangle:
                stream.write(struct.pack('<3f', *vertex))
            stream.write(b'\0\0')
    (tmp_path / 'flat.urdf').write_text(FLAT_OVERLAP)
    done = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', str(tmp_path / 'flat.urdf'),
         '--fail-on', 'never'], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert "collision-overlap-at-rest: collision[0]: 'base' and 'hand' overlap" in done.stdout
    assert 'touching (less than 0.1 mm deep, as the parts of a CAD assembly touch)' in done.stdout


def test_a_link_overlapping_many_is_one_finding_listing_them():
    # A safety box around a hand's fingers is one design choice: one finding on the box,
    # naming every finger, with each pair's depth and place for the markers and the page.
    (finding,) = overlaps(envelope(4))
    values = dict(finding.values)
    assert finding.link == 'shell' and sorted(finding.links[1:]) == ['f1', 'f2', 'f3', 'f4']
    assert finding.links[0] == 'shell' and values['count'] == '4'
    assert 'intersects that of 4 links at rest' in finding.message
    assert values['other_link'] == finding.links[1]  # the deepest comes first
    depths = [float(value) for value in values['depths_mm'].split()]
    assert len(depths) == 4 and depths == sorted(depths, reverse=True)
    assert float(values['depth_mm']) == depths[0] > 0.0
    points = [[float(v) for v in text.split()] for text in values['points_in_link'].split(';')]
    assert len(points) == 4 and all(abs(point[2] - 0.19) < 0.02 for point in points)
    assert 'disable its 4 pairs in the SRDF' in finding.suggestion
    assert 'link1="shell"' in finding.suggestion


def test_a_second_collision_model_is_one_finding_naming_every_pair():
    # Franka's arm: each link carries its coarse self-collision capsules on a collision-only
    # link fixed to it (panda_link1_sc ...), which reach into the neighbouring links at rest:
    # 23 pairs, ten findings before (envelopes and pairs), one design choice. The finding
    # lists every pair with its depth and place; each link of the second model owns it.
    from urdf_link_tools.reports.scene import collision_pairs
    analysis = analyze(parse_urdf_string(second_model(2)), CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings if f.rule == RULE]
    values = dict(finding.values)
    assert finding.severity == Severity.WARNING
    assert values['second_model_links'] == 'link1_sc, link2_sc'
    assert finding.link in ('link1_sc', 'link2_sc')
    assert values['pairs'] == 'link1_sc, link2_sc; link2_sc, link1; link1_sc, base'
    assert values['count'] == '3'
    depths = [float(value) for value in values['depths_mm'].split()]
    assert depths == sorted(depths, reverse=True) and len(depths) == 3
    assert float(values['depth_mm']) == depths[0] == pytest.approx(120.0, abs=1.0)
    points = [[float(v) for v in text.split()] for text in values['points_in_root'].split(';')]
    assert len(points) == 3 and all(0.0 <= point[2] <= 0.6 for point in points)
    assert sorted(finding.links) == ['base', 'link1', 'link1_sc', 'link2_sc']
    assert '2 collision-only links fixed to links with collision geometry of their own' in \
        finding.message
    assert 'in 3 pairs, also with link1, base' in finding.message
    assert 'disable its 3 pairs in the SRDF' in finding.suggestion
    assert 'leave the second model out of the description' in finding.suggestion
    # Both links of the second model own it; the links they overlap list it.
    assert finding in analysis.link_findings('link1_sc')
    assert finding in analysis.link_findings('link2_sc')
    assert finding not in analysis.link_findings('base')
    assert finding in analysis.findings_about('base')
    assert {'base', 'link1', 'link1_sc', 'link2_sc'} <= analysis.concerned_links()
    assert sorted(tuple(sorted(pair['links'])) for pair in collision_pairs(analysis)) == [
        ('base', 'link1_sc'), ('link1', 'link2_sc'), ('link1_sc', 'link2_sc')]


def test_one_collision_only_link_keeps_its_overlaps_as_pairs():
    # A single collision-only link fixed to its parent (a bumper, Franka's hand alone) is
    # not a second model: its overlaps are reported as usual.
    found = overlaps(second_model(1))
    assert [(f.link, dict(f.values)['other_link']) for f in found] == [('link1', 'link2_sc')]
    assert 'second_model_links' not in dict(found[0].values)


def test_three_pairs_welded_together_are_one_info_naming_every_pair():
    # A kitchen's drawers: five panels welded together whose edges overlap, two findings per
    # drawer (38 infos on one asset); TALOS's grippers: motor and inner links welded. From 3
    # pairs of links welded together, one info with every pair and its SRDF entry.
    from urdf_link_tools.reports.scene import collision_pairs
    panels = [box_link(f'panel{i}', '0.1 0.1 0.02', f'0 0 {0.015 * i}') for i in range(4)]
    welds = [joint(f'w{i}', 'fixed', 'base', f'panel{i}', '0.5 0 0') for i in range(4)]
    text = robot('drawer', box_link('base', '0.05 0.05 0.05'), *panels, *welds)
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings if f.rule == RULE]
    values = dict(finding.values)
    assert finding.severity == Severity.INFO
    assert finding.message.startswith('3 pairs of links welded together (fixed joints) overlap '
                                      'at rest (panel0 and panel1, panel1 and panel2, panel2 '
                                      'and panel3): they never move apart')
    assert values['pairs'] == 'panel0, panel1; panel1, panel2; panel2, panel3'
    assert finding.suggestion.startswith('Disable its 3 pairs in the SRDF (<disable_collisions '
                                         'link1="panel0" link2="panel1" reason="Always"/>')
    assert sorted(finding.links) == ['panel0', 'panel1', 'panel2', 'panel3']
    assert [pair['severity'] for pair in collision_pairs(analysis)] == ['info'] * 3
    # two pairs stay two pair findings
    two = robot('drawer', box_link('base', '0.05 0.05 0.05'), *panels[:3], *welds[:3])
    assert len(overlaps(two)) == 2


def test_links_welded_together_overlap_as_an_info_with_the_srdf_entry():
    # ANYmal's face and lidar cage, both fixed to the trunk, never move apart: simulators
    # fuse them (MuJoCo skips contacts within a weld), MoveIt Setup Assistant disables the
    # pair as "Always". A link that moves into the same geometry stays a warning.
    def with_arm(arm_joint: str) -> str:
        return robot(
            'welded', box_link('trunk', '0.4 0.4 0.1'),
            box_link('face', '0.1 0.2 0.2', '0.3 0 0'),
            box_link('cage', '0.1 0.2 0.2', '0.35 0 0'),
            box_link('arm', '0.1 0.1 0.1', '0 0 0'),
            joint('jf', 'fixed', 'trunk', 'face'), joint('jc', 'fixed', 'trunk', 'cage'),
            joint('ja', arm_joint, 'trunk', 'arm', '0.3 0 0.14'))
    found = {(f.link, dict(f.values)['other_link']): f for f in overlaps(with_arm('fixed'))}
    welded = found[('cage', 'face')]
    assert welded.severity == Severity.INFO
    assert 'welded together (fixed joints)' in welded.message
    assert 'reason="Always"' in welded.suggestion
    assert all(f.severity == Severity.INFO for f in found.values())
    moving = {(f.link, dict(f.values)['other_link']): f for f in overlaps(with_arm('revolute'))}
    assert moving[('cage', 'face')].severity == Severity.INFO
    arm = [f for key, f in moving.items() if 'arm' in key]
    assert arm and all(f.severity == Severity.WARNING and 'welded' not in f.message
                       for f in arm)


def column(plate, lift_xyz, arm_xyz):
    """Return a fixed shell holding a plate welded to it (size, xyz), a lift and an arm."""
    return robot(
        'column', box_link('trunk', '0.4 0.4 0.1'), box_link('shell', '0.6 0.6 0.6', '0.5 0 0.5'),
        box_link('plate', *plate), box_link('lift', '0.05 0.05 0.05', lift_xyz),
        box_link('arm', '0.05 0.05 0.05', arm_xyz),
        joint('js', 'fixed', 'trunk', 'shell'), joint('jp', 'fixed', 'trunk', 'plate'),
        joint('jl', 'prismatic', 'trunk', 'lift'), joint('ja', 'revolute', 'trunk', 'arm'))


def on_the_world(text: str, root: str = 'trunk') -> str:
    """Return a robot with its root welded to a 'world' link (a base meant fixed)."""
    return text.replace(f'<link name="{root}"', '<link name="world"/><joint name="jw" '
                        f'type="fixed"><parent link="world"/><child link="{root}"/></joint>'
                        f'<link name="{root}"', 1)


def test_an_envelope_names_the_links_welded_to_it():
    # TIAGo's torso column holds the lift, the first arm link and the torso plate welded
    # to it: one warning, which says that the welded pair never changes and gives it the
    # SRDF reason "Always"; the HTML page draws that pair as an info.
    from urdf_link_tools.reports.scene import collision_pairs
    text = column(('0.05 0.05 0.05', '0.3 0 0.5'), '0.7 0 0.5', '0.5 0 0.7')
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings if f.rule == RULE]
    assert finding.severity == Severity.WARNING and finding.link == 'shell'
    assert sorted(finding.links[1:]) == ['arm', 'lift', 'plate']
    assert 'plate is welded to it (fixed joints), so that overlap never changes' in \
        finding.message
    assert '(reason="Always" for plate)' in finding.suggestion
    # MuJoCo fuses the plate into the world body with the trunk and the shell, and collides
    # that body with its children (the world's are not filtered): the lift and the arm (the
    # trunk stands on nothing but itself: no legs or wheels, its base is meant fixed)
    assert finding.suggestion.endswith(
        'for MuJoCo add <exclude body1="arm" body2="world"/><exclude body1="lift" '
        'body2="world"/> to the MJCF\'s <contact> (MuJoCo names the bodies after the link '
        'each is welded to, "world" for the base)'), finding.suggestion
    assert dict(finding.values)['welded_links'] == 'plate'
    severities = {pair['links'][1]: pair['severity'] for pair in collision_pairs(analysis)}
    assert severities == {'plate': 'info', 'lift': 'warning', 'arm': 'warning'}


def four_bar(second: bool = False) -> str:
    """Return a gripper's four-bar (two with ``second``, both on the finger joint)."""
    parts = [box_link('base', '0.1 0.1 0.02'), box_link('outer', '0.02 0.02 0.06', '0 0 0.03'),
             joint('finger_joint', 'revolute', 'base', 'outer', '0 0 0.05', '0 1 0', 0.0, 0.8)]
    for suffix, y in (('', 0), ('2', 0.5)) if second else (('', 0),):
        parts += [box_link(f'tip{suffix}', '0.06 0.02 0.04', '0 0 0.02'),
                  box_link(f'inner{suffix}', '0.02 0.02 0.1', '0.025 0 0.05'),
                  joint(f'tip{suffix}_joint', 'revolute', 'outer', f'tip{suffix}',
                        f'0 {y} 0.06', '0 1 0', -0.8, 0.0,
                        mimic='joint="finger_joint" multiplier="-1"'),
                  joint(f'inner{suffix}_joint', 'revolute', 'base', f'inner{suffix}',
                        f'0 {y} 0.05', '0 1 0', 0.0, 0.8, mimic='joint="finger_joint"')]
    return robot('gripper', *parts)


def test_the_two_sides_of_a_closed_linkage_are_told_to_be_disabled_not_moved():
    # Robotiq's 2F-85: the inner knuckle (mimics the finger joint) and the finger tip (on
    # the outer knuckle, the finger joint, then a mimic) meet at the four-bar's pin, which
    # URDF cannot express. "Move or shrink the geometry" was the wrong first advice.
    text = four_bar()
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings if f.rule == RULE]
    assert {finding.link, dict(finding.values)['other_link']} == {'inner', 'tip'}
    assert finding.suggestion.startswith(
        "both move only with joint 'finger_joint' (the joints between them follow it through "
        '<mimic>): if they are coupled parts meant to touch (closed gripper fingers, the two '
        "sides of a closed linkage such as a four-bar's pin, which URDF cannot express), "
        'declare it: add <disable_collisions link1="inner" '
        'link2="tip" reason="Default"/> to the SRDF'), finding.suggestion
    assert finding.suggestion.endswith(
        "; otherwise move or shrink the collision geometry of 'inner' or 'tip'")
    # without the mimic, two joints move them apart: the usual advice
    free = text.replace('<mimic joint="finger_joint"/>', '')
    (finding,) = [f for f in analyze(parse_urdf_string(free), CheckConfig(
        check_meshes=False)).findings if f.rule == RULE]
    assert finding.suggestion.startswith("move or shrink the collision geometry of 'inner'")


def test_the_pairs_of_one_linkage_are_one_finding():
    # TALOS's gripper: one joint (gripper_left_joint) moves its motor, inner and fingertip
    # links through <mimic>; 5 pairs overlapping at rest were an envelope and 2 pairs.
    text = four_bar(second=True)
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings if f.rule == RULE]
    assert dict(finding.values)['driver'] == 'finger_joint'
    assert sorted(dict(finding.values)['pairs'].split('; ')) == ['inner, tip', 'inner2, tip2']
    assert finding.message.startswith(
        "2 pairs of links that only joint 'finger_joint' moves (the joints between them "
        'follow it through <mimic>) overlap at rest'), finding.message
    assert finding.suggestion.startswith('if they are coupled parts meant to touch, declare '
                                         'it: disable its 2 pairs in the SRDF')
    assert finding.suggestion.endswith('; otherwise move or shrink their collision geometry')


def test_a_linkage_part_over_three_of_its_parts_is_the_linkage_finding():
    # TALOS's gripper: its motor_double link (the driving joint's) overlaps three links
    # that follow it through <mimic>: an envelope, and 2 more pairs of the same gripper were
    # a second finding for the one mechanism.
    def gripper(mimic_of_a: bool) -> str:
        parts = [box_link('base', '0.01 0.01 0.01', '0 0 -1'), box_link('motor', '0.3 0.1 0.04'),
                 joint('finger_joint', 'revolute', 'base', 'motor', axis='0 1 0')]
        for name, x in (('a', -0.16), ('b', 0.0), ('c', 0.16), ('d', -0.2)):
            follows = mimic_of_a or name != 'a'
            parts += [box_link(name, '0.05 0.05 0.05', f'{x} 0 0'),
                      joint(f'{name}_joint', 'revolute', 'base', name, axis='0 1 0',
                            mimic='joint="finger_joint" multiplier="-1"' if follows else None)]
        return robot('gripper', *parts)

    findings = [f for f in analyze(parse_urdf_string(gripper(True)), CheckConfig(
        check_meshes=False)).findings if f.rule == RULE]
    assert len(findings) == 1, [f.message for f in findings]
    values = dict(findings[0].values)
    assert values['driver'] == 'finger_joint' and values['count'] == '4'
    assert sorted(values['pairs'].split('; ')) == ['a, d', 'a, motor', 'b, motor', 'c, motor']
    # 'a' on a joint of its own: the motor link is an envelope again (not one mechanism)
    findings = [f for f in analyze(parse_urdf_string(gripper(False)), CheckConfig(
        check_meshes=False)).findings if f.rule == RULE]
    envelope = [f for f in findings if f.link == 'motor']
    assert len(envelope) == 1 and 'intersects that of 3 links at rest' in \
        envelope[0].message, [f.message for f in findings]


def test_one_mujoco_exclude_per_pair_of_bodies():
    # Fetch's bellows overlaps base_link and torso_fixed_link, both welded to the root: two
    # pairs of links, one pair of MuJoCo bodies (world, bellows), which was suggested twice,
    # once in each order.
    text = robot(
        'bellows', box_link('trunk', '0.4 0.4 0.1'),
        box_link('a_shell', '0.1 0.1 0.1', '1 0 0'), box_link('plate', '0.1 0.1 0.1', '1 0.25 0'),
        box_link('bellows', '0.1 0.4 0.1', '1 0.1 0'),
        box_link('arm', '0.1 0.1 0.1', '1 0.11 0.09'),
        joint('js', 'fixed', 'trunk', 'a_shell'), joint('jp', 'fixed', 'trunk', 'plate'),
        joint('jb', 'prismatic', 'trunk', 'bellows'), joint('ja', 'revolute', 'trunk', 'arm'))
    # (its base welded to the world; a floating base's children are its body's, skipped)
    analysis = analyze(parse_urdf_string(on_the_world(text)), CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings if f.rule == RULE]
    assert finding.link == 'bellows' and sorted(finding.links[1:]) == ['a_shell', 'arm', 'plate']
    fix = finding.suggestion[finding.suggestion.index('for MuJoCo add '):]
    assert fix.startswith('for MuJoCo add <exclude body1="world" body2="bellows"/><exclude '
                          'body1="arm" body2="bellows"/> to the MJCF')


@pytest.mark.parametrize('count', [4, 10])
def test_the_mujoco_fix_names_every_pair_of_bodies(count):
    # Trossen's mobile base overlaps its 4 casters: the fix wrote 3 excludes and '(one per
    # pair)', and pasted, it left the fourth pair colliding. Up to 8 are written out; past
    # them every other pair is named.
    # each wheel under a swivel (its small box well above): not adjacent to the base
    wheels = [box_link(f's{i}', '0.01 0.01 0.01', '0 0 1') + box_link(f'w{i}', '0.05 0.05 0.05')
              for i in range(count)]
    joints = [joint(f's{i}', 'revolute', 'base', f's{i}', f'{0.1 * i - 0.45} 0 0')
              + joint(f'j{i}', 'revolute', f's{i}', f'w{i}', axis='1 0 0') for i in range(count)]
    text = robot('cart', box_link('base', '1 0.2 0.05'), *wheels, *joints)
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings if f.rule == RULE]
    assert sorted(finding.links) == sorted(['base'] + [f'w{i}' for i in range(count)])
    fix = finding.suggestion[finding.suggestion.index('for MuJoCo add '):]
    written = [f'w{i}' for i in range(count)
               if f'<exclude body1="world" body2="w{i}"/>' in fix]
    named = [f'w{i}' for i in range(count) if f'world and w{i}' in fix]
    assert len(written) == min(count, 8) and sorted(written + named) == \
        sorted(f'w{i}' for i in range(count))
    assert ('one per pair for the other 2 (' in fix) == (count == 10)


def test_an_envelope_leads_with_a_pair_that_moves_apart():
    # ROBOTIS's OMY wrist: its deepest overlap was the gripper base welded to it (an info of
    # its own) and headed a warning; the warning now shows the deepest pair that moves, and
    # says that MuJoCo, which fuses the welded one, sees only the others.
    text = on_the_world(column(('0.4 0.4 0.4', '0.5 0 0.5'), '0.78 0 0.5', '0.5 0 0.78'))
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    found = [f for f in analysis.findings if f.rule == RULE]
    (finding,) = [f for f in found if f.links]
    values = dict(finding.values)
    depths = [float(value) for value in values['depths_mm'].split()]
    assert finding.links[1] == 'plate' and depths[0] == max(depths)  # the welded is deepest
    assert values['other_link'] in ('lift', 'arm')
    assert float(values['depth_mm']) == max(depths[1:])
    assert f"the deepest of those not welded to it is '{values['other_link']}'" in \
        finding.message
    assert 'MuJoCo pushes them apart from the first step (contacts at start; for MuJoCo 2 ' \
        'of the 3 pairs: it fuses welded links and skips a body and its parent)' in \
        finding.message


def test_an_overlap_of_two_links_is_about_both():
    # get_link_findings('panda_rightfinger') answered nothing while panda_leftfinger carried
    # the fingers' overlap: a planner asking about either link gets it.
    analysis = analyze(parse_urdf_string(ROBOT.format(lower=-1, upper=1)),
                       CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings if f.rule == RULE]
    other = dict(finding.values)['other_link']
    assert finding in analysis.findings_about(finding.link)
    assert finding in analysis.findings_about(other)
    assert other in analysis.concerned_links()


def test_fewer_than_three_overlaps_of_a_link_stay_pairs():
    # (two numbered parts as deep in it: one pair finding naming its copy, wherever each
    # contact patch's point falls; ARX X7's two grippers)
    (found,) = overlaps(envelope(2))
    assert (found.link, dict(found.values)['other_link']) == ('f1', 'shell')
    assert "the copy pair 'f2' and 'shell'" in found.message
    # The SRDF's pairs are left out before grouping: two of four left are two pairs.
    silenced = CheckConfig(check_meshes=False,
                           disabled_collisions=frozenset({('f1', 'shell'), ('f2', 'shell')}))
    (left,) = overlaps(envelope(4), silenced)
    assert left.link == 'f3' and "the copy pair 'f4' and 'shell'" in left.message


def test_an_envelope_over_many_links_is_one_bounded_finding():
    # A generated robot whose box holds 120 links: one finding listing all of them, the
    # depth and place of the deepest 100 pairs (the finding and /diagnostics stay small).
    from urdf_link_tools.checks.collisions import ENVELOPE_DETAIL
    (finding,) = overlaps(envelope(120))
    values = dict(finding.values)
    assert len(finding.links) == 121 and values['count'] == '120'
    assert len(values['depths_mm'].split()) == ENVELOPE_DETAIL == 100
    assert len(values['points_in_link'].split(';')) == ENVELOPE_DETAIL
    assert 'and 110 more' in finding.message


def two_branches(reach):
    """Return two arms of three links each from one base, whose last two links meet at rest."""
    parts = [box_link('base', '0.05 0.05 0.05', '0 0 -1')]
    for side, sign in (('a', 1), ('b', -1)):
        parts += [box_link(f'{side}1', '0.05 0.05 0.05', f'0 {sign * 0.5} 0'),
                  box_link(f'{side}2', '0.1 0.1 0.1'), box_link(f'{side}3', '0.1 0.1 0.1'),
                  joint(f'{side}j1', 'revolute', 'base', f'{side}1'),
                  joint(f'{side}j2', 'revolute', f'{side}1', f'{side}2',
                        f'0 {sign * reach} 0'),
                  joint(f'{side}j3', 'revolute', f'{side}2', f'{side}3', '0 0 0.08')]
    return robot('branches', *parts)


def test_two_branches_meeting_at_rest_are_one_finding():
    # YuMi: both wrists at one point at rest, 12 pairs between the two arms, were 6 findings.
    (finding,) = overlaps(two_branches(0.0))
    values = dict(finding.values)
    assert values['branches'] == 'a1, b1' and values['count'] == '4'
    assert finding.message.startswith(
        "the branch from 'a1' and the branch from 'b1' overlap at rest in 4 pairs of links")
    assert finding.suggestion.startswith('if the branches are not meant to meet at rest')
    assert sorted(finding.links) == ['a2', 'a3', 'b2', 'b3']
    assert finding.suggestion.count('<disable_collisions') == 1  # one example, 'one per pair'
    # Apart, nothing; one link of a branch over many of the other is an envelope instead.
    assert overlaps(two_branches(0.5)) == []


def test_links_that_all_overlap_each_other_are_one_finding():
    # REEM-C's Hey5 hand: three actuators and the wrist's tool link hold placeholder spheres
    # at one point; every pair overlaps. 6 pairs were 4 findings (an envelope and 3 pairs).
    parts = [box_link('base', '0.05 0.05 0.05', '0 0 -1')]
    for name in ('thumb', 'index', 'little', 'tool'):
        parts += [box_link(name, '0.02 0.02 0.02'), joint(f'j_{name}', 'revolute', 'base', name)]
    (finding,) = overlaps(robot('hand', *parts))
    assert finding.message.startswith('4 links overlap each other at rest, every pair of them '
                                      '(index, little, thumb, tool, 6 pairs)'), finding.message
    assert dict(finding.values)['count'] == '6'
    # A fifth link overlapping only the tool: the set no longer all overlaps each other.
    parts[-2] = box_link('tool', '0.06 0.02 0.02')
    parts += [box_link('palm', '0.02 0.02 0.02', '0.035 0 0'),
              joint('j_palm', 'revolute', 'base', 'palm')]
    assert not any(f.message.startswith('5 links') for f in overlaps(robot('hand', *parts)))


def telescope(axes=('1 0 0', '1 0 0', '1 0 0'), wrist=False):
    """Return a base far away and four nested segments on three prismatic joints."""
    parts = [box_link('base', '0.05 0.05 0.05', '0 0 -1'),
             joint('mount', 'fixed', 'base', 's0')]
    sizes = ('0.4 0.1 0.1', '0.56 0.08 0.08', '0.64 0.06 0.06', '0.72 0.04 0.04')
    for index, size in enumerate(sizes):
        parts.append(box_link(f's{index}', size))
        if index:
            parts.append(joint(f'slide{index}', 'prismatic', f's{index - 1}', f's{index}',
                               axis=axes[index - 1], lower=0.0, upper=0.3))
    if wrist:  # beyond the outer segment's end, inside the next two
        parts += [box_link('wrist', '0.04 0.04 0.04', '0.25 0 0'),
                  joint('twist', 'revolute', 's3', 'wrist')]
    return robot('telescope', *parts)


def test_the_segments_of_a_telescope_are_one_finding():
    # Stretch's arm at rest: its segments retracted into each other and into the lift, 9
    # pairs that were 6 findings (envelopes and pairs); its wrist resting on two segments.
    found = overlaps(telescope(wrist=True))
    (nested,) = [f for f in found if f.message.startswith('the segments of a telescope')]
    assert nested.message.startswith(
        'the segments of a telescope (prismatic joints slide1, slide2, slide3 in series, '
        'along one axis) overlap at rest in 3 pairs of links'), nested.message
    assert dict(nested.values)['telescope'] == 'slide1, slide2, slide3'
    assert sorted(dict(nested.values)['pairs'].split('; ')) == ['s0, s2', 's0, s3', 's1, s3']
    assert nested.suggestion.startswith('if the segments are not meant to nest at rest')
    (resting,) = [f for f in found if f is not nested]
    assert resting.link == 'wrist' and dict(resting.values)['count'] == '2'
    assert resting.message.startswith("the collision geometry of 'wrist' intersects 2 "
                                      'segments of a telescope'), resting.message
    # A gantry's axes at right angles slide no telescope.
    gantry = overlaps(telescope(('1 0 0', '0 1 0', '0 0 1')))
    assert gantry and not any('telescope' in dict(f.values) for f in gantry)
    # Two joints along one axis (the third turned away) are one still: a pair or more.
    assert any(dict(f.values).get('telescope') == 'slide1, slide2'
               for f in overlaps(telescope(('1 0 0', '-1 0 0', '0 0 1'))))


def two_hips(offset='0 0 0', axes=('1 0 0', '0 1 0')):
    """Return two 2-axis hips, each link above and below its middle link at the joint."""
    parts = [box_link('base', '0.05 0.05 0.05', '0 0 -1')]
    for side, y in (('l', 0.5), ('r', -0.5)):
        parts += [box_link(f'{side}_upper', '0.1 0.1 0.1'),
                  box_link(f'{side}_middle', '0.01 0.01 0.01'),
                  box_link(f'{side}_lower', '0.1 0.1 0.1'),
                  joint(f'{side}_mount', 'revolute', 'base', f'{side}_upper', f'0 {y} 0'),
                  joint(f'{side}_roll', 'revolute', f'{side}_upper', f'{side}_middle',
                        axis=axes[0]),
                  joint(f'{side}_pitch', 'revolute', f'{side}_middle', f'{side}_lower',
                        offset, axis=axes[1])]
    return robot('hips', *parts)


def test_the_sides_of_multi_axis_joints_are_one_finding():
    # TALOS: its hips, wrists and ankles (revolute joints whose axes cross at one point)
    # overlap at rest across each joint, left and right: 6 pairs that were 3 findings.
    (finding,) = overlaps(two_hips())
    assert finding.message.startswith(
        '2 pairs of links on either side of a multi-axis joint (two revolute joints whose axes '
        'cross at one point, through a middle link: l_middle, r_middle) overlap at rest'), \
        finding.message
    assert dict(finding.values)['middle_links'] == 'l_middle, r_middle'
    assert finding.suggestion.startswith('if the parts are not meant to meet')
    # Axes that do not cross (the lower joint 5 cm off), or one axis twice: not one joint.
    for apart in (two_hips(offset='0 0 0.05'), two_hips(axes=('1 0 0', '1 0 0'))):
        assert not any('middle_links' in dict(f.values) for f in overlaps(apart))


def test_meshes_too_big_for_a_bvh_leave_their_pairs_untested(tmp_path, monkeypatch):
    # A 7 kB COLLADA file instancing one part 65,536 times: 2.6 million triangles, whose BVHs
    # took 3.2 GB (a MemoryError, an internal error, at 4 GB). Past the limit, the pair is
    # said untested instead (here the limit is made 10 triangles).
    import trimesh
    from urdf_link_tools.collision import overlap
    monkeypatch.setattr(overlap, 'MAX_BVH_TRIANGLES', 10)
    path = tmp_path / 'ball.stl'
    trimesh.creation.icosphere(subdivisions=1, radius=0.1).export(str(path))
    mesh = f'<collision><geometry><mesh filename="{path}"/></geometry></collision>'
    text = robot('r', f'<link name="a">{mesh}</link>', box_link('m', '0.01 0.01 0.01', '0 0 1'),
                 f'<link name="b">{mesh}</link>', joint('j1', 'revolute', 'a', 'm'),
                 joint('j2', 'revolute', 'm', 'b'))
    findings = analyze(parse_urdf_string(text, str(tmp_path / 'r.urdf'))).findings
    (said,) = [f for f in findings if f.rule == 'collision-overlap-not-all-tested']
    assert said.message.startswith('1 pair of links close together at rest was not tested')
    assert said.links == ('a', 'b')
    assert not [f for f in findings if f.rule in ('collision-overlap-at-rest', 'internal-error')]
    monkeypatch.setattr(overlap, 'MAX_BVH_TRIANGLES', 1_000_000)
    findings = analyze(parse_urdf_string(text, str(tmp_path / 'r.urdf'))).findings
    assert [f.rule for f in findings if f.rule.startswith('collision-overlap')] == \
        ['collision-overlap-at-rest']


def test_an_overlap_under_a_millimetre_is_parts_touching_an_info():
    # Barrett's palm on its wrist (0.45 mm), Kassow's link 5 on link 6 (0.35 mm): parts of
    # a CAD assembly touching. Still said (MoveIt sees the pair in collision), as an info.
    def at(depth):
        return robot('r', box_link('base', '0.2 0.2 0.2'), box_link('a'), box_link('b'),
                     joint('ja', 'revolute', 'base', 'a', '0 0 0.5'),
                     joint('jb', 'revolute', 'base', 'b', f'0 {0.1 - depth} 0.5'))
    (touching,) = overlaps(at(0.0005))
    assert touching.severity == Severity.INFO
    assert 'touching (about 0.5 mm deep, as the parts of a CAD assembly touch)' in \
        touching.message
    (deep,) = overlaps(at(0.002))
    assert deep.severity == Severity.WARNING and 'about 2 mm deep' in deep.message
    # 0.99998 mm, said "1 mm": one reading (sweep L's spot_mini_mini chassis was "touching
    # (about 1 mm deep, as the parts of a CAD assembly touch)" and a warning).
    (edge,) = overlaps(at(0.00099998))
    assert edge.severity == Severity.WARNING and 'about 1 mm deep' in edge.message and \
        'touching' not in edge.message, edge


def test_an_srdf_naming_links_the_robot_lacks_is_said_with_the_link_meant():
    # Kassow's SRDF expanded with its default prefix named '_link1' where the robot has
    # 'kassow_link1': its 12 pairs disabled nothing, silently.
    text = ROBOT.format(lower=-1, upper=1)
    config = CheckConfig(check_meshes=False)

    def unknown(entries):
        analysis = analyze(parse_urdf_string(text),
                           config_from_mapping({'disabled_collisions': entries}, config))
        return [f for f in analysis.findings if f.rule == 'srdf-unknown-links']

    assert unknown(['arm camera']) == []
    (stale,) = unknown(['r_arm r_camera', 'arm camera', 'arm hand'])
    assert stale.severity == Severity.WARNING
    assert stale.message.startswith('2 of the 3 pairs of links the SRDF disables name links '
                                    "this robot does not have, such as 'r_arm' (did you mean "
                                    "'arm'?)")
    (few,) = unknown(['arm camer', 'arm camera', 'base arm'])
    assert few.severity == Severity.INFO and "did you mean 'camera'?" in few.message
    # Care-O-bot raw3-1's SRDF names its arm's links (arm_base_link ... arm_wrist_3_link) on
    # a robot without the arm: not 'base_link' renamed, since the others have no link either.
    (variant,) = unknown(['x_arm x_shoulder', 'x_shoulder x_elbow', 'x_elbow x_wrist'])
    assert "such as 'x_arm': they disable nothing" in variant.message, variant.message
    assert variant.message.endswith("; 4 of the names begin with 'x_' and this robot has no "
                                    'such links: the SRDF is for a variant with them')
    assert 'did you mean' not in variant.message


def _bracket(path, concave):
    """Write an L-shaped bracket (concave) or its bounding box (convex), 0.2 m across."""
    from mesh_attacks import binary_stl, boxes
    return binary_stl(path, *boxes(
        [((0, 0, 0), (0.2, 0.04, 0.04)), ((0, 0, 0), (0.04, 0.04, 0.2))] if concave
        else [((0, 0, 0), (0.2, 0.04, 0.2))]))


@pytest.mark.parametrize('concave', [True, False])
def test_an_overlap_depth_between_hulls_says_so_for_a_concave_part(tmp_path, concave):
    # NextageOpen's waist and wrist: "about 191 mm deep" between the parts' convex hulls,
    # while their surfaces only touch: the depth of a concave part is an upper bound.
    path = _bracket(tmp_path / 'bracket.stl', concave)
    mesh = f'<collision><geometry><mesh filename="file://{path}"/></geometry></collision>'
    text = robot('r', box_link('base', '0.01 0.01 0.01'), f'<link name="a">{mesh}</link>',
                 box_link('b', '0.05 0.05 0.05', '0.02 0.02 0.03'),
                 box_link('s', '0.01 0.01 0.01', '0 0 1'),
                 joint('ja', 'revolute', 'base', 'a'), joint('js', 'revolute', 'base', 's'),
                 joint('jb', 'revolute', 's', 'b'))
    (finding,) = [f for f in analyze(parse_urdf_string(text), CheckConfig()).findings
                  if f.rule == RULE and f.link == 'a']
    assert ('mm deep (between their convex hulls: the surfaces of a concave part may meet '
            'less deep)' in finding.message) == concave, finding.message


def _screwed(tmp_path, count):
    """Return a robot of ``count`` servos, each with a screw 4 mm deep in it (one choice)."""
    from mesh_attacks import binary_stl, boxes
    parts = [box_link('base', '0.01 0.01 0.01', '0 0 -1')]
    for index in 'abcd'[:count]:  # (numbered names are copies: test_checks_mirrors.py)
        # The same servo, its file turned a quarter turn every other time (as a CAD export
        # writes each copy of a part), the same screw cylinder.
        size = (0.03, 0.02, 0.01) if index in 'bd' else (0.02, 0.03, 0.01)
        path = binary_stl(tmp_path / f'servo_{index}.stl', *boxes(
            [((-size[0] / 2, -size[1] / 2, 0.0), (size[0] / 2, size[1] / 2, size[2]))]))
        parts += [f'<link name="servo_{index}"><collision><geometry><mesh filename='
                  f'"file://{path}"/></geometry></collision></link>',
                  f'<link name="screw_{index}"><collision><origin xyz="0 0 0.011"/><geometry>'
                  '<cylinder radius="0.0015" length="0.01"/></geometry></collision></link>',
                  joint(f'js{index}', 'revolute', 'base', f'servo_{index}', f'{ord(index)} 0 0'),
                  joint(f'jc{index}', 'revolute', 'base', f'screw_{index}', f'{ord(index)} 0 0')]
    return robot('screwed', *parts)


def test_the_same_two_parts_overlapping_alike_are_one_finding(tmp_path):
    # Petoi Bittle's CAD screws, each a link, sit 4.3 mm deep in the servos of the next
    # links: 9 pairs of one screw and one servo (each servo's file tessellated and turned its
    # own way) were 9 warnings of one design choice.
    (finding,) = [f for f in analyze(parse_urdf_string(_screwed(tmp_path, 3)),
                                     CheckConfig()).findings
                  if f.rule == 'collision-overlap-at-rest']
    assert finding.message.startswith('3 pairs of links overlap alike at rest (screw_a and '
                                      'servo_a, screw_b and servo_b, screw_c and servo_c): in '
                                      'each, the same two parts (a cylinder of 0.0015 x 0.01 m '
                                      'and a mesh enclosing 6 cm^3) as deep'), finding.message
    assert set(finding.links) == {f'{kind}_{index}' for kind in ('screw', 'servo')
                                  for index in 'abc'}
    assert float(dict(finding.values)['depth_mm']) == pytest.approx(4.0, abs=0.01)
    # Two are two findings; a quadruped's legs are one by their names (test_checks_mirrors).
    found = [f for f in analyze(parse_urdf_string(_screwed(tmp_path, 2)),
                                CheckConfig()).findings if f.rule == 'collision-overlap-at-rest']
    assert len(found) == 2 and not any('alike' in f.message for f in found)


def test_parts_alike_whose_names_join_them_only_two_by_two_are_one_finding():
    # Minitaur: frame1 to frame4 each hold a back and a front motor (motor_back_rightR_link,
    # motor_front_rightR_link...), 16.5 mm deep: fore-aft names joined each frame's two and
    # left four warnings of one choice
    parts = [box_link('base', '0.01 0.01 0.01', '0 0 -2')]
    for number, (side, hand) in enumerate((('right', 'R'), ('left', 'L'), ('right', 'L'),
                                          ('left', 'R')), start=1):
        y = 0.3 * number
        parts += [box_link(f'frame{number}', '0.468 0.012 0.05'),
                  joint(f'jf{number}', 'revolute', 'base', f'frame{number}', f'0 {y} 0')]
        for end, x in (('back', -0.22), ('front', 0.22)):
            name = f'motor_{end}_{side}{hand}_link'
            parts += [f'<link name="{name}"><collision><geometry><cylinder radius="0.0425" '
                      'length="0.021"/></geometry></collision></link>',
                      joint(f'j_{end}{number}', 'revolute', 'base', name,
                            f'{x} {y} 0.02')]
    found = [f for f in analyze(parse_urdf_string(robot('minitaur', *parts)),
                                CheckConfig()).findings
             if f.rule == 'collision-overlap-at-rest']
    assert len(found) == 1, [f.message[:120] for f in found]
    assert found[0].message.startswith('8 pairs of links overlap alike at rest (')


def test_branches_that_all_overlap_each_other_are_one_finding():
    # AgileX ranger_mini (sweep J): the base's 1 m collision box pasted onto four steering
    # links; each pair of the four steering branches was a finding of its own. (Boxes of
    # four sizes here: one box on each is test_one_primitive_pasted_on_many_links_*.)
    parts = [box_link('base', '0.01 0.01 0.01', '0 0 -2')]
    for name, x, y, size in (('fl', 0.2, 0.2, '1 1 1'), ('fr', 0.2, -0.2, '1.1 1 1'),
                             ('rl', -0.2, 0.2, '1 1.2 1'), ('rr', -0.2, -0.2, '1 1 1.3')):
        parts += [box_link(f'{name}_steer', size),
                  f'<link name="{name}_wheel"><collision><geometry><cylinder radius="0.1" '
                  'length="0.1"/></geometry></collision></link>',
                  joint(f'{name}_s', 'revolute', 'base', f'{name}_steer', f'{x} {y} 0'),
                  joint(f'{name}_w', 'continuous', f'{name}_steer', f'{name}_wheel',
                        '0 0 -0.1', axis='0 1 0')]
    found = [f for f in analyze(parse_urdf_string(robot('ranger', *parts)),
                                CheckConfig()).findings
             if f.rule == 'collision-overlap-at-rest']
    assert len(found) == 1, [f.message for f in found]
    assert found[0].message.startswith(
        "the branches from 'fl_steer', 'fr_steer', 'rl_steer', 'rr_steer' all overlap each "
        'other at rest, in 18 pairs of links'), found[0].message
    # Two branches stay a pair of their own (test_two_branches_meeting_at_rest_*).


def test_parts_alike_are_not_sought_among_too_many_pairs():
    # Each pair is compared with each group so far: 20,000 pairs of distinct parts (the
    # most the check tests) would cost minutes; past ALIKE_MAX_PAIRS they stay as they are.
    from urdf_link_tools.checks.collisions import ALIKE_MAX_PAIRS, alike_groups
    from urdf_link_tools.collision.overlap import Overlap
    many = [Overlap(f'a{index}', f'b{index}', 'collision[0]', 'collision[0]', 0.01,
                    (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)) for index in range(ALIKE_MAX_PAIRS + 1)]
    groups, left = alike_groups(None, many)
    assert groups == [] and left == many


def _pasted(base_box: str) -> str:
    # AgileX ranger_mini: one 1 m box on the base and on each steering link, whose visual is
    # a 1 mm cylinder, over the wheels
    tiny = ('<visual><geometry><cylinder radius="0.001" length="0.001"/></geometry>'
            '</visual>')
    parts = [box_link('base', base_box)]
    for name, x, y in (('fl', 0.23, 0.2), ('fr', 0.23, -0.2), ('rl', -0.23, 0.2),
                       ('rr', -0.23, -0.2)):
        parts += [box_link(f'{name}_steer', '1 1 1').replace('</link>', tiny + '</link>'),
                  f'<link name="{name}_wheel"><collision><geometry><cylinder radius="0.1" '
                  'length="0.1"/></geometry></collision></link>',
                  joint(f'{name}_s', 'revolute', 'base', f'{name}_steer', f'{x} {y} -0.1'),
                  joint(f'{name}_w', 'continuous', f'{name}_steer', f'{name}_wheel',
                        '0 0 0', axis='0 1 0')]
    return robot('ranger', *parts)


def test_one_primitive_pasted_on_many_links_is_one_finding_that_names_it():
    # ranger_mini (sweep J): the pasted box was said as a branch group (18 pairs) and as the
    # base's envelope over the wheels (4 pairs), and never named.
    found = [f for f in analyze(parse_urdf_string(_pasted('1 1 1')), CheckConfig()).findings
             if f.rule == 'collision-overlap-at-rest']
    assert len(found) == 1, [f.message for f in found]
    message = found[0].message
    assert message.startswith(
        'one collision box (1 x 1 x 1 m) is on 5 links (fl_steer, fr_steer, rl_steer, '
        'rr_steer, base), and through it they overlap each other and their neighbours at '
        'rest in 22 pairs'), message
    assert 'the visuals of fl_steer, fr_steer, rl_steer, rr_steer are at most 0.002 m ' \
        'across, the box 1 m' in message, message
    assert found[0].suggestion.startswith(
        'give each of these links a collision shape of its own part'), found[0].suggestion
    assert dict(found[0].values)['count'] == '22'


def test_a_primitive_on_links_that_only_touch_is_not_pasted():
    # Boxes of one size that overlap by less than a quarter of their smallest side are parts
    # alike that touch, not one shape pasted: the base (another size) keeps its envelope.
    text = _pasted('0.6 0.6 0.2').replace('size="1 1 1"', 'size="0.5 0.5 0.5"')
    found = [f for f in analyze(parse_urdf_string(text), CheckConfig()).findings
             if f.rule == 'collision-overlap-at-rest']
    assert found and not any('pasted' in f.message for f in found), \
        [f.message for f in found]


def _hand_on_arm(arm_links):
    """Return a robot: an arm of ``arm_links`` apart, then a palm with three fingers of bars."""
    parts = [box_link('base', '0.01 0.01 0.01')]
    above = 'base'
    for index in range(arm_links):
        parts += [box_link(f'arm{index}', '0.01 0.01 0.01'),
                  joint(f'ja{index}', 'revolute', above, f'arm{index}', '0 0 1')]
        above = f'arm{index}'
    parts += [box_link('palm', '0.1 0.1 0.04'),
              joint('jp', 'revolute', above, 'palm', '0 0 1')]
    for finger, y in (('f1', -0.03), ('f2', 0.0), ('f3', 0.03)):
        # a finger's link and the bar that drives it, side by side from the palm, and the
        # hinges on each: a four-bar linkage opened into a tree (Robotiq's 3-finger hand)
        for name, parent in (('link1', 'palm'), ('bar', 'palm'), ('link2', f'{finger}_link1'),
                             ('hinge', f'{finger}_bar')):
            parts += [box_link(f'{finger}_{name}', '0.02 0.02 0.02'),
                      joint(f'j_{finger}_{name}', 'revolute', parent, f'{finger}_{name}',
                            f'0 {y} 0.02' if parent == 'palm' else '0 0 0.005')]
    return robot('hand_on_arm', *parts)


def test_a_mechanism_at_the_end_of_a_chain_is_one_finding():
    # DRCSim's Atlas with Robotiq hands: each finger's bars and hinges overlapping each other
    # and the palm at rest were 24 findings (stars, branches, parts alike) for two hands
    found = [f for f in analyze(parse_urdf_string(_hand_on_arm(20)),
                                CheckConfig(check_meshes=False)).findings
             if f.rule == 'collision-overlap-at-rest']
    assert len(found) == 1, [f.message[:100] for f in found]
    assert "links below 'palm' overlap each other at rest in" in found[0].message
    assert dict(found[0].values)['mechanism'] == 'palm'
    # the same hand as most of the robot: no end of a chain, its pairs said as before
    alone = [f for f in analyze(parse_urdf_string(_hand_on_arm(2)),
                                CheckConfig(check_meshes=False)).findings
             if f.rule == 'collision-overlap-at-rest']
    assert len(alone) > 1 and not any('links below' in f.message for f in alone)


def test_without_coal_the_overlaps_not_tested_are_said(tmp_path):
    # A new user's trial (round 39): pip's install of the checker (the GitHub Action, the
    # pre-commit hook) has no coal, and the robot's 90 mm overlap at rest was one warning
    # fewer than with the README's set-up, with nothing said. Said on standard error (the
    # report stays the same wherever it is made). coal is hidden here by a module of that
    # name that fails to import.
    import os
    import subprocess
    import sys
    (tmp_path / 'shim').mkdir()
    (tmp_path / 'shim' / 'coal.py').write_text("raise ImportError('hidden for the test')\n")
    urdf = tmp_path / 'robot.urdf'
    urdf.write_text(ROBOT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path / 'shim'), str(ROOT)] + [os.environ.get('PYTHONPATH', '')]))
    done = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli', 'check', str(urdf),
                           '--format', 'json', '--fail-on', 'never'],
                          capture_output=True, text=True, env=env, timeout=120)
    findings = json.loads(done.stdout)['findings']
    assert not [f for f in findings if f['rule'].startswith('collision-overlap')]
    assert 'self-collision needs the coal collision library (pip install coal' in done.stderr
    assert 'the overlaps at rest (collision-overlap-at-rest) were not tested' in done.stderr
