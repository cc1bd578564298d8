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
A node process the tests started leaves no log file behind once stopped.

Until 2026-11-29 every node a test started left its log in the temporary folder: one run of
the suite left 311 ``urdf_link_tools_node_*.log`` files in /tmp, on every machine and CI
runner it ran on. What the node printed is still there for the test after it stopped.
"""

import os
import time

import pytest
from ros_harness import allocate_domain_id, NodeProcess, SAMPLE_URDF, unique_namespace

pytest.importorskip('rclpy', reason='rclpy comes with the ROS wheels: run make setup')


def test_a_stopped_node_leaves_no_log_and_keeps_its_output():
    node = NodeProcess(allocate_domain_id(), unique_namespace('logs'),
                       parameters={'urdf_file': str(SAMPLE_URDF)})
    name = node.log.name
    assert os.path.exists(name)
    deadline = time.monotonic() + 60.0
    while 'ready' not in node.output() and time.monotonic() < deadline and node.alive():
        time.sleep(0.1)
    node.stop()
    assert not os.path.exists(name)
    assert 'ready' in node.output(), node.output()
    node.stop()  # stopping twice is harmless
    assert 'ready' in node.output()
