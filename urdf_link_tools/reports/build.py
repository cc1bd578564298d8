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

"""Apply the inline suppression comments and the baseline: what ``check`` reports."""

from __future__ import annotations

from dataclasses import replace
from typing import List, Optional

from urdf_link_tools.analysis import Analysis
from urdf_link_tools.checks import INTERNAL_RULE
from urdf_link_tools.checks.mirrors import merge_instances
from urdf_link_tools.findings import Finding, sort_key
from urdf_link_tools.reports import CheckReport
from urdf_link_tools.reports.baseline import apply_baseline, Baseline
from urdf_link_tools.reports.suppression import (
    apply_suppressions, collect_suppressions, finding_files)


def build_report(analysis: Analysis, label: str, stdin_data: Optional[bytes] = None,
                 baseline: Optional[Baseline] = None) -> CheckReport:
    """
    Apply the inline suppression comments, then the baseline, to an analysis.

    Then the findings one macro line makes on several of its calls are made one
    (:func:`.mirrors.merge_instances`).

    :param analysis: the analysis (findings with their source files where known)
    :param label: how to name the input
    :param stdin_data: the document when it came from standard input (its comments count)
    :param baseline: from :func:`urdf_link_tools.reports.baseline.load_baseline`, or None
    :return: the report; its analysis holds the findings still reported
    """
    files = finding_files(analysis.findings)
    if analysis.robot.source is not None:
        files.add(analysis.robot.source)
    comments, problems = collect_suppressions(files, stdin_data)
    ignored = analysis.config.ignore_rules
    findings = list(analysis.findings) + [f for f in problems if f.rule not in ignored]
    # A failure of this tool is no finding about the robot: no comment or baseline hides it.
    failures = [f for f in findings if f.rule == INTERNAL_RULE.rule_id]
    kept, suppressed = apply_suppressions(
        [f for f in findings if f.rule != INTERNAL_RULE.rule_id], comments)
    known: List[Finding] = []
    if baseline is not None:
        kept, known = apply_baseline(kept, baseline.entries_for(analysis.robot.source))
    # One macro line's fault on each of its calls (two cameras) is one finding: merged once
    # the comments at each call and the baseline have said which of them stay.
    kept = list(merge_instances(kept)) + failures
    return CheckReport(analysis=replace(analysis, findings=tuple(sorted(kept, key=sort_key))),
                       label=label, suppressed=tuple(suppressed), baselined=tuple(known))
