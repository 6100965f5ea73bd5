"""Text encoded twice over in UTF-8, put back as it was written. Pure.

A page whose UTF-8 bytes were once read as Windows-1252 or Latin-1 and written out as UTF-8
again (by a database, a plugin or an editor that took them for one) shows each character past
ASCII as two to four: "it’s" as "itâ€™s" (read as Windows-1252) or as "itâ" + two invisible C1
controls + "s" (read as Latin-1), "©" as "Â©", "é" as "Ã©", a Russian word as "Ð¿Ñ€Ð¸…". The
bytes are valid UTF-8, so the decoder (:mod:`.content`) cannot tell; the text can. A model reads
"it’s" and a query finds it; "itâ€™s" neither.

Such a run is the character of a UTF-8 lead byte followed by as many characters of continuation
bytes as that lead asks, and it is put back by encoding it again and decoding it as UTF-8. But
ordinary text writes some of them: French sets a no-break space before its closing guillemet
("été\\xa0»", an "é" and two continuations), Portuguese may end a capital "Ã" before a quote. So a
text is repaired only when it shows one of the two signatures no language writes, and which a
text written twice over all but always holds: a quotation mark, apostrophe, dash or ellipsis
(U+2000-U+203F: "â€™", "â€”") or a no-break space ("Â\\xa0"). Every run of such a text is then
decoded, since all of its characters past ASCII were written twice; a run is left as it is when
it is no UTF-8 or decodes to C1 controls. What is lost: a text about mojibake that quotes it
("â€™" for "’") reads its quotes decoded.

WCXB dev (bench/wcxb.py): 28 of its 1,497 texts as web_fetch reads them hold a possible run, 25
of them a signature (some saved so by WCXB's crawl: the Rust book's "computerâ\\x80\\x99s");
every run there decodes to the character meant. The word F1 moves little (tuning part +0.10 over
20 pages, 5 of them down where the gold keeps the runs too; check part +0.02 over 5), since a run
costs only the word it sits in; the bench's part scores read_html_page's texts, before this
repair. It runs once a page, on the text: 0.1 ms a page there.
"""

from __future__ import annotations

import re

# Windows-1252's characters for the bytes 0x80-0x9F (the five it leaves undefined are read as
# Latin-1's C1 controls, like the rest of that range), by byte
_WINDOWS_1252 = {
    bytes([b]).decode("cp1252"): b for b in range(0x80, 0xA0) if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)
}
_CONTINUATION = "[\x80-\xbf" + "".join(_WINDOWS_1252) + "]"
_RUN = re.compile(
    f"(?:[\xc2-\xdf]{_CONTINUATION}|[\xe0-\xef]{_CONTINUATION}{{2}}|[\xf0-\xf4]{_CONTINUATION}{{3}})+"
)
# U+2000-U+203F (E2 80 xx) read as Windows-1252 or Latin-1, or a no-break space (C2 A0)
_SIGNATURE = re.compile(f"â[\x80€]{_CONTINUATION}|Â\xa0")
_C1_CONTROLS = re.compile("[\x80-\x9f]")


def repair_mojibake(text: str) -> str:
    """``text`` with each run of UTF-8 read as Windows-1252 or Latin-1 decoded as UTF-8 again,
    when the text shows it was written twice over (the module's docstring)."""
    return _RUN.sub(_decoded, text) if _SIGNATURE.search(text) else text


def _decoded(match: re.Match[str]) -> str:
    run = match.group(0)
    try:
        meant = bytes(_WINDOWS_1252.get(c, ord(c)) for c in run).decode("utf-8")
    except UnicodeDecodeError:  # not UTF-8 after all: the text's own characters
        return run
    return run if _C1_CONTROLS.search(meant) else meant
