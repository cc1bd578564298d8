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
Pure conversions from the analysed model to the messages of the services and topics.

Nothing here touches a node: every function takes core data and returns (or fills) a
message, so the tests build and inspect messages without a ROS context. Shapes come out the
way MoveIt's planning scene takes them: a ``shape_msgs/SolidPrimitive`` (or a
``shape_msgs/Mesh`` with the URDF scale already applied to its vertices) plus its pose in the
link frame.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, Optional, Sequence, Tuple

from geometry_msgs.msg import Inertia as InertiaMsg
from geometry_msgs.msg import Point, Pose, Quaternion, Vector3
import numpy as np
from shape_msgs.msg import Mesh as MeshMsg
from shape_msgs.msg import MeshTriangle, SolidPrimitive
from urdf_link_tools.findings import Finding, worst_severity
from urdf_link_tools.geometry import geometry_values, rpy_to_matrix, rpy_to_quaternion
from urdf_link_tools.inertia import inertia_values, rotate_inertia
from urdf_link_tools.kinematics import choose_root
from urdf_link_tools.model import Box, Cylinder, GeometryElement, Inertial, Link, Mesh, Origin
from urdf_link_tools.model import Robot, Sphere
from urdf_link_tools.msg import Finding as FindingMsg
from urdf_link_tools.msg import LinkGeometry, LinkSummary
from urdf_link_tools.reports.text import plural
from urdf_link_tools.ros.names import NameIndex, suggest, unknown_name_message


def counts_text(counts) -> str:
    """Return '1 error, 2 warnings, 0 info', as the CLI counts them."""
    return ', '.join(plural(counts.get(severity, 0), severity)
                     for severity in ('error', 'warning', 'info'))


NO_DESCRIPTION = ('no robot_description received yet: publish one on robot_description '
                  '(robot_state_publisher does), or start the node with urdf_file (or with '
                  'urdf_dirs, and then set urdf_file to a file under them)')

STANDARD_GROUPS = ('collision', 'visual')
# Rows of one list_links answer. A real robot has hundreds of links; 100,000 rows make an
# 8 MB answer that takes seconds to send over DDS and to decode, for every caller.
MAX_LIST_LINKS = 10_000


def point_msg(values: Sequence[float]) -> Point:
    """Return a geometry_msgs/Point from three numbers."""
    return Point(x=float(values[0]), y=float(values[1]), z=float(values[2]))


def vector_msg(values: Sequence[float]) -> Vector3:
    """Return a geometry_msgs/Vector3 from three numbers."""
    return Vector3(x=float(values[0]), y=float(values[1]), z=float(values[2]))


def quaternion_msg(xyzw: Sequence[float]) -> Quaternion:
    """Return a geometry_msgs/Quaternion from (x, y, z, w)."""
    return Quaternion(x=float(xyzw[0]), y=float(xyzw[1]), z=float(xyzw[2]), w=float(xyzw[3]))


def origin_pose(origin: Origin) -> Pose:
    """
    Return a URDF origin as a pose.

    :param origin: xyz and fixed-axis rpy
    :return: the pose; non-finite numbers pass through (the findings explain them)
    """
    return Pose(position=point_msg(origin.xyz),
                orientation=quaternion_msg(rpy_to_quaternion(origin.rpy)))


def finding_msg(finding: Finding) -> FindingMsg:
    """Return a finding as urdf_link_tools/Finding."""
    return FindingMsg(
        rule=finding.rule, severity=int(finding.severity), link=finding.link or '',
        element=finding.element or '', line=max(0, int(finding.line or 0)),
        file=finding.file or '', message=finding.message, suggestion=finding.suggestion or '')


def finding_msgs(findings: Iterable[Finding]) -> list:
    """Return findings as a list of urdf_link_tools/Finding."""
    return [finding_msg(finding) for finding in findings]


def unique_links(robot: Robot) -> Sequence[Link]:
    """Return the links in document order, a duplicated name once (its first definition)."""
    return [link for link in robot.links if robot.link(link.name) is link]


