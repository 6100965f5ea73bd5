"""Tunables of web_fetch, in one place so a reader sees every bound the fetcher keeps."""

from __future__ import annotations

from llmweb import config

MAX_BYTES = 5_000_000
"""Decoded body cap. A median article is ~115 KB of HTML; 5 MB still fits big manuals and PDFs."""

ERROR_BODY_BYTES = 256_000
"""How much of an error page (4xx/5xx) is read: enough to recognise a bot challenge."""

TIMEOUT_SECONDS = 20.0
"""One deadline for the whole fetch: resolving, connecting, every read, every redirect, and
turning the body into text (HTML extraction, PDF text), which runs in a worker killed at it."""

MAX_REDIRECTS = 5
"""HTTP redirects and refreshes (:mod:`.net.refresh`) together."""

REFRESH_MAX_DELAY = 10
"""Seconds: a page refreshing to another address within this is a redirect stub, followed; a
later refresh (a session's end, a slideshow's next page) is left alone."""

REFRESH_SCAN_BYTES = 65_536
"""How much of a page's start is searched for ``<meta http-equiv="refresh">``: its head."""

MAX_PDF_PAGES = 50
"""Pages of a PDF whose text is read; the result says when a document was cut."""

# --- the work after the download ------------------------------------------------------
# The byte cap bounds what is downloaded, not what parsing it costs: 5 MB of `<td>x` is
# 950,000 table cells, which trafilatura needed 37 s and 1.6 GB for. Extraction costs
# roughly 20-90 µs and 2-5 KB per element on this 2-core machine, more for some kinds, so
# each cap below is set where a page made of nothing else still extracts in seconds and
# under the memory ceiling, and well above what real pages hold (the most in any of the
# 2,096 pages of Python's and Rust's manuals the docs bench unpacks, and the 4,800 pages of
# Node.js, Django, Javadoc, Haddock and Doxygen manuals added since). They are counted in
# the tree libxml2 built, before trafilatura sees it (:mod:`.html.workload`), after a bound in the
# text has kept the parse itself cheap; the worker's deadline and memory ceiling bound the rest.

MAX_ELEMENTS = 100_000
"""HTML elements, as the parser built them. The largest real page
measured, rustdoc's 3.3 MB std::num::Wrapping, has 56,000 and extracts in 3 s and 175 MB; a
page of 80,000 bare <div>s took 5 s and 145 MB, of 80,000 <span>s 7.5 s and 225 MB. Past
100,000 the deadline or the memory ceiling would end the work instead of an answer."""

MAX_PARSED_TAGS = 300_000
"""Possible elements (every "<" before a letter, in scripts and comments too) of a page that is
parsed at all: libxml2 builds at most this many plus three, in about 0.3 s and 90 MB, and the
caps below then refuse it by its exact counts. Real pages hold far fewer: rustdoc's Wrapping
page has 56,000 elements; its scripts add few "<"."""

MAX_PARAGRAPHS = 25_000
"""<p> elements. trafilatura asks libxml2 for ``//p//text()``, which merges one node set per
paragraph and slows down with their square: 10,000 took 0.1 s, 30,000 3 s, 40,000 7 s.
Manuals hold a few thousand (rustdoc's largest page: 2,141), a novel on one page 12,000."""

MAX_ATTRIBUTES = 2000
"""Attributes of one element, as the text is scanned before parsing. libxml2 checks each new
attribute against the ones before it: 10,000 took 0.7 s to parse, 40,000 24 s; 5 MB of elements
with 2,000 each 3.9 s, with 500 each 1.0 s. Real elements carry a few dozen, but the scan also
reads an SVG drawing written into an image's data: address (``src="data:image/svg+xml,<svg
d=&quot;M 0 0 L 92 …``) as a tag with one attribute per number: a WCXB page's logo had over
1,000."""

MAX_TABLE_CELLS = 50_000
"""Table cells (<td>, <th>). 100,000 cells took 4.5 s and 230 MB; the manuals hold at most
549 a page, a list of 2,000 rows of ten columns 20,000. Bigger tables are data: a CSV or an
API serves them better."""

MAX_LINKS = 35_000
"""Links (<a>). Each costs trafilatura about 5 KB (its link-density checks): 40,000 took
200 MB. Wrapping's page above holds 24,000; Haddock's GHC.Exts page 32,349, nearly all in
type signatures (read as a manual, without trafilatura, in 0.9 s and 87 MB). Haddock's
Prelude, 54,000, stays past this cap with indexes and sitemaps: a page that only looks like
a manual still goes through trafilatura."""

MAX_CODE_BLOCKS = 5_000
"""<pre> blocks. The manuals measured hold at most 260 a page. Each becomes a placeholder
paragraph while trafilatura runs, so it also counts towards the paragraphs' square above."""

MAX_PDF_PAGE_CONTENT_BYTES = 500_000
"""Drawing instructions (decompressed content streams) of one PDF page. pypdf reads about
0.3 MB of them a second; a page of text holds 10-60 KB, so a page over this is a vector
drawing or a hostile file. It is skipped, and the result says so."""

