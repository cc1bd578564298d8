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

"""Helpers shared by the CLI output tests: run the CLI in-process, a checkout-like folder."""

import io
import pathlib
import shutil
from typing import List, Tuple

from urdf_link_tools.cli import main

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAMPLE = 'samples/sample_robot.urdf'


def run(args: List[str]) -> Tuple[int, str, str]:
    """Run ``urdf-link-tools ARGS`` in this process; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(args, out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def checkout_with_samples(tmp_path: pathlib.Path, monkeypatch) -> pathlib.Path:
    """Make ``tmp_path`` a checkout-like working directory holding samples/ (robot, meshes)."""
    shutil.copytree(ROOT / 'samples', tmp_path / 'samples')
    monkeypatch.chdir(tmp_path)
    return tmp_path
