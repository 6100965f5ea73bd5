"""The stack as `docker compose up -d` starts it: healthy, Polish, our engine, the web page, the log."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlsplit

import httpx
from conftest import BROWSER_HEADERS, SENTINEL_KEY

from compose.deployment import SEARXNG, VALKEY, Deployment
from compose.fake_brave import TOKEN_HEADER, token_digest

POLISH = {"country": "PL", "search_lang": "pl", "ui_lang": "pl-PL"}
DATED_AND_JOINED = "2026-11-02 — Prognoza na jutro. | Rano deszcz. | Wieczorem słońce."


def test_both_services_become_healthy(running: Deployment) -> None:
    for service in (SEARXNG, VALKEY):
        assert running.state(service)["Health"]["Status"] == "healthy"


def test_a_json_search_reaches_brave_in_polish_with_the_key(running: Deployment) -> None:
    before = len(running.brave_requests())
    running.search_json("pogoda Kraków")
    [request] = running.brave_requests()[before:]
    params = dict(request["params"])
    assert request["path"] == "/res/v1/web/search"
    assert {k: params[k] for k in POLISH} == POLISH
    assert params["q"] == "pogoda Kraków"
    assert request["headers"][TOKEN_HEADER] == token_digest(SENTINEL_KEY)


def test_a_json_search_answers_with_dated_joined_snippets(running: Deployment) -> None:
    found = running.search_json("pogoda Kraków")
    contents = {r["url"]: r["content"] for r in found["results"]}
    assert contents["https://example.org/pogoda"] == DATED_AND_JOINED
    assert found["unresponsive_engines"] == []


def test_the_engine_searxng_runs_is_ours(running: Deployment) -> None:
    """Only our engine asks Brave for extra snippets; upstream's braveapi never does."""
    engines = {e["name"]: e for e in running.get("/config").json()["engines"]}
    assert engines["brave api"]["enabled"]
    before = len(running.brave_requests())
    running.search_json("pogoda")
    [request] = running.brave_requests()[before:]
    assert dict(request["params"])["extra_snippets"] == "true"


class _Assets(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value and "/static/" in value:
                self.links.append(value)


def test_the_results_page_and_every_static_file_it_links_answer(running: Deployment) -> None:
    page = httpx.get(running.url + "/search", params={"q": "pogoda"}, headers=BROWSER_HEADERS, timeout=30)
    assert page.status_code == 200
    assert "Prognoza na jutro." in page.text
    assets = _Assets()
    assets.feed(page.text)
    assert assets.links, "the page links no static files"
    broken = []
    for link in sorted(set(assets.links)):
        path = urlsplit(link).path
        status = httpx.get(running.url + path, headers=BROWSER_HEADERS, timeout=30).status_code
        if status != 200:
            broken.append((path, status))
    assert broken == []


def test_the_footer_names_upstreams_version(running: Deployment) -> None:
    page = httpx.get(running.url + "/", headers=BROWSER_HEADERS, timeout=30)
    assert "SearXNG</a> - 2026.8.13+ef9a188cc" in page.text


def test_the_log_holds_no_error_after_start_and_searches(running: Deployment) -> None:
    for query in ("pogoda", "smog", "tramwaje"):
        running.search_json(query)
    errors = [line for line in running.logs(SEARXNG).splitlines() if "ERROR" in line]
    assert errors == []


def test_searches_add_nothing_to_the_log(running: Deployment) -> None:
    running.search_json("rozgrzewka")  # anything logged once, at the first search, is not per request
    before = running.logs(SEARXNG).splitlines()
    for query in ("pogoda", "smog", "tramwaje"):
        running.search_json(query)
    assert running.logs(SEARXNG).splitlines()[len(before) :] == []
