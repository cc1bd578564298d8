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

"""The analysis worker without ROS: latest-wins jobs on a thread that survives failures."""

import threading
import time

import pytest
from urdf_link_tools.budget import AnalysisInterrupted, Budget, SUPERSEDED, TIME_BUDGET
from urdf_link_tools.ros.worker import Job, LatestJobWorker

TIMEOUT = 20.0


class Recorder:
    """Runs jobs; the first one blocks until released, so others pile up behind it."""

    def __init__(self):
        self.done = []
        self.errors = []
        self.started = threading.Event()
        self.release = threading.Event()

    def run(self, job, budget):
        self.started.set()
        self.release.wait(TIMEOUT)
        if job.data == 'boom':
            raise RuntimeError('boom')
        self.done.append(job)

    def on_error(self, job, error):
        self.errors.append((job, str(error)))


@pytest.fixture
def recorder():
    recorder = Recorder()
    worker = LatestJobWorker(recorder.run, recorder.on_error)
    yield recorder, worker
    recorder.release.set()
    worker.stop()


def test_ros_worker_keeps_only_the_latest_description(recorder):
    recorder, worker = recorder
    worker.submit(Job.text('first'))
    assert recorder.started.wait(TIMEOUT)
    for text in ('second', 'third'):
        worker.submit(Job.text(text))
    worker.submit(Job.recheck())  # never replaces a waiting description
    recorder.release.set()
    assert worker.wait_idle(TIMEOUT)
    assert [job.data for job in recorder.done] == ['first', 'third']


def test_ros_worker_recheck_waits_when_idle(recorder):
    recorder, worker = recorder
    recorder.release.set()
    worker.submit(Job.recheck())
    assert worker.wait_idle(TIMEOUT)
    worker.submit(Job.file('/robot.urdf'))
    assert worker.wait_idle(TIMEOUT)
    assert [job.kind for job in recorder.done] == [Job.RECHECK, Job.FILE]
    assert recorder.done[1].path == '/robot.urdf'


def test_ros_worker_survives_a_failing_job(recorder):
    recorder, worker = recorder
    recorder.release.set()
    worker.submit(Job.text('boom'))
    assert worker.wait_idle(TIMEOUT)
    worker.submit(Job.text('after'))
    assert worker.wait_idle(TIMEOUT)
    assert [(job.data, error) for job, error in recorder.errors] == [('boom', 'boom')]
    assert [job.data for job in recorder.done] == ['after']


def test_ros_worker_stop_drops_waiting_jobs(recorder):
    recorder, worker = recorder
    worker.submit(Job.text('running'))
    assert recorder.started.wait(TIMEOUT)
    worker.submit(Job.text('waiting'))
    recorder.release.set()
    worker.stop()
    assert [job.data for job in recorder.done] in (['running'], ['running', 'waiting'])
    assert not worker._thread.is_alive()


class Grinder:
    """Runs 'grind' jobs as a pure-Python loop that never checks its budget on its own."""

    def __init__(self):
        self.done = []
        self.stopped = []
        self.started = threading.Event()

    def run(self, job, budget):
        if job.data == 'grind':
            self.started.set()
            try:
                with budget.interruptible():
                    deadline = time.monotonic() + TIMEOUT
                    while time.monotonic() < deadline:
                        sum(range(1000))
            except AnalysisInterrupted as exc:
                self.stopped.append((job.data, exc.reason, time.monotonic()))
                raise
        self.done.append((job.data, time.monotonic()))


def test_ros_worker_newer_description_stops_a_grinding_one():
    grinder = Grinder()
    worker = LatestJobWorker(grinder.run, lambda job, error: None, lambda: 60.0)
    try:
        worker.submit(Job.text('grind'))
        assert grinder.started.wait(TIMEOUT)
        worker.submit(Job.text('good'))
        assert worker.wait_idle(TIMEOUT)
        assert [reason for _, reason, _ in grinder.stopped] == [SUPERSEDED]
        # Stopped as superseded (not finished after its 20 s): how soon is bench/'s business.
        assert [data for data, _ in grinder.done] == ['good']
        assert worker.superseded == 1
    finally:
        worker.stop()


def test_ros_worker_time_budget_stops_a_grinding_job():
    grinder = Grinder()
    worker = LatestJobWorker(grinder.run, lambda job, error: None, lambda: 0.2)
    try:
        worker.submit(Job.text('grind'))
        assert worker.wait_idle(TIMEOUT)
        assert [reason for _, reason, _ in grinder.stopped] == [TIME_BUDGET]
        worker.submit(Job.text('after'))  # the thread lives on
        assert worker.wait_idle(TIMEOUT)
        assert [data for data, _ in grinder.done] == ['after']
    finally:
        worker.stop()


def test_budget_outside_a_section_never_interrupts():
    budget = Budget(0.05)
    with budget.interruptible():
        pass
    time.sleep(0.2)  # the deadline passes after the section: nothing may go off now
    total = sum(range(100000))
    assert total == 4999950000
    with pytest.raises(AnalysisInterrupted):
        budget.check()
