"""What a page carries in its embedded data, as readable text naming where it came from. Pure.

JSON-LD comes first, read for what each schema.org type means (:mod:`.schema_org`): it is
the subject the page declares. Framework state follows (:mod:`.app_state`), then YouTube's
player response; a text given once is not given again. :mod:`.payloads` finds and decodes
the data without running it, within one :class:`~.payloads.Budget` per page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lxml.html import HtmlElement

from llmweb.fetch.javascript.app_state import state_text
from llmweb.fetch.javascript.payloads import Budget, Payload, find_payloads
from llmweb.fetch.javascript.schema_org import read_json_ld
from llmweb.fetch.net.header_values import known_schema_type


@dataclass(frozen=True)
class Block:
    source: str  # where the text came from, e.g. "JSON-LD Recipe", "__NEXT_DATA__"
    text: str
    declared: bool  # schema.org data: the subject the page declares, fit to fill in a rendered page


@dataclass(frozen=True)
class EmbeddedText:
    blocks: tuple[Block, ...] = ()
    cut: tuple[str, ...] = ()  # what a bound stopped before it was read

    @property
    def text(self) -> str:
        return "\n\n".join(block.text for block in self.blocks)

    @property
    def sources(self) -> list[str]:
        return list(dict.fromkeys(block.source for block in self.blocks))


def read_embedded(
    root: HtmlElement, budget: Budget | None = None, *, declared_only: bool = False
) -> EmbeddedText:
    """The text of every payload of data in the page, JSON-LD first; with ``declared_only``,
    of its JSON-LD alone (the framework state is not decoded)."""
    budget = budget or Budget()
    payloads = find_payloads(root, budget, declared_only=declared_only)
    blocks: list[Block] = []
    seen: set[str] = set()
    for payload in sorted(payloads, key=lambda p: p.kind != "jsonld"):
        if budget.text_chars <= 0 or budget.expired():
            budget.cut.append(f"{payload.source} and what follows it")
            break
        if payload.kind == "jsonld":
            for thing in read_json_ld(payload.data, budget):
                lines = [line for line in thing.text.split("\n") if _normal(line) not in seen or not line]
                seen.update(_normal(line) for line in lines)
                if any(lines):
                    kind = known_schema_type(thing.kind)  # a type the page wrote: named only when known
                    source = f"JSON-LD {kind}" if kind else "JSON-LD"
                    blocks.append(Block(source, "\n".join(lines).strip(), True))
        elif payload.kind == "youtube":
            text = _youtube_text(payload.data)
            if text and _normal(text) not in seen:
                seen.add(_normal(text))
                blocks.append(Block(payload.source, text, False))
        else:
            paragraphs = state_text(payload.data, budget, seen, elements_only=payload.kind == "flight")
            if paragraphs:
                blocks.append(Block(payload.source, "\n\n".join(paragraphs), False))
    return EmbeddedText(tuple(blocks), tuple(budget.cut))


def _youtube_text(data: dict[str, Any]) -> str:
    """A YouTube video's title, channel, date and description from its player response."""
    details = data.get("videoDetails")
    if not isinstance(details, dict):
        return ""
    micro = data.get("microformat", {})
    micro = micro.get("playerMicroformatRenderer", {}) if isinstance(micro, dict) else {}
    lines = []
    if isinstance(details.get("title"), str):
        lines.append(f"Video: {details['title']}")
    if isinstance(details.get("author"), str):
        lines.append(f"Channel: {details['author']}")
    if isinstance(micro, dict) and isinstance(micro.get("publishDate"), str):
        lines.append(f"Published: {micro['publishDate'][:10]}")
    seconds = details.get("lengthSeconds")
    if isinstance(seconds, str) and seconds.isdigit():
        lines.append(f"Length: {int(seconds) // 60} min {int(seconds) % 60} s")
    description = details.get("shortDescription")
    if isinstance(description, str) and description.strip():
        lines += ["", description.strip()]
    return "\n".join(lines)


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


__all__ = ["Block", "Budget", "EmbeddedText", "Payload", "read_embedded"]
