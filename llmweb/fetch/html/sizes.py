"""How much text an element holds, as the layers weigh it. Pure.

Two measures, each an XPath lxml compiles once: SPACED_SIZE counts the characters of the
element's text with its whitespace collapsed to single spaces (a dialog or a run of reviews
against the body); TEXT_SIZE leaves the spaces out too, so that markup's line breaks and
indentation never count (a list against its region, a card's text).
"""

from __future__ import annotations

from lxml import etree

SPACED_SIZE = etree.XPath("string-length(normalize-space())")
TEXT_SIZE = etree.XPath("string-length(translate(normalize-space(), ' ', ''))")
