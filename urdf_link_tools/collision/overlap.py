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
are apart is ruled out before coal is asked, and coal is asked about each mesh cropped to
the triangles that reach where the two parts' bounds meet (the same answer as the whole
meshes, without building the BVH of a whole humanoid torso).
"""

from __future__ import annotations

import math
from typing import (Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Set, Tuple,
                    TypeVar)
import weakref

import numpy as np

from urdf_link_tools.collision.adjacency import Adjacency, MujocoFilter, pair
from urdf_link_tools.collision.bodies import Body, coal_transform
from urdf_link_tools.collision.configurations import Chain
from urdf_link_tools.collision.matrix import Scene
from urdf_link_tools.meshes.hull import coal_qhull
from urdf_link_tools.meshes.integrals import column_bounds
from urdf_link_tools.meshes.reading import frozen
from urdf_link_tools.records import record

#: the most pairs of near links tested (a robot of many links piled in one place)
MAX_PAIRS = 20_000

T = TypeVar('T')


@record
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
    :param point_in_link2: the same point in link2's frame
    """

    link1: str
    link2: str
    element1: str
    element2: str
    depth: float
    point: Tuple[float, float, float]
    point_in_link1: Tuple[float, float, float]
    point_in_link2: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    #: True for a pair not tested: a mesh too big for a BVH (:data:`MAX_BVH_TRIANGLES`)
    untested: bool = False
    #: how far (m) one part moves before the surfaces part, for a pair with a concave mesh 1
    #: mm deep or more between hulls, when asked (:func:`_surface_depth`); None where not
    #: measured (convex parts, whose hulls are their surfaces)
    surface_depth: Optional[float] = None
    #: set where ``depth`` was made the surfaces' (for engines colliding surfaces only): the
    #: depth between the hulls
    hull_depth: Optional[float] = None
    #: True for a pair MoveIt calls adjacent (never checked) that MuJoCo collides, tested
    #: when asked (:class:`OverlapPlan`'s ``joined``)
    joined: bool = False
    #: True for a pair whose surfaces do not meet but whose convex hulls do, which only
    #: MuJoCo collides (tested when asked: :class:`OverlapPlan`'s ``hulls``)
    hull_only: bool = False


@record
class OverlapReport:
    """The overlaps found, and whether the candidate pairs were cut at ``MAX_PAIRS``."""

    overlaps: Tuple[Overlap, ...]
    tested: int
    truncated: bool
    #: pairs left untested, their meshes too big for a BVH (link1, link2)
    untested: Tuple[Tuple[str, str], ...] = ()


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


#: the most pairs of collision elements measured for a pair of adjacent links MuJoCo
#: collides, and the most points a mesh among them has (past either, no claim: 3,000
#: spheres on each of two links cost 4.4 GB, a 100,000-vertex sphere's hull 17 s; review 13)
JOINED_ELEMENT_PAIRS = 2_500
JOINED_MESH_POINTS = 100_000
#: the least depth (m) between the hulls of a pair whose surfaces do not meet that is said: a
#: contact under a millimetre is parts touching as a CAD assembly places them
HULL_ONLY_MIN = 1e-3


def _deepest_hulls(scene: Scene, pose_row: np.ndarray, a: int,
                   b: int) -> Optional[Tuple[Tuple[float, np.ndarray, Optional[np.ndarray]],
                                             int, int]]:
    """Return the deepest contact of two bodies' parts' hulls, with the parts, or None."""
    parts_a, parts_b = scene.bodies[a].parts, scene.bodies[b].parts
    if len(parts_a) * len(parts_b) > JOINED_ELEMENT_PAIRS or any(
            part.mesh is not None and part.points is not None
            and len(part.points) > JOINED_MESH_POINTS for part in parts_a + parts_b):
        return None
    link_a, link_b = pose_row[scene.slots[a]], pose_row[scene.slots[b]]
    deepest = None
    for i, part_a in enumerate(parts_a):
        pose_a = link_a @ part_a.transform
        for j, part_b in enumerate(parts_b):
            pose_b = link_b @ part_b.transform
            if not _remembered('may meet', pose_a, part_a, pose_b, part_b,
                               lambda: _parts_may_meet(pose_a, part_a,  # noqa: B023
                                                       pose_b, part_b)):
                continue
            found = _measure(scene, pose_row, a, b, i, j)
            if found[2] is not None and (deepest is None or found[0] > deepest[0][0]):
                deepest = (found, i, j)
    return deepest


