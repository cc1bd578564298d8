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
Pure geometry helpers: URDF rotations, frames, and the volume, inertia and bounds of shapes.

Conventions follow the URDF specification: ``rpy`` is roll, pitch, yaw about the *fixed*
axes x, y, z, so ``R = Rz(yaw) @ Ry(pitch) @ Rx(roll)`` (urdfdom's ``Rotation::setFromRPY``);
a cylinder's axis is its local z; every primitive is centred on its origin. Quaternions are
returned as (x, y, z, w), the order of geometry_msgs.
"""

from __future__ import annotations

import math
from typing import Optional, Sequence, Tuple

import numpy as np

from urdf_link_tools.model import Box, Cylinder, Geometry, GeometryElement, Mesh, Origin, Sphere

Bounds = Tuple[np.ndarray, np.ndarray]

_INF = math.inf


def _rotation_rows(roll: float, pitch: float, yaw: float) -> Tuple[float, ...]:
    """Return the nine entries of R = Rz(yaw) Ry(pitch) Rx(roll), row by row (finite angles)."""
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return (cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
            sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
            -sp, cp * sr, cp * cr)


def rpy_to_matrix(rpy: Sequence[float]) -> np.ndarray:
    """
    Return the rotation matrix of URDF fixed-axis roll, pitch, yaw.

    :param rpy: (roll, pitch, yaw) in radians
    :return: 3x3 matrix R = Rz(yaw) Ry(pitch) Rx(roll); all NaN when an angle is not finite
    """
    roll, pitch, yaw = (float(v) for v in rpy)
    if not (math.isfinite(roll) and math.isfinite(pitch) and math.isfinite(yaw)):
        # math.cos gives NaN for NaN but raises for infinity: make both NaN, which every
        # caller already treats as "not finite, reported by the checks".
        return np.full((3, 3), math.nan)
    r = _rotation_rows(roll, pitch, yaw)
    return np.array([r[0:3], r[3:6], r[6:9]])


def matrix_to_quaternion(matrix: np.ndarray) -> Tuple[float, float, float, float]:
    """
    Convert a rotation matrix to a unit quaternion (x, y, z, w) with w >= 0.

    Shepperd's method: pick the largest of w, x, y, z to divide by, so it stays accurate
    near 180 degree rotations.

    :param matrix: 3x3 rotation matrix
    :return: (x, y, z, w)
    """
    m = np.asarray(matrix, dtype=float)
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > 0.0:
        s = 2.0 * math.sqrt(1.0 + trace)
        w, x = 0.25 * s, (m[2, 1] - m[1, 2]) / s
        y, z = (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = 2.0 * math.sqrt(max(1.0 + m[0, 0] - m[1, 1] - m[2, 2], 0.0))
        w, x = (m[2, 1] - m[1, 2]) / s, 0.25 * s
        y, z = (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s
    elif m[1, 1] > m[2, 2]:
        s = 2.0 * math.sqrt(max(1.0 + m[1, 1] - m[0, 0] - m[2, 2], 0.0))
        w, x = (m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s
        y, z = 0.25 * s, (m[1, 2] + m[2, 1]) / s
    else:
        s = 2.0 * math.sqrt(max(1.0 + m[2, 2] - m[0, 0] - m[1, 1], 0.0))
        w, x = (m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s
        y, z = (m[1, 2] + m[2, 1]) / s, 0.25 * s
    norm = math.sqrt(w * w + x * x + y * y + z * z)
    if w < 0.0:
        norm = -norm
    return (float(x / norm), float(y / norm), float(z / norm), float(w / norm))


def rpy_to_quaternion(rpy: Sequence[float]) -> Tuple[float, float, float, float]:
    """
    Convert URDF roll, pitch, yaw to a quaternion (x, y, z, w).

    :param rpy: (roll, pitch, yaw) in radians
    :return: (x, y, z, w)
    """
    return matrix_to_quaternion(rpy_to_matrix(rpy))


def origin_to_matrix(origin: Origin) -> np.ndarray:
    """
    Return the homogeneous transform of an origin (child frame expressed in the parent).

    :param origin: the URDF origin
    :return: 4x4 matrix
    """
    roll, pitch, yaw = (float(v) for v in origin.rpy)
    x, y, z = (float(v) for v in origin.xyz)
    if not (math.isfinite(roll) and math.isfinite(pitch) and math.isfinite(yaw)):
        r: Tuple[float, ...] = (math.nan,) * 9
    else:
        r = _rotation_rows(roll, pitch, yaw)
    # One array from the numbers: np.eye and two slice assignments cost three times as much.
    return np.array([(r[0], r[1], r[2], x), (r[3], r[4], r[5], y), (r[6], r[7], r[8], z),
                     (0.0, 0.0, 0.0, 1.0)])


def is_finite(values: Sequence[float]) -> bool:
    """Return True when every value is a finite number."""
    # A finite sum has no NaN and no infinity among its terms (either makes the sum one);
    # a sum that overflowed, or any other, is judged term by term. The sum is a third of the
    # cost of the test of each term, and this is asked a hundred times per link.
    return math.isfinite(sum(values)) or all(map(math.isfinite, values))


def geometry_values(geometry: Geometry) -> Tuple[float, ...]:
    """Return the numbers that define a shape (sizes, radius, length or scale)."""
    if isinstance(geometry, Box):
        return tuple(geometry.size)
    if isinstance(geometry, Cylinder):
        return (geometry.radius, geometry.length)
    if isinstance(geometry, Sphere):
        return (geometry.radius,)
    if isinstance(geometry, Mesh):
        return tuple(geometry.scale)
    return ()


def has_size(geometry: Geometry) -> bool:
    """
    Return True for a shape that encloses something: finite sizes, all positive.

    A mesh's scale may be negative: a mirror image (TALOS's right leg, ``scale="1 -1 1"``)
    has the size of its left twin; only a zero scale flattens it.
    """
    values = geometry_values(geometry)
    if not is_finite(values):
        return False
    if isinstance(geometry, Mesh):
        return all(value != 0.0 for value in values)
    return all(value > 0.0 for value in values)


def primitive_volume(geometry: Optional[Geometry]) -> Optional[float]:
    """
    Return the volume of a box, cylinder or sphere in m^3.

    :param geometry: the shape
    :return: the volume, or None for meshes, missing shapes and degenerate sizes
    """
    # Every size must be finite and positive: 0 < v < inf (NaN fails both comparisons).
    if isinstance(geometry, Box):
        x, y, z = geometry.size
        return x * y * z if 0.0 < x < _INF and 0.0 < y < _INF and 0.0 < z < _INF else None
    if isinstance(geometry, Cylinder):
        radius, length = geometry.radius, geometry.length
        if 0.0 < radius < _INF and 0.0 < length < _INF:
            return math.pi * _power(radius, 2) * length
        return None
    if isinstance(geometry, Sphere):
        radius = geometry.radius
        return 4.0 / 3.0 * math.pi * _power(radius, 3) if 0.0 < radius < _INF else None
    return None  # a mesh, or no shape


def _power(value: float, exponent: int) -> float:
    """Return ``value ** exponent``, infinite where a float's power raises OverflowError."""
    try:
        return value ** exponent
    except OverflowError:  # <sphere radius="1e308"/>: two checks failed on it
        return math.inf


