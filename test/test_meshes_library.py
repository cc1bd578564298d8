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

"""MeshLibrary: resolution, formats, measurements, cache, and hostile files."""

import json
import os
import struct
import subprocess
import sys
import threading

import numpy as np
import pytest

from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.meshes import MeshInfo, MeshLibrary, MeshProblem
from urdf_link_tools.parser import parse_urdf_string

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CUBE_FACES = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4),
              (1, 2, 6), (1, 6, 5), (2, 3, 7), (2, 7, 6), (3, 0, 4), (3, 4, 7)]
CUBE_VERTICES = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0),
                 (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]


def binary_stl(path, vertices=CUBE_VERTICES, faces=CUBE_FACES):
    with open(path, 'wb') as stream:
        stream.write(b'\0' * 80 + struct.pack('<I', len(faces)))
        for face in faces:
            stream.write(struct.pack('<3f', 0, 0, 0))
            for index in face:
                stream.write(struct.pack('<3f', *vertices[index]))
            stream.write(b'\0\0')


def ascii_stl(path):
    lines = ['solid cube']
    for face in CUBE_FACES:
        lines += ['facet normal 0 0 0', 'outer loop']
        lines += ['vertex %g %g %g' % CUBE_VERTICES[i] for i in face]
        lines += ['endloop', 'endfacet']
    lines.append('endsolid cube')
    with open(path, 'w') as stream:
        stream.write('\n'.join(lines) + '\n')


def obj(path):
    with open(path, 'w') as stream:
        for v in CUBE_VERTICES:
            stream.write('v %g %g %g\n' % v)
        for f in CUBE_FACES:
            stream.write('f %d %d %d\n' % tuple(i + 1 for i in f))


def dae(path, unit=1.0):
    positions = ' '.join('%g %g %g' % v for v in CUBE_VERTICES)
    indices = ' '.join('%d %d %d' % f for f in CUBE_FACES)
    text = f"""<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit name="u" meter="{unit}"/><up_axis>Z_UP</up_axis></asset>
<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="24">{positions}</float_array>
<technique_common><accessor source="#pa" count="8" stride="3"><param name="X" type="float"/>
<param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common>
</source><vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="12"><input semantic="VERTEX" source="#v" offset="0"/><p>{indices}</p>
</triangles></mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"/></node>
</visual_scene></library_visual_scenes><scene><instance_visual_scene url="#s"/></scene>
</COLLADA>"""
    with open(path, 'w') as stream:
        stream.write(text)


@pytest.fixture
def library():
    return MeshLibrary(use_ament_index=False)


@pytest.mark.parametrize('writer,name', [(binary_stl, 'cube.stl'), (ascii_stl, 'cube.STL'),
                                         (obj, 'cube.obj'), (dae, 'cube.dae')])
def test_formats_and_measurements(tmp_path, library, writer, name):
    path = str(tmp_path / name)
    writer(path)
    info = library.load(path, (2.0, 1.0, 1.0))
    assert isinstance(info, MeshInfo), info
    assert info.face_count == 12
    assert info.is_watertight and info.volume_source == 'mesh'
    assert info.volume == pytest.approx(2.0)
    assert info.center_mass == pytest.approx([1.0, 0.5, 0.5])
    assert info.bounds[1] == pytest.approx([2.0, 1.0, 1.0])
    # A 2 x 1 x 1 box of density 1: Ixx = V (1 + 1) / 12, Izz = V (4 + 1) / 12.
    assert np.diag(info.unit_inertia) == pytest.approx([2 * 2 / 12, 2 * 5 / 12, 2 * 5 / 12])


def test_dae_unit_is_applied(tmp_path, library):
    path = str(tmp_path / 'mm.dae')
    dae(path, unit=0.001)
    info = library.load(path)
    assert info.volume == pytest.approx(1e-9)
    assert info.unit_scale == 0.001


