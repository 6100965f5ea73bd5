"""The one verifying TLS context llmweb's HTTP clients share: page fetches and searches.

Building a context reads the whole CA bundle: about 35 ms of CPU and 0.8 MB each, which a
context per call paid on every page and every search (plain http included) and 82 fetches
at once held 82 times over. A context serves any number of connections and threads; httpcore
only sets the same ALPN list on it for each connection. It is httpx's own default context,
so SSL_CERT_FILE and SSL_CERT_DIR count, read once, when the process's first call builds it.
"""

from __future__ import annotations

import ssl
import threading

import httpx

_LOCK = threading.Lock()
_BUILT: list[ssl.SSLContext] = []


def tls_context() -> ssl.SSLContext:
    """The process's TLS context, built on first use."""
    with _LOCK:
        if not _BUILT:
            _BUILT.append(httpx.create_ssl_context())
        return _BUILT[0]
