"""The bad-input table: every unusable argument gets its own clear error, for the tools and the CLI.

Nothing is sent anywhere for these (the SearXNG address is a closed loopback port, so an
attempt would show as "cannot be reached"), and the CLI writes nothing half-way: in text
mode stdout stays empty and stderr holds one "Error:" line; with --json stdout holds exactly
one error object.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from llmweb import cli
from llmweb.tools import answer_tool_call
from serve import stack
from testbed.bad_inputs import TOOL_CASES

NOWHERE = f"http://127.0.0.1:{stack.free_port()}"


@pytest.mark.parametrize(("tool", "arguments", "expected"), TOOL_CASES)
def test_a_tool_call_with_bad_input_gets_one_clear_error(tool: str, arguments: Any, expected: str) -> None:
    answer = answer_tool_call(tool, arguments, searxng_url=NOWHERE, allow="")
    assert answer.is_error
    assert answer.text.startswith("Error: ")
    assert expected in answer.text
    assert "cannot be reached" not in answer.text, "validation must come before any request"
    assert "\n" not in answer.text.strip()


CLI_CASES: list[tuple[list[str], str]] = [
    (["search", ""], "query"),
    (["search", "a\x07b"], "control characters"),
    (["search", "a\udcffb"], "valid string"),
    (["search", "q", "--lang", "xx"], "not a language code"),
    (["search", "q", "--page", "0"], "page"),
    (["search", "q", "--page", "1000"], "page"),
    (["fetch", "/relative"], "relative address"),
    (["fetch", "file:///etc/passwd"], "uses file:"),
    (["fetch", "javascript:alert(1)"], "uses javascript:"),
    (["fetch", "http://[::1]:70000/"], "port 70000"),
    (["fetch", "http://[::1]/"], "loopback address"),
    (["fetch", "http://xn--a-.com/"], "not a valid host name"),
    (["fetch", "https://127.0.0.1/", "--start", "-5"], "start"),
]


@pytest.fixture
def nowhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """SearXNG at a closed loopback port and no private host allowed: nothing can be reached."""
    monkeypatch.setenv("LLMWEB_SEARXNG_URL", NOWHERE)
    monkeypatch.setenv("LLMWEB_FETCH_ALLOW", "")


@pytest.mark.parametrize(("argv", "expected"), CLI_CASES)
def test_the_cli_prints_one_error_line_and_nothing_on_stdout(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str], nowhere: None
) -> None:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code != 0
    assert out == ""
    assert err.startswith("Error: ") and expected in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(("argv", "expected"), CLI_CASES)
def test_the_cli_in_json_mode_prints_exactly_one_error_object(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str], nowhere: None
) -> None:
    code = cli.main([*argv, "--json"])
    out, _ = capsys.readouterr()
    assert code != 0
    error = json.loads(out)["error"]
    assert set(error) == {"type", "message"}
    assert expected in error["message"]


def test_non_utf8_bytes_on_the_command_line_are_refused_clearly() -> None:
    # What a shell passes for a Latin-2 "ł" typed in a non-UTF-8 terminal.
    argv = [sys.executable, "-m", "llmweb.cli", "search", os.fsdecode(b"\xb3\xf3d\xbc")]
    done = subprocess.run(
        argv, capture_output=True, env={**os.environ, "LLMWEB_SEARXNG_URL": NOWHERE}, check=False, timeout=60
    )
    assert done.returncode == 64
    assert done.stdout == b""
    assert done.stderr.startswith(b"Error: ") and b"valid string" in done.stderr
