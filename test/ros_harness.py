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
Helpers for the end-to-end tests: the node as a real process, a test-side ROS client.

Every test module gets a DDS domain (see :func:`domain_range`) and a namespace of its own,
and discovery stays on this machine (test/ros_discovery.py: the same variables for the
client and the node, ``ROS_LOCALHOST_ONLY=1`` too on Humble), so
parallel runs and other users' nodes are not seen. Nothing sleeps for a fixed time: every
wait spins the client until a condition holds or a deadline passes. The node process is
stopped in the fixture's teardown, and killed at interpreter exit if a teardown never ran.
"""

import atexit
import contextlib
import itertools
import math
import os
from pathlib import Path
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ros_discovery import localhost_discovery

REPO = Path(__file__).resolve().parents[1]
SAMPLE_URDF = REPO / 'samples' / 'sample_robot.urdf'

DOMAINS_VARIABLE = 'URDF_LINK_TOOLS_TEST_DOMAINS'
_counter = itertools.count()
_processes: List[subprocess.Popen] = []
_logs: List[str] = []  # the node logs not removed yet


def domain_range() -> Tuple[int, int]:
    """
    Return the DDS domain ids the tests may use, lowest and highest.

    ``URDF_LINK_TOOLS_TEST_DOMAINS=LO-HI`` (or one number) wins; else an exported
    ``ROS_DOMAIN_ID`` is the only domain used (the namespaces keep the tests apart); else
    1..100, never the default domain 0.
    """
    text = os.environ.get(DOMAINS_VARIABLE, '').strip()
    if text:
        low, dash, high = text.partition('-')
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            first, last = -1, -1
        if not 0 <= first <= last <= 232:
            raise RuntimeError(f'{DOMAINS_VARIABLE}={text!r}: expected LO-HI within 0..232, '
                               'e.g. 10-19')
        return first, last
    exported = os.environ.get('ROS_DOMAIN_ID', '').strip()
    if exported:
        if not exported.isdigit() or int(exported) > 232:
            raise RuntimeError(f'ROS_DOMAIN_ID={exported!r}: expected a number within 0..232')
        return int(exported), int(exported)
    return 1, 100


def allocate_domain_id() -> int:
    """Return a DDS domain id of :func:`domain_range` for one test module (pid-based)."""
    first, last = domain_range()
    return first + (os.getpid() * 7 + next(_counter)) % (last - first + 1)


def unique_namespace(tag: str) -> str:
    """Return a namespace no other test run uses, e.g. '/ult_1234_0_sample'."""
    return f'/ult_{os.getpid()}_{next(_counter)}_{tag}'


def ros_environment(domain_id: int) -> Dict[str, str]:
    """Return this process's environment, restricted to localhost and the given domain."""
    env = dict(os.environ)
    env['ROS_DOMAIN_ID'] = str(domain_id)
    localhost_discovery(env)  # the same variables as the client's (ClientNode)
    env['PYTHONUNBUFFERED'] = '1'
    env['RCUTILS_COLORIZED_OUTPUT'] = '0'
    env['PYTHONPATH'] = os.pathsep.join(
        [str(REPO)] + [item for item in env.get('PYTHONPATH', '').split(os.pathsep) if item])
    return env


def _kill_leftovers() -> None:
    for process in _processes:
        if process.poll() is None:
            process.kill()
    for name in _logs:  # the logs of nodes a failed test never stopped
        with contextlib.suppress(OSError):
            os.unlink(name)


atexit.register(_kill_leftovers)


