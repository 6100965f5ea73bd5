"""A question about a long page → the passages of its text that answer it best. Pure.

The page text is light markdown (:mod:`llmweb.fetch.html.markdown`), so its structure is in the text:
headings give each passage its place (``Coroutines and Tasks › Task Groups``), fenced code
blocks stay whole, tables keep their header row. :func:`split_passages` cuts the text into
passages of about :data:`PASSAGE_CHARS` along that structure; :func:`rank_passages` scores
them against the question with BM25 (rank-bm25); :func:`choose_passages` fills ``max_chars``
with the best ones and returns them in page order. :func:`focus_text` does all three.

Words are compared as :mod:`.terms` makes them: code identifiers split and joined
(``TaskGroup`` matches "task group"), stemmed in the page's language, and a Polish question
about an English page translated word by word through a small bundled glossary.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import NamedTuple

import numpy as np
from rank_bm25 import BM25Plus

from llmweb.fetch.focus import terms

# About a paragraph of documentation: a function's signature and first paragraph fit, and
# several passages from different places fit the default 5,000 characters. The bench
# (scripts/bench focus, BM25+) measured recall 0.886 at 900 characters, 0.896 at 600 and
# 750, 0.902 at 450.
PASSAGE_CHARS = 500
# A passage is never cut inside a code block; text blocks longer than this are split.
_LONGEST_TEXT_BLOCK = 2 * PASSAGE_CHARS
# A long block is cut at a line end only after this many characters: its first line alone (an
# entry's name over its description, "exception SystemExit") says nothing as a passage
_LEAD_IN_CHARS = 100
# Passages scoring under this share of the best are left out even when room remains:
# they add tokens, not answers.
RELATIVE_FLOOR = 0.3
# What each passage costs beyond its text: the label with its place (see render_fetch).
LABEL_CHARS = 60
# rank-bm25's defaults; headings weigh like words of the passage.
_K1, _B = 1.5, 0.75
# A passage that opens an entry (its first line a heading, or the term of a list item such as
# Sphinx's "- statistics.median(data)") holds the entry's summary, which answers a "how do I"
# question better than the examples and asides further down that repeat its words. Its score
# counts LEAD_PRIOR more, and the question's terms in that first line count LEAD_WEIGHT more
# times, so an entry whose name is a question word ("median", "join") comes first. Measured on
# the research bench's tuned half (96 questions): answered 51 → 62, web_fetch(url, query) on
# the right page 70 → 76; a prior of 0.1–0.5 and a weight of 0–3 all gave 59–63.
LEAD_PRIOR = 0.25
LEAD_WEIGHT = 2
_LEAD_LINE_CHARS = 200  # a longer first line is prose, not an entry's name
# An entry (a passage that opens one and those after it, up to the next) is scored as a whole too,
# and ENTRY_WEIGHT times its score is added to each of its passages that holds a term: an entry
# whose body as a whole covers the question lifts its passages above an aside elsewhere that
# repeats a few of its words. Measured with the pages read once: research bench, tuned half (96
# questions), answered 62 → 63, web_fetch(url, query) on the right page 76 → 78; held-out half (76,
# in aggregate) 50 → 53 and 62 → 65; scripts/bench focus 461 → 464 of 504, Polish 25 → 25 of 33.
# Weights 0.2–0.3 all gave 63 / 78–79 / 463–464; 0.5 and more lowered the answers (61, 58 at 1.0).
ENTRY_WEIGHT = 0.25
# rank_pages mixes each page's passages' scores among all pages with this share of their scores on
# the page alone (:func:`with_own_statistics`). Research bench, tuned half (96 questions, pages read
# once): answered 76 → 77 at shares 0.3, 0.5 and 0.7 (0.15: 76; the page's own scores alone: 75).
OWN_STATISTICS_SHARE = 0.5
# An entry's opening passage (its name and summary) scores at least as well as the next SUMMARY_REACH
# passages of its entry: when a parameter table or the paragraph after an entry's summary matches the
# question, the summary says what the entry does and is where to read on from. Only the next few: a long
# section ("## Examples") whose tenth code block matches says little through its heading. With the two
# changes below (entries named by the best passages; a long nested list cut where an entry starts) and
# a Polish question's function words no longer translated, measured with the pages read once: research
# bench tuned half (96 questions) answered 77 → 80, web_fetch's query on the right page 87 → 91; bench
# focus 465 → 465 of 504, Polish 28 → 28 of 33. Reaching the whole entry: 80 and 464 of 504 (462 without
# the cut at nested entries); reaching 1: 79 answered.
SUMMARY_REACH = 2
# An entry named in code by one of the REFERENCES_FROM best passages of its page scores at least
# REFERENCE_SHARE of that passage's score (:func:`with_references`). Research bench tuned half: answered
# 78 → 80 and web_fetch's query 90 → 91 (the others as above); shares 0.7–0.8 alike, 0.95–1.0 lowered
# web_fetch's query (from 90 to 88, before the cut at nested entries).
REFERENCE_SHARE = 0.8
REFERENCES_FROM = 5
_REFERENCE = re.compile(r"`(?:[\w.:]*(?:\.|::))?(\w+)(?:\(\))?`")  # `sub()`, `re.sub`, `HashMap::entry`
_ENTRY_NAME = re.compile(r"[ \t]{0,3}(?:#{1,6}[ \t]+|[-*+][ \t]+)(?:\w+[ \t]+)*?([\w.:]+)\(")
_NAME_PARTS = re.compile(r"\.|::")
_LEAD = re.compile(r"[ \t]{0,3}(?:#{1,6}[ \t]|[-*+][ \t]+\S)")

# One pass over the text finds every block; its groups are the block kinds (see Block).
_BLOCK = re.compile(
    r"""
    (?P<code>^[ \t]{0,3}(?P<fence>`{3,}|~{3,})[^\n]*\n(?:[^\n]*\n)*?[ \t]*(?P=fence)[`~]*[ \t]*$)
    |(?P<open_code>^[ \t]{0,3}(?:`{3,}|~{3,})(?s:.*)\Z)
    |(?P<heading>^\#{1,6}[ \t][^\n]*)
    |(?P<table>^[ \t]*\|[^\n]*(?:\n[ \t]*\|[^\n]*)*)
    |(?P<text>^[^\n]*\S[^\n]*(?:\n(?![ \t]*$|[ \t]*\||[ \t]{0,3}(?:```|~~~)|\#{1,6}[ \t])[^\n]*)*)
    """,
    re.MULTILINE | re.VERBOSE,
)
_HEADING = re.compile(r"(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*")
_SETEXT = re.compile(r"(=+|-+)[ \t]*")


class Block(NamedTuple):  # a named tuple: a megabyte of text makes tens of thousands
    """A run of the text that stays together: a heading, a paragraph, a code block or a table."""

    kind: str  # "heading", "text", "code" or "table"
    start: int
    end: int
    level: int = 0  # a heading's level, 1–6
    title: str = ""  # a heading's text


class Span(NamedTuple):
    """A passage before ranking: where it lies and the headings above it."""

    start: int
    end: int
    headings: tuple[str, ...]
    lead: str = ""  # a table's header rows, repeated before a later part of a long table


@dataclass(frozen=True)
class Passage:
    """A passage chosen for a question."""

    start: int  # where it starts in the page's text: web_fetch with this start reads on from here
    end: int
    headings: tuple[str, ...]  # the heading path above it, outermost first
    text: str  # the page's text from start to end (a long table's header rows first)
    rank: int  # 1 for the passage that matches the question best


@dataclass(frozen=True)
class Focus:
    """The passages chosen for a question, in page order, and how much of the text they cover."""

    passages: tuple[Passage, ...]
    total_passages: int  # how many passages the searched text was cut into
    matching_passages: int  # how many of them share a word with the question

    @property
    def best(self) -> Passage | None:
        return min(self.passages, key=lambda p: p.rank) if self.passages else None


def focus_text(
    text: str,
    query: str,
    max_chars: int,
    *,
    offset: int = 0,
    analyser: terms.Analyser | None = None,
    scorer: Scorer | None = None,
) -> Focus:
    """The passages of ``text`` that answer ``query`` best, at most ``max_chars`` of them.

    ``offset`` is where ``text`` starts in the page (when only its end is searched), so
    that every passage's ``start`` is a place in the whole page. ``analyser`` and
    ``scorer`` replace the defaults (the bench compares others).
    """
    spans = split_passages(text)
    scores = rank_passages(text, spans, query, analyser=analyser, scorer=scorer or bm25_scores)
    chosen = choose_passages(spans, scores, max_chars)
    passages = []
    for chosen_span, rank in chosen:
        span = cut_to_fit(text, chosen_span, max_chars)
        body = text[span.start : span.end]
        passages.append(
            Passage(span.start + offset, span.end + offset, span.headings, span.lead + body, rank)
        )
    return Focus(tuple(passages), len(spans), int(np.count_nonzero(scores)))


# --- structure ----------------------------------------------------------------------------


def split_blocks(text: str) -> Iterator[Block]:
    """The text's blocks in order; blank lines separate them, code fences and tables bound them.

    Yielded one at a time: a megabyte of text makes thousands, which as a list the garbage
    collector would walk through again and again while the passages are cut.
    """
    for match in _BLOCK.finditer(text):
        kind = match.lastgroup or "text"
        start, end = match.span(kind)
        if kind == "heading":
            heading = _HEADING.fullmatch(match.group(kind))
            if heading:
                yield Block("heading", start, end, len(heading.group(1)), heading.group(2))
                continue
        if kind == "text":
            # "Title" over "=====": a heading written the other way; its two lines are found in
            # place, not copied out of the text (a megabyte of paragraphs copied twice: 2 ms)
            underline = text.rfind("\n", start, end)
            one_line_above = underline != -1 and text.find("\n", start, underline) == -1
            setext = _SETEXT.fullmatch(text, underline + 1, end) if one_line_above else None
            if setext:
                level = 1 if setext.group(1)[0] == "=" else 2
                yield Block("heading", start, end, level, text[start:underline].strip())
                continue
        yield Block("code" if kind == "open_code" else kind, start, end)


def split_passages(text: str, size: int = PASSAGE_CHARS) -> list[Span]:
    """The text cut into passages of about ``size`` characters along its blocks.

    A heading starts a passage (a heading followed straight by another stays with it);
    blocks of one section join until the next would pass ``size``; a code block is never
    cut; a longer text block is cut at line or sentence ends, a longer table between rows.
    """
    spans: list[Span] = []
    path: list[tuple[int, str]] = []
    headings: tuple[str, ...] = ()  # path's titles: one tuple for all the passages of a section
    current: list[Block] = []
    only_headings = False

    def flush() -> None:
        nonlocal only_headings
        if current:
            spans.append(Span(current[0].start, current[-1].end, headings))
        current.clear()
        only_headings = False

    for block in split_blocks(text):
        if block.kind == "heading":
            if not only_headings:
                flush()
            while path and path[-1][0] >= block.level:
                path.pop()
            path.append((block.level, _clean_heading(block.title)))
            headings = tuple(title for _, title in path)
            current.append(block)
            only_headings = True
            continue
        length = block.end - block.start
        if current and not only_headings and block.end - current[0].start > size:
            flush()
        if length > _LONGEST_TEXT_BLOCK and block.kind in ("text", "table"):
            if current and not only_headings:
                flush()
            pieces = _split_long_block(text, block, size)
            first = pieces[0]
            if current:  # the headings just above join the first piece
                first = Span(current[0].start, first.end, first.headings, first.lead)
                current.clear()
                only_headings = False
            spans += [Span(p.start, p.end, headings, p.lead) for p in (first, *pieces[1:])]
            continue
        current.append(block)
        only_headings = False
    flush()
    return spans


def _split_long_block(text: str, block: Block, size: int) -> list[Span]:
    """A long paragraph or table in pieces of about ``size``; a table's pieces repeat its header."""
    lines = [(block.start + s, block.start + e) for s, e in _lines(text[block.start : block.end])]
    lead = ""
    if block.kind == "table" and len(lines) > 2:
        lead = text[lines[0][0] : lines[1][1]] + "\n"
    pieces: list[Span] = []
    piece_start = block.start
    item = -1  # where the piece's latest line that opens a nested entry starts
    for s, e in lines:
        if e - piece_start > size and s - piece_start > _LEAD_IN_CHARS:
            cut = s
            if block.kind == "text" and item - piece_start > _LEAD_IN_CHARS and not _LEAD.match(text, s, e):
                cut = item  # a class's methods as a nested list: a piece starts with a method's name
            pieces.append(Span(piece_start, cut - 1, (), lead if pieces else ""))
            piece_start = cut
        if s > piece_start and _LEAD.match(text, s, e):
            item = s
        while block.kind == "text" and e - piece_start > _LONGEST_TEXT_BLOCK:  # one very long line
            cut = sentence_end(text, piece_start, piece_start + size)
            pieces.append(Span(piece_start, cut, (), ""))
            piece_start = cut
            while piece_start < e and text[piece_start] in " \t":
                piece_start += 1
    pieces.append(Span(piece_start, block.end, (), lead if pieces else ""))
    if block.kind == "text":
        return [Span(p.start, p.end, ()) for p in pieces]
    return pieces


def sentence_end(text: str, start: int, limit: int) -> int:
    for boundary in (". ", "; ", ", ", " "):
        cut = text.rfind(boundary, start + (limit - start) // 2, limit)
        if cut != -1:
            return cut + len(boundary) - 1
    return limit


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of every line, end before its newline."""
    out, position = [], 0
    for line in text.split("\n"):
        out.append((position, position + len(line)))
        position += len(line) + 1
    return out


def _clean_heading(title: str) -> str:
    title = " ".join(title.split())
    return title if len(title) <= 80 else title[:79].rstrip() + "…"


# --- ranking -----------------------------------------------------------------------------


class PassageTerms:
    """A passage as BM25 needs it: its length in words, and the question's terms it holds.

    Terms the question does not ask for never change a score, so only the question's are
    listed (those of a first line that opens an entry, :data:`LEAD_WEIGHT` more times);
    ``len()`` still gives the passage's full length, which BM25 weighs.
    """

    __slots__ = ("asked", "length", "opens_entry")

    def __init__(self, length: int, asked: list[str], opens_entry: bool = False) -> None:
        self.length, self.asked, self.opens_entry = length, asked, opens_entry

    def __len__(self) -> int:
        return self.length

    def __iter__(self) -> Iterator[str]:
        return iter(self.asked)


Scorer = Callable[[list[PassageTerms], list[str]], np.ndarray]


def bm25_scores(passages: list[PassageTerms], asked: list[str]) -> np.ndarray:
    """BM25+ scores of the passages for the asked terms, by rank-bm25.

    BM25+ rather than Okapi: Okapi's idf turns negative for terms in most passages and is
    then floored by the average idf of the vocabulary, which here is only the question's
    (recall 0.857 against 0.886 on the bench).
    """
    scores: np.ndarray = BM25Plus(passages, k1=_K1, b=_B).get_scores(asked)
    return scores


def rank_passages(
    text: str,
    spans: Sequence[Span],
    query: str,
    *,
    analyser: terms.Analyser | None = None,
    scorer: Scorer = bm25_scores,
) -> np.ndarray:
    """BM25 score of each passage for ``query`` (0 where it shares no term with it).

    A passage's terms include those of the two headings just above it, so a passage
    under "Task Groups" answers a question about task groups; a passage that opens an entry
    weighs more (:data:`LEAD_PRIOR`, :data:`LEAD_WEIGHT`).
    """
    if not spans:
        return np.zeros(0)
    documents, asked = passage_terms(text, spans, query, analyser=analyser)
    return with_references(text, spans, score_documents(documents, asked, scorer))


def rank_pages(
    texts: Sequence[str], query: str, *, scorer: Scorer = bm25_scores
) -> list[tuple[list[Span], np.ndarray]]:
    """Every page's passages and their scores for ``query``, scored as one collection.

    One collection, so that scores compare across pages: a term found on every page weighs
    little on all of them; within a page, its passages' scores are mixed with those on the page
    alone (:func:`with_own_statistics`). Each page is analysed in its own language.
    """
    split = [split_passages(text) for text in texts]
    documents: list[PassageTerms] = []
    asked: list[str] = []
    page_starts: list[int] = []  # where each page's passages start: an entry never runs on to the next page
    own_scores: list[np.ndarray] = []  # each page's passages scored by the page's own statistics
    for text, spans in zip(texts, split, strict=True):
        if spans:
            page_documents, page_asked = passage_terms(text, spans, query)
            page_starts.append(len(documents))
            documents += page_documents
            asked += page_asked
            own_scores.append(score_documents(page_documents, page_asked, scorer))
    scores = score_documents(documents, list(dict.fromkeys(asked)), scorer, page_starts)
    ranked, position, own = [], 0, iter(own_scores)
    for text, spans in zip(texts, split, strict=True):
        page_scores = scores[position : position + len(spans)]
        if spans:
            page_scores = with_references(text, spans, with_own_statistics(page_scores, next(own)))
        ranked.append((spans, page_scores))
        position += len(spans)
    return ranked


def with_references(text: str, spans: Sequence[Span], scores: np.ndarray) -> np.ndarray:
    """The scores with each entry named by one of the best passages lifted to :data:`REFERENCE_SHARE`
    of that passage's score.

    For manuals whose examples and overviews name the function they use in code (`` `sub()` ``
    replaces every occurrence…", "`` `findall()` `` matches all occurrences…"): they share the
    question's words, the function's own entry ("- re.sub(pattern, repl, string…)") often shares
    few, yet it is the entry that answers and where the caller reads on. An entry's name is the
    last part of the name on its first line, before its arguments.
    """
    named: dict[str, list[tuple[int, float]]] = {}  # a name → the best passages that name it
    for i in np.argsort(-scores, kind="stable")[:REFERENCES_FROM].tolist():
        if scores[i] <= 0:
            break
        for name in set(_REFERENCE.findall(text, spans[i].start, spans[i].end)):
            named.setdefault(name, []).append((i, float(scores[i])))
    if not named:
        return scores
    lifted = scores.copy()
    for j, span in enumerate(spans):
        entry = _ENTRY_NAME.match(text, span.start, span.end)
        if entry:
            for i, score in named.get(_NAME_PARTS.split(entry.group(1))[-1], ()):
                if i != j:
                    lifted[j] = max(lifted[j], REFERENCE_SHARE * score)
    return lifted


def with_own_statistics(joint: np.ndarray, own: np.ndarray) -> np.ndarray:
    """A page's passages' scores among all pages, mixed with their scores on the page alone.

    For pages read together that differ in subject (the results of one search). Among them, a
    word that runs through one page (its subject: "regular expression" on a manual's page about
    them) is rare and weighs much, so it lifts every passage of that page that repeats it
    (examples, asides) over the entry that answers in the question's other words ("replace");
    on the page alone it weighs little, as web_fetch's query ranks it. The page-alone scores are
    rescaled so that the page's best keeps its score among all pages: how pages compare stays
    the collection's.
    """
    best, own_best = float(joint.max(initial=0.0)), float(own.max(initial=0.0))
    if best <= 0 or own_best <= 0:
        return joint
    mixed = (1 - OWN_STATISTICS_SHARE) * joint + OWN_STATISTICS_SHARE * own * (best / own_best)
    return np.where(joint > 0, mixed, 0.0)


def passage_terms(
    text: str, spans: Sequence[Span], query: str, *, analyser: terms.Analyser | None = None
) -> tuple[list[PassageTerms], list[str]]:
    """Each passage as BM25 needs it, and the question's terms as this page's analyser makes them."""
    analyser = analyser or terms.Analyser.for_page(text)
    asked = analyser.query_terms(query)
    clean = terms.clean_text(text)  # the same length as text: spans cut it the same way
    heading_pieces = {path: terms.split_pieces(" ".join(path)) for path in {s.headings[-2:] for s in spans}}
    pieces = [heading_pieces[span.headings[-2:]] + clean[span.start : span.end].split() for span in spans]
    hits_of = analyser.giving(chain.from_iterable(pieces), asked)
    # a passage's length is its count of words, which BM25 weighs the same way as terms
    documents = []
    for span, words in zip(spans, pieces, strict=True):
        hits = list(chain.from_iterable(map(hits_of.__getitem__, filter(hits_of.__contains__, words))))
        # only a passage holding a term can score, and its first line's words are among its own;
        # every passage that opens an entry is marked, as entries are scored whole too
        lead = lead_line(text, span)
        if lead is not None and hits:
            line = filter(hits_of.__contains__, clean[lead[0] : lead[1]].split())
            hits += list(chain.from_iterable(map(hits_of.__getitem__, line))) * LEAD_WEIGHT
        documents.append(PassageTerms(len(words), hits, lead is not None))
    return documents, asked


def lead_line(text: str, span: Span) -> tuple[int, int] | None:
    """Where the passage's first line lies when it opens an entry (a heading, a list item's term)."""
    if not _LEAD.match(text, span.start, span.end):
        return None
    end = text.find("\n", span.start, span.end)
    end = span.end if end == -1 else end
    return (span.start, end) if end - span.start <= _LEAD_LINE_CHARS else None


def score_documents(
    documents: list[PassageTerms], asked: list[str], scorer: Scorer, page_starts: Sequence[int] = (0,)
) -> np.ndarray:
    """The scorer's scores of the passages, 0 for those holding none of the asked terms.

    A passage that opens an entry weighs :data:`LEAD_PRIOR` more, and each passage gains
    :data:`ENTRY_WEIGHT` times its entry's score (:func:`entry_documents`); ``page_starts``
    are where each page's passages start when ``documents`` holds several pages.
    """
    present = {term for document in documents for term in document.asked}
    if not present:
        return np.zeros(len(documents))
    wanted = [t for t in asked if t in present]
    scores = np.asarray(scorer(documents, wanted), dtype=float)
    scores *= np.where([d.opens_entry for d in documents], 1.0 + LEAD_PRIOR, 1.0)
    entry_of, entries = entry_documents(documents, page_starts)
    scores += ENTRY_WEIGHT * np.asarray(scorer(entries, wanted), dtype=float)[entry_of]
    holds = np.array([bool(d.asked) for d in documents])
    # an entry's opening passage scores as well as the best of the SUMMARY_REACH passages after it
    openings = np.flatnonzero(np.r_[True, entry_of[1:] != entry_of[:-1]])
    ends = np.r_[openings[1:], len(documents)]
    summary = scores[openings]
    for step in range(1, SUMMARY_REACH + 1):
        within = openings + step < ends
        summary[within] = np.maximum(summary[within], scores[openings[within] + step])
    scores[openings] = np.where(holds[openings], summary, scores[openings])
    return np.where(holds, scores, 0.0)  # BM25+ gives every passage a little


def entry_documents(
    documents: Sequence[PassageTerms], page_starts: Sequence[int] = (0,)
) -> tuple[np.ndarray, list[PassageTerms]]:
    """Each passage's entry (an index), and every entry as one document for BM25.

    An entry runs from a passage that opens one (a heading, a list item's term) to the next,
    or from a page's first passage; its terms are its passages' (their first lines' weight
    included), its length theirs together.
    """
    starts = np.array([d.opens_entry for d in documents], dtype=bool)
    starts[[p for p in page_starts if p < len(documents)]] = True
    entries: list[PassageTerms] = []
    for document, opens in zip(documents, starts, strict=True):
        if opens:
            entries.append(PassageTerms(0, []))
        entries[-1].length += document.length
        entries[-1].asked += document.asked
    return np.cumsum(starts) - 1, entries


def choose_passages(
    spans: Sequence[Span], scores: np.ndarray, max_chars: int, *, floor: float = RELATIVE_FLOOR
) -> list[tuple[Span, int]]:
    """The best passages that fit in ``max_chars``, in page order, each with its rank (1 = best).

    Passages scoring under ``floor`` times the best are left out; neighbouring passages
    that are both chosen come back as one. When even the best passage is longer than
    ``max_chars``, it alone comes back, whole: the caller cuts it.
    """
    if not len(spans) or float(scores.max(initial=0.0)) <= 0:
        return []
    top = float(scores.max())
    order = sorted(range(len(spans)), key=lambda i: (-scores[i], i))
    room = max_chars
    taken: dict[int, int] = {}
    for rank, i in enumerate(order, 1):
        if scores[i] <= 0 or scores[i] < floor * top or room < LABEL_CHARS * 2:
            break
        cost = spans[i].end - spans[i].start + len(spans[i].lead) + LABEL_CHARS
        if cost <= room:
            taken[i] = rank
            room -= cost
    if not taken:
        return [(spans[order[0]], 1)]
    chosen: list[tuple[Span, int]] = []
    for i in sorted(taken):
        span, rank = spans[i], taken[i]
        if chosen and i - 1 in taken and not span.lead:
            previous, previous_rank = chosen[-1]
            chosen[-1] = (
                Span(previous.start, span.end, previous.headings, previous.lead),
                min(rank, previous_rank),
            )
        else:
            chosen.append((span, rank))
    merit = sorted(range(len(chosen)), key=lambda k: chosen[k][1])
    renumbered = {k: position for position, k in enumerate(merit, 1)}
    return [(span, renumbered[k]) for k, (span, _) in enumerate(chosen)]


def cut_to_fit(text: str, span: Span, max_chars: int) -> Span:
    """The start of a passage too long for ``max_chars``, ended at a line break when there is one."""
    room = max(max_chars - LABEL_CHARS - len(span.lead), 1)
    if span.end - span.start <= room:
        return span
    limit = span.start + room
    cut = text.rfind("\n", span.start + room // 2, limit)
    return Span(span.start, cut if cut != -1 else limit, span.headings, span.lead)
