"""python -m bench [PART ...]: run the parts, print the markdown, write bench/results*.md."""

from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from bench import floors
from bench.paths import BENCH, RUNS
from bench.report import PartResult, Target, header, summary_table
from testbed import loopback_guard

PARTS = {
    "text": "bench.text",
    "searxng": "bench.searxng",
    "extraction": "bench.extraction",
    "docs": "bench.docs",
    "wcxb": "bench.wcxb",
    "jsshell": "bench.jsshell",
    "focus": "bench.focus",
    "research": "bench.research",
    "fetch": "bench.fetch",
    "tokens": "bench.tokens",
    "reliability": "bench.reliability",
    "spend": "bench.spend",
    "scale": "bench.scale",
}
BUDGET_SECONDS = 15 * 60


def run_part(name: str) -> PartResult:
    workdir = RUNS / name
    shutil.rmtree(workdir, ignore_errors=True)
    started = time.monotonic()
    print(f"== {name}", flush=True)
    try:
        module = importlib.import_module(PARTS[name])
        runner: Callable[[Path], PartResult] = module.run
        result = runner(workdir)
    except Exception as exc:  # one broken part must not hide the others' figures
        traceback.print_exc()
        result = PartResult(name, f"{name}: FAILED")
        result.add(f"The part failed: `{type(exc).__name__}: {exc}` (traceback on the console).")
        result.targets.append(Target("the part ran", "runs", f"failed: {type(exc).__name__}", False))
    result.seconds = time.monotonic() - started
    print(f"== {name} took {result.seconds:.0f} s", flush=True)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/bench", description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "parts", nargs="*", metavar="PART", help="any of: " + ", ".join(PARTS) + " (default: all)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when a figure falls below its floor in bench/floors.toml (or above its ceiling), naming it",
    )
    args = parser.parse_args(argv)
    unknown = [p for p in args.parts if p not in PARTS]
    if unknown:
        parser.error(f"unknown part {', '.join(unknown)}; choose from {', '.join(PARTS)}")
    chosen = args.parts or list(PARTS)
    # The bench's own traffic stays on loopback, like the tests': a step off it is refused and
    # fails the run (the corpora's apt downloads run in subprocesses, before any figure).
    left_loopback: list[str] = []
    loopback_guard.install(left_loopback.append)
    started = time.monotonic()
    top = header(args.parts)
    results = [run_part(name) for name in chosen]
    total = time.monotonic() - started

    lines = [top, ""]
    for result in results:
        lines += [f"## {result.title}", "", *result.lines, "", f"_({result.seconds:.0f} s)_", ""]
    lines += [
        "## Loopback",
        "",
        "Every connection and name lookup of the bench's own process stayed on loopback."
        if not left_loopback
        else "**Left loopback** (refused): " + "; ".join(sorted(set(left_loopback))),
        "",
        "## Summary",
        "",
        summary_table(results) if any(r.targets for r in results) else "No targets.",
        "",
    ]
    if len(chosen) == len(PARTS):
        within = "within" if total <= BUDGET_SECONDS else "**over**"
        lines.append(f"Total time: {total:.0f} s ({within} the {BUDGET_SECONDS // 60}-minute budget).")
    else:
        lines.append(f"Total time: {total:.0f} s.")
    markdown = "\n".join(lines) + "\n"

    out = BENCH / (
        "results.md" if not args.parts or len(chosen) == len(PARTS) else f"results-{'-'.join(chosen)}.md"
    )
    out.write_text(markdown)
    print()
    print(markdown)
    print(f"written to {out.relative_to(BENCH.parent)}")
    crashed = any(t.met is False and t.what == "the part ran" for r in results for t in r.targets)
    for step in sorted(set(left_loopback)):
        print(step, file=sys.stderr)
    crashed = crashed or bool(left_loopback)
    if args.check:
        failures = floors.check({r.name: r.figures for r in results}, floors.load())
        for failure in failures:
            print(f"below its floor: {failure}", file=sys.stderr)
        if not failures:
            print("every figure holds its floor (bench/floors.toml)")
        return 1 if failures or crashed else 0
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
