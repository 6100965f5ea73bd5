"""The documentation corpus: pages of seven generators from Debian's documentation packages.

Sphinx (python3.11-doc), rustdoc (rust-doc), Node.js's own (nodejs-doc), Sphinx with
Django's theme (python-django-doc), Javadoc 17 (openjdk-17-doc), Haddock (ghc-doc) and
Doxygen (libstdc++-12-doc).

Fetched with ``apt-get download`` (Debian's own packages, no install) into
var/bench-cache/, and only the HTML folders the bench reads are unpacked from them.
Gold text = the page's main-content element; code blocks = its ``<pre>`` elements.
"""

from __future__ import annotations

import fnmatch
import random
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

import lxml.html

from bench.paths import CACHE


@dataclass(frozen=True)
class DocSet:
    package: str
    kind: str
    folder: str  # inside the package
    main_xpath: str  # the main-content element
    sample: int
    pattern: str = "*.html"
    exclude: tuple[str, ...] = ()  # glob patterns of paths (inside the folder) left out
    code_xpath: str = ".//pre"  # the code blocks inside the main element (outermost ones count)
    slug: str = ""  # the generator's name in figures (bench/floors.toml)


PYTHON = DocSet(
    "python3.11-doc",
    "Python (Sphinx)",
    "usr/share/doc/python3.11/html/library",
    "//div[@role='main']",
    80,
    slug="sphinx",
)
RUST = DocSet(
    "rust-doc",
    "Rust (rustdoc)",
    "usr/share/doc/rust-doc/html/std",
    "//*[@id='main-content']",
    40,
    "**/*.html",
    slug="rustdoc",
)
NODE = DocSet(
    "nodejs-doc",
    "Node.js (its own generator)",
    "usr/share/doc/nodejs/api",
    "//div[@id='apicontent']",
    30,
    exclude=("all.html", "index.html"),  # every page in one 5.8 MB file; the table of contents
    slug="nodejs",
)
DJANGO = DocSet(
    "python-django-doc",
    "Django (Sphinx, Django's theme)",
    "usr/share/doc/python-django-doc/html",
    "//div[@id='yui-main']",
    40,
    "**/*.html",
    # module source listings, 276 release notes, the search page and indexes
    exclude=("_modules/*", "releases/*", "search.html", "genindex.html", "py-modindex.html"),
    slug="django",
)
JAVADOC = DocSet(
    "openjdk-17-doc",
    "Java (Javadoc 17)",
    "usr/share/doc/openjdk-17-jre-headless/api/java.base",
    "//main[@role='main']",
    40,
    "**/*.html",
    exclude=("*/class-use/*", "*/package-tree.html", "*/package-use.html"),  # generated cross-indexes
    slug="javadoc",
)
HADDOCK = DocSet(
    "ghc-doc",
    "Haskell (Haddock)",
    "usr/share/doc/ghc-doc/html/libraries/base-4.15.1.0",
    "//div[@id='content']",
    40,
    exclude=("doc-index*.html", "index.html"),  # src/ (hyperlinked source) is below the pattern's depth
    slug="haddock",
)
DOXYGEN = DocSet(
    "libstdc++-12-doc",
    "C++ (Doxygen 1.9)",
    "usr/share/doc/gcc-12-base/libstdc++/user",
    "//div[@id='doc-content']",
    40,
    "a[0-9]*.html",
    exclude=("*_source.html",),  # source listings: a file of code each, not documentation
    # Doxygen writes code as a div of line divs, not <pre>
    code_xpath=".//pre | .//div[@class='fragment']",
    slug="doxygen",
)
DOC_SETS = (PYTHON, RUST, NODE, DJANGO, JAVADOC, HADDOCK, DOXYGEN)
SEED = 6


@dataclass(frozen=True)
class DocPage:
    kind: str
    path: str
    html: str
    gold: str
    code_blocks: tuple[str, ...]


class CorpusUnavailable(Exception):
    """apt could not provide a package; the message says why."""


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)


def download(package: str) -> Path:
    """The package's .deb in the cache, downloaded with apt-get (after apt-get update if needed)."""
    debs = CACHE / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    found = sorted(debs.glob(f"{package}_*.deb"))
    if found:
        return found[-1]
    if shutil.which("apt-get") is None:
        raise CorpusUnavailable(f"apt-get is not available, so {package} cannot be downloaded")
    attempt = _run(["apt-get", "download", package], debs)
    if attempt.returncode != 0:
        _run(["apt-get", "update", "-qq"], debs)
        attempt = _run(["apt-get", "download", package], debs)
    found = sorted(debs.glob(f"{package}_*.deb"))
    if attempt.returncode != 0 or not found:
        raise CorpusUnavailable(
            f"apt-get download {package} failed: {(attempt.stderr or attempt.stdout).strip()[-300:]}"
        )
    return found[-1]


