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
Rules about joints: limits, axes, mimic relations and the numbers urdfdom cannot read.

Each finding is about one joint and belongs to the link the joint places (its child), as
the structure rules have it. What the parser already reported (an unreadable number, a
missing ``effort``) is not reported again here. The claims about other tools are tested
in test/test_checks_joints.py against Pinocchio (which embeds urdfdom) and MuJoCo.
"""

from __future__ import annotations

import math
import os
import re
from typing import Dict, Iterator, List, Optional, Tuple

from urdf_link_tools.checks.base import CheckContext, first_names, fmt, Rule
from urdf_link_tools.checks.model_wide import locked, model_choices, MODEL_WIDE_MIN
from urdf_link_tools.checks.names import NameSuggester
from urdf_link_tools.findings import Finding, listed, Severity
from urdf_link_tools.model import Joint
from urdf_link_tools.targets import severity_for

URDFDOM = 'urdfdom joint.cpp (parseJoint, parseJointLimits)'
LIMITED_TYPES = ('revolute', 'prismatic')
AXIS_TYPES = ('revolute', 'continuous', 'prismatic', 'planar')
REFUSED = 'urdfdom refuses this robot (robot_state_publisher, RViz and MoveIt load nothing)'

RULES = (
    Rule('joint-limit-missing', Severity.ERROR, 'a revolute or prismatic joint has no <limit>',
         f'{REFUSED}: "is of type REVOLUTE but it does not specify limits"',
         'add <limit lower=".." upper=".." effort=".." velocity=".."/>, or make an endless '
         'rotation type="continuous"', URDFDOM),
    Rule('joint-range-missing', Severity.ERROR,
         'a revolute or prismatic <limit> has neither lower nor upper',
         'both default to 0: Pinocchio, MoveIt and limit-aware IK lock the joint at 0, '
         'while MuJoCo '
         'ignores the limit and lets it turn freely', 'write lower and upper, or use '
         'type="continuous" for an endless rotation', URDFDOM),
    Rule('joint-range-inverted', Severity.ERROR, 'lower is greater than upper (the same '
         'values on 3 or more joints are one finding)',
         'no position satisfies the limit: MuJoCo ignores it, Pinocchio and MoveIt keep an '
         'empty range; Bullet reads it as no limit', 'swap lower and upper, or use '
         'type="continuous" for a joint meant to turn without limit', URDFDOM),
    Rule('joint-range-zero', Severity.WARNING, 'lower equals upper on a revolute or '
         'prismatic joint (its effort and velocity 0 said with it, not as joint-limit-zero)',
         "MoveIt, Gazebo and limit-aware IK (Pinocchio's position limits) keep the joint "
         'at that position, while MuJoCo ignores the limit ("equal lower and upper limits") '
         'and dynamics let it move',
         'use type="fixed" for a locked joint, type="continuous" for a revolute one meant to '
         'turn freely, or write the real range', URDFDOM),
    Rule('joint-range-implausible', Severity.WARNING,
         'a revolute joint has a limit beyond two turns (4 pi rad) and under 1000 rad (huge '
         'values written for no limit are not reported); the same limits on 3 or more '
         'joints are one finding',
         'a revolute joint turns within a turn or two: lower="-94" for -0.94 (Unitree B2 '
         'thighs) or degrees for radians leave the joint without a limit wherever limits are '
         "enforced (MoveIt, Pinocchio, ros2_control, MuJoCo's range)",
         'write the limit in radians (the value over 100, or times pi/180 from degrees), or '
         'use type="continuous" for an endless rotation', URDFDOM),
    Rule('joint-limit-zero', Severity.WARNING, 'effort or velocity is 0 on a moving joint '
         '(INFO when both are 0, as passive joints and placeholders are written, and for '
         'effort 0 on a continuous joint of a description that names no actuated joint: a '
         'passive wheel or caster; effort 0 '
         'is not reported on a joint that no <transmission> or ros2_control command '
         'interface drives when the description names its actuated joints, nor on a joint '
         'locked by lower equal to upper: joint-range-zero says it); the same zeros '
         'on 3 or more joints, or on every moving joint of the robot, are one finding (as for '
         'every limit rule of joints)',
         'the joint can apply no force or cannot move wherever the URDF limits are '
         'enforced: Pinocchio reads effortLimit/velocityLimit 0, and so do MoveIt and '
         'ros2_control; Gazebo enforces them too. Not said for MuJoCo, RViz or KDL alone, '
         'which do not read them',
         'write the real effort and velocity limits of the actuator', URDFDOM),
    Rule('joint-limit-negative', Severity.ERROR, 'effort or velocity is negative on a moving '
         'joint (a claim about Pinocchio: silent without the pinocchio target); the same '
         'values on 3 or more joints are one finding',
         'Pinocchio refuses the robot: it reads the limit as the range -limit to +limit '
         '("Some components of min_effort are greater than max_effort", Pinocchio 4.1); '
         'Gazebo reads a negative limit as no limit (SDFormat), urdfdom and MuJoCo keep it '
         'as written',
         "write the actuator's limit as a positive number (a large one for no limit: every "
         'reader takes that)', 'Pinocchio 4.1 (test_checks_joints.py); SDFormat joint limit'),
    Rule('joint-axis-zero', Severity.ERROR, 'the axis of a moving joint is 0 0 0 (or <axis> has '
         'no xyz, which urdfdom reads as 0 0 0)', 'MuJoCo refuses the robot ("axis too '
         'small"); KDL (robot_state_publisher) divides by its length and publishes NaN '
         'transforms', 'write the unit axis, e.g. <axis xyz="0 0 1"/>', URDFDOM),
    Rule('joint-mimic-unknown', Severity.WARNING, 'a <mimic> names a joint that does not exist',
         'Pinocchio, MuJoCo and robot_state_publisher ignore the mimic: the joint moves on '
         'its own instead of following', 'fix the joint name in <mimic joint="..."/>',
         'URDF joint specification'),
    Rule('joint-value-not-finite', Severity.ERROR, 'a joint value (axis, limit, mimic, '
         'dynamics, calibration, safety_controller) is NaN or infinite',
         f'{REFUSED}: its number reader takes no nan or inf', 'write finite numbers',
         URDFDOM),
)


def _finding(ctx: CheckContext, joint: Joint, rule: str, severity: Severity, message: str,
             line: Optional[int], suggestion: str,
             values: Tuple[Tuple[str, object], ...] = ()) -> Finding:
    return ctx.finding(rule, severity, f"{joint.type} joint '{joint.name}': {message}",
                       link=joint.child, element=f'joint "{joint.name}"',
                       line=line if line is not None else joint.line, suggestion=suggestion,
                       values=values)


def _values(joint: Joint) -> Iterator[Tuple[str, Optional[float], Optional[int]]]:
    """Yield (name, value, line) of every number of a joint but its origin."""
    if joint.type in AXIS_TYPES:
        for name, value in zip(('x', 'y', 'z'), joint.axis):
            yield f'axis {name}', value, joint.axis_line
    limit = joint.limit
    if limit is not None:
        for name in ('lower', 'upper', 'effort', 'velocity'):
            yield f'limit {name}', getattr(limit, name), limit.line
    if joint.mimic is not None:
        yield 'mimic multiplier', joint.mimic.multiplier, joint.mimic.line
        yield 'mimic offset', joint.mimic.offset, joint.mimic.line
    for tag, part, names in (
            ('dynamics', joint.dynamics, ('damping', 'friction')),
            ('calibration', joint.calibration, ('rising', 'falling')),
            ('safety_controller', joint.safety,
             ('soft_lower_limit', 'soft_upper_limit', 'k_position', 'k_velocity'))):
        if part is not None:
            for name in names:
                yield f'{tag} {name}', getattr(part, name), part.line


def _not_finite(ctx: CheckContext, joint: Joint) -> Optional[Finding]:
    bad = [(name, value, line) for name, value, line in _values(joint)
           if value is not None and not math.isfinite(value)]
    if not bad:
        return None
    listed = ', '.join(f'{name} = {value}' for name, value, _ in bad)
    return _finding(ctx, joint, 'joint-value-not-finite', Severity.ERROR,
                    f'{listed}: {REFUSED} (it reads no nan or inf)', bad[0][2],
                    'write finite numbers', tuple((name, value) for name, value, _ in bad))


def _limits(ctx: CheckContext, joint: Joint) -> Iterator[Finding]:
    limit = joint.limit
    if limit is None:
        if joint.type in LIMITED_TYPES:
            yield _finding(
                ctx, joint, 'joint-limit-missing', Severity.ERROR,
                f'no <limit>: {REFUSED} (a {joint.type} joint must specify limits)', None,
                'add <limit lower=".." upper=".." effort=".." velocity=".."/>'
                + (', or use type="continuous" for an endless rotation'
                   if joint.type == 'revolute' else ''))
        return
    if joint.type in LIMITED_TYPES and not {'lower', 'upper'} & set(limit.unreadable):
        yield from _range(ctx, joint)
    given = [(name, getattr(limit, name)) for name in ('effort', 'velocity')
             if getattr(limit, name) is not None]
    negative = [(name, value) for name, value in given if value < 0.0]
    if negative and joint.type in LIMITED_TYPES + ('continuous',):
        severity = severity_for(ctx.config.targets, {'pinocchio': Severity.ERROR})
        if severity is not None:
            names = ' and '.join(name for name, _ in negative)
            yield _finding(
                ctx, joint, 'joint-limit-negative', severity,
                ' and '.join(f'{name} {fmt(value)}' for name, value in negative)
                + f' {"is" if len(negative) == 1 else "are"} negative: Pinocchio refuses the '
                f'robot ("Some components of min_{negative[0][0]} are greater than '
                f'max_{negative[0][0]}": it reads -{negative[0][0]} to +{negative[0][0]}); '
                'Gazebo reads a negative limit as none', limit.line,
                f'write the {names} limit{"s" if len(negative) > 1 else ""} as positive '
                'numbers (a large one for no limit: every reader takes that)',
                tuple(negative))
    zero = [name for name, value in given if value == 0.0]
    actuated = ctx.robot.actuated_joints
    if zero == ['effort'] and actuated and joint.name not in actuated:
        # The description names its actuated joints (transmissions, ros2_control command
        # interfaces) and not this one: a passive joint, whose effort 0 is right (Cassie's
        # shin and ankle springs).
        zero = []
    if zero == ['effort'] and joint.type == 'continuous' and _PASSIVE.search(
            f'{joint.name} {joint.child}'):
        # A caster or idler named as one: unactuated by design, effort 0 is right (Trossen's
        # mobile base: 8 caster joints, velocity 3, effort 0, an info per robot till then).
        zero = []
    if zero and joint.type in LIMITED_TYPES + ('continuous',) and joint.mimic is None and \
            joint.name not in model_choices(ctx).placeholder_set and not locked(joint):
        # Both 0 is how passive joints and placeholders are written (urdfdom requires the
        # attributes); one of them 0 beside a real other is a slip, but for effort 0 on an
        # endless joint of a description that names no actuated joint: a passive wheel or
        # caster (Trossen's mobile base: 8 caster joints, velocity 3, effort 0).
        passive = zero == ['effort'] and joint.type == 'continuous' and actuated is None
        # Only where the limits are read: Pinocchio, MoveIt and Gazebo (gz-physics enforces
        # <effort> and <velocity>); MuJoCo ignores them (Thymio's wheels under --target
        # mujoco were told of Pinocchio and MoveIt, sweep V), and so do RViz and KDL.
        severity = severity_for(ctx.config.targets, dict.fromkeys(
            LIMIT_READERS, Severity.INFO if len(zero) == 2 or passive else Severity.WARNING))
        if severity is None:
            return
        yield _finding(
            ctx, joint, 'joint-limit-zero', severity,
            f'{" and ".join(zero)} {"is" if len(zero) == 1 else "are"} 0: the joint '
            f'{"can apply no force" if "effort" in zero else "cannot move"} where limits '
            'are enforced (Pinocchio reads the limit as 0, as MoveIt and ros2_control do)',
            limit.line,
            f'write the real {" and ".join(zero)} limit'
            + ('s' if len(zero) > 1 else '')
            + ('; a passive joint (a spring, an unactuated wheel) has no actuator effort: '
               'effort 0 is right there' if zero == ['effort'] else ''),
            tuple((name, 0.0) for name in zero))


#: the targets that read a joint's effort and velocity limits
LIMIT_READERS = ('pinocchio', 'moveit', 'gazebo')


def _range(ctx: CheckContext, joint: Joint) -> Iterator[Finding]:
    limit = joint.limit
    lower, upper = limit.bounds  # type: ignore[union-attr]
    if not (math.isfinite(lower) and math.isfinite(upper)):
        return  # joint-value-not-finite says it
    values = (('lower', lower), ('upper', upper))
    line = limit.line  # type: ignore[union-attr]
    if limit.lower is None and limit.upper is None:  # type: ignore[union-attr]
        yield _finding(
            ctx, joint, 'joint-range-missing', Severity.ERROR,
            '<limit> has neither lower nor upper, so both are 0: Pinocchio, MoveIt and '
            'limit-aware IK lock the joint at 0, MuJoCo ignores the limit', line,
            'write lower and upper' + (', or use type="continuous" for an endless rotation'
                                       if joint.type == 'revolute' else ''), values)
        return
    absent = [name for name in ('lower', 'upper') if getattr(limit, name) is None]
    note = f' ({absent[0]} is absent, so 0)' if absent else ''
    if lower > upper:
        yield _finding(
            ctx, joint, 'joint-range-inverted', Severity.ERROR,
            f'lower {fmt(lower)} is greater than upper {fmt(upper)}{note}: no position is '
            'within the limit (MuJoCo ignores it, Pinocchio and MoveIt keep an empty range; '
            'Bullet reads lower > upper as no limit)',
            line, ('swap lower and upper' if not absent else f'write {absent[0]}')
            + ("; if the joint is meant to turn without limit (Bullet's idiom), use "
               'type="continuous"' if joint.type == 'revolute' else ''), values)
    elif joint.type == 'revolute' and TWO_TURNS < max(abs(lower), abs(upper)) < NO_LIMIT:
        yield _implausible(ctx, joint, lower, upper, values)
    elif lower == upper:
        # effort and velocity 0 too (a SolidWorks export's <limit> of zeros, HSR's locked
        # bumpers): said here, not as joint-limit-zero as well (model_wide.locked)
        zero = [name for name in ('effort', 'velocity')
                if getattr(limit, name) == 0.0]  # type: ignore[union-attr]
        yield _finding(
            ctx, joint, 'joint-range-zero', Severity.WARNING,
            f'lower and upper are both {fmt(lower)}{note}'
            + (f', and {" and ".join(zero)} {"are" if len(zero) > 1 else "is"} 0'
               if zero else '')
            + ": MoveIt, Gazebo and limit-aware IK (Pinocchio's position limits) keep the "
            'joint there, while MuJoCo ignores the limit and dynamics let it move', line,
            'use type="fixed" for a locked joint'
            + (', type="continuous" for one meant to turn freely (a pendulum)'
               if joint.type == 'revolute' else '')
            + ', or write the real range' + (f' and {" and ".join(zero)}' if zero else ''),
            values)


#: names of joints (or their child links) that turn freely by design: casters and idlers
_PASSIVE = re.compile(r'caster|castor|idler|passive', re.IGNORECASE)

#: radians: a revolute joint's limit beyond this (two turns) is a slip; from NO_LIMIT on, a
#: huge value written for no limit (an idiom, not reported)
TWO_TURNS = 4.0 * math.pi
NO_LIMIT = 1000.0


def _implausible(ctx: CheckContext, joint: Joint, lower: float, upper: float,
                 values: Tuple[Tuple[str, float], ...]) -> Finding:
    """Return the finding of a revolute joint's limit beyond two turns."""
    far = [(name, value) for name, value in values if abs(value) > TWO_TURNS]
    readings = []
    for name, value in far:
        readings.append(f'{name}="{fmt(value / 100.0)}" (a decimal slip) or '
                        f'"{fmt(math.radians(value))}" (degrees)')
    span = upper - lower
    return _finding(
        ctx, joint, 'joint-range-implausible', Severity.WARNING,
        f'lower {fmt(lower)} and upper {fmt(upper)} rad: the joint spans {fmt(span)} rad '
        f'({fmt(span / (2.0 * math.pi), 3)} turns), where a revolute joint turns within a '
        'turn or two, so nothing limits it wherever limits are enforced (MoveIt, Pinocchio, '
        "ros2_control, MuJoCo's range)", joint.limit.line,  # type: ignore[union-attr]
        'write the limit in radians: ' + '; '.join(readings)
        + '; or use type="continuous" for an endless rotation', values)


