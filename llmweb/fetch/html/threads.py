"""The replies of a discussion: forum threads, Q&A pages, comment threads. Pure.

trafilatura reads a page's main text from one container and sets a thread's replies apart
as comments: on a forum or a Q&A page that left only the first post (a question without
its answers), and the answers are what a model is sent there for. A page is read as a
thread, its comments joined to the main text in page order, when it says it is one:

- schema.org data (JSON-LD or microdata) declaring a discussion, a Q&A page or its answers
  (``DiscussionForumPosting``, ``QAPage``, ``Answer``, ``Comment`` …), but not the questions and
  answers of a ``FAQPage``, a section of a shop's or a service's page; or
- it does not call itself an article (an article's comments are not its text: the article
  benchmarks leave them out), nor mark one blog entry in its microformats (an old blog's post,
  ``hentry``: :func:`.metadata.marks_one_entry`), nor declare that it sells one thing (a product's comments are its
  reviews, which WCXB's product pages leave out: 0.47 read with them, 0.85 without), and its
  replies are at least as long as its first post.

WCXB's dev split measures it (bench/wcxb.py, forum pages).
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

_THREAD_TYPES = ("DiscussionForumPosting", "QAPage", "SocialMediaPosting", "Question", "Answer")
# Each type is sought by a beginning of its name: a single capital letter is found at memory
# speed, where the search for a name whose last letter is common ("QAPage", "Question") looks
# at a third of the page's characters; the two names beginning "Q" are found in one pass. On the
# article set 0.51 -> 0.30 ms a page. Where the capital is common ("A", "S": 600 and 400 times
# a page, each met in Python) the whole name is the quicker search, and past MAX_MET capitals
# (a hostile page of them) the names are sought whole from there.
_SOUGHT = (
    ("Q", ("QAPage", "Question")),
    ("D", ("DiscussionForumPosting",)),
    ("SocialMediaPosting", ("SocialMediaPosting",)),
    ("Answer", ("Answer",)),
)
# A FAQPage's questions and answers are a section of a shop's, a service's or an article's page,
# not a discussion: beside one, only the types a thread alone declares count. WCXB dev's tuning
# part: 58 pages declare a FAQPage, 56 of them were thereby a thread (none is now); one product
# page's customer reviews stayed in its reading (.reviews leaves a thread's posts be), and one
# article no longer joins its comments to its text (F1 as before); the check part, with .reviews' data attributes:
# one page changed, articles 0.9465 -> 0.9466
_SOUGHT_BESIDE_FAQ = (
    ("Q", ("QAPage",)),
    ("D", ("DiscussionForumPosting",)),
    ("SocialMediaPosting", ("SocialMediaPosting",)),
)
MAX_MET = 5000
_WORD_CHARACTER = re.compile(r"\w")


def declares_thread(html: str) -> bool:
    """Whether the page's structured data declares a discussion or a Q&A page: one of the
    types as a whole word after a quote (a JSON-LD "@type") or after "schema.org/" (a microdata
    itemtype URL; not any "/": an image named ".../Question-Main.jpg" declares nothing)."""
    # substring searches, then a look at the characters around each: a pattern over the page
    # tried its first character class at every position (3 ms a page on WCXB dev, now 1 ms);
    # a FAQPage sought only on a page that declares a type of a thread (a search of the page)
    if not any(_declares(html, start, names, 0) for start, names in _SOUGHT):
        return False
    return "FAQPage" not in html or any(
        _declares(html, start, names, 0) for start, names in _SOUGHT_BESIDE_FAQ
    )


# a JSON-LD "@type" just before a name; a quoted "Comment" alone is often a form's label
# ("textareaLabel":"Comment")
_JSON_LD_TYPE = re.compile(r'"@type"\s*:\s*"$')


def declares_comments(html: str) -> bool:
    """Whether the page's structured data declares a ``Comment`` (a microdata itemtype URL or a
    JSON-LD "@type"): readers' posts under its text. Sought as a substring, each place then
    looked at (a pattern over a 1.5 MB page took 19 ms)."""
    at, met = html.find("Comment"), 0
    while at >= 0 and met < MAX_MET:
        if not _WORD_CHARACTER.match(html, at + len("Comment")) and (
            html.endswith(_SCHEMA_ORG, 0, at) or _JSON_LD_TYPE.search(html, max(0, at - 20), at)
        ):
            return True
        met += 1
        at = html.find("Comment", at + 1)
    return False


def _declares(html: str, start: str, names: tuple[str, ...], at: int) -> bool:
    """Whether one of ``names``, which begin with ``start``, is declared at ``at`` or after."""
    at, met = html.find(start, at), 0
    while at >= 0:
        if at and (html[at - 1] in "\"'" or html.endswith(_SCHEMA_ORG, 0, at)):
            for name in names:
                if html.startswith(name, at) and not _WORD_CHARACTER.match(html, at + len(name)):
                    return True
        met += 1
        if met > MAX_MET and start not in names:
            return any(_declares(html, name, (name,), at) for name in names)
        at = html.find(start, at + 1)
    return False


_SCHEMA_ORG = "schema.org/"


def is_thread(*, declared: bool, article: bool, product: bool, main_chars: int, replies_chars: int) -> bool:
    """Whether the replies trafilatura set apart as comments belong to the page's text."""
    if not replies_chars:
        return False
    return declared or (not article and not product and replies_chars >= main_chars)


def replies_text(comments: HtmlElement | None) -> str:
    """Characters of the comments' text, to weigh them against the main text."""
    return "" if comments is None else " ".join("".join(comments.itertext()).split())
