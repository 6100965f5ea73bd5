"""Manuals: whether a page is one (not a discussion), its main region, and that region read whole. Pure.

trafilatura judges every block of a page: short ones, link-heavy ones, ones whose class
names sound like boilerplate ("meta", "bar", "expand"), headings followed by headings. On
an article that removes bylines and share bars; on generated documentation it removed
what each generator happens to write in such blocks: Node.js's "Added in: v8.3.0" and
history tables, Doxygen's section headings, Haddock's examples and instance lists. Once
the page's main region is known (declared by the page, or found by peeling navigation off
the body), everything a reader sees in it is content, as the docs bench's gold text is:
:func:`manual_body` turns the region into the element names :mod:`.markdown` renders
(head, p, list/item, table/row/cell, quote, code, lb), drops only what a browser does not
show and its menus and footers, and leaves the rest to the renderer.
"""

from __future__ import annotations

import copy
import re

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.marks import Marked
from llmweb.fetch.html.sizes import link_text_size

# found from their attributes (.marks), cheaper than the two searches of the raw HTML
# ("main-content", role="main") that once ruled pages out before it
_DECLARED_MAIN = Marked("/descendant::*", "@role[.='main']", "@id[.='main-content']")


def declared_main(root: HtmlElement) -> list[HtmlElement]:
    """The regions a page declares as its main content (Sphinx ``role="main"``, rustdoc
    ``id="main-content"``, Javadoc ``<main role="main">``), none inside another.

    A page may declare its main region twice, one inside the other (``<main role="main">``
    around ``<div id="main-content">``): read whole, each region's text came once for each.
    WCXB dev's tuning part: 24 of its 998 pages nest declared regions, none of them read as a
    manual; read whole as if they showed code, the 7 whose text came twice went from 0.65 to 0.98
    (the 24: 0.844 -> 0.964 and 0.844 -> 0.915 on the halves by id parity, the others as before).
    """
    regions = list(_DECLARED_MAIN(root))
    if len(regions) < 2:
        return regions
    declared = set(regions)
    return [region for region in regions if not any(above in declared for above in region.iterancestors())]


_CHROME_TAGS = frozenset(
    {"nav", "header", "footer", "aside", "form", "script", "style", "noscript", "template"}
)
# Descending into a child leaves its siblings out of the region: only when they hold little
# text outside links (5 % of the text) or are mostly link text (60 %), the marks of
# navigation, and the child holds at least half of the text. Measured on the docs bench's
# five generators without a declared region, the region found held 93-99 % of the main
# element's text on average.
_SIBLINGS_LITTLE = 0.05
_SIBLINGS_LINKED = 0.6


_CONTENT_IDS = Marked("/descendant::*", "@id[contains(translate(., 'CONTENT', 'content'), 'content')]")
_CONTENT_ID = re.compile(r"content$", re.I)


def main_region(root: HtmlElement) -> list[HtmlElement]:
    """The region holding the text of a page that declares none (Haddock's, Doxygen's,
    Node.js's, Django's manuals).

    HTML's own <main>, else the innermost element whose id ends in "content" (content,
    doc-content, apicontent), the name generators give their main region, if it holds half
    of the page's text; else, from the body down, the child holding most of the text while
    what stays beside it looks like navigation.
    """
    node = root.find("body")
    if node is None:
        return []
    half = _text_size(node) / 2
    named = [el for el in node.iter("main") if _text_size(el) >= half] or [
        el for el in _CONTENT_IDS(node) if _CONTENT_ID.search(el.get("id") or "") and _text_size(el) >= half
    ]
    if named:
        return [named[-1]]  # in document order, so the last of a nested run is the innermost
    while node is not None:
        children = [child for child in node if isinstance(child.tag, str) and child.tag not in _CHROME_TAGS]
        if not children:
            break
        sizes = [(_text_size(child), child) for child in children]
        size, biggest = max(sizes, key=lambda pair: pair[0])
        total = _text_size(node)
        rest = total - size
        rest_linked = link_text_size(node) - link_text_size(biggest)
        if size < total / 2 or (
            rest - rest_linked > _SIBLINGS_LITTLE * total and rest_linked < _SIBLINGS_LINKED * rest
        ):
            break
        node = biggest
    return [] if node is None else [node]


