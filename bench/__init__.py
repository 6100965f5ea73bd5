"""scripts/bench: what users of a search stack for models care about, each figure beside its peer.

``python -m bench`` runs every part and writes bench/results.md; ``python -m bench PART``
runs one part and writes bench/results-PART.md. The parts:

text        characters and tokens per result: our engine against upstream's braveapi
searxng     latency and throughput through SearXNG under granian, and a profile of a search
extraction  precision, recall, F1 and speed on the Zyte article benchmark
docs        F1 and code-block survival on Python and Rust documentation
fetch       web_fetch end to end: time and peak memory, decompression bombs
tokens      characters web_fetch's extraction returns against the gold article length

Timings are reported, never asserted: tests/test_bench.py checks only the pure scoring.
"""
