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
Read a mesh file safely into one array of vertices and one of triangles.

Reading refuses, without opening it, anything that is not a regular file (a folder, a
FIFO, a device such as /dev/zero, a socket) and anything larger than ``max_bytes``; the
file is then opened non-blocking, checked again through its descriptor and read with a
bound, so no file can make the checker hang or exhaust memory; a read error (``/proc/kmsg``,
``/proc/self/mem``) is a problem like any other. Messages never quote a file's bytes or
exact size (a description may name any file the checker can read).

STL (ASCII and binary) is read with NumPy (:mod:`.stl`), DAE by :mod:`.collada` and OBJ
by :mod:`.obj` (positions and triangles only); glTF, GLB and the DAE and OBJ files those
readers leave (through pycollada for DAE) are parsed by trimesh, imported only here, when a
robot has such a mesh to read. Scenes are flattened with their node transforms under a budget on
geometry instances and triangles, checked before anything is copied (see :mod:`.dae` for
COLLADA's node instancing). A DAE file is screened by a parse first (:func:`.dae.screen`: no
DTD, UTF-8) before either reader sees it, and a loader's failure is told in our words
(:func:`failure_reason`), never in its message, which quotes the file.
"""

from __future__ import annotations

from dataclasses import replace
import io
import logging
import os
import re
import struct
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from urdf_link_tools.meshes import gltf, gltf_numpy
# re-exported: the readers' callers import them from here
from urdf_link_tools.meshes.files import (  # noqa: F401
    amplified, Budget, DEFAULT_MAX_INSTANCES, DEFAULT_MAX_TRIANGLES, format_limit, refusal,
    SUPPORTED, too_many_vertices)
from urdf_link_tools.read_policy import read_refusal
from urdf_link_tools.records import record

LOG = logging.getLogger(__name__)

_IDENTITY = np.eye(4)
#: a file whose reading or release is worth giving freed heap back to the system for
TRIM_BYTES = 1_000_000


@record
class MeshProblem:
    """Why a mesh could not be used: ``rule`` is 'mesh-not-found' or 'mesh-unreadable'."""

    rule: str
    message: str
    tried: Tuple[str, ...] = ()
    path: Optional[str] = None
    #: the package of a package:// URI that was not found at all (None otherwise)
    missing_package: Optional[str] = None
    #: the highest folder of an absolute path that does not exist (None otherwise)
    missing_folder: Optional[str] = None
    #: the extension of a file in a format this tool does not read ('.3ds'; None otherwise)
    unsupported_format: Optional[str] = None
    #: what stands in the mesh's place: 'Git LFS pointer' or 'empty file' (None otherwise)
    placeholder: Optional[str] = None


#: how a Git LFS pointer file starts (git-lfs's spec): the mesh was not fetched
LFS_POINTER = b'version https://git-lfs.github.com/spec/'
#: MeshProblem.placeholder values
LFS_FILE = 'Git LFS pointer'
EMPTY_FILE = 'empty file'


@record
class RawMesh:
    """A file's triangles in metres (any DAE unit applied), before the URDF scale."""

    vertices: np.ndarray
    faces: np.ndarray
    unit_scale: float
    size_bytes: int
    #: vertices merged by position (as trimesh's merge) and in metres as read
    merged: bool = False
    #: for a DAE file read through trimesh: what the package's own reader does not reproduce
    fallback: Optional[str] = None

    @property
    def nbytes(self) -> int:
        """Return the memory its arrays hold."""
        return int(self.vertices.nbytes + self.faces.nbytes)


_TRIM = []


def trim_heap() -> None:
    """
    Give freed heap memory back to the system (glibc's malloc_trim; elsewhere nothing).

    Parsing a 16 MB STL leaves about 100 MB of freed temporaries in the C heap, where
    glibc keeps them: without this, the process's RSS stays hundreds of MB above what it
    holds after a big robot is read or dropped. It costs a few milliseconds, and is only
    called for files above a megabyte.
    """
    if not _TRIM:
        try:
            import ctypes
            _TRIM.append(ctypes.CDLL(None).malloc_trim)
        except (OSError, AttributeError):
            _TRIM.append(None)
    if _TRIM[0] is not None:
        _TRIM[0](0)


