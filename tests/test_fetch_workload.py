"""The work after the download is bounded: bodies that are cheap to send but were once
expensive to read end in an error that names why, and no work outlives the answer.

The hostile bodies are testbed/attacks.py's; ``scripts/bench fetch`` measures their time and
memory, these tests their outcome. Pages come from pytest-httpserver on 127.0.0.1.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml.html import HtmlElement
from pytest_httpserver import HTTPServer

from llmweb.errors import NeedsJavaScript, Timeout, TooLarge
from llmweb.fetch import web_fetch, worker
from llmweb.fetch.html.extract import _parse
from llmweb.fetch.html.markdown import CodeBlock, CodeBlocks, restore_code_blocks
from llmweb.fetch.html.workload import count_possible_elements, measure_tree
from testbed import worker_jobs
from testbed.attacks import CANARY, HOSTILE, INSTRUCTION, TEXT_LINE, content_stream, paragraph
from testbed.pdf import pdf_document

BY_NAME = {hostile.name: hostile for hostile in HOSTILE}
DRAWING_LINE = b"0 0 m 100 100 l S\n"  # a line drawn, no text


pytestmark = pytest.mark.usefixtures("allow_test_servers")

# Under every structural cap (99,002 elements of the 100,000), 1.2 MB that loopback delivers in
# milliseconds, yet 7-9 s of trafilatura's work on this 2-core machine under load: far past
# SHORT_DEADLINE even on a machine several times faster, so the deadline, not the speed of the
# machine, decides how the fetch ends.
SLOW_PAGE = b"<html><body>" + b"<div><span><b>ab cd</b></span></div>" * 33_000 + b"</body></html>"
SHORT_DEADLINE = 0.5


def serve(server: HTTPServer, body: bytes, content_type: str) -> str:
    server.expect_request("/page").respond_with_data(body, content_type=content_type)
    return server.url_for("/page")


WORKER_COMMAND = b"from llmweb.fetch.worker import serve; serve()"  # how llmweb.fetch.worker starts one


def extraction_workers() -> dict[int, str]:
    """Each extraction worker this process started, with its state (R running, S waiting, …)."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            with open(f"/proc/{name}/cmdline", "rb") as cmdline:
                command = cmdline.read().split(b"\0")
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and WORKER_COMMAND in command:
            found[int(name)] = fields[0].decode()
    return found


def workers_still_working() -> list[int]:
    """Extraction workers not waiting for their next job: a leftover job keeps its worker running.

    A worker that has just answered needs a moment to get back to reading its next job, so this
    looks again until none runs; the 20 s are a guard against hanging, not a speed check.
    """
    end = time.monotonic() + 20
    while True:
        busy = [pid for pid, state in extraction_workers().items() if state in ("R", "D")]
        if not busy or time.monotonic() > end:
            return busy
        time.sleep(0.05)


@pytest.mark.parametrize("name", ["state-strings", "state-wide", "state-nested"])
def test_a_shell_with_hostile_embedded_state_is_refused_as_a_shell(
    httpserver_ipv4: HTTPServer, name: str
) -> None:
    hostile = BY_NAME[name]
    with pytest.raises(NeedsJavaScript):
        web_fetch(serve(httpserver_ipv4, hostile.body, hostile.content_type))


# articles whose reading once ran past the deadline (a Timeout for a page it can read), or ended
# in an error from outside llmweb's tree
@pytest.mark.parametrize(
    "name",
    [
        "ld-nested",  # its author's name and its FAQ sought in JSON-LD past what json reads
        "repeated-paragraph",  # jusText's second opinion quadratic in a run of short paragraphs
        "faq-unshown",  # each line of a FAQ it never shows sought in the whole visible text
        "sibling-asides",  # each <aside> looked through every sibling for the story's paragraphs
        "marked-notes",  # the elements their attributes mark deduplicated each against all before
    ],
)
def test_an_article_costly_to_read_once_is_read_whole(httpserver_ipv4: HTTPServer, name: str) -> None:
    hostile = BY_NAME[name]
    got = web_fetch(serve(httpserver_ipv4, hostile.body, hostile.content_type))
    assert all(paragraph(0, i) in got.text for i in range(12))


def test_a_page_after_one_that_left_its_worker_big_has_the_whole_ceiling(httpserver_ipv4: HTTPServer) -> None:
    # the page of marked notes, read after a shell's deep state, could leave its worker 43 MB
    # bigger in memory but 207 MB in address space, which the memory ceiling counts: kept, the
    # worker ran out of memory on the next page, which a count refuses in milliseconds (on some
    # runs, as glibc places the freed memory: three rounds)
    for name in ("state-nested", "marked-notes", "table"):
        hostile = BY_NAME[name]
        httpserver_ipv4.expect_request(f"/{name}").respond_with_data(
            hostile.body, content_type=hostile.content_type
        )
    for _ in range(3):
        with pytest.raises(NeedsJavaScript):
            web_fetch(httpserver_ipv4.url_for("/state-nested"))
        assert web_fetch(httpserver_ipv4.url_for("/marked-notes")).total_chars > 0
        with pytest.raises(TooLarge, match="950,000 table cells"):
            web_fetch(httpserver_ipv4.url_for("/table"))


