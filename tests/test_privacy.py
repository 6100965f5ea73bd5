"""Only the search phrase leaves the house: SearXNG, as shipped, connects nowhere but to its engines.

The deployment starts under strace, which records every connect() and every datagram sent by
SearXNG and all its processes, from the first line of start-up through a search. The
keyless engines are off (they would reach the internet) and Brave is faked on loopback, so
every destination the trace may hold is on loopback: the fake Brave and valkey. SearXNG keeps
some start-up state under its cache and temp folders (it remembers a failed download, for
one), so each run gets fresh ones.
"""

from __future__ import annotations

import ipaddress
import re
import shutil
from pathlib import Path

import pytest
from conftest import BRAVE_PATH, SENTINEL_KEY, brave_answer, brave_result, search_json, write_test_settings
from pytest_httpserver import HTTPServer

from serve import stack

TRACED_CALLS = "connect,sendto,sendmsg,sendmmsg"
_INET = re.compile(r'sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)')
_INET6 = re.compile(r'sin6_port=htons\((\d+)\).*?inet_pton\(AF_INET6, "([^"]+)"')


def destinations(trace: str) -> list[tuple[str, int]]:
    """Every (address, port) an IPv4 or IPv6 socket was pointed at in an strace log."""
    found = []
    for line in trace.splitlines():
        match = _INET.search(line) or _INET6.search(line)
        if match:
            found.append((match[2], int(match[1])))
    return found


def test_only_the_engine_and_valkey_are_contacted_from_start_up_through_a_search(
    tmp_path: Path, brave: HTTPServer, valkey: stack.Process, engines_installed: None
) -> None:
    strace = shutil.which("strace")
    if strace is None:
        pytest.fail("strace is missing; scripts/test installs Debian's package (needs root and apt)")
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([brave_result("https://example.org/")]))
    settings = write_test_settings(tmp_path / "settings", brave.url_for("").rstrip("/"))
    fresh = {name: tmp_path / name for name in ("tmp", "cache")}
    for folder in fresh.values():
        folder.mkdir()
    env = {
        "BRAVE_API_KEY": SENTINEL_KEY,
        "SEARXNG_VALKEY_URL": valkey.url,
        "TMPDIR": str(fresh["tmp"]),
        "XDG_CACHE_HOME": str(fresh["cache"]),
    }
    log = tmp_path / "connections.strace"
    wrapper = [strace, "-f", "-qq", "-e", f"trace={TRACED_CALLS}", "-o", str(log)]
    searxng = stack.start_searxng(settings, workdir=tmp_path / "run", env=env, wrapper=wrapper)
    try:
        answer = search_json(searxng, q="prywatność")
    finally:
        searxng.stop()
    assert [r["url"] for r in answer["results"]] == ["https://example.org/"]

    seen = destinations(log.read_text())
    print("connections SearXNG attempted, start-up through one search:", sorted(set(seen)))
    brave_port = int(brave.url_for("").rstrip("/").rsplit(":", 1)[1])
    valkey_port = int(valkey.url.rsplit(":", 1)[1].split("/")[0])
    # the trace did see the traffic there must be, so an empty list cannot pass for a quiet one
    assert ("127.0.0.1", brave_port) in seen and ("127.0.0.1", valkey_port) in seen
    outside = [(a, p) for a, p in seen if not ipaddress.ip_address(a).is_loopback]
    assert outside == [], f"SearXNG tried to reach {outside}"
