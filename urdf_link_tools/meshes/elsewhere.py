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
Run calls in a forked child process while this one works on, and take their results back.

Reading a COLLADA file is mostly NumPy parsing its numbers, which holds the GIL, so a
thread cannot read one while another works: a child process can. MuJoCo's compiler reads
a robot's meshes on several threads for the same reason; a one-robot ``check`` shares its
mesh files with a child this way (:meth:`.MeshLibrary.read_aside`).

Only where forking is safe and useful: Linux, a process with one thread (a child of a
multi-threaded process can inherit a lock some other thread held, so a ROS node never does
this) and more than one core available. The child runs the same code on the same inputs,
so its results are the ones this process would have computed; anything that goes wrong in
it (it dies, runs out of memory, its answer cannot be read) makes :meth:`Child.collect`
return None, and the caller computes those results itself. What the child logs is taken
back and logged here, in order, after it ends.

The answer (a few megabytes of mesh arrays) goes through an anonymous in-memory file made
before the fork (``memfd_create``), which the child fills without waiting, and the pipe
says how long it is. Through the pipe alone, 64 kB at a time, each hand-over waits for the
other process to be scheduled: 3.7 MB took 10-13 ms to read, against about a millisecond
from the file. Without memfd_create (older kernels) the answer goes through the pipe.
"""

from __future__ import annotations

import atexit
import logging
import os
import pickle
import select
import signal
import struct
import sys
import threading
from typing import Any, Callable, List, Optional, Sequence, Tuple

#: (logger name, level, message) of a record the child logged
LogLine = Tuple[str, int, str]


def can_fork() -> bool:
    """Return True when this process may fork a reading child (see the module's text)."""
    if not sys.platform.startswith('linux') or not hasattr(os, 'fork'):
        return False
    if threading.active_count() != 1:
        return False
    try:
        return len(os.sched_getaffinity(0)) > 1
    except (AttributeError, OSError):
        return (os.cpu_count() or 1) > 1


class _Capture(logging.Handler):
    """Keep the child's log records, to be logged again in the parent."""

    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.lines: List[LogLine] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append((record.name, record.levelno, record.getMessage()))


class Child:
    """A forked child computing ``function(*arguments)`` for each set of arguments."""

    def __init__(self, pid: int, stream: int, answer: Optional[int] = None) -> None:
        self.pid = pid
        self._stream = stream
        self._answer = answer
        self._done = False

    def collect(self) -> Optional[List[Any]]:
        """
        Wait for the child; return its results in order, or None when it failed.

        The child's log lines are logged here first. A result is None where the call ran
        out of memory in the child.
        """
        if self._done:
            return None
        self._done = True
        buffers: Optional[List[memoryview]] = None
        try:
            with os.fdopen(self._stream, 'rb') as stream:
                data = stream.read()
            if self._answer is not None and data[:1] == _OUT_OF_BAND:
                data, buffers = _mapped(self._answer, data)
            elif data[:1] == _IN_PIPE:
                data = data[1:]
            else:
                data = b''
        finally:
            self._close_answer()
            # A whole answer is the child's last act: it need not be waited for (it is
            # reaped later, see _reap_later); without one, its status says nothing more.
            if not data:
                _reap(self.pid)
            else:
                _reap_later(self.pid)
        if not data:
            return None
        try:
            results, lines = pickle.loads(data, buffers=buffers) if buffers is not None \
                else pickle.loads(data)
        except Exception:  # a truncated answer: the caller computes the results itself
            return None
        for name, level, message in lines:
            logging.getLogger(name).log(level, '%s', message)
        return results

    def ready(self) -> bool:
        """Return True when the child has ended: its answer (or its end) waits to be read."""
        if self._done:
            return True
        try:
            return bool(select.select([self._stream], [], [], 0)[0])
        except (OSError, ValueError):
            return True

    def cancel(self) -> None:
        """Stop the child and forget its results."""
        if self._done:
            return
        self._done = True
        try:
            os.kill(self.pid, signal.SIGKILL)
        except OSError:
            pass
        os.close(self._stream)
        _reap(self.pid)
        self._close_answer()

    def _close_answer(self) -> None:
        if self._answer is not None:
            os.close(self._answer)
            self._answer = None


#: the first byte the child writes to the pipe: the answer follows, or is in the file (a
#: pickle followed by its arrays' bytes: out of band)
_IN_PIPE, _OUT_OF_BAND = b'P', b'B'
#: a length (of the pickle, of each array) in what the pipe says of an out-of-band answer
_LENGTH = struct.Struct('<Q')
#: arrays handed over out of band at most (their lengths go through the pipe, 8 bytes each)
_MAX_BUFFERS = 4096


def _mapped(descriptor: int, told: bytes) -> Tuple[bytes, Optional[List[memoryview]]]:
    """
    Read an out-of-band answer: (the pickle, views of its arrays' bytes), or (b'', None).

    Pickle protocol 5 keeps the arrays' bytes out of the pickle (the child writes them
    after it, as they are): read here once into one buffer, the arrays the pickle rebuilds
    are views of it, not copied again. Handing iCub's 60 meshes over took 8-9 ms of the check
    (the child copied 4 MB of arrays into the pickle, this process read it and copied them
    out again). Read, not mapped: a mapping would hold a descriptor for as long as the cache
    holds the arrays.
    """
    try:
        head, count = _LENGTH.unpack_from(told, 1)[0], _LENGTH.unpack_from(told, 9)[0]
        if len(told) != 17 + 8 * count:
            return b'', None
        lengths = struct.unpack_from(f'<{count}Q', told, 17)
        total = head + sum(lengths)
        if os.fstat(descriptor).st_size < total:
            return b'', None
        if not hasattr(os, 'preadv'):  # (Linux has it; a forked child is Linux only)
            view = memoryview(bytearray(_read_file(descriptor, total)))
            if len(view) != total:
                return b'', None
        else:
            view = memoryview(bytearray(total))
            offset = 0
            while offset < total:
                done = os.preadv(descriptor, [view[offset:]], offset)
                if done <= 0:
                    return b'', None
                offset += done
    except (OSError, ValueError, struct.error, MemoryError):
        return b'', None
    buffers = []
    offset = head
    for length in lengths:
        buffers.append(view[offset:offset + length])
        offset += length
    return view[:head], buffers


def _answer_file() -> Optional[int]:
    """Return an anonymous in-memory file for the child's answer, None where there is none."""
    create = getattr(os, 'memfd_create', None)
    if create is None:
        return None
    try:
        return create('urdf-link-tools-answer', getattr(os, 'MFD_CLOEXEC', 0))
    except OSError:
        return None


def _read_file(descriptor: int, length: int) -> bytes:
    """Return the first ``length`` bytes of a file (b'' when it holds fewer)."""
    chunks = []
    offset = 0
    while offset < length:
        chunk = os.pread(descriptor, length - offset, offset)
        if not chunk:
            return b''
        chunks.append(chunk)
        offset += len(chunk)
    return b''.join(chunks)


def _write_all(descriptor: int, data: bytes) -> None:  # pragma: no cover (in the child)
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view):]


