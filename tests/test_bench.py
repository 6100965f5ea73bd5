"""The bench's pure scoring, on inputs small enough to check by hand. No timings here, ever."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench import docs_corpus, extraction, floors, scoring
from bench.extractors import Extractor
from bench.report import MISSING
from testbed.fake_brave import answer_index


def test_identical_texts_score_one() -> None:
    counts = scoring.match_counts("the quick brown fox jumps over", "the quick brown fox jumps over")
    assert scoring.scores([counts]) == (1.0, 1.0, 1.0)


def test_shingles_are_runs_of_four_word_tokens() -> None:
    assert list(scoring.shingles("a b c d e", 4)) == [("a", "b", "c", "d"), ("b", "c", "d", "e")]


def test_a_text_shorter_than_a_shingle_is_one_shingle() -> None:
    assert list(scoring.shingles("only two", 4)) == [("only", "two")]


def test_punctuation_and_spacing_do_not_count() -> None:
    assert scoring.tokenize("Hello,  world!\n(again)") == ["Hello", "world", "again"]


def test_extra_text_lowers_precision_not_recall() -> None:
    counts = scoring.match_counts("a b c d e", "a b c d e f g h", n=1)
    assert counts == pytest.approx((5 / 8, 3 / 8, 0.0))
    precision, recall, f1 = scoring.scores([counts])
    assert (precision, recall) == pytest.approx((5 / 8, 1.0))
    assert f1 == pytest.approx(2 * (5 / 8) / (5 / 8 + 1))


def test_missing_text_lowers_recall_not_precision() -> None:
    precision, recall, _ = scoring.scores([scoring.match_counts("a b c d", "a b", n=1)])
    assert (precision, recall) == pytest.approx((1.0, 0.5))


def test_pages_are_averaged_whatever_their_length() -> None:
    short = scoring.match_counts("a b", "a b", n=1)  # perfect
    long = scoring.match_counts(" ".join(f"w{i}" for i in range(100)), "", n=1)  # nothing found
    precision, recall, _ = scoring.scores([short, long])
    assert precision == 1.0  # the empty prediction has no precision to average
    assert recall == pytest.approx(0.5)


def test_f1_is_the_harmonic_mean_of_the_mean_precision_and_recall() -> None:
    pages = [
        scoring.match_counts("a b c d", "a b c d x y z w", n=1),
        scoring.match_counts("a b c d", "a b", n=1),
    ]
    precision, recall, f1 = scoring.scores(pages)
    assert (precision, recall) == pytest.approx(((0.5 + 1.0) / 2, (1.0 + 0.5) / 2))
    assert f1 == pytest.approx(0.75)


def test_nothing_predicted_for_an_empty_truth_scores_zero_counts() -> None:
    assert scoring.match_counts("", "") == (0.0, 0.0, 0.0)


def test_code_block_survives_respacing_but_not_exactly() -> None:
    block = "def f(x):\n    return x\n"
    respaced = "Intro\n\ndef f(x): return x\n\nOutro"
    assert scoring.block_survives_normalised(block, respaced)
    assert not scoring.block_survives_exact(block, respaced)


def test_code_block_survives_exactly_with_indentation_and_no_break_spaces() -> None:
    block = "fn f() {\n\xa0\xa0\xa0\xa0g();\n}"
    text = "Text\n```\nfn f() {\n    g();\n}\n```"
    assert scoring.block_survives_exact(block, text)
    assert scoring.lines_found_exact(block, text) == (3, 3)


def test_lost_indentation_loses_exact_lines() -> None:
    assert scoring.lines_found_exact("if x:\n    y()\n", "if x:\ny()") == (1, 2)


def test_percentile_interpolates_between_ranks() -> None:
    assert scoring.percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert scoring.percentile([10.0], 95) == 10.0


def test_extractors_read_side_by_side_keep_each_text_with_its_page() -> None:
    pages = [extraction.Page(f"p{n:02}", "", f"<p>page {n}</p>", "") for n in (7, 3, 9, 1, 5, 8, 2)]
    upper = Extractor("upper (test)", "", lambda html, url: html.upper())

    def fails_on_nine(html: str, url: str) -> str:
        if "9" in html:
            raise ValueError("nine")
        return html[::-1]

    flips = Extractor("flips (test)", "", fails_on_nine, sample=4)
    extraction.run_side_by_side([upper, flips], pages)
    read_up = extraction.run_extractor(upper, pages)
    read_flipped = extraction.run_extractor(flips, pages)
    assert read_up.texts == [p.html.upper() for p in read_up.pages]
    assert len(read_flipped.pages) == 4
    assert read_flipped.texts == ["" if "9" in p.html else p.html[::-1] for p in read_flipped.pages]
    assert read_flipped.failures == sum("9" in p.html for p in read_flipped.pages)


def test_fake_brave_picks_the_answer_by_the_last_number_in_the_query() -> None:
    assert answer_index("bench query 17", 60) == 17
    assert answer_index("load query 125 words", 60) == 5


def test_a_query_without_a_number_gets_the_same_answer_in_every_process() -> None:
    # both engines' SearXNG processes and the bench must agree, whatever PYTHONHASHSEED is
    queries = [f"query about {word}" for word in ("rust", "python", "pogoda", "valkey", "brave", "kurs")]
    here = [answer_index(q, 60) for q in queries]
    code = f"from testbed.fake_brave import answer_index; print([answer_index(q, 60) for q in {queries!r}])"
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parent.parent,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert done.stdout.strip() == str(here)
    assert len(set(here)) > 3, "queries without numbers spread over the answers"


def test_a_figure_below_its_floor_is_named() -> None:
    bounds = {"docs": {"f1": {"min": 0.97}, "code_blocks_exact": {"min": 0.99}}}
    failures = floors.check({"docs": {"f1": 0.96, "code_blocks_exact": 1.0}}, bounds)
    assert failures == ["docs.f1 = 0.96, below its floor 0.97"]


def test_a_figure_above_its_ceiling_is_named() -> None:
    failures = floors.check(
        {"spend": {"cache_hit_p50_ms": 80.0}}, {"spend": {"cache_hit_p50_ms": {"max": 50}}}
    )
    assert failures == ["spend.cache_hit_p50_ms = 80, above its ceiling 50"]


def test_a_figure_the_run_could_not_measure_fails_its_ceiling() -> None:
    failures = floors.check(
        {"fetch": {"hostile_peak_mb": MISSING}}, {"fetch": {"hostile_peak_mb": {"max": 150}}}
    )
    assert failures == ["fetch.hostile_peak_mb: not measured in this run (floor {'max': 150})"]


def test_a_part_that_did_not_run_is_not_checked_but_a_missing_figure_fails() -> None:
    bounds = {"docs": {"f1": {"min": 0.97}}, "extraction": {"article_f1": {"min": 0.95}}}
    assert floors.check({"docs": {}}, bounds) == ["docs.f1: not measured (floor {'min': 0.97})"]


def test_the_shipped_floors_name_only_figures_the_parts_record() -> None:
    recorded = set()
    slugs = [doc_set.slug for doc_set in docs_corpus.DOC_SETS]
    for source in (Path(__file__).resolve().parent.parent / "bench").glob("*.py"):
        recorded |= set(re.findall(r"""\.figure\(\s*["'](\w+)["']""", source.read_text()))
        # one figure per documentation generator: f"f1_{doc_set.slug}"
        for before, after in re.findall(
            r"""\.figure\(\s*f["'](\w*)\{doc_set\.slug\}(\w*)["']""", source.read_text()
        ):
            recorded |= {f"{before}{slug}{after}" for slug in slugs}
    shipped = {name for figures in floors.load().values() for name in figures}
    assert shipped <= recorded, shipped - recorded
