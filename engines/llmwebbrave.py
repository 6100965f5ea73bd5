# SPDX-License-Identifier: AGPL-3.0-or-later
"""Brave Search API engine for llmweb: the whole Brave answer, dated and localised.

Unlike upstream's ``braveapi`` it pages with Brave's page index, filters by ``freshness``,
sends a locale (Polish by default), joins ``extra_snippets``, dates results from
``page_age``, maps news, FAQ and discussions too, and suspends itself as Brave's 429 and
key errors say. A result's ``content`` is ``YYYY-MM-DD — description | extra snippet | …``.

Configuration
=============

.. code:: yaml

  - name: brave api
    engine: llmwebbrave
    shortcut: bapi
    api_key: ""          # empty: read BRAVE_API_KEY (or the file BRAVE_API_KEY_FILE names)
    search_lang: pl
    country: PL
    ui_lang: pl-PL
    results_per_page: 20

Without a key (neither ``api_key``, ``BRAVE_API_KEY`` nor ``BRAVE_API_KEY_FILE``) the engine still loads, asks Brave
nothing, and answers every search with the error "Brave API key missing", so a JSON client
sees it in ``unresponsive_engines`` instead of a silent absence.
The file is self-contained: it is mounted alone into SearXNG's ``searx/engines/``.
"""

import datetime
import functools
import html
import logging
import math
import os
import re
import typing as t
from collections.abc import Iterable, Mapping
from urllib.parse import urlencode

import babel
from babel.core import get_global
from dateutil.relativedelta import relativedelta
from searx import webutils
from searx.exceptions import (
    SearxEngineAccessDeniedException,
    SearxEngineAPIException,
    SearxEngineTooManyRequestsException,
)
from searx.result_types import EngineResults, MainResult
from searx.utils import html_to_text

if t.TYPE_CHECKING:
    from searx.extended_types import SXNG_Response
    from searx.search.processors import OnlineParams

# SearXNG replaces this with its engine logger when it loads the engine.
logger = logging.getLogger(__name__)

about = {
    "website": "https://api.search.brave.com/",
    "wikidata_id": None,
    "official_api_documentation": "https://api-dashboard.search.brave.com/documentation",
    "use_official_api": True,
    "require_api_key": True,
    "results": "JSON",
}

categories = ["general", "web"]
paging = True
safesearch = True
time_range_support = True
max_page = 10
"""Brave serves ten pages at most (``offset`` 0–9); SearXNG skips the engine beyond."""

api_key: str = ""
"""Brave Search API key; empty means: read ``BRAVE_API_KEY`` from the environment, or the file
``BRAVE_API_KEY_FILE`` names (a Docker or Swarm secret, deploy/swarm.yml)."""

base_url: str = "https://api.search.brave.com/res/v1/web/search"
"""Brave's web search endpoint."""

results_per_page: int = 20
"""Web results per page, clamped to Brave's 1–20."""

search_lang: str = "pl"
"""``search_lang`` when the query's locale is ``all``, ``auto`` or not supported by Brave."""

country: str = "PL"
"""``country`` when the query's locale is ``all``, ``auto`` or not supported by Brave."""

ui_lang: str = "pl-PL"
"""``ui_lang`` when the query's locale is ``all``, ``auto`` or not supported by Brave."""

spellcheck: bool = False
"""With spellcheck on, Brave silently searches its own correction; model clients search
exact identifiers and error messages, so it is off unless turned on here."""

monthly_budget: int = 900
"""Brave requests allowed per month, counted in valkey for every worker and replica (Brave's
own monthly window once its headers report one); 0: no cap. 900 keeps a household inside
Brave's free monthly credit (about 1,000 searches) with room for other uses of the key."""

daily_budget: int = 300
"""Brave requests allowed per UTC day; 0: no cap. A model stuck in a loop then spends at
most a third of the month's budget before the day ends."""

cache_seconds: int = 21600
"""How long the same Brave request is answered from the cache (at most an hour when it asks
for the past day's results); 0 switches the cache off."""

