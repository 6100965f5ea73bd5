"""A page's title and the publication date it states. Pure.

trafilatura can collect these with the text, but its metadata pass also hunts for
authors, categories, tags, licences and the site's name, which web_fetch never shows:
it took a quarter of the extraction time on the article benchmark. Only the two fields
web_fetch reports are read here.

The date comes from htmldate (the date extractor trafilatura's author maintains, which
trafilatura calls too), asked for the original publication date rather than the latest
one, in the page's markup only (meta tags, JSON-LD, <time>, date-like classes). On the 125
pages of the article benchmark that state a date, hand-labelled (bench/article_dates.json,
``scripts/bench extraction``), that is right on 115; htmldate's defaults (the latest date,
markup then text) on 100, mostly a modification date. Letting it search the text as well
finds one more (a German byline), but invents dates on manuals that state none (20 of 40
rustdoc pages, every Haddock and Javadoc page of the docs bench, from version numbers and
copyright years) and took 2.8 s on one long page.
"""

from __future__ import annotations

import html
import json
import re

from htmldate import find_date
from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.marks import Marked

_TITLE_METAS = ("og:title", "twitter:title", "title")


# A heading's text as a browser shows it: CSS-in-JS libraries (Emotion, styled-components)
# put <style> elements inside the heading they style.
_SHOWN_TEXT = etree.XPath(
    "descendant::text()[not(ancestor::style or ancestor::script or ancestor::template)]"
)


def page_title(root: HtmlElement) -> str | None:
    """The title the page shows: its one <h1>, else its social-card title, else <title>.

    The headline a reader sees comes first: news sites often give social cards a variant
    ("Taylor Swift's AMA row seems to be over" above "Taylor Swift is allowed to play her
    music at the AMAs after all").
    """
    headings = root.findall(".//body//h1")
    if len(headings) == 1:
        title = _one_line("".join(_SHOWN_TEXT(headings[0])))
        if title:
            return title
    for meta in _head_metas(root):
        name = (meta.get("property") or meta.get("name") or "").lower()
        if name in _TITLE_METAS:
            title = _head_line(meta.get("content") or "")
            if title:
                return title
    return _head_line(root.findtext(".//title") or "") or None


def _head(root: HtmlElement) -> HtmlElement | None:
    """The page's <head>: the root's child, found without a walk of the whole tree."""
    if root.tag == "head":
        return root
    head = root.find("head")
    return head if head is not None else root.find(".//head")


def _head_metas(root: HtmlElement) -> list[HtmlElement]:
    head = _head(root)
    return [] if head is None else head.findall("meta[@content]")


def head_titles(root: HtmlElement) -> list[str]:
    """The names the page's head gives it: its <title> and its social cards' titles."""
    names = [_head_line(root.findtext(".//title") or "")]
    for meta in _head_metas(root):
        if (meta.get("property") or meta.get("name") or "").lower() in _TITLE_METAS:
            names.append(_head_line(meta.get("content") or ""))
    return [name for name in names if name]


_SITE_METAS = ("og:site_name", "application-name")


def site_name(root: HtmlElement) -> str | None:
    """The name the page gives its site (Open Graph's site_name, the web app's name), or None."""
    for meta in _head_metas(root):
        if (meta.get("property") or meta.get("name") or "").lower() in _SITE_METAS:
            name = _head_line(meta.get("content") or "")
            if name:
                return name
    return None


# schema.org's Article and the types under it that news and blog pages use
_ARTICLE_TYPE = re.compile(
    r'"@type"\s*:\s*\[?\s*"(?:News|Blog|Scholarly|Tech|Analysis|Opinion|Report|Review|Satirical)?'
    r'(?:Article|Posting|NewsArticle)"'
)


def declares_article(root: HtmlElement) -> bool:
    """Whether the page calls itself an article: Open Graph type "article", or a schema.org
    Article (NewsArticle, BlogPosting, …) in its JSON-LD."""
    for meta in root.iterfind(".//meta[@content]"):
        kind = (meta.get("property") or meta.get("name") or "").lower()
        if kind == "og:type" and "article" in (meta.get("content") or "").lower():
            return True
    return any(
        _ARTICLE_TYPE.search(script.text or "")
        for script in root.iter("script")
        if (script.get("type") or "").strip().lower() == "application/ld+json"
    )


