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
The source tracer of the xacro child: where each expanded element and YAML number came from.

It runs inside :mod:`urdf_link_tools.xacro.child` only. Its minidom builder stamps each
element with its file and line, its hooks make macro calls record their call chain and clones
keep their source, and YAML numbers remember their file and line (:class:`OriginStr`).
:func:`write` then pretty-prints the expansion (one element a line) and :func:`table` maps
each line to its source. The tracer is this tool's code, not the user's: a hook that fails
records the failure in :class:`Tracer` and lets xacro go on, so the expansion is still
checked (with the lines of the expansion) and the failure is reported as the tool's.
"""

from __future__ import annotations

import os
import re
import traceback
from typing import Any, Dict, List, Optional, Tuple
from xml.dom import expatbuilder, minidom
import xml.parsers.expat


#: a distribution's metadata folder: ``xacro-2.1.1.dist-info``, ``xacro-2.0.8-py3.12.egg-info``
_METADATA = re.compile(r'xacro-([0-9][^-]*?)(?:-py[0-9.]+)?\.(?:dist|egg)-info')


def xacro_version(xacro: Any) -> str:
    """
    Return the version of the xacro imported, as its installed metadata names it.

    The metadata folder beside the package names it (a pip or a ROS install alike):
    importing importlib.metadata to ask took a quarter of this child's start. Where that
    folder is not alone (or missing), importlib.metadata answers.
    """
    folder = os.path.dirname(os.path.dirname(os.path.abspath(xacro.__file__)))
    try:
        names = os.listdir(folder)
    except OSError:
        names = []
    found = {match.group(1) for match in map(_METADATA.fullmatch, names) if match}
    if len(found) == 1:
        return found.pop()
    import importlib.metadata
    return importlib.metadata.version('xacro')


#: The empty table: no line traced.
EMPTY: Dict[str, Any] = {'files': [], 'stacks': [], 'lines': []}


class OriginStr(str):
    """Text made from a YAML number, remembering the number's file and line."""

    origin: Tuple[str, int] = ('', 0)


def _with_origin(base: type) -> type:
    def to_text(self: Any) -> str:
        text = OriginStr(base.__repr__(self))
        text.origin = self.origin
        return text
    return type(f'Yaml{base.__name__.title()}', (base,), {'__str__': to_text})


YamlFloat = _with_origin(float)
YamlInt = _with_origin(int)


class Tracer:
    """The macro call chain and element being expanded, and the tracer's own first failure."""

    def __init__(self) -> None:
        self.stack: Tuple[Tuple[str, str, int], ...] = ()
        self.failure: Optional[Dict[str, str]] = None
        #: the element xacro is processing; when xacro raises, the innermost one (the hooks
        #: restore the outer element only when a call returns)
        self.here: Any = None
        #: each property's last <xacro:property> element, by name: a lazy property is
        #: evaluated where it is first used, and its errors are its definition's
        self.properties: Dict[str, Any] = {}

    def source(self) -> Optional[Tuple[str, int]]:
        """Return the file and line of the element xacro is processing, if known."""
        source = getattr(self.here, '_ult_src', None)
        return source if isinstance(source, tuple) and len(source) == 2 else None

    def failed(self, where: str, exc: BaseException) -> None:
        """Record a failure of the tracer (the first one; the expansion goes on untraced)."""
        if self.failure is None:
            self.failure = {
                'what': f'the xacro source tracer ({where})',
                'error': f'{type(exc).__name__}: {exc}'[:1000],
                'traceback': ''.join(traceback.format_exception(exc))[-4000:]}


class LineBuilder(expatbuilder.ExpatBuilderNS):
    """minidom builder that stamps each element with its file and line."""

    def __init__(self, filename: str, tracer: Tracer) -> None:
        super().__init__()
        self._filename = filename
        self._tracer = tracer

    def start_element_handler(self, name: str, attributes: Any) -> None:
        super().start_element_handler(name, attributes)
        node = self.curNode
        node._ult_src = (self._filename, self._parser.CurrentLineNumber)
        node._ult_stack = self._tracer.stack


