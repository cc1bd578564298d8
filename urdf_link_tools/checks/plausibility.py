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

import math
from typing import Iterator, Optional, Tuple

import numpy as np

from urdf_link_tools.checks.base import CheckContext, fmt, fmt_vector, Rule
from urdf_link_tools.checks.suggest import geometry_tensor, mismatch, suggest
from urdf_link_tools.findings import Finding, Severity
from urdf_link_tools.geometry import (
    distance_outside, geometry_values, is_finite, union_bounds)
from urdf_link_tools.inertia import (
    inertia_values, MUJOCO_EPS, principal_moments, violates_triangle)
from urdf_link_tools.model import Link, Mesh

#: The centre of mass may sit this fraction of the geometry bounds' diagonal outside them.
COM_TOLERANCE = 0.05
#: Collision geometry whose bounds' diagonal is below this (m) is a placeholder.
MARKER_SIZE = 0.01

RULES = (
    Rule('inertia-geometry-mismatch', Severity.WARNING,
         "a principal moment differs from the collision geometry's by more than "
         'inertia_mismatch_factor (10x by default), either way',
         'a wrong tensor (a copied placeholder such as ixx=iyy=izz=1, a unit slip) makes '
         'joints far too sluggish or far too twitchy in simulation and control',
         'use the suggested tensor (uniform density, in the URDF inertial frame) or the CAD '
         'values', 'URDF link specification (inertia); solid-body formulas'),
    Rule('density-implausible', Severity.WARNING,
         'mass / collision volume is outside [density_min, density_max] (50 to 25,000 kg/m^3)',
         'a unit slip: millimetre meshes without scale="0.001 0.001 0.001" (off by ~1e9), '
         'grams written as kilograms (off by ~1e3), or a collision shape that is not the part',
         'fix the mass unit, the mesh scale or the collision geometry, as the hint says',
         'URDF link specification (mass in kg, lengths in m)'),
    Rule('com-outside-geometry', Severity.WARNING,
         'the inertial origin (centre of mass) lies outside the bounds of the collision '
         'geometry and of the visual geometry',
         'usually a frame mix-up (a CAD origin, or the COM written in the parent frame)',
         'put the centre of mass in the link frame; the geometric centroid is given',
         'URDF link specification (inertial origin)'),
)


def _usable(link: Link) -> bool:
    inertial = link.inertial
    return (inertial is not None and math.isfinite(inertial.mass) and inertial.mass > 0.0
            and is_finite(inertial.inertia.as_tuple())
            and is_finite(inertial.origin.xyz + inertial.origin.rpy))


def check_mismatch(ctx: CheckContext) -> Iterator[Finding]:
    """Compare each valid tensor with the collision geometry's."""
    factor = ctx.config.inertia_mismatch_factor
    for link in ctx.robot.links:
        if not _usable(link):
            continue
        inertial = link.inertial
        declared = ctx.tensor(link)
        if not (declared.gz_is_valid(link.mass) and declared.is_positive_definite()) or \
                violates_triangle(declared.moments):
            continue  # the inertia rules report invalid tensors with their own suggestion
        if declared.moments[0] < MUJOCO_EPS:
            continue  # inertia-moment-tiny reports it, with a suggestion that also fits here
        model, _ = ctx.collision_model(link)
        expected = geometry_tensor(ctx, link)
        if model is None or expected is None:
            continue
        have = declared.moments
        want = principal_moments(expected)[0]
        off, worst = mismatch(have, want)
        if not (math.isfinite(off) and off > factor):
            continue
        ratios = have / want
        direction = 'larger' if ratios[worst] > 1.0 else 'smaller'
        suggested, text = suggest(ctx, link, None, '')
        approx = (f'; approximate volume for {", ".join(model.approximate)}'
                  if model.approximate else '')
        yield ctx.finding(
            'inertia-geometry-mismatch', Severity.WARNING,
            f'principal moments {fmt_vector(have)} kg m^2, but the collision geometry at '
            f'{fmt(link.mass)} kg gives {fmt_vector(want)}: moment {worst + 1} is '
            f'{fmt(off, 3)}x {direction} (limit {fmt(factor)}x){approx}',
            link=link.name, element='inertial/inertia', line=inertial.inertia.line,
            suggestion=f'use {text}' if 'collision geometry' in text else text,
            values=(('moments', fmt_vector(have)), ('geometry_moments', fmt_vector(want)),
                    ('factor', off), ('limit', factor),
                    ('geometry_centroid', fmt_vector(model.centre))),
            suggested_inertia=inertia_values(suggested))


#: A density this many times beyond the plausible range is a warning; closer, an info (a
#: ballast block, a part whose collision shape is deliberately smaller or larger).
FAR_OFF = 10.0
#: Densities of the solid parts robots are made of (foam-filled plastic to steel), kg/m^3:
#: a unit-slip hint is given only when the corrected density lands in this range.
TYPICAL_DENSITY = (300.0, 12000.0)


