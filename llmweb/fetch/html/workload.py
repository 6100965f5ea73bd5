"""What an HTML page will cost to read, counted before the parse and before extraction.

Extraction cost grows with the number of elements, not bytes: 4.8 MB of ``<td>x`` is 950,000
table cells (trafilatura took 37 s and 1.6 GB), while a 5 MB article of long paragraphs
extracts in 2 s. libxml2's parse is cheap next to it (about 1 µs and 300 bytes an element),
so the caps of :mod:`llmweb.fetch.limits` are kept in two steps: in the text, an over-estimate that no
markup can walk around bounds what the parse may build, and start tags counted outside
scripts and comments refuse the plain cases without a parse (:func:`check_html_workload`);
in the tree, the exact counts of what it built are held to the caps before trafilatura sees
it (:func:`check_tree_workload`), and the error names what the page has too much of. Each
step tells the worker's caller what it counted (:func:`.worker.report`), so a page the
deadline or the memory ceiling stopped is described without counting it again.
"""

from __future__ import annotations

import re
from typing import NamedTuple, cast

from lxml.html import HtmlElement

from llmweb.errors import TooLarge
from llmweb.fetch import limits, worker


class HtmlWorkload(NamedTuple):
    elements: int
    paragraphs: int
    table_cells: int
    links: int
    code_blocks: int

    def describe(self) -> str:
        """What the page holds, such as "80,000 HTML elements, 12,000 links" (no zero counts)."""
        parts = [f"{self.elements:,} HTML elements"]
        parts += [f"{n:,} {name}" for n, name in self._named() if n]
        return ", ".join(parts)

    def _named(self) -> tuple[tuple[int, str], ...]:
        return (
            (self.paragraphs, "paragraphs"),
            (self.table_cells, "table cells"),
            (self.links, "links"),
            (self.code_blocks, "code blocks"),
        )


# What the parser will build is counted in two steps. Before parsing, in the text, only
# bounds that cannot under-count: every "<" followed by an ASCII letter may open an element,
# and libxml2 adds at most html, head and body to those (an end tag such as </p> builds
# nothing), so their number bounds the tree, wherever they stand, in a script, a comment or
# an attribute value. A count that reads markup as libxml2 might (where a comment or a script
# ends) refuses most hostile pages early, but was walked around as the only check: a page it
# read differently hid 900,000 table cells. After parsing, the tree's exact counts decide.
_TAG_OPEN = re.compile(r"<[a-zA-Z]")
# A start tag with more than MAX_ATTRIBUTES attributes, each matched whole (an atomic group,
# so a tag that falls short fails without backtracking through its attributes; the name is
# possessive and stops at "<": "<a<a<a…" was one tag name, scanned again from every "<"). Control
# characters count as the spaces they become before parsing (extract._parse).
_SPACE = r"[\s\x00-\x1f]"
_ATTRIBUTE = rf"""{_SPACE}+[^\s\x00-\x1f"'>/=]+(?:{_SPACE}*={_SPACE}*(?:"[^"]*"|'[^']*'|[^\s\x00-\x1f>]*))?"""
_CROWDED = re.compile(
    rf"<[a-z][^\s\x00-\x1f/><]*+(?>{_ATTRIBUTE}){{{limits.MAX_ATTRIBUTES + 1}}}", re.IGNORECASE | re.ASCII
)
_IMPLIED_ELEMENTS = 3  # html, head and body, which the parser adds when a page leaves them out


def count_possible_elements(html: str) -> int:
    """At least as many as the elements libxml2 builds from ``html``: an over-estimate that
    counts every "<" before a letter (and the three the parser may add), in milliseconds."""
    return _count(_TAG_OPEN, html) + _IMPLIED_ELEMENTS