def test_a_dae_unit_in_a_comment_is_not_the_files(tmp_path, library):
    # Segbot's RMP50 wheel (sweep V) keeps <!-- <unit meter="0.0254" name="inch" /> --> above
    # its <unit meter="1.0"/>: the commented one was read, the wheel 40 times too small.
    path = tmp_path / 'commented.dae'
    dae(str(path), unit=1.0)
    path.write_text(path.read_text().replace(
        '<asset>', '<asset><!-- <unit meter="0.0254" name="inch"/> -->'))
    info = library.load(str(path))
    assert info.unit_scale == 1.0 and info.volume == pytest.approx(1.0)
    # nor in CDATA, and a comment opener in CDATA hides nothing (review 14)
    from urdf_link_tools.meshes.dae import dae_unit
    assert dae_unit(b'<a><![CDATA[ <!-- ]]><unit meter="10"/>') == 10.0
    assert dae_unit(b'<a><![CDATA[ <unit meter="1000"/> ]]><unit meter="2"/>') == 2.0


def test_open_mesh_uses_convex_hull(tmp_path, library):
    try:
        import scipy.spatial  # noqa: F401
    except ImportError:
        pytest.fail('scipy is not installed (it computes convex hulls): run make setup')
    path = str(tmp_path / 'open.stl')
    binary_stl(path, faces=CUBE_FACES[:-2])
    info = library.load(path)
    assert isinstance(info, MeshInfo)
    assert not info.is_watertight
    assert info.volume_source == 'convex hull'
    assert info.volume == pytest.approx(1.0)


def test_open_mesh_without_scipy_has_no_trusted_volume(tmp_path, library, monkeypatch):
    """Without a hull (no SciPy), an open mesh has no volume: no bounding box stands in."""
    from urdf_link_tools.meshes import solid
    monkeypatch.setattr(solid, 'convex_hull', lambda vertices: (None, 'no SciPy'))
    path = str(tmp_path / 'open.stl')
    binary_stl(path, vertices=[(x * 2, y, z) for x, y, z in CUBE_VERTICES],
               faces=CUBE_FACES[:-2])
    info = library.load(path)
    assert info.volume_source == 'none'
    assert info.volume == 0.0
    assert not info.is_watertight


def test_inverted_mesh_has_positive_volume(tmp_path, library):
    path = str(tmp_path / 'inside_out.stl')
    binary_stl(path, faces=[(a, c, b) for a, b, c in CUBE_FACES])
    info = library.load(path)
    assert info.volume == pytest.approx(1.0)
    assert np.all(np.diag(info.unit_inertia) > 0)


def test_hostile_directory(tmp_path, library):
    result = library.load(str(tmp_path))
    assert isinstance(result, MeshProblem) and result.rule == 'mesh-unreadable'
    assert 'directory' in result.message


