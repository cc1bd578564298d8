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
Robots other tools load are read; independent defects are all reported in one run.

- An undeclared namespace prefix (``drake:acceleration`` without ``xmlns:drake``) is read
  as urdfdom, MuJoCo and Pinocchio read it, with a warning naming who refuses it.
- A file with several defects urdfdom refuses gives one ERROR finding per defect, each at
  its line, and the rest of the robot is checked (through the library and the CLI).
"""

import contextlib
import io
import json
import os
import xml.dom.minidom

import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.cli import EXIT_ERRORS, EXIT_INPUT
from urdf_link_tools.cli import main as cli_main
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.errors import UrdfSyntaxError
from urdf_link_tools.findings import Severity
from urdf_link_tools.parser import parse_urdf_string
from urdf_link_tools.targets import ALL as ALL_TARGETS

INERTIAL = ('<inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" '
            'iyz="0" izz="0.01"/></inertial>')

# As in some published UR and Robotiq descriptions: drake: attributes, no xmlns:drake.
UNDECLARED = f"""<?xml version="1.0"?>
<robot name="arm">
  <link name="base">{INERTIAL}</link>
  <link name="upper">{INERTIAL}</link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
    <limit lower="-3.14" upper="3.14" effort="150" velocity="3.15"
           drake:acceleration="8.0"/>
    <drake:rotor_inertia value="0.1"/>
  </joint>
  <link name="tool">{INERTIAL}</link>
  <joint name="wrist" type="revolute">
    <parent link="upper"/><child link="tool"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="28" velocity="3.2" drake:acceleration="8.0"
           gz:extra="1"/>
  </joint>
</robot>
"""

# Independent defects on lines 3-5, 7, 9, 12, 15 and 18; each is refused by urdfdom up to 5.x
# (ROS 2 Humble to Kilted); the joint's, by urdfdom 6 too.
MULTI = """<robot name="multi">
  <link name="base">
    <inertial>
      <mass value="2"/>
      <origin rpy="1.5707963, 0, 0"/>
    </inertial>
    <visual><origin rpy="0, 1.5707963, 0"/><geometry><box size="0.1 0.1 0.1"/></geometry>
    </visual>
    <collision><geometry><cylinder radius="0.1"/></geometry></collision>
  </link>
  <link name="arm">
    <inertial><mass value="one"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <visual><geometry><sphere radius="0.05"/></geometry></visual>
    <collision><geometry><capsule radius="0.1" length="0.2"/></geometry></collision>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="arm"/><limit lower="-1" upper="1" effort="5"/>
  </joint>
