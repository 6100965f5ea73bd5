"""What an HTML page will cost to extract, counted in its text before any parsing. Pure.

Extraction cost grows with the number of elements, not bytes: 4.8 MB of ``<td>x`` is 950,000
table cells (trafilatura took 37 s and 1.6 GB), while a 5 MB article of long paragraphs
extracts in 2 s. Counting start tags in the text takes milliseconds and no tree, so a page
over a cap of :mod:`.limits` is refused with a message that names what it has too much of,
before lxml or trafilatura see it. The worker's deadline and memory ceiling
(:mod:`.worker`) still bound whatever structure these counts do not foresee.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from llmweb.errors import TooLarge
from llmweb.fetch import limits


class HtmlWorkload(NamedTuple):
    elements: int
    paragraphs: int
    table_cells: int
    links: int
    code_blocks: int
    crowded_elements: int  # elements with more than MAX_ATTRIBUTES attributes

    def describe(self) -> str:
        """What the page holds, such as "about 80,000 HTML elements, 12,000 links" (no zero counts)."""
        parts = [f"about {self.elements:,} HTML elements"]
        parts += [f"{n:,} {name}" for n, name in self._named() if n]
        return ", ".join(parts)

    def _named(self) -> tuple[tuple[int, str], ...]:
        return (
            (self.paragraphs, "paragraphs"),
            (self.table_cells, "table cells"),
            (self.links, "links"),
            (self.code_blocks, "code blocks"),
        )


# Start tags, in any case as lxml reads them; a tag name ends at whitespace, "/" or ">".
# Matched case-blind (ASCII) rather than on a lowercased copy of the page: the copy was
# half of this check's time.
_CASE_BLIND = re.IGNORECASE | re.ASCII
_ELEMENT = re.compile(r"<[a-z]", _CASE_BLIND)
_PARAGRAPH = re.compile(r"<p[\s/>]", _CASE_BLIND)
_TABLE_CELL = re.compile(r"<t[dh][\s/>]", _CASE_BLIND)
_LINK = re.compile(r"<a[\s/>]", _CASE_BLIND)
_CODE_BLOCK = re.compile(r"<pre[\s/>]", _CASE_BLIND)
# A start tag with more than MAX_ATTRIBUTES attributes, each matched whole (an atomic group,
# so a tag that falls short fails without backtracking through its attributes).
_ATTRIBUTE = r"""\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?"""
_CROWDED = re.compile(rf"<[a-z][^\s/>]*(?>{_ATTRIBUTE}){{{limits.MAX_ATTRIBUTES + 1}}}", _CASE_BLIND)
# Text that holds no elements however many "<" it has: comments and raw-text elements, to
# their end or, unclosed, to the end of the page (as the parser reads them). Each match
# consumes what it scanned, so the pass stays linear even for a page of unclosed <script>s.
# Written as runs of characters that cannot start an end (an unrolled loop) rather than a
# lazy ".*?", which stepped through script bodies one character at a time: 1 ms of the
# check's 2.6 ms on an article benchmark page became 0.2 ms; 4 MB built to be slow take
# under a second.
_RAW_TEXT = re.compile(
    r"<!--[^-]*(?:-(?!->)[^-]*)*(?:-->)?"
    r"|<(script|style|textarea)\b[^<]*(?:<(?!/\1)[^<]*)*(?:</\1)?",
    _CASE_BLIND,
)


def measure_html(html: str) -> HtmlWorkload:
    """Counts of the start tags that drive extraction cost, outside scripts, styles and comments."""
    markup = _RAW_TEXT.sub(" ", html)
    patterns = (_ELEMENT, _PARAGRAPH, _TABLE_CELL, _LINK, _CODE_BLOCK, _CROWDED)
    return HtmlWorkload(*(_count(pattern, markup) for pattern in patterns))


# Each count with its cap and what the model should do instead, in the order they are
# checked: the first one past its cap is named.
_CAPS: tuple[tuple[str, int, str, str], ...] = (
    ("table_cells", limits.MAX_TABLE_CELLS, "table cells",
     "Look for the same data as a download (CSV, JSON) or through an API, or for a page that shows part of the table."),
    ("links", limits.MAX_LINKS, "links",
     "It is an index or a sitemap rather than a page to read: fetch the specific page you need, or search for it."),
    ("code_blocks", limits.MAX_CODE_BLOCKS, "code blocks",
     "Fetch a single section or chapter of it, or the raw source file."),
    ("paragraphs", limits.MAX_PARAGRAPHS, "paragraphs",
     "Fetch a single section or chapter of it, or a shorter page on the same subject."),
    ("elements", limits.MAX_ELEMENTS, "HTML elements",
     "Look for a lighter version of it: a single section or chapter, a print or text version, or the raw file."),
)  # fmt: skip


def check_html_workload(html: str, url: str) -> HtmlWorkload:
    """The page's counts, or TooLarge naming the first one past its cap and what to do instead."""
    work = measure_html(html)
    if work.crowded_elements:
        raise TooLarge(
            f"{url} has an element with more than {limits.MAX_ATTRIBUTES:,} attributes, which no real page needs "
            "and which would take the parser minutes. Search for another source of the same content.",
            url,
        )
    for field, cap, name, instead in _CAPS:
        count = getattr(work, field)
        if count > cap:
            about = "about " if field == "elements" else ""
            raise TooLarge(
                f"{url} has {about}{count:,} {name}, more than llmweb extracts ({cap:,}). {instead}", url
            )
    return work


def _count(pattern: re.Pattern[str], text: str) -> int:
    # one match at a time: findall would hold a million cells as 50 MB of strings
    return sum(1 for _ in pattern.finditer(text))
