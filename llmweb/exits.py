"""Exit codes of llmweb's commands (``llmweb …`` and ``python -m llmweb.mcp_server``)."""

OK = 0
NOTHING_FOUND = 1  # the search worked and found nothing (research: no passage answers)
FAILED = 2  # the search or fetch failed, or doctor found a problem
USAGE = 64  # sysexits.h EX_USAGE: unusable arguments (argparse's own 2 would read as "failed")
