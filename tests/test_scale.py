"""Several SearXNG replicas behind Caddy, as ``scripts/serve --replicas`` runs them: the load is
spread, and the limiter, the Brave budget and the answer cache are one across the replicas.

Two replicas from the shipped settings (spending as shipped, a monthly budget of BUDGET),
Caddy from Debian in front, the deployment's own valkey, emptied before each test. The
limiter's pass list keeps only 127.0.0.1 of loopback, so a client binding another loopback
address comes from outside; Caddy, connecting from 127.0.0.1 but not a declared proxy, is
believed about it through the token. Each replica writes an access log, which says which
one answered what.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import struct
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import valkey
from conftest import (
    BRAVE_PATH,
    BROWSER_HEADERS,
    ENGINE_NAME,
    SENTINEL_KEY,
    SETTINGS,
    answer_numbered_results,
    brave_answer,
    declared_proxy_and_narrow_loopback,
    engine_entry,
    search_json,
    spending_as_shipped,
    write_test_settings,
)
from pytest_httpserver import HTTPServer
from searx.botdetection import ip_limit

from serve import stack
from testbed import processes

BUDGET = 20
REPLICAS = 2
SECRET = "replicas-share-this-secret-in-tests"  # not a real one; the cache's keys are HMACs under it
OUTSIDER = "127.0.0.3"
SEARCH_LINE = re.compile(rb'"GET /search HTTP/1\.1" (\d{3}) ')


def answered(replica: stack.Replica) -> Counter[int]:
    """HTTP status → how many searches ``replica`` has answered with it since it started."""
    assert replica.process is not None
    return Counter(int(status) for status in SEARCH_LINE.findall(replica.process.log.read_bytes()))


def eventually(
    condition: Callable[[], bool], seconds: float = 20.0, step: Callable[[], Any] = lambda: None
) -> bool:
    """Whether ``condition`` holds within ``seconds``, calling ``step`` between looks."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        step()
        time.sleep(0.1)
    return condition()


@pytest.fixture(scope="module")
def deployment(
    tmp_path_factory: pytest.TempPathFactory, brave_server: HTTPServer, engines_installed: None
) -> Iterator[stack.Stack]:
    folder = tmp_path_factory.mktemp("replicas")

    def spending(settings: dict[str, Any]) -> None:
        spending_as_shipped(settings)
        engine_entry(settings).update(monthly_budget=BUDGET, daily_budget=0)

    settings_dir = write_test_settings(folder / "settings", brave_server.url_for("").rstrip("/"), spending)
    declared_proxy_and_narrow_loopback(settings_dir)
    env = {"BRAVE_API_KEY": SENTINEL_KEY, "SEARXNG_SECRET": SECRET, "GRANIAN_LOG_ACCESS_ENABLED": "1"}
    port = stack.free_port()
    with stack.running_stack(settings_dir, folder / "run", "127.0.0.1", port, env, REPLICAS) as running:
        yield running


@pytest.fixture
def replicas(deployment: stack.Stack, brave: HTTPServer) -> stack.Stack:
    """The deployment with valkey emptied: budget, cache and the limiter's counts start at zero."""
    assert deployment.valkey is not None
    valkey.Valkey.from_url(deployment.valkey.url).flushall()
    return deployment


def test_searches_through_the_proxy_are_spread_over_every_replica(
    replicas: stack.Stack, brave: HTTPServer
) -> None:
    answer_numbered_results(brave, 3)
    before = [answered(r)[200] for r in replicas.replicas]
    for n in range(8):
        assert search_json(replicas.front, q=f"rozłożone {n}")["results"]
    assert eventually(
        lambda: all(answered(r)[200] > b for r, b in zip(replicas.replicas, before, strict=True))
    )


# SearXNG's server files X_Forwarded_For under X-Forwarded-For's key, the later header winning
# (and Go's proxy writes a client's underscore spellings after its own headers).
UNDERSCORED = {"X_Forwarded_For": "127.0.0.1", "X_Real_IP": "127.0.0.1", "X_Llmweb_Proxy_Token": "forged"}


@pytest.mark.parametrize(
    "forged", [{}, UNDERSCORED], ids=["plain", "naming a household address with underscores"]
)
def test_an_outside_client_gets_one_allowance_across_the_replicas_not_one_per_replica(
    replicas: stack.Stack, brave: HTTPServer, forged: dict[str, str]
) -> None:
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer([]))
    transport = httpx.HTTPTransport(local_address=OUTSIDER)
    with httpx.Client(
        base_url=replicas.front.url, headers={**BROWSER_HEADERS, **forged}, transport=transport, timeout=30
    ) as client:
        statuses = [
            client.get("/search", params={"q": f"z zewnątrz {n}", "format": "json"}).status_code
            for n in range(3 * ip_limit.API_MAX)
        ]
    assert statuses.count(200) == ip_limit.API_MAX, statuses  # what one SearXNG allows a JSON client an hour
    assert set(statuses) == {200, 429}
    assert eventually(lambda: all(answered(r)[429] for r in replicas.replicas)), "every replica refused it"


