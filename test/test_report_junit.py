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
``check --format junit`` against the Jenkins xUnit plugin's published ``junit-10.xsd``.

One test case per link and one for the robot; a case fails when ``--fail-on`` fails on one of
its findings, and the others are in its ``system-out``.
"""

from cli_harness import ROOT, run, SAMPLE
from lxml import etree
import pytest
from report_harness import HOSTILE_LINK, HOSTILE_ROOT, write_hostile_robot

SCHEMA = etree.XMLSchema(etree.parse(str(ROOT / 'test' / 'data' / 'junit' / 'junit-10.xsd')))
SAMPLE_LINKS = ['base_footprint', 'base_link', 'my_link', 'arm_link', 'gripper_link',
                'camera_link', 'tool0']


def parse_valid(text):
    document = etree.fromstring(text.encode())
    SCHEMA.assertValid(document)
    return document


def test_the_schema_refuses_what_it_should():
    # A test case without its required name is not JUnit: the validator is not a pushover.
    assert not SCHEMA.validate(etree.fromstring(
        b'<testsuites><testsuite name="s" tests="1" failures="0" errors="0">'
        b'<testcase classname="c"/></testsuite></testsuites>'))


@pytest.mark.parametrize('fail_on,failed', [
    ('error', {'arm_link', 'camera_link', 'my_link'}),
    ('warning', {'arm_link', 'camera_link', 'my_link', 'gripper_link'}),
    ('never', set()),
])
def test_sample_robot_cases_fail_by_fail_on(workdir, fail_on, failed):
    status, text, _ = run(['check', SAMPLE, '--package-dir', f'urdf_link_tools={workdir}',
                           '--format', 'junit', '--fail-on', fail_on])
    assert status == {'error': 2, 'warning': 2, 'never': 0}[fail_on]
    document = parse_valid(text)
    (suite,) = document.findall('testsuite')
    cases = suite.findall('testcase')
    assert [case.get('name') for case in cases] == (
        [f'link {name}' for name in SAMPLE_LINKS] + ['robot sample_robot'])
    assert {case.get('classname') for case in cases} == {'urdf-link-tools.sample_robot'}
    failing = {case.get('name')[5:] for case in cases if case.find('failure') is not None}
    assert failing == failed
    assert suite.get('tests') == document.get('tests') == '8'
    assert suite.get('failures') == document.get('failures') == str(len(failed))
    arm = cases[3].find('failure')
    if fail_on == 'never':
        assert arm is None
        assert 'inertia-triangle-inequality' in cases[3].find('system-out').text
    else:
        assert arm.get('type') == 'inertia-triangle-inequality'
        assert arm.text.startswith('samples/sample_robot.urdf:95: error: '
                                   'inertia-triangle-inequality: ')
    camera = cases[5]
    if fail_on == 'error':  # its warnings ride along in system-out
        assert camera.find('system-out').text.count(': warning: ') == 2
        assert camera.find('failure').text.count(': error: ') == 1


def test_hostile_names_and_unreadable_input(tmp_path):
    robot = write_hostile_robot(tmp_path)
    status, text, _ = run(['check', str(robot), str(tmp_path / 'missing.urdf'), '--format',
                           'junit'])
    assert status == 3
    document = parse_valid(text)
    robot_suite, inputs = document.findall('testsuite')
    names = [case.get('name') for case in robot_suite.findall('testcase')]
    assert names == [f'link {HOSTILE_ROOT}', f'link {HOSTILE_LINK}', 'robot evil|bot']
    assert robot_suite.findall('testcase')[0].find('system-out').text.count('root-link') == 1
    (case,) = inputs.findall('testcase')
    assert case.find('error').get('type') == 'input-error'
    assert 'missing.urdf' in case.get('name')
    assert (document.get('tests'), document.get('failures'), document.get('errors')) == (
        '4', '1', '1')


def test_characters_xml_cannot_carry_are_replaced():
    from urdf_link_tools.reports.junit import xml_text
    assert xml_text('a\x01b\x1bc\td') == 'a\ufffdb\ufffdc\td'


def test_xacro_macro_chain_in_the_failure():
    robot = ROOT / 'test' / 'data' / 'xacro_robot'
    _, text, _ = run(['check', str(robot / 'urdf' / 'robot.urdf.xacro'), '--package-dir',
                      f'demo_description={robot}', '--format', 'junit'])
    document = parse_valid(text)
    (case,) = [case for case in document.iter('testcase') if case.get('name') == 'link upper_link']
    failure = case.find('failure').text
    assert "in macro 'box_inertial' called at " in failure
    assert 'arm_macros.xacro:13' in failure and 'robot.urdf.xacro:25' in failure