def _boxes_meet(scene: Scene, pose_row: np.ndarray, a: int, b: int) -> bool:
    """Return True when a box of a part of body a meets a box of a part of body b."""
    placed = []
    for body in (a, b):
        link_pose = pose_row[scene.slots[body]]
        placed.append([(link_pose @ part.transform, part) for part in scene.bodies[body].parts])
    return any(_remembered('may meet', pose_a, part_a, pose_b, part_b,
                           lambda: _parts_may_meet(pose_a, part_a, pose_b, part_b))
               for pose_a, part_a in placed[0] for pose_b, part_b in placed[1])


def _remembered(kind: str, pose_a: np.ndarray, part_a, pose_b: np.ndarray, part_b,
                compute: Callable[[], T]) -> T:
    """
    Return ``compute()``, a test of two placed parts, kept with a mesh of the two.

    A test depends on nothing but the two parts' geometry and their poses: the next analysis
    of a description with the same files and the same poses (a node re-analysing an edited
    description) finds it there (:meth:`~urdf_link_tools.meshes.MeshInfo.derived`). Two
    primitives are tested again, which costs less than the key.

    :param kind: which test
    """
    if part_a.mesh is not None:
        holder, role, own, other, other_pose = part_a, 0, pose_a, part_b, pose_b
    elif part_b.mesh is not None:
        holder, role, own, other, other_pose = part_b, 1, pose_b, part_a, pose_a
    else:
        return compute()
    token = other.mesh.file_token if other.mesh is not None else None
    shape = ('mesh', other.mesh.scale, id(token)) if token is not None else other.shape
    key = (kind, role, own.tobytes(), shape, other_pose.tobytes())
    reference, value = holder.mesh.derived(
        key, lambda: (weakref.ref(token) if token is not None else None, compute()))
    if reference is not None and reference() is not token:
        return compute()  # derived from a file since gone, whose id this one now has
    return value


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
        low, high = column_bounds(placed)
        if np.any(low > half + slack) or np.any(high < -half - slack):
            return False
    return True


#: Room around the region where two parts' boxes meet: the triangles reaching into it are
#: kept (coal's tolerances are far below a micrometre).
CROP_PAD = 1e-6

#: A mesh cropped to more than this share of its triangles uses its whole BVH (built once
#: and kept for the other pairs) instead of a BVH of its own.
CROP_SHARE = 0.5
#: triangles of one mesh (or of the part of it near another) beyond which no BVH is built:
#: coal's takes about 500 bytes a triangle, and a 7 kB COLLADA file instancing one part
#: 65,536 times made 2.6 million (3.2 GB and 30 s for three links; a MemoryError at 4 GB)
MAX_BVH_TRIANGLES = 1_000_000


class _TooBig(Exception):
    """A mesh has more triangles than a BVH is built for (:data:`MAX_BVH_TRIANGLES`)."""


def _placed(pose: np.ndarray, part) -> np.ndarray:
    """Return a part's points (mesh vertices, a primitive's box corners) in the root frame."""
    return part.points @ pose[:3, :3].T + pose[:3, 3]


