"""web_research: one call from a question to the passages of several pages that answer it.

Small local models do the search → choose → read loop badly (they stop after the search,
read one page, or read a whole page into a small context), so this does it for them:
search once with the question, read the top results in parallel under one deadline, rank
every page's passages as one collection with the ranking web_fetch's ``query`` uses
(:func:`llmweb.fetch.focus.passages.rank_pages`), each page's weighed by how well its best
passage answers (:func:`page_weight`), and pack the best into ``max_chars``. Every passage
is a citation: its ``start`` and ``end`` are places in the text web_fetch reads from that
address, so ``web_fetch(url, start=start)`` begins with it. A page that cannot be read never
fails the call; it is listed in ``unread`` with the reason.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, field_validator

from llmweb.arguments import validate_arguments
from llmweb.errors import (
    BlockedAddress,
    ChallengePage,
    FetchError,
    FetchTimeout,
    InvalidInput,
    LlmwebError,
    NeedsJavaScript,
    NoReadableText,
    RedirectRefused,
    TooLarge,
    Unreachable,
    UnsupportedContent,
    UpstreamStatus,
)
from llmweb.fetch.focus.passages import RELATIVE_FLOOR, Span, rank_pages, sentence_end
from llmweb.fetch.focus.terms import Analyser
from llmweb.fetch.net import transport
from llmweb.fetch.page import MAX_TIMEOUT_SECONDS, FetchResult, read_page
from llmweb.search import MAX_QUERY_CHARS, SearchResponse, SearchResult, TimeRange, web_search

# What fits a 4,096-token window with room to answer: the system prompt (631 tokens) and the three
# tools' definitions (1,162, cl100k_base) take about 1,800, the question and an answer about 800,
# which leaves about 1,500. The research bench's answers at 6,000 characters cost a median 1,447
# tokens, frame included (documentation runs near 4 characters a token). A client that sends
# no tool definitions, or a larger window, can ask for more.
DEFAULT_MAX_CHARS = 6_000
MIN_MAX_CHARS = 1_000
MAX_MAX_CHARS = 40_000
DEFAULT_SOURCES = 5
MAX_SOURCES = 10
# One deadline for the whole call: the search, then every page read in parallel.
DEFAULT_TIMEOUT = 20.0
SEARCH_SHARE = 0.4  # the most of the deadline the search may take, so pages still get time
# What the answer a model reads spends beyond the pages' words (see render_research): passages
# are grouped by page, so a page's label, title and source line (its date, and its address once,
# in the call that reads on) are paid once, and each passage only its label (a number and the
# nonce), the headings its title and first line do not already say, and its start and end in the
# source line.
PAGE_FRAME_CHARS = 82
PASSAGE_FRAME_CHARS = 38
# Each passage after the first is priced this much above what it adds, so that the default budget's
# answer costs the tokens it was set for (research bench, tuned half: median 1,455 cl100k tokens
# at 40, 1,547 at 0, against main's 1,466 before passages were grouped by page) rather than filling
# max_chars; the first passage is not, so that a small budget still gets one.
PASSAGE_MARGIN_CHARS = 40
# The answer's frame: the question, the counts and labels, the untrusted-text note and markers,
# the sources' heading; the unread.
ANSWER_FRAME_CHARS = 490
SEARCH_SAID_CHARS = 12  # each search's quotes and joining words, plus its words
UNREAD_LINE_CHARS = 60  # plus the address
# Passages of two pages sharing this share of their word shingles say the same thing (a mirror, a
# copy): the second is dropped. Only across pages: within a manual, neighbours such as str.strip
# and str.rstrip share most of their words and still answer different questions.
DUPLICATE_SHARE = 0.8
_SHINGLE = 5
_WORD = re.compile(r"\w+")
_HEADING_LINE = re.compile(r"#{1,6}[ \t]+([^\n]*?)[ \t]*#*[ \t]*(?:\n|$)")
_MARKS = str.maketrans("", "", "`*_")


class ResearchRequest(BaseModel):
    """Arguments of web_research; also the JSON schema a model sees for the research tool."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        description="The question, in your own words; it is searched for as it stands, so name the "
        "product, function or topic it is about.",
    )
    max_chars: int = Field(
        default=DEFAULT_MAX_CHARS,
        ge=MIN_MAX_CHARS,
        le=MAX_MAX_CHARS,
        description=f"How many characters the whole answer may take ({MIN_MAX_CHARS:,}–{MAX_MAX_CHARS:,}; "
        "about 3.5 characters a token).",
    )
    sources: int = Field(
        default=DEFAULT_SOURCES, ge=1, le=MAX_SOURCES, description="How many of the top results to read."
    )
    language: str | None = Field(
        default=None,
        description="Language of the results, as for the search tool: 'en' for technical documentation; "
        "leave empty for the instance's own language.",
    )
    time_range: TimeRange | None = Field(
        default=None, description="Only results from the past day, week, month or year."
    )

    @field_validator("question")
    @classmethod
    def _question_has_words(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError("the question is empty; say what you want to know")
        return value


class ResearchPassage(BaseModel):
    """A passage that answers the question, and where it lies: a citation a reader can check."""

    model_config = ConfigDict(frozen=True)

    url: str = Field(description="The address as requested: web_fetch(url, start=start) begins with text.")
    title: str | None = Field(description="The page's title (the search result's when the page has none).")
    published: str | None = Field(description="The page's date (ISO 8601) when known.")
    headings: tuple[str, ...] = Field(description="The heading path above the passage, outermost first.")
    start: int = Field(description="Where the passage starts in the page's web_fetch text.")
    end: int = Field(description="Where it ends.")
    text: str = Field(description="The page's text from start to end.")
    score: float = Field(
        description="Its BM25+ score for the question, comparable across the pages, weighed by how well "
        "its page answers (its page's best score over the best page's)."
    )


class UnreadResult(BaseModel):
    """A search result that gave no passage, and why."""

    model_config = ConfigDict(frozen=True)

    url: str
    title: str
    reason: str = Field(description="Why, in a few words: refused, a JavaScript shell, timeout, …")
    error: str | None = Field(
        default=None, description="The error's type (llmweb.errors) when reading failed."
    )


class ResearchResult(BaseModel):
    """What web_research returns: the passages by page (the page with the best passage first, each
    page's best passage first), and the results that gave none."""

    model_config = ConfigDict(frozen=True)

    question: str
    searches: tuple[str, ...] = Field(description="The queries searched, in order.")
    passages: tuple[ResearchPassage, ...] = Field(
        description="By page, the page with the best passage first; each page's best passage first."
    )
    unread: tuple[UnreadResult, ...] = Field(description="Results that could not be read, with the reason.")
    unused: tuple[UnreadResult, ...] = Field(
        default=(),
        description="Pages read whose passages did not make it: none matched, or others ranked higher.",
    )
    pages_read: int = Field(description="How many pages were read whole.")
    max_chars: int
    seconds: float = Field(description="How long the call took.")


@dataclass(frozen=True)
class _Page:
    """A page read whole, for ranking."""

    result: SearchResult
    fetched: FetchResult
    text: str


def web_research(
    question: str,
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    sources: int = DEFAULT_SOURCES,
    language: str | None = None,
    time_range: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    searxng_url: str | None = None,
    allow: str | Iterable[str] | None = None,
    resolver: transport.Resolver = transport.system_resolver,
) -> ResearchResult:
    """Search for ``question``, read the top ``sources`` results at once, return the passages
    that answer it best across them, packed into ``max_chars``, by page and best first.

    ``timeout`` bounds the whole call: the search gets at most part of it, the pages the rest,
    each read by web_fetch's bounded worker. ``allow`` and ``resolver`` are web_fetch's.
    Raises InvalidInput for unusable arguments, and the search's own errors
    (SearchUnavailable, Timeout) when nothing could be searched; a page that fails only
    lands in ``unread``.
    """
    request = validate_arguments(
        ResearchRequest,
        {
            "question": question,
            "max_chars": max_chars,
            "sources": sources,
            "language": language,
            "time_range": time_range,
        },
    )
    return research(request, timeout=timeout, searxng_url=searxng_url, allow=allow, resolver=resolver)


def research(
    request: ResearchRequest,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    searxng_url: str | None = None,
    allow: str | Iterable[str] | None = None,
    resolver: transport.Resolver = transport.system_resolver,
) -> ResearchResult:
    """:func:`web_research` for a request already validated (the tools and the command line
    validate the model's arguments once, as a :class:`ResearchRequest`)."""
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not 0 < timeout <= MAX_TIMEOUT_SECONDS
    ):
        raise InvalidInput(
            f"timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT_SECONDS:g}, not {timeout!r}."
        )
    started = time.monotonic()
    deadline = started + timeout

    def search(query: str) -> SearchResponse:
        left = max(deadline - time.monotonic(), 0.1)
        return web_search(
            query,
            language=request.language,
            time_range=request.time_range,
            max_results=request.sources * 2,  # spares for results that are not web pages
            searxng_url=searxng_url,
            timeout=min(left, timeout * SEARCH_SHARE),
        )

    searches = [request.question]
    results = _readable(search(request.question).results)[: request.sources]
    pages, unread = _read_all(results, deadline, allow, resolver)
    passages, unused = choose(pages, request.question, request.max_chars - _frame(searches, unread))
    keywords = fallback_query(request.question)
    # nothing usable (no result, or none that answers): once more with the question's own terms
    if not passages and keywords not in ("", request.question) and deadline - time.monotonic() > timeout / 3:
        searches.append(keywords)
        tried = {r.url for r in results}
        more = [r for r in _readable(search(keywords).results) if r.url not in tried][: request.sources]
        more_pages, more_unread = _read_all(more, deadline, allow, resolver)
        pages, unread = pages + more_pages, unread + more_unread
        passages, unused = choose(pages, request.question, request.max_chars - _frame(searches, unread))
    return ResearchResult(
        question=request.question,
        searches=tuple(searches),
        passages=tuple(passages),
        unread=tuple(unread),
        unused=tuple(UnreadResult(url=p.result.url, title=p.result.title, reason=r) for p, r in unused),
        pages_read=len(pages),
        max_chars=request.max_chars,
        seconds=round(time.monotonic() - started, 3),
    )


