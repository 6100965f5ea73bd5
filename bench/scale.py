"""Part scale: SearXNG replicas behind Caddy, as ``scripts/serve --replicas N`` runs them.

Searches/s and p50/p95 at 8, 32 and 128 clients for 1 and 2 replicas behind Caddy, with
the image's 4 blocking threads a replica and with 32; one SearXNG without Caddy, for
Caddy's cost; repeated searches answered from the cache; the CPU each part spends per
search, memory per replica, a replica killed under load, and valkey's commands per search.
The fake Brave answers after 300 ms, as a real one does. New searches are all distinct, so
each asks Brave; the answer cache and the budget are as shipped, the budgets set high enough
never to refuse. The clients connect from 127.0.0.1, which the pass list exempts as it
exempts a house's or an office's own networks; a sample from an outside address shows what
the limiter adds.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import valkey
from searx.botdetection import ip_limit

from bench import brave_corpus, deployment, load
from bench.report import PartResult, Target, table
from bench.scoring import percentile
from serve import stack
from testbed import fake_brave, processes

CELL_SECONDS = 6.0  # 15 cells; at 4 threads a replica (~12 searches/s) about 75 searches a cell
WARMUP_SECONDS = 1.0
# At most this many clients warm a cell up: a warm-up ends when its last search is answered,
# and 128 clients queued at 4 threads a replica took 10 s to drain (twice a cell, 20 s of the part).
WARMUP_CLIENTS = 32
BRAVE_DELAY = 0.3
BRAVE_PLAN_PER_SECOND = 50  # Brave's Search plan (shared notes, brave-api.md)
HIGH_BUDGET = 100_000_000  # the reservation runs for every search and never refuses one
REPEATED = 50  # distinct searches a repeated-search cell cycles through, all cached in its warm-up
FAULT_CLIENTS, FAULT_SECONDS, CRASH_AT, RESTART_AT = 32, 16.0, 4.0, 8.0
PROJECTED_CORES = 16
OUTSIDER = "127.0.0.3"
BROWSER_LIKE = {
    "Accept": "text/html,application/json;q=0.9,*/*;q=0.8",
    "Accept-Language": "en-US,en;q=0.8",
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) llmweb-bench",
}
SEARCH_LINE = re.compile(rb'"GET /search HTTP/1\.1" 200 ')


@dataclass(frozen=True)
class Setup:
    replicas: int
    threads: int
    cells: tuple[tuple[int, bool], ...]
    """(clients, repeated searches) of each cell."""
    direct: bool = False

    @property
    def name(self) -> str:
        if self.direct:
            return f"1 SearXNG, no proxy, {self.threads} threads"
        return (
            f"{self.replicas} {'replica' if self.replicas == 1 else 'replicas'}, {self.threads} threads each"
        )


IMAGE_THREADS = int(stack.BLOCKING_THREADS)
MORE_THREADS = 32
SETUPS = (
    Setup(1, IMAGE_THREADS, ((32, False),), direct=True),
    Setup(1, IMAGE_THREADS, ((8, False), (32, False), (128, False), (32, True))),
    Setup(2, IMAGE_THREADS, ((8, False), (32, False), (128, False), (32, True))),
    Setup(1, MORE_THREADS, ((32, False), (128, False), (32, True))),
    Setup(2, MORE_THREADS, ((32, False), (128, False), (32, True))),
)


LITTLE_GAIN = 1.3
"""Two replicas carrying less than this many times one's searches count as little gain."""


def _settings(values: dict[str, Any]) -> None:
    """Only our engine; spending as shipped with budgets that never refuse."""
    deployment.spending_as_shipped(values)
    for engine in values["engines"]:
        if engine["name"] == deployment.UPSTREAM:
            engine["inactive"] = True
        if engine["name"] == deployment.OURS:
            engine.update(monthly_budget=HIGH_BUDGET, daily_budget=HIGH_BUDGET)


def _narrow_pass_list(settings_dir: Path) -> None:
    """Only 127.0.0.1 of loopback on the pass list, so OUTSIDER stands in for a client from outside."""
    path = settings_dir / "limiter.toml"
    text = path.read_text().replace("'127.0.0.0/8',     # this machine", "'127.0.0.1/32',    # this machine")
    assert "'127.0.0.1/32'" in text, "limiter.toml changed shape"
    path.write_text(text)


