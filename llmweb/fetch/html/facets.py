"""Links that read the same page again in another view: a listing's filters, sort orders, pages. Pure.

A shop's category page or a list of results offers to narrow, sort or page its items, each
offer a link to the page's own address with a query that keeps the page's own parameters and
adds more ("?color=red", "?sort=price", "?p=2"): a sidebar of facets with their counts
("4 Stars & Up 27 items", "$25.00 - $49.99 37 items"), "Page 2", "Next". A reader takes them
for controls, never for the page's text, and WCXB's gold text leaves them out; trafilatura
kept the facets whose links sat one to a line beside their counts. Each such link goes before
trafilatura reads the page, with what holds it and nothing else but its count (a list item,
a label).

The test is the address, never the words or the names: the page's own address or the one its
``<link rel="canonical">`` gives, the same host and path, and a query that is not the page's
own but holds each of its parameters. A forum's board (``index.php?board=4``) links its
threads at ``index.php?topic=9``: they drop ``board``, so they are other pages and stay.
Listings only (extract.py): an article's or a manual's link to itself with a query is part of
what it says.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urljoin, urlsplit

from lxml.html import HtmlElement

# a page's address: host, path, query parameters (name and value) and query
_Address = tuple[str, str, frozenset[tuple[str, str]], str]
_NO_WORDS = re.compile(r"[\W\d_]*")  # what may sit beside such a link in its holder: a count
# such links side by side: a lone one is a heading that links its own page, a "Print view"
_MIN_RUN = 2


def drop_view_links(root: HtmlElement, url: str) -> bool:
    """Drop the links of ``root`` to the page at ``url`` in another view, each with its holder.

    Returns whether one went."""
    views = _page_addresses(root, url)
    if not views:
        return False
    holders: dict[HtmlElement, list[HtmlElement]] = {}
    for link in list(root.iter("a")):
        href = link.get("href")
        if href and not href.startswith("#") and _another_view(href, url, views):
            holder = _holder(link)
            parent = holder.getparent()
            if parent is not None:
                holders.setdefault(parent, []).append(holder)
    dropped = False
    for run in holders.values():
        if len(run) >= _MIN_RUN:
            for holder in run:
                holder.drop_tree()
            dropped = True
    return dropped


def _page_addresses(root: HtmlElement, url: str) -> list[_Address]:
    """The page's own addresses: the one it was read at and the one it declares canonical."""
    found = [url] if url else []
    found += [link.get("href", "") for link in root.iter("link") if link.get("rel") == "canonical"]
    views = []
    for address in found:
        if not address:
            continue
        parts = urlsplit(urljoin(url, address))
        if parts.scheme in ("http", "https") and parts.netloc:
            pairs = frozenset(parse_qsl(parts.query, keep_blank_values=True))
            views.append((parts.netloc, parts.path.rstrip("/"), pairs, parts.query))
    return views


def _another_view(href: str, url: str, views: list[_Address]) -> bool:
    try:
        parts = urlsplit(urljoin(url, href))
    except ValueError:  # a malformed address (an unclosed IPv6 bracket) is no view of the page
        return False
    if not parts.query:
        return False
    pairs = frozenset(parse_qsl(parts.query, keep_blank_values=True))
    return any(
        parts.netloc == host and parts.path.rstrip("/") == path and own <= pairs and parts.query != query
        for host, path, own, query in views
    )


def _holder(link: HtmlElement) -> HtmlElement:
    """The largest element around ``link`` that holds no other link and no words of its own."""
    holder = link
    words = len(link.text_content())
    parent = link.getparent()
    while parent is not None and parent.tag not in ("body", "main", "html"):
        if sum(1 for _ in parent.iter("a")) > 1:
            break
        rest = parent.text_content()
        if len(rest) > words and not _NO_WORDS.fullmatch(rest.replace(link.text_content(), "", 1)):
            break
        holder, parent = parent, parent.getparent()
    return holder
