"""Run the CPU-heavy step of a fetch, a body turned into text, in a worker process that the
fetch's deadline and a memory ceiling bound.

Parsing is where a small hostile page costs most (4.8 MB of table cells took trafilatura
37 s and 1.6 GB), and a thread cannot be stopped. A process can: the parent waits for the
answer only until the deadline, then kills the worker, so no work outlives the answer. The
worker also limits itself: RLIMIT_AS caps its memory (an allocation past it fails, and the
job ends as out of memory), and RLIMIT_CPU ends it should the parent die mid-job.

Workers are fresh interpreters started with :mod:`subprocess`, not forks: forking a process
that runs threads (the MCP server, concurrent web_fetch calls) can leave the child holding a
lock no thread will release, and multiprocessing's spawn and forkserver methods re-import the
caller's ``__main__`` in every child. A fresh interpreter needs about a second to import
lxml, trafilatura and pypdf, so up to ``EXTRACT_WORKERS`` workers stay warm between calls
(:func:`warm` starts one while the page downloads); one that was killed, failed or stayed
big is replaced by the next call, so nothing runs after an answer.

Parent and worker talk over the worker's stdin and stdout: a length-prefixed pickle of
``(function, args, seconds, memory)`` one way, ``(outcome, value, retiring)`` the other, after
any number of ``("report", description, False)`` the job sent on its way (:func:`report`), so a
job stopped by a bound can still be described without redoing its work in the caller. Both
ends are this module, so the pickles never carry anything but our own calls and answers.
A body comes as a memoryview (:mod:`.buffers`) and goes out of band, after its pickle
(protocol 5), so the caller never copies it into the pickle; the job gets it as bytes.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import gc
import importlib
import mmap
import os
import pickle
import resource
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar, cast

from llmweb.errors import LlmwebError
from llmweb.fetch import limits
from llmweb.fetch.buffers import exact_buffer

T = TypeVar("T")

_FRAME = struct.Struct(">Q")  # a length: of the pickle that follows, and of each buffer after it
_HEADER = struct.Struct(">QQ")  # the pickle's length, and how many buffers follow it
_PIPE_CHUNK = 1 << 20
_PRELOAD = "llmweb.fetch.content"  # lxml, trafilatura and pypdf: what every job needs
_NEAR_CEILING = 0.9  # a job that fails this close to the memory ceiling failed for memory


class OutOfTime(Exception):
    """The deadline passed: while the job ran (the worker was killed) or, with ``waiting``,
    before any worker was free to take it. ``report`` is the last thing the job said of its
    input (:func:`report`) before it was stopped, or None."""

    def __init__(self, waiting: bool = False, report: str | None = None) -> None:
        super().__init__("waiting for a worker" if waiting else "the job ran past its deadline")
        self.waiting = waiting
        self.report = report


class OutOfMemory(Exception):
    """The job needed more memory than the worker's ceiling (or the worker died of it);
    ``report`` as for :class:`OutOfTime`."""

    def __init__(self, report: str | None = None) -> None:
        super().__init__("the job needed more memory than its ceiling")
        self.report = report


class JobFailed(Exception):
    """The job raised an exception that is not an :class:`~llmweb.errors.LlmwebError`: a bug
    or a library's failure. Only its type's name crosses back (``kind``): its text may quote
    the page."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"the extraction failed with {kind}")
        self.kind = kind


class WorkerUnavailable(Exception):
    """No worker could be started, or one exited on its own before answering (its error is on stderr)."""


def run(
    function: Callable[..., T], *args: Any, seconds: float, memory: int = limits.EXTRACT_MEMORY_BYTES
) -> T:
    """``function(*args)`` in a worker, within ``seconds`` and ``memory`` bytes of address
    space above the worker's size when the job starts.

    Returns its value or raises its :class:`~llmweb.errors.LlmwebError`; any other exception
    comes back as JobFailed. Raises OutOfTime or OutOfMemory when a bound stopped it (OutOfTime
    at once when ``seconds`` is not positive). ``function`` and ``args`` must pickle (a
    module-level function).
    """
    return _POOL.run(function, args, seconds, memory)


