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
Convex hulls: by coal's Qhull, by a checked quickhull in NumPy, or by SciPy's Qhull.

Which one builds a hull depends on the points and on coal being installed, never on what
the process loaded before (a --jobs worker checks many robots; the findings must not depend
on their order):

- :data:`NATIVE_MIN_POINTS` points or more, when coal (an exec_depend, the self-collision
  library) is installed: its Qhull, in C++ (a humanoid's CAD part in a millisecond or two,
  a 150-point capsule in 0.1 ms);
- fewer, or without coal: the NumPy quickhull here (0.3 ms for a box's 8 corners, 5 ms for
  a 150-point capsule, 40 ms for a thousand), which imports nothing;
- a hull needing more than :data:`MAX_STEPS` insertions, or a result the NumPy quickhull
  cannot trust (it checks that it is closed, consistently wound and holds every point):
  SciPy's Qhull (its import costs 0.15 to 0.35 s and 35 MB). SciPy loaded already (trimesh
  brings it for OBJ and glTF meshes) changes nothing: building the small hulls and those
  coal refuses by SciPy then made TwoDofs's suggested tensor differ in its last digits
  between a --jobs worker that had checked an OBJ robot before and one that had not. The
  NumPy quickhull, a Python loop of NumPy calls, was measured at 22 s instead of 0.04 s in
  a node whose executor thread a client kept busy (each NumPy call gives the GIL away).

Points within a relative tolerance of 1e-10 of a facet count as on it (Qhull merges such
near-coplanar facets too): all give the same volume to that tolerance.
"""

from __future__ import annotations

import math
import sys
from typing import NamedTuple, Optional, Tuple

import numpy as np

from urdf_link_tools.meshes.integrals import column_bounds, cross, cross_rows

#: point sets up to this size are built here while SciPy is not loaded
MAX_POINTS = 100_000
#: insertions (hull vertices) beyond which this gives up
MAX_STEPS = 1500
#: relative to the extent of the points: closer to a facet than this is on it
_EPS = 1e-10
#: point sets this big or bigger go to coal's Qhull when coal is installed. Importing coal
#: costs about 35 ms, but every one of the 58 corpus robots with a mesh this big imports it
#: anyway for the overlaps at rest; at 200, Panda's nine 100-150 point capsules took 46 ms
#: in the NumPy quickhull (0.5 ms in coal). Boxes and other tiny meshes stay here.
NATIVE_MIN_POINTS = 32
#: coordinates beyond this (metres, or the file's units) reach Qhull only in a unit box: it
#: ended the process on a mesh with coordinates near 1e307
MAX_COORDINATE = 1e9
#: thinner than this (relative to the extent) is kept from Qhull, which crashes on flat input
NATIVE_MIN_WIDTH = 1e-5
#: points times triangles beyond which a surface is not tested for being its own hull
_MAX_PRODUCT = 50_000_000
#: of the hull's volume: a point outside a finished hull adding more than this proves it wrong
_MISSING = 1e-9
#: the same for a closed surface taken as its own hull (:func:`surface_hull`): files round
#: their coordinates (7 significant digits in COLLADA, float32 in STL, often 6 decimals in
#: OBJ), so a convex CAD part's flat faces bend by up to about this much of its volume (an
#: iCub octagonal prism: 1.1e-7), which a volume compared with it at 1e-6 cannot notice
_ROUNDED = 1e-5


class Hull(NamedTuple):
    """A closed convex triangle surface: ``points[simplices]`` wound outwards."""

    points: np.ndarray
    simplices: np.ndarray


def enclosed_volume(hull: Hull) -> float:
    """Return the volume a hull encloses."""
    # About a corner of the hull, not the origin: far from the origin, the products of
    # big coordinates would cancel to noise.
    corner = hull.points[hull.simplices[0, 0]]
    a, b, c = (hull.points[hull.simplices[:, i]] - corner for i in range(3))
    return float(np.einsum('ij,ij->i', a, cross_rows(b, c)).sum() / 6.0)


class _Unbuilt(Exception):
    """This implementation gives up (too many steps, or a result it cannot trust)."""


class _Flat(Exception):
    """The points span no volume."""


def convex_hull(points: np.ndarray, native: bool = True) -> Tuple[Optional[Hull], str]:
    """
    Return the convex hull of points, or None and why there is none.

    :param points: (n, 3) finite points
    :param native: False when :func:`native_hull` was tried already
    :return: (hull, 'convex hull'), or (None, 'flat') for points in a plane, a line or
        one place, or (None, 'no SciPy') when the hull needs SciPy and it is missing
    """
    points = np.asarray(points, dtype=np.float64)
    if native and native_first(len(points)):
        try:
            native = _coal_hull(points)
        except _Flat:
            return None, 'flat'
        if native is not None:
            return native, 'convex hull'
    if len(points) <= MAX_POINTS:
        try:
            return _quickhull(points), 'convex hull'
        except _Flat:
            return None, 'flat'
        except _Unbuilt:
            pass
    try:
        from scipy.spatial import ConvexHull
    except ImportError:
        return None, 'no SciPy'
    try:
        found = ConvexHull(points, qhull_options='QJ') if len(points) > QT_POINTS_MAX else \
            ConvexHull(points)
    except MemoryError:
        raise
    except Exception:  # flat or degenerate point sets have no hull (Qhull refuses them)
        return None, 'flat'
    simplices = _outward(found.points, found.simplices, found.equations[:, :3])
    return Hull(found.points, simplices), 'convex hull'


def native_first(count: int) -> bool:
    """Return True when a hull of ``count`` points goes to coal's Qhull first."""
    return count >= NATIVE_MIN_POINTS and coal_installed()


