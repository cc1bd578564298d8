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
Resolve and load the mesh files a URDF refers to, safely, with a shared cache.

Resolution follows ROS: ``package://NAME/PATH`` is looked up first in the package
directories the user gave, then in the ament index of every prefix on
``AMENT_PREFIX_PATH`` (``<prefix>/share/ament_index/resource_index/packages/NAME`` marks
``<prefix>/share/NAME``); ``file://`` URIs and plain paths are absolute or relative to the
URDF's folder. Every failure says what was tried.

Loading refuses, without opening it, anything that is not a regular file (a folder, a FIFO,
a device such as /dev/zero, a socket) and anything larger than ``max_bytes``; the file is
then opened non-blocking, checked again through its descriptor and read with a bound, so
no file can make the checker hang or exhaust memory. STL (ASCII and binary), OBJ and DAE
are parsed by trimesh (DAE through pycollada). A DAE ``<unit meter="...">`` is applied as
RViz's and Gazebo's loaders do, then the URDF ``scale``.

Volumes, centres and inertia come from the closed surface when the mesh is watertight
with consistent winding (trimesh's exact integrals); otherwise from its convex hull
(``volume_source`` says which).
"""

from dataclasses import dataclass, field
import errno
import io
import logging
import os
import re
import stat
import threading
from typing import Dict, Mapping, Optional, Sequence, Tuple, Union
from urllib.parse import unquote

import numpy as np

LOG = logging.getLogger(__name__)

DEFAULT_MAX_BYTES = 100_000_000
SUPPORTED = {'.stl': 'stl', '.obj': 'obj', '.dae': 'dae'}
_UNIT_RE = re.compile(rb'<unit\b[^>]*\bmeter\s*=\s*["\']([^"\']+)["\']')

Scale = Tuple[float, float, float]


@dataclass(frozen=True)
class MeshResolution:
    """Where a mesh URI points: the file, or the error and every location tried."""

    uri: str
    path: Optional[str]
    tried: Tuple[str, ...] = ()
    error: Optional[str] = None


@dataclass(frozen=True)
class _Solid:
    """What a mesh encloses, at density 1 kg/m^3 (see :class:`MeshInfo`)."""

    volume: float
    is_watertight: bool
    center_mass: np.ndarray
    unit_inertia: np.ndarray
    volume_source: str


class _Measure:
    """Measure a mesh's solid once, on first use, whichever thread asks first."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._solid: Optional[_Solid] = None

    def get(self, info: 'MeshInfo') -> _Solid:
        solid = self._solid
        if solid is None:
            with self._lock:
                solid = self._solid
                if solid is None:
                    solid = self._solid = _measure_solid(info)
        return solid


@dataclass(frozen=True, eq=False)
class MeshInfo:
    """
    A loaded mesh, with the URDF scale (and any DAE unit) applied.

    ``unit_inertia`` is the inertia tensor about ``center_mass`` for a density of
    1 kg/m^3, in the mesh's own frame; ``volume_source`` is 'mesh' when the surface is
    closed and consistently wound, else 'convex hull' (or 'bounding box' when SciPy,
    which computes hulls, is missing).

    These solid properties (with ``volume`` and ``is_watertight``) are measured on first
    use, then kept: only collision meshes need them, and measuring (merging vertices,
    checking that the surface is closed, a convex hull for an open one, the integrals)
    costs more than reading the file, for visual meshes that are most of the bytes.
    """

    path: str
    vertices: np.ndarray
    faces: np.ndarray
    face_count: int
    bounds: Tuple[np.ndarray, np.ndarray]
    unit_scale: float = 1.0
    size_bytes: int = 0
    #: the loader merged exactly these coordinates (see _measure_solid)
    _merged: bool = field(default=False, repr=False, compare=False)
    _measure: _Measure = field(default_factory=_Measure, repr=False, compare=False)

    @property
    def volume(self) -> float:
        """Return the enclosed volume in m^3."""
        return self._measure.get(self).volume

    @property
    def is_watertight(self) -> bool:
        """Return True when every edge is shared by exactly two faces (after merging)."""
        return self._measure.get(self).is_watertight

    @property
    def center_mass(self) -> np.ndarray:
        """Return the centroid of the enclosed volume, in the mesh frame."""
        return self._measure.get(self).center_mass

    @property
    def unit_inertia(self) -> np.ndarray:
        """Return the inertia about ``center_mass`` at 1 kg/m^3, in the mesh frame."""
        return self._measure.get(self).unit_inertia

    @property
    def volume_source(self) -> str:
        """Return 'mesh', 'convex hull' or 'bounding box': what the volume is of."""
        return self._measure.get(self).volume_source


@dataclass(frozen=True)
class MeshProblem:
    """Why a mesh could not be used: ``rule`` is 'mesh-not-found' or 'mesh-unreadable'."""

    rule: str
    message: str
    tried: Tuple[str, ...] = ()
    path: Optional[str] = None


MeshResult = Union[MeshInfo, MeshProblem]


@dataclass(frozen=True)
class _RawMesh:
    vertices: np.ndarray
    faces: np.ndarray
    unit_scale: float
    size_bytes: int
    #: one geometry, merged by trimesh's loader, placed and sized unchanged
    merged: bool = False


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


def _format_size(size: int) -> str:
    return f'{size / 1e6:.1f} MB' if size >= 1e6 else f'{size} bytes'


class MeshLibrary:
    """
    Resolve and load meshes; one instance may be shared by threads.

    :param package_dirs: package name -> directory of that package (its share folder),
        taking precedence over the ament index
    :param max_bytes: refuse files larger than this
    :param use_ament_index: look packages up through ``AMENT_PREFIX_PATH``
    :param ament_prefix_path: prefixes to search instead of the environment variable
    """

    def __init__(self, package_dirs: Optional[Mapping[str, str]] = None,
                 max_bytes: int = DEFAULT_MAX_BYTES, use_ament_index: bool = True,
                 ament_prefix_path: Optional[Sequence[str]] = None) -> None:
        self.package_dirs: Dict[str, str] = dict(package_dirs or {})
        self.max_bytes = int(max_bytes)
        self.use_ament_index = use_ament_index
        if ament_prefix_path is None:
            ament_prefix_path = [item for item in
                                 os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep)
                                 if item]
        self.ament_prefix_path: Tuple[str, ...] = tuple(ament_prefix_path)
        self._lock = threading.Lock()
        self._key_locks: Dict[tuple, threading.Lock] = {}
        self._raw: Dict[tuple, Union[_RawMesh, MeshProblem]] = {}
        self._infos: Dict[tuple, MeshResult] = {}
        self._packages: Dict[str, Tuple[str, ...]] = {}
        self.loads = 0

    # ----------------------------------------------------------------- resolution

    def package_candidates(self, name: str) -> Tuple[str, ...]:
        """
        Return the directories that may hold package ``name``, best first.

        :param name: the package name
        :return: user-given directory (if any), then ament index entries
        """
        with self._lock:
            cached = self._packages.get(name)
        if cached is not None:
            return cached
        found = []
        if name in self.package_dirs:
            found.append(self.package_dirs[name])
        if self.use_ament_index:
            for prefix in self.ament_prefix_path:
                marker = os.path.join(prefix, 'share', 'ament_index', 'resource_index',
                                      'packages', name)
                if os.path.isfile(marker):
                    found.append(os.path.join(prefix, 'share', name))
        result = tuple(found)
        with self._lock:
            self._packages[name] = result
        return result

    def resolve(self, uri: str, base_dir: Optional[str]) -> MeshResolution:
        """
        Find the file a mesh URI refers to.

        :param uri: ``package://``, ``file://``, absolute or relative path
        :param base_dir: the URDF's folder (None when it came from stdin)
        :return: the resolution; ``path`` is None with ``error`` and ``tried`` on failure
        """
        text = uri.strip()
        if text.startswith('package://'):
            return self._resolve_package(uri, text[len('package://'):])
        if '$(' in text or '${' in text:
            return MeshResolution(uri, None, (), 'the filename holds an unexpanded xacro '
                                  'expression: run the file through xacro first')
        if text.startswith('file://'):
            rest = unquote(text[len('file://'):])
            if rest.startswith('localhost/'):
                rest = rest[len('localhost'):]
            if rest.startswith('/'):
                return self._check_paths(uri, [rest])
            return self._resolve_relative(uri, rest, base_dir)
        if re.match(r'^[A-Za-z][A-Za-z0-9+.-]*://', text):
            scheme = text.split('://', 1)[0]
            return MeshResolution(uri, None, (), f'the {scheme}:// scheme is not supported '
                                  'offline: use package://, file:// or a path')
        if os.path.isabs(text):
            return self._check_paths(uri, [text])
        return self._resolve_relative(uri, text, base_dir)

    def _resolve_relative(self, uri: str, relative: str,
                          base_dir: Optional[str]) -> MeshResolution:
        if base_dir is None:
            # Read from stdin: no URDF folder, so the current folder is the only guess.
            resolution = self._check_paths(uri, [os.path.abspath(relative)])
            if resolution.path is None:
                return MeshResolution(uri, None, resolution.tried + (
                    '(the description came from standard input, so relative paths '
                    'cannot be resolved against its folder)',), resolution.error)
            return resolution
        return self._check_paths(uri, [os.path.normpath(os.path.join(base_dir, relative))])

    def _resolve_package(self, uri: str, rest: str) -> MeshResolution:
        # 'package:///pkg/x' (three slashes) is written by some exporters; resolve it like
        # 'package://pkg/x' instead of looking for a package with an empty name.
        rest = rest.lstrip('/')
        name, _, relative = rest.partition('/')
        if not name or not relative:
            return MeshResolution(uri, None, (), 'a package URI must look like '
                                  'package://PACKAGE/path/to/mesh')
        candidates = self.package_candidates(name)
        if not candidates:
            where = (f'AMENT_PREFIX_PATH={os.pathsep.join(self.ament_prefix_path)}'
                     if self.use_ament_index and self.ament_prefix_path else
                     'no AMENT_PREFIX_PATH' if self.use_ament_index else 'ament index off')
            return MeshResolution(
                uri, None, (f'package {name!r}: not given with --package-dir and not in the '
                            f'ament index ({where})',),
                f'package {name!r} was not found: source its workspace or pass '
                f'--package-dir {name}=/path/to/{name}')
        return self._check_paths(uri, [os.path.join(base, relative) for base in candidates])

    def _check_paths(self, uri: str, paths: Sequence[str]) -> MeshResolution:
        tried = []
        broken = None
        for path in paths:
            tried.append(path)
            if os.path.exists(path):
                return MeshResolution(uri, path, tuple(tried))
            if os.path.islink(path):
                broken = path
        if broken is not None:
            try:
                os.stat(broken)
                reason = 'cannot be followed'
            except OSError as exc:
                reason = ('is a symbolic link loop' if exc.errno == errno.ELOOP else
                          f'is a symbolic link that cannot be followed ({exc.strerror})')
            return MeshResolution(uri, None, tuple(tried), f'{broken} {reason}')
        return MeshResolution(uri, None, tuple(tried), 'no such file')

    # ----------------------------------------------------------------- loading

    def load(self, uri: str, scale: Sequence[float] = (1.0, 1.0, 1.0),
             base_dir: Optional[str] = None) -> MeshResult:
        """
        Resolve, read and measure a mesh, with the URDF scale applied.

        Never raises for a bad file: every failure is a :class:`MeshProblem`.

        :param uri: the URDF filename attribute
        :param scale: the URDF scale attribute
        :param base_dir: the URDF's folder
        :return: the mesh or the problem
        """
        resolution = self.resolve(uri, base_dir)
        if resolution.path is None:
            return MeshProblem('mesh-not-found', f'{uri}: {resolution.error}',
                               resolution.tried)
        return self.load_path(resolution.path, scale, resolution.tried)

    def load_path(self, path: str, scale: Sequence[float] = (1.0, 1.0, 1.0),
                  tried: Tuple[str, ...] = ()) -> MeshResult:
        """
        Read and measure a mesh file (see :meth:`load`).

        :param path: the file
        :param scale: the URDF scale
        :param tried: locations tried while resolving, kept in problems
        :return: the mesh or the problem
        """
        try:
            info = os.stat(path)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                reason = 'is a symbolic link loop'
            else:
                reason = f'cannot be read: {exc.strerror}'
            rule = 'mesh-not-found' if exc.errno in (errno.ENOENT, errno.ELOOP) else \
                'mesh-unreadable'
            return MeshProblem(rule, f'{path} {reason}', tried, path)
        problem = self._refuse(path, info, tried)
        if problem is not None:
            return problem
        # The file itself (device and inode, as stat followed any links), not its path: every
        # spelling of it shares one entry, without resolving each path component again.
        file_key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
        scale_key = tuple(float(v) for v in scale)
        key = file_key + scale_key
        with self._lock:
            cached = self._infos.get(key)
            if cached is not None:
                return cached
            key_lock = self._key_locks.setdefault(file_key, threading.Lock())
        with key_lock:
            with self._lock:
                cached = self._infos.get(key)
                raw = self._raw.get(file_key)
            if cached is not None:
                return cached
            if raw is None:
                raw = self._read(path, tried)
                with self._lock:
                    self._raw[file_key] = raw
            result = raw if isinstance(raw, MeshProblem) else \
                self._measure(path, raw, scale_key, tried)
            with self._lock:
                self._infos[key] = result
        return result

    def _refuse(self, path: str, info: os.stat_result,
                tried: Tuple[str, ...]) -> Optional[MeshProblem]:
        mode = info.st_mode
        if not stat.S_ISREG(mode):
            kind = ('a directory' if stat.S_ISDIR(mode) else
                    'a FIFO (named pipe)' if stat.S_ISFIFO(mode) else
                    'a character device' if stat.S_ISCHR(mode) else
                    'a block device' if stat.S_ISBLK(mode) else
                    'a socket' if stat.S_ISSOCK(mode) else 'not a regular file')
            return MeshProblem('mesh-unreadable',
                               f'{path} is {kind}, not a mesh file; it was not opened',
                               tried, path)
        if info.st_size > self.max_bytes:
            return MeshProblem(
                'mesh-unreadable',
                f'{path} is {_format_size(info.st_size)}, more than the limit of '
                f'{_format_size(self.max_bytes)} (mesh_max_bytes); it was not read',
                tried, path)
        return None

    def _read(self, path: str, tried: Tuple[str, ...]) -> Union[_RawMesh, MeshProblem]:
        ext = os.path.splitext(path)[1].lower()
        file_type = SUPPORTED.get(ext)
        if file_type is None:
            return MeshProblem('mesh-unreadable', f'{path}: the {ext or "extension-less"} '
                               'format is not supported (use STL, OBJ or DAE)', tried, path)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, 'O_NONBLOCK', 0)
                         | getattr(os, 'O_NOCTTY', 0))
        except OSError as exc:
            return MeshProblem('mesh-unreadable', f'{path} cannot be opened: {exc.strerror}',
                               tried, path)
        with os.fdopen(fd, 'rb') as stream:
            # Checked again on the descriptor: the path may have been swapped since stat.
            problem = self._refuse(path, os.fstat(fd), tried)
            if problem is not None:
                return problem
            data = stream.read(self.max_bytes + 1)
        if len(data) > self.max_bytes:
            return MeshProblem('mesh-unreadable', f'{path} grew beyond the limit of '
                               f'{_format_size(self.max_bytes)} while being read', tried, path)
        if not data:
            return MeshProblem('mesh-unreadable', f'{path} is empty', tried, path)
        unit = 1.0
        if file_type == 'dae':
            if b'<!ENTITY' in data:
                return MeshProblem('mesh-unreadable', f'{path} declares XML entities, which '
                                   'are refused for safety', tried, path)
            match = _UNIT_RE.search(data[:65536])
            if match:
                try:
                    unit = float(match.group(1))
                except ValueError:
                    unit = 1.0
                if not (np.isfinite(unit) and unit > 0.0):
                    unit = 1.0
        if file_type == 'stl':
            problem = _stl_problem(path, data, tried)
            if problem is not None:
                return problem
        self.loads += 1
        try:
            import trimesh
            # Materials and textures are not needed: they would pull in image libraries,
            # and a DAE material with a broken texture reference makes pycollada drop the
            # geometry that uses it (RViz's assimp still draws it).
            extra = {'skip_materials': True} if file_type == 'obj' else {}
            if file_type == 'dae':
                data = _strip_dae_materials(data)
            scene = trimesh.load_scene(file_obj=io.BytesIO(data), file_type=file_type,
                                       **extra)
            vertices, faces, merged = _scene_arrays(scene)
        except Exception as exc:  # any parser failure means the same: unreadable
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else \
                type(exc).__name__
            return MeshProblem('mesh-unreadable', f'{path} could not be loaded as '
                               f'{file_type.upper()}: {reason[:200]}', tried, path)
        if len(faces) == 0 or len(vertices) == 0:
            return MeshProblem('mesh-unreadable', f'{path} holds no triangles', tried, path)
        if not np.all(np.isfinite(vertices)):
            return MeshProblem('mesh-unreadable', f'{path} has vertices that are not finite '
                               'numbers', tried, path)
        try:
            # The first step of measuring (trimesh's merge_vertices) indexes the vertices by
            # the faces: a face naming a vertex that does not exist cannot be measured.
            np.zeros(len(vertices), dtype=bool)[faces] = True
        except Exception as exc:
            return MeshProblem('mesh-unreadable', f'{path}: could not measure the mesh: '
                               f'{str(exc)[:200] or type(exc).__name__}', tried, path)
        # Only STL: its loader merges by position alone (other loaders also key on normals
        # and texture coordinates, leaving positions that a position merge would join).
        # A unit of 1.0 changes no number: keep the array rather than copy it.
        return _RawMesh(_frozen(vertices * unit if unit != 1.0 else vertices), _frozen(faces),
                        unit, len(data), merged and file_type == 'stl' and unit == 1.0)

    def _measure(self, path: str, raw: _RawMesh, scale: Scale,
                 tried: Tuple[str, ...]) -> MeshResult:
        if not all(np.isfinite(v) for v in scale):
            return MeshProblem('mesh-unreadable', f'{path}: the scale {scale} is not finite',
                               tried, path)
        unscaled = scale == (1.0, 1.0, 1.0)
        # Multiplying by 1.0 changes no number (not even -0.0): share the read-only array.
        vertices = raw.vertices if unscaled else \
            _frozen(raw.vertices * np.asarray(scale, dtype=float))
        bounds = (_frozen(vertices.min(axis=0)), _frozen(vertices.max(axis=0)))
        return MeshInfo(
            path=path, vertices=vertices, faces=raw.faces,
            face_count=int(len(raw.faces)), bounds=bounds, unit_scale=raw.unit_scale,
            size_bytes=raw.size_bytes, _merged=raw.merged and unscaled)

    def clear(self) -> None:
        """Forget every cached mesh."""
        with self._lock:
            self._raw.clear()
            self._infos.clear()
            self._packages.clear()


