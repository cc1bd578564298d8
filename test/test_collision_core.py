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

"""Self-collision core: MoveIt's states, batched kinematics, adjacency, the reasons."""

import math

from collision_robots import box_link, joint, matrix_of, robot, two_arms
import corpus
import numpy as np
import pytest
from urdf_link_tools.collision.adjacency import Adjacency, adjacent_pairs
from urdf_link_tools.collision.configurations import Chain, default_position, joint_bounds
from urdf_link_tools.kinematics import forward_kinematics
from urdf_link_tools.parser import parse_urdf_string


@pytest.mark.parametrize('kind, lower, upper, expected', [
    ('revolute', -1.0, 1.0, 0.0),          # 0 within the limits
    ('revolute', -3.07, -0.07, -1.57),     # panda_joint4: MoveIt takes the middle
    ('prismatic', 0.2, 0.4, 0.3),
    ('revolute', 0.0, 0.0, 0.0),
    ('continuous', 0.0, 0.0, 0.0),
])
def test_default_position_is_moveits(kind, lower, upper, expected):
    model = parse_urdf_string(robot('r', box_link('a'), box_link('b'),
                                    joint('j', kind, 'a', 'b', lower=lower, upper=upper)))
    assert default_position(model.joints[0]) == pytest.approx(expected)


def test_continuous_joints_sample_a_full_turn():
    model = parse_urdf_string(robot('r', box_link('a'), box_link('b'),
                                    joint('j', 'continuous', 'a', 'b')))
    assert joint_bounds(model.joints[0]) == (-math.pi, math.pi)


def test_random_states_stay_within_limits_and_repeat_for_a_seed():
    chain = Chain(parse_urdf_string(corpus.urdf_path('panda.urdf').read_bytes()))
    first = chain.random_configurations(500, 7)
    assert np.array_equal(first, chain.random_configurations(500, 7))
    assert not np.array_equal(first, chain.random_configurations(500, 8))
    assert np.all(first >= chain.lower) and np.all(first <= chain.upper)


@pytest.mark.parametrize('name', ['panda.urdf', 'ur5_robot.urdf', 'romeo.urdf'])
def test_batched_poses_equal_forward_kinematics(name):
    model = parse_urdf_string(corpus.urdf_path(name).read_bytes())
    chain = Chain(model)
    states = chain.random_configurations(5, 1)
    poses = chain.poses(states)
    for row, values in zip(poses, states):
        positions = {j.name: float(v) for j, v in zip(chain.variables, values)}
        expected = forward_kinematics(model, positions)
        for link, index in chain.index.items():
            np.testing.assert_allclose(row[index], expected[link], atol=1e-9)


@pytest.mark.parametrize('name', ['panda.urdf', 'romeo.urdf', 'talos_reduced.urdf',
                                  'icub.urdf', 'tiago_dual.urdf'])
def test_default_poses_are_the_batched_poses_bit_for_bit(name):
    # One sample skips the motion of a joint turned by 0 (the identity, exactly): the poses
    # are those of the same state computed along with another sample, signed zeros included.
    chain = Chain(parse_urdf_string(corpus.urdf_path(name).read_bytes()))
    default = chain.default_configuration()
    assert (default == 0.0).any() and (default != 0.0).any() or name != 'panda.urdf'
    batched = chain.poses(np.stack([default, default]))[0]
    assert chain.default_poses().tobytes() == batched.tobytes()


def test_mimic_joints_follow_their_leader():
    chain = Chain(parse_urdf_string(two_arms('joint="j1" multiplier="-2" offset="0.5"')))
    assert [j.name for j in chain.variables] == ['j1']
    pose = chain.poses(np.array([[0.3]]))[0]
    angle = math.atan2(pose[chain.index['arm2']][1, 0], pose[chain.index['arm2']][0, 0])
    assert angle == pytest.approx(-2 * 0.3 + 0.5)


# base - (fixed) frame - arm: "frame" has no geometry, so base and arm are adjacent.
SHAPELESS = robot(
    'shapeless', box_link('base'), '<link name="frame"/>', box_link('arm'), box_link('tip'),
    '<link name="tool0"/>', box_link('tool'),
    joint('fix', 'fixed', 'base', 'frame'), joint('j1', 'revolute', 'frame', 'arm'),
    joint('j2', 'revolute', 'arm', 'tip'), joint('f2', 'fixed', 'tip', 'tool0'),
    joint('f3', 'fixed', 'tool0', 'tool'))


