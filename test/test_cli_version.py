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

"""urdf-link-tools --version: the version package.xml and setup.py release."""

import os
import re
import subprocess
import sys

from urdf_link_tools import __version__

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_version_is_printed_and_is_the_released_one():
    # A new user's first command (2026-11-30) was a usage error (exit 4).
    done = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli', '--version'],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f'urdf-link-tools {__version__}\n'
    with open(os.path.join(ROOT, 'package.xml'), encoding='utf-8') as stream:
        (released,) = re.findall(r'<version>([^<]+)</version>', stream.read())
    with open(os.path.join(ROOT, 'setup.py'), encoding='utf-8') as stream:
        (packaged,) = re.findall(r"\bversion='([^']+)'", stream.read())
    assert __version__ == released == packaged
