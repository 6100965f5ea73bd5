# SPDX-License-Identifier: AGPL-3.0-or-later
# pylint: disable=missing-module-docstring
# this file is generated automatically by searx/version.py

VERSION_STRING = "2026.8.13+ef9a188cc"
VERSION_TAG = "2026.8.13+ef9a188cc"
DOCKER_TAG = "2026.8.13-ef9a188cc"
GIT_URL = "https://github.com/searxng/searxng"
GIT_BRANCH = "master"
