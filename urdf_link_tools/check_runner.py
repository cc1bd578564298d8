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
One robot of a ``check`` run, as a worker process does it.

Through the result cache, with what it prints to standard error captured, answering with
data that crosses processes.
"""

from __future__ import annotations

import io
import sys
from typing import Any, Callable, Optional, Sequence, Tuple, Union

from urdf_link_tools.errors import UrdfError
from urdf_link_tools.reports import CheckReport
from urdf_link_tools.result_cache import files_read, portable, ResultCache

#: check_robot(path) -> None or why (skipped), or (report, files the expansion read)
CheckRobot = Callable[[str], Union[None, str, Tuple[CheckReport, Sequence[str]]]]
#: ('report', CheckReport) | ('error', (message, place)) | ('skipped', why or None), and the
#: notes printed
Answer = Tuple[str, Any, str]


def error_place(exc: UrdfError, path: str) -> Optional[Tuple[str, int]]:
    """
    Return the file and line an input error is about, None when not known.

    xacro's failures carry the place xacro was at (an included file's line); a URDF's, the
    line of the file itself. A line of a xacro file's expansion is no line of the file.
    """
    place = getattr(exc, 'place', None)
    if place is not None:
        return place
    if exc.line and path != '-' and not path.lower().endswith('.xacro'):
        return path, int(exc.line)
    return None


def check_path(check_robot: CheckRobot, cache: Optional[ResultCache], path: str,
               keep_meshes: bool = False) -> Answer:
    """
    Check one robot (or take its cached report) and answer with a portable result.

    :param check_robot: the CLI's check of one path
    :param cache: the result cache, or None
    :param path: the input ('-' is never cached)
    :param keep_meshes: answer with the loaded meshes (in this process, without a cache: a
        format that draws them, HTML, needs them)
    :return: (kind, payload, what the check wrote to standard error)
    """
    if cache is not None and path != '-':
        hit = cache.get(path)
        if hit is not None:
            report, notes = hit
            return 'report', report, notes
    captured = io.StringIO()
    saved, sys.stderr = sys.stderr, captured
    try:
        try:
            result = check_robot(path)
        except UrdfError as exc:
            return 'error', (str(exc), error_place(exc, path)), captured.getvalue()
    finally:
        sys.stderr = saved
    notes = captured.getvalue()
    if result is None or isinstance(result, str):
        return 'skipped', result, notes
    report, includes = result
    # A robot of no link (a file of macros) is skipped or not by the files checked with it
    # (cli._included_by): no answer of its own to keep.
    if cache is not None and path != '-' and report.analysis.robot.links:
        known = files_read(report, [*includes, path])  # (the path: its package's manifest)
        if known is not None:
            cache.put(path, (portable(report), notes), *known)
    return 'report', report if keep_meshes else portable(report), notes
