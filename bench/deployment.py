"""The deployment under test: shipped settings, with both Brave engines pointed at the fake Brave.

One SearXNG carries our engine ("brave api", llmwebbrave) and upstream's ("braveapi"),
so either is picked per search with ``engines=``. As in the tests, the copy of the
shipped settings changes only what a loopback run must: the Brave URL (with
enable_http) and the keyless engines switched off, as they would reach the internet.
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

from bench import fake_brave
from llmweb import stack

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
            engine.update(base_url=endpoint, enable_http=True)
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
) -> Iterator[Deployment]:
    """Fake Brave, valkey and SearXNG (granian), stopped however the block ends."""
    stack.install_searx_extensions()
    processes: list[stack.Process] = []
    try:
        brave = fake_brave.start(answers, workdir)
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
