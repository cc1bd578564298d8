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
``check`` on the whole example-robot-data corpus: worker processes and the result cache.

Whole ``urdf-link-tools check`` processes on every corpus URDF (with their meshes), in turns:
``--jobs 1``, ``--jobs 2``, and a re-run with ``--cache`` over a cache the turn's first run
filled (a fresh cache each turn). Targets (issue 19): ``--jobs 2`` at least 1.7x faster than
one process; the cached re-run at most 0.1x the time of the run that filled it.
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Dict, List

from bench.common import corpus_urdfs, fmt, ratio_stats, stats, verdict, write_result
from bench.ros_processes import corpus_package_dirs

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


CPU: Dict[str, List[float]] = {}


def check(paths: List[str], *options: str, name: str = '') -> float:
    """Run one whole check process; return its wall-clock seconds (CPU seconds in CPU)."""
    command = [shutil.which('urdf-link-tools') or 'urdf-link-tools', 'check', *paths,
               '--package-dir', corpus_package_dirs()[0], '--fail-on', 'never',
               '--format', 'jsonl', *options]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          cwd=REPO)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.setdefault(name, []).append(after.ru_utime + after.ru_stime - before.ru_utime
                                    - before.ru_stime)
    if done.returncode != 0:
        raise RuntimeError(f'check exited {done.returncode}: {done.stderr[-2000:]!r}')
    return elapsed


def main() -> int:
    """Run the benchmark and print the ratios with their targets."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--repeat', type=int, default=3)
    args = parser.parse_args()
    paths = corpus_urdfs()
    times: Dict[str, List[float]] = {'jobs 1': [], 'jobs 2': [], 'filling': [],
                                     'cached': []}
    check(paths[:3], '--jobs', '1')  # warm the byte-compiled modules
    for repetition in range(args.repeat):
        order = ('jobs 1', 'jobs 2') if repetition % 2 == 0 else ('jobs 2', 'jobs 1')
        for name in order:
            times[name].append(check(paths, '--jobs', name.split()[1], name=name))
        folder = tempfile.mkdtemp(prefix='ult_bench_cache_')
        try:
            times['filling'].append(check(paths, '--cache', folder))
            times['cached'].append(check(paths, '--cache', folder))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    speedup = ratio_stats(times['jobs 1'], times['jobs 2'])
    cached = ratio_stats(times['cached'], times['filling'])
    seconds = {name: stats(values) for name, values in times.items()}
    print(f'corpus ({len(paths)} robots, {os.cpu_count()} cores): --jobs 1 '
          f"{seconds['jobs 1']['median']:.1f} s, --jobs 2 {seconds['jobs 2']['median']:.1f} s; "
          f'speed-up {fmt(speedup)} (target >= 1.7: '
          f"{verdict(speedup['median'], 1.7, lower_is_better=False)})")
    cpu = {name: stats(values)['median'] for name, values in CPU.items() if name}
    print(f"corpus, CPU seconds (all processes): --jobs 1 {cpu['jobs 1']:.1f}, --jobs 2 "
          f"{cpu['jobs 2']:.1f} (the speed-up needs two idle cores: the load average is "
          f'{os.getloadavg()[0]:.1f})')
    print(f"corpus, cached re-run: {seconds['cached']['median']:.2f} s vs "
          f"{seconds['filling']['median']:.1f} s filling the cache; ratio {fmt(cached)} "
          f"(target <= 0.1: {verdict(cached['median'], 0.1)})")
    path = write_result('corpus', {'robots': len(paths), 'seconds': seconds,
                                   'jobs2_speedup': speedup, 'cached_ratio': cached,
                                   'cpu_seconds': CPU, 'load_average': os.getloadavg()})
    print(f'wrote {path}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
