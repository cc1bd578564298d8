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
Rules about visual and collision elements: shapes, numbers, meshes, materials.

Mesh problems are errors for collision elements (the simulator loses the body's shape)
and warnings for visuals and custom elements (only the picture suffers).
"""

from __future__ import annotations

from dataclasses import replace
import math
import os
from typing import Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Tuple
from urllib.parse import unquote

import numpy as np

from urdf_link_tools.checks.base import CheckContext, fmt, fmt_range, fmt_vector, Rule
from urdf_link_tools.checks.complexity import grouped_meshes, reused_visuals, too_complex
from urdf_link_tools.checks.model_wide import grouped, HINGE_SIZE, is_hinge, \
    is_unexpanded, MARKER_SIZE, model_choices, MODEL_WIDE_MIN, visible_without_collision, \
    visual_size
from urdf_link_tools.checks.names import NameSuggester
from urdf_link_tools.findings import Finding, LISTED, listed, Severity
from urdf_link_tools.geometry import geometry_values, is_finite, union_bounds
from urdf_link_tools.meshes import MeshInfo, MeshProblem
from urdf_link_tools.meshes.files import ASSIMP_FORMATS
from urdf_link_tools.meshes.reading import LFS_FILE
from urdf_link_tools.meshes.resolve import (near_miss, one_folder_down, one_folder_under,
                                            one_folder_up, sibling_folder)
from urdf_link_tools.model import Box, Cylinder, GeometryElement, Link, Mesh, Sphere
from urdf_link_tools.packages import package_of
from urdf_link_tools.read_policy import (ament_index_shares, ament_prefixes, checkout_root,
                                         inside, leaves_package, PACKAGE_NAME)
from urdf_link_tools.targets import severity_for

RULES = (
    Rule('geometry-degenerate', Severity.ERROR,
         'a zero or negative box size, radius, length or mesh scale on a collision (on a '
         'visual: a warning when negative, an info when zero)',
         'MuJoCo refuses a collision shape of size 0 ("size must be positive") and '
         'collision checkers skip it (the severity follows the targets: an error for MuJoCo, '
         'a warning for MoveIt, Pinocchio and Gazebo, silent for RViz and KDL; a negative '
         'collision size is an error whatever the targets); a negative visual size is a '
         'typo (drawn mirrored or '
         'not at all); an empty visual only draws nothing (a marker); a mesh scale with one '
         'or three negative factors mirrors the mesh (an info: its triangles turn inside '
         'out; two are a half turn, not reported)',
         'give the real dimensions in metres; mirror meshes in the CAD tool instead',
         'URDF link specification (geometry); MuJoCo user_objects.cc (mjCGeom)'),
    Rule('geometry-not-finite', Severity.ERROR, 'a shape dimension or scale is NaN or infinite',
         'the shape cannot be drawn or collided', 'write finite dimensions in metres',
         'URDF link specification (geometry)'),
    Rule('origin-not-finite', Severity.ERROR,
         'an <origin> (inertial, visual, collision or joint) holds NaN or infinity',
         'every transform below it becomes NaN: TF, RViz and simulators break',
         'write finite xyz (m) and rpy (rad)', 'URDF link specification (origin)'),
    Rule('mesh-not-found', Severity.ERROR,
         'a mesh filename cannot be resolved (package://, file://, relative path)',
         'the simulator loses the collision shape (error); the viewer shows nothing for a '
         'visual (warning). The finding lists every location tried; three or more meshes '
         'missing from one package or folder (or a package not found) are one finding, '
         'except a file whose near name exists (a typo, said with the file meant)',
         'fix the path, install or source the package, or pass --package-dir NAME=PATH '
         '(node: package_dirs)',
         'ROS resource_retriever / ament_index conventions'),
    Rule('mesh-unreadable', Severity.ERROR,
         'a mesh file exists but cannot be used: not a regular file, too large, corrupt, '
         'a format this tool does not read (an info on a visual, RViz reads more, and on a '
         'collision in a format Assimp imports, which MoveIt reads; mujoco-mesh-format says '
         'what MuJoCo refuses)',
         'loaders fail or hang on it; the checker refuses it without opening devices or '
         'pipes and within mesh_max_bytes',
         'point to a valid STL, OBJ, DAE, glTF or GLB file', 'trimesh / pycollada loaders'),
    Rule('collision-mesh-too-complex', Severity.WARNING,
         'a collision mesh has more faces than collision_face_limit (5,000 by default), or a '
         "convex one more than 4x that (between: an info; an info too under Isaac Gym's "
         '<sdf>)',
         "FCL (MoveIt, Pinocchio's coal) distance queries grow linearly with the faces "
         '(1.2 ms at 5k, 5.5 ms at 20k measured), collide() stays near 5 us on a convex '
         'mesh; MuJoCo collides every mesh as its hull (8 us at 320 faces, 37 us at 20k). '
         'A concave mesh is costly past the limit; an already convex one (volume >= 95 % '
         'of its hull) only much later. Only for targets that collide meshes',
         'use primitives (box, cylinder, sphere) or a decimated convex mesh (from 3 links '
         'on, one finding for the robot)',
         'URDF link specification (Recommended Mesh Resolution); timings in docs/rules.md'),
    Rule('collision-reuses-visual-mesh', Severity.WARNING,
         'a collision element uses the same mesh file as a visual, and that mesh has more '
         'faces than collision_face_limit (a convex one: 4x; between: an info; an info '
         "too when the collision declares Isaac Gym's <sdf>, signed-distance collision "
         'made for detailed meshes)',
         'reusing a simple visual mesh is normal practice; a detailed one slows collision '
         'checking (this replaces collision-mesh-too-complex for that element)',
         'make a simplified collision mesh or use primitives',
         'URDF link specification (Recommended Mesh Resolution)'),
    Rule('collision-missing', Severity.WARNING,
         'a link with visual geometry (1 cm or more) has no collision, nor has any link '
         'welded to it, or collides as a token under 1 cm across for a part of 5 cm or more '
         '(10x its size: a stand-in, not its shape; 3 or more such tokens are one finding); '
         'an info for a moving link with mass and nothing to draw',
         'the robot passes through obstacles and itself in planning and simulation',
         'add a <collision> (a primitive around the visual is often enough)',
         'URDF link specification (collision)'),
    Rule('material-undefined', Severity.WARNING,
         'a visual names a material that is defined nowhere (no colour, no texture); an '
         'info when the name is empty (urdfdom skips it); one finding per name, and one for '
         'the robot from 2 names on (a materials file not included)',
         'urdfdom keeps an empty material; RViz draws the part with the default colour',
         'define the material at the top level of <robot>, or give it a <color>',
         'urdfdom model.cpp (material lookup)'),
    Rule('material-color-range', Severity.WARNING,
         'an rgba component is outside [0, 1]',
         'the specification requires [0, 1]; viewers clamp or mis-blend the colour',
         'divide 0..255 values by 255', 'URDF link specification (material color)'),
)


def _severity(element: GeometryElement) -> Severity:
    return Severity.ERROR if element.group == 'collision' else Severity.WARNING


def _elements(link: Link):
    return link.visuals + link.collisions + link.custom


def check_elements(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    """Check the numbers, shapes and mesh files of one link's elements."""
    reused = reused_visuals(ctx, link)
    inertial = link.inertial
    if inertial is not None and not is_finite(inertial.origin.xyz + inertial.origin.rpy):
        yield _origin(ctx, link.name, 'inertial/origin', inertial.origin)
    for element in _elements(link):
        origin = element.origin
        if not is_finite(origin.xyz + origin.rpy):
            yield _origin(ctx, link.name, f'{element.label}/origin', origin, element.line)
        geometry = element.geometry
        if geometry is not None and not (_plain(geometry) and _quiet_mesh(ctx, element)):
            # Detailed collision meshes (a visual one reused or not) are judged over the
            # robot (check_reuses): on many links they are one export choice.
            yield from (finding for finding in _shape(ctx, link, element,
                                                      reused.get(id(element)))
                        if finding.rule not in _OVER_THE_ROBOT)


#: the rules check_reuses reports, each grouped when 3 or more links share it
_OVER_THE_ROBOT = frozenset(('collision-reuses-visual-mesh', 'collision-mesh-too-complex'))


def check_reuses(ctx: CheckContext) -> Iterator[Finding]:
    """
    Flag detailed collision meshes: on many links one choice, said once.

    A visual mesh reused as collision (collision-reuses-visual-mesh) and a collision mesh
    of its own (collision-mesh-too-complex) are grouped apart: they are fixed differently.
    """
    found: Dict[str, List[Finding]] = {rule: [] for rule in sorted(_OVER_THE_ROBOT)}
    for link in ctx.robot.links:
        reused = reused_visuals(ctx, link)
        for element in link.collisions:
            result = ctx.mesh_for(element) if isinstance(element.geometry, Mesh) else None
            if isinstance(result, MeshInfo):
                for finding in too_complex(ctx, link, element, result,
                                           reused.get(id(element))):
                    found[finding.rule].append(finding)
    for rule in sorted(_OVER_THE_ROBOT):
        yield from grouped_meshes(ctx, found[rule])


def _mirrored(ctx: CheckContext, link: Link, element: GeometryElement) -> Optional[Finding]:
    """Return the note on a mesh mirrored by a finite, non-zero, negative scale, or None."""
    geometry = element.geometry
    if not isinstance(geometry, Mesh):
        return None
    scale = geometry.scale
    # Two negative factors ("-1 -1 1") are a half turn, not a mirror: only an odd count of
    # them (a negative determinant) reverses the triangles' winding (TIAGo's pal_gripper).
    if not all(math.isfinite(value) and value != 0.0 for value in scale) or \
            sum(value < 0.0 for value in scale) % 2 == 0:
        return None
    return ctx.finding(
        'geometry-degenerate', Severity.INFO,
        f'the mesh scale "{fmt_vector(scale)}" is negative: it mirrors the mesh, which '
        'reverses the winding of its triangles (their normals point inwards for renderers '
        'and collision libraries that do not re-orient them)',
        link=link.name, element=element.label, line=geometry.line or element.line,
        suggestion='fine for a deliberate mirror image; if a viewer shows the part inside '
                   'out, export a mirrored mesh and use a positive scale',
        values=(('scale', fmt_vector(scale)),))


def check_mirrored(ctx: CheckContext) -> Iterator[Finding]:
    """Note meshes mirrored by a negative scale: on many elements one choice, said once."""
    found = [finding for link in ctx.robot.links for element in _elements(link)
             for finding in (_mirrored(ctx, link, element),) if finding is not None]
    # From two on: a left part drawn from the right one's mesh is a pair (two mirrored
    # wheels of one macro, or one wheel's visual and collision), one choice (sweep L).
    if len(found) < 2:
        yield from found
        return
    links = tuple(dict.fromkeys(finding.link for finding in found))
    yield ctx.finding(
        'geometry-degenerate', Severity.INFO,
        f'{len(found)} mesh elements are mirrored by a negative scale, which reverses the '
        'winding of their triangles (normals point inwards for renderers and collision '
        'libraries that do not re-orient them): '
        + (f'{len(links)} links, {listed(links)}' if len(links) > 1 else f'link {links[0]}'),
        line=found[0].line,
        suggestion='fine for deliberate mirror images (left and right parts from one '
                   'mesh); if a viewer shows them inside out, export mirrored meshes and '
                   'use positive scales',
        values=(('count', len(found)), ('links', listed(links))), links=links)


def check_joint_origins(ctx: CheckContext) -> Iterator[Finding]:
    """Flag joint origins that are not finite (on the link each joint places)."""
    for joint in ctx.robot.joints:
        if not is_finite(joint.origin.xyz + joint.origin.rpy):
            yield _origin(ctx, joint.child, f'joint "{joint.name}" origin', joint.origin,
                          joint.line)


def _origin(ctx: CheckContext, link: str, element: str, origin, line=None) -> Finding:
    return ctx.finding(
        'origin-not-finite', Severity.ERROR,
        f'the origin is not finite: xyz="{fmt_vector(origin.xyz)}" rpy="{fmt_vector(origin.rpy)}"',
        link=link, element=element, line=origin.line or line,
        suggestion='write finite numbers: xyz in metres, rpy in radians',
        values=(('xyz', fmt_vector(origin.xyz)), ('rpy', fmt_vector(origin.rpy))))


def _plain(geometry) -> bool:
    """Return True when every size or scale is finite and positive: no shape finding."""
    kind = geometry.kind
    if kind == 'box':
        values = geometry.size
    elif kind == 'mesh':
        values = geometry.scale
    elif kind == 'cylinder':
        values = (geometry.radius, geometry.length)
    else:
        values = (geometry.radius,)
    return all(0.0 < value < math.inf for value in values)


def _quiet_mesh(ctx: CheckContext, element: GeometryElement) -> bool:
    """Return True when _mesh has nothing to say (always for primitives)."""
    if element.geometry.kind != 'mesh':
        return True
    result = ctx.mesh_for(element)
    if isinstance(result, MeshProblem):
        return False
    return not isinstance(result, MeshInfo) or element.group != 'collision' or \
        result.face_count <= ctx.config.collision_face_limit


def _shape(ctx: CheckContext, link: Link, element: GeometryElement,
           visual: Optional[GeometryElement]) -> Iterator[Finding]:
    geometry = element.geometry
    if _plain(geometry):  # the common case, decided without building the messages' data
        if isinstance(geometry, Mesh):
            yield from _mesh(ctx, link, element, visual)
        return
    line = geometry.line or element.line
    named = tuple(zip(('scale x', 'scale y', 'scale z'), geometry.scale)) \
        if isinstance(geometry, Mesh) else _named_sizes(geometry)
    bad = [(name, value) for name, value in named if not math.isfinite(value)]
    if bad:
        yield ctx.finding(
            'geometry-not-finite', Severity.ERROR,
            f'the <{geometry.kind}> has values that are not finite: '
            + ', '.join(f'{name}={value}' for name, value in bad),
            link=link.name, element=element.label, line=line,
            suggestion='write finite dimensions in metres',
            values=tuple((name, str(value)) for name, value in bad))
        return
    if isinstance(geometry, Mesh):
        zero = [(name, value) for name, value in named if value == 0.0]
        severity = _degenerate_severity(ctx, element, False) if zero else None
        if severity is not None:
            yield ctx.finding(
                'geometry-degenerate', severity,
                f'the mesh scale "{fmt_vector(geometry.scale)}" has a zero component: the '
                'mesh collapses to a flat or empty shape'
                + _degenerate_effect(ctx, element, False),
                link=link.name, element=element.label, line=line,
                suggestion='use scale="1 1 1" for a mesh in metres, "0.001 0.001 0.001" for '
                           'one in millimetres',
                values=(('scale', fmt_vector(geometry.scale)),))
        # A negative scale (a mirror image) is judged over the robot (check_mirrored).
        yield from _mesh(ctx, link, element, visual)
    # A primitive of zero or negative size is judged over the robot (check_degenerate_shapes).


def _degenerate_primitive(ctx: CheckContext, link: Link, element: GeometryElement,
                          named: Tuple[Tuple[str, float], ...],
                          line: Optional[int]) -> Optional[Finding]:
    """Return the finding of a box, cylinder or sphere of zero or negative size, else None."""
    geometry = element.geometry
    bad = [(name, value) for name, value in named if value <= 0.0]
    if not bad:
        return None
    negative = any(value < 0.0 for _, value in bad)
    severity = _degenerate_severity(ctx, element, negative)
    if severity is None:
        return None
    # Drake reads a sphere of radius 0 as a point contact (its Atlas and Valkyrie feet).
    point = isinstance(geometry, Sphere) and geometry.radius == 0.0 and \
        element.group == 'collision'
    return ctx.finding(
        'geometry-degenerate', severity,
        f'the <{geometry.kind}> has zero or negative dimensions: '  # type: ignore[union-attr]
        + ', '.join(f'{name}={fmt(value)}' for name, value in bad)
        + _degenerate_effect(ctx, element, negative)
        + (' (Drake reads it as a point contact; other engines have none)' if point else ''),
        link=link.name, element=element.label, line=line,
        suggestion=('for an engine other than Drake, a small sphere (a few millimetres) makes '
                    'the contact point' if point else
                    f'remove the <{element.group}> (a frame needs no geometry), or give the '
                    'real dimensions in metres' if _frame_only(link) else
                    'give the real dimensions in metres (all greater than zero)'),
        values=tuple((name, value) for name, value in bad))


def _frame_only(link: Link) -> bool:
    """
    Return True for a massless link whose every shape has a zero size: a frame.

    SCITOS's base_footprint carries a box of size 0 (sweep V): "give the real dimensions"
    asked for a part that a footprint frame does not have.
    """
    if link.inertial is not None and link.mass > 0.0:
        return False
    shapes = [element.geometry for element in link.visuals + link.collisions
              if element.geometry is not None]
    return bool(shapes) and all(
        not isinstance(shape, Mesh) and min(geometry_values(shape), default=0.0) <= 0.0
        for shape in shapes)


def check_degenerate_shapes(ctx: CheckContext) -> Iterator[Finding]:
    """
    Flag boxes, cylinders and spheres of zero or negative size, 3 or more alike once.

    Drake's point-contact spheres: 12 on Atlas's feet, 16 on Valkyrie's.
    """
    alike: Dict[Tuple[object, ...], List[Finding]] = {}
    for link in ctx.robot.links:
        found_here: List[Tuple[GeometryElement, Finding]] = []
        for element in _elements(link):
            geometry = element.geometry
            if geometry is None or isinstance(geometry, Mesh) or _plain(geometry):
                continue
            named = _named_sizes(geometry)
            if not all(math.isfinite(value) for _, value in named):
                continue  # geometry-not-finite says it
            found = _degenerate_primitive(ctx, link, element, named,
                                          geometry.line or element.line)
            if found is not None:
                found_here.append((element, found))
        for found in _one_per_shape(found_here):
            alike.setdefault((found.severity, found.message), []).append(found)
    for (_, message), findings in alike.items():
        yield from grouped(ctx, findings, 'shapes of one zero or negative size')


def _same_shape(first: GeometryElement, second: GeometryElement) -> bool:
    """Return True for two elements of one shape, size and place (their lines apart)."""
    return type(first.geometry) is type(second.geometry) and \
        _named_sizes(first.geometry) == _named_sizes(second.geometry) and \
        first.origin.xyz == second.origin.xyz and first.origin.rpy == second.origin.rpy


def _one_per_shape(found: List[Tuple[GeometryElement, Finding]]) -> List[Finding]:
    """
    Return a link's degenerate-shape findings with a visual that repeats a collision merged.

    Kinova's two-arm root: one zero-size box drawn and collided, an info for the visual and
    an error for the collision; the collision's finding says the visual is the same shape.
    """
    collisions = [(element, finding) for element, finding in found
                  if element.group == 'collision']
    kept: List[Finding] = []
    twins: Dict[int, List[str]] = {}  # id of a collision's finding -> its visuals' labels
    for element, finding in found:
        twin = next((theirs for other, theirs in collisions if element.group == 'visual'
                     and _same_shape(other, element)), None)
        if twin is None:
            kept.append(finding)
        else:
            twins.setdefault(id(twin), []).append(element.label)
    return [replace(finding, message=f'{finding.message}; {", ".join(twins[id(finding)])} '
                    f'{"is" if len(twins[id(finding)]) == 1 else "are"} the same shape')
            if id(finding) in twins else finding for finding in kept]


def _named_sizes(geometry) -> Tuple[Tuple[str, float], ...]:
    """Return a box's, cylinder's or sphere's dimensions by name."""
    if isinstance(geometry, Box):
        return tuple(zip(('x', 'y', 'z'), geometry.size))
    if isinstance(geometry, Cylinder):
        return (('radius', geometry.radius), ('length', geometry.length))
    return (('radius', geometry.radius),)


#: the targets that check collisions between links (and skip a shape of size 0)
CHECKERS = frozenset({'moveit', 'pinocchio', 'gazebo'})


def _degenerate_severity(ctx: CheckContext, element: GeometryElement,
                         negative: bool) -> Optional[Severity]:
    """
    Return the severity of a shape of zero or negative size, None when no target minds.

    MuJoCo refuses a collision shape of size 0 ("size 0 must be positive", verified in
    test_checks_mujoco_claims.py) and the collision checkers (MoveIt's FCL, Pinocchio's
    coal, Gazebo's engines) skip it: the part collides with nothing; RViz and KDL do not
    collide. A negative size is no real part's, whatever the targets. An empty visual is
    only a marker that draws nothing, while a negative visual size is a typo worth fixing
    (viewers mirror or drop it).
    """
    if element.group == 'collision':
        if negative:
            return Severity.ERROR
        return severity_for(ctx.config.targets, {'mujoco': Severity.ERROR,
                                                 **dict.fromkeys(CHECKERS, Severity.WARNING)})
    return Severity.WARNING if negative else Severity.INFO


def _degenerate_effect(ctx: CheckContext, element: GeometryElement, negative: bool) -> str:
    if element.group == 'collision':
        selected = ctx.config.targets
        said = (['MuJoCo refuses it ("size must be positive")'] if 'mujoco' in selected
                else []) + (['collision checkers skip it'] if selected & CHECKERS else [])
        if said:
            return ': ' + ' and '.join(said)
        return ': no real part has a negative size' if negative else ''
    if negative:
        return ': no real part has a negative size; viewers draw it mirrored or not at all'
    return ': nothing is drawn (fine for an invisible marker)'


def _mesh(ctx: CheckContext, link: Link, element: GeometryElement,
          visual: Optional[GeometryElement]) -> Iterator[Finding]:
    geometry = element.geometry
    result = ctx.mesh_for(element)
    line = geometry.line or element.line
    if isinstance(result, MeshProblem) and result.rule == 'mesh-not-found' and \
            is_unexpanded(geometry.filename):
        return  # xacro-unexpanded says it once for the robot
    if isinstance(result, MeshProblem) and id(element) in _grouped_missing(ctx):
        return  # one finding for the package, folder or format (check_missing_places)
    twins = _same_file(ctx, link, element, result) if isinstance(result, MeshProblem) else ()
    if twins and element.group == 'visual':
        return  # said once, on the collision that names the same file
    if isinstance(result, MeshProblem):
        tried = '; '.join(result.tried) if result.tried else 'nothing could be tried'
        meant = _near_miss(ctx, element, result) or _one_down(ctx, element, result) or \
            _up(ctx, element, result) or _nearby(ctx, element, result, one_folder_under)
        own = _in_own_package(ctx, geometry.filename) if meant is None else None
        if result.unsupported_format is not None:
            suggestion = ('to have it checked (and loaded by MuJoCo), export an STL, OBJ or DAE '
                          'copy (Blender, or `assimp export`) and name it')
        elif result.placeholder is not None:
            suggestion = _placeholder_fix(result.placeholder)
        elif result.rule != 'mesh-not-found':
            suggestion = 'replace the file by a valid STL, OBJ, DAE, glTF or GLB mesh'
        elif _archive_beside(ctx, element, result) is not None:
            suggestion = (f'an archive beside it, {_archive_beside(ctx, element, result)}, '
                          f'probably holds it: {_EXTRACT}; tried: {tried}')
        elif meant is not None:
            suggestion = f'did you mean {meant}? That file exists; tried: {tried}'
        elif own is not None:
            suggestion = (f"did you mean {own}? That file exists in the description's own "
                          f'package; tried: {tried}')
        elif geometry.filename.strip().startswith('package://'):
            suggestion = ('fix the filename, or make the package findable (source its '
                          'workspace, or pass --package-dir NAME=PATH; in the node, the '
                          f'package_dirs parameter or launch argument); tried: {tried}')
        elif _relative(geometry.filename):
            suggestion = ("fix the path; a relative path is looked up from the URDF's "
                          'folder by MuJoCo, PyBullet and this checker, while ROS tools (RViz, '
                          'Gazebo, MoveIt) expect a package:// or file:// URI: name the mesh '
                          f'package://PACKAGE/... for all of them to find it; tried: {tried}')
        elif _in_named_package(ctx, geometry.filename) is not None:
            named = _in_named_package(ctx, geometry.filename)
            suggestion = (f'name it {named}: that file exists in the package its path names, '
                          'and a package URI works on every machine (an absolute path only on '
                          f'the one that has the file); tried: {tried}')
        else:
            suggestion = ('fix the path; an absolute path works only on the machine that has '
                          'the file: name the mesh package://PACKAGE/... (xacro: '
                          f'$(find PACKAGE) becomes package://PACKAGE); tried: {tried}')
        # Not silent about what else it costs: a link whose size is unknown is not judged
        # by the rules that need it (TurtleBot3 without burger_base.stl: its caster's
        # impossible tensor went unsaid).
        also = f' (the same file as its {", ".join(twins)})' if twins else ''
        # (--ignore-package leaves out a package the job does not have; as _missing_place
        # says 'package', without its look at the file system for the other kinds)
        absent = (('package', result.missing_package),) if result.missing_package and \
            result.unsupported_format is None and result.placeholder is None else ()
        yield ctx.finding(
            result.rule, _problem_severity(ctx, element, result),
            result.message + also + _unchecked(element)
            + (_MUJOCO_LOADS if _mujoco_loads(ctx, element) and
               result.rule == 'mesh-not-found' else ''),
            link=link.name, element=element.label, line=line, suggestion=suggestion,
            values=(('filename', geometry.filename), ('tried', tried))
            + ((('also', ', '.join(twins)),) if twins else ()) + absent)
        return
    if not isinstance(result, MeshInfo) or element.group != 'collision':
        return
    yield from too_complex(ctx, link, element, result, visual)


def _relative(filename: str) -> bool:
    """Return True for a mesh filename that is a relative path (no scheme, not absolute)."""
    name = filename.strip()
    return '://' not in name and not name.startswith(('/', '\\')) and \
        not (len(name) > 1 and name[1] == ':')  # (a Windows drive: C:\\...)


def _same_file(ctx: CheckContext, link: Link, element: GeometryElement,
               problem: MeshProblem) -> Tuple[str, ...]:
    """
    Return the labels of the link's elements of the other group with the same file problem.

    The usual <visual> and <collision> of one mesh: one missing file, one finding, said on
    the collision (at its severity), which names the visuals; a visual's is left to it.
    """
    name = element.geometry.filename.strip()  # type: ignore[union-attr]
    others = link.collisions if element.group == 'visual' else link.visuals
    found = []
    for other in others:
        geometry = other.geometry
        if isinstance(geometry, Mesh) and geometry.filename.strip() == name:
            result = ctx.mesh_for(other)
            if isinstance(result, MeshProblem) and result.rule == problem.rule and \
                    id(other) not in _grouped_missing(ctx):
                found.append(other.label)
    return tuple(found)


def _placeholder_fix(placeholder: str) -> str:
    """Say how to get the meshes a placeholder file stands for."""
    if placeholder == LFS_FILE:
        return ('the repository keeps its meshes in Git LFS: fetch them (`git lfs pull`; '
                'GitHub Actions: actions/checkout with `lfs: true`; GitLab CI: '
                'GIT_LFS_SKIP_SMUDGE unset), then check again')
    return ('add the meshes (an export or a download step that wrote empty files?), or fix '
            'the filenames')


def _problem_severity(ctx: CheckContext, element: GeometryElement,
                      problem: MeshProblem) -> Severity:
    """
    Return INFO for a mesh in a format this tool does not read (its limit), else as usual.

    A visual in any such format (RViz may read it), a collision in one Assimp imports
    (MoveIt reads it; mujoco-mesh-format says what MuJoCo refuses). A visual mesh MuJoCo
    loads (the file's <compiler discardvisual="false">) and cannot find is an error, as a
    collision's: MuJoCo refuses the robot (H1_2's and AzureLoong's URDFs, sweep Q: exit 0).
    """
    if problem.unsupported_format is not None and (
            element.group == 'visual' or problem.unsupported_format in ASSIMP_FORMATS):
        return Severity.INFO
    if _mujoco_loads(ctx, element) and problem.rule == 'mesh-not-found':
        return Severity.ERROR
    return _severity(element)


def _mujoco_loads(ctx: CheckContext, element: GeometryElement) -> bool:
    """Return True for a visual that MuJoCo, a target, loads as a mesh (discardvisual)."""
    return element.group == 'visual' and ctx.robot.mujoco_keeps_visuals and \
        'mujoco' in ctx.config.targets


#: what a visual mesh not found costs where MuJoCo loads the visuals
_MUJOCO_LOADS = ('; the file\'s <mujoco><compiler discardvisual="false"> has MuJoCo load the '
                 'visual meshes: it refuses the robot ("resource not found")')


def _unchecked(element: GeometryElement) -> str:
    """Say what a mesh that was not read leaves unchecked."""
    rules = 'the inertia bound of its body, its density, its overlaps' \
        if element.group == 'collision' else 'the inertia bound of its body'
    return (f"; until it is read, the rules that need the link's size ({rules}) skip the "
            'link and the links welded to it')


#: archives a package may keep its meshes in, extracted when it is built
_ARCHIVES = ('.tar.gz', '.tgz', '.tar.xz', '.tar.bz2', '.zip')
_EXTRACT = ('build the package (its CMakeLists may extract such archives: then check the '
            'install space), or extract them where they lie')


#: the missing meshes for which files of near names are looked for, at most (each looks
#: through up to 10,000 entries of a folder: 20,000 missing meshes beside 9,900 files took
#: 354 s, review 11)
SUGGESTED_MESHES = 50


def _suggestable(ctx: CheckContext, element: GeometryElement, problem: MeshProblem) -> bool:
    """
    Return True when files near a missing mesh may be looked for and named.

    Only in the description's own folders and packages: for an absolute path or a file://
    URI, or a relative one leading out of the checkout holding the description
    (../../../../home/.bashrc: "did you mean ../../../../home/USER/.bashrc? That file
    exists", review 11), listing its folder would tell a pull request the names of files
    anywhere on the runner. A package:// path stays in its package (the resolver refuses a
    '..' leaving it). And for the first :data:`SUGGESTED_MESHES` missing meshes only.
    """
    if problem.rule != 'mesh-not-found' or not problem.tried:
        return False
    uri = element.geometry.filename.strip()  # type: ignore[union-attr]
    if uri.startswith(('/', 'file:')):
        return False
    allowed: Dict[int, bool] = ctx.memo.setdefault(('suggestable', None), {})  # type: ignore
    if id(element) not in allowed:
        own = uri.startswith('package://') or _in_checkout(ctx, problem.tried[0])
        allowed[id(element)] = own and sum(allowed.values()) < SUGGESTED_MESHES
    return allowed[id(element)]


def _in_checkout(ctx: CheckContext, path: str) -> bool:
    """Return True for a path inside the git work tree (or package) of the description."""
    key = ('checkout root', None)
    if key not in ctx.memo:
        source = ctx.robot.source
        ctx.memo[key] = os.path.realpath(checkout_root(source)) \
            if source and os.path.isfile(source) else None
    root = ctx.memo[key]
    return root is not None and inside(os.path.realpath(path), root)  # type: ignore[arg-type]


def _archive_beside(ctx: CheckContext, element: GeometryElement,
                    problem: MeshProblem) -> Optional[str]:
    """
    Return the archive beside a missing mesh that probably holds it, named as found.

    Dataspeed's dbw_mkz_description ships meshes/mkz_13/body.tar.gz, which its CMakeLists
    extracts at build time: checked from source, body.dae "does not exist" (Audibot's
    meshes/meshes.tar.xz, named after its folder, sweep U). Only for a
    file in the description's own folders and packages (as :func:`_near_miss`).
    """
    if not _suggestable(ctx, element, problem):
        return None
    path = problem.tried[0]
    stem = path[:-len(os.path.splitext(path)[1])] if os.path.splitext(path)[1] else path
    folder = os.path.dirname(path)
    inside = os.path.join(folder, os.path.basename(folder))  # Audibot's meshes/meshes.tar.xz
    for candidate in [base + ext for base in (stem, folder, inside) for ext in _ARCHIVES]:
        if os.path.isfile(candidate):
            return os.path.basename(candidate)
    return None


def _near_miss(ctx: CheckContext, element: GeometryElement,
               problem: MeshProblem) -> Optional[str]:
    """
    Return the existing file a mesh that was not found probably meant, looked for once.

    Only in the description's own folders and packages: for an absolute path or a file://
    URI, listing its folder would tell a pull request the names of files anywhere on the
    runner (red-team review: "did you mean /elsewhere/SECRET_MESH.stl? That file exists").
    """
    return _nearby(ctx, element, problem, near_miss)


def _one_down(ctx: CheckContext, element: GeometryElement,
              problem: MeshProblem) -> Optional[str]:
    """Return the file of a missing mesh's name one folder down (as :func:`_near_miss`)."""
    return _nearby(ctx, element, problem, one_folder_down)


def _nearby(ctx: CheckContext, element: GeometryElement, problem: MeshProblem,
            finder: Callable[[str, Sequence[str]], Optional[str]]) -> Optional[str]:
    """Return what a finder of files near a missing mesh names, looked for once, or None."""
    if not _suggestable(ctx, element, problem):
        return None
    key = (finder.__name__, id(element))
    if key not in ctx.memo:
        ctx.memo[key] = finder(element.geometry.filename, problem.tried)  # type: ignore
    return ctx.memo[key]  # type: ignore[return-value]


def _down_fix(ctx: CheckContext,
              elements: List[Tuple[Link, GeometryElement, MeshProblem]]) -> str:
    """Say where the missing files of a group are one folder down, '' if none is."""
    down = [found for found in (_one_down(ctx, element, problem)
                                for _, element, problem in elements) if found]
    if not down:
        return ''
    have = ('all of them' if len(down) == len(elements) else
            f'{len(down)} of the {len(elements)} meshes')
    return (f'the files are in sub-folders: fix the paths (for the first, did you mean '
            f'{down[0]}? That file exists; one is there for {have}); ')


def _up(ctx: CheckContext, element: GeometryElement, problem: MeshProblem) -> Optional[str]:
    """
    Return the file a relative mesh path names one folder above the URDF's (own files).

    As a package URI when the description's package holds it (the path was written from
    the package's root), else as ``../PATH``.
    """
    found = _nearby(ctx, element, problem, one_folder_up)
    source = ctx.robot.source
    if found is None or not source or not os.path.isfile(source):
        return None
    path = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(source)), found))
    if not os.path.isfile(path) or not _in_checkout(ctx, path):
        return None
    own = package_of(source, ctx.memo.setdefault(('package folders', None), {}))
    root = os.path.realpath(own.root) if own is not None else None
    if root is not None and os.path.realpath(path).startswith(root + os.sep):
        return f'package://{own.name}/' + os.path.relpath(  # type: ignore[union-attr]
            os.path.realpath(path), root).replace(os.sep, '/')
    return found


