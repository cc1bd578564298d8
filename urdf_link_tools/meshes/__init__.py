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

trimesh (and SciPy, which it imports) are imported only when a mesh is read or measured:
a robot made of primitives never loads them.
"""

from urdf_link_tools.limits import MESH_MAX_BYTES
from urdf_link_tools.meshes.library import (collada_fallbacks, DEFAULT_CACHE_BYTES, MeshInfo,
                                            MeshLibrary, MeshResult, Scale)
from urdf_link_tools.meshes.reading import (DEFAULT_MAX_INSTANCES, DEFAULT_MAX_TRIANGLES,
                                            MeshProblem, SUPPORTED)
from urdf_link_tools.meshes.resolve import MeshResolution

__all__ = ['collada_fallbacks', 'DEFAULT_CACHE_BYTES', 'DEFAULT_MAX_INSTANCES',
           'DEFAULT_MAX_TRIANGLES', 'MESH_MAX_BYTES', 'MeshInfo', 'MeshLibrary', 'MeshProblem',
           'MeshResolution', 'MeshResult', 'Scale', 'SUPPORTED']
