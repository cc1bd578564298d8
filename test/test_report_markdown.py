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
``check --format markdown``, rendered as GitHub renders it (markdown-it-py, CommonMark + tables).

The rendered HTML is read back with lxml: the errors and warnings are rows of a table with
their rule, link and ``file:line``, the rest sit in ``<details>``, and names from the
description stay text (no element, no broken cell).
"""

import json
import re

from cli_harness import ROOT, run, SAMPLE
import lxml.html
import pytest
from report_harness import HOSTILE_LINK, HOSTILE_ROOT, write_hostile_robot
from urdf_link_tools.reports import markdown
from urdf_link_tools.reports.text import location

# A test dependency: without it this module is skipped, and `make test` fails the run
# (test/conftest.py); in a plain workspace `colcon test-result` lists the skip.
MarkdownIt = pytest.importorskip('markdown_it').MarkdownIt

RENDERER = MarkdownIt('commonmark').enable('table')
COLUMNS = list(markdown.HEADER)


def rendered(text):
    return lxml.html.fromstring(f'<div>{RENDERER.render(text)}</div>')


def rows(table):
    head = [cell.text_content().strip() for cell in table.xpath('.//thead//th')]
    assert head == COLUMNS
    return [dict(zip(head, (cell.text_content().strip() for cell in row.xpath('./td'))))
            for row in table.xpath('.//tbody/tr')]


def main_table_rows(page):
    """Rows of the tables outside <details>: the errors and warnings."""
    return [row for table in page.xpath('//table[not(ancestor::details)]') for row in rows(table)]


def test_sample_robot_errors_and_warnings_are_table_rows(workdir):
    status, text, _ = run(['check', SAMPLE, '--package-dir', f'urdf_link_tools={workdir}',
                           '--format', 'markdown'])
    _, json_text, _ = run(['check', SAMPLE, '--package-dir', f'urdf_link_tools={workdir}',
                           '--format', 'json'])
    assert status == 2
    findings = json.loads(json_text)['findings']
    serious = [f for f in findings if f['severity'] in ('error', 'warning')]
    assert len(serious) == 7
    page = rendered(text)
    table = main_table_rows(page)
    assert len(table) == len(serious)
    for row, finding in zip(table, serious):
        assert row['Severity'] == finding['severity']
        assert row['Rule'] == finding['rule']
        assert row['Link'] == finding['link']
        assert row['Where'].startswith(location(finding['file'], finding['line']))
        assert finding['message'] in row['Message']
        assert row['Fix'] == finding['suggestion']
    (summary,) = [p.text_content() for p in page.xpath('//p[strong]')]
    assert summary.startswith('3 errors, 4 warnings, 0 info in 4 of 7 links')
    assert not page.xpath('//details')


def test_names_stay_text_and_info_is_collapsed(tmp_path):
    robot = write_hostile_robot(tmp_path)
    status, text, _ = run(['check', str(robot), '--format', 'markdown'])
    assert status == 2
    page = rendered(text)
    # nothing from the description became markup
    assert not page.xpath('//img|//script|//b|//em|//code|//a|//*[@onerror]')
    table = main_table_rows(page)
    assert [(row['Severity'], row['Rule'], row['Link']) for row in table] == [
        ('error', 'inertia-triangle-inequality', HOSTILE_LINK)]
    assert table[0]['Where'] == location(str(robot), 15)
    (details,) = page.xpath('//details')
    assert details.xpath('./summary')[0].text_content() == '1 info finding'
    (info,) = rows(details.xpath('.//table')[0])
    assert (info['Rule'], info['Link']) == ('root-link-inertia', HOSTILE_ROOT)
    assert page.xpath('//h3')[0].text_content().startswith('evil|bot (')


def test_suppressed_baselined_and_unreadable_inputs(workdir, tmp_path):
    _, baseline, _ = run(['check', SAMPLE, '--package-dir', f'urdf_link_tools={workdir}',
                          '--format', 'json'])
    (tmp_path / 'base.json').write_text(baseline)
    status, text, _ = run(['check', SAMPLE, str(tmp_path / 'missing.urdf'), '--package-dir',
                           f'urdf_link_tools={workdir}', '--baseline',
                           str(tmp_path / 'base.json'), '--format', 'markdown'])
    assert status == 3
    page = rendered(text)
    assert 'No findings.' in page.text_content()
    (details,) = page.xpath('//details')
    assert details.xpath('./summary')[0].text_content() == '7 in the baseline'
    assert len(rows(details.xpath('.//table')[0])) == 7
    (inputs,) = page.xpath('//table[thead//th="Input"]')
    assert 'missing.urdf' in inputs.xpath('.//td')[0].text_content()


@pytest.mark.parametrize('text', ['a|b', '<img src=x>', '*x* _y_ `z`', '[l](http://x)', 'a\nb',
                                  '\\|', '&amp;', '$x$', '~~s~~'])
def test_escape_shows_the_text_itself(text):
    cell = rendered(f'| h |\n| --- |\n| {markdown.escape(text)} |').xpath('//td')[0]
    # (a URL's scheme gets a zero-width space, as GitHub links URLs in the text itself)
    assert cell.text_content().replace('\u200b', '') == text.replace('\n', ' ')
    assert not len(cell)  # no child element: it stayed text


@pytest.mark.parametrize('text', ['https://evil.example/login', 'www.evil.example',
                                  'torvalds/linux#1', '#12', 'GH-12', 'GHSA-xxxx-yyyy-zzzz',
                                  ':rocket:'])
def test_escape_leaves_nothing_github_makes_live(text):
    # Red-team review 4: a link named https://evil.example/login was a link in the job
    # summary, torvalds/linux#1 a cross-reference shown on that issue, :rocket: an emoji. A
    # zero-width space shows the same text and breaks each pattern GitHub looks for.
    shown = markdown.escape(text)
    assert shown.replace('\u200b', '') == text and '\u200b' in shown
    assert not re.search(r'(?i)https?:|www\.|#\d|gh-\d|ghsa-|:[a-z]+:', shown), shown


def test_markdown_stays_under_the_job_summary_limit(tmp_path):
    # Red-team review 4: a 534-byte xacro of three links named by 2 MB strings made 18 MB
    # of Markdown, which GitHub refuses as a job summary, with every robot's findings.
    # (Names past 4,096 bytes are refused by the parser since; these are long, not that long.)
    names = ['A' * 4_000 + str(index) for index in range(300)]
    body = ''.join(f'<link name="{name}"><inertial><mass value="-1"/><inertia ixx="1" '
                   'ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>'
                   for name in names)
    robot = tmp_path / 'big.urdf'
    robot.write_text(f'<robot name="big">{body}</robot>')
    status, text, _ = run(['check', str(robot), '--no-meshes', '--format', 'markdown'])
    assert status == 2 and len(text.encode('utf-8')) <= markdown.MAX_BYTES, len(text)
    assert 'characters more)' in text


@pytest.mark.parametrize('text', ['b@everyone', '@org/team', 'x @user y'])
def test_escape_mentions_nobody(text):
    # A report posted as a pull request comment: GitHub notifies the @name it finds in the
    # rendered text. A zero-width space after the @ shows the same name and mentions nobody.
    cell = rendered(f'| h |\n| --- |\n| {markdown.escape(text)} |').xpath('//td')[0]
    shown = cell.text_content()
    assert shown.replace('\u200b', '') == text
    assert not re.search(r'@[A-Za-z0-9]', shown)


def test_tables_are_capped(monkeypatch, tmp_path):
    monkeypatch.setattr(markdown, 'MAX_ROWS', 0)
    _, text, _ = run(['check', str(write_hostile_robot(tmp_path)), '--format', 'markdown'])
    assert '1 more not shown here' in text


def test_xacro_macro_chain_in_the_where_cell():
    robot = ROOT / 'test' / 'data' / 'xacro_robot'
    _, text, _ = run(['check', str(robot / 'urdf' / 'robot.urdf.xacro'), '--package-dir',
                      f'demo_description={robot}', '--format', 'markdown'])
    (row,) = [row for row in main_table_rows(rendered(text)) if row['Link'] == 'upper_link']
    where = row['Where']
    assert where.startswith(location(str(robot / 'urdf' / 'inertia_macros.xacro'), 8))
    assert "in macro 'box_inertial' called at " in where and 'arm_macros.xacro:13' in where
    assert "in macro 'arm_segment' called at " in where and 'robot.urdf.xacro:25' in where


def test_a_report_over_the_limit_is_cut_at_a_whole_line_with_its_details_closed():
    lines = ['## urdf-link-tools check', '', '<details><summary>x</summary>', '']
    lines += [f'| info | r | l{index} | w | {"m" * 2000} | f |' for index in range(1000)]
    text = markdown._bounded(lines + ['', '</details>'])
    assert len(text.encode('utf-8')) <= markdown.MAX_BYTES
    assert text.count('<details>') == text.count('</details>') == 1
    assert text.endswith('lists every finding).**')


def test_a_file_name_that_is_not_utf8_is_shown_as_its_bytes(tmp_path):
    # Red-team review 16: a robot (or an included part) named robot\xff.urdf made
    # --format markdown print a UnicodeEncodeError traceback and no job summary.
    import os
    import shutil
    robot = os.path.join(os.fsencode(tmp_path), b'robot\xff.urdf')
    shutil.copy(SAMPLE, robot)
    status, out, err = run(['check', '--format', 'markdown', '--fail-on', 'never', '--',
                            os.fsdecode(robot)])
    assert status == 0 and 'Traceback' not in err
    assert 'robot\\\\xff.urdf)' in out
