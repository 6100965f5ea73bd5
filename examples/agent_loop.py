"""A minimal agent: a local model answers a question with llmweb's search and fetch tools.

It talks to any OpenAI-compatible /v1/chat/completions endpoint (llama-server, Ollama,
vLLM, LM Studio): sends the recommended system prompt and the tool definitions, runs each
tool call with run_tool_call, hands the results back, and stops when the model answers
without calling a tool (or after --max-steps model turns).

    python examples/agent_loop.py "Jaka będzie jutro pogoda w Krakowie?" \\
        --base-url http://127.0.0.1:8080/v1 --model qwen3

Environment: LLMWEB_MODEL_URL and LLMWEB_MODEL for the two options, LLMWEB_SEARXNG_URL
for SearXNG, LLMWEB_FETCH_ALLOW for private hosts the fetcher may read.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import httpx

from llmweb.prompt import system_prompt
from llmweb.tools import run_tool_call, tool_definitions


def ask(question: str, *, base_url: str, model: str, max_steps: int = 8, timeout: float = 300.0) -> str:
    """The model's final answer to ``question``, after as many tool calls as it needs."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system_prompt()},
        {"role": "user", "content": question},
    ]
    with httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout) as client:
        for _ in range(max_steps):
            reply = client.post(
                "/chat/completions", json={"model": model, "messages": messages, "tools": tool_definitions()}
            )
            reply.raise_for_status()
            message = reply.json()["choices"][0]["message"]
            calls = message.get("tool_calls") or []
            if not calls:
                return str(message.get("content") or "")
            # The assistant turn goes back as it came, so the model sees which calls it made.
            messages.append(
                {"role": "assistant", "content": message.get("content") or "", "tool_calls": calls}
            )
            for call in calls:
                function = call["function"]
                print(f"[tool] {function['name']} {function.get('arguments')}", file=sys.stderr)
                result = run_tool_call(function["name"], function.get("arguments"))
                messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": result})
    return f"(no answer after {max_steps} model turns)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Answer a question with a local model and llmweb's tools.")
    parser.add_argument("question")
    parser.add_argument(
        "--base-url",
        default=os.environ.get("LLMWEB_MODEL_URL", "http://127.0.0.1:8080/v1"),
        help="the OpenAI-compatible API, up to /v1 (env LLMWEB_MODEL_URL)",
    )
    parser.add_argument("--model", default=os.environ.get("LLMWEB_MODEL", "local"), help="env LLMWEB_MODEL")
    parser.add_argument("--max-steps", type=int, default=8, help="model turns at most")
    args = parser.parse_args(argv)
    try:
        print(ask(args.question, base_url=args.base_url, model=args.model, max_steps=args.max_steps))
    except httpx.HTTPError as exc:
        print(f"the model server failed: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
