# SPDX-License-Identifier: AGPL-3.0-or-later
"""The limiter judges the real client, stays on when valkey is late, and the log stays readable.

SearXNG's bot detection takes a client's address from ``X-Forwarded-For`` or ``X-Real-IP``
without checking that the connecting peer is a proxy at all, so any client could name an
address on the pass list and spend the Brave quota unlimited. This plugin wraps the WSGI
application (outside SearXNG's own ProxyFix): those headers count only when the peer is a
declared proxy — an address in ``botdetection.trusted_proxies`` as the admin wrote it in
limiter.toml (SearXNG itself always adds loopback to that list; here only what the file
says counts), or a proxy that proves itself with the ``X-Llmweb-Proxy-Token`` header equal
to ``LLMWEB_PROXY_TOKEN`` (the compose profiles' reverse proxy, whose container address
Docker picks) — and every other request carries its peer as ``X-Real-IP``, which is also
what keeps SearXNG from logging an ERROR that no such header is set. A request presenting a
token that does not match is put down to one address on no pass list (WRONG_TOKEN_ADDRESS),
so that forging the header never passes as the peer's own address. The token header is
removed before SearXNG sees the request.

The WSGI server files ``X_Forwarded_For`` and ``X-Forwarded-For`` under one key, the later
winning, so a proxy in front must drop header names with underscores (settings/upstream.caddy
does; nginx does by default).

SearXNG connects to valkey once at start and, failing, runs without the limiter for good.
Here the limiter stays installed with a client that connects on first use, so it works as
soon as valkey answers; while valkey is away, clients outside the pass list get a clear 503
instead of an HTTP 500 (the household, on the pass list, never touches valkey).

Per-request log lines (the limiter's "PASS … matched PASSLIST" warning) are dropped; start-up,
engines, keys, rate limits and outages still reach the log.

A request whose form is bigger than MAX_FORM_BYTES, or whose query ``q`` is longer than
MAX_QUERY_CHARS, is refused with a JSON error (413 or 400) before SearXNG reads it: SearXNG
parses the whole form, the query and its preferences and echoes the query back, which cost
7 s for a 10 MB query.

.. code:: yaml

  plugins:
    searx.plugins.llmweb.guard.SXNGPlugin:
      active: true
"""

from __future__ import annotations

import hmac
import io
import ipaddress
import json
import logging
import os
import time
import tomllib
import typing as t
from pathlib import Path

import flask
import valkey
from searx import get_setting, limiter, settings_loader, valkeydb
from searx.plugins import Plugin, PluginCfg, PluginInfo
from werkzeug.wrappers import Request

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

PROXY_TOKEN_ENV = "LLMWEB_PROXY_TOKEN"
"""A shared secret a reverse proxy sends in PROXY_TOKEN_HEADER to be believed; empty: none can.
LLMWEB_PROXY_TOKEN_FILE may name a file holding it instead (a Swarm secret, deploy/swarm.yml)."""
SECRET_FILE_MAX_BYTES = 4096
PROXY_TOKEN_HEADER = "HTTP_X_LLMWEB_PROXY_TOKEN"  # X-Llmweb-Proxy-Token in the WSGI environment
WRONG_TOKEN_ADDRESS = "100::1"
"""Where a request presenting a token that does not match is said to come from: an address of
IPv6's discard-only block (RFC 6666), on no pass list, so every such request shares one limit
instead of passing as the proxy's (or the peer's own) address."""
VALKEY_DOWN_LOG_SECONDS = 60.0
"""While valkey is away, the log says so at most once per this many seconds."""

MAX_QUERY_CHARS = 4000
"""The longest query SearXNG is given. Brave reads 400 characters (50 words) and the engine
cuts a longer query there at a word boundary, so a model that pastes a long error message
still gets a search; ten times Brave's limit leaves room for SearXNG's own syntax (``!bang``,
``:lang``, ``site:``) and a client that counts differently. Beyond it is a document, not a
query."""
MAX_FORM_BYTES = 64 * 1024
"""The biggest form (query string or POST body) read at all: MAX_QUERY_CHARS percent-encoded
four-byte characters (48 KB) and SearXNG's other, short fields."""

VALKEY_DOWN_TEXT = (
    "SearXNG's limiter database (valkey) does not answer, so requests from outside the household's "
    "networks are refused until it does. Admin: start valkey (docker compose up -d valkey), "
    "or restart scripts/serve. Requests from the pass list are not affected."
)


