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
Share a robot's mesh files between this process and a forked child, from the earliest moment.

The files not read yet wait in two queues, the costliest first: those only read, and those
whose solid is measured too (the collision meshes). Each process takes the next file of a
queue when it is free (a four-byte index read from a pipe, which only one reader gets), so
neither waits for the other while work is left: the child takes the files only read first,
this process the measured ones (it imports coal for the overlaps at rest anyway). The child
measures too only where the estimate says its coal import pays (:func:`share`), and only
while the measured files left still pay it (:func:`_worth_coal`; else it reads them and this
process measures them). The child reads with :mod:`.elsewhere`;
:meth:`.MeshLibrary.adopt_aside` reads this process's files and caches the child's answers
as if read here (the same code on the same files).

A one-robot ``check`` starts the child as soon as the URDF is parsed (:func:`start_robot`):
before this process has imported NumPy, coal and the checks (about 100 ms), which it then
imports while the child reads. Nothing here imports NumPy: the child imports the readers.
"""

from __future__ import annotations

import os
import struct
import sys
from typing import (Callable, Dict, Iterator, List, Mapping, NamedTuple, Optional, Sequence,
                    Tuple)

from urdf_link_tools.meshes import elsewhere
from urdf_link_tools.meshes.files import Budget, refusal, SUPPORTED
from urdf_link_tools.meshes.resolve import PackageResolver
from urdf_link_tools.model import Mesh, Robot
from urdf_link_tools.startup import importing

#: a smaller share is not worth a child (a fork costs a few milliseconds; reading a megabyte
#: of COLLADA about ten)
ASIDE_MIN_BYTES = 1_000_000
#: The shared work is estimated in bytes of COLLADA read (about 8 ms a megabyte, measured
#: on example-robot-data's meshes): a file costs its bytes plus ASIDE_OPEN (opening and
#: parsing even a small file takes about half a millisecond), and measuring its solid (merge,
#: hull, integrals) ASIDE_MEASURE times its bytes more plus ASIDE_MEASURE_EACH (a millisecond
#: even for a small mesh).
ASIDE_OPEN = 60_000
ASIDE_MEASURE = 2.0
ASIDE_MEASURE_EACH = 125_000
#: importing coal for the first hull costs about as much as reading this many bytes of
#: COLLADA (50 ms), in each process that measures a solid
ASIDE_COAL = 6_000_000
#: importing NumPy and the readers (about 50 ms), in each process that has not yet
ASIDE_READERS = 6_000_000
#: importing the analysis, the checks and the reports (about 30 ms), in this process when
#: the child starts before them
ASIDE_CHECKS = 4_000_000

#: a queued index, and how many are written at once (PIPE_BUF is at least 512 bytes)
_INDEX = struct.Struct('<I')
_BLOCK = 128

#: (cache key, path, file type, size, locations tried, whether its solid is measured)
Request = Tuple[tuple, str, str, int, Tuple[str, ...], bool]


class Aside(NamedTuple):
    """Files shared with a reading child: the requests, their queues, the child."""

    requests: List[Request]
    #: read ends of the queues of measured files and of files only read (emptied when
    #: closed: a descriptor number is never closed twice, it may name another file by then)
    queues: List[int]
    #: requests that did not fit in the queues: this process reads them
    rest: List[int]
    child: elsewhere.Child
    budget: Budget
    #: whether the child measures solids too (else every measured file is read here)
    child_measures: bool

    def claims(self, between: Optional[Callable[[], None]] = None) -> Iterator[Request]:
        """
        Yield the requests this process takes: measured ones first, until none is left.

        :param between: called once the measured files are all read in this process (not
            when the child measures too), before the files only read: work that needs only
            the collision meshes is done then, while the child reads on
        """
        for number, queue in enumerate(list(self.queues)):
            index = claim(queue)
            while index is not None:
                yield self.requests[index]
                index = claim(queue)
            if number == 0 and between is not None and not self.child_measures:
                between()
        for index in self.rest:
            yield self.requests[index]

    def cancel(self) -> None:
        """Give up: stop the child (unless its answer was taken) and close the queues."""
        self.child.cancel()
        self.close()

    def close(self) -> None:
        """Close this process's ends of the queues (after :meth:`claims`, or to give up)."""
        while self.queues:
            try:
                os.close(self.queues.pop())
            except OSError:
                pass


