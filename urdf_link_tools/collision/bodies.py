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

from __future__ import annotations

from dataclasses import dataclass
import math
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from urdf_link_tools.geometry import geometry_values, is_finite, origin_to_matrix
from urdf_link_tools.meshes import MeshInfo, MeshResult
from urdf_link_tools.meshes.hull import coal_installed
from urdf_link_tools.meshes.integrals import column_bounds
from urdf_link_tools.meshes.reading import frozen
from urdf_link_tools.model import Box, GeometryElement, Mesh, Robot, Sphere
from urdf_link_tools.records import record

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


def require_coal() -> None:
    """
    Make sure coal can be imported, without importing it (about 35 ms and 29 MB).

    Bodies are built before any pair is known to be near; coal is imported when the first
    geometry is built, which a robot whose links are all apart never needs.

    :raises CollisionLibraryMissing: when it is not installed
    """
    if not coal_installed():
        raise CollisionLibraryMissing(NEEDS_COAL)


class Part:
    """
    One collision element: its pose in the link frame, bounding sphere and coal geometry.

    The geometry is built on first use: most parts of a big robot are never near another.
    """

    def __init__(self, label: str, origin, build: Callable[[], object],
                 centre: Tuple[float, float, float], radius: float,
                 transform: Optional[np.ndarray] = None,
                 box: Optional[Tuple[np.ndarray, np.ndarray]] = None,
                 points: Optional[np.ndarray] = None,
                 faces: Optional[np.ndarray] = None,
                 half: Optional[Tuple[float, float, float]] = None,
                 mesh: Optional[MeshInfo] = None, shape: Optional[tuple] = None) -> None:
        self.label = label
        #: the mesh a mesh part was made of (results derived from it are kept with the
        #: file, :meth:`~urdf_link_tools.meshes.MeshInfo.derived`), None for a primitive
        self.mesh = mesh
        #: a primitive's kind and sizes (what a test against it depends on), None for a mesh
        self.shape = shape
        self.centre = centre
        self.radius = radius
        self._box = box
        self._points = points
        #: a primitive's half sides, from which its box and corners are made when first
        #: asked (most parts of a big robot are never near another)
        self._half = half
        #: a mesh's triangles (indices into ``points``); None for a primitive
        self.faces = faces
        self._origin = origin
        self._build = build
        self._geometry: Optional[object] = None
        self._transform = transform

    @property
    def box(self) -> Optional[Tuple[np.ndarray, np.ndarray]]:
        """Return (centre, half sides) of a box holding the geometry, in the element's frame."""
        if self._box is None and self._half is not None:
            self._box = (np.zeros(3), np.array(self._half))
        return self._box

    @property
    def points(self) -> Optional[np.ndarray]:
        """Return points whose hull holds the geometry (mesh vertices, a primitive's corners)."""
        if self._points is None and self._half is not None:
            self._points = _CORNERS * np.array(self._half)
        return self._points

    @property
    def geometry(self) -> object:
        """Return the coal geometry."""
        if self._geometry is None:
            self._geometry = self._build()
        return self._geometry

    @property
    def transform(self) -> np.ndarray:
        """Return the element's pose in the link frame (4x4)."""
        if self._transform is None:
            self._transform = np.eye(4) if self._origin.is_identity else \
                origin_to_matrix(self._origin)
        return self._transform


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


@record
class Skipped:
    """A collision element left out, and why."""

    link: str
    element: str
    reason: str


def _primitive(geometry) -> Tuple[Optional[Callable[[], object]], float, str]:
    """Return how to build a primitive, the radius of its bounding sphere, or why not."""
    values = geometry_values(geometry)
    if not all(value > 0.0 for value in values):
        return None, 0.0, 'a zero or negative size'
    if isinstance(geometry, Box):
        x, y, z = (float(v) for v in geometry.size)
        return lambda: import_coal().Box(x, y, z), math.sqrt(x * x + y * y + z * z) / 2.0, ''
    if isinstance(geometry, Sphere):
        radius = float(geometry.radius)
        return lambda: import_coal().Sphere(radius), radius, ''
    radius, length = float(geometry.radius), float(geometry.length)
    return lambda: import_coal().Cylinder(radius, length), math.hypot(radius, length / 2.0), ''


class BvhCache:
    """BVH models of mesh files, one per file and scale, shared by every use."""

    def __init__(self) -> None:
        self._models: Dict[Tuple[int, Tuple[float, float, float]], object] = {}

    def extent(self, mesh: MeshInfo) -> Tuple[np.ndarray, float, np.ndarray]:
        """
        Return how far a mesh reaches at its scale, in the mesh frame.

        Kept with the file (:meth:`~urdf_link_tools.meshes.MeshInfo.derived`): the next
        analysis of the same file does not take it again.

        :return: the centre of its box, the radius of a sphere about that centre holding it,
            and the box's half sides
        """
        return mesh.derived(('extent',), lambda: _extent(mesh))

    def model(self, mesh: MeshInfo) -> object:
        """Return the BVH of a mesh's triangles at its scale."""
        key = (id(mesh.raw), tuple(mesh.scale))
        found = self._models.get(key)
        if found is None:
            coal = import_coal()
            vertices = np.ascontiguousarray(mesh.vertices, dtype=np.float64)
            faces = np.ascontiguousarray(mesh.faces, dtype=np.int32)
            found = coal.BVHModelOBB()
            found.beginModel(len(faces), len(vertices))
            found.addVertices(vertices)
            found.addTriangles(faces)
            found.endModel()
            self._models[key] = found
        return found


