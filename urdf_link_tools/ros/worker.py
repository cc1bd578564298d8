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

Only the newest description matters: one arriving while another waits replaces it. A
re-check (after a parameter change) never replaces a waiting description, which will be
analysed with the new settings anyway. Pure Python (threading only), tested without ROS.
"""

from dataclasses import dataclass
import logging
import threading
from typing import Callable, Optional, Union

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
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

    :param run: called with each job on the worker thread
    :param on_error: called with the job and the exception when ``run`` raises; the worker
        carries on with the next job
    """

    def __init__(self, run: Callable[[Job], None],
                 on_error: Callable[[Job, Exception], None]) -> None:
        self._run = run
        self._on_error = on_error
        self._condition = threading.Condition()
        self._pending: Optional[Job] = None
        self._busy = False
        self._stopped = False
        self._thread = threading.Thread(target=self._loop, name='urdf_link_tools-analysis',
                                        daemon=True)
        self._thread.start()

    def submit(self, job: Job) -> None:
        """Queue a job; it replaces a waiting one, except a re-check never replaces anything."""
        with self._condition:
            if job.kind == Job.RECHECK and self._pending is not None:
                return
            self._pending = job
            self._condition.notify()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no job is waiting or running; return False on timeout (for tests)."""
        with self._condition:
            return self._condition.wait_for(
                lambda: self._pending is None and not self._busy, timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop after the running job (a waiting one is dropped) and join the thread."""
        with self._condition:
            self._stopped = True
            self._pending = None
            self._condition.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _loop(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: self._stopped or self._pending is not None)
                if self._stopped:
                    return
                job, self._pending = self._pending, None
                self._busy = True
            try:
                self._run(job)
            except Exception as exc:  # the worker must outlive any job
                try:
                    self._on_error(job, exc)
                except Exception:
                    logger.exception('error handler failed')
            finally:
                with self._condition:
                    self._busy = False
                    self._condition.notify_all()
