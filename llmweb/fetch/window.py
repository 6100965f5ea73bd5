"""Paging: which slice of a long text one call returns, and where the next one starts; and
the bounded start of a field a page chose that is shown beside it (:func:`clip`). Pure."""

from __future__ import annotations

from llmweb.errors import InvalidInput

# Cut at the last paragraph or line break in the window's final fifth, so a window does
# not end mid-sentence; without one nearby, cut at a space, else exactly at max_chars.
_BOUNDARIES = ("\n\n", "\n", ". ", " ")


def cut_window(text: str, start: int, max_chars: int) -> tuple[str, int | None]:
    """``text`` from ``start``, at most ``max_chars`` long, and the start of the next window
    (None when this window reaches the end)."""
    check_window(start, max_chars)
    if start >= len(text) and start > 0:
        raise InvalidInput(
            f"start={start} is past the end: the text is {len(text)} characters long. "
            f"Call again with a start below {len(text)}, or with start=0 to read from the beginning."
        )
    end = start + max_chars
    if end >= len(text):
        return text[start:], None
    window = text[start:end]
    floor = max_chars * 4 // 5
    for boundary in _BOUNDARIES:
        cut = window.rfind(boundary, floor)
        if cut != -1:
            end = start + cut + len(boundary)
            break
    return text[start:end], end


def check_window(start: int, max_chars: int) -> None:
    """InvalidInput for a window that can never be cut, before anything is fetched."""
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 1:
        raise InvalidInput(f"max_chars must be a whole number of at least 1, not {max_chars!r}.")
    if isinstance(start, bool) or not isinstance(start, int) or start < 0:
        raise InvalidInput(f"start must be a whole number of 0 or more, not {start!r}.")


def clip(text: str, max_chars: int) -> str:
    """``text`` whole when it has at most ``max_chars`` characters, else its first ones and "…".

    For what a page chose that an answer shows beside its window (title, description,
    headings, notes): a 3.6 MB <h1> would otherwise come with every window of the page."""
    return text if len(text) <= max_chars else text[: max_chars - 1].rstrip() + "…"
