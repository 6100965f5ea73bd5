"""Part: web_research, one call from a question to cited passages — answered, cited, timed.

The pages are the focus bench's long documentation pages (Python's library manual, Rust's
std), served as files on loopback; a fake SearXNG JSON API on loopback answers each question
with 8 results: the answering page at a seeded place among the first three, the rest pages
of the same manual that share the most words with the question, and pages of the other
manual. The questions are hand-written, in Polish and in English (bench/focus_polish.py and
bench/research_questions.py).
"""

from __future__ import annotations

import contextlib
import http.server
import json
import random
import statistics
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

import numpy as np
from rank_bm25 import BM25Okapi

from bench import docs_corpus, focus_corpus, focus_polish, research_questions
from bench.report import PartResult, Target, table
from bench.tokens_count import count_tokens, tokenizer_name
from llmweb.errors import LlmwebError
from llmweb.fetch import limits, web_fetch
from llmweb.fetch.page import read_page
from llmweb.fetch.window import cut_window
from llmweb.render import render_research
from llmweb.research import DEFAULT_MAX_CHARS, DEFAULT_SOURCES, ResearchResult, web_research
from serve import stack

RESULTS = 8
SEED = 25
TUNED_SHARE = 0.5  # the share of question pairs looked at while tuning; the rest nobody tuned on
ANSWERED_GOAL = 0.85
MEDIAN_SECONDS_GOAL = 3.0
PREFIXES = {focus_corpus.PYTHON_LIBRARY.kind: "py", focus_corpus.RUST_HTML.kind: "rs"}


@dataclass(frozen=True)
class Asked:
    question: str
    language: str  # "English" or "Polish"
    kind: str
    page: str
    key: str
    tuned: bool