def parse_address(value: str | None) -> Address | None:
    """An address, IPv4-mapped IPv6 turned into IPv4; None for anything else."""
    try:
        address = ipaddress.ip_address((value or "").strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


class SecretFileError(Exception):
    """NAME_FILE names a file that cannot serve as the secret; the message never holds its text."""


def secret_from_environment(name: str, environ: Mapping[str, str] = os.environ) -> str:
    """``name`` from the environment, or the text of the file ``name``_FILE names, as the official
    database images read theirs (the engine reads BRAVE_API_KEY alike; it is a file of its own,
    so it has its own copy of these lines). Surrounding whitespace is dropped; both set at once is
    an error. Empty: no secret."""
    path = environ.get(name + "_FILE", "").strip()
    if not path:
        return environ.get(name, "").strip()
    if environ.get(name, "").strip():
        raise SecretFileError(f"both {name} and {name}_FILE are set: set only one")
    try:
        with open(path, "rb") as file:
            data = file.read(SECRET_FILE_MAX_BYTES + 1)
    except OSError as error:
        raise SecretFileError(f"{name}_FILE names {path}, which cannot be read ({error.strerror})") from None
    if len(data) > SECRET_FILE_MAX_BYTES:
        raise SecretFileError(f"{name}_FILE names {path}, longer than {SECRET_FILE_MAX_BYTES} bytes")
    try:
        return data.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise SecretFileError(f"{name}_FILE names {path}, which is not UTF-8 text") from None


class TrustedProxies:
    """The proxies whose forwarding headers are believed: peers in declared networks, or
    any peer that presents the shared token."""

    def __init__(self, networks: Iterable[str], token: str = "") -> None:
        self.networks: list[Network] = []
        for entry in networks:
            network = ipaddress.ip_network(entry.strip().strip("[]"), strict=False)
            if network not in self.networks:  # SearXNG's config adds upstream's defaults to ours
                self.networks.append(network)
        self._token = token.encode()

    def __str__(self) -> str:
        listed = ", ".join(n.compressed for n in self.networks) or "no network"
        return listed + (" and a proxy presenting LLMWEB_PROXY_TOKEN" if self._token else "")

    def trusts(self, peer: Address, token: str | None) -> bool:
        if any(peer.version == net.version and peer in net for net in self.networks):
            return True
        return bool(self._token and token) and hmac.compare_digest(str(token).encode(), self._token)


class ForwardedHeaderGuard:
    """WSGI middleware: X-Forwarded-For and X-Real-IP reach SearXNG only from a trusted proxy."""

    def __init__(self, app: WSGIApplication, proxies: TrustedProxies) -> None:
        self.app = app
        self.proxies = proxies

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        token = environ.pop(PROXY_TOKEN_HEADER, None)
        peer = parse_address(environ.get("REMOTE_ADDR"))
        if peer is not None:
            forwarded = environ.get("HTTP_X_FORWARDED_FOR") or environ.get("HTTP_X_REAL_IP")
            trusted = self.proxies.trusts(peer, token)
            if not trusted and token is not None:
                environ.pop("HTTP_X_FORWARDED_FOR", None)
                environ["HTTP_X_REAL_IP"] = WRONG_TOKEN_ADDRESS
            elif not forwarded or not trusted:
                environ.pop("HTTP_X_FORWARDED_FOR", None)
                environ["HTTP_X_REAL_IP"] = peer.compressed
        return self.app(environ, start_response)


def _refusal(start_response: StartResponse, status: str, message: str) -> list[bytes]:
    body = json.dumps({"error": message}).encode()
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]


def _content_length(environ: WSGIEnvironment) -> int | None:
    try:
        return max(int(environ.get("CONTENT_LENGTH") or ""), 0)
    except ValueError:
        return None


