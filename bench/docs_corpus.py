"""The documentation corpus: Sphinx pages of python3.11-doc and rustdoc pages of rust-doc.

Fetched with ``apt-get download`` (Debian's own packages, no install) into
var/bench-cache/, and only the HTML folders the bench reads are unpacked from them.
Gold text = the page's main-content element; code blocks = its ``<pre>`` elements.
"""

from __future__ import annotations

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


PYTHON = DocSet(
    "python3.11-doc", "Python (Sphinx)", "usr/share/doc/python3.11/html/library", "//div[@role='main']", 80
)
RUST = DocSet(
    "rust-doc",
    "Rust (rustdoc)",
    "usr/share/doc/rust-doc/html/std",
    "//*[@id='main-content']",
    40,
    "**/*.html",
)
DOC_SETS = (PYTHON, RUST)
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


BLOCK_TAGS = frozenset(
    """p div section article main h1 h2 h3 h4 h5 h6 li dt dd tr td th pre blockquote table
    ul ol dl summary details""".split()  # noqa: SIM905
)


def block_text(element: lxml.html.HtmlElement, *, tidy: bool = True) -> str:
    """The element's visible text, with block elements on lines of their own.

    ``tidy`` drops blank lines and the spaces around each line (the gold text); without it
    lines stay as they are, so code keeps its indentation (an extractor's output)."""
    copy = lxml.html.fromstring(lxml.html.tostring(element))
    for bad in copy.xpath(".//script | .//style | .//noscript"):
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
    for pre in main.iter("pre"):
        if any(a.tag == "pre" for a in pre.iterancestors()):
            continue
        code = _pre_text(pre)
        if code.strip():
            blocks.append(code)
    return DocPage(doc_set.kind, str(path.relative_to(root)), html, block_text(main), tuple(blocks))


def load(doc_set: DocSet) -> list[DocPage]:
    """A seeded random sample of the doc set's pages that have a main-content element."""
    folder = unpack(doc_set)
    paths = sorted(folder.glob(doc_set.pattern))
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