def frozen(array: np.ndarray) -> np.ndarray:
    """Make an array read-only (it is shared through the cache) and return it."""
    array.setflags(write=False)
    return array


def read_bounded(path: str, max_bytes: int) -> Union[bytes, str]:
    """
    Read a regular file of at most ``max_bytes``, or say why not.

    :param path: the file
    :param max_bytes: the most bytes to accept
    :return: the bytes, or the reason as text
    """
    reason = read_refusal(path, None)  # a mesh may be anywhere, but never in .git
    if reason is not None:
        return reason
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, 'O_NONBLOCK', 0)
                     | getattr(os, 'O_NOCTTY', 0))
    except OSError as exc:
        return f'{path} cannot be opened: {exc.strerror}'
    try:
        with os.fdopen(fd, 'rb') as stream:
            # Checked again on the descriptor: the path may have been swapped since stat.
            info = os.fstat(fd)
            reason = refusal(path, info, max_bytes)
            if reason is not None:
                return reason
            # Ask for the size stat gave (plus one byte, to see growth), not for the limit:
            # a read of the limit allocates the limit. Files under /proc say 0 bytes.
            chunks = []
            total = 0
            want = info.st_size + 1 if info.st_size > 0 else 65536
            while total <= max_bytes:
                chunk = stream.read(min(want, max_bytes + 1 - total))
                if not chunk:  # end of file (b'') or, non-blocking, nothing yet (None)
                    break
                chunks.append(chunk)
                total += len(chunk)
                want = 1 << 20
            data = chunks[0] if len(chunks) == 1 else b''.join(chunks)
    except OSError as exc:  # /proc/self/mem (EIO), /proc/kmsg (EAGAIN), a failing disk
        return f'{path} cannot be read: {exc.strerror or type(exc).__name__}'
    if len(data) > max_bytes:
        return (f'{path} grew beyond the limit of {format_limit(max_bytes)} '
                '(mesh_max_bytes) while being read')
    return data


def read_mesh(path: str, file_type: str, budget: Budget,
              tried: Tuple[str, ...] = ()) -> Union[RawMesh, MeshProblem]:
    """
    Read one mesh file (already stat-checked by the caller) into a :class:`RawMesh`.

    Never raises for a bad file, nor for running out of memory.

    :param path: the file
    :param file_type: one of the values of :data:`SUPPORTED`
    :param budget: the limits
    :param tried: locations tried while resolving, kept in problems
    :return: the mesh or the problem
    """
    def problem(message: str) -> MeshProblem:
        return MeshProblem('mesh-unreadable', message, tried, path)

    data = read_bounded(path, budget.max_bytes)
    if isinstance(data, str):
        return problem(data)
    if not data:
        return replace(problem(f'{path} is empty'), placeholder=EMPTY_FILE)
    if data.startswith(LFS_POINTER):
        # A repository keeping its meshes in Git LFS, checked out without them (GitHub's
        # actions/checkout fetches no LFS object unless asked): the mesh's place holds a
        # few lines naming it. Its size is said; the file is never quoted.
        size = re.search(rb'\nsize (\d{1,15})\s', data[:1024])
        real = f', which names a {int(size.group(1)):,} byte file' if size else ''
        return replace(problem(f'{path} is a Git LFS pointer{real}, not the mesh: the mesh '
                               'itself was not fetched'), placeholder=LFS_FILE)
    try:
        return _parse(path, file_type, data, budget, problem)
    except MemoryError:
        return problem(f'{path}: the checker ran out of memory reading it; it was not '
                       'checked (simplify the mesh or raise the memory limit)')
    except RecursionError:
        return problem(f'{path} nests its scene too deeply to be read')


