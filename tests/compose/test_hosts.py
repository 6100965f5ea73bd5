"""Hosts unlike this one: reached from the LAN, booted without IPv6."""

from __future__ import annotations

import json
from pathlib import Path

from compose.conftest import Deploy
from compose.deployment import SEARXNG, VALKEY

# Where the README tells a person to write the address the LAN uses (#18 point 2). The fix
# may choose another name; this constant is the one place to change.
BASE_URL_SETTING = "SEARXNG_BASE_URL"
LAN_BASE_URL = "http://192.168.1.50:8888/"


def test_the_base_url_from_env_is_what_opensearch_advertises(deploy: Deploy) -> None:
    stack = deploy(env={BASE_URL_SETTING: LAN_BASE_URL})
    stack.compose("up", "-d")
    stack.wait_healthy(SEARXNG, VALKEY)
    assert f"{LAN_BASE_URL}search" in stack.get("/opensearch.xml").text


# A kernel booted with ipv6.disable=1 refuses every IPv6 socket (EAFNOSUPPORT). A container
# cannot switch a kernel's IPv6 off (disable_ipv6 sysctls still let "::" be bound), but a
# seccomp filter can refuse socket(AF_INET6, ...) the same way, and allow everything else.
AF_INET6, EAFNOSUPPORT = 10, 97
KERNEL_WITHOUT_IPV6 = {
    "defaultAction": "SCMP_ACT_ALLOW",
    "syscalls": [
        {
            "names": ["socket"],
            "action": "SCMP_ACT_ERRNO",
            "errnoRet": EAFNOSUPPORT,
            "args": [{"index": 0, "value": AF_INET6, "op": "SCMP_CMP_EQ"}],
        }
    ],
}


def test_searxng_starts_on_a_host_without_ipv6(deploy: Deploy, tmp_path: Path) -> None:
    profile = tmp_path / "kernel-without-ipv6.json"
    profile.write_text(json.dumps(KERNEL_WITHOUT_IPV6))
    stack = deploy(override={"services": {SEARXNG: {"security_opt": [f"seccomp={profile}"]}}})
    stack.compose("up", "-d")
    stack.wait_healthy(SEARXNG, VALKEY, timeout=60)
