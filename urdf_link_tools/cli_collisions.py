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
``urdf-link-tools collisions ROBOT``: MoveIt's collision matrix as SRDF, with no GUI.

The pure core does the work (:mod:`urdf_link_tools.collision`); this module reads the
robot as ``check`` does (xacro, ``--package-dir``), writes the SRDF, and says on standard
error how many pairs of each reason it found and how long it took.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import TextIO, TYPE_CHECKING

# NumPy and the collision library load when a command runs, not with the parser: `check`
# forks its reading child before it imports NumPy (meshes.aside).
from urdf_link_tools.collision import DEFAULT_SAMPLES, DEFAULT_SEED, MAX_PLACED_LINKS
from urdf_link_tools.errors import UrdfInputError

if TYPE_CHECKING:  # pragma: no cover
    from urdf_link_tools.collision.matrix import CollisionMatrix

MAX_SAMPLES = 10_000_000
MAX_SRDF_BYTES = 10_000_000
#: the most links with collision geometry a matrix is computed for by default (as the node's
#: ros.collision_matrix.MAX_LINKS; --max-links raises it)
MAX_LINKS = 1000
#: the most placements of links (states x links: about 30 s), of at most MAX_PLACED_LINKS
#: links (as the node)
MAX_PLACEMENTS = 20_000_000


def compute_for_robot(robot, package_dirs, samples: int, seed: int) -> 'CollisionMatrix':
    """
    Load a robot's meshes and compute its collision matrix.

    :param robot: the parsed model
    :param package_dirs: package name -> directory, for ``package://`` meshes
    :param samples: random states
    :param seed: their seed
    :return: the matrix
    :raises CollisionLibraryMissing: when coal is not installed
    """
    from urdf_link_tools.analysis import load_meshes
    from urdf_link_tools.collision.bodies import build_bodies
    from urdf_link_tools.collision.matrix import compute_matrix
    from urdf_link_tools.meshes import MeshLibrary

    meshes = load_meshes(robot, MeshLibrary(package_dirs=dict(package_dirs)))
    bodies, skipped = build_bodies(robot, meshes)
    return compute_matrix(robot, bodies, samples, seed, tuple(skipped))


def _summary(matrix: 'CollisionMatrix', seconds: float) -> str:
    from urdf_link_tools.reports.sanitize import one_line
    counts = matrix.counts()
    pairs = len(matrix.links) * (len(matrix.links) - 1) // 2
    # Names come from the description: each line of the summary stays one line.
    text = (f'{one_line(matrix.robot)}: {len(matrix.links)} links with collision geometry, '
            f'{pairs} pairs; '
            f'disabled {len(matrix.disabled)}: '
            + ', '.join(f'{count} {reason}' for reason, count in counts.items())
            + f'; {matrix.sometimes} pairs seen in collision sometimes stay checked '
              f'({matrix.samples} random states, seed {matrix.seed}, {seconds:.2f} s)')
    for item in matrix.skipped:
        text += '\n' + one_line(f'  left out: {item.link} {item.element}: {item.reason}')
    return text