def _track(xacro: Any, tracer: Tracer) -> None:
    """Make ``tracer.here`` follow the element xacro processes (and stay put when it raises)."""
    original_eval_all = xacro.eval_all

    def eval_all(node: Any, macros: Any, symbols: Any) -> Any:
        outer = tracer.here
        tracer.here = node
        result = original_eval_all(node, macros, symbols)
        tracer.here = outer  # not in a finally: a failure keeps the element it failed in
        return result

    xacro.eval_all = eval_all
    original_reqd_attrs = xacro.reqd_attrs

    def reqd_attrs(tag: Any, attributes: Any) -> Any:
        # Every xacro: tag (include, property, if, arg, insert_block) reads its attributes
        # first: the tag, not its parent, is then being processed.
        tracer.here = tag
        return original_reqd_attrs(tag, attributes)

    xacro.reqd_attrs = reqd_attrs
    original_grab_property = xacro.grab_property

    def grab_property(elt: Any, table: Any) -> Any:
        try:
            tracer.properties[elt.getAttribute('name')] = elt
        except Exception as exc:
            tracer.failed('recording a property', exc)
        return original_grab_property(elt, table)

    xacro.grab_property = grab_property
    original_resolve = xacro.Table._resolve_

    def resolve(table: Any, key: str) -> Any:
        defined = tracer.properties.get(key) if key in table.unevaluated else None
        if defined is None:
            return original_resolve(table, key)
        outer = tracer.here
        tracer.here = defined
        value = original_resolve(table, key)
        tracer.here = outer
        return value

    xacro.Table._resolve_ = resolve


def install(xacro: Any, tracer: Tracer) -> None:
    """Install hooks in xacro's macro calls and minidom's clones so elements keep sources."""
    _track(xacro, tracer)
    original_clone = minidom._clone_node

    def clone_node(node: Any, deep: bool, owner: Any) -> Any:
        clone = original_clone(node, deep, owner)
        try:
            source = getattr(node, '_ult_src', None)
            if source is not None:
                clone._ult_src = source
                # A macro body's nodes take the call chain being expanded; blocks and the
                # rest keep the chain they were written under.
                clone._ult_stack = tracer.stack if getattr(node, '_ult_template', False) \
                    else getattr(node, '_ult_stack', ())
        except Exception as exc:  # the tracer's bug: the clone is still xacro's
            tracer.failed('cloning an element', exc)
        return clone

    minidom._clone_node = clone_node
    original_grab = xacro.grab_macro

    def grab_macro(elt: Any, macros: Any) -> Any:
        try:
            pending = [elt]
            while pending:
                node = pending.pop()
                node._ult_template = True
                pending.extend(node.childNodes)
        except Exception as exc:
            tracer.failed('marking a macro body', exc)
        return original_grab(elt, macros)

    xacro.grab_macro = grab_macro
    original_call = xacro.handle_macro_call

    def handle_macro_call(node: Any, macros: Any, symbols: Any) -> Any:
        if not node.tagName.startswith('xacro:') or node.tagName == 'xacro:call':
            return original_call(node, macros, symbols)
        outer, outer_here = tracer.stack, tracer.here
        tracer.here = node
        try:
            file, line = getattr(node, '_ult_src', ('', 0))
            tracer.stack = ((node.tagName[6:], file, line),) + getattr(node, '_ult_stack', ())
        except Exception as exc:
            tracer.failed('entering a macro call', exc)
        try:
            called = original_call(node, macros, symbols)
        finally:
            tracer.stack = outer
        tracer.here = outer_here
        return called

    xacro.handle_macro_call = handle_macro_call


def _elements(document: Any) -> List[Any]:
    """Return the document's elements in document order (no recursion: depth is the input's)."""
    found = []
    pending = [document.documentElement]
    while pending:
        node = pending.pop()
        found.append(node)
        pending.extend(reversed([child for child in node.childNodes
                                 if child.nodeType == child.ELEMENT_NODE]))
    return found