def fallback_query(question: str) -> str:
    """The question's content words, without question words and stopwords: a plainer search."""
    words = _WORD.findall(question)
    analyser = Analyser("polish" if Analyser.for_page(question).language == "polish" else "english")
    kept = [w for w in words if analyser.terms(w)]
    return " ".join(kept)


def _readable(results: Sequence[SearchResult]) -> list[SearchResult]:
    return [r for r in results if r.url.lower().startswith(("http://", "https://"))]


def _frame(searches: Sequence[str], unread: Sequence[UnreadResult]) -> int:
    """What the answer's frame takes: the question, each further search said, the unread listed."""
    said = sum(len(s) + SEARCH_SAID_CHARS for s in searches)
    return ANSWER_FRAME_CHARS + said + sum(UNREAD_LINE_CHARS + len(u.url) for u in unread)


# --- reading ---------------------------------------------------------------------------------


def _read_all(
    results: Sequence[SearchResult],
    deadline: float,
    allow: str | Iterable[str] | None,
    resolver: transport.Resolver,
) -> tuple[list[_Page], list[UnreadResult]]:
    """Every result read at once; what did not arrive by the deadline is unread ("timeout")."""
    if not results:
        return [], []
    left = deadline - time.monotonic()
    if left <= 0.05:
        return [], [_unread(r, "timeout: the call's time ran out before it could be read") for r in results]
    pool = ThreadPoolExecutor(max_workers=len(results), thread_name_prefix="llmweb-research")
    futures: dict[Future[tuple[FetchResult, str]], SearchResult] = {
        pool.submit(read_page, r.url, allow=allow, timeout=left, resolver=resolver): r for r in results
    }
    outcome: dict[str, _Page | UnreadResult] = {}
    pending = set(futures)
    while pending:
        done, pending = wait(
            pending, timeout=max(deadline - time.monotonic(), 0), return_when=FIRST_COMPLETED
        )
        if not done:
            break
        for future in done:
            result = futures[future]
            try:
                fetched, text = future.result()
            except LlmwebError as exc:
                outcome[result.url] = UnreadResult(
                    url=result.url, title=result.title, reason=unread_reason(exc), error=type(exc).__name__
                )
            else:
                outcome[result.url] = _Page(result, fetched, text)
    for future in pending:  # each read ends at its own deadline, the same one: nothing outlives it for long
        outcome[futures[future].url] = _unread(
            futures[future], "timeout: not read within the call's time", "FetchTimeout"
        )
    pool.shutdown(wait=False, cancel_futures=True)
    pages = [o for r in results if isinstance(o := outcome[r.url], _Page)]
    unread = [o for r in results if isinstance(o := outcome[r.url], UnreadResult)]
    return pages, unread


