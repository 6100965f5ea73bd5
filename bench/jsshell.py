"""Part jsshell: pages that JavaScript fills in (issue 17), beside trafilatura and readability-lxml.

Real saved pages (:mod:`bench.jsshell_corpus`) in four classes, each page given to each
extractor as an HTML string in this process. web_fetch is judged on the answer a model
reads: its text, or for a refused shell the error with the page's own words between the
untrusted-text markers. A peer has no refusal: an empty text counts as one.
"""

from __future__ import annotations

import gzip
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.extractors import readability_lxml, trafilatura_default
from bench.jsshell_corpus import KINDS, PAGES, JsPage
from bench.paths import CACHE, REPO, shared_dir
from bench.report import PartResult, Target, table
from llmweb.errors import LlmwebError
from llmweb.fetch.content import decode_text
from llmweb.fetch.html.extract import read_html_page
from llmweb.fetch.javascript.chrome import without_chrome
from llmweb.render import render_error
from testbed.attacks import outside_fence

EMBEDDED_TARGET = 0.8


@dataclass(frozen=True)
class Answer:
    text: str  # what the model reads of the page: its text, or the fenced part of an error
    refused: bool
    seconds: float


def corpus_dir() -> Path | None:
    """shared/bench/jsshell (beside the repository or /work/shared), else var/bench-cache/jsshell."""
    shared = shared_dir()
    for folder in ([shared / "bench" / "jsshell"] if shared else []) + [CACHE / "jsshell"]:
        if (folder / "README.md").is_file():
            return folder
    return None


MISSING = (
    "the saved pages are missing: expected shared/bench/jsshell or var/bench-cache/jsshell "
    "(lay them out with `python -m bench.jsshell_corpus var/bench-cache/jsshell MIRRORS`, "
    "MIRRORS holding git snapshots of the repositories bench/jsshell_corpus.py names)"
)


def web_fetch_answer(html: str, url: str) -> Answer:
    started = time.perf_counter()
    try:
        text = read_html_page(html, url).text
    except LlmwebError as error:
        answer = render_error(error)
        fenced = answer.replace(outside_fence(answer), "") if "<<<BEGIN" in answer else ""
        return Answer(fenced, True, time.perf_counter() - started)
    return Answer(text, False, time.perf_counter() - started)


def peer_answer(extract: Callable[[str, str], str]) -> Callable[[str, str], Answer]:
    def answer(html: str, url: str) -> Answer:
        started = time.perf_counter()
        try:
            text = extract(html, url)
        except Exception:  # a peer crashing on a page answers nothing
            text = ""
        return Answer(text, not text.strip(), time.perf_counter() - started)

    return answer


EXTRACTORS: dict[str, Callable[[str, str], Answer]] = {
    "web_fetch": web_fetch_answer,
    "trafilatura": peer_answer(trafilatura_default),
    "readability-lxml": peer_answer(readability_lxml),
}


def normal(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.lower()).split())


def found(fact: str, text: str) -> bool:
    return normal(fact) in normal(text)


def is_chrome_answer(page: JsPage, answer: Answer) -> bool:
    """Chrome handed back as the page: a shell answered with text, or an answer made only of
    cookie, login and footer paragraphs."""
    if answer.refused or not answer.text.strip():
        return False
    return page.kind == "shell" or not without_chrome(answer.text).strip()


