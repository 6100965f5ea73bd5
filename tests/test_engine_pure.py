"""The Brave engine's pure parts, and its request()/response() mapping, without a network.

The engine is a single file SearXNG loads by path, so it is imported the same way.
"""

from __future__ import annotations

import datetime
import json
import logging
import string
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import babel.localedata
import pytest
from conftest import load_engine_module
from hypothesis import given
from hypothesis import strategies as st
from searx.exceptions import (
    SearxEngineAccessDeniedException,
    SearxEngineAPIException,
    SearxEngineTooManyRequestsException,
)
from searx.result_types import MainResult

REPO = Path(__file__).resolve().parent.parent
FAKE_KEY = "test-key-not-real"


engine: Any = load_engine_module()

NOW = datetime.datetime(2025, 10, 4, 12, 0, tzinfo=datetime.UTC)
POLISH = engine.BraveLocale("pl", "PL", "pl-PL")

# Shapes from recorded Brave answers: a ~200-character description with <strong> and
# entities, ~230-character plain extra snippets, one of them equal to the description.
DESCRIPTION = (
    "<strong>Python</strong> is a programming language that lets you work quickly and "
    "integrate systems more effectively. It&#x27;s &quot;batteries included&quot; &amp; "
    "free to use, even for commercial products."
)
DESCRIPTION_TEXT = (
    "Python is a programming language that lets you work quickly and integrate systems "
    'more effectively. It\'s "batteries included" & free to use, even for commercial products.'
)
SNIPPET_1 = (
    "The Python interpreter and the extensive standard library are freely available in "
    "source or binary form for all major platforms from the Python web site, and may be "
    "freely distributed; the same site also holds distributions of many free modules."
)
SNIPPET_2 = (
    "Python 3.14 was released on October 7, 2025. It brings deferred evaluation of "
    "annotations, template string literals, and an officially supported free-threaded "
    "build that runs without the global interpreter lock."
)


# --- merge_snippets ----------------------------------------------------------------


def test_description_markup_and_entities_become_plain_text() -> None:
    assert engine.merge_snippets(DESCRIPTION, []) == DESCRIPTION_TEXT


def test_highlight_tags_join_their_words_without_adding_spaces() -> None:
    assert engine.merge_snippets("an instance of <strong>float</strong>, as hinted", []) == (
        "an instance of float, as hinted"
    )


def test_extra_snippets_follow_the_description_in_braves_order_separated_by_a_bar() -> None:
    merged = engine.merge_snippets(DESCRIPTION, [SNIPPET_1, SNIPPET_2])
    assert merged == f"{DESCRIPTION_TEXT} | {SNIPPET_1} | {SNIPPET_2}"


def test_extra_snippet_repeating_the_description_is_dropped() -> None:
    merged = engine.merge_snippets(DESCRIPTION, [DESCRIPTION_TEXT, SNIPPET_1])
    assert merged == f"{DESCRIPTION_TEXT} | {SNIPPET_1}"


def test_duplicates_are_recognised_regardless_of_case_and_spacing() -> None:
    merged = engine.merge_snippets("Free  to use.", ["FREE to\n use.", "free to use."])
    assert merged == "Free to use."


def test_excerpt_contained_in_the_description_is_dropped() -> None:
    merged = engine.merge_snippets(DESCRIPTION, ["batteries included", SNIPPET_1])
    assert merged == f"{DESCRIPTION_TEXT} | {SNIPPET_1}"


def test_excerpt_contained_in_an_earlier_excerpt_is_dropped() -> None:
    merged = engine.merge_snippets("", [SNIPPET_1, "the extensive standard library"])
    assert merged == SNIPPET_1


def test_truncated_description_is_replaced_in_place_by_the_excerpt_that_completes_it() -> None:
    truncated = "<strong>Python</strong> is a programming language that lets you work quickly ..."
    merged = engine.merge_snippets(truncated, [SNIPPET_2, DESCRIPTION_TEXT])
    assert merged == f"{DESCRIPTION_TEXT} | {SNIPPET_2}"


def test_plain_text_excerpt_keeps_literal_angle_brackets() -> None:
    merged = engine.merge_snippets("", ["Use the <div> element when a < b and c > d."])
    assert merged == "Use the <div> element when a < b and c > d."


def test_missing_description_and_non_text_snippets_are_ignored() -> None:
    assert engine.merge_snippets(None, [None, "", "   ", SNIPPET_1]) == SNIPPET_1


