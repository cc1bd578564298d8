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
What the node's ``urdf_file`` parameter may name, and how errors about it are worded.

Anyone on the DDS graph can set parameters, so ``urdf_file`` is a way to make the node read
a file. At run time it may name only a file under ``urdf_dirs`` (by default the directory of
the ``urdf_file`` given at start; none when the node started without one), checked after
symlinks are resolved. A value that cannot be used is refused in the set-parameters answer
(the parameter keeps its old value) when the file is outside those directories, missing, not a
regular file, too large, or not well-formed XML; xacro's expansion itself runs later on the
worker, in the bounded child, and its failure is reported as a rejected description.

Messages about such files never quote their content or give their exact size: the person
setting the parameter may not be allowed to read the file.

Pure functions, no rclpy: tested without a ROS context.
"""

from __future__ import annotations

import os
import stat
from typing import Iterable, List, Mapping, Optional, Sequence, Tuple
import xml.parsers.expat

from urdf_link_tools.errors import UrdfError, UrdfInputError, UrdfStructureError
from urdf_link_tools.errors import UrdfSyntaxError
from urdf_link_tools.loading import is_xacro
from urdf_link_tools.read_policy import inside
from urdf_link_tools.xacro.sandbox import XacroError, XacroOptions


def urdf_roots(urdf_dirs: Sequence[str], start_file: str) -> Tuple[str, ...]:
    """
    Return the real directories ``urdf_file`` may name at run time.

    :param urdf_dirs: the read-only ``urdf_dirs`` parameter
    :param start_file: ``urdf_file`` as given at start ('' for none)
    :return: real paths
    """
    dirs = [item for item in urdf_dirs if item]
    if not dirs and start_file:
        dirs = [os.path.dirname(os.path.abspath(start_file))]
    return tuple(os.path.realpath(item) for item in dirs)


def check_urdf_file(path: str, roots: Sequence[str], max_bytes: int) -> Optional[str]:
    """
    Decide whether ``urdf_file`` may be set to a path now; cheap enough for the executor.

    :param path: the proposed value ('' always allowed: stop reading a file)
    :param roots: from :func:`urdf_roots`
    :param max_bytes: ``description_max_bytes``
    :return: the reason to refuse it, or None
    """
    if not path:
        return None
    if not roots:
        return ('urdf_file can only be set at run time under urdf_dirs, and the node was '
                'started without urdf_dirs or urdf_file')
    real = os.path.realpath(path)
    if not any(inside(real, root) for root in roots):
        return (f'urdf_file {path!r} is outside urdf_dirs ({", ".join(roots)}); the node reads '
                'files only there')
    try:
        status = os.stat(real)
    except OSError as exc:
        return f'urdf_file {path!r} cannot be read: {exc.strerror}'
    if not stat.S_ISREG(status.st_mode):
        return f'urdf_file {path!r} is not a regular file'
    if status.st_size > max_bytes:
        return f'urdf_file {path!r} is larger than description_max_bytes'
    parser = xml.parsers.expat.ParserCreate()
    try:
        with open(real, 'rb') as stream:
            parser.ParseFile(stream)
    except OSError as exc:
        return f'urdf_file {path!r} cannot be read: {exc.strerror}'
    except xml.parsers.expat.ExpatError as exc:
        # The line only: expat's message names no content, but keep to the line anyway.
        return f'urdf_file {path!r} is not well-formed XML (line {exc.lineno})'
    return None


def package_dirs_refusal(package_dirs: Iterable[Tuple[str, str]],
                         allowed: Sequence[str]) -> Optional[str]:
    """
    Say why a run-time ``package_dirs`` value is refused, or None.

    xacro reads under every package directory, so a value set at run time may only name
    directories inside those the node was started with (its ``urdf_dirs`` and its start-time
    ``package_dirs``): ``evil=/`` would make every file readable through ``xacro_args``.

    :param package_dirs: (name, path) pairs of the new value
    :param allowed: the start-time directories
    :return: the reason, or None
    """
    roots = [os.path.realpath(root) for root in allowed]
    for name, path in package_dirs:
        if not any(inside(os.path.realpath(path), root) for root in roots):
            return (f'package_dirs: {name}={path} is outside the directories the node was '
                    'started with (urdf_dirs and the start-time package_dirs); the node reads '
                    'only those, restart it to add one')
    return None


def xacro_options(mappings: Mapping[str, str], package_dirs: Mapping[str, str],
                  roots: Sequence[str], max_bytes: int) -> XacroOptions:
    """Return how the node expands a xacro ``urdf_file``: roots fixed at start, no env."""
    return XacroOptions(mappings=dict(mappings), package_dirs=dict(package_dirs),
                        allow_dirs=tuple(roots), max_bytes=max_bytes)


def start_packages(urdf_file: str, urdf_dirs: Sequence[str],
                   package_dirs: Sequence[Tuple[str, str]]) -> Tuple[Tuple[str, str], ...]:
    """
    Return the packages of the files the node may read, when nothing else finds them.

    As the CLI resolves the checked file's own package from its sources: ``urdf_file:=
    ur_description/urdf/ur.urdf.xacro`` in a source checkout said "package 'ur_description'
    not found", and ``package_dirs`` cannot be widened once the node runs. The package of
    the start file, then of each ``urdf_dirs`` folder (a file set there later at run time
    is in it: the thirty-first round resolved the start file's only), first of a name wins.

    :return: (name, folder) pairs whose names nothing else resolves
    """
    from urdf_link_tools.packages import own_package_dir
    given = [name for name, _ in package_dirs]
    found: List[Tuple[str, str]] = []
    # A file inside each folder stands for what may be set there: its package is the
    # folder's nearest one up.
    for probe in ([urdf_file] if urdf_file else []) + \
            [os.path.join(folder, 'robot.urdf') for folder in urdf_dirs if folder]:
        own = own_package_dir(probe, given + [name for name, _ in found])
        if own is not None:
            found.append(own)
    return tuple(found)


def public_error(error: Exception, path: str) -> Exception:
    """
    Reword an error about a file a parameter named so that it quotes nothing from it.

    :param error: what loading or parsing raised
    :param path: the file
    :return: an error with the same line and a content-free message
    """
    if isinstance(error, XacroError):
        return UrdfInputError(f'{path}: {error.public}')
    if isinstance(error, UrdfSyntaxError):
        return UrdfSyntaxError(f'{path} is not well-formed XML or uses a forbidden XML feature',
                               line=error.line)
    if isinstance(error, UrdfStructureError):
        return UrdfStructureError(f'{path} is not a valid URDF', line=error.line)
    if isinstance(error, UrdfError):
        return error
    return UrdfInputError(f'{path} could not be read ({type(error).__name__})')


__all__ = ['check_urdf_file', 'is_xacro', 'public_error', 'start_packages', 'urdf_roots',
           'xacro_options']
