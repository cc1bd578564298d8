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

For a xacro input, :func:`plan_xacro_fixes` edits the xacro sources instead, where the
numbers are written as literals, and never writes the expansion over a xacro file.
"""

from __future__ import annotations

from dataclasses import replace
import os
import re
import stat
from typing import Dict, List, Optional, Sequence, Tuple

from urdf_link_tools.analysis import Analysis
from urdf_link_tools.checks.base import first_names
from urdf_link_tools.errors import UrdfInputError
from urdf_link_tools.findings import Finding, INERTIA_NAMES, MacroCall
from urdf_link_tools.parser import parse_xml
from urdf_link_tools.read_policy import inside
from urdf_link_tools.records import record

#: When several findings of one link carry a tensor, the first rule listed here wins.
PRIORITY = (
    'inertia-about-link-origin',
    'inertial-placeholder',
    'inertia-products-sign',
    'inertia-geometry-mismatch',
    'inertia-exceeds-extent',
    'inertia-exceeds-robot',
    'inertia-not-positive-definite',
    'inertia-triangle-inequality',
    'inertia-moment-tiny',
    'inertia-unrepresentable-box',
)

_SKIP = re.compile(rb'<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<!DOCTYPE(?:[^\[>]|\[.*?\])*>',
                   re.DOTALL)
_TAG = re.compile(rb'<inertia(?=[\s/>])')
_END = re.compile(rb'"[^"]*"|\'[^\']*\'|/?>')


@record
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

    A finding that lists its links (one tensor copied onto several, wrong on each) counts
    as one finding of its rule per link that has a tensor of its own in it
    (``links_suggested_inertia``).

    :param analysis: the analysis
    :return: link name -> finding (of that link, its tensor in ``suggested_inertia``)
    """
    chosen: Dict[str, Finding] = {}
    for finding in analysis.findings:
        if finding.rule not in PRIORITY:
            continue
        candidates = [finding] if finding.suggested_inertia is not None and \
            finding.link is not None else []
        candidates += [replace(finding, link=name, suggested_inertia=values, links=(),
                               links_suggested_inertia=())
                       for name, values in finding.links_suggested_inertia]
        for candidate in candidates:
            current = chosen.get(candidate.link)  # type: ignore[arg-type]
            if current is None or \
                    PRIORITY.index(candidate.rule) < PRIORITY.index(current.rule):
                chosen[candidate.link] = candidate  # type: ignore[index]
    return chosen


def _start_tags(data: bytes, tag: 're.Pattern[bytes]' = _TAG) -> List[Tuple[int, int]]:
    """Return the byte spans of the <inertia> (or ``tag``) start tags outside markup."""
    spans: List[Tuple[int, int]] = []
    skipped = [(m.start(), m.end()) for m in _SKIP.finditer(data)]
    index = 0
    for match in tag.finditer(data):
        start = match.start()
        while index < len(skipped) and skipped[index][1] <= start:
            index += 1
        if index < len(skipped) and skipped[index][0] <= start < skipped[index][1]:
            continue
        position = match.end()
        while True:
            end = _END.search(data, position)
            if end is None:
                raise UrdfInputError(f'a <{match.group(0)[1:].decode("utf-8", "replace")}> tag '
                                     'is not closed', line=_line(data, start))
            if end.group(0) in (b'>', b'/>'):
                spans.append((start, end.end()))
                break
            position = end.end()
    return spans


