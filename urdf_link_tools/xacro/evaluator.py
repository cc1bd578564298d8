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
A restricted evaluator for xacro's ``${...}`` expressions and ``$(eval ...)``.

xacro evaluates expressions with Python's ``eval`` and only refuses names starting with
``__``; its symbol table exposes ``python.vars`` and ``python.type``, which reach
``os.popen`` through dunder keys of ``vars(type)``. Here every expression is parsed first and
refused when it reaches for an underscore attribute or a dunder name, an interpreter internal
(frames, code objects, generators' frames), or ``str.format`` with attribute or index fields
(a format string walks attributes too). The symbols are a safe subset: math, numbers, text and
container helpers, ``xacro.*``; no ``type``, ``vars``, ``getattr``, ``open`` or import.

Arithmetic that makes huge values from a small text (``7**(10**9)``, ``'x' * 10**9``,
``1 << 10**9``, ``range(10**12)``, ``math.factorial(10**8)``) is refused before it runs, so
those end at once with a clear message instead of at the child process's CPU or memory limit.
``**``, ``*`` and ``<<`` are compiled into calls of the size-checking functions themselves,
held as constants of the code object: no name is looked up for them, so no property, macro
parameter, lambda parameter or write into xacro's symbol table can stand in for a guard.
The child's limits and empty environment still contain whatever this misses.

Pure Python with no xacro import: the child module wires it into xacro.
"""

from __future__ import annotations

import ast
import functools
import math
import secrets
import string
import types
from typing import Any, Callable, Dict, Mapping, Optional
import warnings

from urdf_link_tools.limits import DESCRIPTION_MAX_BYTES

#: Builtins xacro exposes that are harmless: no introspection, no I/O.
SAFE_BUILTIN_NAMES = (
    'list', 'dict', 'map', 'len', 'str', 'float', 'int', 'bool', 'min', 'max', 'round',
    'abs', 'all', 'any', 'divmod', 'enumerate', 'filter', 'frozenset', 'isinstance', 'ord',
    'chr', 'repr', 'reversed', 'slice', 'set', 'sorted', 'sum', 'tuple', 'zip', 'complex',
    'hash', 'range')
#: The builtins xacro 2 gives expressions directly (``create_global_symbols``; ``sorted`` and
#: ``range`` with a deprecation warning); the others only as ``python.NAME``: xacro reports
#: ``${sum(x)}`` as "name 'sum' is not defined", and a check must not pass it.
XACRO_GLOBAL_BUILTINS = frozenset((
    'list', 'dict', 'map', 'len', 'str', 'float', 'int', 'bool', 'True', 'False', 'min', 'max',
    'round', 'sorted', 'range'))
#: ``python.NAME`` builtins xacro has that are refused here (they reach the interpreter).
REFUSED_BUILTIN_NAMES = ('type', 'vars', 'issubclass')
#: Attributes that lead from a value to the interpreter (frames, code, globals).
BLOCKED_ATTRIBUTES = frozenset((
    'format_map', 'mro', 'gi_frame', 'gi_code', 'gi_yieldfrom', 'gi_running', 'cr_frame',
    'cr_code', 'cr_await', 'ag_frame', 'ag_code', 'ag_await', 'f_globals', 'f_locals',
    'f_builtins', 'f_back', 'f_code', 'tb_frame', 'tb_next', 'func_globals', 'func_code',
    'im_func', 'im_self', 'co_code', 'co_consts', 'co_names', 'with_traceback'))
#: Largest integer a power or shift may produce, in bits (about 30,000 decimal digits).
MAX_INT_BITS = 100_000
#: Longest range an expression may build or walk.
MAX_RANGE = 1_000_000
#: Largest argument of factorial, comb and perm.
MAX_FACTORIAL = 10_000

#: What the guard writes where a helper is called, replaced in the compiled code by the
#: helper itself; random, so that no literal in an expression can be mistaken for one.
_TOKEN = secrets.token_hex(16)
_POW = f'urdf_link_tools pow {_TOKEN}'
_MUL = f'urdf_link_tools mul {_TOKEN}'
_LSHIFT = f'urdf_link_tools lshift {_TOKEN}'


class UnsafeExpression(Exception):
    """An expression was refused before it ran, or stopped by a size guard."""


def _check_format(node: ast.Call) -> None:
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr != 'format':
        return
    if not (isinstance(func.value, ast.Constant) and isinstance(func.value.value, str)):
        raise UnsafeExpression(
            'str.format is allowed on a literal format string only: here the format string '
            'comes from a name (a property), whose fields this checker cannot vet before it '
            "runs; write the string in the expression ('{f}_link'.format(f=...)) or join "
            'with +, or expand the file with xacro and check the URDF it writes')
    try:
        fields = list(string.Formatter().parse(func.value.value))
    except ValueError as exc:
        raise UnsafeExpression(f'bad format string: {exc}') from None
    for _, field, spec, _ in fields:
        # '{0.attr}' and '{0[key]}' walk attributes and items: refused, as is nesting.
        if field and any(mark in field for mark in '.[') or spec and '{' in spec:
            raise UnsafeExpression('format fields may not name attributes or items')


def check_expression(tree: ast.AST) -> None:
    """
    Refuse an expression tree that reaches for the interpreter.

    :param tree: the parsed expression
    :raises UnsafeExpression: naming what is not allowed
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if node.attr.startswith('_') or node.attr in BLOCKED_ATTRIBUTES:
                raise UnsafeExpression(f'attribute {node.attr!r} is not allowed in xacro '
                                       'expressions here')
            if node.attr == 'format' and not isinstance(getattr(node, 'parent_call', None),
                                                        ast.Call):
                raise UnsafeExpression('str.format may only be called directly')
        elif isinstance(node, ast.Name) and node.id.startswith('__'):
            # A property may be called _size (xArm's _origin_xyz): a name only looks up the
            # symbols, which hold nothing but the safe subset and the file's own properties
            # (the size guards are not among them: see _Guard).
            # Dunder names (__builtins__, __import__) are refused, as xacro refuses them.
            raise UnsafeExpression(f'name {node.id!r} is not allowed in xacro expressions')
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                node.func.parent_call = node  # type: ignore[attr-defined]
            _check_format(node)


class _Guard(ast.NodeTransformer):
    """
    Route **, * and << through the size-checking helpers.

    Each becomes a call of a placeholder constant, which :func:`_bind` replaces in the code
    object by the helper: the call never looks a name up, in any scope (a lambda parameter,
    a property or a macro parameter of the same name would otherwise win).
    """

    HELPERS = {ast.Pow: _POW, ast.Mult: _MUL, ast.LShift: _LSHIFT}

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:  # noqa: N802 (ast API)
        self.generic_visit(node)
        helper = self.HELPERS.get(type(node.op))
        if helper is None:
            return node
        call = ast.Call(func=ast.Constant(value=helper),
                        args=[node.left, node.right], keywords=[])
        return ast.copy_location(call, node)


def _int_bits(value: Any) -> float:
    return float(abs(value).bit_length()) if isinstance(value, int) else 0.0


def guarded_pow(base: Any, exponent: Any) -> Any:
    """Compute ``base ** exponent``, refusing integers too large to be a robot's number."""
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0 and abs(base) > 1:
        if exponent * math.log2(abs(base)) > MAX_INT_BITS:
            raise UnsafeExpression(f'{base} ** {exponent} is too large a number')
    return base ** exponent


def make_guarded_mul(max_length: int) -> Callable[[Any, Any], Any]:
    """Return ``a * b`` refusing repeated text or lists longer than ``max_length``."""
    def guarded_mul(left: Any, right: Any) -> Any:
        for sequence, count in ((left, right), (right, left)):
            if isinstance(sequence, (str, bytes, list, tuple)) and isinstance(count, int):
                if len(sequence) * count > max_length:
                    raise UnsafeExpression(
                        f'repeating a {type(sequence).__name__} {count} times exceeds the '
                        'description size limit')
        if _int_bits(left) + _int_bits(right) > MAX_INT_BITS:
            raise UnsafeExpression('the product is too large a number')
        return left * right
    return guarded_mul


def guarded_lshift(value: Any, shift: Any) -> Any:
    """Compute ``value << shift``, refusing shifts that make huge integers."""
    if isinstance(shift, int) and shift > MAX_INT_BITS:
        raise UnsafeExpression(f'<< {shift} is too large a shift')
    return value << shift


def guarded_range(*args: int) -> range:
    """Return a range of at most :data:`MAX_RANGE` numbers."""
    result = range(*args)
    if len(result) > MAX_RANGE:
        raise UnsafeExpression(f'range of {len(result)} numbers is too long '
                               f'(at most {MAX_RANGE})')
    return result


def _bounded(function: Callable[..., Any]) -> Callable[..., Any]:
    def bounded(*args: Any) -> Any:
        if any(isinstance(arg, int) and arg > MAX_FACTORIAL for arg in args):
            raise UnsafeExpression(f'math.{function.__name__} of more than {MAX_FACTORIAL} '
                                   'is refused')
        return function(*args)
    bounded.__name__ = function.__name__
    return bounded


def safe_math() -> Dict[str, Any]:
    """Return math's public names, with the factorial family bounded."""
    names = {key: value for key, value in math.__dict__.items() if not key.startswith('_')}
    for name in ('factorial', 'comb', 'perm'):
        if name in names:
            names[name] = _bounded(names[name])
    return names


def safe_builtins() -> Dict[str, Any]:
    """Return the harmless builtins, with ``range`` bounded."""
    import builtins
    names = {name: getattr(builtins, name) for name in SAFE_BUILTIN_NAMES}
    names['range'] = guarded_range
    names.update({'True': True, 'False': False})  # xacro lists them; files write ${True}
    return names


def refused_builtins(error: Callable[[str], Exception]) -> Dict[str, Any]:
    """
    Return stand-ins for the builtins xacro has that are refused here, raising ``error``.

    ``python.type(x)`` said "name 'type' is not defined", which reads like a typo in the
    file, where xacro would run it.
    """
    class Refused:
        """Raises when called or turned into text: never a value of the description."""

        def __init__(self, name: str) -> None:
            self._why = (f'refused: python.{name}() is not available to expressions here (it '
                         'reaches the interpreter); compute the value another way')

        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            raise error(self._why)

        def __str__(self) -> str:
            raise error(self._why)

        __repr__ = __format__ = __str__  # type: ignore[assignment]

    return {name: Refused(name) for name in REFUSED_BUILTIN_NAMES}


@functools.lru_cache(maxsize=4)
def _helpers(max_length: int) -> Dict[str, Any]:
    """Return the helper function for each placeholder."""
    return {_POW: guarded_pow, _MUL: make_guarded_mul(max_length), _LSHIFT: guarded_lshift}


def _bind(code: types.CodeType, helpers: Mapping[str, Any]) -> types.CodeType:
    """Replace the placeholders among a code object's constants (and its lambdas')."""
    constants = tuple(
        helpers.get(value, value) if isinstance(value, str)
        else _bind(value, helpers) if isinstance(value, types.CodeType) else value
        for value in code.co_consts)
    return code.replace(co_consts=constants)


def compile_guarded(expression: str,
                    max_length: int = DESCRIPTION_MAX_BYTES) -> types.CodeType:
    """
    Parse, check and compile an expression with the size guards in place.

    :param expression: the text inside ``${...}``
    :param max_length: the longest text or list a ``*`` may make
    :return: a code object for ``eval``
    :raises UnsafeExpression: when the expression is refused
    :raises SyntaxError: when it is not Python
    """
    tree = ast.parse(expression.strip(), '<expression>', 'eval')
    check_expression(tree)
    tree = ast.fix_missing_locations(_Guard().visit(tree))
    with warnings.catch_warnings():
        # "'str' object is not callable": the placeholders, replaced below
        warnings.simplefilter('ignore', SyntaxWarning)
        code = compile(tree, '<expression>', 'eval')
    return _bind(code, _helpers(max_length))


def guarded_eval(expression: str, symbols: Mapping[str, Any],
                 local_symbols: Optional[Mapping[str, Any]] = None,
                 max_length: int = DESCRIPTION_MAX_BYTES) -> Any:
    """
    Evaluate an expression with no builtins but the symbols given.

    :param expression: the expression text
    :param symbols: the globals (xacro's symbol table); ``__builtins__`` is emptied in it
    :param local_symbols: optional locals mapping
    :param max_length: the longest text or list a ``*`` may make
    :return: the value
    :raises UnsafeExpression: when refused
    """
    code = compile_guarded(expression, max_length)
    symbols.update(__builtins__={})  # type: ignore[attr-defined]
    return eval(code, symbols, local_symbols)  # noqa: S307 (checked and guarded above)
