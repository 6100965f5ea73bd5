# SPDX-License-Identifier: AGPL-3.0-or-later
"""Every Brave request counts: a budget the engine keeps, an answer cache, the month's use in sight.

Brave bills each successful request. The Brave engine (engines/llmwebbrave.py) calls :func:`install`
at its start, which puts :class:`SpendingNetwork` in the place of the engine's own SearXNG
network, between the engine and Brave:

- **the cache**: the same Brave request (its URL holds the query and every parameter that
  changes the answer; the key travels in a header and is never part of it) is answered from
  valkey while fresh: ``cache_seconds``, at most an hour when the query asks for the past
  day. Only successful answers are kept, at most ``cache_entries`` of them. Keys are
  HMACs of the request under the instance's secret, so key names hold no query; the answers
  are stored compressed, not encrypted (SECURITY.md says who can read them), behind an
  HMAC tag, so an answer that anyone without the secret wrote or moved is never served.
  This module's plugin looks a search up before SearXNG's engine machinery runs (a hit is
  answered there; a miss's lookup is the only one its Brave request makes), and
  json_answers.py answers a repeated JSON search with the JSON it got before, before
  SearXNG's own work on the request (kept_page).
- **the budget**: before a request goes out, one atomic valkey script reserves it against
  ``monthly_budget`` and ``daily_budget`` (0: no cap), so any number of workers and replicas
  make exactly as many requests as the budget allows. An answer other than 2xx gives its
  reservation back; one that never came (a timeout) keeps it, since Brave may have billed
  it. Brave's ``X-RateLimit-*`` headers are the truth about the month: its reset becomes the
  month's end, and a count higher than ours (another program using the same key) becomes
  ours. A spent budget asks Brave nothing until its window resets, and searches name it in
  ``unresponsive_engines``.
- **in sight**: the log says once when use crosses 50, 80 and 100 % of a budget or of
  Brave's quota, and ``/llmweb/usage`` (this module's plugin) answers the month's figures
  as JSON, which ``llmweb doctor`` prints.

When valkey does not answer, searches go on uncached and uncounted, and the log says so at
most once a minute. The budget and the cache talk to valkey through a client of their own
that waits at most VALKEY_SECONDS for an answer, on threads of their own: SearXNG runs every
engine's requests on one event loop per process, which a valkey that hangs (rather than
refuses) must never hold. After a failure, valkey is left alone for VALKEY_PAUSE_SECONDS.

.. code:: yaml

  plugins:
    searx.plugins.llmweb.spend.SXNGPlugin:
      active: true
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import hashlib
import hmac
import json
import logging
import math
import threading
import time
import typing as t
import weakref
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import flask
import httpx
import searx.answerers
import searx.plugins
import valkey
from searx import get_setting, webutils
from searx.network.network import NETWORKS
from searx.plugins import Plugin, PluginCfg, PluginInfo
from searx.search.processors import PROCESSORS

if t.TYPE_CHECKING:
    from collections.abc import Mapping

    from searx.extended_types import SXNG_Request
    from searx.search import SearchWithPlugins
    from searx.search.models import SearchQuery

log = logging.getLogger("searx.plugins.llmweb.spend")

PREFIX = "llmweb:brave:"
MONTH, DAY, QUOTA = PREFIX + "month", PREFIX + "day", PREFIX + "quota"
HITS, MISSES, INDEX, ANSWER = (
    PREFIX + "cache:hits",
    PREFIX + "cache:misses",
    PREFIX + "cache:index",
    PREFIX + "answer:",
)
PAGE = PREFIX + "page:"  # SearXNG's whole JSON answer to a search (plugins/json_answers.py)
PAGE_INDEX = PREFIX + "cache:pages"  # the JSON answers kept, at most cache_entries of them too
LOGGED = PREFIX + "logged:"
THRESHOLDS = (100, 80, 50)  # percent of a budget or quota the log announces once per window
FRESH_DAY_SECONDS = 3600  # freshness=pd asks for today's web: never serve an answer older than this
TAG_BYTES = 32  # HMAC-SHA256 in front of each stored answer
MAX_ANSWER_BYTES = 512_000  # a bigger (compressed) answer is not worth keeping
DOWN_LOG_SECONDS = 60.0
ANNOUNCED_KEPT = 64  # log keys (a window and a threshold each) a process remembers as set
VALKEY_SECONDS = 1.0  # valkey on the same machine or network answers in milliseconds
VALKEY_PAUSE_SECONDS = 10.0  # after a failure, searches go uncached and uncounted this long
VALKEY_THREADS = 4
USAGE_PATH = "/llmweb/usage"

# One round trip before a Brave request: the cache lookup, its hit or miss count, and on a miss
# the reservation against the budgets.
# KEYS: answer, hits, misses, month, day. ARGV: cache on (1/0), budgets on (1/0), monthly, daily
# budget (0: none), ms to the month's and the day's end.
# Returns {2, stored answer} on a hit, {0} on a miss with no budget to keep, else
# {status, month, day, ms to the month's end}: status 1 reserved, -1 month spent, -2 day spent.
_LOOKUP = """
if ARGV[1] == '1' then
  local stored = redis.call('GET', KEYS[1])
  local counter = KEYS[3]
  if stored then counter = KEYS[2] end
  redis.call('INCR', counter)
  if redis.call('PTTL', counter) < 0 then redis.call('PEXPIRE', counter, ARGV[5]) end
  if stored then return {2, stored} end
