"""The page's small print, which its markup names: disclosures and disclaimers, dropped. Pure.

A page about money, health or products carries notes that are about the site, not the page's
subject: an affiliate disclosure ("We may earn a commission…") above a buying guide, an
advertiser disclosure, a broadcaster's copyright and transcript note under a story, a fund's
legal footnotes, a dictionary's "Examples are provided to illustrate…", "Advertisement -
Continue reading below" between paragraphs. They sit inside the article's wrappers and read as
prose, so trafilatura keeps them; WCXB's gold texts leave them out. The sites that write them
say what they are in their class names (``disclaimer``, ``affiliate-disclaimer``,
``advertiser-disclosure``, ``cmp-richtext--disclaimer``), whatever their CSS framework.

WCXB dev's tuning part, articles: elements whose class or id names a disclaimer or disclosure
held 1,224 words of our readings the gold leaves out, on 15 pages, and 187 it keeps, on 2 (a
blog post's numbered sources in a block its builder named "disclaimer", an advertiser note in
an article's header). Dropped before trafilatura reads the page (not on manuals or threads),
25 tuning pages change, 22 up and 3 down: articles 0.9583 -> 0.9587 (a fund page's legal
footnotes 0.65 -> 0.67, a broadcaster's transcript note 0.956 -> 1.0, an affiliate line under
each book of a review 0.955 -> 0.990; an article whose gold keeps the advertiser note in its
header 0.871 -> 0.868), products 0.7073 -> 0.7079, services 0.8691 -> 0.8691, all 0.8856 ->
0.8858; check part: articles 0.94654 -> 0.94666, services 0.8148 -> 0.8160, products 0.6992 ->
0.7050, collections 0.7590 -> 0.7571, all 0.8700 -> 0.8705.

Small print is short: a note about the site is a sentence or a few. A block longer than 600
characters that its class calls a disclaimer is a section of its own, and WCXB's gold texts keep
such sections (a blog post's sources, a retirement calculator's assumptions, an insurer's notes
on the cover it sells), so it stays, and the small print inside it is looked at on its own.
Without that cap the tuning part's services lost 0.0037 (the calculator 0.83 -> 0.45) and the
check part's articles 0.00008; with a cap of 1,000 characters the check part's articles lost
0.0005. An element holding most of the page's text is the page and stays.

A disclosure widget (WAI-ARIA's pattern: a button that shows a panel, .panels) is not small
print: an element that is a ``<details>`` or a control, holds one, or sits in a ``<details>``
stays (a shop theme's ``disclosure__panel`` holds the product's description: dropped, a
product page 0.95 -> 0.19).
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.marks import Marked
from llmweb.fetch.html.sizes import SPACED_SIZE

_NAMED = Marked(
    "/descendant::body/descendant::*",
    "@class[contains(., 'isclaim') or contains(., 'isclos')]",
    "@id[contains(., 'isclaim') or contains(., 'isclos')]",
)
_SMALL_PRINT = re.compile(r"disclaim|disclosure", re.I)
_WIDGET = etree.XPath(
    "self::details | self::summary | self::button | self::*[@aria-expanded or @aria-controls]"
    " | descendant::details | descendant::summary | descendant::*[@aria-expanded or @aria-controls]"
    " | ancestor::details"
)
_NEEDLES = ("isclaim", "isclos")  # Disclaimer, disclosures, contentAdvertiserDisclosure
_STEM = "iscl"  # both begin so
_LOOK_BACK = 300  # characters before a word, to its tag's start: a class attribute's other names
_MAX_LOOKS = 200  # places read back; a page's footer links say the words a few times
_MAX_SHARE = 0.5  # of the page's text: more is the page itself
# A note about the site is a sentence or a few; a longer block is a section the reader reads
_MAX_CHARS = 600


def may_hold_small_print(html: str) -> bool:
    """Whether a class or an id in the page's HTML names a disclaimer or a disclosure. The words
    are looked for in the raw HTML, and each place they stand is read back to its attribute's
    name: most pages that say them do so in a footer's link ("Disclaimer", "/disclosures"), and
    the tree's search of every attribute costs as much again (on WCXB dev's pages, 0.6 ms a page
    for these searches, and 1.0 ms for the tree's on the 15 % of pages they let through)."""
    # one search for both words' beginning: a search of a page with curly quotes in it (stored
    # two bytes a character) costs 0.1 ms on the article set
    at, looked = html.find(_STEM), 0
    while at != -1:
        looked += 1
        if looked > _MAX_LOOKS:
            return True  # a page saying them thousands of times: the tree's search decides
        if html.startswith(_NEEDLES, at):
            before = html[max(0, at - _LOOK_BACK) : at]
            tag = before.rfind("<")
            if tag > before.rfind(">"):  # inside a tag: the attribute whose value this is
                name = before[: before.rfind("=")].rstrip().lower()
                if name.endswith(("class", "id")):
                    return True
        at = html.find(_STEM, at + 1)
    return False


def drop_small_print(root: HtmlElement) -> int:
    """Remove the disclosures and disclaimers the page's class names mark (the module's
    docstring); how many went."""
    named = [
        el
        for el in _NAMED(root)
        if _SMALL_PRINT.search(f"{el.get('class') or ''} {el.get('id') or ''}") and not _WIDGET(el)
    ]
    if not named:
        return 0
    body = root.find("body")
    page = SPACED_SIZE(body if body is not None else root)
    chosen = set(named)
    dropped = 0
    for el in named:
        if any(up in chosen for up in el.iterancestors()):
            continue  # inside one that goes
        size = SPACED_SIZE(el)
        if size > _MAX_CHARS or size > _MAX_SHARE * page:
            chosen.discard(el)  # a section, or the page: what it holds is looked at on its own
            continue
        el.drop_tree()  # its tail is the page's text
        dropped += 1
    return dropped
