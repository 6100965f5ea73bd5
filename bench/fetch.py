"""Part 5: web_fetch end to end from a loopback server: time and peak memory, decompression
bombs, and the hostile bodies of testbed.attacks (cheap to download, once expensive to read).

Each case runs in a fresh process (bench.fetch_case) with LLMWEB_FETCH_ALLOW=127.0.0.1,
since the fetcher refuses loopback by default. The bombs are built streaming: 1 GiB of
zeros never sits in memory, only its compressed form (about 1 MB of gzip, a few KB of
brotli).
"""

from __future__ import annotations

import contextlib
import html
import http.server
import io
import json
import os
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bench.report import MISSING, PartResult, Target, table
from bench.scoring import median
from llmweb.fetch import limits
from serve import stack
from testbed.attacks import HOSTILE, hostile_answers

GIB = 1024**3
BOMB_DECODED = GIB
MEMORY_TARGET_MB = 100
HOSTILE_MEMORY_TARGET_MB = 256
STOP_SECONDS = 1.0  # after the deadline: killing the worker and saying why
CASE_SECONDS = 300
CHUNK = 1024**2


@dataclass(frozen=True)
class Served:
    body: bytes
    headers: tuple[tuple[str, str], ...]
    chunked: bool = False  # the body is chunk-framed already; no Content-Length
    interim_seconds: float = 0.0  # "102 Processing" without pause for this long first


def article_html(size: int) -> bytes:
    """An HTML article of about ``size`` bytes: headings, paragraphs and a code block per section."""
    words = [
        "the",
        "of",
        "and",
        "to",
        "in",
        "a",
        "is",
        "that",
        "for",
        "it",
        "as",
        "was",
        "with",
        "be",
        "by",
        "on",
        "not",
        "he",
        "this",
        "are",
        "or",
        "his",
        "from",
        "at",
        "which",
    ]
    words += [
        "search",
        "engine",
        "results",
        "page",
        "model",
        "tokens",
        "fetch",
        "extract",
        "document",
        "server",
        "network",
        "latency",
        "memory",
    ]
    parts = ["<!doctype html><html><head><meta charset='utf-8'><title>Bench article</title></head><body>",
             "<nav><a href='/'>Home</a> <a href='/about'>About</a></nav><article><h1>Bench article</h1>"]  # fmt: skip
    total, n = sum(map(len, parts)), 0
    while total < size - 200:
        n += 1
        sentence = " ".join(words[(n * 7 + i * 3) % len(words)] for i in range(18)).capitalize() + "."
        block = f"<h2>Section {n}</h2><p>{html.escape(sentence * 6)}</p><p>{html.escape(sentence * 4)}</p>"
        if n % 5 == 0:
            block += f"<pre><code>def section_{n}(x):\n    return x * {n}\n</code></pre>"
        parts.append(block)
        total += len(block)
    parts.append("</article><footer>© bench</footer></body></html>")
    return "".join(parts).encode()


