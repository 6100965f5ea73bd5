"""Debian's chromium, headless, driven over the DevTools protocol on a pipe.

``--remote-debugging-pipe`` makes the browser read commands from its file descriptor 3 and
write answers and events to descriptor 4, as JSON messages ended by a NUL byte: no port is
opened and no WebSocket library is needed. Commands for a page carry the ``sessionId`` of
``Target.attachToTarget(flatten=True)``.

The browser may reach loopback only. The flags switch off most of its own background
traffic (updates, sync, network time, QUIC), every hostname but 127.0.0.1 fails to resolve
inside the browser, and whatever is not bypassed for loopback goes to a proxy address on
loopback where nothing listens. Chromium 156 still asks, with these flags, for its on-device
model manifest (update.googleapis.com) and for Google accounts (accounts.google.com): the
proxy refuses both on 127.0.0.1. Its resolver also connects a UDP socket to Google's public
DNS address (IPV6_PROBE_ADDRESS) to learn whether IPv6 has a route; a UDP connect sends nothing
(it only asks the kernel for a route and a source address). No switch stops this: in
net/dns/host_resolver_manager.cc every resolve request, an IP literal such as 127.0.0.1
included, first runs ``StartIPv6ReachabilityCheck`` (``RequestImpl::DoIPv6Reachability``),
which probes ``kIPv6ProbeAddress`` unless the connection is Wi-Fi; the
``EnableIPv6ReachabilityOverride`` feature only overrides how the result is used, not the
probe, and ``--host-resolver-rules`` maps names before the manager, not around it. The
browser's net log (``--log-net-log``) records every socket it opens, so
a test can check all of this: :func:`connections`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

INSTALL_HINT = "scripts/test installs Debian's chromium package (needs root and apt-get)"
# How long to wait for an answer or an event before calling the browser stuck; a guard
# against hanging the suite, not a speed check (a page here loads in well under a second).
PATIENCE = 30.0
NO_SUCH_PROXY = "http://127.0.0.1:9"  # the discard port; connections there are refused
IPV6_PROBE_ADDRESS = "2001:4860:4860::8888"  # Chromium's kIPv6ProbeAddress (see above)

FLAGS = [
    "--headless",
    "--no-sandbox",  # tests run as root, where chromium's sandbox refuses to start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=NetworkTimeServiceQuerying",  # else it asks clients2.google.com the time
    "--disable-default-apps",
    "--disable-extensions",
    "--no-pings",
    "--dns-prefetch-disable",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    f"--proxy-server={NO_SUCH_PROXY}",
    "--window-size=1280,1000",
    "--remote-debugging-pipe",
]

Event = dict[str, Any]


class BrowserError(RuntimeError):
    """The browser died, refused a command or did not answer in time; the message says which."""


def find_chromium() -> str | None:
    return shutil.which("chromium")


@dataclass
class Chromium:
    """One headless chromium; ``call`` sends a command, events pile up in ``events``."""

    popen: subprocess.Popen[bytes]
    to_browser: int
    from_browser: int
    events: list[Event] = field(default_factory=list)
    _buffer: bytes = b""
    _next_id: int = 0

    @classmethod
    def start(cls, binary: str, profile: Path, log: Path, net_log: Path) -> Chromium:
        """Start ``binary`` with an empty profile folder; its stderr goes to ``log``, its net
        log (complete once :meth:`stop` returns) to ``net_log``."""
        profile.mkdir(parents=True, exist_ok=True)
        commands_read, commands_write = os.pipe()
        answers_read, answers_write = os.pipe()

        def onto_descriptors_3_and_4() -> None:
            # Runs in the child before exec. Copies above 4 first, so that neither end is
            # overwritten by the other's dup2 when a pipe already sits on 3 or 4.
            commands, answers = (fcntl.fcntl(fd, fcntl.F_DUPFD, 5) for fd in (commands_read, answers_write))
            os.dup2(commands, 3)  # dup2 makes them inheritable; every other descriptor is not
            os.dup2(answers, 4)

        with log.open("wb") as stderr:
            popen = subprocess.Popen(
                [binary, *FLAGS, f"--user-data-dir={profile}", f"--log-net-log={net_log}", "about:blank"],
                stdin=subprocess.DEVNULL,
                stdout=stderr,
                stderr=stderr,
                # close_fds would close 3 and 4 after preexec_fn; Python opens every descriptor
                # non-inheritable (PEP 446), so without it the browser still inherits only these.
                close_fds=False,
                preexec_fn=onto_descriptors_3_and_4,
            )
        os.close(commands_read)
        os.close(answers_write)
        return cls(popen, commands_write, answers_read)

    def stop(self) -> None:
        """Close the browser as its menu would (it writes out what it keeps), else end it."""
        if self.popen.poll() is None:
            with contextlib.suppress(BrowserError, OSError, subprocess.TimeoutExpired):
                self.call("Browser.close")
                self.popen.wait(10)
        for descriptor in (self.to_browser, self.from_browser):
            with contextlib.suppress(OSError):
                os.close(descriptor)
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()

    def call(self, method: str, session: str | None = None, /, **params: Any) -> Any:
        """Send one command (to a page when ``session`` is given) and return its result;
        events that arrive meanwhile are kept."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + PATIENCE
        while True:
            answer = self._receive(deadline, waiting_for=method)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise BrowserError(f"{method} failed: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method: str, match: Callable[[Event], bool] = bool) -> Event:
        """The first kept or coming event ``method`` whose params satisfy ``match``; consumed."""
        deadline = time.monotonic() + PATIENCE
        checked = 0
        while True:
            for index in range(checked, len(self.events)):
                event = self.events[index]
                if event.get("method") == method and match(event.get("params", {})):
                    del self.events[index]
                    return event
            checked = len(self.events)
            self.events.append(self._receive(deadline, waiting_for=method))

    def drain(self, until: Callable[[], bool]) -> None:
        """Keep receiving events until ``until()`` holds."""
        deadline = time.monotonic() + PATIENCE
        while not until():
            self.events.append(self._receive(deadline, waiting_for="the network to settle"))

    def _receive(self, deadline: float, waiting_for: str) -> Event:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.from_browser], [], [], max(left, 0))
            if not ready:
                raise BrowserError(f"chromium sent nothing while waiting for {waiting_for}")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise BrowserError(f"chromium closed its pipe (exit code {self.popen.poll()})")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return dict(json.loads(message))


