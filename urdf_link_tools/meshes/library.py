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
The mesh library: resolve, read once, measure once, share through a bounded cache.

The cache is keyed by the file's content identity (device, inode, size, modification
time: every spelling of a path shares one entry, an edited file is read again) and by
the format its name announces (the same inode named ``.STL`` and ``.dae`` is two meshes).
It keeps at most ``cache_bytes`` of vertex and face arrays, least recently used first out,
so a robot replaced by a smaller one gives its memory back; beyond that budget, a file some
live :class:`MeshInfo` still uses (the snapshot a node serves) is found again without
reading it, through a weak reference that costs no memory. Each entry holds the mesh
as read (before the URDF scale) and its solid, measured on first use; a
:class:`MeshInfo` per scale is a small view of it.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import field, replace
import errno
import os
import threading
from typing import (Callable, Dict, Hashable, Iterable, Mapping, Optional, Sequence, Tuple,
                    TypeVar, Union)
import weakref

import numpy as np

from urdf_link_tools.limits import MESH_MAX_BYTES
from urdf_link_tools.meshes import aside
from urdf_link_tools.meshes.aside import Aside, ASIDE_MIN_BYTES
from urdf_link_tools.meshes.hull import NATIVE_MIN_POINTS
from urdf_link_tools.meshes.integrals import column_bounds
from urdf_link_tools.meshes.reading import (Budget, DEFAULT_MAX_INSTANCES,
                                            DEFAULT_MAX_TRIANGLES, frozen, MeshProblem,
                                            RawMesh, read_mesh, refusal, SUPPORTED, TRIM_BYTES,
                                            trim_heap)
from urdf_link_tools.meshes.resolve import PackageResolver
from urdf_link_tools.meshes.solid import measure_solid, Solid, SolidCache
from urdf_link_tools.records import record

DEFAULT_CACHE_BYTES = 32_000_000
#: volume over hull volume from which a closed mesh counts as convex (CAD facets, rounding)
CONVEX_SHARE = 0.95
#: problems are small; this only bounds a description naming millions of broken files
_MAX_ENTRIES = 10_000

Scale = Tuple[float, float, float]
T = TypeVar('T')