end
if ARGV[2] ~= '1' then return {0} end
local month = tonumber(redis.call('GET', KEYS[4]) or '0')
local day = tonumber(redis.call('GET', KEYS[5]) or '0')
local monthly, daily = tonumber(ARGV[3]), tonumber(ARGV[4])
if monthly > 0 and month >= monthly then return {-1, month, day, redis.call('PTTL', KEYS[4])} end
if daily > 0 and day >= daily then return {-2, month, day, redis.call('PTTL', KEYS[4])} end
month = redis.call('INCR', KEYS[4])
if redis.call('PTTL', KEYS[4]) < 0 then redis.call('PEXPIRE', KEYS[4], ARGV[5]) end
day = redis.call('INCR', KEYS[5])
if redis.call('PTTL', KEYS[5]) < 0 then redis.call('PEXPIRE', KEYS[5], ARGV[6]) end
return {1, month, day, redis.call('PTTL', KEYS[4])}
"""
# SearXNG's whole JSON answer to a search (plugins/json_answers.py), counted as a cache hit when found.
# KEYS: page, hits. ARGV: ms to the month's end.
_PAGE = """
local page = redis.call('GET', KEYS[1])
if page then
  redis.call('INCR', KEYS[2])
  if redis.call('PTTL', KEYS[2]) < 0 then redis.call('PEXPIRE', KEYS[2], ARGV[1]) end
end
return page
"""
# KEYS: month, day. Gives one reservation back.
_RELEASE = """
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
return 1
"""
# KEYS: month, quota. ARGV: Brave's used count, ms to Brave's reset, limit, remaining, reset epoch.
_SYNC = """
local ours = tonumber(redis.call('GET', KEYS[1]) or '0')
local brave = tonumber(ARGV[1])
if brave > ours then redis.call('SET', KEYS[1], brave) ours = brave end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[2], 'limit', ARGV[3], 'remaining', ARGV[4], 'resets', ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return ours
"""
# KEYS: answer, index. ARGV: sealed answer, seconds fresh, now, most entries.
_STORE = """
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]) + tonumber(ARGV[2]), KEYS[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
local extra = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if extra > 0 then
  for _, key in ipairs(redis.call('ZPOPMIN', KEYS[2], extra)) do redis.call('DEL', key) end
end
return 1
"""


@dataclass(frozen=True)
class SpendSettings:
    """The engine entry's settings; 0 switches a budget or the cache off."""

    monthly_budget: int
    daily_budget: int
    cache_seconds: int
    cache_entries: int


@dataclass(frozen=True)
class Lookup:
    """What one lookup before a Brave request found: the stored answer (a hit), else whether the
    miss was counted and a request reserved against the budgets."""

    body: bytes | None = None
    counted: bool = False
    reserved: bool = False


NOT_ASKED = Lookup()  # no valkey, or nothing to keep: nothing counted


class LookedUp:
    """Misses this process looked up in pre_search whose Brave request is still to come, per URL:
    the engine's network takes one instead of asking valkey a second time. Whatever a search
    left untaken when it ends (its engine never sent the request, or not yet) is given back
    then; a request that comes later looks up for itself, so no reservation is lost or doubled."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, list[Lookup]] = {}

    def add(self, url: str, lookup: Lookup) -> None:
        with self._lock:
            self._waiting.setdefault(url, []).append(lookup)

    def take(self, url: str) -> Lookup | None:
        with self._lock:
            waiting = self._waiting.get(url)
            if not waiting:
                return None
            lookup = waiting.pop()
            if not waiting:
                del self._waiting[url]
            return lookup


class BudgetSpent(Exception):
    """A budget allows no more Brave requests in its window; the message says which and when."""


# SearXNG shows an engine's failure as a text looked up by the exception's class name.
BUDGET_SPENT_KEY = f"{BudgetSpent.__module__}.{BudgetSpent.__qualname__}"


def month_end(now: datetime.datetime) -> datetime.datetime:
    """The first instant of the next calendar month (UTC), a month's end until Brave says otherwise."""
    first = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    return (first + datetime.timedelta(days=32)).replace(day=1)


def day_end(now: datetime.datetime) -> datetime.datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0) + datetime.timedelta(days=1)