def cost(size: int, measure: bool) -> float:
    """Estimate the work of reading (and measuring) a file, in bytes of COLLADA read."""
    work = size + ASIDE_OPEN
    return work + size * ASIDE_MEASURE + ASIDE_MEASURE_EACH if measure else work


def base_dir(robot: Robot) -> Optional[str]:
    """Return the folder relative mesh filenames are resolved from: the URDF's, if any."""
    return os.path.dirname(os.path.abspath(robot.source)) if robot.source else None


def robot_files(robot: Robot) -> List[Tuple[str, bool]]:
    """Return each mesh filename of a robot once, and whether a collision uses it."""
    files: Dict[str, bool] = {}
    for link in robot.links:  # in the order the analysis loads them
        for group, measure in ((link.visuals, False), (link.collisions, True),
                               (link.custom, False)):
            for element in group:
                if isinstance(element.geometry, Mesh):
                    name = element.geometry.filename
                    files[name] = files.get(name, False) or measure
    return list(files.items())


def requests(resolver: PackageResolver, files: Sequence[Tuple[str, Optional[str], bool]],
             max_bytes: int, known: Callable[[tuple], bool]) -> List[Request]:
    """
    Return the files to read (each once, the costliest first), without those ``known``.

    :param resolver: resolves the URDF filenames
    :param files: (URDF filename attribute, the URDF's folder, whether its solid is needed)
    :param max_bytes: larger files are not read (the reading reports them)
    :param known: True for a cache key already read
    """
    found: Dict[tuple, Request] = {}
    for uri, base_dir, measure in files:
        resolution = resolver.resolve(uri, base_dir)
        if resolution.path is None:
            continue
        try:
            info = os.stat(resolution.path)
        except OSError:
            continue
        file_type = SUPPORTED.get(os.path.splitext(resolution.path)[1].lower())
        if file_type is None or refusal(resolution.path, info, max_bytes) is not None:
            continue
        key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, file_type)
        if key in found:
            measure = measure or found[key][5]
        elif known(key):
            continue
        found[key] = (key, resolution.path, file_type, info.st_size, resolution.tried, measure)
    return sorted(found.values(), key=lambda request: -cost(request[3], request[5]))


def share(requests: Sequence[Request], here_first: float = 0.0,
          child_first: float = 0.0) -> Tuple[List[Request], List[Request]]:
    """
    Share the requests: each, the costliest first, to the process that would end it first.

    :param requests: the costliest first
    :param here_first: work this process has before it can read (imports), in bytes
    :param child_first: work the child has before it can read
    :return: (this process's share, the child's)
    """
    # This process imports coal anyway when it measures a solid (and for the overlaps at
    # rest); the child only if it measures one, which then costs it that import too.
    measures = any(request[5] for request in requests)
    child, here = child_first, here_first + (ASIDE_COAL if measures else 0.0)
    mine: List[Request] = []
    theirs: List[Request] = []
    child_measures = False
    for request in requests:
        work = cost(request[3], request[5])
        coal = ASIDE_COAL if request[5] and not child_measures else 0.0
        if child + work + coal < here + work:
            theirs.append(request)
            child += work + coal
            child_measures = child_measures or request[5]
        else:
            mine.append(request)
            here += work
    return mine, theirs