def primitive_unit_inertia(geometry: Optional[Geometry]) -> Optional[np.ndarray]:
    """
    Return the inertia tensor of a primitive of density 1 kg/m^3 about its centre.

    The formulas are the solid-body ones the URDF specification links to (box
    m (b^2 + c^2) / 12, cylinder about its axis m r^2 / 2 and across it
    m (3 r^2 + l^2) / 12, sphere 2 m r^2 / 5), with m the volume.

    :param geometry: the shape, in its own frame
    :return: 3x3 tensor, or None for meshes, missing shapes and degenerate sizes
    """
    volume = primitive_volume(geometry)
    if volume is None:
        return None
    if isinstance(geometry, Box):
        x, y, z = geometry.size
        return np.diag([volume * (y * y + z * z) / 12.0,
                        volume * (x * x + z * z) / 12.0,
                        volume * (x * x + y * y) / 12.0])
    if isinstance(geometry, Cylinder):
        r, length = geometry.radius, geometry.length
        across = volume * (3.0 * r * r + length * length) / 12.0
        return np.diag([across, across, volume * r * r / 2.0])
    if isinstance(geometry, Sphere):
        return np.eye(3) * (2.0 / 5.0 * volume * _power(geometry.radius, 2))
    return None


def primitive_local_bounds(geometry: Optional[Geometry]) -> Optional[Bounds]:
    """
    Return the axis-aligned bounds of a primitive in its own frame.

    :param geometry: the shape
    :return: (min, max), or None for meshes and non-finite sizes
    """
    if geometry is None or isinstance(geometry, Mesh):
        return None
    values = geometry_values(geometry)
    if not is_finite(values):
        return None
    if isinstance(geometry, Box):
        half = np.abs(np.asarray(geometry.size, dtype=float)) / 2.0
    elif isinstance(geometry, Cylinder):
        r = abs(geometry.radius)
        half = np.array([r, r, abs(geometry.length) / 2.0])
    else:
        half = np.full(3, abs(geometry.radius))
    return -half, half