def answer_lifetime(url: str, cache_seconds: int) -> int:
    """How long Brave's answer to ``url`` stays fresh: the setting, at most an hour for the past day."""
    freshness = parse_qs(urlsplit(url).query).get("freshness", [""])[0]
    return min(cache_seconds, FRESH_DAY_SECONDS) if freshness == "pd" else cache_seconds


BraveMonth = t.Callable[["Mapping[str, str]"], "tuple[int, int, int] | None"]
"""Reads (limit, remaining, seconds to reset) of Brave's monthly window from its headers: the
engine's ``brave_month``, handed over by :func:`install`, so Brave's X-RateLimit-* headers are
read by one definition, the engine's."""


def _ms(seconds: float) -> int:
    return max(1000, math.ceil(seconds * 1000))


def _day(epoch: float) -> str:
    return datetime.datetime.fromtimestamp(epoch, datetime.UTC).date().isoformat()


class Spending:
    """The budget and the cache of one Brave engine, kept in SearXNG's valkey."""

    def __init__(
        self, settings: SpendSettings, secret: str, valkey_url: str | None, brave_month: BraveMonth
    ) -> None:
        self.settings = settings
        self._brave_month = brave_month
        self._secret = secret.encode()
        self._tag_key = hmac.new(self._secret, b"llmweb answer tag", hashlib.sha256).digest()
        self._down_logged = 0.0
        self._paused_until = 0.0
        self._scripts: dict[str, t.Any] = {}
        self._announced: set[str] = set()  # log keys this process saw set: not asked for again
        self.looked_up = LookedUp()
        # Any: valkey-py types every answer as "maybe awaitable" (its sync and async clients
        # share stubs); this one is synchronous. It connects on first use.
        self._client: t.Any = (
            valkey.Valkey.from_url(
                valkey_url, socket_timeout=VALKEY_SECONDS, socket_connect_timeout=VALKEY_SECONDS
            )
            if valkey_url
            else None
        )

    # --- valkey ---------------------------------------------------------------------

    def _db(self) -> t.Any:
        """The valkey client, or None when there is none or it failed a moment ago."""
        if self._client is None or time.monotonic() < self._paused_until:
            return None
        return self._client

    def _script(self, db: t.Any, source: str) -> t.Any:
        if source not in self._scripts:
            self._scripts[source] = db.register_script(source)
        return self._scripts[source]

    def _valkey_failed(self, error: Exception) -> None:
        now = time.monotonic()
        self._paused_until = now + VALKEY_PAUSE_SECONDS
        if now - self._down_logged > DOWN_LOG_SECONDS:
            self._down_logged = now
            log.error(
                "valkey does not answer (%s): Brave answers are neither cached nor counted until it does",
                error,
            )

    # --- the cache ------------------------------------------------------------------

    def _key(self, url: str) -> str:
        return ANSWER + hmac.new(self._secret, url.encode(), hashlib.sha256).hexdigest()

    def _tag(self, key: str, packed: bytes) -> bytes:
        # HMAC-SHA256 under the instance's secret, bound to the entry's key: an answer written
        # into valkey by anyone without the secret, or moved to another request's key, is not served.
        return hmac.new(self._tag_key, key.encode() + b"\0" + packed, hashlib.sha256).digest()

    def _seal(self, key: str, body: bytes) -> bytes:
        packed = zlib.compress(body, 6)
        return self._tag(key, packed) + packed

    def _open(self, key: str, stored: bytes) -> bytes | None:
        tag, packed = stored[:TAG_BYTES], stored[TAG_BYTES:]
        if not hmac.compare_digest(tag, self._tag(key, packed)):
            return None
        try:
            return zlib.decompress(packed)
        except zlib.error:
            return None

    def keeps_anything(self) -> bool:
        """Whether a request's lookup has anything to do (a cache or a budget, and valkey)."""
        return self._db() is not None and (self.settings.cache_seconds > 0 or self._budgets_on())

    def caches(self) -> bool:
        """Whether a search may find its answer in the cache (the cache is on, valkey answers)."""
        return self._db() is not None and self.settings.cache_seconds > 0

    def _budgets_on(self) -> bool:
        return self.settings.monthly_budget > 0 or self.settings.daily_budget > 0

    def page_key(self, material: bytes) -> str:
        """The key of SearXNG's JSON answer to a search ``material`` describes (an HMAC: no query)."""
        return PAGE + hmac.new(self._secret, material, hashlib.sha256).hexdigest()

    def lookup(self, url: str) -> Lookup:
        """Brave's answer to ``url`` while it is fresh (counted as a hit); else the miss counted
        and one request reserved against the budgets, or BudgetSpent saying which and until
        when. One valkey round trip."""
        cache_on = self.settings.cache_seconds > 0
        db = self._db()
        if db is None or not (cache_on or self._budgets_on()):
            return NOT_ASKED
        key, now = self._key(url), _now()
        try:
            answer = self._lookup(db, key, now, cache_on=cache_on, budgets_on=self._budgets_on())
        except valkey.exceptions.ValkeyError as error:
            self._valkey_failed(error)
            return NOT_ASKED
        if answer[0] == 2:
            body = self._open(key, bytes(answer[1]))
            if body is not None:
                return Lookup(body=body)
            # Written or moved by someone without the secret: a miss after all (rare, so the
            # extra round trips do not matter).
            try:
                db.decr(HITS)
                answer = self._lookup(db, key, now, cache_on=False, budgets_on=self._budgets_on())
                db.incr(MISSES)
            except valkey.exceptions.ValkeyError as error:
                self._valkey_failed(error)
                return NOT_ASKED
        if answer[0] != 0:
            self._reserved(db, now, *answer)
        return Lookup(counted=cache_on, reserved=answer[0] == 1)

    def release(self) -> None:
        """Give one reservation back: its request was never sent. One valkey round trip."""
        db = self._db()
        if db is None or not self._budgets_on():
            return
        try:
            self._run_together(db, [(_RELEASE, [MONTH, DAY], [])])
        except valkey.exceptions.ValkeyError as error:
            self._valkey_failed(error)

    def _lookup(
        self, db: t.Any, key: str, now: datetime.datetime, *, cache_on: bool, budgets_on: bool
    ) -> t.Any:
        return self._script(db, _LOOKUP)(
            keys=[key, HITS, MISSES, MONTH, DAY],
            args=[
                int(cache_on),
                int(budgets_on),
                self.settings.monthly_budget,
                self.settings.daily_budget,
                _ms((month_end(now) - now).total_seconds()),
                _ms((day_end(now) - now).total_seconds()),
            ],
        )

    def kept_page(self, page_key: str) -> bytes | None:
        """SearXNG's JSON answer kept under ``page_key`` (keep_page), counted as a cache hit when
        found; None when there is none, it is not ours, or valkey does not answer. One round trip."""
        db = self._db()
        if db is None or self.settings.cache_seconds <= 0:
            return None
        now = _now()
        try:
            stored = self._script(db, _PAGE)(
                keys=[page_key, HITS], args=[_ms((month_end(now) - now).total_seconds())]
            )
            if stored is None:
                return None
            page = self._open(page_key, bytes(stored))
            if page is None:  # written or moved by someone without the secret: not a hit after all
                db.decr(HITS)
            return page
        except valkey.exceptions.ValkeyError as error:
            self._valkey_failed(error)
            return None

    def _reserved(
        self, db: t.Any, now: datetime.datetime, status: int, month: int, day: int, month_ms: int
    ) -> None:
        """Raise BudgetSpent for a refused reservation; announce the use of a granted one."""
        monthly, daily = self.settings.monthly_budget, self.settings.daily_budget
        month_resets = time.time() + max(int(month_ms), 0) / 1000
        if status == -1:
            raise _spent(f"{int(month):,} of {monthly:,} this month, resets {_day(month_resets)}")
        if status == -2:
            raise _spent(f"{int(day):,} of {daily:,} today, resets {_day(day_end(now).timestamp())}")
        try:
            self._announce(db, "month", int(month), monthly, month_resets)
            self._announce(db, "day", int(day), daily, day_end(now).timestamp())
        except valkey.exceptions.ValkeyError as error:
            self._valkey_failed(error)

    def settle(self, url: str, status: int, body: bytes, headers: Mapping[str, str]) -> None:
        """After Brave answered: keep a 2xx answer, give the reservation of any other back, and
        take Brave's monthly figures as the truth about the month. One valkey round trip."""
        db = self._db()
        if db is None:
            return
        calls: list[tuple[str, list[t.Any], list[t.Any]]] = []
        if 200 <= status < 300:
            calls += self._store(url, body)
        elif self._budgets_on():
            calls.append((_RELEASE, [MONTH, DAY], []))
        reported = self._brave_month(headers)
        if reported is not None:
            limit, remaining, reset = reported
            args = [max(limit - remaining, 0), _ms(reset), limit, remaining, int(time.time() + reset)]
            calls.append((_SYNC, [MONTH, QUOTA], args))
        try:
            self._run_together(db, calls)
            if reported is not None:
                limit, remaining, reset = reported
                self._announce(db, "Brave's quota", limit - remaining, limit, time.time() + reset)
        except valkey.exceptions.ValkeyError as error:
            self._valkey_failed(error)

    def _run_together(self, db: t.Any, calls: list[tuple[str, list[t.Any], list[t.Any]]]) -> None:
        """The scripts ``calls`` in one pipeline. By their SHA alone: a pipeline of registered
        scripts asks valkey whether they are loaded first, a round trip of its own."""
        if not calls:
            return
        pipe = db.pipeline(transaction=False)
        for source, keys, args in calls:
            pipe.evalsha(self._script(db, source).sha, len(keys), *keys, *args)
        answers = pipe.execute(raise_on_error=False)
        for (source, keys, args), answer in zip(calls, answers, strict=True):
            if isinstance(answer, valkey.exceptions.NoScriptError):  # valkey restarted: load it again
                self._script(db, source)(keys=keys, args=args)
            elif isinstance(answer, Exception):
                raise answer

    def keep_page(self, page_key: str, url: str, page: bytes) -> None:
        """Keep SearXNG's JSON answer to a search whose Brave request is ``url``, as long as Brave's
        answer would be kept and among the same most entries. One valkey round trip."""
        db = self._db()
        if db is None:
            return
        try:
            self._run_together(db, self._store(url, page, key=page_key, index=PAGE_INDEX))
        except valkey.exceptions.ValkeyError as error:
            self._valkey_failed(error)

    def _store(
        self, url: str, body: bytes, key: str | None = None, index: str = INDEX
    ) -> list[tuple[str, list[t.Any], list[t.Any]]]:
        """The script call that keeps ``body`` as the answer to ``url`` (under ``key``, else the
        key of Brave's answer to ``url``; listed in ``index``), if it is to be kept."""
        seconds = answer_lifetime(url, self.settings.cache_seconds)
        if seconds <= 0 or self.settings.cache_entries <= 0:
            return []
        key = key or self._key(url)
        sealed = self._seal(key, body)
        if len(sealed) > MAX_ANSWER_BYTES:
            return []
        return [(_STORE, [key, index], [sealed, seconds, repr(time.time()), self.settings.cache_entries])]

    def _announce(self, db: t.Any, window: str, used: int, budget: int, resets: float) -> None:
        """Log once per window when use reaches 50, 80 or 100 % of ``budget``."""
        if budget <= 0:
            return
        reached = next((p for p in THRESHOLDS if used * 100 >= p * budget), None)
        if reached is None:
            return
        key = f"{LOGGED}{window}:{_day(resets)}:{reached}"
        if key in self._announced:
            return  # this process saw it set: asking valkey again would cost every request a round trip
        if len(self._announced) > ANNOUNCED_KEPT:
            self._announced.clear()  # older windows' keys; a cleared one costs one more SET NX
        announced_now = db.set(key, 1, nx=True, px=_ms(resets - time.time()))
        self._announced.add(key)
        if announced_now:
            level = logging.WARNING if reached == 100 else logging.INFO
            what = (
                "of Brave's monthly quota" if window == "Brave's quota" else f"of the {window}'s Brave budget"
            )
            log.log(
                level,
                "Brave use: %s of %s %s (%d %%), resets %s",
                f"{used:,}",
                f"{budget:,}",
                what,
                reached,
                _day(resets),
            )

    # --- in sight -------------------------------------------------------------------

    def usage(self) -> dict[str, t.Any]:
        """The month's figures, for /llmweb/usage and llmweb doctor."""
        now = _now()
        figures: dict[str, t.Any] = {
            "budget": {"monthly": self.settings.monthly_budget, "daily": self.settings.daily_budget},
            "cache_seconds": self.settings.cache_seconds,
        }
        db = self._client  # asked even while paused: the admin wants to know how it is now
        if db is None:
            return {**figures, "valkey": "not configured"}
        try:
            month, day, hits, misses = (int(v or 0) for v in db.mget(MONTH, DAY, HITS, MISSES))
            month_ms, entries, quota = db.pttl(MONTH), db.zcard(INDEX), db.hgetall(QUOTA)
        except valkey.exceptions.ValkeyError as error:
            return {**figures, "valkey": f"does not answer ({type(error).__name__})"}
        month_resets = time.time() + month_ms / 1000 if month_ms > 0 else month_end(now).timestamp()
        brave = {k.decode(): int(v) for k, v in quota.items()} if quota else None
        if brave:
            brave["resets"] = _day(brave["resets"])  # type: ignore[assignment]
        return {
            **figures,
            "valkey": "ok",
            "month": {"requests": month, "resets": _day(month_resets)},
            "day": {"requests": day, "resets": _day(day_end(now).timestamp())},
            "brave": brave,
            "cache": {"hits": hits, "misses": misses, "entries": entries},
        }


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _spent(detail: str) -> BudgetSpent:
    text = f"Brave budget spent: {detail}"
    webutils.exception_classname_to_text[BUDGET_SPENT_KEY] = text
    return BudgetSpent(text)


