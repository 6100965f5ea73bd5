"""The llmweb command: search, fetch, serve MCP, and check a deployment.

    llmweb search QUERY... [--lang L] [--page N] [--time-range R] [--max-results N]
                           [--safe-search S] [--json] [--searxng-url URL]
    llmweb fetch URL [--start N] [--max-chars N] [--json]
    llmweb mcp [--http PORT] [--host H] [--searxng-url URL]
    llmweb doctor [--searxng-url URL]

Without --json, search and fetch print exactly the text a model reads from the tools.
With --json they print the Python API's answer, model_dump(mode="json"):

- search (SearchResponse): query, language, page, results (each: title, url, content,
  published, engines), more_on_page, failed_engines, suggestions, corrections;
- fetch (FetchResult): url, requested_url, rewritten, title, published, content_type,
  text, start, total_chars, next_start, compressed, notes;
- a failure: {"error": {"type": "SearchUnavailable", "message": "..."}}.

Exit codes: 0 success; 1 the search worked and found nothing; 2 the search or fetch
failed, or doctor found a problem; 64 unusable arguments (usage errors and InvalidInput).
SearXNG's address: --searxng-url, else LLMWEB_SEARXNG_URL, else http://127.0.0.1:8888.
Private hosts fetch may read: LLMWEB_FETCH_ALLOW.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from datetime import date
from typing import Any, NoReturn

import httpx

from llmweb import config
from llmweb.arguments import validate_arguments
from llmweb.errors import InvalidInput, LlmwebError
from llmweb.fetch import FetchRequest, web_fetch
from llmweb.render import error_object, render_error, render_fetch, render_search
from llmweb.search import (
    REASON_ADVICE,
    REQUEST_HEADERS,
    validate_request,
    web_search,
)

EXIT_OK = 0
EXIT_NOTHING_FOUND = 1
EXIT_FAILED = 2
EXIT_USAGE = 64  # sysexits.h EX_USAGE; argparse's own 2 would read as "failed"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    epilog = __doc__.split("\n\n", 2)[2]
    parser = _Parser(
        prog="llmweb",
        description=__doc__.splitlines()[0],
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    search = commands.add_parser("search", help="search the web through SearXNG")
    search.add_argument("query", nargs="+", help="what to search for (several words are joined)")
    search.add_argument(
        "--lang", help="language code such as en, en-US or pl-PL (default: the instance's, Polish)"
    )
    search.add_argument("--page", type=int, default=1, help="result page, from 1")
    search.add_argument("--time-range", choices=["day", "week", "month", "year"])
    search.add_argument("--max-results", type=int, default=10, help="1–100 (default 10)")
    search.add_argument("--safe-search", choices=["off", "moderate", "strict"])
    search.add_argument("--json", action="store_true", help="print the SearchResponse as JSON")
    _add_searxng_url(search)

    fetch = commands.add_parser("fetch", help="read a web page as text")
    fetch.add_argument("url")
    fetch.add_argument("--start", type=int, default=0, help="where to start in the page's text")
    fetch.add_argument("--max-chars", type=int, default=FetchRequest.model_fields["max_chars"].default)
    fetch.add_argument("--json", action="store_true", help="print the FetchResult as JSON")

    mcp = commands.add_parser(
        "mcp", help="serve web_search and web_fetch over MCP (stdio, or HTTP with --http)"
    )
    add_mcp_arguments(mcp)
    _add_searxng_url(mcp)

    doctor = commands.add_parser("doctor", help="check that SearXNG, its JSON API and the Brave key work")
    _add_searxng_url(doctor)
    return parser


def add_mcp_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--http", type=int, metavar="PORT", help="serve streamable HTTP on PORT (path /mcp) instead of stdio"
    )
    parser.add_argument(
        "--host",
        default=config.DEFAULT_MCP_HOST,
        help=f"address to bind with --http (default {config.DEFAULT_MCP_HOST}, loopback only)",
    )


def _add_searxng_url(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--searxng-url", help="SearXNG's address (default: LLMWEB_SEARXNG_URL or http://127.0.0.1:8888)"
    )


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "mcp":
        from llmweb import mcp_server  # the MCP SDK costs half a second to import; only mcp needs it

        return mcp_server.run(args)
    if args.command == "doctor":
        return doctor(args.searxng_url or config.searxng_url())
    try:
        return run_search(args) if args.command == "search" else run_fetch(args)
    except LlmwebError as exc:
        if args.json:
            _print_json(error_object(exc))
        else:
            print(render_error(exc), file=sys.stderr)
        return EXIT_USAGE if isinstance(exc, InvalidInput) else EXIT_FAILED


def run_search(args: argparse.Namespace) -> int:
    request = validate_request(
        query=" ".join(args.query),
        language=args.lang,
        page=args.page,
        time_range=args.time_range,
        max_results=args.max_results,
        safe_search=args.safe_search,
    )
    response = web_search(**request.model_dump(), searxng_url=args.searxng_url)
    if args.json:
        _print_json(response.model_dump(mode="json"))
    else:
        print(render_search(response, today=date.today(), request=request))
    return EXIT_OK if response.results else EXIT_NOTHING_FOUND


def run_fetch(args: argparse.Namespace) -> int:
    request = validate_arguments(
        FetchRequest, {"url": args.url, "start": args.start, "max_chars": args.max_chars}
    )
    result = web_fetch(request.url, start=request.start, max_chars=request.max_chars)
    if args.json:
        _print_json(result.model_dump(mode="json"))
    else:
        print(render_fetch(result, max_chars=request.max_chars))
    return EXIT_OK


def _print_json(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


# --- doctor -----------------------------------------------------------------------------

PROBE_QUERY = "llmweb doctor"  # one real search (one Brave request): only a search shows rejected keys
KEY_FIX = (
    "put BRAVE_API_KEY=... in .env (docker compose) or in the environment of scripts/serve, "
    "then restart SearXNG; keys come from https://api-dashboard.search.brave.com/"
)


@dataclass(frozen=True)
class Check:
    ok: bool
    finding: str
    fix: str = ""


def doctor(base: str) -> int:
    """Print each check of the SearXNG at ``base`` and what to fix; 0 when all pass, else 2.

    Reads only SearXNG's public answers (/healthz, /config, one JSON search), never the key.
    """
    base = base.rstrip("/")
    print(f"llmweb doctor: SearXNG at {base}")
    with httpx.Client(headers=REQUEST_HEADERS, timeout=20) as client:
        checks = doctor_checks(base, client)
    for check in checks:
        print(f"{'ok' if check.ok else 'problem':8} {check.finding}")
        if check.fix:
            print(f"{'':8} fix: {check.fix}")
    problems = sum(not check.ok for check in checks)
    print("All checks passed." if not problems else f"{problems} problem{'s' if problems > 1 else ''} found.")
    return EXIT_OK if not problems else EXIT_FAILED


# What a refused probe search means, and the fix; any other refusal sends the admin to the log.
PROBE_REFUSALS = {
    403: (
        "the JSON API is off (/search?format=json answered 403)",
        "add json to search.formats in settings.yml",
    ),
    429: (
        "SearXNG's limiter refuses this machine (429)",
        "add its network to pass_ip in settings/limiter.toml",
    ),
}
START_FIX = (
    "start it (scripts/serve, or docker compose up -d), or pass --searxng-url / set LLMWEB_SEARXNG_URL "
    "to where it listens"
)


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
    if not isinstance(answer, dict):
        default = (f"a JSON search answered HTTP {probe.status_code}", "read SearXNG's log")
        return [*checks, Check(False, *PROBE_REFUSALS.get(probe.status_code, default))]
    checks.append(Check(True, "the JSON API is enabled"))
    failed = dict(answer.get("unresponsive_engines") or [])
    return checks + _engine_checks(engines, failed) + _brave_checks(engines, failed)


def _loaded_engines(client: httpx.Client, base: str) -> dict[str, bool]:
    """Engine name → enabled, for every engine SearXNG loaded (an engine without its key is absent)."""
    answer = client.get(base + "/config")
    return {engine["name"]: bool(engine.get("enabled", True)) for engine in answer.json().get("engines", [])}


def _is_brave(name: str) -> bool:
    return "brave" in name.lower()


def _advice(reason: str) -> str:
    return next((text for key, text in REASON_ADVICE.items() if key.lower() in reason.lower()), "")


def _engine_checks(engines: dict[str, bool], failed: dict[str, str]) -> list[Check]:
    answering = sorted(name for name, enabled in engines.items() if enabled and name not in failed)
    if answering:
        checks = [Check(True, "engines answering: " + ", ".join(answering))]
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
            Check(False, f"engine {name} is suspended or failed: {failed[name]}", _advice(failed[name]))
        )
    for name in sorted(name for name, enabled in engines.items() if not enabled and not _is_brave(name)):
        checks.append(Check(True, f"engine {name} is loaded but disabled (disabled: true in settings.yml)"))
    return checks


def _brave_checks(engines: dict[str, bool], failed: dict[str, str]) -> list[Check]:
    brave = sorted(name for name in engines if _is_brave(name))
    if not brave:
        return [Check(False, "Brave: no key set (SearXNG loaded no Brave engine)", KEY_FIX)]
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
        elif "access denied" in reason.lower():
            checks.append(Check(False, f"Brave rejected the key (engine {name}: {reason})", KEY_FIX))
        elif reason:
            checks.append(
                Check(False, f"Brave: engine {name} is suspended or failed: {reason}", _advice(reason))
            )
        else:
            checks.append(Check(True, f"Brave key accepted (engine {name} answered a probe search)"))
    return checks


if __name__ == "__main__":
    sys.exit(main())
