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
Rules comparing a link's declared mass properties with its collision geometry.

The reference is the union of the link's collision elements at uniform density (exact
for boxes, cylinders and spheres; from the closed surface, or its convex hull, for
meshes), scaled to the declared mass, about its own centroid, rotated into the URDF
inertial frame. Overlapping collision parts are counted twice.
"""

from __future__ import annotations

from collections import Counter
import math
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

import numpy as np

from urdf_link_tools.checks.alignment import axis_words, turned_collision, TURNS
from urdf_link_tools.checks.base import (CheckContext, fmt, fmt_inertia, fmt_range, fmt_vector,
                                         fmt_written, Rule)
from urdf_link_tools.checks.bounds import (_robot_bounds, body_extent, CLEAR_EXCESS,
                                           COM_MIN_TOLERANCE,
                                           com_tolerance, excess, excess_at_slip, FUSED_AWAY,
                                           fused_change, grounded_effect, known_body_extent,
                                           light_copies, light_placeholder,
                                           placeholder_carriers, placeholder_mass_links,
                                           placeholder_mass_values, welded_to_world)
from urdf_link_tools.checks.density import density_judged, density_verdict, group_bounds, \
    negligible_in_its_body, volume_range
from urdf_link_tools.checks.model_wide import grouped, grouped_by_value, MODEL_WIDE_MIN
from urdf_link_tools.checks.suggest import (about_axes, AXES_SAME, geometry_tensor, mismatch,
                                            near, suggest, turned_onto_geometry, usable,
                                            valid_tensor, visual_tensor)
from urdf_link_tools.findings import Finding, listed, Severity
from urdf_link_tools.geometry import (
    Bounds, distance_outside, has_size, is_finite, rpy_to_matrix, union_bounds)
from urdf_link_tools.inertia import (
    flip_products, inertia_values, MUJOCO_EPS, parallel_axis, principal_values,
    TensorProperties, tidy, violates_triangle)
from urdf_link_tools.model import Cylinder, Link
from urdf_link_tools.records import record


RULES = (
    Rule('inertia-axes-turned', Severity.WARNING,
         "a tensor whose principal moments match the collision geometry's (sorted, within "
         "2x) but lie on other axes: about one of the geometry's principal axes it is 3x or "
         'more off (an inertial origin rpy, or a CAD frame, turned by a quarter turn); 3 or '
         'more links turned alike are one finding; when the turn that fits the tensor also '
         'puts a centre of mass written outside the part inside it (no rpy), the finding '
         'says so and com-outside-geometry is silent on that link',
         'the link resists turning about the wrong axes: joints too sluggish about one '
         'axis and too twitchy about another in simulation and control, while every moment '
         'looks plausible',
         "use the suggested tensor (the declared one turned onto the geometry's axes, in the "
         'same inertial frame), or fix the inertial origin rpy',
         'this tool (principal axes of the declared and the geometry tensor)'),
    Rule('inertia-about-link-origin', Severity.WARNING,
         'on links of 2 or more designs (not one part and its mirror or copies), the '
         'declared tensor is 2.5x or more off the collision '
         "geometry's (about the geometry's principal axes, at the declared centre of mass) "
         'and, less the parallel-axis term m (|c|^2 E - c c^T) of its centre of mass c (with '
         'the products negated when that fits better), within 2x of it and at least 2x '
         'closer: the tensors are written about the link origin, not about the centre of '
         'mass (an error when one of them exceeds its physical bound 2x or more); replaces '
         'inertia-exceeds-extent, inertia-geometry-mismatch and inertia-axes-turned on '
         'those links',
         'URDF gives the tensor about the centre of mass; a CAD export "at the output '
         'coordinate system" gives it about the link origin, m d^2 too large across the '
         'link: a simulator turning the link about its joint sees up to twice the inertia '
         "(Neuromeka Indy7's link2: 1.21 kg m^2 about its joint where the part has 0.70)",
         'write each tensor about its centre of mass: the suggested one per link (the '
         'declared tensor less m (|c|^2 E - c c^T)), which --fix-inertia writes',
         'URDF link specification (inertia about the centre of mass); parallel axis theorem'),
    Rule('inertial-placeholder', Severity.WARNING,
         '3 or more links declare the same inertia tensor in the same frame (to 6 '
         'significant digits; masses and centres of mass may differ) though their parts '
         'differ in size 3x or '
         "more: a macro's default, not their parts' mass properties (an error when one of "
         'them exceeds its physical bound 2x or more); or 3 or more links carrying one '
         "body's mass properties, each tensor turned into its link's frame (the same mass, "
         'the centres of mass at one point at rest within 1 mm, the same principal moments '
         "within 3 %: one part's or the assembly's inertial copied by an exporter); replaces "
         'the tensor, density and centre-of-mass findings on those links',
         'a placeholder makes every link as heavy and as hard to turn as every other, and the '
         "robot's total mass a multiple of the placeholder (KUKA KR 16-2: 14 kg for a 235 kg "
         'arm): dynamics, gravity compensation and simulation are wrong while each number '
         'alone may look plausible',
         "give each link its part's mass, centre of mass and tensor (CAD or the "
         "manufacturer's data); the tensors of the collision geometry at the declared mass "
         'are suggested, for --fix-inertia',
         'this tool (the same inertial on parts of different sizes)'),
    Rule('inertia-geometry-mismatch', Severity.WARNING,
         "a principal moment differs from the collision geometry's by more than "
         'inertia_mismatch_factor (10x by default), either way (not when the tensor is within '
         "2x of a solid box over the link's geometry, or of its visual geometry filled at a "
         'plausible density: the collision is then a partial shape; nor for a link welded '
         "into a body whose inertia the geometry's tensor changes by under 10 %, as "
         'simulators fuse it; nor within 100x for a spinning part lighter than its '
         "collision cylinder, a rotor's swept disc, which density-implausible says; an "
         "info for a link welded to 'world', or, without the gazebo target, to a root "
         'standing on no legs or wheels); the same tensor on 3 or '
         'more links is one finding, and so are 3 or more tensors off by the square of one '
         'length slip (10x, 25.4x, 100x, 1000x or their inverses: an error when one of them '
         'exceeds its physical bound 2x or more about its declared centre of mass, which '
         'inertia-exceeds-extent leaves to this finding), 3 or more tensors of '
         'three equal moments (a sphere formula used for every part), and 3 or more links '
         'that are two thirds or more of those compared (inertials not made for the parts)',
         'a wrong tensor (a copied placeholder such as ixx=iyy=izz=1, a unit slip) makes '
         'joints far too sluggish or far too twitchy in simulation and control',
         'use the suggested tensor (uniform density, in the URDF inertial frame) or the CAD '
         'values', 'URDF link specification (inertia); solid-body formulas'),
    Rule('density-implausible', Severity.WARNING,
         'mass / volume is outside [density_min, density_max] (50 to 25,000 kg/m^3) for '
         'every volume the geometry can have (overlaps and self-intersections bounded, '
         'meshes no larger than their convex hull); the same mass on 3 or more links is one '
         'finding',
         'a unit slip: millimetre meshes without scale="0.001 0.001 0.001" (off by ~1e9), '
         'grams written as kilograms (off by ~1e3). A warning for a unit slip, a density '
         'over 10x beyond the range, or one above it in the shape the part is drawn with (its '
         'visual is its collision geometry: no material is that dense); closer, with other '
         'shapes (a ballast block, a deliberately small collision shape), an info',
         'fix the mass unit, the mesh scale or the collision geometry, as the hint says',
         'URDF link specification (mass in kg, lengths in m)'),
    Rule('density-solid-metal', Severity.INFO,
         'three or more moving links, at least half of those whose density can be judged, '
         'are as dense as solid metal over their whole collision volume (6,000 to 12,000 '
         'kg/m^3 even with each mesh as its convex hull), their collision geometry being the '
         'part their visual shows',
         "the masses look computed from solid CAD bodies at a metal's density (the CAD "
         "tool's default material): robot links are hollow shells with motors and cables, "
         'arms of 500 to 3,000 kg/m^3 over their outer volume; a robot that weighs several '
         'times its real mass misleads gravity compensation, controllers and simulation',
         "compare the robot's total mass with the manufacturer's data sheet; give each link "
         'its real mass (the CAD model with its real materials and hollow parts)',
         'this tool (calibrated on example-robot-data: no robot with more than one such link)'),
    Rule('com-outside-geometry', Severity.WARNING,
         'the inertial origin (centre of mass) lies outside the bounds of the collision '
         'geometry and of the visual geometry (not for a link welded to links so much heavier '
         "that the fused body's centre of mass moves by under COM_MIN_TOLERANCE, 1 cm, nor "
         'inside the geometry of the links welded to it: one rigid body); the same xyz on 3 '
         'or more links is one finding, and so are 3 or more centres of mass at one length '
         "slip (each that factor times its geometry's centroid, or within its geometry once "
         'divided by a slip its tensor shows as its square; an error when one of them has a '
         "tensor 2x or more over its physical bound that the tensors' own slip finding does "
         'not name), 3 or more whose xyz is '
         'written in the inertial frame their rpy turns (within the geometry once turned '
         'into the link frame: the fix says so for one), and 3 or more with one coordinate '
         'of the wrong sign (within the geometry once it is negated); an error when one '
         'coordinate is an angle in radians (pi/3 to 6 digits) and the centre of mass is '
         'within the geometry without it (an rpy value written into the xyz)',
         'usually a frame mix-up (a CAD origin, or the COM written in the parent frame)',
         'put the centre of mass in the link frame; the geometric centroid is given',
         'URDF link specification (inertial origin)'),
)


def check_mismatch(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    """Compare each valid tensor with the collision geometry's."""
    factor = ctx.config.inertia_mismatch_factor
    declared = valid_tensor(ctx, link)
    if declared is None:
        return  # the inertia rules report invalid tensors with their own suggestion
    inertial = link.inertial
    if declared.moments[0] < MUJOCO_EPS:
        return  # inertia-moment-tiny reports it, with a suggestion that also fits here
    if negligible_in_its_body(ctx, link):
        return  # a sensor frame of a few grams welded to a heavy body: fused away
    if excess(ctx, link) is not None or link.name in placeholder_carriers(ctx):
        return  # inertia-exceeds-extent/-robot: impossible, or a copy of such a placeholder
    if link.name in about_link_origin(ctx) or link.name in placeholder_inertials(ctx):
        return  # inertia-about-link-origin or inertial-placeholder says why
    model, _ = ctx.collision_model(link)
    expected = geometry_tensor(ctx, link)
    if model is None or expected is None:
        return
    have = declared.moments
    want = principal_values(expected)
    off, worst = mismatch(have, want)
    if not (math.isfinite(off) and off > factor):
        return
    if _fits_extent_box(ctx, link, have) or _fits_visual(ctx, link, have):
        return  # the tensor is the whole part's; the collision is a partial shape
    if off <= ENVELOPE_MISMATCH and _envelope(ctx, link):
        # The collision geometry is the room a spinning part sweeps, not its material (the X3
        # drone's rotors, sweep S: 5 g blades in their 0.2 m disc, 32 kg/m^3): a body filling
        # part of it has other moments than the solid, within the bound inertia-exceeds-extent
        # checks. density-implausible says the geometry is not the part, once.
        return
    change = fused_change(ctx, link, expected)
    if change is not None and change < FUSED_AWAY:
        # Welded into a body whose inertia the geometry's tensor would change by under
        # 10 %: fused away, as inertia-exceeds-extent judges a welded link by its body
        # (Neobotix MPO-700's four wheels, welded into its 140 kg base: one was flagged for
        # a tensor 11x too small, the three 5.7x over their own bounds were not).
        return
    ratios = have / want
    direction = 'larger' if ratios[worst] > 1.0 else 'smaller'
    suggested, text = suggest(ctx, link, None, '')
    text += _mass_hint(ctx, link, model, ratios) + origin_note(ctx, link)
    approx = (f'; approximate volume for {", ".join(model.approximate)}'
              if model.approximate else '')
    # Welded to a fixed base (DH's AG-95 demo pedestal, sweep S): an info, as its centre of
    # mass and its tensor's bound are
    grounded = welded_to_world(ctx, link)
    yield ctx.finding(
        'inertia-geometry-mismatch', Severity.INFO if grounded else Severity.WARNING,
        f'principal moments {fmt_vector(have)} kg m^2, but the collision geometry at '
        f'{fmt(link.mass)} kg gives {fmt_vector(want)}: moment {worst + 1} is '
        f'{fmt(off, 3)}x {direction} (limit {fmt(factor)}x){approx}'
        + (grounded_effect(ctx, link) if grounded else ''),
        link=link.name, element='inertial/inertia', line=inertial.inertia.line,
        suggestion=text,
        values=(('moments', fmt_vector(have)), ('geometry_moments', fmt_vector(want)),
                ('factor', off), ('limit', factor), ('direction', direction),
                ('geometry_centroid', fmt_vector(model.centre))),
        suggested_inertia=inertia_values(suggested) if suggested is not None else None)


