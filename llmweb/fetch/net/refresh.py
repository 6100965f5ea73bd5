"""A page that sends the reader on: ``<meta http-equiv="refresh">`` or a ``Refresh`` header. Pure.

A browser follows ``<meta http-equiv="refresh" content="0; url=new.html">`` as it follows a
redirect, and many pages exist only to say that: rustdoc's ``macro.println!.html`` beside
``macro.println.html``, a moved blog's stubs, a site's old addresses. Read as a page, such a
stub is a line of "Redirecting…" and a script, which reads as a JavaScript shell. The
transport follows it instead (:func:`.transport.fetch`), as one more redirect under the same
limits and address checks; this module only finds where it points.

Not every refresh is a redirect. One without an address, or to the page itself, reloads it (a
news front page every few minutes); one after a long delay sends a reader who stayed (a
session's end, a slideshow's next page): only a delay up to :data:`~.limits.REFRESH_MAX_DELAY`
counts, as a stub's "you will be taken there in 5 seconds" does. One inside ``<noscript>`` is
for browsers without scripts, leading to a "turn on JavaScript" page, while the page itself may
carry its content as embedded data that llmweb reads: it is left alone, as Scrapy's
MetaRefreshMiddleware leaves it. Only the head of the page is looked at
(:data:`~.limits.REFRESH_SCAN_BYTES`), where the tag belongs.

The content is read as the HTML standard's "shared declarative refresh steps" read it: a delay
in seconds, then ``;`` or ``,``, then the address, with or without ``url=``, quoted or not.
"""

from __future__ import annotations

import html
import re

from llmweb.fetch import limits

_META = re.compile(rb"<meta\b", re.IGNORECASE)
_NOSCRIPT = re.compile(rb"<(/?)noscript\b", re.IGNORECASE)
_ATTRIBUTE = re.compile(rb"""([^\s"'>/=]+)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")
_CONTENT = re.compile(
    r"""\s*(\d*)(?:\.[\d.]*)?\s*[;,]?\s*(?:url\s*=\s*)?(?:"([^"]*)"?|'([^']*)'?|(.*))""",
    re.IGNORECASE | re.DOTALL,
)
_MAX_TAG_BYTES = 2048  # a meta tag longer than this is no refresh a browser would act on either


def refresh_target(content_type: str | None, refresh_header: str | None, body: bytes) -> str | None:
    """Where the page sends the reader at once, as written (relative or not), or None.

    ``refresh_header`` is the response's ``Refresh`` header; the body is looked at only when
    ``content_type`` says HTML (or says nothing).
    """
    if refresh_header is not None:
        target = parse_refresh(refresh_header)
        if target is not None:
            return target
    if content_type is not None and "html" not in content_type.lower():
        return None
    return _meta_refresh(body[: limits.REFRESH_SCAN_BYTES])


def parse_refresh(content: str) -> str | None:
    """The address of a refresh's content (``"0; url=/next"``) when its delay is short, else None."""
    match = _CONTENT.match(content)
    if match is None or (not match.group(1) and not content.lstrip().startswith(".")):
        return None  # no delay: the standard ignores it
    delay = int(match.group(1) or 0)
    address = next((g for g in match.group(2, 3, 4) if g is not None), "").strip()
    if delay > limits.REFRESH_MAX_DELAY or not address:
        return None
    return address


def _meta_refresh(head: bytes) -> str | None:
    noscript = [(m.start(), not m.group(1)) for m in _NOSCRIPT.finditer(head)]
    for match in _META.finditer(head):
        end = head.find(b">", match.end(), match.end() + _MAX_TAG_BYTES)
        if end == -1:
            continue
        attributes = _attributes(head[match.end() : end])
        if attributes.get("http-equiv", "").strip().lower() != "refresh" or "content" not in attributes:
            continue
        if _inside_noscript(noscript, match.start()):
            continue
        return parse_refresh(attributes["content"])
    return None


def _attributes(tag: bytes) -> dict[str, str]:
    """A tag's attributes, names lowercased, values decoded (UTF-8, entities undone); the first of a name counts."""
    found: dict[str, str] = {}
    for match in _ATTRIBUTE.finditer(tag):
        name = match.group(1).decode("latin-1").lower()
        value = next((g for g in match.group(2, 3, 4) if g is not None), b"")
        found.setdefault(name, html.unescape(value.decode("utf-8", "replace")))
    return found


def _inside_noscript(marks: list[tuple[int, bool]], position: int) -> bool:
    """Whether ``position`` lies between a ``<noscript>`` and its end tag."""
    depth = 0
    for start, opens in marks:
        if start >= position:
            break
        depth = depth + 1 if opens else max(depth - 1, 0)
    return depth > 0
