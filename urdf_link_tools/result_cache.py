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
The result cache of ``check --cache DIR``: a robot is checked again only if a file changed.

An entry is found by a key made of this tool's version, the options that change findings
(thresholds, ignored rules, package directories, xacro arguments, the baseline's content, the
ament prefixes) and the path and content of the description given. It holds the report and
the content digest of every other file the check read: xacro includes and YAML files,
meshes, the places a missing mesh was looked for (recorded as absent), and what each xacro
include pattern (``parts/*.xacro``) matched, and the package manifest (``package.xml``)
above each file read, with the absence of one in every folder between (which package a file
is in decides whose fault a finding is). The entry is used only while every one of them
still has that content, so editing a mesh, a YAML file or an included macro, adding the mesh
that was missing, or adding a file an include pattern matches, checks the robot again. A file whose
stat identity (device, inode, size, modification and change times) is the one recorded with
its digest is not read again, as git's index does: a write changes the ctime, which no tool
can set back, and a file changed within two seconds of being recorded is always read.

Entries are pickles written by this tool, read back by an unpickler that builds only this
tool's data classes (:class:`_EntryReader`): an entry planted by someone else can at worst be
a forged report, never run code. So the folder must be one nobody else writes:
:func:`cache_refusal` refuses a folder inside the git work tree (or ROS package) of a robot
checked, where a pull request could commit entries, and one others may write to. A damaged
or foreign entry is a miss.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace
import enum
import logging
import os
import pickle
import stat
import time
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from urdf_link_tools.reports import CheckReport

LOG = logging.getLogger(__name__)

#: bump when the entries' layout or what a report holds changes
FORMAT = 4  # 4: package manifests are dependencies (3: xacro include patterns; 2 missed both)
#: A file whose ctime is this close to when its digest was recorded may have been written
#: again in the same tick of a coarse clock (git's "racily clean" files): hashed again.
RACY_NS = 2_000_000_000
_CHUNK = 1 << 20

#: (path, content digest or None when absent, stat identity when the digest was taken)
Dependency = Tuple[str, Optional[str], Optional[Tuple[int, ...]]]


#: the digests of the current run in this process, by the run's token (ResultCache.run)
_RUN_DIGESTS: Dict[str, Dict[tuple, str]] = {}

#: How a xacro include pattern stands among the files read: no path holds a NUL.
_GLOB = '\0glob\0'
#: what stands for the content of a file that is not read (:func:`file_digest`)
UNREAD = '\0unread\0'


def glob_dependency(pattern: str, matched: Sequence[str]) -> str:
    """
    Return the dependency of an entry on what an include pattern matched.

    ``<xacro:include filename="parts/*.xacro"/>`` reads the files it matched, recorded as
    files read; a file matching it added later was never read, so the pattern itself is
    recorded, with the names it matched, and a later run matches it again.

    :param pattern: the absolute pattern xacro matched
    :param matched: every name it matched then
    """
    return f'{_GLOB}{pattern}\0{_listing(matched)}'


def _listing(names: Iterable[str]) -> str:
    import hashlib
    return hashlib.blake2b('\0'.join(sorted(names)).encode('utf-8', 'surrogateescape'),
                           digest_size=16).hexdigest()


def _glob_unchanged(dependency: str) -> bool:
    """Return True when an include pattern still matches the names it matched."""
    import glob
    pattern, _, digest = dependency[len(_GLOB):].rpartition('\0')
    return bool(pattern) and _listing(glob.glob(pattern)) == digest


def file_digest(path: str, known: Optional[Dict[tuple, str]] = None) -> Optional[str]:
    """
    Return the BLAKE2b digest of a file's content, or None when it cannot be read.

    A file the check itself refuses to read is not read here either: one that is not a
    regular file (a device, a FIFO) and one whose symbolic links lead out of its package,
    or into a system or ``.git`` folder, stand for :data:`UNREAD` and what they are. A
    pull request's robot.urdf linked to /dev/zero hung ``--cache`` hashing it, and one
    linked to a file elsewhere on the runner was read before the check refused it
    (red-team review 16).

    :param known: digests already taken in this run, by the file's identity, size and
        modification and change times (a write changes the ctime, which no tool can set
        back): robots of one collection share meshes (69 example robots name 683 distinct
        files 1,229 times), each is read once
    """
    import hashlib  # imported when a cache is used (a plain check loads no hash library)
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode):
        return UNREAD + 'not a regular file'
    from urdf_link_tools.read_policy import link_out_of_package, read_refusal
    if read_refusal(path, None) is not None or link_out_of_package(path) is not None:
        return UNREAD + 'outside its package'
    key = None
    if known is not None:
        key = _identity(info)
        found = known.get(key)
        if found is not None:
            return found
    digest = hashlib.blake2b(digest_size=20)
    try:
        # Never blocking: what was a regular file at the stat may be a FIFO by now.
        handle = os.open(path, os.O_RDONLY | getattr(os, 'O_NONBLOCK', 0))
        with os.fdopen(handle, 'rb') as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return UNREAD + 'not a regular file'
            for block in iter(lambda: stream.read(_CHUNK), b''):
                digest.update(block)
    except OSError:
        return None
    if key is not None:
        known[key] = digest.hexdigest()  # type: ignore[index]
    return digest.hexdigest()


def canonical(value: Any) -> str:
    """
    Return a text naming a value the same way in every process.

    ``repr`` of a set follows string hashing, which Python randomises per process: a key made
    with it (the engine targets are a frozenset) never matched in the next run. Sets and
    mappings are sorted here; dataclasses are spelled out field by field.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ', '.join(f'{field.name}={canonical(getattr(value, field.name))}'
                           for field in dataclasses.fields(value))
        return f'{type(value).__name__}({fields})'
    if isinstance(value, (set, frozenset)):
        return '{' + ', '.join(sorted(canonical(item) for item in value)) + '}'
    if isinstance(value, dict):
        return '{' + ', '.join(sorted(f'{canonical(key)}: {canonical(item)}'
                                      for key, item in value.items())) + '}'
    if isinstance(value, (list, tuple)):
        return '[' + ', '.join(canonical(item) for item in value) + ']'
    return repr(value)


#: the modules whose data classes an entry may hold (a CheckReport and what it refers to)
_ENTRY_MODULES = frozenset((
    'urdf_link_tools.analysis', 'urdf_link_tools.config', 'urdf_link_tools.findings',
    'urdf_link_tools.model', 'urdf_link_tools.reports', 'urdf_link_tools.reports.suppression'))


class _EntryReader(pickle.Unpickler):
    """Unpickle only this tool's data classes and enums: never a function, never code."""

    def find_class(self, module: str, name: str) -> Any:
        if module in _ENTRY_MODULES:
            found = super().find_class(module, name)
            if isinstance(found, type) and (dataclasses.is_dataclass(found)
                                            or issubclass(found, enum.Enum)):
                return found
        raise pickle.UnpicklingError(f'{module}.{name} is not part of a cache entry')


def source_tree(path: str) -> Optional[str]:
    """Return the git work tree holding a file, else its ROS package's folder, else None."""
    from urdf_link_tools.read_policy import enclosing
    found = enclosing(path, ('.git',)) or enclosing(path, ('package.xml',))
    return found[0] if found is not None else None


def cache_refusal(folder: str, robots: Sequence[str]) -> Optional[str]:
    """
    Return why a folder may not hold the result cache of these robots, or None.

    A cache entry is trusted to be this tool's report: a folder inside the repository (git
    work tree, else ROS package) of a robot checked could hold entries a pull request
    committed, and a folder others may write could hold theirs.

    :param folder: the ``--cache`` folder (it need not exist yet)
    :param robots: the descriptions checked
    """
    from urdf_link_tools.read_policy import inside
    real = os.path.realpath(folder)
    trees: Dict[str, Optional[str]] = {}
    for robot in robots:
        if robot == '-':
            continue
        where = os.path.dirname(os.path.abspath(robot))
        if where not in trees:
            trees[where] = source_tree(robot)
        tree = trees[where]
        if tree is not None and inside(real, os.path.realpath(tree)):
            return (f'--cache {folder} is inside {tree}, the repository of {robot}: a pull '
                    'request could put entries there. Keep the cache outside the checkout '
                    '(~/.cache/urdf-link-tools, or $RUNNER_TEMP in GitHub Actions)')
    probe = real
    while not os.path.exists(probe) and os.path.dirname(probe) != probe:
        probe = os.path.dirname(probe)  # the folder that will hold it, while it is not made
    info = os.stat(probe)
    if probe == real and (info.st_uid != os.geteuid() or info.st_mode & 0o022):
        return (f'--cache {folder} may be written by other users than you: give a folder '
                'only you can write (chmod go-w, or another folder)')
    return None


def _version() -> str:
    """
    Return this tool's version and a digest of its own Python sources.

    The sources, not only the version: a checkout or a fork between releases keeps the
    version number while its rules change, and a cache restored by CI must not answer with
    the findings of other code.
    """
    import importlib.metadata  # about 10 ms: only when a cache is used
    try:
        version = importlib.metadata.version('urdf_link_tools')
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - run from a checkout
        version = 'unknown'
    return f'{version}+{source_digest(os.path.dirname(os.path.abspath(__file__)))}'


def source_digest(package: str) -> str:
    """Return a digest of the names and contents of a folder's .py files (about 2 ms here)."""
    import hashlib
    digest = hashlib.blake2b(digest_size=16)
    for folder, folders, files in os.walk(package):  # top-down, each level sorted
        folders[:] = sorted(name for name in folders if name != '__pycache__')
        for name in sorted(files):
            if name.endswith('.py'):
                path = os.path.join(folder, name)
                digest.update(os.fsencode(os.path.relpath(path, package)) + b'\0')
                with open(path, 'rb') as stream:
                    digest.update(stream.read())
    return digest.hexdigest()


class ResultCache:
    """
    Reports stored by the content of every file a check read.

    :param folder: where entries live (created when missing)
    :param options: a text naming every option that changes the findings
    """

    def __init__(self, folder: str, options: str) -> None:
        self.folder = folder
        self.options = f'{FORMAT}\0{_version()}\0{options}'
        #: names this run: its copies in worker processes (one per robot checked) share the
        #: digests taken in their process, and a later run reads every file again
        self.run = os.urandom(8).hex()

    @property
    def _digests(self) -> Dict[tuple, str]:
        if self.run not in _RUN_DIGESTS:
            _RUN_DIGESTS.clear()  # one run at a time in a process
            _RUN_DIGESTS[self.run] = {}
        return _RUN_DIGESTS[self.run]

    def _entry(self, path: str) -> Optional[str]:
        content = file_digest(path, self._digests)
        if content is None or content.startswith(UNREAD):
            return None  # the check refuses it, uncached
        import hashlib
        # A file name that is not UTF-8 is kept as its bytes (surrogate escapes), not refused.
        text = f'{self.options}\0{os.path.abspath(path)}\0{content}'
        key = hashlib.blake2b(text.encode('utf-8', 'surrogateescape'),
                              digest_size=20).hexdigest()
        return os.path.join(self.folder, key[:2], key + '.pickle')

    def get(self, path: str) -> Optional[Any]:
        """Return what was stored for a robot when no file its check read changed, else None."""
        entry = self._entry(path)
        if entry is None or not os.path.exists(entry):
            return None
        try:
            # Not through a link, nor blocking on what is not a regular file: an entry
            # replaced by a link to a FIFO hung the check (ninth red-team review).
            handle = os.open(entry, os.O_RDONLY | getattr(os, 'O_NOFOLLOW', 0)
                             | getattr(os, 'O_NONBLOCK', 0))
            with os.fdopen(handle, 'rb') as stream:
                if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                    return None
                dependencies, value = _EntryReader(stream).load()
        except Exception:  # a damaged or foreign entry: check again
            return None
        if any(not _unchanged(name, digest, identity, self._digests)
               for name, digest, identity in dependencies):
            return None
        return value

    def put(self, path: str, value: Any, read: Iterable[str],
            absent: Iterable[str] = ()) -> None:
        """
        Store what a robot's check gave with the digests of the files it read.

        :param path: the description given on the command line
        :param value: what to store (a report without meshes: :func:`portable`)
        :param read: every other file the check read
        :param absent: files looked for and not found (a later one invalidates the entry)
        """
        entry = self._entry(path)
        if entry is None:
            return
        dependencies: List[Dependency] = [_recorded(name, self._digests)
                                          for name in sorted(set(read))]
        dependencies += [(name, None, None) for name in sorted(set(absent))
                         if not os.path.exists(name)]
        shard = os.path.dirname(entry)
        try:
            os.makedirs(shard, exist_ok=True)
            if os.path.islink(shard) or os.path.islink(self.folder):
                # (a shard linked elsewhere would put entries there: ninth review)
                LOG.warning('--cache %s: %s is a symbolic link; nothing stored', self.folder,
                            shard)
                return
            import tempfile  # with shutil, bz2 and lzma: about 8 ms a check without --cache
            handle, temporary = tempfile.mkstemp(dir=shard, suffix='.tmp')
        except OSError as exc:
            # A cache that cannot be written (a file where a folder should be, a full disk):
            # the report stands, the entry is not kept (it printed a traceback: ninth review).
            LOG.warning('--cache %s: the result was not stored (%s)', self.folder,
                        exc.strerror or type(exc).__name__)
            return
        try:
            with os.fdopen(handle, 'wb') as stream:
                pickle.dump((dependencies, value), stream,
                            protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, entry)  # readers see a whole entry or none
        except OSError as exc:
            _unlink_quietly(temporary)
            LOG.warning('--cache %s: the result was not stored (%s)', self.folder,
                        exc.strerror or type(exc).__name__)
        except BaseException:
            _unlink_quietly(temporary)
            raise


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _identity(info: os.stat_result) -> Tuple[int, ...]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _recorded(path: str, known: Dict[tuple, str]) -> Dependency:
    """
    Return a file's digest with its stat identity, when that can vouch for it later.

    The identity (device, inode, size, modification and change times) is kept only when the
    file's last change is RACY_NS older than now: a write after this changes the ctime,
    which no tool can set back, so a later run that finds the same identity need not read
    the file (git's index does the same). Otherwise, and when it cannot be read, None.
    """
    if path.startswith(_GLOB):
        return path, 'pattern', None  # (what it matched is in its name)
    try:
        before = os.stat(path)
    except OSError:
        return path, None, None
    digest = file_digest(path, known)
    try:
        after = os.stat(path)
    except OSError:
        return path, digest, None
    settled = _identity(before) == _identity(after) and \
        time.time_ns() - after.st_ctime_ns > RACY_NS
    return path, digest, _identity(after) if settled else None


def _unchanged(path: str, digest: Optional[str], identity: Optional[Tuple[int, ...]],
               known: Dict[tuple, str]) -> bool:
    """Return True when a file still has the recorded content (or is still absent)."""
    if path.startswith(_GLOB):
        return _glob_unchanged(path)
    if digest is None:  # absent or unreadable when recorded: it must still be
        return file_digest(path, known) is None
    if identity is not None:
        try:
            if _identity(os.stat(path)) == identity:
                return True
        except OSError:
            return False
    return file_digest(path, known) == digest


def portable(report: CheckReport) -> CheckReport:
    """Return a report without its loaded meshes: what crosses processes and goes to disk."""
    return replace(report, analysis=replace(report.analysis, meshes={}))


def files_read(report: CheckReport, includes: Sequence[str] = ()
               ) -> Optional[Tuple[List[str], List[str]]]:
    """
    Return (files read, files looked for but absent) by a robot's check, None if unknown.

    Unknown (so never cached) when a mesh reads files of its own (glTF buffers).

    :param report: the report, with its analysis's meshes still there
    :param includes: the xacro includes and YAML files of the expansion
    """
    read = list(includes)
    absent: List[str] = []
    for mesh in report.analysis.meshes.values():
        path = getattr(mesh, 'path', None)
        if path is not None and path.lower().endswith(('.gltf', '.glb')):
            return None
        if path is not None:
            read.append(path)
        absent.extend(name for name in getattr(mesh, 'tried', ()) if name != path)
    markers, missing = package_markers(read)
    return read + markers, absent + missing


#: folders walked up from a file to its package's manifest, at most
_MAX_PACKAGE_DEPTH = 64


def package_markers(paths: Iterable[str]) -> Tuple[List[str], List[str]]:
    """
    Return the package manifests that decide which package each file is in, and those absent.

    Which package a file is in (its own package, a dependency's, what --ignore-package
    leaves out) is the nearest package.xml above it: a manifest added in a folder between a
    file and its package, or one removed, changes the findings, so the entry depends on the
    manifest found (its content) and on the absence of one in every folder below it.

    :param paths: files the check read
    :return: (manifests found, manifest paths that were absent)
    """
    found: List[str] = []
    missing: List[str] = []
    seen = set()
    for path in paths:
        folder = os.path.dirname(os.path.abspath(path))
        for _ in range(_MAX_PACKAGE_DEPTH):
            if folder in seen:
                break
            seen.add(folder)
            manifest = os.path.join(folder, 'package.xml')
            if os.path.isfile(manifest):
                found.append(manifest)
                break
            missing.append(manifest)
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    return found, missing
