"""web_fetch with a question: the passages that answer it, where they lie, and how to read on.

The pure parts (passages, terms, ranking) directly; the whole path through web_fetch, the
tool dispatcher and the command line against pages served on loopback.
"""

from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pytest
from pytest_httpserver import HTTPServer

from llmweb.cli import main as cli_main
from llmweb.fetch import web_fetch
from llmweb.fetch.focus import terms
from llmweb.fetch.focus.passages import (
    PASSAGE_CHARS,
    Span,
    focus_text,
    lead_line,
    rank_pages,
    rank_passages,
    split_passages,
)
from llmweb.fetch.focus.terms import Analyser
from llmweb.tools import run_tool_call, tool_definitions


def _filler(topic: str, sentences: int) -> str:
    return " ".join(
        f"The {topic} section goes on about its own matters, sentence {n}." for n in range(sentences)
    )


CODE = "\n".join(
    [
        "```python",
        "# Run three coroutines at once and collect their results",
        "async def main():",
        "    async with asyncio.TaskGroup() as tg:",
        *[f"        task{n} = tg.create_task(fetch_page({n}))" for n in range(40)],
        "",
        "    # every task is done when the block ends",
        "    print(task1.result())",
        "```",
    ]
)
TABLE = "\n".join(
    ["| Constant | Meaning |", "| --- | --- |"]
    + [f"| FLAG_{n:03d} | what flag number {n} switches on in the event loop |" for n in range(60)]
)
DOC = "\n\n".join(
    [
        "# asyncio",
        "An introduction to the library. " + _filler("introduction", 30),
        "## Coroutines and Tasks",
        _filler("overview", 25),
        "### Sleeping",
        "The coroutine `asyncio.sleep(delay)` suspends the current task for delay seconds. "
        + _filler("sleeping", 10),
        "### Task Groups",
        "A `TaskGroup` holds related tasks: leaving its `async with` block waits until every task "
        "created in the group has finished, and one failing task cancels the others.",
        CODE,
        "### Flags",
        TABLE,
        "## Streams",
        _filler("streams", 40),
        "Reading a line from a stream: call `StreamReader.readline()`; it returns bytes ending in a newline.",
        _filler("closing", 20),
    ]
)
POLISH_DOC = "\n\n".join(
    [
        "# Podręcznik",
        "## Pliki",
        "Aby otworzyć plik do zapisu, wywołaj funkcję `open(nazwa, 'w')`. Zapisane dane trafią na dysk "
        "po zamknięciu pliku. "
        + " ".join(f"Zdanie numer {n} opisuje inne sprawy tego działu." for n in range(40)),
        "## Wątki",
        "Wątki uruchamia się metodą `start()`; na zakończenie wątku czeka metoda `join()`. "
        + " ".join(f"Kolejne zdanie {n} mówi o czymś zupełnie innym." for n in range(40)),
    ]
)


pytestmark = pytest.mark.usefixtures("allow_test_servers")


def serve(httpserver: HTTPServer, path: str, text: str) -> str:
    httpserver.expect_request(path).respond_with_data(text, content_type="text/markdown; charset=utf-8")
    return httpserver.url_for(path)


# --- passages ------------------------------------------------------------------------------


def test_a_heading_starts_a_passage_that_carries_its_heading_path() -> None:
    spans = split_passages(DOC)
    groups = next(s for s in spans if DOC[s.start :].startswith("### Task Groups"))
    assert groups.headings == ("asyncio", "Coroutines and Tasks", "Task Groups")


def test_passages_after_a_section_carry_the_new_sections_path() -> None:
    streams = [s for s in split_passages(DOC) if "Streams" in s.headings]
    assert streams and all(s.headings == ("asyncio", "Streams") for s in streams)


def test_a_code_block_longer_than_a_passage_stays_whole() -> None:
    assert len(CODE) > PASSAGE_CHARS
    holding = [s for s in split_passages(DOC) if "tg.create_task" in DOC[s.start : s.end]]
    assert len(holding) == 1
    assert CODE in DOC[holding[0].start : holding[0].end]


