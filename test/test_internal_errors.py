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
A bug in this tool is reported as such: an ERROR-level internal-error, exit status 5.

A failing check is injected into the runner's table of checks (the checks are real; only one
is added that raises on one link), and the CLI is run on the sample robot.
"""

import json

from cli_harness import checkout_with_samples, run, SAMPLE
import pytest
from urdf_link_tools import checks
from urdf_link_tools.analysis import analyze
from urdf_link_tools.cli import EXIT_INTERNAL, EXIT_USAGE
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.parser import parse_urdf_string


def _broken_on_my_link(ctx, link):
    if link.name == 'my_link':
        raise ZeroDivisionError('float division by zero')
    return iter(())


def _broken_robot_check(ctx):
    raise KeyError('no such thing')


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    return checkout_with_samples(tmp_path, monkeypatch)


@pytest.fixture
def broken_link_check(monkeypatch):
    # The failing check runs first on each link, ahead of the real ones.
    monkeypatch.setattr(checks, 'LINK_CHECKS', (_broken_on_my_link,) + checks.LINK_CHECKS)


def test_a_failing_check_is_an_error_with_exit_5_naming_check_and_link(workdir,
                                                                       broken_link_check):
    status, out, err = run(['check', SAMPLE, '--format', 'json'])
    assert status == EXIT_INTERNAL == 5
    findings = json.loads(out)['findings']
    internal = [f for f in findings if f['rule'] == 'internal-error']
    assert len(internal) == 1
    assert internal[0]['severity'] == 'error' and internal[0]['link'] == 'my_link'
    assert 'test_internal_errors._broken_on_my_link failed on link' in internal[0]['message']
    assert "'my_link'" in internal[0]['message']
    assert 'ZeroDivisionError: float division by zero' in internal[0]['message']
    assert 'Traceback' not in err
    # The other links' findings, and the other checks on my_link, are all still there.
    rules = {(f['link'], f['rule']) for f in findings}
    assert ('arm_link', 'inertia-triangle-inequality') in rules
    assert ('my_link', 'inertia-exceeds-extent') in rules
    assert ('my_link', 'density-implausible') in rules


def test_the_traceback_only_with_verbose(workdir, broken_link_check):
    status, out, err = run(['check', SAMPLE, '--verbose'])
    assert status == 5
    assert 'Traceback (most recent call last)' in err
    assert 'ZeroDivisionError' in err and '_broken_on_my_link' in err
    assert ('error: internal-error: the check test_internal_errors._broken_on_my_link '
            "failed on link 'my_link'") in out
    status, out, err = run(['check', SAMPLE])
    assert status == 5 and 'Traceback' not in err + out


def test_exit_5_whatever_fail_on_ignore_or_baseline_say(workdir, broken_link_check):
    assert run(['check', SAMPLE, '--fail-on', 'never'])[0] == 5
    status, _, err = run(['check', SAMPLE, '--ignore', 'internal-error'])
    assert status == EXIT_USAGE and 'internal-error cannot be ignored' in err
    status, out, _ = run(['check', SAMPLE, '--format', 'json'])
    (workdir / 'base.json').write_text(out)
    status, out, _ = run(['check', SAMPLE, '--format', 'json', '--baseline', 'base.json'])
    assert status == 5
    assert [f['rule'] for f in json.loads(out)['findings']] == ['internal-error']
    with open(SAMPLE, encoding='utf-8') as stream:
        text = stream.read()
    # An inline comment naming the rule does not hide it either.
    (workdir / 'quiet.urdf').write_text(text.replace(
        '<link name="my_link">', '<link name="my_link"><!-- urdf-link-tools: ignore '
        'internal-error because it is known -->'))
    status, out, _ = run(['check', 'quiet.urdf', '--format', 'json'])
    assert status == 5
    assert 'internal-error' in {f['rule'] for f in json.loads(out)['findings']}


def test_reports_show_the_failure_whatever_fail_on_says(workdir, broken_link_check):
    # Sweep G: with --fail-on never the run exits 5, while the JUnit report passed every test
    # case and SARIF said the execution was successful: CI's report showed green.
    status, out, _ = run(['check', SAMPLE, '--format', 'junit', '--fail-on', 'never'])
    assert status == 5
    from xml.etree import ElementTree
    root = ElementTree.fromstring(out)
    assert root.get('failures') == '1'
    (failure,) = root.iter('failure')
    assert 'internal-error' in failure.get('type')
    status, out, _ = run(['check', SAMPLE, '--format', 'sarif', '--fail-on', 'never'])
    (invocation,) = json.loads(out)['runs'][0]['invocations']
    assert status == 5 and invocation == {'executionSuccessful': False, 'exitCode': 5}


def test_without_the_failure_the_status_is_the_findings(workdir):
    assert run(['check', SAMPLE])[0] == 2


def test_a_failing_robot_check_and_config_ignore_rules(monkeypatch):
    monkeypatch.setattr(checks, 'CHECKS', (_broken_robot_check,) + checks.CHECKS)
    robot = parse_urdf_string('<robot name="r"><link name="a"/></robot>')
    analysis = analyze(robot, CheckConfig(check_meshes=False,
                                          ignore_rules=('internal-error',)))
    internal = [f for f in analysis.findings if f.rule == 'internal-error']
    assert len(internal) == 1 and internal[0].link is None
    assert internal[0].severity == Severity.ERROR
    assert "the check test_internal_errors._broken_robot_check failed: KeyError: 'no such " \
           "thing'" in internal[0].message


def test_a_failing_source_tracer_is_the_tools_failure_and_the_expansion_is_checked(
        monkeypatch, tmp_path):
    import os
    from xacro_child_patch import FAILING_TRACER, patch_child
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    robot_dir = os.path.join(root, 'test', 'data', 'xacro_robot')
    top = os.path.join(robot_dir, 'urdf', 'robot.urdf.xacro')
    args = ['check', top, f'--package-dir=demo_description={robot_dir}', '--no-meshes',
            '--format', 'json']
    status, out, err = run(args)
    clean = json.loads(out)['findings']
    assert status == 2 and clean and 'internal-error' not in {f['rule'] for f in clean}
    patch_child(monkeypatch, tmp_path, FAILING_TRACER)
    status, out, err = run(args)
    assert status == EXIT_INTERNAL, err
    findings = json.loads(out)['findings']
    internal = [f for f in findings if f['rule'] == 'internal-error']
    assert len(internal) == 1 and internal[0]['severity'] == 'error'
    assert internal[0]['message'].startswith(
        'the xacro source tracer (writing the line table) failed: IndexError: injected '
        'tracer bug')
    assert 'urdf-link-tools: error' not in err and 'Traceback' not in err, err
    # The plain expansion was checked: the same findings, at lines of the expansion.
    assert {(f['rule'], f['link']) for f in findings} - {('internal-error', None)} == \
        {(f['rule'], f['link']) for f in clean}
    assert all(f['file'].endswith('robot.urdf.xacro (expanded)')
               for f in findings if f['rule'] != 'internal-error')
    status, _, err = run(args + ['--verbose'])
    assert status == EXIT_INTERNAL
    assert 'Traceback' in err and 'IndexError: injected tracer bug' in err


def test_verbose_prints_the_traceback_where_ros_launch_stopped_propagation(
        workdir, broken_link_check, monkeypatch):
    # In colcon test of a ROS workspace, launch_testing's pytest plugin imports launch, whose
    # LaunchLogger class makes every logger created afterwards not propagate: the package's
    # loggers kept their records from the handler --verbose puts on 'urdf_link_tools', and the
    # traceback was not printed (a new user's workspace, this round).
    import logging
    for name in ('urdf_link_tools.checks', 'urdf_link_tools.analysis'):
        monkeypatch.setattr(logging.getLogger(name), 'propagate', False)
    monkeypatch.setattr(logging.getLogger('urdf_link_tools.analysis'), 'disabled', True)
    status, _, err = run(['check', SAMPLE, '--verbose'])
    assert status == 5 and 'Traceback (most recent call last)' in err, err
    assert logging.getLogger('urdf_link_tools.checks').propagate is False  # restored
