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
Simplify a triangle mesh for display by vertex clustering, to a triangle budget.

Vertex clustering (Rossignac and Borrel, 1993) snaps the vertices to a grid, merges those in
one cell at their mean and drops the triangles that collapse: linear in the mesh, never
fails, and keeps the silhouette to within a cell. It is for drawing only (the HTML report):
the checks measure the meshes as read.
"""

from __future__ import annotations

from typing import Tuple

import numpy as np

from urdf_link_tools.meshes.integrals import column_bounds

#: the finest grid tried, in cells along the longest side of the mesh's bounds
_MAX_CELLS = 1024
#: the coarsest grid (a budget this small keeps little more than a box)
_MIN_CELLS = 2
#: triangles beyond which the finest grid's clustering comes first (see :func:`simplify`)
PRE_CLUSTER = 200_000


def cluster_vertices(vertices: np.ndarray, faces: np.ndarray, cells: int) \
        -> Tuple[np.ndarray, np.ndarray]:
    """
    Merge the vertices that fall into one cell of a grid of ``cells`` along the longest side.

    :param vertices: (n, 3) floats
    :param faces: (m, 3) vertex indices
    :param cells: grid cells along the longest side of the bounds (>= 1)
    :return: (vertices, faces) of the simplified mesh; triangles that collapse to a line or a
        point, and duplicates, are dropped
    """
    if not len(faces):
        return vertices[:0], faces[:0]
    low, high = column_bounds(vertices)
    extent = float((high - low).max())
    size = extent / cells if extent > 0.0 else 1.0
    keys = np.floor((vertices - low) / size).astype(np.int64)
    keys = np.minimum(keys, cells)  # the far faces of the bounds fall into the last cell
    span = cells + 1
    flat = (keys[:, 0] * span + keys[:, 1]) * span + keys[:, 2]
    unique, cluster = np.unique(flat, return_inverse=True)
    cluster = cluster.reshape(-1)
    counts = np.bincount(cluster, minlength=len(unique)).astype(float)
    merged = np.zeros((len(unique), 3))
    for axis in range(3):
        merged[:, axis] = np.bincount(cluster, weights=vertices[:, axis], minlength=len(unique))
    merged /= counts[:, None]
    remapped = cluster[faces]
    keep = ((remapped[:, 0] != remapped[:, 1]) & (remapped[:, 1] != remapped[:, 2])
            & (remapped[:, 0] != remapped[:, 2]))
    remapped = remapped[keep]
    # The same triangle twice (same winding) after merging draws nothing more.
    order = np.sort(remapped, axis=1)
    _, first = np.unique(order, axis=0, return_index=True)
    remapped = remapped[np.sort(first)]
    used, compact = np.unique(remapped, return_inverse=True)
    return merged[used], compact.reshape(-1, 3)


def simplify(vertices: np.ndarray, faces: np.ndarray, max_triangles: int) \
        -> Tuple[np.ndarray, np.ndarray]:
    """
    Return the mesh with at most about ``max_triangles`` triangles (itself when it has fewer).

    The finest grid that meets the budget is searched by bisection on the number of cells.

    :param vertices: (n, 3) floats
    :param faces: (m, 3) vertex indices
    :param max_triangles: the budget (at least the coarsest grid's result is returned)
    :return: (vertices, faces)
    """
    if len(faces) <= max_triangles:
        return vertices, faces
    if len(faces) > PRE_CLUSTER:
        # One pass at the finest grid first: the bisection then clusters the result, not
        # the mesh as read (a 7 kB COLLADA file instancing one part 65,536 times: 2.6 million
        # triangles, 11 passes of 6 s each, a minute of an HTML report for one link).
        vertices, faces = cluster_vertices(vertices, faces, _MAX_CELLS)
        if len(faces) <= max_triangles:
            return vertices, faces
    low, high = _MIN_CELLS, _MAX_CELLS
    best = cluster_vertices(vertices, faces, low)
    while high - low > 1:
        middle = (low + high) // 2
        candidate = cluster_vertices(vertices, faces, middle)
        if len(candidate[1]) <= max_triangles:
            low, best = middle, candidate
        else:
            high = middle
    return best