def _line(data: bytes, offset: int, lone_cr: bool = False) -> int:
    """
    Return the line of a byte offset as the parser of that file counts lines.

    libxml2 (URDF) counts LF only; expat (xacro) also counts a lone CR (CRLF is one line end
    for both). Counting otherwise would edit another link's tensor in a file with CR line ends.
    """
    lines = data.count(b'\n', 0, offset) + 1
    if lone_cr:
        lines += data.count(b'\r', 0, offset) - data.count(b'\r\n', 0, offset)
    return lines


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
    for (start, _), element in zip(spans, elements):
        # The parser numbers an element by the line where its start tag begins.
        if _line(data, start) != element.sourceline:
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
        for name, value in zip(INERTIA_NAMES, values):
            found = re.search(rb'(?<![\w:.-])' + name.encode() + rb'\s*=\s*("[^"]*"|\'[^\']*\')',
                              tag)
            if found is None:
                raise UrdfInputError(f'the <inertia> on line {line} has no {name} attribute',
                                     line=line)
            quote_start = start + found.start(1) + 1
            quote_end = start + found.end(1) - 1
            text = format_value(float(value))
            if _same_number(data[quote_start:quote_end], text):
                continue  # a value the fix keeps keeps its bytes ("-3.1597E-09" stays)
            edits.append((quote_start, quote_end, text.encode()))
    out = bytearray(data)
    for begin, finish, text in sorted(edits, reverse=True):
        out[begin:finish] = text
    return bytes(out)


def _same_number(written: bytes, text: str) -> bool:
    """Return True when an attribute's text reads as the number ``text`` does."""
    try:
        return float(written.decode('ascii').strip()) == float(text)
    except (UnicodeDecodeError, ValueError):
        return False


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


_NUMBER = re.compile(r'\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*')


@record
class SourceFix:
    """What ``--fix-inertia`` did, or could not do, at one place of a xacro source."""

    file: str
    line: int
    link: str
    message: str
    changed: bool
    #: every link the place concerns (a macro's tag that makes several tensors), else ()
    links: Tuple[str, ...] = ()


def _attribute_spans(data: bytes, start: int, end: int,
                     names: Sequence[str] = INERTIA_NAMES) -> Dict[str, Tuple[int, int]]:
    spans = {}
    tag = data[start:end]
    for name in names:
        found = re.search(rb'(?<![\w:.-])' + name.encode() + rb'\s*=\s*("[^"]*"|\'[^\']*\')',
                          tag)
        if found is not None:
            spans[name] = (start + found.start(1) + 1, start + found.end(1) - 1)
    return spans


class _InertiaTags:
    """The ``<inertia>`` start tags of xacro sources by line: each file read and scanned once."""

    def __init__(self) -> None:
        self._data: Dict[str, bytes] = {}
        self._lines: Dict[str, Dict[int, List[Tuple[int, int]]]] = {}

    def on_line(self, path: str, line: int, tag: str = 'inertia'
                ) -> Tuple[bytes, List[Tuple[int, int]]]:
        """
        Return a file's bytes and the spans of the ``<inertia>`` (or ``tag``) start tags on a line.

        :raises OSError: when the file cannot be read
        :raises UrdfInputError: when such a tag in it is not closed
        """
        if path not in self._data:
            with open(path, 'rb') as stream:
                self._data[path] = stream.read()
        data = self._data[path]
        key = f'{tag}\0{path}'
        if key not in self._lines:
            by_line: Dict[int, List[Tuple[int, int]]] = {}
            pattern = _TAG if tag == 'inertia' else \
                re.compile(b'<' + re.escape(tag.encode()) + rb'(?=[\s/>])')
            for span in _start_tags(data, pattern):
                by_line.setdefault(_line(data, span[0], lone_cr=True), []).append(span)
            self._lines[key] = by_line
        return data, self._lines[key].get(line, [])


#: an attribute that is one macro parameter: ixx="${ixx}"
_PARAMETER = re.compile(r'\s*\$\{\s*([A-Za-z_]\w*)\s*\}\s*')


def _passed_literal(tags: _InertiaTags, text: str, stack: Sequence[MacroCall]
                    ) -> Optional[Tuple[str, int, Tuple[int, int], str]]:
    """
    Follow ``${param}`` through the macro calls to the number a call passes, if it does.

    The usual way a xacro description gives each link its own tensor: a macro whose
    ``<inertia ixx="${ixx}" .../>`` serves every call, and calls that pass the numbers
    (``<xacro:seg name="elbow" ixx="0.0001" .../>``). Innermost call first, as far as the
    value is passed on as ``${param}``.

    :return: (the call's file, its line, the span of the number, the number), or None (an
        expression, a macro parameter's default, a call not found on its line)
    """
    for call in stack:
        found = _PARAMETER.fullmatch(text)
        if found is None:
            return None
        try:
            data, spans = tags.on_line(call.file, call.line, f'xacro:{call.name}')
        except (OSError, UrdfInputError):
            return None
        if len(spans) != 1:
            return None
        span = _attribute_spans(data, *spans[0], (found.group(1),)).get(found.group(1))
        if span is None:
            return None  # not passed: the parameter's default
        text = data[span[0]:span[1]].decode('utf-8', 'replace')
        if _NUMBER.fullmatch(text):
            return call.file, call.line, span, text
    return None


