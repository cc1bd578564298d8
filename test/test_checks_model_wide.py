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
Robot-level findings: one finding per model-wide choice, with the consumers it breaks.

Each engine claim is run against the installed engine: MuJoCo 4.0 refuses a kinematics
model and ignores effort 0, Pinocchio loads it with a zero mass matrix and reads limits 0.
"""

import io
import json

from lxml import etree
import numpy as np
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.parser import parse_urdf_string
from urdf_link_tools.reports.json_report import analysis_to_dict
from urdf_link_tools.targets import TARGETS

# A test dependency: without it this module is skipped, and `make test` fails the run
# (test/conftest.py); in a plain workspace `colcon test-result` lists the skip.
pinocchio = pytest.importorskip('pinocchio')

try:
    import mujoco
except ImportError:  # a test dependency: never skip silently
    mujoco = None

NO_MESHES = CheckConfig(check_meshes=False)
MASS = ('<inertial><mass value="1"/><inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" '
        'iyz="0" izz="0.002"/></inertial>')
BOX = '<geometry><box size="0.1 0.1 0.1"/></geometry>'


def chain(bodies, effort='10', velocity='1'):
    """Return a serial robot: bodies[i] is the inner XML of link l<i>, joints j1.. revolute."""
    links = ''.join(f'<link name="l{i}">{body}</link>' for i, body in enumerate(bodies))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child link="l{i}"/>'
        f'<origin xyz="0 0 0.2"/><axis xyz="0 0 1"/>'
        f'<limit lower="-1" upper="1" effort="{effort}" velocity="{velocity}"/></joint>'
        for i in range(1, len(bodies)))
    return f'<robot name="r">{links}{joints}</robot>'


def findings(text, rule, config=NO_MESHES):
    return [f for f in analyze(parse_urdf_string(text), config).findings if f.rule == rule]


def full(mass=True, visual=True, collision=True):
    return ((MASS if mass else '') + (f'<visual>{BOX}</visual>' if visual else '')
            + (f'<collision>{BOX}</collision>' if collision else ''))


def mujoco_compile(text):
    """Compile a URDF in MuJoCo with collisions; return its error text or ''."""
    if mujoco is None:
        pytest.skip('mujoco is not installed: a test dependency (make setup; in a '
                    "workspace, pip install mujoco: the README's tests block)")
    try:
        mujoco.MjModel.from_xml_string(text)
    except ValueError as exc:
        return str(exc)
    return ''


# --- kinematics model ------------------------------------------------------------------

KINEMATICS = chain([full(mass=False)] * 5)
KINEMATICS_VISUAL = chain([full(mass=False, collision=False)] * 5)


def test_kinematics_model_is_one_error_listing_the_moving_links():
    found = findings(KINEMATICS_VISUAL, 'robot-kinematics-only')
    assert len(found) == 1
    finding = found[0]
    assert finding.severity == Severity.ERROR and finding.link is None
    assert finding.links == ('l1', 'l2', 'l3', 'l4')
    assert 'Gazebo' in finding.message and 'a model for display' in finding.message
    # the links MuJoCo refuses are named, with why (Motoman's SDA10F: 1 of 15, unnamed)
    assert 'MuJoCo refuses to compile (l1, l2, l3, l4 have no collision geometry to infer a ' \
        'mass from)' in finding.message
    one_bare = chain([full(mass=False)] * 3 + [full(mass=False, collision=False)])
    (finding,) = findings(one_bare, 'robot-kinematics-only')
    assert 'MuJoCo refuses to compile (l3 has no collision geometry to infer a mass from)' \
        in finding.message
    zero = chain([full()] * 4).replace('<mass value="1"/>', '<mass value="0"/>')
    (finding,) = findings(zero, 'robot-kinematics-only')
    assert 'MuJoCo refuses to compile (l1, l2, l3 declare mass 0)' in finding.message
    assert not findings(KINEMATICS_VISUAL, 'mass-not-positive')
    document = analysis_to_dict(analyze(parse_urdf_string(KINEMATICS_VISUAL), NO_MESHES))
    listed = [f for f in document['findings'] if f['rule'] == 'robot-kinematics-only']
    assert json.loads(json.dumps(listed))[0]['links'] == ['l1', 'l2', 'l3', 'l4']


def test_kinematics_claims_hold_in_mujoco_and_pinocchio():
    # Without collision geometry MuJoCo has nothing to infer a mass from: it refuses.
    assert 'mass and inertia of moving bodies' in mujoco_compile(KINEMATICS_VISUAL)
    # With collision geometry and no <inertial>, MuJoCo infers the masses and compiles:
    # then the finding says so (a warning for MuJoCo alone).
    assert mujoco_compile(KINEMATICS) == ''
    inferred = mujoco.MjModel.from_xml_string(KINEMATICS)
    # 1000 kg/m^3 times the 10 cm cube of collision geometry: 1 kg per moving body
    assert inferred.body_mass[1:] == pytest.approx([1.0] * (inferred.nbody - 1))
    only_mujoco = CheckConfig(check_meshes=False, targets=frozenset({'mujoco'}))
    finding = findings(KINEMATICS, 'robot-kinematics-only', only_mujoco)[0]
    assert finding.severity == Severity.WARNING and 'makes masses up' in finding.message
    model = pinocchio.buildModelFromXML(KINEMATICS)
    data = model.createData()
    matrix = pinocchio.crba(model, data, pinocchio.neutral(model))
    assert np.allclose(matrix, 0.0)


def test_kinematics_model_is_an_info_for_kinematic_targets():
    config = CheckConfig(check_meshes=False, targets=frozenset({'rviz', 'moveit', 'kdl'}))
    found = findings(KINEMATICS, 'robot-kinematics-only', config)
    assert [f.severity for f in found] == [Severity.INFO]
    assert 'Fine for kinematics' in found[0].message
    assert 'Gazebo' not in found[0].message and 'MuJoCo' not in found[0].message
    assert '--target' not in found[0].suggestion, found[0].suggestion


@pytest.mark.parametrize('targets, severity', [
    (None, Severity.ERROR), (('rviz', 'moveit', 'kdl'), Severity.WARNING),
    (('rviz', 'kdl'), Severity.INFO)])
def test_a_model_without_mass_or_collision_is_one_finding(targets, severity):
    # NASA's M2020 rover: robot-kinematics-only and robot-collision-partial ("30 of the 30
    # bodies") said one choice twice; the collision part is said with the mass, as severe as
    # the worse of the two for the targets
    config = CheckConfig(check_meshes=False,
                         targets=frozenset(targets) if targets else CheckConfig().targets)
    (found,) = findings(KINEMATICS_VISUAL, 'robot-kinematics-only', config)
    assert found.severity == severity and 'a model for display' in found.message
    assert ('pass through obstacles' in found.message) == (severity != Severity.INFO)
    # advised to check it for display alone only when not checked so already (sweep Q:
    # ReFlex with --target rviz,kdl was told to use --target rviz,kdl)
    assert ('--target rviz,kdl' in found.suggestion) == (severity != Severity.INFO), \
        found.suggestion
    assert not findings(KINEMATICS_VISUAL, 'robot-collision-partial', config)
    # with collision geometry, or with mass, each finding stays its own
    assert not findings(KINEMATICS, 'robot-collision-partial', config)
    assert 'a model for display' not in \
        findings(KINEMATICS, 'robot-kinematics-only', config)[0].message


def test_one_massless_link_in_a_dynamic_robot_stays_a_per_link_error():
    text = chain([full(), full(), full(mass=False), full()])
    assert not findings(text, 'robot-kinematics-only')
    assert [f.link for f in findings(text, 'mass-not-positive')] == ['l2']


def test_two_links_are_not_a_model_wide_choice():
    text = chain([full(mass=False)] * 2)
    assert not findings(text, 'robot-kinematics-only')
    assert [f.link for f in findings(text, 'mass-not-positive')
            if f.severity == Severity.ERROR] == ['l1']


def test_links_moving_without_mass_are_one_finding_from_3_links_on():
    # Romeo's fingers, Schunk SVH's: a hand modelled without mass is one choice.
    text = chain([full(), full(), full(mass=False), full(mass=False), full(mass=False),
                  full()])
    (found,) = findings(text, 'mass-not-positive')
    assert found.link is None and found.links == ('l2', 'l3', 'l4')
    assert found.severity == Severity.ERROR
    assert found.message.startswith('3 links move without mass (l2, l3, l4); the first: ')
    two = chain([full(), full(mass=False), full(mass=False), full()])
    assert [f.link for f in findings(two, 'mass-not-positive')] == ['l1', 'l2']


# --- visual model ----------------------------------------------------------------------

def test_visual_model_is_one_warning_instead_of_one_per_link():
    text = chain([full(collision=False)] * 4 + [full()])
    found = findings(text, 'robot-collision-partial')
    assert len(found) == 1 and found[0].severity == Severity.WARNING
    assert found[0].links == ('l0', 'l1', 'l2', 'l3')
    assert 'MoveIt (FCL)' in found[0].message and 'unaffected: RViz' in found[0].message
    assert not findings(text, 'collision-missing')
    config = CheckConfig(check_meshes=False, targets=frozenset({'rviz', 'kdl'}))
    assert not findings(text, 'robot-collision-partial', config)


def test_one_link_without_collision_in_a_complete_robot_is_a_per_link_gap():
    text = chain([full()] * 4 + [full(collision=False)])
    assert not findings(text, 'robot-collision-partial')
    assert [f.link for f in findings(text, 'collision-missing')] == ['l4']


def test_mujoco_discards_urdf_visuals():
    """The visual model claim for MuJoCo: its URDF import keeps no visual geom."""
    if mujoco is None:
        pytest.skip('mujoco is not installed: a test dependency (make setup; in a '
                    "workspace, pip install mujoco: the README's tests block)")
    model = mujoco.MjModel.from_xml_string(chain([full(collision=False)] * 4))
    assert model.ngeom == 0


# --- placeholder limits ----------------------------------------------------------------

def test_placeholder_limits_are_one_info():
    text = chain([full()] * 4, effort='0')
    found = findings(text, 'robot-placeholder-limits')
    assert len(found) == 1 and found[0].severity == Severity.INFO
    assert found[0].links == ('l1', 'l2', 'l3')
    assert not findings(text, 'joint-limit-zero')


@pytest.mark.parametrize('effort,velocity,mujoco_said', [
    ('0', '1', True), ('10', '0', False), ('0', '0', True)])
def test_placeholder_limits_say_what_mujoco_does_only_of_effort(effort, velocity,
                                                                mujoco_said):
    # myCobot: only the velocities are 0; MuJoCo's reading of effort 0 is beside the point.
    (found,) = findings(chain([full()] * 4, effort=effort, velocity=velocity),
                        'robot-placeholder-limits')
    assert ('MuJoCo treats effort 0 as no force limit' in found.message) == mujoco_said


@pytest.mark.parametrize('velocity, apart', [('1', False), ('0', True)])
def test_a_kinematics_models_zero_efforts_are_said_by_its_finding(velocity, apart):
    # ROS-Industrial's arms: no mass and effort 0 on every joint, one choice (no dynamics
    # uses effort without masses): one finding. Velocity 0 matters to planners: apart.
    text = chain([full(mass=False)] * 4, effort='0', velocity=velocity)
    (kinematics,) = findings(text, 'robot-kinematics-only')
    assert ('Its effort limits are 0 placeholders too (3 joints)' in kinematics.message) \
        == (not apart)
    assert len(findings(text, 'robot-placeholder-limits')) == (1 if apart else 0)


def test_one_zero_effort_among_real_ones_stays_a_per_joint_warning():
    root = etree.fromstring(chain([full()] * 4))
    root.find("joint[@name='j2']/limit").set('effort', '0')
    text = etree.tostring(root).decode()
    assert not findings(text, 'robot-placeholder-limits')
    assert [(f.link, f.severity) for f in findings(text, 'joint-limit-zero')] == \
        [('l2', Severity.WARNING)]


def test_placeholder_limit_claims_hold_in_pinocchio_and_mujoco():
    text = chain([full()] * 4, effort='0', velocity='0')
    model = pinocchio.buildModelFromXML(text)
    assert np.all(model.effortLimit == 0.0) and np.all(model.velocityLimit == 0.0)
    if mujoco is None:
        pytest.skip('mujoco is not installed: a test dependency (make setup; in a '
                    "workspace, pip install mujoco: the README's tests block)")
    compiled = mujoco.MjModel.from_xml_string(text)
    assert not compiled.jnt_actfrclimited.any()  # effort 0: no force limit at all
    limited = mujoco.MjModel.from_xml_string(chain([full()] * 4, effort='5'))
    assert limited.jnt_actfrclimited.all()


# --- targets: CLI flag, configuration file, node parameter --------------------------------

def _cli(args):
    from urdf_link_tools.cli import main
    out, err = io.StringIO(), io.StringIO()
    code = main(args, out, err)
    return code, out.getvalue(), err.getvalue()


def test_target_flag_and_config_key_select_the_consumers(tmp_path):
    path = tmp_path / 'kinematics.urdf'
    path.write_text(KINEMATICS)

    def severities(*extra):
        code, out, err = _cli(['check', '--format', 'json', '--no-meshes', str(path), *extra])
        assert code in (0, 2), err
        return [f['severity'] for f in json.loads(out)['findings']
                if f['rule'] == 'robot-kinematics-only']

    assert severities() == ['error']
    assert severities('--target', 'rviz', '--target', 'moveit,kdl') == ['info']
    config = tmp_path / 'params.yaml'
    config.write_text("urdf_link_tools:\n  ros__parameters:\n    targets: ['rviz']\n")
    assert severities('--config', str(config)) == ['info']
    assert severities('--config', str(config), '--target', 'all') == ['error']
    code, _, err = _cli(['check', '--no-meshes', str(path), '--target', 'unity'])
    assert code == 4 and "unknown target 'unity'" in err


def test_targets_node_parameter_reaches_the_check_config():
    from urdf_link_tools.ros.parameters import settings_from_values
    assert settings_from_values({'targets': ['mujoco']}).check.targets == {'mujoco'}
    assert settings_from_values({'targets': ['']}).check.targets == set(TARGETS)
    with pytest.raises(ValueError, match='unknown target'):
        settings_from_values({'targets': ['webots']})


# --- a xacro template saved as .urdf ----------------------------------------------------

TEMPLATE = """<robot name="rover" xmlns:xacro="http://ros.org/wiki/xacro">
  <xacro:property name="wheel_mass" value="1"/><xacro:property name="wy" value="0.2"/>
  <link name="chassis"><inertial><mass value="10"/><inertia ixx="0.1" ixy="0" ixz="0"
    iyy="0.1" iyz="0" izz="0.1"/></inertial><collision><geometry><box size="0.5 0.3 0.1"/>
    </geometry></collision></link>
