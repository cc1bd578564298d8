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
The checker as CI jobs get it: pip into a plain venv, the pre-commit hook, the Action's step.

Each venv is made from a bare CPython 3.10, 3.11 or 3.12 (no ROS, no rclpy), with the
environment of scripts/env.sh removed, and gets this package by ``pip install`` of a copy of
the source tree, so the test sees what a user's ``pip install .`` gives (about 35 s each with
a warm pip cache). The pre-commit hook runs through ``pre-commit try-repo`` on a sample git
repository; the Action's check step runs with bash as the runner would run it.
"""

import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE_FILES = ('setup.py', 'setup.cfg', 'pyproject.toml', 'package.xml', 'README.md', 'LICENSE',
                '.pre-commit-hooks.yaml', 'action.yml')
SOURCE_DIRS = ('resource', 'urdf_link_tools', 'launch', 'config', 'samples')
PIP_TIMEOUT = 600

BAD_ARM = """<?xml version="1.0"?>
<robot name="arm">
  <link name="base"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="link1"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <link name="link1">
    <inertial>
      <mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05"/>
    </inertial>
    <collision><geometry><box size="0.1 0.1 0.3"/></geometry></collision>
  </link>
</robot>
"""
GOOD_INERTIA = '<inertia ixx="0.00833" ixy="0" ixz="0" iyy="0.00833" iyz="0" izz="0.00167"/>'
MACRO_FILE = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="wheel" params="prefix"><link name="${prefix}_wheel"/></xacro:macro>
</robot>
"""


def clean_env(**extra):
    """Return this environment without what scripts/env.sh adds (ROS, the dev venv)."""
    env = {key: value for key, value in os.environ.items()
           if key not in ('PYTHONPATH', 'AMENT_PREFIX_PATH', 'CMAKE_PREFIX_PATH',
                          'LD_LIBRARY_PATH', 'VIRTUAL_ENV', 'PYTHONHOME', 'COLCON_DEFAULTS_FILE')}
    venv_bin = str(ROOT / '.venv' / 'bin')
    env['PATH'] = os.pathsep.join(p for p in env.get('PATH', '').split(os.pathsep)
                                  if p != venv_bin)
    env.update(extra)
    return env


def copy_source(target):
    """Copy what `pip install .` needs, so that building never writes into the work tree."""
    target.mkdir()
    for name in SOURCE_FILES:
        shutil.copy2(ROOT / name, target / name)
    for name in SOURCE_DIRS:
        shutil.copytree(ROOT / name, target / name,
                        ignore=shutil.ignore_patterns('__pycache__', '*.egg-info'))
    return target


def skip_second_distro():
    # These tests use no ROS: .ci/run's second pass (ROS_DISTRO=kilted) would only repeat them.
    if os.environ.get('ROS_DISTRO', 'jazzy') != 'jazzy':
        pytest.skip('no ROS involved: run once, in the Jazzy pass of .ci/run')


def interpreter(version):
    """Find a CPython of that version: pyenv's, or one on PATH that really runs."""
    found = sorted(pathlib.Path('/root/.pyenv/versions').glob(f'{version}.*/bin/python3'))
    candidates = [str(path) for path in found[::-1]] + [shutil.which(f'python{version}')]
    for candidate in candidates:
        if candidate and subprocess.run([candidate, '-c', 'pass'], capture_output=True,
                                        timeout=60).returncode == 0:
            return candidate
    return None


