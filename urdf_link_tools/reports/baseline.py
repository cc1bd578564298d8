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
``check --baseline report.json``: report only the findings an earlier JSON report did not have.

Findings are matched by (rule, link, element), not by line, so that editing a file above a
known finding does not make it new again. Each baseline entry absorbs one finding: a link
that had one ``mesh-not-found`` and now has two reports one.

An entry belongs to the file its report was written for (the report's ``source``): it absorbs
findings of that robot only, not the same finding of another robot checked in the same run.
Files are matched by the end of their paths (the most trailing folders in common, the name at
least), so a baseline written in a developer's checkout still matches in CI's. Entries of a
report read from standard input (no ``source``) absorb in every robot, as before.
"""

from __future__ import annotations

from collections import Counter
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from urdf_link_tools.findings import Finding

BaselineKey = Tuple[str, Optional[str], Optional[str]]
#: the largest baseline read: a corpus of 1,000 robots' findings is a few megabytes, and
#: json makes a 64-byte dict of every 3 bytes of '{},' (64 MiB: 1.7 GB, tenth red-team review)
_MAX_BYTES = 16 * 1024 * 1024


def finding_key(finding: Finding) -> BaselineKey:
    """Return what identifies a finding across edits: rule, link and element."""
    return (finding.rule, finding.link, finding.element)


def _parts(path: str) -> Tuple[str, ...]:
    """Return a path's names, last first (either slash: a baseline may come from Windows)."""
    names = [name for name in path.replace('\\', '/').split('/') if name not in ('', '.')]
    return tuple(reversed(names))


def _common_tail(first: Tuple[str, ...], second: Tuple[str, ...]) -> int:
    count = 0
    for a, b in zip(first, second):
        if a != b:
            break
        count += 1
    return count


class Baseline:
    """The findings of an earlier report, by the file each of its robots was read from."""

    def __init__(self, tied: Dict[str, 'Counter[BaselineKey]'],
                 untied: 'Counter[BaselineKey]', path: str = '') -> None:
        """
        Keep the entries.

        :param tied: the report's ``source`` -> its entries
        :param untied: the entries of reports without a source (standard input)
        :param path: the baseline file, for the note on a robot none of it was written for
        """
        self.tied = tied
        self.untied = untied
        self.path = path

    def _matches(self, source: Optional[str]) -> List[str]:
        if source is None or not self.tied:
            return []
        wanted = _parts(os.path.abspath(source))
        depth = {written: _common_tail(wanted, _parts(written)) for written in self.tied}
        best = max(depth.values())
        return [written for written, count in depth.items() if count == best] if best else []

    def entries_for(self, source: Optional[str]) -> 'Counter[BaselineKey]':
        """
        Return the entries that may absorb findings of the robot read from ``source``.

        :param source: the robot's file, or None for standard input
        :return: the entries of the report written for that file (the one whose path ends
            the most like it; several equally alike are merged), and the untied ones
        """
        entries: 'Counter[BaselineKey]' = Counter(self.untied)
        for written in self._matches(source):
            entries |= self.tied[written]
        return entries

    def unmatched_note(self, source: Optional[str]) -> Optional[str]:
        """Return a note when this baseline has reports for files, none of them ``source``."""
        if not self.tied or self.untied or self._matches(source):
            return None
        names = sorted({os.path.basename(written) for written in self.tied})
        more = f' and {len(names) - 5} more' if len(names) > 5 else ''
        listed = ', '.join(names[:5]) + more
        # (imported here: a check without --baseline does not need the text report's module)
        from urdf_link_tools.reports.text import display_path
        what = display_path(source) if source is not None else 'standard input'
        return (f'--baseline {self.path}: none of its reports was written for {what} '
                f'(it has {listed}), so every finding of it is new; write the baseline '
                'with this file among those checked')


def _reports(document: Any) -> Iterable[Any]:
    reports = document.get('reports') if isinstance(document, dict) else None
    for report in reports if isinstance(reports, list) else [document]:
        if isinstance(report, dict):
            yield report


def _entries(report: Dict[str, Any]) -> Iterable[Any]:
    # 'baselined' keeps a baseline complete when a report made with --baseline is reused.
    for name in ('findings', 'baselined'):
        items = report.get(name)
        if isinstance(items, list):
            yield from items


def load_baseline(path: str) -> Baseline:
    """
    Read the findings of an earlier ``check --format json`` report.

    :param path: the JSON file
    :return: how many findings each (rule, link, element) had, by the file of each report
    :raises ValueError: when the file cannot be read or is not such a report
    """
    try:
        with open(path, 'rb') as stream:
            data = stream.read(_MAX_BYTES + 1)
    except OSError as exc:
        raise ValueError(f'--baseline {path}: cannot read: {exc.strerror}') from None
    if len(data) > _MAX_BYTES:
        raise ValueError(f'--baseline {path}: larger than {_MAX_BYTES // 2**20} MiB')
    import json  # here: a check without --baseline does not need it (4 ms)
    try:
        document = json.loads(data)
    except RecursionError:
        raise ValueError(f'--baseline {path}: nested too deeply to be a report of '
                         '`urdf-link-tools check --format json`') from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f'--baseline {path}: not JSON ({exc}); write it with '
                         f'`urdf-link-tools check ROBOT --format json > {path}`') from None
    if not isinstance(document, dict) or not ('findings' in document or 'reports' in document):
        raise ValueError(f'--baseline {path}: not a report of `urdf-link-tools check '
                         '--format json` (no "findings")')
    tied: Dict[str, 'Counter[BaselineKey]'] = {}
    untied: 'Counter[BaselineKey]' = Counter()
    for report in _reports(document):
        source = report.get('source')
        keys = tied.setdefault(source, Counter()) if isinstance(source, str) and source \
            else untied
        for item in _entries(report):
            if isinstance(item, dict) and isinstance(item.get('rule'), str):
                link, element = item.get('link'), item.get('element')
                keys[(item['rule'], link if isinstance(link, str) else None,
                      element if isinstance(element, str) else None)] += 1
    return Baseline(tied, untied, path)


def apply_baseline(findings: Sequence[Finding], baseline: 'Counter[BaselineKey]') -> \
        Tuple[List[Finding], List[Finding]]:
    """
    Split findings into new ones and those already in the baseline.

    :param findings: the findings (in report order)
    :param baseline: entries from :meth:`Baseline.entries_for` (not modified)
    :return: (new findings, findings the baseline already had)
    """
    left = Counter(baseline)
    new: List[Finding] = []
    known: List[Finding] = []
    for finding in findings:
        key = finding_key(finding)
        if left[key] > 0:
            left[key] -= 1
            known.append(finding)
        else:
            new.append(finding)
    return new, known
