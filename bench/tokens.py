"""Part 6: what a model spends reading an article through web_fetch, against the article itself."""

from __future__ import annotations

from pathlib import Path

from bench import scoring
from bench.extraction import load_pages, run_extractor
from bench.extractors import ARTICLE_EXTRACTORS, LLMWEB, TRAFILATURA
from bench.report import PartResult, table
from bench.tokens_count import count_tokens, tokenizer_name
from llmweb.fetch import limits

WHOLE_PAGE = next(e for e in ARTICLE_EXTRACTORS if e.name.startswith("html2text"))


def run(workdir: Path) -> PartResult:
    part = PartResult("tokens", "6. Tokens a model spends on an article")
    pages = load_pages()
    gold_chars = [len(p.gold) for p in pages]
    gold_tokens = [count_tokens(p.gold) for p in pages]
    rows: list[tuple[object, ...]] = [
        (
            "gold article text",
            f"{scoring.median(gold_chars):.0f}",
            f"{scoring.median(gold_tokens):.0f}",
            "1.00",
            "1.00",
            "—",
        ),
    ]
    for extractor in (LLMWEB, TRAFILATURA, WHOLE_PAGE):
        missing = extractor.missing()
        if missing:
            rows.append((extractor.name, "—", "—", "—", "—", missing))
            continue
        outcome = run_extractor(extractor, pages)
        chars = [len(t) for t in outcome.texts]
        ratios = [len(t) / max(1, len(p.gold)) for p, t in zip(outcome.pages, outcome.texts, strict=True)]
        window = sum(c <= limits.MAX_CHARS for c in chars) / len(chars)
        rows.append(
            (extractor.name, f"{scoring.median(chars):.0f}", f"{scoring.median([count_tokens(t) for t in outcome.texts]):.0f}",
             f"{scoring.median(ratios):.2f}", f"{scoring.percentile(ratios, 90):.2f}", f"{window:.0%}")
        )  # fmt: skip
        if extractor is LLMWEB:
            part.say(
                f"web_fetch returns {scoring.median(chars):.0f} characters per article (median), gold {scoring.median(gold_chars):.0f}"
            )
    part.add(
        f"The {len(pages)} articles of part 3. Characters and tokens are medians over pages; the ratio is taken "
        "per page (returned / gold characters), so 1.00 means the extractor returns as much text as the "
        "article holds and more is boilerplate or repeats a model pays for. "
        f"{tokenizer_name()}.",
        "",
        table(
            (
                "text",
                "median characters",
                "median tokens",
                "median ratio to gold",
                "90th pct ratio",
                f"pages within one {limits.MAX_CHARS:,}-character window",
            ),
            rows,
        ),
    )
    return part
