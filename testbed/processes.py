"""A server and the processes it started (granian's worker), read from /proc: CPU, memory, a crash.

Shared by ``scripts/bench scale`` and tests/test_scale.py. Linux only.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

PROC = Path("/proc")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _stat_fields(pid: int) -> list[str]:
    """/proc/PID/stat after the command name (which is in parentheses and may hold spaces):
    [0] is the state, [1] the parent, [11] and [12] user and system CPU ticks."""
    return (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it, parents before their children."""
    parents: dict[int, list[int]] = {}
    for entry in PROC.glob("[0-9]*"):
        with contextlib.suppress(OSError, IndexError):
            parents.setdefault(int(_stat_fields(int(entry.name))[1]), []).append(int(entry.name))
    pids, todo = [], [pid]
    while todo:
        current = todo.pop(0)
        pids.append(current)
        todo += parents.get(current, [])
    return pids


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of ``pid``'s tree so far (exited children not counted)."""
    total = 0
    for each in tree(pid):
        with contextlib.suppress(OSError):
            fields = _stat_fields(each)
            total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


def rss_bytes(pid: int) -> int:
    """Resident memory of ``pid``'s tree."""
    total = 0
    for each in tree(pid):
        with contextlib.suppress(OSError):
            total += int((PROC / str(each) / "statm").read_text().split()[1]) * PAGE
    return total


def crash(pid: int) -> None:
    """SIGKILL ``pid``'s whole tree at once, as when a container or machine dies."""
    for each in tree(pid):  # the parent first, so it cannot start a worker again
        with contextlib.suppress(ProcessLookupError):
            os.kill(each, signal.SIGKILL)
