"""A thread's other posts, when trafilatura read one post of a run of them. Pure.

Forum software without schema.org markup (Simple Machines, home-grown boards) writes each post
as the same container, one after the other: ``<div class="windowbg">`` four times, each
holding the poster's box and the message. trafilatura looks for one main container, and a
class named "post" is what it looks for first: on such a thread it read the first message and
left every reply out. Pages built of like sections (a service's feature blocks, a council's
page of one block per topic) lose the same way.

When trafilatura's reading is short (under half of the page's text) and sits in one container
(at least a fifth of the reading) of a run of siblings of its shape (tag and first class name,
as :mod:`.posts` matches an unmarked post to its marked twins), and the other members hold
text the reading lacks (most of their runs of words), their own rather than links, a post's
worth each on average, then each of them is read from the place the reading was taken from
(the same path of tags and classes; its author line comes along when the reading's words
surround it), in page order. Not for articles (a news page's next story is not its text) nor
for a page selling one thing (its cards are other products).

On WCXB dev's tuning part (bench/wcxb.py, layer ``post_run``) it fired on 7 of 998 pages,
F1 0.586 -> 0.832 there (a Simple Machines thread 0.27 -> 0.89; one listing lost 0.006), and
on 7 pages of the check part nobody looked at, 0.438 -> 0.742; it never fired on the
article set. Widening it to runs whose other members hold less text than the one read
(a thread whose first post is long) cost an article and a product more than it gained.

A run whose members are each signed and dated (a link naming a poster and a date, as
:func:`.manual.signed_and_dated` reads them; three posts at least, each mostly its own prose
rather than links) is a thread's posts even when the replies together are shorter than the
post read (a long guide, thanked for in a line): there the weights above are waived, and
each reply is read from the message beside its poster's box and date (the highest element
around the reading's text that holds neither) under its author line, ``**name** · date``, as
:mod:`.posts` writes a marked post's. WCXB dev's tuning part: 2 forum threads changed, both up
(XenForo without markup 0.835 -> 0.893, Simple Machines 0.906 -> 0.960); no other page and no
check page changed. Without the author lines (each reply read with its poster's box, ranks and
counts) the same two went up 0.004 each; with runs of two posts allowed a listing's comments
and its box of voters were read as a thread (-0.005).

A run of like sections is also how a landing page is built (a service's feature blocks): the
landing test (whole.py's LANDING_SHARE, in extract.py) judges the reading as trafilatura made it, and where
it reads the page whole that text replaces the run. Before, a widened reading kept the page
from being read whole: 3 of the tuning part's 7 pages (2 services, a listing) and all 6 of
the check part's (services, collections, a forum) read better whole; post_run's gain on the
pages where it fires went +0.108 -> +0.274 (4 pages) on the tuning part, check -0.064 on 6
pages -> none.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.manual import drop_button_links, manual_body, poster_link, shown_date, signed_and_dated
from llmweb.fetch.html.markdown import CodeBlocks, render_markdown
from llmweb.fetch.html.posts import follow_path, path_of, shape_of
from llmweb.fetch.html.sizes import link_text_size

# A reading is widened only when it kept less than this share of the page's text: a thread
# read whole leaves little else.
READ_SHARE = 0.5
# the member holds this share of the reading at least: the reading is that post, not a page
# that holds one card of a grid among much else…
MEMBER_SHARE = 0.2
# the run: the member read and at least this many others…
MIN_OTHERS = 1
# …whose text is mostly missing from the reading (under this share of their runs of words in it)…
MISSING_SHARE = 0.3
# …mostly their own text, not links…
LINK_SHARE = 0.5
# …each of a post's length on average (spaces left out; a shop's cards hold a name and a
# price)…
MIN_POST_CHARS = 100
# …and together at least as long as the member read.
OTHERS_WEIGHT = 1.0
# A run of posts each signed by its poster and dated is a thread's even when its replies are
# short (a thank-you, a moderator's note): at least this many posts, as .manual's discussions.
MIN_SIGNED_POSTS = 3
# The post is read from the highest element around the reading's text whose words are mostly
# (this share) the reading's: the message, with the author line beside it.
READ_WORDS_SHARE = 0.8
_ANCHOR_CHARS = 40  # a text node this long, found in the reading, places it in the page
_MAX_DEPTH = 16  # ancestors of that node tried as the post
_MAX_MEMBERS = 500  # a longer run is not a thread's page (one shows tens of posts)
# Bounds on a hostile page's cost: the runs of words remembered of the reading, and the words
# of the other members compared with them.
_MAX_READING_RUNS = 200_000
_MAX_COMPARED_WORDS = 50_000

_WORDS = re.compile(r"\w+")


def other_posts(root: HtmlElement, reading: str, codes: CodeBlocks) -> tuple[str, str] | None:
    """The text of the run's posts before and after the one ``reading`` was taken from, as
    markdown, or None when the reading is not one post of a run."""
    body = root.find("body")
    if body is None:
        return None
    words = _words(reading)
    runs = _shingles(words[:_MAX_READING_RUNS])
    anchor = _anchor(body, runs)
    reading_size = len("".join(reading.split()))
    if anchor is None:
        return None
    member = anchor
    for _ in range(_MAX_DEPTH):
        parent = member.getparent()
        if parent is None or member is body:
            return None
        run = _run(parent, member)
        if MIN_OTHERS < len(run) <= _MAX_MEMBERS and _size(member) >= MEMBER_SHARE * reading_size:
            found = _others(member, run, anchor, (set(words), runs), codes)
            if found is not None:
                return found
        member = parent
    return None


def _words(text: str) -> list[str]:
    return _WORDS.findall(text.lower())


_SHINGLE_WORDS = 5  # a run of this many words rarely repeats by chance


def _shingles(words: list[str]) -> set[int]:
    n = _SHINGLE_WORDS
    return {hash(tuple(words[i : i + n])) for i in range(len(words) - n + 1)}


# the body's text nodes long enough to place the reading, found in C (a walk of every element
# in Python cost a millisecond on a large page)
_LONG_TEXTS = etree.XPath(f"descendant::text()[string-length() >= {_ANCHOR_CHARS}]")


def _anchor(body: HtmlElement, runs: set[int]) -> HtmlElement | None:
    """The element owning the longest text node of the page that the reading holds whole
    (each of its runs of words; a set lookup each, where a search of the reading's text for
    each node took time in the product of their lengths)."""
    for text in sorted(_LONG_TEXTS(body), key=len, reverse=True):  # the longest held one is wanted
        held = _shingles(_words(text))
        if held and held <= runs:
            owner = text.getparent()
            return owner.getparent() if text.is_tail and owner is not None else owner
    return None


def _run(parent: HtmlElement, member: HtmlElement) -> list[HtmlElement]:
    shape = shape_of(member)
    return [child for child in parent if isinstance(child.tag, str) and shape_of(child) == shape]


_Reading = tuple[set[str], set[int]]  # its words, and its runs of words (hashed)


def _others(
    member: HtmlElement, run: list[HtmlElement], anchor: HtmlElement, reading: _Reading, codes: CodeBlocks
) -> tuple[str, str] | None:
    """The posts of ``run`` other than ``member``, read where ``member`` holds the reading."""
    others = [el for el in run if el is not member]
    own = _size(member)
    sizes = [_size(el) for el in others]
    total = sum(sizes)
    weighty = total >= MIN_POST_CHARS * len(others) and total >= OTHERS_WEIGHT * own
    signed = (
        None  # the posts' signatures, looked at where the weights fall short or once the tests below pass
    )
    if not weighty:
        signed = _signed_posts(member, others)
        if not signed:
            return None
    if sum(link_text_size(el) for el in others) > LINK_SHARE * total:
        return None
    per_member = _MAX_COMPARED_WORDS // len(others)
    theirs = set().union(*(_shingles(_words(el.text_content())[:per_member]) for el in others))
    if not theirs or len(theirs & reading[1]) > MISSING_SHARE * len(theirs):
        return None
    if signed is None:
        signed = _signed_posts(member, others)
    root = _message(member, anchor) if signed else _reading_root(member, anchor, reading[0])
    path = path_of(member, root)
    before: list[str] = []
    after: list[str] = []
    seen_member = False
    for el in run:
        if el is member:
            seen_member = True
            continue
        post = follow_path(el, path)
        if post is None:
            continue
        tree = manual_body(post)
        drop_button_links(tree)
        text = render_markdown(tree, codes).strip()
        if text and signed:
            text = f"{_author_line(el)}\n\n{text}".strip()
        if text:
            (after if seen_member else before).append(text)
    if not before and not after:
        return None
    return "\n\n".join(before), "\n\n".join(after)


def _signed_posts(member: HtmlElement, others: list[HtmlElement]) -> bool:
    """Whether the run is a thread's posts: each signed and dated, and mostly its own prose
    rather than links (a listing's cards and a box of its voters are signed with names too)."""
    posts = [el for el in (member, *others) if _size(el)]
    return len(posts) >= MIN_SIGNED_POSTS and all(
        link_text_size(el) <= LINK_SHARE * _size(el) and signed_and_dated(el) for el in posts
    )


def _message(member: HtmlElement, anchor: HtmlElement) -> HtmlElement:
    """The highest element from ``anchor`` up to ``member`` that holds neither the post's poster
    link nor its date: the message, whose poster and date its author line gives."""
    marks = {el for el in (poster_link(member), shown_date(member)) if el is not None}
    best = anchor
    for el in anchor.iterancestors():
        if el is member or any(mark is el or el in mark.iterancestors() for mark in marks):
            break
        best = el
    return best


def _author_line(post: HtmlElement) -> str:
    """``**name** · date`` of a signed post, as :mod:`.posts` writes a marked one's."""
    link, dated = poster_link(post), shown_date(post)
    name = " ".join(link.text_content().split()) if link is not None else ""
    date = " ".join(dated.text_content().split()) if dated is not None else ""
    return author_line(name, date)


def author_line(name: str, date: str) -> str:
    """``**name** · date``, or what of it is known, as :mod:`.posts` writes a marked post's."""
    date = date[:_MAX_AUTHOR_CHARS]
    return " · ".join(part for part in (f"**{name}**" if name else "", date) if part)


_MAX_AUTHOR_CHARS = 80


def _reading_root(member: HtmlElement, anchor: HtmlElement, said: set[str]) -> HtmlElement:
    """The highest element from ``anchor`` up to ``member`` whose words the reading mostly holds:
    the post's message, without the poster's box beside it."""
    best = anchor
    for el in anchor.iterancestors():
        if el is member:
            break
        words = _words(el.text_content())
        if not words or sum(1 for w in words if w in said) < READ_WORDS_SHARE * len(words):
            break
        best = el
    return best


def _size(el: HtmlElement) -> int:
    return len("".join(el.text_content().split()))