</robot>
"""
MULTI_EXPECTED = [
    ('parse-invalid-number', 5, 'base'),    # commas in the inertial origin
    ('parse-missing-value', 3, 'base'),     # <mass> (line 4) without <inertia>
    ('parse-invalid-number', 7, 'base'),    # commas in the visual origin
    ('parse-missing-value', 9, 'base'),     # cylinder without length
    ('parse-invalid-number', 12, 'arm'),    # mass "one"
    ('parse-invalid-geometry', 15, 'arm'),  # capsule
    ('parse-missing-value', 18, 'arm'),     # limit without velocity
]


def test_undeclared_prefix_is_read_with_one_warning_per_prefix():
    robot = parse_urdf_string(UNDECLARED)
    assert [j.name for j in robot.joints] == ['shoulder', 'wrist']
    assert robot.joints[0].limit.effort == 150.0
    notes = [(n.rule, n.severity, n.line) for n in robot.notes]
    # libxml2 dates an element by the line its start tag ends on, here as everywhere.
    assert notes == [('parse-undeclared-prefix', Severity.WARNING, 8),
                     ('parse-undeclared-prefix', Severity.WARNING, 15)]
    assert "prefix 'drake'" in robot.notes[0].message
    assert "prefix 'gz'" in robot.notes[1].message
    analysis = analyze(robot, CheckConfig(check_meshes=False))
    assert analysis.counts()['error'] == 0, [f.message for f in analysis.findings]


def test_claim_urdfdom_mujoco_pinocchio_read_undeclared_prefixes_minidom_does_not():
    pinocchio = pytest.importorskip('pinocchio')
    mujoco = pytest.importorskip('mujoco')
    assert pinocchio.buildModelFromXML(UNDECLARED).nq == 2
    assert mujoco.MjModel.from_xml_string(UNDECLARED).njnt == 2
    # joint_state_publisher and xacro parse with xml.dom.minidom.
    with pytest.raises(Exception, match='unbound prefix'):
        xml.dom.minidom.parseString(UNDECLARED)


@pytest.mark.parametrize('text, fragment', [
    # An undeclared prefix is tolerated only when it is the document's only error.
    ('<robot name="r"><link name="a" x:y="1"></robot>', 'tag mismatch'),
    ('<robot name="r" a="1" a="2"><link name="a" x:y="1"/></robot>', 'Attribute a redefined'),
    ('<!DOCTYPE robot [<!ENTITY e "x">]><robot name="r"><link name="&e;" x:y="1"/></robot>',
     'declares XML entities'),
    ('<!DOCTYPE robot SYSTEM "file:///etc/passwd"><robot name="r" x:y="1"/>',
     'external'),
])
def test_undeclared_prefix_does_not_open_other_doors(text, fragment):
    with pytest.raises(UrdfSyntaxError) as info:
        parse_urdf_string(text)
    assert fragment in str(info.value)


BODY = ('<link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" '
        'iyz="0" izz="1"/></inertial><collision><geometry><box size="1 1 1"/></geometry>'
        '</collision></link>')


@pytest.mark.parametrize('text, rule, line, said', [
    # pybullet's and Genesis's plane.urdf
    (f'<?xml version="0.0" ?>\n<robot name="r">\n{BODY}</robot>', 'parse-xml-declaration', 1,
     'names version "0.0"'),
    # ros2/urdf's one_link.urdf (a test file it parses): version misspelled
    (f'<?xml verison="1.0"?>\n<robot name="r">\n{BODY}</robot>', 'parse-xml-declaration', 1,
     'names no version'),
    # Bullet's wheel.urdf and diff_ring.urdf: a blank line first
    (f'\n<?xml version="1.0"?>\n<robot name="r">\n{BODY}</robot>', 'parse-xml-declaration',
     2, 'does not start the file'),
    # Bullet's Quadrotor: Drake's default namespace on <robot>
    (f'<robot name="r" xmlns="http://drake.mit.edu">\n{BODY}</robot>',
     'parse-default-namespace', 1, 'http://drake.mit.edu'),
    # pybullet's humanoid.urdf: a NUL after </robot> (a C string's terminator)
    (f'<robot name="r">\n{BODY}</robot>\n\0', 'parse-trailing-nul', 3, 'a NUL byte follows'),
    (f'\n<?xml version="1.0"?>\n<robot name="r">\n{BODY}</robot>\0\0\n\0',
     'parse-trailing-nul', 4, '3 NUL bytes follow'),
    # hand-edited comments: '--' inside, or Kawasaki's '--!>' (the comment runs on to the
    # next '-->' in TinyXML2), or '--->'
    (f'<robot name="r">\n<!-- a -- b -->\n{BODY}</robot>', 'parse-comment-double-hyphen',
     2, "a comment holds '--'"),
    (f'<robot name="r">\n<!-- off --!> <material name="b"/> -->\n{BODY}<!-- end --->\n</robot>',
     'parse-comment-double-hyphen', 2, "a comment holds '--'"),
])
def test_what_urdfdom_and_mujoco_read_is_read_with_a_warning(text, rule, line, said):
    # TinyXML2 (urdfdom, Bullet, MuJoCo) reads these; libxml2 and expat refuse them.
    robot = parse_urdf_string(text)
    assert [link.name for link in robot.links] == ['a'] and robot.links[0].mass == 1.0
    # lines keep their numbers
    assert robot.links[0].line == text.count('\n', 0, text.index('<link')) + 1
    (note,) = [n for n in robot.notes if n.rule == rule]
    assert (note.rule, note.severity, note.line) == (rule, Severity.WARNING, line)
    # (a late declaration before the NUL: said too)
    assert len(robot.notes) == 1 + (text.startswith('\n') and rule == 'parse-trailing-nul')
    assert said in note.message
    mujoco = pytest.importorskip('mujoco')
    assert mujoco.MjModel.from_xml_string(text).ngeom == 1
    # xacro (minidom, expat) refuses a late declaration, and says so; it reads version 0.0
    if 'does not start' in said:
        assert 'xacro' in note.message
        with pytest.raises(Exception, match='XML or text declaration not at start'):
            xml.dom.minidom.parseString(text)
    elif 'no version' in said:
        assert 'xacro' in note.message
        with pytest.raises(Exception, match='XML declaration not well-formed'):
            xml.dom.minidom.parseString(text)
    elif rule in ('parse-trailing-nul', 'parse-comment-double-hyphen'):
        assert 'xacro' in note.message
        with pytest.raises(Exception, match='invalid token'):
            xml.dom.minidom.parseString(text.lstrip('\n'))
    elif rule == 'parse-xml-declaration':
        assert 'xacro' not in note.message
        assert xml.dom.minidom.parseString(text).documentElement.tagName == 'robot'


def test_a_declaration_naming_another_encoding_is_not_blanked():
    with pytest.raises(UrdfSyntaxError, match='not well-formed XML'):
        parse_urdf_string(b'\n<?xml version="1.0" encoding="ISO-8859-1"?><robot name="r"/>')


def test_multi_defect_file_reports_every_defect_with_its_line():
    robot = parse_urdf_string(MULTI)
    found = [(n.rule, n.line, n.link) for n in robot.notes]
    assert found == MULTI_EXPECTED
    assert all(n.severity == Severity.ERROR and 'urdfdom refuses this robot' in n.message
               for n in robot.notes)
    # urdfdom 6 (Pinocchio's) drops a bad link child and loads the rest; the finding says so.
    assert all(('urdfdom 6' in n.message) == (n.link == 'base' or n.line in (12, 15))
               for n in robot.notes)
    # The rest is read: the visual with the commas keeps the rotation meant, the arm keeps
    # its sphere, the joint its limit.
    base, arm = robot.links
    assert base.visuals[0].origin.rpy == (0.0, 1.5707963, 0.0)
    assert base.collisions[0].geometry is None and arm.visuals[0].geometry.radius == 0.05
    assert base.inertial is None and arm.inertial is None
    assert robot.joints[0].limit.bounds == (-1.0, 1.0)


def test_claim_urdfdom_and_mujoco_refuse_the_multi_defect_file_and_each_defect():
    pinocchio = pytest.importorskip('pinocchio')
    mujoco = pytest.importorskip('mujoco')
    with open(os.devnull, 'w') as sink, contextlib.redirect_stderr(sink):
        with pytest.raises(Exception):
            pinocchio.buildModelFromXML(MULTI)
        for text in ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" '
                     'type="fixed"><origin rpy="1.5, 0, 0"/><parent link="a"/>'
                     '<child link="b"/></joint></robot>',
                     '<robot><link name="a"/></robot>',
                     '<robot name="r"><material name="m"><color rgba="1 0 0 1"/></material>'
                     '<material name="m"><color rgba="1 0 0 1"/></material><link name="a"/>'
                     '</robot>'):
            with pytest.raises(Exception):
                pinocchio.buildModelFromXML(text)
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_string(MULTI)
    with pytest.raises(ValueError, match='inertia'):
        mujoco.MjModel.from_xml_string(
            '<robot name="r"><link name="a"><inertial><mass value="1"/></inertial></link>'
            '</robot>')


def test_cli_reports_every_defect_in_one_run(tmp_path):
    path = tmp_path / 'multi.urdf'
    path.write_text(MULTI)
    out, err = io.StringIO(), io.StringIO()
    status = cli_main(['check', str(path), '--format', 'json'], out=out, err=err)
    assert status == EXIT_ERRORS, err.getvalue()
    report = json.loads(out.getvalue())
    lines = sorted(f['line'] for f in report['findings'] if f['rule'].startswith('parse-'))
    assert lines == sorted(line for _, line, _ in MULTI_EXPECTED)


def test_cli_still_stops_on_what_cannot_be_read_at_all(tmp_path):
    path = tmp_path / 'broken.urdf'
    path.write_text(MULTI.replace('</link>\n  <joint', '\n  <joint', 1))
    out, err = io.StringIO(), io.StringIO()
    assert cli_main(['check', str(path)], out=out, err=err) == EXIT_INPUT
    assert err.getvalue().count('\n') == 1 and 'line ' in err.getvalue()


def _nameless_materials(count: int) -> str:
    links = ''.join(f'<link name="l{i}"><visual><geometry><box size="1 1 1"/></geometry>'
                    '<material><color rgba="1 0 0 1"/></material></visual></link>'
                    for i in range(count))
    joints = ''.join(f'<joint name="j{i}" type="fixed"><parent link="l0"/>'
                     f'<child link="l{i}"/></joint>' for i in range(1, count))
    return f'<robot name="r">{links}{joints}</robot>'


def test_one_misspelled_element_in_many_joints_is_one_finding():
    # kuavo's exporter writes <dynamic> for <dynamics> in all 30 joints of its humanoids
    # (sweep K): 15 warnings (mirrors folded), the joint's name keeping them apart.
    joints = ''.join(f'<link name="l{i}"/><joint name="j{i}" type="revolute"><parent '
                     f'link="base"/><child link="l{i}"/><axis xyz="0 0 1"/><limit lower="-1" '
                     'upper="1" effort="1" velocity="1"/><dynamic damping="0.1"/></joint>'
                     for i in range(4))
    analysis = analyze(parse_urdf_string(f'<robot name="r"><link name="base"/>{joints}</robot>'),
                       CheckConfig(check_meshes=False))
    (found,) = [f for f in analysis.findings if f.rule == 'parse-misspelled-element']
    assert found.links == ('l0', 'l1', 'l2', 'l3') and found.link is None, found
    assert found.message.startswith('<dynamic> in <joint> is not a URDF element'), found.message
    assert found.suggestion == 'rename it <dynamics>'


def test_one_problem_repeated_on_many_links_is_one_finding():
    # An exporter that writes every <material> without a name made one choice: one finding
    # listing the links (h1_2 had 55), with the first line; two links stay per link.
    many = analyze(parse_urdf_string(_nameless_materials(5)), CheckConfig(check_meshes=False))
    found = [f for f in many.findings if f.rule == 'parse-missing-value']
    assert len(found) == 1
    assert found[0].links == ('l0', 'l1', 'l2', 'l3', 'l4') and found[0].link is None
    assert found[0].element == '<material>' and found[0].line == 1
    assert found[0].message.startswith('a <material> needs a name attribute')
    assert '(the same in 5 places, on 5 links: l0, l1, l2, l3, l4)' in found[0].message
    few = analyze(parse_urdf_string(_nameless_materials(2)), CheckConfig(check_meshes=False))
    found = [f for f in few.findings if f.rule == 'parse-missing-value']
    assert [f.link for f in found] == ['l0', 'l1']
    assert found[0].message.startswith("in link 'l0': a <material> needs a name attribute")


def test_a_gazebo_element_inside_a_link_says_to_move_it():
    # ROSbot writes <gazebo reference="cover_link"> inside the link: Gazebo never reads it.
    # It was reported as a custom element whose <material> needs a name, a fix that fixes
    # nothing.
    text = ('<robot name="r"><link name="cover_link"><visual><geometry><box size="0.1 0.1 '
            '0.1"/></geometry></visual>\n<gazebo reference="cover_link">'
            '<material>Gazebo/Red</material></gazebo></link></robot>')
    findings = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False)).findings
    (note,) = [f for f in findings if f.rule == 'parse-gazebo-inside-link']
    assert note.link == 'cover_link' and note.line == 2
    assert 'ignored by Gazebo' in note.message
    assert note.suggestion == ('move it out of the <link>, to the <robot> level, as <gazebo '
                               'reference="cover_link">')
    assert not [f for f in findings if f.rule == 'custom-element-unreadable']


def test_a_gazebo_element_whose_reference_names_no_link_is_one_finding_with_a_true_fix():
    # Isaac Gym's sektion cabinet: <gazebo reference="link"> copied into each of its 9 links.
    # Each was a warning whose fix wrote reference="link", naming no link.
    links = ''.join(f'<link name="l{i}"><gazebo reference="link"><material>Gazebo/Grey'
                    '</material></gazebo></link>' for i in range(4))
    joints = ''.join(f'<joint name="j{i}" type="fixed"><parent link="l0"/>'
                     f'<child link="l{i}"/></joint>' for i in range(1, 4))
    findings = analyze(parse_urdf_string(f'<robot name="r">{links}{joints}</robot>'),
                       CheckConfig(check_meshes=False)).findings
    (note,) = [f for f in findings if f.rule == 'parse-gazebo-inside-link']
    assert note.links == ('l0', 'l1', 'l2', 'l3')
    assert '(its reference="link" names no link)' in note.message
    assert note.suggestion == ('move it out of the <link>, to the <robot> level, with '
                               'reference set to the name of the link it was in')
    # A reference naming another link of the robot is kept as the fix.
    text = ('<robot name="r"><link name="a"><gazebo reference="b"/></link><link name="b"/>'
            '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint></robot>')
    (note,) = [f for f in analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
               .findings if f.rule == 'parse-gazebo-inside-link']
    assert '(its reference="b" names another link)' in note.message
    assert note.suggestion.endswith('as <gazebo reference="b">')


SLIPS = (
    '<robot name="r">\n'
    '<link name="base"/>\n'
    '<link name="lens">\n'
    '  <intertial><mass value="0.1"/><inertia ixx="1e-5" ixy="0" ixz="0" iyy="1e-5" iyz="0" '
    'izz="1e-5"/></intertial>\n'
    '  <visual><geometry><box size="0.05 0.05 0.05"/></geometry></visual>\n'
    '  <colision><geometry><box size="0.05 0.05 0.05"/></geometry></colision>\n'
    '  <Visual><geometry><box size="0.05 0.05 0.05"/></geometry></Visual>\n'
    '  <collision_checking><geometry><box size="0.05 0.05 0.05"/></geometry>'
    '</collision_checking>\n'
    '  <drake:proximity_properties xmlns:drake="http://drake.mit.edu"/>\n'
    '</link>\n'
    '<link name="arm"><inertial><mass values="2"/><inertia ixx="0.01" ixy="0" ixz="0" '
    'iyy="0.01" iyz="0" izz="0.01"/></inertial>\n'
    '  <visual><origin xyz="0 0 0"/><geometri><box size="0.1 0.1 0.1"/></geometri></visual>\n'
    '</link>\n'
    '<joint name="j" type="revolute"><parent link="base"/><child link="arm"/>\n'
    '  <limt lower="-1" upper="1" effort="1" velocity="1"/></joint>\n'
    '<joint name="f" type="fixed"><parent link="arm"/><child link="lens"/></joint>\n'
    '</robot>\n')


def test_a_slip_of_a_urdf_element_name_is_said_with_the_name_meant():
    # FLIR's Blackfly description (pulled in by Dingo, Jackal and Husky) writes <intertial>
    # with <mass values=...>: URDF readers ignore both, and nothing said why the welded lens
    # had no inertial. A custom element (<collision_checking>, a namespaced one) is no slip.
    robot = parse_urdf_string(SLIPS)
    slips = [(note.line, dict(note.values)['element'], dict(note.values)['meant'], note.link)
             for note in robot.notes if note.rule == 'parse-misspelled-element']
    assert slips == [(4, 'intertial', 'inertial', 'lens'), (6, 'colision', 'collision', 'lens'),
                     (7, 'Visual', 'visual', 'lens'), (12, 'geometri', 'geometry', 'arm'),
                     (15, 'limt', 'limit', 'arm')]
    lens = robot.link('lens')
    assert lens.inertial is None and not lens.collisions and len(lens.visuals) == 1
    assert [element.group for element in lens.custom] == ['collision_checking',
                                                          '{http://drake.mit.edu}'
                                                          'proximity_properties']
    (slip,) = [note for note in robot.notes if note.line == 4]
    assert slip.severity == Severity.WARNING and slip.suggestion == 'rename it <inertial>'
    assert "<intertial> in link 'lens' is not a URDF element" in slip.message
    (limit,) = [note for note in robot.notes if note.line == 15]
    assert "<limt> in <joint> 'j'" in limit.message
    (mass,) = [note for note in robot.notes if note.rule == 'parse-missing-value'
               and note.line == 11]
    assert '(it has values="2": did you mean value?)' in mass.message


@pytest.mark.parametrize('attributes, idle', [
    ('xyz="0 0 0" rpy="0 0 0"', True), ('xyz="0 0 0"', True), ('', True),
    ('xyz="0 0 0.1" rpy="0 0 0"', False), ('xyz="0 0 0" name="x"', False)])
def test_a_misspelt_origin_of_zeros_loses_nothing_and_is_an_info(attributes, idle):
    # Fairino's <origins xyz="0 0 0" rpy="0 0 0"> (sweep T): what its absence means, three
    # warnings for nothing lost.
    robot = parse_urdf_string(
        '<robot name="r"><link name="a"><collision><origins ' + attributes + '/><geometry>'
        '<box size="0.1 0.1 0.1"/></geometry></collision></link></robot>')
    (slip,) = [note for note in robot.notes if note.rule == 'parse-misspelled-element']
    assert (slip.severity == Severity.INFO) == idle
    assert ('it holds the defaults, so nothing is lost here' in slip.message) == idle


def test_a_misspelled_limit_attribute_is_named_in_the_missing_ones_finding():
    # Sweep G: <limit ... velocty="1"/> said "the <limit> has no velocity attribute", with
    # the slip right there unnamed.
    robot = parse_urdf_string(
        '<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
        '<parent link="a"/><child link="b"/><axis xyz="0 0 1"/>'
        '<limit lower="-1" upper="1" effort="1" velocty="1"/></joint></robot>')
    (missing,) = [note for note in robot.notes if note.rule == 'parse-missing-value']
    assert 'the <limit> has no velocity attribute (urdfdom requires both) (it has ' \
        'velocty="1": did you mean velocity?)' in missing.message, missing.message


#: every one-number attribute urdfdom reads with strToDouble, as {name} in a robot that
#: urdfdom loads when each holds a plain number
_SCALARS = ('<robot name="r"><link name="a"><inertial><mass value="{value}"/>'
            '<inertia ixx="{ixx}" ixy="{ixy}" ixz="{ixz}" iyy="{iyy}" iyz="{iyz}" izz="{izz}"/>'
            '</inertial><collision><geometry><sphere radius="{sphere}"/></geometry>'
            '</collision><collision><geometry><cylinder radius="{radius}" length="{length}"/>'
            '</geometry></collision></link><link name="b"/><link name="c"/>\n'
            '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            '<limit lower="{lower}" upper="{upper}" effort="{effort}" velocity="{velocity}"/>'
            '<dynamics damping="{damping}" friction="{friction}"/>'
            '<safety_controller soft_lower_limit="{soft_lower_limit}" '
            'soft_upper_limit="{soft_upper_limit}" k_position="{k_position}" '
            'k_velocity="{k_velocity}"/><calibration rising="{rising}" falling="{falling}"/>'
            '</joint>\n<joint name="k" type="revolute"><parent link="a"/><child link="c"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/>'
            '<mimic joint="j" multiplier="{multiplier}" offset="{offset}"/></joint></robot>')
_PLAIN = {'value': '1', 'ixx': '0.01', 'ixy': '0', 'ixz': '0', 'iyy': '0.01', 'iyz': '0',
          'izz': '0.01', 'sphere': '0.1', 'radius': '0.1', 'length': '0.2', 'lower': '-1',
          'upper': '1', 'effort': '1', 'velocity': '1', 'damping': '0.1', 'friction': '0.1',
          'soft_lower_limit': '-0.9', 'soft_upper_limit': '0.9', 'k_position': '10',
          'k_velocity': '10', 'rising': '0.5', 'falling': '0.5', 'multiplier': '2',
          'offset': '0.5'}


def _scalars(name, text):
    return _SCALARS.format(**dict(_PLAIN, **{name: text}))


@pytest.mark.parametrize('name', sorted(_PLAIN))
def test_a_blank_after_a_one_number_attribute_is_the_error_urdfdom_makes_of_it(name):
    # urdfdom's strToDouble fails unless the number ends the text ("mass [1 ] is not a
    # float"); libxml2 has made a newline there a blank. The number is still read.
    assert not parse_urdf_string(_scalars(name, ' ' + _PLAIN[name])).notes  # before: read
    line = 3 if name in ('multiplier', 'offset') else 2 if name in _JOINT else 1
    for text in (_PLAIN[name] + ' ', _PLAIN[name] + '\n'):
        robot = parse_urdf_string(_scalars(name, text))
        (note,) = robot.notes
        attribute = 'radius' if name == 'sphere' else name
        assert note.rule == 'parse-invalid-number' and note.severity == Severity.ERROR
        assert f'{attribute}="{_PLAIN[name]} " has a blank after its number' in note.message
        assert f'checked here with {attribute}="{_PLAIN[name]}"' in note.message
        # a start tag is numbered by the line it begins on (libxml2's is where it ends)
        assert note.line == line
    value = float(_PLAIN[name])
    robot = parse_urdf_string(_scalars(name, _PLAIN[name] + ' '))
    link, joint, mimic = robot.links[0], robot.joints[0], robot.joints[1]
    assert value in (link.mass, link.collisions[0].geometry.radius,
                     link.collisions[1].geometry.radius, link.collisions[1].geometry.length,
                     *link.inertial.inertia.as_tuple(), *joint.limit.bounds,
                     joint.limit.effort, joint.limit.velocity, joint.dynamics.damping,
                     joint.dynamics.friction, mimic.mimic.multiplier, mimic.mimic.offset,
                     joint.calibration.rising, joint.calibration.falling,
                     *(getattr(joint.safety, key) for key in (
                         'soft_lower_limit', 'soft_upper_limit', 'k_position', 'k_velocity')))


_JOINT = ('lower', 'upper', 'effort', 'velocity', 'damping', 'friction', 'soft_lower_limit',
          'soft_upper_limit', 'k_position', 'k_velocity', 'rising', 'falling')


@pytest.mark.parametrize('name', sorted(_PLAIN))
def test_claim_urdfdom_refuses_a_blank_after_a_one_number_attribute(name, capfd):
    # Pinocchio's urdfdom: a joint's refuses the robot; a link's child is logged as not a
    # number and dropped, as urdfdom 6 does (the finding says both).
    pinocchio = pytest.importorskip('pinocchio')
    pinocchio.buildModelFromXML(_scalars(name, ' ' + _PLAIN[name]))  # a blank before: read
    assert 'Error' not in capfd.readouterr().err
    if name in _JOINT or name in ('multiplier', 'offset'):
        with pytest.raises(Exception, match='valid URDF'):
            pinocchio.buildModelFromXML(_scalars(name, _PLAIN[name] + ' '))
    else:
        pinocchio.buildModelFromXML(_scalars(name, _PLAIN[name] + ' '))
        logged = capfd.readouterr().err
        assert f'[{_PLAIN[name]} ] is not a' in logged or f'{name} is not a valid' in logged


def test_a_blank_after_a_number_in_a_custom_element_is_no_finding():
    # urdfdom does not read custom elements: nothing refuses the blank there.
    robot = parse_urdf_string('<robot name="r"><link name="a"><collision_checking><geometry>'
                              '<sphere radius="0.1 "/></geometry></collision_checking></link>'
                              '</robot>')
    assert not robot.notes and robot.links[0].custom[0].geometry.radius == 0.1


def _axis(text):
    return ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
            f'<parent link="a"/><child link="b"/><axis xyz="{text}"/><limit lower="-1" '
            'upper="1" effort="1" velocity="1"/></joint></robot>')


@pytest.mark.parametrize('text, named', [
    ('0\u00a00 1', 'a no-break space (U+00A0)'), ('0 0 1\u00a0', 'a no-break space (U+00A0)'),
    ('0&#9;0 1', 'a tab'), ('0 0\u20031', 'the white space U+2003')])
def test_white_space_other_than_blanks_between_numbers_is_the_error_urdfdom_makes(text, named):
    # urdfdom splits at ' ' alone and reads each piece to its end; Python's split() took a
    # no-break space (or a tab written as &#9;, which libxml2 keeps) for a blank.
    robot = parse_urdf_string(_axis(text))
    (note,) = robot.notes
    assert note.rule == 'parse-invalid-number' and note.severity == Severity.ERROR
    assert f'xyz holds {named}, which urdfdom does not take for a blank' in note.message
    assert 'checked here with xyz="0 0 1"' in note.message
    assert robot.joints[0].axis == (0.0, 0.0, 1.0)  # the numbers meant


def test_claim_urdfdom_refuses_white_space_other_than_blanks_between_numbers(capfd):
    pinocchio = pytest.importorskip('pinocchio')
    pinocchio.buildModelFromXML(_axis(' 0  0 1 '))  # blanks anywhere: read
    for text in ('0\u00a00 1', '0 0 1\u00a0', '0&#9;0 1'):
        with pytest.raises(Exception, match='valid URDF'):
            pinocchio.buildModelFromXML(_axis(text))
    assert 'Unable to parse component' in capfd.readouterr().err


def _coloured(rgba):
    return (f'<robot name="r"><material name="m"><color rgba="{rgba}"/></material>'
            '<link name="a"><visual><geometry><box size="1 1 1"/></geometry>'
            '<material name="m"/></visual></link><link name="b"/><joint name="j" '
            'type="fixed"><parent link="a"/><child link="b"/></joint></robot>')


@pytest.mark.parametrize('rgba', ['1,0,0,1', '1\u00a00 0 1'])
def test_a_colour_urdfdom_cannot_read_is_a_warning_whatever_separates_it(rgba):
    # urdfdom logs a malformed colour and loads the robot: commas and odd white space are
    # no error there (they were said to refuse the robot).
    (note,) = parse_urdf_string(_coloured(rgba)).notes
    assert note.rule == 'parse-invalid-number' and note.severity == Severity.WARNING
    assert 'urdfdom logs an error and ignores it, but MuJoCo refuses the robot' in note.message
    assert 'urdfdom refuses' not in note.message
    # MuJoCo refuses it (found by fuzzing, it was not said): an error with the mujoco target
    assert _severities(_coloured(rgba)) == {'all': Severity.ERROR, 'rviz': Severity.WARNING}


def _severities(text):
    """Return the parse note's severity with every target and with RViz alone."""
    found = {}
    for name, targets in (('all', ALL_TARGETS), ('rviz', frozenset({'rviz'}))):
        (note,) = [f for f in analyze(parse_urdf_string(text),
                                      CheckConfig(check_meshes=False, targets=targets)).findings
                   if f.rule == 'parse-invalid-number']
        found[name] = note.severity
    return found


