"""The session's loopback guard (testbed/loopback_guard.py) tells loopback from the rest, as values.

Only pure checks: exercising the hook live would itself be a step off loopback.
"""

from __future__ import annotations

import socket

import pytest

from testbed.loopback_guard import is_loopback_host, needs_dns, step_off_loopback


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "127.0.0.2", "127.1", "2130706433", "0x7f000001", "::1", "::ffff:127.0.0.1", "localhost"],
)
def test_loopback_in_any_spelling_is_loopback(host: str) -> None:
    assert is_loopback_host(host)


@pytest.mark.parametrize(
    "host",
    ["0.0.0.0", "", "::", "1.0", "16843009", "0x1010101", "192.0.2.1", "64:ff9b:1::7f00:1", "example.org"],
)
def test_every_other_address_or_name_is_not_loopback(host: str) -> None:
    assert not is_loopback_host(host)


@pytest.mark.parametrize(
    "host", ["example.org", "xn--a-.com", "localhost.", "127.0.0.1 example.org", "[::1]"]
)
def test_looking_up_a_name_needs_dns(host: str) -> None:
    assert needs_dns(host)


@pytest.mark.parametrize("host", [None, "localhost", "127.0.0.1", "1.0", "0x1010101", "::1", "fe80::1%lo"])
def test_looking_up_an_ip_literal_or_localhost_needs_no_dns(host: str | None) -> None:
    assert not needs_dns(host)


def test_a_numeric_only_lookup_of_any_text_needs_no_dns() -> None:
    assert not needs_dns("example.org", socket.AI_NUMERICHOST)


def test_connecting_beyond_loopback_is_a_step_off_it() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        assert step_off_loopback("socket.connect", (sock, ("192.0.2.1", 80))) is not None
        assert step_off_loopback("socket.connect", (sock, ("127.0.0.2", 80))) is None


def test_binding_every_address_is_a_step_off_loopback() -> None:
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
        assert step_off_loopback("socket.bind", (sock, ("::", 0, 0, 0))) is not None
        assert step_off_loopback("socket.bind", (sock, ("::1", 0, 0, 0))) is None


def test_a_unix_socket_is_on_this_machine() -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        assert step_off_loopback("socket.connect", (sock, "/tmp/nowhere.sock")) is None
