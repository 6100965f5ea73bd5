"""Part: web_fetch with a question, on long documentation pages — recall, tokens, speed."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

from bench import focus_corpus, focus_polish
from bench.report import PartResult, Target, table
from bench.tokens_count import count_tokens, tokenizer_name
from llmweb.fetch import FetchResult
from llmweb.fetch.focus import terms
from llmweb.fetch.focus.passages import Passage, PassageTerms, Scorer, focus_text
from llmweb.fetch.focus.terms import Analyser
from llmweb.fetch.window import cut_window
from llmweb.render import render_fetch

MAX_CHARS = 5000
CHUNK_CHARS = 1000  # the plain baseline's fixed-size chunks
RECALL_TARGET = 0.9
SPEED_TARGET_MS = 100.0
BIG_PAGE_CHARS = 1_000_000
URL = "https://docs.example/page.html"

Answer = Callable[[str, str], list[str]]  # (page text, question) → the texts returned


@dataclass
class Tally:
    asked: int = 0
    found: int = 0
    tokens: list[int] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)

    def recall(self) -> float:
        return self.found / self.asked if self.asked else 0.0


# --- the answers compared ------------------------------------------------------------------


def focused(
    analyser: Callable[[str], Analyser] | None = None, scorer: Scorer | None = None
) -> Callable[[str, str], tuple[list[str], str]]:
    def answer(text: str, question: str) -> tuple[list[str], str]:
        found = focus_text(
            text, question, MAX_CHARS, analyser=analyser(text) if analyser else None, scorer=scorer
        )
        if not found.passages:  # what web_fetch does then: the first window
            window, _ = cut_window(text, 0, MAX_CHARS)
            return [window], render_fetch(_result(text, window))
        shown = _result(
            text, "\n\n".join(p.text for p in found.passages), passages=found.passages, query=question
        )
        return [p.text for p in found.passages], render_fetch(shown)

    return answer


def first_window(text: str, question: str) -> tuple[list[str], str]:
    window, next_start = cut_window(text, 0, MAX_CHARS)
    return [window], render_fetch(_result(text, window, next_start=next_start))


def bm25_chunks(text: str, question: str) -> tuple[list[str], str]:
    """Plain BM25 (rank-bm25) over fixed 1,000-character chunks, words lowercased, nothing else."""
    from rank_bm25 import BM25Okapi

    chunks = [text[i : i + CHUNK_CHARS] for i in range(0, len(text), CHUNK_CHARS)]
    tokenized = [focus_corpus.words(chunk) for chunk in chunks]
    scores = BM25Okapi(tokenized).get_scores(focus_corpus.words(question))
    best = sorted(np.argsort(-scores)[: MAX_CHARS // CHUNK_CHARS])
    joined: list[str] = []
    for i, index in enumerate(best):  # neighbouring chunks read as one text
        if i and index == best[i - 1] + 1:
            joined[-1] += chunks[index]
        else:
            joined.append(chunks[index])
    return joined, "\n\n".join(joined)


def _result(
    text: str,
    shown: str,
    *,
    next_start: int | None = None,
    passages: Sequence[Passage] = (),
    query: str | None = None,
) -> FetchResult:
    return FetchResult(
        url=URL, requested_url=URL, rewritten=False, title="Page", content_type="text/html", text=shown,
        start=0, total_chars=len(text), next_start=next_start, passages=tuple(passages), query=query,
    )  # fmt: skip


def bm25s_scores(passages: list[PassageTerms], asked: list[str]) -> np.ndarray:
    """The same passages scored by bm25s; each passage padded to its length with one filler term."""
    import bm25s

    documents = [list(p.asked) + [""] * (len(p) - len(p.asked)) for p in passages]
    index = bm25s.BM25(k1=1.5, b=0.75)
    index.index(documents, show_progress=False)
    scores: np.ndarray = index.get_scores(asked)
    return scores


def okapi_scores(passages: list[PassageTerms], asked: list[str]) -> np.ndarray:
    from rank_bm25 import BM25Okapi

    scores: np.ndarray = BM25Okapi(passages, k1=1.5, b=0.75).get_scores(asked)
    floored: np.ndarray = np.maximum(scores, 0.0)
    return floored


class _Unstemmed:
    def stemWords(self, words: list[str]) -> list[str]:
        return words


class _Prefix:
    def stemWords(self, words: list[str]) -> list[str]:
        return [w[:5] for w in words]


def analyser_with(stemmer: object) -> Callable[[str], Analyser]:
    def make(text: str) -> Analyser:
        analyser = Analyser.for_page(text)
        analyser._stem = stemmer  # the bench's stand-ins for Snowball
        return analyser

    return make


class _NoGlossary(Analyser):
    def query_terms(self, query: str) -> list[str]:
        return list(dict.fromkeys(self.terms(query)))


# --- running -----------------------------------------------------------------------------


def ask(
    method: Callable[[str, str], tuple[list[str], str]],
    questions: Sequence[tuple[str, str, str]],  # (page text, question, key)
) -> Tally:
    tally = Tally()
    for text, question, key in questions:
        started = time.process_time()
        texts, shown = method(text, question)
        tally.cpu_ms.append((time.process_time() - started) * 1000)
        tally.asked += 1
        tally.found += any(focus_corpus.contains(t, key) for t in texts)
        tally.tokens.append(count_tokens(shown))
    return tally


def _row(label: str, tally: Tally) -> tuple[object, ...]:
    return (
        label, tally.asked, f"**{tally.recall():.2f}**", round(statistics.mean(tally.tokens)),
        f"{statistics.median(tally.cpu_ms):.1f}", f"{np.percentile(tally.cpu_ms, 95):.1f}",
    )  # fmt: skip


def big_page(pages: Sequence[focus_corpus.FocusPage]) -> str:
    text = ""
    for page in pages:
        text += page.text + "\n\n"
        if len(text) >= BIG_PAGE_CHARS:
            break
    return text[:BIG_PAGE_CHARS]


def time_big_page(text: str, questions: Sequence[str], *, cold: bool = True) -> tuple[float, float, float]:
    """Best and median CPU milliseconds, and the median wall milliseconds, of focus_text on ``text``;
    ``cold``: each call with the memo of analysed words emptied first (terms.forget_pieces), as on a
    page in a process that has read nothing, not on this page's words learned by the call before."""
    cpu, wall = [], []
    for _ in range(3):
        for question in questions:
            if cold:
                terms.forget_pieces()
            started, clock = time.process_time(), time.perf_counter()
            focus_text(text, question, MAX_CHARS)
            cpu.append((time.process_time() - started) * 1000)
            wall.append((time.perf_counter() - clock) * 1000)
    return min(cpu), statistics.median(cpu), statistics.median(wall)


