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

"""Findings point where the user wrote them: xacro file:line, macro chain, YAML value; fixes."""

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import types

import pytest
from urdf_link_tools.errors import UrdfInputError
from urdf_link_tools.loading import load_input
from urdf_link_tools.xacro import tracer
from urdf_link_tools.xacro.sandbox import expand_xacro, XacroError, XacroOptions
from xacro_child_patch import OTHER_XACRO_VERSION, patch_child

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROBOT_DIR = os.path.join(ROOT, 'test', 'data', 'xacro_robot')
TOP = os.path.join(ROBOT_DIR, 'urdf', 'robot.urdf.xacro')
SAMPLE = os.path.join(ROOT, 'samples', 'sample_robot.urdf')


def check(*args, cwd=ROOT):
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', '--format', 'json',
         '--no-meshes', *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert result.returncode in (0, 1, 2), result.stderr
    return json.loads(result.stdout), result.stderr


def line_of(path, text, occurrence=1):
    """Return the 1-based line of the n-th line of a file that contains text."""
    with open(path) as stream:
        hits = [number for number, line in enumerate(stream, 1) if text in line]
    assert len(hits) >= occurrence, (path, text)
    return hits[occurrence - 1]


def by_rule_and_link(report):
    return {(f['rule'], f['link']): f for f in report['findings']}


def robot_args(*extra):
    return (os.path.relpath(TOP, ROOT), f'--package-dir=demo_description={ROBOT_DIR}', *extra)


def test_xacro_findings_name_the_source_line_and_macro_chain():
    report, _ = check(*robot_args())
    found = by_rule_and_link(report)
    macros = os.path.join(ROBOT_DIR, 'urdf', 'arm_macros.xacro')
    inertia = os.path.join(ROBOT_DIR, 'urdf', 'inertia_macros.xacro')
    rel = lambda path: os.path.relpath(path, ROOT)  # noqa: E731

    # A literal in the top file, inside xacro:unless: that file and line, no macro.
    tool = found[('inertia-triangle-inequality', 'tool_link')]
    assert (tool['file'], tool['line']) == (rel(TOP), line_of(TOP, 'izz="0.03"'))
    assert tool['macro_stack'] == []
    # Made by a nested macro from another included file: the inner macro's body line, and
    # the chain box_inertial (called in arm_macros.xacro) <- arm_segment (called in the top).
    upper = found[('inertia-triangle-inequality', 'upper_link')]
    assert (upper['file'], upper['line']) == (rel(inertia), line_of(inertia, '<inertia '))
    assert upper['macro_stack'] == [
        {'macro': 'box_inertial', 'file': rel(macros),
         'line': line_of(macros, '<xacro:box_inertial')},
        {'macro': 'arm_segment', 'file': rel(TOP),
         'line': line_of(TOP, '<xacro:arm_segment prefix="upper"')}]
    # A mass from YAML through a macro parameter: the element's line and the YAML line.
    fore = found[('density-implausible', 'fore_link')]
    assert (fore['file'], fore['line']) == (rel(inertia), line_of(inertia, '<mass '))
    assert fore['macro_stack'][1]['line'] == line_of(TOP, '<xacro:arm_segment prefix="fore"')
    yaml_file = os.path.join(ROBOT_DIR, 'config', 'arm.yaml')
    assert fore['value_source'] == {'file': rel(yaml_file),
                                    'line': line_of(yaml_file, 'forearm_mass:')}
    # A plain element of the top file.
    base = found[('root-link-inertia', 'base_link')]
    assert (base['file'], base['line']) == (rel(TOP), line_of(TOP, '<inertial>'))


def test_xacro_arguments_and_insert_block_reach_the_expansion(tmp_path):
    expanded = tmp_path / 'expanded.urdf'
    report, _ = check(*robot_args('with_gripper:=true', 'upper_mass:=3.0',
                                  f'--emit-urdf={expanded}'))
    links = {f['link'] for f in report['findings']}
    assert 'tool_link' not in links
    text = expanded.read_text()
    assert '<link name="gripper_link">' in text and 'tool_link' not in text
    assert 'rpy="0 0 0" xyz="0 0 0.5"' in text  # the inserted block
    assert '<mass value="3.0"/>' in text
    # One element per line: no line holds two start tags.
    assert all(line.count('<') <= 2 for line in text.splitlines() if '<!--' not in line)


def test_plain_urdf_findings_name_the_urdf_and_its_lines():
    report, _ = check(os.path.relpath(SAMPLE, ROOT))
    assert report['findings']
    for finding in report['findings']:
        assert finding['file'] == os.path.relpath(SAMPLE, ROOT)
        assert finding['macro_stack'] == []
    mismatch = by_rule_and_link(report)[('inertia-exceeds-extent', 'my_link')]
    assert mismatch['line'] == line_of(SAMPLE, 'ixx="100"')


def test_a_urdf_with_the_xacro_namespace_is_not_run_through_xacro(tmp_path):
    marker = tmp_path / 'ran'
    urdf = tmp_path / 'robot.urdf'
    urdf.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        f'<xacro:property name="x" value="${{open(\'{marker}\', \'w\')}}"/>'
        '<link name="base"/></robot>')
    report, err = check(str(urdf))
    assert report['robot'] == 'r'
    assert 'read as plain URDF' in err
    assert not marker.exists()
    # an expanded URDF that kept only the declaration (example-robot-data's panda, Bullet's
    # kuka_iiwa): nothing for xacro to do, no note
    urdf.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                    '<link name="base"/></robot>')
    report, err = check(str(urdf))
    assert report['robot'] == 'r' and 'xacro' not in err
    # xacro left in a comment of an exported URDF (Motoman's SIA5D: <!--r=${90*deg}-->) is no
    # use of it; markup after the comment still is
    urdf.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                    '<!-- r=${90*deg} <xacro:include filename="$(find x)/a.xacro"/> -->'
                    '<link name="base"/></robot>')
    report, err = check(str(urdf))
    assert report['robot'] == 'r' and 'xacro' not in err
    urdf.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                    '<!-- generated --><link name="${prefix}base"/></robot>')
    report, err = check(str(urdf))
    assert 'read as plain URDF' in err
    # a property nothing uses (myCobot's .urdf files): xacro would make the same robot
    unused = ('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
              '<xacro:property name="width" value=".2" /><link name="base"/></robot>')
    urdf.write_text(unused)
    report, err = check(str(urdf))
    assert report['robot'] == 'r' and 'xacro' not in err
    urdf.write_text(unused.replace('name="base"', 'name="base${width}"'))
    report, err = check(str(urdf))
    assert 'read as plain URDF' in err


