"""README.md quotes the bench's extraction figures as the bench wrote them.

The figures have one home, bench/results.md (the latest full run of `scripts/bench`); README.md
copies two tables of it, WCXB's F1 per page type on the pages nobody tuned on and what those
pages could reach, and this test fails when the two part ways (a new run not copied, or a
figure edited by hand).
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TITLE = "**F1 per page type, check part**"
CEILINGS = (
    "**What the check part could reach** (F1 with each page's best reading chosen knowing its gold text)"
)


def table_after(text: str, title: str) -> list[str]:
    """The lines of the Markdown table that follows ``title`` in ``text``."""
    lines = text.splitlines()
    start = lines.index(title) + 1
    while start < len(lines) and not lines[start].strip():
        start += 1
    table = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        table.append(line)
    return table


def test_the_table_reader_takes_only_the_table_after_its_title() -> None:
    text = f"intro\n{TITLE}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nafter\n| x |"
    assert table_after(text, TITLE) == ["| a | b |", "|---|---|", "| 1 | 2 |"]


@pytest.mark.parametrize("title", [TITLE, CEILINGS])
def test_readme_quotes_the_wcxb_tables_of_unseen_pages_as_the_bench_wrote_them(title: str) -> None:
    bench = table_after((REPO / "bench" / "results.md").read_text(), title)
    readme = table_after((REPO / "README.md").read_text(), title)
    assert len(bench) > 2
    assert readme == bench
