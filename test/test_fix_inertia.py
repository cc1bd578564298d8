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

"""--fix-inertia: only the six values of flagged tensors change; every other byte stays."""

import difflib
import json
import os

import corpus
import numpy as np
import pytest
from test_checks_mujoco_crosscheck import refused_links
from urdf_link_tools.analysis import analyze
from urdf_link_tools.checks.inertia import _clearly_invalid
from urdf_link_tools.cli import main
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.errors import UrdfInputError
from urdf_link_tools.fix import apply_fixes, fix_inertia
from urdf_link_tools.inertia import TensorProperties, violates_triangle
from urdf_link_tools.meshes import MeshLibrary
from urdf_link_tools.model import Inertia
from urdf_link_tools.parser import parse_urdf_string

# A test dependency: without it this module is skipped, and `make test` fails the run
# (test/conftest.py); in a plain workspace `colcon test-result` lists the skip.
mujoco = pytest.importorskip('mujoco')

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, 'samples', 'sample_robot.urdf')


def changed_lines(before: bytes, after: bytes):
    diff = difflib.ndiff(before.decode().splitlines(), after.decode().splitlines())
    return [line for line in diff if line[:2] in ('- ', '+ ')]


def test_sample_fix_changes_only_inertia_values(tmp_path):
    out = tmp_path / 'fixed.urdf'
    status = main(['check', SAMPLE, '--package-dir', f'urdf_link_tools={ROOT}',
                   '--fix-inertia', str(out)])
    assert status == 2
    before = open(SAMPLE, 'rb').read()
    after = out.read_bytes()
    changes = changed_lines(before, after)
    assert len(changes) == 4      # two <inertia> lines, each removed and added
    removed = [line[2:] for line in changes if line.startswith('- ')]
    added = [line[2:] for line in changes if line.startswith('+ ')]
    for old, new in zip(removed, added):
        # same text once the numbers are blanked: spacing, quotes, order unchanged
        import re
        assert re.sub(r'"[^"]*"', '""', old) == re.sub(r'"[^"]*"', '""', new)
    assert '<inertia ixx="0.270833333"  ixy="0"  ixz="0" iyy="0.270833333" iyz="0" ' \
           'izz="0.5" />' in after.decode()
    # the fixed file no longer has inertia errors or mismatches
    robot = parse_urdf_string(after, str(out))
    rules = {f.rule for f in analyze(robot, CheckConfig(
        package_dirs=(('urdf_link_tools', ROOT),))).findings}
    assert not rules & {'inertia-triangle-inequality', 'inertia-geometry-mismatch'}


ONE_LINE = (b"</link><joint name='k' type='continuous'><parent link='a'/><child link='b'/>"
            b"</joint><link name='b'><inertial><mass value='1'/><inertia ixx='0.01' ixy='0' "
            b"ixz='0' iyy='0.01' iyz='0' izz='0.05'/></inertial></link><link name='c'/>"
            b"<joint name='m' type='fixed'><parent link='a'/><child link='c'/></joint>\n")
TRICKY = b"""<?xml version='1.0' encoding='utf-8'?>
<!-- <inertia ixx="9" ixy="9" ixz="9" iyy="9" iyz="9" izz="9"/> in a comment -->
<robot name='t'><link name='base'/>
<joint name='j' type='continuous'><parent link='base'/><child link='a'/></joint>
<link name='a'><inertial><mass value='1'/><inertia
   izz = '0.05'  ixx='0.01' ixy='0' ixz='0' iyy='0.01' iyz='0'/></inertial>
  <![CDATA[ <inertia ixx="1"/> ]]>
""" + ONE_LINE + b"""</robot>
"""


def test_fix_handles_comments_cdata_quotes_and_attribute_order():
    robot = parse_urdf_string(TRICKY)
    analysis = analyze(robot, CheckConfig(check_meshes=False))
    fixed, fixes = fix_inertia(TRICKY, analysis)
    assert {fix.link for fix in fixes} == {'a', 'b'}
    text = fixed.decode()
    assert "izz = '0.0399986667'  ixx='0.0200013333'" in text
    assert '<!-- <inertia ixx="9" ixy="9"' in text and '<inertia ixx="1"/>' in text
    assert len(fixed.splitlines()) == len(TRICKY.splitlines())
    again = analyze(parse_urdf_string(fixed), CheckConfig(check_meshes=False))
    assert 'inertia-triangle-inequality' not in {f.rule for f in again.findings}


def test_nothing_to_fix_returns_the_same_bytes():
    text = (b'<robot name="r"><link name="a"><inertial><mass value="1"/><inertia ixx="1" '
            b'ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>')
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    assert fix_inertia(text, analysis) == (text, ())


def test_unlocatable_inertia_is_an_input_error():
    text = b'<robot name="r"><link name="a"/></robot>'
    with pytest.raises(UrdfInputError):
        apply_fixes(text, [('a', 1, (1, 0, 0, 1, 0, 1))])


# --- Round trip: fix, check again, compile in MuJoCo -------------------------------------

