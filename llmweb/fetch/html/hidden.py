"""The menus and forms a page keeps hidden from its reader, found for a page read whole. Pure.

A page ships parts it shows only when its reader acts, hidden in its markup until then
(``style="display:none"`` or ``visibility:hidden``, the ``hidden`` attribute,
``aria-hidden="true"``). They are of two kinds. A collapsed panel's prose (an accordion's
answers, a course's description under its title) is the page's text: WCXB's gold texts hold it,
and .panels shows the panels a control names. Chrome is not: a mobile menu, a listing's filter
panel, a sign-up or "compare" window, a drawing of a checkout form beside a feature; its text is
mostly links, or it holds form fields. trafilatura drops hidden elements (unless that empties
the page); the whole-page and landing readings (.extract), which keep every line of the body,
and jusText's second opinion, which reads every paragraph, leave out the chrome. A hidden
element holding most of the body's text is the page itself, hidden until its scripts run.

WCXB dev's tuning part (bench/wcxb.py): of the 66 pages where ``landing`` or ``whole_page`` fire,
11 changed, none down, 0.7495 -> 0.7584 (collections 0.7 -> 0.9 where a hidden filter panel was a
third of the landing text). Every hidden element left out instead, 24 changed, 0.7495 -> 0.7389:
services lost their collapsed course descriptions and FAQ answers (0.97 -> 0.72). Where
``landing`` fires (63 pages) its gain over the reading without it rises 0.092 -> 0.101. The
landing test still counts the chrome left out as the page's text (.extract): without that,
three collections lost their landing reading (0.7495 -> 0.7477). Where ``second_opinion`` fires
(44 pages) 5 changed, none down, 0.8046 -> 0.8063; without the page-share guard one shop's
product grid, hidden until its scripts run, went (0.89 -> 0.03). All tuning pages
0.8660 -> 0.8667; the check part 0.8561 -> 0.8573 (collections 0.717 -> 0.725, services
0.786 -> 0.790, listings 0.724 -> 0.724), no type down.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.sizes import SPACED_SIZE, spaced_link_size

# a style that hides its element (with the declaration's semicolon, for taking it out)
DISPLAY_NONE = re.compile(r"display\s*:\s*none\s*;?", re.I)
_VISIBILITY_HIDDEN = re.compile(r"visibility\s*:\s*hidden", re.I)
_FIELDS = etree.XPath("descendant::input | descendant::select | descendant::textarea")
# A hidden element more of whose text than this share is its links' text is a menu; prose
# under a collapsed title links a word or two
LINK_SHARE = 0.5
# …unless it holds more than this share of the body's text: then it is the page, hidden until
# its scripts run (a shop's whole product grid, a page of links)
PAGE_SHARE = 0.5


def is_hidden(el: HtmlElement) -> bool:
    """Whether ``el``'s markup hides it (``hidden="until-found"`` is text a search reveals)."""
    hidden = el.get("hidden")
    return (
        (hidden is not None and hidden.strip().lower() != "until-found")
        or (el.get("aria-hidden") or "").strip().lower() == "true"
        or DISPLAY_NONE.search(el.get("style") or "") is not None
        or _VISIBILITY_HIDDEN.search(el.get("style") or "") is not None
    )


def hidden_chrome(body: HtmlElement) -> list[HtmlElement]:
    """The outermost hidden elements under ``body`` that are chrome (the module's docstring), in
    document order; a hidden panel of prose is looked into for chrome hidden within it."""
    found: list[HtmlElement] = []
    page = None
    walk = body.iter()
    next(walk, None)  # the body itself: a page that hides it until its scripts run shows it then
    for el in walk:
        if not isinstance(el.tag, str) or not is_hidden(el):
            continue
        page = SPACED_SIZE(body) if page is None else page
        if _is_chrome(el) and SPACED_SIZE(el) <= PAGE_SHARE * page:
            found.append(el)
            for _ in range(sum(1 for _ in el.iter()) - 1):  # its subtree, which goes with it
                next(walk, None)
    return found


def _is_chrome(el: HtmlElement) -> bool:
    if _FIELDS(el) or _is_drawing(el):
        return True
    text = SPACED_SIZE(el)
    return not text or spaced_link_size(el) > LINK_SHARE * text


def _is_drawing(el: HtmlElement) -> bool:
    """A figure its markup hides from screen readers (``aria-hidden="true"``) is a drawing: a
    checkout form or a chat drawn in markup beside the feature it shows, its text a mock-up's."""
    return el.tag == "figure" and (el.get("aria-hidden") or "").strip().lower() == "true"
