"""The deployment without Docker, as ``scripts/serve`` runs it: servers, not the client.

:mod:`.stack` starts SearXNG (granian) with settings/, our engine and plugins, and a
valkey/redis server; :mod:`.proxy` finds and configures Caddy in front of several replicas.
Nothing in ``llmweb`` imports this package; it needs the ``server`` extra.
"""
