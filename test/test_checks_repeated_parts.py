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
A part repeated with overlapping collision shapes, and its numbered copies: one finding.

NVIDIA's Kaya has three omniwheels, each ten roller spheres on continuous joints from the
wheel, overlapping their neighbours and the axle the wheel is welded to, and a motor that
overlaps five of them: 23 overlap findings for one modelling choice. The robots here are
small omniwheels written for the test (``motor_0``/``axle_0``/``wheel_0``/``roller_0_3``).
"""

import math
import re

import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.parser import parse_urdf_string
from urdf_link_tools.reports.scene import collision_pairs

pytest.importorskip('coal', reason='the overlaps at rest need coal')

RULE = 'collision-overlap-at-rest'
NO_MESHES = CheckConfig(check_meshes=False)
MASS = ('<inertial><mass value="0.05"/><inertia ixx="1e-5" ixy="0" ixz="0" iyy="1e-5" iyz="0" '
        'izz="1e-5"/></inertial>')


def omniwheel(number, x, rollers=6, ring=0.03, radius=0.02, motor=False):
    """
    Return one omniwheel: a motor on the base, an axle turning in it, a hub welded to the axle.

    Roller spheres of ``radius`` on a ring of ``ring`` about the axle (y), on continuous
    joints from the hub (a small sphere of its own: a hub without geometry would make every
    roller adjacent to every other, as MoveIt Setup Assistant does): six on a ring of 30 mm
    are 30 mm apart, 10 mm into each other, and 5 mm into the axle (a 15 mm cylinder).
    ``motor``: the motor's box reaches into the lowest roller and its two neighbours.
    """
    motor_box = '0.1 0.02 0.03' if motor else '0.02 0.02 0.02'
    motor_xyz = '0 0 -0.045' if motor else '0 0 -0.2'
    parts = [
        f'<link name="motor_{number}">{MASS}<collision><origin xyz="{motor_xyz}"/><geometry>'
        f'<box size="{motor_box}"/></geometry></collision></link>'
        f'<joint name="motor_{number}_joint" type="fixed"><parent link="base_link"/>'
        f'<child link="motor_{number}"/><origin xyz="{x} 0 0.2"/></joint>',
        f'<link name="axle_{number}">{MASS}<collision><origin rpy="1.5708 0 0"/><geometry>'
        '<cylinder radius="0.015" length="0.04"/></geometry></collision></link>'
        f'<joint name="axle_{number}_joint" type="continuous"><parent link="motor_{number}"/>'
        f'<child link="axle_{number}"/><axis xyz="0 1 0"/></joint>',
        f'<link name="wheel_{number}">{MASS}<collision><geometry><sphere radius="0.004"/>'
        '</geometry></collision></link>'
        f'<joint name="wheel_{number}_joint" type="fixed"><parent link="axle_{number}"/>'
        f'<child link="wheel_{number}"/></joint>']
    for index in range(rollers):
        angle = 2 * math.pi * index / rollers
        parts.append(
            f'<link name="roller_{number}_{index}">{MASS}<collision><geometry>'
            f'<sphere radius="{radius}"/></geometry></collision></link>'
            f'<joint name="roller_{number}_{index}_joint" type="continuous">'
            f'<parent link="wheel_{number}"/><child link="roller_{number}_{index}"/>'
            f'<origin xyz="{ring * math.sin(angle):.6f} 0 {-ring * math.cos(angle):.6f}" '
            f'rpy="0 {angle:.6f} 0"/><axis xyz="1 0 0"/></joint>')
    return ''.join(parts)


def robot(*wheels):
    return f'<robot name="omni"><link name="base_link"/>{"".join(wheels)}</robot>'


def overlaps(text):
    analysis = analyze(parse_urdf_string(text), NO_MESHES)
    return analysis, [finding for finding in analysis.findings if finding.rule == RULE]


def listed_pairs(finding):
    return {frozenset(text.split(', ')) for text in dict(finding.values)['pairs'].split('; ')}


def ring_pairs(number, rollers=6):
    """Return the pairs of one wheel: each roller with the next one, and with the axle."""
    return {frozenset((f'roller_{number}_{index}', f'roller_{number}_{(index + 1) % rollers}'))
            for index in range(rollers)} | \
        {frozenset((f'axle_{number}', f'roller_{number}_{index}')) for index in range(rollers)}


def test_the_rollers_of_one_wheel_and_its_axle_are_one_finding_naming_every_pair():
    # Before: the axle over its six rollers, then six pairs of neighbours: 7 findings.
    analysis, found = overlaps(robot(omniwheel(0, 0)))
    (finding,) = found
    values = dict(finding.values)
    assert listed_pairs(finding) == ring_pairs(0)
    assert values['count'] == '12' and values['hung_from'] == 'wheel_0'
    assert 'copy_links' not in values
    assert finding.message.startswith(
        '6 links alike but for their numbers (roller_0_0, roller_0_1, roller_0_2, roller_0_3, '
        "roller_0_4, roller_0_5) hang from 'wheel_0' and overlap each other at rest in 6 "
        "pairs, and 'axle_0', to which 'wheel_0' is welded, in 6: one choice, a part repeated")
    assert 'disable its 12 pairs in the SRDF' in finding.suggestion
    # Every link of it sees it; the page draws every pair.
    for index in range(6):
        assert finding in analysis.findings_about(f'roller_0_{index}')
    assert finding in analysis.findings_about('axle_0')
    assert {frozenset(pair['links']) for pair in collision_pairs(analysis)} == ring_pairs(0)


def test_numbered_copies_of_a_wheel_and_of_its_motor_are_one_finding_each():
    # Kaya: three wheels alike, each motor over three rollers of its wheel. Before: per
    # wheel, the axle's and the motor's envelopes and the rollers' pairs left over.
    analysis, found = overlaps(robot(*(omniwheel(number, 0.5 * number, motor=True)
                                       for number in range(3))))
    assert len(found) == 2
    motor, rollers = sorted(found, key=lambda finding: finding.link)
    values = dict(rollers.values)
    # the lead roller's counterparts on the copies own it too
    lead = rollers.link
    assert lead.startswith('roller_0_')
    assert values['copy_links'] == ', '.join(lead.replace('_0_', f'_{number}_')
                                             for number in (1, 2))
    assert values['hung_from'] == 'wheel_0, wheel_1, wheel_2'
    assert listed_pairs(rollers) == ring_pairs(0) | ring_pairs(1) | ring_pairs(2)
    assert values['count'] == '36'
    assert "; the numbered copies on 'wheel_1', 'wheel_2' (another instance of the same " \
        'macro or part) overlap the same way (36 pairs in all)' in rollers.message
    assert 'disable its 36 pairs in the SRDF' in rollers.suggestion
    values = dict(motor.values)
    assert (motor.link, values['copy_links']) == ('motor_0', 'motor_1, motor_2')
    assert listed_pairs(motor) == {
        frozenset((f'motor_{number}', f'roller_{number}_{index}'))
        for number in range(3) for index in (5, 0, 1)}
    assert "and so does that of its numbered copies 'motor_1', 'motor_2' with theirs" in \
        motor.message
    for number in (1, 2):  # the copies' diagnostics keep it as their own
        assert motor in analysis.link_findings(f'motor_{number}')
        assert rollers in analysis.link_findings(lead.replace('_0_', f'_{number}_'))
    drawn = {frozenset(pair['links']) for pair in collision_pairs(analysis)}
    assert drawn == listed_pairs(motor) | listed_pairs(rollers)


def test_wheels_that_overlap_otherwise_are_no_copies():
    # The second wheel's rollers are smaller (shallower overlaps): its own finding.
    _, found = overlaps(robot(omniwheel(0, 0), omniwheel(1, 0.5, radius=0.019)))
    assert sorted(dict(finding.values)['hung_from'] for finding in found) == \
        ['wheel_0', 'wheel_1']
    assert all('copy_links' not in dict(finding.values) for finding in found)


def test_a_left_and_a_right_wheel_stay_two_findings_that_keep_every_pair():
    # A mirror merge keeps the mirror's links, not its list of pairs: left and right wheels
    # (no instance number) are a finding each, and every pair of both is drawn.
    text = re.sub(r'(motor|axle|wheel|roller)_([01])',
                  lambda match: ('left_', 'right_')[int(match.group(2))] + match.group(1),
                  robot(omniwheel(0, 0), omniwheel(1, 0.5)))
    analysis, found = overlaps(text)
    assert sorted(dict(finding.values)['hung_from'] for finding in found) == \
        ['left_wheel', 'right_wheel']
    assert len(collision_pairs(analysis)) == 24


def test_links_alike_on_a_chain_are_no_repeated_part():
    # link1 to link4 each hang from the one before (an arm): each overlapping the next but
    # one is no part repeated on one body; the pairs stay pairs.
    chain = ['<link name="base_link"/>']
    parent = 'base_link'
    for index in range(1, 6):
        chain.append(
            f'<link name="link{index}">{MASS}<collision><geometry><sphere radius="0.06"/>'
            '</geometry></collision></link>'
            f'<joint name="j{index}" type="revolute"><parent link="{parent}"/>'
            f'<child link="link{index}"/><origin xyz="0 0 0.05"/><axis xyz="0 1 0"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')
        parent = f'link{index}'
    _, found = overlaps(f'<robot name="arm">{"".join(chain)}</robot>')
    assert found and all('hung_from' not in dict(finding.values) for finding in found)


@pytest.mark.parametrize('pairs, expected', [
    # the instance number at one place in names alike, kept where names lack it
    ([('axle_0', 'roller_0_1_2'), ('roller_0_0_0', 'roller_0_1_0')],
     {'0': [('axle_\0', 'roller_\0_1_2'), ('roller_\0_0_0', 'roller_\0_1_0')]}),
    ([('base', 'arm_2_link3')], {'2': [('base', 'arm_\0_link3')],
                                 '3': [('base', 'arm_2_link\0')]}),
    # 1 is at no one place in roller_0_1_0 and roller_0_0_1: no instance number
    ([('roller_0_1_0', 'roller_0_0_1')], {'0': [('roller_\0_1_0', 'roller_\0_0_1')]}),
    ([('base', 'tool')], {}),
    ([], {}),
])
def test_numbered_forms(pairs, expected):
    from urdf_link_tools.checks.mirrors import numbered_forms

    assert numbered_forms(pairs) == expected