@dataclass
class Shape:
    """Fake Brave, valkey, SearXNG replicas and (unless direct) Caddy in front."""

    front: stack.Process
    replicas: list[stack.Replica]
    valkey: stack.Process
    caddy: stack.Process | None
    db: Any = field(init=False)

    def __post_init__(self) -> None:
        self.db = valkey.Valkey.from_url(self.valkey.url)  # Any: sync and async share stubs

    def pids(self) -> dict[str, list[int]]:
        parts = {"SearXNG": [r.process.popen.pid for r in self.replicas if r.process]}
        parts["valkey"] = [self.valkey.popen.pid]
        if self.caddy:
            parts["Caddy"] = [self.caddy.popen.pid]
        return parts

    def cpu(self) -> dict[str, float]:
        return {part: sum(processes.cpu_seconds(p) for p in pids) for part, pids in self.pids().items()}

    def commands(self) -> Counter[str]:
        stats = self.db.info("commandstats")
        return Counter({name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()})


@contextlib.contextmanager
def running(
    workdir: Path, answers: list[dict[str, Any]], setup: Setup, access_log: bool = False
) -> Iterator[Shape]:
    stack.install_searx_extensions()
    started: list[stack.Process | stack.Replica] = []
    try:
        brave = fake_brave.start(answers, workdir, delay=BRAVE_DELAY)
        started.append(brave)
        db = stack.start_valkey(workdir / "valkey")
        started.append(db)
        settings_dir = deployment.write_settings(workdir / "settings", brave.url, _settings)
        _narrow_pass_list(settings_dir)
        secret = "bench-secret-NOT-REAL"
        env = {"BRAVE_API_KEY": deployment.BENCH_KEY, "SEARXNG_VALKEY_URL": db.url, "SEARXNG_SECRET": secret}
        env |= {"LLMWEB_PROXY_TOKEN": secret, "GRANIAN_BLOCKING_THREADS": str(setup.threads)}
        if access_log:
            env["GRANIAN_LOG_ACCESS_ENABLED"] = "1"
        team = [
            stack.Replica(f"searxng-{n}", settings_dir, workdir / f"searxng-{n}", env)
            for n in range(setup.replicas)
        ]
        for replica in team:
            started.append(replica)
            replica.start()
        caddy = None
        if not setup.direct:
            upstreams = [r.address for r in team]
            port = stack.free_port()
            caddy = stack.start_proxy(
                upstreams, workdir=workdir / "caddy", host="127.0.0.1", port=port, token=secret
            )
            started.append(caddy)
        front = caddy or team[0].process
        assert front is not None
        yield Shape(front, team, db, caddy)
    finally:
        for part in reversed(started):
            part.stop()


def _request(base: str, repeated: bool, start: int = 0) -> load.Request:
    """New searches numbered from ``start``, or REPEATED searches in turn."""

    def request(http: httpx.AsyncClient, n: int) -> Any:
        query = f"scale repeated {n % REPEATED}" if repeated else f"scale query {start + n} words"
        return http.get(base + "/search", params={"q": query, "format": "json"})

    return request


@dataclass
class Cell:
    setup: Setup
    clients: int
    repeated: bool
    got: load.Load
    cpu: dict[str, float]
    commands: Counter[str]

    @property
    def searches(self) -> int:
        return self.got.ok + self.got.errors

    def cpu_ms(self, part: str) -> float:
        return self.cpu.get(part, 0.0) * 1000 / max(self.searches, 1)


def measure(shape: Shape, setup: Setup, clients: int, repeated: bool, offset: int) -> Cell:
    """A cell's load; ``offset`` keeps new searches new across the cells of one deployment."""
    warmup = _request(shape.front.url, repeated, offset)
    asyncio.run(load.sustained(warmup, load.searxng_answer_ok, min(clients, WARMUP_CLIENTS), WARMUP_SECONDS))
    cpu, commands = shape.cpu(), shape.commands()
    request = _request(shape.front.url, repeated, offset + 10**6)
    got = asyncio.run(load.sustained(request, load.searxng_answer_ok, clients, CELL_SECONDS))
    spent = {part: after - cpu.get(part, 0.0) for part, after in shape.cpu().items()}
    return Cell(setup, clients, repeated, got, spent, shape.commands() - commands)


