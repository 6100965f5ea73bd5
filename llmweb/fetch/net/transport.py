"""The one module that talks to the network.

Every connection is opened by :class:`PinnedBackend`: it resolves the host once, judges
every address the resolver returned (:mod:`.addresses`), and connects to a judged
address itself, so a DNS answer that changes between check and connect (rebinding) never
reaches a private address. TLS still verifies, and SNI and Host still carry, the host
name. :class:`PinnedTransport` is an httpx transport on httpcore's connection pool opened
through that backend (both public seams). Every read and write of a connection checks the
fetch's deadline.

:func:`fetch` lets an httpx client follow redirects (each hop a new judged connection;
httpx drops credentials when the origin changes) after checking where each one leads,
keeps cookies to the origin that set them, streams the body under a decoded-byte cap,
and keeps one deadline for the whole fetch, which a server trickling a byte at a time
cannot stretch.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv6Address
from typing import Any

import httpcore
import httpx

from llmweb.errors import (
    BlockedAddress,
    FetchError,
    FetchTimeout,
    InvalidInput,
    RedirectRefused,
    TooLarge,
    Unreachable,
    UnsupportedContent,
)
from llmweb.fetch import limits
from llmweb.fetch.buffers import GrowingBuffer
from llmweb.fetch.net import header_values
from llmweb.fetch.net.addresses import AllowList, Refusal, judge_address
from llmweb.fetch.net.inflate import (
    MAX_CODINGS,
    ContentDecoder,
    CorruptEncoding,
    DecodedTooLarge,
    TooManyCodings,
    UnknownEncoding,
)
from llmweb.fetch.net.refresh import refresh_target
from llmweb.fetch.net.rewrite import address_problem
from llmweb.tls import tls_context

PAGE_REQUEST_HEADERS = {
    "User-Agent": limits.USER_AGENT,
    "Accept": (
        "text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,"
        "application/json;q=0.8,application/pdf;q=0.8,*/*;q=0.5"
    ),
    "Accept-Encoding": "gzip, deflate",  # only what inflate.py can bound
}


class Deadline:
    """One end time for a whole fetch; every wait is clamped to what is left of it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def remaining(self) -> float:
        return self._end - time.monotonic()

    def clamp(self, timeout: float | None = None) -> float:
        left = max(self.remaining(), 0.001)  # a zero timeout would make the socket non-blocking
        return left if timeout is None else min(timeout, left)


class AddressRefused(httpx.ConnectError):
    """Every address a host resolves to is one the fetcher must not reach."""

    def __init__(self, host: str, refusal: Refusal) -> None:
        super().__init__(f"{host} resolves to {refusal.address}, {refusal.reason}")
        self.host = host
        self.refusal = refusal


Resolver = Callable[[str, int], Sequence[str]]
"""``(host, port)`` → the host's IP addresses as text. Every address it returns is judged."""


def system_resolver(host: str, port: int) -> list[str]:
    """The system's answer (getaddrinfo), numeric forms such as ``2130706433`` included."""
    return [str(sockaddr[0]) for *_, sockaddr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]


def resolve_public_address(
    host: str,
    port: int,
    allow: AllowList,
    timeout: float | None = None,
    resolver: Resolver = system_resolver,
) -> list[str]:
    """The addresses of ``host`` the fetcher may connect to, judged on what the resolver returns.

    Numeric forms such as ``2130706433``, ``0x7f000001`` or ``127.1`` are resolved by the
    system exactly as a connection would resolve them. Raises AddressRefused when no
    address is permitted, httpcore.ConnectError when the name does not resolve.
    """
    permitted: list[str] = []
    refusals: list[Refusal] = []
    for address in _resolve(host, port, timeout, resolver):
        refusal = judge_address(host, address, allow)
        if refusal is not None:
            refusals.append(refusal)
        elif address not in permitted:
            permitted.append(address)
    if not permitted:
        if refusals:
            raise AddressRefused(host, refusals[0])
        raise httpcore.ConnectError(f"{host} has no address")
    return permitted


