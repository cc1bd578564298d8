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
Read ``<link>`` elements: inertial, visuals, collisions, custom children and materials.

urdfdom's link.cpp is the reference for what is required and what defaults.
"""

from __future__ import annotations

import dataclasses
import re
from typing import AbstractSet, Callable, Dict, List, Tuple

from lxml import etree

from urdf_link_tools.errors import UrdfStructureError
from urdf_link_tools.findings import INERTIA_NAMES, Severity
from urdf_link_tools.model import (
    Box, Cylinder, Geometry, GeometryElement, Inertia, Inertial, Link, Material, Mesh, ONE3,
    Sphere)
from urdf_link_tools.parser.context import (Context, misspelled, origin_of, pick, read_numbers,
                                            scalar, vector)


def _box(ctx: Context, element: etree._Element) -> Geometry:
    return Box(size=vector(ctx, element, 'size', 3, None),  # type: ignore[arg-type]
               line=element.sourceline)


def _cylinder(ctx: Context, element: etree._Element) -> Geometry:
    return Cylinder(radius=scalar(ctx, element, 'radius'),
                    length=scalar(ctx, element, 'length'), line=element.sourceline)


def _sphere(ctx: Context, element: etree._Element) -> Geometry:
    return Sphere(radius=scalar(ctx, element, 'radius'), line=element.sourceline)


def _mesh(ctx: Context, element: etree._Element) -> Geometry:
    filename = element.get('filename')
    if filename is None or not filename.strip():
        raise ctx.error(element, None, 'the filename attribute is required')
    scale = vector(ctx, element, 'scale', 3, ONE3)
    return Mesh(filename=filename.strip(), scale=scale,  # type: ignore[arg-type]
                line=element.sourceline)


_SHAPES: Dict[str, Callable[[Context, etree._Element], Geometry]] = {
    'box': _box, 'cylinder': _cylinder, 'sphere': _sphere, 'mesh': _mesh}


def _geometry(ctx: Context, element: etree._Element) -> Geometry:
    # Entity references (never expanded) have a non-str tag; skip them.
    shapes = [(child, tag) for child in element if isinstance(tag := child.tag, str)]
    if not shapes:
        raise ctx.error(element, None,
                        'needs one shape: <box>, <cylinder>, <sphere> or <mesh>',
                        'parse-invalid-geometry')
    shape, tag = shapes[0]
    reader = _SHAPES.get(tag)
    if reader is None:
        if tag == 'capsule':
            # SDF's and Drake's shape (Fourier's GR1T1: 14 collisions): say what URDF has.
            # (the same words on every one: the same problem in many places is one note)
            raise ctx.error(shape, None,
                            "unknown geometry: <capsule> is SDF's and Drake's, not URDF's; "
                            'use a <cylinder> of its radius and length and, for the rounded '
                            'ends, two <sphere> collisions of its radius at the ends',
                            'parse-invalid-geometry')
        raise ctx.error(shape, None,
                        'unknown geometry; use <box>, <cylinder>, <sphere> or <mesh>',
                        'parse-invalid-geometry')
    # urdfdom reads only the first child of <geometry>: later shapes and anything else
    # (a <material> or <origin> put there by mistake) are ignored.
    extra = [child for child, name in shapes[1:] if name in _SHAPES]
    if extra:
        ctx.note('parse-extra-shape', extra[0],
                 f'<geometry> holds {len(extra) + 1} shapes; only the first, <{tag}>, '
                 'is used by URDF readers',
                 'put each shape in a <visual> or <collision> of its own')
    for child, name in shapes[1:]:
        if name not in _SHAPES:
            ctx.note('parse-ignored-element', child,
                     f'<{name}> inside <geometry> is not a shape and is ignored by URDF '
                     f'readers (they read only the first child, <{tag}>)',
                     f'move <{name}> out of <geometry> into the enclosing element'
                     + (' (a <material> belongs in the <visual>)' if name == 'material'
                        else ''))
    return reader(ctx, shape)


def material_of(ctx: Context, element: etree._Element, top_level: bool,
                collision: bool = False) -> Material:
    """Read a ``<material>``, top-level or in a visual (or in a collision, which urdfdom skips)."""
    name = element.get('name')
    if name is None:
        raise ctx.error(element, None, 'a <material> needs a name attribute')
    rgba = None
    texture = None
    for child in element:
        tag = child.tag
        if tag == 'color':
            # urdfdom logs a malformed colour and goes on without it; MuJoCo refuses the
            # robot, wherever the material is (a collision's, one no visual uses).
            ctx.engine_also = (
                ('mujoco', "urdfdom does not read a collision's material, but MuJoCo refuses "
                           'the robot', Severity.INFO) if collision else
                ('mujoco', 'urdfdom logs an error and ignores it, but MuJoCo refuses the '
                           'robot', Severity.WARNING))
            try:
                rgba = ctx.attempt(lambda: vector(ctx, child, 'rgba', 4, None, False), None,
                                   'without this colour', refuses=False)
            finally:
                ctx.engine_also = None
        elif tag == 'texture':
            texture = child.get('filename') or None
    return Material(name=name, rgba=rgba, texture=texture,  # type: ignore[arg-type]
                    line=element.sourceline)


_ELEMENT_PARTS = ('origin', 'geometry', 'material')


def _geometry_element(ctx: Context, element: etree._Element, index: int,
                      required: bool) -> GeometryElement:
    parts = pick(element, _ELEMENT_PARTS, ctx)
    geometry_el = parts.get('geometry')
    geometry = None
    if geometry_el is not None:
        geometry = ctx.attempt(lambda: _geometry(ctx, geometry_el), None,
                               f'without the geometry of this <{element.tag}>')
    elif required:
        ctx.attempt(_raise(ctx.error(element, None, 'a <geometry> element is required')),
                    None, 'without geometry for it')
    material_el = parts.get('material')
    material = None
    if material_el is not None and element.tag == 'collision' and \
            material_el.get('name') is None:
        # urdfdom reads a visual's material only (parseVisual), and MuJoCo loads a nameless
        # one in a collision too (tried): not a reason to refuse the robot.
        material_el = None
    if material_el is not None:
        material = ctx.attempt(
            lambda: material_of(ctx, material_el, False, element.tag == 'collision'), None,
            'without this material')
        if material is not None and material.name:
            if material.is_defined:
                ctx.materials.setdefault(material.name, material)
            else:
                material = resolve_material(ctx, material)
    attributes: Tuple[Tuple[str, str], ...] = ()
    extensions: Tuple[str, ...] = ()
    if not required:
        attributes = tuple((str(k), str(v)) for k, v in element.attrib.items())
    elif len(element) > len(parts):
        extensions = tuple(dict.fromkeys(
            child.tag for child in element
            if isinstance(child.tag, str) and child.tag not in _ELEMENT_PARTS))
    return GeometryElement(
        group=element.tag, index=index, name=element.get('name'),
        origin=origin_of(ctx, parts.get('origin')), geometry=geometry, material=material,
        line=element.sourceline, attributes=attributes, extensions=extensions)


def _raise(exc: Exception) -> Callable[[], None]:
    def read() -> None:
        raise exc
    return read


def resolve_material(ctx: Context, reference: Material) -> Material:
    """Resolve a name-only material now, or leave it for the pass after all links."""
    target = ctx.materials.get(reference.name)  # type: ignore[arg-type]
    if target is None:
        ctx.unresolved = True
        return reference
    return Material(name=target.name, rgba=target.rgba, texture=target.texture,
                    line=target.line, reference_line=reference.line)


_INERTIAL_PARTS = ('origin', 'mass', 'inertia')
_LINK_PARTS = ('inertial', 'visual', 'collision')


def _inertial(ctx: Context, element: etree._Element) -> Inertial:
    parts = pick(element, _INERTIAL_PARTS, ctx)
    # The origin first: its defects are reported even when a missing part drops the rest.
    origin = origin_of(ctx, parts.get('origin'))
    mass_el = parts.get('mass')
    inertia_el = parts.get('inertia')
    if mass_el is None:
        raise ctx.error(element, None, 'a <mass value="..."/> element is required' + (
            " (<density> is Isaac Gym's: it derives the mass from the collision geometry; "
            'urdfdom, Gazebo, MuJoCo and Pinocchio read <mass> only: write density times '
            'the collision volume, and an <inertia>)'
            if element.find('density') is not None else ''))
    mass = scalar(ctx, mass_el, 'value')
    if inertia_el is None:
        raise ctx.error(element, None,
                        'an <inertia ixx=".." ixy=".." ixz=".." iyy=".." iyz=".." izz=".."/> '
                        f'element is required (the <mass> is on line {mass_el.sourceline})')
    texts = [inertia_el.get(name) for name in INERTIA_NAMES]
    missing = [name for name, text in zip(INERTIA_NAMES, texts) if text is None]
    if missing:
        raise ctx.error(inertia_el, None,
                        f'missing attribute{"s" if len(missing) > 1 else ""} '
                        f'{", ".join(missing)} (all six of ixx ixy ixz iyy iyz izz are required)')
    values = []
    for name, text in zip(INERTIA_NAMES, texts):
        numbers = read_numbers(ctx, text)  # type: ignore[arg-type]
        # _scalar reads the attribute again only to report a bad number.
        values.append(numbers[0] if numbers is not None and len(numbers) == 1
                      and not text[-1:].isspace()  # type: ignore[index]
                      else scalar(ctx, inertia_el, name))
    return Inertial(
        origin=origin, mass=mass,
        inertia=Inertia(*values, line=inertia_el.sourceline),
        line=element.sourceline, mass_line=mass_el.sourceline)


#: ``{name}`` not after a ``$``: a xacro expression written without it, left as it is
_BRACES = re.compile(r'(?<!\$)\{([A-Za-z_][A-Za-z0-9_]*)\}')


def dollar_slip(value: str, links: AbstractSet[str]) -> str:
    """
    Say the xacro expression a name holds without its ``$``, or ''.

    REEM-C's foot: reference="sole_{side}" (sweep Q) named no link; written sole_${side},
    xacro would have made it the foot's sole link.
    """
    meant = dollar_meant(value, links)
    if not meant[0]:
        return ''
    return (f': did you mean {meant[0]}? {DOLLAR_WHY}'
            + (f' (it would name {meant[1]})' if meant[1] else ''))


#: why a name with ``{...}`` and no ``$`` is not what its author meant
DOLLAR_WHY = 'xacro expands {...} only after a $'


def dollar_meant(value: str, links: AbstractSet[str]) -> Tuple[str, str]:
    """
    Return what a name with ``{...}`` and no ``$`` meant, and the one link it would name.

    :return: ('sole_${side}', 'sole_left') ; ('', '') for a name without the slip; the link
        is '' unless exactly one of ``links`` matches
    """
    if not _BRACES.search(value):
        return '', ''
    meant = _BRACES.sub(lambda found: '${' + found.group(1) + '}', value)
    literals = _BRACES.split(value)[::2]  # literal, name, literal, ...: the literals
    if len(literals) - 1 > _MOST_EXPRESSIONS or len(links) > _MOST_NAMES_MATCHED:
        return meant, ''
    alike = sorted(name for name in links if _fills(name, literals))
    return meant, alike[0] if len(alike) == 1 else ''


#: the most {...} pieces of a name matched against the links, and the most links matched (a
#: regex of adjacent '.+' backtracked for hours on '{a}{a}...{a}!', tenth+1 review)
_MOST_EXPRESSIONS = 8
_MOST_NAMES_MATCHED = 2000


def _fills(name: str, literals: List[str]) -> bool:
    """
    Return True when a name is the literals in order with at least one character between each.

    Linear: each literal between the first and the last is taken at its first place after
    the one before (the earliest end leaves the most room for the rest).
    """
    first, last = literals[0], literals[-1]
    end = len(name) - len(last)
    if not name.startswith(first) or not name.endswith(last) or end < len(first):
        return False
    position = len(first)
    for middle in literals[1:-1]:
        position += 1  # the expression before it stands for one character at least
        if middle:
            found = name.find(middle, position, end)
            if found < 0:
                return False
            position = found + len(middle)
    return position + 1 <= end


def link_of(ctx: Context, element: etree._Element) -> Link:
    """Read a ``<link>``."""
    name = element.get('name')
    if name is None or not name.strip():
        ctx.link = None
        raise ctx.error(element, None, 'a <link> needs a non-empty name attribute')
    ctx.link = name
    inertial = None
    inertial_line = None
    visuals: List[GeometryElement] = []
    collisions: List[GeometryElement] = []
    custom: List[GeometryElement] = []
    custom_counts: Dict[str, int] = {}
    for child in element:
        tag = child.tag
        if tag == 'visual':
            visuals.append(_geometry_element(ctx, child, len(visuals), True))
        elif tag == 'collision':
            collisions.append(_geometry_element(ctx, child, len(collisions), True))
        elif tag == 'inertial':
            if inertial_line is None:
                inertial_line = child.sourceline
                inertial = ctx.attempt(lambda: _inertial(ctx, child), None,
                                       'as if the link had no <inertial>')
            else:
                ctx.note('parse-duplicate-inertial', child,
                         f"link '{name}' has more than one <inertial>; only the first "
                         f'(line {inertial_line}) is used by URDF readers',
                         'merge them into one <inertial>', values=(('parent', 'link'),))
        elif tag == 'gazebo':
            # Gazebo reads <gazebo> extensions only as children of <robot> (sdformat's
            # parser_urdf.cc): inside a link its material, friction or sensor is lost.
            # Its reference names the link it configures, unless it names no link (Isaac
            # Gym's cabinet: reference="link" in each of 9 links, copied): then the link it
            # is in. The same fix on 3 or more links is then one finding (grouped_notes).
            reference = child.get('reference')
            other = reference is not None and reference in ctx.link_names
            ctx.note('parse-gazebo-inside-link', child,
                     f"a <gazebo> element in link '{name}' is ignored by Gazebo, which "
                     'reads <gazebo> only as a child of <robot>'
                     + ('' if not reference or reference == name else
                        f' (its reference="{reference}" names another link)' if other else
                        f' (its reference="{reference}" names no link'
                        + dollar_slip(reference, ctx.link_names) + ')'),
                     f'move it out of the <link>, to the <robot> level, as <gazebo '
                     f'reference="{reference}">' if other else
                     'move it out of the <link>, to the <robot> level, with reference set to '
                     'the name of the link it was in')
        elif isinstance(tag, str):
            if misspelled(ctx, child, element, _LINK_PARTS):
                continue  # ignored by URDF readers: not a custom element of the link
            index = custom_counts.get(tag, 0)
            custom_counts[tag] = index + 1
            custom.append(_custom_element(ctx, child, index))
    ctx.link = None
    return Link(name=name, line=element.sourceline, inertial=inertial,
                visuals=tuple(visuals), collisions=tuple(collisions), custom=tuple(custom))


#: shapes other programs' URDF readers add (Drake: <capsule>, <drake:capsule>,
#: <drake:ellipsoid>), said as an info inside a custom element
EXTENSION_SHAPES = frozenset({'capsule', 'ellipsoid'})


def _custom_element(ctx: Context, element: etree._Element, index: int) -> GeometryElement:
    # A custom element is not URDF: a reader that does not know it ignores it, so a mistake
    # inside it is a warning about that element, never a reason to refuse the robot.
    ctx.strict = True
    try:
        return _geometry_element(ctx, element, index, False)
    except UrdfStructureError as exc:
        shapes = [etree.QName(child).localname for geometry in element.iterfind('geometry')
                  for child in geometry if isinstance(child.tag, str)]
        if shapes and all(shape in EXTENSION_SHAPES for shape in shapes):
            # Drake's iiwa <self_collision_checking> capsules: a shape of the program that
            # reads the element, not a mistake in it (an info).
            ctx.note('custom-element-unreadable', element,
                     f'custom element <{element.tag}> holds a <{shapes[0]}>, a shape some '
                     'URDF readers add (Drake), not URDF: read here as unknown geometry',
                     'nothing to fix if a program of yours reads it; urdfdom, MoveIt and '
                     'Gazebo read neither the element nor the shape', severity=Severity.INFO)
        else:
            ctx.note('custom-element-unreadable', element,
                     f'custom element <{element.tag}> could not be read: {exc.message}',
                     'fix the element, or ignore this if no program of yours reads it')
        return GeometryElement(group=element.tag, index=index, name=element.get('name'),
                               line=element.sourceline,
                               attributes=tuple((str(k), str(v))
                                                for k, v in element.attrib.items()))
    finally:
        ctx.strict = False


def resolve_late_references(ctx: Context, links: List[Link]) -> List[Link]:
    """Resolve material references that came before the material's definition."""
    out = []
    for link in links:
        visuals = []
        for visual in link.visuals:
            material = visual.material
            if material is not None and material.name and not material.is_defined:
                resolved = resolve_material(ctx, material)
                if resolved is not material:
                    visual = dataclasses.replace(visual, material=resolved)
            visuals.append(visual)
        out.append(dataclasses.replace(link, visuals=tuple(visuals)))
    return out
