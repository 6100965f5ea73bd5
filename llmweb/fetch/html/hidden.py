"""The menus and forms a page keeps hidden from its reader, found for a page read whole, and the
words it writes for screen readers only (:func:`drop_screen_reader_text`). Pure.

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

from llmweb.fetch.html.marks import Marked
from llmweb.fetch.html.sizes import SPACED_SIZE, spaced_link_size

# a style that hides its element (with the declaration's semicolon, for taking it out)
DISPLAY_NONE = re.compile(r"display\s*:\s*none\s*;?", re.I)
VISIBILITY_HIDDEN = re.compile(r"visibility\s*:\s*hidden", re.I)
_FIELDS = etree.XPath("descendant::input | descendant::select | descendant::textarea")
# A hidden element more of whose text than this share is its links' text is a menu; prose
# under a collapsed title links a word or two
LINK_SHARE = 0.5
# …unless it holds more than this share of the body's text: then it is the page, hidden until
# its scripts run (a shop's whole product grid, a page of links)
PAGE_SHARE = 0.5


# Measured, not kept: elements hidden by a CSS framework's display class (Tailwind's "hidden",
# "md:hidden"; Bootstrap's "d-none", "hide"; Bulma's "is-hidden"), hidden at every desktop width,
# left out of the whole and landing readings (branch i22coll5). trafilatura already drops " hidden"
# and " hide" classes; the readings that keep every line did not. WCXB dev's tuning part, with
# guards (no h1 or <main> inside, under 0.8 of the body, not after its toggle or holding one, not
# one of a run of siblings of its kind): 10 pages changed, collections 0.7123 -> 0.7288 (a compare
# window 0.36 -> 0.85, a promo bar's locale copies 0.19 -> 0.84), one service 0.91 -> 0.86 (a tab
# set's panels in a d-none holder); but the check part's collections fell 0.7573 -> 0.7539 in every
# variant (only chrome-like elements, link lists kept, landing readings only: 0.7524-0.7540).
# Dropped before reading, every class-hidden element: collections 0.7320 but check 0.7422 and
# services down (accordions' answers in "hidden" panels); responsive classes only: check 0.7478.
def is_hidden(el: HtmlElement) -> bool:
    """Whether ``el``'s markup hides it (``hidden="until-found"`` is text a search reveals)."""
    hidden = el.get("hidden")
    return (
        (hidden is not None and hidden.strip().lower() != "until-found")
        or (el.get("aria-hidden") or "").strip().lower() == "true"
        or DISPLAY_NONE.search(el.get("style") or "") is not None
        or VISIBILITY_HIDDEN.search(el.get("style") or "") is not None
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


# the class every CSS framework names its text for screen readers by: Bootstrap's and Tailwind's
# "sr-only", Bootstrap 5's and Shopify's "visually-hidden", HTML5 Boilerplate's "visuallyhidden",
# WordPress's "screen-reader-text"; their stylesheets clip it to a pixel
_SCREEN_READER_CLASSES = ("sr-only", "visually-hidden", "visuallyhidden", "screen-reader-text")
_SCREEN_READER_CLASS_SET = frozenset(_SCREEN_READER_CLASSES)
# found from the class attribute (.marks), every class that holds one of the names as a part
# ("sr-only-focusable" too); the class's words are checked one by one after it
_SCREEN_READER_TEXT = Marked(
    "/descendant::*",
    "@class[" + " or ".join(f"contains(., '{name}')" for name in _SCREEN_READER_CLASSES) + "]",
)


def may_hold_screen_reader_text(html: str) -> bool:
    """Whether the page's HTML names one of the classes: four substring searches spare the tree's
    on half of WCXB dev's pages."""
    return any(name in html for name in _SCREEN_READER_CLASSES)


# chrome, which every reading leaves out whole: its labels stay
_CHROME = frozenset({"nav", "header", "footer", "aside", "form"})


def drop_screen_reader_text(root: HtmlElement) -> bool:
    """Remove the words a page writes for screen readers only, outside its menus, header, footer
    and forms; whether there were any. A sighted reader never sees them, and WCXB's gold texts,
    what a page shows, leave them out: a shop's card says "Regular price", "Sale price", "Unit
    price" and "per" to a screen reader beside each price it shows, a filter button "Refine by
    Price: $0 - $50" beside its "$0 - $50", a luggage shop's card a block of its product's data.
    A label alone in its box, the box showing nothing else, names what it shows instead, a logo,
    an icon or a gallery's dot, as an alt text would, and stays: a wall of customers' logos
    (WCXB's gold texts hold their names; left out, a service page 0.98 -> 0.96, and a product
    page's gallery lost its landing reading, 0.87 -> 0.78). Labels in the chrome stay too: the
    chrome goes from every reading anyway, and the tests of how much of the page a reading kept
    (.extract) count its text as the page's (a legal aid page's 45 "Open submenu" labels left
    out, jusText's reading no longer ran on it: 0.75 -> 0.46). Run after the item grid is found,
    whose share of the page is measured with them.

    WCXB dev's tuning part: 25 pages up, 8 down (one shop's five category pages 0.002-0.018; a
    helmet shop whose gold keeps its "Price reduced from", 0.98 -> 0.94): collections 0.7054 ->
    0.7115 (a shop's cards 0.44 -> 0.62, the luggage grid 0.76 -> 1.00), services and products
    up, no type lower; check part: collections 0.7525 -> 0.7587, services 0.8141 -> 0.8144,
    products 0.6986 -> 0.6993, documentation 0.9056 -> 0.9052, all 0.8690 -> 0.8696."""
    labels = [
        label
        for label in _SCREEN_READER_TEXT(root)
        if not _SCREEN_READER_CLASS_SET.isdisjoint((label.get("class") or "").split())
        and next(label.iterancestors(*_CHROME), None) is None
    ]
    # a box: the size of its text, and of its labels' text with a space between two labels
    said: dict[HtmlElement, list[float]] = {}
    for label in labels:
        box = label.getparent()
        if box is not None:
            if box not in said:  # once a box: a block of many labels is measured once
                said[box] = [SPACED_SIZE(box), -1.0]
            said[box][1] += SPACED_SIZE(label) + 1
    dropped = False
    for label in labels:
        box = label.getparent()
        # one label alone in its box names it; several are a block of their own
        if box is not None and (said[box][0] > said[box][1] or said[box][1] > SPACED_SIZE(label)):
            label.drop_tree()  # its tail is the page's text
            dropped = True
    return dropped


def _is_chrome(el: HtmlElement) -> bool:
    if _FIELDS(el) or _is_drawing(el):
        return True
    text = SPACED_SIZE(el)
    return not text or spaced_link_size(el) > LINK_SHARE * text


def _is_drawing(el: HtmlElement) -> bool:
    """A figure its markup hides from screen readers (``aria-hidden="true"``) is a drawing: a
    checkout form or a chat drawn in markup beside the feature it shows, its text a mock-up's."""
    return el.tag == "figure" and (el.get("aria-hidden") or "").strip().lower() == "true"
