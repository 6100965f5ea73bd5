"""An article's questions and answers, as its schema.org FAQPage declares them. Pure.

A guide or a "best of" article often ends with a FAQ, and declares it in its JSON-LD (a
``FAQPage`` whose ``Question`` items each hold an ``acceptedAnswer``) for search engines. The
answers are the article's text, but the page writes them where a reader of the tree loses them:
in an accordion's collapsed panels (hidden by a class, a zero height or ``aria-hidden``), under
questions written inside the ``<button>`` that opens them, in a ``<details>`` of the article's
``<footer>``, or in a block after the body that reads as furniture (.trailing). The declaration
names them whatever the markup: an answer the page holds (shown or hidden, not only in its
scripts) that the reading left out is put back after the text, under its question.

Only on pages that declare an article: a product's or a service's FAQ is often left out of the
page's text (WCXB's gold drops it on 2 of the tuning part's 4 such pages that read differently),
and so is a knowledge-base page's that declares no article. WCXB dev's tuning part: 8 articles
change, all up, +0.25 summed (a blockchain guide's accordion 0.945 -> 0.998, a degree guide's
0.862 -> 0.916, a FAQ after the body that .trailing drops 0.911 -> 0.943); check part: one page,
articles 0.9465 -> 0.9466; the Zyte article set unchanged. The same questions marked in microdata
instead: one article up, one down (its gold leaves the FAQ out), so not read.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from itertools import islice

from lxml import etree
from lxml.html import HtmlElement, fragment_fromstring

from llmweb.fetch.html.metadata import json_ld_data

_WORD = re.compile(r"\w+")
_SHOWN_WORDS = etree.XPath("descendant::text()[not(ancestor::script or ancestor::style)]")
_KEY_WORDS = 12  # an answer is found by its first words: markup may split or end it differently
_MIN_ANSWER_WORDS = 3  # a shorter answer ("Yes.") is found anywhere
_BLOCKS = ("p", "li", "br", "div", "tr", "h2", "h3", "h4", "h5", "h6")
_MAX_DEPTH = 8  # JSON-LD nesting looked through (@graph, mainEntity, a list of them)
# questions read: each answer is sought in the page's words (0.3 s for 100 in 6 MB), and a FAQ
# holds a dozen or two; a hostile page declaring 100,000 would take the deadline
_MAX_QUESTIONS = 50


def declared_answers(root: HtmlElement) -> list[tuple[str, str]]:
    """The questions and answers the page's JSON-LD declares in a FAQPage, each answer as plain
    text, where the page's body holds the answer too (shown or hidden). Read before the page's
    hidden elements and scripts go (.extract)."""
    data = [
        script.text
        for script in root.iter("script")
        if script.text and (script.get("type") or "").strip().lower() == "application/ld+json"
    ]
    # the scripts' text is searched, not the page's: a search of a page with curly quotes in it
    # (stored two bytes a character) costs 0.1 ms on the article set, most of which declare no FAQ
    if not any("FAQPage" in text for text in data):
        return []
    declared = (pair for text in data for pair in _questions(json_ld_data(text), 0))
    pairs = list(islice(declared, _MAX_QUESTIONS))
    body = root.find("body")
    if not pairs or body is None:
        return []
    shown = " " + " ".join(_words(" ".join(_SHOWN_WORDS(body)))) + " "
    return [(question, answer) for question, answer in pairs if _key(answer) in shown]


def missing_answers(text: str, pairs: list[tuple[str, str]]) -> str:
    """The declared answers ``text`` lacks, each under its question (unless ``text`` holds the
    question already), as Markdown to put after it; "" if it lacks none."""
    held = " " + " ".join(_words(text)) + " "
    parts = []
    for question, answer in pairs:
        if _key(answer) in held:
            continue
        if question and f" {' '.join(_words(question))} " not in held:
            parts.append(f"### {question}")
        parts.append(answer)
    return "\n\n".join(parts)


def _key(answer: str) -> str:
    words = _words(answer)
    if len(words) < _MIN_ANSWER_WORDS:
        return "\0"  # found nowhere: a short answer's words are anywhere
    return f" {' '.join(words[:_KEY_WORDS])} "


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _questions(data: object, depth: int) -> Iterator[tuple[str, str]]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(data, list):
        for item in data:
            yield from _questions(item, depth + 1)
        return
    if not isinstance(data, dict):
        return
    kind = data.get("@type")
    if kind == "Question" or (isinstance(kind, list) and "Question" in kind):
        answer = data.get("acceptedAnswer") or data.get("suggestedAnswer")
        if isinstance(answer, list):
            answer = answer[0] if answer else None
        text = _plain(answer.get("text")) if isinstance(answer, dict) else ""
        name = data.get("name")
        if text:
            yield (_plain(name) if isinstance(name, str) else "", text)
        return
    for value in data.values():
        if isinstance(value, (dict, list)):
            yield from _questions(value, depth + 1)


def _plain(markup: object) -> str:
    """An answer's text: JSON-LD writes it as HTML (paragraphs, links, lists) or as plain text."""
    if not isinstance(markup, str) or not markup.strip():
        return ""
    if "<" not in markup:
        return " ".join(html.unescape(markup).split())
    try:
        fragment = fragment_fromstring(markup, create_parent="div")
    except (etree.ParserError, ValueError):
        return ""
    for block in fragment.iter(*_BLOCKS):
        block.tail = " " + (block.tail or "")  # a list's items are words apart, as a browser shows them
    return " ".join(fragment.text_content().split())
