"""scripts/serve, as a person runs it: it answers JSON on loopback and stops everything on a signal.

It runs with --settings pointing at the test copy of the shipped settings (Brave faked on
loopback, keyless engines off), the only change a loopback run needs.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import BRAVE_PATH, SENTINEL_KEY, brave_answer, brave_result, write_test_settings
from pytest_httpserver import HTTPServer

from serve import stack
from testbed import processes

REPO = Path(__file__).resolve().parent.parent


def wait_for_line(proc: subprocess.Popen[str], text: str, seconds: float = 90) -> list[str]:
    lines: list[str] = []
    deadline = time.monotonic() + seconds
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if text in line:
            return lines
    raise AssertionError(f"{text!r} never printed:\n{''.join(lines)}")


def start_serve(tmp_path: Path, port: int, settings: Path, *options: str) -> subprocess.Popen[str]:
    """scripts/serve on ``port`` with the tests' settings, its output readable line by line."""
    command = [str(REPO / "scripts" / "serve"), *options, "--port", str(port), "--settings", str(settings)]
    return subprocess.Popen(
        [*command, "--workdir", str(tmp_path / "var")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "BRAVE_API_KEY": SENTINEL_KEY},
    )


def children_of(pid: int) -> list[int]:
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.append(int(status.parent.name))
    return found


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_serve_answers_json_on_loopback_and_stops_everything_on_a_signal(
    tmp_path: Path, brave: HTTPServer, stop_signal: signal.Signals
) -> None:
    if not Path("/proc").is_dir():
        pytest.skip("needs /proc to find the server's child processes")
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([brave_result("https://example.org/s")]))
    settings = write_test_settings(tmp_path / "settings", brave.url_for("").rstrip("/"))
    port = stack.free_port()
    serve = start_serve(tmp_path, port, settings)
    try:
        printed = wait_for_line(serve, "SearXNG listens on")
        assert f"http://127.0.0.1:{port}" in printed[-1]
        answer = httpx.get(
            f"http://127.0.0.1:{port}/search", params={"q": "serve", "format": "json"}, timeout=30
        )
        assert [r["url"] for r in answer.json()["results"]] == ["https://example.org/s"]
        # scripts/serve execs the stack runner, whose children are granian and redis.
        servers = children_of(serve.pid)
        assert len(servers) == 2, "granian and the limiter's redis must run as children"
        serve.send_signal(stop_signal)
        rest, _ = serve.communicate(timeout=60)
        assert serve.returncode == 0
        assert "stopped" in rest
        for pid in servers:
            assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
        with pytest.raises(httpx.TransportError):
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()


def test_serve_listens_on_the_port_settings_yml_names(tmp_path: Path, brave: HTTPServer) -> None:
    port = stack.free_port()

    def listen_there(settings: dict[str, Any]) -> None:
        settings["server"]["port"] = port

    settings = write_test_settings(tmp_path / "settings", brave.url_for("").rstrip("/"), listen_there)
    command = [
        str(REPO / "scripts" / "serve"),
        "--settings",
        str(settings),
        "--workdir",
        str(tmp_path / "var"),
    ]
    env = {k: v for k, v in os.environ.items() if k not in ("SEARXNG_PORT", "SEARXNG_BIND_ADDRESS")}
    serve = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        printed = wait_for_line(serve, "SearXNG listens on")
        assert f"http://127.0.0.1:{port} " in printed[-1]
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).status_code == 200
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.communicate(timeout=60)


@pytest.fixture
def fresh_checkout(tmp_path: Path) -> Path:
    """The repository's files as a fresh clone has them (no .env, no var/), sharing this .venv."""
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.split(b"\0")
    checkout = tmp_path / "llmweb"
    for name in filter(None, files):
        source = REPO / name.decode()
        if source.is_file():
            target = checkout / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
            target.chmod(source.stat().st_mode)
    (checkout / ".venv").symlink_to(REPO / ".venv")  # scripts/bootstrap finds it installed
    return checkout


