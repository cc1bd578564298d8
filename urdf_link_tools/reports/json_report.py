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

"""``check --format json``: one JSON object per run (NaN and infinity written as strings)."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Optional, Sequence

from urdf_link_tools.analysis import Analysis
from urdf_link_tools.reports import CheckReport, InputError, Run, summary_dict

#: How the registry neutralises this format's output (see reports/sanitize.py).
OUTPUT = 'json'


def analysis_to_dict(analysis: Analysis, source: Optional[str] = None) -> Dict[str, Any]:
    """Return the JSON-ready object: robot, source, counts, rule_counts, findings."""
    return {
        'robot': analysis.robot.name,
        'source': source or analysis.robot.source,
        'counts': analysis.counts(),
        'rule_counts': analysis.rule_counts(),
        'findings': [finding.to_dict() for finding in analysis.findings],
    }


def report_to_dict(report: CheckReport) -> Dict[str, Any]:
    """
    Return the JSON-ready object of one robot.

    ``findings`` are the reported ones; ``suppressed`` (each with the comment that silenced
    it) and ``baselined`` are listed apart, and counted in ``summary``.
    """
    document = analysis_to_dict(report.analysis, report.analysis.robot.source)
    document['summary'] = summary_dict([report])
    document['suppressed'] = [dict(finding.to_dict(), suppression=comment.to_dict())
                              for finding, comment in report.suppressed]
    document['baselined'] = [finding.to_dict() for finding in report.baselined]
    return document


def format_json_reports(reports: Sequence[CheckReport], indent: Optional[int] = 2,
                        input_errors: Sequence[InputError] = ()) -> str:
    """
    Render reports as JSON: one robot's object, or ``{"reports", "errors", "summary"}``.

    A run with an input that could not be read always takes the second form, so the input
    is named in the document (``errors``: ``source`` and ``error`` of each, as the JSON
    Lines format says it) and counted (``summary.input_errors``), even when no robot
    could be read at all.

    :param reports: one report per robot checked
    :param indent: JSON indentation
    :param input_errors: (path, message, place) of each input that could not be read
    :return: the JSON text
    """
    if len(reports) == 1 and not input_errors:
        document: Dict[str, Any] = report_to_dict(reports[0])
    else:
        summary: Dict[str, int] = dict(summary_dict(reports), input_errors=len(input_errors))
        document = {'reports': [report_to_dict(report) for report in reports],
                    'errors': [{'source': error_source(path), 'error': message}
                               for path, message, _ in input_errors],
                    'summary': summary}
    return json.dumps(json_safe(document), indent=indent, allow_nan=False)


def error_source(path: str) -> str:
    """Return an unreadable input's ``source`` as a robot's is written: an absolute path."""
    return path if path == '-' else os.path.abspath(path)


def json_safe(value: Any) -> Any:
    """Return a copy JSON can carry: NaN and infinity as strings, tuples as lists."""
    if isinstance(value, float):
        if value != value or value in (float('inf'), float('-inf')):
            return str(value)
        return value
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value


def render(run: Run) -> str:
    """Render the run as JSON: its reports and the inputs that could not be read."""
    if not run.reports and not run.input_errors:
        return ''
    return format_json_reports(run.reports, input_errors=run.input_errors)