MAX_PDF_CONTENT_BYTES = 2_000_000
"""Drawing instructions read in one PDF, about 7 s of pypdf: fifty pages of dense text hold
0.5-2 MB. Reading stops before the page that would pass it, and the result says where."""

MAX_PDF_STREAM_TOKENS = 400_000
"""pypdf's parsing budget for one content stream (its default is 2,000,000), a page's or a
form's: the page sizes above do not see forms, which a page may draw many times."""

MAX_PDF_FORM_INVOCATIONS = 1_000
"""Forms (reusable drawings) one page may draw while its text is read; pypdf's default is
5,000, each parsing the form again. Logos and letterheads are drawn a few times a page."""

MAX_PDF_STREAM_BYTES = 16_000_000
"""Decompressed size of any one PDF stream (pypdf's default is 75 MB): a 5 MB file can hold
a flate bomb, and no stream whose text we read is near this."""

EXTRACT_MEMORY_BYTES = 224 * 1024 * 1024
"""Address space a worker may grow by while it turns one body into text (its RLIMIT_AS, set
above its size when the job starts, which is at most EXTRACT_WORKER_RETIRE_BYTES above its size
after the imports). The 5 MB article page needs about 135 MB, the Wrapping page above 175 MB,
the page of 95,000 marked notes 176-192 MB; the fetch's whole process tree should stay under
256 MB above rest, and the parent holds the body and the text the worker returns beside it: a
few copies of at most 5 MB, or 20 MB for JSON, whose pretty-printed form may grow to four
times the body. The parent itself never parses or counts the body: a page the worker could not
read is described by its size, its first and last kilobyte (its type) and what the worker
reported it counted."""

EXTRACT_WORKERS = 2
"""Worker processes extracting at once (and kept warm between calls). Extraction is CPU
work: more workers than cores only share the same cores, and each may use the memory above."""

EXTRACT_WORKER_RETIRE_BYTES = 64 * 1024 * 1024
"""A worker still this much bigger than at its start after a job (in memory or in address
space), once it has given freed memory back, exits after its answer and the next call starts a
fresh one: an idle worker stays small (about 70 MB), and what earlier jobs left beside the next
job's full memory ceiling stays within this."""

MIN_TEXT_CHARS = 200
"""Below this much text (visible, or recovered from the page's embedded data) an HTML page
is an empty shell: nothing of its subject reached the HTML."""

# --- data a page embeds for its scripts (:mod:`.javascript.embedded`) ---------------------------
# JSON-LD and framework state (__NEXT_DATA__, flight data, Nuxt payloads, Redux/Apollo
# stores) are parsed, never run. A 5 MB page can be one state blob of a million tiny
# strings or arrays nested thousands deep, so parsing and walking them is bounded too.

MAX_EMBEDDED_BYTES = 3_000_000
"""Script text parsed as data in one page, all payloads together. The most in the 52 saved
pages of ``scripts/bench jsshell`` is 2.0 MB (HelloFresh's __NEXT_DATA__ and JSON-LD); a
script past what is left of this is skipped, not cut (half a JSON document does not parse)."""

MAX_EMBEDDED_DEPTH = 60
"""Levels of nesting walked in one payload. Real state nests 10-30 deep (React flight trees
the deepest); a hostile one nests a million deep, and json itself refuses past ~1,000."""

MAX_EMBEDDED_NODES = 250_000
"""Values (objects, arrays, strings) walked in one page. The most in the saved pages is
96,000 (Picnic's flight data); 550,000 tiny strings stop here after about 2 s."""

MAX_EMBEDDED_TEXT_CHARS = 200_000
"""Text kept from embedded data: forty times a long article, so a page's whole subject fits
and a catalogue of every product a shop sells does not flood the answer."""

EMBEDDED_SECONDS = 4.0
"""Time the embedded data may take before reading stops with what was found: the fetch's
20-second deadline must still leave room for the visible text."""

MAX_TITLE_CHARS = 300
"""A page's title as a result carries it and an answer shows it beside the window: the longest
title in the article benchmark's pages is under 200 characters; a page can make it megabytes."""

MAX_SHOWN_FIELD_CHARS = 500
"""Any other short thing a page chose that an answer shows beside the window, each: a note
quoting the page, a heading in a passage's place, a JavaScript shell's description."""

MAX_CHARS = 5000
"""Default window size, as the MCP reference fetch server returns."""

MIN_WINDOW_CHARS = 500
MAX_WINDOW_CHARS = 50_000
"""Bounds of a window: smaller wastes calls, larger floods a small model's context."""

COMPRESS_MIN_CHARS = 5000
"""A compressor is only asked when the page's text is at least this long."""

USER_AGENT = f"{config.PRODUCT} (+self-hosted fetch for a local model)"

MAX_QUESTION_CHARS = 500
"""A question about a page (web_fetch's query): a sentence or two, with the names it is about.
Not a search query, whose bound is search.MAX_QUERY_CHARS (Brave's)."""
