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
Pinocchio as the oracle for the whole-robot centre of mass (``pip install pin``).

Pinocchio reads the URDF itself (C++), so agreeing with it checks our parser and our
kinematics together. Its URDF reader treats mimic joints as independent joints, so it is
given the mimic positions our :func:`resolve_positions` computed; its continuous joints are
parametrised by (cos q, sin q). The model gets a free-flyer root at identity so the root
link's own mass counts, as it does in ours.
"""

import math
from typing import Dict, Mapping, Tuple

import numpy as np
from urdf_link_tools.kinematics import resolve_positions
from urdf_link_tools.model import Robot


class PinocchioCom:
    """
    The centre of mass of one URDF by Pinocchio.

    :param path: the URDF file
    :param robot: our model of the same file (for mimic joints)
    """

    def __init__(self, path: str, robot: Robot) -> None:
        import pinocchio

        self.pin = pinocchio
        self.robot = robot
        self.model = pinocchio.buildModelFromUrdf(str(path), pinocchio.JointModelFreeFlyer())
        self.data = self.model.createData()

    def configuration(self, positions: Mapping[str, float]) -> np.ndarray:
        """Return Pinocchio's q for joint positions (by name, as in a JointState)."""
        resolved = resolve_positions(self.robot, positions)
        q = self.pin.neutral(self.model)  # the free flyer at identity: (0 0 0, 0 0 0 1)
        for joint_id in range(2, self.model.njoints):
            joint = self.model.joints[joint_id]
            value = resolved.get(self.model.names[joint_id], 0.0)
            if joint.nq == 2:
                q[joint.idx_q] = math.cos(value)
                q[joint.idx_q + 1] = math.sin(value)
            elif joint.nq == 1:
                q[joint.idx_q] = value
            else:
                raise ValueError(f'unexpected joint {self.model.names[joint_id]}: nq={joint.nq}')
        return q

    def com(self, positions: Mapping[str, float]) -> Tuple[float, np.ndarray]:
        """Return (total mass, centre of mass in the root frame)."""
        com = self.pin.centerOfMass(self.model, self.data, self.configuration(positions))
        return float(self.data.mass[0]), np.array(com)

    def frame_poses(self, positions: Mapping[str, float]) -> Dict[str, np.ndarray]:
        """Return every link's pose (4x4) in the root frame."""
        self.pin.framesForwardKinematics(self.model, self.data, self.configuration(positions))
        poses = {}
        for link in self.robot.links:
            placement = self.data.oMf[self.model.getFrameId(link.name, self.pin.BODY)]
            pose = np.eye(4)
            pose[:3, :3] = placement.rotation
            pose[:3, 3] = placement.translation
            poses[link.name] = pose
        return poses


def random_positions(robot: Robot, rng: np.random.Generator) -> Dict[str, float]:
    """Return a position within limits for every revolute, prismatic and continuous joint."""
    positions = {}
    for joint in robot.joints:
        if joint.type in ('revolute', 'prismatic'):
            low, high = joint.limit.bounds if joint.limit else (-1.0, 1.0)
            positions[joint.name] = float(rng.uniform(low, high)) if high > low else 0.0
        elif joint.type == 'continuous':
            positions[joint.name] = float(rng.uniform(-math.pi, math.pi))
    return positions
