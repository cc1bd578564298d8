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
Whether a link's mass fits the volume its geometry can have: the density-implausible verdict.

The density is bounded, not computed: overlapping collision parts and self-intersecting
meshes make a single volume untrustworthy (see :func:`volume_range`). The same
verdict tells the inertia rules when the collision geometry is not the part (a mesh in
millimetres), so that they do not compare a tensor with it or suggest its tensor.
"""

from __future__ import annotations

import bisect
import math
from typing import List, Optional, Sequence, Set, Tuple

import numpy as np

from urdf_link_tools.checks.base import CheckContext, fmt, fmt_vector
from urdf_link_tools.checks.complexity import reused_visuals
from urdf_link_tools.findings import Severity
from urdf_link_tools.geometry import (
    Bounds, geometry_values, has_size, is_finite, origin_to_matrix, primitive_volume,
    transform_bounds, union_bounds)
from urdf_link_tools.meshes import MeshInfo
from urdf_link_tools.meshes.integrals import row_bounds
from urdf_link_tools.model import GeometryElement, Link, Mesh
from urdf_link_tools.records import record

#: A density this many times beyond the plausible range is a warning; closer, an info (a
#: ballast block, a part whose collision shape is deliberately smaller or larger).
FAR_OFF = 10.0
#: Densities of the solid parts robots are made of (foam-filled plastic to steel), kg/m^3:
#: a unit-slip hint is given only when the corrected density lands in this range.
TYPICAL_DENSITY = (300.0, 12000.0)


#: Collision geometry whose bounds' diagonal is below this (m) is a placeholder.
MARKER_SIZE = 0.01
#: A shape drawn as it collides is taken for the part from this diagonal (m) on.
DRAWN_PART_MIN = 0.05


@record
class DensityVerdict:
    """An implausible density: the bounds, the one reported, the hint and the severity."""

    least: float
    most: float
    density: float
    volumes: Tuple[float, float]
    notes: Tuple[str, ...]
    hint: str
    severity: Severity
    #: the collision geometry's lengths are off by 1000 (millimetres): it is not the part
    length_slip: bool = False


#: a welded link lighter than this share of its body is negligible in it
NEGLIGIBLE_SHARE = 0.01


def density_verdict(ctx: CheckContext, link: Link) -> Optional[DensityVerdict]:
    """
    Return why the link's density is implausible, or None when it is plausible or unknown.

    :param ctx: the analysis context
    :param link: the link
    :return: the verdict; its severity is WARNING for a unit slip or a density more than
        FAR_OFF times beyond the range (then the collision geometry is not the part)
    """
    if link.inertial is None or not (math.isfinite(link.mass) and link.mass > 0.0):
        return None
    key = ('density', id(link))
    if key in ctx.memo:
        return ctx.memo[key]
    verdict = ctx.memo[key] = _verdict(ctx, link)
    return verdict


def density_judged(ctx: CheckContext, link: Link) -> bool:
    """Return True when a link's density can be judged (mass, a volume, a real size)."""
    if link.inertial is None or not (math.isfinite(link.mass) and link.mass > 0.0) or \
            volume_range(ctx, link) is None:
        return False
    bounds = group_bounds(ctx, link.collisions)
    return bounds is not None and float(np.linalg.norm(bounds[1] - bounds[0])) >= MARKER_SIZE


#: a density this close to a limit is on it: 1 kg in 0.1 x 0.1 x 2 m is 49.99999999999999
#: kg/m^3 in floating point, which is 50, the lower limit, not "50, outside 50 to 25,000"
_ROUNDING = 1e-9


