"""Caddy in front of SearXNG replicas without Docker, for ``scripts/serve --replicas N``.

docker-compose.yml's scale profile runs Caddy with settings/Caddyfile, which finds the
replicas by their service name. Here every replica listens on a loopback port of its own, so
:func:`caddyfile` names them; the rest is settings/upstream.caddy, the same file the compose
Caddyfile imports (turns, retries, the client's address and the proxy token), plus an
active check of each replica's /healthz, which Caddy runs only for upstreams given by address.

Caddy is Debian's: the ``caddy`` on PATH, else Debian's package unpacked into a folder of
ours (:func:`find_caddy`). It is not installed with apt on purpose: the package enables
caddy.service, a web server on port 80 of every interface, which is not ours to start.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

DEBIAN_PACKAGE = "caddy"
HEALTH_INTERVAL = "1s"
"""How often Caddy asks each replica's /healthz: a dead replica is out, and a restarted one
back in, within about this long (a failed search takes a replica out at once, for 2 s)."""
HEALTH_TIMEOUT = "2s"

MISSING = (
    "Caddy is needed in front of SearXNG replicas and could not be fetched from Debian's "
    "archive: install Debian's package (apt-get install caddy; it also starts a web server "
    "on port 80, `systemctl disable --now caddy` stops it) or put a caddy binary on PATH."
)


class CaddyMissing(RuntimeError):
    """No caddy binary could be found or fetched; the message says what to install."""


def caddyfile(host: str, port: int, upstreams: Sequence[str], policy: Path) -> str:
    """A Caddyfile serving plain HTTP on ``host:port``, proxying to ``upstreams`` (host:port)."""
    if not upstreams:
        raise ValueError("a proxy needs at least one upstream")
    return f"""\
# Written by scripts/serve --replicas (serve/proxy.py) at every start; change
# {policy.name} or serve/proxy.py instead.
{{
	admin off
	auto_https off
}}

http://:{port} {{
	bind {host}
	reverse_proxy {" ".join(upstreams)} {{
		health_uri /healthz
		health_interval {HEALTH_INTERVAL}
		health_timeout {HEALTH_TIMEOUT}
		import "{policy}"
	}}
}}
"""


def installed_caddy(tools: Path) -> Path | None:
    """The caddy on PATH, else Debian's package already unpacked under ``tools``; None fetches nothing."""
    on_path = shutil.which("caddy")
    if on_path:
        return Path(on_path)
    unpacked = tools / DEBIAN_PACKAGE / "usr" / "bin" / "caddy"
    return unpacked if unpacked.exists() else None


def find_caddy(tools: Path) -> Path:
    """The caddy on PATH, else Debian's package unpacked under ``tools`` (fetched once, no root)."""
    found = installed_caddy(tools)
    if found is None:
        _unpack_debian_package(tools / DEBIAN_PACKAGE)
        found = installed_caddy(tools)
    if found is None:
        raise CaddyMissing(MISSING)
    return found


def _unpack_debian_package(into: Path) -> None:
    if not (shutil.which("apt-get") and shutil.which("dpkg-deb")):
        raise CaddyMissing(MISSING)
    with tempfile.TemporaryDirectory() as download:
        fetched = _apt_download(Path(download))
        if not fetched:
            raise CaddyMissing(MISSING)
        into.mkdir(parents=True, exist_ok=True)
        subprocess.run(["dpkg-deb", "-x", str(fetched[0]), str(into)], check=True, capture_output=True)


def _apt_download(folder: Path) -> list[Path]:
    """Debian's caddy .deb fetched into ``folder``; as root, once more after `apt-get update`."""
    download = ["apt-get", "download", "-qq", DEBIAN_PACKAGE]
    done = subprocess.run(download, cwd=folder, capture_output=True, check=False)
    if done.returncode != 0 and os.geteuid() == 0:
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True, check=False)
        subprocess.run(download, cwd=folder, capture_output=True, check=False)
    return sorted(folder.glob(f"{DEBIAN_PACKAGE}_*.deb"))