def native_hull(points: np.ndarray) -> Optional[Hull]:
    """
    Return the hull by coal's Qhull when :func:`native_first` says so and coal builds it.

    A closed part then needs no test of being its own hull (:func:`surface_hull` costs a
    product of its points by its triangles); a part coal refuses still gets that test before
    the NumPy quickhull, a Python loop that other busy threads slow down (each NumPy call
    gives the GIL away).

    :return: the hull, or None (too few points, no coal, flat, thin or refused)
    """
    points = np.asarray(points, dtype=np.float64)
    if not native_first(len(points)):
        return None
    try:
        return _coal_hull(points)
    except _Flat:
        return None


def native_volume(points: np.ndarray) -> Optional[float]:
    """
    Return the volume of the hull by coal's Qhull where :func:`native_hull` would build one.

    A closed part needs its hull's volume only (the test of crossing itself, the density
    bound): coal computes it in C++ (``computeVolume``), without the call per triangle that
    :func:`native_hull`'s triangles cost (half of measuring a small part). It agreed with
    :func:`enclosed_volume` of :func:`native_hull` to 2e-14 on the 594 meshes of
    example-robot-data and 3,000 random point sets (test_meshes_hull_native.py).

    :return: the volume, or None (too few points, no coal, flat, thin or refused)
    """
    points = np.asarray(points, dtype=np.float64)
    if not native_first(len(points)):
        return None
    try:
        built = _coal_convex(points)
    except _Flat:
        return None
    if built is None:
        return None
    convex, _, scale = built
    if convex.num_points < 4 or convex.num_polygons < 4:
        return None
    volume = float(convex.computeVolume()) * scale ** 3
    return volume if math.isfinite(volume) and volume > 0.0 else None


def coal_installed() -> bool:
    """Return True when coal can be imported, without importing it (35 ms, 29 MB)."""
    if sys.modules.get('coal') is not None:  # (None there: its import is blocked)
        return True
    global _COAL_FOUND
    if _COAL_FOUND is None:
        import importlib.util
        try:
            _COAL_FOUND = importlib.util.find_spec('coal') is not None
        except (ImportError, ValueError):
            _COAL_FOUND = False
    return _COAL_FOUND


_COAL_FOUND: Optional[bool] = None


def qhull_safe(points: np.ndarray) -> bool:
    """
    Return True when points span a volume Qhull (in coal) can hull without crashing.

    coal 3's Qhull ends the process (a segmentation fault) on points in a plane or nearly
    so; points whose extreme tetrahedron is at least :data:`NATIVE_MIN_WIDTH` of their
    extent thick never made it fail in 6,400 random sets from flat to thick (see
    test_meshes_hull_native.py).

    :param points: (n, 3) finite points
    """
    points = np.asarray(points, dtype=np.float64)
    if len(points) < 4 or not np.all(np.isfinite(points)):
        return False
    low, high = column_bounds(points)
    centred = points - (low + high) / 2.0
    low, high = column_bounds(centred)
    extent = float(np.max(high - low))
    return _thinnest(centred)[0] > NATIVE_MIN_WIDTH * extent


