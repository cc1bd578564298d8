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
The collision matrix against the same computation in the straightforward form.

The straightforward form is what one writes first: for each random state, place the links
with :func:`urdf_link_tools.kinematics.forward_kinematics` (one state at a time), then ask
coal (``coal.collide``) about every pair that is not adjacent, every part of one link
against every part of the other, and count. Both get the same states (same seed) and the
same coal geometries, and must give the same matrix; the ratio shows what the design of
:mod:`urdf_link_tools.collision.matrix` bought (batched kinematics, bounding-sphere broad
phase, pairs dropped once decided, functors reused).

Target (issue 17): 10,000 states of a 6-7 axis arm in under 5 s.

Usage: ``scripts/env.sh python -m bench.bench_collisions [--samples N] [ROBOT.urdf ...]``
(default: example-robot-data's panda and ur5).
"""

import argparse
import os
import sys
import time
from typing import Dict, List, Tuple

from bench.common import verdict, write_result
import numpy as np
from urdf_link_tools.analysis import load_meshes
from urdf_link_tools.collision.adjacency import adjacent_pairs, pair
from urdf_link_tools.collision.bodies import build_bodies, coal_transform, import_coal
from urdf_link_tools.collision.configurations import Chain
from urdf_link_tools.collision.matrix import (ALWAYS, ALWAYS_FRACTION, ALWAYS_TRIALS,
                                              compute_matrix, DEFAULT, NEVER)
from urdf_link_tools.kinematics import forward_kinematics
from urdf_link_tools.meshes import MeshLibrary
from urdf_link_tools.parser import parse_urdf_string

TARGET_SECONDS = 5.0


def default_robots() -> List[str]:
    """Return example-robot-data's panda and ur5."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), 'test'))
    try:
        import corpus
    finally:
        sys.path.pop(0)
    found = {path.name: str(path) for path in corpus.urdf_paths()}
    return [found[name] for name in ('panda.urdf', 'ur5_robot.urdf') if name in found]


def straightforward(robot, bodies, samples: int, seed: int) -> Dict[Tuple[str, str], str]:
    """Return the disabled pairs computed one state and one pair at a time."""
    coal = import_coal()
    chain = Chain(robot)
    names = [name for name in chain.links if name in bodies]
    disabled = {key: 'Adjacent' for key in adjacent_pairs(robot, names)}
    candidates = [pair(a, b) for i, a in enumerate(names) for b in names[i + 1:]
                  if pair(a, b) not in disabled]
    request = coal.CollisionRequest()

    def in_collision(transforms, first: str, second: str) -> bool:
        for part_a in bodies[first].parts:
            for part_b in bodies[second].parts:
                result = coal.CollisionResult()
                if coal.collide(part_a.geometry,
                                coal_transform(coal, transforms[first] @ part_a.transform),
                                part_b.geometry,
                                coal_transform(coal, transforms[second] @ part_b.transform),
                                request, result):
                    return True
        return False

    def positions(values):
        return {joint.name: float(value) for joint, value in zip(chain.variables, values)}

    default = forward_kinematics(robot, positions(chain.default_configuration()))
    for key in candidates:
        if in_collision(default, *key):
            disabled[key] = DEFAULT
    remaining = [key for key in candidates if key not in disabled]
    hits = {key: 0 for key in remaining}
    early = {key: 0 for key in remaining}
    trials = min(ALWAYS_TRIALS, samples)
    for index, values in enumerate(chain.random_configurations(samples, seed)):
        transforms = forward_kinematics(robot, positions(values))
        for key in remaining:
            if in_collision(transforms, *key):
                hits[key] += 1
                if index < trials:
                    early[key] += 1
    for key in remaining:
        if trials and early[key] > int(trials * ALWAYS_FRACTION):
            disabled[key] = ALWAYS
        elif hits[key] == 0 and samples:
            disabled[key] = NEVER
    return disabled


def main() -> int:
    """Time both forms on each robot and print the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('robots', nargs='*')
    parser.add_argument('--samples', type=int, default=10_000)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()
    results = []
    for path in args.robots or default_robots():
        with open(path, 'rb') as stream:
            robot = parse_urdf_string(stream.read(), path)
        bodies, skipped = build_bodies(robot, load_meshes(robot, MeshLibrary()))
        start = time.perf_counter()
        matrix = compute_matrix(robot, bodies, args.samples, args.seed)
        fast = time.perf_counter() - start
        start = time.perf_counter()
        plain = straightforward(robot, bodies, args.samples, args.seed)
        slow = time.perf_counter() - start
        same = plain == matrix.disabled
        axes = len(Chain(robot).variables)
        print(f'{robot.name}: {axes} axes, {len(matrix.links)} links with geometry, '
              f'{args.samples} states: matrix {fast:.2f} s, straightforward {slow:.2f} s, '
              f'ratio {slow / fast:.1f}x faster; same pairs: {same}; '
              f'target < {TARGET_SECONDS:g} s: {verdict(fast, TARGET_SECONDS)}', flush=True)
        results.append({'robot': robot.name, 'path': path, 'axes': axes,
                        'samples': args.samples, 'seconds': fast,
                        'straightforward_seconds': slow, 'ratio': slow / fast,
                        'same_pairs': same, 'counts': matrix.counts(),
                        'pairs': [list(key) + [reason]
                                  for key, reason in sorted(matrix.disabled.items())]})
        if not same:
            for key in sorted(set(plain) | set(matrix.disabled)):
                if plain.get(key) != matrix.disabled.get(key):
                    print(f'  differs: {key}: straightforward {plain.get(key)}, '
                          f'matrix {matrix.disabled.get(key)}')
    print(f"wrote {write_result('bench_collisions', {'robots': results})}")
    return 0 if all(item['same_pairs'] for item in results) else 1


if __name__ == '__main__':
    np.seterr(all='ignore')
    sys.exit(main())
