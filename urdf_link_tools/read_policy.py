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
Which files a robot description may read: the one place that decides.

A description names files in three ways: xacro reads (``xacro:include``,
``xacro.load_yaml``), mesh files (``package://``, ``file://``, paths) and glTF buffers. Each
reader asks :func:`read_refusal` before it opens a file, with the directories it may read:

- xacro: the input's package, the ``--package-dir`` directories, the packages the robot finds
  with ``$(find NAME)`` and the ``--xacro-allow-dir`` directories;
- glTF buffers: the glTF file's own folder;
- meshes: anywhere (``file://`` may name any file, by design: a mesh is read as a mesh,
  size-limited, and its bytes are never quoted).

Paths are judged after resolving symbolic links, and nothing inside a ``.git`` directory is
ever read (CI checkouts keep the job's token in ``.git/config``), whatever the roots.

``$(find NAME)`` names packages, never paths: :func:`find_package`
accepts a name given as a package directory (``--package-dir``, exactly) or a REP 144 package
name, and looks it up only in the given package directories and the ament index. This
module imports nothing but the standard library: the xacro child uses it.
"""

from __future__ import annotations

import os
import re
from typing import Iterator, List, Mapping, Optional, Sequence, Tuple

#: REP 144: lowercase letters, digits and single underscores, starting with a letter, at
#: least two characters. (Names with capitals or dashes, which catkin tolerated, are refused
#: in ``$(find)``: they are what a path needs, and no ament package has them.)
PACKAGE_NAME = re.compile(r'[a-z][a-z0-9]*(?:_[a-z0-9]+)*')


def is_package_name(name: object) -> bool:
    """Return whether ``name`` is a valid ROS package name (REP 144)."""
    return isinstance(name, str) and 2 <= len(name) <= 100 and \
        PACKAGE_NAME.fullmatch(name) is not None


def ament_index_shares(name: str, prefixes: Sequence[str]) -> Iterator[str]:
    """
    Yield ``<prefix>/share/NAME`` for each ament prefix whose index registers package NAME.

    :param name: a package name (checked by the caller)
    :param prefixes: the ament prefixes, in order
    :return: the share directories, best first
    """
    for prefix in prefixes:
        marker = os.path.join(prefix, 'share', 'ament_index', 'resource_index', 'packages',
                              name)
        if os.path.isfile(marker):
            yield os.path.join(prefix, 'share', name)


def find_package(name: str, package_dirs: Mapping[str, str],
                 prefixes: Sequence[str]) -> Optional[str]:
    """
    Resolve ``$(find NAME)``: the given package directories first, then the ament index.

    :param name: what the description wrote
    :param package_dirs: package name -> directory (``--package-dir``)
    :param prefixes: the ament prefixes
    :return: the package's directory, or None when not found
    :raises ValueError: when ``name`` is not a package name (a path, say)
    """
    if name in package_dirs and given_name(name):
        # A name the user gave with --package-dir (package_dirs): catkin tolerated capitals
        # and dashes (aliengoZ1_description); the description matches it only exactly.
        return package_dirs[name]
    if not is_package_name(name):
        raise ValueError(f'{name!r} is not a ROS package name (REP 144: lowercase letters, '
                         'digits and single underscores, starting with a letter); $(find) '
                         'takes a package name, never a path (a catkin package named so is '
                         'found when given with --package-dir NAME=PATH)')
    return next(ament_index_shares(name, prefixes), None)


def given_name(name: str) -> bool:
    """Return whether a --package-dir name can be a package's: one path component."""
    return bool(name) and name not in ('.', '..') and '\0' not in name and \
        os.sep not in name and (os.altsep is None or os.altsep not in name) and \
        name.strip() == name


def inside(real: str, root: str) -> bool:
    """Return whether a real path is ``root`` or lies under it (both resolved)."""
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def enclosing(path: str, markers: Sequence[str]) -> Optional[Tuple[str, str]]:
    """
    Return the nearest folder above a file that holds one of ``markers``, and which one.

    A ``.git`` may be a folder or a file (a worktree); a ``package.xml`` must be a file.

    :param path: the file, as named (symbolic links are not followed)
    :param markers: names to look for, in each folder in this order
    :return: (folder, marker), or None up to the root
    """
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        for marker in markers:
            probe = os.path.join(folder, marker)
            if os.path.isfile(probe) if marker == 'package.xml' else os.path.exists(probe):
                return folder, marker
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def checkout_package(path: str) -> Optional[str]:
    """
    Return the folder of the package holding a file, inside the git work tree holding it.

    The nearest folder above the file with a ``package.xml``, not above the nearest ``.git``:
    a pull request checked out into a folder of another package does not belong to that
    package (ninth red-team review: its files were read, and --fix-inertia rewrote one).
    The one rule for "the description's own package": its $(find), its package:// name,
    its ROS 1 build type, the files a near miss may name, and the xacro read roots.

    :param path: the file, as named
    :return: the package's folder, or None when the file is in no package of its checkout
    """
    found = enclosing(path, ('package.xml', '.git'))
    return found[0] if found is not None and found[1] == 'package.xml' else None


def checkout_root(path: str) -> str:
    """
    Return the folder a description's own files are searched in: its checkout.

    The git work tree holding the file, else its package (:func:`checkout_package`), else
    the file's folder: where an SRDF of the same repository, or a file a missing mesh
    probably meant, may be looked for and named.
    """
    tree = enclosing(path, ('.git',))
    if tree is not None:
        return tree[0]
    return checkout_package(path) or os.path.dirname(os.path.abspath(path))


def ament_prefixes() -> List[str]:
    """Return the ament prefixes of the environment (``AMENT_PREFIX_PATH``), in order."""
    return [item for item in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep) if item]


def in_git_folder(path: str) -> bool:
    """
    Return True for a path with a ``.git`` folder among its parts.

    Case-insensitively: on a case-insensitive file system (macOS, Windows runners) .GIT is
    the same folder.
    """
    return '.git' in path.lower().split(os.sep)


#: the kernel's and the devices' file systems: never a description's file (a mesh committed as
#: a link to /proc/self/environ had the checker read its environment, CI's secrets, as an
#: OBJ; /proc/kmsg, read, empties the kernel log: eighth red-team review)
SYSTEM_DIRS = ('/proc', '/sys', '/dev')


def leaves_package(path: str) -> Optional[str]:
    """
    Return the package (or git work tree) a path's symbolic links lead out of, or None.

    None also for a path with no link on it, or in no package or repository, or whose link
    stays in the git work tree holding its package; colcon's ``--symlink-install`` stays
    allowed (see :func:`link_out_of_package`).
    """
    real = os.path.realpath(path)
    if real == os.path.abspath(path):
        return None
    found = enclosing(path, ('package.xml', '.git'))
    if found is None:
        return None  # in no package or repository: nothing to stay inside
    folder, marker = found
    roots = [os.path.realpath(folder)]
    # A package.xml that is itself a link names the package it stands for (colcon's
    # --symlink-install tree, in no repository or in the one holding the sources); one a
    # pull request commits, linking to another checkout on the runner, names nothing.
    target = os.path.dirname(os.path.realpath(os.path.join(folder, marker)))
    tree = enclosing(os.path.join(folder, marker), ('.git',))
    if tree is None or inside(target, os.path.realpath(tree[0])):
        roots.append(target)
    if tree is not None:
        # The checkout holding the package: a link to another package of the same
        # repository (a meshes folder two variants share) leaves nothing the pull request
        # does not hold already (.git itself is refused on its own).
        roots.append(os.path.realpath(tree[0]))
    return None if any(inside(real, root) for root in roots) else folder


def link_out_of_package(path: str) -> Optional[str]:
    """
    Return why a description file named to be checked may not be read, or None.

    The path is CI's, but the file is the pull request's: a ``robot.urdf`` committed as a
    symbolic link to a file elsewhere on the runner would be read and its names printed. A
    file whose real path leaves the package (or git work tree) holding the path as given is
    refused; a link inside it stays allowed, and so does colcon's ``--symlink-install``
    (an installed package whose package.xml links to the source package's), unless that
    package.xml lies in a git work tree and links out of it (a pull request's package.xml
    linked to another checkout's, with the robot linked into that one).
    """
    real = os.path.realpath(path)
    if real == os.path.abspath(path):
        return None
    if in_git_folder(real) and not in_git_folder(os.path.abspath(path)):
        # A link into the repository's own .git (a robot.urdf committed as a link to
        # .git/config, red-team review 4), which no description may read.
        return (f'{path} is a symbolic link (or lies in a linked folder) that leads into a '
                '.git directory, which a description may never read; check the file itself')
    folder = leaves_package(path)
    if folder is None:
        return None
    return (f'{path} is a symbolic link (or lies in a linked folder) that leads out of '
            f'{folder}, the package holding it: a description may not read files outside '
            'its package; check the file itself')


def read_refusal(path: str, roots: Optional[Sequence[str]]) -> Optional[str]:
    """
    Decide whether a description may read a file.

    :param path: the file as named (symbolic links are resolved here)
    :param roots: real paths of the directories it may read under; None for anywhere
    :return: None when it may be read, else why not (naming the path as given)
    """
    if '\0' in path:
        # (os.path.realpath raises on it: a glTF buffer named "a%00b.bin" printed a
        # traceback; red-team review 7)
        return f'{path!r} holds a NUL character: no file has such a name'
    real = os.path.realpath(path)
    system = next((root for root in SYSTEM_DIRS if inside(real, root)), None)
    if system is not None:
        return (f'{path} is a file of the operating system ({real}, under {system}), which '
                'a description may never read; it was not opened')
    if in_git_folder(real):
        return (f'{path} is inside a .git directory, which a description may never read '
                '(CI keeps credentials there)')
    if roots is not None and not any(inside(real, root) for root in roots):
        return (f'{path} is outside the directories this robot may read (its own package or '
                'directory, its --package-dir packages and those it finds with $(find)); '
                'allow it with --xacro-allow-dir if you trust it')
    return None
