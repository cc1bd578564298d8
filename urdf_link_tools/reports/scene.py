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
The robot as the HTML report draws it: plain data, ready for JSON, from an analysis.

The reference pose (every joint at 0, as robot_state_publisher starts) comes from
:mod:`~urdf_link_tools.kinematics`; the triangles from the meshes the analysis loaded. Each
mesh file is embedded once (visual and collision uses share it), its positions quantised to
16 bits inside its bounds and its indices in 16 or 32 bits, base64-encoded. Above a triangle
budget the meshes are simplified for display (:mod:`~urdf_link_tools.meshes.simplify`) and the
page says so.
"""

from __future__ import annotations

import base64
import math
import os
from typing import Any, Dict, List, Optional, Sequence, Set

import numpy as np

from urdf_link_tools.checks.collisions import OVERLAP
from urdf_link_tools.findings import Finding, worst_severity
from urdf_link_tools.geometry import origin_to_matrix, rpy_to_matrix
from urdf_link_tools.inertia import com_sphere_diameter, equivalent_box
from urdf_link_tools.kinematics import forward_kinematics, robot_center_of_mass
from urdf_link_tools.meshes import MeshInfo
from urdf_link_tools.meshes.hull import coal_installed
from urdf_link_tools.meshes.integrals import column_bounds
from urdf_link_tools.meshes.simplify import simplify
from urdf_link_tools.model import Box, Cylinder, GeometryElement, Link, Mesh, Sphere
from urdf_link_tools.read_policy import checkout_root, inside
from urdf_link_tools.reports.text import display_path, location

#: triangles embedded over all meshes; above it they are simplified (tiago_dual: ~10 MB)
TRIANGLE_BUDGET = 600_000
#: a mesh simplified to fit the budget keeps at least this many triangles (or all it has)
MIN_MESH_TRIANGLES = 400
#: links drawn at most (a generated robot of 100,000 links still gives a page that opens)
MAX_DRAWN_LINKS = 10_000


def _finite(values: Sequence[float]) -> bool:
    return all(math.isfinite(float(value)) for value in values)


def _matrix(matrix: np.ndarray) -> Optional[List[float]]:
    """Return a 4x4 transform row by row, or None when it is not finite."""
    if not np.all(np.isfinite(matrix)):
        return None
    return np.round(matrix, 9).reshape(-1).tolist()


def _origin(origin) -> Optional[List[float]]:
    """Return an element's origin row by row; None for the identity (most are)."""
    if not any(origin.xyz) and not any(origin.rpy):
        return None
    return _matrix(origin_to_matrix(origin))


def _b64(array: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(array).tobytes()).decode('ascii')


class _MeshTable:
    """The meshes of one page: one entry per file as read, simplified to one budget."""

    def __init__(self, roots: Sequence[str] = ()) -> None:
        self.index: Dict[int, int] = {}
        self.raws: List[Any] = []
        #: real paths of the folders whose meshes a page may hold (:meth:`embeddable`)
        self.roots = list(roots)
        #: the files drawn as their bounds instead
        self.kept_out: Set[str] = set()

    def embeddable(self, filename: str, path: str) -> bool:
        """
        Return True when a mesh's triangles may go into the page, a CI artifact.

        A file:// or absolute mesh may name any file on the machine (by design: the check
        learns its size and volume), but its shape is not the description's to publish:
        another checkout's part on a shared runner, or the bytes of a program a link named
        ``part.stl`` (red-team review 16). Those outside the description's checkout and
        its --package-dir folders are drawn as their bounds; package:// and relative
        meshes stay inside their packages (the resolution refuses links out of them).
        """
        text = filename.strip()
        if not (text.startswith('file://') or os.path.isabs(text)):
            return True
        real = os.path.realpath(path)
        return any(inside(real, root) for root in self.roots)

    def add(self, info: MeshInfo) -> int:
        key = id(info.raw)
        if key not in self.index:
            self.index[key] = len(self.raws)
            self.raws.append(info.raw)
        return self.index[key]

    def encode(self, budget: int) -> Dict[str, Any]:
        total = sum(len(raw.faces) for raw in self.raws)
        ratio = min(1.0, budget / total) if total else 1.0
        meshes = []
        kept = 0
        simplified = 0
        for raw in self.raws:
            vertices = np.asarray(raw.vertices, dtype=float)
            faces = np.asarray(raw.faces, dtype=np.int64)
            target = max(min(len(faces), MIN_MESH_TRIANGLES), int(len(faces) * ratio))
            if len(faces) > target:
                vertices, faces = simplify(vertices, faces, target)
                simplified += 1
            kept += len(faces)
            meshes.append(_encode_mesh(vertices, faces, len(raw.faces)))
        note = None
        if simplified:
            note = (f'{simplified} of {len(self.raws)} meshes simplified for display '
                    f'(vertex clustering): {total:,} triangles drawn as {kept:,}, '
                    f'budget {budget:,}; the checks used the meshes as read')
        return {'meshes': meshes, 'triangles': kept, 'file_triangles': total, 'note': note}


