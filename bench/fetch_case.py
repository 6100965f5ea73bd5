"""One web_fetch case in a fresh process: ``python -m bench.fetch_case URL WARMUP_URL REPEAT``.

Prints one JSON line: the outcome (for a result, also the length of the answer a model
reads, render_fetch's), the seconds per call, the CPU seconds of this process and of its
workers, and resident memory at the baseline and its peak during the calls, twice: for this
process alone and for its whole process tree (the extraction worker included). The baseline is taken after the imports and
one small warm-up fetch, so modules that load on first use, and the warm worker, count in
the baseline, not against the page.

This process: Linux lets a process reset its recorded peak (VmHWM, by writing 5 to
/proc/self/clear_refs), so the peak is the calls' own even when the imports peaked higher;
elsewhere ru_maxrss is used, which can hide a peak below the imports' one. The tree: a
thread sums the resident size of this process and every descendant every 10 ms (children
are looked up every 100 ms), so a worker that is killed or exits still counts while it lived.

CPU, for the same calls: this process's (os.times, less the sampling thread's own), and the
descendants' (the extraction workers), read from /proc at every sample.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import threading
import time

SAMPLE_SECONDS = 0.01
CHILDREN_EVERY = 10  # samples between two looks for new descendants
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


def _status_kib(field: str) -> int | None:
    try:
        with open("/proc/self/status") as status:
            lines = status.read().splitlines()
    except OSError:
        return None
    found = next((line for line in lines if line.startswith(field + ":")), None)
    return int(found.split()[1]) if found else None


def reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def peak_kib(resettable: bool) -> int:
    peak = _status_kib("VmHWM") if resettable else None
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def current_kib(resettable: bool) -> int:
    rss = _status_kib("VmRSS") if resettable else None
    return rss if rss is not None else peak_kib(False)


def descendants(root: int) -> list[int]:
    """Every process below ``root``, from /proc (kernels without /proc/PID/task/*/children too)."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            parents[int(name)] = int(fields[1])
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU time ``pid`` has used, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def resident_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * PAGE_KIB
    except (OSError, ValueError, IndexError):
        return 0  # gone


class TreeMemory:
    """The resident size of this process and its descendants, summed, and its peak."""

    def __init__(self) -> None:
        self.available = os.path.isdir("/proc/self")
        self._pids = [os.getpid()]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self.peak = 0
        # CPU seconds of each descendant, when first and last seen: a worker killed at the
        # deadline keeps what it used until its last sample
        self._cpu_first: dict[int, float] = {}
        self._cpu_last: dict[int, float] = {}

    def descendants_cpu(self) -> float:
        """CPU seconds the descendants (the extraction workers) used since start()."""
        return sum(self._cpu_last[pid] - self._cpu_first[pid] for pid in self._cpu_last)

    def _note_cpu(self, first: bool) -> None:
        for pid in self._pids[1:]:
            used = cpu_seconds(pid)
            if used is None:
                continue
            self._cpu_first.setdefault(pid, used if first else 0.0)
            self._cpu_last[pid] = used

    def now(self) -> int:
        return sum(resident_kib(pid) for pid in self._pids)

    def start(self) -> int:
        self._pids = [os.getpid(), *descendants(os.getpid())]
        self._note_cpu(first=True)
        self.peak = self.now()
        self._thread.start()
        return self.peak

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak

    def _sample(self) -> None:
        count = 0
        while not self._stop.wait(SAMPLE_SECONDS):
            count += 1
            if count % CHILDREN_EVERY == 0:
                self._pids = [os.getpid(), *descendants(os.getpid())]
            self.peak = max(self.peak, self.now())
            self._note_cpu(first=False)


def main() -> None:
    url, warmup, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
    from llmweb.errors import LlmwebError
    from llmweb.fetch import web_fetch
    from llmweb.render import render_fetch

    web_fetch(warmup)
    resettable = reset_peak()
    baseline = current_kib(resettable)
    tree = TreeMemory()
    tree_baseline = tree.start() if tree.available else 0
    seconds: list[float] = []
    outcome: dict[str, object] = {}
    own_cpu = time.process_time()
    for _ in range(repeat):
        started = time.perf_counter()
        try:
            result = web_fetch(url)
            outcome = {
                "ok": True,
                "total_chars": result.total_chars,
                "answer_chars": len(render_fetch(result)),
            }
        except LlmwebError as exc:
            # every error class it is, so a case refused by "Timeout" accepts a FetchTimeout
            kinds = [k.__name__ for k in type(exc).__mro__ if issubclass(k, LlmwebError)]
            outcome = {"ok": False, "error": type(exc).__name__, "kinds": kinds, "message": str(exc)[:400]}
        seconds.append(time.perf_counter() - started)
    own_cpu = time.process_time() - own_cpu
    tree_peak = tree.stop() if tree.available else 0
    method = "VmHWM reset" if resettable else "ru_maxrss"
    print(
        json.dumps(
            {
                **outcome,
                "seconds": seconds,
                "baseline_kib": baseline,
                "peak_kib": peak_kib(resettable),
                "tree_baseline_kib": tree_baseline,
                "tree_peak_kib": tree_peak,
                "method": method,
                "cpu_seconds": own_cpu,
                "workers_cpu_seconds": tree.descendants_cpu() if tree.available else None,
            }
        )
    )


if __name__ == "__main__":
    main()
