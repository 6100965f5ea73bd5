"""What the deployment's containers send, seen from the host with tcpdump.

Every connection attempt (a TCP SYN) and every UDP datagram whose source is an address of
the compose project's networks is recorded, on all interfaces, so nothing a container sends
is missed: DNS queries Docker's resolver forwards for names it does not know leave from the
container's own address too. The gateway's packets are the host's, not the deployment's.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from compose.engine import docker

# "… IP 172.20.0.3.41234 > 10.255.255.53.53: 7600+ A? rules1.clearurls.xyz. (38)"
_PACKET = re.compile(r" IP (\d+\.\d+\.\d+\.\d+)\.\d+ > (\d+\.\d+\.\d+\.\d+)\.(\d+): (.*)$")
_DNS_QUESTION = re.compile(r"\b(?:A|AAAA|HTTPS|SRV|PTR|MX|TXT)\? (\S+?)\.? ")


@dataclass(frozen=True)
class Sent:
    """One connection attempt or datagram: where it went, and the name asked for if DNS."""

    source: str
    destination: str
    port: int
    dns_question: str | None

    def __str__(self) -> str:
        asked = f" (DNS: {self.dns_question})" if self.dns_question else ""
        return f"{self.source} -> {self.destination}:{self.port}{asked}"


@dataclass(frozen=True)
class ProjectNetwork:
    subnet: ipaddress.IPv4Network
    gateway: str


def project_networks(project: str) -> list[ProjectNetwork]:
    ids = docker("network", "ls", "-q", "--filter", f"label=com.docker.compose.project={project}").split()
    networks = []
    for network_id in ids:
        for config in json.loads(docker("network", "inspect", "-f", "{{json .IPAM.Config}}", network_id)):
            networks.append(ProjectNetwork(ipaddress.IPv4Network(config["Subnet"]), config["Gateway"]))
    assert networks, f"compose project {project} has no network yet"
    return networks


def parse(line: str) -> Sent | None:
    found = _PACKET.search(line)
    if not found:
        return None
    source, destination, port, rest = found.groups()
    question = _DNS_QUESTION.search(rest + " ")
    return Sent(source, destination, int(port), question.group(1) if question and port == "53" else None)


@contextlib.contextmanager
def recorded(networks: list[ProjectNetwork], out: Path) -> Iterator[list[Sent]]:
    """Records while the block runs; the list is filled when it ends."""
    tcpdump = shutil.which("tcpdump")
    assert tcpdump, "tcpdump is missing: `scripts/test compose` installs it with apt-get"
    sources = " or ".join(f"src net {n.subnet}" for n in networks)
    gateways = " or ".join(f"src host {n.gateway}" for n in networks)
    what = f"({sources}) and not ({gateways}) and (udp or (tcp[tcpflags] & (tcp-syn|tcp-ack) == tcp-syn))"
    sent: list[Sent] = []
    with out.open("w") as text:
        capture = subprocess.Popen(
            [tcpdump, "-i", "any", "-nn", "-l", what], stdout=text, stderr=subprocess.PIPE, text=True
        )
        assert capture.stderr
        for line in capture.stderr:  # capture starts once tcpdump says it listens
            if "listening on" in line:
                break
        try:
            yield sent
        finally:
            capture.send_signal(signal.SIGINT)
            capture.wait(30)
            capture.stderr.close()
    sent.extend(p for p in map(parse, out.read_text().splitlines()) if p)


def leaving(sent: list[Sent], networks: list[ProjectNetwork]) -> set[Sent]:
    """What went beyond the project's containers: elsewhere, or to the host (the gateways)."""
    gateways = {n.gateway for n in networks}

    def inside(address: str) -> bool:
        ip = ipaddress.IPv4Address(address)
        return address not in gateways and any(ip in n.subnet for n in networks)

    return {s for s in sent if not inside(s.destination)}