def _encode_mesh(vertices: np.ndarray, faces: np.ndarray, original: int) -> Dict[str, Any]:
    if not len(faces):
        return {'low': [0, 0, 0], 'step': [0, 0, 0], 'positions': '', 'indices': '',
                'wide': False, 'triangles': 0, 'original': original}
    low, high = column_bounds(vertices)
    step = (high - low) / 65535.0
    safe = np.where(step > 0.0, step, 1.0)
    quantised = np.rint((vertices - low) / safe).astype('<u2')
    wide = len(vertices) > 65535
    indices = faces.astype('<u4' if wide else '<u2')
    return {'low': [float(v) for v in low], 'step': [float(v) for v in step],
            'positions': _b64(quantised), 'indices': _b64(indices), 'wide': wide,
            'triangles': int(len(faces)), 'original': int(original)}


def _geometry(element: GeometryElement, analysis, meshes: _MeshTable) -> Optional[Dict]:
    geometry = element.geometry
    origin = element.origin
    if geometry is None or not _finite(origin.xyz + origin.rpy):
        return None
    shape: Dict[str, Any]
    if isinstance(geometry, Box):
        shape = {'type': 'box', 'size': list(geometry.size)}
    elif isinstance(geometry, Sphere):
        shape = {'type': 'sphere', 'radius': geometry.radius}
    elif isinstance(geometry, Cylinder):
        shape = {'type': 'cylinder', 'radius': geometry.radius, 'length': geometry.length}
    elif isinstance(geometry, Mesh):
        info = analysis.mesh_for(element)
        if not isinstance(info, MeshInfo):
            return None
        if not meshes.embeddable(geometry.filename, info.path):
            return _stand_in(element, info, meshes)
        shape = {'type': 'mesh', 'mesh': meshes.add(info), 'scale': list(geometry.scale)}
    else:
        return None
    values = [v for key, v in shape.items() if key in ('size', 'radius', 'length', 'scale')]
    flat = [float(x) for v in values for x in (v if isinstance(v, list) else [v])]
    if not _finite(flat):
        return None
    shape['origin'] = _origin(origin)
    return shape


def _stand_in(element: GeometryElement, info: MeshInfo, meshes: _MeshTable) -> Optional[Dict]:
    """Return the box a mesh kept out of the page is drawn as (its bounds, as placed)."""
    low, high = (np.asarray(value, dtype=float) for value in info.bounds)
    if not (np.all(np.isfinite(low)) and np.all(np.isfinite(high))):
        return None
    meshes.kept_out.add(info.path)
    place = origin_to_matrix(element.origin)
    place[:3, 3] += place[:3, :3] @ ((low + high) / 2.0)
    return {'type': 'box', 'size': [float(v) for v in np.maximum(high - low, 1e-6)],
            'origin': _matrix(place)}


