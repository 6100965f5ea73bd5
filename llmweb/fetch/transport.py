"""The one module that talks to the network.

Every connection is opened by :class:`PinnedBackend`: it resolves the host once, judges
every address the resolver returned (:mod:`.addresses`), and connects to a judged
address itself, so a DNS answer that changes between check and connect (rebinding) never
reaches a private address. TLS still verifies, and SNI and Host still carry, the host
name. httpx's own transport takes no network backend, so :class:`PinnedTransport` wraps
an httpcore pool in a small httpx transport.

:func:`fetch` follows redirects by hand (each hop is a new judged connection), drops
credentials when the origin changes, streams the body under a decoded-byte cap, and
keeps one deadline for the whole fetch, which a server trickling a byte at a time
cannot stretch.
"""

from __future__ import annotations

import base64
import contextlib
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import httpcore
import httpx

from llmweb.errors import BlockedAddress, Timeout, TooLarge, Unreachable, UnsupportedContent, UpstreamStatus
from llmweb.fetch import header_values, limits
from llmweb.fetch.addresses import AllowList, Refusal, judge_address
from llmweb.fetch.inflate import ContentDecoder, CorruptEncoding, DecodedTooLarge, UnknownEncoding
from llmweb.fetch.rewrite import address_problem

REQUEST_HEADERS = {
    "User-Agent": limits.USER_AGENT,
    "Accept": (
        "text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,"
        "application/json;q=0.8,application/pdf;q=0.8,*/*;q=0.5"
    ),
    "Accept-Encoding": "gzip, deflate",  # only what inflate.py can bound
}
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


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
    return list(answer)


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

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, self._deadline.clamp(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
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


# most specific first: the first isinstance match wins
_HTTPCORE_ERRORS: tuple[tuple[type[Exception], type[httpx.TransportError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.ProtocolError, httpx.ProtocolError),
)


@contextlib.contextmanager
def _as_httpx_errors() -> Iterator[None]:
    try:
        yield
    except Exception as exc:
        for core, mapped in _HTTPCORE_ERRORS:
            if isinstance(exc, core):
                raise mapped(str(exc)) from exc
        raise


class _ResponseStream(httpx.SyncByteStream):
    def __init__(self, stream: Iterable[bytes]) -> None:
        self._stream = stream

    def __iter__(self) -> Iterator[bytes]:
        with _as_httpx_errors():
            yield from self._stream

    def close(self) -> None:
        close = getattr(self._stream, "close", None)
        if close is not None:
            close()


class PinnedTransport(httpx.BaseTransport):
    """An httpx transport whose every connection goes through :class:`PinnedBackend`."""

    def __init__(
        self,
        allow: AllowList,
        deadline: Deadline,
        ssl_context: ssl.SSLContext | None = None,
        resolver: Resolver = system_resolver,
    ) -> None:
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context or httpx.create_ssl_context(),
            network_backend=PinnedBackend(allow, deadline, resolver),
            http1=True,
            http2=False,
            retries=0,
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.SyncByteStream)
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
        with _as_httpx_errors():
            response = self._pool.handle_request(core_request)
        assert isinstance(response.stream, Iterable)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_ResponseStream(response.stream),
            extensions=response.extensions,
        )

    def close(self) -> None:
        self._pool.close()


@dataclass(frozen=True)
class Fetched:
    url: str  # after redirects
    status: int
    headers: httpx.Headers
    body: bytes  # decoded; for an error status only its first ERROR_BODY_BYTES
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
    transport = PinnedTransport(allow, deadline, resolver=resolver)
    hops = _Hops(url)
    url = hops.first  # without credentials, which messages must not repeat
    try:
        return _follow(transport, hops, deadline, max_bytes, max_redirects)
    except AddressRefused as exc:
        raise BlockedAddress(_blocked_message(hops, exc.refusal), url) from None
    except httpx.TimeoutException:
        raise Timeout(
            f"Fetching {url} took longer than {timeout:g} seconds, the limit for one fetch, so it was stopped. "
            "Try again later, or fetch a different page."
        ) from None
    except httpx.ConnectError as exc:
        raise Unreachable(
            f"{hops.current} could not be reached: {exc}. Check the address for typos, or try again later.",
            url,
        ) from None
    except httpx.TransportError as exc:
        # by its kind only: h11 quotes what it could not parse, and that is the server's text
        raise Unreachable(
            f"The connection broke while fetching {hops.current}: {_broken(exc)}. Try again later.",
            url,
        ) from None
    finally:
        transport.close()


def _broken(error: httpx.TransportError) -> str:
    if isinstance(error, httpx.ProtocolError):
        return "the server's answer broke the HTTP protocol"
    if isinstance(error, httpx.ReadError):
        return "reading the answer failed"
    if isinstance(error, httpx.WriteError):
        return "sending the request failed"
    return f"the transport failed ({type(error).__name__})"


