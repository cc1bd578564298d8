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
Inline suppression comments and --baseline, round trip through text, JSON and SARIF.

The sample robot is edited in a temporary checkout: comments added in and before elements,
lines shifted, a new mistake made. The xacro cases parse real xacro files; their findings
carry the file:line and macro calls that the xacro source mapping gives.
"""

import io
import json
import os
import pathlib
import shutil

from cli_harness import checkout_with_samples, ROOT, run, SAMPLE
import pytest
from urdf_link_tools.cli import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, EXIT_WARNINGS
from urdf_link_tools.findings import Finding, MacroCall, Severity
from urdf_link_tools.reports.baseline import apply_baseline, load_baseline
from urdf_link_tools.reports.suppression import apply_suppressions, collect_suppressions

# A test dependency: without it this module is skipped, and `make test` fails the run
# (test/conftest.py); in a plain workspace `colcon test-result` lists the skip.
jsonschema = pytest.importorskip('jsonschema')

SCHEMA = json.loads((ROOT / 'test' / 'data' / 'sarif' / 'sarif-schema-2.1.0.json').read_text())


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """Make a checkout-like working directory holding samples/ (robot and meshes)."""
    return checkout_with_samples(tmp_path, monkeypatch)


def check(workdir, *extra):
    return run(['check', SAMPLE, '--package-dir', f'urdf_link_tools={workdir}', *extra])


def edit(old, new):
    path = pathlib.Path(SAMPLE)
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def line_of(needle):
    lines = pathlib.Path(SAMPLE).read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if needle in line)


def add_comments():
    # directly in <robot>, before a link: that link only, the rules named only
    edit('  <link name="my_link">',
         '  <!-- urdf-link-tools: ignore inertia-exceeds-extent, com-outside-geometry,'
         "material-undefined because the URDF specification's example, kept as written -->\n"
         '  <link name="my_link">')
    # inside an element: that element and its children
    edit('      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05"/>',
         '      <!-- urdf-link-tools: ignore inertia-triangle-inequality because the arm is '
         'a mock-up until the CAD export -->\n'
         '      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05"/>')
    # no reason: still silences, but says so; an unknown rule; not an ignore comment
    edit('  <link name="gripper_link">',
         '  <link name="gripper_link">\n    <!-- urdf-link-tools: ignore density-implausible -->')
    edit('  <link name="camera_link">',
         '  <link name="camera_link">\n'
         '    <!-- urdf-link-tools: ignore collision-mising because typo -->\n'
         '    <!-- urdf-link-tools: skip everything -->')


def test_suppression_round_trip(workdir):
    add_comments()
    status, out, _ = check(workdir, '--format', 'json')
    report = json.loads(out)
    assert status == EXIT_ERRORS
    reported = {(f['rule'], f['link']) for f in report['findings']}
    assert reported == {
        ('density-implausible', 'my_link'),          # not named by the comment before my_link
        ('mass-not-positive', 'camera_link'),
        ('collision-missing', 'camera_link'),        # the comment misspelt it
        ('material-undefined', 'camera_link'),       # my_link's comment does not leak
        ('suppression-missing-reason', 'gripper_link'),
        ('suppression-unknown-rule', 'camera_link'),
        ('suppression-malformed', 'camera_link'),
    }
    problems = {f['rule']: f for f in report['findings'] if f['rule'].startswith('suppression')}
    assert problems['suppression-missing-reason']['line'] == line_of('ignore density-implausible')
    assert problems['suppression-unknown-rule']['message'].endswith("'collision-mising'")
    assert problems['suppression-malformed']['file'] == str(workdir / SAMPLE)
    suppressed = {(f['rule'], f['link'], f['suppression']['line'], f['suppression']['reason'])
                  for f in report['suppressed']}
    assert suppressed == {
        ('inertia-exceeds-extent', 'my_link', line_of('ignore inertia-exceeds-extent'),
         "the URDF specification's example, kept as written"),
        ('inertia-triangle-inequality', 'arm_link', line_of('ignore inertia-triangle'),
         'the arm is a mock-up until the CAD export'),
        ('density-implausible', 'gripper_link', line_of('ignore density-implausible'), ''),
    }
    assert report['summary'] == {'error': 1, 'warning': 6, 'info': 0, 'suppressed': 3,
                                 'baselined': 0}
    # text: the summary says what was not counted
    _, text, _ = check(workdir)
    assert text.splitlines()[-1] == ('sample_robot: 1 error, 6 warnings, 0 info in 3 of 7 '
                                     'links (not counted: 3 suppressed by comments)')
    # SARIF: suppressed findings are results with an inSource suppression and its reason
    _, out, _ = check(workdir, '--format', 'sarif')
    log = json.loads(out)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    results = log['runs'][0]['results']
    silenced = [r for r in results if 'suppressions' in r]
    assert len(results) == 10 and len(silenced) == 3
    by_rule = {r['ruleId']: r['suppressions'][0] for r in silenced}
    assert by_rule['inertia-triangle-inequality']['kind'] == 'inSource'
    assert by_rule['inertia-triangle-inequality']['justification'] == (
        'the arm is a mock-up until the CAD export')
    assert by_rule['density-implausible']['justification'] == '(no reason given)'
    where = by_rule['inertia-triangle-inequality']['location']['physicalLocation']
    assert where['region']['startLine'] == line_of('ignore inertia-triangle-inequality')
    assert log['runs'][0]['properties']['summary']['suppressed'] == 3
    # --ignore silences the suppression findings like any other rule
    _, out, _ = check(workdir, '--format', 'json', '--ignore', 'suppression-missing-reason')
    assert 'suppression-missing-reason' not in {f['rule'] for f in json.loads(out)['findings']}


def test_comment_before_robot_covers_the_file_and_stdin(workdir, monkeypatch):
    text = pathlib.Path(SAMPLE).read_text().replace(
        '<robot name="sample_robot">',
        '<!-- urdf-link-tools: ignore density-implausible because masses are placeholders -->\n'
        '<robot name="sample_robot">')
    pathlib.Path(SAMPLE).write_text(text)
    _, out, _ = check(workdir, '--format', 'json')
    report = json.loads(out)
    assert {f['link'] for f in report['suppressed']} == {'my_link', 'gripper_link'}
    assert 'density-implausible' not in {f['rule'] for f in report['findings']}
    # the same document on standard input: the comments are read from it
    monkeypatch.setattr('sys.stdin', io.TextIOWrapper(io.BytesIO(text.encode())))
    _, out, _ = run(['check', '-', '--no-meshes', '--format', 'json'])
    report = json.loads(out)
    assert {f['link'] for f in report['suppressed']} == {'my_link', 'gripper_link'}


MACROS = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="wheel" params="prefix">
    <!-- urdf-link-tools: ignore inertia-geometry-mismatch because CAD values, checked -->
    <link name="${prefix}_wheel">
      <inertial>
        <mass value="1"/>
        <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
      </inertial>
    </link>
    <link
        name="${prefix}_hub">
      <!-- urdf-link-tools: ignore mass-not-positive because a frame for the hub cap -->
      <visual><geometry><box size="0.1 0.1 0.1"/></geometry></visual>
    </link>
  </xacro:macro>
</robot>
"""
ROBOT = """<?xml version="1.0"?>
<robot name="cart" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="macros.xacro"/>
  <link name="base"/>
  <!-- urdf-link-tools: ignore density-implausible because the first wheel is a mock-up -->
  <xacro:wheel prefix="left"/>
  <xacro:wheel prefix="right"/>
</robot>
"""


