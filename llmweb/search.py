"""web_search: ask the household's SearXNG over its JSON API.

"Nothing found" is a successful empty answer; "could not search" is an error
(:class:`~llmweb.errors.SearchUnavailable`) that names the engines and why they failed.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, Literal

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from llmweb import config
from llmweb.arguments import validate_arguments
from llmweb.encodable import encodable_json
from llmweb.errors import InvalidInput, SearchUnavailable, Timeout
from llmweb.tls import tls_context

TimeRange = Literal["day", "week", "month", "year"]
SafeSearch = Literal["off", "moderate", "strict"]
SAFE_SEARCH_LEVELS: dict[str, int] = {"off": 0, "moderate": 1, "strict": 2}

MAX_QUERY_CHARS = 400  # Brave's limit; longer queries only get shortened upstream.
# SearXNG's own check (searx/webutils.py VALID_LANGUAGE_CODE), plus its two keywords.
LANGUAGE_CODE = re.compile(r"^([a-z]{2,3}(-[a-zA-Z]{2})?|all|auto)$")
# ISO 639-1: a two-letter code outside it is a typo SearXNG would pass on silently, and the
# engine would then search in its default language instead.
ISO_639_1 = frozenset(
    """aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy
    da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy
    hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li
    ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa
    pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th
    ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu""".split()  # noqa: SIM905
)

# SearXNG's English reasons for an unresponsive engine, mapped to what the admin can do.
REASON_ADVICE = {
    "too many requests": "the search provider's rate limit or monthly quota ran out; try again later",
    "access denied": "the search provider rejected the API key; the admin should check BRAVE_API_KEY",
    "timeout": "the search provider did not answer in time; try again",
    "CAPTCHA": "the search provider asked for a CAPTCHA; try again later",
    "budget spent": "the household's Brave budget is spent until the date named; the admin can raise it",
}
# Reasons that mean SearXNG could not reach the engine at all (no network, DNS, a proxy).
CONNECTION_REASONS = ("connection error", "network error", "timeout", "proxy error", "SSL error")
# SearXNG refusing this client: what it means, and what the admin changes.
SEARXNG_REFUSALS: dict[int, tuple[str, str]] = {
    403: ("refuses JSON (403)", "add json to search.formats in settings.yml"),
    429: (
        "rate-limited this client (429)",
        "add this machine's network to pass_ip in settings/limiter.toml, or wait",
    ),
}


def reason_advice(reason: str) -> str:
    """What the admin or the model can do about an engine's failure reason, or ""."""
    return next((text for key, text in REASON_ADVICE.items() if key.lower() in reason.lower()), "")


def is_connection_failure(reason: str) -> bool:
    """True when SearXNG's reason says the engine could not be reached at all."""
    return any(key.lower() in reason.lower() for key in CONNECTION_REASONS)


# Headers SearXNG's bot detection expects from a client that is not on its pass list:
# an Accept with text/html, gzip, a language, and a User-Agent it does not take for a
# script (it refuses "Python", "python-requests", "curl", …). English keeps its
# error reasons untranslated; the search language is set by the language field.
SEARXNG_HEADERS = {
    "Accept": "application/json, text/html;q=0.9",
    "Accept-Encoding": "gzip",
    "Accept-Language": "en",
    "User-Agent": f"{config.PRODUCT} (self-hosted search client for a local model)",
}


DEFAULT_MAX_RESULTS = 10
MOST_RESULTS = 100
LAST_PAGE = 10
"""Brave serves ten pages; settings.yml caps SearXNG at the same (search.max_page), and the
engine its own (max_page): tests/test_settings_agree.py holds the three in step."""


