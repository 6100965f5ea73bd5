"""Part wcxb: web_fetch on every kind of page, WCXB's dev split (issue 22), beside its peers.

WCXB (Murrough-Foley/web-content-extraction-benchmark, CC-BY-4.0) labels each page with a
type (article, documentation, forum, product, listing, collection, service). Only its
``dev/`` split is read here: ``test/`` is the held-out measure and is never unpacked, read or
scored. Scoring follows WCXB's evaluate.py: word F1 over ``\\w+`` tokens of the lowered texts
as multisets, precision, recall and F1 per page (an empty prediction scores 0), averaged
over the pages of a type.

The dev pages are split with a fixed seed into a tuning part (two thirds: the only pages
looked at and tuned on) and a check part (one third), and every figure is given for both:
the check part estimates what pages nobody tuned on will show.

The ablation table scores each layer of web_fetch above trafilatura (:mod:`llmweb.fetch.html.layers`)
on the pages where it fires (``ExtractedPage.fired``, or the refusal raised): F1 with the
layer and with only that layer switched off.

Two tables then tell how far the check part is from 0.90 and how much of it comes from the
tuning part's sites. The ceilings: each page's best of web_fetch and its readings with one layer
off (which a perfect choice between the layers would reach), and its best of web_fetch and the
peers (a perfect choice between the extractors); what no reading comes near lies in the gold
texts, not in a choice. The sites: the check part split by whether another page of the same
site (its host, "www." aside) is in the tuning part, beside trafilatura on the same pages, since
a rule fitted to one page of a site also fits the site's other pages.
"""

from __future__ import annotations

import gzip
import json
import multiprocessing
import os
import random
import re
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.extractors import Extractor, readability_lxml, trafilatura_default
from bench.paths import CACHE
from bench.report import PartResult, Target, table
from llmweb.errors import LlmwebError, NeedsJavaScript, NoReadableText
from llmweb.fetch.html.extract import read_html_page
from llmweb.fetch.html.layers import ALL_LAYERS, LAYER_NAMES, Layers, without

WCXB = CACHE / "wcxb"
REPO_VARIABLE = "LLMWEB_WCXB_REPO"
SAMPLE_VARIABLE = "LLMWEB_WCXB_SAMPLE"
"""Set to "T,C" to score a seeded sample of T pages of each type from the tuning part and C from
the check part, instead of every page (a quick run on a loaded machine)."""
SAMPLE_SEED = 5
TUNING_SEED = 22  # random.Random(TUNING_SEED).sample of the sorted page ids, two thirds: the tuning part
TYPES = ("article", "documentation", "service", "forum", "collection", "listing", "product")
# WCXB's published dev F1 (its README): rs-trafilatura by type, and trafilatura overall
RS_TRAFILATURA = {
    "article": 0.932, "documentation": 0.932, "service": 0.844, "forum": 0.808,
    "collection": 0.716, "listing": 0.707, "product": 0.641, "all": 0.859,
}  # fmt: skip
TRAFILATURA_PUBLISHED = 0.791
LOST_BELOW, PEER_READS = 0.3, 0.8  # a page lost: our F1 under 0.3 where trafilatura reads 0.8
MISSING = (
    f"WCXB's dev split is missing: expected {WCXB}/dev. Clone "
    "https://github.com/Murrough-Foley/web-content-extraction-benchmark, set "
    f"{REPO_VARIABLE} to the checkout and run this part again: it unpacks only dev/, evaluate.py "
    "and LICENSE from it (git archive HEAD dev evaluate.py LICENSE | tar -x), never test/."
)


@dataclass(frozen=True)
class Page:
    id: str
    url: str
    kind: str
    html: str
    gold: str


@dataclass(frozen=True)
class Score:
    precision: float
    recall: float
    f1: float


def word_scores(predicted: str, reference: str) -> Score:
    """WCXB's evaluate.py word_f1: multisets of lowered ``\\w+`` tokens."""
    pred = Counter(re.findall(r"\w+", predicted.lower()))
    ref = Counter(re.findall(r"\w+", reference.lower()))
    if not ref:
        return Score(1.0, 1.0, 1.0) if not pred else Score(0.0, 0.0, 0.0)
    if not pred:
        return Score(0.0, 0.0, 0.0)
    overlap = sum((pred & ref).values())
    precision, recall = overlap / sum(pred.values()), overlap / sum(ref.values())
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(precision, recall, f1)


