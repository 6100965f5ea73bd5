"""web_fetch's HTML reading in two code trees, page by page in turn: ``python -m bench.extraction_speed BASE``.

Issue 22 asks that web_fetch read pages no slower than it did at 9fe2bf9. On a shared
machine two runs minutes apart differ by more than the change measured, so the two trees are
read side by side: one long-lived worker process per tree (``PYTHONPATH`` set to it), both fed
the same WCXB dev page in turn, each timing ``read_html_page(html, url)`` in CPU time of its own
process. The figure is the ratio of the sums: the base tree's CPU seconds over this tree's
(above 1.0 this tree reads more pages a second). Which tree goes first alternates page by page.

The answers are compared too (text, notes, title and date, or the refusal's class name): against a
checkout of the commit a speed change starts from, every page must read the same.

    git worktree add --detach /tmp/base 9fe2bf9
    LLMWEB_WCXB_SAMPLE=30,15 .venv/bin/python -m bench.extraction_speed /tmp/base
    .venv/bin/python -m bench.extraction_speed /tmp/base --part tuning --differ var/differ.json

Only WCXB's dev split is read (:mod:`bench.wcxb`, whose $LLMWEB_WCXB_SAMPLE it honours).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from bench.wcxb import MISSING, Page, dev_dir, load_pages, sample, tuning_part

HERE = Path(__file__).resolve().parent.parent
WARMUP_PAGES = 3  # read once by each worker before timing: imports, stoplists, compiled patterns

# Run by each worker with its tree first on sys.path; it knows only the read_html_page both trees
# have. Framed pickles over its stdin and stdout: (html, url) in, (cpu seconds, text) out.
WORKER = r"""
import pickle, struct, sys, time
from llmweb.errors import LlmwebError
from llmweb.fetch.html.extract import read_html_page
source, sink = sys.stdin.buffer, sys.stdout.buffer
while True:
    size = source.read(4)
    if len(size) < 4:
        break
    html, url = pickle.loads(source.read(struct.unpack("<I", size)[0]))
    started = time.process_time()
    try:
        page = read_html_page(html, url)
        text = "\n".join([page.text, "-- notes:", *page.notes, f"-- {page.title} {page.published}"])
    except LlmwebError as exc:
        text = "!" + type(exc).__name__
    seconds = time.process_time() - started
    reply = pickle.dumps((seconds, text))
    sink.write(struct.pack("<I", len(reply)) + reply)
    sink.flush()
"""
# 9fe2bf9 kept the module at llmweb/fetch/extract.py
OLD_MODULE = "llmweb.fetch.extract"


@dataclass
class Worker:
    tree: Path
    process: subprocess.Popen[bytes]
    seconds: float = 0.0

    @classmethod
    def start(cls, tree: Path) -> Worker:
        module = "llmweb.fetch.html.extract"
        if not (tree / "llmweb" / "fetch" / "html" / "extract.py").is_file():
            module = OLD_MODULE
        code = WORKER.replace("llmweb.fetch.html.extract", module)
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
        process = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=tree, env=env
        )
        return cls(tree, process)

    def read(self, page: Page) -> tuple[float, str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        request = pickle.dumps((page.html, page.url))
        self.process.stdin.write(struct.pack("<I", len(request)) + request)
        self.process.stdin.flush()
        reply: tuple[float, str] = pickle.loads(_frame(self.process.stdout))
        return reply

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def _frame(stream: IO[bytes]) -> bytes:
    head = stream.read(4)
    if len(head) < 4:
        raise SystemExit("a worker died (its error is above)")
    return stream.read(struct.unpack("<I", head)[0])


def compare(base: Path, pages: list[Page], rounds: int) -> dict[str, Any]:
    """Each tree's CPU seconds summed over ``pages`` (the fastest of ``rounds`` per page) and the
    pages whose texts differ."""
    workers = [Worker.start(base), Worker.start(HERE)]
    try:
        for page in pages[:WARMUP_PAGES]:
            for worker in workers:
                worker.read(page)
        differ: dict[str, dict[str, str]] = {}
        ratios: list[float] = []  # each page's base seconds over this tree's
        times: dict[str, tuple[str, float, float]] = {}  # each page's type, base and this tree's seconds
        for number, page in enumerate(pages):
            order = workers if number % 2 == 0 else workers[::-1]
            best: dict[int, float] = {}
            texts: dict[int, str] = {}
            for _ in range(rounds):
                for worker in order:
                    seconds, texts[id(worker)] = worker.read(page)
                    best[id(worker)] = min(best.get(id(worker), seconds), seconds)
            for worker in workers:
                worker.seconds += best[id(worker)]
            if best[id(workers[1])] > 0:
                ratios.append(best[id(workers[0])] / best[id(workers[1])])
            times[page.id] = (page.kind, best[id(workers[0])], best[id(workers[1])])
            old, new = (texts[id(w)] for w in workers)
            if old != new:
                differ[page.id] = {"kind": page.kind, "base": old, "this": new}
    finally:
        for worker in workers:
            worker.stop()
    old_seconds, new_seconds = (w.seconds for w in workers)
    return {
        "pages": len(pages),
        "base": old_seconds,
        "this": new_seconds,
        "median": statistics.median(ratios) if ratios else 0.0,
        "differ": differ,
        "times": times,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction_speed", description=__doc__)
    parser.add_argument("base", type=Path, help="a checkout of the tree to compare with (e.g. 9fe2bf9)")
    parser.add_argument("--part", choices=("all", "tuning", "check"), default="all", help="WCXB dev's part")
    parser.add_argument(
        "--rounds", type=int, default=1, help="reads of each page per tree; the fastest counts"
    )
    parser.add_argument("--differ", type=Path, help="write the pages whose texts differ here (JSON)")
    parser.add_argument(
        "--times", type=Path, help="write each page's type and CPU seconds in both trees here"
    )
    args = parser.parse_args(argv)
    folder = dev_dir()
    if folder is None:
        raise SystemExit(MISSING)
    pages = load_pages(folder)
    tuning = tuning_part(pages)
    pages = sample(pages, tuning)
    if args.part != "all":
        pages = [p for p in pages if (p.id in tuning) == (args.part == "tuning")]
    result = compare(args.base.resolve(), pages, args.rounds)
    print(
        f"{result['pages']} pages: base {result['base']:.2f} s CPU, this tree {result['this']:.2f} s; "
        f"this tree reads {result['base'] / result['this']:.3f}x the base's pages/s "
        f"(median page {result['median']:.3f}x); "
        f"texts differ on {len(result['differ'])} pages {sorted(result['differ'])[:20]}"
    )
    if args.differ:
        args.differ.write_text(json.dumps(result["differ"], indent=1))
    if args.times:
        args.times.write_text(json.dumps(result["times"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
