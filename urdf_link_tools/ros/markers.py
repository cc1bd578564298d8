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
RViz markers for an analysed robot, as pure functions.

Every per-link marker is expressed in its link's frame (``frame_id`` = link name) with
``frame_locked`` set, so RViz places it through TF from robot_state_publisher and keeps it
attached while the robot moves. Since each link is its own frame, markers cannot be merged
across links (a SPHERE_LIST has one frame); per link there is at most one COM sphere, one
inertia box, one label and one marker per collision element.

Namespaces: ``com``, ``inertia``, ``collision``, ``labels``, ``overlap`` (the link markers,
published together after a DELETEALL on every new description; ``overlap`` draws both
collision elements of each pair of links that overlap at rest, and a sphere where they meet)
and ``robot_com`` (the whole robot's centre of mass in the root frame, updated with the joint
states).
"""

from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

from builtin_interfaces.msg import Duration, Time
import numpy as np
from std_msgs.msg import ColorRGBA
from urdf_link_tools.checks.collisions import OVERLAP
from urdf_link_tools.findings import Severity
from urdf_link_tools.geometry import matrix_to_quaternion, rpy_to_matrix, rpy_to_quaternion
from urdf_link_tools.inertia import com_sphere_diameter, equivalent_box
from urdf_link_tools.model import Box, Cylinder, GeometryElement, Link, Mesh, Sphere
from urdf_link_tools.records import record
from urdf_link_tools.ros.conversions import point_msg, quaternion_msg, unique_links
from visualization_msgs.msg import Marker, MarkerArray

Rgba = Tuple[float, float, float, float]

NS_COM = 'com'
NS_INERTIA = 'inertia'
NS_COLLISION = 'collision'
NS_LABELS = 'labels'
NS_OVERLAP = 'overlap'
NS_ROBOT_COM = 'robot_com'

# Sizes at marker_scale 1, in metres.
LABEL_HEIGHT = 0.03
ROBOT_COM_DIAMETER = 0.06
GROUND_DISC_DIAMETER = 0.10
GROUND_DISC_HEIGHT = 0.004
LINE_WIDTH = 0.004
INERTIA_ALPHA = 0.35
#: how far towards white a link's colour goes when only robot-wide findings list it
PALE = 0.6

URI_SCHEMES = ('package://', 'file://', 'http://', 'https://')


@record
class MarkerOptions:
    """What to draw and how; built from the node's parameters."""

    scale: float = 1.0
    publish_com: bool = True
    publish_inertia: bool = True
    publish_collision: bool = True
    publish_labels: bool = True
    color_ok: Rgba = (0.2, 0.8, 0.2, 1.0)
    color_warning: Rgba = (1.0, 0.6, 0.0, 1.0)
    color_error: Rgba = (0.9, 0.1, 0.1, 1.0)
    color_collision: Rgba = (0.3, 0.5, 1.0, 0.4)
    color_robot_com: Rgba = (0.8, 0.2, 0.8, 1.0)

    def severity_color(self, severity: Optional[Severity]) -> Rgba:
        """Return the colour of a link whose worst finding has this severity."""
        if severity == Severity.ERROR:
            return self.color_error
        if severity == Severity.WARNING:
            return self.color_warning
        return self.color_ok

    def link_color(self, analysis, name: str) -> Rgba:
        """
        Return a link's colour: its worst finding's, paler when none of them is its own.

        A link that only robot-wide findings list (visual meshes reused as collision on every
        link, a copied placeholder) takes the same hue lerped towards white, as in the HTML
        report, so that the links with problems of their own stand out in RViz.
        """
        worst = analysis.worst(name)
        color = self.severity_color(worst)
        if worst is None or worst < Severity.WARNING or analysis.link_findings(name):
            return color
        return tuple(c + PALE * (1.0 - c) for c in color[:3]) + (color[3],)


