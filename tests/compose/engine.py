"""The Docker engine the compose suite runs on: found running, or started here as root.

Everything the suite does with Docker goes through :func:`docker` and :func:`compose_command`.
What cannot work raises :class:`EngineUnavailable` with the reason, which the suite reports
as its skip reason.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

START_TIMEOUT = 90.0


class EngineUnavailable(Exception):
    """No Docker engine can be used here; the message says why and what would fix it."""


def docker(*args: str, check: bool = True, timeout: float = 600, input: str | None = None) -> str:
    """Run the docker CLI; its stdout, or an AssertionError naming the command and its stderr."""
    done = subprocess.run(
        ["docker", *args], capture_output=True, text=True, timeout=timeout, input=input, check=False
    )
    if check and done.returncode != 0:
        raise AssertionError(f"docker {' '.join(args)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done.stdout


def engine_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    done = subprocess.run(["docker", "info"], capture_output=True, check=False, timeout=60)
    return done.returncode == 0


def start_engine(log: Path) -> subprocess.Popen[bytes] | None:
    """The running engine (None: it ran already), else a dockerd started here, answering."""
    if engine_answers():
        return None
    if shutil.which("docker") is None or shutil.which("dockerd") is None:
        raise EngineUnavailable(
            "docker/dockerd are missing: `scripts/test compose` installs Debian's docker.io (needs root and apt-get)"
        )
    if os.geteuid() != 0:
        raise EngineUnavailable(
            "no Docker engine answers and only root may start dockerd; start one, then rerun"
        )
    with log.open("wb") as out:
        # A session of its own: dockerd outlives no test run, and a Ctrl-C reaches pytest first.
        popen = subprocess.Popen(["dockerd"], stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if popen.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            raise EngineUnavailable(f"dockerd exited with {popen.returncode}:\n{tail}")
        if engine_answers():
            return popen
        time.sleep(0.5)
    stop_engine(popen)
    raise EngineUnavailable(f"dockerd did not answer within {START_TIMEOUT:.0f}s; its log: {log}")


def stop_engine(popen: subprocess.Popen[bytes]) -> None:
    """Stop the dockerd this run started (its containers were removed by the tests)."""
    if popen.poll() is None:
        popen.send_signal(signal.SIGTERM)
        try:
            popen.wait(60)
        except subprocess.TimeoutExpired:
            popen.kill()
            popen.wait()


def compose_command() -> list[str]:
    """`docker compose` (v2) where the plugin exists, else Debian's docker-compose 1.29."""
    v2 = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
    if v2.returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    raise EngineUnavailable(
        "neither `docker compose` nor docker-compose: `scripts/test compose` installs docker-compose"
    )
