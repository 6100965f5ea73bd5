"""Installs testbed/loopback_guard.py in a Python subprocess a test starts with ``guarded_env``.

Loaded by file path, not by putting tests/ on the subprocess's path, where its modules
(conftest, chromium, compose) would shadow others.
"""

import importlib.util
import os
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "llmweb_test_loopback_guard", Path(__file__).resolve().parent.parent / "loopback_guard.py"
)
assert _spec is not None and _spec.loader is not None
_guard = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_guard)
_log = os.environ.get(_guard.LEAK_LOG_VARIABLE)
_guard.install(_guard.record_in_file(_log) if _log else lambda message: print(message, file=sys.stderr))