def test_no_text_at_all_gives_empty_content() -> None:
    assert engine.merge_snippets(None, None) == ""


def test_a_single_string_instead_of_a_list_is_one_snippet() -> None:
    assert engine.merge_snippets("First.", "Second.") == "First. | Second."


def test_separators_survive_searxngs_result_normalisation() -> None:
    content = "2025-10-01 — First excerpt. | Second excerpt."
    result = MainResult(url="https://example.org/", title="Example", content=content)
    result.normalize_result_fields()
    assert result.content == content


texts = st.text(alphabet=st.sampled_from(" \t\n\u00a0\u2003ab|—."), max_size=40)


@given(title=texts, content=texts)
def test_the_engine_s_results_are_normalised_as_searxng_normalises_its_own(title: str, content: str) -> None:
    fields = {
        "url": "https://example.org/a",
        "engine": "brave api",
        "publishedDate": datetime.datetime(2025, 10, 1),
    }
    ours = engine.BraveResult(title=title, content=content, **fields)
    searxngs = MainResult(title=title, content=content, **fields)
    ours.normalize_result_fields()
    searxngs.normalize_result_fields()
    assert ours.as_dict() == searxngs.as_dict()


# --- parse_publication_date ----------------------------------------------------------


def test_page_age_gives_the_date() -> None:
    assert engine.parse_publication_date("2023-04-12T14:22:41", None, NOW) == datetime.date(2023, 4, 12)


def test_page_age_wins_over_age() -> None:
    found = engine.parse_publication_date("2025-09-30T00:00:00", "October 1, 2025", NOW)
    assert found == datetime.date(2025, 9, 30)


def test_age_is_used_when_page_age_is_missing_or_unreadable() -> None:
    assert engine.parse_publication_date("garbage", "October 1, 2025", NOW) == datetime.date(2025, 10, 1)


@pytest.mark.parametrize("age", ["October 1, 2025", "Oct 1, 2025", "1 October 2025", "oct. 1, 2025"])
def test_absolute_age_in_english_gives_the_date(age: str) -> None:
    assert engine.parse_publication_date(None, age, NOW) == datetime.date(2025, 10, 1)


@pytest.mark.parametrize(
    ("age", "expected"),
    [
        ("3 days ago", datetime.date(2025, 10, 1)),
        ("1 day ago", datetime.date(2025, 10, 3)),
        ("yesterday", datetime.date(2025, 10, 3)),
        ("6 hours ago", datetime.date(2025, 10, 4)),
        ("13 hours ago", datetime.date(2025, 10, 3)),
        ("an hour ago", datetime.date(2025, 10, 4)),
        ("2 weeks ago", datetime.date(2025, 9, 20)),
        ("1 month ago", datetime.date(2025, 9, 4)),
        ("1 year ago", datetime.date(2024, 10, 4)),
    ],
)
def test_relative_age_counts_back_from_now(age: str, expected: datetime.date) -> None:
    assert engine.parse_publication_date(None, age, NOW) == expected


@pytest.mark.parametrize(
    "age", ["1 października 2025", "1 paź 2025", "1 październik 2025", "1. października 2025"]
)
def test_absolute_age_in_polish_gives_the_date(age: str) -> None:
    # Brave writes age in the language of ui_lang, which is Polish by default.
    assert engine.parse_publication_date(None, age, NOW) == datetime.date(2025, 10, 1)


@pytest.mark.parametrize(
    ("age", "expected"),
    [
        ("3 dni temu", datetime.date(2025, 10, 1)),
        ("1 dzień temu", datetime.date(2025, 10, 3)),
        ("wczoraj", datetime.date(2025, 10, 3)),
        ("dzisiaj", datetime.date(2025, 10, 4)),
        ("13 godzin temu", datetime.date(2025, 10, 3)),
        ("godzinę temu", datetime.date(2025, 10, 4)),
        ("2 tygodnie temu", datetime.date(2025, 9, 20)),
        ("5 tygodni temu", datetime.date(2025, 8, 30)),
        ("miesiąc temu", datetime.date(2025, 9, 4)),
        ("3 miesiące temu", datetime.date(2025, 7, 4)),
        ("rok temu", datetime.date(2024, 10, 4)),
        ("2 lata temu", datetime.date(2023, 10, 4)),
    ],
)
def test_relative_age_in_polish_counts_back_from_now(age: str, expected: datetime.date) -> None:
    assert engine.parse_publication_date(None, age, NOW) == expected