cache_entries: int = 2000
"""The most answers the cache keeps (about 10 KB each in valkey), and as many of SearXNG's JSON
answers to searches only this engine answers (plugins/json_answers.py)."""

# Brave's documented codes (api-dashboard.search.brave.com, web-search/codes). Word lists
# read like Brave's tables and stay short, hence the noqa.
SEARCH_LANGS = frozenset(
    """ar eu bn bg ca zh-hans zh-hant hr cs da nl en en-gb et fi fr gl de gu he hi hu is it jp kn ko lv
    lt ms ml mr nb pl pt-br pt-pt pa ro ru sr sk sl es sv ta te th tr uk vi""".split()  # noqa: SIM905
)
COUNTRIES = frozenset(
    """AR AU AT BE BR CA CL DK FI FR DE GR HK IN ID IT JP KR MY MX NL NZ NO CN PL PT PH RU SA ZA ES SE
    CH TW TR GB US ALL""".split()  # noqa: SIM905
)
UI_LANGS = tuple(
    """es-AR en-AU de-AT nl-BE fr-BE pt-BR en-CA fr-CA es-CL da-DK fi-FI fr-FR de-DE zh-HK en-IN en-ID
    it-IT ja-JP ko-KR en-MY es-MX nl-NL en-NZ no-NO zh-CN pl-PL en-PH ru-RU en-ZA es-ES sv-SE fr-CH
    de-CH zh-TW tr-TR en-GB en-US es-US""".split()  # noqa: SIM905
)

MAX_QUERY_CHARS = 400
MAX_QUERY_WORDS = 50
FRESHNESS = {"day": "pd", "week": "pw", "month": "pm", "year": "py"}
SAFESEARCH = {0: "off", 1: "moderate", 2: "strict"}

SNIPPET_SEPARATOR = " | "
"""Between excerpts. SearXNG turns newlines in ``content`` into spaces, so it must be
inline; ``|`` is ASCII and differs from the date's `` — `` and from the ``...``/``…``
Brave leaves where it truncated an excerpt."""
DATE_SEPARATOR = " — "

RATE_LIMIT_FALLBACK_SECONDS = 60
"""Suspension after a per-second 429 whose ``X-RateLimit-Reset`` is missing or garbled."""
MAX_SUSPENSION_SECONDS = 31 * 86400
"""The longest suspension a 429 can ask for: Brave's longest window is its monthly one, and no
month is longer than 31 days. A reset beyond it is garbled and is cut to it (and logged)."""
KEY_REJECTED_CODES = frozenset({"SUBSCRIPTION_TOKEN_INVALID", "SUBSCRIPTION_NOT_FOUND"})
KEY_HELP = (
    "set BRAVE_API_KEY in .env (docker compose) or in the environment of scripts/serve "
    "(or BRAVE_API_KEY_FILE naming a secret's file, or api_key in settings.yml); "
    "get a key at https://api-dashboard.search.brave.com/"
)
# No web page predates the web: earlier dates are sentinels such as 1970-01-01.
EARLIEST_DATE = datetime.date(1991, 1, 1)


SECRET_FILE_MAX_BYTES = 4096
"""A secret file longer than this holds no key (Brave's are 31 characters): refused unread."""


class SecretFileError(Exception):
    """NAME_FILE names a file that cannot serve as the secret; the message never holds its text."""


def secret_from_environment(name: str, environ: Mapping[str, str] = os.environ) -> str:
    """``name`` from the environment, or the text of the file ``name``_FILE names, as the official
    database images read theirs: Swarm's secrets are files under /run/secrets, so the key need not
    be in any container's environment. Surrounding whitespace (``echo``'s newline) is dropped;
    both set at once is an error, so it is clear which one counts. Empty: no secret."""
    path = environ.get(name + "_FILE", "").strip()
    if not path:
        return environ.get(name, "").strip()
    if environ.get(name, "").strip():
        raise SecretFileError(f"both {name} and {name}_FILE are set: set only one")
    try:
        with open(path, "rb") as file:
            data = file.read(SECRET_FILE_MAX_BYTES + 1)
    except OSError as error:
        raise SecretFileError(f"{name}_FILE names {path}, which cannot be read ({error.strerror})") from None
    if len(data) > SECRET_FILE_MAX_BYTES:
        raise SecretFileError(f"{name}_FILE names {path}, longer than {SECRET_FILE_MAX_BYTES} bytes")
    try:
        return data.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise SecretFileError(f"{name}_FILE names {path}, which is not UTF-8 text") from None


