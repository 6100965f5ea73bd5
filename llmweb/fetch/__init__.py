"""web_fetch: read one web page for a local model, safely.

Rooms, each with a docstring naming its modules:

- :mod:`.net` — the network: transport (the only network code), addresses, rewrites, bounded
  decompression, header values.
- :mod:`.html` — reading HTML: extraction, its workload, manuals, threads, markdown, metadata.
- :mod:`.javascript` — pages scripts fill in: the shell verdict and the embedded data.
- :mod:`.focus` — a question about a page → the passages that answer it.

And the modules that join them: :mod:`.page` (web_fetch itself: download, read, window or
passages), :mod:`.content` (a body → text by what it really is, charsets), :mod:`.worker`
(the extraction in a process the deadline and a memory ceiling bound), :mod:`.buffers` (a
body in memory of its own, given back whole), :mod:`.pdf` (a PDF's text layer, bounded),
:mod:`.window` (paging and clipping), :mod:`.limits` (every bound).

The names below are imported when first used (PEP 562): the worker process imports
``llmweb.fetch.worker`` without the network code.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from llmweb.fetch.page import FetchRequest, FetchResult, web_fetch

__all__ = ["FetchRequest", "FetchResult", "web_fetch"]


# Out of mypy's sight: a module __getattr__ would make every misspelt import type-check.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        if name not in __all__:
            raise AttributeError(f"module 'llmweb.fetch' has no attribute {name!r}")
        value = getattr(importlib.import_module("llmweb.fetch.page"), name)
        globals()[name] = value
        return value