def test_comment_lines_in_code_are_not_headings() -> None:
    paths = {heading for s in split_passages(DOC) for heading in s.headings}
    assert not any(h.startswith("Run three coroutines") or h.startswith("every task") for h in paths)


def test_every_part_of_a_long_table_keeps_the_header_row() -> None:
    parts = [s for s in split_passages(DOC) if "FLAG_" in DOC[s.start : s.end]]
    assert len(parts) > 1
    for part in parts:
        shown = part.lead + DOC[part.start : part.end]
        header = shown.find("| Constant | Meaning |\n| --- | --- |\n| FLAG_")
        assert header != -1 and header < shown.find("FLAG_")


def test_a_text_without_headings_is_cut_at_paragraph_starts() -> None:
    paragraphs = [_filler(f"part {n}", 6) for n in range(12)]
    text = "\n\n".join(paragraphs)
    spans = split_passages(text)
    assert len(spans) > 1
    starts = {text.index(p) for p in paragraphs}
    assert all(s.start in starts and s.headings == () for s in spans)


def test_a_long_entrys_name_line_stays_with_its_description() -> None:
    # one block: an entry's name on its own line, then a description longer than a passage
    description = "  " + " ".join(f"The call stops the program with status {n}." for n in range(30))
    text = "- exception SystemExit\n" + description
    spans = split_passages(text)
    assert len(spans) > 1
    first = text[spans[0].start : spans[0].end]
    assert first.startswith("- exception SystemExit\n  The call stops")


def test_a_long_list_of_methods_is_cut_where_a_method_starts() -> None:
    # one block, as Sphinx's markdown writes a class: its methods a nested list without blank lines
    methods = [
        f"  - method_{n}(value)\n    Set the value number {n} of the logger and return the old one."
        for n in range(12)
    ]
    text = "- class logging.Logger\n" + "\n".join(methods)
    spans = split_passages(text)
    assert len(spans) > 1
    assert all(text[s.start : s.end].startswith("  - method_") for s in spans[1:])


def test_passages_cover_the_text_in_order_without_overlap() -> None:
    spans = split_passages(DOC)
    assert all(a.end <= b.start for a, b in itertools.pairwise(spans))
    covered = "".join(DOC[s.start : s.end] for s in spans)
    assert "".join(covered.split()) == "".join(DOC.split())  # only whitespace lies between passages


# --- terms -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("asked", "written"),
    [
        ("TaskGroup", "a task group"),
        ("task group", "asyncio.TaskGroup()"),
        ("--max-chars", "max_chars=5000"),
        ("asyncio.gather", "call gather() from asyncio"),
        ("snake_case", "SnakeCase"),
    ],
)
def test_identifiers_match_however_they_are_written(asked: str, written: str) -> None:
    english = Analyser("english")
    shared = set(english.query_terms(asked)) & set(english.terms(written))
    assert len(shared) >= 2  # both words of the name


def test_the_exact_identifier_gives_one_more_term_than_its_words() -> None:
    english = Analyser("english")
    assert "taskgroup" in english.terms("asyncio.TaskGroup")
    assert "taskgroup" not in english.terms("a group of tasks")


# Words whose stems change more than their suffix, or keep few letters, or are no plain word:
# the English stemmer's exceptions, a "y" made "i", an "e" added, identifiers joined across
# a connector, numbers, a folded letter.
STEMMED_APART = """dying lying tying vying skies cry cries tried using hoped ability relational
    organization generously emergency sky news only early ugly gently idly io.open a.b.c x_y
    TaskGroup --max-chars 2011 3.4.4: café’s naïve Ünicode rôle""".split()  # noqa: SIM905


