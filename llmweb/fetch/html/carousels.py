"""Carousels of other products inside a page's main region: lists of priced links. Pure.

A main region's links are made text before trafilatura reads it (a listing's entries are
links, and trafilatura drops blocks of links as navigation). A product page that does not
declare what it sells (no schema.org Product) has its "related", "sponsored" and "similar
brands" carousels there too: lists of product cards, each a link and a price. trafilatura
drops them as it drops any list of links, when their links stay links; these lists are found
by that shape, never by their names.

A list is such a carousel when it is a small part of the region (under a fifth of its text:
a listing's grid is most of it), most of its text is link text, and most of its items show a
price (a currency sign or code beside a number). Its links stay links; the region's others
are made text as before.

On WCXB dev (bench/wcxb.py, layer ``carousels``) it fired on 7 of the tuning part's 998 pages and
changed 5, all up: 4 products (three marketplace pages 0.33 -> 0.35, 0.37 -> 0.39, 0.20 -> 0.27,
a fitness shop's roller 0.94 -> 0.98; product 0.6177 -> 0.6198) and a listing 0.88 -> 0.98. It
fired on none of the check part's pages, nor on the article set's. At a tenth of the region
(an earlier cut, lists of any links: reverted, it cost the article set) the listing was left out.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.manual import link_text_size
from llmweb.fetch.html.sizes import TEXT_SIZE

_CARD_LIST_SHARE = 0.2  # a carousel is under this share of the region's text
_LINKED = 0.5  # …mostly link text…
_PRICED = 0.5  # …and most of its items show a price
_MIN_CARDS = 3
# a sign (the złoty's "zł" too) or a code that is not part of a longer word but may touch its
# number: "EUR 9.30", "EUR9.30", "9,30PLN", "9,30 zł"
_CURRENCY = r"(?:[$€£¥₹₩₽]|zł(?!\w)|(?<![A-Za-z])(?:USD|EUR|GBP|CAD|AUD|NZD|CHF|JPY|CNY|INR|SEK|NOK|DKK|PLN|CZK|BRL|MXN)(?![A-Za-z]))"
_PRICE = re.compile(rf"{_CURRENCY}\s?\d|\d(?:[.,]\d+)?\s?{_CURRENCY}")
_OUTER_LISTS = etree.XPath(
    ".//ul[not(ancestor::ul or ancestor::ol)] | .//ol[not(ancestor::ul or ancestor::ol)]"
)


def priced_carousels(region: HtmlElement) -> list[HtmlElement]:
    """The lists in ``region`` that are carousels of other products (the module's docstring)."""
    size = TEXT_SIZE(region)
    found = []
    for listed in _OUTER_LISTS(region):
        chars = TEXT_SIZE(listed)
        if not chars or chars >= _CARD_LIST_SHARE * size or link_text_size(listed) < _LINKED * chars:
            continue
        cards = [li for li in listed if li.tag == "li"]
        if len(cards) < _MIN_CARDS:
            continue
        # each piece of an item's text on its own: a name's link and its price's span touch in the
        # markup ("kettle 2 l" + "USD 54.00" would read "lUSD")
        if sum(1 for li in cards if _PRICE.search(" ".join(li.itertext()))) >= _PRICED * len(cards):
            found.append(listed)
    return found
