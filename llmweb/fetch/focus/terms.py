"""Text → the terms a question and a passage are compared by. Pure.

- Code identifiers match however they are written: ``TaskGroup``, ``task_group``,
  ``--task-group`` and "task group" all give the terms ``task`` and ``group``, and each
  identifier also gives its parts joined (``taskgroup``), so the exact name counts most;
  ``asyncio.gather`` gives ``asyncio``, ``gather`` and ``asynciogather``.
- Words are stemmed with Snowball (PyStemmer) in the page's language, English or Polish,
  so "tasks" matches "task" and "plików" matches "plik"; common words are dropped.
- A Polish question about a page that is not Polish gets, beside its own words, the English
  words the bundled glossary (:mod:`.glossary`) gives for them: "zadanie" also asks for
  "task". Identifiers need no translation and keep matching.

Speed matters (a 1 MB page within 100 ms, with the ranking): the text is split at
whitespace, and each distinct piece is analysed once per page, and in English only if it may
give one of the question's terms (:meth:`Analyser.giving`); plain words, most of any text,
are stemmed in one batch. Pieces analysed before (most words of a page recur on the next,
and a page asked again is analysed again) are taken from a bounded memo per language.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable
from functools import cache
from itertools import chain, islice

import Stemmer

from llmweb.fetch.focus import glossary

# An identifier with its inner connectors: asyncio.gather, std::vec::Vec, --max-chars, a_b.
_WORD = re.compile(r"\w+(?:(?:\.|::|-)\w+)*")
_CONNECTOR = re.compile(r"\.|::|-")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_PUNCTUATION = ".,;:!?()[]{}<>\"'`*“”‘’„«»…"
# ASCII punctuation but an identifier's connectors (. : - _) separates pieces, so that
# splitting at whitespace leaves words and identifiers. Done on UTF-8 bytes, where
# translate runs at memory speed (str.translate: 100 ms a megabyte); other bytes stay.
_SEPARATORS = bytes.maketrans(
    b"!\"#$%&'()*+,/;<=>?@[\\]^`{|}~", b" " * len(b"!\"#$%&'()*+,/;<=>?@[\\]^`{|}~")
)
_EDGES = ".:-_“”‘’„«»…–—"
_POLISH_LETTERS = frozenset("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ")

ENGLISH_STOPWORDS = frozenset(
    """a an and are as at be but by can do does for from has have how i if in into is it its
    of on or that the their then there these this to was what when where which while who why
    will with would you your""".split()  # noqa: SIM905
)
POLISH_STOPWORDS = frozenset(
    """a aby ale bez by być czy dla do go i ich jak jaka jaki jakie jakiej jako je jego jej
    jest już która które którego który której kiedy lub ma może mi mnie na nie nic niż o od
    oraz po pod przez przy się są ta tak te tego tej ten to tu tym w we z za ze żeby co czym
    gdy gdzie jeśli można""".split()  # noqa: SIM905
)
_STOPWORDS = ENGLISH_STOPWORDS | POLISH_STOPWORDS
# Words that give a short text (a question) away as Polish even when typed without diacritics.
_POLISH_MARKERS = frozenset(
    ["jak", "czy", "się", "jest", "nie", "oraz", "lub", "dla", "przez", "które", "który", "jako", "można"]
)


def fold(word: str) -> str:
    """``word`` without diacritics (ł → l too), so Polish typed without its letters still matches."""
    if word.isascii():
        return word
    decomposed = unicodedata.normalize("NFKD", word.replace("ł", "l").replace("Ł", "L"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def is_polish(text: str) -> bool:
    """True when ``text`` reads as Polish rather than English (its first 50,000 characters decide)."""
    sample = text[:50_000]
    words = sample.lower().split()
    if len(words) < 40:  # a question: one Polish letter or marker word decides
        return any(c in _POLISH_LETTERS for c in sample) or any(
            w.strip(_PUNCTUATION) in _POLISH_MARKERS for w in words
        )
    polish = sum(w in POLISH_STOPWORDS for w in words) + 3 * sum(map(sample.count, _POLISH_LETTERS))
    english = sum(w in ENGLISH_STOPWORDS for w in words)
    return polish > english


def split_pieces(text: str) -> list[str]:
    """``text`` cut into words and identifiers (``asyncio.gather``, ``--max-chars``), punctuation dropped."""
    return clean_text(text).split()


def clean_text(text: str) -> str:
    """``text`` with its ASCII punctuation but identifiers' connectors made spaces; as long as ``text``."""
    return text.encode("utf-8", "surrogatepass").translate(_SEPARATORS).decode("utf-8", "surrogatepass")