def test_giving_finds_every_piece_that_gives_an_asked_term() -> None:
    """Only pieces that may give an asked term are analysed; none that does is missed."""
    suffixes = """s ies ied ed ing ingly eed ly y ational ation ator iviti biliti ogi alize icate ful
        ness ment e""".split()  # noqa: SIM905
    stems = ["tr", "cr", "gen", "ab", "us", "hop", "rel", "sk", "d", "organ", "commun", "arsen"]
    pieces = STEMMED_APART + [stem + suffix for stem, suffix in itertools.product(stems, suffixes)]
    alone = {piece: Analyser("english").terms(piece) for piece in pieces}  # each piece analysed whole
    for term in set(itertools.chain.from_iterable(alone.values())):  # one term asked at a time
        expected = {piece: [term] * found.count(term) for piece, found in alone.items() if term in found}
        assert Analyser("english").giving(pieces, [term]) == expected, term


def test_polish_words_match_their_inflected_forms() -> None:
    polish = Analyser.for_page(POLISH_DOC)
    assert polish.language == "polish"
    assert set(polish.query_terms("plików")) == set(polish.terms("plik"))
    assert set(polish.query_terms("watki")) == set(polish.terms("wątki"))  # typed without diacritics


def test_a_polish_question_about_an_english_page_asks_for_english_words() -> None:
    english = Analyser("english")
    asked = set(english.query_terms("Jak czekać na zakończenie zadań?"))
    assert {"wait", "task"} <= asked


def test_a_polish_question_about_the_machine_or_statistics_asks_for_english_words() -> None:
    english = Analyser("english")
    asked = set(english.query_terms("Ile procesorów ma komputer i ile miejsca zostało na dysku?"))
    assert {"processor", "disk", "space"} <= asked
    assert "median" in english.query_terms("Jak policzyć medianę listy?")


def test_a_polish_questions_function_words_ask_for_no_english_words() -> None:
    english = Analyser("english")
    asked = set(
        english.query_terms("Jak dodać opcję do programu?")
    )  # jak: how, as, like; do: to, until, milk
    assert {"add", "option", "program"} <= asked
    assert asked.isdisjoint(english.terms("like until milk"))


def test_words_analysed_before_are_remembered_within_a_bound() -> None:
    # a hostile page of more distinct words than the memo keeps: the memo starts afresh, not grows
    english = Analyser("english")
    english.terms(" ".join(f"word{n}x" for n in range(terms.MEMO_PIECES + 1000)))
    assert len(terms._memos["english"]) <= terms.MEMO_PIECES
    assert Analyser("english").terms("tasks word3x") == ["task", "word3x"]


# --- focusing ----------------------------------------------------------------------------


def test_an_english_question_finds_the_section_that_answers_it() -> None:
    found = focus_text(DOC, "How do I wait until all tasks in a group have finished?", 1500)
    assert found.best is not None
    assert found.best.headings[-1] == "Task Groups"


def test_a_polish_question_finds_the_english_section_that_answers_it() -> None:
    found = focus_text(DOC, "Jak odczytać wiersz ze strumienia?", 1500)
    assert found.best is not None
    assert "StreamReader.readline()" in found.best.text


def test_a_polish_question_finds_the_polish_section_that_answers_it() -> None:
    found = focus_text(POLISH_DOC, "Jak poczekać na zakończenie wątku?", 1000)
    assert found.best is not None
    assert found.best.headings[-1] == "Wątki"


PROMPTS_DOC = "\n\n".join(
    [
        "# Reading from the terminal",
        _filler("introduction", 10),
        "## Lines",
        "The function `input(prompt)` writes the prompt and returns the line the user types. "
        + _filler("lines", 8),
        "## Secrets",
        "The function `getpass.getpass(prompt)` asks the user for a password without echoing it. "
        + _filler("secrets", 8),
    ]
)


def test_web_fetch_finds_an_english_passage_for_a_polish_word_from_the_dictionary(
    httpserver_ipv4: HTTPServer,
) -> None:
    # "hasło" is in no topic of the hand-written glossary; FreeDict's table gives "password".
    url = serve(httpserver_ipv4, "/terminal.md", PROMPTS_DOC)
    page = web_fetch(url, query="Jak zapytać o hasło?", max_chars=600)
    assert page.passages
    assert "getpass.getpass" in page.passages[0].text


