"""A thread's posts as its page marks them (schema.org microdata) or lists them (JSON-LD),
each under its author line. Pure.

Forum software and Q&A sites (XenForo, vBulletin, Discourse, Stack Exchange…) mark each
post as a schema.org item — ``DiscussionForumPosting``, ``Question``, ``Answer``,
``Comment``, ``SocialMediaPosting`` — with its ``text``, ``author`` and ``datePublished``
as properties. That markup says where every post is, so such a page is read post by post,
in page order, each under its author line (``**name** · date``): a reader (and WCXB's
reference texts, which keep each post's author and date) wants to know who said what.
trafilatura, reading one main container, kept the first post or all the page's chrome.
Around that:

- an opening post the page describes in JSON-LD and leaves unmarked is the container of
  the marked posts' shape beside them (:func:`_unmarked_twins`);
- the comments under a Q&A page's question and answers are asides, left out;
- a reply's quote of an earlier post is left out (the earlier post stands);
- a link to nowhere that calls itself a button (a quote's "Click to expand...") is left out;
- an author line's date is the one the page shows beside the post, where the post's date
  property is a timestamp only (:func:`_shown_dates`);
- a thread whose markup marks no post but whose JSON-LD lists them (Invision Community; a
  comment tree nested reply in reply; a Q&A page's question and answers after Google's QAPage
  format) is read from that list when the page shows those posts (:func:`read_described_posts`).
- a thread a page writes only in its ``<noscript>`` (Discourse's crawler view) is shown before
  ``<noscript>`` goes as furniture (:func:`show_scriptless_thread`).

For pages that are threads: at least two posts with text, and the page declares a thread
(:func:`.threads.declares_thread`) or its first post opens one (a forum post or a question,
not an article's comment section). WCXB's dev split measures it (bench/wcxb.py, the
``thread_posts`` and ``thread_json_ld`` layers).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.manual import drop_button_links, manual_body
from llmweb.fetch.html.markdown import CodeBlocks, render_markdown
from llmweb.fetch.html.marks import Marked
from llmweb.fetch.javascript.payloads import Budget, find_payloads

POST_TYPES = frozenset({"DiscussionForumPosting", "Question", "Answer", "Comment", "SocialMediaPosting"})
# a first post of one of these opens a thread; a page whose posts are all comments is a
# thread only when it says so (a blog's comment section is not the article)
OPENING_TYPES = frozenset({"DiscussionForumPosting", "Question", "SocialMediaPosting"})
_BODY_PROPERTIES = ("text", "articleBody")
_DATE_PROPERTIES = ("datePublished", "dateCreated")
_AUTHOR_PROPERTIES = ("author", "creator")
_MAX_AUTHOR_CHARS = 80
_ISO_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ]\d|$)")
MIN_POSTS = 2


@dataclass(frozen=True)
class _Post:
    kind: str  # its schema.org type, or UNMARKED
    item: HtmlElement  # the post's container
    body: HtmlElement  # its text
    author: HtmlElement | None  # the element holding its author's name
    dated: HtmlElement | None  # the element holding its date


UNMARKED = "unmarked"  # a post container shaped like its marked siblings, without markup of its own


def read_posts(root: HtmlElement, codes: CodeBlocks, *, declared: bool) -> str:
    """The page's posts as markdown, each under its author line; "" when the page marks no thread."""
    marked = [
        post
        for post in _outermost(list(_marked_posts(root)))
        if _text(post.body) and not (post.kind == "Comment" and _comments_on_answer(post.item))
    ]
    if not marked:  # most pages: no post, and no twin of one (the page order below reads every element)
        return ""
    position = {el: i for i, el in enumerate(root.iter())}
    posts = sorted([*marked, *_unmarked_twins(marked)], key=lambda post: position.get(post.body, 0))
    if len(posts) < MIN_POSTS or posts[0].kind == "Answer":  # answers without their question
        return ""
    if not (declared or posts[0].kind in OPENING_TYPES):
        return ""
    blocks = []
    said: set[int] = set()  # the word runs of the posts before, hashed
    shown = _shown_dates(root)
    for post in posts:
        tree = manual_body(post.body)
        for quote in list(tree.iter("quote")):
            if _repeats(quote, said) and quote.getparent() is not None:
                quote.drop_tree()
        # after: a quote's "Click to expand..." counted in the test above, which kept quotes the
        # references keep (measured without it: WCXB dev's tuning part, a XenForo thread
        # 0.920 -> 0.910, its quotes of earlier posts dropped; the check part's forums -0.0001)
        drop_button_links(tree)
        if len(said) < MAX_SAID_RUNS:
            said.update(_runs(_words(tree)))
        text = render_markdown(tree, codes)
        author_line = _author_line(post.author, post.dated, shown)
        blocks.append(f"{author_line}\n\n{text}" if author_line else text)
    return "\n\n".join(block for block in blocks if block.strip())


