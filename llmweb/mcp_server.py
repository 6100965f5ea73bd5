"""llmweb's tools over MCP: ``web_search`` and ``web_fetch``, on stdio or streamable HTTP.

Built on the official SDK's low-level :class:`mcp.server.Server`, so the tools' input
schemas are exactly :func:`llmweb.tools.tool_definitions`' and every call goes through
:func:`llmweb.tools.answer_tool_call`: an MCP client reads the same text as a
function-calling client, and a failed call comes back as a tool result with
``isError: true`` and the actionable message.

Run ``llmweb mcp`` (stdio, for clients that start the server themselves) or
``llmweb mcp --http 8765`` (streamable HTTP at ``http://127.0.0.1:8765/mcp``; loopback
unless ``--host`` says otherwise). ``python -m llmweb.mcp_server`` takes the same options.
SearXNG's address comes from ``--searxng-url`` or LLMWEB_SEARXNG_URL, private hosts the
fetcher may read from LLMWEB_FETCH_ALLOW.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import ipaddress
import sys
from importlib.metadata import version
from typing import Any

import anyio
import anyio.to_thread
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp_types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)

from llmweb import config
from llmweb.prompt import SYSTEM_PROMPT
from llmweb.tools import answer_tool_call, tool_definitions

DEFAULT_HOST = config.DEFAULT_MCP_HOST
HTTP_PATH = "/mcp"


def build_server(*, searxng_url: str | None = None, allow: str | None = None) -> Server[Any]:
    """The MCP server; ``searxng_url`` and ``allow`` default to the environment at each call."""

    async def list_tools(
        ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        tools = [
            Tool(name=f["name"], description=f["description"], input_schema=f["parameters"])
            for f in (definition["function"] for definition in tool_definitions())
        ]
        return ListToolsResult(tools=tools)

    async def call_tool(ctx: ServerRequestContext[Any], params: CallToolRequestParams) -> CallToolResult:
        # web_search and web_fetch block on the network; a thread keeps the event loop serving.
        call = functools.partial(
            answer_tool_call, params.name, params.arguments, searxng_url=searxng_url, allow=allow
        )
        answer = await anyio.to_thread.run_sync(call)
        return CallToolResult(content=[TextContent(type="text", text=answer.text)], is_error=answer.is_error)

    return Server(
        "llmweb",
        version=version("llmweb"),
        # The system prompt without a date: the server runs for days, and each search answer states today's date.
        instructions=SYSTEM_PROMPT,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def serve_http(server: Server[Any], *, host: str = DEFAULT_HOST, port: int) -> None:
    """Streamable HTTP at ``http://host:port/mcp``. On loopback the SDK also refuses requests
    whose Host or Origin header is not loopback (DNS rebinding)."""
    import uvicorn  # an SDK dependency, needed only for HTTP

    app = server.streamable_http_app(streamable_http_path=HTTP_PATH, host=host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()


def run(args: argparse.Namespace) -> int:
    """Serve until stdin closes (stdio) or the process is interrupted (HTTP)."""
    server = build_server(searxng_url=args.searxng_url)
    if args.http is None:
        anyio.run(serve_stdio, server)
        return 0
    if not _is_loopback(args.host):
        print(
            f"warning: serving MCP on {args.host}: anyone who reaches this address can search and fetch through it",
            file=sys.stderr,
        )
    print(
        f"llmweb MCP server on http://{_url_host(args.host)}:{args.http}{HTTP_PATH}",
        file=sys.stderr,
        flush=True,
    )
    # uvicorn shuts down on Ctrl-C, then re-raises the signal; a clean stop is not an error.
    with contextlib.suppress(KeyboardInterrupt):
        anyio.run(functools.partial(serve_http, server, host=args.host, port=args.http))
    return 0


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m llmweb.mcp_server", description=__doc__.splitlines()[0])
    from llmweb.cli import add_mcp_arguments  # one definition of the options for both entry points

    add_mcp_arguments(parser)
    parser.add_argument(
        "--searxng-url", help="SearXNG's address (default: LLMWEB_SEARXNG_URL or http://127.0.0.1:8888)"
    )
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
