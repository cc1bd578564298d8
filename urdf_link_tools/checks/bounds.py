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
Physical bounds on a tensor: no body of a given mass inside a given box exceeds them.

For mass m inside the box [lo, hi] with its centre of mass at c, the mass-weighted
variance along each axis k is at most V_k = (c_k - lo_k) (hi_k - c_k) (the largest
variance of a distribution on an interval with a given mean: all of it at the two ends).
The moment about axis x is m E[y^2 + z^2] about the centre of mass, so it is at most
m (V_y + V_z), reached only with all the mass at the corners. A declared moment above that
bound is impossible whatever its ratio to the geometry's, which a 10x tolerance misses
(a 0.2 kg calf with Ixx 0.0063 kg m^2 where its extent allows 0.0051).

A centre of mass declared outside the box belongs to no body inside it, but the tensor is
still bounded: about any axis through any point c, a body of mass m inside the box has a
moment of at most m times the largest squared distance of the box from that axis, so about
the axis x through c at most m (D_y + D_z) with D_k = max((c_k - lo_k)^2, (hi_k - c_k)^2)
(all the mass at the corner farthest from c). It holds whether the tensor was taken about
the part's real centre of mass (which has the least moment of all parallel axes) or about
the declared point, and is never tighter than the bound about a centre inside.

The box is the visual and collision geometry of the link and of the links welded to it
(fixed joints), in the link frame: the part is within what is drawn of its body. A link
with no geometry of 1 cm or more has only the whole robot to be compared with: its radius
of gyration sqrt(I / m) must not exceed the robot's size (the diagonal of its bounds at
the zero configuration), which finds placeholders (1e-3 kg m^2 on a 1 g link: 1 m).
"""

from __future__ import annotations

from dataclasses import replace
import math
from typing import Dict, FrozenSet, Generator, Iterator, List, Optional, Tuple

import numpy as np

from urdf_link_tools.checks.alignment import axis_words
from urdf_link_tools.checks.base import (CheckContext, fmt, fmt_inertia, fmt_range, fmt_vector,
                                         Rule)
from urdf_link_tools.checks.model_wide import grouped, MODEL_WIDE_MIN
from urdf_link_tools.checks.suggest import (AXES_SAME, geometry_tensor, mismatch, problem,
                                            suggest, turned_onto_geometry, valid_tensor,
                                            visual_tensor)
from urdf_link_tools.findings import Finding, listed, Severity
from urdf_link_tools.geometry import (
    Bounds, distance_outside, has_size, is_finite, origin_to_matrix, rpy_to_matrix,
    transform_bounds, union_bounds)
from urdf_link_tools.inertia import inertia_values, principal_values, violates_triangle
from urdf_link_tools.kinematics import forward_kinematics
from urdf_link_tools.model import Link, Mesh
from urdf_link_tools.records import record

#: A moment up to this factor over the bound passes: the bound assumes the drawn geometry
#: holds all the material, while meshes leave out screws, bearings and cables drawn on the
#: neighbour (CAD tensors up to 10 % over were seen on Unitree and iCub ankles and
#: shoulders); clear excess (placeholders, unit slips, 1.24x on a calf) stays flagged.
MARGIN = 1.2
#: Over the bound by less than this factor, a link's excess is a warning: the tensor of a
#: coarser shape than the part (UR3e's wrist 2: a cylinder's, 1.20x) or parts the meshes
#: leave out (TurtleBot3's lidar, 1.33x). Placeholders and unit slips lie far above.
CLEAR_EXCESS = 2.0
#: Geometry whose bounds' diagonal is below this (m) is a marker, not the part's extent.
MARKER_SIZE = 0.01

RULES = (
    Rule('inertia-exceeds-extent', Severity.ERROR,
         'a moment of inertia is larger than any body of that mass can have inside the '
         'geometry of its body (visual and collision bounds of the link and the links welded '
         'to it): the bound m (V_y + V_z) with V_k = (c_k - lo_k)(hi_k - c_k); with the centre '
         "of mass outside the geometry (by more than com-outside-geometry's tolerance) the "
         'looser m (D_y + D_z) about it, D_k = max((c_k - lo_k)^2, (hi_k - c_k)^2), '
         'said from 2x over (not on 3 or more centres of mass at one length slip, which '
         'com-outside-geometry names: the geometry may be at the wrong scale; nor on a link '
         'without geometry of its own, whose box is then only what is welded to it)',
         'no distribution of the mass within the part has it: a placeholder (1e-3 kg m^2 on a '
         '1 g link) or a unit slip. Simulators accept it, and where the link is welded to a '
         "body (MuJoCo fuses, Gazebo lumps fixed joints) it can multiply that body's inertia. "
         "A warning under 2x the bound (a coarser shape's tensor, parts the meshes leave "
         'out). An info when it is welded to a body whose largest moment it changes by under '
         '10 % '
         '(impossible, but fused away: nothing simulated changes), or to a massless root '
         "link named 'world' (a fixed base: it never moves), or, without the gazebo target, "
         'to a base meant fixed (not standing on legs or wheels: MuJoCo and Pinocchio fix '
         'it). One tensor on '
         '3 or more '
         'links that exceed is one finding, which also lists the links carrying the same '
         'numbers whose centre of mass lies outside their geometry, within the looser bound '
         '(from 3 links in all); '
         'a link welded to a body is judged against that body without the copies of its '
         'tensor welded to it',
         'use the suggested tensor (from the collision geometry) or the CAD values',
         'second moments of a bounded mass distribution (Bhatia-Davis: variance <= '
         '(c - lo)(hi - c))'),
    Rule('inertia-exceeds-robot', Severity.WARNING,
         'a link without geometry of 1 cm or more (nor on the links welded to it) has a '
         'radius of gyration sqrt(I / m) larger than the whole robot (the diagonal of its '
         'bounds at the zero configuration)',
         'a placeholder tensor (a radius of gyration larger than the robot) on a tiny or '
         "geometry-less link; welded to a body it multiplies that body's inertia in MuJoCo "
         'and Gazebo',
         "write the part's real tensor (a small solid: m r^2 / 2 with r its size)",
         'second moments of a bounded mass distribution'),
)


#: The centre of mass may sit this fraction of the geometry bounds' diagonal outside them,
#: and at least COM_MIN_TOLERANCE (m): a few millimetres of CAD-versus-mesh drift on a small
#: part changes no simulation a maintainer would notice (com-outside-geometry's tolerance;
#: within it, the bound here is taken about the box's centre).
COM_TOLERANCE = 0.05
COM_MIN_TOLERANCE = 0.01

#: A centre of mass just outside the box says the geometry may miss some of the part (a
#: flange, a connector): only a clear excess of the bound about the box's centre is said
#: (AUBO iS5's wrist3, 4.7 mm out, 1.56x: not said; Rokae SR4's link6 far over: said).
#: Further out, the bound is taken about the declared centre of mass (the farthest corners)
#: with the same margin: robot-assets' UR5 wrist_1_link, its centre of mass at the link
#: origin 47.5 mm outside a 0.1 m part, Izz 0.219 kg m^2 at 1.22 kg (9.4x), was a warning.
OUTSIDE_MARGIN = 2.0


@record
class Excess:
    """A moment over its bound: where, by how much, and the box it was measured in."""

    axis: int
    moment: float
    bound: float
    bounds: Bounds
    of_robot: bool
    #: how far (m) the declared centre of mass lies outside the box (the bound is then
    #: taken about the box's centre, or beyond com-outside-geometry's tolerance about the
    #: declared centre of mass to the farthest corners); 0 inside
    outside: float = 0.0
    #: the bound is m (D_y + D_z) about the declared centre of mass, outside the box
    about_declared: bool = False


def com_tolerance(bounds: Bounds) -> float:
    """Return how far (m) outside a link's bounds a centre of mass is still not outside."""
    return max(COM_MIN_TOLERANCE,
               COM_TOLERANCE * float(np.linalg.norm(bounds[1] - bounds[0])))


def _judged_centre(centre: np.ndarray, bounds: Bounds) -> Optional[Tuple[np.ndarray, float]]:
    """
    Return the point a link's bound is taken about and how far (m) the centre lies outside.

    The declared centre of mass inside the box (0 outside); the box's centre (the loosest
    bound of all) when it lies outside by no more than com-outside-geometry's tolerance,
    which then says nothing (Rokae SR4's link6: 9.8 mm outside, a radius of gyration of
    0.18 m in a 9 cm part went unsaid by both rules); None further out, where com-outside-
    geometry says it and the looser bound about the declared centre (:func:`_farthest_limits`)
    is the one taken.
    """
    if not _outside(centre, bounds):
        return centre, 0.0
    outside = distance_outside(centre, bounds)
    if outside <= com_tolerance(bounds):
        return (bounds[0] + bounds[1]) / 2.0, float(outside)
    return None


def _weld_frames(ctx: CheckContext, name: str) -> Dict[str, np.ndarray]:
    """Return every link welded to ``name`` with its frame in the frame of ``name``."""
    frames = {name: np.eye(4)}
    pending = [name]
    while pending:
        current = pending.pop()
        here = frames[current]
        for joint in ctx.robot.child_joints(current):
            if not joint.is_moving and joint.child not in frames and \
                    is_finite(joint.origin.xyz + joint.origin.rpy):
                frames[joint.child] = here @ origin_to_matrix(joint.origin)
                pending.append(joint.child)
        joint = ctx.robot.parent_joint(current)
        if joint is not None and not joint.is_moving and joint.parent not in frames and \
                is_finite(joint.origin.xyz + joint.origin.rpy):
            frames[joint.parent] = here @ np.linalg.inv(origin_to_matrix(joint.origin))
            pending.append(joint.parent)
    return frames


