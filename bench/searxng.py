"""Part 2: SearXNG's overhead and capacity, our engine beside upstream's, and where the time goes.

Latency: one client on loopback (so limiter.toml's pass list applies), requests taken in
turn — the fake Brave directly, and a search through SearXNG with each engine, in an order
shuffled every round — so any drift on the machine hits all three alike. Added latency is SearXNG's p50 (p95) minus the
direct call's. Throughput: N clients for a fixed time, each sending its next search as
soon as the last one answered. Then a cProfile of in-process searches, and the same
measurements with the deployment settings the profile points at.
"""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx

from bench import brave_corpus, deployment, engine_parse, load
from bench.report import PartResult, Target, table
from bench.scoring import percentile
from llmweb.search import SEARXNG_HEADERS
from serve import stack
from testbed import processes
from testbed.fake_brave import COUNT_PATH

LATENCY_ROUNDS = 300
CONCURRENCY = (1, 8, 32)
# Kept short for the bench's 15-minute budget: at 6 s a cell each engine answers about 1,000
# searches at 32 clients; a variant's 3 s about 600. Runs of the same code differ by more.
CELL_SECONDS = 6.0
# Each engine's cell in short turns: a cell's ratio of the engines moves with the host's load, and
# in turns of 3 s its spread between cells of the same code was 0.15 (SD) at 1 client, in turns
# of 0.5 s 0.07 (10 cells of 3 s each, 2026-12-04); at 32 clients it was 0.056 either way. 1 s
# turns start half as many connections as 0.5 s ones.
TURN_SECONDS = 1.0
DIRECT_CELL_SECONDS = 4.0
VARIANT_ROUNDS = 100
CONTROL_ROUNDS = 150
VARIANT_SECONDS = 3.0
PROFILE_SEARCHES = 200
CACHE_ROUNDS, CACHE_WARM_QUERIES, CACHE_HIT_ADDED_MS = 150, 20, 3.0
WHOLE_VIEW = "the /search view, whole (webapp.search)"  # bench.profile_search.STAGES' first label
LABEL = {deployment.OURS: "ours (llmwebbrave)", deployment.UPSTREAM: "upstream braveapi"}

# Targets of issues #6 and #26.
ADDED_LATENCY_RATIO = 1.1
THROUGHPUT_RATIO = 0.95
MIN_THROUGHPUT = 50.0
PLUGINS_OFF = "llmweb plugins off"  # the variant measuring the engine alone


def search_request(base: str, engine: str) -> load.Request:
    def request(http: httpx.AsyncClient, n: int) -> Any:
        return http.get(base, params={"q": f"load query {n} words", "format": "json", "engines": engine})

    return request


def direct_request(brave_url: str) -> load.Request:
    """What our engine sends Brave, sent straight to the fake Brave."""

    def request(http: httpx.AsyncClient, n: int) -> Any:
        args = {"q": f"load query {n} words", "count": 20, "offset": 0, "country": "PL", "search_lang": "pl"}
        args |= {
            "ui_lang": "pl-PL",
            "safesearch": "moderate",
            "extra_snippets": "true",
            "text_decorations": "false",
        }
        return http.get(
            f"{brave_url}?{urlencode(args)}", headers={"X-Subscription-Token": deployment.BENCH_KEY}
        )

    return request


def brave_answer_ok(answer: httpx.Response) -> bool:
    return answer.status_code == 200 and bool(answer.json().get("web", {}).get("results"))


@dataclass
class Latency:
    p50: float
    p95: float


def _latency(values: list[float]) -> Latency:
    return Latency(percentile(values, 50) * 1000, percentile(values, 95) * 1000)


def measure_latency(d: deployment.Deployment, rounds: int) -> tuple[Latency, dict[str, Latency], int]:
    """(direct, {engine: through SearXNG}, errors)."""
    targets = [(direct_request(d.brave_url()), brave_answer_ok)]
    targets += [(search_request(d.search_url(), e), load.searxng_answer_ok) for e in deployment.ENGINES]
    loads = asyncio.run(load.interleaved_latencies(targets, rounds))
    errors = sum(x.errors for x in loads)
    return (
        _latency(loads[0].latencies),
        {e: _latency(x.latencies) for e, x in zip(deployment.ENGINES, loads[1:], strict=True)},
        errors,
    )


