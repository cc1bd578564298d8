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

"""The parser against the URDF link spec: every element, every default, every error message."""

import math

import pytest
from urdf_link_tools.errors import UrdfStructureError, UrdfSyntaxError
from urdf_link_tools.findings import Severity
from urdf_link_tools.model import Box, Cylinder, Mesh, Sphere
from urdf_link_tools.parser import parse_urdf_string

SPEC_EXAMPLE = """<robot name="spec">
 <link name="my_link">
   <inertial>
     <origin xyz="0 0 0.5" rpy="0 0 0"/>
     <mass value="1"/>
     <inertia ixx="100"  ixy="0"  ixz="0" iyy="100" iyz="0" izz="100" />
   </inertial>

   <visual>
     <origin xyz="0 0 0" rpy="0 0 0" />
     <geometry>
       <box size="1 1 1" />
     </geometry>
     <material name="Cyan">
       <color rgba="0 1.0 1.0 1.0"/>
     </material>
   </visual>

   <collision>
     <origin xyz="0 0 0" rpy="0 0 0"/>
     <geometry>
       <cylinder radius="1" length="0.5"/>
     </geometry>
   </collision>
 </link>
</robot>"""


def link_of(body, name='l', robot_extra=''):
    """Parse a robot holding one link with the given inner XML."""
    return parse_urdf_string(
        f'<robot name="r">{robot_extra}<link name="{name}">{body}</link></robot>').links[0]


def test_spec_example_reads_every_field():
    link = parse_urdf_string(SPEC_EXAMPLE).link('my_link')
    assert link.line == 2
    assert link.inertial.mass == 1.0
    assert link.inertial.origin.xyz == (0.0, 0.0, 0.5)
    assert link.inertial.inertia.as_tuple() == (100.0, 0.0, 0.0, 100.0, 0.0, 100.0)
    assert link.inertial.line == 3 and link.inertial.mass_line == 5
    assert link.inertial.inertia.line == 6
    (visual,) = link.visuals
    assert visual.geometry == Box(size=(1.0, 1.0, 1.0), line=12)
    assert visual.material.name == 'Cyan' and visual.material.rgba == (0.0, 1.0, 1.0, 1.0)
    (collision,) = link.collisions
    assert collision.geometry == Cylinder(radius=1.0, length=0.5, line=22)
    assert collision.label == 'collision[0]'


def test_missing_inertial_means_zero_mass_and_no_inertia():
    link = link_of('')
    assert link.inertial is None and link.mass == 0.0


@pytest.mark.parametrize('body', [
    '<inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'
    '</inertial>',
    '<inertial><origin/><mass value="2"/>'
    '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>',
])
def test_inertial_origin_defaults_to_identity(body):
    origin = link_of(body).inertial.origin
    assert origin.xyz == (0.0, 0.0, 0.0) and origin.rpy == (0.0, 0.0, 0.0)


@pytest.mark.parametrize('origin, xyz, rpy', [
    ('', (0, 0, 0), (0, 0, 0)),
    ('<origin/>', (0, 0, 0), (0, 0, 0)),
    ('<origin xyz="1 2 3"/>', (1, 2, 3), (0, 0, 0)),
    ('<origin rpy="0.1 0.2 0.3"/>', (0, 0, 0), (0.1, 0.2, 0.3)),
    ('<origin xyz=" 1e-3\t2  -3 " rpy="0 0 0"/>', (0.001, 2, -3), (0, 0, 0)),
])
def test_visual_and_collision_origin_defaults(origin, xyz, rpy):
    body = f'<visual>{origin}<geometry><sphere radius="1"/></geometry></visual>' \
           f'<collision>{origin}<geometry><sphere radius="1"/></geometry></collision>'
    link = link_of(body)
    for element in (link.visuals[0], link.collisions[0]):
        assert element.origin.xyz == pytest.approx(xyz)
        assert element.origin.rpy == pytest.approx(rpy)


@pytest.mark.parametrize('shape, expected', [
    ('<box size="1 2 3"/>', Box(size=(1.0, 2.0, 3.0))),
    ('<cylinder radius="0.5" length="2"/>', Cylinder(radius=0.5, length=2.0)),
    ('<sphere radius="0.25"/>', Sphere(radius=0.25)),
    ('<mesh filename="package://p/m.stl"/>', Mesh(filename='package://p/m.stl')),
    ('<mesh filename="m.dae" scale="0.001 0.001 0.001"/>',
     Mesh(filename='m.dae', scale=(0.001, 0.001, 0.001))),
])
def test_every_geometry_type(shape, expected):
    geometry = link_of(f'<collision><geometry>{shape}</geometry></collision>').collisions[0] \
        .geometry
    assert type(geometry) is type(expected)
    assert {k: v for k, v in vars(geometry).items() if k != 'line'} == \
        {k: v for k, v in vars(expected).items() if k != 'line'}


