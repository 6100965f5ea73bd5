"""Jobs for llmweb's extraction worker (:mod:`llmweb.fetch.worker`) in the tests: module-level,
so they pickle, and importable in the worker, which has this repository on its path."""

from __future__ import annotations

import mmap
import os

_KEPT: list[mmap.mmap] = []


def keep_address_space(megabytes: int) -> int:
    """Leave the worker ``megabytes`` of address space bigger and no memory (a mapping never
    touched), as glibc keeps what a job freed; the worker's process id."""
    _KEPT.append(mmap.mmap(-1, megabytes << 20))
    return os.getpid()


def take_address_space(megabytes: int) -> int:
    """Take ``megabytes`` of address space and give it back (zeroed memory never touched); the
    worker's process id."""
    taken = bytearray(megabytes << 20)
    del taken
    return os.getpid()


def release_address_space() -> int:
    """Give back what :func:`keep_address_space` kept; the worker's process id."""
    while _KEPT:
        _KEPT.pop().close()
    return os.getpid()
