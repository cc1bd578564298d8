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
The pre-commit hook's program: ``urdf-link-tools check``, with the file names kept file names.

pre-commit runs the hook's entry, then its ``args``, then the names of the files it selected,
with no ``--`` between them. A file a pull request commits under the name
``--output=d/x.urdf`` or ``--xacro-allow-dir=x.xacro`` was then read as that option: the
report went elsewhere (and out of the CI log), or a directory outside the repository became
readable. Here the file names are told apart before any option is parsed: the trailing
arguments that name existing ``.urdf`` or ``.xacro`` files (what the hook's ``files`` pattern
selects, and all that pre-commit passes) go after ``--``, where no option is read.
"""

from __future__ import annotations

import os
import re
import sys
from typing import List, Optional, Sequence, Tuple

#: The hook's ``files`` pattern (.pre-commit-hooks.yaml): pre-commit passes only such names.
FILES = re.compile(r'\.(urdf|xacro)$')


def split(arguments: Sequence[str]) -> Tuple[List[str], List[str]]:
    """
    Return (options, file names) of the hook's command line.

    :param arguments: the hook's ``args``, then the file names pre-commit passes
    :return: the options as given, and the trailing names of existing .urdf/.xacro files
    """
    options = list(arguments)
    files: List[str] = []
    while options and FILES.search(options[-1]) and os.path.lexists(options[-1]):
        files.insert(0, options.pop())
    return options, files


def command(arguments: Sequence[str]) -> List[str]:
    """Return the ``urdf-link-tools`` arguments the hook runs."""
    options, files = split(arguments)
    return ['check', '--skip-macro-files', *options, '--', *files]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the check as the pre-commit hook; return its exit status."""
    from urdf_link_tools.cli import main as cli_main
    return cli_main(command(sys.argv[1:] if argv is None else argv))


def run() -> None:
    """Run the hook as a program (the console script ``urdf-link-tools-pre-commit``)."""
    from urdf_link_tools import cli
    sys.argv = [sys.argv[0], *command(sys.argv[1:])]
    cli.run()
