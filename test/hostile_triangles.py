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
A client process that asks for a link's mesh triangles over and over.

``python test/hostile_triangles.py --domain D --namespace NS --link L --calls N`` prints one
JSON line: the seconds of each call, the triangles received and the last message. It is a
process of its own so that decoding big answers never slows the test's own client, which
meanwhile measures list_links.
"""

import argparse
import json
import sys
import time
from typing import Optional, Sequence


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Call get_link_geometry with include_mesh_triangles ``--calls`` times."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--domain', type=int, required=True)
    parser.add_argument('--namespace', required=True)
    parser.add_argument('--link', required=True)
    parser.add_argument('--group', default='visual')
    parser.add_argument('--calls', type=int, default=3)
    parser.add_argument('--timeout', type=float, default=60.0)
    args = parser.parse_args(argv)

    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from urdf_link_tools.srv import GetLinkGeometry

    rclpy.init(domain_id=args.domain)
    node = rclpy.create_node('ult_triangles_client', namespace=args.namespace)
    result = {'seconds': [], 'triangles': [], 'message': '', 'error': ''}
    try:
        client = node.create_client(GetLinkGeometry, 'urdf_link_tools/get_link_geometry')
        executor = SingleThreadedExecutor()
        executor.add_node(node)
        deadline = time.monotonic() + args.timeout
        while not client.service_is_ready() and time.monotonic() < deadline:
            executor.spin_once(timeout_sec=0.1)
        # A first request can reach the node before it has matched this client's response
        # reader, and that answer is lost (Fast DDS: "failed to send response (timeout)"):
        # get one answer, asking again every 2 s, before the timed calls.
        while time.monotonic() < deadline:
            future = client.call_async(GetLinkGeometry.Request(link_name=args.link))
            asked = time.monotonic()
            while not future.done() and time.monotonic() < min(deadline, asked + 2.0):
                executor.spin_once(timeout_sec=0.1)
            if future.done():
                break
            client.remove_pending_request(future)
        print('READY', flush=True)
        for _ in range(args.calls):
            start = time.monotonic()
            future = client.call_async(GetLinkGeometry.Request(
                link_name=args.link, group=args.group, include_mesh_triangles=True))
            while not future.done() and time.monotonic() < deadline:
                executor.spin_once(timeout_sec=0.1)
            if not future.done():
                result['error'] = 'no answer'
                break
            answer = future.result()
            result['seconds'].append(time.monotonic() - start)
            result['triangles'].append(sum(len(g.mesh.triangles) for g in answer.geometries))
            result['message'] = answer.message
        print(json.dumps(result), flush=True)
        return 0 if not result['error'] else 1
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == '__main__':
    sys.exit(main())
