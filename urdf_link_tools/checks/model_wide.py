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
Robot-level findings: a design choice made for the whole model, reported once.

A kinematics model (no link has mass), a visual model (no collision geometry on a quarter
or more of the bodies) and placeholder joint limits (effort or velocity 0 on two thirds of
the moving joints) are choices, not slips on one link: each is reported once, on the
robot, naming the links and which of the selected targets it breaks and which it does not.
The per-link rules stay quiet on those links, and speak where the rest of the robot is
complete (one link without collision among bodies that all have one is a real gap).
"""

from __future__ import annotations

from dataclasses import field
import math
import re
from typing import Callable, Dict, FrozenSet, Hashable, Iterator, List, Optional, Tuple

import numpy as np

from urdf_link_tools.checks.base import CheckContext, Rule
from urdf_link_tools.findings import Finding, LISTED, listed, Severity
from urdf_link_tools.geometry import union_bounds
from urdf_link_tools.model import GeometryElement, Joint, Link
from urdf_link_tools.records import record
from urdf_link_tools.targets import named, severity_for

#: A choice is model-wide when it holds on at least this many links (fewer: per link).
MODEL_WIDE_MIN = 3
#: runs of digits: the copies a macro makes differ in them only
_DIGITS = re.compile(r'\d+')

#: Bodies without collision from this share of all bodies on: a model-wide choice.
PARTIAL_SHARE = 0.25
#: Joints with a zero limit from this share of the moving joints on: placeholders.
PLACEHOLDER_SHARE = 2.0 / 3.0


SDF = 'sdformat parser_urdf.cc (urdf2sdf)'
MUJOCO_MODEL = 'MuJoCo user_model.cc (CheckBodyMassInertia)'

RULES = (
    Rule('robot-kinematics-only', Severity.ERROR,
         'no link has mass: a kinematics model (reported once, with the moving links; with '
         'no collision geometry on any body either, a model for display, said here and not '
         'by robot-collision-partial)',
         'RViz, MoveIt planning and KDL/Pinocchio kinematics work; Gazebo leaves every moving '
         'link out ("not modeled in sdf"), MuJoCo refuses to compile unless it can infer '
         'masses from collision geometry, Pinocchio and KDL dynamics get a zero mass matrix. '
         'The severity follows the targets: an error with Gazebo or MuJoCo, an info without',
         'add <inertial> elements (mass, centre of mass, tensor) from the CAD model, or keep '
         'the file for kinematics and select --target rviz,moveit,kdl',
         f'{SDF}; {MUJOCO_MODEL}; Pinocchio crba (test_checks_model_wide.py)'),
    Rule('robot-collision-partial', Severity.WARNING,
         '3 links or more with visual geometry have no collision geometry (small hinges '
         'between colliding links aside when they are less than a quarter of the bodies, '
         'unless 1 or 2 other parts and fewer than 3 hinges make 3 together): a visual '
         'model, collision on a chosen subset, or parts left out (reported once, with the '
         'links)',
         'MoveIt (FCL), Gazebo and MuJoCo let the listed links pass through obstacles and the '
         "robot itself; RViz, KDL and Pinocchio's kinematics are unaffected",
         'add <collision> primitives around the listed parts, or select --target rviz,kdl if '
         'the file is only for display',
         'moveit_core robot_model.cpp (RobotModel::constructLinkModel: collision_array only); '
         'MuJoCo URDF import (visuals discarded, test_checks_model_wide.py)'),
    Rule('xacro-unexpanded', Severity.ERROR,
         'mesh filenames hold xacro syntax ($(arg ...), $(find ...), ${...}): a xacro template '
         'saved or published as URDF (reported once, with the links); an info when only '
         'link or joint names hold it; a warning for xacro directives (an include, a macro '
         'call, a condition) left at the top of a document read as URDF, once for all. A '
         'document that declares the xacro namespace and whose '
         'numbers are xacro expressions, read as URDF, is one error for all of them, and no '
         'other check runs (the model holds fallbacks: identity origins, no masses)',
         'no URDF reader expands xacro: every consumer looks for a file literally named '
         '"$(arg ...)" and loses those meshes (an error when a collision mesh is among them, '
         'else a warning). Replaces mesh-not-found on those elements',
         'run xacro on the template (xacro robot.urdf.xacro > robot.urdf), or check the '
         '.xacro file itself', 'xacro (ROS wiki); urdfdom reads attributes verbatim'),
    Rule('robot-placeholder-limits', Severity.INFO,
         'effort or velocity 0 on two thirds or more of the moving joints (3 or more): '
         'placeholder limits (reported once; effort alone in a model without masses is said '
         'by robot-kinematics-only)',
         'Pinocchio reads effortLimit/velocityLimit 0 (tested) and so does any tool enforcing '
         'the URDF limits (MoveIt, ros2_control); MuJoCo '
         'treats effort 0 as no force limit (tested). An info: a choice, not a slip',
         "write the actuators' real effort and velocity limits (datasheet), or set them "
         "in the consumers' own limit files (MoveIt joint_limits.yaml)",
         'urdfdom joint.cpp (parseJointLimits); Pinocchio, MuJoCo 4.0 '
         '(test_checks_model_wide.py)'),
)


@record
class ModelChoices:
    """
    The model-wide choices of one robot, as the per-link rules need them.

    :param massless: moving links without mass in a robot where no link has mass
    :param collisionless: links reported together as a visual model
    :param placeholder_joints: joints whose zero limits are reported together
    """

    massless: Tuple[str, ...] = ()
    collisionless: Tuple[str, ...] = ()
    placeholder_joints: Tuple[str, ...] = ()
    #: the same names as sets, for the rules that ask about every link or joint
    collisionless_set: FrozenSet[str] = field(init=False, repr=False, compare=False)
    placeholder_set: FrozenSet[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, 'collisionless_set', frozenset(self.collisionless))
        object.__setattr__(self, 'placeholder_set', frozenset(self.placeholder_joints))


def model_choices(ctx: CheckContext) -> ModelChoices:
    """Return the robot's model-wide choices, computed once per analysis."""
    key = ('model-choices', None)
    cached = ctx.memo.get(key)
    if cached is None:
        cached = ctx.memo[key] = ModelChoices(
            _massless(ctx), _collisionless(ctx), _placeholder_joints(ctx))
    return cached  # type: ignore[return-value]