def test_fix_inertia_edits_literals_in_the_xacro_and_reports_the_rest(tmp_path):
    copy = tmp_path / 'robot'
    shutil.copytree(ROBOT_DIR, copy)
    top = copy / 'urdf' / 'robot.urdf.xacro'
    before = {path: path.read_bytes() for path in copy.rglob('*') if path.is_file()}
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', '--no-meshes', str(top),
         f'--package-dir=demo_description={copy}', '--fix-inertia'],
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    line = line_of(top, 'ixx="0.000206952023"')  # a sphere: the nearest valid is too big
    assert f'robot/urdf/robot.urdf.xacro:{line}: changed' in result.stdout
    assert 'is an expression: it should give' in result.stdout
    assert 'a macro used more than once' in result.stdout
    after = {path: path.read_bytes() for path in copy.rglob('*') if path.is_file()}
    assert set(after) == set(before)  # nothing written beside the sources
    changed = [path for path in after if after[path] != before[path]]
    assert changed == [top]
    old_lines, new_lines = before[top].splitlines(), after[top].splitlines()
    differing = [i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b]
    assert differing == [line - 1] and len(old_lines) == len(new_lines)
    # The re-check no longer flags tool_link's tensor.
    report, _ = check(str(top), f'--package-dir=demo_description={copy}', cwd=tmp_path)
    assert ('inertia-triangle-inequality', 'tool_link') not in by_rule_and_link(report)


def test_a_suggested_tensor_names_the_expressions_that_compute_it():
    # TIAGo's arm writes ixy="${reflect * -0.001809}": the numbers of a fix, pasted in
    # place of the expression, would break the other arm. The fix names the expressions.
    report, _ = check(*robot_args())
    upper = by_rule_and_link(report)[('inertia-triangle-inequality', 'upper_link')]
    assert upper['suggestion'].endswith(
        '; the xacro computes ixx="${mass * (y*y + z*z) / 12}", iyy="${mass * (x*x + z*z) / '
        '12}": change those expressions or values to give these numbers for this link, not '
        'the numbers in their place (a macro may serve other links; --fix-inertia edits only '
        'literal numbers and lists the rest)')
    tool = by_rule_and_link(report)[('inertia-triangle-inequality', 'tool_link')]
    assert 'the xacro computes' not in tool['suggestion']  # literal numbers only


def test_fix_inertia_never_writes_a_urdf_over_a_xacro(tmp_path):
    target = tmp_path / 'out.urdf.xacro'
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', '--no-meshes', SAMPLE,
         '--fix-inertia', str(target)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 4 and not target.exists()  # a usage error
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', '--no-meshes', TOP,
         f'--package-dir=demo_description={ROBOT_DIR}', '--fix-inertia',
         str(tmp_path / 'x.urdf')], capture_output=True, text=True, timeout=60)
    assert result.returncode == 4 and 'in place' in result.stderr  # a usage error


def test_find_pkg_share_is_refused_as_xacro_refuses_it(tmp_path):
    # A launch substitution, not xacro's: xacro 2 stops at it ("Unknown substitution command
    # [find-pkg-share ...]"), so a check that read it as $(find) passed CI with a description
    # that fails at launch (sweep I).
    top = tmp_path / 'r.urdf.xacro'
    top.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                   '<xacro:include filename="$(find-pkg-share demo_description)/urdf/'
                   'inertia_macros.xacro"/><link name="a"><xacro:box_inertial mass="1" x="1" '
                   'y="1" z="1"/></link></robot>')
    with pytest.raises(UrdfInputError, match=re.escape(
            'Unknown substitution command [find-pkg-share demo_description]: '
            '$(find-pkg-share NAME) is a launch substitution, which xacro does not have: '
            'write $(find NAME)')):
        load_input(str(top), options=XacroOptions(package_dirs={'demo_description': ROBOT_DIR}))
    top.write_text(top.read_text().replace('find-pkg-share', 'find'))
    loaded = load_input(str(top), options=XacroOptions(
        package_dirs={'demo_description': ROBOT_DIR}))
    assert b'<mass value="1"/>' in loaded.data


@pytest.mark.parametrize('args', [('bad-argument',), ('--xacro-env',)])
def test_bad_xacro_arguments_are_usage_errors(args):
    result = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli', 'check', TOP, *args],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and 'Traceback' not in result.stderr


def test_another_xacro_version_fails_soft_to_expanded_lines(monkeypatch, tmp_path):
    patch_child(monkeypatch, tmp_path, OTHER_XACRO_VERSION)
    loaded = load_input(TOP, options=XacroOptions(package_dirs={'demo_description': ROBOT_DIR}))
    assert any('xacro 9.9.9 is not the version' in note for note in loaded.notes)
    assert len(loaded.source_map) == 0
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.config import CheckConfig
    from urdf_link_tools.parser import parse_urdf_string
    robot = parse_urdf_string(loaded.data, loaded.source)
    findings = loaded.locate(analyze(robot, CheckConfig(check_meshes=False)).findings)
    lines = loaded.data.decode().splitlines()
    tool = [f for f in findings if f.link == 'tool_link'][0]
    assert tool.file.endswith('robot.urdf.xacro (expanded)') and tool.macro_stack == ()
    assert '<inertia ' in lines[tool.line - 1]  # a line of the expansion


