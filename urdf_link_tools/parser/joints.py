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

"""Read ``<joint>`` elements; urdfdom's joint.cpp is the reference."""

from lxml import etree

from urdf_link_tools.model import IDENTITY, Joint, JOINT_TYPES, JointLimit, Mimic, Vector3
from urdf_link_tools.parser.context import Context, origin_of, scalar, vector

_UNKEPT_JOINT_NUMBERS = {
    'dynamics': ('damping', 'friction'), 'calibration': ('rising', 'falling'),
    'safety_controller': ('soft_lower_limit', 'soft_upper_limit', 'k_position', 'k_velocity')}


def _required(ctx: Context, element: etree._Element, attr: str, what: str) -> str:
    value = element.get(attr)
    if value is None or not value.strip():
        raise ctx.error(element, None, f'the {attr} attribute is required ({what})')
    return value


def joint_of(ctx: Context, element: etree._Element) -> Joint:
    """Read a ``<joint>``."""
    name = _required(ctx, element, 'name', 'the joint name')
    jtype = _required(ctx, element, 'type', 'one of ' + ', '.join(sorted(JOINT_TYPES)))
    if jtype not in JOINT_TYPES:
        raise ctx.error(element, 'type', f"joint '{name}' has unknown type; use one of "
                        + ', '.join(sorted(JOINT_TYPES)))
    parent = child = None
    origin = IDENTITY
    axis: Vector3 = (1.0, 0.0, 0.0)
    limit = None
    mimic = None
    for sub in element:
        tag = sub.tag
        if tag == 'parent':
            parent = _required(ctx, sub, 'link', f"the parent link of joint '{name}'")
        elif tag == 'child':
            child = _required(ctx, sub, 'link', f"the child link of joint '{name}'")
        elif tag == 'origin':
            origin = origin_of(ctx, sub)
        elif tag == 'axis':
            axis = vector(ctx, sub, 'xyz', 3, (1.0, 0.0, 0.0))  # type: ignore[assignment]
        elif tag == 'limit':
            limit = JointLimit(
                lower=scalar(ctx, sub, 'lower', 0.0), upper=scalar(ctx, sub, 'upper', 0.0),
                effort=scalar(ctx, sub, 'effort', 0.0),
                velocity=scalar(ctx, sub, 'velocity', 0.0), line=sub.sourceline)
        elif tag == 'mimic':
            mimic = Mimic(joint=_required(ctx, sub, 'joint', 'the mimicked joint'),
                          multiplier=scalar(ctx, sub, 'multiplier', 1.0),
                          offset=scalar(ctx, sub, 'offset', 0.0), line=sub.sourceline)
        elif tag in _UNKEPT_JOINT_NUMBERS:
            # Not in the model, but urdfdom refuses the robot when one is not a number.
            for attr in _UNKEPT_JOINT_NUMBERS[tag]:
                if sub.get(attr) is not None:
                    scalar(ctx, sub, attr)
    if parent is None:
        raise ctx.error(element, None, f"joint '{name}' needs a <parent link=\"...\"/>")
    if child is None:
        raise ctx.error(element, None, f"joint '{name}' needs a <child link=\"...\"/>")
    return Joint(name=name, type=jtype, parent=parent, child=child, origin=origin,
                 axis=axis, limit=limit, mimic=mimic, line=element.sourceline)
