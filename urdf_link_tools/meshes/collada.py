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
Read the triangles of a COLLADA (DAE) file: positions and faces, nothing else.

trimesh reads COLLADA through pycollada, which builds Python objects for every element,
parses every source (normals, texture coordinates) and then has trimesh merge vertices
keyed on them: several times the work that measuring needs. This reader parses the XML
once with lxml, parses only the position arrays and the indices, and places each
geometry instance with its node transforms.

It reproduces what pycollada and trimesh's loader make of a file, number for number:
positions and transforms are parsed as float32 (as pycollada does), node matrices are
composed in float32 and chained in float64 (as trimesh does), a ``<polylist>`` or
``<polygons>`` is fan-triangulated, only the first ``<p>`` of a ``<triangles>`` is read,
``<lines>`` are skipped and ``<up_axis>`` is ignored. Whatever it does not reproduce
exactly (``<tristrips>``, ``<lookat>``, vertex colours, a reference that does not resolve,
a malformed array, a geometry that pycollada would drop) makes it return a
:class:`Fallback` naming it, and the caller reads the file through trimesh as before, logging
why (``--verbose``) and marking the mesh (``RawMesh.fallback``) so that runs can count them.

The scene's expansion is counted per node before anything is placed (node instancing can
expand exponentially, see :mod:`.dae`), and every walk is iterative.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Tuple, Union

from lxml import etree
import numpy as np

from urdf_link_tools.meshes import dae
from urdf_link_tools.meshes.files import amplified

Arrays = Tuple[np.ndarray, np.ndarray]
#: (offset, semantic, source element) of one input of a primitive
_Input = Tuple[int, str, etree._Element]
_MESH_CHILDREN = frozenset(('source', 'vertices', 'triangles', 'polylist', 'polygons',
                            'lines', 'extra'))
_NODE_IGNORED = frozenset(('instance_camera', 'instance_light', 'extra', 'asset'))
_TRANSFORMS = frozenset(('matrix', 'translate', 'rotate', 'scale'))
_IDENTITY32 = np.identity(4, dtype=np.float32)
_EYE = np.eye(4)
#: the bytes of decimal numbers and of the blanks between them; any other text is parsed
_NUMBER_BYTES = b'0123456789eE+-.'
_BLANK_BYTES = b' \t\n\r'
#: every blank to a space
_BLANK_TO_SPACE = bytes.maketrans(b'\t\n\r', b'   ')


class Fallback(NamedTuple):
    """
    What a NumPy reader does not reproduce (or a malformed file): trimesh reads the file.

    Also :mod:`.obj`'s answer for an OBJ file it leaves.
    """

    reason: str


class Unsupported(Exception):
    """Something this reader does not reproduce exactly: read the file through trimesh."""


def _local(tag: str) -> str:
    return tag.rsplit('}', 1)[-1]


def _children(element: etree._Element, name: str) -> List[etree._Element]:
    return [child for child in element if _local(child.tag) == name]


def _child(element: etree._Element, name: str) -> Optional[etree._Element]:
    return next((child for child in element if _local(child.tag) == name), None)


def _floats(text: Optional[str]) -> np.ndarray:
    """Parse numbers as pycollada does (float32, NaN read as 0)."""
    if text is None or text.isspace() or not text:
        return np.zeros(0, dtype=np.float32)
    data = np.fromstring(text, dtype=np.float32, sep=' ')
    data[np.isnan(data)] = 0
    return data


def _ints(text: Optional[str]) -> np.ndarray:
    if text is None or text.isspace() or not text:
        return np.zeros(0, dtype=np.int32)
    return np.fromstring(text, dtype=np.int32, sep=' ')


def _count_numbers(text: Optional[str]) -> Optional[int]:
    """
    Count the blank-separated tokens of text made only of digits, signs, points and exponents.

    Normals and texture coordinates are not measured, but their length decides whether
    pycollada keeps a geometry (an index beyond a source drops it): counting is about 20
    times cheaper than parsing. Other text (``nan``, ``inf``, anything else) returns None,
    and is parsed. A token such as ``1.2.3`` would be counted as one number where numpy's
    parser stops early: only a corrupt normal array can be measured differently.
    """
    if not text:
        return 0
    try:
        raw = text.encode('ascii')
    except UnicodeEncodeError:
        return None
    # bytes' own loops in C, a pass each: several times faster than classifying in NumPy
    if raw.translate(None, _NUMBER_BYTES + _BLANK_BYTES):
        return None
    spaced = raw.translate(_BLANK_TO_SPACE).strip(b' ')
    if not spaced:
        return 0
    if b'  ' in spaced:  # blanks in runs: split (rare; exporters write one space)
        return len(spaced.split())
    return spaced.count(b' ') + 1