def outside_commands(shape: Shape) -> tuple[Counter[str], list[int]]:
    """valkey commands of the searches a client from outside is allowed (ip_limit.API_MAX a
    JSON client an hour), and their statuses."""
    before = shape.commands()
    transport = httpx.HTTPTransport(local_address=OUTSIDER)
    with httpx.Client(headers=BROWSER_LIKE, transport=transport, timeout=30) as client:
        statuses = [
            client.get(
                shape.front.url + "/search", params={"q": f"outside {n}", "format": "json"}
            ).status_code
            for n in range(ip_limit.API_MAX)
        ]
    return shape.commands() - before, statuses


@dataclass
class Fault:
    answered: int = 0
    failed: int = 0
    recovered_s: float = 0.0
    restart_s: float = 0.0
    rejoined_s: float | None = None
    first_error: str = ""


def fault(workdir: Path, answers: list[dict[str, Any]]) -> Fault:
    """Two replicas under FAULT_CLIENTS clients; one is killed at CRASH_AT s and started again at RESTART_AT s."""
    with running(workdir, answers, Setup(2, IMAGE_THREADS, ()), access_log=True) as shape:
        victim = shape.replicas[-1]
        marks: dict[str, float] = {}

        def script() -> None:
            time.sleep(CRASH_AT)
            assert victim.process is not None
            processes.crash(victim.process.popen.pid)
            victim.process.popen.wait()
            marks["crash"] = time.perf_counter()
            time.sleep(RESTART_AT - CRASH_AT)
            started = time.perf_counter()
            log = victim.start().log
            marks["healthy"] = time.perf_counter()
            marks["restart"] = marks["healthy"] - started
            while time.perf_counter() - started < FAULT_SECONDS:
                if SEARCH_LINE.search(log.read_bytes()):
                    marks["rejoined"] = time.perf_counter()
                    return
                time.sleep(0.05)

        actions = threading.Thread(target=script)
        actions.start()
        request = _request(shape.front.url, repeated=False)
        got = asyncio.run(load.sustained(request, load.searxng_answer_ok, FAULT_CLIENTS, FAULT_SECONDS))
        actions.join()
    result = Fault(got.ok, got.errors, restart_s=marks.get("restart", 0.0), first_error=got.first_error)
    if got.failed_at and "crash" in marks:
        result.recovered_s = max(got.failed_at) - marks["crash"]
    if "rejoined" in marks:
        result.rejoined_s = marks["rejoined"] - marks["healthy"]
    return result


@dataclass
class Findings:
    cells: list[Cell] = field(default_factory=list)
    replica_bytes: int = 0
    caddy_bytes: int = 0
    valkey_bytes: int = 0
    outside: tuple[Counter[str], list[int]] = field(default_factory=lambda: (Counter(), []))


def run(workdir: Path) -> PartResult:
    part = PartResult("scale", "Scale: SearXNG replicas behind Caddy, one valkey")
    answers = brave_corpus.build_answers()
    found = Findings()
    for number, setup in enumerate(SETUPS):
        with running(workdir / f"setup-{number}", answers, setup) as shape:
            for offset, (clients, repeated) in enumerate(setup.cells):
                cell = measure(shape, setup, clients, repeated, offset * 10**7)
                found.cells.append(cell)
                kind = "repeated" if repeated else "new"
                part.say(
                    f"{setup.name}, {clients} clients, {kind}: {cell.got.per_second:.1f}/s, {cell.got.errors} errors"
                )
            if not setup.direct:
                rss = [processes.rss_bytes(r.process.popen.pid) for r in shape.replicas if r.process]
                found.replica_bytes = max(found.replica_bytes, *rss)
                found.caddy_bytes = max(found.caddy_bytes, processes.rss_bytes(shape.front.popen.pid))
                found.valkey_bytes = max(found.valkey_bytes, processes.rss_bytes(shape.valkey.popen.pid))
            if setup.replicas == 2 and setup.threads == IMAGE_THREADS:
                found.outside = outside_commands(shape)
    broken = fault(workdir / "fault", answers)
    part.say(f"fault: {broken.failed} failed of {broken.answered + broken.failed}")
    _report(part, found, broken)
    return part