def test_mesh_scale_defaults_to_one():
    geometry = link_of('<visual><geometry><mesh filename="a.stl"/></geometry></visual>') \
        .visuals[0].geometry
    assert geometry.scale == (1.0, 1.0, 1.0)


def test_any_number_of_named_visuals_and_collisions_in_order():
    body = ''.join(
        f'<{g} name="{g}{i}"><geometry><sphere radius="{i + 1}"/></geometry></{g}>'
        for i in range(3) for g in ('visual', 'collision'))
    link = link_of(body)
    assert [v.name for v in link.visuals] == ['visual0', 'visual1', 'visual2']
    assert [c.name for c in link.collisions] == ['collision0', 'collision1', 'collision2']
    assert [c.index for c in link.collisions] == [0, 1, 2]
    assert link.collisions[1].label == 'collision[1] "collision1"'
    assert link.collisions[2].geometry.radius == 3.0


def test_unnamed_elements_have_no_name():
    link = link_of('<visual><geometry><sphere radius="1"/></geometry></visual>')
    assert link.visuals[0].name is None


def test_material_reference_resolves_to_top_level():
    robot = parse_urdf_string(
        '<robot name="r">\n<material name="blue">\n<color rgba="0 0 1 1"/></material>\n'
        '<link name="l"><visual><geometry><sphere radius="1"/></geometry>\n'
        '<material name="blue"/></visual></link></robot>')
    material = robot.links[0].visuals[0].material
    assert material.rgba == (0.0, 0.0, 1.0, 1.0)
    assert material.line == 2 and material.reference_line == 5
    assert robot.material('blue').rgba == (0.0, 0.0, 1.0, 1.0)


def test_material_defined_inline_elsewhere_resolves_like_urdfdom():
    robot = parse_urdf_string(
        '<robot name="r"><link name="a"><visual><geometry><sphere radius="1"/></geometry>'
        '<material name="m"><color rgba="1 0 0 1"/></material></visual></link>'
        '<link name="b"><visual><geometry><sphere radius="1"/></geometry>'
        '<material name="m"/></visual></link></robot>')
    assert robot.link('b').visuals[0].material.rgba == (1.0, 0.0, 0.0, 1.0)


def test_undefined_material_reference_is_kept_undefined():
    material = link_of('<visual><geometry><sphere radius="1"/></geometry>'
                       '<material name="nowhere"/></visual>').visuals[0].material
    assert material.name == 'nowhere' and not material.is_defined


def test_texture_material():
    material = link_of('<visual><geometry><sphere radius="1"/></geometry>'
                       '<material name="t"><texture filename="package://p/t.png"/></material>'
                       '</visual>').visuals[0].material
    assert material.texture == 'package://p/t.png' and material.is_defined


def test_custom_elements_are_kept_with_their_geometry():
    link = link_of('<collision><geometry><box size="1 1 1"/></geometry></collision>'
                   '<collision_checking>\n<origin xyz="-0.065 0 0"/>'
                   '<geometry><cylinder length="0.7" radius="0.27"/></geometry>'
                   '</collision_checking><self_collision_checking><geometry>'
                   '<sphere radius="0.1"/></geometry></self_collision_checking>'
                   '<gazebo_thing foo="bar"/>')
    assert link.custom_groups == ('collision_checking', 'self_collision_checking',
                                  'gazebo_thing')
    (checking,) = link.group('collision_checking')
    assert checking.origin.xyz == (-0.065, 0.0, 0.0)
    assert checking.geometry == Cylinder(radius=0.27, length=0.7, line=checking.geometry.line)
    assert link.group('gazebo_thing')[0].attributes == (('foo', 'bar'),)
    assert link.group('gazebo_thing')[0].geometry is None
    assert link.group('nothing') == ()


def test_bad_custom_element_is_a_note_not_an_error():
    robot = parse_urdf_string(
        '<robot name="r"><link name="l"><collision_checking><geometry><box size="1"/>'
        '</geometry></collision_checking></link></robot>')
    assert [n.rule for n in robot.notes] == ['custom-element-unreadable']
    assert robot.notes[0].link == 'l'


