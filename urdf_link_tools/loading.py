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
Read a robot description from a file or stdin: URDF, or xacro expanded in a bounded child.

Reading is bounded (``max_bytes``) so that a huge or endless input (``/dev/zero``) is
refused with a clear error instead of exhausting memory. xacro runs only when asked or on a
``.xacro`` name, in :mod:`urdf_link_tools.xacro.sandbox`'s child process.
"""

from __future__ import annotations

from dataclasses import replace
import logging
import os
import re
import sys
from typing import BinaryIO, FrozenSet, Iterable, Optional, Tuple, TYPE_CHECKING

from urdf_link_tools.errors import UrdfInputError
from urdf_link_tools.findings import Finding, internal_error, sort_key
from urdf_link_tools.limits import DESCRIPTION_MAX_BYTES
from urdf_link_tools.read_policy import link_out_of_package
from urdf_link_tools.records import record
from urdf_link_tools.xacro.source_map import display_path, locate_findings, SourceMap

if TYPE_CHECKING:  # pragma: no cover - the sandbox is imported for xacro input only
    from urdf_link_tools.xacro.sandbox import ToolFailure, XacroOptions

XACRO_NAMESPACE = b'ros.org/wiki/xacro'
#: what only xacro writes: its elements, its expressions, its substitution args
_XACRO_MARKS = (b'<xacro:', b'${', b'$(')
#: an XML comment, where xacro markup is no use of xacro
_COMMENT = re.compile(rb'<!--.*?-->', re.DOTALL)
#: a one-tag property definition: of no effect unless a ${...} uses it (a mark of its own)
_PROPERTY = re.compile(rb'<xacro:property\b[^<>$]*/>')
LOG = logging.getLogger(__name__)


def read_bounded(stream: BinaryIO, max_bytes: int, what: str) -> bytes:
    """
    Read at most ``max_bytes`` from a stream.

    :param stream: a binary stream
    :param max_bytes: the limit
    :param what: how to name the input in the error
    :return: the bytes read
    :raises UrdfInputError: when the input is larger than the limit
    """
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise UrdfInputError(
            f'{what} is larger than the limit of {max_bytes / 1e6:.1f} MB: '
            'is it really a robot description? (raise the limit if it is)')
    return data


def is_xacro(path: str, xacro: Optional[bool] = None) -> bool:
    """
    Decide whether to expand a file with xacro: when asked, or by a ``.xacro`` name.

    Never by the content: a file named ``.urdf`` that declares the xacro namespace is parsed
    as the URDF it claims to be (xacro is code; running it must be the user's choice).

    :param path: the file name
    :param xacro: True or False to decide explicitly, None to go by the name
    :return: whether to expand it
    """
    if xacro is not None:
        return xacro
    return path.endswith('.xacro')


@record
class LoadedDescription:
    """
    A description read from a file or stdin, ready to parse.

    :param data: URDF bytes (xacro's expansion for xacro input)
    :param source: absolute path of the file given, None for stdin
    :param source_map: for xacro input, where each expanded line was written
    :param notes: things the user should know (printed by the CLI, logged by the node)
    :param tool_failures: what of this tool failed while reading it (the xacro source
        tracer): :meth:`locate` adds each as an internal-error finding
    :param files: the other files the expansion read (xacro includes, YAML files)
    :param macros: for xacro input, the names of the macros its files define
    :param link_macros: of those, the macros that make links
    """

    data: bytes
    source: Optional[str]
    source_map: Optional[SourceMap] = None
    notes: Tuple[str, ...] = ()
    tool_failures: Tuple['ToolFailure', ...] = ()
    files: Tuple[str, ...] = ()
    macros: FrozenSet[str] = frozenset()
    link_macros: FrozenSet[str] = frozenset()

    @property
    def expanded(self) -> bool:
        """Return whether the data is a xacro expansion."""
        return self.source_map is not None

    def locate(self, findings: Iterable[Finding], base: Optional[str] = None
               ) -> Tuple[Finding, ...]:
        """
        Fill the findings' file, line and macro chain from where the user wrote them.

        The tool's own failures while reading (:attr:`tool_failures`) are added as
        internal-error findings, so that the CLI and the node report them with the rest.
        """
        failures = []
        for failure in self.tool_failures:
            LOG.debug('%s failed: %s\n%s', failure.what, failure.error, failure.traceback)
            failures.append(internal_error(
                failure.what, failure.error + '; the expansion was checked untraced, so '
                'findings give lines of the expanded document'))
        if self.source_map is not None and not len(self.source_map) and self.source:
            # Tracing failed soft: the lines are the expanded document's.
            label = display_path(self.source, base) + ' (expanded)'
            located = tuple(replace(finding, file=label) for finding in findings)
        else:
            located = locate_findings(findings, self.source, self.source_map, base)
        return tuple(sorted(located + tuple(failures), key=sort_key)) if failures else located


def _catkin_package(path: str) -> bool:
    """Return True when the file's package builds with catkin (a ROS 1 package)."""
    from urdf_link_tools.read_policy import checkout_package
    folder = checkout_package(path)
    if folder is None:
        return False
    try:
        with open(os.path.join(folder, 'package.xml'), 'rb') as stream:
            text = stream.read(65536)
    except OSError:
        return False
    return re.search(rb'<buildtool_depend>\s*catkin\s*</buildtool_depend>', text) is not None


def load_input(path: str, max_bytes: int = DESCRIPTION_MAX_BYTES,
               stdin: Optional[BinaryIO] = None, xacro: Optional[bool] = None,
               options: 'Optional[XacroOptions]' = None) -> LoadedDescription:
    """
    Read a URDF or xacro file (``-`` for stdin), expanding xacro in the bounded child.

    :param path: file path, or '-' for standard input
    :param max_bytes: refuse inputs (and expansions) larger than this
    :param stdin: stream to use for '-' (defaults to sys.stdin.buffer)
    :param xacro: expand with xacro: True, False, or None to go by a ``.xacro`` name
    :param options: xacro arguments, packages and limits
    :return: the description
    :raises UrdfInputError: when the input cannot be read or expanded
    """
    if path == '-':
        if xacro:
            raise UrdfInputError('xacro input must be a file (its includes are relative to it)')
        stream = stdin if stdin is not None else sys.stdin.buffer
        return LoadedDescription(read_bounded(stream, max_bytes, 'standard input'), None)
    if not os.path.exists(path):
        raise UrdfInputError(f'{path}: no such file')
    if os.path.isdir(path):
        raise UrdfInputError(f'{path} is a directory, expected a .urdf or .xacro file')
    if not os.path.isfile(path):
        raise UrdfInputError(f'{path} is not a regular file (a device or a pipe?)')
    refusal = link_out_of_package(path)
    if refusal is not None:
        raise UrdfInputError(refusal)
    source = os.path.abspath(path)
    if is_xacro(path, xacro):
        from urdf_link_tools.xacro.sandbox import expand_xacro, XacroOptions
        options = replace(options or XacroOptions(), max_bytes=max_bytes)
        expansion = expand_xacro(path, options, display=path)
        # A ROS 1 package's call of a macro without xacro: worked there (ROS 1's xacro
        # expanded it): a warning, not the error a ROS 2 package's is (rbcar, sweep R).
        ros1 = _catkin_package(path)
        return LoadedDescription(expansion.data, source, expansion.source_map,
                                 expansion.notes, expansion.tool_failures,
                                 expansion.files, expansion.macros,
                                 frozenset() if ros1 else expansion.link_macros)
    try:
        with open(path, 'rb') as stream:
            data = read_bounded(stream, max_bytes, path)
    except OSError as exc:
        raise UrdfInputError(f'{path}: cannot read: {exc.strerror}') from None
    notes: Tuple[str, ...] = ()
    # Only with something for xacro to do: most expanded URDFs keep the declaration
    # (example-robot-data's panda, Bullet's kuka_iiwa), and a note on each is noise.
    if XACRO_NAMESPACE in data[:4096] and _uses_xacro(data):
        notes = (f'{path} declares the xacro namespace and uses xacro, but is read as plain '
                 'URDF: xacro runs only on .xacro files or with --xacro',)
    return LoadedDescription(data, source, None, notes)


def _uses_xacro(data: bytes) -> bool:
    """
    Return True when a document holds xacro markup outside its comments.

    A plain URDF exported from xacro often keeps xacro in a comment (Motoman's SIA5D:
    ``<!--r=${90*deg}-->``, PR2's and Valkyrie's generated files): not a use. Nor is a
    property nothing uses (myCobot's 26 .urdf files: ``<xacro:property name="width"
    value=".2" />`` and no ``${...}``): xacro would make the same robot of it.
    """
    if not any(mark in data for mark in _XACRO_MARKS):
        return False
    text = _PROPERTY.sub(b'', _COMMENT.sub(b'', data))
    return any(mark in text for mark in _XACRO_MARKS)


def load_description(path: str, max_bytes: int = DESCRIPTION_MAX_BYTES,
                     stdin: Optional[BinaryIO] = None) -> Tuple[bytes, Optional[str]]:
    """
    Read a URDF or xacro file (``-`` for stdin) and return URDF bytes and the source path.

    xacro runs, bounded, on ``.xacro`` names only, with no arguments (see :func:`load_input`).

    :param path: file path, or '-' for standard input
    :param max_bytes: refuse inputs larger than this
    :param stdin: stream to use for '-' (defaults to sys.stdin.buffer)
    :return: (URDF document bytes, absolute source path or None for stdin)
    :raises UrdfInputError: when the input cannot be read
    """
    loaded = load_input(path, max_bytes, stdin)
    return loaded.data, loaded.source
