"""32 JSON clients against real SearXNG while the fake Brave fails in every way it can.

A short run for CI; ``scripts/bench reliability`` runs the same harness for longer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ENGINE_NAME, write_test_settings

from llmweb.errors import SearchUnavailable, Timeout
from llmweb.search import web_search
from serve import stack
from testbed.faults import FaultyBrave, run_load, serving, wait_for_results

ENGINE_TIMEOUT = 1.0
MAX_BAN = 3


@pytest.fixture
def faulty_brave() -> Iterator[FaultyBrave]:
    with serving(FaultyBrave(slow_seconds=ENGINE_TIMEOUT + 1.0, rate_limit_reset=2)) as brave:
        yield brave


@pytest.fixture
def searxng_on_faulty_brave(
    tmp_path: Path, faulty_brave: FaultyBrave, valkey: stack.Process, engines_installed: None
) -> Iterator[stack.Process]:
    def short_timeouts_and_bans(settings: dict[str, Any]) -> None:
        # Upstream bans a failing engine for up to 120 s; a CI run cannot wait that long.
        settings["search"].update(ban_time_on_fail=1, max_ban_time_on_fail=MAX_BAN)
        next(e for e in settings["engines"] if e["name"] == ENGINE_NAME)["timeout"] = ENGINE_TIMEOUT

    settings_dir = write_test_settings(tmp_path / "settings", faulty_brave.url, short_timeouts_and_bans)
    proc = stack.start_searxng(
        settings_dir,
        workdir=tmp_path / "run",
        env={"BRAVE_API_KEY": "test-key-not-real", "SEARXNG_VALKEY_URL": valkey.url},
    )
    yield proc
    proc.stop()


def test_every_answer_under_faults_is_json_and_names_the_failing_engine(
    searxng_on_faulty_brave: stack.Process, faulty_brave: FaultyBrave
) -> None:
    faulty_brave.faulty = True
    outcomes: list[str] = []

    def model_client() -> None:
        # web_search beside the load: each outage must be an error, never "no results".
        stop_at = time.monotonic() + 4
        while time.monotonic() < stop_at:
            try:
                found = web_search("model pyta", searxng_url=searxng_on_faulty_brave.url)
                outcomes.append("results" if found.results else "EMPTY")
            except (SearchUnavailable, Timeout) as exc:
                outcomes.append(type(exc).__name__)

    watcher = threading.Thread(target=model_client)
    watcher.start()
    report = run_load(searxng_on_faulty_brave.url, ENGINE_NAME, clients=32, seconds=4)
    watcher.join()

    assert report.problems == []
    assert report.requests >= 32
    assert report.statuses == {200: report.requests}
    assert report.outage_answers > 0, "the faults must have shown"
    served = faulty_brave.served
    assert all(served[fault] > 0 for fault in ("http500", "slow", "rate_limited", "malformed")), served
    assert "EMPTY" not in outcomes
    assert "SearchUnavailable" in outcomes


def test_results_return_once_faults_stop_and_the_suspension_ends(
    searxng_on_faulty_brave: stack.Process, faulty_brave: FaultyBrave
) -> None:
    faulty_brave.faulty = True
    run_load(searxng_on_faulty_brave.url, ENGINE_NAME, clients=8, seconds=2)
    faulty_brave.faulty = False
    # The longest suspension either fault can cause: Brave's reset or SearXNG's ban cap,
    # plus one slow answer still in flight.
    limit = max(faulty_brave.rate_limit_reset, MAX_BAN) + ENGINE_TIMEOUT + faulty_brave.slow_seconds + 2
    recovered = wait_for_results(searxng_on_faulty_brave.url, limit_seconds=limit)
    assert recovered is not None, f"no results within {limit:.0f} s after the faults stopped"
