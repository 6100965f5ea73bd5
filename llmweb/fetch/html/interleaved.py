"""Headings, lists, tables and boxes of prose a reading dropped between paragraphs it kept. Pure.

When trafilatura's fast reading finds no container it knows (no ``<article>``, no class it
recognises), it recovers the page's paragraphs one by one and leaves out what is not a
paragraph: an article's section headings, its lists and tables, lying between paragraphs it
kept. The page names its container by what was kept: an element holding two or more of the
kept paragraphs as its children, with headings, lists or tables the reading lacks between them.
:func:`llmweb.fetch.html.extract` reads the page again with that element declared the
article, and keeps the second reading only when it holds the first (:func:`holds`). A landing
page's sections (a heading, a paragraph and a list each) have no such parent: there the page's
own main region is that element, when the dropped blocks lie between its kept paragraphs.

The same reading drops, for the names it takes for furniture in their class or id ("embed",
"meta", "slide", "sidebar"…), boxes of prose that lie between paragraphs it kept: an
article's quote card, a guide's FAQ block, a service's slider of testimonials
(:func:`boxes_between`). The page is read again with those names left out, and the second
reading kept on the same terms.
"""

from __future__ import annotations

import re
from typing import Any

import trafilatura.xpaths
from lxml.html import HtmlElement

from llmweb.fetch.html.continuation import ElementKeys, element_key