def _sibling(ctx: CheckContext, element: GeometryElement,
             problem: MeshProblem) -> Optional[str]:
    """Return the file a missing folder's mesh names through a sibling folder (own files)."""
    return _nearby(ctx, element, problem, sibling_folder)


def _missing_place(ctx: CheckContext, element: GeometryElement,
                   problem: MeshProblem) -> Optional[Tuple[str, str]]:
    """
    Return where a mesh that was not found should have been, or None to report it alone.

    ('package', name) of a package that was not found, ('folder', path) of an absolute
    folder that does not exist; for a file missing from a package or folder that exists,
    ('package files', name) or ('folder files', path), unless a file of a near name exists
    there (a typo, said with the file it probably meant). A file in a format this tool does
    not read is grouped by it: ('format', '.3ds') (AUBO's visuals, 7 per robot).
    """
    if problem.unsupported_format is not None:
        return ('format', problem.unsupported_format)
    uri = element.geometry.filename.strip()  # type: ignore[union-attr]
    if uri.startswith('package://') and not problem.tried and \
            '/' not in uri[len('package://'):].strip('/'):
        # package://FILE, no package named (old onshape-to-robot output): one style
        return ('no package', 'package://')
    if problem.placeholder is not None:
        return ('placeholder', problem.placeholder)
    if problem.missing_package:
        return ('package', problem.missing_package)
    if problem.missing_folder:
        return ('folder', problem.missing_folder)
    if problem.rule == 'mesh-not-found' and problem.tried and \
            not uri.startswith(('/', 'file://')):
        # A folder of the description's own (or of its package) that is not there: its
        # files are one gap, whatever near names exist elsewhere (Bullet's kuka_iiwa
        # model_for_sdf.urdf: meshes/coarse/, 8 files, each said apart with a guess).
        folder = os.path.dirname(problem.tried[0])
        if folder and not os.path.isdir(folder):
            # the highest one missing: Rokae's meshes/xMateER7p/ lacks collision/ and
            # visual/, one gap (sweep T: a finding for each)
            while not os.path.isdir(os.path.dirname(folder)) and \
                    os.path.dirname(folder) != folder:
                folder = os.path.dirname(folder)
            return ('absent folder', folder)
    if problem.rule != 'mesh-not-found' or not problem.tried or \
            _near_miss(ctx, element, problem) is not None:
        return None
    if uri.startswith('package://'):
        name = uri[len('package://'):].split('/', 1)[0]
        if name:
            return ('package files', name)
    return ('folder files', os.path.dirname(problem.tried[0]))


