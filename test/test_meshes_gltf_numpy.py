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
The NumPy glTF reader places the same triangles as trimesh's loader, or leaves the file to it.

Files built here the ways exporters write them (a GLB chunk, ``data:`` and side-car buffers,
interleaved vertex attributes, byte and short indices, primitives without indices, a node
tree with matrices, translations, unnormalised quaternions and scales, one mesh on several
nodes) are read both ways and compared triangle by triangle; files it does not reproduce
(strips, sparse accessors, cameras, a node with two parents, extensions a primitive needs)
are :class:`~urdf_link_tools.meshes.gltf_numpy.Fallback` and read through trimesh as before.
A robot of GLB meshes is checked without importing trimesh, and a primitive's vertex array
shared by many primitives is refused before it is copied.
"""

import base64
import io
import json
import os
import struct
import subprocess
import sys

import numpy as np
import pytest
from urdf_link_tools.meshes import gltf, gltf_numpy, reading
from urdf_link_tools.meshes.files import Budget

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: a tetrahedron: its corners and its four triangles, wound outwards
CORNERS = np.array([[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]], dtype=np.float32)
TRIANGLES = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])


class Builder:
    """Write one glTF binary buffer and the header entries that describe it."""

    def __init__(self):
        self.binary = b''
        self.header = {'asset': {'version': '2.0'}, 'bufferViews': [], 'accessors': [],
                       'meshes': [], 'nodes': [], 'scenes': [{'nodes': []}], 'scene': 0}

    def view(self, data, stride=None):
        self.binary += b'\0' * (-len(self.binary) % 4)
        entry = {'buffer': 0, 'byteOffset': len(self.binary), 'byteLength': len(data)}
        if stride is not None:
            entry['byteStride'] = stride
        self.binary += data
        self.header['bufferViews'].append(entry)
        return len(self.header['bufferViews']) - 1

    def accessor(self, view, component, kind, count, offset=0):
        entry = {'bufferView': view, 'componentType': component, 'type': kind,
                 'count': count}
        if offset:
            entry['byteOffset'] = offset
        self.header['accessors'].append(entry)
        return len(self.header['accessors']) - 1

    def positions(self, points):
        return self.accessor(self.view(np.asarray(points, np.float32).tobytes()), 5126,
                             'VEC3', len(points))

    def interleaved(self, points):
        # position and normal in one view, 24 bytes a vertex (as Blender writes them)
        rows = np.zeros((len(points), 6), np.float32)
        rows[:, :3] = points
        rows[:, 3:] = 1.0
        view = self.view(rows.tobytes(), stride=24)
        self.accessor(view, 5126, 'VEC3', len(points), offset=12)  # the normals
        return self.accessor(view, 5126, 'VEC3', len(points))

    def indices(self, faces, dtype=np.uint16):
        component = {np.uint8: 5121, np.uint16: 5123, np.uint32: 5125}[dtype]
        flat = np.asarray(faces).astype(dtype).reshape(-1)
        return self.accessor(self.view(flat.tobytes()), component, 'SCALAR', len(flat))

    def mesh(self, primitives):
        self.header['meshes'].append({'primitives': primitives})
        return len(self.header['meshes']) - 1

    def node(self, root=False, **entry):
        self.header['nodes'].append(entry)
        index = len(self.header['nodes']) - 1
        if root:
            self.header['scenes'][0]['nodes'].append(index)
        return index

    def glb(self):
        header = dict(self.header, buffers=[{'byteLength': len(self.binary)}])
        text = json.dumps(header).encode()
        text += b' ' * (-len(text) % 4)
        binary = self.binary + b'\0' * (-len(self.binary) % 4)
        return (b'glTF' + struct.pack('<II', 2, 28 + len(text) + len(binary))
                + struct.pack('<II', len(text), 0x4E4F534A) + text
                + struct.pack('<II', len(binary), 0x004E4942) + binary)

    def gltf(self, uri=None):
        if uri is None:
            uri = ('data:application/octet-stream;base64,'
                   + base64.b64encode(self.binary).decode())
        return json.dumps(dict(self.header, buffers=[{'byteLength': len(self.binary),
                                                      'uri': uri}])).encode()


def assembly(interleaved=True):
    """Return a small scene as CAD exporters write one: a node tree placing 3 primitives."""
    built = Builder()
    first = built.positions(CORNERS)  # (accessor 0: the one _sparse makes sparse)
    first_indices = built.indices(TRIANGLES, np.uint16)
    second = built.interleaved(CORNERS + 0.2) if interleaved else \
        built.positions(CORNERS + 0.2)
    tetra = built.mesh([
        {'attributes': {'POSITION': first}, 'indices': first_indices, 'mode': 4},
        {'attributes': {'POSITION': second},
         'indices': built.indices(TRIANGLES, np.uint8)}])
    soup = built.mesh([{'attributes': {'POSITION': built.positions(
        CORNERS[TRIANGLES.reshape(-1)] - 0.3)}}])  # no indices: each three a triangle
    child = built.node(mesh=tetra, matrix=[1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0,
                                           0.05, 0.1, 0.2, 1])
    other = built.node(mesh=soup, translation=[0.5, 0, 0], scale=[2, 1, 0.5])
    built.node(root=True, children=[child, other], translation=[0, 0, 1],
               rotation=[0, 0, 0.6, 0.9])  # not unit length: normalised, as trimesh does
    built.node(root=True, mesh=tetra, rotation=[0.5, 0.5, 0.5, 0.5], scale=[1, 1, 3])
    return built


def _by_trimesh(data, file_type, resolver):
    import trimesh
    scene = trimesh.load_scene(file_obj=io.BytesIO(data), file_type=file_type,
                               skip_materials=True, resolver=resolver)
    return reading.scene_arrays(scene, Budget())


def _triangles(arrays):
    vertices, faces = arrays
    rows = np.asarray(vertices)[np.asarray(faces)].reshape(-1, 9)
    return rows[np.lexsort(rows.T[::-1])]


def _resolver(folder, data, file_type):
    uris = gltf.buffer_uris(gltf.read_header(data, file_type))
    return gltf.FolderResolver(str(folder), set(uris),
                               reading._buffer_reader, 1 << 24)


def _written(tmp_path, form, interleaved=True):
    built = assembly(interleaved)
    if form == 'glb':
        return built.glb(), 'glb'
    if form == 'data uri':
        return built.gltf(), 'gltf'
    (tmp_path / 'parts.bin').write_bytes(built.binary)
    return built.gltf('parts.bin'), 'gltf'


@pytest.mark.parametrize('form', ['glb', 'data uri', 'side-car buffer'])
def test_the_numpy_reader_places_the_triangles_trimesh_places(tmp_path, form):
    data, file_type = _written(tmp_path, form)
    placed = gltf_numpy.read_placed(gltf.read_header(data, file_type), data, file_type,
                                    _resolver(tmp_path, data, file_type))
    assert not isinstance(placed, gltf_numpy.Fallback), placed
    ours = reading.placed_arrays(placed, Budget())
    # trimesh reads the same scene written without the interleaved view: with NumPy 1.21
    # (Ubuntu 22.04, Humble) its strided read fails ("must be C-contiguous"), which this
    # reader does not
    plain, _ = _written(tmp_path, form, interleaved=False)
    theirs = _by_trimesh(plain, file_type, _resolver(tmp_path, plain, file_type))
    assert len(ours[1]) == len(theirs[1]) == 4 * 4 + 4  # two tetrahedra twice, one soup
    np.testing.assert_allclose(_triangles(ours), _triangles(theirs), rtol=0, atol=1e-12)


def _strip(built):
    built.header['meshes'][0]['primitives'][0]['mode'] = 5


def _sparse(built):
    built.header['accessors'][0]['sparse'] = {'count': 0}


def _camera(built):
    built.header['cameras'] = [{'type': 'perspective',
                                'perspective': {'yfov': 1.0, 'znear': 0.1}}]
    built.header['nodes'][2]['camera'] = 0


def _two_parents(built):
    built.header['nodes'][3]['children'] = [1]


def _draco(built):
    built.header['meshes'][0]['primitives'][0]['extensions'] = {
        'KHR_draco_mesh_compression': {}}


@pytest.mark.parametrize('change', [_strip, _sparse, _camera, _two_parents, _draco])
def test_what_the_numpy_reader_does_not_reproduce_is_left_to_trimesh(tmp_path, change):
    built = assembly()
    change(built)
    data = built.glb()
    placed = gltf_numpy.read_placed(gltf.read_header(data, 'glb'), data, 'glb',
                                    _resolver(tmp_path, data, 'glb'))
    assert isinstance(placed, gltf_numpy.Fallback)
    path = tmp_path / 'part.glb'
    path.write_bytes(data)
    read = reading.read_mesh(str(path), 'glb', Budget())
    try:
        theirs = _by_trimesh(data, 'glb', _resolver(tmp_path, data, 'glb'))
    except Exception:  # trimesh refuses it (the camera, here): so does the check, as before
        assert isinstance(read, reading.MeshProblem)
        assert 'could not be loaded as GLB' in read.message
        return
    assert isinstance(read, reading.RawMesh), read
    np.testing.assert_allclose(_triangles((read.vertices, read.faces)),
                               _triangles((reading.z_up(theirs[0]), theirs[1])),
                               rtol=0, atol=1e-12)


def test_a_glb_robot_is_checked_without_importing_trimesh(tmp_path):
    (tmp_path / 'part.glb').write_bytes(assembly().glb())
    robot = tmp_path / 'robot.urdf'
    robot.write_text(
        '<robot name="r"><link name="a"><inertial><mass value="0.1"/><inertia ixx="1e-4" '
        'ixy="0" ixz="0" iyy="1e-4" iyz="0" izz="1e-4"/></inertial><collision><geometry>'
        '<mesh filename="part.glb"/></geometry></collision></link></robot>')
    code = ('import sys\n'
            'from urdf_link_tools.cli import main\n'
            'try:\n'
            "    main(['check', sys.argv[1], '--fail-on', 'never', '--jobs', '1'])\n"
            'except SystemExit:\n'
            '    pass\n'
            "print('imported:' + ','.join(sorted({name.split('.')[0] for name in sys.modules\n"
            "      if name.split('.')[0] in ('trimesh', 'scipy')})), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, '-c', code, str(robot)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert 'imported:\n' in done.stderr, done.stderr[-2000:]
    assert 'part.glb' not in done.stdout  # read and measured: no finding about the file


def _shared_positions(primitives, vertices):
    """Return a GLB of one big position accessor used by many one-triangle primitives."""
    built = Builder()
    points = np.zeros((vertices, 3), np.float32)
    points[:3] = CORNERS[:3]
    position = built.positions(points)
    index = built.indices([[0, 1, 2]], np.uint32)
    built.mesh([{'attributes': {'POSITION': position}, 'indices': index}] * primitives)
    built.node(root=True, mesh=0)
    return built.glb()


def test_a_vertex_array_shared_by_many_primitives_is_refused_from_the_header():
    # 1.2 MB: 100,000 vertices, each of 200 primitives getting them (trimesh copies them
    # for each): 20 million vertices for 200 triangles
    data = _shared_positions(200, 100_000)
    reason = gltf.budget_problem(gltf.read_header(data, 'glb'), 50 << 20, 4_000_000)
    assert 'more than 12,000,000 vertices' in reason
    assert gltf.budget_problem(gltf.read_header(_shared_positions(20, 100_000), 'glb'),
                               50 << 20, 4_000_000) is None


def test_placed_vertices_are_bounded_before_they_are_copied():
    points = np.zeros((1_000_000, 3))
    faces = np.array([[0, 1, 2]])
    placed = [(np.eye(4), points, faces)] * 20
    assert 'more than 12,000,000 vertices' in reading.placed_arrays(placed, Budget())
    # one mesh of 10,000 vertices placed by 200 nodes: 2 million, past 100 times over
    few = [(np.eye(4), points[:10_000], faces)] * 200
    assert 'instances the 10,000 vertices it stores into 2,000,000' in \
        reading.placed_arrays(few, Budget())
    assert not isinstance(reading.placed_arrays(few[:40], Budget()), str)