#: hulls of more points than this are built from joggled points (Qhull's QJ), see _qhull
QT_POINTS_MAX = 4_000


def coal_qhull(points: np.ndarray, keep_triangles: bool,
               joggle: bool = False) -> Optional[object]:
    """
    Return the convex hull of points by coal's Qhull, or None.

    The one way into coal's Qhull: None for points :func:`qhull_safe` keeps from it (Qhull
    would end the process) and for a hull coal refuses ("Too many neighbors": a cap fanned
    around one corner). The hull is built on a BVH model of the points alone (no
    triangles: Qhull needs the vertices only).

    :param points: (n, 3) positions
    :param keep_triangles: coal's keepTriangle (triangles in the result)
    :param joggle: where coal refuses the hull, build it from joggled points (Qhull's QJ:
        moved by about 1e-11 of their extent), for a contact's depth, not a volume
    :return: coal's Convex, or None
    """
    if not qhull_safe(points):
        return None
    if float(np.max(np.abs(points))) > MAX_COORDINATE:
        return None  # Qhull ended the process on coordinates near 1e307 (products overflow)
    return _qhull(points, keep_triangles, joggle)


def _qhull(points: np.ndarray, keep_triangles: bool, joggle: bool = False) -> Optional[object]:
    """Return coal's hull of points :func:`qhull_safe` accepts (see :func:`coal_qhull`)."""
    import coal
    points = np.ascontiguousarray(points, dtype=np.float64)
    # Past QT_POINTS_MAX points, joggled at once: Qt's triangulated facets are quadratic on
    # a cylinder's fanned caps (a 1.7 MB STL of two rings: past 120 s, review 14), QJ not
    # (0.96 s at 100,000 points), its corners moved by about 1e-11 of the extent.
    options = ('QJ',) if len(points) > QT_POINTS_MAX else ('Qt', 'QJ') if joggle else ('Qt',)
    for options in options:
        model = coal.BVHModelOBBRSS()
        model.beginModel(0, len(points))
        model.addVertices(points)
        try:
            model.buildConvexHull(keep_triangles, options)
        except MemoryError:
            raise
        except Exception:
            # "Too many neighbors": Qt's triangles fan a cylinder's cap around one corner
            # (every wheel mesh: AutoRally's four had no hull, so their overlaps had no depth
            # and were dropped, sweep V); joggled (QJ), the facets stay small
            continue
        return model.convex
    return None


def _coal_hull(original: np.ndarray) -> Optional[Hull]:
    """
    Return the hull by coal's Qhull, or None when coal is missing, refuses or is kept out.

    coal (an exec_depend, the self-collision library) builds the hull in C++: Qhull on a
    humanoid's CAD part is tens of times faster than the insertions above, and importing
    coal costs a seventh of importing SciPy. Points flat at :data:`_EPS` raise
    :class:`_Flat`, as for the NumPy hull; thin ones are kept from Qhull
    (:func:`coal_qhull`) and left to the other hulls.

    :raises _Flat: for points in a plane, a line or one place
    """
    built = _coal_convex(original)
    if built is None:
        return None
    convex, centre, scale = built
    corners = np.asarray(convex.points(), dtype=np.float64).reshape(-1, 3)
    if scale != 1.0:
        corners = corners * scale
    # One Python call per triangle is all the bindings offer: kept as lean as it goes.
    flat: list = []
    extend, polygon = flat.extend, convex.polygons
    for index in range(convex.num_polygons):
        triangle = polygon(index)
        extend((triangle[0], triangle[1], triangle[2]))
    simplices = np.array(flat, dtype=np.int64).reshape(-1, 3)
    if len(simplices) < 4 or len(corners) < 4 or simplices.max() >= len(corners):
        return None
    # Qhull's winding is its own: outwards is away from the middle of the corners.
    inward = np.einsum('ij,ij->i', cross(corners[simplices]),
                       corners[simplices[:, 0]] - corners.mean(axis=0)) < 0.0
    simplices[inward] = simplices[inward][:, ::-1]
    try:
        _closed(simplices, len(corners))
    except _Unbuilt:
        return None
    return Hull(corners + centre, simplices)


