"""Author lines above the posts of a thread read without markup. Pure.

Forum software without schema.org markup (phpBB, vBulletin, MyBB, FluxBB…) writes each post as
the same container, one after the other, each signed with a link to its poster's page and
stamped with its date and time; trafilatura (or jusText) reads the posts' messages and leaves
out who wrote each and when, which the threads read from their markup (:mod:`.posts`) or as a
run of signed posts (:mod:`.post_run`) keep as a line above each post, ``**name** · date``. A
reader wants to know who said what, and WCXB's references of such threads keep the poster's
name and the post's date above each post.

The posts: the longest (in text) run of at least MIN_POSTS sibling blocks of one tag, found
from the page's stamps up (a short text naming a year and a time of day, "11-29-2024, 09:03 AM":
a post's timestamp; a listing's cards and a poster's "Joined: Aug 2008" name a day at most),
most of them signed with a link whose text is a short name (no date in it; a guest's name is
no link, and a guest's post is one of them, under its date alone), and together
mostly their own prose rather than links. Found from the stamps, not the links (a page shows a
few tens of those, hundreds of these): 0.6 ms a page on WCXB dev's tuning part. A post's poster is the link at the place
in the posts (a path of tags and classes) that names the most different people; its date, its
first stamp. The reading's lines are matched to the posts in page order (a line belongs to the
first post, from the one it is at, whose words hold it after the lines found there before), and
a post's author line goes above its first line (or the unmatched line just above it: its
header, whose date and number the page's text runs together), naming what the reading does not
already say of it (its poster, its date). At least MIN_POSTS posts must be found in the
reading: a page whose comments trafilatura left out gains no lines for them. Not for articles
(their comments are not their text) nor pages selling one thing (their reviews).

WCXB dev's tuning part (bench/wcxb.py, layer ``author_lines``): it fires on 7 forum threads
(phpBB, vBulletin, MyBB, FluxBB, a vBulletin trip report), forums 0.8548 -> 0.8556, 6 up (up to
+0.016) and one down (-0.005: a phpBB thread whose reading already repeats its posts' quoted
headers); on no other page of either part (the check part's 29 forums: none fires). Measured,
not kept: stamps of a day alone (a <time> "Nov 1, 2024") fired on 11 threads for -0.006 summed:
the references of XenForo threads without markup leave author lines out (-0.016 each on two),
and a listing's entries, each signed and dated by its day, would be read as posts (the tests'
blog index); runs of two posts: a vBulletin thread 0.904 -> 0.896, no two-post thread gained.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.post_run import author_line
from llmweb.fetch.html.posts import path_of
from llmweb.fetch.html.sizes import link_text_size, text_size

MIN_POSTS = 3
# of the stamped blocks, those signed with a poster's name: a thread's posts, not the boxes beside them
SIGNED_SHARE = 0.5
# a post is mostly its own prose: its links' text under this share of it
LINK_SHARE = 0.5
# a paragraph is looked for in this many posts from the one the reading is at: a thread's
# posts the reading skipped are few, and a paragraph found in none costs no more than this
_LOOK_AHEAD = 4
# the posts' characters a reading's lines are sought in, at most (a hostile page's long post and
# many lines); past it the lines left go under the post they follow
_MAX_COMPARED_CHARS = 20_000_000
_HEADER_CHARS = 80  # a post's header line ("11-29-2024, 09:03 AM #1 Web Hosting Master"); longer is text
_NAME_CHARS = 40
_DATE_CHARS = 40  # "October 01, 2024, 10:05:34 PM"; longer is a sentence, not a date
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_TIME_OF_DAY = re.compile(r"\b\d{1,2}:\d\d\b")
_WORDS = re.compile(r"\w+")


@dataclass(frozen=True)
class SignedPost:
    words: str  # the post's words, lowered, a space between each
    name: str  # its poster's name, "" when not shown
    date: str  # its date as shown, "" when not shown or an age


def signed_posts(root: HtmlElement) -> list[SignedPost]:
    """The posts of the page's thread without markup, in page order; [] when it shows no run of
    signed, stamped posts. Taken before the page's links become text (a main region's are)."""
    body = root.find("body")
    if body is None:
        return []
    stamps = _stamps(body)
    run = _signed_run(body, stamps)
    if not run:
        return []
    names = _posters(run)
    dates = _first_stamps(run, stamps)
    return [
        SignedPost(" ".join(_words(post.text_content())), name, dates.get(post, ""))
        for post, name in zip(run, names, strict=True)
    ]


# a line's markdown: a list's bullet or number, a quote's marker, a heading's
_MARKERS = re.compile(r"^\s*(?:(?:[-*+>]|\d+\.|#+)\s+)*")


def with_author_lines(posts: list[SignedPost], text: str) -> str | None:
    """``text`` with an author line above each of ``posts`` it holds, or None when it holds fewer
    than MIN_POSTS of them."""
    if len(posts) < MIN_POSTS:
        return None
    lines = text.split("\n")
    owner: list[int] = []  # the post each line belongs to, -1 before the first
    found: list[bool] = []  # whether the line's words were found in its post (else it follows one)
    at = -1
    read_to = [0] * len(posts)  # where in each post the lines found so far end: they come in order
    budget = _MAX_COMPARED_CHARS
    for line in lines:
        words = " ".join(_words(_MARKERS.sub("", line)))
        hit = False
        if words and budget > 0:
            for j in range(max(at, 0), min(len(posts), max(at, 0) + _LOOK_AHEAD)):
                budget -= len(posts[j].words) - read_to[j]
                where = posts[j].words.find(words, read_to[j])
                if where >= 0:
                    at, hit, read_to[j] = max(at, j), True, where + len(words)
                    break
        owner.append(at)
        found.append(hit)
    starts = {j: i for i, j in reversed(list(enumerate(owner))) if j >= 0}
    if len(starts) < MIN_POSTS:
        return None
    for j, i in starts.items():
        # a line just above the post's first that is found in no post is its header (its date and
        # number run together as the page's text does not have them)
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        if k >= 0 and 0 < len(lines[k].strip()) <= _HEADER_CHARS and not found[k]:
            starts[j] = k
            owner[k:i] = [j] * (i - k)
    said: dict[int, list[str]] = {}
    for i, j in enumerate(owner):
        if j >= 0:
            said.setdefault(j, []).extend(_words(lines[i]))
    heads = {j: _line(posts[j], f" {' '.join(said[j])} ") for j in starts}
    if not any(heads.values()):
        return None
    out: list[str] = []
    for i, line in enumerate(lines):
        j = owner[i]
        if j >= 0 and starts[j] == i and heads[j]:
            indent = line[: len(line) - len(line.lstrip())]  # a list item's continuation: the item's
            out.extend((indent + heads[j], indent))
        out.append(line)
    return "\n".join(out)


def _signed_run(body: HtmlElement, stamps: dict[HtmlElement, str]) -> list[HtmlElement]:
    """The posts of the page's longest run of signed, stamped blocks, in page order: found from
    the stamps up (a page shows a few tens; its links are hundreds)."""
    blocks: dict[tuple[HtmlElement, str], dict[HtmlElement, None]] = {}
    for stamp in stamps:
        child = stamp
        for parent in stamp.iterancestors():
            blocks.setdefault((parent, child.tag), {})[child] = None
            if parent is body:
                break
            child = parent
    best: list[HtmlElement] = []
    best_size = 0
    for run in blocks.values():
        if len(run) < MIN_POSTS:
            continue
        signed = sum(1 for block in run if _poster_link(block) is not None)
        if signed < MIN_POSTS or signed < SIGNED_SHARE * len(run):
            continue
        posts = list(run)  # a guest's post, its name no link, among them
        sizes = [text_size(post) for post in posts]
        if sum(link_text_size(post) for post in posts) > LINK_SHARE * sum(sizes):
            continue
        if sum(sizes) > best_size:
            best, best_size = posts, sum(sizes)
    return best


def _poster_link(block: HtmlElement) -> HtmlElement | None:
    return next(
        (a for a in block.iter("a") if a.get("href") and _name(" ".join(a.text_content().split()))), None
    )


def _line(post: SignedPost, said: str) -> str:
    """The post's author line, without what the reading already says of it."""
    name = "" if f" {' '.join(_words(post.name))} " in said else post.name
    date = "" if f" {' '.join(_words(post.date))} " in said else post.date
    return author_line(name, date)


