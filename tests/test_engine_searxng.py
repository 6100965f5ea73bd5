"""Our Brave engine inside real SearXNG: what Brave receives and what a JSON client gets back."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from conftest import (
    BRAVE_PATH,
    ENGINE_NAME,
    POLISH,
    SENTINEL_KEY,
    StartSearxng,
    brave_answer,
    brave_queries,
    brave_result,
    engine_entry,
    only_query,
    search_json,
)
from pytest_httpserver import HTTPServer
from werkzeug import Response

from serve import stack


def answer_with_one_result(brave: HTTPServer) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([brave_result("https://example.org/")]))


# --- what Brave receives ------------------------------------------------------------


def test_request_without_language_asks_brave_in_polish_for_extra_snippets(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    answer_with_one_result(brave)
    search_json(searxng, q="pogoda Kraków")
    assert brave_queries(brave) == [
        [
            ("q", "pogoda Kraków"),
            ("count", "20"),
            ("offset", "0"),
            ("country", "PL"),
            ("search_lang", "pl"),
            ("ui_lang", "pl-PL"),
            ("safesearch", "off"),
            ("extra_snippets", "true"),
            ("text_decorations", "false"),
            ("spellcheck", "false"),
        ]
    ]


def test_the_key_travels_in_the_subscription_header_only(searxng: stack.Process, brave: HTTPServer) -> None:
    answer_with_one_result(brave)
    search_json(searxng, q="klucz")
    request, _ = brave.log[0]
    assert request.headers["X-Subscription-Token"] == SENTINEL_KEY
    assert SENTINEL_KEY not in request.query_string.decode()


@pytest.mark.parametrize("language", ["all", "pl", "pl-PL"])
def test_polish_locale_for_all_and_polish(searxng: stack.Process, brave: HTTPServer, language: str) -> None:
    answer_with_one_result(brave)
    search_json(searxng, q="test", language=language)
    query = only_query(brave)
    assert {k: query[k] for k in POLISH} == POLISH


def test_auto_from_a_client_without_accept_language_searches_in_polish(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    # SearXNG resolves "auto" from Accept-Language; a model client usually sends none.
    answer_with_one_result(brave)
    answer = httpx.get(
        searxng.url + "/search", params={"q": "auto", "language": "auto", "format": "json"}, timeout=30
    )
    assert answer.status_code == 200
    query = only_query(brave)
    assert {k: query[k] for k in POLISH} == POLISH


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en-US", {"search_lang": "en", "country": "US", "ui_lang": "en-US"}),
        ("en", {"search_lang": "en", "country": "US", "ui_lang": "en-US"}),
        ("de", {"search_lang": "de", "country": "DE", "ui_lang": "de-DE"}),
        ("en-GB", {"search_lang": "en-gb", "country": "GB", "ui_lang": "en-GB"}),
    ],
)
def test_a_language_asked_for_overrides_the_polish_default(
    searxng: stack.Process, brave: HTTPServer, language: str, expected: dict[str, str]
) -> None:
    answer_with_one_result(brave)
    search_json(searxng, q=f":{language} python asyncio docs")
    query = only_query(brave)
    assert {k: query[k] for k in expected} == expected


def test_a_language_prefix_in_the_query_overrides_the_default(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    answer_with_one_result(brave)
    search_json(searxng, q=":en rust borrow checker")
    query = only_query(brave)
    assert (query["q"], query["search_lang"], query["country"]) == ("rust borrow checker", "en", "US")


def test_server_and_engine_layers_each_hold_the_locale(
    start_searxng: StartSearxng, brave: HTTPServer
) -> None:
    # Give the engine layer English defaults: a client sending no language still gets Polish
    # (server layer: default_lang), one asking for all languages gets the engine's defaults.
    def english_engine_defaults(settings: dict[str, Any]) -> None:
        engine_entry(settings).update(search_lang="en", country="US", ui_lang="en-US")

    searxng = start_searxng(english_engine_defaults)
    answer_with_one_result(brave)
    search_json(searxng, q="bez języka")
    search_json(searxng, q=":all wszystkie")
    no_language, all_languages = (dict(q) for q in brave_queries(brave))
    assert (no_language["search_lang"], no_language["country"]) == ("pl", "PL")
    assert (all_languages["search_lang"], all_languages["country"]) == ("en", "US")


def test_page_two_asks_for_brave_page_index_one(searxng: stack.Process, brave: HTTPServer) -> None:
    answer_with_one_result(brave)
    search_json(searxng, q="strona", pageno=2)
    query = only_query(brave)
    assert (query["offset"], query["count"]) == ("1", "20")


def test_page_eleven_is_answered_without_asking_brave(searxng: stack.Process, brave: HTTPServer) -> None:
    answer_with_one_result(brave)
    answer = search_json(searxng, q="strona", pageno=11)
    assert answer["results"] == []
    assert brave.log == []


@pytest.mark.parametrize(
    ("time_range", "freshness"), [("day", "pd"), ("week", "pw"), ("month", "pm"), ("year", "py")]
)
def test_time_range_goes_out_as_freshness(
    searxng: stack.Process, brave: HTTPServer, time_range: str, freshness: str
) -> None:
    answer_with_one_result(brave)
    search_json(searxng, q="wiadomości", time_range=time_range)
    query = only_query(brave)
    assert query["freshness"] == freshness
    assert "time_range" not in query


@pytest.mark.parametrize(("level", "brave_value"), [("0", "off"), ("1", "moderate"), ("2", "strict")])
def test_safe_search_levels_map_to_brave_values(
    searxng: stack.Process, brave: HTTPServer, level: str, brave_value: str
) -> None:
    answer_with_one_result(brave)
    search_json(searxng, q="filtr", safesearch=level)
    assert only_query(brave)["safesearch"] == brave_value


def test_a_query_over_fifty_words_is_shortened_not_sent_to_fail(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    answer_with_one_result(brave)
    words = [f"słowo{n}" for n in range(70)]
    search_json(searxng, q=" ".join(words))
    sent = only_query(brave)["q"].split()
    assert sent == words[:50]


# --- what the JSON client gets ------------------------------------------------------

DESCRIPTION = (
    "Python 3.13 przynosi <strong>eksperymentalny</strong> tryb bez GIL-a &amp; nowy "
    "interaktywny interpreter z kolorowaniem i edycją wielu linii."
)
SNIPPETS = [
    "Tryb free-threaded wymaga osobnej kompilacji interpretera i jest oznaczony jako eksperymentalny.",
    # Brave sometimes repeats the description as an extra snippet (markup removed).
    "Python 3.13 przynosi eksperymentalny tryb bez GIL-a & nowy interaktywny interpreter "
    "z kolorowaniem i edycją wielu linii.",
    "Kompilator JIT jest domyślnie wyłączony; włącza się go flagą --enable-experimental-jit.",
    "Tryb free-threaded wymaga osobnej kompilacji interpretera i jest oznaczony jako eksperymentalny.",
]


def test_content_starts_with_the_date_and_holds_every_distinct_snippet_once(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(
        brave_answer(
            [
                brave_result(
                    "https://docs.python.org/3.13/whatsnew/3.13.html",
                    "Co nowego w <strong>Python 3.13</strong>",
                    description=DESCRIPTION,
                    extra_snippets=SNIPPETS,
                    page_age="2024-10-07T00:00:00",
                    age="October 7, 2024",
                )
            ]
        )
    )
    (result,) = search_json(searxng, q="python 3.13 nowości")["results"]
    content = result["content"]
    assert content.startswith("2024-10-07 ")
    assert result["title"] == "Co nowego w Python 3.13"
    for text in ("eksperymentalny tryb bez GIL-a & nowy", SNIPPETS[0], SNIPPETS[2]):
        assert content.count(text) == 1, text
    assert "<strong>" not in content and "&amp;" not in content
    assert result["publishedDate"].startswith("2024-10-07")


def test_an_undated_result_gets_no_date(searxng: stack.Process, brave: HTTPServer) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(
        brave_answer([brave_result("https://example.org/x", description="Bez daty.", age="niedawno")])
    )
    (result,) = search_json(searxng, q="bez daty")["results"]
    assert result["content"] == "Bez daty."
    assert result["publishedDate"] is None


def test_a_relative_age_is_dated_from_today(searxng: stack.Process, brave: HTTPServer) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(
        brave_answer([brave_result("https://example.org/n", description="Świeże.", age="3 days ago")])
    )
    (result,) = search_json(searxng, q="świeże")["results"]
    expected = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 3 * 86400))
    assert result["content"] == f"{expected} — Świeże."


def test_news_faq_and_discussions_come_back_beside_web_results(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(
        brave_answer(
            [brave_result("https://example.org/web", description="Wynik z sieci.")],
            news={
                "type": "news",
                "results": [
                    {
                        "title": "Wiadomość",
                        "url": "https://news.example.org/1",
                        "description": "Opis wiadomości.",
                        "age": "November 28, 2026",
                        "extra_snippets": ["Dodatkowy akapit wiadomości."],
                    }
                ],
            },
            faq={
                "type": "faq",
                "results": [
                    {
                        "question": "Jak działa GIL?",
                        "answer": "Blokuje równoległe wykonanie kodu Pythona.",
                        "title": "FAQ Pythona",
                        "url": "https://faq.example.org/gil",
                    }
                ],
            },
            discussions={
                "type": "search",
                "results": [
                    {
                        "type": "discussion",
                        "url": "https://forum.example.org/t/1",
                        "title": "Wątek o GIL",
                        "description": "Dyskusja.",
                        "data": {
                            "forum_name": "r/python",
                            "question": "Czy warto wyłączyć GIL?",
                            "top_comment": "Na razie tylko do testów.",
                        },
                    }
                ],
            },
        )
    )
    results = {r["url"]: r["content"] for r in search_json(searxng, q="gil")["results"]}
    assert set(results) == {
        "https://example.org/web",
        "https://news.example.org/1",
        "https://faq.example.org/gil",
        "https://forum.example.org/t/1",
    }
    assert results["https://news.example.org/1"].startswith("2026-11-28 — Opis wiadomości.")
    assert "Dodatkowy akapit wiadomości." in results["https://news.example.org/1"]
    assert "Blokuje równoległe wykonanie kodu Pythona." in results["https://faq.example.org/gil"]
    assert "Na razie tylko do testów." in results["https://forum.example.org/t/1"]


@pytest.mark.parametrize(
    "sections",
    [{"faq": {"type": "faq", "results": "zepsute"}}, {"news": ["nie", "obiekt"]}, {"discussions": 7}],
)
def test_a_malformed_section_is_dropped_and_the_web_results_kept(
    searxng: stack.Process, brave: HTTPServer, sections: dict[str, Any]
) -> None:
    answer = brave_answer([brave_result("https://example.org/ok", description="Dobry.")], **sections)
    brave.expect_request(BRAVE_PATH).respond_with_json(answer)
    found = search_json(searxng, q="sekcje")
    assert [r["url"] for r in found["results"]] == ["https://example.org/ok"]
    assert found["unresponsive_engines"] == []


def test_a_result_without_url_is_skipped_and_the_rest_kept(searxng: stack.Process, brave: HTTPServer) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(
        brave_answer([{"title": "bez adresu"}, brave_result("https://example.org/ok", description="Dobry.")])
    )
    answer = search_json(searxng, q="mieszane")
    assert [r["url"] for r in answer["results"]] == ["https://example.org/ok"]
    assert answer["unresponsive_engines"] == []


# --- Brave's errors -----------------------------------------------------------------


def brave_error(status: int, code: str, headers: dict[str, str] | None = None) -> Response:
    body = {"type": "ErrorResponse", "errors": [{"code": code, "detail": "test", "status": status}]}
    return Response(json.dumps(body), status=status, headers=headers or {}, content_type="application/json")


def unresponsive(answer: dict[str, Any]) -> dict[str, str]:
    return dict(answer["unresponsive_engines"])


def search_twice(searxng: stack.Process) -> tuple[dict[str, Any], dict[str, Any]]:
    return search_json(searxng, q="pierwsze"), search_json(searxng, q="drugie")


def test_rate_limited_suspends_the_engine_until_the_per_second_window_resets(
    start_searxng: StartSearxng, brave: HTTPServer
) -> None:
    searxng = start_searxng()
    limited = {
        "X-RateLimit-Limit": "1, 15000",
        "X-RateLimit-Remaining": "0, 14000",
        "X-RateLimit-Reset": "2, 900000",
    }
    brave.expect_ordered_request(BRAVE_PATH).respond_with_response(brave_error(429, "RATE_LIMITED", limited))
    brave.expect_ordered_request(BRAVE_PATH).respond_with_json(
        brave_answer([brave_result("https://example.org/")])
    )
    first, second = search_twice(searxng)
    assert unresponsive(first) == {ENGINE_NAME: "too many requests"}
    assert unresponsive(second) == {ENGINE_NAME: "Suspended: too many requests"}
    assert len(brave.log) == 1, "no request to Brave while suspended"
    time.sleep(2.5)
    third = search_json(searxng, q="trzecie")
    assert [r["url"] for r in third["results"]] == ["https://example.org/"]


def test_quota_limited_suspends_for_the_monthly_window(
    start_searxng: StartSearxng, brave: HTTPServer
) -> None:
    searxng = start_searxng()
    spent = {
        "X-RateLimit-Limit": "1, 2000",
        "X-RateLimit-Remaining": "1, 0",
        "X-RateLimit-Reset": "1, 864000",
    }
    brave.expect_request(BRAVE_PATH).respond_with_response(brave_error(429, "QUOTA_LIMITED", spent))
    search_json(searxng, q="pierwsze")
    time.sleep(2)  # the per-second window is long over; the monthly one is not
    later = search_json(searxng, q="później")
    assert unresponsive(later) == {ENGINE_NAME: "Suspended: too many requests"}
    assert len(brave.log) == 1


def test_an_absurd_rate_limit_reset_is_cut_to_a_month_and_logged_without_the_key(
    start_searxng: StartSearxng, brave: HTTPServer
) -> None:
    searxng = start_searxng()
    absurd = {"X-RateLimit-Remaining": "1, 0", "X-RateLimit-Reset": "1, 100000000000000000000"}
    brave.expect_request(BRAVE_PATH).respond_with_response(brave_error(429, "QUOTA_LIMITED", absurd))
    first = search_json(searxng, q="pierwsze")
    assert unresponsive(first) == {ENGINE_NAME: "too many requests"}
    log = searxng.log_text()
    assert "suspension, longer than a month: cut to 2678400 s" in log
    assert SENTINEL_KEY not in log


@pytest.mark.parametrize(
    ("status", "code"), [(422, "SUBSCRIPTION_TOKEN_INVALID"), (401, "UNAUTHORIZED"), (403, "FORBIDDEN")]
)
def test_a_rejected_key_suspends_with_access_denied_and_logs_without_the_key(
    start_searxng: StartSearxng, brave: HTTPServer, status: int, code: str
) -> None:
    searxng = start_searxng()
    brave.expect_request(BRAVE_PATH).respond_with_response(brave_error(status, code))
    first, second = search_twice(searxng)
    assert unresponsive(first) == {ENGINE_NAME: "access denied"}
    assert unresponsive(second) == {ENGINE_NAME: "Suspended: access denied"}
    assert len(brave.log) == 1
    log = searxng.log_text()
    assert "Brave rejected the API key" in log
    assert SENTINEL_KEY not in log


@pytest.mark.parametrize(
    "reply",
    [
        Response("upstream exploded", status=500),
        Response("<html>not json</html>", status=200, content_type="application/json"),
        Response('["a", "list"]', status=200, content_type="application/json"),
        Response('{"web": {"results": "nope"}}', status=200, content_type="application/json"),
        Response('{"errors": [{"code": "VALIDATION"}]}', status=422, content_type="application/json"),
    ],
    ids=["http-500", "not-json", "json-list", "results-not-list", "validation-422"],
)
def test_other_failures_are_engine_errors_not_crashes(
    searxng: stack.Process, brave: HTTPServer, reply: Response
) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_response(reply)
    answer = search_json(searxng, q=f"błąd {reply.status_code} {len(reply.get_data())}")
    assert answer["results"] == []
    # Our SearxEngineAPIException, not a KeyError/TypeError ("parsing error", "unexpected crash").
    assert unresponsive(answer)[ENGINE_NAME].endswith("server API error")


# --- without a key ------------------------------------------------------------------


def test_without_a_key_json_clients_see_brave_named_as_missing_its_key_and_brave_is_not_asked(
    start_searxng: StartSearxng, brave: HTTPServer
) -> None:
    searxng = start_searxng(env={"BRAVE_API_KEY": ""})
    answer = search_json(searxng, q="bez klucza")
    assert answer["results"] == []
    assert unresponsive(answer) == {ENGINE_NAME: "Brave API key missing: the admin should set BRAVE_API_KEY"}
    assert brave.log == []


def test_without_a_key_the_log_says_once_how_to_set_one(
    start_searxng: StartSearxng, brave: HTTPServer
) -> None:
    searxng = start_searxng(env={"BRAVE_API_KEY": ""})
    for n in range(3):
        search_json(searxng, q=f"bez klucza {n}")
    lines = [line for line in searxng.log_text().splitlines() if "BRAVE_API_KEY" in line]
    assert len(lines) == 1, lines
    assert "WARNING" in lines[0]


def test_without_a_key_a_fresh_install_still_answers_through_keyless_engines(
    start_searxng: StartSearxng, brave: HTTPServer
) -> None:
    # The keyless engines as shipped (active), their traffic sent to a proxy address on
    # loopback where nothing listens: the answer shows what a fresh install asks.
    def shipped_keyless_engines_via_dead_loopback_proxy(settings: dict[str, Any]) -> None:
        for engine in settings["engines"]:
            engine.pop("inactive", None)
        settings["outgoing"]["proxies"] = {"all://": [f"http://127.0.0.1:{stack.free_port()}"]}

    searxng = start_searxng(shipped_keyless_engines_via_dead_loopback_proxy, env={"BRAVE_API_KEY": ""})
    answer = search_json(searxng, q="świeża instalacja")
    # the keyless engines were asked (their proxy refused them); Brave was named, not asked
    assert set(unresponsive(answer)) == {"duckduckgo", "wikipedia", ENGINE_NAME}
    assert unresponsive(answer)[ENGINE_NAME].startswith("Brave API key missing")
    assert brave.log == []