def _axis(ctx: CheckContext, joint: Joint) -> Optional[Finding]:
    if joint.type not in AXIS_TYPES or any(not math.isfinite(v) for v in joint.axis):
        return None
    if math.fsum(v * v for v in joint.axis) > 0.0:
        return None
    return _finding(
        ctx, joint, 'joint-axis-zero', Severity.ERROR,
        'the axis is 0 0 0 (urdfdom also reads an <axis> without xyz so): MuJoCo refuses '
        'the robot ("axis too small"), KDL (robot_state_publisher) '
        'publishes NaN transforms for it', joint.axis_line,
        'write the unit axis the joint moves along, e.g. <axis xyz="0 0 1"/>')


def check_joint(ctx: CheckContext, joint: Joint) -> Iterator[Finding]:
    """Check one joint's limits, axis, mimic and numbers (lower == upper: see below)."""
    found: List[Optional[Finding]] = [_not_finite(ctx, joint), _axis(ctx, joint)]
    found.extend(_limits(ctx, joint))
    # (a <mimic> naming no joint: check_unknown_mimics, over the robot)
    yield from (finding for finding in found
                if finding is not None and finding.rule not in ALIKE_RULES)


def _meant_joint(ctx: CheckContext, name: str, follower: str) -> Optional[str]:
    """Return the joint a <mimic>'s unknown name most likely means, or None."""
    if not name.strip():
        return None  # joint="": every name ends with it, none is meant
    names = sorted(ctx.joint_names)
    for suffix in ('_joint', 'joint', '_jnt', '_j'):  # InMoov's 'r_index': r_index_joint
        if name + suffix in ctx.joint_names:
            return name + suffix
    # the prefix left out (Alex's hands: 'index_q1' for 'Left_index_q1'): the joint that
    # ends with the name and shares the most of the following joint's name
    ends = [known for known in names if known.endswith(name)]
    if ends:
        return max(ends, key=lambda known: (
            len(os.path.commonprefix([known, follower])), -len(known)))
    # Bounded, as every other "did you mean" (red-team review 7: difflib over every joint for
    # each of 180 mimics of 4 KB names, 993 KB, took 235 s)
    key = ('joint suggester', None)
    if key not in ctx.memo:
        ctx.memo[key] = NameSuggester(names)
    return ctx.memo[key].suggest(name) or None  # type: ignore[union-attr]


