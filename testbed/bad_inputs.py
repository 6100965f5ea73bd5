"""The bad-input table: unusable tool arguments and what their error must say.

Shared by tests/test_bad_input.py and ``scripts/bench reliability``. Every address in it is
on loopback, or refused before any connection.
"""

from __future__ import annotations

from typing import Any

# (tool, arguments, words the error must contain)
TOOL_CASES: list[tuple[str, Any, str]] = [
    ("web_search", {"query": ""}, "query"),
    ("web_search", {"query": " \t\n "}, "query is empty"),
    ("web_search", {"query": "słowo " * 200}, "at most 400 characters"),
    ("web_search", {"query": "a\x07b"}, "control characters"),
    ("web_search", {"query": "a\udcffb"}, "valid string"),  # a non-UTF-8 byte, as Python decodes it
    ("web_search", {"query": "q", "language": "klingon"}, "not a language code"),
    ("web_search", {"query": "q", "language": "xx"}, "not a language code"),
    ("web_search", {"query": "q", "page": 0}, "page"),
    ("web_search", {"query": "q", "page": 1000}, "page"),
    ("web_search", {"query": "q", "time_range": "decade"}, "time_range"),
    ("web_search", "{not json", "not valid JSON"),
    ("web_search", ["q"], "JSON object"),
    ("web_fetch", {"url": ""}, "needs a URL"),
    ("web_fetch", {"url": "/docs/intro.html"}, "relative address"),
    ("web_fetch", {"url": "example.org/page"}, "Did you mean https://example.org/page"),
    ("web_fetch", {"url": "file:///etc/passwd"}, "uses file:"),
    ("web_fetch", {"url": "ftp://127.0.0.1/pub/x"}, "uses ftp:"),
    ("web_fetch", {"url": "data:text/html,<h1>hi</h1>"}, "uses data:"),
    ("web_fetch", {"url": "javascript:alert(1)"}, "uses javascript:"),
    ("web_fetch", {"url": "http://[::1]:99999/"}, "port 99999"),
    ("web_fetch", {"url": "http://127.0.0.1:0/"}, "port 0"),
    ("web_fetch", {"url": "http://[zz::1]/"}, "not a valid URL"),
    ("web_fetch", {"url": "http://[::1]/"}, "loopback address"),
    # host names refused before any resolver sees them
    ("web_fetch", {"url": "http://xn--a-.com/"}, "not a valid host name"),  # punycode that does not decode
    ("web_fetch", {"url": "http://sklep.xn--a-.pl/"}, "not a valid host name"),
    ("web_fetch", {"url": f"http://{'a' * 64}.com/"}, "not a valid host name"),  # a label over 63
    ("web_fetch", {"url": "http://" + ".".join(["a" * 60] * 5) + "/"}, "not a valid host name"),  # over 253
    ("web_fetch", {"url": "http://a..com/"}, "not a valid host name"),  # an empty label
    ("web_fetch", {"url": "http://127.0.0.1/\x00"}, "control characters"),
    ("web_fetch", {"url": "https://127.0.0.1/", "start": -1}, "start"),
    ("web_fetch", {"url": "https://127.0.0.1/", "max_chars": 10}, "max_chars"),
    ("browse", {"url": "https://127.0.0.1/"}, "no tool named 'browse'"),
]
