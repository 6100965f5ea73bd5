"""Carousels of other products inside a page's main region: lists of priced links. Pure.

A main region's links are made text before trafilatura reads it (a listing's entries are
links, and trafilatura drops blocks of links as navigation). A product page that does not
declare what it sells (no schema.org Product) has its "related", "sponsored" and "similar
brands" carousels there too: lists of product cards, each a link and a price. These lists
are found by that shape, never by their names, and left out before trafilatura reads the
region; its other links are made text as before. Left as links (as at first), a carousel went
only where its cards were nearly all link text: a marketplace's card writes its price, its
format and its delivery date beside its link ("Paperback EUR 8.01 delivery Tue, Mar 24"), and
trafilatura kept such a list of 29 books as text.

A list is such a carousel when it is a small part of the region (under a fifth of its text:
a listing's grid is most of it), most of its text is link text, and most of its items show a
price (a currency sign or code beside a number).

On WCXB dev (bench/wcxb.py, layer ``carousels``) it fired on 7 of the tuning part's 998 pages and
changed 5, all up: 4 products (three marketplace pages 0.33 -> 0.35, 0.37 -> 0.39, 0.20 -> 0.27,
a fitness shop's roller 0.94 -> 0.98; product 0.6177 -> 0.6198) and a listing 0.88 -> 0.98. It
fired on none of the check part's pages, nor on the article set's. At a tenth of the region
(an earlier cut, lists of any links: reverted, it cost the article set) the listing was left out.
Left out rather than left links: 4 tuning pages changed, all up (two marketplace products 0.44
-> 0.56 and 0.42 -> 0.50, whose landing reading no longer fires, a book 0.42 -> 0.45, an
article 0.945 -> 0.972), product 0.6306 -> 0.6336; the check part unchanged. Runs of cards
that are not lists (three or more children of one tag and class, priced, mostly links) as well:
product 0.6337, one page lower (0.92 -> 0.91), not kept.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.sizes import link_text_size, text_size

_CARD_LIST_SHARE = 0.2  # a carousel is under this share of the region's text
_LINKED = 0.5  # …mostly link text…
_PRICED = 0.5  # …and most of its items show a price
_MIN_CARDS = 3
# a sign (the złoty's "zł" too) or a code that is not part of a longer word but may touch its
# number: "EUR 9.30", "EUR9.30", "9,30PLN", "9,30 zł"
_CURRENCY = r"(?:[$€£¥₹₩₽]|zł(?!\w)|(?<![A-Za-z])(?:USD|EUR|GBP|CAD|AUD|NZD|CHF|JPY|CNY|INR|SEK|NOK|DKK|PLN|CZK|BRL|MXN)(?![A-Za-z]))"
PRICE = re.compile(rf"{_CURRENCY}\s?\d|\d(?:[.,]\d+)?\s?{_CURRENCY}")
_OUTER_LISTS = etree.XPath(
    ".//ul[not(ancestor::ul or ancestor::ol)] | .//ol[not(ancestor::ul or ancestor::ol)]"
)


def priced_carousels(region: HtmlElement) -> list[HtmlElement]:
    """The lists in ``region`` that are carousels of other products (the module's docstring)."""
    size = text_size(region)
    found = []
    for listed in _OUTER_LISTS(region):
        chars = text_size(listed)
        if not chars or chars >= _CARD_LIST_SHARE * size or link_text_size(listed) < _LINKED * chars:
            continue
        cards = [li for li in listed if li.tag == "li"]
        if len(cards) < _MIN_CARDS:
            continue
        # each piece of an item's text on its own: a name's link and its price's span touch in the
        # markup ("kettle 2 l" + "USD 54.00" would read "lUSD")
        if sum(1 for li in cards if PRICE.search(" ".join(li.itertext()))) >= _PRICED * len(cards):
            found.append(listed)
    return found