# A documentation generator named by the page: in its generator meta tag, or in the name of
# a script or style sheet it ships (Haddock's pages carry only "haddock-bundle.min.js").
_GENERATORS = (
    r"(?:doxygen|docutils|sphinx|javadoc|rustdoc|haddock|mkdocs|docusaurus|jsdoc|typedoc|pdoc|godoc)"
)
_DOC_GENERATOR = re.compile(
    rf"""<meta\s[^>]*name=["']?generator["']?[^>]*content=["'][^"']*{_GENERATORS}"""
    rf"""|<(?:script|link)\s[^>]*(?:src|href)=["'][^"']*{_GENERATORS}""",
    re.I,
)
# Where a code element opens: one scan of the page that stops at the third (five str.count
# calls read every page whole five times, 1.5 ms a page on WCXB dev; this takes a fifth of it)
_CODE_TAG = re.compile(r"<(?:code|pre|tt>|kbd|samp)")
_MANUAL_CODE_TAGS = 3


def looks_like_documentation(html: str) -> bool:
    """Code in the page (three code elements; none of the article benchmark's 127 pages has
    that many), or a documentation generator's name in its head."""
    code_tags = sum(1 for _ in zip(range(_MANUAL_CODE_TAGS), _CODE_TAG.finditer(html), strict=False))
    return code_tags >= _MANUAL_CODE_TAGS or bool(_DOC_GENERATOR.search(html, 0, 20_000))


# A region read whole holds the page's code and a fair share of its text. Where the region
# found held none of the code that made the page look like documentation (a product page's
# widget code beside its main column) or under this share of the body's text (a Q&A page's
# declared main, one column of many), reading it whole lost F1 on every such page of WCXB
# dev's tuning part (products 0.62 and 0.65 against 0.95 and 0.83 read by trafilatura).
_REGION_SHARE = 0.2
_HAS_CODE = etree.XPath(
    "boolean(descendant::code | descendant::pre | descendant::tt | descendant::kbd | descendant::samp)"
)


def reads_whole(region: list[HtmlElement], body: HtmlElement | None, code_marker: str, html: str) -> bool:
    """Whether a documentation page's main region is its manual, to be read whole: it holds
    at least a fifth of the body's text and, on a page taken for documentation by its code
    rather than by its generator's name, code (an element, or the placeholder ``code_marker``
    a code block was swapped for). Doxygen writes its code as divs, not code elements."""
    if not region or body is None or region[0] is body:
        return False
    texts = ["".join(main.text_content().split()) for main in region]
    if sum(map(len, texts)) < _REGION_SHARE * _text_size(body):
        return False
    if any(holds_discussion(main) for main in region):
        return False
    if _DOC_GENERATOR.search(html, 0, 20_000):
        return True
    return any(code_marker in text for text in texts) or any(_HAS_CODE(main) for main in region)


# A region read whole holding one <article> (none nested in another) with half its text or more:
# the article is the manual, and what sits beside it in the region is the site's: a blog's
# author box and "Recent posts", Docusaurus's "On this page" column after the text. WCXB dev's
# tuning part: 5 pages changed, all higher (+0.074 summed; 2 articles, 3 manuals).
_ARTICLE_SHARE = 0.5
_OUTER_ARTICLES = etree.XPath("descendant::article[not(ancestor::article)]")


def own_article(main: HtmlElement) -> HtmlElement:
    """The part of a region read whole that is the manual: its one outermost ``<article>`` when
    that holds half of its text or more (``<article>`` marks a self-contained composition),
    else the region itself."""
    articles = _OUTER_ARTICLES(main)
    if len(articles) == 1 and _text_size(articles[0]) >= _ARTICLE_SHARE * _text_size(main):
        return articles[0]
    return main


# A discussion: posts by several people, each signed with its poster's picture and name and
# dated. A post opens with a link to its poster shown as a picture (an avatar) and as a name,
# the picture and the name one link or two links to the same page; three such posts side by
# side, each with a date, are a thread, whatever code its posts quote.
_DISCUSSION_POSTS = 3
_POSTER_LINKS = etree.XPath("descendant::a[@href][descendant::img]")
_NAME_CHARS = 40
_SITE = re.compile(r"^(?:https?:)?//[^/]+")
_DATED = re.compile(
    r"\b(?:19|20)\d\d\b|\b\d+\s+(?:second|minute|hour|day|week|month|year)s?\s+ago"
    r"|\b(?:an?|one)\s+(?:hour|day|week|month|year)\s+ago",
    re.I,
)


