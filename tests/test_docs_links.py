"""README.md and docs/ link to files and headings that exist, so a moved section leaves no dead link."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", flags=re.MULTILINE | re.DOTALL)


def heading_anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text())
    return {heading_anchor(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)}


def local_links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text())
    return [link for link in LINK.findall(text) if not re.match(r"[a-z]+:", link)]


def test_the_heading_anchor_follows_github() -> None:
    assert heading_anchor("OpenAI-style function calling (llama-server, Ollama)") == (
        "openai-style-function-calling-llama-server-ollama"
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_local_link_reaches_a_file_and_heading(page: Path) -> None:
    dead = []
    for link in local_links(page):
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if not target.exists() or (anchor and target.suffix == ".md" and anchor not in anchors(target)):
            dead.append(link)
    assert dead == []


def test_every_docs_page_is_linked_from_the_readme() -> None:
    linked = {(REPO / link.partition("#")[0]).resolve() for link in local_links(REPO / "README.md")}
    assert [p.name for p in PAGES[1:] if p.resolve() not in linked] == []
