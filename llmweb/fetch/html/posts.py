"""A thread's posts as its page marks them up in schema.org microdata, each with its author line. Pure.

Forum software and Q&A sites (phpBB, XenForo, vBulletin, Discourse, Stack Exchange…) mark
each post as a schema.org item — ``DiscussionForumPosting``, ``Question``, ``Answer``,
``Comment``, ``SocialMediaPosting`` — with its ``text``, ``author`` and ``datePublished``
as properties. That markup says where every post is, so such a page is read post by post,
in page order, each under its author line (``**name** · date``): a reader (and WCXB's
reference texts, which keep each post's author and date) wants to know who said what.
trafilatura, reading one main container, kept the first post or all the page's chrome.

For pages that are threads: at least two posts with text, and the page declares a thread
(:func:`.threads.declares_thread`) or its first post opens one (a forum post or a question,
not an article's comment section). WCXB's dev split measures it (bench/wcxb.py, the
``thread_posts`` layer).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.manual import manual_body
from llmweb.fetch.html.markdown import CodeBlocks, render_markdown

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


def read_posts(root: HtmlElement, codes: CodeBlocks, *, declared: bool) -> str:
    """The page's posts as markdown, each under its author line; "" when the page marks no thread."""
    posts = [
        (kind, item, body)
        for kind, item, body in _posts(root)
        if _text(body) and not (kind == "Comment" and _comments_on_answer(item))
    ]
    if len(posts) < MIN_POSTS or posts[0][0] == "Answer":  # answers without their question
        return ""
    if not (declared or posts[0][0] in OPENING_TYPES):
        return ""
    position = {el: i for i, el in enumerate(root.iter())}
    posts.sort(key=lambda post: position.get(post[2], 0))
    items = {item for _, item, _ in _posts(root)}
    blocks = []
    for _, item, body in posts:
        line = _author_line(item)
        text = render_markdown(manual_body(_without_posts(body, items)), codes)
        blocks.append(f"{line}\n\n{text}" if line else text)
    return "\n\n".join(block for block in blocks if block.strip())


def _posts(root: HtmlElement) -> Iterator[tuple[str, HtmlElement, HtmlElement]]:
    """Each post item of ``root``, its type and its body (its own ``text`` property)."""
    for el in root.iter():
        if not isinstance(el.tag, str) or el.get("itemscope") is None:
            continue
        kind = _post_type(el.get("itemtype") or "")
        if kind is None:
            continue
        body = next((p for p in _properties(el, _BODY_PROPERTIES)), None)
        if body is not None:
            yield kind, el, body


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


def _author_line(item: HtmlElement) -> str:
    author = next(_properties(item, _AUTHOR_PROPERTIES), None)
    name = ""
    if author is not None:
        named = next(_properties(author, ("name",)), None) if author.get("itemscope") is not None else None
        name = _value(named if named is not None else author)[:_MAX_AUTHOR_CHARS]
    date = ""
    dated = next(_properties(item, _DATE_PROPERTIES), None)
    if dated is not None:
        shown = " ".join(dated.text_content().split())
        stamp = (dated.get("datetime") or dated.get("content") or "").strip()
        iso = _ISO_DATE.match(stamp)
        date = shown or (iso.group(1) if iso else stamp)[:_MAX_AUTHOR_CHARS]
    return " · ".join(part for part in (f"**{name}**" if name else "", date) if part)


def _without_posts(body: HtmlElement, items: set[HtmlElement]) -> HtmlElement:
    """A copy of ``body`` without the posts nested in it (each is read on its own)."""
    if not any(el in items for el in body.iterdescendants()):
        return body
    marked = [el for el in body.iterdescendants() if el in items]
    for el in marked:
        el.set("llmweb-nested-post", "1")
    tree = copy.deepcopy(body)
    for el in marked:
        del el.attrib["llmweb-nested-post"]
    for el in list(tree.iterfind(".//*[@llmweb-nested-post]")):
        if el.getparent() is not None:
            el.drop_tree()
    etree.strip_attributes(tree, "llmweb-nested-post")
    return tree


def _text(el: HtmlElement) -> str:
    return " ".join(el.text_content().split())