#: A visual whose bounds' diagonal is below this (m) is a marker (a frame axis, a dot).
MARKER_SIZE = 0.01


def visible_without_collision(ctx: CheckContext, link: Link) -> bool:
    """
    Return True when a link draws a part of 1 cm or more that nothing can collide with.

    False when the link or a link welded to it (fixed joints) has collision geometry (the
    body collides: a camera inside the head, a sensor on the base), and for visuals smaller
    than MARKER_SIZE (optical frames, markers) or of unknown size.
    """
    if link.collisions:
        # (one whose geometry urdfdom refuses, a <capsule>, is that parse finding's: not a
        # link without collision as well)
        return False
    visuals = [element for element in link.visuals if element.geometry is not None]
    if not visuals or ctx.group_has_collision(link.name):
        return False
    size = visual_size(ctx, visuals)
    if size is not None and size < MARKER_SIZE:
        return False
    if size is None:
        return True
    key = ('enclosed', id(link))  # (asked per link twice: the robot-wide and the link rule)
    if key not in ctx.memo:
        ctx.memo[key] = _enclosed(ctx, link, visuals, size)
    return not ctx.memo[key]


#: how far (of the part's size, and 1 mm more) a part may reach out of the box enclosing it
ENCLOSED_SLACK = 0.05
#: joints between a part and the neighbours whose collision may enclose it
ENCLOSED_REACH = 2
#: children (and grandchildren) of a part looked at, at most
MAX_NEIGHBOURS = 16


