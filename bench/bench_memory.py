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
Memory: the node's resident set with the largest robot loaded, minus an idle rclpy node's.

Both are processes started the same way (``python -m MODULE --ros-args ...``, same
environment and domain): the node (``urdf_link_tools.ros.node``) and an rclpy node with
nothing in it (:mod:`bench.baseline_server` ``idle``). The idle node is measured once it is
in the ROS graph; the node once it has analysed the largest example-robot-data robot
received on robot_description (meshes included), published its markers and diagnostics,
and answered a few service calls (list_links, get_link_geometry with triangles and
get_link_findings on several links). RSS is VmRSS from /proc/<pid>/status. The node is also
measured before any description, to tell what its imports cost from what the model costs.
Repetitions alternate which process starts first; min/median/max over them.

Target (issue 5): at most 60 MB (decimal) more than the idle node.
"""

import argparse
import os
import sys
from typing import Any, Dict, List

from bench.common import fmt, stats, verdict, write_result
from bench.ros_processes import (BenchClient, corpus_package_dirs, domain_id, exit_on_sigterm,
                                 largest_corpus_robot, progress, RosProcess, rss_mib,
                                 service_qos)

TIMEOUT = 120.0
MB_PER_MIB = 1024 * 1024 / 1e6


def _answer(bench: BenchClient, client: Any, request: Any) -> Any:
    """Call until an answer comes (a first request may be lost while discovery settles)."""
    def once():
        try:
            return bench.call(client, request, timeout=2.0)
        except TimeoutError:
            return None
    return bench.spin_until(once, TIMEOUT, f'an answer of {client.srv_name}')


def idle_rss(domain: int, namespace: str) -> float:
    """Start the idle baseline, wait until it is in the graph, return its RSS in MiB."""
    process = RosProcess('bench.baseline_server', domain, namespace, args=['idle'])
    bench = None
    try:
        bench = BenchClient(domain, namespace, 'ult_bench_memory')
        bench.spin_until(
            lambda: ('baseline_idle', namespace) in bench.node.get_node_names_and_namespaces(),
            TIMEOUT, 'the idle node in the graph')
        return rss_mib(process.pid)
    finally:
        if bench is not None:
            bench.close()
        process.stop()


def node_rss(domain: int, namespace: str, text: str, robot: str, links: int) -> Dict[str, float]:
    """Start the node, load the robot, call its services; return its RSS before and after."""
    from diagnostic_msgs.msg import DiagnosticArray
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
    from std_msgs.msg import String
    from urdf_link_tools.srv import GetLinkFindings, GetLinkGeometry, ListLinks
    from visualization_msgs.msg import MarkerArray

    latched = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1,
                         reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
    process = RosProcess('urdf_link_tools.ros.node', domain, namespace,
                         parameters={'package_dirs': corpus_package_dirs()})
    bench = None
    try:
        bench = BenchClient(domain, namespace, 'ult_bench_memory')
        node = bench.node
        qos = service_qos()
        listing = node.create_client(ListLinks, 'urdf_link_tools/list_links', qos_profile=qos)
        geometry = node.create_client(GetLinkGeometry, 'urdf_link_tools/get_link_geometry',
                                      qos_profile=qos)
        findings = node.create_client(GetLinkFindings, 'urdf_link_tools/get_link_findings',
                                      qos_profile=qos)
        markers: List[Any] = []
        diagnostics: List[Any] = []
        node.create_subscription(MarkerArray, 'urdf_link_tools/markers', markers.append,
                                 latched)
        node.create_subscription(DiagnosticArray, '/diagnostics', diagnostics.append, 10)
        _answer(bench, listing, ListLinks.Request())  # up, no description yet
        before = rss_mib(process.pid)
        publisher = node.create_publisher(String, 'robot_description', latched)
        publisher.publish(String(data=text))

        def served():
            answer = _answer(bench, listing, ListLinks.Request())
            return answer if answer.success and answer.robot_name == robot else None
        answer = bench.spin_until(served, TIMEOUT, f'{robot} in service')
        bench.spin_until(lambda: any(
            sum(1 for marker in array.markers if marker.ns == 'labels') == links
            for array in markers), TIMEOUT, 'the markers')
        bench.spin_until(lambda: any(status.hardware_id == robot for array in diagnostics
                                     for status in array.status), TIMEOUT, 'the diagnostics')
        for row in answer.links[::10]:
            _answer(bench, geometry, GetLinkGeometry.Request(
                link_name=row.name, include_mesh_triangles=True))
            _answer(bench, findings, GetLinkFindings.Request(link_name=row.name))
        return {'before_description': before, 'loaded': rss_mib(process.pid)}
    finally:
        if bench is not None:
            bench.close()
        process.stop()


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--repeat', type=int, default=3)
    args = parser.parse_args()
    exit_on_sigterm()
    domain = domain_id(2)
    path, robot, links = largest_corpus_robot()
    with open(path) as stream:
        text = stream.read()
    idle: List[float] = []
    before: List[float] = []
    loaded: List[float] = []
    for repetition in range(args.repeat):
        namespace = f'/ult_bench_memory_{os.getpid()}_{repetition}'
        order = ('idle', 'node') if repetition % 2 == 0 else ('node', 'idle')
        for what in order:
            if what == 'idle':
                idle.append(idle_rss(domain, namespace))
            else:
                figures = node_rss(domain, namespace, text, robot, links)
                before.append(figures['before_description'])
                loaded.append(figures['loaded'])
        progress(f'repetition {repetition + 1}: idle {idle[-1]:.1f} MiB, node '
                 f'{before[-1]:.1f} MiB before the description, {loaded[-1]:.1f} MiB after')
    extra_mb = [(node - base) * MB_PER_MIB for node, base in zip(loaded, idle)]
    imports_mb = [(node - base) * MB_PER_MIB for node, base in zip(before, idle)]
    result = {'robot': robot, 'urdf': path, 'links': links,
              'rss_mib': {'idle_rclpy_node': stats(idle), 'node_before_description':
                          stats(before), 'node_loaded': stats(loaded)},
              'extra_mb': stats(extra_mb), 'extra_before_description_mb': stats(imports_mb)}
    print(f'memory ({robot}, {links} links): idle rclpy node {fmt(stats(idle), " MiB")}; '
          f'node loaded {fmt(stats(loaded), " MiB")}')
    print(f'memory, node minus idle node: {fmt(result["extra_mb"], " MB")} (target <= 60 MB: '
          f'{verdict(result["extra_mb"]["median"], 60.0)}); before any description '
          f'{fmt(result["extra_before_description_mb"], " MB")}')
    print(f"wrote {write_result('memory', result)}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