INERTIA_ERRORS = {'inertia-not-positive-definite', 'inertia-triangle-inequality',
                  'inertia-moment-tiny', 'inertia-not-finite'}
#: After a fix, none of these may remain on a fixed link.
NOT_AFTER_FIX = INERTIA_ERRORS | {'inertia-geometry-mismatch', 'inertia-unrepresentable-box',
                                  'inertia-exceeds-extent'}


def _part(tensor: str, collision: bool, mass: str = '1') -> str:
    shape = ('<collision><geometry><box size="0.1 0.2 0.3"/></geometry></collision>'
             if collision else '')
    return (f'<robot name="t"><link name="base"/><joint name="j" type="revolute">'
            '<parent link="base"/><child link="part"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            f'<link name="part"><inertial><origin xyz="0 0 0"/><mass value="{mass}"/>'
            f'<inertia {tensor}/></inertial>{shape}</link></robot>')


def _tensor(ixx, iyy, izz, ixy=0, ixz=0, iyz=0) -> str:
    return (f'ixx="{ixx}" ixy="{ixy}" ixz="{ixz}" iyy="{iyy}" iyz="{iyz}" izz="{izz}"')


# Broken-tensor classes; the geometry's moments are (0.0108, 0.0083, 0.0042) for 1 kg.
BROKEN = {
    'not positive definite': _tensor(-0.01, 0.01, 0.01),
    'triangle inequality': _tensor(0.001, 0.001, 0.01),
    'tiny 1e-20': _tensor(1e-20, 1e-20, 1e-20),
    'one moment 1e-20': _tensor(1e-20, 0.01, 0.01),
    'point mass': _tensor(0, 0, 0),
    'products with the CAD sign': _tensor(1, 1, 1, 0.4, 0.4, 0.4),
    'missing e-3 in one moment': _tensor(0.0108, 8.3, 0.0042),
    'a COM coordinate pasted into iyy': _tensor(0.0108, 0.25, 0.0042),
    'a hair outside the triangle boundary': _tensor(0.005, 0.005, 0.0100000001),
    'placeholder 1 1 1': _tensor(1, 1, 1),
}


def _fix_and_recheck(data: bytes, config: CheckConfig, library=None):
    robot = parse_urdf_string(data)
    analysis = analyze(robot, config, library)
    fixed, fixes = fix_inertia(data, analysis)
    again = analyze(parse_urdf_string(fixed), config, library)
    return fixed, fixes, again


def _assert_fixed(fixed: bytes, fixes, again, where: str):
    fixed_links = {fix.link for fix in fixes}
    left = [(f.link, f.rule, f.message) for f in again.findings
            if f.link in fixed_links and f.rule in NOT_AFTER_FIX]
    assert not left, (where, left)
    refused = set(refused_links(fixed)) & fixed_links
    assert not refused, (where, refused)


@pytest.mark.parametrize('collision', [True, False], ids=['with-geometry', 'no-geometry'])
@pytest.mark.parametrize('name', sorted(BROKEN))
def test_fix_of_every_broken_tensor_class_passes_the_checker_and_mujoco(name, collision):
    data = _part(BROKEN[name], collision).encode()
    fixed, fixes, again = _fix_and_recheck(data, CheckConfig(check_meshes=False))
    if name != 'placeholder 1 1 1' or collision:
        assert fixes, name   # the placeholder is only wrong against a geometry
    _assert_fixed(fixed, fixes, again, name)
    if fixes and collision and name != 'products with the CAD sign':
        # Far from the geometry, the geometry's tensor is used and the text says so.
        suggestion = [f.suggestion for f in analyze(parse_urdf_string(data), CheckConfig(
            check_meshes=False)).findings if f.link == 'part' and f.suggested_inertia]
        # (a tensor a hair outside the triangle is rounding: its largest moment lowered)
        assert any('collision geometry' in text or 'nearest' in text or 'small positive'
                   in text or 'valid region' in text or 'by rounding alone' in text
                   for text in suggestion), suggestion


def test_tiny_tensor_fix_does_not_stay_tiny():
    data = _part(BROKEN['tiny 1e-20'], False).encode()
    fixed, fixes, _ = _fix_and_recheck(data, CheckConfig(check_meshes=False))
    assert fixes and min(fixes[0].new[0], fixes[0].new[3], fixes[0].new[5]) > 1e-6
    assert 'solid sphere' in [f for f in analyze(parse_urdf_string(data), CheckConfig(
        check_meshes=False)).findings if f.suggested_inertia][0].suggestion


