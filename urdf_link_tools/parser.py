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
Parse URDF text into the :mod:`urdf_link_tools.model`, safely and with source lines.

The XML parser is configured so that a robot description cannot reach outside the
document: no external entities or DTDs are loaded, no network access is allowed, entity
references are never expanded, and a document that declares entities is refused outright
(a robot description has no use for them; xacro output never contains them). libxml2's
own limits (nesting depth 256, text nodes up to 10 MB) stay on because ``huge_tree`` is off.
"""

import dataclasses
import gc
from typing import Callable, Dict, List, Optional, Tuple, Union

from lxml import etree

from urdf_link_tools.errors import UrdfStructureError, UrdfSyntaxError
from urdf_link_tools.findings import Finding, Severity
from urdf_link_tools.model import (
    Box, Cylinder, Geometry, GeometryElement, IDENTITY, Inertia, Inertial, Joint,
    JOINT_TYPES, JointLimit, Link, Material, Mesh, Mimic, ONE3, Origin, Robot, Sphere,
    Vector3, ZERO3)

_QUOTE_LIMIT = 40
_INERTIA_NAMES = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')
_UNKEPT_JOINT_NUMBERS = {
    'dynamics': ('damping', 'friction'), 'calibration': ('rising', 'falling'),
    'safety_controller': ('soft_lower_limit', 'soft_upper_limit', 'k_position', 'k_velocity')}


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


def _quote(text: str) -> str:
    if len(text) > _QUOTE_LIMIT:
        return text[:_QUOTE_LIMIT] + '...'
    return text


class _Context:
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
            shown = f'<{tag} {attr}="{_quote(element.get(attr))}">'
        else:
            shown = f'<{tag}>'
        return UrdfStructureError(
            f'{shown}{self.where()}: {problem}', line=element.sourceline, link=self.link)

    def note(self, rule: str, element: etree._Element, message: str, suggestion: str,
             severity: Severity = Severity.WARNING) -> None:
        self.notes.append(Finding(
            rule=rule, severity=severity, message=message, link=self.link,
            element=f'<{element.tag}>', line=element.sourceline, suggestion=suggestion))


def _number(ctx: _Context, element: etree._Element, attr: str, token: str) -> float:
    # float() also takes '1_000' and surrounding blanks; URDF readers do not.
    try:
        if '_' in token:
            raise ValueError(token)
        return float(token)
    except ValueError:
        raise ctx.error(element, attr, f'{attr}: "{_quote(token)}" is not a number') from None


def _numbers(ctx: _Context, text: str) -> Optional[Tuple[float, ...]]:
    """Return the numbers of an attribute's text, or None when one is not a number."""
    values = ctx.numbers.get(text)
    if values is None and '_' not in text:
        try:
            values = tuple(map(float, text.split()))
        except ValueError:
            return None
        ctx.numbers[text] = values
    return values


def _vector(ctx: _Context, element: etree._Element, attr: str, count: int,
            default: Optional[Tuple[float, ...]]) -> Tuple[float, ...]:
    text = element.get(attr)
    if text is None:
        if default is None:
            raise ctx.error(element, None, f'the {attr} attribute is required '
                            f'({count} number{"s" if count > 1 else ""})')
        return default
    values = _numbers(ctx, text)
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
    return tuple(_number(ctx, element, attr, token) for token in tokens)


def _scalar(ctx: _Context, element: etree._Element, attr: str,
            default: Optional[float] = None) -> float:
    text = element.get(attr)
    if text is not None:
        values = _numbers(ctx, text)
        if values is not None and len(values) == 1:
            return values[0]
    return _vector(ctx, element, attr, 1, None if default is None else (default,))[0]


def _pick(element: etree._Element, tags: Tuple[str, ...],
          ctx: _Context) -> Dict[str, etree._Element]:
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


def _origin(ctx: _Context, element: Optional[etree._Element]) -> Origin:
    if element is None:
        return IDENTITY
    xyz = _vector(ctx, element, 'xyz', 3, ZERO3)
    rpy = _vector(ctx, element, 'rpy', 3, ZERO3)
    return Origin(xyz=xyz, rpy=rpy, line=element.sourceline)  # type: ignore[arg-type]


def _box(ctx: _Context, element: etree._Element) -> Geometry:
    return Box(size=_vector(ctx, element, 'size', 3, None),  # type: ignore[arg-type]
               line=element.sourceline)


