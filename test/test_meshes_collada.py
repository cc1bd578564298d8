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
The COLLADA reader gives the triangles that trimesh's loader (through pycollada) gives.

Every DAE file of example-robot-data is compared with the trimesh path, triangle by
triangle (as coordinate triples, winding kept), and small constructed files cover what the
corpus does not: polygons, node instancing, each transform, a missing scene, broken files
and the budget. trimesh merges vertices closer than 1e-8 (in the file's unit), which moves
them by less than that: the comparison allows it.
"""

import io
from pathlib import Path
from typing import List, Optional

import corpus
import numpy as np
import pytest
from scipy.spatial import cKDTree

from urdf_link_tools.meshes import collada, dae, reading
from urdf_link_tools.meshes.reading import Budget, MeshProblem, RawMesh

BUDGET = Budget()
#: trimesh's vertex merge (tol.merge) moves a vertex by less than this, in the file's unit
MERGE = 1e-8


def corpus_dae() -> List[Path]:
    """Return every DAE file of example-robot-data (empty when it is not installed)."""
    return corpus.mesh_files('.dae')


def trimesh_triangles(data: bytes) -> Optional[np.ndarray]:
    """Return the (m, 3, 3) triangles of the current trimesh path, or None if it fails."""
    import trimesh
    try:
        scene = trimesh.load_scene(file_obj=io.BytesIO(dae.strip_dae_materials(data)),
                                   file_type='dae')
    except Exception:
        return None
    arrays = reading.scene_arrays(scene, BUDGET)
    assert not isinstance(arrays, str)
    return arrays[0][arrays[1]]


def ours(data: bytes) -> Optional[np.ndarray]:
    read = collada.read_triangles(data, BUDGET.max_instances, BUDGET.max_triangles)
    assert not isinstance(read, str)
    if isinstance(read, collada.Fallback):
        return None
    vertices, faces = read
    assert vertices.dtype == np.float64 and faces.dtype == np.int64
    assert vertices.shape[1:] == (3,) and faces.shape[1:] == (3,)
    return vertices[faces]


def assert_same(expected: np.ndarray, actual: np.ndarray) -> None:
    """
    Assert the same triangles, with their winding, to float32 precision.

    Each triangle of one side has one of the other within the tolerance (in any of its
    three rotations, never mirrored), both ways. pycollada parses the file as float32 and
    composes node transforms in float32, and trimesh's scene graph composes them again,
    in another order than here: a coordinate may differ by a few float32 steps of the
    mesh's size (a rotation by 90 degrees: 0.99999994 for 1.0), and trimesh's merge moves
    vertices by up to 1e-8.
    """
    assert expected.shape == actual.shape
    if not len(expected):
        return
    size = float(np.max(np.abs(expected)))
    tolerance = max(MERGE, 8.0 * float(np.finfo(np.float32).eps) * size)
    for one, other in ((expected, actual), (actual, expected)):
        tree = cKDTree(other.reshape(len(other), 9))
        nearest = np.min([tree.query(np.roll(one, -k, axis=1).reshape(len(one), 9))[0]
                          for k in range(3)], axis=0)
        assert float(nearest.max()) <= tolerance


@pytest.mark.skipif(not corpus_dae(), reason='example-robot-data is not installed')
@pytest.mark.parametrize('path', corpus_dae(), ids=lambda path: path.name)
def test_corpus_file_reads_as_trimesh_does(path):
    data = path.read_bytes()
    actual = ours(data)
    if actual is None:  # counted by test_corpus_falls_back_rarely
        return
    expected = trimesh_triangles(data)
    assert expected is not None
    assert_same(expected, actual)


@pytest.mark.skipif(not corpus_dae(), reason='example-robot-data is not installed')
def test_corpus_falls_back_rarely():
    """Only files with vertex colours (one in the corpus) go through trimesh."""
    fallbacks = [path.name for path in corpus_dae() if ours(path.read_bytes()) is None]
    assert len(fallbacks) <= 2, fallbacks


SQUARE = '0 0 0  1 0 0  1 1 0  0 1 0  0.5 1.5 0  -0.5 0.5 0.25'
NORMALS = '0 0 1  0 0 -1'
TEXCOORDS = '0 0  1 0  1 1'


def document(primitives: str, scene: str = '', nodes: str = '',
             positions: str = SQUARE) -> bytes:
    """Return a COLLADA file with one geometry 'g' and the given scene nodes."""
    count = len(positions.split())
    scene_part = ('<library_visual_scenes><visual_scene id="s">' + scene +
                  '</visual_scene></library_visual_scenes>'
                  '<scene><instance_visual_scene url="#s"/></scene>') if scene else ''
    library = f'<library_nodes>{nodes}</library_nodes>' if nodes else ''
    return f"""<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit meter="1"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries><geometry id="g"><mesh>
    <source id="p"><float_array id="pa" count="{count}">{positions}</float_array>
      <technique_common><accessor source="#pa" count="{count // 3}" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/>
        <param name="Z" type="float"/></accessor></technique_common></source>
    <source id="n"><float_array id="na" count="6">{NORMALS}</float_array>
      <technique_common><accessor source="#na" count="2" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/>
        <param name="Z" type="float"/></accessor></technique_common></source>
    <source id="t"><float_array id="ta" count="6">{TEXCOORDS}</float_array>
      <technique_common><accessor source="#ta" count="3" stride="2">
        <param name="S" type="float"/><param name="T" type="float"/>
        </accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    {primitives}
  </mesh></geometry></library_geometries>
  {library}{scene_part}
</COLLADA>""".encode()


ONE = '<node id="a"><instance_geometry url="#g"/></node>'
TRIANGLES = ('<triangles count="2"><input semantic="VERTEX" source="#v" offset="0"/>'
             '<p>0 1 2 0 2 3</p></triangles>')
POLYLIST = ('<polylist count="3"><input semantic="VERTEX" source="#v" offset="0"/>'
            '<vcount>4 5 3</vcount><p>0 1 2 3  0 1 2 4 5  3 4 5</p></polylist>')
POLYGONS = ('<polygons count="2"><input semantic="VERTEX" source="#v" offset="0"/>'
            '<p>0 1 2 3</p><p>1 2 4 5 0</p></polygons>')
#: positions at offset 1, normals at 0 and texture coordinates at 2: a stride of 3
INTERLEAVED = ('<triangles count="2"><input semantic="NORMAL" source="#n" offset="0"/>'
               '<input semantic="VERTEX" source="#v" offset="1"/>'
               '<input semantic="TEXCOORD" source="#t" offset="2" set="0"/>'
               '<p>0 0 0 1 1 1 0 2 2  1 0 0 1 2 1 0 3 2</p></triangles>'
               '<lines count="1"><input semantic="VERTEX" source="#v" offset="0"/>'
               '<p>0 1</p></lines>')
TRANSFORMS = ('<node id="a"><translate>1 2 3</translate><rotate>0 0 1 30</rotate>'
              '<scale>2 1 0.5</scale><node id="b"><matrix>0 -1 0 0.5  1 0 0 0  0 0 1 -1'
              '  0 0 0 1</matrix><rotate>1 1 0 45</rotate><instance_geometry url="#g"/>'
              '</node><instance_geometry url="#g"/></node>')
CHAIN = ('<node id="c"><instance_geometry url="#g"/></node>'
         '<node id="b"><translate>0 0 1</translate><instance_node url="#c"/>'
         '<node><translate>0 0 2</translate><instance_node url="#c"/></node></node>')


@pytest.mark.parametrize('primitives, scene, nodes, triangles', [
    (TRIANGLES, ONE, '', 2),
    (POLYLIST, ONE, '', 6),
    (POLYGONS, ONE, '', 5),
    (INTERLEAVED, ONE, '', 2),
    (TRIANGLES + POLYLIST + POLYGONS, TRANSFORMS, '', 26),
    (TRIANGLES, '<node id="a"><rotate>0 1 0 90</rotate><instance_node url="#b"/></node>',
     CHAIN, 4),
], ids=['triangles', 'polylist', 'polygons', 'offsets', 'transforms', 'instance-node'])
def test_constructed_file_reads_as_trimesh_does(primitives, scene, nodes, triangles):
    data = document(primitives, scene, nodes)
    actual = ours(data)
    assert actual is not None
    assert len(actual) == triangles
    expected = trimesh_triangles(data)
    assert expected is not None
    assert_same(expected, actual)


def test_fan_triangulation_keeps_pycollada_order_and_winding():
    vertices, faces = collada.read_triangles(document(POLYLIST, ONE), 10, 100)
    assert faces.tolist() == [[0, 1, 2], [0, 2, 3], [0, 1, 2], [0, 2, 4], [0, 4, 5],
                              [3, 4, 5]]


@pytest.mark.parametrize('data', [
    document(TRIANGLES),  # no <scene>: trimesh fails, and says why
    document(TRIANGLES, ONE).replace(b'</COLLADA>', b''),  # malformed XML
    document(TRIANGLES.replace('0 2 3', '0 2 9'), ONE),  # an index beyond the positions
    document(TRIANGLES.replace('0 2 3', '0 2'), ONE),  # a partial triangle
    document(TRIANGLES.replace('#v', '#missing'), ONE),
    document(TRIANGLES, ONE.replace('#g', '#missing')),
    document(POLYLIST.replace('4 5 3', '4 2 3 3'), ONE),  # a polygon of two corners
    document(TRIANGLES, '<node id="a"><lookat>0 0 1 0 0 0 0 1 0</lookat>'
             '<instance_geometry url="#g"/></node>'),
    b'not xml at all',
], ids=['no-scene', 'malformed', 'index-beyond', 'partial', 'no-source', 'no-geometry',
        'two-corners', 'lookat', 'not-xml'])
def test_what_it_does_not_reproduce_falls_back(data):
    read = collada.read_triangles(data, 100, 1000)
    assert isinstance(read, collada.Fallback) and read.reason


def test_unreadable_file_is_a_problem_without_traceback(tmp_path):
    for name, data in [('no_scene.dae', document(TRIANGLES)),
                       ('broken.dae', document(TRIANGLES, ONE)[:-40])]:
        path = tmp_path / name
        path.write_bytes(data)
        result = reading.read_mesh(str(path), 'dae', BUDGET)
        assert isinstance(result, MeshProblem), result
        assert result.rule == 'mesh-unreadable'
        assert 'Traceback' not in result.message and len(result.message) < 400


def test_reading_uses_the_reader_and_applies_the_unit(tmp_path):
    path = tmp_path / 'part.dae'
    path.write_bytes(document(POLYLIST, ONE).replace(b'meter="1"', b'meter="0.001"'))
    result = reading.read_mesh(str(path), 'dae', BUDGET)
    assert isinstance(result, RawMesh)
    assert result.unit_scale == 0.001 and not result.merged
    assert len(result.faces) == 6
    assert np.allclose(result.vertices.max(axis=0), (0.001, 0.0015, 0.00025))


def test_blanks_before_the_xml_declaration_are_read_as_assimp_reads_them(tmp_path):
    # Doosan's H2017_2_2.dae starts with two tabs and a newline: libxml2 refuses a late
    # declaration ("reserved xml name"), Assimp (RViz, Gazebo, MoveIt) reads it.
    plain = document(POLYLIST, ONE)
    assert plain.startswith(b'<?xml')
    results = []
    for name, data in (('plain.dae', plain), ('late.dae', b'\t\t\n' + plain)):
        path = tmp_path / name
        path.write_bytes(data)
        results.append(reading.read_mesh(str(path), 'dae', BUDGET))
    assert all(isinstance(result, RawMesh) for result in results), results
    assert np.array_equal(results[0].vertices, results[1].vertices)
    assert np.array_equal(results[0].faces, results[1].faces)


def test_brackets_in_attribute_values_are_read_as_assimp_reads_them(tmp_path):
    # Assimp's COLLADA export names a converted STL's node id="<STL_BINARY>" (Velodyne's
    # and Robotnik's sensor meshes): libxml2 and pycollada refuse the '<', Assimp (RViz,
    # Gazebo, MoveIt) reads the file. It reads as the same file with the value escaped.
    scene = ONE.replace('<node id="a">', '<node id="<STL_BINARY>" name="<STL_BINARY>">')
    escaped = ONE.replace('<node id="a">',
                          '<node id="&lt;STL_BINARY&gt;" name="&lt;STL_BINARY&gt;">')
    results = []
    for name, data in (('assimp.dae', document(POLYLIST, scene)),
                       ('escaped.dae', document(POLYLIST, escaped))):
        path = tmp_path / name
        path.write_bytes(data)
        results.append(reading.read_mesh(str(path), 'dae', BUDGET))
    assert all(isinstance(result, RawMesh) and result.fallback is None
               for result in results), results
    assert np.array_equal(results[0].vertices, results[1].vertices)
    assert np.array_equal(results[0].faces, results[1].faces) and len(results[0].faces) == 6
    # Another error beside it is still reported as the file's (not as the repaired copy's).
    broken = tmp_path / 'broken.dae'
    broken.write_bytes(document(POLYLIST, scene)[:-40])
    result = reading.read_mesh(str(broken), 'dae', BUDGET)
    assert isinstance(result, MeshProblem) and result.rule == 'mesh-unreadable'
    assert 'lt in attribute' in result.message, result.message
    # A document type is refused before any repair.
    doctype = tmp_path / 'doctype.dae'
    doctype.write_bytes(document(POLYLIST, scene).replace(
        b'<COLLADA', b'<!DOCTYPE c [<!ENTITY e "x">]>\n<COLLADA', 1))
    result = reading.read_mesh(str(doctype), 'dae', BUDGET)
    assert isinstance(result, MeshProblem) and 'document type' in result.message


def test_points_no_triangle_uses_are_not_part_of_the_mesh(tmp_path):
    # A source shared by several exported parts: this file's triangles use 4 of its 6
    # points (TRIANGLES uses 0..3); the far ones must not widen its bounds.
    path = tmp_path / 'part.dae'
    path.write_bytes(document(TRIANGLES, ONE))
    result = reading.read_mesh(str(path), 'dae', BUDGET)
    assert isinstance(result, RawMesh)
    assert len(result.vertices) == 4 and result.faces.max() == 3
    used = np.array([float(value) for value in SQUARE.split()]).reshape(-1, 3)[:4]
    np.testing.assert_allclose(result.vertices.min(axis=0), used.min(axis=0), atol=1e-7)
    np.testing.assert_allclose(result.vertices.max(axis=0), used.max(axis=0), atol=1e-7)
    assert_same(used[np.array([[0, 1, 2], [0, 2, 3]])], result.vertices[result.faces])


def doubling_chain(levels: int) -> bytes:
    """Each node instances the previous one twice: 2^levels copies of the geometry."""
    nodes = '<node id="n0"><instance_geometry url="#g"/></node>' + ''.join(
        f'<node id="n{level}"><instance_node url="#n{level - 1}"/>'
        f'<instance_node url="#n{level - 1}"/></node>' for level in range(1, levels + 1))
    return document(TRIANGLES, f'<node id="top"><instance_node url="#n{levels}"/></node>',
                    nodes)


def test_doubling_chain_is_refused_before_it_is_expanded():
    reason = collada.read_triangles(doubling_chain(60), 100_000, 4_000_000)
    assert isinstance(reason, str) and 'geometry instances' in reason


def test_expansion_is_counted_from_real_triangles():
    """Within the instance budget, over the triangle budget: refused before placing."""
    reason = collada.read_triangles(doubling_chain(9), 100_000, 1023)
    assert isinstance(reason, str) and 'triangles' in reason
    vertices, faces = collada.read_triangles(doubling_chain(9), 100_000, 1024)
    assert len(faces) == 1024
    # A thousand instances or more of one written instance: refused whatever the budgets
    # (sixth red-team review: 24 files of 5 KB placing 100,000 each, 87 s and 4.5 GB)
    reason = collada.read_triangles(doubling_chain(10), 100_000, 4_000_000)
    assert isinstance(reason, str) and 'places 1,024 geometry instances from the 1 it ' \
        'writes, more than 20 times over' in reason, reason


def test_a_fallback_is_counted_and_shown_with_verbose(tmp_path):
    from cli_harness import run
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.config import CheckConfig
    from urdf_link_tools.meshes import collada_fallbacks
    from urdf_link_tools.parser import parse_urdf_string
    lookat = tmp_path / 'lookat.dae'
    lookat.write_bytes(document(TRIANGLES, '<node id="a"><lookat>0 0 1 0 0 0 0 1 0</lookat>'
                                           '<instance_geometry url="#g"/></node>'))
    plain = tmp_path / 'plain.dae'
    plain.write_bytes(document(TRIANGLES, ONE))
    urdf = tmp_path / 'robot.urdf'
    urdf.write_text(
        '<robot name="r"><link name="a">'
        + ''.join(f'<visual><geometry><mesh filename="file://{path}"/></geometry></visual>'
                  for path in (lookat, plain, lookat))
        + '</link></robot>')
    analysis = analyze(parse_urdf_string(urdf.read_text(), str(urdf)), CheckConfig())
    assert collada_fallbacks(analysis.meshes.values()) == {'<lookat> in a node': 1}
    status, _, err = run(['check', str(urdf), '--verbose'])
    assert status == 0, err
    assert 'lookat.dae: read through trimesh: the NumPy COLLADA reader does not reproduce ' \
           '<lookat> in a node' in err
    assert '1 COLLADA file(s) read through trimesh' in err
    status, _, err = run(['check', str(urdf)])
    assert 'trimesh' not in err
