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
Read ``<joint>`` elements; urdfdom's joint.cpp is the reference.

What urdfdom refuses becomes an ERROR finding and the joint is kept with the fallback the
finding names, so that the rest of the robot is checked; only a joint without a name, a
parent or a child is left out (there is nothing to attach).
"""

from __future__ import annotations

import dataclasses
from typing import Dict, List, Optional

from lxml import etree

from urdf_link_tools.findings import Severity
from urdf_link_tools.model import (
    IDENTITY, Joint, JOINT_TYPES, JointCalibration, JointDynamics, JointLimit, Mimic,
    SafetyController, Vector3, ZERO3)
from urdf_link_tools.parser.context import (
    Context, near_miss, optional_scalar, origin_of, pick, quote, scalar, vector)

_PARTS = ('parent', 'child', 'origin', 'axis', 'limit', 'mimic', 'dynamics', 'calibration',
          'safety_controller')
_TYPES = ', '.join(sorted(JOINT_TYPES))


def _required(ctx: Context, element: etree._Element, attr: str, what: str) -> str:
    value = element.get(attr)
    if value is None or not value.strip():
        raise ctx.error(element, None, f'the {attr} attribute is required ({what})')
    return value


def _refuse(ctx: Context, element: etree._Element, problem: str, fallback: str) -> None:
    ctx.refused(ctx.error(element, None, problem), fallback)


def _limit(ctx: Context, element: etree._Element, name: str) -> JointLimit:
    unreadable: List[str] = []
    values = {attr: optional_scalar(ctx, element, attr, unreadable)
              for attr in ('lower', 'upper', 'effort', 'velocity')}
    missing = [attr for attr in ('effort', 'velocity')
               if element.get(attr) is None]
    if missing:
        # A slip of the name (velocty="1") is no attribute to urdfdom either: named, it is
        # the fix.
        slips = [f'{slip}="{quote(element.get(slip))}": did you mean {attr}?'
                 for attr in missing for slip in element.keys() if near_miss(slip, (attr,))]
        _refuse(ctx, element, f"joint '{name}': the <limit> has no "
                f'{" and no ".join(missing)} attribute (urdfdom requires both)'
                + (f' (it has {"; ".join(slips)})' if slips else ''),
                f'without {" and ".join(missing)} limits')
    return JointLimit(line=element.sourceline, unreadable=tuple(unreadable), **values)


def _mimic(ctx: Context, element: etree._Element, name: str) -> Optional[Mimic]:
    leader = element.get('joint')
    if leader is None:
        _refuse(ctx, element, f"joint '{name}': the <mimic> has no joint attribute",
                'without this <mimic>')
        return None
    multiplier = ctx.attempt(lambda: scalar(ctx, element, 'multiplier', 1.0), 1.0,
                             'with multiplier 1')
    offset = ctx.attempt(lambda: scalar(ctx, element, 'offset', 0.0), 0.0, 'with offset 0')
    return Mimic(joint=leader, multiplier=multiplier, offset=offset, line=element.sourceline)


def _dynamics(ctx: Context, element: etree._Element, name: str) -> JointDynamics:
    unreadable: List[str] = []
    damping = optional_scalar(ctx, element, 'damping', unreadable)
    friction = optional_scalar(ctx, element, 'friction', unreadable)
    if element.get('damping') is None and element.get('friction') is None:
        _refuse(ctx, element, f"joint '{name}': the <dynamics> has neither damping nor "
                'friction', 'with damping and friction 0')
    return JointDynamics(damping=damping, friction=friction, line=element.sourceline)


def _calibration(ctx: Context, element: etree._Element) -> JointCalibration:
    unreadable: List[str] = []
    return JointCalibration(rising=optional_scalar(ctx, element, 'rising', unreadable),
                            falling=optional_scalar(ctx, element, 'falling', unreadable),
                            line=element.sourceline)


def _safety(ctx: Context, element: etree._Element, name: str) -> SafetyController:
    unreadable: List[str] = []
    values = {attr: optional_scalar(ctx, element, attr, unreadable) for attr in (
        'soft_lower_limit', 'soft_upper_limit', 'k_position', 'k_velocity')}
    if element.get('k_velocity') is None:
        _refuse(ctx, element, f"joint '{name}': the <safety_controller> has no k_velocity "
                'attribute (urdfdom requires it)', 'without k_velocity')
    return SafetyController(line=element.sourceline, **values)


def joint_of(ctx: Context, element: etree._Element) -> Joint:
    """
    Read a ``<joint>``.

    :raises ElementError: for a joint without a name, a parent or a child link
    """
    name = _required(ctx, element, 'name', 'the joint name')
    first_note = len(ctx.notes)
    parts = pick(element, _PARTS, ctx)
    links = []
    for role in ('parent', 'child'):
        sub = parts.get(role)
        if sub is None:
            raise ctx.error(element, None, f"joint '{name}' needs a <{role} link=\"...\"/>")
        links.append(_required(ctx, sub, 'link', f"the {role} link of joint '{name}'"))
    joint = _joint(ctx, element, name, parts, links[0], links[1])
    # A joint's findings belong to the link it places, as the structure rules have it.
    for index in range(first_note, len(ctx.notes)):
        if ctx.notes[index].link is None:
            ctx.notes[index] = dataclasses.replace(ctx.notes[index], link=joint.child)
    return joint


def _joint(ctx: Context, element: etree._Element, name: str,
           parts: Dict[str, etree._Element], parent: str, child: str) -> Joint:
    jtype = element.get('type')
    if jtype is None or jtype not in JOINT_TYPES:
        problem = 'has no type attribute' if jtype is None else 'has an unknown type'
        ctx.refused(ctx.error(element, 'type', f"joint '{name}' {problem}; use one of {_TYPES}",
                              'parse-invalid-joint-type'), 'as a fixed joint')
        jtype = 'fixed'
    origin = IDENTITY if 'origin' not in parts else origin_of(ctx, parts['origin'])
    axis: Vector3 = (1.0, 0.0, 0.0)
    axis_el = parts.get('axis')
    if axis_el is not None:
        # urdfdom clears the axis to 0 0 0 and reads xyz only when it is there (and only
        # for moving joints; the model keeps what the file says for all). MuJoCo reads the
        # axis of every joint, and refuses a malformed one on a fixed joint too.
        if jtype in ('fixed', 'floating'):
            ctx.engine_also = ('mujoco', f'urdfdom does not read the axis of a {jtype} joint, '
                                         'but MuJoCo refuses the robot', Severity.INFO)
        # An <axis> without xyz: 0 0 0 in urdfdom (joint-axis-zero on a moving joint); MuJoCo
        # requires the attribute on every joint (Pioneer 3-DX's <axis xzy="0 0 1"/> on a
        # fixed joint: "XML Error: required attribute missing: 'xyz'").
        default = None if jtype in ('fixed', 'floating') else ZERO3
        try:
            axis = ctx.attempt(lambda: vector(ctx, axis_el, 'xyz', 3, default),  # type: ignore
                               (1.0, 0.0, 0.0), 'with the axis 1 0 0')
        finally:
            ctx.engine_also = None
    limit = None if 'limit' not in parts else _limit(ctx, parts['limit'], name)
    mimic = None if 'mimic' not in parts else _mimic(ctx, parts['mimic'], name)
    dynamics = None if 'dynamics' not in parts else _dynamics(ctx, parts['dynamics'], name)
    calibration = None
    if 'calibration' in parts:
        calibration = _calibration(ctx, parts['calibration'])
    safety = None
    if 'safety_controller' in parts:
        safety = _safety(ctx, parts['safety_controller'], name)
    return Joint(name=name, type=jtype, parent=parent, child=child, origin=origin,
                 axis=axis, limit=limit, mimic=mimic, line=element.sourceline,
                 axis_line=None if axis_el is None else axis_el.sourceline,
                 dynamics=dynamics, calibration=calibration, safety=safety)
