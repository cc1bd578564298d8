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

"""Collision mesh complexity: convexity and face count decide the severity, per target."""

import os

import pytest
import trimesh
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.parser import parse_urdf_string

LIMIT = 1000


def robot_with(path, visual=False):
    mesh = f'<geometry><mesh filename="{path}"/></geometry>'
    return ('<robot name="r"><link name="a"><inertial><mass value="1"/><inertia ixx="0.004" '
            'ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.004"/></inertial>'
            + (f'<visual>{mesh}</visual>' if visual else '')
            + f'<collision>{mesh}</collision></link></robot>')


def severities(tmp_path, mesh, targets=None, visual=False):
    path = tmp_path / 'part.stl'
    mesh.export(str(path))
    config = CheckConfig(collision_face_limit=LIMIT)
    if targets:
        config = CheckConfig(collision_face_limit=LIMIT, targets=frozenset(targets))
    findings = analyze(parse_urdf_string(robot_with(path, visual), str(tmp_path / 'r.urdf')),
                       config).findings
    return [(f.rule, f.severity) for f in findings
            if f.rule in ('collision-mesh-too-complex', 'collision-reuses-visual-mesh')]


@pytest.mark.parametrize('subdivisions,severity', [
    (2, None),               # 320 faces: under the limit
    (3, Severity.INFO),      # 1,280 faces, convex: under 4x the limit
    (4, Severity.WARNING),   # 5,120 faces, convex: past 4x the limit
])
def test_convex_meshes_warn_only_past_four_times_the_limit(tmp_path, subdivisions, severity):
    sphere = trimesh.creation.icosphere(subdivisions=subdivisions, radius=0.1)
    found = severities(tmp_path, sphere)
    assert found == ([] if severity is None else [('collision-mesh-too-complex', severity)])


def test_a_concave_mesh_warns_past_the_limit(tmp_path):
    ring = trimesh.creation.torus(major_radius=0.1, minor_radius=0.02, major_sections=40,
                                  minor_sections=20)
    assert len(ring.faces) > LIMIT and ring.volume < 0.6 * ring.convex_hull.volume
    assert severities(tmp_path, ring) == [('collision-mesh-too-complex', Severity.WARNING)]
    assert severities(tmp_path, ring, visual=True) == \
        [('collision-reuses-visual-mesh', Severity.WARNING)]
    # RViz and KDL collide nothing: no claim for them
    assert severities(tmp_path, ring, targets={'rviz', 'kdl'}) == []


def test_visual_meshes_reused_on_many_links_are_one_finding(tmp_path):
    ring = trimesh.creation.torus(major_radius=0.1, minor_radius=0.02, major_sections=40,
                                  minor_sections=20)
    path = tmp_path / 'part.stl'
    ring.export(str(path))
    mesh = f'<geometry><mesh filename="{path}"/></geometry>'
    body = (f'<inertial><mass value="1"/><inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" '
            f'iyz="0" izz="0.004"/></inertial><visual>{mesh}</visual><collision>{mesh}'
            '</collision>')
    links = ''.join(f'<link name="l{i}">{body}</link>' for i in range(4))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child link="l{i}"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for i in range(1, 4))
    text = f'<robot name="r">{links}{joints}</robot>'
    findings = analyze(parse_urdf_string(text, str(tmp_path / 'r.urdf')),
                       CheckConfig(collision_face_limit=LIMIT)).findings
    reuse = [f for f in findings if f.rule == 'collision-reuses-visual-mesh']
    assert len(reuse) == 1 and reuse[0].links == ('l0', 'l1', 'l2', 'l3')
    assert reuse[0].severity == Severity.WARNING and '4 collision elements' in reuse[0].message


@pytest.mark.parametrize('count', [2, 4])
def test_detailed_collision_meshes_on_many_links_are_one_finding(tmp_path, count):
    # KUKA's iiwa ships a detailed collision mesh per link (8 of 6,282 to 13,202 faces): one
    # export choice, one finding from 3 links on; fewer stay per link.
    ring = trimesh.creation.torus(major_radius=0.1, minor_radius=0.02, major_sections=40,
                                  minor_sections=20)
    path = tmp_path / 'part.stl'
    ring.export(str(path))
    body = ('<inertial><mass value="1"/><inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" '
            'iyz="0" izz="0.004"/></inertial><visual><geometry><box size="0.2 0.2 0.04"/>'
            f'</geometry></visual><collision><geometry><mesh filename="{path}"/></geometry>'
            '</collision>')
    links = ''.join(f'<link name="l{i}">{body}</link>' for i in range(count))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child link="l{i}"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for i in range(1, count))
    text = f'<robot name="r">{links}{joints}</robot>'
    findings = analyze(parse_urdf_string(text, str(tmp_path / 'r.urdf')),
                       CheckConfig(collision_face_limit=LIMIT)).findings
    found = [f for f in findings if f.rule == 'collision-mesh-too-complex']
    if count < 3:
        assert [f.link for f in found] == [f'l{i}' for i in range(count)]
        return
    (finding,) = found
    assert finding.link is None and finding.links == tuple(f'l{i}' for i in range(count))
    assert finding.severity == Severity.WARNING
    # one count where every mesh has it (Shadow's hand read "of 5,374 to 5,374 faces")
    assert f'{count} collision meshes have {len(ring.faces):,} faces, more than the limit' \
        in finding.message