def color_msg(rgba: Sequence[float], alpha: Optional[float] = None) -> ColorRGBA:
    """Return std_msgs/ColorRGBA, optionally with another alpha."""
    return ColorRGBA(r=float(rgba[0]), g=float(rgba[1]), b=float(rgba[2]),
                     a=float(rgba[3] if alpha is None else alpha))


def _finite(*values: float) -> bool:
    return all(math.isfinite(value) for value in values)


def _stamp(stamp: Optional[Time]) -> Time:
    # A copy per marker: message fields hold references, and a shared default would leak.
    return Time(sec=stamp.sec, nanosec=stamp.nanosec) if stamp is not None else Time()


def _marker(frame: str, namespace: str, marker_id: int, kind: int, stamp: Optional[Time],
            frame_locked: bool = True) -> Marker:
    marker = Marker()
    marker.header.frame_id = frame
    marker.header.stamp = _stamp(stamp)
    marker.ns = namespace
    marker.id = marker_id
    marker.type = kind
    marker.action = Marker.ADD
    marker.lifetime = Duration()
    marker.frame_locked = frame_locked
    return marker


def delete_all_marker(stamp: Optional[Time] = None) -> Marker:
    """Return the DELETEALL marker that clears what an earlier description drew."""
    marker = Marker()
    marker.header.stamp = _stamp(stamp)
    marker.action = Marker.DELETEALL
    return marker


def com_marker(link: Link, marker_id: int, color: Rgba, stamp: Optional[Time] = None) \
        -> Optional[Marker]:
    """
    Return the COM sphere of a link, a ball of lead of the link's mass as RViz draws it.

    :return: the marker, or None without a positive finite mass or a finite origin
    """
    inertial = link.inertial
    if inertial is None:
        return None
    diameter = com_sphere_diameter(inertial.mass)
    if not (diameter > 0.0 and _finite(*inertial.origin.xyz)):
        return None
    marker = _marker(link.name, NS_COM, marker_id, Marker.SPHERE, stamp)
    marker.pose.position = point_msg(inertial.origin.xyz)
    marker.scale.x = marker.scale.y = marker.scale.z = diameter
    marker.color = color_msg(color)
    return marker


def inertia_marker(link: Link, marker_id: int, color: Rgba, stamp: Optional[Time] = None) \
        -> Optional[Marker]:
    """
    Return the equivalent uniform box of a link's inertia, as RViz's RobotLink draws it.

    The box's axes are the principal axes, turned by the inertial origin's rpy (the
    orientation RViz uses since its rotation fix).

    :return: the marker, or None when RViz would draw nothing (invalid inertia)
    """
    inertial = link.inertial
    if inertial is None or not _finite(*inertial.origin.xyz, *inertial.origin.rpy):
        return None
    box = equivalent_box(inertial.mass, inertial.inertia)
    if box is None:
        return None
    size, axes = box
    if not (np.all(np.isfinite(size)) and np.all(size > 0.0)):
        return None
    rotation = rpy_to_matrix(inertial.origin.rpy) @ axes
    marker = _marker(link.name, NS_INERTIA, marker_id, Marker.CUBE, stamp)
    marker.pose.position = point_msg(inertial.origin.xyz)
    marker.pose.orientation = quaternion_msg(matrix_to_quaternion(rotation))
    marker.scale.x, marker.scale.y, marker.scale.z = (float(value) for value in size)
    marker.color = color_msg(color, alpha=min(color[3], INERTIA_ALPHA))
    return marker


def mesh_resource(filename: str, resolved_path: Optional[str]) -> str:
    """
    Return a mesh URI RViz can load.

    ``package://`` and ``file://`` URIs go through unchanged, so RViz resolves them itself
    (on the machine where it runs); a bare path becomes ``file://`` of where the analysis
    found it.
    """
    if filename.startswith(URI_SCHEMES):
        return filename
    if resolved_path:
        return 'file://' + resolved_path
    return filename


