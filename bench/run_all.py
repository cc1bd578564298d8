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
Run every benchmark in its own process and print their ratio lines.

Usage: ``make bench`` (or ``scripts/env.sh python -m bench.run_all [NAME ...]``).
Each benchmark writes its JSON under bench/results/ (not tracked by git).
"""

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

BENCHMARKS = ('bench_vs_mujoco', 'bench_corpus', 'bench_analysis', 'bench_meshes',
              'bench_services', 'bench_latency', 'bench_memory', 'bench_collisions')


def main() -> int:
    """Run the benchmarks named on the command line, or all of them."""
    names = sys.argv[1:] or [name for name in BENCHMARKS
                             if os.path.exists(os.path.join(HERE, f'{name}.py'))]
    failed = []
    for name in names:
        print(f'== {name}', flush=True)
        start = time.monotonic()
        done = subprocess.run([sys.executable, '-m', f'bench.{name}'],
                              cwd=os.path.dirname(HERE), timeout=1800)
        print(f'   ({time.monotonic() - start:.0f} s)', flush=True)
        if done.returncode != 0:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
