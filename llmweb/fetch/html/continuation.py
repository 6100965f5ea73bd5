"""Parts of a page's main text that trafilatura's choice of one container leaves out. Pure.

trafilatura takes the main text from the one element it judges to hold it. Pages often
split their body: an ad row between two halves of an article, each half in an element of
the same class, so everything after the first ad vanished (half of a Wired story). This
module finds the element trafilatura read most paragraphs from, looks for elements of the
same kind (tag and class) near it, and adds their paragraphs in page order.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from typing import Any

from lxml import etree
from lxml.html import HtmlElement

_KEY_CHARS = 60
_MIN_PARAGRAPH_CHARS = 25
# Two containers belong to one text when their nearest common ancestor is this close
# above the one trafilatura chose: Wired's halves meet two levels up. A next article
# loaded below (infinite scroll) sits further away, and after a headline of its own.
_MAX_LEVELS = 3
# The paragraphs found make a text's other part only when there are this many at least: the
# rest of a split article runs to many (a Wired story's second half: 12, a blog post's: 14),
# while a container merely of the same class beside the text holds a few (a footer's tagline
# and copyright line, three related posts' teasers, a testimonial, a table's note). On WCXB
# dev's tuning part (layer ``continuation``) it fired on 6 pages, F1 0.850 there against 0.863
# without it: the 5 that lost had 1 to 3 paragraphs found, the one that gained 14.
_MIN_FOUND = 4


_WORDS = re.compile(r"\w+")


def _key(text: str) -> str:
    return " ".join(_WORDS.findall(text[: _KEY_CHARS * 3].lower()))[:_KEY_CHARS]


def element_key(element: Any) -> str:
    """The first words of ``element``'s text as :func:`_key` makes them, its text read only as
    far as they need (the same key as its whole text's)."""
    if not len(element):  # its text alone: two in five of the elements keyed, without an iterator
        return _key(element.text or "")
    pieces, length = [], 0
    for piece in element.itertext():
        pieces.append(piece)
        length += len(piece)
        if length >= _KEY_CHARS * 3:
            break
    return _key("".join(pieces))


class ElementKeys(dict[Any, str]):
    """The :func:`element_key` of each element asked for, made once and kept (``keys[element]``).

    The layers after trafilatura's reading (interleaved, boxes, between, continuation) key the
    same paragraphs of the page and of the reading, each layer all of them: a seventh of their
    time. One of these, made once the reading is taken, serves them all. It holds only while
    the text of an element keyed is not changed: from the reading on, the page's tree is not
    (its elements change tag or lose and regain attributes only), and a reading's elements
    change only by new elements put in among them, after the layers that key its root element.
    """

    def __missing__(self, element: Any) -> str:
        key = self[element] = element_key(element)
        return key


def add_split_parts(root: HtmlElement, body: Any, keys: ElementKeys | None = None) -> bool:
    """Insert into trafilatura's ``body`` the paragraphs of containers like its main one;
    whether any were found. ``keys``: the elements' keys made so far (:class:`ElementKeys`)."""
    if body is None or not _repeated_holders(root):
        return False
    keys = ElementKeys() if keys is None else keys
    kept_in_body: dict[str, Any] = {}
    for element in body.iter("p"):
        key = keys[element]
        if key:
            kept_in_body.setdefault(key, element)
    if len(kept_in_body) < 2:
        return False
    paragraphs = [p for p in root.iter("p") if isinstance(p.tag, str)]
    kept = [p for p in paragraphs if keys[p] in kept_in_body]
    parents = Counter(p.getparent() for p in kept if p.getparent() is not None)
    if not parents:
        return False
    main, count = parents.most_common(1)[0]
    kind = main.get("class")
    if count < 2 or not kind:
        return False
    ancestors = list(main.iterancestors())[:_MAX_LEVELS]
    if not ancestors:
        return False
    others = [
        other
        for other in ancestors[-1].iter(main.tag)
        if other is not main and other.get("class") == kind and not _nested(other, main)
    ]
    if not others:
        return False
    order = {el: i for i, el in enumerate(root.iter())}
    headlines = [order[h] for h in root.iter("h1")]
    found: list[HtmlElement] = []
    for other in others:
        low, high = sorted((order[main], order[other]))
        if any(low < h < high for h in headlines):
            continue
        found += [p for p in other.iterchildren("p") if keys[p] not in kept_in_body and _is_prose(p)]
    if len(found) < _MIN_FOUND:
        return False
    _insert(body, found, kept, kept_in_body, order)
    return True


def _repeated_holders(root: HtmlElement) -> bool:
    """Whether two different elements of one tag and class hold paragraphs (cheap: no text read)."""
    seen: dict[tuple[str, str], HtmlElement] = {}
    for p in root.iter("p"):
        holder = p.getparent()
        kind = holder.get("class") if holder is not None else None
        if holder is None or not kind:
            continue
        first = seen.setdefault((holder.tag, kind), holder)
        if first is not holder:
            return True
    return False


def _nested(a: HtmlElement, b: HtmlElement) -> bool:
    return any(x is b for x in a.iterancestors()) or any(x is a for x in b.iterancestors())


def _is_prose(p: HtmlElement) -> bool:
    text = " ".join(p.text_content().split())
    if len(text) < _MIN_PARAGRAPH_CHARS:
        return False
    linked = sum(len(" ".join(a.text_content().split())) for a in p.iter("a"))
    return linked < len(text) / 2


def _insert(
    body: Any,
    found: list[HtmlElement],
    kept: list[HtmlElement],
    kept_in_body: dict[str, Any],
    order: dict[HtmlElement, int],
) -> None:
    """Each found paragraph goes after the body's paragraph that precedes it on the page."""
    kept_by_position = sorted(kept, key=order.__getitem__)
    positions = [order[k] for k in kept_by_position]
    anchors: dict[int, Any] = {}  # body element → the last paragraph inserted after it
    for p in sorted(found, key=order.__getitem__):
        before = bisect.bisect_left(positions, order[p])  # the kept paragraphs above p
        anchor = kept_in_body[element_key(kept_by_position[before - 1])] if before else None
        new = etree.Element("p")
        new.text = " ".join(p.text_content().split())
        if anchor is None:
            body.insert(0, new)
            continue
        after = anchors.get(id(anchor), anchor)
        after.addnext(new)
        anchors[id(anchor)] = new
