"""Undo Content-Encoding without ever producing more than a byte cap. Pure: bytes in, bytes out.

httpx's own decoders inflate each chunk with no output limit (1 GB of zeros is ~1 MB of
gzip), so the fetcher asks only for gzip and deflate and inflates them here with zlib's
``max_length``. Brotli and zstd are never requested; a server that sends them anyway is
refused rather than decoded without a bound.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Iterable, Iterator


class DecodedTooLarge(Exception):
    """The decoded body passed the cap."""


class UnknownEncoding(Exception):
    """A Content-Encoding this decoder does not undo (br, zstd, compress, …)."""

    def __init__(self, encoding: str) -> None:
        super().__init__(encoding)
        self.encoding = encoding


class CorruptEncoding(Exception):
    """The compressed stream is damaged."""


class TooManyCodings(Exception):
    """The Content-Encoding lists more codings than :data:`MAX_CODINGS`."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


# A server compresses a body once; twice happens when an application and a proxy in front of
# it both gzip ("gzip, gzip"). No server means more, and each layer costs a decoder and a
# pass over the body, so a list of thousands (a body gzipped over and over, the header
# naming every layer) would make the work grow with the header.
MAX_CODINGS = 2


class ContentDecoder:
    """Decodes a body compressed with the encodings of a Content-Encoding header, in order."""

    def __init__(self, content_encoding: str | None, limit: int) -> None:
        names = [n.strip().lower() for n in (content_encoding or "").split(",")]
        names = [n for n in names if n and n != "identity"]
        for name in names:
            if name not in ("gzip", "x-gzip", "deflate"):
                raise UnknownEncoding(name)
        if len(names) > MAX_CODINGS:
            raise TooManyCodings(len(names))
        # the header lists encodings in the order they were applied; undo the last first.
        # Each layer's output is at most ``limit``, so all of them together at most
        # MAX_CODINGS times it, and the last one's, the body, at most ``limit``.
        self._layers = [_Inflater(name, limit) for name in reversed(names)]
        self.identity = not self._layers
        self.codings = tuple(names)  # as applied, without "identity": all a message may name

    def feed(self, data: bytes) -> bytes:
        return b"".join(self.pieces(data))

    def flush(self) -> bytes:
        return b"".join(self.last_pieces())

    def pieces(self, data: bytes) -> Iterator[bytes]:
        """What ``data`` decodes to, in pieces of at most PIECE_BYTES: a caller that stores
        each piece where it keeps the body never holds more of it twice (1 MB of a gzip bomb
        inflates to the whole cap at once)."""
        pieces: Iterable[bytes] = (data,)
        for layer in self._layers:
            pieces = _through(layer, pieces)
        yield from pieces

    def last_pieces(self) -> Iterator[bytes]:
        """What the decoders still hold once the input has ended, in pieces as above."""
        pieces: Iterable[bytes] = ()
        for layer in self._layers:
            pieces = itertools.chain(_through(layer, pieces), layer.flush_pieces())
        yield from pieces


PIECE_BYTES = 1 << 16
"""The most one call to zlib inflates at once."""


def _through(layer: _Inflater, pieces: Iterable[bytes]) -> Iterator[bytes]:
    for piece in pieces:
        yield from layer.feed(piece)


class _Inflater:
    def __init__(self, name: str, limit: int) -> None:
        self._gzip = name in ("gzip", "x-gzip")
        self._limit = limit
        self._produced = 0
        self._pending = b""
        self._inflater: zlib._Decompress | None = None
        self._finished = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._finished:
            return  # bytes after the end of the stream are junk; browsers ignore them too
        if self._inflater is None:
            data = self._pending + data
            if not self._gzip and len(data) < 2:  # need two bytes to tell zlib from raw deflate
                self._pending = data
                return
            self._pending = b""
            self._inflater = zlib.decompressobj(31 if self._gzip else _deflate_wbits(data))
        try:
            while data:
                chunk = self._inflater.decompress(data, min(PIECE_BYTES, self._limit - self._produced + 1))
                self._count(chunk)
                if chunk:
                    yield chunk
                if self._inflater.eof:
                    data = self._inflater.unused_data
                    if not (self._gzip and data.startswith(b"\x1f\x8b")):  # another gzip member follows
                        self._finished = True
                        break
                    self._inflater = zlib.decompressobj(31)
                else:
                    data = self._inflater.unconsumed_tail
        except zlib.error as exc:
            raise CorruptEncoding(str(exc)) from None

    def flush_pieces(self) -> Iterator[bytes]:
        if self._inflater is None:  # nothing, or a single byte, which holds no deflate stream
            return
        try:
            rest = self._inflater.flush()  # all input was consumed above, so only buffered bytes remain
        except zlib.error as exc:
            raise CorruptEncoding(str(exc)) from None
        self._count(rest)
        yield rest

    def _count(self, chunk: bytes) -> None:
        self._produced += len(chunk)
        if self._produced > self._limit:
            raise DecodedTooLarge


def _deflate_wbits(head: bytes) -> int:
    """Content-Encoding deflate should be zlib-wrapped (RFC 9110); some servers send it raw."""
    zlib_header = head[0] & 0x0F == 8 and ((head[0] << 8) | head[1]) % 31 == 0
    return 15 if zlib_header else -15
