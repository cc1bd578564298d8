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
NaN, infinity, negative and non-numeric values in every numeric attribute, sent to the node.

The cases are generated over every numeric attribute of the template robot
(:data:`hostile_harness.TEMPLATE`), each value replacing the attribute's first number:

- a non-number is what urdfdom refuses: an ERROR finding names the attribute and its line,
  and the robot, read with the fallback the finding names, becomes the model in service;
- NaN and infinity are numbers to the parser: the robot becomes the model in service, and
  where the number describes a link (its inertial, its shapes and their origins, the origin
  of the joint that places it) an ERROR finding on that line names it;
- a negative value likewise, with an ERROR finding where a negative number is impossible
  (mass, principal moments, box sizes, radii, lengths).

Whatever the value, nothing downstream may break or pass a non-finite number on: the
marker array, every service answer (list_links, get_link_geometry for each link and group)
and the robot COM carry finite numbers only, and the node stays up. The same cases go
through ``urdf-link-tools check`` too: a report without an ``internal-error`` finding,
with the non-number's ERROR finding at its line.
"""

import io
import json

from diagnostic_msgs.msg import DiagnosticStatus
from hostile_harness import Hostile, non_finite, numeric_attributes, TEMPLATE, with_value
import pytest
from ros_harness import NodeSession, REPO

pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

from urdf_link_tools.cli import EXIT_ERRORS, EXIT_OK  # noqa: E402
from urdf_link_tools.cli import main as cli_main  # noqa: E402
from urdf_link_tools.msg import Finding  # noqa: E402

PACKAGE_DIRS = [f'urdf_link_tools={REPO}']
ATTRIBUTES = numeric_attributes(TEMPLATE)
LINKS = ('base', 'arm', 'tool')
# A negative value of these cannot describe a real part.
NEGATIVE_IS_ERROR = {('mass', 'value'), ('inertia', 'ixx'), ('inertia', 'iyy'),
                     ('inertia', 'izz'), ('box', 'size'), ('cylinder', 'radius'),
                     ('cylinder', 'length'), ('sphere', 'radius')}


def _negative(token: str) -> str:
    value = float(token)
    return repr(-abs(value)) if value else '-1.0'


def _in_visual(attribute) -> bool:
    """Say whether the attribute's element is inside a <visual> of the template."""
    for line in reversed(TEMPLATE.splitlines()[:attribute.element_line]):
        if '<visual>' in line or '<collision>' in line:
            return '<visual>' in line
    return False


def _expect_error(attribute, kind: str) -> bool:
    """Say whether the value must give an ERROR finding on the line of its element."""
    # A negative size of a visual shape draws wrongly but breaks nothing: a WARNING
    # (docs/rules.md, geometry-degenerate); of a collision shape MuJoCo refuses it: an ERROR.
    return bool(attribute.link) and (
        kind != 'negative' and attribute.tag != 'color'
        or (attribute.tag, attribute.name) in NEGATIVE_IS_ERROR
        and not (attribute.parent == 'geometry' and _in_visual(attribute)))


def _cases():
    for attribute in ATTRIBUTES:
        for kind in ('nan', 'inf', 'negative', 'not_a_number'):
            yield pytest.param(attribute, kind, id=f'{attribute.label}-{kind}')


@pytest.fixture(scope='module')
def hostile():
    with NodeSession('hostile_numbers', {'package_dirs': PACKAGE_DIRS,
                                         'diagnostics_period': 0.1}) as session:
        hostile = Hostile(session)
        hostile.client.publish_description(TEMPLATE.replace('"template"', '"last_good"'))
        hostile.wait_robot('last_good')
        hostile.serial = 0
        hostile.last_good = 'last_good'
        yield hostile


def test_hostile_template_is_clean_of_errors():
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.config import CheckConfig
    from urdf_link_tools.parser import parse_urdf_string

    analysis = analyze(parse_urdf_string(TEMPLATE), CheckConfig(
        package_dirs=(('urdf_link_tools', str(REPO)),)))
    assert analysis.counts()['error'] == 0, [f.message for f in analysis.findings]
    assert len(ATTRIBUTES) >= 40


