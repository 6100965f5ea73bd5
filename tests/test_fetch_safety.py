"""The fetcher's address guard, redirects and credentials, live against servers on loopback.

Only loopback addresses are ever connected to. The test servers listen on 127.0.0.1, so
these tests allow exactly that address through the public setting, LLMWEB_FETCH_ALLOW;
127.0.0.2 stands for "somewhere the fetcher must not go".
"""

from __future__ import annotations

import base64
from collections.abc import Iterator

import httpx
import pytest
from pytest_httpserver import HTTPServer

from llmweb.errors import BlockedAddress, InvalidInput, RedirectRefused, Unreachable
from llmweb.fetch import web_fetch
from llmweb.fetch.net.addresses import parse_allow_list
from llmweb.fetch.net.refresh import refresh_target
from llmweb.fetch.net.transport import AddressRefused, Deadline, PinnedTransport, resolve_public_address

TEXT = "A plain text page served on loopback for the fetcher's safety tests."


@pytest.fixture
def default_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LLMWEB_FETCH_ALLOW", raising=False)


@pytest.fixture
def server(httpserver_ipv4: HTTPServer) -> HTTPServer:
    httpserver_ipv4.expect_request("/page").respond_with_data(TEXT, content_type="text/plain")
    return httpserver_ipv4


@pytest.fixture
def other_origin() -> Iterator[HTTPServer]:
    """A second server on 127.0.0.1: same address, different port, so a different origin."""
    other = HTTPServer(host="127.0.0.1", port=0)
    other.start()
    other.expect_request("/landing").respond_with_data(TEXT, content_type="text/plain")
    yield other
    other.clear()
    other.stop()


def redirect(server: HTTPServer, path: str, location: str, **headers: str) -> None:
    server.expect_request(path).respond_with_data("", status=302, headers={"Location": location, **headers})


def test_the_default_settings_refuse_the_loopback_test_server(
    default_settings: None, server: HTTPServer
) -> None:
    with pytest.raises(BlockedAddress) as caught:
        web_fetch(server.url_for("/page"))
    assert str(caught.value) == (
        f"{server.url_for('/page')} resolves to 127.0.0.1, a loopback address, which llmweb does not fetch by default. "
        "Fetch a public address instead, or ask the admin to add the host to LLMWEB_FETCH_ALLOW."
    )
    assert server.log == []


def test_allowing_the_servers_address_lets_the_fetch_through(
    allow_test_servers: None, server: HTTPServer
) -> None:
    assert web_fetch(server.url_for("/page")).text == TEXT


def test_the_allow_argument_overrides_the_environment(allow_test_servers: None, server: HTTPServer) -> None:
    with pytest.raises(BlockedAddress):
        web_fetch(server.url_for("/page"), allow="")


def test_the_allow_argument_alone_opens_an_address(default_settings: None, server: HTTPServer) -> None:
    assert web_fetch(server.url_for("/page"), allow=["127.0.0.1"]).text == TEXT


@pytest.mark.parametrize("host", ["2130706433", "0x7f000001", "127.1", "localhost", "[::ffff:127.0.0.1]"])
def test_numeric_and_named_forms_of_loopback_are_refused(
    default_settings: None, server: HTTPServer, host: str
) -> None:
    with pytest.raises(BlockedAddress) as caught:
        web_fetch(f"http://{host}:{server.port}/page")
    assert "loopback" in str(caught.value)
    assert server.log == []


def test_the_octal_form_of_loopback_is_refused_as_an_invalid_url(
    default_settings: None, server: HTTPServer
) -> None:
    with pytest.raises(InvalidInput):
        web_fetch(f"http://0177.0.0.1:{server.port}/page")


@pytest.mark.parametrize(
    "host", ["2130706433", "0177.0.0.1", "0x7f000001", "127.1", "localhost", "::ffff:127.0.0.1"]
)
def test_the_resolver_judges_what_a_host_resolves_to_not_how_it_is_written(host: str) -> None:
    with pytest.raises(AddressRefused) as caught:
        resolve_public_address(host, 80, parse_allow_list(""))
    assert "loopback" in caught.value.refusal.reason