def start(resolver: PackageResolver, files: Sequence[Tuple[str, Optional[str], bool]],
          budget: Budget, known: Callable[[tuple], bool] = lambda key: False,
          min_bytes: int = ASIDE_MIN_BYTES) -> Optional[Aside]:
    """
    Fork a child reading from the queues; None when no child is worth it or allowed.

    Where NumPy is not imported yet, both processes still have to import it (and this one
    the checks), which :func:`share` counts: a child starts when the files the estimate
    gives it hold ``min_bytes`` or more, and it measures solids when it gives it any.

    :param resolver: resolves the URDF filenames
    :param files: (URDF filename attribute, the URDF's folder, whether its solid is needed)
    :param budget: what a file may hold (the library's, which adopts the answers)
    :param known: True for a cache key already read
    :param min_bytes: a smaller share of the child is not worth a fork
    """
    early = _take_early()
    if not elsewhere.can_fork():
        _release(early)
        return None
    late = 'numpy' not in sys.modules
    found = requests(resolver, files, budget.max_bytes, known)
    # A child forked early has imported the readers while this process parsed the robot.
    _, theirs = share(found, ASIDE_READERS + ASIDE_CHECKS if late else 0.0,
                      ASIDE_READERS if late and early is None else 0.0)
    if sum(request[3] for request in theirs) < min_bytes:
        _release(early)
        return None
    measures = any(request[5] for request in theirs)
    orders = [[i for i, request in enumerate(found) if request[5] == measured]
              for measured in (True, False)]
    if early is not None:
        waiting, queues, ends = early
        try:
            rest = [index for end, order in zip(ends, orders) for index in _fill(end, order)]
        except OSError:  # as index_queues: no queues, no child (let go, not left waiting)
            _release((waiting, queues, ()))  # the write ends: closed by _fill, come what may
            return None
        child = waiting.give([(found, queues, budget, measures)])
    else:
        queues, rest = index_queues(orders)  # type: ignore[assignment]
        if queues is None:
            return None
        child = elsewhere.start(_claim_and_read, [(found, queues, budget, measures)])
    aside = Aside(found, list(queues), rest, child, budget, measures)  # type: ignore[arg-type]
    if child is None:
        aside.close()
        return None
    return aside


#: a reading child forked early (:func:`start_early`): the child, the read and the write
#: ends of the two queues
Early = Tuple[elsewhere.Waiting, Tuple[int, ...], Tuple[int, ...]]
_EARLY: List[Early] = []


def start_early() -> bool:
    """
    Fork the reading child at the start of a one-robot check, before the command's imports.

    It imports NumPy and the readers while this process imports the command line and
    parses the robot (about 50 ms each), then waits for :func:`start` to give it the
    files; the queues are made now, for it to have them. Where no file is worth it,
    :func:`start` (or :func:`release_early`) lets it end.

    :return: True when a child was forked
    """
    release_early()
    if not elsewhere.can_fork():
        return False
    ends: List[Tuple[int, int]] = []
    try:
        for _ in range(2):
            ends.append(os.pipe())
    except OSError:
        for pair in ends:
            for descriptor in pair:
                os.close(descriptor)
        return False
    queues = (ends[0][0], ends[1][0])
    writes = (ends[0][1], ends[1][1])
    waiting = elsewhere.start_waiting(_claim_and_read, _import_readers, close=writes)
    if waiting is None:
        for descriptor in queues + writes:
            os.close(descriptor)
        return False
    _EARLY.append((waiting, queues, writes))
    return True


def release_early() -> None:
    """Let a child forked by :func:`start_early` end unused (no-op without one)."""
    _release(_take_early())


def _take_early() -> Optional[Early]:
    return _EARLY.pop() if _EARLY else None


def _release(early: Optional[Early]) -> None:
    if early is None:
        return
    waiting, queues, writes = early
    waiting.release()
    for descriptor in queues + writes:
        try:
            os.close(descriptor)
        except OSError:
            pass


def _import_readers() -> None:  # pragma: no cover (runs in the early child)
    with importing('urdf_link_tools.meshes.library'):
        import urdf_link_tools.meshes.library  # noqa: F401 (NumPy and the readers)


def claim(queue: int) -> Optional[int]:
    """Take the next index of a queue, or None when it is empty."""
    try:
        data = os.read(queue, _INDEX.size)
    except OSError:
        return None
    return _INDEX.unpack(data)[0] if len(data) == _INDEX.size else None