class BraveKeyMissing(Exception):
    """No key is set, so the engine asks Brave nothing."""


# SearXNG's answers show an engine's failure as a fixed text looked up by the exception's
# class name (searx.webutils.exception_classname_to_text); setup() adds the texts of ours.
ERROR_TEXTS: dict[type[Exception], str] = {
    BraveKeyMissing: "Brave API key missing: the admin should set BRAVE_API_KEY",
}


class BraveLocale(t.NamedTuple):
    search_lang: str
    country: str
    ui_lang: str


# Inline highlight tags join their words (``<strong>float</strong>,``); a line break parts them.
_HIGHLIGHT_TAG = re.compile(r"</?(?:strong|b|em|i|mark)>", re.IGNORECASE)
_LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_ELLIPSES = ("...", "…")


def clean_snippet(text: object) -> str:
    """One excerpt as plain text: highlight tags dropped, entities decoded, spaces tidied.
    Only highlight tags go, not every ``<…>``: an excerpt quoting ``<div>`` keeps it."""
    if not isinstance(text, str):
        return ""
    if "<" in text:
        text = _LINE_BREAK.sub(" ", _HIGHLIGHT_TAG.sub("", text))
    return " ".join(html.unescape(text).split())


def _comparable(text: str) -> str:
    # String methods, not a regex: an unanchored "\s*…$" pattern rescans the text from
    # every position and cost a millisecond per answer.
    key = text.casefold()
    for mark in _ELLIPSES:
        key = key.removeprefix(mark).removesuffix(mark)
    return key.strip()


def merge_snippets(description: str | None, extra: Iterable[str | None] | None) -> str:
    """The description and the extra snippets as one text, in Brave's order.

    An excerpt contained in a kept one (ignoring case, spacing and an ellipsis at its ends)
    is dropped; a kept one contained in a later excerpt is replaced by it in place."""
    kept: list[tuple[str, str]] = []  # (text, comparable text)
    for piece in [description, *([extra] if isinstance(extra, str) else extra or [])]:
        text = clean_snippet(piece)
        key = _comparable(text)
        if not key or any(key in kept_key for _, kept_key in kept):
            continue
        covered = [i for i, (_, kept_key) in enumerate(kept) if kept_key in key]
        if covered:
            kept[covered[0]] = (text, key)
            kept = [k for i, k in enumerate(kept) if i not in covered[1:]]
        else:
            kept.append((text, key))
    return SNIPPET_SEPARATOR.join(text for text, _ in kept)


DATE_LANGUAGES = ("en", "pl")
"""The languages of Brave's ``age`` text this engine reads (the month names and relative
forms below); with ``ui_lang`` in another, results Brave dates only by ``age`` go undated."""
_MONTH_NAMES = """january february march april may june july august september october
    november december""".split()  # noqa: SIM905 - reads as the calendar does
# Brave writes ``age`` in the language of ui_lang, Polish by default: Polish month names
# (genitive as in "7 października 2024", nominative, abbreviations) count too.
_POLISH_MONTHS = """stycznia/styczeń/sty lutego/luty/lut marca/marzec/mar kwietnia/kwiecień/kwi
    maja/maj czerwca/czerwiec/cze lipca/lipiec/lip sierpnia/sierpień/sie
    września/wrzesień/wrz października/październik/paź listopada/listopad/lis
    grudnia/grudzień/gru""".split()  # noqa: SIM905