""" + ''.join(f"""  <link name="{side}"><inertial><mass value="${{wheel_mass}}"/><inertia
    ixx="0.002" ixy="0" ixz="0" iyy="0.003" iyz="0" izz="0.002"/></inertial><collision><origin
    rpy="1.5708 0 0"/><geometry><cylinder radius="0.08" length="0.04"/></geometry></collision>
  </link>
  <joint name="j_{side}" type="continuous"><parent link="chassis"/><child link="{side}"/>
    <origin xyz="0 ${{{sign}wy}} 0"/><axis xyz="0 1 0"/></joint>
""" for side, sign in (('left', ''), ('right', '-'))) + '</robot>'


def test_a_xacro_template_read_as_urdf_is_one_error_and_no_check():
    # RoverRobotics' .urdf files are xacro templates: read as URDF, each ${...} was an error,
    # each wheel "has no <inertial>", and both wheels, at identity origins, overlapped.
    analysis = analyze(parse_urdf_string(TEMPLATE, 'rover.urdf'), CheckConfig())
    (finding,) = analysis.findings
    assert finding.rule == 'xacro-unexpanded' and finding.severity == Severity.ERROR
    assert finding.message.startswith('rover.urdf is a xacro template read as URDF: 4 values '
                                      'are xacro, not numbers (the first: <mass '
                                      'value="${wheel_mass}"> in link \'left\'')
    assert finding.line == 6 and '--xacro' in finding.suggestion
    # Without the xacro namespace, a stray ${...} is its own error, and the checks run.
    plain = TEMPLATE.replace(' xmlns:xacro="http://ros.org/wiki/xacro"', '').replace(
        '<xacro:property name="wheel_mass" value="1"/><xacro:property name="wy" value="0.2"/>',
        '')
    rules = {f.rule for f in analyze(parse_urdf_string(plain, 'rover.urdf'),
                                     CheckConfig()).findings}
    assert 'parse-invalid-number' in rules and 'xacro-unexpanded' not in rules
    assert 'collision-overlap-at-rest' in rules  # (the fallback origins: why it stops above)
    # DRCSim's atlas_v4.urdf: ${...} left in four origins of two links, one fault said once
    stray = [f for f in analyze(parse_urdf_string(plain, 'rover.urdf'), CheckConfig()).findings
             if f.rule == 'parse-invalid-number']
    assert len(stray) == 1 and stray[0].severity == Severity.ERROR
    assert stray[0].message.startswith('4 values are xacro expressions, not numbers, in a URDF '
                                       'that does not use xacro (left (lines'), stray[0].message
    assert stray[0].links == ('left', 'right')


def test_unexpanded_xacro_mesh_paths_are_one_finding_not_one_per_mesh(tmp_path):
    from urdf_link_tools.meshes import MeshLibrary

    mesh = '<geometry><mesh filename="package://$(arg description)/meshes/{}.stl"/></geometry>'
    text = chain([f'<visual>{mesh.format(i)}</visual><collision>{mesh.format(i)}</collision>'
                  + MASS for i in range(3)])
    path = tmp_path / 'robot.urdf'
    path.write_text(text)
    analysis = analyze(parse_urdf_string(text, str(path)), CheckConfig(),
                       MeshLibrary(use_ament_index=False))
    found = [f for f in analysis.findings if f.rule == 'xacro-unexpanded']
    assert len(found) == 1 and found[0].severity == Severity.ERROR
    assert found[0].links == ('l0', 'l1', 'l2') and '6 mesh filenames' in found[0].message
    assert not [f for f in analysis.findings if f.rule == 'mesh-not-found']
    # a package that is not found: one finding naming it (not xacro-unexpanded)
    plain = text.replace('$(arg description)', 'missing_pkg')
    analysis = analyze(parse_urdf_string(plain, str(path)), CheckConfig(),
                       MeshLibrary(use_ament_index=False))
    (missing,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    assert missing.links == ('l0', 'l1', 'l2') and missing.severity == Severity.ERROR
    assert "package 'missing_pkg' was not found: 6 meshes (3 collision)" in missing.message
    assert '--package-dir missing_pkg=/path/to/missing_pkg ' in missing.suggestion
    assert not [f for f in analysis.findings if f.rule == 'xacro-unexpanded']
    # pybullet_data's xarm: a folder of that name beside the description is named
    (tmp_path / 'missing_pkg').mkdir()
    analysis = analyze(parse_urdf_string(plain, str(path)), CheckConfig(),
                       MeshLibrary(use_ament_index=False))
    (missing,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    assert f'--package-dir missing_pkg={tmp_path / "missing_pkg"} ' in missing.suggestion
    assert 'a folder missing_pkg lies beside the description' in missing.suggestion
    (tmp_path / 'missing_pkg').rmdir()
    # files missing from a folder that exists: one finding naming the files (NAO's package
    # found with none of its meshes gave one per file, Go2's hip.dae one per leg)
    files = text.replace('package://$(arg description)/meshes', str(tmp_path))
    analysis = analyze(parse_urdf_string(files, str(path)), CheckConfig(),
                       MeshLibrary(use_ament_index=False))
    (missing,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    assert missing.links == ('l0', 'l1', 'l2') and missing.severity == Severity.ERROR
    assert missing.message.startswith(f'3 mesh files named in {tmp_path} do not exist '
                                      f'({tmp_path}/0.stl, {tmp_path}/1.stl, {tmp_path}/2.stl)'
                                      ': 6 meshes (3 collision) on 3 links are not checked')
    # the same in a package that was found
    package = tmp_path / 'pkg'
    (package / 'meshes').mkdir(parents=True)
    found_package = text.replace('$(arg description)', 'pkg')
    analysis = analyze(parse_urdf_string(found_package, str(path)), CheckConfig(),
                       MeshLibrary(package_dirs={'pkg': str(package)}, use_ament_index=False))
    (missing,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    assert missing.message.startswith("package 'pkg' was found, but 3 of the mesh files named "
                                      'in it do not exist (package://pkg/meshes/0.stl, ')
    assert dict(missing.values)['package_files'] == 'pkg'
    # a file whose near name exists (a typo) is reported on its own, with the file meant
    (package / 'meshes' / '1.STL').write_bytes(b'')
    analysis = analyze(parse_urdf_string(found_package, str(path)), CheckConfig(),
                       MeshLibrary(package_dirs={'pkg': str(package)}, use_ament_index=False))
    grouped, *apart = sorted((f for f in analysis.findings if f.rule == 'mesh-not-found'),
                             key=lambda f: bool(f.link))
    assert grouped.links == ('l0', 'l2') and '2 of the mesh files' in grouped.message
    # (one finding for its visual and collision: the same file)
    assert [(f.link, f.element) for f in apart] == [('l1', 'collision[0]')]
    assert 'did you mean package://pkg/meshes/1.STL?' in apart[0].suggestion
    assert '(the same file as its visual[0])' in apart[0].message
    # fewer than three elements: one by one
    two = chain([f'<visual>{mesh.format(0)}</visual><collision>{mesh.format(0)}</collision>'
                 + MASS, MASS, MASS]).replace('$(arg description)', 'pkg')
    analysis = analyze(parse_urdf_string(two, str(path)), CheckConfig(),
                       MeshLibrary(package_dirs={'pkg': str(package)}, use_ament_index=False))
    apart = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    assert [f.link for f in apart] == ['l0']


def test_xacro_syntax_only_in_names_is_an_info():
    text = chain([full()] * 3).replace('name="l', 'name="${prefix}l')
    found = findings(text, 'xacro-unexpanded')
    assert [(f.severity, len(f.links)) for f in found] == [(Severity.INFO, 3)]


def test_a_small_hinge_between_colliding_parts_is_an_info_a_large_part_a_warning():
    hinge = f'{MASS}<visual><geometry><box size="0.03 0.03 0.03"/></geometry></visual>'
    text = chain([full(), full(), hinge, full()])
    found = findings(text, 'collision-missing')
    assert [(f.link, f.severity) for f in found] == [('l2', Severity.INFO)]
    # the message says why it is an info (the same words as a warning's said nothing)
    assert found[0].message.endswith('(an info: a part under 8 cm between links that '
                                     'collide on both sides, whose shapes cover it in '
                                     'practice)')
    part = f'{MASS}<visual><geometry><box size="0.2 0.1 0.1"/></geometry></visual>'
    found = findings(chain([full(), full(), part, full()]), 'collision-missing')
    assert [(f.link, f.severity) for f in found] == [('l2', Severity.WARNING)]
    assert 'an info' not in found[0].message
    # the last link of a chain has nothing below it: not a hinge
    found = findings(chain([full(), full(), full(), hinge]), 'collision-missing')
    assert [(f.link, f.severity) for f in found] == [('l3', Severity.WARNING)]


def test_a_collision_token_for_a_visible_part_is_said_as_missing():
    # KUKA KR 16 R2010-2's flange: a 5 x 5 x 0.8 mm collision box for a 67 mm part. A
    # marker-sized visual, or a token as big as its visual, says nothing.
    def flange(visual, collision):
        return (f'{MASS}<visual><geometry><box size="{visual}"/></geometry></visual>'
                f'<collision><geometry><box size="{collision}"/></geometry></collision>')

    found = findings(chain([full(), full(), flange('0.067 0.067 0.014', '0.005 0.005 0.0008')]),
                     'collision-missing')
    assert [(f.link, f.severity) for f in found] == [('l2', Severity.WARNING)]
    assert found[0].message.startswith('the link collides as 7.12 mm of geometry where it draws '
                                       'a part 0.0958 m across: a stand-in, not its shape')
    for visual, collision in (('0.008 0.004 0.002', '0.005 0.005 0.0008'),
                              ('0.03 0.03 0.005', '0.005 0.005 0.005'),
                              ('0.067 0.067 0.014', '0.05 0.05 0.01')):
        assert not findings(chain([full(), full(), flange(visual, collision)]),
                            'collision-missing'), (visual, collision)
    # uuv_simulator's RexROV: 8 thrusters and 6 sensors from two macros, each a token of a
    # few micrometres (14 warnings): from 3 links, one finding listing them.
    tokens = [flange('0.2 0.1 0.1', '0.000003 0.000003 0.000003')] * 3
    (group,) = findings(chain([full()] + tokens), 'collision-missing')
    assert group.links == ('l1', 'l2', 'l3') and group.severity == Severity.WARNING
    assert group.message.startswith('3 links collide as tokens of 0.0052 mm where they draw '
                                    'parts 0.245 m across (l1, l2, l3): stand-ins'), \
        group.message


def test_small_hinges_without_collision_on_many_links_are_one_note():
    # TIAGo's four casters (one macro): four identical infos became one listing them;
    # two stay per link.
    hinge = f'{MASS}<visual><geometry><box size="0.03 0.03 0.03"/></geometry></visual>'
    text = chain([full(), hinge, full(), full(), hinge, full(), full(), hinge] + [full()] * 6)
    assert not findings(text, 'robot-collision-partial')  # 3 of 14 bodies, all hinges
    (found,) = findings(text, 'collision-missing')
    assert found.link is None and found.links == ('l1', 'l4', 'l7')
    assert found.severity == Severity.INFO
    assert found.message.startswith('3 small parts have visual geometry and no <collision>')
    two = findings(chain([full(), hinge, full(), full(), hinge] + [full()] * 9),
                   'collision-missing')
    assert [(f.link, f.severity) for f in two] == [('l1', Severity.INFO),
                                                   ('l4', Severity.INFO)]


def test_parts_left_without_collision_are_one_finding_whatever_their_share():
    # Spot's four hips: one robot-collision-partial finding without the arm (4 of 13
    # bodies), four collision-missing warnings with it (4 of 21, under a quarter). Now one
    # finding either way; a small hinge between colliding links stays an info of its own.
    part = f'{MASS}<visual><geometry><box size="0.2 0.1 0.1"/></geometry></visual>'
    hinge = f'{MASS}<visual><geometry><box size="0.03 0.03 0.03"/></geometry></visual>'
    bodies = [full()] * 4 + [part, full(), part, full(), part, full(), part] + [full()] * 9 \
        + [hinge, full()]
    text = chain(bodies)
    (grouped,) = findings(text, 'robot-collision-partial')
    assert grouped.links == ('l4', 'l6', 'l8', 'l10') and grouped.severity == Severity.WARNING
    assert '4 of the 22 bodies, parts left without collision' in grouped.message
    found = findings(text, 'collision-missing')
    assert [(f.link, f.severity) for f in found] == [('l20', Severity.INFO)]
    # two parts left out are two gaps, each said on its link
    found = findings(chain(bodies[:8] + [full()] * 13), 'collision-missing')
    assert [(f.link, f.severity) for f in found] == [('l4', Severity.WARNING),
                                                     ('l6', Severity.WARNING)]
    assert not findings(chain(bodies[:8] + [full()] * 13), 'robot-collision-partial')


def test_two_parts_and_two_hinges_left_without_collision_are_one_finding():
    # Unitree H1_2: both hip-yaw links (0.229 m) and both ankle-pitch links (7 cm, between
    # colliding links) have no collision: two warnings and two infos became one finding.
    part = f'{MASS}<visual><geometry><box size="0.2 0.1 0.1"/></geometry></visual>'
    hinge = f'{MASS}<visual><geometry><box size="0.03 0.03 0.03"/></geometry></visual>'
    bodies = [full(), part, full(), hinge, full(), part, full(), hinge] + [full()] * 13
    (grouped,) = findings(chain(bodies), 'robot-collision-partial')
    assert grouped.links == ('l1', 'l3', 'l5', 'l7') and grouped.severity == Severity.WARNING
    assert '(l1, l3, l5, l7; l3, l7 are small parts under 8 cm between links that collide ' \
        'on both sides)' in grouped.message
    assert not findings(chain(bodies), 'collision-missing')
    # three hinges are a note of their own: the two parts stay per link beside it
    three = bodies[:8] + [full(), hinge, full()] + [full()] * 10
    assert not findings(chain(three), 'robot-collision-partial')
    assert sorted((f.link, f.severity) for f in findings(chain(three), 'collision-missing')
                  if f.link) == [('l1', Severity.WARNING), ('l5', Severity.WARNING)]


def test_locked_joints_on_many_links_are_one_finding():
    root = etree.fromstring(chain([full()] * 5))
    for limit in root.iter('limit'):
        limit.set('lower', '0.5')
        limit.set('upper', '0.5')
    found = findings(etree.tostring(root).decode(), 'joint-range-zero')
    assert len(found) == 1 and found[0].links == ('l1', 'l2', 'l3', 'l4')
    assert found[0].severity == Severity.WARNING and \
        found[0].message.startswith('4 revolute joints (j1, j2, j3, j4): lower and upper are '
                                    'equal on each: MoveIt, Gazebo and limit-aware IK '
                                    "(Pinocchio's position limits) keep each joint there")


BROKEN = ('<inertial><mass value="1"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" '
          'iyz="0" izz="0.004"/></inertial>')  # 0.001 + 0.001 < 0.004: no body has it


@pytest.mark.parametrize('copies', [2, 3, 5])
def test_a_tensor_breaking_a_rule_on_3_links_is_one_finding_with_each_fix(copies):
    # Allegro's fingers: one tensor breaking A + B >= C on three links is one choice. The
    # finding lists them and keeps each link's fix for --fix-inertia; two stay per link
    # (an inline suppression of one of them keeps its meaning: test_ci_suppression).
    bodies = [MASS + f'<collision>{BOX}</collision>'] + \
        [BROKEN + f'<collision>{BOX}</collision>'] * copies
    found = findings(chain(bodies), 'inertia-triangle-inequality')
    names = tuple(f'l{i}' for i in range(1, copies + 1))
    if copies < 3:
        assert [f.link for f in found] == list(names)
        return
    assert len(found) == 1 and found[0].link is None and found[0].links == names
    assert found[0].severity == Severity.ERROR
    assert f'{copies} links declare the same tensor' in found[0].message
    assert 'A + B >= C' in found[0].message
    assert [name for name, _ in found[0].links_suggested_inertia] == list(names)
    assert found[0].suggestion.startswith('each link its own; for l1: ')


def test_a_second_link_of_a_grouped_name_keeps_its_own_tensor_finding():
    # Findings name links, so a duplicated name must not hide the second definition's
    # finding behind the first's group (urdfdom keeps the first; this tool checks both).
    bodies = ''.join(f'<link name="l{i}">{BROKEN}</link>' for i in range(1, 4))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="l0"/><child link="l{i}"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>' for i in range(1, 4))
    text = f'<robot name="r"><link name="l0"/>{bodies}<link name="l1">{BROKEN}</link>{joints}' \
        '</robot>'
    found = findings(text, 'inertia-triangle-inequality')
    assert [(f.link, f.links) for f in found] == [(None, ('l1', 'l2', 'l3')), ('l1', ())]


@pytest.mark.parametrize('zeroed,grouped', [(2, False), (3, True), (6, True)])
def test_the_same_zero_limits_on_many_joints_are_one_finding(zeroed, grouped):
    # RealMan's RM75 with an Inspire hand: effort and velocity 0 on the arm's six joints,
    # the hand's joints written out: one finding, not six (too few for placeholder limits).
    text = chain([full()] * 21)
    for index in range(1, zeroed + 1):
        text = text.replace(f'<child link="l{index}"/><origin xyz="0 0 0.2"/><axis xyz="0 0 1"/>'
                            '<limit lower="-1" upper="1" effort="10" velocity="1"/>',
                            f'<child link="l{index}"/><origin xyz="0 0 0.2"/><axis xyz="0 0 1"/>'
                            '<limit lower="-1" upper="1" effort="0" velocity="0"/>')
    assert not findings(text, 'robot-placeholder-limits')
    found = findings(text, 'joint-limit-zero')
    names = tuple(f'j{index}' for index in range(1, zeroed + 1))
    if not grouped:
        assert [f.element for f in found] == [f'joint "{name}"' for name in names]
        return
    (finding,) = found
    assert finding.link is None and finding.severity == Severity.INFO
    assert finding.links == tuple(f'l{index}' for index in range(1, zeroed + 1))
    assert finding.message.startswith(f'{zeroed} revolute joints (' + ', '.join(names)
                                      + '): effort and velocity are 0: each joint can apply '
                                      'no force')


def test_bullets_no_limit_idiom_on_many_joints_is_one_finding():
    # Bullet's pendulum and tendon models: lower="1" upper="0" on 15 joints, Bullet's way of
    # saying "no limit" (URDF2Bullet adds a limit only when lower <= upper): one error that
    # says so and offers type="continuous", not 15 that say "swap lower and upper".
    text = chain([full()] * 6).replace('lower="-1" upper="1"', 'lower="1" upper="0"')
    (finding,) = findings(text, 'joint-range-inverted')
    assert finding.link is None and finding.severity == Severity.ERROR
    assert finding.message.startswith('5 revolute joints (j1, j2, j3, j4, j5): lower 1 is '
                                      'greater than upper 0')
    assert 'Bullet reads lower > upper as no limit' in finding.message
    assert finding.suggestion.endswith('use type="continuous"')
    assert dict(finding.values)['joints'] == 'j1, j2, j3, j4, j5'


def test_a_refused_capsule_collision_is_its_parse_finding_only():
    # Fourier's GR1T1: 14 <capsule> collisions on 12 links. They were a parse error and the
    # same links again in robot-collision-partial ("no <collision>"); they have one.
    capsule = (f'{MASS}<visual>{BOX}</visual><collision><geometry><capsule radius="0.05" '
               'length="0.2"/></geometry></collision>')
    text = chain([full()] + [capsule] * 4 + [full()] * 3)
    assert not findings(text, 'robot-collision-partial')
    assert not findings(text, 'collision-missing')
    (parse,) = findings(text, 'parse-invalid-geometry')
    assert "<capsule> is SDF's and Drake's, not URDF's; use a <cylinder> of its radius and " \
        'length' in parse.message and '(the same in 4 places' in parse.message


def test_a_link_with_a_shape_not_read_is_not_judged_by_the_rest_of_its_shapes():
    # Bullet's humanoid: each forearm is a capsule from the elbow (the origin) to the hand
    # and a sphere at the hand. With the capsule refused, the centre of mass at the elbow
    # was "0.242 m outside the collision geometry" and the tensor "18x" the sphere's: the
    # rest of a link's shapes is not its body. A shape not read is unknown, as a mesh that
    # did not load.
    arm = ('<inertial><mass value="1.23"/><inertia ixx="0.01374" ixy="0" ixz="0" '
           'iyy="0.01419" iyz="0" izz="0.01419"/></inertial>'
           '<collision><origin xyz="0.09 0.09 0.09" rpy="0 0.9553 0.7854"/><geometry>'
           '<capsule length="0.277" radius="0.031"/></geometry></collision>'
           '<collision><origin xyz="0.18 0.18 0.18"/><geometry><sphere radius="0.04"/>'
           '</geometry></collision>')
    rules = ('com-outside-geometry', 'inertia-geometry-mismatch', 'inertia-exceeds-extent',
             'density-implausible')
    text = chain([full(), arm, full()])
    found = analyze(parse_urdf_string(text), NO_MESHES).findings
    assert [f.rule for f in found if f.link == 'l1' and f.rule in rules] == []
    assert [f.rule for f in found if f.rule == 'parse-invalid-geometry'] == \
        ['parse-invalid-geometry']
    # Without the capsule at all, the sphere is the link's whole shape, and judged.
    alone = arm.split('<collision>', 2)
    alone = chain([full(), alone[0] + '<collision>' + alone[2], full()])
    judged = {f.rule for f in analyze(parse_urdf_string(alone), NO_MESHES).findings
              if f.link == 'l1'}
    assert {'com-outside-geometry', 'inertia-geometry-mismatch'} <= judged, judged


def test_drakes_point_contact_spheres_are_one_finding_that_names_them():
    # Drake's Atlas: six radius-0 spheres on each foot, point contacts for Drake, refused by
    # MuJoCo: one finding, not twelve, and a fix for the engines that have none.
    points = ''.join(f'<collision><origin xyz="{x} 0 0"/><geometry><sphere radius="0"/>'
                     '</geometry></collision>' for x in (0.1, 0.0, -0.1))
    text = chain([full(), full() + points, full() + points, full()])
    (finding,) = findings(text, 'geometry-degenerate')
    assert finding.link is None and finding.links == ('l1', 'l2')
    assert finding.severity == Severity.ERROR
    assert finding.message.startswith('6 shapes of one zero or negative size (l1, l2); the '
                                      'first: the <sphere> has zero or negative dimensions: '
                                      'radius=0')
    assert '(Drake reads it as a point contact; other engines have none)' in finding.message
    # two stay per element
    two = chain([full(), full() + points.split('</collision>', 1)[0] + '</collision>',
                 full() + points.split('</collision>', 1)[0] + '</collision>', full()])
    assert [f.link for f in findings(two, 'geometry-degenerate')] == ['l1', 'l2']


#: a camera link whose tensor breaks A + B >= C, welded to a base whose sum with it is valid
WELDED_CAMERA = (
    '<robot name="r"><link name="base"><inertial><mass value="20"/><inertia ixx="0.5" ixy="0" '
    'ixz="0" iyy="0.5" iyz="0" izz="0.5"/></inertial></link><link name="camera"><inertial>'
    '<mass value="0.05"/><inertia ixx="0.00001" ixy="0" ixz="0" iyy="0.00001" iyz="0" '
    'izz="0.0001"/></inertial></link><joint name="camera_joint" type="fixed"><parent '
    'link="base"/><child link="camera"/><origin xyz="0.2 0 0.1"/></joint></robot>')


def test_gazebo_is_not_said_to_refuse_a_welded_tensor_its_lumped_body_makes_valid():
    # ANYmal C's welded cameras: "no rigid body has them, Gazebo and MuJoCo refuse them".
    # MuJoCo does (checked with 4.0); Gazebo lumps a fixed joint's child into its parent
    # first and checks the sum, valid here. A <gazebo> that keeps the joint: Gazebo's again.
    text = WELDED_CAMERA
    (finding,) = findings(text, 'inertia-triangle-inequality')
    assert finding.link == 'camera'
    assert finding.message.endswith(
        "no rigid body has them, MuJoCo refuses them; Gazebo lumps it into 'base' (fixed "
        'joints), whose combined tensor is valid'), finding.message
    kept = text.replace('</robot>', '<gazebo reference="camera_joint"><preserveFixedJoint>'
                                    'true</preserveFixedJoint></gazebo></robot>')
    (finding,) = findings(kept, 'inertia-triangle-inequality')
    assert finding.message.endswith('no rigid body has them, Gazebo and MuJoCo refuse them')


def test_a_welded_tensor_only_mujoco_refuses_is_a_warning_without_mujoco():
    # PR2's stereo mounts (sweep K) with --target gazebo: an error failing CI "though Gazebo
    # lumps it into 'head_tilt_link' ..., whose combined tensor is valid"; nothing selected
    # refuses it. With MuJoCo selected (it refuses before fusing), or not welded: an error.
    text = WELDED_CAMERA
    for targets, severity in ((('gazebo',), Severity.WARNING), (('kdl',), Severity.WARNING),
                              (('gazebo', 'mujoco'), Severity.ERROR)):
        config = CheckConfig(check_meshes=False, targets=frozenset(targets))
        (finding,) = findings(text, 'inertia-triangle-inequality', config)
        assert finding.severity == severity, targets
    moving = text.replace('type="fixed"', 'type="revolute"').replace(
        '</joint>', '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" '
        'velocity="1"/></joint>')
    (finding,) = findings(moving, 'inertia-triangle-inequality',
                          CheckConfig(check_meshes=False, targets=frozenset(('gazebo',))))
    assert finding.severity == Severity.ERROR


def test_a_zero_size_shape_drawn_and_collided_is_one_finding():
    # Kinova's two-arm root: <box size="0 0 0"> as its visual and its collision was an info
    # and an error; one error, which says the visual is the same shape.
    zero = '<geometry><box size="0 0 0"/></geometry>'
    text = chain([f'<visual>{zero}</visual><collision>{zero}</collision>', full(), full()])
    (finding,) = findings(text, 'geometry-degenerate')
    assert finding.severity == Severity.ERROR and finding.element == 'collision[0]'
    assert finding.message.endswith('; visual[0] is the same shape'), finding.message
    # where no target minds the collision, the visual is said alone, as before
    rviz = CheckConfig(check_meshes=False, targets=frozenset({'rviz'}))
    (alone,) = findings(text, 'geometry-degenerate', rviz)
    assert alone.element == 'visual[0]' and alone.severity == Severity.INFO


def test_meshes_of_a_folder_that_is_not_there_are_one_finding(tmp_path):
    # Bullet's kuka_iiwa/model_for_sdf.urdf: 8 collision meshes in meshes/coarse/, a folder
    # the repository does not have: 8 errors, each guessing a near name in meshes/, became
    # one finding about the folder.
    from urdf_link_tools.meshes import MeshLibrary
    (tmp_path / 'meshes').mkdir()
    for index in range(3):
        (tmp_path / 'meshes' / f'link_{index}.obj').write_bytes(b'')
    text = chain([full()] + [MASS + f'<collision><geometry><mesh filename="meshes/coarse/'
                             f'link_{index}.stl"/></geometry></collision>' for index in range(3)])
    path = tmp_path / 'r.urdf'
    analysis = analyze(parse_urdf_string(text, str(path)), CheckConfig(),
                       MeshLibrary(use_ament_index=False))
    (finding,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    assert finding.link is None and finding.links == ('l1', 'l2', 'l3')
    assert finding.message.startswith(f'the folder {tmp_path}/meshes/coarse does not exist: 3 '
                                      'meshes (3 collision) on 3 links are not checked')
    assert 'did you mean' not in finding.suggestion


def test_the_same_parse_problem_with_other_counts_and_lines_is_one_finding():
    # Unitree's exporter writes 2 to 5 <material> in every <visual>.
    colour = '<material name="m{}"><color rgba="1 1 1 1"/></material>'
    bodies = [MASS + f'<visual>{BOX}{"".join(colour.format(i) for i in range(count))}</visual>'
              for count in (1, 2, 5, 2)]
    # (Not with MuJoCo, whose mujoco-repeated-material error says it: checks.engines.)
    config = CheckConfig(check_meshes=False, targets=frozenset({'gazebo'}))
    (finding,) = findings(chain(bodies), 'parse-duplicate-material', config)
    assert finding.links == ('l1', 'l2', 'l3')
    assert finding.message.startswith('<visual> has 2 to 5 <material> elements; only the '
                                      'first is used by URDF readers (the same in 3 places')
    # One place alone keeps its count and line.
    (alone,) = findings(chain(bodies[:2]), 'parse-duplicate-material', config)
    assert alone.link == 'l1' and '(line ' in alone.message and 'has 2 <material>' in \
        alone.message


def legs(body, count=3):
    """Return a robot of ``count`` links l1.. on l0, each with ``body`` as its inner XML."""
    return chain([MASS + f'<visual>{BOX}</visual>'] + [body] * count)


def test_one_material_defined_nowhere_is_one_finding_listing_its_links():
    # A CAD exporter's material name on every link (Unitree H2's 'ID2'): one thing to define.
    used = f'<visual>{BOX}<material name="ID2"/></visual>' + MASS
    (finding,) = findings(legs(used), 'material-undefined')
    assert finding.links == ('l1', 'l2', 'l3')
    assert "3 visuals use the material 'ID2', which is not defined" in finding.message
    assert 'RViz draws the part in its default colour' in finding.message  # what it does
    assert 'define <material name="ID2">' in finding.suggestion
    # Two uses stay two findings (of links that are not mirrors).
    assert [f.link for f in findings(legs(used, 2), 'material-undefined')] == ['l1', 'l2']


def test_three_materials_defined_nowhere_are_one_finding():
    # Clearpath's platform macros without their materials file: clearpath_black, _white,
    # _yellow and _light_grey undefined, four findings for one include left out.
    names = ('black', 'white', 'yelow')
    text = chain([MASS + f'<visual>{BOX}</visual>'] + [
        f'<visual>{BOX}<material name="{name}"/></visual>' + MASS for name in names]
        + [f'<visual>{BOX}<material name="black"/></visual>' + MASS]).replace(
        '<link ', '<material name="yellow"><color rgba="1 1 0 1"/></material><link ', 1)
    (finding,) = findings(text, 'material-undefined')
    assert finding.link is None and finding.links == ('l1', 'l2', 'l3', 'l4')
    assert finding.message.startswith('3 materials are used and not defined (black, white, '
                                      'yelow), by 4 visuals of 4 links (l1, l2, l3, l4)')
    assert finding.suggestion.startswith('include the file that defines them')
    assert finding.suggestion.endswith("; for 'yelow' (did you mean 'yellow'?)")
    # two names are one finding too (sweep R: Ghost Spirit's xacro had two, its URDF one)
    two = text.replace('<material name="yelow"/>', '')
    (finding,) = findings(two, 'material-undefined')
    assert finding.message.startswith('2 materials are used and not defined (black, white), '
                                      'by 3 visuals of 3 links'), finding.message


def test_most_links_off_their_geometry_each_its_own_way_are_one_finding():
    # Dobot CR20 (its DOBOT_6Axis_ROS2_V4 description): all 7 links' tensors 49x to 3,040x
    # off their meshes, larger and smaller, no two alike: 7 warnings for one bad export.
    def body(mass, over):
        moment = 0.015 * mass / over  # a 0.3 m cube's is 0.015 m
        return (f'<inertial><mass value="{mass}"/><inertia ixx="{moment:.6g}" ixy="0" '
                f'ixz="0" iyy="{1.1 * moment:.6g}" iyz="0" izz="{1.2 * moment:.6g}"/>'
                '</inertial><collision><geometry><box size="0.3 0.3 0.3"/></geometry>'
                '</collision>')

    bad = [body(1.0, 15.0), body(2.0, 40.0), body(3.0, 200.0)]
    good = [body(4.0 + index, 1.0) for index in range(3)]
    (finding,) = findings(chain(good[:1] + bad), 'inertia-geometry-mismatch')
    assert finding.links == ('l1', 'l2', 'l3') and finding.link is None
    assert finding.message.startswith(
        '3 of the 4 links whose tensor can be compared with their collision geometry have '
        'one off it by '), finding.message
    assert 'the inertials do not describe these parts' in finding.message
    assert [name for name, _ in finding.links_suggested_inertia] == ['l1', 'l2', 'l3']
    # half the robot: each its own finding
    found = findings(chain(good + bad), 'inertia-geometry-mismatch')
    assert [f.link for f in found] == ['l3', 'l4', 'l5']


def test_a_placeholder_tensor_with_rounding_noise_is_one_finding():
    # Unitree B2's cameras: 1.68e-27 on the diagonal, products of noise that differ per link.
    bodies = [MASS] + [
        f'<inertial><mass value="4.19e-15"/><inertia ixx="1.68e-27" ixy="{ixy}" ixz="0" '
        f'iyy="1.68e-27" iyz="0" izz="1.68e-27"/></inertial>'
        for ixy in ('-9.81e-45', '1.84e-44', '0')]
    (finding,) = findings(chain(bodies), 'inertia-moment-tiny')
    assert finding.links == ('l1', 'l2', 'l3')
    assert '3 links declare the same tensor (ixx="1.68e-27" ixy="-9.81e-45"' in finding.message


def test_one_placeholder_mass_with_tensors_off_the_same_way_is_one_finding():
    # Unitree G1's fingertip force sensors: 1 g each, each tensor 11x to 20x smaller than
    # its geometry's, the tensors all different: one choice (the placeholder mass).
    def sensor(size, moment):
        return (f'<inertial><mass value="0.001"/><inertia ixx="{moment}" ixy="0" ixz="0" '
                f'iyy="{1.2 * moment}" iyz="0" izz="{1.4 * moment}"/></inertial>'
                f'<collision><geometry><box size="{size} {size} {size}"/></geometry>'
                '</collision>')
    bodies = [MASS] + [sensor(size, moment) for size, moment in (
        ('0.02', 1e-9), ('0.021', 2e-9), ('0.022', 3e-9))]
    (finding,) = findings(chain(bodies), 'inertia-geometry-mismatch')
    assert finding.links == ('l1', 'l2', 'l3')
    assert finding.message.startswith('3 links of the same mass (0.001 kg, a placeholder?) '
                                      'declare tensors each smaller than their collision')
    assert len(finding.links_suggested_inertia) == 3
    # Two such links stay two findings.
    assert len(findings(chain(bodies[:3]), 'inertia-geometry-mismatch')) == 2


def test_a_centre_of_mass_written_in_its_turned_inertial_frame_is_said_so():
    # Rainbow RB3-1200E: rpy="-1.5708 0 0" with the xyz in that turned frame, where URDF
    # applies the xyz in the link frame: 0.07 to 0.24 m outside each part, and a fix that
    # said to check the link frame. The part: a 0.1 x 0.1 x 0.4 m box centred 0.2 m up.
    def part(y, z):
        return ('<inertial><origin xyz="0 ' + y + ' ' + z + '" rpy="-1.5708 0 0"/>'
                '<mass value="1"/><inertia ixx="0.0138" ixy="0" ixz="0" iyy="0.0017" iyz="0" '
                'izz="0.0138"/></inertial><collision><origin xyz="0 0 0.2"/><geometry><box '
                'size="0.1 0.1 0.4"/></geometry></collision>')
    # turned by rpy, (0, -0.2, 0) in the inertial frame is (0, 0, 0.2) in the link frame
    (one,) = findings(chain([full(), part('-0.2', '0')]), 'com-outside-geometry')
    assert one.suggestion.startswith(
        'the xyz looks written in the inertial frame its rpy turns (rpy="-1.571 0 0"), where '
        'URDF applies it in the link frame, before the rpy: turned into the link frame, '
        'xyz="0 '), one.suggestion
    (group,) = findings(chain([full()] + [part('-0.2', '0')] * 3), 'com-outside-geometry')
    assert group.links == ('l1', 'l2', 'l3')
    assert group.message.startswith('3 links write their centre of mass in the inertial frame '
                                    'their rpy turns'), group.message
    # written in the link frame, it is inside: nothing
    assert not findings(chain([full(), part('0', '0.2')]), 'com-outside-geometry')


def test_one_inertial_on_parts_of_different_sizes_is_one_placeholder_finding():
    # KUKA KR 16-2 (ROS-Industrial): 2 kg, 0.01 kg m^2 on each axis, centre of mass at the
    # origin, on all 7 links of a 235 kg arm: 2 centres of mass outside and 2 densities
    # before, each plausible-looking alone, and nothing on the tensor or the placeholder.
    placeholder = ('<inertial><mass value="2"/><inertia ixx="0.01" ixy="0" ixz="0" '
                   'iyy="0.01" iyz="0" izz="0.01"/></inertial>')

    def part(size):
        return (placeholder + f'<collision><origin xyz="0 0 {size / 2}"/><geometry><box '
                f'size="{size / 3} {size / 3} {size}"/></geometry></collision>')
    text = chain([part(size) for size in (0.1, 0.3, 0.6, 0.9)])
    found = [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
             if f.rule.startswith(('inertia', 'density', 'com-', 'inertial-'))]
    assert [f.rule for f in found] == ['inertial-placeholder'], found
    (finding,) = found
    assert finding.links == ('l0', 'l1', 'l2', 'l3')
    assert finding.message == (
        '4 links declare the same inertia tensor (ixx="0.01" ixy="0" ixz="0" iyy="0.01" '
        'iyz="0" izz="0.01") though their parts are 0.111 to 0.995 m across (each 2 kg, each '
        'centre of mass at xyz="0 0 0"): a placeholder, not their mass properties (l0, l1, '
        'l2, l3); the robot weighs 8 kg in all; as written, l0, l1 exceed their physical '
        'bound'), finding.message
    assert finding.severity == Severity.ERROR
    # the geometry's tensors at the declared mass where one passes every rule (not where the
    # centre of mass at the origin lies on the part's face: its mass and centre are wanted)
    assert [name for name, _ in finding.links_suggested_inertia] == ['l1', 'l2']
    # one part's inertial on its copies (a hand's fingers) is not a placeholder
    same = chain([part(0.3)] * 4)
    assert not findings(same, 'inertial-placeholder')


def test_a_placeholder_of_equal_moments_is_one_whatever_frame_it_is_written_in():
    # pybullet's r2d2: ixx=iyy=izz=1 on all 16 links, the legs' turned by rpy="0 1.57075 0"
    # (a unit tensor in any frame): the legs were left out ("14 links") and had a finding
    # of their own about the same placeholder. One link, the gripper pole, gets no tensor
    # (its centre of mass at its end): the fix says so instead of "one per link".
    unit = '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'

    def part(size, rpy='0 0 0', mass=10, at=0.0):
        return (f'<inertial><origin rpy="{rpy}"/><mass value="{mass}"/>{unit}</inertial>'
                f'<collision><origin xyz="0 0 {at}"/><geometry><box size="{size / 3} '
                f'{size / 3} {size}"/></geometry></collision>')
    legs = [part(0.9, rpy='0 1.57075 0')] * 2
    pole = part(0.2, mass=0.05, at=0.1)
    text = chain([part(0.1, mass=1), part(0.6), *legs, part(0.3, mass=1), pole])
    (finding,) = findings(text, 'inertial-placeholder')
    assert finding.links == ('l0', 'l1', 'l2', 'l3', 'l4', 'l5')
    assert finding.message.startswith('6 links declare the same inertia tensor (ixx="1" '
                                      'ixy="0" ixz="0" iyy="1" iyz="0" izz="1") though')
    assert not [f for f in analyze(parse_urdf_string(text), NO_MESHES).findings
                if f.rule.startswith('inertia-exceeds')]
    assert finding.suggestion.endswith(
        '(--fix-inertia writes one on 5 of them; not on l5, for which no tensor of its '
        'geometry passes every rule about the declared centre of mass: check it)'), \
        finding.suggestion
    # a tensor of unequal moments turned another way is another tensor: not grouped
    turned = [part(0.9, rpy='0 1.57075 0').replace('izz="1"', 'izz="1.5"')] * 2 + \
        [part(size, mass=1).replace('izz="1"', 'izz="1.5"') for size in (0.1, 0.3, 0.6)]
    (apart,) = findings(chain(turned), 'inertial-placeholder')
    assert apart.links == ('l2', 'l3', 'l4')


def test_parts_inside_a_neighbours_collision_box_are_not_left_without_collision():
    # Legged robots built for simulation (Booster T1, Berkeley Humanoid Lite, AgiBot X1):
    # small hip-motor links nested in the trunk have no <collision>; nothing reaches them
    # without touching the trunk first. They were "a visual model", fix "add a <collision>".
    def robot(depth):
        trunk = (f'<link name="trunk">{MASS}<collision><geometry><box size="0.3 0.4 0.4"/>'
                 '</geometry></collision></link>')
        motor = f'{MASS}<visual><geometry><box size="0.06 0.06 0.06"/></geometry></visual>'
        parts = ''.join(
            f'<link name="hip{i}">{motor}</link><joint name="j{i}" type="revolute">'
            f'<parent link="trunk"/><child link="hip{i}"/><origin xyz="0 {y} {depth}"/>'
            '<axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            for i, y in enumerate((-0.1, 0.0, 0.1)))
        return f'<robot name="r">{trunk}{parts}</robot>'
    inside = robot(-0.15)
    assert not findings(inside, 'robot-collision-partial')
    assert not findings(inside, 'collision-missing')
    (outside,) = findings(robot(-0.5), 'robot-collision-partial')
    assert outside.links == ('hip0', 'hip1', 'hip2')


def _rotor(izz, ixx='0.002', origin=''):
    """Return a link body whose tensor's largest moment (izz) is about its joint's axis (z)."""
    return (f'<inertial>{origin}<mass value="1"/><inertia ixx="{ixx}" ixy="0" ixz="0" '
            f'iyy="0.002" iyz="0" izz="{izz}"/></inertial><collision>{BOX}</collision>')


def test_rotor_inertia_about_each_joint_axis_is_one_finding_with_no_tensor_to_write():
    # TOCABI (sweep M): 29 links whose largest moment, about their own joint's axis, breaks
    # A + B >= C by 0.01 to 1 kg m^2: a motor's rotor inertia seen through its gear folded
    # into the tensors. 17 errors (mirrors merged), each with a "slipped decimal" fix that
    # --fix-inertia would write, taking that inertia out of the dynamics: one finding now.
    text = _turning(chain([full(), _rotor('0.3'), _rotor('0.5'), _rotor('0.05'), full()]))
    (finding,) = findings(text, 'inertia-triangle-inequality')
    assert finding.links == ('l1', 'l2', 'l3') and finding.link is None
    assert finding.severity == Severity.ERROR and finding.suggested_inertia is None
    assert not finding.links_suggested_inertia
    assert finding.message.startswith(
        '3 links have tensors no rigid body has, each with its largest moment about the axis '
        'of its own joint, over the sum of the other two by 0.046 to 0.496 kg m^2 (l1, l2, '
        "l3): the inertia of a motor's rotor seen through its gear (armature) added to the "
        "link's tensor? Gazebo and MuJoCo refuse them"), finding.message
    assert '<joint armature>' in finding.suggestion
    # One turned so that the largest moment is across its joint's axis: two left on the
    # axis, each finding its own.
    across = text.replace('ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.3"',
                          'ixx="0.3" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.002"')
    assert [f.link for f in findings(across, 'inertia-triangle-inequality')] == [
        'l1', 'l2', 'l3']
    # ... unless the inertial frame turns that axis onto the joint's (rpy about y)
    onto = text.replace(_rotor('0.3'), _rotor('0.002', '0.3', '<origin rpy="0 1.5708 0"/>'))
    assert [f.links for f in findings(onto, 'inertia-triangle-inequality')] == [
        ('l1', 'l2', 'l3')]
    # Every joint about z, izz too big on each: no sign of rotors (a default izz written for
    # every link of a chain, test_xacro_sources' SEGMENTS): each its own finding.
    same_axis = chain([full(), _rotor('0.3'), _rotor('0.5'), _rotor('0.05'), full()])
    assert [f.link for f in findings(same_axis, 'inertia-triangle-inequality')] == [
        'l1', 'l2', 'l3']
    # Two links are not a design choice: each its own finding.
    two = _turning(chain([full(), _rotor('0.3'), _rotor('0.5'), full()]))
    assert [f.link for f in findings(two, 'inertia-triangle-inequality')] == ['l1', 'l2']


def _turning(text):
    """Return the chain with j2 turning about x: its link's tensor turned to match."""
    first, rest = text.split('<joint name="j2"', 1)
    rest = rest.replace('<axis xyz="0 0 1"/>', '<axis xyz="1 0 0"/>', 1)
    return (first + '<joint name="j2"' + rest).replace(
        '<inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.5"/>',
        '<inertia ixx="0.5" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.002"/>')