def unpack(doc_set: DocSet) -> Path:
    """The doc set's folder, unpacked once from its .deb (only that folder, like dpkg -x would lay it)."""
    target = CACHE / "unpacked" / doc_set.package
    done = target / (".complete-" + doc_set.folder.replace("/", "_"))  # parts may unpack other folders
    if not done.exists():
        deb = download(doc_set.package)
        shutil.rmtree(target / doc_set.folder, ignore_errors=True)
        target.mkdir(parents=True, exist_ok=True)
        prefix = "./" + doc_set.folder + "/"
        with subprocess.Popen(["dpkg-deb", "--fsys-tarfile", str(deb)], stdout=subprocess.PIPE) as proc:
            assert proc.stdout is not None
            with tarfile.open(fileobj=proc.stdout, mode="r|") as archive:
                for member in archive:
                    if member.name.startswith(prefix) and (member.isfile() or member.isdir()):
                        archive.extract(member, target, filter="data")
        if proc.returncode != 0:
            raise CorpusUnavailable(f"dpkg-deb could not read {deb.name}")
        done.write_text(deb.name)
    return target / doc_set.folder


def _pre_text(pre: lxml.html.HtmlElement) -> str:
    for br in pre.iter("br"):
        br.tail = "\n" + (br.tail or "")
    return str(pre.text_content())


def _code_text(block: lxml.html.HtmlElement) -> str:
    """A code block as a reader sees it: a <pre>'s text, or a Doxygen fragment's line divs
    one to a line (without the line numbers of a source listing)."""
    if block.tag == "pre":
        return _pre_text(block)
    lines = block.xpath("./div[contains(concat(' ', @class, ' '), ' line ')]")
    for number in block.xpath(".//span[@class='lineno']"):
        number.drop_tree()
    return "\n".join(str(line.text_content()) for line in lines)


BLOCK_TAGS = frozenset(
    """p div section article main h1 h2 h3 h4 h5 h6 li dt dd tr td th pre blockquote table
    ul ol dl summary details""".split()  # noqa: SIM905
)


def block_text(element: lxml.html.HtmlElement, *, tidy: bool = True) -> str:
    """The element's visible text, with block elements on lines of their own.

    ``tidy`` drops blank lines and the spaces around each line (the gold text); without it
    lines stay as they are, so code keeps its indentation (an extractor's output)."""
    copy = lxml.html.fromstring(lxml.html.tostring(element))
    # what a browser does not show: scripts, styles, and an <iframe>'s fallback text
    for bad in copy.xpath(".//script | .//style | .//noscript | .//iframe"):
        bad.drop_tree()
    for el in copy.iter():
        if isinstance(el.tag, str) and el.tag in BLOCK_TAGS:
            el.text = "\n" + (el.text or "")
            el.tail = "\n" + (el.tail or "")
        elif el.tag == "br":
            el.tail = "\n" + (el.tail or "")
    text = str(copy.text_content())
    if not tidy:
        return text
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def read_page(doc_set: DocSet, path: Path, root: Path) -> DocPage | None:
    html = path.read_text(encoding="utf-8", errors="replace")
    if 'http-equiv="refresh"' in html[:2000]:  # rustdoc's redirect stubs
        return None
    tree = lxml.html.fromstring(html.encode())
    mains = tree.xpath(doc_set.main_xpath)
    if not mains:
        return None
    main = mains[0]
    blocks = []
    found = main.xpath(doc_set.code_xpath)
    for block in found:
        if any(a in found for a in block.iterancestors()):
            continue
        code = _code_text(block)
        if code.strip():
            blocks.append(code)
    return DocPage(doc_set.kind, str(path.relative_to(root)), html, block_text(main), tuple(blocks))


def load(doc_set: DocSet) -> list[DocPage]:
    """A seeded random sample of the doc set's pages that have a main-content element."""
    folder = unpack(doc_set)
    paths = sorted(
        path
        for path in folder.glob(doc_set.pattern)
        if not any(fnmatch.fnmatch(str(path.relative_to(folder)), pattern) for pattern in doc_set.exclude)
    )
    rng = random.Random(SEED)
    rng.shuffle(paths)
    pages: list[DocPage] = []
    for path in paths:
        page = read_page(doc_set, path, folder)
        if page is not None and page.gold.strip():
            pages.append(page)
        if len(pages) == doc_set.sample:
            break
    return sorted(pages, key=lambda p: p.path)