def _cropped(coal, part, placed: np.ndarray, low: np.ndarray, high: np.ndarray) -> object:
    """
    Return the part's coal geometry holding what reaches into a box, or None for nothing.

    A mesh keeps the triangles whose bounds meet the box. Two surfaces can only touch where
    both are, so between two parts cropped to the box where their bounds meet, coal finds
    a collision exactly when it finds one between the whole parts; building the BVH of a few
    triangles costs a fraction of a humanoid torso's tens of thousands.
    """
    faces = part.faces
    if faces is None:
        return part.geometry  # a primitive: as it is
    # Cohen-Sutherland codes: a bit per side of the box a vertex lies beyond. A triangle
    # whose three vertices share a bit lies wholly beyond that side. Built column by column
    # (a third of the time of a product of uint8 matrices, which has no BLAS).
    code = np.zeros(len(placed), dtype=np.uint8)
    for axis in range(3):
        column = placed[:, axis]
        code |= (column < low[axis]).view(np.uint8) << axis
        code |= (column > high[axis]).view(np.uint8) << (axis + 3)
    keep = (code[faces[:, 0]] & code[faces[:, 1]] & code[faces[:, 2]]) == 0
    count = int(np.count_nonzero(keep))
    if count == 0:
        return None
    if count > MAX_BVH_TRIANGLES:
        raise _TooBig()
    if count > CROP_SHARE * len(faces):
        if len(faces) > MAX_BVH_TRIANGLES:
            raise _TooBig()
        return part.geometry
    used, inverse = np.unique(faces[keep], return_inverse=True)
    model = coal.BVHModelOBB()
    model.beginModel(count, len(used))
    model.addVertices(np.ascontiguousarray(part.points[used], dtype=np.float64))
    model.addTriangles(np.ascontiguousarray(inverse.reshape(-1, 3), dtype=np.int32))
    model.endModel()
    return model


def colliding_parts(scene: Scene, pose_row: np.ndarray, a: int, b: int,
                    placed: Optional[Dict[int, list]] = None) -> List[Tuple[int, int]]:
    """
    Return the (part of a, part of b) pairs in collision, as :meth:`Scene.colliding_parts`.

    The same answers (coal on the surfaces), with each mesh cropped to the box where the two
    parts' bounds meet (:func:`_cropped`): one pose needs no BVH of a whole mesh.

    :param placed: body -> its parts placed at ``pose_row``, kept between calls for the
        same pose row (a torso near ten links is placed once)
    """
    coal = scene.coal
    request, result = coal.CollisionRequest(), coal.CollisionResult()
    placed = {} if placed is None else placed

    def parts_of(body: int) -> list:
        if body not in placed:
            link_pose = pose_row[scene.slots[body]]
            row = []
            for part in scene.bodies[body].parts:
                pose = link_pose @ part.transform
                points = _placed(pose, part)
                row.append((part, pose, points) + column_bounds(points))
            placed[body] = row
        return placed[body]

    def touch(i: int, j: int) -> bool:
        part_a, pose_a, points_a, low_a, high_a = parts_of(a)[i]
        part_b, pose_b, points_b, low_b, high_b = parts_of(b)[j]
        low, high = np.maximum(low_a, low_b), np.minimum(high_a, high_b)
        pad = CROP_PAD + 1e-9 * float(max(np.abs(low).max(), np.abs(high).max()))
        low, high = low - pad, high + pad
        if np.any(low > high):
            return False
        geometry_a = _cropped(coal, part_a, points_a, low, high)
        geometry_b = None if geometry_a is None else \
            _cropped(coal, part_b, points_b, low, high)
        if geometry_b is None:
            return False
        result.clear()
        return bool(coal.collide(geometry_a, coal_transform(coal, pose_a), geometry_b,
                                 coal_transform(coal, pose_b), request, result))

    found: List[Tuple[int, int]] = []
    pose_a_link, pose_b_link = pose_row[scene.slots[a]], pose_row[scene.slots[b]]
    for i, part_a in enumerate(scene.bodies[a].parts):
        pose_a = pose_a_link @ part_a.transform
        for j, part_b in enumerate(scene.bodies[b].parts):
            pose_b = pose_b_link @ part_b.transform
            if _remembered('touch', pose_a, part_a, pose_b, part_b,
                           lambda: touch(i, j)):  # noqa: B023 (called at once)
                found.append((i, j))
    return found


