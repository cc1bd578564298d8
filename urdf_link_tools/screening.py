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
Cheap, conservative screens that prove a link cannot trigger a rule.

Deciding with a rule's own code that a link is fine costs eigen-decompositions,
determinants and small numpy transforms per link, and most links of a real robot trigger
nothing. A screen answers the same question with a few dozen float operations, but says
"clean" only when every inequality the rule tests holds beyond the error bound of the
screen's own arithmetic (its closed-form eigenvalues carry an explicit bound) plus a margin
of ``MARGIN`` (1e-9) of the magnitudes involved, about a million times the rounding of the
rule's own computation (~1e-15 for these small problems). Anything closer to a boundary,
and anything unusual (numbers that are not finite, meshes that are not loaded, degenerate
shapes), is left to the rule's own code, which is unchanged and computes what it always
computed. So a screen can make the analysis faster but never change a finding: it
only skips links for which the rule provably reports nothing.

``test/test_checks_fastpath.py`` compares the screens with the rules on random tensors
and geometry, boundaries included.
"""

import math
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple

import numpy as np

from urdf_link_tools.geometry import primitive_volume
from urdf_link_tools.inertia import MUJOCO_EPS
from urdf_link_tools.meshes import MeshInfo, MeshResult
from urdf_link_tools.model import GeometryElement, Inertial, Link, Robot, ZERO3

#: Relative margin of every screened inequality, against the numbers' magnitude.
MARGIN = 1e-9
#: Bound on the absolute error of ``r`` in :func:`eigenvalues` (~20 roundings of O(1) terms).
R_ERROR = 1e-13

Vector = Tuple[float, float, float]
Six = Tuple[float, float, float, float, float, float]
Rows = Tuple[Vector, Vector, Vector]
BoundsFunction = Callable[[GeometryElement], Optional[Tuple[np.ndarray, np.ndarray]]]
#: (volume, centre, central unit-density tensor), in the link frame
Part = Tuple[float, Vector, Six]
#: (lo, hi) in the link frame
Box = Tuple[Sequence[float], Sequence[float]]

_INF = math.inf
_THIRD_TURN = 2.0 * math.pi / 3.0


def _finite(values: Sequence[float]) -> bool:
    return all(map(math.isfinite, values))


def _max_abs(values: Sequence[float]) -> float:
    return max(map(abs, values))


def rpy_rows(rpy: Sequence[float]) -> Rows:
    """Return the rows of ``Rz(yaw) Ry(pitch) Rx(roll)`` (as geometry.rpy_to_matrix)."""
    roll, pitch, yaw = rpy
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return ((cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr),
            (sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr),
            (-sp, cp * sr, cp * cr))


def rotate(rows: Rows, tensor: Six) -> Six:
    """Return ``R T R^T`` for a symmetric T given as (xx, xy, xz, yy, yz, zz)."""
    xx, xy, xz, yy, yz, zz = tensor
    (a0, a1, a2), (b0, b1, b2), (c0, c1, c2) = rows
    # Rows of R T.
    ax, ay, az = a0 * xx + a1 * xy + a2 * xz, a0 * xy + a1 * yy + a2 * yz, \
        a0 * xz + a1 * yz + a2 * zz
    bx, by, bz = b0 * xx + b1 * xy + b2 * xz, b0 * xy + b1 * yy + b2 * yz, \
        b0 * xz + b1 * yz + b2 * zz
    cx, cy, cz = c0 * xx + c1 * xy + c2 * xz, c0 * xy + c1 * yy + c2 * yz, \
        c0 * xz + c1 * yz + c2 * zz
    return (ax * a0 + ay * a1 + az * a2, ax * b0 + ay * b1 + az * b2,
            ax * c0 + ay * c1 + az * c2, bx * b0 + by * b1 + bz * b2,
            bx * c0 + by * c1 + bz * c2, cx * c0 + cy * c1 + cz * c2)


def eigenvalues(tensor: Six) -> Optional[Tuple[Vector, float]]:
    """
    Return the eigenvalues of a symmetric tensor, ascending, in closed form, and their error.

    Diagonal tensors are read off exactly. Otherwise the trigonometric solution of the
    characteristic polynomial: ``r = det(B) / 2`` for the normalised deviator ``B`` is
    computed within ``R_ERROR`` times (1 + scale / p), and ``acos`` amplifies that where
    two eigenvalues nearly coincide (``|r|`` near 1, where it loses up to half the
    digits), so the error bound is derived from ``r`` itself: ~1e-13 of the scale for
    distinct eigenvalues, up to ~1e-6 for repeated ones.

    :param tensor: (xx, xy, xz, yy, yz, zz), finite
    :return: (eigenvalues, a bound on each one's absolute error), or None when over- or
        underflow spoils the formula
    """
    xx, xy, xz, yy, yz, zz = tensor
    off = xy * xy + xz * xz + yz * yz
    if off == 0.0:
        low, middle, high = sorted((xx, yy, zz))
        return (low, middle, high), 0.0
    mean = (xx + yy + zz) / 3.0
    a, b, c = xx - mean, yy - mean, zz - mean
    square = (a * a + b * b + c * c + 2.0 * off) / 6.0
    if not 0.0 < square < _INF:
        return None
    p = math.sqrt(square)
    det = a * (b * c - yz * yz) - xy * (xy * c - yz * xz) + xz * (xy * yz - b * xz)
    r = det / (2.0 * square * p)
    if not math.isfinite(r):
        return None
    r = min(1.0, max(-1.0, r))
    angle = math.acos(r) / 3.0
    high = mean + 2.0 * p * math.cos(angle)
    low = mean + 2.0 * p * math.cos(angle + _THIRD_TURN)
    # The deviations a, b, c carry the rounding of the mean, so r's error grows with
    # scale / p (nearly isotropic tensors). acos is Hoelder-1/2 (|acos(u) - acos(v)| <=
    # 2 sqrt|u - v|) everywhere and Lipschitz away from +-1.
    scale = max(abs(xx), abs(yy), abs(zz), abs(xy), abs(xz), abs(yz))
    r_error = R_ERROR * (1.0 + scale / p)
    turn = min(2.0 * math.sqrt(r_error), math.pi)
    room = 1.0 - (abs(r) + r_error) ** 2
    if room > 0.0:
        turn = min(turn, r_error / math.sqrt(room))
    error = 2.02 * p * turn / 3.0 + R_ERROR * 3.0 * (scale + p)
    return (low, 3.0 * mean - low - high, high), error


def tensor_is_clean(values: Six, eigen: Vector, eigen_error: float) -> bool:
    """
    Return True when a tensor is clearly valid for Gazebo, MuJoCo and RViz.

    Clearly: the smallest principal moment A is above MuJoCo's floor and A + B - C is
    positive, each beyond the eigenvalues' error and MARGIN of the tensor's scale M (its
    largest entry). Then inertia-not-positive-definite, -triangle-inequality, -moment-tiny
    and -unrepresentable-box cannot fire, whatever the rounding of their own computation.
    The leading minors need no test of their own: M <= C, and A + B > C gives B > M / 2,
    so by interlacing Ixx >= A, Ixx Iyy - Ixy^2 >= A B and det = A B C, which exceed
    their rounding errors (a few ulps of M, M^2, M^3) once A > 3e-9 M.

    :param values: (ixx, ixy, ixz, iyy, iyz, izz), finite
    :param eigen: its eigenvalues, ascending (:func:`eigenvalues`)
    :param eigen_error: their error bound
    :return: True when clean
    """
    error = eigen_error + MARGIN * 3.0 * _max_abs(values)
    a, b, c = eigen
    return a - error > MUJOCO_EPS and a + b - c > 3.0 * error


def moments_agree(have: Vector, have_error: float, want: Vector, want_error: float,
                  factor: float) -> bool:
    """
    Return True when every sorted pair of moments clearly differs by less than ``factor``.

    :param have: declared principal moments, ascending, each within ``have_error``
    :param want: geometry principal moments, ascending, each within ``want_error``
    :param factor: the inertia_mismatch_factor
    :return: True when inertia-geometry-mismatch cannot fire
    """
    for h, w in zip(have, want):
        low_h, low_w = h - have_error, w - want_error
        if not (low_h > 0.0 and low_w > 0.0 and (h + have_error) / low_w < factor
                and (w + want_error) / low_h < factor):
            return False
    return True


def com_is_clean(com: Sequence[float], boxes: Sequence[Box]) -> bool:
    """
    Return True when a centre of mass is clearly within com-outside-geometry's tolerance.

    :param com: the inertial origin
    :param boxes: each collision element's approximate (lo, hi), within MARGIN of the
        largest coordinate
    :return: True when the rule cannot fire
    """
    x, y, z = com
    for (lx, ly, lz), (hx, hy, hz) in boxes:
        # Clearly inside one box: the rule's distance is 0, whatever its tolerance.
        error = MARGIN * max(abs(x), abs(y), abs(z), abs(lx), abs(ly), abs(lz), abs(hx),
                             abs(hy), abs(hz))
        if lx + error < x < hx - error and ly + error < y < hy - error and \
                lz + error < z < hz - error:
            return True
    lows = [min(box[0][i] for box in boxes) for i in range(3)]
    highs = [max(box[1][i] for box in boxes) for i in range(3)]
    error = MARGIN * max(_max_abs(com), _max_abs(lows), _max_abs(highs))
    nearest = _INF
    for (lx, ly, lz), (hx, hy, hz) in boxes:
        gx = max(lx - x, x - hx, 0.0)
        gy = max(ly - y, y - hy, 0.0)
        gz = max(lz - z, z - hz, 0.0)
        nearest = min(nearest, math.sqrt(gx * gx + gy * gy + gz * gz))
    diagonal = math.sqrt(sum((h - lo) ** 2 for h, lo in zip(highs, lows)))
    # COM_TOLERANCE of checks.plausibility: 1 % of the union's diagonal.
    return nearest + 4.0 * error < 0.01 * (diagonal - 4.0 * error)


class Screens:
    """
    The links of one robot that provably trigger no inertia or plausibility rule.

    Built once per analysis, for every link.

    :param robot: the robot
    :param meshes: the analysis' mesh results keyed by ``id(element)``
    :param mismatch_factor: the configured inertia_mismatch_factor
    :param element_bounds: the exact bounds of an element (used for rotated meshes)
    """

    def __init__(self, robot: Robot, meshes: Mapping[int, MeshResult], mismatch_factor: float,
                 element_bounds: BoundsFunction) -> None:
        #: ids of links whose tensor triggers none of the tensor rules
        self.tensor_clean: Set[int] = set()
        #: ids of links for which inertia-geometry-mismatch cannot fire
        self.mismatch_clean: Set[int] = set()
        #: ids of links for which com-outside-geometry cannot fire
        self.com_clean: Set[int] = set()
        #: exact collision volume of each link with a positive finite mass (by id), None
        #: when the collision model is not built
        self.volumes: Dict[int, Optional[float]] = {}
        self._meshes = meshes
        self._element_bounds = element_bounds
        self._factor = mismatch_factor
        for link in robot.links:
            self._screen(link)
        # The bound method refers back to the context, which holds these screens: drop it
        # so that no reference cycle outlives the analysis.
        self._element_bounds = None  # type: ignore[assignment]

    def _screen(self, link: Link) -> None:
        inertial = link.inertial
        if inertial is None or not 0.0 < inertial.mass < _INF:
            return  # no plausibility rule looks at it; the tensor rules run as written
        key = id(link)
        volumes: Optional[List[float]] = []
        parts: List[Part] = []
        boxes: Optional[List[Box]] = []
        for element in link.collisions:
            if element.geometry is None:
                continue
            volume, part, box = self._numbers(element)
            if volumes is not None:
                if volume is None:
                    volumes = None
                else:
                    volumes.append(volume)
                    parts.append(part)  # type: ignore[arg-type]
            if boxes is not None:
                if box is None:
                    boxes = None
                else:
                    boxes.append(box)
            if volumes is None and boxes is None:
                break  # nothing more to learn from the other elements
        # The same additions in the same order as CheckContext._build_model: identical.
        total = sum(volumes) if volumes else None
        self.volumes[key] = total
        values = _tensor_values(inertial)
        if values is None:
            return
        origin = inertial.origin
        if not boxes:  # None: an element has no bounds, and the rule skips the link
            self.com_clean.add(key)
        elif _finite(origin.xyz) and com_is_clean(origin.xyz, boxes):
            self.com_clean.add(key)
        have = eigenvalues(values)
        if have is None or not tensor_is_clean(values, *have) or _rotated_products(inertial):
            return
        self.tensor_clean.add(key)
        if total is None or not _finite(origin.rpy):
            return
        expected = _expected(inertial, parts, total)
        if expected is None:
            return
        tensor, scale = expected
        want = eigenvalues(tensor)
        if want is not None and moments_agree(
                have[0], have[1] + MARGIN * 3.0 * _max_abs(values), want[0],
                want[1] + MARGIN * scale, self._factor):
            self.mismatch_clean.add(key)

    def _numbers(self, element: GeometryElement) -> \
            Tuple[Optional[float], Optional[Part], Optional[Box]]:
        """
        Return what a collision element adds to the collision model and to the bounds.

        The volume is None exactly when ``CheckContext`` builds no collision model because
        of this element (numbers that are not finite, a mesh that is not loaded, a
        degenerate shape, no volume); the box is None exactly when ``element_bounds``
        gives none.

        :return: (volume, part, box)
        """
        geometry = element.geometry
        origin = element.origin
        xyz, rpy = origin.xyz, origin.rpy
        if not _finite(xyz + rpy):
            return None, None, None
        kind = geometry.kind  # type: ignore[union-attr]
        if kind == 'mesh':
            mesh = self._meshes.get(id(element))
            if not isinstance(mesh, MeshInfo):
                return None, None, None  # not loaded: neither a model nor bounds
            return self._mesh_numbers(element, mesh, rpy_rows(rpy) if rpy != ZERO3 else None)
        rows = rpy_rows(rpy) if rpy != ZERO3 and kind != 'sphere' else None
        x, y, z = xyz
        volume = primitive_volume(geometry)
        if kind == 'box':
            sx, sy, sz = size = geometry.size  # type: ignore[union-attr]
            if not _finite(size):
                return None, None, None
            half = abs(sx) / 2.0, abs(sy) / 2.0, abs(sz) / 2.0
            if rows is not None:
                half = tuple(abs(r[0]) * half[0] + abs(r[1]) * half[1] + abs(r[2]) * half[2]
                             for r in rows)
            moments = None if volume is None else (
                volume * (sy * sy + sz * sz) / 12.0, volume * (sx * sx + sz * sz) / 12.0,
                volume * (sx * sx + sy * sy) / 12.0)
        elif kind == 'cylinder':
            radius, length = geometry.radius, geometry.length  # type: ignore[union-attr]
            if not (math.isfinite(radius) and math.isfinite(length)):
                return None, None, None
            r, h = abs(radius), abs(length)
            if rows is None:
                half = r, r, h / 2.0
            else:  # the formula of geometry.element_bounds
                half = tuple(abs(a[2]) * h / 2.0
                             + r * math.sqrt(min(max(1.0 - a[2] * a[2], 0.0), 1.0))
                             for a in rows)
            across = None if volume is None else \
                volume * (3.0 * radius * radius + length * length) / 12.0
            moments = None if volume is None else \
                (across, across, volume * radius * radius / 2.0)
        else:
            radius = geometry.radius  # type: ignore[union-attr]
            if not math.isfinite(radius):
                return None, None, None
            half = (abs(radius),) * 3  # and its tensor does not turn: rows is None
            moments = None if volume is None else (2.0 / 5.0 * volume * radius * radius,) * 3
        box = ((x - half[0], y - half[1], z - half[2]), (x + half[0], y + half[1], z + half[2]))
        if moments is None:
            return None, None, box
        tensor: Six = (moments[0], 0.0, 0.0, moments[1], 0.0, moments[2])
        if rows is not None:
            tensor = rotate(rows, tensor)
        return volume, (volume, xyz, tensor), box  # type: ignore[return-value]

    def _mesh_numbers(self, element: GeometryElement, mesh: MeshInfo,
                      rows: Optional[Rows]) -> \
            Tuple[Optional[float], Optional[Part], Optional[Box]]:
        x, y, z = element.origin.xyz
        box: Optional[Box] = None
        if len(mesh.vertices) > 0:
            if rows is None:
                lo, hi = mesh.bounds
                box = ((lo[0] + x, lo[1] + y, lo[2] + z), (hi[0] + x, hi[1] + y, hi[2] + z))
            else:
                exact = self._element_bounds(element)
                box = None if exact is None else (exact[0].tolist(), exact[1].tolist())
        volume = mesh.volume
        if not (_finite(element.geometry.scale) and volume > 0.0):  # type: ignore[union-attr]
            return None, None, box
        cx, cy, cz = mesh.center_mass.tolist()
        u = mesh.unit_inertia.tolist()
        tensor: Six = (u[0][0], u[0][1], u[0][2], u[1][1], u[1][2], u[2][2])
        if rows is not None:
            cx, cy, cz = (r[0] * cx + r[1] * cy + r[2] * cz for r in rows)
            tensor = rotate(rows, tensor)
        return volume, (volume, (cx + x, cy + y, cz + z), tensor), box


def _tensor_values(inertial: Optional[Inertial]) -> Optional[Six]:
    """Return the six entries of a tensor the tensor rules fully check, else None."""
    if inertial is None:
        return None
    mass = inertial.mass
    if not 0.0 < mass < _INF:
        return None
    inertia = inertial.inertia
    values = (inertia.ixx, inertia.ixy, inertia.ixz, inertia.iyy, inertia.iyz, inertia.izz)
    return values if _finite(values) else None


def _rotated_products(inertial: Inertial) -> bool:
    """Return inertia-frame-rotated-products' own condition (rpy and products non-zero)."""
    rpy = inertial.origin.rpy
    inertia = inertial.inertia
    return _finite(rpy) and any(rpy) and any((inertia.ixy, inertia.ixz, inertia.iyz))


def _expected(inertial: Inertial, parts: Sequence[Part], total: float) -> \
        Optional[Tuple[Six, float]]:
    """
    Return the geometry's tensor in the inertial frame at the link mass, and its scale.

    The scale bounds the magnitude of every term summed (parts far from the link origin
    make the centroid subtraction lose digits), so MARGIN times it bounds the error of
    both this and ``CheckContext._build_model``'s computation.
    """
    cx = cy = cz = 0.0
    for volume, (px, py, pz), _ in parts:
        cx += volume * px
        cy += volume * py
        cz += volume * pz
    cx, cy, cz = cx / total, cy / total, cz / total
    reach = math.sqrt(cx * cx + cy * cy + cz * cz)
    xx = xy = xz = yy = yz = zz = scale = 0.0
    for volume, (px, py, pz), local in parts:
        dx, dy, dz = px - cx, py - cy, pz - cz
        square = dx * dx + dy * dy + dz * dz
        xx += local[0] + volume * (square - dx * dx)
        xy += local[1] - volume * dx * dy
        xz += local[2] - volume * dx * dz
        yy += local[3] + volume * (square - dy * dy)
        yz += local[4] - volume * dy * dz
        zz += local[5] + volume * (square - dz * dz)
        distance = math.sqrt(px * px + py * py + pz * pz) + reach
        scale += 3.0 * _max_abs(local) + 3.0 * volume * distance * distance
    density = inertial.mass / total
    tensor: Six = (xx * density, xy * density, xz * density, yy * density, yz * density,
                   zz * density)
    rpy = inertial.origin.rpy
    if rpy != ZERO3:
        (a0, a1, a2), (b0, b1, b2), (c0, c1, c2) = rpy_rows(rpy)
        tensor = rotate(((a0, b0, c0), (a1, b1, c1), (a2, b2, c2)), tensor)
    scale *= density
    if not (_finite(tensor) and math.isfinite(scale)):
        return None
    return tensor, scale
