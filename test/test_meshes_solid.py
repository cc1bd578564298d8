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
Measuring solids: trimesh's numbers where the surface is trusted, the hull elsewhere.

The fast paths (one sort for the closed-surface test, no second merge of STL, the DAE
material cutter) give exactly what trimesh and the regular expressions they replace give;
scaling a measured solid analytically gives what measuring the scaled vertices gives.
"""

import random
import re

import numpy as np
import pytest

from urdf_link_tools.meshes import dae, solid
from urdf_link_tools.meshes.reading import RawMesh


def test_dae_material_stripping_is_the_regex():
    """dae.strip_dae_materials cuts exactly what the regular expressions it replaces cut."""
    def reference(data):
        data = re.sub(rb'<bind_material\b.*?</bind_material>', b'', data, flags=re.S)
        return re.sub(rb'<library_(effects|images|materials)\b.*?</library_\1>', b'', data,
                      flags=re.S)

    pieces = [b'<bind_material>', b'</bind_material>', b'<bind_materials>', b'<bind_material ',
              b'<library_effects>', b'</library_effects>', b'<library_images id="i">',
              b'</library_images>', b'<library_materials', b'</library_materials>',
              b'<library_effectsX>', b'<library_geometries>', b'x', b'\n', b'<', b'>', b'/']
    rng = random.Random(5)
    for _ in range(20000):
        data = b''.join(rng.choice(pieces) for _ in range(rng.randrange(12)))
        assert dae.strip_dae_materials(data) == reference(data), data


def _reference_solid(vertices, faces):
    """Measure a mesh as meshes did before its fast path: with trimesh's own properties."""
    import trimesh
    mesh = trimesh.Trimesh(vertices=vertices, faces=faces, process=True)
    body, source = mesh, 'mesh'
    if not (mesh.is_watertight and mesh.is_winding_consistent):
        body, source = mesh.convex_hull, 'convex hull'
    volume = float(body.volume)
    inertia = np.asarray(body.moment_inertia, dtype=float)
    if volume < 0.0:
        volume, inertia = -volume, -inertia
    return (mesh.is_watertight, mesh.is_winding_consistent, source, volume,
            np.asarray(body.center_mass, dtype=float), inertia)


def _random_mesh(rng: random.Random):
    import trimesh
    kind = rng.randrange(4)
    if kind == 0:
        mesh = trimesh.creation.icosphere(subdivisions=rng.randrange(3), radius=rng.uniform(.1, 2))
    elif kind == 1:
        mesh = trimesh.creation.box(extents=[rng.uniform(.1, 2) for _ in range(3)])
    elif kind == 2:
        mesh = trimesh.creation.cylinder(radius=rng.uniform(.1, 1), height=rng.uniform(.1, 2))
    else:
        mesh = trimesh.creation.annulus(r_min=0.2, r_max=0.5, height=0.3)
    vertices = np.asarray(mesh.vertices) + [rng.uniform(-1, 1) for _ in range(3)]
    faces = np.asarray(mesh.faces).copy()
    change = rng.randrange(5)
    if change == 1:  # open
        faces = faces[rng.randrange(1, 4):]
    elif change == 2:  # a flipped face: watertight but inconsistent winding
        index = rng.randrange(len(faces))
        faces[index] = faces[index][::-1]
    elif change == 3:  # a duplicated face: an edge shared by three faces
        faces = np.concatenate([faces, faces[:1]])
    elif change == 4:  # all flipped: inside out
        faces = faces[:, ::-1].copy()
    if rng.random() < 0.5:  # a triangle soup, as STL files hold it
        vertices = vertices[faces].reshape(-1, 3)
        faces = np.arange(len(vertices)).reshape(-1, 3)
    return vertices, faces


def test_closed_surface_test_is_trimeshs():
    import trimesh
    rng = random.Random(9)
    for _ in range(300):
        vertices, faces = _random_mesh(rng)
        mesh = trimesh.Trimesh(vertices=vertices, faces=faces, process=True)
        assert solid.closed(np.asarray(mesh.faces)) == \
            (mesh.is_watertight, mesh.is_watertight and mesh.is_winding_consistent)