def test_a_child_that_outlives_the_wall_clock_limit_is_stopped(monkeypatch, tmp_path):
    # Sleeping burns no CPU, so only the wall-clock limit (three times the CPU one) stops
    # it: the wait on the child's exit must give up then, and the child's group be killed.
    patch_child(monkeypatch, tmp_path, 'import time\ntime.sleep(60)\n')
    with pytest.raises(XacroError, match='took longer than 1.5 s'):
        expand_xacro(TOP, XacroOptions(package_dirs={'demo_description': ROBOT_DIR},
                                       timeout=0.5))


@pytest.mark.parametrize('names,version', [
    (['xacro', 'xacro-2.1.1.dist-info'], '2.1.1'),
    (['xacro', 'xacro-2.0.13-py3.12.egg-info', 'yaml'], '2.0.13'),  # a ROS (colcon) install
    (['xacro', 'xacro-2.1.1.dist-info', 'xacro-2.0.8.dist-info'], 'asked'),  # not alone
    (['xacro'], 'asked')])
def test_the_xacro_version_is_read_from_its_metadata_folder(
        monkeypatch, tmp_path, names, version):
    for name in names:
        (tmp_path / name).mkdir()
    (tmp_path / 'xacro' / '__init__.py').write_text('')
    module = types.SimpleNamespace(__file__=str(tmp_path / 'xacro' / '__init__.py'))
    monkeypatch.setattr(importlib.metadata, 'version', lambda name: 'asked')
    assert tracer.xacro_version(module) == version


def test_info_names_xacro_sources():
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'info', os.path.relpath(TOP, ROOT),
         f'--package-dir=demo_description={ROBOT_DIR}'], cwd=ROOT, capture_output=True,
        text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    macros = os.path.join(ROBOT_DIR, 'urdf', 'arm_macros.xacro')
    rows = {line.split()[0]: line.split()[1] for line in result.stdout.splitlines()[2:]}
    assert rows['upper_link'] == (f'{os.path.relpath(macros, ROOT)}:'
                                  f'{line_of(macros, "<link name=")}')
    assert rows['base_link'] == f'{os.path.relpath(TOP, ROOT)}:{line_of(TOP, "base_link")}'


def test_a_misspelt_argument_is_named_with_the_closest_declared_one():
    # xacro ignores a name:=value nothing reads: UR's ur_typ:=ur5e left ur_type at its
    # default without a word.
    _, err = check(*robot_args('with_griper:=true'))
    assert ('note: the argument with_griper (did you mean with_gripper?) given on the '
            'command line is declared by no <xacro:arg>') in err
    _, err = check(*robot_args('with_gripper:=true', 'upper_mass:=3.0'))
    assert 'given on the command line' not in err


def test_a_failed_expansion_names_a_misspelt_argument(tmp_path):
    top = tmp_path / 'arm.urdf.xacro'
    top.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                   '<link name="l$(arg dof)"/></robot>')
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', str(top), 'dofs:=6', 'a{0}:=1'],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stderr
    assert (f'undefined xacro argument dof (in {top}:1): it has no default; give it after '
            'the file as dof:=VALUE') in result.stderr
    # braces in a name are text, not a format field
    assert '; the arguments dofs (did you mean dof?), a{0} given on the command line are' \
        in result.stderr


def test_every_missing_package_is_named_in_one_run(tmp_path):
    # open_manipulator named open_manipulator_description, then on the next run
    # open_manipulator_bringup: a CI job would need a run per package.
    top = tmp_path / 'arm.urdf.xacro'
    top.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '<link name="l"><visual><geometry><mesh filename="file://$(find first_pkg)/m.stl"/>'
        '</geometry></visual></link>\n'
        '<gazebo><parameters>$(find second_pkg)/config/c.yaml</parameters></gazebo>\n'
        '<xacro:include filename="$(find third_pkg)/urdf/more.xacro"/>\n'
        '<link name="$(find fourth_pkg)"/></robot>')
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', str(top)],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stderr
    # The include under third_pkg is skipped (empty), so fourth_pkg, after it, is named too.
    assert (f"packages not found: 'first_pkg' (in {top}:2), 'second_pkg' (in {top}:3), "
            f"'third_pkg' (in {top}:4), 'fourth_pkg' (in {top}:5): pass "
            '--package-dir first_pkg=PATH --package-dir second_pkg=PATH '
            '--package-dir third_pkg=PATH --package-dir fourth_pkg=PATH') in result.stderr
    assert 'No such file' not in result.stderr and 'nonexistent' not in result.stderr
    assert 'stopped' not in result.stderr


def test_text_headings_name_where_each_link_was_written():
    # A link's heading names its xacro file and line, never a line of the expansion (Go1's
    # trunk was "robot.xacro:411" in a file of 151 lines).
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', '--no-meshes', *robot_args()],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode in (1, 2), result.stderr
    macros = os.path.join(ROBOT_DIR, 'urdf', 'arm_macros.xacro')
    headings = {line.split()[1]: line.split()[2] for line in result.stdout.splitlines()
                if line.startswith('link ') and '(' in line}
    assert headings['upper_link'] == f'({os.path.relpath(macros, ROOT)}:' \
                                     f'{line_of(macros, "<link name=")}):'
    assert headings['base_link'] == \
        f'({os.path.relpath(TOP, ROOT)}:{line_of(TOP, "<link name=" + chr(34) + "base_link")}):'


