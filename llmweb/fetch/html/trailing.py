"""Blocks after an article's body, beside the container of its paragraphs. Pure.

An article's paragraphs sit in one element, and what follows that element inside the
article's wrappers is about the page, not the story: a disclaimer ("This content is provided
as a service of…"), numbered sources, a share row, "Explore the latest insights" cards, a
review date. trafilatura reads the whole wrapper and keeps those that read as prose. Here the
element holding the most paragraph text is the body when it holds a good part of all the
page's paragraph text; the blocks after it, among its siblings and its parents' siblings a few
levels up, go when they are small beside it. A block holding an element of the body's own
class is the article going on (an ad row between its halves, :mod:`.continuation`) and stays.

A section of other stories after the body ("Read this next", a news site's latest and
sponsored cards, each a linked headline over its date and teaser) goes at any level up to
``<body>`` and whatever its size, when two of its headings or more, and half of them, are
links, after a body of 1,000 characters of paragraphs at least (not after a listing's short
intro, whose own sections follow): its teasers are prose, so trafilatura keeps them, and
together they outweigh a short story. WCXB dev's tuning part: 4 articles change, all up,
+0.44 summed (a travel story 0.57 -> 0.98); check part: one article +0.015, no other page
(without the 1,000 characters: a tuning listing -0.09, and a check forum page -0.96).

WCXB dev's tuning part: fires on 136 article pages, 11 change, +0.214 summed (an AI blog's
cards 0.82 -> 0.99, a health page's disclaimer 0.96 -> 1.00, sources and a disclaimer 0.91
-> 0.94; a FAQ section after a body -0.027, a page's related-papers line -0.026). Only on
pages that declare an article (extract.py)...

Further up than those few levels (a page builder's layout nests a post ten wrappers deep, and a
consultancy's pitch, a "Related content" row or a contact form sits beside the outermost), the
small blocks after the body go too, but only while the blocks after it at that level are small
beside it together, half its size at most: a landing page that declares an article has its own
sections there, and they outweigh its intro. WCXB dev's tuning part: 12 pages change, 10 up and
2 down, +0.168 summed (articles 0.9600 -> 0.9603: an insurer's post 0.94 -> 1.00, an event
planner's 0.94 -> 0.99; down a FAQ block after the body -0.025 and a firm's disclosure -0.021);
check part 0.8723 -> 0.8725 (articles 0.9470 -> 0.9473). Measured, not kept: the blocks there
as heavy as the body together (+0.305 summed, a financial firm's post 0.83 -> 1.00, but a
service page's "Contact us" -0.037), and without the weight test (a service page's own
sections went, -0.095).

...but for the section of other stories, which goes on pages that do not declare an article
too (and on a manual read whole, not on a thread): a blog or news page without og:type or schema.org markup
has its cards after the body all the same. There the small blocks beside the body stay
(``near_blocks=False``): a listing's or a service page's own sections often stand there (with
them, on WCXB dev's tuning part, a documentation page -0.14 and a collection -0.11). Tuning
part: 4 pages up (three articles to +0.027, a product +0.016), none down.
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.sizes import text_of

_MIN_BODY_SHARE = 0.4  # the body holds this share of the page's paragraph text at least
_MAX_LEVELS = 3  # the wrappers above the body whose small later children go whatever they weigh together
# a block after the body larger than half of it is more of the text; above _MAX_LEVELS, the blocks
# after the body at a level together
_MAX_BLOCK_SHARE = 0.5
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_MIN_STORIES = 2  # linked headings in a block after the body that make it a section of other stories
_STORIES_SHARE = 0.5  # of a block's headings that are links, at least
_MIN_STORY_CHARS = 1000  # paragraph text in the body, at least, for a section of other stories to go
_LINKED_SHARE = 0.8  # a heading is a link when its links hold this share of its text


def drop_trailing_blocks(root: HtmlElement, *, near_blocks: bool = True) -> int:
    """Remove the blocks after an article's body (the module's docstring); how many went. Without
    ``near_blocks``, only the sections of other stories."""
    body = root.find("body")
    if body is None:
        return 0
    held: dict[HtmlElement, int] = {}
    for paragraph in body.iter("p"):
        parent = paragraph.getparent()
        if parent is not None:
            held[parent] = held.get(parent, 0) + len(text_of(paragraph))
    if not held:
        return 0
    holder = max(held, key=held.__getitem__)
    if held[holder] < _MIN_BODY_SHARE * sum(held.values()):
        return 0
    holder_chars = len(holder.text_content())
    classes = set((holder.get("class") or "").split())
    # a section of other stories only after a story, not after a listing's short intro
    stories = held[holder] >= _MIN_STORY_CHARS
    dropped = 0
    node = holder
    level = 0
    while True:
        parent = node.getparent()
        if parent is None or parent.tag in ("body", "html"):
            break
        later = list(node.itersiblings())
        # further up, the blocks after the body go only while together they are small beside it
        near_level = near_blocks and (
            level < _MAX_LEVELS or _weight(later) <= _MAX_BLOCK_SHARE * holder_chars
        )
        for sibling in later:
            near = near_level and _is_trailing(sibling, holder_chars, classes)
            if near or (stories and _tells_other_stories(sibling)):
                sibling.drop_tree()
                dropped += 1
        node = parent
        level += 1
    return dropped


def _weight(blocks: list[HtmlElement]) -> int:
    """Characters of text in ``blocks``, their scripts and styles aside."""
    return sum(
        len(text_of(el)) for el in blocks if isinstance(el.tag, str) and el.tag not in ("script", "style")
    )


def _tells_other_stories(el: HtmlElement) -> bool:
    """Whether ``el`` is a section of other stories: two headings or more that are links, and
    half of its headings at least (the rest its labels: "Read this next", "Sponsored")."""
    if not isinstance(el.tag, str):
        return False
    headings = list(el.iter(*_HEADINGS))
    linked = sum(1 for h in headings if _is_link(h))
    return linked >= _MIN_STORIES and linked >= _STORIES_SHARE * len(headings)


def _is_link(heading: HtmlElement) -> bool:
    text = "".join(heading.text_content().split())
    if not text:
        return False
    parent = heading.getparent()
    links = [parent] if parent is not None and parent.tag == "a" else list(heading.iter("a"))
    linked = 0
    for link in links:
        if link.get("href"):
            linked += len("".join(link.text_content().split()))
    return linked >= _LINKED_SHARE * len(text)


def _is_trailing(el: HtmlElement, holder_chars: int, classes: set[str]) -> bool:
    if not isinstance(el.tag, str) or el.tag in ("script", "style"):
        return False
    text = " ".join(el.text_content().split())
    if not text or len(text) > _MAX_BLOCK_SHARE * holder_chars:
        return False
    # the article going on in a container of its own class
    return not classes or not any(
        classes & set((d.get("class") or "").split()) for d in el.iter(etree.Element)
    )
