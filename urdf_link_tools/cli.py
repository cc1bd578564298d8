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
The offline command line: ``urdf-link-tools info|check|collisions ROBOT.urdf``.

It uses only the pure core, so it runs in CI jobs with no ROS graph and no rclpy.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import logging
import os
import re
import sys
from typing import (Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set,
                    TextIO, Tuple)
import warnings

from urdf_link_tools.errors import UrdfError, UrdfInputError, UrdfStructureError
from urdf_link_tools.findings import Severity
from urdf_link_tools.limits import DESCRIPTION_MAX_BYTES, MESH_MAX_BYTES
from urdf_link_tools.loading import is_xacro, load_input, LoadedDescription
from urdf_link_tools.model import is_fragment, Robot
from urdf_link_tools.parser import parse_urdf_string
from urdf_link_tools.reports import FORMATS
from urdf_link_tools.reports.sanitize import neutralise, NeutralStream, one_line, open_output
from urdf_link_tools.startup import importing

# Exit statuses (stable; README "Exit status"). 4 was added so that a wrong command line is
# no longer mistaken for "errors found" (argparse exits 2 by default); 5 so that a bug in this
# tool (an internal-error finding) fails a CI run whatever --fail-on says.
EXIT_OK = 0
EXIT_WARNINGS = 1
EXIT_ERRORS = 2
EXIT_INPUT = 3
EXIT_USAGE = 4
EXIT_INTERNAL = 5

FAIL_ON = ('error', 'warning', 'never')
LOG = logging.getLogger(__name__)


class UsageError(Exception):
    """The command line is wrong (an unknown rule, a bad threshold, an unreadable --baseline)."""


class _HelpFormatter(argparse.HelpFormatter):
    """
    argparse's formatter, its width found without importing shutil.

    argparse makes a formatter for every add_argument (to check the argument), and its
    default imports shutil (with bz2 and lzma: 4 ms of every run) to ask the terminal's
    width. This asks as shutil.get_terminal_size does: $COLUMNS, else standard output's
    terminal, else 80 columns; two fewer, as argparse takes.
    """

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: Optional[int] = None) -> None:
        if width is None:
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _terminal_columns() -> int:
    try:
        columns = int(os.environ['COLUMNS'])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose usage errors exit with EXIT_USAGE instead of 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault('formatter_class', _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # noqa: D102 (argparse's documented hook)
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, neutralise(f'{self.prog}: error: {message}\n'))


class _NeutralFormatter(logging.Formatter):
    """Log records name links and files too: neutralised as every other output line."""

    def format(self, record: logging.LogRecord) -> str:  # noqa: A003, D102 (logging's hook)
        return neutralise(super().format(record))


def _given_packages(args: argparse.Namespace) -> Dict[str, str]:
    packages = {}
    for item in args.package_dir:
        name, separator, path = item.partition('=')
        if separator and name.strip():
            packages[name.strip()] = path
    return packages


def own_package(args: argparse.Namespace, path: str) -> Optional[Tuple[str, str]]:
    """Return the checked file's own package when only its sources can resolve it."""
    from urdf_link_tools.packages import own_package_dir
    return own_package_dir(path, _given_packages(args))


def _refuse_linked_folders(option: str, folders: Sequence[str]) -> None:
    """Refuse a folder to read from (or edit in) that a pull request could have linked."""
    from urdf_link_tools.reports.sanitize import linked_input_folder
    for folder in folders:
        linked = linked_input_folder(folder) if folder else None
        if linked is not None:
            raise UsageError(
                f'{option} {folder}: {linked} is a symbolic link of the checkout (below the '
                'working directory, or in a repository or package); a folder read from is '
                'never taken through one, as a pull request can commit it (name the real '
                'folder)')


def _refuse_linked_files(option: str, paths: Sequence[str]) -> None:
    """
    Refuse an input file given by an option that a symbolic link leads out of its package.

    ``--srdf``, ``--merge``, ``--config`` and ``--baseline`` name files of the checkout: a
    pull request can commit one as a link to another checkout's file (``--merge`` printed
    an outside SRDF whole, ``--config`` quoted a line of ``.git/config``: red-team review
    4), which the robot files named on the command line were refused already.
    """
    from urdf_link_tools.read_policy import link_out_of_package
    for path in paths:
        if not path or path == '-':
            continue
        refusal = link_out_of_package(path)
        if refusal is not None:
            raise UsageError(f'{option} {refusal}')


def _refuse_linked_inputs(args: argparse.Namespace) -> None:
    _refuse_linked_files('--srdf', getattr(args, 'srdf', None) or ())
    for option in ('merge', 'config', 'baseline'):
        value = getattr(args, option, None)
        _refuse_linked_files(f'--{option}', [value] if isinstance(value, str) else ())
    _refuse_linked_folders('--package-dir', [
        item.partition('=')[2] for item in getattr(args, 'package_dir', None) or ()])
    _refuse_linked_folders('--xacro-allow-dir', getattr(args, 'xacro_allow_dir', None) or ())
    _refuse_linked_folders('--fix-allow-dir', getattr(args, 'fix_allow_dir', None) or ())


def _xacro_options(args: argparse.Namespace, own: Optional[Tuple[str, str]] = None):
    from urdf_link_tools.xacro.sandbox import parse_mappings, XacroOptions
    try:
        mappings = parse_mappings(args.xacro_args)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    packages = _given_packages(args)
    if own is not None:
        packages.setdefault(*own)
    return XacroOptions(mappings=mappings, package_dirs=packages,
                        allow_env=tuple(args.xacro_env), allow_dirs=tuple(args.xacro_allow_dir),
                        timeout=args.xacro_timeout)


def _robot_paths(args: argparse.Namespace) -> List[str]:
    return list(args.robot) if isinstance(args.robot, list) else [args.robot]


def _load(args: argparse.Namespace, path: str, err: TextIO,
          own: Optional[Tuple[str, str]] = None) -> LoadedDescription:
    """
    Read one input as the arguments say, printing notes and writing --emit-urdf.

    :param own: the input's own package, for ``$(find)`` when nothing else resolves it
        (:func:`own_package`)
    """
    if args.xacro_args and not (args.xacro or any(robot.endswith('.xacro')
                                                  for robot in _robot_paths(args))):
        raise UsageError('name:=value arguments are for xacro input (a .xacro file, or '
                         '--xacro)')
    xacro = True if args.xacro else None
    loaded = load_input(path, DESCRIPTION_MAX_BYTES, xacro=xacro,
                        options=_xacro_options(args, own) if is_xacro(path, xacro) else None)
    for note in loaded.notes:
        err.write(f'urdf-link-tools: note: {note}\n')
    if args.emit_urdf:
        if len(_robot_paths(args)) > 1:
            raise UsageError('--emit-urdf works on one robot at a time')
        if args.emit_urdf.endswith('.xacro'):
            raise UsageError('--emit-urdf: refusing to write a URDF over a .xacro file')
        try:
            with open_output(args.emit_urdf, binary=True) as stream:
                stream.write(loaded.data)
        except OSError as exc:
            raise UsageError(f'--emit-urdf {args.emit_urdf}: cannot write: '
                             f'{exc.strerror}') from None
    return loaded


