"""Which IP addresses the fetcher may connect to. Pure: addresses in, verdicts out.

A model's fetch request is untrusted (a page it read can ask for the router's admin page
or a cloud metadata service), so every address the resolver returns is judged here before
a connection is opened. The judgement rests on our own copy of IANA's special-purpose
registries, not on Python's ``is_global``, whose tables lag the registries (Python 3.11
calls the documentation block 3fff::/20 and the SRv6 block 5f00::/16 public).
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


@dataclass(frozen=True)
class SpecialBlock:
    """One row of a special-purpose registry: the block, and what the fetcher makes of it."""

    network: Network
    reachable: bool | None  # the registry's "Globally Reachable"; None: N/A, judged by what it embeds
    reason: str  # why it is refused, as a message says it ("a loopback address")


def _rows(*rows: tuple[str, bool | None, str]) -> tuple[SpecialBlock, ...]:
    blocks = (SpecialBlock(ip_network(net), reachable, reason) for net, reachable, reason in rows)
    # the most specific block decides: 192.0.0.9/32 (reachable) inside 192.0.0.0/24 (not)
    return tuple(sorted(blocks, key=lambda block: -block.network.prefixlen))


# Every row of the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890, as
# updated by RFC 8190), transcribed on 2026-12-01 from
# https://www.iana.org/assignments/iana-ipv4-special-registry/ and
# https://www.iana.org/assignments/iana-ipv6-special-registry/ (the newest row then:
# 100:0:0:1::/64, RFC 9780, 2025). A block whose Globally Reachable is False is refused.
# Two terminated rows (192.88.99.0/24, 2001:10::/28) have blank columns: nothing public
# lives there any more, so they are refused too. Multicast (224.0.0.0/4, ff00::/8) comes
# from the IPv4 Multicast and IPv6 Address Space registries. Update this table when IANA
# adds a row; test_addresses.py names each block.
IPV4_SPECIAL = _rows(
    ("0.0.0.0/8", False, "a 'this network' address"),  # RFC 791
    ("0.0.0.0/32", False, "the 'this host' address"),  # RFC 1122
    ("10.0.0.0/8", False, "a private address"),  # RFC 1918
    ("100.64.0.0/10", False, "a shared (carrier-grade NAT) address"),  # RFC 6598
    ("127.0.0.0/8", False, "a loopback address"),  # RFC 1122
    ("169.254.0.0/16", False, "a link-local address"),  # RFC 3927
    ("172.16.0.0/12", False, "a private address"),  # RFC 1918
    ("192.0.0.0/24", False, "an IETF protocol address"),  # RFC 6890
    ("192.0.0.0/29", False, "an IPv4 service continuity address"),  # RFC 7335
    ("192.0.0.8/32", False, "the IPv4 dummy address"),  # RFC 7600
    ("192.0.0.9/32", True, "Port Control Protocol anycast"),  # RFC 7723
    ("192.0.0.10/32", True, "TURN anycast"),  # RFC 8155
    ("192.0.0.170/32", False, "a NAT64/DNS64 discovery address"),  # RFC 8880, RFC 7050
    ("192.0.0.171/32", False, "a NAT64/DNS64 discovery address"),  # RFC 8880, RFC 7050
    ("192.0.2.0/24", False, "a documentation address"),  # RFC 5737
    ("192.31.196.0/24", True, "AS112"),  # RFC 7535
    ("192.52.193.0/24", True, "AMT"),  # RFC 7450
    ("192.88.99.0/24", False, "a deprecated 6to4 relay anycast address"),  # RFC 7526, terminated 2015-03
    ("192.88.99.2/32", False, "the 6a44 relay anycast address"),  # RFC 6751
    ("192.168.0.0/16", False, "a private address"),  # RFC 1918
    ("192.175.48.0/24", True, "AS112 direct delegation"),  # RFC 7534
    ("198.18.0.0/15", False, "a benchmarking address"),  # RFC 2544
    ("198.51.100.0/24", False, "a documentation address"),  # RFC 5737
    ("203.0.113.0/24", False, "a documentation address"),  # RFC 5737
    ("240.0.0.0/4", False, "a reserved address"),  # RFC 1112
    ("255.255.255.255/32", False, "the limited broadcast address"),  # RFC 8190, RFC 919
    ("224.0.0.0/4", False, "a multicast address"),  # IPv4 Multicast Address Space registry
)
IPV6_SPECIAL = _rows(
    ("::1/128", False, "a loopback address"),  # RFC 4291
    ("::/128", False, "the unspecified address"),  # RFC 4291
    ("::ffff:0:0/96", False, "an IPv4-mapped address, never sent on the wire"),  # RFC 4291
    ("64:ff9b::/96", True, "the well-known NAT64 prefix"),  # RFC 6052
    ("64:ff9b:1::/48", False, "a local-use NAT64 address"),  # RFC 8215
    ("100::/64", False, "a discard-only address"),  # RFC 6666
    ("100:0:0:1::/64", False, "a dummy IPv6 address"),  # RFC 9780
    ("2001::/23", False, "an IETF protocol address"),  # RFC 2928
    ("2001::/32", None, "Teredo"),  # RFC 4380, RFC 8190
    ("2001:1::1/128", True, "Port Control Protocol anycast"),  # RFC 7723
    ("2001:1::2/128", True, "TURN anycast"),  # RFC 8155
    ("2001:1::3/128", True, "DNS-SD service registration anycast"),  # RFC 9665
    ("2001:2::/48", False, "a benchmarking address"),  # RFC 5180, RFC Errata 1752
    ("2001:3::/32", True, "AMT"),  # RFC 7450
    ("2001:4:112::/48", True, "AS112"),  # RFC 7535
    ("2001:10::/28", False, "a deprecated ORCHID address"),  # RFC 4843, terminated 2014-03
    ("2001:20::/28", True, "ORCHIDv2"),  # RFC 7343
    ("2001:30::/28", True, "Drone Remote ID entity tags"),  # RFC 9374
    ("2001:db8::/32", False, "a documentation address"),  # RFC 3849
    ("2002::/16", None, "6to4"),  # RFC 3056
    ("2620:4f:8000::/48", True, "AS112 direct delegation"),  # RFC 7534
    ("3fff::/20", False, "a documentation address"),  # RFC 9637
    ("5f00::/16", False, "a Segment Routing (SRv6) SID"),  # RFC 9602
    ("fc00::/7", False, "a private (unique local) address"),  # RFC 4193
    ("fe80::/10", False, "a link-local address"),  # RFC 4291
    ("fec0::/10", False, "a deprecated site-local address"),  # RFC 3879; IPv6 Address Space registry
    ("ff00::/8", False, "a multicast address"),  # RFC 4291; IPv6 Address Space registry
)
# IANA's IPv6 Address Space registry: only 2000::/3 is global unicast; the rest is reserved.
GLOBAL_UNICAST = ip_network("2000::/3")

_NAT64 = ip_network("64:ff9b::/96")
_LOCAL_NAT64 = ip_network("64:ff9b:1::/48")  # RFC 8215; this reads the /96 form, IPv4 in the last 32 bits
_IPV4_TRANSLATED = ip_network("::ffff:0:0:0/96")  # SIIT, RFC 2765
_IPV4_COMPATIBLE = ip_network("::/96")


def parse_address(value: Address | str) -> Address | None:
    """An address object without any IPv6 zone (``%eth0``), or None when ``value`` is not an IP address.

    Every judgement reads the address without its zone: ``ipaddress`` compares the zone too,
    so ``fd00:ec2::254%1`` would equal no metadata address and match no listed block. The zone
    only picks the interface a link-local address is reached through; the connection still
    uses the resolver's answer as it was.
    """
    if isinstance(value, IPv6Address) and value.scope_id is not None:
        return IPv6Address(int(value))
    if isinstance(value, IPv4Address | IPv6Address):
        return value
    if not isinstance(value, str):
        return None
    try:
        ip = ip_address(value.strip().strip("[]"))
    except ValueError:
        return None
    return IPv6Address(int(ip)) if isinstance(ip, IPv6Address) and ip.scope_id is not None else ip


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
    last32 = IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _NAT64:
        found.append((last32, "NAT64"))
    if ip in _LOCAL_NAT64:
        found.append((last32, "local-use NAT64"))
    if ip in _IPV4_TRANSLATED:
        found.append((last32, "IPv4-translated (SIIT)"))
    if ip in _IPV4_COMPATIBLE and int(ip) > 1:  # :: and ::1 are their own rows
        found.append((last32, "IPv4-compatible"))
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
            return f"the {scheme} form of {v4}, {inner}"
    for block in IPV4_SPECIAL if ip.version == 4 else IPV6_SPECIAL:
        if ip in block.network and block.reachable is not None:
            return None if block.reachable else block.reason
    if ip.version == 6 and ip not in GLOBAL_UNICAST:
        return "an address outside the global unicast space 2000::/3, which IANA keeps reserved"
    return None


_HOST_NAME = re.compile(r"^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$")


@dataclass(frozen=True)
class AllowList:
    """Private hosts and networks an admin lets the fetcher reach (LLMWEB_FETCH_ALLOW)."""

    hosts: frozenset[str] = frozenset()
    networks: tuple[Network, ...] = field(default=())

    def permits(self, host: str, value: Address | str) -> bool:
        """True when ``host`` is listed by name or ``value`` lies in a listed network.

        An IPv4-mapped address (``::ffff:10.0.0.5``) is its IPv4 address, so it counts as that;
        the other forms that carry an IPv4 address (6to4, NAT64, Teredo) reach a relay or a
        translator, another machine, so allowing 10.0.0.5 does not allow them."""
        if _normalise_host(host) in self.hosts:
            return True
        ip = parse_address(value)
        if ip is None:
            return False
        mapped = ip.ipv4_mapped if isinstance(ip, IPv6Address) else None
        candidates: list[Address] = [ip] if mapped is None else [ip, mapped]
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
    if reason is None or (reason != "not an IP address" and allow.permits(host, value)):
        return None
    return Refusal(str(value), reason, always=False)


def parse_allow_list(entries: str | Iterable[str] | object | None) -> AllowList:
    """Read comma-separated (or listed) host names, IP addresses and CIDR networks.

    Raises InvalidInput naming an entry that is none of these, so a typo in the setting
    is reported instead of silently allowing nothing.
    """
    if entries is None:
        return AllowList()
    if isinstance(entries, str):
        items: list[object] = list(entries.split(","))
    elif isinstance(entries, Iterable) and not isinstance(entries, bytes | bytearray):
        items = list(entries)
    else:
        raise InvalidInput(_not_a_list(entries))
    hosts: set[str] = set()
    networks: list[Network] = []
    for raw in items:
        if not isinstance(raw, str):
            raise InvalidInput(_not_a_list(raw))
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


def _not_a_list(value: object) -> str:
    return (
        f"The fetch allow list must be a comma-separated string or a list of strings, and it holds "
        f"a {type(value).__name__}. Pass host names, IP addresses or CIDR networks as text (e.g. '192.168.1.10')."
    )


def _bad_entry(entry: str) -> str:
    return (
        f"The fetch allow-list entry {entry!r} is not a host name, an IP address or a CIDR network "
        "(e.g. nas.lan, 192.168.1.10, 192.168.1.0/24). Fix LLMWEB_FETCH_ALLOW or the allow argument."
    )