def _coal_convex(original: np.ndarray) -> Optional[Tuple[object, np.ndarray, float]]:
    """
    Return coal's hull of points (its Convex), the centre it is about and its scale; or None.

    :raises _Flat: for points in a plane, a line or one place
    """
    if not coal_installed():
        return None
    # Qhull's precision is relative to the biggest coordinate: about the centre, and beyond
    # MAX_COORDINATE in a unit box (near 1e307, products overflowed and Qhull ended the
    # process: a 10 kB OBJ killed the check and the node).
    low, high = column_bounds(original)
    centre = low / 2.0 + high / 2.0
    scale = float(np.max(high - low))
    if not (math.isfinite(scale) and np.all(np.isfinite(centre))):
        return None
    scale = scale if scale > MAX_COORDINATE else 1.0
    points = (original - centre) / scale if scale != 1.0 else original - centre
    low, high = column_bounds(points)
    extent = float(np.max(high - low))
    # One extreme tetrahedron for both tests: flat (as the NumPy hull would say) and too
    # thin for Qhull (as coal_qhull would refuse it).
    thinnest = _thinnest(points)[0] if np.all(np.isfinite(points)) else math.nan
    if not thinnest > _EPS * extent:
        raise _Flat()
    convex = _qhull(points, True) if thinnest > NATIVE_MIN_WIDTH * extent else None
    if convex is None:  # thin, or refused: the other hulls decide
        return None
    return convex, centre, scale


def surface_hull(points: np.ndarray, faces: np.ndarray) -> Optional[Hull]:
    """
    Return a closed surface as its own convex hull when it is convex, else None.

    A closed, consistently wound surface none of whose points lies outside any of its own
    triangles (as :func:`_verify` measures it, but for the rounding of a file's coordinates:
    :data:`_ROUNDED`) is the boundary of its convex hull: a CAD part exported as a convex
    collision shape (a Fanuc's links, an iCub's 16-corner prisms) gets its hull in one
    matrix product instead of one insertion per corner.

    :param points: (n, 3) vertices
    :param faces: (m, 3) triangles wound outwards
    :return: the hull, or None when the surface is not convex (or wound inwards)
    """
    if len(points) * len(faces) > _MAX_PRODUCT:
        return None
    centred = points - points.mean(axis=0)
    crosses = cross(centred[faces])
    # Most concave surfaces have a corner above one of their biggest triangles: a cheap no.
    levels = np.einsum('ij,ij->i', crosses, centred[faces[:, 0]])
    big = np.argsort(np.einsum('ij,ij->i', crosses, crosses))[-32:]
    allowed = _ROUNDED * float(levels.sum())
    if np.any(centred @ crosses[big].T - levels[big] > allowed):
        return None
    try:
        _closed(faces, len(points))
        _held(centred, faces, _ROUNDED)
    except _Unbuilt:
        return None
    return Hull(points, faces)


def _outward(points: np.ndarray, simplices: np.ndarray, normals: np.ndarray) -> np.ndarray:
    inward = np.einsum('ij,ij->i', cross(points[simplices]), normals) < 0.0
    simplices = simplices.copy()
    simplices[inward] = simplices[inward][:, ::-1]
    return simplices


def _thinnest(points: np.ndarray) -> Tuple[float, Tuple[int, int, int, int], np.ndarray]:
    """
    Return how thin the extreme tetrahedron of points is, its corners and its normal.

    The corners are the extremes along the widest axis, the point furthest from their line
    and the point furthest from the plane of those three; the thickness is the smallest of
    the three distances that found them (0 for fewer than four distinct points, NaN when
    a coordinate is not finite).
    """
    low, high = column_bounds(points)
    axis = int(np.argmax(high - low))
    i0, i1 = int(np.argmin(points[:, axis])), int(np.argmax(points[:, axis]))
    span = float(high[axis] - low[axis])
    if not span > 0.0:
        return span, (i0, i1, i1, i1), np.zeros(3)
    direction = points[i1] - points[i0]
    direction /= np.linalg.norm(direction)
    offsets = points - points[i0]
    along = offsets - np.outer(offsets @ direction, direction)
    distances = np.einsum('ij,ij->i', along, along)
    i2 = int(np.argmax(distances))
    across = float(np.sqrt(distances[i2]))
    if not across > 0.0:
        return across, (i0, i1, i2, i2), np.zeros(3)
    normal = np.cross(points[i1] - points[i0], points[i2] - points[i0])
    normal /= np.linalg.norm(normal)
    heights = offsets @ normal
    i3 = int(np.argmax(np.abs(heights)))
    return min(span, across, float(abs(heights[i3]))), (i0, i1, i2, i3), heights[i3]


