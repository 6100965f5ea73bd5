"""The deployment under test: shipped settings, with both Brave engines pointed at the fake Brave.

One SearXNG carries our engine ("brave api", llmwebbrave) and upstream's ("braveapi"),
so either is picked per search with ``engines=``. As in the tests, the copy of the
shipped settings changes only what a loopback run must: the Brave URL (with
enable_http) and the keyless engines switched off, as they would reach the internet;
and our engine's budgets and answer cache are off, so load parts measure the engine and
SearXNG (``scripts/bench spend`` measures those, with ``spending_as_shipped``).
The limiter stays on with a real valkey, and granian serves SearXNG as scripts/serve does.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from serve import stack
from testbed import fake_brave

OURS = "brave api"
UPSTREAM = "braveapi"
ENGINES = (OURS, UPSTREAM)
# Obviously not a key; nothing leaves loopback.
BENCH_KEY = "bench-key-NOT-REAL"

SettingsChange = Callable[[dict[str, Any]], None]


def write_settings(folder: Path, brave_url: str, change: SettingsChange | None = None) -> Path:
    """settings.yml and limiter.toml for the bench in ``folder``; returns ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    settings = yaml.safe_load((stack.REPO / "settings" / "settings.yml").read_text())
    endpoint = brave_url + fake_brave.BRAVE_PATH
    for engine in settings["engines"]:
        if engine["name"] == OURS:
            engine.update(
                base_url=endpoint, enable_http=True, monthly_budget=0, daily_budget=0, cache_seconds=0
            )
        else:
            engine["inactive"] = True
    ours = next(e for e in settings["engines"] if e["name"] == OURS)
    settings["engines"].append(
        {
            "name": UPSTREAM,
            "engine": "braveapi",
            "shortcut": "braveup",
            "api_key": BENCH_KEY,
            "base_url": endpoint,
            "enable_http": True,
            "categories": ours.get("categories", ["general"]),
            "timeout": ours.get("timeout", 5.0),
            "inactive": False,
        }
    )
    if change:
        change(settings)
    (folder / "settings.yml").write_text(yaml.safe_dump(settings, sort_keys=False))
    shutil.copyfile(stack.REPO / "settings" / "limiter.toml", folder / "limiter.toml")
    return folder


SPENDING_KEYS = ("monthly_budget", "daily_budget", "cache_seconds", "cache_entries")


def spending_as_shipped(settings: dict[str, Any]) -> None:
    """Our engine's budgets and cache as settings/settings.yml ships them."""
    shipped = yaml.safe_load((stack.REPO / "settings" / "settings.yml").read_text())
    source = next(e for e in shipped["engines"] if e["name"] == OURS)
    target = next(e for e in settings["engines"] if e["name"] == OURS)
    target.update({key: source[key] for key in SPENDING_KEYS})


@dataclass
class Deployment:
    searxng: stack.Process
    valkey: stack.Process
    brave: stack.Process
    settings_dir: Path

    def search_url(self) -> str:
        return self.searxng.url + "/search"

    def brave_url(self) -> str:
        return self.brave.url + fake_brave.BRAVE_PATH


@contextlib.contextmanager
def running(
    workdir: Path,
    answers: list[dict[str, Any]],
    change: SettingsChange | None = None,
    env: dict[str, str] | None = None,
    brave_delay: float = 0.0,
) -> Iterator[Deployment]:
    """Fake Brave, valkey and SearXNG (granian), stopped however the block ends."""
    stack.install_searx_extensions()
    processes: list[stack.Process] = []
    try:
        brave = fake_brave.start(answers, workdir, delay=brave_delay)
        processes.append(brave)
        valkey = stack.start_valkey(workdir / "valkey")
        processes.append(valkey)
        settings_dir = write_settings(workdir / "settings", brave.url, change)
        full_env = {"BRAVE_API_KEY": BENCH_KEY, "SEARXNG_VALKEY_URL": valkey.url, **(env or {})}
        searxng = stack.start_searxng(settings_dir, workdir=workdir / "searxng", env=full_env)
        processes.append(searxng)
        yield Deployment(searxng, valkey, brave, settings_dir)
    finally:
        for proc in reversed(processes):
            proc.stop()