def link_summary(analysis, link: Link) -> LinkSummary:
    """
    Return one row of the link table.

    :param analysis: an :class:`urdf_link_tools.analysis.Analysis`
    :param link: a link of its robot
    :return: the summary
    """
    robot = analysis.robot
    joint = robot.parent_joint(link.name)
    worst = worst_severity(analysis.findings_about(link.name))
    mass = link.mass if math.isfinite(link.mass) else 0.0  # the findings say why
    return LinkSummary(
        name=link.name, parent_joint=joint.name if joint is not None else '',
        parent_joint_type=joint.type if joint is not None else '',
        mass=float(mass), visual_count=len(link.visuals), collision_count=len(link.collisions),
        custom_groups=list(link.custom_groups), has_findings=worst is not None,
        worst_severity=int(worst) if worst is not None else 0, line=int(link.line or 0))


def list_links_answer(analysis) -> Tuple[str, str, list]:
    """
    Return what every ListLinks answer about one analysis holds: built once per model.

    :param analysis: an :class:`urdf_link_tools.analysis.Analysis`
    :return: (message, root link, the rows)
    """
    robot = analysis.robot
    links = unique_links(robot)
    counts = analysis.counts()
    message = f'{plural(len(links), "link")}; {counts_text(counts)}'
    if len(links) > MAX_LIST_LINKS:
        message += (f' (only the first {MAX_LIST_LINKS} listed: ask get_link_findings or '
                    'get_link_geometry about any link by name)')
    rows = [link_summary(analysis, link) for link in links[:MAX_LIST_LINKS]]
    return message, choose_root(robot) or '', rows


def fill_list_links(response, analysis, no_model_message: str = NO_DESCRIPTION,
                    answer: Optional[Tuple[str, str, list]] = None):
    """
    Fill a ListLinks response.

    :param response: ``ListLinks.Response``
    :param analysis: the current analysis, or None when there is none
    :param no_model_message: what to say when there is no analysis
    :param answer: :func:`list_links_answer` of the analysis, when already built
    :return: the response
    """
    if analysis is None:
        response.success = False
        response.message = no_model_message
        return response
    message, root, rows = answer if answer is not None else list_links_answer(analysis)
    response.success = True
    response.robot_name = analysis.robot.name
    response.root_link = root
    # The rows are shared between answers: nothing changes a message after it is sent.
    response.links = rows
    response.message = message
    return response


def solid_primitive(geometry) -> Optional[SolidPrimitive]:
    """
    Return a box, sphere or cylinder in shape_msgs' form (MoveIt's planning scene shape).

    :param geometry: a :class:`Box`, :class:`Sphere` or :class:`Cylinder`
    :return: the primitive (dimensions in shape_msgs order: box x y z, sphere radius,
        cylinder height then radius), or None for anything else
    """
    if isinstance(geometry, Box):
        return SolidPrimitive(type=SolidPrimitive.BOX,
                              dimensions=[float(value) for value in geometry.size])
    if isinstance(geometry, Sphere):
        return SolidPrimitive(type=SolidPrimitive.SPHERE, dimensions=[float(geometry.radius)])
    if isinstance(geometry, Cylinder):
        return SolidPrimitive(type=SolidPrimitive.CYLINDER,
                              dimensions=[float(geometry.length), float(geometry.radius)])
    return None


def mesh_triangles(vertices, faces) -> MeshMsg:
    """
    Return triangles as shape_msgs/Mesh.

    :param vertices: (n, 3) array, already scaled
    :param faces: (m, 3) array of vertex indices
    :return: the mesh
    """
    mesh = MeshMsg()
    mesh.vertices = [Point(x=float(x), y=float(y), z=float(z)) for x, y, z in vertices]
    mesh.triangles = [MeshTriangle(vertex_indices=[int(a), int(b), int(c)])
                      for a, b, c in faces]
    return mesh


TrianglesFor = Callable[[GeometryElement, object], Tuple[Optional[MeshMsg], str]]


def triangles_for(triangles_max: Optional[int] = None) -> TrianglesFor:
    """
    Return a function that builds one mesh's triangles, refusing more than ``triangles_max``.

    :param triangles_max: the most triangles one answer may hold; None: no limit
    :return: ``(element, mesh_result) -> (shape_msgs/Mesh or None, a note when left out)``
    """
    def build(element: GeometryElement, mesh_result) -> Tuple[Optional[MeshMsg], str]:
        vertices = getattr(mesh_result, 'vertices', None)
        faces = getattr(mesh_result, 'faces', None)
        if vertices is None or faces is None:
            return None, ''
        if triangles_max is not None and len(faces) > triangles_max:
            return None, (f'the triangles of {element.label} are left out: its mesh has '
                          f'{len(faces)} triangles, more than mesh_triangles_max='
                          f'{triangles_max} (read mesh_path instead)')
        if not np.all(np.isfinite(vertices)):
            return None, ''
        return mesh_triangles(vertices, faces), ''
    return build