def test_unknown_polish_unit_gives_no_date() -> None:
    assert engine.parse_publication_date(None, "3 kotów temu", NOW) is None


@pytest.mark.parametrize(
    "age",
    ["abc 5", "2 days", "5", "2025", "recently", "October 32, 2025", "Smarch 1, 2025", "", "   "],
)
def test_unreadable_age_gives_no_date(age: str) -> None:
    assert engine.parse_publication_date(None, age, NOW) is None


def test_relative_text_in_page_age_is_not_a_date() -> None:
    assert engine.parse_publication_date("3 days ago", None, NOW) is None


def test_undated_result_gets_no_date() -> None:
    assert engine.parse_publication_date(None, None, NOW) is None


def test_values_that_are_not_text_give_no_date() -> None:
    assert engine.parse_publication_date(20251001, ["October 1, 2025"], NOW) is None


def test_sentinel_dates_before_the_web_give_no_date() -> None:
    assert engine.parse_publication_date("1970-01-01T00:00:00", "0001-01-01", NOW) is None


def test_date_after_tomorrow_gives_no_date() -> None:
    assert engine.parse_publication_date("2025-10-06T00:00:00", None, NOW) is None


def test_content_starts_with_the_iso_date_and_a_dash() -> None:
    content = engine.dated_content(datetime.date(2025, 10, 1), "Rest of text.")
    assert content == "2025-10-01 — Rest of text."


def test_undated_content_has_no_prefix() -> None:
    assert engine.dated_content(None, "Rest of text.") == "Rest of text."


def test_dated_result_without_text_is_just_the_date() -> None:
    assert engine.dated_content(datetime.date(2025, 10, 1), "") == "2025-10-01"


# --- brave_locale --------------------------------------------------------------------


@pytest.mark.parametrize("searxng_locale", ["all", "auto", "", None])
def test_no_chosen_locale_keeps_the_engine_defaults(searxng_locale: str | None) -> None:
    assert engine.brave_locale(searxng_locale, POLISH) == POLISH


@pytest.mark.parametrize(
    ("searxng_locale", "expected"),
    [
        ("en-US", ("en", "US", "en-US")),
        ("en", ("en", "US", "en-US")),
        ("pl", ("pl", "PL", "pl-PL")),
        ("de", ("de", "DE", "de-DE")),
        ("de-AT", ("de", "AT", "de-AT")),
        ("fr-CA", ("fr", "CA", "fr-CA")),
        ("en-GB", ("en-gb", "GB", "en-GB")),
    ],
)
def test_locale_maps_to_brave_language_country_and_market(
    searxng_locale: str, expected: tuple[str, str, str]
) -> None:
    assert engine.brave_locale(searxng_locale, POLISH) == expected


@pytest.mark.parametrize(
    ("searxng_locale", "expected"),
    [
        ("ja", ("jp", "JP", "ja-JP")),
        ("ja-JP", ("jp", "JP", "ja-JP")),
        ("zh-TW", ("zh-hant", "TW", "zh-TW")),
        ("zh-HK", ("zh-hant", "HK", "zh-HK")),
        ("zh", ("zh-hans", "CN", "zh-CN")),
        ("zh-CN", ("zh-hans", "CN", "zh-CN")),
        ("pt", ("pt-br", "BR", "pt-BR")),
        ("pt-PT", ("pt-pt", "PT", "pt-BR")),
        ("nb-NO", ("nb", "NO", "no-NO")),
    ],
)
def test_languages_brave_spells_its_own_way(searxng_locale: str, expected: tuple[str, str, str]) -> None:
    assert engine.brave_locale(searxng_locale, POLISH) == expected


@pytest.mark.parametrize("searxng_locale", ["cy", "cy-GB", "xx", "not a locale", "en-US-x-what"])
def test_unsupported_language_falls_back_to_all_defaults(searxng_locale: str) -> None:
    assert engine.brave_locale(searxng_locale, POLISH) == POLISH


def test_supported_language_in_unlisted_country_searches_all_countries_in_its_main_market() -> None:
    assert engine.brave_locale("de-LU", POLISH) == ("de", "ALL", "de-DE")


def test_supported_language_without_a_brave_market_keeps_the_default_ui_lang() -> None:
    assert engine.brave_locale("cs-CZ", POLISH) == ("cs", "ALL", "pl-PL")


