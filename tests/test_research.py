"""web_research: one call from a question to cited passages, against the real test SearXNG.

Brave is faked on loopback and answers with addresses of pages a pytest-httpserver serves on
127.0.0.1, which the fetcher may read only because each test allows exactly that address.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import BRAVE_PATH, brave_answer, brave_result
from mcp import Client, StdioServerParameters
from mcp_types import TextContent
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from llmweb.fetch import web_fetch
from llmweb.render import render_research
from llmweb.research import ResearchPassage, ResearchResult, passage_place, web_research
from llmweb.tools import run_tool_call
from serve import stack
from testbed.loopback_guard import guarded_env

LLMWEB = str(Path(sys.executable).with_name("llmweb"))
BEGIN = re.compile(r"^<<<BEGIN UNTRUSTED PAGE TEXT (\w+)>>>$", re.MULTILINE)
END = re.compile(r"^<<<END UNTRUSTED PAGE TEXT (\w+)>>>$", re.MULTILINE)


def filler(topic: object) -> str:
    """A paragraph of words no question asks about; each topic's its own (a paragraph said twice is
    read once)."""
    return " ".join(
        f"Paragraph {n} of the manual's topic {topic} talks about configuration files, logging, users and "
        "permissions."
        for n in range(6)
    )


FILLER = filler("")


def manual(title: str, sections: dict[str, str]) -> str:
    """A documentation page: a title, filler sections, and ``sections`` (heading → paragraph)."""
    body = "".join(f"<h2>Other topic {n}</h2><p>{filler(n)}</p>" for n in range(8))
    body += "".join(f"<h2>{heading}</h2><p>{text}</p>" for heading, text in sections.items())
    return (
        f"<!doctype html><html><head><title>{title}</title></head><body><main><h1>{title}</h1>"
        f"{body}</main></body></html>"
    )


VALKEY_PAGE = manual(
    "Valkey manual",
    {"Persistence": "Valkey writes its snapshot every 300 seconds when at least 10 keys changed, "
     "so a restart loses at most five minutes of limiter counters."},
)  # fmt: skip
CADDY_PAGE = manual(
    "Caddy manual",
    {"Persistence of certificates": "Caddy keeps its certificates in the data directory, so the "
     "snapshot of the data volume survives a restart without asking the certificate authority again."},
)  # fmt: skip
SHELL_PAGE = (
    "<!doctype html><html><head><title>App</title></head><body><div id='root'></div>"
    "<script src='/app.js'></script></body></html>"
)


@pytest.fixture
def pages(monkeypatch: pytest.MonkeyPatch) -> Iterator[HTTPServer]:
    """Pages on 127.0.0.1, and the fetcher allowed to reach exactly that address."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    monkeypatch.setenv("LLMWEB_FETCH_ALLOW", "127.0.0.1")
    yield server
    server.clear()
    server.stop()


def serve(pages: HTTPServer, path: str, html: str) -> str:
    pages.expect_request(path).respond_with_data(html, content_type="text/html; charset=utf-8")
    return pages.url_for(path)


def search_finds(brave: HTTPServer, *urls: str) -> None:
    results = [brave_result(url, f"Result {n}", description=f"Snippet {n}.") for n, url in enumerate(urls)]
    brave.expect_request(BRAVE_PATH).respond_with_json(brave_answer(results))


def research(searxng: stack.Process, question: str, **options: Any) -> ResearchResult:
    # a deadline far above what a call needs, so a machine busy with other work does not decide
    # the outcome (the deadline's own test sets a short one)
    return web_research(question, searxng_url=searxng.url, **{"timeout": 60.0, **options})


QUESTION = "How often does the snapshot persistence run, and does it survive a restart?"


