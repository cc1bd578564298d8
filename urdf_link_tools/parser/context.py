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
The per-parse state and the readers of numbers, vectors and poses that every element uses.

Numbers are read as urdfdom reads them where it matters to the user: a token with ``_``
(which Python's ``float`` takes) is not a number.
"""

from __future__ import annotations

from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple, TypeVar

from lxml import etree

from urdf_link_tools.errors import UrdfStructureError
from urdf_link_tools.findings import Finding, Severity
from urdf_link_tools.model import IDENTITY, Material, Origin, ZERO3

QUOTE_LIMIT = 40
#: how alike a tag must be to a URDF element's to be read as a slip of it (difflib's ratio)
NEAR_MISS = 0.8
T = TypeVar('T')


def quote(text: str) -> str:
    """Shorten a value for a message."""
    if len(text) > QUOTE_LIMIT:
        return text[:QUOTE_LIMIT] + '...'
    return text


#: What urdfdom's refusal means in practice, said once in every such finding. urdfdom up
#: to 5.x (ROS 2 Humble, Jazzy, Kilted) refuses; urdfdom 6 (Rolling, 2026) drops a bad
#: link child instead (see LINK_CHILD_IN_URDFDOM_6).
REFUSED = 'urdfdom refuses this robot (robot_state_publisher, RViz and MoveIt load nothing)'
LINK_CHILD_IN_URDFDOM_6 = 'urdfdom 6 (Rolling) drops the element and loads the rest'


class ElementError(UrdfStructureError):
    """
    An element urdfdom refuses to read.

    The parser records it as an ERROR finding (rule ``rule``) and goes on with a stated
    fallback, unless it is reading a custom element (then its reader catches it).
    """

    def __init__(self, message: str, line: Optional[int], link: Optional[str], rule: str,
                 tag: str) -> None:
        super().__init__(message, line=line, link=link)
        self.rule = rule
        self.tag = tag


class Context:
    """Per-parse state: collected notes and the link currently being read."""

    def __init__(self) -> None:
        self.notes: List[Finding] = []
        self.link: Optional[str] = None
        # Materials a name-only reference can resolve to: top-level ones first, then those
        # defined inline in a visual (urdfdom makes those global too).
        self.materials: Dict[str, Material] = {}
        self.unresolved = False
        # Attribute text -> its numbers: "0 0 0", "1" and the like recur all over a file.
        self.numbers: Dict[str, Tuple[float, ...]] = {}
        # True while reading a custom element: its errors are its reader's business.
        self.strict = False
        #: the names of the document's links, known before any is read
        self.link_names: FrozenSet[str] = frozenset()
        #: (engine, effect, severity without it) while reading what one engine refuses
        #: beyond what urdfdom does: a fixed joint's axis, a colour (see :meth:`refused`)
        self.engine_also: Optional[Tuple[str, str, Severity]] = None

    def where(self) -> str:
        return f" in link '{self.link}'" if self.link is not None else ''

    def error(self, element: etree._Element, attr: Optional[str], problem: str,
              rule: str = 'parse-missing-value') -> ElementError:
        tag = element.tag
        if attr is not None and element.get(attr) is not None:
            shown = f'<{tag} {attr}="{quote(element.get(attr))}">'
        else:
            shown = f'<{tag}>'
        return ElementError(f'{shown}{self.where()}: {problem}', element.sourceline,
                            self.link, rule, f'<{tag}>')

    def refused(self, exc: ElementError, fallback: str, refuses: bool = True) -> None:
        """
        Record an element urdfdom refuses (or ignores), and what this checker uses instead.

        :param exc: what is wrong, where
        :param fallback: how the robot is checked instead, e.g. 'with an identity origin'
        :param refuses: False where urdfdom only logs the problem and goes on without the
            value (a WARNING then)
        """
        values: Tuple[Tuple[str, str], ...] = ()
        if self.engine_also is not None:
            # The severity without the engine that refuses the robot; an error with it, as
            # the targets decide (analysis.analyze, by the 'refused_by' value).
            engine, effect, severity = self.engine_also
            values = (('refused_by', engine),)
        elif refuses:
            severity, effect = Severity.ERROR, REFUSED
            if exc.link is not None:
                effect = f'{REFUSED}; {LINK_CHILD_IN_URDFDOM_6}'
        else:
            severity, effect = Severity.WARNING, 'urdfdom logs an error and ignores it'
        message = exc.message
        if message.startswith(exc.tag):  # the element is said apart: '<material>: in link'
            message = message[len(exc.tag):].lstrip(' :')
        self.notes.append(Finding(
            rule=exc.rule, severity=severity,
            message=f'{message}; {effect}; checked here {fallback}', link=exc.link,
            element=exc.tag, line=exc.line,
            suggestion='fix this element: the other findings assume the fallback named here',
            values=values))

    def attempt(self, read: Callable[[], T], fallback: T, consequence: str,
                refuses: bool = True) -> T:
        """
        Return ``read()``, or record why urdfdom refuses the element and return ``fallback``.

        :param read: the reader of one element or attribute
        :param fallback: what the model holds instead
        :param consequence: how the robot is checked then, e.g. 'with an identity origin'
        :param refuses: see :meth:`refused`
        """
        if self.strict:
            return read()
        try:
            return read()
        except ElementError as exc:
            self.refused(exc, consequence, refuses)
            return fallback

    def note(self, rule: str, element: etree._Element, message: str, suggestion: str,
             severity: Severity = Severity.WARNING,
             values: Tuple[Tuple[str, str], ...] = ()) -> None:
        self.notes.append(Finding(
            rule=rule, severity=severity, message=message, link=self.link,
            element=f'<{element.tag}>', line=element.sourceline, suggestion=suggestion,
            values=values))


def _float(token: str) -> float:
    # float() also takes '1_000', white space around the number and non-ASCII digits;
    # urdfdom (std::istream in the C locale, to the end of the token) does not.
    if '_' in token or not token.isascii() or not token.isprintable():
        raise ValueError(token)
    return float(token)


def number(ctx: Context, element: etree._Element, attr: str, token: str) -> float:
    """Read one token of an attribute, or raise the error that names it."""
    try:
        return _float(token)
    except ValueError:
        raise ctx.error(element, attr, f'{attr}: "{quote(token)}" is not a number',
                        'parse-invalid-number') from None


def read_numbers(ctx: Context, text: str) -> Optional[Tuple[float, ...]]:
    """Return the numbers of an attribute's text, or None when one is not a number."""
    values = ctx.numbers.get(text)
    # Printable ASCII: blanks are the only separators (urdfdom splits on ' ' alone; a tab
    # written as &#9; is still a tab here, and Python's split() would take it as one).
    if values is None and '_' not in text and text.isascii() and text.isprintable():
        try:
            values = tuple(map(float, text.split()))
        except ValueError:
            return None
        ctx.numbers[text] = values
    return values


#: the rule of a value written as a child element instead of an attribute
CHILD_VALUE = 'parse-missing-value'


def vector(ctx: Context, element: etree._Element, attr: str, count: int,
           default: Optional[Tuple[float, ...]], refuses: bool = True) -> Tuple[float, ...]:
    """
    Read an attribute of ``count`` numbers; ``default`` when absent (None: required).

    Numbers separated by commas or by white space other than blanks are a finding (urdfdom
    refuses them, or with ``refuses`` False only logs them, as a colour's) and are read as
    the numbers they obviously are, so that the rest of the robot is checked with them.
    """
    text = element.get(attr)
    if text is None:
        if default is None:
            slips = [name for name in element.keys() if near_miss(name, (attr,))]
            child = element.find(attr)
            if child is not None and (child.text or '').strip():
                # Braccio's <box><size>0.073 0.276 0.072</size></box> (SDF's way)
                written = quote(child.text.strip())
                raise ctx.error(element, None, f'the {attr} attribute is required: it is '
                                f'written as a child element (<{attr}>{written}</{attr}>, '
                                "SDF's way), which URDF does not read",
                                rule=CHILD_VALUE)
            raise ctx.error(element, None, f'the {attr} attribute is required '
                            f'({count} number{"s" if count > 1 else ""})'
                            + (f' (it has {slips[0]}="{quote(element.get(slips[0]))}": did '
                               f'you mean {attr}?)' if slips else ''))
        return default
    values = read_numbers(ctx, text)
    if values is not None and len(values) == count:
        return values
    odd = _odd_blank(text)
    if ',' in text or odd:
        values = _meant(text, count)
        if values is not None:
            if not ctx.strict:
                ctx.refused(ctx.error(
                    element, attr, f'{attr} separates its numbers with commas, which urdfdom '
                    'does not read' if not odd else
                    f'{attr} holds {odd}, which urdfdom does not take for a blank (it '
                    'separates numbers at blanks only, and a number must end its text)',
                    'parse-invalid-number'),
                    f'with {attr}="{" ".join(format(v, "g") for v in values)}"', refuses)
                return values
    tokens = _tokens(text)
    if len(tokens) != count:
        noun = 'number' if count == 1 else 'numbers'
        raise ctx.error(element, attr, f'{attr} needs {count} {noun}, got {len(tokens)}',
                        'parse-invalid-number')
    # Names the offending token.
    return tuple(number(ctx, element, attr, token) for token in tokens)


def _tokens(text: str) -> List[str]:
    """
    Split numbers where urdfdom's split_string does: at blanks only.

    Python's split() also splits at other white space (a no-break space, a tab written as
    &#9;), where urdfdom reads one token and refuses it: such a token is reported.
    """
    return [token for token in text.split(' ') if token]


#: white space urdfdom does not take for a blank, as a finding names it
_SPACES = {'\t': 'a tab', '\n': 'a newline', '\r': 'a carriage return',
           '\xa0': 'a no-break space (U+00A0)'}


def _odd_blank(text: str) -> Optional[str]:
    """Name the first white space in ``text`` that is not a blank, if any."""
    if text.isprintable():  # printable ASCII, or beyond it without white space
        return None
    odd = next((char for char in text if char.isspace() and char != ' '), None)
    return None if odd is None else _SPACES.get(odd, f'the white space U+{ord(odd):04X}')


def _meant(text: str, count: int) -> Optional[Tuple[float, ...]]:
    """Return the numbers meant by text separated by commas or other white space, or None."""
    tokens = text.replace(',', ' ').split()
    if len(tokens) != count:
        return None
    try:
        return tuple(_float(token) for token in tokens)
    except ValueError:
        return None


def scalar(ctx: Context, element: etree._Element, attr: str,
           default: Optional[float] = None) -> float:
    """Read an attribute holding one number; ``default`` when absent (None: required)."""
    text = element.get(attr)
    if text is not None:
        values = read_numbers(ctx, text)
        if values is not None and len(values) == 1:
            if text[-1:].isspace() and not ctx.strict:
                _blank_after(ctx, element, attr, text)
            return values[0]
    return vector(ctx, element, attr, 1, None if default is None else (default,))[0]


def _blank_after(ctx: Context, element: etree._Element, attr: str, text: str) -> None:
    """
    Record a one-number attribute that ends with a blank (``value="1 "``).

    urdfdom reads these numbers with strToDouble, which fails unless the number reaches the
    end of the text: a blank before it is skipped, one after it refuses the robot ("mass [1 ]
    is not a float"; Pinocchio's urdfdom, tried). libxml2 has made a newline or a tab there a
    blank already. The number is read, as urdf_parser_py and MuJoCo read it.
    """
    ctx.refused(ctx.error(
        element, attr, f'{attr}="{quote(text)}" has a blank after its number, which urdfdom '
        'does not read (a number must end the text)', 'parse-invalid-number'),
        f'with {attr}="{quote(text.strip())}"')


def optional_scalar(ctx: Context, element: etree._Element, attr: str,
                    unreadable: List[str]) -> Optional[float]:
    """
    Read an optional one-number attribute: None when absent or unreadable.

    An unreadable one is recorded (urdfdom refuses it) and its name added to ``unreadable``.
    """
    if element.get(attr) is None:
        return None
    value = ctx.attempt(lambda: scalar(ctx, element, attr), None,
                        f'as if {attr} were absent')
    if value is None:
        unreadable.append(attr)
    return value


def pick(element: etree._Element, tags: Tuple[str, ...],
         ctx: Context) -> Dict[str, etree._Element]:
    """Return the first child of each wanted tag in one pass; note any repeated one."""
    found: Dict[str, etree._Element] = {}
    extra: Dict[str, List[etree._Element]] = {}
    for child in element:
        tag = child.tag
        if tag in tags:
            if tag not in found:
                found[tag] = child
            else:
                extra.setdefault(tag, []).append(child)
        elif isinstance(tag, str):
            misspelled(ctx, child, element, tags)
    for tag, children in extra.items():
        # One finding per element and tag, however many extras (CAD exporters write five
        # <material> in one <visual>). A second <material> changes nothing a user sees (the
        # first is used, a mesh file carries its own colours): info; a second <origin>,
        # <geometry>, <mass> or <inertia> may hide the value the author meant: warning.
        more = len(children)
        ctx.note(f'parse-duplicate-{tag}', children[0],
                 f'<{element.tag}> has {more + 1} <{tag}> elements; only the first '
                 f'(line {found[tag].sourceline}) is used by URDF readers',
                 f'remove or merge the extra <{tag}>',
                 Severity.INFO if tag == 'material' else Severity.WARNING,
                 (('parent', str(element.tag)),))
    return found


def near_miss(name: str, known: Sequence[str]) -> Optional[str]:
    """Return the known name that ``name`` is a slip of ('intertial': 'inertial'), or None."""
    lowered = name.lower()
    if lowered in known:
        return lowered
    for name_known in known:  # two letters swapped: 'xzy' for 'xyz' (too short for difflib)
        if len(name_known) == len(lowered) and any(
                lowered[:i] + lowered[i + 1] + lowered[i] + lowered[i + 2:] == name_known
                for i in range(len(lowered) - 1)):
            return name_known
    import difflib  # (only for a name that is not known: rare)
    close = difflib.get_close_matches(lowered, known, n=1, cutoff=NEAR_MISS)
    return close[0] if close else None


def misspelled(ctx: Context, child: etree._Element, parent: etree._Element,
               known: Sequence[str]) -> bool:
    """
    Note a child whose tag is a slip of one the parent may hold; return True if it is.

    URDF readers skip an element they do not know, so ``<intertial>`` leaves the link
    without an inertial and ``<colision>`` without collision geometry, and nothing said why
    (FLIR's Blackfly description, included by Dingo, Jackal and Husky). A namespaced tag or
    a name not close to any (``<collision_checking>``, ``<self_collision_checking>``) is
    a custom element, not a slip.
    """
    tag = child.tag
    if not isinstance(tag, str) or tag.startswith('{') or ':' in tag:
        return False
    guess = near_miss(tag, known)
    if guess is None:
        return False
    name = parent.get('name')
    where = (f" in link '{ctx.link}'" if parent.tag == 'link' else
             f' in <{parent.tag}>' + (f" '{quote(name)}'" if name else '')
             + ('' if parent.tag == 'joint' else ctx.where()))
    # An <origin> of zeros is what its absence means (Fairino's <origins xyz="0 0 0" rpy="0
    # 0 0">, sweep T): nothing is lost, an info
    idle = guess == 'origin' and not len(child) and all(
        key in ('xyz', 'rpy') and _zeros(value) for key, value in child.attrib.items())
    ctx.note('parse-misspelled-element', child,
             f'<{quote(tag)}>{where} is not a URDF element: URDF readers ignore it and what '
             f'it holds (did you mean <{guess}>?)'
             + ('; it holds the defaults, so nothing is lost here' if idle else ''),
             f'rename it <{guess}>' + (' (or remove it)' if idle else ''),
             Severity.INFO if idle else Severity.WARNING,
             values=(('element', tag), ('meant', guess)))
    return True


def _zeros(value: str) -> bool:
    """Return True for an attribute of three numbers that are all zero."""
    parts = value.split()
    try:
        return len(parts) == 3 and all(float(part) == 0.0 for part in parts)
    except ValueError:
        return False


def origin_of(ctx: Context, element: Optional[etree._Element]) -> Origin:
    """Read an ``<origin>`` (identity when the element is absent or unreadable)."""
    if element is None:
        return IDENTITY

    def read() -> Origin:
        xyz = vector(ctx, element, 'xyz', 3, ZERO3)
        rpy = vector(ctx, element, 'rpy', 3, ZERO3)
        return Origin(xyz=xyz, rpy=rpy, line=element.sourceline)  # type: ignore[arg-type]

    return ctx.attempt(read, Origin(line=element.sourceline), 'with an identity origin')