def test_without_collision_the_visual_geometry_gives_the_tensor():
    # A link drawn but not collided (a hand, a camera): its visual shape at uniform density
    # is a better start than a sphere (a new user's Doosan link6), when its density is a
    # part's; a 1 cm marker on a 1 kg link is not, and the sphere stays.
    tiny = BROKEN['tiny 1e-20']
    drawn = _part(tiny, False).replace(
        '</inertial>', '</inertial><visual><geometry><box size="0.1 0.2 0.3"/></geometry>'
        '</visual>')
    (text,) = [f.suggestion for f in analyze(parse_urdf_string(drawn), CheckConfig(
        check_meshes=False)).findings if f.suggested_inertia]
    assert 'the tensor of the visual geometry at uniform density (166.7 kg/m^3)' in text, text
    # a 1 kg box of 0.1 x 0.2 x 0.3 m: (0.2^2 + 0.3^2) / 12 about x
    assert 'ixx="0.0108333333"' in text and 'izz="0.00416666667"' in text, text
    marker = drawn.replace('0.1 0.2 0.3', '0.01 0.01 0.01')
    texts = [f.suggestion for f in analyze(parse_urdf_string(marker), CheckConfig(
        check_meshes=False)).findings if f.link == 'part' and f.rule.startswith('inertia')]
    assert texts and all('visual geometry' not in text for text in texts), texts
    assert any('solid sphere' in text for text in texts), texts


def test_fix_round_trip_over_example_robot_data():
    library = MeshLibrary(ament_prefix_path=corpus.ament_prefixes())
    previous = mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(lambda message: None)
    total = 0
    try:
        for path in corpus.urdf_paths():
            data = path.read_bytes()
            robot = parse_urdf_string(data, str(path))
            analysis = analyze(robot, CheckConfig(), library)
            fixed, fixes = fix_inertia(data, analysis)
            if not fixes:
                continue
            total += len(fixes)
            again = analyze(parse_urdf_string(fixed, str(path)), CheckConfig(), library)
            _assert_fixed(fixed, fixes, again, corpus.relative_name(path))
    finally:
        mujoco.set_mju_user_warning(previous)
    assert total > 50   # the corpus has tensors to fix: the test does something


def _copies(moment: str, count: int = 4) -> bytes:
    """Return a chain of 1 kg links, 0.1 m boxes, all declaring one moment on each axis."""
    links, joints = [], []
    for i in range(count):
        links.append(
            f'<link name="l{i}"><inertial><mass value="1"/><inertia ixx="{moment}" ixy="0" '
            f'ixz="0" iyy="{moment}" iyz="0" izz="{moment}"/></inertial><collision>'
            '<geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>')
        if i:
            joints.append(
                f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/>'
                f'<child link="l{i}"/><origin xyz="0 0 0.5"/><axis xyz="0 1 0"/>'
                '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')
    return ('<robot name="copies"><link name="base"/><joint name="b" type="fixed">'
            '<parent link="base"/><child link="l0"/></joint>\n'
            + '\n'.join(links + joints) + '\n</robot>\n').encode()


@pytest.mark.parametrize('moment, rule', [
    ('0.01', 'inertia-exceeds-extent'),  # no 1 kg body of that size has it (at most 0.005)
    ('0.0001', 'inertia-geometry-mismatch'),  # possible, but 0.06x the box's 0.00167
])
def test_a_tensor_copied_onto_links_is_one_finding_and_fixed_on_each(tmp_path, moment, rule):
    # One finding lists the links (one choice), and --fix-inertia still writes each link's
    # tensor: it wrote none before (the grouped finding had no link and no tensor).
    data = _copies(moment)
    analysis = analyze(parse_urdf_string(data), CheckConfig())
    grouped = [f for f in analysis.findings if f.rule == rule]
    assert len(grouped) == 1 and grouped[0].links == ('l0', 'l1', 'l2', 'l3')
    assert [name for name, _ in grouped[0].links_suggested_inertia] == ['l0', 'l1', 'l2', 'l3']
    assert 'links_suggested_inertia' in grouped[0].to_dict()
    source = tmp_path / 'copies.urdf'
    source.write_bytes(data)
    out = tmp_path / 'fixed.urdf'
    main(['check', str(source), '--fix-inertia', str(out), '--fail-on', 'never'])
    fixed = out.read_bytes()
    assert fixed.count(f'ixx="{moment}"'.encode()) == 0
    assert len(changed_lines(data, fixed)) == 8  # four lines, each removed and added
    after = analyze(parse_urdf_string(fixed), CheckConfig())
    assert not [f for f in after.findings if f.rule.startswith('inertia-')]