_LINKS_LOOKED_AT = 8  # a post's first links: its poster's is near its top


def _posters(posts: list[HtmlElement]) -> list[str]:
    """Each post's poster's name: the text of the link at the place (a path of tags and classes
    from the post), found in most posts, that names the most different people (then: in the
    most posts): a reply's title ("Re: …", the same in each but the first) sits beside the
    poster's name in every post, but names two things."""
    found: list[dict[tuple[tuple[str, str], ...], str]] = []
    for post in posts:
        links = (a for a in post.iter("a") if a.get("href"))
        named: dict[tuple[tuple[str, str], ...], str] = {}
        for link in islice(links, _LINKS_LOOKED_AT):
            text = " ".join(link.text_content().split())
            if _name(text):
                named.setdefault(tuple(path_of(post, link)), text)
        found.append(named)
    paths: dict[tuple[tuple[str, str], ...], list[str]] = {}
    for named in found:
        for path, text in named.items():
            paths.setdefault(path, []).append(text)
    # a poster's link is in most posts (a guest's name may be no link): a link in a few posts'
    # messages or signatures is theirs; and it names more than one poster: the same words in
    # each post are a label ("Website", "Quote")
    paths = {
        path: texts
        for path, texts in paths.items()
        if len(texts) >= SIGNED_SHARE * len(posts) and len(set(texts)) > 1
    }
    if not paths:
        return [""] * len(posts)
    best = max(paths, key=lambda path: (len(set(paths[path])), len(paths[path])))
    return [named.get(best, "") for named in found]