@record(eq=False)
class MeshInfo:
    """
    A loaded mesh as a URDF element uses it: the file's triangles at the element's scale.

    ``unit_inertia`` is the inertia tensor about ``center_mass`` for a density of
    1 kg/m^3, in the mesh's own frame. ``volume_source`` says what the volume is of:
    'mesh' when the surface is closed, consistently wound and does not cross itself;
    'convex hull' otherwise; 'none' when there is no volume to trust (a flat mesh, no
    SciPy to build the hull, or a measurement that failed: ``measure_problem`` says
    which), with ``volume`` 0.

    Solid properties are measured on first use (only collision meshes need them), once
    per file whatever the scale, then scaled analytically. ``vertices`` are computed on
    each access for a scaled mesh (no scaled copy is kept).
    """

    path: str
    raw: RawMesh = field(repr=False)
    scale: Scale
    face_count: int
    bounds: Tuple[np.ndarray, np.ndarray]
    #: the cache entry: while a MeshInfo lives (in an analysis), its file stays cached
    _entry: '_Entry' = field(repr=False, compare=False)
    _scaled: list = field(default_factory=list, repr=False, compare=False)

    @property
    def unit_scale(self) -> float:
        """Return the metres per file unit the file declared (DAE ``<unit>``), else 1."""
        return self.raw.unit_scale

    @property
    def size_bytes(self) -> int:
        """Return the size of the file."""
        return self.raw.size_bytes

    @property
    def vertices(self) -> np.ndarray:
        """Return the vertices in metres with the URDF scale applied (read-only)."""
        if self.scale == (1.0, 1.0, 1.0):
            return self.raw.vertices
        return frozen(self.raw.vertices * np.asarray(self.scale, dtype=float))

    @property
    def faces(self) -> np.ndarray:
        """Return the triangles as vertex indices (read-only)."""
        return self.raw.faces

    @property
    def solid(self) -> Solid:
        """Return the measured solid at this scale."""
        if not self._scaled:
            self._scaled.append(self._entry.solids.get(self.raw).scaled(self.scale))
        return self._scaled[0]

    @property
    def volume(self) -> float:
        """Return the enclosed volume in m^3 (0 when it cannot be trusted)."""
        return self.solid.volume

    @property
    def is_watertight(self) -> bool:
        """Return True when every edge is shared by exactly two faces (after merging)."""
        return self.solid.is_watertight

    @property
    def center_mass(self) -> np.ndarray:
        """Return the centroid of the enclosed volume, in the mesh frame."""
        return self.solid.center_mass

    @property
    def unit_inertia(self) -> np.ndarray:
        """Return the inertia about ``center_mass`` at 1 kg/m^3, in the mesh frame."""
        return self.solid.unit_inertia

    @property
    def volume_source(self) -> str:
        """Return 'mesh', 'convex hull' or 'none': what the volume is of."""
        return self.solid.volume_source

    @property
    def fallback(self) -> Optional[str]:
        """Return what the NumPy COLLADA reader left to trimesh for this file, else None."""
        return self.raw.fallback

    @property
    def hull_volume(self) -> Optional[float]:
        """
        Return the volume of the convex hull in m^3, None when there is none (flat, no SciPy).

        Computed once per file and scaled analytically, like the solid.
        """
        solid = self.solid
        if solid.hull_volume is not None:
            return solid.hull_volume
        unscaled = self._entry.solids.hull_volume(self.raw)
        if unscaled is None:
            return None
        return unscaled * abs(float(np.prod(np.asarray(self.scale, dtype=float))))

    @property
    def convex(self) -> bool:
        """Return True for a closed, valid mesh whose volume is (nearly) its convex hull's."""
        if self.volume_source != 'mesh' or not self.volume > 0.0:
            return False
        hull = self.hull_volume
        return hull is not None and hull > 0.0 and self.volume >= CONVEX_SHARE * hull

    @property
    def measure_problem(self) -> Optional[str]:
        """Return why the solid could not be measured (e.g. out of memory), else None."""
        return self.solid.problem

    @property
    def file_token(self) -> object:
        """
        Return an object that lives exactly as long as this file's cache entry.

        A result derived from two files is kept with one of them; a weak reference to the
        other's token tells whether that file is still the one it was derived from.
        """
        return self._entry

    def derived(self, key: Hashable, compute: Callable[[], T]) -> T:
        """
        Return ``compute()``, computed once per file, scale and key while the file is cached.

        What an analysis derives from a mesh alone (its hull, its bounds under a rotation,
        a test against another mesh at given poses) is the same in the next analysis of an
        unchanged file: a node re-analysing a description finds it here. Kept with the
        file's entry, so it leaves the cache with it; at most :data:`DERIVED_PER_FILE`
        results per file, the least recently used first out.

        :param key: what is derived (with everything it depends on besides the mesh)
        :param compute: computes it; must depend on nothing but the mesh and ``key``
        """
        return self._entry.derived.get((self.scale, key), compute)


MeshResult = Union[MeshInfo, MeshProblem]

#: the most results derived from one file (:meth:`MeshInfo.derived`) kept at once
DERIVED_PER_FILE = 256


class _Derived:
    """A file's derived results, least recently used first out; shared by threads."""

    __slots__ = ('_lock', '_results')

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._results: 'OrderedDict[Hashable, object]' = OrderedDict()

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        with self._lock:
            if key in self._results:
                self._results.move_to_end(key)
                return self._results[key]  # type: ignore[return-value]
        value = compute()  # outside the lock: two threads may both compute, one is kept
        with self._lock:
            self._results[key] = value
            self._results.move_to_end(key)
            while len(self._results) > DERIVED_PER_FILE:
                self._results.popitem(last=False)
        return value