@pytest.mark.parametrize('attribute, kind', list(_cases()))
def test_hostile_number(hostile, attribute, kind):
    hostile.serial += 1
    name = f'case_{hostile.serial}'
    first = attribute.tokens[0]
    value = {'nan': 'nan', 'inf': 'inf', 'negative': _negative(first),
             'not_a_number': 'twelve'}[kind]
    text = with_value(TEMPLATE.replace('"template"', f'"{name}"'), attribute,
                      ' '.join((value,) + attribute.tokens[1:]))
    since, marks, _ = hostile.publish(text)
    answer = hostile.wait_robot(name)
    if kind == 'not_a_number':
        findings = [f for link in LINKS + ('',) for f in hostile.link_findings(link).findings]
        # urdfdom refuses every unreadable number but a colour's, which it drops; MuJoCo
        # (a default target) refuses that too: an error either way.
        severity = Finding.ERROR
        assert any(f.severity == severity and f.line == attribute.element_line and
                   f'{attribute.name}: "twelve" is not a number' in f.message
                   for f in findings), [(f.rule, f.line, f.message) for f in findings]
    hostile.last_good = name
    assert not non_finite(answer), non_finite(answer)
    array = hostile.wait_markers(marks)
    assert len(array.markers) > 1
    assert not non_finite(array), non_finite(array)[:5]
    for link in LINKS:
        for group in ('collision', 'visual'):
            geometry = hostile.link_geometry(link, group, triangles=True)
            assert geometry.success, geometry.message
            assert not non_finite(geometry), non_finite(geometry)[:5]
    if _expect_error(attribute, kind):
        findings = hostile.link_findings(attribute.link).findings
        errors = [f for f in findings if f.severity == Finding.ERROR]
        assert any(f.line == attribute.element_line for f in errors), \
            [(f.rule, f.line, f.message) for f in findings]
        statuses = hostile.wait_statuses(since, name)
        status = statuses[f'urdf_link_tools: {attribute.link}']
        assert status.level == DiagnosticStatus.ERROR, status.message
    assert hostile.session.process.alive()


@pytest.mark.parametrize('attribute, kind', list(_cases()))
def test_hostile_number_cli(attribute, kind, tmp_path):
    """The same cases through ``urdf-link-tools check``: an exit status, never a crash."""
    value = {'nan': 'nan', 'inf': 'inf', 'negative': _negative(attribute.tokens[0]),
             'not_a_number': 'twelve'}[kind]
    path = tmp_path / 'robot.urdf'
    path.write_text(with_value(TEMPLATE, attribute, ' '.join((value,) + attribute.tokens[1:])))
    out, err = io.StringIO(), io.StringIO()
    status = cli_main(['check', str(path), '--format', 'json', '--package-dir',
                       PACKAGE_DIRS[0]], out=out, err=err)
    report = json.loads(out.getvalue())
    if kind == 'not_a_number':
        severity = 'error'  # a colour's too: MuJoCo, a default target, refuses it
        assert status == EXIT_ERRORS
        assert any(f['severity'] == severity and f['line'] == attribute.element_line and
                   f'{attribute.name}: "twelve" is not a number' in f['message']
                   for f in report['findings']), report['findings']
    assert not any(f['rule'] == 'internal-error' for f in report['findings']), report
    if _expect_error(attribute, kind):
        assert status == EXIT_ERRORS
        assert any(f['severity'] == 'error' and f['line'] == attribute.element_line
                   for f in report['findings']), report['findings']
    else:
        assert status in (EXIT_OK, EXIT_ERRORS), err.getvalue()


def test_hostile_numbers_robot_com_stayed_finite(hostile):
    """Run last: the whole-robot COM of every accepted case was finite (or not sent)."""
    assert hostile.serial > 0, 'run with the number cases'
    hostile.client.spin_until(lambda: hostile.robot_com, 10.0, 'a robot_com message')
    for point in hostile.robot_com:
        assert not non_finite(point), point
    assert hostile.session.process.alive()
