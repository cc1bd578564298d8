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
Run the real CLI as a hostile pull request would meet it: a child process under limits.

:func:`run_measured` starts ``urdf-link-tools`` under ``prlimit`` (address space) and
``timeout`` through a small Python wrapper that reports the peak resident memory of the CLI
and every process it started (``RUSAGE_CHILDREN``, which includes the xacro child).
"""

import os
import subprocess
import sys
import time
from typing import Dict, List, NamedTuple, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_WRAPPER = (
    'import resource, subprocess, sys\n'
    'status = subprocess.call(sys.argv[2:])\n'
    'with open(sys.argv[1], "w") as stream:\n'
    '    stream.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n'
    'sys.exit(status)\n')


class Measured(NamedTuple):
    """What one run did: status, streams, wall-clock seconds and peak RSS in MiB."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_mib: float


def run_measured(args: List[str], cwd: str = ROOT, env: Optional[Dict[str, str]] = None,
                 limit_s: int = 120, address_space: int = 4 << 30) -> Measured:
    """
    Run ``python -m urdf_link_tools.cli ARGS`` under ``prlimit`` and ``timeout``.

    :param args: the CLI's arguments
    :param cwd: its working directory
    :param env: its environment (default: this one)
    :param limit_s: wall-clock limit
    :param address_space: RLIMIT_AS of the CLI
    :return: the result
    """
    import tempfile
    with tempfile.TemporaryDirectory(prefix='urdf_link_tools_trust_') as work:
        peak_file = os.path.join(work, 'peak')
        command = [sys.executable, '-c', _WRAPPER, peak_file, 'prlimit',
                   f'--as={address_space}', 'timeout', str(limit_s), sys.executable, '-m',
                   'urdf_link_tools.cli', *args]
        started = time.monotonic()
        result = subprocess.run(command, capture_output=True, cwd=cwd,
                                env=env if env is not None else dict(os.environ))
        seconds = time.monotonic() - started
        with open(peak_file) as stream:
            peak_kib = int(stream.read() or 0)
    return Measured(result.returncode, result.stdout.decode('utf-8', 'replace'),
                    result.stderr.decode('utf-8', 'replace'), seconds, peak_kib / 1024)


def package(folder, name: str = 'robot_description') -> None:
    """Make ``folder`` (a pathlib.Path) a ROS package: a minimal package.xml in it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / 'package.xml').write_text(
        f'<?xml version="1.0"?>\n<package format="3"><name>{name}</name><version>0.0.0'
        '</version><description>d</description><maintainer email="a@b.c">a</maintainer>'
        '<license>Apache-2.0</license></package>\n')
