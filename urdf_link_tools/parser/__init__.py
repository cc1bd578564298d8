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
Parse URDF text into the :mod:`urdf_link_tools.model`, safely and with source lines.

The package reads in layers: :mod:`~urdf_link_tools.parser.xml` turns bytes into an XML
tree without ever leaving the document (no entities, no DTD, no external resource);
:mod:`~urdf_link_tools.parser.context` reads numbers, vectors and poses;
:mod:`~urdf_link_tools.parser.links` and :mod:`~urdf_link_tools.parser.joints` read the
elements; this module puts the robot together.
"""

from __future__ import annotations

import gc
import os
import re
from typing import AbstractSet, Dict, List, Optional, Sequence, Set, Tuple, Union

from lxml import etree

from urdf_link_tools.errors import UrdfStructureError
from urdf_link_tools.findings import Finding, listed, Severity, TEMPLATE_VALUE
from urdf_link_tools.limits import ROBOT_MAX_LINKS
from urdf_link_tools.model import Joint, Link, Robot
from urdf_link_tools.parser.context import CHILD_VALUE, Context, quote, REFUSED
from urdf_link_tools.parser.joints import joint_of
from urdf_link_tools.parser.links import link_of, material_of, resolve_late_references
from urdf_link_tools.parser.xml import load_xml, parse_xml

__all__ = ['parse_urdf_string', 'parse_xml', 'robot_from_element']


#: what a <robot> holds in URDF and its usual extensions
#: xacro's directives that xacro 1 read without their prefix, and the attribute each has
_XACRO_DIRECTIVES = {'include': 'filename', 'macro': 'name', 'property': 'name',
                     'arg': 'name', 'insert_block': 'name'}
#: elements URDF and its extensions write at the top of <robot>: never a call without xacro:,
#: even where a macro has the name (a macro 'transmission' beside real ones)
_URDF_TOP_LEVEL = frozenset(('link', 'joint', 'material', 'gazebo', 'transmission',
                             'ros2_control', 'sensor'))
#: the elements URDF writes inside links and joints: never a call, whatever the macros' names
_URDF_ELEMENTS = frozenset((
    'inertial', 'origin', 'mass', 'inertia', 'visual', 'collision', 'geometry', 'box',
    'cylinder', 'sphere', 'mesh', 'capsule', 'material', 'color', 'texture', 'parent', 'child',
    'axis', 'calibration', 'dynamics', 'limit', 'mimic', 'safety_controller',
    'collision_checking', 'verbose'))
#: the xacro namespace, and the directives that only define (a file keeping them loses nothing)
_XACRO_URI = 'ros.org/wiki/xacro'
_XACRO_DEFINITIONS = frozenset(('property', 'arg', 'macro'))
_XACRO_LOST = {'include': 'the file it names is not included',
               'macro': 'the macro is not defined', 'property': 'the property is not defined',
               'arg': 'the argument is not declared', 'insert_block': 'the block is not inserted'}


def robot_from_element(root: etree._Element, source: Optional[str] = None,
                       notes: Sequence[Finding] = (), macros: AbstractSet[str] = frozenset(),
                       link_macros: AbstractSet[str] = frozenset()) -> Robot:
    """
    Build the model from a parsed ``<robot>`` element.

    Every element urdfdom refuses becomes an ERROR finding in ``Robot.notes`` and the
    robot is built with the fallback the finding names, so that one run reports every
    independent defect.

    :param root: the document's root element
    :param source: path of the file the text came from, used to resolve relative meshes
    :param notes: findings made while reading the XML, kept first
    :param macros: for a xacro expansion, the names of the macros its files define: an
        element at the top named as one is a call without the xacro: prefix
    :param link_macros: of those, the macros that make links (such a call loses them: an
        error)
    :return: the robot model
    :raises UrdfStructureError: when the root element is not ``<robot>``
    """
    ctx = Context()
    ctx.notes.extend(notes)
    if root.tag != 'robot':
        shown = root.tag if isinstance(root.tag, str) else '?'
        raise UrdfStructureError(
            f'the root element is <{quote(shown)}>, expected <robot>: '
            'is this a URDF (and not SDF, xacro output with errors, or another file)?',
            line=root.sourceline)
    name = root.get('name')
    if name is None:
        # A xacro file that others include needs no name (xacro keeps the including file's
        # <robot>: Autoware's vehicle.xacro): said, for the one checked alone.
        included = (' (unless this xacro file is only included by another: xacro keeps the '
                    "including file's <robot>, so check that file)"
                    if source and source.endswith('.xacro') else '')
        ctx.note('robot-name-missing', root,
                 f'the <robot> element has no name attribute: {REFUSED} ("No name given for '
                 'the robot")', 'add name="..." to <robot>' + included, Severity.ERROR)
        name = ''
    elif not name.strip():
        ctx.note('robot-name-missing', root, 'the <robot> name is empty',
                 'give the robot a name; tools use it to label the robot')
    links: List[Link] = []
    joints: List[Joint] = []
    # Materials first (a visual may name one defined further down), links and joints
    # afterwards, in document order; one pass over the children finds them all.
    parts: List[Tuple[str, etree._Element]] = []
    self_collide = False
    kept: Set[str] = set()
    references: List[Tuple[str, Optional[int], Tuple[str, ...]]] = []
    gazebo_joints: Set[str] = set()
    balance = visuals = False
    actuated: Optional[Set[str]] = None
    unprefixed: List[etree._Element] = []
    left: List[Tuple[str, str, Optional[int]]] = []
    unprefixed_calls: List[etree._Element] = []
    for child in root:
        tag = child.tag
        if tag == 'material':
            material = ctx.attempt(lambda: material_of(ctx, child, True), None,
                                   'without this material', refuses=False)
            if material is None:
                continue
            if material.name in ctx.materials:
                ctx.note('material-duplicate', child,
                         f"material '{material.name}' is defined again (first on line "
                         f'{ctx.materials[material.name].line}): {REFUSED} ("material is not '
                         'unique"); the first definition is used here',
                         'remove the second definition or give it another name',
                         Severity.ERROR)
            else:
                ctx.materials[material.name] = material  # type: ignore[index]
        elif tag == 'link' or tag == 'joint':
            parts.append((tag, child))
        elif tag == 'gazebo':
            reference = child.get('reference')
            if reference is None:
                self_collide = _self_collide(child, self_collide)
                gazebo_joints.update(str(item.get('name')) for item in child
                                     if item.tag == 'joint' and item.get('name'))
                continue
            references.append((reference, child.sourceline, tuple(
                item.tag for item in child if isinstance(item.tag, str))))
            if _keeps_fixed_joint(child):
                kept.add(reference)
        elif tag == 'mujoco':
            # MuJoCo's own compiler options in a URDF (TOCABI's balanceinertia; ToddlerBot's
            # and AzureLoong's discardvisual="false", which makes it load the visual meshes)
            compilers = list(child.iter('compiler'))
            balance = balance or any(item.get('balanceinertia', '').strip() == 'true'
                                     for item in compilers)
            visuals = visuals or any(item.get('discardvisual', '').strip() == 'false'
                                     for item in compilers)
        elif tag in _XACRO_DIRECTIVES and child.get(_XACRO_DIRECTIVES[tag]) is not None:
            unprefixed.append(child)
        elif isinstance(tag, str) and tag.startswith('{') and _XACRO_URI in tag:
            # Read as plain URDF (MOGI's mogi_bot.urdf, sweep T: its <xacro:include> of the
            # Gazebo file, sensors and all); definitions alone change nothing
            local = tag.rsplit('}', 1)[1]
            if local not in _XACRO_DEFINITIONS:
                left.append((local, str(child.get('filename') or child.get('name')
                                        or child.get('value') or ''), child.sourceline))
        elif isinstance(tag, str) and tag in macros and tag not in _URDF_TOP_LEVEL:
            unprefixed_calls.append(child)
        elif tag == 'transmission' or tag == 'ros2_control':
            # A transmission's joints; a ros2_control joint with a command interface (one
            # with state interfaces only is read, not driven).
            actuated = (actuated or set()) | {
                name.strip() for item in child.iter('joint')
                for name in (item.get('name'),) if isinstance(name, str) and name.strip()
                and (tag == 'transmission' or item.find('command_interface') is not None)}
    links_written = sum(1 for tag, _ in parts if tag == 'link')
    if links_written > ROBOT_MAX_LINKS:
        raise UrdfStructureError(
            f'the robot has {links_written:,} links, more than the {ROBOT_MAX_LINKS:,} this tool '
            'checks (a robot has a few hundred at most): is this a generated or hostile file?',
            line=root.sourceline)
    if macros:
        # and inside links and joints (Husqvarna's automower: <box_inertia> in its base's
        # <inertial>, whose tensor was then "missing", its cause not said; sweep U)
        unprefixed_calls += [element for _, child in parts for element in child.iter()
                             if element is not child and isinstance(element.tag, str)
                             and element.tag in macros and element.tag not in _URDF_ELEMENTS]
        unprefixed_calls.sort(key=lambda element: element.sourceline or 0)
    _unprefixed_directives(ctx, unprefixed)
    _unprefixed_calls(ctx, unprefixed_calls, link_macros)
    top_level = tuple(ctx.materials.values())
    ctx.link_names = frozenset(child.get('name') for tag, child in parts if tag == 'link')
    for tag, child in parts:
        if tag == 'link':
            link = ctx.attempt(lambda: link_of(ctx, child), None, 'without this link')
            if link is not None:
                links.append(link)
        else:
            joint = ctx.attempt(lambda: joint_of(ctx, child), None, 'without this joint')
            if joint is not None:
                joints.append(joint)
        ctx.link = None
    if ctx.unresolved:
        links = resolve_late_references(ctx, links)
    others: Tuple[str, ...] = ()
    if not any(tag == 'link' for tag, _ in parts):
        # No <link> at all (a xacro file of macros that robots include): robot-empty says
        # what matters; its missing name is no second error.
        ctx.notes[:] = [note for note in ctx.notes if note.rule != 'robot-name-missing']
        _empty_for_want_of_prefixes(ctx)
        # What it holds instead, for robot-empty to name (Bullet's <reduced_deformable>)
        others = tuple(sorted({quote(_prefixed(child)) for child in root
                               if isinstance(child.tag, str)
                               and child.tag not in _URDF_TOP_LEVEL}))[:5]
    else:
        _unexpanded_template(ctx, root, source)
    _child_values(ctx)
    return Robot(name=name, links=tuple(links), joints=tuple(joints),
                 materials=top_level, line=root.sourceline, source=source,
                 notes=tuple(ctx.notes), gazebo_self_collide=self_collide,
                 actuated_joints=frozenset(actuated) if actuated is not None else None,
                 gazebo_kept_joints=frozenset(kept), gazebo_references=tuple(references),
                 gazebo_joints=frozenset(gazebo_joints), xacro_left=tuple(left),
                 other_elements=others,
                 mujoco_balance_inertia=balance, mujoco_keeps_visuals=visuals)


def _empty_for_want_of_prefixes(ctx: Context) -> None:
    """
    Make a robot's unprefixed xacro directives one error when they are why it has no link.

    NAO's nao_robot_v4.urdf.xacro is two ``<include filename=...>``: xacro 2 leaves them, the
    robot is empty, and that is one fault (robot-empty says nothing more).
    """
    unprefixed = [note for note in ctx.notes if note.rule == 'parse-xacro-unprefixed']
    if not unprefixed:
        return
    first = unprefixed[0]
    tags = sorted({note.element or '' for note in unprefixed})
    what = f'its {len(unprefixed)} xacro directives ({", ".join(tags)}) lack' \
        if len(unprefixed) > 1 else f'its one xacro directive, {first.element}, lacks'
    error = Finding(
        rule=first.rule, severity=Severity.ERROR,
        message=f'the robot has no <link>: {what} the xacro: prefix, and xacro (2.x, ROS 2) '
                'leaves them in the output as they are: nothing they name is in the robot',
        link=None, element=first.element, line=first.line, suggestion=first.suggestion,
        values=(('count', str(len(unprefixed))),))
    ctx.notes[:] = [error] + [note for note in ctx.notes if note.rule != first.rule]


#: an attribute value that is xacro, not a number: an expression or a substitution argument
_XACRO_VALUE = ('${', '$(')


def _unexpanded_template(ctx: Context, root: etree._Element, source: Optional[str]) -> None:
    """
    Make the values of a xacro template read as URDF one error, and the robot unchecked.

    RoverRobotics ships xacro templates named .urdf (``<mass value="${wheel_mass}"/>``,
    ``<origin xyz="0 ${wy} 0"/>``). Read as URDF, each number was its own error, each link
    whose mass could not be read "has no <inertial>", and the joints at identity origins
    put both wheels in one place: a false overlap. One fault, said once; the checks would
    judge the fallbacks, not the robot, so the analysis stops there (check_unexpanded).
    Only for a document that declares the xacro namespace: a stray ``${...}`` in a URDF is
    an error of its own.
    """
    values = [note for note in ctx.notes if note.rule in ('parse-invalid-number',
                                                          'parse-missing-value')
              and any(mark in note.message for mark in _XACRO_VALUE)]
    if not any('ros.org/wiki/xacro' in (uri or '') for uri in root.nsmap.values()):
        _stray_expressions(ctx, values)
        return
    if not values:
        return
    first = values[0]
    shown = first.message.split(';', 1)[0]
    name = os.path.basename(source) if source else 'the description'
    error = Finding(
        rule='xacro-unexpanded', severity=Severity.ERROR,
        message=f'{name} is a xacro template read as URDF: {len(values)} '
                f'value{"s are" if len(values) > 1 else " is"} xacro, not numbers (the first: '
                f'{shown}), and no URDF reader expands them (urdfdom refuses '
                'the robot); the checks would judge the fallbacks, not the robot: none ran',
        link=None, element=None, line=first.line,
        suggestion='check it as xacro: urdf-link-tools check --xacro FILE NAME:=VALUE (or '
                   'name it .urdf.xacro); load it through xacro, or publish its expansion',
        values=(TEMPLATE_VALUE, ('count', str(len(values)))))
    dropped = {id(note) for note in values}
    ctx.notes[:] = [error] + [note for note in ctx.notes if id(note) not in dropped]


def _unprefixed_directives(ctx: Context, elements: List[etree._Element]) -> None:
    """
    Note xacro directives written without their xacro: prefix, each by its name.

    Each include, macro, argument or block is a warning where it is written (each loses its
    own part); properties are one info for them all (Squirrel's kcl-hand: <property
    name="M_PI"> and <property name="M_SCALE">, two warnings saying <property name="...">):
    nothing uses them, or xacro would have stopped (or the values would hold ${...}).
    """
    properties = [element for element in elements if element.tag == 'property']
    for element in elements:
        if element.tag == 'property' and len(properties) > 1:
            continue
        what = _XACRO_DIRECTIVES[element.tag]
        harmless = element.tag == 'property'
        ctx.note('parse-xacro-unprefixed', element,
                 f'{_written(element)} is a xacro directive without its xacro: prefix: xacro '
                 '(2.x, ROS 2) leaves it in the output as it is and URDF readers ignore it, so '
                 f'{_XACRO_LOST[element.tag]}'
                 + ('; nothing uses it (a use would have stopped xacro, or left ${...} in '
                    'the values)' if harmless else ''),
                 f'write <xacro:{element.tag} {what}="..."> and declare '
                 'xmlns:xacro="http://www.ros.org/wiki/xacro" on <robot>'
                 + (', or remove it' if harmless else ''),
                 Severity.INFO if harmless else Severity.WARNING)
    if len(properties) > 1:
        said = [_written(element) for element in properties]
        ctx.note('parse-xacro-unprefixed', properties[0],
                 f'{len(properties)} xacro properties are written without the xacro: prefix '
                 f'({listed(said, 6)}): xacro (2.x, ROS 2) leaves them in the output as they '
                 'are and URDF readers ignore them, so none is defined; nothing uses them (a '
                 'use would have stopped xacro, or left ${...} in the values)',
                 'write <xacro:property name="..."> (each of them) and declare '
                 'xmlns:xacro="http://www.ros.org/wiki/xacro" on <robot>, or remove them',
                 Severity.INFO)


#: this many macro calls without the prefix are one note listing them
_CALLS_LISTED_FROM = 3


def _unprefixed_calls(ctx: Context, calls: List[etree._Element],
                      link_macros: AbstractSet[str]) -> None:
    """
    Note macro calls written without their xacro: prefix; an error when the macro makes links.

    ROS 1's xacro expanded such a call (with a deprecation warning), ROS 2's leaves it as it
    is: EZGripper's standalone files call <ezgripper_dual ...> so, and the robot checked was
    the mounting post alone, its gripper gone, with a warning (sweep Q).
    """
    if len(calls) >= _CALLS_LISTED_FROM:
        # Husqvarna's automower (a catkin package, sweep U): 14 calls of 4 macros were 13
        # warnings saying the same thing; one choice of xacro version, said once.
        by_macro: Dict[str, List[etree._Element]] = {}
        for call in calls:
            by_macro.setdefault(str(call.tag), []).append(call)
        shown = [f'<{tag}> (line {found[0].sourceline})' if len(found) == 1 else
                 f'<{tag}> {len(found)} times (first on line {found[0].sourceline})'
                 for tag, found in by_macro.items()]
        makes = [tag for tag in by_macro if tag in link_macros]
        ctx.note('parse-xacro-unprefixed', calls[0],
                 f'{len(calls)} macro calls are written without the xacro: prefix '
                 f'({listed(shown, 8)}): xacro (2.x, ROS 2) leaves them in the output as they '
                 'are and URDF readers ignore them, so what the macros write is missing'
                 + (f': {listed(makes, 4)} make links and joints, missing from this robot'
                    if makes else '')
                 + "; ROS 1's xacro expanded such calls, with a deprecation warning: a "
                 'description written for ROS 1?',
                 'write each call as <xacro:NAME .../> (and declare '
                 'xmlns:xacro="http://www.ros.org/wiki/xacro" on <robot>)',
                 Severity.ERROR if makes else Severity.WARNING)
        return
    for call in calls:
        tag = str(call.tag)
        makes = tag in link_macros
        ctx.note('parse-xacro-unprefixed', call,
                 f"<{tag}> calls the macro '{tag}' without the xacro: prefix: xacro (2.x, "
                 'ROS 2) leaves it in the output as it is and URDF readers ignore it, so '
                 + ('the links and joints the macro makes are missing from this robot (ROS '
                    "1's xacro expanded such a call; ROS 2's does not)" if makes else
                    'what the macro writes is missing'),
                 f'write <xacro:{tag} .../>',
                 Severity.ERROR if makes else Severity.WARNING)


def _written(element: etree._Element) -> str:
    """Return a directive as written: <property name="M_PI">, its value bounded."""
    what = _XACRO_DIRECTIVES[element.tag]
    return f'<{element.tag} {what}="{quote(str(element.get(what)))}">'


def _child_values(ctx: Context) -> None:
    """
    Say values written as child elements once, with the attributes to write instead.

    Braccio's camera: <box><size>0.073 0.276 0.072</size></box> on its visual and its
    collision (SDF's way) were two errors saying "fix this element".
    """
    found = [note for note in ctx.notes if note.rule == CHILD_VALUE
             and 'written as a child element' in note.message]
    if not found:
        return
    written = re.findall(r'\((<(\w+)>([^<]{0,200})</\2>), SDF', ' '.join(
        note.message for note in found))
    fixes = tuple(dict.fromkeys(f'{name}="{value}"' for _, name, value in written))
    first = found[0]
    head, _, rest = first.message.partition('; ')
    links = tuple(dict.fromkeys(note.link or 'the robot' for note in found))
    places = 'on ' + ', '.join(links)
    message = head + '; ' + rest if len(found) == 1 else (
        f"{len(found)} values are written as child elements (SDF's way), which URDF does not "
        f'read ({places}; the first: {head}); {rest}')
    merged = Finding(
        rule=first.rule, severity=first.severity, message=message, link=first.link,
        element=first.element if len(found) == 1 else None, line=first.line,
        suggestion=f'write them as attributes: {", ".join(fixes)} (e.g. <box size="..."/>)'
        if fixes else first.suggestion,
        values=first.values, links=tuple(dict.fromkeys(
            note.link for note in found if note.link)) if len(found) > 1 else ())
    dropped = {id(note) for note in found}
    ctx.notes[:] = [merged] + [note for note in ctx.notes if id(note) not in dropped]


def _stray_expressions(ctx: Context, values: List[Finding]) -> None:
    """
    Make xacro expressions left in a generated URDF one error, where there are several.

    DRCSim's atlas_v4.urdf holds ``${-0.048+0.004}`` in four origins (a clavicle's visual
    and collision, and its mirror's): an edit after xacro ran, or values pasted from the
    xacro; two errors each naming one element were one fault. The checks still run, on
    the fallbacks the first note names.
    """
    if len(values) < 2:
        return
    first = values[0]
    shown, _, rest = first.message.partition('; ')
    places: Dict[str, List[str]] = {}
    for note in values:
        places.setdefault(note.link or 'the robot', []).append(str(note.line or '?'))
    where = ', '.join(f"{name} (line{'s' if len(lines) > 1 else ''} {', '.join(lines)})"
                      for name, lines in places.items())
    links = tuple(name for name in places if name != 'the robot')
    error = Finding(
        rule=first.rule, severity=Severity.ERROR,
        message=f'{len(values)} values are xacro expressions, not numbers, in a URDF that '
                f'does not use xacro ({where}); the first: {shown}; {rest}',
        link=None, element=None, line=first.line,
        suggestion='write the numbers the expressions give, or generate the URDF again from '
                   'its xacro (an edit after xacro ran, or values pasted from a xacro file)',
        values=(('count', str(len(values))),), links=links)
    dropped = {id(note) for note in values}
    ctx.notes[:] = [error] + [note for note in ctx.notes if id(note) not in dropped]


def _prefixed(element: etree._Element) -> str:
    """Return an element's name as written (``xacro:arm``, not ``{http://...}arm``)."""
    tag = element.tag
    if not tag.startswith('{'):
        return tag  # (an undeclared prefix stays in the name: 'xacro:arm')
    local = tag.split('}', 1)[1]
    return f'{element.prefix}:{local}' if element.prefix else local


def _keeps_fixed_joint(extension: etree._Element) -> bool:
    """Return True for a joint's ``<gazebo>`` that keeps it from fixed-joint lumping."""
    for item in extension:
        if item.tag in ('preserveFixedJoint', 'disableFixedJointLumping') and \
                (item.text or '').strip().lower() in ('true', '1'):
            return True
    return False


def _self_collide(extension: etree._Element, current: bool) -> bool:
    """
    Return the model-wide self_collide a robot-level ``<gazebo>`` sets (``current`` if none).

    sdformat's URDF conversion copies the unknown children of a ``<gazebo>`` without
    ``reference`` into the SDF ``<model>`` as they are; only ``<self_collide>`` is a model
    element there (the link extension's ``<selfCollide>`` becomes a link's ``<self_collide>``,
    which gz-sim does not read: its physics engines take the model's, ``Model::SelfCollide``).
    """
    for item in extension:
        if item.tag == 'self_collide':
            current = (item.text or '').strip().lower() in ('true', '1')
    return current


def parse_urdf_string(text: Union[str, bytes], source: Optional[str] = None,
                      macros: AbstractSet[str] = frozenset(),
                      link_macros: AbstractSet[str] = frozenset()) -> Robot:
    """
    Parse URDF text.

    :param text: the URDF document
    :param source: path of the file it came from, if any
    :param macros: for a xacro expansion, the names of the macros its files define
    :param link_macros: of those, the macros that make links
    :return: the robot model
    :raises UrdfError: (a subclass) when the text cannot be read as a URDF
    """
    root, notes = load_xml(text)
    # Building the model allocates tens of thousands of small immutable objects and no
    # reference cycles; pausing the cyclic collector meanwhile saves about a third of the
    # time on large robots (bench/bench_analysis.py).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return robot_from_element(root, source, notes, macros, link_macros)
    finally:
        if enabled:
            gc.enable()
