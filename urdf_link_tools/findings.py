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

"""Findings: what the analysis says about a robot, as plain data."""

from __future__ import annotations

from dataclasses import field
import enum
from typing import Any, Dict, Optional, Sequence, Tuple

from urdf_link_tools.records import record


class Severity(enum.IntEnum):
    """How bad a finding is; the values match urdf_link_tools/Finding."""

    INFO = 0
    WARNING = 1
    ERROR = 2

    @property
    def label(self) -> str:
        """Lower-case name used in text and JSON output."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> 'Severity':
        """
        Read a severity from its name.

        :param text: 'error', 'warning' or 'info' (any case)
        :return: the severity
        :raises ValueError: for any other text
        """
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(
                f'unknown severity {text!r}: use error, warning or info') from None


#: the six values of an inertia tensor, in the order URDF writes them
INERTIA_NAMES = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')


@record
class MacroCall:
    """
    One xacro macro call on the way to an element: the macro's name and the call site.

    A finding's ``macro_stack`` lists them innermost first, as a compiler lists the
    instantiation chain of a template.
    """

    name: str
    file: str
    line: int

    def to_dict(self) -> Dict[str, Any]:
        """Return a JSON-ready dict."""
        return {'macro': self.name, 'file': self.file, 'line': self.line}


@record
class Finding:
    """
    One thing the checker found, with enough context for a person to act on it.

    ``file`` and ``line`` say where the user wrote the element: the URDF file, or for xacro
    input the xacro file holding the tag (a macro body's line for elements a macro makes);
    ``macro_stack`` is the chain of macro calls that produced it, innermost first;
    ``value_source`` names the file and line a number came from when it is not the element's
    own (a YAML file loaded with ``xacro.load_yaml``). ``file`` is None for standard input.

    ``values`` holds the numbers behind the message as (key, value) text pairs, in the order
    a reader wants them (they become diagnostic key/values). ``suggested_inertia`` carries
    a replacement (ixx, ixy, ixz, iyy, iyz, izz) where the rule can compute one; it is what
    ``check --fix-inertia`` writes. ``links`` names every link a robot-level finding is
    about (a model-wide choice reported once, e.g. no link has mass), ``link`` being None;
    a finding on one link merged with its mirror's (:mod:`.checks.mirrors`) keeps its
    ``link`` and lists both.
    Such a finding made of per-link ones that each had a replacement tensor (a tensor copied
    onto several links, wrong on each) keeps them in ``links_suggested_inertia``: (link, the
    six values) for each, what ``check --fix-inertia`` writes on each link. ``places`` names,
    for such a finding whose links' tensors are written in several places of the sources,
    each place: (file, line, the links whose tensor is written there).
    """

    rule: str
    severity: Severity
    message: str
    link: Optional[str] = None
    element: Optional[str] = None
    line: Optional[int] = None
    suggestion: str = ''
    values: Tuple[Tuple[str, str], ...] = ()
    suggested_inertia: Optional[Tuple[float, float, float, float, float, float]] = field(
        default=None, compare=False)
    file: Optional[str] = None
    macro_stack: Tuple[MacroCall, ...] = ()
    value_source: Optional[Tuple[str, int]] = None
    links: Tuple[str, ...] = ()
    links_suggested_inertia: Tuple[Tuple[str, Tuple[float, float, float, float, float, float]],
                                   ...] = field(default=(), compare=False)
    places: Tuple[Tuple[str, int, Tuple[str, ...]], ...] = field(default=(), compare=False)

    def to_dict(self) -> Dict[str, Any]:
        """Return a JSON-ready dict with the public fields."""
        out: Dict[str, Any] = {
            'rule': self.rule,
            'severity': self.severity.label,
            'link': self.link,
            'element': self.element,
            'file': self.file,
            'line': self.line,
            'macro_stack': [call.to_dict() for call in self.macro_stack],
            'message': self.message,
            'suggestion': self.suggestion,
            'values': dict(self.values),
        }
        if self.links:
            out['links'] = list(self.links)
        if self.value_source is not None:
            out['value_source'] = {'file': self.value_source[0], 'line': self.value_source[1]}
        if self.suggested_inertia is not None:
            out['suggested_inertia'] = dict(zip(INERTIA_NAMES, self.suggested_inertia))
        if self.links_suggested_inertia:
            out['links_suggested_inertia'] = {link: dict(zip(INERTIA_NAMES, values))
                                              for link, values in self.links_suggested_inertia}
        if self.places:
            out['places'] = [{'file': file, 'line': line, 'links': list(links)}
                             for file, line, links in self.places]
        return out


def worst_severity(findings: 'Tuple[Finding, ...] | list') -> Optional[Severity]:
    """
    Return the highest severity among findings, or None when there are none.

    :param findings: findings to scan
    :return: the worst severity or None
    """
    worst: Optional[Severity] = None
    for finding in findings:
        if worst is None or finding.severity > worst:
            worst = finding.severity
    return worst


#: The rule id of a failure of this tool itself (documented in urdf_link_tools.checks).
INTERNAL_ERROR = 'internal-error'
#: the value of the parser's note on a xacro template read as URDF: the analysis checks such
#: a robot no further (its numbers are fallbacks)
TEMPLATE_VALUE = ('template', 'unexpanded')


def internal_error(what: str, error: str, link: Optional[str] = None) -> Finding:
    """
    Return the finding for a failure of this tool (not of the robot description).

    :param what: what failed, e.g. 'the check inertia.check_link'
    :param error: the exception, one line ('ZeroDivisionError: float division by zero')
    :param link: the link it failed on, if any
    :return: an ERROR-level internal-error finding
    """
    where = f' on link {link!r}' if link is not None else ''
    return Finding(
        rule=INTERNAL_ERROR, severity=Severity.ERROR, link=link,
        message=f'{what} failed{where}: {error} (a bug in urdf-link-tools; what it would have '
                'found is missing, the rest was checked)',
        suggestion='please report this with the URDF; --verbose prints the traceback')


#: names listed in a message (a finding's ``links`` holds all of them)
LISTED = 10


def listed(names: Sequence[str], most: int = LISTED, total: Optional[int] = None) -> str:
    """
    Join names with commas, those past ``most`` counted: 'a, b and 3 more'.

    'and 1 more' would take the room of the name it hides: ``most + 1`` names are all shown.

    :param total: how many there are, when ``names`` holds only the first of them (each
        costs some formatting)
    """
    count = len(names) if total is None else total
    if count <= most + 1 and len(names) == count:
        return ', '.join(names)
    return ', '.join(names[:most]) + f' and {count - most} more'


def sort_key(finding: Finding) -> Tuple[int, str, int, str]:
    """Order findings errors first, then by link, line and rule."""
    return (-int(finding.severity), finding.link or '', finding.line or 0, finding.rule)
