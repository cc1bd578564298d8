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
Rules about the surface of collision meshes: is it a solid whose volume can be trusted.

Only collision meshes are checked: a visual mesh with a hole or a flipped face only looks
wrong, and nothing is computed from it. What a broken collision surface breaks is what is
computed from its volume: the mass, centre and inertia a tool derives from it (Drake's and
Gazebo's mesh inertia, an importer filling in a missing ``<inertial>``, and this checker's
own density, centre-of-mass and inertia comparisons, which then use the convex hull and
say so), and, for an inside-out or inconsistently wound surface, the contact normals of
engines that collide triangle meshes directly.

One finding per element lists everything wrong with its surface (meshes only open, the same
way, on three or more elements are one finding listing the links). Its severity follows the
worst defect: a surface that is inside out, inconsistently wound, crosses itself or is flat
is a warning (any volume computed from it is meaningless, and a maintainer fixes it in
minutes: flip or recalculate the normals, remove the overlapping shell). A surface that is
only open is information: CAD exports very often leave small holes or edges shared by
three faces (126 of the 345 distinct collision meshes of example-robot-data), engines that
collide with convex hulls do not care, and the volume of the hull stands in.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Tuple

from urdf_link_tools.checks.base import CheckContext, Rule
from urdf_link_tools.checks.engines import mujoco_refuses_flat
from urdf_link_tools.checks.model_wide import MODEL_WIDE_MIN
from urdf_link_tools.findings import Finding, listed, Severity
from urdf_link_tools.meshes import MeshInfo
from urdf_link_tools.model import Link

#: collision mesh files with the same defects, this many or more, are one finding (as are
#: MODEL_WIDE_MIN elements)
SAME_DEFECT_MIN = 2

RULES = (
    Rule('collision-mesh-broken', Severity.WARNING,
         'a collision mesh is not a valid solid: inconsistently wound or inside out, or flat '
         '(warning); only not closed, or self-intersecting (info: contacts are not affected, '
         'a volume or inertia computed from the mesh is)',
         'its volume, centre and inertia are wrong for any tool that computes them from the '
         'mesh (mesh inertia in Drake and Gazebo, importers filling in a missing inertial); '
         'engines that collide triangle meshes get wrong contact normals from flipped faces. '
         'This checker then compares the inertial with the convex hull instead, or, for a '
         'flat mesh, with nothing. Visual meshes are not checked',
         'repair the collision mesh (close holes, recalculate normals outside, remove '
         'overlapping or duplicate shells; e.g. Blender 3D-Print toolbox, MeshLab), or use '
         'its convex hull or primitives as the collision geometry',
         'trimesh is_watertight / is_winding_consistent; a surface volume above its convex '
         "hull's crosses itself"),
    Rule('collision-mesh-unmeasured', Severity.WARNING,
         'a collision mesh was read but its volume could not be measured (out of memory, '
         'degenerate numbers)',
         'the density, centre-of-mass and inertia comparisons skip the link; they are not '
         'silently computed from a bounding box',
         'simplify the mesh (fewer faces), or run the checker with more memory',
         'this tool'),
)


def defects(mesh: MeshInfo, gazebo: bool = True) -> List[Tuple[Severity, str]]:
    """
    Return what is wrong with a mesh's surface as a solid, in plain words.

    :param mesh: the loaded mesh
    :param gazebo: Gazebo is a target: a triangle's winding matters to it (its trimesh
        collision, ODE's, takes it for the outward normal), and a winding defect is a
        warning; MuJoCo (4 compiles a mesh inside out or inconsistently wound) and FCL
        (MoveIt, Pinocchio) collide them alike, and the volume here is measured with the
        winding turned outwards: an info (sweep Z: TM5-900's two inside-out meshes)
    :return: (severity, defect) pairs (empty for a closed, consistently wound surface)
    """
    solid = mesh.solid
    found = []
    winding = Severity.WARNING if gazebo else Severity.INFO
    if not solid.is_watertight:
        found.append((Severity.INFO, 'not closed (some edges do not belong to exactly two '
                      'triangles)'))
    elif not solid.is_winding_consistent:
        found.append((winding, 'inconsistently wound (neighbouring triangles face '
                      'opposite ways)'))
    if solid.inside_out:
        found.append((winding, 'inside out (its triangles face inwards)'))
    if solid.self_intersecting:
        # An info: collision engines collide its triangles or its hull alike; only a volume
        # or inertia computed from the mesh is off (precision review X: TIAGo's torso neck)
        found.append((Severity.INFO, 'self-intersecting (its surface encloses more than '
                      'its convex hull: overlapping shells or folded faces)'))
    if solid.flat:
        found.append((Severity.WARNING, 'flat (it encloses no volume)'))
    return found


def _used(mesh: MeshInfo) -> str:
    source = mesh.volume_source
    if source == 'convex hull':
        return 'its convex hull is used for the volume and inertia comparisons'
    if source == 'mesh':
        return 'its volume is used with the winding turned outwards'
    return 'no volume is derived from it: the density and inertia comparisons skip it'