def _group_frames(ctx: CheckContext, top: str) -> Dict[str, np.ndarray]:
    """Return every link of a weld group with its frame in the frame of its top, once."""
    key = ('weld-frames', top)
    if key not in ctx.memo:
        ctx.memo[key] = _weld_frames(ctx, top)
    return ctx.memo[key]  # type: ignore[return-value]


def _group_extent(ctx: CheckContext, top: str,
                  partial: bool = False) -> Tuple[Optional[Bounds], bool]:
    """
    Return the bounds of a weld group's geometry in its top's frame, once per group.

    :param partial: the bounds of the parts known, when some are not (a mesh not found):
        what the body holds at least, not how far it reaches
    """
    key = ('weld-extent', top, partial)
    if key in ctx.memo:
        return ctx.memo[key]  # type: ignore[return-value]
    boxes: List[Bounds] = []
    known = True
    frames = _group_frames(ctx, top)
    for name, frame in frames.items():
        member = ctx.robot.link(name)
        for element in (member.visuals + member.collisions) if member else ():
            if element.geometry is not None and not has_size(element.geometry):
                continue
            box = ctx.element_bounds(element)
            if box is None and partial:
                continue
            if box is None:  # a mesh not loaded, a shape not read (a refused <capsule>):
                known = False  # the body may reach as far as its moments say
                break
            boxes.append(box if len(frames) == 1 else transform_bounds(box, frame))
        if not known:
            break
    if not known:
        result: Tuple[Optional[Bounds], bool] = (None, False)
    elif len(frames) == 1:  # a link welded to none: its boxes in its own frame
        result = (_union_unmoved(boxes), True)
    else:
        result = (union_bounds(boxes), True)
    ctx.memo[key] = result
    return result


def _union_unmoved(boxes: List[Bounds]) -> Optional[Bounds]:
    """
    Return ``union_bounds([transform_bounds(box, np.eye(4)) for box in boxes])``.

    With Python numbers when every box is finite: the identity moves a coordinate to
    itself plus +0 (:func:`.transform_bounds`), which leaves no -0 for the union's
    minimum and maximum to tell apart (:func:`.union_bounds`). Once a link, and most links
    are welded to none: NumPy's calls on three numbers cost more than the rest here.
    """
    lows: List[List[float]] = []
    highs: List[List[float]] = []
    for lo, hi in boxes:
        low = lo.tolist() if isinstance(lo, np.ndarray) else None
        high = hi.tolist() if isinstance(hi, np.ndarray) else None
        if low is None or high is None or not (is_finite(low) and is_finite(high)):
            identity = np.eye(4)
            return union_bounds([transform_bounds(box, identity) for box in boxes])
        lows.append([min(a + 0.0, b + 0.0) for a, b in zip(low, high)])
        highs.append([max(a + 0.0, b + 0.0) for a, b in zip(low, high)])
    if not lows:
        return None
    return np.array([min(values) for values in zip(*lows)]), \
        np.array([max(values) for values in zip(*highs)])


def body_extent(ctx: CheckContext, link: Link) -> Tuple[Optional[Bounds], bool]:
    """
    Return the bounds of the geometry of a link's body in its frame, and whether known.

    The body is the weld group; its bounds are taken once in the top link's frame and moved
    into each member's frame (never smaller than the exact bounds: the bound stays valid),
    so a long welded chain costs linear time.

    :return: (bounds or None when there is no geometry, False when a part is unknown)
    """
    top = ctx.weld_top(link.name)
    extent, known = _group_extent(ctx, top)
    moved = _in_link_frame(ctx, top, link, extent)
    return (moved, True) if moved is not None else (None, known)


def known_body_extent(ctx: CheckContext, link: Link) -> Optional[Bounds]:
    """
    Return the bounds of the parts of a link's body whose size is known, in its frame.

    A point inside them is inside the body, whatever the parts not read add (a visual mesh
    not found beside a collision box: spot_mini_mini's chassis, sweep L).
    """
    top = ctx.weld_top(link.name)
    return _in_link_frame(ctx, top, link, _group_extent(ctx, top, partial=True)[0])


def _in_link_frame(ctx: CheckContext, top: str, link: Link,
                   extent: Optional[Bounds]) -> Optional[Bounds]:
    """Move a weld group's bounds from its top's frame into a member's (None for none)."""
    frame = _group_frames(ctx, top).get(link.name)
    if extent is None or frame is None:
        return None
    return extent if link.name == top else transform_bounds(extent, np.linalg.inv(frame))


def _robot_bounds(ctx: CheckContext) -> Tuple[Dict[str, np.ndarray], Optional[Bounds]]:
    """Return every link's pose and the robot's bounds at the zero configuration."""
    key = ('robot-bounds', None)
    if key not in ctx.memo:
        poses = forward_kinematics(ctx.robot, {})
        boxes: List[Optional[Bounds]] = []
        for name, pose in poses.items():
            boxes.append((pose[:3, 3], pose[:3, 3]))
            member = ctx.robot.link(name)
            for element in (member.visuals + member.collisions) if member else ():
                if element.geometry is not None and has_size(element.geometry):
                    box = ctx.element_bounds(element)
                    if box is not None:
                        boxes.append(transform_bounds(box, pose))
        finite = [box for box in boxes if np.all(np.isfinite(box[0]))
                  and np.all(np.isfinite(box[1]))]
        ctx.memo[key] = (poses, union_bounds(finite))
    return ctx.memo[key]  # type: ignore[return-value]


def excess(ctx: CheckContext, link: Link) -> Optional[Excess]:
    """Return the worst moment above its physical bound, None when every one is within."""
    key = ('bounds', id(link))
    if key not in ctx.memo:
        ctx.memo[key] = _excess(ctx, link)
    return ctx.memo[key]  # type: ignore[return-value]


def excess_at_slip(ctx: CheckContext, link: Link) -> Optional[Excess]:
    """
    Return :func:`excess`, judging a centre of mass at a shared length slip as any other.

    :func:`excess` leaves those links to the slip's own findings (the geometry may be what
    is at the wrong scale); whether their tensors exceed their bounds about the declared
    centres of mass decides those findings' severity.
    """
    if link.name not in slipped_centres(ctx):
        return excess(ctx, link)
    key = ('bounds at slip', id(link))
    if key not in ctx.memo:
        ctx.memo[key] = _excess(ctx, link, judge_slips=True)
    return ctx.memo[key]  # type: ignore[return-value]


def _excess(ctx: CheckContext, link: Link, judge_slips: bool = False) -> Optional[Excess]:
    inertial = link.inertial
    if inertial is None or not (math.isfinite(link.mass) and link.mass > 0.0) or \
            not is_finite(inertial.inertia.as_tuple() + inertial.origin.xyz
                          + inertial.origin.rpy):
        return None
    tensor = ctx.tensor(link)
    if not tensor.is_positive_definite() or violates_triangle(tensor.moments):
        return None  # the inertia rules report it
    bounds, known = body_extent(ctx, link)
    if not known:
        return None
    moments = _moments_in_link_frame(tensor.matrix, inertial.origin.rpy)
    of_robot = _too_small(bounds)
    about_declared = False
    if of_robot:
        # Only a loose bound: the link may sit at the robot's edge, so its radius of
        # gyration is compared with the robot's whole size (the diagonal of its bounds).
        poses, robot = _robot_bounds(ctx)
        if link.name not in poses or robot is None:
            return None
        size = float(np.linalg.norm(robot[1] - robot[0]))
        if not size >= MARKER_SIZE:
            return None  # a robot of one point: nothing to compare with
        bounds = robot
        limits = np.full(3, link.mass * size * size)
        outside = 0.0
    else:
        centre = np.asarray(inertial.origin.xyz, dtype=float)
        judged = _judged_centre(centre, bounds)
        if judged is None:
            # com-outside-geometry says the centre of mass is misplaced; the tensor is still
            # bounded about it, more loosely (the farthest corners). Not on the links whose
            # centres of mass share one length slip off their geometry (Schunk SVH, exported
            # at 10x, its tensors 100x): the geometry may be what is at the wrong scale, and
            # the slip's own findings say which numbers to scale.
            if (link.name in slipped_centres(ctx) and not judge_slips) or \
                    _drawn_elsewhere(link):
                return None
            about_declared = True
            outside = float(distance_outside(centre, bounds))
            limits = _farthest_limits(link.mass, centre, bounds)
        else:
            point, outside = judged
            limits = _limits(link.mass, point, bounds)
    if any(math.isnan(float(limit)) for limit in limits):
        return None  # bounds beyond float range (a mesh at 1e307): no number to compare with
    ratios = [moments[k] / limits[k] if limits[k] > 0.0 else math.inf for k in range(3)]
    axis = ratios.index(max(ratios))  # the first of equal ones, as np.argmax (no NaN here)
    if not ratios[axis] > (MARGIN if outside == 0.0 else OUTSIDE_MARGIN):
        return None
    return Excess(axis, float(moments[axis]), float(limits[axis]), bounds, of_robot, outside,
                  about_declared)


def _moments_in_link_frame(matrix: np.ndarray, rpy: Tuple[float, float, float]) -> List[float]:
    """
    Return the diagonal of ``R I R^T``: the moments about the link's axes (finite numbers).

    Without rpy (most inertials), R is the identity up to the signs of its zeros: each entry
    of the product is the tensor's own plus products with zeros, so the diagonal is the
    tensor's, bit for bit, except that a zero moment may change sign, which no ratio of
    :func:`_excess` tells apart. NumPy's two 3x3 products cost more than the rest of it.
    """
    if rpy[0] == 0.0 and rpy[1] == 0.0 and rpy[2] == 0.0:
        return [float(matrix[0, 0]), float(matrix[1, 1]), float(matrix[2, 2])]
    rotation = rpy_to_matrix(rpy)
    return np.diag(rotation @ matrix @ rotation.T).tolist()