class QueryBound:
    """WSGI middleware: a form bigger than MAX_FORM_BYTES or a query longer than MAX_QUERY_CHARS
    gets a JSON error, before SearXNG parses anything. The body it reads (at most
    MAX_FORM_BYTES) is handed on as it came."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        too_big = f"request too large: a search form is at most {MAX_FORM_BYTES} bytes"
        if len(environ.get("QUERY_STRING", "")) > MAX_FORM_BYTES:
            return _refusal(start_response, "414 URI Too Long", too_big)
        length = _content_length(environ)
        if length is not None and length > MAX_FORM_BYTES:
            return _refusal(start_response, "413 Content Too Large", too_big)
        body = b""
        if length or environ.get("wsgi.input_terminated"):
            body = environ["wsgi.input"].read(MAX_FORM_BYTES + 1 if length is None else length)
            if len(body) > MAX_FORM_BYTES:
                return _refusal(start_response, "413 Content Too Large", too_big)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        # A query of more than MAX_QUERY_CHARS takes at least that many bytes: shorter forms,
        # nearly every request, are not parsed here.
        short = len(environ.get("QUERY_STRING", "")) + len(body) <= MAX_QUERY_CHARS
        query = "" if short else _query(environ, body)
        if len(query) > MAX_QUERY_CHARS:
            message = f"query too long: {len(query)} characters, at most {MAX_QUERY_CHARS}"
            return _refusal(start_response, "400 Bad Request", message)
        return self.app(environ, start_response)


def _query(environ: WSGIEnvironment, body: bytes) -> str:
    """``q`` as SearXNG reads it (werkzeug's parsing): the form's, else the query string's."""
    request = Request({**environ, "wsgi.input": io.BytesIO(body)})
    return str(request.form["q"] if "q" in request.form else request.args.get("q", ""))


def declared_proxies() -> list[str]:
    """``botdetection.trusted_proxies`` of the admin's limiter.toml, without upstream's defaults."""
    folder = settings_loader.get_user_cfg_folder()
    path = (folder or Path("/etc/searxng")) / "limiter.toml"
    if not path.is_file():
        return list(limiter.get_cfg().get("botdetection.trusted_proxies", default=[]))
    with path.open("rb") as file:
        declared = tomllib.load(file).get("botdetection", {}).get("trusted_proxies", [])
    return [str(entry) for entry in declared]


class _DropPerRequestLines(logging.Filter):
    """Drops the limiter's per-request "PASS <network>: matched PASSLIST" warning."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("PASS ")


class SXNGPlugin(Plugin):
    """Forwarded headers only from declared proxies, a limiter that survives valkey, a quiet log."""

    id = "llmweb_guard"

    def __init__(self, plg_cfg: PluginCfg) -> None:
        super().__init__(plg_cfg)
        self.info = PluginInfo(
            id=self.id,
            name="llmweb guard",
            description="Client addresses from declared proxies only; the limiter waits for valkey.",
            preference_section=None,  # a server setting, not a person's preference
        )
        self._valkey_down_logged = 0.0

    def init(self, app: flask.Flask) -> bool:
        if self.log.getEffectiveLevel() > logging.INFO:
            self.log.setLevel(logging.INFO)  # start-up lines of ours, whatever SearXNG's level
        try:
            token = secret_from_environment(PROXY_TOKEN_ENV)
        except SecretFileError as error:  # no proxy is believed by token: its clients count as the proxy
            self.log.error("%s; no proxy is believed by token", error)
            token = ""
        proxies = TrustedProxies(declared_proxies(), token)
        app.wsgi_app = QueryBound(ForwardedHeaderGuard(app.wsgi_app, proxies))  # type: ignore[method-assign]
        self.log.info("client address headers are believed only from: %s", proxies)
        logging.getLogger("searx.limiter").addFilter(_DropPerRequestLines())
        self._keep_limiter_on()
        app.register_error_handler(valkey.exceptions.ValkeyError, self._valkey_unreachable)
        return True

    def _keep_limiter_on(self) -> None:
        url = get_setting("valkey.url", None)
        if not url or valkeydb.client() is not None:
            return
        # SearXNG gave up on valkey at start and would leave the limiter (and llmweb's Brave
        # budget and cache) without it for good; a client that connects on first use keeps
        # them working as soon as valkey answers (valkeydb has no public setter).
        valkeydb._CLIENT = valkey.Valkey.from_url(url)
        if get_setting("server.limiter", False) or get_setting("server.public_instance", False):
            self.log.warning(
                "valkey does not answer yet; the limiter stays on and refuses clients outside the pass list "
                "until it does (the household is not affected)"
            )
        else:
            self.log.warning("valkey does not answer yet; it is used as soon as it does")

    def _valkey_unreachable(self, error: Exception) -> flask.Response:
        now = time.monotonic()
        if now - self._valkey_down_logged > VALKEY_DOWN_LOG_SECONDS:
            self._valkey_down_logged = now
            self.log.error("valkey does not answer (%s): refusing clients outside the pass list", error)
        response = flask.Response(VALKEY_DOWN_TEXT, status=503, mimetype="text/plain")
        response.headers["Retry-After"] = "30"
        return response
