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
collision-overlap-at-rest per target, each engine's claim checked against the engine.

MuJoCo 4.0 and Pinocchio are run on the same URDF text; Gazebo (not installed here) is
claimed from sdformat's sources: gz-sim collides a model's links only with the model's
``<self_collide>``, which a robot-level ``<gazebo>`` sets.
"""

from collision_robots import box_link, joint, robot
import numpy as np
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.parser import parse_urdf_string

# A test dependency: without it this module is skipped, and `make test` fails the run
# (test/conftest.py); in a plain workspace `colcon test-result` lists the skip.
mujoco = pytest.importorskip('mujoco')
pinocchio = pytest.importorskip('pinocchio')

RULE = 'collision-overlap-at-rest'
MASS = ('<inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" '
        'izz="0.01"/></inertial>')


def massive(name: str, size: str, xyz: str = '0 0 0') -> str:
    """Return a box link with mass (MuJoCo refuses a moving body without)."""
    return box_link(name, size, xyz, MASS)


# The trial's sibling_overlap.urdf: a cover welded to the base reaches into the torso, which
# slides on the base. Not adjacent for MoveIt; for MuJoCo the base and the cover are the
# world body, whose contacts with its children are not filtered.
SIBLINGS = robot('siblings', massive('base', '0.4 0.4 0.2'), massive('torso', '0.2 0.2 0.4'),
                 massive('cover', '0.3 0.3 0.2'),
                 joint('lift', 'prismatic', 'base', 'torso', '0 0 0.3', lower=0, upper=0.3),
                 joint('fix', 'fixed', 'base', 'cover', '0 0 0.25'))

# An arm turning on a torso that turns on the base: the torso's cover (welded to it) reaches
# into the arm. MoveIt sees them (not adjacent); MuJoCo fuses the cover into the torso body,
# the arm's parent, and skips the pair.
BELOW_A_MOVING_BODY = robot(
    'below', massive('base', '0.2 0.2 0.1'), massive('torso', '0.1 0.1 0.1', '0 0 0.3'),
    massive('cover', '0.2 0.2 0.1', '0 0 0.45'), massive('arm', '0.05 0.05 0.3', '0 0 0.15'),
    joint('jt', 'revolute', 'base', 'torso'), joint('jc', 'fixed', 'torso', 'cover'),
    joint('ja', 'revolute', 'torso', 'arm', '0 0 0.35', axis='1 0 0'))


def findings(text: str, targets=None):
    config = CheckConfig(check_meshes=False) if targets is None else \
        CheckConfig(check_meshes=False, targets=frozenset(targets))
    return [f for f in analyze(parse_urdf_string(text), config).findings if f.rule == RULE]


def mujoco_contacts(text: str, excludes=()):
    spec = mujoco.MjSpec.from_string(text)
    for first, second in excludes:
        spec.add_exclude(bodyname1=first, bodyname2=second)
    model = spec.compile()
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    return {tuple(sorted((model.body(model.geom_bodyid[c.geom1]).name,
                          model.body(model.geom_bodyid[c.geom2]).name)))
            for c in data.contact[:data.ncon]}


def test_mujoco_collides_a_link_welded_to_the_base_with_a_child_of_the_base():
    assert ('torso', 'world') in mujoco_contacts(SIBLINGS)
    (finding,) = findings(SIBLINGS, {'mujoco'})
    assert finding.severity == Severity.WARNING
    assert 'MuJoCo pushes them apart from the first step' in finding.message
    assert 'SRDF' not in finding.message + finding.suggestion
    assert '<exclude body1="world" body2="torso"/>' in finding.suggestion
    # the fix, as written, leaves MuJoCo no contact at start
    assert mujoco_contacts(SIBLINGS, [('world', 'torso')]) == set()


def test_mujoco_skips_a_body_and_its_parent_body_below_the_world():
    assert ('arm', 'torso') not in mujoco_contacts(BELOW_A_MOVING_BODY)
    assert findings(BELOW_A_MOVING_BODY, {'mujoco'}) == []
    (planner,) = findings(BELOW_A_MOVING_BODY, {'moveit'})
    assert {planner.link, dict(planner.values)['other_link']} == {'arm', 'cover'}
    assert planner.severity == Severity.WARNING and 'MuJoCo' not in planner.message


JOINED = 'mujoco-joined-links-collide'

# An arm's first link turning in a socket of its base: adjacent (MoveIt never checks the
# pair), but the base is MuJoCo's world body, whose children its filter does not spare.
ARM_IN_SOCKET = robot('socket', massive('base', '0.2 0.2 0.2'),
                      massive('link1', '0.1 0.1 0.3', '0 0 0.1'),
                      joint('j1', 'revolute', 'base', 'link1', '0 0 0.05'))


def joined(text: str, targets=('mujoco',), meshes=False):
    config = CheckConfig(check_meshes=meshes, targets=frozenset(targets))
    return [f for f in analyze(parse_urdf_string(text), config).findings if f.rule == JOINED]


def mujoco_depth_mm(text: str) -> float:
    """Return the deepest contact MuJoCo finds at rest, in mm."""
    model = mujoco.MjModel.from_xml_string(text)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    return -1000.0 * min(c.dist for c in data.contact[:data.ncon])


def turned(text: str, excludes=()) -> float:
    """Return how far (rad) 1 N m turns the first joint in 1 s of MuJoCo's simulation."""
    spec = mujoco.MjSpec.from_string(text)
    for first, second in excludes:
        spec.add_exclude(bodyname1=first, bodyname2=second)
    model = spec.compile()
    data = mujoco.MjData(model)
    for _ in range(int(round(1.0 / model.opt.timestep))):
        data.qfrc_applied[0] = 1.0
        mujoco.mj_step(model, data)
    return abs(float(data.qpos[0]))