def collision_marker(link: Link, element: GeometryElement, marker_id: int, color: Rgba,
                     resolved_path: Optional[str] = None, stamp: Optional[Time] = None) \
        -> Optional[Marker]:
    """
    Return one collision element: a primitive, or its mesh as MESH_RESOURCE with its scale.

    :return: the marker, or None without geometry, with a zero scale (RViz refuses it) or
        a negative primitive size; a mesh with a negative (mirroring) scale is drawn
    """
    geometry = element.geometry
    origin = element.origin
    if geometry is None or not _finite(*origin.xyz, *origin.rpy):
        return None
    if isinstance(geometry, Box):
        kind, scale = Marker.CUBE, tuple(geometry.size)
    elif isinstance(geometry, Sphere):
        kind, scale = Marker.SPHERE, (2.0 * geometry.radius,) * 3
    elif isinstance(geometry, Cylinder):
        # Marker cylinders, like URDF ones, are centred with their axis along z.
        kind = Marker.CYLINDER
        scale = (2.0 * geometry.radius, 2.0 * geometry.radius, geometry.length)
    elif isinstance(geometry, Mesh):
        kind, scale = Marker.MESH_RESOURCE, tuple(geometry.scale)
    else:
        return None
    # RViz refuses only a zero scale: a negative mesh scale is a mirror (the left arm of a
    # robot described once, for the right), drawn as such; a negative primitive size is an
    # error the checks report, with nothing to draw.
    if not _finite(*scale) or any(value == 0.0 for value in scale) or \
            (kind != Marker.MESH_RESOURCE and any(value < 0.0 for value in scale)):
        return None
    marker = _marker(link.name, NS_COLLISION, marker_id, kind, stamp)
    marker.pose.position = point_msg(origin.xyz)
    marker.pose.orientation = quaternion_msg(rpy_to_quaternion(origin.rpy))
    marker.scale.x, marker.scale.y, marker.scale.z = (float(value) for value in scale)
    marker.color = color_msg(color)
    if isinstance(geometry, Mesh):
        marker.mesh_resource = mesh_resource(geometry.filename, resolved_path)
        marker.mesh_use_embedded_materials = False
    return marker


def label_marker(link: Link, marker_id: int, color: Rgba, scale: float = 1.0,
                 stamp: Optional[Time] = None) -> Marker:
    """Return the link's name and mass as text, just above its COM (or its origin)."""
    marker = _marker(link.name, NS_LABELS, marker_id, Marker.TEXT_VIEW_FACING, stamp)
    inertial = link.inertial
    position = (0.0, 0.0, 0.0)
    lift = 0.0
    if inertial is not None and _finite(*inertial.origin.xyz):
        position = inertial.origin.xyz
        lift = com_sphere_diameter(inertial.mass) / 2.0
    if inertial is None:
        text = f'{link.name}\nno <inertial>'
    else:
        text = f'{link.name}\n{inertial.mass:.4g} kg'
    height = LABEL_HEIGHT * scale
    marker.pose.position = point_msg((position[0], position[1],
                                      position[2] + lift + height))
    marker.scale.z = height
    marker.color = color_msg(color)
    marker.text = text
    return marker


#: the most links one MarkerArray draws (as list_links lists at most 10,000)
MAX_MARKER_LINKS = 10_000