def test_a_file_that_tells_mujoco_to_balance_its_inertias_is_not_said_to_be_refused():
    # TOCABI's <mujoco><compiler balanceinertia="true"/>: MuJoCo loads the robot, setting a
    # broken triangle's moments to their average; "Gazebo and MuJoCo refuse them" was wrong.
    text = chain([full(), _rotor('0.3'), full()])
    balanced = text.replace('<robot name="r">', '<robot name="r"><mujoco><compiler '
                                                'balanceinertia="true"/></mujoco>')
    (before,) = findings(text, 'inertia-triangle-inequality')
    (after,) = findings(balanced, 'inertia-triangle-inequality')
    assert 'Gazebo and MuJoCo refuse them' in before.message
    assert after.message.endswith(
        'no rigid body has them, Gazebo refuses them; MuJoCo sets the three moments to their '
        'average (balanceinertia="true" in the file\'s <mujoco><compiler>)'), after.message
    assert after.severity == Severity.ERROR  # Gazebo still refuses them
    assert mujoco_compile(text) and not mujoco_compile(balanced)


def test_package_uris_with_three_slashes_are_said_to_name_no_package(tmp_path):
    # ToddlerBot's assemblies (sweep N): package:///meshes/x.stl on every link was "package
    # 'meshes' was not found", with --package-dir meshes=... as the fix (right by accident).
    from urdf_link_tools.config import CheckConfig as Config
    parts = [full() + f'<visual><geometry><mesh filename="package:///meshes/p{i}.stl"/>'
             '</geometry></visual>' for i in range(3)]
    text = chain(parts)
    robot = parse_urdf_string(text, str(tmp_path / 'r.urdf'))
    found = [f for f in analyze(robot, Config()).findings if f.rule == 'mesh-not-found']
    (finding,) = found
    assert finding.message.startswith(
        '3 mesh filenames are package:/// URIs (three slashes), which name no package: their '
        "first folder, 'meshes', was read as one and not found"), finding.message
    assert finding.suggestion.startswith('name the package that holds the meshes '
                                         '(package://PACKAGE/meshes/...)')