def _source_label(loaded: LoadedDescription) -> Optional[Callable[[Optional[int]], str]]:
    """Return how to name a parsed line: its xacro file:line when the expansion is traced."""
    if loaded.source_map is None or not len(loaded.source_map):
        return None
    from urdf_link_tools.xacro.source_map import display_path

    def where(line: Optional[int]) -> str:
        place = loaded.source_map.locate(line)
        return f'{display_path(place.file)}:{place.line}' if place else str(line or '')
    return where


def _link_places(robot: Robot, loaded: LoadedDescription) -> Dict[str, Tuple[str, int]]:
    """Return where each link of an expanded description was written, where traced."""
    places: Dict[str, Tuple[str, int]] = {}
    if loaded.source_map is None:
        return places
    for link in robot.links:
        place = loaded.source_map.locate(link.line)
        if place is not None:
            places[link.name] = (place.file, place.line)
    return places


def format_info(robot: Robot, where: Optional[Callable[[Optional[int]], str]] = None) -> str:
    """
    Summarise every link of a robot, one per line.

    :param robot: the model
    :param where: names the source of a line of the parsed document (xacro: file:line)
    :return: the text table
    """
    where = where or (lambda line: str(line or ''))
    rows: List[Sequence[str]] = [
        ('link', 'line', 'mass [kg]', 'visuals', 'collisions', 'parent joint', 'custom')]
    for link in robot.links:
        joint = robot.parent_joint(link.name)
        parent = f'{joint.name} ({joint.type})' if joint is not None else '(root)'
        custom = ', '.join(f'{tag} x{len(link.group(tag))}' for tag in link.custom_groups)
        rows.append((link.name, where(link.line), f'{link.mass:.6g}',
                     str(len(link.visuals)), str(len(link.collisions)), parent, custom or '-'))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [f'robot {robot.name!r}: {len(robot.links)} links, {len(robot.joints)} joints, '
             f'{len(robot.materials)} top-level materials, total mass '
             f'{sum(link.mass for link in robot.links):.6g} kg']
    for row in rows:
        lines.append('  '.join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    for note in robot.notes:
        lines.append(f'note: line {where(note.line)}: {note.message}')
    return '\n'.join(one_line(line) for line in lines)


#: what a ROS 1 file of macros (another root than <robot>) expanded to, and what to do
_MACRO_FILE = ('xacro expanded it to a document without <robot> and without any <link>: a '
               "file of macros (ROS 1's <root> convention); check the robot that uses them")


def _cmd_info(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    loaded = _load(args, args.robot, err, own_package(args, args.robot))
    try:
        robot = parse_urdf_string(loaded.data, loaded.source, loaded.macros,
                                  loaded.link_macros)
    except UrdfStructureError:
        root = _xml_root(loaded.data) if loaded.expanded else None
        if root is None or not _no_links(root):
            raise
        raise UrdfStructureError(_MACRO_FILE) from None  # (check: robot-empty)
    NeutralStream(out).write(format_info(robot, _source_label(loaded)) + '\n')
    return EXIT_OK


def _check_config(args: argparse.Namespace, err: Optional[TextIO] = None):
    from urdf_link_tools.config import CheckConfig, config_from_mapping, load_config_yaml

    config = CheckConfig()
    if args.config:
        try:
            config = load_config_yaml(args.config)
        except ValueError as exc:
            raise UsageError(f'--config {exc}') from None
        _refuse_linked_folders(f'--config {args.config}: package_dirs',
                               [path for _, path in config.package_dirs])
    changes = {}
    for name in ('inertia_mismatch_factor', 'density_min', 'density_max',
                 'collision_face_limit', 'min_mass', 'mesh_max_bytes',
                 'max_findings_per_rule'):
        value = getattr(args, name)
        if value is not None:
            changes[name] = value
    if args.ignore:
        from urdf_link_tools.checks import INTERNAL_RULE, is_known_rule, RULES
        unknown = [rule for rule in args.ignore if not is_known_rule(rule)]
        if unknown:
            from urdf_link_tools.checks.names import NameSuggester
            guess = NameSuggester(RULES).suggest(unknown[0])  # as the node's ignore_rules
            hint = f" (did you mean '{guess}'?)" if guess else ''
            raise UsageError(f'--ignore: unknown rule {unknown[0]!r}{hint}: see docs/rules.md '
                             'for the rule ids')
        if INTERNAL_RULE.rule_id in args.ignore:
            raise UsageError('--ignore: internal-error cannot be ignored: it says a check of '
                             'this tool failed, so its findings are missing')
        changes['ignore_rules'] = sorted(set(config.ignore_rules) | set(args.ignore))
    if args.package_dir:
        # Command-line directories win over those of the configuration file.
        changes['package_dirs'] = list(args.package_dir) + [
            f'{name}={path}' for name, path in config.package_dirs]
    if args.target:
        changes['targets'] = list(args.target)
    if getattr(args, 'srdf', None):
        changes['disabled_collisions'] = sorted(
            config.disabled_collisions | _srdf_pairs(args.srdf, err, args))
    if args.no_meshes:
        changes['check_meshes'] = False
    try:
        return config_from_mapping(changes, config, ignore_unknown=False)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _srdf_pairs(paths: List[str], err: Optional[TextIO] = None,
                args: Optional[argparse.Namespace] = None):
    """
    Return the pairs of links the SRDF files disable (any reason).

    A ``.srdf.xacro`` is expanded as the robot is, in the same sandbox with the same
    ``NAME:=VALUE`` arguments and packages (a prefix given to both: Kassow's SRDF, expanded
    by hand with its default prefix, named none of the robot's links). A URDF, or xacro in a
    file not named ``.xacro``, given as the SRDF is a usage error (its pairs would be
    silently missing); an SRDF that disables no pair gets a note.
    """
    from urdf_link_tools.collision.srdf import disabled_pairs, read_srdf
    from urdf_link_tools.errors import UrdfInputError
    from urdf_link_tools.limits import SRDF_MAX_BYTES
    pairs = set()
    for path in paths:
        try:
            if args is not None and path.endswith('.xacro'):
                from urdf_link_tools.xacro.sandbox import expand_xacro
                root = read_srdf(expand_xacro(
                    path, _xacro_options(args, own_package(args, path))).data)
            else:
                with open(path, 'rb') as stream:
                    data = stream.read(SRDF_MAX_BYTES + 1)
                if len(data) > SRDF_MAX_BYTES:
                    raise UrdfInputError(f'larger than {SRDF_MAX_BYTES >> 20} MiB, not an SRDF '
                                         'of a robot')
                root = read_srdf(data)
        except OSError as exc:
            raise UsageError(f'--srdf {path}: cannot read it: {exc.strerror}') from None
        except UrdfInputError as exc:
            raise UsageError(f'--srdf {path}: {exc}') from None
        found = disabled_pairs(root)
        if root.find('link') is not None or root.find('joint') is not None:
            raise UsageError(f'--srdf {path}: this is a URDF (it has <link> or <joint> '
                             "elements), not the MoveIt config's SRDF")
        if any('xacro' in str(key) for key in root.nsmap.values()) or \
                any('$(' in value or '${' in value for pair in found for value in pair):
            raise UsageError(f'--srdf {path}: this SRDF is xacro: expand it first '
                             f'(xacro {path} > robot.srdf) and give the result')
        if not found and err is not None:
            err.write(f'urdf-link-tools: note: --srdf {path} disables no pair of links (no '
                      '<disable_collisions>): every overlap at rest is reported\n')
        pairs.update(found)
    return frozenset(pairs)


def _included_file(path: str, includer: Optional[str]) -> Optional[str]:
    """Say why a file of macros that another checked file includes (or '') is skipped."""
    if includer is None:
        return None
    if not includer:
        return ('a xacro file of macros without <link> (its links are checked where a robot '
                'calls them; check it alone to check it as a robot)')
    return (f'a xacro file without <link> that {one_line(includer)} includes (a macro file: '
            'its links are checked where a robot uses them; check it alone to check it as a '
            'robot)')


#: the start tag of a document's <robot> root, after any prolog
_ROBOT_TAG = re.compile(rb'<robot\b[^>]*>')
_NAME_ATTRIBUTE = re.compile(rb'\sname\s*=')
_UNDEFINED = re.compile(r"name '([A-Za-z_]\w*)' is not defined")


def _source_text(path: str) -> Optional[bytes]:
    """Return a description file's text as written (bounded), None when it cannot be read."""
    try:
        with open(path, 'rb') as stream:
            return stream.read(DESCRIPTION_MAX_BYTES)
    except OSError:
        return None


def _empty_stub(path: str, args: argparse.Namespace) -> Optional[str]:
    """
    Say why an empty description file is skipped by --skip-macro-files, else None.

    InMoov's four 0-byte *.urdf.xacro placeholders (sweep N) failed the pre-commit hook
    (exit 3, "not well-formed XML: no element found"): a file with nothing in it is no
    robot and no macro to check. Checked alone, it is an input error as before.
    """
    if not args.skip_macro_files or path == '-':
        return None
    try:
        if os.path.getsize(path) > 4096:  # blanks only: a few at most
            return None
    except OSError:
        return None  # the check says why
    text = _source_text(path)
    if text is None or text.strip():
        return None
    return 'an empty file (nothing to check)'


def _library_needing_includer(path: str, args: argparse.Namespace,
                              error: Exception) -> Optional[str]:
    """
    Say why a file of macros whose top level needs its includer's properties is skipped.

    robot_properties_bolt's leg.xacro: macros, and at its top level ``<xacro:if
    value="${has_passive_ankle}">``, a property the including bolt.xacro sets. Checked with
    it (``check urdf/*.xacro``) or alone by the pre-commit hook, it failed to expand ("name
    'has_passive_ankle' is not defined", exit 3), though xacro expands the robot. Only for a
    file of the run that another includes, or that defines macros under a ``<robot>`` with
    no name (a robot needs one: a top-level file's misspelt property stays an error).

    :return: the note, or None when the error is the input's own
    """
    undefined = _UNDEFINED.search(str(error))
    if undefined is None or not path.lower().endswith('.xacro'):
        return None
    includer = getattr(args, 'included_by', {}).get(path)
    if includer is None and not (args.skip_macro_files or
                                 path in getattr(args, 'macro_libraries', ())):
        return None
    text = _source_text(path)
    root = _ROBOT_TAG.search(text) if text is not None else None
    if root is None or _NAME_ATTRIBUTE.search(root.group(0)) or not _MACRO.search(text):
        return None
    by = f'{one_line(includer)} includes it' if includer else 'a file including it sets it'
    return (f"a xacro file of macros whose top level uses '{undefined.group(1)}', which it "
            f'does not define ({by}): its links are checked where a robot includes it')


#: a xacro include's file name, as written (the prefix is xacro's conventional one)
_INCLUDE = re.compile(rb'<xacro:include\b[^>]*?\bfilename\s*=\s*("[^"]*"|\'[^\']*\')')


#: a xacro macro definition, as written
_MACRO = re.compile(rb'<xacro:macro\b')


def _included_by(paths: Sequence[str]) -> Tuple[Dict[str, str], FrozenSet[str]]:
    """
    Return the xacro files of a run that another file of the run includes, with that file.

    Matched by file name (``$(find pkg)/urdf/arm.xacro`` names ``arm.xacro``): the include
    is read from the text, before any expansion. A name made by an expression is no name.
    Also the files that define a macro: with others in a run, one that expands to no link is
    a library's (Husarion's ros_components_description, Robotiq's adapters: every file a
    robot-empty error of a `check urdf/*.xacro` job).

    :return: (file -> the file including it, the files defining macros)
    """
    xacro = [path for path in paths if path != '-' and path.lower().endswith('.xacro')]
    if len(paths) < 2 or not xacro:
        return {}, frozenset()
    names: Dict[str, str] = {}
    libraries = set()
    for path in xacro:
        text = _source_text(path)
        if text is None:
            continue  # the check says why
        if _MACRO.search(text):
            libraries.add(path)
        for match in _INCLUDE.finditer(text):
            name = match.group(1)[1:-1].decode('utf-8', 'replace').rsplit('/', 1)[-1]
            if name and '$' not in name and '{' not in name:
                names.setdefault(name, path)
    found = {}
    for path in xacro:
        includer = names.get(os.path.basename(path))
        if includer is not None and os.path.abspath(includer) != os.path.abspath(path):
            found[path] = includer
    return found, frozenset(libraries)


def _check_robot(path: str, args: argparse.Namespace, config, baseline, out: TextIO,
                 err: Optional[TextIO] = None, read_processes: int = 1):
    # A worker's standard error is captured per robot (check_runner), so the stream is taken
    # when the robot is checked, not when the run starts.
    err = err if err is not None else NeutralStream(sys.stderr)

    empty = _empty_stub(path, args)
    if empty is not None:
        return empty
    # Its own package resolves from its sources (a CI job checks them unbuilt).
    own = own_package(args, path)
    if own is not None:
        config = dataclasses.replace(config, package_dirs=config.package_dirs + (own,))
    try:
        loaded = _load(args, path, err, own)
    except UrdfInputError as exc:
        library = _library_needing_includer(path, args, exc)
        if library is None:
            raise
        return library
    data, source = loaded.data, loaded.source
    # A xacro file another file of this run includes is a file of macros when it expands to
    # no link (`check urdf/*.xacro` in CI: robot.urdf.xacro and the arm.xacro it includes).
    includer = getattr(args, 'included_by', {}).get(path) if loaded.expanded else None
    if includer is None and loaded.expanded and path in getattr(args, 'macro_libraries', ()):
        includer = ''  # a file of a library of macros, checked with others (see _included_by)
    skipped = None if args.skip_macro_files else _included_file(path, includer)
    try:
        robot = parse_urdf_string(data, source, loaded.macros, loaded.link_macros)
    except UrdfStructureError:
        # A ROS 1 file of macros has another root (<root>, as Kinova's and the PR2's
        # sensors): xacro expands it to no link at all, which is no robot to check. So is
        # a file whose root is the macro itself (Quori's quori_kinematics.xacro: <xacro:macro>
        # holding the robot's links, which xacro keeps as the root: exit 3 before).
        root = _xml_root(data) if loaded.expanded else None
        if root is None or not (_no_links(root) or _macro_root(root)):
            raise
        if args.skip_macro_files or includer is not None:
            return skipped
        # Checked alone, the same finding as a file of macros under <robot> (robot-empty,
        # exit 2), not an input that could not be read (exit 3): xacro expands it.
        robot = parse_urdf_string(_root_as_robot(data, root), source, loaded.macros,
                                  loaded.link_macros)
    # A file of macros, or a plain fragment that descriptions include (a placeholder
    # <robot/>, shared materials): not a robot. A URDF with joints and no link is one, broken.
    # (Not one whose xacro directives lack their prefix: that is why it is empty.)
    if (args.skip_macro_files or includer is not None) and not robot.links and \
            (loaded.expanded or not robot.joints) and \
            not robot.has_note('parse-xacro-unprefixed') and not _srdf(robot):
        return skipped
    if (args.skip_macro_files or getattr(args, 'several', False)) and not robot.links and \
            _srdf(robot):
        # `check $(git ls-files '*.xacro')` takes a MoveIt package's *.srdf.xacro too (every
        # Interbotix arm's): not a robot of this run, said so (it was "a macro file").
        return ('a MoveIt SRDF (the semantic description of a robot, not a URDF): give it '
                'with --srdf when checking the robot it describes')
    # A fragment (a gripper, a sensor mount) is checked too, without the errors of its
    # attachment to links it does not define: skipped whole, a robot whose root a pull
    # request hung from an undeclared 'World' passed the pre-commit hook with every error.
    fragment = bool(args.skip_macro_files) and is_fragment(robot)
    if fragment:
        err.write(f'urdf-link-tools: note: {one_line(path)}: a fragment whose links all hang '
                  'from links it does not define (a gripper, a sensor mount): its own links '
                  'are checked; where it attaches is checked where a robot includes it\n')
    ahead = _read_ahead(robot, config) if read_processes > 1 else None
    try:
        # Imported after the reading child has started: NumPy, coal and the checks load
        # here while it reads (meshes.aside).
        with importing('urdf_link_tools.analysis'):
            from urdf_link_tools.analysis import analyze
            from urdf_link_tools.reports.build import build_report
        # The child started here is the only one (none when it was not worth a fork).
        analysis = analyze(robot, config, read_processes=2 if ahead else 1, ahead=ahead)
    finally:
        if ahead is not None:
            ahead.cancel()  # nothing left to stop once its answer was taken
    if fragment:
        analysis = dataclasses.replace(analysis, findings=_without_attachment(
            analysis.findings, robot))
    analysis = dataclasses.replace(analysis, findings=loaded.locate(analysis.findings))
    ignored = getattr(args, 'ignore_package', ())
    if ignored:
        # A package not found that the user names (hsrb_meshes, nao_meshes: meshes kept in a
        # repository of their own, not in the CI job): its absence is not this robot's fault.
        # Only one not found: found, its missing files are findings as ever.
        analysis = dataclasses.replace(analysis, findings=tuple(
            finding for finding in analysis.findings
            if not (finding.rule == 'mesh-not-found'
                    and dict(finding.values or ()).get('package') in ignored)))
    if loaded.expanded and loaded.source_map is not None and len(loaded.source_map):
        from urdf_link_tools.fix import xacro_sources_of_suggestions
        from urdf_link_tools.xacro.source_map import display_path
        analysis = dataclasses.replace(analysis, findings=xacro_sources_of_suggestions(
            analysis.findings, robot, loaded.source_map, display_path))
        # Faults written in a dependency's macros are named as such (packages.py).
        from urdf_link_tools.packages import mark_dependencies
        analysis = dataclasses.replace(analysis, findings=mark_dependencies(
            analysis.findings, path, getattr(args, 'ignore_package', ())))
    if args.verbose:
        _log_mesh_readers(path, analysis)
    report = build_report(analysis, path if path != '-' else 'standard input',
                          data if path == '-' else None, baseline)
    if loaded.expanded:
        report = dataclasses.replace(report, places=_link_places(robot, loaded))
    note = err if args.format != 'text' else NeutralStream(out)
    if args.fix_inertia is not None and loaded.expanded:
        _fix_xacro(args, report.analysis, loaded, note)
    elif args.fix_inertia is not None:
        if not args.fix_inertia or args.fix_inertia.endswith('.xacro'):
            raise UsageError('--fix-inertia needs an output file OUT.urdf for URDF input '
                             '(never a .xacro)')
        from urdf_link_tools.fix import fix_inertia
        fixed, fixes = fix_inertia(data, report.analysis)
        try:
            with open_output(args.fix_inertia, binary=True) as stream:
                stream.write(fixed)
        except OSError as exc:
            raise UsageError(f'--fix-inertia {args.fix_inertia}: cannot write: '
                             f'{exc.strerror}') from None
        left = _left_unfixed(report.analysis, {fix.link for fix in fixes})
        note.write(f'fix-inertia: wrote {args.fix_inertia} with {len(fixes)} inertia '
                   f'tensor{"s" if len(fixes) != 1 else ""} replaced'
                   + ''.join('\n' + one_line(f'  {fix.link} (line {fix.line}, {fix.rule})')
                             for fix in fixes)
                   + ('\n' + one_line(f'  left as they are (no tensor derived: see their '
                                      f'findings): {", ".join(left)}') if left else '')
                   + '\n')
    return report, loaded.files


def _left_unfixed(analysis: Any, fixed: Set[str]) -> List[str]:
    """
    Return the links an inertia error names that --fix-inertia left as they are.

    r2d2's grouped placeholder promised a tensor per link; one link had none (its suggestion
    could not be derived), and only the count of those replaced was said (sweep G).
    """
    named: Dict[str, None] = {}
    for finding in analysis.findings:
        if finding.severity == Severity.ERROR and \
                finding.rule.startswith(('inertia-', 'inertial-placeholder')):
            for name in ((finding.link,) if finding.link else ()) + tuple(finding.links):
                named.setdefault(name)
    return [name for name in named if name not in fixed]


def _without_attachment(findings, robot: Robot) -> tuple:
    """Leave out a fragment's links it does not define: where a robot including it attaches."""
    names = {link.name for link in robot.links}
    attached = {f'joint "{joint.name}"' for joint in robot.joints
                if joint.parent not in names or joint.child not in names}
    return tuple(finding for finding in findings
                 if not (finding.rule == 'joint-unknown-link' and finding.element in attached))


def _srdf(robot) -> bool:
    from urdf_link_tools.checks.structure import srdf_elements
    return bool(srdf_elements(robot))


def _xml_root(data: bytes):
    """Return a well-formed document's root element, or None."""
    from urdf_link_tools.parser.xml import parse_xml
    try:
        return parse_xml(data)
    except UrdfError:
        return None


def _macro_root(root) -> bool:
    """Return True for a document whose root element is a xacro macro definition."""
    # xacro drops the namespace declarations it used: the tag is then 'xacro:macro' as written
    return root.tag == 'xacro:macro' or (
        isinstance(root.tag, str) and root.tag.endswith('}macro') and 'xacro' in root.tag)


def _root_as_robot(data: bytes, root) -> bytes:
    """Return an expansion whose root element (ROS 1's <root>) is named <robot>, lines kept."""
    tag = root.tag if root.prefix is None else f'{root.prefix}:{root.tag.rsplit("}", 1)[-1]}'
    start = re.compile(rb'<' + re.escape(tag.encode()) + rb'(?=[\s/>])')
    found = None
    for match in start.finditer(data):
        if _line_of(data, match.start()) == root.sourceline:
            found = match
            break
    if found is None:
        raise UrdfStructureError(_MACRO_FILE + ', or pass --skip-macro-files to skip such '
                                 'files')
    head = data[:found.start()] + b'<robot' + data[found.end():]
    end = head.rfind(b'</' + tag.encode() + b'>')
    return head[:end] + b'</robot>' + head[end + len(tag) + 3:] if end >= 0 else head


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b'\n', 0, offset) + 1


def _no_links(root) -> bool:
    """Return True for a document (its root element) without any <link> element."""
    return next(root.iter('link'), None) is None


def _read_ahead(robot, config):
    """Start a child reading the robot's meshes, or None (see meshes.aside)."""
    if not config.check_meshes:
        return None
    from urdf_link_tools.meshes import aside
    try:
        return aside.start_robot(robot, config.package_dirs, config.mesh_max_bytes)
    except Exception:  # only a head start: the analysis reads (and reports) every file
        LOG.exception('reading meshes in a child process failed')
        return None


def _log_mesh_readers(path: str, analysis) -> None:
    from urdf_link_tools.meshes import collada_fallbacks
    fallbacks = collada_fallbacks(analysis.meshes.values())
    if fallbacks:
        LOG.info('%s: %d COLLADA file(s) read through trimesh, which the NumPy reader leaves '
                 'to it: %s', path, sum(fallbacks.values()),
                 '; '.join(f'{reason} ({count})' for reason, count in fallbacks.items()))
    else:
        LOG.info('%s: no COLLADA file read through trimesh', path)


def exit_status(reports: Sequence, input_errors: int, fail_on: str) -> int:
    """
    Return the exit status of ``check``.

    :param reports: the CheckReports (their findings are the reported ones)
    :param input_errors: how many inputs could not be read
    :param fail_on: 'error', 'warning' or 'never'
    :return: EXIT_INTERNAL when a check failed (an internal-error finding), else EXIT_INPUT
        when an input could not be read, else EXIT_ERRORS for errors (unless never),
        EXIT_WARNINGS for warnings with ``fail_on == 'warning'``, else EXIT_OK
    """
    from urdf_link_tools.checks import INTERNAL_RULE
    from urdf_link_tools.findings import Severity, worst_severity

    findings = [f for report in reports for f in report.analysis.findings]
    if any(finding.rule == INTERNAL_RULE.rule_id for finding in findings):
        return EXIT_INTERNAL
    if input_errors:
        return EXIT_INPUT
    worst = worst_severity(findings)
    if fail_on == 'never' or worst is None:
        return EXIT_OK
    if worst == Severity.ERROR:
        return EXIT_ERRORS
    if worst == Severity.WARNING and fail_on == 'warning':
        return EXIT_WARNINGS
    return EXIT_OK


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if not getattr(args, 'output', None):
        return _check_to(args, out, err)
    target = os.path.realpath(args.output)
    if any(path != '-' and os.path.realpath(path) == target for path in _robot_paths(args)):
        raise UsageError(f'--output {args.output} is a robot being checked: name another file')
    try:
        stream = open_output(args.output)
    except OSError as exc:
        raise UsageError(f'--output {args.output}: cannot write it: {exc.strerror}') from None
    with stream:
        return _check_to(args, stream, err)


def _check_to(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from urdf_link_tools.reports.baseline import load_baseline
    from urdf_link_tools.reports import render

    config = _check_config(args, err)
    paths = _robot_paths(args)
    if args.fix_inertia is not None and len(paths) != 1:
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
    stream = args.format == 'jsonl'
    for path, (kind, payload, notes) in _check_paths(args, config, baseline, out, err):
        err.write(notes)
        if kind == 'error':
            message, place = payload
            input_errors.append((path, message, place))
            if stream:
                from urdf_link_tools.reports.jsonl import error_line, OUTPUT
                out.write(neutralise(error_line(path, message), OUTPUT) + '\n')
        elif kind == 'skipped':
            what = payload or ('a xacro file without <link> (a macro file'
                               if path.lower().endswith('.xacro') else
                               'a file without <link> or <joint> (a fragment that descriptions '
                               'include') + ': its links are checked where a robot uses them)'
            err.write(f'urdf-link-tools: {one_line(path)}: skipped, {what}\n')
        else:
            reports.append(payload)
            note = baseline.unmatched_note(payload.analysis.robot.source) \
                if baseline is not None else None
            if note:
                err.write(f'urdf-link-tools: {one_line(note)}\n')
            if stream:
                from urdf_link_tools.reports.jsonl import OUTPUT, report_line
                out.write(neutralise(report_line(payload), OUTPUT) + '\n')
                out.flush()
    status = exit_status(reports, len(input_errors), args.fail_on)
    text = render(args.format, reports, input_errors, status, args.baseline, args.fail_on) \
        if not stream else ''
    if text:
        out.write(text + '\n')
    for path, message, _ in input_errors:
        err.write(_input_error_line(path, message))
    return status


def _input_error_line(path: str, message: str) -> str:
    """
    Return the line that says a file could not be checked, as one line.

    The message names files a description chose (an included file's name may hold a line
    break: it printed a fake "all robots passed" line in the log), so it is one line (the
    other unprintable characters are escaped by the stream, :class:`NeutralStream`). The
    path is not said twice when the message starts with it.
    """
    text = message if message.startswith(f'{path}:') or message.startswith(f'{path} ') \
        else f'{path}: {message}'
    return f'urdf-link-tools: error: {one_line(text)}\n'


def _check_paths(args: argparse.Namespace, config, baseline, out: TextIO, err: TextIO):
    """Yield (path, answer) for every robot of this shard, in order (see check_runner)."""
    import functools
    from urdf_link_tools import batch
    from urdf_link_tools.check_runner import check_path
    from urdf_link_tools.meshes.aside import release_early

    paths = _robot_paths(args)
    # (of every file given, before sharding: a macro file's includer may be in another shard)
    args.included_by, args.macro_libraries = _included_by(paths)
    args.several = len(paths) > 1
    if args.shard:
        try:
            index, count = batch.parse_shard(args.shard)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        paths = batch.select_shard(paths, index, count)
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f'--jobs {args.jobs}: give at least 1')
    # The HTML page draws the meshes the analysis loaded: they stay in this process.
    keep_meshes = args.format == 'html'
    single = args.fix_inertia is not None or args.emit_urdf or '-' in paths or keep_meshes
    jobs = 1 if single else (args.jobs or batch.default_jobs())
    cache = None
    if args.cache and not single:
        from urdf_link_tools.result_cache import cache_refusal, ResultCache
        refusal = cache_refusal(args.cache, paths)
        if refusal is not None:
            raise UsageError(refusal)
        cache = ResultCache(args.cache, _cache_options(args, config))
    # The output stream stays here: only --fix-inertia (one robot, in this process) writes to it.
    # One robot checked in this process with more than one job allowed (the default: the
    # cores) shares reading its meshes with a forked child; --jobs 1 keeps to one process,
    # and the workers of a pool keep the cores busy already.
    alone = jobs > 1 and len(paths) <= 1
    if not alone:  # before a pool of workers is forked: they must not hold its pipes
        release_early()
    work = functools.partial(check_path, functools.partial(
        _check_robot, args=args, config=config, baseline=baseline,
        out=out if jobs == 1 else None, read_processes=2 if alone else 1), cache,
        keep_meshes=keep_meshes)
    progress = batch.Progress(len(paths), err)
    try:
        yield from batch.run(work, paths, jobs, progress, lambda path: (
            'error', 'the worker process checking it ended unexpectedly (out of memory?): '
            'check it alone with --jobs 1', ''))
    finally:
        progress.close()
        release_early()  # a reading child the check did not use (a cached result, no meshes)


def _cache_options(args: argparse.Namespace, config) -> str:
    """Name every option that changes a robot's report (the cache's key)."""
    import os
    from urdf_link_tools.result_cache import canonical, file_digest
    from urdf_link_tools.xacro.sandbox import xacro_cwd
    return canonical((config, args.xacro, sorted(args.xacro_args), args.xacro_allow_dir,
                      [(name, os.environ.get(name)) for name in args.xacro_env],
                      args.xacro_timeout, args.skip_macro_files, sorted(args.ignore_package),
                      args.baseline and file_digest(args.baseline),
                      os.environ.get('AMENT_PREFIX_PATH', ''), xacro_cwd()))


def _fix_xacro(args: argparse.Namespace, analysis, loaded: LoadedDescription,
               note: TextIO) -> None:
    from urdf_link_tools.fix import plan_xacro_fixes, write_xacro_fixes
    from urdf_link_tools.xacro.source_map import display_path
    if args.fix_inertia:
        raise UsageError('--fix-inertia on xacro input edits the xacro sources in place: '
                         'give no output file (the expansion is never written over them; '
                         'use --emit-urdf for it)')
    if not len(loaded.source_map):
        raise UrdfInputError('--fix-inertia: the xacro expansion could not be traced to its '
                             'sources, so nothing is changed')
    from urdf_link_tools.xacro.sandbox import package_root
    planned, reports = plan_xacro_fixes(analysis, loaded.source_map, display_path)
    # Only the robot's own package is edited (and --fix-allow-dir): an include reached
    # through $(find other_pkg) belongs to someone else.
    refused = write_xacro_fixes(planned, [package_root(loaded.source), *args.fix_allow_dir])
    for file, reason in refused:
        note.write(one_line(f'{display_path(file)}: not changed: {reason}') + '\n')
        del planned[file]
    refused_files = {display_path(file) for file, _ in refused}
    reports = [report for report in reports
               if not (report.changed and report.file in refused_files)]
    changed = sum(len(edits) for edits in planned.values())
    note.write(f'fix-inertia: {changed} value{"s" if changed != 1 else ""} changed in '
               f'{len(planned)} xacro file{"s" if len(planned) != 1 else ""}\n')
    for report in reports:
        verb = 'changed' if report.changed else 'to do'
        note.write(one_line(f'{report.file}:{report.line}: {verb}: {report.message}') + '\n')
    left = _left_unfixed(analysis, {name for report in reports
                                    for name in (report.link, *report.links)})
    if left:
        note.write(one_line(f'  left as they are (no tensor derived: see their findings): '
                            f'{", ".join(left)}') + '\n')


def _add_xacro_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument('xacro_args', nargs='*', metavar='NAME:=VALUE',
                        help='xacro arguments, as xacro takes them (after the file)')
    parser.add_argument('--xacro', action='store_true',
                        help='expand the file with xacro even if its name does not end in '
                             '.xacro (a file is never expanded because of its content)')
    parser.add_argument('--xacro-env', action='append', metavar='NAME', default=[],
                        help='let xacro read this environment variable with $(env NAME) or '
                             '$(optenv NAME) (repeatable; by default it sees none)')
    parser.add_argument('--xacro-allow-dir', action='append', metavar='DIR', default=[],
                        help='let xacro include or load_yaml files under DIR too (repeatable; '
                             "by default: the input's package and the --package-dir ones)")
    parser.add_argument('--xacro-timeout', type=float, default=10.0, metavar='S',
                        help='stop xacro after S seconds of CPU time, or three times that of '
                             'wall-clock time (default 10)')
    parser.add_argument('--emit-urdf', metavar='FILE',
                        help='write the description as parsed (the xacro expansion, '
                             'pretty-printed) to FILE')


def _add_check_parser(commands) -> None:
    check = commands.add_parser(
        'check', help='check every link; exit 0 clean, 1 warnings (--fail-on warning), '
                      '2 errors, 3 unreadable input, 4 usage error, 5 internal error',
        description='Check the links of URDF or xacro files: inertia, geometry, collisions, '
                    'meshes, structure. Exit status: 0 nothing to fail on, 1 warnings but no '
                    'errors with --fail-on warning, 2 errors (unless --fail-on never), 3 an '
                    'input could not be read, 4 wrong command line, 5 a check of this tool '
                    'failed (an internal-error finding: a bug to report; --verbose prints its '
                    'traceback).')
    check.add_argument('robot', nargs='+', metavar='ROBOT',
                       help='URDF or xacro file, or - for standard input (several: each is '
                            'checked, as pre-commit passes them); NAME:=VALUE items are xacro '
                            'arguments')
    check.add_argument('--format', choices=sorted(FORMATS), default='text',
                       help='; '.join(f'{name}: {about}' for name, (_, about)
                                      in FORMATS.items()))
    _add_xacro_arguments(check)
    check.add_argument('--skip-macro-files', action='store_true',
                       help='skip xacro files that expand to no <link> (macro files that '
                            'robots include) and URDF files without <link> or <joint> '
                            '(placeholders); check only the own links of fragments whose '
                            'links all hang from links they do not define (a gripper, a '
                            'sensor mount), as the pre-commit hook does')
    check.add_argument('-o', '--output', metavar='FILE',
                       help='write the report to FILE instead of standard output (an HTML '
                            'page, a JUnit file for CI); never one of the robots checked')
    check.add_argument('--fail-on', choices=FAIL_ON, default='error',
                       help='which findings make the exit status non-zero (default error)')
    check.add_argument('--baseline', metavar='REPORT.json',
                       help='report only findings not in this earlier --format json report '
                            '(matched by rule, link and element, not line)')
    check.add_argument('--package-dir', action='append', metavar='NAME=PATH', default=[],
                       help='directory of a package for package:// URIs and for xacro: $(find '
                            'NAME) (repeatable); wins over the ament index (AMENT_PREFIX_PATH)')
    check.add_argument('--ignore', action='append', metavar='RULE', default=[],
                       help='drop the findings of a rule (repeatable)')
    check.add_argument('--ignore-package', action='append', metavar='NAME', default=[],
                       help="drop the findings about links written in package NAME's xacro "
                            "macros, a dependency's (a camera's, an arm's): not the checked "
                            "file's own package; and mesh-not-found for NAME when it is not "
                            'found (a meshes package the job does not have) (repeatable)')
    check.add_argument('--srdf', action='append', metavar='SRDF', default=[],
                       help="the robot's SRDF (MoveIt config): the pairs of links its "
                            '<disable_collisions> names are not reported as overlapping at '
                            'rest (repeatable; a .srdf.xacro is expanded with the same '
                            'NAME:=VALUE arguments)')
    check.add_argument('--target', action='append', metavar='NAME', default=[],
                       help='what the robot is loaded into: mujoco, gazebo, moveit, rviz, kdl, '
                            'pinocchio or all (repeatable or comma-separated; default all): '
                            'claims about other engines are not made')
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
                       help='most faces of a collision mesh (default 5000)')
    check.add_argument('--min-mass', type=float, metavar='KG',
                       help='lightest plausible moving link (default 1e-6)')
    check.add_argument('--mesh-max-bytes', type=int, metavar='N',
                       help=f'refuse larger mesh files (default {MESH_MAX_BYTES})')
    check.add_argument('--max-findings-per-rule', type=int, metavar='N',
                       help='list at most N findings of one rule, count the rest '
                            '(default 200)')
    check.add_argument('--no-meshes', action='store_true',
                       help='do not load mesh files (skips mesh-based rules)')
    check.add_argument('--verbose', '-v', action='store_true',
                       help='print the traceback of a failed check (internal-error) and '
                            'how the meshes were read')
    check.add_argument('--strict', action='store_const', const='warning', dest='fail_on',
                       help='the same as --fail-on warning')
    check.add_argument('--jobs', '-j', type=int, metavar='N',
                       help='check N robots at a time in worker processes (default: the '
                            'cores this process may use); the findings are the same')
    check.add_argument('--shard', metavar='K/N',
                       help='check only part K of N of the robots given (decided by each '
                            "path's digest, so N machines given the same list split it "
                            'exactly)')
    check.add_argument('--cache', metavar='DIR',
                       help="keep each robot's report in DIR and reuse it while the "
                            'description and every file it reads (meshes, includes, YAML) '
                            "are unchanged; DIR must be outside the robots' repository and "
                            'writable by you alone')
    check.add_argument('--fix-inertia', metavar='OUT.urdf', nargs='?', const='',
                       help='URDF: write a copy with each flagged inertia replaced by the '
                            'suggested one (all other bytes unchanged); xacro (no OUT): edit '
                            'the literal numbers in the xacro sources and print each file:line, '
                            'and what expressions and YAML values should become')
    check.add_argument('--fix-allow-dir', action='append', metavar='DIR', default=[],
                       help='--fix-inertia on xacro input may also edit files under DIR '
                            "(repeatable; by default only the robot's own package)")
    check.set_defaults(handler=_cmd_check)