def link_markers(analysis, options: MarkerOptions = MarkerOptions(),
                 stamp: Optional[Time] = None) -> MarkerArray:
    """
    Return every per-link marker of an analysis, after a DELETEALL.

    Marker ids are the link's index (com, inertia, labels) or a running count (collision),
    so the same description always gives the same ids.

    :param analysis: an :class:`urdf_link_tools.analysis.Analysis`
    :param options: what to draw and the colours
    :param stamp: header stamp; zero (the default) makes RViz use the latest transform
    :return: the array
    """
    markers: List[Marker] = [delete_all_marker(stamp)]
    collision_id = 0
    links = list(enumerate(unique_links(analysis.robot)))
    if len(links) > MAX_MARKER_LINKS:
        # A generated or hostile robot: draw the links with findings first, and at most
        # MAX_MARKER_LINKS of them, so that one message stays bounded (serialising it holds
        # the interpreter and would stall the services).
        links.sort(key=lambda item: -int(analysis.worst(item[1].name) or 0))
        links = sorted(links[:MAX_MARKER_LINKS], key=lambda item: item[0])
    for index, link in links:
        color = options.link_color(analysis, link.name)
        candidates = []
        if options.publish_com:
            candidates.append(com_marker(link, index, color, stamp))
        if options.publish_inertia:
            candidates.append(inertia_marker(link, index, color, stamp))
        if options.publish_collision:
            for element in link.collisions:
                path = None
                if isinstance(element.geometry, Mesh):
                    path = getattr(analysis.mesh_for(element), 'path', None)
                candidates.append(collision_marker(
                    link, element, collision_id, options.color_collision, path, stamp))
                collision_id += 1
        if options.publish_labels:
            candidates.append(label_marker(link, index, color, options.scale, stamp))
        markers.extend(marker for marker in candidates if marker is not None)
    if options.publish_collision:
        markers.extend(overlap_markers(analysis, options, stamp))
    return MarkerArray(markers=markers)


#: overlaps drawn at most (each is three markers)
MAX_OVERLAP_MARKERS = 1000
OVERLAP_POINT_DIAMETER = 0.02


def overlap_markers(analysis, options: MarkerOptions = MarkerOptions(),
                    stamp: Optional[Time] = None) -> List[Marker]:
    """
    Return the pairs of links that overlap at rest: both elements and the contact point.

    Built from the ``collision-overlap-at-rest`` findings (their ``other_link``,
    ``other_element`` and ``point_in_link`` values), in the warning colour (an info, links
    welded together: the collision colour, the contact in the warning colour). A finding about
    one link overlapping many (its ``links``) draws the collision geometry of each of them
    and every contact point (``points_in_link``, or ``points_in_root`` for a list of pairs: a
    second collision model's, links welded together); one merged with its mirror pair
    (:mod:`urdf_link_tools.checks.mirrors`) draws that pair and its contact point too.

    :param analysis: an :class:`urdf_link_tools.analysis.Analysis`
    :param options: the colours and scale
    :param stamp: header stamp
    :return: the markers, ids counted from 0 in namespace ``overlap``
    """
    robot = analysis.robot
    markers: List[Marker] = []
    findings = [f for f in analysis.findings if f.rule == OVERLAP]
    for finding in findings[:MAX_OVERLAP_MARKERS]:
        if len(markers) >= 3 * MAX_OVERLAP_MARKERS:
            break  # an envelope over thousands of links: RViz gets a bounded array
        alarming = finding.severity >= Severity.WARNING
        color = (options.color_warning if alarming else options.color_collision)[:3] + (0.6,)
        contact = options.color_error if alarming else options.color_warning
        values = dict(finding.values)
        drawn = [(finding.link, finding.element)]
        if len(finding.links) > 1:
            # One link overlapping many: the collision geometry of each of them.
            drawn += [(name, None) for name in finding.links[1:MAX_OVERLAP_MARKERS + 1]]
            points = [(finding.link, text)
                      for text in str(values.get('points_in_link', '')).split(';')]
            if values.get('points_in_root'):  # a list of pairs (second model, welded)
                root = (robot.root_links or ('',))[0]
                points += [(root, text) for text in str(values['points_in_root']).split(';')]
            if values.get('mirror_links'):  # merged with its mirror's (mirrors.py)
                mirror = values.get('mirror_link')
                partners = str(values['mirror_links']).split(', ')
                drawn += [(mirror, None)] + [(name, None)
                                             for name in partners[:MAX_OVERLAP_MARKERS]]
                points += [(mirror, text) for text in
                           str(values.get('mirror_points_in_link', '')).split(';')]
        else:
            drawn.append((values.get('other_link'), values.get('other_element')))
            points = [(finding.link, str(values.get('point_in_link', '')))]
            if values.get('mirror_other_link'):  # merged with its mirror pair (mirrors.py)
                drawn += [(values.get('mirror_link'), None),
                          (values.get('mirror_other_link'), None)]
                points.append((values.get('mirror_link'),
                               str(values.get('mirror_point_in_link', ''))))
            if values.get('fore_aft_other_links'):  # and with the fore-aft pairs (mirrors.py)
                rear = str(values.get('fore_aft_links', '')).split(', ')
                drawn += [(name, None) for name in rear] + [
                    (name, None) for name in str(values['fore_aft_other_links']).split(', ')]
                points += list(zip(rear, str(values.get('fore_aft_points_in_link',
                                                        '')).split(';')))
            if values.get('copy_other_links'):  # and with numbered copies (mirrors.py)
                copies = str(values.get('copy_links', '')).split(', ')
                drawn += [(name, None) for name in copies] + [
                    (name, None) for name in str(values['copy_other_links']).split(', ')]
                points += list(zip(copies, str(values.get('copy_points_in_link',
                                                          '')).split(';')))
        for link_name, label in drawn:
            link = robot.link(link_name or '')
            for element in link.collisions if link is not None else ():
                if label is not None and element.label != label:
                    continue
                path = getattr(analysis.mesh_for(element), 'path', None)
                marker = collision_marker(link, element, len(markers), color, path, stamp)
                if marker is not None:
                    marker.ns = NS_OVERLAP
                    markers.append(marker)
        for frame, text in points:
            try:
                point = [float(v) for v in text.split()]
            except ValueError:
                point = []
            if len(point) == 3 and _finite(*point):
                sphere = _marker(frame, NS_OVERLAP, len(markers), Marker.SPHERE, stamp)
                sphere.pose.position = point_msg(point)
                sphere.pose.orientation.w = 1.0
                sphere.scale.x = sphere.scale.y = sphere.scale.z = \
                    OVERLAP_POINT_DIAMETER * options.scale
                sphere.color = color_msg(contact)
                markers.append(sphere)
    return markers


