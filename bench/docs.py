"""Part 4: extraction on technical documentation, the main use: text found and code kept intact.

Seven generators (bench/docs_corpus.py), each on its own line beside trafilatura and
readability-lxml, each held to F1 ≥ 0.97 and code lines exact ≥ 99.5 %. A second table
counts the version and availability lines of the gold text ("Added in: v8.3.0",
"Deprecated since 1.42.0", "Since: base-4.8.0.0", "New in version 3.2") that each
extractor keeps: what a model needs to tell versions apart.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench import docs_corpus, scoring
from bench.extractors import LLMWEB, READABILITY_PLAIN, TRAFILATURA, Extractor
from bench.report import PartResult, Target, table

F1_TARGET = 0.97  # on every generator
LINES_TARGET = 0.995  # code lines exact, on every generator
CODE_TARGET = 0.99  # code blocks, all generators together
_VERSION_LINE = re.compile(
    r"\b(?:added in|new in version|changed in version|deprecated since|deprecated in|since:|since version)",
    re.I,
)
# readability-lxml's text goes through lxml here, not html_text as in part 3: html_text respaces code.
EXTRACTORS = (LLMWEB, TRAFILATURA, READABILITY_PLAIN)


@dataclass
class Tally:
    pages: int = 0
    seconds: float = 0.0
    counts_bag: list[scoring.Counts] = field(default_factory=list)
    counts_shingle: list[scoring.Counts] = field(default_factory=list)
    blocks: int = 0
    blocks_normalised: int = 0
    blocks_exact: int = 0
    lines: int = 0
    lines_exact: int = 0
    version_lines: int = 0
    version_lines_kept: int = 0
    failures: int = 0

    def add(self, page: docs_corpus.DocPage, text: str, seconds: float) -> None:
        self.pages += 1
        self.seconds += seconds
        self.counts_bag.append(scoring.match_counts(page.gold, text, 1))
        self.counts_shingle.append(scoring.match_counts(page.gold, text, 4))
        for block in page.code_blocks:
            self.blocks += 1
            self.blocks_normalised += scoring.block_survives_normalised(block, text)
            self.blocks_exact += scoring.block_survives_exact(block, text)
            found, total = scoring.lines_found_exact(block, text)
            self.lines += total
            self.lines_exact += found
        words = f" {' '.join(scoring.tokenize(text.lower()))} "
        for line in page.gold.splitlines():
            if _VERSION_LINE.search(line):
                self.version_lines += 1
                self.version_lines_kept += f" {' '.join(scoring.tokenize(line.lower()))} " in words

    def merged(self, other: Tally) -> Tally:
        out = Tally()
        for name in (
            "pages",
            "seconds",
            "blocks",
            "blocks_normalised",
            "blocks_exact",
            "lines",
            "lines_exact",
            "version_lines",
            "version_lines_kept",
            "failures",
        ):
            setattr(out, name, getattr(self, name) + getattr(other, name))
        out.counts_bag = self.counts_bag + other.counts_bag
        out.counts_shingle = self.counts_shingle + other.counts_shingle
        return out

    def share(self, part: int, whole: int) -> float:
        return part / whole if whole else 1.0

    def row(self, label: str, kind: str) -> tuple[object, ...]:
        return (
            label, kind, self.pages,
            f"**{scoring.scores(self.counts_bag).f1:.3f}**", f"{scoring.scores(self.counts_shingle).f1:.3f}",
            f"{self.blocks}", f"**{self.share(self.blocks_normalised, self.blocks):.1%}**",
            f"{self.share(self.blocks_exact, self.blocks):.1%}", f"{self.share(self.lines_exact, self.lines):.1%}",
            f"{self.pages / self.seconds:.1f}" if self.seconds else "—", self.failures,
        )  # fmt: skip


def extract_all(extractor: Extractor, pages: list[docs_corpus.DocPage]) -> Tally:
    tally = Tally()
    for page in pages:
        started = time.perf_counter()
        try:
            text = extractor.extract(page.html, "")
        except Exception:  # counted, scored as empty
            text = ""
            tally.failures += 1
        tally.add(page, text, time.perf_counter() - started)
    return tally


def run(workdir: Path) -> PartResult:
    part = PartResult("docs", "4. Extraction on technical documentation")
    corpora = _corpora(part)
    if not corpora:
        part.targets.append(Target("docs corpus", "available", "apt could not provide it", None))
        return part
    rows, version_rows, ours = _extractor_rows(part, corpora)
    part.add(*_method_and_tables(corpora, rows, version_rows))
    if ours:
        total = _per_generator_figures(part, ours)
        _overall_figures(part, total)
    if len(corpora) < len(docs_corpus.DOC_SETS):
        part.add("", "Targets are judged on the doc sets that could be fetched only.")
    return part


def _corpora(part: PartResult) -> dict[str, list[docs_corpus.DocPage]]:
    """The pages of each doc set apt could provide, by kind; a note for each one it could not."""
    corpora: dict[str, list[docs_corpus.DocPage]] = {}
    for doc_set in docs_corpus.DOC_SETS:
        try:
            corpora[doc_set.kind] = docs_corpus.load(doc_set)
            part.say(f"{doc_set.kind}: {len(corpora[doc_set.kind])} pages")
        except docs_corpus.CorpusUnavailable as exc:
            part.add(f"**Skipped {doc_set.kind}:** {exc}", "")
    return corpora


Row = tuple[object, ...]


def _extractor_rows(
    part: PartResult, corpora: dict[str, list[docs_corpus.DocPage]]
) -> tuple[list[Row], list[Row], dict[str, Tally]]:
    """Every extractor on every doc set: the scores' rows, the version lines' rows and llmweb's tallies."""
    rows: list[Row] = []
    version_rows: list[Row] = []
    ours: dict[str, Tally] = {}
    for extractor in EXTRACTORS:
        missing = extractor.missing()
        if missing:
            rows.append((extractor.name, "—", "—", "—", "—", "—", "—", "—", "—", "—", missing))
            continue
        total = Tally()
        kept: list[str] = []
        for kind, pages in corpora.items():
            tally = extract_all(extractor, pages)
            rows.append(tally.row(extractor.name, kind))
            kept.append(
                f"{tally.version_lines_kept} of {tally.version_lines}" if tally.version_lines else "—"
            )
            total = total.merged(tally)
            if extractor is LLMWEB:
                ours[kind] = tally
        rows.append(total.row(extractor.name, "**all**"))
        version_rows.append(
            (extractor.name, *kept, f"**{total.version_lines_kept} of {total.version_lines}**")
        )
        part.say(
            f"{extractor.name}: F1 {scoring.scores(total.counts_bag).f1:.3f}, code {total.share(total.blocks_normalised, total.blocks):.1%}"
        )
    return rows, version_rows, ours