def _hull(part) -> object:
    """Return the convex hull of a mesh part (qhull, in coal), a primitive as it is, or None."""
    if part.mesh is None:
        return part.geometry
    # None for a flat mesh (a plane, a quad: Qhull would crash the process) and for one
    # coal refuses: the contact then has no depth (see _measure). The hull needs the
    # vertices only, not the mesh's BVH; it is kept with the file for the next analysis.
    return part.mesh.derived(('overlap hull',), lambda: coal_qhull(part.points, False, True))


def _measure(scene: Scene, pose_row: np.ndarray, a: int, b: int, i: int,
             j: int) -> Tuple[float, np.ndarray, Optional[np.ndarray]]:
    part_a, part_b = scene.bodies[a].parts[i], scene.bodies[b].parts[j]
    pose_a = pose_row[scene.slots[a]] @ part_a.transform
    pose_b = pose_row[scene.slots[b]] @ part_b.transform
    return _remembered('depth', pose_a, part_a, pose_b, part_b,
                       lambda: _depth(scene.coal, part_a, pose_a, part_b, pose_b))


def _sphere_in_cylinder(part_a, pose_a: np.ndarray, part_b,
                        pose_b: np.ndarray) -> Optional[Tuple[float, np.ndarray]]:
    """
    Return the depth and place of a sphere whose centre lies inside a cylinder, or None.

    coal's sphere-cylinder test measures the way out through the side only: a 1 mm sphere
    at the middle of a 9.75 mm thick, 25 mm radius disc is 26 mm deep for it, 5.9 mm (out
    through a cap) in truth (TIAGo's hand). With the centre outside, coal's answer is right.
    """
    for sphere, sphere_pose, cylinder, cylinder_pose in ((part_a, pose_a, part_b, pose_b),
                                                         (part_b, pose_b, part_a, pose_a)):
        if sphere.shape is None or cylinder.shape is None or \
                sphere.shape[0] != 'Sphere' or cylinder.shape[0] != 'Cylinder':
            continue
        radius, (cylinder_radius, length) = sphere.shape[1], cylinder.shape[1:3]
        centre = sphere_pose[:3, 3]
        local = cylinder_pose[:3, :3].T @ (centre - cylinder_pose[:3, 3])
        side = cylinder_radius - math.hypot(float(local[0]), float(local[1]))
        cap = length / 2.0 - abs(float(local[2]))
        if side < 0.0 or cap < 0.0:
            return None
        return radius + min(side, cap), frozen(np.array(centre, dtype=float))
    return None


def _depth(coal, part_a, pose_a: np.ndarray, part_b,
           pose_b: np.ndarray) -> Tuple[float, np.ndarray, Optional[np.ndarray]]:
    """
    Return the depth, place and normal of the contact of two placed parts' hulls.

    (See _measure.) The normal is coal's, None where there is no contact of the hulls.
    """
    inside = _sphere_in_cylinder(part_a, pose_a, part_b, pose_b)
    if inside is not None:
        return inside + (None,)
    request = coal.CollisionRequest(coal.CollisionRequestFlag.CONTACT, 1)
    result = coal.CollisionResult()
    hull_a, hull_b = _hull(part_a), _hull(part_b)
    try:
        hit = hull_a is not None and hull_b is not None and coal.collide(
            hull_a, coal_transform(coal, pose_a), hull_b, coal_transform(coal, pose_b),
            request, result)
    except Exception:  # a hull coal refuses: no depth, the place of the surfaces
        hit = False
    if hit and result.numContacts():
        contact = result.getContact(0)
        return abs(float(contact.penetration_depth)), \
            frozen(np.array(contact.pos, dtype=float)), \
            frozen(np.array(contact.normal, dtype=float))
    return 0.0, frozen((pose_a[:3, 3] + pose_b[:3, 3]) / 2.0), None


#: hulls this deep or deeper (m) have their surfaces' depth measured (shallower is touching)
SURFACE_FROM = 0.001
#: the surfaces' depth is bisected to this (m), or this share of it, whichever is larger
SURFACE_STEP = 0.0001
SURFACE_SHARE = 0.05


