"""Windows over the page: dialogs, modals, pop-ups. Pure.

A page ships its pop-ups in its HTML, closed until a script opens them: a cookie consent,
a login or sign-up form, a cart, a region picker, a newsletter offer, a "republish this
article" box with a copy of the article. A reader sees them only on top of the page, never
as its text, and the page says what they are: ``role="dialog"`` or ``"alertdialog"``,
``aria-modal="true"``, or HTML's ``<dialog>`` without ``open``. trafilatura reads them as
any other block, and on a product page a shop's cart, account and lightbox windows were a
good part of the words the page's gold text lacks.

Removed here before trafilatura reads the page, unless one holds more than half of the
body's text: a page rendered inside a modal is the page itself. One hidden in its markup
(``style="display:none"``) goes whatever its size: a republish window holds the article
again, with its terms, and no reader sees it until a button opens it (WCXB dev's tuning part:
two pages, one 0.71 -> 0.98, the other unchanged; the check part and the article set hold
none). Removed after the page's text
was measured for the second opinion, the landing page and the item grid, whose shares were
set with it counted.

On WCXB dev (bench/wcxb.py, layer ``dialogs``) a dialog went on 199 of the tuning part's 998
pages; F1 by type with and without it, tuning part: product 0.6058 -> 0.6101, forum
0.8185 -> 0.8200, article 0.9424 -> 0.9425, listing 0.6933 -> 0.6921, collection, service and
documentation unchanged; check part: product 0.6698 -> 0.6779, article 0.9389 -> 0.9395,
service 0.7770 -> 0.7760, the others within 0.0005. Most pages change by nothing or a few
words; where one moves far, trafilatura chose another block as the page's main one without
the dialog beside it (a shop's product read from its heading, short, and jusText's second
opinion then read its reviews too).

Measured, not kept: a dialog over half the body dropped all the same when the page's ``<h1>``
is outside it (a consent window's vendor list beside a short thread): tuning part, one listing
0.941 -> 0.964 and a forum unchanged (its thread, without the window, read worse); check
part, listing 0.7289 -> 0.7286.
"""

from __future__ import annotations

from lxml.html import HtmlElement

from llmweb.fetch.html.hidden import DISPLAY_NONE
from llmweb.fetch.html.marks import Marked
from llmweb.fetch.html.sizes import SPACED_SIZE

_DIALOGS = Marked(  # found from their attributes (.marks)
    "/descendant::body/descendant::*",
    "@role[.='dialog' or .='alertdialog']",
    "@aria-modal[.='true']",
    "self::dialog[not(@open)]",
)
_MAX_SHARE = 0.5


def drop_dialogs(root: HtmlElement) -> int:
    """Remove the page's dialogs (the module's docstring); how many went.

    The tree is searched on every page: from the elements' attributes (.marks), the search
    costs less than the six substring searches of the raw HTML ("dialog", "aria-modal", each as
    pages spell them) that once ruled out the two pages in three of the article set that name no
    dialog (0.08 ms a page against 0.33 ms)."""
    found = _DIALOGS(root)
    if not found:
        return 0
    body = root.find("body")
    most = _MAX_SHARE * (SPACED_SIZE(body) if body is not None else 0)
    dropped = 0
    for dialog in found:
        if dialog.getparent() is None:
            continue  # within a dialog already dropped
        if SPACED_SIZE(dialog) > most and not DISPLAY_NONE.search(dialog.get("style") or ""):
            continue  # the page itself, unless hidden until opened: a copy of it to republish
        dialog.drop_tree()
        dropped += 1
    return dropped
