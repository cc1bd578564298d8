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
``check --format sarif``: a SARIF 2.1.0 log for code scanning (GitHub, GitLab, IDEs).

One run; every documented rule in ``tool.driver.rules`` (id, short description, help from
the rule table that docs/rules.md shows, default level); one result per finding with the
file relative to ``%SRCROOT%`` (the working directory) when it is under it, the start line,
the macro calls as related locations, and a fingerprint from the checked file (relative to
``%SRCROOT%``), the robot's name and (rule, link, element), the identity ``--baseline``
uses, so that an alert survives edits above it and two robot files with the same robot and
link name keep an alert each. Suppressed findings
are results with an ``inSource`` suppression (the comment's reason as justification);
findings in the baseline have ``baselineState: unchanged`` and an ``external`` suppression.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
from typing import Any, Dict, List, Optional, Sequence
from urllib.parse import quote

from urdf_link_tools import __version__
from urdf_link_tools.checks import RULES
from urdf_link_tools.checks.base import first_names, Rule
from urdf_link_tools.findings import Finding, INTERNAL_ERROR, Severity
from urdf_link_tools.reports import CheckReport, InputError, Run, summary_dict
from urdf_link_tools.reports.baseline import finding_key
from urdf_link_tools.reports.suppression import Suppression

#: How the registry neutralises this format's output (see reports/sanitize.py).
OUTPUT = 'json'

SCHEMA_URI = ('https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/'
              'sarif-schema-2.1.0.json')
SRCROOT = '%SRCROOT%'
LEVELS = {Severity.ERROR: 'error', Severity.WARNING: 'warning', Severity.INFO: 'note'}
#: links named by a related location of a place a grouped finding's tensors are written at
PLACE_LINKS = 3


def _text(text: str) -> Dict[str, str]:
    return {'text': text}


def rule_descriptor(rule: Rule) -> Dict[str, Any]:
    """Return the reportingDescriptor of one rule, from its row of the rule table."""
    help_text = (f'{rule.title[:1].upper()}{rule.title[1:]}.\n\nWhy it matters: {rule.why}.'
                 f'\n\nHow to fix: {rule.fix}.\n\nSource: {rule.source}.')
    help_markdown = (f'**{rule.title}**\n\n*Why it matters:* {rule.why}.\n\n'
                     f'*How to fix:* {rule.fix}.\n\n*Source:* {rule.source}.\n\n'
                     'See docs/rules.md of urdf_link_tools.')
    return {
        'id': rule.rule_id,
        'name': ''.join(part.capitalize() for part in rule.rule_id.split('-')),
        'shortDescription': _text(rule.title),
        'fullDescription': _text(f'{rule.title}: {rule.why}'),
        'help': {'text': help_text, 'markdown': help_markdown},
        'defaultConfiguration': {'level': LEVELS[rule.severity]},
        'properties': {'tags': ['urdf', 'robot-description']},
    }


def artifact_location(path: str, root: str) -> Dict[str, str]:
    """
    Return an artifactLocation: relative to %SRCROOT% when under ``root``, else absolute.

    :param path: the file
    :param root: the working directory (%SRCROOT%)
    :return: the artifactLocation object
    """
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, root)
    if not relative.startswith(os.pardir) and not os.path.isabs(relative):
        # The name's bytes, percent-encoded: a name that is not UTF-8 is still a valid URI.
        return {'uri': quote(os.fsencode(pathlib.PurePath(relative).as_posix())),
                'uriBaseId': SRCROOT}
    return {'uri': pathlib.Path(absolute).as_uri()}


def _physical(file: Optional[str], line: Optional[int], root: str) -> Dict[str, Any]:
    physical: Dict[str, Any] = {'artifactLocation': artifact_location(file, root)} \
        if file is not None else {}
    if line:
        physical['region'] = {'startLine': int(line)}
    return physical


def _location(file: Optional[str], line: Optional[int], root: str,
              finding: Optional[Finding] = None, message: Optional[str] = None,
              index: Optional[int] = None) -> Dict[str, Any]:
    location: Dict[str, Any] = {}
    if index is not None:
        location['id'] = index
    physical = _physical(file, line, root)
    if 'artifactLocation' in physical:
        location['physicalLocation'] = physical
    if finding is not None and finding.link is not None:
        location['logicalLocations'] = [{'name': finding.link, 'kind': 'element'}]
    if message:
        location['message'] = _text(message)
    return location


def _fingerprint(finding: Finding, robot: Optional[str], source: Optional[str],
                 root: str) -> str:
    checked = artifact_location(source, root)['uri'] if source is not None else None
    key = json.dumps([checked, robot, *finding_key(finding)])
    return hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]