def _convex(part) -> bool:
    """Return True for a primitive or a convex mesh: its hull is its surface."""
    if part.mesh is None:
        return True
    try:
        return bool(part.mesh.convex)
    except Exception:  # noqa: B902 (a mesh that cannot be measured is not known convex)
        return False


def _surface_depth(scene: Scene, pose_row: np.ndarray, a: int, b: int, i: int, j: int,
                   depth: float, normal: Optional[np.ndarray]) -> Optional[float]:
    """
    Return how far the second part moves before the surfaces part: their depth, roughly.

    The depth between convex hulls is MuJoCo's (it collides hulls); MoveIt, Pinocchio and
    Gazebo collide the surfaces, which for concave parts may only touch (Galaxea R1's
    fingers: 24.5 mm between hulls, apart once opened by 1 mm). The second part is moved
    along the hulls' normal and the first part's axes, each way, by shifts doubling from
    0.1 mm up to the hulls' depth, on the meshes cropped once to where the parts can meet
    over those moves; the first way they part is bisected (to 0.1 mm or 5 %). An upper
    bound of the surfaces' penetration depth (another way may part them sooner). None for
    convex parts (their hulls are their surfaces), without a normal, for a mesh too big, or
    when no way parts them within the hulls' depth.
    """
    part_a, part_b = scene.bodies[a].parts[i], scene.bodies[b].parts[j]
    if normal is None or not depth >= SURFACE_FROM or (_convex(part_a) and _convex(part_b)):
        return None
    coal = scene.coal
    pose_a = pose_row[scene.slots[a]] @ part_a.transform
    pose_b = pose_row[scene.slots[b]] @ part_b.transform
    points_a, points_b = _placed(pose_a, part_a), _placed(pose_b, part_b)
    reach = 2.0 * depth + CROP_PAD
    (low_a, high_a), (low_b, high_b) = column_bounds(points_a), column_bounds(points_b)
    low = np.maximum(low_a, low_b) - reach
    high = np.minimum(high_a, high_b) + reach
    try:
        geometry_a = _cropped(coal, part_a, points_a, low, high)
        geometry_b = _cropped(coal, part_b, points_b, low, high)
    except _TooBig:
        return None
    if geometry_a is None or geometry_b is None:
        return None
    request, result = coal.CollisionRequest(), coal.CollisionResult()
    place_a = coal_transform(coal, pose_a)

    def meet(shift: float, direction: np.ndarray) -> bool:
        moved = pose_b.copy()
        moved[:3, 3] = pose_b[:3, 3] + shift * direction
        result.clear()
        return bool(coal.collide(geometry_a, place_a, geometry_b,
                                 coal_transform(coal, moved), request, result))

    # The hulls' way out need not be the surfaces' (a block on an L-shaped part's floor
    # leaves the L's hull downwards, through the floor): the first part's axes are tried
    # too, each way, at shifts doubling from 0.1 mm, then the first way out is bisected.
    ways = [normal, -normal] + [sign * pose_a[:3, axis] for axis in range(3)
                                for sign in (1.0, -1.0)]
    apart = depth * (1.0 + SURFACE_SHARE) + SURFACE_STEP
    shifts = [SURFACE_STEP, SURFACE_FROM]
    while shifts[-1] < apart:
        shifts.append(min(2.0 * shifts[-1], apart))
    inside = 0.0
    for outside in shifts:
        way = next((way for way in ways if not meet(outside, way)), None)
        if way is not None:
            break
        inside = outside
    else:
        return None  # no way out within the hulls' depth: theirs stays the measure
    while outside - inside > max(SURFACE_STEP, SURFACE_SHARE * outside):
        middle = (inside + outside) / 2.0
        if meet(middle, way):
            inside = middle
        else:
            outside = middle
    return outside