def test_mujoco_collides_an_arm_with_the_fixed_base_it_turns_on():
    assert ('link1', 'world') in mujoco_contacts(ARM_IN_SOCKET)
    (finding,) = joined(ARM_IN_SOCKET)
    assert finding.severity == Severity.WARNING and finding.link == 'link1'
    assert mujoco_depth_mm(ARM_IN_SOCKET) == pytest.approx(100.0)
    assert "'link1' 100 mm into 'base' (the base, which MuJoCo welds to its world body)" in \
        finding.message, finding.message
    assert '<exclude body1="world" body2="link1"/>' in finding.suggestion
    assert mujoco_contacts(ARM_IN_SOCKET, [('world', 'link1')]) == set()
    # what the contact does: its friction holds the joint; excluded, 1 N m turns it freely
    for depth in (0.002, 0.1):
        text = ARM_IN_SOCKET.replace('"0 0 0.1"/><geometry><box size="0.1 0.1 0.3"',
                                     f'"0 0 {0.2 - depth}"/><geometry><box size="0.1 0.1 0.3"')
        assert turned(text) == pytest.approx(0.0, abs=1e-3)
        assert turned(text, [('world', 'link1')]) > 1.0
    # adjacent: no other engine collides them, and nothing else is said
    assert joined(ARM_IN_SOCKET, ('moveit', 'pinocchio', 'gazebo')) == []
    assert findings(ARM_IN_SOCKET) == []


def test_legs_in_a_floating_trunk_are_not_claimed():
    # Four legs in the trunk, reaching below it: MuJoCo loads the URDF welded to the world
    # and collides them, but a robot standing on legs gets a free joint there, under which
    # the filter spares them.
    legs = [part for leg, (x, y) in enumerate(((1, 1), (1, -1), (-1, 1), (-1, -1)))
            for part in (massive(f'hip{leg}', '0.1 0.1 0.3', '0 0 -0.1'),
                         joint(f'h{leg}', 'revolute', 'trunk', f'hip{leg}',
                               f'{0.2 * x} {0.1 * y} 0', axis='1 0 0'))]
    text = robot('dog', massive('trunk', '0.5 0.3 0.1'), *legs)
    assert ('hip0', 'world') in mujoco_contacts(text)
    assert joined(text) == []
    spec = mujoco.MjSpec.from_string(text)
    spec.body('trunk').add_freejoint()
    model = spec.compile()
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    assert data.ncon == 0


# A hip of two axes whose middle link has no collision geometry: the pelvis and the thigh
# are adjacent for MoveIt (through the shapeless link), two bodies apart for MuJoCo.
HIP = robot('hip', massive('stand', '0.1 0.1 0.1'), massive('pelvis', '0.3 0.3 0.1', '0 0 1'),
            f'<link name="roll">{MASS}</link>', massive('thigh', '0.1 0.1 0.4', '0 0 -0.1'),
            joint('jp', 'revolute', 'stand', 'pelvis'),
            joint('jr', 'revolute', 'pelvis', 'roll', '0 0 1', axis='1 0 0'),
            joint('jt', 'revolute', 'roll', 'thigh', axis='0 1 0'))


