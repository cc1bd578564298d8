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

"""``urdf-link-tools collisions``: xacro and package:// input, SRDF out, merge, bad input."""

import shutil

from cli_harness import ROOT, run
from collision_robots import box_link, joint, robot, two_arms
import corpus
import pytest
from urdf_link_tools.cli import EXIT_INPUT, EXIT_OK, EXIT_USAGE
from urdf_link_tools.collision.srdf import disabled_pairs, read_srdf

XACRO = """<?xml version="1.0"?>
<robot name="meshy" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="arm" params="name z">
    <link name="${name}"><collision><origin xyz="0 0 ${z}"/><geometry>
      <mesh filename="package://my_robot/meshes/arm_collision.stl" scale="1 1 1"/>
    </geometry></collision></link>
  </xacro:macro>
  <link name="base"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <xacro:arm name="upper" z="0.5"/>
  <xacro:arm name="far" z="5"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="upper"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="fixed"><parent link="base"/><child link="far"/></joint>
</robot>
"""


@pytest.fixture
def package(tmp_path):
    folder = tmp_path / 'my_robot'
    (folder / 'meshes').mkdir(parents=True)
    shutil.copy(ROOT / 'samples' / 'meshes' / 'arm_collision.stl', folder / 'meshes')
    (folder / 'robot.urdf.xacro').write_text(XACRO)
    return folder


def test_xacro_with_package_meshes(package, tmp_path):
    out = tmp_path / 'out.srdf'
    status, stdout, stderr = run(['collisions', str(package / 'robot.urdf.xacro'),
                                  '--package-dir', f'my_robot={package}', '--samples', '300',
                                  '-o', str(out)])
    assert status == EXIT_OK, stderr
    pairs = disabled_pairs(read_srdf(out.read_bytes()))
    assert pairs[('base', 'upper')] == 'Adjacent'
    assert pairs[('far', 'upper')] == 'Never'
    assert 'meshy: 3 links with collision geometry' in stderr and 'left out' not in stderr


def test_standard_output_and_determinism(tmp_path):
    path = tmp_path / 'arms.urdf'
    path.write_text(two_arms('joint="j1"'))
    first = run(['collisions', str(path), '--samples', '200', '--seed', '5'])
    again = run(['collisions', str(path), '--samples', '200', '--seed', '5'])
    assert first[0] == EXIT_OK and first[1] == again[1]
    assert 'link1="arm1" link2="arm2" reason="Never"' in first[1]


def test_merge_keeps_the_rest_of_the_srdf(tmp_path):
    path = tmp_path / 'arms.urdf'
    path.write_text(two_arms(None))
    existing = tmp_path / 'old.srdf'
    existing.write_text('<robot name="two_arms"><group name="g"><joint name="j1"/></group>'
                        '<disable_collisions link1="arm1" link2="arm2" reason="Never"/>'
                        '<disable_collisions link1="arm2" link2="base" reason="User"/>'
                        '</robot>')
    status, stdout, stderr = run(['collisions', str(path), '--samples', '500', '--merge',
                                  str(existing)])
    assert status == EXIT_OK, stderr
    root = read_srdf(stdout.encode())
    assert root.find('group') is not None
    pairs = disabled_pairs(root)
    assert ('arm1', 'arm2') not in pairs          # independent arms meet: no longer Never
    assert pairs[('arm2', 'base')] == 'User'
    assert pairs[('arm1', 'base')] == 'Adjacent'
    assert '1 hand-written pairs kept' in stderr
    # the summary names where the merge went, not the input as if it had been changed
    assert f'{existing} merged, written to standard output ({existing} is unchanged)' in stderr


@pytest.mark.parametrize('srdf', [
    '<robot name="two_arms" xmlns:xacro="http://www.ros.org/wiki/xacro">'
    '<xacro:arg name="robot_name" default="r"/><group name="g"><joint name="j1"/></group>'
    '<xacro:if value="$(arg tag)"><disable_collisions link1="arm1" link2="tag" '
    'reason="Adjacent"/></xacro:if></robot>',
    '<robot name="two_arms"><disable_collisions link1="$(arg robot_name)/arm1" '
    'link2="base" reason="User"/></robot>'], ids=['xacro-elements', 'substitutions'])
