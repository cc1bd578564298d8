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
glTF 2.0 (``.gltf`` and ``.glb``) specifics: where external buffers may come from.

A glTF file may keep its binary data in other files (``"buffers": [{"uri": "x.bin"}]``).
Only the files its buffers name are read, only from the glTF file's own folder (no
``..``, no absolute path, no URL scheme, no symbolic link leading out of the folder), with
the same checks as the mesh itself (regular file, stat before open, non-blocking open)
and one byte budget for the file and all its buffers. Images and other URIs are never
read: materials are skipped. Nothing is fetched over a network.
"""

import json
import os
import struct
from typing import Callable, List, Optional, Set
from urllib.parse import unquote

from urdf_link_tools.read_policy import read_refusal

_GLB_MAGIC = b'glTF'
_JSON_CHUNK = 0x4E4F534A


class BufferRefused(Exception):
    """An external buffer that may not or cannot be read (the message says why)."""


def _header(data: bytes, file_type: str) -> dict:
    if file_type == 'gltf':
        return json.loads(data.decode('utf-8-sig'))
    if len(data) < 20 or data[:4] != _GLB_MAGIC:
        raise BufferRefused('it is not a binary glTF file (no "glTF" header)')
    length, kind = struct.unpack_from('<II', data, 12)
    if kind != _JSON_CHUNK or 20 + length > len(data):
        raise BufferRefused('its JSON chunk is missing or longer than the file')
    return json.loads(data[20:20 + length].decode('utf-8'))


def buffer_uris(data: bytes, file_type: str) -> List[str]:
    """
    Return the external buffer URIs a glTF file names (data: URIs excluded).

    :param data: the file
    :param file_type: 'gltf' or 'glb'
    :return: the URIs, as written
    :raises BufferRefused: when the header cannot be read
    :raises ValueError: when the JSON is not valid
    """
    header = _header(data, file_type)
    if not isinstance(header, dict):
        raise BufferRefused('its JSON header is not an object')
    uris = []
    for item in header.get('buffers', []) or []:
        uri = item.get('uri') if isinstance(item, dict) else None
        if isinstance(uri, str) and not uri.startswith('data:'):
            uris.append(uri)
    return uris


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


def check_buffers(resolver: FolderResolver) -> Optional[str]:
    """Return why a named buffer may not be read, before any is read, or None."""
    for uri in sorted(resolver.allowed):
        try:
            resolver.path_of(uri)
        except BufferRefused as exc:
            return str(exc)
    return None
