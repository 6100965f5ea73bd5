"""The floors scripts/bench --check holds figures to: bench/floors.toml, read and applied. Pure."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bench.paths import BENCH

FLOORS = BENCH / "floors.toml"


def load(path: Path = FLOORS) -> dict[str, dict[str, dict[str, float]]]:
    """part → figure → {"min": …} and/or {"max": …}."""
    with path.open("rb") as file:
        data: dict[str, Any] = tomllib.load(file)
    return {part: {name: dict(bound) for name, bound in figures.items()} for part, figures in data.items()}


def check(
    measured: Mapping[str, Mapping[str, float]], bounds: Mapping[str, Mapping[str, Mapping[str, float]]]
) -> list[str]:
    """One line per figure outside its bounds, for the parts that ran; a part that ran but did not
    record a figure with a floor fails too (a renamed figure must not slip past its floor)."""
    failures = []
    for part, figures in measured.items():
        for name, bound in bounds.get(part, {}).items():
            where = f"{part}.{name}"
            if name not in figures:
                failures.append(f"{where}: not measured (floor {dict(bound)})")
                continue
            value = figures[name]
            if math.isnan(value):  # bench/report.py MISSING: the run could not measure it
                failures.append(f"{where}: not measured in this run (floor {dict(bound)})")
                continue
            if "min" in bound and value < bound["min"]:
                failures.append(f"{where} = {value:.4g}, below its floor {bound['min']}")
            if "max" in bound and value > bound["max"]:
                failures.append(f"{where} = {value:.4g}, above its ceiling {bound['max']}")
    return failures
