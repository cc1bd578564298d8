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
The program's imports run without the cyclic collector walking what they make.

Counted with ``gc.callbacks`` in a fresh interpreter running the console script: a check
of a small robot made about 58 collections in the program's process (5 of them of the older
generation), nearly all while NumPy, lxml and this package were imported. With the imports
paused and frozen (:mod:`urdf_link_tools.startup`) it makes a handful. A process that
checks many robots freezes only once, so what later robots leave is still collected.
"""

import gc
import os
import subprocess
import sys

from urdf_link_tools.startup import importing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROGRAM = """
import gc, os, sys
counts = [0, 0]
def count(phase, info):
    if phase == 'start':
        counts[min(info['generation'], 1)] += 1
gc.callbacks.append(count)
real_exit = os._exit
main = os.getpid()
def report(status):
    if os.getpid() == main:
        os.write(2, f'collections {counts[0]} {counts[1]} frozen {gc.get_freeze_count()}\\n'
                 .encode())
    real_exit(status)
os._exit = report
sys.argv = ['urdf-link-tools', 'check', sys.argv[1], '--fail-on', 'never']
from urdf_link_tools.console import run
run()
"""

ROBOT = """<robot name="two">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0"
    iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
  <link name="arm"><inertial><origin xyz="0 0 0.5"/><mass value="1"/><inertia ixx="0.004"
    ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.004"/></inertial>
    <collision><origin xyz="0 0 0.5"/><geometry><sphere radius="0.1"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


def test_a_check_imports_without_walking_the_imports(tmp_path):
    path = tmp_path / 'two.urdf'
    path.write_text(ROBOT)
    done = subprocess.run([sys.executable, '-c', PROGRAM, str(path)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    line = [text for text in done.stderr.splitlines() if text.startswith('collections ')][-1]
    _, young, older, _, frozen = line.split()
    young, older, frozen = int(young), int(older), int(frozen)
    assert older == 0 and young < 20, line
    assert frozen > 20_000, line  # the imported modules' objects


def test_importing_freezes_once_and_leaves_the_collector_as_it_was():
    assert gc.isenabled()
    already = sys.modules['os']  # imported: nothing paused, nothing frozen
    frozen = gc.get_freeze_count()
    with importing('os'):
        assert gc.isenabled()
    assert gc.get_freeze_count() == frozen and already is sys.modules['os']
    with importing('urdf_link_tools_test_not_a_module'):
        assert not gc.isenabled()
        kept = [object() for _ in range(10)]
    assert gc.isenabled() and gc.get_freeze_count() >= frozen + len(kept)
    gc.unfreeze()  # this test process goes on: its objects are collected as before
    gc.disable()
    try:
        with importing('urdf_link_tools_test_not_a_module'):  # the caller's pause is kept
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_program_that_cannot_start_exits_as_an_internal_error():
    # Sweep U: an import error of the command line exited 1, which CI reads as "warnings
    # found" (and passes under --fail-on error); it is an internal error (5).
    import subprocess
    import sys

    from urdf_link_tools.cli import EXIT_INTERNAL
    from urdf_link_tools.console import INTERNAL
    assert INTERNAL == EXIT_INTERNAL
    code = ("import sys; sys.modules['urdf_link_tools.cli'] = None\n"
            'from urdf_link_tools.console import run\n'
            "sys.argv = ['urdf-link-tools', '--version']\n"
            'run()\n')
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == EXIT_INTERNAL, (done.returncode, done.stderr)
    assert done.stderr.startswith('urdf-link-tools: internal error: the program could not '
                                  'start (ModuleNotFoundError: '), done.stderr
    assert 'Traceback' not in done.stderr
