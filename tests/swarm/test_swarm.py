"""deploy/swarm.yml on a one-node swarm: the household's promises hold with replicas and secrets.

Searches from the host go through the entry point (Caddy's port, published on the node);
searches that must land on one particular replica are made from inside a replica, to the
other replicas' own addresses on the stack's network.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlencode

import httpx
from compose.engine import docker
from conftest import BROWSER_HEADERS

from swarm.conftest import DAILY_BUDGET, REPLICAS
from swarm.stack import REPLICA_CLIENT, SECRETS, SERVICES, Stack

# RFC 5737 TEST-NET-3, on no pass list: the node's end of the LAN and a machine on it.
OUTSIDE_GATEWAY = "203.0.113.1"


def replica_urls(stack: Stack, q: str) -> list[str]:
    """The same search on each replica's own address, in the order of its containers."""
    query = urlencode({"q": q, "format": "json"})
    return [f"http://{stack.address(c)}:8080/search?{query}" for c in stack.containers("searxng")]


def on_replicas(stack: Stack, urls: list[str]) -> list[dict[str, Any]]:
    """GET each URL in turn from inside the first replica (a machine of the stack's own network)."""
    client = stack.containers("searxng")[0]
    out = stack.exec_python(client, REPLICA_CLIENT, json.dumps(urls), json.dumps(BROWSER_HEADERS))
    return list(json.loads(out))


@contextmanager
def searching(stack: Stack, q: str) -> Iterator[list[int | str]]:
    """Searches through the entry point, one after another, until the block ends; each one's status."""
    statuses: list[int | str] = []
    stop = threading.Event()

    def run() -> None:
        while not stop.is_set():
            try:
                answer = stack.search(q)
                ok = answer.status_code == 200 and bool(answer.json()["results"])
                statuses.append(answer.status_code if ok else f"{answer.status_code} without results")
            except httpx.HTTPError as error:
                statuses.append(repr(error))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield statuses
    finally:
        stop.set()
        thread.join(60)


def test_the_stack_comes_up_with_every_service_healthy(stack: Stack) -> None:
    healthy = {name: len(stack.healthy_containers(name)) for name in SERVICES}
    assert healthy == {"searxng": REPLICAS, "valkey": 1, "proxy": 1, "fake-brave": 1}


def test_a_search_through_the_entry_point_answers_in_polish_with_dated_joined_snippets(
    fresh_valkey: Stack,
) -> None:
    before = len(fresh_valkey.brave_requests())
    answer = fresh_valkey.search("pogoda kraków")
    assert answer.status_code == 200, answer.text[:500]
    contents = [r["content"] for r in answer.json()["results"]]
    assert contents[0] == "2026-11-02 — Prognoza na jutro. | Rano deszcz. | Wieczorem słońce."
    [request] = fresh_valkey.brave_requests()[before:]
    params = dict(request["params"])
    assert (params["q"], params["search_lang"], params["country"]) == ("pogoda kraków", "pl", "PL")


def test_three_replicas_share_one_daily_budget(fresh_valkey: Stack) -> None:
    searches = 2 * REPLICAS + 2  # more than the budget, each replica asked at least twice
    urls = [u for n in range(searches) for u in [replica_urls(fresh_valkey, f"budżet{n}")[n % REPLICAS]]]
    before = len(fresh_valkey.brave_requests())
    answers = on_replicas(fresh_valkey, urls)
    assert [a["status"] for a in answers] == [200] * searches
    assert len(fresh_valkey.brave_requests()) - before == DAILY_BUDGET


def test_a_search_cached_by_one_replica_is_a_hit_on_the_others(fresh_valkey: Stack) -> None:
    before = len(fresh_valkey.brave_requests())
    answers = on_replicas(fresh_valkey, replica_urls(fresh_valkey, "pamięć podręczna"))
    assert len(fresh_valkey.brave_requests()) - before == 1
    results = [[r["url"] for r in json.loads(a["body"])["results"]] for a in answers]
    assert results == [["https://example.org/pogoda", "https://example.org/smog"]] * REPLICAS


@contextmanager
def lan_machine(address: str) -> Iterator[list[str]]:
    """A machine of the LAN or beyond, as a network namespace behind a veth pair: its packets
    reach this node on an interface of no Docker network, as a LAN machine's reach a node's
    network card, and the node's port mapping keeps their source address. (A container on a
    Docker network of its own would be relayed by docker-proxy and arrive as the gateway.)
    Yields the command prefix that runs a program on that machine."""
    namespace, host_end, lan_end = "llmwswarmlan", "llmwswarm0", "llmwswarm1"

    def ip(*args: str) -> None:
        subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)

    inside = ["ip", "netns", "exec", namespace]
    try:
        ip("netns", "add", namespace)
        ip("link", "add", host_end, "type", "veth", "peer", "name", lan_end)
        ip("link", "set", lan_end, "netns", namespace)
        ip("addr", "add", f"{OUTSIDE_GATEWAY}/24", "dev", host_end)
        ip("link", "set", host_end, "up")
        for step in (
            ["addr", "add", f"{address}/24", "dev", lan_end],
            ["link", "set", lan_end, "up"],
            ["route", "add", "default", "via", OUTSIDE_GATEWAY],
        ):
            subprocess.run([*inside, "ip", *step], check=True, capture_output=True, timeout=30)
        yield inside
    finally:
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True, check=False)
        subprocess.run(["ip", "link", "del", host_end], capture_output=True, check=False)