def _fixed_axis(text):
    return ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="fixed">'
            f'<parent link="a"/><child link="b"/><axis xyz="{text}"/></joint></robot>')


@pytest.mark.parametrize('text', ['1 0', '1,0,0', '1 0 0 0'])
def test_a_fixed_joints_malformed_axis_is_an_error_for_mujoco_only(text):
    # urdfdom reads the axis of moving joints only; MuJoCo reads every joint's and refuses
    # the robot. It was said that urdfdom refuses the robot (found by fuzzing).
    (note,) = parse_urdf_string(_fixed_axis(text)).notes
    assert 'urdfdom does not read the axis of a fixed joint, but MuJoCo refuses the robot' \
        in note.message and note.severity == Severity.INFO
    assert _severities(_fixed_axis(text)) == {'all': Severity.ERROR, 'rviz': Severity.INFO}


def test_a_fixed_joints_axis_without_xyz_is_an_error_for_mujoco_naming_the_slip():
    # Pioneer 3-DX (sweep M): <axis xzy="0 0 1"/> on a fixed joint. urdfdom never reads it;
    # MuJoCo refuses the robot ("required attribute missing: 'xyz'"): nothing was said.
    text = _fixed_axis('0 0 1').replace('xyz=', 'xzy=')
    (note,) = parse_urdf_string(text).notes
    assert note.message.startswith('the xyz attribute is required (3 numbers) (it has '
                                   'xzy="0 0 1": did you mean xyz?)'), note.message
    assert 'urdfdom does not read the axis of a fixed joint, but MuJoCo refuses the robot' \
        in note.message and note.line == 1
    assert {name: f.severity for name, targets in (
        ('all', ALL_TARGETS), ('rviz', frozenset({'rviz'})))
        for f in analyze(parse_urdf_string(text), CheckConfig(
            check_meshes=False, targets=targets)).findings
        if f.rule == 'parse-missing-value'} == {'all': Severity.ERROR, 'rviz': Severity.INFO}
    mujoco = pytest.importorskip('mujoco')
    with pytest.raises(ValueError, match="required attribute missing: 'xyz'"):
        mujoco.MjModel.from_xml_string(text)
    mujoco.MjModel.from_xml_string(_fixed_axis('0 0 1'))  # with xyz: loaded
    assert not parse_urdf_string(_fixed_axis('0 0 1')).notes


