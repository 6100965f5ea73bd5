"""A page read whole: every visible line of its body, its chrome left out (menus, header,
footer, forms, dialogs, cookie notices, the chrome it hides).

:mod:`.extract` reads a page so when trafilatura's reading is empty or nearly
(:func:`whole_page_text`), and when the page is a landing page: a service's, a product
line's or a shop's front page, a run of sections that trafilatura judges one by one and mostly
drops (:func:`landing_bound` and LANDING_SHARE weigh its reading, :func:`read_whole` with
``landing`` reads it, :func:`sectioned` tells a dated page of short sections, and
:func:`from_main_heading` starts it at its title).
"""

from __future__ import annotations

import copy
import re
from typing import Any

import lxml.html
from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.hidden import hidden_chrome
from llmweb.fetch.html.sizes import SPACED_SIZE, spaced_link_size

_BOILERPLATE_TAGS = (
    "head", "script", "style", "noscript", "template", "svg", "nav", "header", "footer",
    "aside", "form", "iframe", "button", "select", "dialog",
)  # fmt: skip
_BOILERPLATE_ROLES = ("navigation", "banner", "contentinfo", "dialog", "search")
_CONSENT = re.compile(r"cookie|consent|gdpr", re.I)
_BLOCK_TAGS = frozenset({
    "p", "div", "section", "article", "main", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol",
    "dl", "dt", "dd", "table", "tr", "blockquote", "figure", "figcaption", "address", "details",
    "summary", "hr", "br", "center",
})  # fmt: skip
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_CELL_TAGS = frozenset({"td", "th"})


# A landing page (a service's, a product line's, a shop's front page): none of an article, a
# manual, a thread or one product's page, and stating no date (or read as a run of short
# sections: LANDING_SECTIONS below), where trafilatura's reading kept less than this share of
# the page's visible text (its lines each counted once; only its main region's when it
# declares one). Such a page is a run of sections, each a heading and a few
# lines (features, plans, FAQs, testimonials), which trafilatura judges one by one and mostly
# drops, reading the intro or one section (WCXB dev's service pages: precision 0.99, recall
# 0.46). Read whole, menus, header, footer, forms and cookie notices left out, each repeated
# line once (a carousel's copies, "Book now" ten times).
# WCXB dev's tuning part (bench/wcxb.py, layer ``landing``; with the dated pages below): it
# fired on 65 of 998 pages, F1 0.655 -> 0.743 there (30 services 0.674 -> 0.846, 17
# collections 0.584 -> 0.638, 7 undated articles 0.791 -> 0.898); it loses where a listing's
# gold is a line or two above its items (5 listings 0.714 -> 0.520) and where menus are built
# without nav or header. All pages 0.8513 -> 0.8571; the check part nobody looked at 0.841 ->
# 0.850 (services 0.756 -> 0.777, collections 0.663 -> 0.703, listings 0.714 -> 0.702).
# Read from the whole body even where a main region is declared, the tuning part scored
# 0.0009 more (collections higher, services lower) but a declared region's outside came in.
# Undated pages only, whole body: shares 0.5, 0.6, 0.8 scored 0.8539, 0.8556, 0.8556 against
# 0.8563 at 0.7; main region: 0.8 and 0.9 scored 0.8557 and 0.8558 against 0.8554 at 0.7,
# within noise, so 0.7, which reads fewer pages whole.
# Nor a page whose structured data declares comments (threads.declares_comments): readers' posts
# make it a discussion, and read whole a thread's boxes of other threads and its posters' stats
# came in (tuning part: one of the 59 pages, a forum thread of unmarked first post and marked
# replies, 0.642 -> 0.835; check part unchanged).
LANDING_SHARE = 0.7
# A page that states a date is read so only when its landing text is a run of sections: this
# many headings at least, with this many words under each on average or fewer. Service pages
# state dates too (their schema's datePublished), a news story's or a thread's sections are
# few and long. WCXB dev's tuning part: 15 more pages changed, all 0.8554 -> 0.8572 (services
# 0.841 -> 0.857, forums 0.821 -> 0.819, one thread lost); at 8 or 12 headings 0.8571, at 80
# or 150 words 0.8568 and 0.8571; with no such test on dated pages 0.8560 (articles and
# forums lost); with it, articles that declare themselves so read this way lost 0.0006.
LANDING_SECTIONS = 10
LANDING_SECTION_WORDS = 100


