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

"""The node's immutable snapshot, built without a ROS context."""

import pytest
from ros_harness import REPO, SAMPLE_URDF
from urdf_link_tools.errors import UrdfSyntaxError
from urdf_link_tools.findings import Severity

pytest.importorskip('urdf_link_tools.msg',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

from urdf_link_tools.ros.parameters import settings_from_values  # noqa: E402
from urdf_link_tools.ros.snapshot import (  # noqa: E402
    build_snapshot, mesh_library, parse_description, rejection_from_error, TOPIC_SOURCE)

SETTINGS = settings_from_values({'package_dirs': [f'urdf_link_tools={REPO}']})


def test_ros_snapshot_reuses_the_analysis_when_only_markers_change():
    robot = parse_description(SAMPLE_URDF.read_bytes(), str(SAMPLE_URDF))
    meshes = mesh_library(SETTINGS)
    first = build_snapshot(robot, SETTINGS, meshes, 1, 'urdf_link_tools')
    assert first.root == 'base_footprint' and first.source == str(SAMPLE_URDF)
    assert len(first.link_statuses) == len(robot.links)
    relabelled = settings_from_values({'package_dirs': [f'urdf_link_tools={REPO}'],
                                       'publish_labels': False})
    second = build_snapshot(robot, relabelled, meshes, 2, 'urdf_link_tools', first)
    assert second.analysis is first.analysis
    assert len(second.markers.markers) < len(first.markers.markers)
    stricter = settings_from_values({'package_dirs': [f'urdf_link_tools={REPO}'],
                                     'collision_face_limit': 10000})
    third = build_snapshot(robot, stricter, meshes, 3, 'urdf_link_tools', second)
    assert third.analysis is not first.analysis
    rules = {finding.rule for finding in third.analysis.findings}
    assert 'collision-mesh-too-complex' not in rules


def test_ros_snapshot_rejection_carries_the_line():
    with pytest.raises(UrdfSyntaxError) as raised:
        parse_description(b'<robot name="r">\n<link name="a">\n</robot>', None)
    rejection = rejection_from_error(raised.value, None)
    assert rejection.line == 3 and rejection.error.startswith('line 3: ')
    assert rejection.source == TOPIC_SOURCE
    status = rejection.status('kept_robot', 'urdf_link_tools')
    assert 'line 3' in status.message and "'kept_robot'" in status.message
    odd = rejection_from_error(KeyError('x'), '/robot.urdf')
    assert odd.line is None and odd.error.startswith('internal error while analysing')


def test_ros_snapshot_of_an_analysis_past_its_budget_says_it_is_incomplete():
    from urdf_link_tools.budget import AnalysisInterrupted, Budget

    robot = parse_description(SAMPLE_URDF.read_bytes(), str(SAMPLE_URDF))
    meshes = mesh_library(SETTINGS)
    snapshot = build_snapshot(robot, SETTINGS, meshes, 1, 'urdf_link_tools',
                              budget=Budget(0.0))
    (note,) = [f for f in snapshot.analysis.findings if f.rule == 'analysis-incomplete']
    assert note.link is None and 'time budget of 0 s' in note.message
    # An error: a warning let an 8,000-link description that ran out of time report
    # "0 errors, 1 warning" where a complete check of it found an error (red-team review 4).
    assert note.severity == Severity.ERROR
    assert note in snapshot.answers.robot_findings()
    cancelled = Budget(60.0)
    cancelled.cancel()
    with pytest.raises(AnalysisInterrupted):
        build_snapshot(robot, SETTINGS, meshes, 2, 'urdf_link_tools', budget=cancelled)


def test_ros_snapshot_answers_are_built_once():
    robot = parse_description(SAMPLE_URDF.read_bytes(), str(SAMPLE_URDF))
    snapshot = build_snapshot(robot, SETTINGS, mesh_library(SETTINGS), 1, 'urdf_link_tools')
    answers = snapshot.answers
    assert answers.list_links() is answers.list_links()
    assert answers.names() is answers.names()
    element = robot.link('arm_link').collisions[0]
    mesh = snapshot.analysis.mesh_for(element)
    first, note = answers.triangles(element, mesh)
    assert note == '' and len(first.triangles) == 1520
    assert answers.triangles(element, mesh)[0] is first


def test_ros_snapshot_link_answers_are_whole_messages_built_once():
    from urdf_link_tools.ros import conversions
    from urdf_link_tools.srv import GetLinkFindings, GetLinkGeometry

    robot = parse_description(SAMPLE_URDF.read_bytes(), str(SAMPLE_URDF))
    snapshot = build_snapshot(robot, SETTINGS, mesh_library(SETTINGS), 1, 'urdf_link_tools')
    answers, analysis = snapshot.answers, snapshot.analysis
    built = []

    def geometry(name, group=''):
        def build():
            built.append(name)
            return conversions.fill_link_geometry(GetLinkGeometry.Response(), analysis, name,
                                                  group)
        return answers.link_geometry(name, group, False, build)

    first = geometry('arm_link')
    assert first.success and first.frame_id == 'arm_link'
    assert geometry('arm_link') is first and geometry('arm_link', ' collision ') is first
    assert geometry('arm_link', 'visual') is not first
    assert built == ['arm_link', 'arm_link']
    # Unknown links and groups are answered per call: no request grows the store.
    assert not geometry('arm_lnk').success and not geometry('arm_lnk').success
    assert not geometry('arm_link', 'nowhere').success
    assert built[2:] == ['arm_lnk', 'arm_lnk', 'arm_link']

    def findings(name):
        return answers.link_findings(name, lambda: conversions.fill_link_findings(
            GetLinkFindings.Response(), analysis, name))
    assert findings('arm_link') is findings('arm_link') and findings('') is findings('')
    assert findings('arm_link').findings
