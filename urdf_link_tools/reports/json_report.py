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

import json
from typing import Any, Dict, Optional, Sequence

from urdf_link_tools.analysis import Analysis
from urdf_link_tools.reports import CheckReport, Run, summary_dict


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


def format_json_reports(reports: Sequence[CheckReport], indent: Optional[int] = 2) -> str:
    """
    Render reports as JSON: one robot's object, or ``{"reports": [...], "summary": ...}``.

    :param reports: one report per robot checked
    :param indent: JSON indentation
    :return: the JSON text
    """
    if len(reports) == 1:
        document: Dict[str, Any] = report_to_dict(reports[0])
    else:
        document = {'reports': [report_to_dict(report) for report in reports],
                    'summary': summary_dict(reports)}
    return json.dumps(clean(document), indent=indent, allow_nan=False)


def clean(value: Any) -> Any:
    """Return a JSON-ready copy of a value: NaN and infinity as strings."""
    if isinstance(value, float):
        if value != value or value in (float('inf'), float('-inf')):
            return str(value)
        return value
    if isinstance(value, dict):
        return {key: clean(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(item) for item in value]
    return value


def render(run: Run) -> str:
    """Render the run's reports as JSON (nothing when no robot was reported)."""
    return format_json_reports(run.reports) if run.reports else ''
