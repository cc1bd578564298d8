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

"""The check subcommand: output, options, exit codes, input errors, a real subprocess."""

import io
import json
import os
import subprocess
import sys

import pytest
from urdf_link_tools.cli import (
    EXIT_ERRORS, EXIT_INPUT, EXIT_OK, EXIT_USAGE, EXIT_WARNINGS, main)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, 'samples', 'sample_robot.urdf')
PACKAGE = f'urdf_link_tools={ROOT}'

CLEAN = ('<robot name="clean"><link name="base"/><joint name="j" type="fixed">'
         '<parent link="base"/><child link="body"/></joint><link name="body">'
         '<inertial><mass value="1"/><inertia ixx="0.0016667" ixy="0" ixz="0" iyy="0.0016667" '
         'iyz="0" izz="0.0016667"/></inertial><collision><geometry><box size="0.1 0.1 0.1"/>'
         '</geometry></collision></link></robot>')
WARNING_ONLY = CLEAN.replace('<collision>', '<visual><geometry><box size="0.1 0.1 0.1"/>'
                             '</geometry><material name="Nope"/></visual><collision>')


def run(args, stdin=None):
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        sys_stdin = sys.stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
    try:
        status = main(args, out=out, err=err)
    finally:
        if stdin is not None:
            sys.stdin = sys_stdin
    return status, out.getvalue(), err.getvalue()


def write(tmp_path, text, name='robot.urdf'):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_sample_robot_text_output():
    status, out, _ = run(['check', SAMPLE, '--package-dir', PACKAGE])
    assert status == EXIT_ERRORS
    lines = out.splitlines()
    assert lines[0].startswith('link my_link (') and lines[0].endswith(':60): 1 error, 1 warning')
    # each finding leads with file:line: as compilers write it
    assert any(line.endswith('sample_robot.urdf:64: error: inertia-exceeds-extent: '
                             "inertial/inertia: the moment about the link's x axis is 100 kg "
                             'm^2 (a radius of gyration of 10 m), more than any 1 kg body '
                             'inside the visual and collision geometry of its body can have: '
                             'at most m (V_y + V_z) = 1 kg m^2 with all the mass at the corners '
                             'of -1 -1 -0.5 to 1 1 0.5 m (the centre of mass lies on a face of '
                             'that box, at its z maximum: the <inertial> is at xyz="0 0 0.5"; '
                             "a part's centre of mass lies inside it)") for line in lines)
    assert any(line.startswith('    fix: ') for line in lines)
    assert lines[-1].startswith('sample_robot: 3 errors, 4 warnings')
    # each deliberate mistake listed in the sample's header is reported
    _, json_out, _ = run(['check', SAMPLE, '--package-dir', PACKAGE, '--format', 'json'])
    found = {(f['rule'], f['link']) for f in json.loads(json_out)['findings']}
    assert found == {('inertia-exceeds-extent', 'my_link'),
                     ('density-implausible', 'my_link'),
                     ('inertia-triangle-inequality', 'arm_link'),
                     ('density-implausible', 'gripper_link'),
                     ('mass-not-positive', 'camera_link'),
                     ('collision-missing', 'camera_link'),
                     ('material-undefined', 'camera_link')}
    # and nothing on the correct links
    for link in ('base_footprint', 'base_link', 'tool0'):
        assert f'link {link} (' not in out


def test_json_output():
    status, out, _ = run(['check', SAMPLE, '--package-dir', PACKAGE, '--format', 'json'])
    document = json.loads(out)
    assert status == EXIT_ERRORS
    assert document['robot'] == 'sample_robot'
    assert document['counts'] == {'error': 3, 'warning': 4, 'info': 0}
    assert document['source'].endswith('sample_robot.urdf')
    first = document['findings'][0]
    assert set(first) >= {'rule', 'severity', 'link', 'element', 'line', 'message',
                          'suggestion'}
    mismatch = [f for f in document['findings'] if f['rule'] == 'inertia-exceeds-extent']
    assert mismatch[0]['suggested_inertia']['izz'] == pytest.approx(0.5)


def test_exit_codes(tmp_path):
    assert run(['check', write(tmp_path, CLEAN)])[0] == EXIT_OK
    warn = write(tmp_path, WARNING_ONLY, 'warn.urdf')
    assert run(['check', warn])[0] == EXIT_OK
    assert run(['check', warn, '--strict'])[0] == EXIT_WARNINGS
    assert run(['check', warn, '--strict', '--ignore', 'material-undefined'])[0] == EXIT_OK
    assert run(['check', SAMPLE, '--package-dir', PACKAGE])[0] == EXIT_ERRORS


