"""A fake Brave Search API on loopback: canned answers, fast enough not to be what a load test measures.

Runs as its own process (``python -m testbed.fake_brave --corpus FILE --port N``) so it
does not share a GIL with the load generator. Asyncio, HTTP/1.1 keep-alive, answers
pre-serialised and pre-gzipped. The answer is chosen by the last number in ``q``
(modulo the corpus size), or by a hash of ``q`` when it has none, so the same query
gets the same answer whichever engine asks. ``--delay`` holds each answer back as a real
Brave would (about 300 ms); ``GET /__requests`` says how many searches it has answered.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import json
import re
import socket
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from serve import stack

BRAVE_PATH = "/res/v1/web/search"
COUNT_PATH = "/__requests"
_LAST_NUMBER = re.compile(r"(\d+)\D*$")


def answer_index(query: str, count: int) -> int:
    found = _LAST_NUMBER.search(query)
    return (int(found.group(1)) if found else zlib.crc32(query.encode())) % count


class Answers:
    def __init__(self, answers: list[dict[str, Any]]) -> None:
        self.plain = [json.dumps(a, ensure_ascii=False).encode() for a in answers]
        self.gzipped = [gzip.compress(body, 6) for body in self.plain]
        self.answered = 0

    def response(self, target: str, accepts_gzip: bool) -> bytes:
        parts = urlsplit(target)
        if parts.path == COUNT_PATH:
            return _http(200, str(self.answered).encode(), b"")
        if parts.path != BRAVE_PATH:
            return _http(404, b'{"type":"ErrorResponse","errors":[{"code":"NOT_FOUND"}]}', b"")
        query = (parse_qs(parts.query).get("q") or [""])[0]
        i = answer_index(query, len(self.plain))
        self.answered += 1
        if accepts_gzip:
            return _http(200, self.gzipped[i], b"Content-Encoding: gzip\r\n")
        return _http(200, self.plain[i], b"")


def _http(status: int, body: bytes, extra: bytes) -> bytes:
    reason = {200: b"OK", 404: b"Not Found"}[status]
    head = (
        b"HTTP/1.1 %d %s\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\n"
        b"X-RateLimit-Limit: 50, 20000000\r\nX-RateLimit-Remaining: 49, 19999999\r\n"
        b"X-RateLimit-Reset: 1, 2592000\r\n%s\r\n"
    ) % (status, reason, len(body), extra)
    return head + body


async def _serve_connection(
    answers: Answers, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float
) -> None:
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            target = lines[0].split(" ")[1] if lines[0].count(" ") >= 2 else "/"
            headers = {
                k.strip().lower(): v.strip()
                for k, _, v in (line.partition(":") for line in lines[1:] if line)
            }
            length = int(headers.get("content-length") or 0)
            if length:
                await reader.readexactly(length)
            if delay and target.startswith(BRAVE_PATH):
                await asyncio.sleep(delay)
            writer.write(answers.response(target, "gzip" in headers.get("accept-encoding", "")))
            await writer.drain()
            if headers.get("connection", "").lower() == "close":
                break
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
        pass
    finally:
        writer.close()


async def _main(corpus: Path, host: str, port: int, delay: float) -> None:
    answers = Answers(json.loads(corpus.read_text()))

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _serve_connection(answers, reader, writer, delay)

    server = await asyncio.start_server(handle, host, port, backlog=512)
    async with server:
        await server.serve_forever()


def start(answers: list[dict[str, Any]], workdir: Path, delay: float = 0.0) -> stack.Process:
    """The fake Brave in a process of its own on a free loopback port; stop() it when done."""
    workdir.mkdir(parents=True, exist_ok=True)
    corpus = workdir / "brave-answers.json"
    corpus.write_text(json.dumps(answers, ensure_ascii=False))
    port = stack.free_port()
    log = workdir / "fake-brave.log"
    cmd = [sys.executable, "-m", "testbed.fake_brave", "--corpus", str(corpus), "--port", str(port)]
    cmd += ["--delay", str(delay)]
    with log.open("wb") as out:
        popen = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=stack.REPO)
    proc = stack.Process("fake brave", popen, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and popen.poll() is None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return proc
        time.sleep(0.05)
    proc.stop()
    raise stack.StackError(f"the fake Brave did not listen on port {port}:\n{proc.log_text()[-2000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before each search answer")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main(args.corpus, args.host, args.port, args.delay))


if __name__ == "__main__":
    main()
