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

"""The inertia maths against gz-math, RViz and MuJoCo semantics, at each tolerance boundary."""

import math
import sys

import numpy as np
import pytest

from urdf_link_tools import geometry, inertia
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.model import Box, Cylinder, Sphere
from urdf_link_tools.parser import parse_urdf_string

EPS = sys.float_info.epsilon


def test_gz_tolerance_formula():
    values = (1.0, 0.0, 0.0, 2.0, 0.0, 3.0)
    assert inertia.gz_tolerance(values) == pytest.approx(10 * EPS * 0.5 * 6.0, rel=1e-15)
    assert inertia.gz_tolerance((-1.0, 0, 0, -2.0, 0, -3.0)) == inertia.gz_tolerance(values)


@pytest.mark.parametrize('excess,valid', [(0.9, True), (1.1, False)])
def test_gz_triangle_boundary(excess, valid):
    a, b = 0.5, 0.5
    eps = 10 * EPS * 0.5 * (a + b + 1.0)
    c = a + b + excess * eps
    assert inertia.gz_valid_moments((a, b, c)) is valid
    assert inertia.violates_triangle((a, b, c)) is (not valid)


@pytest.mark.parametrize('moment,valid', [(-0.9, True), (-1.1, False)])
def test_gz_negative_moment_boundary(moment, valid):
    eps = 10 * EPS * 0.5 * 2.0
    assert inertia.gz_valid_moments((moment * eps, 1.0, 1.0)) is valid


def test_gz_near_positive_and_positive():
    assert inertia.gz_is_near_positive(1.0, (0, 0, 0, 0, 0, 0))
    assert not inertia.gz_is_positive(1.0, (0, 0, 0, 0, 0, 0))
    assert inertia.gz_is_valid(1.0, (1, 0, 0, 1, 0, 1))
    assert not inertia.gz_is_valid(1.0, (1, 0, 0, 1, 0, 3))
    assert not inertia.gz_is_valid(1.0, (1, 2, 0, 1, 0, 1))


def test_sylvester_is_not_fooled_by_a_zero_first_minor():
    assert not inertia.is_positive_definite((0, 0, 0, -0.5, 0, 1.0))
    assert inertia.is_positive_definite((1, 0.1, 0.1, 1, 0.1, 1))


def test_equivalent_box_matches_rviz():
    size, rotation = inertia.equivalent_box(1.0, (1 / 6, 0, 0, 1 / 6, 0, 1 / 6))
    assert np.allclose(size, [1.0, 1.0, 1.0])
    assert np.isclose(np.linalg.det(rotation), 1.0)
    m, x, y, z = 2.0, 0.3, 0.2, 0.1
    tensor = (m * (y * y + z * z) / 12, 0, 0, m * (x * x + z * z) / 12, 0,
              m * (x * x + y * y) / 12)
    size, _ = inertia.equivalent_box(m, tensor)
    assert sorted(size) == pytest.approx(sorted([x, y, z]))
    assert inertia.equivalent_box(1.0, (0, 0, 0, 1, 0, 1)) is None      # ixx <= 0
    assert inertia.equivalent_box(0.0, (1, 0, 0, 1, 0, 1)) is None      # mass <= 0
    assert inertia.equivalent_box(1.0, (1, 0, 0, 1, 0, 3)) is None      # sqrt of negative


def test_com_sphere_is_a_lead_ball():
    d = inertia.com_sphere_diameter(11340 * math.pi / 6)   # a 1 m lead ball
    assert d == pytest.approx(1.0)
    assert inertia.com_sphere_diameter(0.0) == 0.0


def test_rotate_and_parallel_axis():
    rotation = geometry.rpy_to_matrix((0, 0, math.pi / 2))
    rotated = inertia.rotate_inertia((1, 0, 0, 2, 0, 3), rotation)
    assert np.allclose(np.diag(rotated), [2, 1, 3])
    steiner = inertia.parallel_axis(2.0, (1.0, 0.0, 0.0))
    assert np.allclose(steiner, np.diag([0.0, 2.0, 2.0]))


def test_nearest_triangle_moments():
    fixed = inertia.nearest_triangle_moments([0.01, 0.01, 0.05])
    assert fixed[0] + fixed[1] >= fixed[2]
    # The Euclidean projection: the two small moments rise and the large one falls by
    # the same delta = (C - A - B) / 3 (plus the margin).
    assert fixed == pytest.approx([0.02, 0.02, 0.04], rel=1e-3)


