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
The inertial-origin-rotated suggestion is the same body written in the link frame.

The tensor a URDF gives is in the inertial frame, rotated by its rpy; the suggested
``rpy="0 0 0"`` tensor must be R I R^T, computed here independently of the checker
(R = Rz(yaw) Ry(pitch) Rx(roll), URDF's convention). Ignoring the rotation would suggest
the tensor as written, which these cases tell apart.
"""

import math
import re

import numpy as np
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.parser import parse_urdf_string

ROBOT = """<robot name="r">
  <link name="base"/>
  <joint name="j" type="revolute"><parent link="base"/><child link="part"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="part">
    <inertial><origin xyz="0 0 0" rpy="{rpy}"/><mass value="1"/>
      <inertia ixx="{ixx}" ixy="{ixy}" ixz="0" iyy="{iyy}" iyz="0" izz="{izz}"/></inertial>
  </link>
</robot>"""

NAMES = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')


def _rotation(roll: float, pitch: float, yaw: float) -> np.ndarray:
    cr, sr, cp, sp, cy, sy = (math.cos(roll), math.sin(roll), math.cos(pitch),
                              math.sin(pitch), math.cos(yaw), math.sin(yaw))
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return rz @ ry @ rx


def _matrix(values) -> np.ndarray:
    ixx, ixy, ixz, iyy, iyz, izz = values
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]], dtype=float)


def _tensors(text: str):
    """Return each (rpy, tensor) the suggestion writes, in order."""
    found = []
    for match in re.finditer(r'rpy="([^"]+)" with ((?:i\w\w="[^"]+"\s*){6})', text):
        values = dict(re.findall(r'(i\w\w)="([^"]+)"', match.group(2)))
        found.append(([float(v) for v in match.group(1).split()],
                      _matrix([float(values[name]) for name in NAMES])))
    return found


@pytest.mark.parametrize('rpy, ixx, iyy, izz, ixy', [
    ('0 0 0.3', 0.01, 0.02, 0.03, 0.0),
    ('0.4 -0.2 1.1', 0.01, 0.02, 0.025, 0.0),
    ('0 0 0.3', 0.02, 0.02, 0.03, 0.004),   # products as well: two suggestions
])
def test_the_suggested_tensor_is_the_rotated_one(rpy, ixx, iyy, izz, ixy):
    text = ROBOT.format(rpy=rpy, ixx=ixx, iyy=iyy, izz=izz, ixy=ixy)
    findings = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False)).findings
    note = [f for f in findings if f.rule == 'inertial-origin-rotated']
    assert len(note) == 1
    written = _matrix((ixx, ixy, 0.0, iyy, 0.0, izz))
    rotation = _rotation(*(float(v) for v in rpy.split()))
    expected = rotation @ written @ rotation.T
    suggested = _tensors(note[0].suggestion)
    assert suggested[0][0] == [0.0, 0.0, 0.0]
    np.testing.assert_allclose(suggested[0][1], expected, atol=1e-8)
    assert not np.allclose(suggested[0][1], written, atol=1e-4)  # the rotation matters here
    if ixy:
        # The alternative: principal moments in a frame whose rpy is given; the same body.
        principal_rpy, diagonal = suggested[1]
        frame = _rotation(*principal_rpy)
        np.testing.assert_allclose(frame @ diagonal @ frame.T, expected, atol=1e-8)
    else:
        assert len(suggested) == 1


@pytest.mark.parametrize('count', [2, 3])
def test_rotated_inertial_frames_on_many_links_are_one_note(count):
    # Spot writes every link's principal moments with a rotation (20 links): one choice, one
    # note from 3 links on, with the first link's note and portable tensor as the example.
    part = ('<inertial><origin xyz="0 0 0" rpy="0.3 0 0"/><mass value="1"/>'
            '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.03"/></inertial>')
    links = '<link name="base"/>' + ''.join(f'<link name="p{i}">{part}</link>'
                                            for i in range(count))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="base"/><child link="p{i}"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for i in range(count))
    findings = analyze(parse_urdf_string(f'<robot name="r">{links}{joints}</robot>'),
                       CheckConfig(check_meshes=False)).findings
    notes = [f for f in findings if f.rule == 'inertial-origin-rotated']
    if count < 3:
        assert [f.link for f in notes] == [f'p{i}' for i in range(count)]
        return
    (note,) = notes
    assert note.link is None and note.links == ('p0', 'p1', 'p2')
    assert note.message.startswith('3 links rotate their inertial frame (p0, p1, p2); the '
                                   'first: the inertial frame is rotated (rpy 0.3 0 0)')
    single = analyze(parse_urdf_string(
        f'<robot name="r"><link name="base"/><link name="p0">{part}</link>'
        '<joint name="j0" type="revolute"><parent link="base"/><child link="p0"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        '</robot>'), CheckConfig(check_meshes=False)).findings
    (alone,) = [f for f in single if f.rule == 'inertial-origin-rotated']
    assert note.suggestion == 'each link its own; for p0: ' + alone.suggestion


@pytest.mark.parametrize('targets, said', [
    (None, True), (('mujoco',), True), (('mujoco', 'rviz'), True),
    (('rviz',), False), (('gazebo', 'moveit', 'kdl', 'pinocchio'), False),
])
def test_the_note_is_about_mujoco_and_made_for_it_only(targets, said):
    # Only MuJoCo's importer (3.3.7 to 3.12) dropped the rotation: urdfdom, KDL, Pinocchio,
    # Gazebo and RViz apply it, so the note is no business of a robot not loaded in MuJoCo.
    text = ROBOT.format(rpy='0 0.4 0', ixx=0.01, iyy=0.02, izz=0.03, ixy=0.0)
    config = CheckConfig(check_meshes=False) if targets is None else CheckConfig(
        check_meshes=False, targets=frozenset(targets))
    findings = analyze(parse_urdf_string(text), config).findings
    assert any(f.rule == 'inertial-origin-rotated' for f in findings) == said