def measure_throughput(
    request: load.Request, check: load.Check, concurrency: int, seconds: float
) -> load.Load:
    return asyncio.run(load.sustained(request, check, concurrency, seconds))


def _ms(x: float) -> str:
    return f"{x:.1f}"


def control_section(part: PartResult, answers: list[dict[str, Any]], workdir: Path) -> None:
    """The same latency with the extra snippets taken out: how much of our cost is the longer text."""
    plain = copy.deepcopy(answers)
    for answer in plain:
        for result in answer["web"]["results"]:
            result.pop("extra_snippets", None)
    with deployment.running(workdir / "no-extra-snippets", plain) as d:
        direct, via, errors = measure_latency(d, CONTROL_ROUNDS)
    ours, up = (via[e].p50 - direct.p50 for e in (deployment.OURS, deployment.UPSTREAM))
    part.add(
        "",
        f"Control: the same answers without extra_snippets (a fresh instance, {CONTROL_ROUNDS} rounds, {errors} errors): "
        f"ours adds {ours:.1f} ms p50, upstream {up:.1f} ms ({ours / up:.2f}×). "
        + (
            "So most of the gap above goes with the longer text our engine passes on "
            "(SearXNG's per-result clean-up, the JSON out and in)."
            if ours <= ADDED_LATENCY_RATIO * up
            else "So the gap above is not only the longer text."
        ),
    )


def _brave_requests(d: deployment.Deployment) -> int:
    return int(httpx.get(d.brave.url + COUNT_PATH, timeout=10).text)


OFFLINE_ENGINE = "offline demo"
"""SearXNG's demo offline engine, beside ours in the cache-hit part: a second engine that asks no
one, standing in for the shipped duckduckgo and wikipedia, whose requests would leave loopback."""


def spending_and_an_offline_engine(settings: dict[str, Any]) -> None:
    deployment.spending_as_shipped(settings)
    entry = {"name": OFFLINE_ENGINE, "engine": "demo_offline", "shortcut": "offdemo", "disabled": False}
    settings["engines"].append(entry)


def repeated_search(base: str, engines: str) -> load.Request:
    """The searches of CACHE_WARM_QUERIES in turn, with ``engines``."""

    def request(http: httpx.AsyncClient, n: int) -> Any:
        query = {"q": f"load query {n % CACHE_WARM_QUERIES} words", "format": "json", "engines": engines}
        return http.get(base, params=query)

    return request


def cache_hit_section(part: PartResult, answers: list[dict[str, Any]], workdir: Path) -> None:
    """A repeated search answered from the answer cache, beside the fake Brave's direct answer:
    ours alone (its JSON kept whole), and ours with a second engine (the spend plugin's pre_search
    answers ours, SearXNG runs the other and merges)."""
    both = f"{deployment.OURS},{OFFLINE_ENGINE}"
    with deployment.running(workdir / "cache-hit", answers, spending_and_an_offline_engine) as d:
        # With the headers the measured client sends: a kept answer is kept under them too.
        with httpx.Client(timeout=30, headers=SEARXNG_HEADERS) as http:
            for n in range(CACHE_WARM_QUERIES):
                for engines in (deployment.OURS, both):
                    query = {"q": f"load query {n} words", "format": "json", "engines": engines}
                    http.get(d.search_url(), params=query)
        before = _brave_requests(d)
        targets = [
            (direct_request(d.brave_url()), brave_answer_ok),
            (repeated_search(d.search_url(), deployment.OURS), load.searxng_answer_ok),
            (repeated_search(d.search_url(), both), load.searxng_answer_ok),
        ]
        direct, hit, hit_both = asyncio.run(load.interleaved_latencies(targets, CACHE_ROUNDS))
        # Every direct call reaches the fake Brave; whatever else did was a search the cache missed.
        from_hits = _brave_requests(d) - before - len(direct.latencies) - direct.errors - 10
    d50, h50 = percentile(direct.latencies, 50) * 1000, percentile(hit.latencies, 50) * 1000
    b50 = percentile(hit_both.latencies, 50) * 1000
    part.add(
        "",
        f"A cache hit (ours, cache as shipped): {CACHE_WARM_QUERIES} searches made once, then repeated "
        f"{CACHE_ROUNDS} times taking turns with a direct call to the fake Brave: hit p50 {h50:.1f} ms "
        f"(p95 {percentile(hit.latencies, 95) * 1000:.1f}), direct p50 {d50:.1f} ms, so a hit adds {h50 - d50:.1f} ms; "
        f"{from_hits} Brave requests during the hits, {hit.errors + hit_both.errors} errors. "
        f"The same searches with a second engine beside ours (SearXNG's demo offline engine, standing in for "
        f"the shipped duckduckgo and wikipedia): p50 {b50:.1f} ms (p95 {percentile(hit_both.latencies, 95) * 1000:.1f}), "
        f"adding {b50 - d50:.1f} ms — ours from the cache in the spend plugin's pre_search, then SearXNG's "
        "engine threads and result pipeline, as for any search of several engines.",
    )
    part.figure("cache_hit_added_p50_ms", h50 - d50)
    part.figure("cache_hit_two_engines_added_p50_ms", b50 - d50)
    part.targets.append(
        Target(
            "cache hit p50 over the fake Brave's direct answer",
            f"≤ {CACHE_HIT_ADDED_MS:.0f} ms, 0 Brave requests",
            f"{h50 - d50:.1f} ms, {from_hits} requests",
            h50 - d50 <= CACHE_HIT_ADDED_MS and from_hits == 0,
        )
    )