@pytest.mark.parametrize('shape', ['<capsule radius="0.1" length="0.3"/>',
                                   '<drake:capsule xmlns:drake="http://drake.mit.edu" '
                                   'radius="0.1" length="0.3"/>'])
def test_a_custom_element_with_drakes_capsule_is_an_info(shape):
    # Drake's iiwa models: <self_collision_checking> capsules were a warning to "use <box>,
    # <cylinder>, <sphere> or <mesh>" about a shape Drake reads.
    robot = parse_urdf_string(
        '<robot name="r"><link name="l"><self_collision_checking><geometry>'
        f'{shape}</geometry></self_collision_checking></link></robot>')
    (note,) = robot.notes
    assert note.rule == 'custom-element-unreadable' and note.severity == Severity.INFO
    assert note.message == ('custom element <self_collision_checking> holds a <capsule>, a '
                            'shape some URDF readers add (Drake), not URDF: read here as '
                            'unknown geometry')
    # a box with a wrong size stays a warning
    robot = parse_urdf_string(
        '<robot name="r"><link name="l"><self_collision_checking><geometry><box size="1"/>'
        '</geometry></self_collision_checking></link></robot>')
    assert robot.notes[0].severity == Severity.WARNING


def test_joints_are_read_with_defaults():
    robot = parse_urdf_string(
        '<robot name="r"><link name="a"/><link name="b"/><link name="c"/>'
        '<joint name="j1" type="revolute"><parent link="a"/><child link="b"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="2" velocity="3"/></joint>'
        '<joint name="j2" type="fixed"><parent link="b"/><child link="c"/>'
        '<origin xyz="0 0 1"/></joint></robot>')
    j1, j2 = robot.joints
    assert j1.axis == (0.0, 0.0, 1.0) and j1.limit.upper == 1.0 and j1.is_moving
    assert j2.axis == (1.0, 0.0, 0.0) and j2.origin.xyz == (0.0, 0.0, 1.0)
    assert not j2.is_moving
    assert robot.root_links == ('a',)
    assert robot.parent_joint('c').name == 'j2'
    assert [j.name for j in robot.child_joints('a')] == ['j1']


def test_duplicate_link_names_are_kept_for_the_checker():
    robot = parse_urdf_string('<robot name="r"><link name="a"/><link name="a"/></robot>')
    assert robot.link_names == ('a', 'a')


def test_non_finite_numbers_are_read_for_the_checker_to_flag():
    inertial = link_of('<inertial><mass value="nan"/><inertia ixx="inf" ixy="0" ixz="0" '
                       'iyy="-inf" iyz="0" izz="1"/></inertial>').inertial
    assert math.isnan(inertial.mass)
    assert inertial.inertia.ixx == math.inf and inertial.inertia.iyy == -math.inf


def test_unicode_and_whitespace_in_names_are_preserved():
    robot = parse_urdf_string('<robot name="röbot"><link name=" 链接 a "/></robot>')
    assert robot.name == 'röbot' and robot.links[0].name == ' 链接 a '


@pytest.mark.parametrize('text, kind, fragment, line', [
    ('<sdf version="1.6"><model name="m"/></sdf>', UrdfStructureError,
     'root element is <sdf>, expected <robot>', 1),
    ('', UrdfSyntaxError, 'empty', None),
    ('   \n ', UrdfSyntaxError, 'empty', None),
    ('this is not xml', UrdfSyntaxError, 'not well-formed XML', 1),
    ('<robot name="r">\n<link name="a">\n', UrdfSyntaxError, 'not well-formed XML', 3),
    ('<robot name="r"><link name="a"></robot>', UrdfSyntaxError, 'not well-formed', 1),
    ('<robot name="r"><link name="a"><x:y z:w="1"/></link>\n<link name="b"></robot>',
     UrdfSyntaxError, 'not well-formed XML: Opening and ending tag mismatch', 2),
    # Shadow's MuJoCo URDFs: a comment first; the hint is where the declaration goes
    ('<!-- licence -->\n<?xml version="1.0"?>\n<robot name="r"/>', UrdfSyntaxError,
     'move <?xml version="1.0"?> to the very start of the file', 2),
    # a cut file: libxml2's own "line 1" at the end is not said beside the real line 3
    ('<robot name="r">\n<link name="a"\n', UrdfSyntaxError,
     "Couldn't find end of Start Tag link; fix the XML (is the file complete?)", 3),
])
def test_what_stops_everything_is_one_clear_line(text, kind, fragment, line):
    with pytest.raises(kind) as info:
        parse_urdf_string(text)
    message = str(info.value)
    assert fragment in message
    assert '\n' not in message
    assert info.value.line == line
    if line is not None:
        assert message.startswith(f'line {line}: ')