def overlaps_at_rest(robot, bodies: Mapping[str, Body], max_pairs: int = MAX_PAIRS,
                     surfaces: bool = False, joined: bool = False,
                     hulls: bool = False, welded: Optional[bool] = None,
                     zero: bool = False) -> OverlapReport:
    """
    Return the pairs of non-adjacent links in collision at MoveIt's default state.

    :param robot: the model
    :param bodies: its collision bodies (:func:`~.bodies.build_bodies`)
    :param max_pairs: the most candidate pairs tested
    :param surfaces: measure the surfaces' depth too (:attr:`Overlap.surface_depth`)
    :param joined: test the adjacent pairs MuJoCo collides too (:attr:`Overlap.joined`)
    :param hulls: report the pairs whose hulls only meet too (:attr:`Overlap.hull_only`)
    :param welded: whether MuJoCo is taken to weld the base to the world
        (:func:`.adjacency.welded_base`; by default judged without geometry)
    :param zero: with every joint at 0 instead (MuJoCo's start), the pairs placed otherwise
        than at the default state only (see :class:`OverlapPlan`)
    :return: the overlaps, deepest first
    :raises CollisionLibraryMissing: when coal is not installed
    """
    plan = OverlapPlan(robot, bodies, max_pairs, surfaces, joined, hulls, welded, zero)
    return plan.report(overlap for _, overlap in plan.test(range(len(plan.pairs))))