def parse_section(part: PartResult, answers: list[dict[str, Any]]) -> None:
    """Each engine's response() per character of output (bench/engine_parse.py)."""
    costs = engine_parse.measure(answers)
    ours, up = costs["ours"], costs["upstream"]
    part.add(
        "",
        f"Engine `response()` alone, in-process, the corpus's {len(answers)} answers {engine_parse.ROUNDS} times, "
        "the engines taking turns (CPU time):",
        "",
        table(
            ("engine", "ms per answer", "characters out per answer", "ns per character out"),
            [
                (
                    LABEL[engine],
                    f"{cost.seconds * 1000 / (len(answers) * engine_parse.ROUNDS):.2f}",
                    f"{cost.characters / (len(answers) * engine_parse.ROUNDS):.0f}",
                    f"{cost.ns_per_character:.0f}",
                )
                for engine, cost in ((deployment.OURS, ours), (deployment.UPSTREAM, up))
            ],
        ),
    )
    part.figure("response_ns_per_character_ratio", ours.ns_per_character / up.ns_per_character)
    part.targets.append(
        Target(
            "engine response() per character out, ours / upstream",
            "≤ 1×",
            f"{ours.ns_per_character:.0f} / {up.ns_per_character:.0f} ns = "
            f"{ours.ns_per_character / up.ns_per_character:.2f}×",
            ours.ns_per_character <= up.ns_per_character,
        )
    )


# --- the profile ------------------------------------------------------------------------


def run_profile(d: deployment.Deployment, engine: str, workdir: Path) -> dict[str, Any]:
    out = workdir / f"profile-{engine.replace(' ', '-')}.json"
    cmd = [
        sys.executable,
        "-m",
        "bench.profile_search",
        "--settings",
        str(d.settings_dir),
        "--valkey",
        d.valkey.url,
    ]
    cmd += [
        "--key",
        deployment.BENCH_KEY,
        "--engine",
        engine,
        "--searches",
        str(PROFILE_SEARCHES),
        "--out",
        str(out),
    ]
    with (workdir / f"profile-{engine.replace(' ', '-')}.log").open("wb") as log:
        subprocess.run(cmd, check=True, stdout=log, stderr=subprocess.STDOUT, cwd=stack.REPO, timeout=300)
    return dict(json.loads(out.read_text()))


