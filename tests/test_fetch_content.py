"""What comes back for each kind of body: HTML, text, JSON, PDF, binaries; charsets; error statuses.

Pure checks of sniffing and decoding first, then whole fetches from pytest-httpserver on
127.0.0.1 (allowed through LLMWEB_FETCH_ALLOW).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pytest_httpserver import HTTPServer
from werkzeug import Response

from llmweb.errors import ChallengePage, NeedsJavaScript, NoReadableText, UnsupportedContent, UpstreamStatus
from llmweb.fetch import web_fetch
from llmweb.fetch.content import decode_text, sniff_media_type
from llmweb.fetch.mojibake import repair_mojibake
from testbed.pdf import text_pdf

PAGES = Path(__file__).parent / "fixtures" / "pages"
POLISH = (
    "Zażółć gęślą jaźń. Pchnąć w tę łódź jeża lub ośm skrzyń fig. "
    "Źródło światła oświetlało śliczną ścieżkę nad rzeką, gdzie ślimak jadł liście. "
    "Wśród drzew szumiał wiatr, a pszczoła brzęczała nad łąką pełną kwiatów."
)


pytestmark = pytest.mark.usefixtures("allow_test_servers")


def serve(
    server: HTTPServer, body: str | bytes, content_type: str | None, status: int = 200, **headers: str
) -> str:
    server.expect_request("/doc").respond_with_data(
        body, status=status, content_type=content_type, headers=headers
    )
    return server.url_for("/doc")


def polish_page(meta: str = "") -> str:
    return f"<html><head>{meta}<title>Pangram</title></head><body><article><p>{POLISH}</p></article></body></html>"


# --- sniffing and decoding (pure) --------------------------------------------------------


def test_pdf_magic_beats_a_text_html_label() -> None:
    assert sniff_media_type(b"%PDF-1.7\n...", "text/html") == "application/pdf"


@pytest.mark.parametrize("lead", [b"", b"\xef\xbb\xbf", b"\r\n  \t"])
def test_pdf_magic_at_the_start_after_a_bom_or_whitespace_is_a_pdf(lead: bytes) -> None:
    assert sniff_media_type(lead + b"%PDF-1.7\n...", "") == "application/pdf"


@pytest.mark.parametrize("declared", ["text/html", ""])
def test_an_html_page_that_mentions_the_pdf_magic_early_is_html(declared: str) -> None:
    page = (
        b"<!doctype html><html><head><title>PDF files start with %PDF-1.7</title></head><body>x</body></html>"
    )
    assert sniff_media_type(page, declared) == "text/html"


def test_png_magic_beats_a_text_plain_label() -> None:
    assert sniff_media_type(b"\x89PNG\r\n\x1a\n\x00\x00", "text/plain") == "image/png"


def test_nul_bytes_under_a_text_label_are_binary() -> None:
    assert sniff_media_type(b"abc\x00\x01\x02def", "text/html") == "application/octet-stream"


@pytest.mark.parametrize(
    ("body", "media"),
    [
        (b"  <!DOCTYPE html><html><body>x</body></html>", "text/html"),
        (b'<?xml version="1.0"?><rss></rss>', "application/xml"),
        (b'{"a": [1, 2]}', "application/json"),
        (b"just some words", "text/plain"),
    ],
)
def test_a_missing_type_is_sniffed_from_the_body(body: bytes, media: str) -> None:
    assert sniff_media_type(body, "") == media


def test_the_header_charset_decodes_the_page() -> None:
    assert decode_text(polish_page().encode("iso-8859-2"), "iso-8859-2") == polish_page()


def test_a_label_naming_a_codec_that_never_decodes_is_ignored() -> None:
    # Python knows a codec called "undefined" that raises on every input; found by hypothesis.
    # Latin-2 bytes are not UTF-8, so the label is consulted, then detection takes over.
    text = decode_text(polish_page().encode("iso-8859-2"), "undefined")
    assert "<title>Pangram</title>" in text


def test_the_documents_meta_charset_decodes_a_page_without_a_header_charset() -> None:
    html = polish_page('<meta charset="windows-1250">')
    assert decode_text(html.encode("cp1250"), None) == html


def test_the_meta_charset_wins_when_the_header_charset_cannot_decode_the_bytes() -> None:
    html = polish_page('<meta http-equiv="Content-Type" content="text/html; charset=windows-1250">')
    assert decode_text(html.encode("cp1250"), "utf-8") == html


def test_an_unlabelled_page_is_decoded_by_detection() -> None:
    assert decode_text(polish_page().encode("cp1250"), None) == polish_page()


def test_valid_utf8_wins_over_a_wrong_label() -> None:
    assert decode_text(polish_page().encode("utf-8"), "iso-8859-1") == polish_page()


@given(st.binary(max_size=2000), st.one_of(st.none(), st.text(max_size=20)))
def test_decoding_any_bytes_and_label_keeps_valid_utf8_and_never_raises(
    body: bytes, charset: str | None
) -> None:
    text = decode_text(body, charset)
    try:
        as_utf8 = body.decode("utf-8")
    except UnicodeDecodeError:
        return
    if not as_utf8.startswith("\ufeff"):  # a byte-order mark is read as one, not as text
        assert text == as_utf8


def written_twice(text: str, code_page: str) -> str:
    """``text``'s UTF-8 bytes read as ``code_page``, as a browser reads it (Windows-1252's five
    undefined bytes as Latin-1's C1 controls): what a page written twice over shows."""
    return "".join(
        bytes([b]).decode(code_page) if code_page == "latin-1" or b not in b"\x81\x8d\x8f\x90\x9d" else chr(b)
        for b in text.encode("utf-8")
    )


