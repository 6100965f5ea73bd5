"""The one exception tree of the llmweb client.

Every failure a caller can act on is a child of :class:`LlmwebError`, so a caller
catches at the level it cares about::

    LlmwebError
     ├── InvalidInput            the arguments cannot be used (empty query, bad URL, …)
     ├── SearchUnavailable       SearXNG or every engine it asked could not search
     ├── FetchError              a page could not be turned into text
     │    ├── BlockedAddress     the address is private, loopback, metadata, …
     │    ├── TooLarge           the body passed the byte cap, or reading it would take too much
     │    ├── UnsupportedContent images, archives, binaries, password-protected or broken PDFs
     │    ├── NeedsJavaScript    the page is an empty shell filled in by scripts
     │    ├── ChallengePage      a bot check ("Just a moment…", captcha) answered
     │    ├── UpstreamStatus     the server answered with an HTTP error status
     │    ├── RedirectRefused    a redirect llmweb does not follow: too many, not http(s), a bad address
     │    ├── Unreachable        no such host, connection refused or broken, bad TLS
     │    ├── NoReadableText     the page holds no text worth returning (a PDF of scanned pages)
     │    └── FetchTimeout       the fetch's deadline passed (also a Timeout)
     ├── Timeout                 a deadline passed: a search's, or a fetch's (FetchTimeout)
     └── CompressorError         the optional compressor failed

Each message says what happened and what to do next, in one or two sentences a
model can act on. Messages never carry secrets.
"""

from __future__ import annotations

from typing import Any


class LlmwebError(Exception):
    """Base of every error llmweb raises on purpose."""

    @property
    def message(self) -> str:
        return str(self)


class InvalidInput(LlmwebError, ValueError):
    """The caller's arguments cannot be used as they are."""


class SearchUnavailable(LlmwebError):
    """Searching failed: SearXNG is unreachable or refuses, or every engine failed.

    ``engines`` maps an unresponsive engine's name to SearXNG's reason for it.
    """

    def __init__(self, message: str, engines: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.engines = dict(engines or {})


class FetchError(LlmwebError):
    """A page could not be fetched or turned into text. ``url`` is the page asked for."""

    def __init__(self, message: str, url: str = "") -> None:
        super().__init__(message)
        self.url = url

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled whole: these errors come back from the extraction worker (fetch/worker.py)
        return type(self), (str(self), self.url)


class BlockedAddress(FetchError):
    """The address resolves to a network the fetcher must not reach."""


class TooLarge(FetchError):
    """The decoded body passed the byte cap, or turning it into text would pass a bound of
    the work after the download: elements, table cells, links, PDF content, or memory."""


class UnsupportedContent(FetchError):
    """The content type cannot be turned into text (image, archive, binary, …)."""


class NeedsJavaScript(FetchError):
    """The page is a shell whose content only JavaScript fills in.

    ``title`` and ``description`` are the page's own words about itself (None when it has
    none). They are not part of the message, which a model reads as llmweb's words: the
    model-facing answer shows them between the untrusted-text markers.
    """

    def __init__(
        self, message: str, url: str = "", title: str | None = None, description: str | None = None
    ) -> None:
        super().__init__(message, url)
        self.title = title
        self.description = description

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (str(self), self.url, self.title, self.description)


class ChallengePage(FetchError):
    """A bot check answered instead of the page."""


class UpstreamStatus(FetchError):
    """The server answered with an HTTP error status."""

    def __init__(self, message: str, url: str = "", status: int = 0) -> None:
        super().__init__(message, url)
        self.status = status

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (str(self), self.url, self.status)


class RedirectRefused(FetchError):
    """The server redirected where llmweb does not follow: past the most redirects, to a
    scheme other than http or https, or to an address that is not a usable host name."""


class Unreachable(FetchError):
    """The host could not be resolved or connected to, or the connection broke."""


class NoReadableText(FetchError):
    """The page holds no readable text (for example a scanned PDF)."""


class Timeout(LlmwebError):
    """A deadline passed: a search's (SearXNG did not answer in time) or a fetch's (FetchTimeout)."""


class FetchTimeout(FetchError, Timeout):
    """The fetch's one deadline passed: resolving, connecting, reading, or turning the page into text."""


class CompressorError(LlmwebError):
    """The optional compressor failed, so the call fails rather than return partial text."""