def check_unknown_mimics(ctx: CheckContext) -> Iterator[Finding]:
    """
    Flag <mimic> elements naming joints that do not exist: per joint, or once from 3 on.

    InMoov's hand (sweep N): 12 mimics each naming a joint without its '_joint' suffix, 12
    warnings that said only "fix the joint name"; one finding now, with the names meant.
    """
    found = []
    for joint in ctx.robot.joints:
        mimic = joint.mimic
        if mimic is not None and mimic.joint not in ctx.joint_names:
            found.append((joint, mimic, _meant_joint(ctx, mimic.joint, joint.name)))
    effect = ('Pinocchio, MuJoCo and robot_state_publisher ignore the mimic, so the joint '
              'moves on its own')
    if len(found) < MODEL_WIDE_MIN:
        for joint, mimic, meant in found:
            yield _finding(
                ctx, joint, 'joint-mimic-unknown', Severity.WARNING,
                f"<mimic> names the joint '{mimic.joint}', which does not exist"
                + (f" (did you mean '{meant}'?)" if meant else '') + f': {effect}',
                mimic.line, f'write <mimic joint="{meant}" .../>' if meant else
                'fix the joint name in <mimic joint="..."/>')
        return
    names = tuple(joint.name for joint, _, _ in found)
    meant = list(dict.fromkeys(f"'{mimic.joint}' for '{guess}'"
                               for _, mimic, guess in found if guess))
    yield ctx.finding(
        'joint-mimic-unknown', Severity.WARNING,
        f'{len(found)} joints have a <mimic> naming a joint that does not exist '
        f'({listed(names)}): {effect}'
        + (f'; by their names, {first_names(meant, 4)}' if meant else ''),
        line=found[0][1].line,
        suggestion="write the existing joints' names in their <mimic joint=\"...\"/>"
                   + (' (the names above)' if meant else ''),
        values=(('count', len(found)), ('joints', listed(names))),
        links=tuple(dict.fromkeys(joint.child for joint, _, _ in found)))


