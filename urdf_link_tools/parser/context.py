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

from typing import Dict, List, Optional, Tuple

from lxml import etree

from urdf_link_tools.errors import UrdfStructureError
from urdf_link_tools.findings import Finding, Severity
from urdf_link_tools.model import IDENTITY, Material, Origin, ZERO3

QUOTE_LIMIT = 40


def quote(text: str) -> str:
    """Shorten a value for a message."""
    if len(text) > QUOTE_LIMIT:
        return text[:QUOTE_LIMIT] + '...'
    return text


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

    def where(self) -> str:
        return f" in link '{self.link}'" if self.link is not None else ''

    def error(self, element: etree._Element, attr: Optional[str], problem: str) -> \
            UrdfStructureError:
        tag = element.tag
        if attr is not None and element.get(attr) is not None:
            shown = f'<{tag} {attr}="{quote(element.get(attr))}">'
        else:
            shown = f'<{tag}>'
        return UrdfStructureError(
            f'{shown}{self.where()}: {problem}', line=element.sourceline, link=self.link)

    def note(self, rule: str, element: etree._Element, message: str, suggestion: str,
             severity: Severity = Severity.WARNING) -> None:
        self.notes.append(Finding(
            rule=rule, severity=severity, message=message, link=self.link,
            element=f'<{element.tag}>', line=element.sourceline, suggestion=suggestion))


def number(ctx: Context, element: etree._Element, attr: str, token: str) -> float:
    """Read one token of an attribute, or raise the error that names it."""
    # float() also takes '1_000' and surrounding blanks; URDF readers do not.
    try:
        if '_' in token:
            raise ValueError(token)
        return float(token)
    except ValueError:
        raise ctx.error(element, attr, f'{attr}: "{quote(token)}" is not a number') from None


def read_numbers(ctx: Context, text: str) -> Optional[Tuple[float, ...]]:
    """Return the numbers of an attribute's text, or None when one is not a number."""
    values = ctx.numbers.get(text)
    if values is None and '_' not in text:
        try:
            values = tuple(map(float, text.split()))
        except ValueError:
            return None
        ctx.numbers[text] = values
    return values


def vector(ctx: Context, element: etree._Element, attr: str, count: int,
           default: Optional[Tuple[float, ...]]) -> Tuple[float, ...]:
    """Read an attribute of ``count`` numbers; ``default`` when absent (None: required)."""
    text = element.get(attr)
    if text is None:
        if default is None:
            raise ctx.error(element, None, f'the {attr} attribute is required '
                            f'({count} number{"s" if count > 1 else ""})')
        return default
    values = read_numbers(ctx, text)
    if values is not None and len(values) == count:
        return values
    tokens = text.split()
    if len(tokens) != count:
        noun = 'number' if count == 1 else 'numbers'
        raise ctx.error(element, attr, f'{attr} needs {count} {noun}, got {len(tokens)}')
    if '_' not in text:
        try:
            return tuple(map(float, tokens))
        except ValueError:
            pass
    # Slow path only to name the offending token.
    return tuple(number(ctx, element, attr, token) for token in tokens)


def scalar(ctx: Context, element: etree._Element, attr: str,
           default: Optional[float] = None) -> float:
    """Read an attribute holding one number; ``default`` when absent (None: required)."""
    text = element.get(attr)
    if text is not None:
        values = read_numbers(ctx, text)
        if values is not None and len(values) == 1:
            return values[0]
    return vector(ctx, element, attr, 1, None if default is None else (default,))[0]


def pick(element: etree._Element, tags: Tuple[str, ...],
         ctx: Context) -> Dict[str, etree._Element]:
    """Return the first child of each wanted tag in one pass; note any repeated one."""
    found: Dict[str, etree._Element] = {}
    for child in element:
        tag = child.tag
        if tag in tags:
            if tag not in found:
                found[tag] = child
            else:
                ctx.note(f'parse-duplicate-{tag}', child,
                         f'<{element.tag}> has more than one <{tag}>; only the first '
                         f'(line {found[tag].sourceline}) is used by URDF readers',
                         f'remove or merge the extra <{tag}>')
    return found


def origin_of(ctx: Context, element: Optional[etree._Element]) -> Origin:
    """Read an ``<origin>`` (identity when the element is absent)."""
    if element is None:
        return IDENTITY
    xyz = vector(ctx, element, 'xyz', 3, ZERO3)
    rpy = vector(ctx, element, 'rpy', 3, ZERO3)
    return Origin(xyz=xyz, rpy=rpy, line=element.sourceline)  # type: ignore[arg-type]