def geometry_entry(element: GeometryElement, mesh_result=None,
                   include_mesh_triangles: bool = False,
                   triangles: Optional[TrianglesFor] = None,
                   notes: Optional[list] = None) -> Optional[LinkGeometry]:
    """
    Return one geometry element as urdf_link_tools/LinkGeometry.

    :param element: a visual, collision or custom element
    :param mesh_result: for a mesh, the :class:`urdf_link_tools.meshes.MeshInfo` (or a
        ``MeshProblem``, or None) the analysis loaded
    :param include_mesh_triangles: fill ``mesh`` with the scaled triangles
    :param triangles: builds (or returns cached) triangles; by default built here, no limit
    :param notes: receives why triangles were left out
    :return: the entry, or None when the element has no geometry
    """
    geometry = element.geometry
    if geometry is None:
        return None
    entry = LinkGeometry(name=element.name or '', pose=origin_pose(element.origin),
                         line=int(element.line or 0))
    if isinstance(geometry, Mesh):
        entry.type = LinkGeometry.MESH
        entry.mesh_uri = geometry.filename
        entry.mesh_scale = vector_msg(geometry.scale)
        path = getattr(mesh_result, 'path', None)
        entry.mesh_path = path or ''
        if include_mesh_triangles:
            mesh, note = (triangles or triangles_for())(element, mesh_result)
            if mesh is not None:
                entry.mesh = mesh
            if note and notes is not None:
                notes.append(note)
        return entry
    entry.type = LinkGeometry.PRIMITIVE
    entry.mesh_scale = vector_msg((1.0, 1.0, 1.0))
    primitive = solid_primitive(geometry)
    if primitive is not None:
        entry.primitive = primitive
    return entry


def inertia_msg(inertial: Inertial) -> InertiaMsg:
    """
    Return the link's inertia about its centre of mass, in link-frame axes.

    The URDF gives the tensor in the ``<inertial><origin>`` frame; geometry_msgs/Inertia has
    no orientation, so the tensor is rotated by the origin's rpy (``R I R^T``).

    :param inertial: the URDF inertial
    :return: mass, centre of mass (link frame) and the six entries
    """
    rotation = rpy_to_matrix(inertial.origin.rpy)
    ixx, ixy, ixz, iyy, iyz, izz = inertia_values(rotate_inertia(inertial.inertia, rotation))
    return InertiaMsg(m=float(inertial.mass), com=vector_msg(inertial.origin.xyz),
                      ixx=ixx, ixy=ixy, ixz=ixz, iyy=iyy, iyz=iyz, izz=izz)


def link_groups(link: Link) -> Sequence[str]:
    """Return every group a link can be asked for: collision, visual and its custom tags."""
    return STANDARD_GROUPS + tuple(link.custom_groups)


