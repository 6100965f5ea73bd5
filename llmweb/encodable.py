"""Text that every UTF-8 writer accepts: each lone surrogate becomes U+FFFD. Pure.

JSON escapes such as ``"\\ud800"`` decode to a lone surrogate, which Python's str holds but
no UTF-8 writer (a JSON answer, a terminal, the MCP server's stdout) accepts: one such
character in a page or a search result would end the write of the whole answer. Both
places where outside JSON or text enters llmweb, a fetched body (:mod:`llmweb.fetch.content`)
and SearXNG's answer (:mod:`llmweb.search`), repair it here.
"""

from __future__ import annotations

import json
import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")


def encodable_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, and surrogate pairs joined."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def encodable_json(data: Any) -> Any:
    """A decoded JSON document with every string (keys too) made :func:`encodable_text`.

    Written back out and read again rather than walked: json's own encoder already visits
    every string, in C, and refuses nesting past its depth as the decoder did."""
    text = json.dumps(data, ensure_ascii=False)
    if not _SURROGATE.search(text):
        return data
    return json.loads(encodable_text(text))
