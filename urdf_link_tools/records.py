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
Frozen data classes that cost one compiled function each to define, not six.

``@dataclass(frozen=True)`` compiles the source of six methods per class (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``): about 1.3 ms a
class here, 60 ms for the 45 classes a ``check`` imports, a tenth of a whole check of a
humanoid (issue 19). :func:`record` lets :func:`dataclasses.dataclass` collect the fields
(so ``fields``, ``replace``, ``asdict`` and ``is_dataclass`` work as on any data class) but
compile nothing, then gives the class the methods ``dataclass(frozen=True)`` would:

- ``__init__`` is compiled (it runs once per object: the parser makes many) and stores the
  fields into the instance ``__dict__`` directly, instead of one ``object.__setattr__`` call
  per field (a fifth of the parser's work on a large robot);
- ``__eq__``, ``__hash__``, ``__repr__``, ``__setattr__`` and ``__delattr__`` are closures over
  the field names, with the semantics of the generated ones: equality of the tuples of
  compared fields between objects of the same class (so a NaN field is equal to itself, as
  in a tuple), the hash of that tuple of hashed fields, ``Name(field=value, ...)`` with the
  fields shown by ``repr``, and ``FrozenInstanceError`` on assigning or deleting a field.

``test_records`` holds every behaviour against ``dataclass(frozen=True)`` itself.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, FrozenInstanceError, MISSING
from operator import attrgetter
import reprlib
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar, Union

T = TypeVar('T', bound=type)

#: the name ``__init__`` gives the instance ``__dict__`` (no field may take it)
_STORE = 'record_fields__'


def record(cls: Optional[T] = None, *, eq: bool = True) -> Union[T, Callable[[T], T]]:
    """
    Make a frozen data class: ``@record`` as ``@dataclass(frozen=True)``.

    :param eq: False as ``dataclass(frozen=True, eq=False)``: objects equal only to
        themselves, hashed by identity
    """
    def wrap(target: T) -> T:
        return _make(target, eq)

    return wrap if cls is None else wrap(cls)


def _make(cls: T, eq: bool) -> T:
    # No method asked for: dataclass compiles nothing, it only collects the fields.
    cls = dataclass(init=False, repr=False, eq=False)(cls)
    items = dataclasses.fields(cls)
    own = cls.__dict__
    if '__init__' not in own:
        cls.__init__ = _name(_init(cls, items), cls, '__init__')
    if '__repr__' not in own:
        cls.__repr__ = _name(_repr([f.name for f in items if f.repr]), cls, '__repr__')
    if eq:
        if '__hash__' in own and own['__hash__'] is not None:
            raise TypeError(f'Cannot overwrite attribute __hash__ in class {cls.__name__}')
        if '__eq__' not in own:
            cls.__eq__ = _name(_eq(_key([f.name for f in items if f.compare])), cls, '__eq__')
        hashed = _key([f.name for f in items if (f.compare if f.hash is None else f.hash)])
        cls.__hash__ = _name(_hash(hashed), cls, '__hash__')  # type: ignore[assignment]
    setter, deleter = _frozen(cls, frozenset(f.name for f in items))
    cls.__setattr__ = _name(setter, cls, '__setattr__')  # type: ignore[assignment]
    cls.__delattr__ = _name(deleter, cls, '__delattr__')  # type: ignore[assignment]
    return cls


def _name(function: Callable, cls: type, name: str) -> Callable:
    function.__name__ = name
    function.__qualname__ = f'{cls.__qualname__}.{name}'
    return function


def _init(cls: type, items: Sequence[dataclasses.Field]) -> Callable[..., None]:
    """Compile ``__init__``: dataclass's parameters and defaults, fields stored directly."""
    namespace: Dict[str, Any] = {'MISSING': MISSING}
    parameters: List[str] = []
    body = [f'    {_STORE} = self.__dict__']
    for item in items:
        name = item.name
        if name in (_STORE, 'self', 'MISSING') or name.startswith(('default_', 'factory_')):
            raise TypeError(f'{cls.__name__}.{name}: a field name records reserve')
        if item.default_factory is not MISSING:
            namespace[f'factory_{name}'] = item.default_factory
        if getattr(item, 'kw_only', False) is True:
            raise TypeError(f'{cls.__name__}.{name}: keyword-only fields are not supported')
        if not item.init:
            # As dataclass: a factory's value is stored, a plain default stays the class's.
            if item.default_factory is not MISSING:
                body.append(f'    {_STORE}[{name!r}] = factory_{name}()')
            continue
        if item.default is not MISSING:
            namespace[f'default_{name}'] = item.default
            parameters.append(f'{name}=default_{name}')
        elif item.default_factory is not MISSING:
            parameters.append(f'{name}=MISSING')
            body.append(f'    if {name} is MISSING:\n        {name} = factory_{name}()')
        elif any('=' in parameter for parameter in parameters):
            raise TypeError(f'non-default argument {name!r} follows default argument')
        else:
            parameters.append(name)
        body.append(f'    {_STORE}[{name!r}] = {name}')
    if hasattr(cls, '__post_init__'):
        body.append('    self.__post_init__()')
    exec(f'def __init__(self, {", ".join(parameters)}):\n' + '\n'.join(body), namespace)
    return namespace['__init__']


def _key(names: Sequence[str]) -> Callable[[Any], Tuple[Any, ...]]:
    """Return a function giving an object's fields as a tuple (one field: a 1-tuple)."""
    if not names:
        return lambda _: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda value: (one(value),)
    return attrgetter(*names)


def _eq(key: Callable[[Any], Tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented
    return __eq__


def _hash(key: Callable[[Any], Tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))
    return __hash__


def _repr(names: Sequence[str]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ', '.join(f'{name}={getattr(self, name)!r}' for name in names)
        return f'{self.__class__.__qualname__}({shown})'
    return __repr__


def _frozen(cls: type, names: frozenset) -> Tuple[Callable[..., None], Callable[..., None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f'cannot assign to field {name!r}')
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f'cannot delete field {name!r}')
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__