#: Welded to a body whose largest moment it changes by less than this share: a warning.
FUSED_AWAY = 0.1


def welded_to_world(ctx: CheckContext, link: Link) -> bool:
    """
    Return True when fixed joints weld the link to a massless root of a fixed base.

    A root named ``world`` is the URDF convention of a fixed base (Gazebo fixes the model
    there; MuJoCo and Pinocchio fix a root without a floating joint): such a link never
    moves, its inertia acts on nothing (Barrett WAM's and JAKA's bases). So is a root
    carrying one moving joint (an arm's) where Gazebo is not a target (Gazebo moves a model
    without a world link; MuJoCo and Pinocchio fix it: the finger_edu's base, a placeholder
    inertial, two warnings; precision review X).
    """
    top = ctx.weld_top(link.name)
    if ctx.robot.parent_joint(top) is not None:
        return False
    if top == 'world':
        root = ctx.robot.link(top)
        return top != link.name and root is not None and (
            root.inertial is None or not root.mass > 0.0)
    from urdf_link_tools.checks.collisions import base_welded
    return 'gazebo' not in ctx.config.targets and base_welded(ctx)


def grounded_effect(ctx: CheckContext, link: Link) -> str:
    """Return what a finding on a link :func:`welded_to_world` adds about it."""
    top = ctx.weld_top(link.name)
    where = "'world' (a fixed base)" if top == 'world' else \
        (f"'{top}', a fixed base for the engines selected (MuJoCo and Pinocchio fix a base "
         'that stands on no legs or wheels)')
    return (f'; it is welded to {where}: no simulator moves it, so it changes nothing '
            'simulated until the robot is mounted on something that moves')


def _welded_growth(ctx: CheckContext, link: Link) -> Optional[Tuple[str, float, int]]:
    """
    Return the body a link is welded to, how many times its tensor multiplies it, and copies.

    The copies are the other links of that body that carry the same six numbers. The fused
    body without the link's tensor keeps its mass as a point mass (the centre of mass
    stays), so it is the fused tensor minus the link's, rotated into the top's frame. The
    copies are taken out too: counted as the body's, they would hide what the placeholder
    does (Interbotix's gripper: 1.48x with the other two copies counted, about 40x against
    its real parts). None when the link is not welded to another link (its body is its own).
    """
    top = ctx.weld_top(link.name)
    frames = _group_frames(ctx, top)
    if len(frames) < 2 or link.name not in frames:
        return None
    # The body is named by its top, or by its heaviest other part when the link is the top
    # (ANYmal D's 1 g hip link carries the hip welded below it).
    named = top if top != link.name else max(
        (name for name in frames if name != link.name),
        key=lambda name: getattr(ctx.robot.link(name), 'mass', 0.0))
    values = link.inertial.inertia.as_tuple()
    found = _welded_tensors(ctx, top).get(values)
    if found is None:
        return None
    with_it, without, carriers = found
    if not without > 0.0:
        return None
    return named, with_it / without, carriers - 1


def _welded_tensors(ctx: CheckContext, top: str) \
        -> Dict[Tuple[float, ...], Tuple[float, float, int]]:
    """
    Return per tensor (six numbers) of a weld group its body's largest moment with, without it.

    Once per group, each tensor's carriers summed in one pass: a link at a time walked the
    whole group, 145 s for 4,096 links welded to one root (red-team review 4). Also how many
    of the group's links carry it.
    """
    key = ('welded-tensors', top)
    if key in ctx.memo:
        return ctx.memo[key]  # type: ignore[return-value]
    sums: Dict[Tuple[float, ...], List] = {}
    for name, frame in _group_frames(ctx, top).items():
        member = ctx.robot.link(name)
        if member is None or member.inertial is None:
            continue
        rotation = frame[:3, :3] @ rpy_to_matrix(member.inertial.origin.rpy)
        entry = sums.setdefault(member.inertial.inertia.as_tuple(), [np.zeros((3, 3)), 0])
        entry[0] = entry[0] + rotation @ ctx.tensor(member).matrix @ rotation.T
        entry[1] += 1
    fused = ctx.fused(top).tensor
    if not np.all(np.isfinite(fused)):  # a centre of mass whose square overflows
        ctx.memo[key] = {}
        return {}
    with_it = float(np.linalg.eigvalsh(fused)[-1])
    result = {values: (with_it, float(np.linalg.eigvalsh(fused - placeholder)[-1]), count)
              for values, (placeholder, count) in sums.items()
              if np.all(np.isfinite(fused - placeholder))}
    ctx.memo[key] = result
    return result


def fused_change(ctx: CheckContext, link: Link, tensor: np.ndarray,
                 turned: bool = False) -> Optional[float]:
    """
    Return how much another tensor for a welded link would change its body's inertia.

    The largest change of a principal moment of the fused body (MuJoCo fuses and Gazebo
    lumps fixed joints) were the link's declared tensor replaced by ``tensor`` (in its
    inertial frame), as a share of the body's largest moment. With ``turned``, the largest
    moment of the change itself: a tensor turned leaves the moments of a body that is the
    link alone as they were, but not its axes. None when the link is not welded to another
    link (its body is its own), or the body has no inertia.
    """
    top = ctx.weld_top(link.name)
    frames = _group_frames(ctx, top)
    if len(frames) < 2 or link.name not in frames:
        return None
    rotation = frames[link.name][:3, :3] @ rpy_to_matrix(link.inertial.origin.rpy)
    change = rotation @ (tensor - ctx.tensor(link).matrix) @ rotation.T
    fused = ctx.fused(top).tensor
    if not (np.all(np.isfinite(fused)) and np.all(np.isfinite(change))):
        return None  # (LAPACK does not converge on them)
    before = np.linalg.eigvalsh(fused)
    if not (np.all(np.isfinite(before)) and before[-1] > 0.0):
        return None
    if turned:
        return float(np.abs(np.linalg.eigvalsh(change)).max() / before[-1])
    after = np.linalg.eigvalsh(fused + change)
    return float(np.abs(after - before).max() / before[-1])


def _exceeding(ctx: CheckContext) -> Dict[Tuple[object, ...], List[Tuple[Link, Excess]]]:
    """Return the links over their bound, by (of the robot?, the six declared numbers)."""
    key = ('exceeding', None)
    if key not in ctx.memo:
        exceeding: Dict[Tuple[object, ...], List[Tuple[Link, Excess]]] = {}
        for link in ctx.robot.links:
            found = excess(ctx, link)
            if found is not None:
                group = (found.of_robot,) + link.inertial.inertia.as_tuple()
                exceeding.setdefault(group, []).append((link, found))
        ctx.memo[key] = exceeding
    return ctx.memo[key]  # type: ignore[return-value]


def light_copies(ctx: CheckContext) -> Dict[Tuple[float, ...], Tuple[str, ...]]:
    """
    Return, per tensor copied onto 3 or more links over their bound, those too light too.

    The links declaring the tensor whose mass is below the density floor for their
    geometry: Romeo's 24 finger links declare 2e-06 kg and ixx=iyy=izz=1.1e-09, a
    placeholder <inertial> whole, which density-implausible said again beside the copied
    tensor's finding (sweep Q). Said in that finding, once (3 or more links).
    """
    key = ('light copies', None)
    if key not in ctx.memo:
        from urdf_link_tools.checks.density import density_verdict
        carriers = placeholder_carriers(ctx)

        def too_light(link: Link) -> bool:
            verdict = density_verdict(ctx, link)
            return verdict is not None and verdict.density < ctx.config.density_min
        found: Dict[Tuple[float, ...], Tuple[str, ...]] = {}
        for group, members in _exceeding(ctx).items():
            values = group[1:]
            if values in found or len(members) + sum(
                    1 for held in carriers.values() if held == values) < MODEL_WIDE_MIN:
                continue
            light = tuple(
                link.name for link in ctx.robot.links if link.inertial is not None
                and ctx.robot.link(link.name) is link
                and link.inertial.inertia.as_tuple() == values and too_light(link))
            if len(light) >= MODEL_WIDE_MIN:
                found[values] = light  # type: ignore[assignment]
        ctx.memo[key] = found
    return ctx.memo[key]  # type: ignore[return-value]


def placeholder_carriers(ctx: CheckContext) -> Dict[str, Tuple[float, ...]]:
    """
    Return the links that carry a copied placeholder tensor without being judged over it.

    A tensor copied onto 3 or more links that exceed their bounds is one placeholder
    (reported once by check_bounds); a link with the same six numbers whose bound could
    not be judged (its centre of mass outside its geometry) carries the same placeholder,
    and is listed in that finding rather than compared with its geometry on its own
    (r6bot: ixx=iyy=izz=1 on 7 links from one macro line, 4 over their bounds). So does a
    link within its bound (that of the body it is welded into) but more than
    inertia_mismatch_factor off its own collision geometry: Robotnik RB-1's ixx=iyy=izz=1
    on 6 links was an error on the one over its bound and a warning listing the other five.

    :return: link name -> the six numbers it shares
    """
    key = ('placeholder carriers', None)
    if key in ctx.memo:
        return ctx.memo[key]  # type: ignore[return-value]
    exceeding = _exceeding(ctx)
    judged = {link.name for members in exceeding.values() for link, _ in members}
    over: Dict[Tuple[object, ...], int] = {}
    for group, members in exceeding.items():
        over[group[1:]] = over.get(group[1:], 0) + len(members)
    candidates: Dict[str, Tuple[float, ...]] = {}
    for link in ctx.robot.links:
        inertial = link.inertial
        if inertial is None or link.name in judged:
            continue
        values = inertial.inertia.as_tuple()
        if values in over and (_centre_outside(ctx, link) or
                               off_own_geometry(ctx, link) is not None):
            candidates[link.name] = values
    # A placeholder from 3 links on, counting those over their bound and those carrying it
    # (Interbotix's grippers: 2 over, the third with its centre of mass off its body).
    counts: Dict[Tuple[float, ...], int] = {}
    for values in candidates.values():
        counts[values] = counts.get(values, 0) + 1
    carriers = {name: values for name, values in candidates.items()
                if over[values] + counts[values] >= MODEL_WIDE_MIN}
    ctx.memo[key] = carriers
    return carriers


