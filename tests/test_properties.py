"""Fuzzing the pure parts with hypothesis: only the documented errors may come out.

Other pure parts have their properties beside their examples (test_engine_pure,
test_addresses, test_extract, test_fetch_content, test_fetch_limits, test_rewrite).
"""

from __future__ import annotations

import json
from typing import Any

from conftest import load_engine_module
from hypothesis import given, settings
from hypothesis import strategies as st
from searx.exceptions import SearxEngineAPIException

from llmweb.errors import InvalidInput, LlmwebError, SearchUnavailable
from llmweb.fetch.content import read_body
from llmweb.fetch.net.rewrite import check_fetch_url
from llmweb.search import parse_answer, validate_request

engine = load_engine_module("llmwebbrave_properties")

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=25,
)
# A SearXNG row: the right keys with values of any JSON type, some keys missing.
ROW = st.fixed_dictionaries(
    {},
    optional={
        "url": JSON | st.just("https://example.org/"),
        "title": JSON | st.just("t"),
        "content": JSON,
        "publishedDate": JSON | st.just("2026-11-30T00:00:00"),
        "engine": JSON,
        "engines": JSON | st.just(["brave api"]),
    },
)
ANSWER = st.fixed_dictionaries(
    {},
    optional={
        "query": JSON | st.just("q"),
        "results": st.lists(ROW, max_size=5) | JSON,
        "unresponsive_engines": st.lists(st.tuples(st.text(max_size=10), st.text(max_size=10)), max_size=3)
        | JSON,
        "suggestions": JSON,
        "corrections": JSON,
    },
)


@settings(max_examples=300)
@given(ANSWER | JSON)
def test_any_searxng_answer_parses_or_fails_as_search_unavailable(payload: Any) -> None:
    try:
        response = parse_answer(payload, validate_request(query="q"))
    except SearchUnavailable as exc:
        assert str(exc)
        return
    assert all(result.url for result in response.results)
    assert response.results or not response.failed_engines


@given(
    query=st.text(max_size=500),
    language=st.none() | st.text(max_size=12),
    page=st.integers(-5, 1200),
    time_range=st.none() | st.text(max_size=8) | st.sampled_from(["day", "week", "month", "year"]),
)
def test_any_search_arguments_validate_or_fail_as_invalid_input(
    query: str, language: str | None, page: int, time_range: str | None
) -> None:
    try:
        request = validate_request(query=query, language=language, page=page, time_range=time_range)
    except InvalidInput as exc:
        assert str(exc).startswith("Invalid arguments")
        return
    assert 1 <= request.page <= 10
    assert request.query.strip() and len(request.query) <= 400


class FakeBraveResponse:
    """What SearXNG hands response(): a status, headers and a body (no network involved)."""

    def __init__(self, body: Any, status: int = 200) -> None:
        self.status_code = status
        self.headers: dict[str, str] = {}
        self.text = json.dumps(body)

    def json(self) -> Any:
        return json.loads(self.text)


BRAVE_ITEM = st.fixed_dictionaries(
    {},
    optional={
        "url": JSON | st.just("https://example.org/x"),
        "title": JSON | st.just("<strong>t</strong>"),
        "description": JSON,
        "extra_snippets": JSON | st.lists(st.text(max_size=40), max_size=5),
        "age": JSON,
        "page_age": JSON,
        "thumbnail": JSON,
        "data": JSON,
        "question": JSON,
        "answer": JSON,
    },
)
BRAVE_ANSWER = st.dictionaries(
    st.sampled_from(["web", "news", "faq", "discussions", "query", "type"]),
    st.fixed_dictionaries({}, optional={"results": st.lists(BRAVE_ITEM, max_size=4) | JSON}) | JSON,
    max_size=4,
)


@settings(max_examples=300)
@given(BRAVE_ANSWER | JSON)
def test_engine_maps_any_brave_answer_or_raises_its_api_error(body: Any) -> None:
    engine.api_key = "test-key-not-real"
    try:
        results = engine.response(FakeBraveResponse(body))
    except SearxEngineAPIException:
        return
    for result in results:
        assert result.url and result.title


@given(st.text(max_size=200))
def test_any_url_text_is_accepted_or_refused_as_invalid_input(url: str) -> None:
    try:
        checked = check_fetch_url(url)
    except InvalidInput as exc:
        assert str(exc)
        return
    assert checked.startswith(("http://", "https://"))


@settings(max_examples=200)
@given(
    body=st.binary(max_size=2000),
    content_type=st.none()
    | st.sampled_from(
        ["text/html", "text/plain; charset=utf-8", "application/pdf", "application/json", "image/png"]
    )
    | st.text(max_size=30),
)
def test_any_body_becomes_text_or_a_documented_error(body: bytes, content_type: str | None) -> None:
    try:
        page = read_body(body, content_type, "https://example.org/")
    except LlmwebError as exc:
        assert str(exc)
        return
    assert page.text.strip(), "a body read as text has some"
    assert "\x00" not in page.text
