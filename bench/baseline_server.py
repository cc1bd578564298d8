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
The baselines the ROS benchmarks compare the node with: minimal rclpy nodes, one per mode.

Run as ``python -m bench.baseline_server MODE --ros-args -r __ns:=/NAMESPACE``, like the
node (``python -m urdf_link_tools.ros.node``), and spun the same way (``rclpy.spin``, a
single-threaded executor):

- ``trigger``: serves an empty std_srvs/Trigger at ``~/trigger`` (bench_services);
- ``relay``: republishes every std_msgs/String from ``echo_in`` on ``echo_out``, both latched
  like robot_description (bench_latency);
- ``idle``: a node with nothing at all (bench_memory).
"""

import sys
from typing import List, Optional

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

LATCHED = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1,
                     reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
# The node's service QoS (urdf_link_tools.ros.node.SERVICES), so both are served alike.
SERVICES = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1000,
                      reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.VOLATILE)
MODES = ('trigger', 'relay', 'idle')


def make_node(mode: str) -> Node:
    """Return the baseline node of a mode."""
    node = Node(f'baseline_{mode}')
    if mode == 'trigger':
        from std_srvs.srv import Trigger

        def trigger(request, response):
            response.success = True
            return response
        node.create_service(Trigger, '~/trigger', trigger, qos_profile=SERVICES)
    elif mode == 'relay':
        from std_msgs.msg import String

        publisher = node.create_publisher(String, 'echo_out', LATCHED)
        node.create_subscription(String, 'echo_in', publisher.publish, LATCHED)
    elif mode != 'idle':
        raise ValueError(f'unknown mode {mode!r}: use one of {", ".join(MODES)}')
    return node


def main(argv: Optional[List[str]] = None) -> int:
    """Spin the baseline node of the mode given first on the command line."""
    argv = list(sys.argv if argv is None else argv)
    if len(argv) < 2 or argv[1] not in MODES:
        print(f'usage: python -m bench.baseline_server {{{"|".join(MODES)}}} [--ros-args ...]',
              file=sys.stderr)
        return 2
    mode = argv.pop(1)
    rclpy.init(args=argv)
    node = None
    try:
        node = make_node(mode)
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == '__main__':
    sys.exit(main())
