"""The extractors compared, each HTML string (+ URL) → text, called as their own benchmarks call them.

Optional ones are skipped with a note when not installed (the bench extra installs them).
"""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Callable
from dataclasses import dataclass

Extract = Callable[[str, str], str]


@dataclass(frozen=True)
class Extractor:
    name: str
    how: str
    extract: Extract
    needs: tuple[str, ...] = ()  # importable modules
    needs_node: bool = False
    sample: int | None = None  # score only this many pages (seeded): for the slow ones
    warm_pages: int | None = None  # pages read untimed before the timed pass (None: every page)

    def missing(self) -> str | None:
        """Why this extractor cannot run here, or None."""
        absent = [m for m in self.needs if importlib.util.find_spec(m) is None]
        if absent:
            return f"not installed ({', '.join(absent)}); scripts/bootstrap server,dev,bench installs it"
        if self.needs_node and not _node_ready():
            return "Node.js or readabilipy's JavaScript dependencies are not available"
        return None


def llmweb_extract(html: str, url: str) -> str:
    """What web_fetch returns for an HTML page: read_html_page's text (an error gives no text)."""
    from llmweb.errors import LlmwebError
    from llmweb.fetch.html.extract import read_html_page

    try:
        return read_html_page(html, url).text
    except LlmwebError:
        return ""


def trafilatura_default(html: str, url: str) -> str:
    import trafilatura

    return trafilatura.extract(html, url=url or None) or ""


def trafilatura_benchmark(html: str, url: str) -> str:
    import trafilatura

    return trafilatura.extract(html, include_comments=False) or ""  # as run_trafilatura.py calls it


def readability_lxml(html: str, url: str) -> str:
    import html_text
    from readability import Document

    return str(html_text.extract_text(Document(html).summary(html_partial=True)))  # as run_readability.py


def readability_lxml_plain(html: str, url: str) -> str:
    """readability-lxml's summary as plain text, <pre> untouched (html_text respaces code)."""
    import lxml.html
    from readability import Document

    from bench.docs_corpus import block_text

    return block_text(lxml.html.fromstring(Document(html).summary(html_partial=True)), tidy=False)


def html2text_page(html: str, url: str) -> str:
    from html2text import HTML2Text

    converter = HTML2Text()
    converter.ignore_links = True  # as run_html2text.py
    converter.ignore_images = True
    return str(converter.handle(html))


def _mcp_fetch(use_readability: bool) -> Extract:
    """The MCP reference fetch server's extract_content_from_html, with use_readability as given."""

    def extract(html: str, url: str) -> str:
        import contextlib
        import io

        import markdownify
        from readabilipy.simple_json import simple_json_from_html_string

        with contextlib.redirect_stderr(io.StringIO()):  # it prints node's complaints
            ret = simple_json_from_html_string(html, use_readability=use_readability)
        if not ret["content"]:
            return ""
        return str(markdownify.markdownify(ret["content"], heading_style=markdownify.ATX))

    return extract


def _node_ready() -> bool:
    if shutil.which("node") is None or importlib.util.find_spec("readabilipy") is None:
        return False
    from readabilipy.simple_json import have_node  # runs npm install once, as the package does on first use

    return bool(have_node())


READABILITY_PLAIN = Extractor(
    "readability-lxml, summary as plain text",
    "Document.summary, block elements on new lines, <pre> text as it is",
    readability_lxml_plain,
    ("readability",),
)
LLMWEB = Extractor(
    "web_fetch (llmweb.fetch.html.extract.read_html_page)",
    "trafilatura tree + code blocks kept verbatim",
    llmweb_extract,
)
TRAFILATURA = Extractor(
    "trafilatura, default extract()", "trafilatura.extract(html)", trafilatura_default, ("trafilatura",)
)
READABILITY = Extractor(
    "readability-lxml",
    "Document.summary + html_text, as run_readability.py",
    readability_lxml,
    ("readability", "html_text"),
)
ARTICLE_EXTRACTORS = (
    LLMWEB,
    TRAFILATURA,
    Extractor(
        "trafilatura, the benchmark's call",
        "trafilatura.extract(html, include_comments=False), as run_trafilatura.py",
        trafilatura_benchmark,
        ("trafilatura",),
    ),
    READABILITY,
    Extractor(
        "html2text, whole page",
        "HTML2Text, links and images off, as run_html2text.py",
        html2text_page,
        ("html2text",),
    ),
    Extractor(
        "MCP fetch server: readabilipy (Readability.js) + markdownify",
        "extract_content_from_html as the server calls it (use_readability=True, needs Node.js)",
        _mcp_fetch(True),
        ("readabilipy", "markdownify"),
        needs_node=True,
        sample=24,  # a Node.js process per page, about 0.8 s each here: all pages would take minutes
        warm_pages=1,  # its one-time cost is npm's, on the first page
    ),
    Extractor(
        "MCP fetch server without Node: readabilipy (pure Python) + markdownify",
        "the same with use_readability=False, what it falls back to without Node.js",
        _mcp_fetch(False),
        ("readabilipy", "markdownify"),
        # 150 ms a page: a pass over every page untimed took 19 s, for one-time costs (its imports)
        # that the first pages pay
        warm_pages=10,
    ),
)