#: the most a tensor may be off a collision geometry too big for its mass (an envelope: a
#: rotor's swept disc) and be left to density-implausible; placeholders are further off
ENVELOPE_MISMATCH = 100.0


def _envelope(ctx: CheckContext, link: Link) -> bool:
    """
    Return True for a spinning part whose collision cylinder is the disc it sweeps.

    A link on a continuous joint (a rotor, a propeller) with only cylinders for collision,
    too big for its mass by less than FAR_OFF: an info of density-implausible, the part
    lighter than its envelope. Not a length slip (the geometry in millimetres), nor a
    placeholder mass on an arm's links (KUKA's KR120: 2 kg on each, revolute joints).
    """
    joint = ctx.robot.parent_joint(link.name)
    if joint is None or joint.type != 'continuous' or not link.collisions or any(
            not isinstance(element.geometry, Cylinder) for element in link.collisions):
        return False
    verdict = density_verdict(ctx, link)
    return verdict is not None and verdict.density < ctx.config.density_min and \
        verdict.severity == Severity.INFO and not verdict.length_slip


#: moments all off by factors within this ratio of each other have the geometry's proportions
SAME_PROPORTIONS = 1.5


def _mass_hint(ctx: CheckContext, link: Link, model, ratios: np.ndarray) -> str:
    """
    Say when the mass, not the tensor, is what is off: the moments have the geometry's shape.

    TurtleBot 4's standoffs declare the tensor of a 15 g rod their size with a mass of 0.26
    kg: the suggested tensor would fit the wrong mass. When every moment is off by about one
    factor and the mass that factor gives has a plausible density, both fixes are named.
    """
    if not (np.all(ratios > 0.0) and float(ratios.max() / ratios.min()) <= SAME_PROPORTIONS):
        return ''
    factor = float(np.exp(np.mean(np.log(ratios))))
    mass = link.mass * factor
    density = mass / model.volume if model.volume > 0.0 else math.nan
    if not ctx.config.density_min <= density <= ctx.config.density_max:
        return ''
    return (f"; or the mass is what is wrong: the declared moments have the geometry's "
            f'proportions, {fmt(factor, 3)}x its moments at {fmt(link.mass)} kg, so with the '
            f'tensor as it is the mass would be {fmt(mass, 4)} kg ({fmt(density, 4)} kg/m^3)')


#: A tensor within this factor of a solid box over the link's geometry bounds is the part's.
BOX_FIT = 2.0
#: relative room for rounding in a bound that decides without measuring
_ROUNDING = 1e-6


def _fits_extent_box(ctx: CheckContext, link: Link, have: np.ndarray) -> bool:
    """
    Return True when the tensor matches a solid box filling the link's geometry bounds.

    Within BOX_FIT, not the mismatch factor: ixx=iyy=izz=0.001 on a 0.1 kg sensor is 7x a
    box over its geometry and still a placeholder.

    A tensor written for the whole part (a box over its visual and collision bounds) is not
    wrong because the collision geometry is a deliberately short slab or a partial shape.
    """
    bounds = union_bounds([group_bounds(ctx, link.visuals), group_bounds(ctx, link.collisions)])
    if bounds is None:
        return False
    side = bounds[1] - bounds[0]
    squares = side * side
    box = np.sort(link.mass * (squares.sum() - squares) / 12.0)
    off, _ = mismatch(have, box)
    return math.isfinite(off) and off <= BOX_FIT


def _fits_visual(ctx: CheckContext, link: Link, have: np.ndarray) -> bool:
    """
    Return True when the tensor is within BOX_FIT of the visual geometry's, filled uniformly.

    Unitree H1's upper arms declare the tensor of their visual mesh (a 25 cm arm) and
    collide as a 1 cm disc: the collision tensor suggested instead would be 10 times too
    small. Only a visual geometry whose volume holds the mass at a plausible density counts.
    """
    if not link.visuals:
        return False
    bounds = group_bounds(ctx, link.visuals)
    if bounds is not None:
        # Measuring a visual mesh costs a Qhull of its every vertex (20 ms for one UR5
        # part). Any body of the link's mass within these bounds has no moment above the
        # mass times the squared half diagonal: a larger declared moment cannot fit.
        half = (bounds[1] - bounds[0]) / 2.0
        most = link.mass * float(half @ half)
        if have[2] > BOX_FIT * most * (1.0 + _ROUNDING):
            return False
    found = visual_tensor(ctx, link)
    if found is None:
        return False
    off, _ = mismatch(have, principal_values(found[0]))
    return math.isfinite(off) and off <= BOX_FIT