def off_own_geometry(ctx: CheckContext, link: Link) -> Optional[float]:
    """
    Return how far a valid tensor is off its collision geometry's, when beyond the factor.

    As inertia-geometry-mismatch compares them (sorted principal moments), without its
    exceptions for a partial collision shape: for a link that carries a placeholder other
    links are over their bounds with. None when within the factor or not comparable.
    """
    declared = valid_tensor(ctx, link)
    expected = geometry_tensor(ctx, link) if declared is not None else None
    if declared is None or expected is None:
        return None
    off, _ = mismatch(declared.moments, principal_values(expected))
    return off if math.isfinite(off) and off > ctx.config.inertia_mismatch_factor else None


def _centre_outside(ctx: CheckContext, link: Link) -> bool:
    """Return True when the centre of mass lies outside its body's bounds, beyond tolerance."""
    bounds, known = body_extent(ctx, link)
    return known and not _too_small(bounds) and \
        _judged_centre(np.asarray(link.inertial.origin.xyz, dtype=float), bounds) is None


def slipped_centres(ctx: CheckContext) -> Dict[str, float]:
    """
    Return the links whose centre of mass outside their body is at a shared length slip.

    As com-outside-geometry groups them: 3 or more links whose centre of mass is one named
    factor times their geometry's centroid, or within it once divided by the factor their
    tensor shows squared (:func:`.slip_factor`). Link name -> the factor.
    """
    key = ('slipped centres', None)
    if key in ctx.memo:
        return ctx.memo[key]  # type: ignore[return-value]
    # (imported here: plausibility builds on this module)
    from urdf_link_tools.checks.plausibility import slip_factor
    slips: Dict[float, List[str]] = {}
    for link in ctx.robot.links:
        inertial = link.inertial
        if inertial is None or not is_finite(inertial.origin.xyz) or \
                not _centre_outside(ctx, link):
            continue
        factor = slip_factor(ctx, link)
        if factor is not None:
            slips.setdefault(factor, []).append(link.name)
    found = {name: factor for factor, names in slips.items()
             if len(names) >= MODEL_WIDE_MIN for name in names}
    ctx.memo[key] = found
    return found


def _distance_outside(ctx: CheckContext, link: Link) -> float:
    """Return how far (m) a carrier's centre of mass lies outside its body's bounds."""
    bounds, _ = body_extent(ctx, link)
    return distance_outside(np.asarray(link.inertial.origin.xyz, dtype=float), bounds)


def _too_small(bounds: Optional[Bounds]) -> bool:
    """Return True when a body's bounds are none or too small to bound its link's moments."""
    return bounds is None or float(np.linalg.norm(bounds[1] - bounds[0])) < MARKER_SIZE


def _outside(point: np.ndarray, bounds: Bounds) -> bool:
    # The same comparisons as NumPy's, with Python numbers (three of them).
    low, high = bounds[0].tolist(), bounds[1].tolist()
    return any(p < lo or p > hi for p, lo, hi in zip(point.tolist(), low, high))


def check_bounds(ctx: CheckContext) -> Iterator[Finding]:
    """
    Flag moments no body of the link's mass can have within its extent.

    One tensor copied onto several links (the same six numbers on every finger link) is a
    model-wide placeholder: reported once, listing the links, when 3 or more exceed (and
    the links that carry it without being judged, see :func:`placeholder_carriers`).
    Small parts welded to bodies they hardly change are said together (:func:`_fused_away`).
    """
    return iter(_fused_away(ctx, list(_bound_findings(ctx))))


def _fused_away(ctx: CheckContext, findings: List[Finding]) -> List[Finding]:
    """
    Say once the tensors over their bound on parts welded to bodies they hardly change.

    REEM-C's sensor frames (sonars, lasers, a camera, the hands' tool frames) carry generic
    tensors over what their geometry allows, each welded to a body whose largest moment it
    changes by under 10 %: four infos a robot for one habit (sweep Q). From 3 such
    findings, one info names every link; the tensors each would be given are kept.
    """
    def away(finding: Finding) -> bool:
        names = finding.links or ((finding.link,) if finding.link else ())
        return finding.rule == 'inertia-exceeds-extent' and \
            finding.severity == Severity.INFO and bool(names) and all(
                _changes_little(ctx, ctx.robot.link(name)) for name in names)
    together = [finding for finding in findings if away(finding)]
    if len(together) < MODEL_WIDE_MIN:
        return findings
    links = tuple(dict.fromkeys(name for finding in together
                                for name in (finding.links or (finding.link,))))
    suggested = tuple(
        pair for finding in together for pair in (
            finding.links_suggested_inertia or (
                ((finding.link, finding.suggested_inertia),)
                if finding.link and finding.suggested_inertia else ())))
    first = together[0]
    merged = ctx.finding(
        'inertia-exceeds-extent', Severity.INFO,
        f'{len(links)} links declare tensors beyond what their geometry allows, each welded '
        'to a body whose largest moment it changes by under 10 % (MuJoCo fuses and Gazebo '
        f'lumps fixed joints): {listed(links)}. Small parts (sensor and tool frames) given '
        f'generic tensors: no simulator feels them; {first.link or links[0]}: '
        f'{first.message}',
        element='inertial/inertia', line=first.line,
        suggestion="give each its real tensor when convenient (the collision geometry's at "
                   'uniform density is a start)',
        links=links, links_suggested_inertia=suggested)
    return [finding for finding in findings if finding not in together] + [merged]


def _changes_little(ctx: CheckContext, link: Optional[Link]) -> bool:
    """Return True for a link welded to a moving body it changes by under FUSED_AWAY."""
    if link is None or welded_to_world(ctx, link):
        return False
    growth = _welded_growth(ctx, link)
    return growth is not None and growth[1] < 1.0 + FUSED_AWAY