def test_adjacency_passes_through_links_without_geometry():
    model = parse_urdf_string(SHAPELESS)
    pairs = adjacent_pairs(model, {'base', 'arm', 'tip', 'tool'})
    assert pairs == {('arm', 'base'), ('arm', 'tip'), ('tip', 'tool')}


def test_adjacency_through_two_shapeless_links_in_a_row():
    model = parse_urdf_string(robot(
        'r', box_link('a'), '<link name="f1"/>', '<link name="f2"/>', box_link('b'),
        joint('x', 'fixed', 'a', 'f1'), joint('y', 'revolute', 'f1', 'f2'),
        joint('z', 'fixed', 'f2', 'b')))
    assert adjacent_pairs(model, {'a', 'b'}) == {('a', 'b')}


def _setup_assistant_adjacency(model, with_geometry):
    """Return the adjacent pairs as computeConnectionGraph does: join until nothing changes."""
    graph = {link.name: set() for link in model.links}
    for item in model.joints:
        graph[item.parent].add(item.child)
        graph[item.child].add(item.parent)
    changed = True
    while changed:
        changed = False
        for name in graph:
            if name in with_geometry:
                continue
            neighbours = sorted(graph[name])
            for first in neighbours:
                for second in neighbours:
                    if first != second and second not in graph[first]:
                        graph[first].add(second)
                        changed = True
    return {(a, b) for a in graph for b in graph[a]
            if a < b and a in with_geometry and b in with_geometry}


def test_adjacency_asked_pair_by_pair_is_setup_assistants_on_random_trees():
    # Adjacency answers `pair in adjacency` without listing a hub's n^2 pairs; it must say
    # what the repeated joining says, pair by pair, on trees with shapeless runs and hubs.
    rng = np.random.default_rng(3)
    for _ in range(60):
        count = int(rng.integers(2, 25))
        links = [f'l{i}' for i in range(count)]
        parts = [(box_link(name) if rng.random() < 0.5 else f'<link name="{name}"/>')
                 for name in links]
        joints = [joint(f'j{i}', 'fixed', links[int(rng.integers(i))], links[i])
                  for i in range(1, count)]
        model = parse_urdf_string(robot('random', *parts, *joints))
        shaped = {link.name for link in model.links if link.collisions}
        expected = _setup_assistant_adjacency(model, shaped)
        adjacency = Adjacency(model, shaped)
        assert set(adjacency.pairs()) == expected == adjacent_pairs(model, shaped)
        for a in links:
            for b in links:
                assert ((a, b) in adjacency) == (tuple(sorted((a, b))) in expected), (a, b)


def test_a_shapeless_hub_of_thousands_of_links_is_not_listed_pair_by_pair():
    # A hostile star (8,000 spheres on one link without geometry): the check's overlap test
    # listed its 32 million adjacent pairs, 3 GB. Asked pair by pair, it holds one group.
    count = 8000
    parts = ['<link name="hub"/>'] + [
        f'<link name="s{i}"><collision><origin xyz="{i} 0 0"/><geometry><sphere '
        'radius="0.1"/></geometry></collision></link>' for i in range(count)]
    joints = [f'<joint name="j{i}" type="continuous"><parent link="hub"/><child link="s{i}"/>'
              '</joint>' for i in range(count)]
    model = parse_urdf_string(robot('star', *parts, *joints))
    adjacency = Adjacency(model, {f's{i}' for i in range(count)})
    assert ('s1', 's7999') in adjacency and ('s7999', 's1') in adjacency
    assert len(adjacency._groups) == 1 and not adjacency._direct


@pytest.mark.parametrize('mimic, expected', [
    ('joint="j1"', 'Never'),                     # they turn together: never meet
    (None, None),                                # independent: they meet sometimes
    ('joint="j1" multiplier="-1"', None),        # counter-rotating: they meet
])
def test_mimic_joints_decide_never(mimic, expected):
    matrix = matrix_of(two_arms(mimic), samples=3000)
    assert matrix.disabled.get(('arm1', 'arm2')) == expected
    assert matrix.disabled[('arm1', 'base')] == 'Adjacent'


