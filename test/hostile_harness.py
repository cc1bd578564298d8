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
Helpers for the hostile-input and load tests (test_hostile_*.py).

They sit on :mod:`ros_harness` (the node as a real process in a DDS domain and namespace of
its own, localhost discovery) and add what every hostile case needs: service clients kept
between calls (hundreds of cases), a wait for the node's rejection status, a walk over any
message for numbers that are not finite or for a string that must not be there, the node's
resident memory, and the client process of the load test
(``python test/hostile_harness.py client ...``).
"""

import argparse
from dataclasses import dataclass
import json
import math
import os
from pathlib import Path
import select
import sys
import time
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ros_harness import local_name

REJECTION = 'urdf_link_tools: robot_description'
SUMMARY = 'urdf_link_tools'
TIMEOUT = 30.0

# Every kind of numeric attribute a URDF has, once or more: the hostile number cases mutate
# each of them in turn. The mesh is the sample's (package_dirs urdf_link_tools=REPO).
TEMPLATE = """<?xml version="1.0"?>
<robot name="template">
  <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material>
  <link name="base">
    <inertial>
      <origin xyz="0 0 0.05" rpy="0 0 0"/>
      <mass value="2.0"/>
      <inertia ixx="0.0034" ixy="0.0001" ixz="0.0001" iyy="0.0034" iyz="0.0001" izz="0.0034"/>
    </inertial>
    <visual>
      <origin xyz="0 0 0.05" rpy="0 0 0"/>
      <geometry><box size="0.1 0.1 0.1"/></geometry>
      <material name="grey"/>
    </visual>
    <collision>
      <origin xyz="0 0 0.05" rpy="0 0 0"/>
      <geometry><box size="0.1 0.1 0.1"/></geometry>
    </collision>
  </link>
  <joint name="j1" type="revolute">
    <parent link="base"/>
    <child link="arm"/>
    <origin xyz="0 0 0.1" rpy="0 0 0"/>
    <axis xyz="0 0 1"/>
    <limit lower="-1.5" upper="1.5" effort="10" velocity="1"/>
    <dynamics damping="0.1" friction="0.2"/>
    <safety_controller soft_lower_limit="-1.4" soft_upper_limit="1.4"
                       k_position="10" k_velocity="1"/>
    <calibration rising="0.1" falling="0.2"/>
  </joint>
  <link name="arm">
    <inertial>
      <origin xyz="0 0 0.2" rpy="0 0 0"/>
      <mass value="1.0"/>
      <inertia ixx="0.0134" ixy="0" ixz="0" iyy="0.0134" iyz="0" izz="0.00045"/>
    </inertial>
    <visual>
      <origin xyz="0 0 0.2" rpy="0 0 0"/>
      <geometry><cylinder radius="0.03" length="0.4"/></geometry>
      <material name="red"><color rgba="0.8 0.1 0.1 1"/></material>
    </visual>
    <collision>
      <origin xyz="0 0 0.2" rpy="0 0 0"/>
      <geometry><cylinder radius="0.03" length="0.4"/></geometry>
    </collision>
  </link>
  <joint name="j2" type="revolute">
    <parent link="arm"/>
    <child link="tool"/>
    <origin xyz="0 0 0.4" rpy="0 0 0"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="5" velocity="0.5"/>
    <mimic joint="j1" multiplier="1.0" offset="0.1"/>
  </joint>
  <link name="tool">
    <inertial>
      <origin xyz="0 0 0.02" rpy="0 0 0"/>
      <mass value="0.5"/>
      <inertia ixx="0.0002" ixy="0" ixz="0" iyy="0.0002" iyz="0" izz="0.0002"/>
    </inertial>
    <collision>
      <origin xyz="0 0 0.02" rpy="0 0 0"/>
      <geometry><sphere radius="0.02"/></geometry>
    </collision>
    <collision>
      <origin xyz="0 0 0.02" rpy="0 0 0"/>
      <geometry>
        <mesh filename="package://urdf_link_tools/samples/meshes/arm_collision.stl"
              scale="0.1 0.1 0.1"/>
      </geometry>
    </collision>
  </link>
