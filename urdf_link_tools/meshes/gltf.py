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
glTF 2.0 (``.gltf`` and ``.glb``) specifics: the budget of a file, and where its buffers come from.

:func:`budget_problem` sums what the header declares (buffers, every accessor's count x element
size, triangles) before trimesh makes any array.

A glTF file may keep its binary data in other files (``"buffers": [{"uri": "x.bin"}]``).
Only the files its buffers name are read, only from the glTF file's own folder (no
``..``, no absolute path, no URL scheme, no symbolic link leading out of the folder), with
the same checks as the mesh itself (regular file, stat before open, non-blocking open)
and one byte budget for the file and all its buffers. Images and other URIs are never
read: materials are skipped. Nothing is fetched over a network.
"""

from __future__ import annotations

import os
import stat
import struct
from typing import Callable, Dict, Hashable, List, Optional, Sequence, Set, Tuple
from urllib.parse import unquote

from urdf_link_tools.meshes.files import (amplified, count_below, DEFAULT_MAX_INSTANCES,
                                          instances_amplified, too_many_vertices)
from urdf_link_tools.read_policy import read_refusal

_GLB_MAGIC = b'glTF'
_JSON_CHUNK = 0x4E4F534A


class BufferRefused(Exception):
    """An external buffer that may not or cannot be read (the message says why)."""


#: the file types read here
FILE_TYPES = ('gltf', 'glb')
#: most primitives a glTF scene may place (node x primitive): trimesh makes a scene-graph
#: entry of each, about 0.1 ms apiece (300 nodes of 300 primitives, a 17 KB file: 11 s)
MAX_PLACED = 10_000


def _object(header: object) -> dict:
    if not isinstance(header, dict):
        raise BufferRefused('its JSON header is not an object')
    return header


#: the most JSON values a glTF header may hold, counted by their separators before it is
#: read: a header names a few thousand nodes and accessors (the data is in buffers); Python
#: makes a 64-byte dict of every 3 bytes of "{}," (a 95 MB file of them: 3.7 GB, tenth
#: red-team review)
JSON_MAX_VALUES = 1_000_000


def read_header(data: bytes, file_type: str) -> dict:
    """
    Return a glTF file's JSON header (a GLB's JSON chunk), read once for every use.

    :raises BufferRefused: when it is not a GLB, has no JSON chunk, holds more than
        :data:`JSON_MAX_VALUES` values or is not an object
    :raises ValueError: when the JSON is not valid (UnicodeDecodeError for bad UTF-8)
    """
    import json  # here: a robot without glTF meshes does not need it (4 ms of imports)
    if file_type == 'gltf':
        text = data
    else:
        if len(data) < 20 or data[:4] != _GLB_MAGIC:
            raise BufferRefused('it is not a binary glTF file (no "glTF" header)')
        length, kind = struct.unpack_from('<II', data, 12)
        if kind != _JSON_CHUNK or 20 + length > len(data):
            raise BufferRefused('its JSON chunk is missing or longer than the file')
        text = data[20:20 + length]
    # Every value but a container's first follows a comma; every container opens with a
    # bracket or a brace (a data: URI's base64 holds none of them)
    values = text.count(b',') + text.count(b'{') + text.count(b'[')
    if values > JSON_MAX_VALUES:
        raise BufferRefused(f'its JSON holds more values than a mesh header needs ({values:,}, '
                            f'more than {JSON_MAX_VALUES:,}): refused before it is read')
    return _object(json.loads(text.decode('utf-8-sig' if file_type == 'gltf' else 'utf-8')))


def buffer_uris(header: dict) -> List[str]:
    """
    Return the external buffer URIs a glTF file names (data: URIs excluded).

    :param header: its :func:`read_header`
    :return: the URIs, as written
    """
    uris = []
    for item in header.get('buffers', []) or []:
        uri = item.get('uri') if isinstance(item, dict) else None
        if isinstance(uri, str) and not uri.startswith('data:'):
            uris.append(uri)
    return uris


#: bytes of one component, by accessor componentType
_COMPONENT_BYTES = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
#: components of one element, by accessor type
_TYPE_COMPONENTS = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4, 'MAT2': 4, 'MAT3': 9,
                    'MAT4': 16}
#: the arrays a loader makes may be this many times the bytes the file declares
DECODE_FACTOR = 4


def _index(value: object, items: Sequence[object]) -> bool:
    """Return True for an index of one of items (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(items)


def _count(item: object, key: str = 'count') -> int:
    value = item.get(key, 0) if isinstance(item, dict) else 0
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BufferRefused(f'an accessor {key} is not a non-negative integer')
    return value


def budget_problem(header: dict, max_bytes: int, max_triangles: int,
                   max_instances: int = DEFAULT_MAX_INSTANCES) -> Optional[str]:
    """
    Say why a glTF file is over the budget, from its header alone, before any array is made.

    trimesh copies every accessor (count x element size, whatever the buffer's size: a
    ``byteStride`` of 1 lets a 1 MB buffer hold a million 12-byte elements) before any
    triangle is counted. So the header's declarations are summed first: buffers (``data:``
    URIs by their decoded size) at most ``max_bytes``; all accessors together at most
    :data:`DECODE_FACTOR` times the declared buffer bytes (plus 1 MiB); triangles at most
    ``max_triangles``.

    :param header: the file's :func:`read_header`
    :param max_bytes: the mesh byte limit (mesh_max_bytes)
    :param max_triangles: the triangle budget
    :return: the reason, or None
    :raises BufferRefused: when the header declares what cannot be counted
    """
    declared = 0
    for item in header.get('buffers', []) or []:
        uri = item.get('uri') if isinstance(item, dict) else None
        length = _count(item, 'byteLength')
        if isinstance(uri, str) and uri.startswith('data:'):
            length = max(length, len(uri) * 3 // 4)
        declared += length
    if declared > max_bytes:
        return (f'its buffers are declared larger than the limit of {max_bytes:,} bytes '
                '(mesh_max_bytes)')
    accessors = header.get('accessors', []) or []
    if not isinstance(accessors, list):
        raise BufferRefused('its accessors are not a list')
    decoded = 0
    bufferless = False
    for item in accessors:
        if not isinstance(item, dict):
            raise BufferRefused('an accessor is not an object')
        # All zeros by the specification, at no cost in the file: 4 million degenerate
        # triangles from 424 bytes (sixth red-team review). No exporter writes one.
        bufferless = bufferless or (item.get('bufferView') is None and _count(item) > 0
                                    and not isinstance(item.get('sparse'), dict))
        size = _COMPONENT_BYTES.get(item.get('componentType'), 4) * \
            _TYPE_COMPONENTS.get(item.get('type'), 16)
        decoded += _count(item) * size
        sparse = item.get('sparse')
        if isinstance(sparse, dict):
            decoded += _count(sparse) * (size + 4)
    if decoded > DECODE_FACTOR * declared + (1 << 20):
        return (f'its accessors would make arrays more than {DECODE_FACTOR} times the size of '
                'its buffers (elements overlapping through a small byteStride, or accessors '
                'without data)')
    if bufferless:
        return 'an accessor has no bufferView (its values would be zeros, not data)'
    triangles = 0
    per_mesh: List[Tuple[int, int]] = []  # (primitives, triangles) of each mesh
    per_mesh_vertices: List[Tuple[int, int]] = []  # (primitives, vertices) of each mesh
    positions: Set[int] = set()
    for mesh in header.get('meshes', []) or []:
        primitives = mesh.get('primitives', []) if isinstance(mesh, dict) else []
        counted = [0, 0, 0]
        for primitive in primitives if isinstance(primitives, list) else []:
            if not isinstance(primitive, dict):
                continue
            counted[0] += 1
            attributes = primitive.get('attributes')
            position = attributes.get('POSITION') if isinstance(attributes, dict) else None
            if _index(position, accessors):
                counted[2] += _count(accessors[position])
                positions.add(position)
            index = primitive.get('indices')
            if index is None:
                index = position
            if _index(index, accessors):
                counted[1] += _count(accessors[index]) // 3
        triangles += counted[1]
        per_mesh.append((counted[0], counted[1]))
        per_mesh_vertices.append((counted[0], counted[2]))
    if triangles > max_triangles:
        return f'its meshes hold more than {max_triangles:,} triangles'
    # Each primitive gets its vertices (trimesh copies them for each): one big position
    # accessor shared by many primitives of a few triangles each is bounded here.
    placed = _scene_instances(header, per_mesh)
    placed_vertices = _scene_instances(header, per_mesh_vertices)
    if placed is None or placed_vertices is None:
        return 'its nodes hold each other in a loop'
    instances, expanded = placed
    max_instances = min(max_instances, MAX_PLACED)
    if instances > max_instances:
        # trimesh adds a scene-graph entry per node and primitive before anything is
        # counted after it: 2,000 nodes of a mesh of 2,000 primitives (115 KB) took 103 s
        # and 5.8 GB (sixth red-team review).
        return (f'its scene places more than {max_instances:,} mesh primitives (nodes '
                'sharing meshes of many primitives)')
    if expanded > max_triangles:
        return (f'its scene places more than {max_triangles:,} triangles (meshes placed by '
                'many nodes)')
    written = sum(1 for node in (header.get('nodes', []) or [])
                  if isinstance(node, dict) and node.get('mesh') is not None)
    # Each primitive gets its vertices (trimesh copies them for each): one big position
    # accessor shared by many primitives of a few triangles each is bounded here too.
    made = sum(vertices for _, vertices in per_mesh_vertices)
    stored = sum(_count(accessors[position]) for position in positions)
    return instances_amplified(written + sum(count for count, _ in per_mesh), instances) or \
        amplified(triangles, expanded) or too_many_vertices(made, max_triangles) or \
        amplified(stored, made, 'vertices') or \
        too_many_vertices(placed_vertices[1], max_triangles) or \
        amplified(made, placed_vertices[1], 'vertices')


def _scene_instances(header: dict, per_mesh: Sequence[Tuple[int, int]]) \
        -> Optional[Tuple[int, int]]:
    """
    Count the primitives and triangles a glTF file's scenes place, each node on each path.

    A node reached twice (by two parents: not a tree, as the specification requires, but
    trimesh follows it) counts twice; memoised by node, so the cost is linear in the file.
    None when nodes hold each other in a loop.
    """
    nodes = header.get('nodes', []) or []
    if not isinstance(nodes, list):
        return 0, 0
    memo: Dict[Hashable, Tuple[int, int]] = {}

    def children(index: int) -> List[int]:
        node = nodes[index] if 0 <= index < len(nodes) else None
        found = node.get('children', []) if isinstance(node, dict) else []
        return [child for child in found if isinstance(child, int)
                and not isinstance(child, bool) and 0 <= child < len(nodes)] \
            if isinstance(found, list) else []

    def parts(index: int) -> Tuple[List[int], Tuple[int, int]]:
        node = nodes[index]
        mesh = node.get('mesh') if isinstance(node, dict) else None
        own = per_mesh[mesh] if isinstance(mesh, int) and not isinstance(mesh, bool) and \
            0 <= mesh < len(per_mesh) else (0, 0)
        return children(index), own

    roots: List[int] = []
    scenes = header.get('scenes', []) or []
    for scene in scenes if isinstance(scenes, list) else []:
        listed = scene.get('nodes', []) if isinstance(scene, dict) else []
        roots += [index for index in listed if isinstance(index, int)
                  and not isinstance(index, bool) and 0 <= index < len(nodes)] \
            if isinstance(listed, list) else []
    if not roots:  # trimesh then places every node that is no other's child
        held = {child for index in range(len(nodes)) for child in children(index)}
        roots = [index for index in range(len(nodes)) if index not in held]
    for root in roots:
        if count_below(root, parts, memo, key=lambda index: index) is None:
            return None
    return (sum(memo[root][0] for root in roots), sum(memo[root][1] for root in roots))


class FolderResolver:
    """
    A trimesh resolver that serves only the named buffers, from the glTF file's folder.

    :param folder: the folder of the glTF file
    :param allowed: the buffer URIs its header names
    :param read: reads one file safely with a byte limit: ``read(path, limit) -> bytes``,
        raising :class:`BufferRefused`
    :param budget: bytes left for all buffers together
    """

    def __init__(self, folder: str, allowed: Set[str],
                 read: Callable[[str, int], bytes], budget: int) -> None:
        self.folder = folder
        self.allowed = allowed
        self._read = read
        self.budget = budget

    def path_of(self, uri: str) -> str:
        """
        Return the file a buffer URI names, or raise why it may not be read.

        :param uri: the buffer's ``uri``
        :return: the path inside the folder
        :raises BufferRefused: outside the folder, a URL, or not a buffer of this file
        """
        if uri not in self.allowed:
            raise BufferRefused(f'{uri!r} is not one of its buffers')
        name = unquote(uri)
        if '\0' in name:
            raise BufferRefused(f'its buffer {uri!r} is not a file name (it holds a NUL)')
        if '://' in name or name.startswith(('/', '\\')) or ':' in name.split('/')[0] or \
                any(part == '..' for part in name.replace('\\', '/').split('/')):
            raise BufferRefused(f'its buffer {uri!r} is not a file next to it (only files '
                                'in its own folder are read)')
        path = os.path.join(self.folder, name)
        if read_refusal(path, [os.path.realpath(self.folder)]) is not None:
            raise BufferRefused(f'its buffer {uri!r} leads out of its folder (a symbolic '
                                'link) or into .git; only files in its own folder are read')
        return path

    def get(self, uri: str) -> bytes:
        """Read one buffer (see :meth:`path_of`), within the remaining byte budget."""
        data = self._read(self.path_of(uri), self.budget)
        self.budget -= len(data)
        return data

    def __getitem__(self, uri: str) -> bytes:
        return self.get(uri)

    def __contains__(self, uri: str) -> bool:
        return uri in self.allowed

    def keys(self) -> List[str]:
        """Return the buffer URIs that may be read."""
        return sorted(self.allowed)

    def namespaced(self, namespace: str) -> 'FolderResolver':
        """Refuse sub-folders: only the glTF file's own folder is served."""
        raise BufferRefused("only files in the glTF file's own folder are read")

    def write(self, name: str, data: bytes) -> None:
        """Refuse writing: loading never writes."""
        raise BufferRefused('the mesh loader may not write files')


def buffer_size_problem(header: dict, data: bytes, file_type: str,
                        resolver: FolderResolver) -> Optional[str]:
    """
    Return why a buffer declares more bytes than it holds, or None.

    :func:`budget_problem` counts what the header declares: a 1 MB GLB declaring a 99 MB
    buffer had trimesh decode 30 accessors of a million points over its real megabyte (456
    MB; 3.1 GB with mesh_max_bytes raised in a pull request's --config: eighth red-team
    review). The specification makes ``byteLength`` the buffer's length (a GLB's binary
    chunk may be padded past it): a buffer holding less is a file no reader can trust.
    Run after :func:`check_buffers` (a side-car buffer is measured by its size on disk).
    """
    for number, item in enumerate(header.get('buffers', []) or []):
        if not isinstance(item, dict):
            continue
        declared = _count(item, 'byteLength')
        uri = item.get('uri')
        held: Optional[int] = None
        if uri is None:
            held = _binary_chunk_size(data) if file_type == 'glb' and number == 0 else 0
        elif isinstance(uri, str) and uri.startswith('data:'):
            meta, _, payload = uri.partition(',')
            held = len(payload.strip()) * 3 // 4 if meta.endswith(';base64') else \
                len(unquote(payload).encode('utf-8', 'surrogatepass'))
        elif isinstance(uri, str):
            try:
                info = os.stat(resolver.path_of(uri))
            except (BufferRefused, OSError, ValueError):
                info = None  # check_buffers says why, or reading it will
            # (a FIFO or a device says 0 bytes: reading it says what it is)
            held = info.st_size if info is not None and stat.S_ISREG(info.st_mode) else None
        if held is not None and declared > held:
            return (f'its buffer {number} declares {declared:,} bytes (byteLength) but holds '
                    f'{held:,}: its accessors could not be trusted to stay within it')
    return None


def _binary_chunk_size(data: bytes) -> int:
    """Return the length of a GLB's binary chunk (after its JSON chunk), 0 if none."""
    if len(data) < 20:
        return 0
    rest = 20 + struct.unpack_from('<I', data, 12)[0]
    if rest + 8 > len(data):
        return 0
    return min(struct.unpack_from('<I', data, rest)[0], len(data) - rest - 8)


def check_buffers(resolver: FolderResolver) -> Optional[str]:
    """Return why a named buffer may not be read, before any is read, or None."""
    for uri in sorted(resolver.allowed):
        try:
            resolver.path_of(uri)
        except BufferRefused as exc:
            return str(exc)
    return None