#: the links a fix report names (the rest counted)
NAMES_SHOWN = 6


def plan_xacro_fixes(analysis: Analysis, source_map, display=lambda path: path
                     ) -> Tuple[Dict[str, List[Tuple[int, int, bytes]]], List[SourceFix]]:
    """
    Plan the edits of the xacro sources where flagged inertia numbers are literals.

    Literal attribute values of the ``<inertia>`` tag that made each flagged tensor are
    replaced; a value written as an expression, or that came from a YAML file through
    ``xacro.load_yaml``, is left alone and reported with what it should become and where.
    When one tag makes several tensors (a macro used more than once) that need different
    numbers, nothing is edited there.

    :param analysis: the analysis of the expansion
    :param source_map: its :class:`~urdf_link_tools.xacro.source_map.SourceMap`
    :param display: how to show a path
    :return: (file -> [(start, end, new bytes)], one report per place)
    """
    chosen = choose_fixes(analysis)
    # How many tensors each source tag makes: a literal in a macro used twice is shared.
    made: Dict[Tuple[str, int], List[str]] = {}
    for link in analysis.robot.links:
        if link.inertial is not None:
            place = source_map.locate(link.inertial.inertia.line)
            if place is not None:
                # the tag, and each macro call on the way to it (a number a call passes)
                for at in dict.fromkeys([(place.file, place.line)] + [
                        (call.file, call.line) for call in place.macro_stack]):
                    made.setdefault(at, []).append(link.name)
    edits: Dict[Tuple[str, int, int], Tuple[bytes, str]] = {}
    #: each attribute's name and the links that want it changed
    wanting: Dict[Tuple[str, int, int], Tuple[str, List[str]]] = {}
    tag_lines: Dict[Tuple[str, int, int], int] = {}
    reports: List[SourceFix] = []
    sources = _InertiaTags()
    cache: Dict[str, bytes] = {}
    done = set()
    for link in analysis.robot.links:
        finding = chosen.get(link.name)
        if finding is None or link.inertial is None or link.name in done:
            continue
        done.add(link.name)
        where = source_map.locate(link.inertial.inertia.line)
        if where is None:
            continue
        shown = display(where.file)
        try:
            data, spans = sources.on_line(where.file, where.line)
        except OSError as exc:
            reports.append(SourceFix(shown, where.line, link.name,
                                     f'cannot read: {exc.strerror}', False))
            continue
        cache[where.file] = data
        if len(spans) != 1:
            reports.append(SourceFix(shown, where.line, link.name,
                                     'no single <inertia> tag on this line: not changed', False))
            continue
        attributes = _attribute_spans(data, *spans[0])
        yaml_values = {name: (file, line) for name, file, line in where.value_sources}
        for name, value in zip(INERTIA_NAMES, finding.suggested_inertia):
            new = format_value(float(value))
            if name in yaml_values:
                file, line = yaml_values[name]
                reports.append(SourceFix(display(file), line, link.name,
                                         f'{name} comes from this YAML value: set it to {new}',
                                         False))
                continue
            span = attributes.get(name)
            if span is None:
                continue
            text = data[span[0]:span[1]].decode('utf-8', 'replace')
            file, line = where.file, where.line
            if not _NUMBER.fullmatch(text):
                passed = _passed_literal(sources, text, where.macro_stack)
                if passed is None:
                    reports.append(SourceFix(shown, where.line, link.name,
                                             f'{name}="{text}" is an expression: it should '
                                             f'give {new}', False))
                    continue
                file, line, span, text = passed
                cache[file] = sources.on_line(file, line)[0]
            if float(text) == float(new):
                continue
            key = (file, span[0], span[1])
            wanting.setdefault(key, (name, []))[1].append(link.name)
            previous = edits.get(key)
            if previous is not None and previous[0] != new.encode():
                edits[key] = (b'', 'conflict')
                continue
            if previous is None or previous[1] != 'conflict':
                edits[key] = (new.encode(), link.name)
                tag_lines[key] = line
    for key, (_, links) in wanting.items():
        # Fewer links agreeing on a value than the tag makes tensors: the others need theirs.
        if edits[key][1] != 'conflict' and \
                len(links) < len(made.get((key[0], tag_lines[key]), links)):
            edits[key] = (b'', 'conflict')
    planned: Dict[str, List[Tuple[int, int, bytes]]] = {}
    changed_lines: Dict[Tuple[str, int], List[str]] = {}
    conflicts: Dict[Tuple[str, int], Tuple[List[str], Dict[str, None], Dict[str, None]]] = {}
    for (file, start, end), (text, owner) in sorted(edits.items()):
        line = _line(cache[file], start, lone_cr=True)
        if owner == 'conflict':
            # One line per tag, not one per attribute (urdf_tutorial's r2d2: six lines), naming
            # every link the tag makes (not only those that want a change: "1 links").
            name, links = wanting[(file, start, end)]
            names, owners, makes = conflicts.setdefault((file, line), ([], {}, {}))
            names.append(name)
            owners.update(dict.fromkeys(links))
            makes.update(dict.fromkeys(made.get(
                (file, tag_lines.get((file, start, end), line)), links)))
            continue
        planned.setdefault(file, []).append((start, end, text))
        # one report per tag, at its first line (a tag over three lines was three reports)
        changed_lines.setdefault((file, tag_lines.get((file, start, end), line)),
                                 []).append(owner)
    for (file, line), (names, owners, makes) in sorted(conflicts.items()):
        links, every = tuple(owners), tuple(makes)
        shown = first_names(every, NAMES_SHOWN)
        reports.append(SourceFix(
            display(file), line, links[0],
            f'this tag makes the tensors of {len(every)} links (a macro used more than once: '
            f'{shown}) that do not all need the same {", ".join(names)}: not changed; make '
            f'{"it a macro parameter" if len(names) == 1 else "them macro parameters"}',
            False, links))
    for (file, line), owners in sorted(changed_lines.items()):
        # A tag of a macro called twice makes both tensors: both were replaced (PR2's wide
        # and narrow stereo links: "narrow_link replaced", wide_link "left as it is").
        every = tuple(dict.fromkeys(made.get((file, line), []) + owners))
        if len(every) > 1:
            shown = first_names(tuple(repr(name) for name in every), NAMES_SHOWN)
            reports.append(SourceFix(display(file), line, every[0],
                                     f'inertia of links {shown} replaced (one tag makes their '
                                     'tensors)', True, every))
        else:
            reports.append(SourceFix(display(file), line, owners[0],
                                     f'inertia of link {owners[0]!r} replaced', True))
    return planned, reports