# items whose type names a post (checked exactly by _post_type), all of them and those in a <noscript>
_NAMES_POST = " or ".join(f"contains(@itemtype, '{name}')" for name in sorted(POST_TYPES))
_ITEMS = etree.XPath(f"descendant::*[@itemscope][{_NAMES_POST}]")
_HIDDEN_ITEMS = etree.XPath(f"descendant::noscript/descendant::*[@itemscope][{_NAMES_POST}]")


def show_scriptless_thread(root: HtmlElement) -> bool:
    """Show the thread a page writes only for browsers without scripts: its ``<noscript>`` parts,
    when they hold the page's marked posts and nothing outside them is marked a post.

    Discourse serves each topic as an empty application and, in a ``<noscript>``, the topic as a
    crawler reads it, every post marked up (a ``DiscussionForumPosting`` and its ``Comment`` s).
    A ``<noscript>`` is dropped with the page's furniture before the posts are looked for, so
    such a thread was read through trafilatura, its posts without their author lines. A page that
    also shows its posts keeps its ``<noscript>`` copy out. Returns whether any was shown.
    """
    body = root.find("body")
    if body is None or not _HIDDEN_ITEMS(body):  # most threads: nothing in a <noscript>
        return False
    hidden: dict[HtmlElement, None] = {}  # the outermost <noscript> around each post, in order
    for item in _ITEMS(body):
        if _post_type(item.get("itemtype") or "") is None:
            continue
        outermost = None
        for el in item.iterancestors("noscript"):
            outermost = el
        if outermost is None:
            return False  # the page shows its posts: the <noscript> is a copy
        hidden[outermost] = None
    for el in hidden:
        el.tag = "div"
    return bool(hidden)


def _outermost(posts: list[_Post]) -> list[_Post]:
    """The posts whose text is not inside another post's text: a post nested in another's text
    is read as part of it, so that each element is read once (and a page of posts nested in
    posts costs no more than a flat one)."""
    bodies = {post.body for post in posts}
    return [post for post in posts if not any(el in bodies for el in post.body.iterancestors())]


# A quote is a post quoting an earlier one when most of its runs of this many words were
# said before in the thread: it is dropped, the earlier post stands (WCXB dev, tuning part:
# dropping every quote cost answers that quote documentation; 8 words rarely repeat by chance).
# WCXB's references disagree (XenForo threads keep such quotes on some sites, leave them out on
# others): keeping them all, measured on 76de780's tuning part, took forum 0.8322 -> 0.8220
# (7 threads up by at most 0.06, 11 down by up to 0.30).
QUOTE_RUN_WORDS = 8
QUOTE_REPEATED_SHARE = 0.5
# the runs remembered, at most: a quote of a thread's later pages of text stays (bounds memory)
MAX_SAID_RUNS = 200_000


def _words(el: etree._Element) -> list[str]:
    return re.findall(r"\w+", "".join(el.itertext()).lower())


def _runs(words: list[str]) -> set[int]:
    n = min(QUOTE_RUN_WORDS, len(words))
    return {hash(tuple(words[i : i + n])) for i in range(len(words) - n + 1)} if n else set()


def _repeats(quote: etree._Element, said: set[int]) -> bool:
    """Whether ``quote`` mostly repeats the words of the thread's earlier posts."""
    words = _words(quote)
    if not words or not said:
        return False
    if len(words) < QUOTE_RUN_WORDS:  # a short quote: repeated if said whole, as a run's start
        return False
    runs = _runs(words)
    return len(runs & said) >= QUOTE_REPEATED_SHARE * len(runs)


# every item of a page, found in C (a third faster than testing each element in Python)
_ITEMS = Marked("descendant-or-self::*", "@itemscope")


def _marked_posts(root: HtmlElement) -> Iterator[_Post]:
    """Each post item of ``root`` with its body (its own ``text`` property) and author line."""
    for el in _ITEMS(root):
        kind = _post_type(el.get("itemtype") or "")
        if kind is None:
            continue
        body = next(_properties(el, _BODY_PROPERTIES), None)
        if body is not None:
            author, date = _author_and_date(el)
            yield _Post(kind, el, body, author, date)


