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
Processes and a client for the ROS benchmarks (services, latency, memory).

Every benchmark runs in a DDS domain of its own (from its pid and a per-benchmark offset),
with discovery limited to this machine (``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST``, no
static peers) and its own namespace; child processes get the same environment. The node
and the baselines are started the same way (``python -m <module> --ros-args ...``) and
stopped with SIGINT, killed if they do not end; nothing is left running at exit.
"""

import atexit
import os
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_processes: List[subprocess.Popen] = []


def domain_id(offset: int) -> int:
    """
    Return a DDS domain id for one benchmark (pid-based).

    Within ``URDF_LINK_TOOLS_TEST_DOMAINS=LO-HI`` when set (as the tests), else the exported
    ``ROS_DOMAIN_ID``, else 1..100 (never the default domain 0).
    """
    text = os.environ.get('URDF_LINK_TOOLS_TEST_DOMAINS', '').strip()
    exported = os.environ.get('ROS_DOMAIN_ID', '').strip()
    if text:
        low, _, high = text.partition('-')
        first, last = int(low), int(high or low)
    elif exported:
        first = last = int(exported)
    else:
        first, last = 1, 100
    return first + (os.getpid() * 7 + 31 * offset) % (last - first + 1)


def _discovery() -> Callable[..., None]:
    # The test suite's helper: one place decides the discovery variables per distribution.
    sys.path.insert(0, os.path.join(REPO, 'test'))
    try:
        from ros_discovery import localhost_discovery
    finally:
        sys.path.pop(0)
    return localhost_discovery


def ros_environment(domain: int) -> Dict[str, str]:
    """Return this process's environment restricted to localhost and ``domain``."""
    env = dict(os.environ)
    env['ROS_DOMAIN_ID'] = str(domain)
    _discovery()(env)
    env['PYTHONUNBUFFERED'] = '1'
    env['RCUTILS_COLORIZED_OUTPUT'] = '0'
    env['PYTHONPATH'] = os.pathsep.join(
        [REPO] + [item for item in env.get('PYTHONPATH', '').split(os.pathsep) if item])
    return env


def use_domain(domain: int) -> None:
    """Set this process's own environment to the benchmark's domain (before rclpy.init)."""
    os.environ.update({key: value for key, value in ros_environment(domain).items()
                       if key.startswith('ROS_')})
    _discovery()(os.environ)  # the client's variables are the node's


def _kill_leftovers() -> None:
    for process in _processes:
        if process.poll() is None:
            process.kill()


atexit.register(_kill_leftovers)


def exit_on_sigterm() -> None:
    """Turn SIGTERM (``timeout``, a CI runner) into SystemExit, so that cleanups run."""
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))


def progress(text: str) -> None:
    """Print a progress line on stderr (the ratios go to stdout)."""
    print(f'   .. {text}', file=sys.stderr, flush=True)


class RosProcess:
    """
    A ROS node run as ``python -m MODULE [ARGS] --ros-args -r __ns:=NAMESPACE -p ...``.

    :param module: e.g. 'urdf_link_tools.ros.node' or 'bench.baseline_server'
    :param domain: its DDS domain
    :param namespace: its namespace
    :param args: arguments before ``--ros-args``
    :param parameters: ``name -> value`` as ``-p name:=value`` (lists as YAML)
    """

    def __init__(self, module: str, domain: int, namespace: str, args: Sequence[str] = (),
                 parameters: Optional[Dict[str, Any]] = None) -> None:
        self.log = tempfile.NamedTemporaryFile(mode='w+b', prefix='ult_bench_', suffix='.log',
                                               delete=False)
        command = [sys.executable, '-m', module, *args, '--ros-args', '-r', f'__ns:={namespace}']
        for name, value in (parameters or {}).items():
            command += ['-p', f'{name}:={_yaml(value)}']
        self.process = subprocess.Popen(command, env=ros_environment(domain), cwd=REPO,
                                        stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        _processes.append(self.process)

    @property
    def pid(self) -> int:
        """Return the process id."""
        return self.process.pid

    def output(self) -> str:
        """Return what the process printed so far."""
        with open(self.log.name, 'rb') as stream:
            return stream.read().decode('utf-8', 'replace')

    def stop(self, timeout: float = 10.0) -> None:
        """Stop with SIGINT; kill when it does not end in time."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)
        self.log.close()
        os.unlink(self.log.name)


def _yaml(value: Any) -> str:
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, (list, tuple)):
        return '[' + ', '.join(_yaml(item) for item in value) + ']'
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


def rss_mib(pid: int) -> float:
    """Return a process's resident set size (VmRSS in /proc/<pid>/status) in MiB."""
    with open(f'/proc/{pid}/status') as stream:
        for line in stream:
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) / 1024.0
    raise RuntimeError(f'no VmRSS for process {pid}')