def test_mujoco_collides_links_joined_through_a_shapeless_one():
    assert ('pelvis', 'thigh') in mujoco_contacts(HIP)
    (finding,) = joined(HIP)
    assert mujoco_depth_mm(HIP) == pytest.approx(150.0)
    assert "'thigh' 150 mm into 'pelvis' (joined through 'roll', without collision " \
        'geometry)' in finding.message, finding.message
    assert '<exclude body1="pelvis" body2="thigh"/>' in finding.suggestion
    assert mujoco_contacts(HIP, [('pelvis', 'thigh')]) == set()
    assert joined(HIP, ('moveit',)) == [] and findings(HIP) == []


def test_pinocchio_collides_every_pair_the_srdf_leaves_and_skips_welded_ones():
    model = pinocchio.buildModelFromXML(SIBLINGS)
    geometry = pinocchio.buildGeomFromUrdfString(model, SIBLINGS, pinocchio.GeometryType.COLLISION)
    geometry.addAllCollisionPairs()
    data, geometry_data = model.createData(), pinocchio.GeometryData(geometry)
    pinocchio.computeCollisions(model, data, geometry, geometry_data, pinocchio.neutral(model),
                                False)

    def link_of(index):
        return geometry.geometryObjects[index].name.rsplit('_', 1)[0]

    hits = {tuple(sorted((link_of(p.first), link_of(p.second))))
            for p, result in zip(geometry.collisionPairs, geometry_data.collisionResults)
            if result.isCollision()}
    assert ('cover', 'torso') in hits
    pairs = {tuple(sorted((link_of(p.first), link_of(p.second))))
             for p in geometry.collisionPairs}
    assert ('base', 'cover') not in pairs  # welded: on the same joint
    pinocchio.removeCollisionPairsFromXML(
        model, geometry, '<robot name="siblings"><disable_collisions link1="cover" '
        'link2="torso" reason="Default"/></robot>')
    assert ('cover', 'torso') not in {tuple(sorted((link_of(p.first), link_of(p.second))))
                                      for p in geometry.collisionPairs}
    (finding,) = findings(SIBLINGS, {'pinocchio'})
    assert 'Pinocchio reports the pair' in finding.message
    assert '<disable_collisions link1="cover" link2="torso"' in finding.suggestion


# Two arms hung side by side from the base, overlapping: siblings in every engine.
TWO_ARMS = robot('two_arms', massive('base', '0.05 0.05 0.05', '0 0 -1'),
                 massive('left', '0.1 0.1 0.3'), massive('right', '0.1 0.1 0.3', '0.05 0 0'),
                 joint('jl', 'revolute', 'base', 'left'), joint('jr', 'revolute', 'base', 'right'))


@pytest.mark.parametrize('extension,collides', [
    ('', False),
    ('<gazebo><self_collide>true</self_collide></gazebo>', True),
    ('<gazebo><self_collide> 1 </self_collide></gazebo>', True),
    ('<gazebo><self_collide>false</self_collide></gazebo>', False),
    # a link's selfCollide becomes a link <self_collide>, which gz-sim does not read
    ('<gazebo reference="left"><selfCollide>true</selfCollide></gazebo>', False),
    # without reference sdformat reads only <static> itself and copies the rest as is: a
    # <selfCollide> there is no SDF model element
    ('<gazebo><selfCollide>true</selfCollide></gazebo>', False)])
def test_gazebo_sees_overlaps_only_with_the_models_self_collide(extension, collides):
    text = TWO_ARMS.replace('</robot>', extension + '</robot>')
    assert parse_urdf_string(text).gazebo_self_collide == collides
    found = findings(text, {'gazebo'})
    assert [f.severity for f in found] == ([Severity.WARNING] if collides else [])
    if collides:
        assert "drop <self_collide> from the robot's <gazebo>" in found[0].suggestion
        assert dict(found[0].values)['targets'] == 'gazebo'
    # Gazebo never collides links joined by a joint, the base's children included
    assert findings(SIBLINGS.replace('</robot>', extension + '</robot>'), {'gazebo'}) == []