class OverlapPlan:
    """
    The pairs of links to test at rest, each tested on its own (:meth:`test`).

    Made without coal: the scene, the default state and the candidate pairs that are not
    adjacent, sorted by name. Any share of the pairs can be tested anywhere (a forked child
    tests some of them while this process runs the other checks, see
    :mod:`.collision.shared`); :meth:`report` gives the same report from the overlaps of all
    of them, in any order.
    """

    def __init__(self, robot, bodies: Mapping[str, Body], max_pairs: int = MAX_PAIRS,
                 surfaces: bool = False, joined: bool = False, hulls: bool = False,
                 welded: Optional[bool] = None, zero: bool = False) -> None:
        #: measure how deep the surfaces meet too, where the hulls meet 1 mm deep or more
        #: (for engines that collide surfaces only: a few ms a pair)
        self.surfaces = surfaces
        #: test the hulls of a pair whose surfaces do not meet (MuJoCo collides hulls: iCub's
        #: head and left shoulder, 47 mm, as MuJoCo finds them; a few ms a humanoid)
        self.hulls = hulls
        chain = Chain(robot)
        self.scene = Scene(chain, bodies)
        names = self.scene.names
        adjacent = Adjacency(robot, names)  # asked, not listed (a hub's n^2 pairs)
        self.pose_row = chain.default_poses()
        rest = self.pose_row
        if zero:
            # Every joint at 0, as MuJoCo starts (qpos0), and only the pairs that rest
            # otherwise at MoveIt's default state (the rest are the plan at rest's)
            self.pose_row = chain.poses(np.zeros((1, len(chain.variables))))[0]
        slots = self.pose_row[self.scene.slots]
        centres = np.einsum('nij,nj->ni', slots[:, :3, :3], self.scene.centres) + \
            slots[:, :3, 3]
        candidates, self.truncated = near_pairs(centres, self.scene.radii, max_pairs)
        if zero:
            candidates = candidates[_moved_apart(rest, self.pose_row,
                                                 self.scene.slots[candidates[:, 0]],
                                                 self.scene.slots[candidates[:, 1]])]
        self.tested = len(candidates)
        # Adjacent pairs are left out (MoveIt never checks them), except, when asked, those
        # MuJoCo collides (a link on the base welded to the world, links joined through a
        # shapeless one): numbered as the others, in the child and here alike.
        mujoco = MujocoFilter(robot, welded) if joined else None
        self.pairs: List[Tuple[int, int]] = []
        self._joined: Set[int] = set()
        for a, b in sorted((int(a), int(b)) if names[a] <= names[b] else (int(b), int(a))
                           for a, b in candidates):
            if pair(names[a], names[b]) in adjacent:
                if mujoco is None or mujoco.filters(names[a], names[b]):
                    continue
                self._joined.add(len(self.pairs))
            self.pairs.append((a, b))
        self._placed: Dict[int, list] = {}

    def test(self, numbers: Iterable[int]) -> Iterator[Tuple[int, Overlap]]:
        """Test the pairs of these numbers (indices of :attr:`pairs`); yield those in collision."""
        scene, pose_row, names = self.scene, self.pose_row, self.scene.names
        for number in numbers:
            a, b = self.pairs[number]
            # Boxes first: a pair whose parts' boxes are apart needs neither its BVH models
            # built (a humanoid's meshes cost tens of ms) nor coal imported.
            if not _boxes_meet(scene, pose_row, a, b):
                continue
            if number in self._joined:
                # MuJoCo's pairs: it collides the hulls, so the hulls are tested (the
                # surfaces of Romeo's shoulder and torso do not meet; their hulls are 19 mm
                # deep, as MuJoCo finds them)
                deepest = _deepest_hulls(scene, pose_row, a, b)
                measured = [deepest] if deepest is not None else []
            else:
                try:
                    parts = colliding_parts(scene, pose_row, a, b, self._placed)
                except _TooBig:
                    yield number, Overlap(names[a], names[b], '', '', 0.0, (0.0, 0.0, 0.0),
                                          (0.0, 0.0, 0.0), untested=True)
                    continue
                measured = [(_measure(scene, pose_row, a, b, i, j), i, j) for i, j in parts]
            hull_only = False
            if self.hulls and number not in self._joined:
                # MuJoCo collides the hulls of every two parts: the surfaces may not meet (a
                # concave part around another, a part within another's hull), or meet only
                # where two other parts graze (review 15: a pad touching 0.5 mm, the U it is
                # on 60 mm deep around the block). Under HULL_ONLY_MIN, hulls alone: not said.
                deepest = _deepest_hulls(scene, pose_row, a, b)
                if deepest is not None and deepest[0][0] >= HULL_ONLY_MIN and (
                        not measured or deepest[0][0] > max(item[0][0] for item in measured)):
                    hull_only = not measured
                    measured.append(deepest)
            if not measured:
                continue
            (depth, point, normal), i, j = max(measured, key=lambda item: item[0][0])
            local = []
            for body in (a, b):
                link_pose = pose_row[scene.slots[body]]
                local.append(tuple(float(v) for v in
                                   link_pose[:3, :3].T @ (point - link_pose[:3, 3])))
            yield number, Overlap(
                names[a], names[b], scene.bodies[a].parts[i].label,
                scene.bodies[b].parts[j].label, depth, tuple(float(v) for v in point),
                local[0], local[1], surface_depth=_surface_depth(
                    scene, pose_row, a, b, i, j, depth, normal)
                if self.surfaces and not hull_only else None,
                joined=number in self._joined, hull_only=hull_only)

    def report(self, overlaps: Iterable[Overlap]) -> OverlapReport:
        """Return the report of the overlaps found among all the pairs, deepest first."""
        return report_of(overlaps, self.tested, self.truncated)


def _moved_apart(rest: np.ndarray, other: np.ndarray, first: np.ndarray,
                 second: np.ndarray) -> np.ndarray:
    """Return where pairs of links are placed otherwise relative to each other (a mask)."""
    def relative(poses: np.ndarray) -> np.ndarray:
        turn, shift = poses[first, :3, :3], poses[first, :3, 3]
        return np.concatenate([
            np.einsum('nji,njk->nik', turn, poses[second, :3, :3]).reshape(-1, 9),
            np.einsum('nji,nj->ni', turn, poses[second, :3, 3] - shift)], axis=1)
    with np.errstate(invalid='ignore', over='ignore'):
        same = np.abs(relative(rest) - relative(other)) <= 1e-9
    return ~np.all(same, axis=1)


def report_of(overlaps: Iterable[Overlap], tested: int, truncated: bool) -> OverlapReport:
    """Return the report of the overlaps of a plan's pairs, deepest first (in any order)."""
    every = list(overlaps)
    found = sorted((item for item in every if not item.untested),
                   key=lambda item: (-item.depth, item.link1, item.link2))
    untested = tuple(sorted((item.link1, item.link2) for item in every if item.untested))
    return OverlapReport(tuple(found), tested, truncated, untested)
