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
Inertia tensor maths, matching what the simulators and viewers that read URDF accept.

Sources checked (comments cite them where a rule depends on them):

* gz-math ``include/gz/math/MassMatrix3.hh``: ``Epsilon(moments, tolerance=10)`` is
  ``tolerance * DBL_EPSILON * 0.5 * |Ixx + Iyy + Izz|``; ``IsNearPositive`` tests
  ``mass >= 0``, ``Ixx + eps >= 0``, ``Ixx Iyy - Ixy^2 + eps >= 0`` and ``det + eps >= 0``;
  ``IsPositive`` the same with ``mass > 0`` and strict ``>``; ``ValidMoments`` tests each
  principal moment ``+ eps >= 0`` and each ``A + B + eps >= C``; ``IsValid`` is
  ``IsNearPositive && ValidMoments(PrincipalMoments())``. sdformat refuses a link whose
  mass matrix is not ``IsValid``.
* rviz_default_plugins ``robot_link.cpp`` ``RobotLink::createInertia``: the box is refused
  ("has unrealistic inertia") when ``mass <= 0 || ixx <= 0 || ixx iyy - ixy^2 <= 0 ||
  det <= 0`` (no tolerance) or the eigen solver fails; otherwise, with the ascending
  eigenvalues (x, y, z) of Eigen's ``SelfAdjointEigenSolver``, the box size is
  ``sqrt(6 / m * (y + z - x, x + z - y, x + y - z))`` rotated by the eigenvector matrix.
  ``createMass`` draws a lead ball (11340 kg/m^3) of diameter
  ``2 cbrt(0.75 m / (pi 11340))``.
