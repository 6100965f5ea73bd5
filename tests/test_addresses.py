"""Which addresses the fetcher may reach: the pure classification, no network at all.

Private, link-local and metadata ranges are only ever tested here, never by connecting.
"""

from __future__ import annotations

import ipaddress
from ipaddress import IPv4Address, IPv6Address

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmweb.errors import InvalidInput
from llmweb.fetch.net.addresses import classify_address, judge_address, parse_allow_list

NOTHING_ALLOWED = parse_allow_list("")


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("127.0.0.1", "loopback"),
        ("127.255.0.9", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("172.31.255.254", "private"),
        ("192.168.1.1", "private"),
        ("100.64.0.1", "shared"),
        ("100.127.255.254", "shared"),
        ("169.254.1.1", "link-local"),
        ("0.0.0.0", "this host"),
        ("0.1.2.3", "this network"),
        ("192.0.0.100", "IETF"),
        ("192.0.0.1", "service continuity"),
        ("192.0.0.8", "dummy"),
        ("192.0.0.170", "NAT64/DNS64 discovery"),
        ("192.88.99.1", "deprecated"),
        ("192.88.99.2", "6a44"),
        ("192.0.2.1", "documentation"),
        ("198.51.100.7", "documentation"),
        ("203.0.113.9", "documentation"),
        ("198.18.0.1", "benchmarking"),
        ("224.0.0.1", "multicast"),
        ("240.0.0.1", "reserved"),
        ("255.255.255.255", "broadcast"),
    ],
)
def test_special_ipv4_ranges_are_refused_with_their_reason(address: str, reason: str) -> None:
    assert reason in (classify_address(address) or "")


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("::1", "loopback"),
        ("::", "unspecified"),
        ("fe80::1", "link-local"),
        ("fc00::1", "private"),
        ("fd12:3456::1", "private"),
        ("ff02::1", "multicast"),
        ("100::1", "discard"),
        ("2001:db8::1", "documentation"),
        # newer than the tables of Python 3.11's is_global, which calls these public
        ("3fff::1", "documentation"),
        ("5f00::1", "SRv6"),
        ("100:0:0:1::1", "dummy"),
        ("2001:2::1", "benchmarking"),
        ("2001:10::1", "deprecated"),
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", "IETF"),  # Teredo, though both its IPv4 addresses are public
        ("::ffff:8.8.8.8", "IPv4-mapped"),  # never on the wire (RFC 4291), whatever IPv4 address it carries
        # outside 2000::/3, the only global unicast space IANA allocates
        ("4000::1", "global unicast"),
        ("fec0::1", "site-local"),
    ],
)
def test_special_ipv6_ranges_are_refused_with_their_reason(address: str, reason: str) -> None:
    assert reason in (classify_address(address) or "")


@pytest.mark.parametrize(
    ("address", "embedded", "scheme"),
    [
        ("::ffff:127.0.0.1", "127.0.0.1", "IPv4-mapped"),
        ("::ffff:192.168.0.1", "192.168.0.1", "IPv4-mapped"),
        ("2002:7f00:1::1", "127.0.0.1", "6to4"),
        ("2002:a00:1::1", "10.0.0.1", "6to4"),
        ("64:ff9b::7f00:1", "127.0.0.1", "NAT64"),
        ("64:ff9b::c0a8:101", "192.168.1.1", "NAT64"),
        # Teredo stores the client address inverted: ~127.0.0.1 == 0x80fffffe
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "127.0.0.1", "Teredo"),
        ("::7f00:1", "127.0.0.1", "IPv4-compatible"),
        ("64:ff9b:1::7f00:1", "127.0.0.1", "local-use NAT64"),
        ("64:ff9b:1::a00:1", "10.0.0.1", "local-use NAT64"),
        ("::ffff:0:7f00:1", "127.0.0.1", "IPv4-translated"),
    ],
)
def test_ipv6_addresses_embedding_a_refused_ipv4_address_are_refused(
    address: str, embedded: str, scheme: str
) -> None:
    reason = classify_address(address) or ""
    assert scheme in reason
    assert embedded in reason


@pytest.mark.parametrize(
    "address", ["93.184.215.14", "1.1.1.1", "8.8.4.4", "2606:4700:4700::1111", "2a00:1450::1"]
)
def test_public_addresses_are_not_refused(address: str) -> None:
    assert classify_address(address) is None