_LANDING_CHROME = ("nav", "header", "footer", "aside", "form")


def landing_bound(root: HtmlElement, region: list[HtmlElement]) -> int:
    """About the length of the landing text of ``root`` (of ``region``, when it declares one), found
    without copying the tree: its text, spaces collapsed, less its menus', header's, footer's and
    forms'. The landing text itself was read on 290 of WCXB dev's 998 tuning pages (2 % of their
    reading time) to be compared with their reading; with this bound first, on 128 (2 pages
    changed: one up 0.09, one down 0.17; the blank lines and heading marks the landing text adds
    are not counted)."""
    scope = region or [el for el in (root.find("body"),) if el is not None]
    total = sum(SPACED_SIZE(el) for el in scope)
    for within in scope:
        for el in within.iter(*_LANDING_CHROME):
            if not any(True for _ in el.iterancestors(*_LANDING_CHROME)):
                total -= SPACED_SIZE(el)
    return int(total)


def sectioned(text: str) -> bool:
    """Whether ``text`` (a landing text: blocks parted by blank lines) is a run of sections:
    LANDING_SECTIONS headings at least, each over LANDING_SECTION_WORDS words or fewer on average."""
    blocks = [block for block in text.split("\n\n") if block.strip()]
    headings = sum(1 for block in blocks if block.startswith("#"))
    words = sum(len(re.findall(r"\w+", block)) for block in blocks if not block.startswith("#"))
    return headings >= LANDING_SECTIONS and words <= LANDING_SECTION_WORDS * headings


# A landing page's links that are all their line says (their nearest block holds nothing else)
# are calls to act or a menu's entries built without nav: "Learn more", "Get started · Contact
# sales", "Blog", "Driver jobs Chicago". This many words each at most; a card's linked title
# runs longer. WCXB dev's tuning part, the 64 pages the landing layer read whole: +0.66 summed
# (33 services +0.29, 17 collections +0.41 where menus of links and filters were a third of the
# text, 6 listings -0.11: a listing's gold keeps its entries, links alone on their lines); a
# link alone in its block only, +0.54; at 3, 4, 7 and 10 words (a lone link) +0.38, +0.47,
# +0.48, +0.50 against +0.45 at 5, below a feature's linked title.
LONE_LINK_WORDS = 5


# Measured, not kept (branch i22svc7): a declared main region's links are made text before the
# landing layer reads the page (.manual.unlink), so its calls to act stay ("Read the story").
# Marked by unlink and dropped here too (the landing test still weighing them): WCXB dev's tuning
# part 23 pages changed, services 0.8672 -> 0.8684, collections +0.0021, all +0.0003; but the
# check part (scored with the table cells apart, below) collections 0.7435 -> 0.7364 and all
# 0.8664 -> 0.8659 (a collection's gold keeps its entries' names, links alone in their blocks).
def _drop_lone_links(tree: HtmlElement) -> None:
    """Leave out of ``tree`` (a landing page read whole) the links of each block whose text is
    theirs alone, each of LONE_LINK_WORDS words or fewer."""
    by_block: dict[HtmlElement, list[HtmlElement]] = {}
    for link in tree.iter("a"):
        block = next(link.iterancestors(*_BLOCK_TAGS), None)
        if block is not None:
            by_block.setdefault(block, []).append(link)
    for block, links in by_block.items():
        texts = [link.text_content().split() for link in links]
        if not all(0 < len(text) <= LONE_LINK_WORDS for text in texts):
            continue
        if "".join(block.text_content().split()) == "".join(word for text in texts for word in text):
            for link in links:  # emptied in place: dropping each of a block's many links costs n² steps
                tail = link.tail
                link.clear()
                link.tail = tail


