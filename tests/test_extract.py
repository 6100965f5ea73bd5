"""HTML → main text, title and date; bot challenges and JavaScript shells. Pure: no network."""

from __future__ import annotations

import contextlib
import html as html_lib
import json
from pathlib import Path

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from llmweb.errors import ChallengePage, LlmwebError, NeedsJavaScript, NoReadableText
from llmweb.fetch.html.between import restore_between
from llmweb.fetch.html.extract import ExtractedPage, extract_page, find_bot_challenge, read_html_page
from llmweb.fetch.html.hidden import drop_screen_reader_text
from llmweb.fetch.html.layers import without
from llmweb.fetch.html.marks import Marked
from llmweb.fetch.html.sections import restore_section_bodies
from llmweb.fetch.html.sizes import text_size

PAGES = Path(__file__).parent / "fixtures" / "pages"
SENTENCE = "The committee met on Tuesday to discuss the annual budget for the city's parks and libraries. "
PARAGRAPH = f"<p>{SENTENCE * 3}</p>"

# The code block of fixtures/pages/sphinx_code.html, typed out from the page as a reader sees it.
RETRY_CODE = """\
def call_with_retry(func, attempts=3):
    for attempt in range(attempts):
        try:
            return func()
        except OSError:
            if attempt == attempts - 1:
                raise
            time.sleep(2 ** attempt)"""


def page(body: str, head: str = "", title: str = "Parks budget approved") -> str:
    return f"<!DOCTYPE html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def sphinx_text() -> str:
    return extract_page((PAGES / "sphinx_code.html").read_text(), "https://docs.example.org/retry.html").text


def test_a_highlighted_code_block_keeps_its_exact_indentation() -> None:
    text = sphinx_text()
    assert f"\n{RETRY_CODE}\n```" in text
    line_before = text.split(RETRY_CODE)[0].rstrip("\n").split("\n")[-1]
    assert line_before.startswith("```")


def test_a_code_fence_names_the_language_of_the_highlighter() -> None:
    assert f"```python3\n{RETRY_CODE}" in sphinx_text()


def test_code_blocks_keep_tabs_blank_lines_and_markup_characters() -> None:
    code = "\tif a < b and c > d:\n\n\n\t\treturn a & b  # keep   these spaces\n    *args, **kwargs = [x]"
    text = extract_page(page(PARAGRAPH + f"<pre>{html_lib.escape(code)}</pre>" + PARAGRAPH)).text
    assert f"\n{code}\n```" in text


def test_a_code_block_containing_a_fence_gets_a_longer_fence() -> None:
    code = "Write code like this:\n```\nprint(1)\n```"
    text = extract_page(page(PARAGRAPH + f"<pre>{code}</pre>")).text
    assert f"````\n{code}\n````" in text


def test_headings_become_markdown_headings() -> None:
    lines = sphinx_text().split("\n")
    assert "## Usage" in lines
    assert "## Parameters" in lines


def test_an_articles_headline_is_left_to_the_title() -> None:
    head = '<meta property="og:type" content="article">'
    body = f"<article><h1>Parks budget approved</h1>{PARAGRAPH}{PARAGRAPH}</article>"
    page_ = extract_page(page(body, head))
    assert page_.title == "Parks budget approved"
    assert "Parks budget approved" not in page_.text


def test_a_manuals_first_heading_stays_in_its_text() -> None:
    assert "# `retry` — Retrying calls" in sphinx_text().split("\n")


def test_an_articles_first_heading_unlike_the_title_stays() -> None:
    head = '<meta property="og:title" content="City news roundup"><meta property="og:type" content="article">'
    body = f"<article><h2>Budget vote tonight</h2>{PARAGRAPH}{PARAGRAPH}</article>"
    assert extract_page(page(body, head)).text.startswith("## Budget vote tonight\n")


def test_a_first_heading_the_head_names_the_page_by_is_left_to_the_title() -> None:
    body = f"<main><h1>Parks budget approved</h1>{PARAGRAPH}{PARAGRAPH}</main>"
    page_ = extract_page(page(body, title="Parks budget approved | City News"))
    assert "Parks budget approved" not in page_.text
    assert page_.text.startswith("The committee met")


def test_a_first_heading_the_head_does_not_name_stays_on_a_page_not_an_article() -> None:
    body = f"<main><h1>Budget vote tonight</h1>{PARAGRAPH}{PARAGRAPH}</main>"
    text = extract_page(page(body, title="Parks budget approved | City News")).text
    assert text.startswith("# Budget vote tonight\n")


def test_a_page_named_by_its_dropped_heading_is_still_read_as_on_its_subject() -> None:
    # the shell verdict weighs the text with the heading it left out: without the heading the
    # text held none of the title's words, and the framework's state, which names the subject,
    # took the page over
    state = {
        "props": {
            "pageProps": {
                "title": "Harbor Ferry Timetable",
                "description": "The harbor ferry timetable lists every crossing to the island. Boats leave "
                "the north pier each hour from six in the morning, and the last ferry returns at midnight. "
                "Tickets are sold on board and at the kiosk beside the pier, and bicycles travel free on "
                "weekdays outside the rush hours.",
            }
        }
    }
    head = f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(state)}</script>'
    body = f"<main><h1>Harbor Ferry Timetable</h1>{PARAGRAPH}</main><script>console.log(1)</script>"
    text = read_html_page(page(body, head, title="Harbor Ferry Timetable - Port of Example")).text
    assert text.startswith("The committee met")
    assert "north pier" not in text


def test_the_title_is_the_headline_a_reader_sees_rather_than_the_social_cards() -> None:
    head = '<meta property="og:title" content="Parks budget: a row seems to be over">'
    body = f"<article><h1>Parks budget approved after all</h1>{PARAGRAPH}</article>"
    assert extract_page(page(body, head)).title == "Parks budget approved after all"


def test_permalink_signs_are_left_out_of_headings() -> None:
    assert "¶" not in sphinx_text()


def test_lists_become_markdown_lists() -> None:
    lists = "<ul><li>first item</li><li>second item</li></ul><ol><li>step one</li><li>step two</li></ol>"
    body = f"<article><h1>Parks budget approved</h1>{PARAGRAPH}{lists}{PARAGRAPH}</article>"
    lines = extract_page(page(body)).text.split("\n")
    assert [line for line in lines if line.startswith("- ")] == ["- first item", "- second item"]
    assert "1. step one" in lines
    assert "2. step two" in lines


def test_tables_become_markdown_tables() -> None:
    assert (
        "| Attempt | Wait before next |\n| --- | --- |\n| first | 1 second |\n| second | 2 seconds |"
        in sphinx_text()
    )


def test_prose_is_not_backslash_escaped() -> None:
    body = PARAGRAPH + "<p>Pass initial_indent and *args to wrap([text]) for the_best results.</p>"
    assert (
        "Pass initial_indent and *args to wrap([text]) for the_best results." in extract_page(page(body)).text
    )


def test_navigation_footer_scripts_and_styles_are_left_out() -> None:
    text = sphinx_text()
    for boilerplate in ("Sidebar contents link", "Created using Sphinx", "Modules", "background: #f8f8f8"):
        assert boilerplate not in text


def test_the_main_content_is_kept() -> None:
    text = sphinx_text()
    assert "calls a function again when it fails with a transient error" in text
    assert "returns whatever func returns on the first successful attempt" in text


def test_the_title_comes_from_the_page() -> None:
    assert extract_page(page(f"<h1>Parks budget approved</h1>{PARAGRAPH}")).title == "Parks budget approved"


def test_the_publication_date_comes_from_the_page_metadata() -> None:
    head = '<meta property="article:published_time" content="2024-03-05T10:00:00+00:00">'
    assert extract_page(page(PARAGRAPH, head), "https://news.example.com/parks").published == "2024-03-05"


def test_a_page_that_states_no_date_has_none() -> None:
    assert extract_page(page(PARAGRAPH), "https://news.example.com/parks").published is None


def test_text_that_trafilatura_discards_still_comes_back_from_the_whole_page() -> None:
    # trafilatura drops comment sections; a page holding nothing else would come back empty
    text = extract_page(page(f'<div id="comments">{PARAGRAPH}</div>')).text
    assert SENTENCE.strip() in text


# An example from a method's documentation, typed out as a reader sees it.
EXAMPLE_CODE = """\
let mut writer = BufWriter::new(stream);
for i in 0..10 {
    writer.write(&[i + 1]).unwrap();
}"""


def rustdoc_method(code: str) -> str:
    """A method's documentation laid out as rustdoc does: linked signature, sentence, example, "Run"."""
    return (
        '<div class="impl-items"><details class="method-toggle" open><summary><h4>pub fn '
        '<a href="#method.new">new</a>(inner: W) -&gt; <a href="struct.BufWriter.html">BufWriter</a></h4>'
        '</summary><div class="docblock"><p>Creates a new buffered writer with a default capacity.</p>'
        '<h5 id="examples"><a href="#examples">Examples</a></h5>'
        f'<div class="example-wrap"><pre class="rust">{html_lib.escape(code)}</pre>'
        '<a class="test-arrow" href="https://play.rust-lang.org/">Run</a></div></div></details></div>'
    )


def test_a_short_example_among_a_few_links_keeps_its_code_verbatim() -> None:
    body = f"<h1>Struct BufWriter</h1>{PARAGRAPH}{rustdoc_method(EXAMPLE_CODE)}{PARAGRAPH}"
    assert f"\n{EXAMPLE_CODE}\n```" in extract_page(page(body)).text


def test_a_one_line_summary_made_of_links_in_the_declared_main_region_is_kept() -> None:
    summary = (
        '<details open><summary><h4>fn <a href="#method.type_id">type_id</a>(&amp;self) -&gt; '
        '<a href="struct.TypeId.html">TypeId</a></h4></summary><div class="docblock"><p>Gets the '
        '<a href="struct.TypeId.html">TypeId</a> of self. <a href="#method.type_id">Read more</a></p></div></details>'
    )
    body = f'<section id="main-content"><h1>Trait Any</h1>{PARAGRAPH}{summary}{PARAGRAPH}</section>'
    assert "Gets the TypeId of self." in extract_page(page(body)).text


# ROLE="main" is role="main" to the parser, which folds attribute names; the raw page was once
# searched for role="main" (in lower case) before the tree, and such an index was lost
@pytest.mark.parametrize("role", ['role="main"', 'ROLE="main"'])
def test_an_index_of_pages_in_the_declared_main_region_is_kept(role: str) -> None:
    pages = ["threading — Thread-based parallelism", "queue — A synchronized queue class"]
    index = "".join(f'<li><a href="page{i}.html">{name}</a></li>' for i, name in enumerate(pages))
    body = f"<div {role}><h1>Concurrent Execution</h1>{PARAGRAPH}<ul>{index}</ul></div>"
    text = extract_page(page(body)).text
    assert all(name in text for name in pages)


def test_a_list_of_links_outside_the_declared_main_region_is_left_out() -> None:
    links = "".join(f'<li><a href="/story{i}">Other story number {i}</a></li>' for i in range(6))
    body = f'<div role="main"><h1>Parks budget approved</h1>{PARAGRAPH * 3}</div><div><ul>{links}</ul></div>'
    assert "Other story" not in extract_page(page(body)).text


def test_a_code_block_in_the_sidebar_is_left_out() -> None:
    sidebar = '<nav class="sidebar"><h3>Snippets</h3><pre>sidebar_snippet();</pre></nav>'
    main = f'<section id="main-content"><h1>Struct BufWriter</h1>{PARAGRAPH}{rustdoc_method(EXAMPLE_CODE)}</section>'
    assert "sidebar_snippet" not in extract_page(page(sidebar + main)).text


# --- documentation from generators no rule was written for ---------------------------------


def manual(entry: str) -> str:
    """A module's page laid out as none of the docs bench's generators does: a column of links
    to the other modules beside the main column, neither of them named as such."""
    toc = "".join(f'<a href="module{i}.html">Module number {i}</a><br>' for i in range(12))
    main = (
        "<h1>Module <code>netcfg</code></h1><p>Reads and writes the network settings of a host, "
        "from its configuration files or from the running system. Every call takes the host's "
        "name and returns plain values, so the results can be compared and stored.</p>"
        f"<h3><code>netcfg.lookup(name)</code></h3>{entry}<p>Looks up <code>name</code> in the "
        "configured resolvers in turn and returns the first address found, or raises "
        "<code>LookupError</code> when none of them knows it.</p>"
    )
    return page(
        f'<div class="toc">{toc}</div><div class="column">{main}</div>', title="netcfg — Example Manual"
    )


def test_a_code_blocks_label_naming_its_language_is_left_to_the_fence() -> None:
    # MDN's examples: a header above each block saying "js", which the fence says already
    entry = (
        '<div class="code-example"><div class="example-header"><span class="language-name">js</span></div>'
        '<pre class="brush: js notranslate"><code>const address = netcfg.lookup("example.org");</code></pre></div>'
    )
    read = extract_page(manual(entry))
    assert "code_labels" in read.fired
    assert '```js\nconst address = netcfg.lookup("example.org");\n```' in read.text
    assert "js" not in read.text.split("\n")


