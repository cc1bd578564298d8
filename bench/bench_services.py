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
Service latency and throughput: get_link_geometry against an empty std_srvs/Trigger.

The server side is the real node process (``python -m urdf_link_tools.ros.node``) loaded with
the largest example-robot-data robot through ``urdf_file`` and warm (analysed, meshes
loaded), next to an empty Trigger service (:mod:`bench.baseline_server`) started and spun
the same way. The clients are other processes (this module run as ``client``), with the same
QoS for both services. Latency: one client calls get_link_geometry for each link in turn
(collision group, no triangles), then Trigger, in blocks that alternate, and times every
round trip; p50 and p99 per block, their ratio per pair of blocks. Throughput: 4 clients
call as fast as they can for a few seconds, the node and Trigger alternately; aggregate
calls per second and their ratio.

Targets (issue 5): p50 at most 1.5x Trigger's, p99 at most 2x; aggregate calls/s with 4
clients at least 0.7x Trigger's.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Dict, List

from bench.common import fmt, ratio_stats, stats, verdict, write_result
from bench.ros_processes import (BenchClient, corpus_package_dirs, domain_id,
                                 exit_on_sigterm, largest_corpus_robot, progress, REPO,
                                 ros_environment, RosProcess, service_qos)

OURS = 'get_link_geometry'
TRIGGER = 'trigger'
# A request unanswered this long is sent again and counted as lost (BenchClient.call).
RESEND_AFTER = 5.0
# A throughput run that lost an answer waited RESEND_AFTER for it: it is run again, this often.
THROUGHPUT_ATTEMPTS = 3


