"""Fixtures of the swarm suite: the engine as a one-node swarm, the stand-in images, one stack.

One stack serves the whole module (a deploy takes about a minute here); tests that count Brave
requests empty valkey first, so each starts from a fresh budget and cache. The end of a run
prints what each image cost and how long each check took, as the compose suite does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from compose.conftest import polish_answer
from compose.engine import EngineUnavailable, start_engine, stop_engine
from compose.images import BuildRecord, Images, ensure_images
from compose.tls import make_server_tls

from serve.stack import free_port
from swarm.stack import Stack, create_secrets, engine_entry, prepare, swarm_of_one_node

BUILDS: list[BuildRecord] = []
CHECK_SECONDS: dict[str, float] = {}
REPLICAS = 3
DAILY_BUDGET = 5
"""Brave requests the stack under test may make per day; the budget test makes more searches."""


def small_budget(settings: dict[str, Any]) -> None:
    engine = engine_entry(settings)
    engine.update(daily_budget=DAILY_BUDGET, monthly_budget=0)


@pytest.fixture(scope="session")
def images(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Images]:
    try:
        dockerd = start_engine(tmp_path_factory.mktemp("dockerd") / "dockerd.log")
    except EngineUnavailable as reason:
        pytest.skip(f"no Docker engine: {reason}")
    try:
        yield ensure_images(BUILDS)
    except EngineUnavailable as reason:
        pytest.skip(f"cannot build the stand-in images: {reason}")
    finally:
        if dockerd:
            stop_engine(dockerd)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, images: Images) -> Iterator[Stack]:
    """deploy/swarm.yml deployed and converged: 3 healthy replicas, valkey, Caddy, the fake Brave."""
    root = tmp_path_factory.mktemp("swarm")
    tls = make_server_tls(root / "tls", "api.search.brave.com")
    with swarm_of_one_node():
        deployed = prepare(root / "project", images, tls, polish_answer(), free_port(), small_budget)
        try:
            create_secrets(deployed.key, deployed.secret)
            deployed.deploy()
            deployed.wait_converged({"searxng": REPLICAS, "valkey": 1, "proxy": 1, "fake-brave": 1})
            yield deployed
        finally:
            deployed.remove()


@pytest.fixture
def fresh_valkey(stack: Stack) -> Stack:
    """The stack with valkey emptied: a whole daily budget, an empty cache, no limiter counts."""
    assert stack.valkey_cli("FLUSHALL") == "OK"
    return stack


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    CHECK_SECONDS[report.nodeid] = CHECK_SECONDS.get(report.nodeid, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter: Any) -> None:
    write = terminalreporter.write_line
    terminalreporter.section("swarm suite: images and timings")
    for record in BUILDS:
        write(f"image {record.name:45} {'built' if record.built else 'cached':6} {record.seconds:7.1f} s")
    for nodeid, seconds in CHECK_SECONDS.items():
        write(f"{seconds:7.1f} s  {nodeid.split('::')[-1]}")
    write(f"{sum(CHECK_SECONDS.values()):7.1f} s  all checks (image builds and the deploy in the first)")
