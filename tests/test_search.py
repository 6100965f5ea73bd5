"""web_search against real SearXNG (limiter on, real valkey) with Brave faked on loopback."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from conftest import (
    BRAVE_PATH,
    ENGINE_NAME,
    TWIN_PATH,
    StartSearxng,
    add_brave_twin,
    answer_numbered_results,
    brave_answer,
    brave_rejects_the_key,
    brave_result,
)
from pytest_httpserver import HTTPServer

from llmweb.errors import InvalidInput, SearchUnavailable, Timeout
from llmweb.search import parse_answer, validate_request, web_search
from serve import stack


def twenty_results(brave: HTTPServer) -> None:
    answer_numbered_results(brave, 20)


def test_results_carry_title_url_dated_content_date_and_engine(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    twenty_results(brave)
    response = web_search("cokolwiek", searxng_url=searxng.url)
    first = response.results[0]
    assert (first.title, first.url) == ("Wynik 0", "https://example.org/0")
    assert first.content == "2026-11-02 — Opis 0."
    assert first.published is not None and first.published.isoformat() == "2026-11-02"
    assert first.engines == [ENGINE_NAME]
    assert response.failed_engines == {}


def test_max_results_limits_the_list_and_counts_the_rest_of_the_page(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    twenty_results(brave)
    response = web_search("trzy", max_results=3, searxng_url=searxng.url)
    assert [r.url for r in response.results] == [f"https://example.org/{n}" for n in range(3)]
    assert response.more_on_page == 17


@pytest.mark.parametrize(("asked", "kept"), [(0, 1), (-5, 1), (500, 100)])
def test_max_results_is_clamped_into_one_to_a_hundred(asked: int, kept: int) -> None:
    assert validate_request(query="q", max_results=asked).max_results == kept


def test_nothing_found_is_an_empty_list_not_an_error(searxng: stack.Process, brave: HTTPServer) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([]))
    response = web_search("nic takiego nie istnieje", searxng_url=searxng.url)
    assert response.results == []
    assert response.failed_engines == {}


def test_language_reaches_brave(searxng: stack.Process, brave: HTTPServer) -> None:
    twenty_results(brave)
    web_search("asyncio gather", language="en", searxng_url=searxng.url)
    request, _ = brave.log[0]
    assert (request.args["search_lang"], request.args["country"]) == ("en", "US")


def test_time_range_and_safe_search_reach_brave(searxng: stack.Process, brave: HTTPServer) -> None:
    twenty_results(brave)
    web_search("wybory", time_range="week", safe_search="strict", page=2, searxng_url=searxng.url)
    request, _ = brave.log[0]
    assert (request.args["freshness"], request.args["safesearch"], request.args["offset"]) == (
        "pw",
        "strict",
        "1",
    )


# --- invalid input, refused before any request ---------------------------------------

# Nothing listens here: an error other than InvalidInput would mean a request was tried.
NOWHERE = f"http://127.0.0.1:{stack.free_port()}"


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": "   \n\t "}, "query"),
        ({"query": "x" * 401}, "query"),
        ({"query": "a\x00b"}, "query"),
        ({"query": "q", "time_range": "decade"}, "time_range"),
        ({"query": "q", "page": 0}, "page"),
        ({"query": "q", "page": 1000}, "page"),
        ({"query": "q", "language": "english please"}, "language"),
        ({"query": "q", "safe_search": "maximum"}, "safe_search"),
    ],
)
def test_unusable_arguments_are_refused_before_any_request(arguments: dict[str, Any], field: str) -> None:
    query = arguments.pop("query")
    with pytest.raises(InvalidInput) as caught:
        web_search(query, searxng_url=NOWHERE, **arguments)
    assert field in str(caught.value)


def test_language_auto_searches_in_the_instance_default(searxng: stack.Process, brave: HTTPServer) -> None:
    # A model has no browser to detect a language from; SearXNG's default (Polish) applies.
    twenty_results(brave)
    web_search("q", language="auto", searxng_url=searxng.url)
    request, _ = brave.log[0]
    assert (request.args["search_lang"], request.args["country"]) == ("pl", "PL")


# --- could not search ----------------------------------------------------------------


def test_every_engine_failing_is_an_error_naming_engine_and_reason(
    start_searxng: StartSearxng, brave: HTTPServer
) -> None:
    searxng = start_searxng()
    brave_rejects_the_key(brave)
    with pytest.raises(SearchUnavailable) as caught:
        web_search("klucz odrzucony", searxng_url=searxng.url)
    assert caught.value.engines == {ENGINE_NAME: "access denied"}
    message = str(caught.value)
    assert ENGINE_NAME in message and "access denied" in message and "BRAVE_API_KEY" in message
    assert "not a sign that nothing exists" in message


def test_results_from_one_engine_come_back_with_the_failed_engine_named(
    start_searxng: StartSearxng, brave: HTTPServer
) -> None:
    searxng = start_searxng(add_brave_twin)
    twenty_results(brave)
    brave.expect_request(TWIN_PATH).respond_with_data("boom", status=500)
    response = web_search("pół na pół", searxng_url=searxng.url)
    assert len(response.results) == 10
    assert response.failed_engines == {"brave twin": "server API error"}


def test_unreachable_searxng_tells_the_admin_how_to_start_it() -> None:
    with pytest.raises(SearchUnavailable) as caught:
        web_search("q", searxng_url=NOWHERE)
    assert "scripts/serve" in str(caught.value) and "LLMWEB_SEARXNG_URL" in str(caught.value)


def test_searxng_url_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLMWEB_SEARXNG_URL", NOWHERE)
    with pytest.raises(SearchUnavailable) as caught:
        web_search("q")
    assert NOWHERE in str(caught.value)


def test_json_not_enabled_tells_the_admin_to_add_it(start_searxng: StartSearxng) -> None:
    def html_only(settings: dict[str, Any]) -> None:
        settings["search"]["formats"] = ["html"]

    searxng = start_searxng(html_only)
    with pytest.raises(SearchUnavailable) as caught:
        web_search("q", searxng_url=searxng.url)
    assert "search.formats" in str(caught.value)


def test_headers_pass_bot_detection_and_a_limited_client_is_told_why(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    # X-Forwarded-For from loopback is believed: this client counts as one on the internet,
    # where SearXNG allows JSON 4 times an hour. No packet leaves the machine.
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([brave_result("https://example.org/")]))
    outsider = httpx.Client(headers={"X-Forwarded-For": "203.0.113.99"}, timeout=20)
    outcomes: list[int | str] = []
    with outsider:
        for n in range(6):
            try:
                outcomes.append(len(web_search(f"q{n}", searxng_url=searxng.url, client=outsider).results))
            except SearchUnavailable as exc:
                outcomes.append(str(exc))
    assert outcomes[0] == 1, "the first search from outside must pass bot detection"
    refusal = outcomes[-1]
    assert isinstance(refusal, str) and "429" in refusal and "pass_ip" in refusal


@pytest.fixture
def silent_server() -> Iterator[str]:
    """Accepts connections and never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(sock.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    sock.close()


def test_a_searxng_that_never_answers_times_out(silent_server: str) -> None:
    with pytest.raises(Timeout) as caught:
        web_search("q", searxng_url=silent_server, timeout=0.5)
    assert "did not answer within 0.5 s" in str(caught.value)


# --- SearXNG answers of odd shape (the pure parsing core) ----------------------------


def test_a_malformed_row_fails_the_whole_call_naming_the_field() -> None:
    payload = {
        "query": "q",
        "results": [
            {"url": "https://a.example/", "title": "A", "content": "a", "engine": "x", "engines": ["x"]},
            {"title": "B without url", "content": "b", "engine": "x", "engines": ["x"]},
        ],
        "unresponsive_engines": [],
    }
    with pytest.raises(SearchUnavailable) as caught:
        parse_answer(payload, validate_request(query="q"))
    assert "results.1.url" in str(caught.value)


def test_duplicate_urls_are_returned_once() -> None:
    rows = [
        {"url": "https://a.example/page", "title": "first", "content": "1", "engines": ["x"]},
        {"url": "https://a.example/page/", "title": "second", "content": "2", "engines": ["y"]},
        {"url": "https://b.example/", "title": "other", "content": "3", "engines": ["x"]},
    ]
    response = parse_answer({"query": "q", "results": rows}, validate_request(query="q"))
    assert [r.title for r in response.results] == ["first", "other"]


def test_a_searxng_behind_a_certificate_nobody_trusts_is_refused_every_time(
    untrusted_https: HTTPServer,
) -> None:
    untrusted_https.expect_request("/search").respond_with_json({"results": []})
    for _ in range(2):  # the second search reuses the TLS context the first one built
        with pytest.raises(SearchUnavailable, match="ConnectError"):
            web_search("python", searxng_url=f"https://localhost:{untrusted_https.port}")
    assert untrusted_https.log == []  # no request got past the handshake