def percentile(values: List[float], fraction: float) -> float:
    """Return the nearest-rank percentile of a list."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, int(round(fraction * len(ordered))) - 1))
    return ordered[index]


# ----------------------------------------------------------------------------- client

def answered(bench: BenchClient, client: Any, request: Any) -> bool:
    """
    Call once with a short timeout; return whether an answer came.

    A client's first request can reach the server before the server has matched the
    client's response reader (discovery is not symmetric), and that answer is lost; so
    every client gets one answer from each service before anything is timed.
    """
    try:
        bench.call(client, request, timeout=2.0)
    except TimeoutError:
        return False
    return True


def run_client(args: argparse.Namespace) -> int:
    """Answer commands on stdin ('latency NAME N', 'throughput NAME S', 'quit') with JSON."""
    from std_srvs.srv import Trigger
    from urdf_link_tools.srv import GetLinkGeometry, ListLinks

    bench = BenchClient(args.domain, args.namespace, f'ult_bench_client_{os.getpid()}')
    try:
        qos = service_qos()
        node = bench.node
        clients = {
            OURS: node.create_client(GetLinkGeometry, 'urdf_link_tools/get_link_geometry',
                                     qos_profile=qos),
            TRIGGER: node.create_client(Trigger, 'baseline_trigger/trigger', qos_profile=qos)}
        listing = node.create_client(ListLinks, 'urdf_link_tools/list_links', qos_profile=qos)
        for client in list(clients.values()) + [listing]:
            bench.spin_until(client.service_is_ready, args.timeout, client.srv_name)

        def warm():
            # A first request can go out before the server has matched this client's
            # response reader, and its answer is then lost: ask again until one arrives.
            try:
                answer = bench.call(listing, ListLinks.Request(), timeout=2.0)
            except TimeoutError:
                return None
            return answer if answer.success else None
        answer = bench.spin_until(warm, args.timeout, 'the robot in service')
        links = [row.name for row in answer.links]
        for name, client in clients.items():
            request = GetLinkGeometry.Request(link_name=links[0]) if name == OURS else \
                Trigger.Request()
            bench.spin_until(lambda: answered(bench, client, request), args.timeout,
                             f'a first answer of {client.srv_name}')
        print(json.dumps({'ready': True, 'robot': answer.robot_name, 'links': len(links)}),
              flush=True)
        requests = {OURS: [GetLinkGeometry.Request(link_name=name) for name in links],
                    TRIGGER: [Trigger.Request()]}
        for line in sys.stdin:
            words = line.split()
            if not words or words[0] == 'quit':
                break
            command, name, amount = words[0], words[1], float(words[2])
            client, pool = clients[name], requests[name]
            failures = 0
            bench.lost = 0
            if command == 'latency':
                times = []
                for index in range(int(amount)):
                    result = bench.call(client, pool[index % len(pool)], args.timeout,
                                        RESEND_AFTER)
                    # Timed from the request that was answered: a lost one is counted apart.
                    times.append(time.perf_counter() - bench.attempt_start)
                    failures += not result.success
                print(json.dumps({'p50': percentile(times, 0.5), 'p99': percentile(times, 0.99),
                                  'mean': statistics.fmean(times), 'calls': len(times),
                                  'failures': failures, 'lost': bench.lost}), flush=True)
            elif command == 'throughput':
                calls = 0
                start = time.perf_counter()
                end = start + amount
                while time.perf_counter() < end:
                    result = bench.call(client, pool[calls % len(pool)], args.timeout,
                                        RESEND_AFTER)
                    calls += 1
                    failures += not result.success
                elapsed = time.perf_counter() - start
                print(json.dumps({'calls': calls, 'seconds': elapsed, 'failures': failures,
                                  'lost': bench.lost}), flush=True)
        return 0
    finally:
        bench.close()


class ClientProcess:
    """One client process, driven line by line."""

    def __init__(self, domain: int, namespace: str, timeout: float) -> None:
        self.process = subprocess.Popen(
            [sys.executable, '-m', 'bench.bench_services', 'client', '--domain', str(domain),
             '--namespace', namespace, '--timeout', str(timeout)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO,
            env=ros_environment(domain), start_new_session=True)

    def send(self, line: str) -> None:
        """Send one command."""
        self.process.stdin.write(line + '\n')
        self.process.stdin.flush()

    def receive(self) -> Dict[str, Any]:
        """Read one JSON answer (the client bounds every call with its timeout)."""
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f'client {self.process.pid} ended (exit {self.process.poll()})')
        return json.loads(line)

    def close(self) -> None:
        """Ask the client to quit; kill it if it does not."""
        if self.process.poll() is None:
            try:
                self.send('quit')
                self.process.wait(15.0)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait(10.0)


# ----------------------------------------------------------------------------- benchmark

def run_throughput(clients: List[ClientProcess], name: str, seconds: float,
                   lost: Dict[str, int]) -> float:
    """
    Return the aggregate calls per second of all clients calling ``name`` for ``seconds``.

    A run in which an answer was lost (and its request sent again after ``RESEND_AFTER``)
    is run again, up to ``THROUGHPUT_ATTEMPTS`` times; the losses go into ``lost``.
    """
    for _ in range(THROUGHPUT_ATTEMPTS):
        for client in clients:
            client.send(f'throughput {name} {seconds}')
        answers = [client.receive() for client in clients]
        if any(answer['failures'] for answer in answers):
            raise RuntimeError(f'{name}: failed calls {answers}')
        lost[name] += sum(answer['lost'] for answer in answers)
        if not any(answer['lost'] for answer in answers):
            return sum(answer['calls'] / answer['seconds'] for answer in answers)
    raise RuntimeError(f'{name}: answers lost in {THROUGHPUT_ATTEMPTS} throughput runs '
                       f'in a row ({lost[name]} in all)')


def measure(args: argparse.Namespace) -> Dict[str, Any]:
    """Start the servers and clients, measure, stop everything; return the results."""
    domain = domain_id(0)
    namespace = f'/ult_bench_services_{os.getpid()}'
    path, robot, links = largest_corpus_robot()
    node = RosProcess('urdf_link_tools.ros.node', domain, namespace,
                      parameters={'urdf_file': path, 'package_dirs': corpus_package_dirs()})
    trigger = RosProcess('bench.baseline_server', domain, namespace, args=['trigger'])
    clients: List[ClientProcess] = []
    try:
        clients = [ClientProcess(domain, namespace, args.timeout) for _ in range(args.clients)]
        for client in clients:
            hello = client.receive()
            if not hello.get('ready') or hello['links'] != links:
                raise RuntimeError(f'unexpected client greeting {hello}')
        progress(f'{len(clients)} clients ready, {robot} ({links} links) in service')
        first = clients[0]
        for name in (OURS, TRIGGER):  # warm-up, discarded
            first.send(f'latency {name} {args.calls // 2}')
            first.receive()
        lost = {OURS: 0, TRIGGER: 0}
        latency: Dict[str, List[Dict[str, float]]] = {OURS: [], TRIGGER: []}
        for repetition in range(args.repeat):
            order = (OURS, TRIGGER) if repetition % 2 == 0 else (TRIGGER, OURS)
            for name in order:
                first.send(f'latency {name} {args.calls}')
                latency[name].append(first.receive())
                lost[name] += latency[name][-1]['lost']
        progress('latency measured')
        throughput: Dict[str, List[float]] = {OURS: [], TRIGGER: []}
        for repetition in range(args.throughput_repeat):
            order = (OURS, TRIGGER) if repetition % 2 == 0 else (TRIGGER, OURS)
            for name in order:
                throughput[name].append(run_throughput(clients, name, args.seconds, lost))
    finally:
        for client in clients:
            client.close()
        node_output = node.output()
        node.stop()
        trigger.stop()
    if any(block['failures'] for block in latency[OURS] + latency[TRIGGER]):
        raise RuntimeError(f'failed calls during the latency blocks; node log:\n{node_output}')

    def series(name, key):
        return [block[key] for block in latency[name]]
    return {
        'robot': robot, 'urdf': path, 'links': links, 'clients': args.clients,
        'calls_per_block': args.calls, 'throughput_seconds': args.seconds,
        'p50_seconds': {name: stats(series(name, 'p50')) for name in (OURS, TRIGGER)},
        'p99_seconds': {name: stats(series(name, 'p99')) for name in (OURS, TRIGGER)},
        'p50_ratio': ratio_stats(series(OURS, 'p50'), series(TRIGGER, 'p50')),
        'p99_ratio': ratio_stats(series(OURS, 'p99'), series(TRIGGER, 'p99')),
        'calls_per_second': {name: stats(throughput[name]) for name in (OURS, TRIGGER)},
        'throughput_ratio': ratio_stats(throughput[OURS], throughput[TRIGGER]),
        'lost_answers': lost,
    }


def main() -> int:
    """Run the benchmark (or, with 'client', one client process) and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest='command')
    client = commands.add_parser('client', help='internal: one client process')
    client.add_argument('--domain', type=int, required=True)
    client.add_argument('--namespace', required=True)
    client.add_argument('--timeout', type=float, default=60.0)
    parser.add_argument('--repeat', type=int, default=9, help='latency block pairs')
    parser.add_argument('--calls', type=int, default=300, help='calls per latency block')
    parser.add_argument('--throughput-repeat', type=int, default=4)
    parser.add_argument('--seconds', type=float, default=3.0, help='per throughput run')
    parser.add_argument('--clients', type=int, default=4)
    parser.add_argument('--timeout', type=float, default=120.0)
    args = parser.parse_args()
    exit_on_sigterm()
    if args.command == 'client':
        return run_client(args)
    result = measure(args)
    p50, p99, rate = result['p50_ratio'], result['p99_ratio'], result['throughput_ratio']
    ms = {name: result['p50_seconds'][name]['median'] * 1e3 for name in (OURS, TRIGGER)}
    ms99 = {name: result['p99_seconds'][name]['median'] * 1e3 for name in (OURS, TRIGGER)}
    per_second = {name: result['calls_per_second'][name]['median'] for name in (OURS, TRIGGER)}
    print(f"services ({result['robot']}, {result['links']} links): get_link_geometry p50 "
          f'{ms[OURS]:.3f} ms vs Trigger {ms[TRIGGER]:.3f} ms; p99 {ms99[OURS]:.3f} ms vs '
          f'{ms99[TRIGGER]:.3f} ms; {args.clients} clients {per_second[OURS]:.0f} vs '
          f'{per_second[TRIGGER]:.0f} calls/s')
    print(f'services, p50 ratio: {fmt(p50)} (target <= 1.5: {verdict(p50["median"], 1.5)})')
    print(f'services, p99 ratio: {fmt(p99)} (target <= 2: {verdict(p99["median"], 2.0)})')
    print(f'services, throughput ratio ({args.clients} clients): {fmt(rate)} '
          f'(target >= 0.7: {verdict(rate["median"], 0.7, lower_is_better=False)})')
    if any(result['lost_answers'].values()):
        print(f'services, answers lost and asked again after {RESEND_AFTER:.0f} s: '
              f"{result['lost_answers']}")
    print(f"wrote {write_result('services', result)}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