@pytest.mark.parametrize('rule, part', [
    # dVRK's MTM top panel (sweep N): its centre of mass 0.19 m outside its geometry was a
    # warning while its tensor's finding said it is an info there (no simulator moves it)
    ('com-outside-geometry',
     '<link name="part"><inertial><origin xyz="0 0 0.5"/><mass value="1"/><inertia '
     'ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.002"/></inertial>'
     f'<visual>{BOX}</visual><collision>{BOX}</collision></link>'),
    # DH's AG-95 demo pedestal (sweep S): a 1 m box with ixx=iyy=izz=1e-6, 8.4e6x off
    ('inertia-geometry-mismatch',
     '<link name="part"><inertial><mass value="100"/><inertia ixx="1e-6" ixy="0" ixz="0" '
     'iyy="1e-6" iyz="0" izz="1e-6"/></inertial><collision><geometry><box size="0.1 0.1 1"/>'
     '</geometry></collision></link>')])
def test_a_finding_on_a_body_welded_to_world_is_an_info(rule, part):
    # Welded to a massless 'world' (a fixed base): no simulator moves it
    grounded = (f'<robot name="r"><link name="world"/>{part}<joint name="fix" type="fixed">'
                '<parent link="world"/><child link="part"/></joint></robot>')
    (finding,) = findings(grounded, rule)
    assert finding.severity == Severity.INFO and "welded to 'world' (a fixed base)" in \
        finding.message, finding.message
    floating = grounded.replace('"world"', '"base"')
    (finding,) = findings(floating, rule)
    assert finding.severity == Severity.WARNING and 'welded' not in finding.message