def holds_discussion(region: HtmlElement) -> bool:
    """Whether ``region`` holds a thread's posts: three sibling blocks of one tag, each holding
    a poster's link (a picture and a name for one page) and a date (a <time>, a year, an age)."""
    return bool(discussion_posts(region))


def discussion_posts(region: HtmlElement) -> list[HtmlElement]:
    """The dated posts of the longest run :func:`holds_discussion` finds in ``region`` (none
    when it finds none), in no particular order."""
    blocks: dict[tuple[object, str], set[HtmlElement]] = {}
    named: dict[HtmlElement, set[str]] = {}  # the pages an element's named links go to, made once
    for link in _POSTER_LINKS(region):
        if not _names_poster(link, named):
            continue
        child = link
        for parent in link.iterancestors():
            blocks.setdefault((parent, child.tag), set()).add(child)
            if parent is region:
                break
            child = parent
    runs = [
        dated
        for run in blocks.values()
        if len(run) >= _DISCUSSION_POSTS
        and len(dated := [block for block in run if _dated(block)]) >= _DISCUSSION_POSTS
    ]
    return max(runs, key=len, default=[])


def signed_and_dated(block: HtmlElement) -> bool:
    """Whether ``block`` is signed and dated as a post is: it holds a date (a <time>, a year, an
    age) and a link naming a poster (a name, or a picture beside a link to the same page as one)."""
    return _dated(block) and poster_link(block) is not None


def poster_link(block: HtmlElement) -> HtmlElement | None:
    """The first link of ``block`` naming its poster, by name (a picture's link is passed over)."""
    for link in block.iter("a"):
        if link.get("href") and _name(" ".join(link.text_content().split())):
            return link
    return None


_SHOWN_DATE_CHARS = 40  # "October 01, 2024, 10:05:34 PM"; longer is a sentence, not a date


def shown_date(block: HtmlElement) -> HtmlElement | None:
    """The element showing the date ``block`` is signed with: its first <time>, else the first
    element whose own short text is a date."""
    time = block.find(".//time")
    if time is not None:
        return time
    for el in block.iter():
        text = (el.text or "").strip() if isinstance(el.tag, str) else ""
        if text and len(text) <= _SHOWN_DATE_CHARS and _DATED.search(text):
            return el
    return None


def _names_poster(link: HtmlElement, named: dict[HtmlElement, set[str]]) -> bool:
    """Whether ``link`` names a poster, or shows a picture beside a link naming the same page.
    ``named`` keeps each ancestor's named links' pages: the links of a gallery's container, looked
    through again for each of its pictures, took time the square of their number."""
    text = " ".join(link.text_content().split())
    if text:
        return _name(text)
    target = _target(link)
    parent = link.getparent()
    for _ in range(3):  # the name is beside the picture, a few levels up at most
        if parent is None:
            return False
        if parent not in named:
            named[parent] = {
                _target(a) for a in parent.iter("a") if _name(" ".join(a.text_content().split()))
            }
        if target in named[parent]:
            return True
        parent = parent.getparent()
    return False


def _target(link: HtmlElement) -> str:
    return _SITE.sub("", link.get("href", "")).lstrip("./")


def _name(text: str) -> bool:
    """A person's name: short, with a letter, and no date (a version's link reads "2.53.0 2026-02-02")."""
    return 0 < len(text) <= _NAME_CHARS and any(c.isalpha() for c in text) and not _DATED.search(text)


def _dated(block: HtmlElement) -> bool:
    return block.find(".//time") is not None or _DATED.search(block.text_content()) is not None


def unlink(region: HtmlElement) -> None:
    """Make the links of a declared main region plain text, so that trafilatura keeps them.

    trafilatura deletes short blocks made mostly of links as navigation. In documentation
    those are cross-references: a signature linking its types, a method summary ending in
    "Read more", a module's index of pages; rustdoc pages lost half their text and Sphinx
    index pages nearly all of it. (A manual read whole does not go through trafilatura;
    this is for the pages that do, such as articles declaring their main region.)
    """
    for a in list(region.iter("a")):
        a.tag = "span"
        a.attrib.clear()