def test_a_suggested_tensor_and_centroid_carry_no_rounding_noise():
    # iCub's hip (a symmetric mesh): its integrated tensor had products of 3e-11 beside
    # moments of 3.6e-4, and its centroid sat 10 nm off the axis, which the fix printed as
    # ixy="3.47103363e-11" and xyz="1.06979e-08 ...": noise a user would copy.
    path = corpus.urdf_path('icub.urdf')
    share = corpus.prefix() / 'share' / 'example-robot-data'
    analysis = analyze(parse_urdf_string(path.read_bytes(), str(path)), CheckConfig(),
                       MeshLibrary(package_dirs={'example-robot-data': str(share)},
                                   use_ament_index=False))
    # Its tensor (ixx=iyy=-5.42101e-20) is zero but for round-off: one of the links of one
    # zero-tensor finding, each with its own fix.
    (finding,) = [f for f in analysis.findings
                  if 'r_hip_2' in f.links and f.rule == 'inertia-moment-tiny']
    _no_noise(dict(finding.links_suggested_inertia)['r_hip_2'])
    # Negative moments beyond round-off: its own finding, whose fix names the centroid.
    text = path.read_bytes().replace(
        b'<inertia ixx="-5.42101e-20" ixy="0" ixz="0" iyy="-5.42101e-20" iyz="0" izz="0" />',
        b'<inertia ixx="-1e-4" ixy="0" ixz="0" iyy="-1e-4" iyz="0" izz="0" />', 1)
    library = MeshLibrary(package_dirs={'example-robot-data': str(share)},
                          use_ament_index=False)
    (finding,) = [f for f in analyze(parse_urdf_string(text, str(path)), CheckConfig(),
                                     library).findings
                  if f.link == 'r_hip_2' and f.rule == 'inertia-not-positive-definite']
    _no_noise(finding.suggested_inertia)
    assert 'centroid, xyz="0 0 0", 0.0304 m from the declared centre of mass' in \
        finding.suggestion


def _no_noise(tensor):
    ixx, ixy, ixz, iyy, iyz, izz = tensor
    largest = max(ixx, iyy, izz)
    assert ixy == 0.0 and iyz == 0.0
    assert all(value == 0.0 or abs(value) > 1e-6 * largest for value in (ixy, ixz, iyz))


def test_the_candidate_set_aside_is_said_after_the_numbers():
    # Fetch's finger (ixx 0.002, iyy and izz 0): "the tensor of the collision geometry at
    # uniform density, instead of the declared largest moment kept and ... (same principal
    # axes) (it is 171x off the collision geometry (limit 10x)): ixx=..." nested its reasons.
    analysis = analyze(parse_urdf_string(_part(_tensor(0.2, 0, 0), True)),
                       CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings if f.link == 'part' and f.suggested_inertia]
    suggestion = finding.suggestion
    assert suggestion.startswith('the tensor of the collision geometry at uniform density: '
                                 'ixx="'), suggestion
    rest = suggestion[suggestion.index('izz="'):]
    assert '; not ' in rest and ', as ' in rest and 'off the collision geometry' in rest, \
        suggestion


def test_a_slipped_decimal_is_named_and_fixed_where_it_slipped():
    # HSR's arm_flex_link: ixx="7.528" beside 0.007102 and 0.001552; one entry off by 1000
    # is the fault, and the fix is that entry, not a tensor from the geometry.
    data = _part(BROKEN['missing e-3 in one moment'], True).encode()
    (finding,) = [f for f in analyze(parse_urdf_string(data), CheckConfig(
        check_meshes=False)).findings if f.link == 'part' and f.suggested_inertia]
    assert finding.suggestion.startswith('iyy="8.3" is 1000x too large for the others: a '
                                         'slipped decimal? With iyy="0.0083" the tensor is '
                                         'valid (--fix-inertia writes that)')
    fixed, fixes, again = _fix_and_recheck(data, CheckConfig(check_meshes=False))
    assert fixes[0].new == (0.0108, 0.0, 0.0, 0.0083, 0.0, 0.0042)
    _assert_fixed(fixed, fixes, again, 'slipped decimal')


