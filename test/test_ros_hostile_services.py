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
The node under attack (issue 11): it keeps answering, and every case ends in seconds.

Each case runs the node as a real process on DDS and feeds it a generated input:

- a description whose checks grind (every joint names a missing link: a near-miss search
  per joint, quadratic before issue 11): with ``analysis_time_budget`` 2 s it is served
  within seconds (with an ``analysis-incomplete`` finding if the checks still took longer),
  list_links keeps answering meanwhile (see BUSY_P99_LIMIT), and a good robot published
  while another grinding one is being analysed is served at once;
- a chain of 100,000 links: list_links and a near-miss link name answer in about a second
  and less, and /diagnostics stays small (statuses grouped by rule);
- get_link_geometry with triangles of a big mesh, from another process: refused above
  ``mesh_triangles_max`` with a clear message, cached below it, while list_links keeps
  answering.

The node's resident memory stays bounded in every case.
"""

import json
import statistics
import subprocess
import sys
import time

from hostile_harness import Hostile, rss_mib, wait_lines
import pytest
from ros_harness import NodeSession, REPO, ros_environment

pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')


def generate():
    """Return the generators of bench/generate.py (the repository is not a package here)."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from bench import generate as module
    return module


P99_LIMIT = 0.1
# While the node itself analyses (a core busy in the same process), on a 2-core machine with
# a load of 6 to 8 the p99 measured 40-70 ms in bench_hostile_node (before and after issue
# 11 alike: the analysis always ran on its own thread) but 100-500 ms in single 5 s windows
# here; this bound catches a blocked executor (seconds) without failing on the scheduler.
BUSY_P99_LIMIT = 1.0
RSS_LIMIT_MIB = 1024.0
DIAGNOSTICS_LIMIT_BYTES = 1_000_000