def _method_and_tables(
    corpora: dict[str, list[docs_corpus.DocPage]], rows: list[Row], version_rows: list[Row]
) -> tuple[str, ...]:
    """What was measured and how, the scores' table and the version lines' table."""
    described = "; ".join(
        f"{kind}: {len(pages)} pages from {next(d for d in docs_corpus.DOC_SETS if d.kind == kind).package} "
        f"(main content `{next(d for d in docs_corpus.DOC_SETS if d.kind == kind).main_xpath}`)"
        for kind, pages in corpora.items()
    )
    return (
        f"Pages picked at random with seed {docs_corpus.SEED} from Debian's documentation packages "
        f"(apt-get download, unpacked into var/bench-cache/): {described}. Gold text = the text of the page's "
        "main-content element, without scripts, styles and an iframe's fallback; code blocks = its `<pre>` "
        "elements (Doxygen's `div.fragment` too, one line per line div). F1 is bag of words (1-token shingles) and, "
        "beside it, the article benchmark's 4-token shingles, both scored as in part 3. A code block survives "
        "*normalised* when its text appears in the output with all whitespace runs made single spaces, and "
        "*exact* when its non-blank lines appear as consecutive output lines with indentation intact "
        "(no-break spaces read as spaces); *lines exact* counts single lines. Targets: F1 ≥ "
        f"{F1_TARGET} and lines exact ≥ {LINES_TARGET:.1%} on every generator.",
        "",
        table(
            (
                "extractor",
                "docs",
                "pages",
                "F1 (words)",
                "F1 (4-shingles)",
                "code blocks",
                "blocks kept, normalised",
                "blocks kept, exact",
                "lines exact",
                "pages/s",
                "failed",
            ),
            rows,
        ),
        "",
        "Version and availability lines of the gold text (matching added in, new in version, changed in "
        "version, deprecated since/in, since) found whole in each extractor's text:",
        "",
        table(("extractor", *corpora, "all"), version_rows),
    )


def _per_generator_figures(part: PartResult, ours: dict[str, Tally]) -> Tally:
    """web_fetch's F1 and exact code lines on each generator, with their targets; returns the merged tally."""
    total = Tally()
    for kind, tally in ours.items():
        total = total.merged(tally)
        doc_set = next(d for d in docs_corpus.DOC_SETS if d.kind == kind)
        f1 = part.figure(f"f1_{doc_set.slug}", scoring.scores(tally.counts_bag).f1)
        lines = part.figure(f"code_lines_exact_{doc_set.slug}", tally.share(tally.lines_exact, tally.lines))
        part.targets += [
            Target(f"F1 on {kind}", f"≥ {F1_TARGET}", f"{f1:.3f}", f1 >= F1_TARGET),
            Target(
                f"code lines exact on {kind}",
                f"≥ {LINES_TARGET:.1%}",
                f"{lines:.1%}",
                lines >= LINES_TARGET,
            ),
        ]
    return total


def _overall_figures(part: PartResult, total: Tally) -> None:
    """web_fetch's F1, code blocks and version lines over all generators, with the code blocks' targets."""
    f1 = part.figure("f1", scoring.scores(total.counts_bag).f1)
    normalised = part.figure("code_blocks_normalised", total.share(total.blocks_normalised, total.blocks))
    exact = part.figure("code_blocks_exact", total.share(total.blocks_exact, total.blocks))
    part.figure("version_lines_kept", total.share(total.version_lines_kept, total.version_lines))
    part.targets += [
        Target(
            "code blocks kept, whitespace-normalised, all generators",
            f"≥ {CODE_TARGET:.0%}",
            f"{normalised:.1%}",
            normalised >= CODE_TARGET,
        ),
        Target(
            "code blocks kept, exact lines and indentation, all generators",
            f"≥ {CODE_TARGET:.0%}",
            f"{exact:.1%}",
            exact >= CODE_TARGET,
        ),
    ]
    part.say(f"web_fetch: F1 {f1:.3f} on all generators")