def _from_yaml(values: Sequence[Tuple[str, str, int]], display) -> str:
    """
    Say which values one YAML file gives: 'ixx, iyy (from FILE:36-37)'.

    Elite's six values each named the same 100-character path (a fix line of over 1,000
    characters): the file is said once, its lines as ranges.
    """
    lines = sorted({line for _name, _file, line in values})
    ranges: List[str] = []
    start = previous = lines[0]
    for line in lines[1:] + [None]:  # type: ignore[list-item]
        if line is not None and line == previous + 1:
            previous = line
            continue
        ranges.append(str(start) if start == previous else f'{start}-{previous}')
        if line is not None:
            start = previous = line
    names = ', '.join(name for name, _file, _line in values)
    return f'{names} (from {display(values[0][1])}:{", ".join(ranges)})'


#: the source places of a grouped inertia finding named in its message
PLACES_SHOWN = 6


def xacro_sources_of_suggestions(findings: Sequence[Finding], robot, source_map,
                                 display=lambda path: path) -> Tuple[Finding, ...]:
    """
    Say, in each suggested tensor's fix, which of its six values the xacro computes.

    A fix printed as numbers for ``ixy="${reflect * -0.001809}"`` breaks the mirrored arm
    if pasted (TIAGo): the fix then names the expressions (and YAML values) to change for
    this link, and that ``--fix-inertia`` edits only literal numbers.

    :param findings: the located findings of an expanded description
    :param robot: the parsed expansion
    :param source_map: its source map
    :param display: how to show a path
    :return: the findings, those with a suggested tensor written by expressions annotated
    """
    sources = _InertiaTags()
    notes: Dict[str, str] = {}

    def tag_of(link_name: str):
        # where the <inertia> tag that made a link's tensor is written, or None
        link = robot.link(link_name)
        return source_map.locate(link.inertial.inertia.line) \
            if link is not None and link.inertial is not None else None

    def note_for(link_name: str) -> str:
        if link_name in notes:
            return notes[link_name]
        notes[link_name] = ''
        where = tag_of(link_name)
        if where is None:
            return ''
        try:
            data, spans = sources.on_line(where.file, where.line)
        except (OSError, UrdfInputError):  # not for this note to judge the source file
            return ''
        if len(spans) != 1:
            return ''
        attributes = _attribute_spans(data, *spans[0])
        computed: List[str] = []
        yaml_values = {name: (file, line) for name, file, line in where.value_sources}
        from_yaml: List[Tuple[str, str, int]] = []  # values of one file in a row: said once
        passed: Dict[Tuple[str, int], List[str]] = {}
        named = 0
        for name in INERTIA_NAMES:
            span = attributes.get(name)
            if name in yaml_values:
                file, line = yaml_values[name]
                if from_yaml and from_yaml[-1][1] != file:
                    computed.append(_from_yaml(from_yaml, display))
                    from_yaml = []
                from_yaml.append((name, file, line))
                named += 1
                continue
            if from_yaml:
                computed.append(_from_yaml(from_yaml, display))
                from_yaml = []
            if span is not None:
                text = data[span[0]:span[1]].decode('utf-8', 'replace')
                if not _NUMBER.fullmatch(text):
                    found = _passed_literal(sources, text, where.macro_stack)
                    if found is not None:
                        passed.setdefault(found[:2], []).append(f'{name}="{found[3]}"')
                        continue
                    computed.append(f'{name}="{text[:80]}"')
                    named += 1
        if from_yaml:
            computed.append(_from_yaml(from_yaml, display))
        if computed:
            notes[link_name] = (
                f'; the xacro computes {", ".join(computed)}: change '
                + ('that expression or value' if named == 1 else
                   'those expressions or values')
                + ' to give these numbers for this link, not the numbers in their place (a '
                'macro may serve other links; --fix-inertia edits only literal numbers and '
                'lists the rest)')
        for (file, line), values in passed.items():
            # a macro's ${ixx} given by the call that made this link: the numbers are there
            notes[link_name] += (f'; the macro call at {display(file)}:{line} passes '
                                 f'{", ".join(values)}: write these numbers there '
                                 '(--fix-inertia does)')
        return notes[link_name]

    def shared_tags(finding: Finding) -> str:
        # One tag of a macro making several of the links' tensors that need different
        # numbers: --fix-inertia leaves it (plan_xacro_fixes), whatever the fix promises.
        tags: Dict[Tuple[str, int], Dict[str, Tuple[float, ...]]] = {}
        for name, values in finding.links_suggested_inertia:
            where = tag_of(name)
            if where is not None:
                tags.setdefault((where.file, where.line), {})[name] = tuple(values)
        shared = [(place, wanted) for place, wanted in tags.items()
                  if len(set(wanted.values())) > 1]
        if not shared:
            return ''
        (file, line), wanted = shared[0]
        return (f'; in this xacro, {len(wanted)} of these tensors are one <inertia> tag '
                f'({display(file)}:{line}, in a macro), which --fix-inertia does not change, as '
                'they need different numbers: make ixx to izz macro parameters')

    def places(finding: Finding) -> Finding:
        # One finding of links whose tensors are written in several places (locobot: the
        # kobuki wheels' placeholder in one file, the gripper's in another, cited at one):
        # each place named, so that a hand fix or a review finds them all (in the message,
        # and as data: JSON's places, SARIF's related locations).
        found: Dict[Tuple[str, int], List[str]] = {}
        for name in finding.links:
            where = tag_of(name)
            if where is not None:
                found.setdefault((where.file, where.line), []).append(name)
        if len(found) < 2:
            return finding
        shown = [f'{display(file)}:{line} ({first_names(names, 3)})'
                 for (file, line), names in found.items()]
        return replace(
            finding,
            message=f'{finding.message}; written in {len(found)} places: '
                    f'{first_names(shown, PLACES_SHOWN)}',
            places=tuple((file, line, tuple(names)) for (file, line), names in found.items()))

    out = []
    for finding in findings:
        if finding.link is None and len(finding.links) > 1 and \
                finding.rule.startswith(('inertia-', 'inertial-')):
            finding = places(finding)
        if finding.suggested_inertia is not None and finding.link is not None and \
                finding.suggestion:
            extra = note_for(finding.link)
            if extra:
                finding = replace(finding, suggestion=finding.suggestion + extra)
        elif finding.links_suggested_inertia and finding.suggestion:
            extra = shared_tags(finding)
            if extra:
                finding = replace(finding, suggestion=finding.suggestion + extra)
        out.append(finding)
    return tuple(out)


