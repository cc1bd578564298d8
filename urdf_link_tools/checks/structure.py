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
Rules about the kinematic tree: names, roots, loops and what can be reached.

urdfdom (and so robot_state_publisher, RViz, MoveIt) refuses a description with duplicate
link or joint names, a joint naming an unknown link, a link with two parents, several
roots or a loop; the checker reports all of them at once, per link.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
import os
import re
from typing import Dict, Iterator, List, Optional, Set, Tuple

from urdf_link_tools.checks.base import CheckContext, Rule
from urdf_link_tools.checks.model_wide import MODEL_WIDE_MIN, numberless
from urdf_link_tools.checks.names import NameSuggester
from urdf_link_tools.findings import Finding, LISTED, listed, Severity
from urdf_link_tools.limits import DESCRIPTION_MAX_BYTES
from urdf_link_tools.model import is_fragment, Joint

URDFDOM = 'urdfdom model.cpp (parseURDF, initTree, initRoot)'

#: Loops described link by link; further loops are counted in one more finding (names in
#: one message: findings.LISTED, the rest counted).
LOOPS_LISTED = 20

RULES = (
    Rule('robot-empty', Severity.ERROR, 'the robot has no <link>',
         'urdfdom refuses it ("No link elements found")', 'add the links', URDFDOM),
    Rule('link-duplicate-name', Severity.ERROR,
         'two <link> elements share a name; 3 or more names made again by one block of '
         'the document made twice (a macro called twice, a file included twice), links and '
         'joints, are one finding',
         'urdfdom refuses the description ("link is not unique")',
         'rename one of them (and the joints that refer to it)', URDFDOM),
    Rule('joint-duplicate-name', Severity.ERROR, 'two <joint> elements share a name',
         'urdfdom refuses the description ("joint is not unique")', 'rename one of them',
         URDFDOM),
    Rule('joint-unknown-link', Severity.ERROR, 'a joint names a parent or child link that '
         'does not exist', 'urdfdom refuses the description', 'fix the link name', URDFDOM),
    Rule('link-multiple-parents', Severity.ERROR, 'a link is the child of several joints',
         'URDF describes a tree; urdfdom refuses a link with two parents',
         'keep one joint; model closed chains with mimic joints or a simulator constraint',
         URDFDOM),
    Rule('kinematic-loop', Severity.ERROR, 'following parent to child comes back to a link',
         'URDF describes a tree; there is no root to start from',
         'break the loop (remove one joint)', URDFDOM),
    Rule('robot-multiple-roots', Severity.ERROR, 'more than one link has no parent joint',
         'urdfdom refuses the description ("Two root links found")',
         'connect every tree to the main one with a joint', URDFDOM),
    Rule('link-disconnected', Severity.ERROR, 'a link cannot be reached from the root '
         '(a link of another tree is listed by robot-multiple-roots instead: one cause)',
         'it has no transform: TF, RViz and simulators cannot place it',
         'add a joint from a link of the main tree to it', URDFDOM),
)


#: the elements of a MoveIt SRDF (srdfdom's model.cpp), whose root is a <robot> too
_SRDF_ELEMENTS = frozenset(('group', 'group_state', 'end_effector', 'virtual_joint',
                            'passive_joint', 'disable_collisions', 'enable_collisions',
                            'disable_default_collisions', 'link_sphere_approximation',
                            'joint_property'))


def srdf_elements(robot) -> List[str]:
    """Return the MoveIt SRDF elements a document read as a robot holds (none: not one)."""
    return [tag for tag in robot.other_elements if tag in _SRDF_ELEMENTS]


