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
Property-based fuzzing of the trust boundary: the URDF parser, the xacro evaluator, the outputs.

hypothesis generates descriptions whose names, file names and values mix CI commands
(``::add-mask::``, ``##[error]``), terminal controls (ANSI/OSC, C1), bidi overrides and odd
numbers, then runs the real CLI (in this process; xacro in its real child process) in every
format and ``info``. Each example must end with a documented exit status, no traceback, within
a generous alarm (no hang), and no line of any stream may carry a command or a raw control.
The xacro evaluator gets random expressions built from the dangerous parts of Python.

Bounded for CI: a fixed number of examples (``URDF_LINK_TOOLS_FUZZ_EXAMPLES`` scales them for
a longer local run), ``deadline=None`` (a loaded machine is not a failure), derandomized so a
CI failure reproduces, and no example database written into the checkout.
"""

import contextlib
import io
import json
import os
import re
import signal
import tempfile
import types
from xml.sax.saxutils import quoteattr

import pytest
from urdf_link_tools.cli import main
from urdf_link_tools.reports import FORMATS
from urdf_link_tools.reports.sanitize import neutralise
from urdf_link_tools.xacro import evaluator

# A test dependency: without it this module is skipped, and `make test` fails the run
# (test/conftest.py); in a plain workspace `colcon test-result` lists the skip.
_hypothesis = pytest.importorskip('hypothesis')
given, HealthCheck, settings = _hypothesis.given, _hypothesis.HealthCheck, _hypothesis.settings
st = pytest.importorskip('hypothesis.strategies')

# Generated expressions like '1(1)' make Python's compiler warn; that is what they test.
pytestmark = pytest.mark.filterwarnings('ignore::SyntaxWarning')
SCALE = float(os.environ.get('URDF_LINK_TOOLS_FUZZ_EXAMPLES', '1'))
CONTROLS = re.compile('[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029'
                      '\u202a-\u202e\u2066-\u2069\ufeff]')
OWN_COMMAND = re.compile(r'::(error|warning|notice)( [^:]*)?::')
SPECIALS = ['::add-mask::', '::error title=x::', '::stop-commands::', '##[warning]', '##[',
            '\n', '\r', '\x1b[2J', '\x1b]8;;http://x\x07', '\x85', '\x9b', '\u202e', '\u2066',
            '\u2028', '\x00', '\x7f', '%0A', '&', '<', '"', "'", ':', ',', ' ', '\t', 'é']


def _examples(count: int):
    return settings(max_examples=max(1, int(count * SCALE)), deadline=None, derandomize=True,
                    database=None, suppress_health_check=[HealthCheck.too_slow,
                                                          HealthCheck.data_too_large])


@contextlib.contextmanager
def no_hang(seconds: int = 60):
    """Fail an example that runs longer than ``seconds`` (a hang, not a slow machine)."""
    def expired(signum, frame):
        raise AssertionError(f'no answer within {seconds} s: a hang')
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def assert_clean(text: str, commands_allowed: bool = False) -> None:
    for line in text.split('\n'):
        assert not CONTROLS.search(line), repr(line)
        assert '##[' not in line, repr(line)
        if line.lstrip().startswith('::'):
            assert commands_allowed and OWN_COMMAND.match(line), repr(line)


hostile = st.lists(st.one_of(st.sampled_from(SPECIALS), st.text(max_size=6)),
                   max_size=6).map(''.join)
#: XML 1.0 has no way to write these; most documents leave them out, to reach the checks.
XML_INVALID = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')
xml_text = hostile.map(lambda text: XML_INVALID.sub('?', text))
number = st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(repr),
                   st.integers(-10 ** 30, 10 ** 30).map(str), xml_text)


@st.composite
def urdf_documents(draw):
    names = draw(st.lists(xml_text, min_size=1, max_size=5))
    parts = [f'<robot name={quoteattr(draw(xml_text))}>']
    for name in names:
        parts.append(f'<link name={quoteattr(name)}>')
        if draw(st.booleans()):
            values = ' '.join(f'{key}={quoteattr(draw(number))}'
                              for key in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'))
            parts.append(f'<inertial><mass value={quoteattr(draw(number))}/>'
                         f'<inertia {values}/></inertial>')
        if draw(st.booleans()):
            shape = draw(st.sampled_from(['box size', 'sphere radius', 'cylinder radius']))
            parts.append(f'<collision><geometry><{shape}={quoteattr(draw(number))}/>'
                         '</geometry></collision>')
        comment = draw(xml_text).replace('-', '_')
        parts.append(f'<!-- urdf-link-tools: ignore {comment} --></link>')
    for index in range(draw(st.integers(0, len(names)))):
        kind = draw(st.sampled_from(['fixed', 'revolute', 'continuous', 'floating']))
        parts.append(f'<joint name={quoteattr(draw(xml_text))} type={quoteattr(kind)}>'
                     f'<parent link={quoteattr(draw(st.sampled_from(names)))}/>'
                     f'<child link={quoteattr(draw(st.sampled_from(names)))}/>'
                     f'<limit lower="0" upper={quoteattr(draw(number))} effort="1" '
                     'velocity="1"/></joint>')
    parts.append('</robot>')
    document = ''.join(parts)
    if draw(st.integers(0, 9)) == 0:  # sometimes cut short or spliced, or with a control
        cut = draw(st.integers(0, len(document)))
        document = document[:cut] + draw(hostile)
    return document


def _file_name(text: str) -> str:
    safe = text.replace('/', '_').replace('\x00', '_')[:60] or 'robot'
    return safe if not safe.startswith('-') else '_' + safe


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with no_hang():
        status = main(argv, out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def _check_every_output(path: str, statuses) -> None:
    for output in sorted(FORMATS):
        status, out, err = _run(['check', '--format', output, path])
        assert status in statuses, (status, err)
        assert 'Traceback' not in err
        assert_clean(out, commands_allowed=output == 'github')
        assert_clean(err)
        if output in ('json', 'sarif') and out:
            json.loads(out)
    status, out, err = _run(['info', path])
    assert status in (0, 3), (status, err)
    assert_clean(out)
    assert_clean(err)


def _check_document(document: str, name: str, suffix: str) -> None:
    with tempfile.TemporaryDirectory(prefix='ult_fuzz_') as folder:
        path = os.path.join(folder, _file_name(name) + suffix)
        with open(path, 'w', encoding='utf-8', errors='surrogatepass') as stream:
            stream.write(document)
        _check_every_output(path, (0, 1, 2, 3))


@_examples(150)
@given(document=urdf_documents(), name=hostile)
def test_fuzz_urdf_parser_and_every_output(document, name):
    _check_document(document, name, '.urdf')


# Expressions from the parts of Python an attacker reaches for, joined by operators.
ATOMS = ['1', '2', '10**6', "'ab'", "'{0}'", "'{0.__class__}'", '[1, 2]', '(1,)', 'True',
         'None', 'x', 'math.pi', 'pi', 'range(5)', 'len', 'str', 'abs', 'max', '1e308',
         "''.join", '__import__', 'type', 'getattr', 'vars', 'open', 'python', 'xacro',
         '(lambda: 1)', '[i for i in range(3)]', '(i for i in [1])']
TRAILERS = ['', '.__class__', '.__globals__', '.gi_frame', '.format(1)', '.real', '[0]',
            '(1)', '()', '.__mro__', '.f_back', '.upper()']
OPERATORS = [' + ', ' * ', ' ** ', ' << ', ' - ', ' / ', ' % ', ' and ', ' or ', ' if x else ',
             ', ', ' == ']


@st.composite
def expressions(draw):
    terms = draw(st.lists(st.tuples(st.sampled_from(ATOMS), st.sampled_from(TRAILERS)),
                          min_size=1, max_size=5))
    text = ''
    for index, (atom, trailer) in enumerate(terms):
        if index:
            text += draw(st.sampled_from(OPERATORS))
        text += atom + trailer
    return text


# What an escape reaches: classes, modules, code, frames, builtins it was not given. (A lambda
# the expression wrote is harmless: its dunder attributes are refused.)
UNSAFE_TYPES = (type, types.ModuleType, types.CodeType, types.FrameType)


@_examples(400)
@given(expression=expressions())
def test_fuzz_xacro_evaluator_gives_data_or_a_refusal(expression):
    symbols = dict(evaluator.safe_builtins())
    symbols.update(evaluator.safe_math())
    symbols['math'] = dict(evaluator.safe_math())
    symbols['x'] = 3
    allowed = {id(value) for value in symbols.values()}
    try:
        with no_hang(20):
            value = evaluator.guarded_eval(expression, symbols, max_length=1 << 20)
    except MemoryError:
        pytest.fail(f'{expression!r} ran out of memory: a size guard is missing')
    except Exception:
        return  # refused, or an ordinary error xacro reports as one line
    # A method of a value ('ab'.upper) is data's; a module-level builtin (open, getattr) is not.
    builtin = isinstance(value, types.BuiltinFunctionType) and \
        isinstance(getattr(value, '__self__', None), types.ModuleType)
    if (isinstance(value, UNSAFE_TYPES) or builtin) and id(value) not in allowed:
        pytest.fail(f'{expression!r} reached {value!r}')
    assert len(repr(value)) < 16 << 20


@st.composite
def xacro_documents(draw):
    name = draw(xml_text)
    said = draw(xml_text).replace('\\', '\\\\').replace("'", "\\'")
    return ('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
            f'<xacro:property name="n" value={quoteattr(name)}/>'
            '<xacro:macro name="m" params="suffix">'
            f'<link name="${{n}}_${{suffix}}"><inertial><mass value={quoteattr(draw(number))}/>'
            '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>'
            '</xacro:macro>'
            f'<xacro:m suffix={quoteattr(draw(xml_text))}/>'
            f'<link name="a${{xacro.message({quoteattr(said)[1:-1]!s}) or \'\'}}"/>'
            '</robot>').replace('xacro.message(', "xacro.message('", 1).replace(
                ') or', "') or", 1)


@_examples(8)
@given(document=xacro_documents(), name=hostile)
def test_fuzz_xacro_expansion_and_every_output(document, name):
    _check_document(document, name, '.urdf.xacro')


@_examples(500)
@given(text=hostile)
def test_fuzz_neutralise(text):
    shown = neutralise(text)
    assert_clean(shown)
    assert neutralise(shown) == shown
    encoded = json.dumps(text)
    assert json.loads(neutralise(encoded, 'json')) == text
    assert_clean(neutralise(encoded, 'json'))