# The memo of pieces already analysed, per language: kept while it holds fewer than MEMO_PIECES
# (a page of documentation holds 5,000–15,000 distinct pieces), then started afresh, so that a
# page of a million distinct words costs at most this many entries, each piece at most
# _MEMO_PIECE_CHARS long: measured, 24 MB for 50,000 identifiers of 40 characters (8 MB for plain
# words). On a 1 MB page asked again, learning its pieces takes a quarter of the time (12 ms
# against 50 on the shared machine).
MEMO_PIECES = 50_000
_MEMO_PIECE_CHARS = 40
_memos: dict[str, dict[str, tuple[str, ...]]] = {}


def forget_pieces() -> None:
    """Empty the memo: the next page is analysed as in a process that has read nothing."""
    _memos.clear()


@cache
def _stemmer(language: str) -> Stemmer.Stemmer:
    # No cache inside PyStemmer: each word is stemmed once per page anyway, and keeping its
    # cache costs ten times the stemming (measured: 31 ms against 2.5 ms for 5,400 words).
    return Stemmer.Stemmer(language, 0)


class Analyser:
    """Turns text into terms for one page: the page language's stemmer and a memo of pieces seen."""

    def __init__(self, language: str) -> None:
        self.language = language  # "english" or "polish"
        self._stem = _stemmer(language)
        self._pieces: dict[str, tuple[str, ...]] = {}

    @classmethod
    def for_page(cls, text: str) -> Analyser:
        return cls("polish" if is_polish(text) else "english")

    def terms(self, text: str) -> list[str]:
        """The terms of ``text`` in order, repeated as often as they occur."""
        pieces = split_pieces(text)
        self.learn(pieces)
        found = self._pieces
        return [term for piece in pieces for term in found[piece]]

    def piece_terms(self) -> dict[str, tuple[str, ...]]:
        """Every piece (see :func:`split_pieces`) analysed so far → its terms."""
        return self._pieces

    def learn(self, pieces: Iterable[str]) -> None:
        """Analyse the pieces not seen yet, stemming all their words in one batch."""
        known = self._pieces
        shared = self._stem is _stemmer(self.language)  # the bench swaps in other stemmers
        memo = _memos.setdefault(self.language, {}) if shared else {}
        plain_pieces: list[str] = []
        plain_words: list[str] = []
        other: dict[str, tuple[str, ...]] = {}
        new = set(pieces).difference(known)
        seen = memo.keys() & new
        known.update({piece: memo[piece] for piece in seen})
        learned: dict[str, tuple[str, ...]] = {}
        for piece in new.difference(seen):
            core = piece.strip(_EDGES)
            if core.isalnum() and (core.islower() or core.istitle() or core.isupper()):  # most of any text
                lower = core.lower()
                if lower in _STOPWORDS:
                    learned[piece] = ()
                else:
                    plain_pieces.append(piece)
                    plain_words.append(lower)
            else:
                other[piece] = _identifier_words(piece)
        # Pieces that give the same terms ("Tasks", "task", "task:") share one tuple of them: fewer
        # objects for the garbage collector to track (7,700 against 13,100 on a 1 MB page), whose
        # collections took a fifth of focus_text's time there (25 of 126 ms; 18 of 105 with this
        # and split_blocks yielding its blocks).
        stems = list(map(fold, self._stem.stemWords(plain_words)))
        one_term = {stem: (stem,) for stem in stems}
        learned.update(zip(plain_pieces, map(one_term.__getitem__, stems), strict=True))
        unique = list(set(chain.from_iterable(other.values())))
        stem_of = dict(zip(unique, map(fold, self._stem.stemWords(unique)), strict=True))
        same_terms: dict[tuple[str, ...], tuple[str, ...]] = {}
        for piece, words in other.items():
            found = tuple(map(stem_of.__getitem__, words))
            learned[piece] = same_terms.setdefault(found, found)
        known.update(learned)
        if shared:
            if len(memo) + len(learned) > MEMO_PIECES:
                memo = _memos[self.language] = {}  # a new dict: another thread may still read the old one
            short = ((p, t) for p, t in learned.items() if len(p) <= _MEMO_PIECE_CHARS)
            memo.update(islice(short, MEMO_PIECES))

    def giving(self, pieces: Iterable[str], wanted: Collection[str]) -> dict[str, list[str]]:
        """Each of ``pieces`` that gives a term of ``wanted`` → those terms, in the piece's order.

        With the English stemmer only the pieces that can give one are analysed
        (:func:`_may_give`): on a 1 MB page of 13,000 distinct pieces, a question's terms
        need a tenth of them.
        """
        asked = set(wanted)
        chosen: Collection[str] = set(pieces)
        if self._stem is _stemmer("english"):  # the bench swaps in other stemmers
            chosen = _may_give(chosen, asked)
        self.learn(chosen)
        found = self._pieces
        return {
            piece: [term for term in found[piece] if term in asked]
            for piece in chosen
            if not asked.isdisjoint(found[piece])
        }

    def query_terms(self, query: str) -> list[str]:
        """The distinct terms of a question; a Polish one about a page in another language is translated too."""
        own = self.terms(query)
        if self.language != "polish" and is_polish(query):
            english = Analyser("english")
            polish = _stemmer("polish")
            for word in _WORD.findall(query.lower()):
                if word in _STOPWORDS:  # "jak" (how) is also "like", "do" (to) also "milk"
                    continue
                for meaning in glossary.english_for(polish.stemWord(word)):
                    own += english.terms(meaning)
        return list(dict.fromkeys(own))