def _enclosed(ctx: CheckContext, link: Link, visuals: List[GeometryElement],
              size: float) -> bool:
    """
    Return True when a neighbour's collision primitive holds the link's drawn part, at rest.

    A legged robot built for simulation collides its trunk, thighs, shanks and feet, and
    not the small hip-motor links nested in the trunk or the thigh (Booster T1, Berkeley
    Humanoid Lite, AgiBot X1): nothing reaches such a part without touching the neighbour
    first. Neighbours are the links up to two joints above or below (not its siblings); the
    corners of the part's box (its visuals' bounds, at the zero configuration) must lie in
    one of their collision boxes, cylinders or spheres. A mesh's extent is no proof: a trunk
    mesh's box holds the hips that stick out of it (Go2).
    """
    from urdf_link_tools.checks.bounds import _robot_bounds
    from urdf_link_tools.geometry import origin_to_matrix
    from urdf_link_tools.model import Box, Cylinder, Sphere
    poses, _ = _robot_bounds(ctx)
    pose = poses.get(link.name)
    boxes = [ctx.element_bounds(element) for element in visuals]
    if pose is None or any(box is None for box in boxes):
        return False
    low, high = union_bounds(boxes)  # type: ignore[misc]
    corners = np.array([[x, y, z] for x in (low[0], high[0]) for y in (low[1], high[1])
                        for z in (low[2], high[2])])
    world = corners @ pose[:3, :3].T + pose[:3, 3]
    slack = ENCLOSED_SLACK * size + 0.001
    for name in _neighbours(ctx, link.name):
        neighbour, there = ctx.robot.link(name), poses.get(name)
        if neighbour is None or there is None:
            continue
        for element in neighbour.collisions:
            shape = element.geometry
            if not isinstance(shape, (Box, Cylinder, Sphere)):
                continue
            frame = there @ origin_to_matrix(element.origin)
            local = (world - frame[:3, 3]) @ frame[:3, :3]
            if not np.all(np.isfinite(local)):
                continue
            if isinstance(shape, Box):
                inside = np.all(np.abs(local) <= np.asarray(shape.size) / 2.0 + slack)
            elif isinstance(shape, Cylinder):
                inside = np.all(np.hypot(local[:, 0], local[:, 1]) <= shape.radius + slack) \
                    and np.all(np.abs(local[:, 2]) <= shape.length / 2.0 + slack)
            else:
                inside = np.all(np.linalg.norm(local, axis=1) <= shape.radius + slack)
            if inside:
                return True
    return False


def _neighbours(ctx: CheckContext, name: str) -> List[str]:
    """
    Return the links up to :data:`ENCLOSED_REACH` joints above and below one, nearest first.

    Not its siblings (up, then down): a hub's thousands of children would each be every
    other's neighbour (5,000 links under one base timed out).
    """
    found: List[str] = []
    current = name
    for _ in range(ENCLOSED_REACH):
        joint = ctx.robot.parent_joint(current)
        if joint is None or joint.parent == name or joint.parent in found:
            break
        found.append(joint.parent)
        current = joint.parent
    ring = [name]
    for _ in range(ENCLOSED_REACH):
        ring = [joint.child for current in ring for joint in ctx.robot.child_joints(current)
                if joint.child != name and joint.child not in found][:MAX_NEIGHBOURS]
        found.extend(ring)
    return found


#: A part smaller than this (m, bounds diagonal) between two colliding bodies is a hinge.
HINGE_SIZE = 0.08


def is_hinge(ctx: CheckContext, link: Link, size: Optional[float]) -> bool:
    """
    Return True for a small intermediate part whose neighbours on both sides collide.

    A 3-8 cm hinge between a colliding thigh and foot (the pitch link of a two-axis ankle)
    is covered by its neighbours' shapes in practice: an info, not a gap.
    """
    if size is None or size >= HINGE_SIZE:
        return False
    top = ctx.weld_top(link.name)
    joint = ctx.robot.parent_joint(top)
    below = [child for name in ctx.weld_group(link.name)
             for child in (j.child for j in ctx.robot.child_joints(name) if j.is_moving)]
    return joint is not None and ctx.group_has_collision(joint.parent) and bool(below) and \
        all(ctx.group_has_collision(child) for child in below)


def visual_size(ctx: CheckContext, visuals: List[GeometryElement]) -> Optional[float]:
    """Return the diagonal of the visuals' bounds, None when one is unknown."""
    boxes = [ctx.element_bounds(element) for element in visuals]
    if any(box is None for box in boxes):
        return None
    lo, hi = union_bounds(boxes)
    return float(np.linalg.norm(hi - lo))


def is_unexpanded(filename: str) -> bool:
    """Return True when a filename holds xacro substitution syntax."""
    return '$(' in filename or '${' in filename


