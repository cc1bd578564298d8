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
xacro is code: hostile xacro files run nothing, leak nothing and end quickly with a clear error.

Every case runs the real CLI in a child process under ``prlimit`` (4 GiB address space) and
``timeout`` (120 s), so that a regression cannot take the test machine down; the assertions
then require far less: each ends within seconds with exit status 3 and a one-line error.
"""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ATTACKS = os.path.join(ROOT, 'test', 'data', 'xacro_attacks')
SECRET = 'AKIA-not-a-real-key-7f3e9c'


def run_cli(args, env=None, cwd=ROOT, limit_s=120):
    # `timeout` is the hang guard: a child it kills exits 124, which every caller refuses
    # (they expect the CLI's own status); how fast is measured in bench/.
    command = ['prlimit', '--as=4294967296', 'timeout', str(limit_s), sys.executable, '-m',
               'urdf_link_tools.cli', *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd,
                          env=env or dict(os.environ))


def attack(name):
    return os.path.join(ATTACKS, name)


def assert_clear_error(result, *words):
    assert result.returncode == 3, (result.returncode, result.stdout, result.stderr)
    assert 'Traceback' not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines and lines[-1].startswith('urdf-link-tools: error:'), result.stderr
    for word in words:
        # a tuple: any of them (the CPU limit, or on a busy machine the wall-clock one)
        options = word if isinstance(word, tuple) else (word,)
        assert any(option in result.stderr for option in options), result.stderr


def test_dunder_escape_runs_nothing(tmp_path):
    marker = tmp_path / 'marker'
    for command in ('check', 'info'):
        result = run_cli([command, attack('dunder_escape.urdf.xacro'), f'marker:={marker}'])
        assert_clear_error(result, 'refused: python.vars() is not available')
    assert not marker.exists()


@pytest.mark.parametrize('expression', [
    "${''.__class__}",
    '${python.type}',
    '${(x for x in [1]).gi_frame}',
    "${'{0.__class__}'.format(1)}",
    "${'{0[x]}'.format(xacro.arg)}",
    '${xacro.arg.__globals__}',
    "${getattr(1, 'real')}",
    "${open('/etc/hostname')}",
])
def test_introspection_is_refused(tmp_path, expression):
    robot = tmp_path / 'r.urdf.xacro'
    robot.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                     f'<link name="{expression}"/></robot>')
    result = run_cli(['check', str(robot)])
    assert_clear_error(result)


def test_dollar_eval_is_restricted(tmp_path):
    robot = tmp_path / 'r.urdf.xacro'
    robot.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                     '<link name="$(eval open)"/></robot>')
    result = run_cli(['check', str(robot)])
    assert_clear_error(result, "'open' is not defined")


def _no_secret_anywhere(result):
    for text in (result.stdout, result.stderr):
        assert SECRET not in text


def test_environment_secrets_are_not_visible(tmp_path):
    env = dict(os.environ, SECRET_TOKEN=SECRET)
    result = run_cli(['check', '--format', 'json', attack('env_secret.urdf.xacro')], env=env)
    assert_clear_error(result, 'SECRET_TOKEN')
    _no_secret_anywhere(result)
    # Allowed by name, the variable is read (the allow-list is the only way in).
    result = run_cli(['check', '--format', 'json', '--xacro-env', 'SECRET_TOKEN',
                      attack('env_secret.urdf.xacro')], env=env)
    assert json.loads(result.stdout)['robot'] == SECRET


@pytest.mark.parametrize('name', ['PYTHONPATH', 'LANG', 'PYTHONDONTWRITEBYTECODE'])
def test_what_the_expansion_needed_to_start_is_not_visible(tmp_path, name):
    # The xacro child starts with PYTHONPATH and LANG (Python's needs): $(optenv) read them,
    # the install's layout, though the README says xacro sees an empty environment.
    robot = tmp_path / 'r.urdf.xacro'
    robot.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                     f'<link name="v_$(optenv {name} unset)"/></robot>')
    result = run_cli(['info', str(robot)], env=dict(os.environ, LANG='C.UTF-8'))
    assert result.returncode == 0, result.stderr
    assert 'v_unset' in result.stdout, result.stdout


def test_load_yaml_outside_the_robot_is_refused(tmp_path):
    secret = tmp_path / 'secret.yaml'
    secret.write_text(f'token: {SECRET}\n')
    for output in ('json', 'text'):
        result = run_cli(['check', '--format', output, attack('outside_yaml.urdf.xacro'),
                          f'secret_file:={secret}'])
        assert_clear_error(result, 'outside the directories')
        _no_secret_anywhere(result)
    # A symlink inside the robot's directory does not lead out either.
    robot_dir = tmp_path / 'robot'
    robot_dir.mkdir()
    (robot_dir / 'link.yaml').symlink_to(secret)
    robot = robot_dir / 'r.urdf.xacro'
    robot.write_text(open(attack('outside_yaml.urdf.xacro')).read())
    outside = tmp_path / 'elsewhere'
    outside.mkdir()
    result = run_cli(['check', str(robot), f'secret_file:={robot_dir / "link.yaml"}'],
                     cwd=str(outside))
    assert_clear_error(result, 'outside the directories')
    _no_secret_anywhere(result)


def test_include_outside_the_robot_is_refused(tmp_path):
    robot = tmp_path / 'robot' / 'r.urdf.xacro'
    robot.parent.mkdir()
    robot.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                     '<xacro:include filename="/etc/passwd"/></robot>')
    result = run_cli(['check', str(robot)], cwd=str(tmp_path))
    assert_clear_error(result, 'outside the directories')
    assert 'root:' not in result.stderr + result.stdout


@pytest.mark.parametrize('name, cpu_s, words, most_s', [
    ('cpu_bomb.urdf.xacro', 10, ('too large a number',), 20),
    ('size_bomb.urdf.xacro', 10, ('size limit',), 20),
    ('size_bomb_ljust.urdf.xacro', 10, ('larger than the description limit',), 20),
    ('memory_bomb.urdf.xacro', 10, ('more memory than allowed', '1024 MiB'), 40),
    ('doubling.urdf.xacro', 3, (('s of CPU', 'was stopped'),), 40),
    ('cpu_burn.urdf.xacro', 3, (('s of CPU', 'was stopped'),), 40),
])
def test_bombs_end_quickly_with_a_clear_error(name, cpu_s, words, most_s):
    # The CPU limit is lowered to 3 s for the two that only that limit stops (the default is
    # 10 s); the others are refused by the evaluator's guards or the memory limit.
    # Stopped by the tool's own limits (the message says which), well before the generous
    # `timeout` of three times the most it should take.
    result = run_cli(['check', attack(name), '--xacro-timeout', str(cpu_s)], limit_s=3 * most_s)
    assert_clear_error(result, *words)


@pytest.mark.parametrize('name, words', [
    ('shadow_guard_property.urdf.xacro', ('too large a number',)),
    ('shadow_guard_lambda.urdf.xacro', ('too large a number',)),
    ('shadow_guard_macro.urdf.xacro', ('exceeds the description size limit',)),
    ('shadow_guard_root.urdf.xacro', ('too large a number',)),
])
def test_guards_cannot_be_replaced_by_the_description(name, words):
    # A property, a lambda parameter or a macro parameter named as a guard, or a guard
    # written into xacro's global table: the guard still refuses at once (before, each
    # expanded with rc 0, or spent the CPU limit when the replacement computed the power).
    result = run_cli(['check', attack(name)])
    assert_clear_error(result, *words)


def test_small_file_cannot_make_a_huge_description(tmp_path):
    assert os.path.getsize(attack('size_bomb.urdf.xacro')) < 140


def test_a_urdf_name_never_runs_xacro(tmp_path):
    marker = tmp_path / 'marker'
    urdf = tmp_path / 'robot.urdf'
    urdf.write_text(open(attack('dunder_escape.urdf.xacro')).read().replace(
        '$(arg marker)', str(marker)))
    result = run_cli(['check', str(urdf)])
    assert 'read as plain URDF' in result.stderr
    assert not marker.exists()


def test_a_missing_package_tells_the_node_user_what_to_set():
    # The node reports errors about files a parameter named in words that quote nothing of
    # them; a package name quotes nothing, and without it the user cannot fix the launch.
    from urdf_link_tools.ros.urdf_file import public_error
    from urdf_link_tools.xacro.sandbox import expand_xacro, XacroError
    robot = os.path.join(ROOT, 'test', 'data', 'xacro_robot', 'urdf', 'robot.urdf.xacro')
    with pytest.raises(XacroError) as raised:
        expand_xacro(robot)
    public = str(public_error(raised.value, robot))
    assert "package 'demo_description' not found" in public
    assert 'package_dirs' in public and 'demo_description=PATH' in public
    assert '--package-dir demo_description=PATH' in str(raised.value)  # the CLI's words


def test_every_missing_package_tells_the_node_user_what_to_set(tmp_path):
    from urdf_link_tools.ros.urdf_file import public_error
    from urdf_link_tools.xacro.sandbox import expand_xacro, XacroError
    robot = tmp_path / 'two.urdf.xacro'
    robot.write_text('<robot name="r"><link name="l"><visual><geometry><mesh filename="'
                     'file://$(find first_pkg)/a.stl"/></geometry></visual></link>'
                     '<link name="m"><visual><geometry><mesh filename="file://$(find '
                     'second_pkg)/b.stl"/></geometry></visual></link></robot>')
    with pytest.raises(XacroError) as raised:
        expand_xacro(str(robot))
    public = str(public_error(raised.value, str(robot)))
    assert "packages 'first_pkg', 'second_pkg' not found: source their workspaces" in public
    assert 'first_pkg=PATH second_pkg=PATH to the package_dirs parameter' in public