def _missing_places(ctx: CheckContext) \
        -> Dict[Tuple[str, str], List[Tuple[Link, GeometryElement, MeshProblem]]]:
    """Return, per package or folder that was not found (or format), its mesh elements (once)."""
    key = ('missing places', None)
    if key not in ctx.memo:
        found: Dict[Tuple[str, str], List[Tuple[Link, GeometryElement, MeshProblem]]] = {}
        for link in ctx.robot.links:
            for element in _elements(link):
                geometry = element.geometry
                result = ctx.mesh_for(element) if isinstance(geometry, Mesh) else None
                if not isinstance(result, MeshProblem) or \
                        is_unexpanded(geometry.filename):  # type: ignore[union-attr]
                    continue
                place = _missing_place(ctx, element, result)
                if place is not None:
                    found.setdefault(place, []).append((link, element, result))
        ctx.memo[key] = found
    return ctx.memo[key]  # type: ignore[return-value]


def _grouped_missing(ctx: CheckContext) -> FrozenSet[int]:
    """Return the ids of the mesh elements reported in a group (check_missing_places)."""
    key = ('missing grouped', None)
    if key not in ctx.memo:
        ctx.memo[key] = frozenset(id(element) for elements in _missing_places(ctx).values()
                                  if len(elements) >= MODEL_WIDE_MIN
                                  for _, element, _ in elements)
    return ctx.memo[key]  # type: ignore[return-value]