def result(finding: Finding, report: CheckReport, rule_index: Dict[str, int], root: str,
           suppression: Optional[Suppression] = None, baselined: Optional[bool] = None,
           baseline_path: Optional[str] = None) -> Dict[str, Any]:
    """
    Return the SARIF result of one finding.

    :param finding: the finding
    :param report: its robot's report
    :param rule_index: rule id -> index in tool.driver.rules
    :param root: the working directory (%SRCROOT%)
    :param suppression: the comment that silenced it, if any
    :param baselined: True when in the baseline, False when new, None without a baseline
    :param baseline_path: the baseline file, for the justification
    :return: the result object
    """
    source = report.analysis.robot.source
    file = finding.file if finding.file is not None else source
    text = (f'{finding.element}: ' if finding.element else '') + finding.message
    if finding.suggestion:
        text += f'\nFix: {finding.suggestion}'
    out: Dict[str, Any] = {
        'ruleId': finding.rule,
        'level': LEVELS[finding.severity],
        'message': _text(text),
        'locations': [_location(file, finding.line, root, finding)],
        'partialFingerprints': {
            'urdfLinkTools/v2': _fingerprint(finding, report.analysis.robot.name, source,
                                             root)},
    }
    if finding.rule in rule_index:
        out['ruleIndex'] = rule_index[finding.rule]
    related: List[Dict[str, Any]] = []
    for call in finding.macro_stack:
        related.append(_location(call.file, call.line, root, None,
                                 f"in macro '{call.name}' called here", len(related)))
    if finding.value_source is not None:
        related.append(_location(finding.value_source[0], finding.value_source[1], root, None,
                                 'the value comes from here', len(related)))
    for place_file, place_line, links in finding.places:
        related.append(_location(place_file, place_line, root, None,
                                 f'the tensor of {first_names(links, PLACE_LINKS)} is written '
                                 'here', len(related)))
    related = [item for item in related if 'physicalLocation' in item]
    if related:
        out['relatedLocations'] = related
    suppressions: List[Dict[str, Any]] = []
    if suppression is not None:
        entry: Dict[str, Any] = {'kind': 'inSource', 'status': 'accepted',
                                 'justification': suppression.reason or '(no reason given)'}
        where = _location(suppression.file, suppression.line, root)
        if 'physicalLocation' in where:
            entry['location'] = where
        suppressions.append(entry)
    if baselined is not None:
        out['baselineState'] = 'unchanged' if baselined else 'new'
        if baselined:
            suppressions.append({'kind': 'external', 'status': 'accepted',
                                 'justification': f'in the baseline {baseline_path}'})
    if suppressions:
        out['suppressions'] = suppressions
    return out


def sarif_log(reports: Sequence[CheckReport], baseline_path: Optional[str] = None,
              input_errors: Sequence[InputError] = (), exit_code: Optional[int] = None,
              root: Optional[str] = None) -> Dict[str, Any]:
    """
    Build the SARIF log of one ``check`` run.

    :param reports: one report per robot
    :param baseline_path: the ``--baseline`` file, if one was given
    :param input_errors: (path, message, place) of inputs that could not be read
    :param exit_code: the exit status of the run
    :param root: the directory %SRCROOT% names (the working directory by default)
    :return: the log as a JSON-ready dict
    """
    root = os.path.abspath(root or os.getcwd())
    rules = [RULES[rule_id] for rule_id in sorted(RULES)]
    rule_index = {rule.rule_id: index for index, rule in enumerate(rules)}
    results: List[Dict[str, Any]] = []
    with_baseline = None if baseline_path is None else False
    for report in reports:
        for finding in report.analysis.findings:
            results.append(result(finding, report, rule_index, root, None, with_baseline))
        for finding, comment in report.suppressed:
            results.append(result(finding, report, rule_index, root, comment, with_baseline))
        for finding in report.baselined:
            results.append(result(finding, report, rule_index, root, None, True,
                                  baseline_path))
    # A failure of this tool (an internal-error finding, exit status 5) is not a successful
    # execution, whatever --fail-on says (SARIF 2.1.0, 3.20.14)
    failed = any(finding.rule == INTERNAL_ERROR for report in reports
                 for finding in report.analysis.findings)
    invocation: Dict[str, Any] = {'executionSuccessful': not input_errors and not failed}
    if exit_code is not None:
        invocation['exitCode'] = exit_code
    if input_errors:
        invocation['toolExecutionNotifications'] = [
            dict({'level': 'error', 'message': _text(message)},
                 **({'locations': [_location(*(place or (path, None)), root)]}
                    if path != '-' else {}))
            for path, message, place in input_errors]
    run = {
        'tool': {'driver': {
            'name': 'urdf-link-tools',
            'version': __version__,
            'semanticVersion': __version__,
            'rules': [rule_descriptor(rule) for rule in rules],
        }},
        'originalUriBaseIds': {SRCROOT: {'uri': pathlib.Path(root).as_uri().rstrip('/') + '/'}},
        'invocations': [invocation],
        'results': results,
        'columnKind': 'unicodeCodePoints',
        'properties': {'summary': summary_dict(reports),
                       'robots': [report.analysis.robot.name for report in reports]},
    }
    return {'$schema': SCHEMA_URI, 'version': '2.1.0', 'runs': [run]}


def format_sarif(reports: Sequence[CheckReport], **kwargs: Any) -> str:
    """Render :func:`sarif_log` as JSON text (keyword arguments as there)."""
    return json.dumps(sarif_log(reports, **kwargs), indent=2, allow_nan=False)


def render(run: Run) -> str:
    """Render the run as one SARIF log."""
    return format_sarif(run.reports, baseline_path=run.baseline_path,
                        input_errors=run.input_errors, exit_code=run.exit_code)
