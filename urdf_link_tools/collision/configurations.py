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
Joint configurations as MoveIt makes them, and forward kinematics for many at once.

:class:`Chain` orders the joints from the root once; :meth:`Chain.poses` then places every
link for an array of configurations with batched 4x4 products (one per joint for all the
samples), which is what makes 10,000 samples cheap. Positions follow MoveIt's
``RobotState``: the default state is 0 where the limits allow it, else the middle of the
limits (``RevoluteJointModel::getVariableDefaultPositions``); random states are uniform
within the limits, continuous joints within [-pi, pi]; mimic joints follow their leader.
"""

from __future__ import annotations

from collections import deque
import math
from typing import Dict, List, Optional, Tuple

import numpy as np

from urdf_link_tools.geometry import origin_to_matrix
from urdf_link_tools.kinematics import ACTUATED, choose_root, unit_axis
from urdf_link_tools.model import Joint, Robot
from urdf_link_tools.records import record

_MAX_MIMIC_DEPTH = 32


def joint_bounds(joint: Joint) -> Tuple[float, float]:
    """
    Return the position bounds MoveIt gives a joint.

    :param joint: a revolute, continuous or prismatic joint
    :return: (lower, upper); [-pi, pi] for continuous joints; urdfdom's reading of the
        ``<limit>`` otherwise (an absent limit or bound is 0); swapped bounds are reordered
    """
    if joint.type == 'continuous':
        return -math.pi, math.pi
    lower, upper = joint.limit.bounds if joint.limit is not None else (0.0, 0.0)
    lower = lower if math.isfinite(lower) else 0.0
    upper = upper if math.isfinite(upper) else 0.0
    return (lower, upper) if lower <= upper else (upper, lower)


def default_position(joint: Joint) -> float:
    """Return MoveIt's default position: 0 within the bounds, else their middle."""
    lower, upper = joint_bounds(joint)
    return 0.0 if lower <= 0.0 <= upper else (lower + upper) / 2.0


def mimic_leader(joint: Joint, by_name: Dict[str, Joint]) -> Tuple[Joint, float, float]:
    """
    Return the joint whose position drives ``joint``, with the mimic's factors.

    A mimic follows its leader (through other mimics) when the leader is actuated and the
    factors are finite; otherwise, and around a cycle, the joint moves by itself.

    :param by_name: every joint of the robot by name
    :return: (leader, multiplier, offset): position = multiplier * leader's + offset
    """
    multiplier, offset = 1.0, 0.0
    current = joint
    for _ in range(_MAX_MIMIC_DEPTH):
        mimic = current.mimic
        leader = by_name.get(mimic.joint) if mimic is not None else None
        if leader is None or leader.type not in ACTUATED or leader is joint or \
                not (math.isfinite(mimic.multiplier) and math.isfinite(mimic.offset)):
            return current, multiplier, offset
        multiplier, offset = (multiplier * mimic.multiplier,
                              multiplier * mimic.offset + offset)
        current = leader
    return joint, 1.0, 0.0  # a mimic cycle: the joint moves by itself


@record
class _Step:
    """One joint of the chain: which pose it starts from and how it moves."""

    child: int
    parent: int
    origin: np.ndarray
    kind: str
    axis: Optional[np.ndarray]
    variable: int
    multiplier: float = 1.0
    offset: float = 0.0