def _why_empty(robot, source: str) -> Tuple[str, str]:
    """Return what a robot without links is (the end of robot-empty's message) and its fix."""
    srdf = srdf_elements(robot)
    if srdf:
        # Interbotix's px100.srdf.xacro, panda's: a CI glob over *.xacro takes them too.
        return (': it holds ' + ', '.join(f'<{tag}>' for tag in srdf) + ': this is a MoveIt '
                'SRDF (the semantic description of a robot), not a URDF',
                'check the URDF it describes and give this file with --srdf (its disabled '
                'collision pairs are then not reported); --skip-macro-files skips such files')
    if source.endswith('.xacro'):
        return (': this xacro file expands to none, as a file of macros that robot '
                'descriptions include does',
                'check the top-level description that includes it (its macros are checked '
                'there, where they are called), or pass --skip-macro-files to skip such files '
                '(as the pre-commit hook does); if it is meant to be a robot, call its macros '
                'in it')
    held = ', '.join(f'<{tag}>' for tag in robot.other_elements)
    if any(tag.startswith('xacro:') for tag in robot.other_elements):
        # Jackal's custom_example.urdf: a xacro fragment named .urdf, its macro calls left
        return (f': it holds {held}, xacro elements that were not expanded (xacro runs only '
                'on .xacro files or with --xacro)',
                'check the description that includes it, or this file with --xacro (and '
                '--skip-macro-files if it is a file of macros)')
    if robot.other_elements:
        return (f": it holds {held}, not URDF elements (another reader's extension, as "
                "Bullet's deformable bodies are); URDF readers load nothing from it",
                'check it with the program it is written for, or skip the file; a URDF robot '
                'needs at least one <link>')
    if not robot.joints:
        # Jackal's empty.urdf, the default of its URDF extras: a placeholder that is meant to
        # hold nothing (sweep K)
        return (': an empty <robot> (a placeholder that descriptions include, or a robot not '
                'written yet)',
                'if it is a placeholder, leave it out of the files checked or pass '
                '--skip-macro-files (as the pre-commit hook does); else add at least one '
                '<link>')
    return '', 'add at least one <link>'


def check_structure(ctx: CheckContext) -> Iterator[Finding]:
    """Check names, parents, roots, loops and reachability."""
    robot = ctx.robot
    if not robot.links:
        source = (robot.source or '').lower()
        if robot.has_note('parse-xacro-unprefixed'):
            return  # the parser's error says why there is no link (xacro included nothing)
        what, fix = _why_empty(robot, source)
        yield ctx.finding('robot-empty', Severity.ERROR,
                          'the robot has no <link> elements' + what, line=robot.line,
                          suggestion=fix)
        return
    parents: Dict[str, List] = {}
    for joint in robot.joints:
        parents.setdefault(joint.child, []).append(joint)
    first_line: Dict[str, int] = {}
    declared: Dict[str, int] = {}
    repeats: List[Tuple[int, Finding]] = []  # (how many lines after the first, the finding)
    for link in robot.links:
        declared[link.name] = declared.get(link.name, 0) + 1
        if link.name in first_line:
            # Robonaut 2's r2_left_gripper.urdf declares 'r2/left_leg/ati' twice, each with
            # its parent joint: one mistake, said here with the joints, not again as a link
            # with several parents.
            joints = parents.get(link.name, [])
            also = (' and ' + listed([f"'{j.name}' (line {j.line})" for j in joints[:LISTED]],
                                     total=len(joints)) + ' name it as their child'
                    if len(joints) > 1 else '')
            repeats.append(((link.line or 0) - first_line[link.name], ctx.finding(
                'link-duplicate-name', Severity.ERROR,
                f"the link name '{link.name}' is used again (first on line "
                f'{first_line[link.name]}){also}; URDF readers refuse the file',
                link=link.name, line=link.line,
                suggestion='rename one of the links, and the joints that refer to it')))
        else:
            first_line[link.name] = link.line or 0
    joint_lines: Dict[str, int] = {}
    for joint in robot.joints:
        if joint.name in joint_lines:
            repeats.append(((joint.line or 0) - joint_lines[joint.name], ctx.finding(
                'joint-duplicate-name', Severity.ERROR,
                f"the joint name '{joint.name}' is used again (first on line "
                f'{joint_lines[joint.name]})', link=joint.child,
                element=f'joint "{joint.name}"', line=joint.line,
                suggestion='rename one of the joints')))
        else:
            joint_lines[joint.name] = joint.line or 0
    yield from _repeated_blocks(repeats)
    names = set(first_line)
    yield from _unknown_links(ctx, names)
    # as many parents as declarations: the duplicate name's finding says it
    several = [(child, joints) for child, joints in parents.items()
               if len(joints) > declared.get(child, 1) and child in names]
    yield from _multiple_parents(ctx, several)
    yield from _tree(ctx, names, parents)


