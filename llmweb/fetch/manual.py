"""A manual's main region, read whole: its HTML retold in trafilatura's vocabulary. Pure.

trafilatura judges every block of a page: short ones, link-heavy ones, ones whose class
names sound like boilerplate ("meta", "bar", "expand"), headings followed by headings. On
an article that removes bylines and share bars; on generated documentation it removed
what each generator happens to write in such blocks: Node.js's "Added in: v8.3.0" and
history tables, Doxygen's section headings, Haddock's examples and instance lists. Once
the page's main region is known (declared by the page, or found by peeling navigation off
the body, see extract.py), everything a reader sees in it is content, as the docs bench's
gold text is: this module turns the region into the element names :mod:`.markdown`
renders (head, p, list/item, table/row/cell, quote, code, lb), drops only what a browser
does not show, and leaves the rest to the renderer.
"""

from __future__ import annotations

import copy
import re

from lxml import etree
from lxml.html import HtmlElement

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


def manual_body(region: HtmlElement) -> etree._Element:
    """A copy of ``region`` whose elements carry :mod:`.markdown`'s names."""
    tree = copy.deepcopy(region)
    etree.strip_elements(tree, *_UNSEEN, with_tail=False)
    for el in list(tree.iter()):
        if not isinstance(el.tag, str):
            continue
        if el is not tree and el.getparent() is not None and _hidden(el):
            el.drop_tree()
    etree.strip_tags(tree, "thead", "tbody", "tfoot", "colgroup")
    for el in tree.iter():
        if isinstance(el.tag, str):
            _rename(el)
    tree.tag = "div"
    return tree


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
    elif tag not in ("p", "table"):
        el.tag = "span"  # anything else reads as inline text
    el.attrib.clear()
    for name, value in attributes.items():
        el.set(name, value)
