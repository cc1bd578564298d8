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
``check --format html`` as a document: self-contained, safe with hostile names, within budget.

What the page does in a browser is tested in test_report_html_browser.py.
"""

import base64
import hashlib
import json
import os
import re
import shutil
import time

from cli_harness import run, SAMPLE
import corpus
import lxml.html
import pytest
from report_harness import HOSTILE_LINK, HOSTILE_ROOT, robot_wide_listing, write_hostile_robot
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.parser import parse_urdf_string
from urdf_link_tools.reports.html import embedded_json, fill, inline_script
from urdf_link_tools.reports.scene import build_scene, MIN_MESH_TRIANGLES

#: the issue's budget for tiago_dual's page
PAGE_BUDGET_BYTES = 25_000_000


def page_data(page_text):
    document = lxml.html.fromstring(page_text)
    (data,) = document.xpath('//script[@id="report-data"]')
    return document, json.loads(data.text)


def corpus_robot(name):
    path = corpus.urdf_path(name)
    share = corpus.prefix() / 'share' / 'example-robot-data'
    return path, f'example-robot-data={share}'


def test_sample_page_is_self_contained(workdir):
    status, text, _ = run(['check', SAMPLE, '--package-dir', f'urdf_link_tools={workdir}',
                           '--format', 'html'])
    assert status == 2
    document, data = page_data(text)
    scripts = document.xpath('//script')
    assert len(scripts) == 4 and not any(script.get('src') for script in scripts)
    # nothing to load: no src, href, style sheet link or url() anywhere
    assert not document.xpath('//*[@src or @href]|//link|//iframe|//object|//embed')
    assert 'url(' not in ''.join(document.xpath('//style/text()'))
    # the policy allows exactly the three inlined scripts, and no connection at all
    (policy,) = document.xpath('//meta[@http-equiv="Content-Security-Policy"]/@content')
    assert policy.startswith("default-src 'none';") and 'connect-src' not in policy
    hashes = set(re.findall(r"'sha256-([^']+)'", policy))
    executable = [script.text for script in scripts if script.get('type') is None]
    assert hashes == {base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()
                      for code in executable}
    robot = data['robots'][0]
    assert robot['robot'] == 'sample_robot'
    assert len(robot['findings']) == 7
    assert robot['findings'][0]['where'] == 'samples/sample_robot.urdf:95'
    assert abs(robot['mass'] - sum(link['inertial'].get('mass') or 0
                                   for link in robot['links'])) < 1e-9


def test_hostile_names_stay_data(tmp_path):
    status, text, _ = run(['check', str(write_hostile_robot(tmp_path)), '--format', 'html'])
    assert status == 2
    # the link named '...</script><img ...>' closes no element: the only ends are the 4 scripts
    assert len(re.findall('</script', text, flags=re.IGNORECASE)) == 4
    assert '<img' not in text.lower()
    document, data = page_data(text)
    names = [link['name'] for link in data['robots'][0]['links']]
    assert names == [HOSTILE_ROOT, HOSTILE_LINK]
    assert document.xpath('//title')[0].text == 'urdf-link-tools: evil|bot'


@pytest.mark.parametrize('value', ['</script>', '<!--', '\u2028', '&amp;', '<\u2029/',
                                   'a##[error]b', '\n::error::x'])
def test_embedded_json_round_trips_without_markup(value):
    text = embedded_json({'name': value})
    assert not set('<>&#\u2028\u2029') & set(text)
    assert json.loads(text) == {'name': value}


def test_ci_commands_in_names_stay_data_after_the_output_boundary(tmp_path):
    # The page goes through reports/sanitize.py like every format: a legacy '##[' command
    # or a line-start '::' in a name must neither reach the log raw nor break the data.
    robot = tmp_path / 'commands.urdf'
    robot.write_text('<robot name="r"><link name="a##[warning]x&#10;::error::y">'
                     '<inertial><mass value="0"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" '
                     'iyz="0" izz="1"/></inertial></link></robot>')
    status, text, _ = run(['check', str(robot), '--format', 'html'])
    assert '##[' not in text
    assert not re.search(r'^\s*::', text, flags=re.MULTILINE)
    _, data = page_data(text)
    assert [link['name'] for link in data['robots'][0]['links']] == ['a##[warning]x\n::error::y']


def test_template_filling_is_one_pass():
    assert fill('{{A}} {{B}}', {'A': '{{B}}', 'B': 'b'}) == '{{B}} b'
    assert inline_script('x = "</SCRIPT>"') == 'x = "<\\/SCRIPT>"'
    assert inline_script("y = '<!--'") == "y = '<\\x21--'"


def test_meshes_over_budget_are_simplified_and_said_so():
    path, _ = corpus_robot('tiago_dual.urdf')
    robot = parse_urdf_string(path.read_bytes(), str(path))
    share = corpus.prefix() / 'share' / 'example-robot-data'
    analysis = analyze(robot, CheckConfig(package_dirs=(('example-robot-data', str(share)),)))
    full = build_scene(analysis, 'tiago_dual')
    assert full['triangles'] > 90_000 and not full['notes']
    budget = 30_000
    small = build_scene(analysis, 'tiago_dual', budget=budget)
    assert small['triangles'] <= budget + MIN_MESH_TRIANGLES * len(small['meshes'])
    assert small['triangles'] < full['triangles'] / 2
    (note,) = small['notes']
    assert 'simplified for display' in note and f"{full['triangles']:,} triangles" in note
    # the same meshes, each shared between its visual and collision uses
    assert len(small['meshes']) == len(full['meshes'])
    uses = [shape['mesh'] for link in full['links']
            for shape in link['visuals'] + link['collisions'] if shape['type'] == 'mesh']
    assert len(uses) > len(set(uses)) == len(full['meshes'])


def test_the_page_lists_the_pairs_overlapping_at_rest():
    # Panda: three pairs overlap at rest (two of its links, the hand and a link, the
    # fingers): the page lists and draws them, with their depth; none when the rule is off.
    pytest.importorskip('coal', reason='the overlaps at rest need coal (not in the Python '
                        '3.10 pass, whose NumPy is older than its wheels)')
    path, _ = corpus_robot('panda.urdf')
    robot = parse_urdf_string(path.read_bytes(), str(path))
    share = corpus.prefix() / 'share' / 'example-robot-data'
    packages = (('example-robot-data', str(share)),)
    analysis = analyze(robot, CheckConfig(package_dirs=packages))
    scene = build_scene(analysis, 'panda')
    overlaps = [f for f in analysis.findings if f.rule == 'collision-overlap-at-rest']
    assert len(overlaps) == 3 and scene['pairs_checked']
    assert sorted(tuple(pair['links']) for pair in scene['pairs']) == sorted(
        (f.link, dict(f.values)['other_link']) for f in overlaps)
    assert ['panda_link5', 'panda_link7'] in [pair['links'] for pair in scene['pairs']]
    assert all(pair['depth'] is not None and pair['depth'] >= 0.0 for pair in scene['pairs'])
    ignored = analyze(robot, CheckConfig(package_dirs=packages,
                                         ignore_rules=('collision-overlap-at-rest',)))
    scene = build_scene(ignored, 'panda')
    assert scene['pairs'] == [] and not scene['pairs_checked']


def test_the_page_draws_each_pair_of_a_link_overlapping_many():
    # One finding for a box holding four fingers; the page still draws four pairs, each
    # with its own depth.
    pytest.importorskip('coal', reason='the overlaps at rest need coal')
    from collision_robots import envelope
    analysis = analyze(parse_urdf_string(envelope(4)), CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings if f.rule == 'collision-overlap-at-rest']
    pairs = build_scene(analysis, 'envelope')['pairs']
    assert sorted(pair['links'][1] for pair in pairs) == ['f1', 'f2', 'f3', 'f4']
    assert all(pair['links'][0] == 'shell' for pair in pairs)
    depths = [float(value) / 1000.0 for value in dict(finding.values)['depths_mm'].split()]
    assert [pair['depth'] for pair in pairs] == pytest.approx(depths)


def test_the_page_gives_each_pair_the_severity_of_its_finding():
    # Links welded together overlap as an info (simulators fuse them): the page draws and
    # lists that pair as an info, and a link that moves into the same geometry (1 cm deep:
    # under 1 mm is parts touching, an info too) as a warning.
    pytest.importorskip('coal', reason='the overlaps at rest need coal')
    from collision_robots import box_link, joint, robot
    text = robot('welded', box_link('trunk', '0.4 0.4 0.1'),
                 box_link('face', '0.1 0.2 0.2', '0.3 0 0'),
                 box_link('cage', '0.1 0.2 0.2', '0.35 0 0'),
                 box_link('arm', '0.1 0.1 0.1', '0 0 0'),
                 joint('jf', 'fixed', 'trunk', 'face'), joint('jc', 'fixed', 'trunk', 'cage'),
                 joint('ja', 'revolute', 'trunk', 'arm', '0.3 0 0.14'))
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    pairs = {frozenset(pair['links']): pair for pair in build_scene(analysis, 'welded')['pairs']}
    assert pairs[frozenset(('face', 'cage'))]['severity'] == 'info'
    moving = [pair for key, pair in pairs.items() if 'arm' in key]
    assert moving and all(pair['severity'] == 'warning' for pair in moving)


def test_tiago_dual_page_within_budget(tmp_path):
    path, package = corpus_robot('tiago_dual.urdf')
    started = time.monotonic()
    status, text, _ = run(['check', str(path), '--package-dir', package, '--format', 'html'])
    seconds = time.monotonic() - started
    size = len(text.encode())
    print(f'tiago_dual: page {size / 1e6:.2f} MB written in {seconds:.2f} s')
    assert status == 2  # tiago_dual has two errors (antenna tensors)
    assert size < PAGE_BUDGET_BYTES
    _, data = page_data(text)
    robot = data['robots'][0]
    drawn = sum(1 for link in robot['links'] if link['visuals'])
    assert len(robot['links']) == 130 and drawn > 80
    assert all(mesh['triangles'] == mesh['original'] for mesh in robot['meshes'])
    assert os.path.getsize(path) < size  # the meshes are in the page, not referenced


def test_a_link_only_a_robot_wide_finding_lists_is_drawn_paler():
    # Kinova's Gen3 lite: one robot-wide warning (visual meshes reused as collision) listed
    # every link, so the 5 links with a misplaced centre of mass could not be told apart.
    # A link's own worst finding ('own') decides the full colour; only listed: paler.
    text = robot_wide_listing()
    names = ['l0', 'l1', 'l2', 'l3']
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    links = {link['name']: link for link in build_scene(analysis, 'r')['links']}
    # l0 has one finding of its own, an info (the root link's inertia KDL ignores)
    assert [(links[n]['worst'], links[n]['own']) for n in names[:3]] == [
        ('warning', 'info'), ('warning', None), ('warning', None)]
    assert (links['l3']['worst'], links['l3']['own']) == ('warning', 'warning')


def test_the_page_names_no_absolute_path_under_the_working_directory(tmp_path, monkeypatch):
    # The page is a CI artifact: the robot's source was the runner's absolute path
    # (/home/runner/work/...), unlike every file:line of the page.
    shutil.copytree(os.path.dirname(SAMPLE), tmp_path / 'samples')
    monkeypatch.chdir(tmp_path)
    status, text, err = run(['check', os.path.join('samples', os.path.basename(SAMPLE)),
                             '--format', 'html', '--fail-on', 'never'])
    assert status == 0, err
    assert str(tmp_path) not in text
    assert page_data(text)[1]['robots'][0]['source'] == os.path.join(
        'samples', os.path.basename(SAMPLE))


def test_a_mesh_outside_the_checkout_is_drawn_as_its_bounds_not_published(tmp_path):
    # Red-team review 16: a pull request's robot naming file:///.../private.stl (another
    # checkout's part on a shared runner) had that mesh's vertices embedded in the page, a CI
    # artifact. It is drawn as its bounding box now, and said so; its own meshes stay.
    package = tmp_path / 'pr'
    (package / 'urdf').mkdir(parents=True)
    (package / 'package.xml').write_text('<package format="3"><name>pr</name></package>')
    shutil.copytree(os.path.join(os.path.dirname(SAMPLE), 'meshes'), package / 'meshes')
    secret = tmp_path / 'elsewhere' / 'private.stl'
    secret.parent.mkdir()
    shutil.copy(package / 'meshes' / 'arm_visual.stl', secret)
    robot = package / 'urdf' / 'robot.urdf'
    robot.write_text(
        '<robot name="r"><link name="base"><visual><origin xyz="0.5 0 0"/><geometry>'
        f'<mesh filename="file://{secret}"/></geometry></visual><collision><geometry>'
        '<mesh filename="../meshes/arm_collision.stl"/></geometry></collision></link></robot>')
    page = tmp_path / 'page.html'
    status, _, err = run(['check', str(robot), '--format', 'html', '-o', str(page),
                          '--fail-on', 'never'])
    assert status == 0, err
    (data,) = page_data(page.read_text())[1]['robots']
    (link,) = data['links']
    (mesh,) = data['meshes']  # the package's own collision mesh only
    assert mesh['triangles'] > 0 and link['collisions'][0]['type'] == 'mesh'
    (stand_in,) = link['visuals']
    assert stand_in['type'] == 'box' and stand_in['origin'][3] > 0.4  # placed as the mesh
    assert any('drawn as their bounds' in note for note in data['notes'])
    # The same file inside the checkout, named by its absolute path: drawn.
    inside_path = str(package / 'meshes' / 'arm_visual.stl')
    robot.write_text(robot.read_text().replace(str(secret), inside_path))
    run(['check', str(robot), '--format', 'html', '-o', str(page), '--fail-on', 'never'])
    (data,) = page_data(page.read_text())[1]['robots']
    assert len(data['meshes']) == 2 and not data['notes']


def test_an_absolute_path_through_a_link_out_of_the_checkout_is_refused(tmp_path):
    # ... and an absolute path to a link the pull request commits (meshes/ls.stl ->
    # /usr/bin/ls) was read, a program as an STL, where the relative path was refused.
    package = tmp_path / 'pr'
    (package / 'meshes').mkdir(parents=True)
    (package / 'package.xml').write_text('<package format="3"><name>pr</name></package>')
    outside = tmp_path / 'program'
    outside.write_bytes(b'\x7fELF' + b'\0' * 76 + b'\x01\0\0\0' + b'\0' * 50)
    (package / 'meshes' / 'part.stl').symlink_to(outside)
    robot = package / 'robot.urdf'
    for name in (str(package / 'meshes' / 'part.stl'),
                 f"file://{package / 'meshes' / 'part.stl'}", 'meshes/part.stl'):
        robot.write_text(f'<robot name="r"><link name="base"><visual><geometry><mesh '
                         f'filename="{name}"/></geometry></visual></link></robot>')
        _, out, _ = run(['check', str(robot), '--fail-on', 'never'])
        assert 'mesh-not-found' in out and 'leads out of' in out, name