# --- shorten_query -------------------------------------------------------------------


def test_query_within_the_limits_is_unchanged() -> None:
    query = " ".join(["word"] * 50)
    assert engine.shorten_query(query) == query


def test_query_over_fifty_words_keeps_the_first_fifty() -> None:
    words = [f"w{i}" for i in range(60)]
    assert engine.shorten_query(" ".join(words)) == " ".join(words[:50])


def test_query_over_400_characters_is_cut_at_a_word_boundary() -> None:
    query = " ".join(["abcdefghi"] * 45)  # 449 characters, 45 words
    assert engine.shorten_query(query) == " ".join(["abcdefghi"] * 40)  # 399 characters


def test_single_word_over_400_characters_is_cut_to_400() -> None:
    assert engine.shorten_query("x" * 450) == "x" * 400


# --- rate_limit_suspension -----------------------------------------------------------


def test_braves_month_is_read_with_the_same_rules_as_its_429s() -> None:
    headers = {
        "X-RateLimit-Limit": "1, 2000",
        "X-RateLimit-Remaining": "1, 1500",
        "X-RateLimit-Reset": "0.4, 86399.2",
    }
    assert engine.brave_month(headers) == (2000, 1500, 86400)
    assert engine.rate_limit_suspension({**headers, "X-RateLimit-Remaining": "1, 0"}, None) == 86400


def test_a_month_without_all_three_figures_is_not_reported() -> None:
    assert engine.brave_month({"X-RateLimit-Limit": "1, 2000", "X-RateLimit-Reset": "1, 86400"}) is None


def test_per_second_limit_suspends_until_the_per_second_reset() -> None:
    headers = {"X-RateLimit-Remaining": "0, 14210", "X-RateLimit-Reset": "1, 1419704"}
    assert engine.rate_limit_suspension(headers, "RATE_LIMITED") == 1


def test_spent_month_suspends_until_the_monthly_reset() -> None:
    headers = {"X-RateLimit-Remaining": "0, 0", "X-RateLimit-Reset": "1, 1419704"}
    assert engine.rate_limit_suspension(headers, "RATE_LIMITED") == 1419704


def test_quota_limited_code_suspends_until_the_monthly_reset() -> None:
    headers = {"X-RateLimit-Remaining": "1, 3", "X-RateLimit-Reset": "1, 86400"}
    assert engine.rate_limit_suspension(headers, "QUOTA_LIMITED") == 86400


def test_header_names_are_case_insensitive() -> None:
    headers = {"x-ratelimit-remaining": "0, 10", "x-ratelimit-reset": "7, 99"}
    assert engine.rate_limit_suspension(headers, None) == 7


def test_suspension_is_at_least_one_second() -> None:
    headers = {"X-RateLimit-Remaining": "0, 10", "X-RateLimit-Reset": "0, 99"}
    assert engine.rate_limit_suspension(headers, "RATE_LIMITED") == 1


def test_fractional_reset_rounds_up() -> None:
    headers = {"X-RateLimit-Remaining": "0, 10", "X-RateLimit-Reset": "2.2, 99"}
    assert engine.rate_limit_suspension(headers, "RATE_LIMITED") == 3


@pytest.mark.parametrize("reset", [None, "", "soon, later", "-5, -1", "nan, inf"])
def test_per_second_limit_without_readable_reset_suspends_a_minute(reset: str | None) -> None:
    headers = {} if reset is None else {"X-RateLimit-Reset": reset}
    assert engine.rate_limit_suspension(headers, "RATE_LIMITED") == 60


def test_quota_limit_without_readable_reset_leaves_searxngs_default() -> None:
    assert engine.rate_limit_suspension({"X-RateLimit-Reset": "1"}, "QUOTA_LIMITED") is None


def test_unknown_429_without_headers_leaves_searxngs_default() -> None:
    assert engine.rate_limit_suspension({}, None) is None


# --- brave_error ---------------------------------------------------------------------


def test_error_code_is_read_from_an_errors_list() -> None:
    body = {
        "type": "ErrorResponse",
        "errors": [{"code": "RATE_LIMITED", "detail": "Slow down", "status": 429}],
    }
    assert engine.brave_error(body) == ("RATE_LIMITED", "Slow down")


