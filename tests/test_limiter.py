"""The limiter, on as shipped with a real valkey: the household is never throttled, others are."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import (
    BRAVE_PATH,
    PROXY,
    SENTINEL_KEY,
    brave_answer,
    brave_result,
    declared_proxy_and_narrow_loopback,
    write_test_settings,
)
from pytest_httpserver import HTTPServer

from serve import stack

# A script-like client: no browser headers at all. The pass list must let it through.
PLAIN_HEADERS = {"User-Agent": "python-httpx/0.28", "Accept": "application/json"}


def test_fifty_json_searches_in_a_row_from_loopback_all_answered(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    brave.expect_request("/res/v1/web/search").respond_with_json(
        brave_answer([brave_result("https://example.org/a")])
    )
    statuses = []
    with httpx.Client(base_url=searxng.url, headers=PLAIN_HEADERS, timeout=30) as client:
        for n in range(50):
            answer = client.get("/search", params={"q": f"zapytanie {n}", "format": "json"})
            statuses.append(answer.status_code)
            assert answer.json()["query"] == f"zapytanie {n}"
    assert statuses == [200] * 50


def test_a_client_outside_the_home_networks_is_still_limited(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    # SearXNG believes X-Forwarded-For from loopback (a local reverse proxy), so the header
    # stands in for a client on the internet; no packet leaves this machine.
    brave.expect_request("/res/v1/web/search").respond_with_json(brave_answer([]))
    outsider = {
        "X-Forwarded-For": "203.0.113.7",
        "Accept": "text/html,application/json",
        "Accept-Language": "pl",
        "Accept-Encoding": "gzip",
        "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
    }
    statuses = []
    with httpx.Client(base_url=searxng.url, headers=outsider, timeout=30) as client:
        for n in range(8):
            statuses.append(client.get("/search", params={"q": f"q{n}", "format": "json"}).status_code)
    assert 429 in statuses, statuses
    assert statuses[0] == 200


def test_a_script_user_agent_outside_the_home_is_refused(searxng: stack.Process) -> None:
    answer = httpx.get(
        searxng.url + "/search",
        params={"q": "x", "format": "json"},
        headers={**PLAIN_HEADERS, "X-Forwarded-For": "198.51.100.9"},
        timeout=30,
    )
    assert answer.status_code == 429


# --- who may name the client's address -------------------------------------------------
#
# Loopback stands in for a network: the test's SearXNG declares 127.0.0.2 its reverse proxy
# and keeps only 127.0.0.1 of loopback on the pass list (declared_proxy_and_narrow_loopback),
# and clients bind 127.0.0.3 (a stranger) or 127.0.0.2 (the proxy) as their source address.

STRANGER = "127.0.0.3"
PROXY_TOKEN = "proxy-token-for-tests"  # a reverse proxy whose address Docker picks proves itself with it
FORGED = [
    {"X-Forwarded-For": "10.1.2.3"},
    {"X-Real-IP": "192.168.1.10"},
    {"X-Forwarded-For": "127.0.0.1"},
    {"X-Forwarded-For": "203.0.113.9, 10.1.2.3"},
]
BROWSER_LIKE = {
    "Accept": "text/html,application/json",
    "Accept-Language": "pl",
    "Accept-Encoding": "gzip",
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
}


@pytest.fixture(scope="module")
def guarded(
    tmp_path_factory: pytest.TempPathFactory,
    brave_server: HTTPServer,
    valkey: stack.Process,
    engines_installed: None,
) -> Iterator[stack.Process]:
    folder = tmp_path_factory.mktemp("guarded")
    settings_dir = write_test_settings(folder / "settings", brave_server.url_for("").rstrip("/"))
    declared_proxy_and_narrow_loopback(settings_dir)
    env = {"BRAVE_API_KEY": SENTINEL_KEY, "SEARXNG_VALKEY_URL": valkey.url, "LLMWEB_PROXY_TOKEN": PROXY_TOKEN}
    proc = stack.start_searxng(settings_dir, workdir=folder / "run", env=env)
    yield proc
    proc.stop()


def statuses_from(source: str, searxng: stack.Process, headers: dict[str, str], count: int = 8) -> list[int]:
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(base_url=searxng.url, headers=headers, transport=transport, timeout=30) as client:
        return [
            client.get("/search", params={"q": f"q{n}", "format": "json"}).status_code for n in range(count)
        ]


@pytest.mark.parametrize("forged", FORGED, ids=lambda h: " ".join(f"{k}: {v}" for k, v in h.items()))
def test_a_stranger_naming_a_household_address_is_still_limited(
    guarded: stack.Process, brave: HTTPServer, forged: dict[str, str]
) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([]))
    statuses = statuses_from(STRANGER, guarded, {**BROWSER_LIKE, **forged})
    assert 429 in statuses, statuses


def test_the_declared_proxy_vouches_for_a_household_client(guarded: stack.Process, brave: HTTPServer) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([]))
    statuses = statuses_from(PROXY, guarded, {**PLAIN_HEADERS, "X-Forwarded-For": "192.168.1.10"})
    assert statuses == [200] * 8


def test_the_declared_proxy_passes_on_a_strangers_address(guarded: stack.Process, brave: HTTPServer) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([]))
    statuses = statuses_from(PROXY, guarded, {**BROWSER_LIKE, "X-Forwarded-For": "203.0.113.10"})
    assert 429 in statuses, statuses


def test_a_proxy_presenting_the_token_vouches_for_a_client_from_any_address(
    guarded: stack.Process, brave: HTTPServer
) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([]))
    vouched = {**PLAIN_HEADERS, "X-Forwarded-For": "192.168.1.11", "X-Llmweb-Proxy-Token": PROXY_TOKEN}
    assert statuses_from("127.0.0.7", guarded, vouched) == [200] * 8


@pytest.mark.parametrize("source", ["127.0.0.8", "127.0.0.1"], ids=["a stranger", "a pass-listed address"])
def test_a_wrong_token_vouches_for_nobody_not_even_the_peer_itself(
    guarded: stack.Process, brave: HTTPServer, source: str
) -> None:
    """A wrong token is a forgery: what sends it is limited, even from an address on the pass list
    (at a real home: the lan profile's Caddy, whose Docker address is on it)."""
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([]))
    forged = {**BROWSER_LIKE, "X-Forwarded-For": "192.168.1.12", "X-Llmweb-Proxy-Token": PROXY_TOKEN + "x"}
    statuses = statuses_from(source, guarded, forged)
    assert 429 in statuses, statuses


