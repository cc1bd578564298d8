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
STL, binary and ASCII, read with NumPy alone (most robot meshes are STL).

The triangles are trimesh's for every file trimesh reads (tested on the corpus), with its
vertex merge applied (:func:`.integrals.merge_positions`); trimesh itself is not imported
for STL. Binary is recognised as trimesh does (the header's triangle count matches the
file's length); a file that is not, and starts with ``solid``, is ASCII; a binary file with
bytes after its last triangle (some exporters add them) is read as binary, which trimesh
refuses.
"""

from __future__ import annotations

import re
from typing import Optional, Tuple, Union

import numpy as np

from urdf_link_tools.meshes.integrals import merge_positions

_RECORD = np.dtype([('normal', '<f4', (3,)), ('corners', '<f4', (3, 3)),
                    ('attributes', '<u2')])
_HEADER = 84
#: bytes of an ASCII STL parsed at a time (cut at line ends)
ASCII_CHUNK = 4 << 20


def _line_chunks(data: bytes, size: int):
    """Yield (start, end) of pieces of about ``size`` bytes, each ending at a line end."""
    start = 0
    while start < len(data):
        end = data.find(b'\n', min(start + size, len(data)))
        end = len(data) if end < 0 else end + 1
        yield start, end
        start = end


_VERTEX = re.compile(r'vertex[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)', re.IGNORECASE)


def _binary_count(data: bytes) -> Tuple[int, bool]:
    """Return the header's triangle count, and whether the file is exactly that long."""
    if len(data) < _HEADER:
        return 0, False
    count = int.from_bytes(data[80:84], 'little')
    return count, len(data) == _HEADER + _RECORD.itemsize * count


def problem(data: bytes) -> Optional[str]:
    """
    Say why bytes are neither binary nor ASCII STL, before anything parses them.

    The reason never quotes the file's bytes (its header's triangle count) or its size:
    the path may be a link to any file the checker can read.
    """
    count, exact = _binary_count(data)
    if exact or (count > 0 and _HEADER + _RECORD.itemsize * count <= len(data)):
        return None
    if _is_ascii(data):
        return None
    if len(data) >= _HEADER:
        detail = 'as binary STL, its header announces more triangles than the file holds'
    else:
        detail = 'it is shorter than a binary STL header (84 bytes)'
    return f'{detail}, and it is not ASCII STL (which starts with "solid")'


def _is_ascii(data: bytes) -> bool:
    # bytes.isascii scans in C without decoding a copy (problem and read_stl both ask).
    return data[:1024].lstrip()[:5].lower() == b'solid' and data.isascii()


def read_stl(data: bytes, max_triangles: int) -> Union[Tuple[np.ndarray, np.ndarray], str]:
    """
    Read an STL file's triangles, vertices merged.

    :param data: the file (checked by :func:`problem` first)
    :param max_triangles: the most triangles to accept (counted before anything is parsed)
    :return: (vertices (n, 3) float64, faces (m, 3) int64), or why it cannot be read
    """
    count, exact = _binary_count(data)
    binary = exact or not _is_ascii(data)
    if not binary:
        # Counted in C without copying (the file is at most mesh_max_bytes either way).
        # In any case, as the parse reads them ('vErTeX' escaped a count of three spellings).
        count = data.lower().count(b'vertex') // 3
    if count > max_triangles:
        return f'it holds more than {max_triangles:,} triangles'
    if binary:
        corners = np.frombuffer(data, dtype=_RECORD, count=count, offset=_HEADER)['corners']
        vertices = corners.reshape(-1, 3).astype(np.float64)
    else:
        # A chunk of lines at a time: the strings of a whole 95 MB file's matches took 18
        # times its size (1.75 GB).
        chunks = []
        for start, end in _line_chunks(data, ASCII_CHUNK):
            found = _VERTEX.findall(data[start:end].decode('ascii'))
            try:
                chunks.append(np.array(found, dtype=np.float64).reshape(-1, 3))
            except ValueError:
                return 'a vertex of it is not three numbers'
        vertices = np.concatenate(chunks) if chunks else np.zeros((0, 3))
        if len(vertices) % 3:
            return 'its number of vertices is not a multiple of three'
    faces = np.arange(len(vertices), dtype=np.int64).reshape(-1, 3)
    if not np.all(np.isfinite(vertices)):
        return vertices, faces  # the caller refuses non-finite vertices, before merging
    return merge_positions(vertices, faces)
