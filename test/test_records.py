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
``@record`` behaves as ``@dataclass(frozen=True)``: the same class twice, compared.

records.py gives frozen data classes methods that are not compiled per class (import time,
issue 19); every behaviour the tool relies on is held here against the standard library's
own frozen data class, built from the same class body.
"""

import copy
import dataclasses
import math
import pickle
import subprocess
import sys
from typing import FrozenSet, List, Optional, Tuple

import pytest
from urdf_link_tools.records import record


def _body(name: str) -> type:
    """Return a fresh class body: fields of every kind the tool's data classes use."""

    class Body:
        """A class body."""

        name: str
        values: Tuple[Tuple[str, str], ...] = ()
        weight: float = 0.0
        note: Optional[str] = dataclasses.field(default=None, compare=False)
        hidden: str = dataclasses.field(default='h', repr=False)
        unhashed: int = dataclasses.field(default=0, hash=False)
        items: List[int] = dataclasses.field(default_factory=list, compare=False)
        derived: FrozenSet[str] = dataclasses.field(init=False, repr=False, compare=False)
        made: int = dataclasses.field(init=False, default=7)

        def __post_init__(self) -> None:
            object.__setattr__(self, 'derived', frozenset(self.name))

    Body.__name__ = Body.__qualname__ = name
    return Body


Stock = dataclasses.dataclass(frozen=True)(_body('Stock'))
Record = record(_body('Record'))
Plain = dataclasses.dataclass(frozen=True, eq=False)(_body('Plain'))
Same = record(eq=False)(_body('Same'))

EXAMPLES = [
    {'name': 'a'},
    {'name': 'a', 'values': (('k', 'v'),), 'weight': 1.5, 'note': 'n', 'hidden': 'x',
     'unhashed': 3, 'items': [1]},
    {'name': 'b', 'weight': math.nan},
    {'name': 'a', 'weight': -0.0},
    {'name': 'a', 'note': 'other', 'items': [2, 3]},
    {'name': 'a', 'unhashed': 9},
]


def _both(arguments):
    return Stock(**arguments), Record(**arguments)


@pytest.mark.parametrize('arguments', EXAMPLES)
def test_fields_init_and_post_init_are_the_dataclass_ones(arguments):
    stock, ours = _both(arguments)
    assert [f.name for f in dataclasses.fields(ours)] == \
        [f.name for f in dataclasses.fields(stock)]
    assert vars(ours) == vars(stock) or (math.isnan(arguments.get('weight', 0.0))
                                         and repr(vars(ours)) == repr(vars(stock)))
    assert ours.derived == frozenset(arguments['name']) and ours.made == 7
    assert dataclasses.is_dataclass(ours) and Record.__match_args__ == Stock.__match_args__


@pytest.mark.parametrize('arguments', EXAMPLES)
def test_repr_is_the_dataclass_one(arguments):
    stock, ours = _both(arguments)
    assert repr(ours) == repr(stock).replace('Stock(', 'Record(', 1)


def test_equality_and_hash_follow_the_compared_and_hashed_fields():
    pairs = [_both(arguments) for arguments in EXAMPLES]
    for stock_a, ours_a in pairs:
        for stock_b, ours_b in pairs:
            assert (ours_a == ours_b) == (stock_a == stock_b)
            assert (ours_a != ours_b) == (stock_a != stock_b)
        assert hash(ours_a) == hash(stock_a)  # the same tuple of the same fields
    nan = Record(name='n', weight=math.nan)
    assert nan == nan and nan == dataclasses.replace(nan)  # a tuple's identity shortcut
    assert Record(name='a') != Stock(name='a') and Record(name='a') != ('a',)


def test_eq_false_is_identity():
    for cls in (Plain, Same):
        one, two = cls(name='a'), cls(name='a')
        assert one == one and one != two and hash(one) == object.__hash__(one)
        assert {one, two} == {one, two} and len({one, two}) == 2


@pytest.mark.parametrize('cls', [Stock, Record])
def test_frozen(cls):
    value = cls(name='a')
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'name'"):
        value.name = 'b'
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
        value.x = 1
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'name'"):
        del value.name
    assert value.name == 'a'


def test_replace_asdict_pickle_and_copy():
    stock, ours = _both(EXAMPLES[1])
    changed = dataclasses.replace(ours, name='z')
    assert changed.name == 'z' and changed.weight == 1.5 and changed.derived == {'z'}
    with pytest.raises(ValueError):
        dataclasses.replace(ours, made=1)  # an init=False field, as dataclass refuses it
    assert dataclasses.asdict(ours) == dataclasses.asdict(stock)
    assert dataclasses.astuple(ours) == dataclasses.astuple(stock)
    for again in (pickle.loads(pickle.dumps(ours)), copy.copy(ours), copy.deepcopy(ours)):
        assert again == ours and vars(again) == vars(ours) and type(again) is Record


def test_a_subclass_may_set_its_own_attributes_but_not_the_fields():
    class Child(Record):
        pass

    child = Child(name='a')
    child.extra = 1  # as dataclass allows on a subclass that is not a data class itself
    assert child.extra == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        child.name = 'b'


def test_wrong_calls_fail_as_dataclass_init_does():
    for cls in (Stock, Record):
        with pytest.raises(TypeError):
            cls()
        with pytest.raises(TypeError):
            cls(name='a', made=1)
        with pytest.raises(TypeError):
            cls('a', (), 0.0, None, 'h', 0, [], 'extra')


def test_a_field_named_as_init_s_own_names_is_refused():
    for reserved in ('record_fields__', 'MISSING', 'default_x'):
        body = type('Bad', (), {'__annotations__': {reserved: int}})
        with pytest.raises(TypeError, match='reserve'):
            record(body)


def test_a_field_called_values_is_stored_and_not_the_dict():
    # Finding has a 'values' field: an __init__ that named the instance dict 'values'
    # stored the dict into itself (a JSON report then recursed without end).
    ours = Record(name='a', values=(('k', 'v'),))
    assert ours.values == (('k', 'v'),) and 'record_fields__' not in vars(ours)


def test_a_check_defines_its_data_classes_without_compiling_their_methods():
    # Every data class a check imports is a record: a dataclass(frozen=True) left among them
    # compiles six methods (about 1.3 ms here) in every urdf-link-tools process.
    script = (
        'import dataclasses, sys\n'
        'made = []\n'
        'original = dataclasses._process_class\n'
        'def counted(cls, *arguments):\n'
        '    made.append((cls.__module__ + "." + cls.__qualname__, arguments))\n'
        '    return original(cls, *arguments)\n'
        'dataclasses._process_class = counted\n'
        'import urdf_link_tools.cli, urdf_link_tools.analysis, urdf_link_tools.reports\n'
        'import urdf_link_tools.meshes.library, urdf_link_tools.collision.overlap\n'
        'for name, arguments in made:\n'
        '    init, repr_, eq, order, unsafe_hash, frozen = arguments[:6]\n'
        '    if name.startswith("urdf_link_tools.") and (repr_ or eq or frozen):\n'
        '        print(name)\n')
    compiled = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True,
                              check=True).stdout.split()
    # Two mutable ones (coal objects inside) stay standard data classes.
    assert sorted(compiled) == ['urdf_link_tools.collision.bodies.Body',
                                'urdf_link_tools.collision.matrix._Pair']
