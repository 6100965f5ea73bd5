"""Open WebUI beside the stack (#9 point 3): its compose profile joins the network and finds
SearXNG by service name. Open WebUI's image cannot be built here, so a small container stands
in for it: the profile's own service, with its own networks and environment, only the image
swapped, asks the query URL the profile configures the way Open WebUI asks it."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode, urlsplit

import yaml

from compose import http_client
from compose.conftest import Deploy
from compose.deployment import REPO, SEARXNG, VALKEY
from compose.engine import docker
from compose.images import Images

OPEN_WEBUI_PROFILE = "openwebui"  # `docker compose --profile openwebui up -d`
QUERY_URL_SETTING = "SEARXNG_QUERY_URL"  # Open WebUI's setting for its SearXNG engine
# What Open WebUI sends (retrieval/web/searxng.py): its own fields on the query URL's path.
OPEN_WEBUI_FIELDS = {"format": "json", "pageno": "1", "safesearch": "1", "language": "all", "time_range": ""}
OPEN_WEBUI_FIELDS |= {"categories": "", "theme": "simple", "image_proxy": "0"}
OPEN_WEBUI_HEADERS = {
    "Accept": "text/html",
    "User-Agent": "Open WebUI (https://github.com/open-webui/open-webui) RAG Bot",
}


def open_webui_service() -> str:
    services: dict[str, Any] = yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]
    named = [name for name, s in services.items() if OPEN_WEBUI_PROFILE in (s.get("profiles") or [])]
    assert named, f"docker-compose.yml has no service in the profile {OPEN_WEBUI_PROFILE!r}"
    return named[0]


def test_the_open_webui_profile_reaches_searxng_by_service_name(deploy: Deploy, images: Images) -> None:
    service = open_webui_service()
    stand_in = {
        "image": images.searxng,
        # Stays up for `exec`, and stops at once (a bare sleep as PID 1 would ignore SIGTERM).
        "entrypoint": ["sh", "-c", "trap exit TERM; sleep infinity & wait"],
        "healthcheck": {"test": ["CMD", "true"]},
        "volumes": [f"{http_client.__file__}:/client.py:ro"],
        "tmpfs": ["/etc/searxng", "/var/cache/searxng"],  # the stand-in image's volumes
    }
    stack = deploy(override={"services": {service: stand_in}})
    stack.compose("--profile", OPEN_WEBUI_PROFILE, "up", "-d")
    stack.wait_healthy(SEARXNG, VALKEY)
    env = dict(
        e.split("=", 1)
        for e in json.loads(docker("inspect", "-f", "{{json .Config.Env}}", stack.container(service)))
    )
    query_url = env[QUERY_URL_SETTING]
    assert urlsplit(query_url).hostname == SEARXNG
    url = query_url.split("?")[0] + "?" + urlencode({"q": "pogoda", **OPEN_WEBUI_FIELDS})
    out = stack.compose(
        "exec",
        "-T",
        service,
        "/usr/local/searxng/.venv/bin/python",
        "/client.py",
        url,
        "1",
        json.dumps(OPEN_WEBUI_HEADERS),
    )
    [answer] = json.loads(out)
    assert answer["status"] == 200
    assert json.loads(answer["body"])["results"]
