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
Rules about a link's mass and inertia tensor on their own (no geometry involved).

Validity follows gz-math's ``MassMatrix3`` (so "valid" agrees with Gazebo); what RViz and
MuJoCo additionally refuse is reported as separate rules. See
:mod:`urdf_link_tools.inertia` for the sources.
"""

from __future__ import annotations

import math
import re
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from urdf_link_tools.checks.base import (CheckContext, fmt, fmt_inertia, fmt_vector, fmt_written,
                                         Rule)
from urdf_link_tools.checks.model_wide import (grouped, grouped_by_value, model_choices,
                                               MODEL_WIDE_MIN)
from urdf_link_tools.checks.suggest import geometry_tensor, problem, suggest
from urdf_link_tools.findings import Finding, INERTIA_NAMES, listed, Severity
from urdf_link_tools.geometry import is_finite, rpy_to_matrix
from urdf_link_tools.inertia import (
    flip_products, gz_epsilon, gz_valid_moments, inertia_values, is_zero_tensor, MUJOCO_EPS,
    MUJOCO_MINVAL, nearest_triangle_moments, principal_moments, rotate_inertia,
    ROUNDING_PRODUCTS, roundoff_zero, tensor_from_principal, TensorProperties, tidy,
    triangle_margin, violates_triangle)
from urdf_link_tools.kinematics import unit_axis
from urdf_link_tools.model import Inertia, Link
from urdf_link_tools.targets import severity_for

GZ = 'gz-math MassMatrix3.hh (IsValid, IsPositive, ValidMoments, Epsilon)'
RVIZ = 'rviz_default_plugins robot_link.cpp (RobotLink::createInertia)'
MUJOCO = 'MuJoCo user_objects.cc (mjCBody::Compile), user_util.cc (mjuu_fullInertia)'
MUJOCO_MODEL = 'MuJoCo user_model.cc (CheckBodyMassInertia)'
SDF = 'sdformat parser_urdf.cc (urdf2sdf)'

#: the rule of a moving link's tiny mass
TINY = 'mass-tiny-on-moving-link'
#: the rule of a mass or centre of mass no part has, and its bounds (kg, m)
OUT_OF_RANGE = 'inertial-out-of-range'
MASS_MAX = 1e5
COM_OFFSET_MAX = 1e3

RULES = (
    Rule('mass-not-finite', Severity.ERROR, 'the mass is NaN or infinite',
         'every simulator propagates it into NaN accelerations for the whole robot',
         'write the real mass in kg', 'URDF link specification'),
    Rule('inertia-not-finite', Severity.ERROR, 'an inertia entry is NaN or infinite',
         'the tensor cannot be used by any dynamics engine',
         'write the six entries in kg m^2 (compute them from the geometry)',
         'URDF link specification'),
    Rule(OUT_OF_RANGE, Severity.ERROR,
         "a mass above 100,000 kg or a centre of mass more than 1 km from its link's origin: "
         'no robot part has either (the heaviest robots weigh about 10 t in all)',
         "a broken export (UBTECH Walker's palm: 3.1e21 kg, its centre of mass 2.7e13 m "
         "away): simulators move a moon-mass body, the robot's mass and centre of mass are "
         "meaningless; the link's tensor is not judged (no fix of it stands)",
         "write the part's real mass properties (export them again)",
         'this tool (physical bounds)'),
    Rule('mass-not-positive', Severity.ERROR,
         'a negative mass, or no mass on a moving link whose fused body (with the links '
         'welded below it) has no mass and inertia',
         'Gazebo leaves such a link and its parent joint out of the model ("not modeled in '
         'sdf"); MuJoCo refuses to compile ("mass and inertia of moving bodies must be larger '
         'than mjMINVAL"). Massless frames on fixed joints or at the root are normal URDF: '
         'silent, or an info when they have collision geometry and their whole body has no '
         'mass. 3 or more links that move without mass (a hand modelled without mass) are '
         'one finding listing them',
         'add an <inertial> with the real mass, or make the link a pure frame',
         f'{SDF}; {MUJOCO_MODEL}'),
    Rule('mass-tiny-on-moving-link', Severity.WARNING,
         'a moving link lighter than min_mass (1e-6 kg by default); 3 or more links of the '
         'same tiny mass are one finding',
         'the joint-space mass matrix becomes ill-conditioned; below mjMINVAL (1e-15) MuJoCo '
         'refuses the model (then the severity is error)',
         'use the real mass, or make the link a fixed frame', MUJOCO_MODEL),
    Rule('inertia-not-positive-definite', Severity.ERROR,
         "the tensor fails Sylvester's criterion (products included): it has a negative "
         'principal moment',
         'Gazebo refuses the link (MassMatrix3::IsValid is false), MuJoCo refuses the model, '
         'RViz reports "unrealistic inertia"',
         'recompute the tensor; the suggestion is derived from the collision geometry when '
         'there is one', f'{GZ}; {MUJOCO}'),
    Rule('inertia-moment-tiny', Severity.ERROR,
         "a principal moment is below MuJoCo's floor (1e-14 kg m^2), or the tensor is all "
         'zero (a point mass) on a moving or floating root link whose fused body has no '
         'inertia, or zero but for round-off (every entry under the mass times (1 um)^2, '
         'not a valid tensor: said as a zero tensor, not as a negative moment)',
         'MuJoCo refuses a non-zero tensor with an eigenvalue below mjEPS ("inertia must have '
         'positive eigenvalues"), on any link, and a moving body (a floating base with its '
         'free joint) whose fused mass or inertia is below mjMINVAL; it fuses links welded '
         'by fixed joints first, so a point mass welded to a body, or a moving point mass '
         'whose welded child has inertia, compiles and gets no finding; round-off products '
         'make it a fullinertia whose negative eigenvalue MuJoCo refuses before fusing, '
         'welded or not. The severity follows '
         'the targets: an error for MuJoCo (and for Gazebo when A + B falls short of C '
         'beyond its tolerance), an info for RViz (no inertia box), silent for the others',
         'give every principal moment a physical value (a thin rod still has m r^2 / 2 about '
         'its axis)', f'{MUJOCO}; {MUJOCO_MODEL}'),
    Rule('inertia-triangle-inequality', Severity.ERROR,
         'the principal moments break A + B >= C (not by rounding alone with the smallest '
         "below MuJoCo's floor, a rod's tensor: inertia-moment-tiny says that)",
         'no rigid body has such moments; Gazebo (within its tolerance) and MuJoCo (with '
         'none: "inertia must satisfy A + B >= C") refuse it. A warning for a link welded '
         'to a body whose combined tensor is valid when MuJoCo (which refuses the link '
         'before fusing it) is not a target: Gazebo, KDL and Pinocchio take the combined '
         'body. One finding for 3 or more links sharing the tensor, for 3 or more whose '
         "largest moment is about their joints' axes (rotor inertia), and, in a URDF file, "
         'for two thirds of the links or more each with one moment over twice the other two '
         '(one moment raised)',
         'use the suggested tensor: the nearest one that satisfies A + B >= C, same axes',
         f'{GZ}; {MUJOCO}'),
    Rule('inertia-unrepresentable-box', Severity.WARNING,
         'RViz cannot draw the equivalent inertia box though Gazebo accepts the tensor (an '
         'error with the mujoco target when the tensor is diagonal and two of its moments '
         'sum below the third in floating point, which MuJoCo refuses)',
         'RViz needs strictly positive leading minors and real box sizes; it logs "has '
         'unrealistic inertia" (moving links) or draws nothing. MuJoCo, which has no '
         'tolerance, may refuse a tensor that is on the triangle boundary',
         'use the suggested tensor (moved just inside the valid region)', RVIZ),
    Rule('root-link-inertia', Severity.INFO,
         'the root link has an <inertial>',
         'KDL (robot_state_publisher, MoveIt\'s KDL plugins) ignores it and warns "KDL does '
         'not support a root link with an inertia". A claim about KDL only: made with the kdl '
         'target, silent for the others (a floating base carries its mass there on purpose) '
         'and for a robot of one link (a prop)',
         'add a dummy root link without inertial (e.g. base_footprint) joined to this link '
         'by a fixed joint; note that Gazebo then lumps this link into the dummy',
         'kdl_parser kdl_parser.cpp (treeFromUrdfModel)'),
    Rule('inertial-origin-rotated', Severity.INFO,
         'the <inertial><origin> has a non-zero rpy that changes the tensor (by more than '
         "0.1 % of its largest entry: not a sphere's tensor, nor a half turn of a diagonal "
         'one)',
         'importers have mishandled the inertial frame: MuJoCo 3.3.7 to 3.12 dropped its '
         'rotation (MuJoCo issue 3559, fixed; 4.0 honours it), Genesis discarded the tensor '
         'when the origin was omitted (Genesis issue 3183, fixed), so a tensor written in the '
         'link frame is the portable form',
         'write the tensor in the link frame with rpy="0 0 0" (the equivalent tensor is '
         'given; from 3 links on, one note for the robot with the first link as the example)',
         'MuJoCo issue 3559; Genesis issue 3183'),
)


def check_link(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    """Run every mass and inertia rule on one link."""
    # A kinematics model (no link has mass) is reported once by robot-kinematics-only;
    # 3 or more massless links that move, once by check_massless_moving.
    if not model_choices(ctx).massless:
        together = _massless_moving(ctx)[1] | _massless_bodies(ctx)[1] | _mass_groups(ctx)[2][1]
        yield from (finding for finding in _check_mass(ctx, link)
                    if link.name not in together or not (
                        _moves_without_mass(finding) or _static_without_mass(finding)
                        or finding.rule == TINY))
    if link.inertial is not None and _out_of_range(link):
        yield _out_of_range_finding(ctx, link)
        return  # (its tensor follows a mass no part has: no fix of it stands)
    if link.inertial is not None:
        # Those reported with their copies (check_copied_tensors) are left out; a second
        # link of the same name was not grouped (findings name links), so it keeps its own.
        copies = _copies(ctx) if ctx.robot.link(link.name) is link else frozenset()
        yield from (finding for finding in _tensor_findings(ctx, link)
                    if (link.name, finding.rule) not in copies)
        roots = ctx.root_names
        # (a robot of one link, a prop for a simulator, has no tree for KDL to compute on:
        # Bullet's and Genesis's spheres, cubes and trays drew it by the dozen)
        if link.name in roots and len(roots) == 1 and ctx.robot.joints:
            severity = severity_for(ctx.config.targets, {'kdl': Severity.INFO})
            if severity is not None:
                yield _root_inertia(ctx, link, severity)


def _out_of_range(link: Link) -> bool:
    """Return True for a finite mass or centre of mass no robot part has."""
    inertial = link.inertial
    if inertial is None:
        return False
    offset = _com_offset(link)
    return (math.isfinite(inertial.mass) and inertial.mass > MASS_MAX) or \
        (math.isfinite(offset) and offset > COM_OFFSET_MAX)


def _com_offset(link: Link) -> float:
    """Return how far (m) a link's centre of mass lies from its origin (hypot: no overflow)."""
    return math.hypot(*(float(v) for v in link.inertial.origin.xyz))  # type: ignore[union-attr]


