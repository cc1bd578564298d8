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
Output cannot carry CI commands or terminal controls, whatever a description names.

A robot file named like a workflow command, with link names holding newlines, ``::`` commands,
the legacy ``##[...]`` form, C1 controls and a bidi override, and a xacro file that relays
the same through ``xacro.message``, are checked by the real CLI in a child process, in every
format and with ``info``; no line of stdout or stderr may be a command or hold a control.
"""

import json
import os
import re

import pytest
from test_ci_formats import assert_valid_sarif
from trust_harness import package, run_measured
from urdf_link_tools.reports.sanitize import guard_line_starts, neutralise, NeutralStream

HOSTILE_FILE = '::warning title=x::a\x1b[2J\u202e.urdf'
HOSTILE_NAMES = ['a&#10;::add-mask::s3cret', 'b&#10;  ::error file=x::forged',
                 'c ##[warning]legacy', 'd\u202eevil', 'e\u0085f\u009b31m',
                 'g&#10;::stop-commands::tok', 'h ##vso[task.setvariable variable=X]1',
                 'i ##teamcity[buildStatus text=forged]',
                 'j&#10;ssh-ed25519 AAAAC3Nza attacker@evil&#10;']
CONTROLS = re.compile('[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029'
                      '\u202a-\u202e\u2066-\u2069\ufeff]')
OWN_COMMAND = re.compile(r'::(error|warning|notice)( [^:]*)?::')


def assert_clean(text, commands_allowed=False):
    for line in text.split('\n'):
        assert not CONTROLS.search(line), repr(line)
        assert not re.search(r'##(vso|teamcity)?\[', line, re.IGNORECASE), repr(line)
        assert not line.startswith('ssh-ed25519'), repr(line)   # a name's own line
        if line.lstrip().startswith('::'):
            # only the github format's own annotations: properties escaped (no ':'), and
            # the message, after the second '::', is data to the runner
            assert commands_allowed and OWN_COMMAND.match(line), repr(line)


def _robot(tmp_path):
    links = ''.join(f'<link name="{name}"><inertial><mass value="-1"/></inertial></link>'
                    for name in HOSTILE_NAMES)
    folder = tmp_path / 'robot_description'
    package(folder)
    robot = folder / HOSTILE_FILE
    robot.write_text(f'<robot name="r\u202e&#10;::error::x">{links}</robot>')
    return robot


@pytest.mark.parametrize('output', ['text', 'json', 'sarif', 'github'])
def test_no_format_prints_a_command_or_a_control(tmp_path, output):
    robot = _robot(tmp_path)
    result = run_measured(['check', '--format', output, robot.name], cwd=str(robot.parent))
    assert result.returncode == 2, result.stderr
    assert 'Traceback' not in result.stderr
    assert_clean(result.stdout, commands_allowed=output == 'github')
    assert_clean(result.stderr)
    if output in ('json', 'sarif'):
        document = json.loads(result.stdout)   # still valid, and the names unchanged
        text = json.dumps(document, ensure_ascii=False)
        assert 'd\u202eevil' in text and 'c ##[warning]legacy' in text
    if output == 'sarif':
        assert_valid_sarif(document)
    if output == 'github':
        # the hostile file name cannot turn the plain summary line into a command
        assert result.stdout.splitlines()[-1].startswith(' \\x3a:warning')


def test_info_and_the_fixer_notes_are_neutralised(tmp_path):
    robot = _robot(tmp_path)
    result = run_measured(['info', robot.name], cwd=str(robot.parent))
    assert result.returncode == 0, result.stderr
    assert '\\u202e' in result.stdout
    assert_clean(result.stdout)
    assert_clean(result.stderr)


@pytest.mark.parametrize('output', ['text', 'github', 'sarif'])
@pytest.mark.parametrize('relay, status, said', [
    ("xacro.message('one\\n::error::forged \\x1b[2J \\u202e ##[warning]legacy') or ''", 0,
     'xacro says'),
    ("xacro.fatal('\\n::add-mask::x \\x9b')", 3, 'error:'),
])
def test_relayed_xacro_messages_are_neutralised(tmp_path, output, relay, status, said):
    robot = tmp_path / 'm\x1b]0;title\x07.urdf.xacro'
    robot.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                     f'<link name="a${{{relay}}}"/></robot>')
    result = run_measured(['check', '--format', output, robot.name], cwd=str(tmp_path))
    assert result.returncode == status, result.stderr
    assert said in result.stderr
    assert 'Traceback' not in result.stderr
    assert_clean(result.stdout, commands_allowed=output == 'github')
    assert_clean(result.stderr)


def test_an_error_naming_a_file_with_line_breaks_is_one_line(tmp_path):
    # An included file named 'p<LF>robot: 0 errors...<LF>urdf-link-tools: all robots
    # passed<LF>.xacro', broken: its name in the error printed the two lines on their own,
    # a fake verdict in the log (red-team review). And a missing file's path is said once.
    forged = 'p\nrobot: 0 errors, 0 warnings\nurdf-link-tools: all robots passed\n.xacro'
    (tmp_path / forged).write_text('<robot')
    robot = tmp_path / 'robot.urdf.xacro'
    robot.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                     f'<xacro:include filename="{forged}"/></robot>')
    result = run_measured(['check', robot.name], cwd=str(tmp_path))
    assert result.returncode == 3, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith('urdf-link-tools: error: robot.urdf.xacro'), \
        result.stderr
    assert not any(line.startswith('urdf-link-tools: all robots passed') for line in lines)
    result = run_measured(['check', 'missing.urdf'], cwd=str(tmp_path))
    assert result.stderr == 'urdf-link-tools: error: missing.urdf: no such file\n'


@pytest.mark.parametrize('text, style, shown', [
    ('a\x1bb', 'text', 'a\\x1bb'),
    ('a\x1bb', 'json', 'a\\u001bb'),
    ('x\u202ey', 'text', 'x\\u202ey'),
    ('x ##[error]y', 'text', 'x ##\\x5berror]y'),
    ('x ##[error]y', 'json', 'x ##\\u005berror]y'),
    ('x ##vso[task.complete]y', 'text', 'x ##vso\\x5btask.complete]y'),   # Azure Pipelines
    ('x ##VSO[a]', 'json', 'x ##VSO\\u005ba]'),
    ('##teamcity[message]', 'text', '##teamcity\\x5bmessage]'),          # TeamCity
    ('ok\n \u00a0::error::x', 'text', 'ok\n \u00a0\\x3a:error::x'),
    ('::error::x', 'commands', '::error::x'),
    ('tab\tand\nnewline', 'text', 'tab\tand\nnewline'),
    ('\r\x85\x7f', 'text', '\\x0d\\x85\\x7f'),
])
def test_neutralise(text, style, shown):
    assert neutralise(text, style) == shown
    assert neutralise(shown, style) == shown   # idempotent


def test_guard_and_stream(tmp_path):
    assert guard_line_starts(' ::x::y') == ' \\x3a:x::y'
    assert guard_line_starts('a ::x') == 'a ::x'
    with open(tmp_path / 'out', 'w') as raw:
        NeutralStream(raw).write('::add-mask::x\x1b\n')
    assert (tmp_path / 'out').read_text() == '\\x3a:add-mask::x\\x1b\n'
    with pytest.raises(ValueError):
        neutralise('x', 'html')


@pytest.mark.parametrize('option', [
    ['check', '-o', 'OUT'], ['check', '--format', 'html', '-o', 'OUT'],
    ['check', '--emit-urdf', 'OUT'], ['check', '--fix-inertia', 'OUT'],
    ['collisions', '--samples', '10', '-o', 'OUT']])
def test_no_output_is_written_through_a_planted_symbolic_link(tmp_path, option):
    # A pull request commits report.txt as a link to a file the runner may write: the
    # report would replace it (and a name with a line feed chose whole lines of it).
    victim = tmp_path / 'authorized_keys'
    victim.write_text('ssh-ed25519 AAAA owner@host\n')
    folder = tmp_path / 'checkout'
    package(folder)
    (folder / 'robot.urdf').write_text(
        '<robot name="r"><link name="a"/><joint name="j" type="revolute"><parent link="a"/>'
        '<child link="b"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" '
        'velocity="1"/></joint><link name="b"><inertial><mass value="1"/><inertia ixx="1" '
        'ixy="0" ixz="0" iyy="1" iyz="0" izz="3"/></inertial></link></robot>')
    (folder / 'out').symlink_to(victim)
    command, *rest = option
    args = [command, 'robot.urdf'] + [item if item != 'OUT' else 'out' for item in rest]
    result = run_measured(args, cwd=str(folder))
    assert result.returncode == 4, result.stderr
    assert 'symbolic link' in result.stderr and 'Traceback' not in result.stderr
    assert victim.read_text() == 'ssh-ed25519 AAAA owner@host\n'
    assert (folder / 'out').is_symlink()
    # ... nor through a folder committed as a link (reports -> a folder elsewhere)
    elsewhere = tmp_path / 'elsewhere'
    elsewhere.mkdir()
    (folder / 'reports').symlink_to(elsewhere)
    args = [command, 'robot.urdf'] + [item if item != 'OUT' else 'reports/out' for item in rest]
    result = run_measured(args, cwd=str(folder))
    assert result.returncode == 4, result.stderr
    assert 'its folder reports is a symbolic link' in result.stderr, result.stderr
    assert list(elsewhere.iterdir()) == []
    # ... nor from a job working in a package folder (-o ../reports/out), nor by an absolute
    # path into the checkout from elsewhere: the link is in the package either way.
    (folder / 'pkg').mkdir()
    (folder / 'pkg' / 'robot.urdf').write_text((folder / 'robot.urdf').read_text())
    for cwd, out in ((folder / 'pkg', '../reports/out'), (tmp_path, str(folder / 'reports/out'))):
        robot = str(folder / 'pkg' / 'robot.urdf')
        args = [command, robot] + [item if item != 'OUT' else out for item in rest]
        result = run_measured(args, cwd=str(cwd))
        assert result.returncode == 4, result.stderr
        assert 'is a symbolic link of the checkout' in result.stderr, result.stderr
        assert list(elsewhere.iterdir()) == []
    # A link outside any repository or package (the runner's /tmp) is written through.
    outside = tmp_path / 'runner'
    outside.mkdir()
    (outside / 'tmp').symlink_to(elsewhere)
    args = [command, str(folder / 'robot.urdf')] + [
        item if item != 'OUT' else str(outside / 'tmp' / 'out') for item in rest]
    result = run_measured(args, cwd=str(folder))
    assert 'symbolic link' not in result.stderr, result.stderr
    # (collisions writes nothing where coal is missing: the Python 3.10 pass)
    assert (elsewhere / 'out').exists() or 'coal' in result.stderr, result.stderr


def test_a_working_directory_committed_as_a_link_is_not_written_through(tmp_path):
    # working-directory: my_robot_description, which a pull request made a link to a folder
    # outside the checkout: os.getcwd() is already past the link, $PWD still names it.
    victim = tmp_path / 'victim'
    victim.mkdir()
    (victim / 'report.sarif').write_text('precious\n')
    checkout = tmp_path / 'checkout'
    (checkout / '.git').mkdir(parents=True)
    (checkout / 'my_robot_description').symlink_to(victim)
    (victim / 'robot.urdf').write_text('<robot name="r"><link name="a"/></robot>')
    cwd = checkout / 'my_robot_description'
    result = run_measured(['check', 'robot.urdf', '--format', 'sarif', '-o', 'report.sarif'],
                          cwd=str(cwd), env=dict(os.environ, PWD=str(cwd)))
    assert result.returncode == 4, result.stderr
    assert 'is a symbolic link of the checkout' in result.stderr, result.stderr
    assert (victim / 'report.sarif').read_text() == 'precious\n'


@pytest.mark.parametrize('option', ['--package-dir', '--xacro-allow-dir', '--fix-allow-dir'])
def test_a_folder_to_read_committed_as_a_link_is_refused(tmp_path, option):
    # A pull request replaces src/my_robot_gazebo, which CI names with --package-dir, by a
    # link to /: xacro's load_yaml('$(find my_robot_gazebo)/...') read any file of the runner.
    secret = tmp_path / 'outside' / 'secret.yaml'
    secret.parent.mkdir()
    secret.write_text('name: TOPSECRET\n')
    checkout = tmp_path / 'checkout'
    (checkout / '.git').mkdir(parents=True)
    package(checkout / 'src' / 'my_robot_description', 'my_robot_description')
    (checkout / 'src' / 'my_robot_gazebo').symlink_to(secret.parent)
    robot = checkout / 'src' / 'my_robot_description' / 'robot.urdf.xacro'
    robot.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        "<xacro:property name='s' value=\"${xacro.load_yaml('$(find my_robot_gazebo)/"
        "secret.yaml')}\"/><link name=\"leak_${s['name']}\"/></robot>")
    value = 'my_robot_gazebo=src/my_robot_gazebo' if option == '--package-dir' else \
        'src/my_robot_gazebo'
    result = run_measured(['check', option, value, '--', str(robot)], cwd=str(checkout))
    assert result.returncode == 4, result.stderr
    assert 'src/my_robot_gazebo is a symbolic link of the checkout' in result.stderr
    assert 'TOPSECRET' not in result.stdout + result.stderr


def test_a_file_name_that_is_not_utf8_is_reported_not_a_crash(tmp_path):
    # A committed file named evil<0xff>.urdf: SARIF and every -o output died of a
    # UnicodeEncodeError (exit 1, an empty report), and --cache and --shard ended the run.
    folder = tmp_path / 'pkg'
    package(folder)
    robot = ('<robot name="r"><link name="a"/><joint name="j" type="revolute"><parent '
             'link="a"/><child link="b"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" '
             'effort="1" velocity="1"/></joint><link name="b"><inertial><mass value="1"/>'
             '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"/></inertial></link>'
             '</robot>')
    evil = os.fsdecode(bytes(folder) + b'/evil\xff.urdf')
    with open(evil, 'w') as stream:
        stream.write(robot)
    (folder / 'good.urdf').write_text(robot.replace('izz="3"', 'izz="1"'))
    cache = tmp_path / 'cache'
    cache.mkdir(mode=0o700)
    for options in (['--format', 'sarif', '-o', 'out.sarif'], ['-o', 'out.txt'],
                    ['--cache', str(cache), '--format', 'jsonl'],
                    ['--shard', '1/1', '--format', 'jsonl']):
        result = run_measured(['check', *options, '--', evil, str(folder / 'good.urdf')],
                              cwd=str(folder))
        assert result.returncode == 2, (options, result.stderr)
        assert 'Traceback' not in result.stderr, result.stderr
        if '-o' in options:
            written = (folder / options[-1]).read_text()
            assert 'evil' in written and 'triangle' in written, options
        else:
            assert result.stdout.count('"robot"') == 2, result.stdout
    report = json.loads((folder / 'out.sarif').read_text())
    assert_valid_sarif(report)
    assert any('evil%FF.urdf' in json.dumps(result['locations'])
               for result in report['runs'][0]['results'])


def test_the_notes_around_the_reports_keep_a_name_on_one_line(tmp_path):
    # The --fix-inertia note (printed in the text report), the collisions summary and the
    # skipped-file note printed names with their line feeds: 'FAKELINE' lines of their own.
    folder = tmp_path / 'pkg'
    package(folder)
    evil = 'x&#10;FAKELINE&#10;::error::forged'
    (folder / 'robot.urdf').write_text(
        f'<robot name="r{evil}"><link name="base"><inertial><mass value="1"/><inertia '
        'ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial><collision>'
        '<geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>'
        f'<joint name="j" type="revolute"><parent link="base"/><child link="arm{evil}"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        f'<link name="arm{evil}"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" '
        'ixz="0" iyy="0.01" iyz="0" izz="0.05"/></inertial><collision><geometry><mesh '
        f'filename="missing{evil}.stl"/></geometry></collision></link></robot>')
    name = 'frag\nFAKELINE\n.urdf'
    (folder / name).write_text('<robot name="frag"/>')
    runs = [run_measured(['check', 'robot.urdf', '--fix-inertia', 'fixed.urdf'],
                         cwd=str(folder)),
            run_measured(['collisions', 'robot.urdf', '--samples', '10', '-o', 'out.srdf'],
                         cwd=str(folder)),
            run_measured(['check', '--skip-macro-files', '--', name], cwd=str(folder))]
    said = [result.stdout + result.stderr for result in runs]
    assert 'fix-inertia: wrote' in said[0] and 'skipped' in said[2], said
    assert 'coal' in said[1] or 'left out' in said[1], said[1]
    for text in said:
        assert not any(line.startswith(('FAKELINE', '::')) for line in text.splitlines()), text
