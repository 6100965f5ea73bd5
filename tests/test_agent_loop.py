"""End to end: examples/agent_loop.py drives a (fake) model through a search and a fetch.

Everything is real except the model: the example runs as its own process, searches the
test SearXNG (Brave faked, its results pointing at a loopback page server), fetches the
page, and talks to a scripted OpenAI-compatible server. The tests read what that server
received, i.e. exactly what a model would have read.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import BRAVE_PATH, brave_answer, brave_result
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from llmweb.prompt import SYSTEM_PROMPT
from llmweb.tools import tool_definitions
from serve import stack

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "agent_loop.py"
QUESTION = "Czego potrzebuje limiter SearXNG?"
FINAL_ANSWER = "Limiter potrzebuje bazy valkey."
SNIPPET = "2026-11-02 — Limiter liczy zapytania klientów. | Liczniki trzyma w bazie valkey."
PAGE_SENTENCE = "Adres bazy valkey podaje zmienna SEARXNG_VALKEY_URL, a bez niej limiter nie działa."
ARTICLE = f"""<!doctype html><html><head><title>Limiter i valkey</title></head><body><article>
<h1>Limiter i valkey</h1>
<p>Limiter SearXNG chroni instancję przed automatami, licząc zapytania każdego klienta osobno.</p>
<p>{PAGE_SENTENCE}</p>
<p>Sieci domowe są na liście pass_ip, więc lokalne modele nigdy nie są przez niego dławione.</p>
</article></body></html>"""
LOOPBACK_URL = re.compile(r"http://127\.0\.0\.1:\d+/\S+")


def completion(message: dict[str, Any]) -> Response:
    body = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}],
    }
    return Response(json.dumps(body), content_type="application/json")


def tool_call(call_id: str, name: str, arguments: dict[str, Any]) -> Response:
    function = {"name": name, "arguments": json.dumps(arguments)}
    return completion(
        {"content": None, "tool_calls": [{"id": call_id, "type": "function", "function": function}]}
    )


@dataclass
class Run:
    requests: list[dict[str, Any]]  # the bodies the fake model server received, in order
    page_url: str
    done: subprocess.CompletedProcess[str]


@pytest.fixture
def agent_run(searxng: stack.Process, brave: HTTPServer) -> Iterator[Run]:
    pages, model = HTTPServer(host="127.0.0.1", port=0), HTTPServer(host="127.0.0.1", port=0)
    pages.start()
    model.start()
    requests: list[dict[str, Any]] = []

    def scripted_model(request: Request) -> Response:
        """Search first, then fetch the loopback address the search answer named, then answer."""
        body = request.get_json()
        requests.append(body)
        tool_messages = [m for m in body["messages"] if m["role"] == "tool"]
        if not tool_messages:
            return tool_call("call_search", "web_search", {"query": "limiter searxng valkey"})
        if len(tool_messages) == 1:
            found = LOOPBACK_URL.search(tool_messages[0]["content"])
            return tool_call("call_fetch", "web_fetch", {"url": found[0] if found else "missing"})
        return completion({"content": FINAL_ANSWER})

    try:
        page_url = pages.url_for("/limiter")
        pages.expect_request("/limiter").respond_with_data(ARTICLE, content_type="text/html; charset=utf-8")
        brave.expect_request(BRAVE_PATH).respond_with_json(
            brave_answer(
                [
                    brave_result(
                        page_url,
                        "Limiter i valkey",
                        description="Limiter liczy zapytania klientów.",
                        extra_snippets=["Liczniki trzyma w bazie valkey."],
                        page_age="2026-11-02T00:00:00",
                    )
                ]
            )
        )
        model.expect_request("/v1/chat/completions", method="POST").respond_with_handler(scripted_model)
        env = {**os.environ, "LLMWEB_SEARXNG_URL": searxng.url, "LLMWEB_FETCH_ALLOW": "127.0.0.1"}
        done = subprocess.run(
            [sys.executable, str(EXAMPLE), QUESTION, "--base-url", model.url_for("/v1"), "--model", "fake"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,  # a guard against a hung loop, not a timing assertion
        )
        yield Run(requests, page_url, done)
    finally:
        pages.stop()
        model.stop()


def tool_message(body: dict[str, Any], call_id: str) -> str:
    [message] = [m for m in body["messages"] if m["role"] == "tool" and m["tool_call_id"] == call_id]
    return str(message["content"])


def test_the_model_gets_the_system_prompt_and_both_tools(agent_run: Run) -> None:
    first = agent_run.requests[0]
    assert first["messages"][0]["role"] == "system"
    assert first["messages"][0]["content"].startswith(SYSTEM_PROMPT)
    assert first["messages"][1] == {"role": "user", "content": QUESTION}
    assert first["tools"] == tool_definitions()


def test_search_results_reach_the_model_dated_and_snippet_rich(agent_run: Run) -> None:
    results = tool_message(agent_run.requests[1], "call_search")
    assert results.startswith(
        f'Search results for "limiter searxng valkey" (today is {date.today().isoformat()};'
    )
    assert f"1. Limiter i valkey\n   {agent_run.page_url}\n   {SNIPPET}\n" in results


def test_the_fetched_page_reaches_the_model_inside_untrusted_markers(agent_run: Run) -> None:
    page = tool_message(agent_run.requests[2], "call_fetch")
    inside = re.search(
        r"^<<<BEGIN UNTRUSTED PAGE TEXT (\w+)>>>$(.*)^<<<END UNTRUSTED PAGE TEXT \1>>>$", page, re.M | re.S
    )
    assert inside, page
    assert PAGE_SENTENCE in inside[2]


def test_the_loop_ends_with_the_models_answer_once_it_calls_no_tool(agent_run: Run) -> None:
    assert agent_run.done.returncode == 0, agent_run.done.stderr
    assert agent_run.done.stdout.strip() == FINAL_ANSWER
    assert len(agent_run.requests) == 3