def report(description: str) -> None:
    """Tell the caller, before the job ends, what it found out about its input (such as "about
    950,000 HTML elements"): should the deadline or the memory ceiling stop the job later,
    the caller still describes the input with it (OutOfTime.report, OutOfMemory.report),
    without redoing the work. Cut to REPORT_CHARS; does nothing outside a worker."""
    if _REPORTS is not None:
        frame = pickle.dumps(("report", description[:REPORT_CHARS], False), pickle.HIGHEST_PROTOCOL)
        _write_blocking(_REPORTS, _HEADER.pack(len(frame), 0) + frame)


REPORT_CHARS = 500
_REPORTS: int | None = None  # the answers pipe, in a worker


def warm() -> None:
    """Start a worker now unless one is idle, so its imports overlap the download."""
    _POOL.warm()


class _Worker:
    def __init__(self) -> None:
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parents[2])  # the llmweb this process runs
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from llmweb.fetch.worker import serve; serve()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self._jobs: IO[bytes] = self.process.stdin  # type: ignore[assignment]
        self._answers: IO[bytes] = self.process.stdout  # type: ignore[assignment]
        os.set_blocking(self._jobs.fileno(), False)  # writes wait in select, bounded by the deadline
        self.reported: str | None = None  # what the current job last said of its input

    def call(
        self, function: Callable[..., Any], args: tuple[Any, ...], end: float, memory: int
    ) -> tuple[str, Any, bool]:
        """The job's answer; its reports (:func:`report`) on the way are kept in ``reported``."""
        self.reported = None
        bodies: list[pickle.PickleBuffer] = []
        sent = tuple(pickle.PickleBuffer(arg) if isinstance(arg, memoryview) else arg for arg in args)
        job = pickle.dumps((function, sent, end - time.monotonic(), memory), 5, buffer_callback=bodies.append)
        try:
            raws = [body.raw() for body in bodies]
            header = _HEADER.pack(len(job), len(raws)) + b"".join(_FRAME.pack(len(raw)) for raw in raws)
            parts: list[bytes | memoryview] = [header, job, *raws]
            for part in parts:
                _write(self._jobs.fileno(), part, end)
            del job, sent, bodies, raws, parts
            while True:
                message = _read_message(self._answers.fileno(), end)
                if message is None:
                    break
                outcome, value, retiring = pickle.loads(message[0])
                if outcome != "report":
                    return outcome, value, retiring
                self.reported = value
        except BrokenPipeError:
            pass
        except OutOfTime:
            raise OutOfTime(report=self.reported) from None
        raise self._cause_of_death()  # the worker died before answering

    def _cause_of_death(self) -> Exception:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:  # closed its end but lives on: treat as stuck
            return OutOfTime(report=self.reported)
        if code == -signal.SIGXCPU:  # its CPU budget, which is the deadline
            return OutOfTime(report=self.reported)
        if code < 0:
            # SIGKILL from the kernel's OOM killer, SIGSEGV or SIGABRT from a C library that
            # failed to allocate under the ceiling: most likely memory
            return OutOfMemory(report=self.reported)
        # an exit of its own before answering: it could not start (its error is on stderr)
        return WorkerUnavailable(f"the extraction worker exited with code {code}; its error is on stderr")

    def alive(self) -> bool:
        return self.process.poll() is None

    def retire(self) -> None:
        """Let the worker exit on its own (it reads end of input), or end it."""
        self._close_pipes()
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        self.process.wait()
        self._close_pipes()

    def _close_pipes(self) -> None:
        for pipe in (self._jobs, self._answers):
            with contextlib.suppress(OSError):
                pipe.close()