_EYE4 = np.eye(4).tobytes()


def transform_bounds(local: Bounds, transform: np.ndarray) -> Bounds:
    """
    Return the axis-aligned bounds of a transformed box (all eight corners).

    :param local: (min, max) in the local frame
    :param transform: 4x4 local-to-parent transform
    :return: (min, max) in the parent frame
    """
    lo, hi = local
    if isinstance(lo, np.ndarray) and isinstance(hi, np.ndarray) and \
            transform.dtype == np.float64 and transform.tobytes() == _EYE4:
        # The identity (a weld group's top frame): each corner's coordinate is the box's
        # own plus the zero translation, the same number as the product below gives for a
        # finite one (the products with the zeros of the matrix are zeros; adding +0 turns
        # a -0 into +0, whatever the order of the sum).
        low, high = lo.tolist(), hi.tolist()
        if is_finite(low) and is_finite(high):
            return (np.array([min(a + 0.0, b + 0.0) for a, b in zip(low, high)]),
                    np.array([max(a + 0.0, b + 0.0) for a, b in zip(low, high)]))
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                        for z in (lo[2], hi[2])])
    moved = corners @ transform[:3, :3].T + transform[:3, 3]
    return moved.min(axis=0), moved.max(axis=0)


def _plain_bounds(geometry: Geometry, xyz: Sequence[float], rpy: Sequence[float]) -> \
        Optional[Bounds]:
    """
    Return a primitive's bounds with Python numbers, or None to take the NumPy way.

    The same operations in the same order as :func:`element_bounds` below (IEEE-754 makes
    them equal, bit for bit): element-wise formulas for spheres and cylinders under any
    rotation, boxes without rotation (any other takes a matrix product whose rounding the
    BLAS decides). Ten times faster than NumPy on three-element arrays.
    """
    cx, cy, cz = (float(v) for v in xyz)
    if isinstance(geometry, Sphere):
        half = abs(float(geometry.radius))
        return np.array((cx - half, cy - half, cz - half)), \
            np.array((cx + half, cy + half, cz + half))
    roll, pitch, yaw = (float(v) for v in rpy)
    if isinstance(geometry, Cylinder):
        r = _rotation_rows(roll, pitch, yaw)
        length = abs(float(geometry.length))
        radius = abs(float(geometry.radius))
        hx, hy, hz = (abs(a) * length / 2.0 + radius * math.sqrt(min(max(1.0 - a * a, 0.0), 1.0))
                      for a in (r[2], r[5], r[8]))
        return np.array((cx - hx, cy - hy, cz - hz)), np.array((cx + hx, cy + hy, cz + hz))
    if isinstance(geometry, Box) and roll == 0.0 and pitch == 0.0 and yaw == 0.0:
        # The rotation is the identity up to the signs of its zeros: each corner is the
        # half size plus the centre, exactly, unless a half size is zero (signed zeros).
        hx, hy, hz = (abs(float(v)) / 2.0 for v in geometry.size)
        if hx != 0.0 and hy != 0.0 and hz != 0.0:
            return np.array((cx - hx, cy - hy, cz - hz)), np.array((cx + hx, cy + hy, cz + hz))
    return None


def _turned_bounds(mesh_info: Optional[object], rotation: np.ndarray, centre: np.ndarray) -> \
        Optional[Bounds]:
    """Return the bounds of a mesh's vertices turned and moved, None without vertices."""
    vertices = getattr(mesh_info, 'vertices', None)
    if vertices is None or len(vertices) == 0:
        return None
    # Turned as rows of coordinates (3, n): their bounds are contiguous reductions (see
    # column_bounds), and adding the centre after the extremes gives the same numbers
    # (rounding is monotonic).
    turned = rotation @ np.asarray(vertices, dtype=float).T
    low, high = turned.min(axis=1) + centre, turned.max(axis=1) + centre
    low.setflags(write=False)  # shared with the next analysis of the same file
    high.setflags(write=False)
    return low, high