def _ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1000:.0f}" if values else "—"


def _cell(found: Findings, replicas: int, threads: int, clients: int, repeated: bool = False) -> Cell:
    return next(
        c
        for c in found.cells
        if (c.setup.replicas, c.setup.threads, c.clients, c.repeated, c.setup.direct)
        == (replicas, threads, clients, repeated, False)
    )


def _report(part: PartResult, found: Findings, broken: Fault) -> None:
    """The part's text, figures and targets, in the order a reader meets them."""
    part.add(*_cells_table(found))
    part.add(*_caddy_cost(found))
    part.add("", _replica_limits(found), "", _projection(found))
    part.add(*_memory(found))
    part.add(*_valkey_commands(found))
    part.add(*_fault_table(broken))
    _fault_and_scaling_figures(part, found, broken)


def _cells_table(found: Findings) -> tuple[str, ...]:
    """How a cell is measured, and every cell's row."""
    rows = [
        (
            c.setup.name,
            c.clients,
            "repeated (cached)" if c.repeated else "new",
            f"{c.got.per_second:.1f}",
            _ms(c.got.latencies, 50),
            _ms(c.got.latencies, 95),
            c.got.errors,
            f"{c.cpu_ms('SearXNG'):.1f}",
            f"{c.cpu_ms('Caddy'):.2f}" if "Caddy" in c.cpu else "—",
            f"{c.cpu_ms('valkey'):.2f}",
        )
        for c in found.cells
    ]
    return (
        (__doc__ or "").split("\n\n", 1)[1].replace("\n", " ").strip(),
        "",
        f"Each cell: {WARMUP_SECONDS:.0f} s of warm-up (at most {WARMUP_CLIENTS} clients), then {CELL_SECONDS:.0f} s of clients each sending the next "
        "search as soon as the last was answered (bench/load.py, from this same machine; a request taking over "
        f"{load.REQUEST_TIMEOUT:.0f} s counts as an error). CPU is each part's user+system time over the cell, per "
        "search.",
        "",
        table(
            (
                "shape",
                "clients",
                "searches",
                "answered/s",
                "p50 ms",
                "p95 ms",
                "errors",
                "SearXNG CPU ms/search",
                "Caddy CPU ms/search",
                "valkey CPU ms/search",
            ),
            rows,
        ),
    )


def _caddy_cost(found: Findings) -> tuple[str, ...]:
    """One replica with Caddy in front against the same replica called directly."""
    direct = next(c for c in found.cells if c.setup.direct)
    behind = _cell(found, 1, IMAGE_THREADS, direct.clients)
    return (
        "",
        f"Caddy in front of one replica ({direct.clients} clients): {behind.got.per_second:.1f} searches/s, p50 "
        f"{_ms(behind.got.latencies, 50)} ms, against {direct.got.per_second:.1f}/s and "
        f"{_ms(direct.got.latencies, 50)} ms without it; Caddy spends {behind.cpu_ms('Caddy'):.2f} ms of CPU a search.",
    )