class _Entry:
    """One file in one format: what was read, its solid, its views per scale."""

    __slots__ = ('raw', 'solids', 'derived', 'bounds', 'infos', 'nbytes', '__weakref__')

    def __init__(self, raw: Union[RawMesh, MeshProblem],
                 bounds: Optional[Tuple[np.ndarray, np.ndarray]] = None) -> None:
        self.raw = raw
        self.solids = SolidCache()
        self.derived = _Derived()
        # Weak: each MeshInfo holds its entry, so a strong map back would make a cycle.
        self.infos: 'weakref.WeakValueDictionary[Scale, MeshInfo]' = \
            weakref.WeakValueDictionary()
        self.bounds = None
        self.nbytes = 0
        if isinstance(raw, RawMesh):
            self.bounds = bounds if bounds is not None else vertex_bounds(raw)
            self.nbytes = raw.nbytes
            if raw.size_bytes > TRIM_BYTES:
                weakref.finalize(self, trim_heap)


def collada_fallbacks(results: Iterable[object]) -> Dict[str, int]:
    """
    Count the distinct mesh files read through trimesh because the COLLADA reader left them.

    :param results: loaded meshes (MeshInfo; anything else is passed over)
    :return: reason -> number of files, most frequent first
    """
    seen: Dict[int, str] = {}
    for result in results:
        if isinstance(result, MeshInfo) and result.fallback is not None:
            seen[id(result.raw)] = result.fallback
    counts: Dict[str, int] = {}
    for reason in seen.values():
        counts[reason] = counts.get(reason, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def vertex_bounds(raw: RawMesh) -> Tuple[np.ndarray, np.ndarray]:
    """Return the (min, max) corners of a mesh's vertices, before any URDF scale."""
    return column_bounds(raw.vertices)


def read_and_measure(path: str, file_type: str, budget: Budget, tried: Tuple[str, ...],
                     measure: bool, measure_small: bool = False
                     ) -> Tuple[Union[RawMesh, MeshProblem], Optional[Solid],
                                Optional[Tuple[np.ndarray, np.ndarray]]]:
    """
    Read a file, take its bounds and, when asked, measure its solid (a reading child's work).

    The bounds are taken there too: a visual mesh of a million vertices costs a few
    milliseconds of min and max, which this process then need not spend (.aside).

    :param measure_small: measure it too when it has fewer vertices than coal's hulls
        start at (:data:`.hull.NATIVE_MIN_POINTS`): its hull is the NumPy quickhull's
        wherever it is measured, and coal is not imported for it
    """
    raw = read_mesh(path, file_type, budget, tried)
    if not isinstance(raw, RawMesh):
        return raw, None, None
    if not measure and measure_small:
        measure = len(raw.vertices) < NATIVE_MIN_POINTS
    return raw, measure_solid(raw) if measure else None, vertex_bounds(raw)


class MeshLibrary(PackageResolver):
    """
    Resolve and load meshes; one instance may be shared by threads.

    :param package_dirs: package name -> directory of that package (its share folder),
        taking precedence over the ament index
    :param max_bytes: refuse files larger than this
    :param use_ament_index: look packages up through ``AMENT_PREFIX_PATH``
    :param ament_prefix_path: prefixes to search instead of the environment variable
    :param cache_bytes: most bytes of mesh arrays the cache keeps
    :param max_triangles: most triangles a file's scene may expand to
    :param max_instances: most geometry instances a file's scene may expand to
    """

    def __init__(self, package_dirs: Optional[Mapping[str, str]] = None,
                 max_bytes: int = MESH_MAX_BYTES, use_ament_index: bool = True,
                 ament_prefix_path: Optional[Sequence[str]] = None,
                 cache_bytes: int = DEFAULT_CACHE_BYTES,
                 max_triangles: int = DEFAULT_MAX_TRIANGLES,
                 max_instances: int = DEFAULT_MAX_INSTANCES) -> None:
        super().__init__(package_dirs, use_ament_index, ament_prefix_path)
        self.max_bytes = int(max_bytes)
        self.cache_bytes = int(cache_bytes)
        self.budget = Budget(self.max_bytes, int(max_triangles), int(max_instances))
        self._lock = threading.Lock()
        self._key_locks: Dict[tuple, threading.Lock] = {}
        self._entries: 'OrderedDict[tuple, _Entry]' = OrderedDict()
        # Every entry some live MeshInfo still uses (a snapshot being served), whether or
        # not the byte budget keeps it: found again without reading, at no memory cost.
        self._alive: 'weakref.WeakValueDictionary[tuple, _Entry]' = \
            weakref.WeakValueDictionary()
        self._cached_bytes = 0
        self.loads = 0

    @property
    def cached_bytes(self) -> int:
        """Return the bytes of mesh arrays the cache holds now."""
        return self._cached_bytes

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
                               resolution.tried, missing_package=resolution.missing_package,
                               missing_folder=resolution.missing_folder)
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
        scale_key: Scale = tuple(float(v) for v in scale)  # type: ignore[assignment]
        if not all(np.isfinite(v) for v in scale_key):
            return MeshProblem('mesh-unreadable', f'{path}: the scale {scale_key} is not '
                               'finite', tried, path)
        try:
            info = os.stat(path)
        except OSError as exc:
            reason = 'is a symbolic link loop' if exc.errno == errno.ELOOP else \
                f'cannot be read: {exc.strerror}'
            rule = 'mesh-not-found' if exc.errno in (errno.ENOENT, errno.ELOOP) else \
                'mesh-unreadable'
            return MeshProblem(rule, f'{path} {reason}', tried, path)
        reason = refusal(path, info, self.max_bytes)
        if reason is not None:
            return MeshProblem('mesh-unreadable', reason, tried, path)
        ext = os.path.splitext(path)[1].lower()
        file_type = SUPPORTED.get(ext)
        if file_type is None:
            # The tool's limit, not the file's fault: RViz and MoveIt read many more formats
            # through Assimp (AUBO's .3ds visuals).
            return MeshProblem('mesh-unreadable', f'{path}: this tool does not read '
                               f'{ext or "extension-less"} meshes (it reads STL, OBJ, DAE, '
                               'glTF and GLB); RViz and MoveIt load many more formats through '
                               'Assimp, MuJoCo reads STL, OBJ and MSH', tried, path,
                               unsupported_format=ext or '(none)')
        # The file itself (device and inode, as stat followed any links), not its path:
        # every spelling of it shares one entry; and the format its name announces.
        key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, file_type)
        try:
            return self._load_entry(key, path, file_type, info.st_size, scale_key, tried)
        except MemoryError:
            return MeshProblem('mesh-unreadable', f'{path}: the checker ran out of memory '
                               'reading it; it was not checked', tried, path)

    def read_aside(self, files: Sequence[Tuple[str, Optional[str], bool]],
                   min_bytes: int = ASIDE_MIN_BYTES) -> int:
        """
        Read files, and measure the solids of some, in this process and a forked child.

        The files not cached yet are shared between the two processes by their estimated
        cost (:mod:`.aside`). What the child read and measured is then cached as if this
        process had done it (:mod:`.elsewhere`: the same code on the same files). Nothing
        is done when this process may not fork or the child's share is under
        ``min_bytes``; files the child could not answer for are read when they are loaded,
        as always.

        :param files: (URDF filename attribute, the URDF's folder, whether its solid is
            needed) of each file
        :param min_bytes: a smaller share is not worth a child (a fork costs a few
            milliseconds; reading a megabyte of COLLADA about ten)
        :return: how many files the child read
        """
        return self.adopt_aside(aside.start(self, files, self.budget,
                                            lambda key: self._lookup(key) is not None,
                                            min_bytes))

    def adopt_aside(self, started: Optional[Aside],
                    between: Optional[Callable[[], None]] = None) -> int:
        """
        Read this process's share of files a child was started on, and cache the child's.

        :param started: from :func:`.aside.start` (with this library's budget), or None
        :param between: called when every measured file is read here (see
            :meth:`.aside.Aside.claims`)
        :return: how many files the child read
        """
        if started is None:
            return 0
        try:
            if started.budget == self.budget:  # else read under other limits: not ours
                for key, path, file_type, size, tried, measure in started.claims(between):
                    entry = self._read_here(key, path, file_type, size, tried)
                    if measure and isinstance(entry.raw, RawMesh):
                        entry.solids.get(entry.raw)
            else:
                started.child.cancel()
        except BaseException:
            started.child.cancel()
            raise
        finally:
            started.close()
        answers = started.child.collect()
        adopted = 0
        for index, raw, solid, bounds in answers[0] if answers and answers[0] else ():
            if isinstance(raw, RawMesh):  # arrays come back writable from the pipe
                raw = replace(raw, vertices=frozen(raw.vertices), faces=frozen(raw.faces))
            entry = _Entry(raw, bounds)
            if solid is not None:
                entry.solids.adopt(solid)
            elif started.requests[index][5] and isinstance(raw, RawMesh):
                entry.solids.get(raw)  # read there, measured here (see aside._worth_coal)
            self.loads += 1
            self._store(started.requests[index][0], entry)
            adopted += 1
        return adopted

    def _load_entry(self, key: tuple, path: str, file_type: str, size: int, scale_key: Scale,
                    tried: Tuple[str, ...]) -> MeshResult:
        entry = self._lookup(key)
        if entry is None:
            entry = self._read_here(key, path, file_type, size, tried)
        return self._view(entry, path, scale_key)

    def _read_here(self, key: tuple, path: str, file_type: str, size: int,
                   tried: Tuple[str, ...]) -> _Entry:
        """Read a file into the cache, once whichever thread asks first; return its entry."""
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            entry = self._lookup(key)
            if entry is None:
                self.loads += 1
                entry = _Entry(read_mesh(path, file_type, self.budget, tried))
                self._store(key, entry)
                if size > TRIM_BYTES:
                    trim_heap()
        with self._lock:
            self._key_locks.pop(key, None)
        return entry

    def _lookup(self, key: tuple) -> Optional[_Entry]:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                return entry
            entry = self._alive.get(key)
        if entry is not None:
            self._store(key, entry)
        return entry

    def _store(self, key: tuple, entry: _Entry) -> None:
        with self._lock:
            if key in self._entries:  # another thread stored it meanwhile
                self._entries.move_to_end(key)
                return
            if isinstance(entry.raw, RawMesh):
                self._alive[key] = entry
            if entry.nbytes > self.cache_bytes:
                return  # larger than the whole cache: kept only while in use
            self._entries[key] = entry
            self._cached_bytes += entry.nbytes
            while (self._cached_bytes > self.cache_bytes or
                   len(self._entries) > _MAX_ENTRIES) and len(self._entries) > 1:
                # The oldest first; the entry just stored is the newest, so it stays.
                _, old = self._entries.popitem(last=False)
                self._cached_bytes -= old.nbytes

    def _view(self, entry: _Entry, path: str, scale: Scale) -> MeshResult:
        raw = entry.raw
        if isinstance(raw, MeshProblem):
            return raw
        with self._lock:
            cached = entry.infos.get(scale)
        if cached is not None:
            return cached
        factors = np.asarray(scale, dtype=float)
        low, high = entry.bounds[0] * factors, entry.bounds[1] * factors
        info = MeshInfo(path=path, raw=raw, scale=scale, face_count=int(len(raw.faces)),
                        bounds=(frozen(np.minimum(low, high)), frozen(np.maximum(low, high))),
                        _entry=entry)
        with self._lock:
            cached = entry.infos.get(scale)
            if cached is not None:
                return cached
            entry.infos[scale] = info
            return info

    def clear(self) -> None:
        """Forget every cached mesh."""
        with self._lock:
            self._entries.clear()
            self._alive.clear()
            self._cached_bytes = 0
        self.forget_packages()
