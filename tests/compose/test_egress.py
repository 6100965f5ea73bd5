"""Only the search phrase leaves the house: the deployment contacts nothing but its engine.

How it is seen: tcpdump on the host records every connection attempt and datagram sent
from the compose project's addresses, from before the containers start until after three
searches. The keyless engines are off in the test's settings (they would query DuckDuckGo
and Wikipedia, which is their job); Brave is the fake on the project's network, so any packet
to an address outside the project's containers is something the deployment sent out on its
own: a DNS question for a name Docker's resolver does not know, or a connection elsewhere.
The project's networks are IPv4 only (compose enables no IPv6 on them), so nothing can leave
them over IPv6 unseen.
"""

from __future__ import annotations

from pathlib import Path

from compose.conftest import Deploy
from compose.deployment import SEARXNG, VALKEY
from compose.traffic import leaving, project_networks, recorded


def test_nothing_but_the_engines_request_leaves_the_deployment(deploy: Deploy, tmp_path: Path) -> None:
    stack = deploy()
    stack.compose("up", "--no-start")
    networks = project_networks(stack.name)
    with recorded(networks, tmp_path / "tcpdump.txt") as sent:
        stack.compose("up", "-d")
        stack.wait_healthy(SEARXNG, VALKEY)
        for query in ("pogoda", "smog", "tramwaje"):
            stack.search_json(query)
    brave = stack.fake_brave_address()
    assert any(s.destination == brave and s.port == 443 for s in sent), "the capture saw no request to Brave"
    assert sorted(map(str, leaving(sent, networks))) == []