def _cylinder(ctx: _Context, element: etree._Element) -> Geometry:
    return Cylinder(radius=_scalar(ctx, element, 'radius'),
                    length=_scalar(ctx, element, 'length'), line=element.sourceline)


def _sphere(ctx: _Context, element: etree._Element) -> Geometry:
    return Sphere(radius=_scalar(ctx, element, 'radius'), line=element.sourceline)


def _mesh(ctx: _Context, element: etree._Element) -> Geometry:
    filename = element.get('filename')
    if filename is None or not filename.strip():
        raise ctx.error(element, None, 'the filename attribute is required')
    scale = _vector(ctx, element, 'scale', 3, ONE3)
    return Mesh(filename=filename.strip(), scale=scale,  # type: ignore[arg-type]
                line=element.sourceline)


_SHAPES: Dict[str, Callable[[_Context, etree._Element], Geometry]] = {
    'box': _box, 'cylinder': _cylinder, 'sphere': _sphere, 'mesh': _mesh}


def _geometry(ctx: _Context, element: etree._Element) -> Geometry:
    # Entity references (never expanded) have a non-str tag; skip them.
    shapes = [(child, tag) for child in element if isinstance(tag := child.tag, str)]
    if not shapes:
        raise ctx.error(element, None,
                        'needs one shape: <box>, <cylinder>, <sphere> or <mesh>')
    shape, tag = shapes[0]
    reader = _SHAPES.get(tag)
    if reader is None:
        raise ctx.error(shape, None,
                        'unknown geometry; use <box>, <cylinder>, <sphere> or <mesh>')
    if len(shapes) > 1:
        ctx.note('parse-extra-shape', shapes[1][0],
                 f'<geometry> holds {len(shapes)} shapes; only the first, <{tag}>, '
                 'is used by URDF readers',
                 'put each shape in a <visual> or <collision> of its own')
    return reader(ctx, shape)


def _material(ctx: _Context, element: etree._Element, top_level: bool) -> Material:
    name = element.get('name')
    if top_level and not name:
        raise ctx.error(element, None, 'a top-level <material> needs a name attribute')
    rgba = None
    texture = None
    for child in element:
        tag = child.tag
        if tag == 'color':
            rgba = _vector(ctx, child, 'rgba', 4, None)
        elif tag == 'texture':
            texture = child.get('filename') or None
    return Material(name=name, rgba=rgba, texture=texture,  # type: ignore[arg-type]
                    line=element.sourceline)


_ELEMENT_PARTS = ('origin', 'geometry', 'material')


def _geometry_element(ctx: _Context, element: etree._Element, index: int,
                      required: bool) -> GeometryElement:
    parts = _pick(element, _ELEMENT_PARTS, ctx)
    geometry_el = parts.get('geometry')
    geometry = None
    if geometry_el is not None:
        geometry = _geometry(ctx, geometry_el)
    elif required:
        raise ctx.error(element, None, 'a <geometry> element is required')
    material_el = parts.get('material')
    material = None
    if material_el is not None:
        material = _material(ctx, material_el, False)
        if material.name:
            if material.is_defined:
                ctx.materials.setdefault(material.name, material)
            else:
                material = _resolved(ctx, material)
    attributes: Tuple[Tuple[str, str], ...] = ()
    if not required:
        attributes = tuple((str(k), str(v)) for k, v in element.attrib.items())
    return GeometryElement(
        group=element.tag, index=index, name=element.get('name'),
        origin=_origin(ctx, parts.get('origin')), geometry=geometry, material=material,
        line=element.sourceline, attributes=attributes)


def _resolved(ctx: _Context, reference: Material) -> Material:
    """Resolve a name-only material now, or leave it for the pass after all links."""
    target = ctx.materials.get(reference.name)  # type: ignore[arg-type]
    if target is None:
        ctx.unresolved = True
        return reference
    return Material(name=target.name, rgba=target.rgba, texture=target.texture,
                    line=target.line, reference_line=reference.line)


_INERTIAL_PARTS = ('origin', 'mass', 'inertia')


