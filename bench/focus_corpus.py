"""Questions about long documentation pages whose wording does not come from the page.

Two documentation generators, from Debian's packages (unpacked by bench/docs_corpus.py):

- **Python (Sphinx)**, python3.11-doc's ``library/`` pages. The question is the docstring
  of a function, class or method *from the Python 3.11 standard library's own code* (its
  first paragraph, read by importing the object); the answer is the section of the HTML
  page that documents the same object (``<dt id="asyncio.gather">`` and its ``<dd>``).
  The docs and the docstrings are written separately.
- **Rust (rustdoc)**, rust-doc's ``std`` pages. rustdoc pages *are* the source's doc
  comments, so the question comes from elsewhere: a sentence of *another* page (the Rust
  book, reference, Rust by Example, the Nomicon, or another std page's prose) that links
  to a method's section; the answer is that section (``<section id="method.retain">`` and
  its docblock).

Every question is checked against the page it asks about: one sharing a run of
8 words (COPIED_RUN) with the page's text is dropped as copied. A section's *answer
key* is the start of its first paragraph (up to 30 words), and must occur
exactly once in the page's extracted text; a question is answered when its key lies whole
in the returned text. Only pages with at least 20,000 characters of
extracted text are used.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import json
import pydoc
import random
import re
import warnings
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import unquote, urljoin

import lxml.html

from bench import docs_corpus
from bench.paths import CACHE
from llmweb.errors import LlmwebError
from llmweb.fetch.html.extract import read_html_page

MIN_PAGE_CHARS = 20_000
KEY_WORDS = 30
COPIED_RUN = 8
PER_PAGE = 6  # at most this many questions on one page, so a few huge pages do not dominate
SEED = 13
VERSION = 3  # bump to rebuild the cached question set

PYTHON_LIBRARY = docs_corpus.DocSet(
    "python3.11-doc", "Python (Sphinx)", "usr/share/doc/python3.11/html/library", "//div[@role='main']", 0
)
RUST_HTML = docs_corpus.DocSet(
    "rust-doc", "Rust (rustdoc)", "usr/share/doc/rust-doc/html", "//*[@id='main-content']", 0
)
RUST_SOURCES = ("book", "reference", "rust-by-example", "nomicon", "edition-guide", "std")


def rust_folder() -> Path:
    """rust-doc's html/ with the folders the questions come from (each unpacked once)."""
    for name in RUST_SOURCES:
        docs_corpus.unpack(docs_corpus.DocSet("rust-doc", "", f"{RUST_HTML.folder}/{name}", "", 0))
    return CACHE / "unpacked" / "rust-doc" / RUST_HTML.folder


# Modules whose import does something (opens a browser, prints, needs a display).
_NO_IMPORT = ("antigravity", "this", "tkinter", "turtle", "turtledemo", "idlelib", "test", "__main__")


@dataclass(frozen=True)
class Question:
    kind: str
    page: str  # the page's path inside its doc set
    anchor: str  # the answering section's id
    question: str
    key: str  # words that must lie in the returned text
    source: str  # where the question's words come from


@dataclass(frozen=True)
class FocusPage:
    kind: str
    path: str
    text: str  # what web_fetch extracts from the page


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def contains(haystack: str, key: str) -> bool:
    """True when the words of ``key`` appear, in a row, among the words of ``haystack``."""
    return f" {' '.join(words(key))} " in f" {' '.join(words(haystack))} "