def test_a_malformed_colour_in_a_collision_is_an_error_for_mujoco_only():
    # urdfdom reads a visual's material only: in a collision the colour is not even logged
    text = _collision_material('<material name="m"><color rgba="1,0,0,1"/></material>')
    (note,) = parse_urdf_string(text).notes
    assert "urdfdom does not read a collision's material, but MuJoCo refuses the robot" \
        in note.message and note.severity == Severity.INFO
    assert _severities(text) == {'all': Severity.ERROR, 'rviz': Severity.INFO}
    pinocchio = pytest.importorskip('pinocchio')
    mujoco = pytest.importorskip('mujoco')
    assert pinocchio.buildModelFromXML(text).nbodies == 1
    with pytest.raises(ValueError, match="bad format in attribute 'rgba'"):
        mujoco.MjModel.from_xml_string(text)


def test_claim_mujoco_refuses_a_malformed_colour_or_fixed_axis_urdfdom_loads_them(capfd):
    pinocchio = pytest.importorskip('pinocchio')
    mujoco = pytest.importorskip('mujoco')
    for text in (_coloured('1,0,0,1'), _coloured('1 0 0'), _fixed_axis('1 0'),
                 _fixed_axis('1,0,0')):
        assert pinocchio.buildModelFromXML(text).njoints == 1
        with pytest.raises(ValueError, match="attribute '(rgba|xyz)'"):
            mujoco.MjModel.from_xml_string(text)
    assert mujoco.MjModel.from_xml_string(_coloured('1 0 0 1')) is not None