#: children whose answer was taken before they ended: reaped by the next start() or at exit
_ENDING: List[int] = []


def _reap_later(pid: int) -> None:
    """Reap a child now if it has ended, else at the next :func:`start` or at exit."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return
    if done == 0:
        _ENDING.append(pid)


def _reap_ending(wait: bool = True) -> None:
    """Reap the children :func:`_reap_later` left (waiting for them unless ``wait`` is False)."""
    for pid in list(_ENDING):
        try:
            done, _ = os.waitpid(pid, 0 if wait else os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _ENDING.remove(pid)


atexit.register(_reap_ending)  # nothing to do unless _reap_later left a child


def _reap(pid: int) -> int:
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            return status
        except InterruptedError:
            continue
        except ChildProcessError:
            return -1


def start(function: Callable[..., Any], calls: Sequence[tuple]) -> Optional[Child]:
    """
    Fork a child computing ``function(*arguments)`` for each of ``calls``, in order.

    :param function: what to compute; its results must pickle
    :param calls: the arguments of each call
    :return: the child, or None when :func:`can_fork` says no or the fork fails
    """
    if not calls or not can_fork():
        return None
    forked = _fork()
    if forked is None:
        return None
    pid, read, write, answer = forked
    if pid == 0:  # pragma: no cover (the child; coverage is not collected there)
        os.close(read)
        _run_child(write, function, calls, answer)
    os.close(write)
    return Child(pid, read, answer)


class Waiting:
    """
    A child forked before its work is known (:func:`start_waiting`), preparing meanwhile.

    :meth:`give` sends it its calls and returns the :class:`Child` computing them;
    :meth:`release` lets it end without computing anything.
    """

    def __init__(self, pid: int, stream: int, answer: Optional[int], orders: int) -> None:
        self.pid = pid
        self._stream = stream
        self._answer = answer
        self._orders: Optional[int] = orders

    def give(self, calls: Sequence[tuple]) -> Optional[Child]:
        """
        Send the child its calls (the arguments, pickled); return it, None if it is gone.

        The arguments may name this process's file descriptors that were open when the
        child was forked: the child has them under the same numbers.
        """
        orders, self._orders = self._orders, None
        if orders is None:
            return None
        data = pickle.dumps(list(calls), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            _write_all(orders, _LENGTH.pack(len(data)) + data)
        except OSError:  # it ended (killed, out of memory): nothing to give it
            self._end()
            return None
        finally:
            os.close(orders)
        return Child(self.pid, self._stream, self._answer)

    def release(self) -> None:
        """Let the child end without work (no-op once given or released)."""
        orders, self._orders = self._orders, None
        if orders is not None:
            os.close(orders)
            self._end()

    def _end(self) -> None:
        os.close(self._stream)
        if self._answer is not None:
            os.close(self._answer)
        _reap_later(self.pid)


def start_waiting(function: Callable[..., Any], prepare: Callable[[], None],
                  close: Sequence[int] = ()) -> Optional[Waiting]:
    """
    Fork a child now that runs ``prepare()`` (imports), then waits for its calls.

    The child computes ``function(*arguments)`` for each set of arguments given by
    :meth:`Waiting.give`, as a child of :func:`start` does; released, or when this process
    ends first, it ends without computing anything. It reads nothing from standard input and
    writes nothing to standard output or error (it may outlive this process by the time its
    ``prepare`` takes, and a pipe reading this process's output must not wait for it).

    :param function: what to compute; its results must pickle
    :param prepare: what to do while the calls are not known
    :param close: descriptors of this process the child closes (write ends of pipes it
        reads, so that it sees their end)
    :return: the waiting child, or None when :func:`can_fork` says no or the fork fails
    """
    if not can_fork():
        return None
    try:
        orders_read, orders = os.pipe()
    except OSError:
        return None
    forked = _fork()
    if forked is None:
        os.close(orders_read)
        os.close(orders)
        return None
    pid, read, write, answer = forked
    if pid == 0:  # pragma: no cover (the child; coverage is not collected there)
        os.close(read)
        os.close(orders)
        _run_waiting(orders_read, write, function, prepare, close, answer)
    os.close(write)
    os.close(orders_read)
    return Waiting(pid, read, answer, orders)


def _fork() -> Optional[Tuple[int, int, int, Optional[int]]]:
    """Fork with the answer's pipe and file made; return (pid, read, write, answer) or None."""
    _reap_ending(wait=False)
    read, write = os.pipe()
    answer = _answer_file()
    try:
        pid = os.fork()
    except OSError:
        for descriptor in (read, write, answer):
            if descriptor is not None:
                os.close(descriptor)
        return None
    return pid, read, write, answer


def _run_waiting(orders: int, write: int, function: Callable[..., Any],
                 prepare: Callable[[], None], close: Sequence[int],
                 answer: Optional[int]) -> None:  # pragma: no cover (in the child)
    """Prepare, wait for the calls, then compute them as :func:`_run_child` does."""
    try:
        for descriptor in close:
            os.close(descriptor)
        quiet = os.open(os.devnull, os.O_RDWR)
        for descriptor in (0, 1, 2):
            os.dup2(quiet, descriptor)
        os.close(quiet)
        prepare()
        with os.fdopen(orders, 'rb') as stream:
            header = stream.read(_LENGTH.size)
            if len(header) != _LENGTH.size:  # released, or this process ended
                os._exit(0)
            data = stream.read(_LENGTH.unpack(header)[0])
        calls = pickle.loads(data)
    except BaseException:  # noqa: B902 - the parent computes it instead
        os._exit(1)
    _run_child(write, function, calls, answer)


def _capture_logging() -> _Capture:  # pragma: no cover (runs in the child)
    """Route every record the child logs to one capture (this process is the child's)."""
    root = logging.getLogger()
    for logger in [root] + [item for item in logging.Logger.manager.loggerDict.values()
                            if isinstance(item, logging.Logger)]:
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.propagate = True
    capture = _Capture()
    root.addHandler(capture)
    return capture


def _run_child(write: int, function: Callable[..., Any], calls: Sequence[tuple],
               answer: Optional[int] = None) -> None:  # pragma: no cover (in the child)
    """Compute, write the pickled answer, and end without running the parent's exit code."""
    code = 1
    try:
        capture = _capture_logging()
        results: List[Any] = []
        for arguments in calls:
            try:
                results.append(function(*arguments))
            except MemoryError:
                results.append(None)
        told = b''
        if answer is not None:
            # Out of band (see _mapped): the pickle, then its arrays' bytes, into the file.
            buffers: List[pickle.PickleBuffer] = []
            data = pickle.dumps((results, capture.lines), protocol=5,
                                buffer_callback=buffers.append)
            try:
                raws = [buffer.raw() for buffer in buffers]
            except BufferError:  # (numpy hands over contiguous arrays only) in one pickle
                raws = None
            if raws is not None and len(raws) <= _MAX_BUFFERS:
                try:
                    _write_all(answer, data)
                    for raw in raws:
                        _write_all(answer, raw)
                    told = (_OUT_OF_BAND + _LENGTH.pack(len(data)) + _LENGTH.pack(len(raws))
                            + struct.pack(f'<{len(raws)}Q', *(raw.nbytes for raw in raws)))
                except OSError:  # no room for it in memory: through the pipe
                    answer = None
            else:
                answer = None
        if not told:
            data = pickle.dumps((results, capture.lines), protocol=pickle.HIGHEST_PROTOCOL)
            told = _IN_PIPE + data
        _write_all(write, told)
        code = 0
        # The answer is whole: the parent may read it now, not after this process has
        # released its memory (a few milliseconds for a process of a hundred megabytes).
        os.close(write)
    except BaseException:  # noqa: B902 - whatever it was, the parent computes it instead
        code = 1
    finally:
        # Never the parent's clean-up: no atexit handlers, no flush of its copied buffers.
        os._exit(code)
