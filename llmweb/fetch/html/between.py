"""Headings and lists a reading lacks between two paragraphs it keeps side by side. Pure.

When trafilatura's fast reading finds no container it can use, it recovers the page's
paragraphs one by one (``p``, tables, quotes, code: its ``recover_wild_text``) and leaves out
the rest, an article's section headings and its lists lying between paragraphs it kept. A
reading that took a container first, came up short and then recovered the paragraphs holds the
container's heading or two as well, and .interleaved, which reads the page again from the
paragraphs' container only for a reading of paragraphs alone, passes over it (its second
reading must also hold the whole first one, which one block of a page written in many does not).

Each such block is put back where it was: a heading (h2 to h6, two words at least, not one the
page says twice, as a thread's "Re: …" over each post) or a list (its items 16 characters long
on average, not a link in each: a blog's latest posts; no figures: a gallery) that lies, in the
page's order, between two paragraphs the reading holds next to each other, with one of them
within NEAR_LEVELS levels above it; not mostly links (a table of contents, related stories:
dropped on purpose), not in a page's navigation, header, footer, sidebar, form, table or figure,
not hidden (but in a hidden element that holds the paragraph before it too: a streamed page's
text waiting in a ``<div hidden>``, which trafilatura reads; one article 0.932 -> 0.965), and
not within NEAR_LEVELS of a form's fields (a consent window's purposes, each with its switch,
between the consent's paragraphs: a forum 0.143 -> 0.101 without this; three products lose
0.026 summed with it).

Run after the short-reading rescues and, like the boxes of .interleaved, left out of the landing
test's measure: put back before them, the blocks lengthened a service's reading past the bound
that sends it to its landing reading (one page 0.93 -> 0.37).

WCXB dev's tuning part (bench/wcxb.py, layer ``between``): fires on 70 pages, 46 changed; by
type, article 0.9554 -> 0.9560 (a conference guide's headings 0.934 -> 0.984, a coffee history's
0.903 -> 0.970, a rental guide's "best for" lists 0.853 -> 0.934; one page 0.983 -> 0.857, whose
longer visible reading now stands where the page's embedded copy read better), service
0.8599 -> 0.8637, documentation 0.9352 -> 0.9367, product 0.6540 -> 0.6554, collection
0.6943 -> 0.6955, forum and listing unchanged; all 0.8747 -> 0.8757. Check part: article
0.9439 -> 0.9462, listing 0.7508 -> 0.7577, all 0.8639 -> 0.8658, no type down. The Zyte article
set unchanged (a news story's gallery of captioned photos, put back before the figure rule,
cost its tuned half 0.9757 -> 0.9742).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.continuation import ElementKeys
from llmweb.fetch.html.hidden import DISPLAY_NONE

_BLOCK_TAGS = ("h2", "h3", "h4", "h5", "h6", "ul", "ol")
# A kept paragraph counts when its key is this long: short ones ("Features:", a date) are
# anywhere in a page
_KEPT_MIN_CHARS = 30
# A block whose text is at least this share links is a list of links, dropped on purpose
LINKED_SHARE = 0.5
# A heading holds this many words at least
HEADING_MIN_WORDS = 2
_FIELDS = etree.XPath("descendant::input[not(@type='hidden')] | descendant::select | descendant::textarea")
# A list's items hold this many characters on average: shorter, it is a menu ("Events", "Press")
ITEM_MIN_CHARS = 16
# Levels above a block looked through for an element holding one of the paragraphs beside it
NEAR_LEVELS = 3
# Where a page keeps what is not its text
_CHROME = frozenset({"nav", "header", "footer", "aside", "form", "button", "figure", "table", "p", "li"})


def restore_between(root: HtmlElement, body: Any, keys: ElementKeys | None = None) -> int:
    """Put back into trafilatura's ``body`` the headings and lists of ``root`` described in the
    module's docstring; how many. ``keys``: the elements' keys made so far (:class:`ElementKeys`)."""
    kept = [child for child in body if child.tag == "p"]
    if len(kept) < 2:
        return 0
    keys = ElementKeys() if keys is None else keys
    index = {id(child): i for i, child in enumerate(body)}
    at: dict[str, Any] = {}
    for paragraph in kept:
        key = keys[paragraph]
        if len(key) >= _KEPT_MIN_CHARS:
            at.setdefault(key, paragraph)
    read: set[str] | None = None  # the keys of what the reading holds, made when first needed
    after: dict[int, list[Any]] = {}  # the blocks to put in after the reading's child at each place
    before: Any = None  # the kept paragraph last met in the page, as the reading holds it
    before_page: HtmlElement | None = None
    pending: list[HtmlElement] = []
    fields: dict[HtmlElement, bool] = {}  # whether an element holds a form's fields, searched once
    for element in root.iter("p", *_BLOCK_TAGS):
        if element.tag == "p":
            key = keys[element]
            mine = at.get(key) if len(key) >= _KEPT_MIN_CHARS else None
            if mine is None:
                continue
            # a pair of paragraphs the page says twice is filled once (then no longer side by side)
            place = index[id(before)] if before is not None else -1
            if pending and index[id(mine)] == place + 1 and place not in after:
                read = read_keys(root, body, keys) if read is None else read
                near = [
                    as_reading(block)
                    for block in pending
                    if dropped(block, read, before_page, fields, keys) and beside(block, before_page, element)
                ]
                if near:
                    after[place] = near
            before, before_page, pending = mine, element, []
        elif before is not None:
            pending.append(element)
    # put in at the end, the last first, so that the reading's places stay as counted (putting
    # each in as found and counting the places again took time the square of the page's blocks)
    if after:
        children = list(body)
        for place in sorted(after, reverse=True):
            children[place + 1 : place + 1] = after[place]
        body[:] = children
    return sum(len(blocks) for blocks in after.values())


def read_keys(root: HtmlElement, body: Any, keys: ElementKeys) -> set[str]:
    """The keys of every element the reading ``body`` holds, and of the headings ``root`` says
    twice: a heading said twice on the page labels something repeated (a thread's "Re: …" over
    each post), not a section of the text."""
    read = {key for element in body.iter() if (key := keys[element])}
    said = Counter(keys[heading] for heading in root.iter(*_BLOCK_TAGS[:5]))
    return read | {key for key, times in said.items() if times > 1}


def dropped(
    block: HtmlElement,
    read: set[str],
    before: HtmlElement | None,
    fields: dict[HtmlElement, bool],
    keys: ElementKeys,
) -> bool:
    """Whether ``block`` (a heading, a list, a paragraph or a ``<div>`` of text read as one) is
    text the reading lacks, shown, outside the page's chrome, not links; a heading or a paragraph
    of HEADING_MIN_WORDS or more.
    Shown: not within an element hidden that does not hold the kept paragraph ``before`` too (a
    streamed page's text waits in a ``<div hidden>``, which trafilatura reads, as it was read).
    ``fields`` remembers which ancestors hold a form's fields: the blocks of one container share
    it, and searching it again for each of thousands of them took time the square of its size."""
    key = keys[block]
    if not key or key in read or not in_text(block, before, fields):
        return False
    chars = len(block.text_content())
    linked = sum(len(link.text_content()) for link in block.iter("a"))
    if linked >= LINKED_SHARE * chars:
        return False
    if block.tag in _BLOCK_TAGS[:5] or block.tag in ("p", "div"):  # a single word is a label ("Spotlight")
        return len(block.text_content().split()) >= HEADING_MIN_WORDS
    # a menu of single words (a footer's, a post's buttons) is not a list of the text's, nor one
    # of other pages, a link in each item (a blog's latest posts)…
    items = list(block.iterchildren("li"))
    if not items or block.find(".//figure") is not None:
        return False  # …nor a gallery of figures, whose captions show one at a time
    if len(items) > 1 and all(item.find(".//a[@href]") is not None for item in items):
        return False
    return sum(len(" ".join(item.text_content().split())) for item in items) >= ITEM_MIN_CHARS * len(items)


def in_text(block: HtmlElement, before: HtmlElement | None, fields: dict[HtmlElement, bool]) -> bool:
    """Whether ``block`` is shown and outside the page's chrome, not beside a form's fields nor
    inside a list or a paragraph (see :func:`dropped`)."""
    for level, up in enumerate(block.iterancestors()):
        if level < NEAR_LEVELS:
            if up not in fields:
                fields[up] = bool(_FIELDS(up))
            if fields[up]:
                return False  # beside a form's fields: a window of settings (a consent's switches)
        if up.tag in _CHROME or up.tag in _BLOCK_TAGS[5:]:
            return False  # in chrome, or a list's inner list (it goes with its outer one)
        hidden = up.get("hidden") is not None or up.get("aria-hidden") == "true"
        if (hidden or DISPLAY_NONE.search(up.get("style") or "")) and not (
            before is not None and up in before.iterancestors()
        ):
            return False
    return True


def beside(block: HtmlElement, *paragraphs: HtmlElement | None) -> bool:
    ups = []
    for up in block.iterancestors():
        ups.append(up)
        if len(ups) >= NEAR_LEVELS:
            break
    return any(
        paragraph is not None and up in paragraph.iterancestors() for up in ups for paragraph in paragraphs
    )


def as_reading(block: HtmlElement) -> Any:
    """``block`` as trafilatura's reading writes it: a heading its ``head``, a list its items."""
    if block.tag.startswith("h"):
        head = etree.Element("head", rend=block.tag)
        head.text = " ".join(block.text_content().split())
        return head
    listing = etree.Element("list", rend=block.tag)
    for item in block.iterchildren("li"):
        text = " ".join(item.text_content().split())
        if text:
            etree.SubElement(listing, "item").text = text
    return listing