def _extent(mesh: MeshInfo) -> Tuple[np.ndarray, float, np.ndarray]:
    points = np.asarray(mesh.vertices, dtype=float)
    low, high = column_bounds(points)
    centre = frozen((low + high) / 2.0)
    offsets = points - centre
    squared = offsets[:, 0] ** 2 + offsets[:, 1] ** 2 + offsets[:, 2] ** 2  # see row_bounds
    return (centre, float(np.sqrt(squared.max())),
            frozen((high - low) / 2.0))


def _part(element: GeometryElement, mesh: Optional[MeshResult],
          cache: BvhCache) -> Tuple[Optional[Part], str]:
    geometry = element.geometry
    if geometry is None:
        return None, 'no geometry'
    origin = element.origin
    if not is_finite(origin.xyz + origin.rpy) or not is_finite(geometry_values(geometry)):
        return None, 'numbers that are not finite'
    if isinstance(geometry, Mesh):
        if not isinstance(mesh, MeshInfo):
            return None, getattr(mesh, 'message', 'the mesh was not loaded')
        if any(value == 0.0 for value in geometry.scale):
            return None, 'a zero scale'
        if not mesh.face_count:
            return None, 'a mesh without triangles'
        local, radius, half = cache.extent(mesh)
        transform = origin_to_matrix(origin)
        centre = transform[:3, :3] @ local + transform[:3, 3]
        return Part(element.label, origin, lambda: cache.model(mesh),
                    tuple(float(v) for v in centre), radius, transform, (local, half),
                    np.asarray(mesh.vertices, dtype=float), np.asarray(mesh.faces),
                    mesh=mesh), ''
    build, radius, reason = _primitive(geometry)
    if build is None:
        return None, reason
    # A primitive is centred on its origin: its sphere does not turn with it.
    return Part(element.label, origin, build, tuple(float(v) for v in origin.xyz), radius,
                half=_half_sides(geometry),
                shape=(type(geometry).__name__,) + tuple(geometry_values(geometry))), ''


_CORNERS = np.array([(x, y, z) for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)])


def _half_sides(geometry) -> Tuple[float, float, float]:
    """Return the half sides of the box around a primitive, centred on its origin."""
    if isinstance(geometry, Box):
        x, y, z = (float(v) for v in geometry.size)
        return x / 2.0, y / 2.0, z / 2.0
    if isinstance(geometry, Sphere):
        radius = float(geometry.radius)
        return radius, radius, radius
    radius = float(geometry.radius)
    return radius, radius, float(geometry.length) / 2.0


def _enclosing(parts: List[Part]) -> Tuple[Sequence[float], float]:
    """Return a sphere holding the parts' spheres (the middle of their bounds)."""
    if len(parts) == 1:
        return parts[0].centre, parts[0].radius
    low = [min(p.centre[i] - p.radius for p in parts) for i in range(3)]
    high = [max(p.centre[i] + p.radius for p in parts) for i in range(3)]
    centre = [(a + b) / 2.0 for a, b in zip(low, high)]
    radius = max(math.dist(p.centre, centre) + p.radius for p in parts)
    return centre, radius


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
    require_coal()
    cache = cache if cache is not None else BvhCache()
    bodies: Dict[str, Body] = {}
    skipped: List[Skipped] = []
    for link in robot.links:
        if link.name in bodies or robot.link(link.name) is not link:
            continue  # a duplicated name: the first definition, as urdfdom keeps it
        parts = []
        for element in link.collisions:
            part, reason = _part(element, meshes.get(id(element)), cache)
            if part is None:
                skipped.append(Skipped(link.name, element.label, reason))
            else:
                parts.append(part)
        if not parts:
            continue
        centre, radius = _enclosing(parts)
        if not (math.isfinite(radius) and is_finite(centre)):
            skipped.append(Skipped(link.name, 'collision', 'coordinates that are not finite'))
            continue
        bodies[link.name] = Body(link.name, parts, np.array(centre, dtype=float), radius)
    return bodies, skipped


def coal_transform(coal, matrix: np.ndarray) -> object:
    """Return a 4x4 homogeneous matrix as coal's Transform3s."""
    return coal.Transform3s(np.ascontiguousarray(matrix[:3, :3]),
                            np.ascontiguousarray(matrix[:3, 3]))