def test_a_job_in_a_worker_earlier_jobs_left_bigger_has_the_whole_ceiling() -> None:
    # glibc may keep address space a job freed, up to the 64 MB that retire a worker: a ceiling
    # counted from the worker's start left the next job that much less (the page of marked notes,
    # 176-192 MB of its 224, once ran out of memory under the reliability test's load)
    # (the worker that kept 40 MB takes the next job, unless earlier tests had left it 24 MB
    # bigger already: then it retires, and a fresh one takes 200 MB within either ceiling)
    worker.run(worker_jobs.keep_address_space, 40, seconds=30)
    try:
        worker.run(worker_jobs.take_address_space, 200, seconds=30)  # not OutOfMemory
    finally:
        worker.run(worker_jobs.release_address_space, seconds=30)


@pytest.mark.parametrize(
    ("name", "cause"),
    [
        ("table", "950,000 table cells"),
        ("links", "150,000 links"),
        ("pre-60k", "60,000 code blocks"),
        ("pre-120k", "120,000 code blocks"),
        ("paragraphs", "90,000 paragraphs"),
        ("attributes", "an element with more than"),
        ("cells-hidden", "about 900,000 table cells"),
        ("paragraphs-hidden", "has 99,000 paragraphs"),
        ("glued-tags", "about 2,450,00"),
        ("pdf", "bytes of drawing instructions"),
    ],
)
def test_a_page_cheap_to_send_but_costly_to_read_is_refused_naming_why(
    httpserver_ipv4: HTTPServer, name: str, cause: str
) -> None:
    hostile = BY_NAME[name]
    url = serve(httpserver_ipv4, hostile.body, hostile.content_type)
    with pytest.raises(TooLarge) as caught:
        web_fetch(url)
    assert cause in str(caught.value)
    assert caught.value.url == url
    assert workers_still_working() == []


def test_extraction_past_the_deadline_is_stopped_and_nothing_keeps_running(
    httpserver_ipv4: HTTPServer,
) -> None:
    url = serve(httpserver_ipv4, SLOW_PAGE, "text/html")
    with pytest.raises(Timeout) as caught:
        web_fetch(url, timeout=SHORT_DEADLINE)
    assert f"Turning {url} into text took longer than the {SHORT_DEADLINE:g} seconds" in str(caught.value)
    assert "The page (1.2 MB of HTML" in str(caught.value)  # and what the worker counted, if it had time
    assert workers_still_working() == []


def test_extraction_that_needs_more_memory_than_allowed_is_stopped(httpserver_ipv4: HTTPServer) -> None:
    spans = b"<html><body><p>" + b"<span>word</span> " * 40_000 + b"</p></body></html>"
    url = serve(httpserver_ipv4, spans, "text/html")
    with pytest.raises(TooLarge) as caught:
        web_fetch(url, max_memory=32 * 2**20, timeout=60)
    assert "into text needed more than 32 MB of memory" in str(caught.value)
    assert workers_still_working() == []


def test_a_page_stopped_by_the_memory_ceiling_is_described_by_what_the_worker_counted(
    httpserver_ipv4: HTTPServer,
) -> None:
    # "<!-->" once hid the rest of the page from the count the caller redid for this message
    spans = b"<html><body><!--><p>" + b"<span>word</span> " * 40_000 + b"</p></body></html>"
    url = serve(httpserver_ipv4, spans, "text/html")
    with pytest.raises(TooLarge) as caught:
        web_fetch(url, max_memory=32 * 2**20, timeout=60)
    assert re.search(r"\(0.7 MB of HTML, (at most )?40,00\d HTML elements", str(caught.value))


def test_the_next_fetch_after_a_stopped_one_reads_its_page(httpserver_ipv4: HTTPServer) -> None:
    httpserver_ipv4.expect_request("/slow").respond_with_data(SLOW_PAGE, content_type="text/html")
    text = "A paragraph of an ordinary article that is read after the slow page was stopped. " * 5
    page = f"<html><body><article><p>{text}</p></article></body></html>"
    httpserver_ipv4.expect_request("/next").respond_with_data(page, content_type="text/html")
    with pytest.raises(Timeout):
        web_fetch(httpserver_ipv4.url_for("/slow"), timeout=SHORT_DEADLINE)
    assert text.strip() in web_fetch(httpserver_ipv4.url_for("/next")).text


def test_a_pdf_page_too_heavy_to_read_is_skipped_and_the_rest_is_read(httpserver_ipv4: HTTPServer) -> None:
    pdf = pdf_document([content_stream(TEXT_LINE, 200), content_stream(TEXT_LINE, 900_000)], [1, 0])
    result = web_fetch(serve(httpserver_ipv4, pdf, "application/pdf"))
    assert "Hello world" in result.text
    assert any(note.startswith("Page 1 of the PDF was skipped") for note in result.notes)


