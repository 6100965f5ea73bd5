"""Tunables of web_fetch, in one place so a reader sees every bound the fetcher keeps."""

from __future__ import annotations

MAX_BYTES = 5_000_000
"""Decoded body cap. A median article is ~115 KB of HTML; 5 MB still fits big manuals and PDFs."""

ERROR_BODY_BYTES = 256_000
"""How much of an error page (4xx/5xx) is read: enough to recognise a bot challenge."""

TIMEOUT_SECONDS = 20.0
"""One deadline for the whole fetch: resolving, connecting, every read and every redirect."""

MAX_REDIRECTS = 5

MAX_PDF_PAGES = 50
"""Pages of a PDF whose text is read; the result says when a document was cut."""

MIN_TEXT_CHARS = 200
"""Below this much extracted text an HTML page is treated as a JavaScript shell."""

MAX_CHARS = 5000
"""Default window size, as the MCP reference fetch server returns."""

MIN_WINDOW_CHARS = 500
MAX_WINDOW_CHARS = 50_000
"""Bounds of a window: smaller wastes calls, larger floods a small model's context."""

COMPRESS_MIN_CHARS = 5000
"""A compressor is only asked when the page's text is at least this long."""

USER_AGENT = "llmweb/0.1 (+self-hosted fetch for a local model)"

MAX_QUERY_CHARS = 500
"""A question about a page: a sentence or two, with the names it is about."""