def test_a_code_header_naming_its_language_beside_a_copy_button_is_left_out() -> None:
    # Microsoft Learn's shape: "Python" and a Copy button above the code
    code = "for host in hosts:\n    print(netcfg.lookup(host))"
    entry = (
        '<div class="codeHeader"><span class="language">Python</span>'
        '<button type="button"><span>Copy</span></button></div>'
        f'<pre><code class="lang-python">{code}</code></pre>'
    )
    read = extract_page(manual(entry))
    assert f"```python\n{code}\n```" in read.text
    assert "Python" not in read.text.split("\n")


def test_a_section_headed_by_the_language_of_its_code_keeps_its_heading() -> None:
    entry = (
        "<h4>Python</h4>"
        '<pre><code class="language-python">address = netcfg.lookup("example.org")</code></pre>'
        "<h4>Shell</h4>"
        '<pre><code class="language-shell">netcfg lookup example.org</code></pre>'
    )
    text = extract_page(manual(entry)).text
    assert "#### Python" in text.split("\n") and "#### Shell" in text.split("\n")


def test_a_version_line_beside_an_api_entry_is_kept_on_its_own_line() -> None:
    entry = '<div class="api-meta"><span>Added in: v0.5.8</span></div>'
    assert "Added in: v0.5.8" in extract_page(manual(entry)).text.split("\n")


def test_a_deprecation_note_beside_an_api_entry_is_kept() -> None:
    entry = (
        '<div class="item-info"><div class="stab deprecated">Deprecated since 2.1: use resolve</div></div>'
    )
    assert "Deprecated since 2.1: use resolve" in extract_page(manual(entry)).text.split("\n")


def test_an_api_entrys_history_table_is_kept() -> None:
    entry = (
        '<div class="api-meta"><details class="changelog"><summary>History</summary><table>'
        "<tr><th>Version</th><th>Changes</th></tr><tr><td>v2.0.0</td><td>Returns a promise.</td></tr>"
        "<tr><td>v0.5.8</td><td>Added.</td></tr></table></details></div>"
    )
    text = extract_page(manual(entry)).text
    assert "| v2.0.0 | Returns a promise. |\n| v0.5.8 | Added. |" in text


def test_a_code_block_in_a_table_cell_keeps_its_lines() -> None:
    code = "conn = netcfg.open()\nfor route in conn.routes():\n    print(route)"
    entry = (
        "<table><tr><th>Call</th><th>Example</th></tr>"
        f"<tr><td><code>open()</code></td><td><pre>{code}</pre></td></tr></table>"
    )
    assert f"```\n{code}\n```" in extract_page(manual(entry)).text


def test_a_code_block_in_a_table_cell_of_any_page_keeps_its_lines() -> None:
    code = "make\nmake install"
    table = f"<table><tr><td>Build it</td><td><pre>{code}</pre></td></tr><tr><td>Then</td><td>run it</td></tr></table>"
    assert f"```\n{code}\n```" in extract_page(page(PARAGRAPH + table + PARAGRAPH)).text


def test_a_table_inside_a_table_cell_is_read_once() -> None:
    signature = (
        "<table><tr><td>int netcfg_open</td><td>(</td><td>const char *name</td><td>)</td></tr></table>"
    )
    entry = f"<table><tr><td>{signature}</td><td>inline</td></tr></table>"
    assert extract_page(manual(entry)).text.count("netcfg_open") == 1


def test_a_list_of_examples_after_examples_is_kept() -> None:
    entry = (
        "<p>Examples:</p><ul><li><code>netcfg.mask(24)</code> gives <code>255.255.255.0</code></li>"
        "<li><code>netcfg.mask(16)</code> gives <code>255.255.0.0</code></li></ul>"
    )
    lines = extract_page(manual(entry)).text.split("\n")
    assert "- `netcfg.mask(24)` gives `255.255.255.0`" in lines
    assert "- `netcfg.mask(16)` gives `255.255.0.0`" in lines


def test_a_manuals_menu_of_dated_versions_does_not_make_it_a_discussion() -> None:
    # git's manual: each version a link with an icon and its date, three side by side, as a
    # thread's posters are signed (.manual.holds_discussion); a version is not a poster's name
    versions = "".join(
        f'<li><a href="/docs/netcfg/2.{i}.0"><img src="/tag.svg" alt="">2.{i}.0 2025-0{i}-17</a></li>'
        for i in range(1, 5)
    )
    read = extract_page(manual(f"<ul>{versions}</ul>"))
    assert "manual" in read.fired


def test_the_links_beside_a_manuals_main_column_are_left_out() -> None:
    text = extract_page(manual("<p>Resolves names.</p>")).text
    assert "Module number" not in text
    assert "Resolves names." in text  # the main column is kept


def test_a_navigation_menu_inside_a_manuals_main_region_is_left_out() -> None:
    menu = (
        "<nav><ul>"
        + "".join(f'<li><a href="m{i}.html">Guide chapter {i}</a></li>' for i in range(12))
        + "</ul></nav>"
    )
    html = manual("<p>Resolves names.</p>").replace(
        '<div class="column">', f'<main><div class="column">{menu}', 1
    )
    html = html.replace("</body>", "</main></body>", 1)
    text = extract_page(html).text
    assert "Guide chapter" not in text
    assert "Resolves names." in text


def manual_with_footer(footer: str) -> ExtractedPage:
    """A manual's page read whole, ``footer`` at the end of its main region; its text is checked."""
    html = manual("<p>Resolves names.</p>").replace('<div class="column">', '<main><div class="column">', 1)
    html = html.replace("</body>", f"{footer}</main></body>", 1)
    read = extract_page(html)
    assert "manual" in read.fired
    assert "Resolves names." in read.text
    return read


def test_a_footer_inside_a_manuals_main_region_is_left_out() -> None:
    # the page's own footer, inside the region read whole: when it was changed, where to edit it
    footer = (
        "<footer><p>This page was last modified on Jul 8, 2025 by the contributors.</p>"
        '<p><a href="https://git.example/docs/edit/netcfg.md">Edit this page</a> · Report a problem</p></footer>'
    )
    read = manual_with_footer(footer)
    assert "last modified" not in read.text and "Edit this page" not in read.text


def test_a_block_named_as_the_pages_footer_inside_a_manuals_main_region_is_left_out() -> None:
    # MDN's shape: a <section> whose class says it is the article's footer, not a <footer> tag
    footer = (
        '<section class="content-section article-footer"><div class="article-footer__inner">'
        "<h2>Help improve the manual</h2><p>This page was last modified on "
        '<time datetime="2024-09-25">Sep 25, 2024</time> by <a href="/contributors.txt">the contributors</a>.</p>'
        '<div><a href="https://git.example/docs/edit/netcfg.md">View this page on the forge</a> • '
        '<a href="https://git.example/docs/issues/new">Report a problem with this content</a></div></div></section>'
    )
    read = manual_with_footer(footer)
    assert "last modified" not in read.text and "Report a problem" not in read.text


def test_what_sits_beside_a_manuals_one_article_in_its_main_region_is_left_out() -> None:
    # a blog post with code, its <main> holding the <article> and, after it, the author's box
    # and the site's recent posts: the article is the text
    beside = (
        '<div class="author-box"><h4>Dana Reyes</h4><p>Dana writes tools for network engineers '
        "and has maintained netcfg since its first release.</p></div>"
        '<div class="recent"><h3>Recent Posts</h3>'
        + "".join(
            f'<h4><a href="/blog/{i}">Release notes {i}</a></h4><p>March {i}, 2026</p>' for i in range(1, 4)
        )
        + "</div>"
    )
    html = manual("<pre><code>netcfg.lookup('example.org')</code></pre>").replace(
        '<div class="column">', '<main><article class="column">', 1
    )
    html = html.replace("</div></body>", f"</article>{beside}</main></body>", 1)
    read = extract_page(html)
    assert "manual" in read.fired
    assert "Looks up `name`" in read.text
    assert "Dana" not in read.text and "Recent Posts" not in read.text and "Release notes" not in read.text


def test_a_manual_whose_main_region_is_declared_twice_one_inside_the_other_is_read_once() -> None:
    html = manual("<pre><code>netcfg.lookup('example.org')</code></pre>").replace(
        '<div class="column">', '<main role="main"><div id="main-content" class="column">', 1
    )
    html = html.replace("</div></body>", "</div></main></body>", 1)
    read = extract_page(html)
    assert "manual" in read.fired
    assert read.text.count("Looks up `name`") == 1
    assert read.text.count("netcfg.lookup('example.org')") == 1


def test_a_date_a_manual_read_whole_states_about_itself_is_the_pages_date_not_its_text() -> None:
    # a blog post with code: its dateline under the title, a <time>, is its published date
    dateline = '<p class="meta"><time datetime="2025-12-19">Dec 19, 2025</time></p>'
    html = manual("<pre><code>netcfg.lookup('example.org')</code></pre>").replace(
        "</h1>", f"</h1>{dateline}", 1
    )
    read = extract_page(html)
    assert "manual" in read.fired
    assert read.published == "2025-12-19"
    assert "Dec 19" not in read.text
    assert "Looks up `name`" in read.text


def test_a_manuals_own_table_of_contents_is_left_out() -> None:
    # "Table of Contents" at the top of the column: each line a link to a section of the page
    names = ("Looking up a name", "Reading the settings", "Writing the settings")
    contents = (
        '<div class="page-toc"><h3>Table of Contents</h3><ul>'
        + "".join(f'<li><a href="#s{i}">{name}</a></li>' for i, name in enumerate(names))
        + "</ul></div>"
    )
    sections = "".join(
        f'<h2 id="s{i}">{name}</h2><p>Section {i} of the manual.</p>' for i, name in enumerate(names)
    )
    html = manual("<p>Resolves names.</p>" + sections).replace(
        '<div class="column">', f'<div class="column">{contents}', 1
    )
    read = extract_page(html)
    assert "manual" in read.fired
    assert "## Reading the settings" in read.text.split("\n")  # the section itself stays
    assert "- Reading the settings" not in read.text and "Table of Contents" not in read.text


def test_the_menus_above_a_manuals_title_are_left_out() -> None:
    # a site's dropdowns inside the region read whole, above the page's title: a menu of the
    # book's chapters under group headings, and a language picker, shown by a script
    chapters = "".join(
        f"<h2>{n}. Part {n}</h2><ul>"
        + "".join(f'<li><a href="/book/{n}-{i}">{n}.{i} Chapter {n}.{i}</a></li>' for i in range(1, 5))
        + "</ul>"
        for n in range(1, 4)
    )
    menus = (
        '<div class="chapters"><a href="#" data-panel-id="chapters">Chapters ▾</a>'
        f'<div class="dropdown-panel" id="chapters">{chapters}</div></div>'
        '<ul class="languages"><li><a href="/es/">Español</a></li><li><a href="/fr/">Français</a></li>'
        '<li><a href="/sv/">Svenska</a></li></ul>'
    )
    see_also = '<h3>See also</h3><ul><li><a href="a.html">resolv</a></li><li><a href="b.html">hosts</a></li>'
    see_also += '<li><a href="c.html">nsswitch</a></li></ul>'
    html = manual("<p>Resolves names.</p>" + see_also).replace(
        '<div class="column">', f'<main><div class="column">{menus}', 1
    )
    html = html.replace("</body>", "</main></body>", 1)
    read = extract_page(html)
    assert "manual" in read.fired
    assert "Chapter 2.3" not in read.text and "Chapters" not in read.text and "Svenska" not in read.text
    assert "Resolves names." in read.text
    assert "- nsswitch" in read.text.split("\n")  # links under the title are the manual's


def test_a_manuals_breadcrumb_trail_is_left_out() -> None:
    # two links above the title (too few for a menu), a trail named once by its class and once
    # by its ARIA label and schema.org type, and a wrapper named as one that holds the text
    trails = (
        '<div class="doc-breadcrumbs">You are here: <a href="/">start</a> &gt; <a href="/net/">network</a></div>',
        '<ol aria-label="Breadcrumb" itemscope itemtype="https://schema.org/BreadcrumbList">'
        '<li><a href="/">Docs</a></li><li><a href="/net/">Network</a></li></ol>',
    )
    for trail in trails:
        html = manual("<p>Resolves names.</p>").replace(
            '<div class="column">', f'<main><div class="column">{trail}', 1
        )
        read = extract_page(html.replace("</body>", "</main></body>", 1))
        assert "manual" in read.fired
        assert "Resolves names." in read.text
        assert "start" not in read.text and "Docs" not in read.text and "Network" not in read.text
    wrapper = manual("<p>Resolves names.</p>").replace(
        '<div class="column">', '<main><div class="breadcrumb-page">', 1
    )
    read = extract_page(wrapper.replace("</body>", "</main></body>", 1))
    assert "manual" in read.fired and "Resolves names." in read.text


