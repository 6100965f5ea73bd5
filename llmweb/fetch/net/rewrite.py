"""URL checks and rewrites that make a page readable without JavaScript. Pure: strings in, strings out."""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import SplitResult, urlsplit

import httpx
import idna

from llmweb.errors import InvalidInput

_GITHUB_HOSTS = frozenset({"github.com", "www.github.com"})
_GIST_ID = re.compile(r"^[0-9a-fA-F]{5,}$")
# "data:…", "javascript:…", "mailto:…" — but not "example.com:8080/…", whose "scheme" has a dot.
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):(?!\d+(?:/|$))")


# A DNS name: at most 253 characters in labels of 1 to 63 (RFC 1035), letters, digits and
# hyphens (underscores too, which real names carry, e.g. in _dmarc-style subdomains).
_MAX_NAME = 253
_MAX_LABEL = 63
_LABEL_CHARACTERS = re.compile(r"^[a-z0-9_-]+$")


class Rewrite(NamedTuple):
    url: str
    note: str


def check_fetch_url(url: object) -> str:
    """The URL as the fetcher will request it, or InvalidInput saying what to send instead."""
    if not isinstance(url, str) or not url.strip():
        raise InvalidInput("web_fetch needs a URL such as https://example.com/page.")
    text = url.strip()
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise InvalidInput(f"{text!r} holds control characters; send the address without them.")
    scheme = _SCHEME.match(text)
    if "://" not in text and scheme and scheme[1].lower() not in ("http", "https") and "." not in scheme[1]:
        raise InvalidInput(
            f"llmweb fetches only http and https URLs, and {text[:60]!r} uses {scheme[1].lower()}:. "
            "Find an http or https address for the same content."
        )
    if text.startswith(("/", "./", "../", "?", "#")):
        raise InvalidInput(
            f"{text!r} is a relative address. Join it to the address of the page it came from "
            "and send the complete URL, such as https://example.com/path."
        )
    if "://" not in text:
        raise InvalidInput(
            f"{text!r} has no scheme; llmweb fetches http and https URLs. Did you mean https://{text}?"
        )
    try:
        parsed = httpx.URL(text)
    except (httpx.InvalidURL, ValueError) as exc:
        raise InvalidInput(
            f"{text!r} is not a valid URL ({exc}). Send a complete http or https address."
        ) from None
    if parsed.scheme not in ("http", "https"):
        raise InvalidInput(
            f"llmweb fetches only http and https URLs, and {text!r} uses {parsed.scheme}:. "
            "Find an http or https address for the same content."
        )
    if not parsed.raw_host:
        raise InvalidInput(
            f"{text!r} names no host. Send a complete address such as https://example.com/page."
        )
    problem = host_name_problem(parsed)
    if problem is not None:
        raise InvalidInput(
            f"{text!r} names {parsed.raw_host.decode('ascii', 'replace')!r}, which is not a valid host name "
            f"({problem}). Check the address for typos."
        )
    if not valid_port(parsed):
        raise InvalidInput(f"{text!r} names port {parsed.port}; a port is a number from 1 to 65535.")
    return str(parsed.copy_with(fragment=None))


def address_problem(url: httpx.URL) -> str | None:
    """What makes an http(s) URL unusable (its host name or its port), as a phrase holding none
    of the URL's text; None when it can be requested."""
    problem = host_name_problem(url)
    if problem is not None:
        return f"a host name with {problem}"
    return None if valid_port(url) else "a port outside 1–65535"


def host_name_problem(url: httpx.URL) -> str | None:
    """What the URL's host name has that no host name may have, as a phrase holding none of its
    text (e.g. "a label longer than 63 characters"); None when it can be looked up.

    Checked before any resolver sees the name: an IDNA label that does not decode, a label
    longer than 63 characters or a name longer than 253 otherwise fails deep inside the
    resolver (or httpx), and characters no name holds would go out as a DNS query.
    """
    host = url.raw_host.decode("ascii", "replace")  # httpx keeps names in their ASCII (punycode) form
    if ":" in host:  # an IPv6 literal, which httpx has already parsed
        return None
    name = host.removesuffix(".")  # a fully qualified name may end in a dot
    if not name:
        return "no name at all"
    if len(name) > _MAX_NAME:
        return f"more than {_MAX_NAME} characters"
    for label in name.split("."):
        if not label:
            return "an empty label (two dots in a row, or a dot at the start)"
        if len(label) > _MAX_LABEL:
            return f"a label longer than {_MAX_LABEL} characters"
        if not _LABEL_CHARACTERS.match(label):
            return "characters no host name has"
        if label.startswith("xn--") and not _decodes_as_idna(label):
            return "an internationalised (xn--) label that does not decode"
    # one xn-- label makes httpx read the whole name as IDNA, whose rules then bind every
    # label ("xn--00k.-" fails on the "-" deep inside httpx)
    if "xn--" in name and not _decodes_as_idna(name):
        return "an internationalised (xn--) name that does not decode"
    return None


