"""The MCP server, driven by the official SDK's own client over stdio and streamable HTTP.

The server runs as its own process (``llmweb mcp`` or ``python -m llmweb.mcp_server``)
against the real test SearXNG, exactly as an MCP host would start it.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx
import pytest
from conftest import BRAVE_PATH, brave_answer, brave_result
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, TextContent
from pytest_httpserver import HTTPServer

from llmweb.mcp_server import beyond_loopback_warning, bind_refusal, request_guard
from llmweb.tools import run_tool_call, tool_definitions
from serve import stack
from testbed.loopback_guard import guarded_env

LLMWEB = str(Path(sys.executable).with_name("llmweb"))
T = TypeVar("T")


def over_stdio(command: list[str], env: dict[str, str], session: Callable[[Client], Awaitable[T]]) -> T:
    """Start the server as the SDK starts a stdio server, and run ``session`` against it."""
    parameters = StdioServerParameters(command=command[0], args=command[1:], env=guarded_env(env))

    async def main() -> T:
        async with Client(parameters) as client:
            return await session(client)

    return anyio.run(main)


def text_of(result: CallToolResult) -> str:
    [content] = result.content
    assert isinstance(content, TextContent)
    return content.text


def one_result(brave: HTTPServer) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(
        brave_answer(
            [
                brave_result(
                    "https://example.org/mcp",
                    "Model Context Protocol",
                    description="Otwarty protokół.",
                    page_age="2026-11-02T00:00:00",
                )
            ]
        )
    )


async def list_tool_schemas(client: Client) -> dict[str, Any]:
    return {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}


@pytest.mark.parametrize("command", [[LLMWEB, "mcp"], [sys.executable, "-m", "llmweb.mcp_server"]])
def test_stdio_lists_web_search_and_web_fetch_with_the_tools_schemas(command: list[str]) -> None:
    schemas = over_stdio(command, {}, list_tool_schemas)
    assert schemas == {d["function"]["name"]: d["function"]["parameters"] for d in tool_definitions()}


def test_stdio_web_search_answers_with_the_dispatchers_text(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    one_result(brave)

    async def search(client: Client) -> CallToolResult:
        return await client.call_tool("web_search", {"query": "mcp"})

    result = over_stdio([LLMWEB, "mcp"], {"LLMWEB_SEARXNG_URL": searxng.url}, search)
    assert not result.is_error
    assert text_of(result) == run_tool_call("web_search", {"query": "mcp"}, searxng_url=searxng.url)


def test_stdio_a_failed_call_is_a_tool_error_with_the_actionable_text() -> None:
    async def search(client: Client) -> CallToolResult:
        return await client.call_tool("web_search", {"query": "mcp", "page": 0})

    result = over_stdio([LLMWEB, "mcp"], {}, search)
    assert result.is_error
    assert text_of(result).startswith("Error: Invalid arguments — page:")


def lone_surrogate_result(brave: HTTPServer) -> None:
    """Brave answers with a title and a description holding lone surrogates, as JSON escapes
    ("\\ud800"), which SearXNG passes through to its own JSON."""
    brave.expect_request(BRAVE_PATH).respond_with_json(
        brave_answer(
            [brave_result("https://example.org/zepsute", "Tytuł \ud800 zepsuty", description="Opis \udfff.")]
        )
    )


def test_stdio_a_search_result_with_a_lone_surrogate_is_answered_with_a_replacement_character(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    lone_surrogate_result(brave)

    async def search(client: Client) -> CallToolResult:
        with anyio.fail_after(120):  # a server that ended would leave the client waiting for ever
            return await client.call_tool("web_search", {"query": "zepsute"})

    result = over_stdio([LLMWEB, "mcp"], {"LLMWEB_SEARXNG_URL": searxng.url}, search)
    assert not result.is_error
    assert "Tytuł \ufffd zepsuty" in text_of(result)


def test_stdio_the_server_answers_the_next_call_after_a_search_with_a_lone_surrogate(
    searxng: stack.Process, brave: HTTPServer
) -> None:
    lone_surrogate_result(brave)

    async def search_twice(client: Client) -> list[CallToolResult]:
        with anyio.fail_after(120):  # a server that ended would leave the client waiting for ever
            return [await client.call_tool("web_search", {"query": f"zepsute {n}"}) for n in range(2)]

    first, second = over_stdio([LLMWEB, "mcp"], {"LLMWEB_SEARXNG_URL": searxng.url}, search_twice)
    assert "zepsuty" in text_of(first) and "zepsuty" in text_of(second)


def test_stdio_a_fetch_of_an_invalid_host_name_is_a_tool_error() -> None:
    async def fetch(client: Client) -> CallToolResult:
        return await client.call_tool("web_fetch", {"url": "http://xn--a-.com/"})

    result = over_stdio([LLMWEB, "mcp"], {}, fetch)
    assert result.is_error
    assert "not a valid host name" in text_of(result)


def test_stdio_web_fetch_returns_the_page_inside_the_markers() -> None:
    pages = HTTPServer(host="127.0.0.1", port=0)
    pages.start()
    try:
        pages.expect_request("/spec").respond_with_data(
            "MCP łączy modele z narzędziami przez JSON-RPC.", content_type="text/plain; charset=utf-8"
        )

        async def fetch(client: Client) -> CallToolResult:
            return await client.call_tool("web_fetch", {"url": pages.url_for("/spec")})

        result = over_stdio([LLMWEB, "mcp"], {"LLMWEB_FETCH_ALLOW": "127.0.0.1"}, fetch)
    finally:
        pages.stop()
    text = text_of(result)
    begin = text.index("<<<BEGIN UNTRUSTED PAGE TEXT ")
    end = text.index("<<<END UNTRUSTED PAGE TEXT ")
    assert "MCP łączy modele z narzędziami przez JSON-RPC." in text[begin:end]


@contextlib.contextmanager
def mcp_over_http(host: str, *args: str) -> Iterator[tuple[str, int]]:
    """``llmweb mcp --http PORT --host HOST`` on a loopback address; yields the host as a URL
    writes it and the port, once the server accepts connections. A port found free on that
    address can be taken before the server binds it (other tests start servers too): then the
    server is started again on another, three times at most."""
    for attempt in range(3):
        port = stack.free_port(host)
        process = subprocess.Popen(
            [LLMWEB, "mcp", "--http", str(port), "--host", host, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=guarded_env(),
        )
        deadline = time.monotonic() + 30  # a guard against a server that never starts
        while time.monotonic() < deadline and process.poll() is None:
            with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
                break
            time.sleep(0.05)
        if process.poll() is None:
            break
        error = process.stderr.read().decode() if process.stderr else ""
        if process.stderr:
            process.stderr.close()
        assert "address already in use" in error and attempt < 2, error
    try:
        yield (f"[{host}]" if ":" in host else host), port
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stderr:
            process.stderr.close()


@pytest.fixture
def http_server(searxng: stack.Process) -> Iterator[str]:
    """``llmweb mcp --http PORT`` on loopback; yields its MCP URL."""
    with mcp_over_http("127.0.0.1", "--searxng-url", searxng.url) as (host, port):
        yield f"http://{host}:{port}/mcp"


def test_streamable_http_serves_the_same_search(
    http_server: str, searxng: stack.Process, brave: HTTPServer
) -> None:
    one_result(brave)

    async def main() -> CallToolResult:
        async with Client(http_server) as client:
            return await client.call_tool("web_search", {"query": "mcp"})

    result = anyio.run(main)
    assert not result.is_error
    assert text_of(result) == run_tool_call("web_search", {"query": "mcp"}, searxng_url=searxng.url)


# --- the DNS-rebinding guard of the HTTP transport ---------------------------------------
# A web page in the household's browser can point a name it owns at a loopback address
# (DNS rebinding) and then call the server from script; its requests carry that name in
# Host and its own origin in Origin, so the server answers only the names it is bound to.

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    },
}


def post_initialize(host: str, port: int, **headers: str) -> httpx.Response:
    return httpx.post(
        f"http://{host}:{port}/mcp",
        json=INITIALIZE,
        headers={"Accept": "application/json, text/event-stream", **headers},
        timeout=30,
    )


LOOPBACK_BINDS = ["127.0.0.2", "127.8.9.10", "0:0:0:0:0:0:0:1"]  # none of the SDK's three exact strings


@pytest.mark.parametrize("bind", LOOPBACK_BINDS)
def test_http_on_any_loopback_address_refuses_a_foreign_host(bind: str) -> None:
    with mcp_over_http(bind) as (host, port):
        answer = post_initialize(host, port, Host=f"evil.example:{port}", Origin="http://evil.example")
    assert answer.status_code == 421


@pytest.mark.parametrize("bind", LOOPBACK_BINDS)
def test_http_on_any_loopback_address_refuses_a_foreign_origin(bind: str) -> None:
    with mcp_over_http(bind) as (host, port):
        answer = post_initialize(host, port, Origin="http://evil.example")
    assert answer.status_code == 403


def test_http_on_another_loopback_address_serves_a_client_that_uses_its_address() -> None:
    async def main(url: str) -> dict[str, Any]:
        async with Client(url) as client:
            return await list_tool_schemas(client)

    with mcp_over_http("127.0.0.2") as (host, port):
        schemas = anyio.run(main, f"http://{host}:{port}/mcp")
    assert set(schemas) == {"web_search", "web_fetch", "web_research"}


# The checks that guard a bind beyond loopback are tested as the values they return: a test
# never binds, or asks the server to bind, any address but loopback (not even to see it fail).


def test_a_bind_on_every_address_without_allowed_names_is_refused_with_what_to_pass() -> None:
    refusal = bind_refusal("0.0.0.0", [])
    assert refusal is not None and "--allow-host" in refusal


def test_a_bind_on_every_ipv6_address_without_allowed_names_is_refused() -> None:
    assert bind_refusal("::", []) is not None


@pytest.mark.parametrize(
    "host", ["0", "0.0", "0x0", "000.000.000.000", "0000", "[::]", "::0", "0:0:0:0:0:0:0:0", ""]
)
def test_every_spelling_of_every_address_without_allowed_names_is_refused(host: str) -> None:
    assert bind_refusal(host, []) is not None


@pytest.mark.parametrize("host", ["127.1", "0x7f.1", "0177.0.0.1", "2130706433", "localhost"])
def test_every_spelling_of_a_loopback_address_warns_of_nothing(host: str) -> None:
    assert beyond_loopback_warning(host, 8765, []) is None


def test_a_bind_on_every_address_with_an_allowed_name_is_served() -> None:
    assert bind_refusal("0.0.0.0", ["pc.lan"]) is None


def test_a_bind_beyond_loopback_warns_and_names_the_hosts_it_answers() -> None:
    warning = beyond_loopback_warning("192.0.2.1", 8765, ["PC.lan"])
    assert warning is not None and warning.startswith("WARNING: serving MCP on 192.0.2.1")
    assert "192.0.2.1:8765, pc.lan:8765." in warning


def test_a_bind_on_another_loopback_address_warns_of_nothing() -> None:
    assert beyond_loopback_warning("127.0.0.2", 8765, []) is None


def test_a_bind_beyond_loopback_answers_neither_localhost_nor_other_names() -> None:
    allowed = request_guard("192.168.1.5", 8765, ["pc.lan"]).allowed_hosts
    assert "192.168.1.5:8765" in allowed and "pc.lan:8765" in allowed
    assert "localhost:8765" not in allowed and "evil.example:8765" not in allowed