def _verdict(ctx: CheckContext, link: Link) -> Optional[DensityVerdict]:
    low = ctx.config.density_min * (1.0 - _ROUNDING)
    high = ctx.config.density_max * (1.0 + _ROUNDING)
    volumes = volume_range(ctx, link)
    if volumes is None:
        return None
    smallest, largest, notes = volumes
    # The density lies between these two, whatever the overlaps and self-intersections.
    least, most = link.mass / largest, link.mass / smallest
    if low <= least and most <= high:
        return None  # the common case, decided before any bounds are computed
    bounds = group_bounds(ctx, link.collisions)
    if bounds is None or float(np.linalg.norm(bounds[1] - bounds[0])) < MARKER_SIZE:
        return None  # a millimetre placeholder shape says nothing about the part
    group = ctx.weld_group(link.name)
    # (a part's shape: not a marker of a centimetre, which TIAGo's tool frames draw and
    # collide, 0.1 kg in 0.4 cm^3)
    drawn = drawn_as_collided(link) and \
        float(np.linalg.norm(bounds[1] - bounds[0])) >= DRAWN_PART_MIN
    if least > high and (len(group) > 1 or link.visuals) and not drawn:
        # Partial collision geometry (contact spheres under a foot): the part may fill its
        # visual geometry and the links welded to it, so only their total bounds the
        # volume from above.
        largest = max(largest, _upper_volume(ctx, group, ctx.weld_top(link.name)))
        least = link.mass / largest
    if most < low:
        # An open mesh of separate parts (NASA Ingenuity's chassis: 27, legs splayed) is
        # not its one hull: the parts' own hulls bound it more closely (each holds its part).
        parts = _parts_smallest(ctx, link)
        if parts is not None and parts < smallest:
            smallest = parts
            most = link.mass / smallest
    if most < low and len(group) > 1:
        # A placeholder mass (1e-6 kg) on a link welded to the one carrying the mass.
        most = ctx.lumped_mass(ctx.weld_top(link.name)) / smallest
    if least > high:
        # Denser than any material in the shape it is drawn with (the part, not a contact
        # sphere): no ballast makes that (Clearpath Boxer's 100 kg wheels and castors in
        # cylinders of a litre, 124,000 kg/m^3; the castors, welded, were judged over the
        # whole base, sweep U).
        density, far = least, least > FAR_OFF * high or drawn
    elif most < low:
        density, far = most, most < low / FAR_OFF
    else:
        return None
    hint, slip = _density_hint(link, density, low)
    if drawn and density > high and not slip:
        hint = ('denser than any material in the shape the part is drawn with (its visual '
                'is its collision geometry): the mass is too high (a deliberate ballast can '
                'be silenced with --ignore density-implausible)')
    if slip == 'length' and density < low:
        hint += _offset_too(ctx, link)
    twin = _twin(ctx, link)
    if twin is not None:
        # The same part on another link with another mass is said first: a unit guess alone
        # misled (duAro's upper_link_j4: 10 kg, "grams as kilograms", while its twin
        # lower_link_j4, the same mesh, has 0.5 kg: a value copied onto the wrong link).
        hint = (f"'{twin.name}' has collision geometry of the same volume and "
                f'{fmt(twin.mass)} kg: if it is the same part, the two masses should agree; '
                + hint)
    return DensityVerdict(least, most, density, (smallest, largest), notes, hint,
                          Severity.WARNING if far or slip else Severity.INFO,
                          slip == 'length')


def drawn_as_collided(link: Link) -> bool:
    """Return True when a link's visual elements are its collision elements: shapes, places."""
    def shapes(elements: Sequence[GeometryElement]) -> List[Tuple[object, ...]]:
        found = []
        for element in elements:
            geometry = element.geometry
            if geometry is None:
                continue
            found.append((type(geometry).__name__, getattr(geometry, 'filename', None),
                          geometry_values(geometry), tuple(element.origin.xyz),
                          tuple(element.origin.rpy)))
        return sorted(found, key=repr)
    collided = shapes(link.collisions)
    return bool(collided) and collided == shapes(link.visuals)


def geometry_is_the_part(ctx: CheckContext, link: Link) -> bool:
    """
    Return False when the collision geometry cannot stand for the part's mass distribution.

    That is when the density shows its lengths are in the wrong unit, or when even its
    largest possible volume would hold the mass only at more than ``density_max``: a
    placeholder (a 1 cm cylinder on a 3 kg hip) or partial geometry (contact spheres), whose
    tensor says nothing about the part's.
    """
    verdict = density_verdict(ctx, link)
    if verdict is not None and verdict.length_slip:
        return False
    volumes = volume_range(ctx, link)
    return volumes is None or not (volumes[1] > 0.0 and
                                   link.mass / volumes[1] > ctx.config.density_max)


#: A visual this many times the collision geometry's size (largest sides) shows the collision
#: is one part of the body, not the body (rotors_simulator's 10 cm hub box in a 0.6 m
#: hexacopter: its tensor, written by --fix-inertia, made the yaw moment 39x smaller): a
#: tensor is not refused as a suggestion for being far from that part's.
PART_OF_VISUAL = 3.0