# Names spelled out here: Python's %B would follow the process locale.
_MONTHS = (
    {name: n for n, full in enumerate(_MONTH_NAMES, 1) for name in (full, full[:3])}
    | {"sept": 9}
    | {name: n for n, names in enumerate(_POLISH_MONTHS, 1) for name in names.split("/")}
)
_MONTH_DAY_YEAR = re.compile(r"(?P<month>[^\W\d_]+)\.? (?P<day>\d{1,2}),? (?P<year>\d{4})")
_DAY_MONTH_YEAR = re.compile(r"(?P<day>\d{1,2})\.? (?P<month>[^\W\d_]+)\.?,? (?P<year>\d{4})")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[t ][0-9:.]+(?:z|[+-]\d{2}:?\d{2})?)?")
_RELATIVE = re.compile(r"(?P<n>\d{1,4}|an?|one) (?P<unit>second|minute|hour|day|week|month|year)s? ago")
# "3 dni temu", "godzinę temu", "2 tygodnie temu", "rok temu": the unit's stem decides.
_RELATIVE_POLISH = re.compile(r"(?:(?P<n>\d{1,4}) )?(?P<unit>[^\W\d_]+) temu")
_POLISH_UNITS = (
    ("sekund", "second"),
    ("minut", "minute"),
    ("godzin", "hour"),
    ("dzień", "day"),
    ("dni", "day"),
    ("tydzień", "week"),
    ("tygodni", "week"),
    ("miesiąc", "month"),
    ("miesięc", "month"),
    ("rok", "year"),
    ("lat", "year"),
)
_SAME_AS = {
    "yesterday": "1 day ago",
    "today": "0 days ago",
    "just now": "0 days ago",
    "wczoraj": "1 day ago",
    "dzisiaj": "0 days ago",
    "dziś": "0 days ago",
    "przed chwilą": "0 days ago",
}


def _absolute_date(text: str) -> datetime.date | None:
    if _ISO_DATE.fullmatch(text):
        return datetime.date(int(text[:4]), int(text[5:7]), int(text[8:10]))
    match = _MONTH_DAY_YEAR.fullmatch(text) or _DAY_MONTH_YEAR.fullmatch(text)
    if match and match["month"] in _MONTHS:
        return datetime.date(int(match["year"]), _MONTHS[match["month"]], int(match["day"]))
    return None


def _english_relative(text: str) -> str:
    """A Polish relative age in the English shape ``_RELATIVE`` reads, else the text."""
    text = _SAME_AS.get(text, text)
    match = _RELATIVE_POLISH.fullmatch(text)
    if not match:
        return text
    unit = next((english for stem, english in _POLISH_UNITS if match["unit"].startswith(stem)), None)
    return f"{match['n'] or 1} {unit}s ago" if unit else text


def _relative_date(text: str, now: datetime.datetime) -> datetime.date | None:
    match = _RELATIVE.fullmatch(_english_relative(text))
    if not match:
        return None
    n = int(match["n"]) if match["n"].isdigit() else 1
    unit = match["unit"] + "s"
    if unit in ("months", "years"):
        day: datetime.date = now.date() - relativedelta(**{unit: n})
        return day
    return (now - datetime.timedelta(**{unit: n})).date()


def parse_publication_date(
    page_age: str | None, age: str | None, now: datetime.datetime
) -> datetime.date | None:
    """Publication date from ``page_age`` (ISO datetime), else from ``age``.

    ``age`` may be absolute ("October 1, 2025", "Oct 1, 2025", "1 October 2025",
    "7 października 2024") or relative ("3 days ago", "an hour ago", "yesterday",
    "3 dni temu", "wczoraj"), counted back from ``now`` (UTC).
    Any other shape, a date before the web or one more than a day after ``now`` gives
    None: no guessed dates."""
    for value, relative_ok in ((page_age, False), (age, True)):
        if not isinstance(value, str):
            continue
        text = " ".join(value.casefold().split())
        try:
            found = _absolute_date(text) or (_relative_date(text, now) if relative_ok else None)
        except (ValueError, OverflowError):
            found = None
        if found and EARLIEST_DATE <= found <= now.date() + datetime.timedelta(days=1):
            return found
    return None


def dated_content(published: datetime.date | None, text: str) -> str:
    """``content``: the ISO date and DATE_SEPARATOR in front of ``text`` when there is a date."""
    if published is None:
        return text
    return f"{published.isoformat()}{DATE_SEPARATOR}{text}" if text else published.isoformat()


