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
The documentation that quotes the code is checked against it: rule tables and sample output.

docs/rules.md's rule tables are generated from ``RULES``
(``python -m urdf_link_tools.checks.docs``); the README's sample report is the CLI's output
on samples/sample_robot.urdf, with ``...`` where lines are left out.
"""

import pathlib
import re

from cli_harness import checkout_with_samples, run, SAMPLE
import pytest
from urdf_link_tools.checks import docs, RULES

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_rules_tables_are_generated_from_rules():
    path = ROOT / 'docs' / 'rules.md'
    text = path.read_text(encoding='utf-8')
    wanted = docs.render(text)
    assert wanted == text, (
        'docs/rules.md differs from RULES: run python -m urdf_link_tools.checks.docs '
        '(edit the Rule in urdf_link_tools/checks, not the table)')


def test_every_rule_has_exactly_one_row():
    text = (ROOT / 'docs' / 'rules.md').read_text(encoding='utf-8')
    # only the generated tables: other tables (targets, severity policy) name rules too
    tables = re.findall(r'<!-- rules-table: .*?<!-- end rules-table -->', text, re.DOTALL)
    rows = re.findall(r'^\| `([a-z0-9-]+)` \| (?:error|warning|info) \|', '\n'.join(tables),
                      re.MULTILINE)
    assert sorted(rows) == sorted(RULES)


def test_a_changed_rule_or_a_missing_table_is_noticed():
    text = (ROOT / 'docs' / 'rules.md').read_text(encoding='utf-8')
    edited = text.replace('| `mass-not-finite` | error |', '| `mass-not-finite` | warning |')
    assert edited != text and docs.render(edited) == text
    start = text.index('<!-- rules-table: joints')
    without = text[:start] + text[text.index('<!-- end rules-table -->', start) + 24:]
    with pytest.raises(ValueError, match='no table for the rule group.*joints'):
        docs.render(without)
    assert docs.main(['--check', str(ROOT / 'docs' / 'rules.md')]) == 0


def _readme_sample() -> list:
    text = (ROOT / 'README.md').read_text(encoding='utf-8')
    start = text.index('```text\nlink ')
    block = text[start + len('```text\n'):text.index('\n```', start)]
    return block.splitlines()


def test_readme_sample_output_is_the_clis(tmp_path, monkeypatch):
    checkout_with_samples(tmp_path, monkeypatch)
    # The package directory named, as the ament index does in the set-up environment (the
    # Python 3.10 stage has no ament prefix).
    status, out, _ = run(['check', SAMPLE, '--package-dir', f'urdf_link_tools={tmp_path}'])
    assert status == 2
    produced = out.splitlines()
    # Each README line appears in the output, in order; '...' stands for lines left out, and
    # a line that follows another directly in the README follows it in the output too.
    position = 0
    adjacent = False
    for line in _readme_sample():
        if line == '...':
            adjacent = False
            continue
        if adjacent:
            assert position < len(produced) and produced[position] == line, (
                f'README sample line not in the output where shown: {line!r}')
        else:
            assert line in produced[position:], f'README sample line not in the output: {line!r}'
            position = produced.index(line, position)
        position += 1
        adjacent = True
    assert produced[-1] == _readme_sample()[-1]


def test_the_fix_inertia_priority_in_docs_is_the_code_s():
    # docs/rules.md lists the rules whose tensor --fix-inertia writes, in fix.PRIORITY's
    # order (it had drifted: three rules added to the code were missing from the text).
    from urdf_link_tools.fix import PRIORITY
    text = (ROOT / 'docs' / 'rules.md').read_text(encoding='utf-8')
    paragraph = text[text.index('- `--fix-inertia` writes, per link,'):]
    paragraph = paragraph[:paragraph.index('(`fix.PRIORITY`)')]
    assert tuple(re.findall(r'`(inertial?-[a-z-]+)`', paragraph)) == PRIORITY
