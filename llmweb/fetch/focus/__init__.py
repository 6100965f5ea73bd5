"""A question about a page → the passages that answer it (web_fetch's ``query``, web_research).

- :mod:`.passages` — the page's markdown split into passages, ranked by BM25+, packed.
- :mod:`.terms` — text → the terms compared: Snowball stems, code identifiers split and joined.
- :mod:`.glossary` — Polish → English words, for a Polish question about an English page.
"""
