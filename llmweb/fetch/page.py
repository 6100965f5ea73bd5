"""web_fetch: one URL → one window of its readable text, or an error that says what to do next.

The steps, each in its own module: check and rewrite the URL (:mod:`.net.rewrite`), fetch
within the safety limits (:mod:`.net.transport`, the only network code), turn the body into
text (:mod:`.content`, :mod:`.html.extract`, :mod:`.pdf`) in a worker process bounded by the
same deadline and a memory ceiling (:mod:`.worker`), optionally compress it
(:mod:`llmweb.compress`), and cut the window (:mod:`.window`), or, given a question,
choose the passages that answer it (:mod:`.focus.passages`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable

import httpx
from pydantic import BaseModel, ConfigDict, Field, field_validator

from llmweb import config
from llmweb.arguments import validate_arguments
from llmweb.compress import Compressor
from llmweb.errors import (
    ChallengePage,
    CompressorError,
    FetchError,
    FetchTimeout,
    InvalidInput,
    TooLarge,
    UpstreamStatus,
)
from llmweb.fetch import limits, worker
from llmweb.fetch.content import (
    PageText,
    bot_challenge,
    parse_content_type,
    read_body,
    sniff_media_type,
    text_kind,
)
from llmweb.fetch.focus.passages import Passage, focus_text
from llmweb.fetch.html.extract import challenge_message
from llmweb.fetch.net import header_values, transport
from llmweb.fetch.net.addresses import parse_allow_list
from llmweb.fetch.net.rewrite import check_fetch_url, rewrite_for_text
from llmweb.fetch.window import check_window, clip, cut_window


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
    query: str | None = Field(
        default=None,
        max_length=limits.MAX_QUESTION_CHARS,
        description=(
            "A question about the page. Given one, the answer is the passages of the page that answer it "
            "best, each with its place, instead of the text from start: use it on long pages. Ask in the "
            "page's language (English for most documentation) and name the functions, options or terms you expect."
        ),
    )

    @field_validator("query")
    @classmethod
    def _blank_is_no_question(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None


class FetchResult(BaseModel):
    """One window of a fetched page's text."""

    model_config = ConfigDict(frozen=True)

    url: str = Field(description="The address the text came from, after rewrites and redirects.")
    requested_url: str = Field(description="The address that was asked for.")
    rewritten: bool = Field(
        description="True when the address was rewritten to a text form (a GitHub blob to its raw file)."
    )
    redirected: bool = Field(
        default=False, description="True when the site redirected, so the site chose the address in url."
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
    query: str | None = Field(default=None, description="The question asked about the page, if any.")
    passages: tuple[Passage, ...] = Field(
        default=(),
        description=(
            "With a question: the passages that answer it best, in page order, each with its start "
            "(pass it as start to read on from there) and heading path; text holds them joined."
        ),
    )


def web_fetch(
    url: str,
    *,
    max_chars: int = limits.MAX_CHARS,
    start: int = 0,
    query: str | None = None,
    compressor: Compressor | None = None,
    instruction: str | None = None,
    allow: str | Iterable[str] | None = None,
    max_bytes: int = limits.MAX_BYTES,
    timeout: float = limits.TIMEOUT_SECONDS,
    compress_min_chars: int = limits.COMPRESS_MIN_CHARS,
    resolver: transport.Resolver = transport.system_resolver,
    max_memory: int = limits.EXTRACT_MEMORY_BYTES,
) -> FetchResult:
    """Fetch ``url`` and return ``max_chars`` of its text from ``start``.

    Given a ``query``, return instead the passages of the text from ``start`` that answer
    it best, in page order, ``max_chars`` at most (the whole text when it fits); the
    compressor is not used then, so each passage's start is a place in the page's text.

    ``allow`` lists private hosts, addresses or CIDR networks the fetcher may reach
    (comma-separated or a list); None reads LLMWEB_FETCH_ALLOW. ``compressor`` is called
    as ``compressor(text, instruction)`` when the text has at least ``compress_min_chars``
    characters; windows then page through its output. ``resolver`` turns a host name into
    addresses (default: the system's getaddrinfo); whatever it answers is still judged.
    ``timeout`` bounds the download and the extraction (the worker is stopped at it); choosing
    passages for a ``query`` and the ``compressor`` run after it, unbounded by it. ``max_memory``
    (bytes) bounds the memory the extraction may use. Raises an
    :class:`~llmweb.errors.LlmwebError` child whose message says what to do next.
    """
    request = validate_arguments(
        FetchRequest, {"url": url, "max_chars": max_chars, "start": start, "query": query}
    )
    return fetch(
        request,
        compressor=compressor,
        instruction=instruction,
        allow=allow,
        max_bytes=max_bytes,
        timeout=timeout,
        compress_min_chars=compress_min_chars,
        resolver=resolver,
        max_memory=max_memory,
    )


def fetch(
    request: FetchRequest,
    *,
    compressor: Compressor | None = None,
    instruction: str | None = None,
    allow: str | Iterable[str] | None = None,
    max_bytes: int = limits.MAX_BYTES,
    timeout: float = limits.TIMEOUT_SECONDS,
    compress_min_chars: int = limits.COMPRESS_MIN_CHARS,
    resolver: transport.Resolver = transport.system_resolver,
    max_memory: int = limits.EXTRACT_MEMORY_BYTES,
) -> FetchResult:
    """:func:`web_fetch` for a request already validated (the tools and the command line
    validate the model's arguments once, as a :class:`FetchRequest`)."""
    _check_compressor_arguments(
        compressor=compressor, instruction=instruction, compress_min_chars=compress_min_chars
    )
    result, text = read_page(
        request.url,
        allow=allow,
        max_bytes=max_bytes,
        timeout=timeout,
        resolver=resolver,
        max_memory=max_memory,
    )
    result = result.model_copy(update={"start": request.start, "query": request.query})
    if request.query is None and compressor is not None and len(text) >= compress_min_chars:
        original = len(text)
        text = _compress(compressor, text, instruction)
        note = f"A compressor condensed the page's {original:,} characters to {len(text):,}."
        update = {"total_chars": len(text), "compressed": True, "notes": (*result.notes, note)}
        result = result.model_copy(update=update)
    if request.query is not None:
        return answer_question(result, text, request)
    window, next_start = cut_window(text, request.start, request.max_chars)
    return result.model_copy(update={"text": window, "next_start": next_start})


def read_page(
    url: str,
    *,
    allow: str | Iterable[str] | None = None,
    max_bytes: int = limits.MAX_BYTES,
    timeout: float = limits.TIMEOUT_SECONDS,
    resolver: transport.Resolver = transport.system_resolver,
    max_memory: int = limits.EXTRACT_MEMORY_BYTES,
) -> tuple[FetchResult, str]:
    """The page at ``url`` read whole: its description (empty text, start 0) and its text.

    The text is exactly what :func:`web_fetch` pages through, so a place in it is a ``start``
    for web_fetch; the arguments and errors are web_fetch's.
    """
    requested = check_fetch_url(url)
    _check_reading_arguments(max_bytes=max_bytes, timeout=timeout, resolver=resolver, max_memory=max_memory)
    rewrite = rewrite_for_text(requested)
    target = rewrite.url if rewrite else requested
    allowed = parse_allow_list(config.fetch_allow() if allow is None else allow)
    deadline = transport.Deadline(timeout)  # one deadline over the download and the extraction
    worker.warm()  # a worker's start-up overlaps the download
    fetched = transport.fetch(
        target, allow=allowed, max_bytes=max_bytes, resolver=resolver, deadline=deadline
    )
    # errors name the address llmweb asked for: after a redirect, the site chose fetched.url,
    # which only the result shows, between the untrusted-text markers
    if not 200 <= fetched.status < 300:
        raise _status_error(fetched, target, deadline, max_memory)
    page = _read_text(fetched, target, deadline, max_memory)
    result = FetchResult(
        url=fetched.url,
        requested_url=requested,
        rewritten=rewrite is not None,
        redirected=fetched.redirects > 0,
        title=clip(page.title, limits.MAX_TITLE_CHARS) if page.title else None,
        published=page.published,
        content_type=page.content_type,
        text="",
        start=0,
        total_chars=len(page.text),
        next_start=None,
        notes=tuple(
            clip(note, limits.MAX_SHOWN_FIELD_CHARS)
            for note in (*([rewrite.note] if rewrite else []), *page.notes)
        ),
    )
    return result, page.text


# Ranges of the arguments only a calling program passes. The ceilings keep every number
# within what sockets, locks and setrlimit accept (timeout=inf overflows them, nan compares
# false with everything); an hour and a terabyte are past any page.
MAX_TIMEOUT_SECONDS = 3600.0
MAX_BYTE_ARGUMENT = 2**40


def _check_reading_arguments(
    *, max_bytes: object, timeout: object, resolver: object, max_memory: object
) -> None:
    """InvalidInput naming the first reading argument of the wrong type or out of range (the
    model's arguments are FetchRequest's, ``allow`` is parse_allow_list's; these come from a
    calling program)."""
    for name, value in (("max_bytes", max_bytes), ("max_memory", max_memory)):
        _check_whole_number(name, value, 1)
    if (
        not isinstance(timeout, int | float)
        or isinstance(timeout, bool)
        or not 0 < timeout <= MAX_TIMEOUT_SECONDS  # also false for nan
    ):
        raise InvalidInput(
            f"timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT_SECONDS:g}, not {_shown(timeout)}."
        )
    if not callable(resolver):
        raise InvalidInput(f"resolver must be a function of (host, port), not {_shown(resolver)}.")


def _check_compressor_arguments(
    *, compressor: object, instruction: object, compress_min_chars: object
) -> None:
    """InvalidInput naming the compressor argument a calling program passed wrong."""
    _check_whole_number("compress_min_chars", compress_min_chars, 0)
    if compressor is not None and not callable(compressor):
        raise InvalidInput(f"compressor must be a function or None, not {_shown(compressor)}.")
    if instruction is not None and not isinstance(instruction, str):
        raise InvalidInput(f"instruction must be text or None, not {_shown(instruction)}.")


def _check_whole_number(name: str, value: object, low: int) -> None:
    if not _whole_number(value) or not low <= value <= MAX_BYTE_ARGUMENT:  # type: ignore[operator]
        raise InvalidInput(
            f"{name} must be a whole number from {low} to {MAX_BYTE_ARGUMENT:,}, not {_shown(value)}."
        )


def _whole_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    """A caller's value in a message: its type, and its text when short."""
    text = repr(value) if isinstance(value, int | float | str | type(None)) else ""
    return text if text and len(text) <= 40 else f"a {type(value).__name__}"


def answer_question(result: FetchResult, text: str, request: FetchRequest) -> FetchResult:
    """``result`` filled with the passages of ``text`` (from the request's start) that answer its query.

    Text that fits in max_chars comes whole, as a window would; a question that shares no
    word with the text gets the window from start, and a note saying so.
    """
    assert request.query is not None
    check_window(request.start, request.max_chars)
    window, next_start = cut_window(text, request.start, request.max_chars)
    if next_start is None:
        note = "The text fits in max_chars, so it comes whole rather than as passages."
        return result.model_copy(update={"text": window, "notes": (*result.notes, note)})
    found = focus_text(text[request.start :], request.query, request.max_chars, offset=request.start)
    if not found.passages:
        note = (
            "No passage shares a word with the question, so this is the text from start. Ask again in "
            "the page's language or with the names the page uses, or read on."
        )
        return result.model_copy(
            update={"text": window, "next_start": next_start, "notes": (*result.notes, note)}
        )
    joined = "\n\n".join(passage.text for passage in found.passages)
    return result.model_copy(update={"text": joined, "passages": found.passages})


def _read_text(fetched: transport.Fetched, url: str, deadline: transport.Deadline, memory: int) -> PageText:
    """read_body in a worker, within what is left of the deadline and ``memory`` bytes; its
    errors name ``url``."""
    content_type = fetched.headers.get("content-type")
    left = deadline.remaining()
    downloaded = deadline.seconds - left
    if left <= 0:  # the download took all the time: no worker was waited for
        raise transport.deadline_passed(url, deadline.seconds)
    try:
        return worker.run(
            read_body,
            fetched.body,
            content_type,
            url,
            fetched.url,
            seconds=left,
            memory=memory,
        )
    except worker.OutOfTime as exc:
        if exc.waiting:
            raise FetchTimeout(
                f"{url} was downloaded, but llmweb was busy reading other pages until the {deadline.seconds:g}-second "
                "limit of this fetch passed. Fetch it again in a moment.",
                url,
            ) from None
        raise FetchTimeout(
            f"Turning {url} into text took longer than the {deadline.seconds:g} seconds one fetch may take "
            f"(the download took {downloaded:.1f} s), so it was stopped. The page ({_describe(fetched, exc.report)}) is too "
            "large or too complex to read in time: look for a lighter version of it (a single section, a print "
            "or text version, the raw file), or search for another source.",
            url,
        ) from None
    except worker.WorkerUnavailable as exc:
        raise FetchError(
            f"llmweb could not read {url}: {exc}. This is the machine, not the page: try again in a "
            "moment; the admin should check the machine's free memory and process limits.",
            url,
        ) from None
    except worker.OutOfMemory as exc:
        raise TooLarge(
            f"Turning {url} into text needed more than {memory // 2**20:,} MB of memory, "
            f"the most llmweb gives one page, so it was stopped. The page ({_describe(fetched, exc.report)}) is too large or "
            "too complex: look for a lighter version of it (a single section, a print or text version, the raw "
            "file), or search for another source.",
            url,
        ) from None
    except worker.JobFailed as exc:  # a bug or a library's failure, named by its type only
        raise FetchError(
            f"llmweb failed to turn {url} into text ({exc.kind}). Try another source for the same "
            "content; the admin may report this page as a bug of llmweb.",
            url,
        ) from None


def _describe(fetched: transport.Fetched, counted: str | None) -> str:
    """What the page is, such as "4.8 MB of HTML, 950,000 HTML elements, 950,000 table cells":
    its size, its type (from its first and last kilobyte) and what the worker ``counted`` of it
    before it was stopped (worker.report). The caller never parses or counts a body itself: a
    hostile page would cost it what the worker was stopped for."""
    declared, _ = parse_content_type(fetched.headers.get("content-type"))
    media = sniff_media_type(fetched.body, declared)
    size = (
        f"{len(fetched.body) / 1e6:.1f} MB"
        if len(fetched.body) >= 100_000
        else f"{len(fetched.body):,} bytes"
    )
    if text_kind(media) != "html":  # the server's type only when it is a known one (it chose the words)
        kind = header_values.known_media_type(media) or header_values.UNRECOGNISED_MEDIA_TYPE
        return f"{size} of {kind}, {counted}" if counted else f"{size} of {kind}"
    return f"{size} of HTML, {counted}" if counted else f"{size} of HTML"


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


def _status_error(
    fetched: transport.Fetched, url: str, deadline: transport.Deadline, memory: int
) -> ChallengePage | UpstreamStatus:
    status = fetched.status
    challenge = None  # unless the worker finds one: the status still says what happened
    left = deadline.remaining()
    if left > 0:  # parsing even a 256 KB error page can be made expensive, so the worker does it
        with contextlib.suppress(
            worker.OutOfTime, worker.OutOfMemory, worker.WorkerUnavailable, worker.JobFailed
        ):
            challenge = worker.run(
                bot_challenge, fetched.body, fetched.headers.get("content-type"), seconds=left, memory=memory
            )
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
    # the server's Retry-After only as seconds or a date: its free text would read as llmweb's words
    wait = header_values.retry_after(headers.get("retry-after"))
    if status == 429:
        return (
            f"{url} answered 429: too many requests. Wait {wait or 'a while'} before trying again, "
            "or use another source."
        )
    if status >= 500:
        later = f"Wait {wait} before trying again" if wait else "Try again later"
        return f"{url} answered {status}: the server failed. {later}, or use another source."
    return f"{url} answered HTTP {status} instead of a page. Check the address, or search for the page."