def test_a_file_included_as_dot_slash_is_named_without_the_dot(tmp_path):
    # HEBI's kits include filename="./bracket.xacro": headings and findings named
    # ".../components/./bracket.xacro:6", the same file written two ways.
    parts = tmp_path / 'parts'
    parts.mkdir()
    (parts / 'part.xacro').write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '<link name="part"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" '
        'iyy="1" iyz="0" izz="3"/></inertial></link>\n</robot>\n')
    (parts / 'robot.urdf.xacro').write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '<link name="base"/>\n<xacro:include filename="./part.xacro"/>\n'
        '<joint name="j" type="fixed"><parent link="base"/><child link="part"/></joint>\n'
        '</robot>\n')
    report, _ = check(str(parts / 'robot.urdf.xacro'), cwd=ROOT)
    (finding,) = [f for f in report['findings'] if f['rule'] == 'inertia-triangle-inequality']
    assert (finding['file'], finding['line']) == (str(parts / 'part.xacro'), 2), finding
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', '--no-meshes',
         str(parts / 'robot.urdf.xacro')], cwd=ROOT, capture_output=True, text=True,
        timeout=120)
    assert f'link part ({parts / "part.xacro"}:2)' in result.stdout, result.stdout
    assert '/./' not in result.stdout


def test_cwd_names_the_directory_the_check_runs_in(tmp_path):
    # xacro's $(cwd) is the directory xacro runs in (robotics-toolbox's include-recursive
    # test). It named the private folder the sandboxed expansion runs in, a new one each
    # run: the include was refused, and allowing that folder then found no file there.
    robot = tmp_path / 'robot'
    robot.mkdir()
    (robot / 'part.xacro').write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="part"/></robot>\n')
    (robot / 'robot.urdf.xacro').write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '<xacro:include filename="$(cwd)/part.xacro"/>\n<link name="base"/>\n'
        '<joint name="j" type="fixed"><parent link="base"/><child link="part"/></joint>\n'
        '</robot>\n')
    expanded = tmp_path / 'expanded.urdf'
    check('robot.urdf.xacro', f'--emit-urdf={expanded}', cwd=str(robot))
    assert '<link name="part"/>' in expanded.read_text(), expanded.read_text()
    # run elsewhere, $(cwd) is that other directory, read only if allowed
    elsewhere = tmp_path / 'elsewhere'
    elsewhere.mkdir()
    (elsewhere / 'part.xacro').write_text((robot / 'part.xacro').read_text())
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', '--no-meshes',
         str(robot / 'robot.urdf.xacro')], cwd=str(elsewhere), capture_output=True, text=True,
        timeout=120)
    assert result.returncode == 3 and \
        f'{elsewhere / "part.xacro"} is outside the directories this robot may read' in \
        result.stderr, result.stderr
    expanded.unlink()
    check(str(robot / 'robot.urdf.xacro'), f'--xacro-allow-dir={elsewhere}',
          f'--emit-urdf={expanded}', cwd=str(elsewhere))
    assert '<link name="part"/>' in expanded.read_text(), expanded.read_text()


def test_blocks_keep_their_call_site_and_conditionals_their_lines():
    loaded = load_input(TOP, options=XacroOptions(
        package_dirs={'demo_description': ROBOT_DIR}, mappings={'with_gripper': 'true'}))
    lines = loaded.data.decode().splitlines()

    def where(text):
        (number,) = [i + 1 for i, line in enumerate(lines) if text in line]
        return loaded.source_map.locate(number)

    # The <origin> block written at the call site, inserted inside the macro's <joint>:
    # it stays the call site's line, and no macro wrote it.
    block = where('xyz="0 0 0.2"')
    assert (block.file, block.line) == (TOP, line_of(TOP, 'xyz="0 0 0.2"'))
    assert block.macro_stack == ()
    # The joint around it is the macro body's.
    joint = where('<joint name="upper_joint"')
    macros = os.path.join(ROBOT_DIR, 'urdf', 'arm_macros.xacro')
    assert (joint.file, joint.line) == (macros, line_of(macros, '<joint name='))
    assert [call.name for call in joint.macro_stack] == ['arm_segment']
    # Inside a taken xacro:if.
    gripper = where('<link name="gripper_link"')
    assert (gripper.file, gripper.line) == (TOP, line_of(TOP, '<link name="gripper_link"'))


XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'


def _refused(path):
    """Check a xacro file that cannot be expanded; return what the check said of it."""
    result = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli', 'check', str(path)],
                            cwd=path.parent, capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stderr
    return result.stderr


def test_a_missing_include_names_the_chain_and_a_missing_argument_how_to_give_it(tmp_path):
    (tmp_path / 'top.urdf.xacro').write_text(
        f'<robot {XACRO_NS} name="r"><xacro:include filename="mid.xacro"/><link name="a"/>'
        '</robot>')
    (tmp_path / 'mid.xacro').write_text(
        f'<robot {XACRO_NS}><xacro:include filename="gone.xacro"/></robot>')
    said = _refused(tmp_path / 'top.urdf.xacro')
    # the place is the file that includes the missing one (sweep Q: EZGripper's error was
    # said to be "in" the missing file)
    assert (f'(in {tmp_path / "mid.xacro"}:1, included from {tmp_path / "top.urdf.xacro"})'
            in said), said
    assert f'in {tmp_path / "gone.xacro"}' not in said, said
    (tmp_path / 'arg.urdf.xacro').write_text(
        f'<robot {XACRO_NS} name="$(arg name)"><xacro:arg name="name"/><link name="a"/></robot>')
    said = _refused(tmp_path / 'arg.urdf.xacro')
    assert ('undefined xacro argument name (in ' in said
            and 'give it after the file as name:=VALUE' in said), said
    # An argument whose default is empty builds an include path that does not exist (Kinova's
    # gen3.xacro: arms/gen3/$(arg dof)dof/...): the error names the empty argument.
    (tmp_path / 'empty.urdf.xacro').write_text(
        f'<robot {XACRO_NS} name="r"><xacro:arg name="dof" default=""/><xacro:arg name="x" '
        'default="1"/><xacro:include filename="arms/$(arg dof)dof/macro.xacro"/>'
        '<link name="a"/></robot>')
    said = _refused(tmp_path / 'empty.urdf.xacro')
    assert 'empty <xacro:arg>: dof;' in said and 'dof:=VALUE' in said and 'x:=' not in said, said
    # Through a property too (${dof}, set from the argument), as Kinova writes it.
    (tmp_path / 'property.urdf.xacro').write_text(
        f'<robot {XACRO_NS} name="r"><xacro:arg name="dof" default=""/>'
        '<xacro:property name="dof" value="$(arg dof)"/>'
        '<xacro:include filename="arms/${dof}dof/macro.xacro"/><link name="a"/></robot>')
    assert 'empty <xacro:arg>: dof;' in _refused(tmp_path / 'property.urdf.xacro')