def _has_mass(link) -> bool:
    return math.isfinite(link.mass) and link.mass > 0.0


def _massless(ctx: CheckContext) -> Tuple[str, ...]:
    links = ctx.robot.links
    if any(_has_mass(link) or link.mass < 0.0 for link in links):
        return ()
    moving = tuple(link.name for link in links if ctx.is_moving(link.name))
    return moving if len(moving) >= MODEL_WIDE_MIN else ()


def _collisionless(ctx: CheckContext) -> Tuple[str, ...]:
    bodies = set()
    missing: List[str] = []
    for link in ctx.robot.links:
        if not any(element.geometry is not None for element in link.visuals + link.collisions):
            continue
        bodies.add(ctx.weld_top(link.name))
        if visible_without_collision(ctx, link):
            missing.append(link.name)
    without = {ctx.weld_top(name) for name in missing}
    if len(missing) >= MODEL_WIDE_MIN and PARTIAL_SHARE * len(bodies) <= len(without):
        return tuple(missing)
    # Fewer bodies, but still parts left out on purpose (Spot's four hips, which an arm's
    # links made fewer than a quarter): once, as when they are a quarter. Small hinges
    # between colliding links stay infos of their own (collision-missing).
    gaps = tuple(name for name in missing if not _is_hinge_named(ctx, name))
    if len(gaps) >= MODEL_WIDE_MIN:
        return gaps
    # Fewer such parts, and fewer small hinges than make a note of their own, but 3 or more
    # together: the parts left out are still one choice (Unitree H1_2: both hip-yaw links and
    # both ankle-pitch links), reported once with the hinges named as such.
    if gaps and len(missing) >= MODEL_WIDE_MIN and len(missing) - len(gaps) < MODEL_WIDE_MIN:
        return tuple(missing)
    return ()


def _is_hinge_named(ctx: CheckContext, name: str) -> bool:
    """Return :func:`is_hinge` for the link of that name, its size from its visuals."""
    link = ctx.robot.link(name)
    return is_hinge(ctx, link, visual_size(ctx, [e for e in link.visuals
                                                 if e.geometry is not None]))


def _body_counts(ctx: CheckContext, links: Tuple[str, ...]) -> Tuple[int, int]:
    """Return how many bodies have geometry and how many of them the links make up."""
    bodies = {ctx.weld_top(link.name) for link in ctx.robot.links
              if any(e.geometry is not None for e in link.visuals + link.collisions)}
    return len(bodies), len({ctx.weld_top(name) for name in links})


def _zero_limits(joint) -> Tuple[str, ...]:
    limit = joint.limit
    return tuple(name for name in ('effort', 'velocity')
                 if limit is not None and getattr(limit, name) == 0.0)


def locked(joint: Joint) -> bool:
    """
    Return True for a revolute or prismatic joint written with lower equal to upper.

    A joint locked so (Toyota HSR's bumpers, uuv_simulator's 17 sensor joints) is said by
    joint-range-zero, whose fix (type="fixed") leaves no effort or velocity to write.
    """
    limit = joint.limit
    return joint.type in ('revolute', 'prismatic') and limit is not None and \
        (limit.lower is not None or limit.upper is not None) and \
        limit.bounds[0] == limit.bounds[1]


def _placeholder_joints(ctx: CheckContext) -> Tuple[str, ...]:
    joints = [joint for joint in ctx.robot.joints
              if joint.is_moving and joint.mimic is None and joint.limit is not None
              and joint.type in ('revolute', 'prismatic', 'continuous') and not locked(joint)]
    for name in ('effort', 'velocity'):
        zero = tuple(joint.name for joint in joints if name in _zero_limits(joint))
        if len(zero) >= MODEL_WIDE_MIN and len(zero) >= PLACEHOLDER_SHARE * len(joints):
            return zero
    return ()