def _in_own_package(ctx: CheckContext, uri: str) -> Optional[str]:
    """
    Return ``package://OWN/rest`` for a mesh of a package not found that OWN holds, or None.

    Scout's scout_v2.urdf names package://robot_description/..., a package of another
    checkout's layout; the file is in the package that holds the description. Only files
    inside that package (no path leading out of it), which is the input's own.
    """
    uri = uri.strip()
    if not uri.startswith('package://'):
        return None
    key = ('own package', uri)
    if key not in ctx.memo:
        found = None
        source = ctx.robot.source
        own = package_of(source, ctx.memo.setdefault(('package folders', None), {})) \
            if source and os.path.isfile(source) else None
        name, _, rest = uri[len('package://'):].partition('/')
        if own is not None and rest and name != own.name:
            root = os.path.realpath(own.root)
            path = os.path.realpath(os.path.join(root, rest))
            if path.startswith(root + os.sep) and os.path.isfile(path):
                found = f'package://{own.name}/{rest}'
            elif path.startswith(root + os.sep):
                found = one_folder_down(f'package://{own.name}/{rest}', [path])
        ctx.memo[key] = found
    return ctx.memo[key]  # type: ignore[return-value]


#: the most folders of an absolute path tried as a package's name, from the file up
_PACKAGE_GUESSES = 8


