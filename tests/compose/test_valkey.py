"""The limiter and valkey coming and going: late at start, stopped and restarted mid-run.

Each check runs a deployment of its own (the host port fits one at a time) and searches from
a client outside the household's networks, which 6 searches get refused where the limiter works.
"""

from __future__ import annotations

import time

from compose.conftest import SEARCHES, ContainerClient, Deploy, statuses
from compose.deployment import FAKE_BRAVE, SEARXNG, VALKEY

VALKEY_LATE_SECONDS = 20


def test_the_limiter_works_when_valkey_starts_after_searxng(
    deploy: Deploy, container_client: ContainerClient
) -> None:
    stack = deploy()
    # What the Docker daemon does after a reboot: it restarts containers without depends_on.
    stack.up(SEARXNG, FAKE_BRAVE, no_deps=True)
    time.sleep(VALKEY_LATE_SECONDS)
    stack.up(VALKEY, no_deps=True)
    stack.wait_healthy(SEARXNG, VALKEY)
    assert 429 in statuses(container_client(stack, SEARCHES))


def test_a_search_while_valkey_is_down_gets_a_clear_answer(
    deploy: Deploy, container_client: ContainerClient
) -> None:
    stack = deploy()
    stack.compose("up", "-d")
    stack.wait_healthy(SEARXNG, VALKEY)
    stack.compose("stop", VALKEY)
    [answer] = container_client(stack, 1)
    assert answer["status"] in (200, 429, 503), answer


def test_limiting_resumes_after_valkey_restarts(deploy: Deploy, container_client: ContainerClient) -> None:
    stack = deploy()
    stack.compose("up", "-d")
    stack.wait_healthy(SEARXNG, VALKEY)
    stack.compose("restart", VALKEY)
    stack.wait_healthy(VALKEY)
    assert 429 in statuses(container_client(stack, SEARCHES))
