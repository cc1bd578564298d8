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
Each link's collision geometry as the collision library (coal) holds it.

Primitives become coal's box, sphere and cylinder; a mesh becomes a BVH of the triangles
the checker read (:mod:`urdf_link_tools.meshes`), scaled as the URDF says, as MoveIt hands
meshes to FCL: a surface, so a part wholly inside another does not touch it, as in MoveIt.
Each body also gets a bounding sphere in its link frame, the broad phase of
:mod:`urdf_link_tools.collision.matrix`. coal is imported here only, on first use.
"""

from dataclasses import dataclass, field
import math
from typing import Dict, List, Mapping, Optional, Tuple

import numpy as np

from urdf_link_tools.geometry import geometry_values, is_finite, origin_to_matrix
from urdf_link_tools.meshes import MeshInfo, MeshResult
from urdf_link_tools.model import Box, GeometryElement, Mesh, Robot, Sphere

#: why coal is needed, said when it is missing
NEEDS_COAL = ('self-collision needs the coal collision library (pip install coal, or '
              'ros-$ROS_DISTRO-coal; pip install pin brings it too)')


class CollisionLibraryMissing(RuntimeError):
    """coal cannot be imported."""


def import_coal():
    """
    Return the coal module.

    :raises CollisionLibraryMissing: when it is not installed
    """
    try:
        import coal
    except ImportError:
        raise CollisionLibraryMissing(NEEDS_COAL) from None
    return coal


@dataclass
class Part:
    """One collision element: its coal geometry and its pose in the link frame."""

    label: str
    geometry: object
    transform: np.ndarray
    points: np.ndarray = field(repr=False)


@dataclass
class Body:
    """
    A link's collision geometry: its parts, and a sphere holding them all (link frame).

    :param link: the link name
    :param parts: the collision elements that could be built
    :param centre: the bounding sphere's centre in the link frame
    :param radius: its radius
    """

    link: str
    parts: List[Part]
    centre: np.ndarray
    radius: float


@dataclass(frozen=True)
class Skipped:
    """A collision element left out, and why."""

    link: str
    element: str
    reason: str


_CORNERS = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)


def _box_points(half: np.ndarray) -> np.ndarray:
    return _CORNERS * half


def _primitive(coal, geometry) -> Tuple[Optional[object], np.ndarray, str]:
    values = geometry_values(geometry)
    if not all(value > 0.0 for value in values):
        return None, np.zeros((0, 3)), 'a zero or negative size'
    if isinstance(geometry, Box):
        size = np.asarray(geometry.size, dtype=float)
        return coal.Box(*size), _box_points(size / 2.0), ''
    if isinstance(geometry, Sphere):
        radius = float(geometry.radius)
        return coal.Sphere(radius), _box_points(np.full(3, radius)), ''
    radius, length = float(geometry.radius), float(geometry.length)
    return coal.Cylinder(radius, length), _box_points(np.array([radius, radius, length / 2])), ''


class BvhCache:
    """BVH models of mesh files, one per file and scale, shared by every use."""

    def __init__(self) -> None:
        self._models: Dict[Tuple[int, Tuple[float, float, float]], object] = {}

    def model(self, coal, mesh: MeshInfo) -> object:
        """Return the BVH of a mesh's triangles at its scale."""
        key = (id(mesh.raw), tuple(mesh.scale))
        found = self._models.get(key)
        if found is None:
            vertices = np.ascontiguousarray(mesh.vertices, dtype=np.float64)
            faces = np.ascontiguousarray(mesh.faces, dtype=np.int32)
            found = coal.BVHModelOBBRSS()
            found.beginModel(len(faces), len(vertices))
            found.addVertices(vertices)
            found.addTriangles(faces)
            found.endModel()
            self._models[key] = found
        return found


def _part(coal, element: GeometryElement, mesh: Optional[MeshResult],
          cache: BvhCache) -> Tuple[Optional[Part], str]:
    geometry = element.geometry
    if geometry is None:
        return None, 'no geometry'
    if not is_finite(element.origin.xyz + element.origin.rpy) or \
            not is_finite(geometry_values(geometry)):
        return None, 'numbers that are not finite'
    transform = np.eye(4) if element.origin.is_identity else origin_to_matrix(element.origin)
    if isinstance(geometry, Mesh):
        if not isinstance(mesh, MeshInfo):
            return None, getattr(mesh, 'message', 'the mesh was not loaded')
        if any(value == 0.0 for value in geometry.scale):
            return None, 'a zero scale'
        if not mesh.face_count:
            return None, 'a mesh without triangles'
        shape, points = cache.model(coal, mesh), np.asarray(mesh.vertices, dtype=float)
    else:
        shape, points, reason = _primitive(coal, geometry)
        if shape is None:
            return None, reason
    placed = points @ transform[:3, :3].T + transform[:3, 3]
    return Part(element.label, shape, transform, placed), ''


def build_bodies(robot: Robot, meshes: Mapping[int, MeshResult],
                 cache: Optional[BvhCache] = None) -> Tuple[Dict[str, Body], List[Skipped]]:
    """
    Return the collision body of every link with collision geometry that can be built.

    :param robot: the model
    :param meshes: loaded meshes keyed by ``id(element)`` (an analysis' ``meshes``)
    :param cache: BVH models to reuse across calls
    :return: link name -> body, and the elements left out with the reason
    :raises CollisionLibraryMissing: when coal is not installed
    """
    coal = import_coal()
    cache = cache if cache is not None else BvhCache()
    bodies: Dict[str, Body] = {}
    skipped: List[Skipped] = []
    for link in robot.links:
        if link.name in bodies or robot.link(link.name) is not link:
            continue  # a duplicated name: the first definition, as urdfdom keeps it
        parts = []
        for element in link.collisions:
            part, reason = _part(coal, element, meshes.get(id(element)), cache)
            if part is None:
                skipped.append(Skipped(link.name, element.label, reason))
            else:
                parts.append(part)
        if not parts:
            continue
        points = np.concatenate([part.points for part in parts])
        low, high = points.min(axis=0), points.max(axis=0)
        centre = (low + high) / 2.0
        radius = float(np.sqrt(((points - centre) ** 2).sum(axis=1).max()))
        if not math.isfinite(radius):
            skipped.append(Skipped(link.name, 'collision', 'coordinates that are not finite'))
            continue
        bodies[link.name] = Body(link.name, parts, centre, radius)
    return bodies, skipped


def coal_transform(coal, matrix: np.ndarray) -> object:
    """Return a 4x4 homogeneous matrix as coal's Transform3s."""
    return coal.Transform3s(np.ascontiguousarray(matrix[:3, :3]),
                            np.ascontiguousarray(matrix[:3, 3]))
