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

r"""
The output boundary: nothing a description wrote reaches a terminal or a CI log as a command.

Names, file names, messages and relayed xacro text come from the pull request. CI runners read
stdout and stderr for commands (GitHub: a line starting with ``::``, after leading blanks, and
the legacy ``##[...]`` anywhere in a line), and terminals obey control sequences (ANSI/OSC:
clear screen, fake hyperlinks, window titles) and bidi overrides reorder what is shown. So
every output passes :func:`neutralise` once, at the boundary:

- C0 controls but tab and newline, DEL, C1 controls, bidi and line-separator characters
  (U+061C, U+200E/F, U+2028/9, U+202A-U+202E, U+2066-U+2069) and U+FEFF are shown escaped:
  ``\x1b``, ``\x85``, ``\u202e`` in the ``'text'`` style, ``\u001b`` in the ``'json'``
  style (the same character to a JSON reader: JSON output keeps its meaning and validity);
- ``##[`` (GitHub's legacy commands), ``##vso[`` (Azure Pipelines) and ``##teamcity[``
  (TeamCity), in any case, end in ``\x5b`` instead of ``[`` (``\u005b`` in JSON);
- in the ``'text'`` style, a line whose first non-blank characters are ``::`` starts with
  ``\x3a:`` instead.

How a format uses it (the registry does the work): :func:`urdf_link_tools.reports.render`
passes what a format module's ``render(run)`` returns through
``neutralise(text, module.OUTPUT)``. ``OUTPUT`` defaults to ``'text'``, right for every
line-based format (text, markdown, HTML, JUnit XML: the escapes are plain ASCII, and XML may
not hold C0 controls anyway). A JSON format (JSON, SARIF, JSON Lines) sets ``OUTPUT = 'json'``.
A format that prints workflow commands itself (``github``) sets ``OUTPUT = 'commands'``: its
command lines are kept, so it escapes each value with the Actions toolkit's rules and passes
every other line it prints through :func:`guard_line_starts`. The CLI writes everything else
(``info``, notes, relayed xacro messages, errors, log records) through :class:`NeutralStream`.
"""

from __future__ import annotations

import errno
import os
import re
from typing import IO, Optional, TextIO

#: Output styles: how escapes are spelled and whether line starts are guarded.
STYLES = ('text', 'json', 'commands')

_UNSAFE = re.compile('[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029'
                     '\u202a-\u202e\u2066-\u2069\ufeff]|##(?:vso|teamcity)?\\[',
                     re.IGNORECASE)
_COMMAND_START = re.compile(r'^(\s*):(?=:)', re.MULTILINE)


def _text_escape(match: 're.Match[str]') -> str:
    found = match.group(0)
    if found.startswith('##'):
        return found[:-1] + '\\x5b'
    code = ord(found)
    return f'\\x{code:02x}' if code < 0x100 else f'\\u{code:04x}'


def _json_escape(match: 're.Match[str]') -> str:
    found = match.group(0)
    return found[:-1] + '\\u005b' if found.startswith('##') else f'\\u{ord(found):04x}'


def one_line(text: str) -> str:
    r"""
    Return text that a description wrote as one line: its line feeds shown as ``\n``.

    A link named ``x&#10;ssh-ed25519 AAAA...`` made a line of its own in the text report,
    which a symbolic link planted as the output file put into ``authorized_keys``. (The
    other line breaks are escaped by :func:`neutralise` everywhere.)
    """
    return text.replace('\n', '\\n')


def guard_line_starts(text: str) -> str:
    r"""
    Keep any line of ``text`` from starting (after blanks) with ``::``, a workflow command.

    :param text: one or more lines
    :return: the text, with such a line's first ``:`` shown as ``\x3a``
    """
    # \s is Unicode-aware, as the runner's trim is (a no-break space does not hide it).
    return _COMMAND_START.sub(lambda match: match.group(1) + '\\x3a', text)


def neutralise(text: str, style: str = 'text') -> str:
    """
    Make output safe for terminals and CI logs (see the module documentation).

    :param text: what a format rendered, or a line the CLI prints
    :param style: 'text', 'json' (escapes valid inside JSON strings) or 'commands'
        (escapes as 'text', but lines starting with ``::`` are the format's own commands)
    :return: the neutralised text; neutralising it again changes nothing
    :raises ValueError: for an unknown style
    """
    if style not in STYLES:
        raise ValueError(f'unknown output style {style!r}')
    text = _UNSAFE.sub(_json_escape if style == 'json' else _text_escape, text)
    return guard_line_starts(text) if style == 'text' else text


