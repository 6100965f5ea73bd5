"""ChatCompressor against a fake OpenAI-compatible server on loopback."""

from __future__ import annotations

import json
import socket
import time

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from llmweb.compress import ChatCompressor, chat_completions_url
from llmweb.errors import CompressorError

PATH = "/v1/chat/completions"


def answer(content: str) -> dict[str, object]:
    return {
        "id": "c1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
    }


def compressor(server: HTTPServer, api_key: str | None = None, timeout: float = 10.0) -> ChatCompressor:
    return ChatCompressor(server.url_for("/").rstrip("/"), "small-model", api_key=api_key, timeout=timeout)


def test_the_compressed_text_is_the_models_answer(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request(PATH, method="POST").respond_with_json(
        answer("  Budget: 4 million, approved 2024-03-05.  ")
    )
    assert (
        compressor(httpserver_ipv4)("long page text", "the budget")
        == "Budget: 4 million, approved 2024-03-05."
    )


def test_the_request_carries_the_model_the_instruction_and_the_page(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request(PATH, method="POST").respond_with_json(answer("ok"))
    compressor(httpserver_ipv4)("PAGE TEXT ABOUT PARKS", "How much money do the parks get?")
    sent = json.loads(httpserver_ipv4.log[0][0].get_data())
    assert sent["model"] == "small-model"
    user = sent["messages"][-1]["content"]
    assert "How much money do the parks get?" in user
    assert "PAGE TEXT ABOUT PARKS" in user


def test_the_prompt_asks_to_keep_facts_numbers_code_and_dates(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request(PATH, method="POST").respond_with_json(answer("ok"))
    compressor(httpserver_ipv4)("text", "question")
    system = json.loads(httpserver_ipv4.log[0][0].get_data())["messages"][0]["content"]
    for kept in ("fact", "number", "code", "date"):
        assert kept in system


def test_an_api_key_is_sent_as_a_bearer_token(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request(PATH, headers={"Authorization": "Bearer k-123"}).respond_with_json(
        answer("ok")
    )
    assert compressor(httpserver_ipv4, api_key="k-123")("text", None) == "ok"


def test_no_authorization_is_sent_without_an_api_key(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request(PATH).respond_with_json(answer("ok"))
    compressor(httpserver_ipv4)("text", None)
    assert "Authorization" not in httpserver_ipv4.log[0][0].headers


def test_a_reasoning_preamble_is_removed_from_the_answer(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request(PATH).respond_with_json(
        answer("<think>\nLet me see.\n</think>\n\nThe answer.")
    )
    assert compressor(httpserver_ipv4)("text", None) == "The answer."


@pytest.mark.parametrize(
    "base", ["http://127.0.0.1:8080", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1"]
)
def test_the_endpoint_is_found_from_a_server_root_or_a_v1_base(base: str) -> None:
    assert chat_completions_url(base) == "http://127.0.0.1:8080/v1/chat/completions"


def test_a_server_error_fails_with_the_status(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request(PATH).respond_with_data("model not loaded", status=500)
    with pytest.raises(CompressorError) as caught:
        compressor(httpserver_ipv4)("text", None)
    assert "500" in str(caught.value)
    assert "without a compressor" in str(caught.value)


@pytest.mark.parametrize(
    "body",
    [
        json.dumps({"choices": []}),
        json.dumps({"choices": [{"message": {}}]}),
        json.dumps({"choices": [{"message": {"content": None}}]}),
        json.dumps({"choices": [{"message": {"content": "   "}}]}),
        json.dumps({"error": "oops"}),
        "this is not json",
    ],
)
def test_a_malformed_answer_fails(httpserver_ipv4: HTTPServer, body: str) -> None:
    httpserver_ipv4.expect_request(PATH).respond_with_data(body, content_type="application/json")
    with pytest.raises(CompressorError) as caught:
        compressor(httpserver_ipv4)("text", None)
    assert "choices[0].message.content" in str(caught.value)


def test_an_unreachable_server_fails() -> None:
    with socket.socket() as probe:  # a loopback port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(CompressorError) as caught:
        ChatCompressor(base_url=f"http://127.0.0.1:{port}", model="m")("text", None)
    assert "could not be reached" in str(caught.value)


def test_a_server_slower_than_the_timeout_fails(httpserver_ipv4: HTTPServer) -> None:
    def slow(request: Request) -> Response:
        time.sleep(1.0)
        return Response(json.dumps(answer("late")), content_type="application/json")

    httpserver_ipv4.expect_request(PATH).respond_with_handler(slow)
    with pytest.raises(CompressorError) as caught:
        compressor(httpserver_ipv4, timeout=0.2)("text", None)
    assert "did not answer within 0.2 seconds" in str(caught.value)
