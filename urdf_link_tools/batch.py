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
``check`` on many files: a deterministic shard of them, worker processes, progress.

The robots are checked by :func:`run` in input order, by ``jobs`` worker processes (each
robot in one process, as it would be alone), with the answers coming back in that order as
soon as each is ready, so a stream (``--format jsonl``) starts with the first robot and the
findings are the same as with one process. Scheduling across machines is left to an engine
that exists (a CI matrix, Ray): ``--shard K/N`` gives each machine its part.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable, Iterator, List, Optional, Sequence, TextIO, Tuple


def parse_shard(text: str) -> Tuple[int, int]:
    """
    Read ``K/N`` (1 <= K <= N).

    :raises ValueError: for anything else
    """
    first, slash, second = text.partition('/')
    try:
        index, count = int(first), int(second)
    except ValueError:
        index = count = 0
    if not slash or not 1 <= index <= count:
        raise ValueError(f'--shard {text!r}: expected K/N with 1 <= K <= N, e.g. 2/8')
    return index, count


def shard_of(path: str, count: int) -> int:
    """
    Return the shard (1 to ``count``) a path belongs to.

    Decided by a digest of the normalised path alone, so every machine of a matrix, given
    the same file list in any order, agrees, and adding a file moves no other.
    """
    import hashlib  # here: a single check never shards, nor pays for the import
    digest = hashlib.blake2b(os.fsencode(os.path.normpath(path)), digest_size=8).digest()
    return int.from_bytes(digest, 'big') % count + 1


def select_shard(paths: Sequence[str], index: int, count: int) -> List[str]:
    """Return the paths of shard ``index`` of ``count``, in their order."""
    return [path for path in paths if shard_of(path, count) == index]


def default_jobs() -> int:
    """Return the number of cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


class Progress:
    """
    Files done, rate and time left on one terminal line; nothing when not a terminal.

    :param total: how many files
    :param stream: where to write (standard error); silent unless it is a TTY
    """

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.done = 0
        self.start = time.monotonic()
        isatty = getattr(stream, 'isatty', None)
        self.shown = bool(isatty and isatty()) and total > 1
        self._last = 0.0

    def step(self) -> None:
        """Count one file done."""
        self.done += 1
        now = time.monotonic()
        if not self.shown or (now - self._last < 0.1 and self.done < self.total):
            return
        self._last = now
        rate = self.done / max(now - self.start, 1e-9)
        left = (self.total - self.done) / rate
        self.stream.write(f'\r\033[K{self.done}/{self.total} robots, {rate:.1f}/s, '
                          f'{_clock(left)} left')
        self.stream.flush()

    def close(self) -> None:
        """Clear the line."""
        if self.shown:
            self.stream.write('\r\033[K')
            self.stream.flush()


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f'{hours}:{minutes:02d}:{seconds:02d}' if hours else f'{minutes}:{seconds:02d}'


def _size(path: str) -> int:
    """Return a file's size in bytes, 0 when it cannot be read (the check will say why)."""
    try:
        return os.stat(path).st_size
    except (OSError, ValueError):
        return 0


def _context() -> Any:
    # fork starts a worker in milliseconds with every module already imported; elsewhere
    # (macOS, Windows) the platform's default.
    import multiprocessing
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context('fork' if 'fork' in methods and
                                       sys.platform.startswith('linux') else None)


def run(work: Callable[[str], Any], paths: Sequence[str], jobs: int,
        progress: Optional[Progress] = None,
        crashed: Callable[[str], Any] = lambda path: None) -> Iterator[Tuple[str, Any]]:
    """
    Check every path, in order, with ``jobs`` worker processes.

    :param work: checks one path and returns a picklable answer (a top-level function)
    :param paths: the inputs
    :param jobs: worker processes; 1 (or a single path) checks in this process
    :param progress: counts each answer
    :param crashed: the answer for a path whose worker process died (killed for memory, a
        crash in a native library): the pool is then broken, so every path not answered yet
        gets it too
    :return: (path, answer) in the order of ``paths``, each as soon as it and those before
        it are done
    """
    if jobs <= 1 or len(paths) <= 1:
        for path in paths:
            answer = work(path)
            if progress is not None:
                progress.step()
            yield path, answer
        return
    # Imported here: a single check (the common case, and every CI step on one robot) starts
    # no pool, and the pool's modules cost about 12 ms to import.
    import concurrent.futures
    import concurrent.futures.process
    pool = concurrent.futures.ProcessPoolExecutor(min(jobs, len(paths)), mp_context=_context())
    try:
        # The biggest descriptions first (longest processing time first): the last robots
        # to finish are then small ones, so no worker idles while one works through a
        # humanoid at the end. Answers still come out in the order of ``paths``.
        futures: List[Any] = [None] * len(paths)
        for index in sorted(range(len(paths)), key=lambda index: -_size(paths[index])):
            futures[index] = pool.submit(work, paths[index])
        for path, future in zip(paths, futures):
            try:
                answer = future.result()
            except concurrent.futures.process.BrokenProcessPool:
                answer = crashed(path)
            if progress is not None:
                progress.step()
            yield path, answer
    finally:
        # Ctrl-C, an error raised by a worker or a reader that stops early: no robot waiting
        # in the queue is started any more.
        pool.shutdown(wait=True, cancel_futures=True)