def _xacro_srdf(root) -> bool:
    """Return True for an SRDF holding xacro elements or xacro substitutions."""
    from urdf_link_tools.loading import XACRO_NAMESPACE
    namespace = XACRO_NAMESPACE.decode()
    for element in root.iter():
        tag = element.tag if isinstance(element.tag, str) else ''
        if tag.startswith('{') and namespace in tag[1:].split('}', 1)[0]:
            return True
        if any('$(' in value or '${' in value for value in element.attrib.values()):
            return True
    return False


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``collisions``; the exit statuses are those of ``check``."""
    from urdf_link_tools import cli
    from urdf_link_tools.collision.srdf import matrix_srdf, merge_srdf, read_srdf
    from urdf_link_tools.loading import read_bounded
    from urdf_link_tools.parser import parse_urdf_string

    if not 0 <= args.samples <= MAX_SAMPLES:
        raise cli.UsageError(f'--samples must be between 0 and {MAX_SAMPLES}')
    existing = None
    if args.merge:
        try:
            with open(args.merge, 'rb') as stream:
                existing = read_bounded(stream, MAX_SRDF_BYTES, 'the SRDF')
        except OSError as exc:
            raise cli.UsageError(f'--merge {args.merge}: cannot read: {exc.strerror}') from None
        try:
            root = read_srdf(existing)  # refused before the work, not after
        except UrdfInputError as exc:
            raise UrdfInputError(f'--merge {args.merge}: {exc}') from None
        if _xacro_srdf(root):
            # Its arguments, conditions and ${...} names cannot be merged into: written back,
            # MoveIt read "$(arg robot_name)/..." literally and a <xacro:if>'s pairs were lost
            # (Interbotix's px100.srdf.xacro, sweep K).
            raise cli.UsageError(
                f'--merge {args.merge}: a xacro SRDF (xacro elements or $(...)/${{...}} '
                'values): its pairs cannot be merged into it without losing its arguments '
                'and conditions; expand it (xacro FILE ARG:=VALUE > arm.srdf) and merge into '
                'that, or write the computed pairs alone with -o and paste them in')
    if args.output and os.path.splitext(args.output)[1] in ('.urdf', '.xacro'):
        raise cli.UsageError('-o: refusing to write an SRDF over a .urdf or .xacro file')
    if args.output:  # refused before the work, not after (as open_output would refuse it)
        from urdf_link_tools.reports.sanitize import linked_output
        refused = linked_output(args.output)
        if refused is not None:
            raise cli.UsageError(f'-o {args.output}: cannot write: {refused}')
    own = cli.own_package(args, args.robot)
    loaded = cli._load(args, args.robot, err, own)
    robot = parse_urdf_string(loaded.data, loaded.source, loaded.macros,
                              loaded.link_macros)
    colliding = sum(1 for link in robot.links if link.collisions)
    if colliding > args.max_links:
        # A 5-line xacro made 2,048 links: 27 s, 3.2 GB and a 172 MB SRDF; 4,096 links ended
        # in a MemoryError traceback (red-team review 4).
        raise UrdfInputError(
            f'{colliding} links have collision geometry, more than --max-links '
            f'({args.max_links}): the matrix has n^2/2 pairs (2,000 links took 3 GB and '
            'wrote a 172 MB SRDF); raise --max-links to compute it anyway')
    placed = len(robot.links)
    if placed > MAX_PLACED_LINKS or placed * args.samples > MAX_PLACEMENTS:
        # Every link is placed in every state: a 40,000-joint chain holding two boxes took
        # 26 s and 3.4 GB before it ran out of memory (red-team review 16).
        raise UrdfInputError(
            f'the robot has {placed:,} links: sampling places each of them in every one of '
            f'the {args.samples:,} states, and at most {MAX_PLACED_LINKS:,} links and '
            f'{MAX_PLACEMENTS:,} placements (about 30 s) are computed'
            + (f': ask for at most {MAX_PLACEMENTS // placed:,} states with --samples'
               if placed <= MAX_PLACED_LINKS else ''))
    packages = cli._given_packages(args)
    if own is not None:
        packages.setdefault(*own)
    from urdf_link_tools.collision.bodies import CollisionLibraryMissing
    start = time.perf_counter()
    try:
        matrix = compute_for_robot(robot, packages, args.samples, args.seed)
    except CollisionLibraryMissing as exc:
        err.write(f'urdf-link-tools: error: {exc}\n')
        return cli.EXIT_INPUT
    seconds = time.perf_counter() - start
    kept = 0
    if existing is not None:
        text, kept = merge_srdf(existing, matrix)
    else:
        text = matrix_srdf(matrix)
    if args.output:
        try:
            from urdf_link_tools.reports.sanitize import open_output
            with open_output(args.output, binary=True) as stream:
                stream.write(text)
        except OSError as exc:
            raise cli.UsageError(f'-o {args.output}: cannot write: {exc.strerror}') from None
    else:
        # Link names come from the description: through the output boundary, as check's.
        from urdf_link_tools.reports.sanitize import neutralise
        out.write(neutralise(text.decode('utf-8')))
    summary = _summary(matrix, seconds)
    if existing is not None:
        where = args.output or 'standard output'
        summary += (f'\n  {args.merge} merged, written to {where} ({args.merge} is unchanged): '
                    f'{kept} hand-written pairs kept')
    err.write(summary + '\n')
    return cli.EXIT_OK


def add_parser(commands, add_xacro_arguments) -> None:
    """Add the ``collisions`` subcommand."""
    parser = commands.add_parser(
        'collisions', help="write MoveIt's collision matrix (SRDF disable_collisions) as "
                           'MoveIt Setup Assistant computes it',
        description='Compute which pairs of links a planner need not check (SRDF '
                    '<disable_collisions>), as MoveIt Setup Assistant does: Adjacent links, '
                    'links in collision in the Default state, Always in collision (over 95% '
                    'of 200 random states), Never in collision over --samples random states '
                    'within the joint limits (mimic joints followed). Needs the coal '
                    'collision library.')
    parser.add_argument('robot', metavar='ROBOT', help='URDF or xacro file, or - for stdin')
    add_xacro_arguments(parser)
    parser.add_argument('--package-dir', action='append', metavar='NAME=PATH', default=[],
                        help='directory of a package for package:// URIs and for xacro: '
                             '$(find NAME) (repeatable)')
    parser.add_argument('--samples', type=int, default=DEFAULT_SAMPLES, metavar='N',
                        help=f'random states for the Never test (default {DEFAULT_SAMPLES}; '
                             "Setup Assistant's sampling density)")
    parser.add_argument('--max-links', type=int, default=MAX_LINKS, metavar='N',
                        help=f'the most links with collision geometry to compute a matrix '
                             f'for (default {MAX_LINKS}, as the node: pairs grow as n^2, '
                             '2,000 links took 3 GB)')
    parser.add_argument('--seed', type=int, default=DEFAULT_SEED, metavar='S',
                        help=f'seed of the random states: the same seed gives the same SRDF '
                             f'(default {DEFAULT_SEED})')
    parser.add_argument('--merge', metavar='EXISTING.srdf',
                        help="write EXISTING.srdf's content (groups, end effectors, states, "
                             'hand-written pairs) with its computed pairs replaced')
    parser.add_argument('-o', '--output', metavar='OUT.srdf',
                        help='write the SRDF here (default: standard output)')
    parser.set_defaults(handler=run)
