"""The author's biography below an article. Pure.

Blog posts and news stories end with a paragraph about who wrote them: "Karina Cohen is the
owner of CR Maids…", "Benjamin Preston covered new and used car buying…". It reads as prose,
so trafilatura keeps it, but it is about the writer, not the subject. The page names its
author in its markup: ``<meta name="author">``, Open Graph's ``article:author``, a link with
``rel="author"``, an element with ``itemprop="author"``, the ``author`` of its JSON-LD. A
paragraph in the second half of the page's text that starts with that full name, and says
more than the name, is the author's biography. It goes with the box around it that holds
nothing else (the name above it, the paragraphs after it: "Karina holds an MBA…"), and with a
short line just before that box naming the author or saying "about the author". An element
marked ``itemprop="author"`` that holds more than a byline, in the second half, is such a
box too (WordPress's author boxes: "Jean-Luc started CNX Software in 2010…").

WCXB dev's tuning part: fires on 32 article pages, 13 change, F1 0.9520 -> 0.9663 there
(+0.455 summed: 0.88 -> 1.00, 0.92 -> 1.00, 0.96 -> 1.00, …; one 0.844 -> 0.843); check
part: 19 article pages, +0.044 summed; the article set: fires on none. Only on pages that
declare an article (extract.py): a company's page names the company as its author.

A name of one word is not used ("Admin", a site's name): an article about a person may well
start a paragraph with a first name.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.marks import Marked
from llmweb.fetch.html.metadata import json_ld_data

_NAME_METAS = ("author", "article:author")
_MAX_NAME_CHARS = 60
_MIN_BIO_EXTRA_CHARS = 40  # more than the name: "Karina Cohen" alone is a byline
_MAX_BIO_CHARS = 1200
_LATE_SHARE = 0.5  # a biography sits in the second half of the page's text
_MAX_HEADING_CHARS = 60
_MAX_BOX_CHARS = 2000
_MAX_CANDIDATES = 8
_MAX_BOX_DEPTH = 6  # the wrappers of an author box looked through
_MIN_BOX_CHARS = 100  # a byline marked as the author is shorter
# Each whole-tree search for marked elements goes from their attributes (.marks). Here and in
# the other layers the elements are walked on the descendant axis, not with ``//``: libxml2
# reads ``//`` as descendant-or-self::node()/child::, the set of every node of the page (text
# nodes too) made before the next step, where the descendant axis walks the elements once (the
# same nodes in the same order on the article set and WCXB dev's tuning part; 2 to 9 times
# faster on trees held in memory)
_AUTHOR_PROPERTIES = Marked("descendant::*", '@itemprop[.="author"]')
_NOT_BOXES = frozenset({"a", "span", "meta", "link"})
_BY = re.compile(r"^(?:by|written by|posted by)\s+", re.I)
_AUTHOR_WORD = re.compile(r"\bauthor\b", re.I)
_MARKED = Marked("/descendant::*", '@rel[.="author"]', '@itemprop[.="author"]')
# paragraphs, and divs holding only text, that start with $name (an XPath: the text of every
# paragraph read in Python cost articles 2 % of their reading time)
_STARTING = etree.XPath("(descendant::p|descendant::div[not(*)])[starts-with(normalize-space(), $name)]")
_MAX_NAMES = 4  # the first names the markup gives; a hostile page's thousands are not all looked for


def drop_author_bios(root: HtmlElement) -> int:
    """Remove the author's biographies (the module's docstring) from ``root``; how many went."""
    names = author_names(root)
    if not names:
        return 0
    body = root.find("body")
    if body is None:
        return 0
    candidates = [el for name in names for el in _STARTING(body, name=name) if _is_bio(el, names)]
    # an author box marked as the author (a WordPress plugin's) whose paragraph starts otherwise
    candidates += [el for el in _AUTHOR_PROPERTIES(body) if el.tag not in _NOT_BOXES and _is_marked_box(el)]
    if not candidates:  # most pages that name their author: the body's text is not read
        return 0
    late = _LATE_SHARE * len(body.text_content())
    # the last few only: each is placed by reading the text before it
    bios = [el for el in candidates[-_MAX_CANDIDATES:] if _offset(el) > late]
    dropped = 0
    for bio in [_bio_box(el) for el in bios]:
        if body not in bio.iterancestors():  # inside a box already dropped
            continue
        heading = bio.getprevious()
        if heading is not None and _is_bio_heading(heading, names):
            heading.drop_tree()
            dropped += 1
        bio.drop_tree()
        dropped += 1
    return dropped


def author_names(root: HtmlElement) -> list[str]:
    """The full names (two words or more) the page's markup gives its author."""
    found: list[str] = []
    for meta in root.iterfind(".//head/meta[@content]"):
        if (meta.get("name") or meta.get("property") or "").lower() in _NAME_METAS:
            found.append(meta.get("content") or "")
    for el in _MARKED(root):
        found.append(el.text_content())
    for script in root.iter("script"):  # a third faster than an XPath over every element
        if script.get("type") != "application/ld+json":
            continue
        found.extend(_json_ld_authors(json_ld_data(script.text or "")))
    names: dict[str, None] = {}  # in the order found, without repeats
    for raw in found:
        name = _BY.sub("", " ".join(raw.split()))
        if len(name) <= _MAX_NAME_CHARS and len(name.split()) >= 2 and "://" not in name:
            names[name] = None
    return list(names)[:_MAX_NAMES]