def test_a_decimal_that_mends_the_triangle_but_not_the_bound_is_no_slip():
    # Darwin's MP_NECK (sweep L): 0.0244 kg with moments of 0.001 to 0.008 kg m^2 in a 3 cm
    # part. "izz is 10x too small: a slipped decimal?" was written, and the re-check failed
    # on the bound (0.011 kg m^2 where 1.1e-05 is the most). The geometry's tensor is written.
    text = ('<robot name="neck"><link name="base"><inertial><mass value="1"/><inertia '
            'ixx="0.0017" ixy="0" ixz="0" iyy="0.0017" iyz="0" izz="0.0017"/></inertial>'
            '<collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>'
            '<link name="neck"><inertial><mass value="0.025"/><inertia ixx="0.005" ixy="0" '
            'ixz="0" iyy="0.008" iyz="0" izz="0.0011"/></inertial><collision><geometry>'
            '<box size="0.03 0.03 0.03"/></geometry></collision></link>'
            '<joint name="j" type="revolute"><parent link="base"/><child link="neck"/>'
            '<origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    config = CheckConfig(check_meshes=False)
    (finding,) = [f for f in analyze(parse_urdf_string(text), config).findings
                  if f.link == 'neck' and f.suggested_inertia]
    assert 'slipped decimal' not in finding.suggestion, finding.suggestion
    fixed, fixes, again = _fix_and_recheck(text.encode(), config)
    assert fixes[0].new == pytest.approx((3.75e-06, 0, 0, 3.75e-06, 0, 3.75e-06))
    _assert_fixed(fixed, fixes, again, 'no slip')


def test_the_slipped_decimal_search_drops_no_tensor_the_exact_test_takes():
    # _decimal_note tries 72 candidates; those that break a necessary condition by a margin
    # (_clearly_invalid) are dropped before the exact test. None it drops may pass it: random
    # bodies (plates on the triangle's edge too) and random numbers, from 1e-12 to 1e3 kg m^2,
    # each entry moved by powers of ten as the search moves it.
    rng = np.random.default_rng(7)
    dropped = 0
    for _ in range(4000):
        scale = 10.0 ** rng.uniform(-12, 3)
        kind = rng.random()
        if kind < 0.6:
            a, b = np.sort(rng.random(2)) * scale
            c = a + b if rng.random() < 0.5 else rng.uniform(b, a + b)
            # a plate (A + B = C) along the axes, or any body turned
            axes = np.eye(3)[rng.permutation(3)] if kind < 0.2 else \
                np.linalg.qr(rng.standard_normal((3, 3)))[0]
            matrix = axes @ np.diag([a, b, c]) @ axes.T
            values = [matrix[0, 0], matrix[0, 1], matrix[0, 2], matrix[1, 1], matrix[1, 2],
                      matrix[2, 2]]
        else:
            values = list(rng.uniform(-1, 1, 6) * scale * (1, 0.1, 0.1, 1, 0.1, 1))
        index = int(rng.integers(6))
        for power in (0, 1, 2, 3, -1, -2, -3):
            changed = [float(value) for value in values]
            changed[index] /= 10.0 ** power
            if not _clearly_invalid(changed):
                continue
            dropped += 1
            tensor = TensorProperties(Inertia(*changed))
            assert not (tensor.is_positive_definite() and
                        not violates_triangle(tensor.moments)), changed
    assert dropped > 10000  # most candidates are dropped: the search is cheap


def test_a_plate_rounded_over_the_triangle_keeps_its_moments():
    # HSR's bumper rings: 0.001437 + 0.001437 < 0.002875 by 0.03 %: izz lowered to the sum,
    # not the geometry's tensor and a moved centre of mass.
    data = _part(_tensor(0.001437, 0.001437, 0.002875), True, mass='0.06').encode()
    (finding,) = [f for f in analyze(parse_urdf_string(data), CheckConfig(
        check_meshes=False)).findings if f.rule == 'inertia-triangle-inequality']
    assert finding.suggestion == ('the moments miss A + B >= C by rounding alone (a thin '
                                  'plate or ring, where C = A + B): write izz="0.002874"')
    assert finding.suggested_inertia == (0.001437, 0.0, 0.0, 0.001437, 0.0, 0.002874)


def test_a_tensor_with_products_rounded_over_the_triangle_gets_the_nearest_tensor():
    # moveo's gripper halves (SolidWorks, 5 digits): A + B short of C by 1e-13 kg m^2, 1.2 ppm
    # of C. The fix said "ixx is 10x too small: a slipped decimal?" and --fix-inertia made
    # the smallest moment 10x larger; the written values it keeps keep their bytes.
    tensor = ('ixx="2.3199E-09" ixy="-3.1597E-09" ixz="-4.5779E-16" iyy="7.8256E-08" '
              'iyz="-2.26E-16" izz="8.0576E-08"')
    data = _part(tensor, False, mass='0.0018597').encode()
    (finding,) = [f for f in analyze(parse_urdf_string(data), CheckConfig(
        check_meshes=False)).findings if f.rule == 'inertia-triangle-inequality']
    assert finding.suggestion.startswith(
        'the moments miss A + B >= C by the rounding of the written digits alone'), \
        finding.suggestion
    assert 'slipped decimal' not in finding.suggestion
    fixed, fixes, again = _fix_and_recheck(data, CheckConfig(check_meshes=False))
    old, new = fixes[0].old, fixes[0].new
    assert all(abs(a - b) <= 2e-3 * old[5] for a, b in zip(old, new)), (old, new)
    assert abs(new[0] - old[0]) <= 2e-3 * old[0], (old, new)  # not 10x
    assert b'ixy="-3.1597E-09"' in fixed  # the same number: its text kept
    _assert_fixed(fixed, fixes, again, 'rounded with products')


POLE = """<robot name="pole"><link name="base_link"/><link name="gripper_pole">
  <collision><origin rpy="0 1.5707963267948966 0" xyz="0.1 0 0"/><geometry><cylinder
    length="0.2" radius=".01"/></geometry></collision>
  <inertial><mass value="0.05"/><inertia ixx="1.0" ixy="0.0" ixz="0.0" iyy="1.0" iyz="0.0"
    izz="1.0"/></inertial></link>
  <joint name="j" type="prismatic"><axis xyz="1 0 0"/><parent link="base_link"/>
    <child link="gripper_pole"/><limit effort="1" lower="-0.38" upper="0" velocity="0.5"/>
  </joint></robot>"""


def test_the_links_fix_inertia_leaves_as_they_are_are_named(tmp_path, capsys):
    # r2d2's gripper pole (its centre of mass on its end face: no tensor derived): the
    # output said how many tensors were replaced, not which erroneous link was left.
    source = tmp_path / 'pole.urdf'
    source.write_text(POLE)
    main(['check', str(source), '--fix-inertia', str(tmp_path / 'fixed.urdf'),
          '--fail-on', 'never'])
    out = capsys.readouterr().out
    assert 'fix-inertia: wrote' in out and ' with 0 inertia tensors replaced\n' \
        '  left as they are (no tensor derived: see their findings): gripper_pole\n' in out


def test_a_macro_tag_that_makes_several_tensors_is_one_to_do_and_the_rest_are_named(
        tmp_path, capsys):
    # urdf_tutorial's 08-macroed.urdf.xacro: default_inertial gives 16 links ixx=iyy=izz=1;
    # --fix-inertia printed the same "to do" six times (once per attribute) naming no link,
    # and not the gripper pole, which gets no tensor at all.
    def link(name, size, mass):
        return (f'<link name="{name}"><collision><geometry><box size="{size} {size} {size}"/>'
                f'</geometry></collision><xacro:default_inertial mass="{mass}"/></link>')
    pole = POLE.split('<link name="gripper_pole">')[1].split('</link>')[0].replace(
        '<inertial><mass value="0.05"/><inertia ixx="1.0" ixy="0.0" ixz="0.0" iyy="1.0" '
        'iyz="0.0"\n    izz="1.0"/></inertial>', '<xacro:default_inertial mass="0.05"/>')
    assert 'default_inertial' in pole
    names = ('a', 'b', 'c')
    source = tmp_path / 'robot.urdf.xacro'
    source.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '<xacro:macro name="default_inertial" params="mass"><inertial><mass value="${mass}"/>'
        '\n<inertia ixx="1.0" ixy="0.0" ixz="0.0" iyy="1.0" iyz="0.0" izz="1.0"/></inertial>'
        '</xacro:macro>\n<link name="base_link"/>\n'
        + ''.join(link(name, size, mass) for name, size, mass
                  in zip(names, (0.1, 0.3, 0.6), (1, 10, 10)))
        + f'<link name="gripper_pole">{pole}</link>'
        + ''.join(f'<joint name="j{name}" type="fixed"><parent link="base_link"/>'
                  f'<child link="{name}"/></joint>' for name in names)
        + '<joint name="j" type="prismatic"><axis xyz="1 0 0"/><parent link="base_link"/>'
          '<child link="gripper_pole"/><limit effort="1" lower="-0.38" upper="0" '
          'velocity="0.5"/></joint></robot>\n')
    before = source.read_bytes()
    main(['check', str(source), '--fix-inertia', '--fail-on', 'never'])
    out = capsys.readouterr().out
    todo = [line for line in out.splitlines() if ': to do: ' in line]
    # every link the tag makes, not only those that want a change (it said "1 links")
    assert todo == [f'{source}:3: to do: this tag makes the tensors of 4 links (a macro used '
                    'more than once: a, b, c, gripper_pole) that do not all need the same ixx, '
                    'iyy, izz: not changed; make them macro parameters'], out
    assert '  left as they are (no tensor derived: see their findings): gripper_pole\n' in out
    assert source.read_bytes() == before
    # The finding's fix says so for this xacro: "--fix-inertia writes one on 3 of them" was
    # true of the expanded URDF only (sweep J: Kawasaki duaro, 0 values changed).
    assert 'in this xacro, 3 of these tensors are one <inertia> tag (' in out and \
        '--fix-inertia does not change, as they need different numbers: make ixx to izz ' \
        'macro parameters' in out, out