def test_xacro_macro_body_and_call_site(tmp_path):
    macros, robot = tmp_path / 'macros.xacro', tmp_path / 'cart.urdf.xacro'
    macros.write_text(MACROS)
    robot.write_text(ROBOT)
    left = MacroCall('wheel', str(robot), 6)
    right = MacroCall('wheel', str(robot), 7)

    def finding(rule, line, call, link):
        return Finding(rule=rule, severity=Severity.WARNING, message='m', link=link,
                       element='inertial/inertia', line=line, file=str(macros),
                       macro_stack=(call,))
    findings = [
        finding('inertia-geometry-mismatch', 8, left, 'left_wheel'),   # macro body: silenced
        finding('inertia-geometry-mismatch', 8, right, 'right_wheel'),  # every expansion
        finding('density-implausible', 7, left, 'left_wheel'),         # call-site comment
        finding('density-implausible', 7, right, 'right_wheel'),       # not the second call
        finding('inertia-geometry-mismatch', 12, left, 'left_hub'),    # the next link: not
        # the line where <link starts (xacro's numbering) while lxml numbers the tag's end
        finding('mass-not-positive', 11, right, 'right_hub'),
    ]
    comments, problems = collect_suppressions({str(robot), str(macros)})
    assert problems == []
    kept, silenced = apply_suppressions(findings, comments)
    assert [(f.rule, f.link) for f in kept] == [('density-implausible', 'right_wheel'),
                                                ('inertia-geometry-mismatch', 'left_hub')]
    assert [(f.link, c.line) for f, c in silenced] == [
        ('left_wheel', 4), ('right_wheel', 4), ('left_wheel', 5), ('right_hub', 13)]
    # why the comments are read from the source: xacro drops the one before a macro call
    import xacro
    expanded = xacro.process_file(str(robot)).toxml()
    assert 'mock-up' not in expanded and 'CAD values' in expanded