def _out_of_range_finding(ctx: CheckContext, link: Link) -> Finding:
    inertial = link.inertial
    offset = _com_offset(link)
    said = []
    if inertial.mass > MASS_MAX:  # type: ignore[union-attr]
        said.append(f'a mass of {fmt(inertial.mass)} kg')  # type: ignore[union-attr]
    if offset > COM_OFFSET_MAX:
        said.append(f"its centre of mass {fmt(offset)} m from the link's origin")
    return ctx.finding(
        OUT_OF_RANGE, Severity.ERROR,
        f"{' and '.join(said)}: no robot part has that (a broken export?); simulators move "
        "it as written, and the robot's mass and centre of mass mean nothing; its tensor is "
        'not judged',
        link=link.name, element='inertial', line=inertial.line,  # type: ignore[union-attr]
        suggestion="write the part's real mass, centre of mass and tensor (export them "
                   'again); --fix-inertia leaves the link as it is',
        values=(('mass', inertial.mass), ('com_offset_m', offset)))  # type: ignore


def _root_inertia(ctx: CheckContext, link: Link, severity: Severity) -> Finding:
    # KDL warns of any <inertial> on the root, even of mass 0 (NASA's M2020 'ground'): one
    # that carries nothing is removed, not moved.
    suggestion = ('remove the <inertial> (of mass 0, it carries nothing; KDL warns of the '
                  'element)' if link.mass == 0.0 else
                  f'add <link name="{link.name}_root"/> and a fixed joint from it to '
                  f"'{link.name}' so that '{link.name}' is no longer the root (not for "
                  'Bullet: it gives a link without <inertial> 1 kg and a unit tensor, a '
                  'phantom part on a floating base; there, leave the root as it is)')
    return ctx.finding(
        'root-link-inertia', severity,
        f"the root link '{link.name}' has an <inertial> (mass {fmt(link.mass)} kg): KDL "
        'ignores the inertia of the root link and warns about it',
        link=link.name, element='inertial', line=link.inertial.line, suggestion=suggestion,
        values=(('mass', link.mass),))