</robot>
"""
TEMPLATE_LINKS = ('base', 'arm', 'tool')


@dataclass(frozen=True)
class NumericAttribute:
    """
    One attribute of a document whose value is one or more numbers.

    :param tag: the element's tag
    :param name: the attribute's name
    :param tokens: its numbers, as written
    :param element_line: the line of the element's start tag
    :param line: the line the attribute is written on
    :param link: the link it describes ('' for none): the enclosing link, or a joint
        origin's child link, which it places
    :param parent: the tag of the element's parent
    """

    tag: str
    name: str
    tokens: Tuple[str, ...]
    element_line: int
    line: int
    link: str
    parent: str

    @property
    def label(self) -> str:
        """Return a short unique-enough name for test ids, e.g. 'L12-inertia-ixx'."""
        return f'L{self.line}-{self.tag}-{self.name}'


def numeric_attributes(text: str) -> List[NumericAttribute]:
    """Return every attribute of a document whose value is numbers, in document order."""
    from lxml import etree

    lines = text.splitlines()
    found = []
    for element in etree.fromstring(text.encode()).iter():
        if not isinstance(element.tag, str):
            continue
        for name, value in element.attrib.items():
            tokens = tuple(value.split())
            try:
                [float(token) for token in tokens]
            except ValueError:
                continue
            if not tokens:
                continue
            # libxml2 gives a start tag spread over lines the line where it ends; the
            # checker, the line where it begins.
            start = next(index for index in range(element.sourceline - 1, -1, -1)
                         if f'<{element.tag}' in lines[index])
            line = next(index + 1 for index in range(start, len(lines))
                        if f' {name}="' in lines[index])
            parent = element.getparent()
            link = ''
            for ancestor in element.iterancestors():
                if ancestor.tag == 'link':
                    link = ancestor.get('name')
                    break
                if ancestor.tag == 'joint' and element.tag == 'origin':
                    link = ancestor.find('child').get('link')
                    break
            found.append(NumericAttribute(element.tag, name, tokens, start + 1, line,
                                          link, parent.tag if parent is not None else ''))
    return found


def with_value(text: str, attribute: NumericAttribute, value: str) -> str:
    """Return the document with one attribute's value replaced."""
    lines = text.splitlines()
    index = attribute.line - 1
    old = f'{attribute.name}="{" ".join(attribute.tokens)}"'
    if old not in lines[index]:
        raise ValueError(f'{old} is not on line {attribute.line}')
    lines[index] = lines[index].replace(old, f'{attribute.name}="{value}"', 1)
    return '\n'.join(lines) + '\n'


# ------------------------------------------------------------------------- messages

def _fields(message: Any) -> Optional[Sequence[str]]:
    getter = getattr(message, 'get_fields_and_field_types', None)
    return list(getter()) if getter is not None else None


def walk(message: Any, path: str = '') -> Iterator[Tuple[str, Any]]:
    """Yield ``(path, value)`` for every leaf of a ROS message (lists and arrays included)."""
    fields = _fields(message)
    if fields is not None:
        for name in fields:
            yield from walk(getattr(message, name), f'{path}.{name}' if path else name)
    elif isinstance(message, (list, tuple)) or type(message).__name__ == 'array' or \
            hasattr(message, 'tolist') and not isinstance(message, (bytes, str)):
        items = message.tolist() if hasattr(message, 'tolist') else message
        for index, item in enumerate(items):
            yield from walk(item, f'{path}[{index}]')
    else:
        yield path, message


def non_finite(message: Any) -> List[str]:
    """Return the paths of every float in a message that is NaN or infinite."""
    return [f'{path}={value}' for path, value in walk(message)
            if isinstance(value, float) and not math.isfinite(value)]