def from_lan(inside: list[str], stack: Stack, q: str, count: int) -> list[dict[str, Any]]:
    """JSON searches from the LAN machine to the entry point's port on this node."""
    urls = [f"http://{OUTSIDE_GATEWAY}:{stack.port}/search?{urlencode({'q': q, 'format': 'json'})}"] * count
    done = subprocess.run(
        [*inside, sys.executable, str(REPLICA_CLIENT), json.dumps(urls), json.dumps(BROWSER_HEADERS)],
        capture_output=True, text=True, timeout=180, check=True,
    )  # fmt: skip
    return list(json.loads(done.stdout))


def test_the_limiter_sees_the_real_client_through_the_entry_point(fresh_valkey: Stack) -> None:
    with lan_machine("203.0.113.20") as inside:
        [seen] = from_lan(inside, fresh_valkey, "ip", 1)
        answers = from_lan(inside, fresh_valkey, "pogoda", 6)
    # SearXNG's self_info answer names the address the limiter judges.
    [answer] = json.loads(seen["body"])["answers"]
    assert answer["answer"].endswith(": 203.0.113.20"), answer
    # 4 JSON searches an hour for a client outside the pass list: the "ip" search was the first.
    statuses = [a["status"] for a in answers]
    assert statuses[:3] == [200] * 3 and set(statuses[3:]) == {429}, statuses


def test_a_killed_replica_is_replaced_and_no_search_fails(fresh_valkey: Stack) -> None:
    stack = fresh_valkey
    victim = stack.containers("searxng")[0]
    with searching(stack, "odporność") as statuses:
        stack.wait_converged({"searxng": REPLICAS})
        docker("kill", victim)
        stack.wait_converged({"searxng": REPLICAS})
        replaced = len(statuses)
        while len(statuses) < replaced + 10:
            time.sleep(0.2)
    assert victim not in stack.containers("searxng")
    assert len(statuses) > 10 and set(statuses) == {200}, statuses


def test_a_rolling_image_update_fails_no_search(fresh_valkey: Stack) -> None:
    stack = fresh_valkey
    [old] = {docker("inspect", "-f", "{{.Config.Image}}", c).strip() for c in stack.containers("searxng")}
    new = old.split("@")[0].rsplit(":", 1)[0] + ":rolled"
    docker("build", "-q", "-t", new, "-", input=f"FROM {old}\nLABEL llmweb.test=rolled\n")
    try:
        with searching(stack, "aktualizacja") as statuses:
            docker(
                "service", "update", "--detach=false", "--image", new, stack.service("searxng"), timeout=600
            )
        images = {
            docker("inspect", "-f", "{{.Config.Image}}", c).strip() for c in stack.containers("searxng")
        }
        assert images == {new}
        assert len(statuses) > 10 and set(statuses) == {200}, statuses
    finally:
        subprocess.run(["docker", "image", "rm", "-f", new], capture_output=True, check=False)


def test_while_valkey_is_away_the_household_searches_and_outsiders_get_503(fresh_valkey: Stack) -> None:
    """What docs/swarm.md says of valkey's node being down: its task cannot run anywhere else."""
    stack = fresh_valkey
    docker("service", "scale", "--detach=false", f"{stack.service('valkey')}=0", timeout=120)
    try:
        household = stack.search("bez valkey")
        with lan_machine("203.0.113.30") as inside:
            [outsider] = from_lan(inside, stack, "bez valkey", 1)
    finally:
        docker("service", "scale", "--detach=false", f"{stack.service('valkey')}=1", timeout=180)
        stack.wait_converged({"valkey": 1})
    assert household.status_code == 200 and household.json()["results"], household.text[:300]
    assert outsider["status"] == 503 and "valkey" in outsider["body"], outsider
    assert stack.search("z valkey").status_code == 200


def test_the_key_and_the_secret_appear_in_no_inspect_output_and_no_log(stack: Stack) -> None:
    assert stack.search("sekret").status_code == 200
    # The key did reach Brave: the fake logs its digest.
    digests = {r["headers"].get("x-subscription-token") for r in stack.brave_requests()}
    assert digests == {"sha256:" + hashlib.sha256(stack.key.encode()).hexdigest()}
    containers = [c for name in SERVICES for c in stack.containers(name, all_states=True)]
    outputs = {
        "docker service inspect": docker("service", "inspect", *(stack.service(n) for n in SERVICES)),
        "docker inspect (containers)": docker("inspect", *containers),
        "docker secret inspect": docker("secret", "inspect", *SECRETS),
        "docker config inspect": docker("config", "inspect", *docker("config", "ls", "-q").split()),
        "docker stack ps": docker("stack", "ps", "--no-trunc", stack.name),
        **{f"docker service logs {name}": stack.logs(name) for name in SERVICES},
        **{f"docker logs {c[:12]}": docker_logs(c) for c in containers},
    }
    assert "/run/secrets/llmweb_brave_api_key" in outputs["docker service inspect"]
    leaks = [where for where, text in outputs.items() if stack.key in text or stack.secret in text]
    assert leaks == []


def docker_logs(container: str) -> str:
    done = subprocess.run(
        ["docker", "logs", container], capture_output=True, text=True, timeout=60, check=False
    )
    return done.stdout + done.stderr