def _at_their_positions(message: str) -> str:
    """Return a lower == upper message for joints locked at different positions."""
    return 'lower and upper are equal on each' + message[message.index(':'):] \
        if message.startswith('lower and upper are both') and ':' in message else message


#: Limit findings that one choice writes on many joints (a macro, an engine's idiom): said
#: once for the joints that share the rule, severity and values, from 3 on.
ALIKE_RULES = ('joint-range-zero', 'joint-range-inverted', 'joint-range-missing',
               'joint-limit-zero', 'joint-range-implausible', 'joint-limit-negative')


def check_alike_limits(ctx: CheckContext) -> Iterator[Finding]:
    """
    Flag limit findings per joint, or once for 3 or more joints alike.

    The same values on several joints are one choice: RealMan's RM75 with a hand (effort
    and velocity 0 on the arm's six joints), Bullet's ``lower="1" upper="0"`` for no limit
    (15 joints of one pendulum), ANYmal C's limits without lower and upper (12 joints),
    lower == upper as a locking convention. All of a robot's joints at 0 effort is
    robot-placeholder-limits.
    """
    alike: Dict[Tuple[object, ...], List[Tuple[Joint, Finding]]] = {}
    for joint in ctx.robot.joints:
        for finding in _limits(ctx, joint):
            if finding.rule in ALIKE_RULES:
                # (locked joints are one convention at any position)
                shared = () if finding.rule == 'joint-range-zero' else finding.values
                alike.setdefault((finding.rule, finding.severity, shared),
                                 []).append((joint, finding))
    moving = sum(1 for joint in ctx.robot.joints if joint.is_moving)
    for (rule, severity, values), members in alike.items():
        # From 3 on, or every moving joint of the robot (the double pendulum's two, both
        # lower = upper = 0: one exporter default, two warnings before; precision review X)
        if len(members) < MODEL_WIDE_MIN and not (2 <= len(members) == moving):
            yield from (finding for _, finding in members)
            continue
        names = tuple(joint.name for joint, _ in members)
        first = members[0][1]
        kinds = sorted({joint.type for joint, _ in members})
        # the first joint's message without its own name: what they share
        shared = (first.message.split(': ', 1)[1] if ': ' in first.message
                  else first.message).replace('the joint ', 'each joint ', 1)
        yield ctx.finding(
            rule, severity,
            f'{len(names)} {" and ".join(kinds)} joints ({listed(names)}): '
            + (shared if values else _at_their_positions(shared)),
            line=first.line, suggestion=first.suggestion,
            values=(('count', len(names)), ('joints', listed(names))) + values,
            links=tuple(dict.fromkeys(joint.child for joint, _ in members)))


CHECKS = (check_alike_limits, check_unknown_mimics)
JOINT_CHECKS = (check_joint,)