def _start(points: np.ndarray, eps: float) -> np.ndarray:
    """Return four points spanning a tetrahedron, wound outwards as four faces."""
    thinnest, (i0, i1, i2, i3), height = _thinnest(points)
    if not thinnest > eps:
        raise _Flat()
    if height > 0.0:  # the fourth point above (i0, i1, i2): wind that face downwards
        i1, i2 = i2, i1
    return np.array([[i0, i1, i2], [i0, i3, i1], [i1, i3, i2], [i2, i3, i0]],
                    dtype=np.int64)


def _quickhull(original: np.ndarray) -> Hull:
    n = len(original)
    if n < 4:
        raise _Flat()
    points = original - original.mean(axis=0)  # planes through big coordinates lose digits
    low, high = column_bounds(points)
    eps = _EPS * float(np.max(high - low))
    start = _start(points, eps)
    # A step touches a few faces: their corners and planes are Python lists (indexing NumPy
    # arrays element by element costs more than the arithmetic). ``alive`` marks the hull's
    # faces among every face ever made, in a buffer that grows by doubling.
    coordinates = points.tolist()
    corners = start.tolist()
    planes = _planes(coordinates, corners)
    capacity = 64
    alive = np.zeros(capacity, dtype=bool)
    alive[:4] = True
    # Directed edge -> the live face that runs along it: the faces next to a face.
    edge_face = {}
    for index, (a, b, c) in enumerate(corners):
        edge_face.update((((a, b), index), ((b, c), index), ((c, a), index)))
    # Every point outside the hull so far, with the face it is furthest outside of.
    table = np.array(planes)
    distance = points @ table[:, :3].T - table[:, 3]
    owner = np.argmax(distance, axis=1)
    height = distance[np.arange(n), owner]
    outside = np.flatnonzero(height > eps)
    owner, height = owner[outside], height[outside]
    steps = 0
    while len(outside):
        steps += 1
        if steps > MAX_STEPS:
            raise _Unbuilt('too many steps')
        pick = int(np.argmax(height))
        apex = int(outside[pick])
        visible, horizon = _visible(coordinates[apex], int(owner[pick]), corners, edge_face,
                                    planes, eps)
        new = [(a, b, apex) for a, b in horizon]
        new_planes = _planes(coordinates, new)
        first = len(corners)
        count = first + len(new)
        if count > capacity:
            capacity = max(2 * capacity, count)
            alive = np.resize(alive, capacity)
            alive[first:] = False
        for face in visible:
            a, b, c = corners[face]
            del edge_face[(a, b)], edge_face[(b, c)], edge_face[(c, a)]
        for index, (a, b, _) in enumerate(new, first):
            edge_face.update((((a, b), index), ((b, apex), index), ((apex, a), index)))
        corners.extend(new)
        planes.extend(new_planes)
        alive[visible] = False
        alive[first:count] = True
        # The points that saw a removed face look for a new one; the rest keep theirs.
        moved = ~alive[owner]
        moved[pick] = True
        keep = ~moved
        candidates = outside[moved]
        candidates = candidates[candidates != apex]
        table = np.array(new_planes)
        distance = points[candidates] @ table[:, :3].T - table[:, 3]
        best = np.argmax(distance, axis=1)
        best_height = distance[np.arange(len(candidates)), best]
        still = best_height > eps
        outside = np.concatenate([outside[keep], candidates[still]])
        owner = np.concatenate([owner[keep], first + best[still]])
        height = np.concatenate([height[keep], best_height[still]])
    simplices = np.array(corners, dtype=np.int64)[np.flatnonzero(alive[:len(corners)])]
    _verify(points, simplices)
    return Hull(original, simplices)


