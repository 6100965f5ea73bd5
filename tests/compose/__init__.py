"""The compose suite: docker-compose.yml run on a real Docker engine (``scripts/test compose``).

Stand-in images replace the official ones (no image registry is reachable here), a fake Brave
with a throwaway CA answers on the compose network, and each test drives its own compose
project. The normal ``scripts/test`` does not collect this folder (tests/conftest.py).
"""