def test_the_resolver_returns_an_allowed_address() -> None:
    assert resolve_public_address("2130706433", 80, parse_allow_list("127.0.0.1")) == ["127.0.0.1"]


def test_the_host_header_keeps_the_name_while_the_connection_goes_to_the_judged_address(
    default_settings: None, server: HTTPServer
) -> None:
    web_fetch(f"http://localhost:{server.port}/page", allow="127.0.0.1")
    assert server.log[0][0].headers["Host"] == f"localhost:{server.port}"


def test_every_connection_the_transport_opens_is_judged(server: HTTPServer) -> None:
    transport = PinnedTransport(parse_allow_list(""), Deadline(5))
    with httpx.Client(transport=transport) as client, pytest.raises(AddressRefused):
        client.get(server.url_for("/page"))
    assert server.log == []


def test_a_redirect_to_a_blocked_address_is_refused(allow_test_servers: None, server: HTTPServer) -> None:
    redirect(server, "/start", f"http://127.0.0.2:{server.port}/page")
    with pytest.raises(BlockedAddress) as caught:
        web_fetch(server.url_for("/start"))
    assert "redirected to an address that resolves to 127.0.0.2" in str(caught.value)


def test_five_redirects_are_followed(allow_test_servers: None, server: HTTPServer) -> None:
    for hop in range(5):
        redirect(server, f"/hop/{hop}", f"/hop/{hop + 1}")
    server.expect_request("/hop/5").respond_with_data(TEXT, content_type="text/plain")
    result = web_fetch(server.url_for("/hop/0"))
    assert result.url == server.url_for("/hop/5")


def refused_at_the_sixth_hop(server: HTTPServer) -> None:
    """/hop/0 leads on six times: the fetch is refused and /hop/6 never asked for."""
    server.expect_request("/hop/6").respond_with_data(TEXT, content_type="text/plain")
    with pytest.raises(RedirectRefused) as caught:
        web_fetch(server.url_for("/hop/0"))
    assert "redirected more than 5 times" in str(caught.value)
    assert "/hop/6" not in [request.path for request, _ in server.log]


def test_a_sixth_redirect_is_not_followed(allow_test_servers: None, server: HTTPServer) -> None:
    for hop in range(6):
        redirect(server, f"/hop/{hop}", f"/hop/{hop + 1}")
    refused_at_the_sixth_hop(server)


def test_a_redirect_to_a_non_web_scheme_is_not_followed(allow_test_servers: None, server: HTTPServer) -> None:
    redirect(server, "/start", "file:///etc/passwd")
    with pytest.raises(RedirectRefused) as caught:
        web_fetch(server.url_for("/start"))
    assert "not an http or https address" in str(caught.value)


# A redirect stub as rustdoc writes one for each macro (std/macro.println!.html)
STUB = """<!DOCTYPE html>
<html lang="en">
<head>
    <meta http-equiv="refresh" content="0;URL={target}">
    <title>Redirection</title>
</head>
<body>
    <p>Redirecting to <a href="{target}">{target}</a>...</p>
    <script>location.replace("{target}" + location.search + location.hash);</script>
</body>
</html>"""
ARTICLE = (
    "<html><head><title>Macro println</title></head><body><main><h1>Macro println</h1>"
    + "".join(
        f"<p>Prints to the standard output, with a newline, paragraph {n}: on all platforms the newline "
        "is the line feed character alone, and no carriage return is printed.</p>"
        for n in range(6)
    )
    + "</main></body></html>"
)


def stub(server: HTTPServer, path: str, target: str, *, refresh: str | None = None) -> None:
    body = (
        STUB.format(target=target) if refresh is None else STUB.replace('content="0;URL={target}"', refresh)
    )
    server.expect_request(path).respond_with_data(body, content_type="text/html; charset=utf-8")


def test_a_page_that_only_refreshes_to_another_is_read_there(
    allow_test_servers: None, server: HTTPServer
) -> None:
    stub(server, "/std/macro.println!.html", "macro.println.html")
    server.expect_request("/std/macro.println.html").respond_with_data(ARTICLE, content_type="text/html")
    result = web_fetch(server.url_for("/std/macro.println!.html"))
    assert "Prints to the standard output, with a newline, paragraph 5" in result.text
    assert (result.url, result.redirected) == (server.url_for("/std/macro.println.html"), True)


