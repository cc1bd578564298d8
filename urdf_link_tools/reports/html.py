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
``check --format html``: one self-contained page with the robot in 3D beside its findings.

The page is ``html_assets/report.html`` with the style sheet, the vendored three.js bundle,
the page's own scripts (``view.js``: the 3D view; ``report.js``: the panel) and the data of
each robot inlined: no request leaves the
file, so it opens offline, from a CI artifact or an e-mail attachment. The data is JSON in a
``<script type="application/json">`` element with ``<``, ``>``, ``&`` and the line separators
written as JSON's unicode escapes, so no name in a description can end the element (a link named
``</script>`` stays a name); the script writes every text with ``textContent``. A
Content-Security-Policy allows only the three inlined scripts (by hash) and no connection.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from pathlib import Path
import re
from typing import Dict

from urdf_link_tools.reports import Run, summary_dict
from urdf_link_tools.reports.json_report import json_safe

ASSETS = Path(__file__).resolve().parent / 'html_assets'
_PLACEHOLDER = re.compile(r'\{\{([A-Z_]+)\}\}')
# '#' too: the output boundary (reports/sanitize.py) rewrites a legacy '##[' CI command as
# '##\x5b', which is no JSON escape; written as '\u0023' the data keeps its meaning.
_JSON_ESCAPES = {'<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '#': '\\u0023',
                 '\u2028': '\\u2028', '\u2029': '\\u2029'}


def embedded_json(value: object) -> str:
    """
    Return JSON safe inside an HTML ``<script>`` element.

    :param value: JSON-ready data (NaN and infinity become strings)
    :return: the JSON text, with no ``<``, ``>``, ``&`` or ``#`` in it
    """
    try:
        text = json.dumps(value, allow_nan=False, separators=(',', ':'))
    except ValueError:  # a NaN or an infinity somewhere: rare, so the slow copy only then
        text = json.dumps(json_safe(value), allow_nan=False, separators=(',', ':'))
    return re.sub('[<>&#\u2028\u2029]', lambda match: _JSON_ESCAPES[match.group(0)], text)


def inline_script(code: str) -> str:
    """
    Return script code that cannot end its ``<script>`` element early.

    ``</script`` would close the element and ``<!--`` puts the HTML parser into its
    escaped state. Written with the slash escaped and the ``!`` as a hexadecimal escape they
    mean the same in a JavaScript string or regular expression (unicode ones too), the only
    places they can occur in code.
    """
    code = re.sub(r'</(script)', r'<\\/\1', code, flags=re.IGNORECASE)
    return code.replace('<!--', '<\\x21--')


def _sha256(code: str) -> str:
    digest = hashlib.sha256(code.encode('utf-8')).digest()
    return "'sha256-" + base64.b64encode(digest).decode('ascii') + "'"


def fill(template: str, values: Dict[str, str]) -> str:
    """
    Replace each ``{{NAME}}`` of a template in one pass (inserted text is never re-read).

    :param template: the page
    :param values: NAME -> text
    :return: the page
    :raises KeyError: for a placeholder without a value
    """
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], template)


def format_html(run: Run) -> str:
    """
    Render a run as one HTML page (several robots: a selector at the top).

    :param run: the run
    :return: the page
    """
    from urdf_link_tools.reports.scene import build_scene

    scenes = [build_scene(report.analysis, report.label) for report in run.reports]
    data = {'robots': scenes, 'summary': summary_dict(run.reports),
            'input_errors': [{'path': path, 'message': message}
                             for path, message, _ in run.input_errors],
            'fail_on': run.fail_on}
    three, view, script = (inline_script((ASSETS / name).read_text(encoding='utf-8'))
                           for name in ('three.bundle.min.js', 'view.js', 'report.js'))
    names = ', '.join(scene['robot'] or '(unnamed robot)' for scene in scenes)
    policy = ("default-src 'none'; img-src data: blob:; style-src 'unsafe-inline'; "
              'script-src ' + ' '.join(_sha256(code) for code in (three, view, script)))
    return fill((ASSETS / 'report.html').read_text(encoding='utf-8'), {
        'TITLE': html.escape(f'urdf-link-tools: {names or "no robot"}'),
        'POLICY': html.escape(policy),
        'STYLE': (ASSETS / 'report.css').read_text(encoding='utf-8').replace('</', '<\\/'),
        'THREE': three, 'VIEW': view, 'SCRIPT': script, 'DATA': embedded_json(data),
    })


def render(run: Run) -> str:
    """Render the run as an HTML page."""
    return format_html(run)
