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

"""The fast paths (cached tensor properties, model and mesh shortcuts) give the general results."""

import dataclasses
import inspect
import math
import random

import numpy as np
import pytest

from urdf_link_tools import inertia, model
from urdf_link_tools.geometry import is_finite
from urdf_link_tools.parser import parse_urdf_string

NAMES = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')


def _rotation(rng: random.Random) -> np.ndarray:
    q, _ = np.linalg.qr(np.array([[rng.gauss(0, 1) for _ in range(3)] for _ in range(3)]))
    return q


def _tensor(rng: random.Random) -> tuple:
    """Return a tensor from a family that sits on or near some rule's boundary."""
    kind = rng.randrange(12)
    a, b = rng.uniform(1e-4, 1.0), rng.uniform(1e-4, 1.0)
    if kind == 0:
        moments = (a, b, rng.uniform(1e-4, 1.0))
    elif kind == 1:  # on the triangle boundary, either side, within a few ulps or more
        moments = (a, b, (a + b) * (1.0 + rng.choice([-1, 1]) * 10 ** rng.uniform(-17, -6)))
    elif kind == 2:  # near MuJoCo's floor, in a large or a tiny tensor
        moments = (1e-14 * rng.uniform(0.5, 2.0), b, b)
        if rng.random() < 0.5:
            moments = (moments[0], b * 1e-12, b * 1e-12)
    elif kind == 3:  # repeated moments (cylinders, spheres): the closed form's worst case
        moments = (a, a, min(2 * a, b))
    elif kind == 4:  # nearly isotropic, large
        moments = tuple(1e3 * (1.0 + rng.gauss(0, 1) * 10 ** rng.uniform(-15, -8))
                        for _ in range(3))
    elif kind == 5:  # indefinite
        moments = (-a * 10 ** rng.uniform(-16, 0), b, b)
    elif kind == 6:  # thin rod
        moments = (a * 10 ** rng.uniform(-12, -5), b, b)
    elif kind == 7:
        return (1.0, 0.0, 0.0, 1.0, 0.0, 1.0)
    elif kind == 8:
        return tuple(rng.uniform(-1, 1) for _ in range(6))
    elif kind == 9:
        return (0.0,) * 6
    else:
        moments = (a, b, rng.uniform(1e-4, 1.0))
    if kind != 10 and rng.random() < 0.2:
        return (moments[0], 0.0, 0.0, moments[1], 0.0, moments[2])
    r = _rotation(rng)
    m = r @ np.diag(moments) @ r.T
    if rng.random() < 0.15:  # the products with the CAD sign convention
        m = -m
        np.fill_diagonal(m, -np.diag(m))
    return tuple(float(m[i, j]) for i, j in ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)))


def _shape(rng: random.Random) -> str:
    kind = rng.randrange(4)
    size = [rng.uniform(0.01, 0.5) for _ in range(3)]
    if kind == 0:
        return f'<box size="{size[0]!r} {size[1]!r} {size[2]!r}"/>'
    if kind == 1:
        return f'<cylinder radius="{size[0]!r}" length="{size[1]!r}"/>'
    if kind == 2:
        return f'<sphere radius="{size[0]!r}"/>'
    return f'<box size="{size[0]!r} {size[1]!r} {rng.choice([0.0, 1e-9, -0.1])!r}"/>'


def _origin(rng: random.Random, spread: float) -> str:
    xyz = ' '.join(repr(rng.uniform(-spread, spread)) for _ in range(3))
    rpy = rng.choice(['0 0 0', '0 0 0', '0 1.5707963267948966 0', '1.5707963267948966 0 0'])
    if rng.random() < 0.4:
        rpy = ' '.join(repr(rng.uniform(-3.2, 3.2)) for _ in range(3))
    return f'<origin xyz="{xyz}" rpy="{rpy}"/>'