def check_html_workload(html: str, url: str) -> int:
    """Before parsing: TooLarge for a page whose parse alone would cost too much (more possible
    elements than MAX_PARSED_TAGS, or an element with more than MAX_ATTRIBUTES attributes), or
    whose start tags outside scripts and comments are already past a cap; else how many
    elements it may hold at most, which the worker reports."""
    if _CROWDED.search(html):
        raise TooLarge(
            f"{url} has an element with more than {limits.MAX_ATTRIBUTES:,} attributes, which no real page needs "
            "and which would take the parser minutes. Search for another source of the same content.",
            url,
        )
    possible = count_possible_elements(html)
    worker.report(f"at most {possible:,} HTML elements")
    # The plain cases in milliseconds, without a parse: start tags of each kind outside what
    # looks like a script, a style or a comment. This count can fall short (markup it reads
    # differently from libxml2), never the bound above nor the tree's count after parsing.
    # Each of them is a "<" before a letter, which the bound counted: a cap above the bound
    # cannot be passed, and is not counted (most pages count none, or their code blocks alone).
    caps = [(field, cap, name, instead) for field, cap, name, instead in _CAPS if cap < possible]
    markup = _RAW_TEXT.sub(" ", html) if caps else ""
    for field, cap, name, instead in caps:
        tags = _count(_START_TAGS[field], markup)
        if tags > cap:
            raise TooLarge(
                f"{url} has about {tags:,} {name}, more than llmweb extracts ({cap:,}). {instead}", url
            )
    del markup
    if possible > limits.MAX_PARSED_TAGS:
        # refused whatever they are; named, when one kind is past its cap, with what to do instead
        for field, cap, name, instead in _CAPS:
            tags = _count(_START_TAGS[field], html)
            if tags > cap:
                raise TooLarge(
                    f"{url} has about {tags:,} {name}, more than llmweb extracts ({cap:,}). {instead}", url
                )
        raise TooLarge(
            f"{url} has about {possible:,} HTML tags, more than llmweb reads ({limits.MAX_PARSED_TAGS:,}). "
            f"{_LIGHTER}",
            url,
        )
    return possible


# Start tags of each kind a cap is about; a tag name ends at a space, "/" or ">".
_END = r"[\s\x00-\x1f/>]"
_START_TAGS = {
    field: re.compile(pattern, re.IGNORECASE | re.ASCII)
    for field, pattern in (
        ("table_cells", rf"<t[dh]{_END}"),
        ("links", rf"<a{_END}"),
        ("code_blocks", rf"<pre{_END}"),
        ("paragraphs", rf"<p{_END}"),
        ("elements", r"<[a-z]"),
    )
}


# Scripts, styles and comments, to their end or, unclosed, to the end of the page. Each match
# consumes what it scanned, so the pass stays linear even for a page of unclosed <script>s;
# written as runs of characters that cannot start an end (an unrolled loop), not a lazy ".*?".
_RAW_TEXT = re.compile(
    r"<!--[^-]*(?:-(?!->)[^-]*)*(?:-->)?"
    r"|<(script|style|textarea)\b[^<]*(?:<(?!/\1)[^<]*)*(?:</\1)?",
    re.IGNORECASE | re.ASCII,
)

_LIGHTER = (
    "Look for a lighter version of it: a single section or chapter, a print or text version, or the raw file."
)


def measure_tree(root: HtmlElement) -> HtmlWorkload:
    """Counts of the elements that drive extraction cost, exactly as the parser built them."""

    def count(path: str) -> int:
        return int(cast(float, root.xpath(f"count({path})")))

    return HtmlWorkload(
        elements=count("/descendant::*"),  # not "//*", which first collects every node (.bios)
        paragraphs=count("//p"),
        table_cells=count("//td|//th"),
        links=count("//a"),
        code_blocks=count("//pre"),
    )


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
    ("elements", limits.MAX_ELEMENTS, "HTML elements", _LIGHTER),
)  # fmt: skip


def check_tree_workload(root: HtmlElement, url: str) -> HtmlWorkload:
    """After parsing, before extraction: the tree's counts (which the worker reports), or
    TooLarge naming the first one past its cap and what to do instead."""
    work = measure_tree(root)
    worker.report(work.describe())
    for field, cap, name, instead in _CAPS:
        count = getattr(work, field)
        if count > cap:
            raise TooLarge(f"{url} has {count:,} {name}, more than llmweb extracts ({cap:,}). {instead}", url)
    return work


def _count(pattern: re.Pattern[str], text: str) -> int:
    # one match at a time: findall would hold a million cells as 50 MB of strings
    return sum(1 for _ in pattern.finditer(text))
