"""Secrets from files (``NAME_FILE``), as Docker and Swarm secrets deliver them under /run/secrets.

The engine and the guard plugin each carry the same small reader (the engine is one file SearXNG
loads alone); every behaviour is checked on both, so the two cannot drift apart.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    BRAVE_PATH,
    SENTINEL_KEY,
    StartSearxng,
    brave_answer,
    brave_result,
    load_engine_module,
    search_json,
)
from pytest_httpserver import HTTPServer

REPO = Path(__file__).resolve().parent.parent


def load_guard_module() -> Any:
    """plugins/guard.py from its file, as SearXNG imports it (from searx.plugins.llmweb)."""
    spec = importlib.util.spec_from_file_location("llmweb_guard_under_test", REPO / "plugins" / "guard.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ENGINE = load_engine_module()
GUARD = load_guard_module()
READERS = {"engine": ENGINE, "guard": GUARD}


@pytest.fixture(params=sorted(READERS))
def reader(request: pytest.FixtureRequest) -> Any:
    """The module whose ``secret_from_environment`` and ``SecretFileError`` are under test."""
    return READERS[request.param]


def test_the_file_named_by_name_file_is_the_secret_without_its_newline(reader: Any, tmp_path: Path) -> None:
    secret = tmp_path / "brave_api_key"
    secret.write_text(SENTINEL_KEY + "\n")
    environ = {"BRAVE_API_KEY_FILE": str(secret)}
    assert reader.secret_from_environment("BRAVE_API_KEY", environ) == SENTINEL_KEY


def test_the_variable_itself_still_counts_without_a_file(reader: Any) -> None:
    environ = {"BRAVE_API_KEY": f" {SENTINEL_KEY} "}
    assert reader.secret_from_environment("BRAVE_API_KEY", environ) == SENTINEL_KEY


def test_neither_set_is_no_secret(reader: Any) -> None:
    assert reader.secret_from_environment("BRAVE_API_KEY", {}) == ""


def test_both_set_is_an_error_that_names_both_and_holds_neither_value(reader: Any, tmp_path: Path) -> None:
    secret = tmp_path / "key"
    secret.write_text("file-held-secret-NOT-REAL")
    environ = {"BRAVE_API_KEY": SENTINEL_KEY, "BRAVE_API_KEY_FILE": str(secret)}
    with pytest.raises(reader.SecretFileError) as raised:
        reader.secret_from_environment("BRAVE_API_KEY", environ)
    message = str(raised.value)
    assert "BRAVE_API_KEY and BRAVE_API_KEY_FILE" in message
    assert SENTINEL_KEY not in message and "file-held-secret" not in message


def test_a_missing_file_is_an_error_naming_its_path(reader: Any, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-secret"
    with pytest.raises(reader.SecretFileError, match=str(missing)):
        reader.secret_from_environment("SEARXNG_SECRET", {"SEARXNG_SECRET_FILE": str(missing)})


def test_a_file_too_long_for_a_key_is_refused_without_its_text(reader: Any, tmp_path: Path) -> None:
    huge = tmp_path / "huge"
    huge.write_text(SENTINEL_KEY * 1000)
    with pytest.raises(reader.SecretFileError, match="longer than") as raised:
        reader.secret_from_environment("BRAVE_API_KEY", {"BRAVE_API_KEY_FILE": str(huge)})
    assert SENTINEL_KEY not in str(raised.value)


def test_a_binary_file_is_refused(reader: Any, tmp_path: Path) -> None:
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\x00key")
    with pytest.raises(reader.SecretFileError, match="not UTF-8"):
        reader.secret_from_environment("BRAVE_API_KEY", {"BRAVE_API_KEY_FILE": str(binary)})


def test_searxng_sends_brave_the_key_it_read_from_brave_api_key_file(
    start_searxng: StartSearxng, brave: HTTPServer, tmp_path: Path
) -> None:
    secret = tmp_path / "brave_api_key"
    secret.write_text(SENTINEL_KEY + "\n")
    brave.expect_request(BRAVE_PATH).respond_with_data(
        json.dumps(brave_answer([brave_result("https://example.org/", description="z pliku")])),
        content_type="application/json",
    )
    searxng = start_searxng(env={"BRAVE_API_KEY": "", "BRAVE_API_KEY_FILE": str(secret)})
    answer = search_json(searxng, q="klucz z pliku")
    assert [r["url"] for r in answer["results"]] == ["https://example.org/"]
    assert [request.headers["X-Subscription-Token"] for request, _ in brave.log] == [SENTINEL_KEY]


def test_searxng_believes_a_proxy_by_the_token_read_from_llmweb_proxy_token_file(
    start_searxng: StartSearxng, tmp_path: Path
) -> None:
    secret = tmp_path / "searxng_secret"
    secret.write_text("proxy-token-NOT-REAL\n")
    searxng = start_searxng(env={"LLMWEB_PROXY_TOKEN": "", "LLMWEB_PROXY_TOKEN_FILE": str(secret)})
    log = searxng.log_text()
    assert "and a proxy presenting LLMWEB_PROXY_TOKEN" in log
    assert "proxy-token-NOT-REAL" not in log