def _resolve(host: str, port: int, timeout: float | None, resolver: Resolver) -> list[str]:
    """``resolver`` bounded by the deadline (getaddrinfo itself takes no timeout)."""
    box: list[Sequence[str] | Exception] = []

    def resolve() -> None:
        try:
            box.append(resolver(host, port))
        except Exception as exc:  # boxed for the caller: nothing may escape a thread onto stderr
            box.append(exc)

    # a daemon thread: if the resolver hangs past the deadline it is left to finish alone
    thread = threading.Thread(target=resolve, name="llmweb-resolve", daemon=True)
    thread.start()
    thread.join(timeout)
    if not box:
        raise httpcore.ConnectTimeout(f"resolving {host} took too long")
    answer = box[0]
    if isinstance(answer, OSError):
        reason = answer.strerror if isinstance(answer, socket.gaierror) else str(answer)
        raise httpcore.ConnectError(f"{host} could not be resolved ({reason})")
    if isinstance(answer, Exception):  # e.g. UnicodeError: the system's IDNA codec refused the name
        raise httpcore.ConnectError(f"{host} could not be resolved ({type(answer).__name__})")
    return _addresses(host, answer)


MAX_ADDRESSES = 64
"""The most addresses of one host tried; getaddrinfo answers a handful."""


def _addresses(host: str, answer: object) -> list[str]:
    """A resolver's answer as a list of address texts, or ConnectError saying what was wrong with it.

    The resolver may be a calling program's own function: it must answer a list (or tuple)
    of addresses, each text or an ``ipaddress`` object.
    """
    if not isinstance(answer, list | tuple):
        raise httpcore.ConnectError(
            f"{host} could not be resolved (the resolver answered {type(answer).__name__}, not a list of addresses)"
        )
    addresses: list[str] = []
    for item in answer[:MAX_ADDRESSES]:
        if isinstance(item, IPv4Address | IPv6Address):
            item = str(item)
        if not isinstance(item, str):
            raise httpcore.ConnectError(
                f"{host} could not be resolved (the resolver answered a {type(item).__name__}, not an address)"
            )
        addresses.append(item)
    return addresses


class PinnedBackend(httpcore.NetworkBackend):
    """Connects only to addresses judged allowed, and holds every wait to the deadline."""

    def __init__(self, allow: AllowList, deadline: Deadline, resolver: Resolver = system_resolver) -> None:
        self._allow = allow
        self._deadline = deadline
        self._resolver = resolver
        self._system = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        addresses = resolve_public_address(
            host, port, self._allow, self._deadline.clamp(timeout), self._resolver
        )
        failure: Exception | None = None
        for address in addresses:
            if self._deadline.remaining() <= 0:
                raise httpcore.ConnectTimeout(f"connecting to {host} took too long")
            try:
                stream = self._system.connect_tcp(
                    address, port, self._deadline.clamp(timeout), local_address, socket_options
                )
            except httpcore.ConnectError as exc:
                failure = exc
                continue
            return _DeadlineStream(stream, self._deadline)
        assert failure is not None  # resolve_public_address returns at least one address
        raise failure

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("the fetcher does not use unix sockets")

    def sleep(self, seconds: float) -> None:
        time.sleep(min(seconds, max(self._deadline.remaining(), 0)))


