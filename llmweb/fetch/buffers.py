"""Page-sized byte buffers (a body, a job or an answer of the worker) in memory of their own.

A body is kept in an anonymous memory mapping, not in memory from malloc, so that the system
gets it back whole the moment the fetch lets it go. glibc keeps freed memory for reuse in the
arena of the thread that freed it, one arena per thread up to eight per core, and once a
block of a few MB has been freed it serves blocks that size from those arenas too (its mmap
threshold grows to the largest block freed). Each of many concurrent fetches then left its
thread's arena holding a body's worth of freed memory: 82 fetches at once, whose bodies held
42 MB at the most, kept the caller 103-128 MB above its start, and 59-64 MB with bodies in
mappings of their own (docs/fetch.md, "Memory of many fetches at once").
"""

from __future__ import annotations

import mmap

FIRST_SIZE = 1 << 16
"""The first mapping of a growing buffer: a small page's whole body, 16 memory pages."""


class GrowingBuffer:
    """Bytes appended as they arrive, in one anonymous mapping that doubles when full.

    Only the memory pages written to are resident; growing moves the pages (mremap), it does
    not copy them."""

    def __init__(self) -> None:
        self._mapping = _mapping(FIRST_SIZE)
        self.size = 0

    def append(self, data: bytes) -> None:
        end = self.size + len(data)
        if end > len(self._mapping):
            self._mapping.resize(max(end, 2 * len(self._mapping)))
        self._mapping[self.size : end] = data
        self.size = end

    def view(self, limit: int) -> memoryview:
        """The first ``limit`` bytes at most, read-only; the mapping lives as long as the view."""
        return memoryview(self._mapping)[: min(self.size, limit)].toreadonly()


def exact_buffer(size: int) -> mmap.mmap | bytearray:
    """A writable buffer of ``size`` bytes: a mapping of its own from FIRST_SIZE on."""
    return _mapping(size) if size >= FIRST_SIZE else bytearray(size)


def _mapping(size: int) -> mmap.mmap:
    # private: Python's default, a shared mapping, cannot grow (its pages past the first size
    # are no memory: touching them is SIGBUS)
    return mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE)