# A landing page's footer built without <footer> or a role (a site builder's <div>s: columns of
# links under small headings, an address, the copyright notice) is found by its notice: the block
# around it, as far up as it holds no <h1> and under this share of the page's text, when a third of
# that block's text is its links' at least; else the notice alone (a photo credit). WCXB dev's
# tuning part, the 64 pages the landing layer read whole: 10 changed, none lower, +0.111 summed
# (4 services +0.029: a menu overlay's and a footer's links, headings and notice; a collection
# +0.043, a listing +0.030); at a share of 0.1 +0.059, at 0.05 +0.054, at 0.3 as at 0.2. Text that
# says "copyright" elsewhere (an article's notice, a manual's licence) is often in WCXB's gold.
FOOTER_SHARE = 0.2
_NOTICE_CHARS = 200  # a notice's element holds a line; more text that says "copyright" is about it
_NOTICES = 10  # a page writes one or two; a hostile one thousands, each weighed up to the body
# The notices' text nodes: found by the casings pages write, then each confirmed in lower case
# (XPath 1.0 lowers a string only by translate(), which copies every text node of the page: a
# quarter of the time of this search on WCXB dev's pages, for the same notices on all of them).
_COPYRIGHT_CASINGS = etree.XPath(
    "//text()[contains(., '©') or contains(., 'opyright') or contains(., 'OPYRIGHT')"
    " or contains(., 'opyRight') or contains(., 'ights reserved') or contains(., 'ights Reserved')"
    " or contains(., 'IGHTS RESERVED')]"
)


def _copyright_notices(tree: HtmlElement) -> list[Any]:
    """The text nodes of ``tree`` that say ©, "copyright" or "all rights reserved", in any case;
    the first few."""
    found = []  # lxml's text results: strings that know their element (getparent, is_tail)
    for text in _COPYRIGHT_CASINGS(tree):
        lowered = text.lower()
        if "©" in text or "copyright" in lowered or "all rights reserved" in lowered:
            found.append(text)
            if len(found) == _NOTICES:
                break
    return found


def _drop_copyright_footers(tree: HtmlElement) -> None:
    """Leave out of ``tree`` (a landing page read whole) the footers its copyright notices mark."""
    body = tree.find("body")
    bound = FOOTER_SHARE * SPACED_SIZE(body if body is not None else tree)
    footers = []
    for text in _copyright_notices(tree):
        notice = text.getparent()
        if notice is not None and text.is_tail:  # "<a>Terms</a> © 2026": the notice is the link's block
            notice = notice.getparent()
        if notice is None or SPACED_SIZE(notice) > _NOTICE_CHARS:
            continue
        footer = notice
        for above in notice.iterancestors():
            if (
                above.tag in ("body", "html")
                or SPACED_SIZE(above) > bound
                or next(above.iter("h1"), None) is not None
            ):
                break
            footer = above
        if footer is not notice and spaced_link_size(footer) < SPACED_SIZE(footer) / 3:
            footer = notice
        footers.append(footer)
    for footer in footers:
        if footer.getparent() is not None and not any(above in footers for above in footer.iterancestors()):
            footer.drop_tree()


# A choice's label: the text of a radio button or a checkbox it holds, a filter panel's options
# ("$150 to $199.99", "Stainless Steel") or a form's built without <form>; chrome, as forms are,
# and counted with the hidden chrome by the landing test. WCXB dev's tuning part, the 59 pages the
# landing layer read whole: 3 changed, +0.051 summed (a shop's bread makers 0.78 -> 0.88 without
# its price and colour filters, a listing +0.01; a sock shop -0.06, whose gold holds its filter
# panel's options); all pages 0.8788 unchanged at four places; check part, collection 0.7435 -> 0.7459.
_CHOICES = etree.XPath("descendant-or-self::label[descendant::input[@type='radio' or @type='checkbox']]")


def _drop_choices(tree: HtmlElement) -> int:
    """Leave out of ``tree`` (a landing page read whole) the labels of its radio buttons and
    checkboxes; the length of their text, which the landing test counts as the page's. A label
    inside another goes with the outer one."""
    choices = _CHOICES(tree)
    chosen = set(choices)
    size = 0
    for label in choices:
        if not any(above in chosen for above in label.iterancestors("label")):
            size += int(SPACED_SIZE(label))
            label.drop_tree()
    return size


