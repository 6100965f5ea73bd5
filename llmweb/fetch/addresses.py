"""Which IP addresses the fetcher may connect to. Pure: addresses in, verdicts out.

A model's fetch request is untrusted (a page it read can ask for the router's admin page
or a cloud metadata service), so every address the resolver returns is judged here before
a connection is opened. The tables follow the IANA special-purpose registries; anything
else that is not globally routable is refused too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network

from llmweb.errors import InvalidInput

Address = IPv4Address | IPv6Address
Network = IPv4Network | IPv6Network

# Cloud metadata services hand out credentials; they stay blocked even when allowed.
# 168.63.129.16 (Azure) is a public address, so no range check would catch it.
METADATA_ADDRESSES: frozenset[Address] = frozenset(
    ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "168.63.129.16", "100.100.100.200", "fd00:ec2::254")
)
METADATA_REASON = "a cloud metadata address"

_IPV4_RANGES: tuple[tuple[Network, str], ...] = tuple(
    (ip_network(net), reason)
    for net, reason in (
        ("0.0.0.0/8", "a 'this network' address"),
        ("10.0.0.0/8", "a private address"),
        # neither is_private nor is_global in Python, so it needs its own row
        ("100.64.0.0/10", "a shared (carrier-grade NAT) address"),
        ("127.0.0.0/8", "a loopback address"),
        ("169.254.0.0/16", "a link-local address"),
        ("172.16.0.0/12", "a private address"),
        ("192.0.0.0/24", "an IETF protocol address"),
        ("192.0.2.0/24", "a documentation address"),
        ("192.168.0.0/16", "a private address"),
        ("198.18.0.0/15", "a benchmarking address"),
        ("198.51.100.0/24", "a documentation address"),
        ("203.0.113.0/24", "a documentation address"),
        ("224.0.0.0/4", "a multicast address"),
        ("240.0.0.0/4", "a reserved address"),  # includes the broadcast 255.255.255.255
    )
)

_IPV6_RANGES: tuple[tuple[Network, str], ...] = tuple(
    (ip_network(net), reason)
    for net, reason in (
        ("::/128", "the unspecified address"),
        ("::1/128", "a loopback address"),
        ("fe80::/10", "a link-local address"),
        ("fc00::/7", "a private (unique local) address"),
        ("ff00::/8", "a multicast address"),
        ("100::/64", "a discard-only address"),
        ("2001:db8::/32", "a documentation address"),
    )
)

_NAT64 = ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ip_network("::/96")


def parse_address(value: Address | str) -> Address | None:
    """An address object, or None when ``value`` is not an IP address."""
    if isinstance(value, IPv4Address | IPv6Address):
        return value
    try:
        return ip_address(value.strip().strip("[]"))
    except ValueError:
        return None


def embedded_ipv4(ip: Address) -> list[tuple[IPv4Address, str]]:
    """The IPv4 addresses an IPv6 address carries, each with the name of the scheme.

    ``ipaddress`` judges ``::ffff:127.0.0.1`` as not loopback, so the embedded address has
    to be checked on its own.
    """
    if isinstance(ip, IPv4Address):
        return []
    found: list[tuple[IPv4Address, str]] = []
    if ip.ipv4_mapped is not None:
        found.append((ip.ipv4_mapped, "IPv4-mapped"))
    if ip.sixtofour is not None:
        found.append((ip.sixtofour, "6to4"))
    if ip.teredo is not None:
        server, client = ip.teredo
        found += [(server, "Teredo"), (client, "Teredo")]
    if ip in _NAT64:
        found.append((IPv4Address(int(ip) & 0xFFFFFFFF), "NAT64"))
    if ip in _IPV4_COMPATIBLE and int(ip) > 1:  # :: and ::1 are their own rows
        found.append((IPv4Address(int(ip)), "IPv4-compatible"))
    return found


def is_metadata_address(value: Address | str) -> bool:
    """True for a cloud metadata address, also when embedded in an IPv6 address."""
    ip = parse_address(value)
    if ip is None:
        return False
    return ip in METADATA_ADDRESSES or any(v4 in METADATA_ADDRESSES for v4, _ in embedded_ipv4(ip))


def classify_address(value: Address | str) -> str | None:
    """Why the fetcher must not connect to this address (e.g. "a loopback address"), or None.

    Never raises: a value that is not an IP address is refused as such.
    """
    ip = parse_address(value)
    if ip is None:
        return "not an IP address"
    if is_metadata_address(ip):
        return METADATA_REASON
    for v4, scheme in embedded_ipv4(ip):
        inner = classify_address(v4)
        if inner is not None:
            return f"an {scheme} form of {v4}, {inner}"
    for network, reason in _IPV4_RANGES if ip.version == 4 else _IPV6_RANGES:
        if ip in network:
            return reason
    if not ip.is_global:
        return "a reserved address that is not publicly routable"
    return None


_HOST_NAME = re.compile(r"^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$")


@dataclass(frozen=True)
class AllowList:
    """Private hosts and networks an admin lets the fetcher reach (LLMWEB_FETCH_ALLOW)."""

    hosts: frozenset[str] = frozenset()
    networks: tuple[Network, ...] = field(default=())

    def permits(self, host: str, value: Address | str) -> bool:
        """True when ``host`` is listed by name or ``value`` lies in a listed network."""
        if _normalise_host(host) in self.hosts:
            return True
        ip = parse_address(value)
        if ip is None:
            return False
        candidates: list[Address] = [ip, *(v4 for v4, _ in embedded_ipv4(ip))]
        return any(c in net for c in candidates for net in self.networks if c.version == net.version)


@dataclass(frozen=True)
class Refusal:
    """An address the fetcher will not connect to, and why."""

    address: str
    reason: str
    always: bool  # metadata: no allow-list entry lifts it


def judge_address(host: str, value: Address | str, allow: AllowList) -> Refusal | None:
    """None when the fetcher may connect to ``value`` for ``host``, else the refusal."""
    if is_metadata_address(value):
        return Refusal(str(value), METADATA_REASON, always=True)
    reason = classify_address(value)
    if reason is None or allow.permits(host, value):
        return None
    return Refusal(str(value), reason, always=False)


def parse_allow_list(entries: str | Iterable[str] | None) -> AllowList:
    """Read comma-separated (or listed) host names, IP addresses and CIDR networks.

    Raises InvalidInput naming an entry that is none of these, so a typo in the setting
    is reported instead of silently allowing nothing.
    """
    if entries is None:
        return AllowList()
    items = entries.split(",") if isinstance(entries, str) else list(entries)
    hosts: set[str] = set()
    networks: list[Network] = []
    for raw in items:
        entry = raw.strip()
        if not entry:
            continue
        bare = entry.strip("[]")
        try:
            networks.append(ip_network(bare, strict=False))
            continue
        except ValueError:
            if "/" in entry:
                raise InvalidInput(_bad_entry(entry)) from None
        host = _normalise_host(entry)
        if not _HOST_NAME.match(host):
            raise InvalidInput(_bad_entry(entry))
        hosts.add(host)
    return AllowList(frozenset(hosts), tuple(networks))


def _normalise_host(host: str) -> str:
    host = host.strip().lower().rstrip(".")
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


def _bad_entry(entry: str) -> str:
    return (
        f"The fetch allow-list entry {entry!r} is not a host name, an IP address or a CIDR network "
        "(e.g. nas.lan, 192.168.1.10, 192.168.1.0/24). Fix LLMWEB_FETCH_ALLOW or the allow argument."
    )
