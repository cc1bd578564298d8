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
Self-collision between a robot's links, with the coal collision library.

- :mod:`.configurations`: MoveIt's default and random joint states, forward kinematics of
  many states at once (mimic joints followed).
- :mod:`.bodies`: each link's collision elements as coal geometries (meshes as BVHs of the
  triangles the checker reads), with a bounding sphere.
- :mod:`.adjacency`: MoveIt Setup Assistant's adjacent links.
- :mod:`.matrix`: the collision matrix (Adjacent, Default, Always, Never).
- :mod:`.overlap`: links in collision at the default state, with depth and place.
- :mod:`.srdf`: writing the matrix as SRDF, merged into an existing one.

coal is imported on first use only; without it these raise
:class:`~.bodies.CollisionLibraryMissing`.
"""

#: random states of the Never test, and their seed (imported without NumPy by the command line)
DEFAULT_SAMPLES = 10_000
DEFAULT_SEED = 0
#: the most links of a robot whose states are sampled, by the command line and the node: each
#: state places every link (128 bytes a link and state, 200 states at a time for the Always
#: test; about 1 s a million placements)
MAX_PLACED_LINKS = 5000
