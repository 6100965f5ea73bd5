"""The limiter, on as shipped with a real valkey: the household is never throttled, others are."""

from __future__ import annotations

import httpx
from conftest import brave_answer, brave_result
from pytest_httpserver import HTTPServer

from llmweb import stack

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
