"""The page's date: web_fetch's against htmldate's, on the article set's hand-labelled dates.

article_dates.json holds, for each page of the article set, the date the page states as
its first publication, in the publisher's time zone, labelled by hand from the page: the
byline's date ("Nov 18, 2019 at 9:24 pm ET" is the 18th, whatever UTC says), or where the
page shows only an update, the publication date of its markup (JSON-LD, Open Graph), or
its address (one page); null for the two pages that state none. Each way of finding the
date is counted right, wrong (another date), missing (none) on the pages with a date, and
for a date it invented on the pages without one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from htmldate import find_date

from bench.paths import BENCH
from bench.report import PartResult, Target, table
from llmweb.fetch.html.extract import extract_page

LABELS = BENCH / "article_dates.json"


class Page(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def html(self) -> str: ...


def _web_fetch(page: Page) -> str | None:
    return extract_page(page.html, page.url).published


def _htmldate(*, original_date: bool) -> Callable[[Page], str | None]:
    def find(page: Page) -> str | None:
        found = find_date(page.html, url=page.url or None, original_date=original_date)
        return found if isinstance(found, str) else None

    return find


WAYS: tuple[tuple[str, Callable[[Page], str | None]], ...] = (
    ("web_fetch: htmldate, first publication, markup only", _web_fetch),
    ("htmldate's defaults (the latest date, markup then text)", _htmldate(original_date=False)),
    ("htmldate, first publication, markup then text", _htmldate(original_date=True)),
)


def report(part: PartResult, pages: Sequence[Page]) -> None:
    labels: dict[str, str | None] = json.loads(LABELS.read_text())
    dated = sum(1 for p in pages if labels.get(p.id))
    rows = []
    right_by_way = {}
    for name, way in WAYS:
        right = wrong = missing = invented = 0
        started = time.process_time()
        for page in pages:
            found, truth = way(page), labels.get(page.id)
            if truth:
                right += found == truth
                wrong += bool(found) and found != truth
                missing += not found
            else:
                invented += bool(found)
        seconds = time.process_time() - started
        right_by_way[name] = right
        rows.append((name, f"**{right}**", wrong, missing, invented, f"{seconds * 1000 / len(pages):.1f}"))
    part.add(
        "",
        f"**The page's date.** {dated} of the {len(pages)} pages state a publication date; each was labelled by "
        "hand (bench/article_dates.json: the byline's date in the publisher's time zone, else the markup's "
        "first-publication date). *ms/page* includes extracting the text for web_fetch's row.",
        "",
        table(
            (
                "date found by",
                f"right (of {dated})",
                "wrong",
                "none",
                f"invented (of {len(pages) - dated} without)",
                "ms/page",
            ),
            rows,
        ),
    )
    more = right_by_way[WAYS[2][0]] - right_by_way[WAYS[0][0]]
    found_here = (
        f"finds {more} more date{'s' if more != 1 else ''} than web_fetch in this run"
        if more > 0
        else f"finds no more dates than web_fetch in this run ({-more} fewer)"
        if more < 0
        else "finds no more dates than web_fetch in this run"
    )
    part.add(
        "",
        f"htmldate's text search (third row) {found_here}. Not measured by this run, an earlier finding "
        "(2026-12-01, the docs bench's manuals, which state no date): the text search found one on 20 of 40 "
        "rustdoc pages and on every Haddock and Javadoc page (version numbers, copyright years; the markup "
        "alone: none), and took 2.8 s on Haddock's GHC.Exts page. So web_fetch reads the markup only "
        "(llmweb/fetch/html/metadata.py).",
    )
    ours = part.figure("dates_right", right_by_way[WAYS[0][0]])
    theirs = right_by_way[WAYS[1][0]]
    part.targets.append(
        Target(
            "page dates right, web_fetch against htmldate's defaults",
            f"≥ {theirs}",
            f"{ours:.0f} of {dated}",
            ours >= theirs,
        )
    )
