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
The collision matrix as MoveIt's SRDF, alone or merged into an existing SRDF.

The pairs are written as MoveIt Setup Assistant writes them: one
``<disable_collisions link1= link2= reason=/>`` per pair, link1 < link2, sorted. Merging keeps
everything of the existing SRDF (groups, states, end effectors, virtual joints, comments)
and every pair whose reason is not one this computes (``User`` or any other: written by
hand); the pairs with reason Adjacent, Default, Always or Never are replaced by the new ones,
written where the first of them was.
"""

from typing import Dict, List, Tuple, Union

from lxml import etree

from urdf_link_tools.collision.adjacency import Pair, pair
from urdf_link_tools.collision.matrix import CollisionMatrix, REASONS
from urdf_link_tools.errors import UrdfInputError

TAG = 'disable_collisions'
COMMENT = ('DISABLE COLLISIONS: computed by urdf-link-tools collisions as MoveIt Setup '
           'Assistant does ({samples} random states, seed {seed}); reasons: Adjacent links, '
           'in collision in the Default state, Always or Never in collision')


def _element(first: str, second: str, reason: str) -> etree._Element:
    element = etree.Element(TAG)
    element.set('link1', first)
    element.set('link2', second)
    element.set('reason', reason)
    return element


def _elements(matrix: CollisionMatrix, keep: Dict[Pair, str]) -> List[etree._Element]:
    return [_element(first, second, reason)
            for (first, second), reason in sorted(matrix.disabled.items()) if
            (first, second) not in keep]


def _serialise(root: etree._Element) -> bytes:
    etree.indent(root, space='  ')
    return etree.tostring(root, xml_declaration=True, encoding='UTF-8') + b'\n'


def matrix_srdf(matrix: CollisionMatrix) -> bytes:
    """Return an SRDF holding only the matrix, ``<robot name=...>`` as MoveIt reads it."""
    root = etree.Element('robot')
    root.set('name', matrix.robot)
    root.append(etree.Comment(f' {COMMENT.format(samples=matrix.samples, seed=matrix.seed)} '))
    for element in _elements(matrix, {}):
        root.append(element)
    return _serialise(root)


def read_srdf(data: Union[str, bytes]) -> etree._Element:
    """
    Parse an SRDF safely: no entities, no DTD, no network (as the URDF parser).

    :raises UrdfInputError: when it is not well-formed XML with a ``<robot>`` root, or when it
        declares entities
    """
    if isinstance(data, str):
        data = data.encode('utf-8')
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             dtd_validation=False, remove_blank_text=True, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise UrdfInputError(f'not a well-formed SRDF: {exc}') from None
    dtd = root.getroottree().docinfo.internalDTD if root is not None else None
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise UrdfInputError('the SRDF declares XML entities (<!ENTITY ...>), which are '
                             'refused for safety')
    if root is None or root.tag != 'robot':
        raise UrdfInputError('not an SRDF: the root element is not <robot>')
    return root


def disabled_pairs(root: etree._Element) -> Dict[Pair, str]:
    """Return the pairs an SRDF disables, with their reason ('' when it has none)."""
    found: Dict[Pair, str] = {}
    for element in root.iter(TAG):
        first, second = element.get('link1'), element.get('link2')
        if first and second:
            found.setdefault(pair(first, second), element.get('reason') or '')
    return found


def merge_srdf(existing: Union[str, bytes], matrix: CollisionMatrix) -> Tuple[bytes, int]:
    """
    Return an existing SRDF with its computed pairs replaced by the matrix.

    :param existing: the SRDF text
    :param matrix: the new matrix
    :return: the merged SRDF and how many hand-written pairs were kept
    :raises UrdfInputError: when ``existing`` is not an SRDF
    """
    root = read_srdf(existing)
    keep: Dict[Pair, str] = {}
    anchor = None
    for element in list(root.iter(TAG)):
        reason = element.get('reason') or ''
        parent = element.getparent()
        if reason in REASONS:
            if anchor is None:
                anchor = (parent, parent.index(element))
            parent.remove(element)
        else:
            first, second = element.get('link1'), element.get('link2')
            if first and second:
                keep[pair(first, second)] = reason
    parent, index = anchor if anchor is not None else (root, len(root))
    for offset, element in enumerate(_elements(matrix, keep)):
        parent.insert(index + offset, element)
    return _serialise(root), len(keep)
