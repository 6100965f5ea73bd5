"""A client run inside a container of the stack (standard library only): GET each URL in turn.

    python - URLS_JSON HEADERS_JSON < replica_client.py

prints one JSON list, one entry per URL: the status and the body. The swarm suite runs it in a
searxng replica to reach each replica by its own address, bypassing the entry point.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request


def fetch(url: str, headers: dict[str, str]) -> dict[str, object]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return {"status": answer.status, "body": answer.read().decode(errors="replace")}
    except urllib.error.HTTPError as error:
        return {"status": error.code, "body": error.read().decode(errors="replace")}


def main() -> None:
    urls, headers = json.loads(sys.argv[1]), json.loads(sys.argv[2])
    print(json.dumps([fetch(url, headers) for url in urls]))


if __name__ == "__main__":
    main()
