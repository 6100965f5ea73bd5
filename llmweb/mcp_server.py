"""llmweb's tools over MCP: ``web_search``, ``web_fetch`` and ``web_research``, on stdio or streamable HTTP.

Built on the official SDK's low-level :class:`mcp.server.Server`, so the tools' input
schemas are exactly :func:`llmweb.tools.tool_definitions`' and every call goes through
:func:`llmweb.tools.answer_tool_call`: an MCP client reads the same text as a
function-calling client, and a failed call comes back as a tool result with
``isError: true`` and the actionable message.

Run ``llmweb mcp`` (stdio, for clients that start the server themselves) or
``llmweb mcp --http 8765`` (streamable HTTP at ``http://127.0.0.1:8765/mcp``; loopback
unless ``--host`` says otherwise). ``python -m llmweb.mcp_server`` takes the same options.

Over HTTP the server answers only requests whose Host (and Origin, when sent) names the
address it is bound to, on every bind: a web page can point a name of its own at a loopback
address (DNS rebinding) and call the server from the household's browser, and its requests
then carry that name. ``--allow-host`` adds names clients use (a LAN name,
host.docker.internal); a bind on every address needs at least one, however it is spelled
(0.0.0.0, 0, 0x0, ::, [::], or a name that resolves to one): the bind is judged by the
addresses the socket layer reads from it.
SearXNG's address comes from ``--searxng-url`` or LLMWEB_SEARXNG_URL, private hosts the
fetcher may read from LLMWEB_FETCH_ALLOW.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import logging
import socket
import sys
from collections.abc import Sequence
from importlib.metadata import version
from typing import TYPE_CHECKING, Any

from llmweb import config, exits
from llmweb.encodable import encodable_text
from llmweb.fetch.net.addresses import Address, parse_address
from llmweb.prompt import SYSTEM_PROMPT
from llmweb.tools import ToolAnswer, answer_tool_call, tool_definitions

# The SDK is the mcp extra, and costs half a second to import: it is imported only to serve,
# so the llmweb command's other subcommands start without it.
if TYPE_CHECKING:
    from mcp.server import Server
    from mcp.server.transport_security import TransportSecuritySettings

DEFAULT_HOST = config.DEFAULT_MCP_HOST
HTTP_PATH = "/mcp"


def add_mcp_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``llmweb mcp`` and ``python -m llmweb.mcp_server``."""
    parser.add_argument(
        "--http", type=int, metavar="PORT", help="serve streamable HTTP on PORT (path /mcp) instead of stdio"
    )
    parser.add_argument(
        "--host",
        default=config.DEFAULT_MCP_HOST,
        help=f"address to bind with --http (default {config.DEFAULT_MCP_HOST}, loopback only)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        metavar="NAME",
        help="with --http: another host name or address clients use to reach the server (repeatable); "
        "requests naming any other host are refused",
    )
    parser.add_argument("--searxng-url", help=config.SEARXNG_URL_HELP)


