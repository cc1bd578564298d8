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
The node under the attacks of issue 11: time, latency, peak memory and message sizes.

Each class runs against a fresh node process (``--node-repo`` chooses the checkout whose
node runs, so that the same measurements can be taken on an older commit):

- ``grind``: a description whose every joint names a missing link (2,500 joints): seconds
  until it is served, list_links p50/p99 during the first seconds, the largest /diagnostics
  array;
- ``supersede``: a good robot published 1 s after such a description: seconds until it is
  served;
- ``huge``: a chain of 49,000 bare links (a robot may have 50,000): seconds until served, one
  list_links, one near-miss link name, the largest /diagnostics array;
- ``triangles``: get_link_geometry with include_mesh_triangles on a 1.3M-triangle mesh,
  asked by another process twice, list_links p99 meanwhile.

Peak memory is the node's VmHWM at the end of the class. Every wait is capped
(``--cap`` s); a capped value is reported as ``>cap``.

    scripts/env.sh python -m bench.bench_hostile_node --domain 61 [--node-repo DIR]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional

from bench import generate
from bench.ros_processes import BenchClient, domain_id, exit_on_sigterm, REPO
from bench.ros_processes import ros_environment, service_qos


def vm_hwm_mib(pid: int) -> float:
    """Return a process's peak resident set size (VmHWM) in MiB."""
    with open(f'/proc/{pid}/status') as stream:
        for line in stream:
            if line.startswith('VmHWM:'):
                return int(line.split()[1]) / 1024.0
    return float('nan')


def p99(values: List[float]) -> float:
    """Return the nearest-rank 99th percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(0.99 * len(ordered)) - 1))]


class Node:
    """The node of ``node_repo`` as a process, and a client with its services and topics."""

    def __init__(self, node_repo: str, domain: int, tag: str,
                 parameters: Optional[Dict[str, Any]] = None) -> None:
        from diagnostic_msgs.msg import DiagnosticArray
        from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
        from std_msgs.msg import String
        from urdf_link_tools.srv import GetLinkFindings, ListLinks

        namespace = f'/ult_hostile_{os.getpid()}_{tag}'
        env = ros_environment(domain)
        env['PYTHONPATH'] = node_repo + os.pathsep + env['PYTHONPATH']
        command = [sys.executable, '-m', 'urdf_link_tools.ros.node', '--ros-args', '-r',
                   f'__ns:={namespace}']
        for name, value in (parameters or {}).items():
            command += ['-p', f'{name}:={value}']
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(command, env=env, cwd=node_repo, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        self.bench = BenchClient(domain, namespace)
        self.namespace, self.domain = namespace, domain
        node = self.bench.node
        latched = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1,
                             reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        self.publisher = node.create_publisher(String, 'robot_description', latched)
        self.sizes: List[int] = []
        node.create_subscription(DiagnosticArray, '/diagnostics', self._on_diagnostics, 10,
                                 raw=True)
        self.list_client = node.create_client(ListLinks, 'urdf_link_tools/list_links',
                                              qos_profile=service_qos())
        self.findings_client = node.create_client(
            GetLinkFindings, 'urdf_link_tools/get_link_findings', qos_profile=service_qos())
        self.bench.spin_until(self.list_client.service_is_ready, 60.0, 'list_links')
        self.String, self.ListLinks, self.GetLinkFindings = String, ListLinks, GetLinkFindings

    def _on_diagnostics(self, data: bytes) -> None:
        self.sizes.append(len(data))

    def publish(self, text: str) -> None:
        """Publish a description."""
        self.publisher.publish(self.String(data=text))

    def list_links(self, timeout: float) -> Any:
        """Call list_links."""
        return self.bench.call(self.list_client, self.ListLinks.Request(), timeout)

    def wait_robot(self, name: str, cap: float) -> float:
        """Return the seconds until list_links serves ``name`` (inf past ``cap``)."""
        start = time.monotonic()
        while time.monotonic() - start < cap:
            try:
                answer = self.list_links(max(1.0, cap - (time.monotonic() - start)))
            except TimeoutError:
                break
            if answer.success and answer.robot_name == name:
                return time.monotonic() - start
            self.bench.executor.spin_once(timeout_sec=0.05)
        return float('inf')

    def probe(self, seconds: float, until=lambda: False) -> List[float]:
        """Return list_links latencies over ``seconds`` (calls back to back)."""
        latencies = []
        end = time.monotonic() + seconds
        while time.monotonic() < end and not until():
            start = time.monotonic()
            try:
                self.list_links(max(0.5, end - time.monotonic()))
            except TimeoutError:
                latencies.append(float('inf'))
                break
            latencies.append(time.monotonic() - start)
        return latencies

    def close(self) -> float:
        """Stop everything; return the node's peak memory in MiB."""
        peak = vm_hwm_mib(self.process.pid) if self.process.poll() is None else float('nan')
        self.bench.close()
        if self.process.poll() is None:
            self.process.send_signal(2)
            try:
                self.process.wait(10.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10.0)
        return peak


def _latency(latencies: List[float]) -> Dict[str, float]:
    if not latencies:
        return {'calls': 0}
    return {'calls': len(latencies), 'p50_ms': statistics.median(latencies) * 1e3,
            'p99_ms': p99(latencies) * 1e3, 'max_ms': max(latencies) * 1e3}