def test_fix_inertia_before_a_xacro_robot_takes_it_as_the_robot(tmp_path, capsys):
    # 'check --fix-inertia robot.urdf.xacro': the robot was taken for the optional OUT.urdf,
    # and the usage error said "the following arguments are required: ROBOT, NAME:=VALUE".
    source = tmp_path / 'robot.urdf.xacro'
    source.write_text(POLE.replace('<robot name="pole">', '<robot name="pole" xmlns:xacro='
                                   '"http://www.ros.org/wiki/xacro">'))
    assert main(['check', '--fix-inertia', str(source), '--fail-on', 'never']) == 0
    out = capsys.readouterr().out
    assert 'fix-inertia: 0 values changed in 0 xacro files' in out, out
    assert '  left as they are (no tensor derived: see their findings): gripper_pole' in out


def test_a_placeholder_is_not_replaced_by_a_made_up_sphere(tmp_path, capsys):
    # AgileX tracer_mini (sweep J): one 17.4 kg tensor on four wheels whose collision is a
    # 1 cm cylinder. The fix said "the collision geometry at the declared mass gives" a
    # 1000 kg/m^3 sphere, --fix-inertia wrote it on the four, and the re-check found the
    # same placeholder with the same fix: a fix-and-recheck job never came clean.
    tensor = ('<inertia ixx="0.24331" ixy="0.010574" ixz="8.9424e-06" iyy="0.43808" '
              'iyz="-1.4143e-06" izz="0.2374"/>')
    wheels = ''.join(
        f'<link name="{name}"><inertial><origin xyz="0 0.17 0"/><mass value="17.416"/>'
        f'{tensor}</inertial><collision><geometry><cylinder radius="{radius}" '
        f'length="0.01"/></geometry></collision></link><joint name="j{name}" '
        f'type="continuous"><parent link="base"/><child link="{name}"/><origin xyz="{x} {y} '
        '0"/><axis xyz="0 1 0"/></joint>'
        for name, x, y, radius in (('fl', 0.2, 0.2, 0.01), ('fr', 0.2, -0.2, 0.05),
                                   ('rl', -0.2, 0.2, 0.01), ('rr', -0.2, -0.2, 0.075)))
    source = tmp_path / 'tracer.urdf'
    source.write_text('<robot name="t"><link name="base"><collision><geometry><box '
                      'size="0.6 0.4 0.2"/></geometry></collision></link>' + wheels + '</robot>')
    main(['check', str(source), '--format', 'json', '--fail-on', 'never'])
    (finding,) = [f for f in json.loads(capsys.readouterr().out)['findings']
                  if f['rule'] == 'inertial-placeholder']
    assert 'no tensor comes from their geometry (for fl: the collision geometry cannot be ' \
        'the part' in finding['suggestion'], finding['suggestion']
    assert 'sphere' not in finding['suggestion'] and 'gives, for' not in finding['suggestion']
    fixed = tmp_path / 'fixed.urdf'
    main(['check', str(source), '--fix-inertia', str(fixed), '--fail-on', 'never'])
    capsys.readouterr()
    assert tensor in fixed.read_text()  # nothing made up written over it