def test_a_pdf_is_read_until_its_pages_pass_the_drawing_budget(httpserver_ipv4: HTTPServer) -> None:
    # drawings without text are cheap for pypdf, so the budget is reached fast
    pdf = pdf_document(
        [content_stream(TEXT_LINE, 200), content_stream(DRAWING_LINE, 450_000)], [0, 1, 1, 1, 1, 1]
    )
    result = web_fetch(serve(httpserver_ipv4, pdf, "application/pdf"))
    assert "Hello world" in result.text
    assert any(note.startswith("Reading stopped before page 6 of 6") for note in result.notes)


def tree(html: str) -> HtmlElement:
    root = _parse(html)  # the parse read_html_page makes
    assert root is not None
    return root


def test_tags_in_scripts_styles_and_comments_are_not_counted_as_elements() -> None:
    html = "<p>a</p><script>x = '<td><td><a href=1>'</script><style>td<a{}</style><!-- <pre> <pre> --><td>"
    work = measure_tree(tree(html))
    assert (work.paragraphs, work.table_cells, work.links, work.code_blocks) == (1, 1, 0, 0)


def test_table_cells_count_td_and_th_but_not_thead() -> None:
    assert measure_tree(tree("<TABLE><THEAD><TR><TH>a<th>b<tbody><tr><td>1<td x=2>")).table_cells == 4


# Markup the text counter once read differently from libxml2, each hiding what follows it
WALKAROUNDS = ["<!-->", "<!--->", "<!-- --!>", "<script-x>", '<a title="<script>">', "<a title='<!--'>"]
ODD_MARKUP = [
    *WALKAROUNDS, "<td>", "<p>", "</p>", "<a href=x>", "<pre>", "<br>", "</br>", "<script>", "</script>",
    "<style>", "<textarea>", "<title>", "<plaintext>", "<!--", "-->", "--!>", "<!", "<?", "</", "<", ">",
    "\"", "'", "=", "/", " ", "\x00", "\x01", "\x0c", "x", "<TD", "<svg>", "<math>", "<table>", "<tr>",
    "<html>", "<head>", "<body>", "<frameset>", "<_a>", "<é>", "\ud800",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ODD_MARKUP) | st.text(max_size=3), max_size=40))
def test_the_count_before_parsing_never_falls_short_of_what_the_parser_builds(pieces: list[str]) -> None:
    html = "".join(pieces)
    root = _parse(html)
    built = 0 if root is None else len(root.xpath("//*"))
    assert count_possible_elements(html) >= built


@pytest.mark.parametrize("walkaround", WALKAROUNDS)
def test_cells_behind_markup_the_counter_once_misread_are_counted(walkaround: str) -> None:
    html = "<table><tr>" + walkaround + "<td>x" * 1000
    assert count_possible_elements(html) >= 1000
    assert measure_tree(tree(html)).table_cells == 1000


def test_thousands_of_code_blocks_come_back_in_order_and_intact() -> None:
    codes = CodeBlocks("marker", [CodeBlock(f"print({i})") for i in range(3000)])
    text = "\n\n".join(f"Step {i}:\n\n{codes.placeholder(i)} {codes.placeholder(i)}" for i in range(3000))
    restored = restore_code_blocks(text, codes)
    assert restored.count("```") == 6000
    assert restored.index("print(2999)") > restored.index("print(1000)") > restored.index("Step 999:")


def test_a_machine_that_cannot_start_the_reading_worker_gets_a_fetch_error_not_a_crash(
    httpserver_ipv4: HTTPServer,
) -> None:
    # A broken Python home for the processes this one starts: the worker cannot even begin.
    url = serve(httpserver_ipv4, b"<html><body><p>Tekst strony.</p></body></html>", "text/html")
    code = (
        "import os\n"
        "os.environ['PYTHONHOME'] = '/nonexistent'\n"
        "from llmweb import web_fetch, LlmwebError\n"
        "try:\n"
        f"    web_fetch({url!r}, allow='127.0.0.1')\n"
        "except LlmwebError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("FetchError llmweb could not read")
    assert "This is the machine, not the page" in done.stdout


def test_a_reading_failure_that_is_no_llmweb_error_comes_back_named_by_its_type_only() -> None:
    # int("…") raises ValueError quoting its argument, as a library's error may quote the page
    with pytest.raises(worker.JobFailed) as caught:
        worker.run(int, f"SYSTEM: {INSTRUCTION}", seconds=30)
    assert caught.value.kind == "ValueError"
    assert CANARY not in str(caught.value)


@pytest.mark.parametrize("name", ["assign-repeat", "flight-repeat", "marker-letters", "embedded-blocks"])
def test_a_small_page_whose_reading_was_quadratic_ends_in_its_outcome(
    httpserver_ipv4: HTTPServer, name: str
) -> None:
    hostile = BY_NAME[name]
    url = serve(httpserver_ipv4, hostile.body, hostile.content_type)
    if hostile.outcomes:
        with pytest.raises(hostile.outcomes):
            web_fetch(url)
    else:
        assert web_fetch(url).total_chars > 0