def test_a_short_manual_page_is_returned_rather_than_taken_for_a_javascript_shell() -> None:
    html = page(
        '<div class="toc"><a href="a.html">Other constant</a></div><div class="column"><h1>Constant '
        "<code>netcfg::MAX_HOPS</code></h1><pre>pub const MAX_HOPS: u8 = 30;</pre><p>Hops <code>trace</code> tries.</p></div>"
        '<script src="search.js"></script>'
    )
    assert "pub const MAX_HOPS: u8 = 30;" in read_html_page(html, "https://docs.example.org/c.html").text


def test_nested_inline_code_keeps_its_words_in_order() -> None:
    doc = "<p><code><code>shift</code> x i</code> shifts <code>x</code> left by <code>i</code> bits.</p>"
    assert "`shift x i` shifts `x` left by `i` bits." in extract_page(manual(doc)).text


def declared_article(inner: str) -> str:
    """A page that declares an article (og:type), its <main> holding the article: its title, then ``inner``."""
    body = f"<main><article><h1>Parks budget approved</h1>{inner}</article></main>"
    return page(body, '<meta property="og:type" content="article">')


def article_with(block: str) -> str:
    body = f"<article><h1>Parks budget approved</h1>{PARAGRAPH}{block}{PARAGRAPH}{PARAGRAPH}</article>"
    return page(body, '<meta property="og:type" content="article">')


def test_a_related_line_of_links_inside_an_article_is_left_out() -> None:
    block = '<p>Related: <a href="/libraries">Libraries open on Sundays from next month</a></p>'
    text = extract_page(article_with(block)).text
    assert "Libraries open on Sundays" not in text
    assert SENTENCE.strip() in text  # the article is kept


def test_a_you_may_also_like_label_and_its_links_are_left_out() -> None:
    links = "".join(
        f'<li><a href="/story{i}">Another story about the city, number {i}</a></li>' for i in range(3)
    )
    text = extract_page(article_with(f"<h3>You may also like</h3><ul>{links}</ul>")).text
    assert "You may also like" not in text
    assert "Another story" not in text
    assert SENTENCE.strip() in text  # the article is kept


def linked_headlines(headline: str, count: int) -> str:
    """List items, each a heading linked to another story: other stories' cards."""
    return "".join(f'<li><a href="/story{i}"><h3>{headline}, number {i}</h3></a></li>' for i in range(count))


def test_a_you_may_also_like_heading_in_a_row_of_its_own_and_its_cards_are_left_out() -> None:
    cards = linked_headlines("Another story about the city", 3)
    block = f'<section><div class="row"><div><h2>You may also like</h2></div></div><div class="row"><ul>{cards}</ul></div></section>'
    text = extract_page(article_with(block)).text
    assert "You may also like" not in text
    assert "Another story" not in text
    assert SENTENCE.strip() in text  # the article is kept


def test_a_closing_heading_with_next_to_nothing_under_it_is_left_out() -> None:
    closing = "<h2>Comments</h2><p>Sign in to comment.</p>"
    body = f"<article><h1>Parks budget approved</h1>{PARAGRAPH}{PARAGRAPH}{closing}</article>"
    text = extract_page(page(body, '<meta property="og:type" content="article">')).text
    assert "Comments" not in text
    assert SENTENCE.strip() in text  # the article is kept


def test_a_list_of_linked_headlines_inside_an_article_is_left_out() -> None:
    items = linked_headlines("Another story about the city budget", 4)
    text = extract_page(article_with(f"<ul>{items}</ul>")).text
    assert "Another story" not in text
    assert SENTENCE.strip() in text  # the article is kept


def test_cards_whose_link_holds_their_teaser_paragraph_are_left_out_of_an_article() -> None:
    # a card is one link around its picture, headline and teaser: the paragraph inside a link
    # sends the reader to another page (an e-book's download card, a menu's product blurbs)
    card = (
        '<a href="/guides/budgets"><div class="card"><img src="/guide.png" alt="">'
        "<h3>Guide: planning a city budget</h3>"
        "<p>Discover how to plan a city budget that residents understand, step by step.</p>"
        "<span>Download</span></div></a>"
    )
    text = extract_page(article_with(card)).text
    assert "Discover how to plan" not in text
    assert "Guide: planning" not in text
    assert SENTENCE.strip() in text  # the article is kept


def test_a_link_inside_an_articles_paragraph_stays() -> None:
    inline = (
        '<p>The plan, <a href="/plan">published on the city website</a>, runs to forty pages and more.</p>'
    )
    text = extract_page(article_with(inline)).text
    assert "published on the city website" in text


def test_a_newsletter_sign_up_line_is_left_out() -> None:
    block = "<p>Sign up for our free daily newsletter to get the city's news in your inbox.</p>"
    text = extract_page(article_with(block)).text
    assert "newsletter" not in text
    assert SENTENCE.strip() in text  # the article is kept


def test_paragraphs_about_the_newsletter_a_page_is_about_stay() -> None:
    about = "<p>The newsletter industry has never been healthier: open rates rose all year.</p>"
    body = f"<article><h1>Who reads your newsletter?</h1>{PARAGRAPH}{about}{PARAGRAPH}{PARAGRAPH}</article>"
    html = page(body, '<meta property="og:type" content="article">', title="Who reads your newsletter?")
    assert "The newsletter industry has never been healthier" in extract_page(html).text


def test_a_paragraph_about_code_that_subscribes_to_something_stays() -> None:
    # a guide to an API says "subscribe" of its own code: a sentence naming code is not a call to sign up
    about = (
        "<p>The purpose of our <code>useFriendStatus</code> hook is to subscribe us to a friend's status. "
        "This is why it takes <code>friendID</code> as an argument.</p>"
    )
    body = f"<article><h1>Building your own hooks</h1>{PARAGRAPH}{about}{PARAGRAPH}{PARAGRAPH}</article>"
    html = page(body, '<meta property="og:type" content="article">', title="Building your own hooks")
    assert "subscribe us to a friend's status" in extract_page(html).text


def article_by(author: str, end: str, head: str = "") -> str:
    """An article whose markup names ``author``, with ``end`` below its paragraphs."""
    body = f"<article><h1>Parks budget approved</h1>{PARAGRAPH * 4}{end}</article>"
    meta = f'<meta property="og:type" content="article"><meta name="author" content="{author}">'
    return page(body, meta + head)


def test_the_authors_biography_below_an_article_is_left_out() -> None:
    bio = (
        '<div class="box"><h4>Maria Lopez</h4><p>Maria Lopez covers city hall and the budget for the '
        "Courier; before that she reported on schools for ten years.</p>"
        "<p>She lives in the east end with two cats.</p></div>"
    )
    text = extract_page(article_by("Maria Lopez", bio)).text
    assert "covers city hall" not in text
    assert "two cats" not in text  # the rest of the author's box goes with it
    assert SENTENCE.strip() in text


def test_an_author_box_marked_as_the_author_below_an_article_is_left_out() -> None:
    box = (
        '<div itemprop="author" itemscope itemtype="https://schema.org/Person"><a rel="author" href="/m">'
        "Maria Lopez</a><p>Maria started the Courier's city desk in 2010, after twelve years of reporting "
        "on schools, roads and the harbour.</p></div>"
    )
    text = extract_page(article_by("Maria Lopez", box)).text
    assert "city desk" not in text
    assert SENTENCE.strip() in text


def test_a_note_after_an_articles_body_in_a_container_of_its_own_is_left_out() -> None:
    # the body's paragraphs in one container, a disclaimer beside it below (a health site's)
    note = (
        '<div class="note"><p>This content is provided as a service of the city. It does not replace '
        "the advice of your own accountant, and the city does not endorse any product named here.</p></div>"
    )
    body = f'<article><h1>Parks budget approved</h1><div class="story">{PARAGRAPH * 4}</div>{note}</article>'
    text = extract_page(page(body, '<meta property="og:type" content="article">')).text
    assert "provided as a service" not in text
    assert SENTENCE.strip() in text


def story_deep_in_wrappers(after: str) -> str:
    """An article's body four wrappers down a page builder's layout, ``after`` beside the
    outermost wrapper below it."""
    story = f'<article><h1>Parks budget approved</h1><div class="story">{PARAGRAPH * 4}</div></article>'
    wrapped = f'<div class="a"><div class="b"><div class="c">{story}</div></div></div>'
    return page(
        f'<main><div class="site">{wrapped}{after}</div></main>',
        '<meta property="og:type" content="article">',
    )


def test_a_pitch_after_an_articles_body_several_wrappers_up_is_left_out() -> None:
    # a consultancy's blog: its services pitched under the post, outside the post's wrappers
    pitch = (
        '<div class="component"><h3>Stay ahead with Acme</h3><p>The Acme advisory practice spans '
        "sell-side, buy-side and due diligence work for companies of every size, in forty countries, and "
        "its bankers have advised on more mid-market deals than any other firm in the last ten years.</p>"
        "<p>Technology expertise for middle-market transactions, from the first meeting with a buyer to "
        "the day the deal closes and beyond.</p></div>"
    )
    text = extract_page(story_deep_in_wrappers(pitch)).text
    assert "advisory practice" not in text
    assert "Technology expertise" not in text
    assert SENTENCE.strip() in text


def test_a_pages_own_sections_after_its_intro_several_wrappers_up_stay() -> None:
    # a service page declared an article: its sections below the intro outweigh the intro
    step = "We map every source of data the client holds, raw or unstructured, and what it feeds. "
    steps = "".join(
        f'<div class="group"><h3>Step {i}: review the data</h3><p>{step * 2}</p></div>' for i in range(1, 7)
    )
    text = extract_page(story_deep_in_wrappers(steps)).text
    assert "Step 3: review the data" in text
    assert SENTENCE.strip() in text


def story_then_other_stories(head: str) -> str:
    """A news site's "Read this next" section under the story's wrappers: a labelled block of
    cards, each a linked headline, its date and a teaser, together longer than half the story."""
    teaser = (
        "Travellers flying through the region this winter will find new lounges and longer opening hours. "
    )
    cards = "".join(
        f'<div class="card"><h2><a href="/story-{i}">Airport {i} opens a new terminal</a></h2>'
        f"<span>Dec {i}, 2025</span><p>{teaser * 2}</p></div>"
        for i in range(1, 5)
    )
    body = (
        f'<div class="page"><div class="row"><div class="main"><article><h1>Parks budget approved</h1>'
        f'<div class="story">{PARAGRAPH * 4}</div></article></div></div>'
        f'<div class="news"><h3>Read this next</h3>{cards}</div></div>'
    )
    return page(body, head)


def test_a_section_of_other_stories_after_an_articles_body_is_left_out() -> None:
    text = extract_page(story_then_other_stories('<meta property="og:type" content="article">')).text
    assert "new terminal" not in text
    assert "new lounges" not in text
    assert SENTENCE.strip() in text


def test_a_section_of_other_stories_after_a_story_that_does_not_declare_itself_an_article_is_left_out() -> (
    None
):
    text = extract_page(story_then_other_stories("")).text
    assert "new terminal" not in text
    assert "new lounges" not in text
    assert SENTENCE.strip() in text


def test_a_section_of_other_stories_after_a_blog_post_read_as_a_manual_is_left_out() -> None:
    # a blog post with code whose <main> holds the post's container and, after it, the site's
    # "More blogs" cards: each a linked headline, its teaser and its date
    code = "".join(f"<pre><code>SET work_mem = '{i}MB';</code></pre>" for i in (16, 32, 64))
    cards = "".join(
        f'<div class="card"><h3><a href="/blog/post-{i}">Postgres meetup number {i} recap</a></h3>'
        f"<p>{'Engineers from three teams met to compare notes on replication and backups. ' * 2}</p>"
        f"<span>March {i}, 2026</span></div>"
        for i in range(1, 4)
    )
    body = (
        f'<main><div class="post"><h1>Tuning work_mem</h1>{PARAGRAPH * 3}{code}{PARAGRAPH * 2}</div>'
        f'<div class="more"><h2>More blogs</h2>{cards}</div></main>'
    )
    read = extract_page(page(body, title="Tuning work_mem"))
    assert "manual" in read.fired
    assert "SET work_mem = '32MB';" in read.text and SENTENCE.strip() in read.text
    assert "meetup" not in read.text and "replication" not in read.text


SECTIONS = (
    ("money", "Where the money goes and who decided it"),
    ("parks", "Parks first: what the council chose to fund"),
    ("libraries", "Libraries next, with longer opening hours"),
    ("roads", "Roads last, and the repairs that must wait"),
)


def sectioned_article(contents: str) -> str:
    """An article of four sections, each under a heading with an id, ``contents`` above them."""
    sections = "".join(f'<h2 id="{key}">{heading}</h2>{PARAGRAPH}' for key, heading in SECTIONS)
    body = f"<article><h1>Parks budget approved</h1>{PARAGRAPH}{contents}{sections}</article>"
    return page(body, '<meta property="og:type" content="article">')