def _in_named_package(ctx: CheckContext, uri: str) -> Optional[str]:
    """
    Return ``package://NAME/rest`` for an absolute mesh path that names a package holding it.

    Nachi's MZ07L with its D405 (sweep S) names file:///home/hkclr/robostore_ws/install/
    realsense2_description/share/realsense2_description/meshes/d405.stl, the author's
    machine; the package realsense2_description (given, or in the ament index) holds
    meshes/d405.stl. Only packages a package:// URI could name anyway, and files inside them.
    """
    path = uri.strip()
    if path.startswith('file://'):
        path = unquote(path[len('file://'):])
    if not path.startswith('/'):
        return None
    key = ('named package', path)
    if key not in ctx.memo:
        found = None
        parts = path.split('/')
        given = dict(ctx.config.package_dirs)
        prefixes = ament_prefixes()
        for index in range(len(parts) - 2, max(0, len(parts) - 2 - _PACKAGE_GUESSES), -1):
            name, rest = parts[index], '/'.join(parts[index + 1:])
            if not PACKAGE_NAME.fullmatch(name) or '..' in parts[index + 1:]:
                continue
            roots = ([given[name]] if name in given else []) + list(
                ament_index_shares(name, prefixes))
            for root in roots:
                root = os.path.realpath(root)
                candidate = os.path.realpath(os.path.join(root, rest))
                if candidate.startswith(root + os.sep) and os.path.isfile(candidate) and \
                        leaves_package(candidate) is None:
                    found = f'package://{name}/{rest}'
                    break
            if found:
                break
        ctx.memo[key] = found
    return ctx.memo[key]  # type: ignore[return-value]


