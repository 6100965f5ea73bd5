"""Where SearXNG's time goes in one JSON search: cProfile of searx.webapp in-process.

Run as its own process (``python -m bench.profile_search ...``) because importing
searx.webapp reads the settings and starts SearXNG's threads. Requests go through Flask's
test client, so granian's share is not in here. SearXNG runs each engine in a thread of
its own and its HTTP calls on a network loop thread; the main thread and the engine
threads are profiled, and time spent waiting on the other threads is shown as waiting.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import sys
import sysconfig
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.scoring import median

Func = tuple[str, int, str]
_STDLIB = sysconfig.get_paths()["stdlib"]

# (fragment of the file path, category); the first match wins.
CATEGORIES = (
    ("searx/plugins/", "plugin"),
    ("searx/botdetection/", "limiter & bot detection"),
    ("searx/limiter", "limiter & bot detection"),
    ("/valkey/", "valkey client (limiter)"),
    ("searx/valkeydb", "valkey client (limiter)"),
    ("searx/engines/", "engine module request()/response()"),
    ("searx/utils.py", "searx.utils (html_to_text, …)"),
    ("searx/cache.py", "SQLite cache (searx.cache; tracker rules)"),
    ("searx/data/", "searx.data (tracker patterns, …)"),
    ("searx/results.py", "result container (merge, order)"),
    ("searx/result_types/", "result container (merge, order)"),
    ("searx/search/", "search setup and engine processors"),
    ("searx/network/", "outgoing HTTP (searx.network, httpx)"),
    ("/httpx/", "outgoing HTTP (searx.network, httpx)"),
    ("/httpcore/", "outgoing HTTP (searx.network, httpx)"),
    ("/h11/", "outgoing HTTP (searx.network, httpx)"),
    ("/anyio/", "outgoing HTTP (searx.network, httpx)"),
    ("searx/preferences.py", "preferences, cookies, query parsing"),
    ("searx/query.py", "preferences, cookies, query parsing"),
    ("searx/webadapter.py", "preferences, cookies, query parsing"),
    ("/babel/", "locales (babel, flask-babel)"),
    ("/flask_babel/", "locales (babel, flask-babel)"),
    ("searx/locales.py", "locales (babel, flask-babel)"),
    ("searx/webapp.py", "searx web layer (webapp.py, JSON output)"),
    ("searx/webutils.py", "searx web layer (webapp.py, JSON output)"),
    ("/flask/", "Flask & Werkzeug"),
    ("/werkzeug/", "Flask & Werkzeug"),
    ("/whitenoise/", "Flask & Werkzeug"),
    ("/dateutil/", "dateutil"),
    ("searx/", "searx, other"),
)
WAIT_BUILTINS = ("acquire' of '_thread", "time.sleep", "select.", "poll")


def category(func: Func) -> str | None:
    """The category of a function, "waiting" for blocking built-ins, None for stdlib and C helpers."""
    path, _, name = func
    if path == "~":
        return "waiting" if any(w in name for w in WAIT_BUILTINS) else None
    path = path.replace(os.sep, "/")
    for fragment, label in CATEGORIES:
        if fragment in path:
            if label == "plugin":
                return "plugin " + Path(path).stem
            return label
    return None if path.startswith(_STDLIB) else "other libraries"


def attribute(stats: dict[Func, Any]) -> dict[str, float]:
    """Self time by category; stdlib and C functions' time goes to the nearest categorised caller."""
    totals: dict[str, float] = defaultdict(float)

    def push(func: Func, seconds: float, depth: int) -> None:
        label = category(func)
        if label is not None or depth > 12:
            totals[label or "Python stdlib"] += seconds
            return
        callers = stats[func][4] if func in stats else {}
        weight = sum(entry[3] for entry in callers.values())
        if not callers or weight <= 0:
            totals["Python stdlib"] += seconds
            return
        for caller, entry in callers.items():
            push(caller, seconds * entry[3] / weight, depth + 1)

    for func, (_, _, own, _, callers) in stats.items():
        label = category(func)
        if label is not None:
            totals[label] += own
            continue
        for caller, entry in callers.items():  # entry[2]: own time of func spent under this caller
            push(caller, entry[2], 1)
        if not callers:
            totals["Python stdlib"] += own
    return dict(totals)


# (label, fragment of the file path, function name): stages whose inclusive time is reported.
STAGES = (
    ("the /search view, whole (webapp.search)", "searx/webapp.py", "search"),
    ("before_request: preferences, locale (webapp.pre_request)", "searx/webapp.py", "pre_request"),
    ("limiter and bot detection (limiter.pre_request)", "searx/limiter.py", "pre_request"),
    ("engine request() (fills the Brave URL)", "searx/engines/", "request"),
    ("engine response() (Brave JSON → results)", "searx/engines/", "response"),
    ("results merged into the container (ResultContainer.extend)", "searx/results.py", "extend"),
    ("results ordered (ResultContainer.close)", "searx/results.py", "close"),
    ("JSON answer built (webutils.get_json_response)", "searx/webutils.py", "get_json_response"),
)
PLUGIN_HOOKS = ("pre_search", "on_result", "post_search")


