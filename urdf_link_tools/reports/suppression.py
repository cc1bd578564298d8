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
Inline suppression: ``<!-- urdf-link-tools: ignore RULE[,RULE] because REASON -->``.

The comments are read from the files the user wrote (the URDF, or every xacro file a finding
or one of its macro calls points into), not from the expanded document, so a comment in a
macro body applies to every expansion of the macro and a comment around a macro call applies
to everything the call creates. Where a comment applies:

- inside an element (``<link>``, ``<inertial>``, ``<visual>``, a macro call...): that element
  and all its children;
- directly inside ``<robot>``, ``<xacro:macro>``, ``<xacro:if>`` or ``<xacro:unless>`` (which
  only hold other elements): the next element after the comment and its children;
- before ``<robot>`` (at the top of the file): the whole file.

A finding is suppressed when its own file:line, or the file:line of one of its macro calls,
lies in the scope of a comment naming its rule. The scopes are line ranges: from the comment
to the last line where a descendant of the element starts, which holds every line a finding
about the element or its children can name.
"""

from __future__ import annotations

from dataclasses import replace
import os
import re
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from lxml import etree

from urdf_link_tools.checks import is_known_rule, SUPPRESSION_RULES
from urdf_link_tools.findings import Finding
from urdf_link_tools.limits import DESCRIPTION_MAX_BYTES
from urdf_link_tools.records import record

#: The marker that makes a comment a suppression (case-insensitive).
MARKER = 'urdf-link-tools:'
_MARKER_RE = re.compile(r'^\s*urdf-link-tools\s*:', re.IGNORECASE)
_MARKER_BYTES = re.compile(rb'urdf-link-tools\s*:', re.IGNORECASE)
_COMMAND_RE = re.compile(
    r'^\s*urdf-link-tools\s*:\s*ignore\s+(?P<rules>[A-Za-z0-9_.-]+(?:\s*,\s*[A-Za-z0-9_.-]+)*)'
    r'(?:\s+because\b\s*(?P<reason>.*?))?\s*$', re.IGNORECASE | re.DOTALL)
_XACRO_CONTAINERS = ('macro', 'if', 'unless')
_MAX_BYTES = DESCRIPTION_MAX_BYTES

_MISSING_REASON, _UNKNOWN_RULE, _MALFORMED = (rule.rule_id for rule in SUPPRESSION_RULES)


@record
class Suppression:
    """
    One suppression comment and the lines it covers.

    :param file: the file holding the comment (absolute), None for standard input
    :param line: the comment's line
    :param rules: the rule ids it silences
    :param reason: the text after ``because`` (empty when missing)
    :param first_line: first line of its scope
    :param last_line: last line of its scope
    :param whole_file: True when it precedes the root element (findings without a line too)
    """

    file: Optional[str]
    line: int
    rules: Tuple[str, ...]
    reason: str
    first_line: int
    last_line: int
    whole_file: bool = False

    def covers(self, rule: str, file: Optional[str], line: Optional[int]) -> bool:
        """Return True when this comment silences ``rule`` at file:line."""
        if rule not in self.rules or file != self.file:
            return False
        if line is None:
            return self.whole_file
        return self.first_line <= line <= self.last_line

    def to_dict(self) -> Dict[str, object]:
        """Return a JSON-ready dict."""
        return {'file': self.file, 'line': self.line, 'rules': list(self.rules),
                'reason': self.reason}


def _safe_parser() -> etree.XMLParser:
    # The same limits as the URDF parser (no DTD, no entities, no network), but comments kept.
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_comments=False,
                           remove_pis=True, remove_blank_text=False)


def _is_container(element: etree._Element) -> bool:
    if element.getparent() is None:
        return True  # <robot>: a comment in it would otherwise silence the whole file
    namespace = etree.QName(element).namespace or ''
    return 'xacro' in namespace and etree.QName(element).localname in _XACRO_CONTAINERS


def _last_line(element: etree._Element) -> int:
    return max((node.sourceline or 0) for node in element.iter())


def _next_element(comment: etree._Element) -> Optional[etree._Element]:
    node = comment.getnext()
    while node is not None and not isinstance(node.tag, str):
        node = node.getnext()
    return node


def _tag_start(element: etree._Element, lines: Sequence[bytes]) -> int:
    # lxml numbers an element by the line where its start tag ends; a finding mapped from
    # xacro may name the line where it begins, so a scope starts at the '<name'.
    end = element.sourceline or 1
    prefix = element.prefix
    name = etree.QName(element).localname
    needle = f'<{prefix}:{name}' if prefix else f'<{name}'
    for number in range(min(end, len(lines)), max(end - 50, 0), -1):
        if needle.encode() in lines[number - 1]:
            return number
    return end


def _scope(comment: etree._Element, lines: Sequence[bytes]) -> Optional[Tuple[int, int, bool]]:
    parent = comment.getparent()
    line = comment.sourceline or 0
    if parent is None:
        # A comment outside the root: before <robot> it covers the file, after it nothing.
        root = comment.getroottree().getroot()
        if any(node is root for node in comment.itersiblings()):  # before it
            return line, _last_line(root), True
        return None
    if _is_container(parent):
        target = _next_element(comment)
        if target is None:
            return None
        return line, _last_line(target), False
    return _tag_start(parent, lines), _last_line(parent), False


def _link_name(comment: etree._Element) -> Optional[str]:
    # The link the comment is in (or precedes), so the finding is listed with that link.
    candidates = [_next_element(comment)] + list(comment.iterancestors())
    for node in candidates:
        if node is not None and node.tag == 'link':
            name = node.get('name')
            return name if name and '$' not in name else None
    return None


def _problem(rule: str, message: str, comment: etree._Element, file: Optional[str],
             suggestion: str) -> Finding:
    spec = next(r for r in SUPPRESSION_RULES if r.rule_id == rule)
    return Finding(rule=rule, severity=spec.severity, message=message,
                   link=_link_name(comment), element='comment', line=comment.sourceline,
                   suggestion=suggestion, file=file)


def parse_suppressions(data: bytes, file: Optional[str]) -> Tuple[List[Suppression],
                                                                  List[Finding]]:
    """
    Find the suppression comments of one XML document (URDF or xacro).

    :param data: the document's bytes
    :param file: its path (kept as given), None for standard input
    :return: (suppressions, findings about malformed ones: no reason, unknown rule, no verb)
    """
    if _MARKER_BYTES.search(data) is None:
        return [], []  # the common case: no comment to look for, no second parse
    try:
        root = etree.fromstring(data, _safe_parser())
    except (etree.XMLSyntaxError, ValueError):
        return [], []  # the parser of the description reports syntax errors
    found: List[Suppression] = []
    problems: List[Finding] = []
    lines = data.splitlines()
    # Comments before <robot> are siblings of the root, which iter() does not visit.
    comments = [node for node in root.itersiblings(preceding=True)
                if node.tag is etree.Comment] + list(root.iter(etree.Comment))
    for comment in comments:
        text = comment.text or ''
        if not _MARKER_RE.match(text):
            continue
        line = comment.sourceline or 0
        match = _COMMAND_RE.match(text)
        if match is None:
            problems.append(_problem(
                _MALFORMED, f'cannot read the suppression comment {text.strip()!r}', comment,
                file, 'write <!-- urdf-link-tools: ignore RULE[,RULE] because REASON -->'))
            continue
        rules = tuple(rule.strip() for rule in match.group('rules').split(','))
        reason = ' '.join((match.group('reason') or '').split())
        unknown = [rule for rule in rules if not is_known_rule(rule)]
        for rule in unknown:
            problems.append(_problem(
                _UNKNOWN_RULE, f'the suppression names the unknown rule {rule!r}', comment, file,
                'use a rule id from docs/rules.md (the id printed with each finding)'))
        if not reason:
            problems.append(_problem(
                _MISSING_REASON, f'the suppression of {", ".join(rules)} gives no reason',
                comment, file, 'add "because <why the finding does not apply here>"'))
        scope = _scope(comment, lines)
        if scope is None:
            continue
        first, last, whole = scope
        found.append(Suppression(file=file, line=line, rules=rules, reason=reason,
                                 first_line=min(first, line), last_line=last,
                                 whole_file=whole))
    return found, problems


def _key(path: Optional[str]) -> Optional[str]:
    return os.path.realpath(path) if path is not None else None


def finding_files(findings: Iterable[Finding]) -> Set[str]:
    """Return every file a finding or one of its macro calls names."""
    files: Set[str] = set()
    for finding in findings:
        if finding.file is not None:
            files.add(finding.file)
        files.update(call.file for call in finding.macro_stack if call.file)
    return files


def _read(path: str) -> Optional[bytes]:
    try:
        with open(path, 'rb') as stream:
            data = stream.read(_MAX_BYTES + 1)
    except OSError:
        return None
    return data if len(data) <= _MAX_BYTES else None


def collect_suppressions(files: Iterable[str], stdin_data: Optional[bytes] = None) -> \
        Tuple[List[Suppression], List[Finding]]:
    """
    Read the suppression comments of several files (and of standard input).

    :param files: source files (URDF or xacro) to read; unreadable ones are skipped
    :param stdin_data: the document read from standard input, if any
    :return: (suppressions with realpath-normalised files, findings about malformed ones)
    """
    suppressions: List[Suppression] = []
    problems: List[Finding] = []
    seen: Set[str] = set()
    for path in sorted(files):
        key = _key(path)
        if key in seen or key is None or not os.path.isfile(key):
            continue
        seen.add(key)
        data = _read(key)
        if data is None:
            continue
        found, bad = parse_suppressions(data, key)
        suppressions.extend(found)
        problems.extend(replace(finding, file=path) for finding in bad)
    if stdin_data is not None:
        found, bad = parse_suppressions(stdin_data, None)
        suppressions.extend(found)
        problems.extend(bad)
    return suppressions, problems


def _locations(finding: Finding) -> List[Tuple[Optional[str], Optional[int]]]:
    places = [(_key(finding.file), finding.line)]
    places.extend((_key(call.file), call.line) for call in finding.macro_stack)
    return places


def apply_suppressions(findings: Sequence[Finding], suppressions: Sequence[Suppression]) -> \
        Tuple[List[Finding], List[Tuple[Finding, Suppression]]]:
    """
    Split findings into those reported and those a comment silences.

    :param findings: the findings
    :param suppressions: from :func:`collect_suppressions`
    :return: (kept findings, (suppressed finding, the comment that silenced it) pairs)
    """
    kept: List[Finding] = []
    silenced: List[Tuple[Finding, Suppression]] = []
    for finding in findings:
        hit = None
        if finding.rule not in (_MISSING_REASON, _MALFORMED):
            hit = next((s for s in suppressions for file, line in _locations(finding)
                        if s.covers(finding.rule, file, line)), None)
        if hit is None:
            kept.append(finding)
        else:
            silenced.append((finding, hit))
    return kept, silenced
