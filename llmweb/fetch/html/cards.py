"""The poster's card beside each post of a forum thread: its statistics fields; and the
poster's signature under it (:func:`drop_signatures`). Pure.

Forum software without schema.org markup (phpBB, vBulletin, FluxBB) writes, beside every post,
a card about its poster as a definition list: ``<dl class="postprofile">`` holding the name
and ``<dd>Posts: 2630</dd>``, ``<dd>Joined: Wed Apr 24, 2019</dd>``, or ``<dt>Join
Date</dt><dd>Aug 2004</dd>``. trafilatura, :mod:`.post_run` and a page read whole keep those
fields as text: "Posts: 9179" under every reply, words no reader asked for (WCXB's reference
texts keep the poster's name and the post's date, never the card's counts).

The thread's own shape says which lines are fields: lists built alike (tag and first class
name) repeated at least :data:`MIN_CARDS` times, short each, where the same label starts an
entry in most of them ("Posts:" under every post); the poster's name differs from card to
card and stays. Such cards being a thread's, their other labelled entries go too: fields only
some posters fill in ("Location:", "Primary OS:"; tuning: a phpBB thread 0.83 -> 0.90, a
vBulletin one 0.855 -> 0.858, no page down). An entry is labelled either by a short text and a
colon ("Posts: 2630") or, in a list of several terms, by its term (``<dt>Posts</dt><dd>8,197</dd>``,
the value going with it).

WCXB dev's tuning part (bench/wcxb.py, layer ``card_fields``): 3 phpBB and vBulletin threads
up (0.79 -> 0.83, 0.83 -> 0.86, 0.89 -> 0.90), none down. Not on a shop's cards (:func:`_priced`):
their lists are the products' names, prices and specifications, which a listing's reader wants
(issue 22); two shops' grids that scored higher without them (0.57 -> 0.77, 0.76 -> 1.00, their
gold texts leave the products out) were given up for it. Not on a manual (extract.py): its
definition lists are its text, options and what they do (one of the check part's documentation
pages lost a little). A page taken for documentation by the code its posts quote is a thread
when its body holds signed, dated posts (.manual.discussion_posts), and loses its cards (a phpBB
thread 0.77 -> 0.81; no documentation page of the tuning part holds such posts). Lists (``<ul>``) of "Label: value" lines are not
cards: on the tuning part they are articles' and products' text ("Processor: …" in a game's
requirements) far more often.
"""

from __future__ import annotations

import re
from collections import Counter

from lxml.html import HtmlElement

from llmweb.fetch.html.carousels import PRICE
from llmweb.fetch.html.marks import Marked
from llmweb.fetch.html.posts import shape_of

MIN_CARDS = 3  # a thread's page: the opening post and two replies at least
# a label is a field's when it starts an entry in this share of the cards at least (a poster
# who wrote half the thread does not make their name a label)
LABEL_SHARE = 0.8
_MAX_CARD_WORDS = 60  # a card is short; a glossary's lists are not cards
_MAX_LABEL_WORDS = 3
_LABEL = re.compile(r"^\s*([^\W\d][\w .'-]{0,30}?)\s*:")
_WORD = re.compile(r"\w+")
_MAX_LISTS = 2_000  # a thread's page shows tens of posts; bounds a hostile page's cost
_PRICED = 0.5  # lists beside a price in this share of the cards: a shop's cards, their specifications


def drop_card_fields(root: HtmlElement) -> int:
    """Remove the fields of the posters' cards (the module's docstring) from ``root``; how many went."""
    body = root.find("body")
    if body is None:
        return 0
    groups: dict[tuple[str, str], list[HtmlElement]] = {}
    for dl in body.iter("dl"):
        if len(_WORD.findall(dl.text_content())) <= _MAX_CARD_WORDS:
            groups.setdefault(shape_of(dl), []).append(dl)
        if sum(len(g) for g in groups.values()) >= _MAX_LISTS:
            break
    dropped = 0
    for cards in groups.values():
        if len(cards) < MIN_CARDS or _priced(cards):
            continue
        entries = [_entries(card) for card in cards]
        seen = Counter(label for found in entries for label in {label for label, _ in found})
        fields = {label for label, count in seen.items() if count >= max(MIN_CARDS, LABEL_SHARE * len(cards))}
        if not fields:
            continue
        # the cards being a thread's, a field only some posters fill in goes too
        for found in entries:
            for _, elements in found:
                for el in elements:
                    if el.getparent() is not None:
                        el.drop_tree()
                        dropped += 1
    return dropped