class SearchRequest(BaseModel):
    """Arguments of web_search; also the JSON schema a model sees for the search tool."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(
        description="What to search for, as you would type it into a search engine.",
        min_length=1,
        max_length=MAX_QUERY_CHARS,
    )
    language: str | None = Field(
        default=None,
        description=(
            "Language of the results: a code such as 'en', 'en-US', 'de' or 'pl-PL'. "
            "Leave empty for the instance's own language (the household's); use 'en' for technical documentation."
        ),
    )
    max_results: int = Field(
        default=DEFAULT_MAX_RESULTS, description=f"How many results to return (1–{MOST_RESULTS})."
    )
    page: int = Field(default=1, ge=1, le=LAST_PAGE, description=f"Result page, 1–{LAST_PAGE}.")
    time_range: TimeRange | None = Field(
        default=None, description="Only results from the past day, week, month or year."
    )
    safe_search: SafeSearch | None = Field(
        default=None, description="Filter adult content: off, moderate or strict."
    )

    @field_validator("query")
    @classmethod
    def _query_has_words(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError("the query is empty; say what to search for")
        if any(ord(ch) < 32 for ch in value):
            raise ValueError("the query holds control characters; remove them")
        return value

    @field_validator("language")
    @classmethod
    def _known_language_shape(cls, value: str | None) -> str | None:
        # "auto" asks SearXNG to guess from Accept-Language, which a model client does not
        # have; the instance's default language serves it better.
        if value is None or value.strip().lower() in ("", "auto"):
            return None
        # "EN" and "de_de" are what a model means by "en" and "de-DE".
        asked = value.strip()
        language, _, region = asked.replace("_", "-").lower().partition("-")
        value = language + (f"-{region.upper()}" if region else "")
        if not LANGUAGE_CODE.match(value) or (len(language) == 2 and language not in ISO_639_1):
            raise ValueError(f"{asked!r} is not a language code; use one like 'en', 'en-US', 'de' or 'pl-PL'")
        return value

    @field_validator("max_results", mode="before")
    @classmethod
    def _clamp_max_results(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return min(max(value, 1), MOST_RESULTS)
        return value


class SearchResult(BaseModel):
    """One result: the content starts with its publication date when the engine knows it."""

    title: str
    url: str
    content: str
    published: date | None = None
    engines: list[str]


class SearchResponse(BaseModel):
    """What web_search returns. ``results`` is empty when nothing was found."""

    query: str
    language: str | None
    page: int
    results: list[SearchResult]
    more_on_page: int = Field(
        default=0,
        description="Results this page held beyond max_results; ask again with a larger max_results.",
    )
    failed_engines: dict[str, str] = Field(
        default_factory=dict, description="Engines that could not answer, with SearXNG's reason."
    )
    suggestions: list[str] = Field(default_factory=list)
    corrections: list[str] = Field(default_factory=list)


# SearXNG's JSON answer, validated strictly: a row that does not fit fails the whole call.
class _SearxRow(BaseModel):
    url: str = Field(min_length=1)
    title: str
    content: str | None = ""
    publishedDate: datetime | date | None = None
    engine: str | None = None
    engines: list[str] = Field(default_factory=list)


class _SearxAnswer(BaseModel):
    query: str
    results: list[_SearxRow]
    unresponsive_engines: list[tuple[str, str]] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    corrections: list[str] = Field(default_factory=list)


def validate_request(**arguments: Any) -> SearchRequest:
    """The arguments as a :class:`SearchRequest`, or InvalidInput saying what to change."""
    return validate_arguments(SearchRequest, arguments)


def searx_params(request: SearchRequest) -> dict[str, str]:
    """The query string of SearXNG's /search for ``request``.

    The language goes into the query as SearXNG's ``:xx`` prefix, not as the ``language``
    field: SearXNG reads the prefix as the caller's deliberate choice, while the shipped
    settings treat a JSON client's ``language`` field as a built-in default and keep the
    household's locale (plugins/language.py)."""
    query = f":{request.language} {request.query}" if request.language else request.query
    params = {"q": query, "format": "json", "pageno": str(request.page)}
    if request.time_range:
        params["time_range"] = request.time_range
    if request.safe_search:
        params["safesearch"] = str(SAFE_SEARCH_LEVELS[request.safe_search])
    return params


def parse_answer(payload: Any, request: SearchRequest) -> SearchResponse:
    """SearXNG's JSON answer → SearchResponse; raises SearchUnavailable when nothing could search."""
    try:
        answer = _SearxAnswer.model_validate(payload)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise SearchUnavailable(
            f"SearXNG answered in a shape llmweb cannot read ({where}: {first['msg']}). "
            "The admin should check that the SearXNG version matches llmweb's."
        ) from None
    failed = dict(answer.unresponsive_engines)
    results: list[SearchResult] = []
    seen: set[str] = set()
    for row in answer.results:
        key = row.url.rstrip("/")
        if key in seen:
            continue
        seen.add(key)
        published = row.publishedDate.date() if isinstance(row.publishedDate, datetime) else row.publishedDate
        results.append(
            SearchResult(
                title=row.title,
                url=row.url,
                content=row.content or "",
                published=published,
                engines=row.engines or ([row.engine] if row.engine else []),
            )
        )
    if not results and failed:
        raise SearchUnavailable(unavailable_message(failed), failed)
    return SearchResponse(
        query=request.query,
        language=request.language,
        page=request.page,
        results=results[: request.max_results],
        more_on_page=max(0, len(results) - request.max_results),
        failed_engines=failed,
        suggestions=answer.suggestions,
        corrections=answer.corrections,
    )