ARTICLE_WRITTEN = "It’s the computer’s memory — “ownership” at 20\xa0°C, café, naïve, € 5… Привет 日本語 👍"


@pytest.mark.parametrize("code_page", ["cp1252", "latin-1"])
def test_text_written_twice_over_in_utf8_is_put_back(code_page: str) -> None:
    shown = written_twice(ARTICLE_WRITTEN, code_page)
    assert "â" in shown and "’" not in shown  # "itâ€™s", or "itâ" and two C1 controls
    assert repair_mojibake(shown) == ARTICLE_WRITTEN


@given(st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=200))
def test_any_text_with_an_apostrophe_written_twice_over_is_put_back(text: str) -> None:
    text += " it’s"
    assert repair_mojibake(written_twice(text, "cp1252")) == text
    assert repair_mojibake(written_twice(text, "latin-1")) == text


@pytest.mark.parametrize(
    "text",
    [
        "« Il a été\xa0» dit-elle, « déjà\xa0».",  # French: an é or à, a no-break space, a guillemet
        "O IRMÃ” e «AMANHÃ»",  # Portuguese capitals before a quote
        "Die Straße’s Ende, naïve Grüße",
        "Ä» and Ð¿ once each",  # possible runs, but no signature of a text written twice
    ],
)
def test_ordinary_text_that_holds_possible_runs_is_left_as_it_is(text: str) -> None:
    assert repair_mojibake(text) == text


# --- whole fetches ------------------------------------------------------------------------

RETRY_LINE = "            if attempt == attempts - 1:"


def test_a_documentation_page_comes_back_as_markdown_with_its_code(httpserver_ipv4: HTTPServer) -> None:
    url = serve(httpserver_ipv4, (PAGES / "sphinx_code.html").read_bytes(), "text/html; charset=utf-8")
    result = web_fetch(url)
    assert result.content_type == "text/html"
    assert result.title is not None and "Retrying calls" in result.title
    assert "\n## Usage\n" in result.text
    assert f"\n{RETRY_LINE}\n" in result.text
    assert "| first | 1 second |" in result.text


def test_a_polish_page_without_any_charset_label_reads_correctly(httpserver_ipv4: HTTPServer) -> None:
    url = serve(httpserver_ipv4, polish_page().encode("cp1250"), "text/html")
    assert web_fetch(url).text == POLISH


def test_a_polish_page_with_a_header_charset_reads_correctly(httpserver_ipv4: HTTPServer) -> None:
    url = serve(httpserver_ipv4, polish_page().encode("iso-8859-2"), "text/html; charset=ISO-8859-2")
    assert web_fetch(url).text == POLISH


def test_a_stray_byte_in_a_utf8_page_becomes_a_replacement_character(httpserver_ipv4: HTTPServer) -> None:
    first, second = POLISH[:60], POLISH[60:]
    url = serve(httpserver_ipv4, first.encode() + b"\xff" + second.encode(), "text/plain; charset=utf-8")
    assert web_fetch(url).text == first + "\ufffd" + second


