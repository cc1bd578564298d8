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
``hardware_id`` set to the robot name. The common prefix (the node name, ``urdf_link_tools``
by default) is what rqt_robot_monitor sorts by and what a diagnostic_aggregator
``GenericAnalyzer`` matches with ``startswith: ['urdf_link_tools']``.
"""

import math
from typing import Iterable, List, Optional, Sequence, Tuple

from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from urdf_link_tools.findings import Finding, Severity, worst_severity
from urdf_link_tools.model import Link
from urdf_link_tools.ros.conversions import robot_level_findings, unique_links

DEFAULT_PREFIX = 'urdf_link_tools'
DESCRIPTION_STATUS = 'robot_description'


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
    where = f'line {finding.line}: ' if finding.line else ''
    element = f'{finding.element}: ' if finding.element else ''
    rows = [KeyValue(key=f'#{index} {finding.rule}',
                     value=f'{finding.severity.label}: {where}{element}{finding.message}')]
    rows.extend(KeyValue(key=f'#{index} {key}', value=str(value))
                for key, value in finding.values)
    if finding.suggestion:
        rows.append(KeyValue(key=f'#{index} suggestion', value=finding.suggestion))
    return rows


def summarise(findings: Sequence[Finding]) -> str:
    """Return a one-line summary: the worst finding's message and how many more there are."""
    if not findings:
        return 'OK'
    ordered = sorted(findings, key=lambda finding: -int(finding.severity))
    first = ordered[0]
    more = f' (+{len(findings) - 1} more)' if len(findings) > 1 else ''
    return f'{first.severity.label}: {first.message}{more}'


def link_status(analysis, link: Link, prefix: str = DEFAULT_PREFIX) -> DiagnosticStatus:
    """
    Return the status of one link.

    :param analysis: an :class:`urdf_link_tools.analysis.Analysis`
    :param link: a link of its robot
    :param prefix: the status name prefix
    :return: level = worst finding, message = one-line summary, values = every finding
    """
    findings = tuple(analysis.link_findings(link.name))
    values = [KeyValue(key='line', value=str(link.line or '')),
              KeyValue(key='mass', value=f'{link.mass:.6g} kg' if link.inertial else
                       'no <inertial>')]
    for index, finding in enumerate(findings, start=1):
        values.extend(finding_values(index, finding))
    return DiagnosticStatus(
        level=level_for(worst_severity(findings)), name=f'{prefix}: {link.name}',
        message=summarise(findings), hardware_id=analysis.robot.name, values=values)


def _format_com(com: Optional[Tuple[float, Sequence[float]]]) -> str:
    if com is None:
        return 'none (no link has a positive mass)'
    x, y, z = com[1]
    return f'({x:.4f}, {y:.4f}, {z:.4f}) m'


def robot_status(analysis, prefix: str = DEFAULT_PREFIX,
                 com: Optional[Tuple[float, Sequence[float]]] = None,
                 root: str = '', joint_count: Optional[int] = None) -> DiagnosticStatus:
    """
    Return the summary status of the robot.

    :param analysis: the analysis
    :param prefix: the status name
    :param com: (total mass, centre of mass in the root frame) or None
    :param root: the root link, the frame of ``com``
    :param joint_count: how many joint positions came from joint_states; None when none
        arrived, in which case the COM is at zero positions and the status says so
    :return: level = worst finding of the whole robot, values = counts, mass, COM
    """
    robot = analysis.robot
    counts = analysis.counts()
    errors, warnings, infos = (counts.get(key, 0) for key in ('error', 'warning', 'info'))
    total_mass = sum(link.mass for link in unique_links(robot)
                     if math.isfinite(link.mass) and link.mass > 0.0)
    if joint_count is None:
        joints = 'none received: COM at zero joint positions'
    else:
        joints = f'{joint_count} joint positions received'
    values = [
        KeyValue(key='robot', value=robot.name),
        KeyValue(key='source', value=robot.source or 'robot_description topic'),
        KeyValue(key='links', value=str(len(unique_links(robot)))),
        KeyValue(key='joints', value=str(len(robot.joints))),
        KeyValue(key='errors', value=str(errors)),
        KeyValue(key='warnings', value=str(warnings)),
        KeyValue(key='infos', value=str(infos)),
        KeyValue(key='total mass', value=f'{total_mass:.6g} kg'),
        KeyValue(key='COM frame', value=root),
        KeyValue(key='COM', value=_format_com(com)),
        KeyValue(key='joint_states', value=joints),
    ]
    for index, finding in enumerate(robot_level_findings(analysis), start=1):
        values.extend(finding_values(index, finding))
    message = (f'{robot.name}: {errors} errors, {warnings} warnings, {infos} infos; '
               f'mass {total_mass:.4g} kg, COM {_format_com(com)} in {root or "?"}')
    if joint_count is None:
        message += ' (no joint_states: zero positions)'
    return DiagnosticStatus(
        level=level_for(worst_severity(analysis.findings)), name=prefix, message=message,
        hardware_id=robot.name, values=values)


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
    return DiagnosticStatus(
        level=DiagnosticStatus.ERROR, name=f'{prefix}: {DESCRIPTION_STATUS}',
        message=f'description rejected: {error}; {kept}', hardware_id=kept_robot or '',
        values=[KeyValue(key='error', value=error),
                KeyValue(key='line', value=str(line or '')),
                KeyValue(key='source', value=source),
                KeyValue(key='model in service', value=kept_robot or '')])


def waiting_status(prefix: str = DEFAULT_PREFIX, message: str = '') -> DiagnosticStatus:
    """Return the summary status before any description arrived (level STALE: no data)."""
    return DiagnosticStatus(
        level=DiagnosticStatus.STALE, name=prefix,
        message=message or 'waiting for robot_description (or set the urdf_file parameter)')


def analysis_statuses(analysis, prefix: str = DEFAULT_PREFIX) -> List[DiagnosticStatus]:
    """Return the status of every link, in document order."""
    return [link_status(analysis, link, prefix) for link in unique_links(analysis.robot)]


def diagnostic_array(statuses: Iterable[DiagnosticStatus],
                     stamp: Optional[Time] = None) -> DiagnosticArray:
    """Wrap statuses in a DiagnosticArray with a stamp."""
    array = DiagnosticArray(status=list(statuses))
    if stamp is not None:
        array.header.stamp = stamp
    return array