@pytest.mark.parametrize('moments,mismatch', [(('9.75e-07', '4.17041e-05', '4.26041e-05'), False),
                                              (('1e-08', '1e-08', '1e-08'), True)])
def test_a_rotor_whose_collision_is_its_swept_disc_is_one_density_info(moments, mismatch):
    # The X3 drone's rotors (sweep S): 5 g blades whose collision is the 0.2 m disc they
    # sweep, 32 kg/m^3; a blade's tensor, 12.8x below the solid disc's moment, was a
    # warning beside the density's info, for one choice. A tensor far below any blade's
    # (a placeholder) is still said.
    ixx, iyy, izz = moments
    rotor = (f'<inertial><mass value="0.005"/><inertia ixx="{ixx}" ixy="0" ixz="0" '
             f'iyy="{iyy}" iyz="0" izz="{izz}"/></inertial><collision><geometry>'
             '<cylinder length="0.005" radius="0.1"/></geometry></collision>')
    text = ('<robot name="x3"><link name="base">' + full() + '</link><link name="rotor">'
            + rotor + '</link><joint name="spin" type="continuous"><parent link="base"/>'
            '<child link="rotor"/><axis xyz="0 0 1"/><limit effort="1" velocity="100"/>'
            '</joint></robot>')
    (density,) = findings(text, 'density-implausible')
    assert density.severity == Severity.INFO and '31.83 kg/m^3' in density.message
    assert bool(findings(text, 'inertia-geometry-mismatch')) == mismatch