# A manual page the way Sphinx's markdown reads: entries ("- name(arguments)" and an indented
# summary) among prose and examples that use the question's words more often.
ENTRIES_DOC = "\n\n".join(
    [
        "# Text Sequence Type",
        _filler("introduction", 12),
        "Strings are sequences of characters. A list of strings is often built one string at a time, "
        "and a string can be split into a list of strings and put together into one string again. "
        "Each string in the list stays a string; the list itself is not a string. " + _filler("prose", 4),
        "- str.join(iterable)\n  Return a string which is the concatenation of the strings in iterable. "
        + _filler("join", 5),
        "- str.strip([chars])\n  Return a copy of the string with the leading and trailing characters "
        "removed. " + _filler("strip", 5),
    ]
)


def test_an_entry_named_by_a_question_word_outranks_prose_repeating_the_other_words() -> None:
    spans = split_passages(ENTRIES_DOC)
    scores = rank_passages(ENTRIES_DOC, spans, "How do I join a list of strings into one string?")
    best = spans[int(scores.argmax())]
    assert ENTRIES_DOC[best.start : best.end].startswith("- str.join(iterable)")


# Two entries whose first passages say the same; only the second entry's body goes on about what
# the question asks (where the settings come from), in passages of its own.
TWIN_ENTRIES_DOC = "\n\n".join(
    [
        "# Configuration",
        _filler("introduction", 8),
        "- settings.load_file(path)\n  Read the settings and return them as a mapping. " + _filler("file", 6),
        "The file is parsed as TOML; a missing file is an error. " + _filler("format", 6),
        "- settings.load_process(prefix)\n  Read the settings and return them as a mapping. "
        + _filler("prefix", 6),
        "Each environment variable whose name starts with the prefix gives one setting. "
        + _filler("names", 6),
        "A variable set to an empty string counts as unset, so the environment can switch one off. "
        + _filler("empty", 6),
    ]
)


def test_of_two_alike_entry_openings_the_one_whose_entry_covers_the_question_ranks_first() -> None:
    spans = split_passages(TWIN_ENTRIES_DOC)
    scores = rank_passages(TWIN_ENTRIES_DOC, spans, "How do I read the settings from environment variables?")
    openings = {
        TWIN_ENTRIES_DOC[s.start : s.end].split("(")[0]: score for s, score in zip(spans, scores, strict=True)
    }
    assert openings["- settings.load_process"] > openings["- settings.load_file"]


def test_web_fetch_answers_with_the_entry_whose_body_covers_the_question(httpserver_ipv4: HTTPServer) -> None:
    url = serve(httpserver_ipv4, "/settings.md", TWIN_ENTRIES_DOC)
    page = web_fetch(url, query="How do I read the settings from environment variables?", max_chars=2000)
    best = min(page.passages, key=lambda p: p.rank)
    assert best.text.startswith("- settings.load_process(prefix)")


# A page whose subject ("regular expression") runs through its passages, read beside a page that
# never names it but uses the question's other word ("replace") everywhere.
REGEX_DOC = "\n\n".join(
    [
        "# Regular expression operations",
        "This module provides regular expression matching. " + _filler("introduction", 6),
        "- re.search(pattern, string)\n  Scan through string looking for the first place the regular "
        "expression pattern matches. " + _filler("search", 5),
        "- re.sub(pattern, repl, string)\n  Return the string obtained by replacing the leftmost "
        "matches of pattern in string by the replacement repl. " + _filler("sub", 5),
        "## Examples",
        "A regular expression is compiled once; the regular expression object matches many strings, "
        "and every match of the regular expression is a match object. " + _filler("examples", 4),
    ]
)
REPLACE_DOC = "\n\n".join(
    ["# Strings", _filler("introduction", 6)]
    + [
        f"- str.replace{n}(old, new)\n  Return a copy with old replaced by new, replacement {n}. "
        + _filler("replace", 4)
        for n in range(6)
    ]
)


