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
Forward kinematics and the whole-robot centre of mass, from the URDF model alone.

Conventions follow urdfdom, KDL and robot_state_publisher: a joint's frame is its ``<origin>``
in the parent link frame, the child link frame coincides with the joint frame, and the joint
moves about (revolute, continuous) or along (prismatic) its unit ``<axis>`` expressed in the
joint frame. ``floating`` and ``planar`` joints carry no position in ``sensor_msgs/JointState``
and are placed at their origin. Mimic joints follow ``multiplier * other + offset``.
"""

from __future__ import annotations

import logging
import math
from typing import Dict, Mapping, Optional, Tuple

import numpy as np

from urdf_link_tools.geometry import origin_to_matrix
from urdf_link_tools.model import Joint, Robot

logger = logging.getLogger(__name__)

#: the joint types that move with a position of their own
ACTUATED = ('revolute', 'continuous', 'prismatic')

Transforms = Dict[str, np.ndarray]

# Mimic chains longer than this are treated as a cycle; a real robot has chains of one or two.
_MAX_MIMIC_DEPTH = 32


def axis_rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    """
    Return the rotation by ``angle`` about a unit ``axis`` (Rodrigues' formula).

    :param axis: unit vector, shape (3,)
    :param angle: radians
    :return: 3x3 rotation matrix
    """
    x, y, z = axis
    c, s = math.cos(angle), math.sin(angle)
    t = 1.0 - c
    return np.array([
        [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
        [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
        [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
    ])


def unit_axis(joint: Joint) -> Optional[np.ndarray]:
    """
    Return the joint axis normalised, as KDL and Pinocchio use it.

    :param joint: the joint
    :return: the unit axis, or None when it is zero or not finite (the joint cannot move)
    """
    values = tuple(float(value) for value in joint.axis)
    nonzero = [value for value in values if value != 0.0]
    if len(values) == 3 and len(nonzero) == 1:
        # Along one axis (most joints): NumPy's norm is the square root of the dot product,
        # here one product plus zeros, so the same number with a tenth of its cost.
        norm = math.sqrt(nonzero[0] * nonzero[0])
        if not math.isfinite(norm) or norm <= 0.0:
            return None
        return np.array([value / norm for value in values])
    axis = np.asarray(values, dtype=float)
    norm = float(np.linalg.norm(axis))
    if not math.isfinite(norm) or norm <= 0.0:
        return None
    return axis / norm


def joint_motion(joint: Joint, position: float) -> np.ndarray:
    """
    Return the motion a joint adds after its origin, for one position.

    :param joint: the joint
    :param position: radians for revolute and continuous joints, metres for prismatic ones
    :return: 4x4 homogeneous transform (identity for fixed, floating and planar joints)
    """
    motion = np.eye(4)
    if joint.type not in ACTUATED:
        return motion
    axis = unit_axis(joint)
    if axis is None or not math.isfinite(position):
        return motion
    if joint.type == 'prismatic':
        motion[:3, 3] = axis * position
    else:
        motion[:3, :3] = axis_rotation(axis, position)
    return motion


def resolve_positions(robot: Robot, positions: Mapping[str, float]) -> Dict[str, float]:
    """
    Return a position for every revolute, continuous and prismatic joint.

    Missing or non-finite positions read as zero, as robot_state_publisher starts them; mimic
    joints follow their leader whatever ``positions`` says for them, as in ros2_control. A
    revolute or prismatic joint is held to its limits (a joint_states publisher's 1e308, or a
    mimic multiplier of 1e300, put the robot's centre of mass at infinity).

    :param robot: the model
    :param positions: joint name -> position, e.g. from the latest ``sensor_msgs/JointState``
    :return: joint name -> position
    """
    joints = {joint.name: joint for joint in robot.joints}

    def given(name: str) -> float:
        value = positions.get(name, 0.0)
        try:
            value = float(value)
        except (TypeError, ValueError):
            return 0.0
        return value if math.isfinite(value) else 0.0

    def follow(name: str, depth: int) -> float:
        joint = joints.get(name)
        if joint is None or joint.mimic is None:
            return given(name)
        if depth >= _MAX_MIMIC_DEPTH:
            logger.debug('mimic chain through joint %r is a cycle; using its own position', name)
            return given(name)
        leader = follow(joint.mimic.joint, depth + 1)
        value = joint.mimic.multiplier * leader + joint.mimic.offset
        return value if math.isfinite(value) else 0.0

    return {joint.name: _within_limits(joints[joint.name], follow(joint.name, 0))
            for joint in robot.joints if joint.type in ACTUATED}


def _within_limits(joint: Joint, value: float) -> float:
    """Return a revolute or prismatic joint's position held to its limits, if it has any."""
    limit = joint.limit
    if joint.type == 'continuous' or limit is None:
        return value
    lower, upper = limit.bounds
    if not (math.isfinite(lower) and math.isfinite(upper) and lower < upper):
        return value  # no range to hold it to (0 to 0 is a placeholder, not a lock)
    return min(max(value, lower), upper)


def choose_root(robot: Robot) -> Optional[str]:
    """
    Return the link the kinematic tree is computed from.

    :param robot: the model
    :return: the only root link, the first one in document order when there are several
        (a structural error the checks report), or None for a robot without links
    """
    roots = robot.root_links
    if roots:
        return roots[0]
    return robot.links[0].name if robot.links else None


def weld_top(robot: Robot, name: str, tops: Dict[str, str]) -> str:
    """
    Return the link a link is welded to: up through fixed joints (itself if it moves).

    :param tops: the answers so far, filled in (every link on the way shares the answer, so
        asking for every link is linear overall; a loop of fixed joints ends where it closes)
    """
    path = []
    seen = set()
    while name not in tops:
        joint = robot.parent_joint(name)
        if joint is None or joint.is_moving or name in seen:
            break
        seen.add(name)
        path.append(name)
        name = joint.parent
    top = tops.get(name, name)
    for member in path:
        tops[member] = top
    tops[name] = top
    return top


def forward_kinematics(robot: Robot, positions: Mapping[str, float],
                       root: Optional[str] = None) -> Transforms:
    """
    Return the pose of every link reachable from the root, in the root link frame.

    Links that are not connected to the root (a second tree, or a joint cycle) are left out:
    they have no pose relative to it.

    :param robot: the model
    :param positions: joint name -> position; see :func:`resolve_positions`
    :param root: the link to start from; :func:`choose_root` by default
    :return: link name -> 4x4 homogeneous transform from the link frame to the root frame
    """
    start = root if root is not None else choose_root(robot)
    if start is None or robot.link(start) is None:
        return {}
    resolved = resolve_positions(robot, positions)
    transforms: Transforms = {start: np.eye(4)}
    pending = [start]
    while pending:
        parent = pending.pop()
        parent_pose = transforms[parent]
        for joint in robot.child_joints(parent):
            if joint.child in transforms or robot.link(joint.child) is None:
                continue
            # A child listed under two joints takes the first one only, as urdfdom does.
            if robot.parent_joint(joint.child) is not joint:
                continue
            local = origin_to_matrix(joint.origin) @ joint_motion(
                joint, resolved.get(joint.name, 0.0))
            transforms[joint.child] = parent_pose @ local
            pending.append(joint.child)
    return transforms


def robot_center_of_mass(robot: Robot, transforms: Mapping[str, np.ndarray]) \
        -> Optional[Tuple[float, np.ndarray]]:
    """
    Return the total mass and the centre of mass of the links that have a pose.

    Links without ``<inertial>``, with a mass that is not a positive finite number, or whose
    pose or inertial origin is not finite are left out; the checks report each of those.

    :param robot: the model
    :param transforms: link name -> pose in the root frame, from :func:`forward_kinematics`
    :return: (mass in kg, centre of mass in the root frame), or None when no link counts
    """
    total = 0.0
    moment = np.zeros(3)
    for link in robot.links:
        pose = transforms.get(link.name)
        inertial = link.inertial
        # A duplicated link name counts once, the first definition, as urdfdom keeps it.
        if pose is None or inertial is None or robot.link(link.name) is not link:
            continue
        mass = inertial.mass
        if not (math.isfinite(mass) and mass > 0.0):
            continue
        centre = pose[:3, :3] @ np.asarray(inertial.origin.xyz, dtype=float) + pose[:3, 3]
        if not np.all(np.isfinite(centre)):
            continue
        total += mass
        moment += mass * centre
    if total <= 0.0:
        return None
    return total, moment / total
