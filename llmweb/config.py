"""Environment defaults, read at call time so a caller can change them between calls."""

from __future__ import annotations

import os
from importlib import metadata

PRODUCT = f"llmweb/{metadata.version('llmweb')}"
"""The product token both User-Agents start with (search and fetch), from the package's version."""

# Where scripts/serve and docker compose listen: settings.yml's server.bind_address and
# server.port (tests/test_settings_agree.py holds the two in step; the client may be installed
# where settings.yml is not).
DEFAULT_SEARXNG_URL = "http://127.0.0.1:8888"
DEFAULT_MCP_HOST = "127.0.0.1"  # the MCP server's HTTP transport: loopback unless asked otherwise
SEARXNG_URL_HELP = f"SearXNG's address (default: LLMWEB_SEARXNG_URL or {DEFAULT_SEARXNG_URL})"


def searxng_url() -> str:
    """LLMWEB_SEARXNG_URL, else the local deployment's address."""
    return os.environ.get("LLMWEB_SEARXNG_URL", "").strip() or DEFAULT_SEARXNG_URL


def fetch_allow() -> str:
    """LLMWEB_FETCH_ALLOW: comma-separated hosts or networks the fetcher may reach although private."""
    return os.environ.get("LLMWEB_FETCH_ALLOW", "").strip()