def _replica_limits(found: Findings) -> str:
    """What limits a replica: its blocking threads while Brave answers, then the machine's cores."""
    few, many = IMAGE_THREADS, MORE_THREADS
    one, two = _best(found, 1, few), _best(found, 2, few)
    one_more, two_more = _best(found, 1, many), _best(found, 2, many)
    hits_one, hits_two = _cell(found, 1, many, 32, True), _cell(found, 2, many, 32, True)
    few_hits_one, few_hits_two = _cell(found, 1, few, 32, True), _cell(found, 2, few, 32, True)
    overloaded = [c for c in found.cells if c.got.errors]
    return (
        "**What limits a replica** (each shape's best cell of new searches). A search holds one of its replica's "
        f"blocking threads while Brave answers, so with the image's {few} threads one replica answers at most about "
        f"{few} ÷ {BRAVE_DELAY} s ≈ {few / BRAVE_DELAY:.0f} new searches/s, whatever the CPU: measured "
        f"{_rate(one)}; 2 replicas, twice the threads, {_rate(two)} ({_ratio(two, one)}). With {many} threads each: "
        f"one replica {_rate(one_more)}, two {_rate(two_more)} ({_ratio(two_more, one_more)})"
        + (
            ": now the two cores, shared by the load generator, Caddy, valkey and the fake Brave, are the limit, and "
            "a second replica has little room to work in — little gain is what this machine can show. "
            if two_more.got.per_second < LITTLE_GAIN * one_more.got.per_second
            else ": a second replica still adds to what one carries on this machine. "
        )
        + "Searches answered from the cache (no "
        f"Brave wait, 32 clients): {hits_one.got.per_second:.0f}/s with one replica, {hits_two.got.per_second:.0f}/s "
        f"with two ({few} threads each: {few_hits_one.got.per_second:.0f}/s and {few_hits_two.got.per_second:.0f}/s). "
        "So raise GRANIAN_BLOCKING_THREADS first (it costs next to no memory); add replicas for more "
        "cores, and so that one crash costs next to nothing (only the answers it was sending)."
        + (
            f" At 128 clients with {few} threads the queue outgrows the clients' {load.REQUEST_TIMEOUT:.0f} s "
            "timeout: searches given up on still cost their replica, so fewer are answered (overload, not capacity)."
            if any(c.setup.threads == few for c in overloaded)
            else ""
        )
    )


def _projection(found: Findings) -> str:
    """A machine with more cores, projected from the CPU a search costs (not measured)."""
    few, many = IMAGE_THREADS, MORE_THREADS
    one, two_more = _best(found, 1, few), _best(found, 2, many)
    hits_two = _cell(found, 2, many, 32, True)
    cpu_new = two_more.cpu_ms("SearXNG")
    cpu_hit = hits_two.cpu_ms("SearXNG")
    cores = PROJECTED_CORES - 1
    return (
        f"**Projected, not measured: a {PROJECTED_CORES}-core machine.** A new search cost {cpu_new:.1f} ms of "
        f"SearXNG CPU ({_where(two_more)}), one answered from the cache {cpu_hit:.1f} ms; Caddy and valkey add about "
        f"{two_more.cpu_ms('Caddy') + two_more.cpu_ms('valkey'):.1f} ms together. A replica is one Python process "
        f"(granian, one worker), so it uses one core at most. {cores} replicas (one core left to Caddy, valkey and "
        f"the system) would carry about {cores * 1000 / cpu_new:.0f} new searches/s, or "
        f"{cores * 1000 / cpu_hit:.0f} answered from the cache, if each has threads enough to keep its core busy: "
        f"about {1000 / cpu_new * BRAVE_DELAY:.0f} searches in flight per replica while Brave takes "
        f"{BRAVE_DELAY} s, so {many}–64 threads. With the image's {few} threads the same {cores} replicas stop near "
        f"{cores * one.got.per_second:.0f} new searches/s ({cores} × one replica's {one.got.per_second:.1f}/s here). "
        f"Brave comes first anyway: the Search plan allows {BRAVE_PLAN_PER_SECOND} requests/s, so past that only "
        "searches answered from the cache add throughput."
    )


def _memory(found: Findings) -> tuple[str, ...]:
    """The resident size of one replica, of Caddy and of valkey after the load."""
    replica_mb = found.replica_bytes / 2**20
    return (
        "",
        f"**Memory** after the load (resident, the process and its granian worker): one replica "
        f"**{replica_mb:.0f} MB**; Caddy {found.caddy_bytes / 2**20:.0f} MB; valkey {found.valkey_bytes / 2**20:.0f} MB. "
        f"Choosing N: at most one replica per core SearXNG may use, and N × {replica_mb:.0f} MB.",
    )


