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
Vertex merging and the volume integrals of a triangle surface, in NumPy alone.

The same numbers as trimesh's ``grouping.merge_vertices`` (positions rounded to 1e-8,
each group represented by its first vertex) and ``triangles.mass_properties`` (Eberly's
polyhedral mass properties, the same subexpressions in the same order), without importing
trimesh, which with the SciPy it imports costs about 55 MB of resident memory in a node
that only needs these two.
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

import numpy as np

#: trimesh's tol.merge: positions closer than 1e-8 (after rounding) are one vertex
MERGE_DIGITS = 8
_DIVISORS = np.array([6, 24, 24, 24, 60, 60, 60, 120, 120, 120], dtype=np.float64)


class MassProperties(NamedTuple):
    """Volume, centre and inertia (about the centre) of a surface at density 1."""

    volume: float
    center_mass: np.ndarray
    inertia: np.ndarray


def merge_positions(vertices: np.ndarray, faces: np.ndarray,
                    parts: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """
    Join vertices whose positions agree to 8 decimals, as trimesh's merge does.

    Unreferenced vertices are dropped. Each merged vertex keeps the exact position of the
    first vertex (in file order) of its group; the kept vertices stay in file order.

    :param vertices: (n, 3) positions
    :param faces: (m, 3) indices into ``vertices``
    :param parts: a label per vertex: only vertices of one label are joined (the closed parts
        of one file, :func:`.solid.shells`); None joins them all
    :return: the merged vertices and the faces renumbered onto them
    """
    if len(vertices) == 0 or len(faces) == 0:
        return vertices[:0], faces[:0]
    referenced = np.zeros(len(vertices), dtype=bool)
    referenced[faces] = True
    used = np.flatnonzero(referenced)
    keys = np.round(vertices[used] * 10.0 ** MERGE_DIGITS).astype(np.int64)
    if parts is not None:  # the label as a fourth coordinate
        keys = np.column_stack([keys, parts[used]])
    grouped = _group_by_hash(keys)
    if grouped is None:  # two different positions share a hash: sort the keys themselves
        # A stable sort keeps file order within a group: its first element is its first vertex.
        order = np.lexsort(keys.T[::-1])
        ordered = keys[order]
        starts = np.empty(len(order), dtype=bool)
        starts[0] = True
        starts[1:] = rows_differ(ordered[1:], ordered[:-1])
        first = order[starts]  # per group (in key order), its first vertex among ``used``
    else:
        order, starts, first = grouped
    group = np.cumsum(starts) - 1
    rank = np.argsort(first, kind='stable')  # groups in file order of their first vertex
    renumber = np.empty(len(first), dtype=np.int64)
    renumber[rank] = np.arange(len(first))
    inverse = np.zeros(len(vertices), dtype=np.int64)
    inverse[used[order]] = renumber[group]
    return vertices[used[first[rank]]], inverse[faces]


#: odd multipliers mixing a position's three integer keys (and a part label) into one
#: (wrapping int64)
_MIX = np.array([0x9E3779B97F4A7C15 - (1 << 64), 0xC2B2AE3D27D4EB4F - (1 << 64),
                 0x165667B19E3779F9, 0x27D4EB2F165667C5], dtype=np.int64)


def _group_by_hash(keys: np.ndarray):
    """
    Group equal rows of ``keys`` by sorting one mixed int64 per row (one sort, not three).

    :return: (order, starts, first): the rows sorted so equal ones are together, where each
        group starts in that order, and each group's first row in file order; None when
        two different rows share a mixed value (then the exact sort decides)
    """
    with np.errstate(over='ignore'):
        mixed = keys @ _MIX[:keys.shape[1]]  # wraps around, as hashing wants
    order = np.argsort(mixed)
    sorted_mixed = mixed[order]
    starts = np.empty(len(order), dtype=bool)
    starts[0] = True
    np.not_equal(sorted_mixed[1:], sorted_mixed[:-1], out=starts[1:])
    ordered = keys[order]
    if np.any(~starts[1:] & rows_differ(ordered[1:], ordered[:-1])):
        return None
    first = np.minimum.reduceat(order, np.flatnonzero(starts))
    return order, starts, first


def distinct(values: np.ndarray) -> np.ndarray:
    """
    Return the distinct values of an integer array, sorted (as ``np.unique`` does).

    ``np.unique`` imports ``numpy.ma`` on its first call (NumPy 2.3 and later asks whether
    the array is masked): 8 to 25 ms of a whole check, for nothing masked here.
    """
    ordered = np.sort(np.asarray(values).ravel())
    if not len(ordered):
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def column_bounds(points: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """
    Return the smallest and the largest value of each column of an (n, k) array.

    The same numbers as ``points.min(axis=0)`` and ``points.max(axis=0)`` (a minimum is
    exact, NaN included): NumPy reduces a few columns of many rows along a slow strided
    path, 750 microseconds for 15,000 points against 25 for the rows of a transposed copy
    (NumPy 2.4), and a humanoid's check takes the bounds of a few hundred thousand.
    """
    columns = np.ascontiguousarray(np.asarray(points).T)
    return columns.min(axis=1), columns.max(axis=1)


def row_bounds(values: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """
    Return the smallest and the largest value of each row of an (n, k) array, k small.

    The same numbers as ``values.min(axis=1)`` and ``values.max(axis=1)``, column by column:
    NumPy's reduction over three values a row costs 480 microseconds for 15,000 rows,
    against 15 (a triangle's lowest and highest corner index, every mesh measured).
    """
    low, high = values[:, 0].copy(), values[:, 0].copy()
    for column in range(1, values.shape[1]):
        np.minimum(low, values[:, column], out=low)
        np.maximum(high, values[:, column], out=high)
    return low, high


def rows_differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return for each row whether ``a`` and ``b`` differ in any column (see row_bounds)."""
    differ = a[:, 0] != b[:, 0]
    for column in range(1, a.shape[1]):
        differ |= a[:, column] != b[:, column]
    return differ


def cross(triangles: np.ndarray) -> np.ndarray:
    """Return each triangle's (b - a) x (c - a): twice its area along its normal."""
    return cross_rows(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 1])


def cross_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """
    Return the cross product of each row of ``a`` (n, 3) with the same row of ``b``.

    The same products and differences as ``np.cross``, so the same bits, without its
    axis handling: 10-20 microseconds less a call, which a mesh's measure makes a dozen of.
    """
    a0, a1, a2 = a[:, 0], a[:, 1], a[:, 2]
    b0, b1, b2 = b[:, 0], b[:, 1], b[:, 2]
    out = np.empty((len(a), 3), dtype=np.result_type(a, b))
    np.subtract(a1 * b2, a2 * b1, out=out[:, 0])
    np.subtract(a2 * b0, a0 * b2, out=out[:, 1])
    np.subtract(a0 * b1, a1 * b0, out=out[:, 2])
    return out


def mass_properties(triangles: np.ndarray, crosses: np.ndarray) -> MassProperties:
    """
    Integrate volume, centre of mass and inertia over a closed triangle surface.

    As trimesh's ``triangles.mass_properties`` at density 1 (geometrictools.com,
    PolyhedralMassProperties): an inward-wound surface gives a negative volume and a
    negated inertia; a surface without volume gives a centre of NaN or inf.

    :param triangles: (n, 3, 3) corner positions
    :param crosses: :func:`cross` of them
    :return: the properties
    """
    t0, t1, t2 = triangles[:, 0, :], triangles[:, 1, :], triangles[:, 2, :]
    f1 = t0 + t1 + t2
    f2 = t0 ** 2 + t1 ** 2 + t0 * t1 + t2 * f1
    f3 = t0 ** 3 + t0 ** 2 * t1 + t0 * t1 ** 2 + t1 ** 3 + t2 * f2
    g0 = f2 + (t0 + f1) * t0
    g1 = f2 + (t1 + f1) * t1
    g2 = f2 + (t2 + f1) * t2
    integral = np.zeros((10, len(f1)))
    integral[0] = crosses[:, 0] * f1[:, 0]
    integral[1:4] = (crosses * f2).T
    integral[4:7] = (crosses * f3).T
    for i in range(3):
        j = (i + 1) % 3
        integral[i + 7] = crosses[:, i] * (t0[:, j] * g0[:, i] + t1[:, j] * g1[:, i]
                                           + t2[:, j] * g2[:, i])
    integrated = integral.sum(axis=1) / _DIVISORS
    volume = float(integrated[0])
    center = integrated[1:4] / volume
    inertia = np.zeros((3, 3))
    inertia[0, 0] = integrated[5] + integrated[6] - volume * (center[[1, 2]] ** 2).sum()
    inertia[1, 1] = integrated[4] + integrated[6] - volume * (center[[0, 2]] ** 2).sum()
    inertia[2, 2] = integrated[4] + integrated[5] - volume * (center[[0, 1]] ** 2).sum()
    inertia[0, 1] = inertia[1, 0] = -(integrated[7] - volume * np.prod(center[[0, 1]]))
    inertia[1, 2] = inertia[2, 1] = -(integrated[8] - volume * np.prod(center[[1, 2]]))
    inertia[0, 2] = inertia[2, 0] = -(integrated[9] - volume * np.prod(center[[0, 2]]))
    return MassProperties(volume, center, inertia)
