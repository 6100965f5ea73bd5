# SPDX-License-Identifier: AGPL-3.0-or-later
"""A repeated JSON search answered with the JSON SearXNG gave it before, in one valkey round trip.

The spend plugin (spend.py) answers our engine's part of a search from its answer cache
before SearXNG's engine machinery runs; SearXNG still merges, orders and writes out the
results then, most of what such a hit costs. A JSON search that only our engine answers is
answered here instead, in SearXNG's search view: after SearXNG's before-request work (the
person's preferences, and the limiter, which counts the request as it counts any), with the
JSON an earlier identical search was given. The lookup that finds it is the spend plugin's
own (spend.Spending.lookup): on a miss the same round trip counts the miss and reserves the
Brave request, and the spend plugin's pre_search takes that lookup instead of making another.

Identical means: the same form (query, format, engines, language, page, time range, safe
search …), the same cookies (a person's preferences), the same plugins on, the same
language after llmweb_language's policy, and the same Brave request. Like Brave's answers,
the key is an HMAC of those and the JSON is sealed against anyone without the secret.

Kept is only a 200 answer whose results all came from that one engine, with no answer,
infobox, suggestion, correction or unresponsive engine (so nothing an answerer or a plugin
made for one client, such as its address, is handed to another), for as long as Brave's
answer is kept and among the same ``cache_entries``.
"""

from __future__ import annotations

import functools
import json
import typing as t
from dataclasses import dataclass

import flask
import searx.answerers
from searx import get_setting
from searx.plugins.llmweb import spend
from searx.search import SearchWithPlugins
from searx.webadapter import get_search_query_from_webapp

SEARCH_VIEW = "search"  # the endpoint of SearXNG's /search (searx.webapp.search)
JSON_FORMAT = "json"


@dataclass(frozen=True)
class Asked:
    """A JSON search this module can answer: its engine, Brave request, key, and the stored JSON."""

    engine: str
    url: str
    key: str
    page: bytes | None


def install(app: flask.Flask) -> None:
    """Put the stored answer in front of SearXNG's search view."""
    original: t.Callable[..., t.Any] = app.view_functions[SEARCH_VIEW]

    def search_view(*args: t.Any, **kwargs: t.Any) -> t.Any:
        asked = _ask()
        if asked is None:
            return original(*args, **kwargs)
        if asked.page is not None:
            return flask.Response(asked.page, mimetype="application/json")
        response = original(*args, **kwargs)
        if _keepable(response, asked.engine):
            # Before the answer goes out (one round trip on a miss, beside Brave's request), so
            # the next identical search finds it.
            spend.SPENDING[asked.engine].keep_page(asked.key, asked.url, response.get_data())
        return response

    app.view_functions[SEARCH_VIEW] = functools.update_wrapper(search_view, original)


def _ask() -> Asked | None:
    """The lookup of this request's search, if it is a JSON search only our engine answers."""
    request = flask.request
    form = request.form  # SearXNG's pre_request merged the query string into it, as a dict
    if form.get("format") != JSON_FORMAT or not form.get("q"):
        return None
    if JSON_FORMAT not in (get_setting("search.formats", []) or []):
        return None  # SearXNG's view refuses it
    if not any(spending.caches() for spending in spend.SPENDING.values()):
        return None  # no cache to ask: the query is not parsed twice
    try:
        query = get_search_query_from_webapp(request.preferences, form)[0]  # type: ignore[attr-defined]
    except Exception:  # the view meets it again and answers the error
        return None
    if spend.SXNGPlugin.id not in request.user_plugins:  # type: ignore[attr-defined]
        return None  # its pre_search would not take the lookup made here
    refs = query.engineref_list
    if query.external_bang or len(refs) != 1 or not spend.caches(refs[0].name):
        return None
    ref = refs[0]
    search = SearchWithPlugins(query, request, request.user_plugins)  # type: ignore[attr-defined]
    spend.apply_language_policy(request, search)
    if searx.answerers.STORAGE.ask(query.query):
        return None
    url = spend.brave_url(ref.name, ref.category, query)
    if url is None:
        return None
    material = json.dumps(
        [
            sorted(form.items()),
            sorted(request.cookies.items(multi=True)),
            sorted(request.user_plugins),  # type: ignore[attr-defined]
            [query.lang, query.safesearch, query.pageno, query.time_range, query.timeout_limit],
            ref.name,
            url,
        ],
        default=str,
    ).encode()
    spending = spend.SPENDING[ref.name]
    key = spending.page_key(material)
    try:
        looked_up = spending.lookup(url, key)
    except spend.BudgetSpent:
        return None  # the engine's own request looks up again and reports it
    if looked_up.page is None and (looked_up.body is not None or looked_up.counted or looked_up.reserved):
        flask.g.llmweb_lookups = {(ref.name, url): looked_up}  # for spend's pre_search, not made again
    return Asked(ref.name, url, key, looked_up.page)


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
