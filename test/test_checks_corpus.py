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
The whole example-robot-data corpus through analyze() with meshes, and through the CLI.

Per-rule counts are printed (pytest -s) so they can be compared between versions; a few of
them are checked by hand against the numbers in the files below.
"""

import collections
import json
import os

import corpus
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.cli import main
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.meshes import MeshLibrary
from urdf_link_tools.parser import parse_urdf_string

#: Meshes that really are missing from the corpus: the file names absolute paths in a
#: proprietary SDK (/usr/Romeo/naoqi-sdk-...), in Ogre's .mesh format, on visuals only (one
#: finding for the missing folder).
KNOWN_MISSING = {'romeo_description/urdf/romeo_laas_small.urdf': 20}


@pytest.fixture(scope='module')
def analyses():
    paths = corpus.urdf_paths()
    if not paths:
        pytest.fail('example-robot-data is not installed: run make setup')
    library = MeshLibrary(ament_prefix_path=corpus.ament_prefixes())
    results = {}
    for path in paths:
        robot = parse_urdf_string(path.read_bytes(), str(path))
        results[corpus.relative_name(path)] = analyze(robot, CheckConfig(), library)
    return results


def test_corpus_is_found_through_the_ament_index():
    base = corpus.prefix()
    assert base is not None, 'example-robot-data is not installed: run make setup'
    assert corpus.has_ament_marker(base)
    assert len(corpus.urdf_paths()) >= 60


def test_corpus_analyses_without_internal_errors_and_meshes_resolve(analyses):
    counts = collections.Counter()
    for name, analysis in analyses.items():
        counts.update(finding.rule for finding in analysis.findings)
        rules = [finding.rule for finding in analysis.findings]
        assert 'internal-error' not in rules, name
        assert 'mesh-unreadable' not in rules, (name, [f.message for f in analysis.findings
                                                       if f.rule == 'mesh-unreadable'][:3])
        missing = 0
        for finding in analysis.findings:
            if finding.rule != 'mesh-not-found':
                continue
            values = dict(finding.values)
            if finding.links:  # one folder or package missing here: its meshes, counted once
                missing += int(values['count'])
                assert values['collision_meshes'] == '0', name
            else:
                missing += 1
                assert finding.element.startswith('visual')
        assert missing == KNOWN_MISSING.get(name, 0), (name, missing)
    print('\nfindings per rule over example-robot-data:')
    for rule, count in counts.most_common():
        print(f'{count:6d}  {rule}')
    assert counts['inertia-triangle-inequality'] > 0


def _finding(analysis, rule, link):
    found = [f for f in analysis.findings if f.rule == rule and f.link == link]
    assert found, (rule, link)
    return found[0]


def test_hand_checked_pr2_sensor_mount_triangle(analyses):
    # pr2.urdf line 786: ixx="0.001" iyy="0.001" izz="0.01": 0.001 + 0.001 < 0.01.
    finding = _finding(analyses['pr2_description/urdf/pr2.urdf'],
                       'inertia-triangle-inequality', 'sensor_mount_link')
    assert finding.line == 786
    assert dict(finding.values)['margin'] == '-0.008'
    assert '80 % of C' in finding.message


def test_hand_checked_tiago_antenna_not_positive_definite(analyses):
    # tiago.urdf line 179: ixx=2.371e-8, iyy=2.833e-8, ixy=6.119e-8:
    # ixx iyy - ixy^2 = 6.717e-16 - 3.744e-15 = -3.073e-15 < 0.
    finding = _finding(analyses['tiago_description/robots/tiago.urdf'],
                       'inertia-not-positive-definite', 'base_antenna_left_link')
    assert finding.line == 179
    assert 'Ixx*Iyy-Ixy^2=-3.073e-15' in finding.message


def test_hand_checked_ur5_wrist_inertia_too_large(analyses):
    # ur5_robot.urdf line 155: izz=0.21942 for 1.219 kg, a radius of gyration of 0.42 m on a
    # wrist whose collision mesh is under 10 cm across. Its centre of mass is the link origin,
    # 47.5 mm outside the mesh: about it, all the mass at the farthest corners gives at most
    # 1.219 (0.0389^2 + 0.0572^2) = 0.00583 kg m^2 about y, where 0.111 is declared.
    finding = _finding(analyses['ur_description/urdf/ur5_robot.urdf'],
                       'inertia-exceeds-extent', 'wrist_1_link')
    assert finding.line == 155
    assert finding.severity == Severity.ERROR
    assert float(dict(finding.values)['over']) > 15
    assert 'about the declared centre of mass, which lies 47.5 mm outside' in finding.message


def test_cli_runs_clean_over_the_corpus(monkeypatch, capsys):
    monkeypatch.setenv('AMENT_PREFIX_PATH', os.pathsep.join(corpus.ament_prefixes()))
    for path in corpus.urdf_paths():
        status = main(['check', str(path), '--format', 'json', '--no-meshes'])
        captured = capsys.readouterr()
        assert status in (0, 2), (path, captured.err)
        assert 'Traceback' not in captured.err
        document = json.loads(captured.out)
        assert set(document) >= {'robot', 'counts', 'findings'}