def test_the_default_keeps_one_finding_naming_each_engine_and_its_fix():
    (finding,) = findings(SIBLINGS)
    assert finding.severity == Severity.WARNING
    assert dict(finding.values)['targets'] == 'mujoco,moveit,pinocchio'
    assert 'MoveIt (FCL) and Pinocchio see a start state in collision' in finding.message
    assert 'MuJoCo pushes them apart' in finding.message and 'Gazebo' not in finding.message
    assert 'reason="Default"/> to the SRDF' in finding.suggestion
    assert '<exclude body1="world" body2="torso"/>' in finding.suggestion
    assert findings(SIBLINGS, {'rviz', 'kdl'}) == []


def test_surfaces_that_touch_inside_deep_hulls_are_touching_without_mujoco(tmp_path):
    # Galaxea R1's fingers: 24.5 mm deep between their convex hulls (what MuJoCo collides),
    # the surfaces (what MoveIt and Pinocchio collide) only touching. Here an L-shaped part
    # (a plate and a wall) and a block resting 0.1 mm into the plate, inside the L's hull.
    from mesh_attacks import binary_stl, boxes
    binary_stl(tmp_path / 'l.stl', *boxes([((0, 0, 0), (0.1, 0.1, 0.01)),
                                          ((0.09, 0, 0), (0.1, 0.1, 0.1))]))
    text = robot('ell', massive('base', '0.05 0.05 0.05', '0 0 -1'),
                 '<link name="ell">' + MASS + '<collision><geometry><mesh filename="'
                 + str(tmp_path / 'l.stl') + '"/></geometry></collision></link>',
                 massive('block', '0.02 0.02 0.02', '0.05 0.05 0.0199'),
                 joint('je', 'revolute', 'base', 'ell'), joint('jb', 'revolute', 'base', 'block'))
    model = parse_urdf_string(text)
    (default,) = [f for f in analyze(model, CheckConfig()).findings if f.rule == RULE]
    assert default.severity == Severity.WARNING
    hulls = float(dict(default.values)['depth_mm'])
    assert hulls > 10.0 and 'between their convex hulls' in default.message
    for jobs in (1, 2):  # in this process, and in the forked child of a one-robot check
        (planner,) = [f for f in analyze(model, CheckConfig(
            targets=frozenset(('moveit', 'pinocchio'))), read_processes=jobs).findings
            if f.rule == RULE]
        assert planner.severity == Severity.INFO
        assert float(dict(planner.values)['depth_mm']) < 0.5
        assert 'touching (their surfaces part once moved' in planner.message
        assert f'their convex hulls overlap {hulls:.3g} mm' in planner.message


def test_a_wheel_whose_hull_coal_refuses_is_measured(tmp_path):
    # AutoRally's wheels (sweep V): a cylinder of 256 sides, its caps fanned around one
    # corner; coal's Qhull ('Qt') refused their hulls ("Too many neighbors"), so their
    # overlaps had no depth and fell under 1 mm: 71 mm in MuJoCo, not said.
    import trimesh
    from urdf_link_tools.meshes.hull import coal_qhull
    wheel = trimesh.creation.cylinder(radius=0.09, height=0.07, sections=256)
    assert coal_qhull(np.asarray(wheel.vertices), False, joggle=True) is not None
    wheel.export(tmp_path / 'wheel.stl')
    mesh = f'<mesh filename="{tmp_path / "wheel.stl"}"/>'
    parts = [massive('chassis', '0.6 0.4 0.1')]
    for index, (x, y) in enumerate(((0.25, 0.2), (0.25, -0.2), (-0.25, 0.2), (-0.25, -0.2))):
        parts += [f'<link name="hub{index}">{MASS}</link>',
                  f'<link name="wheel{index}">{MASS}<collision><origin rpy="1.5708 0 0"/>'
                  f'<geometry>{mesh}</geometry></collision></link>',
                  joint(f'steer{index}', 'revolute', 'chassis', f'hub{index}', f'{x} {y} 0'),
                  joint(f'spin{index}', 'continuous', f'hub{index}', f'wheel{index}',
                        axis='0 1 0')]
    text = robot('car', *parts)
    (finding,) = joined(text, meshes=True)
    assert finding.message.count("mm into 'chassis' (joined through 'hub") == 4, finding.message
    depth = float(dict(finding.values)['deepest_mm'])
    assert depth == pytest.approx(mujoco_depth_mm(text), abs=1.0), finding.message
    # a floating robot: its base's body keeps its name
    assert '<exclude body1="chassis" body2="wheel0"/>' in finding.suggestion, finding.suggestion