def test_rpy_matches_urdf_fixed_axis_convention():
    r = geometry.rpy_to_matrix((0.1, 0.2, 0.3))
    def rx(a): return np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])  # noqa: E501,E704
    def ry(a): return np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])  # noqa: E501,E704
    def rz(a): return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])  # noqa: E501,E704
    assert np.allclose(r, rz(0.3) @ ry(0.2) @ rx(0.1))
    x, y, z, w = geometry.rpy_to_quaternion((0.0, 0.0, math.pi / 2))
    assert (x, y, z, w) == pytest.approx((0, 0, math.sqrt(0.5), math.sqrt(0.5)))
    assert geometry.matrix_to_quaternion(np.diag([1.0, -1.0, -1.0])) == \
        pytest.approx((1.0, 0.0, 0.0, 0.0))


def test_primitive_volume_and_inertia():
    assert geometry.primitive_volume(Box((1, 2, 3))) == 6
    assert geometry.primitive_volume(Sphere(1.0)) == pytest.approx(4 / 3 * math.pi)
    unit = geometry.primitive_unit_inertia(Cylinder(1.0, 0.5))
    volume = math.pi * 0.5
    assert unit[2, 2] == pytest.approx(volume / 2)
    assert unit[0, 0] == pytest.approx(volume * 3.25 / 12)
    assert geometry.primitive_volume(Box((0, 1, 1))) is None


def test_cylinder_bounds_under_rotation():
    from urdf_link_tools.model import GeometryElement, Origin
    element = GeometryElement('collision', 0, origin=Origin((0, 0, 0), (math.pi / 2, 0, 0)),
                              geometry=Cylinder(0.1, 1.0))
    lo, hi = geometry.element_bounds(element)
    assert hi == pytest.approx([0.1, 0.5, 0.1])
    assert lo == pytest.approx([-0.1, -0.5, -0.1])


def test_unrepresentable_box_within_gz_tolerance():
    c = 1.0 + 1e-15       # A + B - C = -1.1e-15, inside gz's eps (2.2e-15)
    text = ('<robot name="r"><link name="a"/><joint name="j" type="revolute"><parent link="a"/>'
            '<child link="b"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>'
            f'<link name="b"><inertial><mass value="1"/><inertia ixx="0.5" ixy="0" ixz="0" '
            f'iyy="0.5" iyz="0" izz="{c!r}"/></inertial></link></robot>')
    # (MuJoCo, with no tolerance, refuses this diagonal: test_checks_engines)
    analysis = analyze(parse_urdf_string(text), CheckConfig(
        check_meshes=False, targets=frozenset({'gazebo', 'rviz'})))
    rules = {f.rule: f for f in analysis.findings}
    assert 'inertia-triangle-inequality' not in rules
    assert rules['inertia-unrepresentable-box'].severity == Severity.WARNING
    fixed = rules['inertia-unrepresentable-box'].suggested_inertia
    assert fixed[0] + fixed[3] > fixed[5]


def test_tidy_sets_rounding_products_to_zero_and_keeps_real_ones():
    from urdf_link_tools.inertia import tidy
    tensor = np.array([[0.03, 4.4e-20, -1e-4], [4.4e-20, 0.02, 3.5e-19], [-1e-4, 3.5e-19, 0.01]])
    tidied = tidy(tensor)
    assert tidied[0, 1] == tidied[1, 0] == tidied[1, 2] == tidied[2, 1] == 0.0
    assert tidied[0, 2] == tidied[2, 0] == -1e-4  # a real product stays
    assert np.array_equal(np.diag(tidied), np.diag(tensor))
    assert np.array_equal(tidy(np.zeros((3, 3))), np.zeros((3, 3)))


@pytest.mark.parametrize('values', [
    ('1', '1e308', '1e308', '1', '1e308', '1'),  # products near the float limit
    ('1.7976931348623157e308',) * 6,  # urdfdom's autogenerated.urdf: DBL_MAX everywhere
    ('1e308', '0', '0', '1e308', '0', '1e308')])
def test_entries_near_the_float_limit_are_an_error_not_a_failure(values):
    # LAPACK gave up on their eigenvalues ("Eigenvalues did not converge"): an internal
    # error, exit 5, on urdfdom's own test file.
    inertia = ' '.join(f'{name}="{value}"' for name, value in zip(
        ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'), values))
    text = ('<robot name="r"><link name="a"/><joint name="j" type="revolute"><parent link="a"/>'
            '<child link="b"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>'
            f'<link name="b"><inertial><mass value="1"/><inertia {inertia}/></inertial>'
            '<collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>'
            '</robot>')
    findings = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False)).findings
    assert not [f for f in findings if f.rule == 'internal-error'], findings
    assert any(f.link == 'b' and f.rule.startswith('inertia-') and
               f.severity == Severity.ERROR for f in findings)
