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
A CI job checks a package's sources unbuilt: its own name resolves to its own folder.

Found on published packages nobody here wrote (kobuki_description, lbr_description,
anymal_b_simple_description): ``$(find OWN)`` failed the check (exit 3) and
``package://OWN/...`` meshes went unread until ``--package-dir OWN=...`` was given. A sibling
package of the same repository is not read without ``--package-dir``, but the error names the
flag with its folder.
"""

import json
import os
import subprocess
import sys

from urdf_link_tools import packages

XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
# A 1 m cube of 1 kg whose tensor says 10 kg m^2: only a read mesh can show it is too big.
CUBE_STL = ('solid c\n' + ''.join(
    'facet normal 0 0 0\nouter loop\n'
    + ''.join(f'vertex {x} {y} {z}\n' for x, y, z in triangle)
    + 'endloop\nendfacet\n'
    for triangle in (
        ((0, 0, 0), (1, 1, 0), (1, 0, 0)), ((0, 0, 0), (0, 1, 0), (1, 1, 0)),
        ((0, 0, 1), (1, 0, 1), (1, 1, 1)), ((0, 0, 1), (1, 1, 1), (0, 1, 1)),
        ((0, 0, 0), (1, 0, 0), (1, 0, 1)), ((0, 0, 0), (1, 0, 1), (0, 0, 1)),
        ((0, 1, 0), (1, 1, 1), (1, 1, 0)), ((0, 1, 0), (0, 1, 1), (1, 1, 1)),
        ((0, 0, 0), (0, 0, 1), (0, 1, 1)), ((0, 0, 0), (0, 1, 1), (0, 1, 0)),
        ((1, 0, 0), (1, 1, 0), (1, 1, 1)), ((1, 0, 0), (1, 1, 1), (1, 0, 1))))
    + 'endsolid c\n')
LINK = ('<link name="body"><inertial><mass value="1"/><origin xyz="0.5 0.5 0.5"/>'
        '<inertia ixx="10" ixy="0" ixz="0" iyy="10" iyz="0" izz="10"/></inertial>'
        '<collision><geometry><mesh filename="package://my_robot/meshes/cube.stl"/>'
        '</geometry></collision></link>')


def manifest(name):
    return (f'<?xml version="1.0"?>\n<package format="3"><name>{name}</name>'
            '<version>0.0.0</version><description>d</description>'
            '<maintainer email="a@b.c">a</maintainer><license>MIT</license></package>\n')


def package(root, name):
    root.mkdir(parents=True)
    (root / 'package.xml').write_text(manifest(name))
    (root / 'urdf').mkdir()
    (root / 'meshes').mkdir()
    (root / 'meshes' / 'cube.stl').write_text(CUBE_STL)
    return root


def including(own, package_name, last):
    """Write OWN/urdf/robot.urdf.xacro including $(find PACKAGE)'s file, then ``last``."""
    top = own / 'urdf' / 'robot.urdf.xacro'
    folder = 'urdf/parts.xacro' if package_name == own.name else 'urdf/g.xacro'
    top.write_text(f'<robot {XACRO_NS} name="r">\n'
                   f'  <xacro:include filename="$(find {package_name})/{folder}"/>\n'
                   f'  {last}\n</robot>\n')
    return top


def check(cwd, *args):
    env = dict(os.environ, AMENT_PREFIX_PATH='')  # no workspace sourced, as on a CI runner
    return subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli', 'check', *args,
                           '--format', 'jsonl', '--fail-on', 'never'],
                          cwd=cwd, capture_output=True, text=True, timeout=120, env=env)


def rules(out):
    return sorted(finding['rule'] for line in out.splitlines() if line.strip()
                  for finding in json.loads(line).get('findings', []))


def test_find_and_package_uris_of_the_own_package_resolve_to_its_sources(tmp_path):
    own = package(tmp_path / 'repo' / 'my_robot', 'my_robot')
    (own / 'urdf' / 'parts.xacro').write_text(
        f'<robot {XACRO_NS}><xacro:macro name="body">{LINK}</xacro:macro></robot>\n')
    top = including(own, 'my_robot', '<xacro:body/>')
    result = check(tmp_path, str(top))
    assert result.returncode == 0, result.stderr
    info = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli', 'info', str(top)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, AMENT_PREFIX_PATH=''))
    assert info.returncode == 0 and 'body' in info.stdout, info.stderr
    # The mesh was read: the tensor is measured against the 1 m cube it is far too big for.
    assert 'inertia-exceeds-extent' in rules(result.stdout), result.stdout
    assert 'mesh-not-found' not in result.stdout
    # A plain URDF of the package: its package:// mesh is read too.
    plain = own / 'urdf' / 'robot.urdf'
    plain.write_text(f'<robot name="r">{LINK}</robot>\n')
    result = check(tmp_path, str(plain))
    assert 'inertia-exceeds-extent' in rules(result.stdout) and \
        'mesh-not-found' not in result.stdout, result.stdout


