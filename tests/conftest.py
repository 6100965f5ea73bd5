"""Real servers on loopback: valkey, a fake Brave API, and SearXNG from the shipped settings.

The shipped settings/ are copied and changed only where a loopback test must: the
engine's base_url points at the fake Brave (with enable_http), the keyless engines
are made inactive (they would reach the internet), the key is a sentinel, and Brave's
budgets and answer cache are off unless a test turns them on (one valkey serves all tests).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import ssl
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest
import yaml
from compose.tls import make_server_tls
from hypothesis import settings as hypothesis_settings
from pytest_httpserver import HTTPServer

from serve import proxy, stack
from testbed.loopback_guard import LEAK_LOG_VARIABLE, install

# Hypothesis's per-example deadline is a timing assertion, and flaky on a busy 2-core machine.
hypothesis_settings.register_profile("llmweb", deadline=None)
hypothesis_settings.load_profile("llmweb")

REPO = Path(__file__).resolve().parent.parent
SETTINGS = REPO / "settings"
ENGINE_NAME = "brave api"
BRAVE_PATH = "/res/v1/web/search"
# Obviously not a real key; the secrets tests look for it in every output.
SENTINEL_KEY = "sentinel-brave-key-NOT-REAL-7f3a9c"

OUTSIDE_ENGINES = ("duckduckgo", "wikipedia")
COMPOSE_SUITE = Path(__file__).resolve().parent / "compose"
SWARM_SUITE = Path(__file__).resolve().parent / "swarm"  # deploy/swarm.yml, `scripts/test swarm`


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--compose", action="store_true", help="run tests/compose: docker-compose.yml on a real Docker engine"
    )


# Steps off loopback (testbed/loopback_guard.py) this process made, and the file Python
# subprocesses started with guarded_env write theirs to. Not for tests/compose, whose
# containers legitimately talk over their Docker networks.
LEFT_LOOPBACK: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--compose"):
        return
    handle, path = tempfile.mkstemp(prefix="llmweb-left-loopback-", suffix=".log")
    os.close(handle)
    os.environ[LEAK_LOG_VARIABLE] = path
    install(LEFT_LOOPBACK.append)


def pytest_unconfigure(config: pytest.Config) -> None:
    if not config.getoption("--compose"):
        Path(os.environ.pop(LEAK_LOG_VARIABLE)).unlink(missing_ok=True)


def _steps_off_loopback() -> list[str]:
    """Every step off loopback so far, in this process and in guarded subprocesses."""
    log = Path(os.environ.get(LEAK_LOG_VARIABLE, "") or os.devnull)
    return LEFT_LOOPBACK + log.read_text(encoding="utf-8", errors="replace").splitlines()


@pytest.fixture(autouse=True)
def stays_on_loopback(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails the test that tried to leave loopback, even when the code under test swallowed the error."""
    before = len(_steps_off_loopback())
    yield
    new = _steps_off_loopback()[before:]
    if new and not request.config.getoption("--compose"):
        pytest.fail("\n".join(new), pytrace=False)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Steps made outside any test (session fixtures, threads left running) fail the session too."""
    if not session.config.getoption("--compose") and _steps_off_loopback():
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """tests/compose and tests/swarm need a Docker engine and minutes: only `scripts/test compose`
    and `scripts/test swarm` collect them."""
    if collection_path in (COMPOSE_SUITE, SWARM_SUITE) and not config.getoption("--compose"):
        return True
    return None


# Files a person may want to look at after a run (the browser test's screenshot); ignored by git.
ARTIFACTS = REPO / "test-artifacts"
_kept_artifacts: list[Path] = []


def keep_artifact(path: Path) -> Path:
    """Copy ``path`` into test-artifacts/; the end of the run prints where it went."""
    ARTIFACTS.mkdir(exist_ok=True)
    kept = Path(shutil.copyfile(path, ARTIFACTS / path.name))
    _kept_artifacts.append(kept)
    return kept


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for kept in _kept_artifacts:
        terminalreporter.write_line(f"artifact: {kept}")
    if not terminalreporter.config.getoption("--compose"):
        for step in _steps_off_loopback():
            terminalreporter.write_line(f"LEFT LOOPBACK: {step}", red=True)


def load_engine_module(name: str = "llmwebbrave") -> Any:
    """Our engine module loaded from its file, as SearXNG loads it (it is not a package)."""
    spec = importlib.util.spec_from_file_location(name, REPO / "engines" / "llmwebbrave.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def shipped_settings() -> dict[str, Any]:
    return dict(yaml.safe_load((SETTINGS / "settings.yml").read_text()))


def engine_entry(settings: dict[str, Any], name: str = ENGINE_NAME) -> dict[str, Any]:
    return next(e for e in settings["engines"] if e["name"] == name)


def write_test_settings(
    folder: Path,
    brave_url: str,
    change: Callable[[dict[str, Any]], None] | None = None,
) -> Path:
    """Shipped settings.yml and limiter.toml, pointed at the fake Brave, in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    settings = shipped_settings()
    entry = engine_entry(settings)
    entry["base_url"] = brave_url + BRAVE_PATH
    entry["enable_http"] = True
    # One valkey serves the whole session: shipped budgets would run out across tests and
    # the cache would answer one test with another's Brave reply. tests/test_spend.py
    # switches them on (SPENDING_AS_SHIPPED).
    entry.update(monthly_budget=0, daily_budget=0, cache_seconds=0)
    for engine in settings["engines"]:
        if engine["name"] in OUTSIDE_ENGINES:
            engine["inactive"] = True
    if change:
        change(settings)
    (folder / "settings.yml").write_text(yaml.safe_dump(settings, sort_keys=False))
    shutil.copyfile(SETTINGS / "limiter.toml", folder / "limiter.toml")
    return folder


