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
End to end: what happens over the node's life as descriptions and parameters change.

A new description replaces the model (markers cleared and redrawn), a broken one leaves the
last good model in service with an ERROR diagnostic carrying the line, a threshold changed
at run time re-runs the checks, and ``urdf_file`` (URDF or xacro) works without a publisher.
"""

import corpus
from diagnostic_msgs.msg import DiagnosticStatus
import pytest
from ros_harness import NodeSession, REPO, SAMPLE_URDF, statuses_of

pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

from visualization_msgs.msg import Marker  # noqa: E402

TIMEOUT = 30.0
SAMPLE = SAMPLE_URDF.read_text()
# The sample cut off in a tag on line 94: not XML, nothing can be read (a number that is not
# a number is a finding now, and the robot is still served).
BROKEN = SAMPLE.replace('<mass value="2.0"/>', '<mass value="2.0"/<')
ERROR_STATUS = 'urdf_link_tools: robot_description'


def _package_dirs():
    dirs = [f'urdf_link_tools={REPO}']
    prefix = corpus.prefix()
    if prefix is not None:
        dirs.append(f'example-robot-data={prefix / "share" / "example-robot-data"}')
    return dirs


def _corpus_text(name):
    try:
        return corpus.urdf_path(name).read_text()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))


@pytest.fixture
def session():
    with NodeSession('lifecycle', {'package_dirs': _package_dirs()}) as session:
        yield session


def test_ros_e2e_new_description_replaces_the_model(session):
    markers = session.markers()
    session.client.publish_description(SAMPLE)
    session.wait_for_robot('sample_robot')
    ur5 = _corpus_text('ur5_robot.urdf')
    session.client.publish_description(ur5)
    answer = session.wait_for_robot('ur5')
    assert answer.root_link == 'world'
    ur5_links = {row.name for row in answer.links}

    def redrawn():
        return markers and {m.header.frame_id for m in markers[-1].markers[1:]} <= ur5_links
    session.client.spin_until(redrawn, TIMEOUT, 'the markers of ur5')
    latest = markers[-1]
    assert latest.markers[0].action == Marker.DELETEALL  # the sample's markers go away
    assert {m.header.frame_id for m in latest.markers if m.ns == 'labels'} == ur5_links
    meshes = [m for m in latest.markers if m.type == Marker.MESH_RESOURCE]
    assert meshes and all(m.mesh_resource.startswith('package://') for m in meshes)
    assert not session.link_geometry('arm_link').success  # the sample's link is gone


def test_ros_e2e_broken_description_keeps_the_last_good_model(session):
    diagnostics = session.diagnostics()
    session.client.publish_description(SAMPLE)
    session.wait_for_robot('sample_robot')
    session.client.publish_description(BROKEN)
    error = session.client.spin_until(
        lambda: statuses_of(diagnostics).get(ERROR_STATUS), TIMEOUT, 'the rejection status')
    assert error.level == DiagnosticStatus.ERROR
    assert 'line 94' in error.message and 'not well-formed XML' in error.message
    assert "still serving the last good model 'sample_robot'" in error.message
    assert {item.key: item.value for item in error.values}['line'] == '94'
    # Still in service, still answering, still alive.
    assert session.list_links().robot_name == 'sample_robot'
    assert session.link_geometry('arm_link').success
    assert session.process.alive()
    rejected = [line for line in session.process.output().splitlines() if 'rejected' in line]
    assert len(rejected) == 1 and 'line 94' in rejected[0], session.process.output()
    # A good description clears the error.
    session.client.publish_description(SAMPLE.replace('sample_robot', 'sample_robot_2'))
    session.wait_for_robot('sample_robot_2')
    count = len(diagnostics)
    session.client.spin_until(lambda: len(diagnostics) > count + 1, TIMEOUT, 'diagnostics')
    assert ERROR_STATUS not in statuses_of(diagnostics[count + 1:])


def test_ros_e2e_a_rejection_is_logged_neutralised():
    # Review 12: libxml2's message quotes the tag names, and the log took them raw (a
    # U+FEFF, an invisible character, reached the terminal or the launch's CI log).
    with NodeSession('rejection_log') as session:
        session.client.publish_description('<robot name="r"><link\ufeffx></link\ufeffy></robot>')

        def logged():
            lines = [line for line in session.process.output().splitlines()
                     if 'rejected' in line]
            return lines[0] if lines else None
        line = session.client.spin_until(logged, TIMEOUT, 'the rejection in the log')
        assert 'link\\ufeffx' in line and '\ufeff' not in line, line


def test_ros_e2e_broken_first_description():
    with NodeSession('broken_first') as session:
        session.client.publish_description('<robot name="r"><link name="a"></robot>')

        def rejected():
            answer = session.list_links()
            return answer if 'rejected' in answer.message else None
        answer = session.client.spin_until(rejected, TIMEOUT, 'the rejection')
        assert not answer.success
        assert answer.message.startswith(
            'no valid robot_description yet: the last one was rejected: line 1: '
            'not well-formed XML')
        assert session.process.alive()


def test_ros_e2e_threshold_change_reruns_the_checks(session):
    session.client.publish_description(SAMPLE)
    session.wait_for_robot('sample_robot')
    rules = {finding.rule for finding in session.link_findings('arm_link').findings}
    assert 'collision-reuses-visual-mesh' not in rules  # 1,520 faces <= 5,000

    (result,) = session.set_parameters(collision_face_limit=1000)
    assert result.successful, result.reason

    def rechecked():
        found = {finding.rule for finding in session.link_findings('arm_link').findings}
        return 'collision-reuses-visual-mesh' in found
    session.client.spin_until(rechecked, TIMEOUT, 'the re-run checks')

    (result,) = session.set_parameters(density_min=30000.0)
    assert not result.successful
    assert 'density_min' in result.reason and 'density_max' in result.reason
    (result,) = session.set_parameters(color_ok=[0.0, 1.0, 0.0])
    assert not result.successful and 'four numbers' in result.reason
    assert session.process.alive()


def test_ros_e2e_urdf_file_parameter_reads_xacro(tmp_path):
    pytest.importorskip('xacro')
    path = tmp_path / 'two_links.urdf.xacro'
    path.write_text(
        '<?xml version="1.0"?>\n'
        '<robot name="from_xacro" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:property name="m" value="1.5"/>\n'
        '  <xacro:macro name="block" params="name">\n'
        '    <link name="${name}"><inertial><mass value="${m}"/>\n'
        '      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>\n'
        '    </inertial></link>\n'
        '  </xacro:macro>\n'
        '  <xacro:block name="base"/>\n'
        '  <xacro:block name="top"/>\n'
        '  <joint name="j" type="fixed"><parent link="base"/><child link="top"/></joint>\n'
        '</robot>\n')
    with NodeSession('xacro', {'urdf_file': str(path)}) as session:
        answer = session.wait_for_robot('from_xacro')
        assert [(row.name, row.mass) for row in answer.links] == [('base', 1.5), ('top', 1.5)]
        # A file that cannot be read is refused in the set-parameters answer (old value kept).
        (result,) = session.set_parameters(urdf_file=str(tmp_path / 'missing.urdf'))
        assert not result.successful
        assert 'missing.urdf' in result.reason and 'cannot be read' in result.reason
        assert session.list_links().robot_name == 'from_xacro'
        # Setting urdf_file to the value it has reads the file again: it may have changed.
        path.write_text(path.read_text().replace('from_xacro', 'edited'))
        (result,) = session.set_parameters(urdf_file=str(path))
        assert result.successful
        session.wait_for_robot('edited')


def test_ros_e2e_remapped_description_topic():
    with NodeSession('remapped', extra_args=['-r', 'robot_description:=/remapped_desc']) \
            as session:
        session.client.publish_description(SAMPLE, topic='/remapped_desc')
        session.wait_for_robot('sample_robot')


def test_ros_e2e_description_size_limit():
    with NodeSession('size_limit', {'description_max_bytes': 2048}) as session:
        diagnostics = session.diagnostics()
        session.client.publish_description(SAMPLE)  # about 5 kB
        error = session.client.spin_until(
            lambda: statuses_of(diagnostics).get(ERROR_STATUS), TIMEOUT, 'the size rejection')
        assert 'larger than the limit of 0.0 MB' in error.message
        assert not session.list_links().success
        (result,) = session.set_parameters(description_max_bytes=1_000_000)
        assert result.successful
        session.client.publish_description(SAMPLE)
        session.wait_for_robot('sample_robot')
