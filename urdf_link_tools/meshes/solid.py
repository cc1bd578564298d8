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
Measure what a mesh encloses, once per file, and scale the result analytically.

The volume of a surface can be trusted only when the surface is closed (every edge shared
by exactly two triangles), consistently wound and does not cross itself. Only then are the
volume, centre and inertia the surface's own (``volume_source`` 'mesh', trimesh's exact
triangle integrals). A file of several closed parts (a convex decomposition's, a CAD
assembly's bodies) is closed part by part: its parts touching at a corner or an edge make
the whole not closed once coincident corners are merged, so the parts the file's own
indices separate are merged and tested each on its own (:func:`shells`). Otherwise they
are those of its convex hull ('convex hull'), and a mesh without volume (flat, or a hull
that cannot be built) has none ('none', volume 0): no density or inertia is ever derived
from a volume that cannot be trusted.

Self-intersection is detected by a cheap test: the volume of a surface that does not
cross itself can never exceed its convex hull's; a surface whose shells overlap or whose
faces fold through each other counts some space twice and usually does. It misses small
overlaps; it never flags a valid solid.

A mesh used at several URDF scales is measured once. With ``D = diag(sx, sy, sz)``, the
volume scales by ``|sx sy sz|``, the centre by ``D`` and the second moments
``C = integral of (x - c)(x - c)^T dV`` by ``|sx sy sz| D C D``; the inertia is
``trace(C) I - C``. No scaled copy of the vertices is made.
"""

from __future__ import annotations

from dataclasses import replace
import threading
from typing import Optional, Tuple

import numpy as np

from urdf_link_tools.meshes.hull import (convex_hull, enclosed_volume, Hull, native_volume,
                                         surface_hull)
from urdf_link_tools.meshes.integrals import (column_bounds, cross, cross_rows, mass_properties,
                                              MassProperties, MERGE_DIGITS, merge_positions,
                                              row_bounds)
from urdf_link_tools.meshes.reading import frozen, RawMesh, TRIM_BYTES, trim_heap
from urdf_link_tools.records import record

#: a surface volume this much above its hull's is a self-intersection, not rounding
_HULL_TOLERANCE = 1e-6
#: thinner than this fraction of its largest extent (cubed), a solid is flat
_FLAT = 1e-9
#: up to this many vertices, a closed mesh's hull is built at once: the density rule needs
#: its volume anyway, so a first bound from the hull of some of its points is work done twice
_DIRECT_HULL = 20_000


@record
class Solid:
    """
    What a mesh encloses at density 1 kg/m^3, with what is wrong with its surface.

    ``unit_inertia`` is about ``center_mass``; ``problem`` says why nothing could be
    measured (e.g. out of memory), with ``volume_source`` 'none'.
    """

    volume: float
    center_mass: np.ndarray
    unit_inertia: np.ndarray
    volume_source: str
    is_watertight: bool
    is_winding_consistent: bool
    inside_out: bool = False
    self_intersecting: bool = False
    flat: bool = False
    problem: Optional[str] = None
    #: the convex hull's volume when measuring computed it (else None: ask SolidCache)
    hull_volume: Optional[float] = None

    @property
    def second_moments(self) -> np.ndarray:
        """Return ``C`` about ``center_mass`` (see the module): ``trace(I) / 2 - I``."""
        return np.trace(self.unit_inertia) / 2.0 * np.eye(3) - self.unit_inertia

    def scaled(self, scale: Tuple[float, float, float]) -> 'Solid':
        """
        Return the same solid after scaling its mesh by ``scale`` along x, y, z.

        :param scale: the URDF scale (finite; a negative factor mirrors)
        :return: the scaled solid
        """
        if scale == (1.0, 1.0, 1.0):
            return self
        factors = np.asarray(scale, dtype=float)
        det = abs(float(np.prod(factors)))
        flat = self.flat or det == 0.0
        if flat or self.volume_source == 'none':
            return Solid(0.0, frozen(self.center_mass * factors), frozen(np.zeros((3, 3))),
                         'none', self.is_watertight, self.is_winding_consistent,
                         self.inside_out, self.self_intersecting, flat, self.problem)
        moments = det * (factors[:, None] * self.second_moments * factors[None, :])
        inertia = np.trace(moments) * np.eye(3) - moments
        hull = None if self.hull_volume is None else self.hull_volume * det
        return Solid(self.volume * det, frozen(self.center_mass * factors), frozen(inertia),
                     self.volume_source, self.is_watertight, self.is_winding_consistent,
                     self.inside_out, self.self_intersecting, False, None, hull)


class SolidCache:
    """Measure a raw mesh's solid (and hull) once, on first use, whichever thread asks first."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._solid: Optional[Solid] = None
        self._hull: Optional[Tuple[Optional[float]]] = None

    def hull_volume(self, raw: RawMesh) -> Optional[float]:
        """
        Return the volume of the convex hull of ``raw`` (before any scale), None without one.

        Computed once per file: the hull of a scaled mesh is the scaled hull, so its volume
        is this times ``|sx sy sz|``.
        """
        hull = self._hull
        if hull is None:
            with self._lock:
                hull = self._hull
                if hull is None:
                    solid = self._solid
                    if solid is not None and solid.hull_volume is not None:
                        hull = (solid.hull_volume,)
                    else:
                        try:
                            found, _ = convex_hull(raw.vertices)
                        except MemoryError:
                            found = None
                        hull = (enclosed_volume(found) if found is not None else None,)
                    self._hull = hull
        return hull[0]

    def adopt(self, solid: Solid) -> None:
        """Keep a solid measured elsewhere (a reading child) as if measured here."""
        with self._lock:
            if self._solid is None:
                self._solid = replace(solid, center_mass=frozen(solid.center_mass),
                                      unit_inertia=frozen(solid.unit_inertia))

    def get(self, raw: RawMesh) -> Solid:
        """Return the solid of ``raw`` (measured on the first call)."""
        solid = self._solid
        if solid is None:
            with self._lock:
                solid = self._solid
                if solid is None:
                    solid = self._solid = measure_solid(raw)
                    if raw.size_bytes > TRIM_BYTES:
                        trim_heap()  # merging and the hull leave their temporaries
        return solid


def _unmeasured(problem: Optional[str], watertight: bool = False, consistent: bool = False,
                flat: bool = False) -> Solid:
    zeros = frozen(np.zeros(3))
    return Solid(0.0, zeros, frozen(np.zeros((3, 3))), 'none', watertight, consistent,
                 flat=flat, problem=problem)


def measure_solid(raw: RawMesh) -> Solid:
    """
    Measure what a mesh encloses: its closed surface when trustworthy, else its hull.

    The numbers are trimesh's (without importing it, :mod:`.integrals`): its vertex merge
    (skipped where the reader already merged these very coordinates, which makes a second
    merge a no-op), its closed-surface test (as :func:`closed`) and its triangle integrals;
    hulls are :func:`.hull.convex_hull`'s. Never raises: running out of memory, or geometry
    that upsets the integrals, is a ``problem``.

    :param raw: the mesh, before any URDF scale
    :return: the solid
    """
    try:
        # A flat surface divides by its zero volume in the integrals: handled below.
        with np.errstate(divide='ignore', invalid='ignore'):
            return _measure(raw)
    except MemoryError:
        return _unmeasured('the checker ran out of memory measuring it')
    except Exception as exc:  # degenerate geometry can upset the integrals
        return _unmeasured(f'it could not be measured ({type(exc).__name__}: '
                           f'{str(exc)[:120]})')


def _measure(raw: RawMesh) -> Solid:
    if raw.merged:
        vertices, faces = raw.vertices, raw.faces
    else:
        vertices, faces = merge_positions(raw.vertices, raw.faces)
    watertight, consistent = closed(faces)
    if not watertight and not raw.merged:
        parts = shells(raw.vertices, raw.faces)
        if parts is not None:
            vertices, faces = parts
            watertight = consistent = True
    low, high = column_bounds(vertices)
    extent = float(np.max(high - low))
    tiny = _FLAT * extent ** 3 if extent < 1e100 else float('inf')  # (** 3 would overflow)
    inside_out = self_intersecting = False
    if consistent:
        triangles = vertices[faces]
        properties = mass_properties(triangles, cross(triangles))
        volume = properties.volume
        inside_out = volume < 0.0
        if not abs(volume) > tiny:
            return _unmeasured(None, watertight, consistent, flat=True)
        # coal's Qhull first (only the hull's volume is needed here: computed in C++); else
        # a convex part is its own hull (one matrix product).
        bound_found = native_volume(vertices)
        hull, why = None, ''
        if bound_found is None:
            hull = surface_hull(vertices, faces[:, ::-1] if inside_out else faces)
            if hull is None and len(vertices) > _DIRECT_HULL and \
                    abs(volume) <= _inner_hull_volume(vertices):
                # Below the hull of some of its points, so below its hull: decided without
                # the full hull (Qhull on every vertex cost 2 s at 160,000).
                return _solid(properties, 'mesh', watertight, consistent, inside_out)
            if hull is None:
                hull, why = convex_hull(vertices, native=False)
            if hull is not None:
                bound_found = enclosed_volume(hull)
        if bound_found is not None and \
                abs(volume) > bound_found * (1.0 + _HULL_TOLERANCE) + tiny:
            self_intersecting = True
            if hull is None:  # its volume was coal's: the hull itself is measured below
                hull, why = convex_hull(vertices)
        else:
            solid = _solid(properties, 'mesh', watertight, consistent, inside_out)
            return solid if bound_found is None else replace(solid, hull_volume=bound_found)
    else:
        hull, why = convex_hull(vertices)
    if hull is None or not enclosed_volume(hull) > tiny:
        return Solid(0.0, frozen(np.zeros(3)), frozen(np.zeros((3, 3))), 'none', watertight,
                     consistent, inside_out, self_intersecting, flat=why != 'no SciPy')
    solid = _solid(hull_properties(hull), 'convex hull', watertight, consistent, inside_out,
                   self_intersecting)
    return replace(solid, hull_volume=solid.volume)


def _solid(properties: MassProperties, source: str, watertight: bool, consistent: bool,
           inside_out: bool, self_intersecting: bool = False) -> Solid:
    volume = properties.volume
    # Integrated at density 1, so this is per kg/m^3; an inward-facing winding negates the
    # integrals.
    inertia = properties.inertia
    if volume < 0.0:
        volume, inertia = -volume, -inertia
    return Solid(volume, frozen(np.asarray(properties.center_mass, dtype=float)),
                 frozen(inertia), source, watertight, consistent, inside_out,
                 self_intersecting)


def _directions() -> np.ndarray:
    """Return 98 directions spread over the sphere (the surface of a 5 x 5 x 5 grid)."""
    steps = (-1.0, -0.5, 0.0, 0.5, 1.0)
    grid = np.array([(x, y, z) for x in steps for y in steps for z in steps
                     if max(abs(x), abs(y), abs(z)) == 1.0])
    return grid / np.linalg.norm(grid, axis=1)[:, None]


_DIRECTIONS = _directions()


def _inner_hull_volume(vertices: np.ndarray) -> float:
    """
    Return the volume of the hull of the points extreme along fixed directions.

    That hull lies inside the convex hull of all the points, so its volume is a lower
    bound of the hull's; 0 when it cannot be built.
    """
    if len(vertices) <= 2 * len(_DIRECTIONS):
        return 0.0
    reach = vertices @ _DIRECTIONS.T
    extreme = np.sort(np.concatenate([reach.argmax(axis=0), reach.argmin(axis=0)]))
    extreme = extreme[np.concatenate(([True], extreme[1:] != extreme[:-1]))]
    hull, _ = convex_hull(vertices[extreme])
    return enclosed_volume(hull) if hull is not None else 0.0


def hull_properties(hull: Hull) -> MassProperties:
    """Return the mass properties of a convex hull (its facets are wound outwards)."""
    triangles = hull.points[hull.simplices]
    return mass_properties(triangles, cross(triangles))


def shells(vertices: np.ndarray, faces: np.ndarray) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """
    Return a mesh of several closed parts with corners merged part by part, else None.

    The parts are those of the file's own indices: runs of vertices that no triangle joins
    (a file's objects never share a vertex, and list theirs one object after the other;
    parts whose vertices interleave are one part here, and seldom closed). Each must be
    closed and consistently wound once its coincident corners are merged (by
    :func:`.integrals.merge_positions`, to 8 decimals, part by part), and all must enclose
    volume on the same side (a part wound inwards beside outward ones is not a cavity to be
    trusted). Their integrals then add up.

    :param vertices: (n, 3) positions as read
    :param faces: (m, 3) indices into them
    :return: (vertices, faces) merged within each part, or None: one part, or one that is
        not closed
    """
    if len(faces) < 8:  # two tetrahedra at least
        return None
    # A file's objects come one after the other: a part is a run of vertex indices that no
    # triangle spans the end of (the triangles sorted by their lowest index, a new part
    # starts where none before reaches it).
    lowest, highest = row_bounds(faces)
    order = np.argsort(lowest, kind='stable')
    reach = np.maximum.accumulate(highest[order])
    starts = np.empty(len(order), dtype=bool)
    starts[0] = True
    np.greater(lowest[order][1:], reach[:-1], out=starts[1:])
    if np.count_nonzero(starts) < 2:
        return None
    part = np.empty(len(faces), dtype=np.int64)
    part[order] = np.cumsum(starts) - 1
    label = np.zeros(len(vertices), dtype=np.int64)
    label[faces] = part[:, None]
    if not np.all(np.abs(np.round(vertices[faces] * 10.0 ** MERGE_DIGITS)) < 2.0 ** 62):
        return None  # beyond int64 keys (or not finite)
    merged, renumbered = merge_positions(vertices, faces, label)
    if not closed(renumbered)[1]:
        return None
    triangles = merged[renumbered]
    each = np.einsum('ij,ij->i', triangles[:, 0], cross_rows(triangles[:, 1], triangles[:, 2]))
    volumes = np.bincount(part, weights=each)
    if not (np.all(volumes > 0.0) or np.all(volumes < 0.0)):
        return None
    return merged, renumbered


def closed(faces: np.ndarray) -> Tuple[bool, bool]:
    """
    Return trimesh's ``is_watertight`` and ``is_watertight and is_winding_consistent``.

    As ``trimesh.graph.is_watertight``: watertight when every edge (vertex pair) belongs
    to exactly two faces; consistent when the two run in opposite directions. Each edge
    is one int64 key here (vertex pair, then direction), so one sort answers both: sorted,
    the pair keys must come two by two, strictly increasing, and for a consistent winding
    each two must be 2k and 2k + 1.
    """
    edges = faces[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    start, end = edges[:, 0], edges[:, 1]
    low, high = np.minimum(start, end), np.maximum(start, end)
    keys = np.sort((low * (int(faces.max()) + 1) + high) * 2 + (start < end))
    if len(keys) % 2:
        return False, False
    first, second = keys[0::2], keys[1::2]
    pairs = first // 2
    watertight = bool(np.all(pairs == second // 2) and np.all(pairs[1:] > pairs[:-1]))
    return watertight, watertight and bool(np.all(second - first == 1))
