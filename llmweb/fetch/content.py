"""A response body → text, by what the body really is. Pure: bytes in, text out.

The Content-Type header is a claim: magic bytes (``%PDF-``, PNG, ZIP…) and NUL bytes
overrule it, and a missing or generic type is sniffed. HTML goes to :mod:`.html.extract`;
plain text, markdown, JSON and XML come back as text; PDFs give their text layer;
everything else is refused with a message naming the type.
"""

from __future__ import annotations

import codecs
import json
import re
from typing import NamedTuple

import charset_normalizer
from charset_normalizer.constant import IANA_SUPPORTED

from llmweb.encodable import encodable_text
from llmweb.errors import NoReadableText, TooLarge, UnsupportedContent
from llmweb.fetch.html.extract import find_bot_challenge, read_html_page
from llmweb.fetch.html.workload import check_html_workload
from llmweb.fetch.limits import MAX_PDF_PAGES
from llmweb.fetch.mojibake import repair_mojibake
from llmweb.fetch.net import header_values
from llmweb.fetch.pdf import read_pdf


class PageText(NamedTuple):
    content_type: str  # the media type the body was read as, e.g. "text/html"
    text: str
    title: str | None = None
    published: str | None = None
    notes: tuple[str, ...] = ()


def read_body(
    body: bytes,
    content_type: str | None,
    url: str,
    page_url: str | None = None,
    *,
    max_pdf_pages: int = MAX_PDF_PAGES,
) -> PageText:
    """The text of a response body, or UnsupportedContent / NoReadableText saying why not.

    Errors name ``url``; ``page_url`` (default ``url``) is where the body came from, which
    reading an HTML page uses (a date in the address), and a redirect may have chosen.

    The text, title and notes hold no lone surrogates (each becomes U+FFFD): JSON escapes
    such as ``"\\ud800"`` decode to them, and no UTF-8 writer (a JSON answer, a terminal)
    accepts them. A text and title written twice over in UTF-8 ("itâ€™s") are put back as
    they were written (:mod:`.mojibake`).
    """
    return _as_written(_read_body(body, content_type, url, page_url or url, max_pdf_pages))


def _read_body(
    body: bytes, content_type: str | None, url: str, page_url: str, max_pdf_pages: int
) -> PageText:
    declared, charset = parse_content_type(content_type)
    media = sniff_media_type(body, declared)
    kind = text_kind(media)
    if kind == "pdf":
        return _pdf_text(body, url, max_pdf_pages)
    if kind is None:
        # media types only from the closed list: a server's own type is free words in a grammar
        named = header_values.known_media_type(media) or header_values.UNRECOGNISED_MEDIA_TYPE
        labelled = header_values.known_media_type(declared) or "a type it does not have"
        claim = f", although it was labelled {labelled}" if declared and declared != media else ""
        raise UnsupportedContent(
            f"{url} is {_describe(media)} ({named}{claim}), which llmweb cannot turn into text. "
            "Look for an HTML, text or PDF version of the same content.",
            url,
        )
    text = decode_text(body, charset, media)
    media = _named_type(media, kind)
    if kind == "html":
        page = read_html_page(text, url, page_url=page_url)
        return PageText(media, page.text, page.title, page.published, page.notes)
    if kind == "json":
        shown = _json_text(text)
        if shown is None and declared in _GENERIC_TYPES:  # sniffed as JSON, but it is none
            media = "text/plain"
        text = shown or text
    text = text.replace("\r\n", "\n").replace("\x00", "").strip("\n")
    if not text.strip():
        raise NoReadableText(f"{url} returned an empty {media} body. Search for another source.", url)
    return PageText(media, text)


def _named_type(media: str, kind: str) -> str:
    """The media type a result names (outside the fence): the body's own when it is a known
    one, else the type it was read as (``text/plain`` for an unknown ``text/…``)."""
    known = header_values.known_media_type(media)
    if known:
        return known
    if kind == "text" and media.endswith("+xml"):
        return "application/xml"
    return {"html": "text/html", "json": "application/json"}.get(kind, "text/plain")


def _as_written(page: PageText) -> PageText:
    """The page's text and title as they were written (:mod:`.mojibake`), and they and its notes
    as every UTF-8 writer takes them (:mod:`llmweb.encodable`)."""
    return page._replace(
        text=encodable_text(repair_mojibake(page.text)),
        title=encodable_text(repair_mojibake(page.title)) if page.title else page.title,
        notes=tuple(encodable_text(note) for note in page.notes),
    )


def bot_challenge(body: bytes, content_type: str | None) -> str | None:
    """What kind of bot check an error page is (e.g. "a Cloudflare check"), or None.

    A page too heavy to extract is no challenge page (those are a few lines), and is not parsed.
    """
    declared, charset = parse_content_type(content_type)
    if text_kind(sniff_media_type(body, declared)) != "html":
        return None
    html = decode_text(body, charset)
    try:
        check_html_workload(html, "")
    except TooLarge:
        return None
    return find_bot_challenge(html)