# What urdfdom refuses, element by element: (URDF, rule, fragment of the message, line).
# Each is an ERROR finding at its line; the robot is still built and checked.
REFUSED_ELEMENTS = [
    ('<robot name="r">\n<link name="a"><visual><geometry><box size="1 1"/>'
     '</geometry></visual></link></robot>',
     'parse-invalid-number', '<box size="1 1"> in link \'a\': size needs 3 numbers, got 2', 2),
    ('<robot name="r"><link/></robot>', 'parse-missing-value', 'needs a non-empty name', 1),
    ('<robot name="r"><link name=""/></robot>', 'parse-missing-value', 'non-empty name', 1),
    ('<robot name="r"><link name="a">\n<inertial><mass value="x1"/>'
     '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>',
     'parse-invalid-number', '"x1" is not a number', 2),
    ('<robot name="r"><link name="a"><inertial><mass value="1_0"/>'
     '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>',
     'parse-invalid-number', '"1_0" is not a number', 1),
    ('<robot name="r"><link name="a"><inertial><mass value="\u0661"/>'
     '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>',
     'parse-invalid-number', 'is not a number', 1),
    ('<robot name="r"><link name="a"><inertial><mass value="1"/>'
     '<inertia ixx="1" iyy="1" izz="1"/></inertial></link></robot>',
     'parse-missing-value', 'missing attributes ixy, ixz, iyz', 1),
    ('<robot name="r"><link name="a"><inertial><inertia ixx="1" ixy="0" ixz="0" iyy="1" '
     'iyz="0" izz="1"/></inertial></link></robot>', 'parse-missing-value', '<mass', 1),
    ('<robot name="r"><link name="a"><inertial><mass value="1"/></inertial></link></robot>',
     'parse-missing-value', '<inertia', 1),
    ('<robot name="r"><link name="a"><visual/></link></robot>',
     'parse-missing-value', '<geometry> element is required', 1),
    ('<robot name="r"><link name="a"><collision><geometry/></collision></link></robot>',
     'parse-invalid-geometry', 'needs one shape', 1),
    ('<robot name="r"><link name="a"><collision><geometry><capsule radius="1" length="1"/>'
     '</geometry></collision></link></robot>', 'parse-invalid-geometry', 'unknown geometry', 1),
    ('<robot name="r"><link name="a"><collision><geometry><cylinder radius="1"/>'
     '</geometry></collision></link></robot>', 'parse-missing-value', 'length attribute', 1),
    ('<robot name="r"><link name="a"><collision><geometry><mesh/></geometry></collision>'
     '</link></robot>', 'parse-missing-value', 'filename attribute is required', 1),
    ('<robot name="r"><link name="a"><visual><origin xyz="1 2"/><geometry><sphere '
     'radius="1"/></geometry></visual></link></robot>', 'parse-invalid-number',
     'xyz needs 3 numbers, got 2', 1),
    ('<robot name="r"><link name="a"><visual><geometry><sphere radius="1"/></geometry>'
     '<material/></visual></link></robot>', 'parse-missing-value', 'needs a name', 1),
    ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="hinge">'
     '<parent link="a"/><child link="b"/></joint></robot>', 'parse-invalid-joint-type',
     'unknown type', 1),
    ('<robot name="r"><link name="b"/><joint name="j" type="fixed"><child link="b"/></joint>'
     '</robot>', 'parse-missing-value', 'needs a <parent', 1),
    ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
     '<parent link="a"/><child link="b"/>\n<limit lower="0" upper="1"/></joint></robot>',
     'parse-missing-value', 'no effort and no velocity', 2),
    ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
     '<parent link="a"/><child link="b"/><limit effort="1" velocity="1"/>\n<dynamics/>'
     '</joint></robot>', 'parse-missing-value', 'neither damping nor friction', 2),
    ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
     '<parent link="a"/><child link="b"/><limit effort="1" velocity="1"/>\n'
     '<safety_controller soft_lower_limit="0"/></joint></robot>', 'parse-missing-value',
     'no k_velocity', 2),
    ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
     '<parent link="a"/><child link="b"/><limit effort="1" velocity="1"/>\n'
     '<mimic multiplier="2"/></joint></robot>', 'parse-missing-value', 'no joint attribute', 2),
    ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
     '<parent link="a"/><child link="b"/>\n<axis xyz="0 0 one"/><limit effort="1" '
     'velocity="1"/></joint></robot>', 'parse-invalid-number', '"one" is not a number', 2),
    ('<robot>\n<link name="a"/></robot>', 'robot-name-missing', 'No name given', 1),
    ('<robot name="r"><material name="m"><color rgba="1 0 0 1"/></material>\n'
     '<material name="m"><color rgba="0 1 0 1"/></material><link name="a"/></robot>',
     'material-duplicate', 'not unique', 2),
]