def _parse(path: str, file_type: str, data: bytes, budget: Budget, problem) \
        -> Union[RawMesh, MeshProblem]:
    unit = 1.0
    extra: dict = {}
    # Each format's reader is imported for the first file in it (the start-up of a robot
    # without meshes, or with STL only, pays for none of the others).
    fallback: Optional[str] = None
    if file_type == 'stl':
        from urdf_link_tools.meshes import stl
        reason = stl.problem(data)
        if reason is not None:
            return problem(f'{path} is not a valid STL: {reason}')
        read = stl.read_stl(data, budget.max_triangles)
        if isinstance(read, str):
            return problem(f'{path} could not be read as STL: {read}')
        return _checked(path, read[0], read[1], 1.0, len(data), True, problem)
    if file_type == 'obj':
        from urdf_link_tools.meshes import obj
        # Counted first: a file the count refuses cost 2 GB in the NumPy reader (review 11)
        reason = obj.triangles_problem(data, budget.max_triangles)
        if reason is not None:
            return problem(f'{path} was not loaded: {reason}')
        read_obj = obj.read_obj(data, budget.max_triangles)
        if isinstance(read_obj, str):
            return problem(f'{path} was not loaded: {read_obj}')
        if not isinstance(read_obj, obj.Fallback):
            return _checked(path, read_obj[0], read_obj[1], 1.0, len(data), False, problem)
        LOG.debug('%s: read through trimesh: the NumPy OBJ reader leaves it (%s)', path,
                  read_obj.reason)
        extra = {'skip_materials': True}
        data = _ungrouped(data)
    elif file_type == 'dae':
        from urdf_link_tools.meshes import collada, dae
        size = len(data)
        # Decided on the parsed document, in any encoding, before any other reader sees it.
        screened = dae.screen(data)
        if isinstance(screened, str):
            return problem(f'{path} {screened}')
        data = screened.data
        unit = dae.dae_unit(data)
        read = collada.read_triangles(data, budget.max_instances, budget.max_triangles,
                                      screened)
        if isinstance(read, str):
            return problem(f'{path} was not loaded: {read}')
        if not isinstance(read, collada.Fallback):
            return _checked(path, read[0], read[1], unit, size, False, problem)
        fallback = read.reason
        LOG.debug('%s: read through trimesh: the NumPy COLLADA reader does not reproduce %s',
                  path, fallback)
        reason = dae.instancing_problem(data, budget.max_instances, budget.max_triangles,
                                        screened.elements)
        del screened  # the tree: pycollada parses the file again
        if reason is not None:
            return problem(f'{path} was not loaded: {reason}')
        data = dae.strip_dae_materials(data)
    else:
        try:
            header = gltf.read_header(data, file_type)
            reason = gltf.budget_problem(header, budget.max_bytes, budget.max_triangles,
                                         budget.max_instances)
            if reason is not None:
                return problem(f'{path} was not loaded: {reason}')
            uris = gltf.buffer_uris(header)
        except gltf.BufferRefused as exc:  # our own words
            return problem(f'{path} could not be loaded as {file_type.upper()}: {exc}')
        except (ValueError, UnicodeDecodeError, struct.error) as exc:
            return problem(f'{path} could not be loaded as {file_type.upper()}: '
                           f'{failure_reason(exc)}')
        resolver = gltf.FolderResolver(os.path.dirname(os.path.abspath(path)), set(uris),
                                       _buffer_reader, budget.max_bytes - len(data))
        reason = gltf.check_buffers(resolver) or \
            gltf.buffer_size_problem(header, data, file_type, resolver)
        if reason is not None:
            return problem(f'{path} was not loaded: {reason}')
        try:
            placed = gltf_numpy.read_placed(header, data, file_type, resolver)
        except gltf.BufferRefused as exc:
            return problem(f'{path} was not loaded: {exc}')
        if not isinstance(placed, gltf_numpy.Fallback):
            arrays = placed_arrays(placed, budget)
            if isinstance(arrays, str):
                return problem(f'{path} was not loaded: {arrays}')
            return _checked(path, z_up(arrays[0]), arrays[1], unit, len(data), False,
                            problem)
        LOG.debug('%s: read through trimesh: the NumPy glTF reader leaves it (%s)', path,
                  placed.reason)
        extra = {'skip_materials': True, 'resolver': resolver}
    trimesh, why = import_trimesh()
    if trimesh is None:
        return problem(f'{path} was not loaded: {why}')
    try:
        scene = trimesh.load_scene(file_obj=io.BytesIO(data), file_type=file_type, **extra)
        arrays = scene_arrays(scene, budget)
    except MemoryError:
        raise
    except gltf.BufferRefused as exc:
        return problem(f'{path} was not loaded: {exc}')
    except Exception as exc:  # any parser failure means the same: unreadable
        return problem(f'{path} could not be loaded as {file_type.upper()}: '
                       f'{failure_reason(exc)}')
    if isinstance(arrays, str):
        return problem(f'{path} was not loaded: {arrays}')
    if file_type in gltf.FILE_TYPES:
        arrays = (z_up(arrays[0]), arrays[1])
    # Not merged here: trimesh's loaders (but STL's) also key on normals and texture
    # coordinates, leaving positions that a position merge would join; measuring merges.
    checked = _checked(path, arrays[0], arrays[1], unit, len(data), False, problem)
    if fallback is not None and isinstance(checked, RawMesh):
        checked = replace(checked, fallback=fallback)
    return checked


