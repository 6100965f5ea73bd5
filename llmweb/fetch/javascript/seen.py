"""Whether a line is part of a page's text, asked of one long text many times. Pure.

:mod:`.shell` compares each line and sentence of a page's embedded data with the page's
visible text, both normalised to words of ``\\w`` characters joined by single spaces. A
substring search scans the whole text for each line the page does not show: a 2.2 MB
article beside a JSON-LD FAQPage of 21,000 questions it never shows was 37 s of scanning
(testbed's hostile page "faq-unshown"; 2 s now).
:class:`SeenText` answers ``line in seen`` exactly as ``str`` does, from an index of the
text's words built once the scanning has cost a tenth of a second.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from itertools import accumulate

# Characters scanned (the text's length once for each line sought) past which the words are
# indexed. A scan here reads about 2.5 GB/s and indexing about 7 MB/s, so the index costs
# what some 350 scans of its text do: this much scanning is about 0.1 s, which a 5 MB text
# spends on 60 lines and no ordinary page comes near (a 100 KB article would need 3,000 lines).
_SCAN_CHARS = 300_000_000
# A word written more often than once in this many characters is not worth seeking place by
# place (each place costs about what scanning 2,000 characters does): a line whose inner
# words are all that common is scanned for, as before.
_CHARS_PER_PLACE = 2000
_PIECE_CHARS = 250_000  # the text is split into words this much at a time (a word is ~60 bytes as a str)
_KEY_MASK = (1 << 32) - 1  # a word's hash as the index keeps it
_PLACE_MASK = (1 << 32) - 1  # the place, below its word's hash


class SeenText:
    """A text through ``shell._normal`` (words of ``\\w`` characters, single spaces, no space
    at either end) that answers ``line in seen`` for a line also through it, as ``str`` would.

    A line is scanned for until that has cost a tenth of a second (:data:`_SCAN_CHARS`); then
    a line of three or more words is sought where the text writes its rarest inner word whole
    (:class:`_WordPlaces`), and a line of one or two words, whose ends may lie inside the
    text's words, where the text writes the words its first word ends or its last begins
    (:class:`_Ends`: the text's distinct words sorted, and sorted read backwards)."""

    def __init__(
        self, text: str, *, scan_chars: int = _SCAN_CHARS, chars_per_place: int = _CHARS_PER_PLACE
    ) -> None:
        self.text = text
        self._left = scan_chars  # characters to scan before the words are indexed
        self._chars_per_place = chars_per_place
        self._index: _WordPlaces | None = None

    def __contains__(self, line: str) -> bool:
        if self._index is None:
            self._left -= len(self.text)
            if self._left > 0:
                return line in self.text
            self._index = _WordPlaces(self.text, self._chars_per_place)
        return self._index.holds(line)


class _WordPlaces:
    """Where each of a text's words is written, the words known by their hash alone: a place
    is a candidate, and the line is compared with the text there. 12 bytes a word of text
    (a dict of the words themselves took 82 MB for a 5 MB text of distinct numbers)."""

    def __init__(self, text: str, chars_per_place: int) -> None:
        self.text = text
        self.chars_per_place = chars_per_place
        starts = array("I")  # where each word begins, in the text's order
        keys = array("I")  # each word's hash, in the text's order
        start = 0
        while start < len(text):
            end = text.find(" ", start + _PIECE_CHARS)
            end = len(text) if end < 0 else end
            words = text[start:end].split(" ")
            starts.extend(accumulate([len(w) + 1 for w in words[:-1]], initial=start))
            keys.extend([hash(w) & _KEY_MASK for w in words])
            start = end + 1
        # each place with its word's hash above it, sorted: the places grouped by hash (one list
        # of ints, 36 bytes a word while it lasts)
        packed = [key << 32 | place for place, key in enumerate(keys)]
        del keys
        packed.sort()
        self.starts = starts
        self.places = array("I", map(_PLACE_MASK.__and__, packed))
        self.keys = array("I", map((32).__rrshift__, packed))  # the hash at each of those places
        self._short: dict[str, bool] = {}  # the lines of one or two words answered
        self._ends: _Ends | None = None

    def holds(self, line: str) -> bool:
        if not line:
            return True
        text = self.text
        words = line.split(" ")
        if len(words) < 3:  # a line that may begin and end inside words
            if line not in self._short:
                self._ends = self._ends or _Ends(self._distinct())
                self._short[line] = self._holds_short(words)
            return self._short[line]
        # the places of the rarest inner word, which the text writes whole wherever it holds the line
        ranges = [self._run(hash(w) & _KEY_MASK) for w in words[1:-1]]
        rarest = min(range(len(ranges)), key=lambda i: ranges[i][1] - ranges[i][0])
        low, high = ranges[rarest]
        if (high - low) * self.chars_per_place > len(text):
            return line in text
        before = rarest + 1  # words of the line before the rarest
        head = len(words[0]) + 1
        starts = self.starts
        for place in self.places[low:high]:
            if (
                place >= before
                and (begin := starts[place - rarest] - head) >= 0
                and text.startswith(line, begin)
            ):
                return True
        return False

    def _holds_short(self, words: list[str]) -> bool:
        """Whether the text holds a line of one word (inside one of its words) or of two (the
        end of one of its words, a space, the start of the next)."""
        ends, text = self._ends, self.text
        assert ends is not None
        if len(words) == 1:
            word = words[0]
            return ends.begin(word) > 0 or ends.end(word) > 0 or word in ends.forwards
        first, last = words
        before, after = ends.end(first), ends.begin(last)  # how many distinct words end, begin so
        if not before or not after:
            return False
        line = f"{first} {last}"
        if min(before, after) * self.chars_per_place > len(text):
            return line in text
        # each place of a word on the side with fewer is a place the line may be
        side = ends.beginning(last) if after <= before else ends.ending(first)
        runs = [self._run(hash(word) & _KEY_MASK) for word in side]
        if sum(high - low for low, high in runs) * self.chars_per_place > len(text):
            return line in text
        for word, (low, high) in zip(side, runs, strict=True):
            # where the line would begin: before the word beginning with its last word, or
            # inside the word ending with its first
            offset = -len(first) - 1 if after <= before else len(word) - len(first)
            for place in self.places[low:high]:
                begin = self.starts[place] + offset
                if begin >= 0 and text.startswith(line, begin):
                    return True
        return False

    def _distinct(self) -> list[str]:
        """The text's words, each once: read where each hash's places are (not a set of them
        all: 90 MB at its peak for a text of 5 MB of distinct words, 50 this way)."""
        text, starts, keys, places = self.text, self.starts, self.keys, self.places
        ends = array("I", starts[1:])  # one past each word's end
        ends.append(len(text) + 1)
        distinct: list[str] = []
        last = -1  # the hash read last, and the words of it read so far
        words: set[str] = set()
        for key, place in zip(keys, places, strict=True):
            word = text[starts[place] : ends[place] - 1]
            if key != last:
                last, words = key, set()
            if word not in words:
                words.add(word)
                distinct.append(word)
        return distinct

    def _run(self, key: int) -> tuple[int, int]:
        return bisect_left(self.keys, key), bisect_right(self.keys, key)


class _Ends:
    """A text's distinct words in order, and in order read backwards: the words that begin
    with a line's last word, or end with its first, are a run of either. 1 to 4 bytes a
    character of them and 4 a word (a text of 5 MB of distinct words: 15 MB, 54 MB at its
    peak while built, beside :class:`_WordPlaces`'s 8)."""

    def __init__(self, distinct: list[str]) -> None:
        distinct.sort()
        self.forwards = "\n".join(distinct)  # a word to a line
        distinct.clear()
        self.forwards_at = _offsets(self.forwards)
        count = len(self.forwards_at) - 1
        self.backwards = "\n".join(
            sorted(_word(self.forwards, self.forwards_at, i)[::-1] for i in range(count))
        )
        self.backwards_at = _offsets(self.backwards)

    def begin(self, part: str) -> int:
        """How many distinct words begin with ``part``."""
        low, high = _span(self.forwards, self.forwards_at, part)
        return high - low

    def end(self, part: str) -> int:
        """How many distinct words end with ``part``."""
        low, high = _span(self.backwards, self.backwards_at, part[::-1])
        return high - low

    def beginning(self, part: str) -> list[str]:
        low, high = _span(self.forwards, self.forwards_at, part)
        return [_word(self.forwards, self.forwards_at, i) for i in range(low, high)]

    def ending(self, part: str) -> list[str]:
        low, high = _span(self.backwards, self.backwards_at, part[::-1])
        return [_word(self.backwards, self.backwards_at, i)[::-1] for i in range(low, high)]


def _offsets(joined: str) -> array[int]:
    """Where each word of ``joined`` (one to a line) begins, and one past the last's end."""
    offsets = array("I", [0])
    at = joined.find("\n")
    while at >= 0:
        offsets.append(at + 1)
        at = joined.find("\n", at + 1)
    offsets.append(len(joined) + 1)
    return offsets


def _word(joined: str, offsets: array[int], i: int) -> str:
    return joined[offsets[i] : offsets[i + 1] - 1]


def _span(joined: str, offsets: array[int], part: str) -> tuple[int, int]:
    """The run of the sorted words of ``joined`` that begin with ``part``."""
    words = range(len(offsets) - 1)
    low = bisect_left(words, part, key=lambda i: _word(joined, offsets, i))
    high = bisect_right(words, part, lo=low, key=lambda i: _word(joined, offsets, i)[: len(part)])
    return low, high
