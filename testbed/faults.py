"""A fake Brave API on loopback that can be told to fail, and a load of JSON clients.

Shared by tests/test_reliability.py (a short run) and ``scripts/bench reliability``
(the long soak). Faults come in a fixed rotation so a run is repeatable:
HTTP 500, an answer slower than the engine's timeout, a 429 with X-RateLimit-Reset,
malformed JSON — interleaved with good answers.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

FAULTS = ("ok", "http500", "slow", "rate_limited", "malformed")


def good_answer(query: str) -> bytes:
    result = {
        "type": "search_result",
        "url": f"https://example.org/{abs(hash(query)) % 10_000}",
        "title": f"Wynik dla {query}",
        "description": "Opis <strong>wyniku</strong> z datą.",
        "extra_snippets": ["Pierwszy dodatkowy fragment.", "Drugi dodatkowy fragment."],
        "page_age": "2026-11-01T00:00:00",
    }
    return json.dumps({"type": "search", "web": {"type": "search", "results": [result]}}).encode()


@dataclass
class FaultyBrave:
    """Brave's web search endpoint; ``faulty`` switches the rotation of faults on and off."""

    slow_seconds: float = 2.0
    rate_limit_reset: int = 2
    faulty: bool = False
    served: Counter[str] = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _turn: int = 0
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def next_outcome(self) -> str:
        with self._lock:
            if not self.faulty:
                outcome = "ok"
            else:
                outcome = FAULTS[self._turn % len(FAULTS)]
                self._turn += 1
            self.served[outcome] += 1
            return outcome

    def respond(self, handler: BaseHTTPRequestHandler) -> None:
        query = parse_qs(urlsplit(handler.path).query).get("q", [""])[0]
        outcome = self.next_outcome()
        status, headers, body = 200, {"Content-Type": "application/json"}, b""
        if outcome == "ok":
            body = good_answer(query)
        elif outcome == "http500":
            status, body = 500, b'{"error": {"code": "INTERNAL"}}'
        elif outcome == "slow":
            time.sleep(self.slow_seconds)
            body = good_answer(query)
        elif outcome == "rate_limited":
            status = 429
            headers["X-RateLimit-Remaining"] = "0, 9000"
            headers["X-RateLimit-Reset"] = f"{self.rate_limit_reset}, 900000"
            body = b'{"type": "ErrorResponse", "errors": [{"code": "RATE_LIMITED"}]}'
        else:
            body = b'{"web": {"results": [{"url": '
        handler.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            handler.send_header(name, value)
        handler.end_headers()
        # SearXNG may have given up waiting (the slow fault); then there is nobody to tell.
        with contextlib.suppress(OSError):
            handler.wfile.write(body)


@contextmanager
def serving(brave: FaultyBrave) -> Iterator[FaultyBrave]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            brave.respond(self)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    brave.server = server
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield brave
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@dataclass
class LoadReport:
    """What a load run saw; ``problems`` lists every answer SearXNG did not mean to give."""

    requests: int = 0
    with_results: int = 0
    outage_answers: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def check_answer(answer: httpx.Response, engine: str, report: LoadReport) -> None:
    """Every answer is valid JSON with status 200; an empty one names the failed engine."""
    report.requests += 1
    report.statuses[answer.status_code] += 1
    if answer.status_code != 200:
        report.problems.append(f"HTTP {answer.status_code}: {answer.text[:120]}")
        return
    try:
        payload = answer.json()
    except ValueError:
        report.problems.append(f"not JSON: {answer.text[:120]}")
        return
    failed = dict(payload.get("unresponsive_engines") or [])
    for reason in failed.values():
        report.reasons[reason] += 1
    if payload.get("results"):
        report.with_results += 1
    elif engine in failed:
        report.outage_answers += 1
    else:
        report.problems.append(f"no results and {engine!r} not named as failed: {payload}")


def run_load(searxng_url: str, engine: str, clients: int, seconds: float) -> LoadReport:
    """``clients`` threads searching as fast as SearXNG answers, for ``seconds``."""
    report = LoadReport()
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def client(number: int) -> None:
        with httpx.Client(base_url=searxng_url, timeout=30) as http:
            n = 0
            while time.monotonic() < stop_at:
                n += 1
                answer = http.get("/search", params={"q": f"klient {number} zapytanie {n}", "format": "json"})
                with lock:
                    check_answer(answer, engine, report)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return report


def wait_for_results(searxng_url: str, limit_seconds: float) -> float | None:
    """Seconds until a search returns results again, or None if not within the limit."""
    started = time.monotonic()
    n = 0
    while time.monotonic() - started < limit_seconds:
        n += 1
        answer = httpx.get(searxng_url + "/search", params={"q": f"powrót {n}", "format": "json"}, timeout=30)
        if answer.status_code == 200 and answer.json().get("results"):
            return time.monotonic() - started
        time.sleep(0.25)
    return None