def run(workdir: Path) -> PartResult:
    part = PartResult("jsshell", "JavaScript pages: embedded data, descriptions, shells, controls")
    folder = corpus_dir()
    if folder is None:
        raise FileNotFoundError(MISSING)
    pages = [(p, decode_text(gzip.decompress((folder / p.file).read_bytes()), None)) for p in PAGES]
    answers = {
        name: [extract(html, f"https://{_host(p)}/") for p, html in pages]
        for name, extract in EXTRACTORS.items()
    }
    names = list(EXTRACTORS)
    rows = []
    figures: dict[str, dict[str, float]] = {name: {} for name in names}
    for kind in KINDS:
        chosen = [i for i, (p, _) in enumerate(pages) if p.kind == kind]
        row: list[object] = [kind, len(chosen)]
        for name in names:
            score = _class_score(kind, [pages[i][0] for i in chosen], [answers[name][i] for i in chosen])
            figures[name][kind] = score
            row.append(_show(kind, score, len(chosen)))
        rows.append(row)
    chrome = {
        n: sum(is_chrome_answer(p, a) for (p, _), a in zip(pages, answers[n], strict=True)) for n in names
    }
    ms = {n: 1000 * statistics.mean(a.seconds for a in answers[n]) for n in names}
    rows.append(["chrome returned as content (pages)", len(pages), *(chrome[n] for n in names)])
    rows.append(["ms per page (mean)", len(pages), *(f"{ms[n]:.0f}" for n in names)])
    part.add(
        f"{len(pages)} saved pages (test fixtures of recipe-scrapers, metascraper and youtube-transcript-api; "
        f"sources in {_shown(folder)}/README.md), key facts written by hand (bench/jsshell_corpus.py). Each page's HTML "
        "goes to each extractor in this process. embedded: share of facts found, pages averaged; description: "
        "pages whose description reached the answer (web_fetch: its text, or a refusal's fenced page words); "
        "shell: pages refused (a peer: empty text); control: share of facts found.",
        "",
        table(["class", "pages", *names], rows),
        "",
        "Embedded-data pages by the kind of data their content sits in (share of facts found):",
        "",
        table(["data", "pages", *names], _by_data(pages, answers, names)),
    )
    ours = figures["web_fetch"]
    part.figure("embedded_facts", ours["embedded"])
    part.figure("descriptions_surfaced", ours["description"])
    part.figure("shells_refused", ours["shell"])
    part.figure("control_facts", ours["control"])
    part.figure("chrome_returned", chrome["web_fetch"])
    part.figure("ms_per_page", ms["web_fetch"])
    part.targets += [
        Target("facts recovered, embedded-data pages", f"≥ {EMBEDDED_TARGET}", f"{ours['embedded']:.3f}",
               ours["embedded"] >= EMBEDDED_TARGET),
        Target("descriptions surfaced", "all", f"{ours['description']:.0%}", ours["description"] == 1.0),
        Target("empty shells refused", "all", f"{ours['shell']:.0%}", ours["shell"] == 1.0),
        Target("chrome returned as content", "0 pages", str(chrome["web_fetch"]), chrome["web_fetch"] == 0),
    ]  # fmt: skip
    return part


def _class_score(kind: str, pages: list[JsPage], answers: list[Answer]) -> float:
    if not pages:
        return 0.0
    if kind == "shell":
        return sum(a.refused for a in answers) / len(pages)
    if kind == "description":
        return sum(all(found(f, a.text) for f in p.facts) for p, a in zip(pages, answers, strict=True)) / len(
            pages
        )
    shares = [
        sum(found(f, a.text) for f in p.facts) / len(p.facts) for p, a in zip(pages, answers, strict=True)
    ]
    return statistics.mean(shares)


def _show(kind: str, score: float, count: int) -> str:
    if kind in ("shell", "description"):
        return f"{round(score * count)} of {count}"
    return f"{score:.3f}"


def _by_data(
    pages: list[tuple[JsPage, str]], answers: dict[str, list[Answer]], names: list[str]
) -> list[list[object]]:
    rows = []
    kinds = dict.fromkeys(p.data for p, _ in pages if p.kind == "embedded")
    for data in kinds:
        chosen = [i for i, (p, _) in enumerate(pages) if p.kind == "embedded" and p.data == data]
        row: list[object] = [data, len(chosen)]
        for name in names:
            row.append(
                f"{_class_score('embedded', [pages[i][0] for i in chosen], [answers[name][i] for i in chosen]):.3f}"
            )
        rows.append(row)
    return rows


def _shown(folder: Path) -> str:
    """The corpus folder as a reader finds it: relative to the repository when inside it."""
    return str(folder.relative_to(REPO)) if folder.is_relative_to(REPO) else str(folder)


def _host(page: JsPage) -> str:
    """A host for the page's URL, from its fixture's name (it decides nothing in extraction)."""
    return re.sub(r"[^a-z0-9.-]", "-", page.path.split("/")[-2].lower()) or "example.com"