def _repeated_blocks(repeats: List[Tuple[int, Finding]]) -> Iterator[Finding]:
    """
    Say the names used again; those of one block of the document made twice, once together.

    SMARC's SAM calls its robot macro in its own file and again in the file including it:
    17 links and 16 joints made twice were 33 errors (sweep U). The copies of one block lie
    the same number of lines after their first: 3 or more names so are one finding, on the
    first name made again (its "first on line" names the other call of a macro).
    """
    blocks: Dict[int, List[Finding]] = {}
    for offset, finding in repeats:
        blocks.setdefault(offset, []).append(finding)
    for offset, group in blocks.items():
        if len(group) < MODEL_WIDE_MIN or offset <= 0:
            yield from group
            continue
        first = min(group, key=lambda finding: finding.line or 0)
        links = [f.link for f in group if f.rule == 'link-duplicate-name']
        joints = [f.element[len('joint "'):-1] for f in group
                  if f.rule == 'joint-duplicate-name' and f.element]
        names = [f"'{name}'" for name in links + joints]
        counted = ' and '.join(part for part in (
            f'{len(links)} link name{"s" if len(links) != 1 else ""}' if links else '',
            f'{len(joints)} joint name{"s" if len(joints) != 1 else ""}' if joints else '')
            if part)
        start = int(first.line or 0) - offset
        yield replace(
            first, rule='link-duplicate-name' if links else 'joint-duplicate-name',
            message=(f'{counted} are used again, all from one block of the description made '
                     f'twice (a macro called twice, or a file included twice; first on line '
                     f'{start}): '
                     + listed(names[:LISTED], total=len(names))
                     + '; URDF readers refuse the file'),
            suggestion=('make that block once: remove the second call or include, or give '
                        'each its own prefix (with the joints that refer to its links)'),
            links=tuple(dict.fromkeys(links + [f.link for f in group if f.link]))[:LISTED])


#: what a link with two parent joints does to the readers
_TWO_PARENTS = 'keep one parent joint; a closed chain needs a simulator-specific constraint'


def _multiple_parents(ctx: CheckContext,
                      several: List[Tuple[str, List[Joint]]]) -> Iterator[Finding]:
    """
    Say each link with several parent joints; links whose joints are alike, once together.

    The ReFlex hand's finger macro closes each finger's flexure onto its distal link, so its
    three distal links had an error each for one choice (sweep Q): 3 or more links whose
    parent joints are named alike but for their numbers (a macro's copies) are one finding.
    """
    groups: Dict[Tuple[str, ...], List[Tuple[str, List[Joint]]]] = {}
    for child, joints in several:
        shape = tuple(sorted(numberless(joint.name) for joint in joints))
        groups.setdefault(shape, []).append((child, joints))
    for group in groups.values():
        if len(group) < MODEL_WIDE_MIN:
            for child, joints in group:
                shown = listed([f"'{j.name}' (line {j.line})" for j in joints[:LISTED]],
                               total=len(joints))
                yield ctx.finding(
                    'link-multiple-parents', Severity.ERROR,
                    f'the link is the child of {len(joints)} joints: {shown}',
                    link=child, line=joints[1].line, suggestion=_TWO_PARENTS)
            continue
        links = tuple(child for child, _ in group)
        first, joints = group[0]
        shown = listed([f"'{j.name}' (line {j.line})" for j in joints[:LISTED]],
                       total=len(joints))
        yield ctx.finding(
            'link-multiple-parents', Severity.ERROR,
            f'{len(links)} links are each the child of {len(joints)} joints named alike (one '
            f'choice, a chain closed onto each of them): {listed(links)}; {first} of {shown}',
            line=joints[1].line, links=links,
            suggestion=_TWO_PARENTS + ', for every one of them')