Method = Callable[[str, str], tuple[list[str], str]]
Row = tuple[object, ...]
Asked = tuple[str, str, str]  # (page text, question, key)


@dataclass
class _BigPage:
    """The speed of focus on one 1 MB page."""

    chars: int
    best_ms: float
    median_ms: float
    wall_ms: float
    bm25s_ms: float
    warm_ms: float  # the median with the page's words already in the memo of analysed words


def run(workdir: Path) -> PartResult:
    part = PartResult("focus", "Reading only what answers: web_fetch with a question")
    try:
        pages, questions = focus_corpus.load()
    except Exception as exc:  # apt could not provide the packages
        part.add(f"**Skipped:** {exc}")
        part.targets.append(Target("focus corpus", "available", f"unavailable: {exc}", None))
        return part
    texts = {(p.kind, p.path): p.text for p in pages}
    usable = [q for q in questions if focus_corpus.contains(texts[(q.kind, q.page)], q.key)]
    part.say(f"{len(pages)} pages, {len(usable)} of {len(questions)} questions answerable in this run's text")
    kinds = sorted({q.kind for q in usable})
    rows, overall = _answers_by_kind(part, texts, usable, kinds)
    variant_rows = _variant_rows(part, [(texts[(q.kind, q.page)], q.question, q.key) for q in usable])
    polish_rows, polish_tally = _polish(part)
    big = _big_page_speed(part, pages, usable)
    part.add(
        *_corpus_note(pages, questions, usable, kinds),
        table(("answer", "questions", "recall", "tokens", "CPU ms, median", "CPU ms, p95"), rows),
        *_tables_after_answers(variant_rows, polish_rows, big),
    )
    focused_total, window_total = overall["focused (llmweb)"], overall["first window"]
    part.figure("recall", focused_total.recall())
    part.figure("first_window_recall", window_total.recall())
    part.figure("polish_recall", polish_tally.recall() if polish_tally.asked else 0.0)
    part.figure("megabyte_page_ms", big.median_ms)
    part.targets += _targets(overall, polish_tally, big)
    return part


