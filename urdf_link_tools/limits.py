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
The size limits every reader shares, each defined once.

They bound what a hostile or broken input can make the tool read or hold: a description
(URDF, xacro expansion, a file a suppression comment is read from) and a mesh file. The node's
parameters and the CLI's flags default to them.
"""

import reprlib
from typing import Any

#: Largest robot description read (a URDF file or stream, a xacro expansion, a file xacro
#: includes or loads): 32 MiB, far above the largest published URDF.
DESCRIPTION_MAX_BYTES = 32 * 1024 * 1024

#: Largest SRDF read (``--srdf``, robot_description_semantic): a big robot's disables a few
#: thousand pairs in a few hundred kilobytes; 28.8 MB of pairs cost the node 745 MB (tenth
#: red-team review).
SRDF_MAX_BYTES = 8 * 1024 * 1024

#: Largest mesh file opened (``mesh_max_bytes``): 100 MB.
MESH_MAX_BYTES = 100_000_000
#: the most ``mesh_max_bytes`` may be raised to: a pull request's ``--config`` raising it to
#: 1e11 let a 1 MB glTF declare buffers worth 3.1 GB of arrays (eighth red-team review)
MESH_MAX_BYTES_CEILING = 1_000_000_000

#: the most links a robot may have: a description of 700,000 empty links (15 MB) cost 35 s
#: and 1.2 GB, one at the byte limit about 75 s and 2.6 GB (eighth red-team review); the
#: largest robot published has a few hundred
ROBOT_MAX_LINKS = 50_000

#: How much of a refused setting a message quotes: YAML aliases make a few hundred bytes a
#: structure of billions of items (shared, so cheap to load, not to print: 7 GB and 49 s
#: for a 900-byte parameter file before).
_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxlist, _SHOWN.maxtuple, _SHOWN.maxdict = 2, 6, 6, 6
_SHOWN.maxstring, _SHOWN.maxother, _SHOWN.maxlong = 100, 100, 40


def shown(value: Any) -> str:
    """Return a value as a message quotes it: its repr, bounded in depth, items and length."""
    return _SHOWN.repr(value)
