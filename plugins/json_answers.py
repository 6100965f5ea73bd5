# SPDX-License-Identifier: AGPL-3.0-or-later
"""A repeated JSON search answered with the JSON SearXNG gave it before, in one valkey round trip.

The spend plugin (spend.py) answers our engine's part of a search from its answer cache
before SearXNG's engine machinery runs; SearXNG still merges, orders and writes out the
results then, most of what such a hit costs. A JSON search that only our engine answers is
answered here instead, before any of SearXNG's own work on the request: a function put first
among Flask's before-request functions asks valkey for the JSON an earlier identical search
was given and, when it finds it, lets the limiter judge the request (it counts it as it counts
any, and may refuse it) and answers with that JSON. SearXNG's reading of the person's
preferences, its parsing of the query, the language policy and the engine are skipped because
they would come to what they came to before: the answer was kept under the request itself.

Identical means: the same form and query string (query, format, engines, language, page, time
range, safe search, encoded preferences …), the same cookies (a person's preferences), the same
Accept-Language and User-Agent (what SearXNG reads from a request's headers to settle its
preferences), under the same SearXNG version and settings (so the same plugins, engines and
llmweb_language policy). Anything else about the request does not reach the answer: its
address only through the limiter, which still runs. Like Brave's answers, the key is an HMAC of
those and the JSON is sealed against anyone without the secret. A kept answer is served only
while every engine of ours caches and none is suspended.

Kept is only a 200 answer whose results all came from that one engine, with no answer,
infobox, suggestion, correction or unresponsive engine (so nothing an answerer or a plugin
made for one client, such as its address, is handed to another), for as long as Brave's
answer is kept and among the same ``cache_entries``. A JSON search that finds nothing kept
costs one valkey round trip more, before its Brave lookup; one whose search is never kept
(a bang, an answerer's query …) pays it once per process, and searches of several engines once
per process and shape, whatever their query (NeverKept).
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
import typing as t
from dataclasses import dataclass
from timeit import default_timer

import flask
import searx
import searx.answerers
from searx import get_setting, limiter
from searx.plugins.llmweb import spend
from searx.search import SearchWithPlugins
from searx.version import VERSION_STRING
from searx.webadapter import get_search_query_from_webapp
from werkzeug.wrappers import Response

SEARCH_VIEW = "search"  # the endpoint of SearXNG's /search (searx.webapp.search)
JSON_FORMAT = "json"
KEPT_KEY = "llmweb_kept"  # flask.g: where this request's JSON answer is kept (Kept)
REQUEST_HEADERS = ("Accept-Language", "User-Agent")  # the headers SearXNG's preferences read
LISTENING = ("port", "bind_address")  # server settings that change no answer (SEARXNG_PORT …)
# The before-request functions a kept answer may stand in for: SearXNG's pre_request (the kept
# answer is what its work came to) and the limiter's (called here). Any other, some later
# SearXNG's or another plugin's, runs as usual: no kept answer is served while one is there.
REPLACED = {("searx.webapp", "pre_request"), ("searx.limiter", "pre_request")}
NEVER_KEPT_REMEMBERED = 4096  # keys a process remembers as never kept (64 characters each)


@dataclass(frozen=True)
class Asked:
    """A JSON search whose answer may be kept: its engine and Brave request."""

    engine: str
    url: str


NEVER: t.Final = "never"
"""What _ask says of a search that is never kept whatever the moment (a bang, an answerer's
query …): the same request, under the same settings, is the same search."""
NOT_OURS_ALONE: t.Final = "not ours alone"
"""What _ask says of a search that does not ask our engine alone (several engines, as the shipped
settings' default search): without a bang in the query ("!"), which engines a search asks comes
from the rest of the request (engines, categories, preferences), so every query of that shape
asks the same ones."""


@dataclass(frozen=True)
class Kept:
    """Under what this request's answer is kept, and its shape (its request without the query),
    when the query holds no bang."""

    key: str
    shape: str | None


class NeverKept:
    """Keys of requests whose search is never kept, and shapes of requests that do not ask our
    engine alone, so that neither a repeat nor another query of that shape is asked for a kept
    answer (a valkey round trip, and the search parsed twice): searches of several engines, such
    as the shipped default one, pay for neither after the first. Per process, the oldest
    forgotten first."""

    def __init__(self, most: int = NEVER_KEPT_REMEMBERED) -> None:
        self._most = most
        self._keys: dict[str, None] = {}
        self._lock = threading.Lock()

    def add(self, key: str) -> None:
        with self._lock:
            if len(self._keys) >= self._most:
                del self._keys[next(iter(self._keys))]
            self._keys[key] = None

    def __contains__(self, key: str) -> bool:
        return key in self._keys


def install(app: flask.Flask) -> None:
    """Answer kept JSON before SearXNG's own before-request work; keep fresh answers in its search view."""
    deployment = _deployment()
    never_kept = NeverKept()

    def answer_kept() -> Response | None:
        others = app.before_request_funcs[None]
        named = ((getattr(f, "__module__", None), getattr(f, "__name__", None)) for f in others[1:])
        if others[0] is not answer_kept or any(name not in REPLACED for name in named):
            return None
        return _answer_kept(deployment, never_kept)

    # First: SearXNG's pre_request (preferences, locale) and the limiter come after it.
    app.before_request_funcs.setdefault(None, []).insert(0, answer_kept)
    original: t.Callable[..., t.Any] = app.view_functions[SEARCH_VIEW]

    def search_view(*args: t.Any, **kwargs: t.Any) -> t.Any:
        kept: Kept | None = flask.g.pop(KEPT_KEY, None)
        asked = _ask() if kept is not None else None
        if kept is not None and asked == NEVER:
            never_kept.add(kept.key)
        if kept is not None and asked == NOT_OURS_ALONE:
            never_kept.add(kept.shape or kept.key)
        response = original(*args, **kwargs)
        if kept is not None and isinstance(asked, Asked) and _keepable(response, asked.engine):
            # Before the answer goes out (one round trip on a miss, beside Brave's request), so
            # the next identical search finds it.
            spend.SPENDING[asked.engine].keep_page(kept.key, asked.url, response.get_data())
        return response

    app.view_functions[SEARCH_VIEW] = functools.update_wrapper(search_view, original)


def _deployment() -> bytes:
    """What, besides the request, decides SearXNG's answer: its version and its settings (the
    engines, plugins, languages, llmweb_language …), as a digest, the same for every replica
    (where a process listens is left out). The settings hold the secret too, which only ever
    enters the HMAC of a key."""
    server = {k: v for k, v in searx.settings.get("server", {}).items() if k not in LISTENING}
    settings = json.dumps({**searx.settings, "server": server}, sort_keys=True, default=repr).encode()
    version: str = VERSION_STRING
    return version.encode() + b"\0" + hashlib.sha256(settings).digest()


def _serving() -> spend.Spending | None:
    """The cache to ask for kept answers: none unless every engine of ours caches and none is
    suspended (a suspended engine's search would answer an error, not the kept results)."""
    if not spend.SPENDING or not all(
        spend.caches(name) and not spend.suspended(name) for name in spend.SPENDING
    ):
        return None
    return next(iter(spend.SPENDING.values()))


def _answer_kept(deployment: bytes, never_kept: NeverKept) -> Response | None:
    """The kept JSON answer to this request, after the limiter let it through; None: SearXNG's
    own work on the request goes on (no kept answer, or not a JSON search of the kind kept)."""
    request = flask.request
    if request.endpoint != SEARCH_VIEW:
        return None
    form, args = request.form, request.args  # SearXNG's pre_request lets the form win over the query string
    query = form.get("q", args.get("q"))
    if form.get("format", args.get("format")) != JSON_FORMAT or not query:
        return None
    if JSON_FORMAT not in (get_setting("search.formats", []) or []):
        return None  # SearXNG's view refuses it
    spending = _serving()
    if spending is None:
        return None
    shape = json.dumps(
        [
            sorted(item for item in args.items(multi=True) if item[0] != "q"),
            sorted(item for item in form.items(multi=True) if item[0] != "q"),
            sorted(request.cookies.items(multi=True)),
            [request.headers.get(name, "") for name in REQUEST_HEADERS],
        ]
    ).encode()
    # A digest, not the shape itself: NeverKept holds thousands (the form is at most 64 KB).
    shape_id = "shape:" + hashlib.sha256(shape).hexdigest() if "!" not in query else None
    if shape_id is not None and shape_id in never_kept:
        return None
    queries = json.dumps([args.getlist("q"), form.getlist("q")]).encode()
    key = spending.page_key(deployment + b"\0" + shape + b"\0" + queries)
    if key in never_kept:
        return None
    setattr(flask.g, KEPT_KEY, Kept(key, shape_id))
    page = spending.kept_page(key)
    if page is None:
        return None
    # What SearXNG's pre_request gives every request (searx.extended_types.SXNG_Request) and its
    # after-request work reads for the Server-Timing header.
    sxng = t.cast(t.Any, request)
    sxng.start_time, sxng.render_time, sxng.timings, sxng.errors = default_timer(), 0, [], []
    if limiter.is_installed():
        refused: Response | None = (
            limiter.pre_request()
        )  # its own turn, after SearXNG's pre_request, is not reached
        if refused is not None:
            return refused
    return flask.Response(page, mimetype="application/json")


def _ask() -> Asked | t.Literal["never", "not ours alone"] | None:
    """This request's search, if it is a JSON search only our engine answers (whose answer may be
    kept); NEVER or NOT_OURS_ALONE if no moment would change that; None if it is not to be kept now."""
    request = flask.request
    form = request.form  # SearXNG's pre_request merged the query string into it, as a dict
    try:
        query = get_search_query_from_webapp(request.preferences, form)[0]  # type: ignore[attr-defined]
    except Exception:  # the view meets it again and answers the error
        return NEVER
    if spend.SXNGPlugin.id not in request.user_plugins:  # type: ignore[attr-defined]
        return NEVER  # without its post_search, what the search found is not in sight
    refs = query.engineref_list
    if query.external_bang:
        return NEVER
    if len(refs) != 1 or refs[0].name not in spend.SPENDING:
        return NOT_OURS_ALONE
    if searx.answerers.STORAGE.ask(query.query):
        return NEVER
    ref = refs[0]
    if not spend.caches(ref.name):
        return None  # valkey does not answer now
    search = SearchWithPlugins(query, request, request.user_plugins)  # type: ignore[attr-defined]
    spend.apply_language_policy(request, search)
    url = spend.brave_url(ref.name, ref.category, query)
    return None if url is None else Asked(ref.name, url)  # None: suspended, or no request to make


def _keepable(response: t.Any, engine: str) -> bool:
    """Whether the view's answer holds only what ``engine`` found, nothing made for one client."""
    found = flask.g.get("llmweb_results")  # spend's post_search: the search's result container
    if not isinstance(response, flask.Response) or response.status_code != 200 or found is None:
        return False
    if found.unresponsive_engines or found.answers or found.infoboxes or found.suggestions:
        return False
    if found.corrections or found.redirect_url:
        return False
    results = found.get_ordered_results()
    return bool(results) and all(set(result.engines) == {engine} for result in results)
