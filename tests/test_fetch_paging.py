"""Windows over long texts, and the compressor seam, pure and through whole fetches on loopback."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pytest_httpserver import HTTPServer

from llmweb.compress import ChatCompressor
from llmweb.errors import CompressorError, InvalidInput
from llmweb.fetch import web_fetch
from llmweb.fetch.window import cut_window
from llmweb.tools import run_tool_call

# 40 paragraphs of 99 characters each, separated by blank lines: 4,038 characters in all
PARAGRAPHS = [f"Paragraph {n:02d} " + "x" * 86 for n in range(40)]
TEXT = "\n\n".join(PARAGRAPHS)


pytestmark = pytest.mark.usefixtures("allow_test_servers")


@pytest.fixture
def long_page(httpserver_ipv4: HTTPServer) -> str:
    httpserver_ipv4.expect_request("/long").respond_with_data(TEXT, content_type="text/plain; charset=utf-8")
    return httpserver_ipv4.url_for("/long")


def test_a_window_ends_after_the_last_paragraph_that_fits() -> None:
    window, next_start = cut_window(TEXT, 0, 1000)
    # ten paragraphs and their separators take 10 * 99 + 10 * 2 = 1,010 characters: nine fit
    assert window == "\n\n".join(PARAGRAPHS[:9]) + "\n\n"
    assert next_start == len(window)


def test_a_window_without_a_nearby_break_is_cut_exactly() -> None:
    assert cut_window("a" * 50, 0, 20) == ("a" * 20, 20)


def test_the_last_window_has_no_next_start() -> None:
    assert cut_window(TEXT, 4000, 1000) == (TEXT[4000:], None)


def test_a_start_past_the_end_says_how_long_the_text_is() -> None:
    with pytest.raises(InvalidInput) as caught:
        cut_window(TEXT, 5000, 1000)
    assert "the text is 4038 characters long" in str(caught.value)


@pytest.mark.parametrize(("start", "max_chars"), [(-1, 100), (0, 0), (0, -5)])
def test_impossible_windows_are_invalid_input(start: int, max_chars: int) -> None:
    with pytest.raises(InvalidInput):
        cut_window(TEXT, start, max_chars)


@given(st.text(min_size=1, max_size=3000), st.integers(min_value=1, max_value=500))
def test_windows_cover_the_text_exactly_once_in_order(text: str, max_chars: int) -> None:
    pieces, start = [], 0
    while True:
        window, next_start = cut_window(text, start, max_chars)
        assert 0 < len(window) <= max_chars
        pieces.append(window)
        if next_start is None:
            break
        assert next_start == start + len(window)
        start = next_start
    assert "".join(pieces) == text


def test_a_fetch_returns_the_first_window_and_where_the_next_starts(long_page: str) -> None:
    result = web_fetch(long_page, max_chars=1000)
    assert result.text == "\n\n".join(PARAGRAPHS[:9]) + "\n\n"
    assert (result.start, result.next_start, result.total_chars) == (0, len(result.text), len(TEXT))


def test_fetching_from_next_start_continues_exactly_where_the_window_ended(long_page: str) -> None:
    first = web_fetch(long_page, max_chars=1000)
    assert first.next_start is not None
    second = web_fetch(long_page, max_chars=1000, start=first.next_start)
    assert second.text.startswith(PARAGRAPHS[9])
    assert TEXT.startswith(first.text + second.text)


def test_the_last_window_of_a_fetch_has_no_next_start(long_page: str) -> None:
    result = web_fetch(long_page, start=4000)
    assert (result.text, result.next_start) == (TEXT[4000:], None)


def test_a_fetch_from_past_the_end_says_how_long_the_text_is(long_page: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        web_fetch(long_page, start=10_000)
    assert "the text is 4038 characters long" in str(caught.value)


@pytest.mark.parametrize(
    ("arguments", "field"),
    [({"start": -1}, "start"), ({"max_chars": 100}, "max_chars"), ({"max_chars": 10**6}, "max_chars")],
)
def test_impossible_window_arguments_fail_before_anything_is_fetched(
    httpserver_ipv4: HTTPServer, arguments: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        web_fetch(httpserver_ipv4.url_for("/long"), **arguments)
    assert field in str(caught.value)
    assert httpserver_ipv4.log == []


class RecordingCompressor:
    def __init__(self, answer: str = "Condensed: paragraphs 00 to 39.") -> None:
        self.answer = answer
        self.calls: list[tuple[str, str | None]] = []

    def __call__(self, text: str, instruction: str | None) -> str:
        self.calls.append((text, instruction))
        return self.answer


def test_a_text_under_the_compression_floor_is_not_compressed(long_page: str) -> None:
    compressor = RecordingCompressor()
    result = web_fetch(long_page, compressor=compressor)
    assert compressor.calls == []
    assert (result.compressed, result.total_chars) == (False, len(TEXT))


def test_a_text_over_the_floor_is_replaced_by_the_compressed_text(long_page: str) -> None:
    compressor = RecordingCompressor()
    result = web_fetch(
        long_page, compressor=compressor, instruction="Which paragraphs exist?", compress_min_chars=4000
    )
    assert compressor.calls == [(TEXT, "Which paragraphs exist?")]
    assert (result.text, result.compressed, result.next_start) == (
        "Condensed: paragraphs 00 to 39.",
        True,
        None,
    )


def test_the_default_floor_is_five_thousand_characters(httpserver_ipv4: HTTPServer) -> None:
    for length in (4999, 5000):
        httpserver_ipv4.expect_request(f"/{length}").respond_with_data(
            "y" * length, content_type="text/plain"
        )
    compressor = RecordingCompressor()
    web_fetch(httpserver_ipv4.url_for("/4999"), compressor=compressor)
    web_fetch(httpserver_ipv4.url_for("/5000"), compressor=compressor)
    assert [len(text) for text, _ in compressor.calls] == [5000]


def test_a_failing_compressor_fails_the_call_with_its_reason(long_page: str) -> None:
    def broken(text: str, instruction: str | None) -> str:
        raise RuntimeError("the model ran out of memory")

    with pytest.raises(CompressorError) as caught:
        web_fetch(long_page, compressor=broken, compress_min_chars=1)
    assert "the model ran out of memory" in str(caught.value)


def test_a_compressor_that_returns_nothing_fails_the_call(long_page: str) -> None:
    with pytest.raises(CompressorError):
        web_fetch(long_page, compressor=RecordingCompressor(answer="  "), compress_min_chars=1)


def test_the_chat_compressor_condenses_a_fetched_page(httpserver_ipv4: HTTPServer, long_page: str) -> None:
    reply = {"choices": [{"message": {"role": "assistant", "content": "Forty numbered paragraphs of x."}}]}
    httpserver_ipv4.expect_request("/v1/chat/completions", method="POST").respond_with_json(reply)
    chat = ChatCompressor(base_url=httpserver_ipv4.url_for("/").rstrip("/"), model="small")
    result = web_fetch(long_page, compressor=chat, instruction="Summarise", compress_min_chars=1000)
    assert result.text == "Forty numbered paragraphs of x."
    request = next(r for r, _ in httpserver_ipv4.log if r.path == "/v1/chat/completions")
    assert TEXT in json.loads(request.get_data())["messages"][-1]["content"]


# --- what a page chose beside the window is bounded too -----------------------------------

HUGE_WORDS = "Ogromny nagłówek strony " * 60_000  # 1.4 MB of one heading, title or description
ANSWER_OVERHEAD = 3_000
"""What an answer adds to its window: the page line, notes, the markers, the call that reads on."""
ARTICLE = "".join(
    f"<p>Akapit {i}: tramwaje jeżdżą po mieście od rana do wieczora, a biblioteki są otwarte.</p>"
    for i in range(80)
)


def serve_page(server: HTTPServer, head: str, body: str) -> str:
    page = f"<!doctype html><html><head>{head}</head><body><article>{body}</article></body></html>"
    server.expect_request("/page").respond_with_data(page, content_type="text/html; charset=utf-8")
    return server.url_for("/page")


def test_an_answer_is_its_window_and_a_fixed_overhead_however_long_the_title(
    httpserver_ipv4: HTTPServer,
) -> None:
    url = serve_page(httpserver_ipv4, f"<title>{HUGE_WORDS}</title>", f"<h1>{HUGE_WORDS}</h1>{ARTICLE}")
    answer = run_tool_call("web_fetch", {"url": url, "max_chars": 500})
    assert "Title: Ogromny" in answer
    assert len(answer) <= 500 + ANSWER_OVERHEAD


def test_passages_are_their_window_and_a_fixed_overhead_however_long_their_headings(
    httpserver_ipv4: HTTPServer,
) -> None:
    url = serve_page(httpserver_ipv4, "<title>Miasto</title>", f"<h2>{HUGE_WORDS}</h2>{ARTICLE}")
    answer = run_tool_call("web_fetch", {"url": url, "max_chars": 500, "query": "tramwaje biblioteki"})
    assert "--- characters" in answer  # passages, each headed by its place
    assert len(answer) <= 500 + ANSWER_OVERHEAD


def test_a_javascript_shell_error_is_bounded_however_long_its_title_and_description(
    httpserver_ipv4: HTTPServer,
) -> None:
    head = f'<title>{HUGE_WORDS}</title><meta name="description" content="{HUGE_WORDS}"><script src="/app.js"></script>'
    url = serve_page(httpserver_ipv4, head, '<div id="root"></div>')
    answer = run_tool_call("web_fetch", {"url": url})
    assert answer.startswith("Error: ") and "Ogromny" in answer
    assert len(answer) <= ANSWER_OVERHEAD