def test_error_code_is_read_from_an_error_object() -> None:
    body = {"type": "ErrorResponse", "error": {"code": "SUBSCRIPTION_TOKEN_INVALID", "status": 422}}
    assert engine.brave_error(body) == ("SUBSCRIPTION_TOKEN_INVALID", None)


@pytest.mark.parametrize("body", [None, "text", [], {}, {"errors": []}, {"errors": ["x"]}, {"error": "x"}])
def test_error_body_without_a_code_gives_none(body: object) -> None:
    assert engine.brave_error(body) == (None, None)


# --- request -------------------------------------------------------------------------


def _params(**changes: Any) -> dict[str, Any]:
    params: dict[str, Any] = {
        "pageno": 1,
        "safesearch": 0,
        "time_range": None,
        "searxng_locale": "all",
        "headers": {},
        "url": "",
        "raise_for_httperror": True,
    }
    return params | changes


@pytest.fixture
def configured(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The engine configured as settings.yml configures it, with a fake key."""
    for name, value in [
        ("api_key", FAKE_KEY),
        ("base_url", "http://127.0.0.1:9/res/v1/web/search"),
        ("results_per_page", 20),
        ("search_lang", "pl"),
        ("country", "PL"),
        ("ui_lang", "pl-PL"),
    ]:
        monkeypatch.setattr(engine, name, value)
    return engine


def test_request_sends_every_parameter_brave_needs(configured: Any) -> None:
    params = _params()
    configured.request("python typing", params)
    url = urlsplit(params["url"])
    assert url._replace(query="").geturl() == "http://127.0.0.1:9/res/v1/web/search"
    assert dict(parse_qsl(url.query)) == {
        "q": "python typing",
        "count": "20",
        "offset": "0",
        "country": "PL",
        "search_lang": "pl",
        "ui_lang": "pl-PL",
        "safesearch": "off",
        "extra_snippets": "true",
        "text_decorations": "false",
        "spellcheck": "false",
    }


def test_request_sends_the_key_and_asks_for_json_and_reads_errors_itself(configured: Any) -> None:
    params = _params()
    configured.request("python", params)
    assert params["headers"] == {"X-Subscription-Token": FAKE_KEY, "Accept": "application/json"}
    assert params["raise_for_httperror"] is False


def test_second_page_asks_for_page_index_one(configured: Any) -> None:
    params = _params(pageno=2)
    configured.request("python", params)
    assert "&offset=1&" in params["url"]


def test_page_beyond_ten_makes_no_request(configured: Any) -> None:
    params = _params(pageno=11)
    configured.request("python", params)
    assert params["url"] is None


@pytest.mark.parametrize(("setting", "count"), [(50, "20"), (0, "1"), (10, "10")])
def test_results_per_page_is_clamped_to_braves_range(configured: Any, setting: int, count: str) -> None:
    configured.results_per_page = setting
    params = _params()
    configured.request("python", params)
    assert f"&count={count}&" in params["url"]


@pytest.mark.parametrize(
    ("time_range", "freshness"), [("day", "pd"), ("week", "pw"), ("month", "pm"), ("year", "py")]
)
def test_time_range_becomes_freshness(configured: Any, time_range: str, freshness: str) -> None:
    params = _params(time_range=time_range)
    configured.request("python", params)
    assert params["url"].endswith(f"&freshness={freshness}")


@pytest.mark.parametrize(("level", "value"), [(0, "off"), (1, "moderate"), (2, "strict")])
def test_safesearch_level_is_always_sent(configured: Any, level: int, value: str) -> None:
    params = _params(safesearch=level)
    configured.request("python", params)
    assert f"&safesearch={value}&" in params["url"]


def test_query_locale_overrides_the_default_locale(configured: Any) -> None:
    params = _params(searxng_locale="en-US")
    configured.request("python", params)
    assert "&country=US&search_lang=en&ui_lang=en-US&" in params["url"]


def test_overlong_query_is_sent_shortened(configured: Any) -> None:
    params = _params()
    configured.request(" ".join(f"w{i}" for i in range(60)), params)
    assert "q=" + "+".join(f"w{i}" for i in range(50)) + "&count=" in params["url"]


# --- setup ---------------------------------------------------------------------------


def test_without_any_key_the_engine_loads_says_how_to_set_one_and_refuses_to_ask_brave(
    configured: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(configured, "api_key", "")
    monkeypatch.setenv("BRAVE_API_KEY", "   ")
    with caplog.at_level(logging.WARNING):
        assert configured.setup({"name": "brave api"}) is True
    assert "BRAVE_API_KEY" in caplog.text
    assert "api-dashboard.search.brave.com" in caplog.text
    params = _params()
    with pytest.raises(configured.BraveKeyMissing):
        configured.request("python", params)
    assert not params.get("url")


def test_empty_key_setting_reads_brave_api_key_from_the_environment(
    configured: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(configured, "api_key", "")
    monkeypatch.setenv("BRAVE_API_KEY", f" {FAKE_KEY}\n")
    assert configured.setup({"name": "brave api"}) is True
    assert configured.api_key == FAKE_KEY


def test_setup_warns_about_unknown_codes_without_logging_the_key(
    configured: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)
    monkeypatch.setattr(configured, "country", "XX")  # provokes a warning line
    with caplog.at_level(logging.DEBUG):
        assert configured.setup({"name": "brave api"}) is True
    assert "country 'XX'" in caplog.text
    assert FAKE_KEY not in caplog.text


@pytest.mark.parametrize("ui_lang", ["de-DE", "fr-FR"])
def test_setup_warns_that_ages_in_another_ui_lang_go_unread(
    configured: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, ui_lang: str
) -> None:
    monkeypatch.setattr(configured, "ui_lang", ui_lang)
    with caplog.at_level(logging.WARNING):
        assert configured.setup({"name": "brave api"}) is True
    assert f"ui_lang {ui_lang!r}" in caplog.text
    assert "only English and Polish" in caplog.text


@pytest.mark.parametrize("ui_lang", ["pl-PL", "en-US", "en-GB"])
def test_setup_is_silent_about_english_and_polish_ages(
    configured: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, ui_lang: str
) -> None:
    monkeypatch.setattr(configured, "ui_lang", ui_lang)
    with caplog.at_level(logging.WARNING):
        assert configured.setup({"name": "brave api"}) is True
    assert caplog.text == ""


# --- response ------------------------------------------------------------------------


class FakeResponse:
    """What response() reads of SearXNG's response: status, headers, JSON body."""

    def __init__(self, status_code: int, body: Any = None, headers: dict[str, str] | None = None):
        self.status_code = status_code
        self.headers = headers or {}
        self.text = body if isinstance(body, str) else json.dumps(body)

    def json(self) -> Any:
        return json.loads(self.text)


def _answer() -> dict[str, Any]:
    return dict(json.loads((REPO / "tests" / "fixtures" / "brave" / "web-answer.json").read_text()))


def _by_url(results: list[Any]) -> dict[str, Any]:
    return {result.url: result for result in results}


def test_web_result_content_is_the_date_and_the_merged_snippets(configured: Any) -> None:
    result = _by_url(configured.response(FakeResponse(200, _answer())))[
        "https://docs.python.org/3/library/typing.html"
    ]
    assert result.content == (
        "2025-10-01 — This module provides runtime support for type hints. Consider the function below: "
        "The function surface_area_of_cube takes an argument expected to be an instance of float, as "
        "indicated by the type hint edge_length: float. | Protocol classes can be generic, for example: "
        "class GenProto[T](Protocol): def meth(self) -> T: ... In code that needs to be compatible with "
        "Python 3.11 or older, generic Protocols can be written as follows. | Structural subtyping "
        "(static duck-typing): a class is considered a subtype of a protocol if it has all the members "
        "the protocol declares, with compatible types, whether or not it inherits from it."
    )
    assert result.publishedDate == datetime.datetime(2025, 10, 1)


def test_web_result_title_is_markup_free(configured: Any) -> None:
    results = _by_url(configured.response(FakeResponse(200, _answer())))
    assert results["https://docs.python.org/3/library/typing.html"].title == (
        "typing — Support for type hints — Python 3.13 documentation"
    )
    assert results["https://mypy.readthedocs.io/en/stable/protocols.html"].title == (
        "Protocols and structural subtyping & you - mypy 1.18 documentation"
    )


def test_thumbnail_is_kept_but_a_logo_is_not(configured: Any) -> None:
    results = _by_url(configured.response(FakeResponse(200, _answer())))
    assert results["https://mypy.readthedocs.io/en/stable/protocols.html"].thumbnail == (
        "https://imgs.search.brave.com/fake-thumb/mypy.png"
    )
    assert results["https://docs.python.org/3/library/typing.html"].thumbnail == ""


def test_undated_web_result_has_no_date(configured: Any) -> None:
    result = _by_url(configured.response(FakeResponse(200, _answer())))["https://peps.python.org/pep-0544/"]
    assert result.publishedDate is None
    assert result.content.startswith("Type hints introduced in PEP 484")


def test_news_faq_and_discussions_become_results_too(configured: Any) -> None:
    results = _by_url(configured.response(FakeResponse(200, _answer())))
    assert results["https://example.org/news/python-3-14"].content == (
        "2025-10-07 — The Python Software Foundation released Python 3.14, making annotations lazily "
        'evaluated by default "at last". | Annotations are now evaluated only when inspected, which '
        "removes most needs for string forward references."
    )
    faq = results["https://example.org/faq/protocols"]
    assert (faq.title, faq.content) == (
        "Python Protocols explained",
        "What is a Protocol in Python typing? | A Protocol defines a set of methods and attributes; any "
        "class that has them is accepted, without inheriting from the protocol.",
    )
    assert results["https://www.reddit.com/r/learnpython/comments/abc123/protocol_vs_abc/"].content == (
        "2025-10-01 — r/learnpython | When should I use typing.Protocol instead of abc.ABC? | Use a "
        "Protocol when you do not control the classes that should match; use an ABC when you want "
        "inheritance and shared code."
    )


def test_result_without_url_or_title_is_skipped_and_the_rest_kept(configured: Any) -> None:
    answer = {"web": {"results": [{"title": "no url"}, {"url": "https://a.example/"}, "junk", None]}}
    answer["web"]["results"].append({"url": "https://b.example/", "title": "<strong>B</strong>"})
    results = configured.response(FakeResponse(200, answer))
    assert [(r.url, r.title, r.content) for r in results] == [("https://b.example/", "B", "")]


def test_answer_without_sections_is_an_empty_success(configured: Any) -> None:
    assert list(configured.response(FakeResponse(200, {"type": "search", "query": {}}))) == []


@pytest.mark.parametrize(
    "body", ["<html>not json</html>", [1, 2], {"web": {"results": "oops"}}, {"web": []}, {"news": "x"}]
)
def test_malformed_answer_is_an_api_error(configured: Any, body: Any) -> None:
    with pytest.raises(SearxEngineAPIException):
        configured.response(FakeResponse(200, body))


def test_an_absurd_reset_suspends_the_engine_for_a_month_at_most(configured: Any) -> None:
    body = {"error": {"code": "QUOTA_LIMITED", "status": 429}}
    headers = {"X-RateLimit-Remaining": "1, 0", "X-RateLimit-Reset": "1, " + "9" * 400}
    with pytest.raises(SearxEngineTooManyRequestsException) as raised:
        configured.response(FakeResponse(429, body, headers))
    assert raised.value.suspended_time == 31 * 86400


def test_rate_limit_suspends_the_engine_until_braves_reset(configured: Any) -> None:
    body = {"type": "ErrorResponse", "errors": [{"code": "RATE_LIMITED", "status": 429}]}
    headers = {"X-RateLimit-Remaining": "0, 14210", "X-RateLimit-Reset": "1, 1419704"}
    with pytest.raises(SearxEngineTooManyRequestsException) as raised:
        configured.response(FakeResponse(429, body, headers))
    assert raised.value.suspended_time == 1


def test_spent_quota_suspends_the_engine_until_the_month_resets(configured: Any) -> None:
    body = {"error": {"code": "QUOTA_LIMITED", "status": 429}}
    headers = {"X-RateLimit-Remaining": "1, 0", "X-RateLimit-Reset": "1, 1419704"}
    with pytest.raises(SearxEngineTooManyRequestsException) as raised:
        configured.response(FakeResponse(429, body, headers))
    assert raised.value.suspended_time == 1419704


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (422, {"type": "ErrorResponse", "errors": [{"code": "SUBSCRIPTION_TOKEN_INVALID", "status": 422}]}),
        (422, {"error": {"code": "SUBSCRIPTION_TOKEN_INVALID", "detail": f"bad token {FAKE_KEY}"}}),
        (401, None),
        (403, "Forbidden"),
    ],
)
def test_rejected_key_denies_access_and_logs_what_to_do_without_the_key(
    configured: Any, caplog: pytest.LogCaptureFixture, status: int, body: Any
) -> None:
    with caplog.at_level(logging.ERROR), pytest.raises(SearxEngineAccessDeniedException) as raised:
        configured.response(FakeResponse(status, body))
    assert type(raised.value) is SearxEngineAccessDeniedException
    assert "BRAVE_API_KEY" in caplog.text
    assert FAKE_KEY not in caplog.text + raised.value.message


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (422, {"type": "ErrorResponse", "errors": [{"code": "VALIDATION", "detail": "q is too long"}]}),
        (500, "Internal Server Error"),
        (503, None),
    ],
)
def test_other_error_statuses_are_api_errors(configured: Any, status: int, body: Any) -> None:
    with pytest.raises(SearxEngineAPIException, match=f"HTTP {status}"):
        configured.response(FakeResponse(status, body))