@pytest.mark.parametrize(
    "address",
    [
        "192.0.0.9",  # Port Control Protocol anycast, inside the refused 192.0.0.0/24
        "192.0.0.10",  # TURN anycast
        "192.31.196.1",  # AS112
        "192.52.193.1",  # AMT
        "192.175.48.6",  # AS112 direct delegation
        "2001:1::1",  # PCP anycast, inside the refused 2001::/23
        "2001:1::3",  # DNS-SD service registration anycast
        "2001:3::1",  # AMT
        "2001:4:112::1",  # AS112
        "2001:20::1",  # ORCHIDv2
        "2620:4f:8000::6",  # AS112 direct delegation
        "64:ff9b::808:808",  # the well-known NAT64 prefix around a public IPv4 address
        "2002:808:808::1",  # 6to4 around a public IPv4 address
    ],
)
def test_special_purpose_blocks_the_registry_calls_globally_reachable_are_not_refused(address: str) -> None:
    assert classify_address(address) is None


@pytest.mark.parametrize(
    "address", ["::ffff:0:a9fe:a9fe", "64:ff9b:1::a9fe:a9fe", "64:ff9b::a9fe:a9fe", "2002:a9fe:a9fe::1"]
)
def test_a_metadata_address_inside_any_ipv6_wrapping_is_a_metadata_address(address: str) -> None:
    assert classify_address(address) == "a cloud metadata address"


@pytest.mark.parametrize(
    "address",
    [
        "169.254.169.254",
        "169.254.170.2",
        "168.63.129.16",
        "100.100.100.200",
        "fd00:ec2::254",
        "::ffff:169.254.169.254",
    ],
)
def test_cloud_metadata_addresses_are_refused(address: str) -> None:
    assert classify_address(address) == "a cloud metadata address"


@pytest.mark.parametrize(
    ("allow", "address"),
    [
        ("169.254.0.0/16", "169.254.169.254"),
        ("168.63.129.16", "168.63.129.16"),
        ("100.64.0.0/10", "100.100.100.200"),
        ("fd00::/8", "fd00:ec2::254"),
        ("metadata.internal", "169.254.169.254"),
    ],
)
def test_metadata_addresses_stay_refused_even_when_allowed(allow: str, address: str) -> None:
    refusal = judge_address("metadata.internal", address, parse_allow_list(allow))
    assert refusal is not None
    assert refusal.always


def test_an_allowed_network_lets_its_private_addresses_through() -> None:
    allow = parse_allow_list("192.168.1.0/24")
    assert judge_address("nas", "192.168.1.20", allow) is None


def test_an_allowed_network_does_not_open_its_neighbours() -> None:
    allow = parse_allow_list("192.168.1.0/24")
    refusal = judge_address("router", "192.168.2.1", allow)
    assert refusal is not None
    assert "private" in refusal.reason


def test_an_allowed_single_address_opens_only_that_address() -> None:
    allow = parse_allow_list("10.0.0.5")
    assert judge_address("wiki", "10.0.0.5", allow) is None
    assert judge_address("wiki", "10.0.0.6", allow) is not None


def test_an_allowed_host_name_opens_whatever_private_address_it_resolves_to() -> None:
    allow = parse_allow_list("nas.lan")
    assert judge_address("NAS.lan.", "192.168.7.7", allow) is None
    assert judge_address("other.lan", "192.168.7.7", allow) is not None


def test_an_allowed_ipv4_address_also_opens_its_ipv4_mapped_form() -> None:
    assert judge_address("x", "::ffff:127.0.0.1", parse_allow_list("127.0.0.1")) is None


@pytest.mark.parametrize(
    "address",
    ["64:ff9b::7f00:1", "64:ff9b:1::7f00:1", "2002:7f00:1::1", "2001:0:4136:e378:8000:63bf:80ff:fffe"],
    ids=["NAT64", "local-use NAT64", "6to4", "Teredo"],
)
def test_an_allowed_ipv4_address_does_not_open_a_relay_carrying_it(address: str) -> None:
    """These reach a translator or relay (another machine) that would pass the traffic on."""
    assert judge_address("x", address, parse_allow_list("127.0.0.1")) is not None