def test_a_missing_include_under_a_package_names_the_package_not_unrelated_arguments(tmp_path):
    # An empty argument the include's path does not use is not the cause: a --package-dir
    # that points at the wrong directory is (a new user's xArm and Doosan runs).
    package = tmp_path / 'pkg'
    (package / 'urdf').mkdir(parents=True)
    (package / 'package.xml').write_text('<package format="3"><name>pkg</name></package>')
    (package / 'urdf' / 'parts.xacro').write_text(f'<robot {XACRO_NS}/>')
    (package / 'urdf' / 'top.urdf.xacro').write_text(
        f'<robot {XACRO_NS} name="r"><xacro:arg name="prefix" default=""/>'
        '<xacro:include filename="$(find pkg)/urdf/parts.xacro"/>'
        '<link name="$(arg prefix)a"/></robot>')
    for given, why in ((tmp_path, 'which holds no package.xml'),
                       (tmp_path / 'nope', 'which does not exist')):
        result = subprocess.run(
            [sys.executable, '-m', 'urdf_link_tools.cli', 'check',
             str(package / 'urdf' / 'top.urdf.xacro'), '--package-dir', f'pkg={given}'],
            capture_output=True, text=True, timeout=120)
        assert result.returncode == 3, result.stderr
        assert f'$(find pkg) is {given}, {why}: check --package-dir pkg=PATH' in result.stderr
        assert '<xacro:arg>' not in result.stderr, result.stderr
    # The package found, the file is what is missing: no --package-dir advice, and a file of
    # the package whose name extends the one included (sweep Q: EZGripper's
    # ezgripper_dual.urdf.xacro-call-inside-robot-arm-urdf) is named.
    (package / 'urdf' / 'parts.xacro').rename(package / 'urdf' / 'parts.xacro-for-arms')
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check',
         str(package / 'urdf' / 'top.urdf.xacro'), '--package-dir', f'pkg={package}'],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stderr
    assert (f'(package pkg is {package}, and it has no urdf/parts.xacro: did you mean '
            'urdf/parts.xacro-for-arms? That file exists in the package)') in result.stderr, \
        result.stderr
    assert 'check --package-dir' not in result.stderr


def test_a_dependencys_macro_findings_name_it_and_can_be_left_out(tmp_path):
    # A robot calling a camera macro of another package (realsense2_description's): the
    # camera link's fault is that package's. Its finding says so; --ignore-package drops it,
    # and only it (the exit status follows).
    workspace = tmp_path / 'src'
    for name in ('my_robot', 'vendor_cam'):
        (workspace / name / 'urdf').mkdir(parents=True)
        (workspace / name / 'package.xml').write_text(
            f'<?xml version="1.0"?><package format="3"><name>{name}</name></package>')
    (workspace / 'vendor_cam' / 'urdf' / 'cam.urdf.xacro').write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:macro name="cam" '
        'params="parent"><joint name="cam_joint" type="fixed"><parent link="${parent}"/>'
        '<child link="cam_link"/><origin xyz="0.2 0 0.1"/></joint><link name="cam_link">'
        '<inertial><mass value="0.1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
        'izz="1"/></inertial><collision><geometry><box size="0.02 0.09 0.025"/></geometry>'
        '</collision></link></xacro:macro></robot>')
    top = workspace / 'my_robot' / 'urdf' / 'robot.urdf.xacro'
    top.write_text(
        '<robot name="my_robot" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:include filename="$(find vendor_cam)/urdf/cam.urdf.xacro"/>'
        '<link name="base_link"><inertial><mass value="5"/><inertia ixx="1" ixy="0" ixz="0" '
        'iyy="1" iyz="0" izz="1"/></inertial><collision><geometry><box size="0.3 0.3 0.1"/>'
        '</geometry></collision></link><xacro:cam parent="base_link"/></robot>')
    args = [str(top), f'--package-dir=vendor_cam={workspace / "vendor_cam"}']
    report, _ = check(*args, cwd=str(tmp_path))
    theirs = [f for f in report['findings'] if f['link'] == 'cam_link']
    ours = [f for f in report['findings'] if f['link'] == 'base_link']
    assert theirs and ours
    for finding in theirs:
        assert finding['values']['package'] == 'vendor_cam'
        assert "written in package 'vendor_cam', a dependency" in finding['suggestion']
        assert '--ignore-package vendor_cam' in finding['suggestion']
    assert all('package' not in f['values'] for f in ours)
    left, _ = check(*args, '--ignore-package', 'vendor_cam', cwd=str(tmp_path))
    assert [f for f in left['findings'] if f['link'] == 'cam_link'] == []
    assert [f['rule'] for f in left['findings'] if f['link'] == 'base_link'] == \
        [f['rule'] for f in ours]
    # Both packages in one repository (TALOS's talos_description_inertial): its own to fix.
    (tmp_path / '.git').mkdir()
    report, _ = check(*args, cwd=str(tmp_path))
    for finding in [f for f in report['findings'] if f['link'] == 'cam_link']:
        assert "written in package 'vendor_cam' of this repository: fix it there" in \
            finding['suggestion'] and 'upstream' not in finding['suggestion']
    # ... which --ignore-package does not leave out: a pull request could add a package.xml
    # claiming a name CI ignores, over the robot's own faulty macros.
    kept, _ = check(*args, '--ignore-package', 'vendor_cam', cwd=str(tmp_path))
    assert [f['rule'] for f in kept['findings'] if f['link'] == 'cam_link'] == \
        [f['rule'] for f in theirs]
    assert all('leaves out the findings of dependencies only' in f['suggestion']
               for f in kept['findings'] if f['link'] == 'cam_link')
    # A robot file in no package (sick_scan's wrapper example): the flag did nothing, silently.
    (tmp_path / '.git').rmdir()
    (workspace / 'my_robot' / 'package.xml').unlink()
    report, _ = check(*args, cwd=str(tmp_path))
    assert all(f['values'].get('package') == 'vendor_cam'
               for f in report['findings'] if f['link'] == 'cam_link')
    left, _ = check(*args, '--ignore-package', 'vendor_cam', cwd=str(tmp_path))
    assert [f for f in left['findings'] if f['link'] == 'cam_link'] == []
    assert [f['rule'] for f in left['findings'] if f['link'] == 'base_link'] == \
        [f['rule'] for f in ours]