PROXY = "127.0.0.2"
"""The reverse proxy's address where a test declares one (declared_proxy_and_narrow_loopback)."""


def declared_proxy_and_narrow_loopback(settings_dir: Path) -> None:
    """limiter.toml in ``settings_dir`` with 127.0.0.2 its only declared proxy and only 127.0.0.1
    and the proxy of loopback on the pass list (a proxy's own address is on it at a real home:
    Docker's networks are): other loopback addresses stand in for clients from outside."""
    limiter = (settings_dir / "limiter.toml").read_text()
    limiter = limiter.replace(
        "'127.0.0.0/8',     # this machine", f"'127.0.0.1/32', '{PROXY}/32',    # this machine"
    )
    limiter = limiter.replace(
        "trusted_proxies = [\n  '127.0.0.0/8',", f"trusted_proxies = [\n  '{PROXY}/32',"
    )
    assert f"trusted_proxies = [\n  '{PROXY}/32'" in limiter and "'127.0.0.1/32'" in limiter, (
        "limiter.toml changed shape"
    )
    (settings_dir / "limiter.toml").write_text(limiter)


TWIN_NAME, TWIN_PATH = "brave twin", "/twin"


def add_brave_twin(settings: dict[str, Any]) -> None:
    """A second instance of our engine, asking the fake Brave at TWIN_PATH (to fail on its own)."""
    twin = dict(engine_entry(settings), name=TWIN_NAME, shortcut="btw")
    twin["base_url"] = twin["base_url"].replace(BRAVE_PATH, TWIN_PATH)
    settings["engines"].append(twin)


@pytest.fixture
def untrusted_https(tmp_path: Path) -> Iterator[HTTPServer]:
    """An HTTPS server on 127.0.0.1, known as localhost, whose certificate comes from a throwaway
    CA nothing trusts: every client that verifies must refuse it before sending a request."""
    tls = make_server_tls(tmp_path, "localhost")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(tls.cert, tls.key)
    secure = HTTPServer(host="127.0.0.1", port=0, ssl_context=context)
    secure.start()
    yield secure
    secure.stop()


@pytest.fixture
def allow_test_servers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let web_fetch read the tests' pages on 127.0.0.1, which it refuses by default."""
    monkeypatch.setenv("LLMWEB_FETCH_ALLOW", "127.0.0.1")