@dataclass
class Tally:
    asked: int = 0
    answered: int = 0
    first_windows: int = 0
    fetch_query: int = 0
    citations: int = 0
    confirmed: int = 0
    fetched: int = 0
    fetch_confirmed: int = 0
    seconds: list[float] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in (
            "asked",
            "answered",
            "first_windows",
            "fetch_query",
            "citations",
            "confirmed",
            "fetched",
            "fetch_confirmed",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.seconds += other.seconds
        self.tokens += other.tokens


# --- the corpus and the fake search --------------------------------------------------------


def questions() -> list[Asked]:
    """Every hand-written question whose answer key is unique in its page's text, split by a seeded draw."""
    pairs = [*focus_polish.QUESTIONS, *research_questions.QUESTIONS]
    draw = random.Random(SEED)
    tuned_pairs = {q.anchor for q in pairs if draw.random() < TUNED_SHARE}
    texts: dict[tuple[str, str], str] = {}
    asked = []
    for q in pairs:
        if (q.kind, q.page) not in texts:
            texts[(q.kind, q.page)] = focus_corpus.page_text(q.kind, q.page)
        text = texts[(q.kind, q.page)]
        key = focus_corpus.answer_key(q.kind, q.page, q.anchor, text)
        if key is None or not focus_corpus.contains(text, key):
            continue
        tuned = q.anchor in tuned_pairs
        asked.append(Asked(q.polish, "Polish", q.kind, q.page, key, tuned))
        asked.append(Asked(q.english, "English", q.kind, q.page, key, tuned))
    return asked


def folders() -> dict[str, Path]:
    return {
        "py": docs_corpus.unpack(focus_corpus.PYTHON_LIBRARY),
        "rs": focus_corpus.rust_folder(),
    }


def candidate_pages(roots: dict[str, Path], asked: Sequence[Asked]) -> dict[str, list[str]]:
    """Each manual's pages a result may point at: those questions ask about, and others of it."""
    pages: dict[str, set[str]] = {"py": set(), "rs": set()}
    for q in asked:
        pages[PREFIXES[q.kind]].add(q.page)
    pages["py"] |= {p.name for p in sorted(roots["py"].glob("*.html"))[:150]}
    rust = sorted(p.relative_to(roots["rs"]).as_posix() for p in (roots["rs"] / "std").glob("*/*.html"))
    pages["rs"] |= set(rust[:150])
    return {name: sorted(found) for name, found in pages.items()}


class Search:
    """The fake SearXNG's answers: 8 results per question, the right page among the first three."""

    def __init__(self, asked: Sequence[Asked], roots: dict[str, Path], base: str) -> None:
        self.base = base
        self.pages = candidate_pages(roots, asked)
        self.titles = {
            (name, path): _title(roots[name] / path) for name, paths in self.pages.items() for path in paths
        }
        self.index = {
            name: BM25Okapi([focus_corpus.words(self.titles[(name, p)] + " " + p) for p in paths])
            for name, paths in self.pages.items()
        }
        self.answers: dict[str, list[dict[str, object]]] = {}
        draw = random.Random(SEED)
        for q in asked:
            self.answers[q.question] = self._results(q, draw)

    def url(self, manual: str, path: str) -> str:
        return f"{self.base}/{manual}/{quote(path)}"

    def right_url(self, q: Asked) -> str:
        return self.url(PREFIXES[q.kind], q.page)

    def _results(self, q: Asked, draw: random.Random) -> list[dict[str, object]]:
        own = PREFIXES[q.kind]
        other = "rs" if own == "py" else "py"
        scores = self.index[own].get_scores(focus_corpus.words(q.question))
        ranked = [
            self.pages[own][i] for i in np.argsort(-scores, kind="stable") if self.pages[own][i] != q.page
        ]
        same = ranked[:4] if scores.max(initial=0) > 0 else draw.sample(ranked, 4)
        others = draw.sample(self.pages[other], RESULTS - 1 - len(same))
        chosen = [(own, p) for p in same] + [(other, p) for p in others]
        draw.shuffle(chosen)
        chosen.insert(draw.randrange(3), (own, q.page))
        return [
            {
                "url": self.url(m, p),
                "title": self.titles[(m, p)],
                "content": "",
                "engine": "fake",
                "engines": ["fake"],
            }
            for m, p in chosen
        ]

    def answer(self, query: str) -> dict[str, object]:
        question = query.split(" ", 1)[1] if query.startswith(":") else query
        return {"query": query, "results": self.answers.get(question, []), "unresponsive_engines": []}


def _title(path: Path) -> str:
    head = path.read_bytes()[:4000].decode("utf-8", "replace")
    start, end = head.find("<title>"), head.find("</title>")
    return head[start + 7 : end].strip() if start != -1 and end > start else path.name


@contextlib.contextmanager
def serving(roots: dict[str, Path], asked: Sequence[Asked]) -> Iterator[Search]:
    """The manuals' files and the fake SearXNG, on one loopback server."""
    search: list[Search] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            if parts.path == "/search":
                query = parse_qs(parts.query).get("q", [""])[0]
                self._send(json.dumps(search[0].answer(query)).encode(), "application/json")
                return
            manual, _, rest = parts.path.lstrip("/").partition("/")
            path = roots.get(manual, Path("/nonexistent")) / unquote(rest)
            if manual not in roots or ".." in rest or not path.is_file():
                self.send_error(404)
                return
            self._send(path.read_bytes(), "text/html; charset=utf-8")

        def _send(self, body: bytes, content_type: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", stack.free_port()), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        search.append(Search(asked, roots, f"http://127.0.0.1:{server.server_address[1]}"))
        yield search[0]
    finally:
        server.shutdown()
        server.server_close()


# --- asking ----------------------------------------------------------------------------------


def ask(q: Asked, search: Search) -> tuple[Tally, ResearchResult]:
    """One question by web_research: answered, timed, its tokens."""
    tally = Tally(asked=1)
    right = search.right_url(q)
    started = time.perf_counter()
    result = web_research(q.question, searxng_url=search.base, allow="127.0.0.1")
    tally.seconds.append(time.perf_counter() - started)
    shown = render_research(result)
    tally.tokens.append(count_tokens(shown))
    within = len(shown) <= result.max_chars
    tally.answered = int(
        within and any(p.url == right and focus_corpus.contains(p.text, q.key) for p in result.passages)
    )
    return tally, result


def check(q: Asked, search: Search, result: ResearchResult, texts: dict[str, str]) -> Tally:
    """An answer's citations, and the two baselines in the same budget; ``texts`` holds the text
    web_fetch pages through of every page cited and every right page."""
    tally = Tally()
    right = search.right_url(q)
    # every citation against the text web_fetch pages through; the best passage's also by a real
    # web_fetch(url, start=start), whose window must begin with it
    for rank, passage in enumerate(result.passages):
        tally.citations += 1
        tally.confirmed += texts[passage.url][passage.start : passage.end] == passage.text
        if rank == 0:
            tally.fetched += 1
            tally.fetch_confirmed += _confirmed(passage.url, passage.start, passage.text)
    # the baseline: the top results' first windows, the same budget shared between them
    top = [str(r["url"]) for r in search.answers[q.question][:DEFAULT_SOURCES]]
    if right in top:
        window, _ = cut_window(texts[right], 0, DEFAULT_MAX_CHARS // DEFAULT_SOURCES)
        tally.first_windows = int(focus_corpus.contains(window, q.key))
    # web_fetch with the question, on the right page alone
    try:
        focused = web_fetch(right, query=q.question, max_chars=DEFAULT_MAX_CHARS, allow="127.0.0.1")
    except LlmwebError:
        pass
    else:
        texts_shown = [p.text for p in focused.passages] or [focused.text]
        tally.fetch_query = int(any(focus_corpus.contains(t, q.key) for t in texts_shown))
    return tally


def _text(url: str) -> str:
    return read_page(url, allow="127.0.0.1")[1]


def _confirmed(url: str, start: int, text: str) -> bool:
    try:
        reread = web_fetch(url, start=start, allow="127.0.0.1")
    except LlmwebError:
        return False
    return reread.text.startswith(text) or text.startswith(reread.text)


COLUMNS = (
    "questions", "asked", "answered", "first windows", "web_fetch query, right page",
    "citations in the page's text", "best citations web_fetch(start) confirms", "seconds, median", "seconds, p95", "tokens, median",
)  # fmt: skip

# --- the part --------------------------------------------------------------------------------


def run(workdir: Path) -> PartResult:
    part = PartResult("research", "One call from question to cited passages: web_research")
    try:
        roots = folders()
        asked = questions()
    except Exception as exc:  # apt could not provide the packages
        part.add(f"**Skipped:** {exc}")
        part.targets.append(Target("research corpus", "available", f"unavailable: {exc}", None))
        return part
    part.say(f"{len(asked)} questions ({sum(q.tuned for q in asked)} in the tuned half)")
    groups, examples = _ask_all(part, roots, asked)
    rows, overall = _group_rows(groups)
    held = Tally()
    for key in (("English", False), ("Polish", False)):
        if key in groups:
            held.add(groups[key])
    part.add(
        *_method_note(asked),
        table(COLUMNS, rows),
        "",
        "Questions of the tuned half not answered (the first few; a held-out question is never listed, so "
        "that nobody tunes on it):",
        "",
        *examples,
    )
    part.figure("answered", _share(overall.answered, overall.asked))
    part.figure("answered_held_out", _share(held.answered, held.asked))
    part.figure("median_seconds", statistics.median(overall.seconds) if overall.seconds else 0.0)
    part.targets += _targets(overall, held)
    return part


def _ask_all(
    part: PartResult, roots: dict[str, Path], asked: Sequence[Asked]
) -> tuple[dict[tuple[str, bool], Tally], list[str]]:
    """Every question asked: a tally per (language, tuned half), and the first few of the tuned half
    not answered.

    The questions are asked one after another, each call timed alone; the checks that follow are
    not timed, so they run after all the questions, one thread per extraction worker."""
    groups: dict[tuple[str, bool], Tally] = {}
    examples: list[str] = []
    with serving(roots, asked) as search:
        asked_results = []
        for n, q in enumerate(asked, 1):
            tally, result = ask(q, search)
            asked_results.append((q, tally, result))
            if n % 20 == 0:
                part.say(f"{n} of {len(asked)} asked")
            if not tally.answered and q.tuned and len(examples) < 6:
                examples.append(f"- {q.language}, {q.page}: {q.question!r} → {len(result.passages)} passages")
        urls = {p.url for _, _, result in asked_results for p in result.passages}
        urls |= {search.right_url(q) for q in asked}
        with ThreadPoolExecutor(limits.EXTRACT_WORKERS) as pool:
            texts = dict(zip(urls, pool.map(_text, urls), strict=True))
            checked = pool.map(lambda each: check(each[0], search, each[2], texts), asked_results)
            for (q, tally, _), checks in zip(asked_results, checked, strict=True):
                tally.add(checks)
                groups.setdefault((q.language, q.tuned), Tally()).add(tally)
    return groups, examples


def _group_rows(groups: dict[tuple[str, bool], Tally]) -> tuple[list[tuple[object, ...]], Tally]:
    """The table's rows, per language and half and merged; the tally of all questions."""
    rows, overall = [], Tally()
    for label, keys in (
        ("English, tuned half", [("English", True)]),
        ("English, held out", [("English", False)]),
        ("Polish, tuned half", [("Polish", True)]),
        ("Polish, held out", [("Polish", False)]),
        ("**held out, both languages**", [("English", False), ("Polish", False)]),
        ("**all**", list(groups)),
    ):
        merged = Tally()
        for key in keys:
            if key in groups:
                merged.add(groups[key])
        rows.append(_row(label, merged))
        if label == "**all**":
            overall = merged
    return rows, overall


def _method_note(asked: Sequence[Asked]) -> tuple[str, ...]:
    """The paragraphs on the corpus and on what is measured, before the table."""
    return (
        "**Corpus.** "
        + " ".join((__doc__ or "").split("\n\n")[1].split())
        + f" {len(asked)} questions ({len(asked) // 2} pairs, each asked in Polish and in English); a seeded "
        f"half of the pairs (seed {SEED}) is the *tuned* half, looked at while choosing web_research's "
        "settings, the other half nobody tuned on.",
        "",
        f"**Measured.** web_research with its defaults (max_chars {DEFAULT_MAX_CHARS:,}, sources "
        f"{DEFAULT_SOURCES}). *Answered*: the answer key (the section's first words, bench/focus_corpus.py) lies "
        "whole in one passage from the right page and the rendered answer keeps within max_chars. *First "
        f"windows*: the first {DEFAULT_MAX_CHARS // DEFAULT_SOURCES:,} characters of each of the top "
        f"{DEFAULT_SOURCES} results (the same budget). *web_fetch query*: web_fetch(url, query=question, "
        f"max_chars={DEFAULT_MAX_CHARS:,}) on the right page alone, which a caller can only do knowing the page. "
        "*Citations*: every passage's text against the page's text as web_fetch reads it (read_page, once a "
        "page), at its start and end; the best passage of each answer also by a real web_fetch(url, start=start), "
        "whose window must begin with it. *Seconds*: wall "
        f"time of one call, all pages read fresh. *Tokens*: the rendered answer, median; {tokenizer_name()}.",
        "",
    )


def _targets(overall: Tally, held: Tally) -> list[Target]:
    return [
        Target(
            "questions answered, held-out half",
            f"≥ {ANSWERED_GOAL:.0%}",
            f"{_share(held.answered, held.asked):.0%} of {held.asked} (first windows "
            f"{_share(held.first_windows, held.asked):.0%}, web_fetch query on the right page "
            f"{_share(held.fetch_query, held.asked):.0%})",
            _share(held.answered, held.asked) >= ANSWERED_GOAL,
        ),
        Target(
            "citations web_fetch(url, start=…) confirms",
            "all",
            f"{overall.confirmed} of {overall.citations} in the page's text; {overall.fetch_confirmed} of "
            f"{overall.fetched} best passages by web_fetch",
            overall.confirmed == overall.citations and overall.fetch_confirmed == overall.fetched,
        ),
        Target(
            f"median time of one call, {DEFAULT_SOURCES} sources",
            f"< {MEDIAN_SECONDS_GOAL:g} s",
            f"{statistics.median(overall.seconds):.2f} s (p95 {np.percentile(overall.seconds, 95):.2f} s)",
            statistics.median(overall.seconds) < MEDIAN_SECONDS_GOAL,
        ),
    ]


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _row(label: str, tally: Tally) -> tuple[object, ...]:
    if not tally.asked:
        return (label, 0, "—", "—", "—", "—", "—", "—", "—", "—")
    return (
        label, tally.asked, f"**{_share(tally.answered, tally.asked):.0%}**",
        f"{_share(tally.first_windows, tally.asked):.0%}", f"{_share(tally.fetch_query, tally.asked):.0%}",
        f"{tally.confirmed} of {tally.citations}", f"{tally.fetch_confirmed} of {tally.fetched}",
        f"{statistics.median(tally.seconds):.2f}",
        f"{np.percentile(tally.seconds, 95):.2f}", round(statistics.median(tally.tokens)),
    )  # fmt: skip