def _unread(result: SearchResult, reason: str, error: str | None = None) -> UnreadResult:
    return UnreadResult(url=result.url, title=result.title, reason=reason, error=error)


# The error's kind in llmweb's words; its message (also llmweb's) says more than a list needs.
_REASONS: tuple[tuple[type[FetchError], str], ...] = (
    (BlockedAddress, "refused: a private or local address"),
    (NeedsJavaScript, "a JavaScript shell: its text is filled in by scripts"),
    (ChallengePage, "refused: a bot check answered instead of the page"),
    (FetchTimeout, "timeout: the page did not arrive in time"),
    (TooLarge, "too large to read"),
    (UnsupportedContent, "not text (an image, archive or other binary)"),
    (NoReadableText, "no readable text"),
    (RedirectRefused, "refused: a redirect llmweb does not follow"),
    (Unreachable, "unreachable"),
)


def unread_reason(error: LlmwebError) -> str:
    """Why a page gave no text, in a few of llmweb's words."""
    if isinstance(error, UpstreamStatus):
        return f"the site answered HTTP {error.status}" if error.status else "the site answered an error"
    for kind, reason in _REASONS:
        if isinstance(error, kind):
            return reason
    if isinstance(error, InvalidInput):
        return "not an address llmweb reads"
    return "could not be read"


