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
Hostile descriptions sent to the running node over robot_description, and to the CLI.

Documents the node must refuse (empty, not XML, truncated, another root, 50 MB, 100,000
nested elements, entity bombs, external entities) leave it alive, still serving the last
good model, with one ERROR status ``urdf_link_tools: robot_description`` that names the
problem and its line; ``urdf-link-tools check`` exits with the input-error status and the
same reason. What urdfdom refuses element by element (a blank link name, a vector of the
wrong length) is an ERROR finding at its line instead, and the rest of the robot is served.
Descriptions that are valid but hostile (duplicate, unicode or blank-padded names, 10,000
links) become the model in service and are served as they are. An external
entity's target file is never read: its content appears in no message, answer or log.
"""

import io
import json
import os
from pathlib import Path
import subprocess
import sys
import time

from diagnostic_msgs.msg import DiagnosticStatus
from hostile_harness import Hostile, non_finite, numeric_attributes, TEMPLATE, TEMPLATE_LINKS
from hostile_harness import texts, with_value
import pytest
from ros_harness import NodeSession, REPO

pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

from urdf_link_tools.cli import EXIT_ERRORS, EXIT_INPUT, main as cli_main  # noqa: E402
from urdf_link_tools.msg import Finding  # noqa: E402

PACKAGE_DIRS = [f'urdf_link_tools={REPO}']
GOOD = TEMPLATE.replace('name="template"', 'name="last_good"')
SECRET = 'HOSTILE_SECRET_5d1c0e77'
DEPTH = 100_000
FIFTY_MB = 50 * 1000 * 1000


def _labels(array):
    """Return the frames of an array's label markers, in order."""
    return [m.header.frame_id for m in array.markers if m.ns == 'labels']


