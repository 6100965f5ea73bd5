"""One deployment under test: a copy of the project's files, started with docker compose.

Each test gets a folder holding a copy of the repository's files (the compose file, .env
made from .env.example as the README says, settings/, engines/, …) and a compose project
of its own name. The copy of settings.yml changes only what a test run must (the keyless
engines off: they would reach the internet), as tests/conftest.py does for loopback tests.

The generated override file ``compose.test.yml`` changes only what this machine cannot
provide: the official images are replaced by the stand-ins (images.py), a fake Brave joins
the searxng service's networks under the name ``api.search.brave.com``, the throwaway CA is
mounted where the image picks up certificates, and health checks run every 2 s instead of
30 s (their commands stay the project's). ``COMPOSE_FILE`` and ``COMPOSE_PROJECT_NAME`` point
every compose command at it, so ``docker compose up -d`` is typed as the README types it.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import yaml
from conftest import BROWSER_HEADERS, OUTSIDE_ENGINES, SENTINEL_KEY

from compose import fake_brave
from compose.engine import docker
from compose.images import Images
from compose.tls import ServerTls

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SEARXNG, VALKEY, FAKE_BRAVE = "searxng", "valkey", "fake-brave"
BRAVE_HOST = "api.search.brave.com"
OVERRIDE = "compose.test.yml"
CA_IN_IMAGE = "/usr/local/share/ca-certificates/llmweb-test-ca.crt"
HEALTH_INTERVAL = "2s"
CRASH_RESTARTS = 2

SettingsChange = Callable[[dict[str, Any]], None]


def repository_files() -> list[Path]:
    """The repository's files as a fresh clone has them (tracked, plus new ones not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [Path(name) for name in listed.split("\0") if name and (REPO / name).is_file()]


def copy_repository(folder: Path) -> None:
    for relative in repository_files():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / relative, folder / relative)


def set_env_values(env_file: Path, values: Mapping[str, str]) -> None:
    """Fill KEY=value lines of a .env as a person would: in place, else appended."""
    lines = env_file.read_text().splitlines()
    missing = dict(values)
    for i, line in enumerate(lines):
        key = line.split("=", 1)[0].strip()
        if "=" in line and not line.lstrip().startswith("#") and key in missing:
            lines[i] = f"{key}={missing.pop(key)}"
    lines += [f"{key}={value}" for key, value in missing.items()]
    env_file.write_text("\n".join(lines) + "\n")


def keyless_engines_off(settings: dict[str, Any]) -> None:
    for engine in settings.get("engines", []):
        if engine.get("name") in OUTSIDE_ENGINES:
            engine["inactive"] = True


def deep_merge(into: dict[str, Any], extra: Mapping[str, Any]) -> None:
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            deep_merge(into[key], value)
        else:
            into[key] = value