* MuJoCo ``src/user/user_objects.cc`` ``mjCBody::Compile`` and ``user_util.cc``
  ``mjuu_fullInertia``: a non-zero URDF tensor whose smallest eigenvalue is below
  ``mjEPS`` (1e-14) is refused ("inertia must have positive eigenvalues"); principal
  moments with ``A + B < C`` are refused with no tolerance ("inertia must satisfy
  A + B >= C"); ``user_model.cc`` ``CheckBodyMassInertia`` refuses a body with joints
  whose mass or any principal moment is below ``mjMINVAL`` (1e-15) unless a descendant
  welded to it (no joint) has both ("mass and inertia of moving bodies must be larger
  than mjMINVAL").
"""

from __future__ import annotations

import math
import sys
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from urdf_link_tools.model import Inertia

InertiaLike = Union[Inertia, Sequence[float], np.ndarray]
SixValues = Tuple[float, float, float, float, float, float]

GZ_DEFAULT_TOLERANCE = 10.0
MUJOCO_MINVAL = 1e-15
MUJOCO_EPS = 1e-14
LEAD_DENSITY = 11340.0


def inertia_matrix(inertia: InertiaLike) -> np.ndarray:
    """
    Return the symmetric 3x3 tensor.

    :param inertia: an :class:`Inertia`, six values (ixx, ixy, ixz, iyy, iyz, izz), or a
        3x3 matrix
    :return: 3x3 float array
    """
    if isinstance(inertia, Inertia):
        return np.array(inertia.as_matrix(), dtype=float)
    values = np.asarray(inertia, dtype=float)
    if values.shape == (3, 3):
        return values.copy()
    ixx, ixy, ixz, iyy, iyz, izz = values.reshape(6)
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])


def inertia_values(matrix: np.ndarray) -> SixValues:
    """Return (ixx, ixy, ixz, iyy, iyz, izz) of a 3x3 tensor (symmetrised)."""
    m = (np.asarray(matrix, dtype=float) + np.asarray(matrix, dtype=float).T) / 2.0
    return (float(m[0, 0]), float(m[0, 1]), float(m[0, 2]),
            float(m[1, 1]), float(m[1, 2]), float(m[2, 2]))


def principal_moments(inertia: InertiaLike) -> Tuple[np.ndarray, np.ndarray]:
    """
    Return the principal moments (ascending) and axes of a tensor.

    :param inertia: the tensor
    :return: (moments shape (3,), axes 3x3 with the axis of moments[i] in column i, a
        proper rotation (determinant +1))
    """
    moments, axes = np.linalg.eigh(inertia_matrix(inertia))
    if np.linalg.det(axes) < 0.0:
        axes[:, 2] = -axes[:, 2]
    return moments, axes


def principal_values(matrix: np.ndarray) -> np.ndarray:
    """
    Return the principal moments (ascending) of a 3x3 tensor: ``principal_moments(m)[0]``.

    A tensor without products is answered without LAPACK, with the same numbers.
    """
    values = np.asarray(matrix, dtype=float).tolist()
    diagonal = _diagonal_of(values[0][0], values[0][1], values[0][2], values[1][1],
                            values[1][2], values[2][2])
    if diagonal is not None and values[1][0] == 0.0 and values[2][0] == 0.0 and \
            values[2][1] == 0.0:
        return np.array(sorted(diagonal))
    return principal_moments(matrix)[0]


def tensor_from_principal(moments: Sequence[float], axes: np.ndarray) -> np.ndarray:
    """Return ``axes @ diag(moments) @ axes.T``."""
    return axes @ np.diag(np.asarray(moments, dtype=float)) @ axes.T


def gz_tolerance(inertia: InertiaLike, tolerance: float = GZ_DEFAULT_TOLERANCE) -> float:
    """
    Return gz-math's ``MassMatrix3::Epsilon``.

    :param inertia: the tensor (only its trace matters)
    :param tolerance: gz-math's factor (10 by default)
    :return: ``tolerance * DBL_EPSILON * 0.5 * |Ixx + Iyy + Izz|``
    """
    return gz_epsilon(float(np.trace(inertia_matrix(inertia))), tolerance)


def gz_epsilon(trace: float, tolerance: float = GZ_DEFAULT_TOLERANCE) -> float:
    """
    Return gz-math's tolerance for a tensor of that trace (the one formula, used by all).

    :param trace: ``Ixx + Iyy + Izz`` (the sum of the principal moments)
    :param tolerance: gz-math's factor (10 by default)
    :return: ``tolerance * DBL_EPSILON * 0.5 * |trace|``
    """
    return tolerance * sys.float_info.epsilon * 0.5 * abs(trace)


def leading_minors(inertia: InertiaLike) -> Tuple[float, float, float]:
    """Return the leading principal minors (Ixx, Ixx Iyy - Ixy^2, det) of Sylvester's test."""
    m = inertia_matrix(inertia)
    return (float(m[0, 0]), float(m[0, 0] * m[1, 1] - m[0, 1] ** 2), float(np.linalg.det(m)))


def gz_is_near_positive(mass: float, inertia: InertiaLike) -> bool:
    """Return gz-math ``MassMatrix3::IsNearPositive`` (positive semi-definite within eps)."""
    return TensorProperties(inertia).gz_is_near_positive(mass)


def gz_is_positive(mass: float, inertia: InertiaLike) -> bool:
    """Return gz-math ``MassMatrix3::IsPositive`` (positive definite within eps)."""
    eps = gz_tolerance(inertia)
    d1, d2, d3 = leading_minors(inertia)
    return mass > 0.0 and d1 + eps > 0.0 and d2 + eps > 0.0 and d3 + eps > 0.0


def gz_valid_moments(moments: Sequence[float],
                     tolerance: float = GZ_DEFAULT_TOLERANCE) -> bool:
    """Return gz-math ``MassMatrix3::ValidMoments``: non-negative and triangle, within eps."""
    a, b, c = (float(v) for v in moments)
    eps = gz_epsilon(a + b + c, tolerance)
    return (a + eps >= 0.0 and b + eps >= 0.0 and c + eps >= 0.0
            and a + b + eps >= c and b + c + eps >= a and c + a + eps >= b)


def gz_is_valid(mass: float, inertia: InertiaLike) -> bool:
    """Return gz-math ``MassMatrix3::IsValid``: what sdformat requires of a link."""
    return TensorProperties(inertia).gz_is_valid(mass)


def is_positive_definite(inertia: InertiaLike) -> bool:
    """
    Decide positive definiteness by Sylvester's criterion, within gz-math's tolerance.

    Every leading minor must exceed ``-eps`` strictly (as ``IsPositive``). Sylvester's
    test is only conclusive when the minors are clearly positive, so a tensor whose
    first minor is zero within the tolerance is also required to have no eigenvalue
    below ``-eps`` (``diag(0, -1, 2)`` has minors (0, 0, 0) yet is indefinite).

    :param inertia: the tensor
    :return: True when positive definite within the tolerance
    """
    return TensorProperties(inertia).is_positive_definite()


def triangle_margin(moments: Sequence[float]) -> float:
    """Return ``A + B - C`` for the largest moment C (negative when the inequality fails)."""
    a, b, c = sorted(float(v) for v in moments)
    return a + b - c


def violates_triangle(moments: Sequence[float], tolerance: float = GZ_DEFAULT_TOLERANCE) -> bool:
    """Return True when ``A + B + eps < C`` for the sorted principal moments (gz-math's test)."""
    a, b, c = sorted(float(v) for v in moments)
    eps = gz_epsilon(a + b + c, tolerance)
    return a + b + eps < c


def nearest_triangle_moments(moments: Sequence[float], margin: float = 1e-4) -> np.ndarray:
    """
    Return the moments nearest to the given ones that satisfy the triangle inequality.

    The Euclidean projection onto ``A + B >= (1 + margin) C`` moves the two smaller
    moments up and the largest down by the same amount ``delta``, so the tensor keeps
    its principal axes and its trace changes as little as possible. The margin keeps
    the result valid after it is printed with 9 significant digits.

    :param moments: the principal moments
    :param margin: relative slack above the boundary
    :return: moments in the input order
    """
    values = np.asarray(moments, dtype=float)
    order = np.argsort(values)
    a, b, c = values[order]
    if a + b >= (1.0 + margin) * c:
        return values.copy()
    delta = ((1.0 + margin) * c - a - b) / (3.0 + margin)
    fixed = values.copy()
    fixed[order[0]] = a + delta
    fixed[order[1]] = b + delta
    fixed[order[2]] = c - delta
    return fixed


def rotate_inertia(inertia: InertiaLike, rotation: np.ndarray) -> np.ndarray:
    """
    Express a tensor in another frame.

    :param inertia: the tensor in frame B
    :param rotation: rotation whose columns are B's axes in frame A
    :return: the tensor in frame A, ``R I R^T``
    """
    r = np.asarray(rotation, dtype=float)
    return r @ inertia_matrix(inertia) @ r.T


#: products smaller than this share of the largest moment are rounding left by a rotation
ROUNDING_PRODUCTS = 1e-12


def tidy(matrix: np.ndarray) -> np.ndarray:
    """
    Return a suggested tensor with the products that are rounding noise set to 0.

    Rotating a diagonal tensor, or integrating a mesh that is symmetric about an axis,
    leaves products like 4.4e-20 next to moments of 0.03: written into a URDF they say
    nothing but noise. Those below :data:`ROUNDING_PRODUCTS` of the largest moment become 0.
    """
    rows = np.array(matrix, dtype=float).tolist()
    # The same comparisons with Python numbers (NumPy's per-call cost dominates on 3x3).
    if not all(math.isfinite(value) for row in rows for value in row):
        return np.array(rows)
    scale = max(abs(rows[0][0]), abs(rows[1][1]), abs(rows[2][2]))
    if scale > 0.0:
        least = ROUNDING_PRODUCTS * scale
        for i, j in _OFF_DIAGONAL:
            if abs(rows[i][j]) < least:
                rows[i][j] = 0.0
    return np.array(rows)


_OFF_DIAGONAL = ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1))