class NodeProcess:
    """
    The urdf_link_tools node run as ``python -m urdf_link_tools.ros.node``.

    :param domain_id: its DDS domain
    :param namespace: its namespace
    :param parameters: ``name -> value`` passed with ``-p name:=value`` (lists as YAML)
    :param extra_args: more ``--ros-args`` arguments
    """

    def __init__(self, domain_id: int, namespace: str,
                 parameters: Optional[Dict[str, Any]] = None,
                 extra_args: Sequence[str] = ()) -> None:
        self.namespace = namespace
        self.log = tempfile.NamedTemporaryFile(
            mode='w+b', prefix='urdf_link_tools_node_', suffix='.log', delete=False)
        _logs.append(self.log.name)
        self._final: Optional[str] = None  # what it printed, once stopped (the log is gone)
        args = [sys.executable, '-m', 'urdf_link_tools.ros.node', '--ros-args',
                '-r', f'__ns:={namespace}']
        for name, value in (parameters or {}).items():
            args += ['-p', f'{name}:={_yaml(value)}']
        args += list(extra_args)
        self.process = subprocess.Popen(
            args, env=ros_environment(domain_id), stdout=self.log, stderr=subprocess.STDOUT,
            cwd=str(REPO), start_new_session=True)
        _processes.append(self.process)

    def output(self) -> str:
        """Return everything the node printed so far."""
        if self._final is not None:
            return self._final
        with open(self.log.name, 'rb') as stream:
            return stream.read().decode('utf-8', 'replace')

    def alive(self) -> bool:
        """Return True while the process runs."""
        return self.process.poll() is None

    def stop(self, timeout: float = 10.0) -> int:
        """Stop with SIGINT as Ctrl-C would; kill if it does not end in time."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)
        if self._final is None:
            self._final = self.output()
            self.log.close()
            with contextlib.suppress(OSError):
                os.unlink(self.log.name)
            _logs.remove(self.log.name)
        return self.process.returncode


def _yaml(value: Any) -> str:
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, (list, tuple)):
        return '[' + ', '.join(_yaml(item) for item in value) + ']'
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


class RosClient:
    """
    The test's side of the graph: its own rclpy context, one node, one executor.

    :param domain_id: the DDS domain (the node process's)
    :param namespace: the node process's namespace; topics are given relative to it
    :param on_timeout: called for the text appended to a timeout error (the node's log)
    """

    def __init__(self, domain_id: int, namespace: str,
                 on_timeout: Optional[Callable[[], str]] = None) -> None:
        import rclpy
        from rclpy.executors import SingleThreadedExecutor

        # The rmw reads these when the context starts: the same as the node's.
        localhost_discovery(os.environ)
        self.namespace = namespace
        self.on_timeout = on_timeout
        self.context = rclpy.Context()
        rclpy.init(context=self.context, domain_id=domain_id)
        self.node = rclpy.create_node('ult_test_client', namespace=namespace,
                                      context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._publishers: Dict[str, Any] = {}
        self._clients: Dict[str, Any] = {}

    def close(self) -> None:
        """Destroy the node and shut the context down."""
        import rclpy

        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.try_shutdown(context=self.context)

    # ---------------------------------------------------------------- waiting

    def spin_until(self, condition: Callable[[], Any], timeout: float, what: str) -> Any:
        """
        Spin until ``condition()`` returns something truthy, and return it.

        :raises AssertionError: after ``timeout`` seconds, with ``what`` and the node's log
        """
        deadline = time.monotonic() + timeout
        while True:
            result = condition()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                log = self.on_timeout() if self.on_timeout else ''
                raise AssertionError(f'timed out after {timeout:.0f} s waiting for {what}\n'
                                     f'--- node output ---\n{log}')
            self.executor.spin_once(timeout_sec=min(0.05, remaining))

    # ---------------------------------------------------------------- topics

    def latched_qos(self):
        """Return RELIABLE, TRANSIENT_LOCAL, KEEP_LAST 1: robot_description's QoS."""
        from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

        return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1,
                          reliability=ReliabilityPolicy.RELIABLE,
                          durability=DurabilityPolicy.TRANSIENT_LOCAL)

    def publish_description(self, text: str, topic: str = 'robot_description') -> None:
        """Publish a robot description, latched as robot_state_publisher does."""
        from std_msgs.msg import String

        publisher = self._publishers.get(topic)
        if publisher is None:
            publisher = self.node.create_publisher(String, topic, self.latched_qos())
            self._publishers[topic] = publisher
        publisher.publish(String(data=text))

    def publish_joint_states(self, positions: Dict[str, float]) -> None:
        """Publish one sensor_msgs/JointState (reliable, as joint_state_publisher does)."""
        from sensor_msgs.msg import JointState

        publisher = self._publishers.get('joint_states')
        if publisher is None:
            publisher = self.node.create_publisher(JointState, 'joint_states', 10)
            self._publishers['joint_states'] = publisher
            # Not latched: a message sent before the node's subscription matched is lost.
            self.wait_for_subscriber('joint_states')
        message = JointState()
        message.header.stamp = self.node.get_clock().now().to_msg()
        message.name = list(positions)
        message.position = [float(value) for value in positions.values()]
        publisher.publish(message)

    def publish_joint_states_until(self, positions: Dict[str, float],
                                   condition: Callable[[], Any], timeout: float, what: str,
                                   period: float = 0.1) -> Any:
        """
        Publish ``positions`` every ``period`` seconds until ``condition()`` holds; return it.

        joint_state_publisher streams at 10 Hz; a single message can be lost while the node's
        subscription has not matched this publisher yet, even after this side saw it.
        """
        last = [-math.inf]

        def publish_then_check() -> Any:
            now = time.monotonic()
            if now - last[0] >= period:
                self.publish_joint_states(positions)
                last[0] = now
            return condition()
        return self.spin_until(publish_then_check, timeout, what)

    def collect(self, message_type: Any, topic: str, qos: Any = 10) -> List[Any]:
        """Subscribe and return the list every message will be appended to."""
        received: List[Any] = []
        self.node.create_subscription(message_type, topic, received.append, qos)
        return received

    def wait_for_subscriber(self, topic: str, timeout: float = 20.0) -> None:
        """Wait until the node process subscribes to one of our topics."""
        self.spin_until(lambda: self._publishers[topic].get_subscription_count() > 0,
                        timeout, f'a subscriber on {topic}')

    # ---------------------------------------------------------------- services

    def call(self, service_type: Any, name: str, request: Any, timeout: float = 20.0,
             attempt: float = 5.0) -> Any:
        """
        Call a service of the node and return the response.

        One client per service is kept for the session. A request is sent again when no
        answer came within ``attempt`` seconds: Fast DDS drops a response when the server
        has not yet matched the client's response reader ("failed to send response
        (timeout)"), which a busy machine makes likely for a new client. Every service of
        the node is idempotent, so asking twice is harmless.
        """
        client = self._clients.get(name)
        if client is None:
            client = self.node.create_client(service_type, name)
            self._clients[name] = client
        deadline = time.monotonic() + timeout
        self.spin_until(client.service_is_ready, timeout, f'service {name}')
        while True:
            future = client.call_async(request)
            remaining = deadline - time.monotonic()
            try:
                return self.spin_until(lambda: future.done() and future,
                                       max(0.0, min(attempt, remaining)),
                                       f'the answer of {name}').result()
            except AssertionError:
                client.remove_pending_request(future)
                if time.monotonic() >= deadline:
                    raise


class NodeSession:
    """
    A node process and a client on its domain and namespace, with the node's API at hand.

    Use it as a context manager; leaving it shuts the client down and stops the node.
    """

    NODE = 'urdf_link_tools'

    def __init__(self, tag: str, parameters: Optional[Dict[str, Any]] = None,
                 extra_args: Sequence[str] = ()) -> None:
        self.domain_id = allocate_domain_id()
        self.namespace = unique_namespace(tag)
        self.process = NodeProcess(self.domain_id, self.namespace, parameters, extra_args)
        self.client: Optional[RosClient] = None
        try:
            self.client = RosClient(self.domain_id, self.namespace, self.process.output)
        except BaseException:
            self.process.stop()
            raise

    def __enter__(self) -> 'NodeSession':
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def close(self) -> None:
        """Shut the client down, then stop the node process."""
        try:
            if self.client is not None:
                self.client.close()
        finally:
            self.process.stop()

    def private(self, name: str) -> str:
        """Return the node's private name ``~/name`` relative to the namespace."""
        return f'{self.NODE}/{name}'

    def list_links(self) -> Any:
        """Call ``~/list_links``."""
        from urdf_link_tools.srv import ListLinks

        return self.client.call(ListLinks, self.private('list_links'), ListLinks.Request())

    def link_geometry(self, link: str, group: str = '', triangles: bool = False) -> Any:
        """Call ``~/get_link_geometry``."""
        from urdf_link_tools.srv import GetLinkGeometry

        request = GetLinkGeometry.Request(link_name=link, group=group,
                                          include_mesh_triangles=triangles)
        return self.client.call(GetLinkGeometry, self.private('get_link_geometry'), request)

    def link_findings(self, link: str) -> Any:
        """Call ``~/get_link_findings``."""
        from urdf_link_tools.srv import GetLinkFindings

        return self.client.call(GetLinkFindings, self.private('get_link_findings'),
                                GetLinkFindings.Request(link_name=link))

    def set_parameters(self, **values: Any) -> Any:
        """Set parameters through the node's ``~/set_parameters`` service."""
        from rcl_interfaces.srv import SetParameters
        from rclpy.parameter import Parameter

        request = SetParameters.Request(parameters=[
            Parameter(name, value=value).to_parameter_msg() for name, value in values.items()])
        return self.client.call(SetParameters, self.private('set_parameters'), request).results

    def wait_for_robot(self, name: str, timeout: float = 30.0) -> Any:
        """Wait until ``~/list_links`` serves the robot called ``name``; return the answer."""
        def served():
            answer = self.list_links()
            return answer if answer.success and answer.robot_name == name else None
        return self.client.spin_until(served, timeout, f'robot {name!r} in service')

    def markers(self) -> List[Any]:
        """Subscribe to ``~/markers`` (latched) and return the list of arrays received."""
        from visualization_msgs.msg import MarkerArray

        return self.client.collect(MarkerArray, self.private('markers'),
                                   self.client.latched_qos())

    def diagnostics(self) -> List[Any]:
        """Subscribe to /diagnostics and return the list of arrays received."""
        from diagnostic_msgs.msg import DiagnosticArray

        return self.client.collect(DiagnosticArray, '/diagnostics', 10)


def local_name(name: str, node: str = 'urdf_link_tools') -> str:
    """
    Return a status name without the node's namespace.

    The node names its statuses after its fully qualified name ('ult_1_0_tag/urdf_link_tools:
    arm' in namespace /ult_1_0_tag); every test node runs in a namespace of its own, so the
    tests compare the part from the node name on ('urdf_link_tools: arm').
    test_ros_e2e_fleet.py checks the whole names.
    """
    head, found, rest = name.partition(node)
    if found and (not head or (head.endswith('/') and ': ' not in head)):
        return node + rest
    return name


def statuses_of(arrays: Sequence[Any], prefix: str = 'urdf_link_tools') -> Dict[str, Any]:
    """
    Return the latest status of each name starting with ``prefix`` over received arrays.

    Names are keyed without the node's namespace (:func:`local_name`).
    """
    latest: Dict[str, Any] = {}
    for array in arrays:
        for status in array.status:
            name = local_name(status.name)
            if name == prefix or name.startswith(prefix + ': '):
                latest[name] = status
    return latest