def test_default_always_and_never_reasons():
    # A slider "s" inside a slotted block: free only in the middle 5 cm of its 2 m travel.
    slotted = box_link('block', '0.98 0.2 0.2', '-0.51 0 0',
                       '<collision><origin xyz="0.51 0 0"/><geometry><box size="0.98 0.2 0.2"/>'
                       '</geometry></collision>')
    text = robot(
        'reasons', box_link('base', '0.05 0.05 0.05', '0 0 -1'), slotted,
        box_link('s', '0.01 0.1 0.1'), box_link('overlap', '0.3 0.3 0.3', '0 0 0'),
        box_link('far', '0.1 0.1 0.1'),
        joint('fb', 'fixed', 'base', 'block'),
        joint('js', 'prismatic', 'base', 's', axis='1 0 0', lower=-1, upper=1),
        joint('jo', 'revolute', 'base', 'overlap', lower=-0.1, upper=0.1),
        joint('jf', 'revolute', 'base', 'far', xyz='0 0 3'))
    matrix = matrix_of(text, samples=1000)
    assert matrix.disabled[('block', 'overlap')] == 'Default'   # they overlap at rest
    assert matrix.disabled[('block', 's')] == 'Always'
    assert matrix.disabled[('far', 's')] == 'Never'
    assert matrix.disabled[('base', 's')] == 'Adjacent'
    assert matrix.disabled[('overlap', 's')] == 'Default'  # the slider rests inside it


def test_the_same_seed_gives_the_same_matrix():
    text = corpus.urdf_path('ur5_robot.urdf').read_bytes()
    first = matrix_of(text, samples=500, seed=3)
    assert first.disabled == matrix_of(text, samples=500, seed=3).disabled
    assert first.samples == 500 and first.seed == 3


def test_chunked_states_give_the_same_matrix(monkeypatch):
    from urdf_link_tools.collision import matrix as matrix_module
    text = corpus.urdf_path('panda.urdf').read_bytes()
    whole = matrix_of(text, samples=1500, seed=2)
    monkeypatch.setattr(matrix_module, 'POSE_BUDGET', 10)  # chunks of 200 states
    chunked = matrix_of(text, samples=1500, seed=2)
    assert chunked.disabled == whole.disabled and chunked.sometimes == whole.sometimes


def test_links_placed_by_numbers_that_are_not_finite_are_left_out_and_said():
    text = robot('r', box_link('a'), box_link('b'), box_link('c'),
                 joint('j', 'revolute', 'a', 'b', xyz='inf 0 0'),
                 joint('k', 'revolute', 'a', 'c', xyz='0 0 1'))
    with np.errstate(all='raise'):
        matrix = matrix_of(text, samples=100)
    assert matrix.disabled == {('a', 'c'): 'Adjacent'}
    assert [item.link for item in matrix.skipped] == ['b']


@pytest.mark.parametrize('name', ['talos_reduced.urdf', 'romeo.urdf', 'tiago.urdf',
                                  'icub.urdf', 'panda.urdf'])
def test_box_prefilter_keeps_every_overlap_at_rest(name, monkeypatch):
    # The boxes only rule pairs out before coal: the overlaps found with them and with every
    # candidate pair sent to coal are the same, on robots with many overlaps at rest.
    from urdf_link_tools.analysis import load_meshes
    from urdf_link_tools.collision import overlap
    from urdf_link_tools.collision.bodies import build_bodies
    from urdf_link_tools.meshes import MeshLibrary
    path = corpus.urdf_path(name)
    model = parse_urdf_string(path.read_bytes(), str(path))
    meshes = load_meshes(model, MeshLibrary(ament_prefix_path=corpus.ament_prefixes()))
    bodies, _ = build_bodies(model, meshes)
    with_boxes = overlap.overlaps_at_rest(model, bodies)
    monkeypatch.setattr(overlap, '_boxes_meet', lambda *args: True)
    without = overlap.overlaps_at_rest(model, bodies)
    assert with_boxes.overlaps == without.overlaps
    assert len(without.overlaps) > 0