def _check_mass(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    mass = link.mass
    if 0.0 < mass < math.inf and mass >= ctx.config.min_mass:
        return  # positive, finite and not tiny: no mass rule applies
    inertial = link.inertial
    moving = ctx.is_moving(link.name)
    joint = ctx.robot.parent_joint(link.name)
    line = inertial.mass_line if inertial is not None else link.line
    element = 'inertial/mass' if inertial is not None else None
    if inertial is not None and not math.isfinite(inertial.mass):
        yield ctx.finding(
            'mass-not-finite', Severity.ERROR,
            f'the mass is {inertial.mass}, not a finite number',
            link=link.name, element=element, line=line,
            suggestion='write the real mass in kg', values=(('mass', str(inertial.mass)),))
        return
    has_collision = any(element.geometry is not None for element in link.collisions)
    if mass < 0.0:
        yield ctx.finding(
            'mass-not-positive', Severity.ERROR,
            f'the mass is negative ({fmt(mass)} kg)', link=link.name, element=element,
            line=line, suggestion=f'write the real mass; did you mean {fmt(-mass)} kg?',
            values=(('mass', mass),))
        return
    if mass == 0.0 and moving:
        what = 'has no <inertial>' if inertial is None else 'has a mass of 0 kg'
        fused = ctx.fused(link.name)
        if fused.has_inertia(MUJOCO_MINVAL):
            return  # a welded child carries mass and inertia: MuJoCo and Gazebo lump it
        hint = 'add <inertial> with the real mass and inertia of the part'
        if has_collision:
            hint += ' (the collision geometry gives a starting point)'
        # MuJoCo infers the mass and inertia of a body without <inertial> from its collision
        # geometry (inertiafromgeom="auto"), so it refuses only a body with none to infer
        # from, or an explicit mass of 0 (test_checks_mujoco_claims.py).
        infers = inertial is None and ctx.group_has_collision(link.name)
        # Claims about Gazebo and MuJoCo: silent when neither is a target (RViz, MoveIt and
        # KDL's robot_state_publisher need no mass).
        selected = ctx.config.targets
        if fused.mass <= 0.0:
            effects = {'gazebo': 'Gazebo leaves the link and its joint out of the model'}
            if not infers:
                effects['mujoco'] = 'MuJoCo refuses to compile'
            refusing = dict.fromkeys(effects, Severity.ERROR)
            consequence = ' and '.join(text for target, text in effects.items()
                                       if target in selected)
        else:
            refusing = {'mujoco': Severity.ERROR}
            consequence = (f'the links welded to it weigh {fmt(fused.mass)} kg but have no '
                           'rotational inertia, so MuJoCo refuses to compile')
        severity = severity_for(selected, refusing)
        if severity is None:
            return
        yield ctx.finding(
            'mass-not-positive', severity,
            f"{what} but moves (joint '{joint.name}', {joint.type}): {consequence}",
            link=link.name, element=element, line=line,
            suggestion=hint, values=(('mass', mass), ('parent_joint', joint.name),
                                     ('joint_type', joint.type)))
        return
    if mass == 0.0 and has_collision and ctx.lumped_mass(ctx.weld_top(link.name)) <= 0.0:
        # A fixed or root link without mass is normal URDF when the body it is welded to
        # carries the mass; only a collision shape on a body with no mass at all is noted.
        where = f"fixed joint '{joint.name}'" if joint is not None else 'the root'
        yield ctx.finding(
            'mass-not-positive', Severity.INFO,
            f'has collision geometry but no mass, and neither has the body it is welded to '
            f'(on {where}): fine for a base fixed to the world, a massless body otherwise',
            link=link.name, element=element, line=line,
            suggestion='add <inertial> with the mass of the part if the base is not fixed '
                       'to the world',
            values=(('mass', mass),))
        return
    if moving and 0.0 < mass < ctx.config.min_mass:
        refused = not ctx.fused(link.name).has_inertia(MUJOCO_MINVAL)
        yield ctx.finding(
            TINY, Severity.ERROR if refused else Severity.WARNING,
            f"the mass is {fmt(mass)} kg on a moving link (joint '{joint.name}'), below the "
            f'plausible minimum of {fmt(ctx.config.min_mass)} kg'
            + ('; MuJoCo refuses a moving body below mjMINVAL (1e-15) in mass or inertia'
               if refused else ''),
            link=link.name, element=element, line=line,
            suggestion='use the real mass of the part (a dummy link should be a fixed '
                       'frame without <inertial>)',
            values=(('mass', mass), ('min_mass', ctx.config.min_mass)))


#: The suggestion when negating ixy, ixz and iyz makes the tensor valid.
_FLIPPED = ('the CAD export probably used the positive product-of-inertia convention (URDF '
            'uses the negative one, Ixy = -integral of x y dm): negate the products: ')


def _nearest_valid(tensor: TensorProperties) -> np.ndarray:
    """Clip the moments to a small positive floor, then restore the triangle inequality."""
    moments, axes = tensor.principal
    scale = max(float(np.max(np.abs(moments))), 1e-12)
    clipped = np.maximum(moments, 1e-3 * scale)
    return tensor_from_principal(nearest_triangle_moments(clipped), axes)


def _zero_tensor(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    """
    Report a zero tensor (a point mass) where an engine refuses it.

    All zero: MuJoCo refuses it on a moving body no welded link adds inertia to. Zero but
    for round-off (:func:`_zero_but_round_off`): MuJoCo reads products as a ``fullinertia``
    and refuses its negative eigenvalue before it fuses welded links (iCub's ankles, the
    cross-check of test_checks_mujoco_crosscheck), and gz-math refuses a negative moment of
    a body it does not lump into a valid one.
    """
    inertia = link.inertial.inertia
    values = inertia.as_tuple()
    largest = roundoff_zero(values, link.mass)
    joint = ctx.robot.parent_joint(link.name)
    moving = joint is None or joint.is_moving
    alone = moving and not ctx.fused(link.name).has_inertia(MUJOCO_MINVAL)
    targets = ctx.config.targets
    refused = []
    if 'gazebo' in targets and largest and \
            not ctx.tensor(link).gz_is_valid(link.mass) and not _lumped_valid(ctx, link):
        refused.append('Gazebo')
    if 'mujoco' in targets and (alone or (largest and (
            any(values[index] for index in (1, 2, 4))
            or min(values[index] for index in (0, 3, 5)) < 0.0))):
        refused.append('MuJoCo')
    if not refused:
        return  # welded (fused into the body above) or given inertia by a welded child
    tensor, text = suggest(ctx, link, None, 'the declared tensor')
    engines = ' and '.join(refused) + (' refuse' if len(refused) > 1 else ' refuses')
    if not alone:
        how = ', welded' if not moving else ', given inertia by a welded link'
        where = (f'{how}: '
                 f'{engines} it even so (MuJoCo reads the round-off as a tensor with a '
                 'negative eigenvalue before fusing welded links)'
                 if 'MuJoCo' in refused else f'{engines} its negative moment')
    elif joint is not None:
        where = (f"on a moving link (joint '{joint.name}'), and no link welded to it adds "
                 f'inertia: {engines} it')
    else:
        where = (f'on the root link, and no link welded to it adds inertia: {engines} it'
                 + (' as a floating base (a free joint, as for legged and mobile robots), '
                    'and accepts it welded to the world' if refused == ['MuJoCo']
                    else ''))
    zero = 'all zero' if not largest else (
        f'zero but for round-off (its largest entry, {fmt(largest)} kg m^2, is a radius of '
        f'gyration of {fmt(math.sqrt(largest / link.mass))} m)')
    yield ctx.finding(
        'inertia-moment-tiny', Severity.ERROR,
        f'the inertia tensor is {zero}: a point mass of {fmt(link.mass)} kg'
        + ('' if where.startswith(',') else ' ') + where
        + (' (MuJoCo: "mass and inertia of moving bodies must be larger than mjMINVAL" or '
           '"inertia must have positive eigenvalues")' if 'MuJoCo' in refused else ''),
        link=link.name, element='inertial/inertia', line=inertia.line,
        suggestion=text, values=(('mass', link.mass),),
        suggested_inertia=inertia_values(tensor) if tensor is not None else None)


def _zero_but_round_off(ctx: CheckContext, link: Link) -> bool:
    """
    Return True for a tensor no body has whose entries are all round-off of 0.

    Below a micrometre's radius of gyration (:func:`.inertia.roundoff_zero`) and not a valid
    tensor (iCub's ``ixx="-5.42101e-20"``): a zero tensor. A valid one that small is what
    it says (Unitree B2's cameras: a sphere of a micrometre, 4.19e-15 kg), judged as such.
    """
    inertial = link.inertial
    if inertial is None or not roundoff_zero(inertial.inertia.as_tuple(), link.mass):
        return False
    tensor = ctx.tensor(link)
    return not tensor.is_positive_definite() or violates_triangle(tensor.moments)


def _tensor_findings(ctx: CheckContext, link: Link) -> Tuple[Finding, ...]:
    """Return the tensor rules' findings of a link, computed once per analysis."""
    key = ('tensor-findings', id(link))
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = tuple(_check_tensor(ctx, link))
    return found  # type: ignore[return-value]


def _copied(ctx: CheckContext) -> Dict[Tuple[object, ...], List[Finding]]:
    """
    Return the tensor findings shared by 3 or more links: (rule, the six numbers) -> findings.

    A link whose rules fail here (a bug of this tool) is left to :func:`check_link`, which
    reports the failure on that link.
    """
    key = ('copied-tensor-findings', None)
    found = ctx.memo.get(key)
    if found is None:
        groups: Dict[Tuple[object, ...], List[Finding]] = {}
        for link in ctx.robot.links:
            if link.inertial is None or ctx.robot.link(link.name) is not link:
                continue  # no tensor, or a duplicated name (only the first is checked)
            try:
                findings = _tensor_findings(ctx, link)
            except Exception:  # noqa: B902 (check_link reports it on the link)
                continue
            values = link.inertial.inertia.as_tuple()
            # Zero but for round-off (iCub: 1e-35 to 4e-18 on 2 kg links) is the zero tensor.
            shared = _ZERO if _zero_but_round_off(ctx, link) else _same_tensor(values)
            for finding in findings:
                groups.setdefault((finding.rule,) + shared, []).append(finding)
        found = {group: findings for group, findings in groups.items()
                 if len(findings) >= MODEL_WIDE_MIN}
        # Tensors of their own with a moment near 0 on 3 or more links (an exporter's rods,
        # (0, I, I), on a humanoid's 19 links): one choice too.
        near_zero = [finding for group, findings in groups.items()
                     if group[0] == 'inertia-moment-tiny' and group not in found
                     and any(group[1:]) for finding in findings]
        if len(near_zero) >= MODEL_WIDE_MIN:
            found[NEAR_ZERO] = near_zero
        # Tensors of their own whose largest moment, about each link's joint axis, breaks
        # A + B >= C on 3 or more links: a rotor's inertia folded in (TOCABI: 29 links).
        taken = {id(finding) for findings in found.values() for finding in findings}
        about_axis = [finding for group, findings in groups.items()
                      if group[0] == 'inertia-triangle-inequality'
                      for finding in findings if id(finding) not in taken
                      and _excess_about_axis(ctx, finding)]
        if len(about_axis) >= MODEL_WIDE_MIN and _axes_differ(ctx, about_axis):
            found[ABOUT_AXIS] = about_axis
        # Tensors of their own, each with one moment over twice the other two, on two thirds
        # of the links or more: one moment of each raised for the simulator (Rokae's Gazebo
        # URDFs: 0.2 to 1.75 kg m^2, 7 errors for one choice; sweep T)
        taken = {id(finding) for findings in found.values() for finding in findings}
        dominant = [finding for group, findings in groups.items()
                    if group[0] == 'inertia-triangle-inequality'
                    for finding in findings if id(finding) not in taken
                    and _one_moment_dominant(ctx, finding)]
        with_tensor = sum(1 for link in ctx.robot.links if link.inertial is not None)
        # (not for xacro: there each link's fix is the numbers its macro call passes, which
        # one finding for all cannot say)
        if len(dominant) >= MODEL_WIDE_MIN and 3 * len(dominant) >= 2 * with_tensor and \
                not (ctx.robot.source or '').endswith('.xacro'):
            found[ONE_MOMENT] = dominant
        ctx.memo[key] = found
    return found  # type: ignore[return-value]


_ZERO = (0.0,) * 6

#: _copied's key of the tensors of their own whose smallest moment is near 0
NEAR_ZERO = ('inertia-moment-tiny', 'near zero')
#: _copied's key of the tensors that break A + B >= C about their joint's axis
ABOUT_AXIS = ('inertia-triangle-inequality', 'about the joint axis')
#: _copied's key of the tensors with one moment over twice the other two, on most links
ONE_MOMENT = ('inertia-triangle-inequality', 'one moment raised')


def _one_moment_dominant(ctx: CheckContext, finding: Finding) -> bool:
    """Return True when a link's largest moment is more than twice the sum of the others."""
    link = ctx.robot.link(finding.link or '')
    if link is None or link.inertial is None:
        return False
    moments = sorted(ctx.tensor(link).moments)
    return moments[2] > 2.0 * (moments[0] + moments[1])


#: the cosine of the largest angle between the largest moment's axis and the joint's axis
_ON_AXIS = math.cos(math.radians(10.0))


def _excess_about_axis(ctx: CheckContext, finding: Finding) -> Optional[float]:
    """
    Return by how much a link's largest moment breaks A + B >= C when it lies on its joint axis.

    None unless the link turns on a revolute or continuous joint whose axis is within 10
    degrees of the principal axis of the largest moment (in the link frame). Kept in
    ctx.memo: the grouping asks first, the grouped finding's message again.
    """
    key = ('excess about axis', finding.link)
    if key not in ctx.memo:
        ctx.memo[key] = _measured_excess(ctx, finding)
    return ctx.memo[key]  # type: ignore[return-value]


def _measured_excess(ctx: CheckContext, finding: Finding) -> Optional[float]:
    """Return _excess_about_axis's value, measured."""
    link = ctx.robot.link(finding.link or '')
    joint = ctx.robot.parent_joint(finding.link or '')
    if link is None or link.inertial is None or joint is None or \
            joint.type not in ('revolute', 'continuous'):
        return None
    axis = unit_axis(joint)
    if axis is None:
        return None
    moments, axes = ctx.tensor(link).principal
    largest = rpy_to_matrix(link.inertial.origin.rpy) @ axes[:, 2]
    if abs(float(largest @ axis)) < _ON_AXIS:
        return None
    excess = float(moments[2] - moments[1] - moments[0])
    return excess if excess > 0.0 else None


def _axes_differ(ctx: CheckContext, findings: List[Finding]) -> bool:
    """
    Return True when the links' joint axes point two ways or more (in their link frames).

    An excess that follows each joint's axis as the axes change (TOCABI's hip roll, pitch
    and yaw) is the rotors'; one moment too big about the same axis on every link (izz on a
    chain of z joints: a default or a unit written for that moment) is not evidence of it.
    """
    axes = [unit_axis(joint) for finding in findings
            for joint in (ctx.robot.parent_joint(finding.link or ''),) if joint is not None]
    axes = [axis for axis in axes if axis is not None]
    return any(abs(float(axis @ axes[0])) < _ON_AXIS for axis in axes[1:])


def _about_axis(ctx: CheckContext, findings: List[Finding]) -> Finding:
    """Return the one finding of tensors whose largest moment, on the joint axis, is too big."""
    excess = [_excess_about_axis(ctx, finding) or 0.0 for finding in findings]
    links = tuple(dict.fromkeys(finding.link for finding in findings if finding.link))
    said = _refused(ctx, '{} refuse{} them', None, True).lstrip('; ')
    return ctx.finding(
        'inertia-triangle-inequality', max(finding.severity for finding in findings),
        f'{len(links)} links have tensors no rigid body has, each with its largest moment '
        'about the axis of its own joint, over the sum of the other two by '
        f'{fmt(min(excess))} to {fmt(max(excess))} kg m^2 ({listed(links)}): the inertia '
        "of a motor's rotor seen through its gear (armature) added to the link's tensor?"
        + (f' {said[0].upper()}{said[1:]}' if said else ''),
        element=findings[0].element, line=findings[0].line,
        suggestion="give each link the tensor of its rigid part (the CAD part's) and the "
                   "rotor's inertia to its joint: MuJoCo's <joint armature>, Drake's "
                   '<drake:rotor_inertia> with <drake:gear_ratio>; the nearest valid tensor '
                   '(lowering the largest moment, what --fix-inertia would write) drops that '
                   'inertia from the dynamics, so no tensor is suggested',
        values=(('count', len(links)), ('excess', f'{fmt(min(excess))} to {fmt(max(excess))}')),
        links=links)


#: kg: lighter than any part (a milligram; the smallest screws weigh 0.1 g): a frame's mass
FRAME_MASS = 1e-6


def _same_tensor(values: Tuple[float, ...]) -> Tuple[object, ...]:
    """
    Return what one tensor copied onto several links has in common, to 6 significant digits.

    A CAD exporter's placeholder on its zero-size links (Unitree B2's cameras: 1.68e-27 on
    the diagonal) carries products of rounding noise, different on each (-9.81e-45,
    1.84e-44): entries under 1e-9 of the largest count as 0. Other values are kept as they
    are (not finite, or all zero).
    """
    largest = max((abs(value) for value in values), default=0.0)
    if not (math.isfinite(largest) and largest > 0.0):
        return values
    return (float(f'{largest:.6g}'),) + tuple(
        float(f'{value / largest:.6g}') if abs(value) > 1e-9 * largest else 0.0
        for value in values)


def _copies(ctx: CheckContext) -> FrozenSet[Tuple[str, str]]:
    """Return (link, rule) of the tensor findings reported in a group."""
    key = ('copied-tensor-links', None)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = frozenset((finding.link, finding.rule)
                                          for findings in _copied(ctx).values()
                                          for finding in findings)
    return found  # type: ignore[return-value]


def check_copied_tensors(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report a tensor that breaks a rule on 3 or more links once, listing them.

    The same six numbers on every finger link (Allegro's fingers: one tensor breaking
    A + B >= C on three; to 6 digits, :func:`_same_tensor`) are one choice: one finding,
    each link's fix kept for --fix-inertia (``links_suggested_inertia``). So are tensors of
    their own with a moment near 0 (inertia-moment-tiny) on 3 or more links.
    """
    for group, findings in _copied(ctx).items():
        if group == ABOUT_AXIS:
            yield _about_axis(ctx, findings)
            continue
        if group == ONE_MOMENT:
            yield from grouped(ctx, findings, 'links declare tensors no rigid body has, each '
                                              'with one moment more than twice the sum of the '
                                              'other two: one moment of each raised (for a '
                                              "simulator's stability, or a rotor's inertia), "
                                              "not the parts' tensors", own_fixes=True)
            continue
        if group == NEAR_ZERO:
            yield from grouped(ctx, findings, 'links declare tensors whose smallest principal '
                                              "moment is near 0 (a line's, as an exporter writes "
                                              "a thin rod's: 0, I, I)", own_fixes=True)
            continue
        first = ctx.robot.link(findings[0].link or '')
        tensor = first.inertial.inertia.as_tuple()  # type: ignore[union-attr]
        if group[1:] == _ZERO and any(
                any(ctx.robot.link(finding.link or '').inertial.inertia.as_tuple())
                for finding in findings):
            yield from grouped(ctx, findings, 'links declare a zero tensor (every entry 0, or '
                                              'round-off under a micrometre radius of '
                                              'gyration)', own_fixes=True)
            continue
        yield from grouped(ctx, findings, f'links declare the same tensor '
                                          f'({fmt_inertia(tensor)})', own_fixes=True)


def _check_tensor(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    inertial = link.inertial
    inertia = inertial.inertia
    values = inertia.as_tuple()
    line = inertia.line
    element = 'inertial/inertia'
    if not is_finite(values):
        bad = [(name, str(value)) for name, value in
               zip(INERTIA_NAMES, values)
               if not math.isfinite(value)]
        yield ctx.finding(
            'inertia-not-finite', Severity.ERROR,
            'inertia entries are not finite numbers: '
            + ', '.join(f'{name}={value}' for name, value in bad),
            link=link.name, element=element, line=line,
            suggestion='write all six entries in kg m^2', values=tuple(bad))
        return
    mass = link.mass
    if not (math.isfinite(mass) and mass > 0.0):
        return  # the mass rules have said what matters
    tensor = ctx.tensor(link)
    matrix = tensor.matrix
    if is_zero_tensor(matrix) or _zero_but_round_off(ctx, link):
        yield from _zero_tensor(ctx, link)
        return
    # Most tensors pass every rule below: what only a finding needs (the axes, the flipped
    # tensor and whether it would do, the formatted values) is computed for findings only.
    moments = tensor.moments
    eps = tensor.tolerance
    minors = tensor.minors
    if not tensor.is_positive_definite() and (not tensor.gz_is_near_positive(mass)
                                              or moments[0] < -eps):
        flipped, flip_ok = _flipped(ctx, link, matrix)
        failing = [name for name, value in zip(('Ixx', 'Ixx*Iyy-Ixy^2', 'det'), minors)
                   if not value + eps > 0.0]
        suggestion, text = (flipped, _FLIPPED + fmt_inertia(inertia_values(flipped))) \
            if flip_ok else suggest(ctx, link, _nearest_valid(tensor), 'the nearest valid tensor')
        suggestion, text = _with_notes(ctx, link, flipped, flip_ok, suggestion, text)
        yield ctx.finding(
            'inertia-not-positive-definite', Severity.ERROR,
            f'the tensor is not positive definite: principal moments {fmt_vector(moments)} '
            f'(the smallest is negative); Sylvester minors Ixx={fmt(minors[0])}, '
            f'Ixx*Iyy-Ixy^2={fmt(minors[1])}, det={fmt(minors[2])}'
            + (f' ({", ".join(failing)} not > 0)' if failing else '')
            + _refused(ctx, '. {} refuse{} it', link),
            link=link.name, element=element, line=line, suggestion=text,
            values=_moment_values(moments, eps) + (('minors', fmt_vector(minors)),),
            suggested_inertia=inertia_values(suggestion) if suggestion is not None else None)
        return
    # A rod's tensor (0, I, I) sits on the triangle's boundary: a smallest moment below
    # MuJoCo's floor with A + B short of C by rounding alone (Stretch's arm tubes: 6e-19 kg
    # m^2, 5e-13 % of C) is a tiny moment, which is what MuJoCo says, not a broken triangle.
    breach = violates_triangle(moments)
    rounding = breach and moments[0] < MUJOCO_EPS and \
        -triangle_margin(moments) <= ROUNDING_PRODUCTS * float(moments[2])
    if breach and not rounding:
        flipped, flip_ok = _flipped(ctx, link, matrix)
        # Moments within the tensor's rounding are 0, not -3.262e-18 (Sawyer's right_hand).
        a, b, c = (0.0 if abs(value) <= eps else float(value) for value in moments)
        margin = triangle_margin(moments)
        if _copied_products(values):
            # ixx=iyy=izz=p with every product p: a diagonal placeholder, products copied.
            nearest, label = np.diag([values[0]] * 3), 'the moments as written, products 0'
        elif a == b == 0.0:
            # Only the largest moment was given (KUKA KR210 ultra: izz=31.24, ixx=iyy=0): the
            # nearest tensor cut it by a third; it is kept, the zeros raised to half of it.
            nearest, label = tensor_from_principal(np.array([c / 2.0, c / 2.0, c]),
                                                   tensor.principal[1]), (
                'the declared largest moment kept and the two zero ones raised to half of it '
                '(same principal axes)')
        else:
            # Tidied: rotating the moments back leaves products of 1e-23 next to moments of
            # 1e-6 (Petoi Nybble's thighs), noise --fix-inertia wrote into the file.
            nearest, label = tidy(tensor_from_principal(nearest_triangle_moments(moments),
                                                        tensor.principal[1])), \
                'the nearest valid tensor (same principal axes)'
        rounded = -margin <= TRIANGLE_ROUNDING * c
        if rounded and any(values[index] for index in (1, 2, 4)):
            # Missed by the rounding of the written digits (moveo's gripper halves, a
            # SolidWorks export of 5 digits: 1e-13 kg m^2, 1.2 ppm of C): the nearest tensor
            # moves each moment by about as much; a slipped decimal (ixx x10) or the flipped
            # products would change the part.
            suggestion, text = suggest(ctx, link, nearest, label)
            text = ('the moments miss A + B >= C by the rounding of the written digits alone '
                    '(a part nearly flat, or nearly a rod); ' + text)
        else:
            suggestion, text = (flipped, _FLIPPED + fmt_inertia(inertia_values(flipped))) \
                if flip_ok else suggest(ctx, link, nearest, label)
            suggestion, text = _with_notes(ctx, link, flipped, flip_ok, suggestion, text)
        if values[1] == values[2] == values[4] == 0.0 and rounded:
            # A thin plate or ring (C = A + B) written with its moments rounded (HSR's
            # bumpers: 0.001437 + 0.001437 < 0.002875): the largest moment lowered to the
            # sum is the fix, not a tensor from the geometry.
            index = max((3, 0, 5), key=lambda position: values[position])
            written = float(fmt(a + b, 12))
            if written > a + b:  # rounded up: over the sum again
                written = float(fmt((a + b) * (1.0 - 1e-11), 12))
            fixed = [values[0], values[3], values[5]]
            fixed[(0, 3, 5).index(index)] = written
            suggestion = np.diag(fixed)
            name = {0: 'ixx', 3: 'iyy', 5: 'izz'}[index]
            text = ('the moments miss A + B >= C by rounding alone (a thin plate or ring, '
                    f'where C = A + B): write {name}="{fmt(written, 12)}"')
        # Welded to a body whose combined tensor is valid, without MuJoCo (which refuses the
        # link before fusing it): Gazebo, KDL and Pinocchio take the combined body, RViz
        # draws no box for it. A wrong number still, not one an engine refuses (PR2's stereo
        # mounts with --target gazebo failed CI "though Gazebo lumps it ... valid").
        severity = Severity.WARNING if not _mujoco_refuses_breach(ctx) and \
            _lumped_valid(ctx, link) else Severity.ERROR
        yield ctx.finding(
            'inertia-triangle-inequality', severity,
            f'the principal moments {fmt(a)} + {fmt(b)} = {fmt(a + b)} < {fmt(c)}: they '
            f'break A + B >= C by {fmt(-margin)} kg m^2 ({fmt(-margin / c * 100, 3)} % of '
            'C)' + _copied_products(values)
            + '; no rigid body has them' + _refused(ctx, ', {} refuse{} them', link, True),
            link=link.name, element=element, line=line, suggestion=text,
            values=_moment_values(moments, eps) + (('margin', margin),),
            suggested_inertia=inertia_values(suggestion) if suggestion is not None else None)
        return
    if moments[0] < MUJOCO_EPS:
        # MuJoCo refuses it; RViz cannot draw its box; Gazebo only past its tolerance.
        selected = ctx.config.targets
        claims = {'mujoco': Severity.ERROR, 'rviz': Severity.INFO}
        if breach:
            claims['gazebo'] = Severity.ERROR
        severity = severity_for(selected, claims)
        if severity is None:
            return
        joint = ctx.robot.parent_joint(link.name)
        if mass < FRAME_MASS and joint is not None and not joint.is_moving:
            # Unitree B2's lidar and camera frames: 4.19e-15 kg, 1.68e-27 kg m^2, welded. No
            # part weighs that: a frame given an <inertial>, which nothing needs.
            suggestion, text = None, (
                f"its mass, {fmt(mass)} kg, is no part's: the link is a frame (a sensor's "
                'mount point): remove its <inertial> (on a fixed joint nothing is lost, and '
                "MuJoCo, Gazebo and KDL take it as a frame), or give the part's real mass "
                'and tensor')
        else:
            suggestion, text = suggest(ctx, link, _nearest_valid(tensor),
                                       'a tensor with a small positive moment')
        gazebo = ('Gazebo may refuse it too: A + B falls short of C by '
                  f'{fmt(-triangle_margin(moments))} kg m^2, a rounding error beyond its '
                  'tolerance' if breach else
                  'Gazebo accepts it within its tolerance')
        said = ', and '.join(
            (['MuJoCo refuses it ("inertia must have positive eigenvalues"), also on a fixed '
              'link'] if 'mujoco' in selected else [])
            + (['RViz cannot draw the inertia box'] if 'rviz' in selected else []))
        said = '; '.join(([said] if said else []) + ([gazebo] if 'gazebo' in selected else []))
        yield ctx.finding(
            'inertia-moment-tiny', severity,
            f'the smallest principal moment is {fmt(moments[0])} kg m^2 (moments '
            f'{fmt_vector(moments)}), '
            + ("below MuJoCo's floor of 1e-14" if 'mujoco' in selected else 'almost zero')
            + f': {said}',
            link=link.name, element=element, line=line, suggestion=text,
            values=_moment_values(moments, eps),
            suggested_inertia=inertia_values(suggestion) if suggestion is not None else None)
    elif not tensor.has_equivalent_box(mass) and gz_valid_moments(moments):
        fixed = tensor_from_principal(nearest_triangle_moments(moments), tensor.principal[1])
        suggestion, text = suggest(ctx, link, fixed, 'just inside the valid region')
        refused = _mujoco_refuses_breach(ctx) and _mujoco_refuses_diagonal(values)
        yield ctx.finding(
            'inertia-unrepresentable-box', Severity.ERROR if refused else Severity.WARNING,
            f'RViz cannot draw the inertia box: moments {fmt_vector(moments)} '
            f'(A + B - C = {fmt(triangle_margin(moments))}) are valid for Gazebo only within '
            'its tolerance; '
            + ('MuJoCo refuses them ("inertia must satisfy A + B >= C"): in floating point '
               'the two smaller moments add up to less than the largest' if refused else
               'MuJoCo, without tolerance, may refuse them'),
            link=link.name, element=element, line=line, suggestion=text,
            values=_moment_values(moments, eps),
            suggested_inertia=inertia_values(suggestion) if suggestion is not None else None)


def _mujoco_refuses_diagonal(values: Tuple[float, ...]) -> bool:
    """
    Return True for a diagonal tensor MuJoCo refuses: two moments sum below the third.

    MuJoCo takes a diagonal tensor's moments as written and compares their sums with no
    tolerance (RoverRobotics' Mega: 0.0545 + 0.1473 < 0.2018 by 2.8e-17 in floating point,
    "inertia must satisfy A + B >= C"). A tensor with products goes through its own
    eigen-decomposition, whose last bits no other computation predicts: 'may refuse'.
    """
    ixx, ixy, ixz, iyy, iyz, izz = values
    if ixy != 0.0 or ixz != 0.0 or iyz != 0.0:
        return False
    return ixx + iyy < izz or ixx + izz < iyy or iyy + izz < ixx


def _mujoco_refuses_breach(ctx: CheckContext) -> bool:
    """Return True when MuJoCo is a target and refuses moments that break A + B >= C."""
    return 'mujoco' in ctx.config.targets and not ctx.robot.mujoco_balance_inertia


#: what MuJoCo does instead of refusing a broken triangle, told by the file itself
BALANCED = ('MuJoCo sets the three moments to their average (balanceinertia="true" in the '
            "file's <mujoco><compiler>)")


def _refused(ctx: CheckContext, template: str, link: Optional[Link] = None,
             breach: bool = False) -> str:
    """
    Return ``template`` naming Gazebo and MuJoCo as far as they are targets ('' for neither).

    ``template`` holds two slots: the engines, and the verb's 's' for one engine. Gazebo
    checks the link it lumps a welded link into (sdformat's fixed-joint lumping adds the
    tensors first): when that body's tensor is valid, Gazebo is not said to refuse it.
    With ``breach`` (moments that break A + B >= C), MuJoCo is not said to refuse them when
    the file tells its compiler to balance them (TOCABI's <mujoco>, sweep M).
    """
    targets = ctx.config.targets
    lumped = _lumped_valid(ctx, link) if link is not None and 'gazebo' in targets else None
    balanced = breach and 'mujoco' in targets and not _mujoco_refuses_breach(ctx)
    engines = [name for target, name in (('gazebo', 'Gazebo'), ('mujoco', 'MuJoCo'))
               if target in targets and not (target == 'gazebo' and lumped)
               and not (target == 'mujoco' and balanced)]
    said = template.format(' and '.join(engines), '' if len(engines) > 1 else 's') \
        if engines else ''
    if lumped:
        said += (f"; Gazebo lumps it into '{lumped}' (fixed joints), whose combined tensor is "
                 'valid')
    if balanced:
        said += f'; {BALANCED}'
    return said


def _lumped_valid(ctx: CheckContext, link: Link) -> Optional[str]:
    """
    Return the link Gazebo lumps a welded link into when their combined tensor is valid.

    None for a link that is not welded to another, for a weld group with a fixed joint that
    a ``<gazebo>`` keeps (``preserveFixedJoint``: not lumped), or when the combined body
    (:meth:`CheckContext.fused`, the links welded below the top) is not valid for gz-math.
    """
    top = ctx.weld_top(link.name)
    if top == link.name:
        return None
    kept = ctx.robot.gazebo_kept_joints
    if kept and any(joint.name in kept for joint in ctx.robot.joints
                    if not joint.is_moving and ctx.weld_top(joint.child) == top):
        return None
    fused = ctx.fused(top)
    if not (math.isfinite(fused.mass) and fused.mass > 0.0) or \
            not np.all(np.isfinite(fused.tensor)):
        return None
    return top if TensorProperties(fused.tensor).gz_is_valid(fused.mass) else None


def _copied_products(values: Tuple[float, ...]) -> str:
    """Name the slip behind a tensor whose products repeat its moments (eigenvalues 0, 0, 3p)."""
    ixx, ixy, ixz, iyy, iyz, izz = values
    if ixx == iyy == izz != 0.0 and abs(ixy) == abs(ixz) == abs(iyz) == ixx:
        return "; each product was written as the moment (a placeholder's products are 0)"
    return ''


def _moment_values(moments: np.ndarray, eps: float) -> Tuple[Tuple[str, object], ...]:
    """Return a tensor finding's values: the principal moments and gz-math's tolerance."""
    return (('moments', fmt_vector(moments)), ('tolerance', eps))


def _flipped(ctx: CheckContext, link: Link, matrix: np.ndarray) -> Tuple[np.ndarray, bool]:
    """Return the tensor with its products negated, and whether it is the fix to suggest."""
    flipped = flip_products(matrix)
    flip_ok = any(link.inertial.inertia.as_tuple()[i] for i in (1, 2, 4)) and \
        not problem(ctx, link, flipped, geometry_tensor(ctx, link))
    return flipped, bool(flip_ok)


#: significant digits a product must have for its repeating a moment to be a paste
PASTED_DIGITS = 2


def _digits(value: float) -> int:
    """Return how many significant digits a number has as written (7.582e-05: 4)."""
    mantissa = f'{abs(value):.15g}'.split('e')[0].replace('.', '').lstrip('0').rstrip('0')
    return len(mantissa)


def _pasted_note(link: Link) -> Tuple[str, Optional[np.ndarray]]:
    """
    Say so when a product of inertia repeats a moment and is the tensor's only fault.

    Barrett WAM's wrist_yaw_link: ixz="0.00007582" is its iyy, a value pasted into the
    wrong attribute; with that product 0 the tensor is valid.

    :return: the note and the tensor with that product 0, or ('', None)
    """
    values = link.inertial.inertia.as_tuple()
    for index, name in ((1, 'ixy'), (2, 'ixz'), (4, 'iyz')):
        value = values[index]
        # A value of one digit repeats another by rounding, not by a paste (fusion2urdf
        # rounds to 1e-6: Petoi Nybble's 5.7 g thighs hold only 0, 1e-06 and 2e-06, and the
        # mirrored thigh, ixz="-1e-06", got another fix).
        same = [moment for moment, position in (('ixx', 0), ('iyy', 3), ('izz', 5))
                if value != 0.0 and values[position] == value
                and _digits(value) >= PASTED_DIGITS]
        if not same:
            continue
        cleared = list(values)
        cleared[index] = 0.0
        tensor = TensorProperties(Inertia(*cleared))
        if tensor.is_positive_definite() and not violates_triangle(tensor.moments):
            return (f'{name}="{fmt_written((value,))}" repeats {same[0]}: a value pasted into '
                    f'the wrong attribute? With {name}="0" the tensor is valid'), tensor.matrix
    return '', None


def _with_notes(ctx: CheckContext, link: Link, flipped: np.ndarray, flip_ok: bool,
                suggestion: Optional[np.ndarray], text: str) -> Tuple[Optional[np.ndarray], str]:
    """
    Return a broken tensor's suggestion and text with what else may explain it said first.

    A product pasted from a moment, then (unless the flipped products do) the flipped
    products' note; a slipped decimal, when nothing else explains it, becomes the fix.
    """
    pasted, cleared = _pasted_note(link)
    # What the text leads with is what --fix-inertia writes (HSR's hand_l_distal_link: the
    # text led with ixz="0", the fixer wrote the nearest valid tensor, iyy changed too).
    why = problem(ctx, link, cleared, geometry_tensor(ctx, link)) \
        if cleared is not None else ''
    if cleared is not None and not why:
        return cleared, (pasted + ' (--fix-inertia writes that); if the value is right, '
                         + (text if flip_ok else _flip_note(ctx, link, flipped) + text))
    if pasted:
        # The fixer writes the suggestion below: the slip is said after it.
        text = (text if flip_ok else _flip_note(ctx, link, flipped) + text) + \
            f' ({pasted}, but {why}: --fix-inertia writes the tensor above)'
        return suggestion, text
    text = text if flip_ok else _flip_note(ctx, link, flipped) + text
    decimal, corrected = _decimal_note(link) if not flip_ok else ('', None)
    # A moment x10 that mends the triangle but leaves the tensor failing another rule is no
    # slip (Darwin's MP_NECK, sweep L: 0.0244 kg and moments of 0.001 to 0.008 kg m^2, a
    # thousand times its bound; izz x10 was written, and the re-check failed on the bound).
    if corrected is not None and not problem(ctx, link, corrected, geometry_tensor(ctx, link)):
        return corrected, decimal + text
    return suggestion, text


#: A triangle missed by at most this share of C, on a diagonal tensor, is rounding.
TRIANGLE_ROUNDING = 1e-3


def _decimal_note(link: Link) -> Tuple[str, Optional[np.ndarray]]:
    """
    Say so when one entry off by a power of ten is the tensor's only fault.

    HSR's arm_flex_link: ixx="7.528" beside iyy 0.007102 and izz 0.001552; with
    ixx="0.007528" the tensor is valid. Said only when exactly one entry and one power of
    ten (10 to 10^6, either way) make it valid.

    :return: the note and the corrected tensor, or ('', None)
    """
    values = link.inertial.inertia.as_tuple()
    names = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')
    found = []
    for index, name in enumerate(names):
        if values[index] == 0.0:
            continue
        for power in (1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6):
            changed = list(values)
            changed[index] = values[index] / 10.0 ** power
            if _clearly_invalid(changed):
                continue  # most of the 72 candidates: no tensor (and no LAPACK) for them
            tensor = TensorProperties(Inertia(*changed))
            if tensor.is_positive_definite() and not violates_triangle(tensor.moments):
                found.append((name, values[index], changed[index], power))
    if len(found) != 1:
        return '', None
    name, value, meant, power = found[0]
    changed = list(values)
    changed[names.index(name)] = meant
    note = (f'{name}="{fmt_written((value,))}" is {fmt(10.0 ** abs(power))}x '
            f'{"too large" if power > 0 else "too small"} for the others: a slipped decimal? '
            f'With {name}="{fmt(meant, max(_digits(value), 1))}" the tensor is valid '
            '(--fix-inertia writes that); if the value is right, ')
    return note, TensorProperties(Inertia(*changed)).matrix


#: How far past a necessary condition of a valid tensor a candidate must be to be dropped
#: unseen: 1e-9 of its diagonal's size, millions of times gz-math's tolerance and the
#: rounding of the exact test (:meth:`TensorProperties.is_positive_definite`, the moments).
_CLEARLY = 1e-9


def _clearly_invalid(values: Sequence[float]) -> bool:
    """
    Return True for six numbers that are no valid tensor by a margin (Python numbers only).

    Necessary conditions of a positive definite tensor whose moments make a triangle:
    positive diagonal entries, a positive first 2x2 minor, and diagonal entries that make a
    triangle too (Ixx + Iyy - Izz is twice the second moment of the mass along z, in any
    frame). False leaves the candidate to the exact test.
    """
    ixx, ixy, _, iyy, _, izz = values
    scale = abs(ixx) + abs(iyy) + abs(izz)
    if not math.isfinite(scale) or not math.isfinite(sum(values)):
        return False
    margin = _CLEARLY * scale
    # gz-math adds its tolerance (kg m^2) to the 2x2 minor ((kg m^2)^2) too: for a tiny
    # tensor that is more than the margin.
    tolerance = 2.0 * gz_epsilon(ixx + iyy + izz)
    return (ixx < -margin or iyy < -margin or izz < -margin
            or ixx * iyy - ixy * ixy < -(margin * scale + tolerance)
            or ixx + iyy < izz - margin or iyy + izz < ixx - margin
            or izz + ixx < iyy - margin)


def _flip_note(ctx: CheckContext, link: Link, flipped: np.ndarray) -> str:
    """
    Say so when negating the products makes a valid tensor that is over the body's extent.

    The CAD sign convention is then probably the cause, but that tensor is not the fix.
    """
    if not any(link.inertial.inertia.as_tuple()[i] for i in (1, 2, 4)):
        return ''
    reason = problem(ctx, link, flipped, None)
    if 'extent allows' not in reason:
        return ''
    return ('negating the products (the positive product-of-inertia convention of some CAD '
            f"exports) gives a valid tensor, but {reason.replace('its moment', 'a moment')}; ")


#: A rotation that changes no entry of the tensor by more than this share of its largest one
#: (an isotropic tensor, a diagonal one turned half a turn about an axis) does not matter.
ROTATION_INVARIANT = 1e-3


def _check_rotated(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    """Note a rotated inertial frame: simulators disagree on it (portability)."""
    inertial = link.inertial
    # A claim about MuJoCo's importer (the other readers honour the rotation): not made
    # when MuJoCo is not a target.
    severity = severity_for(ctx.config.targets, {'mujoco': Severity.INFO})
    if inertial is None or severity is None:
        return
    rpy = inertial.origin.rpy
    values = inertial.inertia.as_tuple()
    if not (is_finite(rpy) and any(rpy) and is_finite(values)):
        return
    rotation = rpy_to_matrix(rpy)
    turned = rotate_inertia(inertial.inertia, rotation)
    written = np.array(inertial.inertia.as_matrix(), dtype=float)
    if np.max(np.abs(turned - written)) <= ROTATION_INVARIANT * np.max(np.abs(written)):
        return  # a tool that drops it builds the same body (a sphere's tensor, a half turn)
    link_frame = tidy(turned)
    products = (values[1], values[2], values[4])
    moments, axes = principal_moments(inertial.inertia)
    principal_rpy = _matrix_to_rpy(rotation @ axes)
    yield ctx.finding(
        'inertial-origin-rotated', severity,
        f'the inertial frame is rotated (rpy {fmt_vector(rpy)})'
        + (f' and the tensor also has products ({fmt_vector(products)})' if any(products)
           else '')
        + ': importers have mishandled it (MuJoCo 3.3.7 to 3.12 dropped the rotation, MuJoCo '
          'issue 3559, fixed since: MuJoCo 4.0 honours it), so older tools build a different '
          'body from this file',
        link=link.name, element='inertial/origin', line=inertial.origin.line or inertial.line,
        suggestion=f'for portability write rpy="0 0 0" with '
                   f'{fmt_inertia(inertia_values(link_frame))}'
                   + (f' (or rpy="{fmt_vector(principal_rpy, 9)}" with '
                      f'{fmt_inertia(inertia_values(np.diag(moments)))})' if any(products)
                      else ''),
        values=(('rpy', fmt_vector(rpy)), ('products', fmt_vector(products))))


def _moves_without_mass(finding: Finding) -> bool:
    return finding.rule == 'mass-not-positive' and \
        any(key == 'parent_joint' for key, _ in finding.values)


def _massless_moving(ctx: CheckContext) -> Tuple[List[List[Finding]], FrozenSet[str]]:
    """Return the groups of 3 or more links that move without mass alike, and their links."""
    return _mass_groups(ctx)[0]


def _mass_groups(ctx: CheckContext) -> Tuple[Tuple[List[List[Finding]], FrozenSet[str]], ...]:
    """
    Return the mass findings said once for 3 or more links, in one pass over the links.

    (groups, their links) of the links that move without mass alike (what they lack and
    what it breaks: one kind, the joint set aside), then of the links of one body without
    any mass that have collision geometry (one kind per body), then of the links that move
    with one tiny mass (SMARC's SAM: 1e-8 kg on 6 actuator links, a dummy value).
    """
    key = ('mass-groups', None)
    if key not in ctx.memo:
        moving: Dict[str, List[Finding]] = {}
        static: Dict[str, List[Finding]] = {}
        tiny: Dict[object, List[Finding]] = {}
        for link in ctx.robot.links:
            for finding in _check_mass(ctx, link):
                if _moves_without_mass(finding):
                    moving.setdefault(_JOINT.sub('', finding.message), []).append(finding)
                elif _static_without_mass(finding):
                    static.setdefault(ctx.weld_top(link.name), []).append(finding)
                elif finding.rule == TINY:
                    tiny.setdefault((link.mass, finding.severity), []).append(finding)
        found = []
        for kinds in (moving, static, tiny):
            groups = [members for members in kinds.values() if len(members) >= MODEL_WIDE_MIN]
            found.append((groups, frozenset(finding.link for members in groups
                                            for finding in members)))
        ctx.memo[key] = tuple(found)
    return ctx.memo[key]  # type: ignore[return-value]


#: what the note on a link of a body without any mass says first
_STATIC_MASSLESS = 'has collision geometry but no mass, and neither has the body'


def _static_without_mass(finding: Finding) -> bool:
    return finding.rule == 'mass-not-positive' and \
        finding.message.startswith(_STATIC_MASSLESS)


def _massless_bodies(ctx: CheckContext) -> Tuple[List[List[Finding]], FrozenSet[str]]:
    """Return the notes of 3 or more links welded into one body without mass, and their links."""
    return _mass_groups(ctx)[1]


def check_massless_bodies(ctx: CheckContext) -> Iterator[Finding]:
    """
    Note once the links of one body without any mass that have collision geometry.

    Onshape's soccer field: 12 parts welded to a massless base, 12 identical notes for one
    model without mass (static scenery, or a base fixed to the world).
    """
    if model_choices(ctx).massless:
        return
    for found in _massless_bodies(ctx)[0]:
        yield from grouped(ctx, found, 'links welded into one body without mass have '
                                       'collision geometry')


#: the joint a massless link moves on, in its mass-not-positive message
_JOINT = re.compile(r"\(joint '[^']*', [a-z]+\)")


def check_massless_moving(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report 3 or more links that move without mass once, listing them.

    A hand whose fingers were modelled without mass (Romeo's 18 finger links, Schunk SVH's
    13) made one choice: one finding, the first link's message as the example.
    """
    if model_choices(ctx).massless:
        return
    for found in _massless_moving(ctx)[0]:
        yield from grouped(ctx, found, 'links move without mass')


def check_tiny_masses(ctx: CheckContext) -> Iterator[Finding]:
    """Report 3 or more moving links of one tiny mass once, listing them."""
    if model_choices(ctx).massless:
        return
    for found in _mass_groups(ctx)[2][0]:
        yield from grouped(ctx, found, f'links move with the same tiny mass '
                                       f'({fmt(ctx.robot.link(found[0].link).mass)} kg)')


def check_rotated(ctx: CheckContext) -> Iterator[Finding]:
    """
    Note rotated inertial frames: one note per link, or one for the robot from 3 links on.

    A CAD export that writes every link's principal moments with a rotation (Spot's 20
    links) made one choice: said once, with one link's portable form as the example.
    """
    yield from grouped_by_value(ctx, _check_rotated, lambda link, _: None,
                                lambda _: 'links rotate their inertial frame', own_fixes=True)


def _matrix_to_rpy(matrix: np.ndarray) -> np.ndarray:
    """Return URDF roll, pitch, yaw of a rotation matrix (R = Rz Ry Rx)."""
    pitch = math.asin(max(-1.0, min(1.0, -matrix[2, 0])))
    if abs(matrix[2, 0]) < 1.0 - 1e-12:
        roll = math.atan2(matrix[2, 1], matrix[2, 2])
        yaw = math.atan2(matrix[1, 0], matrix[0, 0])
    else:
        roll = 0.0
        yaw = math.atan2(-matrix[0, 1], matrix[1, 1])
    return np.array([roll, pitch, yaw])


CHECKS = (check_rotated, check_copied_tensors, check_massless_moving, check_massless_bodies,
          check_tiny_masses)
LINK_CHECKS = (check_link,)