def test_the_readme_first_run_works_with_env_example_copied_unchanged(
    fresh_checkout: Path, tmp_path: Path, brave: HTTPServer
) -> None:
    # README: "cp .env.example .env", then scripts/serve; the example leaves SEARXNG_SECRET
    # and BRAVE_API_KEY empty. Only --settings differs: the keyless engines stay off the internet.
    subprocess.run(["cp", ".env.example", ".env"], cwd=fresh_checkout, check=True)
    settings = write_test_settings(tmp_path / "settings", brave.url_for("").rstrip("/"))
    port = stack.free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("BRAVE_API_KEY", "SEARXNG_SECRET")}
    command = [str(fresh_checkout / "scripts" / "serve"), "--port", str(port), "--settings", str(settings)]
    for start in ("first", "second"):
        serve = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        try:
            printed = wait_for_line(serve, "stop with Ctrl-C")
            answer = httpx.get(
                f"http://127.0.0.1:{port}/search", params={"q": "pogoda Kraków", "format": "json"}, timeout=30
            )
            assert answer.status_code == 200, (start, answer.text[:300])
            assert answer.json()["unresponsive_engines"] == [
                ["brave api", "Brave API key missing: the admin should set BRAVE_API_KEY"]
            ]
            assert any("no BRAVE_API_KEY" in line for line in printed)
            secret = fresh_checkout / "var" / "searxng-secret"
            assert secret.stat().st_mode & 0o777 == 0o600
            if start == "first":
                made = secret.read_text()
            else:
                assert secret.read_text() == made, "the secret made on the first start is kept"
        finally:
            serve.send_signal(signal.SIGTERM)
            serve.communicate(timeout=60)
    assert brave.log == []


def listening_on(port: int, among: list[int]) -> int:
    """The process of ``among`` started with ``--port port``."""
    for pid in among:
        arguments = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if b"--port" in arguments and arguments[arguments.index(b"--port") + 1] == str(port).encode():
            return pid
    raise AssertionError(f"no process of {among} listens on port {port}")


def test_serve_with_replicas_answers_through_caddy_and_starts_a_crashed_replica_again(
    tmp_path: Path, brave: HTTPServer, caddy_installed: None
) -> None:
    if not Path("/proc").is_dir():
        pytest.skip("needs /proc to find the server's child processes")
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([brave_result("https://example.org/r")]))
    settings = write_test_settings(tmp_path / "settings", brave.url_for("").rstrip("/"))
    port = stack.free_port()
    serve = start_serve(tmp_path, port, settings, "--replicas", "2")
    try:
        printed = wait_for_line(serve, "stop with Ctrl-C")
        behind = next(line for line in printed if "replicas behind Caddy:" in line).split(":", 1)[1]
        replica_ports = [int(address.rsplit(":", 1)[1]) for address in behind.split(",")]
        assert len(replica_ports) == 2, printed

        def urls() -> list[str]:
            answer = httpx.get(
                f"http://127.0.0.1:{port}/search", params={"q": "repliki", "format": "json"}, timeout=30
            )
            return [r["url"] for r in answer.json()["results"]]

        assert urls() == ["https://example.org/r"]
        servers = children_of(serve.pid)
        assert len(servers) == 4, "valkey, two granian and caddy run as children"
        crashed = listening_on(replica_ports[1], servers)
        processes.crash(crashed)
        wait_for_line(serve, "searxng-2 exited")
        assert urls() == ["https://example.org/r"]  # the other replica answers meanwhile
        wait_for_line(serve, "searxng-2 | [INFO] Started worker")
        assert httpx.get(f"http://127.0.0.1:{replica_ports[1]}/healthz", timeout=10).status_code == 200
        servers = children_of(serve.pid)
        serve.send_signal(signal.SIGTERM)
        rest, _ = serve.communicate(timeout=60)
        assert serve.returncode == 0 and "stopped" in rest
        for pid in servers:
            assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()


def test_free_ports_lie_outside_the_range_outgoing_connections_take_theirs_from() -> None:
    """A port found free in that range can become the local end of any connection before its
    server listens on it; each port handed out is also one a server can bind, and handed out once."""
    low, high = (int(n) for n in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    ports = [stack.free_port() for _ in range(40)] + [stack.free_port("::1") for _ in range(5)]
    assert len(set(ports)) == len(ports)
    assert not [port for port in ports if low <= port <= high], (low, high)
    for port in ports[:5]:
        with socket.socket() as server:
            server.bind(("127.0.0.1", port))
            server.listen()