# What a reading that recovers paragraphs one by one leaves out between them
_BLOCK_TAGS = frozenset({"h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "table"})
# Elements are compared by the first words of their text, as continuation compares them
# (:func:`element_key`): a lookup each, where searching each paragraph in the whole reading
# was quadratic in a page of many paragraphs
# A kept paragraph counts when its key is this long: short ones ("Features:", a date) are
# anywhere in a reading
_KEPT_MIN_CHARS = 40
# Characters of dropped blocks an element must hold to be read again: a heading or two is
# not worth a second reading of the page
DROPPED_MIN_CHARS = 200
# A block whose text is at least this share links is a list of links, dropped on purpose
LINKED_SHARE = 0.5
# The share of the first reading's text the second must hold: it may add, not replace
HOLD_SHARE = 0.95
# Ancestors of the container looked through for one holding every paragraph the reading kept
ENCLOSING_LEVELS = 3


def container_with_gaps(root: HtmlElement, body: Any, keys: ElementKeys | None = None) -> HtmlElement | None:
    """The element of ``root`` holding, between two paragraphs trafilatura's ``body`` kept,
    the most characters of headings, lists and tables it dropped (at least DROPPED_MIN_CHARS),
    or None. Only for a reading of paragraphs alone, without a heading or a list: what the
    recovery of paragraphs one by one gives (on the article set's pages, where trafilatura
    knew the container, the other readings read again were never kept). ``keys``: the elements'
    keys made so far (:class:`~llmweb.fetch.html.continuation.ElementKeys`)."""
    if body.find(".//head") is not None or body.find(".//list") is not None:
        return None  # a reading from a container trafilatura knows: what it dropped, it dropped on purpose
    keys = ElementKeys() if keys is None else keys
    read = {key for element in body.iter() if (key := keys[element])}
    if not read:
        return None
    best, most = None, DROPPED_MIN_CHARS - 1
    # only an element holding such a block and paragraphs is looked at: most of a page's
    # paragraphs are not measured at all
    parents = {
        id(parent): parent for block in root.iter(*_BLOCK_TAGS) if (parent := block.getparent()) is not None
    }
    for parent in parents.values():
        children = [child for child in parent if isinstance(child.tag, str)]
        kept = [
            i
            for i, child in enumerate(children)
            if child.tag == "p" and len(key := keys[child]) >= _KEPT_MIN_CHARS and key in read
        ]
        if len(kept) < 2:
            continue
        dropped = sum(_dropped_chars(child, read, keys) for child in children[kept[0] + 1 : kept[-1]])
        if dropped > most:
            best, most = parent, dropped
    return best if best is not None else _main_with_gaps(root, read, keys)


def _main_with_gaps(root: HtmlElement, read: set[str], keys: ElementKeys) -> HtmlElement | None:
    """The page's main region (``<main>``, ``role="main"``) when, between the first and the last
    paragraph the reading kept in it, it holds at least DROPPED_MIN_CHARS of headings, lists and
    tables the reading lacks: a landing page of sections, each a heading, a paragraph and a list,
    whose paragraphs have no parent in common below the region. Above the region trafilatura
    read a small box its class names as text ("text", "story") and stopped there, or recovered
    the page's paragraphs alone. Only the blocks between the kept paragraphs count: a news
    story's region also holds its site's teasers after it (their headings, a "trending" list),
    which the second reading kept. WCXB dev's tuning part, the region tried when no parent held
    the gaps: fired on 6 pages, 5 changed, none lower (2 services +0.103 and +0.146, 3 products
    +0.08 to +0.10; service 0.8599 -> 0.8620, product 0.6540 -> 0.6575, the other types
    unchanged); counting every dropped block in the region, a news story lost 0.05. The check
    part unchanged at every type."""
    for main in root.xpath("/descendant::main | /descendant::*[@role='main']"):
        dropped, pending, kept = 0, 0, 0
        for element in main.iter("p", *_BLOCK_TAGS):
            if _inside_block(element, main):
                continue  # counted with the block that holds it
            if element.tag == "p":
                if len(key := keys[element]) >= _KEPT_MIN_CHARS and key in read:
                    kept += 1
                    dropped, pending = (dropped + pending if kept > 1 else 0), 0
            else:
                pending += _dropped_chars(element, read, keys)
        if kept >= 2 and dropped >= DROPPED_MIN_CHARS:
            return main
    return None


def _inside_block(element: HtmlElement, region: HtmlElement) -> bool:
    """Whether ``element`` lies in a paragraph or a block of _BLOCK_TAGS below ``region``."""
    for above in element.iterancestors():
        if above is region:
            return False
        if above.tag == "p" or above.tag in _BLOCK_TAGS:
            return True
    return False


def enclosing(container: HtmlElement, body: Any) -> HtmlElement:
    """``container``, or its nearest ancestor within ENCLOSING_LEVELS that holds every paragraph
    ``body`` kept (of _KEPT_MIN_CHARS) when the container lacks some: an article written in two
    blocks with an offer between them is read whole from their parent, where read from one block
    the second reading lost the other's paragraphs and was not kept."""
    wanted = {key for paragraph in body.iter("p") if len(key := element_key(paragraph)) >= _KEPT_MIN_CHARS}
    element: HtmlElement | None = container
    for _ in range(ENCLOSING_LEVELS + 1):
        if element is None:
            break
        if wanted <= {element_key(paragraph) for paragraph in element.iter("p")}:
            return element
        element = element.getparent()
    return container


def _dropped_chars(child: HtmlElement, read: set[str], keys: ElementKeys) -> int:
    """Characters of ``child``'s text when it is a block the reading lacks that is not mostly
    links: a list of links (related stories, a table of contents) is dropped on purpose, and a
    second reading drops it again."""
    if child.tag not in _BLOCK_TAGS:
        return 0
    key = keys[child]
    if not key or key in read:
        return 0
    chars = len(child.text_content())
    linked = sum(len(link.text_content()) for link in child.iter("a"))
    return chars if linked < LINKED_SHARE * chars else 0


def holds(second: Any, first: Any) -> bool:
    """Whether trafilatura's ``second`` reading is longer than ``first`` and holds at least
    HOLD_SHARE of its text: its elements' own text counted, an element found by its key."""
    found = {element_key(element) for element in second.iter()}
    held = total = 0
    for element in first.iter():
        own = len(element.text or "") + sum(len(child.tail or "") for child in element)
        total += own
        held += own if element_key(element) in found else 0
    return total > 0 and held >= HOLD_SHARE * total and _chars(second) > _chars(first)


def _chars(tree: Any) -> int:
    return sum(map(len, tree.itertext()))


def _furniture_words(*groups: str) -> re.Pattern[str] | None:
    """trafilatura's words for blocks its class or id names as a page's furniture ("embed",
    "meta", "slide", "sidebar", "widget"…): what OVERALL_DISCARD_XPATH tests with re:test, here
    without an XPath search of the page (a quarter of a fast reading's time). They are private
    to ``trafilatura.xpaths``: a version without them leaves no box to look for (None)."""
    words: list[str] = []
    for group in groups:
        found = getattr(trafilatura.xpaths, group, None)
        if not isinstance(found, tuple) or not found:
            return None
        words += found
    return re.compile("|".join(words))


_FURNITURE_CLASS = _furniture_words("_OVERALL_DISCARD_BOTH_TOKENS", "_OVERALL_DISCARD_CLASS_TOKENS")
_FURNITURE_ID = _furniture_words("_OVERALL_DISCARD_BOTH_TOKENS", "_OVERALL_DISCARD_ID_TOKENS")
_FURNITURE_TAGS = frozenset({"div", "p", "section", "span"})
# Characters a box of prose the reading dropped between its paragraphs holds to be read again
BOX_MIN_CHARS = 200
# Levels above a box looked through for kept paragraphs before and after it, and below a block
# beside kept paragraphs for a box
BOX_LEVELS = 2
# Levels above a box looked through for an element holding kept paragraphs before and after it:
# a page builder's box (a slider in a widget in a column) lies deeper than the blocks beside the
# paragraphs (WCXB dev's tuning part, against BOX_LEVELS: 2 pages changed, both up, a product
# 0.55 -> 0.87, a service +0.003; the rule finding its boxes deeper and further up gained 2 more
# services, +0.31 summed, but cost 2 articles and a product's review carousel, -0.08)
BESIDE_LEVELS = 5
_SENTENCE_END = re.compile(r"\w[.!?][\"”’)]?(?:\s|$)")
# …and at least this share of its text in runs of PROSE_RUN_CHARS: a product's card (its name,
# prices, pros and cons) is as long as a paragraph, in pieces
PROSE_SHARE = 0.5
PROSE_RUN_CHARS = 60
# Blocks of prose placed at most: a page of thousands would cost a walk of their siblings each
BOX_MAX_BLOCKS = 50


def boxes_between(root: HtmlElement, body: Any, keys: ElementKeys | None = None) -> list[HtmlElement]:
    """Elements of ``root`` trafilatura's furniture rule drops (a class or id naming an embed,
    meta data, a slider) that lie between paragraphs the reading ``body`` kept, within
    BOX_LEVELS levels, and hold prose it lacks: at least BOX_MIN_CHARS, two sentences, less
    than LINKED_SHARE links, no form. An article's quote card, a guide's FAQ, a testimonial.
    A box after the kept paragraphs (none after it) is taken when it holds more text than the
    whole reading: the paragraphs were the lead-in to it, a restaurant guide's cards in a box
    its class names a footer. WCXB dev's tuning part: 1 page changed (that guide, 0.03 ->
    0.97; articles 0.9566 -> 0.9583), the check part and the article set unchanged; a box
    after them of any size cost 8 articles their author's note or teasers (-0.16 summed).
    Each such element of a block is a box, not only its first: a page builder's column names
    every widget in it, a heading's first, and the slider after it was never looked at (on WCXB
    dev's tuning part alone, no page changes; with BESIDE_LEVELS, see there).
    A box holding a table (:func:`_table`) is taken as a box of prose is: a page builder's block
    for custom HTML ("w-embed") holds an article's comparison tables. WCXB dev's tuning part: 12
    pages changed, 9 up and 3 down, +0.16 summed (a health insurers' guide 0.78 -> 0.89; three
    articles -0.015 each, whose comparison table the gold leaves out); check part: articles
    0.9466 -> 0.9467, all 0.8700 -> 0.8701; the article set unchanged.
    At most BOX_MAX_BLOCKS blocks of prose are placed: each is placed by a walk of its siblings.
    ``keys``: the elements' keys made so far (:class:`~llmweb.fetch.html.continuation.ElementKeys`)."""
    keys = ElementKeys() if keys is None else keys
    read = {key for paragraph in body.iter("p") if len(key := keys[paragraph]) >= _KEPT_MIN_CHARS}
    if not read:
        return []
    # every element holding a kept paragraph; the paragraphs' parents and BOX_LEVELS more
    # ancestors are the holders, the blocks beside them looked through, the rest of the page not
    held: set[HtmlElement] = set()
    holders: dict[HtmlElement, None] = {}
    for paragraph in root.iter("p"):
        if keys[paragraph] not in read:
            continue
        held.add(paragraph)
        for level, element in enumerate(paragraph.iterancestors()):
            if level <= BOX_LEVELS:
                holders[element] = None
            elif element in held:
                break
            held.add(element)
    boxes: list[HtmlElement] = []
    placed = 0
    reading_chars = sum(len(run) for run in body.itertext())
    for holder in holders:
        for block in holder:
            if block in held or not isinstance(block.tag, str):
                continue
            for box in _furniture(block, BOX_LEVELS):
                if box in boxes or box in held or not (_prose(box) or _table(box)):
                    continue
                placed += 1
                if placed > BOX_MAX_BLOCKS:
                    return boxes
                if _held_beside(box, held, before=True) and (
                    _held_beside(box, held, before=False) or len(box.text_content()) > reading_chars
                ):
                    boxes.append(box)
    return boxes


def named_furniture(element: HtmlElement) -> bool:
    """Whether trafilatura's rule names ``element`` furniture by its class or id (see
    :func:`_furniture_words`)."""
    if _FURNITURE_CLASS is None or _FURNITURE_ID is None or element.tag not in _FURNITURE_TAGS:
        return False
    return bool(
        _FURNITURE_CLASS.search(element.get("class") or "") or _FURNITURE_ID.search(element.get("id") or "")
    )


def _furniture(element: HtmlElement, levels: int) -> list[HtmlElement]:
    """``element``, or else each of its descendants within ``levels`` levels that trafilatura's
    rule names furniture, none inside another: a column of a page builder's widgets, each named
    one, holds a heading's widget first and a slider of testimonials after it."""
    if _FURNITURE_CLASS is None or _FURNITURE_ID is None:
        return []
    if named_furniture(element):
        return [element]
    if not levels:
        return []
    return [box for child in element if isinstance(child.tag, str) for box in _furniture(child, levels - 1)]


def _prose(box: HtmlElement) -> bool:
    text = box.text_content()
    if len(text) < BOX_MIN_CHARS or len(_SENTENCE_END.findall(text)) < 2:
        return False
    if sum(len(run) for run in box.itertext() if len(run) >= PROSE_RUN_CHARS) < PROSE_SHARE * len(text):
        return False
    if sum(len(link.text_content()) for link in box.iter("a")) >= LINKED_SHARE * len(text):
        return False
    return next(box.iter("form", "input", "button"), None) is None  # a sign-up call, a search


def _table(box: HtmlElement) -> bool:
    """Whether ``box`` holds a table of BOX_MIN_CHARS at least, less than LINKED_SHARE links: an
    article's data, which a page builder's block for custom HTML ("embed") holds."""
    table = next(box.iter("table"), None)
    if table is None:
        return False
    text = table.text_content()
    if len(text) < BOX_MIN_CHARS:
        return False
    if sum(len(link.text_content()) for link in table.iter("a")) >= LINKED_SHARE * len(text):
        return False
    return next(box.iter("form", "input", "button"), None) is None


def _held_beside(box: HtmlElement, held: set[HtmlElement], *, before: bool) -> bool:
    """Whether an element holding a kept paragraph lies before (else after) ``box`` within
    BESIDE_LEVELS levels."""
    element: HtmlElement | None = box
    for _ in range(BESIDE_LEVELS + 1):
        if element is None:
            return False
        if any(sibling in held for sibling in element.itersiblings(preceding=before)):
            return True
        element = element.getparent()
    return False