def _load_in_child(path: str):
    # A blocking open (a FIFO, a device) would hang this process: the child's generous
    # timeout is the guard; how fast the refusal is belongs to bench/.
    code = ('import json, sys\n'
            'from urdf_link_tools.meshes import MeshLibrary\n'
            'result = MeshLibrary(use_ament_index=False).load(sys.argv[1])\n'
            'print(json.dumps([result.rule, result.message]))\n')
    done = subprocess.run([sys.executable, '-c', code, path], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_hostile_fifo_is_not_opened(tmp_path):
    path = str(tmp_path / 'pipe.stl')
    os.mkfifo(path)
    rule, message = _load_in_child(path)
    assert rule == 'mesh-unreadable' and 'FIFO' in message


def test_hostile_dev_zero():
    rule, message = _load_in_child('/dev/zero')
    assert rule == 'mesh-unreadable' and 'device' in message


def test_hostile_sparse_gigabyte(tmp_path):
    path = str(tmp_path / 'huge.stl')
    with open(path, 'wb') as stream:
        stream.truncate(1_000_000_000)
    rule, message = _load_in_child(path)
    assert rule == 'mesh-unreadable' and 'larger than the limit' in message
    # no file's exact size in a message (the path aside: pytest's folder may be pytest-1000)
    assert '1000' not in message.replace(path, '')


def test_hostile_symlink_loop(tmp_path, library):
    a, b = str(tmp_path / 'a.stl'), str(tmp_path / 'b.stl')
    os.symlink(b, a)
    os.symlink(a, b)
    result = library.load(a)
    assert result.rule == 'mesh-not-found'
    assert 'loop' in result.message and a in result.tried


def test_hostile_corrupt_stl(tmp_path, library):
    path = str(tmp_path / 'corrupt.stl')
    with open(path, 'wb') as stream:
        stream.write(b'\x00' * 80 + struct.pack('<I', 1000) + b'\x01' * 100)
    result = library.load(path)
    assert result.rule == 'mesh-unreadable'
    assert 'announces more triangles than the file holds' in result.message
    # (the path aside: pytest's folder was pytest-184 in a CI run)
    said = result.message.replace(path, '')
    assert '1000' not in said and '184' not in said


def test_corrupt_ascii_stl_and_dae(tmp_path, library):
    path = str(tmp_path / 'bad.stl')
    with open(path, 'w') as stream:
        stream.write('solid x\nfacet normal 0 0 1\nouter loop\nvertex 1 2\nendsolid\n')
    assert library.load(path).rule == 'mesh-unreadable'
    path = str(tmp_path / 'bad.dae')
    with open(path, 'w') as stream:
        stream.write('<COLLADA><library_geometries>')
    assert library.load(path).rule == 'mesh-unreadable'
    path = str(tmp_path / 'entities.dae')
    with open(path, 'w') as stream:
        stream.write('<!DOCTYPE x [<!ENTITY a "aaaa">]><COLLADA/>')
    assert 'entities' in library.load(path).message


def test_unsupported_and_empty(tmp_path, library):
    path = str(tmp_path / 'part.mesh')
    with open(path, 'w') as stream:
        stream.write('ogre')
    assert 'this tool does not read' in library.load(path).message
    path = str(tmp_path / 'empty.stl')
    open(path, 'w').close()
    assert 'empty' in library.load(path).message


def test_missing_package_says_what_was_tried(library):
    result = library.load('package://no_such_package/meshes/a.stl')
    assert result.rule == 'mesh-not-found'
    assert 'no_such_package' in result.message and '--package-dir' in result.message
    assert result.tried


def test_a_package_uri_whose_file_is_beside_the_urdf_says_so(tmp_path):
    # package:///meshes/box.stl (three slashes, no package name): 'meshes' was looked up
    # as a package, and the file beside the URDF, where the exporter meant it, not named.
    (tmp_path / 'meshes').mkdir()
    binary_stl(str(tmp_path / 'meshes' / 'box.stl'))
    library = MeshLibrary(ament_prefix_path=[])
    said = library.resolve('package:///meshes/box.stl', str(tmp_path)).error
    assert 'package:/// (three slashes) names no package' in said and \
        'the file meshes/box.stl is beside the URDF: write ' \
        'package://YOUR_PACKAGE/meshes/box.stl' in said, said
    said = library.resolve('package://meshes/box.stl', str(tmp_path)).error
    assert 'the path may lack its package name: the file meshes/box.stl is beside' in said
    assert 'beside' not in library.resolve('package://meshes/other.stl', str(tmp_path)).error


def test_package_resolution_user_dir_wins_over_ament_index(tmp_path):
    prefix = tmp_path / 'prefix'
    (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages').mkdir(parents=True)
    (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages' / 'pkg').touch()
    (prefix / 'share' / 'pkg' / 'meshes').mkdir(parents=True)
    binary_stl(str(prefix / 'share' / 'pkg' / 'meshes' / 'a.stl'))
    user = tmp_path / 'user'
    (user / 'meshes').mkdir(parents=True)
    binary_stl(str(user / 'meshes' / 'a.stl'))
    indexed = MeshLibrary(ament_prefix_path=[str(prefix)])
    assert indexed.resolve('package://pkg/meshes/a.stl', None).path == \
        str(prefix / 'share' / 'pkg' / 'meshes' / 'a.stl')
    # ROS-style three slashes resolve like two.
    assert indexed.resolve('package:///pkg/meshes/a.stl', None).path is not None
    both = MeshLibrary({'pkg': str(user)}, ament_prefix_path=[str(prefix)])
    assert both.resolve('package://pkg/meshes/a.stl', None).path == \
        str(user / 'meshes' / 'a.stl')


def test_file_uri_and_relative_paths(tmp_path, library):
    binary_stl(str(tmp_path / 'a.stl'))
    assert library.resolve(f'file://{tmp_path}/a.stl', None).path == f'{tmp_path}/a.stl'
    assert library.resolve('a.stl', str(tmp_path)).path == str(tmp_path / 'a.stl')
    assert library.resolve('file://a.stl', str(tmp_path)).path == str(tmp_path / 'a.stl')
    missing = library.resolve('nope.stl', str(tmp_path))
    assert missing.path is None and str(tmp_path / 'nope.stl') in missing.tried
    assert 'xacro' in library.resolve('$(find pkg)/a.stl', None).error
    assert 'not supported' in library.resolve('http://example.com/a.stl', None).error


def test_cache_by_path_size_mtime_and_scale(tmp_path, library):
    path = str(tmp_path / 'a.stl')
    binary_stl(path)
    first = library.load(path)
    assert library.load(path) is first
    assert library.loads == 1
    scaled = library.load(path, (2, 2, 2))
    assert scaled is not first and library.loads == 1     # same file parsed once
    assert scaled.volume == pytest.approx(8.0)
    binary_stl(path, faces=CUBE_FACES[:-2])
    os.utime(path, ns=(1, 1))
    assert library.load(path) is not first and library.loads == 2


def test_cache_is_thread_safe(tmp_path, library):
    path = str(tmp_path / 'a.stl')
    binary_stl(path)
    results = []
    threads = [threading.Thread(target=lambda: results.append(library.load(path)))
               for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(results) == 8 and all(r is results[0] for r in results)
    assert library.loads == 1


def urdf_with_mesh(filename, group='collision'):
    return (f'<robot name="r"><link name="a"/><joint name="j" type="revolute"><parent link="a"/>'
            f'<child link="b"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>'
            f'<link name="b"><inertial><mass value="1000"/><inertia ixx="166" ixy="0" ixz="0" '
            f'iyy="166" iyz="0" izz="166"/></inertial><{group}><geometry>'
            f'<mesh filename="{filename}"/></geometry></{group}>'
            f'<collision><geometry><box size="1 1 1"/></geometry></collision></link></robot>')


@pytest.mark.parametrize('group,severity', [('collision', 'error'), ('visual', 'warning')])
def test_mesh_findings_severity_by_group(tmp_path, group, severity):
    text = urdf_with_mesh('package://no_such_package/a.stl', group)
    robot = parse_urdf_string(text, str(tmp_path / 'r.urdf'))
    findings = [f for f in analyze(robot, CheckConfig()).findings if f.rule == 'mesh-not-found']
    assert findings and findings[0].severity.label == severity
    assert 'tried' in dict(findings[0].values)


def test_collision_mesh_rules(tmp_path):
    binary_stl(str(tmp_path / 'a.stl'))
    text = urdf_with_mesh('a.stl').replace(
        '<collision><geometry><mesh', '<visual><geometry><mesh filename="a.stl"/></geometry>'
        '</visual><collision><geometry><mesh')
    robot = parse_urdf_string(text, str(tmp_path / 'r.urdf'))
    rules = [f.rule for f in analyze(robot, CheckConfig(collision_face_limit=11)).findings]
    # One finding for one problem: the reused visual mesh is too detailed.
    assert 'collision-reuses-visual-mesh' in rules and 'collision-mesh-too-complex' not in rules
    rules = [f.rule for f in analyze(robot, CheckConfig(collision_face_limit=12)).findings]
    assert not {'collision-mesh-too-complex', 'collision-reuses-visual-mesh'} & set(rules)


def test_hostile_mesh_in_a_urdf_is_a_finding(tmp_path):
    os.mkfifo(str(tmp_path / 'pipe.stl'))
    robot = parse_urdf_string(urdf_with_mesh('pipe.stl'), str(tmp_path / 'r.urdf'))
    findings = [f for f in analyze(robot, CheckConfig()).findings if f.rule == 'mesh-unreadable']
    assert findings and findings[0].severity.label == 'error'