def valid_port(url: httpx.URL) -> bool:
    return url.port is None or 0 < url.port < 65536


def _decodes_as_idna(label: str) -> bool:
    try:
        idna.decode(label)
    except (idna.IDNAError, UnicodeError, ValueError):
        return False
    return True


def rewrite_github_blob(url: str) -> str | None:
    """github.com/{owner}/{repo}/blob/{ref}/{path} → the raw file on raw.githubusercontent.com."""
    parts = _github_path(url, _GITHUB_HOSTS)
    if parts is None or len(parts) < 5 or parts[2] != "blob" or not all(parts):
        return None
    owner, repo, _, *ref_and_path = parts
    # a ref may itself hold slashes ("release/2.0"); raw URLs join ref and path the same way
    return f"https://raw.githubusercontent.com/{owner}/{repo}/{'/'.join(ref_and_path)}"


def rewrite_gist(url: str) -> str | None:
    """gist.github.com/{user}/{id} → gist.githubusercontent.com/{user}/{id}/raw (its first file)."""
    parts = _github_path(url, frozenset({"gist.github.com"}))
    if parts is None or len(parts) != 2 or not parts[0] or not _GIST_ID.match(parts[1]):
        return None
    return f"https://gist.githubusercontent.com/{parts[0]}/{parts[1]}/raw"


def rewrite_for_text(url: str) -> Rewrite | None:
    """The address that serves the same content as text, when a known rewrite applies."""
    raw = rewrite_github_blob(url)
    if raw is not None:
        return Rewrite(
            raw, f"GitHub renders {url} with JavaScript, so the raw file {raw} was fetched instead."
        )
    raw = rewrite_gist(url)
    if raw is not None:
        return Rewrite(raw, f"Gist pages need JavaScript, so the raw gist {raw} was fetched instead.")
    return None


def github_cli_hint(url: str) -> str | None:
    """A gh command that reads this GitHub page (issues, pulls, trees, …), or None for other sites."""
    parts = _github_path(url, _GITHUB_HOSTS)
    if parts is None or not parts or not parts[0]:
        return None
    if len(parts) == 1:
        return f"gh api users/{parts[0]}"
    repo = f"{parts[0]}/{parts[1]}"
    kind, rest = (parts[2], parts[3:]) if len(parts) > 2 else ("", [])
    number = rest[0] if rest and rest[0].isdigit() else None
    if kind == "issues" and number:
        return f"gh issue view {number} --repo {repo} --comments"
    if kind == "pull" and number:
        return f"gh pr view {number} --repo {repo} --comments"
    if kind in ("issues", "pulls"):
        return f"gh {'issue' if kind == 'issues' else 'pr'} list --repo {repo}"
    if kind == "tree" and rest:
        ref, path = rest[0], "/".join(rest[1:])
        return f"gh api 'repos/{repo}/contents/{path}?ref={ref}'"
    if kind == "commit" and rest:
        return f"gh api repos/{repo}/commits/{rest[0]}"
    if kind == "releases" and rest[:1] == ["tag"] and len(rest) > 1:
        return f"gh release view {rest[1]} --repo {repo}"
    if kind == "releases":
        return f"gh release list --repo {repo}"
    if kind == "actions" and rest[:1] == ["runs"] and len(rest) > 1:
        return f"gh run view {rest[1]} --repo {repo}"
    return f"gh repo view {repo}"


def _github_path(url: str, hosts: frozenset[str]) -> list[str] | None:
    """Path segments of an http(s) URL on one of ``hosts``; None for anything else."""
    try:
        split: SplitResult = urlsplit(url.strip())
        host = split.hostname
        port = split.port
    except (ValueError, AttributeError):
        return None
    if split.scheme.lower() not in ("http", "https") or host not in hosts or port not in (None, 80, 443):
        return None
    return split.path.strip("/").split("/") if split.path.strip("/") else []
