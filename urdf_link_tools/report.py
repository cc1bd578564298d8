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
Format an analysis for people (text grouped by link) and for programs (one JSON object).

Text output, errors first::

    error    camera_link (line 152): 1 error, 2 warnings
      error    line 152  mass-not-positive  has no <inertial> but moves ...
               fix: add <inertial> with the real mass ...
    ...
    sample_robot: 2 errors, 8 warnings, 0 info in 5 of 7 links
"""

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

from urdf_link_tools.analysis import Analysis
from urdf_link_tools.findings import Finding, Severity, worst_severity

_WIDTH = 7  # len('warning')


def _plural(count: int, word: str) -> str:
    if word == 'info':
        return f'{count} info'
    return f'{count} {word}{"s" if count != 1 else ""}'


def summary_line(analysis: Analysis) -> str:
    """Return the closing line: counts per severity and how many links have findings."""
    counts = analysis.counts()
    links = {finding.link for finding in analysis.findings if finding.link is not None}
    name = analysis.robot.name or '(unnamed robot)'
    return (f"{name}: {_plural(counts['error'], 'error')}, "
            f"{_plural(counts['warning'], 'warning')}, {_plural(counts['info'], 'info')} "
            f'in {len(links)} of {len(analysis.robot.links)} links')


def _groups(analysis: Analysis) -> List[Tuple[Optional[str], List[Finding]]]:
    order = {link.name: index for index, link in enumerate(analysis.robot.links)}
    groups: Dict[Optional[str], List[Finding]] = {}
    for finding in analysis.findings:
        groups.setdefault(finding.link, []).append(finding)
    items = list(groups.items())
    items.sort(key=lambda item: (-int(worst_severity(item[1])),
                                 -1 if item[0] is None else order.get(item[0], len(order))))
    return items


def _finding_lines(finding: Finding) -> List[str]:
    where = f'line {finding.line}' if finding.line else 'line -'
    element = f'{finding.element}: ' if finding.element else ''
    lines = [f'  {finding.severity.label:<{_WIDTH}}  {where:<9}  {finding.rule}  '
             f'{element}{finding.message}']
    if finding.suggestion:
        lines.append(f'  {"":<{_WIDTH}}  fix: {finding.suggestion}')
    return lines


def format_text(analysis: Analysis, source: Optional[str] = None) -> str:
    """
    Render the findings grouped by link, worst links first, with a summary line.

    :param analysis: the analysis
    :param source: how to name the input (defaults to the robot's source path)
    :return: the text, ending without a newline
    """
    out: List[str] = []
    for link_name, findings in _groups(analysis):
        worst = worst_severity(findings) or Severity.INFO
        counts = [_plural(sum(1 for f in findings if f.severity == severity), severity.label)
                  for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO)
                  if any(f.severity == severity for f in findings)]
        if link_name is None:
            title = f"robot '{analysis.robot.name}'"
        else:
            link = analysis.robot.link(link_name)
            line = f' (line {link.line})' if link is not None and link.line else ''
            title = f'{link_name}{line}'
        out.append(f'{worst.label:<{_WIDTH}}  {title}: {", ".join(counts)}')
        for finding in findings:
            out.extend(_finding_lines(finding))
    label = source or analysis.robot.source or 'standard input'
    if not analysis.findings:
        out.append(f'{label}: no findings')
    out.append(summary_line(analysis))
    return '\n'.join(out)


def analysis_to_dict(analysis: Analysis, source: Optional[str] = None) -> Dict[str, Any]:
    """Return the JSON-ready object: robot, source, counts, rule_counts, findings."""
    return {
        'robot': analysis.robot.name,
        'source': source or analysis.robot.source,
        'counts': analysis.counts(),
        'rule_counts': analysis.rule_counts(),
        'findings': [finding.to_dict() for finding in analysis.findings],
    }


def format_json(analysis: Analysis, source: Optional[str] = None,
                indent: Optional[int] = 2) -> str:
    """Render the analysis as one JSON object (NaN and infinity written as strings)."""
    return json.dumps(_clean(analysis_to_dict(analysis, source)), indent=indent,
                      allow_nan=False)


def _clean(value: Any) -> Any:
    if isinstance(value, float):
        if value != value or value in (float('inf'), float('-inf')):
            return str(value)
        return value
    if isinstance(value, dict):
        return {key: _clean(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(item) for item in value]
    return value


def severity_counts(findings: Sequence[Finding]) -> Dict[str, int]:
    """Count findings per severity label."""
    counts = {'error': 0, 'warning': 0, 'info': 0}
    for finding in findings:
        counts[finding.severity.label] += 1
    return counts