def profile_section(part: PartResult, profiles: dict[str, dict[str, Any]]) -> None:
    up, ours = profiles[deployment.UPSTREAM], profiles[deployment.OURS]
    part.add(
        "",
        "### Where a search's time goes (cProfile, in-process)",
        "",
        f"{PROFILE_SEARCHES} JSON searches through `searx.webapp` with Flask's test client, same settings and "
        "fake Brave, limiter on; the main thread and SearXNG's engine threads profiled. Without the profiler one "
        f"search took {up['plain_ms_median']:.1f} ms (upstream engine) and {ours['plain_ms_median']:.1f} ms (ours) "
        f"in-process; cProfile inflates Python-heavy code, so read the shares, not the absolute figures "
        f"({up['profiled_ms_mean']:.1f} / {ours['profiled_ms_mean']:.1f} ms with the profiler).",
        "",
    )
    labels = sorted(
        set(up["stages"]) | set(ours["stages"]),
        key=lambda k: -max(up["stages"].get(k, 0), ours["stages"].get(k, 0)),
    )
    rows = [(k, _ms(up["stages"].get(k, 0)), _ms(ours["stages"].get(k, 0))) for k in labels]
    whole = up["stages"].get(WHOLE_VIEW, 0) or 1
    top = [k for k in labels if k != WHOLE_VIEW][:4]
    part.add(
        "Top costs with upstream's engine (profiled, share of the whole /search view): "
        + "; ".join(
            f"{k} {up['stages'][k]:.1f} ms ({up['stages'][k] / whole:.0%})" for k in top if k in up["stages"]
        )
        + ". Stages nest: a plugin's on_result runs inside ResultContainer.extend.",
        "",
    )
    part.add(_shares(ours), "")
    part.add("Inclusive time of SearXNG's stages, ms per search (profiled):", "")
    part.add(table(("stage", "upstream braveapi", "ours"), rows), "")
    for thread in ("main", "engine"):
        keys = sorted(set(up[thread]) | set(ours[thread]), key=lambda k: -up[thread].get(k, 0))
        rows = [
            (k, _ms(up[thread].get(k, 0)), _ms(ours[thread].get(k, 0)))
            for k in keys
            if max(up[thread].get(k, 0), ours[thread].get(k, 0)) >= 0.05
        ]
        what = "main thread (request handling)" if thread == "main" else "engine threads (one per search)"
        part.add(
            f"Self time by code area, {what}, ms per search (profiled; C and stdlib time charged to the calling area; "
            "'waiting' is time blocked on the other threads or the network):",
            "",
            table(("area", "upstream braveapi", "ours"), rows),
            "",
        )
    part.add(
        "Top functions by own time on the main thread (upstream engine): "
        + ", ".join(f"`{n}` {ms:.2f} ms" for n, ms in up["top"][:8])
        + "."
    )
    part.add(
        "Top on the engine thread: " + ", ".join(f"`{n}` {ms:.2f} ms" for n, ms in up["top_engine"][:6]) + "."
    )


def _shares(profile: dict[str, Any]) -> str:
    """Each llmweb plugin's hooks and our engine's request()/response(), as shares of our search."""
    found = profile["stages"]
    whole = found.get(WHOLE_VIEW, 0) or 1
    engine = sum(ms for k, ms in found.items() if k.startswith(("engine request()", "engine response()")))
    plugins = {
        name: sum(ms for k, ms in found.items() if k.startswith(f"plugin {name} ("))
        for name in LLMWEB_PLUGINS
    }
    return (
        "Shares of a search with our engine (profiled, inclusive, of the whole /search view; the guard "
        "works in WSGI middleware outside the view, so its share is in the code-area tables below): "
        + "; ".join(f"plugin {name} {ms:.2f} ms ({ms / whole:.1%})" for name, ms in plugins.items())
        + f"; engine request() and response() {engine:.2f} ms ({engine / whole:.1%})."
    )


# --- deployment settings worth changing -------------------------------------------------


def without_limiter(settings: dict[str, Any]) -> None:
    settings["server"]["limiter"] = False


@dataclass
class Variant:
    name: str
    why: str
    change: deployment.SettingsChange | None = None
    env: dict[str, str] | None = None


# Upstream's tracker_url_remover plugin is not measured any more: loading it downloads
# ClearURLs' rule lists from the internet, and the bench's traffic stays on loopback. Its
# cost, measured on 2026-11-30 before llmweb left it out, is in settings.yml's comment on it.
LLMWEB_PLUGINS = ("guard", "language", "dates", "spend")


def without_plugins(*names: str) -> deployment.SettingsChange:
    """Settings without llmweb's plugins ``names`` (not loaded at all, not only inactive)."""

    def change(settings: dict[str, Any]) -> None:
        for name in names:
            settings["plugins"].pop(f"searx.plugins.llmweb.{name}.SXNGPlugin")

    return change