def test_moments_of_one_radius_of_gyration_on_many_links_are_one_placeholder_scheme():
    # dVRK's MTM (sweep N): four links write ixx = iyy = izz = 10 x their mass (9, 10, 9
    # and 5 kg m^2 for 0.9, 1, 0.9 and 0.5 kg), a radius of gyration of 3.16 m on each:
    # four findings of one scheme, now one (each link keeping its own fix).
    def body(mass):
        moment = 10 * mass
        return (f'<inertial><mass value="{mass}"/><inertia ixx="{moment}" ixy="0" ixz="0" '
                f'iyy="{moment}" iyz="0" izz="{moment}"/></inertial><visual>{BOX}</visual>'
                f'<collision>{BOX}</collision>')
    text = chain([full(), body(0.9), body(1), body(0.5), full()])
    (finding,) = findings(text, 'inertia-exceeds-extent')
    assert finding.links == ('l1', 'l2', 'l3')
    assert finding.message.startswith(
        '3 links declare ixx = iyy = izz = 10 x their mass (a radius of gyration of 3.16 m '
        'on each: a placeholder scheme, I = k m)'), finding.message
    assert len(finding.links_suggested_inertia) == 3
    # two such links stay two findings
    two = chain([full(), body(0.9), body(0.5), full()])
    assert [f.link for f in findings(two, 'inertia-exceeds-extent')] == ['l1', 'l2']


