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
A description reads only its own package: ``$(find)`` takes package names, never paths.

Each case writes a robot package and a secret file elsewhere (or in ``.git/``), runs the real
CLI in a child process under ``prlimit``/``timeout`` with a non-empty ``AMENT_PREFIX_PATH``
(as every sourced ROS shell has), and asserts that the secret reaches no stream.
"""

import json
import os
import shutil

import pytest

from trust_harness import package, ROOT, run_measured
from urdf_link_tools.read_policy import find_package, is_package_name, read_refusal

SECRET = 'hunter2-not-a-real-token-91c4'
ROBOT = ('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
         '  <xacro:property name="stolen" value="${{xacro.load_yaml(\'{path}\')}}"/>\n'
         '  <link name="leak_${{stolen[\'token\']}}"><inertial><mass value="1"/>\n'
         '    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>\n'
         '</robot>\n')


def _environment(tmp_path):
    prefix = tmp_path / 'prefix'
    prefix.mkdir(exist_ok=True)
    return dict(os.environ, AMENT_PREFIX_PATH=str(prefix))


def _robot(tmp_path, path):
    package(tmp_path / 'robot_description')
    robot = tmp_path / 'robot_description' / 'robot.urdf.xacro'
    robot.write_text(ROBOT.format(path=path))
    return robot


def _assert_refused(result, *words):
    assert result.returncode == 3, (result.returncode, result.stdout, result.stderr)
    assert 'Traceback' not in result.stderr
    assert SECRET not in result.stdout + result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


@pytest.mark.parametrize('substitution', ['find', 'find-pkg-share'])
@pytest.mark.parametrize('output', ['text', 'json', 'sarif'])
def test_find_of_an_absolute_path_reads_nothing(tmp_path, substitution, output):
    secret = tmp_path / 'elsewhere' / 'secret.yaml'
    secret.parent.mkdir()
    secret.write_text(f'token: {SECRET}\n')
    robot = _robot(tmp_path, f'$({substitution} {secret})')
    result = run_measured(['check', '--format', output, str(robot)], cwd=str(tmp_path),
                          env=_environment(tmp_path))
    _assert_refused(result, 'is not a ROS package name' if substitution == 'find' else
                    'is a launch substitution, which xacro does not have: write $(find NAME)')


@pytest.mark.parametrize('name', ['/etc', '../elsewhere', '..', '.', 'pkg/..', '', ' pkg'])
def test_find_accepts_no_path_even_given_with_package_dir(tmp_path, name):
    assert not is_package_name(name)
    with pytest.raises(ValueError, match='not a ROS package name'):
        find_package(name, {name: str(tmp_path)}, [str(tmp_path)])


@pytest.mark.parametrize('name', ['Robot', 'a', 'two__bars', 'aliengoZ1_description',
                                  'my-robot'])
def test_find_takes_other_names_only_as_given_with_package_dir(tmp_path, name):
    # catkin tolerated capitals and dashes: such a package is found when the user names it
    # with --package-dir (the description matches that name only exactly), never otherwise.
    assert not is_package_name(name)
    with pytest.raises(ValueError, match='given with --package-dir'):
        find_package(name, {}, [str(tmp_path)])
    assert find_package(name, {name: str(tmp_path)}, [str(tmp_path)]) == str(tmp_path)


def test_find_of_a_package_name_uses_package_dirs_then_the_ament_index(tmp_path):
    prefix = tmp_path / 'prefix'
    index = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / 'arm_params').write_text('')
    (prefix / 'share' / 'arm_params').mkdir()
    (prefix / 'share' / 'arm_params' / 'p.yaml').write_text('token: visible\n')
    assert find_package('arm_params', {}, [str(prefix)]) == str(prefix / 'share' / 'arm_params')
    assert find_package('arm_params', {'arm_params': '/x'}, [str(prefix)]) == '/x'
    assert find_package('no_such_pkg', {}, [str(prefix)]) is None
    robot = _robot(tmp_path, '$(find arm_params)/p.yaml')
    result = run_measured(['info', str(robot)], cwd=str(tmp_path),
                          env=_environment(tmp_path))
    assert result.returncode == 0, result.stderr
    assert 'leak_visible' in result.stdout


@pytest.mark.parametrize('how', ['load_yaml', 'include'])
def test_nothing_under_git_is_read_even_inside_the_package(tmp_path, how):
    # package.xml at the repository root: the package holds .git/, where CI keeps its token.
    git = tmp_path / 'robot_description' / '.git'
    git.mkdir(parents=True)
    (git / 'config.yaml').write_text(f'token: {SECRET}\n')
    (git / 'part.xacro').write_text(
        f'<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="{SECRET}"/></robot>')
    if how == 'load_yaml':
        robot = _robot(tmp_path, '.git/config.yaml')
    else:
        package(tmp_path / 'robot_description')
        robot = tmp_path / 'robot_description' / 'robot.urdf.xacro'
        robot.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                         '<xacro:include filename=".git/part.xacro"/></robot>')
    result = run_measured(['check', str(robot)], cwd=str(tmp_path), env=_environment(tmp_path))
    _assert_refused(result, 'inside a .git directory')


def test_a_mesh_under_git_is_not_read(tmp_path):
    git = tmp_path / 'robot_description' / '.git'
    git.mkdir(parents=True)
    shutil.copy(os.path.join(ROOT, 'samples', 'meshes', 'arm_collision.stl'), git / 'm.stl')
    robot = tmp_path / 'robot_description' / 'robot.urdf'
    robot.write_text('<robot name="r"><link name="a"><collision><geometry>'
                     '<mesh filename=".git/m.stl"/></geometry></collision></link></robot>')
    result = run_measured(['check', '--format', 'json', str(robot)], cwd=str(tmp_path))
    assert 'Traceback' not in result.stderr
    assert 'inside a .git directory' in result.stdout
    assert read_refusal(str(git / 'm.stl'), None) is not None
    assert read_refusal(str(robot), None) is None
    assert read_refusal(str(robot), [str(tmp_path / 'elsewhere')]) is not None


def test_a_robot_file_linked_out_of_its_package_is_not_read(tmp_path):
    # robot.urdf committed as a link to a file elsewhere on the runner: read, its names
    # were printed. A link within the package, and colcon's --symlink-install, still work.
    (tmp_path / 'elsewhere').mkdir()
    secret = tmp_path / 'elsewhere' / 'robot.urdf'
    shutil.copy(os.path.join(ROOT, 'samples', 'sample_robot.urdf'), secret)
    package = tmp_path / 'checkout' / 'my_pkg'
    (package / 'urdf').mkdir(parents=True)
    (package / 'package.xml').write_text('<package><name>my_pkg</name></package>')
    (package / 'urdf' / 'robot.urdf').symlink_to(secret)
    result = run_measured(['info', str(package / 'urdf' / 'robot.urdf')])
    status, out, err = result.returncode, result.stdout, result.stderr
    assert status == 3 and 'leads out of' in err and 'sample_robot' not in out + err
    shutil.copy(secret, package / 'real.urdf')
    (package / 'urdf' / 'inside.urdf').symlink_to(package / 'real.urdf')
    assert run_measured(['info', str(package / 'urdf' / 'inside.urdf')]).returncode == 0
    installed = tmp_path / 'install' / 'share' / 'my_pkg'
    (installed / 'urdf').mkdir(parents=True)
    (installed / 'package.xml').symlink_to(package / 'package.xml')
    (installed / 'urdf' / 'robot.urdf').symlink_to(package / 'real.urdf')
    assert run_measured(['info', str(installed / 'urdf' / 'robot.urdf')]).returncode == 0
    # ... but a checkout's own package.xml linked to another checkout's does not make that
    # one its package (the red-team review: its robot and names were read and printed).
    checkout = tmp_path / 'pr_checkout'
    (checkout / '.git').mkdir(parents=True)
    evil = checkout / 'evil_pkg'
    (evil / 'urdf').mkdir(parents=True)
    (evil / 'package.xml').symlink_to(package / 'package.xml')
    (evil / 'urdf' / 'robot.urdf').symlink_to(package / 'real.urdf')
    result = run_measured(['info', str(evil / 'urdf' / 'robot.urdf')])
    assert result.returncode == 3 and 'leads out of' in result.stderr, result.stderr
    assert 'sample_robot' not in result.stdout + result.stderr
    # (one linked to a system file, with the robot linked to another, neither)
    (checkout / 'evil2').mkdir()
    (checkout / 'evil2' / 'package.xml').symlink_to(secret)
    (checkout / 'evil2' / 'robot.urdf').symlink_to(secret)
    result = run_measured(['info', str(checkout / 'evil2' / 'robot.urdf')])
    assert result.returncode == 3 and 'leads out of' in result.stderr, result.stderr


def test_a_mesh_linked_out_of_its_package_or_to_a_system_file_is_not_read(tmp_path):
    # Eighth red-team review: meshes/env.obj committed as a link to /proc/self/environ was
    # opened and parsed (the checker's environment: CI's secrets), /proc/kmsg read empties
    # the kernel log, and a link to another checkout's mesh was read. A link inside the
    # package, and colcon's --symlink-install, still work; so does file:// elsewhere.
    (tmp_path / 'elsewhere').mkdir()
    outside = tmp_path / 'elsewhere' / 'part.stl'
    shutil.copy(os.path.join(ROOT, 'samples', 'meshes', 'arm_collision.stl'), outside)
    pkg = tmp_path / 'checkout' / 'my_pkg'
    package(pkg, 'my_pkg')
    (pkg / 'meshes').mkdir()
    (pkg / 'meshes' / 'env.obj').symlink_to('/proc/self/environ')
    (pkg / 'meshes' / 'env.stl').symlink_to('/proc/self/environ')
    (pkg / 'meshes' / 'other.stl').symlink_to(outside)
    shutil.copy(outside, pkg / 'meshes' / 'real.stl')
    (pkg / 'meshes' / 'inside.stl').symlink_to(pkg / 'meshes' / 'real.stl')

    def check(filename, folder=pkg):
        robot = folder / 'robot.urdf'
        robot.write_text('<robot name="r"><link name="a"><collision><geometry>'
                         f'<mesh filename="{filename}"/></geometry></collision></link></robot>')
        result = run_measured(['check', '--format', 'json', '--package-dir',
                               f'my_pkg={folder}', str(robot)], cwd=str(tmp_path))
        assert 'Traceback' not in result.stderr, result.stderr
        return [f for f in json.loads(result.stdout)['findings']
                if f['rule'].startswith('mesh-')]

    for name in ('package://my_pkg/meshes/env.obj', 'meshes/env.obj',
                 'package://my_pkg/meshes/other.stl'):
        (found,) = check(name)
        assert found['rule'] == 'mesh-not-found' and 'leads out of' in found['message']
        assert 'env.stl' not in found['suggestion']  # no "did you mean" the other link
    # file:// names a file anywhere, by design, but never one of the operating system's,
    # nor one through a link the checkout holds (red-team review 16: it was read, as long as
    # the link did not lead to the operating system's files)
    assert 'leads out of' in check(f'file://{pkg}/meshes/env.obj')[0]['message']
    assert check(f'file://{outside}') == []
    assert check('package://my_pkg/meshes/inside.stl') == []
    # a link to another package of the same checkout (a meshes folder two variants share)
    (tmp_path / 'checkout' / '.git').mkdir()
    shared = tmp_path / 'checkout' / 'common' / 'meshes'
    shared.mkdir(parents=True)
    shutil.copy(outside, shared / 'base.stl')
    (pkg / 'shared').symlink_to(shared)
    assert check('package://my_pkg/shared/base.stl') == []
    assert check('package://my_pkg/meshes/other.stl')[0]['rule'] == 'mesh-not-found'
    installed = tmp_path / 'install' / 'share' / 'my_pkg'
    (installed / 'meshes').mkdir(parents=True)
    (installed / 'package.xml').symlink_to(pkg / 'package.xml')
    (installed / 'meshes' / 'real.stl').symlink_to(pkg / 'meshes' / 'real.stl')
    assert check('package://my_pkg/meshes/real.stl', installed) == []
    assert read_refusal('/proc/self/environ', None) is not None


def test_option_files_linked_out_of_the_package_or_into_git_are_refused(tmp_path):
    # Red-team review 4: --merge printed an outside SRDF whole, --srdf named its links,
    # --config quoted a line of .git/config or of an outside file, all through links the
    # pull request committed; a robot file linked into .git was read (content-free errors
    # only). Each is refused now, saying why, before anything is read.
    secret = 'PRIVATE_ROBOT_SECRET'
    outside = tmp_path / 'outside'
    outside.mkdir()
    (outside / 'private.srdf').write_text(f'<robot name="{secret}"><disable_collisions '
                                          'link1="PRIVLINK1" link2="b" reason="Never"/></robot>')
    (outside / 'private.yaml').write_text(f'density_min: 1\n{secret}: [\n')
    repo = tmp_path / 'repo'
    pkg = repo / 'pkg'
    package(pkg)
    (repo / '.git').mkdir()
    (repo / '.git' / 'config').write_text(f'[core]\n\trepositoryformatversion = {secret}\n')
    shutil.copy(os.path.join(ROOT, 'samples', 'sample_robot.urdf'), pkg / 'robot.urdf')
    (pkg / 'config').mkdir()
    os.symlink(outside / 'private.srdf', pkg / 'config' / 'robot.srdf')
    os.symlink(outside / 'private.yaml', pkg / 'config' / 'outside.yaml')
    os.symlink(repo / '.git' / 'config', pkg / 'config' / 'git.yaml')
    os.symlink(repo / '.git' / 'config', pkg / 'linked.urdf')
    robot = str(pkg / 'robot.urdf')
    for args in (['collisions', '--samples', '10', '--merge', 'pkg/config/robot.srdf', robot],
                 ['check', '--no-meshes', '--srdf', 'pkg/config/robot.srdf', robot],
                 ['check', '--no-meshes', '--config', 'pkg/config/outside.yaml', robot],
                 ['check', '--no-meshes', '--config', 'pkg/config/git.yaml', robot],
                 ['check', '--no-meshes', '--baseline', 'pkg/config/outside.yaml', robot]):
        result = run_measured(args, cwd=str(repo))
        assert result.returncode == 4, (args, result)
        assert secret not in result.stdout + result.stderr and 'PRIVLINK1' not in \
            result.stdout + result.stderr, (args, result)
        assert 'symbolic link' in result.stderr, (args, result)
    result = run_measured(['check', '--no-meshes', 'pkg/linked.urdf'], cwd=str(repo))
    assert result.returncode == 3 and 'leads into a .git directory' in result.stderr, result


def test_a_checkout_inside_another_package_reads_and_edits_nothing_of_it(tmp_path):
    # Ninth red-team review: a pull request checked out into a folder of another package
    # (its own .git, no package.xml) included ../../victim.xacro, which was read and, with
    # --fix-inertia, rewritten: the package search went past the checkout's .git.
    outer = tmp_path / 'outer'
    package(outer, 'outer_pkg')
    (outer / '.git').mkdir()
    victim = outer / 'victim.xacro'
    victim.write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:macro name="arm" '
        'params="parent"><link name="arm"><inertial><mass value="1"/><inertia ixx="0.01" '
        'ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05"/></inertial><collision><geometry>'
        '<box size="0.1 0.1 0.3"/></geometry></collision></link><joint name="j" '
        'type="fixed"><parent link="${parent}"/><child link="arm"/></joint></xacro:macro>'
        '</robot>')
    before = victim.read_bytes()
    checkout = outer / 'pr'
    (checkout / '.git').mkdir(parents=True)
    (checkout / 'urdf').mkdir()
    robot = checkout / 'urdf' / 'robot.urdf.xacro'
    robot.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                     '<xacro:include filename="../../victim.xacro"/><link name="base"/>'
                     '<xacro:arm parent="base"/></robot>')
    result = run_measured(['check', '--fix-inertia', str(robot)], cwd=str(tmp_path))
    assert result.returncode == 3, (result.returncode, result.stderr)
    assert 'is outside the directories this robot may read' in result.stderr, result.stderr
    assert victim.read_bytes() == before