def fill_link_geometry(response, analysis, link_name: str, group: str = '',
                       include_mesh_triangles: bool = False,
                       no_model_message: str = NO_DESCRIPTION,
                       names: Optional[NameIndex] = None,
                       triangles: Optional[TrianglesFor] = None):
    """
    Fill a GetLinkGeometry response.

    :param response: ``GetLinkGeometry.Response``
    :param analysis: the current analysis, or None when there is none
    :param link_name: the link asked for
    :param group: '' or 'collision', 'visual', or a custom tag such as 'collision_checking'
    :param include_mesh_triangles: fill the meshes' triangles
    :param no_model_message: what to say when there is no analysis
    :param names: the link names' index, for the "did you mean" of an unknown link
    :param triangles: builds (or returns cached) triangles, with the answer's limit
    :return: the response
    """
    if analysis is None:
        response.success = False
        response.message = no_model_message
        return response
    robot = analysis.robot
    link = robot.link(link_name)
    if link is None:
        response.success = False
        response.message = unknown_name_message('link', link_name,
                                                names or robot.link_names)
        return response
    group = group.strip() or 'collision'
    response.frame_id = link.name
    response.findings = finding_msgs(analysis.findings_about(link.name))
    notes = []
    inertial = link.inertial
    if inertial is not None:
        # NaN or infinity in an answer breaks whoever computes with it (a planning scene,
        # a simulator): leave such a part out, say so, and let the findings explain.
        inertia = inertia_msg(inertial)
        pose = origin_pose(inertial.origin)
        if _finite(inertia.m, inertia.com.x, inertia.com.y, inertia.com.z, inertia.ixx,
                   inertia.ixy, inertia.ixz, inertia.iyy, inertia.iyz, inertia.izz,
                   *_pose_numbers(pose)):
            response.mass = float(inertial.mass)
            response.inertia = inertia
            response.inertial_pose = pose
        else:
            notes.append('the inertial is left out: it holds numbers that are not finite')
    elements = link.group(group)
    if not elements and group not in STANDARD_GROUPS:
        response.success = False
        response.message = (f'link {link.name!r} has no group {group!r} '
                            f'{suggest(group, link_groups(link))}')
        return response
    entries = []
    skipped = 0
    not_finite = 0
    for element in elements:
        geometry = element.geometry
        if geometry is not None and not _finite(*element.origin.xyz, *element.origin.rpy,
                                                *geometry_values(geometry)):
            not_finite += 1
            continue
        mesh_result = analysis.mesh_for(element) if isinstance(geometry, Mesh) else None
        entry = geometry_entry(element, mesh_result, include_mesh_triangles, triangles, notes)
        if entry is None:
            skipped += 1
        else:
            entries.append(entry)
    if not_finite:
        notes.append(f'{not_finite} left out: numbers that are not finite')
    response.geometries = entries
    bounds = analysis.group_bounds(link.name, group)
    if bounds is not None and all(math.isfinite(v) for v in (*bounds[0], *bounds[1])):
        response.has_bounds = True
        response.bounds_min = point_msg(bounds[0])
        response.bounds_max = point_msg(bounds[1])
    response.success = True
    if skipped:
        notes.insert(0, f'{skipped} without a geometry')
    note = f' ({"; ".join(notes)}; see the findings)' if notes else ''
    response.message = f'{len(entries)} {group} geometries in frame {link.name!r}{note}'
    return response


def _finite(*values: float) -> bool:
    return all(math.isfinite(value) for value in values)


def _pose_numbers(pose: Pose) -> tuple:
    position, orientation = pose.position, pose.orientation
    return (position.x, position.y, position.z,
            orientation.x, orientation.y, orientation.z, orientation.w)


def fill_link_findings(response, analysis, link_name: str,
                       no_model_message: str = NO_DESCRIPTION,
                       names: Optional[NameIndex] = None,
                       robot_findings: Optional[tuple] = None):
    """
    Fill a GetLinkFindings response.

    :param response: ``GetLinkFindings.Response``
    :param analysis: the current analysis, or None when there is none
    :param link_name: the link asked for; '' for the findings about the whole robot
    :param no_model_message: what to say when there is no analysis
    :param names: the link names' index, for the "did you mean" of an unknown link
    :param robot_findings: :func:`robot_level_findings` of the analysis, when already built
    :return: the response
    """
    if analysis is None:
        response.success = False
        response.message = no_model_message
        return response
    robot = analysis.robot
    if link_name == '':
        findings = robot_findings if robot_findings is not None else \
            robot_level_findings(analysis)
        where = f'robot {robot.name!r}'
    elif robot.link(link_name) is None:
        response.success = False
        response.message = unknown_name_message('link', link_name,
                                                names or robot.link_names)
        return response
    else:
        findings = analysis.findings_about(link_name)
        where = f'link {link_name!r}'
    response.success = True
    response.findings = finding_msgs(findings)
    response.message = f'{len(findings)} findings about {where}'
    return response


def robot_level_findings(analysis) -> tuple:
    """
    Return the findings that belong to no existing link.

    These are the robot-wide ones and those naming a link the robot does not have (a joint
    pointing at a missing link, for example).
    """
    robot = analysis.robot
    return tuple(finding for finding in analysis.findings
                 if finding.link is None or robot.link(finding.link) is None)
