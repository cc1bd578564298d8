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
End to end, a real node process: self-collision as a planner and a user meet it.

``~/get_collision_matrix`` answers what ``urdf-link-tools collisions`` writes, the overlap at
rest is a diagnostic and a pair of markers, and ``ignore_rules`` refuses an unknown rule.
"""

from collision_robots import matrix_of, OVERLAPPING
from diagnostic_msgs.msg import DiagnosticStatus
import pytest
from rcl_interfaces.srv import GetParameters
from ros_harness import NodeSession, statuses_of

pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

from urdf_link_tools.collision.srdf import disabled_pairs, read_srdf  # noqa: E402
from urdf_link_tools.srv import GetCollisionMatrix  # noqa: E402

TIMEOUT = 30.0
ROBOT = OVERLAPPING.format(lower=-1, upper=1)


def matrix(session, samples=0, seed=0, srdf=False):
    request = GetCollisionMatrix.Request(samples=samples, seed=seed, include_srdf=srdf)
    return session.client.call(GetCollisionMatrix, session.private('get_collision_matrix'),
                               request, timeout=TIMEOUT)


@pytest.fixture(scope='module')
def session():
    with NodeSession('collisions') as session:
        yield session


def test_collision_matrix_service(session):
    before = matrix(session)
    assert not before.success and 'no robot_description' in before.message
    session.client.publish_description(ROBOT)
    session.wait_for_robot('overlapping')
    answer = matrix(session, samples=500, seed=4, srdf=True)
    assert answer.success, answer.message
    expected = matrix_of(ROBOT, samples=500, seed=4)
    assert {(item.link1, item.link2): item.reason for item in answer.disabled} == \
        expected.disabled
    assert [(item.link1, item.link2) for item in answer.disabled] == sorted(expected.disabled)
    assert answer.robot_name == 'overlapping' and answer.samples == 500
    assert answer.links_with_geometry == 5
    assert disabled_pairs(read_srdf(answer.srdf)) == expected.disabled
    assert ('arm', 'camera') in expected.disabled and 'Default' in answer.message
    # the default number of states; a refused one is an answer, not an exception
    assert matrix(session).samples == 10_000
    too_many = matrix(session, samples=10**9)
    assert not too_many.success and 'samples must be at most' in too_many.message
    assert session.process.alive()


def test_overlap_is_a_diagnostic_and_markers(session):
    session.client.publish_description(ROBOT)
    session.wait_for_robot('overlapping')
    arrays = session.diagnostics()
    status = session.client.spin_until(
        lambda: statuses_of(arrays).get('urdf_link_tools: arm'), TIMEOUT, 'the arm status')
    values = ' '.join(f'{item.key}={item.value}' for item in status.values)
    assert status.level == DiagnosticStatus.ERROR  # the arm also has no <inertial>
    assert 'collision-overlap-at-rest' in values and "'arm' and 'camera' overlap" in values
    markers = session.markers()
    drawn = session.client.spin_until(
        lambda: [m for array in markers for m in array.markers if m.ns == 'overlap'],
        TIMEOUT, 'the overlap markers')
    assert {m.header.frame_id for m in drawn} == {'arm', 'camera'}


def test_pairs_moveit_disables_are_not_reported(session):
    # move_group publishes its SRDF latched on robot_description_semantic: the pair it
    # disables is not reported any more; a broken SRDF is said in the log and changes nothing.
    session.client.publish_description(ROBOT)
    session.wait_for_robot('overlapping')

    def overlap_rules():
        answer = session.link_findings('arm')
        return [f.rule for f in answer.findings] if answer.success else None
    assert 'collision-overlap-at-rest' in session.client.spin_until(
        overlap_rules, TIMEOUT, 'the findings of arm')
    session.client.publish_description('<robot><disable_collisions', 'robot_description_semantic')
    session.client.publish_description(
        '<robot name="overlapping"><disable_collisions link1="camera" link2="arm" '
        'reason="Default"/></robot>', 'robot_description_semantic')

    def left_out():
        rules = overlap_rules()
        return rules is not None and 'collision-overlap-at-rest' not in rules
    session.client.spin_until(left_out, TIMEOUT, 'the overlap of arm and camera to be left out')
    assert session.process.alive()


def test_ignore_rules_refuses_an_unknown_rule_and_keeps_the_old_value(session):
    good = session.set_parameters(ignore_rules=['collision-overlap-at-rest'])
    assert good[0].successful, good[0].reason
    bad = session.set_parameters(ignore_rules=['collision-overlap-at-rest', 'colision-missing'])
    assert not bad[0].successful
    assert "unknown rule 'colision-missing'" in bad[0].reason
    assert "did you mean 'collision-missing'" in bad[0].reason
    kept = session.client.call(GetParameters, session.private('get_parameters'),
                               GetParameters.Request(names=['ignore_rules']))
    assert list(kept.values[0].string_array_value) == ['collision-overlap-at-rest']


def _chain(links):
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child link="l{i}"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for i in range(1, links))
    return ('<robot name="chain"><link name="l0"><collision><geometry><box size="0.1 0.1 0.1"/>'
            '</geometry></collision></link>'
            + ''.join(f'<link name="l{i}"/>' for i in range(1, links)) + joints + '</robot>')


def test_the_node_computes_one_matrix_at_a_time_and_within_bounds():
    # Ninth red-team review: four requests for different seeds held the node's executor
    # threads (no diagnostics, no parameters) for minutes; a 20,000-link chain asked for
    # 10,000 states took 1.75 GB at once; a negative seed was an internal error.
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.config import CheckConfig
    from urdf_link_tools.parser import parse_urdf_string
    from urdf_link_tools.ros import collision_matrix
    from urdf_link_tools.ros.snapshot import Answers
    answers = Answers(analyze(parse_urdf_string(ROBOT), CheckConfig()))
    assert answers.collision_matrix(50, -1)[1].startswith('seed must be from 0')
    lock = answers._locks['matrix']
    lock.acquire()
    try:
        assert answers.collision_matrix(50, 1) == (None, collision_matrix.BUSY, 0.0)
    finally:
        lock.release()
    computed = answers.collision_matrix(50, 1)
    assert computed[0] is not None and answers.collision_matrix(50, 1) is computed
    lock.acquire()
    try:  # what was computed is served while another is computed
        assert answers.collision_matrix(50, 1) is computed
    finally:
        lock.release()
    config = CheckConfig(check_meshes=False)
    many = analyze(parse_urdf_string(_chain(1500)), config)
    assert 'more than the node draws at once: ask for at most 6,671 samples' in \
        collision_matrix.compute(many, 10_000, 0)[1]
    huge = analyze(parse_urdf_string(_chain(6000)), config)
    said = collision_matrix.compute(huge, 100, 0)[1]
    assert 'more than the node computes a matrix for (5,000)' in said
    # (not sent to urdf-link-tools collisions, which refuses as many links: round 39)
    assert 'use urdf-link-tools collisions' not in said