# --- choosing --------------------------------------------------------------------------------


def choose(
    pages: Sequence[_Page], question: str, room: int
) -> tuple[list[ResearchPassage], list[tuple[_Page, str]]]:
    """The best passages of all pages that fit in ``room`` characters (frames counted: a page's
    once, with its first passage), by page and best first, and the pages read but not cited."""
    ranked = rank_pages([p.text for p in pages], question)
    bests = [float(scores.max(initial=0.0)) for _, scores in ranked]
    top = max(bests, default=0.0)
    candidates: list[tuple[float, int, int]] = []  # (score, page, passage)
    for page_index, (_, scores) in enumerate(ranked):
        weight = page_weight(bests[page_index], top)
        candidates += [(float(s) * weight, page_index, i) for i, s in enumerate(scores) if s > 0]
    candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
    taken: list[tuple[float, int, Span]] = []
    shingles: list[tuple[int, set[int]]] = []  # (page, shingles) of each passage taken
    used: set[int] = set()
    left = room
    for score, page_index, i in candidates:
        if score < RELATIVE_FLOOR * top or left < PASSAGE_FRAME_CHARS * 2:
            break
        page, span = pages[page_index], ranked[page_index][0][i]
        frame = _frame_cost(page, span, page_index not in used) + (PASSAGE_MARGIN_CHARS if taken else 0)
        cost = span.end - span.start + frame
        if cost > left:
            if taken:
                continue
            span = _cut(page.text, span, left - frame)
            cost = span.end - span.start + frame
            if span.end <= span.start or cost > left:
                continue
        own = _shingles(page.text[span.start : span.end])
        if any(p != page_index and _overlap(own, other) >= DUPLICATE_SHARE for p, other in shingles):
            continue
        shingles.append((page_index, own))
        taken.append((score, page_index, span))
        used.add(page_index)
        left -= cost
    passages = [_passage(pages[page_index], span, score) for score, page_index, span in _grouped(taken)]
    unmatched = [
        (page, "no passage matches the question" if float(scores.max(initial=0.0)) <= 0 else
         "its passages ranked below the others'")
        for page_index, (page, (_, scores)) in enumerate(zip(pages, ranked, strict=True))
        if page_index not in used
    ]  # fmt: skip
    return passages, unmatched


