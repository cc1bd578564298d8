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
Write docs/rules.md's rule tables from ``RULES``, so that the documentation cannot drift.

Each table sits between ``<!-- rules-table: GROUP ... -->`` and ``<!-- end rules-table -->``;
a group is a rule module of :data:`~urdf_link_tools.checks.MODULES` (its short name) or one
of the parser's and the tool's own groups. Everything outside the markers is prose and left
as written. Run ``python -m urdf_link_tools.checks.docs`` to rewrite the file, ``--check`` to
exit 1 when it differs (``test_checks_rules_doc.py`` does the same).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Dict, List, Optional, Sequence, Tuple

from urdf_link_tools import checks
from urdf_link_tools.checks.base import Rule

HEADER = ('| id | severity | what | why it matters | how to fix | source |\n'
          '|---|---|---|---|---|---|')
_START = re.compile(r'^<!-- rules-table: (?P<group>[\w-]+)[^\n]*-->\n', re.MULTILINE)
_END = '<!-- end rules-table -->'
DEFAULT_PATH = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    'docs', 'rules.md')


def groups() -> Dict[str, Tuple[Rule, ...]]:
    """Return each documented group of rules, in ``RULES`` order within a group."""
    found: Dict[str, Tuple[Rule, ...]] = {
        module.__name__.rsplit('.', 1)[-1]: tuple(module.RULES) for module in checks.MODULES}
    found['parse-notes'] = (checks.PARSE_NOTE_RULES + checks.SUPPRESSION_RULES
                            + (checks.INTERNAL_RULE, checks.INCOMPLETE_RULE))
    found['parse-refusals'] = checks.PARSE_REFUSAL_RULES
    return found


def _cell(text: str) -> str:
    return text.replace('|', '\\|').replace('\n', ' ')


def table(rules: Sequence[Rule]) -> str:
    """Return the Markdown table of some rules (no trailing newline)."""
    rows = [HEADER]
    for rule in rules:
        rows.append('| ' + ' | '.join(_cell(cell) for cell in (
            f'`{rule.rule_id}`', rule.severity.label, rule.title, rule.why, rule.fix,
            rule.source)) + ' |')
    return '\n'.join(rows)


def render(text: str) -> str:
    """
    Return the document with every marked table rewritten from ``RULES``.

    :param text: the current docs/rules.md
    :return: the document as it should be
    :raises ValueError: a marker names no known group or has no end, or a group has no table
    """
    known = groups()
    parts: List[str] = []
    seen = set()
    position = 0
    for match in _START.finditer(text):
        group = match.group('group')
        if group not in known:
            raise ValueError(f'docs/rules.md names an unknown rule group {group!r} '
                             f'(known: {", ".join(sorted(known))})')
        end = text.find(_END, match.end())
        if end < 0:
            raise ValueError(f'the rules table {group!r} has no {_END}')
        parts.append(text[position:match.end()])
        parts.append(table(known[group]) + '\n')
        position = end
        seen.add(group)
    parts.append(text[position:])
    missing = [group for group in known if group not in seen]
    if missing:
        raise ValueError('docs/rules.md has no table for the rule group(s) '
                         f'{", ".join(missing)}: add "<!-- rules-table: {missing[0]} -->" and '
                         f'"{_END}" where it belongs, then run python -m '
                         'urdf_link_tools.checks.docs')
    return ''.join(parts)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Rewrite (or with --check, compare) docs/rules.md; return the exit status."""
    parser = argparse.ArgumentParser(
        prog='python -m urdf_link_tools.checks.docs',
        description="Write docs/rules.md's rule tables from the rule table RULES.")
    parser.add_argument('path', nargs='?', default=DEFAULT_PATH, help='the file to write')
    parser.add_argument('--check', action='store_true',
                        help='change nothing; exit 1 when the file differs')
    args = parser.parse_args(argv)
    with open(args.path, encoding='utf-8') as stream:
        text = stream.read()
    try:
        wanted = render(text)
    except ValueError as exc:
        sys.stderr.write(f'{exc}\n')
        return 1
    if wanted == text:
        return 0
    if args.check:
        sys.stderr.write(f'{args.path} differs from RULES: run python -m '
                         'urdf_link_tools.checks.docs\n')
        return 1
    with open(args.path, 'w', encoding='utf-8') as stream:
        stream.write(wanted)
    return 0


if __name__ == '__main__':
    sys.exit(main())