@pytest.mark.parametrize('text, rule, fragment, line', REFUSED_ELEMENTS)
def test_what_urdfdom_refuses_is_an_error_finding_at_its_line(text, rule, fragment, line):
    robot = parse_urdf_string(text)
    (note,) = [n for n in robot.notes if n.rule == rule]
    assert note.severity == Severity.ERROR
    assert fragment in note.message and 'urdfdom refuses this robot' in note.message
    assert note.line == line and '\n' not in note.message


def test_malformed_colour_is_a_warning_as_urdfdom_only_logs_it():
    robot = parse_urdf_string(
        '<robot name="r"><link name="a"><visual><geometry><sphere radius="1"/></geometry>'
        '<material name="m"><color rgba="1 0 0"/></material></visual></link></robot>')
    (note,) = robot.notes
    assert note.severity == Severity.WARNING and 'rgba needs 4 numbers, got 3' in note.message
    assert robot.links[0].visuals[0].material.rgba is None


def test_fallbacks_keep_the_rest_of_the_link():
    robot = parse_urdf_string(
        '<robot name="r"><link name="a"><inertial><mass value="1"/></inertial>'
        '<visual><origin xyz="1 2"/><geometry><sphere radius="1"/></geometry></visual>'
        '<collision><geometry><box size="1 x 1"/></geometry></collision>'
        '<collision><geometry><sphere radius="2"/></geometry></collision></link>'
        '<link/><link name="b"/>'
        '<joint name="j" type="hinge"><parent link="a"/><child link="b"/></joint></robot>')
    a = robot.link('a')
    assert a.inertial is None
    assert a.visuals[0].origin.is_identity and a.visuals[0].geometry.radius == 1.0
    assert a.collisions[0].geometry is None and a.collisions[1].geometry.radius == 2.0
    assert robot.link_names == ('a', 'b')
    assert robot.joints[0].type == 'fixed'
    assert len([n for n in robot.notes if n.severity == Severity.ERROR]) == 5


def test_commas_are_read_as_the_numbers_meant():
    robot = parse_urdf_string(
        '<robot name="r"><link name="a">\n<visual><origin xyz="0,0,1" rpy="1.5707963, 0, 0"/>'
        '<geometry><sphere radius="1"/></geometry></visual></link></robot>')
    origin = robot.links[0].visuals[0].origin
    assert origin.xyz == (0.0, 0.0, 1.0) and origin.rpy == (1.5707963, 0.0, 0.0)
    assert [n.rule for n in robot.notes] == ['parse-invalid-number'] * 2
    assert 'checked here with rpy="1.5708 0 0"' in robot.notes[1].message


def test_long_values_are_shortened_in_messages():
    robot = link_robot('<visual><geometry><box size="' + '1 ' * 10000 + '"/></geometry>'
                       '</visual>')
    assert len(robot.notes[0].message) < 400


def test_error_names_the_link():
    robot = link_robot('<collision><geometry><sphere radius="big"/></geometry></collision>',
                       name='wrist')
    assert robot.notes[0].link == 'wrist' and "in link 'wrist'" in robot.notes[0].message


def link_robot(body, name='l'):
    """Parse a robot holding one link with the given inner XML."""
    return parse_urdf_string(f'<robot name="r"><link name="{name}">{body}</link></robot>')


def test_extra_inertial_and_extra_shape_are_notes():
    robot = parse_urdf_string(
        '<robot name="r"><link name="a">'
        '<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
        'izz="1"/></inertial>'
        '<inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
        'izz="1"/></inertial>'
        '<visual><geometry><box size="1 1 1"/><sphere radius="1"/></geometry></visual>'
        '</link></robot>')
    assert robot.links[0].mass == 1.0
    assert sorted(n.rule for n in robot.notes) == ['parse-duplicate-inertial',
                                                   'parse-extra-shape']
    assert all(n.link == 'a' and n.line == 1 for n in robot.notes)