def _answers_by_kind(
    part: PartResult,
    texts: dict[tuple[str, str], str],
    usable: Sequence[focus_corpus.Question],
    kinds: list[str],
) -> tuple[list[Row], dict[str, Tally]]:
    """The three answers on each kind of page and on both: the table's rows and each answer's tally."""
    methods: list[tuple[str, Method]] = [
        ("focused (llmweb)", focused()),
        ("first window", first_window),
        ("plain BM25, 1,000-character chunks", bm25_chunks),
    ]
    rows: list[Row] = []
    overall: dict[str, Tally] = {}
    for name, method in methods:
        merged = Tally()
        for kind in kinds:
            asked = [(texts[(q.kind, q.page)], q.question, q.key) for q in usable if q.kind == kind]
            tally = ask(method, asked)
            rows.append(_row(f"{name} — {kind}", tally))
            merged.asked += tally.asked
            merged.found += tally.found
            merged.tokens += tally.tokens
            merged.cpu_ms += tally.cpu_ms
        rows.append(_row(f"{name} — **both**", merged))
        overall[name] = merged
        part.say(f"{name}: recall {merged.recall():.2f}")
    return rows, overall


def _variant_rows(part: PartResult, everything: Sequence[Asked]) -> list[Row]:
    """The scoring libraries and stemming options, each on all questions."""
    variants: list[tuple[str, Method]] = [
        ("rank-bm25 (BM25+), Snowball stems — shipped", focused()),
        ("bm25s (Lucene), Snowball stems", focused(scorer=bm25s_scores)),
        ("rank-bm25 (Okapi), Snowball stems", focused(scorer=okapi_scores)),
        ("rank-bm25, no stemming", focused(analyser=analyser_with(_Unstemmed()))),
        ("rank-bm25, 5-letter prefixes instead of stems", focused(analyser=analyser_with(_Prefix()))),
    ]
    variant_rows = []
    for name, method in variants:
        tally = ask(method, everything)
        variant_rows.append(_row(name, tally))
        part.say(f"{name}: recall {tally.recall():.2f}, median {statistics.median(tally.cpu_ms):.1f} ms")
    return variant_rows


def _big_page_speed(
    part: PartResult, pages: Sequence[focus_corpus.FocusPage], usable: Sequence[focus_corpus.Question]
) -> _BigPage:
    big = big_page(pages)
    questions = [q.question for q in usable[:5]]
    best_ms, median_ms, wall_ms = time_big_page(big, questions)
    warm_ms = time_big_page(big, questions, cold=False)[1]
    big_bm25s = min(
        _timed(partial(focus_text, big, usable[0].question, MAX_CHARS, scorer=bm25s_scores)) for _ in range(3)
    )
    part.say(
        f"1 MB page: {median_ms:.0f} ms CPU (best {best_ms:.0f}, words learned {warm_ms:.0f}), wall {wall_ms:.0f} ms"
    )
    return _BigPage(len(big), best_ms, median_ms, wall_ms, big_bm25s, warm_ms)


def _corpus_note(
    pages: Sequence[focus_corpus.FocusPage],
    questions: Sequence[focus_corpus.Question],
    usable: Sequence[focus_corpus.Question],
    kinds: list[str],
) -> tuple[str, ...]:
    """The paragraphs on the corpus and on what is measured, before the first table."""
    return (
        f"**Corpus.** {len(pages)} long pages (≥ {focus_corpus.MIN_PAGE_CHARS:,} characters of extracted text: "
        + ", ".join(f"{sum(p.kind == k for p in pages)} {k}" for k in kinds)
        + f") and {len(usable)} questions ({len(questions) - len(usable)} more whose answer key this run's "
        "extraction no longer holds once are left out). "
        + " ".join(" ".join((focus_corpus.__doc__ or "").split("\n\n")[1:]).split()).replace("``", "`"),
        "",
        f"**Measured.** Each question is asked of its page's text as web_fetch extracts it, with max_chars "
        f"{MAX_CHARS:,}. *Recall*: the share of questions whose answer key lies whole in one returned text. "
        "*Tokens*: what the model reads (the rendered tool answer; for plain BM25 the chunks alone), "
        f"mean per question. *CPU ms*: process time of one answer (the page already extracted), median and "
        f"95th percentile. {tokenizer_name()}.",
        "",
    )


