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
Hulls by coal's Qhull: the same hulls as SciPy's, and flat input never reaches it.

Qhull (through coal 3) ends the process with a segmentation fault on points in a plane; the
guard in :func:`urdf_link_tools.meshes.hull._coal_hull` keeps thin point sets from it. The
crash cases run in a child process, so a regression fails the test instead of killing pytest.
"""

import subprocess
import sys

import corpus
import numpy as np
import pytest

from urdf_link_tools.meshes import hull
from urdf_link_tools.meshes import MeshLibrary

pytest.importorskip('coal')

THIN = """
import sys
import numpy as np
from urdf_link_tools.meshes.hull import convex_hull
rng = np.random.default_rng(7)
answers = []
for thickness in (0.0, 1e-16, 1e-13, 1e-11, 1e-9, 1e-7, 1e-6, 1e-5, 1e-4):
    for trial in range(20):
        points = rng.normal(size=(900, 3)) * rng.uniform(0.001, 1000.0)
        points[:, 2] *= thickness
        if trial % 3 == 0:
            points[:, 1] *= thickness  # a line
        rotation = np.linalg.qr(rng.normal(size=(3, 3)))[0]
        points = points @ rotation.T + rng.normal(size=3) * 1e4
        found, why = convex_hull(points)
        answers.append(why)
print(len(answers), sorted(set(answers)))
"""


def test_thin_and_flat_point_sets_do_not_crash_the_process():
    done = subprocess.run([sys.executable, '-c', THIN], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    count, answers = done.stdout.split(' ', 1)
    assert count == '180'
    assert 'flat' in answers and 'convex hull' in answers


def _qhull_volume(points: np.ndarray) -> float:
    from scipy.spatial import ConvexHull
    return float(ConvexHull(points).volume)


@pytest.mark.parametrize('name', [
    'romeo_description/meshes/V1/collision/RHipPitch.dae',
    'talos_data/meshes/torso/torso_2.STL',
    'panda_description/meshes/collision/link3.stl',
])
def test_coal_hull_matches_the_numpy_hull_on_real_parts(name):
    path = corpus.robots_dir() / name
    if not path.exists():
        pytest.fail(f'{path} is missing from example-robot-data')
    mesh = MeshLibrary(use_ament_index=False).load(str(path), (1.0, 1.0, 1.0), None)
    points = np.asarray(mesh.vertices, dtype=np.float64)
    native = hull._coal_hull(points)
    assert native is not None
    hull._closed(native.simplices, len(native.points))
    expected = _qhull_volume(points)  # SciPy's Qhull (the NumPy hull gives up on torso_2)
    assert hull.enclosed_volume(native) == pytest.approx(expected, rel=1e-9)
    # Every input point is inside the hull (to Qhull's precision).
    corners, simplices = native.points, native.simplices
    normals = np.cross(corners[simplices[:, 1]] - corners[simplices[:, 0]],
                       corners[simplices[:, 2]] - corners[simplices[:, 0]])
    levels = np.einsum('ij,ij->i', normals, corners[simplices[:, 0]])
    heights = points @ normals.T - levels
    assert heights.max() <= 1e-9 * np.abs(levels).max()


def test_the_choice_depends_on_the_points_not_on_what_is_loaded():
    # Below NATIVE_MIN_POINTS the NumPy hull, coal loaded or not (nothing imported for it);
    # from it, coal, loaded or not: a --jobs worker's earlier robots change nothing.
    code = ('import sys, numpy as np\n'
            'if sys.argv[1] == "coal first":\n'
            '    import coal\n'
            'from urdf_link_tools.meshes import hull\n'
            'small = np.random.default_rng(1).normal(size=(hull.NATIVE_MIN_POINTS - 1, 3))\n'
            'big = np.random.default_rng(2).normal(size=(hull.NATIVE_MIN_POINTS, 3))\n'
            'print(hull.native_first(len(small)), "coal" in sys.modules,\n'
            '      hull.native_first(len(big)), hull.enclosed_volume(hull.convex_hull(big)[0]))\n')
    answers = []
    for order in ('as it comes', 'coal first'):
        done = subprocess.run([sys.executable, '-c', code, order], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        answers.append(done.stdout.split())
    assert answers[0][:3] == ['False', 'False', 'True']
    assert answers[1][:3] == ['False', 'True', 'True']
    assert answers[0][3] == answers[1][3]  # the same hull, to the last digit


def _collision_mesh(robot_file: str, link_name: str):
    from urdf_link_tools.analysis import load_meshes
    from urdf_link_tools.parser import parse_urdf_string
    path = corpus.urdf_path(robot_file)
    robot = parse_urdf_string(path.read_bytes(), str(path))
    meshes = load_meshes(robot, MeshLibrary(ament_prefix_path=corpus.ament_prefixes()))
    return meshes[id(robot.link(link_name).collisions[0])]


def _collision_points(robot_file: str, link_name: str) -> np.ndarray:
    return np.asarray(_collision_mesh(robot_file, link_name).raw.vertices, dtype=np.float64)


def test_the_overlap_depth_has_a_hull_where_coal_refuses_one():
    # The depth of an overlap at rest is measured between coal hulls: one coal refuses
    # ("Too many neighbors": centauro's pelvis, every wheel of 256 sides) is built from
    # joggled points (QJ) instead, its volume the hull's (AutoRally's wheels had no depth,
    # sweep V); before, no depth (as a flat mesh has), never an internal error.
    from urdf_link_tools.analysis import load_meshes
    from urdf_link_tools.collision.bodies import build_bodies
    from urdf_link_tools.collision.overlap import _hull
    from urdf_link_tools.parser import parse_urdf_string
    path = corpus.urdf_path('centauro.urdf')
    robot = parse_urdf_string(path.read_bytes(), str(path))
    bodies, _ = build_bodies(robot, load_meshes(
        robot, MeshLibrary(ament_prefix_path=corpus.ament_prefixes())))
    (pelvis,) = bodies['pelvis'].parts
    joggled = _hull(pelvis)
    assert pelvis.faces is not None and joggled is not None
    # (moved by about 1e-11 of the extent: its corners within a micrometre of the points')
    corners = np.array([joggled.points(i) for i in range(joggled.num_points)])
    points = np.asarray(pelvis.points)
    assert joggled.num_points > 3 and np.allclose(
        corners.min(axis=0), points.min(axis=0), atol=1e-6) and np.allclose(
        corners.max(axis=0), points.max(axis=0), atol=1e-6)
    primitives = [part for body in bodies.values() for part in body.parts if part.faces is None]
    assert primitives and all(_hull(part) is part.geometry  # as they are
                              for part in primitives)


def test_a_hull_coal_refuses_is_built_the_other_way():
    # coal raises "Too many neighbors" on centauro's pelvis: once coal was loaded (by an
    # earlier robot in a --jobs worker) this was an internal-error finding.
    points = _collision_points('centauro.urdf', 'pelvis')
    assert hull._coal_hull(points) is None
    found, why = hull.convex_hull(points)
    assert why == 'convex hull'
    assert hull.enclosed_volume(found) == pytest.approx(_qhull_volume(points), rel=1e-9)


ORDER = """
import json, sys
if sys.argv[2] == 'coal first':
    import coal  # as when an earlier robot of the same worker process loaded it
