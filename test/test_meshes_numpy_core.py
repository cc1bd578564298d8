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
The NumPy replacements of trimesh and SciPy give their numbers, on real meshes.

Every STL of example-robot-data is read by :mod:`urdf_link_tools.meshes.stl` into the very
triangles trimesh's loader gives (same order, same merged vertices), and its volume
integrals match trimesh's; the vertex merge matches trimesh's on the corpus's other
formats; the small-hull quickhull gives Qhull's volume on the hulls the checks build and on
degenerate point sets, and gives way to Qhull when it cannot build one.
"""

import io

import corpus
import numpy as np
import pytest
from scipy.spatial import ConvexHull
import trimesh
from urdf_link_tools.meshes import hull, integrals, stl
from urdf_link_tools.meshes.reading import Budget, read_mesh
from urdf_link_tools.meshes.stl import read_stl

ROBOTS = corpus.robots_dir()
pytestmark = pytest.mark.skipif(ROBOTS is None, reason='example-robot-data is not installed')


def test_every_corpus_stl_reads_as_trimesh_reads_it():
    paths = corpus.mesh_files('.stl')
    assert len(paths) > 100
    for path in paths:
        data = path.read_bytes()
        assert stl.problem(data) is None, path
        vertices, faces = read_stl(data, 10 ** 7)
        mesh = trimesh.load(io.BytesIO(data), file_type='stl', force='mesh')
        assert len(vertices) == len(mesh.vertices) and len(faces) == len(mesh.faces), path
        assert np.array_equal(vertices[faces], mesh.vertices[mesh.faces]), path
        ours = integrals.mass_properties(vertices[faces], integrals.cross(vertices[faces]))
        theirs = trimesh.triangles.mass_properties(mesh.vertices[mesh.faces])
        assert ours.volume == pytest.approx(theirs.volume, rel=1e-12, abs=1e-300), path
        np.testing.assert_allclose(ours.center_mass, theirs.center_mass, rtol=1e-9,
                                   atol=1e-12)
        np.testing.assert_allclose(ours.inertia, theirs.inertia, rtol=1e-9,
                                   atol=1e-12 * np.abs(theirs.inertia).max())


def test_merge_matches_trimesh_on_the_other_formats():
    paths = [path for suffix in ('.obj', '.dae') for path in corpus.mesh_files(suffix)][::4]
    assert len(paths) > 20
    for path in paths:
        raw = read_mesh(str(path), path.suffix.lower()[1:], Budget(), ())
        raw_vertices, raw_faces = np.array(raw.vertices), np.array(raw.faces)
        vertices, faces = integrals.merge_positions(raw_vertices, raw_faces)
        merged = trimesh.Trimesh(raw_vertices, raw_faces, process=True)
        assert len(vertices) == len(merged.vertices), path
        assert np.array_equal(vertices[faces], merged.vertices[merged.faces]), path


def test_merge_groups_by_one_mixed_key_and_falls_back_on_a_collision():
    # Two different key rows whose mixed values are equal (d . MIX = 0 wrapping): the fast
    # grouping refuses, and the merge still joins only equal positions, as the exact sort.
    mix = [int(value) for value in integrals._MIX]
    keys = np.array([[0, 0, 0], [mix[1], -mix[0], 0], [0, 0, 0], [5, 6, 7]], dtype=np.int64)
    assert integrals._group_by_hash(keys) is None
    order, starts, first = integrals._group_by_hash(keys[[0, 2, 3]])
    assert sorted(first.tolist()) == [0, 2]
    # Random points, many repeated (as an STL's corners): the same merge as trimesh's.
    rng = np.random.default_rng(7)
    corners = rng.normal(size=(500, 3))
    faces = rng.integers(0, 500, size=(3000, 3))
    soup = corners[faces].reshape(-1, 3) + rng.normal(scale=1e-12, size=(9000, 3))
    vertices, merged = integrals.merge_positions(soup, np.arange(9000).reshape(-1, 3))
    reference = trimesh.Trimesh(soup, np.arange(9000).reshape(-1, 3), process=True)
    assert len(vertices) == len(reference.vertices)
    assert np.array_equal(vertices[merged], reference.vertices[reference.faces])


def test_ascii_stl_with_two_solids_and_a_binary_with_trailing_bytes(tmp_path):
    text = ('solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n'
            'vertex 0 1 0\nendloop\nendfacet\nendsolid a\nsolid b\nfacet normal 0 0 1\n'
            'outer loop\nVERTEX 0 0 1\nvertex 1 0 1\nvertex 0 1 1\nendloop\nendfacet\n'
            'endsolid b\n').encode()
    vertices, faces = read_stl(text, 10 ** 7)
    assert len(faces) == 2 and len(vertices) == 6
    binary = trimesh.creation.box().export(file_type='stl')
    vertices, faces = read_stl(binary + b'exporter trailer', 10 ** 7)
    assert len(faces) == 12 and len(vertices) == 8
    assert read_stl(b'solid x\nvertex 0 0 0\nvertex 1 0 0\nendsolid\n', 10 ** 7) == \
        'its number of vertices is not a multiple of three'
    assert 'not ASCII STL' in stl.problem(b'\x00' * 90)


def _point_sets():
    rng = np.random.default_rng(7)
    sphere = rng.normal(size=(300, 3))
    sphere /= np.linalg.norm(sphere, axis=1)[:, None]
    grid = np.array([(x, y, z) for x in range(5) for y in range(5) for z in range(5)],
                    dtype=float)
    box = trimesh.creation.box(extents=(0.2, 0.1, 0.05)).vertices
    yield 'cube', rng.random((400, 3))
    yield 'sphere', sphere * 0.05
    yield 'grid (coplanar and collinear points)', grid * 1e-3
    yield 'box corners, duplicated', np.concatenate([box, box, box + 1e-13])
    yield 'far from the origin', rng.random((200, 3)) * 0.01 + 1000.0
    yield 'millimetre mesh', rng.random((200, 3)) * 500.0


def test_ascii_stl_is_counted_in_any_case_and_read_in_pieces(monkeypatch):
    # 'vErTeX' escaped the count (three spellings were counted) while the parse reads any
    # case; the whole file's matches as strings took 18 times its size: read in pieces now.
    facet = 'facet normal 0 0 1\nouter loop\nvErTeX 0 0 0\nVertex 1 0 0\nvertex 0 1 0\n' \
            'endloop\nendfacet\n'
    text = ('solid x\n' + facet * 50 + 'endsolid x\n').encode()
    assert read_stl(text, 49) == 'it holds more than 49 triangles'
    monkeypatch.setattr(stl, 'ASCII_CHUNK', 64)  # many pieces, each cut at a line end
    vertices, faces = read_stl(text, 50)
    assert len(vertices) == 3 and len(faces) == 50
    assert sorted(map(tuple, vertices.tolist())) == [(0, 0, 0), (0, 1, 0), (1, 0, 0)]


@pytest.mark.parametrize('name,points', list(_point_sets()))
def test_quickhull_gives_qhulls_volume(name, points):
    built = hull._quickhull(points)
    assert hull.enclosed_volume(built) == pytest.approx(ConvexHull(points).volume, rel=1e-9)
    ours = integrals.mass_properties(built.points[built.simplices],
                                     integrals.cross(built.points[built.simplices]))
    assert ours.volume > 0.0  # wound outwards


def test_quickhull_on_the_corpus_inner_hulls():
    # The points extreme along the 98 fixed directions: the hull every closed mesh gets.
    from urdf_link_tools.meshes.solid import _DIRECTIONS
    for path in corpus.mesh_files('.stl')[::5]:
        vertices, _ = read_stl(path.read_bytes(), 10 ** 7)
        reach = vertices @ _DIRECTIONS.T
        points = vertices[np.unique(np.concatenate([reach.argmax(0), reach.argmin(0)]))]
        try:
            expected = ConvexHull(points).volume
        except Exception:
            with pytest.raises(hull._Flat):
                hull._quickhull(points)
            continue
        assert hull.enclosed_volume(hull._quickhull(points)) == pytest.approx(
            expected, rel=1e-9), path


#: CAD parts whose near-coplanar corners broke the quickhull before its visible region grew
#: face by face (an open horizon) and before a sliver facet's rough plane could refuse it
CAD_PARTS = ('hyq_description/meshes/leg/hipassembly.dae',
             'hyq_description/meshes/leg/upperleg.dae',
             'centauro_description/meshes/simple/hip-yaw.stl',
             'tiago_description/meshes/pmb2/base/base_ring.stl',
             'bolt_description/meshes/stl/bolt_lower_leg_left_side.stl')


@pytest.mark.parametrize('name', CAD_PARTS)
def test_quickhull_builds_cad_parts_with_coplanar_corners(name):
    path = ROBOTS / name
    raw = read_mesh(str(path), path.suffix.lower()[1:], Budget(), ())
    built = hull._quickhull(np.array(raw.vertices))
    assert hull.enclosed_volume(built) == pytest.approx(ConvexHull(raw.vertices).volume,
                                                        rel=1e-9)


def test_a_convex_surface_is_its_own_hull_and_a_concave_one_is_not():
    cylinder = trimesh.creation.cylinder(radius=0.05, height=0.3, sections=64)
    points = np.asarray(cylinder.vertices, dtype=np.float32).astype(float) + 0.4
    own = hull.surface_hull(points, np.asarray(cylinder.faces))
    assert own is not None and own.simplices is not None
    assert hull.enclosed_volume(own) == pytest.approx(ConvexHull(points).volume, rel=1e-9)
    ring = trimesh.creation.annulus(r_min=0.03, r_max=0.05, height=0.3, sections=64)
    assert hull.surface_hull(np.asarray(ring.vertices), np.asarray(ring.faces)) is None
    assert hull.surface_hull(points, np.asarray(cylinder.faces)[:, ::-1]) is None  # inwards


def test_a_convex_part_whose_faces_bend_by_rounding_is_its_own_hull():
    # iCub's 16-corner prisms: their caps' corners, written with 7 significant digits, lie
    # 1.1e-7 of the volume off the caps' planes (before: no surface hull, a NumPy quickhull
    # of 1 ms each); a corner pushed in by 15 % of the radius is a dent, not rounding.
    path = ROBOTS / 'icub_description/meshes/upmc/collision/icub_simple_collision_l_ankle_1.dae'
    raw = read_mesh(str(path), 'dae', Budget(), ())
    points, faces = integrals.merge_positions(np.asarray(raw.vertices), np.asarray(raw.faces))
    assert len(points) == 16
    own = hull.surface_hull(points, faces)
    assert own is not None
    assert hull.enclosed_volume(own) == pytest.approx(ConvexHull(points).volume, rel=1e-6)
    dented = points.copy()
    dented[0, :2] *= 0.85
    assert hull.surface_hull(dented, faces) is None


@pytest.mark.parametrize('points', [
    np.zeros((10, 3)), np.outer(np.arange(10.0), (1.0, 2.0, 3.0)),
    np.column_stack([np.random.default_rng(1).random((50, 2)), np.zeros(50)])])
def test_flat_point_sets_have_no_hull(points):
    assert hull.convex_hull(points) == (None, 'flat')


def test_too_many_steps_goes_to_qhull(monkeypatch):
    rng = np.random.default_rng(3)
    sphere = rng.normal(size=(400, 3))
    sphere /= np.linalg.norm(sphere, axis=1)[:, None]
    with pytest.raises(hull._Unbuilt):
        monkeypatch.setattr(hull, 'MAX_STEPS', 50)
        hull._quickhull(sphere)
    built, kind = hull.convex_hull(sphere)
    assert kind == 'convex hull'
    assert hull.enclosed_volume(built) == pytest.approx(ConvexHull(sphere).volume, rel=1e-12)