def test_an_articles_table_of_contents_goes_with_its_label() -> None:
    links = "".join(f'<li><a href="#{key}">{heading}</a></li>' for key, heading in SECTIONS)
    contents = f'<div class="callout"><h3><strong>In this story</strong></h3><ul>{links}</ul></div>'
    text = extract_page(sectioned_article(contents)).text
    assert "In this story" not in text
    assert text.count("Where the money goes") == 1
    assert "## Where the money goes and who decided it" in text  # the headings it linked to stay
    assert SENTENCE.strip() in text


def test_a_labelled_list_of_links_to_anchors_the_page_does_not_hold_stays() -> None:
    # not a table of contents: its fragments name nothing on the page (a script's tabs, say)
    links = "".join(f'<li><a href="#tab-{key}">{heading}</a></li>' for key, heading in SECTIONS)
    tabs = f'<div class="callout"><h3><strong>In this story</strong></h3><ul>{links}</ul></div>'
    assert "In this story" in extract_page(sectioned_article(tabs)).text


def test_a_manuals_see_also_links_stay() -> None:
    entry = '<p>See also: <a href="resolve.html"><code>netcfg.resolve()</code></a></p>'
    assert "See also: `netcfg.resolve()`" in extract_page(manual(entry)).text


def test_an_article_split_by_an_ad_row_is_read_whole() -> None:
    half = '<div class="grid"><div class="article-body">{}</div></div>'
    first = "".join(f"<p>First half, paragraph {i}. {SENTENCE}</p>" for i in range(4))
    second = "".join(f"<p>Second half, paragraph {i}. {SENTENCE}</p>" for i in range(4))
    ad = '<div class="ad-row"><span>Advertisement</span></div>'
    body = f"<article><h1>Parks budget approved</h1>{half.format(first)}{ad}{half.format(second)}</article>"
    text = extract_page(page(body, '<meta property="og:type" content="article">')).text
    assert "Second half, paragraph 3." in text
    assert text.index("First half, paragraph 3.") < text.index("Second half, paragraph 0.")


def test_teasers_of_related_posts_sharing_the_articles_container_class_are_not_joined_to_it() -> None:
    # each related post's card holds its teaser in a container of the article body's own class
    body = "".join(f"<p>Paragraph {i}. {SENTENCE}</p>" for i in range(5))
    teasers = [
        "With council budgets tightening, knowing which parks get money first matters more...",
        "What goes into deciding the cost of a new library branch? Here is how the city counts...",
        "Discover what residents said about the parks in this year's survey and what comes...",
    ]
    cards = "".join(
        f'<article class="card"><h3>Related post {i}</h3><div class="entry-content"><p>{teaser}</p></div></article>'
        for i, teaser in enumerate(teasers)
    )
    html = page(
        f'<div class="page"><article class="post"><h1>Parks budget approved</h1>'
        f'<div class="entry-content">{body}</div></article><div class="related">{cards}</div></div>',
        '<meta property="og:type" content="article">',
    )
    text = extract_page(html).text
    assert "Paragraph 4." in text
    assert "knowing which parks get money first" not in text


def _tool_section(number: int, name: str) -> str:
    items = "".join(
        f"<li><strong>Step {number}.{i}:</strong> {name} closes part {i} of the month.</li>" for i in range(3)
    )
    return (
        f"<h2>{number}. {name}</h2><p>{name} is tool number {number}. {SENTENCE}</p>"
        f'<p><strong>Features:</strong></p><ul role="list">{items}</ul><p>{name}, in short. {SENTENCE}</p>'
    )


def test_an_articles_headings_and_lists_between_its_paragraphs_are_kept() -> None:
    # the article's container has no name trafilatura knows, so its fast reading recovered the
    # paragraphs one by one and dropped every heading and list between them
    tools = "".join(
        _tool_section(number, name) for number, name in enumerate(["Ledgerly", "Booksy", "Countwise"], 1)
    )
    body = f'<section class="global-section"><div class="wrapper"><div class="rich-body">{PARAGRAPH}{tools}</div></div></section>'
    text = extract_page(page(body, '<meta property="og:type" content="article">')).text
    assert "## 2. Booksy" in text
    assert "- Step 2.1: Booksy closes part 1 of the month." in text
    assert (
        text.index("Ledgerly, in short.")
        < text.index("## 2. Booksy")
        < text.index("Booksy is tool number 2.")
    )


def test_an_article_in_two_blocks_keeps_the_headings_and_lists_of_both() -> None:
    # the same article written in two blocks with an offer between them: read again from one
    # block, the reading lost the other block's paragraphs and was not kept, and every heading
    # and list went
    first = "".join(
        _tool_section(number, name) for number, name in enumerate(["Ledgerly", "Booksy", "Countwise"], 1)
    )
    second = "".join(_tool_section(number, name) for number, name in enumerate(["Tallyho", "Sumwise"], 4))
    offer = '<div class="offer"><a href="/signup">Try it free for 14 days</a></div>'
    body = (
        '<section class="global-section"><div class="wrapper">'
        f'<div class="rich-body">{PARAGRAPH}{first}</div>{offer}<div class="rich-body">{second}</div>'
        "</div></section>"
    )
    text = extract_page(page(body, '<meta property="og:type" content="article">')).text
    for heading in ("## 2. Booksy", "## 5. Sumwise"):
        assert heading in text
    for step in (
        "- Step 1.0: Ledgerly closes part 0 of the month.",
        "- Step 4.2: Tallyho closes part 2 of the month.",
    ):
        assert step in text
    assert text.index("Countwise, in short.") < text.index("## 4. Tallyho") < text.index("Sumwise, in short.")


def conference_guide(between: str = "", sections_tag: str = '<div class="sections">') -> str:
    """The text of a guide in three blocks, a heading, paragraphs and a list each (``between``
    after each block, NAME in it the block's conference), after a box that trafilatura takes for the page's content (its title and
    a byline): too short, so its fast reading recovers the page's paragraphs one by one."""
    sections = "".join(
        '<div class="block"><div class="center"><div class="markdownable">'
        f"<h2>{n}. {name} Conference</h2><p>{name} opens the year in {city} with talks on every stage. {SENTENCE}</p>"
        f"<ul><li>Keynotes at {name} each morning</li><li>Workshops in the halls after lunch</li></ul>"
        f"<p>Tickets for {name} go on sale in the autumn and sell out within a month. {SENTENCE}</p>"
        f"</div></div></div>{between.replace('NAME', name)}"
        for n, (name, city) in enumerate([("Orbit", "Lisbon"), ("Vector", "Denver"), ("Lumen", "Oslo")], 1)
    )
    body = (
        '<main><div id="content"><h1>The best tech conferences of the year</h1>'
        f"<p>By the events desk, December 2025</p></div>{sections_tag}{sections}</div></main>"
    )
    title = "The best tech conferences of the year"
    return extract_page(page(body, '<meta property="og:type" content="article">', title=title)).text


def test_headings_and_lists_between_paragraphs_read_one_by_one_are_put_back() -> None:
    # the reading holds the title of the box it took first, so .interleaved passes over it, and
    # reading again from one block would lose the other blocks' paragraphs
    text = conference_guide()
    assert "## 2. Vector Conference" in text
    assert "- Workshops in the halls after lunch" in text
    assert (
        text.index("Tickets for Orbit")
        < text.index("## 2. Vector Conference")
        < text.index("Vector opens the year")
        < text.index("- Keynotes at Vector each morning")
        < text.index("Tickets for Vector")
    )


def test_a_list_between_two_paragraphs_the_page_says_twice_is_put_back_once() -> None:
    # a page that writes its text once per screen size: the reading holds the two paragraphs
    # once, and the list between them comes back once, not once per copy
    first = "Orbit opens the year in Lisbon with talks on every stage and a fair in the hall."
    second = "Tickets for Orbit go on sale in the autumn and sell out within a month or so."
    copy = f"<div><p>{first}</p><ul><li>Keynotes at Orbit each morning</li></ul><p>{second}</p></div>"
    root = lxml.html.document_fromstring(f"<html><body>{copy}{copy}</body></html>")
    reading = etree.Element("body")
    for text in (first, second):
        etree.SubElement(reading, "p").text = text
    assert restore_between(root, reading) == 1
    assert [child.tag for child in reading] == ["p", "list", "p"]
    assert reading[1][0].text == "Keynotes at Orbit each morning"


def test_headings_in_a_hidden_block_whose_paragraphs_were_read_are_put_back() -> None:
    # a streamed page's text waits in a <div hidden> that trafilatura reads: its headings are
    # as shown as its paragraphs
    text = conference_guide(sections_tag='<div class="sections" hidden>')
    assert "Tickets for Orbit" in text
    assert (
        text.index("Tickets for Orbit") < text.index("## 2. Vector Conference") < text.index("Vector opens")
    )


def test_a_menu_of_single_words_between_paragraphs_read_one_by_one_stays_out() -> None:
    text = conference_guide('<div class="block"><ul><li>Share</li><li>Save</li><li>Print</li></ul></div>')
    assert "## 2. Vector Conference" in text
    assert "Share" not in text


def test_a_heading_beside_a_switch_between_paragraphs_read_one_by_one_stays_out() -> None:
    # a consent window's purpose, its label and its switch, inside the page's text
    switch = (
        '<div class="block"><div class="purpose"><h4>Targeting cookies of NAME partners</h4>'
        '<input type="checkbox" name="targeting"><label>Switch</label></div></div>'
    )
    text = conference_guide(switch)
    assert "## 2. Vector Conference" in text
    assert "Targeting cookies" not in text


def test_a_gallery_between_paragraphs_read_one_by_one_stays_out() -> None:
    # a slideshow's figures in a list: their captions show one at a time, beside the text
    gallery = (
        '<div class="block"><ul class="gallery"><li><figure><img src="/NAME.jpg" alt="">'
        "<figcaption>The main hall of NAME on its opening morning, seen from the balcony</figcaption>"
        "</figure></li></ul></div>"
    )
    text = conference_guide(gallery)
    assert "## 2. Vector Conference" in text
    assert "seen from the balcony" not in text


OFFERS = [
    ("Pest control specials", "Save $50 on pest control!", "Save $50 on your first visit with a code."),
    ("Wildlife offers", "Save $100 on wildlife control.", "Keep rodents and wildlife out with our work."),
    ("Combine and save", "Protection plans for the home.", "Combine services in one plan to save more."),
]


def offers_page(box_class: str) -> str:
    """The text of a service's page of offers: a section for each, its heading over a box
    (``box_class``) of a smaller heading, a paragraph and a button, then a section of prose."""
    sections = "".join(
        f'<section class="rich-text"><div class="wrapper"><h2>{heading}</h2><hr>'
        f'<div class="{box_class}"><div class="content"><h3>{title}</h3><p>{offer}</p>'
        '<a class="button" href="/start">Get started</a></div></div></div></section>'
        for heading, title, offer in OFFERS
    )
    prose = "".join(
        f"<p>{sentence}</p>"
        for sentence in (
            "With us you get proven pest control backed by decades of experience and great savings.",
            "Our technicians inspect the whole home first, then treat the places pests come in.",
            "Every plan comes with free visits between treatments if pests return, at no extra cost.",
            "Whether you look for a promo code or a coupon, these offers help you save on each visit.",
        )
    )
    body = (
        f"<main><h1>Discounts, coupons and promo codes</h1>{sections}"
        f'<section class="rich-text"><div class="wrapper"><h2>Pest control deals you can trust</h2>{prose}'
        "</div></section></main>"
    )
    return extract_page(page(body, title="Discounts, coupons and promo codes")).text


def test_the_boxes_under_a_service_pages_kept_section_headings_are_put_back() -> None:
    # trafilatura drops each offer's box for its class ("banner") and keeps the headings above
    text = offers_page("cta-banner")
    assert (
        text.index("## Pest control specials")
        < text.index("### Save $50 on pest control!")
        < text.index("Save $50 on your first visit")
        < text.index("## Wildlife offers")
        < text.index("Keep rodents and wildlife out")
        < text.index("## Combine and save")
        < text.index("Combine services in one plan")
        < text.index("## Pest control deals")
    )


@pytest.mark.parametrize(("box_class", "put_back"), [("cta-banner", 2), ("offer-card", 0)])
def test_only_a_section_body_named_furniture_is_put_back(box_class: str, put_back: int) -> None:
    # dropped for another reason (a grid's card of a link to another page, a section's intro
    # beside a carousel scripts fill), it is not the text's
    heading, title, offer = OFFERS[0]
    root = lxml.html.document_fromstring(
        f'<html><body><main><h2>{heading}</h2><div class="{box_class}"><h3>{title}</h3><p>{offer}</p></div>'
        "<h2>Pest control deals you can trust</h2></main></body></html>"
    )
    reading = etree.Element("body")
    for text in (heading, "Pest control deals you can trust"):
        etree.SubElement(reading, "head", rend="h2").text = text
    assert restore_section_bodies(root, reading) == put_back
    if put_back:
        assert [child.tag for child in reading] == ["head", "head", "p", "head"]
        assert reading[2].text == offer