def test_baseline_round_trip(workdir):
    status, out, _ = check(workdir, '--format', 'json')
    assert status == EXIT_ERRORS
    pathlib.Path('base.json').write_text(out)
    # every line moves, and a new mistake appears (base_link at 10 t in a 0.1 m^3 box: its
    # density, and its tensor, which was right for 10 kg)
    edit('<robot name="sample_robot">',
         '<robot name="sample_robot">\n' + '  <!-- moved -->\n' * 5)
    edit('      <mass value="10"/>', '      <mass value="10000"/>')
    status, out, _ = check(workdir, '--format', 'json', '--baseline', 'base.json')
    report = json.loads(out)
    assert sorted((f['rule'], f['link']) for f in report['findings']) == [
        ('density-implausible', 'base_link')]
    assert len(report['baselined']) == 7 and report['summary']['baselined'] == 7
    assert status == EXIT_OK  # only warnings are new
    assert check(workdir, '--baseline', 'base.json', '--fail-on', 'warning')[0] == EXIT_WARNINGS
    _, text, _ = check(workdir, '--baseline', 'base.json')
    assert text.splitlines()[-1].endswith('(not counted: 7 in the baseline)')
    heavy = line_of('<mass value="10000"/>')
    assert f'{SAMPLE}:{heavy}: warning: density-implausible: inertial/mass: ' in text
    # SARIF marks what is new and what the baseline had
    _, out, _ = check(workdir, '--format', 'sarif', '--baseline', 'base.json')
    log = json.loads(out)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    states = [(r['ruleId'], r['baselineState']) for r in log['runs'][0]['results']]
    assert sorted(rule for rule, state in states if state == 'new') == [
        'density-implausible']
    assert sum(state == 'unchanged' for _, state in states) == 7
    # a report made with --baseline is a complete baseline in turn
    pathlib.Path('base2.json').write_text(
        check(workdir, '--format', 'json', '--baseline', 'base.json')[1])
    status, out, _ = check(workdir, '--format', 'json', '--baseline', 'base2.json',
                           '--fail-on', 'warning')
    assert status == EXIT_OK and json.loads(out)['findings'] == []