if sys.argv[2] == 'SciPy first':
    import scipy.spatial  # as trimesh loads it for an earlier robot's OBJ or glTF meshes
from urdf_link_tools.cli import main
main(['check', sys.argv[1], '--format', 'json', '--fail-on', 'never'])
"""


def _reports(robot_file, first):
    """Return the JSON reports of one robot checked after importing ``first``, and without."""
    path = str(corpus.urdf_path(robot_file))
    reports = []
    for order in (first, 'as it comes'):
        done = subprocess.run([sys.executable, '-c', ORDER, path, order], capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        reports.append(done.stdout)
    return reports


def test_findings_do_not_depend_on_coal_being_loaded_already():
    reports = _reports('centauro.urdf', 'coal first')
    assert reports[0] == reports[1]
    assert '"internal-error"' not in reports[0]


def test_findings_do_not_depend_on_scipy_being_loaded_already():
    # TwoDofs's visual meshes give the tensor its inertia-exceeds-extent finding suggests:
    # once SciPy was loaded (an OBJ robot before it in the same --jobs worker) their hulls
    # under 32 points were SciPy's, and the suggested tensor differed in its last digits
    # from a run of TwoDofs alone (the JSON of a corpus changed with the order of its files).
    reports = _reports('TwoDofs.urdf', 'SciPy first')
    assert '"suggested_inertia"' in reports[0]
    assert reports[0] == reports[1]


def test_coordinates_near_the_float_limit_never_reach_qhull_whole():
    # A 10 kB OBJ with coordinates near 1e307 ended the check and the node (a segmentation
    # fault in coal's Qhull: products overflow). In a child, for a crash to be a failure here.
    script = (
        'import numpy as np\n'
        'from urdf_link_tools.meshes.hull import coal_qhull, convex_hull\n'
        'rng = np.random.default_rng(3)\n'
        'points = rng.normal(size=(200, 3))\n'
        'for scale in (1e155, 1e200, 1e300, 1e307):\n'
        '    hull, _ = convex_hull(points * scale)\n'
        '    assert coal_qhull(points * scale, True) is None\n'
        '    assert hull is None or np.all(np.isfinite(hull.points))\n'
        'hull, said = convex_hull(points * 1e12)\n'
        'small, _ = convex_hull(points)\n'
        'assert said == "convex hull" and len(hull.simplices) == len(small.simplices)\n'
        'print("ok")\n')
    result = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == 'ok', result.stderr


def test_sizes_near_the_float_limit_are_no_internal_error_nor_a_claim(tmp_path):
    # <sphere radius="1e308"/>: radius ** 3 raised OverflowError (two internal errors); a
    # mesh at 1e307 made a bound of NaN, and the inertia was said to exceed it.
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.parser import parse_urdf_string
    obj = tmp_path / 'huge.obj'
    obj.write_text('v -1e307 -1e307 -1e307\nv 1e307 -1e307 -1e307\nv 0 1e307 -1e307\n'
                   'v 0 0 1e307\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n')
    for geometry in ('<sphere radius="1e308"/>', '<cylinder radius="1e308" length="1"/>',
                     f'<mesh filename="{obj}"/>'):
        text = (f'<robot name="r"><link name="a"><inertial><mass value="1"/><inertia '
                f'ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>'
                f'<collision><geometry>{geometry}</geometry></collision></link></robot>')
        rules = {f.rule for f in analyze(parse_urdf_string(text, str(tmp_path / 'r.urdf')))
                 .findings}
        assert 'internal-error' not in rules and 'inertia-exceeds-extent' not in rules, rules


def _corpus_points(limit: int = 120):
    library = MeshLibrary(use_ament_index=False)
    found = []
    for path in sorted(corpus.mesh_files('.stl') + corpus.mesh_files('.dae'))[:limit]:
        mesh = library.load(str(path), (1.0, 1.0, 1.0), None)
        if hasattr(mesh, 'vertices') and len(mesh.vertices) <= 50_000:
            found.append(np.asarray(mesh.vertices, dtype=np.float64))
    return found


def test_native_volume_is_the_volume_of_the_native_hull():
    # A closed part asks only its hull's volume: coal's, without the triangles.
    rng = np.random.default_rng(11)
    random_sets = [rng.normal(size=(int(rng.integers(32, 300)), 3)) * (1.0, 0.01, 3.0) + 50.0
                   for _ in range(200)]
    grid = [np.round(rng.uniform(-1, 1, size=(200, 3)), 1) for _ in range(50)]  # coplanar
    compared = 0
    for points in _corpus_points() + random_sets + grid:
        native = hull.native_hull(points)
        volume = hull.native_volume(points)
        if native is None:
            assert volume is None
            continue
        assert volume == pytest.approx(hull.enclosed_volume(native), rel=1e-12)
        compared += 1
    assert compared > 200
    assert hull.native_volume(np.zeros((40, 3))) is None  # flat: no hull either way
    assert hull.native_volume(rng.normal(size=(20, 3))) is None  # few points: NumPy's hull


def test_a_closed_part_crossing_itself_is_measured_by_its_hull_past_the_native_size():
    # Two overlapping spheres of 162 vertices each: closed, outward, and their surface
    # integral counts the shared lens twice. Their volume, centre and inertia are the hull's.
    import trimesh
    from urdf_link_tools.meshes.reading import RawMesh
    from urdf_link_tools.meshes.solid import measure_solid
    sphere = trimesh.creation.icosphere(subdivisions=2, radius=0.1)
    vertices = np.concatenate([sphere.vertices, sphere.vertices + (0.1, 0.0, 0.0)])
    faces = np.concatenate([sphere.faces, sphere.faces + len(sphere.vertices)])
    assert len(vertices) >= hull.NATIVE_MIN_POINTS
    raw = RawMesh(vertices=vertices, faces=faces, unit_scale=1.0, size_bytes=0)
    solid = measure_solid(raw)
    expected = trimesh.Trimesh(vertices, faces).convex_hull
    assert solid.self_intersecting and solid.volume_source == 'convex hull'
    assert solid.volume == pytest.approx(expected.volume, rel=1e-9)
    assert solid.hull_volume == pytest.approx(expected.volume, rel=1e-9)
    assert solid.center_mass == pytest.approx(np.asarray(expected.center_mass), abs=1e-12)
    assert solid.unit_inertia == pytest.approx(np.asarray(expected.moment_inertia), rel=1e-7)