def _likely_subtags(key: str) -> tuple[str | None, str | None]:
    """(script, territory) CLDR expects, e.g. ``pl`` → (Latn, PL), ``zh_Hant`` → (Hant, TW)."""
    parts = str(get_global("likely_subtags").get(key, "")).split("_")[1:]
    script = next((p for p in parts if len(p) == 4), None)
    return script, next((p for p in parts if len(p) == 2), None)


@functools.lru_cache(maxsize=256)  # a handful of locales; babel's parsing cost a search 0.1 ms
def brave_locale(searxng_locale: str | None, defaults: BraveLocale) -> BraveLocale:
    """Brave's search_lang, country and ui_lang for a SearXNG locale (``en-US``, ``de``, …).

    A bare language takes its most likely country. A language Brave does not search in
    gives ``defaults``. A supported language in a country Brave does not list is searched
    in ``ALL`` countries (rather than in some other one), with ui_lang from the language's
    main market, else any market of the language, else the default."""
    if not searxng_locale or searxng_locale in ("all", "auto"):
        return defaults
    try:
        locale = babel.Locale.parse(searxng_locale, sep="-")
    except (ValueError, TypeError, babel.UnknownLocaleError):
        return defaults
    language = locale.language
    likely_script, likely_territory = _likely_subtags(
        f"{language}_{locale.script}" if locale.script else language
    )
    script = locale.script or likely_script
    territory = locale.territory or likely_territory
    if language == "zh":
        lang = "zh-hant" if script == "Hant" else "zh-hans"
    elif language == "pt":
        lang = "pt-br" if territory == "BR" else "pt-pt"
    elif language == "en" and territory == "GB":
        lang = "en-gb"
    else:
        lang = {"ja": "jp", "no": "nb", "nn": "nb"}.get(language, language)
    if lang not in SEARCH_LANGS:
        return defaults
    market = "no" if lang == "nb" else language  # Brave's market for Norwegian is no-NO
    candidates = [f"{market}-{territory}", f"{market}-{likely_territory}"]
    candidates += [code for code in UI_LANGS if code.startswith(market + "-")]
    ui = next((code for code in candidates if code in UI_LANGS), defaults.ui_lang)
    return BraveLocale(lang, territory if territory in COUNTRIES else "ALL", ui)


def shorten_query(query: str, max_chars: int = MAX_QUERY_CHARS, max_words: int = MAX_QUERY_WORDS) -> str:
    """The query cut at a word boundary to fit Brave's limits (beyond them Brave answers 422)."""
    words = query.split()
    if len(query) <= max_chars and len(words) <= max_words:
        return query
    kept: list[str] = []
    for word in words[:max_words]:
        if len(" ".join([*kept, word])) > max_chars:
            break
        kept.append(word)
    # A first word longer than the limit has no boundary to cut at.
    return " ".join(kept) if kept else (words[0][:max_chars] if words else "")


_SECONDS = re.compile(r"\d+(?:\.\d+)?")


class RateLimitWindow(t.NamedTuple):
    """One of Brave's windows as its ``X-RateLimit-*`` headers state it; None: not stated or garbled."""

    limit: int | None
    remaining: int | None
    reset: int | None


_HEADER_NUMBER_CEILING = 2.0**53  # any bigger stated number is garbled; float() of 400 nines is inf


def _header_number(part: str) -> int | None:
    part = part.strip()
    return math.ceil(min(float(part), _HEADER_NUMBER_CEILING)) if _SECONDS.fullmatch(part) else None


def _header_numbers(headers: Mapping[str, str], name: str) -> list[int | None]:
    value = next((v for k, v in headers.items() if k.lower() == name), "")
    return [_header_number(part) for part in str(value).split(",")]


