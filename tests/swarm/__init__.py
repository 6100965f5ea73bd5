"""The swarm suite: deploy/swarm.yml on a one-node Docker Swarm on this machine (``scripts/test swarm``).

It reuses the compose suite's engine handling, stand-in images and throwaway CA (tests/compose);
the fake Brave runs as a service of the stack, on the stack's own network. The normal
``scripts/test`` does not collect this folder (tests/conftest.py).
"""