CODELABS = [
    (
        "Hello, world!",
        "Follow this introductory codelab to create your first app, step by step, on your own machine.",
    ),
    (
        "Build for every screen",
        "Build an app that works on phones, tablets and foldables, and learn how layouts adapt.",
    ),
    (
        "Test your app",
        "Write the unit and interface tests that keep an app working as it grows, one screen at a time.",
    ),
]


def test_the_text_divs_under_a_landing_pages_kept_card_headings_are_put_back() -> None:
    # each card: a heading over a <div> of text, no <p>; trafilatura reads a <div>'s text only on
    # a page with little <p> text, and this page's intro and closing are paragraphs
    cards = "".join(
        f'<div class="item"><div class="body"><h3>{title}</h3><div class="description">{blurb}</div>'
        '<div class="actions"><a class="button" href="/codelab">Start codelab</a></div></div></div>'
        for title, blurb in CODELABS
    )
    prose = (
        "<p>Complete a codelab or dive deep into a training course for an overview of the key topics of "
        "app development, from the first screen to the store, on every kind of device there is.</p>"
        "<p>Each codelab takes under an hour and ends with an app you can run, change and keep building on "
        "with the next one, and the course puts them in the order most people find easiest.</p>"
        "<p>When you are done, the guides go deeper into each part of an app: its architecture, its data "
        "and its interface, with samples you can open, read and run for every one of them.</p>"
    )
    body = (
        f'<main><h1>Get started</h1>{prose}<section class="row">{cards}</section>'
        f"<h2>Assemble your toolkit</h2>{prose.replace('codelab', 'tool')}</main>"
    )
    text = extract_page(page(body, title="Get started")).text
    assert (
        text.index("### Hello, world!")
        < text.index(CODELABS[0][1])
        < text.index("### Build for every screen")
        < text.index(CODELABS[1][1])
        < text.index("### Test your app")
        < text.index(CODELABS[2][1])
        < text.index("## Assemble your toolkit")
    )


@pytest.mark.parametrize(("card", "put_back"), [("sibling", 1), ("cousin", 0)])
def test_only_a_text_div_beside_its_heading_is_put_back(card: str, put_back: int) -> None:
    # a <div> of text under a heading's wrapper is another block's (a related story's blurb in
    # its card, a review in a popover under its title), not the section's body
    title, blurb = CODELABS[0]
    heading = f"<h3>{title}</h3>" if card == "sibling" else f'<div class="heading"><h3>{title}</h3></div>'
    root = lxml.html.document_fromstring(
        f'<html><body><main><div class="card">{heading}<div class="description">{blurb}</div></div>'
        "<h3>Build for every screen</h3></main></body></html>"
    )
    reading = etree.Element("body")
    for text in (title, "Build for every screen"):
        etree.SubElement(reading, "head", rend="h3").text = text
    assert restore_section_bodies(root, reading) == put_back
    if put_back:
        assert [child.tag for child in reading] == ["head", "p", "head"]
        assert reading[1].text == blurb


@pytest.mark.parametrize(("wrapper", "put_back"), [("span", 1), ("a", 0)])
def test_a_text_div_whose_text_a_span_wraps_is_put_back_and_a_link_is_not(
    wrapper: str, put_back: int
) -> None:
    # a recipe roundup's card: its summary's text in a <span> inside the <div>; a card's
    # "Get the recipe" link as long is a call to go elsewhere, not the section's body
    title, blurb = CODELABS[0]
    opening = '<a href="/recipe">' if wrapper == "a" else "<span>"
    root = lxml.html.document_fromstring(
        f'<html><body><main><div class="card"><h3>{title}</h3><div class="summary">{opening}'
        f"{blurb}</{wrapper}></div></div><h3>Build for every screen</h3></main></body></html>"
    )
    reading = etree.Element("body")
    for text in (title, "Build for every screen"):
        etree.SubElement(reading, "head", rend="h3").text = text
    assert restore_section_bodies(root, reading) == put_back
    if put_back:
        assert reading[1].text == blurb


def between_paragraphs(box: str, lead: str, words: str, holder: str) -> str:
    """The text of an article whose ``holder`` div holds four paragraphs ("``lead`` n: ``words``
    …") and ``box`` after the second."""
    paragraphs = [f"<p>{lead} {n}: {words} {SENTENCE}</p>" for n in range(4)]
    body = f'<div class="{holder}">{"".join(paragraphs[:2])}{box}{"".join(paragraphs[2:])}</div>'
    return extract_page(page(body, '<meta property="og:type" content="article">')).text


def test_a_box_of_prose_between_an_articles_paragraphs_is_kept() -> None:
    # a quote card inside the story: its class names an embed, which trafilatura drops as furniture
    card = (
        '<div class="c-quote-embed-card"><p class="c-quote-embed-card__text">The parks department '
        "will publish every grant it makes this year, with the amount and the park it went to. "
        "Residents can comment on each grant for thirty days before the money is paid out, and "
        "the department answers every comment in writing.</p></div>"
    )
    words = "the budget vote went late into the night, as members argued."
    text = between_paragraphs(card, "Council paragraph", words, "story-text")
    assert "Residents can comment on each grant for thirty days" in text
    assert (
        text.index("Council paragraph 1:")
        < text.index("The parks department will")
        < text.index("Council paragraph 2:")
    )


def test_a_table_in_a_box_for_custom_html_between_an_articles_paragraphs_is_kept() -> None:
    # a page builder's block for custom HTML ("w-embed"): its class names an embed, which
    # trafilatura drops as furniture, and its table of cells is no prose
    rows = "".join(
        f"<tr><td>{park}</td><td>${grant},000</td><td>{use}</td></tr>"
        for park, grant, use in (
            ("Riverside Park", 120, "New playground and benches"),
            ("Hillcrest Gardens", 85, "Irrigation for the rose beds"),
            ("Old Mill Green", 60, "Repairs to the footbridge"),
            ("Lakeview Commons", 140, "Lighting along the lake path"),
        )
    )
    table = (
        f'<div class="w-embed"><table><tr><th>Park</th><th>Grant</th><th>Use</th></tr>{rows}</table></div>'
    )
    words = "the budget vote went late into the night, as members argued."
    text = between_paragraphs(table, "Council paragraph", words, "story-text")
    assert "Irrigation for the rose beds" in text
    assert (
        text.index("Council paragraph 1:")
        < text.index("Hillcrest Gardens")
        < text.index("Council paragraph 2:")
    )


@pytest.mark.parametrize("place", ["between", "sidebar"])
def test_an_aside_between_an_articles_paragraphs_is_read_and_a_sidebar_is_not(place: str) -> None:
    tip = (
        '<aside class="tip"><h3>Visit early</h3><p>The gardens open at seven, and the rose beds are '
        "quietest before the school groups arrive at ten.</p></aside>"
    )
    paragraphs = [f"<p>Council paragraph {n}: {SENTENCE * 2}</p>" for n in range(6)]
    story = "".join(paragraphs[:3]) + (tip if place == "between" else "") + "".join(paragraphs[3:])
    body = f"<main><article><h1>Parks budget approved</h1>{story}</article>{tip if place == 'sidebar' else ''}</main>"
    text = extract_page(page(body, '<meta property="og:type" content="article">')).text
    assert ("The gardens open at seven" in text) == (place == "between")
    if place == "between":
        assert (
            text.index("Council paragraph 2:")
            < text.index("The gardens open")
            < text.index("Council paragraph 3:")
        )


def guide_with_cards_after(cards: int, paragraphs: int) -> str:
    """The text of an article whose ``paragraphs`` paragraphs stand above a box its class names
    a footer, holding ``cards`` restaurant cards of prose."""
    intro = "".join(
        f"<p>Guide paragraph {n}: the inspectors visited the city this autumn, and these are the "
        f"places they named. {SENTENCE}</p>"
        for n in range(paragraphs)
    )
    venues = "".join(
        f'<div class="venue"><h3>Restaurant {n}</h3><div class="venue-excerpt"><p>Card {n}: the chef '
        "cooks a tasting menu of twelve courses from the market, served at a counter of ten seats. "
        "Book a month ahead for a table on a weekend, when the wait is longest.</p></div></div>"
        for n in range(cards)
    )
    body = (
        f'<div class="page"><div class="page-body">{intro}</div>'
        f'<div class="page-footer"><div class="venues">{venues}</div></div></div>'
    )
    return extract_page(page(body, '<meta property="og:type" content="article">')).text


def test_a_box_of_prose_after_a_short_lead_in_longer_than_it_is_kept() -> None:
    # a restaurant guide's cards, in a box its class names a footer, which trafilatura drops as
    # furniture: the two paragraphs it kept were the guide's lead-in to them
    text = guide_with_cards_after(cards=6, paragraphs=2)
    assert all(f"Card {n}: the chef cooks" in text for n in range(6))
    assert text.index("Guide paragraph 1:") < text.index("Card 0:")


def test_a_slider_of_prose_after_a_named_heading_between_paragraphs_is_kept() -> None:
    # a page builder's column beside the kept paragraphs: its heading's widget is named
    # furniture first, and the slider of testimonials after it, which trafilatura drops for
    # its "slide", was never looked at
    column = (
        '<div class="column"><div class="c-widget-heading"><h3>What our clients say</h3></div>'
        '<div class="testimonial-slide"><p class="quote">The team rebuilt our bookkeeping in a '
        "month and answered every question we had within the day. Our year-end close took two "
        "days instead of two weeks, and our auditor noticed the difference. We have since moved "
        "our payroll to them as well.</p>"
        '<span class="name">Dana Whitfield, owner of a bakery</span></div></div>'
    )
    words = "we keep the books of small firms, from payroll to tax."
    text = between_paragraphs(column, "Service paragraph", words, "page-text")
    assert "Our year-end close took two days instead of two weeks" in text
    assert (
        text.index("Service paragraph 1:")
        < text.index("The team rebuilt our bookkeeping")
        < text.index("Service paragraph 2:")
    )


def _service_section(topic: str, items: list[str]) -> str:
    listed = "".join(f"<li>{item}</li>" for item in items)
    return (
        f'<section class="subject"><div class="subject-content"><h2>{topic}</h2>'
        f"<p>Our tutors cover {topic.lower()} from the first lesson to the final exam, one student "
        f"at a time, with a plan written for each of them. {SENTENCE}</p>"
        f'<ul class="subject-list">{listed}</ul></div></section>'
    )


def test_a_landing_pages_headings_and_lists_between_its_paragraphs_in_its_main_are_kept() -> None:
    # a service page of sections, each a heading, a paragraph and a list, whose paragraphs have
    # no parent in common below its <main>: trafilatura read a small box above it and recovered
    # the paragraphs one by one, dropping every heading and list between them
    hero = (
        '<div class="text"><strong>Elementary and middle school students</strong>'
        "<p>Build strong foundations and confidence early on.</p></div>"
    )
    sections = "".join(
        _service_section(topic, [f"{topic} level {n}" for n in range(1, 6)])
        for topic in ("Algebra", "Geometry", "Statistics", "Calculus")
    )
    body = f'{hero}<main class="container" role="main">{sections}</main>'
    text = extract_page(page(body, title="Math tutoring online")).text
    assert "## Geometry" in text
    assert "- Statistics level 3" in text
    assert (
        text.index("Our tutors cover algebra")
        < text.index("## Geometry")
        < text.index("Our tutors cover geometry")
    )


CLOUDFLARE = """<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="390"></head><body><div class="main-wrapper" role="main">
<h1 class="zone-name-title h1">example.com</h1>
<h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2>
<noscript><div id="challenge-error-title">Enable JavaScript and cookies to continue</div></noscript>
</div><script>(function(){window._cf_chl_opt={cvId: '2', cZone: 'example.com', cType: 'managed'};}());</script>
</body></html>"""

CHALLENGES = {
    "cloudflare": CLOUDFLARE,
    "attention-required": page(
        "<h1>Sorry, you have been blocked</h1><p>You are unable to access example.com</p>",
        title="Attention Required! | Cloudflare",
    ),
    "ddos-guard": page("<p>Checking your browser before accessing example.com.</p>", title="DDoS-Guard"),
    "recaptcha": page(
        '<form><p>Please confirm you are not a robot.</p><div class="g-recaptcha" data-sitekey="k"></div></form>'
        '<script src="https://www.google.com/recaptcha/api.js"></script>',
        title="Example Shop",
    ),
    "hcaptcha": page(
        '<form><div class="h-captcha" data-sitekey="k"></div></form><script src="https://hcaptcha.com/1/api.js"></script>',
        title="Example Forum",
    ),
}


@pytest.mark.parametrize("name", CHALLENGES)
def test_bot_challenges_are_recognised(name: str) -> None:
    assert find_bot_challenge(CHALLENGES[name]) is not None


def test_a_cloudflare_challenge_is_named_as_such() -> None:
    assert "Cloudflare" in (find_bot_challenge(CLOUDFLARE) or "")


def test_a_challenge_is_raised_instead_of_returned_as_text() -> None:
    with pytest.raises(ChallengePage) as caught:
        read_html_page(CLOUDFLARE, "https://example.com/article")
    assert "https://web.archive.org/web/https://example.com/article" in str(caught.value)