def brave_rate_limits(headers: Mapping[str, str]) -> tuple[RateLimitWindow, RateLimitWindow]:
    """(per second, monthly) windows from ``X-RateLimit-Limit/Remaining/Reset: <per second>, <monthly>``.

    The one reading of Brave's rate-limit headers: the engine's 429 handling and the spend
    plugin's month (plugins/spend.py, handed this function by :func:`init`) both use it."""
    columns = [
        [*_header_numbers(headers, f"x-ratelimit-{name}"), None, None]
        for name in ("limit", "remaining", "reset")
    ]
    first, second = (RateLimitWindow(*(column[i] for column in columns)) for i in (0, 1))
    return first, second


def brave_month(headers: Mapping[str, str]) -> tuple[int, int, int] | None:
    """(limit, remaining, seconds to reset) of Brave's monthly window, when all three are stated."""
    _, month = brave_rate_limits(headers)
    if month.limit is None or month.remaining is None or month.reset is None or month.limit <= 0:
        return None
    return month.limit, month.remaining, month.reset


def rate_limit_suspension(headers: Mapping[str, str], error_code: str | None) -> int | None:
    """Seconds to suspend after a 429, from ``X-RateLimit-Reset: <per second>, <monthly>``.

    The monthly window applies when Brave says QUOTA_LIMITED or none of the month remains,
    otherwise the per-second one. Without a readable reset, a per-second limit gives
    RATE_LIMIT_FALLBACK_SECONDS and an unknown cause None (SearXNG's configured default).
    The seconds are Brave's, uncapped: the caller cuts them to MAX_SUSPENSION_SECONDS."""
    second, month = brave_rate_limits(headers)
    monthly = error_code == "QUOTA_LIMITED" or month.remaining == 0
    seconds = month.reset if monthly else second.reset
    if seconds is not None:
        return max(1, seconds)
    if not monthly and (error_code == "RATE_LIMITED" or second.remaining == 0):
        return RATE_LIMIT_FALLBACK_SECONDS
    return None


def brave_error(body: object) -> tuple[str | None, str | None]:
    """(code, detail) of a Brave error body: ``{"errors": [{…}]}`` or ``{"error": {…}}``."""
    error: object = None
    if isinstance(body, dict):
        errors = body.get("errors")
        error = errors[0] if isinstance(errors, list) and errors else body.get("error")
    if not isinstance(error, dict):
        return None, None
    code, detail = error.get("code"), error.get("detail")
    return (code if isinstance(code, str) else None), (detail if isinstance(detail, str) else None)


def setup(engine_settings: dict[str, t.Any]) -> bool:
    """Take the key from the settings, BRAVE_API_KEY or BRAVE_API_KEY_FILE, and say in the log
    how the engine starts."""
    global api_key  # SearXNG engines keep their configuration as module state
    if logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)  # the start-up line is for the admin, whatever SearXNG's level
    _name_errors()
    name = engine_settings.get("name")
    if not str(api_key or "").strip():
        try:
            api_key = secret_from_environment("BRAVE_API_KEY")
        except SecretFileError as error:
            logger.error("engine %r: %s", name, error)
            api_key = ""
    api_key = str(api_key or "").strip()
    if not api_key:
        logger.warning("engine %r has no Brave Search API key and asks Brave nothing: %s", name, KEY_HELP)
        return True
    for setting, known in (("search_lang", SEARCH_LANGS), ("country", COUNTRIES), ("ui_lang", UI_LANGS)):
        if globals()[setting] not in known:
            logger.warning(
                "%s %r is not among Brave's codes; Brave may answer 422", setting, globals()[setting]
            )
    if ui_lang.split("-")[0].lower() not in DATE_LANGUAGES:
        logger.warning(
            "ui_lang %r: Brave writes a result's age in it, and only English and Polish ages are read; "
            "results dated only by their age go undated (docs/language.md)",
            ui_lang,
        )
    logger.info(
        "engine %r: Brave Search API key set; default locale %s/%s/%s", name, search_lang, country, ui_lang
    )
    return True


def init(engine_settings: dict[str, t.Any]) -> bool:
    """Put the budget and the answer cache between this engine and Brave (plugins/spend.py)."""
    # Imported here, at run time: llmweb's package is mounted beside the engine, which also
    # loads alone (in its own tests).
    from searx.plugins.llmweb import spend

    name = str(engine_settings.get("name"))
    settings = spend.SpendSettings(
        int(monthly_budget), int(daily_budget), int(cache_seconds), int(cache_entries)
    )
    spend.install(name, base_url, settings, brave_month)
    return True