def test_a_question_is_answered_from_two_pages(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    valkey, caddy = serve(pages, "/valkey", VALKEY_PAGE), serve(pages, "/caddy", CADDY_PAGE)
    search_finds(brave, valkey, caddy)
    result = research(searxng, QUESTION)
    cited = {p.url for p in result.passages}
    assert cited == {valkey, caddy}
    texts = " ".join(p.text for p in result.passages)
    assert "every 300 seconds" in texts and "data directory" in texts


def api_manual(title: str, entries: dict[str, str]) -> str:
    """A manual page the way Sphinx writes one: prose using the question's words, other sections,
    then entries (a term and its summary)."""
    prose = (
        "<p>Strings are sequences of characters. A list of strings is often built one string at a "
        f"time, and a string can be put together from a list of strings. {FILLER[:200]}</p>"
    )
    body = (
        f"<p>{filler('intro')}</p>"
        + prose
        + "".join(f"<h2>Other topic {n}</h2><p>{filler(n)}</p>" for n in range(4))
    )
    body += "".join(
        f"<dl><dt id='{name}'>{name}(iterable)</dt><dd><p>{summary}</p><p>{FILLER[:200]}</p></dd></dl>"
        for name, summary in entries.items()
    )
    return (
        f"<!doctype html><html><head><title>{title}</title></head><body><main><h1>{title}</h1>"
        f"{body}</main></body></html>"
    )


def test_the_entry_named_by_a_question_word_comes_first(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    page = api_manual(
        "Built-in Types",
        {"str.join": "Return a string which is the concatenation of the strings in iterable.",
         "str.strip": "Return a copy of the string with the leading and trailing characters removed."},
    )  # fmt: skip
    search_finds(brave, serve(pages, "/stdtypes", page))
    [best, *_] = research(searxng, "How do I join a list of strings into one string?").passages
    assert best.text.startswith("- str.join(iterable)")


def test_every_passage_is_where_web_fetch_with_its_start_begins(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    valkey, caddy = serve(pages, "/valkey", VALKEY_PAGE), serve(pages, "/caddy", CADDY_PAGE)
    search_finds(brave, valkey, caddy)
    result = research(searxng, QUESTION)
    assert result.passages
    for passage in result.passages:
        reread = web_fetch(passage.url, start=passage.start)
        assert reread.text.startswith(passage.text)


def test_the_passages_carry_the_heading_path_and_title(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    # a <title> that does not say the page's first heading: that heading stays in the text, at
    # the head of the path, and is the title the page shows (one the <title> says is left to the
    # title: the next test)
    named = VALKEY_PAGE.replace("<title>Valkey manual</title>", "<title>Valkey documentation</title>")
    search_finds(brave, serve(pages, "/valkey", named))
    [best, *_] = research(searxng, QUESTION).passages
    assert best.title == "Valkey manual"
    assert best.headings == ("Valkey manual", "Persistence")


@pytest.mark.parametrize("max_chars", [1_000, 2_500])
def test_the_whole_answer_keeps_within_max_chars(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer, max_chars: int
) -> None:
    many = manual(
        "Snapshots",
        {f"Snapshot persistence {n}": f"Snapshot persistence rule {n}. {FILLER}" for n in range(12)},
    )
    search_finds(brave, serve(pages, "/many", many), serve(pages, "/valkey", VALKEY_PAGE))
    result = research(searxng, QUESTION, max_chars=max_chars)
    assert result.passages
    assert len(render_research(result)) <= max_chars


def test_a_passage_found_on_two_pages_is_kept_once(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    first, copy = (
        serve(pages, "/valkey", VALKEY_PAGE),
        serve(pages, "/mirror", VALKEY_PAGE.replace("Valkey manual", "Mirror")),
    )
    search_finds(brave, first, copy)
    result = research(searxng, QUESTION)
    snapshots = [p for p in result.passages if "every 300 seconds" in p.text]
    assert len(snapshots) == 1


def test_a_page_whose_best_passage_answers_far_less_than_the_best_pages_gives_none(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    # the mail server's passage shares the question's common words only ("log files"): it scores a
    # third of the proxy's, above the floor, but its page is weighed by that third too
    proxy = manual(
        "Proxy manual",
        {"Log rotation": "The proxy rotates its log files every night and keeps seven of them."},
    )
    mail = manual(
        "Mail server manual",
        {"Size limit": "Its log files are started anew once one grows past 100 MB; old log files are "
         "deleted after a week."},
    )  # fmt: skip
    proxy_url, mail_url = serve(pages, "/proxy", proxy), serve(pages, "/mail", mail)
    search_finds(brave, mail_url, proxy_url)
    result = research(searxng, "How does the proxy rotate its log files?")
    assert {p.url for p in result.passages} == {proxy_url}
    assert "rotates its log files every night" in result.passages[0].text
    assert [u.url for u in result.unused] == [mail_url]


def test_pages_that_refuse_are_listed_with_their_reason_while_others_answer(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    valkey, shell = serve(pages, "/valkey", VALKEY_PAGE), serve(pages, "/app", SHELL_PAGE)
    private = "http://10.20.30.40/wiki"  # judged by the pure address code: nothing is sent
    search_finds(brave, shell, private, valkey)
    result = research(searxng, QUESTION)
    assert {p.url for p in result.passages} == {valkey}
    reasons = {u.url: (u.error, u.reason) for u in result.unread}
    assert reasons[shell][0] == "NeedsJavaScript" and "JavaScript" in reasons[shell][1]
    assert reasons[private][0] == "BlockedAddress" and "private" in reasons[private][1]


def test_a_page_slower_than_the_deadline_is_unread_and_the_call_ends_at_it(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    def slow(request: Request) -> Response:
        time.sleep(8)
        return Response(VALKEY_PAGE, content_type="text/html")

    pages.expect_request("/slow").respond_with_handler(slow)
    valkey = serve(pages, "/valkey", VALKEY_PAGE)
    search_finds(brave, pages.url_for("/slow"), valkey)
    result = research(searxng, QUESTION, timeout=4)
    assert {p.url for p in result.passages} == {valkey}
    [late] = result.unread
    assert late.url == pages.url_for("/slow") and late.error == "FetchTimeout"


def test_no_result_that_answers_is_an_empty_answer_that_says_so(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    search_finds(brave, serve(pages, "/valkey", VALKEY_PAGE))
    result = research(searxng, "Which zebra crossings glow purple?")
    assert result.passages == ()
    assert "No passage of the" in render_research(result)


# --- the model-facing text -----------------------------------------------------------------


def test_the_tool_keeps_page_words_inside_one_fence_and_names_sources_outside(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    valkey, caddy = serve(pages, "/valkey", VALKEY_PAGE), serve(pages, "/caddy", CADDY_PAGE)
    search_finds(brave, valkey, caddy)
    text = run_tool_call("web_research", {"question": QUESTION}, searxng_url=searxng.url)
    [begin], [end] = BEGIN.findall(text), END.findall(text)
    assert begin == end
    inside = text[BEGIN.search(text).end() : END.search(text).start()]  # type: ignore[union-attr]
    outside = text.replace(inside, "")
    assert "every 300 seconds" in inside and "Valkey manual" in inside
    assert "every 300 seconds" not in outside and "Valkey manual" not in outside
    for url in (valkey, caddy):
        assert f'web_fetch {{"url": "{url}", "start": ' in outside


def test_each_passage_label_carries_the_nonce(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    search_finds(brave, serve(pages, "/valkey", VALKEY_PAGE), serve(pages, "/caddy", CADDY_PAGE))
    result = research(searxng, QUESTION)
    text = render_research(result, nonce="0123abcd")
    labels = re.findall(r"^--- (\d+) (\w+) ---$", text, re.MULTILINE)
    assert labels == [(str(n), "0123abcd") for n in range(1, len(result.passages) + 1)]


VALKEY_TWICE = manual(
    "Valkey manual",
    {"Persistence": "Valkey writes its snapshot every 300 seconds when at least 10 keys changed.",
     "Other topic 9": filler(9),
     "Restarts": "After a restart Valkey reads the snapshot back, so the counters survive it."},
)  # fmt: skip


def test_the_passages_of_one_page_stand_together_and_its_address_is_said_once(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    valkey, caddy = serve(pages, "/valkey", VALKEY_TWICE), serve(pages, "/caddy", CADDY_PAGE)
    search_finds(brave, valkey, caddy)
    result = research(searxng, QUESTION)
    urls = [p.url for p in result.passages]
    assert urls.count(valkey) >= 2 and caddy in urls
    assert urls == sorted(urls, key=urls.index)  # no page comes back after another's passage
    text = render_research(result, nonce="0123abcd")
    assert re.findall(r"^=== (\d+) 0123abcd ===$", text, re.MULTILINE) == ["1", "2"]
    for url in (valkey, caddy):  # once, in the call that reads on
        assert text.count(url) == 1
    for passage in result.passages:
        assert f"{passage.start}–{passage.end}" in text


def _answer(*passages: ResearchPassage) -> ResearchResult:
    return ResearchResult(
        question=QUESTION, searches=(QUESTION,), passages=passages, unread=(), pages_read=3,
        max_chars=6_000, seconds=0.1,
    )  # fmt: skip


def _passage(url: str, start: int, text: str, published: str | None = None) -> ResearchPassage:
    return ResearchPassage(
        url=url, title="Valkey manual", published=published, headings=("Valkey manual", "Persistence"),
        start=start, end=start + len(text), text=text, score=1.0,
    )  # fmt: skip


def test_each_source_line_names_the_page_date_every_passage_place_and_the_call_that_reads_on() -> None:
    valkey, caddy = "http://127.0.0.1:8/valkey", "http://127.0.0.1:8/caddy"
    text = render_research(
        _answer(
            _passage(valkey, 5017, "Valkey writes its snapshot every 300 seconds.", "2026-11-30"),
            _passage(valkey, 9000, "After a restart Valkey reads the snapshot back."),
            _passage(caddy, 120, "Caddy keeps its certificates in the data directory."),
        ),
        nonce="0123abcd",
    )
    outside = text[END.search(text).end() :]  # type: ignore[union-attr]
    assert outside.splitlines()[2:] == [
        f'Page 1, published 2026-11-30; passage 1: 5017–5062, 2: 9000–9047; web_fetch {{"url": "{valkey}", "start": 5017}}',
        f'Page 2; passage 3: 120–171; web_fetch {{"url": "{caddy}", "start": 120}}',
    ]


def test_the_frame_leaves_the_pages_words_most_of_the_answer() -> None:
    """Issue 25: at 6,000 characters web_research showed 3,900 of the pages' words, web_fetch 5,200;
    the rest was frame: eight passages of two pages took 1,586 characters of it, now under 1,250."""
    words = "Valkey writes its snapshot every 300 seconds when at least 10 keys changed. " * 4
    pages = ("https://valkey.io/topics/persistence/", "https://caddyserver.com/docs/conventions")
    passages = [_passage(pages[n % 2], 1000 * n, words) for n in range(8)]
    text = render_research(_answer(*sorted(passages, key=lambda p: p.url, reverse=True)))
    assert len(text) - sum(len(p.text) for p in passages) < 1_250


def test_a_heading_path_leaves_out_what_the_title_and_the_passage_already_say(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    search_finds(brave, serve(pages, "/valkey", VALKEY_PAGE))
    result = research(searxng, QUESTION)
    [best, *_] = result.passages
    # the page's first heading says its <title>: the text leaves it to the title (extract.py)
    assert best.headings == ("Persistence",) and best.text.startswith("## Persistence")
    text = render_research(result, nonce="0123abcd")
    label = text.index("--- 1 0123abcd ---\n")
    assert text[label:].split("\n")[1] == "## Persistence"  # no path line: the title is said above
    assert "Valkey manual › Persistence" not in text
    # a documentation page keeps its first heading in its text (its outline's top): the path
    # still leaves out the title it says, and the passage's own heading
    assert passage_place(("Valkey manual", "Persistence"), "Valkey manual", "## Persistence\n\nValkey") == ""
    assert (
        passage_place(("Valkey manual", "Persistence"), "Valkey", "Valkey writes")
        == "Valkey manual › Persistence"
    )


def test_the_cli_prints_the_tools_text_and_json_and_exits_1_when_nothing_answers(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    search_finds(brave, serve(pages, "/valkey", VALKEY_PAGE))
    env = guarded_env({**os.environ, "LLMWEB_FETCH_ALLOW": "127.0.0.1", "LLMWEB_SEARXNG_URL": searxng.url})

    def llmweb(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [LLMWEB, "research", *args], capture_output=True, text=True, env=env, timeout=120
        )

    shown = llmweb(QUESTION)
    assert shown.returncode == 0, shown.stderr
    assert "every 300 seconds" in shown.stdout and "<<<BEGIN UNTRUSTED PAGE TEXT" in shown.stdout
    as_json = llmweb(QUESTION, "--json")
    passages = json.loads(as_json.stdout)["passages"]
    assert passages[0]["url"] == pages.url_for("/valkey") and "every 300 seconds" in passages[0]["text"]
    assert llmweb("Which zebra crossings glow purple?").returncode == 1


def test_the_cli_refuses_an_unusable_max_chars_with_64() -> None:
    shown = subprocess.run(
        [LLMWEB, "research", "question", "--max-chars", "10"],
        capture_output=True,
        text=True,
        env=guarded_env(),
        timeout=60,
    )
    assert shown.returncode == 64
    assert "max_chars" in shown.stderr


def test_the_mcp_server_answers_web_research_with_the_tools_text(
    searxng: stack.Process, brave: HTTPServer, pages: HTTPServer
) -> None:
    search_finds(brave, serve(pages, "/valkey", VALKEY_PAGE))
    env = {"LLMWEB_FETCH_ALLOW": "127.0.0.1", "LLMWEB_SEARXNG_URL": searxng.url}
    parameters = StdioServerParameters(command=LLMWEB, args=["mcp"], env=guarded_env(env))

    async def main() -> tuple[bool, str]:
        async with Client(parameters) as client:
            result = await client.call_tool("web_research", {"question": QUESTION})
            [content] = result.content
            assert isinstance(content, TextContent)
            return bool(result.is_error), content.text

    is_error, text = anyio.run(main)
    assert not is_error
    assert "every 300 seconds" in text and f'"url": "{pages.url_for("/valkey")}"' in text
