"""50 or more web_fetch calls at once, enough for every hostile kind of testbed/attacks.py:
ordinary pages beside tricklers, oversized bodies, gzip bombs, bodies costly to read and
redirects into refused addresses (loopback forms only; 127.0.0.1 alone is allowed).

A short run for CI; ``scripts/bench reliability`` runs the same harness with a 1 GiB bomb.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from llmweb.fetch import limits
from testbed.attacks import ATTACKS, EVERY_KIND_CALLS, AttackServer, FetchLoadReport, plan, run_fetch_load

# web_fetch's own default: room for every hostile kind beside as many pages on two cores (a few
# of those bodies cost seconds of reading), so a busy machine cannot flip an outcome (at 10 s,
# ordinary pages queued past it while other work loaded the machine)
DEADLINE = limits.TIMEOUT_SECONDS
TRICKLE_DEADLINE = 2.0
CALLS = max(50, EVERY_KIND_CALLS)  # every hostile kind at least once
# 256 MiB of zeros: four times what 50 capped fetches could hold, so an unbounded inflate shows.
BOMB_BYTES = 256 << 20


@pytest.fixture(scope="module")
def report() -> Iterator[FetchLoadReport]:
    server = AttackServer(bomb_bytes=BOMB_BYTES)
    with server.running():
        yield run_fetch_load(server, calls=CALLS, deadline=DEADLINE, trickle_deadline=TRICKLE_DEADLINE)


def test_every_call_ends_the_way_its_kind_must(report: FetchLoadReport) -> None:
    assert report.problems == []
    assert sum(report.outcomes.values()) == CALLS


def test_ordinary_pages_come_back_whole_beside_the_attacks(report: FetchLoadReport) -> None:
    assert report.pages_whole == plan(CALLS).count("page")


def test_every_redirect_into_a_refused_address_is_refused(report: FetchLoadReport) -> None:
    assert report.attacks_refused == sum(kind in ATTACKS for kind in plan(CALLS))


def test_no_call_outlives_its_deadline(report: FetchLoadReport) -> None:
    # The deadline is a promise of the API, not a speed goal: a trickler must be cut at its
    # deadline. The margin covers scheduling 50 threads on two cores, not slow code.
    assert TRICKLE_DEADLINE * 0.9 <= report.slowest["trickle"] < TRICKLE_DEADLINE + 2.0, report.slowest
    assert max(report.slowest.values()) < DEADLINE + 2.0, report.slowest


def test_memory_stays_bounded_while_bombs_and_oversized_bodies_arrive(report: FetchLoadReport) -> None:
    if report.peak_rss_growth_mb is None:
        pytest.skip("no /proc/self/statm to read the resident size from")
    # Inflating even one bomb would need 256 MB; the 5 MB cap per call keeps the whole run far below.
    assert report.peak_rss_growth_mb < 200, report.peak_rss_growth_mb