# the short text nodes that may say a time of day ("09:03 AM"), found in C (a paragraph of prose
# or a script is no stamp)
_COLONS = etree.XPath("descendant::text()[contains(., ':')][string-length() <= 200]")
_MAX_STAMPS = 5_000  # bounds a hostile page's climb


def _stamps(body: HtmlElement) -> dict[HtmlElement, str]:
    """The elements showing a date and a time of day ("11-29-2024, 09:03 AM", "Tue Aug 27, 2019
    1:47 am"), in page order, with that text: a short text naming both, or the element around a
    time of day (its own, or its parent's) whose short text names both."""
    stamps: dict[HtmlElement, str] = {}
    for node in _COLONS(body):
        if len(stamps) >= _MAX_STAMPS:
            break
        if not _TIME_OF_DAY.search(node):
            continue
        text = " ".join(node.split()).strip(_TRIM)
        owner = node.getparent()
        if owner is not None and node.is_tail:
            owner = owner.getparent()
        if owner is None:
            continue
        if len(text) <= _DATE_CHARS and _YEAR.search(text):
            stamps.setdefault(owner, text)
            continue
        for el in (owner, owner.getparent()):
            if el is None:
                break
            whole = " ".join(el.text_content().split()).strip(_TRIM)
            if len(whole) > _DATE_CHARS:
                break
            if _YEAR.search(whole):
                stamps.setdefault(el, whole)
                break
    return stamps


def _first_stamps(posts: list[HtmlElement], stamps: dict[HtmlElement, str]) -> dict[HtmlElement, str]:
    """Each post's first stamp's text."""
    chosen = set(posts)
    first: dict[HtmlElement, str] = {}
    for stamp, text in stamps.items():
        for el in stamp.iterancestors():
            if el in chosen:
                first.setdefault(el, text)
                break
    return first


_TRIM = "»|·-–—, "  # a date's separators from the name before it


def _name(text: str) -> bool:
    """A poster's name: short, with a letter, no year, no time."""
    return (
        0 < len(text) <= _NAME_CHARS
        and any(c.isalpha() for c in text)
        and not _YEAR.search(text)
        and not _TIME_OF_DAY.search(text)
    )


def _words(text: str) -> list[str]:
    return _WORDS.findall(text.lower())