def parse_content_type(header: str | None) -> tuple[str, str | None]:
    """("text/html", "utf-8") from "text/html; charset=UTF-8"; ("", None) when absent.

    A media type that is not ``type/subtype`` counts as absent (the body is sniffed): it
    would otherwise reach error messages, which carry no text a page chose freely.
    """
    if not header:
        return "", None
    media, _, params = header.partition(";")
    match = re.search(r"charset\s*=\s*[\"']?([^\"';\s]+)", params, re.I)
    return header_values.media_type(media), match.group(1) if match else None


_GENERIC_TYPES = frozenset(
    {"", "application/octet-stream", "binary/octet-stream", "application/unknown", "unknown/unknown"}
)
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"II*\x00", "image/tiff"),
    (b"MM\x00*", "image/tiff"),
    (b"PK\x03\x04", "application/zip"),
    (b"\x1f\x8b", "application/gzip"),
    (b"\xfd7zXZ\x00", "application/x-xz"),
    (b"7z\xbc\xaf\x27\x1c", "application/x-7z-compressed"),
    (b"Rar!\x1a\x07", "application/vnd.rar"),
    (b"\x7fELF", "application/x-executable"),
    (b"\x00asm", "application/wasm"),
    (b"ID3", "audio/mpeg"),
    (b"OggS", "audio/ogg"),
    (b"fLaC", "audio/flac"),
    (b"\x1aE\xdf\xa3", "video/webm"),
    (b"wOFF", "font/woff"),
    (b"wOF2", "font/woff2"),
)
_RIFF = {b"WEBP": "image/webp", b"WAVE": "audio/wav", b"AVI ": "video/x-msvideo"}
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE, whose BOM it starts with
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def sniff_media_type(body: bytes | memoryview, declared: str) -> str:
    """What the body is: its magic bytes first, then the declared type, then a look at the text."""
    head = bytes(body[:1024])
    # magic bytes count only where the body starts, after a UTF-8 BOM or whitespace as browsers
    # allow: a page may quote "%PDF-" anywhere, and a PDF with junk before its header still
    # reads when it is labelled one (a declared type is kept below)
    if head.removeprefix(codecs.BOM_UTF8).lstrip().startswith(b"%PDF-"):
        return "application/pdf"
    for magic, media in _MAGIC:
        if head.startswith(magic):
            return media
    if head.startswith(b"RIFF") and head[8:12] in _RIFF:
        return _RIFF[head[8:12]]
    if head[4:8] == b"ftyp":
        return "video/mp4"
    if b"\x00" in head and not any(head.startswith(bom) for bom, _ in _BOMS):
        # binary: keep a declared binary type to name it, but a text label is a lie
        binary_label = declared not in _GENERIC_TYPES and text_kind(declared) is None
        return declared if binary_label else "application/octet-stream"
    if declared not in _GENERIC_TYPES:
        return declared
    start = head.lstrip().lower()
    if start.startswith((b"<!doctype html", b"<html")) or b"<head" in start or b"<body" in start:
        return "text/html"
    if start.startswith(b"<?xml") or start.startswith(b"<rss") or start.startswith(b"<feed"):
        return "application/xml"
    if start[:1] in (b"{", b"[") and bytes(body[-1024:]).rstrip()[-1:] in (b"}", b"]"):
        # by its ends only: this also runs in the parent (to describe a page the worker could not
        # read), where parsing a hostile document is no cost to pay; read_body checks it parses
        return "application/json"
    return "text/plain"


_TEXT_APPLICATIONS = frozenset({
    "xml", "javascript", "x-javascript", "ecmascript", "x-sh", "x-shellscript", "yaml", "x-yaml",
    "toml", "x-toml", "sql", "graphql", "x-tex", "x-latex", "x-python", "x-ruby", "x-perl",
    "x-httpd-php", "csv", "x-ndjson", "x-subrip", "markdown", "x-markdown",
})  # fmt: skip


def text_kind(media: str) -> str | None:
    """How to read a media type: "html", "pdf", "json", "text", or None when it is not text."""
    top, _, sub = media.partition("/")
    if media in ("text/html", "application/xhtml+xml"):
        return "html"
    if media in ("application/pdf", "application/x-pdf"):
        return "pdf"
    if sub == "json" or sub.endswith("+json"):
        return "json" if top in ("application", "text") else None
    if top == "text" or (top == "application" and (sub in _TEXT_APPLICATIONS or sub.endswith("+xml"))):
        return "text"
    return None