def test_a_refresh_header_is_followed_like_the_tag(allow_test_servers: None, server: HTTPServer) -> None:
    server.expect_request("/old").respond_with_data("Moved.", headers={"Refresh": "2; url=/new"})
    server.expect_request("/new").respond_with_data(ARTICLE, content_type="text/html")
    assert web_fetch(server.url_for("/old")).url == server.url_for("/new")


@pytest.mark.parametrize(
    "refresh",
    [
        'content="600;URL=/logout"',  # a session's end, long after the page was read
        'content="0;URL=/std/stub.html#top"',  # the page itself
        'content="30"',  # a reload
        'content="0;URL=javascript:go()"',  # no web address
    ],
)
def test_a_refresh_that_is_no_redirect_leaves_the_page_as_it_is(
    allow_test_servers: None, server: HTTPServer, refresh: str
) -> None:
    server.expect_request("/std/stub.html").respond_with_data(
        ARTICLE.replace("<head>", f'<head><meta http-equiv="refresh" {refresh}>'), content_type="text/html"
    )
    result = web_fetch(server.url_for("/std/stub.html"))
    assert "paragraph 5" in result.text
    assert [request.path for request, _ in server.log] == ["/std/stub.html"]


def test_a_refresh_for_browsers_without_scripts_is_left_alone(
    allow_test_servers: None, server: HTTPServer
) -> None:
    page = ARTICLE.replace(
        "<head>", '<head><noscript><meta http-equiv="refresh" content="0; url=/nojs"></noscript>'
    )
    server.expect_request("/app").respond_with_data(page, content_type="text/html")
    assert "paragraph 5" in web_fetch(server.url_for("/app")).text
    assert [request.path for request, _ in server.log] == ["/app"]


# Javadoc 8's index.html: two narrow lists beside the class frame
FRAMESET = """<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN" "http://www.w3.org/TR/html4/frameset.dtd">
<html lang="en"><head><title>Overview (Java Platform SE 8)</title>
<script type="text/javascript">tmpTargetPage = "" + window.location.search;</script></head>
<frameset cols="20%,80%" title="Documentation frame" onload="top.loadFrames()">
<frameset rows="30%,70%" title="Left frames" onload="top.loadFrames()">
<frame src="overview-frame.html" name="packageListFrame" title="All Packages">
<frame src="allclasses-frame.html" name="packageFrame" title="All classes and interfaces">
</frameset>
<frame src="overview-summary.html" name="classFrame" title="Package, class and interface descriptions">
<noframes><h2>Frame Alert</h2><p>This document is designed to be viewed using the frames feature.</p></noframes>
</frameset>
</html>"""


def test_a_frameset_page_is_read_in_its_largest_frame(allow_test_servers: None, server: HTTPServer) -> None:
    server.expect_request("/api/index.html").respond_with_data(FRAMESET, content_type="text/html")
    server.expect_request("/api/overview-summary.html").respond_with_data(ARTICLE, content_type="text/html")
    result = web_fetch(server.url_for("/api/index.html"))
    assert "paragraph 5" in result.text
    assert result.url == server.url_for("/api/overview-summary.html")
    assert [request.path for request, _ in server.log] == ["/api/index.html", "/api/overview-summary.html"]


def test_a_refresh_to_a_blocked_address_is_refused_as_a_redirect_is(
    allow_test_servers: None, server: HTTPServer
) -> None:
    stub(server, "/start", f"http://127.0.0.2:{server.port}/page")
    with pytest.raises(BlockedAddress) as caught:
        web_fetch(server.url_for("/start"))
    assert str(caught.value).startswith(
        f"{server.url_for('/start')} redirected to an address that resolves to 127.0.0.2"
    )


def test_refreshes_and_redirects_count_together_towards_the_limit(
    allow_test_servers: None, server: HTTPServer
) -> None:
    for hop in range(6):  # redirect, refresh, redirect, refresh, ...: six hops in all
        if hop % 2:
            stub(server, f"/hop/{hop}", f"/hop/{hop + 1}")
        else:
            redirect(server, f"/hop/{hop}", f"/hop/{hop + 1}")
    refused_at_the_sixth_hop(server)
    server.clear_log()
    assert web_fetch(server.url_for("/hop/1")).url == server.url_for("/hop/6")  # five hops are followed


