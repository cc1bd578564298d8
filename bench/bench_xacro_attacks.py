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
Time and peak memory of ``urdf-link-tools check`` on each hostile xacro of test/data.

Each attack runs as its own process tree under ``prlimit --as`` and ``timeout`` (the caps keep
a vulnerable version from taking the machine down; a run stopped by them is reported as such).
Peak memory is the largest resident set of any process of the tree (``RUSAGE_CHILDREN``).

    python bench/bench_xacro_attacks.py                      # this checkout
    git archive main urdf_link_tools | tar -x -C /tmp/main_code
    python bench/bench_xacro_attacks.py --code /tmp/main_code    # another version's code
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ATTACKS = os.path.join(ROOT, 'test', 'data', 'xacro_attacks')
SECRET = 'AKIA-not-a-real-key-7f3e9c'
PAGE = os.sysconf('SC_PAGE_SIZE')


def tree_rss(root: int) -> int:
    """Return the summed resident set, in bytes, of a process and all its descendants."""
    parents, rss = {}, {}
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open(f'/proc/{entry}/stat') as stream:
                fields = stream.read().rsplit(')', 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        rss[int(entry)] = int(fields[21]) * PAGE
    total, pending = 0, [root]
    while pending:
        pid = pending.pop()
        total += rss.get(pid, 0)
        pending.extend(child for child, parent in parents.items() if parent == pid)
    return total


CASES = (
    ('code execution (vars(type) escape)', 'dunder_escape.urdf.xacro'),
    ('$(env SECRET)', 'env_secret.urdf.xacro'),
    ('load_yaml of an outside file', 'outside_yaml.urdf.xacro'),
    ('CPU bomb len(str(7**(10**9)))', 'cpu_bomb.urdf.xacro'),
    ('list comprehension memory bomb', 'memory_bomb.urdf.xacro'),
    ('doubling macros (2^24 links)', 'doubling.urdf.xacro'),
    ('102-byte file -> 200 MB', 'size_bomb.urdf.xacro'),
)


def run_case(python, code, name, cap_s, cap_bytes):
    # The attack is copied with its arguments written in (older versions take none), into a
    # directory of its own; the secret file lies outside it.
    work = tempfile.mkdtemp(prefix='xacro_attack_')
    robot_dir = os.path.join(work, 'robot')
    outside = os.path.join(work, 'outside')
    os.mkdir(robot_dir)
    os.mkdir(outside)
    marker = os.path.join(work, 'marker')
    secret_file = os.path.join(outside, 'secret.yaml')
    with open(secret_file, 'w') as stream:
        stream.write(f'token: {SECRET}\n')
    with open(os.path.join(ATTACKS, name)) as stream:
        text = stream.read().replace('$(arg marker)', marker).replace(
            "xacro.arg('secret_file')", repr(secret_file))
    robot = os.path.join(robot_dir, name)
    with open(robot, 'w') as stream:
        stream.write(text)
    env = dict(os.environ, SECRET_TOKEN=SECRET, PYTHONDONTWRITEBYTECODE='1')
    if code:
        env['PYTHONPATH'] = code + os.pathsep + env.get('PYTHONPATH', '')
    command = ['prlimit', f'--as={cap_bytes}', 'timeout', '-s', 'KILL', str(cap_s), python,
               '-m', 'urdf_link_tools.cli', 'check', '--format', 'json', '--no-meshes', robot]
    # Peak memory: the tree's summed resident set, sampled every 50 ms from /proc (a process
    # killed by a cap is never waited for by its parent, so rusage would miss it).
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_before = usage.ru_utime + usage.ru_stime
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env, cwd=work)
    peak = 0
    while process.poll() is None:
        peak = max(peak, tree_rss(process.pid))
        time.sleep(0.05)
    stdout, stderr = process.communicate()
    elapsed = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU of every process that was waited for (one killed by a cap and reparented is not).
    cpu = usage.ru_utime + usage.ru_stime - cpu_before
    peak_mb = peak / (1 << 20)
    result = subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
    outcome = 'exit %d' % result.returncode
    if result.returncode in (-9, 137, 124, 247):
        outcome = f'killed by the {cap_s} s cap'
    if 'MemoryError' in result.stderr:
        outcome += ', MemoryError traceback'
    leaked = SECRET in result.stdout + result.stderr
    ran = os.path.exists(marker)
    error = (result.stderr.strip().splitlines() or [''])[-1]
    error = error.replace(robot_dir + os.sep, '').split(': ', 2)[-1][:120]
    return elapsed, cpu, peak_mb, outcome, leaked, ran, error


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('--code', help='directory holding the urdf_link_tools to run')
    parser.add_argument('--python', default=sys.executable)
    parser.add_argument('--cap-seconds', type=int, default=60)
    parser.add_argument('--cap-bytes', type=int, default=4 << 30)
    args = parser.parse_args()
    print('| attack | wall s | CPU s | peak RSS MB | outcome | code ran | secret shown | error |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- |')
    for label, name in CASES:
        elapsed, cpu, peak, outcome, leaked, ran, error = run_case(
            args.python, args.code, name, args.cap_seconds, args.cap_bytes)
        print(f'| {label} | {elapsed:.1f} | {cpu:.1f} | {peak:.0f} | {outcome} '
              f'| {"YES" if ran else "no"} '
              f'| {"YES" if leaked else "no"} | {error.replace("|", "/")} |', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
