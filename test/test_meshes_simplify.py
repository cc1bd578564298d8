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

"""Display simplification of meshes (vertex clustering to a triangle budget)."""

import numpy as np
import pytest
import trimesh
from urdf_link_tools.meshes.simplify import cluster_vertices, simplify


def uv_sphere(rings: int, segments: int):
    """Return a closed UV sphere of radius 1 (vertices, faces)."""
    vertices = [(0.0, 0.0, 1.0)]
    for ring in range(1, rings):
        theta = np.pi * ring / rings
        for segment in range(segments):
            phi = 2 * np.pi * segment / segments
            vertices.append((np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi),
                             np.cos(theta)))
    vertices.append((0.0, 0.0, -1.0))
    faces = []
    for segment in range(segments):
        faces.append((0, 1 + segment, 1 + (segment + 1) % segments))
    for ring in range(rings - 2):
        start = 1 + ring * segments
        for segment in range(segments):
            a, b = start + segment, start + (segment + 1) % segments
            faces += [(a, a + segments, b), (b, a + segments, b + segments)]
    last = len(vertices) - 1
    start = 1 + (rings - 2) * segments
    for segment in range(segments):
        faces.append((start + segment, last, start + (segment + 1) % segments))
    return np.array(vertices), np.array(faces)


def test_fine_grid_keeps_a_cube():
    vertices = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    faces = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                      [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
    merged, kept = cluster_vertices(vertices, faces, 16)
    assert len(kept) == 12
    assert np.allclose(np.sort(merged, axis=0), np.sort(vertices, axis=0))


@pytest.mark.parametrize('budget', [4000, 1000, 300])
def test_simplify_meets_the_budget_and_keeps_the_shape(budget):
    vertices, faces = uv_sphere(80, 120)
    assert len(faces) == 18960
    small_vertices, small_faces = simplify(vertices, faces, budget)
    assert 0 < len(small_faces) <= budget
    assert small_faces.max() < len(small_vertices)
    # no degenerate triangle, every vertex used, and the silhouette within a few cells
    assert np.all(small_faces[:, 0] != small_faces[:, 1])
    assert len(np.unique(small_faces)) == len(small_vertices)
    radii = np.linalg.norm(small_vertices, axis=1)
    assert radii.max() <= 1.0 + 1e-9 and radii.min() > 0.8
    # the budget is used, not thrown away: at least a quarter of it
    assert len(small_faces) > budget / 4


def test_under_budget_is_untouched():
    vertices, faces = uv_sphere(8, 8)
    assert simplify(vertices, faces, 10_000)[1] is faces


def test_a_huge_mesh_is_clustered_once_before_the_search(monkeypatch):
    # A 7 kB COLLADA file instancing one part 65,536 times: 2.6 million triangles took 11
    # clustering passes over the whole mesh (68 s for an HTML report of one link).
    from urdf_link_tools.meshes import simplify as module
    box = trimesh.creation.box()
    copies = 300_000 // len(box.faces) + 1
    vertices = np.tile(box.vertices, (copies, 1))
    faces = (box.faces[None, :, :] + (np.arange(copies) * len(box.vertices))[:, None, None]
             ).reshape(-1, 3)
    sizes = []
    original = module.cluster_vertices

    def counted(points, triangles, cells):
        sizes.append(len(triangles))
        return original(points, triangles, cells)
    monkeypatch.setattr(module, 'cluster_vertices', counted)
    small_vertices, small_faces = module.simplify(vertices, faces, 1000)
    assert sizes == [len(faces)]  # the copies collapse to one box at once
    assert len(small_faces) == 12