#: what a loader's exception means, by its class (a library's name, never the file's text)
_FAILURES = {
    'DaeMalformedError': 'pycollada found it malformed',
    'DaeBrokenRefError': 'it refers to an element it does not hold',
    'DaeIncompleteError': 'an element lacks a part it needs',
    'DaeUnsupportedError': 'it uses a feature pycollada does not support',
    'KeyError': 'it lacks an entry the reader needs',
    'IndexError': 'an index beyond the data it holds',
    'ValueError': 'a value the reader cannot use (a number that is not one, a wrong count)',
    'TypeError': 'an entry of the wrong kind',
    'UnicodeDecodeError': 'bytes that are not text in its encoding',
    'error': 'its binary data is shorter than its header says',  # struct.error
}


def failure_reason(exc: BaseException) -> str:
    """
    Say why a loader failed in our words, without its message.

    A loader's message quotes the file (``could not convert string to float: 'x'``, a
    pycollada id, libxml2's tag names, a byte's value) or its exact size, and the file may be
    anywhere (a description may name any mesh file): only where the error is (a line) and the
    exception's class are kept.

    :param exc: what the loader raised
    :return: a phrase for the message
    """
    import json
    name = type(exc).__name__
    if isinstance(exc, json.JSONDecodeError):
        return f'not valid JSON (line {exc.lineno}, column {exc.colno})'
    if name == 'XMLSyntaxError':
        from urdf_link_tools.meshes.dae import syntax_problem
        return 'it ' + syntax_problem(exc)  # type: ignore[arg-type]
    for kind in type(exc).__mro__:
        if kind.__name__ in _FAILURES:
            return f'{_FAILURES[kind.__name__]} ({name})'
    return f'the reader failed ({name})'


_TRIMESH: Optional[Tuple[Any, str]] = None


