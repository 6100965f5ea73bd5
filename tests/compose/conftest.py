"""Fixtures of the compose suite: the Docker engine, the stand-in images, deployments, clients.

A run prints at its end what each image cost (built or cached) and how long each check
took, so cold and warm runs can be compared.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import BROWSER_HEADERS, brave_answer, brave_result, shipped_settings

from compose import http_client
from compose.deployment import BRAVE_HOST, SEARXNG, VALKEY, Deployment, prepare
from compose.engine import EngineUnavailable, compose_command, docker, start_engine, stop_engine
from compose.images import BuildRecord, Images, ensure_images
from compose.tls import ServerTls, make_server_tls

BUILDS: list[BuildRecord] = []
CHECK_SECONDS: dict[str, float] = {}

# A network of the test's own for clients "outside the household": a documentation range
# (RFC 5737 TEST-NET-3) is on no pass list, so the limiter must judge these clients.
OUTSIDE_NETWORK = "llmweb-test-outside"
OUTSIDE_SUBNET = "203.0.113.0/24"
SEARCH_PATH = "/search?q=pogoda&format=json"
# SearXNG's limiter allows a client outside the pass list 4 JSON searches an hour: 6 must
# meet a refusal (429) where the limiter works.
SEARCHES = 6
# Each header a client outside the household could send to pass as one of its addresses.
FORGED = {
    "xff-loopback": {"X-Forwarded-For": "127.0.0.1"},
    "xff-private": {"X-Forwarded-For": "10.1.2.3"},
    "real-ip-private": {"X-Real-IP": "192.168.1.10"},
    # SearXNG's server reads an underscore as a hyphen, the later header winning
    "underscored": {"X_Forwarded_For": "192.168.1.10", "X_Real_IP": "10.1.2.3"},
    "wrong-token": {"X-Forwarded-For": "192.168.1.10", "X-Llmweb-Proxy-Token": "not-the-secret"},
}


def statuses(answers: list[dict[str, Any]]) -> list[object]:
    return [a["status"] for a in answers]


def polish_answer() -> dict[str, Any]:
    """What the fake Brave answers every search: two dated results with extra snippets."""
    return brave_answer(
        [
            brave_result(
                "https://example.org/pogoda",
                "Pogoda Kraków",
                description="Prognoza na jutro.",
                extra_snippets=["Rano deszcz.", "Wieczorem słońce."],
                page_age="2026-11-02T08:00:00",
            ),
            brave_result(
                "https://example.org/smog",
                "Smog w Krakowie",
                description="Jakość powietrza.",
                extra_snippets=["Norma przekroczona."],
                page_age="2026-10-30T12:00:00",
            ),
        ]
    )


# docker-compose.yml publishes settings.yml's port on 127.0.0.1 (tests/test_compose.py); the suite runs that file.
SHIPPED_PORT = int(shipped_settings()["server"]["port"])


@pytest.fixture(scope="session")
def compose_cmd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """The compose command, with a Docker engine answering (started here when none runs)."""
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", SHIPPED_PORT)) == 0:
            pytest.fail(
                f"127.0.0.1:{SHIPPED_PORT} is taken (llmweb's own stack?): the compose suite runs "
                "docker-compose.yml as shipped, which publishes that port. Stop it first "
                "(`docker compose down`, or Ctrl-C scripts/serve), then run the suite again."
            )
    try:
        dockerd = start_engine(tmp_path_factory.mktemp("dockerd") / "dockerd.log")
        command = compose_command()
    except EngineUnavailable as reason:
        pytest.skip(f"no Docker engine: {reason}")
    yield command
    if dockerd:
        stop_engine(dockerd)


@pytest.fixture(scope="session")
def images(compose_cmd: list[str]) -> Images:
    try:
        return ensure_images(BUILDS)
    except EngineUnavailable as reason:
        pytest.skip(f"cannot build the stand-in images: {reason}")


@pytest.fixture(scope="session")
def brave_tls(tmp_path_factory: pytest.TempPathFactory) -> ServerTls:
    return make_server_tls(tmp_path_factory.mktemp("tls"), BRAVE_HOST)


Deploy = Callable[..., Deployment]


@contextlib.contextmanager
def deployments(root: Path, compose_cmd: list[str], images: Images, tls: ServerTls) -> Iterator[Deploy]:
    """Prepares deployments (not started); removes them, and volumes they left, afterwards."""
    made: list[Deployment] = []
    volumes_before = set(docker("volume", "ls", "-q").split())

    def make(answer: dict[str, Any] | None = None, **options: Any) -> Deployment:
        folder = root / f"project{len(made)}"
        deployment = prepare(folder, compose_cmd, images, tls, answer or polish_answer(), **options)
        made.append(deployment)
        return deployment

    try:
        yield make
    finally:
        for deployment in made:
            deployment.remove()
        subprocess.run(["docker", "network", "rm", OUTSIDE_NETWORK], capture_output=True, check=False)
        dangling = set(docker("volume", "ls", "-q", "--filter", "dangling=true").split())
        for volume in dangling - volumes_before:
            subprocess.run(["docker", "volume", "rm", volume], capture_output=True, check=False)


@pytest.fixture
def deploy(tmp_path: Path, compose_cmd: list[str], images: Images, brave_tls: ServerTls) -> Iterator[Deploy]:
    """A test's own deployments: ``deploy(env={...}, settings=change, override={...}, answer={...})``."""
    with deployments(tmp_path, compose_cmd, images, brave_tls) as make:
        yield make