def _unknown_links(ctx: CheckContext, names: Set[str]) -> Iterator[Finding]:
    """
    Report the joints that name a link the robot does not define.

    A fragment (NAO's nao_sensors.xacro: 19 sensor frames hung from 'Head', 'torso',
    'l_ankle' and others of the robot that includes it) is one finding for all its joints,
    not one per joint repeating the same advice: one cause, one fix.
    """
    robot = ctx.robot
    unknown = [(joint, role, name) for joint in robot.joints
               for role, name in (('parent', joint.parent), ('child', joint.child))
               if name not in names]
    if not unknown:
        return
    # Only where every unknown name is a parent, where a robot attaches the part: a joint
    # naming a child that does not exist misspells one of the file's own links.
    part = is_fragment(robot)
    if part and len(unknown) >= 2 and all(role == 'parent' for _, role, _ in unknown):
        yield _fragment_finding(ctx, unknown)
        return
    suggester = NameSuggester(names)
    fragment = ('; if this file is a part that robots include (a gripper, a sensor mount), '
                'check those robots, or check its own links alone with --skip-macro-files'
                if part else '')
    commented = _commented_links(robot.source)
    for joint, role, name in unknown:
        if name in commented:
            # Fairino's FR3WML (sweep T): its tool_Link is inside <!-- ... -->
            yield ctx.finding(
                'joint-unknown-link', Severity.ERROR,
                f"joint '{joint.name}' names the {role} link '{name}', which does not exist: "
                f'its <link> is commented out (line {commented[name]})',
                link=None, element=f'joint "{joint.name}"', line=joint.line,
                suggestion=f'uncomment the <link name="{name}"> at line {commented[name]}, or '
                           f"remove joint '{joint.name}'")
            continue
        close = suggester.suggest(name, joint.child if role == 'parent' else joint.parent)
        hint = f' (did you mean {close!r}?)' if close else ''
        # 'world' is the fixed frame Gazebo and Drake provide (Drake's PR2 names it as a
        # parent without a <link>): urdfdom and MoveIt need the link declared.
        world = role == 'parent' and name == 'world' and not close
        # said on the joint's other link, or on the robot when that one does not exist
        # either (urdfdom's autogenerated.urdf: a link 'c1' heading p1's finding)
        other = joint.child if role == 'parent' else joint.parent
        yield ctx.finding(
            'joint-unknown-link', Severity.ERROR,
            f"joint '{joint.name}' names the {role} link '{name}', which does not exist"
            + (" (Gazebo and Drake provide a 'world' frame; urdfdom does not)" if world
               else ''),
            link=other if other in names else None,
            element=f'joint "{joint.name}"', line=joint.line,
            suggestion=('add <link name="world"/> to fix the robot to the world frame'
                        if world else f'fix the {role} link name{hint}') + fragment)


#: a <link> start tag in a comment, its name
_COMMENTED_LINK = re.compile(rb'<link\s+name\s*=\s*["\']([^"\'<>]{1,4096})["\']')
_COMMENT = re.compile(rb'<!--(.*?)-->', re.DOTALL)


def _commented_links(source: Optional[str]) -> Dict[str, int]:
    """
    Return the links a URDF file holds in comments, with their lines.

    A plain URDF file only (a xacro file's comments are in its includes too, and its lines
    are the expansion's), read again only where a joint names a link that does not exist.
    """
    if not source or source.endswith('.xacro') or not os.path.isfile(source):
        return {}
    try:
        with open(source, 'rb') as stream:
            data = stream.read(DESCRIPTION_MAX_BYTES + 1)
    except OSError:
        return {}
    if len(data) > DESCRIPTION_MAX_BYTES or b'<!--' not in data:
        return {}
    found: Dict[str, int] = {}
    line, counted = 1, 0  # the line at byte ``counted``: each byte counted once
    for comment in _COMMENT.finditer(data):
        for link in _COMMENTED_LINK.finditer(comment.group(1)):
            at = comment.start(1) + link.start()
            line += data.count(b'\n', counted, at)
            counted = at
            found.setdefault(link.group(1).decode('utf-8', 'replace'), line)
    return found


def _fragment_finding(ctx: CheckContext, unknown: List[Tuple[Joint, str, str]]) -> Finding:
    """Return the one finding of a fragment's joints naming links it does not define."""
    joints = list(dict.fromkeys(joint.name for joint, _, _ in unknown))
    counts = Counter(name for _, _, name in unknown)  # in the order first named
    missing = listed([f"'{name}'" + (f' ({count} joints)' if count > 1 else '')
                      for name, count in list(counts.items())[:LISTED]], total=len(counts))
    first = unknown[0][0]
    return ctx.finding(
        'joint-unknown-link', Severity.ERROR,
        f'{len(joints)} joints name links this file does not define: {missing}; the file '
        'is a part that robots include (a gripper, a sensor mount), not a whole robot',
        element=f'joint "{first.name}"', line=first.line,
        values=(('joints', ' '.join(joints)), ('missing', ' '.join(counts))),
        links=tuple(dict.fromkeys(joint.child for joint, _, _ in unknown)),
        suggestion='check the robots that include this file, or check its own links alone '
                   'with --skip-macro-files; if it is meant to be a whole robot, add those '
                   'links (or fix their names)')


def _reach(start: str, children: Dict[str, List[str]], claimed: Set[str]) -> Set[str]:
    """Return the links reachable from start that no earlier root has claimed."""
    seen: Set[str] = set()
    stack = [start]
    while stack:
        name = stack.pop()
        if name in seen or name in claimed:
            continue
        seen.add(name)
        stack.extend(children.get(name, ()))
    return seen


