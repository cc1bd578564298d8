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
The ``urdf-link-tools`` program forks a check's reading child before its own imports.

Every case runs in a fresh interpreter (a child is forked only from a process with one
thread). The program's findings must be those of one process, a child it did not use must
end without holding the program's output, and a child that died must leave the reading to
the program.
"""

import json
import os
import subprocess
import sys

import corpus
import pytest
from urdf_link_tools.console import _shares_reading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: The console script, with each fork, each hand-over and each release written to stderr as
#: a JSON line, and the last fork's child killed before its hand-over when asked ('kill').
PROGRAM = """
import json, os, signal, sys
from urdf_link_tools.meshes import elsewhere
def say(**event):
    os.write(2, (json.dumps(event) + '\\n').encode())
fork = os.fork
def traced_fork():
    pid = fork()
    if pid:
        say(event='fork', cli='urdf_link_tools.cli' in sys.modules,
            numpy='numpy' in sys.modules, pid=pid)
    return pid
os.fork = traced_fork
give, release = elsewhere.Waiting.give, elsewhere.Waiting.release
def traced_give(self, calls):
    if os.environ.get('EARLY_TEST') == 'kill':
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
    child = give(self, calls)
    say(event='give', files=len(calls[0][0]), child=child is not None)
    return child
def traced_release(self):
    say(event='release')
    release(self)
elsewhere.Waiting.give, elsewhere.Waiting.release = traced_give, traced_release
start = elsewhere.start
def traced_start(function, calls):
    say(event='start', function=function.__name__)
    return start(function, calls)
elsewhere.start = traced_start
sys.argv[0] = 'urdf-link-tools'
from urdf_link_tools.console import run
run()
"""


def _program(*arguments: str, mode: str = ''):
    """Run the console script; return its stdout and the events it said."""
    done = subprocess.run(
        [sys.executable, '-c', PROGRAM, *arguments], capture_output=True, text=True,
        timeout=300, cwd=ROOT, env=dict(os.environ, EARLY_TEST=mode))
    assert done.returncode in (0, 1, 2), done.stderr[-3000:]
    events = [json.loads(line) for line in done.stderr.splitlines() if line.startswith('{')]
    return done.stdout, events


def _robot(name: str):
    share = str(corpus.prefix() / 'share' / 'example-robot-data')
    return [str(corpus.urdf_path(name)), '--package-dir', f'example-robot-data={share}',
            '--format', 'json', '--fail-on', 'never']


def test_the_program_forks_the_reader_before_its_imports_and_finds_what_one_process_finds():
    out, events = _program('check', *_robot('panda.urdf'))
    alone, alone_events = _program('check', *_robot('panda.urdf'), '--jobs', '1')
    assert alone_events == []  # --jobs 1: one process, no child
    # Forked before the command line (and NumPy) was imported; given Panda's 19 files.
    assert events[0]['event'] == 'fork' and not events[0]['cli'] and not events[0]['numpy']
    assert events[1] == {'event': 'give', 'files': 19, 'child': True}
    # No other reader (a later child may test the overlaps at rest: collision.shared).
    assert {event.get('function') for event in events if event['event'] == 'start'} <= \
        {'_claim_and_test'}
    assert json.loads(out) == json.loads(alone)


def test_a_reader_that_died_before_its_files_leaves_them_to_the_program():
    out, events = _program('check', *_robot('panda.urdf'), mode='kill')
    alone, _ = _program('check', *_robot('panda.urdf'), '--jobs', '1')
    assert events[1] == {'event': 'give', 'files': 19, 'child': False}
    assert json.loads(out) == json.loads(alone)


def test_a_reader_with_nothing_worth_reading_is_released():
    # The sample robot has no mesh: released once the check knows it.
    sample = os.path.join(ROOT, 'samples', 'sample_robot.urdf')
    _, events = _program('check', sample)
    assert [event['event'] for event in events] == ['fork', 'release']
    # Two robots: released before the pool's two workers are forked (they must not hold
    # its pipes), which read no mesh aside either.
    _, events = _program('check', sample, sample, '--jobs', '2')
    assert [event['event'] for event in events] == ['fork', 'release', 'fork', 'fork']


WAITING = """
import os, sys, time
from urdf_link_tools.meshes import elsewhere
def double(value):
    return value * 2
def slow():
    time.sleep(60)
mode = sys.argv[1]
if mode == 'given':
    waiting = elsewhere.start_waiting(double, lambda: None)
    print(waiting.give([(1,), (2,)]).collect())
    print(waiting.give([(3,)]))  # given once only
elif mode == 'released':
    waiting = elsewhere.start_waiting(double, lambda: None)
    waiting.release()
    waiting.release()  # no-op
    print(waiting.give([(1,)]))
    elsewhere._reap_ending()
    try:
        os.waitpid(-1, os.WNOHANG)
        print('children left')
    except ChildProcessError:
        print('every child reaped')
else:  # the program ends while its child still prepares: its output must not wait
    elsewhere.start_waiting(double, slow)
    print('ended')
    sys.stdout.flush()
    os._exit(0)
"""


@pytest.mark.parametrize('mode, expected', [
    ('given', ['[2, 4]', 'None']),
    ('released', ['None', 'every child reaped']),
    ('ended', ['ended']),
])
def test_a_waiting_child_computes_what_it_is_given_or_ends(mode, expected):
    # 'ended': a child still preparing (60 s) holds neither stdout nor stderr, so reading
    # the program's output to its end does not wait for that child.
    done = subprocess.run([sys.executable, '-c', WAITING, mode], capture_output=True,
                          text=True, timeout=30, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split('\n')[:-1] == expected


@pytest.mark.parametrize('arguments, shares', [
    (['check', 'robot.urdf'], True),
    (['check', '--format', 'json', 'a.urdf', 'b.xacro'], True),  # the check decides later
    (['check', 'robot.urdf', '--jobs', '2'], True),
    (['check', 'robot.urdf', '--jobs', '1'], False),
    (['check', 'robot.urdf', '-j', '1'], False),
    (['check', 'robot.urdf', '--jobs=1'], False),
    (['check', '--no-meshes', 'robot.urdf'], False),
    (['check', '--help'], False),
    (['info', 'robot.urdf'], False),
    (['collisions', 'robot.urdf'], False),
    ([], False),
])
def test_only_a_check_that_may_read_meshes_aside_forks_early(arguments, shares):
    assert _shares_reading(arguments) is shares


HANDED_OVER = """
import sys
import numpy as np
from urdf_link_tools.meshes import elsewhere
def arrays(count, size):
    rng = np.random.default_rng(count)
    return [rng.standard_normal(size) for _ in range(count)] + ['text', None]
expected = arrays(int(sys.argv[1]), int(sys.argv[2]))
got = elsewhere.start(arrays, [(int(sys.argv[1]), int(sys.argv[2]))]).collect()[0]
same = all(np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
           for a, b in zip(expected, got)) and len(got) == len(expected)
print(same, type(got[0]).__name__)
"""


@pytest.mark.parametrize('count, size', [(3, 100_000), (5000, 4), (0, 1)])
def test_a_childs_arrays_come_back_whole(count, size):
    # Out of band (pickle protocol 5, the arrays' bytes after the pickle in the in-memory
    # file, read once): up to 4,096 arrays; more go through the pipe in one pickle.
    done = subprocess.run([sys.executable, '-c', HANDED_OVER, str(count), str(size)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ['True', 'ndarray' if count else 'str'], done.stdout
