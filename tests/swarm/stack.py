"""One llmweb stack under test: a copy of the repository, deployed with ``docker stack deploy``.

The copy's settings change only what a test run must (the keyless engines off: they would
reach the internet; a small daily Brave budget to count against). The generated override
``swarm.test.yml``, deployed after deploy/swarm.yml (``-c deploy/swarm.yml -c swarm.test.yml``),
changes only what this machine cannot provide: the stand-in images, the throwaway CA as one
more config of the searxng service, a fake Brave on the stack's network under the name
``api.search.brave.com``, and health checks every 2 s. The secrets are made with
``docker secret create`` from standard input, as docs/swarm.md says.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml
from compose import fake_brave
from compose.deployment import BRAVE_HOST, CA_IN_IMAGE, copy_repository, keyless_engines_off
from compose.engine import docker
from compose.images import Images
from compose.tls import ServerTls
from conftest import BROWSER_HEADERS, SENTINEL_KEY

HERE = Path(__file__).resolve().parent
STACK_FILE = "deploy/swarm.yml"
OVERRIDE = "swarm.test.yml"
SECRETS = ("llmweb_brave_api_key", "llmweb_searxng_secret")
SERVICES = ("searxng", "valkey", "proxy", "fake-brave")
HEALTH_INTERVAL = "2s"
REPLICA_CLIENT = HERE / "replica_client.py"
PYTHON_IN_IMAGE = "/usr/local/searxng/.venv/bin/python"

SettingsChange = Callable[[dict[str, Any]], None]


def engine_entry(settings: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in settings["engines"] if e.get("engine") == "llmwebbrave")


@dataclass
class Stack:
    name: str
    folder: Path
    port: int
    secret: str = field(repr=False)
    key: str = field(default=SENTINEL_KEY, repr=False)
    env: dict[str, str] = field(default_factory=dict)

    # --- swarm commands ------------------------------------------------------------------

    def deploy(self) -> None:
        done = subprocess.run(
            ["docker", "stack", "deploy", "-c", STACK_FILE, "-c", OVERRIDE, self.name],
            cwd=self.folder,
            env={**os.environ, **self.env},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"docker stack deploy failed:\n{done.stderr[-3000:]}"

    def service(self, name: str) -> str:
        return f"{self.name}_{name}"

    def tasks(self, name: str) -> list[dict[str, Any]]:
        """The service's tasks meant to run now, as `docker service ps` lists them."""
        out = docker(
            "service", "ps", self.service(name), "--filter", "desired-state=running",
            "--no-trunc", "--format", "{{json .}}",
        )  # fmt: skip
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    def containers(self, name: str, all_states: bool = False) -> list[str]:
        out = docker(
            "ps", *(["-a"] if all_states else []), "-q", "--no-trunc",
            "--filter", f"label=com.docker.swarm.service.name={self.service(name)}",
        )  # fmt: skip
        return out.split()

    def healthy_containers(self, name: str) -> list[str]:
        healthy = []
        for container in self.containers(name):
            state = json.loads(docker("inspect", "-f", "{{json .State}}", container))
            if state.get("Running") and (state.get("Health") or {}).get("Status", "healthy") == "healthy":
                healthy.append(container)
        return healthy

    def wait_converged(self, expected: Mapping[str, int], timeout: float = 240) -> None:
        """Until each service runs exactly its expected number of healthy containers."""
        deadline = time.monotonic() + timeout
        counts: dict[str, int] = {}
        while time.monotonic() < deadline:
            counts = {name: len(self.healthy_containers(name)) for name in expected}
            if counts == dict(expected):
                return
            time.sleep(1)
        logs = "\n".join(f"--- {name}:\n{self.logs(name)[-2500:]}" for name in expected)
        states = "\n".join(docker("service", "ps", "--no-trunc", self.service(n)) for n in expected)
        raise AssertionError(
            f"not converged within {timeout:.0f}s: {counts} != {dict(expected)}\n{states}\n{logs}"
        )

    def logs(self, name: str) -> str:
        done = subprocess.run(
            ["docker", "service", "logs", "--raw", self.service(name)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        return done.stdout + done.stderr

    def exec_python(self, container: str, script: Path, *args: str) -> str:
        """Run a standard-library script with the image's Python inside a running container."""
        done = subprocess.run(
            ["docker", "exec", "-i", container, PYTHON_IN_IMAGE, "-", *args],
            input=script.read_text(),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    def address(self, container: str) -> str:
        """The container's address on the stack's own network."""
        networks = json.loads(docker("inspect", "-f", "{{json .NetworkSettings.Networks}}", container))
        return str(networks[f"{self.name}_llmweb"]["IPAddress"])

    def valkey_cli(self, *args: str) -> str:
        [container] = self.containers("valkey")
        return docker("exec", container, "valkey-cli", *args).strip()

    # --- from the host, through the entry point (Caddy's port on this node) --------------

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def search(self, q: str, **params: str) -> httpx.Response:
        return httpx.get(
            self.url + "/search",
            params={"q": q, "format": "json", **params},
            headers=BROWSER_HEADERS,
            timeout=30,
        )

    # --- the fake Brave --------------------------------------------------------------------

    def brave_requests(self) -> list[dict[str, Any]]:
        log = self.folder / ".swarm-test" / "brave" / "requests.jsonl"
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []

    # --- cleaning up -----------------------------------------------------------------------

    def remove(self) -> None:
        """The stack, then what it leaves behind: its containers, network, volume and configs."""
        subprocess.run(["docker", "stack", "rm", self.name], capture_output=True, check=False, timeout=120)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            left = docker("ps", "-aq", "--filter", f"label=com.docker.stack.namespace={self.name}").split()
            networks = docker(
                "network", "ls", "-q", "--filter", f"label=com.docker.stack.namespace={self.name}"
            )
            if not left and not networks.split():
                break
            time.sleep(1)
        for volume in docker(
            "volume", "ls", "-q", "--filter", f"label=com.docker.stack.namespace={self.name}"
        ).split():
            subprocess.run(["docker", "volume", "rm", volume], capture_output=True, check=False)
        configs = docker("config", "ls", "-q", "--filter", "name=llmweb_").split()
        if configs:
            subprocess.run(["docker", "config", "rm", *configs], capture_output=True, check=False)
        subprocess.run(["docker", "secret", "rm", *SECRETS], capture_output=True, check=False)


def create_secrets(key: str, secret: str) -> None:
    """As docs/swarm.md says: from standard input, so the values are in no file and no argv."""
    for name, value in zip(SECRETS, (key, secret), strict=True):
        subprocess.run(["docker", "secret", "rm", name], capture_output=True, check=False)
        docker("secret", "create", name, "-", input=value)


def write_override(folder: Path, images: Images, tls: ServerTls, answer: dict[str, Any]) -> None:
    fake = folder / ".swarm-test" / "brave"
    fake.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(fake_brave.__file__, fake / "fake_brave.py")
    shutil.copyfile(tls.cert, fake / "server.pem")
    shutil.copyfile(tls.key, fake / "server.key")
    shutil.copyfile(tls.ca_cert, folder / ".swarm-test" / "ca.crt")
    (fake / "answer.json").write_text(json.dumps(answer, ensure_ascii=False))
    (fake / "requests.jsonl").write_text("")
    fast = {"healthcheck": {"interval": HEALTH_INTERVAL}}
    override = {
        "version": "3.8",
        "services": {
            "searxng": {
                "image": images.searxng,
                "configs": [{"source": "test_ca", "target": CA_IN_IMAGE}],
                **fast,
            },
            "valkey": {"image": images.valkey, **fast},
            "proxy": {"image": images.caddy, **fast},
            "fake-brave": {
                # Any Python 3 runs the fake; the searxng stand-in has one.
                "image": images.searxng,
                "entrypoint": [PYTHON_IN_IMAGE, "/fake/fake_brave.py"],
                "command": [
                    *("--answer", "/fake/answer.json", "--log", "/fake/requests.jsonl"),
                    *("--cert", "/fake/server.pem", "--key", "/fake/server.key"),
                ],
                "volumes": [
                    {"type": "bind", "source": str(fake), "target": "/fake"},
                    {"type": "tmpfs", "target": "/etc/searxng"},
                    {"type": "tmpfs", "target": "/var/cache/searxng"},
                ],
                "networks": {"llmweb": {"aliases": [BRAVE_HOST]}},
                # Reached by its task's address, as every service of the stack (no IPVS here).
                "deploy": {"endpoint_mode": "dnsrr", "restart_policy": {"condition": "any"}},
            },
        },
        # Absolute: relative paths of every stack file resolve from the first one's folder (deploy/).
        "configs": {"test_ca": {"file": str(folder / ".swarm-test" / "ca.crt")}},
    }
    (folder / OVERRIDE).write_text(yaml.safe_dump(override, sort_keys=False))


def prepare(
    folder: Path,
    images: Images,
    tls: ServerTls,
    answer: dict[str, Any],
    port: int,
    settings: SettingsChange | None = None,
) -> Stack:
    """The repository's files in ``folder``, its settings changed for the test run, the override written."""
    folder.mkdir(parents=True, exist_ok=True)
    copy_repository(folder)
    settings_file = folder / "settings" / "settings.yml"
    loaded = yaml.safe_load(settings_file.read_text())
    keyless_engines_off(loaded)
    if settings:
        settings(loaded)
    settings_file.write_text(yaml.safe_dump(loaded, sort_keys=False, allow_unicode=True))
    write_override(folder, images, tls, answer)
    secret = secrets.token_hex(32)
    tag = secrets.token_hex(4)  # configs cannot change in place: fresh names for each run
    env = {
        "LLMWEB_PORT": str(port),
        "LLMWEB_CONFIG_TAG": tag,
        "SEARXNG_BASE_URL": f"http://127.0.0.1:{port}/",
    }
    return Stack(f"llmwebswarm{secrets.token_hex(2)}", folder, port, secret, env=env)


@contextlib.contextmanager
def swarm_of_one_node() -> Any:
    """This engine as a one-node swarm (made here unless it is one already, and left afterwards),
    its node labelled to hold valkey's volume, as docs/swarm.md labels one."""
    state = docker("info", "--format", "{{.Swarm.LocalNodeState}}").strip()
    made = state != "active"
    if made:
        docker("swarm", "init", "--advertise-addr", "127.0.0.1")
    node = docker("info", "--format", "{{.Swarm.NodeID}}").strip()
    docker("node", "update", "--label-add", "llmweb.valkey=true", node)
    try:
        yield node
    finally:
        if made:
            subprocess.run(
                ["docker", "swarm", "leave", "--force"], capture_output=True, check=False, timeout=120
            )
        else:
            subprocess.run(
                ["docker", "node", "update", "--label-rm", "llmweb.valkey", node],
                capture_output=True,
                check=False,
            )