def test_merging_into_a_xacro_srdf_is_refused(tmp_path, srdf):
    # Interbotix's px100.srdf.xacro (sweep K): merged, it kept <xacro:arg> and
    # "$(arg robot_name)/..." names MoveIt reads literally and lost a <xacro:if>'s 7 pairs,
    # exit 0 and "0 hand-written pairs kept".
    path = tmp_path / 'arms.urdf'
    path.write_text(two_arms(None))
    existing = tmp_path / 'arm.srdf.xacro'
    existing.write_text(srdf)
    out = tmp_path / 'merged.srdf'
    status, _, stderr = run(['collisions', str(path), '--samples', '50', '--merge',
                             str(existing), '-o', str(out)])
    assert status == EXIT_USAGE and 'a xacro SRDF' in stderr and 'expand it' in stderr, stderr
    assert not out.exists() and existing.read_text() == srdf


@pytest.mark.parametrize('args, status, message', [
    (['--samples', '-1'], EXIT_USAGE, '--samples must be between'),
    (['--merge', '/nonexistent/x.srdf'], EXIT_USAGE, 'cannot read'),
    (['-o', 'robot.urdf'], EXIT_USAGE, 'refusing to write an SRDF'),
])
def test_bad_command_lines(tmp_path, args, status, message):
    path = tmp_path / 'r.urdf'
    path.write_text(robot('r', box_link('a'), box_link('b'), joint('j', 'fixed', 'a', 'b')))
    got, _, stderr = run(['collisions', str(path), *args])
    assert got == status and message in stderr


def test_bad_inputs_are_clear_errors(tmp_path):
    status, _, stderr = run(['collisions', str(tmp_path / 'missing.urdf')])
    assert status == EXIT_INPUT and 'missing.urdf' in stderr and 'Traceback' not in stderr
    broken = tmp_path / 'old.srdf'
    broken.write_text('<robot')
    status, _, stderr = run(['collisions', str(corpus.urdf_path('ur5_robot.urdf')),
                             '--samples', '10', '--merge', str(broken)])
    assert status == EXIT_INPUT and f'--merge {broken}: not a well-formed SRDF' in stderr


def _welded_boxes(count):
    return robot('pile', box_link('l0'), *(box_link(f'l{i}') for i in range(1, count)),
                 *(joint(f'j{i}', 'fixed', 'l0', f'l{i}') for i in range(1, count)))


def test_a_robot_of_too_many_links_to_place_in_every_state_is_refused(tmp_path):
    # Red-team review 16: a 40,000-joint chain with two collision boxes (under --max-links,
    # which counts links with collision geometry) took 26 s and 3.4 GB, then exit 5 "out of
    # memory": every link is placed in every sampled state. Refused now, and the number of
    # states it would take said.
    links = ['<link name="l0"><collision><geometry><box size="0.1 0.1 0.1"/></geometry>'
             '</collision></link>']
    for i in range(1, 2101):
        links.append(f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/>'
                     f'<child link="l{i}"/><origin xyz="0 0 0.01"/><axis xyz="0 1 0"/>'
                     '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
                     f'<link name="l{i}"/>')
    urdf = tmp_path / 'chain.urdf'
    urdf.write_text('<robot name="chain">' + ''.join(links) + '</robot>')
    status, out, err = run(['collisions', str(urdf)])
    assert status == EXIT_INPUT and not out, err
    assert 'the robot has 2,101 links' in err and 'at most 9,519 states with --samples' in err
    status, out, err = run(['collisions', '--samples', '100', str(urdf)])
    assert status == EXIT_OK and '<robot' in out, err


def test_more_links_than_max_links_are_refused_and_decided_pairs_hold_no_memory(
        tmp_path, monkeypatch):
    # Red-team review 4: a 5-line xacro made 2,048 links: 27 s, 3.2 GB and a 172 MB SRDF;
    # 4,096 ended in a MemoryError traceback. Over --max-links (default 1,000, as the node)
    # it is refused; and a decided pair's collision functors are dropped (300 boxes welded
    # at one place held 1.1 GB of them).
    urdf = tmp_path / 'pile.urdf'
    urdf.write_text(_welded_boxes(40))
    status, out, err = run(['collisions', '--samples', '10', '--max-links', '30', str(urdf)])
    assert status == EXIT_INPUT and 'more than --max-links (30)' in err and not out, err
    from urdf_link_tools.collision import matrix
    held = []
    original = matrix.Scene.pair

    def counting(scene, first, second):
        found = original(scene, first, second)
        held.append(len(scene._pairs))
        return found
    monkeypatch.setattr(matrix.Scene, 'pair', counting)
    status, out, err = run(['collisions', '--samples', '10', str(urdf), '-o',
                            str(tmp_path / 'pile.srdf')])
    assert status == EXIT_OK, err
    assert held and max(held) <= 2, max(held)  # (40 links: 741 pairs tested at rest)