def _inertial(ctx: _Context, element: etree._Element) -> Inertial:
    parts = _pick(element, _INERTIAL_PARTS, ctx)
    origin_el = parts.get('origin')
    mass_el = parts.get('mass')
    inertia_el = parts.get('inertia')
    if mass_el is None:
        raise ctx.error(element, None, 'a <mass value="..."/> element is required')
    mass = _scalar(ctx, mass_el, 'value')
    if inertia_el is None:
        raise ctx.error(element, None,
                        'an <inertia ixx=".." ixy=".." ixz=".." iyy=".." iyz=".." izz=".."/> '
                        'element is required')
    texts = [inertia_el.get(name) for name in _INERTIA_NAMES]
    missing = [name for name, text in zip(_INERTIA_NAMES, texts) if text is None]
    if missing:
        raise ctx.error(inertia_el, None,
                        f'missing attribute{"s" if len(missing) > 1 else ""} '
                        f'{", ".join(missing)} (all six of ixx ixy ixz iyy iyz izz are required)')
    values = []
    for name, text in zip(_INERTIA_NAMES, texts):
        numbers = _numbers(ctx, text)  # type: ignore[arg-type]
        # _scalar reads the attribute again only to report a bad number.
        values.append(numbers[0] if numbers is not None and len(numbers) == 1 else
                      _scalar(ctx, inertia_el, name))
    return Inertial(
        origin=_origin(ctx, origin_el), mass=mass,
        inertia=Inertia(*values, line=inertia_el.sourceline),
        line=element.sourceline, mass_line=mass_el.sourceline)


def _link(ctx: _Context, element: etree._Element) -> Link:
    name = element.get('name')
    if name is None or not name.strip():
        ctx.link = None
        raise ctx.error(element, None, 'a <link> needs a non-empty name attribute')
    ctx.link = name
    inertial = None
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
            if inertial is None:
                inertial = _inertial(ctx, child)
            else:
                ctx.note('parse-duplicate-inertial', child,
                         f"link '{name}' has more than one <inertial>; only the first "
                         f'(line {inertial.line}) is used by URDF readers',
                         'merge them into one <inertial>')
        elif isinstance(tag, str):
            index = custom_counts.get(tag, 0)
            custom_counts[tag] = index + 1
            custom.append(_custom_element(ctx, child, index))
    ctx.link = None
    return Link(name=name, line=element.sourceline, inertial=inertial,
                visuals=tuple(visuals), collisions=tuple(collisions), custom=tuple(custom))


def _custom_element(ctx: _Context, element: etree._Element, index: int) -> GeometryElement:
    # A custom element is not URDF: a reader that does not know it ignores it, so a mistake
    # inside it is a warning about that element, never a reason to refuse the robot.
    try:
        return _geometry_element(ctx, element, index, False)
    except UrdfStructureError as exc:
        ctx.note('custom-element-unreadable', element,
                 f'custom element <{element.tag}> could not be read: {exc.message}',
                 'fix the element, or ignore this if no program of yours reads it')
        return GeometryElement(group=element.tag, index=index, name=element.get('name'),
                               line=element.sourceline,
                               attributes=tuple((str(k), str(v))
                                                for k, v in element.attrib.items()))


def _required(ctx: _Context, element: etree._Element, attr: str, what: str) -> str:
    value = element.get(attr)
    if value is None or not value.strip():
        raise ctx.error(element, None, f'the {attr} attribute is required ({what})')
    return value


def _joint(ctx: _Context, element: etree._Element) -> Joint:
    name = _required(ctx, element, 'name', 'the joint name')
    jtype = _required(ctx, element, 'type', 'one of ' + ', '.join(sorted(JOINT_TYPES)))
    if jtype not in JOINT_TYPES:
        raise ctx.error(element, 'type', f"joint '{name}' has unknown type; use one of "
                        + ', '.join(sorted(JOINT_TYPES)))
    parent = child = None
    origin = IDENTITY
    axis: Vector3 = (1.0, 0.0, 0.0)
    limit = None
    mimic = None
    for sub in element:
        tag = sub.tag
        if tag == 'parent':
            parent = _required(ctx, sub, 'link', f"the parent link of joint '{name}'")
        elif tag == 'child':
            child = _required(ctx, sub, 'link', f"the child link of joint '{name}'")
        elif tag == 'origin':
            origin = _origin(ctx, sub)
        elif tag == 'axis':
            axis = _vector(ctx, sub, 'xyz', 3, (1.0, 0.0, 0.0))  # type: ignore[assignment]
        elif tag == 'limit':
            limit = JointLimit(
                lower=_scalar(ctx, sub, 'lower', 0.0), upper=_scalar(ctx, sub, 'upper', 0.0),
                effort=_scalar(ctx, sub, 'effort', 0.0),
                velocity=_scalar(ctx, sub, 'velocity', 0.0), line=sub.sourceline)
        elif tag == 'mimic':
            mimic = Mimic(joint=_required(ctx, sub, 'joint', 'the mimicked joint'),
                          multiplier=_scalar(ctx, sub, 'multiplier', 1.0),
                          offset=_scalar(ctx, sub, 'offset', 0.0), line=sub.sourceline)
        elif tag in _UNKEPT_JOINT_NUMBERS:
            # Not in the model, but urdfdom refuses the robot when one is not a number.
            for attr in _UNKEPT_JOINT_NUMBERS[tag]:
                if sub.get(attr) is not None:
                    _scalar(ctx, sub, attr)
    if parent is None:
        raise ctx.error(element, None, f"joint '{name}' needs a <parent link=\"...\"/>")
    if child is None:
        raise ctx.error(element, None, f"joint '{name}' needs a <child link=\"...\"/>")
    return Joint(name=name, type=jtype, parent=parent, child=child, origin=origin,
                 axis=axis, limit=limit, mimic=mimic, line=element.sourceline)