def _ref(url: Optional[str]) -> str:
    if not url or not url.startswith('#') or len(url) < 2:
        raise Unsupported('a reference that is not a local #id')
    return url[1:]


class _Source:
    """One ``<source>``: its components, and its values when they are parsed."""

    def __init__(self, element: etree._Element, parse: bool = False) -> None:
        self.array = _child(element, 'float_array')
        if self.array is None:
            raise Unsupported('a source without a float_array')
        common = _child(element, 'technique_common')
        accessor = None if common is None else _child(common, 'accessor')
        params = [] if accessor is None else _children(accessor, 'param')
        if not params:
            raise Unsupported('a source without an accessor')
        names = [param.get('name') for param in params]
        self.components = len(names)
        self.stp = names == ['S', 'T', 'P']
        self._values: Optional[np.ndarray] = None
        self._size: Optional[int] = None
        if parse:  # positions: parsed anyway, so not counted first
            self.values()
        if self.length() * self.components != self.size():
            raise Unsupported('a source whose values do not fill its components')

    def values(self) -> np.ndarray:
        if self._values is None:
            self._values = _floats(self.array.text)
        return self._values

    def size(self) -> int:
        """Return how many numbers the array holds, counted without parsing when it can be."""
        if self._size is None:
            counted = None if self._values is not None else _count_numbers(self.array.text)
            self._size = counted if counted is not None else len(self.values())
        return self._size

    def length(self) -> int:
        return self.size() // self.components

    def check(self, components: int, max_index: int) -> None:
        """Refuse what pycollada's checkSource refuses (the geometry would be dropped)."""
        count = self.components if not self.stp else 2
        length = self.length() if not self.stp else self.size() // 3
        if count != components or max_index >= length:
            raise Unsupported('an index beyond its source, or a source of the wrong shape')


class _Primitive:
    """The triangles of one primitive: indices into one position source."""

    def __init__(self, positions: _Source, faces: np.ndarray) -> None:
        self.positions = positions
        self.faces = faces


def _inputs(primitive: etree._Element,
            scope: Dict[str, Union[_Source, Dict[str, _Source]]]) -> Dict[str, List[_Input]]:
    """Gather a primitive's inputs by semantic, a VERTEX input expanded as pycollada does."""
    found: Dict[str, List[_Input]] = {}
    for element in _children(primitive, 'input'):
        try:
            offset = int(element.get('offset'))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise Unsupported('an input without a valid offset')
        if offset < 0:
            raise Unsupported('a negative input offset')
        semantic = element.get('semantic') or ''
        target = scope.get(_ref(element.get('source')))
        if isinstance(target, dict):
            if semantic != 'VERTEX':
                raise Unsupported('an input naming <vertices> other than VERTEX')
            for name, source in target.items():
                found.setdefault('VERTEX' if name == 'POSITION' else name, []).append(
                    (offset, semantic, source))  # type: ignore[arg-type]
        elif target is None:
            raise Unsupported('an input naming a source that does not exist')
        else:
            found.setdefault(semantic, []).append((offset, semantic, target))  # type: ignore
    if 'VERTEX' not in found or 'COLOR' in found:
        raise Unsupported('a primitive without positions, or with vertex colours')
    return found


def _check(inputs: Dict[str, List[_Input]], rows: np.ndarray) -> None:
    """Refuse indices that pycollada refuses; ``rows`` holds one index tuple per row."""
    if rows.size and rows.min() < 0:
        raise Unsupported('a negative index')
    checked = [(inputs['VERTEX'][0], 3)]
    checked += [(item, 3) for item in inputs.get('NORMAL', [])[:1]]
    checked += [(item, 2) for item in inputs.get('TEXCOORD', [])]
    for (offset, _semantic, source), components in checked:
        source.check(components, int(rows[:, offset].max()))