def test_thirty_two_clients_a_replica_at_a_budget_of_n_make_exactly_n_brave_requests(
    replicas: stack.Stack, brave: HTTPServer
) -> None:
    answer_numbered_results(brave, 1)
    clients = 32 * REPLICAS
    with ThreadPoolExecutor(max_workers=clients) as pool:
        answers = list(pool.map(lambda n: search_json(replicas.front, q=f"klient {n}"), range(clients)))
    assert len(brave.log) == BUDGET
    refused = [a for a in answers if ENGINE_NAME in dict(a["unresponsive_engines"])]
    assert len(refused) == clients - BUDGET
    assert all(answered(r)[200] for r in replicas.replicas), "both replicas took searches"


def test_a_search_cached_by_one_replica_is_answered_from_the_cache_by_another(
    replicas: stack.Stack, brave: HTTPServer
) -> None:
    answer_numbered_results(brave, 2)
    first, second = (r.process for r in replicas.replicas)
    assert first is not None and second is not None
    asked_first = search_json(first, q="wspólna pamięć")
    asked_second = search_json(second, q="wspólna pamięć")
    assert len(brave.log) == 1
    assert asked_second["results"] == asked_first["results"] and asked_first["results"]


def test_a_json_answer_kept_by_one_replica_is_served_by_another(
    replicas: stack.Stack, brave: HTTPServer
) -> None:
    answer_numbered_results(brave, 2)
    first, second = (r.process for r in replicas.replicas)
    assert first is not None and second is not None and replicas.valkey is not None
    kept = search_json(first, q="wspólna odpowiedź")
    db: Any = valkey.Valkey.from_url(replicas.valkey.url)  # Any: valkey-py's "maybe awaitable" stubs
    db.delete(*db.keys("llmweb:brave:answer:*"))  # only the JSON answer kept whole is left to find
    assert search_json(second, q="wspólna odpowiedź") == kept
    assert len(brave.log) == 1


LOAD_QUERIES = [f"pod obciążeniem {n}" for n in range(10)]


class Load:
    """Clients searching through the proxy one search after another until stopped, the
    searches of LOAD_QUERIES in turn."""

    def __init__(self, url: str, clients: int) -> None:
        self.url = url
        self.answered = 0
        self.failed: list[str] = []
        self._count = threading.Lock()  # `+= 1` from several threads is a read and a write
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._client, args=(n,)) for n in range(clients)]

    def __enter__(self) -> Load:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()

    def _client(self, n: int) -> None:
        with httpx.Client(base_url=self.url, headers=BROWSER_HEADERS, timeout=30) as http:
            while not self._stop.is_set():
                n += 1
                try:
                    query = LOAD_QUERIES[n % len(LOAD_QUERIES)]
                    answer = http.get("/search", params={"q": query, "format": "json"})
                    good = answer.status_code == 200 and bool(answer.json()["results"])
                    problem = f"HTTP {answer.status_code}: {answer.text[:200]}"
                except httpx.HTTPError as exc:
                    good, problem = False, repr(exc)
                if good:
                    with self._count:
                        self.answered += 1
                else:
                    self.failed.append(problem)


# What a client sees of an answer whose replica died while writing it: Caddy had passed the
# answer's headers on, so it cannot try the search elsewhere.
CUT_OFF = "peer closed connection without sending complete message body"


def test_a_replica_killed_mid_load_loses_at_most_the_answers_it_was_writing_and_rejoins(
    replicas: stack.Stack, brave: HTTPServer
) -> None:
    answer_numbered_results(brave, 2)
    for query in LOAD_QUERIES:  # cached, so the load stays within the Brave budget
        search_json(replicas.front, q=query)
    victim = replicas.replicas[-1]
    assert victim.process is not None
    # The load runs until 60 searches were answered after the crash, so the crash is met by
    # many; the 300 s are a guard against a stuck proxy, not a rate.
    with Load(replicas.front.url, clients=8) as load:
        assert eventually(lambda: load.answered >= 20, seconds=300)
        processes.crash(victim.process.popen.pid)
        victim.process.popen.wait()
        killed_at = load.answered
        assert eventually(lambda: load.answered >= killed_at + 60, seconds=300)
    # A search the replica had not begun answering is tried again on the other one; only an
    # answer it was in the middle of sending (one per blocking thread at most) is lost.
    cut_off = [problem for problem in load.failed if CUT_OFF in problem]
    assert load.failed == cut_off, load.failed
    assert len(cut_off) <= int(stack.BLOCKING_THREADS), cut_off
    victim.start()

    def search() -> None:
        search_json(replicas.front, q="znowu w kolejce")

    assert eventually(lambda: answered(victim)[200] > 0, step=search), "the restarted replica takes searches"