def _resolve_late_references(ctx: _Context, links: List[Link]) -> List[Link]:
    """Resolve material references that came before the material's definition."""
    out = []
    for link in links:
        visuals = []
        for visual in link.visuals:
            material = visual.material
            if material is not None and material.name and not material.is_defined:
                resolved = _resolved(ctx, material)
                if resolved is not material:
                    visual = dataclasses.replace(visual, material=resolved)
            visuals.append(visual)
        out.append(dataclasses.replace(link, visuals=tuple(visuals)))
    return out


def robot_from_element(root: etree._Element, source: Optional[str] = None) -> Robot:
    """
    Build the model from a parsed ``<robot>`` element.

    :param root: the document's root element
    :param source: path of the file the text came from, used to resolve relative meshes
    :return: the robot model
    :raises UrdfStructureError: for the first element that breaks the URDF format
    """
    ctx = _Context()
    if root.tag != 'robot':
        shown = root.tag if isinstance(root.tag, str) else '?'
        raise UrdfStructureError(
            f'the root element is <{_quote(shown)}>, expected <robot>: '
            'is this a URDF (and not SDF, xacro output with errors, or another file)?',
            line=root.sourceline)
    name = root.get('name')
    if name is None or not name.strip():
        ctx.note('robot-name-missing', root, 'the <robot> element has no name attribute',
                 'add name="..." to <robot>; tools use it to label the robot')
        name = ''
    links: List[Link] = []
    joints: List[Joint] = []
    # Materials first (a visual may name one defined further down), links and joints
    # afterwards, in document order; one pass over the children finds them all.
    parts: List[Tuple[str, etree._Element]] = []
    for child in root:
        tag = child.tag
        if tag == 'material':
            material = _material(ctx, child, True)
            if material.name in ctx.materials:
                ctx.note('material-duplicate', child,
                         f"material '{material.name}' is defined again; the first "
                         f'definition (line {ctx.materials[material.name].line}) is used',
                         'remove the second definition or give it another name')
            else:
                ctx.materials[material.name] = material  # type: ignore[index]
        elif tag == 'link' or tag == 'joint':
            parts.append((tag, child))
    top_level = tuple(ctx.materials.values())
    for tag, child in parts:
        if tag == 'link':
            links.append(_link(ctx, child))
        else:
            joints.append(_joint(ctx, child))
    if ctx.unresolved:
        links = _resolve_late_references(ctx, links)
    return Robot(name=name, links=tuple(links), joints=tuple(joints),
                 materials=top_level, line=root.sourceline, source=source,
                 notes=tuple(ctx.notes))


def parse_urdf_string(text: Union[str, bytes], source: Optional[str] = None) -> Robot:
    """
    Parse URDF text.

    :param text: the URDF document
    :param source: path of the file it came from, if any
    :return: the robot model
    :raises UrdfError: (a subclass) when the text cannot be read as a URDF
    """
    root = parse_xml(text)
    # Building the model allocates tens of thousands of small immutable objects and no
    # reference cycles; pausing the cyclic collector meanwhile saves about a third of the
    # time on large robots (bench/bench_analysis.py).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return robot_from_element(root, source)
    finally:
        if enabled:
            gc.enable()