def test_one_pass_fixes_a_placeholder_on_frames_and_names_every_link_of_a_shared_tag(
        tmp_path, capsys):
    # PR2 (sweep K): a 0.01 placeholder on parts 0.05 to 0.3 m and on the wide and narrow
    # stereo links, made by one tag of a macro called twice, with no geometry of their own.
    # The first pass left those two ("no tensor of its geometry"), the re-check showed them
    # as new inertia-exceeds-extent errors, and a second pass wrote a sphere, reporting
    # "narrow_link replaced ... left as they are: wide_link" though the tag made both.
    inertia = '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>'
    (tmp_path / 'stereo.urdf.xacro').write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '<xacro:macro name="stereo" params="name y">\n'
        '<joint name="${name}_joint" type="fixed"><parent link="head"/>'
        '<child link="${name}_link"/><origin xyz="0.05 ${y} 0.1"/></joint>\n'
        f'<link name="${{name}}_link"><inertial><mass value="0.1"/>\n{inertia}\n'
        '</inertial></link>\n</xacro:macro>\n</robot>\n')

    def part(name, parent, size, mass, z):
        return (f'<joint name="{name}_joint" type="revolute"><parent link="{parent}"/>'
                f'<child link="{name}"/><origin xyz="0 0 {z}"/><axis xyz="1 0 0"/>'
                '<limit lower="-1" upper="1" effort="10" velocity="1"/></joint>\n'
                f'<link name="{name}"><inertial><mass value="{mass}"/>\n{inertia}\n'
                f'</inertial><collision><geometry><box size="{size} {size} {size}"/>'
                '</geometry></collision></link>\n')
    source = tmp_path / 'robot.urdf.xacro'
    source.write_text(
        '<robot name="head" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '<xacro:include filename="stereo.urdf.xacro"/>\n<link name="base_link"/>\n'
        + part('head', 'base_link', 0.3, 2.0, 0) + part('neck', 'head', 0.15, 1.0, -0.3)
        + part('arm', 'neck', 0.05, 0.1, -0.3)
        + '<xacro:stereo name="wide" y="0.03"/>\n<xacro:stereo name="narrow" y="-0.03"/>\n'
        '</robot>\n')
    main(['check', str(source), '--fix-inertia', '--fail-on', 'never'])
    out = capsys.readouterr().out
    assert f"{tmp_path / 'stereo.urdf.xacro'}:5: changed: inertia of links 'wide_link', " \
        "'narrow_link' replaced (one tag makes their tensors)" in out, out
    assert 'left as they are' not in out, out
    assert main(['check', str(source), '--format', 'json', '--fail-on', 'error']) == 0, \
        capsys.readouterr().out


def test_a_collision_that_is_one_part_of_the_body_does_not_refuse_the_nearest_tensor():
    # rotors_simulator's firefly (sweep K): the body's tensor misses A + B >= C by 17.5 %;
    # the nearest valid tensor was refused as "20.7x off the collision geometry", the 10 cm
    # hub box of a 0.63 m hexacopter, whose tensor --fix-inertia wrote: izz 39x smaller.
    data = b"""<robot name="firefly"><link name="base_link"/>
  <joint name="j" type="fixed"><parent link="base_link"/><child link="body"/></joint>
  <link name="body"><inertial><mass value="1.5"/><inertia ixx="0.0347563" ixy="0.0" ixz="0.0"
    iyy="0.0458929" iyz="0.0" izz="0.0977"/></inertial>
    <visual><geometry><box size="0.63 0.63 0.16"/></geometry></visual>
    <collision><geometry><box size="0.1 0.1 0.16"/></geometry></collision></link></robot>"""
    (finding,) = [f for f in analyze(parse_urdf_string(data), CheckConfig(
        check_meshes=False)).findings if f.rule == 'inertia-triangle-inequality']
    assert finding.suggestion.startswith('the nearest valid tensor'), finding.suggestion
    fixed, fixes, again = _fix_and_recheck(data, CheckConfig(check_meshes=False))
    assert 0.9 < fixes[0].new[5] / 0.0977 < 1.0, fixes[0].new
    _assert_fixed(fixed, fixes, again, 'hub box')