def _text_size(el: HtmlElement) -> int:
    return len("".join(el.text_content().split()))


# Not shown: scripting, styling, form controls, embedded documents (an <iframe>'s text is
# the fallback a browser replaces), vector drawings.
_UNSEEN = (
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "button",
    "input",
    "select",
    "textarea",
    "iframe",
)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)

_CONTAINERS = frozenset({
    "div", "section", "article", "main", "header", "footer", "nav", "aside", "figure", "figcaption",
    "details", "summary", "center", "address", "fieldset", "legend", "hgroup", "form", "caption",
    "dialog", "menu", "body",
})  # fmt: skip
_INLINE_CODE = frozenset({"code", "tt", "kbd", "samp"})
_EMPHASIS = frozenset({"b", "strong", "i", "em"})
_LISTS = frozenset({"ul", "ol", "dl"})


def manual_body(
    region: HtmlElement, *, drop_contents: bool = False, drop_dates: bool = False
) -> etree._Element:
    """A copy of ``region`` whose elements carry :mod:`.markdown`'s names (with ``drop_contents``,
    without the page's own table of contents and the menus above its title; with ``drop_dates``,
    without its ``<time>`` elements)."""
    tree = copy.deepcopy(region)
    etree.strip_elements(tree, *_UNSEEN, with_tail=False)
    drop_trails(tree)
    holders = _in_page_link_holders(tree) if drop_contents else set()
    titles = {_title(head) for head in tree.iter(*_HEADINGS)} if holders else set()
    # A manual's dates: a <time> in a region read whole is a date the page states about itself, a
    # post's dateline under its title ("Dec 19, 2025") or "Last updated 1 year ago": the page's date
    # (ExtractedPage.published), not its text; trafilatura drops those lines from the pages it reads
    # and WCXB's gold leaves them out. Not for a thread's posts (.posts): their gold keeps each
    # post's date. WCXB dev's tuning part: 6 manuals read whole changed, all higher (+0.008 summed;
    # 5 blog posts with code, a GitBook page); dropped only where the <time> is all its block says,
    # half of that (a dateline beside the title in one block stayed).
    for el in list(tree.iter()):
        if not isinstance(el.tag, str):
            continue
        if (
            el is not tree
            and el.getparent() is not None
            and (
                _hidden(el)
                or _navigation(el)
                or (el.tag == "time" and drop_dates)
                or (el in holders and _contents(el, titles))
            )
        ):
            el.drop_tree()
    if drop_contents:
        for menu in _menus_above_title(tree):
            menu.drop_tree()
    etree.strip_tags(tree, "thead", "tbody", "tfoot", "colgroup")
    for el in tree.iter():
        if isinstance(el.tag, str):
            _rename(el)
    tree.tag = "div"
    return tree


# Menus, and the page's own footer inside the region ("Last modified … by", "Edit this page",
# "Help improve MDN"): WCXB dev's tuning part, 5 manuals read whole changed, 5 higher (+0.028
# in all), the check part 3 pages +0.054 (in aggregate); the docs bench unchanged. A footer
# that a <div> or <section> names as one (MDN's "article-footer" since) too: 11 pages read whole
# changed, all higher (+0.096 in all; 7 manuals, 2 threads, an article, a listing).
def _navigation(el: HtmlElement) -> bool:
    return bool(
        el.tag in ("nav", "footer")
        or el.get("role") in ("navigation", "contentinfo")
        or _FOOTER_NAME.search(el.get("class") or "")
        or _FOOTER_NAME.search(el.get("id") or "")
    )


# A footer named as one where the tag is a <div> or <section> ("article-footer", "page_footer",
# "footer"): a word of the block's class or id ending in "footer", as main_region takes an id
# ending in "content" for the main region ("article-footer__inner", a part of one, is not).
_FOOTER_NAME = re.compile(r"(?:^|\s)(?:[\w-]*[-_])?footer(?:\s|$)", re.I)


