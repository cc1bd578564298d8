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
The benchmarks' service calls send a request again when its answer is lost, and count it.

On 2026-11-29 CI's Kilted pass failed in bench_services: with four clients calling flat out
on two busy cores, one Trigger answer never arrived and the client waited 120 s for it.
``BenchClient.call(..., resend_after=S)`` gives such a request up after S seconds, sends it
again, and adds one to ``lost`` (which the benchmark reports). Here, in a process of its own
over real rclpy: a server that answers its first request late (the request is then asked
again, one loss), and no server at all (a timeout after the resends, each counted).
"""

import json
import subprocess
import sys
import textwrap

import pytest
from ros_harness import allocate_domain_id, REPO, ros_environment

pytest.importorskip('std_srvs.srv', reason='std_srvs comes with the ROS wheels: run make setup')

SCRIPT = textwrap.dedent("""
    import json
    import sys
    import time

    from bench.ros_processes import BenchClient
    from std_srvs.srv import Trigger

    bench = BenchClient(int(sys.argv[1]), '/ult_resend_test')
    calls = []

    def late_first(request, response):
        calls.append(time.monotonic())
        if len(calls) == 1:
            time.sleep(1.0)  # the first answer comes after the client gave it up
        response.success = True
        response.message = f'answer {len(calls)}'
        return response

    bench.node.create_service(Trigger, 'late', late_first)
    late = bench.node.create_client(Trigger, 'late')
    bench.spin_until(late.service_is_ready, 30.0, 'the late service')
    answer = bench.call(late, Trigger.Request(), timeout=20.0, resend_after=0.3)
    result = {'message': answer.message, 'lost': bench.lost, 'calls': len(calls)}
    bench.lost = 0
    nobody = bench.node.create_client(Trigger, 'nobody')
    try:
        bench.call(nobody, Trigger.Request(), timeout=1.0, resend_after=0.3)
        result['nobody'] = 'answered'
    except TimeoutError as error:
        result['nobody'] = str(error)
    result['nobody_lost'] = bench.lost
    bench.close()
    print(json.dumps(result))
""")


def test_bench_call_sends_a_lost_request_again_and_counts_it():
    domain = allocate_domain_id()
    done = subprocess.run([sys.executable, '-c', SCRIPT, str(domain)], cwd=REPO,
                          env=ros_environment(domain), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-4000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # The first request was given up after 0.3 s and sent again; the second one's answer
    # (not the late first one's) completed the call.
    assert result['lost'] == 1, result
    assert result['calls'] == 2, result
    assert result['message'] == 'answer 2', result
    assert result['nobody'] == 'no answer from nobody within 1.0 s', result
    assert result['nobody_lost'] == 3, result