def page_weight(page_best: float, top: float) -> float:
    """What a page's passages are weighed by: how well its best passage answers, against the best
    page's best. The pages read beside the one that answers are mostly of the same manual and share
    the question's common words; their second and third passages, of a page whose best answers less
    well, otherwise take the room of the answering page's further passages (its summary entry often
    ranks a few places down on its own page). A page whose best passage scores under about half the
    top one (the square root of :data:`RELATIVE_FLOOR`) falls under the floor altogether."""
    return page_best / top if top > 0 else 0.0


def _frame_cost(page: _Page, span: Span, first_of_page: bool) -> int:
    """What a passage costs in the answer beyond its text; the first of a page pays for the page."""
    title = page.fetched.title or page.result.title
    cost = PASSAGE_FRAME_CHARS + len(passage_place(span.headings, title, page.text[span.start : span.end]))
    if first_of_page:
        cost += PAGE_FRAME_CHARS + len(page.fetched.requested_url) + len(title)
    return cost


def passage_place(headings: Sequence[str], title: str | None, text: str) -> str:
    """The heading path a passage is shown under, less what its page's title and its own first
    line already say (the page's first heading is mostly its title; a passage mostly opens with
    its own heading)."""
    path = [" ".join(h.split()) for h in headings]
    if path and _plain(path[0]) == _plain(title or ""):
        path = path[1:]
    opening = _HEADING_LINE.match(text.lstrip("\n"))
    if path and opening and _plain(opening.group(1)) == _plain(path[-1]):
        path = path[:-1]
    return " › ".join(path)


def _plain(text: str) -> str:
    """A heading or title as words, without the markdown marks one of them may carry (`code`)."""
    return " ".join(text.translate(_MARKS).split())


def _cut(text: str, span: Span, room: int) -> Span:
    """The first ``room`` characters of a passage too long for the whole answer, ended at a sentence."""
    if room <= 0:
        return Span(span.start, span.start, span.headings)
    limit = span.start + room
    cut = text.rfind("\n", span.start + room // 2, limit)
    end = cut if cut != -1 else sentence_end(text, span.start, limit)
    return Span(span.start, end, span.headings)


def _grouped(taken: list[tuple[float, int, Span]]) -> list[tuple[float, int, Span]]:
    """The passages by page, the page with the best passage first, each page's best first."""
    joined = _joined(taken)
    first: dict[int, int] = {}
    for place, (_, page_index, _) in enumerate(joined):
        first.setdefault(page_index, place)
    return sorted(joined, key=lambda t: first[t[1]])  # stable: best first within a page


def _joined(taken: list[tuple[float, int, Span]]) -> list[tuple[float, int, Span]]:
    """Passages of one page that touch read as one, at the rank of the better; best first."""
    by_place = sorted(taken, key=lambda t: (t[1], t[2].start))
    joined: list[tuple[float, int, Span]] = []
    for score, page_index, span in by_place:
        if joined and joined[-1][1] == page_index and _touch(joined[-1][2], span):
            best, _, previous = joined[-1]
            joined[-1] = (max(best, score), page_index, Span(previous.start, span.end, previous.headings))
        else:
            joined.append((score, page_index, span))
    return sorted(joined, key=lambda t: -t[0])


def _touch(first: Span, second: Span) -> bool:
    return 0 <= second.start - first.end <= 2  # only the blank line between them


def _passage(page: _Page, span: Span, score: float) -> ResearchPassage:
    fetched = page.fetched
    published = fetched.published or (page.result.published.isoformat() if page.result.published else None)
    return ResearchPassage(
        url=fetched.requested_url,
        title=fetched.title or page.result.title or None,
        published=published,
        headings=span.headings,
        start=span.start,
        end=span.end,
        text=page.text[span.start : span.end],
        score=round(score, 3),
    )


def _shingles(text: str) -> set[int]:
    words = _WORD.findall(text.lower())
    if len(words) < _SHINGLE:
        return {hash(tuple(words))}
    return {hash(tuple(words[i : i + _SHINGLE])) for i in range(len(words) - _SHINGLE + 1)}


def _overlap(first: set[int], second: set[int]) -> float:
    """The share of the smaller passage's shingles the other holds too."""
    return len(first & second) / max(1, min(len(first), len(second)))


__all__ = [
    "DEFAULT_MAX_CHARS",
    "ResearchPassage",
    "ResearchRequest",
    "ResearchResult",
    "UnreadResult",
    "passage_place",
    "unread_reason",
    "web_research",
]
