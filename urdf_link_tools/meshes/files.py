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
Which mesh files are read, and how much they may hold: decided before any reader is imported.

Nothing here imports NumPy, so a one-robot check can decide which files a reading child
takes (:mod:`.aside`) before this process has loaded the readers.
"""

from __future__ import annotations

import os
import stat
from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple

from urdf_link_tools.limits import MESH_MAX_BYTES
from urdf_link_tools.records import record

#: twice the triangles of the largest binary STL under the default size limit
DEFAULT_MAX_TRIANGLES = 4_000_000
DEFAULT_MAX_INSTANCES = 100_000
#: An instanced scene (COLLADA nodes, glTF nodes sharing a mesh) may expand to at most this
#: many times the triangles its file stores, past INSTANCED_FREE triangles: a part's screws
#: instance a few small geometries tens of times, while 399 triangles instanced 10,000 times
#: (34 KB of COLLADA, under the triangle budget) cost 16 s and 2.3 GB per link.
MAX_AMPLIFICATION = 100
INSTANCED_FREE = 500_000


#: a scene may place at most this many times the geometry instances it writes (nodes
#: instancing nodes), past INSTANCES_FREE: each placed instance is a few NumPy calls, and 24
#: files of 5 KB placing 100,000 each took 87 s and 4.5 GB (sixth red-team review)
INSTANCE_AMPLIFICATION = 20
INSTANCES_FREE = 1000


def instances_amplified(written: int, placed: int) -> Optional[str]:
    """Say why a scene places too many instances of what it writes, or None."""
    if placed <= INSTANCES_FREE or placed <= INSTANCE_AMPLIFICATION * written:
        return None
    return (f'its scene places {placed:,} geometry instances from the {written:,} it writes, '
            f'more than {INSTANCE_AMPLIFICATION} times over (nodes instancing nodes: a scene '
            'built to expand)')


def amplified(stored: int, expanded: int, what: str = 'triangles') -> Optional[str]:
    """Say why a scene expands its stored triangles (or vertices) too far, else None."""
    if expanded <= INSTANCED_FREE or expanded <= MAX_AMPLIFICATION * stored:
        return None
    return (f'its scene instances the {stored:,} {what} it stores into {expanded:,}, more '
            f'than {MAX_AMPLIFICATION} times over (geometry instanced many times: a scene '
            'built to expand)')


def too_many_vertices(vertices: int, max_triangles: int) -> Optional[str]:
    """
    Say why a scene makes too many vertices for its triangle budget, else None.

    A mesh uses at most three vertices a triangle; a primitive may still carry a vast
    vertex array for a few triangles (a 12 MB glTF of one million vertices and four
    triangles, its accessor used by 200 primitives: 22 s, and 17 GB once placed).
    """
    if vertices <= VERTICES_PER_TRIANGLE * max_triangles:
        return None
    return (f'its scene makes more than {VERTICES_PER_TRIANGLE * max_triangles:,} vertices '
            '(three for each triangle of the budget: vertex arrays far larger than the '
            'triangles that use them, or used many times)')


#: the vertices a scene may make for each triangle of its budget
VERTICES_PER_TRIANGLE = 3


def count_below(top: Hashable, parts: Callable[[Any], Tuple[List[Any], Tuple[int, int]]],
                memo: Dict[Hashable, Tuple[int, int]],
                key: Callable[[Any], Hashable] = id) -> Optional[Tuple[int, int]]:
    """
    Count what a node of a scene places below it, each node on each path it is reached by.

    ``parts(node)`` gives the node's children and its own (instances, triangles); the sum
    over the node and everything below, memoised by ``key(node)`` so that the cost is linear
    in the file even where the expansion is exponential (COLLADA nodes instancing nodes, glTF
    nodes with two parents), and iterative (a deep chain must not exhaust Python's
    recursion). None when nodes hold each other in a loop.
    """
    active = set()
    stack = [(top, False)]
    while stack:
        node, done = stack.pop()
        mark = key(node)
        if not done:
            if mark in memo:
                continue
            if mark in active:
                return None
            active.add(mark)
            stack.append((node, True))
            for child in parts(node)[0]:
                if key(child) in active:
                    return None
                if key(child) not in memo:
                    stack.append((child, False))
            continue
        active.discard(mark)
        children, (count, triangles) = parts(node)
        for child in children:
            below = memo.get(key(child))
            if below is None:
                return None
            count += below[0]
            triangles += below[1]
        memo[mark] = (count, triangles)
    return memo.get(key(top))


SUPPORTED = {'.stl': 'stl', '.obj': 'obj', '.dae': 'dae', '.glb': 'glb', '.gltf': 'gltf'}
#: Mesh formats Assimp imports (assimp doc/Fileformats.md), which RViz and MoveIt
#: (geometric_shapes) load: one of them this tool does not read is its own limit, not the
#: file's fault
ASSIMP_FORMATS = frozenset((
    '.3d', '.3ds', '.3mf', '.ac', '.ac3d', '.acc', '.amf', '.ase', '.ask', '.b3d', '.blend',
    '.bvh', '.cob', '.csm', '.dxf', '.enff', '.fbx', '.hmp', '.ifc', '.iqm', '.irr',
    '.irrmesh', '.lwo', '.lws', '.lxo', '.m3d', '.md2', '.md3', '.md5mesh', '.mdc', '.mdl',
    '.mesh', '.ms3d', '.ndo', '.nff', '.off', '.ogex', '.ply', '.pmx', '.prj', '.q3o', '.q3s',
    '.raw', '.scn', '.sib', '.smd', '.stp', '.ter', '.uc', '.vta', '.x', '.x3d', '.xgl',
    '.zgl'))


@record
class Budget:
    """How much a mesh file may hold: bytes on disk, instances and triangles in its scene."""

    max_bytes: int = MESH_MAX_BYTES
    max_triangles: int = DEFAULT_MAX_TRIANGLES
    max_instances: int = DEFAULT_MAX_INSTANCES


def format_limit(size: int) -> str:
    """Format a configured limit (never a file's size) for messages."""
    return f'{size / 1e6:.1f} MB' if size >= 1e6 else f'{size} bytes'


def refusal(path: str, info: os.stat_result, max_bytes: int) -> Optional[str]:
    """Return why a file is not read, judged from its stat, or None."""
    mode = info.st_mode
    if not stat.S_ISREG(mode):
        kind = ('a directory' if stat.S_ISDIR(mode) else
                'a FIFO (named pipe)' if stat.S_ISFIFO(mode) else
                'a character device' if stat.S_ISCHR(mode) else
                'a block device' if stat.S_ISBLK(mode) else
                'a socket' if stat.S_ISSOCK(mode) else 'not a regular file')
        return f'{path} is {kind}, not a mesh file; it was not opened'
    if info.st_size > max_bytes:
        return (f'{path} is larger than the limit of {format_limit(max_bytes)} '
                '(mesh_max_bytes); it was not read')
    return None
