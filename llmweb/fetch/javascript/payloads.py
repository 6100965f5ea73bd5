"""The data a page embeds for its scripts, found and decoded without running any of it. Pure.

JavaScript applications ship their content inside the HTML as data: JSON-LD for search
engines, and the state the framework starts from — Next.js ``__NEXT_DATA__`` and App Router
flight data (``self.__next_f.push``), Nuxt's ``window.__NUXT__`` and ``__NUXT_DATA__``,
Apollo and Redux stores, YouTube's ``ytInitialPlayerResponse``, any ``window.NAME = {…}``.
JSON is read with :mod:`json`; JavaScript object literals with chompjs, which turns a
literal into JSON without evaluating it (an expression such as ``void 0`` becomes a string).
A Nuxt 2 payload is a function called with its values: the values are put in place of the
parameters by text substitution. Nothing a page wrote is ever run.

Every page is read within :class:`Budget`: script text parsed, values walked, nesting
depth and a time budget (:mod:`llmweb.fetch.limits`); data past them is skipped, and reading goes on
with what was found.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import chompjs
from lxml.html import HtmlElement

from llmweb.fetch import limits
from llmweb.fetch.net.header_values import known_state_name


@dataclass
class Budget:
    """What reading one page's embedded data may still spend."""

    bytes: int = limits.MAX_EMBEDDED_BYTES
    nodes: int = limits.MAX_EMBEDDED_NODES
    depth: int = limits.MAX_EMBEDDED_DEPTH
    text_chars: int = limits.MAX_EMBEDDED_TEXT_CHARS
    ends_at: float = field(default_factory=lambda: time.monotonic() + limits.EMBEDDED_SECONDS)
    cut: list[str] = field(default_factory=list)  # what a bound stopped, for a note

    def take_bytes(self, size: int, what: str) -> bool:
        if size > self.bytes or self.expired():
            self._stop(f"{what} ({size:,} bytes)")
            return False
        self.bytes -= size
        return True

    def take_node(self) -> bool:
        self.nodes -= 1
        if self.nodes < 0 or (self.nodes % 4096 == 0 and self.expired()):
            self._stop("the rest of the data")
            return False
        return True

    def expired(self) -> bool:
        return time.monotonic() > self.ends_at

    def stop(self, what: str) -> None:
        """Note that a bound stopped reading ``what``."""
        self._stop(what)

    def _stop(self, what: str) -> None:
        if what not in self.cut:
            self.cut.append(what)


# A name the page chose (a script's id, a global's name) as notes may repeat it: the notes
# stand outside the untrusted-text markers, where a model reads llmweb's own words, so only
# a name from a closed list passes (header_values.KNOWN_STATE_NAMES), and any other is not named.


def safe_name(name: str) -> str | None:
    """``name`` when it is a known framework's name for its data (``__NUXT__``), else None: a
    name the page chose fits an identifier's grammar and still says what the page likes."""
    return known_state_name(name)


@dataclass(frozen=True)
class Payload:
    # the data as a reader names it: "JSON-LD", "__NEXT_DATA__", "window.__NUXT__", never
    # more of the page's words than safe_name lets through
    source: str
    kind: str  # "jsonld", "state", "flight" (React element rows), "youtube" (a player response)
    data: Any


_JSON_TYPES = frozenset({"application/json", "text/json"})
SCRIPT_TYPES = frozenset({"", "text/javascript", "application/javascript", "module", "text/ecmascript"})
"""The type attributes of a <script> a browser runs."""
# window.NAME = …, self.NAME = …, var NAME = …, window["NAME"] = …, followed by data
# (a declared variable only under a name that says it is data: minified code declares
# `var o = {…}` all the time). Each name's first letter is matched first and looked back at (a
# word's start, which letter): a pattern beginning with a set of letters is tried only where one
# stands, where one beginning with a word boundary was tried at every position of the script
# (the article set's scripts: 2.5 times as long, the same matches)
_ASSIGNMENT = re.compile(
    r"""[wsgvlc](?<!\w.)(?:(?:(?<=w)indow|(?<=s)elf|(?<=g)lobalThis)\s*(?:\.\s*|\[\s*["'])([A-Za-z_$][\w$]*)["']?\s*\]?"""
    r"""|(?:(?<=v)ar|(?<=l)et|(?<=c)onst)\s+(__\w+__|yt[A-Z]\w*|[A-Z][A-Z0-9_]{3,}|\w*(?:State|Data|Props|Store|Cache)\w*))"""
    r"""\s*=\s*(?=[\[{]|JSON\.parse\(|\(function\s*\()"""
)
# Global state whose name says it is no content: configuration, tracking, ads, feature flags.
_MACHINE_NAMES = re.compile(
    r"config|setting|env|flag|feature|experiment|analytic|track|gtm|datalayer|adunit|adslot|advert|adsense|"
    r"googletag|nonce|csp|perf|metric|consent|cookie|i18n|translation|locale|abtest|optimizely|sentry|utm|"
    r"header|footer|nav|menu|toolbar|tools|sidebar|banner",
    re.I,
)
_FLIGHT_PUSH = re.compile(r"self\.__next_f\.push\(")
_FLIGHT_ROW = re.compile(r"([0-9a-f]{1,8}):")


