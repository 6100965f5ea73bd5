"""Headings, lists and tables a reading dropped between paragraphs it kept. Pure.

When trafilatura's fast reading finds no container it knows (no ``<article>``, no class it
recognises), it recovers the page's paragraphs one by one and leaves out what is not a
paragraph: an article's section headings, its lists and tables, lying between paragraphs it
kept. The page names its container by what was kept: an element holding two or more of the
kept paragraphs as its children, with headings, lists or tables the reading lacks between them.
:func:`llmweb.fetch.html.extract` reads the page again with that element declared the
article, and keeps the second reading only when it holds the first (:func:`holds`).
"""

from __future__ import annotations

import re
from typing import Any

from lxml.html import HtmlElement

# What a reading that recovers paragraphs one by one leaves out between them
_BLOCK_TAGS = frozenset({"h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "table"})
# A kept paragraph counts from this many characters (words, spaces between): shorter ones
# ("Features:", a date) occur anywhere in a reading
_KEPT_MIN_CHARS = 40
# Characters of dropped blocks an element must hold to be read again: a heading or two is
# not worth a second reading of the page
DROPPED_MIN_CHARS = 200
# A block whose text is at least this share links is a list of links, dropped on purpose
LINKED_SHARE = 0.5
# The share of the first reading's words the second must hold: it may add, not replace
HOLD_SHARE = 0.95
_WORD = re.compile(r"\w+")


def _words(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def container_with_gaps(root: HtmlElement, body: Any) -> HtmlElement | None:
    """The element of ``root`` holding, between two paragraphs trafilatura's ``body`` kept,
    the most characters of headings, lists and tables it dropped (at least DROPPED_MIN_CHARS),
    or None. Only for a reading of paragraphs alone, without a heading or a list: what the
    recovery of paragraphs one by one gives (on the article set's pages, where trafilatura
    knew the container, the other readings read again were never kept)."""
    if body.find(".//head") is not None or body.find(".//list") is not None:
        return None  # a reading from a container trafilatura knows: what it dropped, it dropped on purpose
    reading = _words("".join(body.itertext()))
    if not reading:
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
            if child.tag == "p"
            and len(words := _words(child.text_content())) >= _KEPT_MIN_CHARS
            and words in reading
        ]
        if len(kept) < 2:
            continue
        dropped = sum(_dropped_chars(child, reading) for child in children[kept[0] + 1 : kept[-1]])
        if dropped > most:
            best, most = parent, dropped
    return best


def _dropped_chars(child: HtmlElement, reading: str) -> int:
    """Characters of ``child``'s text when it is a block the reading lacks that is not mostly
    links: a list of links (related stories, a table of contents) is dropped on purpose, and a
    second reading drops it again."""
    if child.tag not in _BLOCK_TAGS:
        return 0
    words = _words(child.text_content())
    if not words or words in reading:
        return 0
    linked = sum(len(_words(link.text_content())) for link in child.iter("a"))
    return len(words) if linked < LINKED_SHARE * len(words) else 0


def holds(second: Any, first: Any) -> bool:
    """Whether trafilatura's ``second`` reading is longer than ``first`` and holds at least
    HOLD_SHARE of its text, each text of it found whole."""
    found = _words("".join(second.itertext()))
    pieces = [words for words in map(_words, first.itertext()) if words]
    total = sum(map(len, pieces))
    if not total or len(found) <= len(" ".join(pieces)):
        return False
    return sum(len(words) for words in pieces if words in found) >= HOLD_SHARE * total
