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
Diagnostics for an analysed robot, as pure functions.

One ``diagnostic_msgs/DiagnosticStatus`` per link, named ``<prefix>: <link>``, and one
summary for the robot named ``<prefix>`` alone (so it cannot collide with a link's), all with
``hardware_id`` set to the robot name. The common prefix is the node's fully qualified name
without its leading slash (:func:`status_prefix`): ``urdf_link_tools`` in the root namespace,
``robot_a/urdf_link_tools`` for a node started in namespace ``/robot_a``, so that two robots'
nodes never publish statuses of the same name (diagnostic_aggregator and rqt_robot_monitor
would show one robot flapping between the two). It is what rqt_robot_monitor sorts by and
what a diagnostic_aggregator ``GenericAnalyzer`` matches with ``startswith``.

Every array is bounded whatever the robot: a robot with more links than
``diagnostics_max_link_statuses`` gets one status per rule (named ``<prefix>: rule <id>``,
with the number of links and the first of them) instead of one per link; a status lists at
most :data:`MAX_FINDINGS` findings and counts the rest; every text is clipped to
:data:`MAX_TEXT` characters.
"""

from __future__ import annotations

import math
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from urdf_link_tools.findings import Finding, Severity, worst_severity
from urdf_link_tools.model import Link
from urdf_link_tools.records import record
from urdf_link_tools.ros.conversions import plural, robot_level_findings, unique_links

DEFAULT_PREFIX = 'urdf_link_tools'
DESCRIPTION_STATUS = 'robot_description'
DEFAULT_MAX_LINK_STATUSES = 200
# Findings listed in one status (the rest are counted), and characters in one text: with
# at most DEFAULT_MAX_LINK_STATUSES statuses, an array stays within a few megabytes.
MAX_FINDINGS = 20
MAX_TEXT = 500
# Links named in the status of one rule when statuses are grouped by rule.
MAX_LINKS_PER_RULE = 20


def status_prefix(fully_qualified_name: str) -> str:
    """
    Return the status name prefix of a node: its fully qualified name without the first '/'.

    :param fully_qualified_name: e.g. '/urdf_link_tools' or '/robot_a/urdf_link_tools'
    :return: e.g. 'urdf_link_tools' or 'robot_a/urdf_link_tools'
    """
    return fully_qualified_name.lstrip('/') or DEFAULT_PREFIX


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """Return ``text`` cut to ``limit`` characters, saying so."""
    return text if len(text) <= limit else f'{text[:limit]}... ({len(text)} characters)'


def level_for(severity: Optional[Severity]) -> bytes:
    """Return the diagnostic level (bytes, as rclpy has them) for a worst severity."""
    if severity == Severity.ERROR:
        return DiagnosticStatus.ERROR
    if severity == Severity.WARNING:
        return DiagnosticStatus.WARN
    return DiagnosticStatus.OK


def finding_values(index: int, finding: Finding) -> List[KeyValue]:
    """
    Return a finding as key/value rows: rule and message, its numbers, its suggestion.

    Keys start with ``#index`` so that the same rule firing twice on a link stays apart.
    """
    if finding.file and finding.line:
        where = f'{finding.file}:{finding.line}: '
    else:
        where = f'line {finding.line}: ' if finding.line else ''
    element = f'{finding.element}: ' if finding.element else ''
    rows = [KeyValue(key=f'#{index} {finding.rule}',
                     value=clip(f'{finding.severity.label}: {where}{element}{finding.message}'))]
    if finding.macro_stack:
        # the xacro macro calls that made the element, innermost first
        rows.append(KeyValue(key=f'#{index} macro calls', value=clip(', '.join(
            f'{call.name} at {call.file}:{call.line}' for call in finding.macro_stack))))
    rows.extend(KeyValue(key=clip(f'#{index} {key}'), value=clip(str(value)))
                for key, value in finding.values)
    if finding.suggestion:
        rows.append(KeyValue(key=f'#{index} suggestion', value=clip(finding.suggestion)))
    return rows


def findings_values(findings: Sequence[Finding]) -> List[KeyValue]:
    """Return the rows of the first :data:`MAX_FINDINGS` findings and a count of the rest."""
    rows: List[KeyValue] = []
    for index, finding in enumerate(findings[:MAX_FINDINGS], start=1):
        rows.extend(finding_values(index, finding))
    if len(findings) > MAX_FINDINGS:
        rows.append(KeyValue(key='more findings',
                             value=f'{len(findings) - MAX_FINDINGS} more not listed here '
                                   '(~/get_link_findings lists them all)'))
    return rows


def summarise(findings: Sequence[Finding]) -> str:
    """Return a one-line summary: the worst finding's message and how many more there are."""
    if not findings:
        return 'OK'
    first = max(findings, key=lambda finding: int(finding.severity))
    more = f' (+{len(findings) - 1} more)' if len(findings) > 1 else ''
    return f'{first.severity.label}: {clip(first.message)}{more}'


def link_status(analysis, link: Link, prefix: str = DEFAULT_PREFIX) -> DiagnosticStatus:
    """
    Return the status of one link.

    :param analysis: an :class:`urdf_link_tools.analysis.Analysis`
    :param link: a link of its robot
    :param prefix: the status name prefix
    :return: level = worst finding, message = one-line summary, values = every finding
        about the link, with those about many links that list it (as the services give them)
    """
    findings = tuple(analysis.findings_about(link.name))
    values = [KeyValue(key='line', value=str(link.line or '')),
              KeyValue(key='mass', value=f'{link.mass:.6g} kg' if link.inertial else
                       'no <inertial>')]
    values.extend(findings_values(findings))
    return DiagnosticStatus(
        level=level_for(worst_severity(findings)), name=clip(f'{prefix}: {link.name}'),
        message=summarise(findings), hardware_id=clip(analysis.robot.name), values=values)


def _format_com(com: Optional[Tuple[float, Sequence[float]]]) -> str:
    if com is None:
        return 'none (no link has a positive mass)'
    x, y, z = com[1]
    return f'({x:.4f}, {y:.4f}, {z:.4f}) m'


def robot_status(analysis, prefix: str = DEFAULT_PREFIX,
                 com: Optional[Tuple[float, Sequence[float]]] = None,
                 root: str = '', joint_count: Optional[int] = None,
                 summary: Optional['RobotSummary'] = None) -> DiagnosticStatus:
    """
    Return the summary status of the robot.

    :param analysis: the analysis
    :param prefix: the status name
    :param com: (total mass, centre of mass in the root frame) or None
    :param root: the root link, the frame of ``com``
    :param joint_count: how many joint positions came from joint_states; None when none
        arrived, in which case the COM is at zero positions and the status says so
    :param summary: :func:`robot_summary` of the analysis, when already built
    :return: level = worst finding of the whole robot, values = counts, mass, COM
    """
    robot = analysis.robot
    summary = summary or robot_summary(analysis)
    errors, warnings, infos = summary.counts
    total_mass = summary.total_mass
    if joint_count is None:
        joints = 'none received: COM at zero joint positions'
    else:
        joints = f'{joint_count} joint positions received'
    values = [
        KeyValue(key='robot', value=clip(robot.name)),
        KeyValue(key='source', value=clip(robot.source or 'robot_description topic')),
        KeyValue(key='links', value=str(summary.links)),
        KeyValue(key='joints', value=str(len(robot.joints))),
        KeyValue(key='errors', value=str(errors)),
        KeyValue(key='warnings', value=str(warnings)),
        KeyValue(key='infos', value=str(infos)),
        KeyValue(key='total mass', value=f'{total_mass:.6g} kg'),
        KeyValue(key='COM frame', value=root),
        KeyValue(key='COM', value=_format_com(com)),
        KeyValue(key='joint_states', value=joints),
    ]
    values.extend(summary.values)
    message = (f'{clip(robot.name)}: {plural(errors, "error")}, {plural(warnings, "warning")}, '
               f'{plural(infos, "info")}; '
               f'mass {total_mass:.4g} kg, COM {_format_com(com)} in {root or "?"}')
    if joint_count is None:
        message += ' (no joint_states: zero positions)'
    return DiagnosticStatus(
        level=summary.level, name=prefix, message=message,
        hardware_id=clip(robot.name), values=values)


@record
class RobotSummary:
    """What the robot's status says that depends only on the analysis: built once."""

    counts: Tuple[int, int, int]
    total_mass: float
    links: int
    level: bytes
    values: Tuple[KeyValue, ...]


def robot_summary(analysis, robot_findings: Optional[Sequence[Finding]] = None) -> RobotSummary:
    """
    Return the parts of the robot status that do not change between two publications.

    :param analysis: the analysis
    :param robot_findings: its robot-level findings, when already computed
    :return: the summary
    """
    counts = analysis.counts()
    links = unique_links(analysis.robot)
    total_mass = sum(link.mass for link in links
                     if math.isfinite(link.mass) and link.mass > 0.0)
    if robot_findings is None:
        robot_findings = robot_level_findings(analysis)
    return RobotSummary(
        counts=tuple(counts.get(key, 0) for key in ('error', 'warning', 'info')),
        total_mass=total_mass, links=len(links),
        level=level_for(worst_severity(analysis.findings)),
        values=tuple(findings_values(tuple(robot_findings))))


def description_error_status(error: str, line: Optional[int], source: str,
                             kept_robot: Optional[str],
                             prefix: str = DEFAULT_PREFIX) -> DiagnosticStatus:
    """
    Return the ERROR status of a description that could not be parsed.

    :param error: the parse error, with its line (e.g. 'line 12: <inertia> ...')
    :param line: the line, or None
    :param source: where the description came from (topic or file)
    :param kept_robot: name of the last good model, still in service, or None
    :param prefix: the status name prefix
    :return: the status, named ``<prefix>: robot_description``
    """
    kept = (f'still serving the last good model {kept_robot!r}' if kept_robot
            else 'no model in service')
    kept_robot = clip(kept_robot) if kept_robot else kept_robot
    error = clip(error, 2000)
    return DiagnosticStatus(
        level=DiagnosticStatus.ERROR, name=f'{prefix}: {DESCRIPTION_STATUS}',
        message=f'description rejected: {error}; {kept}', hardware_id=kept_robot or '',
        values=[KeyValue(key='error', value=error),
                KeyValue(key='line', value=str(line or '')),
                KeyValue(key='source', value=clip(source)),
                KeyValue(key='model in service', value=kept_robot or '')])


def waiting_status(prefix: str = DEFAULT_PREFIX, message: str = '') -> DiagnosticStatus:
    """Return the summary status before any description arrived (level STALE: no data)."""
    return DiagnosticStatus(
        level=DiagnosticStatus.STALE, name=prefix,
        message=message or 'waiting for robot_description (or start the node with urdf_file)')


def analysis_statuses(analysis, prefix: str = DEFAULT_PREFIX,
                      max_link_statuses: Optional[int] = None) -> List[DiagnosticStatus]:
    """
    Return the status of every link in document order, or of every rule for a big robot.

    :param analysis: the analysis
    :param prefix: the status name prefix
    :param max_link_statuses: above this many links, group by rule; None: never group
    :return: the statuses
    """
    links = unique_links(analysis.robot)
    if max_link_statuses is None or len(links) <= max_link_statuses:
        return [link_status(analysis, link, prefix) for link in links]
    return rule_statuses(analysis, links, prefix, max_link_statuses)


def rule_statuses(analysis, links: Sequence[Link], prefix: str,
                  max_link_statuses: int) -> List[DiagnosticStatus]:
    """
    Return one status per rule that fired on a link, and one that says why.

    :param analysis: the analysis
    :param links: its robot's links (each name once)
    :param prefix: the status name prefix
    :param max_link_statuses: the threshold that was passed (for the explanation)
    :return: ``<prefix>: links`` first, then ``<prefix>: rule <id>`` by rule id
    """
    by_rule: Dict[str, List[Tuple[str, Finding]]] = {}
    flagged = 0
    for link in links:
        findings = analysis.link_findings(link.name)
        flagged += bool(analysis.findings_about(link.name))  # its own, and those listing it
        for finding in findings:
            by_rule.setdefault(finding.rule, []).append((link.name, finding))
    statuses = [DiagnosticStatus(
        level=DiagnosticStatus.OK, name=f'{prefix}: links', hardware_id=clip(analysis.robot.name),
        message=(f'{len(links)} links, {flagged} with findings: one status per rule, as the '
                 f'robot has more than diagnostics_max_link_statuses={max_link_statuses} '
                 "links (~/get_link_findings gives one link's)"),
        values=[KeyValue(key='links', value=str(len(links))),
                KeyValue(key='links with findings', value=str(flagged))])]
    for rule in sorted(by_rule):
        hits = by_rule[rule]
        names = {name for name, _ in hits}
        # a finding merged with its mirror's is listed under both links, counted once
        count = len({id(finding) for _, finding in hits})
        first_name, first = hits[0]
        values = [KeyValue(key='findings', value=str(count)),
                  KeyValue(key='links', value=str(len(names)))]
        values.extend(KeyValue(key=clip(name, 100), value=clip(finding.message, 200))
                      for name, finding in hits[:MAX_LINKS_PER_RULE])
        if len(hits) > MAX_LINKS_PER_RULE:
            values.append(KeyValue(key='more', value=f'{len(hits) - MAX_LINKS_PER_RULE} '
                                                     'more findings not listed here'))
        statuses.append(DiagnosticStatus(
            level=level_for(worst_severity([finding for _, finding in hits])),
            name=f'{prefix}: rule {rule}', hardware_id=clip(analysis.robot.name),
            message=(f'{count} findings on {len(names)} links, e.g. '
                     f'{clip(first_name, 100)}: {clip(first.message, 200)}'),
            values=values))
    return statuses


def diagnostic_array(statuses: Iterable[DiagnosticStatus],
                     stamp: Optional[Time] = None) -> DiagnosticArray:
    """Wrap statuses in a DiagnosticArray with a stamp."""
    array = DiagnosticArray(status=list(statuses))
    if stamp is not None:
        array.header.stamp = stamp
    return array
