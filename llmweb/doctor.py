"""``llmweb doctor``: is the household's SearXNG up, its JSON API on, the Brave key accepted,
and how much of the month's Brave budget is used?

Reads only SearXNG's answers over HTTP (/healthz, /config, one JSON search, and the month's
Brave figures at /llmweb/usage, which llmweb's spend plugin serves), never the key and never
valkey directly, so it works wherever SearXNG is reachable: the same host, or a LAN client.
Each check says what it found and, when something is wrong, what to change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from llmweb.search import SEARXNG_HEADERS, SEARXNG_REFUSALS, is_connection_failure, reason_advice

PROBE_QUERY = "llmweb doctor"  # one real search (one Brave request): only a search shows rejected keys
KEY_FIX = (
    "put BRAVE_API_KEY=... in .env (docker compose) or in the environment of scripts/serve, "
    "then restart SearXNG; keys come from https://api-dashboard.search.brave.com/"
)
START_FIX = (
    "start it (scripts/serve, or docker compose up -d), or pass --searxng-url / set LLMWEB_SEARXNG_URL "
    "to where it listens"
)
OFFLINE_FIX = (
    "check that the machine SearXNG runs on reaches the internet and resolves names "
    "(for docker compose: the container's network and DNS)"
)
KEY_MISSING = "key missing"  # in the engine's error text, engines/llmwebbrave.py ERROR_TEXTS
USAGE_PATH = "/llmweb/usage"  # plugins/spend.py
BUDGET_FIX = (
    "wait for the reset, or raise monthly_budget / daily_budget of the engine in settings/settings.yml"
)


@dataclass(frozen=True)
class Check:
    ok: bool
    finding: str
    fix: str = ""


def run(base: str) -> int:
    """Print each check of the SearXNG at ``base`` and what to fix; the number of problems."""
    base = base.rstrip("/")
    print(f"llmweb doctor: SearXNG at {base}")
    with httpx.Client(headers=SEARXNG_HEADERS, timeout=20) as client:
        checks = doctor_checks(base, client)
    for check in checks:
        print(f"{'ok' if check.ok else 'problem':8} {check.finding}")
        if check.fix:
            print(f"{'':8} fix: {check.fix}")
    problems = sum(not check.ok for check in checks)
    print("All checks passed." if not problems else f"{problems} problem{'s' if problems > 1 else ''} found.")
    return problems


def doctor_checks(base: str, client: httpx.Client) -> list[Check]:
    """The checks in order; a check that fails early ends the list, since later ones depend on it."""
    try:
        health = client.get(base + "/healthz")
    except httpx.HTTPError as exc:
        return [Check(False, f"SearXNG does not answer ({type(exc).__name__})", START_FIX)]
    if health.status_code != 200 or health.text.strip() != "OK":
        return [
            Check(
                False,
                f"/healthz answered HTTP {health.status_code}, not OK",
                "check the address is SearXNG's",
            )
        ]
    checks = [Check(True, "SearXNG answers (/healthz)")]
    try:
        engines = _loaded_engines(client, base)
        probe = client.get(base + "/search", params={"q": PROBE_QUERY, "format": "json"})
        answer = probe.json() if probe.status_code == 200 else None
    except (httpx.HTTPError, ValueError) as exc:
        return [
            *checks,
            Check(False, f"/config or a JSON search failed ({type(exc).__name__})", "read SearXNG's log"),
        ]
    except (KeyError, TypeError, AttributeError):  # JSON, but not the shape SearXNG's /config has
        return [
            *checks,
            Check(
                False,
                "/config answered JSON without SearXNG's list of engines",
                "check that the URL is SearXNG's",
            ),
        ]
    if not isinstance(answer, dict):
        finding, fix = SEARXNG_REFUSALS.get(probe.status_code, (f"answered HTTP {probe.status_code}", ""))
        return [*checks, Check(False, f"a JSON search: SearXNG {finding}", fix or "read SearXNG's log")]
    checks.append(Check(True, "the JSON API is enabled"))
    failed = dict(answer.get("unresponsive_engines") or [])
    return (
        checks
        + _engine_checks(engines, failed)
        + _brave_checks(engines, failed)
        + _usage_checks(client, base)
    )


def _loaded_engines(client: httpx.Client, base: str) -> dict[str, bool]:
    """Engine name → enabled, for every engine SearXNG loaded."""
    answer = client.get(base + "/config")
    return {engine["name"]: bool(engine.get("enabled", True)) for engine in answer.json().get("engines", [])}


def _is_brave(name: str) -> bool:
    return "brave" in name.lower()


def _engine_checks(engines: dict[str, bool], failed: dict[str, str]) -> list[Check]:
    answering = sorted(name for name, enabled in engines.items() if enabled and name not in failed)
    unreachable = sorted(name for name, reason in failed.items() if is_connection_failure(reason))
    if answering:
        checks = [Check(True, "engines answering: " + ", ".join(answering))]
    elif unreachable and len(unreachable) == len(failed):
        reasons = "; ".join(f"{name}: {failed[name]}" for name in unreachable)
        checks = [
            Check(
                False, f"no engine could be reached, so this machine looks offline ({reasons})", OFFLINE_FIX
            )
        ]
        return checks  # one cause; the engine-by-engine lines would only repeat it
    elif failed:
        checks = [Check(False, "no engine answers searches", "see the engine lines below")]
    else:
        checks = [
            Check(
                False,
                "no engine is loaded",
                "set BRAVE_API_KEY, or remove inactive: true from a keyless engine in settings.yml",
            )
        ]
    for name in sorted(name for name in failed if not _is_brave(name)):  # Brave's own check says more
        checks.append(
            Check(False, f"engine {name} is suspended or failed: {failed[name]}", reason_advice(failed[name]))
        )
    for name in sorted(name for name, enabled in engines.items() if not enabled and not _is_brave(name)):
        checks.append(Check(True, f"engine {name} is loaded but disabled (disabled: true in settings.yml)"))
    return checks


def _brave_checks(engines: dict[str, bool], failed: dict[str, str]) -> list[Check]:
    brave = sorted(name for name in engines if _is_brave(name))
    if not brave:
        return [
            Check(False, "Brave: SearXNG loaded no Brave engine", "add the brave api engine to settings.yml")
        ]
    checks = []
    for name in brave:
        reason = failed.get(name, "")
        if not engines[name]:
            checks.append(
                Check(
                    False,
                    f"Brave: engine {name} is disabled, so the key was not tried",
                    "remove disabled: true from it in settings.yml",
                )
            )
        elif KEY_MISSING in reason.lower():
            checks.append(Check(False, f"Brave: no key set (engine {name}: {reason})", KEY_FIX))
        elif "access denied" in reason.lower():
            checks.append(Check(False, f"Brave rejected the key (engine {name}: {reason})", KEY_FIX))
        elif is_connection_failure(reason):
            checks.append(Check(False, f"Brave could not be reached (engine {name}: {reason})", OFFLINE_FIX))
        elif reason:
            checks.append(
                Check(False, f"Brave: engine {name} is suspended or failed: {reason}", reason_advice(reason))
            )
        else:
            checks.append(Check(True, f"Brave key accepted (engine {name} answered a probe search)"))
    return checks


def _usage_checks(client: httpx.Client, base: str) -> list[Check]:
    """The month's Brave figures per engine, from /llmweb/usage; none when SearXNG has no such page."""
    try:
        answer = client.get(base + USAGE_PATH)
        engines = answer.json().get("engines", {}) if answer.status_code == 200 else {}
    except (httpx.HTTPError, ValueError, AttributeError):
        engines = {}
    if not isinstance(engines, dict):
        engines = {}
    checks: list[Check] = []
    for name, usage in sorted(engines.items()):
        try:
            checks += usage_checks(str(name), usage)
        except (KeyError, TypeError, AttributeError, ValueError):  # a plugin of another version, or no plugin
            checks.append(
                Check(
                    False,
                    f"Brave use ({name}): {USAGE_PATH} answered in a shape this llmweb does not read",
                    "update the llmweb client and the SearXNG image together",
                )
            )
    return checks