def _measure_solid(info: MeshInfo) -> _Solid:
    """
    Measure what a mesh encloses: its closed surface, else its convex hull, else its box.

    The numbers are trimesh's: its vertex merge (skipped where the loader already merged
    these very coordinates, which makes a second merge a no-op), its closed-surface
    test (as :func:`_closed`), its convex hull and its triangle integrals, called on the
    same arrays as ``Trimesh(vertices, faces, process=True)`` would hold. :func:`_read`
    has checked what could make this fail (face indices within the vertices, finite
    numbers); should it fail anyway, the bounding box stands in.
    """
    import trimesh

    bounds = info.bounds
    try:
        mesh = None
        if info._merged:
            vertices, faces = info.vertices, info.faces
        else:
            mesh = trimesh.Trimesh(vertices=info.vertices, faces=info.faces, process=True)
            vertices, faces = mesh.vertices.view(np.ndarray), mesh.faces.view(np.ndarray)
        watertight, closed = _closed(faces)
        source = 'mesh'
        if closed:
            triangles = vertices[faces]
            properties = trimesh.triangles.mass_properties(
                triangles=triangles, crosses=trimesh.triangles.cross(triangles),
                density=None, center_mass=None, skip_inertia=False)
        else:
            if mesh is None:
                mesh = trimesh.Trimesh(vertices=vertices, faces=faces, process=False)
            solid, source = _hull(mesh)
            properties = solid.mass_properties if solid is not None else None
        volume = float(properties.volume) if properties is not None else 0.0
        if properties is not None and volume < 0.0:
            # Inward-facing winding: the integrals come out negated.
            volume = -volume
            inertia = -np.asarray(properties.inertia, dtype=float)
        elif properties is not None:
            inertia = np.asarray(properties.inertia, dtype=float)
        if properties is None or not volume > 0.0:
            volume, source, centre, inertia = _box_solid(bounds)
        else:
            centre = np.asarray(properties.center_mass, dtype=float)
            # trimesh integrates with its default density of 1, so this is per kg/m^3.
            inertia = inertia / float(properties.density or 1.0)
    except Exception:  # degenerate geometry can upset the integrals
        LOG.warning('%s: could not measure the mesh; using its bounding box', info.path,
                    exc_info=True)
        watertight = False
        volume, source, centre, inertia = _box_solid(bounds)
    return _Solid(volume=volume, is_watertight=watertight,
                  center_mass=_frozen(np.asarray(centre, dtype=float)),
                  unit_inertia=_frozen(np.asarray(inertia, dtype=float)), volume_source=source)