@pytest.fixture(scope="module")
def running(
    tmp_path_factory: pytest.TempPathFactory, compose_cmd: list[str], images: Images, brave_tls: ServerTls
) -> Iterator[Deployment]:
    """One deployment per module, started the README's way and healthy, for checks that only look."""
    with deployments(tmp_path_factory.mktemp("running"), compose_cmd, images, brave_tls) as make:
        deployment = make()
        deployment.compose("up", "-d")
        deployment.wait_healthy(SEARXNG, VALKEY)
        yield deployment


ContainerClient = Callable[..., list[dict[str, Any]]]


@pytest.fixture(scope="session")
def container_client(images: Images) -> ContainerClient:
    """JSON searches from a container, as a machine of the house or of the outside world makes them.

    ``container_client(deployment, count, headers={...}, via="searxng", outside=True,
    address="203.0.113.10")`` returns each answer's status and body. Outside, the client sits on
    a network of its own outside every pass list, at ``address`` (a fresh one gives counters of
    its own), and the ``via`` service joins that network under its name, so SearXNG sees the
    client's own address as it would a LAN or internet client's. With ``outside=False`` the
    client sits on the project's default network, a private one, as a machine of the house.
    """

    def search(
        deployment: Deployment,
        count: int,
        headers: dict[str, str] | None = None,
        via: str = SEARXNG,
        outside: bool = True,
        address: str = "203.0.113.10",
    ) -> list[dict[str, Any]]:
        if outside:
            network, placed = OUTSIDE_NETWORK, ["--ip", address]
            if not docker("network", "ls", "-q", "--filter", f"name=^{OUTSIDE_NETWORK}$").split():
                docker("network", "create", "--subnet", OUTSIDE_SUBNET, OUTSIDE_NETWORK)
            container = deployment.container(via)
            joined = json.loads(docker("inspect", "-f", "{{json .NetworkSettings.Networks}}", container))
            if OUTSIDE_NETWORK not in joined:
                docker("network", "connect", "--alias", via, OUTSIDE_NETWORK, container)
        else:
            network, placed = deployment.default_network(), []
        out = docker(
            "run", "--rm", "--network", network, *placed,
            "-v", f"{http_client.__file__}:/client.py:ro",
            "--entrypoint", "/usr/local/searxng/.venv/bin/python", images.searxng,
            "/client.py", f"http://{via}:8080{SEARCH_PATH}", str(count),
            json.dumps({**BROWSER_HEADERS, **(headers or {})}),
        )  # fmt: skip
        return list(json.loads(out))

    return search


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    CHECK_SECONDS[report.nodeid] = CHECK_SECONDS.get(report.nodeid, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter: Any) -> None:
    write = terminalreporter.write_line
    terminalreporter.section("compose suite: images and timings")
    for record in BUILDS:
        write(f"image {record.name:45} {'built' if record.built else 'cached':6} {record.seconds:7.1f} s")
    for nodeid, seconds in CHECK_SECONDS.items():
        write(f"{seconds:7.1f} s  {nodeid.split('::')[-1]}")
    write(f"{sum(CHECK_SECONDS.values()):7.1f} s  all checks (image builds included in the first)")