def largest_corpus_robot() -> Tuple[str, str, int]:
    """
    Return the example-robot-data URDF with the most links: (path, robot name, links).

    :raises RuntimeError: when the corpus is not installed
    """
    from bench.common import corpus_urdfs
    from urdf_link_tools.parser import parse_urdf_string

    best = None
    for path in corpus_urdfs():
        with open(path, 'rb') as stream:
            robot = parse_urdf_string(stream.read(), path)
        key = (len(robot.links), os.path.getsize(path))
        if best is None or key > best[0]:
            best = (key, path, robot.name)
    if best is None:
        raise RuntimeError('example-robot-data is not installed: run make setup')
    return best[1], best[2], best[0][0]


def corpus_package_dirs() -> List[str]:
    """Return the node's package_dirs value for example-robot-data's meshes."""
    sys.path.insert(0, os.path.join(REPO, 'test'))
    try:
        import corpus
    finally:
        sys.path.pop(0)
    prefix = corpus.prefix()
    if prefix is None:
        raise RuntimeError('example-robot-data is not installed: run make setup')
    return [f'example-robot-data={prefix / "share" / "example-robot-data"}']


class BenchClient:
    """
    The benchmark's own rclpy context, node and single-threaded executor.

    :param domain: the DDS domain
    :param namespace: the namespace of the processes under test
    :param name: this node's name
    """

    def __init__(self, domain: int, namespace: str, name: str = 'ult_bench_client') -> None:
        import rclpy
        from rclpy.executors import SingleThreadedExecutor

        use_domain(domain)
        self.context = rclpy.Context()
        rclpy.init(context=self.context, domain_id=domain)
        self.node = rclpy.create_node(name, namespace=namespace, context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.lost = 0
        self.attempt_start = time.perf_counter()

    def close(self) -> None:
        """Destroy the node and shut the context down."""
        import rclpy

        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.try_shutdown(context=self.context)

    def spin_until(self, condition: Callable[[], Any], timeout: float, what: str) -> Any:
        """Spin until ``condition()`` is truthy and return it; raise after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while True:
            result = condition()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f'timed out after {timeout:.0f} s waiting for {what}')
            self.executor.spin_once(timeout_sec=min(0.05, remaining))

    def call(self, client: Any, request: Any, timeout: float = 30.0,
             resend_after: Optional[float] = None) -> Any:
        """
        Call a service and return the response (raise on timeout).

        It spins once at a time until the answer is there: rclpy 7.1's
        ``spin_until_future_complete`` gets slower with every call in a process (each call
        leaves wake-up callbacks behind, cf. ros2/rclpy#1374 and #1702): measured here, an
        empty Trigger round trip went from 3 ms to 80 ms over 1,600 calls that way, and
        stays at 0.4 ms like this.

        With ``resend_after``, a request not answered within that many seconds is given up
        and sent again (until ``timeout``): the answers of a service share one writer, and
        with several clients calling flat out on two busy cores DDS can drop one (seen once in
        CI: a Trigger answer never arrived in 120 s). Each resend adds one to ``self.lost``;
        ``self.attempt_start`` is when the answered request went out.
        """
        deadline = time.monotonic() + timeout
        while True:
            self.attempt_start = time.perf_counter()
            future = client.call_async(request)
            give_up = deadline if resend_after is None else \
                min(deadline, time.monotonic() + resend_after)
            while not future.done():
                remaining = give_up - time.monotonic()
                if remaining <= 0:
                    break
                self.executor.spin_once(timeout_sec=min(remaining, 1.0))
            if future.done():
                return future.result()
            client.remove_pending_request(future)
            if time.monotonic() >= deadline:
                raise TimeoutError(f'no answer from {client.srv_name} within {timeout} s')
            self.lost += 1


def service_qos() -> Any:
    """
    Return the QoS of the benchmarks' service clients: the default, keeping all answers.

    With rmw_fastrtps, every client of a service receives the answers to all of them; a
    bounded history loses a client's own answer when others get that many while it is not
    scheduled, and its call never completes (with a history of 10: about 0.5% of calls with
    8 clients here, even against std_srvs/Trigger; with 100, still some with 4 fast clients
    of the node). KEEP_ALL loses none. The same clients are used for the node and its
    baseline.
    """
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

    return QoSProfile(history=HistoryPolicy.KEEP_ALL, depth=1,
                      reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.VOLATILE)