def usage_checks(name: str, usage: dict[str, Any]) -> list[Check]:
    """One engine's month: requests against its budgets, Brave's own count, the cache."""
    if usage.get("valkey") != "ok":
        return [
            Check(
                False,
                f"Brave use ({name}): not counted, valkey {usage.get('valkey')}",
                "start valkey (docker compose up -d valkey, or restart scripts/serve)",
            )
        ]
    budget, month, day = usage["budget"], usage["month"], usage["day"]
    checks = [
        _window_check(name, "this month", month["requests"], budget["monthly"], month["resets"]),
        _window_check(name, "today", day["requests"], budget["daily"], day["resets"]),
    ]
    brave = usage.get("brave")
    if brave:
        remaining, limit = brave["remaining"], brave["limit"]
        checks.append(
            Check(
                remaining > 0,
                f"Brave's own count ({name}): {remaining:,} of {limit:,} requests remain, resets {brave['resets']}",
                ""
                if remaining > 0
                else "Brave answers nothing more until its reset; a plan with more requests lifts it",
            )
        )
    cache = usage["cache"]
    asked = cache["hits"] + cache["misses"]
    if usage.get("cache_seconds", 0) <= 0:
        checks.append(Check(True, f"answer cache ({name}): off (cache_seconds: 0)"))
    else:
        rate = f"{cache['hits'] / asked:.0%} of {asked:,} searches" if asked else "no searches yet"
        checks.append(
            Check(
                True, f"answer cache ({name}): {rate} answered from it this month, {cache['entries']:,} kept"
            )
        )
    return checks


def _window_check(name: str, window: str, used: int, budget: int, resets: str) -> Check:
    if budget <= 0:
        return Check(True, f"Brave use ({name}): {used:,} requests {window}, no budget set")
    left = max(budget - used, 0)
    finding = f"Brave use ({name}): {used:,} of {budget:,} requests {window}, {left:,} left, resets {resets}"
    return Check(left > 0, finding, "" if left > 0 else BUDGET_FIX)