@pytest.mark.parametrize('name', ['talos_reduced.urdf', 'romeo.urdf', 'icub.urdf'])
def test_cropped_meshes_collide_as_whole_meshes(name, monkeypatch):
    # The overlap check crops each mesh to the box where two parts' bounds meet: on real
    # meshes, at rest and in random states, it finds exactly the part pairs in collision that
    # the whole meshes give (the matrix's narrow phase), while building smaller BVHs.
    pytest.importorskip('coal')
    from urdf_link_tools.analysis import load_meshes
    from urdf_link_tools.collision import overlap
    from urdf_link_tools.collision.bodies import build_bodies
    from urdf_link_tools.collision.matrix import Scene
    from urdf_link_tools.meshes import MeshLibrary
    path = corpus.urdf_path(name)
    model = parse_urdf_string(path.read_bytes(), str(path))
    meshes = load_meshes(model, MeshLibrary(ament_prefix_path=corpus.ament_prefixes()))
    bodies, _ = build_bodies(model, meshes)
    chain = Chain(model)
    scene = Scene(chain, bodies)
    states = np.concatenate([chain.default_poses()[None],
                             chain.poses(chain.random_configurations(12, 5))])
    crops = []
    original = overlap._cropped

    def counting(coal, part, placed, low, high):
        found = original(coal, part, placed, low, high)
        if part.faces is not None:
            crops.append(found is part.geometry)
        return found

    monkeypatch.setattr(overlap, '_cropped', counting)
    compared = colliding = 0
    for pose_row in states:
        placed = {}
        for a in range(len(scene.names)):
            for b in range(a + 1, len(scene.names)):
                if not len(scene.near(pose_row[None], a, b)):
                    continue
                whole = scene.colliding_parts(pose_row, a, b)
                assert overlap.colliding_parts(scene, pose_row, a, b, placed) == whole, \
                    (scene.names[a], scene.names[b])
                compared += 1
                colliding += bool(whole)
    assert colliding > 10 and compared > colliding
    assert crops.count(False) > crops.count(True)  # most meshes were cropped


def test_boxes_apart_never_separates_boxes_coal_finds_in_contact():
    coal = pytest.importorskip('coal')
    from urdf_link_tools.collision.overlap import boxes_apart
    rng = np.random.default_rng(3)
    touching = apart = 0
    for _ in range(3000):
        poses, boxes, shapes = [], [], []
        for _ in range(2):
            pose = np.eye(4)
            pose[:3, :3] = np.linalg.qr(rng.normal(size=(3, 3)))[0]
            pose[:3, 3] = rng.uniform(-1.0, 1.0, 3)
            half = rng.uniform(0.05, 0.8, 3)
            centre = rng.uniform(-0.2, 0.2, 3)
            poses.append(pose)
            boxes.append((centre, half))
            placed = pose @ np.vstack([np.column_stack([np.eye(3), centre]), [0, 0, 0, 1]])
            shapes.append((coal.Box(*(2.0 * half)), coal.Transform3s(
                np.ascontiguousarray(placed[:3, :3]), np.ascontiguousarray(placed[:3, 3]))))
        result = coal.CollisionResult()
        hit = coal.collide(shapes[0][0], shapes[0][1], shapes[1][0], shapes[1][1],
                           coal.CollisionRequest(), result)
        separated = boxes_apart(poses[0], boxes[0], poses[1], boxes[1])
        if hit:
            touching += 1
            assert not separated
        apart += separated
    assert touching > 300 and apart > 300


def test_primitive_boxes_and_corners_are_made_when_asked_as_before():
    # A primitive's box and corners are made on first use (a 2,000-link chain tests 11
    # pairs): the same arrays as the half sides computed with NumPy, bit for bit.
    from urdf_link_tools.collision.bodies import build_bodies
    model = parse_urdf_string(robot(
        'r', '<link name="a"><collision><geometry><box size="0.3 0.1 0.7"/></geometry>'
        '</collision><collision><geometry><cylinder radius="0.05" length="0.3"/></geometry>'
        '</collision><collision><geometry><sphere radius="0.125"/></geometry></collision>'
        '</link>'))
    bodies, _ = build_bodies(model, {})
    box, cylinder, sphere = bodies['a'].parts
    expected = [np.array([0.3, 0.1, 0.7]) / 2.0, np.array([0.05, 0.05, 0.3 / 2.0]),
                np.full(3, 0.125)]
    corners = np.array([(x, y, z) for x in (-1.0, 1.0) for y in (-1.0, 1.0)
                        for z in (-1.0, 1.0)])
    for part, half in zip((box, cylinder, sphere), expected):
        assert part.box[0].tobytes() == np.zeros(3).tobytes()
        assert part.box[1].tobytes() == half.tobytes()
        assert part.points.tobytes() == (corners * half).tobytes()
        assert part.faces is None