VARIANTS = (
    Variant(
        PLUGINS_OFF,
        "the engine alone, without the guard, language, dates and spend plugins",
        change=without_plugins(*LLMWEB_PLUGINS),
    ),
    *(
        Variant(f"{name} plugin off", f"the {name} plugin's own share", change=without_plugins(name))
        for name in LLMWEB_PLUGINS
    ),
    Variant("limiter off", "each search passes the limiter and its bot detection", change=without_limiter),
    Variant(
        "granian --workers 2", "one worker runs Python on one core at a time", env={"GRANIAN_WORKERS": "2"}
    ),
)


@dataclass
class Measured:
    direct: Latency
    via: dict[str, Latency]
    throughput32: dict[str, load.Load]
    errors: int


def measure_variant(d: deployment.Deployment, rounds: int, seconds: float) -> Measured:
    direct, via, errors = measure_latency(d, rounds)
    t32 = {
        e: measure_throughput(search_request(d.search_url(), e), load.searxng_answer_ok, 32, seconds)
        for e in deployment.ENGINES
    }
    return Measured(direct, via, t32, errors + sum(x.errors for x in t32.values()))


def variants_section(part: PartResult, answers: list[dict[str, Any]], workdir: Path, base: Measured) -> None:
    rows: list[tuple[object, ...]] = []

    def row(name: str, m: Measured) -> None:
        up_added = m.via[deployment.UPSTREAM].p50 - m.direct.p50
        for e in deployment.ENGINES:
            added = m.via[e].p50 - m.direct.p50
            rows.append(
                (
                    name,
                    LABEL[e],
                    _ms(m.via[e].p50),
                    _ms(added),
                    _ms(m.via[e].p95 - m.direct.p95),
                    f"{added / up_added:.2f}×" if up_added > 0 else "—",
                    f"{m.throughput32[e].per_second:.0f}",
                    m.errors,
                )
            )

    row("as shipped (same run, above)", base)
    results: list[tuple[Variant, Measured]] = []
    for i, variant in enumerate(VARIANTS):
        with deployment.running(workdir / f"variant-{i}", answers, variant.change, variant.env) as d:
            measured = measure_variant(d, VARIANT_ROUNDS, VARIANT_SECONDS)
        results.append((variant, measured))
        part.say(
            f"{variant.name}: upstream added p50 {measured.via[deployment.UPSTREAM].p50 - measured.direct.p50:.1f} ms, {measured.throughput32[deployment.UPSTREAM].per_second:.0f}/s at 32"
        )
        row(variant.name, measured)
    part.add(
        "",
        "### Deployment settings the profile points at, measured",
        "",
        "Each row is a fresh SearXNG with one setting changed; "
        f"{VARIANT_ROUNDS} interleaved rounds for latency, {VARIANT_SECONDS:.0f} s at 32 clients for throughput. "
        "Why each was tried: " + "; ".join(f"{v.name} — {v.why}" for v in VARIANTS) + ".",
        "",
        table(
            (
                "setting",
                "engine",
                "p50 ms",
                "added p50 ms",
                "added p95 ms",
                "added p50 / upstream's",
                "searches/s at 32",
                "errors",
            ),
            rows,
        ),
    )

    def added(m: Measured, e: str) -> float:
        return m.via[e].p50 - m.direct.p50

    up = deployment.UPSTREAM
    alone = next(m for v, m in results if v.name == PLUGINS_OFF)
    ratio = added(alone, deployment.OURS) / added(alone, up) if added(alone, up) > 0 else float("inf")
    part.figure("plugins_off_added_latency_ratio", ratio)
    part.targets.append(
        Target(
            "added p50 latency with llmweb's plugins off (the engine alone), ours / upstream",
            f"≤ {ADDED_LATENCY_RATIO}×",
            f"{added(alone, deployment.OURS):.1f} / {added(alone, up):.1f} ms = {ratio:.2f}×",
            ratio <= ADDED_LATENCY_RATIO,
        )
    )
    best, measured = min(results, key=lambda vm: added(vm[1], up) - added(base, up))
    part.add(
        "",
        f"Largest saving: **{best.name}** — upstream's added p50 {added(base, up):.1f} → {added(measured, up):.1f} ms and "
        f"{base.throughput32[up].per_second:.0f} → {measured.throughput32[up].per_second:.0f} searches/s at 32 clients; "
        f"ours {added(base, deployment.OURS):.1f} → {added(measured, deployment.OURS):.1f} ms and "
        f"{base.throughput32[deployment.OURS].per_second:.0f} → {measured.throughput32[deployment.OURS].per_second:.0f}/s "
        "(a fresh instance beside the shipped one, so compare with care: the machine may have changed in between).",
    )