def test_a_robot_wide_finding_about_one_link_of_a_dependency_is_its_too(tmp_path):
    # A camera macro repeating its joint's <origin>: MuJoCo refuses the robot, said once for
    # the robot (mujoco-repeated-element) naming the one link. It is the camera package's,
    # and --ignore-package drops it (CI exited 2 for a vendor's macro). The same fault in
    # two macros of two packages names both links: not one package's, so not marked.
    workspace = tmp_path / 'src'
    for name in ('my_robot', 'vendor_cam', 'other_cam'):
        (workspace / name / 'urdf').mkdir(parents=True)
        (workspace / name / 'package.xml').write_text(
            f'<?xml version="1.0"?><package format="3"><name>{name}</name></package>')
    for name in ('vendor_cam', 'other_cam'):
        (workspace / name / 'urdf' / 'cam.urdf.xacro').write_text(
            f'<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:macro name="{name}" '
            'params="parent"><joint name="${parent}_cam" type="fixed"><parent '
            'link="${parent}"/><child link="${parent}_cam_link"/><origin xyz="0 0 0.1"/>'
            '<origin xyz="0 0 0.2"/></joint><link name="${parent}_cam_link"><inertial>'
            '<mass value="0.1"/><inertia ixx="1e-5" ixy="0" ixz="0" iyy="1e-5" iyz="0" '
            'izz="1e-5"/></inertial><collision><geometry><box size="0.03 0.03 0.03"/>'
            '</geometry></collision></link></xacro:macro></robot>')
    top = workspace / 'my_robot' / 'urdf' / 'robot.urdf.xacro'

    def robot(calls: str) -> None:
        top.write_text(
            '<robot name="my_robot" xmlns:xacro="http://www.ros.org/wiki/xacro">'
            '<xacro:include filename="$(find vendor_cam)/urdf/cam.urdf.xacro"/>'
            '<xacro:include filename="$(find other_cam)/urdf/cam.urdf.xacro"/>'
            '<link name="base_link"/>' + calls + '</robot>')
    args = [str(top), f'--package-dir=vendor_cam={workspace / "vendor_cam"}',
            f'--package-dir=other_cam={workspace / "other_cam"}', '--fail-on', 'error']

    def check(*more, cwd):
        result = subprocess.run(
            [sys.executable, '-m', 'urdf_link_tools.cli', 'check', '--format', 'json',
             '--no-meshes', *more], cwd=cwd, capture_output=True, text=True, timeout=120)
        assert result.returncode in (0, 2), result.stderr
        return json.loads(result.stdout), result.returncode
    robot('<xacro:vendor_cam parent="base_link"/>')
    report, status = check(*args, cwd=str(tmp_path))
    (refusal,) = [f for f in report['findings'] if f['rule'] == 'mujoco-repeated-element']
    assert refusal['link'] is None and refusal['links'] == ['base_link_cam_link']
    assert refusal['values']['package'] == 'vendor_cam' and status == 2
    assert '--ignore-package vendor_cam' in refusal['suggestion']
    left, status = check(*args, '--ignore-package', 'vendor_cam', cwd=str(tmp_path))
    assert not [f for f in left['findings'] if f['rule'] == 'mujoco-repeated-element']
    assert status == 0
    robot('<link name="arm"/><joint name="j" type="fixed"><parent link="base_link"/>'
          '<child link="arm"/></joint><xacro:vendor_cam parent="base_link"/>'
          '<xacro:other_cam parent="arm"/>')
    report, status = check(*args, '--ignore-package', 'vendor_cam', cwd=str(tmp_path))
    (refusal,) = [f for f in report['findings'] if f['rule'] == 'mujoco-repeated-element']
    assert len(refusal['links']) == 2 and 'package' not in refusal['values'] and status == 2


def test_the_robots_own_package_found_elsewhere_is_not_a_dependency(tmp_path):
    # src/my_robot checked, its $(find my_robot) resolved to a built workspace's
    # install/share/my_robot: the same package, by name.
    from urdf_link_tools.findings import Finding, Severity
    from urdf_link_tools.packages import mark_dependencies
    copies = [tmp_path / 'src' / 'my_robot', tmp_path / 'install' / 'share' / 'my_robot',
              tmp_path / 'src' / 'other']
    for folder in copies:
        (folder / 'urdf').mkdir(parents=True)
        (folder / 'package.xml').write_text(f'<package><name>{folder.name}</name></package>')
    found = [Finding(rule='r', severity=Severity.WARNING, message='m', link='l', suggestion='s',
                     file=str(folder / 'urdf' / 'x.xacro')) for folder in copies]
    marked = mark_dependencies(found, str(copies[0] / 'urdf' / 'robot.urdf.xacro'))
    assert [dict(f.values).get('package') for f in marked] == [None, None, 'other']
    # a robot file in no package: every package it reads is another one
    assert [dict(f.values).get('package') for f in mark_dependencies(
        found, str(tmp_path / 'robot.urdf.xacro'))] == ['my_robot', 'my_robot', 'other']
    assert len(mark_dependencies(found, str(copies[0] / 'r.xacro'), ('other',))) == 2


