"""web_fetch: read one web page for a local model, safely.

Modules, pure core first: :mod:`.addresses` (which IPs may be reached), :mod:`.rewrite`
(URL checks, GitHub rewrites), :mod:`.extract` and :mod:`.markdown` (HTML → text),
:mod:`.content` (bytes → text by type, charsets), :mod:`.pdf` (a PDF's text, bounded),
:mod:`.workload` (what a page will cost to extract), :mod:`.inflate` (bounded gzip),
:mod:`.window` (paging), :mod:`.limits` (every bound); :mod:`.transport` is the only
network code; :mod:`.worker` runs the extraction in a process the deadline and a memory
ceiling bound; :mod:`.page` puts them together.

The names below are imported when first used (PEP 562): the worker process imports
``llmweb.fetch.worker`` without the network code.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from llmweb.fetch.page import FetchRequest, FetchResult, web_fetch

__all__ = ["FetchRequest", "FetchResult", "web_fetch"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'llmweb.fetch' has no attribute {name!r}")
    value = getattr(importlib.import_module("llmweb.fetch.page"), name)
    globals()[name] = value
    return value
