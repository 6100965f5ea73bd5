"""The fake Brave Search API of the compose suite: runs inside a container, standard library only.

It listens with TLS on the compose network under the name ``api.search.brave.com``, so the
engine's real URL is what SearXNG asks. Every request gets the answer in ``--answer`` (a Brave
answer as JSON) and is appended to ``--log`` as one JSON line: method, path, query parameters
and headers, with the subscription token replaced by its SHA-256 (the key is never written).

    python fake_brave.py --answer answer.json --log requests.jsonl --cert c.pem --key k.pem
"""

from __future__ import annotations

import argparse
import hashlib
import json
import signal
import ssl
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

TOKEN_HEADER = "x-subscription-token"


def token_digest(token: str) -> str:
    """How the log names a key: its SHA-256, so a test can check it without the key in a file."""
    return "sha256:" + hashlib.sha256(token.encode()).hexdigest()


def serve(answer: bytes, log: Path, cert: Path, key: Path, port: int) -> None:
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            headers = {name.lower(): value for name, value in self.headers.items()}
            if TOKEN_HEADER in headers:
                headers[TOKEN_HEADER] = token_digest(headers[TOKEN_HEADER])
            record = {
                "method": "GET",
                "path": parts.path,
                "params": parse_qsl(parts.query),
                "headers": headers,
            }
            with lock, log.open("a") as out:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
            self.send_response(200)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: object) -> None:
            pass  # the JSON lines are the log

    server = ThreadingHTTPServer(("0.0.0.0", port), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"fake Brave listening on {port}", flush=True)
    server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answer", type=Path, required=True)
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument("--cert", type=Path, required=True)
    parser.add_argument("--key", type=Path, required=True)
    parser.add_argument("--port", type=int, default=443)
    args = parser.parse_args()
    # As a container's PID 1, Python would ignore SIGTERM and make every stop wait for SIGKILL.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    serve(args.answer.read_bytes(), args.log, args.cert, args.key, args.port)


if __name__ == "__main__":
    main()