def test_real_path_is_os_path_realpath_with_each_folder_resolved_once(tmp_path, monkeypatch):
    # ctx.real_path decides "the same file" (a collision reusing its visual, MuJoCo's mesh
    # name clashes): it must equal os.path.realpath for links to folders and to files,
    # missing files and folders, relative paths and dot components.
    from urdf_link_tools.checks.base import CheckContext
    (tmp_path / 'real' / 'meshes').mkdir(parents=True)
    (tmp_path / 'real' / 'meshes' / 'part.stl').write_bytes(b'solid x\nendsolid x\n')
    (tmp_path / 'linked').symlink_to(tmp_path / 'real')
    (tmp_path / 'real' / 'meshes' / 'alias.stl').symlink_to('part.stl')
    (tmp_path / 'real' / 'meshes' / 'loop.stl').symlink_to('loop.stl')
    monkeypatch.chdir(tmp_path)
    ctx = CheckContext(parse_urdf_string(robot_with('part.stl'), 'r.urdf'), CheckConfig(), {})
    paths = [str(tmp_path / 'linked' / 'meshes' / 'part.stl'),
             str(tmp_path / 'linked' / 'meshes' / 'alias.stl'),
             str(tmp_path / 'linked' / 'meshes' / 'loop.stl'),
             str(tmp_path / 'linked' / 'meshes' / 'missing.stl'),
             str(tmp_path / 'linked' / 'nowhere' / 'part.stl'),
             str(tmp_path / 'real' / 'meshes' / 'part.stl'),
             'linked/meshes/part.stl', 'linked/meshes/../meshes/alias.stl', 'part.stl',
             'linked/meshes/.', 'linked/meshes/..', 'linked/meshes/']
    for path in paths + paths:  # the second time from the memo
        assert ctx.real_path(path) == os.path.realpath(path), path


def test_isaac_gyms_signed_distance_collision_is_an_info_whose_fix_keeps_it(tmp_path):
    # IndustReal's peg trays: the visual OBJ reused as collision with <sdf resolution="256"/>,
    # Isaac Gym's signed-distance collision, chosen for peg-in-hole work. The fix said to
    # use a convex hull, which fills the hole the peg goes into.
    ring = trimesh.creation.torus(major_radius=0.1, minor_radius=0.02, major_sections=40,
                                  minor_sections=20)
    path = tmp_path / 'part.stl'
    ring.export(str(path))
    text = robot_with(path, visual=True).replace('</collision>',
                                                 '<sdf resolution="256"/></collision>')
    robot = parse_urdf_string(text, str(tmp_path / 'r.urdf'))
    assert robot.links[0].collisions[0].extensions == ('sdf',)
    assert robot.links[0].visuals[0].extensions == ()
    (found,) = [f for f in analyze(robot, CheckConfig(collision_face_limit=LIMIT)).findings
                if f.rule == 'collision-reuses-visual-mesh']
    assert found.severity == Severity.INFO
    assert "it declares <sdf> (Isaac Gym's signed-distance collision" in found.message
    assert found.suggestion.startswith('keep it for Isaac Gym;')
    assert 'fills holes' in found.suggestion


def test_isaac_gyms_density_without_mass_is_named_in_the_error(tmp_path):
    text = ('<robot name="r"><link name="a"><collision><geometry><box size="0.1 0.1 0.1"/>'
            '</geometry></collision><inertial><density value="567"/></inertial></link></robot>')
    (found,) = [f for f in parse_urdf_string(text).notes if f.rule == 'parse-missing-value']
    assert found.severity == Severity.ERROR  # urdfdom refuses it: true, and said
    assert "(<density> is Isaac Gym's: it derives the mass from the collision geometry" in \
        found.message