class NeutralStream:
    """
    A text stream that neutralises (``'text'`` style) everything written to it.

    :param stream: the stream written to (stderr, or stdout for ``info`` and notes)
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` neutralised; return the length of ``text`` as given."""
        self.stream.write(neutralise(text))
        return len(text)

    def flush(self) -> None:
        """Flush the underlying stream."""
        self.stream.flush()


def linked_folder(path: str) -> Optional[str]:
    """
    Return the folder of an output path that is a symbolic link of a checkout, else None.

    O_NOFOLLOW guards the file's own name only: a pull request that commits ``reports`` as a
    link to a folder elsewhere had ``-o reports/report.txt`` written there, and so had
    ``-o ../reports/report.txt`` from a job working in a package folder. A linked folder on
    the way is refused when it lies below the working directory or in a git work tree or a
    ROS package (what a pull request can commit); others (the runner's own, a /tmp that is a
    link) are not the checkout's. The path is walked as given: ``..`` after a link is taken
    from the link's target, as the system does, so the link itself is what is judged.

    :return: the first such linked folder, as named (below the working directory: relative
        to it); None if none
    """
    from urdf_link_tools.read_policy import enclosing
    here = working_directory()
    given = path if os.path.isabs(path) else os.path.join(here, path)
    current = os.sep
    for part in given.split(os.sep)[:-1]:
        if part in ('', '.'):
            continue
        current = os.path.join(current, part)
        if part == '..' or not os.path.islink(current):
            continue
        named = os.path.normpath(current)
        below = named.startswith(here.rstrip(os.sep) + os.sep)
        holder = os.path.realpath(os.path.dirname(current))
        if below or enclosing(os.path.join(holder, '-'), ('.git', 'package.xml')) is not None:
            return os.path.relpath(named, here) if below else named
    return None


def working_directory() -> str:
    """
    Return the working directory as the job named it (``$PWD``) when that is where it is.

    ``os.getcwd()`` is the physical folder: a job whose working directory is a folder a pull
    request committed as a link (``working-directory: my_robot_description``, a link to
    ``../victim``) is already past that link, which the walks here must see.
    """
    here = os.getcwd()
    logical = os.environ.get('PWD', '')
    if logical and logical != here and os.path.isabs(logical):
        try:
            if os.path.samefile(logical, here):
                return os.path.normpath(logical)
        except OSError:
            pass
    return here


def linked_input_folder(folder: str) -> Optional[str]:
    """
    Return a folder given to read from (a package) that is, or lies in, a link of the checkout.

    ``--package-dir NAME=src/NAME`` makes the folder a root the xacro sandbox and the mesh
    reader may read under: a pull request that commits ``src/NAME`` as a link to ``/`` had
    any YAML or XML file of the runner read into the report. The same test as
    :func:`linked_folder`, with the folder itself on the path.

    :return: the first such linked folder, as named; None if none
    """
    return linked_folder(os.path.join(folder, '-'))


def linked_output(path: str) -> Optional[str]:
    """Return why an output path is never written (a link, or in a linked folder), or None."""
    if os.path.islink(path):
        return LINKED_OUTPUT
    folder = linked_folder(path)
    if folder is not None:
        return (f'its folder {folder} is a symbolic link of the checkout (below the working '
                'directory, or in a repository or package), which is never written through '
                '(name a real folder)')
    return None


#: why an output path that is a symbolic link is refused
LINKED_OUTPUT = 'it is a symbolic link, which is never written through (name the file itself)'


def open_output(path: str, binary: bool = False) -> IO:
    """
    Open a file to write a report, an expansion or a fixed URDF to, never through a link.

    Output paths are CI's, but they land in a checkout a pull request wrote: a symbolic link
    committed as ``report.txt`` made the report overwrite whatever file it pointed to (a
    runner's ``authorized_keys``). A symbolic link (the last part of the path) is refused,
    as is a FIFO nobody reads (the write would wait forever).

    :param path: the file to write (created, or emptied)
    :param binary: bytes, else UTF-8 text with newlines written as given
    :raises OSError: with a ``strerror`` that says why it was refused
    """
    refused = linked_output(path)  # said before anything is opened (O_NOFOLLOW refuses too)
    if refused is not None:
        raise OSError(errno.ELOOP, refused, path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, 'O_NOFOLLOW', 0) | \
        getattr(os, 'O_NONBLOCK', 0)
    try:
        descriptor = os.open(path, flags, 0o666)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(exc.errno, LINKED_OUTPUT, path) from None
        if exc.errno == errno.ENXIO:
            raise OSError(exc.errno, 'it is a FIFO that nothing reads', path) from None
        raise
    if hasattr(os, 'set_blocking'):
        os.set_blocking(descriptor, True)
    if binary:
        return os.fdopen(descriptor, 'wb')
    return os.fdopen(descriptor, 'w', encoding='utf-8', errors='backslashreplace', newline='')
