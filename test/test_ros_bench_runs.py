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
The ROS benchmarks run to the end: once each, with the node as a real process over DDS.

``make bench`` failed from 2026-11-24 to 2026-11-28 without anyone seeing it:
``bench_latency`` waited for a status name the node no longer used and timed out after two
minutes. Nothing here is timed (the figures are the benchmarks' business): each benchmark
must exit 0, print its figure line and write its JSON (into a folder of the test's own).
"""

import json
import os
import subprocess
import sys

import pytest
from ros_harness import allocate_domain_id, REPO, ros_environment

pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

# (benchmark module, the line it prints with its figure, the JSON it writes)
BENCHMARKS = [
    ('bench_latency', 'latency (', 'latency.json'),
    ('bench_services', 'services, p50 ratio', 'services.json'),
    ('bench_memory', 'memory, node minus idle node', 'memory.json'),
]


@pytest.mark.parametrize('module, line, result', BENCHMARKS)
def test_ros_benchmark_runs_to_the_end(tmp_path, module, line, result):
    env = ros_environment(allocate_domain_id())
    env.pop('URDF_LINK_TOOLS_TEST_DOMAINS', None)  # the domain just allocated, alone
    env['URDF_LINK_TOOLS_BENCH_RESULTS'] = str(tmp_path)
    done = subprocess.run([sys.executable, '-m', f'bench.{module}', '--repeat', '1'],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert line in done.stdout, done.stdout
    with open(os.path.join(tmp_path, result)) as stream:
        assert json.load(stream)['machine']