def test_claim_urdfdom_loads_a_robot_whose_colour_it_cannot_read(capfd):
    pinocchio = pytest.importorskip('pinocchio')
    for rgba in ('1,0,0,1', '1\u00a00 0 1'):
        assert pinocchio.buildModelFromXML(_coloured(rgba)).njoints == 1
        assert 'malformed color rgba values' in capfd.readouterr().err


def _collision_material(material):
    return ('<robot name="r"><link name="a"><inertial><mass value="1"/><inertia ixx="1" '
            'ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial><collision><geometry><box '
            f'size="1 1 1"/></geometry>{material}</collision></link></robot>')


def test_a_nameless_material_in_a_collision_is_no_error():
    # urdfdom reads the material of a visual only (found by differential fuzzing against
    # Pinocchio's urdfdom: the robot loads; it was said to be refused).
    assert not parse_urdf_string(_collision_material('<material/>')).notes
    (note,) = parse_urdf_string(_collision_material('<material/>').replace(
        'collision>', 'visual>')).notes
    assert note.severity == Severity.ERROR and 'urdfdom refuses' in note.message


def test_claim_urdfdom_and_mujoco_load_a_nameless_material_in_a_collision(capfd):
    pinocchio = pytest.importorskip('pinocchio')
    mujoco = pytest.importorskip('mujoco')
    pinocchio.buildModelFromXML(_collision_material('<material/>'))
    mujoco.MjModel.from_xml_string(_collision_material('<material/>'))
    assert 'Error' not in capfd.readouterr().err
    # a visual's is refused (this urdfdom, as urdfdom 6, drops the visual and says so)
    pinocchio.buildModelFromXML(
        _collision_material('<material/>').replace('collision>', 'visual>'))
    assert 'Visual material must contain a name attribute' in capfd.readouterr().err


