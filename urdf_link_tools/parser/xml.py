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

from typing import Optional, Union

from lxml import etree

from urdf_link_tools.errors import UrdfSyntaxError
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


def _make_parser(encoding: Optional[str] = None) -> etree.XMLParser:
    # A new parser per call: lxml parsers must not be shared between threads.
    # Do not pass collect_ids=False: with lxml 6 it makes libxml2 load the external DTD
    # subset (a file read that test_parser_safety catches with a FIFO).
    # remove_blank_text drops the whitespace between elements, which nothing reads (the
    # model is built from elements and attributes): parsing and walking get cheaper.
    parser = etree.XMLParser(
        encoding=encoding, resolve_entities=False, no_network=True, load_dtd=False,
        dtd_validation=False, huge_tree=False, remove_comments=True, remove_pis=True,
        remove_blank_text=True)
    parser.resolvers.add(_DenyResolver())
    return parser


def parse_xml(data: Union[str, bytes]) -> etree._Element:
    """
    Parse XML text safely and return its root element.

    :param data: the document; ``str`` input may carry any encoding declaration
    :return: the root element
    :raises UrdfSyntaxError: when the text is empty, not well-formed, or declares entities
    """
    if isinstance(data, str):
        raw = data.encode('utf-8')
        parser = _make_parser('utf-8')
    else:
        raw = data
        parser = _make_parser()
    if not raw.strip():
        raise UrdfSyntaxError(
            'the robot description is empty: expected a <robot> XML document')
    doctype = raw.find(b'<!DOCTYPE')
    if doctype >= 0 and raw.find(b'<!ENTITY', doctype) >= 0:
        # Checked before parsing so that an entity bomb costs nothing and the user gets
        # the real reason rather than libxml2's amplification error.
        raise _entity_error()
    try:
        root = etree.fromstring(raw, parser)
    except etree.XMLSyntaxError as exc:
        line = exc.lineno if exc.lineno and exc.lineno > 0 else None
        detail = exc.msg if getattr(exc, 'msg', None) else str(exc)
        detail = detail.split(', line ')[0].strip()
        if 'Excessive depth' in detail:
            # libxml2 suggests XML_PARSE_HUGE, which a user cannot act on.
            detail = ('Excessive depth in document: elements are nested more than 256 levels '
                      'deep (a URDF needs about 5)')
        raise UrdfSyntaxError(
            f'not well-formed XML: {detail}; fix the XML (is the file complete?)',
            line=line) from None
    if root is None:
        raise UrdfSyntaxError('the robot description has no root element')
    docinfo = root.getroottree().docinfo
    dtd = docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise _entity_error()
    if docinfo.system_url:
        raise UrdfSyntaxError(
            'the document references an external DTD, which is refused for safety: '
            'remove the <!DOCTYPE ... SYSTEM ...> line', line=1)
    return root
