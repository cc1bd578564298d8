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
The collision matrix MoveIt Setup Assistant computes, without its GUI.

Every pair of links with collision geometry gets at most one reason to skip checking it,
in Setup Assistant's order: ``Adjacent`` (:mod:`.adjacency`), ``Default`` (in collision at
the default state), ``Always`` (in collision in more than 95 % of the first 200 random
states, Setup Assistant's ``disableAlwaysInCollision``), ``Never`` (in collision in none of
the random states). Pairs seen in collision sometimes stay checked.

What makes it fast (:mod:`bench.bench_collisions` compares with the plain loop): all
configurations are placed at once (:meth:`Chain.poses`); a bounding sphere per link, moved
with the same arrays, rules out a pair for every sample at once, so coal is asked only
about the samples where the spheres overlap; a pair is dropped as soon as its answer is
known (a first collision decides "not Never"); coal's geometries and the functor of each
pair of parts are built once and reused for every sample.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math
from typing import Dict, List, Mapping, Optional, Tuple

import numpy as np

from urdf_link_tools.collision import DEFAULT_SAMPLES, DEFAULT_SEED  # noqa: F401 (theirs)
from urdf_link_tools.collision.adjacency import adjacent_pairs, Pair, pair
from urdf_link_tools.collision.bodies import Body, coal_transform, import_coal, Skipped
from urdf_link_tools.collision.configurations import Chain
from urdf_link_tools.records import record

ADJACENT = 'Adjacent'
DEFAULT = 'Default'
ALWAYS = 'Always'
NEVER = 'Never'
REASONS = (ADJACENT, DEFAULT, ALWAYS, NEVER)

#: Setup Assistant's ``disableAlwaysInCollision``: 200 states, more than 95 % in collision
ALWAYS_TRIALS = 200
ALWAYS_FRACTION = 0.95
#: link poses held at once (4x4 doubles each): about 64 MB
POSE_BUDGET = 500_000


@record
class CollisionMatrix:
    """
    The disabled pairs of one robot and how they were found.

    :param robot: the robot name
    :param disabled: (link1, link2) -> reason, link1 < link2
    :param links: the links with collision geometry, in chain order
    :param samples: the random states tried
    :param seed: their seed
    :param skipped: collision elements that could not be used
    :param sometimes: how many pairs were seen in collision in some states (left enabled)
    """

    robot: str
    disabled: Dict[Pair, str]
    links: Tuple[str, ...]
    samples: int
    seed: int
    skipped: Tuple[Skipped, ...] = ()
    sometimes: int = 0

    def pairs(self, reason: Optional[str] = None) -> List[Pair]:
        """Return the disabled pairs, sorted, of one reason or all."""
        return sorted(key for key, value in self.disabled.items()
                      if reason is None or value == reason)

    def counts(self) -> Dict[str, int]:
        """Return how many pairs each reason disabled."""
        return {reason: sum(1 for value in self.disabled.values() if value == reason)
                for reason in REASONS}


@dataclass
class _Pair:
    """The two bodies of a pair and the coal functors of each two parts, built once."""

    first: int
    second: int
    functors: List[Tuple[int, int, object]] = field(default_factory=list)


class Scene:
    """
    Bodies placed by a chain, and the narrow phase between two of them.

    :param chain: the kinematic chain (link order)
    :param bodies: link name -> body; links outside the chain are left out, and so are links
        placed by numbers that are not finite (``unplaced``: the checks report those numbers)
    """

    def __init__(self, chain: Chain, bodies: Mapping[str, Body]) -> None:
        self._coal = None
        self.chain = chain
        placed = chain.default_poses()
        finite = np.isfinite(placed).all(axis=(1, 2))
        in_chain = [name for name in chain.links if name in bodies]
        self.names = [name for name in in_chain if finite[chain.index[name]]]
        #: links with geometry left out: not connected to the root, or placed by NaN or inf
        kept = set(self.names)
        self.unplaced = [name for name in bodies if name not in kept]
        self.bodies = [bodies[name] for name in self.names]
        self.slots = np.array([chain.index[name] for name in self.names], dtype=int)
        self.centres = np.array([body.centre for body in self.bodies]).reshape(-1, 3)
        self.radii = np.array([body.radius for body in self.bodies])
        self._request = self._result = None
        self._pairs: Dict[Tuple[int, int], _Pair] = {}

    @property
    def coal(self):
        """Return the coal module, imported on the first narrow-phase test."""
        if self._coal is None:
            self._coal = import_coal()
        return self._coal

    def _reused(self) -> Tuple[object, object]:
        """Return the collision request and result every test reuses (made on first use)."""
        if self._request is None:
            self._request, self._result = self.coal.CollisionRequest(), self.coal.CollisionResult()
        return self._request, self._result

    def pair(self, first: int, second: int) -> _Pair:
        """Return the pair of bodies ``first`` and ``second``, with its functors."""
        key = (first, second)
        found = self._pairs.get(key)
        if found is None:
            found = _Pair(first, second)
            for i, part_a in enumerate(self.bodies[first].parts):
                for j, part_b in enumerate(self.bodies[second].parts):
                    found.functors.append(
                        (i, j, self.coal.ComputeCollision(part_a.geometry, part_b.geometry)))
            self._pairs[key] = found
        return found

    def forget(self, first: int, second: int) -> None:
        """
        Drop a decided pair's functors.

        Each holds coal's collision functors, about 25 kB per pair of parts: kept for every
        pair tested, 300 boxes welded at one place held 1.1 GB (red-team review 4).
        """
        self._pairs.pop((first, second), None)

    def near(self, poses: np.ndarray, first: int, second: int) -> np.ndarray:
        """
        Return the samples where the two bodies' bounding spheres overlap.

        :param poses: (samples, chain links, 4, 4)
        :return: sample indices, ascending
        """
        centres = []
        for body in (first, second):
            pose = poses[:, self.slots[body]]
            centres.append(pose[:, :3, :3] @ self.centres[body] + pose[:, :3, 3])
        distance = np.sqrt(((centres[0] - centres[1]) ** 2).sum(axis=1))
        reach = self.radii[first] + self.radii[second]
        return np.nonzero(distance <= reach * (1.0 + 1e-9) + 1e-12)[0]

    def part_transforms(self, pose_row: np.ndarray, body: int) -> List[object]:
        """Return coal transforms of a body's parts for one sample's poses."""
        link_pose = pose_row[self.slots[body]]
        return [coal_transform(self.coal, link_pose @ part.transform)
                for part in self.bodies[body].parts]

    def collide(self, pose_row: np.ndarray, first: int, second: int) -> bool:
        """Return True when the two bodies are in collision for one sample's poses."""
        return bool(self.colliding_parts(pose_row, first, second, stop_at_first=True))

    def colliding_parts(self, pose_row: np.ndarray, first: int, second: int,
                        stop_at_first: bool = False) -> List[Tuple[int, int]]:
        """Return the (part of first, part of second) pairs in collision for one sample."""
        entry = self.pair(first, second)
        transforms_a = self.part_transforms(pose_row, first)
        transforms_b = self.part_transforms(pose_row, second)
        request, result = self._reused()
        found = []
        for i, j, functor in entry.functors:
            result.clear()
            if functor(transforms_a[i], transforms_b[j], request, result):
                found.append((i, j))
                if stop_at_first:
                    break
        return found