def run_grind(node: Node, cap: float) -> Dict[str, Any]:
    """Measure the grinding description."""
    node.publish(generate.chain_robot(10, name='good_a'))
    node.wait_robot('good_a', cap)
    start = time.monotonic()
    node.publish(generate.missing_links_robot(2500, 'grind'))
    latencies = node.probe(5.0)
    served = node.wait_robot('grind', cap)
    served = time.monotonic() - start if served != float('inf') else float('inf')
    count = len(node.sizes)  # the arrays about the grinding robot, once it is served
    node.bench.spin_until(lambda: len(node.sizes) > count + 1, 10.0, 'diagnostics')
    return {'served_s': served, 'list_links_during': _latency(latencies),
            'max_diagnostics_bytes': max(node.sizes)}


def run_supersede(node: Node, cap: float) -> Dict[str, Any]:
    """Measure a good robot published during a grinding analysis."""
    node.publish(generate.missing_links_robot(2500, 'grind'))
    node.probe(1.0)
    start = time.monotonic()
    node.publish(generate.chain_robot(10, name='good_b'))
    served = node.wait_robot('good_b', cap)
    return {'good_served_s': served if served == float('inf') else time.monotonic() - start}


def run_huge(node: Node, cap: float) -> Dict[str, Any]:
    """Measure a 49,000-link chain (limits.ROBOT_MAX_LINKS is 50,000)."""
    start = time.monotonic()
    node.publish(generate.bare_chain(49_000, 'huge'))
    served = node.wait_robot('huge', cap)
    result: Dict[str, Any] = {'served_s': served if served == float('inf')
                              else time.monotonic() - start}
    if served != float('inf'):
        begin = time.monotonic()
        answer = node.list_links(cap)
        result['list_links_s'] = time.monotonic() - begin
        result['list_links_rows'] = len(answer.links)
        begin = time.monotonic()
        near = node.bench.call(node.findings_client,
                               node.GetLinkFindings.Request(link_name='link_5000x'), cap)
        result['near_miss_s'] = time.monotonic() - begin
        result['near_miss_message'] = near.message[:80]
        count = len(node.sizes)
        node.bench.spin_until(lambda: len(node.sizes) > count + 1, cap, 'diagnostics')
        result['max_diagnostics_bytes'] = max(node.sizes)
    return result


def run_triangles(node: Node, cap: float, stl: str) -> Dict[str, Any]:
    """Measure triangle requests on a big mesh."""
    node.publish(generate.mesh_robot(stl, 'meshy'))
    served = node.wait_robot('meshy', cap)
    if served == float('inf'):
        return {'served_s': served}
    client = subprocess.Popen(
        [sys.executable, os.path.join(REPO, 'test', 'hostile_triangles.py'), '--domain',
         str(node.domain), '--namespace', node.namespace, '--link', 'shell', '--calls', '2',
         '--timeout', str(cap)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env=ros_environment(node.domain), cwd=REPO, start_new_session=True)
    try:
        client.stdout.readline()  # READY
        latencies = node.probe(cap, lambda: client.poll() is not None)
        out, _ = client.communicate(timeout=cap + 30)
    finally:
        if client.poll() is None:
            client.kill()
            client.wait(10)
    answer = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
    return {'calls_s': answer.get('seconds'), 'triangles': answer.get('triangles'),
            'message': answer.get('message', '')[:120],
            'list_links_during': _latency(latencies)}


def main(argv: Optional[List[str]] = None) -> int:
    """Run the chosen classes and print one JSON object per class."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--node-repo', default=REPO)
    parser.add_argument('--domain', type=int, default=None)
    parser.add_argument('--cap', type=float, default=120.0)
    parser.add_argument('--classes', nargs='*',
                        default=['grind', 'supersede', 'huge', 'triangles'])
    parser.add_argument('--parameters', nargs='*', default=[],
                        help='NAME:=VALUE given to every node')
    args = parser.parse_args(argv)
    exit_on_sigterm()
    domain = args.domain if args.domain is not None else domain_id(11)
    parameters = dict(item.split(':=', 1) for item in args.parameters)
    stl = os.path.join(tempfile.gettempdir(), f'ult_hostile_{os.getpid()}.stl')
    generate.write_binary_stl(stl, 1_300_000)
    try:
        for name in args.classes:
            node = Node(os.path.abspath(args.node_repo), domain, name, parameters)
            start = time.monotonic()
            try:
                if name == 'grind':
                    result = run_grind(node, args.cap)
                elif name == 'supersede':
                    result = run_supersede(node, args.cap)
                elif name == 'huge':
                    result = run_huge(node, args.cap)
                else:
                    result = run_triangles(node, args.cap, stl)
            except (TimeoutError, ValueError) as exc:
                result = {'error': str(exc)}
            result['class'] = name
            result['wall_s'] = time.monotonic() - start
            result['peak_rss_mib'] = node.close()
            print(json.dumps(result, default=str), flush=True)
    finally:
        os.unlink(stl)
    return 0


if __name__ == '__main__':
    sys.exit(main())
