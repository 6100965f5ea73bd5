"""Loopback HTTP load: sequential latencies and sustained throughput at a fixed concurrency.

Bounded by design: a fixed number of requests, or a fixed duration after which no new
request starts, and a timeout on every request.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import ssl
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import httpx

from llmweb.search import SEARXNG_HEADERS

REQUEST_TIMEOUT = 10.0
ORDER_SEED = 26  # the same shuffled orders in every run
Check = Callable[[httpx.Response], bool]
Request = Callable[[httpx.AsyncClient, int], Awaitable[httpx.Response]]


@dataclass
class Load:
    ok: int = 0
    errors: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    first_error: str = ""
    failed_at: list[float] = field(default_factory=list)
    """time.perf_counter() of each failed answer's end."""

    @property
    def per_second(self) -> float:
        return self.ok / self.seconds if self.seconds else 0.0

    def merged(self, other: Load) -> Load:
        return Load(
            self.ok + other.ok,
            self.errors + other.errors,
            self.seconds + other.seconds,
            self.latencies + other.latencies,
            self.first_error or other.first_error,
            self.failed_at + other.failed_at,
        )


def searxng_answer_ok(answer: httpx.Response) -> bool:
    """A search that worked: HTTP 200, results, and no engine reported unresponsive."""
    if answer.status_code != 200:
        return False
    data = answer.json()
    return bool(data.get("results")) and not data.get("unresponsive_engines")


def status_ok(answer: httpx.Response) -> bool:
    return answer.status_code == 200


# One TLS context for every client: httpx makes a new one per client otherwise, loading the CA
# bundle each time (about 25 ms of CPU), which stalled 128 clients for seconds at a cell's start.
# The load is plain HTTP on loopback; the context is never used.
_TLS = ssl.create_default_context()


def client(concurrency: int) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    return httpx.AsyncClient(headers=SEARXNG_HEADERS, limits=limits, timeout=REQUEST_TIMEOUT, verify=_TLS)


async def _one(http: httpx.AsyncClient, request: Request, check: Check, n: int, into: Load) -> None:
    started = time.perf_counter()
    try:
        answer = await request(http, n)
        good = check(answer)
        problem = "" if good else f"HTTP {answer.status_code}: {answer.text[:200]}"
    except (httpx.HTTPError, ValueError) as exc:
        good, problem = False, f"{type(exc).__name__}: {exc}"
    if good:
        into.ok += 1
        into.latencies.append(time.perf_counter() - started)
    else:
        into.errors += 1
        into.first_error = into.first_error or problem
        into.failed_at.append(time.perf_counter())


async def interleaved_latencies(
    targets: Sequence[tuple[Request, Check]], rounds: int, warmup: int = 10
) -> list[Load]:
    """One client, one request at a time, taking the targets in turn so drift hits all alike, in
    an order shuffled every round: in a fixed order the target after the fake Brave's direct
    answer (whose JSON the client parses) came out several ms slower than it did elsewhere
    (2026-12-02, two interleaved runs minutes apart on a loaded machine: the same SearXNG and
    engine added 31.2 ms p50 right after it, 24.6 ms in second place)."""
    loads = [Load() for _ in targets]
    order = random.Random(ORDER_SEED)
    async with client(1) as http:
        for n in range(warmup + rounds):
            turns = list(zip(targets, loads, strict=True))
            order.shuffle(turns)
            for (request, check), load in turns:
                into = load if n >= warmup else Load()
                await _one(http, request, check, n, into)
    return loads


async def sustained(request: Request, check: Check, concurrency: int, seconds: float) -> Load:
    """``concurrency`` clients each sending the next request as soon as the last answered."""
    load = Load()
    counter = itertools.count()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds

    async def worker() -> None:
        # A client (one keep-alive connection) per worker: one shared pool of 32 connections
        # costs httpx so much that the load generator halves what it can send.
        async with client(1) as http:
            while loop.time() < deadline:
                await _one(http, request, check, next(counter), load)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    load.seconds = time.perf_counter() - started
    return load