# --- the part ---------------------------------------------------------------------------


def run(workdir: Path) -> PartResult:
    part = PartResult("searxng", "2. SearXNG overhead and capacity")
    answers = brave_corpus.build_answers()
    with deployment.running(workdir / "shipped", answers) as d:
        direct, via, latency_errors = measure_latency(d, LATENCY_ROUNDS)
        part.say(
            f"direct p50 {direct.p50:.1f} ms; "
            + "; ".join(f"{LABEL[e]} p50 {via[e].p50:.1f} ms" for e in deployment.ENGINES)
        )
        cells, cpu = _throughput_cells(part, d)
        profiles = {e: run_profile(d, e, workdir) for e in deployment.ENGINES}
    base = Measured(
        direct,
        via,
        {e: cells[(e, 32)] for e in deployment.ENGINES},
        latency_errors + sum(cells[(e, 32)].errors for e in deployment.ENGINES),
    )
    part.add(*_latency_paragraph(direct, via, latency_errors))
    part.add(*_throughput_paragraph(cells, cpu))
    first_error = next((cells[k].first_error for k in cells if cells[k].first_error), "")
    if first_error:
        part.add("", f"First error seen: `{first_error[:300]}`")

    control_section(part, answers, workdir)
    parse_section(part, answers)
    cache_hit_section(part, answers, workdir)
    profile_section(part, profiles)
    variants_section(part, answers, workdir, base)
    _overhead_verdict(part, direct, via, cells)
    return part


def _throughput_cells(
    part: PartResult, d: deployment.Deployment
) -> tuple[dict[tuple[str, int], load.Load], dict[tuple[str, int], float]]:
    """Searches per second, directly and through each engine, at each concurrency; and SearXNG's
    CPU seconds over each engine's cells."""
    cells: dict[tuple[str, int], load.Load] = {}
    cpu: dict[tuple[str, int], float] = {}
    for c in CONCURRENCY:
        cells[("direct", c)] = measure_throughput(
            direct_request(d.brave_url()), brave_answer_ok, c, DIRECT_CELL_SECONDS
        )
        # Turns in alternating order, so a change on the machine mid-cell favours neither engine.
        for turn in range(round(CELL_SECONDS / TURN_SECONDS)):
            for e in deployment.ENGINES[:: 1 if turn % 2 == 0 else -1]:
                before = processes.cpu_seconds(d.searxng.popen.pid)
                turn_load = measure_throughput(
                    search_request(d.search_url(), e), load.searxng_answer_ok, c, TURN_SECONDS
                )
                cpu[(e, c)] = cpu.get((e, c), 0.0) + processes.cpu_seconds(d.searxng.popen.pid) - before
                cells[(e, c)] = cells[(e, c)].merged(turn_load) if (e, c) in cells else turn_load
        for e in deployment.ENGINES:
            part.say(f"{LABEL[e]} at {c}: {cells[(e, c)].per_second:.0f}/s, {cells[(e, c)].errors} errors")
    return cells, cpu


def _latency_paragraph(direct: Latency, via: dict[str, Latency], latency_errors: int) -> tuple[str, ...]:
    """How the latency is measured, and its table: direct, and added by SearXNG with each engine."""
    lat_rows = [("fake Brave, called directly", _ms(direct.p50), _ms(direct.p95), "—", "—")]
    for e in deployment.ENGINES:
        lat_rows.append(
            (
                f"SearXNG + {LABEL[e]}",
                _ms(via[e].p50),
                _ms(via[e].p95),
                _ms(via[e].p50 - direct.p50),
                _ms(via[e].p95 - direct.p95),
            )
        )
    return (
        "SearXNG under granian as scripts/serve runs it (`"
        + " ".join(stack.GRANIAN_ARGS)
        + f"`, GRANIAN_BLOCKING_THREADS={stack.BLOCKING_THREADS}), shipped settings, "
        "limiter on with a real valkey, client on 127.0.0.1 (pass list); the fake Brave answers from "
        f"the part-1 corpus, gzipped. Query text differs in every request. {LATENCY_ROUNDS} rounds, one client, "
        f"targets taken in turn, in an order shuffled every round; {latency_errors} errors.",
        "",
        table(("path", "p50 ms", "p95 ms", "added p50 ms", "added p95 ms"), lat_rows),
        "",
    )


