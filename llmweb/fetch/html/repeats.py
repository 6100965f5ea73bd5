"""Passages a reading says again word for word (a page written once per screen), read once. Pure."""

from __future__ import annotations

import re

# A passage said again word for word is a copy when one of its lines holds at least this many
# words: a paragraph of prose. Shorter lines repeat in their own right: headings, labels, calls
# to action, a pricing plan's features under each plan (WCXB dev's tuning services lost 0.3 F1
# to a bound of 15 words), a diet's meals under each of its plans (the article set's tuned half
# lost 0.004 to a bound of 40).
REPEAT_PARAGRAPH_WORDS = 50
# On a page that declares it sells one thing (metadata.declares_product) a sentence said again is
# a copy too: a shop writes its product's description, care notes and shipping terms once per
# screen or once per tab, and the gold text holds them once. WCXB dev's tuning part, products:
# 9 pages changed, none down, 0.6582 -> 0.6618 (a tee's tabs written twice 0.21 -> 0.36; 15
# words: 5 pages, 0.6611; 6 words: 15 pages, 0.6625); no page of another type changed.
REPEAT_SENTENCE_WORDS = 10


def without_repeats(text: str, least: int = REPEAT_PARAGRAPH_WORDS) -> str:
    """The text without the passages it says again: runs of lines, each the words of a line above
    it, that hold a line of ``least`` words (a paragraph; REPEAT_SENTENCE_WORDS, a sentence, on a
    product's page) and the lines around it in the run.

    For trafilatura's readings: a page that writes its text twice or three times for different
    screens (a tab per device, a mobile copy of the body), or a teaser block its template repeats
    after each section, is read whole each time. Table rows stay and end a run (a summary table
    given again at the end is the page's), and so does code (a unique placeholder here).
    WCXB dev's tuning part: fired on 17 pages, +0.96 F1 summed (5 articles +0.61: a remodeling
    guide written three times 0.50 -> 0.98; 5 forums +0.24, a collection +0.21, 2 services -0.17:
    an offer's terms said again under each offer, which the gold keeps); the article set unchanged.

    A run whose long lines are all list items is a copy only when it holds a whole block (every
    line of a list or paragraph): a copy of the page repeats its lists whole, while terms shared
    by several offers come again inside each offer's list, between the terms of its own
    (:func:`_holds_a_block`). Tuning part, 27 pages where the layer fired: 3 changed, an offers
    page 0.890 -> 0.963, two game shops' system requirements (the same processor and memory
    under each system, which their gold holds once) 0.813 -> 0.806 and 0.368 -> 0.361.
    """
    # most pages say no paragraph twice: found from the long lines alone (a word is a character
    # and a space at least), before every line is split into words
    paragraphs = [said for line in text.split("\n") if len(line) >= 2 * least - 1 and (said := words(line))]
    if len(set(paragraphs)) == len(paragraphs):
        return text
    blocks = [block.split("\n") for block in text.split("\n\n")]
    lines = [(b, i) for b, block in enumerate(blocks) for i, line in enumerate(block) if words(line)]
    seen: set[str] = set()
    dropped: set[tuple[int, int]] = set()
    run: list[tuple[int, int]] = []
    longest = prose = 0
    for b, i in [*lines, (-1, -1)]:  # a sentinel closes the last run
        line = blocks[b][i] if b >= 0 else ""
        said = words(line)
        if said and said in seen and not line.startswith("|"):
            run.append((b, i))
            longest = max(longest, said.count(" ") + 1)
            if not _LIST_ITEM.match(line):
                prose = max(prose, said.count(" ") + 1)
            continue
        if longest >= least and (prose >= least or _holds_a_block(run, blocks)):
            dropped.update(run)
        run, longest, prose = [], 0, 0
        seen.add(said)
    if not dropped:
        return text
    kept = []
    for b, block in enumerate(blocks):
        left = [line for i, line in enumerate(block) if (b, i) not in dropped]
        if len(left) == len(block) or any(words(line) for line in left):
            kept.append("\n".join(left))
    return "\n\n".join(kept)


_LIST_ITEM = re.compile(r"\s*(?:[-*+]|\d+[.)])\s")  # a markdown list item's line


def _holds_a_block(run: list[tuple[int, int]], blocks: list[list[str]]) -> bool:
    """Whether ``run`` (lines as (block, line) places in ``blocks``) holds every line of a block."""
    in_run = set(run)
    return any(
        all((b, i) in in_run for i, line in enumerate(blocks[b]) if words(line)) for b in {b for b, _ in run}
    )


def words(text: str) -> str:
    """What ``text`` says: its lowercase words, one space apart, whatever its markup and punctuation."""
    return " ".join(re.findall(r"\w+", text.lower()))


# a sentence ends at ".", "!" or "?" and a space before a capital, a digit or a quote
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“A-Z0-9])")
# A line this long is a page flattened into one line (inline markup only, no paragraph breaks):
# a reading's paragraphs are a few hundred characters, an article's longest a few thousand.
FLAT_LINE_CHARS = 5000


def without_repeated_sentences(text: str, least: int = REPEAT_SENTENCE_WORDS) -> str:
    """The text's flattened lines (FLAT_LINE_CHARS) without the sentences of ``least`` words or
    more said before in them; other lines as they are.

    For a product's page read as one line (:func:`without_repeats` compares lines, and there is
    one): a marketplace writes the item's editorial reviews again under each seller's listing.
    WCXB dev's tuning part: on declared products it fires on one page, 0.319 -> 0.421; on every
    page it also took a collection 0.762 -> 0.757. Every line split into sentences instead (not
    only flattened ones) took two game pages down (-0.013, -0.010: the gold holds a pitch twice).
    """
    seen: set[str] = set()
    out = []
    for line in text.split("\n"):
        if len(line) < FLAT_LINE_CHARS or line.startswith("|"):
            out.append(line)
            continue
        kept = []
        for sentence in _SENTENCE_END.split(line):
            said = words(sentence)
            if said.count(" ") + 1 >= least:
                if said in seen:
                    continue
                seen.add(said)
            kept.append(sentence)
        out.append(" ".join(kept))
    return "\n".join(out)
