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
Forward kinematics and whole-robot centre of mass against Pinocchio, on real robots.

See :mod:`pinocchio_oracle` for how Pinocchio is driven (mimic joints, continuous joints,
free-flyer root).
"""

from corpus import urdf_path
import numpy as np
from pinocchio_oracle import PinocchioCom, random_positions
import pytest
from urdf_link_tools.kinematics import forward_kinematics, robot_center_of_mass
from urdf_link_tools.parser import parse_urdf_string

pytest.importorskip('pinocchio', reason='Pinocchio is the oracle: pip install pin')

# Mimic joints (talos), continuous and prismatic joints (tiago), and pr2 with all three.
ROBOTS = ('talos_full_v2.urdf', 'tiago.urdf', 'pr2.urdf')
CONFIGURATIONS = 4


def _load(name):
    try:
        path = urdf_path(name)
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    robot = parse_urdf_string(path.read_bytes(), str(path))
    return robot, PinocchioCom(str(path), robot)


@pytest.mark.parametrize('name', ROBOTS)
def test_kinematics_com_matches_pinocchio(name):
    robot, oracle = _load(name)
    rng = np.random.default_rng(20260422)
    mimics = [joint for joint in robot.joints if joint.mimic is not None]
    for index in range(CONFIGURATIONS):
        positions = {} if index == 0 else random_positions(robot, rng)
        # What a joint_states publisher says about a mimic joint must not matter.
        positions.update({joint.name: 123.0 for joint in mimics})
        mass, com = robot_center_of_mass(robot, forward_kinematics(robot, positions))
        expected_mass, expected_com = oracle.com(positions)
        assert mass == pytest.approx(expected_mass, rel=1e-12)
        np.testing.assert_allclose(com, expected_com, atol=1e-9)


@pytest.mark.parametrize('name', ROBOTS)
def test_kinematics_link_poses_match_pinocchio(name):
    robot, oracle = _load(name)
    positions = random_positions(robot, np.random.default_rng(7))
    transforms = forward_kinematics(robot, positions)
    expected = oracle.frame_poses(positions)
    assert set(transforms) == set(expected)
    for link_name, pose in transforms.items():
        np.testing.assert_allclose(pose, expected[link_name], atol=1e-9, err_msg=link_name)


def test_kinematics_com_moves_with_the_joints():
    robot, _ = _load('tiago.urdf')
    _, still = robot_center_of_mass(robot, forward_kinematics(robot, {}))
    _, moved = robot_center_of_mass(robot, forward_kinematics(
        robot, {'torso_lift_joint': 0.3, 'arm_1_joint': 1.5, 'arm_2_joint': 1.0}))
    assert moved[2] > still[2] + 0.05
