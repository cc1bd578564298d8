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
The ``urdf-link-tools`` program: what it does before the command line is imported.

A one-robot ``check`` reads its meshes on two cores, this process and a forked child
(:mod:`.meshes.aside`). The child is forked here, before the command line's imports
(argparse, lxml, the model, the reports: about 40 ms, then the parse), so that it imports
NumPy and the mesh readers meanwhile instead of after them (:func:`.aside.start_early`).
The command line gives it the robot's files, or lets it end when there is nothing worth
sharing (no meshes, several robots, ``--jobs 1``); then :func:`.cli.run` runs as always.
"""

from __future__ import annotations

import os
import sys
from typing import Sequence

from urdf_link_tools.startup import importing

#: the exit status of an internal error (cli.EXIT_INTERNAL, which cannot be imported then):
#: a program that cannot start exited 1, "warnings found" for CI (sweep U)
INTERNAL = 5

#: options after which a check never shares reading with a child
_ONE_PROCESS = frozenset(('--no-meshes', '--jobs=1', '-j1', '-h', '--help'))


def run() -> None:
    """Run ``urdf-link-tools`` (the console script), forking a check's reading child first."""
    if _shares_reading(sys.argv[1:]):
        # As cli.main does, before NumPy's import: the threads OpenBLAS starts with it would
        # spin on the cores both processes use (the child's imports took twice as long).
        os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')
        with importing('urdf_link_tools.meshes.aside'):
            from urdf_link_tools.meshes.aside import start_early
        start_early()
    try:
        with importing('urdf_link_tools.cli'):
            from urdf_link_tools.cli import run as run_command
    except Exception as exc:  # noqa: B902 (a broken install: CI must not read it as findings)
        sys.stderr.write(f'urdf-link-tools: internal error: the program could not start '
                         f'({type(exc).__name__}: {str(exc)[:300]}); reinstall it\n')
        sys.exit(INTERNAL)
    run_command()


def _shares_reading(arguments: Sequence[str]) -> bool:
    """Return False for a command line that certainly reads no mesh in a child."""
    if arguments[:1] != ['check']:
        return False
    for before, argument in zip(arguments, arguments[1:]):
        if argument in _ONE_PROCESS or (before in ('--jobs', '-j') and argument == '1'):
            return False
    return True