def _valkey_commands(found: Findings) -> list[str]:
    """valkey's commands per search, new and from the cache; for a client from outside the pass list too."""
    few = IMAGE_THREADS
    busiest = _cell(found, 2, few, 32)
    hits = _cell(found, 2, few, 32, True)
    lines = [
        "",
        f"**valkey's commands per search** (INFO commandstats, 2 replicas, {IMAGE_THREADS} threads, 32 clients): "
        f"a new search {_per_search(busiest)}; one answered from the cache {_per_search(hits)}. Commands run "
        "inside the budget's and the cache's scripts count too. On the wire, as plugins/spend.py is written (read "
        "from the code, not measured by this run), a new search is about six round trips (the cache lookup, the "
        "hit-or-miss counter and its lifetime, three scripts: reserve, Brave's count, store), one from the cache "
        "three.",
    ]
    spent, statuses = found.outside
    if statuses:
        per = sum(spent.values()) / len(statuses)
        listed = ", ".join(f"{name} {calls / len(statuses):.2f}" for name, calls in spent.most_common())
        lines.append(
            f"A client from outside the pass list, through Caddy ({len(statuses)} new searches, HTTP "
            f"{sorted(set(statuses))}): {per:.2f} commands per search ({listed}): the limiter's counters come on top."
        )
    return lines


def _fault_table(broken: Fault) -> tuple[str, ...]:
    """A replica killed under load and started again: what the clients saw."""
    rejoined = _rejoined(broken)
    return (
        "",
        table(
            (
                "fault",
                "searches",
                "failed",
                "seconds to recover",
                "replica start",
                "first search after healthy",
            ),
            [
                (
                    f"2 replicas, {FAULT_CLIENTS} clients, new searches; one killed (SIGKILL, the process and its "
                    f"worker) at {CRASH_AT:.0f} s, started again at {RESTART_AT:.0f} s",
                    broken.answered + broken.failed,
                    broken.failed,
                    f"{broken.recovered_s:.1f}" if broken.failed else "0 (no failed answer)",
                    f"{broken.restart_s:.1f} s",
                    rejoined,
                )
            ],
        ),
        "",
        "Caddy tries a search whose replica refused the connection, or died before answering, again on the other "
        "one (settings/upstream.caddy) and asks each replica's /healthz every second"
        + (
            ", so in this run the clients did not see the crash"
            if not broken.failed
            else f", yet in this run {broken.failed} searches failed. First failure: {broken.first_error}"
        )
        + (
            f"; the restarted replica was in the turn again {broken.rejoined_s:.1f} s after it was healthy."
            if broken.rejoined_s is not None
            else "; the restarted replica took no search within the run."
        ),
    )


def _rejoined(broken: Fault) -> str:
    return f"{broken.rejoined_s:.1f} s" if broken.rejoined_s is not None else "not within the run"


def _fault_and_scaling_figures(part: PartResult, found: Findings, broken: Fault) -> None:
    one, two = _best(found, 1, IMAGE_THREADS), _best(found, 2, IMAGE_THREADS)
    one_more = _best(found, 1, MORE_THREADS)
    rejoined = _rejoined(broken)
    part.figure("fault_failed_answers", broken.failed)
    part.figure("rejoined_seconds", broken.rejoined_s if broken.rejoined_s is not None else float("inf"))
    part.figure("two_replicas_over_one", two.got.per_second / max(one.got.per_second, 1e-9))
    part.figure("more_threads_over_image", one_more.got.per_second / max(one.got.per_second, 1e-9))
    part.targets += [
        Target(
            "replica killed under load", "no failed answer", f"{broken.failed} failed", broken.failed == 0
        ),
        Target("restarted replica takes searches again", "yes", rejoined, broken.rejoined_s is not None),
    ]


def _best(found: Findings, replicas: int, threads: int) -> Cell:
    """The cell of new searches with the most searches/s for this many replicas and threads."""
    cells = [c for c in found.cells if not c.repeated and not c.setup.direct]
    return max(
        (c for c in cells if (c.setup.replicas, c.setup.threads) == (replicas, threads)),
        key=lambda c: c.got.per_second,
    )


def _where(cell: Cell) -> str:
    return f"{cell.setup.name}, {cell.clients} clients"


def _rate(cell: Cell) -> str:
    return f"{cell.got.per_second:.1f}/s ({cell.clients} clients)"


def _ratio(more: Cell, fewer: Cell) -> str:
    return f"{more.got.per_second / fewer.got.per_second:.2f}×" if fewer.got.per_second else "—"


def _per_search(cell: Cell) -> str:
    searches = max(cell.searches, 1)
    listed = ", ".join(f"{name} {calls / searches:.2f}" for name, calls in cell.commands.most_common(8))
    return f"**{sum(cell.commands.values()) / searches:.1f}** ({listed})"
