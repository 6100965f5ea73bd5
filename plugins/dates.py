# SPDX-License-Identifier: AGPL-3.0-or-later
"""The results page shows a result's date once.

Our Brave engine starts each result's ``content`` with its date (``2024-10-07 — …``) because
a model reads only the text, and sets ``publishedDate`` too. SearXNG's results page prints
``publishedDate`` before the content, so a person would read the date twice; on the page
(HTML searches only) the prefix is taken off. JSON, CSV and RSS answers keep it.

.. code:: yaml

  plugins:
    searx.plugins.llmweb.dates.SXNGPlugin:
      active: true
"""

from __future__ import annotations

import datetime
import typing as t

from searx.plugins import Plugin, PluginCfg, PluginInfo

if t.TYPE_CHECKING:
    from searx.extended_types import SXNG_Request
    from searx.result_types import Result
    from searx.search import SearchWithPlugins

DATE_SEPARATOR = " — "  # the engine's (engines/llmwebbrave.py DATE_SEPARATOR)


def without_date_prefix(content: str, published: object) -> str:
    """``content`` without a leading ``YYYY-MM-DD — `` that repeats ``published``'s date."""
    if not isinstance(published, datetime.date):
        return content
    day = published.date() if isinstance(published, datetime.datetime) else published
    prefix = day.isoformat()
    if content == prefix:
        return ""
    return content.removeprefix(prefix + DATE_SEPARATOR)


class SXNGPlugin(Plugin):
    """Drops the engine's date prefix from results shown on the HTML page."""

    id = "llmweb_dates"

    def __init__(self, plg_cfg: PluginCfg) -> None:
        super().__init__(plg_cfg)
        self.info = PluginInfo(
            id=self.id,
            name="llmweb dates",
            description="Shows a result's date once on the results page.",
            preference_section=None,
        )

    def on_result(self, request: SXNG_Request, search: SearchWithPlugins, result: Result) -> bool:
        if request.form.get("format", "html") != "html":
            return True
        content = getattr(result, "content", None)
        if isinstance(content, str):
            result.content = without_date_prefix(content, getattr(result, "publishedDate", None))
        return True