def _bound_findings(ctx: CheckContext) -> Iterator[Finding]:
    """Return check_bounds' findings, each tensor's and each copied tensor's."""
    groups: Dict[Tuple[object, ...], List[Finding]] = {}
    ranked: Dict[Tuple[object, ...], List[Tuple[Finding, float]]] = {}
    singles: List[Tuple[Link, Finding]] = []
    carriers = placeholder_carriers(ctx)
    masses = _placeholder_masses(ctx)
    yield from (_mass_finding(ctx, mass, members) for mass, members in masses.items())
    by_mass = {link.name for members in masses.values() for link, _ in members}
    # (imported here: plausibility builds on this module)
    from urdf_link_tools.checks.plausibility import about_link_origin, placeholder_inertials
    # tensors written about the link origin, and placeholder inertials: their rules say it
    by_mass.update(about_link_origin(ctx))
    by_mass.update(placeholder_inertials(ctx))
    exceeding = {key: [(link, found) for link, found in members if link.name not in by_mass]
                 for key, members in _exceeding(ctx).items()}
    per_tensor: Dict[Tuple[object, ...], int] = {}  # (whichever bound each member exceeds)
    for key, members in exceeding.items():
        per_tensor[key[1:]] = per_tensor.get(key[1:], 0) + len(members)
    for key, members in exceeding.items():
        if not members:
            continue
        # A placeholder copied onto many links gets one suggestion, not one per link.
        alone = per_tensor[key[1:]] + sum(1 for values in carriers.values()
                                          if values == key[1:]) < MODEL_WIDE_MIN
        findings = [_finding(ctx, link, found, alone) for link, found in members]
        if alone:
            singles.extend(zip((link for link, _ in members), findings))
            continue
        # One tensor is one group whichever rule its links break (MuSHR's ixx=iyy=izz=1 on
        # 11 links was an inertia-exceeds-extent error and an inertia-exceeds-robot warning,
        # sweep V).
        ranked.setdefault(key[1:], []).extend(
            (finding, found.moment / found.bound if found.bound > 0.0 else math.inf)
            for finding, (_, found) in zip(findings, members))
    for tensor, members_found in ranked.items():
        # The example is the worst member (the most severe, then the furthest over its
        # bound): PR2's copied 0.01 tensor was shown on a camera that barely matters.
        worst = min(members_found, key=lambda item: (-int(item[0].severity), -item[1]))[0]
        groups[(worst.rule,) + tensor] = [worst] + [finding for finding, _ in members_found]
    figure, singles = _schematic(ctx, singles)
    if figure:
        yield _figure_finding(ctx, figure)
    singles = yield from _by_diagonal(ctx, singles)
    systematic, singles = _systematic(ctx, singles)
    if systematic:
        yield _systematic_finding(ctx, systematic)
    yield from (finding for _, finding in singles)
    listed_carriers = set()
    # the links over a bound, per tensor, whichever rule (extent or robot) they are in
    over: Dict[Tuple[float, ...], set] = {}
    for key, (_, *findings) in groups.items():
        over.setdefault(key[1:], set()).update(finding.link for finding in findings)
    for key, (first, *findings) in groups.items():
        links = tuple(finding.link for finding in findings)
        also = tuple(name for name, values in carriers.items()
                     if values == key[1:] and name not in listed_carriers)
        listed_carriers.update(also)
        values = fmt_inertia(key[1:])
        count = len(links) + len(also)
        # What the suggestion asks for, per link (--fix-inertia writes it on each): a link
        # is in one group only (its six numbers), so each is suggested once.
        own = []
        for name in links + also:
            tensor, _ = suggest(ctx, ctx.robot.link(name), None, 'the declared tensor')
            if tensor is not None:
                own.append((name, inertia_values(tensor)))
        # How far outside, so that a few millimetres (within com-outside-geometry's
        # tolerance, no finding of its own) read as what they are (TIAGo's thumb: 8 mm).
        outside = tuple(name for name in also if _centre_outside(ctx, ctx.robot.link(name)))
        slipped = slipped_centres(ctx)
        bare = {name for name in outside if _drawn_elsewhere(ctx.robot.link(name))}
        carried = ''
        for names, why in (
                (tuple(name for name in outside if name not in slipped and name not in bare),
                 'within the looser bound about the declared centre of mass, which lies '
                 'outside the geometry, by '),
                (tuple(name for name in outside if name in bare and name not in slipped),
                 'not judged by its bound: no geometry of its own, its centre of mass outside '
                 "its body's, by "),
                (tuple(name for name in outside if name in slipped),
                 'not judged by its bound: the centre of mass lies outside the geometry, at '
                 'a length slip, by ')):
            away = [_distance_outside(ctx, ctx.robot.link(name)) for name in names]
            carried += (f'; {listed(names)} {"carries" if len(names) == 1 else "carry"} it '
                        f'too ({why}' + ', '.join(fmt(value * 1000.0, 3) for value in away)
                        + ' mm)' if names else '')
        off = tuple(name for name in also if name not in outside)
        factors = [off_own_geometry(ctx, ctx.robot.link(name)) or math.nan for name in off]
        carried += (f'; {listed(off)} {"carries" if len(off) == 1 else "carry"} it too '
                    '(within the bound of the body each is in, but off its collision geometry '
                    'by ' + ', '.join(f'{fmt(value, 3)}x' for value in factors) + ')'
                    if off else '')
        # Every link that declares it is counted (KHI's RS080N: 7 links, of which the
        # heaviest three are within their bound, read "4 links declare the same tensor").
        declared = tuple(link.name for link in ctx.robot.links
                         if link.inertial is not None and ctx.robot.link(link.name) is link
                         and link.inertial.inertia.as_tuple() == key[1:])
        within = tuple(name for name in declared
                       if name not in over[key[1:]] and name not in carriers)
        inside = (f'; {listed(within)} {"declares" if len(within) == 1 else "declare"} it '
                  'too' if within else '')
        total = max(count, len(declared))
        light = light_copies(ctx).get(key[1:], ())  # type: ignore[call-overload]
        masses = sorted({ctx.robot.link(name).mass for name in light})
        light_text = (
            f'; {len(light)} of them also declare '
            + (f'one mass, {fmt(masses[0])} kg,' if len(masses) == 1 else 'masses')
            + f' too light for their geometry (below {fmt(ctx.config.density_min)} kg/m^3): '
            'the whole <inertial> is a placeholder' if light else '')
        yield ctx.finding(
            first.rule, max(finding.severity for finding in findings),
            f'{total} links declare the same tensor ({values}), copied (a '
            "placeholder, or one part's tensor on its copies), and on "
            + ('each' if len(links) == total else f'{len(links)}')
            + f' it exceeds what the link can have ({listed(links)}){carried}{inside}'
            f'{light_text}; {first.link}: {first.message}',
            element='inertial/inertia', line=first.line,
            suggestion="compute each listed link's tensor from its CAD model or geometry (the "
                       "collision geometry's tensor at uniform density is a start; "
                       + _written_on(own, links + also) + ')' if own else
                       "compute each listed link's tensor from its CAD model or geometry",
            values=(('links', listed(links + also)), ('count', count)) + first.values,
            links=links + also,
            links_suggested_inertia=own)


#: up to this many times its bound, a tensor over a schematic figure's shape is the part's
SCHEMATIC_MAX = 5.0


def _schematic(ctx: CheckContext, singles: List[Tuple[Link, Finding]]) \
        -> Tuple[List[Finding], List[Tuple[Link, Finding]]]:
    """
    Split off the tensors over their bound because the robot's shapes are a schematic figure.

    NAO V32's generated URDF draws and collides every part as a primitive: its torso a
    15 mm cylinder, its head a 4 cm one, and the manufacturer's tensors exceed what a body
    inside them can have (torso 3.5x, head 2.3x, thighs 1.7x): four errors whose fixes
    were the thin cylinders' tensors. A robot with no mesh whose tensors are over their
    bound by at most :data:`SCHEMATIC_MAX` on 3 links or more is one design choice, said
    once, with no tensor for --fix-inertia to write (which side is wrong is the user's call).

    :return: the findings of such a figure (none when the robot is not one), the rest
    """
    shapes = [element.geometry for link in ctx.robot.links
              for element in link.visuals + link.collisions if element.geometry is not None]
    if not shapes or any(isinstance(shape, Mesh) for shape in shapes):
        return [], singles
    figure = [finding for _, finding in singles
              if finding.rule == 'inertia-exceeds-extent' and finding.severity > Severity.INFO
              and 0.0 < _over(finding) <= SCHEMATIC_MAX]
    if len(figure) < MODEL_WIDE_MIN or _distinct_tensors(singles, figure) < MODEL_WIDE_MIN:
        return [], singles
    return figure, [(link, finding) for link, finding in singles if finding not in figure]


def _over(finding: Finding) -> float:
    """Return how many times its bound an exceeds-extent finding's moment is (inf: unsaid)."""
    return float(dict(finding.values).get('over', math.inf))


def _distinct_tensors(singles: List[Tuple[Link, Finding]], findings: List[Finding]) -> int:
    """
    Return how many parts of their own the findings' links are, by their principal moments.

    Not one part's tensor on its mirrors and copies (Mini Pupper's four legs: one pasted
    tensor, which the mirror findings say as such).
    """
    links = {link.name: link for link, _ in singles}
    return len({tuple(sorted(f'{value:.4g}' for value in principal_values(
        links[str(finding.link)].inertial.inertia.as_matrix()))) for finding in findings})


#: errors over their bound by factors within this ratio of each other are one fault
SYSTEMATIC_SPREAD = 10.0
#: and each at least this many times its bound (a few times over is a fault of its own)
SYSTEMATIC_MIN = 5.0


def _systematic(ctx: CheckContext, singles: List[Tuple[Link, Finding]]) \
        -> Tuple[List[Finding], List[Tuple[Link, Finding]]]:
    """
    Split off the tensors over their bound by one order of excess on most of the robot.

    orcahand v2 (sweep L): 17 errors per hand, each tensor 3,400 to 11,500 times its bound
    (radii of gyration of 1.3 to 3.9 m in a hand), one export's fault said 17 times; JAKA's
    Zu arms, every tensor 6 to 11 times its geometry's. Errors on 3 links or more, at least
    half of the links with mass, whose excess factors lie within :data:`SYSTEMATIC_SPREAD`
    of each other, are one finding that keeps each link's fix.

    :return: the findings of such a fault (none when there is none), the rest
    """
    errors = [finding for _, finding in singles
              if finding.rule == 'inertia-exceeds-extent' and finding.severity == Severity.ERROR
              and math.isfinite(_over(finding))]
    if len(errors) < MODEL_WIDE_MIN:
        return [], singles
    overs = [_over(finding) for finding in errors]
    massive = sum(1 for link in ctx.robot.links if link.inertial is not None and link.mass > 0)
    if max(overs) > SYSTEMATIC_SPREAD * min(overs) or 2 * len(errors) < massive or \
            min(overs) < SYSTEMATIC_MIN or _distinct_tensors(singles, errors) < MODEL_WIDE_MIN:
        return [], singles
    return errors, [(link, finding) for link, finding in singles if finding not in errors]


def _systematic_finding(ctx: CheckContext, errors: List[Finding]) -> Finding:
    """Return the one finding of tensors over their bounds by one order of excess."""
    first = max(errors, key=_over)
    links = tuple(finding.link for finding in errors if finding.link)
    overs = [_over(finding) for finding in errors]
    gyration = [float(dict(finding.values)['radius_of_gyration']) for finding in errors]
    return ctx.finding(
        'inertia-exceeds-extent', Severity.ERROR,
        f'{len(links)} links declare tensors {_factors(overs)}x over what a body inside '
        f'their geometry can have (radii of gyration {fmt_range(gyration, 3)} m), the same '
        f'order of excess on most of the robot ({listed(links)}): one fault of how the '
        'tensors were made (an export in other units, or about another point), not one per '
        f'part; the worst, {first.link}: {first.message}',
        element=first.element, line=first.line,
        suggestion=(f'export the tensors again (kg m^2, about each centre of mass), or each '
                    f'link its own; for {first.link}: {first.suggestion}'
                    if first.suggestion else 'export the tensors again (kg m^2, about each '
                    'centre of mass)'),
        values=(('count', len(links)),) + first.values, links=links,
        links_suggested_inertia=[(finding.link, finding.suggested_inertia)
                                 for finding in errors if finding.link is not None
                                 and finding.suggested_inertia is not None])


def _factors(values: List[float]) -> str:
    """Format a range of factors, thousands with separators (3,394 to 11,523)."""
    low, high = (f'{value:,.0f}' if value >= 1000.0 else fmt(value, 3)
                 for value in (min(values), max(values)))
    return low if low == high else f'{low} to {high}'


