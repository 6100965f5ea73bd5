"""trafilatura's XML tree → light markdown for a model. Pure.

trafilatura's own markdown escapes ``_``, ``*`` and ``[`` in prose (``initial\\_indent``),
which a model may copy into code. This renderer keeps headings, lists, tables and code
and writes text as it is. Element names are trafilatura's: head, p, list/item,
table/row/cell, quote, code, hi, lb, ref.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

_LINE_BREAK = "\u2028"  # marks <lb/> while whitespace is collapsed
_CODE_SPACE = "\ue000"  # a space inside inline code, which collapsing must not touch
_BLOCKS = frozenset({"p", "head", "list", "table", "quote", "div", "item", "row"})
_ONLY_MARKERS = re.compile(r"[\s>*+\-]*(\d+[.)])?\s*")
_HOLDS_CODE = "llmweb-holds-code"  # set on trafilatura's table cells that hold a code block


class CodeBlock(NamedTuple):
    code: str
    language: str = ""


class CodeBlocks(NamedTuple):
    """Code blocks taken out of a page; block ``i`` left the placeholder ``{marker}{i}x``,
    repeated (see extract._protect_code_blocks). ``marker`` occurs nowhere in a page with code
    blocks (a page without them is not searched for it: 12 random letters it cannot know)."""

    marker: str
    blocks: list[CodeBlock]

    def placeholder(self, index: int) -> str:
        return f"{self.marker}{index}x"

    def pattern(self) -> re.Pattern[str]:
        """One placeholder, or a run of the same one: group 1 is the block's index.

        One pattern for every block, so finding them is linear in the text. An alternation
        of the placeholders was tried at each position for each block: 60,000 blocks took
        40 s to restore, 120,000 over two minutes.
        """
        marker = re.escape(self.marker)
        return re.compile(rf"{marker}(\d+)x(?:\s+{marker}\1x)*")

    def found_in(self, text: str) -> set[int]:
        """The indices of the blocks whose placeholder survived in ``text``."""
        if not self.blocks:  # most pages: no pattern to build (a compile a page) nor text to scan
            return set()
        return {int(match.group(1)) for match in self.pattern().finditer(text)} & set(range(len(self.blocks)))


def render_markdown(body: Any, codes: CodeBlocks | None = None) -> str:
    """The blocks of a trafilatura body as markdown paragraphs separated by blank lines.

    ``codes``: the code blocks taken out of the page, so that a table holding one in a cell
    is rendered as blocks (a markdown table cell is one line, which flattened the code).
    """
    if body is None:
        return ""
    if codes is not None and codes.blocks:
        placeholder = codes.pattern()
        for cell in body.iter("cell"):
            if placeholder.search(_text(cell)):
                cell.set(_HOLDS_CODE, "1")
    return "\n\n".join(block for block in _flow(body) if block.strip())


def restore_code_blocks(text: str, codes: CodeBlocks) -> str:
    """Put each code block back where its placeholder ended up, verbatim and fenced."""
    if not codes.blocks:
        return text
    token = codes.pattern()
    chunks: list[str] = []
    lines: list[str] = []

    def block(match: re.Match[str]) -> CodeBlock | None:
        index = int(match.group(1))
        return codes.blocks[index] if index < len(codes.blocks) else None

    def flush() -> None:
        chunk = "\n".join(lines).strip("\n")
        if chunk.strip():
            chunks.append(chunk)
        lines.clear()

    for line in text.split("\n"):
        if not token.search(line):
            lines.append(line)
        elif line.lstrip().startswith("|"):  # inside a table row a block would break the table
            lines.append(token.sub(lambda m: _code_span(b.code) if (b := block(m)) else m.group(0), line))
        else:
            position = 0
            for match in token.finditer(line):
                found = block(match)
                if found is None:
                    continue
                before = line[position : match.start()]
                if before.strip() and not _ONLY_MARKERS.fullmatch(before):
                    lines.append(before.rstrip())
                flush()
                chunks.append(_fenced(found))
                position = match.end()
            if line[position:].strip():
                lines.append(line[position:].strip())
    flush()
    return "\n\n".join(chunks)


def _fenced(block: CodeBlock) -> str:
    longest = max((len(run) for run in re.findall(r"`+", block.code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{block.language}\n{block.code}\n{fence}"


def _code_span(code: str) -> str:
    flat = code.replace("\n", " ").strip()
    fence = "``" if "`" in flat else "`"
    return f"{fence}{flat}{fence}"


def _is_block(el: Any) -> bool:
    return el.tag in _BLOCKS or (el.tag == "code" and "\n" in _text(el).strip())


def _flow(el: Any) -> list[str]:
    """Blocks of an element whose children mix inline text and blocks."""
    blocks: list[str] = []
    run: list[str] = [el.text or ""]
    for child in el:
        if not isinstance(child.tag, str):
            run.append(child.tail or "")
        elif _is_block(child):
            blocks.append(_collapse("".join(run)))
            blocks += _block(child)
            run = [child.tail or ""]
        else:
            run += [_inline(child), child.tail or ""]
    blocks.append(_collapse("".join(run)))
    return [b for b in blocks if b]


def _block(el: Any) -> list[str]:
    if el.tag == "head":
        level = int(el.get("rend", "h2")[-1:]) if (el.get("rend") or "")[-1:].isdigit() else 2
        return [f"{'#' * min(max(level, 1), 6)} {' '.join(_flow(el))}"]
    if el.tag == "list":
        return [_list(el)]
    if el.tag == "table":
        return [_table(el)]
    if el.tag == "code":
        return [_fenced(CodeBlock(_text(el).strip("\n")))]
    if el.tag == "quote":
        return ["\n".join("> " + line if line else ">" for line in block.split("\n")) for block in _flow(el)]
    return _flow(el)


def _list(el: Any) -> str:
    ordered = el.get("rend") == "ol"
    lines: list[str] = []
    number = 0
    for item in el:
        if not isinstance(item.tag, str):
            continue
        blocks = _flow(item)
        if not blocks:
            continue
        if (item.get("rend") or "").startswith("dd"):
            marker = "  "  # a definition sits under its term
        else:
            number += 1
            marker = f"{number}. " if ordered else "- "
        pad = " " * len(marker)
        body = "\n".join(blocks).replace("\n", "\n" + pad)
        lines.append(marker + body)
    return "\n".join(lines)


def _table(el: Any) -> str:
    # its own rows: a table nested in a cell is that cell's content, not more rows of this one
    own = (row for row in el.iter("row") if next(row.iterancestors("table"), None) is el)
    grid = [[cell for cell in row if cell.tag == "cell"] for row in own]
    if any(_holds_block(cell) for row in grid for cell in row):
        return _table_as_blocks(grid)
    rows = []
    for row in grid:
        cells = [_cell(cell) for cell in row]
        if any(cells):
            rows.append(cells)
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    if width == 1:  # a one-column "table" is layout, not data
        return "\n".join(r[0] for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(r) + " |" for r in rows]
    lines.insert(1, "|" + " --- |" * width)
    return "\n".join(lines)


def _holds_block(cell: Any) -> bool:
    """A cell holding a code block, a list or a table, which a markdown table cell cannot hold."""
    return bool(cell.get(_HOLDS_CODE)) or any(
        child.tag in ("list", "table") or (child.tag == "code" and "\n" in _text(child).strip())
        for child in cell.iter()
        if child is not cell
    )


def _table_as_blocks(grid: list[list[Any]]) -> str:
    """A table whose cells hold blocks, row by row: each cell's blocks in turn, named by the
    column's heading when the table has a heading row ("Example:" before its code). Tables
    laid inside tables (Doxygen's signatures) come out as one table each."""
    headings: list[str] = []
    if grid and grid[0] and all(cell.get("role") == "head" for cell in grid[0]):
        headings = [" ".join(_flow(cell)) for cell in grid[0]]
        grid = grid[1:]
    rows = []
    for row in grid:
        parts: list[str] = []
        for index, cell in enumerate(row):
            blocks = _flow(cell)
            label = headings[index] if index < len(headings) else ""
            if not blocks:
                continue
            if label and len(blocks) == 1 and not _holds_block(cell):
                parts.append(f"{label}: {blocks[0]}")
            else:
                parts += [f"{label}:", *blocks] if label else blocks
        if parts:
            rows.append("\n\n".join(parts))
    return "\n\n".join(rows)


def _cell(cell: Any) -> str:
    return " ".join(" ".join(_flow(cell)).split()).replace("|", "\\|")


def _inline(el: Any) -> str:
    if el.tag == "lb":
        return _LINE_BREAK
    if el.tag == "code" or (el.tag == "hi" and el.get("rend") == "#t"):
        return _code_span(_text(el)).replace(" ", _CODE_SPACE) if _text(el).strip() else ""
    if el.tag == "graphic":
        return ""
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str):
            parts.append(" ".join(_block(child)) if _is_block(child) else _inline(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _text(el: Any) -> str:
    return "".join(el.itertext())


def _collapse(text: str) -> str:
    lines = (" ".join(part.split()) for part in text.split(_LINE_BREAK))
    return "\n".join(lines).strip().replace(_CODE_SPACE, " ")