def texts(message: Any) -> Iterator[str]:
    """Yield every string field of a message."""
    for _, value in walk(message):
        if isinstance(value, str):
            yield value


def rss_mib(pid: int) -> float:
    """Return a process's resident set size (VmRSS of /proc/<pid>/status) in MiB."""
    with open(f'/proc/{pid}/status') as stream:
        for line in stream:
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) / 1024.0
    raise RuntimeError(f'no VmRSS for process {pid}')


# ------------------------------------------------------------------------- the node

class Hostile:
    """
    One node session with what the hostile cases observe: diagnostics, markers, services.

    :param session: a :class:`ros_harness.NodeSession`
    """

    def __init__(self, session: Any) -> None:
        from geometry_msgs.msg import PointStamped

        self.session = session
        self.client = session.client
        self.diagnostics = session.diagnostics()
        self.markers = session.markers()
        self.robot_com = self.client.collect(PointStamped, session.private('robot_com'))

    # ---------------------------------------------------------------- services

    def call(self, service_type: Any, name: str, request: Any,
             timeout: float = TIMEOUT) -> Any:
        """
        Call a private service of the node; the session's client keeps it for the next call.

        The request is sent again when no answer came within a few seconds (see
        :meth:`ros_harness.RosClient.call`: Fast DDS drops the answers to a client it has not
        matched yet, which a loaded machine makes likely).
        """
        return self.client.call(service_type, self.session.private(name), request, timeout)

    def list_links(self) -> Any:
        """Call ``~/list_links``."""
        from urdf_link_tools.srv import ListLinks

        return self.call(ListLinks, 'list_links', ListLinks.Request())

    def link_geometry(self, link: str, group: str = '', triangles: bool = False) -> Any:
        """Call ``~/get_link_geometry``."""
        from urdf_link_tools.srv import GetLinkGeometry

        return self.call(GetLinkGeometry, 'get_link_geometry', GetLinkGeometry.Request(
            link_name=link, group=group, include_mesh_triangles=triangles))

    def link_findings(self, link: str) -> Any:
        """Call ``~/get_link_findings`` ('' for the robot-wide findings)."""
        from urdf_link_tools.srv import GetLinkFindings

        return self.call(GetLinkFindings, 'get_link_findings',
                         GetLinkFindings.Request(link_name=link))

    # ---------------------------------------------------------------- waiting

    def publish(self, text: str) -> Tuple[int, int, float]:
        """Publish a description; return where the diagnostics and markers lists stood."""
        mark = (len(self.diagnostics), len(self.markers), time.monotonic())
        self.client.publish_description(text)
        return mark

    def wait_rejection(self, since: int, needles: Sequence[str],
                       timeout: float = TIMEOUT) -> Any:
        """
        Wait for the rejection status published after ``since`` that holds every needle.

        Every array carrying it must carry it once: one clear status, not a pile.
        """
        def found():
            for array in self.diagnostics[since:]:
                rejections = [status for status in array.status
                              if local_name(status.name) == REJECTION]
                assert len(rejections) <= 1, [status.message for status in rejections]
                if rejections and all(needle in rejections[0].message for needle in needles):
                    return rejections[0]
            return None
        return self.client.spin_until(found, timeout, f'a rejection naming {needles}')

    def wait_robot(self, name: str, timeout: float = TIMEOUT) -> Any:
        """Wait until ``~/list_links`` serves the robot called ``name``; return the answer."""
        def served():
            answer = self.list_links()
            return answer if answer.success and answer.robot_name == name else None
        return self.client.spin_until(served, timeout, f'robot {name!r} in service')

    def wait_markers(self, since: int, timeout: float = TIMEOUT,
                     where: Optional[Callable[[Any], bool]] = None) -> Any:
        """
        Wait for the first marker array received after ``since`` (that ``where`` accepts).

        A late array of the previous robot can still arrive after ``since``; ``where`` tells
        the one about the robot just published.
        """
        def found():
            for array in self.markers[since:]:
                if where is None or where(array):
                    return array
            return None
        return self.client.spin_until(found, timeout, 'a marker array')

    def wait_statuses(self, since: int, robot: str, timeout: float = TIMEOUT) -> Dict[str, Any]:
        """Wait for a diagnostics array about ``robot`` after ``since``; return its statuses."""
        def found():
            for array in self.diagnostics[since:]:
                named = {local_name(status.name): status for status in array.status}
                summary = named.get(SUMMARY)
                if summary is not None and summary.hardware_id == robot:
                    return named
            return None
        return self.client.spin_until(found, timeout, f'the diagnostics of {robot!r}')

    def assert_serving(self, name: str) -> Any:
        """Assert the node runs and serves the robot ``name``; return the list_links answer."""
        assert self.session.process.alive(), self.session.process.output()[-3000:]
        answer = self.list_links()
        assert answer.success and answer.robot_name == name, answer.message
        return answer