def random_robot(seed: int, links: int = 120) -> str:
    """Return a robot whose links sit on and around the tensor rules' boundaries."""
    rng = random.Random(seed)
    parts = [f'<robot name="fastpath_{seed}">']
    for index in range(links):
        values = _tensor(rng)
        if rng.random() < 0.3:  # a tensor derived from the collision box, off by ~factor
            x, y, z = (rng.uniform(0.02, 0.4) for _ in range(3))
            mass = 700.0 * x * y * z
            factor = rng.choice([1.0, 10.0 * (1 + rng.gauss(0, 1e-7)), 0.1, 9.99, 10.01])
            values = (factor * mass * (y * y + z * z) / 12, 0.0, 0.0,
                      factor * mass * (x * x + z * z) / 12, 0.0, mass * (x * x + y * y) / 12)
            collisions = [f'<collision><origin xyz="0 0 0" rpy="0 0 0"/><geometry>'
                          f'<box size="{x!r} {y!r} {z!r}"/></geometry></collision>']
        else:
            mass = rng.choice([rng.uniform(0.01, 20.0), 1e-3, 2e4, 0.0])
            collisions = [f'<collision>{_origin(rng, 0.2)}<geometry>{_shape(rng)}</geometry>'
                          '</collision>' for _ in range(rng.randrange(3))]
        spread = rng.choice([0.0, 0.05, 0.3, 2.0])
        com = ' '.join(repr(rng.uniform(-spread, spread)) for _ in range(3))
        rpy = rng.choice(['0 0 0', '0 0 0', '0.1 0.2 0.3'])
        attributes = ' '.join(f'{name}="{value!r}"' for name, value in zip(NAMES, values))
        parts.append(
            f'<link name="l{index}"><inertial><origin xyz="{com}" rpy="{rpy}"/>'
            f'<mass value="{mass!r}"/><inertia {attributes}/></inertial>'
            + ''.join(collisions) + '</link>')
        if index:
            kind = rng.choice(['revolute', 'fixed', 'continuous'])
            parts.append(f'<joint name="j{index}" type="{kind}"><parent link="l{index - 1}"/>'
                         f'<child link="l{index}"/><limit effort="1" velocity="1"/></joint>')
    parts.append('</robot>')
    return '\n'.join(parts)


def test_tensor_properties_match_the_module_functions():
    rng = random.Random(3)
    for _ in range(500):
        values = tuple(float(v) for v in _tensor(rng))
        tensor = inertia.TensorProperties(values)
        moments, axes = inertia.principal_moments(values)
        assert np.array_equal(tensor.moments, moments)
        assert np.array_equal(tensor.principal[1], axes)
        assert tensor.minors == inertia.leading_minors(values)
        assert tensor.tolerance == inertia.gz_tolerance(values)
        assert tensor.is_positive_definite() == inertia.is_positive_definite(values)
        assert tensor.gz_is_valid(2.0) == inertia.gz_is_valid(2.0, values)
        box, reference = tensor.equivalent_box(2.0), inertia.equivalent_box(2.0, values)
        assert (box is None) == (reference is None)
        if box is not None:
            assert np.array_equal(box[0], reference[0])
            assert np.array_equal(box[1], reference[1])


@pytest.mark.parametrize('cls', [getattr(model, name) for name in (
    'Origin', 'Box', 'Cylinder', 'Sphere', 'Mesh', 'Material', 'Inertia', 'Inertial',
    'GeometryElement', 'Link', 'JointLimit', 'Mimic', 'Joint', 'Robot')])