def _owned(ctx: CheckContext, files: Tuple[str, ...]) -> str:
    """Say which of a missing package's files the description's own package holds."""
    owned = [found for found in (_in_own_package(ctx, name) for name in files) if found]
    if not owned:
        return ''
    return (f"did you mean {owned[0]}? That file exists in the description's own package "
            f'({len(owned)} of the {len(files)} files {"is" if len(owned) == 1 else "are"} '
            'there); or ')


def _folder_beside(ctx: CheckContext, name: str) -> Optional[str]:
    """
    Return a folder of a missing package's name beside the description (or one up), or None.

    pybullet_data's xarm6_robot.urdf names package://xarm_description/..., a folder (no
    package.xml) next to it, as Bullet finds it. Relative to the working directory when
    below it.
    """
    source = ctx.robot.source
    if not source or not os.path.isfile(source):
        return None  # a description from a topic, or standard input
    here = os.path.dirname(os.path.abspath(source))
    for folder in (here, os.path.dirname(here)):
        candidate = os.path.join(folder, name)
        if os.path.isdir(candidate):
            relative = os.path.relpath(candidate)
            return relative if not relative.startswith('..') else candidate
    return None


def check_missing_places(ctx: CheckContext) -> Iterator[Finding]:
    """Report the missing meshes of one package or folder (or of one format) once, from 3 on."""
    for (kind, name), elements in _missing_places(ctx).items():
        if len(elements) < MODEL_WIDE_MIN:
            continue  # per element (check_elements)
        links = tuple(dict.fromkeys(link.name for link, _, _ in elements))
        collisions = sum(1 for _, element, _ in elements if element.group == 'collision')
        first = elements[0][1]
        counted = (f'{len(elements)} meshes ({collisions} collision) on {len(links)} links '
                   f'are not checked ({listed(links)}), nor the rules that need those '
                   "links' sizes (the inertia bound of their bodies)")
        tried = elements[0][2].tried
        files = tuple(dict.fromkeys(
            element.geometry.filename.strip() for _, element, _ in elements))  # type: ignore
        if kind == 'format':
            message = (f'{len(elements)} meshes ({collisions} collision) on {len(links)} links '
                       f'are {name} files, which this tool does not read (it reads STL, OBJ, '
                       f'DAE, glTF and GLB): they are not checked ({listed(links)}), nor the '
                       "rules that need those links' sizes (the inertia bound of their "
                       'bodies); RViz and MoveIt load many more formats through Assimp, MuJoCo '
                       'reads STL, OBJ and MSH')
            suggestion = ('to have them checked (and loaded by MuJoCo), export STL, OBJ or DAE '
                          'copies (Blender, or `assimp export`) and name those')
        elif kind == 'no package':
            message = (f'{len(files)} mesh filenames name no package ({listed(files)}): a '
                       'package URI is package://PACKAGE/path/to/mesh, and no reader finds '
                       f'these: {counted}')
            suggestion = ('name the package that holds the meshes (package://PACKAGE/FILE), or '
                          "give paths relative to the URDF's folder")
        elif kind == 'placeholder':
            what = 'Git LFS pointers' if name == LFS_FILE else 'empty'
            message = (f'{len(files)} mesh files are {what}, not meshes ({listed(files)}): '
                       f'{counted}')
            suggestion = _placeholder_fix(name)
        elif kind == 'package' and all(file.startswith('package:///') for file in files):
            # ToddlerBot's assemblies (sweep N): package:///meshes/x.stl names no package;
            # 'meshes' is its first folder, and --package-dir meshes=... worked by accident.
            message = (f'{len(files)} mesh filenames are package:/// URIs (three slashes), '
                       f'which name no package: their first folder, {name!r}, was read as '
                       f'one and not found: {counted}')
            suggestion = ('name the package that holds the meshes (package://PACKAGE/'
                          f"{name}/...), or give paths relative to the URDF's folder "
                          f'({name}/...); tried: {"; ".join(tried)}')
        elif kind == 'package':
            message = f'package {name!r} was not found: {counted}'
            beside = _folder_beside(ctx, name)
            where = f'/path/to/{name}' if beside is None else beside
            own = _owned(ctx, files)
            suggestion = (own + f'source the workspace that holds {name}, or pass --package-dir '
                          f'{name}={where} (node: the package_dirs parameter or launch '
                          'argument)' + (f' (a folder {name} lies beside the description: '
                                         'Bullet reads package:// paths relative to it)'
                                         if beside is not None else '')
                          + f'; in a CI job without it (meshes kept in a repository of their '
                          f'own), --ignore-package {name} leaves this finding out'
                          + f'; tried: {"; ".join(tried)}')
        elif kind == 'folder':
            message = (f'{name} does not exist on this machine: {counted}; their absolute '
                       'paths are those of the machine the description was generated on')
            named = [found for found in (
                _in_named_package(ctx, element.geometry.filename)  # type: ignore[union-attr]
                for _, element, _ in elements) if found]
            suggestion = ((f'name the meshes package://PACKAGE/... (for the first, {named[0]}: '
                           f'that file exists; {len(named)} of the {len(elements)} are in the '
                           'packages their paths name)' if named else
                           'name the meshes package://PACKAGE/... (xacro: $(find PACKAGE) '
                           'becomes package://PACKAGE)')
                          + ', so that the description works on every machine, or generate '
                          'it again here')
        elif kind == 'absent folder':
            message = (f'the folder {name} does not exist: {counted}')
            # The same file names one folder up (Scout's meshes/scout_v2/, never there),
            # not another format's (Bullet's meshes/coarse/*.stl beside meshes/*.obj: other
            # meshes, of a folder that is missing)
            meant = [found for found, element in (
                (_near_miss(ctx, element, problem), element) for _, element, problem in elements)
                if found and os.path.basename(found) == os.path.basename(
                    element.geometry.filename.strip())]  # type: ignore[union-attr]
            # or a sibling of the missing folder that holds them (a robot renamed, its URDF
            # not: Rokae's meshes/xMateER7p/ for meshes/xMatePro7/)
            meant = meant or [found for found in (
                _sibling(ctx, element, problem) for _, element, problem in elements) if found]
            # or the same path one folder up: written from the package's root (SMARC's SAM),
            # or in a sub-folder: its first folder left out (Astribot's meshes/)
            meant = meant or [found for found in (
                _up(ctx, element, problem) for _, element, problem in elements) if found]
            meant = meant or [found for found in (
                _nearby(ctx, element, problem, one_folder_under)
                for _, element, problem in elements) if found]
            moved = (f'fix the paths: the meshes moved (for the first, did you mean '
                     f'{meant[0]}? That file exists; {len(meant)} of the {len(elements)} '
                     'have such a file), or add the folder with its files' if meant else
                     'add the folder with its files (some repositories keep meshes out '
                     'of git: Git LFS, a download or build step), or fix the paths if the '
                     'meshes moved')
            suggestion = f'{moved}; tried, for the first: {"; ".join(tried)}'
        elif kind == 'package files':
            message = (f'package {name!r} was found, but {len(files)} of the mesh files named '
                       f'in it do not exist ({listed(files)}): {counted}')
            archives = tuple(dict.fromkeys(
                found for found in (_archive_beside(ctx, element, problem)
                                    for _, element, problem in elements) if found))
            down = _down_fix(ctx, elements)
            suggestion = (down[:-2] if down.endswith('all of them); ') else down + (
                f'archives beside them, {listed(archives)}, probably hold them: {_EXTRACT}'
                if archives else
                f'build or install {name} with its meshes (some packages fetch or generate '
                'them when built, or keep them in another package), or fix the filenames')
            ) + f'; tried, for the first: {"; ".join(tried)}'
        else:
            message = (f'{len(files)} mesh files named in {name} do not exist '
                       f'({listed(files)}): {counted}')
            suggestion = _down_fix(ctx, elements) + 'fix the filenames, or add the files; ' \
                f'tried, for the first: {"; ".join(tried)}'
        loads = any(_mujoco_loads(ctx, element) and problem.rule == 'mesh-not-found'
                    for _, element, problem in elements)
        yield ctx.finding(
            elements[0][2].rule, max(_problem_severity(ctx, element, problem)
                                     for _, element, problem in elements),
            message + (_MUJOCO_LOADS if loads else ''), element=None,
            line=first.geometry.line or first.line,  # type: ignore[union-attr]
            suggestion=suggestion,
            values=((kind.replace(' ', '_'), name), ('count', len(elements)),
                    ('collision_meshes', collisions), ('links', listed(links)),
                    ('filename', first.geometry.filename)),  # type: ignore[union-attr]
            links=links)