def test_missing_robot_name_is_a_note():
    robot = parse_urdf_string('<robot><link name="a"/></robot>')
    assert robot.name == '' and robot.notes[0].rule == 'robot-name-missing'
    assert robot.notes[0].severity == Severity.ERROR
    assert 'included' not in robot.notes[0].suggestion
    # Autoware's vehicle.xacro: a xacro file others include needs none, said when checked
    (note,) = parse_urdf_string('<robot><link name="a"/></robot>', 'urdf/vehicle.xacro').notes
    assert "only included by another: xacro keeps the including file's <robot>" in \
        note.suggestion


def test_comments_and_processing_instructions_are_ignored():
    robot = parse_urdf_string('<?xml version="1.0"?><!-- c --><robot name="r"><?pi x?>'
                              '<link name="a"><!-- c --><visual><!-- c --><geometry><!-- c -->'
                              '<sphere radius="1"/></geometry></visual></link></robot>')
    assert robot.links[0].visuals[0].geometry.radius == 1.0
    assert robot.links[0].custom == ()


def test_str_with_encoding_declaration_and_bytes_in_latin1():
    text = '<?xml version="1.0" encoding="ISO-8859-1"?><robot name="r\u00e9"/>'
    assert parse_urdf_string(text).name == 'r\u00e9'
    assert parse_urdf_string(text.encode('latin-1')).name == 'r\u00e9'


MULTILINE = b"""<?xml version="1.0"?>
<!-- a <link name="not one"> and an <inertia in a comment -->
<robot name="ml">
  <link
    name="base">
    <inertial>
      <mass
        value="1" />
      <inertia
        ixx="1"
        ixy="0" ixz="0" iyy="1" iyz="0"
        izz="1" />
    </inertial>
  </link>
  <joint name="j"
         type="fixed"><parent link="base"/><child
    link="tip"/></joint>
  <link name="tip"/>
</robot>
"""


@pytest.mark.parametrize('newline', [b'\n', b'\r\n'])
def test_an_element_is_numbered_by_the_line_its_start_tag_begins_on(newline):
    # SolidWorks' exporter writes one attribute per line: libxml2 numbers an element by the
    # line its start tag ends on, so a finding about ixx was shown at the izz line.
    robot = parse_urdf_string(MULTILINE.replace(b'\n', newline))
    base, tip = robot.links
    assert (base.line, base.inertial.line, base.inertial.mass_line,
            base.inertial.inertia.line) == (4, 6, 7, 9)
    (joint,) = robot.joints
    assert (joint.line, tip.line) == (15, 18)


def test_unprefixed_properties_are_one_info_naming_them():
    # Squirrel's kcl-hand: <property name="M_PI"> and <property name="M_SCALE"> (ROS 1 style)
    # were two warnings, each saying <property name="...">; nothing used them
    robot = parse_urdf_string('<robot name="r"><property name="M_PI" value="3.14"/>'
                              '<property name="M_SCALE" value="0.001"/><link name="a"/>'
                              '<include filename="arm.xacro"/></robot>')
    notes = [n for n in robot.notes if n.rule == 'parse-xacro-unprefixed']
    assert [n.severity for n in notes] == [Severity.WARNING, Severity.INFO]
    assert notes[0].message.startswith('<include filename="arm.xacro"> is a xacro directive')
    assert notes[1].message.startswith('2 xacro properties are written without the xacro: '
                                       'prefix (<property name="M_PI">, <property '
                                       'name="M_SCALE">)')


def test_a_value_written_as_a_child_element_is_said_so_once():
    # Braccio's camera: <box><size>0.073 0.276 0.072</size></box> on its visual and its
    # collision (SDF's way): two errors saying "the size attribute is required"
    box = '<geometry><box><size>0.073 0.276 0.072</size></box></geometry>'
    robot = parse_urdf_string(f'<robot name="r"><link name="camera"><visual>{box}</visual>'
                              f'<collision>{box}</collision></link></robot>')
    (note,) = [n for n in robot.notes if n.rule == 'parse-missing-value']
    assert note.message.startswith("2 values are written as child elements (SDF's way), "
                                   'which URDF does not read (on camera; the first:')
    assert '<size>0.073 0.276 0.072</size>' in note.message
    assert note.suggestion.startswith('write them as attributes: size="0.073 0.276 0.072"')