def cached_response(method: str, url: str, body: bytes) -> httpx.Response:
    """A stored answer dressed as the response SearXNG's network returns."""
    response = httpx.Response(
        200,
        headers={"content-type": "application/json", "x-llmweb-cache": "hit"},
        content=body,
        request=httpx.Request(method, url),
    )
    response.ok = True  # type: ignore[attr-defined]  # SearXNG's requests-style attribute
    return response


class CachedAnswer:
    """A stored answer as the engine's response() reads it in pre_search (status, headers, JSON):
    building an httpx.Response, whose URL parsing is pure Python, cost a cache hit a quarter
    of a millisecond. The network's path, which SearXNG reads further, gets cached_response."""

    status_code = 200
    ok = True

    def __init__(self, url: str, body: bytes) -> None:
        self.url = url
        self.content = body
        self.headers = {"content-type": "application/json", "x-llmweb-cache": "hit"}

    @property
    def text(self) -> str:
        return self.content.decode()

    def json(self) -> t.Any:
        return json.loads(self.content)


SPENDING: dict[str, Spending] = {}
"""Per engine name, for the usage endpoint."""


class SpendingNetwork:
    """The engine's SearXNG network with the cache and the budget in front of its requests to Brave.

    SearXNG looks an engine's network up by name for every search, so this stands in for the
    engine's own one in that table; everything but ``request`` goes to the original."""

    def __init__(self, network: t.Any, spending: Spending, base_url: str) -> None:
        self._network = network
        self._spending = spending
        self._base_url = base_url

    def __getattr__(self, name: str) -> t.Any:
        return getattr(self._network, name)

    async def request(self, method: str, url: str, **kwargs: t.Any) -> httpx.Response:
        spending = self._spending
        if method.upper() != "GET" or not url.startswith(self._base_url):
            return t.cast(httpx.Response, await self._network.request(method, url, **kwargs))
        # A search whose pre_search looked this request up already (a miss, counted and reserved)
        # is not looked up again.
        looked_up = spending.looked_up.take(url)
        if looked_up is None and spending.keeps_anything():
            looked_up = await _off_the_loop(spending.lookup, url)
        if looked_up is not None and looked_up.body is not None:
            return cached_response(method, url, looked_up.body)
        response: httpx.Response = await self._network.request(method, url, **kwargs)
        await _off_the_loop(spending.settle, url, response.status_code, response.content, response.headers)
        return response