def _tree(ctx: CheckContext, names: Set[str], parents: Dict[str, List]) -> Iterator[Finding]:
    robot = ctx.robot
    children: Dict[str, List[str]] = {}
    for joint in robot.joints:
        if joint.parent in names and joint.child in names:
            children.setdefault(joint.parent, []).append(joint.child)
    order = list(dict.fromkeys(link.name for link in robot.links))
    roots = [name for name in order if name not in parents]
    # Each link is walked once: a link reached from an earlier root is not walked again
    # (reaching it from several roots needs a link with several parents, an error of its
    # own), so 100k roots cost one pass, not one pass each.
    claimed: Set[str] = set()
    sizes: Dict[str, int] = {}
    for root in roots:
        seen = _reach(root, children, claimed)
        sizes[root] = len(seen)
        claimed |= seen
    # A link in a cycle is reachable from nothing but the cycle: find cycles directly. With
    # at most one parent joint per link, a link reachable from a root is in no cycle (its
    # parent chain leads back to the root), so a tree that reaches every link has none.
    if any(len(joints) > 1 for joints in parents.values()) or len(claimed) < len(order):
        yield from _loops(ctx, order, children)
    if not roots:
        return
    # The biggest tree, the first in file order on a tie (max keeps the first maximum).
    main = max(roots, key=lambda root: sizes[root])
    reachable = _reach(main, children, set())
    # The links of the other trees are said by robot-multiple-roots, which lists them, not
    # again one by one (kuavo's Drake legs, sweep K: 42 and 56 errors of one cause).
    others: Set[str] = set()
    if len(roots) > 1:
        others = {name for name in claimed if name not in reachable}
        shown = listed([f"'{root}' ({sizes[root]} link{'s' if sizes[root] != 1 else ''})"
                        for root in roots[:LISTED]], total=len(roots))
        yield ctx.finding(
            'robot-multiple-roots', Severity.ERROR,
            f'{len(roots)} links have no parent joint: {shown}; a URDF has exactly one root, '
            f"and the links of the trees other than '{main}''s cannot be reached from it",
            line=robot.line,
            suggestion=f"add joints that connect the other trees to the '{main}' tree",
            links=tuple(name for name in order if name in others))
    # A link hung from a parent that does not exist (joint-unknown-link says so on it), and
    # what hangs from it, are cut off by that one name: not said again per link.
    cut: Set[str] = set()
    for joint in robot.joints:
        if joint.parent not in names and joint.child in names:
            cut |= _reach(joint.child, children, cut)
    for link in robot.links:
        if link.name not in reachable and link.name not in cut and link.name not in others:
            yield ctx.finding(
                'link-disconnected', Severity.ERROR,
                f"the link cannot be reached from the root '{main}'",
                link=link.name, line=link.line,
                suggestion=f"add a joint from a link of the '{main}' tree to this link")


def _loops(ctx: CheckContext, order: List[str], children: Dict[str, List[str]]) \
        -> Iterator[Finding]:
    state: Dict[str, int] = {}
    reported: Set[frozenset] = set()
    unlisted = 0
    for start in order:
        if state.get(start):
            continue
        stack = [(start, iter(children.get(start, ())))]
        path = [start]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            child = next(it, None)
            if child is None:
                state[node] = 2
                stack.pop()
                path.pop()
                continue
            if state.get(child) == 1:
                if len(reported) >= LOOPS_LISTED:
                    unlisted += 1  # counted, not walked: a loop costs O(1) from here on
                    continue
                cycle = path[path.index(child):] + [child]
                key = frozenset(cycle)
                if key not in reported:
                    reported.add(key)
                    link = ctx.robot.link(child)
                    shown = cycle if len(cycle) <= 2 * LISTED else \
                        cycle[:LISTED] + [f'... ({len(cycle) - 1 - LISTED} more links)', child]
                    yield ctx.finding(
                        'kinematic-loop', Severity.ERROR,
                        f'the joints form a loop of {len(cycle) - 1} links: '
                        + ' -> '.join(shown),
                        link=child, line=link.line if link is not None else None,
                        suggestion='remove one joint of the loop')
            elif not state.get(child):
                state[child] = 1
                path.append(child)
                stack.append((child, iter(children.get(child, ()))))
    if unlisted:
        yield ctx.finding(
            'kinematic-loop', Severity.ERROR,
            f'{unlisted} more joints close a loop (the first {LOOPS_LISTED} loops are listed)',
            line=ctx.robot.line, suggestion='remove one joint of each loop')


CHECKS = (check_structure,)