class _DeadlineStream(httpcore.NetworkStream):
    def __init__(self, stream: httpcore.NetworkStream, deadline: Deadline) -> None:
        self._stream = stream
        self._deadline = deadline

    # Every read and write checks the deadline first, not only waits for it: a server whose
    # bytes are always ready (endless "102 Processing" answers, which httpcore skips in a
    # loop of its own) would otherwise never let a wait time out.
    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        if self._deadline.remaining() <= 0:
            raise httpcore.ReadTimeout("the fetch deadline passed while reading the answer")
        return self._stream.read(max_bytes, self._deadline.clamp(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        if self._deadline.remaining() <= 0:
            raise httpcore.WriteTimeout("the fetch deadline passed while sending the request")
        self._stream.write(buffer, self._deadline.clamp(timeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        # server_hostname is the URL's host name, so certificates are checked against it
        tls = self._stream.start_tls(ssl_context, server_hostname, self._deadline.clamp(timeout))
        return _DeadlineStream(tls, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class PinnedTransport(httpx.BaseTransport):
    """An httpx transport on httpcore's connection pool, every connection opened by :class:`PinnedBackend`.

    Built on the public seams of both libraries: httpcore's pool takes a network backend,
    and httpx takes any :class:`httpx.BaseTransport`. Only HTTP/1.1, no retries: a retry
    would be a second connection the deadline did not plan for."""

    def __init__(
        self,
        allow: AllowList,
        deadline: Deadline,
        ssl_context: ssl.SSLContext | None = None,
        resolver: Resolver = system_resolver,
    ) -> None:
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context or tls_context(),
            network_backend=PinnedBackend(allow, deadline, resolver),
            http1=True,
            http2=False,
            retries=0,
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _httpx_errors():
            answer = self._pool.handle_request(core_request)
        response = httpx.Response(
            answer.status, headers=answer.headers, stream=_BodyStream(answer), extensions=answer.extensions
        )
        if not response.has_redirect_location:
            return response
        # httpx reads and decodes a redirect's whole body before following it, with no bound
        # on its size or on gzip's output; llmweb never needs it, so it is dropped unread
        response.close()
        skipped = {b"content-encoding", b"content-length", b"transfer-encoding"}
        headers = [(name, value) for name, value in response.headers.raw if name.lower() not in skipped]
        return httpx.Response(response.status_code, headers=headers, extensions=response.extensions)

    def close(self) -> None:
        self._pool.close()


class _BodyStream(httpx.SyncByteStream):
    """httpcore's response body as httpx reads it, its errors as httpx's."""

    def __init__(self, answer: httpcore.Response) -> None:
        self._answer = answer

    def __iter__(self) -> Iterator[bytes]:
        with _httpx_errors():
            yield from self._answer.iter_stream()

    def close(self) -> None:
        with _httpx_errors():
            self._answer.close()


# httpcore's errors and httpx's counterparts, most specific first: httpx's client and
# fetch() below speak httpx's
_HTTPX_ERRORS: tuple[tuple[type[Exception], type[httpx.TransportError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProxyError, httpx.ProxyError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
)


@contextlib.contextmanager
def _httpx_errors() -> Iterator[None]:
    try:
        yield
    except Exception as exc:
        for core, ours in _HTTPX_ERRORS:
            if isinstance(exc, core):
                raise ours(str(exc)) from exc
        raise


class _SameOriginCookies(http.cookiejar.DefaultCookiePolicy):
    """Cookies go back only to the origin that set them: http.cookiejar alone ignores the
    port, so each cookie is tied to the port it came from."""

    def set_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        if not super().set_ok(cookie, request):
            return False
        # request_port is the very function the jar later compares ports with (typeshed omits it)
        cookie.port = http.cookiejar.request_port(request)  # type: ignore[attr-defined]
        cookie.port_specified = True
        return True


@dataclass(frozen=True)
class Fetched:
    url: str  # after redirects
    status: int
    headers: httpx.Headers
    body: memoryview  # decoded, read-only, in a mapping of its own; for an error status only its first ERROR_BODY_BYTES
    redirects: int = 0  # how many redirects were followed: the server chose ``url`` when > 0


def fetch(
    url: str,
    *,
    allow: AllowList,
    max_bytes: int = limits.MAX_BYTES,
    timeout: float = limits.TIMEOUT_SECONDS,
    max_redirects: int = limits.MAX_REDIRECTS,
    resolver: Resolver = system_resolver,
    deadline: Deadline | None = None,
) -> Fetched:
    """GET ``url`` within every safety limit, or raise the llmweb error that says why not.

    ``deadline`` (instead of ``timeout``) lets the caller keep one deadline over the download
    and the work that follows it.
    """
    deadline = deadline or Deadline(timeout)
    timeout = deadline.seconds
    try:
        start = httpx.URL(url)
    except httpx.InvalidURL:
        raise InvalidInput(
            f"{url!r} is not an address llmweb can request. Send a complete http or https URL."
        ) from None
    journey = _Journey(start)
    client = httpx.Client(
        transport=PinnedTransport(allow, deadline, resolver=resolver),
        headers=PAGE_REQUEST_HEADERS,
        cookies=http.cookiejar.CookieJar(policy=_SameOriginCookies()),
        follow_redirects=True,
        max_redirects=max_redirects,
        timeout=None,  # the deadline bounds every wait (PinnedBackend, _DeadlineStream)
        trust_env=False,  # no proxy or .netrc from the environment: pages are fetched directly
        event_hooks={"request": [journey.arrive], "response": [journey.check_redirect]},
    )
    first = journey.first  # without credentials, which messages must not repeat
    try:
        with client:
            request = client.build_request("GET", start)
            while True:
                response = client.send(request, stream=True)
                try:
                    error = response.status_code >= 400
                    cap = min(max_bytes, limits.ERROR_BODY_BYTES) if error else max_bytes
                    body = _read_body(response, cap, deadline, journey.first, truncate=error)
                finally:
                    response.close()
                # a page that only sends the reader on (.refresh) is one more redirect, under the same limits
                target = None if error else journey.refresh(response, body)
                if target is None:
                    break
                client.max_redirects = max_redirects - journey.redirects - 1  # the total stays max_redirects
                if client.max_redirects < 0:
                    raise httpx.TooManyRedirects("refreshed past the limit")
                request = client.build_request("GET", target)
        return Fetched(journey.here, response.status_code, response.headers, body, journey.redirects)
    except AddressRefused as exc:
        raise BlockedAddress(_blocked_message(journey, exc.refusal), first) from None
    except httpx.TooManyRedirects:
        raise RedirectRefused(
            f"{first} redirected more than {max_redirects} times, so llmweb stopped following. "
            "Fetch the final address directly if you know it, or search for the page.",
            first,
        ) from None
    except httpx.TimeoutException:
        raise deadline_passed(first, timeout) from None
    except httpx.ConnectError as exc:
        raise Unreachable(
            f"{journey.first} could not be reached: {_unreachable(exc, journey)}. Check the address for typos, or try again later.",
            first,
        ) from None
    except httpx.TransportError as exc:
        # by its kind only: h11 quotes what it could not parse, and that is the server's text
        raise Unreachable(
            f"The connection broke while fetching {journey.first}: {_broken(exc)}. Try again later.",
            first,
        ) from None
    except httpx.InvalidURL:
        # the hook judged the redirect by joining it as a browser would; httpx builds it its own
        # way and can still fail ("http:foo"). Any address httpx cannot build ends here.
        if journey.redirecting:
            raise RedirectRefused(
                f"{first} redirected to an address that is not a valid URL, so llmweb did not follow it. "
                "Search for another source.",
                first,
            ) from None
        raise InvalidInput(
            f"{first} is not an address llmweb can request. Send a complete http or https URL."
        ) from None
    except httpx.HTTPError as exc:  # anything else httpx raises, named by its kind
        raise FetchError(f"Fetching {first} failed ({type(exc).__name__}). Try again later.", first) from None


def deadline_passed(url: str, seconds: float) -> FetchTimeout:
    """The error of a fetch whose deadline passed before its page was downloaded."""
    return FetchTimeout(
        f"Fetching {url} took longer than {seconds:g} seconds, the limit for one fetch, so it was stopped. "
        "Try again later, or fetch a different page.",
        url,
    )


def _unreachable(error: httpx.ConnectError, journey: _Journey) -> str:
    # its text names the host: after a redirect, one the site chose
    return "the address it redirected to did not connect" if journey.redirects > 0 else str(error)


def _broken(error: httpx.TransportError) -> str:
    if isinstance(error, httpx.ProtocolError):
        return "the server's answer broke the HTTP protocol"
    if isinstance(error, httpx.ReadError):
        return "reading the answer failed"
    if isinstance(error, httpx.WriteError):
        return "sending the request failed"
    return f"the transport failed ({type(error).__name__})"


class _Journey:
    """Where a fetch is, and the check of every redirect before httpx follows it.

    Messages name the address asked for (``first``), never one a redirect chose (``here``):
    an error reads as llmweb's own words, and a site writes its Location freely. The result
    shows the final address between the untrusted-text markers instead (render_fetch).
    """

    def __init__(self, start: httpx.URL) -> None:
        self.first = _shown(start)
        self.here = self.first
        self.redirects = -1  # the first request is no redirect
        self.redirecting = False  # a redirect passed check_redirect and is being followed

    def arrive(self, request: httpx.Request) -> None:
        """httpx's request hook: the first request and each redirected one."""
        self.redirects += 1
        self.here = _shown(request.url)
        self.redirecting = False

    def check_redirect(self, response: httpx.Response) -> None:
        """httpx's response hook: refuse a redirect to anything but an http(s) address with a usable host."""
        if not response.has_redirect_location:
            return
        try:
            target = response.request.url.join(response.headers["location"])
        except (httpx.InvalidURL, ValueError, UnicodeError):
            target = None
        if target is None or target.scheme not in ("http", "https") or not target.raw_host:
            # the Location itself is never quoted: a page writes it, and an error reads as llmweb's words
            scheme = header_values.known_scheme(target.scheme if target else None)
            kind = f"a {scheme}: address" if scheme else "an address"
            raise RedirectRefused(
                f"{self.first} redirected to {kind}, which is not an http or https address, "
                "so llmweb did not follow it. Search for another source.",
                self.first,
            )
        problem = address_problem(target)
        if problem is not None:
            raise RedirectRefused(
                f"{self.first} redirected to an address with {problem}, so llmweb did not follow it. "
                "Search for another source.",
                self.first,
            )
        self.redirecting = True

    def refresh(self, response: httpx.Response, body: memoryview) -> httpx.URL | None:
        """Where a page sends the reader at once (:mod:`.refresh`), when it is another http or
        https address with a usable host; None to read the page itself."""
        written = refresh_target(response.headers.get("content-type"), response.headers.get("refresh"), body)
        if written is None:
            return None
        try:
            target = response.request.url.join(written)
        except (httpx.InvalidURL, ValueError, UnicodeError):
            return None
        if (
            target.scheme not in ("http", "https")
            or not target.raw_host
            or address_problem(target) is not None
        ):
            return None  # a refresh to no web address is none a reader could follow: the page stands
        if target.copy_with(fragment=None) == response.request.url.copy_with(fragment=None):
            return None  # a refresh of the page itself reloads it
        self.redirecting = True
        return target


def _shown(url: httpx.URL) -> str:
    """The address as messages name it: without credentials or fragment."""
    return str(url.copy_with(username=None, password=None, fragment=None))


def _read_body(
    response: httpx.Response, cap: int, deadline: Deadline, url: str, *, truncate: bool
) -> memoryview:
    """The decoded body, streamed; over ``cap`` it is TooLarge (or cut, for an error page)."""
    too_large = TooLarge(
        f"{url} is larger than {cap:,} bytes once decoded, the most llmweb reads. "
        "Look for a smaller page (a section, the raw file, an API answer) or ask the admin to raise the limit.",
        url,
    )
    encoding = response.headers.get("content-encoding")
    try:
        decoder = ContentDecoder(encoding, cap)
    except UnknownEncoding as exc:
        named = header_values.known_coding(exc.encoding)  # a registered coding, never the header's words
        how = f"as {named!r}" if named else "in an unknown way"
        raise UnsupportedContent(
            f"{url} was sent compressed {how}, which llmweb did not ask for and does not decode. "
            "Try another source for the same content.",
            url,
        ) from None
    except TooManyCodings as exc:
        raise UnsupportedContent(
            f"{url} was sent compressed {exc.count:,} times over, and llmweb undoes at most {MAX_CODINGS} "
            "layers of compression (no server needs more). Try another source for the same content.",
            url,
        ) from None
    declared = response.headers.get("content-length", "")
    if decoder.identity and declared.isdigit() and int(declared) > cap and not truncate:
        raise too_large  # an honest Content-Length saves the download; a lying one is caught below
    # one growing buffer: a list of chunks costs ~50 bytes per chunk, and a server sending
    # 1-byte chunks would make that 50 times the bytes kept; in a mapping of its own, so the
    # system gets it back whole when the fetch ends (:mod:`..buffers`)
    body = GrowingBuffer()
    raw = 0
    try:
        for chunk in response.iter_raw():
            if deadline.remaining() <= 0:
                raise httpx.ReadTimeout("the fetch deadline passed while reading the body")
            raw += len(chunk)
            if raw > cap:  # compressed input larger than the cap cannot decode to less
                raise DecodedTooLarge
            for piece in decoder.pieces(chunk):
                body.append(piece)
                if body.size > cap:
                    raise DecodedTooLarge
        for piece in decoder.last_pieces():
            body.append(piece)
    except DecodedTooLarge:
        if not truncate:
            raise too_large from None
    except CorruptEncoding as exc:
        if not truncate:
            raise UnsupportedContent(
                f"{url} was sent with a damaged {', '.join(decoder.codings)} compression ({exc}). "
                "Try again later or use another source.",
                url,
            ) from None
    return body.view(cap)


def _blocked_message(journey: _Journey, refusal: Refusal) -> str:
    subject = f"{journey.first} redirected to an address that" if journey.redirects else journey.first
    if refusal.always:
        return (
            f"{subject} resolves to {refusal.address}, {refusal.reason}, which llmweb never fetches. "
            "Fetch a public address instead."
        )
    return (
        f"{subject} resolves to {refusal.address}, {refusal.reason}, which llmweb does not fetch by default. "
        "Fetch a public address instead, or ask the admin to add the host to LLMWEB_FETCH_ALLOW."
    )
