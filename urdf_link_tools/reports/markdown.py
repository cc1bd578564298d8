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
``check --format markdown``: a GitHub-flavoured Markdown report for a job summary or a comment.

Per robot: a heading, the counts, a table of the errors and warnings with ``file:line`` (and
the xacro macro chain), then the info findings, the suppressed and the baselined ones in
collapsed ``<details>``. Every text from the description (link names, messages, paths) is
escaped, so a link named ``a|b`` or ``<img src=x>`` stays text in its cell. The tables are
capped at :data:`MAX_ROWS` rows each, as a job summary holds at most 1 MiB.
"""

from __future__ import annotations

import re
from typing import Iterable, List, Sequence

from urdf_link_tools.findings import Finding, Severity
from urdf_link_tools.reports import CheckReport, InputError, Run, summary_dict
from urdf_link_tools.reports.text import display_path, location, plural

#: rows of one table; the rest are counted below it
MAX_ROWS = 300

HEADER = ('Severity', 'Rule', 'Link', 'Where', 'Message', 'Fix')
# CommonMark lets any ASCII punctuation be backslash-escaped; these are the ones that make
# markup inside a line (code, emphasis, links and images, HTML, entities, table cells,
# strikethrough, GitHub's $math$). Markers that count only at the start of a line (#, -, 1.)
# cannot start one here: every line this module writes begins with its own text.
_SPECIAL = re.compile(r'([\\`*_\[\]<>|~&$])')
_BREAKS = re.compile(r'[\x00-\x1f\x7f]+')
#: the start of what GitHub links or replaces in rendered Markdown, up to where a zero-width
#: space breaks it: a URL's scheme or www, '#' before a number, GH- and GHSA-, an emoji's ':'
_LIVE = re.compile(r'(?i)((?:https?|ftp)(?=:)|www(?=\.)|#(?=\d)|\bgh(?=-\d)|\bghsa(?=-)'
                   r'|:(?=[a-z0-9_+-]+:))')
#: characters of one text in a cell; a longer one is cut, with the count of the rest
MAX_CELL = 2000
#: bytes of a whole report: GitHub refuses a job summary over 1 MiB, and with it every
#: robot's findings (a 534-byte xacro of 2 MB link names made 18 MB of Markdown)
MAX_BYTES = 1_000_000


def escape(text: str) -> str:
    """
    Return text that Markdown shows as it is, on one line (safe in a table cell).

    An ``@`` is followed by a zero-width space, as Dependabot writes mentions it quotes: a
    link named ``b@everyone`` or ``@org/team`` in a report posted as a pull request comment
    would notify them (GitHub finds mentions in the rendered text, escaped or not).

    :param text: any text, e.g. a link name from the description
    :return: the text with Markdown's special characters escaped and line breaks as blanks
    """
    if len(text) > MAX_CELL:
        text = f'{text[:MAX_CELL]}... ({len(text) - MAX_CELL:,} characters more)'
    # A file name that is not UTF-8 (its bytes kept as surrogate escapes) shows them as \xff:
    # unescaped, the report could not be encoded (a traceback, no job summary: review 16).
    text = text.encode('utf-8', 'surrogateescape').decode('utf-8', 'backslashreplace')
    text = _SPECIAL.sub(r'\\\1', _BREAKS.sub(' ', text)).replace('@', '@\u200b')
    # What GitHub makes live in rendered text, escaped or not: a URL (www. too), a reference
    # to an issue (#12, owner/repo#12, GH-12) or an advisory (GHSA-...), an emoji code
    # (:rocket:). A zero-width space keeps each text (red-team review 4: a link named
    # https://evil.example/login was a link in the job summary).
    return _LIVE.sub(lambda match: match.group(1) + '\u200b', text)


def _where(finding: Finding, source: str) -> str:
    file = finding.file if finding.file is not None else source
    parts = [escape(location(file, finding.line))]
    parts.extend(f'in macro {escape(repr(call.name))} called at '
                 f'{escape(location(call.file, call.line))}' for call in finding.macro_stack)
    if finding.value_source is not None:
        parts.append(f'value from {escape(location(*finding.value_source))}')
    return '<br>'.join(parts)


def finding_row(finding: Finding, source: str) -> str:
    """Return one table row: severity, rule, link, where, message, fix."""
    element = f'{finding.element}: ' if finding.element else ''
    cells = (finding.severity.label, escape(finding.rule),
             escape(finding.link) if finding.link is not None else '(robot)',
             _where(finding, source), escape(element + finding.message),
             escape(finding.suggestion))
    return '| ' + ' | '.join(cells) + ' |'


def table(findings: Sequence[Finding], source: str) -> List[str]:
    """Return a Markdown table of findings (at most :data:`MAX_ROWS` rows, then a count)."""
    lines = ['| ' + ' | '.join(HEADER) + ' |', '|' + ' --- |' * len(HEADER)]
    lines.extend(finding_row(finding, source) for finding in findings[:MAX_ROWS])
    if len(findings) > MAX_ROWS:
        lines += ['', f'{len(findings) - MAX_ROWS} more not shown here (`--format text` or '
                      '`--format json` lists them all).']
    return lines


def _details(summary: str, body: Iterable[str]) -> List[str]:
    # The blank lines around the body let GitHub render Markdown inside the HTML block.
    return ['', f'<details><summary>{summary}</summary>', '', *body, '', '</details>']


def report_markdown(report: CheckReport) -> List[str]:
    """Return the lines of one robot's section."""
    analysis = report.analysis
    source = analysis.robot.source or report.label
    counts = summary_dict([report])
    name = analysis.robot.name or '(unnamed robot)'
    links = analysis.concerned_links()  # grouped findings count their links
    lines = [f'### {escape(name)} ({escape(display_path(report.label))})', '',
             f"**{plural(counts['error'], 'error')}**, **{plural(counts['warning'], 'warning')}"
             f"**, {counts['info']} info in {len(links)} of {len(analysis.robot.links)} links"
             f" ({counts['suppressed']} suppressed, {counts['baselined']} in the baseline)"]
    serious = [f for f in analysis.findings if f.severity >= Severity.WARNING]
    info = [f for f in analysis.findings if f.severity < Severity.WARNING]
    if serious:
        lines += ['', *table(serious, source)]
    elif not analysis.findings:
        lines += ['', 'No findings.']
    if info:
        lines += _details(f'{plural(len(info), "info")} finding{"s" if len(info) != 1 else ""}',
                          table(info, source))
    if report.suppressed:
        lines += _details(f'{len(report.suppressed)} suppressed by comments',
                          table([finding for finding, _ in report.suppressed], source))
    if report.baselined:
        lines += _details(f'{len(report.baselined)} in the baseline',
                          table(list(report.baselined), source))
    return lines


