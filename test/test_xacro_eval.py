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

"""The restricted xacro evaluator: what robots write still works; introspection does not."""

import math

import pytest
from urdf_link_tools.xacro import evaluator as xacro_eval
from urdf_link_tools.xacro.evaluator import guarded_eval, UnsafeExpression


def symbols():
    names = dict(xacro_eval.safe_builtins())
    names.update(xacro_eval.safe_math())
    names['math'] = type('Namespace', (), xacro_eval.safe_math())
    names.update(params={'mass': 2.5, 'names': ['a', 'b']}, width=0.2, prefix='left_',
                 _origin_xyz='0 0 0.1')
    return names


@pytest.mark.parametrize('expression, expected', [
    ('pi / 2', math.pi / 2),
    ('math.radians(90)', math.pi / 2),
    ('width ** 2 * params["mass"] / 12', 0.2 ** 2 * 2.5 / 12),
    ('2 ** 10', 1024),
    ("'-' * 3", '---'),
    ('[x * 2 for x in range(3)]', [0, 2, 4]),
    ("prefix + 'arm'", 'left_arm'),
    ("'{:.3f}'.format(width)", '0.200'),
    ("'{0}_{1}'.format(prefix, 'x')", 'left__x'),
    ("' '.join(str(x) for x in params['names'])", 'a b'),
    ("prefix.upper().strip('_')", 'LEFT'),
    ('sorted([3, 1, 2])[0]', 1),
    ('max(1, 2) if width > 0.1 else min(1, 2)', 2),
    ('1 << 8', 256),
    ('math.factorial(5)', 120),
    ("f'{prefix}link'", 'left_link'),
    # a property may start with one underscore (xArm's _origin_xyz): a name, not an attribute
    ('_origin_xyz.split()[2]', '0.1'),
])
def test_what_robots_write_still_evaluates(expression, expected):
    assert guarded_eval(expression, symbols()) == expected


@pytest.mark.parametrize('expression', [
    '().__class__', 'x.__dict__', '__secret', '__builtins__', '__import__("os")',
    '(x for x in [1]).gi_frame', 'width._private',
    "'{0.__class__}'.format(1)", "'{0[a]}'.format({'a': 1})", "'{}'.format_map({})",
    "'{}'.format", 'int.mro()', "'{:{}}'.format(1, 2)",
])
def test_introspection_is_refused_before_it_runs(expression):
    with pytest.raises(UnsafeExpression):
        xacro_eval.compile_guarded(expression)


@pytest.mark.parametrize('expression', [
    '7 ** (10 ** 9)', '10 ** 10 ** 10', "'x' * 10 ** 6", '[0] * 10 ** 9',
    '1 << 10 ** 9', 'range(10 ** 12)', 'math.factorial(10 ** 8)',
    '(10 ** 30000) * (10 ** 30000)',
])
def test_huge_values_are_refused_at_once(expression):
    with pytest.raises(UnsafeExpression):
        guarded_eval(expression, symbols(), max_length=1000)


# The names the guards had before they became constants of the code, and others.
SHADOWS = ['_urdf_link_tools_pow', '_urdf_link_tools_mul', '_urdf_link_tools_lshift', 'pow']


@pytest.mark.parametrize('expression', [
    '7 ** 100000000', "'x' * 10 ** 6", '1 << 10 ** 9',
    # the same inside a lambda and a comprehension (their own scopes)
    '(lambda: 7 ** 100000000)()', "[s * 10 ** 6 for s in ['x']]",
    # a lambda parameter named like a guard is a local of the lambda's own scope
    '(lambda _urdf_link_tools_pow: 7 ** 100000000)(lambda a, b: 1)',
    "(lambda _urdf_link_tools_mul: 'x' * 10 ** 6)(lambda a, b: 1)",
])
def test_guards_cannot_be_shadowed(expression):
    names = symbols()
    names.update({name: (lambda *args: 1) for name in SHADOWS})
    locals_ = {name: (lambda *args: 1) for name in SHADOWS}
    for local_symbols in (None, locals_):
        with pytest.raises(UnsafeExpression):
            guarded_eval(expression, dict(names), local_symbols, max_length=1000)


def test_a_literal_is_never_taken_for_a_guard():
    # The placeholders the guards are compiled from are random: a literal stays a literal.
    assert guarded_eval("'urdf_link_tools pow ' + 'x'", symbols()) == 'urdf_link_tools pow x'
    assert guarded_eval('2 ** 3 * 2', symbols()) == 16


@pytest.mark.parametrize('name', ['type', 'vars', 'getattr', 'open', 'eval', 'exec',
                                  'globals', 'compile', 'setattr', 'dir', 'object'])
def test_no_dangerous_builtins(name):
    with pytest.raises(NameError):
        guarded_eval(name, symbols())


def test_a_format_string_from_a_property_is_refused_with_the_ways_out():
    # Shadow's process_sensor_parameters.xacro keeps '{f}={sensor}' in a property; real xacro
    # formats it. The refusal says what to write instead.
    with pytest.raises(UnsafeExpression) as refused:
        xacro_eval.compile_guarded('fmt.format(f=1)')
    message = str(refused.value)
    assert 'literal format string only' in message and 'from a name (a property)' in message
    assert 'write the string in the expression' in message and 'expand the file with xacro' \
        in message