def test_among_pages_the_subject_a_page_repeats_does_not_outrank_its_answering_entry() -> None:
    (spans, scores), _ = rank_pages(
        [REGEX_DOC, REPLACE_DOC], "How do I replace all matches of a regular expression?"
    )
    best = spans[int(scores.argmax())]
    assert REGEX_DOC[best.start : best.end].startswith("- re.sub(pattern, repl, string)")


# An entry whose summary says what it does in its own words, and whose parameter table, a passage
# of its own, shares the question's words; other entries share a few of them in their summaries.
SUMMARY_DOC = "\n\n".join(
    [
        "# Logging",
        _filler("introduction", 8),
        "- logging.basicConfig(**kwargs)\n  Does basic configuration for the logging system. "
        + _filler("configuration", 5),
        "  | Format | Description |\n  | --- | --- |\n"
        + "\n".join(
            f"  | option_{n} | Send the log records to a file or to the console, setting {n}. |"
            for n in range(6)
        ),
        "- logging.getLogger(name)\n  Return a logger that writes its records to a file. "
        + _filler("loggers", 5),
        "- logging.shutdown()\n  Flush and close the console handlers. " + _filler("shutdown", 5),
    ]
)


def test_an_entrys_summary_ranks_with_its_passage_that_matches_the_question() -> None:
    spans = split_passages(SUMMARY_DOC)
    scores = rank_passages(SUMMARY_DOC, spans, "How do I send logging to a file or to the console?")
    by_opening = {
        SUMMARY_DOC[s.start : s.end].split("(")[0]: score for s, score in zip(spans, scores, strict=True)
    }
    assert by_opening["- logging.basicConfig"] == scores.max()


# Examples that use the question's words and name the function they call; the function's entry
# says what it does in other words.
EXAMPLES_DOC = "\n\n".join(
    [
        "# Regular expression operations",
        _filler("introduction", 8),
        "- re.sub(pattern, repl, string)\n  Return the string obtained by replacing the leftmost "
        "non-overlapping occurrences of pattern in string by repl. " + _filler("substitution", 5),
        "- re.escape(pattern)\n  Escape special characters in pattern, so that it matches them as "
        "a literal text. " + _filler("escaping", 5),
        "## Examples",
        _filler("examples", 4),
        "### Text Munging",
        "`sub()` replaces every match of a regular expression in a text with a string, as here, where "
        "all matches in the text are replaced. " + _filler("munging", 3),
        "### Finding Adverbs",
        "A regular expression matches every adverb of a text; the matches of the regular expression "
        "come back in a list. " + _filler("adverbs", 3),
    ]
)


def test_an_entry_that_an_answering_example_names_ranks_next_to_it() -> None:
    spans = split_passages(EXAMPLES_DOC)
    scores = rank_passages(
        EXAMPLES_DOC, spans, "How do I replace all matches of a regular expression in a text?"
    )
    order = [EXAMPLES_DOC[spans[i].start : spans[i].end] for i in np.argsort(-scores, kind="stable")]
    assert order[0].startswith("### Text Munging") and order[1].startswith("- re.sub(")


def test_only_a_heading_or_a_list_items_short_first_line_opens_an_entry() -> None:
    text = "## Sleeping\n\n- time.sleep(secs)\n  Suspend.\n\nPlain prose starts here.\n\n- " + "word " * 60
    spans = [Span(m.start(), m.end(), ()) for m in re.finditer(r"[^\n]+", text)]
    opening = [text[s.start : s.end] for s in spans if lead_line(text, s) is not None]
    assert opening == ["## Sleeping", "- time.sleep(secs)"]


def test_passages_fit_in_max_chars_and_come_in_page_order() -> None:
    found = focus_text(DOC, "task group coroutine sleep stream flag", 2000)
    assert sum(len(p.text) for p in found.passages) <= 2000
    starts = [p.start for p in found.passages]
    assert starts == sorted(starts)
    assert sorted(p.rank for p in found.passages) == list(range(1, len(starts) + 1))


# --- through web_fetch, the tools and the command line ----------------------------------