def test_baseline_entries_absorb_only_in_the_file_they_were_written_for(
        workdir, tmp_path, monkeypatch):
    # Two copies of one robot: the same names, the same findings. A baseline written for the
    # first, in another checkout (another folder above samples/), absorbs its findings only.
    shutil.copytree('samples', 'copy')
    pathlib.Path('copy/sample_robot.urdf').rename('copy/other_robot.urdf')
    elsewhere = tmp_path.parent / (tmp_path.name + '_developer')
    shutil.copytree(workdir, elsewhere)
    status, out, _ = run(['check', str(elsewhere / SAMPLE), '--package-dir',
                          f'urdf_link_tools={elsewhere}', '--format', 'json'])
    assert status == EXIT_ERRORS and len(json.loads(out)['findings']) == 7
    pathlib.Path('base.json').write_text(out)
    status, out, err = run(['check', SAMPLE, 'copy/other_robot.urdf', '--package-dir',
                            f'urdf_link_tools={workdir}', '--format', 'json',
                            '--baseline', 'base.json'])
    first, second = json.loads(out)['reports']
    assert (len(first['findings']), len(first['baselined'])) == (0, 7)
    assert (len(second['findings']), len(second['baselined'])) == (7, 0)
    assert status == EXIT_ERRORS
    assert ('none of its reports was written for copy/other_robot.urdf (it has '
            'sample_robot.urdf), so every finding of it is new') in err
    assert 'written for samples/sample_robot.urdf' not in err
    # a baseline of both robots absorbs each one's findings in its own file
    pathlib.Path('both.json').write_text(run(
        ['check', SAMPLE, 'copy/other_robot.urdf', '--package-dir',
         f'urdf_link_tools={workdir}', '--format', 'json'])[1])
    status, out, err = run(['check', 'copy/other_robot.urdf', SAMPLE, '--package-dir',
                            f'urdf_link_tools={workdir}', '--format', 'json',
                            '--baseline', 'both.json'])
    assert status == EXIT_OK and err == ''
    assert [len(report['baselined']) for report in json.loads(out)['reports']] == [7, 7]
    # a report read from standard input names no file: its entries absorb in every robot
    with open(SAMPLE, 'rb') as stream:
        monkeypatch.setattr('sys.stdin', io.TextIOWrapper(io.BytesIO(stream.read())))
    status, out, _ = run(['check', '-', '--package-dir', f'urdf_link_tools={workdir}',
                          '--format', 'json'])
    pathlib.Path('stdin.json').write_text(out)
    status, out, err = run(['check', SAMPLE, 'copy/other_robot.urdf', '--package-dir',
                            f'urdf_link_tools={workdir}', '--format', 'json',
                            '--baseline', 'stdin.json'])
    assert [len(report['findings']) for report in json.loads(out)['reports']] == [0, 0]
    assert status == EXIT_OK and err == ''


def test_sarif_fingerprints_tell_two_files_of_one_robot_apart(workdir):
    shutil.copytree('samples', 'copy')
    status, out, _ = run(['check', SAMPLE, 'copy/sample_robot.urdf', '--package-dir',
                          f'urdf_link_tools={workdir}', '--format', 'sarif'])
    results = json.loads(out)['runs'][0]['results']
    assert len(results) == 14
    prints = {result['partialFingerprints']['urdfLinkTools/v2'] for result in results}
    assert len(prints) == 14
    # and a fingerprint does not depend on where the checkout is, nor on the line
    edit('<robot name="sample_robot">', '<robot name="sample_robot">\n  <!-- moved -->')
    moved = shutil.copytree(workdir, workdir.parent / (workdir.name + '_moved'))
    os.chdir(moved)
    _, out, _ = run(['check', SAMPLE, 'copy/sample_robot.urdf', '--package-dir',
                     f'urdf_link_tools={moved}', '--format', 'sarif'])
    assert {result['partialFingerprints']['urdfLinkTools/v2']
            for result in json.loads(out)['runs'][0]['results']} == prints


