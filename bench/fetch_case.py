"""One web_fetch case in a fresh process: ``python -m bench.fetch_case URL WARMUP_URL REPEAT``.

Prints one JSON line: the outcome, the seconds per call, the resident memory at the
baseline and its peak during the calls. The baseline is taken after the imports and one
small warm-up fetch, so modules that load on first use count in the baseline, not
against the page. Linux lets a process reset its recorded peak (VmHWM, by writing 5 to
/proc/self/clear_refs), so the peak is the calls' own even when the imports peaked
higher; elsewhere ru_maxrss is used, which can hide a peak below the imports' one.
"""

from __future__ import annotations

import json
import resource
import sys
import time


def _status_kib(field: str) -> int | None:
    try:
        with open("/proc/self/status") as status:
            lines = status.read().splitlines()
    except OSError:
        return None
    found = next((line for line in lines if line.startswith(field + ":")), None)
    return int(found.split()[1]) if found else None


def reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def peak_kib(resettable: bool) -> int:
    peak = _status_kib("VmHWM") if resettable else None
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def current_kib(resettable: bool) -> int:
    rss = _status_kib("VmRSS") if resettable else None
    return rss if rss is not None else peak_kib(False)


def main() -> None:
    url, warmup, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
    from llmweb.errors import LlmwebError
    from llmweb.fetch import web_fetch

    web_fetch(warmup)
    resettable = reset_peak()
    baseline = current_kib(resettable)
    seconds: list[float] = []
    outcome: dict[str, object] = {}
    for _ in range(repeat):
        started = time.perf_counter()
        try:
            result = web_fetch(url)
            outcome = {"ok": True, "total_chars": result.total_chars}
        except LlmwebError as exc:
            outcome = {"ok": False, "error": type(exc).__name__, "message": str(exc)[:300]}
        seconds.append(time.perf_counter() - started)
    method = "VmHWM reset" if resettable else "ru_maxrss"
    print(
        json.dumps(
            {
                **outcome,
                "seconds": seconds,
                "baseline_kib": baseline,
                "peak_kib": peak_kib(resettable),
                "method": method,
            }
        )
    )


if __name__ == "__main__":
    main()
