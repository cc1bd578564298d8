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
The ``~/get_collision_matrix`` answer, as pure functions of an analysis.

The matrix is the CLI's (:mod:`urdf_link_tools.collision`), computed from the meshes the
analysis already loaded; the node keeps each (samples, seed) answer of a snapshot once
computed. Every failure is an answer with ``success`` false and the reason, never an
exception.
"""

from __future__ import annotations

import time
from typing import Optional, Tuple

from urdf_link_tools.collision import MAX_PLACED_LINKS
from urdf_link_tools.collision.bodies import build_bodies, CollisionLibraryMissing
from urdf_link_tools.collision.matrix import CollisionMatrix, compute_matrix, DEFAULT_SAMPLES
from urdf_link_tools.collision.srdf import matrix_srdf
from urdf_link_tools.msg import DisabledCollision

#: the most random states one call may ask for
MAX_SAMPLES = 100_000
#: the most links with collision geometry the node computes a matrix for (pairs grow as n^2;
#: the CLI has no limit)
MAX_LINKS = 1000

#: the most numbers the random states of one call may hold (samples x moving joints): 80 MB
#: (a 20,000-link chain asked for 10,000 states: 1.5 GB at once, ninth red-team review)
MAX_STATE_VALUES = 10_000_000
#: the most links of the whole robot (the CLI's bound too)
MAX_ROBOT_LINKS = MAX_PLACED_LINKS
#: the answer while another matrix is being computed
BUSY = ('another collision matrix is being computed: ask again when it is done (one at a '
        'time)')

Computed = Tuple[Optional[CollisionMatrix], str, float]


def compute(analysis, samples: int, seed: int) -> Computed:
    """
    Compute the matrix of an analysed robot.

    :param analysis: an :class:`urdf_link_tools.analysis.Analysis` (its loaded meshes are used)
    :param samples: random states (0: the default)
    :param seed: their seed
    :return: (matrix, '' , seconds) or (None, why not, 0)
    """
    samples = samples or DEFAULT_SAMPLES
    if not 0 < samples <= MAX_SAMPLES:
        return None, f'samples must be at most {MAX_SAMPLES}', 0.0
    if not 0 <= seed < 2 ** 63:
        return None, f'seed must be from 0 to 2^63 - 1, got {seed}', 0.0
    robot = analysis.robot
    if len(robot.links) > MAX_ROBOT_LINKS:
        # (urdf-link-tools collisions refuses it too: every state places every link)
        return None, (f'the robot has {len(robot.links):,} links, more than the node computes '
                      f'a matrix for ({MAX_ROBOT_LINKS:,}): each random state places every '
                      'link'), 0.0
    moving = sum(1 for joint in robot.joints if joint.type != 'fixed')
    if samples * max(moving, 1) > MAX_STATE_VALUES:
        return None, (f'{samples:,} random states of {moving:,} moving joints are more than '
                      f'the node draws at once: ask for at most '
                      f'{MAX_STATE_VALUES // max(moving, 1):,} samples, or use '
                      'urdf-link-tools collisions'), 0.0
    try:
        bodies, skipped = build_bodies(analysis.robot, analysis.meshes)
    except CollisionLibraryMissing as exc:
        return None, str(exc), 0.0
    if len(bodies) > MAX_LINKS:
        return None, (f'{len(bodies)} links have collision geometry, more than the node '
                      f'computes a matrix for ({MAX_LINKS}): use urdf-link-tools collisions'), 0.0
    start = time.perf_counter()
    matrix = compute_matrix(analysis.robot, bodies, samples, seed, tuple(skipped))
    return matrix, '', time.perf_counter() - start


def fill_collision_matrix(response, computed: Optional[Computed], include_srdf: bool,
                          no_model_message: str = ''):
    """
    Fill a GetCollisionMatrix response.

    :param response: the response to fill
    :param computed: what :func:`compute` returned, None without a robot
    :param include_srdf: also fill the SRDF text
    :param no_model_message: the message without a robot
    :return: the response
    """
    if computed is None:
        response.success = False
        response.message = no_model_message
        return response
    matrix, problem, seconds = computed
    if matrix is None:
        response.success = False
        response.message = problem
        return response
    response.success = True
    response.robot_name = matrix.robot
    response.links_with_geometry = len(matrix.links)
    response.samples = matrix.samples
    response.disabled = [DisabledCollision(link1=first, link2=second, reason=reason)
                         for (first, second), reason in sorted(matrix.disabled.items())]
    counts = ', '.join(f'{count} {reason}' for reason, count in matrix.counts().items())
    response.message = (f'{len(matrix.disabled)} pairs disabled ({counts}); '
                        f'{matrix.sometimes} pairs seen in collision sometimes stay checked; '
                        f'{matrix.samples} random states, seed {matrix.seed}, {seconds:.2f} s')
    if matrix.skipped:
        response.message += f'; {len(matrix.skipped)} collision elements left out (' + \
            ', '.join(f'{item.link} {item.element}: {item.reason}'
                      for item in matrix.skipped[:5]) + ')'
    if include_srdf:
        response.srdf = matrix_srdf(matrix).decode('utf-8')
    return response