def p99(values):
    """Return the nearest-rank 99th percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(0.99 * len(ordered)) - 1))]


def probe_list_links(hostile: Hostile, seconds: float, until=lambda: False):
    """Call list_links back to back for ``seconds`` (or until ``until()``); return latencies."""
    latencies, names = [], set()
    end = time.monotonic() + seconds
    while time.monotonic() < end and not until():
        start = time.monotonic()
        answer = hostile.list_links()
        latencies.append(time.monotonic() - start)
        assert answer.success, answer.message
        names.add(answer.robot_name)
    return latencies, names


def latency_limit(hostile: Hostile) -> float:
    """
    Return the p99 list_links must stay under during an attack: 100 ms.

    On a machine shared by many jobs the idle node alone can be slower than that (the
    test and the node wait for a core): then twice the idle p99, measured now.
    """
    idle, _ = probe_list_links(hostile, 1.5)
    limit = max(P99_LIMIT, 2.0 * p99(idle))
    print(f'idle list_links p99 {p99(idle) * 1e3:.1f} ms: limit {limit * 1e3:.0f} ms')
    return limit


def serialized_sizes(arrays):
    """Return the serialized size of each diagnostics array received."""
    from rclpy.serialization import serialize_message

    return [len(serialize_message(array)) for array in arrays]


def test_ros_hostile_grinding_description_is_budgeted_and_replaced():
    with NodeSession('grind', {'analysis_time_budget': 2.0}) as session:
        hostile = Hostile(session)
        pid = session.process.process.pid
        hostile.client.publish_description(generate().chain_robot(10, name='good_a'))
        hostile.wait_robot('good_a')
        p99_limit = latency_limit(hostile)

        published = time.monotonic()
        hostile.client.publish_description(generate().missing_links_robot(2500, 'grind'))
        # Parsing, checks, then the publication of markers for 2,500 links (rclpy holds the
        # GIL ~0.1 s to serialize them): all within the window.
        latencies, names = probe_list_links(hostile, 5.0)
        answer = hostile.wait_robot('grind', timeout=20.0)
        served = time.monotonic() - published
        findings = hostile.link_findings('')
        incomplete = [f for f in findings.findings if f.rule == 'analysis-incomplete']
        print(f'grinding description served after {served:.1f} s '
              f'({"incomplete" if incomplete else "complete"}); list_links during it: '
              f'{len(latencies)} calls, p50 {statistics.median(latencies) * 1e3:.1f} ms, '
              f'p99 {p99(latencies) * 1e3:.1f} ms; RSS {rss_mib(pid):.0f} MiB')
        assert served < 15.0
        assert len(answer.links) == 2500
        if incomplete:
            assert 'time budget of 2 s' in incomplete[0].message
        assert len(latencies) >= 10 and p99(latencies) < max(p99_limit, BUSY_P99_LIMIT), \
            sorted(latencies)[-5:]

        # Diagnostics about 2,500 links with findings: grouped by rule, small.
        statuses = hostile.wait_statuses(0, 'grind')
        assert 'urdf_link_tools: links' in statuses, sorted(statuses)[:5]
        assert any(name.startswith('urdf_link_tools: rule ') for name in statuses)
        assert max(serialized_sizes(hostile.diagnostics)) < DIAGNOSTICS_LIMIT_BYTES

        # A good robot published while a grinding one is analysed wins at once.
        assert all(result.successful for result in
                   session.set_parameters(analysis_time_budget=600.0))
        hostile.client.publish_description(
            generate().missing_links_robot(2500, 'grind_again'))
        probe_list_links(hostile, 1.0)  # the analysis is under way
        published = time.monotonic()
        hostile.client.publish_description(generate().chain_robot(10, name='good_b'))
        hostile.wait_robot('good_b', timeout=20.0)
        replaced = time.monotonic() - published
        print(f'good robot served {replaced:.2f} s after it was published, during a '
              'grinding analysis')
        assert replaced < 5.0
        _, names = probe_list_links(hostile, 1.0)
        assert names == {'good_b'}  # the stale analysis was dropped, not published later
        assert rss_mib(pid) < RSS_LIMIT_MIB
        assert session.process.alive()


def test_ros_hostile_huge_chain_answers_bounded_and_diagnostics_stay_small():
    with NodeSession('huge') as session:
        hostile = Hostile(session)
        pid = session.process.process.pid
        published = time.monotonic()
        hostile.client.publish_description(generate().bare_chain(49_000, 'huge'))
        answer = hostile.wait_robot('huge', timeout=90.0)
        print(f'49,000-link chain served after {time.monotonic() - published:.1f} s')
        assert len(answer.links) == 10_000
        assert answer.message.startswith('49000 links; ') and 'first 10000 listed' in \
            answer.message, answer.message
        timings = {}
        for name, call in (('list_links', hostile.list_links),
                           ('near miss', lambda: hostile.link_findings('link_5000x')),
                           ('geometry', lambda: hostile.link_geometry('link_48999')),
                           ('robot findings', lambda: hostile.link_findings(''))):
            start = time.monotonic()
            result = call()
            timings[name] = time.monotonic() - start
            assert result.success or name == 'near miss', result.message
        near = hostile.link_findings('link_5000x')
        print(' '.join(f'{name} {seconds * 1e3:.0f} ms' for name, seconds in timings.items())
              + f'; RSS {rss_mib(pid):.0f} MiB')
        assert not near.success and "did you mean 'link_5000'" in near.message, near.message
        # Before the bounded answers these took 12 s (list_links) and 14.5 s (near miss). No
        # time is asserted here (a busy CI machine took 6.4 s once): the answers' bounds are
        # (10,000 links listed, the near miss found), and bench.bench_hostile_node measures
        # the seconds with their targets.
        count = len(hostile.diagnostics)
        hostile.client.spin_until(lambda: len(hostile.diagnostics) > count + 1, 20.0,
                                  'two diagnostics arrays')
        assert max(serialized_sizes(hostile.diagnostics)) < DIAGNOSTICS_LIMIT_BYTES
        assert rss_mib(pid) < RSS_LIMIT_MIB


def _triangles_client(session, link, calls):
    return subprocess.Popen(
        [sys.executable, str(REPO / 'test' / 'hostile_triangles.py'), '--domain',
         str(session.domain_id), '--namespace', session.namespace, '--link', link,
         '--calls', str(calls)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=ros_environment(session.domain_id), cwd=str(REPO), start_new_session=True)


@pytest.mark.parametrize('triangles, limit, expected', [
    (300_000, 100_000, 0),        # refused: too many for one answer
    (60_000, 100_000, 60_000),    # answered, built once then cached
])
def test_ros_hostile_mesh_triangles_are_capped_and_cached(tmp_path, triangles, limit,
                                                          expected):
    stl = tmp_path / 'big.stl'
    generate().write_binary_stl(str(stl), triangles)
    with NodeSession('triangles', {'mesh_triangles_max': limit}) as session:
        hostile = Hostile(session)
        pid = session.process.process.pid
        hostile.client.publish_description(generate().mesh_robot(str(stl), 'meshy'))
        hostile.wait_robot('meshy', timeout=60.0)
        p99_limit = latency_limit(hostile)
        client = _triangles_client(session, 'shell', 4)
        try:
            wait_lines([client.stdout], 'READY', 60.0)
            latencies, _ = probe_list_links(hostile, 30.0, lambda: client.poll() is not None)
            out, err = client.communicate(timeout=60.0)
        finally:
            if client.poll() is None:
                client.kill()
                client.wait(10.0)
        result = json.loads(out.strip().splitlines()[-1])
        print(f'{triangles} triangles (limit {limit}): calls '
              f'{[round(s, 2) for s in result["seconds"]]} s; list_links meanwhile: '
              f'{len(latencies)} calls, p99 {p99(latencies) * 1e3:.1f} ms; '
              f'RSS {rss_mib(pid):.0f} MiB')
        assert not result['error'], (result, err[-2000:])
        assert result['triangles'] == [expected] * 4
        if expected == 0:
            assert 'mesh_triangles_max=100000' in result['message'], result['message']
        # (No absolute seconds asserted: the printed call times, and bench_hostile_node,
        # show the triangles built once and sent after; a busy machine only slows them.)
        assert len(latencies) >= 5 and p99(latencies) < p99_limit, sorted(latencies)[-5:]
        assert rss_mib(pid) < RSS_LIMIT_MIB