def _unmarked_twins(marked: list[_Post]) -> list[_Post]:
    """The siblings of marked posts built the same way but not marked up: a forum that
    describes its opening post in JSON-LD marks only the replies in the page, and the
    opening post is the container of the same kind just before them.

    A twin has the marked post's tag and first class name, and its body, author and date
    are found where the marked post has them (the same path of tags and classes).

    XenForo's marked replies wrap the poster's name in a ``<span itemprop="name">`` the opening
    post lacks, so its author line is its date alone. Looking one or two wrappers up (when they
    hold the name and nothing else) named it on 13 tuning threads of WCXB dev, for +0.0017 F1
    summed over them (a reference leaving author lines out lost 0.005) and no change in the check
    part's forum figure: not kept (i22forum10).
    """
    twins: list[_Post] = []
    items = {post.item for post in marked}
    bodies = {post.body for post in marked}
    # a sibling holding a marked post's text is a wrapper, not a twin
    holding = {el for post in marked for el in post.body.iterancestors()}
    parents = set()
    for post in marked:
        parent = post.item.getparent()
        if parent is None or parent in parents:
            continue
        parents.add(parent)
        shape = shape_of(post.item)
        author, date = _author_and_date(post.item)
        for sibling in parent:
            if sibling in items or not isinstance(sibling.tag, str) or shape_of(sibling) != shape:
                continue
            if sibling in holding or sibling in bodies or any(el in bodies for el in sibling.iterancestors()):
                continue
            if _post_type(sibling.get("itemtype") or "") is not None:
                continue
            body = follow_path(sibling, path_of(post.item, post.body))
            if body is None or not _text(body):
                continue
            twin_author = follow_path(sibling, path_of(post.item, author)) if author is not None else None
            twin_date = follow_path(sibling, path_of(post.item, date)) if date is not None else None
            twins.append(_Post(UNMARKED, sibling, body, twin_author, twin_date))
    return twins


def shape_of(el: HtmlElement) -> tuple[str, str]:
    """An element's tag and first class name: what containers built alike share."""
    return str(el.tag), next(iter((el.get("class") or "").split()), "")


def path_of(top: HtmlElement, el: HtmlElement) -> list[tuple[str, str]]:
    """The shapes of the elements from below ``top`` down to ``el``."""
    chain = []
    while el is not None and el is not top:
        chain.append(shape_of(el))
        el = el.getparent()
    return chain[::-1]


def follow_path(top: HtmlElement, path: list[tuple[str, str]]) -> HtmlElement | None:
    """The first element below ``top`` reached through children of the shapes of ``path``."""
    level = [top]
    for shape in path:
        level = [
            child for el in level for child in el if isinstance(child.tag, str) and shape_of(child) == shape
        ]
        if not level:
            return None
    return level[0]


def _comments_on_answer(item: HtmlElement) -> bool:
    """Whether a comment belongs to a question or an answer of a Q&A page: an aside under
    the post (WCXB's references leave them out), not a post of the thread."""
    return any(_post_type(el.get("itemtype") or "") in ("Question", "Answer") for el in item.iterancestors())


def _post_type(itemtype: str) -> str | None:
    for url in itemtype.split():
        name = url.rstrip("/").rsplit("/", 1)[-1]
        if name in POST_TYPES:
            return name
    return None


def _properties(item: HtmlElement, names: tuple[str, ...]) -> Iterator[HtmlElement]:
    """The elements carrying one of ``names`` as a property of ``item`` itself, in page order.

    A property belongs to the nearest enclosing item (microdata's rule): the walk does not
    go into nested items, but a nested item is itself a property of this one.
    """
    stack = list(reversed(item))
    while stack:
        el = stack.pop()
        if not isinstance(el.tag, str):
            continue
        if set((el.get("itemprop") or "").split()) & set(names):
            yield el
        if el.get("itemscope") is None:
            stack.extend(reversed(el))


def _value(el: HtmlElement) -> str:
    """A property's value as a reader sees it: its text, else its machine-readable attribute."""
    text = " ".join(el.text_content().split())
    if text:
        return text
    return " ".join((el.get("content") or el.get("datetime") or el.get("title") or "").split())


def _author_and_date(item: HtmlElement) -> tuple[HtmlElement | None, HtmlElement | None]:
    """The elements holding a post item's author's name and its date, where it has them."""
    author = next(_properties(item, _AUTHOR_PROPERTIES), None)
    if author is not None and author.get("itemscope") is not None:
        author = next(_properties(author, ("name",)), author)
    return author, next(_properties(item, _DATE_PROPERTIES), None)


