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
Read a robot description from a file, stdin or a string: URDF or xacro.

Reading is bounded (``max_bytes``) so that a huge or endless input (``/dev/zero``) is
refused with a clear error instead of exhausting memory.
"""

import os
import sys
from typing import BinaryIO, Optional, Tuple

from urdf_link_tools.errors import UrdfInputError

DEFAULT_MAX_BYTES = 32 * 1024 * 1024


def read_bounded(stream: BinaryIO, max_bytes: int, what: str) -> bytes:
    """
    Read at most ``max_bytes`` from a stream.

    :param stream: a binary stream
    :param max_bytes: the limit
    :param what: how to name the input in the error
    :return: the bytes read
    :raises UrdfInputError: when the input is larger than the limit
    """
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise UrdfInputError(
            f'{what} is larger than the limit of {max_bytes / 1e6:.1f} MB: '
            'is it really a robot description? (raise the limit if it is)')
    return data


def is_xacro(path: str, data: bytes) -> bool:
    """Decide whether input is xacro: by name, or by the xacro namespace in its head."""
    if path.endswith('.xacro'):
        return True
    return b'ros.org/wiki/xacro' in data[:4096]


def run_xacro(path: str, mappings: Optional[dict] = None) -> str:
    """
    Expand a xacro file with the ``xacro`` package.

    :param path: the .xacro file
    :param mappings: xacro arguments (name -> value)
    :return: the URDF text
    :raises UrdfInputError: when xacro is missing or fails
    """
    try:
        import xacro
    except ImportError:
        raise UrdfInputError(
            f'{path} is a xacro file but the xacro package is not installed: '
            'pip install xacro, or expand it first with `xacro file.xacro > file.urdf`'
        ) from None
    try:
        document = xacro.process_file(path, mappings=mappings or {})
        return document.toxml()
    except Exception as exc:  # xacro raises many types; all mean the same to the user
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UrdfInputError(f'xacro failed on {path}: {message}') from None


def load_description(path: str, max_bytes: int = DEFAULT_MAX_BYTES,
                     stdin: Optional[BinaryIO] = None) -> Tuple[bytes, Optional[str]]:
    """
    Read a URDF or xacro file (``-`` for stdin) and return URDF bytes and the source path.

    :param path: file path, or '-' for standard input
    :param max_bytes: refuse inputs larger than this
    :param stdin: stream to use for '-' (defaults to sys.stdin.buffer)
    :return: (URDF document bytes, absolute source path or None for stdin)
    :raises UrdfInputError: when the input cannot be read
    """
    if path == '-':
        stream = stdin if stdin is not None else sys.stdin.buffer
        return read_bounded(stream, max_bytes, 'standard input'), None
    if not os.path.exists(path):
        raise UrdfInputError(f'{path}: no such file')
    if os.path.isdir(path):
        raise UrdfInputError(f'{path} is a directory, expected a .urdf or .xacro file')
    if not os.path.isfile(path):
        raise UrdfInputError(f'{path} is not a regular file (a device or a pipe?)')
    try:
        with open(path, 'rb') as stream:
            data = read_bounded(stream, max_bytes, path)
    except OSError as exc:
        raise UrdfInputError(f'{path}: cannot read: {exc.strerror}') from None
    source = os.path.abspath(path)
    if is_xacro(path, data):
        text = run_xacro(path)
        return text.encode('utf-8'), source
    return data, source