def index_queues(orders: Sequence[List[int]]) -> Tuple[Optional[Tuple[int, ...]], List[int]]:
    """
    Write each order of indices into a pipe of its own; return the read ends (one per order).

    A pipe holds 64 kB (16,384 indices): what does not fit is returned, for this process.
    The write ends are closed, so a read of an empty queue returns at once.
    """
    ends: List[int] = []
    rest: List[int] = []
    try:
        for order in orders:
            read, write = os.pipe()
            ends.append(read)
            rest.extend(_fill(write, order))
    except OSError:
        for read in ends:
            os.close(read)
        return None, []
    return tuple(ends), rest


def _fill(write: int, order: Sequence[int]) -> List[int]:
    """Write indices into a queue and close it; return those that did not fit."""
    try:
        os.set_blocking(write, False)
        # A block of at most PIPE_BUF bytes is written whole or not at all.
        for first in range(0, len(order), _BLOCK):
            block = order[first:first + _BLOCK]
            try:
                os.write(write, b''.join(_INDEX.pack(index) for index in block))
            except BlockingIOError:
                return list(order[first:])
    finally:
        os.close(write)
    return []


def pending(queue: int) -> Optional[int]:
    """Return how many indices a queue still holds, None when the system does not say."""
    try:
        import fcntl
        import termios
        held = fcntl.ioctl(queue, termios.FIONREAD, _INDEX.pack(0))
    except (ImportError, OSError, AttributeError):
        return None
    return _INDEX.unpack(held)[0] // _INDEX.size


def _worth_coal(found: Sequence[Request], queue: int) -> bool:
    """
    Return True when the measured files left are worth the child's import of coal.

    The queue holds the costliest first, so what is left is the tail of its order. Sharing
    their measuring ends sooner than leaving it to this process only when it is more work
    than the import (iCub: the child came to the measured queue with one small file left
    and spent 25 ms importing coal to measure it in 1 ms). Otherwise the child still reads
    them, and this process measures them.
    """
    if 'coal' in sys.modules:
        return True
    left = pending(queue)
    if left is None:
        return True
    measured = [request for request in found if request[5]]
    tail = measured[len(measured) - left:] if left else []
    return sum(cost(request[3], True) for request in tail) > ASIDE_COAL


def _claim_and_read(found: List[Request], queues: Tuple[int, int], budget: Budget,
                    measures: bool) -> List[tuple]:  # pragma: no cover (runs in the child)
    """
    Read files from the queues, files only read first; return (index, raw, solid, bounds).

    The solid is None where the file was not measured here (only read, or the measured
    files left were not worth importing coal for: :func:`_worth_coal`, except the small
    ones, which need no coal: iCub's twelve 16-vertex boxes, measured at the end by this
    process otherwise, while the child had nothing left to do).
    """
    from urdf_link_tools.meshes.library import read_and_measure
    answers: List[tuple] = []
    for queue in (queues[1], queues[0]) if measures else (queues[1],):
        # The measured files left may be too few to pay the import of coal here: then this
        # child only reads them, and this process measures them when it adopts them.
        measured = queue == queues[0]
        measuring = measured and _worth_coal(found, queue)
        index = claim(queue)
        while index is not None:
            _, path, file_type, _, tried, _ = found[index]
            try:
                answers.append((index, *read_and_measure(path, file_type, budget, tried,
                                                         measuring, measured)))
            except MemoryError:  # this process reads it, where it says so
                pass
            index = claim(queue)
    return answers


def start_robot(robot: Robot, package_dirs: Mapping[str, str], max_bytes: int,
                min_bytes: int = ASIDE_MIN_BYTES) -> Optional[Aside]:
    """
    Start a reading child for a robot's meshes (see :func:`start`), before the analysis.

    :param robot: the parsed robot
    :param package_dirs: the packages the analysis's mesh library is given
    :param max_bytes: that library's size limit (its other limits are the defaults)
    :param min_bytes: a smaller share of the child is not worth a fork
    """
    folder = base_dir(robot)
    return start(PackageResolver(dict(package_dirs)),
                 [(name, folder, measure) for name, measure in robot_files(robot)],
                 Budget(int(max_bytes)), min_bytes=min_bytes)
