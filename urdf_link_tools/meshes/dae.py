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
COLLADA (DAE) specifics: the ``<unit>``, materials to drop, and the instancing budget.

Every scan here is linear in the file: ``bytes.find`` and bounded regular expressions on
short slices, never a pattern that can backtrack over the whole file.

What the byte scans see is decided by the parser first (:func:`screen`): a file declaring
a document type (``<!DOCTYPE``, where entities are declared) is refused in any encoding, and
one not in UTF-8 (UTF-16, say, where ``<!ENTITY`` is not those bytes) is re-encoded from its
parsed tree, so every scan and every later parser (pycollada's) reads UTF-8 without a DTD.

A COLLADA node may instance another node (``<instance_node url="#n"/>``); a chain of nodes
each instancing the previous one twice expands to 2^N copies of the geometry (3.5 KB of
XML reached 3.4 GB in trimesh's loader, which copies the vertices of every instance).
:func:`instancing_problem` counts what the scene expands to, from the XML alone, before
any loader runs.
"""

from __future__ import annotations

import math
import re
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from lxml import etree

from urdf_link_tools.meshes.files import amplified, count_below, instances_amplified


def parse_xml(data: bytes) -> Tuple[etree._Element, List[etree._Element]]:
    """
    Return the root element of a COLLADA file, and every element of it.

    The readers key elements by ``id()``; lxml makes a Python object for an element when it
    is reached and may free it (and reuse its id) once nothing holds it. The list holds
    them all, so while the caller keeps it, each element has one object and one id.

    libxml2 (lxml, already a dependency) parses a COLLADA file about five times faster than
    ElementTree. No entities, DTDs, network, comments or processing instructions (a file
    declaring a document type is refused by :func:`screen` before it reaches this parse).
    ``huge_tree`` lifts libxml2's 10 MB limit on one text node (Unitree's trunk.dae holds a
    28 MB array); the file's size is bounded by the caller (mesh_max_bytes) and libxml2 still
    stops at 2048 levels of nesting. A parser per call: an lxml parser must not be shared
    between threads.

    :raises etree.XMLSyntaxError: for a malformed file (or one over libxml2's limits)
    """
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             remove_comments=True, remove_pis=True, huge_tree=True)
    root = etree.fromstring(data, parser)
    return root, list(root.iter())


class Screened(NamedTuple):
    """A COLLADA file that may be read: its bytes in UTF-8, and its parsed elements."""

    data: bytes
    root: etree._Element
    elements: List[etree._Element]


class _Prolog(Exception):
    """Raised by :class:`_PrologTarget` to stop the parse at the DTD or the first element."""

    def __init__(self, doctype: bool) -> None:
        super().__init__()
        self.doctype = doctype


#: the prolog is fed to the parser this many bytes at a time: it stops at the first element,
#: seldom past the first chunk, instead of reading the whole file (0.1 ms a file, iCub's 56)
_PROLOG_CHUNK = 8192


def _parse_prolog(data: bytes) -> None:
    """
    Parse a file up to its DOCTYPE or first element (:class:`_Prolog`), or raise.

    Fed in chunks where the first one holds no NUL byte (UTF-8 and ASCII files: nearly
    all); a UTF-16 or UTF-32 file is parsed whole, as libxml2's push parser does not decode
    UTF-32 (the file was refused either way, with another reason).
    """
    parser = etree.XMLParser(target=_PrologTarget(), resolve_entities=False, no_network=True,
                             load_dtd=False, huge_tree=False)
    if b'\0' in data[:_PROLOG_CHUNK]:
        etree.fromstring(data, parser)
        return
    for start in range(0, len(data), _PROLOG_CHUNK):
        parser.feed(data[start:start + _PROLOG_CHUNK])
    parser.close()


class _PrologTarget:
    """A parser target that stops at whichever comes first: a DOCTYPE or an element."""

    def doctype(self, *args: object) -> None:  # noqa: D102 (lxml's target interface)
        raise _Prolog(True)

    def start(self, *args: object) -> None:  # noqa: D102
        raise _Prolog(False)

    def close(self) -> None:  # noqa: D102
        return None


_UTF8_NAMES = frozenset(('UTF-8', 'UTF8', 'US-ASCII', 'ASCII'))

#: the most XML elements a COLLADA file may hold (counted by their start tags before the
#: parse): the published robots' largest hold 9,000 (a whole power plant's); a tree costs
#: about 200 bytes an element in libxml2 and lxml, 2.3 GB for 30 MB of <a/> (tenth
#: red-team review)
DAE_MAX_ELEMENTS = 200_000


#: the encodings a declaration may name whose markup is not ASCII bytes
_UTF7 = re.compile(rb'^\s*<\?xml[^>]{0,200}?encoding\s*=\s*["\']\s*'
                   rb'(?:utf-?7|csunicode11utf7|unicode-1-1-utf-7)', re.IGNORECASE)


def _foreign_encoding(data: bytes) -> bool:
    """Return True for a file whose markup is not '<' bytes: UTF-7, EBCDIC and the like."""
    if data[:3] == b'\xef\xbb\xbf':
        data = data[3:]
    head = data[:4]
    if head[:2] in (b'\xfe\xff', b'\xff\xfe', b'\x00<', b'<\x00') or \
            head == b'\x00\x00\xfe\xff' or head[:3] == b'\x00\x00\x00':
        return False  # UTF-16 or UTF-32: '<' is one of its bytes
    if not data.lstrip(b' \t\r\n').startswith(b'<'):
        return True
    return _UTF7.match(data[:1024]) is not None


def screen(data: bytes) -> Union[Screened, str]:
    """
    Parse a COLLADA file as the safety of every later reader needs, or say why not.

    The decision is the parser's, not a byte search's (``<!ENTITY`` in UTF-16 is other
    bytes). The prolog is parsed first, with libxml2's limits on and no tree built, and the
    parse stops at the first element or at a document type declaration, which is refused
    before any of its declarations (entities, internal or external) is read. Only then is the
    whole file parsed, with ``huge_tree`` (which, in older libxml2, also lifts the bound on
    entity expansion in attribute values). Without a DTD no entity but the five predefined
    ones can be referenced, so no later parser (pycollada's default one, which expands
    entities and, with lxml 4, reads external ones) has any to expand. A file not in UTF-8 is
    re-encoded from its tree (without comments and processing instructions), so that the
    byte scans here (unit, instancing, materials) and pycollada read the text the parser read.

    Messages never quote the file: libxml2's messages name tags and entities.

    :param data: the file (within the size limit)
    :return: the screened file, or why it is refused (a phrase following the file's name)
    """
    # Blanks before the XML declaration (Doosan's H2017_2_2.dae): Assimp (RViz, Gazebo,
    # MoveIt) reads the file; libxml2 refuses a declaration that is not first.
    start = len(data) - len(data.lstrip(b' \t\r\n'))
    if start and data.startswith(b'<?xml', start):
        data = data[start:]
    # Start tags, and comments and the like (an upper bound; in UTF-16 too, as '<' is one
    # byte of its two): before any tree is built. Not counted in an encoding whose markup
    # is other bytes (UTF-7, EBCDIC: 2.7 million elements passed as none, review 11):
    # refused, no exporter writes them.
    if _foreign_encoding(data):
        return ('is not in an encoding COLLADA readers read (UTF-8, UTF-16, UTF-32 or one '
                'that writes ASCII as ASCII): write it in UTF-8')
    tags = data.count(b'<') - data.count(b'</')
    if tags > DAE_MAX_ELEMENTS:
        return (f'holds more XML elements than a mesh needs ({tags:,} start tags, more than '
                f'{DAE_MAX_ELEMENTS:,}): refused before it is parsed')
    try:
        _parse_prolog(data)
        return 'holds no XML element'  # not reached: libxml2 reports an empty document
    except _Prolog as stop:
        if stop.doctype:
            return ('declares a document type (<!DOCTYPE>, where XML entities are declared), '
                    'which is refused for safety')
    except etree.XMLSyntaxError as exc:
        return 'could not be loaded as DAE: it ' + syntax_problem(exc)
    try:
        root, elements = parse_xml(data)
    except etree.XMLSyntaxError as exc:
        repaired = _escaped_attribute_brackets(data) \
            if exc.code == etree.ErrorTypes.ERR_LT_IN_ATTRIBUTE else None
        parsed = _parsed(repaired) if repaired is not None else None
        if parsed is None:
            return 'could not be loaded as DAE: it ' + syntax_problem(exc)
        data, (root, elements) = repaired, parsed  # type: ignore[assignment]
    docinfo = root.getroottree().docinfo
    if docinfo.internalDTD is not None or docinfo.doctype or docinfo.system_url:
        # The prolog's parse refuses these first; what the whole parse saw is checked anyway.
        return 'declares a document type (<!DOCTYPE>), which is refused for safety'
    if (docinfo.encoding or '').upper() not in _UTF8_NAMES or b'\0' in data:
        # A UTF-16 or UTF-32 file (NUL bytes in its markup), or one declaring another
        # encoding: what the scans and pycollada read is the parsed text, in UTF-8.
        data = etree.tostring(root, encoding='UTF-8', xml_declaration=True)
        root, elements = parse_xml(data)
    return Screened(data, root, elements)


#: a start tag whose quoted attribute values may hold '<' and '>' (linear: every part of it
#: is matched one way only)
_START_TAG = re.compile(rb'<[A-Za-z_][\w:.-]*(?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|\'[^\']*\'))*'
                        rb'\s*/?>')
_QUOTED = re.compile(rb'"[^"]*"|\'[^\']*\'')


def _escaped_value(match: 're.Match[bytes]') -> bytes:
    return match.group(0).replace(b'<', b'&lt;').replace(b'>', b'&gt;')


def _escaped_attribute_brackets(data: bytes) -> Optional[bytes]:
    """
    Return the file with '<' and '>' in its attribute values escaped, None when none is.

    Assimp's COLLADA exporter names the node of a converted STL ``id="<STL_BINARY>"``
    (Velodyne's, Robotnik's sensor meshes); XML forbids a '<' there, and libxml2, pycollada
    and trimesh refuse the file, but Assimp (RViz, MoveIt, Gazebo) and tinyxml2 read it.
    Escaped, it means what those readers read. Only start tags are rewritten, and the
    result is screened like any file.
    """
    def tag(match: 're.Match[bytes]') -> bytes:
        text = match.group(0)
        return text[:1] + _QUOTED.sub(_escaped_value, text[1:])
    repaired = _START_TAG.sub(tag, data)
    return repaired if repaired != data else None


def _parsed(data: bytes) -> Optional[Tuple[etree._Element, List[etree._Element]]]:
    try:
        return parse_xml(data)
    except etree.XMLSyntaxError:
        return None


#: libxml2's error types (its own names, never the file's text) -> what they mean
_SYNTAX_KINDS = {
    'ERR_DOCUMENT_EMPTY': 'it is empty or not XML',
    'ERR_DOCUMENT_END': 'content after the end of its root element',
    'ERR_TAG_NAME_MISMATCH': 'an end tag that does not match its start tag',
    'ERR_TAG_NOT_FINISHED': 'an element not closed before the end of the file',
    'ERR_UNDECLARED_ENTITY': 'an entity reference that nothing declares',
    'ERR_INVALID_CHAR': 'a character XML does not allow',
    'ERR_INVALID_ENCODING': 'bytes that are not text in its encoding',
    'ERR_UNSUPPORTED_ENCODING': 'an encoding the parser does not support',
    'ERR_INTERNAL_ERROR': "more than the parser's limits (nesting depth, text size)",
    'ERR_RESOURCE_LIMIT': "more than the parser's limits (nesting depth, text size)",
}
_ERROR_NAMES = {value: name for name, value in vars(etree.ErrorTypes).items()
                if name.startswith('ERR_') and isinstance(value, int)}


def syntax_problem(exc: etree.XMLSyntaxError) -> str:
    """
    Say what libxml2 found wrong in our words: the kind of error and its line.

    libxml2's messages quote the file (``Opening and ending tag mismatch: root line 2 and
    wrong``); its error type (``ERR_TAG_NAME_MISMATCH``) is libxml2's own name.

    :param exc: the parser's error
    :return: a phrase following the file's name
    """
    name = _ERROR_NAMES.get(exc.code, '')
    kind = _SYNTAX_KINDS.get(name) or name[4:].replace('_', ' ').lower()
    line = exc.lineno if isinstance(exc.lineno, int) and exc.lineno > 0 else None
    where = f' at line {line}' if line else ''
    return f'is not well-formed XML{where}' + (f' ({kind})' if kind else '')


_METER_RE = re.compile(rb'\smeter\s*=\s*["\']([^"\'<>]{0,64})["\']')
_WORD = frozenset(b'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_')
#: the <unit> sits in <asset>, at the top of the file
_UNIT_WINDOW = 65536
_TAG_WINDOW = 1024


def dae_unit(data: bytes) -> float:
    """
    Return the metres per unit a COLLADA file declares in its ``<unit meter="..."/>``.

    :param data: the file
    :return: the factor, 1.0 when absent or not a positive finite number
    """
    start = _visible_tag(data, b'unit', _UNIT_WINDOW)
    if start < 0:
        return 1.0
    end = data.find(b'>', start, start + _TAG_WINDOW)
    tag = data[start + 5:end if end >= 0 else start + _TAG_WINDOW]
    match = _METER_RE.search(tag)
    if not match:
        return 1.0
    try:
        unit = float(match.group(1))
    except ValueError:
        return 1.0
    return unit if math.isfinite(unit) and unit > 0.0 else 1.0


def _visible_tag(data: bytes, name: bytes, limit: int) -> int:
    """
    Return the first ``<NAME`` before ``limit`` outside comments and CDATA sections, or -1.

    Segbot's wheel keeps an inch unit commented out above its metre one: read, the wheel was
    40 times too small (sweep V); '<![CDATA[ <!-- ]]>' must not hide the real one either
    (review 14). One pass: each hidden section is skipped once.
    """
    position = 0
    start = _tag_start(data, name, 0, limit)
    found = {b'<!--': -2, b'<![CDATA[': -2}  # the next of each after position, -1: none
    while start >= 0:
        for opener in found:
            if found[opener] == -2 or 0 <= found[opener] < position:
                found[opener] = data.find(opener, position, limit)
        openers = [(at, closer) for at, closer in ((found[b'<!--'], b'-->'),
                                                   (found[b'<![CDATA['], b']]>'))
                   if 0 <= at < start]
        if not openers:
            return start
        opener, closer = min(openers)
        end = data.find(closer, opener + 4)
        if end < 0:
            return -1
        position = end + len(closer)
        if position > start:
            start = _tag_start(data, name, position, limit)
    return -1


def strip_dae_materials(data: bytes) -> bytes:
    """
    Remove materials, effects and images, which measuring does not need.

    They would pull in image libraries, and a DAE material with a broken texture reference
    makes pycollada drop the geometry that uses it (RViz's assimp still draws it).
    """
    data = _remove_elements(data, (b'bind_material',))
    return _remove_elements(data, (b'library_effects', b'library_images', b'library_materials'))


def _remove_elements(data: bytes, names: Sequence[bytes]) -> bytes:
    r"""
    Cut every ``<NAME ...>...</NAME>`` span out of XML bytes, whatever it contains.

    The same as ``re.sub(rb'<(NAME|...)\b.*?</\1>', b'', data, flags=re.S)`` (leftmost
    start, nearest end tag, no overlap), with ``bytes.find`` instead of a character-by-
    character lazy match, which took seconds on large DAE files.
    """
    pieces = []
    copied = 0
    position = 0
    # Per name: the next candidate start at or after ``position`` (or -1).
    starts = {name: _tag_start(data, name, 0) for name in names}
    while True:
        live = [(start, name) for name, start in starts.items() if start >= 0]
        if not live:
            break
        start, name = min(live)
        end = data.find(b'</' + name + b'>', start + 1 + len(name))
        if end < 0:
            starts[name] = -1  # no end tag after it, so none after any later start either
            continue
        end += len(name) + 3
        pieces.append(data[copied:start])
        copied = position = end
        for other in names:
            if 0 <= starts[other] < position:
                starts[other] = _tag_start(data, other, position)
    if not pieces:
        return data
    pieces.append(data[copied:])
    return b''.join(pieces)


def _tag_start(data: bytes, name: bytes, position: int, limit: Optional[int] = None) -> int:
    """Return the next ``<NAME`` at or after ``position`` that is not a longer name."""
    opening = b'<' + name
    while True:
        start = data.find(opening, position, limit) if limit else data.find(opening, position)
        if start < 0:
            return -1
        after = start + len(opening)
        if after >= len(data) or data[after] not in _WORD:
            return start
        position = start + 1


def _local(tag: str) -> str:
    return tag.rsplit('}', 1)[-1]


def _triangles(geometry: etree._Element) -> int:
    """
    Return how many triangles a <geometry> holds (what trimesh makes of it), from its indices.

    Counted in the ``<p>`` lists, not taken from the ``count`` attributes: a file declaring
    ``count="1"`` over 4,000 triangles, placed 1,000 times, passed this budget and had
    pycollada build 4 million faces (8.8 s, 1.3 GB: eighth red-team review); and the count
    of strips and fans is of strips, not triangles.
    """
    total = 0
    for element in geometry.iter():
        name = _local(element.tag)
        if name not in ('triangles', 'polylist', 'polygons', 'trifans', 'tristrips'):
            continue
        offsets = [child.get('offset', '0') for child in element if _local(child.tag) == 'input']
        stride = max((int(value) for value in offsets if value.strip().isdigit()),
                     default=0) + 1
        corners = [len(child.text.split()) // stride if child.text else 0
                   for child in element if _local(child.tag) == 'p']
        if name == 'triangles':
            total += sum(corners) // 3
        elif name == 'polylist':
            vcount = next((child for child in element if _local(child.tag) == 'vcount'), None)
            listed = [int(v) for v in vcount.text.split() if v.isdigit()] \
                if vcount is not None and vcount.text else []
            # each polygon of v corners is v - 2 triangles, within the corners the list holds
            total += min(sum(max(v - 2, 0) for v in listed), sum(corners))
        else:  # each <p> one polygon, strip or fan: a triangle per corner past two
            total += sum(max(count - 2, 0) for count in corners)
    return total


def instancing_problem(data: bytes, max_instances: int, max_triangles: int,
                       elements: Optional[List[etree._Element]] = None) -> Optional[str]:
    """
    Say why a COLLADA scene expands beyond the budget, or None when it does not.

    A file without ``<instance_node>`` that instances each geometry at most once cannot
    expand (the file's size bounds it) and is not parsed here at all.

    :param data: the file, as :func:`screen` left it (no DTD, UTF-8)
    :param max_instances: most geometry instances the expanded scene may hold
    :param max_triangles: most triangles the expanded scene may hold
    :param elements: every element of the file when it was parsed already
        (:func:`parse_xml`): counted instead of searching the bytes (a visual mesh's 10 MB,
        twice)
    :return: the reason, or None
    """
    if elements is not None:
        names = [_local(element.tag) for element in elements]
        if 'instance_node' not in names and \
                names.count('instance_geometry') <= names.count('geometry'):
            return None
    else:
        instances = data.count(b'<instance_geometry')
        if b'<instance_node' not in data and instances <= data.count(b'<geometry'):
            return None
    if elements is None:
        _, elements = parse_xml(data)  # the list keeps ids unique while this runs
    triangles: Dict[str, int] = {}
    nodes: Dict[str, etree._Element] = {}
    scenes: List[etree._Element] = []
    for element in elements:
        name = _local(element.tag)
        if name == 'geometry' and element.get('id'):
            triangles[element.get('id', '')] = _triangles(element)
        elif name == 'node' and element.get('id'):
            nodes[element.get('id', '')] = element
        elif name == 'visual_scene':
            scenes.append(element)
    memo: Dict[int, Tuple[int, int]] = {}
    total_instances, total_triangles = 0, 0
    for scene in scenes:
        for node in scene:
            if _local(node.tag) == 'node':
                counted = _expand(node, nodes, triangles, memo)
                if counted is None:
                    return 'its nodes instance each other in a loop'
                total_instances += counted[0]
                total_triangles += counted[1]
    if total_instances > max_instances:
        return (f'its scene expands to more than {max_instances:,} geometry instances '
                '(nodes instancing nodes)')
    if total_triangles > max_triangles:
        return (f'its scene expands to more than {max_triangles:,} triangles '
                '(geometry instanced many times)')
    written = sum(1 for element in elements if _local(element.tag) == 'instance_geometry')
    return instances_amplified(written, total_instances) or \
        amplified(sum(triangles.values()), total_triangles)


def _expand(top: etree._Element, nodes: Dict[str, etree._Element],
            triangles: Dict[str, int], memo: Dict[int, Tuple[int, int]]) \
        -> Optional[Tuple[int, int]]:
    """Count the geometry instances and triangles below a node (:func:`.files.count_below`)."""
    def parts(node: etree._Element) -> Tuple[List[etree._Element], Tuple[int, int]]:
        children = []
        count, tris = 0, 0
        for child in node:
            name = _local(child.tag)
            if name == 'node':
                children.append(child)
            elif name == 'instance_node':
                target = nodes.get(child.get('url', '').lstrip('#'))
                if target is not None:
                    children.append(target)
            elif name == 'instance_geometry':
                count += 1
                tris += triangles.get(child.get('url', '').lstrip('#'), 0)
        return children, (count, tris)
    return count_below(top, parts, memo)  # type: ignore[arg-type]
