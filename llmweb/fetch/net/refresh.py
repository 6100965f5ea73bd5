"""A page that sends the reader on: a refresh, a ``Refresh`` header, a frameset. Pure.

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

A frameset document (``<frameset>`` where the body would be, as Javadoc 8's ``index.html`` and
older sites are written) holds no text of its own either: a browser shows its frames, the
largest of them the content (Javadoc's class frame beside two narrow lists; a site's page beside
its menu frame). The largest frame, by the shares its framesets' ``cols`` and ``rows`` give it
(:func:`frame_shares`), is followed like a refresh.
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
_SCRIPT = re.compile(rb"<script\b", re.IGNORECASE)
_SCRIPT_END = re.compile(rb"</script\s*>", re.IGNORECASE)
_FRAMES = re.compile(rb"<(/?)(frameset|frame|body)\b", re.IGNORECASE)
_MAX_TAG_BYTES = 2048  # a meta tag longer than this is no refresh a browser would act on either


def refresh_target(
    content_type: str | None, refresh_header: str | None, body: bytes | memoryview
) -> str | None:
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
    head = _without_scripts(bytes(body[: limits.REFRESH_SCAN_BYTES]))
    return _meta_refresh(head) or _main_frame(head)


def _without_scripts(head: bytes) -> bytes:
    """``head`` with its scripts' text left out: a tag written in a script is no tag of the page."""
    kept: list[bytes] = []
    position = 0
    for match in _SCRIPT.finditer(head):
        if match.start() < position:
            continue  # inside a script already cut
        kept.append(head[position : match.start()])
        end = _SCRIPT_END.search(head, match.end())
        position = end.end() if end else len(head)
    kept.append(head[position:])
    return b"".join(kept)


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


def _main_frame(head: bytes) -> str | None:
    """The address of a frameset document's largest frame, or None for a page with a body."""
    tags: list[tuple[str, dict[str, str]]] = []  # ("frameset" | "/frameset" | "frame", attributes)
    for match in _FRAMES.finditer(head):
        name = match.group(2).lower().decode()
        if name == "body":
            if not tags:
                return None  # a body first: the frames, if any, are not what a browser shows
            continue
        end = head.find(b">", match.end(), match.end() + _MAX_TAG_BYTES)
        if end == -1:
            break
        tags.append(("/" + name if match.group(1) else name, _attributes(head[match.end() : end])))
    shares = frame_shares(tags)
    if not shares:
        return None
    source = max(shares, key=lambda s: s[0])[1]  # the first of equals
    return source or None


def frame_shares(tags: list[tuple[str, dict[str, str]]]) -> list[tuple[float, str]]:
    """Each frame's share of the window (0 to 1) and its ``src``, from the framesets' ``cols``
    and ``rows`` (percentages, pixels of a 1,000-pixel window, ``*`` for what is left)."""
    shares: list[tuple[float, str]] = []
    stack: list[
        tuple[list[float], int, float]
    ] = []  # (the shares of a frameset's cells, cells used, its share)

    def next_cell() -> float:
        if not stack:
            return 1.0
        cells, used, share = stack[-1]
        stack[-1] = (cells, used + 1, share)
        return share * (cells[used] if used < len(cells) else 0.0)

    for name, attributes in tags:
        if name == "frameset":
            share = next_cell()
            cells = (
                _cells(attributes.get("cols", ""))
                if "cols" in attributes
                else _cells(attributes.get("rows", ""))
            )
            stack.append((cells, 0, share))
        elif name == "/frameset":
            if stack:
                stack.pop()
        elif stack:  # a frame outside any frameset shows nothing
            shares.append((next_cell(), attributes.get("src", "").strip()))
    return shares


def _cells(sizes: str) -> list[float]:
    """The shares of a frameset's cells: ``"20%,80%"``, ``"200,*"``, ``"1*,3*"``; one cell when none are given."""
    parts = [p.strip() for p in sizes.split(",") if p.strip()] or ["*"]
    window = 1000.0
    fixed = [0.0] * len(parts)
    relative = [0.0] * len(parts)
    for i, part in enumerate(parts):
        number = re.match(r"\d*\.?\d*", part)
        value = float(number.group()) if number and number.group() not in ("", ".") else None
        if part.endswith("*"):
            relative[i] = value if value is not None else 1.0
        elif part.endswith("%"):
            fixed[i] = window * (value or 0.0) / 100
        else:
            fixed[i] = value or 0.0
    left = max(window - sum(fixed), 0.0)
    total_relative = sum(relative)
    sizes_px = [
        f + (left * r / total_relative if total_relative else 0.0)
        for f, r in zip(fixed, relative, strict=True)
    ]
    whole = sum(sizes_px)
    return [size / whole if whole else 1 / len(parts) for size in sizes_px]
