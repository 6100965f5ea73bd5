"""The llmweb command, run as a subprocess against the real test SearXNG and loopback pages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    BRAVE_PATH,
    SENTINEL_KEY,
    StartSearxng,
    answer_numbered_results,
    brave_answer,
    brave_rejects_the_key,
    brave_result,
)
from pytest_httpserver import HTTPServer

from llmweb.fetch import FetchResult
from llmweb.search import SearchResponse, SearchResult, web_search
from llmweb.tools import run_tool_call
from serve import stack
from testbed.loopback_guard import guarded_env

LLMWEB = Path(sys.executable).with_name("llmweb")  # the console script pyproject declares
NOWHERE = f"http://127.0.0.1:{stack.free_port()}"  # nothing listens here


def llmweb(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LLMWEB), *args],
        capture_output=True,
        text=True,
        env=guarded_env({**os.environ, **(env or {})}),  # no DNS, nothing beyond loopback
        timeout=120,  # a guard against a hung child, not a timing assertion
    )


@pytest.fixture
def pages() -> Iterator[HTTPServer]:
    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()
    yield server
    server.clear()
    server.stop()


ALLOW_PAGES = {"LLMWEB_FETCH_ALLOW": "127.0.0.1"}  # exactly the page server's address

ARTICLE = """<!doctype html><html><head><title>Valkey dla limitera</title></head><body><article>
<h1>Valkey dla limitera</h1>
<p>Limiter SearXNG trzyma liczniki zapytań w bazie valkey, której adres podaje SEARXNG_VALKEY_URL.</p>
<p>Bez tej bazy SearXNG zapisuje błąd w dzienniku i działa bez żadnych ograniczeń dla klientów.</p>
<p>Sieci domowe są na liście pass_ip, więc lokalne modele nigdy nie są dławione przez limiter.</p>
</article></body></html>"""


def two_results(brave: HTTPServer) -> None:
    answer_numbered_results(brave, 2)


def test_the_llmweb_command_is_installed() -> None:
    assert llmweb("--help").returncode == 0


# --- search -----------------------------------------------------------------------------


def test_search_prints_the_text_a_model_reads_and_exits_0(searxng: stack.Process, brave: HTTPServer) -> None:
    two_results(brave)
    done = llmweb("search", "pogoda", "Kraków", "--searxng-url", searxng.url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip("\n") == run_tool_call(
        "web_search", {"query": "pogoda Kraków"}, searxng_url=searxng.url
    )


def test_search_json_is_the_python_apis_answer(searxng: stack.Process, brave: HTTPServer) -> None:
    two_results(brave)
    done = llmweb("search", "pogoda", "--json", "--max-results", "1", "--searxng-url", searxng.url)
    assert done.returncode == 0, done.stderr
    expected = web_search("pogoda", max_results=1, searxng_url=searxng.url).model_dump(mode="json")
    assert json.loads(done.stdout) == expected


def test_search_json_uses_the_python_apis_field_names(searxng: stack.Process, brave: HTTPServer) -> None:
    two_results(brave)
    answer = json.loads(llmweb("search", "pogoda", "--json", "--searxng-url", searxng.url).stdout)
    assert set(answer) == set(SearchResponse.model_fields)
    assert set(answer["results"][0]) == set(SearchResult.model_fields)


def test_options_reach_searxng(searxng: stack.Process, brave: HTTPServer) -> None:
    two_results(brave)
    done = llmweb(
        "search",
        "wybory",
        "--lang",
        "en",
        "--time-range",
        "week",
        "--page",
        "2",
        "--searxng-url",
        searxng.url,
    )
    assert done.returncode == 0, done.stderr
    request, _ = brave.log[0]
    assert (request.args["search_lang"], request.args["freshness"], request.args["offset"]) == (
        "en",
        "pw",
        "1",
    )


def test_nothing_found_exits_1(searxng: stack.Process, brave: HTTPServer) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([]))
    done = llmweb("search", "zzzz", "--searxng-url", searxng.url)
    assert done.returncode == 1
    assert done.stdout.startswith('No results for "zzzz"')


def test_a_search_result_with_a_lone_surrogate_prints_a_replacement_character(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    # Brave's JSON escapes a lone surrogate ("\\ud800"); SearXNG passes it through to its own JSON
    brave.expect_request(BRAVE_PATH).respond_with_json(
        brave_answer([brave_result("https://example.org/zepsute", "Tytuł \ud800 zepsuty")])
    )
    done = llmweb("search", "zepsute", "--searxng-url", searxng.url)
    assert done.returncode == 0, done.stderr[-500:]
    assert "Tytuł \ufffd zepsuty" in done.stdout


def test_searxng_from_the_environment(searxng: stack.Process, brave: HTTPServer) -> None:
    two_results(brave)
    assert llmweb("search", "pogoda", env={"LLMWEB_SEARXNG_URL": searxng.url}).returncode == 0


def test_could_not_search_exits_2_with_the_error_on_stderr() -> None:
    done = llmweb("search", "pogoda", "--searxng-url", NOWHERE)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"Error: SearXNG at {NOWHERE} cannot be reached")


def test_a_json_failure_is_an_error_object_with_type_and_message() -> None:
    done = llmweb("search", "pogoda", "--json", "--searxng-url", NOWHERE)
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error["type"] == "SearchUnavailable"
    assert error["message"].startswith(f"SearXNG at {NOWHERE} cannot be reached")


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["search"],
        ["search", "q", "--page", "two"],
        ["search", "q", "--time-range", "decade"],
        ["search", "q", "--lang", "english please", "--searxng-url", NOWHERE],
        ["fetch", f"{NOWHERE}/", "--max-chars", "10"],
        ["fetch", NOWHERE.removeprefix("http://")],  # no scheme
        ["browse", f"{NOWHERE}/"],
    ],
)
def test_unusable_arguments_exit_64(args: list[str]) -> None:
    done = llmweb(*args)
    assert done.returncode == 64, done.stderr
    assert done.stdout == ""


# --- fetch ------------------------------------------------------------------------------


def test_fetch_prints_the_page_between_markers_and_exits_0(pages: HTTPServer) -> None:
    pages.expect_request("/valkey").respond_with_data(ARTICLE, content_type="text/html; charset=utf-8")
    done = llmweb("fetch", pages.url_for("/valkey"), env=ALLOW_PAGES)
    assert done.returncode == 0, done.stderr
    assert "<<<BEGIN UNTRUSTED PAGE TEXT " in done.stdout and "<<<END UNTRUSTED PAGE TEXT " in done.stdout
    assert "Bez tej bazy SearXNG zapisuje błąd w dzienniku" in done.stdout


def test_fetch_json_uses_the_python_apis_field_names(pages: HTTPServer) -> None:
    pages.expect_request("/valkey").respond_with_data(ARTICLE, content_type="text/html; charset=utf-8")
    done = llmweb("fetch", pages.url_for("/valkey"), "--json", "--max-chars", "500", env=ALLOW_PAGES)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == set(FetchResult.model_fields)
    assert (answer["url"], answer["start"], answer["title"]) == (
        pages.url_for("/valkey"),
        0,
        "Valkey dla limitera",
    )


def test_a_fetch_that_fails_exits_2(pages: HTTPServer) -> None:
    pages.expect_request("/gone").respond_with_data("not here", status=404)
    done = llmweb("fetch", pages.url_for("/gone"), "--json", env=ALLOW_PAGES)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["type"] == "UpstreamStatus"


# --- doctor -----------------------------------------------------------------------------


def test_doctor_passes_a_healthy_instance(searxng: stack.Process, brave: HTTPServer) -> None:
    two_results(brave)
    done = llmweb("doctor", "--searxng-url", searxng.url)
    assert done.returncode == 0, done.stdout
    assert "ok       Brave key accepted (engine brave api answered a probe search)" in done.stdout
    assert "ok       engines answering: brave api" in done.stdout
    assert done.stdout.rstrip().endswith("All checks passed.")


def test_doctor_says_no_key_is_set_and_how_to_set_one(start_searxng: StartSearxng) -> None:
    searxng = start_searxng(env={"BRAVE_API_KEY": ""})
    done = llmweb("doctor", "--searxng-url", searxng.url)
    assert done.returncode == 2
    assert "problem  Brave: no key set" in done.stdout
    assert "fix: put BRAVE_API_KEY=" in done.stdout


def test_doctor_says_the_key_was_rejected(start_searxng: StartSearxng, brave: HTTPServer) -> None:
    searxng = start_searxng()
    brave_rejects_the_key(brave)
    done = llmweb("doctor", "--searxng-url", searxng.url)
    assert done.returncode == 2
    assert "problem  Brave rejected the key (engine brave api: access denied)" in done.stdout


def test_doctor_says_how_to_enable_json(start_searxng: StartSearxng) -> None:
    def html_only(settings: dict[str, Any]) -> None:
        settings["search"]["formats"] = ["html"]

    done = llmweb("doctor", "--searxng-url", start_searxng(html_only).url)
    assert done.returncode == 2
    assert "SearXNG refuses JSON (403)" in done.stdout and "add json to search.formats" in done.stdout


def test_doctor_says_the_machine_looks_offline_when_no_engine_can_connect(
    start_searxng: StartSearxng,
) -> None:
    # Every engine as shipped, each pointed at a loopback port where nothing listens: what
    # SearXNG reports on a machine without a network (connection refused / DNS failure).
    def nothing_reachable(settings: dict[str, Any]) -> None:
        for engine in settings["engines"]:
            engine.pop("inactive", None)
        settings["outgoing"]["proxies"] = {"all://": [f"http://127.0.0.1:{stack.free_port()}"]}

    done = llmweb("doctor", "--searxng-url", start_searxng(nothing_reachable).url)
    assert done.returncode == 2
    assert "problem  no engine could be reached, so this machine looks offline" in done.stdout
    assert "fix: check that the machine SearXNG runs on reaches the internet" in done.stdout


def test_doctor_says_how_to_start_an_unreachable_searxng() -> None:
    done = llmweb("doctor", "--searxng-url", NOWHERE)
    assert done.returncode == 2
    assert "problem  SearXNG does not answer" in done.stdout and "scripts/serve" in done.stdout


def test_the_brave_key_never_appears_in_any_output(
    searxng: stack.Process, start_searxng: StartSearxng, brave: HTTPServer
) -> None:
    two_results(brave)
    outputs = [
        llmweb("doctor", "--searxng-url", searxng.url),
        llmweb("search", "q", "--searxng-url", searxng.url),
        llmweb("search", "q", "--json", "--searxng-url", searxng.url),
    ]
    rejecting = start_searxng()
    brave.clear()
    brave_rejects_the_key(brave)
    outputs += [
        llmweb("search", "q", "--searxng-url", rejecting.url),
        llmweb("search", "q", "--json", "--searxng-url", rejecting.url),
        llmweb("doctor", "--searxng-url", rejecting.url),
    ]
    sent = [request.headers.get("X-Subscription-Token") for request, _ in brave.log]
    assert SENTINEL_KEY in sent, "the key must have been in play"
    for done in outputs:
        assert SENTINEL_KEY not in done.stdout + done.stderr