_JSON_LD_DEPTH = 6  # the author sits in the article or in its @graph; deeper is not looked at


def _json_ld_authors(data: object, depth: int = 0) -> list[str]:
    if depth > _JSON_LD_DEPTH:
        return []
    if isinstance(data, list):
        return [name for item in data for name in _json_ld_authors(item, depth + 1)]
    if not isinstance(data, dict):
        return []
    names = []
    author = data.get("author")
    for person in author if isinstance(author, list) else [author]:
        if isinstance(person, dict) and isinstance(person.get("name"), str):
            names.append(person["name"])
        elif isinstance(person, str):
            names.append(person)
    graph = data.get("@graph")
    if graph is not None:
        names += _json_ld_authors(graph, depth + 1)
    return names


def _bio_box(bio: HtmlElement) -> HtmlElement:
    """The largest ancestor of ``bio`` that holds no more than a biography: the author box, with
    the name above the paragraph and the paragraphs after it ("Karina holds an MBA…")."""
    box = bio
    for depth, parent in enumerate(bio.iterancestors()):
        if depth >= _MAX_BOX_DEPTH or parent.tag in ("body", "html", "article", "main"):
            break
        text = " ".join(parent.text_content().split())
        if len(text) > _MAX_BOX_CHARS:
            break
        before = text.find(" ".join(bio.text_content().split()))
        if before < 0 or before > _MAX_HEADING_CHARS:
            break
        box = parent
    return box


def _is_marked_box(el: HtmlElement) -> bool:
    return _MIN_BOX_CHARS <= len(" ".join(el.text_content().split())) <= _MAX_BOX_CHARS


def _is_bio(el: HtmlElement, names: list[str]) -> bool:
    text = " ".join(el.text_content().split())
    if len(text) > _MAX_BIO_CHARS:
        return False
    return any(text.startswith(name) and len(text) >= len(name) + _MIN_BIO_EXTRA_CHARS for name in names)


def _is_bio_heading(el: HtmlElement, names: list[str]) -> bool:
    if not isinstance(el.tag, str):
        return False
    text = " ".join(el.text_content().split())
    return len(text) <= _MAX_HEADING_CHARS and (text in names or bool(_AUTHOR_WORD.search(text)))


_TEXT_BEFORE = etree.XPath("preceding::text()[ancestor::body]")


def _offset(el: HtmlElement) -> int:
    """How many characters of the body's text come before ``el`` (asked of a few candidates)."""
    return sum(len(text) for text in _TEXT_BEFORE(el))