def _author_line(author: HtmlElement | None, dated: HtmlElement | None, shown: Mapping[object, str]) -> str:
    """``**name** · date``, or what of it the post shows."""
    name = _value(author)[:_MAX_AUTHOR_CHARS] if author is not None else ""
    date = ""
    if dated is not None:
        stamp = (dated.get("datetime") or dated.get("content") or "").strip()
        date = (" ".join(dated.text_content().split()) or _shown_date(stamp, shown))[:_MAX_AUTHOR_CHARS]
    return " · ".join(part for part in (f"**{name}**" if name else "", date) if part)


_DATED = etree.XPath("/descendant::body/descendant::time[@datetime]")
_MAX_SHOWN_DATE_CHARS = 40  # "Jan 14, 2024 at 9:50 PM"; longer is a sentence, not a date


def _shown_dates(root: HtmlElement) -> dict[object, str]:
    """The date each ``<time datetime>`` of the page shows, by the instant it stands for.

    A post's date property is often a ``<meta>`` (or its JSON-LD's ``dateCreated``) holding a
    timestamp, while the page shows the same instant beside the post as a ``<time>`` a reader
    sees ("Jan 14, 2024", "June 14, 2024"); the author line takes that text, as a reader (and
    WCXB's reference texts) has it. Its first text is taken: a ``<time>`` holding a long and a
    short form ("June 14, 2024" "1 yr", one hidden by a style sheet) shows the long one first.
    Only a text naming the instant's year is a date: an age ("1 yr", "Yesterday at 3:12 PM")
    leaves the ISO day in place.
    """
    shown: dict[object, str] = {}
    for el in _DATED(root):
        text = next((" ".join(part.split()) for part in el.itertext() if part.strip()), "")
        instant = _instant(el.get("datetime") or "")
        if not text or len(text) > _MAX_SHOWN_DATE_CHARS or instant in shown:
            continue
        # a date, not an age: "1 yr", "2d", "Yesterday" say nothing once the page is read later
        if isinstance(instant, datetime) and str(instant.year) not in text:
            continue
        shown[instant] = text
    return shown


def _instant(stamp: str) -> object:
    """The instant a timestamp stands for (the same one written "-05:00", "-0500" or in UTC), or
    the timestamp itself when it does not parse."""
    try:
        return datetime.fromisoformat(stamp.strip())
    except ValueError:
        return stamp.strip()


_SECOND = timedelta(seconds=1)


def _shown_date(stamp: str, shown: Mapping[object, str]) -> str:
    """What the page shows for the timestamp ``stamp``, or its ISO day when the page shows none."""
    if not stamp:
        return ""
    instant = _instant(stamp)
    if (text := shown.get(instant)) is not None:
        return text
    if isinstance(instant, datetime):
        # the same instant written with its fraction of a second rounded one way and cut the other
        # (Discourse: the post's <meta> 14:43:36, the <time> beside it 14:43:37, of 14:43:36.774)
        for near in (instant + _SECOND, instant - _SECOND):
            if (text := shown.get(near)) is not None:
                return text
    iso = _ISO_DATE.match(stamp.strip())
    return iso.group(1) if iso else stamp


def _text(el: HtmlElement) -> str:
    return " ".join(el.text_content().split())


# --- posts a page describes in JSON-LD -------------------------------------------------------


def read_described_posts(root: HtmlElement) -> str:
    """The posts of a thread its JSON-LD lists, when the page shows them too, as markdown each
    under its author line; "" otherwise. A thread is a ``DiscussionForumPosting`` (or a
    ``SocialMediaPosting``) and its ``comment`` list, replies to a comment nested in its own
    list (read depth first, as a threaded page shows them), or a Q&A page's ``Question`` and
    its ``acceptedAnswer`` and ``suggestedAnswer`` s (answers in the order the page shows
    them), each with text, author and date; found at the top of the data, in its ``@graph``
    or as a page's ``mainEntity``.

    For threads whose markup marks no post (Invision Community writes its posts this way, Q&A
    sites their answers after Google's QAPage format): the data says where one post ends and
    the next begins, which the page's containers do not. Only posts the page shows are a
    thread's (the data of a page that shows none is left to
    :mod:`llmweb.fetch.javascript.shell`): most of them must open with words of the visible
    text. A question whose data lists fewer answers than its ``answerCount`` says it
    has is no reading of its page (a site that lists the top few answers and shows them all).
    """
    posts = _described_posts(root)
    if not posts:
        return ""
    shown = _shown_dates(root)
    described = [(_author_line_of(post, shown), _paragraphs(post)) for post in posts]
    described = [(line, paragraphs) for line, paragraphs in described if paragraphs]
    if len(described) < MIN_POSTS:
        return ""
    visible = " ".join(
        _words_of(" ".join(root.xpath("/descendant::body/descendant::text()[not(ancestor::script)]")))
    )
    where = [
        visible.find(" ".join(_words_of(paragraphs[0])[:QUOTE_RUN_WORDS])) for _, paragraphs in described
    ]
    if sum(1 for at in where if at >= 0) * 2 <= len(described):
        return ""
    if posts and _kind(posts[0]) == "Question":  # answers in page order: the accepted one may lead or not
        answers = sorted(range(1, len(described)), key=lambda i: (where[i] < 0, where[i], i))
        described = [described[0], *(described[i] for i in answers)]
    return "\n\n".join(
        "\n\n".join([line, *paragraphs] if line else paragraphs) for line, paragraphs in described
    )