def find_payloads(root: HtmlElement, budget: Budget, *, declared_only: bool = False) -> list[Payload]:
    """Every payload of data in the page's scripts, decoded, in page order (flight data last);
    with ``declared_only``, its JSON-LD alone."""
    payloads: list[Payload] = []
    flight: list[str] = []
    for script in root.iter("script"):
        kind = (script.get("type") or "").strip().lower()
        if declared_only and kind != "application/ld+json":
            continue  # before its text is read: a page's code is most of its scripts' bytes
        text = script.text or ""
        if not text.strip():
            continue
        name = script.get("id") or ""
        if kind == "application/ld+json":
            if budget.take_bytes(len(text), "a JSON-LD block"):
                data = _load_json(_unwrap(text))
                if data is not None:
                    payloads.append(Payload("JSON-LD", "jsonld", data))
        elif declared_only:
            continue
        elif name == "__NEXT_DATA__":
            if budget.take_bytes(len(text), "__NEXT_DATA__"):
                payloads += _next_data(_load_json(text))
        elif name == "__NUXT_DATA__" or (kind in _JSON_TYPES and script.get("data-nuxt-data") is not None):
            if budget.take_bytes(len(text), "__NUXT_DATA__"):
                payloads += _state("__NUXT_DATA__", devalue(_load_json(text), budget.depth))
        elif kind in _JSON_TYPES:
            source = f"#{safe_name(name)}" if safe_name(name) else "a script's data"
            if name and not _MACHINE_NAMES.search(name) and budget.take_bytes(len(text), source):
                payloads += _state(source, _load_json(text))
        elif kind in SCRIPT_TYPES:
            if _FLIGHT_PUSH.match(text.lstrip()):
                if budget.take_bytes(len(text), "App Router flight data"):
                    flight += _flight_chunks(text, budget)
            elif _assigns_data(text) and budget.take_bytes(len(text), "a script's data"):
                payloads += _assignments(text, budget)
    if flight:
        rows = flight_rows("".join(flight))
        if rows:
            payloads.append(Payload("App Router flight data", "flight", rows))
    return payloads


def _next_data(data: Any) -> list[Payload]:
    """Next.js pages router: the page's own props, not the app's configuration around them."""
    props = data.get("props") if isinstance(data, dict) else None
    page_props = props.get("pageProps") if isinstance(props, dict) else None
    return _state("__NEXT_DATA__", page_props if page_props is not None else props)


def _state(source: str, data: Any) -> list[Payload]:
    return [Payload(source, "state", data)] if isinstance(data, dict | list) and data else []


def _load_json(text: str) -> Any:
    try:
        return json.loads(text, strict=False)
    except (ValueError, RecursionError):
        pass
    try:  # hand-written JSON-LD: trailing commas, single quotes, comments
        return chompjs.parse_js_object(text)
    except (ValueError, RecursionError):
        return None


def _unwrap(text: str) -> str:
    """JSON-LD without the HTML comment or CDATA markers some sites wrap it in."""
    text = text.strip()
    for start, end in (("<!--", "-->"), ("<![CDATA[", "]]>"), ("//<![CDATA[", "//]]>")):
        if text.startswith(start) and text.endswith(end):
            text = text[len(start) : -len(end)].strip()
    return text


# --- window.NAME = … -------------------------------------------------------------------


def _literals(pattern: re.Pattern[str], text: str, budget: Budget) -> Iterator[tuple[re.Match[str], str]]:
    """Each match of ``pattern`` in ``text`` with the text after it up to the next match.

    A script's literals usually end before its next assignment, so each is parsed from a
    piece of the script and a script is parsed once in all. A literal that holds the
    pattern (in a string) needs the whole rest of the script: those parses are charged to
    the budget, or a script of ten thousand ``window.a={`` would parse the rest of itself
    ten thousand times.
    """
    matches = list(pattern.finditer(text))
    for match, following in zip(matches, [*matches[1:], None], strict=True):
        if budget.expired():
            budget.stop("the rest of a script's data")
            return
        end = following.start() if following is not None else len(text)
        yield match, text[match.end() : end]