def test_model_init_is_the_dataclass_init(cls):
    """The model's direct __init__ takes and stores exactly what dataclasses' would."""
    reference = dataclasses.make_dataclass(
        f'Reference{cls.__name__}',
        [(f.name, f.type, f) for f in dataclasses.fields(cls)], frozen=True)
    init = [f for f in dataclasses.fields(cls) if f.init]
    required = {f.name: f'{f.name}-value' for f in init
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    assert inspect.signature(cls.__init__).parameters.keys() == \
        inspect.signature(reference.__init__).parameters.keys()
    given = {f.name: f'{f.name}-given' for f in init}
    if cls is model.Robot:  # __post_init__ reads links and joints
        given.update(links=(model.Link('a'),), joints=(), materials=(), notes=())
    for arguments in (required, given):
        ours, theirs = cls(**arguments), reference(**arguments)
        for f in dataclasses.fields(cls):
            if f.name.startswith('_'):
                continue  # Robot's lookup tables, filled by __post_init__
            assert getattr(ours, f.name) == getattr(theirs, f.name), f.name
        positional = cls(*[arguments.get(f.name, getattr(ours, f.name)) for f in init])
        assert positional == ours
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(ours, init[0].name, None)


def test_robot_lookup_tables_are_filled():
    robot = parse_urdf_string(random_robot(0, links=5))
    assert robot.link('l3') is robot.links[3]
    assert robot.parent_joint('l3').name == 'j3'
    assert robot.root_links == ('l0',)


def _number(rng: random.Random) -> float:
    """Return a number from the edges: signed zeros, non-finite, tiny, ordinary."""
    kind = rng.random()
    if kind < 0.1:
        return rng.choice([0.0, -0.0])
    if kind < 0.13:
        return rng.choice([float('nan'), float('inf'), -float('inf')])
    if kind < 0.2:
        return rng.uniform(-1.0, 1.0) * 1e-14
    return rng.uniform(-1.0, 1.0) * 10.0 ** rng.randint(-8, 3)


def _bits(values) -> list:
    return [v.hex() if v == v else 'nan' for v in np.asarray(values, dtype=float).ravel().tolist()]


def test_tidy_and_unrotated_shortcuts_are_the_numpy_results():
    """The Python-number tidy and the identity shortcuts equal NumPy's results bit for bit."""
    from urdf_link_tools.checks.bounds import _union_unmoved
    from urdf_link_tools.geometry import rpy_to_matrix, transform_bounds, union_bounds
    rng = random.Random(19)
    off = ~np.eye(3, dtype=bool)
    with np.errstate(invalid='ignore', over='ignore'):
        for _ in range(20000):
            matrix = np.array([[_number(rng) for _ in range(3)] for _ in range(3)])
            expected = matrix.copy()
            if np.all(np.isfinite(expected)):
                scale = float(np.max(np.abs(np.diag(expected))))
                if scale > 0.0:
                    expected[off & (np.abs(expected) < inertia.ROUNDING_PRODUCTS * scale)] = 0.0
            assert _bits(inertia.tidy(matrix)) == _bits(expected)
            # R^T T R with rpy of signed zeros, tidied, is T tidied when the diagonal has no
            # zero and tidy's threshold is above 0 (suggest._in_inertial_frame).
            tensor = (matrix + matrix.T) / 2.0
            diagonal = np.abs(np.diag(tensor))
            if np.all(np.isfinite(tensor)) and np.all(diagonal > 0.0) and \
                    inertia.ROUNDING_PRODUCTS * diagonal.max() > 0.0:
                rotation = rpy_to_matrix([rng.choice([0.0, -0.0]) for _ in range(3)])
                assert _bits(inertia.tidy(tensor)) == \
                    _bits(inertia.tidy(rotation.T @ tensor @ rotation))
            boxes = []
            for _ in range(rng.randint(1, 4)):
                low = np.array([_number(rng) for _ in range(3)])
                boxes.append((low, low + np.abs([_number(rng) for _ in range(3)])))
            got = _union_unmoved(boxes)
            want = union_bounds([transform_bounds(box, np.eye(4)) for box in boxes])
            assert _bits(got[0]) == _bits(want[0]) and _bits(got[1]) == _bits(want[1])


@pytest.mark.parametrize('values', [
    (), (0.0,), (1.0, -2.0, 3.5), (1e308, 1e308), (-1e308, -1e308, 1.0), (float('inf'),),
    (1.0, float('-inf')), (float('inf'), float('-inf')), (float('nan'), 1.0), [0.5, -0.0],
    (1e308, -1e308, float('nan')), np.array([1.0, 2.0]), np.array([np.inf, 1.0])])
def test_is_finite_is_every_term_finite(values):
    # is_finite sums first (a finite sum has no NaN or infinity among its terms) and judges
    # term by term otherwise: an overflowing sum of finite numbers is still finite.
    assert is_finite(values) == all(math.isfinite(value) for value in values)


def test_parallel_axis_is_numpys_formula_bit_for_bit():
    # parallel_axis computes m (|d|^2 E - d d^T) entry by entry, without np.eye and np.outer:
    # the same bits on offsets with signed zeros, huge, NaN and infinite coordinates.
    def reference(mass, offset):
        d = np.asarray(offset, dtype=float)
        return mass * (float(d @ d) * np.eye(3) - np.outer(d, d))

    rng = random.Random(5)
    cases = [(1.0, (0.0, 0.0, 0.0)), (2.0, (-0.0, 0.0, -0.0)), (0.5, (1e200, 0.0, 0.0)),
             (1.0, (float('nan'), 0.0, 0.0)), (1.0, (float('inf'), 1.0, 0.0)),
             (-1.0, (1.0, 2.0, 3.0)), (np.float64(3.3), np.array([0.1, -0.2, 0.3]))]
    for _ in range(2000):
        cases.append((rng.uniform(0.0, 10.0) * 10 ** rng.uniform(-8, 3), tuple(
            rng.choice([0.0, -0.0, rng.gauss(0.0, 1.0) * 10 ** rng.uniform(-6, 1)])
            for _ in range(3))))
    with np.errstate(all='ignore'):
        for mass, offset in cases:
            assert inertia.parallel_axis(mass, offset).tobytes() == \
                reference(mass, offset).tobytes(), (mass, offset)