@dataclass(frozen=True)
class Connection:
    """A socket the browser connected, as its net log tells."""

    protocol: str  # "tcp" or "udp"
    address: str  # "127.0.0.1:9", "[::1]:443"
    sent: bool  # whether the browser wrote anything to it (a TCP connect always sends)

    @property
    def host(self) -> str:
        return self.address.rpartition(":")[0].strip("[]")


def connections(net_log: Path) -> list[Connection]:
    """Every TCP connection attempt and UDP connect in a finished net log."""
    log = json.loads(net_log.read_text())
    names = {number: name for name, number in log["constants"]["logEventTypes"].items()}
    found: list[Connection] = []
    udp: dict[int, str] = {}  # socket (net log source id) → address
    udp_sent: set[int] = set()
    for event in log["events"]:
        name, params, source = names.get(event["type"]), event.get("params", {}), event["source"]["id"]
        # A connect is logged twice, as it begins (with the address) and ends (with the result).
        if name == "TCP_CONNECT_ATTEMPT" and "address" in params:
            found.append(Connection("tcp", params["address"], sent=True))
        elif name == "UDP_CONNECT" and "address" in params:
            udp[source] = params["address"]
        elif name == "UDP_BYTES_SENT":
            udp_sent.add(source)
    found += [Connection("udp", address, sent=source in udp_sent) for source, address in udp.items()]
    return found
