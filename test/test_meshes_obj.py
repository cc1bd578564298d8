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
The NumPy OBJ reader: the surface trimesh reads, from the files it takes, and trimesh for the rest.

Every OBJ file of example-robot-data is read both ways: where the NumPy reader takes the file,
its triangles are trimesh's (as positions, after the position merge both go through, within
that merge's 1e-8) and the solid measured from them is the same; what it leaves goes to
trimesh as before.
"""

import corpus
import numpy as np
import pytest
from urdf_link_tools.meshes import MeshInfo, MeshLibrary
from urdf_link_tools.meshes import obj, reading
from urdf_link_tools.meshes.integrals import cross, mass_properties, merge_positions

TETRA = 'v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n'


def _trimesh_arrays(path, data):
    """Read a file the way the library did before the NumPy reader (through trimesh)."""
    import trimesh
    scene = trimesh.load_scene(file_obj=__import__('io').BytesIO(data), file_type='obj',
                               skip_materials=True)
    return reading.scene_arrays(scene, reading.Budget())


def _triangles(vertices, faces):
    """Return the merged triangles as sorted rows of rounded corner positions."""
    merged, renumbered = merge_positions(np.asarray(vertices, dtype=float), np.asarray(faces))
    corners = np.round(merged[renumbered] * 1e7).astype(np.int64)  # within the 1e-8 merge
    rotated = np.array([np.roll(row, -int(np.argmin([tuple(c) for c in row])), axis=0)
                        for row in corners]) if len(corners) < 50_000 else corners
    flat = rotated.reshape(len(rotated), -1)
    return flat[np.lexsort(flat.T[::-1])]


def test_every_corpus_obj_it_takes_is_the_surface_trimesh_reads():
    pytest.importorskip('trimesh')
    files = corpus.mesh_files('.obj')
    if not files:
        pytest.skip('example-robot-data is not installed')
    taken = 0
    for path in files:
        data = path.read_bytes()
        read = obj.read_obj(data, reading.Budget().max_triangles)
        if isinstance(read, obj.Fallback):
            continue
        taken += 1
        vertices, faces = _trimesh_arrays(path, data)
        assert len(read[1]) == len(faces), path
        assert np.array_equal(_triangles(*read), _triangles(vertices, faces)), path
        volumes = []
        for points, triangles in (read, (vertices, faces)):
            merged, renumbered = merge_positions(np.asarray(points, dtype=float), triangles)
            corners = merged[renumbered]
            with np.errstate(all='ignore'):  # a flat part's centre divides by zero
                volumes.append(mass_properties(corners, cross(corners)).volume)
        assert volumes[0] == pytest.approx(volumes[1], rel=1e-6, abs=1e-15), path
    assert taken >= 0.9 * len(files)  # 79 of the 81 files in example-robot-data 4.x


@pytest.mark.parametrize('faces', [
    'f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n',
    'f 1/1 3/2 2/3\nf 1/1 2/3 4/4\nf 1/1 4/4 3/2\nf 2/3 3/2 4/4\n',
    'f 1/1/1 3/2/1 2/3/1\nf 1/1/2 2/3/2 4/4/2\nf 1/1/3 4/4/3 3/2/3\nf 2/3/4 3/2/4 4/4/4\n',
    'f 1//1 3//1 2//1\nf 1//2 2//2 4//2\nf 1//3 4//3 3//3\nf 2//4 3//4 4//4\n',
])
def test_corners_in_every_notation_are_the_same_triangles(faces):
    head = ('# exported\nmtllib part.mtl\no part\nv 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\n'
            'vt 0 0\nvt 1 0\nvt 0 1\nvt 1 1\nvn 0 0 1\nvn 0 1 0\nvn 1 0 0\nvn 1 1 1\n'
            'g side\nusemtl grey\ns off\n')
    vertices, triangles = obj.read_obj((head + faces).encode(), 100)
    assert vertices.shape == (4, 3) and vertices[1].tolist() == [0.1, 0.0, 0.0]
    assert triangles.tolist() == [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]


def test_homogeneous_and_coloured_vertices_keep_their_position():
    for extra in (' 1', ' 0.5 0.5 0.5', ' 1 0.5 0.5 0.5'):
        text = TETRA.replace('\nf', '\nf', 1).replace(' 0\n', ' 0' + extra + '\n').replace(
            ' 0.1\n', ' 0.1' + extra + '\n')
        vertices, _ = obj.read_obj(text.encode(), 100)
        assert vertices.tolist() == [[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]], extra


def test_quads_are_split_as_trimesh_splits_them():
    text = b'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nf 1 2 3 4\nf 1 2 5 4\n'
    vertices, triangles = obj.read_obj(text, 100)
    # every quad's first triangle, then every quad's second (trimesh's triangulate_quads)
    assert triangles.tolist() == [[0, 1, 2], [0, 1, 4], [2, 3, 0], [4, 3, 0]]


@pytest.mark.parametrize('text', [
    TETRA + 'f 1 2 3 4\n',
    TETRA.replace('f 1 2 4\n', 'f 1 2 4 3\n'),
    # trimesh's own export of a convex decomposition (Dexmate's hands): quads among triangles
    'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nf 1 2 3 4\nf 1 2 5\nf 2 3 5\n'
    'f 3 4 5\nf 4 1 5\n',
    'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nf 1//1 2//1 3//1 4//1\nf 1//2 2//2 5//2\n',
])
def test_triangles_and_quads_mixed_are_read_as_trimesh_reads_them(text):
    import io
    import trimesh
    from urdf_link_tools.meshes import reading
    from urdf_link_tools.meshes.files import Budget
    read = obj.read_obj(text.encode(), 100)
    assert not isinstance(read, (obj.Fallback, str)), read
    scene = trimesh.load_scene(file_obj=io.BytesIO(text.encode()), file_type='obj',
                               skip_materials=True)
    theirs = reading.scene_arrays(scene, Budget())

    def corners(vertices, faces):
        # each triangle by its corners' positions, from its first corner, in a fixed order
        rows = [tuple(tuple(vertices[index]) for index in face) for face in faces]
        rows = [min(row[k:] + row[:k] for k in range(3)) for row in rows]
        return sorted(rows)
    assert corners(*read) == corners(np.asarray(theirs[0]), np.asarray(theirs[1]))


@pytest.mark.parametrize('text, reason', [
    (TETRA.replace('f 1 3 2', 'f -4 -2 -3'), 'relative'),
    (TETRA.replace('f 1 3 2', 'f 1 3 9'), 'out-of-range'),
    (TETRA.replace('v 0 0 0\n', 'v\t0 0 0\n'), 'tabs'),
    (TETRA.replace('\n', '\r'), 'carriage returns'),
    (TETRA.replace('v 0 0 0\n', ' v 0 0 0\n'), 'indented'),
    (TETRA.replace('v 0 0 0\n', 'v 0-1 0\n'), 'numbers it cannot read'),
    (TETRA.replace('v 0 0 0\n', 'v 0 zero 0\n'), 'numbers it cannot read'),
    (TETRA.replace('f 1 3 2\n', 'f 1/1 3 2\n'), 'different ways'),
    # a triangle and a pentagon hold as many corners as two quads (alexander's LeftThigh.obj)
    ('v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nf 1 2 3 4\nf 1 2 5\nf 1 2 3 4 5\n',
     'more than four'),
    ('v 0 0 0\nv 1 0 0\nv 1 1 0 1\nv 0 1\nf 1 2 3\n', 'different lengths'),
    ('v 0 0 0\nv 1 0 0\n', 'no vertices or no faces'),
    ('f 1 2 3 4 5\nv 0 0 0\n', 'more than four'),
])
def test_what_it_does_not_read_is_left_to_trimesh(text, reason):
    read = obj.read_obj(text.encode(), 100)
    assert isinstance(read, obj.Fallback) and reason in read.reason, read


def test_too_many_triangles_is_refused_without_trimesh():
    assert obj.read_obj(TETRA.encode(), 3) == 'it holds more than 3 triangles'


def test_the_library_reads_plain_obj_files_itself_and_measures_them(tmp_path):
    path = tmp_path / 'tetra.obj'
    path.write_text(TETRA)
    info = MeshLibrary(use_ament_index=False).load(str(path), (2.0, 1.0, 1.0))
    assert isinstance(info, MeshInfo) and info.face_count == 4
    assert info.volume == pytest.approx(2.0 * 0.1 ** 3 / 6.0, rel=1e-12)
    assert info.volume_source == 'mesh'