def check_collision_missing(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    """
    Flag visible parts that nothing can collide with.

    Small hinges (:func:`is_hinge`) without collision on 3 or more links are one note
    (:func:`check_missing_hinges`): TIAGo's four casters, from one macro.
    """
    found = _collision_missing(ctx, link)
    if found is None or (found[1] and len(_missing_hinges(ctx)) >= MODEL_WIDE_MIN):
        return
    if link.name in _stand_ins(ctx) and len(_stand_ins(ctx)) >= MODEL_WIDE_MIN:
        return  # one finding for them all (check_stand_ins)
    yield found[0]


def _stand_ins(ctx: CheckContext) -> Tuple[str, ...]:
    """Return the links (not small hinges) whose collision is a token (once per analysis)."""
    return _missing_where(ctx, 'collision stand-ins', lambda finding, hinge: not hinge and
                          'collision_size_mm' in dict(finding.values))


def _missing_where(ctx: CheckContext, name: str,
                   keep: Callable[[Finding, bool], bool]) -> Tuple[str, ...]:
    """Return the links whose collision-missing finding ``keep`` takes (once per analysis)."""
    key = (name, None)
    if key not in ctx.memo:
        names = []
        for link in ctx.robot.links:
            try:
                found = _collision_missing(ctx, link)
            except Exception:  # noqa: B902 (check_collision_missing reports it on the link)
                continue
            if found is not None and keep(*found):
                names.append(link.name)
        ctx.memo[key] = tuple(names)
    return ctx.memo[key]  # type: ignore[return-value]


def check_stand_ins(ctx: CheckContext) -> Iterator[Finding]:
    """
    Flag token collision geometry once for 3 or more links (one macro's choice).

    uuv_simulator's RexROV: its 8 thrusters and 6 sensors, from two macros, each collide as
    a box of a few micrometres where they draw their parts (14 warnings before).
    """
    names = _stand_ins(ctx)
    if len(names) < MODEL_WIDE_MIN:
        return  # per link (check_collision_missing)
    findings = [_collision_missing(ctx, ctx.robot.link(name))[0]  # type: ignore[index]
                for name in names]
    tokens = [float(dict(finding.values)['collision_size_mm']) for finding in findings]
    parts = [float(dict(finding.values)['visual_size']) for finding in findings]
    first = findings[0]
    yield ctx.finding(
        'collision-missing', Severity.WARNING,
        f'{len(names)} links collide as tokens of {fmt_range(tokens, 3)} mm where they draw parts '
        f'{fmt_range(parts, 3)} m across ({listed(names)}): stand-ins, not their shapes; '
        'planners and simulators let the parts pass through everything but that',
        line=first.line, suggestion=first.suggestion,
        values=(('count', len(names)), ('links', listed(names))), links=names)


def _missing_hinges(ctx: CheckContext) -> Tuple[str, ...]:
    """Return the small hinges without collision geometry (once per analysis)."""
    return _missing_where(ctx, 'missing collision hinges', lambda _, hinge: hinge)


def check_missing_hinges(ctx: CheckContext) -> Iterator[Finding]:
    """Note the small hinges without collision geometry once, from 3 on."""
    names = _missing_hinges(ctx)
    if len(names) < MODEL_WIDE_MIN:
        return  # per link (check_collision_missing)
    first = ctx.robot.link(names[0])
    yield ctx.finding(
        'collision-missing', Severity.INFO,
        f'{len(names)} small parts have visual geometry and no <collision>, nor has any link '
        f'welded to them ({listed(names)}): planners and simulators let them pass through '
        f'everything; each is under {fmt(HINGE_SIZE * 100)} cm between links that collide '
        'on both sides, whose shapes cover it in practice',
        line=first.line if first is not None else None,
        suggestion='add a <collision> primitive around each if a planner must keep them clear '
                   '(the visual geometry is a starting point)',
        values=(('count', len(names)), ('links', listed(names))), links=names)


def _collision_missing(ctx: CheckContext, link: Link) -> Optional[Tuple[Finding, bool]]:
    """Return a link's collision-missing finding and whether it is a small hinge (once)."""
    key = ('collision missing', id(link))
    if key not in ctx.memo:
        ctx.memo[key] = next(_collision_missing_of(ctx, link), None)
    return ctx.memo[key]  # type: ignore[return-value]


def _collision_missing_of(ctx: CheckContext, link: Link) -> Iterator[Tuple[Finding, bool]]:
    """
    Flag visible parts that nothing can collide with.

    Quiet where :func:`visible_without_collision` is False, and for the links of a visual
    model (reported once by ``robot-collision-partial``). A moving link with mass and no geometry
    at all (an intermediate link of a multi-axis joint) is an info.
    """
    if link.name in model_choices(ctx).collisionless_set:
        return
    if link.collisions:  # (a <collision> urdfdom refuses is its parse finding's)
        yield from _stand_in(ctx, link)
        return
    visuals = [element for element in link.visuals if element.geometry is not None]
    moving_mass = ctx.is_moving(link.name) and link.mass > 0.0
    if not (visuals or moving_mass):
        return
    if ctx.group_has_collision(link.name):
        return
    if not visuals and (ctx.group_draws(link.name) or
                        len(_bare_moving(ctx)) >= MODEL_WIDE_MIN):
        # A link welded to it draws the body (ANYmal D's 1 g hip link and its hip: the
        # missing collision is said on the drawn link), or one note for them all
        # (check_bare_moving).
        return
    if visuals:
        if not visible_without_collision(ctx, link):
            return
        size = visual_size(ctx, visuals)
        hinge = is_hinge(ctx, link, size)
        severity = Severity.INFO if hinge else Severity.WARNING
        what = f'{len(visuals)} visual element{"s" if len(visuals) > 1 else ""}' + (
            f' ({fmt(size, 3)} m across)' if size is not None else '')
    else:
        hinge = False
        severity = Severity.INFO
        what = f'{fmt(link.mass)} kg on a moving joint but nothing to draw'
    # Say why one such link is an info and another a warning (Unitree H2's hinges).
    why = (f' (an info: a part under {fmt(HINGE_SIZE * 100)} cm between links that collide '
           'on both sides, whose shapes cover it in practice)' if hinge else '')
    yield ctx.finding(
        'collision-missing', severity,
        f'the link has {what} and no <collision>, nor has any link welded to it: '
        f'planners and simulators let it pass through everything{why}',
        link=link.name, line=link.line,
        suggestion='add a <collision> with a primitive that encloses the part'
                   + (' (the visual geometry is a starting point)' if visuals else
                      '; an intermediate link of a multi-axis joint needs none'),
        values=(('visuals', len(visuals)), ('mass', link.mass))), hinge


#: A link's collision geometry under MARKER_SIZE across, for a visual part at least this big
#: (m) and STAND_IN_FACTOR times bigger, is a stand-in, not the part's shape.
STAND_IN_PART = 0.05
STAND_IN_FACTOR = 10.0


def _stand_in(ctx: CheckContext, link: Link) -> Iterator[Tuple[Finding, bool]]:
    """
    Flag collision geometry that is a token for a visible part: a few millimetres for a flange.

    KUKA KR 16 R2010-2's link_6 collides as a 5 x 5 x 0.8 mm box where it draws a 67 mm
    flange: a tool passes through it in MoveIt, and no rule said so (a shape under 1 cm is a
    marker to the other rules).
    """
    if any(element.geometry is None for element in link.collisions):
        return
    if any(member.collisions for member in (ctx.robot.link(name)
                                            for name in ctx.weld_group(link.name))
           if member is not None and member is not link):
        return  # a link welded to it collides for the body
    boxes = [ctx.element_bounds(element) for element in link.collisions]
    if any(box is None for box in boxes):
        return
    low, high = union_bounds(boxes)
    size = float(np.linalg.norm(high - low))
    if not size < MARKER_SIZE:
        return
    visuals = [element for element in link.visuals if element.geometry is not None]
    part = visual_size(ctx, visuals) if visuals else None
    if part is None or not (part >= STAND_IN_PART and part >= STAND_IN_FACTOR * size):
        return
    hinge = is_hinge(ctx, link, part)
    why = (f' (an info: a part under {fmt(HINGE_SIZE * 100)} cm between links that collide '
           'on both sides, whose shapes cover it in practice)' if hinge else '')
    yield ctx.finding(
        'collision-missing', Severity.INFO if hinge else Severity.WARNING,
        f'the link collides as {fmt(size * 1000.0, 3)} mm of geometry where it draws a part '
        f'{fmt(part, 3)} m across: a stand-in, not its shape; planners and simulators let the '
        f'part pass through everything but that{why}',
        link=link.name, line=link.collisions[0].line or link.line,
        suggestion='give the <collision> a primitive or a simplified mesh that encloses the '
                   'part (the visual geometry is a starting point)',
        values=(('collision_size_mm', size * 1000.0), ('visual_size', part))), hinge


def _bare_moving(ctx: CheckContext) -> Tuple[Link, ...]:
    """
    Return the links with mass on a moving joint and no geometry at all, nor welded any.

    The intermediate links of multi-axis joints (a hip's yaw and roll links): once computed.
    """
    key = ('bare moving links', None)
    if key not in ctx.memo:
        collisionless = model_choices(ctx).collisionless_set
        ctx.memo[key] = tuple(
            link for link in ctx.robot.links
            if not any(element.geometry is not None
                       for element in link.collisions + link.visuals)
            and link.name not in collisionless and ctx.is_moving(link.name)
            and link.mass > 0.0 and not ctx.group_has_collision(link.name)
            and not ctx.group_draws(link.name))
    return ctx.memo[key]  # type: ignore[return-value]


def check_bare_moving(ctx: CheckContext) -> Iterator[Finding]:
    """Note the links with mass on moving joints and nothing to draw, when 3 or more: once."""
    links = _bare_moving(ctx)
    if len(links) < MODEL_WIDE_MIN:
        return  # per link (check_collision_missing)
    names = tuple(link.name for link in links)
    masses = [link.mass for link in links]
    yield ctx.finding(
        'collision-missing', Severity.INFO,
        f'{len(links)} links have mass on a moving joint ({fmt(min(masses))} to '
        f'{fmt(max(masses))} kg) but nothing to draw and no <collision>, nor has any link '
        f'welded to them: planners and simulators let them pass through everything '
        f'({listed(names)})',
        line=links[0].line,
        suggestion='intermediate links of multi-axis joints (a hip or wrist built of several '
                   'revolute joints) need none; give any that is a real part a <collision> '
                   'with a primitive that encloses it',
        values=(('count', len(links)), ('links', listed(names)), ('mass_min', min(masses)),
                ('mass_max', max(masses))), links=names)


def check_materials(ctx: CheckContext) -> Iterator[Finding]:
    """Flag top-level materials whose colours are outside [0, 1]."""
    for material in ctx.robot.materials:
        yield from _colour(ctx, None, 'material', material)


def check_link_materials(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    """Flag one link's undefined material references and colours outside [0, 1]."""
    for visual in link.visuals:
        material = visual.material
        if material is None or (material.is_defined and _colour_in_range(material)):
            continue
        if not material.is_defined and material.reference_line is None and \
                not (material.name or '').strip():
            # KHI's duaro: <material name=""/>. urdfdom skips a visual's material whose name
            # is empty (assignMaterial), so defining one of that name would change nothing.
            yield ctx.finding(
                'material-undefined', Severity.INFO,
                'the material has an empty name and no <color> or <texture>: urdfdom skips '
                'it, and viewers draw the visual in their default colour',
                link=link.name, element=visual.label, line=material.line or visual.line,
                suggestion='remove the <material name=""/>, or name a material defined under '
                           '<robot>', values=(('material', ''),))
        elif _named_undefined(material):
            continue  # check_undefined_materials: one finding per name
        elif material.reference_line is None:
            yield from _colour(ctx, link.name, visual.label, material)


def check_undefined_materials(ctx: CheckContext) -> Iterator[Finding]:
    """
    Flag each material name used and not defined, once for all the visuals that use it.

    A CAD exporter names its own materials (Unitree H2's 'ID2' on 18 links): defining it,
    or fixing the name, is one change however many visuals use it. Two or more names
    undefined are one finding: the file that defines them is not included (Clearpath's
    platform macros without their materials file: four findings, one cause; Ghost Spirit's
    xacro two findings where its URDF had one, sweep R).
    """
    found: Dict[str, List[Finding]] = {}
    for link in ctx.robot.links:
        for finding in _undefined_materials(ctx, link):
            found.setdefault(dict(finding.values)['material'], []).append(finding)
    if len(found) < 2:
        for name, findings in found.items():
            yield from grouped(ctx, findings,
                               f"visuals use the material '{name}', which is not defined")
        return
    every = [finding for findings in found.values() for finding in findings]
    names = tuple(found)
    using = {finding.link for finding in every}
    links = tuple(link.name for link in ctx.robot.links if link.name in using)
    first = every[0]
    yield ctx.finding(
        'material-undefined', Severity.WARNING,
        f'{len(names)} materials are used and not defined ({listed(names)}), by '
        f'{len(every)} visuals of {len(links)} links ({listed(links)}): no top-level '
        '<material> of these names and no <color> or <texture> where they are used (urdfdom '
        'keeps them without a colour; RViz draws the parts in its default colour)',
        element=None, line=first.line,
        suggestion='include the file that defines them (a materials file of the package: a '
                   '<xacro:include> left out, or one that defines them under another prefix), '
                   'or define each under <robot>' + ''.join(
                       f"; for '{name}'{close}" for name, close in
                       [(name, _similar(ctx, name)) for name in names[:LISTED]] if close),
        values=(('materials', ', '.join(names)), ('count', len(every))), links=links)


def _named_undefined(material) -> bool:
    """Return True for a visual's material that names one defined nowhere (not an empty name)."""
    return not material.is_defined and material.reference_line is None and \
        bool((material.name or '').strip())


def _undefined_materials(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    for visual in link.visuals:
        material = visual.material
        if material is None or not _named_undefined(material):
            continue  # defined, or a name that is empty (check_link_materials)
        yield ctx.finding(
            'material-undefined', Severity.WARNING,
            f"the material '{material.name}' is not defined: no top-level "
            '<material> of that name and no <color> or <texture> here (urdfdom keeps it '
            'without a colour; RViz draws the part in its default colour, not the one meant)',
            link=link.name, element=visual.label, line=material.line or visual.line,
            suggestion=f'define <material name="{material.name}"><color rgba="r g b '
                       'a"/></material> under <robot>, or fix the name'
                       + _similar(ctx, material.name),
            values=(('material', material.name or ''),))


def _similar(ctx: CheckContext, name: Optional[str]) -> str:
    suggester = ctx.memo.get(('material names', None))
    if suggester is None:  # built once per analysis, when a first name is unknown
        suggester = NameSuggester(m.name for m in ctx.robot.materials if m.name)
        ctx.memo[('material names', None)] = suggester
    close = suggester.suggest(name or '')  # type: ignore[attr-defined]
    return f' (did you mean {close!r}?)' if close else ''


def _colour_in_range(material) -> bool:
    rgba = material.rgba
    return rgba is None or all(0.0 <= v <= 1.0 for v in rgba)


def _colour(ctx: CheckContext, link: Optional[str], element: str, material) -> Iterator[Finding]:
    if _colour_in_range(material):
        return
    rgba = material.rgba
    scaled = [v / 255.0 for v in rgba[:3]]
    hint = (f' (0..255 values? rgba="{fmt_vector(scaled, 3)} {fmt(min(rgba[3], 1.0), 3)}")'
            if all(math.isfinite(v) and 0.0 <= v <= 255.0 for v in rgba) else '')
    yield ctx.finding(
        'material-color-range', Severity.WARNING,
        f"the colour of material '{material.name}' is rgba=\"{fmt_vector(rgba)}\": "
        'components must be within [0, 1]',
        link=link, element=element, line=material.line,
        suggestion='write each of r g b a between 0 and 1' + hint,
        values=(('rgba', fmt_vector(rgba)),))


CHECKS = (check_joint_origins, check_materials, check_undefined_materials, check_reuses,
          check_mirrored, check_bare_moving, check_missing_places, check_missing_hinges,
          check_stand_ins, check_degenerate_shapes)
LINK_CHECKS = (check_elements, check_collision_missing, check_link_materials)
