"""Brave web-search answers built from the documented shape (shared notes/brave-api.md).

Seeded, so every run and both engines read the same answers. The text is real prose:
excerpts of the article set's reference texts when shared/ is there (several excerpts of
one article per result, as Brave excerpts one page), else word-like filler. The shapes
follow what recorded real answers showed; nothing here is adjusted to reach a target.
"""

from __future__ import annotations

import datetime
import html
import json
import math
import random
import re
from typing import Any

from bench.paths import articles_dir

SEED = 6
"""The issue number; any fixed value would do."""
ANSWERS = 60
RESULTS_PER_ANSWER = 20  # what both engines ask for (count=20)

DESCRIPTION_MEAN, DESCRIPTION_MAX = 200, 460
SNIPPET_MEAN, SNIPPET_MAX = 230, 800
MIN_EXCERPT = 40
SNIPPETS_MAX, SNIPPET_P = 5, 0.58  # binomial: 0–5 extra snippets, 2.9 on average
DUPLICATE_SHARE = 1 / 3  # results with extras where one snippet repeats the description
STRONG_SHARE = 0.8  # descriptions with <strong> highlight markup ("most")
PAGE_AGE_MISSING = 1 / 3
AGE_SHAPES = (("absolute", 0.6), ("relative", 0.25), ("absent", 0.15))
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def describe() -> str:
    source = (
        "excerpts of the reference texts of the article set (real English prose)"
        if articles_dir()
        else "word-like filler (shared/bench/articles is missing)"
    )
    return (
        f"{ANSWERS} answers × {RESULTS_PER_ANSWER} web results, seed {SEED}, text from {source}; "
        f"description lengths log-normal with mean {DESCRIPTION_MEAN} characters cut at {DESCRIPTION_MAX}, "
        f"extra snippets log-normal with mean {SNIPPET_MEAN} cut at {SNIPPET_MAX}, "
        f"Binomial({SNIPPETS_MAX}, {SNIPPET_P}) of them per result (mean {SNIPPETS_MAX * SNIPPET_P:.1f}), "
        f"one snippet repeating the description in {DUPLICATE_SHARE:.0%} of results with extras; "
        f"<strong> markup in {STRONG_SHARE:.0%} of descriptions and HTML entities for quotes and ampersands; "
        f"page_age missing in {PAGE_AGE_MISSING:.0%}; age 'Month D, YYYY' / relative / absent "
        f"{' / '.join(f'{share:.0%}' for _, share in AGE_SHAPES)}"
    )


# --- text sources -----------------------------------------------------------------------


def _article_paragraphs() -> list[list[str]]:
    """Each article's sentences, from the article set's ground truth."""
    folder = articles_dir()
    if folder is None:
        return []
    truth = json.loads((folder / "ground-truth.json").read_text())
    articles = []
    for key in sorted(truth):
        body = truth[key].get("articleBody") or ""
        sentences = [" ".join(s.split()) for s in re.split(r"(?<=[.!?])\s+", body) if len(s.split()) >= 3]
        if len(" ".join(sentences)) >= 2 * SNIPPET_MAX:
            articles.append(sentences)
    return articles


def _filler_articles(rng: random.Random, count: int = 80) -> list[list[str]]:
    onsets = [
        "b",
        "c",
        "d",
        "f",
        "g",
        "h",
        "j",
        "k",
        "l",
        "m",
        "n",
        "p",
        "r",
        "s",
        "t",
        "v",
        "w",
        "st",
        "tr",
        "pl",
        "gr",
        "ch",
        "sh",
        "th",
    ]
    vowels = ["a", "e", "i", "o", "u", "ea", "ou", "ai", "io"]
    vocab = [
        "".join(rng.choice(onsets) + rng.choice(vowels) for _ in range(rng.choice((1, 2, 2, 3))))
        for _ in range(3000)
    ]
    weights = [1 / (rank + 1) for rank in range(len(vocab))]  # Zipf, as word frequencies go
    articles = []
    for _ in range(count):
        sentences = []
        for _ in range(60):
            words = rng.choices(vocab, weights, k=rng.randint(8, 25))
            sentences.append(" ".join(words).capitalize() + rng.choice(".....?!"))
        articles.append(sentences)
    return articles


def _excerpt(rng: random.Random, sentences: list[str], length: int) -> str:
    """Consecutive sentences from a random place, cut at a word boundary near ``length``."""
    start = rng.randrange(len(sentences))
    text = ""
    for sentence in sentences[start:] + sentences[:start]:
        text = f"{text} {sentence}".strip()
        if len(text) >= length:
            break
    if len(text) > length:
        text = (
            text[: text.rfind(" ", 0, length + 1)].rstrip(" ,;:") if " " in text[:length] else text[:length]
        )
    return text