def whole_page_text(root: HtmlElement) -> str:
    """Every visible line of the body, for pages trafilatura empties (short or unusual layouts)."""
    return read_whole(root)[0]


def read_whole(
    root: HtmlElement, *, landing: bool = False, within: list[HtmlElement] | None = None
) -> tuple[str, int]:
    """Every visible line of the body, and the length of the hidden chrome's text left out
    (.hidden); with ``landing``, each line once and headings marked, for a landing page read
    whole; only the lines of ``within`` (a declared main region) when given."""
    if within:
        tree = lxml.html.Element("html")
        holder = etree.SubElement(tree, "body")
        for main in within:
            holder.append(copy.deepcopy(main))
            holder[-1].tail = None  # what follows the region is not its text
    else:
        tree = copy.deepcopy(root)
    body = tree.find("body")
    # first: a hidden filter panel's fields are what makes it chrome, and forms go below
    for el in hidden_chrome(body if body is not None else tree):
        el.tag = "llmweb-hidden"
    etree.strip_elements(tree, *_BOILERPLATE_TAGS, with_tail=False)
    for el in list(tree.iter()):
        if not isinstance(el.tag, str) or el.getparent() is None:
            continue
        role = el.get("role") or ""
        marker = f"{el.get('id') or ''} {el.get('class') or ''}"
        if role in _BOILERPLATE_ROLES or _CONSENT.search(marker):
            el.drop_tree()
    hidden = sum(int(SPACED_SIZE(el)) for el in tree.iter("llmweb-hidden"))  # those left in the text
    etree.strip_elements(tree, "llmweb-hidden", with_tail=False)
    if landing:
        hidden += _drop_choices(tree)
        _drop_copyright_footers(tree)  # first: its links are what makes a footer
        _drop_lone_links(tree)
    for el in tree.iter():
        if isinstance(el.tag, str) and el.tag in _BLOCK_TAGS:
            mark = "#" * int(el.tag[1]) + " " if landing and el.tag in _HEADINGS else ""
            el.text = "\n" + mark + (el.text or "")
            el.tail = "\n" + (el.tail or "")
        elif el.tag in _CELL_TAGS and el.getprevious() is not None:
            # a row's cells on its line, parted as a browser's columns part them ("2 movers | 2.2
            # hours", not "2 movers2.2 hours", whose words no reader sees). WCXB dev's tuning part:
            # 2 pages changed, none lower (a mover's price table +0.003, a forum's table +0.018)
            el.text = " | " + (el.text or "")
    lines = (
        " ".join(line.split()) for line in (body if body is not None else tree).text_content().split("\n")
    )
    if not landing:
        return "\n".join(line for line in lines if line), hidden
    kept = list(dict.fromkeys(line for line in lines if line.strip("# ")))  # in order, each once
    return "\n\n".join(kept), hidden


# What a landing page read whole shows above its main heading (its first <h1>) is a top bar's: a
# promotion, breadcrumbs, a cart, "Skip to content", a dealer menu, a builder's settings; left out
# when it is under this share of the page's words (a page that opens on its features and heads a
# card with an <h1> keeps them). Cut after the landing test, which weighs the whole text (cut
# before, the test let go of pages it read well: two services -0.12 and -0.14). WCXB dev's tuning
# part, the pages the landing layer read whole, with the copyright footers: 26 changed, 3 lower by
# 0.001, +0.359 summed against +0.111 for the footers alone (services +0.073, products +0.101,
# articles +0.099: a retailer's dealer menu above its heading, 0.85 -> 0.95).
ABOVE_HEADING_SHARE = 0.25


def from_main_heading(lines: list[str]) -> list[str]:
    """``lines`` (a landing text's, headings marked) from the first <h1> on, when few words precede it."""
    first = next((i for i, line in enumerate(lines) if line.startswith("# ")), 0)
    before = sum(len(re.findall(r"\w+", line)) for line in lines[:first])
    if before and before <= ABOVE_HEADING_SHARE * sum(len(re.findall(r"\w+", line)) for line in lines):
        return lines[first:]
    return lines
