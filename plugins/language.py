# SPDX-License-Identifier: AGPL-3.0-or-later
"""Whose language counts: the household's pinned locale against what a client sends.

SearXNG takes a search's language from, in order, a ``:xx`` part of the query, the
``language`` request field, the person's saved preference, ``search.default_lang``. Many
JSON clients send a ``language`` field they never asked the user about (LangChain's
SearxSearchWrapper always sends ``en``, the searxng-search package ``en-US``), which would
quietly turn the household's pinned locale off. This plugin lets the admin decide, with
the setting ``llmweb_language.honour``:

``every``
  every client's language counts (SearXNG's own behaviour);
``deliberate`` (default)
  only a deliberate choice counts: a language the query itself names (``:en python
  asyncio``, which llmweb's client sends for ``language="en"``), a person's pick in the
  results page's language menu (an HTML search), a person's saved preference. A JSON
  client's ``language`` field counts as "no preference": ``search.default_lang`` applies;
``never``
  the pinned locale (``search.default_lang``) always applies.

.. code:: yaml

  llmweb_language:
    honour: deliberate

  plugins:
    searx.plugins.llmweb.language.SXNGPlugin:
      active: true
"""

from __future__ import annotations

import logging
import typing as t

import babel
from searx import get_setting
from searx.plugins import Plugin, PluginCfg, PluginInfo
from searx.query import RawTextQuery

if t.TYPE_CHECKING:
    from searx.extended_types import SXNG_Request
    from searx.search import SearchWithPlugins

MODES = ("every", "deliberate", "never")
DEFAULT_MODE = "deliberate"
# The results page's own form sends no format; every API client names one (json, csv, rss).
PAGE_FORMAT = "html"


def honour_mode(settings: object) -> str:
    """The ``llmweb_language.honour`` setting; unknown values raise, so a typo cannot pass silently."""
    mode = settings.get("honour", DEFAULT_MODE) if isinstance(settings, dict) else DEFAULT_MODE
    if mode not in MODES:
        raise ValueError(f"llmweb_language.honour is {mode!r}; choose one of {', '.join(MODES)}")
    return str(mode)


def language_pinned(mode: str, *, query_names_language: bool, client_field: bool) -> bool:
    """Whether the pinned locale replaces the language SearXNG parsed from the request.

    ``client_field``: the request carries a ``language`` field and is not the results page's own
    form (an API client's field); ``query_names_language``: the query holds a ``:xx`` part."""
    if mode == "never":
        return True
    if mode == "every":
        return False
    return client_field and not query_names_language


class SXNGPlugin(Plugin):
    """Keeps the household's locale unless the language was chosen deliberately."""

    id = "llmweb_language"

    def __init__(self, plg_cfg: PluginCfg) -> None:
        super().__init__(plg_cfg)
        self.info = PluginInfo(
            id=self.id,
            name="llmweb language",
            description="A JSON client's built-in language does not override the instance's locale.",
            preference_section=None,  # the admin's policy, set in settings.yml
        )
        self.mode = DEFAULT_MODE
        self.pinned: tuple[str, babel.Locale | None] = ("all", None)

    def init(self, app: t.Any) -> bool:
        self.mode = honour_mode(get_setting(self.id, {}))
        # Settings are read once, at start (SearXNG does not reload them).
        self.pinned = pinned_locale(str(get_setting("search.default_lang", "") or "all"))
        if self.log.getEffectiveLevel() > logging.INFO:
            self.log.setLevel(logging.INFO)
        self.log.info("search language: %s (llmweb_language.honour)", self.mode)
        return True

    def pre_search(self, request: SXNG_Request, search: SearchWithPlugins) -> bool:
        form = request.form
        client_field = "language" in form and form.get("format", PAGE_FORMAT) != PAGE_FORMAT
        # The query is parsed only when its answer can change the outcome (SearXNG parses it
        # once more itself): a deliberate-mode search carrying a client's language field.
        named = (
            self.mode == "deliberate"
            and client_field
            and bool(RawTextQuery(str(form.get("q", "")), []).languages)
        )
        if language_pinned(self.mode, query_names_language=named, client_field=client_field):
            search.search_query.lang, search.search_query.locale = self.pinned
        return True


def pinned_locale(lang: str) -> tuple[str, babel.Locale | None]:
    """The search language and babel locale SearXNG's query gets for ``search.default_lang``."""
    try:
        return lang, babel.Locale.parse(lang, sep="-")
    except (ValueError, babel.UnknownLocaleError):
        return lang, None