def test_the_given_package_dir_and_the_ament_index_come_first(tmp_path):
    own = package(tmp_path / 'repo' / 'my_robot', 'my_robot')
    plain = own / 'urdf' / 'robot.urdf'
    plain.write_text(f'<robot name="r">{LINK}</robot>\n')
    other = package(tmp_path / 'elsewhere' / 'my_robot', 'my_robot')
    (other / 'meshes' / 'cube.stl').unlink()  # the given one has no mesh: it was used
    result = check(tmp_path, str(plain), '--package-dir', f'my_robot={other}')
    assert 'mesh-not-found' in rules(result.stdout), result.stdout
    assert packages.own_package_dir(str(plain), ['my_robot']) is None
    index = tmp_path / 'prefix' / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / 'my_robot').write_text('')
    assert packages.own_package_dir(str(plain), [], [str(tmp_path / 'prefix')]) is None
    assert packages.own_package_dir(str(plain), [], []) == ('my_robot', str(own))
    assert packages.own_package_dir('-', [], []) is None


def test_a_linked_manifest_names_no_package(tmp_path):
    # A pull request's package.xml linked to another checkout's: that name resolves nowhere.
    other = package(tmp_path / 'other' / 'secret_robot', 'secret_robot')
    own = tmp_path / 'repo' / 'pr'
    (own / 'urdf').mkdir(parents=True)
    os.symlink(other / 'package.xml', own / 'package.xml')
    robot = own / 'urdf' / 'robot.urdf'
    robot.write_text('<robot name="r"><link name="a"/></robot>\n')
    assert packages.own_package_dir(str(robot), [], []) is None


def test_a_sibling_package_is_not_read_but_named_with_its_folder(tmp_path):
    repo = tmp_path / 'repo'
    own = package(repo / 'my_robot', 'my_robot')
    package(repo / 'my_robot_gazebo', 'my_robot_gazebo')
    (repo / '.git').mkdir()
    top = including(own, 'my_robot_gazebo', '<link name="a"/>')
    result = check(repo, str(top))
    assert result.returncode == 3, result.stderr
    assert result.stderr.strip().endswith(
        '; in this repository: --package-dir my_robot_gazebo=my_robot_gazebo'), result.stderr
    # Without .git (a source tarball, a colcon src from vcs export: DENSO's), the folder
    # holding the package is searched, when it lies in the working directory.
    os.rmdir(repo / '.git')
    result = check(repo, str(top))
    assert result.returncode == 3, result.stderr
    assert result.stderr.strip().endswith(
        '; in this repository: --package-dir my_robot_gazebo=my_robot_gazebo'), result.stderr
    result = check(tmp_path, str(top))
    assert result.stderr.strip().endswith(
        '; in this repository: --package-dir my_robot_gazebo=repo/my_robot_gazebo'), \
        result.stderr
    # Run from elsewhere, nothing is searched.
    (tmp_path / 'ci').mkdir()
    result = check(tmp_path / 'ci', str(top))
    assert result.returncode == 3 and 'in this repository' not in result.stderr


