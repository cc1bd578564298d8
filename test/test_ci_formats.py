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
CI formats of ``check``: SARIF against the official schema, GitHub annotations, text.

The sample robot is copied into a temporary working directory, so that paths are relative to
it as in a CI checkout, and edited there where a test needs a comment or a new mistake.
"""

import io
import json
import os
import pathlib
import re

from cli_harness import checkout_with_samples, ROOT, run, SAMPLE
import pytest
from urdf_link_tools.checks import RULES
from urdf_link_tools.cli import EXIT_ERRORS, EXIT_INPUT, EXIT_OK, EXIT_USAGE, EXIT_WARNINGS
from urdf_link_tools.reports.github import escape_property, workflow_command

# A test dependency: without it this module is skipped, and `make test` fails the run
# (test/conftest.py); in a plain workspace `colcon test-result` lists the skip.
jsonschema = pytest.importorskip('jsonschema')

SCHEMA = json.loads((ROOT / 'test' / 'data' / 'sarif' / 'sarif-schema-2.1.0.json').read_text())
VALIDATOR = jsonschema.Draft4Validator(SCHEMA)
ANNOTATION = re.compile(r'^::(error|warning|notice)(?: ([^:]*))?::(.*)$')


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """Make a checkout-like working directory holding samples/ (robot and meshes)."""
    return checkout_with_samples(tmp_path, monkeypatch)


def check(workdir, *extra, robots=(SAMPLE,)):
    return run(['check', *robots, '--package-dir', f'urdf_link_tools={workdir}', *extra])


def head(finding):
    """Return the first line of a finding as the formats write it: element: message."""
    return (f"{finding['element']}: " if finding['element'] else '') + finding['message']


def assert_valid_sarif(log):
    errors = sorted(VALIDATOR.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, '\n'.join(f'{list(e.path)}: {e.message}' for e in errors[:10])


def test_schema_copy_is_the_official_one():
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    assert SCHEMA['id'].endswith('/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json')
    assert SCHEMA['title'] == 'Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema'
    # the validator is not a pushover: a result without its required message is refused
    assert list(VALIDATOR.iter_errors({'version': '2.1.0', 'runs': [
        {'tool': {'driver': {'name': 'x'}}, 'results': [{'ruleId': 'r'}]}]}))


def test_sarif_sample_robot(workdir):
    status, out, _ = check(workdir, '--format', 'sarif')
    log = json.loads(out)
    assert_valid_sarif(log)
    assert status == EXIT_ERRORS
    _, json_out, _ = check(workdir, '--format', 'json')
    findings = json.loads(json_out)['findings']
    run_ = log['runs'][0]
    rules = run_['tool']['driver']['rules']
    results = run_['results']
    assert len(results) == len(findings) == 7
    for result, finding in zip(results, findings):
        assert result['ruleId'] == finding['rule']
        assert rules[result['ruleIndex']]['id'] == finding['rule']
        assert result['level'] == {'error': 'error', 'warning': 'warning'}[finding['severity']]
        physical = result['locations'][0]['physicalLocation']
        assert physical['artifactLocation'] == {'uri': SAMPLE, 'uriBaseId': '%SRCROOT%'}
        assert physical['region'] == {'startLine': finding['line']}
        assert result['message']['text'] == f"{head(finding)}\nFix: {finding['suggestion']}"
        assert result['locations'][0]['logicalLocations'][0]['name'] == finding['link']
        assert 'suppressions' not in result and 'baselineState' not in result
    assert run_['originalUriBaseIds']['%SRCROOT%']['uri'] == workdir.as_uri() + '/'
    assert run_['invocations'][0] == {'executionSuccessful': True, 'exitCode': EXIT_ERRORS}
    assert run_['properties']['summary'] == {'error': 3, 'warning': 4, 'info': 0,
                                             'suppressed': 0, 'baselined': 0}
    # every documented rule, with its metadata from the rule table
    assert [rule['id'] for rule in rules] == sorted(RULES)
    for descriptor in rules:
        rule = RULES[descriptor['id']]
        assert descriptor['shortDescription']['text'] == rule.title
        assert rule.fix in descriptor['help']['text'] and rule.why in descriptor['help']['text']
        assert descriptor['defaultConfiguration']['level'] == {
            'error': 'error', 'warning': 'warning', 'info': 'note'}[rule.severity.label]
    # fingerprints follow the baseline identity (rule, link, element): one per finding here
    prints = {result['partialFingerprints']['urdfLinkTools/v2'] for result in results}
    assert len(prints) == len(results)


def test_sarif_file_outside_the_working_directory(workdir, tmp_path_factory, monkeypatch):
    elsewhere = tmp_path_factory.mktemp('elsewhere')
    monkeypatch.chdir(elsewhere)
    status, out, _ = run(['check', str(workdir / SAMPLE), '--format', 'sarif', '--no-meshes'])
    log = json.loads(out)
    assert_valid_sarif(log)
    location = log['runs'][0]['results'][0]['locations'][0]['physicalLocation']
    assert location['artifactLocation'] == {'uri': (workdir / SAMPLE).as_uri()}


def test_sarif_input_error_and_stdin(workdir, monkeypatch):
    pathlib.Path('broken.urdf').write_text('<robot name="x"><link name="a"></robot>')
    status, out, err = check(workdir, '--format', 'sarif', robots=(SAMPLE, 'broken.urdf'))
    assert status == EXIT_INPUT and err.startswith('urdf-link-tools: error: broken.urdf: ')
    log = json.loads(out)
    assert_valid_sarif(log)
    invocation = log['runs'][0]['invocations'][0]
    assert invocation['executionSuccessful'] is False and invocation['exitCode'] == EXIT_INPUT
    note = invocation['toolExecutionNotifications'][0]
    assert note['level'] == 'error' and 'line 1' in note['message']['text']
    assert note['locations'][0]['physicalLocation']['artifactLocation']['uri'] == 'broken.urdf'
    assert len(log['runs'][0]['results']) == 7  # the readable robot is still reported
    # standard input has no file: the result keeps its line only in the text
    monkeypatch.setattr('sys.stdin', io.TextIOWrapper(io.BytesIO(
        b'<robot name="s"><link name="a"/><joint name="j" type="revolute"><parent link="a"/>'
        b'<child link="b"/><axis xyz="0 0 1"/><limit effort="1" velocity="1" lower="0" '
        b'upper="1"/></joint><link name="b"/></robot>')))
    status, out, _ = run(['check', '-', '--format', 'sarif'])
    log = json.loads(out)
    assert_valid_sarif(log)
    assert status == EXIT_ERRORS
    assert 'physicalLocation' not in log['runs'][0]['results'][0]['locations'][0]


def parse_annotations(text):
    """Read workflow commands back as the Actions runner does (unescaping as @actions/core)."""
    def unescape(value):
        return (value.replace('%0D', '\r').replace('%0A', '\n').replace('%3A', ':')
                .replace('%2C', ',').replace('%25', '%'))
    found = []
    for line in text.splitlines():
        match = ANNOTATION.match(line)
        if match is None:
            continue
        properties = {}
        for item in (match.group(2) or '').split(','):
            if item:
                name, _, value = item.partition('=')
                properties[name] = unescape(value)
        found.append((match.group(1), properties, unescape(match.group(3))))
    return found


def test_github_annotations_parse_back(workdir):
    status, out, _ = check(workdir, '--format', 'github')
    assert status == EXIT_ERRORS
    annotations = parse_annotations(out)
    findings = json.loads(check(workdir, '--format', 'json')[1])['findings']
    assert len(annotations) == len(findings) == 7
    for (command, properties, message), finding in zip(annotations, findings):
        assert command == finding['severity']
        assert properties == {'file': SAMPLE, 'line': str(finding['line']),
                              'title': f"{finding['rule']} ({finding['link']})"
                              if finding['link'] else finding['rule']}
        lines = message.split('\n')
        assert lines[0] == head(finding)
        assert lines[1] == f"fix: {finding['suggestion']}"
    # the plain summary line is not a command
    summary = out.splitlines()[-1]
    assert summary == f' {SAMPLE}: 3 errors, 4 warnings, 0 info (0 suppressed, 0 in the baseline)'


def test_github_escaping_cannot_inject_commands():
    message = 'moments 1%, 2%\r\n::error::injected\nfix: a:b,c'
    line = workflow_command('warning', message, (('file', 'we,ird:name.urdf'), ('line', 7),
                                                 ('title', 'rule:x,y'), ('col', None)))
    # one line: a newline in the message cannot start a second command
    assert '\n' not in line and '\r' not in line
    assert line.startswith('::warning file=we%2Cird%3Aname.urdf,line=7,title=rule%3Ax%2Cy::')
    [(command, properties, text)] = parse_annotations(line)
    assert (command, text) == ('warning', message)
    assert properties == {'file': 'we,ird:name.urdf', 'line': '7', 'title': 'rule:x,y'}
    assert escape_property('100%') == '100%25'


def test_text_leads_with_file_and_line(workdir):
    status, out, _ = check(workdir)
    lines = out.splitlines()
    assert lines[0] == f'link my_link ({SAMPLE}:60): 1 error, 1 warning'
    assert lines[1].startswith(f'{SAMPLE}:64: error: inertia-exceeds-extent: '
                               "inertial/inertia: the moment about the link's x axis")
    assert lines[2].startswith('    fix: the tensor of the collision geometry')
    assert f'{SAMPLE}:95: error: inertia-triangle-inequality: ' in out
    assert f'{SAMPLE}:152: error: mass-not-positive: has no <inertial> but moves' in out
    # groups are separated by a blank line, the summary closes
    assert lines[lines.index('') + 1].startswith('link arm_link (')
    assert lines[-1] == 'sample_robot: 3 errors, 4 warnings, 0 info in 4 of 7 links'


def test_fail_on_and_usage_exit_codes(workdir):
    warn_only = pathlib.Path('warn.urdf')
    warn_only.write_text(
        '<robot name="w"><link name="a"><visual><geometry><box size="1 1 1"/></geometry>'
        '<material name="Nope"/></visual></link></robot>')
    assert run(['check', 'warn.urdf'])[0] == EXIT_OK
    assert run(['check', 'warn.urdf', '--fail-on', 'warning'])[0] == EXIT_WARNINGS
    assert run(['check', 'warn.urdf', '--strict'])[0] == EXIT_WARNINGS
    assert run(['check', 'warn.urdf', '--fail-on', 'never'])[0] == EXIT_OK
    assert check(workdir, '--fail-on', 'never')[0] == EXIT_OK
    assert check(workdir, '--fail-on', 'warning')[0] == EXIT_ERRORS
    # several robots: the worst counts, an unreadable one wins over findings
    assert run(['check', 'warn.urdf', SAMPLE, '--no-meshes'])[0] == EXIT_ERRORS
    pathlib.Path('broken.urdf').write_text('<robot')
    status, out, err = run(['check', 'warn.urdf', 'broken.urdf'])
    assert status == EXIT_INPUT and 'material-undefined' in out and err.count('\n') == 1
    # a wrong command line exits 4 (argparse's own errors included), never 2
    for args in (['check'], ['check', 'warn.urdf', '--format', 'xml'],
                 ['check', 'warn.urdf', '--fail-on', 'sometimes'], ['bogus']):
        with pytest.raises(SystemExit) as exit_:
            run(args)
        assert exit_.value.code == EXIT_USAGE, args
    status, _, err = run(['check', 'warn.urdf', '--baseline', 'missing.json'])
    assert status == EXIT_USAGE and 'missing.json' in err
    status, _, err = run(['check', 'warn.urdf', 'warn.urdf', '--fix-inertia', 'x.urdf'])
    assert status == EXIT_USAGE and 'one robot' in err
    assert not os.path.exists('x.urdf')


def test_an_annotation_title_names_the_links_its_finding_is_about():
    # franka's inertials macro: eight links' errors on one line of utils.xacro, the annotation
    # (all a reviewer sees) naming none of them.
    from urdf_link_tools.findings import Finding, Severity
    from urdf_link_tools.reports.github import annotation_title
    one = Finding('inertia-triangle-inequality', Severity.ERROR, 'm', link='fer_link4')
    assert annotation_title(one) == 'inertia-triangle-inequality (fer_link4)'
    many = Finding('inertial-placeholder', Severity.ERROR, 'm', links=('a', 'b', 'c', 'd', 'e'))
    assert annotation_title(many) == 'inertial-placeholder (a, b, c and 2 more)'
    assert annotation_title(Finding('robot-empty', Severity.ERROR, 'm')) == 'robot-empty'
