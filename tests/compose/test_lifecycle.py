"""Living with the stack: restarts, down/up, edits of the settings, a missing key."""

from __future__ import annotations

import os

import yaml

from compose.conftest import Deploy
from compose.deployment import SEARXNG, VALKEY, Deployment
from compose.engine import docker

MARKER = ("llmweb-test-marker", "kept")


def started(deploy: Deploy, **options: object) -> Deployment:
    stack = deploy(**options)
    stack.compose("up", "-d")
    stack.wait_healthy(SEARXNG, VALKEY)
    return stack


def test_restart_keeps_what_valkey_holds(deploy: Deploy) -> None:
    stack = started(deploy)
    stack.valkey_cli("set", *MARKER)
    stack.compose("restart")
    stack.wait_healthy(SEARXNG, VALKEY)
    assert stack.valkey_cli("get", MARKER[0]) == MARKER[1]


def test_down_and_up_keep_what_valkey_holds(deploy: Deploy) -> None:
    stack = started(deploy)
    stack.valkey_cli("set", *MARKER)
    stack.down()
    stack.compose("up", "-d")
    stack.wait_healthy(SEARXNG, VALKEY)
    assert stack.valkey_cli("get", MARKER[0]) == MARKER[1]


def test_down_and_up_leave_no_new_volume(deploy: Deploy) -> None:
    stack = started(deploy)
    before = set(docker("volume", "ls", "-q").split())
    stack.down()
    stack.compose("up", "-d")
    stack.wait_healthy(SEARXNG, VALKEY)
    assert set(docker("volume", "ls", "-q").split()) == before


def test_a_settings_edit_is_served_after_restarting_searxng(deploy: Deploy) -> None:
    stack = started(deploy)
    settings = stack.folder / "settings" / "settings.yml"
    # Saved the way editors and `sed -i` save: a new file renamed over the old one.
    changed = yaml.safe_load(settings.read_text())
    changed["general"]["instance_name"] = "edited"
    edited = settings.with_name("settings.yml.new")
    edited.write_text(yaml.safe_dump(changed, allow_unicode=True))
    os.replace(edited, settings)
    stack.compose("restart", SEARXNG)
    stack.wait_healthy(SEARXNG)
    assert stack.get("/config").json()["instance_name"] == "edited"


def test_an_empty_brave_key_is_named_in_the_log(deploy: Deploy) -> None:
    stack = started(deploy, env={"BRAVE_API_KEY": ""})
    assert "BRAVE_API_KEY" in stack.logs(SEARXNG)