def test_allow_list_entries_are_comma_separated_and_trimmed() -> None:
    allow = parse_allow_list(" 10.0.0.0/8 , wiki.home ,, fd00::/8 ")
    assert judge_address("a", "10.9.9.9", allow) is None
    assert judge_address("wiki.home", "192.168.0.2", allow) is None
    assert judge_address("b", "fd00::1", allow) is None


def test_allow_list_accepts_a_list_of_entries() -> None:
    assert judge_address("a", "10.9.9.9", parse_allow_list(["10.0.0.0/8"])) is None


def test_an_empty_allow_list_refuses_every_private_address() -> None:
    assert judge_address("a", "10.0.0.1", NOTHING_ALLOWED) is not None


@pytest.mark.parametrize(
    "entry", ["10.0.0.0/33", "300.1.1.1/8", "not a host", "nas.lan:8080", "http://nas.lan"]
)
def test_a_malformed_allow_list_entry_is_reported_by_name(entry: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_allow_list(f"10.0.0.1,{entry}")
    assert repr(entry) in str(caught.value)
    assert "LLMWEB_FETCH_ALLOW" in str(caught.value)


def test_a_value_that_is_not_an_address_is_refused_rather_than_an_error() -> None:
    assert classify_address("not-an-ip") == "not an IP address"


@given(st.ip_addresses())
def test_classification_never_raises_on_any_address(address: IPv4Address | IPv6Address) -> None:
    reason = classify_address(address)
    assert reason is None or isinstance(reason, str)
    assert classify_address(str(address)) == reason


@given(st.ip_addresses(), st.text(max_size=30))
def test_judging_never_raises_on_any_address_and_host(address: IPv4Address | IPv6Address, host: str) -> None:
    refusal = judge_address(host, address, NOTHING_ALLOWED)
    assert (refusal is None) == (classify_address(address) is None)


@given(st.text(max_size=60))
def test_any_string_that_is_not_an_address_is_refused_as_such(value: str) -> None:
    try:
        ipaddress.ip_address(value.strip().strip("[]"))  # brackets and spaces as a URL host may carry them
        an_address = True
    except ValueError:
        an_address = False
    assert (classify_address(value) == "not an IP address") == (not an_address)


# --- IPv6 zones: an address is judged without its scope -----------------------------------


@pytest.mark.parametrize("address", ["fd00:ec2::254%1", "fd00:ec2::254%eth0", "[fd00:ec2::254%1]"])
def test_a_metadata_address_with_a_zone_stays_blocked_when_its_network_is_allowed(address: str) -> None:
    refusal = judge_address("metadata.test", address, parse_allow_list("fd00::/8"))
    assert refusal is not None and refusal.always


def test_a_metadata_address_object_with_a_zone_stays_blocked_when_its_network_is_allowed() -> None:
    refusal = judge_address("metadata.test", IPv6Address("fd00:ec2::254%1"), parse_allow_list("fd00::/8"))
    assert refusal is not None and refusal.always


@pytest.mark.parametrize(
    ("address", "reason"),
    [("::1%lo", "loopback"), ("fe80::1%eth0", "link-local"), ("::ffff:127.0.0.1%2", "IPv4-mapped")],
)
def test_an_address_with_a_zone_is_classified_as_the_address_without_it(address: str, reason: str) -> None:
    verdict = classify_address(address)
    assert verdict is not None and reason in verdict


def test_an_allowed_network_permits_its_link_local_address_with_a_zone() -> None:
    assert judge_address("printer.lan", "fe80::1%eth0", parse_allow_list("fe80::/64")) is None


# --- the allow list a calling program passes ------------------------------------------------


@pytest.mark.parametrize("entries", [[127], 127, b"127.0.0.1", ["127.0.0.1", None]], ids=repr)
def test_an_allow_list_that_is_not_text_is_invalid_input(entries: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_allow_list(entries)
    assert "list of strings" in str(caught.value)


def test_an_allow_list_may_be_any_iterable_of_strings() -> None:
    allowed = parse_allow_list(entry for entry in ["nas.lan", "10.0.0.0/8"])
    assert judge_address("nas.lan", "192.168.1.5", allowed) is None