def mean(scores: Sequence[Score]) -> Score:
    n = len(scores) or 1
    return Score(*(sum(getattr(s, f) for s in scores) / n for f in ("precision", "recall", "f1")))


def dev_dir() -> Path | None:
    """var/bench-cache/wcxb/dev, unpacked from $LLMWEB_WCXB_REPO's dev/ when absent; None if neither."""
    if (WCXB / "dev" / "ground-truth").is_dir():
        return WCXB / "dev"
    checkout = os.environ.get(REPO_VARIABLE)
    if not checkout or not Path(checkout).is_dir():
        return None
    WCXB.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", checkout, "archive", "HEAD", "dev", "evaluate.py", "LICENSE"],
        check=True,
        capture_output=True,
    )
    subprocess.run(["tar", "-x", "-C", str(WCXB)], input=archive.stdout, check=True)
    return WCXB / "dev" if (WCXB / "dev" / "ground-truth").is_dir() else None


def page_kind(truth: dict[str, object]) -> str:
    """The page type as evaluate.py reads it ('category' counts as 'collection')."""
    internal = truth.get("_internal") or {}
    kind = internal.get("page_type", {}) if isinstance(internal, dict) else {}
    primary = kind.get("primary", "article") if isinstance(kind, dict) else kind
    primary = primary if isinstance(primary, str) else "article"
    return "collection" if primary == "category" else primary


def load_pages(folder: Path) -> list[Page]:
    pages = []
    for truth_file in sorted((folder / "ground-truth").glob("*.json")):
        key = truth_file.stem
        html_file = folder / "html" / f"{key}.html.gz"
        if not html_file.is_file():
            continue
        truth = json.loads(truth_file.read_text())
        gold = (truth.get("ground_truth") or {}).get("main_content") or ""
        html = gzip.decompress(html_file.read_bytes()).decode("utf-8", "replace")
        pages.append(Page(key, truth.get("url") or "", page_kind(truth), html, gold))
    return pages


def sample(pages: list[Page], tuning: set[str]) -> list[Page]:
    """The pages $LLMWEB_WCXB_SAMPLE asks for (all of them when it is unset), in id order."""
    wanted = os.environ.get(SAMPLE_VARIABLE, "")
    if not wanted:
        return pages
    per_part = dict(zip((True, False), (int(n) for n in wanted.split(",")), strict=True))
    rng = random.Random(SAMPLE_SEED)
    chosen: list[Page] = []
    for kind in TYPES:
        for in_tuning, size in per_part.items():
            group = [p for p in pages if p.kind == kind and (p.id in tuning) == in_tuning]
            chosen += rng.sample(group, min(size, len(group)))
    return sorted(chosen, key=lambda p: p.id)