class Chain:
    """
    The links reachable from the root, in an order where each parent comes first.

    :param robot: the model; links not connected to the root get no pose
    """

    def __init__(self, robot: Robot) -> None:
        root = choose_root(robot)
        self._default_poses: Optional[np.ndarray] = None
        self.links: List[str] = [root] if root is not None and robot.link(root) else []
        self.joints: List[Joint] = []
        index: Dict[str, int] = {name: i for i, name in enumerate(self.links)}
        pending = deque(self.links)
        while pending:
            parent = pending.popleft()
            for joint in robot.child_joints(parent):
                if joint.child in index or robot.link(joint.child) is None or \
                        robot.parent_joint(joint.child) is not joint:
                    continue
                index[joint.child] = len(self.links)
                self.links.append(joint.child)
                self.joints.append(joint)
                pending.append(joint.child)
        self.index = index
        by_name = {joint.name: joint for joint in robot.joints}
        #: the joints a configuration sets (mimic joints follow one of these)
        self.variables: List[Joint] = [
            joint for joint in self.joints
            if joint.type in ACTUATED and mimic_leader(joint, by_name)[0] is joint]
        variable_index = {joint.name: i for i, joint in enumerate(self.variables)}
        self._steps: List[_Step] = []
        for joint in self.joints:
            leader, multiplier, offset = mimic_leader(joint, by_name)
            axis = unit_axis(joint) if joint.type in ACTUATED else None  # once a joint
            moving = axis is not None
            self._steps.append(_Step(
                child=index[joint.child], parent=index[joint.parent],
                origin=origin_to_matrix(joint.origin), kind=joint.type if moving else 'fixed',
                axis=axis,
                variable=variable_index.get(leader.name, -1) if moving else -1,
                multiplier=multiplier, offset=offset))
        bounds = [joint_bounds(joint) for joint in self.variables]
        self.lower = np.array([b[0] for b in bounds], dtype=float)
        self.upper = np.array([b[1] for b in bounds], dtype=float)

    def default_configuration(self) -> np.ndarray:
        """Return MoveIt's default state, shape (variables,)."""
        return np.array([default_position(joint) for joint in self.variables], dtype=float)

    def default_poses(self) -> np.ndarray:
        """
        Return every link's pose at the default state, shape (links, 4, 4), computed once.

        The array is shared: callers must not write to it.
        """
        if self._default_poses is None:
            self._default_poses = self.poses(self.default_configuration()[None, :])[0]
            self._default_poses.flags.writeable = False
        return self._default_poses

    def random_configurations(self, count: int, seed: int) -> np.ndarray:
        """
        Return ``count`` configurations uniform within the bounds, the same for a seed.

        :param count: how many
        :param seed: the random generator's seed
        :return: shape (count, variables)
        """
        rng = np.random.default_rng(seed)
        unit = rng.random((count, len(self.variables)))
        return self.lower + unit * (self.upper - self.lower)

    def poses(self, configurations: np.ndarray) -> np.ndarray:
        """
        Return every link's pose in the root frame for each configuration.

        :param configurations: shape (samples, variables)
        :return: shape (samples, links, 4, 4), links in :attr:`links` order
        """
        configurations = np.atleast_2d(np.asarray(configurations, dtype=float))
        samples = configurations.shape[0]
        poses = np.empty((samples, len(self.links), 4, 4))
        if not self.links:  # a robot without links
            return poses
        poses[:, 0] = np.eye(4)
        # NaN or infinite origins (reported by the checks) give NaN poses, quietly
        with np.errstate(invalid='ignore', over='ignore'):
            for step in self._steps:
                parent = poses[:, step.parent]
                if step.kind == 'fixed' or step.variable < 0:
                    poses[:, step.child] = parent @ step.origin
                    continue
                value = configurations[:, step.variable] * step.multiplier + step.offset
                if step.kind != 'prismatic' and samples == 1 and value[0] == 0.0:
                    # Turned by 0 (most joints in the default state): Rodrigues' formula
                    # gives the identity exactly (sin 0 and 1 - cos 0 are 0; the sign of a
                    # zero product vanishes in 1 + x or 0 + x), so the same product with a
                    # constant identity gives the same bits for a tenth of the cost.
                    poses[:, step.child] = parent @ (step.origin @ _UNMOVED)
                    continue
                poses[:, step.child] = parent @ (step.origin @ _motions(step, value))
        return poses


_UNMOVED = np.eye(4)[None]
_UNMOVED.flags.writeable = False


def _motions(step: _Step, values: np.ndarray) -> np.ndarray:
    """Return the joint's motion for each value, shape (samples, 4, 4) (Rodrigues' formula)."""
    motion = np.broadcast_to(np.eye(4), (len(values), 4, 4)).copy()
    axis = step.axis
    if step.kind == 'prismatic':
        motion[:, :3, 3] = values[:, None] * axis
        return motion
    cross = np.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]],
                      [-axis[1], axis[0], 0.0]])
    sine, cosine = np.sin(values), np.cos(values)
    motion[:, :3, :3] = (np.eye(3) + sine[:, None, None] * cross
                         + (1.0 - cosine)[:, None, None] * (cross @ cross))
    return motion