def test_a_ros1_file_of_macros_under_root_is_said_so_or_skipped(tmp_path):
    # Kinova's j2n6s300.xacro and the PR2's sensor macros: <root xmlns:xacro=...>, which
    # xacro expands to a document of no link; --skip-macro-files (the pre-commit hook) skips
    # it instead of failing the commit. Checked alone it is robot-empty (exit 2), as a file
    # of macros under <robot> is, not an input that could not be read (exit 3: sweep K, 34
    # files of Kinova, PR2, youBot and VRX that xacro expands).
    path = tmp_path / 'arm.xacro'
    path.write_text(f'<root {XACRO_NS}>\n  <xacro:macro name="arm" params="prefix">\n'
                    '    <link name="${prefix}_base"/>\n  </xacro:macro>\n</root>\n')
    result = check(tmp_path, str(path))
    assert result.returncode == 0 and rules(result.stdout) == ['robot-empty'], result.stderr
    (finding,) = json.loads(result.stdout)['findings']
    assert finding['severity'] == 'error' and 'a file of macros' in finding['message'] and \
        '--skip-macro-files' in finding['suggestion'], finding
    robot = path.with_name('robot.xacro')
    text = path.read_text().replace('<root', '<robot')
    robot.write_text(text.replace('</root>', '</robot>'))
    alike = check(tmp_path, str(robot))
    assert json.loads(alike.stdout)['findings'] == [dict(finding, file='robot.xacro')], \
        (alike.stdout, result.stdout)
    robot.unlink()
    result = check(tmp_path, str(path), '--skip-macro-files')
    assert result.returncode == 0 and 'skipped' in result.stderr, result.stderr
    # info says the same (it said "expected <robot>: is this a URDF?")
    result = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli', 'info', str(path)],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, AMENT_PREFIX_PATH=''))
    assert result.returncode == 3 and 'a file of macros' in result.stderr, result.stderr
    # A <root> document that does hold links is no macro file: still refused.
    path.write_text(f'<root {XACRO_NS}>\n  <link name="a"/>\n</root>\n')
    result = check(tmp_path, str(path), '--skip-macro-files')
    assert result.returncode == 3 and 'expected <robot>' in result.stderr


def test_a_file_whose_root_is_a_macro_is_skipped_with_its_includer_or_checked_alone(tmp_path):
    # Quori's quori_kinematics.xacro (sweep M): <xacro:macro name="quori_kinematics"> as the
    # root, holding the links; xacro keeps it as the root, and an include inserts the root's
    # children (the links themselves). Checked with quori.xacro, which includes it, with
    # --skip-macro-files (the pre-commit hook) it exited 3 ("line 6: the root element is
    # <xacro:macro>, expected <robot>"): now skipped; alone, its links are checked as a
    # robot, at the lines of the file.
    parts = tmp_path / 'parts.xacro'
    parts.write_text(f'<?xml version="1.0"?>\n<xacro:macro name="body" {XACRO_NS}>\n'
                     f'  {LINK}\n</xacro:macro>\n')
    robot = tmp_path / 'robot.xacro'
    robot.write_text(f'<robot name="r" {XACRO_NS}>\n  <xacro:include filename="parts.xacro"/>'
                     '\n</robot>\n')
    for options in (('--skip-macro-files',), ()):
        result = check(tmp_path, *options, str(parts), str(robot))
        assert result.returncode == 0, result.stderr
        assert 'parts.xacro: skipped' in result.stderr, result.stderr
        reports = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
        assert [os.path.basename(report['source']) for report in reports] == \
            ['robot.xacro'], result.stdout
    alone = check(tmp_path, str(parts))
    assert alone.returncode == 0 and 'skipped' not in alone.stderr, alone.stderr
    (report,) = [json.loads(line) for line in alone.stdout.splitlines() if line.strip()]
    assert report['robot'] == 'body' and report['source'].endswith('parts.xacro'), report
    assert report['findings'] and \
        {finding['line'] for finding in report['findings']} == {3}, report['findings']


def test_an_empty_file_is_skipped_by_the_pre_commit_mode_and_refused_alone(tmp_path):
    # InMoov's four 0-byte *.urdf.xacro placeholders (sweep N): `check --skip-macro-files`
    # (the pre-commit hook) exited 3 on them ("not well-formed XML: no element found").
    for name in ('stub.urdf.xacro', 'blank.urdf'):
        (tmp_path / name).write_text('' if name.endswith('.xacro') else '\n  \n')
    (tmp_path / 'ok.urdf').write_text('<robot name="r"><link name="a"/></robot>\n')
    files = [str(tmp_path / name) for name in ('stub.urdf.xacro', 'blank.urdf', 'ok.urdf')]
    result = check(tmp_path, '--skip-macro-files', *files)
    assert result.returncode == 0, result.stderr
    assert 'stub.urdf.xacro: skipped, an empty file (nothing to check)' in result.stderr
    assert 'blank.urdf: skipped, an empty file' in result.stderr
    alone = check(tmp_path, files[0])
    assert alone.returncode == 3, alone.stderr
