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
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ATTACKS = os.path.join(ROOT, 'test', 'data', 'xacro_attacks')
SECRET = 'AKIA-not-a-real-key-7f3e9c'
WRAPPER = ('import resource, subprocess, sys; code = subprocess.call(sys.argv[2:]); '
           'open(sys.argv[1], "w").write(str(resource.getrusage('
           'resource.RUSAGE_CHILDREN).ru_maxrss)); sys.exit(code)')
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
    work = tempfile.mkdtemp(prefix='xacro_attack_')
    marker = os.path.join(work, 'marker')
    secret_file = os.path.join(work, 'secret.yaml')
    with open(secret_file, 'w') as stream:
        stream.write(f'token: {SECRET}\n')
    env = dict(os.environ, SECRET_TOKEN=SECRET, PYTHONDONTWRITEBYTECODE='1')
    if code:
        env['PYTHONPATH'] = code + os.pathsep + env.get('PYTHONPATH', '')
    command = ['prlimit', f'--as={cap_bytes}', 'timeout', '-s', 'KILL', str(cap_s), python,
               '-m', 'urdf_link_tools.cli', 'check', '--format', 'json', '--no-meshes',
               os.path.join(ATTACKS, name), f'marker:={marker}', f'secret_file:={secret_file}']
    # A fresh wrapper per case: RUSAGE_CHILDREN is the largest process it waited for
    # (grandchildren included), not the largest of every case so far.
    rss_file = os.path.join(work, 'rss')
    wrapper = [sys.executable, '-c', WRAPPER, rss_file, *command]
    started = time.monotonic()
    result = subprocess.run(wrapper, capture_output=True, text=True, env=env, cwd=work)
    elapsed = time.monotonic() - started
    with open(rss_file) as stream:
        peak_mb = int(stream.read()) / 1024
    outcome = 'exit %d' % result.returncode
    if result.returncode in (-9, 137, 124):
        outcome = f'killed by the {cap_s} s cap'
    if 'MemoryError' in result.stderr:
        outcome += ', MemoryError traceback'
    leaked = SECRET in result.stdout + result.stderr
    ran = os.path.exists(marker)
    error = (result.stderr.strip().splitlines() or [''])[-1]
    error = error.replace(ATTACKS + os.sep, '').split(': ', 2)[-1][:120]
    return elapsed, peak_mb, outcome, leaked, ran, error


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('--code', help='directory holding the urdf_link_tools to run')
    parser.add_argument('--python', default=sys.executable)
    parser.add_argument('--cap-seconds', type=int, default=60)
    parser.add_argument('--cap-bytes', type=int, default=4 << 30)
    args = parser.parse_args()
    print('| attack | time s | peak RSS MB | outcome | code ran | secret shown | error |')
    print('| --- | --- | --- | --- | --- | --- | --- |')
    for label, name in CASES:
        elapsed, peak, outcome, leaked, ran, error = run_case(
            args.python, args.code, name, args.cap_seconds, args.cap_bytes)
        print(f'| {label} | {elapsed:.1f} | {peak:.0f} | {outcome} | {"YES" if ran else "no"} '
              f'| {"YES" if leaked else "no"} | {error.replace("|", "/")} |', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