def test_baseline_counts_duplicates_and_refuses_bad_files(tmp_path):
    one = Finding(rule='mesh-not-found', severity=Severity.ERROR, message='m', link='a',
                  element='visual[0]', line=3)
    path = tmp_path / 'base.json'
    path.write_text(json.dumps({'findings': [one.to_dict()]}))
    new, known = apply_baseline([one, one], load_baseline(str(path)).entries_for(None))
    assert (len(new), len(known)) == (1, 1)
    for text, needle in (('{', 'not JSON'), ('[1, 2]', 'no "findings"'),
                         ('{"robot": "x"}', 'no "findings"')):
        path.write_text(text)
        with pytest.raises(ValueError, match=needle):
            load_baseline(str(path))
        status, _, err = run(['check', str(ROOT / SAMPLE), '--no-meshes',
                              '--baseline', str(path)])
        assert status == EXIT_USAGE and needle in err


XACRO_MACROS = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="arm_segment" params="name parent">
    <joint name="${name}_joint" type="revolute">
      <parent link="${parent}"/><child link="${name}"/>
      <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="10" velocity="1"/>
    </joint>
    <link name="${name}">
      <!-- urdf-link-tools: ignore collision-missing because the cover is the parent's -->
      <inertial>
        <mass value="1"/>
        <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05"/>
      </inertial>
      <visual><geometry><box size="0.1 0.1 0.3"/></geometry></visual>
    </link>
  </xacro:macro>
</robot>
"""
XACRO_ARM = """<?xml version="1.0"?>
<robot name="xacro_arm" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="macros.xacro"/>
  <link name="base"/>
  <xacro:arm_segment name="upper" parent="base"/>
  <!-- urdf-link-tools: ignore inertia-triangle-inequality because a mock-up segment -->
  <xacro:arm_segment name="lower" parent="upper"/>
</robot>
"""


def test_xacro_end_to_end(tmp_path, monkeypatch):
    (tmp_path / 'arm').mkdir()
    (tmp_path / 'arm' / 'macros.xacro').write_text(XACRO_MACROS)
    (tmp_path / 'arm' / 'arm.urdf.xacro').write_text(XACRO_ARM)
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(['check', 'arm/arm.urdf.xacro', '--format', 'json'])
    report = json.loads(out)
    assert status == EXIT_ERRORS
    [reported] = report['findings']
    assert (reported['rule'], reported['link'], reported['file'], reported['line']) == (
        'inertia-triangle-inequality', 'upper', 'arm/macros.xacro', 12)
    assert reported['macro_stack'] == [
        {'macro': 'arm_segment', 'file': 'arm/arm.urdf.xacro', 'line': 5}]
    silenced = sorted((f['rule'], f['link'], f['suppression']['line'])
                      for f in report['suppressed'])
    assert silenced == [('collision-missing', 'lower', 9), ('collision-missing', 'upper', 9),
                        ('inertia-triangle-inequality', 'lower', 6)]
    _, text, _ = run(['check', 'arm/arm.urdf.xacro'])
    assert text.splitlines()[1:4] == [
        'arm/macros.xacro:12: error: inertia-triangle-inequality: inertial/inertia: the '
        + reported['message'].split('the ', 1)[1],
        f"    fix: {reported['suggestion']}",
        "    in macro 'arm_segment' called at arm/arm.urdf.xacro:5"]
    _, out, _ = run(['check', 'arm/arm.urdf.xacro', '--format', 'sarif'])
    log = json.loads(out)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    first = log['runs'][0]['results'][0]
    assert first['locations'][0]['physicalLocation']['artifactLocation']['uri'] == (
        'arm/macros.xacro')
    related = first['relatedLocations'][0]
    assert related['physicalLocation']['region']['startLine'] == 5
    assert related['message']['text'] == "in macro 'arm_segment' called here"
