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
Read the triangles of an ordinary glTF 2.0 file with NumPy, as trimesh's loader places them.

Importing trimesh imports SciPy (about 0.45 s of CPU, in each process that reads a mesh):
a robot whose meshes are all GLB (Dexmate's hands and Vega) spent more time importing it
than checking. The files exporters write (triangles, float positions, unsigned indices, a
tree of nodes, the GLB binary chunk or ``data:`` and side-car buffers) are read here into
what :func:`.reading.scene_arrays` makes of trimesh's scene: each primitive's positions
and triangles with the transform of its node (``matrix``, then translation, rotation and
scale, as trimesh composes them). Anything else (another primitive mode, a sparse or
quantised accessor, an extension a primitive needs, cameras, a node with two parents, a
buffer layout other than those) is a :class:`Fallback`: trimesh reads the file as before,
so its answer (or its failure) is unchanged. Buffers come only through the
:class:`~.gltf.FolderResolver` the caller gives, as trimesh's did.
"""

from __future__ import annotations

import math
import struct
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from urdf_link_tools.meshes.gltf import BufferRefused, FolderResolver

#: a placed primitive: (its node's transform to the file's frame, vertices, faces)
Placed = Tuple[np.ndarray, np.ndarray, np.ndarray]

_BIN_CHUNK = 0x004E4942
_TRIANGLES = 4
_FLOAT = 5126
#: index component types: unsigned byte, short and int (little-endian)
_INDEX_TYPES = {5121: '<u1', 5123: '<u2', 5125: '<u4'}


class Fallback(NamedTuple):
    """What this reader leaves to trimesh, and why (for the debug log)."""

    reason: str


class _Leave(Exception):
    """The file is not one this reader reproduces (the message says why)."""


def read_placed(header: dict, data: bytes, file_type: str, resolver: FolderResolver) \
        -> Union[List[Placed], Fallback]:
    """
    Return a glTF file's primitives placed by their nodes, or a :class:`Fallback`.

    :param header: the file's :func:`.gltf.read_header`
    :param data: the file (its budget already checked by :func:`.gltf.budget_problem`)
    :param file_type: 'gltf' or 'glb'
    :param resolver: serves the side-car buffers its header names
    :return: [(transform (4, 4), vertices (n, 3) float64, faces (m, 3) int64)], in no
        particular order, or why trimesh reads the file instead
    :raises BufferRefused: a side-car buffer that may not be read (as through trimesh)
    """
    try:
        chunk = _binary_chunk(header, data, file_type)
        buffers = _buffers(header, chunk, file_type, resolver)
        return _place(header, buffers)
    except _Leave as exc:
        return Fallback(str(exc))
    except BufferRefused:
        raise
    except MemoryError:
        raise
    except Exception as exc:  # noqa: B902 (malformed: trimesh says how, as before)
        return Fallback(f'an entry it cannot use ({type(exc).__name__})')


def _binary_chunk(header: dict, data: bytes, file_type: str) -> Optional[bytes]:
    """
    Return a GLB's binary chunk (None for .gltf, or none there).

    The header was read by :func:`.gltf.read_header`, which found the GLB magic and its
    JSON chunk first, within the file.
    """
    if header.get('extensionsRequired'):
        raise _Leave('extensions it requires')
    if file_type == 'gltf':
        return None
    version, _, length = struct.unpack_from('<III', data, 4)
    if version != 2:
        raise _Leave('a GLB version other than 2')
    rest = 20 + length
    if rest + 8 > len(data):
        return None
    size, kind = struct.unpack_from('<II', data, rest)
    if kind != _BIN_CHUNK or rest + 8 + size > len(data):
        raise _Leave('a chunk after the JSON other than the binary one')
    return data[rest + 8:rest + 8 + size]


def _buffers(header: dict, chunk: Optional[bytes], file_type: str,
             resolver: FolderResolver) -> List[bytes]:
    """Return the bytes of each buffer: a GLB's chunk, ``data:`` URIs and side-car files."""
    found: List[bytes] = []
    for item in header.get('buffers', []):
        uri = item.get('uri')
        if uri is None:
            # trimesh gives a GLB's chunk to buffers as they come, URIs first: one
            # buffer without a URI, and it the only one, is the layout read here
            if file_type != 'glb' or chunk is None or len(header['buffers']) != 1:
                raise _Leave('a buffer layout other than one binary chunk')
            found.append(chunk)
        elif not isinstance(uri, str):
            raise _Leave('a buffer URI that is not text')
        elif file_type == 'glb':
            raise _Leave('a binary glTF file with buffers named by URI')
        else:
            index = uri.find('base64,')
            if index >= 0:
                import base64
                import binascii
                try:
                    found.append(base64.b64decode(uri[index + 7:]))
                except binascii.Error:
                    raise _Leave('a data: URI that is not base64') from None
            else:
                found.append(resolver.get(uri))
    return found


def _views(header: dict, buffers: Sequence[bytes]) -> List[bytes]:
    views = []
    for view in header.get('bufferViews', []):
        start = view.get('byteOffset', 0)
        end = start + view['byteLength']
        part = buffers[view['buffer']][start:end]
        if len(part) != view['byteLength'] or start < 0:
            raise _Leave('a buffer view beyond its buffer')
        views.append(part)
    return views


def _accessor(header: dict, views: Sequence[bytes], index: object, dtype: str,
              columns: int) -> np.ndarray:
    """Return an accessor's elements as trimesh reads them, or leave (another kind)."""
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise _Leave('an accessor index that is not one')
    item = header['accessors'][index]
    if 'sparse' in item or 'bufferView' not in item or item.get('normalized'):
        raise _Leave('a sparse, bufferless or normalised accessor')
    count = item['count']
    data = views[item['bufferView']]
    view = header['bufferViews'][item['bufferView']]
    start = item.get('byteOffset', 0)
    element = np.dtype(dtype)
    row = element.itemsize * columns
    stride = view.get('byteStride', row)
    if not (isinstance(count, int) and isinstance(start, int) and isinstance(stride, int)) \
            or count < 0 or start < 0 or stride <= 0:
        raise _Leave('an accessor layout it cannot use')
    if count == 0:
        return np.zeros((0, columns), dtype=element)
    length = (count - 1) * stride + row
    if start + length > len(data):
        raise _Leave('an accessor beyond its buffer view')
    raw = np.frombuffer(data, dtype=np.uint8, count=length, offset=start)
    rows = np.lib.stride_tricks.as_strided(raw, (count, row), (stride, 1))
    return np.ascontiguousarray(rows).view(element).reshape(count, columns)


def _primitives(header: dict, views: Sequence[bytes]) -> List[List[Tuple[np.ndarray,
                                                                         np.ndarray]]]:
    """Return each mesh's triangle primitives as (vertices float64, faces int64)."""
    accessors = header.get('accessors', [])
    decoded: Dict[Tuple[object, str], np.ndarray] = {}

    def read(index: object, dtype: str, columns: int) -> np.ndarray:
        # once per accessor: primitives sharing one share its array (as trimesh's do)
        key = (index, dtype)
        if key not in decoded:
            found = _accessor(header, views, index, dtype, columns)
            if columns == 1:
                if len(found) % 3:
                    raise _Leave('indices that are not whole triangles')
                decoded[key] = found.astype(np.int64).reshape(-1, 3)
            else:
                decoded[key] = found.astype(np.float64)
        return decoded[key]

    meshes = []
    for mesh in header.get('meshes', []):
        parts = []
        for primitive in mesh['primitives']:
            if primitive.get('mode', _TRIANGLES) != _TRIANGLES or primitive.get('extensions'):
                raise _Leave('a primitive other than plain triangles')
            position = primitive['attributes']['POSITION']
            if accessors[position].get('componentType') != _FLOAT or \
                    accessors[position].get('type') != 'VEC3':
                raise _Leave('positions that are not three floats')
            vertices = read(position, '<f4', 3)
            if 'indices' in primitive:
                kind = accessors[primitive['indices']]
                if kind.get('componentType') not in _INDEX_TYPES or \
                        kind.get('type') != 'SCALAR':
                    raise _Leave('indices that are not unsigned integers')
                faces = read(primitive['indices'], _INDEX_TYPES[kind['componentType']], 1)
            elif len(vertices) % 3:
                raise _Leave('vertices that are not whole triangles')
            else:
                faces = np.arange(len(vertices), dtype=np.int64).reshape(-1, 3)
            if len(faces) and int(faces.max()) >= len(vertices):
                raise _Leave('indices beyond its vertices')
            parts.append((vertices, faces))
        meshes.append(parts)
    return meshes


def _place(header: dict, buffers: Sequence[bytes]) -> List[Placed]:
    """Place every mesh primitive by the transforms of the nodes above it."""
    if 'scenes' not in header:
        raise _Leave('no scene')
    nodes = header.get('nodes', [])
    meshes = _primitives(header, _views(header, buffers))
    roots = header['scenes'][header.get('scene', 0)].get('nodes', [])
    placed: List[Placed] = []
    seen: Dict[int, bool] = {}
    stack = [(int(root), np.eye(4)) for root in roots]
    while stack:
        index, above = stack.pop()
        if not (0 <= index < len(nodes)) or index in seen:
            raise _Leave('a node listed twice, or not one')  # trimesh's graph is a tree
        seen[index] = True
        node = nodes[index]
        if 'camera' in node:
            raise _Leave('a camera node')
        transform = above @ _local(node)
        if 'mesh' in node:
            mesh = node['mesh']
            if not isinstance(mesh, int) or isinstance(mesh, bool) or \
                    not 0 <= mesh < len(meshes):
                raise _Leave('a node whose mesh is not one')
            for vertices, faces in meshes[mesh]:
                placed.append((transform, vertices, faces))
        stack.extend((int(child), transform) for child in node.get('children', []))
    return placed


def _local(node: dict) -> np.ndarray:
    """Return a node's transform: its matrix, then translation, rotation and scale."""
    if 'matrix' in node:
        matrix = np.array(node['matrix'], dtype=np.float64).reshape((4, 4)).T
    else:
        matrix = np.eye(4)
    if 'translation' in node:
        moved = np.eye(4)
        moved[:3, 3] = np.array(node['translation'], dtype=np.float64).reshape(3)
        matrix = matrix @ moved
    if 'rotation' in node:
        matrix = matrix @ _quaternion_matrix(node['rotation'])
    if 'scale' in node:
        matrix = matrix @ np.diag(np.concatenate(
            (np.array(node['scale'], dtype=np.float64).reshape(3), [1.0])))
    return matrix


def _quaternion_matrix(xyzw: object) -> np.ndarray:
    """Return the rotation of a glTF quaternion (x, y, z, w) as trimesh makes it."""
    x, y, z, w = (float(value) for value in np.reshape(xyzw, 4))
    norm = w * w + x * x + y * y + z * z
    if norm < np.finfo(float).eps * 4.0:
        return np.eye(4)
    scale = math.sqrt(2.0 / norm)
    w, x, y, z = w * scale, x * scale, y * scale, z * scale
    q = np.outer((w, x, y, z), (w, x, y, z))
    return np.array([
        [1.0 - q[2, 2] - q[3, 3], q[1, 2] - q[3, 0], q[1, 3] + q[2, 0], 0.0],
        [q[1, 2] + q[3, 0], 1.0 - q[1, 1] - q[3, 3], q[2, 3] - q[1, 0], 0.0],
        [q[1, 3] - q[2, 0], q[2, 3] + q[1, 0], 1.0 - q[1, 1] - q[2, 2], 0.0],
        [0.0, 0.0, 0.0, 1.0]])