def test_web_fetch_with_a_query_returns_the_passages_and_their_places(httpserver_ipv4: HTTPServer) -> None:
    url = serve(httpserver_ipv4, "/asyncio.md", DOC)
    page = web_fetch(url, query="What does TaskGroup do when one task fails?", max_chars=1500)
    assert page.query == "What does TaskGroup do when one task fails?"
    best = min(page.passages, key=lambda p: p.rank)
    assert best.headings == ("asyncio", "Coroutines and Tasks", "Task Groups")
    assert "one failing task cancels the others" in best.text
    assert len(page.text) <= 1500


def test_a_passages_start_reads_on_from_exactly_that_passage(httpserver_ipv4: HTTPServer) -> None:
    url = serve(httpserver_ipv4, "/asyncio.md", DOC)
    page = web_fetch(url, query="readline from a stream", max_chars=1500)
    for passage in page.passages:
        window = web_fetch(url, start=passage.start, max_chars=1500)
        assert window.text.startswith(passage.text[:200])
        assert DOC[passage.start : passage.end] == passage.text


def test_a_code_block_comes_whole_in_the_answer(httpserver_ipv4: HTTPServer) -> None:
    url = serve(httpserver_ipv4, "/asyncio.md", DOC)
    page = web_fetch(url, query="tg.create_task example with async with", max_chars=3000)
    assert any(CODE in p.text for p in page.passages)


def test_a_page_shorter_than_the_window_comes_whole(httpserver_ipv4: HTTPServer) -> None:
    short = "# Notes\n\nOne short page about sleeping tasks."
    url = serve(httpserver_ipv4, "/short.md", short)
    page = web_fetch(url, query="sleeping tasks", max_chars=5000)
    assert page.text == short
    assert page.passages == ()
    assert any("fits in max_chars" in note for note in page.notes)


def test_a_question_that_matches_nothing_gets_the_text_from_start_and_says_so(
    httpserver_ipv4: HTTPServer,
) -> None:
    url = serve(httpserver_ipv4, "/asyncio.md", DOC)
    page = web_fetch(url, query="zebra xylophone quokka", max_chars=1000)
    assert page.passages == ()
    assert DOC.startswith(page.text) and page.next_start == len(page.text)
    assert any("No passage shares a word with the question" in note for note in page.notes)


def test_a_blank_query_reads_the_page_as_without_one(httpserver_ipv4: HTTPServer) -> None:
    url = serve(httpserver_ipv4, "/asyncio.md", DOC)
    assert web_fetch(url, query="  ", max_chars=1000) == web_fetch(url, max_chars=1000)


def test_the_tool_answer_labels_each_passage_and_ends_with_the_calls_that_read_around_it(
    httpserver_ipv4: HTTPServer,
) -> None:
    url = serve(httpserver_ipv4, "/asyncio.md", DOC)
    text = run_tool_call("web_fetch", {"url": url, "query": "StreamReader readline", "max_chars": 1500})
    assert 'Question: "StreamReader readline"' in text
    label = re.search(r"--- characters (\d+)–(\d+) \(best match\) · asyncio › Streams ---", text)
    assert label is not None
    last = text.splitlines()[-1]
    assert json.dumps({"url": url, "start": int(label.group(1)), "max_chars": 1500}) in last
    assert json.dumps({"url": url, "max_chars": 1500}) in last


def test_the_fetch_tool_schema_offers_a_query() -> None:
    fetch = next(t["function"] for t in tool_definitions() if t["function"]["name"] == "web_fetch")
    assert fetch["parameters"]["properties"]["query"]["type"] == "string"
    assert "query" in fetch["description"]


def test_the_command_line_takes_a_query(
    httpserver_ipv4: HTTPServer, capsys: pytest.CaptureFixture[str]
) -> None:
    url = serve(httpserver_ipv4, "/asyncio.md", DOC)
    assert cli_main(["fetch", url, "--query", "asyncio.sleep delay", "--max-chars", "1500", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["query"] == "asyncio.sleep delay"
    best = next(p for p in answer["passages"] if p["rank"] == 1)
    assert best["headings"] == ["asyncio", "Coroutines and Tasks", "Sleeping"]