def grouped(ctx: CheckContext, findings: List[Finding], what: str,
            own_fixes: bool = False) -> Iterator[Finding]:
    """
    Yield findings of one rule as they are, or as one listing the links when 3 or more.

    :param findings: findings of one rule and one cause (e.g. lower == upper)
    :param what: what they share, for the message ('revolute joints with lower == upper')
    :param own_fixes: each link has a fix of its own (its tensor, its centre of mass): the
        first one's is given as the example, named as that link's; the tensors the findings
        suggested are kept for each link (``Finding.links_suggested_inertia``)
    """
    if len(findings) < MODEL_WIDE_MIN:
        yield from findings
        return
    first = _example(ctx, findings)
    shown = 'the first' if first is findings[0] else f'on {first.link}'
    links = tuple(dict.fromkeys(finding.link for finding in findings if finding.link))
    yield ctx.finding(
        first.rule, max(finding.severity for finding in findings),
        f'{len(findings)} {what} ({listed(links)}); {shown}: {first.message}',
        element=first.element, line=first.line,
        suggestion=(f'each link its own; for {first.link}: {first.suggestion}'
                    if own_fixes and first.link and first.suggestion else first.suggestion),
        values=(('count', len(findings)),) + first.values, links=links,
        links_suggested_inertia=[(finding.link, finding.suggested_inertia)
                                 for finding in findings if finding.link is not None
                                 and finding.suggested_inertia is not None])


def _example(ctx: CheckContext, findings: List[Finding]) -> Finding:
    """
    Return the finding a group shows: the first of the most severe, not the base's.

    RealMan's arm with an all-zero tensor on its root and six moving links was shown by the
    root's ("MuJoCo ... accepts it welded to the world"), which its moving links are not: a
    link welded to a root (the base, fixed or floating) shows a group only when nothing else
    does.
    """
    roots = ctx.root_names

    def on_base(finding: Finding) -> bool:
        return bool(finding.link) and ctx.weld_top(str(finding.link)) in roots

    return min(findings, key=lambda finding: (-int(finding.severity), on_base(finding)))


def grouped_by_value(ctx: CheckContext,
                     check: Callable[[CheckContext, Link], Iterator[Finding]],
                     value: Callable[[Link, Finding], Hashable], what: Callable[[Hashable], str],
                     own_fixes: bool = False) -> Iterator[Finding]:
    """
    Run a per-link check over the robot; its findings that share a value are :func:`grouped`.

    One value written on 3 or more links (a tensor, a mass or a centre of mass copied by a
    macro) is one choice, reported once.

    :param check: the per-link check
    :param value: what a link's finding shares with the others of its group
    :param what: the group's message for a value ('links declare the same mass (2 kg)')
    :param own_fixes: as for :func:`grouped`
    """
    found: Dict[Hashable, List[Finding]] = {}
    for link in ctx.robot.links:
        for finding in check(ctx, link):
            found.setdefault(value(link, finding), []).append(finding)
    for key, findings in found.items():
        yield from grouped(ctx, findings, what(key), own_fixes)


def numberless(name: str) -> str:
    """Return a name with each run of digits as '#': a macro's copies share it."""
    return _DIGITS.sub('#', name)


def _consumers(ctx: CheckContext, breaks: Tuple[str, ...], effect: str,
               fine: Tuple[str, ...]) -> str:
    """Return 'A and B effect; C is unaffected' for the selected targets."""
    selected = ctx.config.targets
    broken, unaffected = named(selected, breaks), named(selected, fine)
    parts = [f'{broken} {effect}'] if broken else []
    if unaffected:
        parts.append(f'unaffected: {unaffected}')
    return '; '.join(parts)


def _on_robot(ctx: CheckContext, rule: str, severity: Severity, links: Tuple[str, ...],
              message: str, suggestion: str) -> Finding:
    """Build a robot-level finding that lists its links (at the first link's line)."""
    return ctx.finding(rule, severity, message, line=ctx.robot.link(links[0]).line,
                       suggestion=suggestion,
                       values=(('links', listed(links)), ('count', len(links))), links=links)


