"""The Brave key never leaves the engine's request header: not in logs, answers or errors."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import BRAVE_PATH, SENTINEL_KEY, StartSearxng, brave_answer, brave_result, search_json
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from llmweb.errors import LlmwebError
from llmweb.search import web_search

REPO = Path(__file__).resolve().parent.parent


def echoing_brave(request: Request) -> Response:
    """Brave answering once well, then every way it can fail, each failure quoting the key back."""
    words = request.args["q"].split()
    if words[0] == "udane":
        return Response(json.dumps(brave_answer([brave_result("https://example.org/", description="ok")])))
    failures = [
        (
            422,
            {"errors": [{"code": "SUBSCRIPTION_TOKEN_INVALID", "detail": f"token {SENTINEL_KEY} invalid"}]},
        ),
        (429, {"errors": [{"code": "RATE_LIMITED", "detail": f"slow down {SENTINEL_KEY}"}]}),
        (500, {"error": {"code": "INTERNAL", "detail": f"failed for {SENTINEL_KEY}"}}),
        (200, f"not json {SENTINEL_KEY}"),
    ]
    status, body = failures[int(words[-1]) % len(failures)]
    text = body if isinstance(body, str) else json.dumps(body)
    return Response(
        text, status=status, headers={"X-RateLimit-Reset": "1, 100"}, content_type="application/json"
    )


def test_the_key_appears_in_no_log_answer_or_error_after_searches_and_failures(
    start_searxng: StartSearxng, brave: HTTPServer
) -> None:
    # No ban after an error, so each failing search reaches the fake Brave.
    searxng = start_searxng(lambda s: s["search"].update(ban_time_on_fail=0, max_ban_time_on_fail=0))
    brave.expect_request(BRAVE_PATH).respond_with_handler(echoing_brave)
    outputs = [json.dumps(search_json(searxng, q="udane"))]
    for n in range(4):
        outputs.append(json.dumps(search_json(searxng, q=f"błąd {n}")))
        try:
            outputs.append(repr(web_search(f"klient {n}", searxng_url=searxng.url)))
        except LlmwebError as exc:
            outputs.append(str(exc))
    assert len(brave.log) >= 2, "Brave must have been asked, or the test proves nothing"
    assert all(request.headers["X-Subscription-Token"] == SENTINEL_KEY for request, _ in brave.log)
    outputs.append(searxng.log_text())
    leaks = [text[:200] for text in outputs if SENTINEL_KEY in text]
    assert leaks == []


# A key written as a value: BRAVE_API_KEY=abc…, api_key: "abc…", X-Subscription-Token: abc…
KEY_ASSIGNMENT = re.compile(
    # a value, not a call: `api_key = secret_from_environment(...)` reads the key, it holds none
    rb"(BRAVE_API_KEY|api_key|X-Subscription-Token)[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9_-]{16,})(?![\w(-])"
)


def test_no_committed_file_assigns_a_key() -> None:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    found = []
    for name in filter(None, listed.split(b"\0")):
        path = REPO / name.decode()
        if not path.is_file():
            continue
        for match in KEY_ASSIGNMENT.finditer(path.read_bytes()):
            value = match.group(2)
            # Test fixtures use keys that say what they are.
            if b"NOT-REAL" not in value.upper() and b"TEST" not in value.upper():
                found.append(f"{name.decode()}: {match.group(0)[:60]!r}")
    assert found == []