@pytest.mark.parametrize('version', ['3.10', '3.11', '3.12'])
def test_pip_install_into_a_plain_venv(tmp_path, version):
    skip_second_distro()
    python = interpreter(version)
    if python is None:
        pytest.skip(f'no CPython {version} on this machine')
    source = copy_source(tmp_path / 'src')
    venv = tmp_path / 'venv'
    env = clean_env()
    subprocess.run([python, '-m', 'venv', str(venv)], check=True, env=env, timeout=120)
    done = subprocess.run([str(venv / 'bin' / 'python'), '-m', 'pip', 'install', '-q',
                           '--no-compile', str(source)], capture_output=True, text=True,
                          env=env, timeout=PIP_TIMEOUT)
    assert done.returncode == 0, done.stderr[-3000:]
    # no ROS in that venv: the CLI imports without rclpy
    probe = ('import importlib.util, sys; '
             'import urdf_link_tools.cli, urdf_link_tools.reports.sarif; '
             "assert importlib.util.find_spec('rclpy') is None; print(sys.version_info[:2])")
    done = subprocess.run([str(venv / 'bin' / 'python'), '-c', probe], capture_output=True,
                          text=True, env=env, timeout=120, cwd=str(tmp_path))
    assert done.returncode == 0 and done.stdout.strip() == str(
        tuple(int(part) for part in version.split('.'))), done.stderr
    command = str(venv / 'bin' / 'urdf-link-tools')
    done = subprocess.run([command, 'check', 'samples/sample_robot.urdf', '--package-dir',
                           f'urdf_link_tools={source}'], capture_output=True, text=True,
                          env=env, timeout=300, cwd=str(source))
    assert done.returncode == 2, done.stderr
    assert 'samples/sample_robot.urdf:95: error: inertia-triangle-inequality' in done.stdout
    assert done.stdout.splitlines()[-1].startswith('sample_robot: 3 errors, 4 warnings')
    # xacro comes with it, and SARIF needs nothing more
    (tmp_path / 'lib.xacro').write_text(MACRO_FILE)
    (tmp_path / 'arm.urdf.xacro').write_text(BAD_ARM.replace(
        '<robot name="arm">',
        '<robot name="arm" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:include filename="lib.xacro"/><xacro:wheel prefix="w"/>'))
    done = subprocess.run([command, 'check', 'arm.urdf.xacro', '--format', 'sarif'],
                          capture_output=True, text=True, env=env, timeout=300,
                          cwd=str(tmp_path))
    assert done.returncode == 2, done.stderr
    results = json.loads(done.stdout)['runs'][0]['results']
    assert {r['ruleId'] for r in results} >= {'inertia-triangle-inequality'}
    # the HTML report's page, script and three.js are package data of the wheel
    done = subprocess.run([command, 'check', 'arm.urdf.xacro', '--format', 'html'],
                          capture_output=True, text=True, env=env, timeout=300,
                          cwd=str(tmp_path))
    assert done.returncode == 2, done.stderr
    assert done.stdout.startswith('<!DOCTYPE html>') and 'OrbitControls' in done.stdout


def git(cwd, *args):
    subprocess.run(['git', '-c', 'user.email=ci@example.com', '-c', 'user.name=ci', *args],
                   cwd=str(cwd), check=True, capture_output=True, timeout=60)


def test_pre_commit_hook_on_a_sample_repository(tmp_path):
    skip_second_distro()
    pytest.importorskip('pre_commit', reason='pre-commit is in requirements/ros-jazzy.txt')
    if shutil.which('git') is None:
        pytest.skip('git is not installed')
    hook_repo = copy_source(tmp_path / 'hooks')
    git(hook_repo, 'init', '-q')
    git(hook_repo, 'add', '-A')
    git(hook_repo, 'commit', '-qm', 'hook')
    sample = tmp_path / 'sample'
    (sample / 'description').mkdir(parents=True)
    (sample / 'description' / 'arm.urdf').write_text(BAD_ARM)
    (sample / 'description' / 'macros.xacro').write_text(MACRO_FILE)
    (sample / 'README.md').write_text('not a robot\n')
    git(sample, 'init', '-q')
    git(sample, 'add', '-A')
    git(sample, 'commit', '-qm', 'robot')
    env = clean_env(PRE_COMMIT_HOME=str(tmp_path / 'pre-commit-home'))
    command = [sys.executable, '-m', 'pre_commit', 'try-repo', str(hook_repo),
               'urdf-link-tools', '--all-files']
    done = subprocess.run(command, cwd=str(sample), capture_output=True, text=True, env=env,
                          timeout=PIP_TIMEOUT)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-2000:]
    assert 'Failed' in done.stdout and '- exit code: 2' in done.stdout
    assert 'description/arm.urdf:11: error: inertia-triangle-inequality' in done.stdout
    assert 'description/macros.xacro: skipped' in done.stdout
    # fixed: the hook passes
    arm = sample / 'description' / 'arm.urdf'
    arm.write_text(BAD_ARM.replace(
        '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05"/>', GOOD_INERTIA))
    git(sample, 'commit', '-qam', 'fix')
    done = subprocess.run(command, cwd=str(sample), capture_output=True, text=True, env=env,
                          timeout=PIP_TIMEOUT)
    assert done.returncode == 0, done.stdout[-3000:]
    assert 'Passed' in done.stdout
    # A file committed under an option's name is checked as a file: before, it was read as
    # that option (the report written to report.urdf, out of the log).
    (sample / '--output=report.urdf').write_text('not a robot\n')
    git(sample, 'add', '-A')
    git(sample, 'commit', '-qm', 'hostile name')
    done = subprocess.run(command, cwd=str(sample), capture_output=True, text=True, env=env,
                          timeout=PIP_TIMEOUT)
    assert done.returncode == 1 and '- exit code: 3' in done.stdout, done.stdout[-3000:]
    assert '--output=report.urdf: line 1: not well-formed XML' in done.stdout, done.stdout
    assert not (sample / 'report.urdf').exists()