@pytest.mark.parametrize('text,needle', [
    ('<robot name="x"><link name="a"></robot>', 'line 1'),
    ('<sdf version="1.6"><model name="m"/></sdf>', 'expected <robot>'),
    ('', 'empty'),
])
def test_input_errors_one_line_exit_3(tmp_path, text, needle):
    path = write(tmp_path, text)
    status, out, err = run(['check', path])
    assert status == EXIT_INPUT
    assert err.count('\n') == 1 and err.startswith(f'urdf-link-tools: error: {path}: ')
    assert needle in err
    assert 'Traceback' not in err


def test_missing_file_and_bad_options(tmp_path):
    status, _, err = run(['check', str(tmp_path / 'nope.urdf')])
    assert status == EXIT_INPUT and 'no such file' in err
    # a wrong command line is a usage error (4), not "errors found" (2) nor bad input (3)
    status, _, err = run(['check', write(tmp_path, CLEAN), '--ignore', 'no-such-rule'])
    assert status == EXIT_USAGE and 'unknown rule' in err
    # a misspelt one is named, as the node's ignore_rules names it
    status, _, err = run(['check', write(tmp_path, CLEAN), '--ignore', 'density-implausble'])
    assert status == EXIT_USAGE and "(did you mean 'density-implausible'?)" in err, err
    status, _, err = run(['check', write(tmp_path, CLEAN), '--package-dir', 'nopath'])
    assert status == EXIT_USAGE and 'NAME=PATH' in err
    status, _, err = run(['check', write(tmp_path, CLEAN), '--density-min', '-1'])
    assert status == EXIT_USAGE and 'density_min' in err


def test_stdin(tmp_path):
    status, out, _ = run(['check', '-'], stdin=CLEAN)
    assert status == EXIT_OK and 'no findings' in out


def test_thresholds_from_flags_and_yaml(tmp_path):
    text = CLEAN.replace('value="1"', 'value="30"').replace('0.0016667', '0.05')
    path = write(tmp_path, text)              # 30 000 kg/m^3
    assert 'density-implausible' in run(['check', path])[1]
    assert 'density-implausible' not in run(['check', path, '--density-max', '40000'])[1]
    config = tmp_path / 'params.yaml'
    config.write_text('urdf_link_tools:\n  ros__parameters:\n    density_max: 40000.0\n'
                      '    publish_com: true\n    use_sim_time: false\n')
    assert 'density-implausible' not in run(['check', path, '--config', str(config)])[1]
    # A misspelt key is refused, naming the key and the nearest known one; so is a key no
    # checker or node parameter has.
    config.write_text('urdf_link_tools:\n  ros__parameters:\n    densty_max: 40000.0\n')
    status, out, err = run(['check', path, '--config', str(config)])
    assert status == EXIT_USAGE and not out
    assert "unknown setting 'densty_max' (did you mean 'density_max'?)" in err
    config.write_text('density_max: 40000.0\npublish_markers: true\n')
    status, _, err = run(['check', path, '--config', str(config)])
    assert status == EXIT_USAGE and "unknown setting 'publish_markers'" in err
    config.write_text('zzz: 1\n')
    status, _, err = run(['check', path, '--config', str(config)])
    assert status == EXIT_USAGE and "'zzz'; the checker knows inertia_mismatch_factor" in err
    config.write_text('urdf_link_tools:\n  ros__parameters:\n    density_max: -3.0\n')
    status, _, err = run(['check', path, '--config', str(config)])
    assert status == EXIT_USAGE and 'density_max' in err


#: nine levels of ten aliases: 900 bytes of YAML for a list of 10^9 strings (shared objects)
ALIAS_BOMB = 'l0: &l0 ["xxxxxxxxxx", "xxxxxxxxxx"]\n' + ''.join(
    f'l{level}: &l{level} [{", ".join([f"*l{level - 1}"] * 10)}]\n' for level in range(1, 9))


@pytest.mark.parametrize('key', ['check_meshes', 'targets', 'ignore_rules', 'min_mass',
                                 'disabled_collisions'])
def test_a_yaml_alias_bomb_is_refused_with_a_short_message(tmp_path, key):
    # Red-team review 5: a --config value of nested aliases was refused with its whole repr
    # in the message: 7 GB and 49 s for a 900-byte file (targets; the others alike).
    config = tmp_path / 'params.yaml'
    config.write_text(ALIAS_BOMB + f'urdf_link_tools:\n  ros__parameters:\n    {key}: *l8\n')
    status, out, err = run(['check', write(tmp_path, CLEAN), '--config', str(config)])
    assert status == EXIT_USAGE and not out
    assert key in err and len(err) < 1000, err[:2000]
    config.write_text('min_mass: ' + '9' * 5000 + '\n')  # past Python's int digit limit
    status, _, err = run(['check', write(tmp_path, CLEAN), '--config', str(config)])
    assert status == EXIT_USAGE and f'{config}: not a parameter file' in err, err


