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
Hostile mesh inputs: time and peak memory of one analysis each, in a bounded child process.

Each attack is a robot written here (test/mesh_attacks.py) and analysed by a child
``python`` under ``prlimit --as`` and ``timeout``; the child prints its findings and its
peak RSS. ``--tree DIR`` analyses with another checkout's ``urdf_link_tools`` (e.g. an
export of main, for before/after numbers).

    scripts/env.sh python -m bench.bench_mesh_attacks [--tree DIR] [--memory-mb 3000]
"""

import argparse
import json
from pathlib import Path
import subprocess
import sys
import tempfile
import time
from typing import Dict, List

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / 'test'))
import mesh_attacks  # noqa: E402

CHILD = r"""
import gc, json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.meshes import MeshLibrary
from urdf_link_tools.parser import parse_urdf_string

def rss_mb():
    with open('/proc/self/status') as stream:
        for line in stream:
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) / 1024

library = MeshLibrary(package_dirs={'pkg': sys.argv[3]})
out = {'rss_mb': []}
for path in sys.argv[2].split(','):
    with open(path) as stream:
        robot = parse_urdf_string(stream.read(), source=path)
    start = time.perf_counter()
    analysis = analyze(robot, CheckConfig(), library)
    out.setdefault('seconds', []).append(round(time.perf_counter() - start, 3))
    out['findings'] = sorted({f'{f.severity.label} {f.rule}: {f.message[:160]}'
                              for f in analysis.findings if 'mesh' in f.rule})
    del analysis, robot
    gc.collect()
    out['rss_mb'].append(round(rss_mb(), 1))
out['peak_rss_mb'] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
print(json.dumps(out))
"""


def write_attacks(folder: Path) -> Dict[str, List[Path]]:
    """Write every attack robot; return name -> URDF files analysed in turn."""
    package = folder / 'pkg'
    package.mkdir()
    secret = folder / 'secret.txt'
    secret.write_text('AKIAEXAMPLESECRET token=hunter2\n' * 4)
    stl = mesh_attacks.open_stl(folder)
    wide = folder / 'wide'
    wide.mkdir()
    robots = {
        'dae_instancing_bomb': [(f'file://{mesh_attacks.instancing_bomb(folder)}', (1, 1, 1))],
        'stl_16mb_open_100_scales': [(f'file://{stl}', (1 + i / 100,) * 3) for i in range(100)],
        'dae_unit_backtracking': [(f'file://{mesh_attacks.unit_backtracking_dae(folder)}',
                                   (1, 1, 1))],
        'proc_kmsg': [(f'file://{mesh_attacks.symlink(folder, "kmsg.stl", "/proc/kmsg")}',
                       (1, 1, 1))],
        'proc_self_mem': [(f'file://{mesh_attacks.symlink(folder, "mem.stl", "/proc/self/mem")}',
                           (1, 1, 1))],
        'stl_symlink_to_secret': [(f'file://{mesh_attacks.symlink(folder, "s.stl", secret)}',
                                   (1, 1, 1))],
        'package_escape': [('package://pkg/../secret.txt.stl', (1, 1, 1))],
        # the fifth red-team review's: 100 triangles instanced 8,192 times (refused), and an
        # OBJ of 20,000 material groups that trimesh named in quadratic time (61 s before)
        'dae_instanced_wide': [(f'file://{mesh_attacks.instancing_bomb(wide, 13, triangles=100)}',
                                (1, 1, 1))],
        'obj_20k_groups': [(f'file://{mesh_attacks.grouped_obj(folder, 20_000)}', (1, 1, 1))],
    }
    (folder / 'secret.txt.stl').write_bytes(secret.read_bytes())
    files = {}
    for name, meshes in robots.items():
        path = folder / f'{name}.urdf'
        path.write_text(mesh_attacks.robot(name, meshes))
        files[name] = [path]
    # A big robot (five distinct 16 MB meshes), then a small one, in one process: the RSS
    # after the small one shows what the cache keeps.
    big = []
    for index in range(5):
        copy = folder / f'big{index}.stl'
        data = bytearray(stl.read_bytes())
        data[0] = index  # a different file (its header), the same triangles
        copy.write_bytes(bytes(data))
        big.append((f'file://{copy}', (1, 1, 1)))
    (folder / 'big.urdf').write_text(mesh_attacks.robot('big', big))
    small = mesh_attacks.broken_meshes(folder)['good']
    (folder / 'small.urdf').write_text(mesh_attacks.robot('small', [(f'file://{small}',
                                                                     (1, 1, 1))]))
    files['cache_big_then_small'] = [folder / 'big.urdf', folder / 'small.urdf']
    return files


def run(tree: str, files: List[Path], package: Path, memory_mb: int, seconds: int) -> dict:
    """
    Analyse files in turn in one bounded child; return its report.

    ``memory_mb`` 0 leaves the address space unlimited: glibc's allocator behaves
    differently under RLIMIT_AS (freed heap is given back less), which the RSS of the
    cache case would then measure instead of the library.
    """
    limit = ['prlimit', f'--as={memory_mb << 20}'] if memory_mb else []
    command = limit + ['timeout', str(seconds), sys.executable, '-c', CHILD, tree,
                       ','.join(str(path) for path in files), str(package)]
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = round(time.monotonic() - start, 2)
    report = {'wall_s': elapsed, 'exit': done.returncode,
              'stderr_lines': len(done.stderr.splitlines()),
              'traceback': 'Traceback' in done.stderr}
    try:
        report.update(json.loads(done.stdout.strip().splitlines()[-1]))
    except (IndexError, ValueError):
        report['stderr_tail'] = done.stderr.strip().splitlines()[-1:]
    return report


def main() -> int:
    """Run every attack and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--tree', default=str(HERE.parent),
                        help='folder holding the urdf_link_tools package to measure')
    parser.add_argument('--memory-mb', type=int, default=3000)
    parser.add_argument('--seconds', type=int, default=300)
    parser.add_argument('--only', default='', help='comma-separated attack names')
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        files = write_attacks(Path(folder))
        for name, paths in files.items():
            if args.only and name not in args.only.split(','):
                continue
            memory = 0 if name.startswith('cache_') else args.memory_mb
            results[name] = run(args.tree, paths, Path(folder) / 'pkg', memory, args.seconds)
            print(name, json.dumps(results[name]), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