def test_the_adjacent_pairs_mujoco_collides_are_measured_within_bounds():
    # Review 13: every pair of collision elements of two adjacent links was measured, with
    # no box test and no bound: 3,000 spheres on each, 4.4 GB and past 120 s. Boxes first,
    # at most JOINED_ELEMENT_PAIRS element pairs (past them, no claim), the deepest kept.
    from urdf_link_tools.collision.overlap import JOINED_ELEMENT_PAIRS

    def arm(count: int) -> str:
        spheres = ''.join('<collision><geometry><sphere radius="0.05"/></geometry></collision>'
                          for _ in range(count))
        return robot('socket', f'<link name="base">{MASS}{spheres}</link>',
                     f'<link name="link1">{MASS}{spheres}</link>',
                     joint('j1', 'revolute', 'base', 'link1', '0 0 0.05'))
    (finding,) = joined(arm(3))
    assert finding.link == 'link1'
    over = int(JOINED_ELEMENT_PAIRS ** 0.5) + 1
    assert joined(arm(over)) == []


def test_the_excludes_of_many_pairs_are_named_within_bounds():
    # Review 13: a shapeless hub holding 200 links made 20,000 pairs, each named in the fix
    # (a 159 MB line of 4,000-character names, and a quadratic search for duplicates).
    from urdf_link_tools.checks.collisions import EXCLUDES_NAMED, EXCLUDES_WRITTEN
    children = [part for index in range(30) for part in (
        f'<link name="c{index}">{MASS}<collision><geometry><sphere radius="0.05"/>'
        '</geometry></collision></link>', joint(f'j{index}', 'revolute', 'hub', f'c{index}'))]
    text = robot('hub', massive('base', '0.1 0.1 0.1', '0 0 -1'),
                 f'<link name="hub">{MASS}</link>', joint('turn', 'revolute', 'base', 'hub'),
                 *children)
    (finding,) = [f for f in analyze(parse_urdf_string(text), CheckConfig(
        check_meshes=False, targets=frozenset({'mujoco'}))).findings
        if f.rule in (JOINED, RULE)]
    pairs = 30 * 29 // 2
    left = pairs - EXCLUDES_WRITTEN - EXCLUDES_NAMED
    assert f'and {left} more pairs not named here' in finding.suggestion, finding.suggestion


def u_around_block(tmp_path) -> str:
    """Return a U-shaped part (a floor and two walls) and a block in its hollow, apart."""
    from mesh_attacks import binary_stl, boxes
    binary_stl(tmp_path / 'u.stl', *boxes([((0, 0, 0), (0.1, 0.1, 0.01)),
                                          ((0, 0, 0), (0.01, 0.1, 0.1)),
                                          ((0.09, 0, 0), (0.1, 0.1, 0.1))]))
    return robot('hollow', massive('base', '0.05 0.05 0.05', '0 0 -1'),
                 '<link name="u">' + MASS + '<collision><geometry><mesh filename="'
                 + str(tmp_path / 'u.stl') + '"/></geometry></collision></link>',
                 massive('block', '0.02 0.02 0.02', '0.05 0.05 0.05'),
                 joint('ju', 'revolute', 'base', 'u'), joint('jb', 'revolute', 'base', 'block'))


def test_mujoco_collides_hulls_whose_surfaces_do_not_meet(tmp_path):
    # Sweep W's AiNex ankles, iCub's head and left shoulder (47.5 mm): MuJoCo collides each
    # mesh's convex hull, so a part in another's hollow is a contact at rest, though the
    # surfaces (what MoveIt and Pinocchio collide) are 30 mm apart.
    text = u_around_block(tmp_path)
    assert ('block', 'u') in mujoco_contacts(text)
    model = parse_urdf_string(text)
    for jobs in (1, 2):  # in this process, and in the forked child of a one-robot check
        (finding,) = [f for f in analyze(model, CheckConfig(
            targets=frozenset({'mujoco'})), read_processes=jobs).findings if f.rule == RULE]
        assert finding.severity == Severity.WARNING
        depth = float(dict(finding.values)['depth_mm'])
        assert depth == pytest.approx(mujoco_depth_mm(text), abs=1.0), finding.message
        assert 'between their convex hulls, which MuJoCo collides' in finding.message
        assert 'into convex parts' in finding.suggestion
        assert '<exclude body1="block" body2="u"/>' in finding.suggestion
        assert dict(finding.values)['targets'] == 'mujoco'
        assert 'disable_collisions' not in finding.suggestion  # MoveIt does not see it
    assert mujoco_contacts(text, [('block', 'u')]) == set()
    # The surfaces' engines do not collide it: nothing to say to them.
    for targets in (('moveit', 'pinocchio'), ('moveit',)):
        assert [f for f in analyze(model, CheckConfig(targets=frozenset(targets))).findings
                if f.rule == RULE] == []


