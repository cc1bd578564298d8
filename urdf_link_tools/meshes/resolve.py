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
Find the file a mesh URI names, as ROS does.

``package://NAME/PATH`` is looked up first in the package directories the user gave, then
in the ament index of every prefix on ``AMENT_PREFIX_PATH``
(``<prefix>/share/ament_index/resource_index/packages/NAME`` marks ``<prefix>/share/NAME``).
A package path that climbs out of its package (``package://pkg/../../etc/x``) is refused:
no ROS tool needs it and it would let a description read any file through a package name.
``file://`` URIs and plain paths are absolute or relative to the URDF's folder, by design
(the URDF's author chose them). Every failure says what was tried.
"""

from __future__ import annotations

from dataclasses import replace
import errno
import os
import re
import threading
from typing import Dict, List, Mapping, Optional, Sequence, Tuple
from urllib.parse import unquote

from urdf_link_tools.read_policy import ament_index_shares, ament_prefixes, leaves_package
from urdf_link_tools.records import record

_SCHEME_RE = re.compile(r'^[A-Za-z][A-Za-z0-9+.-]*://')


@record
class MeshResolution:
    """Where a mesh URI points: the file, or the error and every location tried."""

    uri: str
    path: Optional[str]
    tried: Tuple[str, ...] = ()
    error: Optional[str] = None
    #: the package of a package:// URI that was not found at all (None otherwise)
    missing_package: Optional[str] = None
    #: for an absolute path whose folder does not exist, the highest folder of it that does
    #: not (a workspace of the machine the description was generated on); None otherwise
    missing_folder: Optional[str] = None


def _with_missing_folder(resolution: MeshResolution, path: str) -> MeshResolution:
    """Name the highest missing folder of an absolute path that was not found."""
    if resolution.path is not None or resolution.error != 'no such file':
        return resolution
    folder = os.path.dirname(os.path.normpath(path))
    if os.path.isdir(folder):
        return resolution  # a missing file in a folder that is here: the file's own problem
    top = None
    while folder and not os.path.exists(folder):
        top, parent = folder, os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return replace(resolution, missing_folder=top)


#: the mesh extensions a near miss may have (the formats this tool reads)
_MESH_EXTENSIONS = ('.stl', '.obj', '.dae', '.glb', '.gltf')
#: a folder with more entries than this is not searched for a near miss
_MAX_ENTRIES = 10_000


def near_miss(uri: str, tried: Sequence[str]) -> Optional[str]:
    """
    Return the URI of an existing mesh a URI that was not found probably meant, or None.

    Only names the description could have probed for itself: the same file name in
    another case or with another mesh extension (HSR's ``torso.std`` for ``torso.stl``,
    ``Link1.STL`` for ``link1.stl``), in the folder tried or the one above it (Scout's
    ``meshes/scout_v2/`` that was never there). Never another file of the folder: a
    description may name any path, and CI output must not list what a folder holds.

    :param uri: the filename attribute as written
    :param tried: the paths looked at, as the resolver tried them
    :return: ``uri`` with its last part (and folder, for the one above) replaced
    """
    stem = os.path.splitext(os.path.basename(uri))[0].lower()
    head = os.path.dirname(uri)
    # The folder above, if the URI names one: not above a package, nor above a bare name.
    above = os.path.dirname(head) if head and not head.endswith(':') else ''
    if '://' in head and '://' not in above:
        above = ''
    if not stem:
        return None
    for path in tried:
        if '.git' in path.split(os.sep):
            continue
        folder = os.path.dirname(path)
        name = os.path.basename(path)
        found = _same_name(folder, stem, name, exact=False)
        if found is not None:
            return f'{head}/{found}' if head else found
        found = _same_name(os.path.dirname(folder), stem, name, exact=True) if above else None
        if found is not None:
            return f'{above}/{found}'
    return None


#: the most sub-folders of a folder looked into for a mesh one folder down
_MAX_SUBFOLDERS = 32


def one_folder_down(uri: str, tried: Sequence[str]) -> Optional[str]:
    """
    Return the URI of the same file one folder down, when exactly one sub-folder holds it.

    Nachi's MZ07L (sweep S) names package://mz07l_description/meshes/mz07_base_link.STL;
    the file is in meshes/collision/ (and a DAE of it in meshes/visual/): the meshes were
    sorted into folders after the URDF was exported. The same name only, in the folder's
    first :data:`_MAX_SUBFOLDERS` sub-folders; never a file the resolution would refuse. As
    for :func:`near_miss`, only for a description's own folders and packages (the caller's
    guard).

    :param uri: the filename attribute as written
    :param tried: the paths looked at, as the resolver tried them
    :return: ``uri`` with the sub-folder inserted before its file name
    """
    head, name = os.path.split(uri.strip())
    if not name:
        return None
    for path in tried:
        if '.git' in path.split(os.sep) or os.path.basename(path) != name:
            continue
        found = _folders_holding(os.path.dirname(path), name)
        if found is None:
            continue
        if len(found) == 1:
            return f'{head}/{found[0]}/{name}' if head else f'{found[0]}/{name}'
        if found:
            return None  # in several: which one was meant is not known
    return None


def _folders_holding(folder: str, rest: str) -> Optional[List[str]]:
    """
    Return the sub-folders of a folder that hold the file ``rest`` (None if unreadable).

    The first :data:`_MAX_SUBFOLDERS` sub-folders, hidden ones and links left out; never a
    file the resolution would refuse (a link leading out of its package).
    """
    found = []
    try:
        with os.scandir(folder) as entries:
            folders = 0
            for count, entry in enumerate(entries):
                if count >= _MAX_ENTRIES or folders >= _MAX_SUBFOLDERS:
                    break
                if entry.name.startswith('.') or not entry.is_dir(follow_symlinks=False):
                    continue
                folders += 1
                candidate = os.path.join(entry.path, rest)
                if os.path.isfile(candidate) and leaves_package(candidate) is None:
                    found.append(entry.name)
    except OSError:
        return None
    return found


def one_folder_up(uri: str, tried: Sequence[str]) -> Optional[str]:
    """
    Return ``../URI`` when a relative path names a file one folder above the URDF's folder.

    SMARC's SAM writes mesh/SAM_HULL.dae in urdf/sam_auv.urdf: the folder is the package's
    mesh/, a path written from the package's root (sweep U). URDF readers resolve a relative
    path from the URDF's folder. Only plain relative paths (no ``..``), never a file the
    resolution would refuse; as for :func:`near_miss`, the caller guards where it looks.

    :param uri: the filename attribute as written
    :param tried: the paths looked at, as the resolver tried them
    """
    found = _urdf_folder(uri, tried)
    if found is None:
        return None
    base, parts = found
    candidate = os.path.join(os.path.dirname(base), *parts)
    if os.path.isfile(candidate) and leaves_package(candidate) is None:
        return '../' + '/'.join(parts)
    return None


def one_folder_under(uri: str, tried: Sequence[str]) -> Optional[str]:
    """
    Return ``SUB/URI`` when a relative path names a file in one sub-folder of the URDF's.

    Astribot's whole-body URDF writes s1_torso/*.STL; the files are in meshes/s1_torso/
    beside it (sweep W). Exactly one sub-folder (of the first :data:`_MAX_SUBFOLDERS`)
    must hold the file; plain relative paths only; as for :func:`near_miss`, the caller
    guards where it looks.

    :param uri: the filename attribute as written
    :param tried: the paths looked at, as the resolver tried them
    """
    found = _urdf_folder(uri, tried)
    if found is None:
        return None
    base, parts = found
    holding = _folders_holding(base, os.path.join(*parts))
    if holding is not None and len(holding) == 1:
        return f'{holding[0]}/' + '/'.join(parts)
    return None


def _urdf_folder(uri: str, tried: Sequence[str]) -> Optional[Tuple[str, List[str]]]:
    """
    Return the folder a plain relative mesh path was read from, and the path's parts.

    None for a URI, an absolute path, one with ``..``, or one tried only inside ``.git``.
    """
    uri = uri.strip()
    parts = [part for part in uri.split('/') if part not in ('', '.')]
    if not parts or '..' in parts or '://' in uri or uri.startswith(('/', 'file:')):
        return None
    for path in tried:
        if '.git' in path.split(os.sep):
            continue
        base = path
        for _ in parts:
            base = os.path.dirname(base)
        return base, parts
    return None


def sibling_folder(uri: str, tried: Sequence[str]) -> Optional[str]:
    """
    Return the URI of the same file through a sibling of the first folder that is missing.

    Rokae's xMatePro7 (sweep T) names meshes/xMateER7p/collision/*.stl, a folder never
    there; every file is in meshes/xMatePro7/collision/: the robot was renamed, its URDF
    not. Exactly one sibling (of the first :data:`_MAX_SUBFOLDERS`) must hold the file, not
    through a symbolic link leading out; as for :func:`near_miss`, for a description's own
    folders and packages only (the caller's guard).

    :param uri: the filename attribute as written
    :param tried: the paths looked at, as the resolver tried them
    :return: ``uri`` with the missing folder replaced, or None
    """
    uri = uri.strip()
    for path in tried:
        if '.git' in path.split(os.sep):
            continue
        top = os.path.dirname(path)
        if os.path.isdir(top):
            continue  # the folder is there: the file's own problem
        while top and not os.path.isdir(os.path.dirname(top)):
            parent = os.path.dirname(top)
            if parent == top:
                return None
            top = parent
        rest = os.path.relpath(path, top).replace(os.sep, '/')
        tail = f'{os.path.basename(top)}/{rest}'
        if not uri.endswith('/' + tail) and uri != tail:
            continue
        found = _folders_holding(os.path.dirname(top), rest)
        if found is None:
            continue
        if len(found) == 1:
            return uri[:len(uri) - len(tail)] + f'{found[0]}/{rest}'
        return None
    return None


def _same_name(folder: str, stem: str, name: str, exact: bool) -> Optional[str]:
    """Return a file of folder named ``name`` (in another case unless exact) or ``stem.*``."""
    try:
        with os.scandir(folder) as entries:
            for count, entry in enumerate(entries):
                if count >= _MAX_ENTRIES:
                    return None
                base, extension = os.path.splitext(entry.name)
                if (entry.name == name and exact or entry.name != name and (
                        entry.name.lower() == name.lower() or (
                            base.lower() == stem and extension.lower() in _MESH_EXTENSIONS))) \
                        and entry.is_file() and leaves_package(entry.path) is None:
                    return entry.name  # (never one the resolution would refuse)
    except OSError:
        return None
    return None


def _beside(rest: str, base_dir: Optional[str], slashes: bool) -> str:
    """
    Say so when a package URI's path, read from the URDF's folder, is a file there.

    ``package:///meshes/base.stl`` (three slashes: no package name, so 'meshes' is read
    as one) or ``package://meshes/base.stl``: the file is often beside the URDF, where the
    exporter meant it. RViz and Gazebo do not look there either, so it is not read.
    """
    if base_dir is None or not os.path.isfile(os.path.join(base_dir, os.path.normpath(rest))):
        return ''
    head = ('; package:/// (three slashes) names no package, so its first folder was read '
            'as one' if slashes else '; the path may lack its package name')
    return (f'{head}: the file {rest} is beside the URDF: write '
            f'package://YOUR_PACKAGE/{rest} (the package the URDF is in), or the relative '
            f'path {rest}')


class PackageResolver:
    """
    Resolve mesh URIs; one instance may be shared by threads.

    :param package_dirs: package name -> directory of that package (its share folder),
        taking precedence over the ament index
    :param use_ament_index: look packages up through ``AMENT_PREFIX_PATH``
    :param ament_prefix_path: prefixes to search instead of the environment variable
    """

    def __init__(self, package_dirs: Optional[Mapping[str, str]] = None,
                 use_ament_index: bool = True,
                 ament_prefix_path: Optional[Sequence[str]] = None) -> None:
        self.package_dirs: Dict[str, str] = dict(package_dirs or {})
        self.use_ament_index = use_ament_index
        if ament_prefix_path is None:
            ament_prefix_path = ament_prefixes()
        self.ament_prefix_path: Tuple[str, ...] = tuple(ament_prefix_path)
        self._resolve_lock = threading.Lock()
        self._packages: Dict[str, Tuple[str, ...]] = {}

    def package_candidates(self, name: str) -> Tuple[str, ...]:
        """
        Return the directories that may hold package ``name``, best first.

        :param name: the package name
        :return: user-given directory (if any), then ament index entries
        """
        with self._resolve_lock:
            cached = self._packages.get(name)
        if cached is not None:
            return cached
        found = []
        if name in self.package_dirs:
            found.append(self.package_dirs[name])
        if self.use_ament_index:
            found.extend(ament_index_shares(name, self.ament_prefix_path))
        result = tuple(found)
        with self._resolve_lock:
            self._packages[name] = result
        return result

    def forget_packages(self) -> None:
        """Forget the package directories looked up so far."""
        with self._resolve_lock:
            self._packages.clear()

    def resolve(self, uri: str, base_dir: Optional[str]) -> MeshResolution:
        """
        Find the file a mesh URI refers to.

        :param uri: ``package://``, ``file://``, absolute or relative path
        :param base_dir: the URDF's folder (None when it came from stdin)
        :return: the resolution; ``path`` is None with ``error`` and ``tried`` on failure
        """
        text = uri.strip()
        if text.startswith('package://'):
            return self._resolve_package(uri, text[len('package://'):], base_dir)
        if '$(' in text or '${' in text:
            return MeshResolution(uri, None, (), 'the filename holds an unexpanded xacro '
                                  'expression: run the file through xacro first')
        if text.startswith('file://'):
            rest = unquote(text[len('file://'):])
            if rest.startswith('localhost/'):
                rest = rest[len('localhost'):]
            if rest.startswith('/'):
                return _with_missing_folder(self._check_paths(uri, [rest], True), rest)
            return self._resolve_relative(uri, rest, base_dir)
        if _SCHEME_RE.match(text):
            scheme = text.split('://', 1)[0]
            return MeshResolution(uri, None, (), f'the {scheme}:// scheme is not supported '
                                  'offline: use package://, file:// or a path')
        if os.path.isabs(text):
            return _with_missing_folder(self._check_paths(uri, [text], True), text)
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
        return self._check_paths(uri, [os.path.normpath(os.path.join(base_dir, relative))],
                                 True)

    def _resolve_package(self, uri: str, rest: str,
                         base_dir: Optional[str] = None) -> MeshResolution:
        # 'package:///pkg/x' (three slashes) is written by some exporters; resolve it like
        # 'package://pkg/x' instead of looking for a package with an empty name.
        slashes = rest.startswith('/')
        rest = rest.lstrip('/')
        name, _, relative = rest.partition('/')
        if not name or not relative:
            return MeshResolution(uri, None, (), 'a package URI must look like '
                                  'package://PACKAGE/path/to/mesh')
        inside = os.path.normpath(relative)
        if os.path.isabs(inside) or inside == '..' or inside.startswith('..' + os.sep) or \
                name in ('.', '..'):
            # Checked on the text, before any lookup: symbolic links inside a package (as
            # colcon's --symlink-install makes) stay allowed.
            return MeshResolution(uri, None, (), f'the path leaves package {name!r} '
                                  '(".." above its folder): name a file inside the package, '
                                  'or use file:// for a file elsewhere')
        candidates = self.package_candidates(name)
        if not candidates:
            prefixes = self.ament_prefix_path
            # (at most 3 named: every finding quoted a CI runner's whole path; review 7)
            where = (f'AMENT_PREFIX_PATH={os.pathsep.join(prefixes[:3])}'
                     + (f' and {len(prefixes) - 3} more' if len(prefixes) > 3 else '')
                     if self.use_ament_index and prefixes else
                     'no AMENT_PREFIX_PATH' if self.use_ament_index else 'ament index off')
            return MeshResolution(
                uri, None, (f'package {name!r}: not given with --package-dir (package_dirs) '
                            f'and not in the ament index ({where})',),
                f'package {name!r} was not found: source its workspace or pass '
                f'--package-dir {name}=/path/to/{name} (node: package_dirs)'
                + _beside(rest, base_dir, slashes), name)
        return self._check_paths(uri, [os.path.join(base, inside) for base in candidates],
                                 True)

    def _check_paths(self, uri: str, paths: Sequence[str],
                     contained: bool = False) -> MeshResolution:
        """
        Return the first of paths that exists, or why none is used.

        :param contained: a symbolic link on the path may not lead out of the package (or
            git work tree) holding the path as named, as for a description file (a mesh
            linked to /proc/self/environ, to another checkout's file: eighth red-team
            review). Every resolution but that of stdin's relative paths: a file:// or
            absolute path may name a file anywhere (the author's choice, by design), but
            not through a link a pull request commits into its checkout (meshes/ls.stl to
            /usr/bin/ls: a program read as an STL, red-team review 16)
        """
        tried = []
        broken = None
        for path in paths:
            tried.append(path)
            if os.path.exists(path):
                folder = leaves_package(path) if contained else None
                if folder is not None:
                    return MeshResolution(
                        uri, None, tuple(tried),
                        f'{path} is a symbolic link (or lies in a linked folder) that leads '
                        f'out of {folder}, the package holding it: a description may not '
                        'read files outside its package (name a file elsewhere with file://)')
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