_T = t.TypeVar("_T")
# Plugins whose pre_search decides what the cache is asked for (the language policy).
LANGUAGE_FIRST = frozenset({"llmweb_language"})
_VALKEY_WORK = ThreadPoolExecutor(VALKEY_THREADS, thread_name_prefix="llmweb-spend")


async def _off_the_loop(call: t.Callable[..., _T], *args: t.Any) -> _T:
    """``call(*args)`` on the budget's own threads: valkey's round trips never hold SearXNG's
    event loop, and a hung valkey never takes the loop's default threads (its name lookups)."""
    return await asyncio.get_running_loop().run_in_executor(_VALKEY_WORK, functools.partial(call, *args))


def install(engine_name: str, base_url: str, settings: SpendSettings, brave_month: BraveMonth) -> Spending:
    """Put the cache and the budget between the engine's network and Brave.

    SearXNG finds an engine's network under the engine's name for every search, also when the
    engine borrows another's (``network: other`` files that one under this name too): the
    entry under the engine's name is the one replaced, so a borrowed network is never wrapped
    for every engine sharing it."""
    url = get_setting("valkey.url", None)
    secret = str(get_setting("server.secret_key", ""))
    spending = Spending(settings, secret, str(url) if url else None, brave_month)
    SPENDING[engine_name] = spending
    NETWORKS[engine_name] = SpendingNetwork(NETWORKS[engine_name], spending, base_url)
    if not url:
        log.warning("%s: no valkey, so Brave's budget is not kept and answers are not cached", engine_name)
    else:
        log.info(
            "%s: Brave budget %s a month, %s a day; answers cached for %s s",
            engine_name,
            settings.monthly_budget or "no cap",
            settings.daily_budget or "no cap",
            settings.cache_seconds or "0 (off)",
        )
    return spending