def _whole_rest(text: str, match: re.Match[str], budget: Budget) -> str | None:
    """The script after ``match`` to its end, when the budget can pay to parse it."""
    rest = len(text) - match.end()
    return text[match.end() :] if budget.take_bytes(rest, "a script's data") else None


def _assignments(text: str, budget: Budget) -> list[Payload]:
    """The data a script assigns to global names, each parsed as a literal (never run)."""
    found: list[Payload] = []
    paid = True  # whether the budget still pays for parsing a whole rest
    for match, piece in _literals(_ASSIGNMENT, text, budget):
        name = _name(match)
        if _MACHINE_NAMES.search(name):
            continue
        payloads = _assignment(name, match, piece)
        if not payloads and paid and match.end() + len(piece) < len(text):
            rest = _whole_rest(text, match, budget)  # the literal may run past the next match
            paid = rest is not None
            payloads = _assignment(name, match, rest) if rest is not None else []
        found += payloads
    return found


def _assignment(name: str, match: re.Match[str], rest: str) -> list[Payload]:
    """The payload the assignment ``match`` makes with the literal that starts ``rest``."""
    shown = safe_name(name)
    if name.startswith("ytInitialPlayerResponse"):
        data = _literal(rest)
        return (
            [Payload(shown or "ytInitialPlayerResponse", "youtube", data)] if isinstance(data, dict) else []
        )
    if shown is None:
        source = "a script's data"
    else:
        source = f"window.{shown}" if "window" in match.group(0) else shown
    if rest.startswith("(function"):
        return _state(source, nuxt2_payload(rest))
    if rest.startswith("JSON.parse("):
        return _state(source, _json_parse_argument(rest))
    return _state(source, _literal(rest))


# What every _ASSIGNMENT ends with, found from its "=" (a literal the regex engine skips to): two
# scripts in three of the article set's hold none, and are not searched with the whole pattern,
# which is tried at every position (a fifth of the time over their scripts)
_ASSIGNS = re.compile(r"""=\s*(?:[\[{]|JSON\.parse\(|\(function\s*\()""")


def _assigns_data(script: str) -> bool:
    if not _ASSIGNS.search(script):
        return False
    return any(not _MACHINE_NAMES.search(_name(m)) for m in _ASSIGNMENT.finditer(script))


def _name(assignment: re.Match[str]) -> str:
    return assignment.group(1) or assignment.group(2)


def _literal(text: str) -> Any:
    try:
        return chompjs.parse_js_object(text)
    except (ValueError, RecursionError):
        return None


def _json_parse_argument(text: str) -> Any:
    """The value of ``JSON.parse("…")``: the string literal decoded, then read as JSON."""
    match = re.match(r"""JSON\.parse\(\s*(["'])((?:[^\\]|\\.)*?)\1\s*\)""", text, re.S)
    if match is None:
        return None
    quote, body = match.groups()
    if quote == "'":  # a JavaScript single-quoted string: make it a JSON one
        body = body.replace("\\'", "'").replace('"', '\\"')
    try:
        return json.loads(json.loads(f'"{body}"', strict=False), strict=False)
    except (ValueError, RecursionError):
        return None