def test_a_grouped_tensor_finding_names_every_place_the_tensor_is_written(tmp_path, capsys):
    # Interbotix locobot (sweep K): the kobuki wheels' placeholder in one file and the
    # gripper's in another were one finding cited at the gripper's file alone (text, JSON,
    # SARIF): the wheels' file was named nowhere.
    inertia = '<inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/>'
    xacro = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
    (tmp_path / 'base.xacro').write_text(
        f'<robot {xacro}>\n<xacro:macro name="wheel" params="side y">\n'
        '<joint name="wheel_${side}_joint" type="continuous"><parent link="base_link"/>'
        '<child link="wheel_${side}_link"/><origin xyz="0 ${y} 0"/><axis xyz="0 1 0"/>'
        '</joint>\n<link name="wheel_${side}_link"><inertial><mass value="0.01"/>\n'
        f'{inertia}\n</inertial><collision><geometry><cylinder radius="0.035" length="0.02"/>'
        '</geometry></collision></link>\n</xacro:macro>\n</robot>\n')
    (tmp_path / 'arm.xacro').write_text(
        f'<robot {xacro}>\n<xacro:macro name="finger" params="name y">\n'
        '<joint name="${name}_joint" type="prismatic"><parent link="base_link"/>'
        '<child link="${name}_link"/><origin xyz="0.1 ${y} 0.2"/><axis xyz="0 1 0"/>'
        '<limit lower="0" upper="0.03" effort="5" velocity="0.1"/></joint>\n'
        '<link name="${name}_link"><inertial><mass value="0.001"/>\n'
        f'\n{inertia}\n</inertial><collision><geometry><box size="0.02 0.01 0.04"/>'
        '</geometry></collision></link>\n</xacro:macro>\n</robot>\n')
    source = tmp_path / 'robot.urdf.xacro'
    source.write_text(
        f'<robot name="my_bot" {xacro}>\n<xacro:include filename="base.xacro"/>\n'
        '<xacro:include filename="arm.xacro"/>\n<link name="base_link"><inertial><mass '
        'value="5"/><inertia ixx="0.05" ixy="0" ixz="0" iyy="0.05" iyz="0" izz="0.08"/>'
        '</inertial><collision><geometry><cylinder radius="0.17" length="0.1"/></geometry>'
        '</collision></link>\n<xacro:wheel side="left" y="0.12"/>\n'
        '<xacro:wheel side="right" y="-0.12"/>\n<xacro:finger name="finger_a" y="0.02"/>\n'
        '<xacro:finger name="finger_b" y="-0.02"/>\n</robot>\n')
    main(['check', str(source), '--format', 'json', '--fail-on', 'never'])
    found = [f for f in json.loads(capsys.readouterr().out)['findings']
             if f['rule'] == 'inertia-exceeds-extent' and not f['link']]
    assert len(found) == 1, found
    assert found[0]['message'].endswith(
        f"; written in 2 places: {tmp_path / 'base.xacro'}:5 (wheel_left_link, "
        f"wheel_right_link), {tmp_path / 'arm.xacro'}:6 (finger_a_link, finger_b_link)"), \
        found[0]['message']
    # As data too: JSON's places, and one SARIF related location per place (the thirty-first
    # round named them in the message only).
    assert found[0]['places'] == [
        {'file': str(tmp_path / 'base.xacro'), 'line': 5,
         'links': ['wheel_left_link', 'wheel_right_link']},
        {'file': str(tmp_path / 'arm.xacro'), 'line': 6,
         'links': ['finger_a_link', 'finger_b_link']}], found[0]
    main(['check', str(source), '--format', 'sarif', '--fail-on', 'never'])
    results = [r for r in json.loads(capsys.readouterr().out)['runs'][0]['results']
               if r['ruleId'] == 'inertia-exceeds-extent'
               and 'written in 2 places' in r['message']['text']]
    assert len(results) == 1, results
    related = [(item['physicalLocation']['artifactLocation']['uri'],
                item['physicalLocation']['region']['startLine'], item['message']['text'])
               for item in results[0]['relatedLocations']]
    assert [(uri.rsplit('/', 1)[-1], line, text) for uri, line, text in related
            if text.startswith('the tensor of')] == [
        ('base.xacro', 5, 'the tensor of wheel_left_link, wheel_right_link is written here'),
        ('arm.xacro', 6, 'the tensor of finger_a_link, finger_b_link is written here')], related