def check_kinematics_only(ctx: CheckContext) -> Iterator[Finding]:
    """Report once a robot in which no link has mass (a kinematics model)."""
    links = model_choices(ctx).massless
    if not links:
        return
    # MuJoCo infers a body's mass from its collision geometry when it has no <inertial>
    # (inertiafromgeom="auto"); a link with none to infer from, or mass="0", is refused.
    refused = [name for name in links
               if ctx.robot.link(name).inertial is not None
               or not ctx.group_has_collision(name)]
    by_target = {'gazebo': Severity.ERROR, 'kdl': Severity.INFO, 'pinocchio': Severity.INFO,
                 'rviz': Severity.INFO, 'moveit': Severity.INFO,
                 'mujoco': Severity.ERROR if refused else Severity.WARNING}
    severity = severity_for(ctx.config.targets, by_target)
    if severity is None:
        return
    # Named: Motoman's SDA10F has one such link among 15 (a mimic joint's, without
    # collision), which "no mass on 1 moving link" left to be found.
    zero = tuple(name for name in refused if ctx.robot.link(name).inertial is not None)
    bare = tuple(name for name in refused if name not in zero)
    why = ([f'{listed(zero)} declare{"s" if len(zero) == 1 else ""} mass 0'] if zero else []) \
        + ([f'{listed(bare)} {"has" if len(bare) == 1 else "have"} no collision geometry to '
            'infer a mass from'] if bare else [])
    mujoco = (f'MuJoCo refuses to compile ({"; ".join(why)})' if refused else
              'MuJoCo makes masses up from the collision geometry at 1000 kg/m^3')
    effects = {
        'gazebo': 'Gazebo leaves every moving link and its joint out ("not modeled in sdf")',
        'mujoco': mujoco,
        'pinocchio': 'Pinocchio loads it but its mass matrix is zero (no forward dynamics)',
        'kdl': 'KDL dynamics solvers get zero masses',
    }
    said = [text for target, text in effects.items() if target in ctx.config.targets]
    efforts = _effort_placeholders(ctx)
    if _display_model(ctx):
        # No mass and no collision anywhere (NASA's M2020 rover, a hand's visual model):
        # one choice, a model for display, said once (robot-collision-partial said "30 of
        # the 30 bodies" beside this).
        collision = severity_for(ctx.config.targets, {target: Severity.WARNING
                                                      for target in _COLLIDERS})
        severity = max(severity, collision) if collision is not None else severity
        yield _on_robot(
            ctx, 'robot-kinematics-only', severity, links,
            f'no link has mass and none has collision geometry: a model for display '
            f'({len(links)} moving links without <inertial> mass or <collision>: '
            f'{listed(links)}). ' + ('; '.join(said) + '. ' if said else '')
            + _sentence(_consumers(ctx, _COLLIDERS, 'let every part pass through obstacles '
                                   'and the robot itself', ('rviz', 'kdl', 'pinocchio'))),
            'add <inertial> and <collision> elements from the CAD model (mass, centre of '
            'mass, tensor; a primitive around each part)'
            + _unless_targets(ctx, ('rviz', 'kdl'), 'only for display'))
        return
    yield _on_robot(
        ctx, 'robot-kinematics-only', severity, links,
        f'no link has mass: a kinematics model ({len(links)} moving links without '
        f'<inertial> mass: {listed(links)}). '
        + ('; '.join(said) + '. ' if said else '')
        + 'Fine for kinematics: '
        + (named(ctx.config.targets, ('rviz', 'moveit', 'kdl', 'pinocchio')) or 'none selected')
        + (f'. Its effort limits are 0 placeholders too ({len(efforts)} joints): no '
           'dynamics uses them without masses' if efforts else ''),
        'add <inertial> elements from the CAD model (mass, centre of mass, tensor)'
        + _unless_targets(ctx, ('rviz', 'moveit', 'kdl'), 'meant for kinematics only'))


def _unless_targets(ctx: CheckContext, targets: Tuple[str, ...], meant: str) -> str:
    """Return the advice to check for these targets alone, unless they are all selected."""
    if set(ctx.config.targets) <= set(targets):
        return ' before simulating the robot (nothing is needed for the targets selected)'
    return f'; if the file is {meant}, check it with --target {",".join(targets)}'


def _sentence(text: str) -> str:
    """Return text as a sentence: its first letter a capital (the rest as it is), a stop."""
    return f'{text[:1].upper()}{text[1:]}.' if text else ''


#: the targets a part without collision geometry passes through obstacles in
_COLLIDERS = ('moveit', 'gazebo', 'mujoco')