class _Pool:
    """At most ``size`` workers, each doing one job at a time; idle ones wait for the next."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._live: set[_Worker] = set()

    def warm(self) -> None:
        with self._lock, contextlib.suppress(WorkerUnavailable):  # run() says it, for the call that needs one
            self._prune()
            if not self._idle and len(self._live) < self._size:
                self._idle.append(self._start())

    def run(self, function: Callable[..., T], args: tuple[Any, ...], seconds: float, memory: int) -> T:
        end = time.monotonic() + seconds
        if seconds <= 0 or not self._slots.acquire(timeout=seconds):
            raise OutOfTime(waiting=True)
        try:
            worker = self._take()
            try:
                outcome, value, retiring = worker.call(function, args, end, memory)
            except BaseException:
                self._end(worker, kill=True)  # killed before the answer: no work outlives the call
                raise
            if retiring:
                self._end(worker, kill=False)
            else:
                with self._lock:
                    self._idle.append(worker)
        finally:
            self._slots.release()
        if outcome == "memory":
            raise OutOfMemory(report=worker.reported)
        if outcome == "failed":
            raise JobFailed(value)
        if outcome == "raised":
            raise value
        return cast(T, value)  # what ``function`` returned, unpickled

    def close(self) -> None:
        with self._lock:
            workers, self._idle, self._live = list(self._live), [], set()
        for worker in workers:
            worker.kill()

    def forget_after_fork(self) -> None:
        """A forked child must not use, or kill, its parent's workers."""
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(self._size)
        self._idle, self._live = [], set()

    def _take(self) -> _Worker:
        with self._lock:
            self._prune()
            if self._idle:
                return self._idle.pop()
            return self._start()

    def _start(self) -> _Worker:
        try:
            worker = _Worker()
        except OSError as exc:  # no process could be made: out of processes, memory or file handles
            raise WorkerUnavailable(f"could not start the extraction worker: {exc.strerror or exc}") from None
        self._live.add(worker)
        return worker

    def _prune(self) -> None:
        for worker in [w for w in self._idle if not w.alive()]:
            self._idle.remove(worker)
            self._live.discard(worker)
            worker.kill()  # reaps it and closes its pipes

    def _end(self, worker: _Worker, *, kill: bool) -> None:
        with self._lock:
            self._live.discard(worker)
        worker.kill() if kill else worker.retire()


def _wait(fd: int, event: int, end: float) -> None:
    """Until ``fd`` is ready for ``event`` (POLLIN, POLLOUT), or OutOfTime at ``end``.

    poll, not select: select cannot watch a descriptor numbered past 1023, which a busy
    server's pipes can be."""
    poller = select.poll()
    poller.register(fd, event)
    remaining = end - time.monotonic()
    if remaining <= 0 or not poller.poll(remaining * 1000):
        raise OutOfTime


def _write(fd: int, data: bytes | memoryview, end: float) -> None:
    view = memoryview(data)
    while view:
        _wait(fd, select.POLLOUT, end)
        try:
            written = os.write(fd, view[:_PIPE_CHUNK])
        except BlockingIOError:
            continue
        view = view[written:]


def _read_exactly(fd: int, size: int, end: float | None) -> mmap.mmap | bytearray | None:
    """``size`` bytes from ``fd``, read into a buffer of that size (:func:`.buffers.exact_buffer`),
    None at end of input; ``end`` None waits as long as it takes."""
    buffer = exact_buffer(size)
    with memoryview(buffer) as view:
        done = 0
        while done < size:
            if end is not None:
                _wait(fd, select.POLLIN, end)
            read = os.readv(fd, [view[done : done + _PIPE_CHUNK]])
            if not read:
                return None
            done += read
    return buffer


def _read_message(fd: int, end: float | None) -> tuple[Any, list[Any]] | None:
    """A pickle and the buffers sent out of band after it, None at end of input."""
    header = _read_exactly(fd, _HEADER.size, end)
    if header is None:
        return None
    size, count = _HEADER.unpack(header)
    lengths = _read_exactly(fd, count * _FRAME.size, end)
    frame = _read_exactly(fd, size, end)
    if lengths is None or frame is None:
        return None
    buffers = [_read_exactly(fd, length, end) for (length,) in _FRAME.iter_unpack(lengths)]
    if None in buffers:
        return None
    return frame, buffers


# --- the worker's side ------------------------------------------------------------------