ARTICLE_ABOUT_CAPTCHAS = page(
    "<article><h1>How CAPTCHA tests work</h1>"
    + "<p>A CAPTCHA asks a visitor to prove they are human, for example by picking images. " * 25
    + '</p></article><form class="comments"><div class="g-recaptcha" data-sitekey="k"></div></form>'
    '<script src="https://www.google.com/recaptcha/api.js"></script>',
    title="How CAPTCHA tests work",
)


def test_an_article_that_mentions_captchas_is_not_a_challenge() -> None:
    assert find_bot_challenge(ARTICLE_ABOUT_CAPTCHAS) is None


def test_an_article_that_mentions_captchas_is_returned() -> None:
    assert (
        "prove they are human"
        in read_html_page(ARTICLE_ABOUT_CAPTCHAS, "https://blog.example.com/captcha").text
    )


SHELL_HEAD = '<script src="/static/js/main.3f2a.js"></script>'
SHELL_BODY = '<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>'


def test_a_javascript_shell_raises_needs_javascript_with_a_next_step() -> None:
    with pytest.raises(NeedsJavaScript) as caught:
        read_html_page(page(SHELL_BODY, SHELL_HEAD, title="App"), "https://app.example.com/")
    assert "https://web.archive.org/web/https://app.example.com/" in str(caught.value)
    assert "API" in str(caught.value)


def test_a_javascript_shell_does_not_quote_its_meta_description() -> None:
    # an error message is read as llmweb's own words, so nothing the page wrote may appear in it
    head = SHELL_HEAD + '<meta name="description" content="Weekly parks schedule for the city.">'
    with pytest.raises(NeedsJavaScript) as caught:
        read_html_page(page(SHELL_BODY, head, title="App"), "https://app.example.com/")
    assert "Weekly parks" not in str(caught.value)


def test_a_github_page_that_needs_javascript_points_to_the_gh_tool() -> None:
    with pytest.raises(NeedsJavaScript) as caught:
        read_html_page(page(SHELL_BODY, SHELL_HEAD, title="Issue"), "https://github.com/o/r/issues/5")
    assert "gh issue view 5 --repo o/r" in str(caught.value)


PARAGRAPHS = [
    "The new library opens on Monday with a reading room, a maker space and study rooms for students.",
    "Opening hours are nine to eight on weekdays, and the café on the ground floor serves lunch until two.",
    "Members can borrow up to twenty books at a time and renew them online for another three weeks.",
]


def test_a_next_js_shell_returns_the_prose_of_its_embedded_data() -> None:
    data = {
        "props": {
            "pageProps": {
                "post": {
                    "slug": "new-library-opens-monday",
                    "className": "flex items-center justify-between px-4 py-2 text-sm md:text-base lg:px-8",
                    "body": "".join(f"<p>{p}</p>" for p in PARAGRAPHS),
                }
            }
        },
        "buildId": "Xk2_3fPq",
    }
    script = f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(data)}</script>'
    result = read_html_page(
        page('<div id="__next"></div>' + script, SHELL_HEAD), "https://news.example.com/lib"
    )
    assert result.text == "\n\n".join(PARAGRAPHS)
    assert any("embedded" in note for note in result.notes)


def test_a_shell_with_a_json_ld_article_body_returns_it() -> None:
    data = {"@context": "https://schema.org", "@type": "NewsArticle", "articleBody": " ".join(PARAGRAPHS)}
    script = f'<script type="application/ld+json">{json.dumps(data)}</script>'
    result = read_html_page(
        page('<div id="root"></div>', SHELL_HEAD + script), "https://news.example.com/lib"
    )
    assert result.text == " ".join(PARAGRAPHS)


def test_a_short_page_without_scripts_is_returned_as_it_is() -> None:
    status = page("<p>Service status: all systems operational.</p>")
    assert (
        read_html_page(status, "https://status.example.com/").text
        == "Service status: all systems operational."
    )


def test_a_page_without_text_or_scripts_has_no_readable_text() -> None:
    with pytest.raises(NoReadableText):
        read_html_page(page("<div></div>"), "https://example.com/")


TAG_SOUP = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "<div>", "</div>", "<pre>", "</pre>", "<p>", "<table>", "<tr>", "<td>", "<li>", "<ul>", "<h1>",
                "</h1>", "<script>", "</script>", '<script id="__NEXT_DATA__">', '<script type="application/ld+json">',
                "<title>", "</title>", "<!--", "-->", "&amp;", "&#0;", "<", ">", "\x00", "\n", "    ", "<br>",
                '<meta charset="x">', '<code class="language-py">', "{", "}", '"articleBody":', "<?xml ?>", "¶",
            ]
        ),
        st.text(max_size=20),
    ),
    max_size=60,
).map("".join)  # fmt: skip


@given(st.text())
def test_extraction_never_raises_on_any_text(text: str) -> None:
    assert isinstance(extract_page(text, "https://example.com/").text, str)


@settings(max_examples=200)
@given(TAG_SOUP)
def test_extraction_never_raises_on_malformed_markup(markup: str) -> None:
    result = extract_page(markup, "https://example.com/")
    assert isinstance(result.text, str)


@given(TAG_SOUP)
def test_reading_malformed_markup_raises_only_llmweb_errors(markup: str) -> None:
    with contextlib.suppress(LlmwebError):
        assert isinstance(read_html_page(markup, "https://example.com/").text, str)


def test_a_menu_button_left_open_does_not_take_the_article_with_it() -> None:
    # A header's <button> whose inner <div> is left open: the parser skips the button's end
    # tag and reads the rest of the page, the article with it, as the button's content.
    story = "".join(
        f"<p>Paragraph {n}: the committee met on Tuesday to weigh the annual budget of the city's "
        f"parks, and the {n}th speaker asked for longer library hours on Sundays.</p>"
        for n in range(12)
    )
    body = (
        "<header><button class='menu-toggle' aria-label='Menu'><div class='icon'><div></button></div>"
        "<ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li></ul></header>"
        "<div class='story'><h1>Parks budget approved</h1>"
        f"{story}</div>"
    )
    text = extract_page(page(body), "https://news.example.com/parks").text
    assert "the 11th speaker asked for longer library hours" in text


# a product's description, the page's text beside its closed dialogs
LANTERN = (
    "<p>The Trail Lantern throws 400 lumens of warm light for up to 40 hours on one charge, "
    "and its silicone shell survives drops onto rock. A magnetic base and a folding hook let "
    "it hang from a tent's ceiling or cling to a car's door.</p>"
)


def test_a_pages_dialogs_are_left_out() -> None:
    # a shop's cart and account windows, closed in the HTML until a script opens them
    body = (
        f"<main><h1>Trail Lantern</h1><p>$49.00</p>{LANTERN * 2}</main>"
        '<div class="modal" role="dialog"><h2>Your cart</h2>'
        "<p>Are you sure you want to remove the following product from your shopping cart today?</p></div>"
        '<div aria-modal="true"><h2>Create your account</h2>'
        "<p>Enter your email address and we will send you a six-digit code to verify your new account.</p></div>"
    )
    text = read_html_page(page(body, title="Trail Lantern"), "https://shop.example/lantern").text
    assert "400 lumens" in text
    assert "shopping cart" not in text
    assert "six-digit code" not in text


def test_a_dialog_is_left_out_however_its_attribute_name_is_spelled() -> None:
    # HTML's attribute names are case-blind and the parser folds them: a template's
    # Aria-modal="true" marks a modal as aria-modal does (the raw page was once searched for a
    # few spellings of it before the tree, and this one was missed)
    body = (
        f"<main><h1>Trail Lantern</h1><p>$49.00</p>{LANTERN * 2}</main>"
        '<div Aria-modal="true"><h2>Create your account</h2>'
        "<p>Enter your email address and we will send you a six-digit code to verify your new account.</p></div>"
    )
    text = read_html_page(page(body, title="Trail Lantern"), "https://shop.example/lantern").text
    assert "400 lumens" in text
    assert "six-digit code" not in text


def test_a_hidden_dialog_holding_a_copy_of_the_article_to_republish_is_left_out() -> None:
    # the article's "republish this story" window: the terms and the story again, hidden until
    # opened; it holds more than half the page's text, as a page drawn inside a modal does
    story = "".join(f"<p>Paragraph {i}. {SENTENCE * 2}</p>" for i in range(4))
    window = (
        '<div role="dialog" style="display:none"><h2>Republish this story</h2>'
        f"<p>We ask that you credit the Courier and link back to the article when you republish it.</p>{story}</div>"
    )
    body = f"<article><h1>Parks budget approved</h1>{story}{window}</article>"
    text = read_html_page(page(body), "https://news.example/parks").text
    assert SENTENCE.strip() in text
    assert "credit the Courier" not in text


# a buying guide's body, between the site's small print
GUIDE = (
    "<p>We slept on eleven sleeping pads over three autumn trips in the Sierra, measuring how warm "
    "each kept us on frozen ground and how long it took to inflate at the trailhead.</p>"
    "<p>The Ridge Air was the warmest pad we tested, and at 14 ounces it is light enough for a "
    "long through-hike; its valve lets air out in seconds when the morning comes.</p>"
)


def test_the_small_print_a_pages_class_names_is_left_out() -> None:
    # an affiliate disclosure above the guide and a copyright and transcript note under it, each
    # a sentence of prose that names the site, not the pads
    body = (
        "<article><h1>The best sleeping pads</h1>"
        '<div class="affiliate-disclaimer">We test every product we recommend and may earn a commission '
        "when you buy through the links on this page, at no extra cost to you.</div>"
        f"{GUIDE * 3}"
        '<p class="disclaimer">Copyright 2025 Trail Review. Transcripts may be revised to correct errors '
        "or match the audio, and the authoritative record of our programming is the audio.</p></article>"
    )
    html = page(body, title="The best sleeping pads")
    text = read_html_page(html, "https://trail.example/pads").text
    assert "Ridge Air was the warmest pad" in text
    assert "earn a commission" not in text
    assert "authoritative record" not in text
    # trafilatura alone keeps the note under the guide: it reads as prose inside the article
    kept = read_html_page(html, "https://trail.example/pads", layers=without("small_print")).text
    assert "authoritative record" in kept


def test_a_disclosure_widgets_panel_stays() -> None:
    # WAI-ARIA's disclosure pattern, as shop themes name it: a <details> whose panel is the
    # product's description, not small print
    shipping = (
        "<p>Orders placed before noon ship the same day from our warehouse in Denver, and every "
        "lantern comes with a two-year warranty that covers the battery and the shell.</p>"
    )
    body = (
        f"<main><h1>Trail Lantern</h1><p>$49.00</p>{shipping * 3}"
        '<details class="disclosure" open><summary class="disclosure__title">Description</summary>'
        f'<div class="disclosure__panel">{LANTERN}</div></details></main>'
    )
    text = read_html_page(page(body, title="Trail Lantern"), "https://shop.example/lantern").text
    assert "400 lumens" in text


def test_a_long_block_its_class_calls_a_disclaimer_stays() -> None:
    # a calculator's assumptions, a section of their own the reader reads, in a wrapper its site
    # named "disclosure": longer than a note about the site
    assumptions = (
        '<div class="section disclosure"><h2>How we calculate</h2>'
        + "".join(
            f"<p>Assumption {i}: the calculator projects your savings with a return of {i + 4} percent a "
            "year before fees, compounded monthly, and salary growth of three percent a year until you "
            "retire, with contributions made at the end of each month.</p>"
            for i in range(4)
        )
        + "</div>"
    )
    body = f"<article><h1>The best sleeping pads</h1>{GUIDE * 3}{assumptions}</article>"
    text = read_html_page(page(body, title="The best sleeping pads"), "https://trail.example/pads").text
    assert "compounded monthly" in text


def test_a_listings_card_says_each_of_its_texts_once() -> None:
    # a shop's card names its item in a label for screen readers and in its heading, and says
    # "Regular price" beside each price it shows
    roasts = (
        "Blueberry Coffee",
        "Espresso Roast",
        "Vanilla Coffee",
        "Medium Roast",
        "Dark Roast",
        "Light Roast",
    )
    cards = "".join(
        f'<div class="card"><a href="/products/{i}"><span class="visually-hidden">{name}</span></a>'
        f'<h3><a href="/products/{i}">{name}</a></h3><span>Regular price</span><span>$19.99</span>'
        "<span>Regular price</span><span>Sale price</span><span>$19.99</span></div>"
        for i, name in enumerate(roasts)
    )
    intro = (
        "<p>Our roasts are ground the morning they ship, in bags of twelve ounces that keep for a month.</p>"
    )
    body = f'<h1>Coffee</h1>{intro}<p>51 products</p><div class="grid">{cards}</div>'
    text = read_html_page(page(body, title="Coffee"), "https://shop.example/collections/coffee").text
    line = next(line for line in text.splitlines() if "Blueberry Coffee" in line)
    assert line.count("Blueberry Coffee") == 1
    assert line.count("Regular price") == 1


