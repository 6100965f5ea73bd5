"""Byte caps, compression bombs and the deadline, live on loopback; plus the bounded decoder.

Misbehaving servers that pytest-httpserver cannot imitate (trickling, endless chunked
bodies, silence) are small raw-socket servers on 127.0.0.1.
"""

from __future__ import annotations

import gzip
import socket
import struct
import threading
import tracemalloc
import zlib
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pytest_httpserver import HTTPServer

from llmweb.errors import Timeout, TooLarge, Unreachable, UnsupportedContent, UpstreamStatus
from llmweb.fetch import web_fetch
from llmweb.fetch.net.inflate import ContentDecoder, DecodedTooLarge

TEXT = " ".join(["Readable text that arrives compressed."] * 20)

Handler = Callable[[socket.socket, threading.Event], None]


pytestmark = pytest.mark.usefixtures("allow_test_servers")


class RawServer:
    """Accepts connections on 127.0.0.1 and hands each to ``handler`` until closed."""

    def __init__(self, handler: Handler) -> None:
        self._handler = handler
        self._stop = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}/"
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            with conn:
                try:
                    read_request(conn)
                    self._handler(conn, self._stop)
                except OSError:
                    pass  # the fetcher hung up, as it should

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self._listener.close()


def read_request(conn: socket.socket) -> None:
    conn.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            return
        data += chunk


@pytest.fixture
def raw_server() -> Iterator[Callable[[Handler], RawServer]]:
    servers: list[RawServer] = []

    def start(handler: Handler) -> RawServer:
        servers.append(RawServer(handler))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


@pytest.fixture(scope="module")
def gzip_bomb() -> bytes:
    """1 GB of zeros, gzip-compressed (about 1 MB): one megabyte compressed after a full flush
    is the same bytes every time, so it is made once and repeated (compressing the whole
    gigabyte took 9 s of the suite), and the trailer carries the whole gigabyte's CRC and size."""
    megabytes = 1024
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 20)
    first = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
    repeated = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
    last_block = compressor.flush()[:-8]  # without the trailer of the 2 MB this compressor saw
    crc = 0
    for _ in range(megabytes):
        crc = zlib.crc32(zeros, crc)
    trailer = struct.pack("<II", crc, (megabytes << 20) & 0xFFFFFFFF)
    return first + repeated * (megabytes - 1) + last_block + trailer


def test_a_gzip_bomb_is_stopped_at_the_cap(httpserver_ipv4: HTTPServer, gzip_bomb: bytes) -> None:
    httpserver_ipv4.expect_request("/bomb").respond_with_data(
        gzip_bomb, content_type="text/plain", headers={"Content-Encoding": "gzip"}
    )
    with pytest.raises(TooLarge) as caught:
        web_fetch(httpserver_ipv4.url_for("/bomb"))
    assert "larger than 5,000,000 bytes once decoded" in str(caught.value)


