"""Blocks after an article's body, beside the container of its paragraphs. Pure.

An article's paragraphs sit in one element, and what follows that element inside the
article's wrappers is about the page, not the story: a disclaimer ("This content is provided
as a service of…"), numbered sources, a share row, "Explore the latest insights" cards, a
review date. trafilatura reads the whole wrapper and keeps those that read as prose. Here the
element holding the most paragraph text is the body when it holds a good part of all the
page's paragraph text; the blocks after it, among its siblings and its parents' siblings a few
levels up, go when they are small beside it. A block holding an element of the body's own
class is the article going on (an ad row between its halves, :mod:`.continuation`) and stays.

WCXB dev's tuning part: fires on 136 article pages, 11 change, +0.214 summed (an AI blog's
cards 0.82 -> 0.99, a health page's disclaimer 0.96 -> 1.00, sources and a disclaimer 0.91
-> 0.94; a FAQ section after a body -0.027, a page's related-papers line -0.026). Only on
pages that declare an article (extract.py).
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

_MIN_BODY_SHARE = 0.4  # the body holds this share of the page's paragraph text at least
_MAX_LEVELS = 3  # the wrappers above the body whose later children are looked at
_MAX_BLOCK_SHARE = 0.5  # a block after the body larger than half of it is more of the text


def drop_trailing_blocks(root: HtmlElement) -> int:
    """Remove the blocks after an article's body (the module's docstring); how many went."""
    body = root.find("body")
    if body is None:
        return 0
    held: dict[HtmlElement, int] = {}
    for paragraph in body.iter("p"):
        parent = paragraph.getparent()
        if parent is not None:
            held[parent] = held.get(parent, 0) + len(paragraph.text_content())
    if not held:
        return 0
    holder = max(held, key=held.__getitem__)
    if held[holder] < _MIN_BODY_SHARE * sum(held.values()):
        return 0
    holder_chars = len(holder.text_content())
    classes = set((holder.get("class") or "").split())
    dropped = 0
    node = holder
    for _ in range(_MAX_LEVELS):
        parent = node.getparent()
        if parent is None or parent.tag in ("body", "html"):
            break
        for sibling in list(node.itersiblings()):
            if _is_trailing(sibling, holder_chars, classes):
                sibling.drop_tree()
                dropped += 1
        node = parent
    return dropped


def _is_trailing(el: HtmlElement, holder_chars: int, classes: set[str]) -> bool:
    if not isinstance(el.tag, str) or el.tag in ("script", "style"):
        return False
    text = " ".join(el.text_content().split())
    if not text or len(text) > _MAX_BLOCK_SHARE * holder_chars:
        return False
    # the article going on in a container of its own class
    return not classes or not any(
        classes & set((d.get("class") or "").split()) for d in el.iter(etree.Element)
    )
