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
``check --format github``: GitHub Actions workflow commands, one annotation per finding.

``::error file=F,line=L,title=RULE::message`` (``warning`` and ``notice`` for the other
severities). Values are escaped as the Actions toolkit does (``escapeData`` and
``escapeProperty`` in @actions/core): ``%``, CR and LF everywhere, and also ``:`` and ``,``
in properties, so a message cannot end the command early or inject another one.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from urdf_link_tools.findings import Severity
from urdf_link_tools.reports import CheckReport, InputError, Run, summary_dict
from urdf_link_tools.reports.sanitize import guard_line_starts
from urdf_link_tools.reports.text import display_path, finding_lines, plural

#: How the registry neutralises this format's output (see reports/sanitize.py).
OUTPUT = 'commands'

COMMANDS = {Severity.ERROR: 'error', Severity.WARNING: 'warning', Severity.INFO: 'notice'}


def escape_data(text: str) -> str:
    """Escape a command's message."""
    return text.replace('%', '%25').replace('\r', '%0D').replace('\n', '%0A')


def escape_property(text: str) -> str:
    """Escape a command property's value."""
    return escape_data(text).replace(':', '%3A').replace(',', '%2C')


def workflow_command(command: str, message: str,
                     properties: Sequence[Tuple[str, Optional[object]]] = ()) -> str:
    """
    Build one workflow command line.

    :param command: 'error', 'warning' or 'notice'
    :param message: the annotation text (may have several lines)
    :param properties: (name, value) pairs; None values are left out
    :return: the line, without a newline
    """
    shown = ','.join(f'{name}={escape_property(str(value))}' for name, value in properties
                     if value is not None)
    return f'::{command}{" " + shown if shown else ""}::{escape_data(message)}'


def annotation_title(finding) -> str:
    """
    Return an annotation's title: the rule, and the link (or links) it is about.

    A macro's line makes every link it is called for: franka's inertials macro put eight
    links' errors on one line of utils.xacro, and the annotation, all a reviewer sees, named
    none of them.
    """
    names = (finding.link,) if finding.link else tuple(finding.links)
    if not names:
        return finding.rule
    shown = ', '.join(names[:3]) + (f' and {len(names) - 3} more' if len(names) > 3 else '')
    return f'{finding.rule} ({shown})'


def format_github(reports: Sequence[CheckReport],
                  input_errors: Sequence[InputError] = ()) -> str:
    """
    Render findings as workflow commands, then one plain summary line per robot.

    :param reports: one report per robot
    :param input_errors: (path, message, place) of inputs that could not be read
    :return: the text, ending without a newline
    """
    lines: List[str] = []
    for path, message, place in input_errors:
        # At the line xacro stopped at (an included file's), else at the file checked.
        file, line = place if place is not None else (path, None)
        lines.append(workflow_command('error', message, (
            ('file', display_path(file) if file != '-' else None), ('line', line),
            ('title', 'urdf-link-tools: input error'))))
    for report in reports:
        source = report.analysis.robot.source
        for finding in report.analysis.findings:
            file = finding.file if finding.file is not None else source
            body = finding_lines(finding, source)
            # The first text line repeats file, line and rule the annotation already shows.
            first = f'{finding.element}: ' if finding.element else ''
            message = '\n'.join([first + finding.message] + [line.strip() for line in body[1:]])
            lines.append(workflow_command(COMMANDS[finding.severity], message, (
                ('file', display_path(file) if file is not None else None),
                ('line', finding.line),
                ('title', annotation_title(finding)))))
    for report in reports:
        counts = summary_dict([report])
        # Not a command: the runner trims leading blanks, so a hostile file name
        # ('::add-mask::...') is guarded as every non-command line is.
        lines.append(guard_line_starts(
            f' {escape_data(report.label)}: {plural(counts["error"], "error")}, '
            f'{plural(counts["warning"], "warning")}, {counts["info"]} info '
            f'({counts["suppressed"]} suppressed, {counts["baselined"]} in the baseline)'))
    return '\n'.join(lines)


def render(run: Run) -> str:
    """Render the run as workflow commands."""
    return format_github(run.reports, run.input_errors)