@dataclass
class Deployment:
    name: str  # compose project name
    folder: Path
    compose_cmd: list[str]

    # --- compose -------------------------------------------------------------------

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "COMPOSE_PROJECT_NAME": self.name,
            "COMPOSE_FILE": f"docker-compose.yml:{OVERRIDE}",
        }

    def compose(self, *args: str, check: bool = True, timeout: float = 300) -> str:
        done = subprocess.run(
            [*self.compose_cmd, *args],
            cwd=self.folder,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(
                f"compose {' '.join(args)} failed ({done.returncode}):\n{done.stderr[-3000:]}"
            )
        return done.stdout

    def up(self, *services: str, no_deps: bool = False) -> None:
        self.compose("up", "-d", *(["--no-deps"] if no_deps else []), *services)

    def container(self, service: str) -> str:
        ids = self.compose("ps", "-q", service).split()
        assert ids, f"no container for {service}"
        return ids[0]

    def state(self, service: str) -> dict[str, Any]:
        return dict(json.loads(docker("inspect", "-f", "{{json .State}}", self.container(service))))

    def restarts(self, service: str) -> int:
        return int(docker("inspect", "-f", "{{.RestartCount}}", self.container(service)))

    def wait_healthy(self, *services: str, timeout: float = 120) -> None:
        """Until each service's own health check passes; a service that keeps crashing fails at once."""
        deadline = time.monotonic() + timeout
        pending = list(services)
        while pending and time.monotonic() < deadline:
            if crashing := [s for s in pending if self.restarts(s) >= CRASH_RESTARTS]:
                self._fail(f"restarted {CRASH_RESTARTS} times", crashing)
            pending = [s for s in pending if (self.state(s).get("Health") or {}).get("Status") != "healthy"]
            if pending:
                time.sleep(0.5)
        if pending:
            self._fail(f"not healthy within {timeout:.0f}s", pending)

    def _fail(self, what: str, services: list[str]) -> None:
        logs = "\n".join(f"--- {s}:\n{self.logs(s)[-3000:]}" for s in services)
        raise AssertionError(f"{what}: {services}\n{logs}")

    def logs(self, service: str) -> str:
        """The service's container log, stdout and stderr, as `docker logs` shows it."""
        done = subprocess.run(
            ["docker", "logs", self.container(service)],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout + done.stderr

    def valkey_cli(self, *args: str) -> str:
        return self.compose("exec", "-T", VALKEY, "valkey-cli", *args).strip()

    def down(self, *args: str) -> None:
        self.compose("down", "--timeout", "5", *args)

    # --- talking to it from the host (the published port, on loopback) ------------

    @property
    def url(self) -> str:
        published = self.compose("port", SEARXNG, "8080").strip().splitlines()[-1]
        host, port = published.rsplit(":", 1)
        assert host in ("127.0.0.1", "0.0.0.0", "::", "[::]"), f"published on {host}"
        return f"http://127.0.0.1:{port}"

    def get(self, path: str, **params: str) -> httpx.Response:
        return httpx.get(self.url + path, params=params, headers=BROWSER_HEADERS, timeout=30)

    def search_json(self, q: str, **params: str) -> dict[str, Any]:
        answer = self.get("/search", q=q, format="json", **params)
        assert answer.status_code == 200, answer.text[:500]
        return dict(answer.json())

    # --- the fake Brave ----------------------------------------------------------------

    def brave_requests(self) -> list[dict[str, Any]]:
        log = self.folder / ".compose-test" / "brave" / "requests.jsonl"
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text().splitlines()]

    def default_network(self) -> str:
        """The network compose made for the project's services (a private range, from Docker)."""
        labels = [f"com.docker.compose.project={self.name}", "com.docker.compose.network=default"]
        [network] = docker(
            "network", "ls", "--format", "{{.Name}}", *(f"--filter=label={x}" for x in labels)
        ).split()
        return network

    def fake_brave_address(self) -> str:
        nets = json.loads(
            docker("inspect", "-f", "{{json .NetworkSettings.Networks}}", self.container(FAKE_BRAVE))
        )
        return str(next(iter(nets.values()))["IPAddress"])

    # --- cleaning up ---------------------------------------------------------------------

    def remove(self) -> None:
        """Containers, networks and volumes of this project, the anonymous ones included."""
        with contextlib.suppress(AssertionError, subprocess.TimeoutExpired):
            self.compose("down", "--volumes", "--remove-orphans", "--timeout", "5", check=False)


def resolved_config(folder: Path, compose_cmd: list[str]) -> dict[str, Any]:
    """docker-compose.yml alone, as compose resolves it with the folder's .env."""
    done = subprocess.run(
        [*compose_cmd, "-f", "docker-compose.yml", "config"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return dict(yaml.safe_load(done.stdout))


def write_override(
    folder: Path,
    compose_cmd: list[str],
    images: Images,
    tls: ServerTls,
    answer: dict[str, Any],
    extra: Mapping[str, Any],
) -> None:
    config = resolved_config(folder, compose_cmd)
    # Which stand-in replaces which official image, matched on the image's repository.
    stand_ins = {
        "searxng/searxng:": images.searxng,
        "valkey/valkey:": images.valkey,
        "library/caddy:": images.caddy,
    }
    services: dict[str, Any] = {}
    for name, service in config["services"].items():
        image = str(service.get("image", ""))
        for official, stand_in in stand_ins.items():
            if official in image:
                services.setdefault(name, {})["image"] = stand_in
        if "healthcheck" in service:
            services.setdefault(name, {})["healthcheck"] = {"interval": HEALTH_INTERVAL}

    fake = folder / ".compose-test" / "brave"
    fake.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(fake_brave.__file__, fake / "fake_brave.py")
    shutil.copyfile(tls.cert, fake / "server.pem")
    shutil.copyfile(tls.key, fake / "server.key")
    shutil.copyfile(tls.ca_cert, folder / ".compose-test" / "ca.crt")
    (fake / "answer.json").write_text(json.dumps(answer, ensure_ascii=False))
    (fake / "requests.jsonl").write_text("")

    searxng_networks = config["services"][SEARXNG].get("networks") or {"default": None}
    services.setdefault(SEARXNG, {})["volumes"] = [f"./.compose-test/ca.crt:{CA_IN_IMAGE}:ro"]
    services[FAKE_BRAVE] = {
        # Any Python 3 runs the fake; the searxng stand-in has one.
        "image": images.searxng,
        "entrypoint": ["/usr/local/searxng/.venv/bin/python", "/fake/fake_brave.py"],
        "command": [
            *("--answer", "/fake/answer.json", "--log", "/fake/requests.jsonl"),
            *("--cert", "/fake/server.pem", "--key", "/fake/server.key"),
        ],
        "volumes": ["./.compose-test/brave:/fake"],
        # The image's volumes, in memory: the fake must leave no anonymous volume behind.
        "tmpfs": ["/etc/searxng", "/var/cache/searxng"],
        "networks": {net: {"aliases": [BRAVE_HOST]} for net in searxng_networks},
    }
    override: dict[str, Any] = {"services": services}
    deep_merge(override, extra)
    (folder / OVERRIDE).write_text(yaml.safe_dump(override, sort_keys=False))


def prepare(
    folder: Path,
    compose_cmd: list[str],
    images: Images,
    tls: ServerTls,
    answer: dict[str, Any],
    *,
    env: Mapping[str, str] | None = None,
    settings: SettingsChange | None = None,
    override: Mapping[str, Any] | None = None,
) -> Deployment:
    """The project's files in ``folder``, .env filled as the README says, the override written."""
    folder.mkdir(parents=True, exist_ok=True)
    copy_repository(folder)
    shutil.copyfile(folder / ".env.example", folder / ".env")  # the README's first step
    values = {"BRAVE_API_KEY": SENTINEL_KEY, "SEARXNG_SECRET": secrets.token_hex(32), **(env or {})}
    set_env_values(folder / ".env", values)
    settings_file = folder / "settings" / "settings.yml"
    loaded = yaml.safe_load(settings_file.read_text())
    keyless_engines_off(loaded)
    if settings:
        settings(loaded)
    settings_file.write_text(yaml.safe_dump(loaded, sort_keys=False, allow_unicode=True))
    write_override(folder, compose_cmd, images, tls, answer, override or {})
    return Deployment(f"llmwebtest{secrets.token_hex(3)}", folder, compose_cmd)