def test_a_listings_cards_leave_out_the_calls_to_action_each_repeats() -> None:
    # every card offers "Quick view", "Compare" and "Save for later" for its own item; the brand
    # every card links to, one address for all, is what the item is and stays
    chairs = ("Mesh Task Chair", "Ergonomic Stool", "Executive Armchair", "Drafting Chair", "Guest Chair")
    cards = "".join(
        f'<article class="product"><h3><a href="/chairs/{i}">{name}</a></h3>'
        '<p><a href="/brands/sitonit">SitOnIt</a></p><span>$403.00</span>'
        f'<a href="/chairs/{i}#quick">Quick view</a><button type="button">Compare</button>'
        '<label><input type="checkbox"> Save for later</label></article>'
        for i, name in enumerate(chairs)
    )
    intro = (
        "<p>Mesh backs breathe through a long day at the desk, and every chair here ships within a week.</p>"
    )
    body = f'<h1>Mesh chairs</h1>{intro}<div class="products">{cards}</div>'
    text = read_html_page(page(body, title="Mesh chairs"), "https://shop.example/seating/mesh").text
    line = next(line for line in text.splitlines() if "Drafting Chair" in line)
    assert "SitOnIt" in line
    assert "$403.00" in line
    assert "Quick view" not in text
    assert "Compare" not in text
    assert "Save for later" not in text


def test_a_listings_cards_leave_out_a_rating_widgets_stars_but_keep_their_counts() -> None:
    # every card of a book list holds a widget to rate the book, five links going nowhere
    # ("1 of 5 stars" ...) that its script handles; the count of ratings links to the book's
    # own reviews and stays
    books = ("The Hunger Games", "Pride and Prejudice", "Animal Farm", "The Book Thief", "Jane Eyre")
    stars = "".join(f'<a class="star" href="#">{n} of 5 stars</a>' for n in range(1, 6))
    cards = "".join(
        f'<tr><td>{i + 1}</td><td><a href="/book/{i}">{name}</a> by <a href="/author/{i}">Author {i}</a>'
        f'<span>4.3 avg rating</span><a href="/book/{i}#reviews">{1200 + i} ratings</a>'
        f'<div class="stars">{stars}</div></td></tr>'
        for i, name in enumerate(books)
    )
    intro = "<p>The best books ever, as voted on by the readers of this site over the last fifteen years.</p>"
    body = f"<h1>Best Books Ever</h1>{intro}<table><tbody>{cards}</tbody></table>"
    text = read_html_page(page(body, title="Best Books Ever"), "https://books.example/list/1").text
    line = next(line for line in text.splitlines() if "Animal Farm" in line)
    assert "1202 ratings" in line
    assert "of 5 stars" not in text


def test_a_listings_cards_leave_out_a_widget_each_repeats_but_keep_their_prices() -> None:
    # every card holds the same rating widget, its stars going nowhere and its words about
    # rating; the box holding each card's own price beside its "Add to cart" button stays
    books = ("The Hunger Games", "Pride and Prejudice", "Animal Farm", "The Book Thief", "Jane Eyre")
    stars = "".join(f'<a href="#">{n} of 5 stars</a>' for n in range(1, 6))
    widget = f"<div><div>Rate this book</div>{stars}<div>Clear rating</div></div>"
    cards = "".join(
        f'<tr><td>{i + 1}</td><td><a href="/book/{i}">{name}</a> by <a href="/author/{i}">Author {i}</a>'
        f'{widget}<div><span>${12 + i}.99</span><button type="button">Add to cart</button></div></td></tr>'
        for i, name in enumerate(books)
    )
    intro = "<p>The best books ever, as voted on by the readers of this site over the last fifteen years.</p>"
    body = f"<h1>Best Books Ever</h1>{intro}<table><tbody>{cards}</tbody></table>"
    text = read_html_page(page(body, title="Best Books Ever"), "https://books.example/list/1").text
    assert "$14.99" in text
    assert "Rate this book" not in text
    assert "Clear rating" not in text


def test_a_listings_cards_leave_out_what_they_say_to_screen_readers_beside_their_prices() -> None:
    # each card tells a screen reader "Regular Price:" before the price it shows; a sighted
    # reader sees the price alone
    shirts = ("Crest T-Shirt", "Arrival T-Shirt", "Power T-Shirt", "Legacy Tank", "Vital Seamless T-Shirt")
    cards = "".join(
        f'<article class="product-card"><a href="/products/{i}"><h4>{name}</h4></a><p>regular fit</p>'
        f'<span class="price"><span class="sr-only">Regular Price: </span>${22 + i}</span></article>'
        for i, name in enumerate(shirts)
    )
    intro = (
        "<p>Tops for lifting and running, cut to move with you and made to last through every session.</p>"
    )
    body = f'<h1>T-Shirts &amp; Tops</h1>{intro}<div class="grid">{cards}</div>'
    text = read_html_page(page(body, title="T-Shirts & Tops"), "https://shop.example/collections/tops").text
    line = next(line for line in text.splitlines() if "Power T-Shirt" in line)
    assert "$24" in line
    assert "Regular Price" not in text


def test_a_logos_name_written_for_screen_readers_alone_in_its_link_stays() -> None:
    # a wall of customers' logos: each link shows a drawing and names it to screen readers only,
    # as an image's alt text would; a label beside a price the page shows goes
    logos = "".join(
        f'<a href="https://{name.lower()}.example"><span class="sr-only">{name}</span>'
        '<svg viewBox="0 0 10 10"><path d="M0 0h10v10H0z"/></svg></a>'
        for name in ("Supabase", "Hercules", "Webhound")
    )
    price = '<p><span class="visually-hidden">Sale price</span> $19.99</p>'
    root = lxml.html.fromstring(f"<html><body><main><div>{logos}</div>{price}</main></body></html>")
    assert drop_screen_reader_text(root)
    text = " ".join(root.text_content().split())
    assert all(name in text for name in ("Supabase", "Hercules", "Webhound"))
    assert "Sale price" not in text
    assert "$19.99" in text


def test_words_for_screen_readers_in_a_menu_stay_and_a_block_of_them_goes() -> None:
    # the menu goes from every reading whole, its labels with it; a card's block of its product's
    # data written for screen readers only, several labels and nothing shown, is no name
    menu = '<nav><a href="/bags">Bags<span class="sr-only">Open submenu</span></a></nav>'
    data = (
        '<dl><dt class="sr-only">Product Name</dt><dd class="sr-only">Freeform Carry-On</dd>'
        '<dt class="sr-only">Product Details</dt><dd class="sr-only">Hard-sided, 22 inches</dd></dl>'
    )
    root = lxml.html.fromstring(
        f"<html><body>{menu}<main><div>{data}<a href='/p/1'>Freeform</a></div></main></body></html>"
    )
    assert drop_screen_reader_text(root)
    text = " ".join(root.text_content().split())
    assert "Open submenu" in text
    assert "Product Details" not in text
    assert "Freeform" in text


def test_a_listings_cards_leave_out_bare_counts_beside_their_stars_and_swatches() -> None:
    # a shop's card shows its rating's stars (drawings) with the count of reviews in brackets,
    # and "+3" beside its colour swatches: counts of nothing a reader of the text can see
    boots = ("Moab 3 Mid Hiking Boots", "Targhee IV Boots", "Ridge Flex Boots", "Crestone Boots", "Altus Mid")
    cards = "".join(
        f'<li class="tile"><a href="/product/{i}">{name}</a><span>${120 + i}.95</span>'
        f'<span class="stars"><svg viewBox="0 0 5 1"></svg></span><span>({40 + i})</span>'
        f"<span>+{i + 1}</span></li>"
        for i, name in enumerate(boots)
    )
    intro = (
        "<p>Boots for long days on rough trails, waterproof and broken in by the first mile of the walk.</p>"
    )
    body = f'<h1>Hiking boots</h1>{intro}<ul class="results">{cards}</ul>'
    text = read_html_page(page(body, title="Hiking boots"), "https://shop.example/c/hiking-boots").text
    line = next(line for line in text.splitlines() if "Ridge Flex Boots" in line)
    assert "$122.95" in line
    assert "(42)" not in line
    assert "+3" not in line


def test_a_listing_split_by_an_advertisement_reads_both_runs_of_cards_as_items() -> None:
    # a topic page's stories in two sections of the same cards, an advertisement between them
    def card(i: int, title: str) -> str:
        return (
            f'<article class="story"><h2><a href="/news/{i}">{title}</a></h2>'
            f'<p><a href="/authors/{i}">Reporter {i}</a></p>'
            "<p>What changed, who it is for and what it costs, in a few minutes of reading.</p></article>"
        )

    first = (
        "Apple updates the AirPods Pro firmware",
        "New Beats headphones leak ahead of launch",
        "How to pair headphones with a Mac",
        "Sony cuts the price of its flagship headphones",
        "The best headphones for travel this spring",
        "Noise cancelling compared across five models",
    )
    second = (
        "Bose recalls a batch of charging cases",
        "Studio monitors for the home office",
        "A review of open-back headphones",
        "Wireless earbuds for running tested",
    )
    intro = "<p>Every story we have written about headphones, newest first, from rumours to reviews.</p>"
    body = (
        f"<main><h1>Headphones</h1>{intro}<section>{''.join(card(i, t) for i, t in enumerate(first))}</section>"
        "<div class='ad'><a href='https://ads.example/1'>Advertisement</a></div>"
        f"<section>{''.join(card(10 + i, t) for i, t in enumerate(second))}</section></main>"
    )
    text = read_html_page(page(body, title="Headphones news"), "https://news.example/topic/headphones").text
    assert "- Apple updates the AirPods Pro firmware · Reporter 0" in text
    assert "- Studio monitors for the home office · Reporter 11" in text


def test_a_guide_whose_sections_the_fast_reading_missed_is_read_in_full() -> None:
    # the blog's content class holds only the introduction; the guide's steps follow in a plain
    # <div> of headings and unmarked text, beside a sidebar of long sentences
    advice = (
        "Most students see the essay as a means of getting into college, and little more than that.",
        "The reason writing it is so hard is that the student does not spend enough time picking the topic.",
        "Start a list of things about yourself and add to it every time something defines who you are.",
        "Ask your parents to add to the list, since they remember the stories you have long forgotten.",
        "A topic chosen in a few moments reads like one, and admissions readers notice that at once.",
        "The best essays come from students who spent as long brainstorming as they did writing drafts.",
    )
    steps = "".join(
        f"<h3>Step {i + 1}</h3><div>{line} It <strong>really</strong> matters. "
        f"{advice[(i + 1) % 6]} {advice[(i + 2) % 6]}</div>"
        for i, line in enumerate(advice * 2)
    )
    intro = (
        "<p>Picking the topic is the hardest part of the college essay, and the one most students rush through.</p>"
        "<p>This guide walks through the steps that help, one at a time, with what each of them asks of you and why.</p>"
        "<p>Each step takes a few days; start early in the summer before your senior year, not in the autumn.</p>"
    )
    sidebar = (
        '<div class="sidebar"><div>Our newsletter goes out every Sunday morning with the week\'s advice for '
        "students and parents who are planning their applications.</div><div>We have helped families with their "
        "college applications since the year two thousand, and our counsellors answer every letter we receive.</div></div>"
    )
    body = (
        f'<div class="page"><h1>How to pick a college essay topic</h1><div class="entry-content">{intro}</div>'
        f'<div class="guide">{steps}</div></div>{sidebar}'
    )
    text = read_html_page(
        page(body, title="How to pick a college essay topic"), "https://blog.example/essay"
    ).text
    assert "summer before your senior year" in text
    assert "### Step 12" in text
    assert "counsellors answer every letter" not in text