@pytest.mark.parametrize('reference, said', [
    ('sole_{side}', 'did you mean sole_${side}? xacro expands {...} only after a $ (it '
                    'would name sole_right)'),
    ('{prefix}_{side}_sole', 'did you mean ${prefix}_${side}_sole?'),
    ('sole_${side}', None), ('plain', None)])
def test_a_reference_missing_its_dollar_says_the_expression_meant(reference, said):
    # Sweep Q: REEM-C's foot.urdf.xacro wrote reference="sole_{side}": "names no link", when
    # the slip was the missing $ (xacro leaves {side} as it is).
    text = (f'<robot name="r"><link name="foot"><gazebo reference="{reference}"/></link>'
            '<link name="sole_right"/><joint name="j" type="fixed"><parent link="foot"/>'
            '<child link="sole_right"/></joint></robot>')
    (note,) = [f for f in analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
               .findings if f.rule == 'parse-gazebo-inside-link']
    assert (said in note.message) if said else 'did you mean' not in note.message, \
        note.message


def test_a_reference_of_many_expressions_is_matched_in_linear_time():
    # Review 11: reference="{a}{a}...{a}!" against a link of 400 x's: a regex of adjacent
    # '.+' backtracked for hours, and in the node held the GIL (no /diagnostics, no service
    # answered). In a child with a time limit: the old code fails by the limit.
    import subprocess
    import sys
    code = ('from urdf_link_tools.parser.links import dollar_meant\n'
            "print(dollar_meant('{a}' * 24 + '!', {'x' * 400})[1] == '')\n"
            "print(dollar_meant('{a}' * 9 + '!', {'x' * 60})[1] == '')\n"
            "print(dollar_meant('p{a}{b}q', {'pxyq', 'pq'})[1] == 'pxyq')")
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split() == ['True', 'True', 'True'], done.stderr
