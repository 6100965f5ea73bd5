"""Part spend: what the budget and the answer cache save on model-like search traffic.

Replays a seeded day of household search traffic through SearXNG with the shipped spending
settings against the fake Brave answering after a realistic 300 ms, once with the answer
cache off and once on, and fires 32 clients at a small budget to show it holds exactly.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from bench import brave_corpus, deployment
from bench.report import PartResult, Target, table
from bench.scoring import percentile
from llmweb.search import SEARXNG_HEADERS
from testbed.fake_brave import COUNT_PATH

SEED = 12
SEARCHES = 160  # a household's day, replayed one search after another (each miss waits BRAVE_DELAY)
BRAVE_DELAY = 0.3
RUNAWAY_BUDGET, RUNAWAY_CLIENTS, RUNAWAY_SEARCHES = 40, 32, 320
# With the cache off no search depends on an earlier one, so that run replays the day in this many
# streams at once: one search after another, each waiting on the fake Brave, it was the part's
# longest wait (the part took 71 s; with 4 streams 53 s).
UNCACHED_STREAMS = 4

ASSUMPTIONS = (
    "Five askers (three people, two agents) hold conversations of 1–4 questions. A question "
    "starts with a search; the model repeats the very same search after an error or a cut-off "
    "answer with p=0.15, asks for page 2 with p=0.25 (and goes back to page 1 with p=0.4 of "
    "those), and rephrases with p=0.35 (a new query, a miss). 30 % of conversations ask a "
    "question another asker already asked that day (two agents, two people on one topic), and "
    "10 % are household staples from a set of five (weather, exchange rate, news). A quarter "
    "of questions search in English (`:en`). Searches run one after another, as a household does."
)


@dataclass(frozen=True)
class Search:
    query: str
    page: int = 1


def household_day(seed: int = SEED, searches: int = SEARCHES) -> list[Search]:
    """A day's searches of a household's models and people, seeded."""
    rng = random.Random(seed)
    staples = ["pogoda Kraków jutro", "kurs euro dzisiaj", "wiadomości Polska", "rozkład PKP", "apteka dyżur"]
    asked: list[str] = []
    day: list[Search] = []
    question = 0
    while len(day) < searches:
        for _ in range(rng.randint(1, 4)):
            roll = rng.random()
            if roll < 0.10:
                query = rng.choice(staples)
            elif roll < 0.40 and asked:
                query = rng.choice(asked)
            else:
                question += 1
                query = f":en question {question}" if rng.random() < 0.25 else f"pytanie {question}"
                asked.append(query)
            day.append(Search(query))
            if rng.random() < 0.15:
                day.append(Search(query))
            if rng.random() < 0.25:
                day.append(Search(query, 2))
                if rng.random() < 0.4:
                    day.append(Search(query))
            if rng.random() < 0.35:
                question += 1
                day.append(Search(f"{query} inaczej {question}"))
    return day[:searches]


def brave_requests(brave_url: str) -> int:
    return int(httpx.get(brave_url + COUNT_PATH, timeout=10).text)


@dataclass
class Replay:
    searches: int
    brave: int
    hit_ms: list[float]
    miss_ms: list[float]
    errors: int


def replay(dep: deployment.Deployment, day: list[Search], streams: int = 1) -> Replay:
    """The day's searches, one after another in each of ``streams`` taking every streams-th search.

    A search is a miss when the fake Brave's count rose while it ran: exact for one stream; with more,
    another stream's request may raise it too, so only a run that cannot hit (cache off) uses them."""
    before = brave_requests(dep.brave.url)
    with ThreadPoolExecutor(max_workers=streams) as pool:
        parts = list(pool.map(lambda n: _replay_stream(dep, day[n::streams]), range(streams)))
    return Replay(
        len(day),
        brave_requests(dep.brave.url) - before,
        [ms for hits, _, _ in parts for ms in hits],
        [ms for _, misses, _ in parts for ms in misses],
        sum(errors for _, _, errors in parts),
    )


def _replay_stream(
    dep: deployment.Deployment, searches: list[Search]
) -> tuple[list[float], list[float], int]:
    """The milliseconds of each search answered from the cache and of each that asked Brave, and the errors."""
    hits: list[float] = []
    misses: list[float] = []
    errors = 0
    with httpx.Client(headers=SEARXNG_HEADERS, timeout=30) as client:
        for search in searches:
            asked = brave_requests(dep.brave.url)
            started = time.perf_counter()
            answer = client.get(
                dep.search_url(), params={"q": search.query, "format": "json", "pageno": search.page}
            )
            elapsed = (time.perf_counter() - started) * 1000
            if answer.status_code != 200 or not answer.json().get("results"):
                errors += 1
            (misses if brave_requests(dep.brave.url) > asked else hits).append(elapsed)
    return hits, misses, errors


def _only_ours(change: deployment.SettingsChange) -> deployment.SettingsChange:
    def settings(values: dict[str, Any]) -> None:
        for engine in values["engines"]:
            if engine["name"] == deployment.UPSTREAM:
                engine["inactive"] = True
        change(values)

    return settings


def _spending(**overrides: int) -> deployment.SettingsChange:
    def change(values: dict[str, Any]) -> None:
        deployment.spending_as_shipped(values)
        next(e for e in values["engines"] if e["name"] == deployment.OURS).update(overrides)

    return _only_ours(change)