def with_credentials(url: str) -> str:
    return url.replace("http://", "http://reader:s3cret@")


BASIC = "Basic " + base64.b64encode(b"reader:s3cret").decode()


def test_credentials_in_the_url_are_sent_to_their_origin(
    allow_test_servers: None, server: HTTPServer
) -> None:
    web_fetch(with_credentials(server.url_for("/page")))
    assert server.log[0][0].headers.get("Authorization") == BASIC


def test_credentials_follow_a_redirect_within_their_origin(
    allow_test_servers: None, server: HTTPServer
) -> None:
    redirect(server, "/start", "/page")
    web_fetch(with_credentials(server.url_for("/start")))
    assert server.log[1][0].path == "/page"
    assert server.log[1][0].headers.get("Authorization") == BASIC


def test_credentials_are_dropped_when_a_redirect_leaves_their_origin(
    allow_test_servers: None, server: HTTPServer, other_origin: HTTPServer
) -> None:
    redirect(server, "/start", other_origin.url_for("/landing"))
    web_fetch(with_credentials(server.url_for("/start")))
    assert other_origin.log[0][0].headers.get("Authorization") is None


def test_error_messages_do_not_repeat_credentials(default_settings: None, server: HTTPServer) -> None:
    with pytest.raises(BlockedAddress) as caught:
        web_fetch(with_credentials(server.url_for("/page")))
    assert "s3cret" not in str(caught.value)
    assert "s3cret" not in caught.value.url


def test_a_cookie_goes_back_to_the_origin_that_set_it(allow_test_servers: None, server: HTTPServer) -> None:
    redirect(server, "/start", "/page", **{"Set-Cookie": "session=abc123; Path=/; HttpOnly"})
    web_fetch(server.url_for("/start"))
    assert server.log[1][0].headers.get("Cookie") == "session=abc123"


def test_a_cookie_is_not_sent_to_another_origin(
    allow_test_servers: None, server: HTTPServer, other_origin: HTTPServer
) -> None:
    redirect(server, "/start", other_origin.url_for("/landing"), **{"Set-Cookie": "session=abc123; Path=/"})
    web_fetch(server.url_for("/start"))
    assert other_origin.log[0][0].headers.get("Cookie") is None


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://127.0.0.1/file", "gopher://127.0.0.1/"])
def test_non_web_schemes_are_refused_before_anything_is_fetched(url: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        web_fetch(url)
    assert "only http and https" in str(caught.value)


def test_every_fetch_verifies_the_certificate_though_they_share_one_tls_context(
    allow_test_servers: None, server: HTTPServer, untrusted_https: HTTPServer
) -> None:
    untrusted_https.expect_request("/page").respond_with_data(TEXT, content_type="text/plain")
    for _ in range(2):  # the second fetch reuses the context the first one built
        with pytest.raises(Unreachable) as caught:
            web_fetch(f"https://localhost:{untrusted_https.port}/page")
        assert "CERTIFICATE_VERIFY_FAILED" in str(caught.value)
        server.expect_request("/plain").respond_with_data(TEXT, content_type="text/plain")
        assert TEXT in web_fetch(server.url_for("/plain")).text
    assert untrusted_https.log == []  # the handshake failed: no request was ever sent


@pytest.mark.parametrize(
    ("head", "target"),
    [
        (b'<frameset rows="100,*"><frame src="top.html"><frame src="main.html"></frameset>', "main.html"),
        (b'<frameset cols="1*,3*"><frame src="menu.html"><frame src="text.html"></frameset>', "text.html"),
        (b'<head><script>w("<frameset><frame src=ad.html>")</script></head><body><p>Text</p>', None),
        (b'<head><script>w("<meta http-equiv=refresh content=0;url=/ad>")</script></head><body>', None),
        (b"<body><p>A page first</p><frameset><frame src=a.html></frameset>", None),
    ],
)
def test_where_a_page_sends_the_reader(head: bytes, target: str | None) -> None:
    assert refresh_target("text/html", None, head) == target