# --- the compose scale profile's Caddyfile, in Debian's Caddy ---------------------------
#
# docker-compose.yml's proxies find the replicas through Docker's DNS, which answers the
# service name with every running container's address. Here a name server on loopback
# answers "searxng" with 127.0.0.2 and 127.0.0.3, where two replicas listen on one port, and
# settings/Caddyfile is changed only where loopback needs it: the address it listens on, the
# replicas' port, and that name server.


class NameServer:
    """DNS on loopback answering every A question with ``addresses`` (and AAAA with none)."""

    def __init__(self, addresses: list[str]) -> None:
        self.records = b"".join(socket.inet_aton(a) for a in addresses)
        self.count = len(addresses)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        with contextlib.suppress(OSError):  # closed
            while True:
                query, peer = self.sock.recvfrom(512)
                self.sock.sendto(self._answer(query), peer)

    def _answer(self, query: bytes) -> bytes:
        end = 12
        while query[end]:  # the question's name, label by label
            end += query[end] + 1
        question = query[12 : end + 5]
        a_record = struct.unpack("!H", query[end + 1 : end + 3])[0] == 1
        count = self.count if a_record else 0
        head = struct.pack("!HHHHHH", struct.unpack("!H", query[:2])[0], 0x8180, 1, count, 0, 0)
        answers = b"".join(
            b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, 1, 4) + self.records[4 * n : 4 * n + 4]
            for n in range(count)
        )
        return head + question + answers

    def close(self) -> None:
        self.sock.close()


def compose_caddyfile_on_loopback(folder: Path, front_port: int, replica_port: int, dns_port: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = (SETTINGS / "Caddyfile").read_text()
    for shipped, here in (
        (":8080 {", f"{{\n\tadmin off\n}}\n\nhttp://:{front_port} {{\n\tbind 127.0.0.1"),
        ("dynamic a searxng 8080 {", f"dynamic a searxng {replica_port} {{"),
        ("refresh 1s", f"refresh 1s\n\t\t\tresolvers udp/127.0.0.1:{dns_port}"),
    ):
        assert text.count(shipped) == 1, f"settings/Caddyfile changed shape: {shipped!r}"
        text = text.replace(shipped, here)
    (folder / "Caddyfile").write_text(text)
    shutil.copyfile(SETTINGS / "upstream.caddy", folder / "upstream.caddy")
    return folder / "Caddyfile"


@pytest.fixture(scope="module")
def compose_shape(
    tmp_path_factory: pytest.TempPathFactory,
    brave_server: HTTPServer,
    valkey: stack.Process,
    engines_installed: None,
    caddy_installed: None,
) -> Iterator[tuple[stack.Process, list[stack.Replica]]]:
    folder = tmp_path_factory.mktemp("compose-shape")
    settings_dir = write_test_settings(folder / "settings", brave_server.url_for("").rstrip("/"))
    env = {"BRAVE_API_KEY": SENTINEL_KEY, "SEARXNG_VALKEY_URL": valkey.url, "SEARXNG_SECRET": SECRET}
    env |= {"LLMWEB_PROXY_TOKEN": SECRET, "GRANIAN_LOG_ACCESS_ENABLED": "1"}
    port = stack.free_port("127.0.0.2")
    team = [
        stack.Replica(f"searxng-{host}", settings_dir, folder / host, env, host, port)
        for host in ("127.0.0.2", "127.0.0.3")
    ]
    names = NameServer([r.host for r in team])
    caddy = None
    try:
        for replica in team:
            replica.start()
        front = stack.free_port()
        config = compose_caddyfile_on_loopback(folder / "caddy", front, port, names.port)
        caddy = stack.start_caddy(config, url=f"http://127.0.0.1:{front}", token=SECRET)
        yield caddy, team
    finally:
        if caddy:
            caddy.stop()
        for replica in team:
            replica.stop()
        names.close()


def test_the_compose_caddyfile_spreads_searches_over_every_address_the_name_resolves_to(
    compose_shape: tuple[stack.Process, list[stack.Replica]], brave: HTTPServer
) -> None:
    caddy, team = compose_shape
    answer_numbered_results(brave, 1)
    for n in range(8):
        assert search_json(caddy, q=f"przez nazwę {n}")["results"]
    assert eventually(lambda: all(answered(r)[200] for r in team))


def test_the_compose_caddyfile_routes_around_a_replica_that_died(
    compose_shape: tuple[stack.Process, list[stack.Replica]], brave: HTTPServer
) -> None:
    caddy, team = compose_shape
    answer_numbered_results(brave, 1)
    dead = team[-1].process
    assert dead is not None
    processes.crash(dead.popen.pid)
    dead.popen.wait()
    # the name still resolves to the dead replica, as Docker's DNS may for up to the refresh
    assert [bool(search_json(caddy, q=f"obok martwej {n}")["results"]) for n in range(10)] == [True] * 10