def write_refusal(path: str, roots: Sequence[str]) -> Optional[str]:
    """
    Return why ``--fix-inertia`` may not edit a xacro source in place, or None.

    It edits only regular files inside ``roots`` (the robot's package and the
    ``--fix-allow-dir`` directories), never under ``.git``; a symbolic link is followed when
    both the link and its target are inside, and the target is written (the link stays).

    :param path: the file as the source map names it
    :param roots: the directories it may write under
    :return: the reason, or None
    """
    real_roots = [os.path.realpath(root) for root in roots]
    named = os.path.join(os.path.realpath(os.path.dirname(os.path.abspath(path))),
                         os.path.basename(path))
    target = os.path.realpath(path)
    for candidate in (named, target):
        if '.git' in candidate.split(os.sep):
            return 'it is inside a .git directory'
        if not any(inside(candidate, root) for root in real_roots):
            return ("it is outside the robot's package (allow its directory with "
                    '--fix-allow-dir DIR if you mean to edit it)')
    try:
        info = os.stat(target)
    except OSError as exc:
        return f'it cannot be read: {exc.strerror}'
    if not stat.S_ISREG(info.st_mode):
        return 'it is not a regular file'
    return None


def write_xacro_fixes(planned: Dict[str, List[Tuple[int, int, bytes]]],
                      roots: Sequence[str]) -> List[Tuple[str, str]]:
    """
    Apply planned edits to the xacro sources in place (only the attribute values change).

    :param planned: file -> [(start, end, new bytes)]
    :param roots: the directories it may write under (see :func:`write_refusal`)
    :return: (file, reason) of each file refused, which is left as it was
    :raises UrdfInputError: when a file cannot be written (it is left as it was)
    """
    import tempfile
    refused = []
    for file, edits in planned.items():
        reason = write_refusal(file, roots)
        if reason is not None:
            refused.append((file, reason))
            continue
        target = os.path.realpath(file)  # through an in-package link: the link stays
        with open(target, 'rb') as stream:
            out = bytearray(stream.read())
        for begin, finish, text in sorted(edits, reverse=True):
            out[begin:finish] = text
        directory = os.path.dirname(target)
        try:
            handle, temporary = tempfile.mkstemp(dir=directory, prefix='.fix-inertia-')
            with os.fdopen(handle, 'wb') as stream:
                stream.write(bytes(out))
            os.chmod(temporary, os.stat(target).st_mode & 0o7777)
            os.replace(temporary, target)
        except OSError as exc:
            raise UrdfInputError(f'--fix-inertia: cannot write {file}: {exc.strerror}') from None
    return refused