def parallel_axis(mass: float, offset: Sequence[float]) -> np.ndarray:
    """Return the Steiner term ``m (|d|^2 E - d d^T)`` to move a central tensor by ``d``."""
    d = np.asarray(offset, dtype=float)
    s = float(d @ d)  # NumPy's dot product (its rounding is the BLAS's)
    x, y, z = (float(v) for v in d.tolist())
    # The rest entry by entry, each operation rounded as NumPy's element-wise ones are
    # (s * E, d d^T, their difference, times m): the same numbers without np.eye, np.outer
    # and three 3x3 temporaries, which cost more than the sum they serve.
    on, off = s * 1.0, s * 0.0
    return np.array([
        [mass * (on - x * x), mass * (off - x * y), mass * (off - x * z)],
        [mass * (off - y * x), mass * (on - y * y), mass * (off - y * z)],
        [mass * (off - z * x), mass * (off - z * y), mass * (on - z * z)]])


def flip_products(inertia: InertiaLike) -> np.ndarray:
    """Return the tensor with the sign of all three products of inertia reversed."""
    m = inertia_matrix(inertia)
    flipped = -m
    np.fill_diagonal(flipped, np.diag(m))
    return flipped


def equivalent_box(mass: float, inertia: InertiaLike) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """
    Return the box RViz draws for an inertia, exactly as ``RobotLink::createInertia``.

    :param mass: the link mass
    :param inertia: the tensor about the centre of mass, in the inertial frame
    :return: (size (3,), rotation 3x3 whose columns are the box axes in the inertial
        frame), or None when RViz refuses the tensor ("unrealistic inertia") or the sizes
        are not real numbers (the triangle inequality fails, RViz then draws nothing)
    """
    return TensorProperties(inertia).equivalent_box(mass)


