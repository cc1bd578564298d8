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
Which ROS package a finding was written in: the checked robot's own, or a dependency's.

A robot description's xacro calls macros of other packages (a camera's from
``realsense2_description``, an arm's from ``ur_description``): a fault in a link such a
macro writes is that package's, which the robot's authors fix upstream or live with. The
finding says so (its ``package`` value and its fix), and ``check --ignore-package NAME``
leaves a dependency's findings out. A file's package is the nearest folder above it that
holds a ``package.xml`` (its ``<name>``, else the folder's name), as colcon finds packages;
only files the expansion read are looked at.
"""

from __future__ import annotations

import dataclasses
import os
import re
from typing import Collection, Dict, Iterable, NamedTuple, Optional, Sequence, Tuple

from urdf_link_tools.findings import Finding
from urdf_link_tools.read_policy import (ament_index_shares, ament_prefixes, checkout_package,
                                         enclosing, given_name, inside)

#: the value naming the dependency a finding was written in
PACKAGE_KEY = 'package'
#: bytes of a package.xml read for its <name>
MANIFEST_BYTES = 65_536
_NAME = re.compile(rb'<name>\s*([A-Za-z0-9_.\-]{1,100})\s*</name>')


class Package(NamedTuple):
    """A ROS package: its name and its folder."""

    name: str
    root: str


def package_of(path: str, cache: Optional[Dict[str, Optional[Package]]] = None
               ) -> Optional[Package]:
    """
    Return the package a file belongs to, None if none (:func:`.read_policy.checkout_package`).

    :param path: a file's path
    :param cache: the file's folder -> its package, shared between calls of one check
    """
    cache = {} if cache is None else cache
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in cache:
        root = checkout_package(path)
        cache[folder] = None if root is None else Package(
            _manifest_name(os.path.join(root, 'package.xml')) or os.path.basename(root), root)
    return cache[folder]


def own_package_dir(robot_file: str, given: Collection[str],
                    prefixes: Optional[Sequence[str]] = None) -> Optional[Tuple[str, str]]:
    """
    Return the package holding a checked file as (name, folder), when nothing else finds it.

    A description refers to its own package by name (``$(find my_robot_description)``,
    ``package://my_robot_description/meshes/...``), which resolves only once the package is
    built and its workspace sourced. A CI job or a pre-commit hook checks the sources: the
    nearest folder above the file with a ``package.xml`` is that package, readable anyway (it
    is the input's), so its name resolves to it after ``--package-dir`` and the ament index.
    Not for a ``package.xml`` that is a link leading out of its folder (a pull request's link
    to another checkout's manifest names nothing), nor above the git work tree holding the
    file, nor without a ``<name>``.

    :param robot_file: the checked file, as named ('-' for standard input: none)
    :param given: the names ``--package-dir`` gives (they take precedence)
    :param prefixes: the ament prefixes (default: ``AMENT_PREFIX_PATH``)
    :return: (name, folder), or None when the file is in no package or its name resolves
    """
    if robot_file == '-':
        return None
    # Not above the git work tree holding the file: a pull request checked out into a folder
    # of another package would have that package's name resolve to it (ninth review).
    folder = checkout_package(robot_file)
    if folder is None:
        return None
    manifest = os.path.join(folder, 'package.xml')
    if os.path.dirname(os.path.realpath(manifest)) != os.path.realpath(folder):
        return None
    name = _manifest_name(manifest)
    if name is None or not given_name(name) or name in given:
        return None
    if prefixes is None:
        prefixes = ament_prefixes()
    if next(ament_index_shares(name, prefixes), None) is not None:
        return None
    return name, folder


#: folders a search of the repository for a package visits at most, and those it skips
REPOSITORY_SEARCH_FOLDERS = 20_000
_NOT_SOURCES = frozenset(('build', 'install', 'log', 'node_modules', '__pycache__'))


def in_repository(names: Collection[str], near: str) -> Dict[str, str]:
    """
    Return where packages of these names are in the repository holding a file.

    For the hint of a package ``$(find)`` could not resolve: a robot's sibling package
    (``lbr_ros2_control`` beside ``lbr_description``) is one ``--package-dir`` away. Only the
    same git work tree is searched (the pull request's own files); a tree without ``.git``
    (a source tarball, a colcon ``src`` from ``vcs export``: DENSO's) is the folder holding
    the file's package, when that lies in the working directory, else nothing is searched.
    At most :data:`REPOSITORY_SEARCH_FOLDERS` folders, without following links, skipping
    hidden folders and colcon's build, install and log; nothing but the names in its
    ``package.xml`` files is read.

    :param names: the package names looked for
    :param near: the checked file
    :return: name -> folder, as a path relative to the working directory when below it
    """
    wanted = set(names)
    found: Dict[str, str] = {}
    if not wanted:
        return found
    tree = enclosing(near, ('.git',))
    root = tree[0] if tree is not None else _beside_package(near)
    if root is None:
        return found
    visited = 0
    for folder, folders, files in os.walk(root):
        visited += 1
        if visited > REPOSITORY_SEARCH_FOLDERS:
            break
        folders[:] = sorted(name for name in folders
                            if not name.startswith('.') and name not in _NOT_SOURCES)
        manifest = os.path.join(folder, 'package.xml')
        if 'package.xml' not in files or os.path.islink(manifest) or \
                not os.path.isfile(manifest):
            continue
        name = _manifest_name(manifest)
        if name in wanted and name not in found:
            relative = os.path.relpath(folder)
            found[name] = relative if not relative.startswith('..') else folder
            if len(found) == len(wanted):
                break
    return found


def _beside_package(near: str) -> Optional[str]:
    """Return the folder holding the package of a file, when it lies in the working directory."""
    from urdf_link_tools.reports.sanitize import working_directory
    package = enclosing(near, ('package.xml',))
    if package is None:
        return None
    holder = os.path.dirname(package[0])
    if not inside(os.path.realpath(holder), os.path.realpath(working_directory())):
        return None
    return holder


def _manifest_name(path: str) -> Optional[str]:
    try:
        with open(path, 'rb') as stream:
            head = stream.read(MANIFEST_BYTES)
    except OSError:
        return None
    match = _NAME.search(head)
    return match.group(1).decode('ascii') if match else None


def mark_dependencies(findings: Iterable[Finding], robot_file: str,
                      ignored: Collection[str] = ()) -> Tuple[Finding, ...]:
    """
    Name the dependency each link finding was written in; leave out the ignored ones.

    Only findings about one link (a link's, or a robot-wide one that names one link: a
    MuJoCo refusal of a camera macro's mesh) whose file (as located in the xacro sources)
    lies in another package than ``robot_file`` (or in any package, when ``robot_file`` is in
    none) are marked; robot-wide findings about several links or none are left as they are
    (the place a finding about several links cites is one of them only).

    :param findings: located findings (their ``file`` relative to the working directory)
    :param robot_file: the file checked
    :param ignored: package names whose findings are left out (``--ignore-package``)
    :return: the findings, marked, without the ignored packages' ones
    """
    cache: Dict[str, Optional[Package]] = {}
    own = package_of(robot_file, cache)
    repository = enclosing(robot_file, ('.git',))
    ours: Dict[str, bool] = {}  # a package's root -> whether it is in the same repository
    result = []
    for finding in findings:
        one_link = finding.link or (len(finding.links) == 1 and finding.links[0])
        package = package_of(finding.file, cache) if one_link and finding.file else None
        # The same name is the same package, wherever it was found (src/my_robot checked,
        # its $(find my_robot) resolved to install/share/my_robot of a built workspace). A
        # robot file in no package (a wrapper xacro beside the workspace: sick_scan's
        # example) has every package it reads as another one.
        if package is None or (own is not None and package.name == own.name):
            result.append(finding)
            continue
        # A package of the same repository (TALOS's talos_description_inertial beside
        # talos_description) is the robot's authors' own to fix, not an upstream one.
        if package.root not in ours:
            ours[package.root] = repository is not None and enclosing(
                os.path.join(package.root, 'package.xml'), ('.git',)) == repository
        # --ignore-package leaves out a dependency's findings only: a package.xml a pull
        # request adds in the checkout, claiming an ignored name, hid the robot's own faults.
        # A failed check (internal-error) is never left out.
        if package.name in ignored and not ours[package.root] and \
                finding.rule != 'internal-error':
            continue
        if ours[package.root]:
            note = (f"written in package '{package.name}' of this repository: fix it there"
                    + (f' (--ignore-package {package.name} leaves out the findings of '
                       'dependencies only, not those of packages of the checked repository)'
                       if package.name in ignored else ''))
        else:
            note = (f"written in package '{package.name}', a dependency: fix it there (or "
                    f'report it upstream), or leave its findings out with --ignore-package '
                    f'{package.name}')
        result.append(dataclasses.replace(
            finding, values=finding.values + ((PACKAGE_KEY, package.name),),
            suggestion=f'{finding.suggestion}; {note}' if finding.suggestion else note))
    return tuple(result)