def collision_a_part_of_visual(ctx: CheckContext, link: Link) -> bool:
    """Return True when a link's visual is PART_OF_VISUAL times its collision's size."""
    inner = largest_side(ctx, link.collisions)
    outer = largest_side(ctx, link.visuals)
    return inner is not None and outer is not None and inner > 0.0 and \
        outer >= PART_OF_VISUAL * inner


def largest_side(ctx: CheckContext, elements: Sequence[GeometryElement]) -> Optional[float]:
    """Return the largest side of the box around some elements, None if unknown or none."""
    box = group_bounds(ctx, elements) if elements else None
    return float(np.max(box[1] - box[0])) if box is not None else None


def negligible_in_its_body(ctx: CheckContext, link: Link) -> bool:
    """
    Return True for a link welded to a body at least 100 times heavier.

    An IMU, a logo or a camera frame of a few grams on a fixed joint changes nothing once
    Gazebo or MuJoCo fuse it into that body, so its tensor and centre of mass do not matter.
    """
    if ctx.is_moving(link.name) or ctx.robot.parent_joint(link.name) is None:
        return False
    body = ctx.lumped_mass(ctx.weld_top(link.name))
    return 0.0 < link.mass < NEGLIGIBLE_SHARE * body


def _upper_volume(ctx: CheckContext, group: Sequence[str], top: str) -> float:
    """
    Return a volume no smaller than a rigid body's material: every part and visual box.

    A visual that is one of the link's collision elements (the same mesh, scale and
    origin) is counted once, as that part: its box added to the part's hull made DENSO's
    VS060 J6 hold 1 kg in 88 cm^3 instead of the mesh's 24.5 (40,900 kg/m^3, unreported).
    A mesh that did not load leaves the volume unbounded (infinite): Unitree H1's hip
    motors, their 0.8 L visual meshes in a package not found, were 1 cm collision stubs
    "in grams written as kilograms".
    """
    key = ('upper-volume', top)
    if key in ctx.memo:
        return ctx.memo[key]
    total = 0.0
    for name in group:
        member = ctx.robot.link(name)
        if any(element.geometry is None  # a shape not read (a <capsule>): unknown size
               or isinstance(element.geometry, Mesh) and has_size(element.geometry)
               and not isinstance(ctx.mesh_for(element), MeshInfo)
               for element in member.visuals + member.collisions):
            total = math.inf
            break
        volumes = volume_range(ctx, member)
        total += volumes[1] if volumes is not None else 0.0
        counted = _counted_visuals(ctx, member)
        for visual in member.visuals:
            if id(visual) in counted:
                continue
            box = ctx.element_bounds(visual) if visual.geometry is not None else None
            if box is not None:
                total += float(np.prod(box[1] - box[0]))
    ctx.memo[key] = total
    return total


def _counted_visuals(ctx: CheckContext, link: Link) -> Set[int]:
    """Return the visuals that are one of the link's collision meshes: file, scale and pose."""
    reused = reused_visuals(ctx, link)
    counted = set()
    for collision in link.collisions:
        visual = reused.get(id(collision))
        if visual is not None and visual.geometry.scale == collision.geometry.scale and \
                visual.origin.xyz == collision.origin.xyz and \
                visual.origin.rpy == collision.origin.rpy:
            counted.add(id(visual))
    return counted


#: two parts whose volume bounds agree to this (relative) are one part (a left and a right
#: export of it, re-meshed: duAro's upper and lower J4, 604 and 608 faces)
TWIN_TOLERANCE = 0.01