def test_lines_a_message_names_are_the_sources_lines(tmp_path):
    # 'j1' (line 40), 'j2' (line 44) in a 22-line file: the message named lines of the
    # expansion, while the finding's own line was the source's.
    path = tmp_path / 'mp.urdf.xacro'
    path.write_text(
        '<?xml version="1.0"?>\n<robot name="mp" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:macro name="box_link" params="name">\n'
        '    <link name="${name}">\n'
        '      <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" '
        'ixz="0" iyz="0"/></inertial>\n'
        '      <inertial><mass value="2"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" '
        'ixz="0" iyz="0"/></inertial>\n'
        '    </link>\n  </xacro:macro>\n'
        '  <xacro:box_link name="a"/>\n  <xacro:box_link name="b"/>\n'
        '  <xacro:box_link name="c"/>\n'
        '  <joint name="j1" type="fixed"><parent link="a"/><child link="c"/></joint>\n\n'
        '  <joint name="j2" type="fixed"><parent link="b"/><child link="c"/></joint>\n'
        '  <joint name="j3" type="fixed"><parent link="a"/><child link="b"/></joint>\n'
        '</robot>\n')
    report, _ = check(str(path), '--fail-on', 'never')
    findings = report['findings']
    (parents,) = [f for f in findings if f['rule'] == 'link-multiple-parents']
    assert "'j1' (line 12), 'j2' (line 14)" in parents['message'], parents
    # The repeated <inertial> of each link: the second, on line 6 of the macro's body.
    (repeated,) = [f for f in findings if f['rule'] == 'mujoco-repeated-element']
    assert "<inertial> in link 'a' (line 6), <inertial> in link 'b' (line 6)" in \
        repeated['message'], repeated
    assert not re.search(r'\(line (?!6\))', repeated['message']), repeated


def test_a_fix_names_a_yaml_file_once_for_the_values_it_gives(tmp_path):
    # Elite CS: the six values of each link from one YAML file, the same path six times in
    # each fix (over 1,000 characters). The file once, its lines as ranges.
    (tmp_path / 'inertia.yaml').write_text(
        'arm:\n'
        '  ixx: 0.01\n'
        '  ixy: 0.0\n'
        '  ixz: 0.0\n'
        '  iyy: 0.01\n'
        '  iyz: 0.0\n'
        '  note: skipped\n'
        '  izz: 0.05\n')
    top = tmp_path / 'robot.urdf.xacro'
    top.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '<xacro:property name="p" value="${xacro.load_yaml(\'$(find demo)/inertia.yaml\')}"/>\n'
        '<link name="base"/>\n'
        '<link name="arm"><inertial><mass value="1"/>\n'
        '<inertia ixx="${p[\'arm\'][\'ixx\']}" ixy="${p[\'arm\'][\'ixy\']}" '
        'ixz="${p[\'arm\'][\'ixz\']}" iyy="${p[\'arm\'][\'iyy\']}" iyz="${p[\'arm\'][\'iyz\']}" '
        'izz="${p[\'arm\'][\'izz\']}"/>\n'
        '</inertial></link>\n'
        '<joint name="j" type="revolute"><parent link="base"/><child link="arm"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>\n'
        '</robot>\n')
    report, err = check(str(top), f'--package-dir=demo={tmp_path}', cwd=tmp_path)
    arm = by_rule_and_link(report)[('inertia-triangle-inequality', 'arm')]
    assert '; the xacro computes ixx, ixy, ixz, iyy, iyz, izz (from inertia.yaml:2-6, 8): ' \
        'change those expressions or values' in arm['suggestion'], (arm['suggestion'], err)


def test_a_duplicate_made_by_another_call_of_the_macro_names_that_call(tmp_path):
    # SICK's example: two scanner macros called with name="laser". Both links are made on
    # one line of the macro, so "first on line 5" named the finding's own line; the first
    # call was never named, and the two joints naming the link read alike.
    path = tmp_path / 'two.urdf.xacro'
    path.write_text(
        '<robot name="two" xmlns:xacro="http://ros.org/wiki/xacro">\n'
        '  <xacro:macro name="scanner" params="name">\n'
        '    <link name="${name}_mount"/>\n'
        '    <joint name="${name}_joint" type="fixed">\n'
        '      <parent link="${name}_mount"/><child link="${name}"/></joint>\n'
        '    <link name="${name}"/>\n'
        '  </xacro:macro>\n'
        '  <xacro:scanner name="laser"/>\n'
        '  <xacro:scanner name="laser"/>\n'
        '</robot>\n')
    report, _ = check(str(path), '--fail-on', 'never')
    # the macro's three names, made twice: one finding (sweep U), naming the other call
    messages = [f['message'] for f in report['findings'] if f['rule'].endswith('-duplicate-name')]
    assert messages == [
        '2 link names and 1 joint name are used again, all from one block of the description '
        'made twice (a macro called twice, or a file included twice; first on line 3, from the '
        "call of 'scanner' at line 8): 'laser_mount', 'laser', 'laser_joint'; URDF readers "
        'refuse the file'], messages
    # one name made twice: its own finding, naming the other call too
    path.write_text(path.read_text().replace(
        '    <joint name="${name}_joint" type="fixed">\n'
        '      <parent link="${name}_mount"/><child link="${name}"/></joint>\n'
        '    <link name="${name}"/>\n', ''))
    report, _ = check(str(path), '--fail-on', 'never')
    messages = [f['message'] for f in report['findings'] if f['rule'].endswith('-duplicate-name')]
    assert messages == ["the link name 'laser_mount' is used again (first on line 3, from the "
                        "call of 'scanner' at line 5); URDF readers refuse the file"], messages