def _inertial(link: Link) -> Dict[str, Any]:
    inertial = link.inertial
    if inertial is None:
        return {}
    out: Dict[str, Any] = {'mass': inertial.mass if math.isfinite(inertial.mass) else None}
    if not _finite(inertial.origin.xyz + inertial.origin.rpy):
        return out
    out['com'] = list(inertial.origin.xyz)
    diameter = com_sphere_diameter(inertial.mass)
    if diameter > 0.0:
        out['com_diameter'] = diameter
    box = equivalent_box(inertial.mass, inertial.inertia)
    if box is not None and np.all(np.isfinite(box[0])) and np.all(box[0] > 0.0):
        size, axes = box
        rotation = rpy_to_matrix(inertial.origin.rpy) @ axes
        transform = np.eye(4)
        transform[:3, :3] = rotation
        transform[:3, 3] = inertial.origin.xyz
        out['box'] = {'size': [float(v) for v in size], 'transform': _matrix(transform)}
    return out


def finding_data(finding: Finding, index: int, source: Optional[str]) -> Dict[str, Any]:
    """Return one finding as the page lists it: its JSON fields, where and the macro chain."""
    data = finding.to_dict()
    data['id'] = index
    data['where'] = location(finding.file if finding.file is not None else source,
                             finding.line)
    data['macros'] = [f"in macro '{call.name}' called at {location(call.file, call.line)}"
                      for call in finding.macro_stack]
    if finding.value_source is not None:
        data['macros'].append(f'value from {location(*finding.value_source)}')
    return data


def collision_pairs(analysis) -> List[Dict[str, Any]]:
    """
    Return the pairs of links whose collision geometry overlaps at rest: depth and severity.

    They are the reported ``collision-overlap-at-rest`` findings (the link and the
    ``other_link`` it overlaps): drawn as lines between the two links, in the colour of the
    finding's severity (an overlap of links welded together is an info); a finding merged
    with its mirror pair (checks.mirrors) gives that pair too.
    """
    pairs = []
    for finding in analysis.findings:
        if finding.rule != OVERLAP or not finding.link:
            continue
        values = dict(finding.values)
        other = values.get('other_link')
        if not other:
            continue
        severity = finding.severity.label
        if values.get('pairs'):  # a list of pairs (checks.collisions: a second collision
            # model's, or links welded together)
            depths = str(values.get('depths_mm', '')).split()
            for index, text in enumerate(str(values['pairs']).split('; ')):
                pairs.append({'links': text.split(', ', 1),
                              'depth': _metres(depths[index] if index < len(depths) else ''),
                              'severity': severity})
            continue
        if len(finding.links) > 1:  # one link overlapping many: each pair, with its depth
            depths = str(values.get('depths_mm', '')).split()
            # links welded to it (in an envelope that is a warning) overlap as an info
            welded = set(str(values.get('welded_links', '')).split(', '))
            for index, partner in enumerate(finding.links[1:]):
                pairs.append({'links': [finding.link, partner],
                              'depth': _metres(depths[index] if index < len(depths) else ''),
                              'severity': 'info' if partner in welded else severity})
            # merged with its mirror's over their mirrors (checks.mirrors)
            mirror, partners = values.get('mirror_link'), values.get('mirror_links')
            depths = str(values.get('mirror_depths_mm', '')).split()
            for index, partner in enumerate(str(partners).split(', ') if partners else ()):
                pairs.append({'links': [mirror, partner],
                              'depth': _metres(depths[index] if index < len(depths) else ''),
                              'severity': severity})
            continue
        pairs.append({'links': [finding.link, other],
                      'depth': _metres(values.get('depth_mm', '')), 'severity': severity})
        mirror, mirror_other = values.get('mirror_link'), values.get('mirror_other_link')
        if mirror and mirror_other:  # merged with its mirror pair (checks.mirrors)
            pairs.append({'links': [mirror, mirror_other],
                          'depth': _metres(values.get('mirror_depth_mm',
                                                      values.get('depth_mm', ''))),
                          'severity': severity})
        for kind in ('fore_aft', 'copy'):  # and the fore-aft pairs, the copies (mirrors)
            rear, rear_others = values.get(f'{kind}_links'), values.get(f'{kind}_other_links')
            if not (rear and rear_others):
                continue
            depths = str(values.get(f'{kind}_depths_mm', '')).split()
            for index, (link, partner) in enumerate(zip(str(rear).split(', '),
                                                        str(rear_others).split(', '))):
                pairs.append({'links': [link, partner],
                              'depth': _metres(depths[index] if index < len(depths) else ''),
                              'severity': severity})
    return pairs