# --- properties ----------------------------------------------------------------------

WORDY = st.text(alphabet=string.ascii_letters + string.digits + " .,\n", max_size=120)


def _spaced(text: str) -> str:
    return " ".join(text.casefold().split())


@given(WORDY, st.lists(st.one_of(st.none(), WORDY), max_size=6))
def test_merging_never_loses_a_snippets_words(description: str, extra: list[str | None]) -> None:
    merged = _spaced(engine.merge_snippets(description, extra))
    for piece in [description, *extra]:
        # "..." at an excerpt's edge marks Brave's truncation; it is not text of the page.
        words = _spaced(piece or "").removeprefix("...").removesuffix("...").strip()
        assert words in merged


# An excerpt as Brave may send it, and the plain text a reader must find of it: words with
# characters that arrive as entities, highlight tags around some words, and spacing or line
# breaks of any kind between them.
WORD = st.text(alphabet=string.ascii_letters + string.digits + "&<>\"'", min_size=1, max_size=8)
ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
HIGHLIGHTS = ["{}", "<strong>{}</strong>", "<b>{}</b>", "<em>{}</em>", "<MARK>{}</MARK>"]
GAPS = [" ", "  ", "\n", "\t", "<br>", " <br/> "]


@st.composite
def marked_up_excerpt(draw: st.DrawFn) -> tuple[str, str]:
    """(the excerpt as sent, its words as plain text with single spaces)."""
    words = draw(st.lists(WORD, min_size=1, max_size=6))
    sent = draw(st.sampled_from(GAPS))
    for word in words:
        # quotes arrive either way; & < > always as entities (a bare "&amp" would itself be one)
        encoded = "".join(ENTITIES.get(c, c) if draw(st.booleans()) or c in "&<>" else c for c in word)
        sent += draw(st.sampled_from(HIGHLIGHTS)).format(encoded) + draw(st.sampled_from(GAPS))
    return sent, " ".join(words)