def _figure_finding(ctx: CheckContext, figure: List[Finding]) -> Finding:
    """Return the one finding of tensors over the shapes of a schematic figure."""
    first = max(figure, key=_over)
    links = tuple(finding.link for finding in figure if finding.link)
    overs = [_over(finding) for finding in figure]
    shaped = "its shape's tensor"
    return ctx.finding(
        'inertia-exceeds-extent', Severity.WARNING,
        f'{len(links)} links declare tensors over what a body inside their shapes can have, '
        f'by {fmt_range(overs, 3)}x ({listed(links)}), and every shape of the robot is a '
        'primitive (no mesh): a schematic figure (thin cylinders and boxes for its parts) '
        'smaller than the parts, or tensors too large for parts that size; the worst, '
        f'{first.link}: {first.message}',
        element=first.element, line=first.line,
        suggestion=("if the tensors are the parts' (CAD, the manufacturer's), keep them and "
                    'give the links collision shapes the size of the parts (planners and '
                    'simulators collide the shapes as written; meshes give the checker the '
                    "parts' extent); if the shapes are the parts, each tensor is too large "
                    f'(for {first.link}: {first.suggestion or shaped}); '
                    '--fix-inertia leaves them'),
        values=(('count', len(links)),) + first.values, links=links)


def _by_diagonal(ctx: CheckContext, singles: List[Tuple[Link, Finding]]) \
        -> Generator[Finding, None, List[Tuple[Link, Finding]]]:
    """
    Yield the findings of 3 or more tensors of one placeholder diagonal as one; return the rest.

    iCub's Gazebo model: ixx = iyy = izz = 0.01 on 18 links, each with the products of its
    CAD tensor: one placeholder written over the moments, one finding.
    """
    diagonals: Dict[Tuple[str, str, float], List[Tuple[Link, Finding]]] = {}
    rest: List[Tuple[Link, Finding]] = []
    for link, finding in singles:
        # To 9 significant digits: an exporter's arithmetic leaves izz="0.009999999999999998"
        # beside ixx="0.01" (iCub V2_10's shoulders, elbows and wrists escaped the group).
        ixx, _, _, iyy, _, izz = (float(f'{value:.9g}') if math.isfinite(value) else value
                                  for value in link.inertial.inertia.as_tuple())
        if ixx == iyy == izz:
            diagonals.setdefault((finding.rule, 'ixx = iyy = izz', ixx), []).append(
                (link, finding))
            continue
        # Two moments a placeholder, the third computed (duAro's macro: ixx="1" iyy="1"
        # izz="${Izz+length*length*mass}" on 4 links, 4 errors of one line).
        pair = next(((names, first) for names, first, second in (
            ('ixx = iyy', ixx, iyy), ('ixx = izz', ixx, izz), ('iyy = izz', iyy, izz))
            if first == second), None)
        if pair is not None:
            diagonals.setdefault((finding.rule,) + pair, []).append((link, finding))
        else:
            rest.append((link, finding))
    # Moments equal on each link and proportional to its mass, one factor for all (dVRK's
    # MTM, sweep N: I = 10 m on four links, a radius of gyration of 3.16 m on each; four
    # findings): one placeholder scheme.
    per_kg: Dict[float, List[Tuple[Link, Finding]]] = {}
    for key in [key for key, members in diagonals.items()
                if key[1] == 'ixx = iyy = izz' and len(members) < MODEL_WIDE_MIN]:
        for link, finding in diagonals[key]:
            if link.mass > 0.0 and math.isfinite(link.mass):
                per_kg.setdefault(float(f'{key[2] / link.mass:.6g}'), []).append(
                    (link, finding))
    for factor, members in per_kg.items():
        if len(members) < MODEL_WIDE_MIN:
            continue
        taken = {id(finding) for _, finding in members}
        for key in diagonals:
            diagonals[key] = [member for member in diagonals[key]
                              if id(member[1]) not in taken]
        yield from grouped(ctx, [finding for _, finding in members],
                           f'links declare ixx = iyy = izz = {fmt(factor)} x their mass (a '
                           f'radius of gyration of {fmt(math.sqrt(factor), 3)} m on each: a '
                           'placeholder scheme, I = k m), and on each it exceeds what the '
                           'link can have', own_fixes=True)
    for (_, names, value), members in diagonals.items():
        if not members:
            continue
        if len(members) < MODEL_WIDE_MIN:
            rest.extend(members)
            continue
        findings = [finding for _, finding in members]
        third = {'ixx = iyy': 'izz', 'ixx = izz': 'iyy', 'iyy = izz': 'ixx'}.get(names)
        own = f'{third} and products' if third else 'products'
        yield from grouped(ctx, findings, f'links declare the same moments, {names} = '
                           f'{fmt(value)}, each with {own} of its own (a placeholder written '
                           'over the tensors), and on each it exceeds what the link can have',
                           own_fixes=True)
    return rest


def _face_axes(link: Link, lo: np.ndarray, hi: np.ndarray) -> List[int]:
    """
    Return the axes on which the declared centre of mass lies on the body's box.

    On it within :data:`ON_BOUNDARY`: a part turned by a rounded quarter turn (rpy
    1.57075, everywhere in URDFs) moves its end face by a fraction of a micrometre (r2d2's
    gripper pole: 0.46 um past the link origin it was meant to start at).
    """
    com = link.inertial.origin.xyz
    return [axis for axis in range(3) if hi[axis] - lo[axis] > 2.0 * ON_BOUNDARY
            and (abs(com[axis] - lo[axis]) <= ON_BOUNDARY
                 or abs(com[axis] - hi[axis]) <= ON_BOUNDARY)]


#: metres: a centre of mass this close outside its body's box lies on its boundary
ON_BOUNDARY = 1e-6


def _on_face(link: Link, lo: np.ndarray, hi: np.ndarray) -> str:
    """
    Say so when the declared centre of mass lies on a face of the body's box (or an edge).

    Bullet's quadruped: no <origin> in the lower legs' <inertial>, so the centre of mass is
    the link origin, at the end of a leg that runs from z = 0 to 0.2 m: the bound about it
    is tiny on two axes, and the origin is the likelier fault. ROBOTIS OP2's arm links: the
    origin at the corner of the part's box (on an edge: its x and y minimum).
    """
    com = link.inertial.origin.xyz
    faces = _face_axes(link, lo, hi)
    if not faces:
        return ''
    where = ' and '.join(
        f'{"xyz"[axis]} '
        f'{"minimum" if abs(com[axis] - lo[axis]) <= abs(com[axis] - hi[axis]) else "maximum"}'
        for axis in faces)
    written = 'has no <origin>, so it is' if link.inertial.origin.line is None else 'is'
    return (f' (the centre of mass lies on {("a face", "an edge", "a corner")[len(faces) - 1]} '
            f'of that box, at its {where}: the <inertial> {written} at '
            f'xyz="{fmt_vector(com)}"; a part\'s centre of mass lies inside it)')


def _written_on(own: List[Tuple[str, object]], names: Tuple[str, ...]) -> str:
    """Say on which of the listed links --fix-inertia writes a tensor (all, or which not)."""
    fixed = {name for name, _ in own}
    left = tuple(name for name in names if name not in fixed)
    if not left:
        return '--fix-inertia writes it on each'
    return (f'--fix-inertia writes it on {len(fixed)} of them; not on {listed(left)}, for '
            'which no tensor that passes every rule can be derived from the geometry: check '
            'their centres of mass')


#: Units a tensor is exported in by mistake, by how many times kg m^2 they read larger.
UNIT_SLIPS = ((1e4, 'kg cm^2'), (1e6, 'kg mm^2'), (1e7, 'g cm^2'), (1e9, 'g mm^2'))
#: how far from the collision geometry's largest moment the rescaled tensor may be
UNIT_SLIP_SPREAD = 10.0


def _unit_slip(ctx: CheckContext, link: Link, found: Excess) -> Optional[Tuple[object, str]]:
    """
    Return the tensor in kg m^2 and the fix, when it was written in another unit; else None.

    ROBOTIS AI Worker's base: 1.19e6, 1.09e6 and 4.49e5 for 54 kg, in kg mm^2 (a CAD
    export's unit). Named for a tensor of unequal moments over its bound by at least a
    hundredth of the factor, when one unit's factor brings the moments within the bound
    and to within 10x of the collision geometry's (the first such unit, the smallest
    factor: the bound is the most any body can have, so a smaller factor would leave it
    impossible).
    """
    values = link.inertial.inertia.as_tuple()
    if values[0] == values[3] == values[5]:
        return None  # equal moments are a placeholder (ixx=iyy=izz=1), not an export
    expected = geometry_tensor(ctx, link)
    if expected is None:
        return None
    want = float(principal_values(expected)[-1])
    declared = ctx.tensor(link)
    have = float(declared.moments[-1])
    if not (want > 0.0 and have > 0.0):
        return None
    for factor, unit in UNIT_SLIPS:
        # over its bound by a good share of the factor: not a tensor a few times too big
        if found.moment / factor <= found.bound <= found.moment * 100.0 / factor and \
                max(have / factor / want, want * factor / have) <= UNIT_SLIP_SPREAD:
            scaled = declared.matrix / factor
            return scaled, (f'the tensor reads as written in {unit}: divided by '
                            f'{factor:,.0f} (to kg m^2) it is within its bound and '
                            f"{fmt(have / factor / want, 3)}x the collision geometry's largest "
                            f'moment at this mass: {fmt_inertia(inertia_values(scaled))}')
    return None


