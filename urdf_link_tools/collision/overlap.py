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
Links whose collision geometry intersects at rest: the planner's "start state in collision".

At MoveIt's default state (:meth:`Chain.default_configuration`), every pair of links that
Setup Assistant would not call adjacent is tested with coal as the matrix tests it (meshes
as surfaces). For a pair in collision, the depth and the place come from coal's contact
between the convex hulls of the two parts (a BVH surface has no depth): the depth is that
of the hulls, an upper bound for concave parts. Candidate pairs come from a sweep over the
links' bounding spheres, so a robot of many links costs no more than its near pairs, and at
most ``max_pairs`` are tested. A pair whose parts' bounding boxes (oriented with each part)
are apart is ruled out before coal is asked.
"""

from dataclasses import dataclass
from typing import Dict, List, Mapping, Tuple

import numpy as np

from urdf_link_tools.collision.adjacency import adjacent_pairs, pair
from urdf_link_tools.collision.bodies import Body, coal_transform
from urdf_link_tools.collision.configurations import Chain
from urdf_link_tools.collision.matrix import Scene
from urdf_link_tools.meshes.hull import coal_qhull

#: the most pairs of near links tested (a robot of many links piled in one place)
MAX_PAIRS = 20_000


@dataclass(frozen=True)
class Overlap:
    """
    Two links in collision at rest.

    :param link1: the first link (sorted by name)
    :param link2: the second
    :param element1: label of link1's collision element in collision
    :param element2: label of link2's
    :param depth: penetration depth in metres (between the two parts' convex hulls)
    :param point: the contact point in the root frame
    :param point_in_link1: the same point in link1's frame
    """

    link1: str
    link2: str
    element1: str
    element2: str
    depth: float
    point: Tuple[float, float, float]
    point_in_link1: Tuple[float, float, float]


@dataclass(frozen=True)
class OverlapReport:
    """The overlaps found, and whether the candidate pairs were cut at ``MAX_PAIRS``."""

    overlaps: Tuple[Overlap, ...]
    tested: int
    truncated: bool


def near_pairs(centres: np.ndarray, radii: np.ndarray, limit: int) \
        -> Tuple[np.ndarray, bool]:
    """
    Return the pairs of spheres that overlap, found by a sweep along x.

    :param centres: (n, 3)
    :param radii: (n,)
    :param limit: the most x-overlapping candidates considered
    :return: (pairs as an (m, 2) index array, True when candidates were cut at ``limit``)
    """
    count = len(radii)
    if count < 2:
        return np.zeros((0, 2), dtype=int), False
    low = centres[:, 0] - radii
    order = np.argsort(low, kind='stable')
    starts = low[order]
    ends = np.searchsorted(starts, (centres[:, 0] + radii)[order], side='right')
    counts = np.maximum(ends - np.arange(count) - 1, 0)
    truncated = int(counts.sum()) > limit
    if truncated:
        keep = np.cumsum(counts) <= limit
        counts = np.where(keep, counts, 0)
    first = np.repeat(np.arange(count), counts)
    offsets = np.arange(len(first)) - np.repeat(np.cumsum(counts) - counts, counts)
    a, b = order[first], order[first + 1 + offsets]
    distance = np.sqrt(((centres[a] - centres[b]) ** 2).sum(axis=1))
    close = distance <= (radii[a] + radii[b]) * (1.0 + 1e-9) + 1e-12
    return np.stack([a[close], b[close]], axis=1), truncated


def boxes_apart(pose_a: np.ndarray, box_a, pose_b: np.ndarray, box_b) -> bool:
    """
    Return True when two oriented boxes are apart (a separating axis among the 15).

    :param pose_a: 4x4 pose of the first box's frame
    :param box_a: (centre, half sides) in that frame
    :param pose_b: the second's pose
    :param box_b: its (centre, half sides)
    """
    rot_a, rot_b = pose_a[:3, :3], pose_b[:3, :3]
    half_a, half_b = box_a[1], box_b[1]
    centre_a = rot_a @ box_a[0] + pose_a[:3, 3]
    centre_b = rot_b @ box_b[0] + pose_b[:3, 3]
    r = rot_a.T @ rot_b
    t = rot_a.T @ (centre_b - centre_a)
    # A little slack, so touching and rounding never rule a pair out: the narrow phase decides.
    slack = 1e-9 * float(max(half_a.max(), half_b.max())) + 1e-12
    absolute = np.abs(r) + 1e-9
    if np.any(np.abs(t) > half_a + absolute @ half_b + slack):
        return True
    if np.any(np.abs(r.T @ t) > absolute.T @ half_a + half_b + slack):
        return True
    for i in range(3):
        i1, i2 = (i + 1) % 3, (i + 2) % 3
        for j in range(3):
            j1, j2 = (j + 1) % 3, (j + 2) % 3
            reach = (half_a[i1] * absolute[i2, j] + half_a[i2] * absolute[i1, j]
                     + half_b[j1] * absolute[i, j2] + half_b[j2] * absolute[i, j1])
            if abs(t[i2] * r[i1, j] - t[i1] * r[i2, j]) > reach + slack:
                return True
    return False


def _boxes_meet(scene: Scene, pose_row: np.ndarray, a: int, b: int) -> bool:
    """Return True when a box of a part of body a meets a box of a part of body b."""
    placed = []
    for body in (a, b):
        link_pose = pose_row[scene.slots[body]]
        placed.append([(link_pose @ part.transform, part) for part in scene.bodies[body].parts])
    return any(_parts_may_meet(*first, *second) for first in placed[0] for second in placed[1])


def _parts_may_meet(pose_a: np.ndarray, part_a, pose_b: np.ndarray, part_b) -> bool:
    """Return False only when two placed parts are certainly apart (conservative)."""
    if part_a.box is None or part_b.box is None:
        return True
    if boxes_apart(pose_a, part_a.box, pose_b, part_b.box):
        return False
    # Tighter: each part's points, placed in the other's box frame, against that box.
    for pose_p, part_p, pose_q, part_q in ((pose_a, part_a, pose_b, part_b),
                                           (pose_b, part_b, pose_a, part_a)):
        if part_p.points is None:
            continue
        relative = np.linalg.solve(pose_q, pose_p)
        placed = part_p.points @ relative[:3, :3].T + relative[:3, 3] - part_q.box[0]
        half = part_q.box[1]
        slack = 1e-9 * float(half.max()) + 1e-12
        if np.any(placed.min(axis=0) > half + slack) or np.any(placed.max(axis=0) < -half - slack):
            return False
    return True


def _hull(coal, geometry, cache: Dict[int, object]) -> object:
    """Return the convex hull of a BVH (qhull, in coal), a primitive as it is, or None."""
    if not isinstance(geometry, coal.BVHModelBase):
        return geometry
    key = id(geometry)
    if key not in cache:
        # None for a flat mesh (a plane, a quad: Qhull would crash the process) and for one
        # coal refuses: the contact then has no depth (see _measure).
        copy = geometry.clone()
        cache[key] = coal_qhull(copy, np.asarray(copy.vertices()), False)
    return cache[key]


def _measure(scene: Scene, pose_row: np.ndarray, a: int, b: int, i: int, j: int,
             hulls: Dict[int, object]) -> Tuple[float, np.ndarray]:
    coal = scene.coal
    part_a, part_b = scene.bodies[a].parts[i], scene.bodies[b].parts[j]
    request = coal.CollisionRequest(coal.CollisionRequestFlag.CONTACT, 1)
    result = coal.CollisionResult()
    pose_a = pose_row[scene.slots[a]] @ part_a.transform
    pose_b = pose_row[scene.slots[b]] @ part_b.transform
    hull_a, hull_b = _hull(coal, part_a.geometry, hulls), _hull(coal, part_b.geometry, hulls)
    try:
        hit = hull_a is not None and hull_b is not None and coal.collide(
            hull_a, coal_transform(coal, pose_a), hull_b, coal_transform(coal, pose_b),
            request, result)
    except Exception:  # a hull coal refuses: no depth, the place of the surfaces
        hit = False
    if hit and result.numContacts():
        contact = result.getContact(0)
        return abs(float(contact.penetration_depth)), np.asarray(contact.pos, dtype=float)
    return 0.0, (pose_a[:3, 3] + pose_b[:3, 3]) / 2.0


def overlaps_at_rest(robot, bodies: Mapping[str, Body], max_pairs: int = MAX_PAIRS) \
        -> OverlapReport:
    """
    Return the pairs of non-adjacent links in collision at MoveIt's default state.

    :param robot: the model
    :param bodies: its collision bodies (:func:`~.bodies.build_bodies`)
    :param max_pairs: the most candidate pairs tested
    :return: the overlaps, deepest first
    :raises CollisionLibraryMissing: when coal is not installed
    """
    chain = Chain(robot)
    scene = Scene(chain, bodies)
    names = scene.names
    adjacent = adjacent_pairs(robot, names)
    pose_row = chain.default_poses()
    slots = pose_row[scene.slots]
    centres = np.einsum('nij,nj->ni', slots[:, :3, :3], scene.centres) + slots[:, :3, 3]
    candidates, truncated = near_pairs(centres, scene.radii, max_pairs)
    found: List[Overlap] = []
    hulls: Dict[int, object] = {}
    for a, b in sorted((int(a), int(b)) if names[a] <= names[b] else (int(b), int(a))
                       for a, b in candidates):
        if pair(names[a], names[b]) in adjacent:
            continue
        # Boxes first: a pair whose parts' boxes are apart needs neither its BVH models
        # built (a humanoid's meshes cost tens of ms) nor coal imported.
        if not _boxes_meet(scene, pose_row, a, b):
            continue
        parts = scene.colliding_parts(pose_row, a, b)
        if not parts:
            continue
        measured = [(_measure(scene, pose_row, a, b, i, j, hulls), i, j) for i, j in parts]
        (depth, point), i, j = max(measured, key=lambda item: item[0][0])
        link_pose = pose_row[scene.slots[a]]
        local = link_pose[:3, :3].T @ (point - link_pose[:3, 3])
        found.append(Overlap(
            names[a], names[b], scene.bodies[a].parts[i].label,
            scene.bodies[b].parts[j].label, depth, tuple(float(v) for v in point),
            tuple(float(v) for v in local)))
    found.sort(key=lambda item: (-item.depth, item.link1, item.link2))
    return OverlapReport(tuple(found), len(candidates), truncated)