def serve() -> None:
    """The worker's loop: read a job, run it within the limits, answer; until end of input."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's; it then kills us
    global _REPORTS
    jobs, answers = os.dup(0), os.dup(1)
    _REPORTS = answers
    # a library that reads stdin or prints must not touch the jobs or the answers
    nothing = os.open(os.devnull, os.O_RDWR)
    os.dup2(nothing, 0)
    try:
        os.dup2(2, 1)  # prints go where the parent's errors go
    except OSError:  # the parent runs without stderr
        os.dup2(nothing, 1)
    importlib.import_module(_PRELOAD)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a worker ended by a limit leaves no core file
    start_size, start_resident = _status_bytes("VmSize"), _status_bytes("VmRSS")
    while True:
        message = _read_message(jobs, None)
        if message is None:
            return
        function, args, seconds, memory = pickle.loads(message[0], buffers=message[1])
        del message
        args = tuple(bytes(arg) if isinstance(arg, memoryview) else arg for arg in args)
        _limit_cpu(seconds)
        # each job may grow the worker by ``memory`` from where it starts: what earlier jobs left
        # (at most EXTRACT_WORKER_RETIRE_BYTES, or the worker retired) is not taken from it, so a
        # page ends the same after any other (the page of marked notes needs 176-192 MB of its 224:
        # counted from the worker's start, it once ran out of memory under the reliability test's
        # load, in a worker earlier pages had left bigger)
        size = _status_bytes("VmSize")
        ceiling = _limit_memory(size + memory) if size else None
        outcome, value = _run_job(function, args, ceiling)
        del args
        retiring = outcome == "memory" or not _give_back_memory(
            start_resident + limits.EXTRACT_WORKER_RETIRE_BYTES,
            start_size + limits.EXTRACT_WORKER_RETIRE_BYTES,
        )
        answer = _dump(outcome, value, retiring)
        del value
        _write_blocking(answers, _HEADER.pack(len(answer), 0))
        _write_blocking(answers, answer)
        if retiring:
            return


def _run_job(function: Callable[..., Any], args: tuple[Any, ...], ceiling: int | None) -> tuple[str, Any]:
    try:
        return "ok", function(*args)
    except MemoryError:
        return "memory", None
    except Exception as exc:
        # libraries catch MemoryError and fail otherwise (lxml: "Memory allocation failed")
        near = ceiling is not None and _status_bytes("VmSize") > ceiling * _NEAR_CEILING
        if near:
            return "memory", None
        if isinstance(exc, LlmwebError):  # the job's own error goes back to the caller
            return "raised", exc
        return "failed", type(exc).__name__  # a bug's or a library's text may quote the page


def _dump(outcome: str, value: Any, retiring: bool) -> bytes:
    try:
        return pickle.dumps((outcome, value, retiring), pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        return pickle.dumps(("memory", None, True))
    except Exception as exc:  # a value that does not pickle is a bug of the job
        return pickle.dumps(("failed", type(exc).__name__, retiring))


def _give_back_memory(resident: int, size: int) -> bool:
    """Return what the job freed to the system, and say whether the worker is back under
    ``resident`` bytes of memory and ``size`` bytes of address space. glibc keeps freed memory
    for reuse: a 5 MB page left a worker 110 MB bigger, of which malloc_trim gives back all but
    about 15. It gives back the pages, not always the address space: a page of 95,000 marked
    elements left a worker 43 MB bigger in memory but 207 MB in address space. The next job's
    ceiling counts from where it starts, but it may reuse that address space beside its own
    ceiling, so a worker holding more than ``size`` retires too. A full garbage collection costs
    12 ms, so it runs only when trimming alone was not enough."""
    trim = getattr(ctypes.CDLL(None), "malloc_trim", None)  # glibc only
    for collect in (False, True):
        if collect:
            gc.collect()
        if trim is not None:
            trim(0)
        if _status_bytes("VmRSS") <= resident and _status_bytes("VmSize") <= size:
            return True
    return False


def _limit_memory(ceiling: int) -> int:
    """Make an allocation that would take the worker past ``ceiling`` bytes of address space
    fail (MemoryError). Address space, not resident memory: the kernel enforces it at once,
    and a worker touches most of what it maps."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))
    return ceiling


def _limit_cpu(seconds: float) -> None:
    """End the worker (SIGXCPU) once this job has used ``seconds`` of CPU: the parent kills it
    at the deadline anyway, so this only matters when the parent is gone."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(usage.ru_utime + usage.ru_stime + max(seconds, 0)) + 2
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _write_blocking(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view[:_PIPE_CHUNK]) :]


def _status_bytes(field: str) -> int:
    """A size from /proc/self/status (Linux), 0 where there is none."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


_POOL = _Pool(limits.EXTRACT_WORKERS)
atexit.register(_POOL.close)
os.register_at_fork(after_in_child=_POOL.forget_after_fork)