def _name_errors() -> None:
    for error, text in ERROR_TEXTS.items():
        webutils.exception_classname_to_text[f"{error.__module__}.{error.__qualname__}"] = text


def request(query: str, params: "OnlineParams") -> None:
    """Fill ``params``; url None (no request) beyond page 10 or for an empty query."""
    if not api_key:
        raise BraveKeyMissing()
    q = shorten_query(query)
    if params["pageno"] > max_page or not q:
        params["url"] = None
        return
    if q != query:
        logger.warning("query shortened from %d to %d characters for Brave's limits", len(query), len(q))
    locale = brave_locale(params.get("searxng_locale"), BraveLocale(search_lang, country, ui_lang))
    args = {
        "q": q,
        "count": max(1, min(20, int(results_per_page))),
        "offset": params["pageno"] - 1,  # a page index in units of count, not a result offset
        "country": locale.country,
        "search_lang": locale.search_lang,
        "ui_lang": locale.ui_lang,
        "safesearch": SAFESEARCH.get(params["safesearch"], "moderate"),
        "extra_snippets": "true",
        "text_decorations": "false",
        "spellcheck": "true" if spellcheck else "false",
    }
    if params["time_range"] in FRESHNESS:
        args["freshness"] = FRESHNESS[params["time_range"]]
    params["url"] = f"{base_url}?{urlencode(args)}"
    params["headers"]["X-Subscription-Token"] = api_key
    params["headers"]["Accept"] = "application/json"
    params["raise_for_httperror"] = False  # response() reads Brave's status and error codes


def _json_or_none(resp: "SXNG_Response") -> object:
    try:
        return resp.json()
    except ValueError:
        return None


def _raise_for_status(resp: "SXNG_Response") -> t.NoReturn:
    code, detail = brave_error(_json_or_none(resp))
    if resp.status_code == 429:
        seconds = rate_limit_suspension(resp.headers, code)
        if seconds is not None and seconds > MAX_SUSPENSION_SECONDS:
            logger.warning(
                "Brave's X-RateLimit-Reset asks for a %d s suspension, longer than a month: cut to %d s",
                seconds,
                MAX_SUSPENSION_SECONDS,
            )
            seconds = MAX_SUSPENSION_SECONDS
        what = (
            "monthly quota is spent"
            if code == "QUOTA_LIMITED"
            else f"rate limit was hit ({code or 'HTTP 429'})"
        )
        logger.warning("Brave's %s; asking it nothing for %s", what, f"{seconds} s" if seconds else "a while")
        raise SearxEngineTooManyRequestsException(suspended_time=seconds)
    reason = " ".join(f"HTTP {resp.status_code} {code or ''} {detail or ''}".split())[:200]
    if api_key:
        reason = reason.replace(api_key, "***")
    if resp.status_code in (401, 403) or code in KEY_REJECTED_CODES:
        logger.error("Brave rejected the API key or its plan refused the request (%s): %s", reason, KEY_HELP)
        raise SearxEngineAccessDeniedException(message=f"Brave rejected the API key ({reason})")
    raise SearxEngineAPIException(f"Brave answered {reason}")


SECTIONS = ("web", "news", "faq", "discussions")
"""The parts of Brave's answer that become results, in the order they are added."""


def _items(data: dict[str, t.Any], section: str) -> list[dict[str, t.Any]] | None:
    """A section's items that are objects (a malformed item is skipped); None: the section is
    present but malformed (not ``{"results": [...]}``)."""
    part = data.get(section)
    if part is None:
        return []
    results = part.get("results", []) if isinstance(part, dict) else None
    if not isinstance(results, list):
        return None
    return [item for item in results if isinstance(item, dict)]


def _title(title: object) -> str:
    if not isinstance(title, str):
        return ""
    # Without markup or entities html_to_text only tidies spaces; its HTML parser is most of
    # a result's cost.
    return html_to_text(title) if "<" in title or "&" in title else " ".join(title.split())


