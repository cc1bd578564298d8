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
Every mesh format URDF users ship, written by trimesh's exporters, measured alike.

glTF external buffers are read only from the glTF file's own folder: a buffer outside it
(``..``, an absolute path, a URL, a symbolic link leading out) makes the mesh unreadable
with a clear reason, and its bytes are never read.
"""

import json
import os

import mesh_attacks
import numpy as np
import pytest

from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.meshes import MeshInfo, MeshLibrary, MeshProblem
from urdf_link_tools.parser import parse_urdf_string

FORMATS = ['part.stl', 'part.STL', 'part.obj', 'part.dae', 'part.glb', 'part.gltf']


@pytest.fixture
def library():
    return MeshLibrary(use_ament_index=False)


@pytest.mark.parametrize('name', FORMATS)
def test_every_format_is_read_and_measured_alike(tmp_path, library, name):
    import trimesh
    mesh = mesh_attacks.sphere(2)
    path = mesh_attacks.exported(tmp_path, name, mesh)
    info = library.load(str(path), (2.0, 1.0, 1.0))
    assert isinstance(info, MeshInfo), info
    assert info.face_count == len(mesh.faces)
    assert info.volume_source == 'mesh'
    assert info.volume == pytest.approx(2.0 * mesh.volume, rel=1e-6)
    reference = trimesh.Trimesh(np.asarray(mesh.vertices) * (2.0, 1.0, 1.0), mesh.faces)
    assert info.unit_inertia == pytest.approx(np.asarray(reference.moment_inertia), rel=1e-5)


def test_glb_robot_collision_mesh_is_checked(tmp_path):
    """A GLB collision mesh with many faces gets the complexity warning, not mesh-unreadable."""
    path = mesh_attacks.exported(tmp_path, 'dense.glb', mesh_attacks.sphere(5))
    text = mesh_attacks.robot('glb', [(f'file://{path}', (1, 1, 1))])
    analysis = analyze(parse_urdf_string(text, source=str(tmp_path / 'r.urdf')),
                       CheckConfig())
    rules = {finding.rule for finding in analysis.findings}
    assert 'collision-mesh-too-complex' in rules
    assert 'mesh-unreadable' not in rules and 'collision-mesh-broken' not in rules


def _gltf_with_buffer(folder, uri):
    path = mesh_attacks.exported(folder, 'part.gltf')
    header = json.loads(path.read_text())
    original = header['buffers'][0]['uri']
    data = (folder / original).read_bytes()
    header['buffers'][0]['uri'] = uri
    path.write_text(json.dumps(header))
    return path, data


@pytest.mark.parametrize('where', ['parent', 'absolute', 'url', 'symlink_out', 'fifo'])
def test_gltf_buffers_only_from_its_own_folder(tmp_path, library, where):
    inner = tmp_path / 'inner'
    inner.mkdir()
    path, data = _gltf_with_buffer(inner, 'placeholder')
    secret = tmp_path / 'secret.bin'
    secret.write_bytes(data)
    uri = {'parent': '../secret.bin', 'absolute': str(secret),
           'url': 'http://127.0.0.1:9/secret.bin', 'symlink_out': 'link.bin',
           'fifo': 'pipe.bin'}[where]
    if where == 'symlink_out':
        os.symlink(secret, inner / 'link.bin')
    if where == 'fifo':
        os.mkfifo(inner / 'pipe.bin')
    header = json.loads(path.read_text())
    header['buffers'][0]['uri'] = uri
    path.write_text(json.dumps(header))
    result = library.load(str(path))
    assert isinstance(result, MeshProblem) and result.rule == 'mesh-unreadable', result
    expected = {'fifo': 'FIFO', 'symlink_out': 'leads out of its folder'}.get(
        where, 'only files in its own folder are read')
    assert expected in result.message


def test_gltf_buffer_next_to_it_and_inside_the_byte_limit(tmp_path):
    path, data = _gltf_with_buffer(tmp_path, 'renamed%20buffer.bin')
    (tmp_path / 'renamed buffer.bin').write_bytes(data)
    assert isinstance(MeshLibrary().load(str(path)), MeshInfo)
    small = MeshLibrary(max_bytes=os.path.getsize(path) + len(data) - 1)
    result = small.load(str(path))
    assert isinstance(result, MeshProblem) and 'larger than the limit' in result.message


def test_same_inode_as_two_formats_is_two_entries(tmp_path, library):
    stl = mesh_attacks.exported(tmp_path, 'part.stl')
    os.link(stl, tmp_path / 'part.dae')
    first = library.load(str(stl))
    second = library.load(str(tmp_path / 'part.dae'))
    assert isinstance(first, MeshInfo)
    assert isinstance(second, MeshProblem) and 'as DAE' in second.message
    assert library.loads == 2


@pytest.mark.parametrize('name', ['rod.glb', 'rod.gltf', 'rod.stl'])
def test_gltf_is_read_z_up_as_urdf_readers_place_it(tmp_path, library, name):
    # glTF 2.0 is Y-up: Drake, Blender and RViz (ros2/rviz#1482) turn it +90 degrees about
    # x into a link's Z-up frame. A rod stored along +Y stands along +Z; an STL is as stored.
    import trimesh
    rod = trimesh.creation.box(extents=(0.1, 0.4, 0.2))
    rod.apply_translation((0.0, 0.3, 0.05))  # stored centre (0, 0.3, 0.05)
    path = mesh_attacks.exported(tmp_path, name, rod)
    info = library.load(str(path), (1.0, 2.0, 3.0))  # the scale applies in the link frame
    assert isinstance(info, MeshInfo), info
    low, high = np.asarray(info.bounds[0]), np.asarray(info.bounds[1])
    if name.endswith('.stl'):
        assert high - low == pytest.approx((0.1, 0.8, 0.6))
        assert (low + high) / 2 == pytest.approx((0.0, 0.6, 0.15))
    else:
        assert high - low == pytest.approx((0.1, 0.4, 1.2))  # (x, -z, y), then scaled
        assert (low + high) / 2 == pytest.approx((0.0, -0.1, 0.9))
    assert info.volume == pytest.approx(0.1 * 0.4 * 0.2 * 6.0, rel=1e-6)  # float32 files


def test_a_gltf_visual_and_its_z_up_collision_are_aligned(tmp_path):
    # Drake's models (RobotLocomotion/models): glTF visuals over OBJ or primitive collisions.
    # Read as stored, every such part looked turned 90 degrees about x from its collision
    # (collision-visual-turned said to turn the right collision).
    import trimesh
    rod = trimesh.creation.box(extents=(0.1, 0.4, 0.1))  # stored Y-up: 0.4 along +Y
    findings = {}
    for name in ('rod.glb', 'rod.stl'):
        path = mesh_attacks.exported(tmp_path, name, rod)
        text = ('<robot name="r"><link name="base"/><joint name="j" type="revolute">'
                '<parent link="base"/><child link="rod"/><axis xyz="0 0 1"/><limit lower="-1" '
                'upper="1" effort="1" velocity="1"/></joint><link name="rod"><inertial><mass '
                'value="1"/><inertia ixx="0.01417" ixy="0" ixz="0" iyy="0.01417" iyz="0" '
                f'izz="0.001667"/></inertial><visual><geometry><mesh filename="file://{path}"/>'
                '</geometry></visual><collision><geometry><box size="0.1 0.1 0.4"/></geometry>'
                '</collision></link></robot>')
        robot = parse_urdf_string(text, str(tmp_path / 'r.urdf'))
        result = analyze(robot, CheckConfig())
        findings[name] = sorted(f.rule for f in result.findings)
        mujoco = analyze(robot, CheckConfig(targets=frozenset({'mujoco', 'moveit'})))
        assert 'mesh-gltf-up-axis' not in [f.rule for f in mujoco.findings]
    # One info says that RViz up to Kilted and Gazebo show it as stored.
    assert findings['rod.glb'] == ['mesh-gltf-up-axis']
    assert 'collision-visual-turned' in findings['rod.stl']  # the same vertices as STL


def test_gltf_visuals_stored_z_up_are_said_once_not_their_collisions(tmp_path):
    # Dexmate's F5D6 hand and Vega (sweep M): .glb visuals written Z-up, against glTF's
    # Y-up, over OBJ collisions cut from the same Z-up data: read Y-up (as the specification,
    # Drake and a new RViz do), each visual stood turned 90 degrees about x, and
    # collision-visual-turned told to turn the right collisions. Now one warning says the
    # glTF files are stored Z-up, naming the links they match as stored.
    import trimesh
    rod = trimesh.creation.box(extents=(0.1, 0.1, 0.4))  # stored Z-up: 0.4 along +Z
    path = mesh_attacks.exported(tmp_path, 'rod.glb', rod)
    links = ''.join(
        f'<link name="rod{index}"><inertial><mass value="1"/><inertia ixx="0.01417" ixy="0" '
        'ixz="0" iyy="0.01417" iyz="0" izz="0.001667"/></inertial><visual><origin '
        f'rpy="0 0 {yaw}"/><geometry><mesh filename="file://{path}"/></geometry></visual>'
        '<collision><geometry><box size="0.1 0.1 0.4"/></geometry></collision></link>'
        f'<joint name="j{index}" type="revolute"><parent link="base"/><child '
        f'link="rod{index}"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" '
        'velocity="1"/></joint>' for index, yaw in enumerate(('0', '0', '3.14')))
    text = f'<robot name="r"><link name="base"/>{links}</robot>'
    robot = parse_urdf_string(text, str(tmp_path / 'r.urdf'))
    found = analyze(robot, CheckConfig()).findings
    assert 'collision-visual-turned' not in [f.rule for f in found], found
    (note,) = [f for f in found if f.rule == 'mesh-gltf-up-axis']
    assert note.severity == Severity.WARNING
    assert note.message.startswith(
        '3 glTF meshes (links: rod0, rod1, rod2) are stored Z-up, against the glTF '
        "specification's Y-up: as stored, the visuals of 3 links (rod0, rod1, rod2) match "
        'their collision geometry'), note.message
    # The same rod as a glTF file should be: Y-up, read Z-up, aligned: the info as before.
    upright = trimesh.creation.box(extents=(0.1, 0.4, 0.1))
    mesh_attacks.exported(tmp_path, 'rod.glb', upright)
    found = analyze(parse_urdf_string(text, str(tmp_path / 'r.urdf')), CheckConfig()).findings
    assert [f.severity for f in found if f.rule == 'mesh-gltf-up-axis'] == [Severity.INFO]
    assert 'collision-visual-turned' not in [f.rule for f in found]
