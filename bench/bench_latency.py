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
Description-to-output latency: robot_description in, diagnostics and the full MarkerArray out.

The node runs as its own process; this process publishes the largest example-robot-data
robot on robot_description (latched, as robot_state_publisher does) and times, from the
publication, the arrival of (a) the first marker array after it, complete (one label per
link), and (b) the first /diagnostics array about it (summary status whose hardware_id is
the new robot name). The figure is the later of the two. The mesh cache is warm: the robot
is published once before timing, and every timed description differs from it only by the
robot's name, so each is a new description that is parsed and analysed in full.

Baseline, in the same run and alternating with it: the same text as a std_msgs/String,
published on ``echo_in`` to a relay node (:mod:`bench.baseline_server` ``relay``, a separate
process started the same way) that republishes it on ``echo_out``, timed until it is back
here. That is what rclpy needs to carry this description to another process and an answer
of the same size back, without doing anything with it: the floor for any node that turns a
description into output. The ratio says how much the analysis and the outputs cost on top.
The node publishes diagnostics on its timer (``diagnostics_period``, 1 s by default), so
the diagnostics part includes waiting for the next tick, and the markers part does not.
Each timed description is published at a random phase of that timer (after a pause of
0 to 1 s drawn from a fixed seed, spinning meanwhile): published right after a tick, as
a tight loop would, every figure would be a full period.

No target (issue 5: report the figure); the marker array's size is reported with it.
"""

import argparse
import os
import random
import sys
import time
from typing import Any, Dict, List

from bench.common import fmt, ratio_stats, stats, write_result
from bench.ros_processes import (BenchClient, corpus_package_dirs, domain_id, exit_on_sigterm,
                                 largest_corpus_robot, progress, RosProcess)
from urdf_link_tools.ros.diagnostics import status_prefix

TIMEOUT = 120.0
DIAGNOSTICS_PERIOD = 1.0  # the node's default diagnostics_period


def renamed(text: str, robot: str, name: str) -> str:
    """Return the description with the robot element's name replaced."""
    old = f'name="{robot}"'
    if old not in text:
        raise ValueError(f'{old} is not in the description')
    return text.replace(old, f'name="{name}"', 1)


class Observer:
    """The benchmark's publishers and subscriptions, with arrival times."""

    def __init__(self, bench: BenchClient, summary: str) -> None:
        from diagnostic_msgs.msg import DiagnosticArray
        from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
        from std_msgs.msg import String
        from visualization_msgs.msg import MarkerArray

        latched = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1,
                             reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        events = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10,
                            reliability=ReliabilityPolicy.RELIABLE,
                            durability=DurabilityPolicy.VOLATILE)
        self.bench = bench
        #: the name of the node's summary status: its fully qualified name without the
        #: leading slash (diagnostics.status_prefix), since the node runs in a namespace
        self.summary = summary
        self.String = String
        node = bench.node
        self.description = node.create_publisher(String, 'robot_description', latched)
        self.echo_in = node.create_publisher(String, 'echo_in', latched)
        self.markers: List[Any] = []
        self.diagnostics: List[Any] = []
        self.echoes: List[Any] = []
        node.create_subscription(MarkerArray, 'urdf_link_tools/markers', self._stamp(
            self.markers), latched)
        node.create_subscription(DiagnosticArray, '/diagnostics', self._stamp(
            self.diagnostics), events)
        node.create_subscription(String, 'echo_out', self._stamp(self.echoes), latched)

    @staticmethod
    def _stamp(into: List[Any]):
        def callback(message: Any) -> None:
            into.append((time.perf_counter(), message))
        return callback

    def wait_subscribers(self) -> None:
        """Wait until the node and the relay subscribe to what this process publishes."""
        self.bench.spin_until(lambda: self.description.get_subscription_count() > 0 and
                              self.echo_in.get_subscription_count() > 0, TIMEOUT,
                              'the node and the relay')

    def echo(self, text: str) -> float:
        """Return the seconds from publishing ``text`` to receiving it back from the relay."""
        since = len(self.echoes)
        start = time.perf_counter()
        self.echo_in.publish(self.String(data=text))
        arrived = self.bench.spin_until(
            lambda: next((at for at, message in self.echoes[since:]
                          if message.data == text), None), TIMEOUT, 'the echo')
        return arrived - start

    def describe(self, text: str, name: str, links: int) -> Dict[str, Any]:
        """Publish a description; return when its markers and diagnostics arrived."""
        markers_since, diagnostics_since = len(self.markers), len(self.diagnostics)
        start = time.perf_counter()
        self.description.publish(self.String(data=text))

        def complete_markers():
            for at, array in self.markers[markers_since:]:
                labels = sum(1 for marker in array.markers if marker.ns == 'labels')
                if labels == links:
                    return at, array
            return None

        def diagnostics():
            for at, array in self.diagnostics[diagnostics_since:]:
                if any(status.name == self.summary and status.hardware_id == name
                       for status in array.status):
                    return at, array
            return None
        markers_at, array = self.bench.spin_until(complete_markers, TIMEOUT, 'the markers')
        diagnostics_at, statuses = self.bench.spin_until(diagnostics, TIMEOUT, 'diagnostics')
        return {'markers': markers_at - start, 'diagnostics': diagnostics_at - start,
                'both': max(markers_at, diagnostics_at) - start, 'array': array,
                'statuses': len(statuses.status)}