def _display_model(ctx: CheckContext) -> bool:
    """Return True when no link has mass and no body has collision geometry."""
    collisionless = model_choices(ctx).collisionless
    if not model_choices(ctx).massless or not collisionless:
        return False
    bodies, without = _body_counts(ctx, collisionless)
    return without == bodies


def check_visual_only(ctx: CheckContext) -> Iterator[Finding]:
    """Report once a robot whose bodies mostly have no collision geometry."""
    links = model_choices(ctx).collisionless
    if not links or _display_model(ctx):  # said with robot-kinematics-only
        return
    breaks = _COLLIDERS
    severity = severity_for(ctx.config.targets, {target: Severity.WARNING for target in breaks})
    if severity is None:
        return
    bodies, without = _body_counts(ctx, links)
    kind = 'a visual model' if 2 * without >= bodies else \
        'collision on a subset of the parts' if without >= PARTIAL_SHARE * bodies else \
        'parts left without collision'
    hinges = tuple(name for name in links if _is_hinge_named(ctx, name)) \
        if without < PARTIAL_SHARE * bodies else ()
    small = (f'; {listed(hinges)} {"is a small part" if len(hinges) == 1 else "are small parts"}'
             f' under {HINGE_SIZE * 100:g} cm between links that collide on both sides'
             if hinges else '')
    yield _on_robot(
        ctx, 'robot-collision-partial', severity, links,
        f'{len(links)} links with visual geometry have no <collision> (nor has anything '
        f'welded to them): {without} of the {bodies} bodies, {kind} ({listed(links)}{small}). '
        + _consumers(ctx, breaks, 'let the listed parts pass through obstacles and the robot '
                     'itself', ('rviz', 'kdl', 'pinocchio')),
        'add a <collision> primitive around each listed part (the visual geometry is a '
        'starting point); if the file is only for display, check it with --target rviz,kdl')


def _placeholders(ctx: CheckContext) -> Tuple[List[Joint], List[str]]:
    """Return the joints of the placeholder limits and which limits all of them zero."""
    choices = model_choices(ctx)
    joints = [joint for joint in ctx.robot.joints if joint.name in choices.placeholder_set]
    return joints, [kind for kind in ('effort', 'velocity')
                    if joints and all(kind in _zero_limits(joint) for joint in joints)]


def _effort_placeholders(ctx: CheckContext) -> List[Joint]:
    """
    Return the joints of placeholder limits that are effort only, in a kinematics model.

    Effort is for dynamics, which a model without masses has none of: the kinematics-only
    finding says them (ROS-Industrial's arms write effort 0 and no mass), not a second one.
    """
    return _effort_only(ctx, *_placeholders(ctx))


def _effort_only(ctx: CheckContext, joints: List[Joint], zero: List[str]) -> List[Joint]:
    """Return ``joints`` (from :func:`_placeholders`) when effort only is 0, without mass."""
    return joints if zero == ['effort'] and model_choices(ctx).massless else []


def check_placeholder_limits(ctx: CheckContext) -> Iterator[Finding]:
    """Report once zero effort or velocity limits written on every moving joint."""
    names = model_choices(ctx).placeholder_joints
    if not names:
        return
    joints, zero = _placeholders(ctx)
    if _effort_only(ctx, joints, zero) and 'robot-kinematics-only' not in ctx.config.ignore_rules:
        return  # said by robot-kinematics-only
    moving = sum(1 for joint in ctx.robot.joints if joint.is_moving and joint.mimic is None
                 and joint.limit is not None)
    # A choice, like both limits 0 on one joint (how placeholders are written): an info.
    by_target = {'pinocchio': Severity.INFO, 'moveit': Severity.INFO, 'kdl': Severity.INFO}
    severity = severity_for(ctx.config.targets, by_target)
    if severity is None:
        return
    links = tuple(joint.child for joint in joints)
    yield ctx.finding(
        'robot-placeholder-limits', severity,
        f'{" and ".join(zero)} {"is" if len(zero) == 1 else "are"} 0 on {len(names)} of the '
        f'{moving} moving joints ({listed(tuple(names))}): placeholder limits. Pinocchio reads '
        'them as 0, as does any tool enforcing the URDF limits'
        + ' (MoveIt and ros2_control read them from the URDF unless their own limit files '
          'override them)' + ('; MuJoCo treats effort 0 as no force limit'
                              if 'effort' in zero else ''),
        line=joints[0].line,
        suggestion=f'write the real {" and ".join(zero)} limits, or set them in the '
                   "consumers' limit files (MoveIt joint_limits.yaml, ros2_control)",
        values=(('joints', listed(tuple(names))), ('count', len(names))), links=links)


