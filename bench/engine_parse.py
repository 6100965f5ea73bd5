"""What each engine's ``response()`` costs per character it hands SearXNG, in-process.

Both engines read the same part-1 corpus answers (bench/brave_corpus.py) as parsed JSON, one
after the other in turns, so a busy machine slows both alike; the figure is CPU time per
character of title and content out. Upstream's braveapi passes only the description on, ours
the description, the extra snippets and a date, so per character is the fair unit.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from dataclasses import dataclass
from typing import Any

from bench import brave_corpus
from serve import stack

ROUNDS = 5


class CorpusResponse:
    """The part of SearXNG's response both engines read: status, headers and the JSON."""

    def __init__(self, answer: dict[str, Any]) -> None:
        self.status_code = 200
        self.headers: dict[str, str] = {}
        self._answer = answer

    def json(self) -> dict[str, Any]:
        return self._answer


@dataclass
class ParseCost:
    seconds: float
    characters: int

    @property
    def ns_per_character(self) -> float:
        return self.seconds * 1e9 / max(self.characters, 1)


def _ours() -> Any:
    spec = importlib.util.spec_from_file_location(
        "llmwebbrave_bench", stack.REPO / "engines" / "llmwebbrave.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(answers: list[dict[str, Any]] | None = None, rounds: int = ROUNDS) -> dict[str, ParseCost]:
    """{"ours": …, "upstream": …}: CPU seconds and characters out over ``rounds`` passes."""
    answers = answers or brave_corpus.build_answers()
    engines = {"ours": _ours(), "upstream": importlib.import_module("searx.engines.braveapi")}
    costs = {name: ParseCost(0.0, 0) for name in engines}
    for _ in range(rounds):
        for answer in answers:
            for name, engine in engines.items():
                started = time.process_time()
                results = list(engine.response(CorpusResponse(answer)))
                costs[name].seconds += time.process_time() - started
                costs[name].characters += sum(len(r.title) + len(r.content) for r in results)
    return costs