def test_a_number_given_to_xacro_attribute_is_an_error_at_its_line(tmp_path):
    # <xacro:attribute name="value" value="${m}"/> with m a number: xacro 2.1.1 stops with a
    # traceback (minidom cannot write a float); the error had no line and read "argument of
    # type 'float' is not iterable". A false one is written '' as xacro writes it.
    path = tmp_path / 'r.urdf.xacro'
    template = ('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                '  <xacro:property name="m" value="{value}"/>\n'
                '  <link name="a"><inertial>\n'
                '    <mass><xacro:attribute name="value" value="${{m}}"/></mass>\n'
                '    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>\n'
                '  </inertial></link>\n</robot>\n')
    path.write_text(template.format(value='2.5'))
    result = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli', 'check', str(path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result
    assert '<xacro:attribute name="value"> gives a float (2.5), not text' in result.stderr
    assert 'value="${str(...)}"' in result.stderr and f'{path}:4)' in result.stderr, \
        result.stderr
    path.write_text(template.format(value='0'))
    report, _ = check(str(path), '--emit-urdf', str(tmp_path / 'out.urdf'), '--fail-on',
                      'never')
    assert '<mass value=""/>' in (tmp_path / 'out.urdf').read_text()


SEGMENTS = """<?xml version="1.0"?>
<robot name="m" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="seg" params="name parent ixx iyy izz:=0.0017">
    <link name="${name}"><inertial><mass value="1"/>
      <inertia ixx="${ixx}" iyy="${iyy}" izz="${izz}" ixy="0" ixz="0" iyz="0"/>
    </inertial></link>
    <joint name="${name}_joint" type="revolute"><parent link="${parent}"/>
      <child link="${name}"/><axis xyz="0 0 1"/>
      <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  </xacro:macro>
  <xacro:macro name="arm" params="prefix ixx">
    <xacro:seg name="${prefix}wrist" parent="base_link" ixx="${ixx}" iyy="${ixx}"/>
  </xacro:macro>
  <link name="base_link"/>
  <xacro:seg name="shoulder" parent="base_link" ixx="0.0017" iyy="0.0017" izz="0.0017"/>
  <xacro:seg name="elbow" parent="shoulder" ixx="0.0001" iyy="0.0001" izz="0.0017"/>
  <xacro:arm prefix="left_" ixx="0.0002"/>
  <xacro:arm prefix="right_" ixx="0.0003"/>
</robot>
"""


def test_fix_inertia_writes_the_numbers_a_macro_call_passes(tmp_path):
    # A macro's <inertia ixx="${ixx}" .../> serves every link; each call passes its numbers
    # (the usual way, sweep I): the fix edited nothing and said to change the macro's
    # expressions. Now the call's numbers, through nested macros too; a default (izz) is
    # left with a to-do, as an expression is.
    top = tmp_path / 'robot.urdf.xacro'
    top.write_text(SEGMENTS)
    report, _ = check(str(top), '--fail-on', 'never')
    (elbow,) = [f for f in report['findings'] if f['link'] == 'elbow'
                and f['rule'] == 'inertia-triangle-inequality']
    assert 'the macro call at ' in elbow['suggestion'] and \
        'robot.urdf.xacro:16 passes ixx="0.0001", iyy="0.0001", izz="0.0017": write these ' \
        'numbers there (--fix-inertia does)' in elbow['suggestion'], elbow['suggestion']
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', '--no-meshes', str(top),
         '--fix-inertia'], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    lines = top.read_text().splitlines()
    assert lines[15] == ('  <xacro:seg name="elbow" parent="shoulder" ixx="0.000600039999" '
                         'iyy="0.000600039999" izz="0.00119996"/>'), lines[15]
    # ixx and iyy both come from the arm's ixx: one number, the nearest valid tensor's
    assert lines[16] == '  <xacro:arm prefix="left_" ixx="0.000633375554"/>', lines
    assert lines[17].startswith('  <xacro:arm prefix="right_" ixx="0.000'), lines
    assert lines[17] != '  <xacro:arm prefix="right_" ixx="0.0003"/>', lines
    assert 'robot.urdf.xacro:5: to do: izz="${izz}" is an expression' in result.stdout
    report, _ = check(str(top), '--fail-on', 'never')
    # (the wrists keep theirs: izz is the macro's default, a to-do)
    assert not [f for f in report['findings'] if f['rule'] == 'inertia-triangle-inequality'
                and f['link'] == 'elbow']


@pytest.mark.parametrize('given', [False, True])
def test_a_python2_expression_is_named_not_blamed_on_a_missing_argument(tmp_path, given):
    # Sweep R: heron's sensors.xacro indexes ${map(float, ...)[0]}, which Python 3 refuses;
    # without simulation:= the failure was said to be "most likely for want of" it.
    (tmp_path / 'r.urdf.xacro').write_text(
        f'<robot {XACRO_NS} name="r"><link name="a_$(arg simulation)"/>'
        '<xacro:property name="datum" value="${map(float, \'1,2\'.split(\',\'))}"/>'
        '<link name="b"><visual><origin xyz="${datum[0]} 0 0"/><geometry>'
        '<box size="1 1 1"/></geometry></visual></link></robot>')
    arguments = [str(tmp_path / 'r.urdf.xacro')] + (['simulation:=false'] if given else [])
    result = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli', 'check'] + arguments,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stderr
    assert 'a Python 2 expression, map(...)[i]; xacro 2 evaluates Python 3' in result.stderr, \
        result.stderr
    assert 'for want of' not in result.stderr