_THREAD_NODE_TYPES = ("DiscussionForumPosting", "SocialMediaPosting")
_MAX_DESCRIBED_POSTS = 2_000  # a thread's page shows tens; bounds a hostile page's nesting and size


def _described_posts(root: HtmlElement) -> list[dict[str, Any]]:
    """The first thread of the page's JSON-LD that lists its replies: its opening post and the
    replies, depth first; [] when none does."""
    for payload in find_payloads(root, Budget()):
        if payload.kind != "jsonld":
            continue
        for node in _thread_nodes(payload.data):
            kind = _kind(node)
            if kind == "Question":
                answers = [*_as_list(node.get("acceptedAnswer")), *_as_list(node.get("suggestedAnswer"))]
                answers = [answer for answer in answers if isinstance(answer, dict)]
                declared = _count(node.get("answerCount"))
                if answers and (declared is None or declared <= len(answers)):
                    return [node, *answers[:_MAX_DESCRIBED_POSTS]]
            elif node.get("comment"):
                return [node, *_comment_tree(node)]
    return []


def _thread_nodes(data: Any) -> Iterator[dict[str, Any]]:
    """The data's threads, at its top, in its ``@graph`` or as a page's ``mainEntity``, and a
    Q&A page's question (its ``mainEntity``; not an FAQ's questions, which are the page's own
    text, nor a question standing alone in a graph, as FAQ blocks write them)."""
    nodes = [node for node in _as_list(data) if isinstance(node, dict)]
    nodes += [inner for outer in nodes for inner in _as_list(outer.get("@graph")) if isinstance(inner, dict)]
    for node in nodes:
        kind = _kind(node)
        if kind in _THREAD_NODE_TYPES:
            yield node
        for inner in _as_list(node.get("mainEntity")):
            if not isinstance(inner, dict):
                continue
            if _kind(inner) in _THREAD_NODE_TYPES or (kind == "QAPage" and _kind(inner) == "Question"):
                yield inner


def _comment_tree(node: dict[str, Any]) -> list[dict[str, Any]]:
    """The comments under ``node`` and their replies, depth first (a reply under the comment it
    answers, as a threaded page shows it)."""
    found: list[dict[str, Any]] = []
    stack = list(reversed(_as_list(node.get("comment"))))
    while stack and len(found) < _MAX_DESCRIBED_POSTS:
        comment = stack.pop()
        if isinstance(comment, dict):
            found.append(comment)
            stack.extend(reversed(_as_list(comment.get("comment"))))
    return found


def _count(value: Any) -> int | None:
    """A declared count (``answerCount``), written as a number or a numeral."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _kind(node: dict[str, Any]) -> str:
    kind = node.get("@type")
    return kind if isinstance(kind, str) else next((k for k in _as_list(kind) if isinstance(k, str)), "")


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [] if value is None else [value]


def _author_line_of(post: dict[str, Any], shown: Mapping[object, str]) -> str:
    author = next(iter(_as_list(post.get("author"))), None)
    name = author.get("name") if isinstance(author, dict) else author
    name = " ".join(name.split())[:_MAX_AUTHOR_CHARS] if isinstance(name, str) else ""
    stamp = post.get("dateCreated") or post.get("datePublished")
    date = _shown_date(stamp, shown) if isinstance(stamp, str) and _ISO_DATE.match(stamp.strip()) else ""
    return " · ".join(part for part in (f"**{name}**" if name else "", date[:_MAX_AUTHOR_CHARS]) if part)


def _paragraphs(post: dict[str, Any]) -> list[str]:
    text = post.get("text") or post.get("articleBody")
    if not isinstance(text, str):
        return []
    lines = (" ".join(line.split()) for line in html.unescape(text).splitlines())
    return [line for line in lines if line]


def _words_of(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())