def unavailable_message(failed: dict[str, str]) -> str:
    parts = []
    for engine, reason in sorted(failed.items()):
        advice = reason_advice(reason)
        parts.append(f"{engine}: {reason}" + (f" ({advice})" if advice else ""))
    return (
        "Could not search — every engine failed, so this is not a sign that nothing exists. "
        + "; ".join(parts)
        + "."
    )


def web_search(
    query: str,
    *,
    language: str | None = None,
    max_results: int = DEFAULT_MAX_RESULTS,
    page: int = 1,
    time_range: str | None = None,
    safe_search: str | None = None,
    searxng_url: str | None = None,
    timeout: float = 20.0,
    client: httpx.Client | None = None,
) -> SearchResponse:
    """Search the web through SearXNG's JSON API.

    Raises InvalidInput before any request for unusable arguments, SearchUnavailable
    when SearXNG cannot be reached or every engine failed, Timeout past ``timeout``.
    """
    request = validate_request(
        query=query,
        language=language,
        max_results=max_results,
        page=page,
        time_range=time_range,
        safe_search=safe_search,
    )
    return search(request, searxng_url=searxng_url, timeout=timeout, client=client)


def search(
    request: SearchRequest,
    *,
    searxng_url: str | None = None,
    timeout: float = 20.0,
    client: httpx.Client | None = None,
) -> SearchResponse:
    """:func:`web_search` for a request already validated (the tools and the command line
    validate the model's arguments once, as a :class:`SearchRequest`)."""
    base = (searxng_url or config.searxng_url()).rstrip("/")
    try:
        if client is None:
            with httpx.Client(timeout=timeout, headers=SEARXNG_HEADERS, verify=tls_context()) as own:
                answer = own.get(base + "/search", params=searx_params(request))
        else:
            answer = client.get(base + "/search", params=searx_params(request), headers=SEARXNG_HEADERS)
    except httpx.TimeoutException:
        raise Timeout(
            f"SearXNG at {base} did not answer within {timeout:g} s. Try again, or a shorter query."
        ) from None
    except httpx.TransportError as exc:
        raise SearchUnavailable(
            f"SearXNG at {base} cannot be reached ({type(exc).__name__}). The admin should start it "
            "(scripts/serve or docker compose up -d) or set LLMWEB_SEARXNG_URL to where it listens."
        ) from None
    return parse_response(answer, request, base)


def parse_response(answer: httpx.Response, request: SearchRequest, base: str) -> SearchResponse:
    status = answer.status_code
    if status in SEARXNG_REFUSALS:
        finding, fix = SEARXNG_REFUSALS[status]
        raise SearchUnavailable(f"SearXNG at {base} {finding}. The admin should {fix}.")
    if status == 400:
        raise InvalidInput(
            f"SearXNG rejected the arguments: {_error_text(answer)}. Change them and search again."
        )
    if status != 200:
        raise SearchUnavailable(
            f"SearXNG at {base} answered HTTP {status} ({_error_text(answer)}). Try again; the admin should read its log."
        )
    try:
        payload = read_json(answer)
    except ValueError:
        raise SearchUnavailable(
            f"SearXNG at {base} answered with something other than JSON. "
            "The admin should check LLMWEB_SEARXNG_URL points at SearXNG."
        ) from None
    return parse_answer(payload, request)


def read_json(answer: httpx.Response) -> Any:
    """SearXNG's answer as JSON, or ValueError: the one place it is read. An engine's lone
    surrogate ("\ud800") passes through SearXNG, and would end the write of any answer that
    shows it, so every string comes back encodable (:mod:`llmweb.encodable`)."""
    try:
        return encodable_json(answer.json())
    except RecursionError:  # nested past what json reads
        raise ValueError("the JSON is nested too deep") from None


def _error_text(answer: httpx.Response) -> str:
    try:
        payload = read_json(answer)
    except ValueError:
        return answer.text[:200].strip() or answer.reason_phrase
    if isinstance(payload, dict) and payload.get("error"):
        return str(payload["error"])[:200]
    return answer.reason_phrase