# A quadruped's base (two legs on it: a floating robot, given a free joint in MuJoCo) with a
# board welded to it that reaches into a leg's first link: Mini Pupper (sweep X). MoveIt
# sees the pair (not adjacent); MuJoCo fuses the board into the base's body, the leg's
# parent, and skips the pair once the base floats.
FLOATING = robot('pupper', massive('base', '0.3 0.1 0.05'),
                 massive('board', '0.1 0.1 0.01', '0.1 0 0'),
                 massive('leg_l', '0.03 0.03 0.1', '0 0 -0.05'),
                 massive('leg_r', '0.03 0.03 0.1', '0 0 -0.05'),
                 joint('jb', 'fixed', 'base', 'board', '0 0 0.03'),
                 joint('jl', 'revolute', 'base', 'leg_l', '0.12 0.04 0.06'),
                 joint('jr', 'revolute', 'base', 'leg_r', '-0.12 -0.2 0'))


def test_a_floating_base_keeps_mujocos_filter_for_its_children():
    spec = mujoco.MjSpec.from_string(FLOATING)
    spec.body('base').add_freejoint()
    model = spec.compile()
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    assert data.ncon == 0  # as simulated: the board is the leg's parent body's
    (finding,) = findings(FLOATING)
    assert {finding.link, dict(finding.values)['other_link']} == {'board', 'leg_l'}
    assert dict(finding.values)['targets'] == 'moveit,pinocchio'
    assert 'MuJoCo' not in finding.message and '<exclude' not in finding.suggestion
    assert findings(FLOATING, {'mujoco'}) == []
    # An arm (one joint on its base) stays welded: MuJoCo collides the world's children.
    arm = FLOATING.replace('<joint name="jr" type="revolute"', '<joint name="jr" type="fixed"')
    assert mujoco_contacts(arm) == {('leg_l', 'world')}  # (loaded as it is: welded)
    (welded,) = findings(arm, {'mujoco'})
    assert '<exclude body1="world" body2="leg_l"/>' in welded.suggestion, welded.suggestion


def test_mujocos_claims_on_a_robot_it_refuses_are_infos(tmp_path):
    # iCub's and Romeo's collision meshes are COLLADA, which MuJoCo refuses (an error):
    # what it does at rest once they are converted is said, as an info, not as warnings
    # beside the error (precision review X: 9 warnings over 4 robots).
    dae = ('<link name="camera">' + MASS + '<collision><geometry><mesh filename="'
           + str(tmp_path / 'camera.dae') + '"/></geometry></collision></link>'
           + joint('jc', 'fixed', 'base', 'camera', '0 0 -2'))
    refused = u_around_block(tmp_path).replace('</robot>', dae + '</robot>')
    model = parse_urdf_string(refused)
    found = analyze(model, CheckConfig(targets=frozenset({'mujoco'}))).findings
    assert 'mujoco-mesh-format' in {f.rule for f in found}
    (finding,) = [f for f in found if f.rule == RULE]
    assert finding.severity == Severity.INFO
    assert 'once MuJoCo loads the robot: it refuses it as it is, see mujoco-mesh-format' in \
        finding.message
    (socket,) = joined(ARM_IN_SOCKET.replace('</robot>', dae + '</robot>'))
    assert socket.severity == Severity.INFO and socket.message.startswith(
        'Once MuJoCo loads the robot (it refuses it as it is, see mujoco-mesh-format), it '
        'will collide 1 pair of adjacent links at rest')
    # A pair the planners see stays a warning, for them.
    (seen,) = findings(SIBLINGS.replace('</robot>', dae + '</robot>'), {'mujoco', 'moveit'})
    assert seen.severity == Severity.WARNING
    assert seen.message.endswith(
        'MuJoCo pushes them apart from the first step (contacts at start), once MuJoCo loads '
        'the robot: it refuses it as it is, see mujoco-mesh-format'), seen.message
    (joined_warning,) = joined(ARM_IN_SOCKET)
    assert joined_warning.severity == Severity.WARNING


