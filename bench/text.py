"""Part 1: text per result. Our engine and upstream's braveapi read the same Brave answers
through the same SearXNG; what reaches the client is measured, not what the engines hold."""

from __future__ import annotations

import html
import re
from pathlib import Path
from statistics import mean
from typing import Any

import httpx

from bench import brave_corpus, deployment
from bench.report import PartResult, table
from bench.tokens_count import count_tokens, tokenizer_name
from llmweb.search import SEARXNG_HEADERS

SHOWN = 10  # a model client's usual page of results


def _plain(text: str) -> str:
    return " ".join(html.unescape(re.sub(r"</?strong>", "", text)).split())


def _model_view(results: list[dict[str, Any]]) -> str:
    """The results as a model reads them from a search tool: title, URL, text."""
    return "\n\n".join(f"{r['title']}\n{r['url']}\n{r.get('content') or ''}" for r in results)


def search_all(base: str, engine: str, count: int) -> list[list[dict[str, Any]]]:
    answers = []
    with httpx.Client(headers=SEARXNG_HEADERS, timeout=30) as http:
        for i in range(count):
            params = {"q": f"bench query {i}", "format": "json", "engines": engine}
            answer = http.get(base, params=params)
            answer.raise_for_status()
            data = answer.json()
            if data.get("unresponsive_engines"):
                raise RuntimeError(f"{engine} did not answer: {data['unresponsive_engines']}")
            answers.append(data["results"])
    return answers


def run(workdir: Path) -> PartResult:
    part = PartResult("text", "1. Text per result: our engine against upstream's braveapi")
    answers = brave_corpus.build_answers()
    rows = []
    figures: dict[str, tuple[float, float, float]] = {}
    with deployment.running(workdir, answers) as stack:
        for engine in deployment.ENGINES:
            got = search_all(stack.search_url(), engine, len(answers))
            contents = [r.get("content") or "" for results in got for r in results]
            chars = mean(len(c) for c in contents)
            content_tokens = mean(sum(count_tokens(r.get("content") or "") for r in rs[:SHOWN]) for rs in got)
            view_tokens = mean(count_tokens(_model_view(rs[:SHOWN])) for rs in got)
            figures[engine] = (chars, content_tokens, view_tokens)
            per_search = mean(len(rs) for rs in got)
            label = "ours (llmwebbrave)" if engine == deployment.OURS else "upstream braveapi"
            rows.append(
                (label, f"{chars:.0f}", f"{content_tokens:.0f}", f"{view_tokens:.0f}", f"{per_search:.0f}")
            )
            part.say(f"{label}: {chars:.0f} characters of content per result")

    items = [r for a in answers for r in a["web"]["results"]]
    description = mean(len(_plain(r.get("description", ""))) for r in items)
    everything = mean(
        len(_plain(r.get("description", ""))) + sum(len(s) for s in r.get("extra_snippets", []))
        for r in items
    )
    ours, upstream = figures[deployment.OURS], figures[deployment.UPSTREAM]
    part.add(
        f"Both engines answered the same {len(answers)} Brave answers through one SearXNG (engines= picks one); "
        f"figures are from SearXNG's JSON answer. Corpus: {brave_corpus.describe()}.",
        "",
        table(
            (
                "engine",
                "characters of content per result (mean)",
                f"tokens of content per {SHOWN}-result search",
                f"tokens per {SHOWN}-result search, title + URL + content",
                "results per search",
            ),
            rows,
        ),
        "",
        f"Ratio ours / upstream: **{part.figure('characters_ratio', ours[0] / upstream[0]):.2f}×** characters per result, "
        f"{ours[1] / upstream[1]:.2f}× content tokens per search. {tokenizer_name()}.",
        "",
        f"For reference, the Brave answers held {description:.0f} characters of description text per result "
        f"and {everything:.0f} with every extra snippet (duplicates included; our engine drops repeats and "
        "adds the date in front).",
    )
    return part