def com_sphere_diameter(mass: float) -> float:
    """Return the diameter of the lead ball RViz draws for a mass (0 for non-positive mass)."""
    if not math.isfinite(mass) or mass <= 0.0:
        return 0.0
    return 2.0 * (0.75 * mass / (math.pi * LEAD_DENSITY)) ** (1.0 / 3.0)


def is_zero_tensor(inertia: InertiaLike) -> bool:
    """Return True when all six entries are exactly zero (a point mass)."""
    values = inertia.as_tuple() if isinstance(inertia, Inertia) else \
        inertia_matrix(inertia).ravel().tolist()
    return not any(values)  # NaN is not zero, as for np.any


#: metres: a tensor whose every entry is below mass times this squared (a radius of gyration
#: of a micrometre) is a zero tensor written with a CAD or conversion tool's round-off
ROUNDOFF_GYRATION = 1e-6


def roundoff_zero(values: Tuple[float, ...], mass: float) -> float:
    """
    Return the largest entry of a tensor that is 0 but for round-off, else 0.0.

    iCub's URDF declares ``ixx="-5.42101e-20"`` and ``iyy="4.07592e-18"`` with the other
    entries 0 on 2 kg links: a zero tensor (a point mass), not a tensor with a negative
    moment. No part has a radius of gyration of a micrometre (a 1 g screw has a millimetre).

    :param values: the six entries (ixx, ixy, ixz, iyy, iyz, izz), kg m^2
    :param mass: the link's mass, kg
    :return: the largest absolute entry when all are below ``mass * ROUNDOFF_GYRATION**2``
        and not all exactly 0; 0.0 otherwise
    """
    largest = max((abs(value) for value in values), default=0.0)
    if not (math.isfinite(mass) and mass > 0.0 and math.isfinite(largest)):
        return 0.0
    return largest if 0.0 < largest <= mass * ROUNDOFF_GYRATION ** 2 else 0.0


def _plain_diagonal(inertia: InertiaLike) -> Optional[Tuple[float, float, float]]:
    """
    Return (ixx, iyy, izz) of a tensor without products, None for any other.

    LAPACK decomposes such a tensor without rounding (its eigenvalues are the diagonal,
    sorted), unless it rescales a tensor whose largest entry is beyond about 1e+-146, or
    orders a +0 and a -0: the range and the zeros are required here.
    """
    if not isinstance(inertia, Inertia):
        return None
    return _diagonal_of(*inertia.as_tuple())


def _diagonal_of(ixx: float, ixy: float, ixz: float, iyy: float, iyz: float,
                 izz: float) -> Optional[Tuple[float, float, float]]:
    if ixy != 0.0 or ixz != 0.0 or iyz != 0.0:
        return None
    diagonal = (float(ixx), float(iyy), float(izz))
    if not all(abs(value) < 1e100 for value in diagonal):
        return None  # huge, infinite or NaN
    largest = max(abs(value) for value in diagonal)
    if not (largest > 1e-100 or largest == 0.0):
        return None
    if any(value == 0.0 and math.copysign(1.0, value) < 0.0 for value in diagonal):
        return None
    return diagonal