def _runs(tokens: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


def copied(question: str, page_runs: set[tuple[str, ...]]) -> bool:
    return bool(_runs(words(question), COPIED_RUN) & page_runs)


def _key(paragraph: lxml.html.HtmlElement) -> str:
    return " ".join(" ".join(paragraph.text_content().split()).split(" ")[:KEY_WORDS])


def _occurrences(text: str, key: str) -> int:
    return f" {' '.join(words(text))} ".count(f" {' '.join(words(key))} ")


# --- Python: docstrings from the standard library's code -------------------------------------


def _docstring_question(name: str) -> str | None:
    if name.split(".")[0] in _NO_IMPORT:
        return None
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        try:
            obj = pydoc.locate(name)
        except Exception:  # a module that fails to import here (platform-specific)
            return None
    if obj is None or not callable(obj):
        return None
    doc = obj.__doc__ if isinstance(getattr(obj, "__doc__", None), str) else None
    if not doc or (not inspect.isclass(obj) and doc == type(obj).__doc__):
        return None
    lines = inspect.cleandoc(doc).splitlines()
    while lines and (re.match(r"^[\w.]+\(.*\)\s*(->.*)?$", lines[0].strip()) or lines[0].strip() == "--"):
        lines.pop(0)
    first = "\n".join(lines).split("\n\n")[0]
    paragraph = " ".join(first.split())
    if len(paragraph) > 400:
        cut = paragraph.rfind(". ", 0, 400)
        paragraph = paragraph[: cut + 1] if cut > 100 else paragraph[:400]
    return paragraph if len(paragraph.split()) >= 6 else None


def _python_questions(folder: Path, texts: dict[str, str]) -> list[Question]:
    questions: list[Question] = []
    for path, text in texts.items():
        tree = lxml.html.fromstring((folder / path).read_bytes())
        page_runs = _runs(words(text), COPIED_RUN)
        found = []
        for dt in tree.xpath("//dl[contains(@class, 'py')]/dt[@id]"):
            anchor = dt.get("id")
            dd = dt.getnext()
            paragraphs = dd.xpath("./p") if dd is not None and dd.tag == "dd" else []
            if not paragraphs:
                continue
            key = _key(paragraphs[0])
            if len(key.split()) < 5 or _occurrences(text, key) != 1:
                continue
            question = _docstring_question(anchor)
            if question is None or copied(question, page_runs) or contains(question, key):
                continue
            found.append(Question(PYTHON_LIBRARY.kind, path, anchor, question, key, f"docstring of {anchor}"))
        questions += _spread(found)
    return questions


# --- Rust: sentences of other pages that link to a method's section -----------------------


def _rust_sections(folder: Path, path: str, text: str) -> dict[str, str]:
    """Method anchor → answer key, for the sections of a rustdoc page whose key is unique."""
    tree = lxml.html.fromstring((folder / path).read_bytes())
    keys = {}
    for section in tree.xpath("//section[starts-with(@id, 'method.') or starts-with(@id, 'tymethod.')]"):
        details = section.getparent().getparent() if section.getparent().tag == "summary" else None
        blocks = details.xpath("./div[contains(@class, 'docblock')]/p") if details is not None else []
        if not blocks:
            continue
        key = _key(blocks[0])
        if len(key.split()) >= 5 and _occurrences(text, key) == 1:
            keys[section.get("id")] = key
    return keys


def _link_sentences(folder: Path) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(target page, anchor) → [(sentence, source page)] for links into std method sections."""
    links: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for source in RUST_SOURCES:
        for path in sorted((folder / source).glob("**/*.html")):
            html = path.read_bytes()
            if b"#method." not in html and b"#tymethod." not in html:
                continue
            tree = lxml.html.fromstring(html)
            scope = "//div[contains(@class, 'docblock')]//p" if source == "std" else "//main//p"
            for paragraph in tree.xpath(scope):
                for a in paragraph.iter("a"):
                    href = a.get("href") or ""
                    match = re.match(r"([^#]+\.html)#((?:ty)?method\.\w+)$", href)
                    if not match or "read-more" in (a.get("class") or ""):
                        continue
                    target = Path(unquote(urljoin(str(path.relative_to(folder)), match.group(1))))
                    if not str(target).startswith("std/") or target == path.relative_to(folder):
                        continue
                    sentence = _sentence_around(paragraph, a)
                    if len(sentence.split()) >= 8:
                        links[(str(target), match.group(2))].append((sentence, str(path.relative_to(folder))))
    return links


def _sentence_around(paragraph: lxml.html.HtmlElement, link: lxml.html.HtmlElement) -> str:
    text = " ".join(paragraph.text_content().split())
    label = " ".join(link.text_content().split())
    position = text.find(label) if label else -1
    sentences = list(re.finditer(r"[^.!?]+(?:[.!?]+(?=\s|$)|$)", text))
    for sentence in sentences:
        if position == -1 or sentence.start() <= position < sentence.end():
            return sentence.group().strip()
    return text


def _rust_questions(folder: Path, texts: dict[str, str]) -> list[Question]:
    links = _link_sentences(folder)
    questions: list[Question] = []
    for path, text in texts.items():
        keys = _rust_sections(folder, path, text)
        page_runs = _runs(words(text), COPIED_RUN)
        found = []
        for anchor, key in keys.items():
            for sentence, source in links.get((path, anchor), []):
                if not copied(sentence, page_runs) and not contains(sentence, key):
                    found.append(
                        Question(RUST_HTML.kind, path, anchor, sentence, key, f"a sentence of {source}")
                    )
                    break
        questions += _spread(found)
    return questions


def _spread(found: list[Question]) -> list[Question]:
    rng = random.Random(SEED)
    picked = list(found)
    rng.shuffle(picked)
    return sorted(picked[:PER_PAGE], key=lambda q: q.anchor)


# --- the corpus ---------------------------------------------------------------------------


def _long_pages(folder: Path, paths: list[Path]) -> dict[str, str]:
    texts = {}
    for path in paths:
        html = path.read_text(encoding="utf-8", errors="replace")
        if len(html) < MIN_PAGE_CHARS or 'http-equiv="refresh"' in html[:2000]:
            continue
        text = _extract(path)
        if len(text) >= MIN_PAGE_CHARS:
            texts[str(path.relative_to(folder))] = text
    return texts


def _candidate_rust_pages(folder: Path) -> list[Path]:
    """std pages that sentences elsewhere link into, so that they can have questions."""
    targets = {target for target, _ in _link_sentences(folder)}
    return [folder / t for t in sorted(targets)]


def answer_key(kind: str, path: str, anchor: str, text: str) -> str | None:
    """The answer key of one section (see the module's docstring), or None when it is not unique."""
    if kind == RUST_HTML.kind:
        return _rust_sections(rust_folder(), path, text).get(anchor)
    tree = lxml.html.fromstring((docs_corpus.unpack(PYTHON_LIBRARY) / path).read_bytes())
    for dt in tree.xpath("//dt[@id=$anchor]", anchor=anchor):
        dd = dt.getnext()
        paragraphs = dd.xpath("./p") if dd is not None and dd.tag == "dd" else []
        if paragraphs:
            key = _key(paragraphs[0])
            return key if _occurrences(text, key) == 1 else None
    return None


def page_text(kind: str, path: str) -> str:
    """What web_fetch extracts from one page of a doc set."""
    folder = rust_folder() if kind == RUST_HTML.kind else docs_corpus.unpack(PYTHON_LIBRARY)
    return _extract(folder / path)


def _pages(questions: list[Question]) -> list[FocusPage]:
    folders = {PYTHON_LIBRARY.kind: docs_corpus.unpack(PYTHON_LIBRARY), RUST_HTML.kind: rust_folder()}
    pages = sorted({(q.kind, q.page) for q in questions})
    return [FocusPage(kind, path, _extract(folders[kind] / path)) for kind, path in pages]


def _extract(path: Path) -> str:
    try:
        return read_html_page(path.read_text(encoding="utf-8", errors="replace"), "").text
    except LlmwebError:
        return ""


def load() -> tuple[list[FocusPage], list[Question]]:
    """Pages (extracted by this run's web_fetch code) and the questions about them.

    Finding the questions reads every candidate page once; the questions are kept in
    var/bench-cache/focus-questions.json. Pages are extracted anew in every run.
    """
    cache = CACHE / "focus-questions.json"
    if cache.exists():
        saved = json.loads(cache.read_text())
        if saved.get("version") == VERSION:
            questions = [Question(**q) for q in saved["questions"]]
            return _pages(questions), questions
    python_folder = docs_corpus.unpack(PYTHON_LIBRARY)
    rust_html = rust_folder()
    python_texts = _long_pages(python_folder, sorted(python_folder.glob("*.html")))
    rust_texts = _long_pages(rust_html, _candidate_rust_pages(rust_html))
    questions = _python_questions(python_folder, python_texts) + _rust_questions(rust_html, rust_texts)
    cache.write_text(json.dumps({"version": VERSION, "questions": [asdict(q) for q in questions]}))
    texts = {PYTHON_LIBRARY.kind: python_texts, RUST_HTML.kind: rust_texts}
    pages = sorted({(q.kind, q.page) for q in questions})
    return [FocusPage(kind, path, texts[kind][path]) for kind, path in pages], questions