def _length(rng: random.Random, mean: int, maximum: int, sigma: float) -> int:
    mu = math.log(mean) - sigma**2 / 2  # a log-normal with this mean
    return max(MIN_EXCERPT, min(maximum, round(rng.lognormvariate(mu, sigma))))


# --- result fields ----------------------------------------------------------------------


def _highlighted(rng: random.Random, text: str) -> str:
    """Brave's description markup: entities for quotes and ampersands, <strong> around query words."""
    words = html.escape(text, quote=True).split(" ")
    if rng.random() < STRONG_SHARE and len(words) > 3:
        for i in rng.sample(range(len(words)), k=min(len(words), rng.randint(1, 3))):
            words[i] = f"<strong>{words[i]}</strong>"
    return " ".join(words)


def _dates(rng: random.Random) -> dict[str, str]:
    published = datetime.date(2014, 1, 1) + datetime.timedelta(days=rng.randrange(12 * 365))
    fields: dict[str, str] = {}
    if rng.random() >= PAGE_AGE_MISSING:
        clock = (
            "00:00:00"
            if rng.random() < 0.5
            else f"{rng.randrange(24):02}:{rng.randrange(60):02}:{rng.randrange(60):02}"
        )
        fields["page_age"] = f"{published.isoformat()}T{clock}"
    shape = rng.choices([s for s, _ in AGE_SHAPES], [w for _, w in AGE_SHAPES])[0]
    if shape == "absolute":
        fields["age"] = f"{MONTHS[published.month - 1]} {published.day}, {published.year}"
    elif shape == "relative":
        n, unit = rng.choice(
            ((rng.randint(1, 23), "hour"), (rng.randint(1, 6), "day"), (rng.randint(1, 3), "week"))
        )
        fields["age"] = f"{n} {unit}{'s' if n > 1 else ''} ago"
    return fields


def _result(rng: random.Random, sentences: list[str], answer: int, index: int) -> dict[str, Any]:
    description = _excerpt(rng, sentences, _length(rng, DESCRIPTION_MEAN, DESCRIPTION_MAX, 0.4))
    snippets = [
        _excerpt(rng, sentences, _length(rng, SNIPPET_MEAN, SNIPPET_MAX, 0.5))
        for _ in range(sum(rng.random() < SNIPPET_P for _ in range(SNIPPETS_MAX)))
    ]
    if snippets and rng.random() < DUPLICATE_SHARE:
        snippets[rng.randrange(len(snippets))] = description
    title = _excerpt(rng, sentences, rng.randint(30, 70)).rstrip(".!?")
    site = re.sub(r"\W", "", title.split(" ")[0].lower()) or "site"
    host = f"www.{site}{answer}x{index}.example"
    slug = "-".join(re.sub(r"\W", "", w.lower()) for w in title.split()[:5])
    result: dict[str, Any] = {
        "type": "search_result",
        "subtype": "generic",
        "title": title,
        "url": f"https://{host}/articles/{slug}",
        "description": _highlighted(rng, description),
        "is_source_local": False,
        "is_source_both": False,
        "family_friendly": True,
        "language": "en",
        "profile": {"name": site.title(), "long_name": host, "url": f"https://{host}", "img": ""},
        "meta_url": {
            "scheme": "https",
            "netloc": host,
            "hostname": host,
            "favicon": f"https://imgs.search.brave.com/{answer}/{index}/favicon.png",
            "path": "› articles  › " + (title.split()[0].lower() if title else "page"),
        },
        **_dates(rng),
    }
    if snippets:
        result["extra_snippets"] = snippets
    if rng.random() < 0.4:
        result["thumbnail"] = {
            "src": f"https://imgs.search.brave.com/thumb/{answer}/{index}.jpg",
            "original": f"https://{host}/images/{index}.jpg",
            "logo": rng.random() < 0.2,
        }
    return result


def build_answers(
    seed: int = SEED, answers: int = ANSWERS, results: int = RESULTS_PER_ANSWER
) -> list[dict[str, Any]]:
    """Brave answers in the documented shape, the same for the same seed."""
    rng = random.Random(seed)
    articles = _article_paragraphs() or _filler_articles(rng)
    built = []
    for answer in range(answers):
        items = [_result(rng, rng.choice(articles), answer, index) for index in range(results)]
        built.append(
            {
                "type": "search",
                "query": {"original": f"bench query {answer}", "more_results_available": True},
                "mixed": {
                    "type": "mixed",
                    "main": [{"type": "web", "index": i, "all": False} for i in range(results)],
                },
                "web": {"type": "search", "family_friendly": True, "results": items},
            }
        )
    return built