def _triangles(primitive: etree._Element, kind: str,
               scope: Dict[str, Union[_Source, Dict[str, _Source]]]) -> Optional[_Primitive]:
    """Return the triangles of one primitive (None when it holds none)."""
    inputs = _inputs(primitive, scope)
    stride = max(item[0] for items in inputs.values() for item in items) + 1
    if kind == 'polygons':
        pieces = []
        for element in _children(primitive, 'p'):
            if element.text is None:
                raise Unsupported('an empty <p> in <polygons>')
            piece = _ints(element.text)
            if len(piece) % stride:
                raise Unsupported('a polygon with a partial index tuple')
            pieces.append(piece)
        index = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int32)
        counts = np.array([len(piece) // stride for piece in pieces], dtype=np.int64)
    else:
        first = _child(primitive, 'p')
        if first is None:
            raise Unsupported('a primitive without <p>')
        index = _ints(first.text)
        counts = None
        if kind == 'polylist':
            vcount = _child(primitive, 'vcount')
            if vcount is None:
                raise Unsupported('a polylist without <vcount>')
            counts = _ints(vcount.text).astype(np.int64)
    if len(index) == 0:
        return None
    if len(index) % (stride * (3 if counts is None else 1)):
        raise Unsupported('an index list that does not fill its tuples')
    rows = index.reshape(-1, stride)
    _check(inputs, rows)
    vertex = rows[:, inputs['VERTEX'][0][0]].astype(np.int64)
    if counts is None:
        faces = vertex.reshape(-1, 3)
    else:
        if len(counts) == 0 or counts.min() < 3 or int(counts.sum()) != len(rows):
            raise Unsupported('a polygon of fewer than 3 vertices, or a vcount that does '
                              'not match the indices')
        # pycollada's fan: (first, i + 1, i + 2) for each corner i but a polygon's last two.
        ends = np.cumsum(counts)
        starts = ends - counts
        corners = np.ones(len(rows), dtype=bool)
        corners[ends - 1] = False
        corners[ends - 2] = False
        corner = np.flatnonzero(corners)
        first_corner = np.repeat(starts, counts - 2)
        faces = np.stack((vertex[first_corner], vertex[corner + 1], vertex[corner + 2]), 1)
    return _Primitive(inputs['VERTEX'][0][2], faces)


def _geometry(element: etree._Element) -> List[_Primitive]:
    """Read one ``<geometry>`` with a ``<mesh>`` as pycollada would load it."""
    mesh = _child(element, 'mesh')
    scope: Dict[str, Union[_Source, Dict[str, _Source]]] = {}
    vertices = None
    primitives = []
    # The positions are parsed (to be placed); the other sources are only counted.
    positions = {(item.get('source') or '')[1:] for child in mesh  # type: ignore[union-attr]
                 if _local(child.tag) == 'vertices' for item in _children(child, 'input')
                 if item.get('semantic') == 'POSITION'}
    for child in mesh:  # type: ignore[union-attr]
        name = _local(child.tag)
        if name not in _MESH_CHILDREN:
            raise Unsupported(f'<{name}> in a mesh')
        if name == 'source':
            scope[child.get('id') or ''] = _Source(child, (child.get('id') or '') in positions)
        elif name == 'vertices':
            vertices = child
        elif name != 'lines' and name != 'extra':
            primitives.append((child, name))
    if vertices is not None:
        named: Dict[str, _Source] = {}
        for item in _children(vertices, 'input'):
            source = scope.get(_ref(item.get('source')))
            if not item.get('semantic') or not isinstance(source, _Source):
                raise Unsupported('a <vertices> input that names no source')
            named[item.get('semantic', '')] = source
        if not vertices.get('id') or 'POSITION' not in named:
            raise Unsupported('<vertices> without an id or a POSITION')
        scope[vertices.get('id', '')] = named
    read = [_triangles(child, name, scope) for child, name in primitives]
    return [primitive for primitive in read if primitive is not None]


def _transform(element: etree._Element, name: str) -> np.ndarray:
    """Return one transform's float32 matrix, computed as pycollada computes it."""
    if element.text is None:
        raise Unsupported('a transform without numbers')
    values = np.fromstring(element.text, dtype=np.float32, sep=' ')
    if len(values) != {'matrix': 16, 'translate': 3, 'rotate': 4, 'scale': 3}[name]:
        raise Unsupported('a transform with the wrong count of numbers')
    if name == 'matrix':
        return values.reshape(4, 4)
    matrix = np.identity(4, dtype=np.float32)
    if name == 'translate':
        matrix[:3, 3] = values
    elif name == 'scale':
        matrix[0, 0], matrix[1, 1], matrix[2, 2] = values
    else:
        x, y, z, angle = values
        angle = angle * np.pi / 180.0
        c, s = np.cos(angle), np.sin(angle)
        t = 1 - c
        matrix = np.array([[t * x * x + c, t * x * y - s * z, t * x * z + s * y, 0],
                           [t * x * y + s * z, t * y * y + c, t * y * z - s * x, 0],
                           [t * x * z - s * y, t * y * z + s * x, t * z * z + c, 0],
                           [0, 0, 0, 1]], dtype=np.float32)
    return matrix


class _Node:
    """A ``<node>``'s matrix and what it holds: nodes (nested or instanced), geometries."""

    def __init__(self, element: etree._Element, library: Dict[str, etree._Element],
                 geometries: Dict[str, List[_Primitive]]) -> None:
        transforms = []
        self.nodes: List[etree._Element] = []
        self.geometries: List[List[_Primitive]] = []
        for child in element:
            name = _local(child.tag)
            if name in _TRANSFORMS:
                transforms.append(_transform(child, name))
            elif name == 'node':
                self.nodes.append(child)
            elif name == 'instance_node':
                target = library.get(_ref(child.get('url')))
                if target is None:
                    raise Unsupported('an instance_node naming no node of library_nodes')
                self.nodes.append(target)
            elif name == 'instance_geometry':
                geometry = geometries.get(_ref(child.get('url')))
                if geometry is None:
                    raise Unsupported('an instance_geometry naming no mesh geometry')
                self.geometries.append(geometry)
            elif name not in _NODE_IGNORED:
                raise Unsupported(f'<{name}> in a node')
        if not transforms:
            self.matrix = _IDENTITY32
        elif len(transforms) == 1:
            self.matrix = transforms[0]
        else:
            self.matrix = _IDENTITY32
            for transform in transforms:
                self.matrix = np.dot(self.matrix, transform)
        self.instances = 0
        self.triangles = 0


def _unique(elements: List[etree._Element]) -> Dict[str, etree._Element]:
    """Index elements by id, refusing a document where two share one."""
    named = {}
    for element in elements:
        key = element.get('id') or ''
        if key in named:
            raise Unsupported('two elements share an id')
        named[key] = element
    return named


def _count(tops: List[etree._Element], library: Dict[str, etree._Element],
           geometries: Dict[str, List[_Primitive]]) -> Dict[int, _Node]:
    """
    Read every node the scene reaches and count what each expands to, each node once.

    Iterative, and memoised by node: linear in the file, whatever the expansion.
    """
    nodes: Dict[int, _Node] = {}
    active = set()
    stack = [(top, False) for top in tops]
    while stack:
        element, done = stack.pop()
        key = id(element)
        if not done:
            if key in active:
                raise Unsupported('nodes that instance each other in a loop')
            if key in nodes:
                continue
            active.add(key)
            node = _Node(element, library, geometries)
            nodes[key] = node
            stack.append((element, True))
            stack.extend((child, False) for child in node.nodes if id(child) not in nodes
                         or id(child) in active)
            continue
        active.discard(key)
        node = nodes[key]
        for geometry in node.geometries:
            node.instances += len(geometry)
            node.triangles += sum(len(primitive.faces) for primitive in geometry)
        for child in node.nodes:
            if id(child) in active:
                raise Unsupported('nodes that instance each other in a loop')
            node.instances += nodes[id(child)].instances
            node.triangles += nodes[id(child)].triangles
    return nodes


def read_triangles(data: bytes, max_instances: int, max_triangles: int,
                   screened: Optional[dae.Screened] = None) -> Union[Fallback, str, Arrays]:
    """
    Read a COLLADA file's triangles with its node transforms applied.

    Never raises, except MemoryError.

    :param data: the file (:func:`.dae.screen` passed it)
    :param max_instances: most geometry instances (primitives placed) the scene may hold
    :param max_triangles: most triangles the scene may hold
    :param screened: what :func:`.dae.screen` made of ``data`` (parsed again when absent)
    :return: (vertices float64 (n, 3), faces int64 (m, 3)); or why the scene is over the
        budget; or a :class:`Fallback` saying what this reader does not reproduce (or that
        the file is malformed): then read it through trimesh
    """
    try:
        parsed = dae.parse_xml(data) if screened is None else \
            (screened.root, screened.elements)
        read = _read(data, max_instances, max_triangles, *parsed)
    except MemoryError:
        raise
    except Unsupported as exc:
        return Fallback(str(exc))
    except Exception as exc:  # malformed in any way: trimesh's path decides
        return Fallback(f'a file it cannot parse ({type(exc).__name__})')
    return read


def _read(data: bytes, max_instances: int, max_triangles: int, root: etree._Element,
          elements: List[etree._Element]) -> Union[str, Arrays]:
    # The caller holds the list of elements, which keeps their ids unique while this runs.
    # pycollada finds only the elements in the root's namespace.
    namespace = root.tag[:root.tag.find('}') + 1]
    if not namespace.startswith('{') or any(
            not element.tag.startswith(namespace) for element in elements):
        raise Unsupported('elements outside the COLLADA namespace')
    reason = dae.instancing_problem(data, max_instances, max_triangles, elements)
    if reason is not None:
        return reason
    if any(len(child) for child in root if _local(child.tag) in (
            'library_controllers', 'library_animations')):
        raise Unsupported('controllers or animations')
    geometries = {key: _geometry(element) for key, element in _unique(
        [element for library in _children(root, 'library_geometries')
         for element in _children(library, 'geometry')
         if _child(element, 'mesh') is not None]).items()}
    library = _unique([element for nodes in _children(root, 'library_nodes')
                       for element in _children(nodes, 'node')])
    scenes = _unique([element for scenes in _children(root, 'library_visual_scenes')
                      for element in _children(scenes, 'visual_scene')])
    chosen = _child(root, 'scene')
    instance = None if chosen is None else _child(chosen, 'instance_visual_scene')
    scene = None if instance is None else scenes.get(_ref(instance.get('url')))
    if scene is None:
        raise Unsupported('no default scene')
    tops = _children(scene, 'node')
    # pycollada resolves an instance_node in a scene's top-level nodes first, and a
    # library node that cannot be resolved fails the whole load.
    top_ids = {top.get('id') for top in tops}
    for element in root.iter(namespace + 'instance_node'):
        key = _ref(element.get('url'))
        if key not in library or key in top_ids:
            raise Unsupported('an instance_node that library_nodes does not resolve alone')
    nodes = _count(tops, library, geometries)
    if sum(nodes[id(top)].instances for top in tops) > max_instances:
        return f'its scene holds more than {max_instances:,} geometry instances'
    expanded = sum(nodes[id(top)].triangles for top in tops)
    if expanded > max_triangles:
        return (f'its scene holds more than {max_triangles:,} triangles '
                '(geometry instanced many times, or one huge mesh)')
    too_far = amplified(sum(len(primitive.faces) for primitives in geometries.values()
                            for primitive in primitives), expanded)
    if too_far is not None:
        return too_far
    return _place(tops, nodes)


def _place(tops: List[etree._Element], nodes: Dict[int, _Node]) -> Arrays:
    """Place every geometry instance below the top nodes, as trimesh's scene does."""
    vertices: List[np.ndarray] = []
    faces: List[np.ndarray] = []
    positions: Dict[int, np.ndarray] = {}
    offset = 0
    stack = [(top, _EYE) for top in reversed(tops)]
    while stack:
        element, parent = stack.pop()
        node = nodes[id(element)]
        if node.instances == 0:
            continue
        matrix = np.dot(parent, node.matrix)
        identity = np.array_equal(matrix, _EYE)
        for geometry in node.geometries:
            placed: Dict[int, int] = {}
            for primitive in geometry:
                source = id(primitive.positions)
                if source not in placed:
                    if source not in positions:
                        positions[source] = primitive.positions.values().reshape(
                            -1, 3).astype(np.float64)
                    points = positions[source]
                    # The same arithmetic as reading.scene_arrays, so the same numbers.
                    points = (points + 0.0 if identity else
                              points @ matrix[:3, :3].T + matrix[:3, 3])
                    placed[source] = offset
                    vertices.append(points)
                    offset += len(points)
                faces.append(primitive.faces + placed[source])
        stack.extend((child, matrix) for child in reversed(node.nodes))
    if not faces:
        raise Unsupported('a scene that places no triangles')
    result = (np.concatenate(vertices) if len(vertices) > 1 else vertices[0],
              np.concatenate(faces) if len(faces) > 1 else faces[0])
    if not np.all(np.isfinite(result[0])):
        # trimesh drops the triangles of infinite vertices: let it
        raise Unsupported('vertices that are not finite numbers')
    return result
