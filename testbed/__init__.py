"""What the tests and the bench both run against: the outside world faked on loopback.

- :mod:`.fake_brave` — Brave's API answers, served from recorded shapes (``answer_index``).
- :mod:`.faults` — a fake Brave that fails on purpose (slow, 429, 5xx, broken), and load.
- :mod:`.attacks` — hostile pages and the servers that send them, for web_fetch.
- :mod:`.pdf` — small valid PDF files, one writer of objects for every kind.
- :mod:`.bad_inputs` — malformed tool calls and arguments.
- :mod:`.loopback_guard` — refuses, and records, any step off loopback in a process
  (``loopback_site/`` installs it in subprocesses).
- :mod:`.processes` — starting and stopping the servers a test or a run needs.
"""