def test_the_hooks_file_names_are_never_options(tmp_path, monkeypatch):
    # pre-commit passes entry + args + file names, no `--`: the trailing names of existing
    # .urdf/.xacro files are the files, put after `--`; the hook's own args stay options.
    from urdf_link_tools import pre_commit
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'arm.urdf').write_text(BAD_ARM)
    (tmp_path / '--output=report.urdf').write_text('not a robot\n')
    (tmp_path / '--xacro-allow-dir=up.xacro').write_text('<robot name="r"/>')
    arguments = ['--fail-on', 'warning', '--output=report.urdf', 'arm.urdf',
                 '--xacro-allow-dir=up.xacro']
    assert pre_commit.split(arguments) == (['--fail-on', 'warning'], arguments[2:])
    assert pre_commit.command(['--target', 'mujoco', 'arm.urdf']) == [
        'check', '--skip-macro-files', '--target', 'mujoco', '--', 'arm.urdf']
    assert pre_commit.split(['--fail-on', 'warning', 'missing.urdf']) == (
        ['--fail-on', 'warning', 'missing.urdf'], [])  # not a file here: left to the CLI
    assert pre_commit.main(arguments) == 3  # the hostile name is unreadable input
    assert not (tmp_path / 'report.urdf').exists()


def test_a_file_named_like_a_xacro_argument_is_checked_after_dashes(tmp_path, monkeypatch):
    # A pull request's 'evil:=x.urdf' after `--` was taken for a xacro argument: never
    # checked, and the run passed (it also set the other robots' xacro argument 'evil').
    from urdf_link_tools import pre_commit
    from urdf_link_tools.cli import main
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'good.urdf').write_text('<robot name="g"><link name="a"/></robot>')
    (tmp_path / 'evil:=x.urdf').write_text(BAD_ARM)
    assert pre_commit.main(['good.urdf', 'evil:=x.urdf']) == 2
    assert main(['check', '--format', 'json', '--', 'good.urdf', 'evil:=x.urdf']) == 2
    # Before `--`, a NAME:=VALUE that is also a file is a usage error, not a silent argument.
    with pytest.raises(SystemExit) as usage:
        main(['check', 'good.urdf', 'evil:=x.urdf'])
    assert usage.value.code == 4
    # Options after the files and before `--` still parse; a real argument stays one.
    assert main(['check', 'good.urdf', '--format', 'json', '--', 'evil:=x.urdf']) == 2


def test_a_file_named_like_an_option_is_refused_before_dashes(tmp_path, monkeypatch):
    # Red-team review 4: README's `check $(git ls-files '*.urdf') --shard ...` took a pull
    # request's empty file '--config=p.urdf' for the option; p.urdf, a URDF and a YAML
    # parameter file at once, then ignored mass-not-positive, and the run exited 0.
    from urdf_link_tools.cli import main
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'robot.urdf').write_text(BAD_ARM)
    (tmp_path / 'p.urdf').write_text(
        'urdf_link_tools: {ros__parameters: {ignore_rules: [mass-not-positive]}}\n')
    (tmp_path / '--config=p.urdf').write_text('')
    with pytest.raises(SystemExit) as usage:
        main(['check', '--config=p.urdf', 'robot.urdf', '--shard', '1/1'])
    assert usage.value.code == 4
    assert main(['check', '--shard', '1/1', '--', 'robot.urdf']) == 2
    # After --, such a name is a file of any command (an empty robot here: exit 3, not 4).
    assert main(['info', '--', '--config=p.urdf']) == 3


def test_the_readme_shard_recipe_keeps_each_committed_name_one_file(tmp_path):
    # Eighth red-team review: README's `-- $(git ls-files '*.urdf')` split a committed name
    # on its blanks and expanded its globs: 'x /elsewhere/*/*.urdf' (a folder 'x ' holding
    # folders named so) had the checker read, and annotate, every URDF of another checkout.
    text = (ROOT / 'README.md').read_text(encoding='utf-8')
    block = re.search(r'\n      - run: >[^\n]*\n((?:          [^\n]*\n)+)', text)
    command = ' '.join(line.strip() for line in block.group(1).splitlines())
    command = command.replace('${{ matrix.shard }}/8', '1/1').replace(
        '${{ matrix.shard }}', '1').replace('${{ runner.temp }}', str(tmp_path / 'temp'))
    assert 'git ls-files' in command and '${{' not in command, command
    other = tmp_path / 'otherco' / 'pkg'
    other.mkdir(parents=True)
    (other / 'secret.urdf').write_text(BAD_ARM.replace('name="arm"', 'name="secret_robot"'))
    repo = tmp_path / 'repo'
    repo.mkdir()
    (repo / 'robot.urdf').write_text(BAD_ARM)
    hostile = repo.joinpath('x ', *str(tmp_path / 'otherco').strip('/').split('/'), '*')
    hostile.mkdir(parents=True)
    (hostile / '*.urdf').write_text('')
    environment = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM='1')
    for git in (['init', '-q'], ['add', '-A']):
        subprocess.run(['git'] + git, cwd=str(repo), check=True, env=environment)
    bin_dir = tmp_path / 'bin'
    bin_dir.mkdir()
    wrapper = bin_dir / 'urdf-link-tools'
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m urdf_link_tools.cli '
                       '"$@"\n')
    wrapper.chmod(0o755)
    environment['PATH'] = str(bin_dir) + os.pathsep + environment['PATH']
    environment['PYTHONPATH'] = os.pathsep.join([str(ROOT), environment.get('PYTHONPATH', '')])
    done = subprocess.run(['bash', '-c', command], cwd=str(repo), env=environment,
                          capture_output=True, text=True, timeout=300)
    rows = [json.loads(line) for line in
            (repo / 'findings-1.jsonl').read_text().splitlines() if line.strip()]
    assert 'secret_robot' not in json.dumps(rows) + done.stderr, done.stderr
    assert sorted(os.path.basename(row['source']) for row in rows) == ['*.urdf', 'robot.urdf'], \
        rows


