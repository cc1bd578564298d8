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
from typing import Iterator

import numpy as np

from urdf_link_tools.checks.base import CheckContext, fmt, fmt_inertia, fmt_vector, Rule
from urdf_link_tools.findings import Finding, Severity
from urdf_link_tools.geometry import distance_outside, is_finite, rpy_to_matrix, union_bounds
from urdf_link_tools.inertia import inertia_values, principal_moments, violates_triangle
from urdf_link_tools.model import Link

#: The centre of mass may sit this fraction of the collision bounds' diagonal outside them.
COM_TOLERANCE = 0.01

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
         "the inertial origin (centre of mass) lies outside every collision element's "
         'bounding box',
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
        model, _ = ctx.collision_model(link)
        if model is None:
            continue
        rotation = rpy_to_matrix(inertial.origin.rpy)
        expected = rotation.T @ (model.unit_inertia * (link.mass / model.volume)) @ rotation
        have = declared.moments
        want = principal_moments(expected)[0]
        if not np.all(want > 0.0) or not np.all(have > 0.0):
            continue
        ratios = have / want
        worst = int(np.argmax(np.maximum(ratios, 1.0 / ratios)))
        off = max(ratios[worst], 1.0 / ratios[worst])
        if not off > factor:
            continue
        direction = 'larger' if ratios[worst] > 1.0 else 'smaller'
        suggested = inertia_values(expected)
        approx = (f'; approximate volume for {", ".join(model.approximate)}'
                  if model.approximate else '')
        yield ctx.finding(
            'inertia-geometry-mismatch', Severity.WARNING,
            f'principal moments {fmt_vector(have)} kg m^2, but the collision geometry at '
            f'{fmt(link.mass)} kg gives {fmt_vector(want)}: moment {worst + 1} is '
            f'{fmt(off, 3)}x {direction} (limit {fmt(factor)}x){approx}',
            link=link.name, element='inertial/inertia', line=inertial.inertia.line,
            suggestion=f'use the geometry-derived tensor: {fmt_inertia(suggested)}',
            values=(('moments', fmt_vector(have)), ('geometry_moments', fmt_vector(want)),
                    ('factor', off), ('limit', factor),
                    ('geometry_centroid', fmt_vector(model.centre))),
            suggested_inertia=suggested)


def check_density(ctx: CheckContext) -> Iterator[Finding]:
    """Flag masses that are implausible for the collision volume."""
    low, high = ctx.config.density_min, ctx.config.density_max
    for link in ctx.robot.links:
        if link.inertial is None or not (math.isfinite(link.mass) and link.mass > 0.0):
            continue
        model, _ = ctx.collision_model(link)
        if model is None:
            continue
        density = link.mass / model.volume
        if low <= density <= high:
            continue
        yield ctx.finding(
            'density-implausible', Severity.WARNING,
            f'{fmt(link.mass)} kg in {fmt(model.volume)} m^3 of collision geometry is '
            f'{fmt(density)} kg/m^3, outside {fmt(low)} to {fmt(high)} kg/m^3'
            + (f' (approximate volume for {", ".join(model.approximate)})'
               if model.approximate else ''),
            link=link.name, element='inertial/mass', line=link.inertial.mass_line,
            suggestion=_density_hint(link.mass, model.volume, low, high),
            values=(('density', density), ('mass', link.mass), ('volume', model.volume)))


def _density_hint(mass: float, volume: float, low: float, high: float) -> str:
    density = mass / volume
    if low <= density * 1e9 <= high:
        return ('the volume is ~1e9 too large: the mesh is probably in millimetres; add '
                'scale="0.001 0.001 0.001" to its <mesh>')
    if low <= density * 1e-9 <= high:
        return ('the volume is ~1e9 too small: a mesh in metres was scaled as if in '
                'millimetres (remove scale="0.001 0.001 0.001"), or the collision shape is '
                'far smaller than the part')
    if low <= density / 1000.0 <= high:
        return (f'the mass looks like grams written as kilograms: {fmt(mass / 1000.0)} kg '
                'would give a plausible density')
    if density < low:
        return ('the collision geometry is much bigger than the part, or the mass is too low: '
                'check both')
    return 'the collision geometry is much smaller than the part, or the mass is too high'


def check_com(ctx: CheckContext) -> Iterator[Finding]:
    """Flag centres of mass outside the collision bounding boxes."""
    for link in ctx.robot.links:
        if not _usable(link):
            continue
        elements = [element for element in link.collisions if element.geometry is not None]
        if not elements:
            continue
        boxes = [ctx.element_bounds(element) for element in elements]
        if any(box is None for box in boxes):
            continue
        com = np.asarray(link.inertial.origin.xyz, dtype=float)
        union = union_bounds(boxes)
        tolerance = COM_TOLERANCE * float(np.linalg.norm(union[1] - union[0]))
        distances = [distance_outside(com, box) for box in boxes]
        nearest = int(np.argmin(distances))
        if distances[nearest] <= tolerance:
            continue
        model, _ = ctx.collision_model(link)
        centroid = (f'; the collision geometry\'s centroid is at xyz="'
                    f'{fmt_vector(model.centre, 6)}"' if model is not None else '')
        lo, hi = boxes[nearest]
        yield ctx.finding(
            'com-outside-geometry', Severity.WARNING,
            f'the centre of mass xyz="{fmt_vector(com)}" is {fmt(distances[nearest], 3)} m '
            f'outside the collision geometry (nearest: {elements[nearest].label}, bounds '
            f'{fmt_vector(lo, 3)} to {fmt_vector(hi, 3)})',
            link=link.name, element='inertial/origin',
            line=link.inertial.origin.line or link.inertial.line,
            suggestion='check that the centre of mass is in the link frame' + centroid,
            values=(('com', fmt_vector(com)), ('distance', distances[nearest]),
                    ('nearest', elements[nearest].label)))


CHECKS = (check_mismatch, check_density, check_com)