def check_unexpanded(ctx: CheckContext) -> Iterator[Finding]:
    """Report once the xacro directives and the mesh filenames left unexpanded."""
    yield from _directives_left(ctx)
    elements = [(link, element) for link in ctx.robot.links
                for element in link.visuals + link.collisions + link.custom
                if element.geometry is not None and element.geometry.kind == 'mesh'
                and is_unexpanded(element.geometry.filename)]
    names = [item.name for item in list(ctx.robot.links) + list(ctx.robot.joints)
             if is_unexpanded(item.name)]
    if not elements and not names:
        return
    if not elements:
        # Only names: the robot loads, its frames are named "${prefix}base_link" literally.
        links = tuple(link.name for link in ctx.robot.links if is_unexpanded(link.name))
        yield ctx.finding(
            'xacro-unexpanded', Severity.INFO,
            f'{len(names)} link or joint names hold xacro syntax (e.g. "{names[0]}"): a '
            'template meant to be expanded (TF frames and joint states carry the literal text '
            'otherwise)', line=ctx.robot.links[0].line if ctx.robot.links else None,
            suggestion='load it through xacro, or substitute the names before use',
            values=(('example', names[0]), ('count', len(names))), links=links)
        return
    links = tuple(dict.fromkeys(link.name for link, _ in elements))
    collision = any(element.group == 'collision' for _, element in elements)
    first = elements[0][1].geometry.filename
    yield ctx.finding(
        'xacro-unexpanded', Severity.ERROR if collision else Severity.WARNING,
        f'{len(elements)} mesh filename{"s" if len(elements) > 1 else ""} hold xacro syntax '
        f'(e.g. "{first}"): this is a xacro template, not a URDF; no URDF reader expands it, '
        f'so every consumer loses these meshes (links: {listed(links)})'
        + (f'; {len(names)} link or joint names hold it too' if names else ''),
        line=elements[0][1].geometry.line or elements[0][1].line,
        suggestion='expand it with xacro (xacro robot.urdf.xacro > robot.urdf) and load the '
                   'result, or check it with its arguments: urdf-link-tools check --xacro FILE '
                   'NAME:=VALUE',
        values=(('example', first), ('count', len(elements))), links=links)


def _directives_left(ctx: CheckContext) -> Iterator[Finding]:
    """
    Say once which xacro directives a document read as plain URDF keeps.

    MOGI's mogi_bot.urdf (sweep T), expanded by xacro in its launch file and checked as it
    is: its <xacro:include> of the Gazebo file (camera, IMU, GPS, lidar) and of its materials
    were skipped with a note on standard error only, and the report was clean.
    """
    left = ctx.robot.xacro_left
    if not left:
        return
    shown = [f'<xacro:{local}' + (f' {what!r}' if what else '') + f'> (line {line})'
             for local, what, line in left[:LISTED]]
    many = len(left) > 1
    yield ctx.finding(
        'xacro-unexpanded', Severity.WARNING,
        f'{len(left)} xacro directive{"s are" if many else " is"} left in a document read as '
        f'plain URDF: {listed(shown, total=len(left))}; URDF readers ignore '
        f'{"them" if many else "it"} with what {"they hold" if many else "it holds"}, so '
        'the files included, the macros called and what a condition holds are not in the '
        'robot checked (nor in what robot_state_publisher makes of this file)',
        line=left[0][2],
        suggestion='if the file is expanded by xacro (its launch file runs xacro on it), '
                   'check it with --xacro and the arguments it takes, or name it .urdf.xacro; '
                   'if it is loaded as it is, expand it and use the result',
        values=(('count', len(left)), ('directives', ' '.join(local for local, _, _ in left))))


CHECKS = (check_kinematics_only, check_visual_only, check_placeholder_limits, check_unexpanded)