def test_info_still_works():
    status, out, _ = run(['info', SAMPLE])
    assert status == EXIT_OK and 'my_link' in out


def test_real_subprocess_exit_codes(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    done = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', SAMPLE, '--package-dir',
         PACKAGE], capture_output=True, text=True, timeout=120, env=env, cwd=str(tmp_path))
    assert done.returncode == EXIT_ERRORS, done.stderr
    assert 'inertia-triangle-inequality' in done.stdout
    broken = write(tmp_path, '<robot name="x"><link', 'broken.urdf')
    done = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli', 'check', broken],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == EXIT_INPUT
    assert done.stderr.startswith(f'urdf-link-tools: error: {broken}: ')
    assert 'Traceback' not in done.stderr
    done = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli', 'check',
                           write(tmp_path, CLEAN, 'clean.urdf')],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == EXIT_OK


def test_output_writes_the_report_to_a_file(tmp_path):
    # check -o FILE, as collisions -o: the same report as on standard output.
    robot = write(tmp_path, WARNING_ONLY)
    for form in ('json', 'junit'):
        status, printed, _ = run(['check', robot, '--format', form])
        target = tmp_path / f'report.{form}'
        status_file, nothing, _ = run(['check', robot, '--format', form, '-o', str(target)])
        assert (status_file, nothing) == (status, '')
        assert target.read_text(encoding='utf-8') == printed
    status, _, err = run(['check', robot, '--output', robot])
    assert status == EXIT_USAGE and 'is a robot being checked' in err
    assert open(robot).read() == WARNING_ONLY
    status, _, err = run(['check', robot, '-o', str(tmp_path / 'no' / 'such' / 'dir.txt')])
    assert status == EXIT_USAGE and 'cannot write it' in err


@pytest.mark.parametrize('columns', ['60', '200'])
def test_help_fits_the_width_columns_says_as_argparse_s_own_formatter(columns):
    # The CLI's formatter finds the width without shutil (import time): the same text as
    # argparse's HelpFormatter, which asks shutil.get_terminal_size.
    script = ('import argparse, sys\n'
              'from urdf_link_tools.cli import build_parser\n'
              'parser = build_parser()\n'
              'check = parser._subparsers._group_actions[0].choices["check"]\n'
              'ours = check.format_help()\n'
              'check.formatter_class = argparse.HelpFormatter\n'
              'print(ours == check.format_help(), len(ours.splitlines()))\n')
    done = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True,
                          env=dict(os.environ, COLUMNS=columns), check=True)
    same, lines = done.stdout.split()
    assert same == 'True'
    assert (int(lines) > 150) == (columns == '60')  # the narrower, the more lines


@pytest.mark.parametrize('meshes', [1, 4], ids=['one-mesh', 'grouped'])
def test_ignore_package_leaves_out_a_meshes_package_the_job_does_not_have(tmp_path, meshes):
    # Toyota HSR, NAO, Pepper (sweep K): the meshes live in a package of their own
    # (hsrb_meshes, nao_meshes) that a CI job of the description has not; mesh-not-found
    # failed it, and --ignore-package of that package did nothing. A typo in the robot's own
    # mesh paths is still found.
    (tmp_path / 'package.xml').write_text('<package><name>desc</name></package>')
    links = ''.join(f'<link name="l{index}"><visual><geometry><mesh filename="package://'
                    f'my_meshes/l{index}.stl"/></geometry></visual></link>'
                    for index in range(meshes))
    typo = ('<link name="own"><visual><geometry><mesh filename="package://desc/missing.stl"/>'
            '</geometry></visual></link>')
    path = tmp_path / 'r.urdf'
    path.write_text(f'<robot name="r">{links}{typo}</robot>')
    status, out, _ = run(['check', str(path), '--format', 'json', '--fail-on', 'never'])
    before = [f for f in json.loads(out)['findings'] if f['rule'] == 'mesh-not-found']
    assert any('my_meshes' in f['message'] for f in before), before
    assert any('--ignore-package my_meshes' in f['suggestion'] for f in before) or meshes == 1
    status, out, _ = run(['check', str(path), '--format', 'json', '--fail-on', 'never',
                          '--ignore-package', 'my_meshes'])
    after = [f for f in json.loads(out)['findings'] if f['rule'] == 'mesh-not-found']
    assert [f['link'] for f in after] == ['own'], after