def _tidy(elements: List[Any]) -> None:
    # Whitespace-only text is insignificant in URDF and would become blank lines; a newline
    # in an attribute value reads as a space to any XML parser, and keeps each start tag on
    # one line of the pretty-printed output, so that a line names one element.
    for element in elements:
        for child in list(element.childNodes):
            if child.nodeType == child.TEXT_NODE and not child.data.strip():
                element.removeChild(child)
        for name, value in list(element.attributes.items()):
            if '\n' in value or '\r' in value:
                element.setAttribute(name, value.replace('\r', ' ').replace('\n', ' '))


_XML_INVALID = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')


#: the same characters in the written (UTF-8) expansion
_XML_INVALID_BYTES = re.compile(rb'[\x00-\x08\x0b\x0c\x0e-\x1f]|\xef\xbf[\xbe\xbf]')


def invalid_text(elements: List[Any], text: bytes) -> Optional[Tuple[Any, str, str]]:
    r"""
    Return the first element holding a character XML cannot: (element, where, character).

    xacro writes what an expression gives as it is (``${'cam\x0c'}``): the expansion is
    then no XML, and its parse failed at a line of the expansion, not of the source. The
    written expansion (``text``, from :func:`write`) is searched first, in one pass: the
    elements are walked only when it holds such a character.
    """
    if not _XML_INVALID_BYTES.search(text):
        return None
    for element in elements:
        for name, value in element.attributes.items():
            found = _XML_INVALID.search(value)
            if found:
                return element, f'the attribute {name} of <{element.tagName}>', found.group(0)
        for child in element.childNodes:
            if child.nodeType in (child.TEXT_NODE, child.CDATA_SECTION_NODE):
                found = _XML_INVALID.search(child.data)
                if found:
                    return element, f'the text of <{element.tagName}>', found.group(0)
    return None


def _start_lines(text: bytes) -> List[int]:
    lines: List[int] = []
    parser = xml.parsers.expat.ParserCreate()
    parser.StartElementHandler = lambda name, attributes: lines.append(
        parser.CurrentLineNumber)
    parser.Parse(text, True)
    return lines


def write(document: Any) -> Tuple[List[Any], bytes]:
    """
    Pretty-print the expansion, one start tag a line.

    :param document: the expanded minidom document
    :return: (its elements in document order, URDF bytes)
    """
    elements = _elements(document)
    _tidy(elements)
    for node in document.childNodes:  # xacro's banner names the file, which may hold controls
        if node.nodeType == node.COMMENT_NODE:
            node.data = _XML_INVALID.sub('?', node.data)
    return elements, document.toprettyxml(indent='  ', encoding='utf-8')


def table(elements: List[Any], text: bytes) -> Dict[str, Any]:
    """
    Build the table from the lines of the written expansion to their sources.

    :param elements: from :func:`write`
    :param text: from :func:`write`
    :return: the JSON-ready table (files, macro call stacks, lines)
    """
    found: Dict[str, Any] = {'files': [], 'stacks': [], 'lines': []}
    files: Dict[str, int] = {}
    stacks: Dict[Tuple, int] = {}

    def file_index(name: str) -> int:
        if name not in files:
            files[name] = len(files)
            found['files'].append(name)
        return files[name]

    for element, line in zip(elements, _start_lines(text)):
        source = getattr(element, '_ult_src', None)
        if source is None:
            continue
        stack = getattr(element, '_ult_stack', ())
        if stack not in stacks:
            stacks[stack] = len(stacks)
            found['stacks'].append([[name, file_index(file), call_line]
                                    for name, file, call_line in stack])
        values = [[name, file_index(value.origin[0]), value.origin[1]]
                  for name, value in element.attributes.items()
                  if isinstance(value, OriginStr)]
        found['lines'].append([line, file_index(source[0]), source[1], stacks[stack], values])
    return found
