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
Load XML text safely: the only place the package hands bytes to libxml2.

The XML parser is configured so that a robot description cannot reach outside the
document: no external entities or DTDs are loaded, no network access is allowed, entity
references are never expanded, and a document that declares entities is refused outright
(a robot description has no use for them; xacro output never contains them). libxml2's
own limits (nesting depth 256, text nodes up to 10 MB) stay on because ``huge_tree`` is off.
"""

from __future__ import annotations

import re
from typing import List, Optional, Tuple, Union

from lxml import etree

from urdf_link_tools.errors import UrdfStructureError, UrdfSyntaxError
from urdf_link_tools.findings import Finding, Severity
from urdf_link_tools.parser.context import quote as _quote


def _entity_error() -> UrdfSyntaxError:
    return UrdfSyntaxError(
        'the document declares XML entities (<!ENTITY ...>), which are refused for safety: '
        'expand them (e.g. with xacro) before passing the description', line=1)


class _DenyResolver(etree.Resolver):
    """Refuse every external resource libxml2 might ask for (DTDs, entities, XIncludes)."""

    def resolve(self, system_url, public_id, context):  # noqa: D102
        raise UrdfSyntaxError(
            f'the document refers to an external resource ({_quote(str(system_url))}), '
            'which is refused for safety')


def _make_parser(encoding: Optional[str] = None, recover: bool = False) -> etree.XMLParser:
    # A new parser per call: lxml parsers must not be shared between threads.
    # Do not pass collect_ids=False: with lxml 6 it makes libxml2 load the external DTD
    # subset (a file read that test_parser_safety catches with a FIFO).
    # remove_blank_text drops the whitespace between elements, which nothing reads (the
    # model is built from elements and attributes): parsing and walking get cheaper.
    parser = etree.XMLParser(
        encoding=encoding, resolve_entities=False, no_network=True, load_dtd=False,
        dtd_validation=False, huge_tree=False, remove_comments=True, remove_pis=True,
        remove_blank_text=True, recover=recover)
    parser.resolvers.add(_DenyResolver())
    return parser


def _only_undeclared_prefixes(log: etree._ListErrorLog) -> bool:
    """Return True when every error libxml2 logged is a namespace prefix nobody declared."""
    errors = [entry for entry in log if entry.level >= etree.ErrorLevels.ERROR]
    return bool(errors) and all(
        entry.type == etree.ErrorTypes.NS_ERR_UNDEFINED_NAMESPACE for entry in errors)


def _prefix_notes(root: etree._Element) -> List[Finding]:
    """One warning per undeclared prefix, at the start tag of its first use."""
    notes: List[Finding] = []
    seen = set()
    for element in root.iter():
        tag = element.tag
        if not isinstance(tag, str):
            continue
        # Without a declaration libxml2 keeps 'prefix:name' as the plain name.
        used = [(name, f'the attribute {name} of <{tag}>') for name in element.attrib
                if ':' in name and not name.startswith('{')]
        if ':' in tag and not tag.startswith('{'):
            used.insert(0, (tag, f'<{tag}>'))
        for name, what in used:
            prefix = name.split(':', 1)[0]
            if prefix in seen:
                continue
            seen.add(prefix)
            notes.append(Finding(
                rule='parse-undeclared-prefix', severity=Severity.WARNING,
                message=f"{what} uses the namespace prefix '{prefix}', which no "
                        f'xmlns:{prefix} declares: urdfdom (robot_state_publisher, RViz), '
                        'MuJoCo and Pinocchio read the robot, and so does this checker, but '
                        'namespace-aware readers refuse it: joint_state_publisher and xacro '
                        '(xml.dom.minidom: "unbound prefix"), urdf_parser_py, xmllint',
                element=f'<{tag}>', line=element.sourceline,
                suggestion=f'declare the prefix on <robot>, e.g. xmlns:{prefix}="http://..." '
                           '(any URI), or remove what uses it'))
    return notes


def parse_xml(data: Union[str, bytes]) -> etree._Element:
    """
    Parse XML text safely and return its root element.

    :param data: the document; ``str`` input may carry any encoding declaration
    :return: the root element
    :raises UrdfSyntaxError: when the text is empty, not well-formed, or declares entities
    """
    return load_xml(data)[0]


def load_xml(data: Union[str, bytes]) -> Tuple[etree._Element, List[Finding]]:
    """
    Parse XML text safely; return its root element and notes about what was tolerated.

    A namespace prefix used without its ``xmlns:`` declaration (as in some published
    descriptions, ``drake:acceleration="..."``) is tolerated, as urdfdom (TinyXML2, which
    does no namespace processing) tolerates it: the document is read again in libxml2's
    recover mode, with every other option unchanged, only when that was its only error.

    :param data: the document; ``str`` input may carry any encoding declaration
    :return: the root element and the notes (one per undeclared prefix)
    :raises UrdfSyntaxError: when the text is empty, not well-formed, or declares entities
    """
    encoding = None
    if isinstance(data, str):
        raw = data.encode('utf-8')
        encoding = 'utf-8'
    else:
        raw = data
    if not raw.strip():
        raise UrdfSyntaxError(
            'the robot description is empty: expected a <robot> XML document')
    if raw.startswith(_APPLE_DOUBLE):
        # TienKung's __MACOSX/.../._humanoid.urdf (sweep L): "Document is empty; is the file
        # complete?" said nothing of what the file is.
        raise UrdfSyntaxError(
            'this is an AppleDouble file (the macOS metadata a zip archive keeps as ._NAME, '
            'often under __MACOSX/), not a URDF: delete it, or leave it out of the files '
            'checked', line=1)
    doctype = raw.find(b'<!DOCTYPE')
    if doctype >= 0 and raw.find(b'<!ENTITY', doctype) >= 0:
        # Checked before parsing so that an entity bomb costs nothing and the user gets
        # the real reason rather than libxml2's amplification error.
        raise _entity_error()
    notes: List[Finding] = []
    raw = _without_trailing_nul(raw, notes)
    _refuse_long_attributes(raw)
    strict = _make_parser(encoding)
    try:
        root = etree.fromstring(raw, strict)
    except etree.XMLSyntaxError as exc:
        root = _without_declaration(raw, encoding, notes)
        if root is None and exc.code == etree.ErrorTypes.ERR_HYPHEN_IN_COMMENT:
            root = _without_double_hyphens(raw, encoding, notes)
        if root is not None:
            return _checked(_plain_robot(_start_lines(root, raw), notes)), notes
        # The parser's own log: the exception's also holds earlier parses' errors.
        if _only_undeclared_prefixes(strict.error_log):
            # libxml2 went on after these (they are namespace errors, not well-formedness
            # errors), so the log is complete: nothing else is wrong with the document.
            parser = _make_parser(encoding, recover=True)
            root = etree.fromstring(raw, parser)
            if root is None or not _only_undeclared_prefixes(parser.error_log):
                root = None
            else:
                notes = _prefix_notes(root)
        if root is None:
            raise _syntax_error(exc, strict.error_log) from None
    if root is None:
        raise UrdfSyntaxError('the robot description has no root element')
    return _checked(_plain_robot(_start_lines(root, raw), notes)), notes


#: what the parser reads as a node, in the order of the text: a comment, a CDATA section, a
#: processing instruction, a declaration, or an element's start tag (its name, then the rest
#: of the tag up to the first '>')
_NODE = re.compile(rb'<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<![A-Za-z][^>]*>'
                   rb'|<([A-Za-z_][\w.:-]*)([^>]*)', re.S)
#: a start tag that goes on past the end of its line (most documents have none)
_SPREAD_TAG = re.compile(rb'<[A-Za-z_][^<>\n]*\n')


def _start_lines(root: etree._Element, raw: bytes) -> etree._Element:
    """
    Give each element the line where its start tag begins; return the root.

    libxml2 numbers it by the line where the tag ends: an exporter's ``<inertia`` with one
    attribute per line (SolidWorks' URDF exporter: most vendor files) was reported at its
    ``izz`` line, and a link at its last attribute's, so an editor or a SARIF annotation
    landed on the wrong line. Only a document with such a tag is scanned (a tenth of the
    time of its parse otherwise, on every description the node receives): its start tags
    are found in the text, in document order (what is not markup holds no '<'), and those
    spread over lines are given their first line; where the tags do not match the parsed
    elements one for one (a document read in recover mode, another encoding), the parser's
    numbers stay.
    """
    if _SPREAD_TAG.search(raw) is None:
        return root
    elements = list(root.iter(etree.Element))
    tags = [match for match in _NODE.finditer(raw) if match.group(1) is not None]
    if len(tags) != len(elements):
        return root
    changes = []
    line, position = 1, 0
    for element, match in zip(elements, tags):
        if b'\n' not in match.group(2):
            continue  # on one line: where libxml2 numbers it
        offset = match.start()
        line += raw.count(b'\n', position, offset)
        position = offset
        local = match.group(1).rsplit(b':', 1)[-1].decode('utf-8', 'replace')
        # (a tag of an undeclared prefix, read in recover mode, keeps it: 'drake:x')
        if element.tag.rsplit('}', 1)[-1].rsplit(':', 1)[-1] != local or \
                element.sourceline is None or line > element.sourceline:
            return root
        changes.append((element, line))
    for element, line in changes:
        element.sourceline = line
    return root


def _checked(root: etree._Element) -> etree._Element:
    """Refuse a document with entities or an external DTD (after parsing); return its root."""
    docinfo = root.getroottree().docinfo
    dtd = docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise _entity_error()
    if docinfo.system_url:
        raise UrdfSyntaxError(
            'the document references an external DTD, which is refused for safety: '
            'remove the <!DOCTYPE ... SYSTEM ...> line', line=1)
    return root


#: the first bytes of an AppleDouble file (macOS resource fork metadata)
_APPLE_DOUBLE = b'\x00\x05\x16\x07'
#: bytes a name or file name attribute may have (a path's PATH_MAX)
ATTRIBUTE_MAX_BYTES = 4096
#: the attributes reports quote whole: names and file names (and the links they name)
_QUOTED = frozenset((b'name', b'filename', b'link', b'link1', b'link2', b'joint'))
#: (an attribute's name follows a blank: tried only there, at the start of a run of name
#: characters, the search is linear; from every position, a 40 KB comment of one word
#: took 13 s and a 900 KB number hours: red-team review 7)
_LONG_ATTRIBUTE = re.compile(rb'(?<=[ \t\r\n])([\w:.-]+)[ \t\r\n]*=[ \t\r\n]*'
                             rb'(?:"[^"<]{%d}|\'[^\'<]{%d})'
                             % (ATTRIBUTE_MAX_BYTES + 1, ATTRIBUTE_MAX_BYTES + 1))


def _refuse_long_attributes(raw: bytes) -> None:
    """
    Refuse a document with a name or file name past :data:`ATTRIBUTE_MAX_BYTES`, before parsing.

    A 534-byte xacro named three links by 2 MB strings, which every report then quoted (54 MB
    of JSON, 67 MB of HTML; red-team review 4). No robot's name or path is that long. About
    1.4 ms a megabyte of text, found without the parse.
    """
    found = next((match for match in _LONG_ATTRIBUTE.finditer(raw)
                  if match.group(1).split(b':')[-1] in _QUOTED), None)
    if found is None:
        return  # (a long number list is shortened where a message quotes it)
    start = found.end() - ATTRIBUTE_MAX_BYTES - 1
    end = raw.find(raw[start - 1:start], start)
    length = (end if end >= 0 else len(raw)) - start
    raise UrdfStructureError(
        f'the {_quote(found.group(1).decode("utf-8", "replace"))}="..." attribute holds '
        f'{length:,} bytes, more than the {ATTRIBUTE_MAX_BYTES:,} a name or file name may '
        'have here: a generated or hostile description, not checked',
        line=raw.count(b'\n', 0, found.start()) + 1)


#: an XML declaration after blanks, or of a version XML 1.0 parsers refuse (pybullet's and
#: Genesis's plane.urdf: version="0.0"); TinyXML2 (urdfdom, Bullet) reads both
_DECLARATION = re.compile(rb'\A(\xef\xbb\xbf)?(\s*)(<\?xml\b[^>]*?\?>)')
_VERSION = re.compile(rb'\bversion\s*=\s*["\']([^"\']*)["\']')
_ENCODING = re.compile(rb'\bencoding\s*=\s*["\']([^"\']*)["\']')


def _without_declaration(raw: bytes, encoding: Optional[str],
                         notes: List[Finding]) -> Optional[etree._Element]:
    """
    Read a document whose only fault is its XML declaration, as urdfdom does; else None.

    The declaration is blanked in place (every line keeps its number) when it follows
    blanks or names a version other than 1.x, and only when it names no encoding other
    than UTF-8 (which the document is then read as). A note says who refuses it.
    """
    match = _DECLARATION.match(raw)
    if match is None:
        return None
    declaration = match.group(3)
    version = _VERSION.search(declaration)
    named = _ENCODING.search(declaration)
    late = bool(match.group(2))
    odd = version is not None and not version.group(1).startswith(b'1.')
    # no version at all (ros2/urdf's test file: verison="1.0"): TinyXML2 reads it too
    missing = version is None
    if not (late or odd or missing) or (named is not None and named.group(1).lower() not in (
            b'utf-8', b'utf8', b'us-ascii', b'ascii')):
        return None
    blank = bytes(byte if byte in b'\r\n' else 0x20 for byte in declaration)
    try:
        root = etree.fromstring(raw[:match.start(3)] + blank + raw[match.end(3):],
                                _make_parser(encoding))
    except etree.XMLSyntaxError:
        return None
    if root is None:
        return None
    named_version = version.group(1).decode('ascii', 'replace') if version else ''
    what = (f'names version "{_quote(named_version)}"' if odd
            else 'names no version (a misspelled attribute?)' if missing
            else 'does not start the file (blanks or lines come before it)')
    notes.append(Finding(
        rule='parse-xml-declaration', severity=Severity.WARNING,
        message=f'the XML declaration {what}: urdfdom (robot_state_publisher, RViz), Bullet '
                'and MuJoCo read the robot, and so does this checker, but '
                + ('libxml2 refuses it: urdf_parser_py, xmllint' if odd and not late else
                   'XML 1.0 readers refuse it: xacro (xml.dom.minidom), urdf_parser_py, '
                   'xmllint'),
        element='<?xml?>', line=raw.count(b'\n', 0, match.start(3)) + 1,
        suggestion='write <?xml version="1.0"?> as the very first bytes of the file, or '
                   'remove the declaration'))
    return root


def comments_without_double_hyphens(raw: bytes) -> Tuple[bytes, Optional[int]]:
    """
    Return the document with no '--' in its comments, and the line of the first changed.

    XML forbids '--' in a comment; TinyXML2 (urdfdom, srdfdom, MuJoCo) ends a comment at
    the first '-->' and reads the rest (Kawasaki's duaro SRDF closes one with '--!>': the
    comment runs on to the next '-->'). Each comment, so delimited, loses its double
    hyphens in the copy; every line keeps its number. (The document, None) when none had.
    """
    parts: List[bytes] = []
    first: Optional[int] = None
    done = 0
    start = raw.find(b'<!--')
    while start >= 0:
        end = raw.find(b'-->', start + 4)
        if end < 0:
            break
        body = raw[start + 4:end]
        fixed = body.replace(b'--', b'-~')
        if fixed.endswith(b'-'):
            fixed = fixed[:-1] + b'~'  # '--->' closes it in TinyXML2; XML wants no '-' there
        if fixed != body:
            parts += [raw[done:start + 4], fixed]
            done = end
            if first is None:
                first = raw.count(b'\n', 0, start) + 1
        start = raw.find(b'<!--', end + 3)
    return (b''.join(parts) + raw[done:], first) if first is not None else (raw, None)


def _without_double_hyphens(raw: bytes, encoding: Optional[str],
                            notes: List[Finding]) -> Optional[etree._Element]:
    """Read a document whose comments hold '--', as urdfdom does, with a note; else None."""
    fixed, first = comments_without_double_hyphens(raw)
    if first is None:
        return None
    try:
        root = etree.fromstring(fixed, _make_parser(encoding))
    except etree.XMLSyntaxError:
        return None
    if root is None:
        return None
    notes.append(Finding(
        rule='parse-comment-double-hyphen', severity=Severity.WARNING,
        message="a comment holds '--', which XML forbids: urdfdom (robot_state_publisher, "
                'RViz), MoveIt (srdfdom) and MuJoCo read the file (a comment ends at the '
                "first '-->'), and so does this checker, but XML readers refuse it: xacro "
                '(xml.dom.minidom), urdf_parser_py, xmllint',
        element='<!-- -->', line=first,
        suggestion="remove the '--' from the comment (write '-' or '=='), or end it with "
                   "'-->' where '--!>' or '--->' ends it"))
    return root


def _without_trailing_nul(raw: bytes, notes: List[Finding]) -> bytes:
    """
    Return a document without the NUL bytes that end it after its root element, said in a note.

    pybullet's humanoid.urdf ends with a NUL after ``</robot>``: a C string stops there, so
    urdfdom (TinyXML2), Bullet and MuJoCo read the robot; libxml2 2.14 calls the NUL extra
    content (2.9, Humble's, reads it), xml.dom.minidom (xacro) refuses it. Only NUL bytes
    (and blanks) may follow the last ``>``; anything else is left to the parser.
    """
    end = raw.find(b'\0')
    if end <= 0 or raw[end:].strip(b'\0 \t\r\n') or not raw[:end].rstrip().endswith(b'>'):
        return raw  # no NUL, or other bytes among them (UTF-16 text, a corrupt file)
    count = raw.count(b'\0', end)
    notes.append(Finding(
        rule='parse-trailing-nul', severity=Severity.WARNING,
        message=(f'{count} NUL bytes follow' if count != 1 else 'a NUL byte follows')
        + ' the root element: urdfdom (robot_state_publisher, RViz), Bullet and MuJoCo stop '
          'reading there and read the robot, and so does this checker, but XML readers '
          'refuse the file: xacro (xml.dom.minidom), and urdf_parser_py and xmllint with a '
          'recent libxml2 (2.14; 2.9 reads it)',
        element='</robot>', line=raw.count(b'\n', 0, end) + 1,
        suggestion='remove the bytes after </robot> (the file was written from a C buffer '
                   'with its terminator, or padded)'))
    return raw[:end]


def _plain_robot(root: etree._Element, notes: List[Finding]) -> etree._Element:
    """
    Read a ``<robot>`` in a default namespace as urdfdom does (TinyXML2 has none).

    Drake's ``<robot xmlns="http://drake.mit.edu">``: every element of that namespace gets
    its plain name back, and a note says who does not read it so.
    """
    tag = root.tag
    if not isinstance(tag, str) or not tag.startswith('{') or root.prefix is not None or \
            etree.QName(tag).localname != 'robot':
        return root
    namespace = etree.QName(tag).namespace
    for element in root.iter():
        if isinstance(element.tag, str) and element.prefix is None and \
                element.tag.startswith('{' + f'{namespace}' + '}'):
            element.tag = etree.QName(element.tag).localname
    etree.cleanup_namespaces(root)
    notes.append(Finding(
        rule='parse-default-namespace', severity=Severity.WARNING,
        message=f'<robot> puts its elements in the namespace {_quote(str(namespace))} '
                '(xmlns="..."): urdfdom (robot_state_publisher, RViz) and xacro read them as '
                'plain URDF, and so does this checker, but namespace-aware readers find no '
                '<robot>: urdf_parser_py, lxml-based tools',
        element='<robot>', line=root.sourceline,
        suggestion='remove xmlns="..." from <robot> (give Drake\'s elements a prefix instead: '
                   'xmlns:drake="http://drake.mit.edu")'))
    return root


def _syntax_error(exc: etree.XMLSyntaxError, log: etree._ListErrorLog) -> UrdfSyntaxError:
    line = exc.lineno if exc.lineno and exc.lineno > 0 else None
    detail = exc.msg if getattr(exc, 'msg', None) else str(exc)
    for entry in log:
        # Report the first real error, not an undeclared prefix that is tolerated.
        if entry.level >= etree.ErrorLevels.ERROR and \
                entry.type != etree.ErrorTypes.NS_ERR_UNDEFINED_NAMESPACE:
            line = entry.line if entry.line > 0 else line
            detail = entry.message or detail
            break
    detail = detail.split(', line ')[0].strip()
    # libxml2 ends some messages with its own line ("...Start Tag link line 1"), which can
    # differ from the line said before it: the finding's line is the one said.
    detail = re.sub(r'\s+line \d+$', '', detail)
    if 'Excessive depth' in detail:
        # libxml2 suggests XML_PARSE_HUGE, which a user cannot act on.
        detail = ('Excessive depth in document: elements are nested more than 256 levels '
                  'deep (a URDF needs about 5)')
    return UrdfSyntaxError(f'not well-formed XML: {detail}; {_syntax_hint(detail)}', line=line)


def _syntax_hint(detail: str) -> str:
    """Return what to do about a syntax error, by what libxml2 said."""
    if 'XML declaration allowed only at the start' in detail:
        # Shadow's MuJoCo URDFs: a licence comment, then <?xml ...?> on line 26.
        return ('move <?xml version="1.0"?> to the very start of the file (before any '
                'comment or blank), or remove it')
    if detail.startswith("Start tag expected, '<' not found"):
        return 'fix the XML: no element starts it (is it a URDF?)'
    return 'fix the XML (is the file complete?)'  # a cut file ends anywhere: most messages
