"""Keeps a test process on loopback: an audit hook that refuses, and records, every step off it.

``sys.addaudithook`` observes each socket ``connect``, ``sendto`` and ``bind`` and each name
lookup the interpreter makes; it patches nothing. A step that would leave this machine (an
AF_INET/AF_INET6 address outside 127.0.0.0/8 and ::1, or a lookup of a name that only DNS can
answer) raises the ordinary network error instead, so the code under test takes its normal
failure path, and is recorded, so the test session fails loudly (tests/conftest.py).

It guards the tests (tests/conftest.py) and scripts/bench (bench/__main__.py).
A Python subprocess gets the same hook from testbed/loopback_site/sitecustomize.py when its
environment has PYTHONPATH pointing there (``guarded_env``); it records into the file named by
LLMWEB_TEST_LEAK_LOG, which the session reads.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import re
import socket
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

LEAK_LOG_VARIABLE = "LLMWEB_TEST_LEAK_LOG"
SITE = Path(__file__).resolve().parent / "loopback_site"
LEAVING = "the test tried to leave loopback"

# The legacy numeric forms getaddrinfo reads without DNS (inet_aton: 127.1, 2130706433, 0x7f000001).
_LEGACY_IPV4 = re.compile(r"[0-9a-fA-FxX.]+")
_LOOKUPS = {"socket.getaddrinfo", "socket.gethostbyname"}
_ADDRESSED = {"socket.connect", "socket.sendto", "socket.bind"}


def parse_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address ``host`` spells without DNS (scope ids and legacy IPv4 forms included), else None."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    if not _LEGACY_IPV4.fullmatch(host):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def is_loopback_host(host: str) -> bool:
    """True for 127.0.0.0/8, ::1, their IPv4-mapped forms and the name localhost."""
    if host.lower() == "localhost":
        return True
    ip = parse_ip(host)
    if ip is None:
        return False
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)


def needs_dns(host: str | bytes | None, flags: int = 0) -> bool:
    """True when looking ``host`` up could ask DNS: not an IP literal, not localhost, not numeric-only."""
    if host is None or flags & socket.AI_NUMERICHOST:
        return False
    name = host.decode("ascii", "replace") if isinstance(host, bytes) else host
    return name != "" and name.lower() != "localhost" and parse_ip(name) is None


def step_off_loopback(event: str, args: tuple[Any, ...]) -> str | None:
    """What an audited socket event would do off loopback, or None when it stays on this machine."""
    if event in _LOOKUPS:
        host = args[0]
        flags = args[5] if event == "socket.getaddrinfo" and len(args) > 5 else 0
        return f"{event} of {host!r}, which only DNS can answer" if needs_dns(host, flags) else None
    if event not in _ADDRESSED:
        return None
    sock, address = args[0], args[1]
    if getattr(sock, "family", None) not in (socket.AF_INET, socket.AF_INET6):
        return None  # AF_UNIX and other local families
    host = address[0] if isinstance(address, tuple) and address else address
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if isinstance(host, str) and is_loopback_host(host):
        return None
    return f"{event} to {address!r}, outside 127.0.0.0/8 and ::1"


def install(record: Callable[[str], None]) -> None:
    """Refuse and ``record`` every step off loopback in this process from now on (for good)."""

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if not event.startswith("socket."):
            return
        step = step_off_loopback(event, args)
        if step is None:
            return
        message = f"{LEAVING}: {step}"
        record(message)
        if event in _LOOKUPS:
            raise socket.gaierror(socket.EAI_NONAME, message)
        raise OSError(errno.ENETUNREACH, message)

    sys.addaudithook(hook)


def record_in_file(path: str) -> Callable[[str], None]:
    """A recorder for a subprocess: one line per step in ``path``, and the step on stderr."""

    def record(message: str) -> None:
        line = f"pid {os.getpid()} {' '.join(sys.argv)[:200]}: {message}\n"
        with open(path, "a", encoding="utf-8") as log:
            log.write(line)
        sys.stderr.write(line)

    return record


def guarded_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: this process's) plus what makes a Python subprocess install the guard."""
    base = dict(os.environ if env is None else env)
    base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SITE), base.get("PYTHONPATH", "")]))
    if os.environ.get(LEAK_LOG_VARIABLE):
        base[LEAK_LOG_VARIABLE] = os.environ[LEAK_LOG_VARIABLE]
    return base
