"""A client inside a container of the compose suite (standard library only): GET a URL n times.

    python http_client.py URL COUNT HEADERS_JSON

prints one JSON list, one entry per request: the status and the body.
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
    url, count, headers = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
    print(json.dumps([fetch(url, headers) for _ in range(count)]))


if __name__ == "__main__":
    main()
