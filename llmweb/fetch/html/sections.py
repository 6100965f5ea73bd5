"""The bodies of sections a reading keeps the heading of and nothing under it. Pure.

trafilatura drops a block its class or id names as furniture ("banner", "overlay", "slide"…)
and keeps the heading above it: a service page's offers, each a heading over a box of a smaller
heading and a paragraph, read as a run of headings with nothing between them. Each heading of
the reading followed at once by one of its rank or higher opens such a section. In the page,
from that heading (of the same rank) to the next one the reading holds, the headings,
paragraphs and lists the reading lacks are put back under it when they are shown, outside the
page's chrome and not links (.between's test), within NEAR_LEVELS of the heading's ancestors,
and named furniture themselves or by one of their NEAR_LEVELS ancestors.

The furniture test is what keeps the rule to its cause: without it the rule put back a shop's
"as seen on Instagram" intro beside a carousel scripts fill (a product 0.706 -> 0.681) and a
blog's cards of links to its other pages (a listing -0.002). The rank test keeps a page's title,
said again as a heading lower down, from opening a section at the top of the page (an article
0.992 -> 0.966).

WCXB dev's tuning part (bench/wcxb.py, layer ``sections``): fires on 2 pages, both up, a
pest-control offers page 0.762 -> 0.964 and an HR consultancy's service cards 0.885 -> 0.918;
service 0.8644 -> 0.8663, the other types unchanged.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.between import (
    NEAR_LEVELS,
    as_reading,
    beside,
    dropped,
    read_keys,
)
from llmweb.fetch.html.continuation import ElementKeys
from llmweb.fetch.html.interleaved import named_furniture

_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _rank(element: Any) -> int:
    """A heading's level, from the page's tag or the reading's ``rend``; 7 when it says none."""
    tag = element.tag if element.tag in _HEADINGS else element.get("rend") or ""
    return int(tag[1]) if tag in _HEADINGS else 7


def restore_section_bodies(root: HtmlElement, body: Any, keys: ElementKeys | None = None) -> int:
    """Put back into trafilatura's ``body`` the bodies of its empty sections described in the
    module's docstring; how many blocks."""
    keys = ElementKeys() if keys is None else keys
    children = list(body)
    # a heading's key: its rank, its place in the reading, the next heading's key
    empty: dict[str, tuple[int, int, str]] = {}
    for place, (child, following) in enumerate(pairwise(children)):
        if child.tag == "head" and following.tag == "head" and _rank(following) <= _rank(child):
            key = keys[child]
            if key and key != keys[following]:
                empty.setdefault(key, (_rank(child), place, keys[following]))
    if not empty:
        return 0
    read = read_keys(root, body, keys)
    fields: dict[HtmlElement, bool] = {}
    after: dict[int, list[Any]] = {}
    opened: tuple[int, int, str, HtmlElement] | None = None
    pending: list[HtmlElement] = []
    for element in root.iter("p", "ul", "ol", *_HEADINGS):
        if element.tag in _HEADINGS:
            key = keys[element]
            rank = _rank(element)
            if opened is not None and (key == opened[2] or rank <= opened[0]):
                _, place, closing, heading = opened
                if key == closing and place not in after:
                    blocks = [
                        _as_block(block)
                        for block in pending
                        if dropped(block, read, None, fields, keys)
                        and beside(block, heading)
                        and _in_furniture(block)
                    ]
                    if blocks:
                        after[place] = blocks
                opened, pending = None, []
            if opened is None and key in empty and empty[key][0] == rank:
                opened = (rank, *empty[key][1:], element)
                continue
        if opened is not None:
            pending.append(element)
    if after:
        for place in sorted(after, reverse=True):
            children[place + 1 : place + 1] = after[place]
        body[:] = children
    return sum(len(blocks) for blocks in after.values())


def _in_furniture(block: HtmlElement) -> bool:
    """Whether trafilatura's rule names ``block`` or one of its NEAR_LEVELS ancestors furniture:
    why it dropped the block (a section's intro beside a carousel scripts fill, a card of a
    grid of links to other pages, are dropped for other reasons and are not the text's)."""
    for level, element in enumerate((block, *block.iterancestors())):
        if level > NEAR_LEVELS:
            return False
        if named_furniture(element):
            return True
    return False


def _as_block(block: HtmlElement) -> Any:
    if block.tag == "p":
        paragraph = etree.Element("p")
        paragraph.text = " ".join(block.text_content().split())
        return paragraph
    return as_reading(block)
