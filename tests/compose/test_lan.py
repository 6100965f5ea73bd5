"""The lan profile: a reverse proxy serves the other machines of the house and passes each
client's own address on, so the limiter spares the house and limits everyone else."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from compose.conftest import FORGED, SEARCHES, ContainerClient, deployments, statuses
from compose.deployment import SEARXNG, VALKEY, Deployment
from compose.images import Images
from compose.tls import ServerTls

LAN_PROFILE, PROXY = "lan", "proxy"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def lan(
    tmp_path_factory: pytest.TempPathFactory, compose_cmd: list[str], images: Images, brave_tls: ServerTls
) -> Iterator[Deployment]:
    with deployments(tmp_path_factory.mktemp("lan"), compose_cmd, images, brave_tls) as make:
        # The profile publishes its port on every interface; a free one keeps the host's 8080 alone.
        stack = make(env={"COMPOSE_PROFILES": LAN_PROFILE, "LLMWEB_LAN_PORT": str(free_port())})
        stack.compose("up", "-d")
        stack.wait_healthy(SEARXNG, VALKEY, PROXY)
        yield stack


def test_through_the_proxy_a_client_outside_is_limited(
    lan: Deployment, container_client: ContainerClient
) -> None:
    assert 429 in statuses(container_client(lan, SEARCHES, via=PROXY, address="203.0.113.30"))


@pytest.mark.parametrize("forged", FORGED.values(), ids=FORGED.keys())
def test_through_the_proxy_forged_address_headers_are_ignored(
    lan: Deployment, container_client: ContainerClient, forged: dict[str, str]
) -> None:
    address = f"203.0.113.{40 + list(FORGED.values()).index(forged)}"
    assert 429 in statuses(container_client(lan, SEARCHES, headers=forged, via=PROXY, address=address))


def test_through_the_proxy_a_machine_of_the_house_is_never_limited(
    lan: Deployment, container_client: ContainerClient
) -> None:
    assert statuses(container_client(lan, SEARCHES, via=PROXY, outside=False)) == [200] * SEARCHES
