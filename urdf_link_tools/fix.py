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
Write a copy of a URDF in which flagged inertia tensors are replaced by the suggested ones.

Only the six attribute values (ixx, ixy, ixz, iyy, iyz, izz) of each fixed ``<inertia>``
change; every other byte (comments, spacing, attribute order and quotes, the XML
declaration) stays as it was. The ``<inertia>`` start tags are found by scanning the
original bytes, skipping comments, CDATA sections, processing instructions and the
DOCTYPE, and are matched one to one with the elements lxml parsed, checked by line.

For a xacro input, the "original bytes" are xacro's output.
"""

from dataclasses import dataclass
import re
from typing import Dict, List, Optional, Sequence, Tuple

from urdf_link_tools.analysis import Analysis
from urdf_link_tools.errors import UrdfInputError
from urdf_link_tools.findings import Finding
from urdf_link_tools.parser import parse_xml

#: When several findings of one link carry a tensor, the first rule listed here wins.
PRIORITY = (
    'inertia-products-sign',
    'inertia-geometry-mismatch',
    'inertia-not-positive-definite',
    'inertia-triangle-inequality',
    'inertia-moment-tiny',
    'inertia-unrepresentable-box',
)
NAMES = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')

_SKIP = re.compile(rb'<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<!DOCTYPE(?:[^\[>]|\[.*?\])*>',
                   re.DOTALL)
_TAG = re.compile(rb'<inertia(?=[\s/>])')
_END = re.compile(rb'"[^"]*"|\'[^\']*\'|/?>')


@dataclass(frozen=True)
class Fix:
    """One replaced tensor."""

    link: str
    rule: str
    line: Optional[int]
    old: Tuple[float, ...]
    new: Tuple[float, ...]


def format_value(value: float) -> str:
    """Format an inertia value with 9 significant digits (enough to keep A + B >= C)."""
    text = f'{value:.9g}'
    return '0' if text in ('-0', '0') else text


def choose_fixes(analysis: Analysis) -> Dict[str, Finding]:
    """
    Pick, for each link, the finding whose suggested tensor will be written.

    :param analysis: the analysis
    :return: link name -> finding
    """
    chosen: Dict[str, Finding] = {}
    for finding in analysis.findings:
        if finding.suggested_inertia is None or finding.link is None:
            continue
        if finding.rule not in PRIORITY:
            continue
        current = chosen.get(finding.link)
        if current is None or PRIORITY.index(finding.rule) < PRIORITY.index(current.rule):
            chosen[finding.link] = finding
    return chosen


def _start_tags(data: bytes) -> List[Tuple[int, int]]:
    """Return (start, end) byte spans of every <inertia ...> start tag outside markup."""
    spans: List[Tuple[int, int]] = []
    skipped = [(m.start(), m.end()) for m in _SKIP.finditer(data)]
    index = 0
    for match in _TAG.finditer(data):
        start = match.start()
        while index < len(skipped) and skipped[index][1] <= start:
            index += 1
        if index < len(skipped) and skipped[index][0] <= start < skipped[index][1]:
            continue
        position = match.end()
        while True:
            end = _END.search(data, position)
            if end is None:
                raise UrdfInputError('an <inertia> tag is not closed', line=_line(data, start))
            if end.group(0) in (b'>', b'/>'):
                spans.append((start, end.end()))
                break
            position = end.end()
    return spans


def _line(data: bytes, offset: int) -> int:
    return data.count(b'\n', 0, offset) + 1


def apply_fixes(data: bytes, fixes: Sequence[Tuple[str, int, Sequence[float]]]) -> bytes:
    """
    Replace the six attribute values of chosen ``<inertia>`` elements.

    :param data: the original document
    :param fixes: (link name, source line of its <inertia>, six new values); the element
        is the <inertia> of that link's <inertial> starting on that line
    :return: the new document
    :raises UrdfInputError: when an element cannot be located unambiguously
    """
    root = parse_xml(data)
    elements = list(root.iter('inertia'))
    spans = _start_tags(data)
    if len(spans) != len(elements):
        raise UrdfInputError(f'found {len(spans)} <inertia> tags in the text but the parser '
                             f'sees {len(elements)}: the file was not changed')
    for (_, end), element in zip(spans, elements):
        # libxml2 numbers an element by the line where its start tag ends.
        if _line(data, end - 1) != element.sourceline:
            raise UrdfInputError('could not match <inertia> tags to the parsed document '
                                 f'(line {element.sourceline}): the file was not changed')
    used = set()
    edits: List[Tuple[int, int, bytes]] = []
    for link_name, line, values in fixes:
        target = None
        for number, element in enumerate(elements):
            parent = element.getparent()
            owner = parent.getparent() if parent is not None else None
            if number in used or element.sourceline != line or parent is None \
                    or parent.tag != 'inertial' or owner is None or owner.tag != 'link' \
                    or owner.get('name') != link_name:
                continue
            target = number
            break
        if target is None:
            raise UrdfInputError(f"no <inertia> of link '{link_name}' found on line {line}",
                                 line=line)
        used.add(target)
        start, end = spans[target]
        tag = data[start:end]
        for name, value in zip(NAMES, values):
            found = re.search(rb'(?<![\w:.-])' + name.encode() + rb'\s*=\s*("[^"]*"|\'[^\']*\')',
                              tag)
            if found is None:
                raise UrdfInputError(f'the <inertia> on line {line} has no {name} attribute',
                                     line=line)
            quote_start = start + found.start(1) + 1
            quote_end = start + found.end(1) - 1
            edits.append((quote_start, quote_end, format_value(float(value)).encode()))
    out = bytearray(data)
    for begin, finish, text in sorted(edits, reverse=True):
        out[begin:finish] = text
    return bytes(out)


def fix_inertia(data: bytes, analysis: Analysis) -> Tuple[bytes, Tuple[Fix, ...]]:
    """
    Return the document with every flagged tensor replaced by its suggestion.

    :param data: the exact bytes the analysis was made from
    :param analysis: its analysis
    :return: (new document, the fixes made)
    :raises UrdfInputError: when the tags cannot be located (nothing is changed)
    """
    chosen = choose_fixes(analysis)
    pairs = []
    made = []
    for link in analysis.robot.links:
        finding = chosen.get(link.name)
        if finding is None or link.inertial is None or link.inertial.inertia.line is None:
            continue
        if any(fix.link == link.name for fix in made):
            continue  # a duplicated link name: only the first definition is analysed
        pairs.append((link.name, link.inertial.inertia.line, finding.suggested_inertia))
        made.append(Fix(link.name, finding.rule, link.inertial.inertia.line,
                        link.inertial.inertia.as_tuple(),
                        tuple(float(v) for v in finding.suggested_inertia)))
    if not pairs:
        return data, ()
    return apply_fixes(data, pairs), tuple(made)
