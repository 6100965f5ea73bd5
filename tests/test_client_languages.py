"""Whose language counts: what popular SearXNG clients send, and what Brave then receives.

Each client's request is reproduced as its source writes it (method, query string or form,
headers; see shared notes on SearXNG), sent to a real SearXNG with the shipped settings in
each mode of ``llmweb_language.honour``. The household pins Polish; by default a JSON
client's built-in language does not undo that, while a language the query names, a person's
pick in the results page's menu and llmweb's own ``language`` argument still count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import (
    BRAVE_PATH,
    ENGLISH,
    POLISH,
    brave_answer,
    brave_locale_received,
    brave_result,
    start_test_searxng,
)
from pytest_httpserver import HTTPServer

from llmweb import web_search
from serve import stack

QUERY = "python asyncio"
# What python-requests sends of its own accord (LangChain and searxng-search use requests).
REQUESTS_HEADERS = {
    "User-Agent": "python-requests/2.32.3",
    "Accept-Encoding": "gzip, deflate",
    "Accept": "*/*",
    "Connection": "keep-alive",
}
BROWSER_FORM_HEADERS = {
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "Accept-Language": "pl,en-US;q=0.7,en;q=0.3",
    "Accept-Encoding": "gzip, deflate",
    "Content-Type": "application/x-www-form-urlencoded",
}


@dataclass(frozen=True)
class ClientRequest:
    method: str
    path: str
    params: list[tuple[str, str | int | float | bool | None]]
    headers: dict[str, str]
    form: list[tuple[str, str]] = field(default_factory=list)


CLIENTS = {
    # langchain_community.utilities.searx_search: requests.get(searx_host, params={**defaults
    # ("language": "en", "format": "json"), **self.params, "q": query}); SearXNG answers / with
    # a redirect to /search, which requests follows.
    "LangChain SearxSearchWrapper": ClientRequest(
        "GET", "/", [("language", "en"), ("format", "json"), ("q", QUERY)], REQUESTS_HEADERS
    ),
    # searxng-search (PyPI): POST to /search with everything in the query string, empty body.
    "searxng-search": ClientRequest(
        "POST",
        "/search",
        [
            ("q", QUERY),
            ("category", "general"),
            ("language", "en-US"),
            ("pageno", "1"),
            ("format", "json"),
            ("safesearch", "0"),
        ],
        REQUESTS_HEADERS,
    ),
    # Open WebUI backend/open_webui/retrieval/web/searxng.py (current: SEARXNG_LANGUAGE "all").
    "Open WebUI": ClientRequest(
        "GET",
        "/search",
        [
            ("q", QUERY),
            ("format", "json"),
            ("pageno", "1"),
            ("safesearch", "1"),
            ("language", "all"),
            ("time_range", ""),
            ("categories", ""),
            ("theme", "simple"),
            ("image_proxy", "0"),
        ],
        {
            "User-Agent": "Open WebUI (https://github.com/open-webui/open-webui) RAG Bot",
            "Accept": "text/html",
            "Accept-Encoding": "gzip, deflate",
            "Accept-Language": "en-US,en;q=0.5",
            "Connection": "keep-alive",
        },
    ),
    # mcp-searxng (npm): fetch(`${base}/search?q=…&format=json`), language only when the model passes one.
    "mcp-searxng": ClientRequest(
        "GET",
        "/search",
        [("q", QUERY), ("format", "json")],
        {"User-Agent": "node", "Accept": "*/*", "Accept-Language": "*", "Accept-Encoding": "gzip, deflate"},
    ),
    # A model that writes the language into its query (any client passes the query on).
    "a query naming its language (:en)": ClientRequest(
        "GET", "/search", [("q", f":en {QUERY}"), ("format", "json")], REQUESTS_HEADERS
    ),
    # A person on the results page picks English in the language menu; the page posts its form.
    "a person picking English in the page's menu": ClientRequest(
        "POST",
        "/search",
        [],
        BROWSER_FORM_HEADERS,
        form=[
            ("q", QUERY),
            ("category_general", "1"),
            ("language", "en"),
            ("time_range", ""),
            ("safesearch", "0"),
            ("theme", "simple"),
        ],
    ),
}
LLMWEB = "llmweb web_search(language='en')"

# What Brave receives, client by client, in each mode of llmweb_language.honour.
EXPECTED: dict[str, dict[str, dict[str, str]]] = {
    "deliberate": {
        "LangChain SearxSearchWrapper": POLISH,
        "searxng-search": POLISH,
        "Open WebUI": POLISH,
        "mcp-searxng": POLISH,
        "a query naming its language (:en)": ENGLISH,
        "a person picking English in the page's menu": ENGLISH,
        LLMWEB: ENGLISH,
    },
    "every": {
        "LangChain SearxSearchWrapper": ENGLISH,
        "searxng-search": ENGLISH,
        "Open WebUI": POLISH,  # "all" leaves the engine's own Polish defaults
        "mcp-searxng": POLISH,
        "a query naming its language (:en)": ENGLISH,
        "a person picking English in the page's menu": ENGLISH,
        LLMWEB: ENGLISH,
    },
    "never": dict.fromkeys([*CLIENTS, LLMWEB], POLISH),
}


@pytest.fixture(scope="module")
def searxng_by_mode(
    tmp_path_factory: pytest.TempPathFactory,
    brave_server: HTTPServer,
    valkey: stack.Process,
    engines_installed: None,
) -> Iterator[Callable[[str], stack.Process]]:
    """One SearXNG per mode, started when first asked for and kept for the module."""
    started: dict[str, stack.Process] = {}

    def for_mode(mode: str) -> stack.Process:
        if mode not in started:

            def honour(settings: dict[str, Any]) -> None:
                settings["llmweb_language"] = {"honour": mode}

            folder = Path(tmp_path_factory.mktemp(f"searxng-{mode}"))
            started[mode] = start_test_searxng(folder, brave_server, valkey, honour)
        return started[mode]

    yield for_mode
    for proc in started.values():
        proc.stop()


def send(searxng: stack.Process, client: str) -> httpx.Response | None:
    """The client's search; its HTTP answer, or None for llmweb's web_search, which has no
    status to show: it raises an LlmwebError unless SearXNG answered."""
    if client == LLMWEB:
        web_search(QUERY, language="en", searxng_url=searxng.url)
        return None
    request = CLIENTS[client]
    return httpx.request(
        request.method,
        searxng.url + request.path,
        params=list(request.params),
        headers=request.headers,
        data=dict(request.form) if request.form else None,
        follow_redirects=True,
        timeout=30,
    )


CASES = [(mode, client) for mode, clients in EXPECTED.items() for client in clients]


@pytest.mark.parametrize(("mode", "client"), CASES, ids=[f"{mode}: {client}" for mode, client in CASES])
def test_what_brave_receives_from_each_client(
    searxng_by_mode: Callable[[str], stack.Process], brave: HTTPServer, mode: str, client: str
) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([brave_result("https://example.org/")]))
    answer = send(searxng_by_mode(mode), client)
    if answer is not None:
        assert answer.status_code == 200, answer.text[:300]
    assert brave_locale_received(brave) == EXPECTED[mode][client]


def test_a_json_client_keeps_its_query_text_while_its_language_is_ignored(
    searxng_by_mode: Callable[[str], stack.Process], brave: HTTPServer
) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([brave_result("https://example.org/")]))
    answer = send(searxng_by_mode("deliberate"), "LangChain SearxSearchWrapper")
    assert answer is not None
    assert answer.json()["query"] == QUERY
    assert [r["url"] for r in answer.json()["results"]] == ["https://example.org/"]


def test_an_unknown_mode_stops_searxng_at_start_with_the_setting_named(
    tmp_path: Path, brave_server: HTTPServer, valkey: stack.Process, engines_installed: None
) -> None:
    def typo(settings: dict[str, Any]) -> None:
        settings["llmweb_language"] = {"honour": "deliberately"}

    with pytest.raises(stack.StackError, match=r"llmweb_language\.honour"):
        start_test_searxng(tmp_path, brave_server, valkey, typo)