def build_server(*, searxng_url: str | None = None, allow: str | None = None) -> Server[Any]:
    """The MCP server; ``searxng_url`` and ``allow`` default to the environment at each call."""
    import anyio.to_thread
    from mcp.server import Server, ServerRequestContext
    from mcp_types import (
        CallToolRequestParams,
        CallToolResult,
        ListToolsResult,
        PaginatedRequestParams,
        TextContent,
        Tool,
    )

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
        try:
            answer = await anyio.to_thread.run_sync(call)
        except Exception as exc:  # a bug: the client still gets an answer, and the server serves on
            logging.getLogger(__name__).exception("%s failed", params.name)  # stderr, for the admin
            answer = ToolAnswer(failure_text(params.name, exc), is_error=True)
        # text the stdout writer cannot encode would end the server, not only this call
        text = encodable_text(answer.text)
        return CallToolResult(content=[TextContent(type="text", text=text)], is_error=answer.is_error)

    return Server(
        "llmweb",
        version=version("llmweb"),
        # The system prompt without a date: the server runs for days, and each search answer states today's date.
        instructions=SYSTEM_PROMPT,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def failure_text(tool: str, exc: Exception) -> str:
    """What a client reads when a tool failed by a bug rather than an LlmwebError: named by the
    exception's type only, as its text may quote a page."""
    return (
        f"Error: llmweb failed while running {tool} ({type(exc).__name__}). This is a bug of llmweb, not "
        "of the call: try again, or another source; the admin may report it with the server's log."
    )


async def serve_stdio(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def serve_http(
    server: Server[Any], *, host: str = DEFAULT_HOST, port: int, allow_hosts: Sequence[str] = ()
) -> None:
    """Streamable HTTP at ``http://host:port/mcp``, answering only :func:`request_guard`'s names."""
    import uvicorn  # an SDK dependency, needed only for HTTP

    guard = request_guard(host, port, allow_hosts)
    app = server.streamable_http_app(streamable_http_path=HTTP_PATH, host=host, transport_security=guard)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()


def request_guard(host: str, port: int, allow_hosts: Sequence[str] = ()) -> TransportSecuritySettings:
    """The Host and Origin values a request may carry: the bound address, ``allow_hosts``, and
    for a loopback bind the name localhost. The SDK switches its own guard on only for the
    exact strings 127.0.0.1, localhost and ::1; this one is on for every bind."""
    from mcp.server.transport_security import TransportSecuritySettings

    names = [] if _is_every_address(host) else [_url_host(host)]
    if _is_loopback(host):
        names += ["localhost", "127.0.0.1", "[::1]"] if host == "localhost" else ["localhost"]
    names += [_url_host(name.strip().lower()) for name in allow_hosts if name.strip()]
    names = list(dict.fromkeys(names))
    # a client may leave out the default port 80; any other port is always in Host
    hosts = [f"{name}:{port}" for name in names] + (names if port == 80 else [])
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[f"http://{value}" for value in hosts],
    )


def run(args: argparse.Namespace) -> int:
    """Serve until stdin closes (stdio) or the process is interrupted (HTTP); the exit code."""
    try:
        import anyio
        import mcp  # noqa: F401 - only to say clearly when the extra is missing
    except ModuleNotFoundError as exc:
        print(
            f"llmweb mcp needs the MCP SDK ({exc.name} is missing): pip install 'llmweb[mcp]'",
            file=sys.stderr,
        )
        return exits.FAILED
    server = build_server(searxng_url=args.searxng_url)
    if args.http is None:
        anyio.run(serve_stdio, server)
        return 0
    allow_hosts: list[str] = args.allow_host or []
    refusal = bind_refusal(args.host, allow_hosts)
    if refusal:
        print(refusal, file=sys.stderr)
        return exits.USAGE
    warning = beyond_loopback_warning(args.host, args.http, allow_hosts)
    if warning:
        print(warning, file=sys.stderr)
    print(
        f"llmweb MCP server on http://{_url_host(args.host)}:{args.http}{HTTP_PATH}",
        file=sys.stderr,
        flush=True,
    )
    # uvicorn shuts down on Ctrl-C, then re-raises the signal; a clean stop is not an error.
    with contextlib.suppress(KeyboardInterrupt):
        serve = functools.partial(serve_http, server, host=args.host, port=args.http, allow_hosts=allow_hosts)
        anyio.run(serve)
    return 0


def bind_refusal(host: str, allow_hosts: Sequence[str]) -> str | None:
    """Why ``--host`` cannot be served as given (checked before anything binds), or None."""
    if _is_every_address(host) and not allow_hosts:
        return (
            f"error: --host {host} listens on every address, so no address can stand for the server in "
            "the Host header it checks. Name the addresses or host names clients use with --allow-host "
            "(e.g. --allow-host 192.168.1.5 --allow-host pc.lan), or bind one address with --host."
        )
    return None


def beyond_loopback_warning(host: str, port: int, allow_hosts: Sequence[str]) -> str | None:
    """What an admin must know before the server listens beyond this machine; None on loopback."""
    if _is_loopback(host):
        return None
    names = ", ".join(request_guard(host, port, allow_hosts).allowed_hosts)
    return (
        f"WARNING: serving MCP on {host}, beyond this machine. Anyone who can reach this port can "
        f"search (spending the Brave quota) and fetch pages through it. Requests are answered only when "
        f"their Host is one of: {names}."
    )


def _is_loopback(host: str) -> bool:
    """Every address ``host`` binds is a loopback one (127.1 and 2130706433 are 127.0.0.1)."""
    addresses = bind_addresses(host)
    return bool(addresses) and all(address.is_loopback for address in addresses)


def _is_every_address(host: str) -> bool:
    """``host`` binds every address: "", 0, 0x0, 000.000.000.000, ::, [::] and a name that resolves to one."""
    return host == "" or any(address.is_unspecified for address in bind_addresses(host))


def bind_addresses(host: str) -> list[Address]:
    """The addresses a server told to listen on ``host`` binds: the socket layer reads a number
    in every form inet_aton accepts (0 and 0x0 are 0.0.0.0, 127.1 is 127.0.0.1) and binds every
    address a name resolves to, so the bind is judged by these, not by the spelling.

    Numbers are read by getaddrinfo without a look-up (AI_NUMERICHOST); only a name is
    resolved. An address that does not resolve gives none (the bind then fails by itself)."""
    bare = host.strip().removeprefix("[").removesuffix("]")
    found: list[Address] = []
    for flags in (socket.AI_NUMERICHOST, 0):
        try:
            answers = socket.getaddrinfo(bare, None, type=socket.SOCK_STREAM, flags=flags)
        except (OSError, UnicodeError):
            continue
        for *_, sockaddr in answers:
            address = parse_address(str(sockaddr[0]).partition("%")[0])
            if address is not None:
                found.append(address)
        break
    return found


def _url_host(host: str) -> str:
    bare = host.strip("[]")
    return f"[{bare}]" if ":" in bare else bare


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m llmweb.mcp_server", description=__doc__.splitlines()[0])
    add_mcp_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