def test_a_household_client_without_headers_logs_nothing_per_request(
    guarded: stack.Process, brave: HTTPServer
) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([]))
    before = guarded.log_text()
    assert statuses_from("127.0.0.1", guarded, PLAIN_HEADERS, count=5) == [200] * 5
    added = guarded.log_text()[len(before) :]
    assert added.strip() == "", added


# --- valkey late or gone -----------------------------------------------------------------


@pytest.fixture
def searxng_before_valkey(
    tmp_path: Path, brave_server: HTTPServer, engines_installed: None
) -> Iterator[tuple[stack.Process, int]]:
    """SearXNG started while nothing answers at its valkey address yet; yields it and that port."""
    port = stack.free_port()
    settings_dir = write_test_settings(tmp_path / "settings", brave_server.url_for("").rstrip("/"))
    declared_proxy_and_narrow_loopback(settings_dir)
    env = {"BRAVE_API_KEY": SENTINEL_KEY, "SEARXNG_VALKEY_URL": f"valkey://127.0.0.1:{port}/0"}
    proc = stack.start_searxng(settings_dir, workdir=tmp_path / "run", env=env)
    yield proc, port
    proc.stop()


def test_a_late_valkey_leaves_the_limiter_on_and_strangers_get_a_clear_503_meanwhile(
    searxng_before_valkey: tuple[stack.Process, int], brave: HTTPServer, tmp_path: Path
) -> None:
    searxng, port = searxng_before_valkey
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([]))
    transport = httpx.HTTPTransport(local_address=STRANGER)
    with httpx.Client(base_url=searxng.url, headers=BROWSER_LIKE, transport=transport, timeout=30) as client:
        waiting = client.get("/search", params={"q": "early", "format": "json"})
    assert waiting.status_code == 503
    assert "valkey" in waiting.text and "docker compose up -d valkey" in waiting.text
    assert statuses_from("127.0.0.1", searxng, PLAIN_HEADERS, count=3) == [200] * 3  # the household
    valkey = stack.start_valkey(tmp_path / "valkey", port=port)
    try:
        statuses = statuses_from("127.0.0.4", searxng, BROWSER_LIKE)
    finally:
        valkey.stop()
    assert statuses[0] == 200 and 429 in statuses, statuses


def test_valkey_going_away_mid_run_answers_503_not_500_and_limiting_resumes(
    searxng_before_valkey: tuple[stack.Process, int], brave: HTTPServer, tmp_path: Path
) -> None:
    searxng, port = searxng_before_valkey
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([]))
    valkey = stack.start_valkey(tmp_path / "first", port=port)
    assert statuses_from("127.0.0.5", searxng, BROWSER_LIKE, count=1) == [200]
    valkey.stop()
    during = statuses_from("127.0.0.5", searxng, BROWSER_LIKE, count=2)
    valkey = stack.start_valkey(tmp_path / "again", port=port)
    try:
        after = statuses_from("127.0.0.6", searxng, BROWSER_LIKE)
    finally:
        valkey.stop()
    assert during == [503, 503]
    assert after[0] == 200 and 429 in after, after
    assert searxng.log_text().count("valkey does not answer (") == 1  # once per outage, not per request


# --- the query bound (plugins/guard.py QueryBound) -------------------------------------


def test_a_ten_megabyte_posted_query_is_refused_before_searxng_reads_it(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    answer = httpx.post(
        searxng.url + "/search",
        data={"q": "a" * 10_000_000, "format": "json"},
        headers=PLAIN_HEADERS,
        timeout=60,
    )
    assert answer.status_code == 413
    assert "at most" in answer.json()["error"]
    assert len(answer.content) < 1000, "the query is not echoed back"
    assert brave.log == []


def test_a_query_longer_than_the_bound_gets_a_clear_400(searxng: stack.Process, brave: HTTPServer) -> None:
    answer = httpx.get(
        searxng.url + "/search",
        params={"q": "słowo " * 1000, "format": "json"},
        headers=PLAIN_HEADERS,
        timeout=30,
    )
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("query too long: 6000 characters")
    assert brave.log == []


def test_a_query_longer_than_braves_limit_but_within_the_bound_is_still_searched(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([brave_result("https://example.org/")]))
    answer = httpx.post(
        searxng.url + "/search",
        data={"q": "słowo " * 300, "format": "json"},
        headers=PLAIN_HEADERS,
        timeout=30,
    )
    assert answer.status_code == 200
    assert [r["url"] for r in answer.json()["results"]] == ["https://example.org/"]
