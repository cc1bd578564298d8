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
Load on the running node: bursts of descriptions, and service clients in other processes.

- 100 different descriptions published back to back without waiting: the node ends on the
  last one (list_links, markers and diagnostics all about it, nothing of an earlier one),
  and its resident memory after a second burst is within 30 MB of what it was after a first
  (warm-up) burst.
- 8 client processes call the services as fast as they can for 20 s while the description
  changes several times a second: every answer is a success or a clean ``success=false``
  for a link that no longer exists, no call goes unanswered, and the node survives.
"""

import json
import subprocess
import sys
import time

from hostile_harness import client_command, Hostile, rss_mib, wait_lines
import pytest
from ros_harness import NodeSession, REPO, ros_environment

pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

BURST = 100
RSS_GROWTH_LIMIT_MIB = 30.0
CLIENTS = 8
CALL_SECONDS = 20.0


def chain(links: int, name: str, seed: int = 0) -> str:
    """Return a generated chain robot whose link and joint names start with its name."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from bench.generate import chain_robot

    text = chain_robot(links, seed=seed, name=name)
    return text.replace('"link_', f'"{name}_link_').replace('"joint_', f'"{name}_joint_')


def _links(count: int, name: str):
    return [f'{name}_link_{index}' for index in range(count)]


def _burst(hostile: Hostile, tag: str):
    """Publish BURST different robots back to back; return the last one's name and links."""
    robots = [(f'{tag}_{index}', 5 + index % 25) for index in range(BURST)]
    documents = [chain(count, name, seed=index) for index, (name, count) in enumerate(robots)]
    for text in documents:  # no spinning in between: as fast as rclpy publishes
        hostile.client.publish_description(text)
    name, count = robots[-1]
    hostile.wait_robot(name, timeout=120.0)
    return name, _links(count, name)


def _settled_on(hostile: Hostile, name: str, links, since_diagnostics: int):
    """Check that markers and diagnostics are about ``name`` only; return nothing."""
    def last_markers():
        if not hostile.markers:
            return None
        labels = [m.header.frame_id for m in hostile.markers[-1].markers if m.ns == 'labels']
        return labels if labels == links else None
    hostile.client.spin_until(last_markers, 60.0, f'the markers of {name}')
    statuses = hostile.wait_statuses(since_diagnostics, name, timeout=60.0)
    expected = {'urdf_link_tools'} | {f'urdf_link_tools: {link}' for link in links}
    assert set(statuses) == expected, sorted(statuses)
    assert {status.hardware_id for status in statuses.values()} == {name}
    # Another diagnostics round later, the markers are still the last robot's: no array of
    # an earlier description was published after it.
    count = len(hostile.diagnostics)
    hostile.client.spin_until(lambda: len(hostile.diagnostics) > count + 1, 30.0,
                              'two more diagnostics arrays')
    assert last_markers() == links
    answer = hostile.assert_serving(name)
    assert [row.name for row in answer.links] == links


def test_hostile_burst_of_descriptions_settles_on_the_last():
    with NodeSession('hostile_burst', {'diagnostics_period': 0.2}) as session:
        hostile = Hostile(session)
        pid = session.process.process.pid
        name, links = _burst(hostile, 'warmup')
        _settled_on(hostile, name, links, 0)
        warm = rss_mib(pid)

        since = len(hostile.diagnostics)
        start = time.monotonic()
        name, links = _burst(hostile, 'burst')
        elapsed = time.monotonic() - start
        _settled_on(hostile, name, links, since)
        after = rss_mib(pid)
        print(f'burst of {BURST}: last one served after {elapsed:.1f} s; '
              f'RSS {warm:.1f} MiB after the warm-up burst, {after:.1f} MiB after the second')
        assert after - warm < RSS_GROWTH_LIMIT_MIB, (warm, after)
        gone = hostile.link_geometry('warmup_99_link_0')
        assert not gone.success and gone.message.startswith("unknown link 'warmup_99_link_0'")
        assert hostile.link_geometry(links[-1]).success


def test_hostile_service_clients_while_descriptions_change():
    alpha, beta = _links(30, 'alpha'), _links(40, 'beta')
    names = alpha[::7] + beta[::7]
    with NodeSession('hostile_clients') as session:
        hostile = Hostile(session)
        hostile.client.publish_description(chain(30, 'alpha'))
        hostile.wait_robot('alpha')
        processes = [subprocess.Popen(
            client_command(session.domain_id, session.namespace, CALL_SECONDS, names),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=ros_environment(session.domain_id), cwd=str(REPO), start_new_session=True)
            for _ in range(CLIENTS)]
        try:
            try:
                wait_lines([process.stdout for process in processes], 'READY', 90.0)
            except AssertionError as exc:
                # Say why a client ended (a Kilted run once lost one before READY, unsaid).
                ended = [process for process in processes if process.poll() is not None]
                raise AssertionError(f'{exc}; ' + '; '.join(
                    f'exit status {process.returncode}: {process.stderr.read()[-2000:]}'
                    for process in ended)) from None
            for process in processes:
                process.stdin.write('GO\n')
                process.stdin.flush()
            start = time.monotonic()
            changes = 0
            # Several new descriptions a second for as long as the clients call (bounded).
            while time.monotonic() - start < CALL_SECONDS + 1.0 and changes < 1000:
                changes += 1
                robot = ('alpha', 30) if changes % 2 else ('beta', 40)
                text = chain(robot[1], robot[0], seed=changes).replace(
                    f'name="{robot[0]}"', f'name="{robot[0]}_{changes}"', 1)
                hostile.client.publish_description(text)
                hostile.client.executor.spin_once(timeout_sec=0.2)
                assert session.process.alive(), session.process.output()[-3000:]
            summaries = []
            for process in processes:
                out, err = process.communicate(timeout=60.0)
                lines = out.strip().splitlines()
                assert lines, err[-2000:]
                summaries.append(json.loads(lines[-1]))
                assert process.returncode == 0, (summaries[-1], err[-2000:])
        finally:
            for process in processes:
                if process.poll() is None:
                    process.kill()
                    process.wait(10.0)
        calls = sum(summary['calls'] for summary in summaries)
        unknown = sum(summary['unknown_link'] for summary in summaries)
        print(f'{CLIENTS} clients, {CALL_SECONDS:.0f} s, {changes} descriptions: {calls} calls, '
              f'{unknown} clean unknown-link answers')
        assert all(not summary['failures'] for summary in summaries), summaries
        assert all(summary['calls'] >= 30 for summary in summaries), summaries
        final = f'{"alpha" if changes % 2 else "beta"}_{changes}'
        hostile.wait_robot(final, timeout=60.0)
        assert session.process.alive()
