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
``check --format junit``: JUnit XML, the dialect Jenkins, GitLab and Azure Pipelines read.

One ``<testsuite>`` per robot, one ``<testcase>`` per link and one for the robot-level
findings. A test case fails (one ``<failure>`` listing them all) when it has a finding that
``--fail-on`` fails on, or an internal-error (exit status 5 whatever ``--fail-on`` says); the
other findings are in its ``<system-out>``. An input that could
not be read is a test case with an ``<error>``. The output validates against the Jenkins
xUnit plugin's ``junit-10.xsd``.
"""

from __future__ import annotations

import re
from typing import Optional, Sequence, Tuple
from xml.etree import ElementTree

from urdf_link_tools.findings import Finding, INTERNAL_ERROR, Severity
from urdf_link_tools.reports import CheckReport, InputError, Run
from urdf_link_tools.reports.text import display_path, finding_lines

#: the JUnit class name of every test case; a robot's cases are ``urdf-link-tools.ROBOT``
SUITE = 'urdf-link-tools'
# Characters XML 1.0 cannot carry at all, even escaped.
_NOT_XML = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')


def xml_text(text: str) -> str:
    """Return text without the characters XML 1.0 forbids (ElementTree escapes the rest)."""
    return _NOT_XML.sub('\ufffd', text)


def fails(severity: Severity, fail_on: str) -> bool:
    """
    Say whether a finding of this severity fails the run under ``--fail-on``.

    :param severity: the finding's severity
    :param fail_on: 'error', 'warning' or 'never'
    :return: True when it makes ``check`` exit non-zero
    """
    if fail_on == 'never':
        return False
    return severity >= (Severity.WARNING if fail_on == 'warning' else Severity.ERROR)


def _fails(finding: Finding, fail_on: str) -> bool:
    # A failure of this tool fails its test case whatever --fail-on says, as it decides the
    # exit status (5): a report must not show green where the job failed.
    return finding.rule == INTERNAL_ERROR or fails(finding.severity, fail_on)


def _case(suite: ElementTree.Element, classname: str, name: str,
          findings: Sequence[Finding], source: Optional[str], fail_on: str) -> bool:
    case = ElementTree.SubElement(suite, 'testcase',
                                  {'classname': xml_text(classname), 'name': xml_text(name),
                                   'time': '0'})
    failing = [finding for finding in findings if _fails(finding, fail_on)]
    passing = [finding for finding in findings if not _fails(finding, fail_on)]
    if failing:
        rules = sorted({finding.rule for finding in failing})
        first = failing[0]
        failure = ElementTree.SubElement(case, 'failure', {
            'type': xml_text(', '.join(rules)),
            'message': xml_text(f'{len(failing)} finding{"s" if len(failing) != 1 else ""}: '
                                f'{first.rule}: {first.message}')})
        failure.text = xml_text(_lines(failing, source))
    if passing:
        ElementTree.SubElement(case, 'system-out').text = xml_text(_lines(passing, source))
    return bool(failing)


def _lines(findings: Sequence[Finding], source: Optional[str]) -> str:
    return '\n'.join(line for finding in findings for line in finding_lines(finding, source))


def _suite(parent: ElementTree.Element, report: CheckReport, fail_on: str) -> Tuple[int, int]:
    analysis = report.analysis
    robot = analysis.robot
    name = robot.name or '(unnamed robot)'
    suite = ElementTree.SubElement(parent, 'testsuite', {
        'name': xml_text(f'{name} ({display_path(report.label)})'),
        'file': xml_text(display_path(report.label)), 'time': '0', 'skipped': '0',
        'errors': '0'})
    classname = f'{SUITE}.{name}'
    seen = set()
    cases = failures = 0
    for link in robot.links:
        if link.name in seen:  # a duplicated name is one link (a structure finding says so)
            continue
        seen.add(link.name)
        failures += _case(suite, classname, f'link {link.name}', analysis.link_findings(link.name),
                          robot.source, fail_on)
        cases += 1
    known = seen
    # Findings about links the model does not hold (a misspelt joint child) and about the robot.
    loose = [f for f in analysis.findings if f.link is None or f.link not in known]
    failures += _case(suite, classname, f'robot {name}', loose, robot.source, fail_on)
    cases += 1
    suite.set('tests', str(cases))
    suite.set('failures', str(failures))
    return cases, failures


def format_junit(reports: Sequence[CheckReport], input_errors: Sequence[InputError] = (),
                 fail_on: str = 'error') -> str:
    """
    Render a run as JUnit XML.

    :param reports: one report per robot
    :param input_errors: (path, message, place) of inputs that could not be read: one test case
        each, with an ``<error>``
    :param fail_on: which findings fail their test case ('error', 'warning' or 'never')
    :return: the XML document, ending without a newline
    """
    root = ElementTree.Element('testsuites', {'name': SUITE, 'time': '0'})
    tests = failures = 0
    for report in reports:
        cases, failed = _suite(root, report, fail_on)
        tests += cases
        failures += failed
    if input_errors:
        suite = ElementTree.SubElement(root, 'testsuite', {
            'name': 'unreadable inputs', 'tests': str(len(input_errors)), 'failures': '0',
            'errors': str(len(input_errors)), 'skipped': '0', 'time': '0'})
        for path, message, _ in input_errors:
            label = display_path(path) if path != '-' else 'standard input'
            case = ElementTree.SubElement(suite, 'testcase', {
                'classname': SUITE, 'name': xml_text(f'input {label}'), 'time': '0'})
            error = ElementTree.SubElement(case, 'error', {'type': 'input-error',
                                                           'message': xml_text(message)})
            error.text = xml_text(f'{label}: {message}')
        tests += len(input_errors)
    root.set('tests', str(tests))
    root.set('failures', str(failures))
    root.set('errors', str(len(input_errors)))
    ElementTree.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ElementTree.tostring(root, encoding='unicode'))


def render(run: Run) -> str:
    """Render the run as JUnit XML."""
    return format_junit(run.reports, run.input_errors, run.fail_on)