@given(marked_up_excerpt(), st.lists(marked_up_excerpt(), max_size=6))
def test_merging_marked_up_excerpts_keeps_each_ones_plain_text(
    description: tuple[str, str], extra: list[tuple[str, str]]
) -> None:
    merged = engine.merge_snippets(description[0], [sent for sent, _ in extra]).casefold()
    for _, plain in [description, *extra]:
        assert plain.casefold() in merged


@given(st.one_of(st.none(), st.text()), st.one_of(st.none(), st.text()))
def test_date_parsing_any_text_gives_none_or_a_plausible_date(page_age: str | None, age: str | None) -> None:
    found = engine.parse_publication_date(page_age, age, NOW)
    assert found is None or datetime.date(1991, 1, 1) <= found <= datetime.date(2025, 10, 5)


BABEL_LOCALES = [tag.replace("_", "-") for tag in babel.localedata.locale_identifiers()]


@given(st.one_of(st.sampled_from(BABEL_LOCALES), st.text(max_size=12)))
def test_brave_locale_always_gives_values_brave_documents(searxng_locale: str) -> None:
    found = engine.brave_locale(searxng_locale, POLISH)
    assert found.search_lang in engine.SEARCH_LANGS
    assert found.country in engine.COUNTRIES
    assert found.ui_lang in engine.UI_LANGS


@given(st.text(alphabet=string.ascii_lowercase + " ", max_size=1200))
def test_shortened_query_fits_braves_limits_and_starts_like_the_query(query: str) -> None:
    short = engine.shorten_query(query)
    assert len(short) <= 400
    assert len(short.split()) <= 50
    assert query.split()[: len(short.split())] == short.split()
