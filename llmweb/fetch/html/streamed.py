"""The parts of a streamed page put where a browser's script puts them. Pure.

React's streaming server rendering (Next.js's app router, Remix) sends a page before all of it
is ready: where a part is still loading it writes a Suspense boundary's placeholder,
``<!--$?--><template id="B:3"></template>`` and a fallback ("Loading paragraph...") up to the
``<!--/$-->`` comment, and sends the part later in the same HTML, at the end of the body, as
``<div hidden id="S:3">``, with a script (``$RC("B:3","S:3")``) that moves it into place. llmweb
runs no scripts, so the parts stay at the end, each a container of its own, and a reading that
keeps one container leaves them out: an article's paragraphs, each in its own part. Here each
boundary's part replaces its template and fallback, as the script would.

A segment's placeholder (``<template id="P:5">``, filled by ``$RS("S:5","P:5")``) is left
alone: on WCXB dev's tuning part placing segments too put one site's whole post inside its
header's container, which trafilatura prunes (F1 1.00 -> 0.05), and gained little elsewhere
(one page +0.15). Boundaries alone, on the 20 tuning pages that stream: 4 changed, +0.54 F1
summed (two finance articles 0.49 -> 0.82 and 0.75 -> 0.94, a manual +0.05, a product -0.03).
"""

from __future__ import annotations

import itertools

from lxml import etree
from lxml.html import HtmlElement

_PART = "S:"
_BOUNDARY = "B:"
# A fallback is a spinner or a line of "Loading...": a few nodes. Past this many siblings
# without the boundary's closing comment nothing is dropped (and a hostile page of many
# boundaries costs no more than this many steps each).
_FALLBACK_MAX_NODES = 32


def may_hold_streamed_parts(root: HtmlElement, html: str) -> bool:
    """Cheap tests before the tree's divs are searched: a <template> in the tree (a test in C,
    and most pages have none) and a part's id in the raw HTML (a search of the whole page)."""
    return root.find(".//template") is not None and 'id="S:' in html


def place_streamed_parts(root: HtmlElement) -> bool:
    """Move each hidden part (``<div hidden id="S:n">``) to its boundary's placeholder
    (``<template id="B:n">``), the boundary's fallback removed; True if one was moved."""
    parts = {
        el.get("id", "")[len(_PART) :]: el
        for el in root.iter("div")
        if el.get("hidden") is not None and el.get("id", "").startswith(_PART)
    }
    if not parts:
        return False
    moved = False
    for template in list(root.iter("template")):
        name = template.get("id", "")
        part = parts.pop(name[len(_BOUNDARY) :], None) if name.startswith(_BOUNDARY) else None
        if part is None or template.getparent() is None or _holds(part, template):
            continue
        _drop_fallback(template)
        _detach(part)
        del part.attrib["hidden"]
        part.tail = template.tail
        template.getparent().replace(template, part)
        moved = True
    return moved


def _holds(part: HtmlElement, template: HtmlElement) -> bool:
    return any(el is part for el in template.iterancestors())


def _drop_fallback(template: HtmlElement) -> None:
    """Remove what follows a boundary's template up to the comment that closes the boundary
    (``<!--/$-->``, nested boundaries counted); nothing when no comment closes it soon."""
    fallback = []
    depth = 0
    for sibling in itertools.islice(template.itersiblings(), _FALLBACK_MAX_NODES):
        if isinstance(sibling, etree._Comment):
            text = (sibling.text or "").strip()
            if text == "/$":
                if depth == 0:
                    break
                depth -= 1
            elif text.startswith("$"):
                depth += 1
        fallback.append(sibling)
    else:
        return
    template.tail = None
    for el in fallback:
        el.getparent().remove(el)  # its tail, the fallback's text, with it


def _detach(el: HtmlElement) -> None:
    """Take ``el`` out of the tree, leaving the text after it where it was."""
    parent = el.getparent()
    if el.tail:
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    el.tail = None
    parent.remove(el)