def test_a_page_written_twice_over_in_utf8_reads_as_it_was_written(httpserver_ipv4: HTTPServer) -> None:
    title = "Ownership — the computer’s memory"
    paragraphs = [
        "All programs have to manage the way they use a computer’s memory while running.",
        "Some languages have garbage collection; in others, the programmer must allocate memory. "
        "Rust’s approach — ownership — is checked by the compiler: “no runtime cost”.",
    ]
    html = (
        f"<html><head><meta charset='utf-8'><title>{title}</title></head><body><article><h1>{title}</h1>"
        + "".join(f"<p>{p}</p>" for p in paragraphs)
        + "</article></body></html>"
    )
    url = serve(httpserver_ipv4, written_twice(html, "latin-1").encode("utf-8"), "text/html; charset=utf-8")
    result = web_fetch(url)
    assert result.title == title
    assert all(p in result.text for p in paragraphs), result.text
    assert "â" not in result.text


def test_plain_text_comes_back_as_it_is(httpserver_ipv4: HTTPServer) -> None:
    text = "Line one\n\n    indented line two\nline three"
    result = web_fetch(serve(httpserver_ipv4, text, "text/plain; charset=utf-8"))
    assert (result.text, result.content_type) == (text, "text/plain")


def test_markdown_comes_back_as_it_is(httpserver_ipv4: HTTPServer) -> None:
    text = "# Title\n\n- item\n\n```python\nprint('x')\n```"
    assert web_fetch(serve(httpserver_ipv4, text, "text/markdown")).text == text


JSON_DATA = {"name": "parks", "budget": [1, 2, 3], "nested": {"ok": True}}


@pytest.mark.parametrize("content_type", ["application/json", "application/problem+json"])
def test_json_comes_back_pretty_printed(httpserver_ipv4: HTTPServer, content_type: str) -> None:
    result = web_fetch(serve(httpserver_ipv4, json.dumps(JSON_DATA, separators=(",", ":")), content_type))
    assert json.loads(result.text) == JSON_DATA
    assert '\n  "name": "parks",\n' in result.text


def test_json_that_pretty_printing_would_multiply_comes_back_as_it_was_sent(
    httpserver_ipv4: HTTPServer,
) -> None:
    # each value on a line indented 500 deep: pretty-printed, 40 KB would become 20 MB
    deep = "[" * 500 + "1," * 20_000 + "1" + "]" * 500
    result = web_fetch(serve(httpserver_ipv4, deep, "application/json"), max_chars=500)
    assert result.content_type == "application/json"
    assert result.total_chars == len(deep)


def test_a_body_sniffed_as_json_that_does_not_parse_is_plain_text(httpserver_ipv4: HTTPServer) -> None:
    result = web_fetch(serve_without_content_type(httpserver_ipv4, b"[1] Kowalski, J. Parki miejskie. [2]"))
    assert result.content_type == "text/plain"
    assert result.text == "[1] Kowalski, J. Parki miejskie. [2]"


def serve_without_content_type(server: HTTPServer, body: bytes) -> str:
    response = Response(body)
    response.headers.remove("Content-Type")
    server.expect_request("/doc").respond_with_response(response)
    return server.url_for("/doc")


def test_json_without_a_content_type_is_sniffed(httpserver_ipv4: HTTPServer) -> None:
    result = web_fetch(serve_without_content_type(httpserver_ipv4, json.dumps(JSON_DATA).encode()))
    assert result.content_type == "application/json"
    assert json.loads(result.text) == JSON_DATA


def test_a_pdf_without_a_content_type_is_sniffed(httpserver_ipv4: HTTPServer) -> None:
    result = web_fetch(serve_without_content_type(httpserver_ipv4, text_pdf(["No label at all."])))
    assert "No label at all." in result.text


def test_xml_comes_back_as_text(httpserver_ipv4: HTTPServer) -> None:
    xml = '<?xml version="1.0"?><feed><entry><title>Parks</title></entry></feed>'
    assert web_fetch(serve(httpserver_ipv4, xml, "application/atom+xml")).text == xml


def test_a_pdf_comes_back_as_its_text_layer(httpserver_ipv4: HTTPServer) -> None:
    pdf = text_pdf(["The parks budget grew by four percent.", "Libraries open at nine."], title="Budget 2024")
    result = web_fetch(serve(httpserver_ipv4, pdf, "application/pdf"))
    assert result.content_type == "application/pdf"
    assert result.title == "Budget 2024"
    assert "The parks budget grew by four percent." in result.text
    assert "Libraries open at nine." in result.text


