"""llmweb: web search and page fetching for a local language model, run in the home."""

from llmweb.errors import (
    BlockedAddress,
    ChallengePage,
    CompressorError,
    FetchError,
    InvalidInput,
    LlmwebError,
    NeedsJavaScript,
    NoReadableText,
    SearchUnavailable,
    Timeout,
    TooLarge,
    UnsupportedContent,
    UpstreamStatus,
)
from llmweb.search import SearchRequest, SearchResponse, SearchResult, web_search

__all__ = [
    "BlockedAddress",
    "ChallengePage",
    "CompressorError",
    "FetchError",
    "InvalidInput",
    "LlmwebError",
    "NeedsJavaScript",
    "NoReadableText",
    "SearchRequest",
    "SearchResponse",
    "SearchResult",
    "SearchUnavailable",
    "Timeout",
    "TooLarge",
    "UnsupportedContent",
    "UpstreamStatus",
    "web_search",
]
