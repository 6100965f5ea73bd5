"""llmweb: web search and page fetching for a local language model, run in the home."""

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
from llmweb.fetch import FetchRequest, FetchResult, web_fetch
from llmweb.prompt import SYSTEM_PROMPT, system_prompt
from llmweb.research import ResearchPassage, ResearchResult, UnreadResult, web_research
from llmweb.search import SearchRequest, SearchResponse, SearchResult, web_search
from llmweb.tools import run_tool_call, tool_definitions

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