def _twin(ctx: CheckContext, link: Link) -> Optional[Link]:
    """Return the first other link with the same collision volume and another mass, or None."""
    mine = volume_range(ctx, link) if link.collisions else None
    if mine is None:
        return None

    def near(first: float, second: float) -> bool:
        return abs(first - second) <= TWIN_TOLERANCE * max(abs(first), abs(second))

    # The links by their smallest volume, once: each link looks only at those near its own
    # (every link against every link was quadratic: a 3,600-link chain, 8 s of 21).
    index = _by_volume(ctx)
    volumes = _volumes(ctx)
    low = bisect.bisect_left(volumes, mine[0] - TWIN_TOLERANCE * abs(mine[0]) * 1.02)
    high = bisect.bisect_right(volumes, mine[0] + TWIN_TOLERANCE * abs(mine[0]) * 1.02)
    found = []
    # At most TWIN_SCANNED of them: links of one volume and one mass never match, and a
    # chain of 10,000 such boxes scanned them all for each (past 120 s; review 15).
    for _, order, other, theirs in index[low:min(high, low + TWIN_SCANNED)]:
        if other is not link and other.mass != link.mass and \
                len(other.collisions) == len(link.collisions) and \
                near(mine[0], theirs[0]) and near(mine[1], theirs[1]):
            found.append((order, other))
            if len(found) >= TWIN_CANDIDATES:
                break
    found.sort(key=lambda item: item[0])
    # the same shape too, not only its volume: Maxwell's laser box and shoulder bracket have
    # one volume by chance, and "the same part" misled (sweep V). The first in order among
    # TWIN_CANDIDATES of the volume (2,000 boxes of one volume compared with each other:
    # 36 s, review 14).
    shape = _shape(ctx, link)
    if shape is None:
        return None
    for _, other in found:
        theirs = _shape(ctx, other)
        if theirs is not None and theirs[0] == shape[0] and all(
                near(a, b) for a, b in zip(shape[1], theirs[1])):
            return other
    return None


#: the links of the same volume a link's twin is looked for among, in order, and the most
#: links of its volume looked at to find them
TWIN_CANDIDATES = 50
TWIN_SCANNED = 200


def _shape(ctx: CheckContext, link: Link) -> Optional[Tuple[Tuple[str, ...], List[float]]]:
    """Return a link's collision shapes' kinds and its bounds' sides, sorted, or None."""
    key = ('shape', id(link))
    if key not in ctx.memo:
        box = group_bounds(ctx, link.collisions)
        ctx.memo[key] = None if box is None else (
            tuple(sorted(type(element.geometry).__name__ for element in link.collisions)),
            sorted(float(side) for side in box[1] - box[0]))
    return ctx.memo[key]  # type: ignore[return-value]


def _volumes(ctx: CheckContext) -> List[float]:
    """Return the smallest volumes of :func:`_by_volume`, in its order (once)."""
    key = ('volumes', None)
    if key not in ctx.memo:
        ctx.memo[key] = [entry[0] for entry in _by_volume(ctx)]
    return ctx.memo[key]  # type: ignore[return-value]


def _by_volume(ctx: CheckContext) -> List[Tuple[float, int, Link, Tuple[float, float]]]:
    """Return the links with a mass and a volume range, by their smallest volume (once)."""
    key = ('links by volume', None)
    if key not in ctx.memo:
        entries = []
        for order, other in enumerate(ctx.robot.links):
            if other.inertial is None or ctx.robot.link(other.name) is not other or \
                    not (math.isfinite(other.mass) and other.mass > 0.0) or \
                    not other.collisions:
                continue
            theirs = volume_range(ctx, other)
            if theirs is not None and math.isfinite(theirs[0]):
                entries.append((theirs[0], order, other, theirs))
        entries.sort(key=lambda entry: (entry[0], entry[1]))
        ctx.memo[key] = entries
    return ctx.memo[key]  # type: ignore[return-value]


def _offset_too(ctx: CheckContext, link: Link) -> str:
    """
    Say where a millimetre mesh lands once scaled, when that is not where its visual is.

    AUBO's i7 shoulder: an STL in millimetres with its origin at a corner (0.79 to 212 mm):
    scaled, it lies beside the part its visual draws (about -0.079 to 0.101 m), so the
    scale alone is not the fix. One collision mesh, a visual to compare with; else ''.
    """
    meshes = [element for element in link.collisions if isinstance(element.geometry, Mesh)]
    if len(meshes) != 1 or len(link.collisions) != 1:
        return ''
    mesh = ctx.mesh_for(meshes[0])
    drawn = group_bounds(ctx, link.visuals) if link.visuals else None
    if not isinstance(mesh, MeshInfo) or drawn is None:
        return ''
    scaled = transform_bounds((np.asarray(mesh.bounds[0]) * 1e-3,
                               np.asarray(mesh.bounds[1]) * 1e-3),
                              origin_to_matrix(meshes[0].origin))
    size = float(np.max(drawn[1] - drawn[0]))
    gap = float(np.linalg.norm((scaled[0] + scaled[1]) / 2.0 - (drawn[0] + drawn[1]) / 2.0))
    if not (size > 0.0 and gap > 0.25 * size):
        return ''
    return (f'; scaled, it spans {fmt_vector(scaled[0], 3)} to {fmt_vector(scaled[1], 3)} m '
            f'where the visual spans {fmt_vector(drawn[0], 3)} to {fmt_vector(drawn[1], 3)} m: '
            "its origin is not the part's either, so it needs an <origin> too (or a mesh "
            "exported about the part's frame, as the visual is)")


