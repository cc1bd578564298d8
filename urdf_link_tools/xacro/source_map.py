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
Where the user wrote each element: from lines of an expanded xacro back to the xacro files.

The xacro child writes the expansion one element per line and a table from each of those
lines to the file and line of the tag that made the element, the chain of macro calls that
made it (innermost first) and, for attribute values that were YAML numbers loaded with
``xacro.load_yaml``, the YAML file and line. :func:`locate_findings` rewrites findings'
``file``, ``line``, ``macro_stack`` and ``value_source`` from it. For a plain URDF the file
is the URDF and the lines stay as they are.
"""

from __future__ import annotations

from dataclasses import replace
import os
import re
from typing import Any, Dict, Iterable, Mapping, Optional, Tuple

from urdf_link_tools.findings import Finding, MacroCall
from urdf_link_tools.records import record


@record
class SourceLocation:
    """Where one expanded element was written."""

    file: str
    line: int
    macro_stack: Tuple[MacroCall, ...] = ()
    #: (attribute, YAML file, YAML line) for attribute values that were YAML numbers
    value_sources: Tuple[Tuple[str, str, int], ...] = ()


def display_path(path: str, base: Optional[str] = None) -> str:
    """
    Return a path relative to ``base`` (the working directory) when it lies under it.

    A ``base`` of ``/`` keeps every path absolute (the node: its clients run elsewhere).
    """
    base = os.path.abspath(base or os.getcwd())
    absolute = os.path.abspath(path)
    if base == os.sep:
        return absolute
    if absolute == base or absolute.startswith(base.rstrip(os.sep) + os.sep):
        return os.path.relpath(absolute, base)
    return absolute


class SourceMap:
    """Expanded line -> :class:`SourceLocation`; empty when tracing was not possible."""

    def __init__(self, locations: Mapping[int, SourceLocation], top: Optional[str] = None):
        self._locations = dict(locations)
        self.top = top

    def __len__(self) -> int:
        """Return the number of lines mapped."""
        return len(self._locations)

    def locate(self, line: Optional[int]) -> Optional[SourceLocation]:
        """Return where the element on an expanded line was written, if known."""
        return self._locations.get(line) if line is not None else None

    def files(self) -> Tuple[str, ...]:
        """Return every source file named in the map."""
        names = set()
        for location in self._locations.values():
            names.add(location.file)
            names.update(source[1] for source in location.value_sources)
        return tuple(sorted(names))

    @classmethod
    def from_table(cls, table: Mapping[str, Any], top: Optional[str] = None) -> 'SourceMap':
        """
        Build the map from the child's JSON table.

        :param table: ``files``, ``stacks`` and ``lines`` as the child writes them
        :param top: the expanded xacro file
        :return: the map (empty when the table is)
        """
        files = [_tidy(str(name)) for name in table.get('files', [])]
        stacks = [tuple(MacroCall(str(name), files[index], int(line))
                        for name, index, line in stack) for stack in table.get('stacks', [])]
        locations: Dict[int, SourceLocation] = {}
        for line, file_index, source_line, stack_index, values in table.get('lines', []):
            locations.setdefault(int(line), SourceLocation(
                files[file_index], int(source_line), stacks[stack_index],
                tuple((str(name), files[index], int(value_line))
                      for name, index, value_line in values)))
        return cls(locations, top)


def _tidy(path: str) -> str:
    """
    Return a path without its ``.`` parts and doubled slashes: the same file, written once.

    HEBI's kits include ``./bracket.xacro``, which was shown as ``…/components/./bracket.xacro``.
    A ``..`` stays: after a symbolic link it leads elsewhere than the text says.
    """
    if '/.' not in path and '//' not in path and not path.startswith('./'):
        return path
    parts = [part for part in path.split('/') if part not in ('', '.')]
    return ('/' if path.startswith('/') else '') + '/'.join(parts) if parts else path


def _shown(path: str, base: Optional[str]) -> str:
    return display_path(path, base)


#: a line of the parsed document that a message names: '(line 40)', '(first on line 12)',
#: '(the <mass> is on line 9)' (not a mesh file's 'at line', nor JSON's '(line 3, column')
_DOCUMENT_LINE = re.compile(r'(\(|\bon )line (\d+)\)')


def _lines_mapped(text: Optional[str], source_map: SourceMap, file: Optional[str],
                  base: Optional[str], own: Optional[SourceLocation] = None) -> Optional[str]:
    """
    Return a message with the lines of the expansion it names made the source's.

    A finding's own line is mapped; lines its message names (a link's second parent joint,
    the first of two repeated elements) were the expansion's: 'line 40' of a 22-line file.
    Each becomes the line in the finding's file, or FILE:LINE in another (a macro's). The
    first of two on the finding's own line (``own``), made by another call of a macro, names
    that call: a macro called twice with one name (SICK's two scanners named 'laser') made
    both duplicates on one line, and "first on line 5" named the finding's own.
    """
    if not text or 'line ' not in text:
        return text

    def mapped(match: 're.Match[str]') -> str:
        where = source_map.locate(int(match.group(2)))
        if where is None:
            return match.group(0)
        shown = _shown(where.file, base)
        place = f'line {where.line}' if shown == file else f'{shown}:{where.line}'
        # "first on line 5" when the finding is on line 5: made there by another call
        call = _other_call(where.macro_stack, own.macro_stack) if own is not None and \
            match.group(1) == 'on ' and (where.file, where.line) == (own.file, own.line) \
            else None
        if call is not None:
            site = _shown(call.file, base)
            place += (f", from the call of '{call.name}' at "
                      + (f'line {call.line}' if site == file else f'{site}:{call.line}'))
        return f'{match.group(1)}{place})'
    return _DOCUMENT_LINE.sub(mapped, text)


def _other_call(stack: Tuple[MacroCall, ...],
                own: Tuple[MacroCall, ...]) -> Optional[MacroCall]:
    """Return the innermost call of ``stack`` made elsewhere than ``own``'s, None if none."""
    if not stack or stack == own:
        return None
    for depth, call in enumerate(stack):
        other = own[depth] if depth < len(own) else None
        if other is None or (call.file, call.line) != (other.file, other.line):
            return call
    return None


def locate_findings(findings: Iterable[Finding], source: Optional[str],
                    source_map: Optional[SourceMap] = None,
                    base: Optional[str] = None) -> Tuple[Finding, ...]:
    """
    Fill each finding's ``file``, ``line``, ``macro_stack`` and ``value_source``.

    :param findings: findings whose lines are lines of the parsed document
    :param source: the file the user gave (None for standard input)
    :param source_map: for xacro input, the map from expanded lines; None for URDF
    :param base: directory paths are shown relative to (default: the working directory)
    :return: the findings, located
    """
    located = []
    top = _shown(source, base) if source else None
    for finding in findings:
        if source_map is None or not len(source_map):
            located.append(replace(finding, file=top) if source_map is None else finding)
            continue
        where = source_map.locate(finding.line)
        if where is None:
            located.append(replace(finding, file=top, line=None))
            continue
        value_source = None
        if where.value_sources:
            value_source = (_shown(where.value_sources[0][1], base), where.value_sources[0][2])
        stack = tuple(MacroCall(call.name, _shown(call.file, base), call.line)
                      for call in where.macro_stack)
        file = _shown(where.file, base)
        located.append(replace(
            finding, file=file, line=where.line, macro_stack=stack, value_source=value_source,
            message=_lines_mapped(finding.message, source_map, file, base, where),
            suggestion=_lines_mapped(finding.suggestion, source_map, file, base, where)))
    return tuple(located)