def stages(stats: dict[Func, Any]) -> dict[str, float]:
    """Inclusive time of SearXNG's stages and of each plugin's hooks, in seconds."""
    found: dict[str, float] = defaultdict(float)
    for (path, _, name), entry in stats.items():
        path = path.replace(os.sep, "/")
        for label, fragment, function in STAGES:
            if fragment in path and name == function:
                found[label] += entry[3]
        if "searx/plugins/" in path and name in PLUGIN_HOOKS and not path.endswith("/_core.py"):
            found[f"plugin {Path(path).stem} ({name})"] += entry[3]
    return dict(found)


def top_functions(stats: dict[Func, Any], count: int) -> list[tuple[str, float]]:
    rows = [(f"{Path(f[0]).name}:{f[1]}({f[2]})" if f[0] != "~" else f[2], v[2]) for f, v in stats.items()]
    rows = [r for r in rows if not any(w in r[0] for w in WAIT_BUILTINS)]
    return sorted(rows, key=lambda r: -r[1])[:count]


def _prefixed(engine_stages: dict[str, float]) -> dict[str, float]:
    return {f"{k} [engine thread]": v for k, v in engine_stages.items()}


def _profile_new_threads(collected: list[cProfile.Profile]) -> Callable[[], None]:
    """Profile every thread started from now on (SearXNG's engine threads); returns an undo."""
    original = threading.Thread.run

    def run(self: threading.Thread) -> None:
        profile = cProfile.Profile()
        collected.append(profile)
        profile.enable()
        try:
            original(self)
        finally:
            profile.disable()

    threading.Thread.run = run  # type: ignore[method-assign]
    return lambda: setattr(threading.Thread, "run", original)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--settings", type=Path, required=True, help="folder of settings.yml")
    parser.add_argument("--valkey", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--engine", required=True)
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    os.environ.update(
        SEARXNG_SETTINGS_PATH=str(args.settings / "settings.yml"),
        SEARXNG_VALKEY_URL=args.valkey,
        SEARXNG_SECRET="bench-profile-secret-" + "x" * 32,
        BRAVE_API_KEY=args.key,
    )
    from searx.webapp import app  # starts SearXNG: settings, engines, network and valkey

    from llmweb.search import SEARXNG_HEADERS

    client = app.test_client()

    def search(n: int) -> None:
        answer = client.get(
            "/search",
            query_string={"q": f"profile query {n}", "format": "json", "engines": args.engine},
            headers=SEARXNG_HEADERS,
        )
        data = answer.get_json() if answer.status_code == 200 else None
        if not data or not data.get("results") or data.get("unresponsive_engines"):
            raise SystemExit(
                f"search failed: HTTP {answer.status_code} {answer.get_data(as_text=True)[:300]}"
            )

    for n in range(20):
        search(n)
    plain = []
    for n in range(args.searches):
        started = time.perf_counter()
        search(n)
        plain.append(time.perf_counter() - started)

    engine_profiles: list[cProfile.Profile] = []
    undo = _profile_new_threads(engine_profiles)
    main_profile = cProfile.Profile()
    started = time.perf_counter()
    main_profile.enable()
    for n in range(args.searches):
        search(n)
    main_profile.disable()
    profiled = (time.perf_counter() - started) / args.searches
    undo()

    main_stats = pstats.Stats(main_profile).stats  # type: ignore[attr-defined]
    engine_stats = pstats.Stats(*engine_profiles).stats if engine_profiles else {}  # type: ignore[attr-defined]
    per_search = 1000 / args.searches
    result = {
        "searches": args.searches,
        "plain_ms_median": median(plain) * 1000,
        "profiled_ms_mean": profiled * 1000,
        "main": {k: v * per_search for k, v in attribute(main_stats).items()},
        "engine": {k: v * per_search for k, v in attribute(engine_stats).items()},
        "engine_threads": len(engine_profiles),
        "stages": {
            k: v * per_search for k, v in (stages(main_stats) | _prefixed(stages(engine_stats))).items()
        },
        "top": [(name, s * per_search) for name, s in top_functions(main_stats, 15)],
        "top_engine": [(name, s * per_search) for name, s in top_functions(engine_stats, 10)],
    }
    args.out.write_text(json.dumps(result, indent=1))
    sys.exit(0)


if __name__ == "__main__":
    main()
