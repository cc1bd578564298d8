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
What every rule module shares: the rule table entry, the per-run context, number formatting.

A :class:`CheckContext` is built once per analysis. It holds the robot, the configuration
and the loaded meshes, and derives (and caches) what several rules need: which links move,
the mass lumped through fixed joints, and the union of a link's collision geometry.
"""

from __future__ import annotations

import functools
import math
import os
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Finding, INERTIA_NAMES, Severity
from urdf_link_tools.geometry import (
    Bounds, element_bounds, geometry_values, is_finite, origin_to_matrix, primitive_unit_inertia,
    primitive_volume)
from urdf_link_tools.inertia import parallel_axis, TensorProperties
from urdf_link_tools.kinematics import weld_top
from urdf_link_tools.meshes import MeshInfo, MeshProblem, MeshResult
from urdf_link_tools.model import GeometryElement, Link, Mesh, Robot
from urdf_link_tools.records import record

Values = Tuple[Tuple[str, str], ...]


@record
class Rule:
    """
    One rule of the checker, as documented in docs/rules.md.

    :param rule_id: the stable identifier used in output, ``--ignore`` and configuration
    :param severity: the usual severity (some rules lower or raise it case by case)
    :param title: one line: what the rule detects
    :param why: what goes wrong in practice
    :param fix: how to fix it
    :param source: the code or document the rule follows
    """

    rule_id: str
    severity: Severity
    title: str
    why: str
    fix: str
    source: str


_SPECS = {digits: f'.{digits}g' for digits in range(1, 18)}


def fmt(value: float, digits: int = 4) -> str:
    """Format a number compactly with ``digits`` significant digits."""
    if isinstance(value, float) and math.isfinite(value) and digits in _SPECS:
        # The common case of the code below (numpy's float64 is a float and formats alike).
        return format(value, _SPECS[digits])
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return str(int(value))
    value = float(value)
    if not math.isfinite(value):
        return str(value)
    return f'{value:.{digits}g}'


def fmt_range(values: Iterable[float], digits: int = 4) -> str:
    """Format numbers as their range, '0.1 to 0.3', or one number when all print alike."""
    values = list(values)
    low, high = fmt(min(values), digits), fmt(max(values), digits)
    return low if low == high else f'{low} to {high}'


def fmt_vector(values: Iterable[float], digits: int = 4) -> str:
    """Format numbers separated by blanks, as URDF attributes are written."""
    return ' '.join(fmt(v, digits) for v in values)


def first_names(names: Sequence[str], limit: int) -> str:
    """Return the first ``limit`` names of a list, comma-separated, and how many more."""
    return ', '.join(names[:limit]) + (f' and {len(names) - limit} more'
                                       if len(names) > limit else '')


def fmt_written(values: Iterable[float]) -> str:
    """
    Format values read from the file with every digit they were written with (up to 15).

    For a quote of the file in attribute syntax: rounded to 4 digits, xyz="0.0187 -0.00119"
    for a file's xyz="0.018742 -0.0011938" is found by no search of the file.
    """
    return ' '.join(fmt(v, 15) for v in values)


def fmt_inertia(values: Sequence[float]) -> str:
    """Format six inertia values as URDF attributes (9 significant digits, fix-ready)."""
    return ' '.join(f'{name}="{fmt(v, 9)}"' for name, v in zip(INERTIA_NAMES, values))


@record
class CollisionModel:
    """
    The union of a link's collision geometry, at a density of 1 kg/m^3, in the link frame.

    Parts are assumed not to overlap (overlapping parts are counted twice).
    """

    volume: float
    centre: np.ndarray
    unit_inertia: np.ndarray
    parts: int
    approximate: Tuple[str, ...] = ()


@record
class FusedBody:
    """
    A link with every link welded below it (fixed joints), as MuJoCo fuses static bodies.

    ``tensor`` is about the combined centre of mass ``com``, in the link frame.
    """

    mass: float
    com: np.ndarray
    tensor: np.ndarray

    def has_inertia(self, floor: float) -> bool:
        """Return True when the mass and every principal moment reach ``floor``."""
        if not self.mass >= floor:
            return False
        return bool(np.linalg.eigvalsh(self.tensor)[0] >= floor)


class CheckContext:
    """
    Everything a rule reads, computed lazily and cached for one analysis.

    :param robot: the parsed robot
    :param config: the thresholds
    :param meshes: mesh results keyed by ``id(element)`` (missing when meshes are off)
    """

    def __init__(self, robot: Robot, config: CheckConfig,
                 meshes: Optional[Mapping[int, MeshResult]] = None) -> None:
        self.robot = robot
        self.config = config
        self.meshes: Mapping[int, MeshResult] = meshes or {}
        self._lumped: Dict[str, float] = {}
        self._models: Dict[str, Tuple[Optional[CollisionModel], str]] = {}
        self._tensors: Dict[int, TensorProperties] = {}
        self._bounds: Dict[int, Optional[Bounds]] = {}
        self._fused: Dict[str, FusedBody] = {}
        self._groups: Dict[str, Tuple[str, ...]] = {}
        self._tops: Dict[str, str] = {}
        self._group_flags: Dict[Tuple[str, str], bool] = {}
        #: results rule modules compute once per analysis, keyed by (what, id(link) or name)
        self.memo: Dict[Tuple[str, object], object] = {}

    def finding(self, rule: str, severity: Severity, message: str, *,
                link: Optional[str] = None, element: Optional[str] = None,
                line: Optional[int] = None, suggestion: str = '',
                values: Sequence[Tuple[str, object]] = (),
                suggested_inertia: Optional[Sequence[float]] = None,
                links: Sequence[str] = (),
                links_suggested_inertia: Sequence[Tuple[str, Sequence[float]]] = ()
                ) -> Finding:
        """Build a finding; values are formatted to text here."""
        text_values = tuple((key, value if isinstance(value, str) else fmt(value))
                            for key, value in values)
        inertia = None
        if suggested_inertia is not None:
            inertia = tuple(float(v) for v in suggested_inertia)
        return Finding(rule=rule, severity=severity, message=message, link=link,
                       element=element, line=line, suggestion=suggestion,
                       values=text_values, suggested_inertia=inertia,  # type: ignore[arg-type]
                       links=tuple(links),
                       links_suggested_inertia=tuple(  # type: ignore[arg-type]
                           (name, tuple(float(v) for v in tensor))
                           for name, tensor in links_suggested_inertia))

    def mesh_for(self, element: GeometryElement) -> Optional[MeshResult]:
        """Return the loaded mesh (or its problem) of a mesh element, None otherwise."""
        return self.meshes.get(id(element))

    def real_path(self, path: str) -> str:
        """
        Return ``os.path.realpath(path)``, each folder resolved once per analysis.

        A robot's meshes share a few folders: ``realpath`` checks every component of every
        path (an lstat each: 5-7 ms on a humanoid's 60 paths); here a file's own name is
        checked, and its folder only the first time.
        """
        memo: Dict[str, str] = self.memo.setdefault(('real paths', None), {})  # type: ignore
        found = memo.get(path)
        if found is None:
            folder, name = os.path.split(path)
            if not folder or name in ('', '.', '..'):
                found = os.path.realpath(path)
            else:
                real_folder = memo.get(folder)
                if real_folder is None:
                    real_folder = memo[folder] = os.path.realpath(folder)
                found = os.path.join(real_folder, name)
                if os.path.islink(found):
                    found = os.path.realpath(found)
            memo[path] = found
        return found

    @functools.cached_property
    def root_names(self) -> FrozenSet[str]:
        """Return the names of the root links (computed once: checks ask for each link)."""
        return frozenset(self.robot.root_links)

    @functools.cached_property
    def joint_names(self) -> FrozenSet[str]:
        """Return the names of every joint (computed once)."""
        return frozenset(joint.name for joint in self.robot.joints)

    def is_moving(self, link_name: str) -> bool:
        """Return True when the link's parent joint is not fixed."""
        joint = self.robot.parent_joint(link_name)
        return joint is not None and joint.is_moving

    def lumped_mass(self, link_name: str) -> float:
        """
        Return the mass of a link plus the links welded to it below through fixed joints.

        Gazebo's URDF import lumps fixed joints and MuJoCo fuses static bodies, so a
        massless moving link whose fixed child carries the mass is accepted by both.
        Non-finite or negative masses count as zero here.
        """
        cached = self._lumped.get(link_name)
        if cached is not None:
            return cached
        total = 0.0
        for name in self._welded_below(link_name):
            link = self.robot.link(name)
            if link is not None and math.isfinite(link.mass) and link.mass > 0.0:
                total += link.mass
        self._lumped[link_name] = total
        return total

    def fused(self, link_name: str) -> FusedBody:
        """
        Return the link fused with the links welded below it, as MuJoCo compiles a URDF.

        MuJoCo's URDF import fuses bodies joined by fixed joints (``fusestatic``) before
        it checks that a moving body has mass and inertia, so a massless or inertia-free
        moving link whose welded child carries both compiles (verified with MuJoCo 4.0 in
        test_checks_mujoco_claims.py). Numbers that are not finite count as zero.
        """
        cached = self._fused.get(link_name)
        if cached is not None:
            return cached
        parts: List[Tuple[float, np.ndarray, np.ndarray]] = []
        seen = set()
        stack = [(link_name, np.eye(4))]
        while stack:
            name, transform = stack.pop()
            if name in seen:
                continue
            seen.add(name)
            link = self.robot.link(name)
            inertial = link.inertial if link is not None else None
            if inertial is not None and math.isfinite(inertial.mass) and inertial.mass > 0.0 \
                    and is_finite(inertial.inertia.as_tuple()) \
                    and is_finite(inertial.origin.xyz + inertial.origin.rpy):
                frame = transform @ origin_to_matrix(inertial.origin)
                rotation = frame[:3, :3]
                tensor = rotation @ np.array(inertial.inertia.as_matrix(), dtype=float) \
                    @ rotation.T
                parts.append((inertial.mass, frame[:3, 3], tensor))
            for joint in self.robot.child_joints(name):
                if not joint.is_moving and is_finite(joint.origin.xyz + joint.origin.rpy):
                    stack.append((joint.child, transform @ origin_to_matrix(joint.origin)))
        mass = sum(part[0] for part in parts)
        if mass > 0.0:
            com = sum(part[0] * part[1] for part in parts) / mass
        else:
            com = np.zeros(3)
        total = np.zeros((3, 3))
        for part_mass, centre, tensor in parts:
            total += tensor + parallel_axis(part_mass, centre - com)
        body = FusedBody(float(mass), com, total)
        self._fused[link_name] = body
        return body

    def weld_top(self, name: str) -> str:
        """Return the link a link is welded to: up through fixed joints (itself if moving)."""
        return weld_top(self.robot, name, self._tops)

    def group_has_collision(self, name: str) -> bool:
        """Return True when a link of the weld group has collision geometry."""
        return self._group_has(name, 'collisions')

    def group_draws(self, name: str) -> bool:
        """Return True when a link of the weld group has visual geometry."""
        return self._group_has(name, 'visuals')

    def _group_has(self, name: str, group: str) -> bool:
        """Return True when a link of the weld group has geometry in ``group``, once a body."""
        top = self.weld_top(name)
        if (top, group) not in self._group_flags:
            self._group_flags[(top, group)] = any(
                any(element.geometry is not None for element in getattr(member, group))
                for member in (self.robot.link(item) for item in self.weld_group(top))
                if member is not None)
        return self._group_flags[(top, group)]

    def _welded_below(self, name: str) -> Tuple[str, ...]:
        """Return a link and the links welded below it through fixed joints (a loop once)."""
        members: List[str] = []
        seen = set()
        stack = [name]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            members.append(current)
            stack.extend(joint.child for joint in self.robot.child_joints(current)
                         if not joint.is_moving)
        return tuple(members)

    def weld_group(self, name: str) -> Tuple[str, ...]:
        """Return the links that form one rigid body with this one (fixed joints both ways)."""
        top = self.weld_top(name)
        group = self._groups.get(top)
        if group is None:
            group = self._groups[top] = self._welded_below(top)
        return group

    def tensor(self, link: Link) -> TensorProperties:
        """
        Return the derived quantities of a link's declared tensor, computed once per analysis.

        :param link: a link with an ``<inertial>``
        :return: the shared :class:`~urdf_link_tools.inertia.TensorProperties`
        """
        key = id(link)
        tensor = self._tensors.get(key)
        if tensor is None:
            tensor = TensorProperties(link.inertial.inertia)
            self._tensors[key] = tensor
        return tensor

    def element_bounds(self, element: GeometryElement) -> Optional[Bounds]:
        """
        Return the element's exact bounds in the link frame, or None when unknown.

        :func:`urdf_link_tools.geometry.element_bounds`, as the services report them
        (:meth:`urdf_link_tools.analysis.Analysis.element_bounds`), cached per element.
        """
        key = id(element)
        if key in self._bounds:
            return self._bounds[key]
        mesh = self.mesh_for(element)
        bounds = element_bounds(element, mesh if isinstance(mesh, MeshInfo) else None)
        self._bounds[key] = bounds
        return bounds

    def collision_model(self, link: Link) -> Tuple[Optional[CollisionModel], str]:
        """
        Return the link's collision union, or None and the reason it cannot be built.

        :param link: the link
        :return: (model, '') or (None, reason)
        """
        key = f'{id(link)}'
        cached = self._models.get(key)
        if cached is not None:
            return cached
        result = self._build_model(link)
        self._models[key] = result
        return result

    def visual_model(self, link: Link) -> Tuple[Optional[CollisionModel], str]:
        """
        Return the union of the link's visual geometry, as :meth:`collision_model` does.

        Only for a suggestion where there is no collision geometry: a visual mesh's solid is
        measured when this is first asked.
        """
        key = f'visual-{id(link)}'
        cached = self._models.get(key)
        if cached is not None:
            return cached
        result = self._build_model(link, link.visuals, 'visual')
        self._models[key] = result
        return result

    def _build_model(self, link: Link, group: Optional[Sequence[GeometryElement]] = None,
                     what: str = 'collision') -> Tuple[Optional[CollisionModel], str]:
        parts: List[Tuple[float, np.ndarray, np.ndarray]] = []
        approximate: List[str] = []
        written = link.collisions if group is None else group
        elements = [element for element in written if element.geometry is not None]
        if not elements:
            return None, f'no {what} geometry'
        if len(elements) < len(written):  # a <capsule>, refused: the union is not known
            unread = next(element for element in written if element.geometry is None)
            return None, f'the shape of {unread.label} was not read'
        for element in elements:
            geometry = element.geometry
            if not is_finite(element.origin.xyz + element.origin.rpy) or \
                    not is_finite(geometry_values(geometry)):
                return None, f'{element.label} has numbers that are not finite'
            rpy = element.origin.rpy
            unrotated = not isinstance(geometry, Mesh) and \
                rpy[0] == 0.0 and rpy[1] == 0.0 and rpy[2] == 0.0
            if not unrotated:
                transform = origin_to_matrix(element.origin)
                rotation, offset = transform[:3, :3], transform[:3, 3]
            if isinstance(geometry, Mesh):
                mesh = self.mesh_for(element)
                if mesh is None:
                    return None, f'{element.label}: meshes were not loaded'
                if isinstance(mesh, MeshProblem):
                    return None, f'{element.label}: {mesh.message}'
                if mesh.volume_source != 'mesh':
                    approximate.append(f'{element.label} ({mesh.volume_source})')
                volume = mesh.volume
                centre = rotation @ mesh.center_mass + offset
                unit = rotation @ mesh.unit_inertia @ rotation.T
            else:
                volume = primitive_volume(geometry)
                local = primitive_unit_inertia(geometry)
                if volume is None or local is None:
                    return None, f'{element.label} has a zero or negative size'
                if unrotated:
                    # R is the identity up to the signs of its zeros: the diagonal of
                    # R I R^T is the primitive's own (1 times it plus products with zeros),
                    # bit for bit, and its zero products (+0 or -0) become the +0 of the
                    # Steiner term below (or its number): the same tensor without the two
                    # 3x3 products, which cost more than the rest of this loop.
                    centre = np.array([float(v) for v in element.origin.xyz])
                    unit = local
                else:
                    centre = offset
                    unit = rotation @ local @ rotation.T
            if not volume > 0.0:
                return None, f'{element.label} has no volume'
            parts.append((volume, centre, unit))
        total = sum(part[0] for part in parts)
        centre = sum(part[0] * part[1] for part in parts) / total
        tensor = np.zeros((3, 3))
        for volume, part_centre, unit in parts:
            # Steiner: each part's central tensor moved to the combined centre.
            tensor += unit + parallel_axis(volume, part_centre - centre)
        return CollisionModel(total, centre, tensor, len(parts), tuple(approximate)), ''