def gzip_bomb(decoded: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip wrapper
    zeros = bytes(CHUNK)
    out = [packer.compress(zeros) for _ in range(decoded // CHUNK)]
    return b"".join([*out, packer.flush()])


def brotli_bomb(decoded: int) -> bytes | None:
    try:
        import brotli
    except ImportError:
        return None
    packer = brotli.Compressor(quality=5)  # as small as quality 11 for zeros, 30 times faster
    zeros = bytes(CHUNK)
    out = [packer.process(zeros) for _ in range(decoded // CHUNK)]
    return b"".join([*out, packer.finish()])


def _handler(routes: dict[str, Served]) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            served = routes.get(self.path)
            if served is None:
                self.send_error(404)
                return
            if served.interim_seconds and not _stall(self.wfile, served.interim_seconds):
                return  # the fetcher hung up during the interim answers
            self.send_response(200)
            for name, value in served.headers:
                self.send_header(name, value)
            if served.chunked:
                self.send_header("Transfer-Encoding", "chunked")
            else:
                self.send_header("Content-Length", str(len(served.body)))
            self.end_headers()
            with contextlib.suppress(ConnectionError):  # the fetcher hangs up on a bomb, as it should
                self.wfile.write(served.body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


def _stall(out: io.BufferedIOBase, seconds: float) -> bool:
    """Answer "102 Processing" as fast as the client takes it for ``seconds``; False when it hung up."""
    burst = b"HTTP/1.1 102 Processing\r\n\r\n" * 100
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            out.write(burst)
        return True
    except ConnectionError:
        return False


@contextlib.contextmanager
def serving(routes: dict[str, Served]) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", stack.free_port()), _handler(routes))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@dataclass(frozen=True)
class Case:
    label: str
    path: str
    repeat: int
    refusals: tuple[str, ...] | None  # the errors that count as refusing it; None: must be read


@dataclass(frozen=True)
class CaseResult:
    ok: bool
    seconds: list[float]
    baseline_kib: int
    peak_kib: int
    method: str
    tree_baseline_kib: int = 0
    tree_peak_kib: int = 0
    total_chars: int = 0
    error: str = ""
    kinds: tuple[str, ...] = ()  # the error's class and every llmweb error class above it
    message: str = ""
    # False when the case process crashed (no time) or was stopped (no memory): a figure made
    # from such a case is missing, never 0
    time_measured: bool = True
    memory_measured: bool = True
    answer_chars: int = 0  # the rendered answer a model reads, for a result
    cpu_seconds: float | None = None  # this process, the caller
    workers_cpu_seconds: float | None = None  # its extraction workers, sampled

    def refused_by(self, refusals: tuple[str, ...] | None) -> bool:
        """Refused with one of ``refusals`` (by class or a class above it)."""
        return not self.ok and bool(set(self.kinds or (self.error,)) & set(refusals or ()))

    @property
    def grown_mb(self) -> float:
        """This process's growth."""
        return (self.peak_kib - self.baseline_kib) / 1024

    @property
    def tree_grown_mb(self) -> float:
        """The process tree's growth, the extraction worker included: sampled every 10 ms, and at
        least this process's own growth, whose exact peak a short spike cannot hide."""
        return max((self.tree_peak_kib - self.tree_baseline_kib) / 1024, self.grown_mb)

    def outcome(self) -> str:
        if self.ok:
            return f"text, {self.total_chars:,} characters; the answer shown, {self.answer_chars:,}"
        return f"{self.error}: {self.message[:220]}"

    def cpu(self) -> str:
        """CPU seconds of the caller and of its workers, such as "0.4 s / 3.1 s"."""
        if self.cpu_seconds is None:
            return "not measured"
        workers = "?" if self.workers_cpu_seconds is None else f"{self.workers_cpu_seconds:.1f} s"
        return f"{self.cpu_seconds:.1f} s / {workers}"


def run_case(base: str, case: Case) -> CaseResult:
    env = {**os.environ, "LLMWEB_FETCH_ALLOW": "127.0.0.1"}
    cmd = [sys.executable, "-m", "bench.fetch_case", base + case.path, base + "/warmup", str(case.repeat)]
    try:
        done = subprocess.run(
            cmd, capture_output=True, text=True, env=env, cwd=stack.REPO, timeout=CASE_SECONDS
        )
    except subprocess.TimeoutExpired:
        seconds = [float(CASE_SECONDS)]  # at least this long
        return CaseResult(
            False,
            seconds,
            0,
            0,
            "",
            error="did not end",
            message=f"stopped after {CASE_SECONDS} s",
            memory_measured=False,
        )
    if done.returncode != 0:
        return CaseResult(
            False,
            [],
            0,
            0,
            "",
            error="crashed",
            message=done.stderr[-300:],
            time_measured=False,
            memory_measured=False,
        )
    # the last line: a library may print before it
    return CaseResult(**json.loads(done.stdout.strip().splitlines()[-1]))


_HTML_TYPE = (("Content-Type", "text/html; charset=utf-8"),)


def run(workdir: Path) -> PartResult:
    part = PartResult("fetch", "5. web_fetch end to end")
    routes, brotli_built = _page_and_bomb_routes()
    cases = _page_and_bomb_cases(routes)
    hostile_cases = _hostile_cases(routes)
    rows: list[tuple[object, ...]] = []
    methods = ""
    hostile_results: list[CaseResult] = []
    with serving(routes) as base:
        # the hostile cases two at a time: two of them wait out the 20 s deadline, and a case's
        # worker is a process of its own, its memory its own (the pages' cases, timed, one by one)
        with ThreadPoolExecutor(max_workers=2) as pool:
            hostile_got = dict(
                zip(hostile_cases, pool.map(lambda c: run_case(base, c), hostile_cases), strict=True)
            )
        for case in [*cases, *hostile_cases]:
            got = hostile_got[case] if case in hostile_got else run_case(base, case)
            methods = got.method or methods
            rows.append(_row(part, case, got))
            if case in hostile_cases:
                part.targets.append(_hostile_target(case, got))
                hostile_results.append(got)
            else:
                _page_or_bomb_verdict(part, case, got)
    _hostile_figures(part, hostile_cases, hostile_results)
    part.add(_method_note(methods), "", _cases_table(rows))
    if not brotli_built:
        part.add("", "The brotli bomb was not built: the brotli package is not installed (bench extra).")
        part.targets.append(
            Target("brotli bomb", "refused, < 100 MB", "not measured: brotli not installed", None)
        )
    return part


def _page_and_bomb_routes() -> tuple[dict[str, Served], bool]:
    """The warm-up page, the two article pages and the bombs; whether the brotli bomb could be built."""
    routes = {
        "/warmup": Served(article_html(4_000), _HTML_TYPE),
        "/page-100k": Served(article_html(100_000), _HTML_TYPE),
        "/page-5m": Served(article_html(limits.MAX_BYTES - 50_000), _HTML_TYPE),
        "/bomb.gz": Served(gzip_bomb(BOMB_DECODED), (*_HTML_TYPE, ("Content-Encoding", "gzip"))),
    }
    brotli = brotli_bomb(BOMB_DECODED)
    if brotli is not None:
        routes["/bomb.br"] = Served(brotli, (*_HTML_TYPE, ("Content-Encoding", "br")))
    return routes, brotli is not None


def _page_and_bomb_cases(routes: dict[str, Served]) -> list[Case]:
    page_5m = len(routes["/page-5m"].body) / 1e6
    cases = [
        Case("100 KB article page", "/page-100k", 5, None),
        Case(
            f"{page_5m:.2f} MB article page (just under the {limits.MAX_BYTES / 1e6:.0f} MB cap)",
            "/page-5m",
            3,
            None,
        ),
        Case(
            f"gzip bomb: 1 GiB of zeros in {len(routes['/bomb.gz'].body) / 1e6:.1f} MB",
            "/bomb.gz",
            1,
            ("TooLarge",),
        ),
    ]
    if "/bomb.br" in routes:
        # web_fetch never asks for br; refusing the encoding is as good as stopping at the cap
        refusals = ("TooLarge", "UnsupportedContent")
        brotli = routes["/bomb.br"].body
        cases.append(
            Case(f"brotli bomb: 1 GiB of zeros in {len(brotli) / 1e3:.1f} KB", "/bomb.br", 1, refusals)
        )
    return cases


def _hostile_cases(routes: dict[str, Served]) -> list[Case]:
    """The hostile bodies and answers of testbed.attacks, each added to ``routes``."""
    for hostile in HOSTILE:
        headers = (("Content-Type", hostile.content_type),)
        routes[f"/hostile/{hostile.name}"] = Served(hostile.body, headers, hostile.chunked)
    hostile_cases = [
        Case(
            hostile.label,
            f"/hostile/{hostile.name}",
            1,
            tuple(e.__name__ for e in hostile.outcomes) if hostile.outcomes else None,
        )
        for hostile in HOSTILE
    ]
    for answer in hostile_answers():  # issue 23: answers the transport meets in the caller
        routes[f"/hostile/{answer.name}"] = Served(
            answer.body, answer.headers, interim_seconds=answer.interim_seconds
        )
        ends = tuple(e.__name__ for e in answer.outcomes)
        hostile_cases.append(Case(answer.label, f"/hostile/{answer.name}", 1, ends))
    return hostile_cases


def _row(part: PartResult, case: Case, got: CaseResult) -> tuple[object, ...]:
    """The case's row of the table (time, CPU, memory, outcome), said on the console too."""
    timing = (
        "not measured"
        if not got.time_measured
        else f"{median(got.seconds) * 1000:.0f} ms (median of {case.repeat})"
        if case.repeat > 1
        else f"{got.seconds[0]:.2f} s"
    )
    if got.memory_measured:
        baseline = f"{got.tree_baseline_kib / 1024:.0f} MB"
        grown, own = f"{got.tree_grown_mb:.1f} MB", f"{got.grown_mb:.1f} MB"
    else:
        baseline = grown = own = "not measured"
    part.say(f"{case.label}: {got.outcome()[:80]}, {timing}, +{got.tree_grown_mb:.1f} MB")
    return (case.label, timing, got.cpu(), baseline, grown, own, got.outcome())


def _page_or_bomb_verdict(part: PartResult, case: Case, got: CaseResult) -> None:
    """The 5 MB page's figures, or a bomb's target (refused, bounded memory)."""
    if case.path == "/page-5m":
        part.figure("page_5mb_seconds", median(got.seconds) if got.time_measured else MISSING)
        part.figure("page_5mb_peak_mb", got.tree_grown_mb if got.memory_measured else MISSING)
    elif case.refusals is not None:
        refused = got.refused_by(case.refusals)
        part.targets.append(
            Target(
                f"{case.label.split(':')[0]}: refused, peak memory above baseline",
                f"{' or '.join(case.refusals)}, < {MEMORY_TARGET_MB} MB",
                f"{got.error or 'not refused'}, {got.tree_grown_mb:.1f} MB",
                refused and got.tree_grown_mb < MEMORY_TARGET_MB,
            )
        )


def _hostile_figures(part: PartResult, hostile_cases: list[Case], hostile_results: list[CaseResult]) -> None:
    # one case without a measurement leaves the figure missing: its floor then fails (bench/floors.py)
    timed = all(got.time_measured for got in hostile_results)
    weighed = all(got.memory_measured for got in hostile_results)
    part.figure(
        "hostile_slowest_seconds", max(max(got.seconds) for got in hostile_results) if timed else MISSING
    )
    part.figure("hostile_peak_mb", max(got.tree_grown_mb for got in hostile_results) if weighed else MISSING)
    part.figure(
        "hostile_wrong_outcome",
        sum(
            not _ended_as_it_must(case, got) for got, case in zip(hostile_results, hostile_cases, strict=True)
        ),
    )


def _method_note(methods: str) -> str:
    """How the cases are served and measured; ``methods``: how the peak memory was read."""
    return (
        "A threaded HTTP server on 127.0.0.1 serves each body; each case is a fresh Python process calling "
        "`web_fetch(url)` with LLMWEB_FETCH_ALLOW=127.0.0.1. Peak memory = the peak resident size during the "
        "calls minus the resident size after the imports and one 4 KB warm-up fetch, for the whole process "
        "tree (this process and its extraction worker, summed every 10 ms) and, beside it, for this process "
        f"alone (peak read as {methods or 'unknown'}). CPU is this process's (the caller's) and its workers' "
        "(read from /proc every 10 ms), over all the calls of a case. The bombs are sent with their Content-Encoding "
        "whatever the request asked (web_fetch asks for gzip and deflate only). The hostile bodies "
        "(testbed/attacks.py) are small downloads that once took tens of seconds to minutes and hundreds of MB "
        f"to read; each must end within the {limits.TIMEOUT_SECONDS:g} s deadline (plus {STOP_SECONDS:g} s "
        f"to stop) and under +{HOSTILE_MEMORY_TARGET_MB} MB for the process tree. The last hostile rows are "
        "answers that break HTTP itself (endless `102 Processing`, a body compressed thousands of times), met "
        "by the transport in the calling process. CPU: this process's (less the memory sampling's) and the "
        "extraction workers', during the calls."
    )


def _cases_table(rows: list[tuple[object, ...]]) -> str:
    return table(
        (
            "case",
            "time",
            "CPU, this process / workers",
            "baseline RSS, tree",
            "peak above baseline, tree",
            "of it, this process",
            "outcome",
        ),
        rows,
    )


def _ended_as_it_must(case: Case, got: CaseResult) -> bool:
    """Refused as listed, or, for a page that must be read (no refusals listed), read."""
    return got.ok if case.refusals is None else got.refused_by(case.refusals)


def _hostile_target(case: Case, got: CaseResult) -> Target:
    must = " or ".join(case.refusals) if case.refusals is not None else "text"
    ended = _ended_as_it_must(case, got)
    if not (got.time_measured and got.memory_measured):
        return Target(
            f"{case.label}: ends within the deadline, bounded memory",
            f"{must}, ≤ {limits.TIMEOUT_SECONDS + STOP_SECONDS:g} s, < {HOSTILE_MEMORY_TARGET_MB} MB",
            f"{got.error}: not measured",
            False,
        )
    seconds = max(got.seconds)
    return Target(
        f"{case.label}: ends within the deadline, bounded memory",
        f"{must}, ≤ {limits.TIMEOUT_SECONDS + STOP_SECONDS:g} s, < {HOSTILE_MEMORY_TARGET_MB} MB",
        f"{got.error or 'text'}, {seconds:.1f} s, {got.tree_grown_mb:.0f} MB",
        ended
        and seconds <= limits.TIMEOUT_SECONDS + STOP_SECONDS
        and got.tree_grown_mb < HOSTILE_MEMORY_TARGET_MB,
    )
