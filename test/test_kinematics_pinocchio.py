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

Pinocchio is an independent implementation (C++, its own URDF reader) of the same
conventions. Its URDF reader treats mimic joints as independent joints, so the test feeds it
the mimic positions :func:`resolve_positions` computed; its continuous joints are
parametrised by (cos q, sin q). The model gets a free-flyer root at identity so the root
link's own mass counts, as it does in ours.
"""

import math

from corpus import urdf_path
import numpy as np
import pytest
from urdf_link_tools.kinematics import (
    forward_kinematics, resolve_positions, robot_center_of_mass)
from urdf_link_tools.parser import parse_urdf_string

pin = pytest.importorskip('pinocchio', reason='Pinocchio is the oracle: pip install pin')

# Two robots named in the spirit: mimic joints (talos), continuous and prismatic
# joints (tiago), and pr2, which has all three.
ROBOTS = ('talos_full_v2.urdf', 'tiago.urdf', 'pr2.urdf')
CONFIGURATIONS = 4


def _load(name):
    try:
        path = urdf_path(name)
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    robot = parse_urdf_string(path.read_bytes(), str(path))
    model = pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer())
    return robot, model


def _random_positions(robot, rng):
    positions = {}
    for joint in robot.joints:
        if joint.type in ('revolute', 'prismatic'):
            low, high = (joint.limit.lower, joint.limit.upper) if joint.limit else (-1.0, 1.0)
            positions[joint.name] = rng.uniform(low, high) if high > low else 0.0
        elif joint.type == 'continuous':
            positions[joint.name] = rng.uniform(-math.pi, math.pi)
    return positions


def _pinocchio_q(model, resolved):
    q = pin.neutral(model)  # free flyer at identity: (0 0 0, 0 0 0 1)
    for joint_id in range(2, model.njoints):
        joint = model.joints[joint_id]
        value = resolved.get(model.names[joint_id], 0.0)
        if joint.nq == 2:
            q[joint.idx_q] = math.cos(value)
            q[joint.idx_q + 1] = math.sin(value)
        else:
            assert joint.nq == 1, model.names[joint_id]
            q[joint.idx_q] = value
    return q


@pytest.mark.parametrize('name', ROBOTS)
def test_kinematics_com_matches_pinocchio(name):
    robot, model = _load(name)
    data = model.createData()
    rng = np.random.default_rng(20260422)
    mimics = [joint for joint in robot.joints if joint.mimic is not None]
    for index in range(CONFIGURATIONS):
        positions = {} if index == 0 else _random_positions(robot, rng)
        # What a joint_states publisher says about a mimic joint must not matter.
        positions.update({joint.name: 123.0 for joint in mimics})
        transforms = forward_kinematics(robot, positions)
        mass, com = robot_center_of_mass(robot, transforms)

        expected_com = pin.centerOfMass(model, data, _pinocchio_q(
            model, resolve_positions(robot, positions)))
        assert mass == pytest.approx(data.mass[0], rel=1e-12)
        np.testing.assert_allclose(com, expected_com, atol=1e-9)


@pytest.mark.parametrize('name', ROBOTS)
def test_kinematics_link_poses_match_pinocchio(name):
    robot, model = _load(name)
    data = model.createData()
    positions = _random_positions(robot, np.random.default_rng(7))
    transforms = forward_kinematics(robot, positions)
    pin.framesForwardKinematics(model, data, _pinocchio_q(
        model, resolve_positions(robot, positions)))
    assert set(transforms) == set(robot.link_names)
    for link_name, pose in transforms.items():
        frame = data.oMf[model.getFrameId(link_name, pin.BODY)]
        np.testing.assert_allclose(pose[:3, :3], frame.rotation, atol=1e-9, err_msg=link_name)
        np.testing.assert_allclose(pose[:3, 3], frame.translation, atol=1e-9, err_msg=link_name)


def test_kinematics_com_moves_with_the_joints():
    robot, _ = _load('tiago.urdf')
    _, still = robot_center_of_mass(robot, forward_kinematics(robot, {}))
    _, moved = robot_center_of_mass(robot, forward_kinematics(
        robot, {'torso_lift_joint': 0.3, 'arm_1_joint': 1.5, 'arm_2_joint': 1.0}))
    assert moved[2] > still[2] + 0.05