def test_a_base_standing_on_nothing_but_itself_is_welded():
    # Sweep Y's hands (six of seven: 22 palm-finger contacts MuJoCo makes as loaded) and
    # review 15's dual-arm torso: several joints on the base, but no leg or wheel reaching
    # below it: MuJoCo welds it to the world, as it loads every URDF, and collides it with
    # the links moving on it.
    fingers = [part for index, x in enumerate((-0.03, 0.0, 0.03))
               for part in (massive(f'finger{index}', '0.02 0.02 0.08', '0 0 0.03'),
                            joint(f'f{index}', 'revolute', 'palm', f'finger{index}',
                                  f'{x} 0 0', axis='1 0 0'))]
    hand = robot('hand', massive('palm', '0.1 0.1 0.02'), *fingers)
    contacts = mujoco_contacts(hand)
    assert contacts == {(f'finger{index}', 'world') for index in range(3)}
    (finding,) = joined(hand)
    assert finding.message.startswith('MuJoCo collides 3 pairs of adjacent links at rest')
    assert float(dict(finding.values)['deepest_mm']) == pytest.approx(
        mujoco_depth_mm(hand), abs=0.5)
    assert '<exclude body1="finger0" body2="world"/>' in finding.suggestion
    # The same fingers reaching below the palm: legs the robot stands on, a free joint.
    legs = hand.replace('<origin xyz="0 0 0.03"/>', '<origin xyz="0 0 -0.03"/>')
    assert legs.count('<origin xyz="0 0 -0.03"/>') == 3
    assert joined(legs) == []


def test_wheels_casters_and_rotors_float():
    # TIAGo's wheels (continuous, horizontal axes), TIAGo dual's four casters, the iris'
    # four rotors (revolute, +-1e16 rad): a robot on wheels or flying gets a free joint.
    from urdf_link_tools.collision.adjacency import base_meant_fixed, rest_bottoms
    spokes = [(0.2, 0.0), (-0.2, 0.0), (0.0, 0.2), (0.0, -0.2)]

    def base_with(kind: str, axis: str, count: int, limit: str = '') -> str:
        parts = [massive('base', '0.5 0.5 0.1')]
        for index, (x, y) in enumerate(spokes[:count]):
            parts += [massive(f'part{index}', '0.05 0.05 0.05'),
                      f'<joint name="j{index}" type="{kind}"><parent link="base"/>'
                      f'<child link="part{index}"/><origin xyz="{x} {y} 0"/>'
                      f'<axis xyz="{axis}"/>{limit}</joint>']
        return robot('r', *parts)

    def fixed(text: str) -> bool:
        model = parse_urdf_string(text)
        return base_meant_fixed(model, rest_bottoms(model, {}))

    assert not fixed(base_with('continuous', '0 1 0', 2))  # two wheels
    assert not fixed(base_with('continuous', '0 0 1', 4))  # four casters
    assert not fixed(base_with('revolute', '0 0 1', 4,
                               '<limit lower="-1e16" upper="1e16" effort="0" velocity="0"/>'))
    assert fixed(base_with('continuous', '0 0 1', 2))  # two arms' first joints
    assert fixed(base_with('revolute', '0 1 0', 4,
                           '<limit lower="-1" upper="1" effort="1" velocity="1"/>'))


def test_a_graze_elsewhere_does_not_hide_the_hulls_depth(tmp_path):
    # Review 15: a pad on the U grazes the block 0.5 mm; MuJoCo also collides the U's hull
    # 60 mm deep around it. The graze was the measure: "touching", an info.
    text = u_around_block(tmp_path).replace(
        '</collision></link>', '</collision><collision><origin xyz="0.05 0.05 0.0355"/>'
        '<geometry><box size="0.01 0.01 0.01"/></geometry></collision></link>', 1)
    assert text.count('<collision>') == 4
    (finding,) = [f for f in analyze(parse_urdf_string(text), CheckConfig(
        targets=frozenset({'mujoco'}))).findings if f.rule == RULE]
    assert finding.severity == Severity.WARNING
    depth = float(dict(finding.values)['depth_mm'])
    assert depth == pytest.approx(mujoco_depth_mm(text), abs=1.0), finding.message
