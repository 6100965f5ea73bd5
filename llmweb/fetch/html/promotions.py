"""Blocks that send the reader elsewhere: other stories, newsletters, social accounts. Pure.

News pages put lists of other stories inside or right after the article: a label in the
reader's words ("Related coverage", "Don't miss", "Explore further") and headlines that
are links. trafilatura removes many such lists by their link density, but a label with a
short list, or a line such as "Related: <a>Snapshots of our universe</a>" between two
paragraphs, passes as text. On the article benchmark these were the commonest words that
are not the article's. Removed here before trafilatura reads the page:

- a line made mostly of links that starts with such a label;
- such a label (a short line on its own) together with the block right after it, when
  that block is mostly links (on an article, a label alone in a wrapper of its own takes the
  wrapper's next block: a card grid's heading row and its cards; on a listing such cards are
  its items);
- a short paragraph asking the reader to sign up, subscribe or follow an account ("Sign
  up for The Water Coolest's free daily newsletter", "Follow The New York Times Opinion
  section on Facebook"), unless the word that makes it a call names the page's subject, as
  its title states it: on a page titled "Who's reading your newsletter?" a paragraph saying
  "newsletter" is the article's (WCXB dev's tuning part: five essays about newsletters had
  up to eight of their paragraphs taken for sign-up calls), nor when it names code (a
  ``<code>`` in it: a guide's hook that "subscribes us to a friend's status"; tuning part, of
  313 pages where the layer fires one changed, a documentation page 0.988 -> 0.999);
- on a page that declares itself an article, a list whose every item is a headline linked
  to another page (other stories under no label; a listing's items are such a list, so only
  articles);
- on such a page too, a link that holds a paragraph: a card, one link around its picture,
  headline and teaser, sending the reader to another page (an e-book's download card, a menu's
  product blurbs, a row of related stories). An article's own links sit inside its paragraphs,
  not around them. WCXB dev's tuning part, articles: such links held 848 words of our readings
  the gold leaves out, on 15 pages, and 53 it keeps, on 5 (a buying guide's products, each a
  link around its name and blurb). Where the layer fires, 12 tuning pages change, 9 up, +0.083
  summed (an events article's menu of product blurbs 0.867 -> 0.911, a magazine's related
  cards 0.936 -> 0.961; an advisory firm's page -0.016, where trafilatura then reads a card's neighbour);
  the Zyte article benchmark 0.9739 -> 0.9749 (its held-out half 0.9721 -> 0.9741).

Manuals are left alone (extract.py): their "See also" lists are content.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.sizes import text_of

_LABEL_PATTERN = re.compile(
    r"^\W*(?:related|you (?:may|might) also like|more (?:from|on|stories|news)|popular|most (?:read|popular)|"
    r"read (?:more|also)|see (?:more|also)|also read|don'?t miss|recommended|explore further|trending|latest|"
    r"top stories)\b",
    re.I,
)
_MAX_LABEL_CHARS = 60
_MAX_LINE_CHARS = 300
_MOSTLY_LINKS = 0.5
_ALL_LINKS = 0.7
# "click here" was tried too: articles say it about their own downloads
_CALL = re.compile(
    r"\b(?:(?P<topic>sign up|subscribe|newsletter)|follow (?:us|\w+) on|"
    r"follow\b[^.]{0,80}\bon (?:facebook|twitter|instagram|youtube|linkedin|tiktok))\b",
    re.I,
)
_MAX_CALL_CHARS = 250
_WORD = re.compile(r"\w+")
# Where a label or a call stands: paragraphs, list items, headings, bold lines, and divs
# holding only text. Read in one pass (an XPath testing each with a regular expression
# took half as long again; the XPath of their union, twice as long as this walk).
_BLOCK_TAGS = ("p", "li", "h2", "h3", "h4", "h5", "h6", "strong", "div")


def _blocks(root: HtmlElement) -> list[HtmlElement]:
    return [el for el in root.iter(_BLOCK_TAGS) if el.tag != "div" or not len(el)]


def drop_promotions(root: HtmlElement, title: str | None = None, *, article: bool = False) -> int:
    """Remove the promotions of the module's docstring from ``root``, whose title is ``title``;
    how many blocks went. On an ``article``, lists of linked headlines go too."""
    subject = _WORD.findall((title or "").lower())
    dropped = 0
    for element in _blocks(root):
        raw = text_of(element)
        if len(raw) > 2 * _MAX_LINE_CHARS or element.getparent() is None:
            continue
        text = " ".join(raw.split())
        if element.tag in ("p", "div"):
            if len(text) <= _MAX_CALL_CHARS and _is_call(text, subject) and element.find(".//code") is None:
                element.drop_tree()
                dropped += 1
                continue
            if element.tag == "div":
                continue
        if len(text) >= _MAX_LINE_CHARS or not _LABEL_PATTERN.match(text):
            continue
        if _linked_share(element) > _MOSTLY_LINKS:
            element.drop_tree()
            dropped += 1
        elif len(text) <= _MAX_LABEL_CHARS:
            label = _label_box(element, text) if article else element
            following = label.getnext()
            if (
                following is not None
                and isinstance(following.tag, str)
                and _linked_share(following) > _ALL_LINKS
            ):
                following.drop_tree()
                label.drop_tree()
                dropped += 2
    if article:  # after the labels, which take their lists along
        dropped += _drop_headline_lists(root)
        dropped += _drop_paragraph_cards(root)
    return dropped


# a link to another page (an address, not a #fragment nor nothing) around a paragraph: one pass in C
_PARAGRAPH_CARDS = etree.XPath("/descendant::a[@href != '' and not(starts-with(@href, '#'))][descendant::p]")


def _drop_paragraph_cards(root: HtmlElement) -> int:
    """Remove the links to other pages that hold a paragraph: cards (the module's docstring)."""
    cards = _PARAGRAPH_CARDS(root)
    for card in cards:
        card.drop_tree()
    return len(cards)


_HEADINGS = ("h2", "h3", "h4", "h5", "h6")


def _drop_headline_lists(root: HtmlElement) -> int:
    """Remove the lists of an article whose every item is a headline linked to another page: other
    stories (an article's own lists are of points, not of links to pages)."""
    lists = [el for el in root.iter("ul", "ol") if _is_headline_list(el)]
    for el in lists:
        el.drop_tree()
    return len(lists)


def _is_headline_list(el: HtmlElement) -> bool:
    items = [child for child in el if child.tag == "li"]
    return len(items) >= 2 and all(_is_linked_headline(item) for item in items)


def _is_linked_headline(item: HtmlElement) -> bool:
    headings = list(item.iter(*_HEADINGS))
    if len(headings) != 1:
        return False
    heading = headings[0]
    if " ".join(heading.text_content().split()) != " ".join(item.text_content().split()):
        return False
    for above in heading.iterancestors():
        if above is item:
            break
        if above.tag == "a" and not (above.get("href") or "").startswith("#"):
            return True
    return _linked_share(heading) > _ALL_LINKS


_LABEL_BOX_DEPTH = 3


def _label_box(label: HtmlElement, text: str) -> HtmlElement:
    """The outermost of the label's last-child ancestors (up to _LABEL_BOX_DEPTH) that hold no
    text but the label's: a card grid's heading sits in a row of its own, the links in the next."""
    box = label
    for _ in range(_LABEL_BOX_DEPTH):
        parent = box.getparent()
        if box.getnext() is not None or parent is None or parent.tag in ("body", "html"):
            break
        if " ".join(parent.text_content().split()) != text:
            break
        box = parent
    return box


def _is_call(text: str, subject: list[str]) -> bool:
    """The text asks the reader to sign up, subscribe or follow an account, and that is not what
    the page is about: a call to sign up, subscribe or read a newsletter whose first word
    ("newsletter", "subscribe") begins one of the title's words is the page's own subject."""
    for call in _CALL.finditer(text):
        topic = call.group("topic")
        if topic is None:  # "follow … on Facebook" names an account, not a subject
            return True
        word = topic.split()[0].lower()
        if not any(w.startswith(word) for w in subject):
            return True
    return False


def _linked_share(element: HtmlElement) -> float:
    """The share of the element's text that is in links to other pages."""
    total = len("".join(element.text_content().split()))
    if not total:
        return 0.0
    linked = sum(
        len("".join(a.text_content().split()))
        for a in element.iter("a")
        if not (a.get("href") or "").startswith("#")
    )
    return linked / total