def _priced(cards: list[HtmlElement]) -> bool:
    """Whether most lists are a shop's cards: in a short box (:data:`_MAX_CARD_WORDS` twice at
    most) with a price. Their lists are the products' fields ("Max Light: 300 lumens", "Price:
    $108"), the text a reader of a listing wants, however alike their labels; a poster's card sits
    beside a post, whose message may name a price but is seldom that short."""
    shown = 0
    for card in cards:
        box = card.getparent()
        text = "" if box is None else box.text_content()
        shown += bool(PRICE.search(text)) and len(_WORD.findall(text)) <= 2 * _MAX_CARD_WORDS
    return shown >= _PRICED * len(cards)


def _entries(card: HtmlElement) -> list[tuple[str, list[HtmlElement]]]:
    """A card's labelled entries: the label and the elements that hold the entry."""
    children = [child for child in card if isinstance(child.tag, str)]
    terms = sum(1 for child in children if child.tag == "dt")
    found = []
    for i, child in enumerate(children):
        text = " ".join(child.text_content().split())
        colon = _LABEL.match(text)
        # a label and its value ("Posts: 2630"); a label alone ("Tip:") heads a manual's text
        if colon and len(colon.group(1).split()) <= _MAX_LABEL_WORDS and text[colon.end() :].strip():
            found.append((colon.group(1).lower(), [child]))
        elif child.tag == "dt" and terms >= 2 and text and len(text.split()) <= _MAX_LABEL_WORDS:
            values = []
            for after in children[i + 1 :]:
                if after.tag != "dd":
                    break
                values.append(after)
            found.append((text.lower(), [child, *values]))
    return found


# found from their class attribute (.marks); "Signature" and "signature" alike
_SIGNATURE_CLASSES = Marked("/descendant::body/descendant::*", "@class[contains(., 'ignature')]")
_MAX_SIGNATURE_WORDS = 100  # a signature is a line or two under a post; a post that has one is longer


def drop_signatures(root: HtmlElement) -> int:
    """Remove the posters' signatures under a thread's posts from ``root``; how many went.

    Every forum engine writes a poster's signature, the lines they set once in their profile
    ("Currently playing: …", a motto, links to their builds), in a block of its own under each
    of their posts, and names it so: phpBB's, SMF's and MyBB's ``class="signature"``,
    XenForo's ``message-signature``, Invision's ``ipsEntry__signature``, FluxBB's
    ``postsignature``. It is not the post: WCXB's reference texts leave it out on the 25
    threads of the tuning part that have one (on one, a short signature's words are in the
    reference). A thread read post by post (.posts) left them out already; on the others
    trafilatura and the readings after it kept them (layer ``signatures``, tuning part: 7 threads
    changed, none down, a phpBB thread 0.37 -> 0.44, a MyBB one 0.86 -> 0.90, a vBulletin one
    0.86 -> 0.90; forums 0.8521 -> 0.8541; the check part's threads hold none it kept). Only
    blocks short enough to be signatures go: a class naming a post that "has a signature" holds
    the post. Not for articles and manuals (extract.py): no thread, and the word is a
    document's or a product's there ("e-signature").
    """
    dropped = 0
    for el in _SIGNATURE_CLASSES(root):
        if not any(_names_signature(name.lower()) for name in el.classes):
            continue
        if el.getparent() is None or len(_WORD.findall(el.text_content())) > _MAX_SIGNATURE_WORDS:
            continue
        el.drop_tree()
        dropped += 1
    return dropped


def _names_signature(name: str) -> bool:
    """Whether a class name names a signature's block, not a post that has one."""
    return "signature" in name and not name.startswith("has")
