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
Broken collision meshes: one finding each, and no number derived from an untrusted volume.

Also: a mesh at several scales is measured once and scaled analytically (the same numbers
as measuring scaled vertices), and the cache is bounded in bytes.
"""

import mesh_attacks
import numpy as np
import pytest

from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.meshes import MeshInfo, MeshLibrary
from urdf_link_tools.parser import parse_urdf_string

# defect -> (severity, words in the message, volume_source)
CASES = {
    'open': ('info', 'not closed', 'convex hull'),
    'inside_out': ('warning', 'inside out', 'mesh'),
    'inconsistent': ('warning', 'inconsistently wound', 'convex hull'),
    'self_intersecting': ('info', 'self-intersecting', 'convex hull'),  # (contacts alike)
    'flat': ('warning', 'flat', 'none'),
}


#: Without MuJoCo, which refuses a flat collision mesh outright (mujoco-mesh-coplanar, in
#: test_checks_engines.py): here the surface rule itself is tested.
SURFACE_ONLY = CheckConfig(targets=frozenset({'gazebo', 'moveit', 'rviz', 'kdl', 'pinocchio'}))


def _analyse(tmp_path, meshes, group='collision'):
    text = mesh_attacks.robot('broken', meshes, group)
    return analyze(parse_urdf_string(text, source=str(tmp_path / 'r.urdf')), SURFACE_ONLY)


@pytest.mark.parametrize('defect', list(CASES))
def test_broken_collision_mesh_is_one_finding(tmp_path, defect):
    severity, words, source = CASES[defect]
    path = mesh_attacks.broken_meshes(tmp_path)[defect]
    analysis = _analyse(tmp_path, [(f'file://{path}', (1, 1, 1))])
    found = [f for f in analysis.findings if f.rule == 'collision-mesh-broken']
    assert len(found) == 1, analysis.findings
    assert found[0].severity.label == severity and words in found[0].message
    assert found[0].link == 'l0' and dict(found[0].values)['volume_source'] == source
    mesh = next(iter(analysis.meshes.values()))
    assert mesh.volume_source == source
    if source == 'none':
        assert mesh.volume == 0.0
        assert not any(f.rule in ('density-implausible', 'inertia-geometry-mismatch')
                       for f in analysis.findings)


def test_open_meshes_on_many_links_are_one_finding_other_defects_apart(tmp_path):
    # An exporter that leaves holes leaves them in every mesh: three open collision meshes
    # are one finding listing the links and files; a mesh with another defect (inside out)
    # is not folded in.
    files = mesh_attacks.broken_meshes(tmp_path)
    opened = [(f'file://{files["open"]}', (1.0 + index / 10,) * 3) for index in range(3)]
    inside_out = [(f'file://{files["inside_out"]}', (1, 1, 1))]
    found = [f for f in _analyse(tmp_path, opened + inside_out).findings
             if f.rule == 'collision-mesh-broken']
    (grouped,) = [f for f in found if f.severity.label == 'info']
    assert grouped.link is None and grouped.links == ('l0', 'l1', 'l2')
    assert '3 collision meshes are not valid solids, the same way: not closed' in \
        grouped.message and 'convex hull is used' in grouped.message
    assert dict(grouped.values)['count'] == '3' and grouped.line is not None
    assert [(f.link, f.severity.label) for f in found if f is not grouped] == [
        ('l3', 'warning')]
    # Two elements of one file (Reachy's forearm_collider.dae on both arms): one repair of
    # the file, one finding naming both links; two files stay two findings.
    (two,) = [f for f in _analyse(tmp_path, opened[:2]).findings
              if f.rule == 'collision-mesh-broken']
    assert two.link == 'l0' and two.links == ('l0', 'l1')
    assert 'the collision geometry of 2 elements on 2 links: l0, l1' in two.message
    self_intersecting = [(f'file://{files["self_intersecting"]}', (1, 1, 1))]
    apart = [f for f in _analyse(tmp_path, opened[:1] + self_intersecting).findings
             if f.rule == 'collision-mesh-broken']
    assert sorted(f.link for f in apart) == ['l0', 'l1']


def test_two_files_with_the_same_defect_are_one_finding_warnings_too(tmp_path):
    # A KUKA KR 6's two open meshes, a Motoman GP4's inconsistently wound ones: the same
    # defects in two files are one finding, a warning as well as an info.
    import shutil
    files = mesh_attacks.broken_meshes(tmp_path)
    twins = {}
    for defect in ('open', 'inconsistent'):
        twins[defect] = tmp_path / f'{defect}_twin.stl'
        shutil.copyfile(files[defect], twins[defect])
    meshes = [(f'file://{path}', (1, 1, 1)) for defect in ('open', 'inconsistent')
              for path in (files[defect], twins[defect])]
    found = [f for f in _analyse(tmp_path, meshes).findings
             if f.rule == 'collision-mesh-broken']
    assert [(f.severity.label, f.links) for f in found] == [
        ('warning', ('l2', 'l3')), ('info', ('l0', 'l1'))]
    assert found[0].message.startswith('2 collision meshes are not valid solids, the same '
                                       'way: inconsistently wound')
    assert 'recalculate normals outside' in found[0].suggestion
    assert str(twins['inconsistent']) in dict(found[0].values)['filenames']


@pytest.mark.parametrize('defect', list(CASES))
def test_visual_meshes_are_not_checked(tmp_path, defect):
    path = mesh_attacks.broken_meshes(tmp_path)[defect]
    analysis = _analyse(tmp_path, [(f'file://{path}', (1, 1, 1))], group='visual')
    assert not any(f.rule == 'collision-mesh-broken' for f in analysis.findings)


def test_good_mesh_is_quiet_and_trusted(tmp_path):
    path = mesh_attacks.broken_meshes(tmp_path)['good']
    analysis = _analyse(tmp_path, [(f'file://{path}', (1, 1, 1))])
    assert not any(f.rule.startswith('collision-mesh-') for f in analysis.findings)
    assert next(iter(analysis.meshes.values())).volume_source == 'mesh'


def test_self_intersecting_volume_is_the_hulls_not_the_double_count(tmp_path):
    path = mesh_attacks.broken_meshes(tmp_path)['self_intersecting']
    info = MeshLibrary().load(str(path))
    # Two 0.2 x 0.1 x 0.1 boxes overlapping by half: the surface integral gives 0.004, the
    # solid (and its hull) is 0.3 x 0.1 x 0.1.
    assert info.volume == pytest.approx(0.003)


@pytest.mark.parametrize('scale', [(2.0, 1.0, 1.0), (0.001, 0.001, 0.001), (-1.0, 2.0, 0.5),
                                   (1.0, -3.0, -1.0)])
@pytest.mark.parametrize('defect', ['good', 'open', 'inside_out'])
def test_scaling_is_analytic_and_exact(tmp_path, scale, defect):
    import trimesh
    path = mesh_attacks.broken_meshes(tmp_path)[defect]
    library = MeshLibrary()
    unscaled = library.load(str(path))
    scaled = library.load(str(path), scale)
    assert scaled.raw is unscaled.raw and library.loads == 1
    points = np.asarray(unscaled.raw.vertices) * scale
    mesh = trimesh.Trimesh(points, unscaled.raw.faces, process=True)
    body = mesh if scaled.volume_source == 'mesh' else mesh.convex_hull
    volume = abs(body.volume)
    assert scaled.volume == pytest.approx(volume, rel=1e-9)
    assert scaled.center_mass == pytest.approx(np.asarray(body.center_mass), abs=1e-12)
    inertia = np.asarray(body.moment_inertia) * np.sign(body.volume)
    assert scaled.unit_inertia == pytest.approx(inertia, rel=1e-7, abs=1e-18)
    assert scaled.bounds[0] == pytest.approx(points.min(axis=0))
    assert scaled.bounds[1] == pytest.approx(points.max(axis=0))
    assert np.array_equal(scaled.vertices, points)


def test_one_mesh_at_many_scales_is_read_and_measured_once(tmp_path):
    path = mesh_attacks.broken_meshes(tmp_path)['open']
    meshes = [(f'file://{path}', (1.0 + index / 10,) * 3) for index in range(50)]
    analysis = _analyse(tmp_path, meshes)
    infos = list(analysis.meshes.values())
    assert len({id(info) for info in infos}) == 50
    assert len({id(info.raw) for info in infos}) == 1
    assert infos[-1].volume == pytest.approx(infos[0].volume * 5.9 ** 3)


def test_cache_is_bounded_in_bytes(tmp_path):
    import trimesh
    paths = []
    for index in range(6):
        mesh = trimesh.creation.icosphere(subdivisions=3, radius=0.1 + index / 100)
        paths.append(mesh_attacks.exported(tmp_path, f's{index}.stl', mesh))
    one = MeshLibrary().load(str(paths[0])).raw.nbytes
    library = MeshLibrary(cache_bytes=int(one * 2.5))
    for path in paths:
        assert isinstance(library.load(str(path)), MeshInfo)
    assert library.cached_bytes <= library.cache_bytes
    assert library.loads == 6
    library.load(str(paths[-1]))  # the newest is kept
    assert library.loads == 6
    library.load(str(paths[0]))  # the oldest was evicted: read again
    assert library.loads == 7
    huge = MeshLibrary(cache_bytes=one // 2)
    assert isinstance(huge.load(str(paths[0])), MeshInfo)
    assert huge.cached_bytes == 0  # larger than the whole cache: used, not kept


def test_files_in_use_are_found_again_beyond_the_budget(tmp_path):
    """A file a live analysis uses is not read again, even when the budget dropped it."""
    path = mesh_attacks.exported(tmp_path, 'part.stl')
    library = MeshLibrary(cache_bytes=0)
    held = library.load(str(path))
    assert library.cached_bytes == 0
    assert library.load(str(path), (2, 2, 2)).raw is held.raw and library.loads == 1
    del held
    import gc
    gc.collect()
    library.load(str(path))
    assert library.loads == 2


def test_large_overlapping_shells_are_found_past_the_inner_hull_screen(tmp_path):
    """Thousands of vertices: the cheap lower bound does not clear it, the full hull does."""
    import trimesh
    one = trimesh.creation.icosphere(subdivisions=4, radius=0.1)
    two = one.copy()
    two.apply_translation((0.05, 0.0, 0.0))
    both = trimesh.util.concatenate([one, two])
    path = mesh_attacks.binary_stl(tmp_path / 'spheres.stl', both.vertices, both.faces)
    info = MeshLibrary().load(str(path))
    assert info.solid.self_intersecting and info.volume_source == 'convex hull'
    assert info.volume < 2 * one.volume
    single = MeshLibrary().load(str(mesh_attacks.binary_stl(tmp_path / 'one.stl', one.vertices,
                                                            one.faces)))
    assert single.volume_source == 'mesh' and not single.solid.self_intersecting


@pytest.mark.parametrize('defect', ['good', 'open', 'self_intersecting', 'inside_out'])
def test_hull_volume_is_measured_once_and_scaled(tmp_path, defect):
    from scipy.spatial import ConvexHull
    path = mesh_attacks.broken_meshes(tmp_path)[defect]
    library = MeshLibrary()
    scale = (2.0, -0.5, 3.0)
    info = library.load(str(path), scale)
    expected = ConvexHull(np.asarray(info.vertices)).volume
    assert info.hull_volume == pytest.approx(expected, rel=1e-9)
    flat = library.load(str(mesh_attacks.broken_meshes(tmp_path)['flat']))
    assert flat.hull_volume is None or flat.hull_volume == 0.0


def test_an_open_mesh_of_separate_parts_is_not_one_hull_for_the_density(tmp_path):
    # NASA Ingenuity's chassis GLB: 27 open parts with splayed legs, one hull 0.114 m^3,
    # so 1.4 kg was 12 kg/m^3, "too light". Two open boxes 1 m apart: the parts' own hulls.
    lines, offset = [], 0
    for x in (0.0, 1.0):
        corners = [(x + dx, dy, dz) for dx in (0, 0.1) for dy in (0, 0.1) for dz in (0, 0.1)]
        lines += [f'v {a} {b} {c}' for a, b, c in corners]
        # five faces of a box, the top left open: a mesh that is not closed
        for quad in ((0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2)):
            a, b, c, d = (offset + 1 + index for index in quad)
            lines += [f'f {a} {b} {c}', f'f {a} {c} {d}']
        offset += 8
    path = tmp_path / 'parts.obj'
    path.write_text('\n'.join(lines) + '\n')

    def density(mass):
        text = (f'<robot name="r"><link name="a"><inertial><mass value="{mass}"/><inertia '
                'ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>'
                f'<collision><geometry><mesh filename="{path}"/></geometry></collision>'
                '</link></robot>')
        return [f for f in analyze(parse_urdf_string(text, str(tmp_path / 'r.urdf'))).findings
                if f.rule == 'density-implausible']
    # 0.5 kg: 45 kg/m^3 in the one hull (0.011 m^3), 250 kg/m^3 in the two boxes' (0.002).
    assert density(0.5) == []
    # 0.05 kg is too light even for the parts: still said.
    assert density(0.05)


@pytest.mark.parametrize('corner, told', [(True, True), (False, False)])
def test_a_millimetre_mesh_off_its_part_is_told_to_move_too(tmp_path, corner, told):
    # AUBO's i7 shoulder: an STL in millimetres with its origin at a corner. Scaled, it lies
    # beside the part the visual draws: the scale alone is not the fix, and the fix says so.
    # The same mesh about its centre needs the scale only.
    import trimesh
    box = trimesh.creation.box(extents=(200.0, 150.0, 210.0))
    vertices = np.asarray(box.vertices) + ((100.0, 75.0, 105.0) if corner else 0.0)
    path = mesh_attacks.binary_stl(tmp_path / 'shoulder.stl', vertices, np.asarray(box.faces))
    text = ('<robot name="r"><link name="base"/><joint name="j" type="revolute"><parent '
            'link="base"/><child link="shoulder"/><axis xyz="0 0 1"/><limit lower="-1" '
            'upper="1" effort="1" velocity="1"/></joint><link name="shoulder"><inertial>'
            '<mass value="9.9"/><inertia ixx="0.06" ixy="0" ixz="0" iyy="0.06" iyz="0" '
            'izz="0.05"/></inertial><visual><geometry><box size="0.2 0.15 0.21"/></geometry>'
            f'</visual><collision><geometry><mesh filename="file://{path}"/></geometry>'
            '</collision></link></robot>')
    analysis = analyze(parse_urdf_string(text), CheckConfig(), MeshLibrary())
    (found,) = [f for f in analysis.findings if f.rule == 'density-implausible']
    assert 'add scale="0.001 0.001 0.001" to the <mesh>' in found.suggestion
    assert ('needs an <origin> too' in found.suggestion) == told, found.suggestion
    if told:
        assert 'scaled, it spans 0 0 0 to 0.2 0.15 0.21 m' in found.suggestion


@pytest.mark.parametrize('defect', ['inside_out', 'inconsistent'])
def test_a_winding_defect_is_an_info_without_gazebo_among_the_targets(tmp_path, defect):
    # Sweep Z: TM5-900's inside-out meshes were warnings with --target mujoco, which compiles
    # and collides them (MuJoCo 4), as FCL does; the volume here turns the winding outwards.
    # Gazebo's trimesh collision (ODE) takes each triangle's winding for its outward normal.
    path = mesh_attacks.broken_meshes(tmp_path)[defect]
    text = mesh_attacks.robot('broken', [(f'file://{path}', (1, 1, 1))], 'collision')
    robot = parse_urdf_string(text, source=str(tmp_path / 'r.urdf'))
    for targets, severity in (({'mujoco', 'moveit', 'pinocchio'}, 'info'),
                              ({'mujoco', 'gazebo'}, 'warning')):
        (found,) = [f for f in analyze(robot, CheckConfig(targets=frozenset(targets))).findings
                    if f.rule == 'collision-mesh-broken']
        assert found.severity.label == severity, targets