def test_a_shops_buying_guide_outside_its_main_region_stays_beside_its_product_list() -> None:
    # the products are cards in <main>; the shop's guide to choosing one is a block of its own
    # after it, which trafilatura left out once the cards were plain lines of a list
    grills = ("Kettle 47", "Kettle 57", "Kamado Classic", "Vertical Duo", "Table Grill", "Open Brazier")
    cards = "".join(
        f'<article class="product"><a href="/grills/{i}"><img src="/{i}.jpg" alt=""></a>'
        f'<h3><a href="/grills/{i}">Charcoal grill {name} in enamelled steel, size {i}</a></h3>'
        f'<p><a href="/brands/{i % 3}">Maker {i % 3}</a></p><span>{199 + 50 * i},00 €</span><span>In stock</span>'
        f'<a href="/grills/{i}#quick">Quick buy</a></article>'
        for i, name in enumerate(grills * 4)
    )
    guide = "".join(
        f"<h2>{heading}</h2><p>{text}</p>"
        for heading, text in (
            (
                "Why choose charcoal?",
                "Charcoal remains the first choice of most cooks for a simple reason: nothing matches the "
                "taste of wood embers. We pick the sturdiest models of each maker, in enamelled steel and "
                "stainless steel, so that the grill you buy outlasts many summers on the terrace.",
            ),
            (
                "Which size to pick?",
                "A grate of 57 cm feeds eight to twelve guests and leaves room to cook over direct and "
                "indirect heat at once. A grate of 47 cm suits four to six people or a small balcony, "
                "though it is harder to grow into slow cooking with it later on.",
            ),
            (
                "How much to spend?",
                "Prices run from fifty euros to several thousand. Every model here sears a steak well; a "
                "larger budget buys thicker steel, a lid that seals, vents that hold a low temperature "
                "for hours and a warranty that covers the bowl for a decade.",
            ),
            (
                "How to light it?",
                "A chimney starter lights the charcoal in fifteen minutes without fluid or smell. Pour the "
                "embers out once they are grey, close the lid and set the vents: the lower one feeds the "
                "fire, the upper one draws the smoke and holds the heat steady.",
            ),
            (
                "Kettle or open grill?",
                "A kettle with a lid turns the grill into an outdoor oven: roasts stay moist and you control "
                "the cooking at last. An open grill suits quick grilling and tight budgets; without a lid it "
                "limits what you can cook, but it sears sausages and steaks from the first sunny day.",
            ),
            (
                "Which brands do we carry?",
                "Two makers lead the market for kettles, and a French workshop builds the best vertical grills "
                "with a double cooking zone. Newer makers produce in their own factories abroad, at prices "
                "that suit a first grill without giving up a solid bowl and a good grate.",
            ),
            (
                "Which fuel to burn?",
                "Lump charcoal lights fast and burns hot, which suits steaks and short cooks. Briquettes burn "
                "longer at an even heat and suit roasts and ribs. Avoid cheap bags full of dust and small "
                "pieces: they choke the air flow and leave a bitter taste on the food.",
            ),
            (
                "How to keep it clean?",
                "Brush the grate while it is still hot, empty the ash once it is cold and cover the grill "
                "between uses. Once a season, wash the bowl with warm soapy water and oil the grate lightly, "
                "and the enamel will keep its shine for years to come.",
            ),
        )
    )
    body = (
        '<main id="content"><h1>Charcoal grills</h1>'
        f'<div class="products">{cards}</div></main><div class="guide">{guide}</div>'
    )
    text = read_html_page(page(body, title="Charcoal grills"), "https://shop.example/charcoal-grills").text
    assert "nothing matches the taste of wood embers" in text
    assert "chimney starter lights the charcoal" in text


def test_a_listings_cards_leave_out_what_their_videos_say_to_browsers_without_video() -> None:
    # each card plays a clip of its dress on hover; the words inside <video> show only in a
    # browser that cannot play it
    dresses = ("Striped Midi Dress", "Ribbed Sleeveless Dress", "Cutout Midi Dress", "Chambray Mini Dress")
    cards = "".join(
        f'<li class="tile"><video muted loop><source src="/{i}.mp4">Your browser does not support video</video>'
        f'<h3><a href="/dresses/{i}">{name}</a></h3><span>${59 + 10 * i}</span></li>'
        for i, name in enumerate(dresses * 2)
    )
    intro = "<p>Light dresses for warm days, in cotton and linen, cut to move in and easy to wash.</p>"
    body = f'<h1>Casual dresses</h1>{intro}<ul class="grid">{cards}</ul>'
    text = read_html_page(page(body, title="Casual dresses"), "https://shop.example/dresses/casual").text
    line = next(line for line in text.splitlines() if "Chambray Mini Dress" in line)
    assert "$89" in line
    assert "does not support video" not in text


def test_an_article_written_twice_for_two_screens_is_read_once() -> None:
    paragraphs = [
        "Remodeling a kitchen in the valley costs between forty and ninety thousand dollars, "
        "depending on the cabinets, the counters and how much of the plumbing has to move.",
        "Labor is most of the bill: contractors here charge more than the national average, "
        "and permits for electrical work add several weeks to the schedule of any project. "
        "Plumbing moved across the room costs more again, because the walls and the floor are "
        "opened, inspected and closed by three trades, each of them paid by the hour.",
        "Homeowners who keep the layout and refinish the cabinets instead of replacing them "
        "save a third of the cost, and can still change the counters and the appliances.",
    ]
    copy = "".join(f"<p>{text}</p>" for text in paragraphs)
    body = (
        "<article><h1>What a kitchen remodel costs</h1>"
        f'<div class="content desktop">{copy}</div><div class="content mobile">{copy}</div></article>'
    )
    text = extract_page(page(body, '<meta property="og:type" content="article">')).text
    assert text.count("Labor is most of the bill") == 1
    assert all(p.split(",")[0] in text for p in paragraphs)  # the article is kept


def test_a_streamed_pages_paragraphs_are_read_where_their_placeholders_stand() -> None:
    # React's streaming render: each paragraph a Suspense boundary, sent later as a hidden part
    # that a script ($RC) moves into place; the page's own prose and a closing section around them
    loading = '<!--$?--><template id="B:{n}"></template><div>Loading paragraph...</div><!--/$-->'
    parts = "".join(
        f'<div hidden id="S:{n}"><p>{SENTENCE * 3} Part {n} of the streamed article.</p></div>'
        f'<script>$RC("B:{n}","S:{n}")</script>'
        for n in range(4)
    )
    body = (
        "<main><article><h1>Parks budget approved</h1>"
        f"<p>{SENTENCE * 2}</p>{''.join(loading.format(n=n) for n in range(4))}"
        "<h2>What comes next</h2><p>The council votes on the plan again in the spring, after a hearing "
        "where residents can speak about each park and each library.</p>"
        f"</article></main><footer><p>Copyright the city paper.</p></footer>{parts}"
    )
    text = extract_page(page(body, '<meta property="og:type" content="article">')).text
    assert "Loading paragraph" not in text
    assert all(f"Part {n} of the streamed article." in text for n in range(4))
    assert text.index("Part 3 of the streamed article.") < text.index("The council votes")


# an old template writes its attribute names in capitals, which the parser folds: the raw page
# was once searched for "aria-controls" before the tree, and those panels stayed shut
@pytest.mark.parametrize("controls", ['role="button" aria-controls', 'ROLE="button" ARIA-CONTROLS'])
def test_an_accordions_collapsed_panels_are_read(controls: str) -> None:
    paragraphs = "".join(f"<p>{SENTENCE * 2}Paragraph {i} goes on about the plan.</p>" for i in range(8))
    steps = "".join(
        f'<div class="accordion"><a {controls}="step-{n}-panel" href="#">Step {n}</a>'
        f'<div id="step-{n}-panel" style="display:none;" role="region">'
        f"<p>Step {n} is explained in the panel, with what the council decided about it.</p></div></div>"
        for n in range(3)
    )
    text = extract_page(declared_article(f"{paragraphs}{steps}")).text
    assert all(f"Step {n} is explained in the panel" in text for n in range(3))


def faq_article(declared: bool, shown: bool = True) -> str:
    paragraphs = "".join(f"<p>{SENTENCE * 2}Paragraph {i} goes on about the plan.</p>" for i in range(8))
    questions = [
        (
            f"When does part {n} of the plan start?",
            f"Part {n} starts after the council's spring vote, "
            "once the parks department has hired its new gardeners.",
        )
        for n in range(3)
    ]
    accordion = "".join(
        f'<div class="faq-item"><button aria-expanded="false"><h3>{q}</h3></button>'
        f'<div aria-hidden="true" style="height:0;overflow:hidden"><p>{a if shown else "Ask the city."}</p></div></div>'
        for q, a in questions
    )
    data = {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": [
            {"@type": "Question", "name": q, "acceptedAnswer": {"@type": "Answer", "text": f"<p>{a}</p>"}}
            for q, a in questions
        ],
    }
    head = '<meta property="og:type" content="article">'
    if declared:
        head += f'<script type="application/ld+json">{json.dumps(data)}</script>'
    body = (
        f"<main><article><h1>Parks budget approved</h1>{paragraphs}<h2>FAQ</h2>{accordion}</article></main>"
    )
    return page(body, head)


@pytest.mark.parametrize("declared", [True, False])
def test_an_articles_declared_faq_hidden_in_an_accordion_is_read(declared: bool) -> None:
    text = extract_page(faq_article(declared)).text
    found = [f"Part {n} starts after the council's spring vote" in text for n in range(3)]
    assert found == [declared] * 3  # the page's JSON-LD says the hidden answers are its FAQ's
    if declared:
        assert "### When does part 2 of the plan start?" in text
        assert text.index("Paragraph 7 goes on") < text.index("Part 0 starts")


def test_a_declared_answer_the_page_does_not_show_is_not_read() -> None:
    text = extract_page(faq_article(True, shown=False)).text
    assert "Part 0 starts" not in text  # said in the scripts' data alone


# WAI-ARIA's tab pattern as Starlight and React Aria write it: the chosen tab's panel shown, the
# others hidden until their tab is pressed, by the attribute or by aria-hidden
@pytest.mark.parametrize("hides", ["hidden", 'aria-hidden="true"', 'style="display: none"'])
def test_a_tab_sets_hidden_panels_of_code_are_read(hides: str) -> None:
    tools = ("npm install parks-budget", "yarn add parks-budget", "pnpm add parks-budget")
    tabs = "".join(
        f'<button role="tab" aria-controls="tab-{n}">{tool.split()[0]}</button>'
        for n, tool in enumerate(tools)
    )
    panels = "".join(
        f'<div role="tabpanel" id="tab-{n}" {hides if n else ""}><pre><code>{tool}</code></pre></div>'
        for n, tool in enumerate(tools)
    )
    paragraphs = "".join(f"<p>{SENTENCE * 2}Paragraph {i} explains the library.</p>" for i in range(6))
    body = (
        f"<main><article><h1>Installing the library</h1>{paragraphs}"
        f'<div class="tabs"><div role="tablist">{tabs}</div>{panels}</div>'
        "<p>Then import it in your project and call its functions, as the next page explains.</p>"
        "</article></main>"
    )
    text = extract_page(page(body, title="Installing the library")).text
    assert all(tool in text for tool in tools)


def test_a_heading_written_as_a_link_to_itself_is_read() -> None:
    # Starlight's headings: the title a link to its own anchor, in a wrapper beside the anchor icon;
    # trafilatura took the wrapper, all link, for navigation and the sections came untitled
    sections = "".join(
        f'<div class="heading-wrapper"><h2 id="step-{n}"><a class="heading-link" href="#step-{n}">'
        f'Step {n} of the plan</a></h2><a class="anchor-link" href="#step-{n}">#</a></div>'
        f"<p>{SENTENCE * 2}Paragraph {n} explains the step.</p>"
        for n in range(3)
    )
    text = extract_page(declared_article(f"<p>{SENTENCE * 2}</p>{sections}")).text
    assert all(f"## Step {n} of the plan" in text for n in range(3))


def test_a_forum_posts_message_between_line_breaks_is_read() -> None:
    # phpBB writes each message straight into its content <div>, paragraphs cut by <br><br>;
    # the page's own paragraphs (the forum's rules, who is online) are <p>s, and trafilatura
    # kept those, the quotes and the signatures, and none of the messages
    thread = (PAGES / "phpbb_thread.html").read_text()
    text = read_html_page(thread, "https://forum.example.org/viewtopic.php?t=9").text
    assert "agreed to open the waiting list again in April." in text
    assert "twice as many families can grow vegetables there" in text
    assert "the soil there is heavy clay and floods every winter" in text
    assert "I will raise the compost with the council officer on Thursday." in text


# text in markup as pages write it: XML's whitespace, a no-break space, an em space, a letter
# outside Latin-1, a character outside the Basic Multilingual Plane
_MARKUP_TEXT = st.text(alphabet=" \t\n\rab\xa0\u2003é字😀", max_size=20)


@given(st.lists(st.tuples(_MARKUP_TEXT, _MARKUP_TEXT), max_size=4), _MARKUP_TEXT)
def test_text_size_counts_what_xpaths_translate_of_normalize_space_counted(
    children: list[tuple[str, str]], text: str
) -> None:
    parent = etree.Element("div")
    parent.text = text
    for inner, tail in children:
        child = etree.SubElement(parent, "span")
        child.text, child.tail = inner, tail
    counted = etree.XPath("string-length(translate(normalize-space(), ' ', ''))")(parent)
    assert text_size(parent) == int(counted)


MARKED_PAGE = (
    '<html><body><div role="dialog" aria-modal="true"><p aria-modal="true">Sure?</p></div>'
    '<dialog>Sign up</dialog><span data-review-id="1" data-review-stars="5">Good.</span>'
    '<p role="dialog">Later</p></body></html>'
)


@pytest.mark.parametrize(
    "tests",
    [
        ("@role[.='dialog']", "@aria-modal[.='true']", "self::dialog"),  # several find some
        ("@aria-modal[.='true']", "@role[.='alertdialog']"),  # one finds some
        ("@*[starts-with(name(), 'data-review')]",),  # two attributes of one element
    ],
)
def test_marked_elements_are_the_unions_in_page_order_each_once(tests: tuple[str, ...]) -> None:
    root = lxml.html.document_fromstring(MARKED_PAGE)
    scope = "/descendant::body/descendant::*"
    union = etree.XPath(" | ".join(f"{scope}[{test}]" for test in tests))
    assert Marked(scope, *tests)(root) == union(root)