def compute_matrix(robot, bodies: Mapping[str, Body], samples: int = DEFAULT_SAMPLES,
                   seed: int = DEFAULT_SEED, skipped: Tuple[Skipped, ...] = ()) \
        -> CollisionMatrix:
    """
    Compute the disabled pairs of a robot, as MoveIt Setup Assistant does.

    :param robot: the model (:class:`urdf_link_tools.model.Robot`)
    :param bodies: its collision bodies (:func:`~.bodies.build_bodies`)
    :param samples: random states to try (the "Never" test)
    :param seed: the random generator's seed: the same seed gives the same matrix
    :param skipped: elements left out of the bodies, passed on to the result
    :return: the matrix
    :raises CollisionLibraryMissing: when coal is not installed
    """
    chain = Chain(robot)
    scene = Scene(chain, bodies)
    names = scene.names
    disabled: Dict[Pair, str] = {key: ADJACENT for key in adjacent_pairs(robot, names)}
    undecided = [(a, b) for a in range(len(names)) for b in range(a + 1, len(names))
                 if pair(names[a], names[b]) not in disabled]

    default = chain.default_poses()[None]
    still = []
    for a, b in undecided:
        if len(scene.near(default, a, b)) and scene.collide(default[0], a, b):
            disabled[pair(names[a], names[b])] = DEFAULT
            scene.forget(a, b)
        else:
            still.append((a, b))

    configurations = chain.random_configurations(max(samples, 0), seed)
    # Poses are placed a chunk of states at a time, so memory stays bounded (about 64 MB)
    # for a robot of many links; the first chunk holds the Always trials.
    step = max(ALWAYS_TRIALS, POSE_BUDGET // max(len(chain.links), 1))
    trials = min(ALWAYS_TRIALS, len(configurations))
    limit = int(trials * ALWAYS_FRACTION)
    sometimes = 0
    pending = []
    poses = chain.poses(configurations[:step])
    for a, b in still:
        near = scene.near(poses, a, b)
        head = near[near < trials]
        # A state whose spheres are apart is a miss already; stop as soon as a pair has
        # been seen in collision and can no longer reach the Always threshold.
        hits, misses = 0, trials - len(head)
        for index in head:
            if scene.collide(poses[index], a, b):
                hits += 1
            else:
                misses += 1
            if hits and trials - misses <= limit:
                break
        if trials and hits > limit:
            disabled[pair(names[a], names[b])] = ALWAYS
        elif hits or any(scene.collide(poses[index], a, b) for index in near[near >= trials]):
            sometimes += 1
        else:
            pending.append((a, b))
            continue
        scene.forget(a, b)
    for begin in range(step, len(configurations), step):
        if not pending:
            break
        poses = chain.poses(configurations[begin:begin + step])
        undecided_pairs = []
        for a, b in pending:
            if any(scene.collide(poses[index], a, b) for index in scene.near(poses, a, b)):
                sometimes += 1
                scene.forget(a, b)
            else:
                undecided_pairs.append((a, b))
        pending = undecided_pairs
    if len(configurations):
        for a, b in pending:
            disabled[pair(names[a], names[b])] = NEVER
    skipped = tuple(skipped) + tuple(
        Skipped(name, 'collision', 'not placed: not connected to the root, or a joint or '
                'origin number that is not finite') for name in scene.unplaced)
    return CollisionMatrix(robot=robot.name, disabled=disabled, links=tuple(names),
                           samples=len(configurations), seed=seed, skipped=skipped,
                           sometimes=sometimes)


def collision_fraction(scene: Scene, poses: np.ndarray, a: int, b: int) -> float:
    """Return the fraction of samples in which two bodies collide (for tests and tools)."""
    if not len(poses):
        return math.nan
    near = scene.near(poses, a, b)
    return sum(scene.collide(poses[index], a, b) for index in near) / len(poses)
