"""Header values a page controls, reduced to forms that cannot carry an instruction. Pure.

A model reads error messages and the lines around the page text as llmweb's own words, so
a value a server chose may appear there only as a single token, a media type, a number of
seconds or an ISO date; anything else counts as absent. (The page's text itself travels
between the BEGIN/END markers; addresses appear percent-encoded, as httpx writes them.)
"""

from __future__ import annotations

import re
from datetime import UTC
from email.utils import parsedate_to_datetime

_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # RFC 9110 token
# RFC 6838 restricted-name: type and subtype of at most 127 characters each
_MEDIA_TYPE = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,126}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}")
_MAX_SECONDS_DIGITS = 9  # about 31 years; longer "numbers" are not a delay anyone means


def token(value: str | None, max_length: int = 24) -> str | None:
    """``value`` when it is one short token (``br``, ``zstd``, ``note``), else None."""
    value = (value or "").strip()
    return value if len(value) <= max_length and _TOKEN.fullmatch(value) else None


def media_type(value: str) -> str:
    """``value`` lowercased when it is a ``type/subtype`` media type, else "" (absent)."""
    value = value.strip().lower()
    return value if _MEDIA_TYPE.fullmatch(value) else ""


def retry_after(value: str | None) -> str | None:
    """A Retry-After header as "120 seconds" or "until 2026-10-21T07:28:00Z"; None when it is neither."""
    value = (value or "").strip()
    if re.fullmatch(rf"[0-9]{{1,{_MAX_SECONDS_DIGITS}}}", value):
        return f"{int(value)} seconds"
    try:
        when = parsedate_to_datetime(value)
        if when.tzinfo is None:  # "-0000": a time in UTC whose source zone is unknown
            when = when.replace(tzinfo=UTC)
        # converting can leave datetime's years 1-9999: "31 Dec 9999 23:00:00 -0100"
        return "until " + when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