# hAtom's and microformats2's class for a blog entry (a post, its title, date and body), which
# Blogger and WordPress themes write around a post: a page holding one is that entry; a blog's
# front page or a thread written by WordPress (each reply a post) holds several
# (a substring test in XPath, the class's words in Python: a word test in XPath, concat() and
# normalize-space() on every element, took 12 ms a page)
_MAY_BE_ENTRIES = Marked("/descendant::*", "@class[contains(., 'hentry') or contains(., 'h-entry')]")
_ENTRY_CLASSES = frozenset({"hentry", "h-entry"})


def marks_one_entry(root: HtmlElement) -> bool:
    """Whether the page marks one blog entry in its microformats (class ``hentry``, ``h-entry``),
    and one only: a single post, whose cards and comments are not its text. (The tree's search,
    from the class attributes, costs less than the two searches of the raw HTML that once came
    before it.)"""
    entries = [
        el for el in _MAY_BE_ENTRIES(root) if _ENTRY_CLASSES.intersection((el.get("class") or "").split())
    ]
    return len(entries) == 1


# schema.org's types for one thing on sale, an offer of it, and the types of a page of many things
_PRODUCT_TYPES = r"(?:Product|ProductGroup|IndividualProduct|ProductModel|Vehicle|Car)"
_LIST_TYPES = r"(?:ItemList|CollectionPage|SearchResultsPage|OfferCatalog)"
_JSON_LD_TYPE = r'"@type"\s*:\s*\[?\s*"(?:https?://schema\.org/)?'
_JSON_LD_PRODUCT = re.compile(_JSON_LD_TYPE + _PRODUCT_TYPES + '"')
_JSON_LD_OFFER = re.compile(r'"offers"\s*:|' + _JSON_LD_TYPE + r'(?:Aggregate)?Offer"')
_JSON_LD_LIST = re.compile(_JSON_LD_TYPE + _LIST_TYPES + '"')
_JSON_LD_CONTEXT = re.compile(r'\s*\{\s*"@context"\s*:\s*"https?://schema\.org')
_ITEMTYPES = etree.XPath("/descendant::*/@itemtype")
_MICRODATA_PRODUCT = re.compile(r"schema\.org/" + _PRODUCT_TYPES + r"$")
_MICRODATA_OFFER = re.compile(r"schema\.org/(?:Aggregate)?Offer$")
_MICRODATA_LIST = re.compile(r"schema\.org/" + _LIST_TYPES + r"$")


def _json_ld(script: HtmlElement) -> str | None:
    """A script's JSON-LD: an ``application/ld+json`` one's text, or an ``application/json`` one's
    that opens with a schema.org ``@context`` (a shop's theme writes its Product's JSON-LD so, and
    a script copies it into the head); else None. Other JSON (an app's state) is not looked at."""
    kind = (script.get("type") or "").strip().lower()
    if kind not in ("application/ld+json", "application/json"):
        return None  # a script's code: its text (often most of the page's bytes) is not read
    text = script.text or ""
    if kind == "application/ld+json" or _JSON_LD_CONTEXT.match(text):
        return text
    return None


def json_ld_data(text: str) -> object:
    """A JSON-LD script's data; None when its text is no JSON, or JSON nested past the depth
    Python's json reads (a page's script of arrays a million deep raises RecursionError)."""
    try:
        return json.loads(text, strict=False)
    except (ValueError, RecursionError):
        return None