def _truncated() -> str:
    lines = GOOD.splitlines()
    # Cut in the middle of line 31, the second link's start tag.
    return '\n'.join(lines[:30]) + '\n' + lines[30][:len(lines[30]) // 2]


def _fifty_megabytes() -> str:
    # Valid XML all through (comments are dropped by the parser): only its size is wrong.
    pad = '<!-- ' + 'padding ' * 12 + '-->\n'
    head, tail = GOOD.split('</robot>')
    return head + pad * ((FIFTY_MB - len(GOOD)) // len(pad) + 1) + '</robot>\n'


def _deep() -> str:
    return ('<?xml version="1.0"?>\n<robot name="deep">\n' + '<a>\n' * DEPTH
            + '</a>\n' * DEPTH + '</robot>\n')


BILLION_LAUGHS = '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n' + ''.join(
    f' <!ENTITY lol{i} "' + f'&lol{i - 1 if i > 1 else ""};' * 10 + '">\n'
    for i in range(1, 10)) + ']>\n<robot name="&lol9;"><link name="&lol9;"/></robot>\n'

# id -> (document, what the diagnostic must say, its line or None)
REFUSED = {
    'empty': ('', ['the robot description is empty'], None),
    'blank': (' \n\t \n', ['the robot description is empty'], None),
    'not_xml': ('this is not a robot description\n', ['not well-formed XML'], 1),
    'truncated': (_truncated(), ['not well-formed XML', 'is the file complete?'], 31),
    'not_robot': ('<?xml version="1.0"?>\n<sdf version="1.9"><model name="m"/></sdf>\n',
                  ['the root element is <sdf>, expected <robot>'], 2),
    'nul_reference': ('<robot name="a&#0;b"><link name="a"/></robot>',
                      ['not well-formed XML', 'invalid xmlChar value 0'], 1),
    'billion_laughs': (BILLION_LAUGHS, ['declares XML entities'], 1),
    'nested_100k': (None, ['not well-formed XML', 'Excessive depth in document'], 258),
    'fifty_megabytes': (None, ['larger than the limit'], None),
}
LARGE = {'nested_100k': _deep, 'fifty_megabytes': _fifty_megabytes}

# External resources naming a local file; every one is refused without opening it.
EXTERNAL = {
    'entity': '<!DOCTYPE robot [<!ENTITY x SYSTEM "file://{path}">]>\n'
              '<robot name="&x;"><link name="a"><visual><geometry><box size="1 1 1"/>'
              '</geometry><material name="&x;"/></visual></link></robot>\n',
    'entity_in_text': '<!DOCTYPE robot [<!ENTITY x SYSTEM "{path}">]>\n'
                      '<robot name="r"><link name="a">&x;</link></robot>\n',
    'parameter_entity': '<!DOCTYPE robot [<!ENTITY % x SYSTEM "file://{path}"> %x;]>\n'
                        '<robot name="r"><link name="a"/></robot>\n',
    'external_dtd': '<!DOCTYPE robot SYSTEM "file://{path}">\n'
                    '<robot name="r"><link name="a"/></robot>\n',
}
EXTERNAL_NEEDLES = {'entity': 'declares XML entities', 'entity_in_text': 'declares XML entities',
                    'parameter_entity': 'declares XML entities',
                    'external_dtd': 'external DTD'}


def _document(case: str) -> str:
    text, _, _ = REFUSED[case]
    return LARGE[case]() if case in LARGE else text


@pytest.fixture(scope='module')
def hostile():
    with NodeSession('hostile_desc', {'package_dirs': PACKAGE_DIRS}) as session:
        hostile = Hostile(session)
        hostile.client.publish_description(GOOD)
        hostile.wait_robot('last_good')
        yield hostile


def chain_robot(links: int, name: str) -> str:
    """Return the benchmarks' generated chain (bench/generate.py) of ``links`` links."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from bench.generate import chain_robot as generate

    return generate(links, name=name)


def _cli(tmp_path: Path, text: str, name: str = 'robot.urdf'):
    path = tmp_path / name
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    status = cli_main(['check', str(path), '--package-dir', PACKAGE_DIRS[0]], out=out, err=err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize('case', list(REFUSED))
def test_hostile_refused_description(hostile, case, tmp_path):
    text = _document(case)
    _, needles, line = REFUSED[case]
    since, _, _ = hostile.publish(text)
    status = hostile.wait_rejection(since, needles)  # its timeout is the hang guard
    assert status.level == DiagnosticStatus.ERROR
    assert "still serving the last good model 'last_good'" in status.message
    values = {item.key: item.value for item in status.values}
    if line is not None:
        assert f'line {line}:' in status.message
        assert values['line'] == str(line)
    assert values['model in service'] == 'last_good'
    hostile.assert_serving('last_good')
    assert hostile.link_geometry('arm').success

    status, out, err = _cli(tmp_path, text)
    assert status == EXIT_INPUT, (out, err[-500:])
    for needle in needles:
        assert needle in err, err[-500:]
    if line is not None:
        assert f'line {line}:' in err


def _vectors():
    seen = set()
    for attribute in numeric_attributes(GOOD):
        if len(attribute.tokens) > 1 and (attribute.tag, attribute.name) not in seen:
            seen.add((attribute.tag, attribute.name))
            yield pytest.param(attribute, id=f'{attribute.tag}-{attribute.name}')


def _served_with_finding(hostile, tmp_path, text, name, line, fragment, severity='error'):
    """Publish a recoverable defect: it is served, with the finding at its line; restore."""
    hostile.publish(text.replace('name="last_good"', f'name="{name}"'))
    hostile.wait_robot(name)
    findings = [f for link in TEMPLATE_LINKS + ('',)
                for f in hostile.link_findings(link).findings]
    level = Finding.WARNING if severity == 'warning' else Finding.ERROR
    assert any(f.severity == level and f.line == line and fragment in f.message
               for f in findings), [(f.rule, f.line, f.message) for f in findings]
    hostile.publish(GOOD)
    hostile.wait_robot('last_good')
    path = tmp_path / 'robot.urdf'
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    status = cli_main(['check', str(path), '--format', 'json', '--package-dir',
                       PACKAGE_DIRS[0]], out=out, err=err)
    if severity == 'error':
        assert status == EXIT_ERRORS, err.getvalue()
    assert any(f['severity'] == severity and f['line'] == line and fragment in f['message']
               for f in json.loads(out.getvalue())['findings'])


def test_hostile_blank_link_name_is_an_error_finding(hostile, tmp_path):
    text = GOOD.replace('<link name="arm">', '<link name="  ">')
    _served_with_finding(hostile, tmp_path, text, 'blank_name', 31,
                         'a <link> needs a non-empty name attribute')


@pytest.mark.parametrize('attribute', list(_vectors()))
def test_hostile_wrong_vector_lengths(hostile, attribute, tmp_path):
    count = len(attribute.tokens)
    for index, wrong in enumerate((attribute.tokens[:-1], attribute.tokens + ('0',))):
        text = with_value(GOOD, attribute, ' '.join(wrong))
        # urdfdom drops a malformed colour and refuses the rest; MuJoCo (a default target)
        # refuses the colour too: an error either way.
        _served_with_finding(hostile, tmp_path, text, f'{attribute.tag}_{index}',
                             attribute.element_line,
                             f'{attribute.name} needs {count} numbers, got {len(wrong)}',
                             'error')


def test_hostile_duplicate_link_names(hostile, tmp_path):
    duplicate = GOOD.replace('name="last_good"', 'name="duplicates"').replace(
        '  <joint name="j2"', '  <link name="arm"/>\n  <joint name="j2"')
    line = duplicate.splitlines().index('  <link name="arm"/>') + 1
    since, marks, _ = hostile.publish(duplicate)
    answer = hostile.wait_robot('duplicates')
    assert [row.name for row in answer.links] == list(TEMPLATE_LINKS)  # the first 'arm' only
    (finding,) = [f for f in hostile.link_findings('arm').findings
                  if f.rule == 'link-duplicate-name']
    assert finding.severity == Finding.ERROR and finding.line == line
    statuses = hostile.wait_statuses(since, 'duplicates')
    arm = statuses['urdf_link_tools: arm']
    assert arm.level == DiagnosticStatus.ERROR and 'used again' in arm.message
    array = hostile.wait_markers(marks, where=lambda array: _labels(array) == list(TEMPLATE_LINKS))
    assert _labels(array) == list(TEMPLATE_LINKS)
    hostile.client.publish_description(GOOD)
    hostile.wait_robot('last_good')
    status, out, _ = _cli(tmp_path, duplicate)
    assert status == EXIT_ERRORS and 'link-duplicate-name' in out


NAMES = {'base': 'bäse_🤖_基座', 'arm': 'ссылка arm', 'tool': ' padded\ttool '}


def test_hostile_unicode_and_whitespace_names(hostile, tmp_path):
    text = GOOD.replace('name="last_good"', 'name="робот_🤖"')
    for old, new in NAMES.items():
        escaped = new.replace('\t', '&#9;')
        text = text.replace(f'name="{old}"', f'name="{escaped}"').replace(
            f'link="{old}"', f'link="{escaped}"')
    since, marks, _ = hostile.publish(text)
    answer = hostile.wait_robot('робот_🤖')
    names = list(NAMES.values())
    assert [row.name for row in answer.links] == names
    assert answer.root_link == names[0]
    for name in names:
        geometry = hostile.link_geometry(name)
        assert geometry.success and geometry.frame_id == name, geometry.message
        assert not non_finite(geometry)
        assert hostile.link_findings(name).success
    near = hostile.link_geometry('ссылка  arm')
    assert not near.success and "did you mean 'ссылка arm'" in near.message
    statuses = hostile.wait_statuses(since, 'робот_🤖')
    assert {f'urdf_link_tools: {name}' for name in names} <= set(statuses)
    array = hostile.wait_markers(marks, where=lambda array: set(_labels(array)) == set(names))
    assert set(_labels(array)) == set(names)
    hostile.client.publish_description(GOOD)
    hostile.wait_robot('last_good')
    status, out, _ = _cli(tmp_path, text)
    assert status == 0 and 'робот_🤖: 0 errors' in out and 'bäse_🤖_基座' in out, out


def test_hostile_ten_thousand_links(hostile, tmp_path):
    text = chain_robot(10_000, name='ten_thousand')
    start = time.monotonic()
    since, marks, _ = hostile.publish(text)
    answer = hostile.wait_robot('ten_thousand', timeout=150.0)
    served = time.monotonic() - start
    assert len(answer.links) == 10_000 and answer.root_link == 'link_0'
    array = hostile.wait_markers(marks, timeout=150.0, where=lambda array: any(
        m.header.frame_id == 'link_9999' for m in array.markers))
    drawn = time.monotonic() - start
    assert len({m.header.frame_id for m in array.markers if m.ns == 'labels'}) == 10_000
    assert not non_finite(hostile.link_geometry('link_9999'))
    statuses = hostile.wait_statuses(since, 'ten_thousand', timeout=60.0)
    # More links than diagnostics_max_link_statuses (200): one status per rule, not 10,000.
    assert 'urdf_link_tools: links' in statuses
    assert all(name == 'urdf_link_tools: links' or name.startswith('urdf_link_tools: rule ')
               for name in statuses if name.startswith('urdf_link_tools: ')), sorted(statuses)
    assert len(statuses) < 50
    print(f'10,000 links: served after {served:.1f} s, markers after {drawn:.1f} s')
    hostile.client.publish_description(GOOD)
    hostile.wait_robot('last_good', timeout=60.0)
    status, out, _ = _cli(tmp_path, text)
    assert status == 0 and 'ten_thousand: 0 errors' in out, out[-300:]


def test_hostile_external_entities_never_leak(tmp_path, monkeypatch):
    """The secret file is never read: not in any message, answer, CLI output or log."""
    secret = tmp_path / 'secret.txt'
    secret.write_text(SECRET + '\n')
    dtd = tmp_path / 'secret.dtd'
    dtd.write_text(f'<!ENTITY leak "{SECRET}">\n')
    log_dir = tmp_path / 'ros_log'
    log_dir.mkdir()
    monkeypatch.setenv('ROS_LOG_DIR', str(log_dir))
    documents = {case: template.format(path=dtd if case == 'external_dtd' else secret)
                 for case, template in EXTERNAL.items()}
    # Not XML entities, but the same question: a mesh and an XInclude naming the file.
    xinclude = GOOD.replace('name="last_good"', 'name="xinclude"').replace(
        '<robot ', '<robot xmlns:xi="http://www.w3.org/2001/XInclude" ').replace(
        '<link name="tool">', f'<link name="tool">\n    <xi:include href="{secret}" '
        'parse="text"/>')
    mesh = GOOD.replace('name="last_good"', 'name="mesh_secret"').replace(
        'package://urdf_link_tools/samples/meshes/arm_collision.stl', f'file://{secret}')
    seen = []
    with NodeSession('hostile_secret', {'package_dirs': PACKAGE_DIRS}) as session:
        hostile = Hostile(session)
        hostile.client.publish_description(GOOD)
        hostile.wait_robot('last_good')
        for case, text in documents.items():
            since, _, _ = hostile.publish(text)
            status = hostile.wait_rejection(since, [EXTERNAL_NEEDLES[case]])
            assert status.level == DiagnosticStatus.ERROR
            hostile.assert_serving('last_good')
        for text, name in ((xinclude, 'xinclude'), (mesh, 'mesh_secret')):
            since, marks, _ = hostile.publish(text)
            seen.append(hostile.wait_robot(name))
            hostile.wait_markers(marks)
            hostile.wait_statuses(since, name)
            for link in TEMPLATE_LINKS:
                seen.append(hostile.link_findings(link))
                for group in ('collision', 'visual', '{http://www.w3.org/2001/XInclude}include'):
                    seen.append(hostile.link_geometry(link, group, triangles=True))
            seen.append(hostile.link_findings(''))
        findings = {f.rule for f in hostile.link_findings('tool').findings}
        assert 'mesh-unreadable' in findings  # the .txt was refused, not read
        seen.extend(hostile.diagnostics + hostile.markers)
    leaked = [text for message in seen for text in texts(message) if SECRET in text]
    assert not leaked, leaked[:3]
    output = session.process.output()
    assert 'rejected' in output and SECRET not in output
    logs = [path for path in log_dir.rglob('*') if path.is_file()]
    assert logs, 'the node wrote no ROS log file: ROS_LOG_DIR was not used'
    assert any('rejected' in path.read_text(errors='replace') for path in logs)
    for path in logs:
        assert SECRET not in path.read_text(errors='replace'), path
    for case, text in list(documents.items()) + [('xinclude', xinclude), ('mesh', mesh)]:
        path = tmp_path / f'{case}.urdf'
        path.write_text(text)
        done = subprocess.run(
            [sys.executable, '-m', 'urdf_link_tools.cli', 'check', str(path), '--format',
             'json', '--package-dir', PACKAGE_DIRS[0]], capture_output=True, text=True,
            timeout=120, cwd=str(REPO), env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                [str(REPO), os.environ.get('PYTHONPATH', '')])))
        assert done.returncode in (EXIT_INPUT, EXIT_ERRORS, 0, 1), done.stderr
        assert SECRET not in done.stdout + done.stderr, case
        if case in EXTERNAL:
            assert done.returncode == EXIT_INPUT and EXTERNAL_NEEDLES[case] in done.stderr
