"""A PDF's text layer, within bounds on the work it takes. Pure: bytes in, text out.

pypdf reads a page's drawing instructions (its content streams) in Python, about 0.3 MB a
second: a 19 KB file whose 50 pages share one 3.9 MB stream took over 4 minutes of CPU,
since every page parses the stream again. So before a page is read, its decompressed
content is measured (pypdf decodes it once and keeps it for the read): a page holding more
than ``MAX_PDF_PAGE_CONTENT_BYTES`` is skipped, and reading stops once the pages read hold
``MAX_PDF_CONTENT_BYTES``. pypdf's own limits are tightened for what those sizes do not
see: the decompressed size of any stream, the parsing work of one content stream (a page's
or a form's), and form invocations per page. The worker that runs this
(:mod:`.worker`) still stops anything else at the deadline.
"""

from __future__ import annotations

import io
from contextlib import AbstractContextManager
from typing import NamedTuple

from pypdf import Configuration, PageObject, PdfReader, apply_configuration
from pypdf.errors import LimitReachedError
from pypdf.generic import ArrayObject, StreamObject

from llmweb.errors import LlmwebError, NoReadableText, TooLarge, UnsupportedContent
from llmweb.fetch import limits


class PdfText(NamedTuple):
    text: str
    title: str | None
    notes: tuple[str, ...]


def _pypdf_limits() -> AbstractContextManager[Configuration]:
    stream = limits.MAX_PDF_STREAM_BYTES
    return apply_configuration(
        stream_parsing_work_maximum_count=limits.MAX_PDF_STREAM_TOKENS,
        xform_maximum_invocations_per_extraction=limits.MAX_PDF_FORM_INVOCATIONS,
        zlib_maximum_output_length=stream,
        lzw_maximum_output_length=stream,
        run_length_maximum_output_length=stream,
        array_based_stream_maximum_output_length=stream,
        brotli_maximum_output_length=stream,
    )


class _Skipped(NamedTuple):
    page: int  # 1-based
    size: int | None  # bytes of content; None when a stream passed pypdf's own limits


def read_pdf(body: bytes, url: str, max_pages: int = limits.MAX_PDF_PAGES) -> PdfText:
    """The text of the first ``max_pages`` pages, or an error saying why there is none."""
    skipped: list[_Skipped] = []
    stopped_at: int | None = None
    pages: list[str] = []
    try:
        with _pypdf_limits():
            reader = PdfReader(io.BytesIO(body))
            if reader.is_encrypted and not reader.decrypt(""):
                raise UnsupportedContent(
                    f"{url} is a password-protected PDF, which llmweb cannot read. Look for an unprotected copy.",
                    url,
                )
            total = len(reader.pages)
            read_bytes = 0
            for index in range(min(total, max_pages)):
                page = reader.pages[index]
                size = _content_bytes(page)
                if size is None or size > limits.MAX_PDF_PAGE_CONTENT_BYTES:
                    skipped.append(_Skipped(index + 1, size))
                    continue
                if read_bytes + size > limits.MAX_PDF_CONTENT_BYTES:
                    stopped_at = index + 1
                    break
                read_bytes += size
                try:
                    pages.append((page.extract_text() or "").strip())
                except LimitReachedError:  # a form or stream past pypdf's limits
                    skipped.append(_Skipped(index + 1, None))
            title = reader.metadata.title if reader.metadata else None
    except (LlmwebError, MemoryError):
        raise
    except Exception as exc:  # pypdf raises many kinds on a damaged file; all mean "unreadable"
        raise UnsupportedContent(
            f"{url} is a PDF that could not be parsed ({type(exc).__name__}). Look for an HTML or text version.",
            url,
        ) from None
    text = "\n\n".join(page for page in pages if page)
    if not text.strip():
        if skipped or stopped_at:
            raise TooLarge(_too_much_message(url, skipped, stopped_at), url)
        raise NoReadableText(
            f"{url} is a PDF without a text layer (probably scanned pages), and llmweb does not run OCR. "
            "Look for an HTML or text version of the document.",
            url,
        )
    notes = []
    if skipped:
        notes.append(_skipped_note(skipped))
    if stopped_at is not None:
        notes.append(
            f"Reading stopped before page {stopped_at} of {total}: the pages read hold "
            f"{limits.MAX_PDF_CONTENT_BYTES:,} bytes of drawing instructions, the most llmweb reads in one PDF."
        )
    elif total > max_pages:
        notes.append(f"The PDF has {total} pages; only the first {max_pages} were read.")
    title_text = str(title).strip() if title else ""
    return PdfText(text, title_text or None, tuple(notes))


def _content_bytes(page: PageObject) -> int | None:
    """The decompressed size of a page's content streams; None when pypdf's limits refuse one.

    pypdf keeps the decoded data, so the page's read does not decompress it again.
    """
    contents = page.get("/Contents")
    streams = contents.get_object() if contents is not None else None
    if isinstance(streams, StreamObject):
        streams = [streams]
    if not isinstance(streams, (list, ArrayObject)):
        return 0
    size = 0
    try:
        for stream in streams:
            stream = stream.get_object()
            if isinstance(stream, StreamObject):
                size += len(stream.get_data())
            if size > limits.MAX_PDF_PAGE_CONTENT_BYTES:
                break  # enough to skip the page; the rest need not be decompressed
    except LimitReachedError:
        return None
    return size


def _pages(skipped: list[_Skipped]) -> str:
    numbers = [str(s.page) for s in skipped]
    shown = ", ".join(numbers[:10])
    return shown + (f" and {len(numbers) - 10} more" if len(numbers) > 10 else "")


def _skipped_note(skipped: list[_Skipped]) -> str:
    which = "Page" if len(skipped) == 1 else "Pages"
    return (
        f"{which} {_pages(skipped)} of the PDF {'was' if len(skipped) == 1 else 'were'} skipped "
        f"(a drawing or a chart, most likely): {_why_skipped(skipped)}."
    )


def _why_skipped(skipped: list[_Skipped]) -> str:
    """Why these pages were not read: too many drawing instructions, or pypdf's own limits."""
    heavy = [s for s in skipped if s.size is not None]
    bounded = [s for s in skipped if s.size is None]
    parts = []
    if heavy:
        parts.append(
            f"{_named_pages(heavy)} more than {limits.MAX_PDF_PAGE_CONTENT_BYTES:,} bytes of drawing "
            "instructions, more than llmweb reads on one page"
        )
    if bounded:
        parts.append(
            f"{_named_pages(bounded)} drawings past the work llmweb lets one page take (a stream too large "
            "or a form drawn too many times)"
        )
    return "; ".join(parts)


def _named_pages(pages: list[_Skipped]) -> str:
    return f"page {pages[0].page} holds" if len(pages) == 1 else f"pages {_pages(pages)} hold"


def _too_much_message(url: str, skipped: list[_Skipped], stopped_at: int | None) -> str:
    if skipped:
        largest = max((s.size or 0 for s in skipped), default=0)
        size = f" (the largest {largest:,} bytes)" if largest else ""
        what = f"{_why_skipped(skipped)}{size}"
    else:
        what = (
            f"its first pages hold more than {limits.MAX_PDF_CONTENT_BYTES:,} bytes of drawing instructions"
        )
    return (
        f"{url} is a PDF whose text llmweb did not read: {what}. It is probably a drawing, a scan stored as "
        "vector graphics, or a file made to be expensive to read. Look for an HTML or text version of the document."
    )
