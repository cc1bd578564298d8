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
A worker thread that runs the latest job, so a burst of descriptions costs one analysis.

Only the newest description matters: one arriving while another waits replaces it, and one
arriving while another is being analysed cancels that analysis (its
:class:`~urdf_link_tools.budget.Budget`), so a good robot published after one that takes
minutes is analysed at once. A re-check (after a parameter change) never replaces a waiting
description, which will be analysed with the new settings anyway, nor stops a running job.
Pure Python (threading only), tested without ROS.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Optional, Union

from urdf_link_tools.budget import AnalysisInterrupted, Budget, WATCHDOG
from urdf_link_tools.meshes.reading import trim_heap
from urdf_link_tools.records import record

logger = logging.getLogger(__name__)


@record
class Job:
    """Something for the worker: a description (text or file) or a re-check of the model."""

    TEXT = 'text'
    FILE = 'file'
    RECHECK = 'recheck'

    kind: str
    data: Optional[Union[str, bytes]] = None
    path: Optional[str] = None

    @classmethod
    def text(cls, data: Union[str, bytes]) -> 'Job':
        """Return a job for a description received on the topic."""
        return cls(cls.TEXT, data=data)

    @classmethod
    def file(cls, path: str) -> 'Job':
        """Return a job for a URDF or xacro file."""
        return cls(cls.FILE, path=path)

    @classmethod
    def recheck(cls) -> 'Job':
        """Return a job that re-analyses the model in service with the current settings."""
        return cls(cls.RECHECK)


class LatestJobWorker:
    """
    Run jobs one at a time on a daemon thread, keeping only the latest waiting one.

    :param run: called with each job and its budget on the worker thread; it may raise
        :class:`~urdf_link_tools.budget.AnalysisInterrupted` when the budget was cancelled
    :param on_error: called with the job and the exception when ``run`` raises; the worker
        carries on with the next job
    :param budget_seconds: returns the time budget of the next job (None: no limit)
    """

    def __init__(self, run: Callable[[Job, Budget], None],
                 on_error: Callable[[Job, Exception], None],
                 budget_seconds: Callable[[], Optional[float]] = lambda: None) -> None:
        self._run = run
        self._on_error = on_error
        self._budget_seconds = budget_seconds
        self._condition = threading.Condition()
        self._pending: Optional[Job] = None
        self._running: Optional[Budget] = None
        self._superseded = 0
        self._busy = False
        self._stopped = False
        WATCHDOG.start()  # from this thread, which no budget interrupts
        self._thread = threading.Thread(target=self._loop, name='urdf_link_tools-analysis',
                                        daemon=True)
        self._thread.start()

    @property
    def superseded(self) -> int:
        """Return how many running jobs a newer description cancelled."""
        return self._superseded

    def submit(self, job: Job) -> None:
        """
        Queue a job; it replaces a waiting one and cancels a running one.

        A re-check does neither: it only waits for its turn when nothing else waits.
        """
        with self._condition:
            if job.kind == Job.RECHECK and self._pending is not None:
                return
            self._pending = job
            if job.kind != Job.RECHECK and self._running is not None and \
                    not self._running.cancelled:
                self._running.cancel()
                self._superseded += 1
            self._condition.notify()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no job is waiting or running; return False on timeout (for tests)."""
        with self._condition:
            return self._condition.wait_for(
                lambda: self._pending is None and not self._busy, timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the running job (at its next check), drop a waiting one, join the thread."""
        with self._condition:
            self._stopped = True
            self._pending = None
            if self._running is not None:
                self._running.cancel()
            self._condition.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _loop(self) -> None:
        while not self._stopped:
            try:
                self._next()
            except AnalysisInterrupted:  # arrived late, after its job: the worker lives on
                logger.debug('a stop request arrived after its job ended')

    def _next(self) -> None:
        with self._condition:
            self._condition.wait_for(lambda: self._stopped or self._pending is not None)
            if self._stopped:
                return
            job, self._pending = self._pending, None
            self._busy = True
            budget = self._make_budget()
            self._running = budget
        try:
            self._run(job, budget)
        except AnalysisInterrupted:
            logger.debug('job %s stopped: %s', job.kind, budget.reason())
        except Exception as exc:  # the worker must outlive any job
            try:
                self._on_error(job, exc)
            except Exception:
                logger.exception('error handler failed')
        finally:
            with self._condition:
                self._running = None
                self._busy = False
                self._condition.notify_all()
            # An analysis frees most of what it allocated (parse trees, temporaries, the
            # model it replaced); glibc keeps freed heap unless asked: about 10 MB for a
            # robot of 130 links with meshes.
            trim_heap()

    def _make_budget(self) -> Budget:
        try:
            seconds = self._budget_seconds()
        except Exception:  # a settings bug must not stop the worker
            logger.exception('reading the time budget failed')
            seconds = None
        return Budget(seconds)