def robot_com_markers(frame: str, com: Optional[Sequence[float]],
                      options: MarkerOptions = MarkerOptions(),
                      stamp: Optional[Time] = None) -> MarkerArray:
    """
    Return the whole robot's COM: a sphere, its projection on the ground and a line between.

    The ground is the plane z = 0 of the root frame.

    :param frame: the root link
    :param com: the centre of mass in the root frame, or None to clear the markers
    :param options: size and colour
    :param stamp: header stamp
    :return: the array (a DELETEALL when ``com`` is None or not finite)
    """
    if com is None or not _finite(*com) or not frame:
        return MarkerArray(markers=[delete_all_marker(stamp)])
    x, y, z = (float(value) for value in com)
    color = options.color_robot_com
    scale = options.scale

    sphere = _marker(frame, NS_ROBOT_COM, 0, Marker.SPHERE, stamp)
    sphere.pose.position = point_msg((x, y, z))
    sphere.scale.x = sphere.scale.y = sphere.scale.z = ROBOT_COM_DIAMETER * scale
    sphere.color = color_msg(color)

    disc = _marker(frame, NS_ROBOT_COM, 1, Marker.CYLINDER, stamp)
    disc.pose.position = point_msg((x, y, 0.0))
    disc.scale.x = disc.scale.y = GROUND_DISC_DIAMETER * scale
    disc.scale.z = GROUND_DISC_HEIGHT * scale
    disc.color = color_msg(color, alpha=0.6 * color[3])

    line = _marker(frame, NS_ROBOT_COM, 2, Marker.LINE_LIST, stamp)
    line.points = [point_msg((x, y, z)), point_msg((x, y, 0.0))]
    line.scale.x = LINE_WIDTH * scale
    line.color = color_msg(color)
    return MarkerArray(markers=[sphere, disc, line])
