"""Loose text between ``<br>`` tags made paragraphs, before trafilatura reads the page. Pure.

Old forums (phpBB's post bodies), old CMS pages, WYSIWYG bodies and product descriptions write
their text straight into a ``<div>`` or a ``<td>``: text and inline elements (links, bold,
spans) separated by ``<br>`` tags, without a ``<p>``. trafilatura reads such a container's
text unevenly: it kept a phpBB thread's author lines, signatures and quotes (each in an
element of its own) and dropped every post's message. Each run of loose inline content in a
block container, cut at a blank line (``<br><br>``) or at a block child, is wrapped in a ``<p>``
here, so the message reads as the paragraphs a browser shows.

trafilatura reads a frame's loose text only when the whole page holds little ``<p>`` text; a
page whose other paragraphs (a forum's rules, "who is online", author lines) are ``<p>`` loses it.

Only containers whose loose text is substantial (:data:`MIN_LOOSE_CHARS`), mostly not links
(:data:`LINK_SHARE`: a menu of links between ``<br>`` tags stays as it was) and cut by a blank
line somewhere are wrapped; an inline element holding a block (a ``<span>`` around an editor's
``<div>``s) is a block. Code is out of reach: extract swaps each ``<pre>`` for a placeholder
before this runs, a page that declares an article is left to trafilatura (extract), and a
page's furniture (footer, header, menu, sidebar) is left as it was.

WCXB's dev split measures it (bench/wcxb.py, layer ``loose_text``). Tuning part: fires on 38 of
998 pages, F1 where it fires 0.766 -> 0.777 (product +0.035 on 11; service, listing, collection
+0.01; forum -0.006 on 13: a thread read past the few posts its gold text stops at, and a shop's
description its gold leaves out), all 0.8660 -> 0.8664; check part, in aggregate: fires on 4
pages and changes none. Measured and not kept: cutting at every ``<br>`` (two more forum pages
lost), no blank line asked for (0.86602 -> 0.86602 before articles were left out, against
0.86625: an essay's ``<div>`` paragraphs read short), 80 characters (0.8662), declared articles
(the article set's other half 0.970 -> 0.968), and furniture (a Sphinx page's copyright lines
read as its text, docs 0.566 -> 0.333 on that page).

The walk visits each container holding a ``<br>`` once and measures only its direct inline
children, so its cost is the page's size times its nesting depth, which libxml2 bounds.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

# the containers whose loose text is a block's paragraphs
CONTAINERS = frozenset({"div", "td", "section", "article", "blockquote", "dd", "center", "main", "body"})
# the elements that run inside a line of text (anything else cuts a run)
INLINE = frozenset(
    {
        "a", "abbr", "b", "big", "cite", "code", "del", "dfn", "em", "font", "i", "img", "ins",
        "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub",
        "sup", "time", "tt", "u", "var", "wbr", "br",
    }
)  # fmt: skip
# an inline element holding a block (a <span> around a rich text editor's <div>s) is a block
_HOLDS_BLOCK = etree.XPath(
    "boolean(descendant::*[not(" + " or ".join(f"self::{tag}" for tag in sorted(INLINE)) + ")])"
)
# furniture, by element or by the words class names and ids say it with
_FURNITURE_TAGS = frozenset({"footer", "header", "nav", "aside"})
_FURNITURE_NAME = re.compile(r"(?<![a-z])(?:footer|copyright|sidebar)(?![a-z])", re.IGNORECASE)
# a container's loose text (spaces left out) is a body's when it is at least this long…
MIN_LOOSE_CHARS = 200
# …and mostly its own words, not links (a sidebar's menu of links between <br>s)
LINK_SHARE = 0.5


def wrap_loose_text(root: HtmlElement) -> bool:
    """Wrap each run of loose inline content of a block container that holds a ``<br>`` in a
    ``<p>``, runs cut at ``<br><br>`` and at blocks; whether any was."""
    containers = dict.fromkeys(
        parent
        for br in root.iter("br")
        if (parent := br.getparent()) is not None and parent.tag in CONTAINERS
    )
    wrapped = False
    for container in containers:
        if _loose_body(container) and not _in_furniture(container):
            _wrap_runs(container)
            wrapped = True
    return wrapped


def _loose_body(container: HtmlElement) -> bool:
    chars = _chars(container.text)
    links = 0
    blank = after_br = False  # a blank line: a <br> right after another
    for child in container:
        chars += _chars(child.tail)
        if child.tag == "br":
            blank = blank or after_br
            after_br = not _chars(child.tail)
        else:
            after_br = False
        if _inline(child):
            size = _chars(child.text_content())
            chars += size
            if child.tag == "a":
                links += size
            else:
                links += sum(_chars(a.text_content()) for a in child.iter("a"))
    return blank and chars >= MIN_LOOSE_CHARS and links < LINK_SHARE * chars


def _in_furniture(container: HtmlElement) -> bool:
    """Whether ``container`` is, or sits in, a page's furniture: its footer, header, menu or
    sidebar (a documentation page's copyright lines between <br>s, read as paragraphs)."""
    for el in (container, *container.iterancestors()):
        if el.tag in _FURNITURE_TAGS or _FURNITURE_NAME.search(f"{el.get('class', '')} {el.get('id', '')}"):
            return True
    return False


def _inline(el: HtmlElement) -> bool:
    return isinstance(el.tag, str) and el.tag in INLINE and not _HOLDS_BLOCK(el)


def _chars(text: str | None) -> int:
    return len("".join(text.split())) if text else 0


def _wrap_runs(container: HtmlElement) -> None:
    # the container's content as a sequence of text pieces and elements (tails set apart)
    nodes: list[str | HtmlElement] = [container.text] if container.text else []
    for child in list(container):
        tail, child.tail = child.tail, None
        container.remove(child)
        nodes.append(child)
        if tail:
            nodes.append(tail)
    container.text = None
    run: list[str | HtmlElement] = []
    i = 0
    while i < len(nodes):
        node = nodes[i]
        if isinstance(node, str) or (node.tag != "br" and _inline(node)):
            run.append(node)
        elif node.tag == "br":
            j = i + 1
            while j < len(nodes) and _blank(nodes[j]):
                j += 1
            if j < len(nodes) and _is_br(nodes[j]):  # a blank line
                _close(container, run)
                run = []
                while j < len(nodes) and (_blank(nodes[j]) or _is_br(nodes[j])):
                    j += 1
                i = j
                continue
            run.append(node)
        else:  # a block: it cuts the run and stays where it was
            _close(container, run)
            run = []
            _put(container, node)
        i += 1
    _close(container, run)


def _close(container: HtmlElement, run: list[str | HtmlElement]) -> None:
    """Append ``run`` to ``container``: in a new ``<p>`` when it holds text, else as it was."""
    while run and _is_br(run[-1]):
        run.pop()
    if not any(_chars(n) if isinstance(n, str) else _chars(n.text_content()) for n in run):
        for node in run:
            _put(container, node)
        return
    paragraph = etree.SubElement(container, "p")
    for node in run:
        _put(paragraph, node)


def _is_br(node: str | HtmlElement) -> bool:
    return not isinstance(node, str) and node.tag == "br"


def _blank(node: str | HtmlElement) -> bool:
    return isinstance(node, str) and not node.strip()


def _put(parent: HtmlElement, node: str | HtmlElement) -> None:
    """Append ``node`` (a text piece or an element) at the end of ``parent``."""
    if isinstance(node, str):
        if len(parent):
            last = parent[-1]
            last.tail = (last.tail or "") + node
        else:
            parent.text = (parent.text or "") + node
    elif node.getparent() is not parent:
        parent.append(node)
