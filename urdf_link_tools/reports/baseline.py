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
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, List, Optional, Sequence, Tuple

from urdf_link_tools.findings import Finding

BaselineKey = Tuple[str, Optional[str], Optional[str]]
_MAX_BYTES = 64 * 1024 * 1024


def finding_key(finding: Finding) -> BaselineKey:
    """Return what identifies a finding across edits: rule, link and element."""
    return (finding.rule, finding.link, finding.element)


def _entries(document: Any) -> Iterable[Any]:
    reports = document.get('reports') if isinstance(document, dict) else None
    for report in reports if isinstance(reports, list) else [document]:
        if not isinstance(report, dict):
            continue
        # 'baselined' keeps a baseline complete when a report made with --baseline is reused.
        for name in ('findings', 'baselined'):
            items = report.get(name)
            if isinstance(items, list):
                yield from items


def load_baseline(path: str) -> 'Counter[BaselineKey]':
    """
    Read the findings of an earlier ``check --format json`` report.

    :param path: the JSON file
    :return: how many findings each (rule, link, element) had
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
    keys: 'Counter[BaselineKey]' = Counter()
    for item in _entries(document):
        if isinstance(item, dict) and isinstance(item.get('rule'), str):
            link, element = item.get('link'), item.get('element')
            keys[(item['rule'], link if isinstance(link, str) else None,
                  element if isinstance(element, str) else None)] += 1
    return keys


def apply_baseline(findings: Sequence[Finding], baseline: 'Counter[BaselineKey]') -> \
        Tuple[List[Finding], List[Finding]]:
    """
    Split findings into new ones and those already in the baseline.

    :param findings: the findings (in report order)
    :param baseline: from :func:`load_baseline` (not modified)
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