def test_xacro_directives_left_in_a_document_read_as_urdf_are_one_warning():
    # MOGI's mogi_bot.urdf (sweep T), expanded by xacro in its launch file: checked as it
    # is, its <xacro:include> of the Gazebo file (camera, IMU, GPS, lidar) was skipped with a
    # note on standard error only, and JSON, SARIF and the annotations were clean.
    text = ('<robot name="bot" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
            '<xacro:property name="width" value="0.2"/>\n'
            '<xacro:include filename="$(find bot)/urdf/bot.gazebo"/>\n'
            '<link name="base">' + full() + '</link>\n'
            '<xacro:if value="true"><link name="lidar"/></xacro:if>\n'
            '</robot>')
    (finding,) = findings(text, 'xacro-unexpanded')
    assert finding.severity == Severity.WARNING and finding.line == 3
    assert finding.message.startswith(
        '2 xacro directives are left in a document read as plain URDF: <xacro:include '
        "'$(find bot)/urdf/bot.gazebo'> (line 3), <xacro:if 'true'> (line 5)"), finding.message
    assert 'property' not in finding.message
    # a definition alone changes nothing (myCobot's unused properties): nothing
    assert not findings(text.replace('<xacro:include filename="$(find bot)/urdf/bot.gazebo"/>',
                                     '').replace('<xacro:if value="true"><link name="lidar"/>'
                                                 '</xacro:if>', ''), 'xacro-unexpanded')


def test_one_moment_raised_on_most_links_is_one_finding():
    # Rokae's gazebo_xMateCR7.urdf (sweep T): every link's tensor with one moment raised by
    # 0.2 to 1.75 kg m^2 for Gazebo, not always about its joint's axis: 7 errors, each with
    # its own kind of fix, for one choice.
    def body(izz):
        return (f'<inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" '
                f'iyz="0" izz="{izz}"/></inertial>'
                '<collision><geometry><box size="0.3 0.3 0.3"/></geometry></collision>')

    found = findings(chain([body(1.0), body(1.2), body(1.5)]), 'inertia-triangle-inequality')
    (finding,) = found
    assert finding.links == ('l0', 'l1', 'l2') and finding.severity == Severity.ERROR
    assert finding.message.startswith(
        '3 links declare tensors no rigid body has, each with one moment more than twice the '
        'sum of the other two'), finding.message
    # a third of the links only: each its own
    good = ('<inertial><mass value="1"/><inertia ixx="0.015" ixy="0" ixz="0" iyy="0.015" '
            'iyz="0" izz="0.015"/></inertial>')
    found = findings(chain([body(1.0), body(1.2), body(1.5)] + [good] * 6),
                     'inertia-triangle-inequality')
    assert len(found) == 3
