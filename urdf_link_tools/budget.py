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
A time budget for one analysis, which another thread can also cancel.

The analysis asks :meth:`Budget.check` between steps (one mesh, one check). A single step can
still take long (a check on a robot of 100,000 links), so inside :meth:`Budget.interruptible`
the budget also stops the step itself: when the deadline passes or :meth:`Budget.cancel` is
called, an :class:`AnalysisInterrupted` is raised in the analysing thread at its next Python
instruction. Only code that reads the model and builds findings runs in such a section:
nothing shared is left half-updated when it stops (the mesh cache is filled outside).
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
import time
from typing import Callable, Dict, Iterator, Optional, Tuple


class AnalysisInterrupted(BaseException):
    """
    The analysis was stopped: its time budget ran out, or a newer description replaced it.

    A BaseException, as KeyboardInterrupt is, so that the ``except Exception`` guards that turn
    one failing check into a finding do not swallow it.
    """

    def __init__(self, reason: str = 'stopped') -> None:
        super().__init__(reason)
        self.reason = reason


TIME_BUDGET = 'time budget'
SUPERSEDED = 'superseded'


def _raise_in(thread_id: int, exception: Optional[type]) -> None:
    # CPython's documented way to raise in another thread (used as a last resort here: a
    # cooperative check cannot reach into a long step); None clears a pending one.
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exception) if exception else None)


class _Watchdog:
    """
    One thread for every deadline: it expires budgets whose section outlives its deadline.

    The analysing thread never starts a thread itself while it can be interrupted: CPython
    gives a thread being created the creator's id until it runs, so an exception raised
    "in the creator" at that moment would reach the new thread too.
    """

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._deadlines: Dict[int, Tuple[float, 'Budget']] = {}
        self._thread: Optional[threading.Thread] = None

    def start(self) -> None:
        """Start the thread (once); call it from a thread that is never interrupted."""
        with self._condition:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, daemon=True,
                                                name='urdf_link_tools-budget')
                self._thread.start()

    def watch(self, budget: 'Budget', deadline: float) -> None:
        with self._condition:
            self._deadlines[id(budget)] = (deadline, budget)
            self._condition.notify()

    def forget(self, budget: 'Budget') -> None:
        with self._condition:
            self._deadlines.pop(id(budget), None)

    def _loop(self) -> None:
        while True:
            with self._condition:
                now = time.monotonic()
                due = [budget for deadline, budget in self._deadlines.values()
                       if deadline <= now]
                for budget in due:
                    self._deadlines.pop(id(budget), None)
                if not due:
                    nearest = min((deadline for deadline, _ in self._deadlines.values()),
                                  default=None)
                    self._condition.wait(None if nearest is None else nearest - now)
                    continue
            for budget in due:
                budget._expire()


WATCHDOG = _Watchdog()


class _Expired(AnalysisInterrupted):
    def __init__(self) -> None:
        super().__init__(TIME_BUDGET)


class _Superseded(AnalysisInterrupted):
    def __init__(self) -> None:
        super().__init__(SUPERSEDED)


class Budget:
    """
    A deadline (None: no limit) and a cancel flag for one analysis.

    :param seconds: the time allowed from now, or None for no limit
    :param clock: the monotonic clock (tests pass their own)
    """

    def __init__(self, seconds: Optional[float] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._deadline = None if seconds is None else clock() + seconds
        self._lock = threading.Lock()
        self._cancelled = False
        self._section_thread: Optional[int] = None
        self._fired = False

    @property
    def cancelled(self) -> bool:
        """Return True once :meth:`cancel` was called."""
        return self._cancelled

    def reason(self) -> Optional[str]:
        """Return why the analysis must stop (superseded, time budget), None to go on."""
        if self._cancelled:
            return SUPERSEDED
        if self._deadline is not None and self._clock() >= self._deadline:
            return TIME_BUDGET
        return None

    def check(self) -> None:
        """
        Raise :class:`AnalysisInterrupted` when the analysis must stop.

        :raises AnalysisInterrupted: past the deadline, or after :meth:`cancel`
        """
        reason = self.reason()
        if reason is not None:
            raise AnalysisInterrupted(reason)

    def cancel(self) -> None:
        """Stop the analysis (from any thread): a newer description replaces it."""
        with self._lock:
            self._cancelled = True
            self._fire(_Superseded)

    def _fire(self, exception: type) -> None:
        # Called with the lock held: raise once, and only inside a section.
        if self._section_thread is not None and not self._fired:
            self._fired = True
            _raise_in(self._section_thread, exception)

    def _expire(self) -> None:
        with self._lock:
            self._fire(_Expired)

    @contextlib.contextmanager
    def interruptible(self) -> Iterator[None]:
        """
        Run a block that the deadline or :meth:`cancel` stop even in the middle of a step.

        :raises AnalysisInterrupted: when stopped, from wherever the block was
        """
        thread_id = threading.get_ident()
        with self._lock:
            self._section_thread = thread_id
        try:
            # After the registration: a cancel from now on raises in this thread, and one
            # that came before is seen here.
            self.check()
            if self._deadline is not None:
                # The watchdog runs on the monotonic clock; a test clock only serves check().
                WATCHDOG.watch(self, time.monotonic() + (self._deadline - self._clock()))
            yield
        finally:
            WATCHDOG.forget(self)
            with self._lock:
                self._section_thread = None
                if self._fired:
                    # Raised or still pending: clear a pending one so that it cannot go off
                    # later, outside the section.
                    _raise_in(thread_id, None)
        self.check()  # a deadline crossed between two instructions of the section's end