def declares_product(root: HtmlElement, html: str) -> bool:
    """Whether the page says it sells one thing: a schema.org Product (or vehicle) with an offer,
    in its JSON-LD or as the one product of its microdata, and no list of things. Its scripts'
    data must be there: it is read before the reader renames them out of sight (.extract).

    Such a page is about that thing; the links around its details are other things (related
    products, "customers also viewed"), where on a listing or a category page they are its items.
    """
    if "schema.org" not in html:  # one substring search spares the tree searches on pages without data
        return False
    blocks = [block for script in root.iter("script") if (block := _json_ld(script)) is not None]
    if any(_JSON_LD_LIST.search(block) for block in blocks):
        return False
    if any(_JSON_LD_PRODUCT.search(block) and _JSON_LD_OFFER.search(block) for block in blocks):
        return True
    types = [str(kind).strip() for kind in _ITEMTYPES(root)]
    if any(_MICRODATA_LIST.search(kind) for kind in types):
        return False
    products = sum(1 for kind in types if _MICRODATA_PRODUCT.search(kind))
    return products == 1 and any(_MICRODATA_OFFER.search(kind) for kind in types)


def published_date(root: HtmlElement, url: str = "") -> str | None:
    """The ISO date (YYYY-MM-DD) the page states it was first published, or None."""
    try:
        found = find_date(root, url=url or None, original_date=True, extensive_search=False)
    except MemoryError:
        raise
    except Exception:  # htmldate trips over odd trees; a page without a date is an answer too
        return None
    return found if isinstance(found, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", found) else None


_DESCRIPTION_NAMES = ("description", "og:description", "twitter:description")
_MAX_DESCRIPTION_CHARS = 1000


def page_description(root: HtmlElement) -> str | None:
    """The summary the page gives of itself (meta description, Open Graph, Twitter), one line:
    the first of them, or a later one that goes on where the first was cut short.

    Discourse cuts a thread's meta description at about 230 characters and its Open Graph one at
    about 500, both from the first post; a thread saved without its posts (they come by script)
    is answered with its description, and the longer one reads more of the post (WCXB dev's
    tuning part: 2 forum threads, F1 0.039 -> 0.086 and 0.059 -> 0.133, no other page)."""
    found: dict[str, str] = {}
    for meta in root.iter("meta"):
        name = (meta.get("property") or meta.get("name") or "").strip().lower()
        content = _head_line(meta.get("content") or "")
        if name in _DESCRIPTION_NAMES and content and name not in found:
            found[name] = content[:_MAX_DESCRIPTION_CHARS]
    first = next((found[n] for n in _DESCRIPTION_NAMES if n in found), None)
    if first is None:
        return None
    stem = _CUT_SHORT.sub("", first)
    if stem == first:  # written whole: it is the page's summary
        return first
    # the same words, give or take an emoji written as a shortcode in one (":wave:") and drawn in
    # the other, and the word the cut fell in
    words = stem.split()[:-1]
    return max(
        (d for d in found.values() if len(d) > len(first) and _holds_most(d.split(), words)),
        key=len,
        default=first,
    )


_CUT_SHORT = re.compile(r"\s*(?:…|\.\.\.)$")  # the ellipsis a description cut short ends with
_SAME_WORDS = 0.9


def _holds_most(words: list[str], sought: list[str]) -> bool:
    """Whether ``words`` open with ``sought``, all but a tenth of its words in their places."""
    same = sum(a == b for a, b in zip(words, sought, strict=False))
    return bool(sought) and same >= _SAME_WORDS * len(sought)


# A character reference left in text the parser has already decoded: the site escaped it twice
# (Discourse writes a description's ellipsis as "&amp;hellip;"; 29 of WCXB dev's 1,497 pages
# have such a description or title: "aren&rsquo;t", "Bear&#39;s", "SQL &#x26; AI"). Only
# references ending in ";" are decoded again, so "AT&T" or "R&D" stay as written.
_ESCAPED_TWICE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _head_line(text: str) -> str:
    """A title or description from the page's head on one line, references escaped twice
    decoded (a heading's text is left as the page shows it)."""
    if "&" in text:
        text = _ESCAPED_TWICE.sub(lambda ref: html.unescape(ref.group()), text)
    return _one_line(text)


def _one_line(text: str) -> str:
    return " ".join(text.split()).rstrip("¶").strip()