def tuning_part(pages: Sequence[Page]) -> set[str]:
    """The ids of the seeded two thirds of the pages, the only ones looked at and tuned on."""
    ids = sorted(p.id for p in pages)
    return set(random.Random(TUNING_SEED).sample(ids, len(ids) * 2 // 3))


# --- web_fetch, with its layers switchable -------------------------------------------------


@dataclass(frozen=True)
class Reading:
    text: str
    fired: tuple[str, ...]  # the layers that changed the answer, a refusal's layer included
    refused: str = ""  # the error's class name when web_fetch refused the page


def read(page: Page, layers: Layers = ALL_LAYERS) -> Reading:
    try:
        got = read_html_page(page.html, page.url, layers=layers)
    except NoReadableText as exc:
        layer = "furniture" if "furniture" in str(exc) else ""
        return Reading("", (layer,) if layer else (), type(exc).__name__)
    except NeedsJavaScript as exc:
        return Reading("", ("javascript",), type(exc).__name__)
    except LlmwebError as exc:
        return Reading("", (), type(exc).__name__)
    return Reading(got.text, got.fired)


def trace(page: Page, reading: Reading) -> tuple[str, ...]:
    """Every layer that fired on ``page``: a refused page is read again with refusals off, to
    learn which layers fired before the verdict."""
    if not reading.refused:
        return reading.fired
    again = read(page, Layers(furniture=False, javascript=False))
    return tuple(dict.fromkeys((*again.fired, *reading.fired)))


# --- the peers ------------------------------------------------------------------------------


def trafilatura_recall(html: str, url: str) -> str:
    import trafilatura

    return trafilatura.extract(html, url=url or None, favor_recall=True) or ""


def html_text_page(html: str, url: str) -> str:
    import html_text

    return str(html_text.extract_text(html))


PEERS = (
    Extractor("trafilatura extract()", "trafilatura.extract(html)", trafilatura_default, ("trafilatura",)),
    Extractor(
        "trafilatura favor_recall",
        "trafilatura.extract(html, favor_recall=True)",
        trafilatura_recall,
        ("trafilatura",),
    ),
    Extractor(
        "readability-lxml", "Document.summary + html_text", readability_lxml, ("readability", "html_text")
    ),
    Extractor("html-text, whole page", "html_text.extract_text(html)", html_text_page, ("html_text",)),
)
WEB_FETCH = "web_fetch"


def timed(pages: Sequence[Page], extract: Callable[[Page], str]) -> tuple[list[str], float]:
    """Each page's text and the pages per second (CPU time of this process)."""
    started = time.process_time()
    texts = [extract(p) for p in pages]
    seconds = time.process_time() - started
    return texts, len(pages) / seconds if seconds else 0.0


def _quiet(extract: Callable[[str, str], str]) -> Callable[[Page], str]:
    def run(page: Page) -> str:
        try:
            return extract(page.html, page.url)
        except Exception:  # a peer tripping over a page scores it empty, as evaluate.py would
            return ""

    return run


PEER_CACHE = CACHE / "wcxb-peers"
"""Each peer's texts and pages/s, by its version: a peer reads the same pages the same way in
every run, and reading them all again took most of the part's time on a loaded machine."""


def peer_run(peer: Extractor, pages: Sequence[Page]) -> tuple[list[str], float, bool]:
    """The peer's text of each page, its pages/s, and whether both came from PEER_CACHE (its
    pages/s then measured when the cache was filled, on another day's machine)."""
    versions = ",".join(f"{m}-{_version(m)}" for m in peer.needs)
    cached = PEER_CACHE / (re.sub(r"\W+", "-", f"{peer.name} {versions}").strip("-") + ".json")
    if cached.is_file():
        data = json.loads(cached.read_text())
        if all(p.id in data["texts"] for p in pages):
            return [data["texts"][p.id] for p in pages], float(data["per_second"]), True
    texts, speed = timed(pages, _quiet(peer.extract))
    PEER_CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(
        json.dumps({"per_second": speed, "texts": {p.id: t for p, t in zip(pages, texts, strict=True)}})
    )
    return texts, speed, False


def _version(module: str) -> str:
    import importlib.metadata

    names = {"readability": "readability-lxml", "html_text": "html-text"}
    try:
        return importlib.metadata.version(names.get(module, module))
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def fill_peer_cache() -> None:
    """python -m bench.wcxb: read the dev pages with every peer once, into PEER_CACHE."""
    folder = dev_dir()
    if folder is None:
        raise SystemExit(MISSING)
    pages = load_pages(folder)
    pages = sample(pages, tuning_part(pages))
    for peer in PEERS:
        if not peer.missing():
            print(peer.name, f"{peer_run(peer, pages)[1]:.1f} pages/s", flush=True)


# --- the report -----------------------------------------------------------------------------


def by_type(pages: Sequence[Page], scores: Sequence[Score], keep: Callable[[Page], bool]) -> dict[str, Score]:
    groups: dict[str, list[Score]] = {}
    for page, score in zip(pages, scores, strict=True):
        if keep(page):
            groups.setdefault(page.kind, []).append(score)
            groups.setdefault("all", []).append(score)
    return {kind: mean(group) for kind, group in groups.items()}


def run(workdir: Path) -> PartResult:
    part = PartResult("wcxb", "WCXB dev split: every kind of page (issue 22)")
    folder = dev_dir()
    if folder is None:
        part.add(MISSING)
        part.targets.append(Target("WCXB dev split present", "present", "missing", None))
        return part
    pages = load_pages(folder)
    tuning = tuning_part(pages)
    dev_count = len(pages)
    # the sites of every tuning page, sampled or not
    tuned_sites = {site(p.url) for p in pages if p.id in tuning and p.url}
    pages = sample(pages, tuning)
    halves: dict[str, Callable[[Page], bool]] = {
        "tuning": lambda p: p.id in tuning,
        "check": lambda p: p.id not in tuning,
    }
    readings, speed = read_all(pages)
    texts = [reading.text for reading in readings]
    results: dict[str, list[Score]] = {
        WEB_FETCH: [word_scores(t, p.gold) for t, p in zip(texts, pages, strict=True)]
    }
    speeds = {WEB_FETCH: speed}
    cached_speeds: set[str] = set()  # peers whose pages/s was measured in an earlier run
    part.say(f"{WEB_FETCH}: {speed:.1f} pages/s")
    skipped = []
    ablation_lines, one_layer_off = ablation(pages, readings, results[WEB_FETCH], tuning)
    for peer in PEERS:
        missing = peer.missing()
        if missing:
            skipped.append(f"{peer.name}: {missing}")
            continue
        peer_texts, speeds[peer.name], from_cache = peer_run(peer, pages)
        if from_cache:
            cached_speeds.add(peer.name)
        results[peer.name] = [word_scores(t, p.gold) for t, p in zip(peer_texts, pages, strict=True)]
        part.say(f"{peer.name}: {speeds[peer.name]:.1f} pages/s")
    counts = Counter(p.kind for p in pages)
    if os.environ.get(SAMPLE_VARIABLE):
        part.add(
            f"**A seeded sample** (${SAMPLE_VARIABLE}={os.environ[SAMPLE_VARIABLE]}: pages per type, tuning part, check part).",
            "",
        )
    part.add(
        f"{len(pages)} pages of WCXB's dev split ({', '.join(f'{counts[k]} {k}' for k in TYPES)}); "
        f"the tuning part is {len(tuning)} pages (seed {TUNING_SEED}), the check part the "
        f"{dev_count - len(tuning)} others, never looked at. Word F1 as WCXB's evaluate.py "
        "counts it, averaged over the pages of each type. Pages/s: the pages over the CPU seconds "
        "of their reading (web_fetch's pages shared out among one worker per core, each timed in its "
        "worker; a peer's in this process).",
        "",
    )
    for half, keep in halves.items():
        f1s = {name: by_type(pages, scores, keep) for name, scores in results.items()}
        rows = [
            (
                kind,
                *(f"{f1s[name].get(kind, Score(0, 0, 0)).f1:.3f}" for name in results),
                RS_TRAFILATURA[kind],
            )
            for kind in (*TYPES, "all")
        ]
        part.add(
            f"**F1 per page type, {half} part**",
            "",
            table(("type", *results, "rs-trafilatura (published, all dev)"), rows),
            "",
        )
    for half, keep in halves.items():
        ours_by = by_type(pages, results[WEB_FETCH], keep)
        peer_by = by_type(pages, results[PEERS[0].name], keep) if PEERS[0].name in results else {}
        rows = [
            (kind, f"{ours_by[kind].precision:.3f}", f"{ours_by[kind].recall:.3f}",
             f"{peer_by[kind].precision:.3f}" if kind in peer_by else "—",
             f"{peer_by[kind].recall:.3f}" if kind in peer_by else "—")
            for kind in (*TYPES, "all") if kind in ours_by
        ]  # fmt: skip
        part.add(
            f"**Precision and recall, {half} part**",
            "",
            table(("type", "web_fetch P", "web_fetch R", "trafilatura P", "trafilatura R"), rows),
            "",
        )
    peer_scores = results.get(PEERS[0].name)
    rows = []
    for half, keep in halves.items():
        chosen = [i for i, p in enumerate(pages) if keep(p)]
        lost = (
            sum(
                1 for i in chosen if results[WEB_FETCH][i].f1 < LOST_BELOW and peer_scores[i].f1 >= PEER_READS
            )
            if peer_scores
            else "—"
        )
        refused = sum(1 for i in chosen if readings[i].refused and pages[i].gold.strip())
        rows.append((half, len(chosen), lost, refused))
    part.add(
        table(
            (
                "part",
                "pages",
                f"pages lost (F1 < {LOST_BELOW} where trafilatura ≥ {PEER_READS})",
                "refusals on pages with main content",
            ),
            rows,
        ),
        "",
        table(
            ("extractor", "pages/s"),
            [
                (name, f"{s:.1f}" + (" (cached run)" if name in cached_speeds else ""))
                for name, s in speeds.items()
            ],
        ),
        "A peer's pages/s marked *cached run* was measured when var/bench-cache/wcxb-peers was filled, "
        "not beside web_fetch in this run: the machine's speed moves between runs, so compare speeds "
        "within one run (part 3's articles) or with bench/extraction_speed.py.",
        "",
        f"Published dev F1: rs-trafilatura {RS_TRAFILATURA['all']}, trafilatura {TRAFILATURA_PUBLISHED}.",
        *(f"Skipped: {s}" for s in skipped),
        "",
    )
    part.add(*ablation_lines)
    part.add(
        *ceilings(pages, results, one_layer_off, halves["check"]),
        *by_site(pages, results, tuning, tuned_sites),
    )
    for half, keep in halves.items():
        ours_all = by_type(pages, results[WEB_FETCH], keep)["all"].f1
        part.figure(f"f1_{half}", ours_all)
    check = by_type(pages, results[WEB_FETCH], halves["check"])
    part.targets.append(
        Target("F1 on the check part", "≥ 0.90", f"{check['all'].f1:.3f}", check["all"].f1 >= 0.9)
    )
    if peer_scores:
        theirs = by_type(pages, peer_scores, halves["check"])
        behind = [k for k in TYPES if k in check and check[k].f1 <= theirs[k].f1]
        part.targets.append(
            Target(
                "ahead of trafilatura on every type (check part)",
                "all types",
                "behind on " + ", ".join(behind) if behind else "all types",
                not behind,
            )
        )
        if PEERS[0].name in speeds and PEERS[0].name not in cached_speeds:
            ratio = part.figure("speed_vs_trafilatura", speeds[WEB_FETCH] / speeds[PEERS[0].name])
            part.say(f"pages/s against trafilatura: {ratio:.2f}×")
    refusals = sum(1 for r, p in zip(readings, pages, strict=True) if r.refused and p.gold.strip())
    part.figure("false_refusals", refusals)
    part.targets.append(Target("refusals on pages with main content", "0", str(refusals), refusals == 0))
    return part


_ABLATED: Sequence[Page] = ()  # the pages a forked worker of `read_all` or `ablation` reads, by index


def _forked(work: Callable[[Any], Any], pages: Sequence[Page], jobs: Sequence[Any]) -> list[Any]:
    """``work`` of each job, in order, in one forked worker per core that finds ``pages`` by index."""
    global _ABLATED
    _ABLATED = pages
    try:
        with ProcessPoolExecutor(os.cpu_count() or 1, mp_context=multiprocessing.get_context("fork")) as pool:
            return list(pool.map(work, jobs, chunksize=8))
    finally:
        _ABLATED = ()


def _read_timed(index: int) -> tuple[Reading, float]:
    started = time.process_time()
    reading = read(_ABLATED[index])
    return reading, time.process_time() - started


def read_all(pages: Sequence[Page]) -> tuple[list[Reading], float]:
    """web_fetch's reading of each page and its pages per second: the pages over the CPU seconds
    their readings took, each timed in its worker (the pages shared out among the cores, half the
    part's wall time that one process took)."""
    done = _forked(_read_timed, pages, range(len(pages)))
    seconds = sum(spent for _, spent in done)
    return [reading for reading, _ in done], len(pages) / seconds if seconds else 0.0


def _score_without(job: tuple[int, str]) -> Score:
    page = _ABLATED[job[0]]
    return word_scores(read(page, without(job[1])).text, page.gold)


def ablation(
    pages: Sequence[Page], readings: Sequence[Reading], scores: Sequence[Score], tuning: set[str]
) -> tuple[list[str], list[float]]:
    """Per layer and page type, on the pages where the layer fires: F1 with and without it; and
    each page's best F1 with every layer, or with one of those that fired on it switched off.

    The readings without a layer are scores, not timings: they run in one forked worker per core."""
    traces = [trace(page, reading) for page, reading in zip(pages, readings, strict=True)]
    fired_by = {layer: [i for i, t in enumerate(traces) if layer in t] for layer in LAYER_NAMES}
    jobs = [(i, layer) for layer, fired in fired_by.items() for i in fired]
    scored = dict(zip(jobs, _forked(_score_without, pages, jobs), strict=True))
    rows = []
    for layer, fired in fired_by.items():
        off = {i: scored[(i, layer)] for i in fired}
        for kind in (*TYPES, "all"):
            chosen = [i for i in fired if kind in ("all", pages[i].kind)]
            if not chosen:
                continue
            cells: list[object] = [layer, kind]
            for in_part in (True, False):
                mine = [i for i in chosen if (pages[i].id in tuning) == in_part]
                with_f1 = mean([scores[i] for i in mine]).f1 if mine else 0.0
                without_f1 = mean([off[i] for i in mine]).f1 if mine else 0.0
                cells += [len(mine), f"{with_f1:.3f}", f"{without_f1:.3f}", f"{with_f1 - without_f1:+.3f}"]
            rows.append(cells)
    best = [score.f1 for score in scores]
    for (i, _), score in scored.items():
        best[i] = max(best[i], score.f1)
    lines = [
        "**Each layer on the pages where it fires** (F1 with the layer, and with only it switched off)",
        "",
        table(
            (
                "layer",
                "type",
                "tuning: pages",
                "with",
                "without",
                "gain",
                "check: pages",
                "with",
                "without",
                "gain",
            ),
            rows,
        ),
        "",
    ]
    return lines, best


def ceilings(
    pages: Sequence[Page],
    results: dict[str, list[Score]],
    one_layer_off: Sequence[float],
    keep: Callable[[Page], bool],
) -> list[str]:
    """What a perfect choice, page by page, would read on the pages ``keep`` takes."""
    chosen = [i for i, p in enumerate(pages) if keep(p)]
    peers = [name for name in results if name != WEB_FETCH]

    def reach(best: Callable[[int], float]) -> str:
        return f"{sum(best(i) for i in chosen) / len(chosen):.3f}" if chosen else "—"

    ours = results[WEB_FETCH]
    rows = [
        ("web_fetch", reach(lambda i: ours[i].f1)),
        ("the best of web_fetch and its readings with one layer off", reach(lambda i: one_layer_off[i])),
        (
            f"the best of web_fetch and {', '.join(peers) or 'no peer (none ran)'}",
            reach(lambda i: max(ours[i].f1, *(results[n][i].f1 for n in peers))),
        ),
        (
            "the best of all these readings",
            reach(lambda i: max(one_layer_off[i], *(results[n][i].f1 for n in peers))),
        ),
    ]
    return [
        "**What the check part could reach** (F1 with each page's best reading chosen knowing its gold text)",
        "",
        table(("reading", "F1, check part"), rows),
        "",
    ]


def site(url: str) -> str:
    """A page's site: its host, "www." aside ("" for a page without an address)."""
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")


def by_site(
    pages: Sequence[Page], results: dict[str, list[Score]], tuning: set[str], tuned_sites: set[str]
) -> list[str]:
    """The check part's F1 on pages whose site is one of the tuning part's ``tuned_sites``, and on the others."""
    peer = PEERS[0].name
    rows = []
    for label, tuned in (("also in the tuning part", True), ("not in the tuning part", False)):
        chosen = [
            i for i, p in enumerate(pages) if p.id not in tuning and (site(p.url) in tuned_sites) == tuned
        ]
        if not chosen:
            continue
        ours = mean([results[WEB_FETCH][i] for i in chosen]).f1
        theirs = mean([results[peer][i] for i in chosen]).f1 if peer in results else None
        rows.append(
            (
                label,
                len(chosen),
                f"{ours:.3f}",
                "—" if theirs is None else f"{theirs:.3f}",
                "—" if theirs is None else f"{ours - theirs:+.3f}",
            )
        )
    return [
        "**The check part by site** (a page's site: its host; rules fitted to a tuning page fit its site's other pages)",
        "",
        table(("site of the check page", "pages", "web_fetch", peer, "web_fetch's lead"), rows),
        "",
    ]


if __name__ == "__main__":
    fill_peer_cache()