def test_action_check_step(tmp_path):
    action = yaml.safe_load((ROOT / 'action.yml').read_text())
    step = next(s for s in action['runs']['steps'] if s.get('id') == 'check')
    shutil.copytree(ROOT / 'samples', tmp_path / 'samples')
    (tmp_path / 'arm.urdf').write_text(BAD_ARM)
    output = tmp_path / 'github_output'
    output.write_text('')
    summary = tmp_path / 'step_summary'
    # inputs are data: a command substitution or a glob in them stays a (missing) file name
    env = dict(os.environ, ROBOTS='samples/sample_robot.urdf\n arm.urdf',
               PACKAGE_DIRS=f'urdf_link_tools={tmp_path}',
               EXTRA_ARGS='--ignore material-undefined',
               FAIL_ON='error', SARIF_FILE='out.sarif', ANNOTATIONS='true',
               GITHUB_OUTPUT=str(output), JOB_SUMMARY='true', GITHUB_STEP_SUMMARY=str(summary))
    # The command the Action installs, run by this interpreter (a venv, or a colcon install)
    bin_dir = tmp_path / 'bin'
    bin_dir.mkdir()
    wrapper = bin_dir / 'urdf-link-tools'
    python = shlex.quote(sys.executable)
    wrapper.write_text(f'#!/bin/sh\nexec {python} -m urdf_link_tools.cli "$@"\n')
    wrapper.chmod(0o755)
    env['PATH'] = str(bin_dir) + os.pathsep + env['PATH']
    done = subprocess.run(['bash', '-e', '-c', step['run']], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert output.read_text() == 'exit-code=2\n'
    log = json.loads((tmp_path / 'out.sarif').read_text())
    rules = [r['ruleId'] for r in log['runs'][0]['results']]
    assert rules.count('inertia-triangle-inequality') == 2 and 'material-undefined' not in rules
    assert '::error file=arm.urdf,line=11,title=inertia-triangle-inequality (link1)::' in \
        done.stdout
    markdown = summary.read_text()
    assert markdown.startswith('## urdf-link-tools check\n')
    assert '| error | inertia-triangle-inequality | link1 | arm.urdf:11 |' in markdown
    env['ROBOTS'] = '$(touch pwned) *.urdf'
    done = subprocess.run(['bash', '-e', '-c', step['run']], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=300)
    assert not (tmp_path / 'pwned').exists()
    assert output.read_text().endswith('exit-code=3\n')
    assert "'$(touch'" in done.stderr or '$(touch: no such file' in done.stderr


def test_the_checker_is_a_command_of_the_ament_install():
    # A workspace user has <prefix>/bin on PATH after sourcing it: the checker is there,
    # and its SARIF output redirected to a file is valid JSON, exit code and all.
    from ament_index_python import packages
    try:
        prefix = packages.get_package_prefix('urdf_link_tools')
    except packages.PackageNotFoundError:
        pytest.skip('urdf_link_tools is not installed in an ament prefix: run scripts/setup.sh')
    command = os.path.join(prefix, 'bin', 'urdf-link-tools')
    assert os.access(command, os.X_OK), command
    sample = os.path.join(prefix, 'share', 'urdf_link_tools', 'samples', 'sample_robot.urdf')
    done = subprocess.run([command, 'check', sample, '--format', 'sarif'], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2, done.stderr[-2000:]  # the sample has errors on purpose
    results = json.loads(done.stdout)['runs'][0]['results']
    assert any(result['level'] == 'error' for result in results)