def _turned_frame(ctx: CheckContext,
                  link: Link) -> Optional[Tuple[Optional[np.ndarray], str]]:
    """
    Return the tensor turned onto its geometry's axes and the fix, when its frame is turned.

    (None, '') when the moments are the geometry's on other axes, but no quarter or half
    turn puts them on its axes: the geometry's own tensor stays the fix.

    KUKA KR 210 R2700-2's link_3 declares (3.60, 21.8, 21.4) kg m^2 where its collision
    mesh gives (22.1, 2.04, 22.2): the geometry's moments about other axes (the inertial rpy
    turned 90 degrees about z), 1.51x over its bound about y, and said to be "the tensor of
    a shape larger than the part".
    """
    declared = ctx.tensor(link)
    turned = turned_onto_geometry(ctx, link, declared)
    if turned is None:
        return None
    if not turned.fit <= AXES_SAME:
        return None, ''  # said so; the geometry's tensor is the fix (the part stands askew)
    tensor = turned.turn @ declared.matrix @ turned.turn.T
    return tensor, (f"the moments are the collision geometry's (within {fmt(turned.off, 3)}x) "
                    f'about other axes, {fmt(turned.apart, 3)}x off about its own: the '
                    f'inertial frame looks turned; turned {axis_words(turned.turn)}, the '
                    f'tensor fits them within {fmt(turned.fit, 3)}x: '
                    f'{fmt_inertia(inertia_values(tensor))} (in the same inertial frame), or '
                    'fix the rpy of the inertial origin')


#: A tensor this many times over its link's bound needs a body this many times heavier.
PLACEHOLDER_MASS_FACTOR = 10.0


def placeholder_mass_values(ctx: CheckContext) -> FrozenSet[float]:
    """Return the masses said to be placeholders shared by several links."""
    return frozenset(_placeholder_masses(ctx))


def placeholder_mass_links(ctx: CheckContext) -> FrozenSet[str]:
    """Return the links whose one shared mass is said to be the placeholder (not the tensors)."""
    return frozenset(link.name for members in _placeholder_masses(ctx).values()
                     for link, _ in members)


def _placeholder_masses(ctx: CheckContext) -> Dict[float, List[Tuple[Link, Excess]]]:
    """
    Return the links over their bound that share one mass and not one tensor, by mass.

    Piper's 9 links: 1e-5 kg each with the CAD export's tensors (0.03 to 0.3 kg parts).
    From 3 links, all over their bound by :data:`PLACEHOLDER_MASS_FACTOR` or more, with 2
    or more different tensors, none of three equal moments (a placeholder tensor): the
    mass is the placeholder, and shrinking every tensor to fit it (what a per-link
    suggestion would do) would throw the right numbers away.
    """
    key = ('placeholder masses', None)
    if key not in ctx.memo:
        by_mass: Dict[float, List[Tuple[Link, Excess]]] = {}
        for members in _exceeding(ctx).values():
            for link, found in members:
                values = link.inertial.inertia.as_tuple()
                # Equal moments (ixx = iyy = izz: 0.001 on PR2's and TIAGo's frames) are a
                # placeholder tensor themselves: those stay with the tensor's own rules.
                if not found.of_robot and found.bound > 0.0 and \
                        not values[0] == values[3] == values[5]:
                    by_mass.setdefault(link.mass, []).append((link, found))
        order = {id(link): index for index, link in enumerate(ctx.robot.links)}
        ctx.memo[key] = {
            mass: sorted(members, key=lambda item: order[id(item[0])])
            for mass, members in by_mass.items()
            if len(members) >= MODEL_WIDE_MIN
            and len({link.inertial.inertia.as_tuple() for link, _ in members}) > 1
            and all(found.moment >= PLACEHOLDER_MASS_FACTOR * found.bound
                    for _, found in members)}
    return ctx.memo[key]  # type: ignore[return-value]


def _mass_finding(ctx: CheckContext, mass: float,
                  members: List[Tuple[Link, Excess]]) -> Finding:
    """Return the one finding of a mass copied onto links whose tensors need more."""
    links = tuple(link.name for link, _ in members)
    # The bound grows with the mass: the tensor fits a body of mass * moment / bound.
    needed = [mass * found.moment / found.bound for _, found in members]
    severity = max(_finding(ctx, link, found, False).severity for link, found in members)
    least = ', '.join(f'{name} {fmt(value, 3)} kg' for name, value in zip(links, needed))
    first = members[0][0].inertial
    # The same mass on links whose tensor another rule refuses (Barrett WAM's wrist_yaw_link:
    # 1e-4 kg, a product pasted from a moment): the placeholder too, named here (its
    # density, 0.54 kg/m^3, is not said again).
    also = tuple(link.name for link in ctx.robot.links if link.inertial is not None
                 and link.mass == mass and link.name not in links)
    return ctx.finding(
        'inertia-exceeds-extent', severity,
        f'{len(links)} links declare the same mass, {fmt(mass)} kg, with different tensors '
        f'that only bodies of {fmt(min(needed), 3)} to {fmt(max(needed), 3)} kg or more can '
        f'have inside their geometry ({listed(links)}): the mass is the placeholder, not '
        'the tensors (a default mass kept while the tensors came from the CAD model)'
        + (f'; {listed(also)} declare{"s" if len(also) == 1 else ""} it too' if also else ''),
        element='inertial/mass', line=first.mass_line or first.line,
        suggestion="write each link's real mass (the CAD model's, with which its tensor was "
                   f'computed); at least: {least}. Shrinking the tensors to the placeholder '
                   'mass would lose them (--fix-inertia leaves them)',
        values=(('mass', mass), ('count', len(links)), ('links', listed(links)),
                ('least_masses_kg', ' '.join(fmt(value, 3) for value in needed))),
        links=links)


def _limits(mass: float, centre: np.ndarray, bounds: Bounds) -> np.ndarray:
    """Return the largest moment about each axis: all the mass at the box's corners."""
    lo, hi = bounds
    variance = (centre - lo) * (hi - centre)
    return mass * (variance.sum() - variance)


def _drawn_elsewhere(link: Link) -> bool:
    """
    Return True for a link without geometry of its own: the box it is judged in is not its.

    A centre of mass outside the geometry of the body it is welded into then says nothing of
    the link's own extent: Drake's atlas_minimal_contact draws no hand, and the 0.58 kg
    'l_hand' would be judged in the 1 cm box of the force-torque sensor welded to it, 38 mm
    from its centre of mass; iCub's root 'base_link' (1e-6 kg) in the pelvis it is welded to.
    """
    return not link.visuals and not link.collisions


def _farthest_limits(mass: float, centre: np.ndarray, bounds: Bounds) -> np.ndarray:
    """
    Return the largest moment about each axis through a point anywhere, inside or not.

    All the mass at the box's corner farthest from the axis: m (D_y + D_z) about x, with
    D_k = max((c_k - lo_k)^2, (hi_k - c_k)^2). No body inside the box has more about that
    axis, nor about the parallel axis through its own centre of mass (the least of all).
    """
    lo, hi = bounds
    reach = np.maximum((centre - lo) ** 2, (hi - centre) ** 2)
    return mass * (reach.sum() - reach)


def moment_limits(ctx: CheckContext, link: Link) -> Optional[np.ndarray]:
    """
    Return the largest moments the link can have about its own axes, this rule's margin in.

    All the mass at the corners of its body's box, about the declared centre of mass; None
    when the extent is unknown, too small to judge (this rule then compares with the whole
    robot) or the centre of mass lies outside it (com-outside-geometry says so).
    """
    key = ('moment-limits', id(link))
    if key not in ctx.memo:
        ctx.memo[key] = _moment_limits(ctx, link)
    return ctx.memo[key]  # type: ignore[return-value]


def _moment_limits(ctx: CheckContext, link: Link) -> Optional[np.ndarray]:
    inertial = link.inertial
    if inertial is None or not (math.isfinite(link.mass) and link.mass > 0.0) or \
            not is_finite(inertial.origin.xyz + inertial.origin.rpy):
        return None
    bounds, known = body_extent(ctx, link)
    if not known or bounds is None or \
            float(np.linalg.norm(bounds[1] - bounds[0])) < MARKER_SIZE:
        return None
    judged = _judged_centre(np.asarray(inertial.origin.xyz, dtype=float), bounds)
    if judged is None:
        return None
    return _limits(link.mass, judged[0], bounds) * MARGIN


def fitting_box(ctx: CheckContext, link: Link) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """
    Return the largest solid box about the declared centre of mass inside the body's box.

    :return: its tensor (inertial frame) and half sides; None when there is no such box
    """
    if moment_limits(ctx, link) is None:
        return None
    bounds, _ = body_extent(ctx, link)
    centre = np.asarray(link.inertial.origin.xyz, dtype=float)
    half = np.minimum(centre - bounds[0], bounds[1] - centre)
    if np.count_nonzero(half > 0.0) < 2:
        return None
    square = half * half
    rotation = rpy_to_matrix(link.inertial.origin.rpy)
    box = np.diag(link.mass / 3.0 * (square.sum() - square))
    return rotation.T @ box @ rotation, half


def _where_centre(link: Link, found: Excess, lo: np.ndarray, hi: np.ndarray) -> str:
    """Say where the bound was taken when the declared centre of mass is not inside the box."""
    if found.outside >= ON_BOUNDARY:
        return (f' (about their centre: the declared centre of mass lies '
                f'{fmt(found.outside * 1000.0, 3)} mm outside them)')
    if found.outside > 0.0:
        return (' (the declared centre of mass lies on the boundary of that box, within '
                "a micrometre; a part's centre of mass lies inside it)")
    return _on_face(link, lo, hi)


