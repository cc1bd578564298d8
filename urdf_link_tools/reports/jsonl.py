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
``check --format jsonl``: JSON Lines, one object per robot, written as each robot is done.

Each line is the object ``--format json`` gives for one robot (``robot``, ``source``,
``counts``, ``findings``, ``summary``...); an input that could not be read is a line
``{"source": PATH, "error": MESSAGE}``. A run over 100,000 robots can be read line by line
(``jq -c``, a Ray or Spark reader) while it is still going.
"""

from __future__ import annotations

import json

from urdf_link_tools.reports import CheckReport, Run
from urdf_link_tools.reports.json_report import error_source, json_safe, report_to_dict

#: neutralised as JSON (reports/sanitize.py); the CLI streams each line through it too
OUTPUT = 'json'


def report_line(report: CheckReport) -> str:
    """Return one robot's line (no newline)."""
    return json.dumps(json_safe(report_to_dict(report)), allow_nan=False, separators=(',', ':'))


def error_line(path: str, message: str) -> str:
    """Return the line of an input that could not be read (no newline)."""
    return json.dumps({'source': error_source(path), 'error': message}, separators=(',', ':'))


def render(run: Run) -> str:
    """Render every robot, then every unreadable input, one line each."""
    return '\n'.join([report_line(report) for report in run.reports]
                     + [error_line(path, message) for path, message, _ in run.input_errors])
