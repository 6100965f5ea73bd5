"""web_fetch: one URL → one window of its readable text, or an error that says what to do next.

The steps, each in its own module: check and rewrite the URL (:mod:`.rewrite`), fetch
within the safety limits (:mod:`.transport`, the only network code), turn the body into
text (:mod:`.content`, :mod:`.extract`), optionally compress it (:mod:`llmweb.compress`),
and cut the window (:mod:`.window`).
"""

from __future__ import annotations

from collections.abc import Iterable

import httpx
from pydantic import BaseModel, ConfigDict, Field

from llmweb import config
from llmweb.arguments import validate_arguments
from llmweb.compress import Compressor
from llmweb.errors import ChallengePage, CompressorError, InvalidInput, UpstreamStatus
from llmweb.fetch import limits, transport
from llmweb.fetch.addresses import parse_allow_list
from llmweb.fetch.content import decode_text, parse_content_type, read_body, sniff_media_type, text_kind
from llmweb.fetch.extract import challenge_message, find_bot_challenge
from llmweb.fetch.rewrite import check_fetch_url, rewrite_for_text
from llmweb.fetch.window import cut_window


class FetchRequest(BaseModel):
    """Arguments of web_fetch; also the JSON schema a model sees for the fetch tool."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(description="The address to read, a complete http:// or https:// URL.")
    max_chars: int = Field(
        default=limits.MAX_CHARS,
        ge=limits.MIN_WINDOW_CHARS,
        le=limits.MAX_WINDOW_CHARS,
        description=f"How many characters of text to return at most ({limits.MIN_WINDOW_CHARS}–{limits.MAX_WINDOW_CHARS}).",
    )
    start: int = Field(
        default=0,
        ge=0,
        description="Where to start in the page's text: 0 for the beginning, or the start that the previous answer names to read on.",
    )


class FetchResult(BaseModel):
    """One window of a fetched page's text."""

    model_config = ConfigDict(frozen=True)

    url: str = Field(description="The address the text came from, after rewrites and redirects.")
    requested_url: str = Field(description="The address that was asked for.")
    rewritten: bool = Field(
        description="True when the address was rewritten to a text form (a GitHub blob to its raw file)."
    )
    title: str | None = Field(default=None, description="The page's title, when it has one.")
    published: str | None = Field(
        default=None, description="The publication date the page states (ISO 8601), if any."
    )
    content_type: str = Field(description="What the body was read as, e.g. text/html or application/pdf.")
    text: str = Field(description="This window of the page's text; HTML comes as light markdown.")
    start: int = Field(description="Where this window starts in the whole text.")
    total_chars: int = Field(
        description="Length of the whole text (of the compressed text, when compressed)."
    )
    next_start: int | None = Field(
        description="The start to pass for the next window; None when this is the end."
    )
    compressed: bool = Field(default=False, description="True when a compressor condensed the text.")
    notes: tuple[str, ...] = Field(
        default=(), description="What else the reader should know (rewrites, cut PDFs, …)."
    )


def web_fetch(
    url: str,
    *,
    max_chars: int = limits.MAX_CHARS,
    start: int = 0,
    compressor: Compressor | None = None,
    instruction: str | None = None,
    allow: str | Iterable[str] | None = None,
    max_bytes: int = limits.MAX_BYTES,
    timeout: float = limits.TIMEOUT_SECONDS,
    compress_min_chars: int = limits.COMPRESS_MIN_CHARS,
) -> FetchResult:
    """Fetch ``url`` and return ``max_chars`` of its text from ``start``.

    ``allow`` lists private hosts, addresses or CIDR networks the fetcher may reach
    (comma-separated or a list); None reads LLMWEB_FETCH_ALLOW. ``compressor`` is called
    as ``compressor(text, instruction)`` when the text has at least ``compress_min_chars``
    characters; windows then page through its output. Raises an
    :class:`~llmweb.errors.LlmwebError` child whose message says what to do next.
    """
    request = validate_arguments(FetchRequest, {"url": url, "max_chars": max_chars, "start": start})
    requested = check_fetch_url(request.url)
    if max_bytes < 1 or timeout <= 0:
        raise InvalidInput(f"max_bytes and timeout must be positive, not {max_bytes} and {timeout}.")
    rewrite = rewrite_for_text(requested)
    target = rewrite.url if rewrite else requested
    allowed = parse_allow_list(config.fetch_allow() if allow is None else allow)
    fetched = transport.fetch(target, allow=allowed, max_bytes=max_bytes, timeout=timeout)
    if not 200 <= fetched.status < 300:
        raise _status_error(fetched)
    page = read_body(fetched.body, fetched.headers.get("content-type"), fetched.url)
    text, notes = page.text, [*([rewrite.note] if rewrite else []), *page.notes]
    compressed = False
    if compressor is not None and len(text) >= compress_min_chars:
        original = len(text)
        text, compressed = _compress(compressor, text, instruction), True
        notes.append(f"A compressor condensed the page's {original:,} characters to {len(text):,}.")
    window, next_start = cut_window(text, request.start, request.max_chars)
    return FetchResult(
        url=fetched.url,
        requested_url=requested,
        rewritten=rewrite is not None,
        title=page.title,
        published=page.published,
        content_type=page.content_type,
        text=window,
        start=request.start,
        total_chars=len(text),
        next_start=next_start,
        compressed=compressed,
        notes=tuple(notes),
    )


def _compress(compressor: Compressor, text: str, instruction: str | None) -> str:
    try:
        result = compressor(text, instruction)
    except CompressorError:
        raise
    except Exception as exc:  # any failure of a caller's compressor fails the call, with its reason
        raise CompressorError(
            f"The compressor failed ({type(exc).__name__}: {exc}). Fetch again without a compressor."
        ) from exc
    if not isinstance(result, str) or not result.strip():
        raise CompressorError("The compressor returned no text. Fetch again without a compressor.")
    return result


def _status_error(fetched: transport.Fetched) -> ChallengePage | UpstreamStatus:
    url, status = fetched.url, fetched.status
    declared, charset = parse_content_type(fetched.headers.get("content-type"))
    if text_kind(sniff_media_type(fetched.body, declared)) == "html":
        challenge = find_bot_challenge(decode_text(fetched.body, charset))
        if challenge:  # bot checks usually answer 403, 429 or 503
            return ChallengePage(challenge_message(url, challenge), url)
    return UpstreamStatus(status_message(url, status, fetched.headers), url, status)


def status_message(url: str, status: int, headers: httpx.Headers) -> str:
    """What an HTTP error status means for the model, and what to try next."""
    if status in (404, 410):
        return f"{url} answered {status}: the page does not exist (any more). Search for its new address."
    if status in (401, 403):
        return (
            f"{url} answered {status}: the site refuses access without a login or to this client. "
            "Look for a public source of the same content."
        )
    if status == 429:
        retry = headers.get("retry-after", "").strip()
        wait = (
            f"Wait {retry} seconds" if retry.isdigit() else f"Wait until {retry}" if retry else "Wait a while"
        )
        return f"{url} answered 429: too many requests. {wait} before trying again, or use another source."
    if status >= 500:
        return f"{url} answered {status}: the server failed. Try again later, or use another source."
    return f"{url} answered HTTP {status} instead of a page. Check the address, or search for the page."
