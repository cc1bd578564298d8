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
Which links touch by construction: MoveIt Setup Assistant's connection graph.

A link is adjacent to its parent and its children. A link without collision geometry
(a frame such as ``tool0``, ``base``, ``panda_link8``, often welded by a fixed joint) passes
its neighbours on: all of them become adjacent to each other, repeatedly, so two links
joined through a chain of geometry-less frames are adjacent
(``computeConnectionGraph`` in moveit_setup_srdf_plugins' compute_default_collisions.cpp).
Only pairs of links that both have geometry are reported, as Setup Assistant writes them.
"""

from __future__ import annotations

import math
from typing import Collection, Dict, Iterator, List, Mapping, Optional, Set, Tuple

import numpy as np

from urdf_link_tools.kinematics import weld_top
from urdf_link_tools.model import Joint, Robot

Pair = Tuple[str, str]


def pair(first: str, second: str) -> Pair:
    """Return a pair of link names in the order the SRDF writes them (sorted)."""
    return (first, second) if first <= second else (second, first)


def adjacent_pairs(robot: Robot, with_geometry: Collection[str]) -> Set[Pair]:
    """
    Return the adjacent pairs of links that both have collision geometry.

    :param robot: the model
    :param with_geometry: the links that have collision geometry (a body)
    :return: sorted pairs
    """
    return set(Adjacency(robot, with_geometry).pairs())


class Adjacency:
    """
    The adjacent pairs of links with collision geometry, asked one at a time.

    What :func:`adjacent_pairs` lists, without listing it: the links joined through one
    group of shapeless links are all adjacent to each other, so a hub without geometry
    holding n links is n (n - 1) / 2 pairs (a hostile 8,000-link star: 32 million pairs,
    3 GB), and ``pair in adjacency`` asks which groups both links touch.
    """

    def __init__(self, robot: Robot, with_geometry: Collection[str]) -> None:
        with_geometry = frozenset(with_geometry)
        graph: Dict[str, Set[str]] = {}
        for joint in robot.joints:
            if joint.parent == joint.child or robot.link(joint.parent) is None or \
                    robot.link(joint.child) is None or \
                    robot.parent_joint(joint.child) is not joint:
                continue
            graph.setdefault(joint.parent, set()).add(joint.child)
            graph.setdefault(joint.child, set()).add(joint.parent)
        # Setup Assistant repeats until nothing changes: a shapeless link joins its
        # neighbours, which then pass it on if they are shapeless too. The fixed point: two
        # links with geometry are adjacent when joined directly or through shapeless links
        # only. So each connected group of shapeless links joins every link with geometry
        # that touches it (linear in the joints, where repeating the joining is cubic on a
        # loop of frames).
        self._groups: List[List[str]] = []
        self._member: Dict[str, List[int]] = {}
        seen: Set[str] = set()
        for start in graph:
            if start in with_geometry or start in seen:
                continue
            touching: Set[str] = set()
            seen.add(start)
            stack = [start]
            while stack:
                for other in graph[stack.pop()]:
                    if other in with_geometry:
                        touching.add(other)
                    elif other not in seen:
                        seen.add(other)
                        stack.append(other)
            if len(touching) < 2:
                continue
            number = len(self._groups)
            self._groups.append(sorted(touching))
            for name in touching:
                self._member.setdefault(name, []).append(number)
        self._direct = {pair(link, other) for link, others in graph.items() for other in others
                        if link in with_geometry and other in with_geometry and link != other}

    def __contains__(self, item: object) -> bool:
        """Return True for an adjacent pair (its two names, in either order)."""
        if not isinstance(item, tuple) or len(item) != 2:
            return False
        first, second = item
        if first == second:
            return False
        if pair(first, second) in self._direct:
            return True
        mine = self._member.get(first)
        theirs = self._member.get(second)
        if not mine or not theirs:
            return False
        return not set(mine).isdisjoint(theirs)

    def pairs(self) -> Iterator[Pair]:
        """Yield every adjacent pair once, sorted within the pair (a set's worth of them)."""
        seen: Set[Pair] = set(self._direct)
        yield from self._direct
        for ordered in self._groups:
            for index, first in enumerate(ordered):
                for second in ordered[index + 1:]:
                    found = (first, second)
                    if found not in seen:
                        seen.add(found)
                        yield found


class MujocoFilter:
    """
    Which pairs of links MuJoCo never collides: those of one body, or of a parent and child body.

    MuJoCo's URDF import fuses links welded by fixed joints into one body and leaves the
    root's body without a joint (the base welded to the world). Its contact filter
    (``filterBodyPair`` in engine_collision_driver.c) skips geoms of one weld body and
    of a body and its parent, except where the parent is the world: the links that move
    on a fixed base collide with it. Links that MoveIt calls adjacent through a link
    without collision geometry (a hip's shapeless roll link, a shapeless hub carrying
    fingers) are two bodies apart, so MuJoCo collides them too.
    """

    def __init__(self, robot: Robot, fixed: Optional[bool] = None) -> None:
        self._robot = robot
        self._tops: Dict[str, str] = {}
        roots = robot.root_links
        #: the body MuJoCo makes the world (the single root's), None without a single root
        self.world = self.body(roots[0]) if len(roots) == 1 else None
        #: whether that base is meant welded to the world (:func:`base_meant_fixed`): if not,
        #: the links moving on it are not collided with it (a free joint is given there)
        self.fixed = base_meant_fixed(robot) if fixed is None else fixed

    def body(self, name: str) -> str:
        """Return the link whose body a link is part of: up through fixed joints."""
        return weld_top(self._robot, name, self._tops)

    def parent_body(self, body: str) -> Optional[str]:
        """Return the body a body moves on (None for a root)."""
        joint = self._robot.parent_joint(body)
        return None if joint is None else self.body(joint.parent)

    def filters(self, first: str, second: str) -> bool:
        """
        Return True when MuJoCo never collides the two links' geoms.

        A link moving on the base collides with it only where the base is meant fixed:
        a floating robot gets a free joint, and then the base is a body like the others.
        """
        one, other = self.body(first), self.body(second)
        if one == other:
            return True
        world = self.world if self.fixed else None
        return (self.parent_body(other) == one and one != world) or \
            (self.parent_body(one) == other and other != world)


#: a link whose collision geometry reaches this far (m) below the base's, at rest, is a leg
#: or a wheel the robot stands on: the base floats
HANGS_BELOW = 0.03


def base_meant_fixed(robot: Robot, bottoms: Optional[Mapping[str, float]] = None) -> bool:
    """
    Return True when a robot's base is meant welded to the world, as MuJoCo loads a URDF.

    MuJoCo gives a URDF's root no joint: the base is welded to the world. That is meant
    when the root is named world (the URDF convention of a fixed base), when the body of
    the root carries one moving joint (an arm's first: the SO-100's shoulder, Panda's link
    1), and when it carries several but nothing shows the robot standing on anything but
    its base (a hand's fingers, a dual-arm torso's shoulders: sweep Y's six hands, 22 palm
    contacts MuJoCo makes as loaded; review 15's dual-arm torso). A robot standing on
    legs or wheels, or flying, is given a free joint: a base carrying a ``floating`` or
    ``planar`` joint, a continuous joint turning about a horizontal axis (a wheel, on the
    base or on a suspension under it) or three continuous joints (casters, a multirotor's
    propellers), or links whose collision geometry reaches :data:`HANGS_BELOW` or more
    below the base's at rest (legs, wheels, casters). Without ``bottoms``, or without
    collision geometry on the base's body, a base carrying several joints is taken to float.

    :param bottoms: the lowest point (z, root frame, at rest) of each link's collision
        geometry (:func:`rest_bottoms`)
    """
    roots = robot.root_links
    if len(roots) != 1:
        return False
    root = roots[0]
    if root == 'world':
        return True
    moving: List[Joint] = []
    body = {root}
    stack = [root]
    while stack:
        for joint in robot.child_joints(stack.pop()):
            if joint.child in body:
                continue
            if joint.is_moving:
                moving.append(joint)
            else:
                body.add(joint.child)
                stack.append(joint.child)
    if not moving or any(joint.type in ('floating', 'planar') for joint in moving):
        return False
    if len(moving) == 1:
        return True
    # Wheels, casters and rotors: continuous joints on the base, or on a suspension (a
    # prismatic joint) under it (TIAGo dual's wheels)
    spinning = [joint for joint in moving if _spins(joint)] + [
        below for joint in moving if joint.type == 'prismatic'
        for below in robot.child_joints(joint.child) if _spins(below)]
    if len(spinning) >= 3:
        return False  # casters, a multirotor's propellers
    if spinning:
        from urdf_link_tools.geometry import origin_to_matrix
        from urdf_link_tools.kinematics import forward_kinematics
        poses = forward_kinematics(robot, {})
        for joint in spinning:
            if joint.parent not in poses:
                continue
            axis = (poses[joint.parent] @ origin_to_matrix(joint.origin))[:3, :3] @ \
                np.asarray(joint.axis, dtype=float)
            norm = float(np.linalg.norm(axis))
            if norm > 0.0 and abs(float(axis[2])) < 0.5 * norm:
                return False  # a wheel
    if bottoms is None:
        return False
    base = [bottoms[name] for name in body if name in bottoms]
    others = [low for name, low in bottoms.items() if name not in body]
    if not base:
        return False
    return not (others and min(others) < min(base) - HANGS_BELOW)


def _spins(joint: Joint) -> bool:
    """Return True for a joint that turns without end: continuous, or revolute past 2 turns."""
    if joint.type == 'continuous':
        return True
    limit = joint.limit
    if joint.type != 'revolute' or limit is None or limit.lower is None or limit.upper is None:
        return False
    return limit.upper - limit.lower > 4.0 * math.pi  # (the iris' rotors: +-1e16 rad)


def welded_base(robot: Robot, meshes: Mapping[int, object]) -> bool:
    """Return :func:`base_meant_fixed` judged on the robot's collision geometry at rest."""
    return base_meant_fixed(robot, rest_bottoms(robot, meshes))


def rest_bottoms(robot: Robot, meshes: Mapping[int, object]) -> Dict[str, float]:
    """
    Return the lowest point (z in the root frame, every joint at 0) of each link's collisions.

    :param meshes: the loaded meshes by ``id(element)`` (an analysis' ``meshes``); a mesh
        not loaded leaves its element out
    """
    from urdf_link_tools.geometry import element_bounds, transform_bounds
    from urdf_link_tools.kinematics import forward_kinematics
    from urdf_link_tools.meshes import MeshInfo

    poses = forward_kinematics(robot, {})
    found: Dict[str, float] = {}
    for link in robot.links:
        pose = poses.get(link.name)
        if pose is None:
            continue
        for element in link.collisions:
            if element.geometry is None:
                continue
            mesh = meshes.get(id(element))
            box = element_bounds(element, mesh if isinstance(mesh, MeshInfo) else None)
            if box is None:
                continue
            low = float(transform_bounds(box, pose)[0][2])
            if math.isfinite(low):
                found[link.name] = min(found.get(link.name, low), low)
    return found