@pytest.fixture(scope="session")
def caddy_installed() -> None:
    """Fails, saying what to run, when Caddy is missing: a test never downloads it (scripts/test does)."""
    if proxy.installed_caddy(stack.TOOLS) is None:
        pytest.fail(
            f"Caddy is not installed. Run scripts/test, which unpacks Debian's caddy package into "
            f"{stack.TOOLS} before the tests start, or install caddy (apt-get install caddy).",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def valkey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[stack.Process]:
    proc = stack.start_valkey(tmp_path_factory.mktemp("valkey"))
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def brave_server() -> Iterator[HTTPServer]:
    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()
    yield server
    server.clear()
    if server.is_running():
        server.stop()


@pytest.fixture
def brave(brave_server: HTTPServer) -> Iterator[HTTPServer]:
    """The fake Brave API, emptied of handlers and logs before and after each test."""
    brave_server.clear()
    yield brave_server
    brave_server.clear()


@pytest.fixture(scope="session")
def engines_installed() -> None:
    stack.install_searx_extensions()


def spending_as_shipped(settings: dict[str, Any]) -> None:
    """Brave's budgets and cache as settings/settings.yml ships them (write_test_settings turns them off)."""
    shipped = engine_entry(shipped_settings())
    keys = ("monthly_budget", "daily_budget", "cache_seconds", "cache_entries")
    engine_entry(settings).update({key: shipped[key] for key in keys})


def start_test_searxng(
    tmp: Path,
    brave_server: HTTPServer,
    valkey: stack.Process,
    change: Callable[[dict[str, Any]], None] | None = None,
    env: dict[str, str] | None = None,
) -> stack.Process:
    """SearXNG from the shipped settings (changed by ``change``), Brave faked, the sentinel key."""
    settings_dir = write_test_settings(tmp / "settings", brave_server.url_for("").rstrip("/"), change)
    full_env = {"BRAVE_API_KEY": SENTINEL_KEY, "SEARXNG_VALKEY_URL": valkey.url, **(env or {})}
    return stack.start_searxng(settings_dir, workdir=tmp / "run", env=full_env)


@pytest.fixture(scope="session")
def searxng(
    tmp_path_factory: pytest.TempPathFactory,
    brave_server: HTTPServer,
    valkey: stack.Process,
    engines_installed: None,
) -> Iterator[stack.Process]:
    """One SearXNG for the session, as shipped (limiter on, real valkey), Brave faked."""
    proc = start_test_searxng(tmp_path_factory.mktemp("searxng"), brave_server, valkey)
    yield proc
    proc.stop()


StartSearxng = Callable[..., stack.Process]


@pytest.fixture
def start_searxng(
    tmp_path: Path, brave_server: HTTPServer, valkey: stack.Process, engines_installed: None
) -> Iterator[StartSearxng]:
    """A SearXNG of a test's own, for tests that suspend the engine or change settings."""
    started: list[stack.Process] = []

    def start(
        change: Callable[[dict[str, Any]], None] | None = None, env: dict[str, str] | None = None
    ) -> stack.Process:
        proc = start_test_searxng(tmp_path / str(len(started)), brave_server, valkey, change, env)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        proc.stop()


# Browser-like headers: SearXNG's bot detection asks for them from clients outside the pass list.
BROWSER_HEADERS = {
    "Accept": "text/html,application/json;q=0.9,*/*;q=0.8",
    "Accept-Language": "en-US,en;q=0.8",  # the language of SearXNG's messages, not of the search
    "Accept-Encoding": "gzip",
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) llmweb-tests",
}


def search_json(searxng: stack.Process, **params: Any) -> dict[str, Any]:
    """One JSON search through SearXNG's HTTP API, as a model client makes it."""
    answer = httpx.get(
        searxng.url + "/search", params={"format": "json", **params}, headers=BROWSER_HEADERS, timeout=30
    )
    assert answer.status_code == 200, answer.text[:500]
    return dict(answer.json())


def brave_answer(results: list[dict[str, Any]], **sections: Any) -> dict[str, Any]:
    """A Brave web search answer in the documented shape."""
    return {
        "type": "search",
        "query": {"original": "q"},
        "web": {"type": "search", "results": results},
        **sections,
    }


def brave_result(url: str, title: str = "Title", **fields: Any) -> dict[str, Any]:
    return {
        "type": "search_result",
        "url": url,
        "title": title,
        "family_friendly": True,
        "language": "pl",
        **fields,
    }


def answer_numbered_results(brave: HTTPServer, count: int, *, extra_snippets: bool = False) -> None:
    """Brave answers every search with results "Wynik 0…", dated 2026-11-02, at example.org/0…"""
    results = []
    for n in range(count):
        extra = {"extra_snippets": [f"Dodatkowy fragment {n}."]} if extra_snippets else {}
        results.append(
            brave_result(
                f"https://example.org/{n}",
                f"Wynik {n}",
                description=f"Opis {n}.",
                page_age="2026-11-02T00:00:00",
                **extra,
            )
        )
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer(results))


def brave_rejects_the_key(brave: HTTPServer) -> None:
    """Brave answers as it does to a bad key: 422 SUBSCRIPTION_TOKEN_INVALID."""
    body = '{"errors": [{"code": "SUBSCRIPTION_TOKEN_INVALID"}]}'
    brave.expect_request(BRAVE_PATH).respond_with_data(body, status=422, content_type="application/json")


POLISH = {"country": "PL", "search_lang": "pl", "ui_lang": "pl-PL"}
ENGLISH = {"country": "US", "search_lang": "en", "ui_lang": "en-US"}


def brave_queries(brave: HTTPServer) -> list[list[tuple[str, str]]]:
    """The query string of every request Brave received, as ordered pairs."""
    return [parse_qsl(request.query_string.decode()) for request, _ in brave.log]


def only_query(brave: HTTPServer) -> dict[str, str]:
    queries = brave_queries(brave)
    assert len(queries) == 1, queries
    return dict(queries[0])


def brave_locale_received(brave: HTTPServer) -> dict[str, str]:
    """country, search_lang and ui_lang of the one request Brave received."""
    query = only_query(brave)
    return {key: query[key] for key in POLISH}


def load_fixture(name: str) -> Any:
    return json.loads((REPO / "tests" / "fixtures" / name).read_text())