def element_bounds(element: GeometryElement, mesh_info: Optional[object] = None) -> \
        Optional[Bounds]:
    """
    Return the axis-aligned bounds of a visual or collision element in the link frame.

    The one bounds computation (the services, the rules and their messages all use it):
    exact for every shape under any rotation. Cylinders and spheres analytically, boxes by
    their corners, meshes by their (scaled) vertices; a mesh whose origin only permutes or
    flips the axes (no rpy, or quarter turns) by its own box's corners, which is the same.

    :param element: the element
    :param mesh_info: a :class:`urdf_link_tools.meshes.MeshInfo` for mesh elements
    :return: (min, max) as numpy arrays, or None when unknown (no geometry, mesh not
        loaded, non-finite numbers)
    """
    geometry = element.geometry
    origin = element.origin
    if geometry is None or not is_finite(origin.xyz + origin.rpy):
        return None
    if not isinstance(geometry, Mesh):
        if not is_finite(geometry_values(geometry)):
            return None
        plain = _plain_bounds(geometry, origin.xyz, origin.rpy)
        if plain is not None:
            return plain
    transform = origin_to_matrix(origin)
    rotation, centre = transform[:3, :3], transform[:3, 3]
    if isinstance(geometry, Mesh):
        local = getattr(mesh_info, 'bounds', None)
        if local is not None and _permutes_axes(rotation):
            return transform_bounds(local, transform)
        derived = getattr(mesh_info, 'derived', None)
        if derived is not None:  # kept with the file for the next analysis (MeshInfo.derived)
            return derived(('bounds', transform.tobytes()),
                           lambda: _turned_bounds(mesh_info, rotation, centre))
        return _turned_bounds(mesh_info, rotation, centre)
    if isinstance(geometry, Sphere):
        half = np.full(3, abs(geometry.radius))
        return centre - half, centre + half
    if isinstance(geometry, Cylinder):
        # Extent along world axis i of a disc-swept segment with unit axis a:
        # |a_i| * l / 2 + r * sqrt(1 - a_i^2).
        axis = rotation[:, 2]
        half = (np.abs(axis) * abs(geometry.length) / 2.0
                + abs(geometry.radius) * np.sqrt(np.clip(1.0 - axis * axis, 0.0, 1.0)))
        return centre - half, centre + half
    local = primitive_local_bounds(geometry)
    return transform_bounds(local, transform) if local is not None else None


def _permutes_axes(rotation: np.ndarray) -> bool:
    # A signed permutation maps the box's corners onto the moved vertices' extremes exactly.
    return bool(np.all((np.abs(rotation) < 1e-12) | (np.abs(np.abs(rotation) - 1.0) < 1e-12)))


def union_bounds(boxes: Sequence[Optional[Bounds]]) -> Optional[Bounds]:
    """Return the bounds enclosing every given box (None entries are skipped)."""
    present = [box for box in boxes if box is not None]
    if not present:
        return None
    if len(present) == 1:
        lo, hi = present[0]
        return np.array(lo, dtype=float), np.array(hi, dtype=float)
    lows = [box[0].tolist() for box in present if isinstance(box[0], np.ndarray)]
    highs = [box[1].tolist() for box in present if isinstance(box[1], np.ndarray)]
    if len(lows) == len(present) and len(highs) == len(present) and \
            all(map(is_finite, lows)) and all(map(is_finite, highs)):
        low = [min(values) for values in zip(*lows)]
        high = [max(values) for values in zip(*highs)]
        if 0.0 in low or 0.0 in high:  # a zero: which one NumPy picks (see _extreme)
            low = [_extreme(min, values) for values in zip(*lows)]
            high = [_extreme(max, values) for values in zip(*highs)]
        if None not in low and None not in high:
            return np.array(low), np.array(high)
    return (np.min([box[0] for box in present], axis=0),
            np.max([box[1] for box in present], axis=0))


def _extreme(pick, values: Sequence[float]) -> Optional[float]:
    """
    Return min or max of finite numbers as NumPy's reduction does, None if unsure.

    They agree on numbers; not on NaN, nor on which zero of a +0 and a -0 is the smaller.
    """
    if not is_finite(values):
        return None
    result = pick(values)
    if result == 0.0 and len({math.copysign(1.0, v) for v in values if v == 0.0}) > 1:
        return None
    return result


def distance_outside(point: np.ndarray, bounds: Bounds) -> float:
    """Return how far a point lies outside an axis-aligned box (0 when inside)."""
    lo, hi = bounds
    gap = np.maximum(np.maximum(lo - point, point - hi), 0.0)
    return float(np.linalg.norm(gap))