def format_markdown(reports: Sequence[CheckReport],
                    input_errors: Sequence[InputError] = ()) -> str:
    """
    Render a run as Markdown: a title with the totals, then one section per robot.

    :param reports: one report per robot
    :param input_errors: (path, message, place) of inputs that could not be read
    :return: the Markdown text, ending without a newline
    """
    totals = summary_dict(reports)
    lines = ['## urdf-link-tools check', '',
             f"{plural(totals['error'], 'error')}, {plural(totals['warning'], 'warning')}, "
             f"{totals['info']} info in {plural(len(reports), 'robot')}"
             + (f", {plural(len(input_errors), 'unreadable input')}" if input_errors else '')]
    if input_errors:
        lines += ['', '| Input | Error |', '| --- | --- |']
        lines += [f'| {escape(display_path(path) if path != "-" else "standard input")} | '
                  f'{escape(message)} |' for path, message, _ in input_errors]
    for report in reports:
        lines += [''] + report_markdown(report)
    return _bounded(lines)


def _bounded(lines: List[str]) -> str:
    """Join the lines, cut at the last whole line within :data:`MAX_BYTES` with a note."""
    sizes = [len(line.encode('utf-8')) + 1 for line in lines]
    if sum(sizes) <= MAX_BYTES:
        return '\n'.join(lines)
    note = ('', '**The rest of this report is not shown: a job summary holds at most 1 MiB '
                '(`--format json` or `--format text` lists every finding).**')
    budget = MAX_BYTES - sum(len(line.encode('utf-8')) + 1 for line in note) - 200
    kept: List[str] = []
    used = 0
    opened = 0
    for line, size in zip(lines, sizes):
        if used + size > budget:
            break
        kept.append(line)
        used += size
        opened += line.startswith('<details>') - (line == '</details>')
    if opened > 0:
        kept += ['', '</details>']
    return '\n'.join(kept + list(note))


def render(run: Run) -> str:
    """Render the run as Markdown."""
    return format_markdown(run.reports, run.input_errors)