def _may_give(pieces: Collection[str], wanted: Collection[str]) -> list[str]:
    """The pieces that may give one of the ``wanted`` terms under the English stemmer.

    English Snowball keeps a word's first three letters: it changes a word from its suffix on,
    which starts after them, or its last letter ("cry" → "cri", "use" from "using"), save in
    its exceptions ("dying" → "die", "skies" → "sky"). So a term's first three letters (two
    when the third is its last and an "i", "e" or "y"; "y" also in place of an "i" second) are
    in every word that gives it, and every word a piece gives (its parts, its parts joined) is
    in the piece lowercased without its connectors. Checked on 2.3 million words: the corpora's,
    stems with every suffix the algorithm knows, random strings (tests/test_fetch_focus.py keeps
    a sample). A piece that is not ASCII (letters the terms fold) is always analysed.
    """
    keys = set()
    for term in wanted:
        size = min(len(term), 3)
        if len(term) <= 3 and term[-1] in "iey" and size > 1:
            size -= 1
        key = term[:size]
        if key.isascii():
            keys.add(key.encode())
            if key[1:2] == "i":  # dying → die
                keys.add(f"{key[0]}y{key[2:]}".encode())
    plain = [piece for piece in pieces if piece.isascii()]
    chosen = [piece for piece in pieces if not piece.isascii()]
    if not keys or not plain:
        return chosen
    # one search of all the pieces, a line each; a match runs to its line's end, so a line matches once
    lines = "\n".join(plain).lower().encode().translate(None, b".:-_")
    found = re.compile(b"(?:" + b"|".join(map(re.escape, keys)) + rb")[^\n]*")
    line, last = 0, 0
    for match in found.finditer(lines):
        line += lines.count(b"\n", last, match.start())
        last = match.start()
        chosen.append(plain[line])
    return chosen


def _identifier_words(piece: str) -> tuple[str, ...]:
    """The lowercase words of a piece that is not a plain word: identifiers split and joined."""
    found: list[str] = []
    for word in _WORD.findall(piece):
        if "." in word or "-" in word or ":" in word:
            components = _CONNECTOR.split(word)
            for component in components:
                found += _component_words(component)
            joined = "".join(components).replace("_", "").lower()  # asyncio.gather → asynciogather
            if joined not in _STOPWORDS:
                found.append(joined)
        else:
            found += _component_words(word)
    return tuple(found)


def _component_words(component: str) -> list[str]:
    """The lowercase words of one part of an identifier (between its dots, dashes and ``::``)."""
    if "_" not in component and (component.islower() or component.isupper() or component.isdigit()):
        # one word, most parts: spared the splits below (with the rest of this rewrite, the 4,600
        # identifiers of a 1 MB page in 9.4 ms against 12.3)
        lower = component.lower()
        return [] if lower in _STOPWORDS else [lower]
    if component.islower() or component.isupper() or component.isdigit():
        sub = [s for s in component.split("_") if s]
    else:
        sub = [s for part in component.split("_") for s in _CAMEL.split(part) if s]
    if len(sub) > 1:
        sub.append("".join(sub))  # the name as one word: task_group, TaskGroup → taskgroup
    return [word for word in map(str.lower, sub) if word not in _STOPWORDS]
