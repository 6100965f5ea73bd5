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

A section's body is also dropped when it is text written straight into a ``<div>``, no ``<p>``:
trafilatura reads a ``<div>``'s text only on a page with little ``<p>`` text, so a landing page
of cards, each a heading over a ``<div>`` of text, read as a run of headings on a page whose
other text is in paragraphs (a developer site's "Get started", each codelab's title kept, what
it teaches dropped). Such a ``<div>`` (text and inline elements only, TEXT_DIV_CHARS or more of
its own) is put back as a paragraph when it is the heading's sibling, its own body, and passes
.between's test; no furniture test, trafilatura did not drop it by a name. The sibling test keeps
the rule to its cause: without it the rule put back a review's text in a popover under its title
(a product 0.857 -> 0.675) and the blurbs of related stories' cards (an article 0.926 -> 0.849),
a heading's cousins, not its siblings (it also put back a shop's FAQ answers, 0.855 -> 0.962;
all 0.8815 and check 0.8701 without it, against 0.8816 and 0.8700 with it). WCXB dev's tuning part: 3 pages up (a developer site's
landing page 0.715 -> 0.911, two services' offer cards +0.004 and +0.010), an article -0.0003;
documentation 0.9394 -> 0.9428, all 0.8814 -> 0.8816; check part, in aggregate: 4 pages changed,
all 0.8699 -> 0.8700 (articles 0.9463 -> 0.9465, services 0.8144 -> 0.8148).
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
from llmweb.fetch.html.loose import INLINE

_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
TEXT_DIV_CHARS = 40  # a <div>'s own text (spaces left out) read as a paragraph: a sentence, not a label


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
    for element in root.iter("p", "ul", "ol", "div", *_HEADINGS):
        if element.tag == "div":
            # only the open section's heading's sibling: a <div> a heading begins is not its body
            if opened is not None and element.getparent() is opened[3].getparent() and _text_div(element):
                pending.append(element)
            continue
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
                        and (block.tag == "div" or _in_furniture(block))
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


# inline elements whose text is the paragraph's own (a theme wraps a summary in a <span>), where
# a link's or a button's is a call to go elsewhere
_TEXT_WRAPPERS = frozenset({"span", "em", "strong", "i", "b"})


def _text_div(div: HtmlElement) -> bool:
    """Whether ``div`` is a paragraph written without a ``<p>``: text and inline elements only,
    TEXT_DIV_CHARS or more of it outside them (a card's button or a link alone is not), or in
    the spans and emphases of _TEXT_WRAPPERS. The spans' text counted: WCXB dev's tuning part, 4
    pages changed, 3 up and 1 down, +0.26 summed (a recipe roundup's summaries 0.725 -> 0.956,
    a product +0.036; a gaming mouse guide -0.005); the check part and the article set unchanged."""
    chars = len("".join((div.text or "").split()))
    for child in div:
        if isinstance(child.tag, str) and child.tag not in INLINE:
            return False
        if child.tag in _TEXT_WRAPPERS:
            chars += len("".join(child.text_content().split()))
        chars += len("".join((child.tail or "").split()))
    return chars >= TEXT_DIV_CHARS


def _as_block(block: HtmlElement) -> Any:
    if block.tag in ("p", "div"):
        paragraph = etree.Element("p")
        paragraph.text = " ".join(block.text_content().split())
        return paragraph
    return as_reading(block)
