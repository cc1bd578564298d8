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
from dataclasses import replace
import logging
import sys
from typing import List, Optional, Sequence, TextIO

from urdf_link_tools.errors import UrdfError
from urdf_link_tools.loading import load_description
from urdf_link_tools.model import Robot
from urdf_link_tools.parser import parse_urdf_string

# Exit statuses (stable; README "Exit status"). 4 was added so that a wrong command line is
# no longer mistaken for "errors found" (argparse exits 2 by default).
EXIT_OK = 0
EXIT_WARNINGS = 1
EXIT_ERRORS = 2
EXIT_INPUT = 3
EXIT_USAGE = 4

FORMATS = ('text', 'json', 'sarif', 'github')  # urdf_link_tools.outputs renders them
FAIL_ON = ('error', 'warning', 'never')


class UsageError(Exception):
    """The command line is wrong (an unknown rule, a bad threshold, an unreadable --baseline)."""


class _ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose usage errors exit with EXIT_USAGE instead of 2."""

    def error(self, message: str) -> None:  # noqa: D102 (argparse's documented hook)
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f'{self.prog}: error: {message}\n')


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


def _cmd_info(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    robot = _load_robot(args.robot)
    out.write(format_info(robot) + '\n')
    return EXIT_OK


def _check_config(args: argparse.Namespace):
    from urdf_link_tools.checks import is_known_rule
    from urdf_link_tools.config import CheckConfig, config_from_mapping, load_config_yaml

    config = CheckConfig()
    if args.config:
        try:
            config = load_config_yaml(args.config)
        except ValueError as exc:
            raise UsageError(f'--config {exc}') from None
    changes = {}
    for name in ('inertia_mismatch_factor', 'density_min', 'density_max',
                 'collision_face_limit', 'min_mass', 'mesh_max_bytes'):
        value = getattr(args, name)
        if value is not None:
            changes[name] = value
    if args.ignore:
        unknown = [rule for rule in args.ignore if not is_known_rule(rule)]
        if unknown:
            raise UsageError(f'--ignore: unknown rule {unknown[0]!r} (see docs/rules.md)')
        changes['ignore_rules'] = sorted(set(config.ignore_rules) | set(args.ignore))
    if args.package_dir:
        # Command-line directories win over those of the configuration file.
        changes['package_dirs'] = list(args.package_dir) + [
            f'{name}={path}' for name, path in config.package_dirs]
    if args.no_meshes:
        changes['check_meshes'] = False
    try:
        return config_from_mapping(changes, config, ignore_unknown=False)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _check_robot(path: str, args: argparse.Namespace, config, baseline, out: TextIO):
    from urdf_link_tools.analysis import analyze
    from urdf_link_tools.fix import fix_inertia
    from urdf_link_tools.loading import is_xacro
    from urdf_link_tools.outputs import build_report

    data, source = load_description(path)
    robot = parse_urdf_string(data, source)
    if args.skip_macro_files and not robot.links and is_xacro(path, data):
        return None
    analysis = analyze(robot, config)
    if source is not None and not is_xacro(path, data):
        # A URDF is its own source file (xacro input gets its files from the xacro mapping).
        analysis = replace(analysis, findings=tuple(
            replace(finding, file=source) if finding.file is None else finding
            for finding in analysis.findings))
    report = build_report(analysis, path if path != '-' else 'standard input',
                          data if path == '-' else None, baseline)
    if args.fix_inertia:
        fixed, fixes = fix_inertia(data, report.analysis)
        try:
            with open(args.fix_inertia, 'wb') as stream:
                stream.write(fixed)
        except OSError as exc:
            raise UsageError(f'--fix-inertia {args.fix_inertia}: cannot write: '
                             f'{exc.strerror}') from None
        note = sys.stderr if args.format != 'text' else out
        note.write(f'fix-inertia: wrote {args.fix_inertia} with {len(fixes)} inertia '
                   f'tensor{"s" if len(fixes) != 1 else ""} replaced'
                   + ''.join(f'\n  {fix.link} (line {fix.line}, {fix.rule})' for fix in fixes)
                   + '\n')
    return report


def exit_status(reports: Sequence, input_errors: int, fail_on: str) -> int:
    """
    Return the exit status of ``check``.

    :param reports: the CheckReports (their findings are the reported ones)
    :param input_errors: how many inputs could not be read
    :param fail_on: 'error', 'warning' or 'never'
    :return: EXIT_INPUT when an input could not be read, else EXIT_ERRORS for errors (unless
        never), EXIT_WARNINGS for warnings with ``fail_on == 'warning'``, else EXIT_OK
    """
    from urdf_link_tools.findings import Severity, worst_severity

    if input_errors:
        return EXIT_INPUT
    worst = worst_severity([f for report in reports for f in report.analysis.findings])
    if fail_on == 'never' or worst is None:
        return EXIT_OK
    if worst == Severity.ERROR:
        return EXIT_ERRORS
    if worst == Severity.WARNING and fail_on == 'warning':
        return EXIT_WARNINGS
    return EXIT_OK


def _robot_paths(args: argparse.Namespace) -> List[str]:
    return list(args.robot)


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from urdf_link_tools.baseline import load_baseline
    from urdf_link_tools.outputs import render

    config = _check_config(args)
    paths = _robot_paths(args)
    if args.fix_inertia and len(paths) != 1:
        raise UsageError('--fix-inertia works on one robot at a time')
    if paths.count('-') > 1:
        raise UsageError('standard input (-) can be read once')
    baseline = None
    if args.baseline:
        try:
            baseline = load_baseline(args.baseline)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    reports = []
    input_errors: List = []
    for path in paths:
        try:
            report = _check_robot(path, args, config, baseline, out)
        except UrdfError as exc:
            input_errors.append((path, str(exc)))
            continue
        if report is None:
            err.write(f'urdf-link-tools: {path}: skipped, a xacro file without <link> '
                      '(a macro file: its links are checked where a robot uses them)\n')
        else:
            reports.append(report)
    status = exit_status(reports, len(input_errors), args.fail_on)
    text = render(args.format, reports, input_errors, status, args.baseline)
    if text:
        out.write(text + '\n')
    for path, message in input_errors:
        err.write(f'urdf-link-tools: error: {path}: {message}\n')
    return status


def _add_check_parser(commands) -> None:
    check = commands.add_parser(
        'check', help='check every link; exit 0 clean, 1 warnings (--fail-on warning), '
                      '2 errors, 3 unreadable input, 4 usage error',
        description='Check the links of URDF or xacro files: inertia, geometry, collisions, '
                    'meshes, structure. Exit status: 0 nothing to fail on, 1 warnings but no '
                    'errors with --fail-on warning, 2 errors (unless --fail-on never), 3 an '
                    'input could not be read, 4 wrong command line.')
    check.add_argument('robot', nargs='+', metavar='ROBOT',
                       help='URDF or xacro file, or - for standard input (several: each is '
                            'checked, as pre-commit passes them)')
    check.add_argument('--format', choices=FORMATS, default='text',
                       help='text grouped by link (default), one JSON object, SARIF 2.1.0 for '
                            'code scanning, or GitHub Actions annotations')
    check.add_argument('--skip-macro-files', action='store_true',
                       help='skip xacro files that expand to no <link> (macro files that '
                            'robots include), as the pre-commit hook does')
    check.add_argument('--fail-on', choices=FAIL_ON, default='error',
                       help='which findings make the exit status non-zero (default error)')
    check.add_argument('--baseline', metavar='REPORT.json',
                       help='report only findings not in this earlier --format json report '
                            '(matched by rule, link and element, not line)')
    check.add_argument('--package-dir', action='append', metavar='NAME=PATH', default=[],
                       help='directory of a package for package:// URIs (repeatable); '
                            'wins over the ament index (AMENT_PREFIX_PATH)')
    check.add_argument('--ignore', action='append', metavar='RULE', default=[],
                       help='drop the findings of a rule (repeatable)')
    check.add_argument('--config', metavar='YAML',
                       help='read thresholds from the urdf_link_tools: ros__parameters: '
                            'section of a parameter file (flags win)')
    check.add_argument('--inertia-mismatch-factor', type=float, metavar='F',
                       help='flag moments off from the collision geometry by more (default 10)')
    check.add_argument('--density-min', type=float, metavar='KG_M3',
                       help='lowest plausible density (default 50)')
    check.add_argument('--density-max', type=float, metavar='KG_M3',
                       help='highest plausible density (default 25000)')
    check.add_argument('--collision-face-limit', type=int, metavar='N',
                       help='most faces of a collision mesh (default 1000)')
    check.add_argument('--min-mass', type=float, metavar='KG',
                       help='lightest plausible moving link (default 1e-6)')
    check.add_argument('--mesh-max-bytes', type=int, metavar='N',
                       help='refuse larger mesh files (default 100000000)')
    check.add_argument('--no-meshes', action='store_true',
                       help='do not load mesh files (skips mesh-based rules)')
    check.add_argument('--strict', action='store_const', const='warning', dest='fail_on',
                       help='the same as --fail-on warning')
    check.add_argument('--fix-inertia', metavar='OUT.urdf',
                       help='write a copy with each flagged inertia replaced by the '
                            'suggested one (all other bytes unchanged)')
    check.set_defaults(handler=_cmd_check)


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every subcommand."""
    parser = _ArgumentParser(
        prog='urdf-link-tools',
        description='Explain what is wrong with the links of a URDF, with no ROS graph.')
    commands = parser.add_subparsers(dest='command', metavar='COMMAND')
    commands.required = True
    info = commands.add_parser('info', help='print a summary of every link')
    info.add_argument('robot', help='URDF or xacro file, or - for standard input')
    info.set_defaults(handler=_cmd_info)
    _add_check_parser(commands)
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
        return int(args.handler(args, out, err))
    except UsageError as exc:
        err.write(f'urdf-link-tools: error: {exc}\n')
        return EXIT_USAGE
    except UrdfError as exc:
        err.write(f'urdf-link-tools: error: {args.robot}: {exc}\n')
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_OK


if __name__ == '__main__':
    sys.exit(main())