def test_a_pdf_labelled_as_binary_is_still_read(httpserver_ipv4: HTTPServer) -> None:
    pdf = text_pdf(["Sniffed from its magic bytes."])
    assert (
        "Sniffed from its magic bytes."
        in web_fetch(serve(httpserver_ipv4, pdf, "application/octet-stream")).text
    )


def test_a_long_pdf_is_read_up_to_fifty_pages_and_says_so(httpserver_ipv4: HTTPServer) -> None:
    pdf = text_pdf([f"Page number {n} here." for n in range(1, 52)])
    result = web_fetch(serve(httpserver_ipv4, pdf, "application/pdf"))
    assert "Page number 50 here." in result.text
    assert "Page number 51 here." not in result.text
    assert "The PDF has 51 pages; only the first 50 were read." in result.notes


def test_a_pdf_without_a_text_layer_has_no_readable_text(httpserver_ipv4: HTTPServer) -> None:
    with pytest.raises(NoReadableText) as caught:
        web_fetch(serve(httpserver_ipv4, text_pdf([None, None]), "application/pdf"))
    assert "without a text layer" in str(caught.value)


def test_a_damaged_pdf_is_unsupported(httpserver_ipv4: HTTPServer) -> None:
    with pytest.raises(UnsupportedContent) as caught:
        web_fetch(serve(httpserver_ipv4, b"%PDF-1.4\nthis is not really a pdf", "application/pdf"))
    assert "could not be parsed" in str(caught.value)


@pytest.mark.parametrize(
    ("body", "content_type", "named"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image/png", "an image (image/png)"),
        (
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            "text/html",
            "an image (image/png, although it was labelled text/html)",
        ),
        (b"PK\x03\x04\x14\x00\x00\x00", "application/zip", "an archive (application/zip)"),
        (b"ID3\x04\x00\x00\x00\x00", "audio/mpeg", "audio (audio/mpeg)"),
        (b"\x01\x02\x00\x03binary", "application/octet-stream", "binary data (application/octet-stream)"),
    ],
)
def test_binaries_are_refused_naming_their_type(
    httpserver_ipv4: HTTPServer, body: bytes, content_type: str, named: str
) -> None:
    with pytest.raises(UnsupportedContent) as caught:
        web_fetch(serve(httpserver_ipv4, body, content_type))
    assert named in str(caught.value)


CLOUDFLARE = (
    "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>"
    "<h2>Checking if the site connection is secure</h2>"
    "<script>window._cf_chl_opt={cType: 'managed'};</script></body></html>"
)


def test_a_challenge_answered_with_an_error_status_is_a_challenge(httpserver_ipv4: HTTPServer) -> None:
    with pytest.raises(ChallengePage):
        web_fetch(serve(httpserver_ipv4, CLOUDFLARE, "text/html; charset=UTF-8", status=403))


def test_a_challenge_answered_with_ok_is_a_challenge(httpserver_ipv4: HTTPServer) -> None:
    with pytest.raises(ChallengePage):
        web_fetch(serve(httpserver_ipv4, CLOUDFLARE, "text/html"))


def test_a_javascript_shell_needs_javascript(httpserver_ipv4: HTTPServer) -> None:
    shell = '<html><head><script src="/app.js"></script></head><body><div id="root"></div></body></html>'
    with pytest.raises(NeedsJavaScript):
        web_fetch(serve(httpserver_ipv4, shell, "text/html"))


@pytest.mark.parametrize(
    ("status", "says"),
    [
        (404, "the page does not exist"),
        (410, "the page does not exist"),
        (401, "refuses access"),
        (403, "refuses access"),
        (500, "Try again later"),
        (503, "Try again later"),
    ],
)
def test_error_statuses_say_what_to_do(httpserver_ipv4: HTTPServer, status: int, says: str) -> None:
    with pytest.raises(UpstreamStatus) as caught:
        web_fetch(serve(httpserver_ipv4, "<html><body>Error</body></html>", "text/html", status=status))
    assert caught.value.status == status
    assert says in str(caught.value)


def test_too_many_requests_passes_on_retry_after(httpserver_ipv4: HTTPServer) -> None:
    with pytest.raises(UpstreamStatus) as caught:
        web_fetch(serve(httpserver_ipv4, "slow down", "text/plain", status=429, **{"Retry-After": "120"}))
    assert "Wait 120 seconds before trying again" in str(caught.value)


def test_an_empty_text_body_has_no_readable_text(httpserver_ipv4: HTTPServer) -> None:
    with pytest.raises(NoReadableText):
        web_fetch(serve(httpserver_ipv4, "\n\n", "text/plain"))
