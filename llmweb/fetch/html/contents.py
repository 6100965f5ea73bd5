"""An article's table of contents: a list of links to the page's own sections. Pure.

A long article opens with a list of its section headings, each a link to the heading's
anchor on the same page ("#what-is-an-online-course"), sometimes twice (a sticky copy for the
sidebar), often in a box under a label ("Table of contents"). trafilatura keeps many: a long
page's list of short links passes its link-density test. The headings it repeats are in the
text already, so the list only says them again (WCXB's reference texts mostly leave it out).
The list goes with the box around it when that box holds only a short label besides. A list is a
table of contents when it has three items or more, every item's text is in links to a fragment
of the page, and half of those fragments at least name an element of the page (an id, or a named
anchor): a list of links to other pages, or to anchors nothing answers, is something else. Only
on pages that declare an article (extract.py): a product page's feature menu and a manual's "On
this page" are read as they are.

WCXB dev's tuning part: fires on 34 pages (26 articles), changes 6 articles, +0.052 summed
(a home-gym guide's numbered contents 0.973 -> 1.000; a fitness blog's -0.009, its gold text
keeps the list).
"""

from __future__ import annotations

from lxml.html import HtmlElement

_MIN_ITEMS = 3
_LINKED_SHARE = 0.8  # an item's text in its in-page links, at least
_ANSWERED_SHARE = 0.5  # of the list's fragments, those naming an element of the page
_MAX_LABEL_CHARS = 40  # text beside the list in a box that goes with it (its label), at most


def drop_tables_of_contents(root: HtmlElement) -> int:
    """Remove the tables of contents of the module's docstring; how many went."""
    lists = [el for el in root.iter("ul", "ol") if _links_within(el)]
    if not lists:
        return 0
    anchors = {str(value) for value in root.xpath("/descendant::*/@id | /descendant::a/@name")}
    dropped = 0
    for el in lists:
        if el.getparent() is None or any(up in lists for up in el.iterancestors("ul", "ol")):
            continue  # an inner list goes with its outer one
        fragments = [(a.get("href") or "")[1:] for a in el.iter("a") if (a.get("href") or "").startswith("#")]
        if sum(fragment in anchors for fragment in fragments) >= _ANSWERED_SHARE * len(fragments):
            _box(el).drop_tree()
            dropped += 1
    return dropped


def _box(el: HtmlElement) -> HtmlElement:
    """The list with the box around it that holds nothing else but a short label ("Table of
    contents", "In this article"), which goes with it."""
    box = el
    chars = len("".join(el.text_content().split()))
    while True:
        parent = box.getparent()
        if parent is None or parent.tag in ("body", "html", "main", "article"):
            return box
        if len("".join(parent.text_content().split())) - chars > _MAX_LABEL_CHARS:
            return box
        box = parent


def _links_within(el: HtmlElement) -> bool:
    """Whether every item of the list is (mostly) links to fragments of the page, and only those."""
    items = [child for child in el if child.tag == "li"]
    if len(items) < _MIN_ITEMS:
        return False
    for item in items:
        links = [a for a in item.iter("a") if a.get("href")]
        if not links or not all(
            len(a.get("href") or "") > 1 and a.get("href", "").startswith("#") for a in links
        ):
            return False
        text = len("".join(item.text_content().split()))
        linked = sum(len("".join(a.text_content().split())) for a in links)
        if linked < _LINKED_SHARE * text:
            return False
    return True