def measure(repeat: int) -> Dict[str, Any]:
    """Start the node and the relay, time both alternately, stop everything."""
    from rclpy.serialization import serialize_message

    domain = domain_id(1)
    namespace = f'/ult_bench_latency_{os.getpid()}'
    path, robot, links = largest_corpus_robot()
    with open(path) as stream:
        text = stream.read()
    node = RosProcess('urdf_link_tools.ros.node', domain, namespace,
                      parameters={'package_dirs': corpus_package_dirs()})
    relay = RosProcess('bench.baseline_server', domain, namespace, args=['relay'])
    bench = None
    try:
        bench = BenchClient(domain, namespace, 'ult_bench_latency')
        observer = Observer(bench, status_prefix(f'{namespace}/urdf_link_tools'))
        observer.wait_subscribers()
        warm = observer.describe(renamed(text, robot, f'{robot}_warm'), f'{robot}_warm', links)
        observer.echo(renamed(text, robot, f'{robot}_warm'))
        progress(f'{robot} analysed once ({warm["both"]:.2f} s cold); timing')
        times: Dict[str, List[float]] = {'both': [], 'markers': [], 'diagnostics': [],
                                         'echo': []}
        last = None
        phases = random.Random(5)
        for index in range(repeat):
            name = f'{robot}_{index}'
            document = renamed(text, robot, name)
            order = ('echo', 'node') if index % 2 == 0 else ('node', 'echo')
            for what in order:
                if what == 'echo':
                    times['echo'].append(observer.echo(document))
                else:
                    resume = time.monotonic() + phases.uniform(0.0, DIAGNOSTICS_PERIOD)
                    bench.spin_until(lambda: time.monotonic() >= resume, TIMEOUT, 'a pause')
                    last = observer.describe(document, name, links)
                    for key in ('both', 'markers', 'diagnostics'):
                        times[key].append(last[key])
        array = last['array']
        size = len(serialize_message(array))
        statuses = last['statuses']
    finally:
        if bench is not None:
            bench.close()
        node.stop()
        relay.stop()
    return {
        'robot': robot, 'urdf': path, 'links': links, 'description_bytes': len(text.encode()),
        'marker_count': len(array.markers), 'marker_array_bytes': size,
        'diagnostic_statuses': statuses,
        'seconds': {key: stats(values) for key, values in times.items()},
        'ratio_vs_echo': ratio_stats(times['both'], times['echo']),
        'markers_ratio_vs_echo': ratio_stats(times['markers'], times['echo']),
    }


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--repeat', type=int, default=10)
    args = parser.parse_args()
    exit_on_sigterm()
    result = measure(args.repeat)
    seconds = result['seconds']
    print(f"latency ({result['robot']}, {result['links']} links, "
          f"{result['description_bytes'] / 1e3:.0f} kB): description to markers and "
          f"diagnostics {fmt(seconds['both'], ' ms', 1e3)}")
    print(f"latency, markers alone {fmt(seconds['markers'], ' ms', 1e3)}; diagnostics "
          f"alone {fmt(seconds['diagnostics'], ' ms', 1e3)}")
    print(f"latency, rclpy echo of the same text {fmt(seconds['echo'], ' ms', 1e3)}; "
          f"ratio {fmt(result['ratio_vs_echo'])}, markers alone "
          f"{fmt(result['markers_ratio_vs_echo'])} (no target: reported)")
    print(f"latency, MarkerArray: {result['marker_count']} markers, "
          f"{result['marker_array_bytes'] / 1e3:.0f} kB serialised; diagnostics array: "
          f"{result['diagnostic_statuses']} statuses")
    print(f"wrote {write_result('latency', result)}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