def check_density(ctx: CheckContext) -> Iterator[Finding]:
    """Flag masses that are implausible for any volume the collision geometry can have."""
    low, high = ctx.config.density_min, ctx.config.density_max
    for link in ctx.robot.links:
        if link.inertial is None or not (math.isfinite(link.mass) and link.mass > 0.0):
            continue
        volumes = ctx.volume_range(link)
        if volumes is None:
            continue
        smallest, largest, notes = volumes
        bounds = _group_bounds(ctx, link.collisions)
        if bounds is None or float(np.linalg.norm(bounds[1] - bounds[0])) < MARKER_SIZE:
            continue  # a millimetre placeholder shape says nothing about the part
        # The density lies between these two, whatever the overlaps and self-intersections.
        least, most = link.mass / largest, link.mass / smallest
        group = ctx.weld_group(link.name)
        if least > high and (len(group) > 1 or link.visuals):
            # Partial collision geometry (contact spheres under a foot): the part may fill
            # its visual geometry and the links welded to it, so only their total bounds
            # the volume from above.
            least = link.mass / max(largest, _upper_volume(ctx, group))
        if most < low and len(group) > 1:
            # A placeholder mass (1e-6 kg) on a link welded to the one carrying the mass.
            most = sum(ctx.robot.link(name).mass for name in group
                       if 0.0 < ctx.robot.link(name).mass < math.inf) / smallest
        if least > high:
            density, far = least, least > FAR_OFF * high
        elif most < low:
            density, far = most, most < low / FAR_OFF
        else:
            continue
        hint, slip = _density_hint(link, density, low, high)
        between = (f'{fmt(density)} kg/m^3' if least == most else
                   f'between {fmt(least)} and {fmt(most)} kg/m^3')
        yield ctx.finding(
            'density-implausible', Severity.WARNING if far or slip else Severity.INFO,
            f'{fmt(link.mass)} kg in {fmt(smallest)} to {fmt(largest)} m^3 of collision '
            f'geometry is {between}, outside {fmt(low)} to {fmt(high)} kg/m^3'
            + (f' ({"; ".join(notes)})' if notes else ''),
            link=link.name, element='inertial/mass', line=link.inertial.mass_line,
            suggestion=hint,
            values=(('density', density), ('mass', link.mass), ('volume_min', smallest),
                    ('volume_max', largest)))


def _upper_volume(ctx: CheckContext, group) -> float:
    """Return a volume no smaller than a rigid body's material: every part and visual box."""
    total = 0.0
    for name in group:
        member = ctx.robot.link(name)
        volumes = ctx.volume_range(member)
        total += volumes[1] if volumes is not None else 0.0
        for visual in member.visuals:
            box = ctx.element_bounds(visual) if visual.geometry is not None else None
            if box is not None:
                total += float(np.prod(box[1] - box[0]))
    return total


def _density_hint(link: Link, density: float, low: float, high: float) -> Tuple[str, bool]:
    """Return (hint, True when the numbers point to a unit slip)."""
    typical_low, typical_high = TYPICAL_DENSITY
    has_mesh = any(isinstance(element.geometry, Mesh) for element in link.collisions)
    if typical_low <= density * 1e9 <= typical_high:
        return ('the volume is ~1e9 too large: lengths in millimetres'
                + ('; add scale="0.001 0.001 0.001" to the <mesh>' if has_mesh else
                   '; URDF lengths are metres') + ''), True
    if has_mesh and typical_low <= density * 1e-9 <= typical_high:
        return ('the volume is ~1e9 too small: a mesh in metres was scaled as if in '
                'millimetres (remove scale="0.001 0.001 0.001")'), True
    if typical_low <= density / 1000.0 <= typical_high:
        return (f'the mass looks like grams written as kilograms: {fmt(link.mass / 1000.0)} '
                'kg would give a density typical of plastic or metal parts'), True
    if density < low:
        return ('the collision geometry is much bigger than the part, or the mass is too low: '
                'check both'), False
    return ('denser than any metal: the collision geometry is much smaller than the part, or '
            'the mass is too high (a deliberate ballast can be silenced with --ignore '
            'density-implausible)'), False


def _group_bounds(ctx: CheckContext, elements) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """Return the union bounds of the elements with a real size; None if one is unknown."""
    boxes = []
    for element in elements:
        if element.geometry is None or not _has_size(element.geometry):
            continue  # zero-size shapes (markers, a radius-0 sphere) enclose nothing
        box = ctx.element_bounds(element)
        if box is None:
            return None
        boxes.append(box)
    return union_bounds(boxes)


def _has_size(geometry) -> bool:
    values = geometry_values(geometry)
    return is_finite(values) and all(value > 0.0 for value in values)


def check_com(ctx: CheckContext) -> Iterator[Finding]:
    """
    Flag centres of mass outside everything the link is drawn or collides with.

    The centre of mass of a body lies in the convex hull of its material, so inside the
    bounds of its geometry; collision geometry is often partial (a sole plate, a few
    spheres), so a centre of mass inside the visual geometry's bounds is fine too.
    """
    for link in ctx.robot.links:
        if not _usable(link) or not any(e.geometry is not None for e in link.collisions):
            continue
        collision = _group_bounds(ctx, link.collisions)
        if collision is None:
            continue
        com = np.asarray(link.inertial.origin.xyz, dtype=float)
        visual = _group_bounds(ctx, link.visuals)
        both = union_bounds([collision, visual])
        tolerance = COM_TOLERANCE * float(np.linalg.norm(both[1] - both[0]))
        distance = distance_outside(com, both)
        if distance <= tolerance:
            continue
        model, _ = ctx.collision_model(link)
        centroid = (f'; the collision geometry\'s centroid is at xyz="'
                    f'{fmt_vector(model.centre, 6)}"' if model is not None else '')
        lo, hi = both
        yield ctx.finding(
            'com-outside-geometry', Severity.WARNING,
            f'the centre of mass xyz="{fmt_vector(com)}" is {fmt(distance, 3)} m outside the '
            'bounds of the collision' + (' and visual' if visual is not None else '')
            + f' geometry ({fmt_vector(lo, 3)} to {fmt_vector(hi, 3)}); the centre of mass of '
            'a body lies within its material',
            link=link.name, element='inertial/origin',
            line=link.inertial.origin.line or link.inertial.line,
            suggestion='check that the centre of mass is in the link frame' + centroid,
            values=(('com', fmt_vector(com)), ('distance', distance)))


CHECKS = (check_mismatch, check_density, check_com)
