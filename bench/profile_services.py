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
Where a service call's time goes in the server: the node's get_link_geometry against Trigger.

Both servers of :mod:`bench.bench_services` run under cProfile (every executor thread: the
spinning one and the pool's), started once the clients are warm (SIGUSR1), so neither the
start-up nor the analysis is counted. One client calls each service ``--calls`` times; the
servers then stop and this prints, per call, the functions that take the most time in each
(cProfile's own overhead inflates both alike: compare the two, not the absolute figures).

    python -m bench.profile_services [--calls 2000] [--top 25]
"""

import argparse
import cProfile
import gc
import json
import os
import pstats
import runpy
import signal
import sys
import tempfile
import threading
import time
from typing import Dict, List

from bench.bench_services import ClientProcess, OURS, TRIGGER
from bench.ros_processes import (corpus_package_dirs, domain_id, exit_on_sigterm,
                                 largest_corpus_robot, progress, RosProcess)

CALLBACKS = {OURS: '_get_link_geometry', TRIGGER: 'trigger'}
SERVERS = {OURS: 'node.py', TRIGGER: 'baseline_server.py'}
_profiles: Dict[int, cProfile.Profile] = {}
_profiling = False
# generation -> [collections, seconds], while profiling
_collections: Dict[int, List[float]] = {0: [0, 0.0], 1: [0, 0.0], 2: [0, 0.0]}
_collection_started = [0.0]


def _time_collections(phase: str, info: Dict[str, int]) -> None:
    if not _profiling:
        return
    if phase == 'start':
        _collection_started[0] = time.perf_counter()
    else:
        entry = _collections[info['generation']]
        entry[0] += 1
        entry[1] += time.perf_counter() - _collection_started[0]


def _profile_this_thread() -> None:
    if _profiling and threading.get_ident() not in _profiles:
        profile = cProfile.Profile()
        _profiles[threading.get_ident()] = profile
        profile.enable()


def _patch_threads() -> None:
    # Pool threads (MultiThreadedExecutor) start profiling at their next work item; threads
    # that spin an executor of their own at their next callback.
    from concurrent.futures import thread
    from rclpy.executors import Executor

    run_item = thread._WorkItem.run

    def profiled_item(self):
        _profile_this_thread()
        return run_item(self)
    thread._WorkItem.run = profiled_item

    spin_once = Executor.spin_once

    def profiled_spin_once(self, *args, **kwargs):
        _profile_this_thread()
        return spin_once(self, *args, **kwargs)
    Executor.spin_once = profiled_spin_once


def serve(output: str, module: str, argv: List[str]) -> int:
    """Run a server module as ``__main__`` with profiling from SIGUSR1 on; dump at the end."""
    def start(number, frame):
        global _profiling
        _profiling = True
        _profile_this_thread()
    signal.signal(signal.SIGUSR1, start)
    gc.callbacks.append(_time_collections)
    _patch_threads()
    sys.argv = [module] + argv
    try:
        runpy.run_module(module, run_name='__main__', alter_sys=True)
    except (SystemExit, KeyboardInterrupt):
        pass
    finally:
        profiles = list(_profiles.values())
        for profile in profiles:
            profile.create_stats()
        if profiles:
            pstats.Stats(*profiles).dump_stats(output)
        with open(output + '.gc', 'w') as stream:
            json.dump({'collections': _collections, 'tracked': len(gc.get_objects())}, stream)
    return 0


def report(path: str, name: str, top: int) -> None:
    """Print the heaviest functions of one server, per call of its service callback."""
    stats = pstats.Stats(path)
    calls = sum(value[1] for key, value in stats.stats.items()
                if key[2] == CALLBACKS[name] and key[0].endswith(SERVERS[name]))
    total = sum(value[2] for value in stats.stats.values())
    print(f'\n{name}: {calls} calls; {total / max(calls, 1) * 1e6:.0f} us of Python time '
          'per call in the server (cProfile on), heaviest functions by own time per call:')
    with open(path + '.gc') as stream:
        collected = json.load(stream)
    print('  garbage collections per 1000 calls (generation: count, ms each): ' + ', '.join(
        f'{generation}: {count * 1000 / max(calls, 1):.1f}, '
        f'{seconds * 1e3 / max(count, 1):.2f}'
        for generation, (count, seconds) in collected['collections'].items())
        + f'; {collected["tracked"]} objects tracked')
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:top]
    for (filename, line, function), (_, ncalls, own, cumulative, _) in rows:
        where = f'{os.path.basename(filename)}:{line}' if line else filename
        print(f'  {own / max(calls, 1) * 1e6:8.1f} us own {cumulative / max(calls, 1) * 1e6:8.1f}'
              f' us cum {ncalls / max(calls, 1):6.2f}/call  {function} ({where})')


def main() -> int:
    """Profile both servers under one client, or (``server``) run one profiled server."""
    if len(sys.argv) > 1 and sys.argv[1] == 'server':
        return serve(sys.argv[2], sys.argv[3], sys.argv[4:])
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--calls', type=int, default=2000)
    parser.add_argument('--top', type=int, default=25)
    args = parser.parse_args()
    exit_on_sigterm()
    domain = domain_id(3)
    namespace = f'/ult_profile_services_{os.getpid()}'
    path, robot, links = largest_corpus_robot()
    outputs = {name: tempfile.mktemp(prefix=f'ult_profile_{name}_', suffix='.pstats')
               for name in (OURS, TRIGGER)}
    servers = {
        OURS: RosProcess('bench.profile_services', domain, namespace,
                         args=['server', outputs[OURS], 'urdf_link_tools.ros.node'],
                         parameters={'urdf_file': path, 'package_dirs': corpus_package_dirs()}),
        TRIGGER: RosProcess('bench.profile_services', domain, namespace,
                            args=['server', outputs[TRIGGER], 'bench.baseline_server',
                                  'trigger'])}
    client = None
    try:
        client = ClientProcess(domain, namespace, 120.0)
        client.receive()
        for name in (OURS, TRIGGER):
            client.send(f'latency {name} {args.calls // 4}')
            client.receive()
        progress(f'profiling {args.calls} calls of each service ({robot}, {links} links)')
        for server in servers.values():
            os.kill(server.pid, signal.SIGUSR1)
        for name in (OURS, TRIGGER):
            client.send(f'latency {name} {args.calls}')
            answer = client.receive()
            print(f'{name}: client-side p50 {answer["p50"] * 1e3:.3f} ms, '
                  f'p99 {answer["p99"] * 1e3:.3f} ms (profiled)')
    finally:
        if client is not None:
            client.close()
        for server in servers.values():
            server.stop(30.0)
    for name in (OURS, TRIGGER):
        report(outputs[name], name, args.top)
        os.unlink(outputs[name])
        os.unlink(outputs[name] + '.gc')
    return 0


if __name__ == '__main__':
    sys.exit(main())
