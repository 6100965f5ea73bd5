"""Pure scoring: the Zyte benchmark's shingle F1, bag-of-words F1, code-block survival, percentiles.

The shingle scorer follows scrapinghub/article-extraction-benchmark's evaluate.py (read
there, written anew here): texts are split into ``\\w+`` tokens, compared as multisets of
4-token shingles, each page's true/false positives and false negatives are divided by
their sum so long pages weigh no more than short ones, precision and recall are averaged
over the pages where they are defined, and F1 is the harmonic mean of the two averages.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

_TOKEN = re.compile(r"\w+")


class Counts(NamedTuple):
    """One page's true positives, false positives and false negatives, summing to 1 (or all 0)."""

    tp: float
    fp: float
    fn: float


class Scores(NamedTuple):
    precision: float
    recall: float
    f1: float


def tokenize(text: str | None) -> list[str]:
    return _TOKEN.findall(text or "")


def shingles(text: str | None, n: int) -> Counter[tuple[str, ...]]:
    """Every run of ``n`` consecutive tokens; a text shorter than ``n`` tokens is one shingle."""
    tokens = tokenize(text)
    return Counter(tuple(tokens[i : i + n]) for i in range(max(1, len(tokens) - n + 1)) if tokens[i : i + n])


def match_counts(true: str | None, pred: str | None, n: int = 4) -> Counts:
    """Shingle matches of ``pred`` against ``true``, normalised to sum to 1. ``n=1`` is bag of words."""
    want, got = shingles(true, n), shingles(pred, n)
    tp = fp = fn = 0
    for key in want.keys() | got.keys():
        tp += min(want[key], got[key])
        fp += max(0, got[key] - want[key])
        fn += max(0, want[key] - got[key])
    total = tp + fp + fn
    return Counts(tp / total, fp / total, fn / total) if total else Counts(0.0, 0.0, 0.0)


def precision_score(c: Counts) -> float:
    if c.fp == c.fn == 0:
        return 1.0
    if c.tp == c.fp == 0:
        return 0.0
    return c.tp / (c.tp + c.fp)


def recall_score(c: Counts) -> float:
    if c.fp == c.fn == 0:
        return 1.0
    if c.tp == c.fn == 0:
        return 0.0
    return c.tp / (c.tp + c.fn)


def scores(pages: Sequence[Counts]) -> Scores:
    """Mean precision (pages that predicted something), mean recall (pages with a truth), their F1."""
    precisions = [precision_score(c) for c in pages if c.tp + c.fp > 0]
    recalls = [recall_score(c) for c in pages if c.tp + c.fn > 0]
    precision = sum(precisions) / len(precisions) if precisions else 0.0
    recall = sum(recalls) / len(recalls) if recalls else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Scores(precision, recall, f1)


# --- code blocks ------------------------------------------------------------------------


def _code_lines(text: str) -> list[str]:
    # rustdoc indents declarations with no-break spaces; a plain space reads the same
    return [line.replace("\xa0", " ").rstrip() for line in text.splitlines() if line.strip()]


def block_survives_normalised(block: str, text: str) -> bool:
    """The block's text appears in ``text`` once all runs of whitespace are single spaces."""
    needle = " ".join(block.split())
    return not needle or needle in " ".join(text.split())


def block_survives_exact(block: str, text: str) -> bool:
    """The block's non-blank lines appear in ``text`` as consecutive lines, indentation intact."""
    want, have = _code_lines(block), _code_lines(text)
    if not want:
        return True
    first = want[0]
    return any(have[i : i + len(want)] == want for i, line in enumerate(have) if line == first)


def lines_found_exact(block: str, text: str) -> tuple[int, int]:
    """(lines of the block found as whole lines of ``text``, indentation kept; lines of the block)."""
    want = _code_lines(block)
    have = Counter(_code_lines(text))
    found = 0
    for line in want:
        if have[line] > 0:
            have[line] -= 1
            found += 1
    return found, len(want)


# --- statistics -------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0–100), interpolating between the two nearest ranks."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def median(values: Sequence[float]) -> float:
    return percentile(values, 50)
