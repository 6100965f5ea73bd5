"""URL checks and the rewrites that make GitHub pages readable: pure functions only.

An end-to-end rewrite would need raw.githubusercontent.com, which tests never reach.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmweb.errors import InvalidInput
from llmweb.fetch.net.rewrite import (
    check_fetch_url,
    github_cli_hint,
    rewrite_for_text,
    rewrite_gist,
    rewrite_github_blob,
)

RAW_HOSTS = ("https://raw.githubusercontent.com/", "https://gist.githubusercontent.com/")


def test_a_github_blob_url_maps_to_its_raw_file() -> None:
    assert (
        rewrite_github_blob("https://github.com/psf/requests/blob/main/src/requests/api.py")
        == "https://raw.githubusercontent.com/psf/requests/main/src/requests/api.py"
    )


def test_a_blob_rewrite_drops_line_anchors_and_view_options() -> None:
    assert (
        rewrite_github_blob("https://github.com/o/r/blob/v1.2/docs/a.md?plain=1#L10-L20")
        == "https://raw.githubusercontent.com/o/r/v1.2/docs/a.md"
    )


def test_a_blob_rewrite_keeps_a_branch_name_with_slashes() -> None:
    assert (
        rewrite_github_blob("https://github.com/o/r/blob/release/2.0/README.md")
        == "https://raw.githubusercontent.com/o/r/release/2.0/README.md"
    )


@pytest.mark.parametrize(
    "url", ["http://github.com/o/r/blob/main/x.py", "https://www.github.com/o/r/blob/main/x.py"]
)
def test_a_blob_rewrite_accepts_http_and_www(url: str) -> None:
    assert rewrite_github_blob(url) == "https://raw.githubusercontent.com/o/r/main/x.py"


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/o/r",
        "https://github.com/o/r/issues/12",
        "https://github.com/o/r/tree/main/src",
        "https://github.com/o/r/blob/main",
        "https://gitlab.com/o/r/blob/main/x.py",
        "https://github.com.evil.example/o/r/blob/main/x.py",
        "ftp://github.com/o/r/blob/main/x.py",
    ],
)
def test_pages_that_are_not_github_blobs_are_not_rewritten(url: str) -> None:
    assert rewrite_github_blob(url) is None


def test_a_gist_page_maps_to_its_raw_form() -> None:
    assert (
        rewrite_gist("https://gist.github.com/alice/0123456789abcdef0123")
        == "https://gist.githubusercontent.com/alice/0123456789abcdef0123/raw"
    )


@pytest.mark.parametrize("url", ["https://gist.github.com/alice", "https://gist.github.com/alice/starred"])
def test_gist_pages_that_are_not_one_gist_are_not_rewritten(url: str) -> None:
    assert rewrite_gist(url) is None


def test_the_rewrite_says_what_was_fetched_instead() -> None:
    rewrite = rewrite_for_text("https://github.com/o/r/blob/main/setup.py")
    assert rewrite is not None
    assert rewrite.url == "https://raw.githubusercontent.com/o/r/main/setup.py"
    assert "raw.githubusercontent.com/o/r/main/setup.py" in rewrite.note


def test_other_sites_get_no_rewrite() -> None:
    assert rewrite_for_text("https://docs.python.org/3/library/textwrap.html") is None


@pytest.mark.parametrize(
    ("url", "command"),
    [
        ("https://github.com/o/r/issues/12", "gh issue view 12 --repo o/r --comments"),
        ("https://github.com/o/r/pull/34/files", "gh pr view 34 --repo o/r --comments"),
        ("https://github.com/o/r/issues", "gh issue list --repo o/r"),
        ("https://github.com/o/r/tree/main/src/pkg", "gh api 'repos/o/r/contents/src/pkg?ref=main'"),
        ("https://github.com/o/r/releases/tag/v1.0", "gh release view v1.0 --repo o/r"),
        ("https://github.com/o/r", "gh repo view o/r"),
    ],
)
def test_github_pages_get_the_gh_command_that_reads_them(url: str, command: str) -> None:
    assert github_cli_hint(url) == command


def test_other_sites_get_no_gh_command() -> None:
    assert github_cli_hint("https://example.com/o/r/issues/12") is None


def test_a_valid_url_is_kept_without_its_fragment() -> None:
    assert check_fetch_url("https://example.com/a?b=1#section") == "https://example.com/a?b=1"


@pytest.mark.parametrize(
    "url", ["ftp://example.com/file", "file:///etc/passwd", "gopher://example.com/", "data:text/html,hi"]
)
def test_only_http_and_https_urls_are_accepted(url: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        check_fetch_url(url)
    assert "http and https" in str(caught.value)


def test_a_url_without_scheme_is_refused_with_the_likely_fix() -> None:
    with pytest.raises(InvalidInput) as caught:
        check_fetch_url("example.com/page")
    assert "https://example.com/page" in str(caught.value)


@pytest.mark.parametrize("url", ["", "   ", "http://[::1", "https://"])
def test_an_unusable_url_is_refused(url: str) -> None:
    with pytest.raises(InvalidInput):
        check_fetch_url(url)


@given(st.text())
def test_rewrites_of_any_string_point_only_at_github_raw_hosts(text: str) -> None:
    for function in (rewrite_github_blob, rewrite_gist):
        raw = function(text)
        assert raw is None or raw.startswith(RAW_HOSTS)
    hint = github_cli_hint(text)
    assert hint is None or hint.startswith("gh ")
    rewrite = rewrite_for_text(text)
    assert rewrite is None or rewrite.url.startswith(RAW_HOSTS)


@given(st.text())
def test_rewrites_of_any_github_path_stay_on_github(path: str) -> None:
    for host in ("https://github.com/", "https://gist.github.com/"):
        for raw in (rewrite_github_blob(host + path), rewrite_gist(host + path)):
            assert raw is None or raw.startswith(RAW_HOSTS)
        hint = github_cli_hint(host + path)
        assert hint is None or hint.startswith("gh ")


SEGMENT = st.text(alphabet="abcxyzABC019._-", min_size=1, max_size=10).filter(lambda s: s not in (".", ".."))


@given(SEGMENT, SEGMENT, st.lists(SEGMENT, min_size=1, max_size=2), st.lists(SEGMENT, min_size=1, max_size=4))
def test_a_blob_address_becomes_the_raw_file_with_its_owner_repo_ref_and_path_kept(
    owner: str, repo: str, ref: list[str], path: list[str]
) -> None:
    tail = "/".join([*ref, *path])
    raw = rewrite_github_blob(f"https://github.com/{owner}/{repo}/blob/{tail}")
    assert raw == f"https://raw.githubusercontent.com/{owner}/{repo}/{tail}"