def decode_text(body: bytes, charset: str | None, media: str = "text/html") -> str:
    """Decode without ever failing: BOM, valid UTF-8, the header's charset, the document's own
    declaration, UTF-8 with a few stray bytes, then detection; undecodable bytes become U+FFFD.

    Valid UTF-8 with non-ASCII bytes wins over a label: other encodings almost never form
    valid UTF-8 by accident, while mislabelled UTF-8 pages are common.
    """
    for bom, encoding in _BOMS:
        if body.startswith(bom):
            return body.decode(encoding, "replace")
    for candidate in ("utf-8", charset, _declared_charset(body, media)):
        text = _decode_cleanly(body, candidate)
        if text is not None:
            return text
    text = body.decode("utf-8", "replace")
    errors = text.count("\ufffd") - body.count(b"\xef\xbf\xbd")
    if len(_NON_ASCII.findall(text)) >= 4 * errors:  # UTF-8 with a few stray bytes
        return text
    best = charset_normalizer.from_bytes(body).best()
    if best is not None:
        return str(best)
    return body.decode("utf-8", "replace")


_META_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([a-zA-Z0-9_.:-]+)", re.I)
_XML_ENCODING = re.compile(rb"<\?xml[^>]+encoding\s*=\s*[\"']([a-zA-Z0-9_.:-]+)", re.I)
_C1_CONTROLS = re.compile("[\x80-\x9f]")
_NON_ASCII = re.compile("[^\x00-\x7f\ufffd]")


def _declared_charset(body: bytes, media: str) -> str | None:
    head = body[:4096]
    match = _META_CHARSET.search(head) if text_kind(media) == "html" else None
    match = match or _XML_ENCODING.search(head)
    return match.group(1).decode("ascii") if match else None


# The character sets a label may name: those charset-normalizer, our detector, knows. Python's
# codec registry also holds transforms a page can name but that are no character set: rot13,
# base64, zlib (bytes.decode refuses them), and "text encodings" that read backslash escapes
# (unicode_escape, which also warns), IDNA or punycode. A label naming one counts as absent.
_CHARACTER_SETS = frozenset(codecs.lookup(name).name for name in IANA_SUPPORTED)


def character_set(label: str | None) -> str | None:
    """Python's codec name for a charset label, or None when the label names no character set."""
    if not label:
        return None
    try:
        name = codecs.lookup(label).name
    except (LookupError, ValueError, TypeError):  # unknown or malformed label
        return None
    return name if name in _CHARACTER_SETS else None


def _decode_cleanly(body: bytes, label: str | None) -> str | None:
    """The body in this encoding, or None when the bytes show the label is wrong."""
    name = character_set(label)
    if name is None:
        return None
    if name.startswith(("utf-16", "utf-32")):
        return None  # a label without a BOM on ASCII-compatible bytes (browsers ignore it too)
    # browsers read latin-1 and ASCII labels as windows-1252, whose 0x80-0x9F are printable
    names = ("cp1252", "latin-1") if name in ("iso8859-1", "ascii", "latin-1") else (name,)
    for encoding in names:
        try:
            text = body.decode(encoding)
        except UnicodeError:  # bytes the label cannot decode
            continue
        if not _C1_CONTROLS.search(text):  # C1 controls mean the bytes belong to another code page
            return text
    return None


# Pretty-printing puts each value on a line of its own indented by its depth: ordinary JSON
# grows two or three times, but "[" * 500 + "1," * N grows 500 times (5 MB to 2.5 GB).
_MAX_PRETTY_GROWTH = 4


def _json_text(text: str) -> str | None:
    """The JSON document ``text`` pretty-printed; as it is when that would make it more than
    _MAX_PRETTY_GROWTH times longer; None when it is no JSON."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    most = _MAX_PRETTY_GROWTH * len(text) + 100
    pieces: list[str] = []
    size = 0
    try:
        for piece in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(data):
            size += len(piece)
            if size > most:
                return text
            pieces.append(piece)
    except RecursionError:
        return text
    return "".join(pieces)


_MEDIA_NAMES = {
    "image": "an image",
    "audio": "audio",
    "video": "a video",
    "font": "a font",
    "model": "a 3D model",
}


def _describe(media: str) -> str:
    top, _, sub = media.partition("/")
    if top in _MEDIA_NAMES:
        return _MEDIA_NAMES[top]
    if re.search(r"zip|gzip|tar|xz|7z|rar|bzip|compress|archive", sub):
        return "an archive"
    if re.search(r"msword|officedocument|opendocument|ms-excel|ms-powerpoint", sub):
        return "an office document"
    if "octet-stream" in sub or "executable" in sub or sub == "wasm":
        return "binary data"
    return "a file type without text"


def _pdf_text(body: bytes, url: str, max_pages: int) -> PageText:
    pdf = read_pdf(body, url, max_pages)
    return PageText("application/pdf", pdf.text, pdf.title, None, pdf.notes)