def _shipped_cache_label() -> str:
    """ "cache on (shipped: 6 h)", the hours read from settings/settings.yml."""
    values: dict[str, Any] = {"engines": [{"name": deployment.OURS}]}
    deployment.spending_as_shipped(values)
    return f"cache on (shipped: {values['engines'][0]['cache_seconds'] / 3600:g} h)"


def runaway(workdir: Path, answers: list[dict[str, Any]]) -> tuple[int, int]:
    """(Brave requests made, searches refused) when 32 clients fire distinct searches at a small budget."""
    change = _spending(monthly_budget=RUNAWAY_BUDGET, daily_budget=0, cache_seconds=0)
    with deployment.running(workdir, answers, change, brave_delay=BRAVE_DELAY) as dep:

        def one(n: int) -> bool:
            answer = httpx.get(
                dep.search_url(),
                params={"q": f"runaway {n}", "format": "json"},
                headers=SEARXNG_HEADERS,
                timeout=30,
            )
            return bool(dict(answer.json().get("unresponsive_engines") or []).get(deployment.OURS))

        with ThreadPoolExecutor(max_workers=RUNAWAY_CLIENTS) as pool:
            refused = sum(pool.map(one, range(RUNAWAY_SEARCHES)))
        return brave_requests(dep.brave.url), refused


def _ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q):.0f}" if values else "—"


def run(workdir: Path) -> PartResult:
    part = PartResult("spend", "Spend: Brave requests saved by the answer cache, and a budget that holds")
    answers = brave_corpus.build_answers()
    day = household_day()
    cache_on = _shipped_cache_label()
    modes: dict[str, Callable[..., deployment.SettingsChange]] = {
        "cache off": lambda: _spending(cache_seconds=0, monthly_budget=0, daily_budget=0),
        cache_on: lambda: _spending(monthly_budget=0, daily_budget=0),
    }

    # the two runs side by side, each its own SearXNG, valkey and fake Brave: they mostly wait on
    # the fake Brave (one run after the other, the part took 135 s).
    # Started one after the other: starting one installs our engine and plugins into searx.
    with contextlib.ExitStack() as started, ThreadPoolExecutor(max_workers=len(modes)) as pool:
        deployments = {
            name: started.enter_context(
                deployment.running(workdir / name.split()[1], answers, change(), brave_delay=BRAVE_DELAY)
            )
            for name, change in modes.items()
        }
        streams = {name: UNCACHED_STREAMS if name == "cache off" else 1 for name in modes}
        runs = dict(
            zip(
                modes,
                pool.map(lambda name: replay(deployments[name], day, streams[name]), modes),
                strict=True,
            )
        )
    for name, got in runs.items():
        part.say(f"{name}: {got.brave} Brave requests for {len(day)} searches")
    rows = []
    for name, got in runs.items():
        hit_rate = len(got.hit_ms) / got.searches
        rows.append(
            (
                name,
                got.searches,
                f"{got.brave * 100 / got.searches:.0f}",
                f"{hit_rate:.0%}",
                _ms(got.hit_ms, 50),
                _ms(got.hit_ms, 95),
                _ms(got.miss_ms, 50),
                _ms(got.miss_ms, 95),
                got.errors,
            )
        )
    made, refused = runaway(workdir / "runaway", answers)
    part.add(
        f"Traffic (seed {SEED}, {len(day)} searches): {ASSUMPTIONS} The fake Brave answers after "
        f"{BRAVE_DELAY * 1000:.0f} ms; SearXNG as scripts/serve runs it, limiter and valkey on. With the cache "
        f"off no search depends on an earlier one, so that run replays the day in {UNCACHED_STREAMS} streams at once.",
        "",
        table(
            (
                "run",
                "searches",
                "Brave requests per 100 searches",
                "answered from the cache",
                "p50 hit ms",
                "p95 hit ms",
                "p50 miss ms",
                "p95 miss ms",
                "errors",
            ),
            rows,
        ),
        "",
        f"Runaway: {RUNAWAY_CLIENTS} clients fired {RUNAWAY_SEARCHES} distinct searches at a monthly budget of "
        f"{RUNAWAY_BUDGET}: the fake Brave answered **{made}** requests; {refused} searches were told the "
        "budget is spent.",
    )
    cached, uncached = runs[cache_on], runs["cache off"]
    part.figure("runaway_requests_over_budget", made - RUNAWAY_BUDGET)
    part.figure("brave_requests_per_100_cached", cached.brave * 100 / cached.searches)
    part.figure("cache_hit_p50_ms", percentile(cached.hit_ms, 50) if cached.hit_ms else float("inf"))
    part.targets += [
        Target(
            "runaway: budget N under 32 clients",
            f"exactly {RUNAWAY_BUDGET} Brave requests",
            str(made),
            made == RUNAWAY_BUDGET,
        ),
        Target(
            "a repeated search from the cache",
            "milliseconds (p50 < 50 ms)",
            f"p50 {_ms(cached.hit_ms, 50)} ms",
            bool(cached.hit_ms) and percentile(cached.hit_ms, 50) < 50,
        ),
        Target(
            "Brave requests saved on household traffic",
            "fewer with the cache",
            f"{uncached.brave} → {cached.brave} per {len(day)} searches",
            cached.brave < uncached.brave,
        ),
    ]
    return part
