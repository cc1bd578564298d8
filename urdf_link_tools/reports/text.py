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
``check --format text``: the findings for people, grouped by link.

Text output, worst links first; each finding leads with ``file:line:`` as compilers write it,
so that editors and terminals link to it::

    link arm_link (sample_robot.urdf:91): 1 error, 2 warnings
    sample_robot.urdf:95: error: inertia-triangle-inequality: inertial/inertia: the ...
        fix: the nearest valid tensor ...
        in macro 'arm' called at robot.urdf.xacro:12
    ...
    sample_robot: 2 errors, 8 warnings, 0 info in 5 of 7 links

The other formats are the other modules of :mod:`urdf_link_tools.reports`.
"""

from __future__ import annotations

import os
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from urdf_link_tools.analysis import Analysis
from urdf_link_tools.findings import Finding, Severity, worst_severity
from urdf_link_tools.reports import CheckReport, Run
from urdf_link_tools.reports.sanitize import one_line


def display_path(path: Optional[str]) -> str:
    """Name a file as a compiler would: relative to the working directory when under it."""
    if path is None:
        return '<stdin>'
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return path if relative.startswith(os.pardir) else relative


def location(file: Optional[str], line: Optional[int]) -> str:
    """Return ``file:line`` (``file`` alone without a line)."""
    return f'{display_path(file)}:{line}' if line else display_path(file)


def _same_file(findings: Sequence[Finding], path: Optional[str]) -> bool:
    if path is None:
        return all(finding.file is None for finding in findings)
    real = os.path.realpath(path)
    # Each distinct file once: a robot's findings name a handful of files many times.
    files = {finding.file for finding in findings if finding.file is not None}
    return all(os.path.realpath(file) == real for file in files)


def plural(count: int, word: str) -> str:
    """Return '1 error', '2 errors', '3 info'."""
    return _plural(count, word)


def _plural(count: int, word: str) -> str:
    if word == 'info':
        return f'{count} info'
    return f'{count} {word}{"s" if count != 1 else ""}'


def summary_line(analysis: Analysis, suppressed: int = 0, baselined: int = 0) -> str:
    """
    Return the closing line: counts per severity and how many links have findings.

    :param analysis: the analysis (its findings are the reported ones)
    :param suppressed: how many findings inline comments silenced
    :param baselined: how many findings the baseline already had
    :return: the line
    """
    counts = analysis.counts()
    links = analysis.concerned_links()  # grouped findings count their links
    name = analysis.robot.name or '(unnamed robot)'
    extra = []
    if suppressed:
        extra.append(f'{suppressed} suppressed by comments')
    if baselined:
        extra.append(f'{baselined} in the baseline')
    return (f"{name}: {_plural(counts['error'], 'error')}, "
            f"{_plural(counts['warning'], 'warning')}, {_plural(counts['info'], 'info')} "
            f'in {len(links)} of {len(analysis.robot.links)} links'
            + (f' (not counted: {", ".join(extra)})' if extra else ''))


def _groups(analysis: Analysis) -> List[Tuple[Optional[str], List[Finding]]]:
    order = {link.name: index for index, link in enumerate(analysis.robot.links)}
    groups: Dict[Optional[str], List[Finding]] = {}
    for finding in analysis.findings:
        groups.setdefault(finding.link, []).append(finding)
    items = list(groups.items())
    items.sort(key=lambda item: (-int(worst_severity(item[1])),
                                 -1 if item[0] is None else order.get(item[0], len(order))))
    return items


def finding_lines(finding: Finding, source: Optional[str] = None) -> List[str]:
    """
    Render one finding: ``file:line: severity: rule: element: message``, then its fix.

    :param finding: the finding
    :param source: the file to name when the finding has none (the input)
    :return: the lines: the finding, its fix, its macro calls, where its value came from
    """
    file = finding.file if finding.file is not None else source
    element = f'{finding.element}: ' if finding.element else ''
    lines = [f'{location(file, finding.line)}: {finding.severity.label}: {finding.rule}: '
             f'{element}{finding.message}']
    if finding.suggestion:
        lines.append(f'    fix: {finding.suggestion}')
    for call in finding.macro_stack:
        lines.append(f"    in macro '{call.name}' called at {location(call.file, call.line)}")
    if finding.value_source is not None:
        lines.append(f'    value from {location(*finding.value_source)}')
    return lines


def format_text(analysis: Analysis, source: Optional[str] = None, suppressed: int = 0,
                baselined: int = 0,
                places: Optional[Mapping[str, Tuple[str, int]]] = None) -> str:
    """
    Render the findings grouped by link, worst links first, with a summary line.

    :param analysis: the analysis
    :param source: how to name the input (defaults to the robot's source path)
    :param suppressed: how many findings inline comments silenced (for the summary)
    :param baselined: how many findings the baseline had (for the summary)
    :param places: for xacro input, where each link was written (file, line): a link's
        heading names that, never a line of the expansion
    :return: the text, ending without a newline
    """
    out: List[str] = []
    path = analysis.robot.source
    for link_name, findings in _groups(analysis):
        counts = [_plural(sum(1 for f in findings if f.severity == severity), severity.label)
                  for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO)
                  if any(f.severity == severity for f in findings)]
        if link_name is None:
            # Only the findings about the robot as a whole: the closing line counts all.
            title = (f"robot '{analysis.robot.name}'" if analysis.robot.name else
                     'the unnamed robot') + ', robot-wide findings'
        elif places is not None:  # xacro: where the link was written, when traced
            place = places.get(link_name)
            title = f'link {link_name}' + (f' ({location(*place)})' if place else '')
        else:
            link = analysis.robot.link(link_name)
            # The parsed line is the URDF's own (the findings below may name others).
            line = f' ({location(path, link.line)})' if (
                link is not None and link.line and _same_file(findings, path)) else ''
            title = f'link {link_name}{line}'
        if out:
            out.append('')
        out.append(f'{title}: {", ".join(counts)}')
        for finding in findings:
            out.extend(finding_lines(finding, path))
    label = source or path or 'standard input'
    if not analysis.findings:
        out.append(f'{label}: no findings')
    elif out:
        out.append('')
    out.append(summary_line(analysis, suppressed, baselined))
    return '\n'.join(one_line(line) for line in out)  # a name's line feed is not a new line


def report_text(report: CheckReport) -> str:
    """Render a :class:`CheckReport` as text (see :func:`format_text`)."""
    return format_text(report.analysis, report.label, len(report.suppressed),
                       len(report.baselined), report.places)


def render(run: Run) -> str:
    """Render every robot's report as text, separated by a blank line."""
    return '\n\n'.join(report_text(report) for report in run.reports)