def import_trimesh() -> Tuple[Any, str]:
    """
    Import trimesh once; say why when it cannot be used.

    trimesh 5 does not import with the numpy of Ubuntu 22.04 (ROS 2 Humble: numpy 1.21,
    "'numpy._DTypeMeta' object is not subscriptable"); the message names that cause instead
    of blaming every OBJ, glTF and DAE file.

    :return: (the module, '') or (None, why it cannot be used)
    """
    global _TRIMESH
    if _TRIMESH is None:
        try:
            import trimesh
            _TRIMESH = (trimesh, '')
        except ImportError:
            _TRIMESH = (None, "trimesh is not installed (pip install 'trimesh>=4'); OBJ, glTF, "
                              'GLB and some DAE files need it')
        except Exception as exc:  # an incompatible trimesh fails inside its own import
            import importlib.metadata
            try:
                version = importlib.metadata.version('trimesh')
            except importlib.metadata.PackageNotFoundError:
                version = '?'
            _TRIMESH = (None, f'trimesh {version} cannot be imported with numpy '
                              f'{np.__version__} ({type(exc).__name__}: {str(exc)[:120]}): '
                              'install a trimesh that supports it (with numpy < 1.22, as on '
                              "Ubuntu 22.04 and ROS 2 Humble: pip install 'trimesh>=4,<5')")
            LOG.warning('%s', _TRIMESH[1])
    return _TRIMESH


def _checked(path: str, vertices: np.ndarray, faces: np.ndarray, unit: float,
             size: int, merged: bool, problem) -> Union[RawMesh, MeshProblem]:
    """Refuse arrays that cannot be measured; wrap the others, in metres."""
    if len(faces) == 0 or len(vertices) == 0:
        return problem(f'{path} holds no triangles')
    if vertices.ndim != 2 or vertices.shape[1] != 3:
        # trimesh keeps an OBJ's 'v 0 0' lines as points of two coordinates (eighth
        # red-team review: a traceback, and "unexpected error")
        columns = vertices.shape[1] if vertices.ndim == 2 else vertices.ndim
        return problem(f'{path} has vertices of {columns} coordinates, not 3 (x y z)')
    if faces.ndim != 2 or faces.shape[1] != 3:
        return problem(f'{path} has faces that are not triangles of 3 vertex indices')
    if faces.min() < 0 or faces.max() >= len(vertices):
        # Measuring indexes the vertices by the faces: a face naming a vertex that does
        # not exist cannot be measured.
        return problem(f'{path}: a triangle names a vertex that does not exist')
    used = np.zeros(len(vertices), dtype=bool)
    used[faces] = True
    if not used.all():
        # Points no triangle uses (a DAE source shared by several parts, the part of a
        # model exported alone) are not part of the mesh: its bounds, and what the
        # services return, leave them out, as trimesh's loader does.
        renumber = np.cumsum(used) - 1
        vertices, faces = vertices[used], renumber[faces]
    if not np.all(np.isfinite(vertices)):
        return problem(f'{path} has vertices that are not finite numbers')
    # A unit of 1.0 changes no number: keep the array rather than copy it.
    return RawMesh(frozen(vertices * unit if unit != 1.0 else vertices), frozen(faces),
                   unit, size, merged and unit == 1.0)


def _buffer_reader(path: str, limit: int) -> bytes:
    try:
        info = os.stat(path)
    except OSError as exc:
        raise gltf.BufferRefused(f'its buffer {os.path.basename(path)} cannot be read: '
                                 f'{exc.strerror}')
    reason = refusal(path, info, max(limit, 0))
    if reason is None:
        data = read_bounded(path, max(limit, 0))
        if not isinstance(data, str):
            return data
        reason = data
    raise gltf.BufferRefused(f'its buffer: {reason}')


def z_up(vertices: np.ndarray) -> np.ndarray:
    """
    Turn glTF's Y-up positions into the Z-up frame of a URDF link: +90 degrees about x.

    glTF 2.0 defines +Y as up; ROS (REP 103) has +Z up. Drake, Blender, Genesis and RViz
    (ros2/rviz#1482, 2025) turn a glTF mesh this way, (x, y, z) to (x, -z, y), when a
    description places it; trimesh (and Assimp, so MoveIt's geometric_shapes and Pinocchio's
    coal) gives the positions as stored. A rotation: the winding, volume and closedness
    are kept.
    """
    turned = np.empty_like(vertices)
    turned[:, 0] = vertices[:, 0]
    turned[:, 1] = -vertices[:, 2]
    turned[:, 2] = vertices[:, 1]
    return turned


