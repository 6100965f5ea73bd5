"""scripts/bench reliability: the soak. Load with faults, fetch under attack, the bad-input table.

The same harness as tests/test_reliability_*.py and tests/test_bad_input.py, run longer
and with the full 1 GiB gzip bomb; it reports figures instead of asserting them.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench import deployment
from bench.report import PartResult, Target, table
from llmweb.errors import SearchUnavailable, Timeout
from llmweb.search import web_search
from llmweb.tools import answer_tool_call
from serve import stack
from testbed.attacks import ATTACKS, EVERY_KIND_CALLS, AttackServer, plan, run_fetch_load
from testbed.bad_inputs import TOOL_CASES
from testbed.faults import FaultyBrave, LoadReport, run_load, serving, wait_for_results

CLIENTS = 32
FAULT_SECONDS = 30.0
ENGINE_TIMEOUT = 1.5
MAX_BAN = 10  # SearXNG's ban after engine errors, capped (upstream's cap is 120 s)
FETCH_CALLS = max(50, EVERY_KIND_CALLS)  # every hostile kind at least once
FETCH_DEADLINE = 10.0
TRICKLE_DEADLINE = 3.0


def run(workdir: Path) -> PartResult:
    part = PartResult("reliability", "7. Reliability: load with faults, fetch under attack, bad input")
    search_soak(part, workdir)
    fetch_attack(part)
    bad_inputs(part)
    return part


def _ours_only_with_short_bans(settings: dict[str, Any]) -> None:
    settings["engines"] = [e for e in settings["engines"] if e["name"] != deployment.UPSTREAM]
    settings["search"].update(ban_time_on_fail=1, max_ban_time_on_fail=MAX_BAN)
    next(e for e in settings["engines"] if e["name"] == deployment.OURS)["timeout"] = ENGINE_TIMEOUT


def search_soak(part: PartResult, workdir: Path) -> None:
    stack.install_searx_extensions()
    valkey = stack.start_valkey(workdir / "valkey")
    try:
        with serving(FaultyBrave(slow_seconds=ENGINE_TIMEOUT + 1, rate_limit_reset=5)) as brave:
            settings_dir = deployment.write_settings(
                workdir / "settings", brave.url, _ours_only_with_short_bans
            )
            env = {"BRAVE_API_KEY": deployment.BENCH_KEY, "SEARXNG_VALKEY_URL": valkey.url}
            searxng = stack.start_searxng(settings_dir, workdir=workdir / "searxng", env=env)
            try:
                part.say(f"{CLIENTS} clients for {FAULT_SECONDS:.0f} s of faults")
                brave.faulty = True
                told: Counter[str] = Counter()
                model = threading.Thread(target=_ask_repeatedly, args=(searxng.url, FAULT_SECONDS, told))
                model.start()
                report = run_load(searxng.url, deployment.OURS, CLIENTS, FAULT_SECONDS)
                model.join()
                brave.faulty = False
                recovered = wait_for_results(searxng.url, limit_seconds=MAX_BAN + 30)
            finally:
                searxng.stop()
    finally:
        valkey.stop()
    _search_section(part, report, brave, told, recovered)


def _ask_repeatedly(url: str, seconds: float, told: Counter[str]) -> None:
    """web_search beside the load, counting what a model would have been told."""
    stop_at = time.monotonic() + seconds
    while time.monotonic() < stop_at:
        try:
            told["results" if web_search("soak", searxng_url=url).results else "EMPTY (wrong)"] += 1
        except (SearchUnavailable, Timeout) as exc:
            told[f"error: {type(exc).__name__}"] += 1
        time.sleep(0.2)


def _search_section(
    part: PartResult, report: LoadReport, brave: FaultyBrave, told: Counter[str], recovered: float | None
) -> None:
    served = ", ".join(f"{kind} {count}" for kind, count in sorted(brave.served.items()))
    part.add(
        f"### Search: {CLIENTS} JSON clients for {FAULT_SECONDS:.0f} s while the fake Brave fails",
        "",
        f"Faults in rotation: HTTP 500, an answer {brave.slow_seconds:.1f} s late (engine timeout "
        f"{ENGINE_TIMEOUT} s), 429 RATE_LIMITED with X-RateLimit-Reset {brave.rate_limit_reset} s, malformed JSON, "
        f"between good answers. SearXNG's ban after errors capped at {MAX_BAN} s for the run.",
        "",
        table(
            ("figure", "value"),
            [
                ("requests answered", report.requests),
                ("HTTP statuses", dict(report.statuses)),
                ("answers with results", report.with_results),
                ("empty answers naming the failed engine", report.outage_answers),
                ("answers SearXNG did not mean to give", len(report.problems)),
                ("Brave requests, by outcome", served),
                ("reasons shown", ", ".join(f"{r}: {n}" for r, n in report.reasons.most_common())),
                ("what web_search told a model meanwhile", dict(told)),
                (
                    "results again after the faults stopped",
                    f"{recovered:.1f} s" if recovered is not None else "not within the limit",
                ),
            ],
        ),
        "",
    )
    part.targets += [
        Target(
            "search answers under faults: valid JSON, engine named",
            "all",
            f"{report.requests - len(report.problems)}/{report.requests}",
            not report.problems,
        ),
        Target(
            "web_search never says 'no results' during an outage",
            "0 empty",
            f"{told.get('EMPTY (wrong)', 0)} empty",
            not told.get("EMPTY (wrong)"),
        ),
        Target(
            "results return once faults stop",
            f"≤ {MAX_BAN + 5} s",
            f"{recovered:.1f} s" if recovered is not None else "never",
            recovered is not None and recovered <= MAX_BAN + 5,
        ),
    ]


def fetch_attack(part: PartResult) -> None:
    part.say(f"{FETCH_CALLS} web_fetch calls with a 1 GiB gzip bomb among them")
    server = AttackServer()
    with server.running():
        report = run_fetch_load(server, FETCH_CALLS, FETCH_DEADLINE, TRICKLE_DEADLINE)
    kinds = plan(FETCH_CALLS)
    part.add(
        f"### Fetch: {FETCH_CALLS} web_fetch calls at once",
        "",
        "Half ordinary articles; the rest in turn: an 8 MB chunked body, a 1 GiB gzip bomb, a server "
        f"trickling a byte every 0.5 s (deadline {TRICKLE_DEADLINE:.0f} s), redirects to 127.0.0.2, its decimal "
        "form, [::ffff:127.0.0.2] and [::1] (only 127.0.0.1 allowed), a redirect chain of more than five hops, "
        "charset labels that are no text encoding (rot13, hex) on pages that are not UTF-8, and host names "
        "that are no host names (undecodable punycode, a 64-character label), asked for or redirected to, and "
        "pages that put an instruction where page text once left the fence (a JavaScript shell's description, "
        "Retry-After, a note: redirect, the path a redirect lands on, the media type, Content-Encoding, a "
        "malformed header): every answer is checked to carry it only between the markers.",
        "",
        table(
            ("kind", "outcome", "calls", "slowest call"),
            [
                (*key.split(": ", 1), count, f"{report.slowest[key.split(': ', 1)[0]]:.2f} s")
                for key, count in sorted(report.outcomes.items())
            ],
        ),
        "",
        f"Peak resident memory above the start of the run: {report.peak_rss_growth_mb:.0f} MB."
        if report.peak_rss_growth_mb is not None
        else "Peak memory: not measurable here (no /proc).",
        "",
    )
    attacks = sum(kind in ATTACKS for kind in kinds)
    part.targets += [
        Target(
            "private-address attempts refused",
            f"{attacks}/{attacks}",
            f"{report.attacks_refused}/{attacks}",
            report.attacks_refused == attacks,
        ),
        Target(
            "ordinary pages whole beside the attacks",
            f"{kinds.count('page')}",
            f"{report.pages_whole}",
            report.pages_whole == kinds.count("page"),
        ),
        Target(
            "no fetch outlives its deadline",
            f"trickler ≤ {TRICKLE_DEADLINE:.0f} s + 2",
            f"{report.slowest.get('trickle', 0):.1f} s",
            report.slowest.get("trickle", 0) < TRICKLE_DEADLINE + 2,
        ),
        Target(
            f"peak memory, {FETCH_CALLS} fetches at once (a 1 GiB bomb and every hostile body among them)",
            "< 100 MB above start",
            f"{report.peak_rss_growth_mb:.0f} MB" if report.peak_rss_growth_mb is not None else "n/a",
            None if report.peak_rss_growth_mb is None else report.peak_rss_growth_mb < 100,
        ),
    ]


def bad_inputs(part: PartResult) -> None:
    nowhere = f"http://127.0.0.1:{stack.free_port()}"
    clear = 0
    for tool, arguments, expected in TOOL_CASES:
        answer = answer_tool_call(tool, arguments, searxng_url=nowhere, allow="")
        clear += answer.is_error and expected in answer.text and "cannot be reached" not in answer.text
    part.add(
        "### Bad input",
        "",
        f"{len(TOOL_CASES)} unusable tool calls (tests/test_bad_input.py's table, testbed/bad_inputs.py): "
        f"{clear} answered with their own clear error before any request.",
        "",
    )
    part.targets.append(
        Target("bad inputs refused clearly", f"{len(TOOL_CASES)}", f"{clear}", clear == len(TOOL_CASES))
    )
