"""How much text an element holds, as the layers weigh it. Pure.

Two measures, each an XPath lxml compiles once: SPACED_SIZE counts the characters of the
element's text with its whitespace collapsed to single spaces (a dialog or a run of reviews
against the body); TEXT_SIZE leaves the spaces out too, so that markup's line breaks and
indentation never count (a list against its region, a card's text). The text of an element's
links, measured each way: :func:`spaced_link_size` and :func:`link_text_size`.
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

SPACED_SIZE = etree.XPath("string-length(normalize-space())")
TEXT_SIZE = etree.XPath("string-length(translate(normalize-space(), ' ', ''))")
_LINK_TEXT = etree.XPath(".//a//text()")


def link_text_size(el: HtmlElement) -> int:
    """Characters of the text inside ``el``'s links, spaces left out."""
    return len("".join("".join(_LINK_TEXT(el)).split()))


def spaced_link_size(el: HtmlElement) -> int:
    """SPACED_SIZE of each of ``el``'s links, summed (a menu's or a footer's links against its text)."""
    return int(sum(SPACED_SIZE(a) for a in el.iter("a")))