def _density_hint(link: Link, density: float, low: float) -> Tuple[str, str]:
    """Return (hint, the unit slip the numbers point to: 'length', 'mass' or '')."""
    typical_low, typical_high = TYPICAL_DENSITY
    has_mesh = any(isinstance(element.geometry, Mesh) for element in link.collisions)
    if typical_low <= density * 1e9 <= typical_high:
        return ('the volume is ~1e9 too large: lengths in millimetres'
                + ('; add scale="0.001 0.001 0.001" to the <mesh>' if has_mesh else
                   '; URDF lengths are metres')), 'length'
    if has_mesh and typical_low <= density * 1e-9 <= typical_high:
        return ('the volume is ~1e9 too small: a mesh in metres was scaled as if in '
                'millimetres (remove scale="0.001 0.001 0.001")'), 'length'
    if typical_low <= density / 1000.0 <= typical_high:
        return (f'the mass looks like grams written as kilograms: {fmt(link.mass / 1000.0)} '
                'kg would give a density typical of plastic or metal parts'), 'mass'
    if density < low:
        return ('the collision geometry is much bigger than the part, or the mass is too low: '
                'check both'), ''
    return ('denser than any metal: the collision geometry is much smaller than the part, or '
            'the mass is too high (a deliberate ballast can be silenced with --ignore '
            'density-implausible)'), ''


def group_bounds(ctx: CheckContext, elements: Sequence[GeometryElement]) -> Optional[Bounds]:
    """
    Return the union bounds of the elements with a real size; None if one is unknown.

    Once per group of a link (a link's visuals or collisions, asked by a dozen rules): the
    arrays are shared, read-only.
    """
    key = ('group-bounds', id(elements))
    held = ctx.memo.get(key)
    if held is not None and held[0] is elements:  # type: ignore[index]
        return held[1]  # type: ignore[index]
    bounds = _group_bounds(ctx, elements)
    if bounds is not None:
        for array in bounds:
            array.setflags(write=False)
    ctx.memo[key] = (elements, bounds)  # the elements kept: their id is not reused meanwhile
    return bounds


def _group_bounds(ctx: CheckContext, elements: Sequence[GeometryElement]) -> Optional[Bounds]:
    boxes = []
    for element in elements:
        if element.geometry is not None and not has_size(element.geometry):
            continue  # zero-size shapes (markers, a radius-0 sphere) enclose nothing
        box = ctx.element_bounds(element)
        if box is None:  # a mesh not loaded, a shape not read (a refused <capsule>)
            return None
        boxes.append(box)
    return union_bounds(boxes)


def volume_range(ctx: CheckContext, link: Link) -> Optional[Tuple[float, float, Tuple[str, ...]]]:
    """
    Return bounds on the volume of the body a link's collision geometry describes.

    The upper bound adds up every part (overlaps count twice, so it can only be too
    big) with each mesh taken as its convex hull (never smaller than the solid); the
    lower bound is the largest single part, a mesh counting no more than its convex
    hull (the signed volume of a self-intersecting mesh counts overlaps twice).

    :param link: the link
    :return: (lowest, highest, notes) in m^3, or None when a part is unknown or empty
    """
    # Once per link: the density rules, the geometry's tensor and the weld groups ask.
    key = ('volume range', id(link))
    if key not in ctx.memo:
        ctx.memo[key] = _volume_range(ctx, link)
    return ctx.memo[key]  # type: ignore[return-value]


def _volume_range(ctx: CheckContext,
                  link: Link) -> Optional[Tuple[float, float, Tuple[str, ...]]]:
    parts = _part_volumes(ctx, link)
    if not parts:
        return None
    notes = tuple(f'the convex hull of {element.label}'
                  for element, _, _, _, as_hull in parts if as_hull)
    if len(parts) > 1:
        notes += (f'{len(parts)} parts: overlaps are not subtracted',)
    return max(low for _, _, low, _, _ in parts), sum(high for _, _, _, high, _ in parts), notes