def test_only_gzip_and_deflate_are_asked_for(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request("/").respond_with_data(TEXT, content_type="text/plain")
    web_fetch(httpserver_ipv4.url_for("/"))
    assert httpserver_ipv4.log[0][0].headers["Accept-Encoding"] == "gzip, deflate"


@pytest.mark.parametrize(
    ("encoding", "compress"),
    [
        ("gzip", gzip.compress),
        ("deflate", zlib.compress),
        ("deflate", lambda data: zlib.compress(data)[2:-4]),  # raw deflate, as some servers send it
    ],
)
def test_a_compressed_page_is_decoded(
    httpserver_ipv4: HTTPServer, encoding: str, compress: Callable[[bytes], bytes]
) -> None:
    httpserver_ipv4.expect_request("/").respond_with_data(
        compress(TEXT.encode()), content_type="text/plain", headers={"Content-Encoding": encoding}
    )
    assert web_fetch(httpserver_ipv4.url_for("/")).text == TEXT


def test_an_encoding_that_was_not_asked_for_is_refused(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request("/").respond_with_data(
        b"\x1b\x00\x00", content_type="text/plain", headers={"Content-Encoding": "br"}
    )
    with pytest.raises(UnsupportedContent) as caught:
        web_fetch(httpserver_ipv4.url_for("/"))
    assert "'br'" in str(caught.value)


def test_a_declared_length_over_the_cap_is_refused(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request("/").respond_with_data("x" * 2000, content_type="text/plain")
    with pytest.raises(TooLarge) as caught:
        web_fetch(httpserver_ipv4.url_for("/"), max_bytes=1000)
    assert "larger than 1,000 bytes" in str(caught.value)


def endless_chunks(conn: socket.socket, stop: threading.Event) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"x" * 65536
    for _ in range(1000):  # 64 MB at most, far past the cap
        if stop.is_set():
            return
        conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    conn.sendall(b"0\r\n\r\n")


def test_a_chunked_body_without_length_is_stopped_at_the_cap(
    raw_server: Callable[[Handler], RawServer],
) -> None:
    server = raw_server(endless_chunks)
    with pytest.raises(TooLarge):
        web_fetch(server.url, max_bytes=1_000_000)


def one_byte_chunks(conn: socket.socket, stop: threading.Event) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
    for _ in range(100):  # 1 MB at most, in batches of 10,000 one-byte chunks
        if stop.is_set():
            return
        conn.sendall(b"1\r\nx\r\n" * 10_000)
    conn.sendall(b"0\r\n\r\n")


def test_a_body_sent_a_byte_per_chunk_costs_memory_in_proportion_to_the_bytes_kept(
    raw_server: Callable[[Handler], RawServer],
) -> None:
    server = raw_server(one_byte_chunks)
    kept = 100_000
    tracemalloc.start()
    try:
        with pytest.raises(TooLarge):
            web_fetch(server.url, max_bytes=kept, timeout=60)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # a list of the chunks held ~42 bytes per byte (a bytes object and a list slot each)
    assert peak < 10 * kept, peak


def answering(body: bytes, *headers: str) -> Handler:
    """A handler sending ``body`` as it is, without copying it in the Python heap the test measures."""

    def answer(conn: socket.socket, stop: threading.Event) -> None:
        head = ["HTTP/1.1 200 OK", f"Content-Length: {len(body)}", "Connection: close", *headers]
        conn.sendall("\r\n".join(head).encode() + b"\r\n\r\n")
        conn.sendall(body)

    return answer


def python_heap_peak(raw_server: Callable[[Handler], RawServer], fetch: Callable[[], object]) -> int:
    """The most the Python heap held above its start while ``fetch`` ran (tracemalloc), after
    a small page was fetched first: what the first fetch of a process sets up is not counted."""
    web_fetch(raw_server(answering(TEXT.encode(), "Content-Type: text/plain")).url, timeout=60)
    tracemalloc.start()
    try:
        fetch()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_page_body_never_passes_through_the_python_heap(
    raw_server: Callable[[Handler], RawServer],
) -> None:
    # A body of a few MB freed from malloc stays in the arena of the thread that freed it, so
    # many fetches at once each kept a body's worth (llmweb/fetch/buffers.py); in a mapping
    # of its own it goes back to the system. The worker returns only the short text.
    page = (
        b"<html><body><!--"
        + b"x" * 4_000_000
        + b"--><article><p>"
        + TEXT.encode()
        + b"</p></article></body></html>"
    )
    server = raw_server(answering(page, "Content-Type: text/html"))
    texts: list[str] = []
    peak = python_heap_peak(raw_server, lambda: texts.append(web_fetch(server.url, timeout=60).text))
    assert TEXT in texts[0]
    # the body, its copy as bytes and its copy in the worker's job were 12 MB of it (14 MB peak);
    # the bound leaves room for what other threads of the test process allocate meanwhile
    assert peak < 4_000_000, peak


def test_a_gzip_bomb_is_inflated_a_piece_at_a_time(
    raw_server: Callable[[Handler], RawServer], gzip_bomb: bytes
) -> None:
    server = raw_server(answering(gzip_bomb, "Content-Type: text/plain", "Content-Encoding: gzip"))

    def fetch_bomb() -> None:
        with pytest.raises(TooLarge):
            web_fetch(server.url)

    peak = python_heap_peak(raw_server, fetch_bomb)
    # one call to zlib inflated the whole cap at once: 5 MB beside the body (10 MB peak)
    assert peak < 4_000_000, peak


def test_an_error_page_over_the_cap_is_reported_by_its_status(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request("/").respond_with_data(
        "x" * 3_000_000, status=404, content_type="text/plain"
    )
    with pytest.raises(UpstreamStatus) as caught:
        web_fetch(httpserver_ipv4.url_for("/"), max_bytes=1_000_000)
    assert caught.value.status == 404


def trickle(conn: socket.socket, stop: threading.Event) -> None:
    """A byte every half second for ten seconds, then a hang-up: without a deadline, no Timeout."""
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n")
    for _ in range(20):
        if stop.wait(0.5):
            return
        conn.sendall(b"a")


def test_a_trickling_server_is_cut_off_at_the_deadline(raw_server: Callable[[Handler], RawServer]) -> None:
    server = raw_server(trickle)
    with pytest.raises(Timeout) as caught:
        web_fetch(server.url, timeout=2)
    assert "took longer than 2 seconds" in str(caught.value)


def silence(conn: socket.socket, stop: threading.Event) -> None:
    stop.wait(10)  # then hang up: without a deadline the fetch fails otherwise, not with Timeout


def test_a_server_that_never_answers_is_cut_off_at_the_deadline(
    raw_server: Callable[[Handler], RawServer],
) -> None:
    server = raw_server(silence)
    with pytest.raises(Timeout):
        web_fetch(server.url, timeout=1)


def test_a_port_nobody_listens_on_is_unreachable() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(Unreachable) as caught:
        web_fetch(f"http://127.0.0.1:{port}/")
    assert "could not be reached" in str(caught.value)


def decode(compressed: bytes, encoding: str, limit: int, piece: int = 7) -> bytes:
    decoder = ContentDecoder(encoding, limit)
    out = [decoder.feed(compressed[i : i + piece]) for i in range(0, len(compressed), piece)]
    return b"".join(out) + decoder.flush()


@given(st.binary(max_size=5000), st.integers(min_value=1, max_value=64))
def test_the_decoder_restores_any_body_within_the_limit(data: bytes, piece: int) -> None:
    assert decode(gzip.compress(data), "gzip", limit=5000, piece=piece) == data


@given(st.binary(min_size=101, max_size=5000))
def test_the_decoder_refuses_any_body_past_the_limit(data: bytes) -> None:
    with pytest.raises(DecodedTooLarge):
        decode(gzip.compress(data), "gzip", limit=100)


def test_the_decoder_reads_every_member_of_a_multi_member_gzip() -> None:
    assert decode(gzip.compress(b"first ") + gzip.compress(b"second"), "gzip", limit=100) == b"first second"


def test_the_decoder_undoes_stacked_encodings_in_reverse_order() -> None:
    assert decode(zlib.compress(gzip.compress(b"inner")), "gzip, deflate", limit=100) == b"inner"


def test_a_redirects_body_is_never_read_so_an_endless_or_bombed_one_costs_nothing(
    raw_server: Callable[[Handler], RawServer], httpserver_ipv4: HTTPServer, gzip_bomb: bytes
) -> None:
    # httpx reads (and un-gzips, without a bound) a redirect's body before it follows it;
    # the fetcher's transport hands it over empty, so the redirect is followed at once.
    httpserver_ipv4.expect_request("/landing").respond_with_data(TEXT, content_type="text/plain")
    landing = httpserver_ipv4.url_for("/landing")

    def endless_gzip_redirect(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(
            f"HTTP/1.1 302 Found\r\nLocation: {landing}\r\nContent-Encoding: gzip\r\n"
            "Transfer-Encoding: chunked\r\n\r\n".encode()
        )
        while not stop.is_set():
            conn.sendall(f"{len(gzip_bomb):x}\r\n".encode() + gzip_bomb + b"\r\n")

    server = raw_server(endless_gzip_redirect)
    result = web_fetch(server.url, timeout=10)
    assert result.text == TEXT
    assert result.url == landing
