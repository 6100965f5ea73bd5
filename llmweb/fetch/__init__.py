"""web_fetch: read one web page for a local model, safely.

Modules, pure core first: :mod:`.addresses` (which IPs may be reached), :mod:`.rewrite`
(URL checks, GitHub rewrites), :mod:`.extract` and :mod:`.markdown` (HTML → text),
:mod:`.content` (bytes → text by type, charsets), :mod:`.pdf` (a PDF's text, bounded),
:mod:`.workload` (what a page will cost to extract), :mod:`.inflate` (bounded gzip),
:mod:`.window` (paging), :mod:`.limits` (every bound); :mod:`.transport` is the only
network code; :mod:`.worker` runs the extraction in a process the deadline and a memory
ceiling bound; :mod:`.page` puts them together.
"""

from llmweb.fetch.page import FetchRequest, FetchResult, web_fetch

__all__ = ["FetchRequest", "FetchResult", "web_fetch"]
