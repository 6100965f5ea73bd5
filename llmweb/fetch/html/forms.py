"""Forms that ask for nothing, read as the text they hold. Pure.

trafilatura deletes every ``<form>`` as a widget (a search box, a login, a newsletter call)
unless one form holds most of the page. Some threads write each post's message inside a form
of its own, the form its author edits it through: the message is shown, the form's only
fields are hidden (old Reddit's comments: ``<form><input type=hidden><div>message</div></form>``),
and trafilatura kept every comment's header line and none of the comments. A form with no
field a reader fills in or chooses from (no text box, no list, no check box: hidden fields and
buttons only) asks for nothing; what it holds is the page's text as much as any ``<div>``, and
it is read as one.

WCXB's dev split measures it (bench/wcxb.py, layer ``quiet_forms``). On the tuning part it
opens forms on 12 of 998 pages and changes the reading of 3: an old Reddit thread 0.215 ->
0.825, two Amazon products 0.003 lower each (forum 0.821 -> 0.828); on the check part, in
aggregate, 14 pages, 2 services gained (+0.070 each on average), the rest unchanged. Without
the link share, a shop's "compare" form around its product grid came back (a collection 0.995
-> 0.519).
"""

from __future__ import annotations

from lxml.html import HtmlElement

from llmweb.fetch.html.sizes import link_text_size

# input types that ask nothing of the reader: a hidden value, a button
_SILENT_INPUTS = frozenset({"hidden", "submit", "button", "image", "reset"})
# a message: the form holds at least this many characters of text (spaces left out), more
# than a button row's labels
MIN_TEXT_CHARS = 40
# …mostly its own words: a form whose text is mostly links is a listing's cards (a shop's
# "compare" form around its product grid), which trafilatura's deletion served
LINK_SHARE = 0.5


def open_quiet_forms(root: HtmlElement) -> bool:
    """Turn each form that asks for nothing and holds text into a ``<div>``; whether any was."""
    opened = False
    for form in list(root.iter("form")):
        if not _asks_nothing(form):
            continue
        chars = len("".join(form.text_content().split()))
        if chars >= MIN_TEXT_CHARS and link_text_size(form) < LINK_SHARE * chars:
            form.tag = "div"
            opened = True
    return opened


def _asks_nothing(form: HtmlElement) -> bool:
    for el in form.iter("input", "textarea", "select"):
        if el.tag != "input" or (el.get("type") or "text").strip().lower() not in _SILENT_INPUTS:
            return False
    return True