def _metres(millimetres: object) -> Optional[float]:
    """Return a depth_mm value in metres, None when it is not a number."""
    try:
        return float(millimetres) / 1000.0  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def pairs_checked(analysis) -> bool:
    """Return True when the overlaps at rest were looked for (coal installed, rule kept)."""
    return OVERLAP not in analysis.config.ignore_rules and coal_installed()


def build_scene(analysis, label: str, budget: int = TRIANGLE_BUDGET) -> Dict[str, Any]:
    """
    Return everything the page shows about one robot, JSON-ready.

    :param analysis: the analysis (its findings are the reported ones)
    :param label: how to name the input
    :param budget: the triangles embedded over all meshes
    :return: robot, links (pose, geometry, inertial, worst severity, parent joint), meshes,
        findings, robot mass and centre of mass, collision pairs and notes
    """
    robot = analysis.robot
    poses = forward_kinematics(robot, {})
    roots = [os.path.realpath(checkout_root(robot.source))] if robot.source else []
    roots += [os.path.realpath(folder) for _, folder in analysis.config.package_dirs]
    meshes = _MeshTable(roots)
    links = []
    seen = set()
    notes = []
    for link in robot.links:
        if link.name in seen:
            continue
        seen.add(link.name)
        joint = robot.parent_joint(link.name)
        worst = analysis.worst(link.name)
        own = worst_severity(analysis.link_findings(link.name))
        entry: Dict[str, Any] = {
            'name': link.name, 'line': link.line,
            'parent': joint.parent if joint is not None else None,
            'joint': joint.name if joint is not None else None,
            'joint_type': joint.type if joint is not None else None,
            'worst': worst.label if worst is not None else None,
            # the worst of its own findings (None when only findings about several links,
            # a robot-wide choice, list it: drawn in a paler shade)
            'own': own.label if own is not None else None,
            'pose': _matrix(poses[link.name]) if link.name in poses else None,
            'inertial': _inertial(link), 'visuals': [], 'collisions': []}
        if entry['pose'] is not None and len(links) < MAX_DRAWN_LINKS:
            for group, elements in (('visuals', link.visuals), ('collisions', link.collisions)):
                shapes = (_geometry(element, analysis, meshes) for element in elements)
                entry[group] = [shape for shape in shapes if shape is not None]
        links.append(entry)
    if len(links) > MAX_DRAWN_LINKS:
        notes.append(f'only the first {MAX_DRAWN_LINKS:,} of {len(links):,} links are drawn')
    unplaced = sum(1 for entry in links if entry['pose'] is None)
    if unplaced:
        notes.append(f'{unplaced} links are not connected to the root and are not drawn')
    if meshes.kept_out:
        notes.append(f'{len(meshes.kept_out)} mesh files named by file:// or absolute paths '
                     "outside the description's checkout and --package-dir folders are drawn "
                     'as their bounds: a report does not publish their shapes')
    encoded = meshes.encode(budget)
    if encoded['note']:
        notes.append(encoded['note'])
    centre = robot_center_of_mass(robot, poses)
    source = robot.source
    return {
        # As every path of the page, relative to the working directory when under it: the
        # page is a CI artifact, and the runner's absolute paths are nobody's business.
        'robot': robot.name, 'label': label,
        'source': display_path(source) if source is not None else None,
        'counts': analysis.counts(),
        'mass': centre[0] if centre is not None else None,
        'com': [float(v) for v in centre[1]] if centre is not None else None,
        'links': links, 'meshes': encoded['meshes'], 'triangles': encoded['triangles'],
        'findings': [finding_data(finding, index, source)
                     for index, finding in enumerate(analysis.findings)],
        'pairs': collision_pairs(analysis), 'pairs_checked': pairs_checked(analysis),
        'notes': notes,
    }