# ------------------------------------------------------------------------- load client

def client_qos() -> Any:
    """
    Return the QoS of the load clients: the services' default, keeping all answers.

    With rmw_fastrtps every client's response reader receives the answers to all clients
    of the service; with a bounded history, a client that is not scheduled while others get
    that many answers loses its own, and its call never completes. Measured here with 8
    processes calling an empty std_srvs/Trigger server for 20 s: about 15 lost answers in
    3,000 calls with the default history of 10 (the same symptom as ros2/rmw#372). The
    node cannot prevent that; its clients can, and these do, so that a lost answer here
    means the node's fault.
    """
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

    return QoSProfile(history=HistoryPolicy.KEEP_ALL, depth=1,
                      reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.VOLATILE)


def run_client(args: argparse.Namespace) -> int:
    """
    Call the node's services as fast as possible for a while; print a JSON summary.

    Prints ``READY`` once the services are available, waits for ``GO`` on stdin, then
    calls list_links and, for a link of the answer or of ``--names``, get_link_geometry
    and get_link_findings, until ``--seconds`` have passed. A call that fails other than
    with a clean ``success=false`` for an unknown link is counted as a failure and
    described in the summary.
    """
    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from urdf_link_tools.srv import GetLinkFindings, GetLinkGeometry, ListLinks

    rclpy.init(domain_id=args.domain)
    node = rclpy.create_node(f'ult_load_client_{os.getpid()}', namespace=args.namespace)
    summary: Dict[str, Any] = {'calls': 0, 'ok': 0, 'unknown_link': 0, 'failures': []}
    try:
        prefix = f'{args.node}/'
        qos = client_qos()
        clients = {
            'list_links': node.create_client(ListLinks, prefix + 'list_links', qos_profile=qos),
            'get_link_geometry': node.create_client(
                GetLinkGeometry, prefix + 'get_link_geometry', qos_profile=qos),
            'get_link_findings': node.create_client(
                GetLinkFindings, prefix + 'get_link_findings', qos_profile=qos)}
        executor = SingleThreadedExecutor()
        executor.add_node(node)

        def await_answer(name: str, request: Any, timeout: float) -> Optional[Any]:
            # Spin once at a time: rclpy 7.1's spin_until_future_complete gets slower with
            # every call in a process (cf. ros2/rclpy#1374 and #1702).
            future = clients[name].call_async(request)
            deadline = time.monotonic() + timeout
            while not future.done() and time.monotonic() < deadline:
                executor.spin_once(timeout_sec=min(1.0, max(0.0, deadline - time.monotonic())))
            if not future.done():
                clients[name].remove_pending_request(future)
                return None
            return future

        # A first request can reach the node before it has matched this client's response
        # reader, and that answer is lost: get one answer from each service before GO.
        first = {'list_links': ListLinks.Request(),
                 'get_link_geometry': GetLinkGeometry.Request(link_name=''),
                 'get_link_findings': GetLinkFindings.Request(link_name='')}
        deadline = time.monotonic() + args.timeout
        for name, request in first.items():
            while await_answer(name, request, 2.0) is None:
                if time.monotonic() > deadline:
                    summary['failures'].append(f'{name}: never answered')
                    print(json.dumps(summary), flush=True)
                    return 1
        print('READY', flush=True)
        ready, _, _ = select.select([sys.stdin], [], [], args.timeout)
        if not ready or sys.stdin.readline().strip() != 'GO':
            summary['failures'].append('no GO from the test')
            print(json.dumps(summary), flush=True)
            return 1

        def call(name: str, request: Any) -> Optional[Any]:
            future = await_answer(name, request, args.timeout)
            summary['calls'] += 1
            if future is None:
                summary['failures'].append(f'{name}: no answer within {args.timeout} s')
                return None
            if future.exception() is not None:
                summary['failures'].append(f'{name}: {future.exception()!r}')
                return None
            return future.result()

        names = list(args.names)
        end = time.monotonic() + args.seconds
        turn = 0
        while time.monotonic() < end and len(summary['failures']) < 20:
            turn += 1
            answer = call('list_links', ListLinks.Request())
            if answer is None:
                continue
            if not answer.success:
                summary['failures'].append(f'list_links: {answer.message}')
                continue
            summary['ok'] += 1
            current = [row.name for row in answer.links]
            # Alternate between a link of this answer and one that may be gone by now.
            pool = current if turn % 2 or not names else names
            link = pool[turn % len(pool)]
            for name, request in (
                    ('get_link_geometry', GetLinkGeometry.Request(link_name=link)),
                    ('get_link_findings', GetLinkFindings.Request(link_name=link))):
                result = call(name, request)
                if result is None:
                    continue
                if result.success:
                    summary['ok'] += 1
                elif result.message.startswith(f'unknown link {link!r}'):
                    summary['unknown_link'] += 1
                else:
                    summary['failures'].append(f'{name}({link!r}): {result.message}')
                bad = non_finite(result)
                if bad:
                    summary['failures'].append(f'{name}({link!r}): not finite: {bad[:3]}')
        print(json.dumps(summary), flush=True)
        return 0 if not summary['failures'] else 1
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the load client (the only command)."""
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest='command', required=True)
    client = commands.add_parser('client', help='call the services as fast as possible')
    client.add_argument('--domain', type=int, required=True)
    client.add_argument('--namespace', required=True)
    client.add_argument('--node', default='urdf_link_tools')
    client.add_argument('--seconds', type=float, default=20.0)
    client.add_argument('--timeout', type=float, default=30.0)
    client.add_argument('--names', nargs='*', default=[])
    args = parser.parse_args(argv)
    return run_client(args)


def client_command(domain: int, namespace: str, seconds: float,
                   names: Sequence[str]) -> List[str]:
    """Return the command line of one load client process."""
    return [sys.executable, str(Path(__file__).resolve()), 'client', '--domain', str(domain),
            '--namespace', namespace, '--seconds', str(seconds), '--names', *names]


def wait_lines(streams: Sequence[Any], expected: str, timeout: float,
               on_other: Callable[[str], None] = lambda line: None) -> None:
    """Wait until every stream has printed the line ``expected`` (bounded by ``timeout``)."""
    pending = list(streams)
    deadline = time.monotonic() + timeout
    while pending:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f'{len(pending)} process(es) never printed {expected!r}')
        ready, _, _ = select.select(pending, [], [], remaining)
        for stream in ready:
            line = stream.readline()
            if not line:
                raise AssertionError(f'a process ended before printing {expected!r}')
            if line.strip() == expected:
                pending.remove(stream)
            else:
                on_other(line)


if __name__ == '__main__':
    sys.exit(main())