def _about_centroid(ctx: CheckContext, link: Link) -> str:
    """
    Say where to move the origin when the geometry's tensor passes about its centroid.

    No tensor about a centre of mass on the body's boundary passes the bound (the mass
    would all lie on that face); the geometry's does about the geometry's centroid, where
    the part's centre of mass most likely is (r2d2's gripper pole, the link origin at its
    end; a visual-only gripper's fingers, on an edge): both are written by hand,
    --fix-inertia changing tensors only.
    """
    model, _ = ctx.collision_model(link)
    tensor, which = geometry_tensor(ctx, link), 'collision'
    if model is None or tensor is None:
        model, _ = ctx.visual_model(link)
        visual = visual_tensor(ctx, link) if model is not None else None
        if model is None or visual is None:
            return ''
        tensor, which = visual[0], 'visual'
    key = ('moved-to-centroid', id(link))
    if key not in ctx.memo:  # kept: memos of its own are keyed by its id
        origin = replace(link.inertial.origin, xyz=tuple(float(v) for v in model.centre))
        ctx.memo[key] = replace(link, inertial=replace(link.inertial, origin=origin))
    if problem(ctx, ctx.memo[key], tensor,  # type: ignore[arg-type]
               tensor if which == 'collision' else None):
        return ''
    return (f"move the <inertial> origin to the {which} geometry's centroid, "
            f'xyz="{fmt_vector(model.centre)}", about which its tensor at uniform density '
            f'passes every inertia rule: {fmt_inertia(inertia_values(tensor))} (write both '
            'by hand: --fix-inertia changes tensors only)')


def _about_declared(found: Excess, others: str) -> str:
    """Say the looser bound about a declared centre of mass outside the box, and its number."""
    lo, hi = found.bounds
    return (f': at most m ({others}) = {fmt(found.bound)} kg m^2 about the declared centre '
            f'of mass, which lies {fmt(found.outside * 1000.0, 3)} mm outside the geometry '
            f'({fmt_vector(lo, 3)} to {fmt_vector(hi, 3)} m), with all the mass at its '
            'corners farthest from that axis (D_k: the squared distance along k of the '
            "farthest corner); a part's own centre of mass, inside, has less still")


def _finding(ctx: CheckContext, link: Link, found: Excess, suggesting: bool = True) -> Finding:
    axis = 'xyz'[found.axis]
    others = ' + '.join(f'{"D" if found.about_declared else "V"}_{a}'
                        for a in 'xyz' if a != axis)
    lo, hi = found.bounds
    gyration = math.sqrt(found.moment / link.mass)
    over = found.moment / found.bound if found.bound > 0.0 else math.inf
    turned: Optional[Tuple[Optional[np.ndarray], str]] = None
    if found.of_robot:
        size = float(np.linalg.norm(hi - lo))
        claim = (f'larger than the whole robot ({fmt(size, 3)} m across at its zero '
                 'configuration; the link has no geometry of 1 cm or more): no part of it '
                 f'has a radius of gyration over {fmt(size, 3)} m')
    else:
        turned = _turned_frame(ctx, link) if suggesting else None
        claim = (f'more than any {fmt(link.mass)} kg body inside the visual and collision '
                 f'geometry of its body can have'
                 + (f" ({fmt(over, 3)}x: the collision geometry's moments, on other axes)"
                    if turned is not None else
                    f' ({fmt(over, 3)}x: the tensor of a shape larger than the part, or '
                    'parts the meshes leave out?)' if over < CLEAR_EXCESS else '')
                 + (_about_declared(found, others) if found.about_declared else
                    f': at most m ({others}) = {fmt(found.bound)} '
                    f'kg m^2 with all the mass at the corners of {fmt_vector(lo, 3)} to '
                    f'{fmt_vector(hi, 3)} m'
                    + _where_centre(link, found, lo, hi)))
    rule = 'inertia-exceeds-robot' if found.of_robot else 'inertia-exceeds-extent'
    growth = _welded_growth(ctx, link)
    fused_away = growth is not None and growth[1] < 1.0 + FUSED_AWAY
    grounded = welded_to_world(ctx, link)
    # Up to CLEAR_EXCESS over the bound, a coarser shape's tensor (a cylinder around the
    # part, UR3e's wrist 2 at 1.20x) or parts the meshes leave out: a warning.
    severity = Severity.INFO if fused_away or grounded else (
        Severity.WARNING if found.of_robot or over < CLEAR_EXCESS else Severity.ERROR)
    effect = ''
    if grounded:
        effect = grounded_effect(ctx, link)
    elif growth is not None and not growth[2] and \
            link.mass >= 0.5 * ctx.lumped_mass(ctx.weld_top(link.name)):
        # Most of the body it is welded into is itself (Neobotix MP-500's base_link under a
        # massless base_footprint): the body's moment is its own, nothing more to say (but
        # copies of one placeholder tensor welded together are said: PR2's finger tips).
        effect = ''
    elif growth is not None:
        effect = (f"; it is welded to '{growth[0]}' (MuJoCo fuses and Gazebo lumps fixed "
                  'joints) and ' + (
                      f'multiplies the largest moment of that body by {fmt(growth[1], 3)}'
                      + (f' (with the {growth[2]} other welded '
                         f'link{"s" if growth[2] > 1 else ""} carrying the same tensor)'
                         if growth[2] else '')
                      if growth[1] >= 1.0 + FUSED_AWAY else
                      'changes the largest moment of that body by under 10 %'))
    tensor, text = suggest(ctx, link, None, 'the declared tensor') if suggesting else \
        (None, '')
    unit = _unit_slip(ctx, link, found) if suggesting and not found.of_robot else None
    if unit is not None:
        tensor, text = unit
    elif turned is not None and turned[0] is not None:
        tensor, text = turned
    if suggesting and not found.of_robot and found.outside == 0.0 and \
            'inertial origin' not in text and _face_axes(link, lo, hi):
        # The origin left at the part's end or corner is the likelier fault (OP2's arms).
        text += ('; the centre of mass on the boundary of the body is the likelier fault: '
                 + ((_about_centroid(ctx, link) if tensor is None else '')
                    or "move the <inertial> origin into the part (its box's centre is at "
                    f'xyz="{fmt_vector((lo + hi) / 2.0)}")'))
    if suggesting and not found.of_robot and unit is None:
        from urdf_link_tools.checks.plausibility import origin_note  # (it imports this module)
        text += origin_note(ctx, link)
        text += _stability_note(ctx, link, found)
    light = light_placeholder(ctx, link) if suggesting else None
    if light is not None:
        # One fault said once: the density rule said "1e-05 kg ... 0.0025 kg/m^3" beside it
        # (Barrett WAM's racquet, Robotino's command bridge, Braccio's gripper).
        density = light[0]
        needed = link.mass * found.moment / found.bound
        effect += (f'; its mass is also far too light for its geometry ({fmt(density)} '
                   'kg/m^3): a placeholder mass, not the tensor (which fits a body of '
                   f'{fmt(needed, 3)} kg or more)')
        tensor, text = None, (f"write the link's real mass (the CAD model's, with which its "
                              f'tensor was computed; at least {fmt(needed, 3)} kg). Shrinking '
                              'the tensor to the placeholder mass would lose it (--fix-inertia '
                              'leaves it)')
    return ctx.finding(
        rule, severity,
        f"the moment about the link's {axis} axis is {fmt(found.moment)} kg m^2 (a radius "
        f'of gyration of {fmt(gyration, 3)} m), {claim}' + effect,
        link=link.name, element='inertial/inertia', line=link.inertial.inertia.line,
        suggestion=text,
        values=(('moment', found.moment), ('bound', found.bound), ('axis', axis),
                ('radius_of_gyration', gyration))
        + ((('over', over),) if not found.of_robot else ()),
        suggested_inertia=inertia_values(tensor) if tensor is not None else None)


def light_placeholder(ctx: CheckContext, link: Link) -> Optional[Tuple[float, bool]]:
    """
    Return (density, own tensor?) when a link's mass is a placeholder far too light.

    Its tensor is :data:`PLACEHOLDER_MASS_FACTOR` times over its bound and its mass below
    ``density_min`` in its geometry: one fault, the mass (said by check_bounds; the density
    rule leaves it). Not for equal moments, a placeholder tensor too (``own tensor`` is then
    always True).
    """
    found = excess(ctx, link)
    if found is None or found.of_robot or not found.bound > 0.0 or \
            found.moment < PLACEHOLDER_MASS_FACTOR * found.bound:
        return None
    from urdf_link_tools.checks.density import density_verdict  # (it imports suggest)
    verdict = density_verdict(ctx, link)
    if verdict is None or not verdict.density < ctx.config.density_min:
        return None
    values = link.inertial.inertia.as_tuple()
    if values[0] == values[3] == values[5]:
        # Equal moments are a placeholder tensor too (the URDF specification's my_link: 1 kg,
        # I = 100): two placeholders, each said by its rule
        return None
    return verdict.density, True


#: an end link under this size (m) whose tensor is this many times its bound may have been
#: made heavy on purpose, to keep a simulator stable
SMALL_END = 0.05
INFLATED = 10.0


def _stability_note(ctx: CheckContext, link: Link, found: Excess) -> str:
    """
    Name the usual alternative when a small end link's tensor may be inflated on purpose.

    ABB's IRB120 and IRB1200 give their 5 mm flange 0.137 kg and 0.001 kg m^2 (a comment
    says the real values make Gazebo crash when the joint turns): the fix shrank the tensor
    back and said nothing of what the inflation was for (sweep J).
    """
    joint = ctx.robot.parent_joint(link.name)
    if joint is None or not joint.is_moving or ctx.robot.child_joints(link.name) or \
            not found.bound > 0.0 or found.moment < INFLATED * found.bound:
        return ''
    size = float(max(found.bounds[1] - found.bounds[0]))
    if not size < SMALL_END:
        return ''
    return ('; if it was made larger on purpose, to keep a simulator stable on this small end '
            "link, keep the part's real mass and tensor and give its joint damping or "
            'armature instead (<dynamics damping="..."/>; MuJoCo\'s armature)')


CHECKS = (check_bounds,)
