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
``--fix-inertia`` on xacro edits only the robot's own files, and the right link in them.

A maintainer runs the fix on a pull request's robot: files reached through ``$(find
other_pkg)``, symbolic links leading out of the package and ``.git`` are refused with a message
and left byte for byte; a link inside the package is written through (it stays a link); and
with LF, CR, CRLF or mixed line ends only the flagged link's tensor changes.
"""

import os

from cli_harness import run
import pytest
from trust_harness import package

BAD = '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05"/>'
GOOD = '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/>'
HEAD = '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'


def _link(name, inertia):
    return f'<link name="{name}"><inertial><mass value="1"/>{inertia}</inertial></link>'


def _robot_with_part(tmp_path, include):
    package(tmp_path / 'robot_description')
    robot = tmp_path / 'robot_description' / 'robot.urdf.xacro'
    robot.write_text(f'{HEAD}\n<xacro:include filename="{include}"/>\n</robot>\n')
    return robot


def _part(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    f'{_link("arm", BAD)}\n</robot>\n')
    return path.read_bytes()


def test_an_include_from_another_package_is_not_edited(tmp_path):
    other = tmp_path / 'other_pkg'
    package(other, 'other_pkg')
    before = _part(other / 'urdf' / 'part.xacro')
    robot = _robot_with_part(tmp_path, '$(find other_pkg)/urdf/part.xacro')
    status, out, err = run(['check', str(robot), '--package-dir', f'other_pkg={other}',
                            '--fix-inertia'])
    assert status == 2, err
    assert (other / 'urdf' / 'part.xacro').read_bytes() == before
    assert "not changed: it is outside the robot's package" in out
    assert 'fix-inertia: 0 values changed in 0 xacro files' in out
    # Named with the documented flag, it is edited.
    status, out, err = run(['check', str(robot), '--package-dir', f'other_pkg={other}',
                            '--fix-inertia', '--fix-allow-dir', str(other)])
    assert (other / 'urdf' / 'part.xacro').read_bytes() != before
    assert 'changed: inertia of link' in out


def test_an_in_package_symlink_is_written_through_and_stays_a_link(tmp_path):
    robot = _robot_with_part(tmp_path, 'urdf/arm.xacro')
    target = tmp_path / 'robot_description' / 'urdf' / 'impl' / 'arm_impl.xacro'
    before = _part(target)
    link = tmp_path / 'robot_description' / 'urdf' / 'arm.xacro'
    link.symlink_to(os.path.join('impl', 'arm_impl.xacro'))
    status, out, err = run(['check', str(robot), '--fix-inertia'])
    assert os.path.islink(link)
    assert target.read_bytes() != before
    assert 'ixx="0.0200013333"' in target.read_text()


def test_a_symlink_leading_out_of_the_package_is_refused(tmp_path):
    outside = tmp_path / 'elsewhere' / 'arm.xacro'
    before = _part(outside)
    robot = _robot_with_part(tmp_path, 'arm.xacro')
    (tmp_path / 'robot_description' / 'arm.xacro').symlink_to(outside)
    # xacro may read it when allowed, but the fixer still writes only inside the package.
    status, out, err = run(['check', str(robot), '--xacro-allow-dir', str(outside.parent),
                            '--fix-inertia'])
    assert outside.read_bytes() == before
    assert os.path.islink(tmp_path / 'robot_description' / 'arm.xacro')
    assert "not changed: it is outside the robot's package" in out


@pytest.mark.parametrize('style', ['lf', 'cr', 'crlf', 'mixed'])
def test_line_ends_of_every_style_edit_only_the_flagged_link(tmp_path, style):
    end = {'lf': '\n', 'cr': '\r', 'crlf': '\r\n', 'mixed': '\n'}[style]
    # 'mixed': a lone CR in a comment above shifts expat's count by one against an LF count.
    lines = ['<?xml version="1.0"?>', '<!-- one\rcomment -->' if style == 'mixed' else '<!---->',
             HEAD, _link('bad', BAD), _link('good', GOOD), '</robot>', '']
    package(tmp_path / 'robot_description')
    robot = tmp_path / 'robot_description' / 'robot.urdf.xacro'
    before = end.join(lines).encode()
    robot.write_bytes(before)
    status, out, err = run(['check', str(robot), '--fix-inertia'])
    assert status == 2, out + err
    after = robot.read_bytes()
    assert after.count(b'\r') == before.count(b'\r')
    assert after.count(b'\n') == before.count(b'\n')
    assert _link('good', GOOD).encode() in after
    assert _link('bad', BAD).encode() not in after
    assert 'changed: inertia of link' in out
    status, out, err = run(['check', str(robot)])
    assert 'inertia-triangle-inequality' not in out, out