# The trail of links to the pages above this one ("Docs > Tutorials > Get started", rustdoc's
# "std::result", "You are here: start > searching"): a block a class, id, ARIA label or
# schema.org type names a breadcrumb, of a line's length. A reader has the page's title; WCXB's
# gold leaves the trail out on 22 of the 25 documentation pages and articles with code of its
# tuning part where such a name is found (on the 3 others, only the title's words the trail ends
# with, or a class of the <html> element), and on all 12 of them read as manuals. Trails of three
# links or more above the title went as menus (_menus_above_title); these are the shorter ones
# ("std::result"), the ones under the title, and those of pages naming their generator.
# One step with a predicate: a union of attribute steps and their parents is merged without
# duplicates by libxml2 at the square of their number (75,000 nested trails: 4.9 s)
_TRAILS = etree.XPath(
    "descendant::*[@class[contains(translate(., 'BREADCUM', 'breadcum'), 'breadcrumb')]"
    " or @id[contains(translate(., 'BREADCUM', 'breadcum'), 'breadcrumb')]"
    " or @aria-label[contains(translate(., 'BREADCUM', 'breadcum'), 'breadcrumb')]"
    " or @itemtype[contains(., 'BreadcrumbList')]]"
)
_TRAIL_MAX = 200  # characters but spaces: a wrapper so named that holds the page is no trail
_MAX_TRAILS = 20


def drop_trails(tree: etree._Element) -> None:
    """Remove the breadcrumb trails of ``tree`` (a :func:`manual_body` copy)."""
    dropped: set[etree._Element] = set()
    for el in _TRAILS(tree)[:_MAX_TRAILS]:  # each looks up its ancestors: a page has a trail or two
        if el is tree or any(above in dropped for above in el.iterancestors()):
            continue
        if _text_size(el) <= _TRAIL_MAX:
            el.drop_tree()
            dropped.add(el)


# The page's own table of contents ("Table of Contents", "On this page", "In this article"): a
# block of three or more links to places in the page and none elsewhere, half of them or more
# named as a heading of the region is (a section title in words, not code), with little text
# beside them but its own title. A reader of the manual has the sections themselves, and WCXB's
# gold leaves the list out: WCXB dev's tuning part, 6 manuals read whole changed, 5 higher
# (a gold that kept its list lower), manual's gain where it fires -0.0016 -> -0.0007. A
# generator's contents are part of the manual it lays out (Haddock's contents and synopsis,
# Doxygen's member summary: the docs bench's gold, the main region's text, holds them; left out,
# Haddock's F1 fell 1.000 -> 0.997), so they stay (leaves_out_contents); so do Node.js's lists
# of an API's signatures, links in code to the entries below.
_IN_PAGE_LINKS = etree.XPath("descendant::a[starts-with(@href, '#')]")
_CONTENTS_LINKS = 3
_CONTENTS_MAX_LINKS = 500  # a longer list is an index, and its check would read deep nests again and again
_CONTENTS_SHARE = 0.8
_CONTENTS_TITLED = 0.5  # of its links, those whose text is a heading's of the region
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def leaves_out_contents(html: str) -> bool:
    """Whether a manual read whole leaves out its table of contents and the menus above its
    title: a page that names no documentation generator (one that does lays them out as part
    of the manual: Haddock's module header)."""
    return not _DOC_GENERATOR.search(html, 0, 20_000)


def _in_page_link_holders(tree: etree._Element) -> set[etree._Element]:
    """The elements holding a link within the page: only they can be its table of contents."""
    holders: set[etree._Element] = set()
    for a in _IN_PAGE_LINKS(tree):
        for holder in a.iterancestors():
            if holder in holders:
                break  # and so are its ancestors: a walk each, not one per link and level
            holders.add(holder)
    return holders


def _contents(el: HtmlElement, titles: set[str]) -> bool:
    if el.tag in ("td", "th"):
        return False
    links: list[HtmlElement] = []
    for a in el.iter("a"):
        if len(links) == _CONTENTS_MAX_LINKS or not (a.get("href") or "").startswith("#"):
            return False
        links.append(a)
    # the page's own section titles in words, not cross-references to its entries: "Buffer.from(array)"
    # under "Static method: Buffer.from(array)", Node.js's list of an API's signatures in code
    titled = sum(_title(a) in titles and not _HAS_CODE(a) for a in links)
    if len(links) < _CONTENTS_LINKS or titled < _CONTENTS_TITLED * len(links):
        return False
    title = sum(_text_size(child) for child in el if child.tag in _HEADINGS)  # "On this page"
    allowed = (link_text_size(el) + title) / _CONTENTS_SHARE
    size = 0
    for text in el.itertext():  # stops once the block says more than its links
        size += len("".join(text.split()))
        if size > allowed:
            return False
    return True


