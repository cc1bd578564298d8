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
The replacement tensor a finding suggests (what ``check --fix-inertia`` writes).

A suggestion must pass every inertia rule of this checker and compile in MuJoCo once it is
printed with 9 significant digits: Gazebo-valid, positive definite, ``A + B >= C`` with a
margin, every moment at least :data:`SAFE_FLOOR` (100 times MuJoCo's ``mjEPS``), an RViz
box, and within ``inertia_mismatch_factor`` of the collision geometry when the link has
one. A candidate that fails (the nearest valid tensor of a tensor off by orders of
magnitude, a 1e-20 tensor clipped to 1e-23) is replaced by the geometry's tensor, or
without geometry by the tensor of a solid sphere of the link's mass, and the text says
which was used and why.
"""

from __future__ import annotations

import math
from typing import Optional, Tuple

import numpy as np

from urdf_link_tools.checks.alignment import TURNS
from urdf_link_tools.checks.base import CheckContext, fmt, fmt_inertia, fmt_vector
from urdf_link_tools.checks.density import collision_a_part_of_visual, density_verdict, \
    geometry_is_the_part, group_bounds, volume_range
from urdf_link_tools.geometry import is_finite, rpy_to_matrix
from urdf_link_tools.inertia import (
    inertia_values, MUJOCO_EPS, nearest_triangle_moments, principal_moments, principal_values,
    ROUNDING_PRODUCTS, tensor_from_principal, TensorProperties, tidy, violates_triangle)
from urdf_link_tools.model import Link, Mesh
from urdf_link_tools.records import record

#: Smallest principal moment of a suggested tensor, kg m^2 (MuJoCo refuses below 1e-14).
SAFE_FLOOR = 100.0 * MUJOCO_EPS
#: Density of the sphere used when there is neither a usable tensor nor geometry, kg/m^3.
FALLBACK_DENSITY = 1000.0


def printed(matrix: np.ndarray) -> np.ndarray:
    """Return the tensor as it reads back after being written with 9 significant digits."""
    values = [float(f'{value:.9g}') for value in inertia_values(matrix)]
    ixx, ixy, ixz, iyy, iyz, izz = values
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])


def mismatch(have: np.ndarray, want: np.ndarray) -> Tuple[float, int]:
    """
    Return how far two sets of sorted principal moments are apart, and where.

    :param have: declared moments, ascending
    :param want: reference moments, ascending
    :return: (factor >= 1 of the worst moment, its index); (inf, 0) when one is not positive
    """
    have_values = have.tolist() if isinstance(have, np.ndarray) else list(have)
    want_values = want.tolist() if isinstance(want, np.ndarray) else list(want)
    if len(have_values) == len(want_values) and is_finite(have_values) and \
            is_finite(want_values):
        # The same divisions and comparisons with Python numbers (NumPy's per-call cost
        # dominates on three moments); argmax takes the first of equal spreads, as here.
        if not (all(v > 0.0 for v in have_values) and all(v > 0.0 for v in want_values)):
            return math.inf, 0
        ratios = [h / w for h, w in zip(have_values, want_values)]
        if all(0.0 < ratio < math.inf for ratio in ratios):  # else NumPy's inf and 1/0
            spreads = [max(ratio, 1.0 / ratio) for ratio in ratios]
            worst = spreads.index(max(spreads))
            return float(spreads[worst]), worst
    if not (np.all(have > 0.0) and np.all(want > 0.0)):
        return math.inf, 0
    ratios = have / want
    spread = np.maximum(ratios, 1.0 / ratios)
    worst = int(np.argmax(spread))
    return float(spread[worst]), worst


#: declared moments within this of the geometry's, sorted, are the part's...
AXES_SAME = 2.0
#: ...and a declared moment this far off the geometry's about one of its axes is on another
AXES_TURNED = 3.0


def about_axes(matrix: np.ndarray, axes: np.ndarray, want: np.ndarray) -> Tuple[float, int]:
    """
    Return how far a tensor's moments about the geometry's principal axes are off, and where.

    :param matrix: the tensor
    :param axes: the geometry tensor's principal axes (columns), in the same frame
    :param want: the geometry's principal moments, in the order of ``axes``
    :return: (factor >= 1 of the worst axis, its index); (inf, 0) when not comparable
    """
    along = np.einsum('ji,jk,ki->i', axes, matrix, axes)
    have_values, want_values = along.tolist(), want.tolist()
    if len(want_values) == 3 and is_finite(have_values) and is_finite(want_values):
        # As in mismatch: the same divisions with Python numbers (asked 24 times for
        # each tensor a turn is sought for, where NumPy's per-call cost dominated).
        if not (all(v > 0.0 for v in have_values) and all(v > 0.0 for v in want_values)):
            return math.inf, 0
        spreads = [max(h / w, w / h) for h, w in zip(have_values, want_values)]
        if all(spread < math.inf for spread in spreads):
            worst = spreads.index(max(spreads))
            return spreads[worst], worst
    if not (np.all(np.isfinite(along)) and np.all(along > 0.0) and np.all(want > 0.0)):
        return math.inf, 0
    spread = np.maximum(along / want, want / along)
    worst = int(np.argmax(spread))
    return float(spread[worst]), worst


def _best_turn(matrix: np.ndarray, axes: np.ndarray, want: np.ndarray) -> Tuple[np.ndarray, float]:
    """Return the quarter or half turn putting a tensor on the geometry's axes, and its fit."""
    fits = [about_axes(turn @ matrix @ turn.T, axes, want)[0] for turn in TURNS]
    best = min(range(len(TURNS)), key=lambda index: fits[index])
    return TURNS[best], fits[best]


def near(declared: np.ndarray, expected: np.ndarray, factor: float = AXES_TURNED) -> bool:
    """
    Return True when no moment about the geometry's axes can be ``factor`` off: decided cheaply.

    About any axis the two tensors differ by at most the norm of their difference (the
    Frobenius norm bounds the spectral one), and the geometry's moments are at least its
    Gershgorin bound: a difference under (1 - 1/AXES_TURNED) of that keeps every ratio under
    AXES_TURNED. Most links pass here, without an eigendecomposition (bench_analysis).
    """
    (a, b, c), (d, e, f), (g, h, i) = declared.tolist()
    (p, q, r), (s, t, u), (v, w, x) = expected.tolist()
    # The sum of the nine squares in the order sum() adds them (the same bits).
    difference = math.sqrt(0 + (a - p) * (a - p) + (b - q) * (b - q) + (c - r) * (c - r)
                           + (d - s) * (d - s) + (e - t) * (e - t) + (f - u) * (f - u)
                           + (g - v) * (g - v) + (h - w) * (h - w) + (i - x) * (i - x))
    least = min(p - (0 + abs(q) + abs(r)), t - (0 + abs(s) + abs(u)), x - (0 + abs(v) + abs(w)))
    return least > 0.0 and difference < (1.0 - 1.0 / factor) * least


@record
class TurnedAxes:
    """A tensor with its collision geometry's moments about other axes, and the turn back."""

    #: the geometry's principal moments (ascending) and axes (columns), inertial frame
    want: np.ndarray
    axes: np.ndarray
    #: how far the sorted moments are apart (<= AXES_SAME)
    off: float
    #: how far the tensor is off about the geometry's worst axis (>= AXES_TURNED), and which
    apart: float
    worst: int
    #: the quarter or half turn that best puts the tensor on the geometry's axes, and its fit
    turn: np.ndarray
    fit: float


def turned_onto_geometry(ctx: CheckContext, link: Link,
                         declared: TensorProperties) -> Optional[TurnedAxes]:
    """
    Return how a tensor is its collision geometry's on other axes, or None.

    Its moments match the geometry's sorted (within AXES_SAME) but one is AXES_TURNED or
    more off about one of the geometry's principal axes: an inertial frame turned (KUKA KR
    560's link_3). For inertia-axes-turned and for inertia-exceeds-extent's fix.
    """
    expected = geometry_tensor(ctx, link)
    if expected is None or near(declared.matrix, expected):
        return None
    want, axes = np.linalg.eigh(expected)
    off, _ = mismatch(declared.moments, want)
    if not off <= AXES_SAME:
        return None
    apart, worst = about_axes(declared.matrix, axes, want)
    if not (math.isfinite(apart) and apart >= AXES_TURNED):
        return None
    turn, fit = _best_turn(declared.matrix, axes, want)
    return TurnedAxes(want, axes, off, apart, worst, turn, fit)


def usable(link: Link) -> bool:
    """Return True for a link with a positive mass and finite inertia and inertial origin."""
    inertial = link.inertial
    return (inertial is not None and math.isfinite(inertial.mass) and inertial.mass > 0.0
            and is_finite(inertial.inertia.as_tuple())
            and is_finite(inertial.origin.xyz + inertial.origin.rpy))


def valid_tensor(ctx: CheckContext, link: Link) -> Optional[TensorProperties]:
    """
    Return a link's declared tensor when the comparisons with its geometry apply, else None.

    Not for an unusable inertial nor a tensor the inertia rules report invalid (they give
    their own suggestion): not positive definite, or breaking the triangle inequality.
    """
    if not usable(link):
        return None
    declared = ctx.tensor(link)
    if not (declared.gz_is_valid(link.mass) and declared.is_positive_definite()) or \
            violates_triangle(declared.moments):
        return None
    return declared


def geometry_tensor(ctx: CheckContext, link: Link) -> Optional[np.ndarray]:
    """
    Return the collision-derived tensor in the inertial frame, scaled to the mass.

    Computed once per link and analysis (four tensor rules ask for it), read-only.
    """
    key = ('geometry-tensor', id(link))
    if key in ctx.memo:
        return ctx.memo[key]  # type: ignore[return-value]
    tensor = None
    model, _ = ctx.collision_model(link)
    if model is not None and link.mass > 0.0 and model.volume > 0.0 and \
            geometry_is_the_part(ctx, link):  # (not a mesh in millimetres, a placeholder)
        tensor = _in_inertial_frame(link, model.unit_inertia * (link.mass / model.volume))
        if tensor is not None:
            tensor.flags.writeable = False
    ctx.memo[key] = tensor
    return tensor


def _in_inertial_frame(link: Link, tensor: np.ndarray) -> Optional[np.ndarray]:
    """Return a link-frame tensor in the link's inertial frame, None if not finite."""
    rpy = link.inertial.origin.rpy
    if rpy[0] == 0.0 and rpy[1] == 0.0 and rpy[2] == 0.0:
        # R is the identity up to the signs of its zeros: R^T T R is T, bit for bit, but for
        # the signs of its zero entries, and tidy makes the products +0 when its threshold
        # is above 0 (on a diagonal without a zero, which keeps its sign).
        tidied = tidy(tensor)
        rows = tidied.tolist()
        if all(math.isfinite(value) for row in rows for value in row) and \
                rows[0][0] != 0.0 and rows[1][1] != 0.0 and rows[2][2] != 0.0 and \
                ROUNDING_PRODUCTS * max(abs(rows[0][0]), abs(rows[1][1]),
                                        abs(rows[2][2])) > 0.0:
            return tidied
    rotation = rpy_to_matrix(rpy)
    tensor = rotation.T @ tensor @ rotation
    return tidy(tensor) if np.all(np.isfinite(tensor)) else None


def visual_tensor(ctx: CheckContext, link: Link) -> Optional[Tuple[np.ndarray, float]]:
    """
    Return the visual geometry's tensor (inertial frame, scaled to the mass) and density.

    None without visual geometry, or when the mass in it would be outside
    [density_min, density_max] (a mesh in millimetres, a marker): it is not the part.
    """
    model, _ = ctx.visual_model(link)
    if model is None or not link.mass > 0.0 or not model.volume > 0.0:
        return None
    density = link.mass / model.volume
    # Too light for its shapes: a mesh may be in millimetres, but boxes, cylinders and
    # spheres are the part, its mass a placeholder (raspimouse's light sensors: 1e-6 kg in a
    # 10 x 5 x 7 mm box, whose tensor is 6e-12; the largest box fitting the base they are
    # welded to gave 3.5e-10 and 7.7e-10, and "they need different numbers").
    primitives = bool(link.visuals) and not any(isinstance(element.geometry, Mesh)
                                                for element in link.visuals)
    if density > ctx.config.density_max or (density < ctx.config.density_min
                                            and not primitives):
        return None
    tensor = _in_inertial_frame(link, model.unit_inertia * density)
    return (tensor, density) if tensor is not None else None


def problem(ctx: CheckContext, link: Link, matrix: np.ndarray,
            geometry: Optional[np.ndarray]) -> str:
    """
    Return why a tensor cannot be suggested for a link, or '' when it can.

    :param ctx: the analysis context
    :param link: the link (its mass is used)
    :param matrix: the candidate, before printing
    :param geometry: the collision geometry's tensor, when there is one
    :return: a short reason, '' when the printed tensor passes every inertia rule
    """
    if not np.all(np.isfinite(matrix)):
        return 'it is not finite'
    tensor = TensorProperties(printed(matrix))
    moments = tensor.moments
    if not (tensor.gz_is_valid(link.mass) and tensor.is_positive_definite()) or \
            violates_triangle(moments) or not tensor.has_equivalent_box(link.mass):
        return 'it is not a valid tensor'
    if moments[0] < SAFE_FLOOR:
        return f"its smallest moment {fmt(moments[0])} is below MuJoCo's floor"
    if moments[2] < densest_sphere_moment(link.mass, ctx.config.density_max):
        # No body of this mass is that compact: a sphere at the highest plausible density
        # has the smallest largest moment (the sphere minimises the trace for its volume).
        return (f'its largest moment {fmt(moments[2])} is smaller than any body of '
                f'{fmt(link.mass)} kg can have at up to {ctx.config.density_max:,.0f} kg/m^3 '
                '(a solid sphere of it)')
    if geometry is not None and not collision_a_part_of_visual(ctx, link):
        factor, _ = mismatch(moments, principal_values(geometry))
        if factor > ctx.config.inertia_mismatch_factor:
            return (f'it is {fmt(factor, 3)}x off the collision geometry (limit '
                    f'{fmt(ctx.config.inertia_mismatch_factor)}x)')
    # inertia-exceeds-extent: a tensor about the geometry's own centroid, or a sphere of a
    # fixed density, can exceed what this mass can have within the body about the declared
    # centre of mass (imported here: the bounds rule suggests through this module).
    from urdf_link_tools.checks.bounds import moment_limits
    limits = moment_limits(ctx, link)
    if limits is not None:
        rotation = rpy_to_matrix(link.inertial.origin.rpy)
        about = np.diag(rotation @ printed(matrix) @ rotation.T)
        if np.any(about > limits):
            with np.errstate(divide='ignore', invalid='ignore'):  # a zero limit: infinitely over
                axis = int(np.argmax(about / limits))
            return (f"its moment about the link's {'xyz'[axis]} axis exceeds what the body's "
                    'extent allows')
    return ''


def _lifted(matrix: np.ndarray) -> np.ndarray:
    """Return a tensor moved just inside the valid region, moments at least SAFE_FLOOR."""
    moments, axes = principal_moments(matrix)
    moments = np.maximum(moments, 0.0)
    # Adding the same amount to all three moments keeps A + B >= C.
    moments = moments + max(0.0, 2.0 * SAFE_FLOOR - float(moments.min()))
    return tensor_from_principal(nearest_triangle_moments(moments, 1e-3), axes)


def densest_sphere_moment(mass: float, density: float) -> float:
    """Return the moment of a solid sphere of this mass at this density."""
    radius = (3.0 * mass / (4.0 * math.pi * density)) ** (1.0 / 3.0)
    return 0.4 * mass * radius * radius


def sphere_tensor(mass: float) -> np.ndarray:
    """Return the tensor of a solid sphere of the given mass at FALLBACK_DENSITY."""
    radius = (3.0 * mass / (4.0 * math.pi * FALLBACK_DENSITY)) ** (1.0 / 3.0)
    return np.eye(3) * (0.4 * mass * radius * radius)


#: a collision centroid this far from the declared centre of mass (and at least
#: CENTROID_SHARE of the geometry's size) is said with the tensor taken about it
CENTROID_MIN = 0.01
CENTROID_SHARE = 0.05


#: A number below this share of its scale is rounding left by an integration (a product
#: of inertia of 4e-14 beside moments of 1e-5, a centroid 10 nm off a symmetric part's
#: axis): written as 0. A millionth is far below what any part's CAD model tells.
NOISE_SHARE = 1e-6


def _without_noise(values: np.ndarray, scale: float) -> np.ndarray:
    """Return the values with those below NOISE_SHARE of ``scale`` as 0."""
    values = np.array(values, dtype=float)
    values[np.abs(values) <= NOISE_SHARE * scale] = 0.0
    return values


def _clean(tensor: np.ndarray) -> np.ndarray:
    """
    Return a derived tensor with products of inertia at rounding level written as 0.

    The tensor of a mesh integrated at uniform density has products of 1e-14 where the
    part is symmetric: noise a user would copy into the URDF (Fetch's fingers).
    """
    tensor = np.array(tensor, dtype=float)
    scale = float(np.max(np.abs(np.diag(tensor)))) if np.all(np.isfinite(tensor)) else 0.0
    if not scale > 0.0:
        return tensor
    off = ~np.eye(3, dtype=bool) & (np.abs(tensor) <= NOISE_SHARE * scale)
    tensor[off] = 0.0
    return tensor


def _centroid_note(ctx: CheckContext, link: Link) -> str:
    """
    Say where the collision geometry's centroid is when it is far from the centre of mass.

    The suggested tensor is about that centroid: TM14's forearm declares its centre of mass
    at the joint, 0.24 m from its geometry's centroid, so the tensor alone is half the fix.
    """
    model, _ = ctx.collision_model(link)
    if model is None:
        return ''
    centre = np.asarray(link.inertial.origin.xyz, dtype=float)
    distance = float(np.linalg.norm(model.centre - centre))
    bounds = group_bounds(ctx, link.collisions)
    size = float(np.linalg.norm(bounds[1] - bounds[0])) if bounds is not None else 0.0
    if not (distance > CENTROID_MIN and distance > CENTROID_SHARE * size):
        return ''
    return (f"; it is about the collision geometry's centroid, "
            f'xyz="{fmt_vector(_without_noise(model.centre, size), 6)}'
            f'", {fmt(distance, 3)} m from the declared centre of mass: if the part\'s centre '
            'of mass is there, move the inertial origin too')


def _no_geometry(ctx: CheckContext, link: Link) -> str:
    """
    Say why no tensor comes from the collision geometry (see :func:`geometry_tensor`).

    A 1 mm box on a 1 g IMU link is collision geometry, just not the part's: saying there is
    none sent a reader looking for a missing <collision>.
    """
    model, _ = ctx.collision_model(link)
    if model is None or not model.volume > 0.0:
        return 'no collision geometry to derive it from'
    verdict = density_verdict(ctx, link)
    if verdict is not None and verdict.length_slip:
        return ("the collision geometry's lengths are in another unit (density-implausible "
                'says which), so no tensor is derived from it')
    volumes = volume_range(ctx, link)
    most = volumes[1] if volumes is not None and volumes[1] > 0.0 else model.volume
    if not link.mass / most > ctx.config.density_max:
        return 'no tensor could be derived from the collision geometry'  # not finite, say
    return (f'the collision geometry cannot be the part ({fmt(link.mass)} kg in at most '
            f'{fmt(most)} m^3 is {fmt(link.mass / most)} kg/m^3, above '
            f'{fmt(ctx.config.density_max)} kg/m^3), so no tensor is derived from it')


def suggest(ctx: CheckContext, link: Link, candidate: Optional[np.ndarray],
            label: str, derived: bool = False) -> Tuple[Optional[np.ndarray], str]:
    """
    Return the tensor to suggest and a sentence saying where it comes from.

    :param ctx: the analysis context
    :param link: the link
    :param candidate: the rule's own proposal (nearest valid, flipped products), or None
    :param label: what the candidate is, e.g. 'the nearest valid tensor (same axes)'
    :param derived: only a tensor of the link's geometry (its own, or the largest box that
        fits in it), not a sphere of the mass: what replaces a placeholder must not be one
        itself (the same sphere on four wheels of one mass was the next check's placeholder)
    :return: (tensor, text with the six attributes); (None, why) when no tensor passes
        every inertia rule (the physical bound of the body included)
    """
    geometry = geometry_tensor(ctx, link)
    reason = 'there is none'
    if candidate is not None:
        reason = problem(ctx, link, candidate, geometry)
        if not reason:
            return candidate, f'{label}: {fmt_inertia(inertia_values(candidate))}'
        lifted = _lifted(candidate) if np.all(np.isfinite(candidate)) else None
        if lifted is not None and not problem(ctx, link, lifted, geometry):
            return lifted, (f'{label}, moved inside the valid region ({reason} as it is): '
                            f'{fmt_inertia(inertia_values(lifted))}')
    if geometry is not None:
        own = problem(ctx, link, geometry, None)
        chosen = geometry if not own else _lifted(geometry)
        cleaned = _clean(chosen)
        if not np.array_equal(cleaned, chosen) and not problem(ctx, link, cleaned, geometry):
            chosen = cleaned
        trouble = problem(ctx, link, chosen, geometry)
        if not trouble:
            # The rule's own candidate, set aside, is said after the numbers: before them, its
            # label and reason nested parentheses in the middle of the sentence (Fetch's
            # fingers).
            why = f'; not {label}, as {reason}' if candidate is not None else ''
            return chosen, (f'the tensor of the collision geometry at uniform density: '
                            f'{fmt_inertia(inertia_values(chosen))}' + _centroid_note(ctx, link)
                            + why)
        # what is wrong with the geometry's own tensor (not with it moved inside the valid
        # region: "1.65e+05x off the collision geometry", of the collision geometry's tensor)
        first = f"the collision geometry's tensor at uniform density fails too ({own or trouble})"
    else:
        unusable = f' and {label} is unusable ({reason})' if candidate is not None else ''
        nothing = _no_geometry(ctx, link)
        visual = visual_tensor(ctx, link)
        if visual is not None:
            chosen = visual[0] if not problem(ctx, link, visual[0], None) else \
                _lifted(visual[0])
            if not problem(ctx, link, chosen, None):
                return chosen, (f'{nothing}{unusable}: the '
                                'tensor of the visual geometry at uniform density '
                                f'({fmt(visual[1])} kg/m^3) gives '
                                f'{fmt_inertia(inertia_values(chosen))}'
                                " (compare it with the part's real tensor)")
        if derived:
            return None, f'{nothing}{unusable}'
        sphere = sphere_tensor(link.mass)
        trouble = problem(ctx, link, sphere, None)
        if not trouble:
            return sphere, (f'{nothing}{unusable}: a solid '
                            f'sphere of {fmt(link.mass)} kg at {fmt(FALLBACK_DENSITY)} kg/m^3 '
                            f'gives {fmt_inertia(inertia_values(sphere))}'
                            " (replace it with the part's real tensor)")
        first = (f'{nothing}{unusable}, and a solid sphere at '
                 f'{fmt(FALLBACK_DENSITY)} kg/m^3 fails too ({trouble})')
    from urdf_link_tools.checks.bounds import fitting_box
    fitted = fitting_box(ctx, link)
    if fitted is not None and not problem(ctx, link, fitted[0], geometry):
        return fitted[0], (f'{first}: a solid box of {fmt(link.mass)} kg centred on the '
                           f'declared centre of mass, half sides {fmt_vector(fitted[1], 3)} m, '
                           "the largest that fits in the body's geometry, gives "
                           f'{fmt_inertia(inertia_values(fitted[0]))}'
                           " (replace it with the part's real tensor)")
    return None, (f'{first}; no tensor can be derived that passes every inertia rule: give '
                  "the part's real tensor (or check its mass and centre of mass)")
