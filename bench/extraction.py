"""Part 3: extraction quality and speed on the Zyte article benchmark (the SHARED split).

Scored with bench.scoring, which follows the benchmark's evaluate.py: 4-token shingles,
per-page normalised counts, mean precision and recall, F1 of the means.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench import article_dates, scoring
from bench.extractors import ARTICLE_EXTRACTORS, LLMWEB, READABILITY, TRAFILATURA, Extractor
from bench.paths import MISSING_ARTICLES, articles_dir
from bench.report import PartResult, Target, table

F1_TARGET = 0.97
TRAFILATURA_PUBLISHED = 0.958
SAMPLE_SEED = 6
DEV_SEED = 14  # random.Random(DEV_SEED).sample of the sorted page ids, half of them: the pages tuned on


@dataclass(frozen=True)
class Page:
    id: str
    url: str
    html: str
    gold: str


@dataclass
class Outcome:
    pages: list[Page]
    texts: list[str]
    seconds: float
    failures: int  # pages that raised (scored as empty text)

    @property
    def per_second(self) -> float:
        return len(self.pages) / self.seconds if self.seconds else 0.0


def load_pages() -> list[Page]:
    folder = articles_dir()
    if folder is None:
        raise FileNotFoundError(MISSING_ARTICLES)
    truth = json.loads((folder / "ground-truth.json").read_text())
    pages = []
    for key in sorted(truth):
        html = gzip.decompress((folder / "html" / f"{key}.html.gz").read_bytes()).decode("utf-8", "replace")
        pages.append(Page(key, truth[key].get("url", ""), html, truth[key].get("articleBody", "")))
    return pages


def sample(pages: list[Page], size: int | None) -> list[Page]:
    if size is None or size >= len(pages):
        return pages
    return sorted(random.Random(SAMPLE_SEED).sample(pages, size), key=lambda p: p.id)


_OUTCOMES: dict[str, Outcome] = {}  # parts 3 and 6 in one run extract once


def _key(extractor: Extractor, pages: list[Page]) -> str:
    return f"{extractor.name}/{len(sample(pages, extractor.sample))}"


def run_extractor(extractor: Extractor, pages: list[Page]) -> Outcome:
    key = _key(extractor, pages)
    if key not in _OUTCOMES:
        run_side_by_side([extractor], pages)
    return _OUTCOMES[key]


def run_side_by_side(extractors: list[Extractor], pages: list[Page]) -> None:
    """Each extractor's outcome, read page by page in turn (each page starts with the next
    extractor): one after another, each met the machine's load of its own minutes, and the ratio of
    two extractors' pages/s moved from 0.77 to 1.0 between runs of the same code. In-process
    extractors count the CPU time of this thread, a Node.js one its wall time."""
    todo = [e for e in extractors if _key(e, pages) not in _OUTCOMES]
    chosen = {e.name: sample(pages, e.sample) for e in todo}
    for extractor in todo:  # every page once untimed, so that the figure is a long-lived process's
        # pages/s: one-time costs (imports, trafilatura's and web_fetch's jusText stoplist, built on
        # the first page that needs it, 0.15 s) fell on whichever read first, moving the ratio of
        # two extractors by up to 15% between runs of the same code. A slow extractor reads only its
        # first pages untimed (Extractor.warm_pages).
        for first in chosen[extractor.name][: extractor.warm_pages]:
            with contextlib.suppress(Exception):
                extractor.extract(first.html, first.url)
    texts, seconds, failures = _read_in_turns(todo, pages, chosen)
    for extractor in todo:
        name, read = extractor.name, chosen[extractor.name]
        _OUTCOMES[_key(extractor, pages)] = Outcome(
            read, [texts[name][p.id] for p in read], seconds[name], failures[name]
        )


def _read_in_turns(
    extractors: list[Extractor], pages: list[Page], chosen: dict[str, list[Page]]
) -> tuple[dict[str, dict[str, str]], dict[str, float], dict[str, int]]:
    """Each extractor's texts by page id, seconds and failed pages, the extractors taking turns
    page by page over the pages ``chosen`` for each."""
    reads = {e.name: {p.id for p in chosen[e.name]} for e in extractors}
    texts: dict[str, dict[str, str]] = {e.name: {} for e in extractors}
    seconds = dict.fromkeys(texts, 0.0)
    failures = dict.fromkeys(texts, 0)
    for index, page in enumerate(pages):
        turn = index % len(extractors) if extractors else 0
        for extractor in extractors[turn:] + extractors[:turn]:
            if page.id not in reads[extractor.name]:
                continue
            clock = time.perf_counter if extractor.needs_node else time.thread_time
            started = clock()
            try:
                text = extractor.extract(page.html, page.url)
            except Exception:  # a library crashing on a page scores that page as empty, and is counted
                text, failures[extractor.name] = "", failures[extractor.name] + 1
            seconds[extractor.name] += clock() - started
            texts[extractor.name][page.id] = text
    return texts, seconds, failures


# Rounds of the pair's own pass: about 3 s each on the article set.
PAIR_ROUNDS = 3


def pair_ratio(pages: list[Page], rounds: int = PAIR_ROUNDS) -> float:
    """web_fetch's pages/s over trafilatura's, the two alone taking turns page by page, ``rounds``
    times over the pages (after the pass of every extractor, so both are warm).

    The speed goal compares the two. Read in turn with the four other in-process extractors, both
    spend more CPU per page, web_fetch more (the six: web_fetch +10 %, trafilatura +5 %; neither
    garbage collection nor trafilatura's caches explained it): the ratio was 1.047x and 1.057x with
    two extractors, 1.040x with three, 1.018x with four, 0.996x with six (the same code, one day).
    In use web_fetch reads pages one after another in its worker, no other library between them."""
    pair = [LLMWEB, TRAFILATURA]
    chosen = {e.name: pages for e in pair}
    spent = dict.fromkeys(chosen, 0.0)
    for _ in range(rounds):
        _, seconds, _ = _read_in_turns(pair, pages, chosen)
        for name, value in seconds.items():
            spent[name] += value
    return spent[TRAFILATURA.name] / spent[LLMWEB.name] if spent[LLMWEB.name] else 0.0


def score(outcome: Outcome, n: int = 4, keep: Callable[[Page], bool] = lambda page: True) -> scoring.Scores:
    return scoring.scores(
        [
            scoring.match_counts(p.gold, t, n)
            for p, t in zip(outcome.pages, outcome.texts, strict=True)
            if keep(p)
        ]
    )


def dev_half(pages: list[Page]) -> set[str]:
    """The ids of the seeded half of the pages that web_fetch's rules were studied and tuned on."""
    return set(random.Random(DEV_SEED).sample(sorted(p.id for p in pages), len(pages) // 2))


def run(workdir: Path) -> PartResult:
    part = PartResult("extraction", "3. Extraction quality and speed on articles")
    pages = load_pages()
    rows: list[tuple[object, ...]] = []
    notes: list[str] = []
    outcomes: dict[str, Outcome] = {}
    dev = dev_half(pages)
    run_side_by_side([e for e in ARTICLE_EXTRACTORS if not e.missing()], pages)
    for extractor in ARTICLE_EXTRACTORS:
        missing = extractor.missing()
        if missing:
            rows.append((extractor.name, "—", "—", "—", "—", "—", "—", "—", "—", missing))
            continue
        outcome = outcomes[extractor.name] = run_extractor(extractor, pages)
        s = score(outcome)
        halves = (
            (
                f"{score(outcome, keep=lambda p: p.id in dev).f1:.3f}",
                f"{score(outcome, keep=lambda p: p.id not in dev).f1:.3f}",
            )
            if len(outcome.pages) == len(pages)
            else ("—", "—")
        )
        chars = scoring.median([len(t) for t in outcome.texts])
        rows.append(
            (extractor.name, len(outcome.pages), f"{s.precision:.3f}", f"{s.recall:.3f}", f"**{s.f1:.3f}**",
             *halves, f"{outcome.per_second:.1f}", f"{chars:.0f}", outcome.failures)
        )  # fmt: skip
        part.say(f"{extractor.name}: F1 {s.f1:.3f}, {outcome.per_second:.1f} pages/s")
        if extractor.sample and len(outcome.pages) < len(pages):
            same = Outcome(outcome.pages, [], 0, 0)
            ours = run_extractor(LLMWEB, pages)
            by_id = dict(zip((p.id for p in ours.pages), ours.texts, strict=True))
            same.texts = [by_id[p.id] for p in outcome.pages]
            notes.append(
                f"{extractor.name} ran on a seeded sample of {len(outcome.pages)} pages (a Node.js process per "
                f"page, so its pages/s is wall time); web_fetch's F1 on the same pages is {score(same).f1:.3f}."
            )
    gold_chars = scoring.median([len(p.gold) for p in pages])
    part.add(
        f"{len(pages)} pages of the Zyte article-extraction benchmark (the SHARED split, "
        "scrapinghub/article-extraction-benchmark), each HTML string given to each extractor in this process. "
        "Scores: our implementation of the benchmark's evaluate.py (4-token shingles of `\\w+` tokens, "
        "per-page counts normalised, precision and recall averaged over pages, F1 of the two means; "
        f"no bootstrap). web_fetch's rules were tuned on a seeded half of the pages (seed {DEV_SEED}, "
        f"{len(dev)} pages: *F1, tuned half*); *F1, other half* is the {len(pages) - len(dev)} pages left, "
        "scored the same way. Pages per second: extraction time only, CPU time of the thread that reads "
        "(wall time moved by tens of percent on this shared machine), the extractors taking turns page by "
        "page so that each meets the same load, after each in-process extractor read every page once untimed "
        "(a long-lived process's speed: one-time costs such as imports and stoplists left out). "
        f"Median gold article: {gold_chars:.0f} characters.",
        "",
        table(
            (
                "extractor",
                "pages",
                "precision",
                "recall",
                "F1",
                "F1, tuned half",
                "F1, other half",
                "pages/s",
                "median chars returned",
                "failed pages / note",
            ),
            rows,
        ),
        "",
        f"Published F1 on all 181 pages: trafilatura {TRAFILATURA_PUBLISHED}, readability-lxml 0.922, html2text about 0.66 "
        "(this split holds 127 of them, so expect small differences).",
    )
    for note in notes:
        part.add("", note)
    llmweb = outcomes.get(LLMWEB.name)
    if llmweb:
        f1 = part.figure("article_f1", score(llmweb).f1)
        other = part.figure("article_f1_other_half", score(llmweb, keep=lambda p: p.id not in dev).f1)
        part.targets.append(
            Target("F1 on articles, web_fetch extraction", f"≥ {F1_TARGET}", f"{f1:.3f}", f1 >= F1_TARGET)
        )
        part.targets.append(
            Target("F1 on the half not tuned on", f"≥ {F1_TARGET}", f"{other:.3f}", other >= F1_TARGET)
        )
        for peer in (TRAFILATURA, READABILITY):
            if peer.name in outcomes:
                theirs = score(outcomes[peer.name]).f1
                part.targets.append(
                    Target(f"F1 ahead of {peer.name}", f"> {theirs:.3f}", f"{f1:.3f}", f1 > theirs)
                )
        if TRAFILATURA.name in outcomes:
            among = llmweb.per_second / outcomes[TRAFILATURA.name].per_second
            ratio = part.figure("speed_vs_trafilatura", pair_ratio(pages))
            part.add(
                "",
                f"Pages/s against trafilatura's: {ratio:.2f}× with the two alone taking turns page by page, "
                f"{PAIR_ROUNDS} rounds over the pages (the goal's figure); {among:.2f}× in the table's pass, "
                "where the six in-process extractors take turns and each spends more CPU per page.",
            )
            part.targets.append(
                Target(
                    "pages/s against trafilatura's (the two alone)", "≥ 1.0×", f"{ratio:.2f}×", ratio >= 1.0
                )
            )
    article_dates.report(part, pages)
    return part