class TensorProperties:
    """
    The derived quantities of one tensor, each computed once, on first use.

    Several rules ask about the same tensor (Gazebo validity, definiteness, the RViz box,
    the principal moments), and each question used to decompose it again. The values
    are exactly those of the module functions of the same names (which are built on this
    class); the cached arrays are read-only because they are shared.

    A tensor without products of inertia (most of them) is answered with Python numbers:
    the moments are its sorted diagonal and the determinant is NumPy's formula (the sign
    times ``exp`` of the sum of the logarithms), so the values are equal bit for bit while
    each NumPy call on a 3x3 array, which costs microseconds, is left out.

    :param inertia: the tensor
    """

    def __init__(self, inertia: InertiaLike) -> None:
        self.matrix = inertia_matrix(inertia)
        self.matrix.setflags(write=False)
        self._diagonal = _plain_diagonal(inertia)
        self._principal: Optional[Tuple[np.ndarray, np.ndarray]] = None
        self._moments: Optional[np.ndarray] = None
        self._minors: Optional[Tuple[float, float, float]] = None
        self._tolerance: Optional[float] = None

    @property
    def principal(self) -> Tuple[np.ndarray, np.ndarray]:
        """Return :func:`principal_moments` of the tensor: (moments ascending, axes)."""
        if self._principal is None:
            moments, axes = principal_moments(self.matrix)
            moments.setflags(write=False)
            axes.setflags(write=False)
            self._principal = (moments, axes)
        return self._principal

    @property
    def moments(self) -> np.ndarray:
        """Return the principal moments, ascending."""
        if self._moments is None:
            if self._diagonal is not None:
                moments = np.array(sorted(self._diagonal))
                moments.setflags(write=False)
                self._moments = moments
            else:
                self._moments = self.principal[0]
        return self._moments

    @property
    def tolerance(self) -> float:
        """Return :func:`gz_tolerance` with gz-math's default factor."""
        if self._tolerance is None:
            m = self.matrix
            # np.trace adds the diagonal from the first entry on, as this sum does.
            self._tolerance = gz_epsilon(float(m[0, 0]) + float(m[1, 1]) + float(m[2, 2]))
        return self._tolerance

    @property
    def minors(self) -> Tuple[float, float, float]:
        """Return :func:`leading_minors`."""
        if self._minors is None:
            if self._diagonal is not None:
                ixx, iyy, izz = self._diagonal
                ixy = float(self.matrix[0, 1])
                self._minors = (ixx, ixx * iyy - ixy ** 2, _diagonal_det(self._diagonal))
            else:
                self._minors = leading_minors(self.matrix)
        return self._minors

    def gz_is_near_positive(self, mass: float) -> bool:
        """Return gz-math ``MassMatrix3::IsNearPositive`` (positive semi-definite within eps)."""
        eps = self.tolerance
        d1, d2, d3 = self.minors
        return mass >= 0.0 and d1 + eps >= 0.0 and d2 + eps >= 0.0 and d3 + eps >= 0.0

    def gz_is_valid(self, mass: float) -> bool:
        """Return gz-math ``MassMatrix3::IsValid``: what sdformat requires of a link."""
        return self.gz_is_near_positive(mass) and gz_valid_moments(self.moments)

    def is_positive_definite(self) -> bool:
        """Return :func:`is_positive_definite` (Sylvester within eps, eigenvalue check)."""
        eps = self.tolerance
        d1, d2, d3 = self.minors
        if not (d1 + eps > 0.0 and d2 + eps > 0.0 and d3 + eps > 0.0):
            return False
        return bool(self.moments[0] >= -eps)

    def equivalent_box(self, mass: float) -> Optional[Tuple[np.ndarray, np.ndarray]]:
        """Return :func:`equivalent_box` for this tensor and a mass."""
        squared = self._box_squares(mass)
        if squared is None:
            return None
        return np.sqrt(np.array(squared)), np.array(self.principal[1])

    def has_equivalent_box(self, mass: float) -> bool:
        """Return ``equivalent_box(mass) is not None``, without the box's axes (no LAPACK)."""
        return self._box_squares(mass) is not None

    def _box_squares(self, mass: float) -> Optional[List[float]]:
        """Return the squared sides of RViz's box, None when RViz draws none (Python numbers)."""
        if not (math.isfinite(mass) and
                all(math.isfinite(value) for value in self.matrix.ravel().tolist())):
            return None
        d1, d2, d3 = self.minors
        if mass <= 0.0 or d1 <= 0.0 or d2 <= 0.0 or d3 <= 0.0:
            return None
        x, y, z = self.moments.tolist()
        scale = 6.0 / mass
        squared = [scale * (y + z - x), scale * (x + z - y), scale * (x + y - z)]
        if any(value < 0.0 for value in squared):
            return None
        return squared


def _diagonal_det(diagonal: Tuple[float, float, float]) -> float:
    """Return ``np.linalg.det`` of a diagonal tensor, as NumPy computes it (no pivoting)."""
    sign = 1.0
    logdet = 0.0
    for value in diagonal:
        if value == 0.0:
            return 0.0  # LAPACK reports the matrix singular: NumPy's sign 0 times exp(-inf)
        if value < 0.0:
            sign = -sign
            value = -value
        logdet += math.log(value)
    return sign * math.exp(logdet)
