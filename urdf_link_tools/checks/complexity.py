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
How costly a collision mesh is, for the targets that collide meshes.

Measured (docs/rules.md, "Collision mesh size and convexity"): FCL's BVH collide() stays
near 5 us from 320 to 82k faces on a convex mesh while its distance() grows linearly (1.2 ms
at 5k faces, 5.5 ms at 20k, with coal, the FCL fork Pinocchio uses); MuJoCo collides every
mesh as its convex hull (8 us at 320 faces, 37 us at 20k). So a convex mesh is a warning
only past CONVEX_FACTOR times the face limit, a concave one past the limit.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional

from urdf_link_tools.checks.base import CheckContext
from urdf_link_tools.checks.model_wide import MODEL_WIDE_MIN
from urdf_link_tools.findings import Finding, listed, Severity
from urdf_link_tools.meshes import MeshInfo
from urdf_link_tools.model import GeometryElement, Link, Mesh
from urdf_link_tools.targets import severity_for

#: The targets that collide meshes (RViz and KDL do not).
COLLIDING = ('moveit', 'gazebo', 'mujoco', 'pinocchio')
#: A convex mesh warns only past this many times collision_face_limit (see docs/rules.md).
CONVEX_FACTOR = 4


def reused_visuals(ctx: CheckContext, link: Link) -> Dict[int, GeometryElement]:
    """
    Return the visual each collision mesh reuses (by the file's real path), by id.

    Once per link and analysis (the element rules, the grouping of detailed meshes and the
    density bound all ask), each file's real path once per analysis.
    """
    key = ('reused visuals', id(link))
    if key not in ctx.memo:
        ctx.memo[key] = _reused(ctx, link)
    return ctx.memo[key]  # type: ignore[return-value]


def _reused(ctx: CheckContext, link: Link) -> Dict[int, GeometryElement]:
    if not any(isinstance(collision.geometry, Mesh) for collision in link.collisions):
        return {}
    visual_files: Dict[str, GeometryElement] = {}
    for visual in link.visuals:
        key = _mesh_key(ctx, visual)
        if key is not None:
            visual_files.setdefault(key, visual)
    reused: Dict[int, GeometryElement] = {}
    for collision in link.collisions:
        key = _mesh_key(ctx, collision)
        if key is not None and key in visual_files:
            reused[id(collision)] = visual_files[key]
    return reused


def _mesh_key(ctx: CheckContext, element: GeometryElement) -> Optional[str]:
    if not isinstance(element.geometry, Mesh):
        return None
    path = getattr(ctx.mesh_for(element), 'path', None)
    return ctx.real_path(path) if path else element.geometry.filename


def too_complex(ctx: CheckContext, link: Link, element: GeometryElement, result: MeshInfo,
                visual: Optional[GeometryElement]) -> Iterator[Finding]:
    """Report a collision mesh with too many faces (reusing a visual mesh or not)."""
    geometry = element.geometry
    line = geometry.line or element.line
    limit = ctx.config.collision_face_limit
    if result.face_count <= limit:
        return
    convex = result.convex
    severity = severity_for(ctx.config.targets, {
        target: Severity.INFO if convex and result.face_count <= CONVEX_FACTOR * limit
        else Severity.WARNING for target in COLLIDING})
    if severity is None:
        return  # no selected target collides meshes (RViz, KDL)
    # Isaac Gym's signed-distance collision (<sdf resolution="256"/>: peg-in-hole parts) is
    # made for detailed meshes: chosen on purpose, its hull would fill the hole.
    sdf = 'sdf' in element.extensions
    if sdf:
        severity = Severity.INFO
    shape = ("convex (its volume is its hull's: engines that convexify lose nothing, and "
             "FCL's collide() cost stays flat; only distance queries grow with the faces)"
             if convex else 'not convex (FCL collides every triangle; MuJoCo only its hull)')
    values = (('faces', result.face_count), ('limit', limit), ('filename', geometry.filename),
              ('convex', 'yes' if convex else 'no'))
    if visual is not None:
        # One finding for one problem: the visual mesh reused as collision is too detailed.
        rule = 'collision-reuses-visual-mesh'
        what = (f'the collision mesh {geometry.filename} is the visual mesh of {visual.label} '
                'and has')
        fix = ('make a simplified collision mesh (a decimated convex hull) or use primitives; '
               'keep the detailed mesh for the visual')
    else:
        rule, what = 'collision-mesh-too-complex', f'the collision mesh {geometry.filename} has'
        fix = ('approximate it with boxes, cylinders and spheres, or use a decimated (convex) '
               f'mesh of at most {limit:,} faces')
    if sdf:
        shape += ("; it declares <sdf> (Isaac Gym's signed-distance collision, made for "
                  'detailed meshes), which these engines ignore')
        fix = ('keep it for Isaac Gym; where MoveIt, Gazebo or MuJoCo load the robot too, '
               'give them primitives or a simplified mesh (a convex hull only if the part is '
               'convex: it fills holes and recesses)')
    yield ctx.finding(
        rule, severity,
        f'{what} {result.face_count:,} faces, more than the limit of {limit:,}; it is {shape}',
        link=link.name, element=element.label, line=line, suggestion=fix, values=values)


def grouped_meshes(ctx: CheckContext, findings: List[Finding]) -> Iterator[Finding]:
    """
    Yield one rule's detailed-collision-mesh findings, as one when 3 or more links have them.

    Collision meshes that are the visual meshes on many links (the CAD export's meshes used
    for both), or detailed collision meshes of their own on many links (KUKA's iiwa ships one
    per link), are one choice, fixed once for the robot (a collision export), not per link.

    :param findings: findings of one rule, collision-reuses-visual-mesh or
        collision-mesh-too-complex
    """
    if len(findings) < MODEL_WIDE_MIN:
        yield from findings
        return
    rule = findings[0].rule
    links = tuple(dict.fromkeys(finding.link for finding in findings))
    faces = [int(dict(finding.values)['faces']) for finding in findings]
    convex = sum(1 for finding in findings if dict(finding.values)['convex'] == 'yes')
    limit = ctx.config.collision_face_limit
    counts = f'{min(faces):,}' if min(faces) == max(faces) else \
        f'{min(faces):,} to {max(faces):,}'
    if rule == 'collision-reuses-visual-mesh':
        message = (f'{len(findings)} collision elements use their visual mesh, of {counts} '
                   f'faces (limit {limit:,}; {convex} convex): the detailed visual meshes serve '
                   f'as collision geometry ({listed(links)})')
        suggestion = ('export simplified collision meshes (decimated convex hulls) or use '
                      'primitives; keep the detailed meshes for the visuals')
        values: tuple = ()
    else:
        message = (f'{len(findings)} collision meshes have {counts} faces, more than the '
                   f'limit of {limit:,} ({convex} convex): detailed meshes serve as collision '
                   f'geometry ({listed(links)})')
        suggestion = ('approximate them with boxes, cylinders and spheres, or export '
                      f'decimated (convex) collision meshes of at most {limit:,} faces')
        values = (('limit', limit),)
    yield ctx.finding(
        rule, max(finding.severity for finding in findings), message, line=findings[0].line,
        suggestion=suggestion,
        values=(('count', len(findings)), ('faces_min', min(faces)),
                ('faces_max', max(faces))) + values, links=links)
