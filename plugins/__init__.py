# SPDX-License-Identifier: AGPL-3.0-or-later
"""llmweb's SearXNG plugins, the package ``searx.plugins.llmweb``.

This folder is mounted (docker-compose.yml) or copied (serve/stack.py) into SearXNG's
``searx/plugins/`` as ``llmweb``, beside upstream's plugins and under a name of its own, so
the image's precompiled bytecode cannot shadow it. settings/settings.yml names each plugin
by its class path:

- ``searx.plugins.llmweb.guard.SXNGPlugin``: the limiter judges the real client (forwarded
  address headers count only from a declared proxy), stays on when valkey is late, answers
  clearly when valkey is gone, and the log says what an admin needs, not a line per request;
- ``searx.plugins.llmweb.language.SXNGPlugin``: whose language counts — a model's or a
  person's deliberate choice, not a JSON client's built-in default (setting ``llmweb_language``);
- ``searx.plugins.llmweb.dates.SXNGPlugin``: the results page shows a result's date once.
- ``searx.plugins.llmweb.spend.SXNGPlugin``: the Brave budget and answer cache the engine
  installs (spend.py), cache hits answered before the engine runs, and a repeated JSON search
  answered with the JSON it got before (json_answers.py).

The modules use only SearXNG and its dependencies, as the engine does.
"""
