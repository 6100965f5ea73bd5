"""llmweb: web search and page fetching for a local language model, run in the home.

The functions and models below are imported when first used (PEP 562), so importing one submodule — the
extraction worker, the deployment scripts — does not load the whole client with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The error tree is light and what every caller catches: imported at once.
from llmweb.errors import (
    BlockedAddress,
    ChallengePage,
    CompressorError,
    FetchError,
    FetchTimeout,
    InvalidInput,
    LlmwebError,
    NeedsJavaScript,
    NoReadableText,
    RedirectRefused,
    SearchUnavailable,
    Timeout,
    TooLarge,
    Unreachable,
    UnsupportedContent,
    UpstreamStatus,
)

if TYPE_CHECKING:
    from llmweb.fetch import FetchRequest, FetchResult, web_fetch
    from llmweb.prompt import SYSTEM_PROMPT, system_prompt
    from llmweb.research import ResearchPassage, ResearchResult, UnreadResult, web_research
    from llmweb.search import SearchRequest, SearchResponse, SearchResult, web_search
    from llmweb.tools import run_tool_call, tool_definitions

_HOMES = {
    "FetchRequest": "llmweb.fetch",
    "FetchResult": "llmweb.fetch",
    "web_fetch": "llmweb.fetch",
    "SYSTEM_PROMPT": "llmweb.prompt",
    "system_prompt": "llmweb.prompt",
    "ResearchPassage": "llmweb.research",
    "ResearchResult": "llmweb.research",
    "UnreadResult": "llmweb.research",
    "web_research": "llmweb.research",
    "SearchRequest": "llmweb.search",
    "SearchResponse": "llmweb.search",
    "SearchResult": "llmweb.search",
    "web_search": "llmweb.search",
    "run_tool_call": "llmweb.tools",
    "tool_definitions": "llmweb.tools",
}

__all__ = [
    "SYSTEM_PROMPT",
    "BlockedAddress",
    "ChallengePage",
    "CompressorError",
    "FetchError",
    "FetchRequest",
    "FetchResult",
    "FetchTimeout",
    "InvalidInput",
    "LlmwebError",
    "NeedsJavaScript",
    "NoReadableText",
    "RedirectRefused",
    "ResearchPassage",
    "ResearchResult",
    "SearchRequest",
    "SearchResponse",
    "SearchResult",
    "SearchUnavailable",
    "Timeout",
    "TooLarge",
    "Unreachable",
    "UnreadResult",
    "UnsupportedContent",
    "UpstreamStatus",
    "run_tool_call",
    "system_prompt",
    "tool_definitions",
    "web_fetch",
    "web_research",
    "web_search",
]


# Out of mypy's sight: a module __getattr__ would make every misspelt import from llmweb type-check.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        home = _HOMES.get(name)
        if home is None:
            raise AttributeError(f"module 'llmweb' has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        globals()[name] = value  # once found, an ordinary attribute
        return value

    def __dir__() -> list[str]:
        return sorted(__all__)