class SXNGPlugin(Plugin):
    """Serves the month's Brave figures at /llmweb/usage; answers cache hits before the engine runs."""

    id = "llmweb_spend"

    def __init__(self, plg_cfg: PluginCfg) -> None:
        super().__init__(plg_cfg)
        self.info = PluginInfo(
            id=self.id,
            name="llmweb spend",
            description="The month's Brave requests, budget and cache, as JSON at /llmweb/usage.",
            preference_section=None,
        )

    def init(self, app: flask.Flask) -> bool:
        if log.getEffectiveLevel() > logging.INFO:
            log.setLevel(logging.INFO)  # the budget lines are for the admin, whatever SearXNG's level
        app.add_url_rule(USAGE_PATH, "llmweb_usage", _usage_view)
        # Imported here: it builds on this module, loaded by then.
        from searx.plugins.llmweb import json_answers

        json_answers.install(app)
        return True

    def pre_search(self, request: SXNG_Request, search: SearchWithPlugins) -> bool:
        """Answer our engines' part of a search from the cache before SearXNG's engine machinery
        (a thread per engine, the network loop) runs: a hit costs one valkey round trip, and a
        miss's lookup (counted, a request reserved) is the only one its Brave request makes.

        Everything before this still holds: the limiter counted the request, and the language
        policy is applied first, here: SearXNG keeps its plugins in a set, so their order is
        a process's chance, and the language plugin's pre_search (which only pins the
        language, so running it twice is harmless) is called before the cache is asked. The
        engine's own request() builds the URL, as for a real request, and its own response()
        reads the answer, so the JSON is the same. A bang or a query SearXNG's answerers take
        is left alone, as are a suspended engine, an engine without the cache and a spent
        budget (the engine's own request reports it)."""
        query = search.search_query
        if query.external_bang or not any(caches(ref.name) for ref in query.engineref_list):
            return True
        apply_language_policy(request, search)
        if searx.answerers.STORAGE.ask(query.query):
            return True  # SearXNG answers it without asking any engine
        remaining = []
        for ref in query.engineref_list:
            results = _cached_results(ref.name, ref.category, search) if caches(ref.name) else None
            if results is None:
                remaining.append(ref)
            else:
                search.result_container.extend(ref.name, results)
        query.engineref_list = remaining
        return True

    def post_search(self, request: SXNG_Request, search: SearchWithPlugins) -> None:
        """Give back what this search's lookups reserved for requests its engines never sent, and
        show plugins/json_answers.py what the search found."""
        flask.g.llmweb_results = search.result_container
        for engine_name, url in _LOOKED_UP.pop(search, ()):
            spending = SPENDING[engine_name]
            left = spending.looked_up.take(url)
            if left is not None and left.reserved:
                spending.release()