#: (element, its mesh or None, least volume, most volume, whether a broken mesh's least was
#: made its hull's)
PartVolume = Tuple[GeometryElement, Optional[MeshInfo], float, float, bool]


def _part_volumes(ctx: CheckContext, link: Link) -> Optional[List[PartVolume]]:
    """
    Return the volume bounds of each collision element of a link (a degenerate one left out).

    None when a part is unknown: not read (a <capsule>, refused), a mesh not loaded or
    without a hull, a shape of numbers that are not finite.
    """
    elements = [element for element in link.collisions if element.geometry is not None]
    if not elements or len(elements) < len(link.collisions):
        return None  # none, or a part not read (a <capsule>, refused): the volume is unknown
    parts: List[PartVolume] = []
    for element in elements:
        geometry = element.geometry
        if isinstance(geometry, Mesh):
            mesh = ctx.mesh_for(element)
            if not isinstance(mesh, MeshInfo):
                return None
            hull = _hull_volume(ctx, mesh)
            if hull is None or not hull > 0.0:
                return None
            volume = mesh.volume if mesh.volume_source == 'mesh' else hull
            as_hull = not volume > 0.0 or volume > hull
            parts.append((element, mesh, hull if as_hull else volume, hull, as_hull))
        else:
            if not is_finite(geometry_values(geometry)):
                return None
            volume = primitive_volume(geometry)
            if volume is None or not volume > 0.0:
                continue  # a degenerate shape is reported by geometry-degenerate
            parts.append((element, None, volume, volume, False))
    return parts


def _hull_volume(ctx: CheckContext, mesh: MeshInfo) -> Optional[float]:
    # Once per file, scaled analytically by the library: a Qhull per element and scale
    # took 2 s each for a 16 MB mesh used at 100 scales.
    hull = mesh.hull_volume
    return hull if hull is not None and hull > 0.0 else None


#: an open mesh of more separate parts than this keeps its one hull (a hull each costs)
MAX_PARTS = 256


def _parts_smallest(ctx: CheckContext, link: Link) -> Optional[float]:
    """
    Return :func:`volume_range`'s lower bound with open meshes taken part by part, or None.

    The volume of an open (not closed) mesh is taken as its convex hull's; one of several
    separate parts is no larger than the sum of its parts' hulls, which is then its volume.
    """
    lows: List[float] = []
    changed = False
    for _, mesh, volume, _, _ in _part_volumes(ctx, link) or ():
        if mesh is not None and mesh.volume_source != 'mesh':
            parts = mesh.derived(('parts hull volume',), lambda: _parts_hull(mesh))
            if parts is not None and 0.0 < parts < volume:
                volume, changed = parts, True
        lows.append(volume)
    return max(lows) if changed and lows else None


def _parts_hull(mesh: MeshInfo) -> Optional[float]:
    """Return the sum of the convex hull volumes of a mesh's separate parts, None if one."""
    from urdf_link_tools.meshes.hull import convex_hull, enclosed_volume
    from urdf_link_tools.meshes.integrals import distinct
    faces = np.asarray(mesh.faces)
    vertices = np.asarray(mesh.vertices, dtype=float)
    if not len(faces):
        return None
    labels = _part_labels(len(vertices), faces)
    if labels is None:
        return None
    owner = labels[faces[:, 0]]
    parts = distinct(owner)
    if not 1 < len(parts) <= MAX_PARTS:
        return None
    total = 0.0
    for part in parts.tolist():
        hull, _ = convex_hull(vertices[distinct(faces[owner == part])])
        if hull is not None:
            total += abs(enclosed_volume(hull))
    return total


def _part_labels(count: int, faces: np.ndarray, rounds: int = 200) -> Optional[np.ndarray]:
    """Return for each vertex the smallest vertex index of its part, None if unsettled."""
    labels = np.arange(count)
    for _ in range(rounds):
        smallest = row_bounds(labels[faces])[0]
        merged = labels.copy()
        for column in range(3):
            np.minimum.at(merged, faces[:, column], smallest)
        merged = merged[merged]  # each label takes its own label's: halves the chains
        if np.array_equal(merged, labels):
            return labels
        labels = merged
    return None