@pytest.mark.parametrize('merged', [False, True])
def test_measured_solid_is_trimeshs(merged):
    import trimesh
    rng = random.Random(13)
    for _ in range(120):
        vertices, faces = _random_mesh(rng)
        if merged:  # what the STL loader hands over: already merged by position
            mesh = trimesh.Trimesh(vertices=vertices, faces=faces, process=True)
            vertices, faces = np.asarray(mesh.vertices), np.asarray(mesh.faces)
        raw = RawMesh(np.asarray(vertices, dtype=float), np.asarray(faces, dtype=np.int64),
                      1.0, 0, merged)
        measured = solid.measure_solid(raw)
        watertight, _, source, volume, centre, tensor = _reference_solid(vertices, faces)
        assert (measured.is_watertight, measured.volume_source) == (watertight, source)
        if source == 'mesh':  # the same calls on the same arrays: the same bits
            assert measured.volume == volume
            assert np.array_equal(measured.center_mass, centre)
            assert np.array_equal(measured.unit_inertia, tensor)
        else:  # Qhull's facets directly, not trimesh's repaired hull mesh: rounding apart
            assert measured.volume == pytest.approx(volume, rel=1e-9)
            assert measured.center_mass == pytest.approx(centre, rel=1e-9, abs=1e-12)
            scale = float(np.abs(tensor).max())
            assert measured.unit_inertia == pytest.approx(tensor, rel=1e-8, abs=1e-9 * scale)


def _two_cubes_obj(second_inward: bool = False) -> str:
    """Two 1 m cubes side by side, touching along a face, as two objects of one OBJ."""
    import trimesh
    lines = []
    offset = 0
    for number, shift in enumerate((0.0, 1.0)):
        cube = trimesh.creation.box(extents=(1.0, 1.0, 1.0))
        faces = np.asarray(cube.faces)
        if second_inward and number == 1:
            faces = faces[:, ::-1]
        lines.append(f'o part{number}')
        lines += [f'v {x + shift + 0.5:.6f} {y + 0.5:.6f} {z + 0.5:.6f}'
                  for x, y, z in cube.vertices]
        lines += ['f ' + ' '.join(str(i + 1 + offset) for i in face) for face in faces]
        offset += len(cube.vertices)
    return '\n'.join(lines) + '\n'


def test_a_file_of_closed_parts_is_measured_as_their_sum(tmp_path):
    # A convex decomposition (V-HACD, as pybullet's and ravens' OBJ files hold them) or a
    # CAD assembly's bodies: each part closed, the whole not once the corners where the
    # parts touch are merged. Before, "not closed" and the convex hull of the whole.
    from urdf_link_tools.meshes.reading import Budget, read_mesh
    path = tmp_path / 'parts.obj'
    path.write_text(_two_cubes_obj())
    raw = read_mesh(str(path), 'obj', Budget(), ())
    merged = solid.merge_positions(raw.vertices, raw.faces)[1]
    assert solid.closed(merged) == (False, False)  # the touching faces' edges: four triangles
    measured = solid.measure_solid(raw)
    assert (measured.volume_source, measured.is_watertight) == ('mesh', True)
    assert measured.volume == pytest.approx(2.0, rel=1e-12)
    assert measured.center_mass == pytest.approx([1.0, 0.5, 0.5], rel=1e-12)
    # Two unit cubes' inertia about their common centre, density 1.
    assert np.diag(measured.unit_inertia) == pytest.approx([1 / 3, 5 / 6, 5 / 6], rel=1e-9)


def test_parts_wound_opposite_ways_are_not_trusted(tmp_path):
    from urdf_link_tools.meshes.reading import Budget, read_mesh
    path = tmp_path / 'parts.obj'
    path.write_text(_two_cubes_obj(second_inward=True))
    measured = solid.measure_solid(read_mesh(str(path), 'obj', Budget(), ()))
    assert (measured.volume_source, measured.is_watertight) == ('convex hull', False)
    assert measured.volume == pytest.approx(2.0, rel=1e-9)  # the hull of both: 2 x 1 x 1
