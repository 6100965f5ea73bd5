"""Where the bench finds its data and keeps its downloads."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
CACHE = REPO / "var" / "bench-cache"
"""Downloads and unpacked packages; /var/ is git-ignored."""
RUNS = REPO / "var" / "bench-runs"
"""Logs and settings of the servers a run starts, kept for a look after the run."""


def shared_dir() -> Path | None:
    """shared/ beside the repository (CI lays a copy there), else /work/shared; None if neither."""
    for candidate in (REPO.parent / "shared", Path("/work/shared")):
        if candidate.is_dir():
            return candidate
    return None


def articles_dir() -> Path | None:
    """The SHARED split of the Zyte article benchmark (html/*.html.gz and ground-truth.json)."""
    shared = shared_dir()
    folder = shared / "bench" / "articles" if shared else None
    return folder if folder and (folder / "ground-truth.json").is_file() else None


MISSING_ARTICLES = (
    "the article set is missing: expected shared/bench/articles (ground-truth.json, html/) "
    f"beside the repository ({REPO.parent / 'shared'}) or at /work/shared"
)
