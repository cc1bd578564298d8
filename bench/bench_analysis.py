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
Analysis speed: parse + every non-mesh check, against urdf_parser_py and bare lxml.

Targets (issue 19, after issue 5's 0.3x): the whole analysis takes at most 0.6x the time
urdf_parser_py needs just to parse, in this process and as whole processes (Python started,
modules imported, every file read), and the time per link stays flat from 250 to 2,000 links.
"""

import argparse
import contextlib
import io
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict

from bench.common import (corpus_urdfs, fmt, interleaved, ratio_stats, stats, verdict,
                          write_result)
from bench.generate import chain_robot
from lxml import etree
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.parser import parse_urdf_string
from urdf_parser_py.urdf import URDF

CONFIG = CheckConfig(check_meshes=False)
TARGET = 0.6

#: Whole processes: each reads the files named on its command line.
PROCESS_SCRIPTS = {
    'ours': 'import sys\n'
            'from urdf_link_tools.analysis import analyze\n'
            'from urdf_link_tools.config import CheckConfig\n'
            'from urdf_link_tools.parser import parse_urdf_string\n'
            'config = CheckConfig(check_meshes=False)\n'
            'for path in sys.argv[1:]:\n'
            '    with open(path, "rb") as stream:\n'
            '        analyze(parse_urdf_string(stream.read(), path), config)\n',
    'urdf_parser_py': 'import sys\n'
                      'from urdf_parser_py.urdf import URDF\n'
                      'for path in sys.argv[1:]:\n'
                      '    with open(path, "rb") as stream:\n'
                      '        URDF.from_xml_string(stream.read())\n',
}


def ours(data: bytes) -> Any:
    """Parse and run every non-mesh check."""
    return analyze(parse_urdf_string(data), CONFIG)


def reference(data: bytes) -> Any:
    """urdf_parser_py's parse alone (its stderr chatter silenced)."""
    with contextlib.redirect_stderr(io.StringIO()):
        return URDF.from_xml_string(data)


def bench_corpus(repeat: int) -> Dict[str, Any]:
    """Sum over every corpus URDF that urdf_parser_py can read."""
    documents = []
    skipped = []
    for path in corpus_urdfs():
        with open(path, 'rb') as stream:
            data = stream.read()
        try:
            reference(data)
        except Exception:  # urdf_parser_py refuses some files (see the parity test)
            skipped.append(os.path.basename(path))
            continue
        documents.append(data)

    def run(function):
        return lambda: [function(d) for d in documents]

    times = interleaved({'ours': run(ours), 'urdf_parser_py': run(reference),
                         'lxml': run(etree.fromstring)}, repeat)
    return {'robots': len(documents), 'skipped_unreadable_by_urdf_parser_py': skipped,
            'seconds': {k: stats(v) for k, v in times.items()},
            'ratio_vs_urdf_parser_py': ratio_stats(times['ours'], times['urdf_parser_py']),
            'ratio_vs_lxml': ratio_stats(times['ours'], times['lxml'])}


def bench_generated(sizes, repeat: int) -> Dict[str, Any]:
    """Time generated chains of several sizes: ratios and time per link."""
    out: Dict[str, Any] = {}
    for size in sizes:
        data = chain_robot(size).encode()
        times = interleaved({'ours': lambda: ours(data),
                             'urdf_parser_py': lambda: reference(data),
                             'lxml': lambda: etree.fromstring(data)}, repeat)
        out[str(size)] = {
            'seconds': {k: stats(v) for k, v in times.items()},
            'per_link_us': stats([t / size * 1e6 for t in times['ours']]),
            'ratio_vs_urdf_parser_py': ratio_stats(times['ours'], times['urdf_parser_py']),
            'ratio_vs_lxml': ratio_stats(times['ours'], times['lxml'])}
    return out


#: Both processes run as installed packages do, from byte-compiled modules (pip and colcon
#: compile them at install time, as urdf_parser_py's were): a shell with
#: PYTHONDONTWRITEBYTECODE would have every run of ours compile its sources again (about 50
#: modules), as bench_vs_mujoco avoids too.
ENVIRONMENT = {name: value for name, value in os.environ.items()
               if name != 'PYTHONDONTWRITEBYTECODE'}


def bench_processes(paths, repeat: int) -> Dict[str, Any]:
    """Time whole processes (interpreter start, imports, reading) on the same files."""
    times: Dict[str, list] = {name: [] for name in PROCESS_SCRIPTS}
    for repetition in range(-1, repeat):  # the first, untimed, writes the byte code
        for name, script in PROCESS_SCRIPTS.items():
            start = time.perf_counter()
            subprocess.run([sys.executable, '-c', script, *paths], check=True, env=ENVIRONMENT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if repetition >= 0:
                times[name].append(time.perf_counter() - start)
    return {'files': len(paths), 'seconds': {k: stats(v) for k, v in times.items()},
            'ratio_vs_urdf_parser_py': ratio_stats(times['ours'], times['urdf_parser_py'])}


def main() -> int:
    """Run the benchmark and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--repeat', type=int, default=7)
    parser.add_argument('--sizes', type=int, nargs='+', default=[250, 500, 1000, 2000])
    args = parser.parse_args()
    corpus = bench_corpus(args.repeat)
    generated = bench_generated(args.sizes, max(3, args.repeat // 2))
    ratio = corpus['ratio_vs_urdf_parser_py']
    print(f"analysis, corpus ({corpus['robots']} robots): ours/urdf_parser_py {fmt(ratio)} "
          f"(target <= {TARGET}: {verdict(ratio['median'], TARGET)}); "
          f"ours/lxml {fmt(corpus['ratio_vs_lxml'])}")
    for size, row in generated.items():
        r = row['ratio_vs_urdf_parser_py']
        print(f'analysis, generated {size} links: ours/urdf_parser_py {fmt(r)} '
              f"({verdict(r['median'], TARGET)}); per link {fmt(row['per_link_us'], ' us')}")
    processes = {}
    with tempfile.TemporaryDirectory() as folder:
        largest = os.path.join(folder, 'generated.urdf')
        with open(largest, 'w') as stream:
            stream.write(chain_robot(max(args.sizes)))
        skipped = set(corpus['skipped_unreadable_by_urdf_parser_py'])
        readable = [path for path in corpus_urdfs() if os.path.basename(path) not in skipped]
        for label, paths in ((f'generated {max(args.sizes)} links', [largest]),
                             (f'corpus ({len(readable)} robots)', readable)):
            row = processes[label] = bench_processes(paths, max(3, args.repeat // 2))
            r = row['ratio_vs_urdf_parser_py']
            print(f'analysis, whole process, {label}: ours/urdf_parser_py {fmt(r)} '
                  f"({verdict(r['median'], TARGET)})")
    sizes = sorted(generated, key=int)
    flat = (generated[sizes[-1]]['per_link_us']['median']
            / generated[sizes[0]]['per_link_us']['median'])
    print(f'analysis, time per link {sizes[-1]} vs {sizes[0]} links: {flat:.2f}x '
          f'(target flat, <= 1.3: {verdict(flat, 1.3)})')
    path = write_result('analysis', {'corpus': corpus, 'generated': generated,
                                     'per_link_growth': flat, 'processes': processes})
    print(f'wrote {path}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
