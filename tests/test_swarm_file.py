"""deploy/swarm.yml as data: what every node needs travels as a config, no secret as a value.

`scripts/test swarm` deploys the file on a real one-node swarm; these checks read it, in
milliseconds, so a plugin added to plugins/ without its config line fails the ordinary suite.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
STACK = REPO / "deploy" / "swarm.yml"
SECRET_NAMES = ("BRAVE_API_KEY", "SEARXNG_SECRET", "LLMWEB_PROXY_TOKEN")
IMAGE_CODE = "/usr/local/searxng/searx"


def stack() -> dict[str, Any]:
    return dict(yaml.safe_load(STACK.read_text()))


def delivered(service: str) -> dict[str, Path]:
    """Where each config of ``service`` lands in its containers, and the repository file it is."""
    loaded = stack()
    sources = {name: (STACK.parent / spec["file"]).resolve() for name, spec in loaded["configs"].items()}
    return {entry["target"]: sources[entry["source"]] for entry in loaded["services"][service]["configs"]}


def test_the_engine_and_every_plugin_module_reach_searxng_as_configs() -> None:
    wanted = {f"{IMAGE_CODE}/engines/{p.name}": p for p in (REPO / "engines").glob("*.py")}
    wanted |= {f"{IMAGE_CODE}/plugins/llmweb/{p.name}": p for p in (REPO / "plugins").glob("*.py")}
    got = {target: path for target, path in delivered("searxng").items() if target.startswith(IMAGE_CODE)}
    assert got == {target: path.resolve() for target, path in wanted.items()}


def test_the_settings_reach_searxng_and_caddy_as_configs() -> None:
    assert delivered("searxng")["/etc/searxng/settings.yml"] == REPO / "settings" / "settings.yml"
    assert delivered("searxng")["/etc/searxng/limiter.toml"] == REPO / "settings" / "limiter.toml"
    assert delivered("proxy")["/etc/caddy/Caddyfile"] == REPO / "settings" / "Caddyfile"
    assert delivered("proxy")["/etc/caddy/upstream.caddy"] == REPO / "settings" / "upstream.caddy"


def test_no_service_environment_holds_a_secret_only_the_files_naming_one() -> None:
    for name, service in stack()["services"].items():
        environment = service.get("environment", {})
        assert not set(environment) & set(SECRET_NAMES), name
        for variable, value in environment.items():
            if variable.removesuffix("_FILE") in SECRET_NAMES:
                assert str(value).startswith("/run/secrets/"), (name, variable)


def test_every_secret_file_named_is_a_secret_the_service_is_given() -> None:
    for name, service in stack()["services"].items():
        given = {
            f"/run/secrets/{s if isinstance(s, str) else s['source']}" for s in service.get("secrets", [])
        }
        named = {v for k, v in service.get("environment", {}).items() if k.endswith("_FILE")}
        assert named <= given, name


def test_valkey_is_one_replica_pinned_to_the_node_holding_its_volume() -> None:
    deploy = stack()["services"]["valkey"]["deploy"]
    assert deploy["replicas"] == 1
    assert deploy["placement"]["constraints"] == ["node.labels.llmweb.valkey == true"]


def test_the_entry_point_publishes_on_the_node_not_through_the_routing_mesh() -> None:
    [port] = stack()["services"]["proxy"]["ports"]
    assert port["mode"] == "host"