def check_collision_meshes(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report the collision meshes that are not valid solids: one finding each, or one for many.

    Collision meshes with the same defects, in :data:`SAME_DEFECT_MIN` or more files (or on
    :data:`.MODEL_WIDE_MIN` elements), are one finding listing the links: an exporter that
    leaves holes, or winds triangles both ways, does so in every part it writes (romeo's 42
    open meshes are one choice, fixed once; so are a KUKA KR 6's two, and a Motoman GP4's
    three inconsistently wound ones).
    """
    same: Dict[Tuple[Severity, str, str], List[Finding]] = {}
    # One file's defects are one finding, however many links collide with it (Reachy's
    # forearm_collider.dae, on both arms): repaired once, said once.
    alone: Dict[Tuple[str, str, str], List[Finding]] = {}
    found = [item for link in ctx.robot.links for item in _link_meshes(ctx, link)]
    for finding, key in found:
        if key is not None:
            same.setdefault(key, []).append(finding)
    grouped = {key for key, findings in same.items() if _same_defect(findings)}
    for finding, key in found:
        if key not in grouped:
            alone.setdefault((finding.rule, finding.message,
                              str(dict(finding.values).get('filename'))), []).append(finding)
    for findings in alone.values():
        yield findings[0] if len(findings) == 1 else _one_file(ctx, findings)
    for (severity, text, used), findings in same.items():
        if (severity, text, used) not in grouped:
            continue  # said above, per file
        links = tuple(dict.fromkeys(finding.link for finding in findings))
        files = tuple(dict.fromkeys(str(dict(finding.values)['filename'])
                                    for finding in findings))
        repair = 'close holes, e.g. Blender 3D-Print toolbox, MeshLab' \
            if severity == Severity.INFO else \
            'recalculate normals outside, remove overlapping shells, e.g. MeshLab'
        yield ctx.finding(
            'collision-mesh-broken', severity,
            f'{len(findings)} collision meshes are not valid solids, the same way: {text}; '
            f'for each, {used} ({len(links)} links: {listed(links)})',
            line=findings[0].line,
            suggestion=f'the exporter leaves the same defect in every mesh: repair them in one '
                       f'pass ({repair}), or use their convex hulls or primitives'
                       + ('; engines that collide convex hulls do not mind'
                          if severity == Severity.INFO else ''),
            values=(('count', len(findings)), ('links', listed(links)),
                    ('filenames', listed(files))),
            links=links)


def _same_defect(findings: List[Finding]) -> bool:
    """Return True for findings said as one: 3 elements, or 2 files, with the same defects."""
    files = {str(dict(finding.values).get('filename')) for finding in findings}
    return len(findings) >= MODEL_WIDE_MIN or len(files) >= SAME_DEFECT_MIN


def _one_file(ctx: CheckContext, findings: List[Finding]) -> Finding:
    """Return the finding of one mesh file that several links' collisions use."""
    first = findings[0]
    links = tuple(dict.fromkeys(str(finding.link) for finding in findings))
    return ctx.finding(
        first.rule, first.severity,
        f'{first.message} (the collision geometry of {len(findings)} elements on '
        f'{len(links)} links: {listed(links)})',
        link=first.link, element=first.element, line=first.line,
        suggestion=first.suggestion + '; one repair of the file fixes them all',
        values=first.values + (('count', len(findings)), ('links', listed(links))),
        links=links)


def _link_meshes(ctx: CheckContext, link: Link) \
        -> Iterator[Tuple[Finding, Optional[Tuple[str, str]]]]:
    """Yield a link's collision mesh findings, each with its group key (None: alone)."""
    for element in link.collisions:
        if element.geometry is None or element.geometry.kind != 'mesh':
            continue
        mesh = ctx.mesh_for(element)
        if not isinstance(mesh, MeshInfo):
            continue  # the mesh rules say why it was not loaded
        filename = element.geometry.filename  # type: ignore[union-attr]
        problem = mesh.measure_problem
        if problem is not None:
            yield ctx.finding(
                'collision-mesh-unmeasured', Severity.WARNING,
                f'the collision mesh could not be measured: {problem}; the density, '
                'centre-of-mass and inertia comparisons skip it',
                link=link.name, element=element.label, line=element.line,
                suggestion='simplify the mesh, or run the checker with more memory',
                values=(('filename', filename),)), None
            continue
        if mujoco_refuses_flat(ctx, element):
            continue  # mujoco-mesh-coplanar: MuJoCo refuses it, one finding
        found = defects(mesh, 'gazebo' in ctx.config.targets)
        if not found:
            continue
        severity = max(severity for severity, _ in found)
        text = '; '.join(defect for _, defect in found)
        used = _used(mesh)
        yield ctx.finding(
            'collision-mesh-broken', severity,
            f'the collision mesh {filename} is not a valid solid: {text}; {used}',
            link=link.name, element=element.label, line=element.line,
            suggestion='repair the mesh (close holes, recalculate normals, remove '
                       'overlapping shells), or use its convex hull or primitives',
            values=(('filename', filename), ('faces', mesh.face_count),
                    ('volume_source', mesh.volume_source))), \
            (severity, text, used)


CHECKS = (check_collision_meshes,)
LINK_CHECKS = ()
