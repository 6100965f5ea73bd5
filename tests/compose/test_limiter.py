"""The limiter in the running stack, judged from a client outside the household's networks.

SearXNG's limiter allows a client outside the pass list 4 JSON searches an hour; the 6
searches each check sends are enough to be refused (429) where the limiter works.
"""

from __future__ import annotations

import pytest

from compose.conftest import FORGED, SEARCHES, ContainerClient, statuses
from compose.deployment import Deployment


def test_a_client_outside_the_pass_list_is_limited(
    running: Deployment, container_client: ContainerClient
) -> None:
    answered = statuses(container_client(running, SEARCHES, address="203.0.113.10"))
    assert answered[0] == 200
    assert 429 in answered


@pytest.mark.parametrize("forged", FORGED.values(), ids=FORGED.keys())
def test_forged_address_headers_from_outside_are_ignored(
    running: Deployment, container_client: ContainerClient, forged: dict[str, str]
) -> None:
    address = f"203.0.113.{20 + list(FORGED.values()).index(forged)}"
    assert 429 in statuses(container_client(running, SEARCHES, headers=forged, address=address))
