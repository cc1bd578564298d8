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
Engine claims, each run against the installed MuJoCo 4.0, and made only for that target.

(Gazebo is not installed here: its claim, an extension naming no link, is read from
sdformat's parser_urdf.cc.)

MuJoCo is given the same URDF the checker reads (meshes next to it); every error claimed
for it is a refusal here, and every warning a change MuJoCo makes.
"""

import json
import subprocess
import sys

import pytest
import trimesh
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.parser import parse_urdf_string

try:
    import mujoco
except ImportError:  # a test dependency: never skip silently
    mujoco = None

MASS = ('<inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" '
        'izz="0.01"/></inertial>')


def robot(files, mujoco_xml=''):
    links = ''.join(f'<link name="l{i}">{MASS}<collision><geometry><mesh filename="{name}"/>'
                    f'</geometry></collision></link>' for i, name in enumerate(files))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child link="l{i}"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        for i in range(1, len(files)))
    return f'<robot name="r">{mujoco_xml}{links}{joints}</robot>'


def check(tmp_path, text, targets=None):
    path = tmp_path / 'robot.urdf'
    path.write_text(text)
    config = CheckConfig() if targets is None else CheckConfig(targets=frozenset(targets))
    return analyze(parse_urdf_string(text, str(path)), config).findings, path


def mujoco_error(path):
    if mujoco is None:
        pytest.skip('mujoco is not installed: a test dependency (make setup; in a '
                    "workspace, pip install mujoco: the README's tests block)")
    try:
        return mujoco.MjModel.from_xml_path(str(path)), ''
    except ValueError as exc:
        return None, ' '.join(str(exc).split())


BOX = trimesh.creation.box((0.1, 0.1, 0.1))


@pytest.mark.parametrize('suffix,refused', [('.dae', True), ('.glb', True), ('.gltf', True),
                                            ('.stl', False), ('.STL', False),
                                            ('.obj', False)])
def test_mujoco_decodes_stl_and_obj_only(tmp_path, suffix, refused):
    BOX.export(str(tmp_path / f'part{suffix}'), file_type=suffix[1:].lower())
    findings, path = check(tmp_path, robot([f'part{suffix}'] * 3))
    _, error = mujoco_error(path)
    assert ('no decoder found' in error) == refused, error
    format_errors = [f for f in findings if f.rule == 'mujoco-mesh-format']
    assert bool(format_errors) == refused
    if refused:
        assert len(format_errors) == 1 and format_errors[0].severity == Severity.ERROR
        assert format_errors[0].links == ('l0', 'l1', 'l2')
        gazebo, _ = check(tmp_path, robot([f'part{suffix}'] * 3), {'gazebo', 'moveit'})
        assert not [f for f in gazebo if f.rule.startswith('mujoco-')]


def with_visuals(tmp_path, visual):
    """Return two STL links with a visual mesh each: as written, and kept for MuJoCo."""
    BOX.export(str(tmp_path / 'part.stl'), file_type='stl')
    plain = robot(['part.stl'] * 2).replace(
        '</collision>', f'</collision><visual><geometry><mesh filename="{visual}"/></geometry>'
                        '</visual>')
    keeps = plain.replace('<robot name="r">', '<robot name="r"><mujoco><compiler '
                                              'discardvisual="false"/></mujoco>')
    return plain, keeps


def test_a_file_that_keeps_visuals_for_mujoco_has_its_visual_meshes_judged(tmp_path):
    # ToddlerBot, AzureLoong and livelybot (sweep N) carry <mujoco><compiler
    # discardvisual="false"/>: MuJoCo then loads the visual meshes too, and a DAE visual
    # makes it refuse the robot, about which nothing was said.
    BOX.export(str(tmp_path / 'look.dae'), file_type='dae')
    plain, keeps = with_visuals(tmp_path, 'look.dae')
    findings, path = check(tmp_path, plain)
    assert not [f for f in findings if f.rule == 'mujoco-mesh-format']
    model, error = mujoco_error(path)
    assert model is not None, error
    findings, path = check(tmp_path, keeps)
    (finding,) = [f for f in findings if f.rule == 'mujoco-mesh-format']
    assert finding.message.startswith('2 visual meshes (.dae) MuJoCo has no decoder for')
    assert 'discardvisual="false"> makes it load the visual meshes too' in finding.message
    _, error = mujoco_error(path)
    assert 'no decoder found' in error, error


def test_a_visual_mesh_not_found_is_an_error_where_mujoco_loads_the_visuals(tmp_path):
    # Sweep Q: H1_2's and AzureLoong's URDFs keep the visuals for MuJoCo, whose visual STLs
    # are missing: MuJoCo refuses both robots, and the check said a warning (exit 0).
    plain, keeps = with_visuals(tmp_path, 'gone.stl')
    findings, path = check(tmp_path, plain)
    assert {f.severity for f in findings if f.rule == 'mesh-not-found'} == {Severity.WARNING}
    model, error = mujoco_error(path)
    assert model is not None, error
    findings, path = check(tmp_path, keeps)
    found = [f for f in findings if f.rule == 'mesh-not-found']
    assert found and all(f.severity == Severity.ERROR for f in found), found
    assert all('discardvisual="false"> has MuJoCo load the visual meshes' in f.message
               for f in found)
    model, error = mujoco_error(path)
    assert model is None and error, error
    # MuJoCo not a target: the visual mesh is the viewers' (a warning)
    findings, _ = check(tmp_path, keeps, {'rviz', 'gazebo'})
    assert {f.severity for f in findings if f.rule == 'mesh-not-found'} == {Severity.WARNING}


FLAT = trimesh.Trimesh(vertices=[[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0.1, 0.1, 0]],
                       faces=[[0, 1, 2], [1, 3, 2], [2, 1, 0], [2, 3, 1]])


def test_mujoco_refuses_coplanar_vertices_one_finding(tmp_path):
    FLAT.export(str(tmp_path / 'plate.stl'))
    text = robot(['plate.stl'])
    findings, path = check(tmp_path, text)
    _, error = mujoco_error(path)
    assert 'coplanar vertices' in error
    rules = [(f.rule, f.severity) for f in findings if 'mesh' in f.rule]
    assert rules == [('mujoco-mesh-coplanar', Severity.ERROR)]
    # without MuJoCo as a target, only the surface problem remains
    findings, _ = check(tmp_path, text, {'gazebo'})
    assert [f.rule for f in findings if 'mesh' in f.rule] == ['collision-mesh-broken']


@pytest.mark.parametrize('thickness,refused', [(1e-5, False), (1e-12, False), (1e-13, True)])
def test_a_thin_but_solid_mesh_is_accepted_by_mujoco_and_not_claimed(
        tmp_path, thickness, refused):
    # MuJoCo 4 loads a plate 1e-12 of its width thick and refuses one 1e-13 thick; plates
    # from 1e-9 down were claimed refused (review 15), which also made its contacts infos.
    from mesh_attacks import binary_stl, boxes
    binary_stl(tmp_path / 'thin.stl', *boxes([((0, 0, 0), (0.1, 0.1, 0.1 * thickness))]))
    findings, path = check(tmp_path, robot(['thin.stl']))
    model, error = mujoco_error(path)
    assert (model is None) == refused, error
    assert bool([f for f in findings if f.rule == 'mujoco-mesh-coplanar']) == refused


def test_same_file_name_in_two_folders_is_one_mesh_in_mujoco_with_strippath(tmp_path):
    (tmp_path / 'a').mkdir()
    (tmp_path / 'b').mkdir()
    BOX.export(str(tmp_path / 'a' / 'part.stl'))
    trimesh.creation.box((0.5, 0.5, 0.5)).export(str(tmp_path / 'b' / 'part.stl'))
    files = ['a/part.stl', 'b/part.stl']
    # Plain paths: MuJoCo opens each file as it is (sweep Y's Shadow hand: two meshes)
    findings, _ = check(tmp_path, robot(files))
    assert not [f for f in findings if f.rule == 'mujoco-mesh-name-clash']
    # package:// paths, which MuJoCo opens only with strippath: one mesh for both
    packages = [f'package://pkg/{name}' for name in files]
    text = robot(packages)
    path = tmp_path / 'robot.urdf'
    path.write_text(text)
    findings = analyze(parse_urdf_string(text, str(path)), CheckConfig(
        package_dirs=(('pkg', str(tmp_path)),))).findings
    clash = [f for f in findings if f.rule == 'mujoco-mesh-name-clash']
    assert len(clash) == 1 and clash[0].severity == Severity.WARNING
    assert clash[0].links == ('l0', 'l1')
    # the files that clash, as written, and where the second is (TALOS: no line, no files)
    assert '(part.stl: package://pkg/a/part.stl, package://pkg/b/part.stl)' in \
        clash[0].message, clash[0].message
    assert dict(clash[0].values)['files'] == 'package://pkg/a/part.stl; package://pkg/b/part.stl'
    assert clash[0].element == 'collision[0]' and clash[0].line is not None
    # MuJoCo reads package:// only with strippath, which then loads one file for both
    stripped = robot(files, '<mujoco><compiler strippath="true" meshdir="a"/></mujoco>')
    stripped_path = tmp_path / 'stripped.urdf'
    stripped_path.write_text(stripped)
    model, error = mujoco_error(stripped_path)
    assert model is not None and model.nmesh == 1 and model.ngeom == 2, error
    (tmp_path / 'plain.urdf').write_text(robot(files))
    separate, _ = mujoco_error(tmp_path / 'plain.urdf')
    assert separate.nmesh == 2
    packaged = tmp_path / 'packaged.urdf'
    packaged.write_text(robot(['package://pkg/a/part.stl']))
    _, error = mujoco_error(packaged)
    assert 'Error opening file' in error
    # the same file used twice is no clash
    findings = analyze(parse_urdf_string(robot([packages[0], packages[0]]), str(path)),
                       CheckConfig(package_dirs=(('pkg', str(tmp_path)),))).findings
    assert not [f for f in findings if f.rule == 'mujoco-mesh-name-clash']


def test_mujoco_refuses_several_materials_in_one_visual(tmp_path):
    two = ('<visual><geometry><box size="0.1 0.1 0.1"/></geometry><material name="a"/>'
           '<material name="b"/></visual>')
    text = robot(['part.stl'] * 3).replace('<collision>', two + '<collision>')
    BOX.export(str(tmp_path / 'part.stl'))
    findings, path = check(tmp_path, text)
    _, error = mujoco_error(path)
    assert "repeated element: 'material'" in error
    found = [f for f in findings if f.rule == 'mujoco-repeated-material']
    assert len(found) == 1 and found[0].severity == Severity.ERROR
    assert found[0].links == ('l0', 'l1', 'l2')
    others, _ = check(tmp_path, text, {'gazebo', 'rviz'})
    assert not [f for f in others if f.rule == 'mujoco-repeated-material']
    # one material: no claim (repeated children: test_mujoco_refuses_a_repeated_child_it_reads)
    one, path = check(tmp_path, robot(['part.stl']))
    assert mujoco_error(path)[1] == '' and not [f for f in one if f.rule.startswith('mujoco')]


# One robot that writes every child MuJoCo's URDF reader may read; a case repeats one of them.
_INERTIAL = {'origin': '<origin xyz="0 0 0.1"/>', 'mass': '<mass value="1"/>',
             'inertia': '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>'}
_ELEMENT = {'origin': '<origin xyz="0 0 0.1"/>',
            'geometry': '<geometry><box size="0.1 0.1 0.1"/></geometry>',
            'material': '<material name="m"/>'}
_JOINT = {'parent': '<parent link="base"/>', 'child': '<child link="arm"/>',
          'origin': '<origin xyz="0 0 0.1"/>', 'axis': '<axis xyz="0 0 1"/>',
          'limit': '<limit lower="-1" upper="1" effort="10" velocity="1"/>',
          'dynamics': '<dynamics damping="1"/>', 'calibration': '<calibration rising="0"/>',
          'safety_controller': '<safety_controller k_velocity="1"/>',
          'mimic': '<mimic joint="j0"/>'}


def _repeating(parent, tag):
    def children(table, where):
        return ''.join(text + (text if (where, name) == (parent, tag) else '')
                       for name, text in table.items() if name != 'mimic' or tag == 'mimic')
    inertial = f'<inertial>{children(_INERTIAL, "inertial")}</inertial>'
    inertials = inertial * (2 if (parent, tag) == ('link', 'inertial') else 1)
    plain = '<inertial>' + ''.join(_INERTIAL.values()) + '</inertial>'
    return ('<robot name="r"><link name="base"/><link name="b2">' + plain + '</link>'
            '<joint name="j0" type="revolute"><parent link="base"/><child link="b2"/>'
            '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            f'<joint name="j1" type="revolute">{children(_JOINT, "joint")}</joint>'
            f'<link name="arm">{inertials}<collision>{children(_ELEMENT, "collision")}'
            f'</collision><visual>{children(_ELEMENT, "visual")}</visual></link></robot>')


@pytest.mark.parametrize('parent,tag,refused', [
    ('joint', 'dynamics', True), ('joint', 'limit', True), ('joint', 'axis', True),
    ('joint', 'origin', True), ('joint', 'mimic', True), ('joint', 'parent', True),
    ('joint', 'child', True), ('inertial', 'origin', True), ('inertial', 'mass', True),
    ('inertial', 'inertia', True), ('link', 'inertial', True), ('collision', 'origin', True),
    ('collision', 'geometry', True), ('visual', 'material', True),
    ('visual', 'origin', False), ('visual', 'geometry', False),
    ('collision', 'material', False), ('joint', 'calibration', False),
    ('joint', 'safety_controller', False)])
def test_mujoco_refuses_a_repeated_child_it_reads(tmp_path, parent, tag, refused):
    # The trial's REEM-C has two <dynamics> in two knee joints: urdfdom uses the first,
    # MuJoCo refuses the whole robot. An error with the mujoco target, as MuJoCo says it.
    text = _repeating(parent, tag)
    findings, path = check(tmp_path, text)
    _, error = mujoco_error(path)
    assert (f"repeated element: '{tag}'" in error) == refused, error
    rule = 'mujoco-repeated-material' if tag == 'material' else 'mujoco-repeated-element'
    found = [f for f in findings if f.rule.startswith('mujoco-repeated')]
    assert [f.rule for f in found] == ([rule] if refused else [])
    if refused:
        assert found[0].severity == Severity.ERROR and found[0].links == ('arm',)
        assert f"repeated element: '{tag}'" in found[0].message
        # urdfdom's view is said there, once: not again as the parse note.
        assert 'where urdfdom uses the first' in found[0].message
        if tag != 'material':  # the element is named with its article
            where = "in link 'arm'" if parent == 'link' else (
                f"in an {parent} of 'arm'" if parent == 'inertial' else f'in a {parent}')
            assert f'<{tag}> {where}' in found[0].message, found[0].message
        assert f'parse-duplicate-{tag}' not in {f.rule for f in findings}
    others, _ = check(tmp_path, text, {'gazebo', 'moveit', 'rviz', 'kdl', 'pinocchio'})
    assert not [f for f in others if f.rule.startswith('mujoco-')]
    assert f'parse-duplicate-{tag}' in {f.rule for f in others}


def test_mesh_without_extension_is_named_so(tmp_path):
    # MuJoCo picks its decoder by the extension: an STL named 'part' is refused, and the
    # finding says the file has no extension (it said '((none))').
    BOX.export(str(tmp_path / 'part'), file_type='stl')
    findings, path = check(tmp_path, robot(['part']))
    _, error = mujoco_error(path)
    assert 'no decoder found' in error, error
    format_errors = [f for f in findings if f.rule == 'mujoco-mesh-format']
    assert len(format_errors) == 1
    assert '1 collision mesh (no extension) MuJoCo has no decoder for' in \
        format_errors[0].message


@pytest.mark.parametrize('moments,refused', [
    (('0.0545', '0.1473', '0.2018'), True),  # RoverRobotics' Mega: short by 2.8e-17
    (('0.5', '0.5', '1.000000000000001'), True),
    (('1', '2', '3'), False),  # on the boundary exactly: accepted
    (('0.0546', '0.1473', '0.2018'), False)])
def test_a_diagonal_tensor_mujoco_refuses_by_rounding_is_an_error(tmp_path, moments, refused):
    # A flat plate's tensor, ixx + iyy = izz on paper: MuJoCo compares the moments as written
    # with no tolerance ("inertia must satisfy A + B >= C"); the rule said it "may refuse".
    ixx, iyy, izz = moments
    text = ('<robot name="plate"><link name="a"/><joint name="j" type="revolute">'
            '<parent link="a"/><child link="b"/><axis xyz="0 0 1"/><limit lower="-1" '
            'upper="1" effort="1" velocity="1"/></joint><link name="b"><inertial><mass '
            f'value="10"/><inertia ixx="{ixx}" ixy="0" ixz="0" iyy="{iyy}" iyz="0" '
            f'izz="{izz}"/></inertial></link></robot>')
    path = tmp_path / 'plate.urdf'
    path.write_text(text)
    model, error = mujoco_error(path)
    assert (model is None) == refused, error
    if refused:
        assert 'A + B >= C' in error
    found = [f for f in analyze(parse_urdf_string(text, str(path)), CheckConfig()).findings
             if f.rule.startswith('inertia-')]
    errors = [f for f in found if f.severity == Severity.ERROR]
    assert bool(errors) == refused, [(f.rule, f.message) for f in found]
    if refused:
        (error,) = errors
        assert error.rule == 'inertia-unrepresentable-box'
        assert 'MuJoCo refuses them ("inertia must satisfy A + B >= C")' in error.message
        # without the mujoco target, the warning it was
        (warning,) = [f for f in analyze(parse_urdf_string(text, str(path)), CheckConfig(
            targets=frozenset({'gazebo', 'rviz'}))).findings
            if f.rule == 'inertia-unrepresentable-box']
        assert warning.severity == Severity.WARNING and 'may refuse' in warning.message


def _gazebo_robot(extensions):
    return ('<robot name="r"><link name="base_link">' + MASS + '</link>'
            '<link name="camera_link">' + MASS + '</link><joint name="camera_joint" '
            'type="fixed"><parent link="base_link"/><child link="camera_link"/></joint>'
            + extensions + '</robot>')


def test_a_gazebo_extension_naming_no_link_or_joint_is_one_finding_with_the_names_meant(
        tmp_path):
    # sdformat's URDF conversion inserts an extension into the link or joint it names and
    # drops one naming neither without a word (REEM-C's r_foot and l_foot: its soles'
    # friction; a quadruped's reference="{name}_hip", its $ forgotten)
    text = _gazebo_robot(
        '<gazebo reference="base_lnk"><mu1>0.9</mu1></gazebo>\n'
        '<gazebo reference="camera"><sensor name="c" type="camera"/></gazebo>\n'
        '<gazebo reference="camera_joint"><preserveFixedJoint>true</preserveFixedJoint>'
        '</gazebo><gazebo reference="camera_link"><mu1>0.5</mu1></gazebo>'
        '<gazebo><self_collide>true</self_collide></gazebo>')
    found, _ = check(tmp_path, text)
    (dead,) = [f for f in found if f.rule == 'gazebo-reference-unknown']
    assert dead.severity == Severity.WARNING
    assert "'base_lnk' (line 1) (did you mean 'base_link'?)" in dead.message
    assert "'camera' (line 2) (did you mean 'camera_link'?)" in dead.message
    assert '<mu1>, <sensor> have no effect' in dead.message
    assert 'camera_joint' not in dead.message and str(dict(dead.values)['count']) == '2'
    # Gazebo's, and nobody else's: nothing for a robot loaded into MuJoCo and RViz only
    found, _ = check(tmp_path, text, targets={'mujoco', 'rviz'})
    assert not [f for f in found if f.rule == 'gazebo-reference-unknown']
    # friction or a colour for a part the robot does not have (a model cut from a bigger
    # one): an info; a slip of a link's name, or a sensor lost, a warning
    for extension, severity in (('<material>Gazebo/Grey</material><mu1>1</mu1>', Severity.INFO),
                                ('<sensor name="l" type="gpu_lidar"/>', Severity.WARNING)):
        found, _ = check(tmp_path, _gazebo_robot(f'<gazebo reference="lidar_link">{extension}'
                                                 '</gazebo>'))
        (dead,) = [f for f in found if f.rule == 'gazebo-reference-unknown']
        assert dead.severity == severity and 'did you mean' not in dead.message
        assert dead.suggestion.startswith('remove the extension if its part is not in this')
    # a colour under a slip of a name: an info, how Gazebo draws it (Robotnik's
    # base_footprint, a frame with nothing to draw); friction under one: a warning
    for extension, severity in (('<material>Gazebo/Grey</material>', Severity.INFO),
                                ('<mu1>0.8</mu1>', Severity.WARNING)):
        found, _ = check(tmp_path, _gazebo_robot(f'<gazebo reference="base">{extension}'
                                                 '</gazebo>'))
        (dead,) = [f for f in found if f.rule == 'gazebo-reference-unknown']
        assert dead.severity == severity and "(did you mean 'base_link'?)" in dead.message
    # a part robots include (hung from a link it does not define): its extensions name the
    # links of the robot that includes it (sciurus17_gazebo.xacro's camera on 'body_link')
    found, _ = check(tmp_path, '<robot name="camera"><link name="camera_link">' + MASS
                     + '</link><joint name="mount" type="fixed"><parent link="body_link"/>'
                     '<child link="camera_link"/></joint><gazebo reference="body_link">'
                     '<sensor name="c" type="camera"/></gazebo></robot>')
    assert not [f for f in found if f.rule == 'gazebo-reference-unknown']
    # long names alike are no slip: Robotnik's 'robot_front_cover_link' (a part its robot
    # does not have) is not 'robot_front_laser_link'
    found, _ = check(tmp_path, _gazebo_robot(
        '<gazebo reference="robot_front_cover_link"><material>Gazebo/Grey</material></gazebo>'
    ).replace('camera_link', 'robot_front_laser_link'))
    (dead,) = [f for f in found if f.rule == 'gazebo-reference-unknown']
    assert dead.severity == Severity.INFO and 'did you mean' not in dead.message
    # a link renamed under its extension (GEM's camera: 'front_camera_link' became
    # 'front_single_camera_link', and its camera sensor was gone from Gazebo)
    renamed = _gazebo_robot('').replace('camera_link', 'front_single_camera_link')
    found, _ = check(tmp_path, renamed.replace('</robot>', (
        '<gazebo reference="front_camera_link"><sensor name="c" type="camera"/></gazebo>'
        '</robot>')))
    (dead,) = [f for f in found if f.rule == 'gazebo-reference-unknown']
    assert "(did you mean 'front_single_camera_link'?)" in dead.message
    # the words in another order (Mirte's wheel friction on 'wheel_front_left', its link
    # 'front_left_wheel'), and not the joint whose name holds one word more
    renamed = _gazebo_robot('').replace('camera_link', 'front_left_wheel').replace(
        'camera_joint', 'front_left_wheel_joint')
    found, _ = check(tmp_path, renamed.replace('</robot>', (
        '<gazebo reference="wheel_front_left"><mu1>1</mu1></gazebo></robot>')))
    (dead,) = [f for f in found if f.rule == 'gazebo-reference-unknown']
    assert "(did you mean 'front_left_wheel'?)" in dead.message
    assert dead.severity == Severity.WARNING
    # two names one slip away: neither is said (Atlas v4's 'l_farm', with 'l_ufarm' and
    # 'l_lfarm' in its shapes-only model); a joint written in SDF in a <gazebo> (the Robotiq
    # hand's four-bar couples) is known
    arms = _gazebo_robot(
        '<link name="l_lfarm"/><joint name="fa" type="fixed"><parent link="base_link"/>'
        '<child link="l_lfarm"/></joint><gazebo reference="l_farm"><mu1>1</mu1></gazebo>'
        '<gazebo><joint name="couple" type="revolute"><parent>base_link</parent><child>'
        'camera_link</child></joint></gazebo><gazebo reference="couple">'
        '<implicitSpringDamper>1</implicitSpringDamper></gazebo>')
    found, _ = check(tmp_path, arms.replace('camera_link', 'l_ufarm'))
    (dead,) = [f for f in found if f.rule == 'gazebo-reference-unknown']
    assert "'l_farm' (line 1);" in dead.message and 'couple' not in dead.message
    # the finding's values name the first references, clipped (every name whole made
    # 28 MB reports, review 11)
    found, _ = check(tmp_path, _gazebo_robot(''.join(
        f'<gazebo reference="{"x" * 500}{i}"><mu1>1</mu1></gazebo>' for i in range(40))))
    (dead,) = [f for f in found if f.rule == 'gazebo-reference-unknown']
    assert len(dict(dead.values)['references']) < 2000 and str(
        dict(dead.values)['count']) == '40'
    # every reference named: nothing
    found, _ = check(tmp_path, _gazebo_robot('<gazebo reference="base_link"><mu1>1</mu1>'
                                             '</gazebo>'))
    assert not [f for f in found if f.rule == 'gazebo-reference-unknown']


def test_a_reference_whose_underscore_was_dropped_names_the_link_with_its_number(tmp_path):
    # Sweep Z: Doosan's m1013 gives friction and contact gains to 'link1' ... 'link6', its
    # links being link_1 ... link_6: each reference is also two edits from the neighbours,
    # so no name was said and the lost friction was an info.
    arm = ''.join(f'<link name="link_{i}">' + MASS + f'</link><joint name="joint_{i}" '
                  f'type="fixed"><parent link="base_link"/><child link="link_{i}"/></joint>'
                  f'<gazebo reference="link{i}"><mu1>0.9</mu1><kp>1e6</kp></gazebo>'
                  for i in range(1, 7))
    found, _ = check(tmp_path, _gazebo_robot(arm))
    (dead,) = [f for f in found if f.rule == 'gazebo-reference-unknown']
    assert dead.severity == Severity.WARNING
    assert "'link1' (line 1) (did you mean 'link_1'?)" in dead.message
    assert "'link6' (line 1) (did you mean 'link_6'?)" in dead.message


def test_a_macro_of_dead_gazebo_references_called_four_times_is_said_once(tmp_path):
    text = ('<?xml version="1.0"?>\n<robot name="dog" xmlns:xacro="http://www.ros.org/wiki/'
            'xacro">\n  <link name="trunk"/>\n  <xacro:macro name="leg" params="name">\n'
            '    <link name="${name}_hip">' + MASS + '</link>\n    <joint name="${name}_j" '
            'type="fixed"><parent link="trunk"/><child link="${name}_hip"/></joint>\n'
            '    <gazebo reference="{name}_hip"><mu1>0.6</mu1></gazebo>\n'
            '  </xacro:macro>\n' + ''.join(f'  <xacro:leg name="{leg}"/>\n'
                                           for leg in ('FL', 'FR', 'RL', 'RR'))
            + '</robot>\n')
    path = tmp_path / 'dog.urdf.xacro'
    path.write_text(text)
    result = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', '--format', 'json', str(path)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode in (0, 1), result.stderr
    (dead,) = [f for f in json.loads(result.stdout)['findings']
               if f['rule'] == 'gazebo-reference-unknown']
    assert dead['line'] == 7 and dead['severity'] == 'warning'
    assert ("4 <gazebo> extensions name no link or joint of the robot: '{name}_hip' 4 times "
            '(line 7) (did you mean ${name}_hip?)') in dead['message']
    assert dead['message'].endswith('(xacro expands {...} only after a $)')


#: an arm whose elbow's range leaves out 0 (Franka's joint 4: -3.04 to -0.15 rad): at rest
#: (MoveIt's default, mid-range) link2 stands up; at 0, where MuJoCo starts, it lies in the base
_ELBOW = (
    '<robot name="elbow"><link name="base">' + MASS + '<collision><geometry>'
    '<box size="0.2 0.2 0.1"/></geometry></collision></link>'
    '<link name="link1">' + MASS + '<collision><origin xyz="0 0 0.05"/><geometry>'
    '<box size="0.04 0.04 0.1"/></geometry></collision></link>'
    '<joint name="j0" type="revolute"><parent link="base"/><child link="link1"/>'
    '<origin xyz="0 0 0.05"/><axis xyz="0 0 1"/>'
    '<limit lower="-3" upper="3" effort="10" velocity="1"/></joint>'
    '<link name="link2">' + MASS + '<collision><origin xyz="0.15 0 -0.03"/><geometry>'
    '<box size="0.3 0.04 0.04"/></geometry></collision></link>'
    '<joint name="j1" type="revolute"><parent link="link1"/><child link="link2"/>'
    '<origin xyz="0 0 0.01"/><axis xyz="0 1 0"/>'
    '<limit lower="{lower}" upper="{upper}" effort="10" velocity="1"/></joint></robot>')


def test_mujoco_starts_at_zero_outside_a_range_that_leaves_it_out(tmp_path):
    # Sweep Z: Franka FR3's joints 4 and 6 leave out 0, where MuJoCo starts (qpos0): it loads
    # with the hand 41 mm into link 5 and the joints outside their limits, and nothing was
    # said (the overlaps are tested at MoveIt's default state, mid-range).
    found, path = check(tmp_path, _ELBOW.format(lower=-3.0, upper=-0.1), targets={'mujoco'})
    (start,) = [f for f in found if f.rule == 'mujoco-start-outside-limits']
    assert "outside the range of 'j1' (-3 to -0.1 rad)" in start.message
    assert "'base' and 'link2' are 40 mm into each other" in start.message
    assert "MoveIt's default state ('j1' -1.55, the others 0)" in start.suggestion
    assert not [f for f in found if f.rule == 'collision-overlap-at-rest']
    model, error = mujoco_error(path)
    assert not error
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    assert list(model.qpos0) == [0.0, 0.0]
    assert data.ncon and min(data.contact[i].dist for i in range(data.ncon)) == \
        pytest.approx(-0.04, abs=1e-4)
    mujoco.mj_step(model, data)
    assert mujoco.mjtConstraint.mjCNSTR_LIMIT_JOINT in list(data.efc_type)
    # Not a claim without MuJoCo, nor for a range that holds 0.
    found, _ = check(tmp_path, _ELBOW.format(lower=-3.0, upper=-0.1), targets={'moveit'})
    assert not [f for f in found if f.rule == 'mujoco-start-outside-limits']
    found, _ = check(tmp_path, _ELBOW.format(lower=-3.0, upper=0.0), targets={'mujoco'})
    assert not [f for f in found if f.rule == 'mujoco-start-outside-limits']
    # A robot MuJoCo refuses as it is (a COLLADA collision mesh): what it will do once it
    # loads it, as the other MuJoCo claims say.
    BOX.export(str(tmp_path / 'part.dae'), file_type='dae')
    refused = _ELBOW.format(lower=-3.0, upper=-0.1).replace(
        '<box size="0.2 0.2 0.1"/>', '<mesh filename="part.dae"/>')
    found, _ = check(tmp_path, refused, targets={'mujoco'})
    (start,) = [f for f in found if f.rule == 'mujoco-start-outside-limits']
    assert start.message.startswith('Once MuJoCo loads the robot (it refuses it as it is, '
                                    'see mujoco-mesh-format), it will start every joint at 0')