def _closed(faces: np.ndarray) -> Tuple[bool, bool]:
    """
    Return trimesh's ``is_watertight`` and ``is_watertight and is_winding_consistent``.

    As ``trimesh.graph.is_watertight``: watertight when every edge (vertex pair) belongs
    to exactly two faces; consistent when the two run in opposite directions. Each edge
    is one int64 key here (vertex pair, then direction), so one sort answers both: sorted,
    the pair keys must come two by two, strictly increasing, and for a consistent winding
    each two must be 2k and 2k + 1.
    """
    edges = faces[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    start, end = edges[:, 0], edges[:, 1]
    low, high = np.minimum(start, end), np.maximum(start, end)
    keys = np.sort((low * (int(faces.max()) + 1) + high) * 2 + (start < end))
    if len(keys) % 2:
        return False, False
    first, second = keys[0::2], keys[1::2]
    pairs = first // 2
    watertight = bool(np.all(pairs == second // 2) and np.all(pairs[1:] > pairs[:-1]))
    return watertight, watertight and bool(np.all(second - first == 1))


def _box_solid(bounds: Tuple[np.ndarray, np.ndarray]) -> Tuple[float, str, np.ndarray,
                                                               np.ndarray]:
    size = bounds[1] - bounds[0]
    volume = float(np.prod(size))
    centre = (bounds[0] + bounds[1]) / 2.0
    inertia = volume / 12.0 * np.diag([size[1] ** 2 + size[2] ** 2,
                                       size[0] ** 2 + size[2] ** 2,
                                       size[0] ** 2 + size[1] ** 2])
    return volume, 'bounding box', centre, inertia


def _hull(mesh: object) -> Tuple[Optional[object], str]:
    try:
        import scipy.spatial  # noqa: F401  (trimesh's convex hull needs it)
    except ImportError:
        return None, 'bounding box'
    try:
        return mesh.convex_hull, 'convex hull'  # type: ignore[attr-defined]
    except Exception:  # flat or degenerate point sets have no hull
        return None, 'bounding box'


def _strip_dae_materials(data: bytes) -> bytes:
    data = _remove_elements(data, (b'bind_material',))
    return _remove_elements(data, (b'library_effects', b'library_images', b'library_materials'))


_IDENTITY = np.eye(4)
_WORD = frozenset(b'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_')


def _remove_elements(data: bytes, names: Sequence[bytes]) -> bytes:
    r"""
    Cut every ``<NAME ...>...</NAME>`` span out of XML bytes, whatever it contains.

    The same as ``re.sub(rb'<(NAME|...)\b.*?</\1>', b'', data, flags=re.S)`` (leftmost
    start, nearest end tag, no overlap), with ``bytes.find`` instead of a character-by-
    character lazy match, which took seconds on large DAE files.
    """
    pieces = []
    copied = 0
    position = 0
    # Per name: the next candidate start at or after ``position`` (or -1).
    starts = {name: _tag_start(data, name, 0) for name in names}
    while True:
        live = [(start, name) for name, start in starts.items() if start >= 0]
        if not live:
            break
        start, name = min(live)
        end = data.find(b'</' + name + b'>', start + 1 + len(name))
        if end < 0:
            starts[name] = -1  # no end tag after it, so none after any later start either
            continue
        end += len(name) + 3
        pieces.append(data[copied:start])
        copied = position = end
        for other in names:
            if 0 <= starts[other] < position:
                starts[other] = _tag_start(data, other, position)
    if not pieces:
        return data
    pieces.append(data[copied:])
    return b''.join(pieces)


def _tag_start(data: bytes, name: bytes, position: int) -> int:
    """Return the next ``<NAME`` at or after ``position`` that is not a longer name."""
    opening = b'<' + name
    while True:
        start = data.find(opening, position)
        if start < 0:
            return -1
        after = start + len(opening)
        if after >= len(data) or data[after] not in _WORD:
            return start
        position = start + 1


def _scene_arrays(scene: object) -> Tuple[np.ndarray, np.ndarray, bool]:
    """
    Concatenate a trimesh scene's triangles with their node transforms applied.

    :return: (vertices, faces, merged): merged is True for one geometry that trimesh's
        loader merged (processed) and that sits at the identity
    """
    vertices = []
    faces = []
    offset = 0
    merged = True
    for node in scene.graph.nodes_geometry:  # type: ignore[attr-defined]
        transform, name = scene.graph[node]  # type: ignore[attr-defined]
        geometry = scene.geometry.get(name)  # type: ignore[attr-defined]
        if geometry is None or not hasattr(geometry, 'faces') or len(geometry.faces) == 0:
            continue
        identity = np.array_equal(transform, _IDENTITY)
        merged = merged and not vertices and identity and \
            bool(geometry.metadata.get('processed'))
        points = np.asarray(geometry.vertices, dtype=float)
        if identity:
            # What the product with the identity gives (x 1 + 0 + 0 + 0): the same numbers,
            # except that -0.0 becomes 0.0.
            points = points + 0.0
        else:
            points = points @ np.asarray(transform[:3, :3]).T + np.asarray(transform[:3, 3])
        vertices.append(points)
        faces.append(np.asarray(geometry.faces, dtype=np.int64) + offset)
        offset += len(points)
    if not vertices:
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64), False
    return np.concatenate(vertices), np.concatenate(faces), merged


def _stl_problem(path: str, data: bytes, tried: Tuple[str, ...]) -> Optional[MeshProblem]:
    """Say why bytes are neither binary nor ASCII STL, before a parser guesses."""
    if len(data) >= 84:
        count = int.from_bytes(data[80:84], 'little')
        # Some exporters append bytes after the triangles; readers ignore them.
        if count > 0 and 84 + 50 * count <= len(data):
            return None
    head = data[:1024].lstrip()
    if head[:5].lower() == b'solid':
        try:
            data.decode('ascii')
            return None
        except UnicodeDecodeError:
            pass
    if len(data) >= 84:
        count = int.from_bytes(data[80:84], 'little')
        detail = (f'as binary STL its header announces {count} triangles '
                  f'({84 + 50 * count} bytes) but the file has {len(data)} bytes')
    else:
        detail = f'only {len(data)} bytes, shorter than a binary STL header (84 bytes)'
    return MeshProblem('mesh-unreadable', f'{path} is not a valid STL: {detail}, and it is '
                       'not ASCII STL (which starts with "solid")', tried, path)