# SearXNG's own whitespace rule for a result's title and content (searx.result_types, applied in
# MainResult.normalize_result_fields), spelled out so BraveResult can skip it where it changes nothing.
_SEARXNG_WHITESPACE = re.compile("( |\t|\n)+", re.M | re.U)


def searxng_tidy(text: str) -> str:
    """``text`` as SearXNG's result normalisation leaves it: runs of space, tab and newline become
    one space, and the ends are stripped. Text already in that shape (all of this engine's:
    merge_snippets and _title join words with single spaces) is returned as it is, unscanned."""
    if "\t" in text or "\n" in text or "  " in text:
        return _SEARXNG_WHITESPACE.sub(" ", text).strip()
    return text.strip()


class BraveResult(MainResult):  # type: ignore[misc]  # searx's types are Any to mypy
    """A MainResult whose title and content SearXNG's normalisation does not run its whitespace
    regex over when they are tidy already: the regex stops at every space, which cost a search
    with extra snippets (three times upstream's text) about 0.3 µs per character, the largest
    per-character cost SearXNG adds to ours. The outcome is the same text (tests/test_engine_pure.py)."""

    def normalize_result_fields(self) -> None:
        title, content = searxng_tidy(str(self.title)), searxng_tidy(str(self.content))  # type: ignore[has-type]
        # SearXNG's fields rule (URL, date, engines) on the rest; the text rule was just applied.
        self.title = self.content = ""
        super().normalize_result_fields()
        self.title, self.content = title, "" if content == title else content


def _add(
    res: EngineResults,
    item: dict[str, t.Any],
    description: object,
    extra: list[t.Any],
    now: datetime.datetime,
) -> None:
    """Add the item as a result, unless it lacks a url or a title; relative ages count back from ``now``."""
    url, title = item.get("url"), _title(item.get("title"))
    if not isinstance(url, str) or not url or not title:
        return
    published = parse_publication_date(item.get("page_age"), item.get("age"), now)
    thumbnail = item.get("thumbnail")
    src = thumbnail.get("src") if isinstance(thumbnail, dict) and not thumbnail.get("logo") else ""
    text = merge_snippets(description if isinstance(description, str) else None, extra)
    res.add(
        BraveResult(
            url=url,
            title=title,
            content=dated_content(published, text),
            publishedDate=datetime.datetime.combine(published, datetime.time()) if published else None,
            thumbnail=src if isinstance(src, str) else "",
        )
    )


def response(resp: "SXNG_Response") -> EngineResults:
    """Brave's web, news, FAQ and discussion results as SearXNG results.

    A malformed section is dropped and the others kept; only an answer whose every present
    section is malformed (nothing could be read) is an error."""
    if not 200 <= resp.status_code < 300:
        _raise_for_status(resp)
    data = _json_or_none(resp)
    if not isinstance(data, dict):
        raise SearxEngineAPIException("Brave answer is not a JSON object")
    sections = {name: _items(data, name) for name in SECTIONS}
    malformed = [name for name, items in sections.items() if items is None]
    if malformed:
        if all(sections[name] is None for name in SECTIONS if name in data):
            raise SearxEngineAPIException(f"Brave answer: {', '.join(malformed)} not readable")
        logger.warning("Brave answer: dropped malformed section(s) %s", ", ".join(malformed))
    res, now = EngineResults(), datetime.datetime.now(datetime.UTC)
    for item in (sections["web"] or []) + (sections["news"] or []):
        extra = item.get("extra_snippets")
        _add(res, item, item.get("description"), extra if isinstance(extra, list) else [], now)
    for item in sections["faq"] or []:
        titled = {**item, "title": item.get("title") or item.get("question")}
        _add(res, titled, item.get("question"), [item.get("answer")], now)
    for item in sections["discussions"] or []:
        forum = item.get("data")
        forum = forum if isinstance(forum, dict) else {}
        extra = [item.get("description"), forum.get("question"), forum.get("top_comment")]
        _add(res, item, forum.get("forum_name"), extra, now)
    return res
