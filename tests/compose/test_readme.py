"""README.md's Docker steps, typed as written, answer the README's own search URL."""

from __future__ import annotations

import re
import secrets
import subprocess

import httpx
from conftest import BROWSER_HEADERS, SENTINEL_KEY

from compose.conftest import Deploy
from compose.deployment import REPO, SEARXNG, VALKEY, Deployment, set_env_values


def readme_docker_commands() -> list[str]:
    """The command lines of the first sh block under README's "With Docker", comments removed."""
    readme = (REPO / "README.md").read_text()
    section = readme.split("### With Docker", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, flags=re.DOTALL)
    assert block, "README's 'With Docker' section has no sh block"
    lines = [line.split(" #", 1)[0].strip() for line in block.group(1).splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def readme_check_url() -> str:
    """The URL README's "Check it answers" asks with curl."""
    found = re.search(r"curl '(http://[^']+)'", (REPO / "README.md").read_text())
    assert found, "README shows no curl check"
    return found.group(1)


def run_as_typed(stack: Deployment, line: str) -> None:
    if line.startswith("docker compose ") and stack.compose_cmd != ["docker", "compose"]:
        line = " ".join(stack.compose_cmd) + line[len("docker compose") :]
    done = subprocess.run(
        ["bash", "-c", line], cwd=stack.folder, env=stack.env(), capture_output=True, text=True
    )
    assert done.returncode == 0, f"{line!r} failed:\n{done.stderr[-3000:]}"


def test_the_readme_docker_steps_answer_the_readme_search(deploy: Deploy) -> None:
    stack = deploy()
    (stack.folder / ".env").unlink()  # the README makes it
    for line in readme_docker_commands():
        run_as_typed(stack, line)
        if ".env.example" in line:  # what the README's comment asks a person to fill in
            set_env_values(
                stack.folder / ".env",
                {"BRAVE_API_KEY": SENTINEL_KEY, "SEARXNG_SECRET": secrets.token_hex(32)},
            )
    stack.wait_healthy(SEARXNG, VALKEY)
    answer = httpx.get(readme_check_url(), headers=BROWSER_HEADERS, timeout=30)
    assert answer.status_code == 200
    assert [r["engine"] for r in answer.json()["results"]] == ["brave api", "brave api"]