def check_density(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    """Flag masses that are implausible for any volume the geometry can have."""
    low, high = ctx.config.density_min, ctx.config.density_max
    if link.name in placeholder_inertials(ctx):
        return  # inertial-placeholder says it for all the links that share it
    verdict = density_verdict(ctx, link)
    if verdict is None:
        return
    if verdict.density < low and link.mass in placeholder_mass_values(ctx):
        return  # the placeholder mass of several links, said once (bounds._mass_finding)
    if verdict.density < low and any(link.name in light
                                     for light in light_copies(ctx).values()):
        return  # with the placeholder tensor it is copied with, said once (bounds)
    if light_placeholder(ctx, link) is not None and link.name not in about_link_origin(ctx):
        return  # said with the tensor over its bound (bounds._finding)
    # Equal as printed is one density: 'between 30.58 and 30.58' says nothing.
    between = (f'{fmt(verdict.density)} kg/m^3' if fmt(verdict.least) == fmt(verdict.most)
               else f'between {fmt(verdict.least)} and {fmt(verdict.most)} kg/m^3')
    yield ctx.finding(
        'density-implausible', verdict.severity,
        f'{fmt(link.mass)} kg in {_volume_text(*verdict.volumes)} '
        f'of geometry is {between}, outside {fmt(low)} to {fmt(high)} kg/m^3'
        + (f' ({"; ".join(verdict.notes)})' if verdict.notes else ''),
        link=link.name, element='inertial/mass', line=link.inertial.mass_line,
        suggestion=verdict.hint,
        values=(('density', verdict.density), ('mass', link.mass),
                ('volume_min', verdict.volumes[0]), ('volume_max', verdict.volumes[1])))


def check_com(ctx: CheckContext, link: Link) -> Iterator[Finding]:
    """
    Flag centres of mass outside everything the link is drawn or collides with.

    The centre of mass of a body lies in the convex hull of its material, so inside the
    bounds of its geometry; collision geometry is often partial (a sole plate, a few
    spheres), so a centre of mass inside the visual geometry's bounds is fine too.
    """
    if not usable(link) or not any(e.geometry is not None for e in link.collisions):
        return
    if link.name in placeholder_inertials(ctx):
        return  # inertial-placeholder says it for all the links that share it
    if any(e.geometry is None for e in link.collisions + link.visuals):
        return  # a shape not read (a <capsule>, refused) may hold it: unknown, not outside
    if negligible_in_its_body(ctx, link):
        return  # its centre of mass moves the fused body's by under 1 % of the offset
    if _inside_every_box(ctx, link):
        return  # the usual case, decided without the arrays below
    collision = group_bounds(ctx, link.collisions)
    if collision is None:
        return
    com = np.asarray(link.inertial.origin.xyz, dtype=float)
    visual = group_bounds(ctx, link.visuals)
    if visual is None and any(ctx.element_bounds(element) is None for element in link.visuals
                              if element.geometry is not None):
        return  # a visual of unknown size (a mesh not read, --no-meshes) may hold it
    both = union_bounds([collision, visual])
    low, high = both[0].tolist(), both[1].tolist()
    if all(lo <= c <= hi for lo, c, hi in zip(low, com.tolist(), high)):
        return  # inside: 0 m outside, within any tolerance (the usual case, without norms)
    tolerance = com_tolerance(both)
    distance = distance_outside(com, both)
    if distance <= tolerance:
        return
    # Inside the geometry of the links welded to it, it is inside its body's material: one
    # rigid body, which simulators fuse, whose mass the description split its own way
    # (TIAGo's torso plate carries the torso column's mass, and the column its shape).
    extent, _ = body_extent(ctx, link)
    if extent is None:  # a part of it not read: the parts that were may hold it
        extent = known_body_extent(ctx, link)
    if extent is not None and distance_outside(com, extent) <= tolerance:
        return
    # Welded to heavier links, it is one body with them (MuJoCo fuses, Gazebo lumps): its
    # centre of mass, wherever in its geometry it really is, moves that body's by at most
    # its mass share of the offset plus the geometry's size. Under the tolerance, nothing
    # a simulation shows (PR2's 0.1 kg roll links on their 2.6 to 6 kg links: 2 mm).
    body = ctx.lumped_mass(ctx.weld_top(link.name))
    reach = distance + float(np.linalg.norm(both[1] - both[0]))
    if body > link.mass and link.mass / body * reach <= COM_MIN_TOLERANCE:
        return
    if turned_centre(ctx, link) is not None and turned_axes(ctx, link) is not None:
        return  # inertia-axes-turned says it: the whole inertial is turned, its centre too
    model, _ = ctx.collision_model(link)
    centroid = (f'; the collision geometry\'s centroid is at xyz="'
                f'{fmt_vector(model.centre, 6)}"' if model is not None else '')
    lo, hi = both
    # Welded to a fixed base: no simulator moves it (dVRK's MTM top panel, sweep N: a
    # warning here while its tensor's finding was an info for that reason)
    grounded = welded_to_world(ctx, link)
    angle = _angle_slip(com, both, tolerance)
    yield ctx.finding(
        'com-outside-geometry', Severity.INFO if grounded else
        Severity.ERROR if angle else Severity.WARNING,
        f'the centre of mass xyz="{fmt_written(com)}" is {fmt(distance, 3)} m outside the '
        'bounds of the collision' + (' and visual' if visual is not None else '')
        + f' geometry ({fmt_vector(lo, 3)} to {fmt_vector(hi, 3)}); the centre of mass of '
        'a body lies within its material'
        + (grounded_effect(ctx, link) if grounded else ''),
        link=link.name, element='inertial/origin',
        line=link.inertial.origin.line or link.inertial.line,
        suggestion=(angle or _frame_slip(link, com, both, tolerance)
                    or _sign_slip(com, both, tolerance)
                    or 'check that the centre of mass is in the link frame') + centroid,
        values=(('com', fmt_vector(com)), ('distance', distance)))


#: in com-outside-geometry's fix for one coordinate of the wrong sign, after the axis
SIGN_SLIP = ' has the wrong sign: with it negated'
#: the start of com-outside-geometry's fix for an xyz written in the turned inertial frame
FRAME_SLIP = 'the xyz looks written in the inertial frame its rpy turns'


#: angles written in radians, by how they are named: pi times these fractions
_ANGLES = ((1, 6), (1, 4), (1, 3), (1, 2), (2, 3), (3, 4), (5, 6), (1, 1), (3, 2), (2, 1))


def _angle_slip(com: np.ndarray, bounds, tolerance: float) -> str:
    """
    Return the fix when one coordinate is an angle in radians, the rest inside; else ''.

    AR3's link_3 (sweep Q): xyz="-0.00029765 -0.023661 -1.04720367321", -pi/3 to 6 digits
    on a 10 cm part: an rpy value written (or added) into the xyz. Without it the centre of
    mass lies within the geometry; a length that equals an angle this closely is no
    measurement. An error: the body's dynamics are a metre off.
    """
    for axis in range(3):
        value = float(com[axis])
        for top, bottom in _ANGLES:
            angle = math.copysign(math.pi * top / bottom, value)
            if abs(value - angle) > 1e-5 * abs(angle):
                continue
            moved = com.copy()
            moved[axis] = 0.0
            if distance_outside(moved, bounds) <= tolerance:
                name = ('' if top == 1 else str(top)) + 'pi' + \
                    ('' if bottom == 1 else f'/{bottom}')
                return (f'its {"xyz"[axis]}, {fmt(value, 9)}, is '
                        f'{"-" if value < 0 else ""}{name} (an angle in radians): an rpy value '
                        f'written into the xyz? With {"xyz"[axis]}=0 the centre of mass lies '
                        'within the geometry; write the measured offset there')
    return ''


def _frame_slip(link: Link, com: np.ndarray, bounds, tolerance: float) -> str:
    """
    Return the fix when the inertial's own rotation puts the centre of mass inside, else ''.

    Rainbow's RB3-1200E writes its inertials with rpy="1.5708 0 0" and the xyz of the
    centre of mass in that turned frame; URDF applies the xyz in the link frame, before the
    rpy: R(rpy) xyz lies in each part (its sibling model's centre of mass, within 3 mm).
    """
    rpy = link.inertial.origin.rpy  # type: ignore[union-attr]
    if not any(rpy):
        return ''
    rotation = rpy_to_matrix(rpy)
    for turned in (rotation @ com, rotation.T @ com):
        if distance_outside(turned, bounds) <= tolerance:
            return (f'{FRAME_SLIP} (rpy="{fmt_vector(rpy)}"), where URDF applies it in the '
                    'link frame, before the rpy: turned into the link frame, xyz="'
                    f'{fmt_vector(turned)}", it lies within the geometry')
    return ''


def _inside_every_box(ctx: CheckContext, link: Link) -> bool:
    """
    Return True when the centre of mass lies within the union bounds of all the geometry.

    The bounds check_com takes below when every box is known and finite (a box unknown, or
    one of no size, makes it return without a finding too), compared as it compares them:
    only a True answer is taken, so any doubt (a box not finite) leaves it to check_com.
    """
    low = [math.inf, math.inf, math.inf]
    high = [-math.inf, -math.inf, -math.inf]
    for element in link.collisions + link.visuals:
        if element.geometry is None or not has_size(element.geometry):
            continue
        box = ctx.element_bounds(element)
        if box is None:
            return False
        lo, hi = np.asarray(box[0]).tolist(), np.asarray(box[1]).tolist()
        if not (is_finite(lo) and is_finite(hi)):
            return False
        low = [min(a, b) for a, b in zip(low, lo)]
        high = [max(a, b) for a, b in zip(high, hi)]
    return all(lo <= c <= hi for lo, c, hi in zip(low, link.inertial.origin.xyz, high))


def _sign_slip(com: np.ndarray, bounds, tolerance: float) -> str:
    """
    Return the fix when one coordinate negated puts the centre of mass inside, else ''.

    Kinova's Gen3 lite fingers declare x=+0.02026 for a part centred at x=-0.02024: a sign
    written for the mirrored finger.
    """
    for axis in range(3):
        if com[axis] == 0.0:
            continue
        mirrored = com.copy()
        mirrored[axis] = -mirrored[axis]
        if distance_outside(mirrored, bounds) <= tolerance:
            return (f'{"xyz"[axis]}{SIGN_SLIP} the centre of mass, '
                    f'xyz="{fmt_written(mirrored)}", lies within the geometry (a value written '
                    'for the mirrored part?)')
    return ''


def check_mismatches(ctx: CheckContext) -> Iterator[Finding]:
    """
    Compare each valid tensor with its geometry's: per link, or once for a copied tensor.

    The same six numbers on 3 or more links, off the geometry of each, are one choice: a
    placeholder copied by a macro (KUKA's KR120: 0.01 on every axis of all 7 links), or one
    part's wrong tensor on its copies (a quadruped's four legs): one finding. So are 3 or
    more tensors each about the square of one length slip off their geometry's (Schunk SVH:
    17 links at about 100x, its model exported at 10x), or declared with one mass and all
    off their geometry the same way (a placeholder mass): one finding.
    """
    found = _mismatches(ctx)
    slipped = set()
    for factor, findings in _tensor_slips(ctx).items():
        slipped.update(finding.link for finding in findings)
        yield _tensor_slip_finding(ctx, factor, findings)
    # Three equal moments and no products of different sizes on 3 or more links: one formula
    # (a sphere's or a cube's) used for every part (Reachy 2's tripod bars: two values on
    # six bars), one finding; a single value is the copied tensor below.
    even = [finding for link in ctx.robot.links if found[link.name]
            and link.name not in slipped and _isotropic(link) for finding in found[link.name]]
    if len(even) >= MODEL_WIDE_MIN and len({ctx.robot.link(finding.link).inertial.inertia
                                            .as_tuple() for finding in even}) > 1:
        slipped.update(finding.link for finding in even)
        yield from grouped(ctx, even, 'links declare tensors with three equal moments and no '
                           "products (a sphere's or a cube's formula, or a placeholder), each "
                           'off its collision geometry', own_fixes=True)
    # One mass on 3 or more links whose tensors are all off their geometry the same way,
    # not one copied tensor: a placeholder mass with tensors to match it (Unitree G1's and
    # H1's twelve fingertip force sensors, 1 g each and each tensor 11x to 20x too small).
    tensors: Dict[Tuple[float, ...], int] = {}
    for link in ctx.robot.links:
        if found[link.name] and link.name not in slipped:
            shared = link.inertial.inertia.as_tuple()
            tensors[shared] = tensors.get(shared, 0) + len(found[link.name])
    masses: Dict[Tuple[float, str], List[Finding]] = {}
    for link in ctx.robot.links:
        if found[link.name] and link.name not in slipped and \
                tensors[link.inertial.inertia.as_tuple()] < MODEL_WIDE_MIN:
            for finding in found[link.name]:
                way = dict(finding.values)['direction']
                masses.setdefault((link.mass, way), []).append(finding)
    for (mass, way), findings in masses.items():
        if len(findings) >= MODEL_WIDE_MIN:
            slipped.update(finding.link for finding in findings)
            yield from grouped(ctx, findings, f'links of the same mass ({fmt(mass)} kg, a '
                               f'placeholder?) declare tensors each {way} than their collision '
                               'geometry gives', own_fixes=True)
    # Most of the robot off its geometry, each its own way (Dobot CR20: 7 of 7 links, 49x
    # to 3,040x, larger and smaller, its masses off too): the inertials were not made for
    # these parts; one finding, each link's fix kept.
    # (a tensor copied onto 3 or more of them stays the copied tensor's finding, below)
    rest = [link for link in ctx.robot.links if link.name not in slipped and found[link.name]]
    copies = Counter(link.inertial.inertia.as_tuple() for link in rest)
    own = [finding for link in rest if copies[link.inertial.inertia.as_tuple()] < MODEL_WIDE_MIN
           for finding in found[link.name]]
    off = {finding.link for finding in own}
    compared = len(_compared(ctx)) if len(off) >= MODEL_WIDE_MIN else 0
    if compared and 3 * len(off) >= 2 * compared:
        factors = [float(dict(finding.values)['factor']) for finding in own]
        yield from grouped(ctx, own, f'of the {compared} links whose tensor can be '
                           'compared with their collision geometry have one off it by '
                           f'{fmt(min(factors), 3)}x to {fmt(max(factors), 3)}x, each its own '
                           "way: the inertials do not describe these parts (another model's, "
                           'or an export gone wrong?)', own_fixes=True)
        slipped.update(off)
    yield from grouped_by_value(
        ctx, lambda _, link: iter(() if link.name in slipped else found[link.name]),
        lambda link, _: link.inertial.inertia.as_tuple(),
        lambda values: f'links declare the same tensor ({fmt_inertia(values)}), each off its '
                       'collision geometry', own_fixes=True)


def _mismatches(ctx: CheckContext) -> Dict[str, List[Finding]]:
    """Return each link's own tensor mismatch findings (before any grouping)."""
    key = ('mismatches', None)
    if key not in ctx.memo:
        ctx.memo[key] = {link.name: list(check_mismatch(ctx, link)) for link in ctx.robot.links}
    return ctx.memo[key]  # type: ignore[return-value]


def _tensor_slips(ctx: CheckContext) -> Dict[float, List[Finding]]:
    """Return the mismatch findings of 3 or more tensors at one length slip, by the slip."""
    key = ('tensor slips', None)
    if key not in ctx.memo:
        found = _mismatches(ctx)
        slips: Dict[float, List[Finding]] = {}
        for link in ctx.robot.links:
            factor = _tensor_slip(ctx, link) if found[link.name] else None
            if factor is not None:
                slips.setdefault(factor, []).extend(found[link.name])
        ctx.memo[key] = {factor: findings for factor, findings in slips.items()
                         if len(findings) >= MODEL_WIDE_MIN}
    return ctx.memo[key]  # type: ignore[return-value]


def _over_at_slip(ctx: CheckContext, names: Sequence[str]) -> Tuple[str, ...]:
    """
    Return the links whose tensor is CLEAR_EXCESS times its physical bound or more.

    Judged about the declared centre of mass even where it lies at a length slip off the
    geometry (:func:`.excess_at_slip`): either the numbers or the geometry are at the wrong
    scale, and a link with this alone gets an inertia-exceeds-extent error (Schunk SVH's
    hand base, 32x over its bound, passed CI as one of 21 warnings).
    """
    over = []
    for name in names:
        link = ctx.robot.link(name)
        found = excess_at_slip(ctx, link) if link is not None else None
        if found is not None and found.bound > 0.0 and \
                found.moment >= CLEAR_EXCESS * found.bound:
            over.append(name)
    return tuple(over)


def _over_clause(over: Tuple[str, ...]) -> str:
    """Say which links of a slip's finding exceed their physical bound (why it is an error)."""
    if not over:
        return ''
    one = len(over) == 1
    return (f'; {listed(over)} {"declares a tensor" if one else "declare tensors"} 2x or more '
            f'over what any body of {"its" if one else "their"} mass inside '
            f'{"its" if one else "their"} geometry can have about '
            f'{"its" if one else "their"} declared centre of mass (inertia-exceeds-extent): '
            'either way the model is wrong')


def _compared(ctx: CheckContext) -> List[str]:
    """Return the links whose valid tensor can be compared with their collision geometry."""
    key = ('mismatch-compared', None)
    if key not in ctx.memo:
        ctx.memo[key] = [link.name for link in ctx.robot.links
                         if ctx.robot.link(link.name) is link
                         and valid_tensor(ctx, link) is not None
                         and geometry_tensor(ctx, link) is not None]
    return ctx.memo[key]  # type: ignore[return-value]


def _isotropic(link: Link) -> bool:
    """Return True for a tensor of three equal moments and no products."""
    ixx, ixy, ixz, iyy, iyz, izz = link.inertial.inertia.as_tuple()
    return ixy == 0.0 and ixz == 0.0 and iyz == 0.0 and ixx == iyy == izz


#: A tensor carries a length slip s as s^2 on every moment; parts are not uniform and
#: collision meshes are approximate (hulls), so the moments' geometric mean may be this far
#: from s^2 either way (s within 0.82x to 1.22x), and each moment thrice as far (Schunk
#: SVH: 74x to 152x for s = 10, means 80x to 134x; Bullet's racecar gears, 4e3x to 7e3x,
#: are no slip of 100). The named slips' squares lie further apart (100, 645, 10^4, 10^6).
TENSOR_SLIP_TOLERANCE = 1.5
TENSOR_SLIP_STRAY = 3.0


def _tensor_slip(ctx: CheckContext, link: Link) -> Optional[float]:
    """Return the length slip s whose square scales every moment off the geometry's."""
    expected = geometry_tensor(ctx, link)
    if expected is None:
        return None
    have = np.asarray(ctx.tensor(link).moments, dtype=float)
    want = principal_values(expected)
    if not (np.all(have > 0.0) and np.all(want > 0.0)):
        return None
    ratios = have / want
    if not (np.all(np.isfinite(ratios)) and np.all(ratios > 0.0)):
        return None  # moments whose ratio overflows or underflows (1e-300 kg m^2)
    mean = float(np.exp(np.log(ratios).mean()))  # (their product could underflow to 0)
    for named, _ in SLIP_FACTORS:
        square = named * named
        if max(mean / square, square / mean) <= TENSOR_SLIP_TOLERANCE and \
                all(max(r / square, square / r) <= TENSOR_SLIP_STRAY for r in ratios):
            return named
    return None


def _tensor_slip_finding(ctx: CheckContext, factor: float,
                         findings: List[Finding]) -> Finding:
    """Return the one finding of tensors that share a length slip (its square)."""
    names = tuple(dict.fromkeys(finding.link for finding in findings))
    what = dict(SLIP_FACTORS)[factor]
    square = factor * factor
    first = findings[0]
    # (only those com-outside-geometry reports: a centre of mass inside its geometry, or
    # one not judged, shows nothing)
    same = [link.name for link in ctx.robot.links
            if link.name in names and usable(link) and slip_factor(ctx, link) == factor
            and any(True for _ in check_com(ctx, link))]
    centres = ('; their centres of mass show the same slip (com-outside-geometry)'
               if len(same) >= MODEL_WIDE_MIN else '')
    larger = factor > 1.0
    over = _over_at_slip(ctx, names)
    return ctx.finding(
        'inertia-geometry-mismatch', Severity.ERROR if over else Severity.WARNING,
        f'{len(names)} links declare tensors each about {fmt(square)}x '
        f'{"larger" if larger else "smaller"} than their collision geometry gives at their mass '
        f'({listed(names)}): one length slip ({what}?), which scales a tensor by its square '
        f'({fmt(factor)}^2){centres}{_over_clause(over)}',
        element=first.element, line=first.line,
        suggestion=f'if the geometry is right, {"divide" if larger else "multiply"} each '
                   f'tensor by {fmt(square if larger else 1.0 / square)} or compute it again at '
                   "the right scale (the collision geometry's tensor at uniform density is a "
                   'start; --fix-inertia writes it on each); if the tensors are right, the '
                   'meshes or their scale are not',
        values=(('factor', square), ('length_factor', factor), ('count', len(names)),
                ('links', listed(names))),
        links=names,
        links_suggested_inertia=[(finding.link, finding.suggested_inertia)
                                 for finding in findings if finding.link is not None
                                 and finding.suggested_inertia is not None])


def check_densities(ctx: CheckContext) -> Iterator[Finding]:
    """
    Flag implausible masses: per link, per copied mass, or once for the whole robot.

    The same mass on 3 or more links (to 6 significant digits), implausible in each one's
    geometry, is one placeholder (KUKA's KR120: 2 kg on every link of a 1,050 kg arm): one
    finding. Three or more links too light (too heavy) that make up at least
    :data:`WHOLE_ROBOT_SHARE` of the links whose density is judged are one slip of the whole
    robot (Dobot CR20: 36 g for a 20 kg-payload arm, 7 findings before): one finding, with
    the robot's total mass.
    """
    # A mass inertia-exceeds-extent says is a placeholder (Piper's 1e-5 kg on 9 links, with
    # the CAD's tensors) is that one finding: its density is not a second one.
    placeholder = placeholder_mass_links(ctx)
    found = [finding for link in ctx.robot.links if link.name not in placeholder
             for finding in check_density(ctx, link)]
    masses = {float(f'{ctx.robot.link(finding.link).mass:.6g}') for finding in found}
    # One mass on every one of them is a placeholder, said as such; else one slip.
    whole = _whole_robot_slip(ctx, found) if len(masses) > 1 else None
    if whole is not None:
        yield whole
        return
    by_link: Dict[Optional[str], List[Finding]] = {}
    for finding in found:  # (a list scanned per link was quadratic: 42 s at 10,000 links)
        by_link.setdefault(finding.link, []).append(finding)
    yield from grouped_by_value(
        ctx, lambda _, link: by_link.get(link.name, []),
        lambda link, _: float(f'{link.mass:.6g}'),
        lambda mass: f'links declare the same mass ({fmt(mass)} kg), implausible for the '
                     'geometry of each')


def _robot_mass(ctx: CheckContext) -> float:
    """Return the robot's total mass: every link's that has an inertial with a finite mass."""
    return sum(link.mass for link in ctx.robot.links
               if link.inertial is not None and math.isfinite(link.mass))


#: too light (or too heavy) links making up this share of the judged ones: the whole robot
WHOLE_ROBOT_SHARE = 0.75


def _whole_robot_slip(ctx: CheckContext, found: List[Finding]) -> Optional[Finding]:
    """Return one finding for a robot whose judged links are nearly all too light or heavy."""
    if len(found) < MODEL_WIDE_MIN:
        return None
    low = ctx.config.density_min
    verdicts = [density_verdict(ctx, ctx.robot.link(finding.link)) for finding in found]
    if any(verdict is None for verdict in verdicts):
        return None
    densities = [verdict.density for verdict in verdicts]  # type: ignore[union-attr]
    light = [density for density in densities if density < low]
    if len(light) not in (0, len(found)):
        return None  # some too light, some too heavy: each says its own
    judged = sum(1 for link in ctx.robot.links if link.inertial is not None
                 and ctx.robot.link(link.name) is link and density_judged(ctx, link))
    if not judged or len(found) < WHOLE_ROBOT_SHARE * judged:
        return None
    total = _robot_mass(ctx)
    links = tuple(finding.link for finding in found if finding.link)
    worst = max(found, key=lambda finding: finding.severity)
    side = 'lighter' if light else 'heavier'
    return ctx.finding(
        'density-implausible', worst.severity,
        f'{len(found)} of the {judged} links whose density can be judged are far {side} '
        f'than their geometry can be ({fmt(min(densities))} to {fmt(max(densities))} '
        f'kg/m^3, outside {fmt(low)} to {fmt(ctx.config.density_max)} kg/m^3; '
        f'{listed(links)}): the robot weighs {fmt(total)} kg in all, a slip of every mass '
        '(another unit, grams read as kilograms, or placeholders?) rather than of each link',
        element='inertial/mass', line=worst.line,
        suggestion=("give each link its part's real mass (the manufacturer's data sheet "
                    "gives the robot's total; the CAD model with its real materials gives "
                    'each part)'),
        values=(('count', len(found)), ('judged', judged), ('total_mass', total),
                ('density_min_found', min(densities)),
                ('density_max_found', max(densities))),
        links=links)


#: Length slips a centre of mass can carry: the factor and what it usually is.
SLIP_FACTORS = ((1000.0, 'millimetres read as metres'), (100.0, 'centimetres read as metres'),
                (10.0, 'a model exported at 10x'), (25.4, 'inches read as millimetres'),
                (0.1, 'a model exported at 0.1x'), (0.01, 'metres read as centimetres'),
                (0.001, 'metres read as millimetres'))

#: How far a factor may be from the named one, and a centre of mass from the factor times
#: the centroid (share of its distance from the origin): parts are not uniform, and a sign
#: of a small coordinate may differ (Schunk SVH's left_hand_c).
SLIP_TOLERANCE = 0.15
SLIP_STRAY = 0.25


def _centroid_slip(ctx: CheckContext, link: Link) -> Optional[float]:
    """Return the named factor between the centre of mass and the geometry's centroid."""
    model, _ = ctx.collision_model(link)
    if model is None:
        return None
    centre = np.asarray(model.centre, dtype=float)
    com = np.asarray(link.inertial.origin.xyz, dtype=float)
    norm = float(centre @ centre)
    if not norm > 1e-12 or not np.all(np.isfinite(com)):
        return None
    factor = float(com @ centre) / norm
    if float(np.linalg.norm(com - factor * centre)) > SLIP_STRAY * float(
            np.linalg.norm(com)):
        return None
    for named, _ in SLIP_FACTORS:
        if abs(factor / named - 1.0) <= SLIP_TOLERANCE:
            return named
    return None


def slip_factor(ctx: CheckContext, link: Link) -> Optional[float]:
    """
    Return the length slip of a link's centre of mass, None when it shows none.

    The centre of mass is the slip times the collision geometry's centroid, or the link's
    tensor shows the slip (its square, :func:`_tensor_slip`) and the centre of mass divided
    by it lies within the geometry (Schunk SVH's base link: 0.139 m up, 8x its hull's
    centroid, a part whose CAD centre of mass is not its hull's).
    """
    found = _centroid_slip(ctx, link)
    com = np.asarray(link.inertial.origin.xyz, dtype=float)
    if found is not None or not np.all(np.isfinite(com)):
        return found
    collision = group_bounds(ctx, link.collisions)
    named = _tensor_slip(ctx, link) if collision is not None else None
    if named is None:
        return None
    both = union_bounds([collision, group_bounds(ctx, link.visuals)])
    return named if distance_outside(com / named, both) <= com_tolerance(both) else None


def check_coms(ctx: CheckContext) -> Iterator[Finding]:
    """
    Flag misplaced centres of mass: per link, or once for 3 or more links sharing one.

    The same xyz written on several links and outside each one's geometry is one choice
    (r6bot's macro puts every centre of mass at the link origin): one finding. So are 3 or
    more centres of mass each the same power of ten (or 25.4) times their geometry's
    centroid: one length slip (Schunk SVH: 21 links at 10x).
    """
    found = {link.name: list(check_com(ctx, link)) for link in ctx.robot.links}
    slips: Dict[float, List[Link]] = {}
    for link in ctx.robot.links:
        if found[link.name]:
            factor = slip_factor(ctx, link)
            if factor is not None:
                slips.setdefault(factor, []).append(link)
    slipped = set()
    for factor, links in slips.items():
        if len(links) >= MODEL_WIDE_MIN:
            slipped.update(link.name for link in links)
            yield _slip_finding(ctx, factor, links)
    # Centres of mass written in their turned inertial frames on 3 or more links: one choice
    # (RB3-1200E's link.yaml), one finding with each link's xyz in the fix's example.
    turned = [finding for link in ctx.robot.links if link.name not in slipped
              for finding in found[link.name] if finding.suggestion.startswith(FRAME_SLIP)]
    if len(turned) >= MODEL_WIDE_MIN:
        slipped.update(finding.link for finding in turned)
        yield from grouped(ctx, turned, 'links write their centre of mass in the inertial frame '
                                        'their rpy turns, where URDF applies the xyz before '
                                        'the rpy', own_fixes=True)
    # One coordinate's sign wrong on 3 or more links (Kinova's Gen3 lite: the forearm, the
    # upper wrist and three finger links, each inside its part once negated): one export.
    signs = [finding for link in ctx.robot.links if link.name not in slipped
             for finding in found[link.name] if SIGN_SLIP in finding.suggestion]
    if len(signs) >= MODEL_WIDE_MIN:
        slipped.update(finding.link for finding in signs)
        yield from grouped(ctx, signs, 'links put their centre of mass outside their geometry '
                                       'with one coordinate of the wrong sign (negated, each '
                                       'lies within its geometry)', own_fixes=True)
    yield from grouped_by_value(
        ctx, lambda _, link: iter(() if link.name in slipped else found[link.name]),
        lambda _, finding: dict(finding.values)['com'],
        lambda com: f'links put their centre of mass at xyz="{com}", outside the bounds of '
                    'their geometry', own_fixes=True)


def _slip_finding(ctx: CheckContext, factor: float, links: List[Link]) -> Finding:
    """Return the one finding of centres of mass that share a length slip."""
    names = tuple(link.name for link in links)
    what = dict(SLIP_FACTORS)[factor]
    first = links[0].inertial
    # the others: their tensors show the slip, and divided by it they lie in their geometry
    others = tuple(link.name for link in links if _centroid_slip(ctx, link) is None)
    one = len(others) == 1
    also = (f' ({listed(others)}: within {"its" if one else "their"} geometry, '
            f'{"its tensor" if one else "their tensors"} {fmt(factor * factor)}x the '
            "geometry's)" if others else '')
    # Over their bounds: an error, unless the tensors' own slip finding says so (an error).
    told = {finding.link for findings in _tensor_slips(ctx).values() for finding in findings}
    over = tuple(name for name in _over_at_slip(ctx, names) if name not in told)
    return ctx.finding(
        'com-outside-geometry', Severity.ERROR if over else Severity.WARNING,
        f'{len(names)} links put their centre of mass outside their geometry, each about '
        f'{fmt(factor)}x too far from the link origin ({listed(names)}): divided by '
        f"{fmt(factor)}, each comes to its collision geometry's centroid{also}; one length "
        f'slip ({what}?){_over_clause(over)}',
        line=first.origin.line or first.line,
        suggestion=f'if the geometry is right, divide each centre of mass by {fmt(factor)} '
                   f'and check the tensors too (a length slip scales them by '
                   f'{fmt(factor * factor)}); if the centres of mass are right, the meshes '
                   'or their scale are not',
        values=(('factor', factor), ('count', len(names)), ('links', listed(names))),
        links=names)


#: a density of solid metal: steel 7,850, titanium 4,500 (in kg/m^3); denser than the
#: second bound, a collision shape smaller than the part is the likelier story
SOLID_METAL = 6000.0
DENSEST_METAL = 12000.0
#: collision bounds sharing this much of the visual's (intersection over union): the part
SAME_PART = 0.7


def _collision_is_visual(ctx: CheckContext, link: Link) -> bool:
    """
    Return True when a link's collision geometry is the whole part its visual shows.

    Then a density over the collision volume is the part's: not so for contact spheres or a
    small box inside a larger visual (Unitree H1's hips, Robotiq 3F's fingers), which hold
    the part's mass in a fraction of its volume.
    """
    from urdf_link_tools.checks.alignment import overlap
    if not link.visuals:
        return False
    visual = group_bounds(ctx, link.visuals)
    collision = group_bounds(ctx, link.collisions)
    return visual is not None and collision is not None and \
        overlap(visual, collision) >= SAME_PART


def check_solid_metal(ctx: CheckContext) -> Iterator[Finding]:
    """
    Flag an arm whose links are as dense as solid metal: masses of solid CAD bodies.

    JAKA's Zu 3, 5 and 7 and S5: four of six moving links at 7,200 to 7,460 kg/m^3 over
    their hull (7,855 to 7,867 over their closed surfaces: the CAD's default steel), a 92 kg
    Zu 7. Only what no real arm is: 3 or more moving links, at least half of those judged;
    each one's density taken over the largest volume its geometry can have (so it is at
    least that dense) and below density_max (above it, density-implausible says it).
    """
    dense: List[Tuple[str, float]] = []
    judged = 0
    for link in ctx.robot.links:
        joint = ctx.robot.parent_joint(link.name)
        if joint is None or not joint.is_moving or ctx.robot.link(link.name) is not link or \
                not density_judged(ctx, link) or density_verdict(ctx, link) is not None or \
                link.name in placeholder_inertials(ctx):  # (not their own masses: said so)
            continue
        judged += 1
        volumes = volume_range(ctx, link)
        least = link.mass / volumes[1]  # type: ignore[index]
        if SOLID_METAL <= least <= DENSEST_METAL and _collision_is_visual(ctx, link):
            dense.append((link.name, least))
    if len(dense) < MODEL_WIDE_MIN or len(dense) < 0.5 * judged:
        return
    links = tuple(name for name, _ in dense)
    total = _robot_mass(ctx)
    low, high = min(value for _, value in dense), max(value for _, value in dense)
    first = ctx.robot.link(links[0])
    yield ctx.finding(
        'density-solid-metal', Severity.INFO,
        f'{len(dense)} of the {judged} moving links whose density can be judged are as dense '
        f'as solid metal over their whole collision volume ({fmt(low)} to {fmt(high)} kg/m^3 '
        f'at least; {listed(links)}): masses computed from solid CAD bodies at a '
        f"metal's density? The robot weighs {fmt(total)} kg in all",
        element='inertial/mass', line=first.inertial.mass_line,  # type: ignore[union-attr]
        suggestion="compare the robot's total mass with the manufacturer's data sheet; give "
                   'each link its real mass (the CAD model with its real materials and hollow '
                   'parts): robot links are hollow shells with motors and cables inside',
        values=(('count', len(dense)), ('judged', judged), ('density_min_found', low),
                ('density_max_found', high), ('total_mass', total)),
        links=links)


def turned_axes(ctx: CheckContext, link: Link) -> Optional[Finding]:
    """Return a link's inertia-axes-turned finding, or None (computed once per analysis)."""
    key = ('turned-axes', id(link))
    if key not in ctx.memo:
        ctx.memo[key] = _turned_axes(ctx, link)
    return ctx.memo[key]  # type: ignore[return-value]


def turned_centre(ctx: CheckContext, link: Link) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """
    Return the turn and the centre of mass it puts inside the part, when its tensor is turned.

    Niryo Ned3 Pro's arm_link: the whole <inertial> written in the CAD frame turned 90
    degrees about z (no rpy): its tensor's moments lie on other axes, and its centre of mass
    0.067 m outside the part; turned as the tensor is, both fit. Only the quarter and half
    turns that put the tensor on the geometry's axes are tried (the tensor chose them: no
    chance match), and only for an inertial frame that is the link's (no rpy).

    :return: (the turn, the centre of mass turned), or None
    """
    inertial = link.inertial
    if inertial is None or any(inertial.origin.rpy):
        return None
    declared = valid_tensor(ctx, link)
    if declared is None:
        return None
    turned = turned_onto_geometry(ctx, link, declared)
    if turned is None or not turned.fit <= AXES_SAME or turned_collision(ctx, link) is not None:
        return None
    both = _drawn_bounds(ctx, link)
    if both is None:
        return None
    com = np.asarray(inertial.origin.xyz, dtype=float)
    tolerance = com_tolerance(both)
    if distance_outside(com, both) <= tolerance:
        return None  # inside as written
    matrix = declared.matrix
    for turn in (turned.turn,) + tuple(TURNS):
        if about_axes(turn @ matrix @ turn.T, turned.axes, turned.want)[0] > AXES_SAME:
            continue
        centre = turn @ com
        if distance_outside(centre, both) <= tolerance:
            return turn, centre
    return None


def _turned_axes(ctx: CheckContext, link: Link) -> Optional[Finding]:
    """
    Flag a tensor with the geometry's moments on other axes: its frame turned.

    KUKA KR 560 R3100-2's link_3 (241 kg) declares (6.42, 26.6, 29.6) kg m^2 about its
    inertial axes where its collision mesh gives (26.7, 6.10, 28.6): the moments agree, the
    small one lies across the arm instead of along it (the inertial rpy turned 90 degrees
    about z), and inertia-geometry-mismatch, comparing sorted moments, said nothing.
    """
    declared = valid_tensor(ctx, link)
    if declared is None or declared.moments[0] < MUJOCO_EPS:
        return None
    if negligible_in_its_body(ctx, link) or excess(ctx, link) is not None or \
            link.name in placeholder_carriers(ctx) or link.name in about_link_origin(ctx) or \
            link.name in placeholder_inertials(ctx):
        return None
    turned = turned_onto_geometry(ctx, link, declared)
    if turned is None or turned_collision(ctx, link) is not None:
        # (the collision geometry stands turned from the visual, collision-visual-turned
        # says: Flexiv Rizon 10's correct tensors on link3 and link5 were told to turn with
        # it; the tensor is judged against the collision once that is fixed)
        return None
    matrix = declared.matrix
    want, worst, turn, fit, off, apart = (turned.want, turned.worst, turned.turn, turned.fit,
                                          turned.off, turned.apart)
    axis = turned.axes[:, worst]
    named = next((f'{"xyz"[index]} axis' for index in range(3) if abs(axis[index]) > 0.99),
                 f'axis ({fmt_vector(axis, 3)})')
    along = float(axis @ matrix @ axis)
    simple = fit <= AXES_SAME
    centre = turned_centre(ctx, link) if simple else None
    if centre is not None:  # the turn that puts the centre of mass inside too
        turn = centre[0]
        fit = about_axes(turn @ matrix @ turn.T, turned.axes, turned.want)[0]
    suggested = turn @ matrix @ turn.T if simple else geometry_tensor(ctx, link)
    how = (f"the declared tensor turned {axis_words(turn)} fits the geometry's axes within "
           f'{fmt(fit, 3)}x: ' if simple else
           "no quarter turn of the declared tensor fits the geometry's axes: the collision "
           "geometry's tensor at uniform density is ")
    change = fused_change(ctx, link, suggested, turned=True)
    if change is not None and change < FUSED_AWAY:
        return None  # welded into a body it changes by under 10 %: fused away
    values = inertia_values(suggested)
    both = ''
    if centre is not None:
        both = (f'; turned {axis_words(centre[0])} too, the centre of mass, written outside '
                f'the part, lies within it (xyz="{fmt_vector(centre[1])}"): the whole '
                "<inertial> is written in a frame turned from the link's")
    return ctx.finding(
        'inertia-axes-turned', Severity.WARNING,
        f'principal moments {fmt_vector(declared.moments)} kg m^2 match the collision '
        f"geometry's ({fmt_vector(want)}, within {fmt(off, 3)}x) but lie on other axes: "
        f"about the inertial frame's {named}, where the geometry gives "
        f'{fmt(float(want[worst]))} kg m^2, the tensor has {fmt(along)} '
        f'({fmt(apart, 3)}x); the inertial frame looks turned{both}',
        link=link.name, element='inertial/inertia', line=link.inertial.inertia.line,
        suggestion=how + fmt_inertia(values)
        + (f' with the centre of mass at xyz="{fmt_vector(centre[1])}"'
           if centre is not None else '')
        + ' (in the same inertial frame); or fix the rpy of the inertial origin',
        values=(('factor', apart), ('moments_match', off),
                ('turn', axis_words(turn) if simple else '')),
        suggested_inertia=values)


def check_axes(ctx: CheckContext) -> Iterator[Finding]:
    """Report tensors turned off their geometry's axes: per link, or once for 3 or more alike."""
    by_turn: Dict[str, List[Finding]] = {}
    for link in ctx.robot.links:
        if ctx.robot.link(link.name) is not link:
            continue  # a duplicated name: only the first is checked
        found = turned_axes(ctx, link)
        if found is not None:
            by_turn.setdefault(str(dict(found.values)['turn']), []).append(found)
    for turn, findings in by_turn.items():
        yield from grouped(ctx, findings, 'links declare tensors whose moments are their '
                                          "geometry's on other axes"
                           + (f' (each turned {turn})' if turn else ''), own_fixes=True)


#: inertia-about-link-origin: the declared tensor this far off its geometry, the corrected
#: one within ORIGIN_FIT and ORIGIN_GAIN times closer, on ORIGIN_MIN links or more
ORIGIN_OFF = 2.5
ORIGIN_FIT = 2.0
ORIGIN_GAIN = 2.0
ORIGIN_MIN = 2


@record
class OriginTensor:
    """A tensor written about the link origin: how it fits, and the tensor about the COM."""

    #: how far the declared tensor is off its geometry, and the corrected one
    declared: float
    fit: float
    #: the products were negated (the CAD convention) before the correction
    negated: bool
    #: the tensor about the centre of mass (inertial frame)
    tensor: np.ndarray


def origin_tensor(ctx: CheckContext, link: Link) -> Optional[OriginTensor]:
    """
    Return how a link's tensor is its geometry's about the link origin, or None.

    Neuromeka's Indy (all six models) writes each tensor about the link origin, as a CAD
    tool reports it "at the output coordinate system", with the products' signs of the CAD
    convention: link2 of the Indy7 declares (0.036, 0.723, 0.700) kg m^2, 3.7x off its
    geometry; less m (|c|^2 E - c c^T) for its centre of mass 0.3 m out, products negated,
    (0.024, 0.198, 0.187), within 1.13x of the geometry's (0.020, 0.194, 0.189).
    """
    declared = valid_tensor(ctx, link)
    if declared is None or declared.moments[0] < MUJOCO_EPS:
        return None
    centre = link.inertial.origin.xyz
    if not any(centre) or negligible_in_its_body(ctx, link) or \
            link.name in placeholder_carriers(ctx) or link.name in placeholder_inertials(ctx):
        return None
    expected = geometry_tensor(ctx, link)
    model, _ = ctx.collision_model(link)
    if expected is None or model is None:
        return None
    rotation = rpy_to_matrix(link.inertial.origin.rpy)
    com = np.asarray(centre, dtype=float)
    mass = link.mass
    # The geometry's tensor about the declared centre of mass (the part's real centre of
    # mass is the CAD's, not the uniform-density centroid), in the inertial frame.
    at_com = expected + parallel_axis(mass, rotation.T @ (com - np.asarray(model.centre)))
    if not np.all(np.isfinite(at_com)):
        return None  # a centre of mass whose square overflows (inertial-out-of-range says it)
    matrix = declared.matrix
    if near(matrix, at_com, ORIGIN_OFF):
        return None  # most links: no axis can be ORIGIN_OFF off (without the eigenvectors)
    want, axes = np.linalg.eigh(at_com)
    if not np.all(want > 0.0):
        return None
    off, _ = about_axes(matrix, axes, want)
    if not off >= ORIGIN_OFF:
        return None
    term = parallel_axis(mass, rotation.T @ com)
    best: Optional[OriginTensor] = None
    for negated in (False, True):
        corrected = (flip_products(matrix) if negated else matrix) - term
        tensor = TensorProperties(corrected)
        if not tensor.is_positive_definite() or violates_triangle(tensor.moments):
            continue
        fit, _ = about_axes(corrected, axes, want)
        # products negated only when that fits clearly better (small products fit alike)
        if best is None or fit < 0.9 * best.fit:
            best = OriginTensor(off, fit, negated, corrected)
    if best is None or not (best.fit <= ORIGIN_FIT and off >= ORIGIN_GAIN * best.fit):
        return None
    return best


def _origin_fits(ctx: CheckContext) -> Dict[str, OriginTensor]:
    """Return every link whose tensor fits about the link origin (once per analysis)."""
    key = ('origin-fits', None)
    found = ctx.memo.get(key)
    if found is None:
        found = {}
        for link in ctx.robot.links:
            if ctx.robot.link(link.name) is not link:
                continue  # a duplicated name: only the first is checked
            origin = origin_tensor(ctx, link)
            if origin is not None:
                found[link.name] = origin
        ctx.memo[key] = found
    return found  # type: ignore[return-value]


def about_link_origin(ctx: CheckContext) -> Dict[str, OriginTensor]:
    """Return the links whose tensors are about the link origin, when 2 or more are."""
    key = ('about-link-origin', None)
    found = ctx.memo.get(key)
    if found is None:
        found = _origin_fits(ctx)
        # Parts of 2 designs or more: a left/right pair, or a quadruped's four legs, is one
        # part written once (its moments sorted, to 6 digits) and one fit could be chance
        # (TALOS's ankle pair: another test with the whole hull did not confirm it).
        designs = {_sig(sorted(ctx.robot.link(name).inertial.inertia.as_tuple()[index]
                               for index in (0, 3, 5))) for name in found}
        if len(designs) < ORIGIN_MIN:
            found = {}
        ctx.memo[key] = found
    return found  # type: ignore[return-value]


def origin_note(ctx: CheckContext, link: Link) -> str:
    """
    Say, in a tensor finding's fix, that the tensor fits once moved to its centre of mass.

    One design alone is no rule's finding (:func:`about_link_origin`: a chance fit), but the
    other rules' fix then replaces a CAD tensor by the geometry's: the alternative is said.
    '' for a link inertia-about-link-origin lists, or whose tensor does not fit so.
    """
    found = _origin_fits(ctx).get(link.name)
    if found is None or link.name in about_link_origin(ctx):
        return ''
    return ('; or, if the tensor is written about the link origin (as CAD tools report it '
            '"at the output coordinate system"), not about the centre of mass: less m '
            '(|c|^2 E - c c^T) for its centre of mass c'
            + (', its products negated,' if found.negated else '')
            + f' it fits the geometry within {fmt(found.fit, 3)}x (as written '
            f'{fmt(found.declared, 3)}x off): {fmt_inertia(tidy_values(found.tensor))}')


def check_origin_tensors(ctx: CheckContext) -> Iterator[Finding]:
    """Report tensors written about the link origin: one finding for the robot."""
    found = about_link_origin(ctx)
    if not found:
        return
    names = tuple(found)
    first = ctx.robot.link(names[0])
    origin = found[names[0]]
    over = [name for name in names if _clearly_over(ctx, ctx.robot.link(name))]
    negated = [name for name in names if found[name].negated]
    fits = [found[name].fit for name in names]
    offs = [found[name].declared for name in names]
    products = (f'; their products negated ({listed(tuple(negated))}), as CAD tools sign '
                'them' if negated else '')
    tensor = first.inertial.inertia  # type: ignore[union-attr]
    suggested = tidy_values(origin.tensor)
    yield ctx.finding(
        'inertia-about-link-origin', Severity.ERROR if over else Severity.WARNING,
        f'{len(names)} links declare tensors about the link origin, not about their centre '
        f'of mass ({listed(names)}): as written they are {fmt_range(offs, 3)}x off their '
        f"collision geometry's; less m (|c|^2 E - c c^T) for each centre of mass c, within "
        f'{fmt_range(fits, 3)}x{products}'
        + (f'; as written, {listed(tuple(over))} exceed{"s" if len(over) == 1 else ""} '
           'their physical bound' if over else '')
        + f' (the first, {first.name}: ixx={fmt(tensor.ixx)} iyy={fmt(tensor.iyy)} '
        f'izz={fmt(tensor.izz)} about its origin, its centre of mass at '
        f'xyz="{fmt_written(first.inertial.origin.xyz)}")',
        link=first.name, element='inertial/inertia', line=tensor.line,
        suggestion=(f'write each tensor about its centre of mass (for {first.name}: '
                    f'{fmt_inertia(suggested)}); --fix-inertia writes them all'),
        values=(('count', len(names)), ('links', listed(names))),
        suggested_inertia=suggested, links=names,
        links_suggested_inertia=tuple((name, tidy_values(found[name].tensor))
                                      for name in names))


#: inertial-placeholder: the parts sharing one inertial differ in size this much or more
#: (their densities then differ about its cube: no real parts share one mass so)
PLACEHOLDER_SIZES = 3.0


def _sig(values) -> Tuple[float, ...]:
    return tuple(float(f'{float(value):.6g}') for value in values)


def placeholder_inertials(ctx: CheckContext) -> Dict[str, Tuple[Link, ...]]:
    """
    Return link -> the links sharing its inertial, for inertials that are placeholders.

    KUKA's KR 16-2 (ROS-Industrial) gives its 7 links one inertial, 2 kg, 0.01 kg m^2 on
    each axis, centre of mass at the origin: a 14 kg robot of 235 kg, which the rules said
    as 2 centres of mass outside and 2 densities, each plausible-looking alone.
    """
    key = ('placeholder-inertials', None)
    found = ctx.memo.get(key)
    if found is None:
        found = {}
        groups: Dict[Tuple[object, ...], List[Link]] = {}
        for link in ctx.robot.links:
            if ctx.robot.link(link.name) is not link or not usable(link) or \
                    not any(link.inertial.inertia.as_tuple()):
                continue  # (a point mass: the zero-tensor rules judge it)
            verdict = density_verdict(ctx, link)
            if verdict is not None and verdict.length_slip:
                continue  # a mesh in millimetres: its size is not the part's (density says)
            inertial = link.inertial
            # The tensor and its frame only: YuMi's macro gives its 14 links one tensor, 12 of
            # them one mass and one centre of mass. The frame of three equal moments is no
            # matter (r2d2's legs turn their unit tensor by rpy="0 1.57075 0": "14 links"
            # of 16, and the legs' own finding of the same placeholder).
            frame = () if _isotropic(link) else _sig(inertial.origin.rpy)
            groups.setdefault((_sig(inertial.inertia.as_tuple()), frame), []).append(link)
        for links in groups.values():
            # Judged by the links whose inertial matters (a sensor frame's 0.1 g welded to
            # its body is fused away), listing every link that carries it.
            judged = [link for link in links if not negligible_in_its_body(ctx, link)]
            if len(judged) < MODEL_WIDE_MIN:
                continue
            sizes = [size for size in (_part_size(ctx, link) for link in judged)
                     if size is not None and size > 0.0]
            if len(sizes) >= 2 and max(sizes) >= PLACEHOLDER_SIZES * min(sizes):
                found.update((link.name, tuple(links)) for link in links)
        copied = copied_bodies(ctx, set(found))
        for links in copied:
            found.update((link.name, links) for link in links)
        ctx.memo[COPIED_KEY] = frozenset(link.name for links in copied for link in links)
        ctx.memo[key] = found
    return found  # type: ignore[return-value]


#: one body copied onto links: their centres of mass at rest this close (m), their principal
#: moments this close (a share), each this share of the robot's mass or more, all together
#: this share (three cameras' frames with one dummy inertial are not a hand's mass)
COPIED_AT = 1e-3
COPIED_MOMENTS = 0.03
COPIED_SHARE = 0.01
COPIED_TOTAL = 0.25
#: CheckContext.memo key of the links of copied_bodies' groups
COPIED_KEY = ('copied bodies', None)


def copied_bodies(ctx: CheckContext, taken: Set[str]) -> List[Tuple[Link, ...]]:
    """
    Return groups of 3 or more links carrying one body's mass properties, each turned.

    LinkerHand's L25 gives 18 finger links the palm's inertial (sweep U): the same mass,
    the centre of mass at the same point of the hand at rest, the same principal moments,
    each tensor written in its link's frame (so not one tensor, as placeholders are): a
    5.4 kg hand, said as 17 centres of mass outside and 8 tensors over their bounds.
    """
    # Positive masses only: then at most 1 / COPIED_SHARE links pass the share below (a root
    # of -1e9 kg let 10,000 links through, compared with each other: 118 s, review 13)
    total = sum(link.mass for link in ctx.robot.links
                if link.inertial is not None and math.isfinite(link.mass) and link.mass > 0.0)
    if not total > 0.0:
        return []
    by_mass: Dict[str, List[Link]] = {}
    for link in ctx.robot.links:
        if link.name in taken or ctx.robot.link(link.name) is not link or \
                not usable(link) or not any(link.inertial.inertia.as_tuple()) or \
                not link.mass >= COPIED_SHARE * total:
            continue
        by_mass.setdefault(f'{link.mass:.9g}', []).append(link)
    candidates = [links for links in by_mass.values() if len(links) >= MODEL_WIDE_MIN]
    if not candidates:
        return []
    groups = []
    for links in candidates:
        clusters: List[Tuple[np.ndarray, np.ndarray, List[Link]]] = []
        for link in links:
            at_rest = _at_rest(ctx, link)
            if at_rest is None:
                continue
            centre, moments = at_rest
            if not np.all(np.isfinite(centre)) or not moments[-1] > 0.0:
                continue
            for at, principal, members in clusters:
                if np.linalg.norm(centre - at) <= COPIED_AT and np.all(
                        np.abs(moments - principal) <= COPIED_MOMENTS * principal[-1]):
                    members.append(link)
                    break
            else:
                clusters.append((centre, moments, [link]))
        groups.extend(tuple(members) for _, _, members in clusters
                      if len(members) >= MODEL_WIDE_MIN
                      and sum(link.mass for link in members) >= COPIED_TOTAL * total
                      and 2 * sum(1 for link in members if _centre_outside(ctx, link))
                      >= len(members))
    return groups


def _at_rest(ctx: CheckContext, link: Link) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """Return a link's centre of mass in the root's frame at rest and its sorted moments."""
    pose = _robot_bounds(ctx)[0].get(link.name)  # (the poses at rest, once an analysis)
    if pose is None:
        return None
    inertial = link.inertial
    centre = pose[:3, :3] @ np.asarray(inertial.origin.xyz, dtype=float) + pose[:3, 3]
    return centre, np.sort(np.linalg.eigvalsh(np.asarray(inertial.inertia.as_matrix(),
                                                         dtype=float)))


def _centre_outside(ctx: CheckContext, link: Link) -> bool:
    """
    Return True when a link's centre of mass lies outside its drawn geometry.

    One body's copies sit where that body is, away from most of the parts carrying them
    (the L25's fingers); parts piled at one place, each holding its centre, are not copies.
    """
    box = _drawn_bounds(ctx, link)
    if box is None:
        return False
    centre = np.asarray(link.inertial.origin.xyz, dtype=float)
    return distance_outside(centre, box) > com_tolerance(box)


def _drawn_bounds(ctx: CheckContext, link: Link) -> Optional[Bounds]:
    """Return the union of a link's collision and visual bounds, None if one is unknown."""
    boxes = [group_bounds(ctx, elements) for elements in (link.collisions, link.visuals)
             if any(element.geometry is not None for element in elements)]
    if not boxes or any(box is None for box in boxes):
        return None
    return union_bounds(boxes)


def _part_size(ctx: CheckContext, link: Link) -> Optional[float]:
    """
    Return the diagonal of a link's collision and visual bounds, None if unknown.

    The collision's alone when the visual of the same mesh lies away from it
    (collision-visual-apart): Orbbec's 17 mm lens, its visual 25 m off, was a part "25 m
    across" with the tensor of a lens, and its correct tensor a placeholder.
    """
    from urdf_link_tools.checks.alignment import visual_apart
    box = group_bounds(ctx, link.collisions) if visual_apart(ctx, link) is not None else \
        _drawn_bounds(ctx, link)
    if box is None:
        return None
    size = float(np.linalg.norm(box[1] - box[0]))
    return size if math.isfinite(size) else None


def _clearly_over(ctx: CheckContext, link: Link) -> bool:
    """Return True when a link's tensor is CLEAR_EXCESS times its physical bound or more."""
    found = excess(ctx, link)
    return found is not None and found.bound > 0.0 and \
        found.moment >= CLEAR_EXCESS * found.bound


def check_placeholder_inertials(ctx: CheckContext) -> Iterator[Finding]:
    """Report one inertial shared by parts of different sizes: one finding per inertial."""
    said = set()
    for name, links in placeholder_inertials(ctx).items():
        if name in said:
            continue
        said.update(link.name for link in links)
        copied = name in ctx.memo.get(COPIED_KEY, frozenset())  # type: ignore[operator]
        yield _copied_finding(ctx, links) if copied else _placeholder_finding(ctx, links)


def _copied_finding(ctx: CheckContext, links: Tuple[Link, ...]) -> Finding:
    """Say the links carrying one body's mass properties (see :func:`copied_bodies`)."""
    from urdf_link_tools.kinematics import choose_root
    names = tuple(link.name for link in links)
    first = links[0]
    centre, moments = _at_rest(ctx, first)  # type: ignore[misc] (a group's links have one)
    over = [link.name for link in links if _clearly_over(ctx, link)]
    copies = sum(link.mass for link in links)
    turned = len({_sig(link.inertial.inertia.as_tuple()) for link in links}) > 1
    return ctx.finding(
        'inertial-placeholder', Severity.ERROR if over else Severity.WARNING,
        f"{len(names)} links carry one body's mass properties: each {fmt(first.mass)} kg, "
        f'its centre of mass at one point of the robot at rest ({fmt_vector(centre)} in '
        f"'{choose_root(ctx.robot)}''s frame) and the same principal moments "
        f'({fmt_vector(moments)} kg m^2)'
        + (", each tensor turned into its own link's frame" if turned else '')
        + f": one part's inertial (or the assembly's) copied onto each ({listed(names)}); "
        f'the robot weighs {fmt(_robot_mass(ctx))} kg in all, {fmt(copies)} kg of it these '
        'copies'
        + (f'; as written, {listed(tuple(over))} '
           + ('exceeds its' if len(over) == 1 else 'exceed their') + ' physical bound'
           if over else ''),
        link=first.name, element='inertial', line=first.inertial.line,
        suggestion=("give each link its own part's mass, centre of mass and tensor: export "
                    'them again from CAD, one part at a time (an exporter given the whole '
                    'assembly, or one part, for every link writes this)'),
        values=(('count', len(names)), ('links', listed(names)),
                ('mass', f'each {fmt(first.mass)} kg')),
        links=names)


def _placeholder_finding(ctx: CheckContext, links: Tuple[Link, ...]) -> Finding:
    names = tuple(link.name for link in links)
    first = links[0]
    inertial = first.inertial
    sizes = [size for size in (_part_size(ctx, link) for link in links) if size is not None]
    over = [link.name for link in links if _clearly_over(ctx, link)]
    outside = []
    for link in links:
        box = _drawn_bounds(ctx, link)
        centre = np.asarray(link.inertial.origin.xyz, dtype=float)
        if box is not None and distance_outside(centre, box) > com_tolerance(box):
            outside.append(link.name)
    own = []
    sources = []
    for link in links:
        tensor, source = suggest(ctx, link, None, '', derived=True)
        if tensor is None and link.name in over and _geometry_free(link):
            # Its tensor over its body's bound on its own, and nothing of its own to derive
            # one from (PR2's stereo mounts, welded to the head): what inertia-exceeds-extent
            # suggests for it once the others are fixed (a sphere of its mass), now, so that
            # one --fix-inertia pass leaves no error for a second.
            tensor, source = suggest(ctx, link, None, '')
        sources.append(source)
        if tensor is not None:
            own.append((link.name, inertia_values(tensor)))
    details = []
    if over:
        details.append(f'as written, {listed(tuple(over))} '
                       + ('exceeds its' if len(over) == 1 else 'exceed their')
                       + ' physical bound')
    if outside:
        details.append(f'the centre of mass lies outside {listed(tuple(outside))}')
    rpy = inertial.origin.rpy
    centres = {fmt_vector(link.inertial.origin.xyz) for link in links}
    masses = fmt_range([link.mass for link in links])
    mass = f'{masses} kg' if ' to ' in masses else f'each {masses} kg'
    same = (f', each centre of mass at xyz="{fmt_written(inertial.origin.xyz)}"'
            if len(centres) == 1 else '')
    return ctx.finding(
        'inertial-placeholder', Severity.ERROR if over else Severity.WARNING,
        f'{len(names)} links declare the same inertia tensor '
        f'({fmt_inertia(inertial.inertia.as_tuple())}'
        + (f' in a frame turned by rpy="{fmt_vector(rpy)}"'
           if any(rpy) and not _isotropic(first) else '')
        + f') though their parts are {fmt(min(sizes), 3)} to {fmt(max(sizes), 3)} m across '
        f'({mass}{same}): a placeholder, not their mass properties ({listed(names)}); the '
        f'robot weighs {fmt(_robot_mass(ctx))} kg in all'
        + ''.join(f'; {text}' for text in details),
        link=first.name, element='inertial', line=inertial.line,
        suggestion="give each link its part's mass, centre of mass and tensor (CAD or the "
                   "manufacturer's data)" + (
                       f'; for {own[0][0]}, {sources[names.index(own[0][0])]} (--fix-inertia '
                       'writes one '
                       + ('per link)' if len(own) == len(links) else
                          f'on {len(own)} of them; not on '
                          f'{listed(tuple(n for n in names if n not in dict(own)))}, for '
                          'which no tensor of its geometry passes every rule about the '
                          'declared centre of mass: check it)') if own else
                       f'; no tensor comes from their geometry (for {names[0]}: '
                       f'{sources[0]}): check their masses and centres of mass too'),
        values=(('count', len(names)), ('links', listed(names)), ('mass', mass)),
        links=names, links_suggested_inertia=tuple(own))


def _geometry_free(link: Link) -> bool:
    """Return True for a link with no visual or collision geometry."""
    return not any(element.geometry is not None for element in link.visuals + link.collisions)


def tidy_values(matrix: np.ndarray) -> Tuple[float, float, float, float, float, float]:
    """Return a tensor's six values, its rounding-noise products set to 0."""
    return inertia_values(tidy(matrix))


CHECKS = (check_mismatches, check_axes, check_origin_tensors, check_placeholder_inertials,
          check_densities, check_solid_metal, check_coms)


def _volume_text(smallest: float, largest: float) -> str:
    """Return '1.5 m^3', or '1.5 to 2 m^3' when the volume is only known within bounds."""
    if fmt(smallest) == fmt(largest):
        return f'{fmt(smallest)} m^3'
    return f'{fmt(smallest)} to {fmt(largest)} m^3'