#: where the files after -- stand while the options before it are parsed
_FILES_AFTER = '\0files after --'


def _parse(parser: argparse.ArgumentParser, argv: Optional[Sequence[str]]):
    raw = list(sys.argv[1:] if argv is None else argv)
    if raw[:1] == ['check'] and '--fix-inertia' in raw:
        # --fix-inertia takes an optional OUT.urdf: 'check --fix-inertia robot.urdf.xacro' took
        # the robot for it ("the following arguments are required: ROBOT"). A .xacro is never
        # the output (xacro sources are edited in place): it is the robot.
        at = raw.index('--fix-inertia')
        if raw[at + 1:at + 2] and raw[at + 1].lower().endswith('.xacro'):
            raw = raw[:at] + raw[at + 1:]
            end = raw.index('--') if '--' in raw else len(raw)  # (after --: file names)
            raw.insert(end, '--fix-inertia')  # last of the options: it takes nothing
    # After --, every item is a file to check (pre-commit's and the Action's file names): a
    # pull request's file named 'mass:=1.urdf' was taken for a xacro argument, left
    # unchecked and the run passed.
    after: List[str] = []
    dashed = raw[:1] == ['check'] and '--' in raw[1:]
    if dashed:
        at = raw.index('--')
        raw, after = raw[:at] + [_FILES_AFTER], raw[at + 1:]
    # A pull request's file named '--config=p.urdf', listed by $(git ls-files '*.urdf')
    # before any --, was taken for the option: its own p.urdf, a YAML file too, then
    # ignored every rule (red-team review 4). An item that is an option and a file is refused.
    for item in raw[1:raw.index('--') if '--' in raw else len(raw)]:
        if item.startswith('-') and item != '-' and os.path.lexists(item):
            parser.error(f'{item!r} is a file, and its name reads as an option: put the files '
                         'to check after --')
    # xacro's name:=value arguments may also come after options, as with xacro itself.
    args, extra = parser.parse_known_args(raw)
    if dashed:  # the files' place, wherever argparse put it (nothing after --: the
        # Action's blank robots input printed the marker as an unknown argument)
        extra = [item for item in extra if item != _FILES_AFTER]
        args.xacro_args = [item for item in args.xacro_args if item != _FILES_AFTER]
    unknown = [item for item in extra if item.startswith('-') or ':=' not in item]
    if unknown or (extra and not hasattr(args, 'xacro_args')):
        parser.error('unrecognized arguments: ' + ' '.join(unknown or extra))
    if extra:
        args.xacro_args = list(args.xacro_args) + extra
    if isinstance(getattr(args, 'robot', None), list):
        # check takes several robots; its greedy ROBOT list also swallows NAME:=VALUE items
        # (never those after --, which argparse puts last).
        before = [item for item in args.robot if item != _FILES_AFTER]
        named = [item for item in before if ':=' in item]
        files = [item for item in named if os.path.lexists(item)]
        if files:
            parser.error(f'{files[0]!r} is a file, and its name reads as a xacro argument '
                         'NAME:=VALUE: put the files to check after --')
        args.xacro_args = list(args.xacro_args) + named
        args.robot = [item for item in before if ':=' not in item] + after
        if not args.robot:
            parser.error('the following arguments are required: ROBOT')
    return args


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every subcommand."""
    parser = _ArgumentParser(
        prog='urdf-link-tools',
        description='Explain what is wrong with the links of a URDF, with no ROS graph.')
    from urdf_link_tools import __version__
    parser.add_argument('--version', action='version', version=f'%(prog)s {__version__}')
    commands = parser.add_subparsers(dest='command', metavar='COMMAND')
    commands.required = True
    info = commands.add_parser('info', help='print a summary of every link')
    info.add_argument('robot', help='URDF or xacro file, or - for standard input')
    _add_xacro_arguments(info)
    info.add_argument('--package-dir', action='append', metavar='NAME=PATH', default=[],
                      help="directory of a package for xacro's $(find NAME) (repeatable)")
    info.set_defaults(handler=_cmd_info)
    _add_check_parser(commands)
    from urdf_link_tools import cli_collisions
    cli_collisions.add_parser(commands, _add_xacro_arguments)
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
    for stream in (sys.stdout, sys.stderr):
        # A file name that is not UTF-8 (its bytes as surrogate escapes) is written escaped,
        # never a UnicodeEncodeError that ends the run with every robot's findings unsaid.
        if hasattr(stream, 'reconfigure'):
            try:
                stream.reconfigure(errors='backslashreplace')
            except (ValueError, OSError):  # a closed or special stream: leave it
                pass
    out = out if out is not None else sys.stdout
    if 'numpy' not in sys.modules:
        # One BLAS thread: the checks multiply 3x3 and 4x4 matrices, and the threads OpenBLAS
        # starts with NumPy would spin on the core the reading child uses (meshes.aside).
        os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')
    # stderr carries only text: notes, relayed xacro messages, errors naming files.
    err = NeutralStream(err if err is not None else sys.stderr)
    handler = logging.StreamHandler()  # what basicConfig would make, neutralising
    handler.setFormatter(_NeutralFormatter('%(levelname)s: %(message)s'))
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    # NumPy's overflow warnings on absurd numbers (1e307 coordinates) are not findings, nor
    # text that passed the output boundary: the findings say what is wrong.
    warnings.filterwarnings('ignore', category=RuntimeWarning)
    parser = build_parser()
    args = _parse(parser, argv)
    with _verbose(err, getattr(args, 'verbose', False)):
        try:
            _refuse_linked_inputs(args)
            return int(args.handler(args, out, err))
        except UsageError as exc:
            err.write(f'urdf-link-tools: error: {one_line(str(exc))}\n')
            return EXIT_USAGE
        except UrdfError as exc:
            err.write(_input_error_line(' '.join(_robot_paths(args)), str(exc)))
            return EXIT_INPUT
        except BrokenPipeError:
            return EXIT_OK
        except MemoryError:
            # Not a traceback and exit 1 (collisions on 4,096 links under a memory limit,
            # red-team review 4): said, with the statuses' meaning of a failure of this tool.
            err.write('urdf-link-tools: error: out of memory: the input is too large for this '
                      'machine (check it with fewer links or meshes, or on a larger one)\n')
            return EXIT_INTERNAL


@contextlib.contextmanager
def _verbose(err: TextIO, enabled: bool) -> Iterator[None]:
    """With --verbose, send the package's DEBUG log (tracebacks, mesh readers) to ``err``."""
    if not enabled:
        yield
        return
    logger = logging.getLogger('urdf_link_tools')
    handler = logging.StreamHandler(err)
    handler.setFormatter(logging.Formatter('urdf-link-tools: %(levelname)s: %(message)s'))
    level, propagate = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    # What another library set in this process is undone for the run: ROS's launch (loaded
    # by launch_testing's pytest plugin in `colcon test`) makes every logger created after
    # it a LaunchLogger that does not propagate, and logging.config disables existing
    # loggers; --verbose then printed nothing.
    children = [item for name, item in list(logging.root.manager.loggerDict.items())
                if name.startswith('urdf_link_tools.') and isinstance(item, logging.Logger)]
    saved = [(item, item.disabled, item.propagate) for item in children]
    for item in children:
        item.disabled, item.propagate = False, True
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logger.propagate = propagate
        for item, was_disabled, was_propagating in saved:
            item.disabled, item.propagate = was_disabled, was_propagating


def run() -> None:
    """
    Run the command line as a program: :func:`main`, then end without the interpreter's teardown.

    Freeing every module's objects at exit (NumPy, coal, lxml) cost 15-20 ms of every
    check, after its output was written. Everything is flushed and closed first; the forked
    children were reaped, or end on their own.
    """
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more to say there
            pass
    logging.shutdown()
    os._exit(status)


if __name__ == '__main__':
    # Run as `python -m urdf_link_tools.cli`, this file is __main__, a second copy of the
    # module: cli_collisions raises urdf_link_tools.cli.UsageError, which the copy's main()
    # would not catch (a traceback for a usage error). The one module others import runs.
    from urdf_link_tools.cli import run as _imported_run
    _imported_run()
