"""The llmweb command: search, fetch, serve MCP, and check a deployment.

    llmweb search QUERY... [--lang L] [--page N] [--time-range R] [--max-results N]
                           [--safe-search S] [--json] [--searxng-url URL]
    llmweb fetch URL [--start N] [--max-chars N] [--query QUESTION] [--json]
    llmweb research QUESTION... [--max-chars N] [--sources N] [--lang L] [--time-range R]
                                [--json] [--searxng-url URL]
    llmweb mcp [--http PORT] [--host H] [--allow-host NAME]... [--searxng-url URL]
    llmweb doctor [--searxng-url URL]

Without --json, search, fetch and research print exactly the text a model reads from the tools.
With --json they print the Python API's answer, model_dump(mode="json"):

- search (SearchResponse): query, language, page, results (each: title, url, content,
  published, engines), more_on_page, failed_engines, suggestions, corrections;
- fetch (FetchResult): url, requested_url, rewritten, redirected, title, published, content_type,
  text, start, total_chars, next_start, compressed, notes, query, passages (each:
  start, end, headings, text, rank);
- research (ResearchResult): question, searches, passages (each: url, title, published,
  headings, start, end, text, score), unread and unused (each: url, title, reason, error),
  pages_read, max_chars, seconds;
- a failure: {"error": {"type": "SearchUnavailable", "message": "..."}}.

Exit codes: 0 success; 1 the search worked and found nothing (for research: no passage
answers the question); 2 the search or fetch
failed, or doctor found a problem; 64 unusable arguments (usage errors and InvalidInput).
SearXNG's address: --searxng-url, else LLMWEB_SEARXNG_URL, else http://127.0.0.1:8888.
Private hosts fetch may read: LLMWEB_FETCH_ALLOW.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from typing import Any, NoReturn

from llmweb import config, doctor, exits, mcp_server
from llmweb.arguments import validate_arguments
from llmweb.errors import InvalidInput, LlmwebError
from llmweb.fetch import FetchRequest
from llmweb.fetch.page import fetch
from llmweb.mcp_server import add_mcp_arguments
from llmweb.render import error_object, render_error, render_fetch, render_research, render_search
from llmweb.research import ResearchRequest, research
from llmweb.search import DEFAULT_MAX_RESULTS, MOST_RESULTS, SearchRequest, search, validate_request


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(exits.USAGE, f"{self.prog}: error: {message}\n")


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
        "--lang",
        help="language code such as en, en-US or pl-PL (default: the instance's own, set in its settings.yml)",
    )
    search.add_argument(
        "--page", type=int, default=SearchRequest.model_fields["page"].default, help="result page, from 1"
    )
    search.add_argument("--time-range", choices=["day", "week", "month", "year"])
    search.add_argument(
        "--max-results",
        type=int,
        default=DEFAULT_MAX_RESULTS,
        help=f"1–{MOST_RESULTS} (default {DEFAULT_MAX_RESULTS})",
    )
    search.add_argument("--safe-search", choices=["off", "moderate", "strict"])
    search.add_argument("--json", action="store_true", help="print the SearchResponse as JSON")
    _add_searxng_url(search)

    fetch = commands.add_parser("fetch", help="read a web page as text")
    fetch.add_argument("url")
    fetch.add_argument("--start", type=int, default=0, help="where to start in the page's text")
    fetch.add_argument("--max-chars", type=int, default=FetchRequest.model_fields["max_chars"].default)
    fetch.add_argument(
        "--query", help="a question: print only the passages of the page that answer it, with their places"
    )
    fetch.add_argument("--json", action="store_true", help="print the FetchResult as JSON")

    research = commands.add_parser(
        "research", help="search, read the top results at once, print the passages that answer a question"
    )
    research.add_argument("question", nargs="+", help="the question (several words are joined)")
    research.add_argument(
        "--max-chars",
        type=int,
        default=ResearchRequest.model_fields["max_chars"].default,
        help="how long the whole answer may be (default %(default)s)",
    )
    research.add_argument(
        "--sources",
        type=int,
        default=ResearchRequest.model_fields["sources"].default,
        help="how many top results to read (default %(default)s)",
    )
    research.add_argument("--lang", help="language code of the results, such as en or pl-PL")
    research.add_argument("--time-range", choices=["day", "week", "month", "year"])
    research.add_argument("--json", action="store_true", help="print the ResearchResult as JSON")
    _add_searxng_url(research)

    mcp = commands.add_parser(
        "mcp", help="serve web_search, web_fetch and web_research over MCP (stdio, or HTTP with --http)"
    )
    add_mcp_arguments(mcp)

    doctor = commands.add_parser("doctor", help="check that SearXNG, its JSON API and the Brave key work")
    _add_searxng_url(doctor)
    return parser


def _add_searxng_url(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--searxng-url", help=config.SEARXNG_URL_HELP)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "mcp":
        return mcp_server.run(args)
    if args.command == "doctor":
        return exits.OK if doctor.run(args.searxng_url or config.searxng_url()) == 0 else exits.FAILED
    try:
        if args.command == "research":
            return run_research(args)
        return run_search(args) if args.command == "search" else run_fetch(args)
    except LlmwebError as exc:
        if args.json:
            _print_json(error_object(exc))
        else:
            print(render_error(exc), file=sys.stderr)
        return exits.USAGE if isinstance(exc, InvalidInput) else exits.FAILED


def run_search(args: argparse.Namespace) -> int:
    request = validate_request(
        query=" ".join(args.query),
        language=args.lang,
        page=args.page,
        time_range=args.time_range,
        max_results=args.max_results,
        safe_search=args.safe_search,
    )
    response = search(request, searxng_url=args.searxng_url)
    if args.json:
        _print_json(response.model_dump(mode="json"))
    else:
        print(render_search(response, today=date.today(), request=request))
    return exits.OK if response.results else exits.NOTHING_FOUND


def run_fetch(args: argparse.Namespace) -> int:
    request = validate_arguments(
        FetchRequest, {"url": args.url, "start": args.start, "max_chars": args.max_chars, "query": args.query}
    )
    result = fetch(request)
    if args.json:
        _print_json(result.model_dump(mode="json"))
    else:
        print(render_fetch(result, max_chars=request.max_chars))
    return exits.OK


def run_research(args: argparse.Namespace) -> int:
    request = validate_arguments(
        ResearchRequest,
        {
            "question": " ".join(args.question),
            "max_chars": args.max_chars,
            "sources": args.sources,
            "language": args.lang,
            "time_range": args.time_range,
        },
    )
    result = research(request, searxng_url=args.searxng_url)
    if args.json:
        _print_json(result.model_dump(mode="json"))
    else:
        print(render_research(result))
    return exits.OK if result.passages else exits.NOTHING_FOUND


def _print_json(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    sys.exit(main())