def _tables_after_answers(variant_rows: list[Row], polish_rows: list[Row], big: _BigPage) -> tuple[str, ...]:
    """The choices' table, the Polish questions' table and the 1 MB page's speed."""
    return (
        "",
        "**Choices, on all questions.** The same passages and terms scored by each library, and the "
        "stemming options (no stemming; a light prefix stemmer). The stand-ins replace only the stemmer.",
        "",
        table(("variant", "questions", "recall", "tokens", "CPU ms, median", "CPU ms, p95"), variant_rows),
        "",
        "**Polish questions about English pages** (bench/focus_polish.py: hand-written Polish questions for "
        "known sections, each with the English question a model sends when it follows the tool description; "
        "the glossary was written before the questions and not changed for them).",
        "",
        table(("answer", "questions", "recall", "tokens", "CPU ms, median", "CPU ms, p95"), polish_rows),
        "",
        f"**Speed on a 1 MB page** ({big.chars:,} characters: the corpus's pages one after another; 5 questions, "
        f"3 rounds, the memo of analysed words emptied before each call): CPU {big.median_ms:.0f} ms median, "
        f"{big.best_ms:.0f} ms best; wall {big.wall_ms:.0f} ms median (the machine is shared: wall time counts "
        f"other work). With the page's words already learned (a page asked again, or words met on earlier "
        f"pages): {big.warm_ms:.0f} ms CPU median. With bm25s scoring instead: "
        f"{big.bm25s_ms:.0f} ms CPU, best of 3.",
    )


def _targets(overall: dict[str, Tally], polish_tally: Tally, big: _BigPage) -> list[Target]:
    focused_total, window_total = overall["focused (llmweb)"], overall["first window"]
    return [
        Target(
            "recall at max_chars 5,000, focused answer",
            f"≥ {RECALL_TARGET}",
            f"{focused_total.recall():.2f} (first window {window_total.recall():.2f}, plain BM25 chunks "
            f"{overall['plain BM25, 1,000-character chunks'].recall():.2f})",
            focused_total.recall() >= RECALL_TARGET,
        ),
        Target(
            "first window, for comparison",
            "well under 0.5",
            f"{window_total.recall():.2f}",
            window_total.recall() < 0.5,
        ),
        Target(
            "Polish questions about English pages, focused",
            "measured",
            f"{polish_tally.recall():.2f} of {polish_tally.asked}",
            None if not polish_tally.asked else True,
        ),
        Target(
            "focus on a 1 MB page",
            f"< {SPEED_TARGET_MS:.0f} ms",
            f"{big.median_ms:.0f} ms CPU median ({big.best_ms:.0f} best, {big.wall_ms:.0f} wall; words learned "
            f"{big.warm_ms:.0f})",
            big.median_ms < SPEED_TARGET_MS,
        ),
    ]


def _timed(call: Callable[[], object]) -> float:
    started = time.process_time()
    call()
    return (time.process_time() - started) * 1000


def _polish(part: PartResult) -> tuple[list[tuple[object, ...]], Tally]:
    texts: dict[tuple[str, str], str] = {}
    asked: list[tuple[str, focus_polish.PolishQuestion, str]] = []
    for q in focus_polish.QUESTIONS:
        if (q.kind, q.page) not in texts:
            texts[(q.kind, q.page)] = focus_corpus.page_text(q.kind, q.page)
        text = texts[(q.kind, q.page)]
        key = focus_corpus.answer_key(q.kind, q.page, q.anchor, text)
        if key is not None and focus_corpus.contains(text, key):
            asked.append((text, q, key))
    part.say(f"Polish: {len(asked)} of {len(focus_polish.QUESTIONS)} questions with a unique answer key")
    polish = [(text, q.polish, key) for text, q, key in asked]
    english = [(text, q.english, key) for text, q, key in asked]
    no_glossary = focused(analyser=lambda text: _NoGlossary(Analyser.for_page(text).language))
    results = [
        ("focused, Polish question (glossary on — shipped)", ask(focused(), polish)),
        ("focused, Polish question, glossary off", ask(no_glossary, polish)),
        ("focused, the same questions in English", ask(focused(), english)),
        ("first window", ask(first_window, polish)),
        ("plain BM25 chunks, Polish question", ask(bm25_chunks, polish)),
    ]
    for name, tally in results:
        part.say(f"Polish — {name}: {tally.recall():.2f}")
    return [_row(name, tally) for name, tally in results], results[0][1]