def _throughput_paragraph(
    cells: dict[tuple[str, int], load.Load], cpu: dict[tuple[str, int], float]
) -> tuple[str, ...]:
    """The searches per second table, a row per path and a column per concurrency, and the CPU
    SearXNG spent per search with each engine."""
    tp_rows = []
    for name, label in (
        ("direct", "fake Brave, called directly"),
        *((e, f"SearXNG + {LABEL[e]}") for e in deployment.ENGINES),
    ):
        row: list[object] = [label]
        for c in CONCURRENCY:
            cell = cells[(name, c)]
            row.append(f"{cell.per_second:.0f} ({cell.errors} err)")
        tp_rows.append(row)
    for e in deployment.ENGINES:
        row = [f"SearXNG's CPU ms per search, {LABEL[e]}"]
        for c in CONCURRENCY:
            row.append(f"{cpu[(e, c)] * 1000 / max(cells[(e, c)].ok + cells[(e, c)].errors, 1):.2f}")
        tp_rows.append(row)
    return (
        f"Sustained searches per second ({CELL_SECONDS:.0f} s per engine and cell, the engines taking "
        f"{TURN_SECONDS:.0f} s turns in alternating order; {DIRECT_CELL_SECONDS:.0f} s for the direct row; "
        "errors = non-200, no results or an unresponsive engine), and the CPU time (user and system) "
        "SearXNG's processes spent per search in the same cells. At 32 clients the two cores are the limit, "
        "shared by SearXNG, the load generator, valkey and the fake Brave; on this host the ratio of the two "
        "engines' searches per second moved by 0.056 (SD) between 3 s cells of the same code:",
        "",
        table(("path", *(f"{c} client{'s' if c > 1 else ''}" for c in CONCURRENCY)), tp_rows),
    )


def _overhead_verdict(
    part: PartResult, direct: Latency, via: dict[str, Latency], cells: dict[tuple[str, int], load.Load]
) -> None:
    """Our engine against upstream's: added latency, throughput at 32 clients, errors; figures and targets."""
    ours_added = via[deployment.OURS].p50 - direct.p50
    up_added = via[deployment.UPSTREAM].p50 - direct.p50
    ours_added95 = via[deployment.OURS].p95 - direct.p95
    up_added95 = via[deployment.UPSTREAM].p95 - direct.p95
    ours32 = cells[(deployment.OURS, 32)].per_second
    ours_errors = sum(cells[(deployment.OURS, c)].errors for c in CONCURRENCY)
    part.figure("added_latency_ratio", ours_added / up_added)
    part.figure("throughput_32_clients", ours32)
    part.figure("errors", ours_errors)
    part.targets += [
        Target(
            "added p50 latency, ours / upstream",
            f"≤ {ADDED_LATENCY_RATIO}×",
            f"{ours_added:.1f} / {up_added:.1f} ms = {ours_added / up_added:.2f}×",
            ours_added <= ADDED_LATENCY_RATIO * up_added,
        ),
        Target(
            "added p95 latency, ours / upstream",
            f"≤ {ADDED_LATENCY_RATIO}×",
            f"{ours_added95:.1f} / {up_added95:.1f} ms = {ours_added95 / up_added95:.2f}×",
            ours_added95 <= ADDED_LATENCY_RATIO * up_added95,
        ),
        *(
            Target(
                f"throughput at {c} client{'s' if c > 1 else ''}, ours / upstream",
                f"≥ {THROUGHPUT_RATIO}×",
                f"{ours:.0f} / {up:.0f} = {ours / up:.2f}×",
                ours >= THROUGHPUT_RATIO * up,
            )
            for c in CONCURRENCY
            for ours, up in [
                (cells[(deployment.OURS, c)].per_second, cells[(deployment.UPSTREAM, c)].per_second)
            ]
        ),
        Target(
            "our throughput at 32 clients",
            f"≥ {MIN_THROUGHPUT:.0f}/s",
            f"{ours32:.0f}/s",
            ours32 >= MIN_THROUGHPUT,
        ),
        Target("errors under load, ours", "0", str(ours_errors), ours_errors == 0),
    ]
