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
The offline command line: ``urdf-link-tools info|check ROBOT.urdf``.

It uses only the pure core, so it runs in CI jobs with no ROS graph and no rclpy.
"""

import argparse
import logging
import sys
from typing import List, Optional, Sequence, TextIO

from urdf_link_tools.errors import UrdfError
from urdf_link_tools.loading import load_description
from urdf_link_tools.model import Robot
from urdf_link_tools.parser import parse_urdf_string

EXIT_OK = 0
EXIT_WARNINGS = 1
EXIT_ERRORS = 2
EXIT_INPUT = 3


def _load_robot(path: str) -> Robot:
    data, source = load_description(path)
    return parse_urdf_string(data, source)


def format_info(robot: Robot) -> str:
    """
    Summarise every link of a robot, one per line.

    :param robot: the model
    :return: the text table
    """
    rows: List[Sequence[str]] = [
        ('link', 'line', 'mass [kg]', 'visuals', 'collisions', 'parent joint', 'custom')]
    for link in robot.links:
        joint = robot.parent_joint(link.name)
        parent = f'{joint.name} ({joint.type})' if joint is not None else '(root)'
        custom = ', '.join(f'{tag} x{len(link.group(tag))}' for tag in link.custom_groups)
        rows.append((link.name, str(link.line or ''), f'{link.mass:.6g}',
                     str(len(link.visuals)), str(len(link.collisions)), parent, custom or '-'))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [f'robot {robot.name!r}: {len(robot.links)} links, {len(robot.joints)} joints, '
             f'{len(robot.materials)} top-level materials, total mass '
             f'{sum(link.mass for link in robot.links):.6g} kg']
    for row in rows:
        lines.append('  '.join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    for note in robot.notes:
        lines.append(f'note: line {note.line}: {note.message}')
    return '\n'.join(lines)


def _cmd_info(args: argparse.Namespace, out: TextIO) -> int:
    robot = _load_robot(args.robot)
    out.write(format_info(robot) + '\n')
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog='urdf-link-tools',
        description='Explain what is wrong with the links of a URDF, with no ROS graph.')
    commands = parser.add_subparsers(dest='command', metavar='COMMAND')
    commands.required = True
    info = commands.add_parser('info', help='print a summary of every link')
    info.add_argument('robot', help='URDF or xacro file, or - for standard input')
    info.set_defaults(handler=_cmd_info)
    return parser


def main(argv: Optional[Sequence[str]] = None, out: Optional[TextIO] = None,
         err: Optional[TextIO] = None) -> int:
    """
    Run the command line.

    :param argv: arguments without the program name (defaults to sys.argv[1:])
    :param out: stream for results (defaults to stdout)
    :param err: stream for errors (defaults to stderr)
    :return: the exit status
    """
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    logging.basicConfig(level=logging.WARNING, format='%(levelname)s: %(message)s')
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args, out))
    except UrdfError as exc:
        err.write(f'urdf-link-tools: error: {args.robot}: {exc}\n')
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_OK


if __name__ == '__main__':
    sys.exit(main())