class _Hops:
    """Where the fetch is, and what it may still send there."""

    def __init__(self, url: str) -> None:
        start = httpx.URL(url)
        self.current = start.copy_with(username=None, password=None, fragment=None)
        self.first = str(self.current)
        self.origin = _origin(self.current)
        self.authorization: str | None = None
        if start.username or start.password:
            pair = f"{start.username}:{start.password}".encode()
            self.authorization = "Basic " + base64.b64encode(pair).decode("ascii")
        self.cookies: dict[tuple[str, bytes, int | None], dict[str, str]] = {}
        self.redirects = 0

    def headers(self) -> dict[str, str]:
        headers = dict(REQUEST_HEADERS)
        if self.authorization:
            headers["Authorization"] = self.authorization
        jar = self.cookies.get(_origin(self.current))
        if jar:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in jar.items())
        return headers

    def remember_cookies(self, response: httpx.Response) -> None:
        """Keep Set-Cookie values for the origin that set them, and only for it."""
        for header in response.headers.get_list("set-cookie"):
            name, sep, value = header.split(";", 1)[0].partition("=")
            if sep and name.strip():
                self.cookies.setdefault(_origin(self.current), {})[name.strip()] = value.strip()

    def redirect(self, location: str, status: int) -> None:
        try:
            target = self.current.join(location).copy_with(username=None, password=None, fragment=None)
        except (httpx.InvalidURL, ValueError):
            target = None
        if target is None or target.scheme not in ("http", "https") or not target.raw_host:
            # the Location itself is never quoted: a page writes it, and an error reads as llmweb's words
            scheme = header_values.token(target.scheme if target else None)
            kind = f"a {scheme}: address" if scheme else "an address"
            raise UpstreamStatus(
                f"{self.first} redirected to {kind}, which is not an http or https address, "
                "so llmweb did not follow it. Search for another source.",
                self.first,
                status,
            )
        problem = address_problem(target)
        if problem is not None:
            raise UpstreamStatus(
                f"{self.first} redirected to an address with {problem}, so llmweb did not follow it. "
                "Search for another source.",
                self.first,
                status,
            )
        if _origin(target) != self.origin:
            self.authorization = None  # credentials belong to the origin they were given for
        self.current = target
        self.redirects += 1


def _origin(url: httpx.URL) -> tuple[str, bytes, int | None]:
    return (url.scheme, url.raw_host, url.port)  # raw_host: .host decodes IDNA, which can raise


def _follow(
    transport: PinnedTransport, hops: _Hops, deadline: Deadline, max_bytes: int, max_redirects: int
) -> Fetched:
    for hop in range(max_redirects + 1):
        timeouts = dict.fromkeys(("connect", "read", "write", "pool"), deadline.clamp())
        request = httpx.Request("GET", hops.current, headers=hops.headers(), extensions={"timeout": timeouts})
        response = transport.handle_request(request)
        try:
            hops.remember_cookies(response)
            location = response.headers.get("location")
            if response.status_code in _REDIRECT_STATUSES and location:
                if hop == max_redirects:
                    raise UpstreamStatus(
                        f"{hops.first} redirected more than {max_redirects} times, so llmweb stopped following "
                        f"at {hops.current}. Fetch the final address directly if you know it, or search for the page.",
                        hops.first,
                        response.status_code,
                    )
                hops.redirect(location, response.status_code)
                continue
            error = response.status_code >= 400
            cap = min(max_bytes, limits.ERROR_BODY_BYTES) if error else max_bytes
            body = _read_body(response, cap, deadline, str(hops.current), truncate=error)
            return Fetched(str(hops.current), response.status_code, response.headers, body, hops.redirects)
        finally:
            response.close()
    raise AssertionError("unreachable: the loop returns or raises")


def _read_body(response: httpx.Response, cap: int, deadline: Deadline, url: str, *, truncate: bool) -> bytes:
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
        named = header_values.token(exc.encoding)  # a short token, never the header's free text
        how = f"as {named!r}" if named else "in an unknown way"
        raise UnsupportedContent(
            f"{url} was sent compressed {how}, which llmweb did not ask for and does not decode. "
            "Try another source for the same content.",
            url,
        ) from None
    declared = response.headers.get("content-length", "")
    if decoder.identity and declared.isdigit() and int(declared) > cap and not truncate:
        raise too_large  # an honest Content-Length saves the download; a lying one is caught below
    # one growing buffer: a list of chunks costs ~50 bytes per chunk, and a server sending
    # 1-byte chunks would make that 50 times the bytes kept
    body = bytearray()
    raw = 0
    try:
        for chunk in response.iter_raw():
            if deadline.remaining() <= 0:
                raise httpx.ReadTimeout("the fetch deadline passed while reading the body")
            raw += len(chunk)
            if raw > cap:  # compressed input larger than the cap cannot decode to less
                raise DecodedTooLarge
            body += decoder.feed(chunk)
            if len(body) > cap:
                raise DecodedTooLarge
        body += decoder.flush()
    except DecodedTooLarge:
        if not truncate:
            raise too_large from None
    except CorruptEncoding as exc:
        if not truncate:
            raise UnsupportedContent(
                f"{url} was sent with a damaged {encoding} compression ({exc}). Try again later or use another source.",
                url,
            ) from None
    del body[cap:]
    return bytes(body)


def _blocked_message(hops: _Hops, refusal: Refusal) -> str:
    subject = f"{hops.first} redirected to {hops.current}, which" if hops.redirects else hops.first
    if refusal.always:
        return (
            f"{subject} resolves to {refusal.address}, {refusal.reason}, which llmweb never fetches. "
            "Fetch a public address instead."
        )
    return (
        f"{subject} resolves to {refusal.address}, {refusal.reason}, which llmweb does not fetch by default. "
        "Fetch a public address instead, or ask the admin to add the host to LLMWEB_FETCH_ALLOW."
    )
