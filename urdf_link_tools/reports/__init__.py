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
What ``check`` reports, and the one registry of its output formats.

Each format is a module of this package with ``render(run: Run) -> str`` (and ``OUTPUT``,
how :mod:`~urdf_link_tools.reports.sanitize` neutralises it, when not ``'text'``);
:data:`FORMATS` names it, :func:`render` imports it only when that format is asked for
(the CLI's start-up pays for the format it prints, not for all of them).
:mod:`~urdf_link_tools.reports.build` applies the inline suppression comments and the baseline
that every format shares.
"""

from __future__ import annotations

import importlib
from typing import Dict, Mapping, Optional, Sequence, Tuple, TYPE_CHECKING

from urdf_link_tools.records import record

if TYPE_CHECKING:  # pragma: no cover - typing only: keeps this registry free of the core
    from urdf_link_tools.analysis import Analysis
    from urdf_link_tools.findings import Finding
    from urdf_link_tools.reports.suppression import Suppression


@record
class CheckReport:
    """
    What ``check`` reports about one robot.

    :param analysis: the analysis; its findings are the reported ones (suppressed and
        baselined findings removed)
    :param label: how to name the input (the path as given, or 'standard input')
    :param suppressed: findings an inline comment silenced, with that comment
    :param baselined: findings already in the ``--baseline`` report
    :param places: for a xacro input, where each link was written (file, line): the
        parsed lines are the expansion's; None for a URDF input
    """

    analysis: 'Analysis'
    label: str
    suppressed: Tuple[Tuple['Finding', 'Suppression'], ...] = ()
    baselined: Tuple['Finding', ...] = ()
    places: Optional[Mapping[str, Tuple[str, int]]] = None


#: An input that could not be read: (path, message, (file, line) where known, else None).
InputError = Tuple[str, str, Optional[Tuple[str, int]]]


@record
class Run:
    """
    Everything one ``check`` run reports: what each format renders.

    :param reports: one per robot checked
    :param input_errors: the inputs that could not be read (:data:`InputError`)
    :param exit_code: the run's exit status
    :param baseline_path: the ``--baseline`` file, if any
    :param fail_on: which findings fail the run: 'error', 'warning' or 'never' (``--fail-on``)
    """

    reports: Tuple[CheckReport, ...]
    input_errors: Tuple[InputError, ...] = ()
    exit_code: Optional[int] = None
    baseline_path: Optional[str] = None
    fail_on: str = 'error'


#: Output format -> (module of this package that renders it, what ``--help`` says of it).
FORMATS: Dict[str, Tuple[str, str]] = {
    'text': ('text', 'text grouped by link (default)'),
    'json': ('json_report', 'one JSON object'),
    'jsonl': ('jsonl', 'JSON Lines: one object per robot, streamed as each is done'),
    'sarif': ('sarif', 'SARIF 2.1.0 for code scanning'),
    'github': ('github', 'GitHub Actions annotations'),
    'markdown': ('markdown', 'Markdown for a job summary or a pull-request comment'),
    'junit': ('junit', 'JUnit XML, one test case per link'),
    'html': ('html', 'one self-contained HTML page: the robot in 3D beside its findings'),
}


def render(output_format: str, reports: Sequence[CheckReport],
           input_errors: Sequence[InputError] = (), exit_code: Optional[int] = None,
           baseline_path: Optional[str] = None, fail_on: str = 'error') -> str:
    """
    Render the reports of one run in one of :data:`FORMATS`.

    :param output_format: a key of :data:`FORMATS`
    :param reports: one per robot checked
    :param input_errors: the inputs that could not be read (:data:`InputError`; the formats for
        machines carry them; text and JSON leave them to stderr)
    :param exit_code: the run's exit status (SARIF records it)
    :param baseline_path: the --baseline file, if any
    :param fail_on: which findings fail the run (JUnit marks those test cases failed)
    :return: the text to print (empty when there is nothing to print)
    """
    from urdf_link_tools.reports.sanitize import neutralise
    module = importlib.import_module(f'{__name__}.{FORMATS[output_format][0]}')
    text = module.render(Run(tuple(reports), tuple(input_errors), exit_code, baseline_path,
                             fail_on))
    # The one output boundary: names, files and messages from the description may not carry
    # CI commands or terminal controls (reports/sanitize.py says how a format declares itself).
    return neutralise(text, getattr(module, 'OUTPUT', 'text'))


def summary_dict(reports: Sequence[CheckReport]) -> Dict[str, int]:
    """Return the counts of reported, suppressed and baselined findings over reports."""
    summary = {'error': 0, 'warning': 0, 'info': 0, 'suppressed': 0, 'baselined': 0}
    for report in reports:
        for label, count in report.analysis.counts().items():
            summary[label] += count
        summary['suppressed'] += len(report.suppressed)
        summary['baselined'] += len(report.baselined)
    return summary
