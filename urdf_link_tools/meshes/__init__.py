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
Resolve and load the mesh files a URDF refers to, safely, with a shared bounded cache.

- :mod:`.resolve`: ``package://``, ``file://`` and paths to files, as ROS does.
- :mod:`.reading`: safe reading (stat before open, size limits, no devices or pipes) and
  the formats trimesh reads (STL, OBJ, DAE, glTF, GLB), scenes flattened under a budget;
  :mod:`.dae` and :mod:`.gltf` hold what is particular to those formats.
- :mod:`.solid`: volume, centre and inertia of what a mesh encloses, only from a surface
  that can be trusted, measured once and scaled analytically.
- :mod:`.library`: :class:`MeshLibrary` and its cache, :class:`MeshInfo` per use.
- :mod:`.files`: which files are read and how much they may hold; :mod:`.aside`: sharing
  a robot's files with a forked reading child (:mod:`.elsewhere`). These three import no
  NumPy: a one-robot check forks the child before it imports NumPy, coal and the checks.

trimesh (and SciPy, which it imports) are imported only when a mesh is read or measured:
a robot made of primitives never loads them.
"""

from __future__ import annotations

import importlib
from typing import Any

from urdf_link_tools.limits import MESH_MAX_BYTES

#: name -> the module defining it: imported when the name is first asked for, so that
#: importing a numpy-free part of this package (:mod:`.aside`, :mod:`.files`,
#: :mod:`.resolve`) does not load NumPy and the readers
_EXPORTS = {
    'collada_fallbacks': 'library', 'DEFAULT_CACHE_BYTES': 'library', 'MeshInfo': 'library',
    'MeshLibrary': 'library', 'MeshResult': 'library', 'Scale': 'library',
    'DEFAULT_MAX_INSTANCES': 'files', 'DEFAULT_MAX_TRIANGLES': 'files',
    'MeshProblem': 'reading', 'SUPPORTED': 'files', 'MeshResolution': 'resolve',
}

__all__ = ['collada_fallbacks', 'DEFAULT_CACHE_BYTES', 'DEFAULT_MAX_INSTANCES',
           'DEFAULT_MAX_TRIANGLES', 'MESH_MAX_BYTES', 'MeshInfo', 'MeshLibrary', 'MeshProblem',
           'MeshResolution', 'MeshResult', 'Scale', 'SUPPORTED']


def __getattr__(name: str) -> Any:
    """Import the module defining ``name`` on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    value = getattr(importlib.import_module(f'{__name__}.{module}'), name)
    globals()[name] = value
    return value