def _planes(coordinates: list, triangles: list) -> list:
    """Return each triangle's unit normal and offset, ``(nx, ny, nz, d)``."""
    rows = []
    for a, b, c in triangles:
        ax, ay, az = coordinates[a]
        bx, by, bz = coordinates[b]
        cx, cy, cz = coordinates[c]
        ux, uy, uz = bx - ax, by - ay, bz - az
        vx, vy, vz = cx - ax, cy - ay, cz - az
        nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
        length = math.sqrt(nx * nx + ny * ny + nz * nz)
        if not length > 0.0:
            raise _Unbuilt('a facet without area')
        nx, ny, nz = nx / length, ny / length, nz / length
        rows.append((nx, ny, nz, nx * ax + ny * ay + nz * az))
    return rows


def _visible(apex: list, seed: int, corners: list, edge_face: dict, planes: list,
             eps: float) -> Tuple[list, list]:
    """
    Return the faces the apex sees, grown from ``seed`` across shared edges, and the horizon.

    Growing the region face by face keeps it connected: taking every face the apex is above
    instead lets a near-coplanar face far away join it, and the horizon is then no longer
    one loop (the hull of a CAD part with many coplanar corners broke so).

    :return: (visible face indices, horizon edges wound as the visible faces ran them)
    :raises _Unbuilt: when the horizon is not one simple loop
    """
    x, y, z = apex
    visible = [seed]
    seen = {seed: True}
    horizon = []
    for face in visible:
        a, b, c = corners[face]
        for edge in ((a, b), (b, c), (c, a)):
            other = edge_face.get((edge[1], edge[0]))
            if other is None:  # an earlier step left the surface open (near-flat points)
                raise _Unbuilt('an edge without a face beyond it')
            sees = seen.get(other)
            if sees is None:
                nx, ny, nz, d = planes[other]
                sees = seen[other] = nx * x + ny * y + nz * z - d > eps
                if sees:
                    visible.append(other)
            if not sees:
                horizon.append(edge)
    starts = {a for a, _ in horizon}
    if len(horizon) < 3 or len(starts) != len(horizon):
        raise _Unbuilt('the horizon is not one loop')
    return visible, horizon


def _verify(points: np.ndarray, simplices: np.ndarray) -> None:
    """
    Refuse a result that is not a closed, consistently wound surface holding every point.

    A point counts as held when the tetrahedron it makes with every facet it lies above
    has less than :data:`_MISSING` of the hull's volume: that is the volume it would add.
    Measured so, with the facet's unnormalised cross product, a sliver facet (whose plane
    is known only roughly) cannot refuse a right hull.
    """
    _closed(simplices, len(points))
    _held(points, simplices)


def _closed(simplices: np.ndarray, n: int) -> None:
    """Refuse triangles that are not a closed surface wound one way."""
    edges = simplices[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    keys = np.sort(edges[:, 0] * n + edges[:, 1])
    if not len(keys):
        raise _Unbuilt('no facets')
    # Sorted, so a repeat is a neighbour (np.unique would import numpy.ma: 8 ms per process)
    if np.any(keys[1:] == keys[:-1]):
        raise _Unbuilt('an edge used twice in one direction')
    reverse = edges[:, 1] * n + edges[:, 0]
    found = np.minimum(np.searchsorted(keys, reverse), len(keys) - 1)
    if not np.all(keys[found] == reverse):
        raise _Unbuilt('an open edge')


def _held(points: np.ndarray, simplices: np.ndarray, missing: float = _MISSING) -> None:
    """Refuse a hull that a point lies outside of (by more than ``missing`` of its volume)."""
    n = len(points)
    crosses = cross(points[simplices])
    levels = np.einsum('ij,ij->i', crosses, points[simplices[:, 0]])
    # Six times the volume, as the triple products below are.
    allowed = missing * float(levels.sum())
    step = max(1, 1_000_000 // len(crosses))
    for start in range(0, n, step):
        chunk = points[start:start + step] @ crosses.T - levels
        if np.any(chunk > allowed):
            raise _Unbuilt('a point outside')