# Tokens of a JavaScript literal: strings (whole), `void 0`, `!0`/`!1`, identifiers, the rest.
_JS_TOKEN = re.compile(
    r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`|void 0\b|![01]\b|[A-Za-z_$][\w$]*|[^"'`A-Za-z_$!]+|.""",
    re.S,
)
_JS_CONSTANTS = {"void 0": "null", "!0": "true", "!1": "false", "undefined": "null"}


def nuxt2_payload(text: str) -> Any:
    """Nuxt 2's ``(function(a,b,…){return {…}}(v1,v2,…))``: the returned object, with each
    parameter replaced by its value in the text before it is parsed. Nothing is evaluated."""
    head = re.match(r"\(function\s*\(([\w$,\s]*)\)\s*\{", text)
    calls = text.rfind("}(")
    if head is None or calls < head.end():
        return None
    params = [p.strip() for p in head.group(1).split(",") if p.strip()]
    end = text.rfind("))")
    arguments = _literal("[" + text[calls + 2 : end if end > calls else len(text)] + "]")
    if not isinstance(arguments, list):
        return None
    values = {p: json.dumps(v) for p, v in zip(params, arguments, strict=False)}
    body = text[head.end() : calls]
    returned = re.search(r"\breturn\s*(?=[{\[])", body)
    if returned is None:
        return None
    return _literal(_substitute(body[returned.end() :], values))


def _substitute(literal: str, values: dict[str, str]) -> str:
    """``literal`` with every bare identifier that names a parameter replaced by its value;
    keys (an identifier before ``:``) and property names (after ``.``) stay."""
    out: list[str] = []
    tokens = [m.group(0) for m in _JS_TOKEN.finditer(literal)]
    for index, token in enumerate(tokens):
        if token in _JS_CONSTANTS:
            out.append(_JS_CONSTANTS[token])
            continue
        if token in values:
            after = tokens[index + 1].lstrip()[:1] if index + 1 < len(tokens) else ""
            before = out[-1].rstrip()[-1:] if out else ""
            if after != ":" and before != ".":
                out.append(values[token])
                continue
        out.append(token)
    return "".join(out)


# --- Nuxt 3: devalue ---------------------------------------------------------------------

_DEVALUE_WRAPPERS = frozenset(
    {"Reactive", "ShallowReactive", "Ref", "ShallowRef", "EmptyRef", "EmptyShallowRef", "NuxtError", "Object"}
)


def devalue(flat: Any, max_depth: int = limits.MAX_EMBEDDED_DEPTH) -> Any:
    """The value a devalue array (Nuxt 3's ``__NUXT_DATA__``) stands for: entry 0 is the root,
    and numbers inside arrays and objects point at other entries."""
    if not isinstance(flat, list) or not flat:
        return None
    done: dict[int, Any] = {}

    def resolve(index: Any, depth: int) -> Any:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(flat):
            return None  # negative: undefined, holes, NaN, infinities
        if index in done:
            return done[index]
        if depth > max_depth:
            return None
        done[index] = None  # a cycle reads as nothing
        value = flat[index]
        if isinstance(value, list):
            if value and isinstance(value[0], str):  # a tagged type
                tag = value[0]
                if tag in _DEVALUE_WRAPPERS and len(value) > 1:
                    result = resolve(value[1], depth + 1)
                elif tag in ("Set", "Map"):
                    result = [resolve(item, depth + 1) for item in value[1:]]
                else:  # Date, RegExp, BigInt…: no text of the page
                    result = None
            else:
                result = [resolve(item, depth + 1) for item in value]
        elif isinstance(value, dict):
            result = {key: resolve(item, depth + 1) for key, item in value.items()}
        else:
            result = value
        done[index] = result
        return result

    return resolve(0, 0)


# --- Next.js App Router: flight data ---------------------------------------------------


def _flight_chunks(text: str, budget: Budget) -> list[str]:
    """The strings of ``self.__next_f.push([1, "…"])`` calls (their JSON arguments)."""
    chunks = []
    paid = True  # whether the budget still pays for parsing a whole rest
    for match, piece in _literals(_FLIGHT_PUSH, text, budget):
        argument = _literal(piece)
        if argument is None and paid and match.end() + len(piece) < len(text):
            rest = _whole_rest(text, match, budget)  # a chunk that holds the call's own text
            paid = rest is not None
            argument = _literal(rest) if rest is not None else None
        if (
            isinstance(argument, list)
            and len(argument) > 1
            and argument[0] == 1
            and isinstance(argument[1], str)
        ):
            chunks.append(argument[1])
    return chunks


def flight_rows(stream: str) -> list[Any]:
    """The rows of a React Server Components stream: JSON rows parsed, text rows as strings.

    A row is ``<hex id>:<JSON>\\n``, or ``<hex id>:T<hex length>,<text>`` whose text may hold
    new lines; rows tagged with a letter (module imports ``I``, hints ``HL``, errors ``E``)
    carry no text of the page and are skipped."""
    rows: list[Any] = []
    position = 0
    while position < len(stream):
        match = _FLIGHT_ROW.match(stream, position)
        if match is None:  # not a row start: skip to the next line
            newline = stream.find("\n", position)
            position = len(stream) if newline < 0 else newline + 1
            continue
        start = match.end()
        if stream.startswith("T", start):
            comma = stream.find(",", start)
            try:
                length = int(stream[start + 1 : comma], 16)
            except ValueError:
                position = start
                continue
            # the length counts UTF-8 bytes
            body = stream[comma + 1 :].encode("utf-8")[:length].decode("utf-8", "ignore")
            rows.append(body)
            position = comma + 1 + len(body)
            continue
        newline = stream.find("\n", start)
        end = len(stream) if newline < 0 else newline
        if stream[start : start + 1] in ("[", "{", '"'):
            with contextlib.suppress(ValueError, RecursionError):
                rows.append(json.loads(stream[start:end]))
        position = end + 1
    return rows