# Per search: the (engine, url) its pre_search looked up and left to the engine to request.
_LOOKED_UP: weakref.WeakKeyDictionary[SearchWithPlugins, list[tuple[str, str]]] = weakref.WeakKeyDictionary()


def caches(engine_name: str) -> bool:
    """Whether ``engine_name`` is one of ours whose answers a search may find in the cache."""
    spending = SPENDING.get(engine_name)
    return spending is not None and spending.caches()


def apply_language_policy(request: SXNG_Request, search: SearchWithPlugins) -> None:
    """The language plugin's pre_search, before the cache is asked (it only pins the language, so
    its running again in SearXNG's own turn is harmless)."""
    for plugin in searx.plugins.STORAGE:
        if plugin.id in LANGUAGE_FIRST and plugin.id in search.user_plugins:
            plugin.pre_search(request, search)


def suspended(engine_name: str) -> bool:
    """Whether SearXNG has ``engine_name`` suspended (after an error), so a search asks it nothing."""
    processor = PROCESSORS.get(engine_name)
    return processor is None or bool(processor.suspended_status.is_suspended)


def brave_url(engine_name: str, category: str, query: SearchQuery) -> str | None:
    """The URL the engine's own request() builds for ``query``; None: the engine would ask nothing
    (suspended, beyond its pages) or fails (its usual path meets that again and reports it)."""
    if suspended(engine_name):
        return None
    processor = PROCESSORS[engine_name]
    params = processor.get_params(query, category)
    if params is None:
        return None
    try:
        processor.engine.request(query.query, params)
    except Exception:  # the engine's usual path meets it again and reports it
        return None
    url = params.get("url")
    return str(url) if url else None


def _cached_results(engine_name: str, category: str, search: SearchWithPlugins) -> list[t.Any] | None:
    """The engine's results for the search from the cache, or None: a miss (then counted, a request
    reserved, and left for the engine's network to take), or not answerable here."""
    query = search.search_query
    url = brave_url(engine_name, category, query)
    if url is None:
        return None
    spending = SPENDING[engine_name]
    try:
        looked_up = spending.lookup(url)
    except BudgetSpent:
        return None  # the engine's own request looks up again and reports it
    if looked_up.body is None:
        if looked_up.counted or looked_up.reserved:
            spending.looked_up.add(url, looked_up)
            _LOOKED_UP.setdefault(search, []).append((engine_name, url))
        return None
    try:
        return list(PROCESSORS[engine_name].engine.response(CachedAnswer(url, looked_up.body)))
    except Exception:  # the engine's usual path meets it again and reports it
        return None


def _usage_view() -> flask.Response:
    figures = {name: spending.usage() for name, spending in sorted(SPENDING.items())}
    return flask.Response(json.dumps({"engines": figures}, indent=2), mimetype="application/json")