#: an OBJ file's grouping lines (objects, groups, materials, smoothing), none of which
#: changes the surface
_OBJ_GROUPING = re.compile(rb'(?m)^[ \t]*(?:usemtl|mtllib|o|g|s)(?:[ \t][^\n]*)?$')
#: more grouping lines than this are left out before trimesh reads a file (it names each
#: group in a loop quadratic in their count: 20,000 in a 409 KB file took 61 s)
OBJ_MAX_GROUPS = 1000


def _ungrouped(data: bytes) -> bytes:
    """Return an OBJ file's text without its grouping lines when it has very many."""
    groups = data.count(b'usemtl') + data.count(b'\no ') + data.count(b'\ng ')
    if groups <= OBJ_MAX_GROUPS:
        return data  # trimesh reads it as it always has
    return _OBJ_GROUPING.sub(b'', data)


def scene_arrays(scene: object,
                 budget: Budget) -> Union[Tuple[np.ndarray, np.ndarray], str]:
    """
    Concatenate a trimesh scene's triangles with their node transforms applied.

    The instances and triangles are counted first: over the budget, nothing is copied.

    :param scene: a ``trimesh.Scene``
    :param budget: the limits
    :return: (vertices, faces), or why the scene is over the budget
    """
    placed = []
    for node in scene.graph.nodes_geometry:  # type: ignore[attr-defined]
        transform, name = scene.graph[node]  # type: ignore[attr-defined]
        geometry = scene.geometry.get(name)  # type: ignore[attr-defined]
        if geometry is None or not hasattr(geometry, 'faces'):
            continue
        placed.append((transform, geometry.vertices, geometry.faces))
    return placed_arrays(placed, budget)


def placed_arrays(placed: Sequence[Tuple[Any, Any, Any]],
                  budget: Budget) -> Union[Tuple[np.ndarray, np.ndarray], str]:
    """
    Concatenate placed triangles, (transform, vertices, faces) each, under the budget.

    The instances and triangles are counted first: over the budget, nothing is copied.
    Placements without a triangle are left out. Arrays placed more than once (one mesh,
    several nodes) are stored once: the amplification is measured against them.

    :return: (vertices, faces), or why the scene is over the budget
    """
    kept = []
    triangles = 0
    for transform, points, triangles_of in placed:
        if len(triangles_of) == 0:
            continue
        kept.append((transform, points, triangles_of))
        triangles += len(triangles_of)
        if len(kept) > budget.max_instances:
            return (f'its scene holds more than {budget.max_instances:,} geometry '
                    'instances')
        if triangles > budget.max_triangles:
            return (f'its scene holds more than {budget.max_triangles:,} triangles '
                    '(geometry instanced many times, or one huge mesh)')
    stored = {id(faces): len(faces) for _, _, faces in kept}
    stored_points = {id(points): len(points) for _, points, _ in kept}
    placed_points = sum(len(points) for _, points, _ in kept)
    too_far = amplified(sum(stored.values()), triangles) or \
        too_many_vertices(placed_points, budget.max_triangles) or \
        amplified(sum(stored_points.values()), placed_points, 'vertices')
    if too_far is not None:
        return too_far
    vertices = []
    faces = []
    offset = 0
    for transform, stored_points, stored_faces in kept:
        identity = np.array_equal(transform, _IDENTITY)
        points = np.asarray(stored_points, dtype=float)
        if identity:
            # What the product with the identity gives (x 1 + 0 + 0 + 0): the same numbers,
            # except that -0.0 becomes 0.0.
            points = points + 0.0
        else:
            points = points @ np.asarray(transform[:3, :3]).T + np.asarray(transform[:3, 3])
        vertices.append(points)
        faces.append(np.asarray(stored_faces, dtype=np.int64) + offset)
        offset += len(points)
    if not vertices:
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
    if len(vertices) == 1:
        return vertices[0], faces[0]
    return np.concatenate(vertices), np.concatenate(faces)