# The menus above the page's title ("Chapters ▾", "Topics ▾", a language picker, breadcrumbs): a
# block before the region's first heading of its highest level (beside it or beside a block
# holding it), with three links or more and half its text or more in them. A site's dropdowns
# of its other pages sit inside the region read whole, shown by a script and CSS a reader of
# the text lacks; what the manual says comes under its title. WCXB dev's tuning part: 4 pages
# read as manuals changed, all higher (a book's chapter menu 0.82 -> 0.97, a command's topics
# and languages 0.93 -> 1.00, a forum's menus), +0.23 summed; the docs bench unchanged. Not on a
# page naming its generator: what Haddock and Doxygen lay out above the title is the manual's
# (the docs bench's gold; left out there too, 32 Haddock and 17 Doxygen pages changed).
_MENU_LINKS = 3
_MENU_SHARE = 0.5


def _menus_above_title(tree: etree._Element) -> list[etree._Element]:
    """The menus before the region's title, beside it or beside a block holding it; each block
    is judged whole, not looked into (so the text before the title is read once)."""
    heads = list(tree.iter(*_HEADINGS))
    if not heads:
        return []
    top = min(head.tag for head in heads)
    title = next(head for head in heads if head.tag == top)
    menus: list[etree._Element] = []
    for holder in (title, *title.iterancestors()):
        if holder is tree:
            break
        menus += [el for el in holder.itersiblings(preceding=True) if isinstance(el.tag, str) and _menu(el)]
    return menus


def _menu(el: HtmlElement) -> bool:
    if sum(1 for _ in zip(range(_MENU_LINKS), el.iter("a"), strict=False)) < _MENU_LINKS:
        return False
    size = _text_size(el)
    return bool(size) and link_text_size(el) >= _MENU_SHARE * size


_NUMBERING = re.compile(r"^[\d.]+\s+")


def _title(el: HtmlElement) -> str:
    """An element's words as a section title compares: lowercase, its numbering ("2.1 ") left out."""
    return _NUMBERING.sub("", " ".join(el.text_content().split()).lower())


def drop_button_links(tree: etree._Element) -> None:
    """Remove the links of ``tree`` (a :func:`manual_body` copy) that go nowhere and call
    themselves buttons: controls a script answers, as a ``<button>`` is (dropped with the unseen
    tags), not text. XenForo's "Click to expand..." under every long quote of a post is one;
    WCXB's reference texts leave it out (8 threads of the tuning part kept it, none of their
    references). Only links: a ``role="button"`` on a block may hold a card's text."""
    for el in list(tree.iter("span")):
        if el.get("rend") == "button" and el.getparent() is not None:
            el.drop_tree()


def _hidden(el: HtmlElement) -> bool:
    return (
        el.get("hidden") is not None
        or el.get("aria-hidden") == "true"
        or bool(_HIDDEN_STYLE.search(el.get("style") or ""))
    )


def _rename(el: HtmlElement) -> None:
    tag = el.tag
    attributes = {}
    if re.fullmatch(r"h[1-6]", tag):
        el.tag, attributes = "head", {"rend": tag}
    elif tag in _LISTS:
        el.tag, attributes = "list", {"rend": tag}
    elif tag == "li":
        el.tag = "item"
    elif tag in ("dt", "dd"):
        el.tag, attributes = "item", {"rend": tag}
    elif tag == "tr":
        el.tag = "row"
    elif tag in ("td", "th"):
        el.tag, attributes = "cell", ({"role": "head"} if tag == "th" else {})
    elif tag == "blockquote":
        el.tag = "quote"
    elif tag in ("br", "hr"):
        el.tag = "lb"
    elif tag in _INLINE_CODE:
        el.tag = "code"
    elif tag in _EMPHASIS:
        el.tag = "hi"
    elif tag in _CONTAINERS:
        el.tag = "div"
    elif tag == "a" and el.get("role") == "button" and el.get("href") is None:
        el.tag, attributes = "span", {"rend": "button"}  # read as text unless dropped (drop_button_links)
    elif tag not in ("p", "table"):
        el.tag = "span"  # anything else reads as inline text
    el.attrib.clear()
    for name, value in attributes.items():
        el.set(name, value)
