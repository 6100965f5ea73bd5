"""A disclosure's collapsed panels shown, as a reader who opens them sees them. Pure.

An accordion (a FAQ's answers, a guide's steps) or a "Read more" keeps its panels in the page,
hidden (``style="display:none"``, ``hidden``, ``aria-hidden="true"``) until the reader presses
the control that names them in its ``aria-controls``: a button, or an element with
``aria-expanded`` (WAI-ARIA's disclosure and accordion patterns). trafilatura drops every hidden
element, so a guide written as an accordion was read as its step titles alone. Dialogs are
dropped before (.dialogs). WCXB dev's tuning part: fired on 14 pages, changed one (a solar
installation guide's steps, 0.37 -> 0.95); the check part's services +0.09 summed, no page type
down; the article set unchanged.

A tab set of code (a command for each package manager, an example in each language) keeps its
other tabs' panels in the page the same way, hidden until their tab is chosen, and they are the
page's text: a reader picks the one for their tool (:func:`show_code_tabs`).
"""

from __future__ import annotations

from lxml.html import HtmlElement

from llmweb.fetch.html.hidden import DISPLAY_NONE, VISIBILITY_HIDDEN, is_hidden
from llmweb.fetch.html.marks import Marked

# found from their attributes (.marks); cheaper than the search of the raw HTML for
# "aria-controls" that once ruled pages out before it
_CONTROLS = Marked("/descendant::*", "@aria-controls")
_NAMED = Marked("/descendant::*", "@id")
_TAB_PANELS = Marked("/descendant::*", "@role[.='tabpanel']")


def open_panels(root: HtmlElement) -> bool:
    """Show the hidden elements that a control (a button, or an element with ``aria-expanded``)
    names in ``aria-controls``; True if one was shown."""
    named = {
        name
        for control in _CONTROLS(root)
        if _is_control(control)
        for name in control.get("aria-controls", "").split()
    }
    if not named:
        return False
    shown = False
    for el in _NAMED(root):
        if el.get("id") not in named:
            continue
        style = el.get("style") or ""
        if el.get("hidden") is None and el.get("aria-hidden") != "true" and not DISPLAY_NONE.search(style):
            continue
        el.attrib.pop("hidden", None)
        el.attrib.pop("aria-hidden", None)
        if style:
            el.set("style", DISPLAY_NONE.sub("", style))
        shown = True
    return shown


def _is_control(el: HtmlElement) -> bool:
    return el.get("aria-controls") is not None and (
        el.get("aria-expanded") is not None or el.get("role") == "button" or el.tag == "button"
    )


# A tab set's hidden panel that holds a code block: the same code for another tool or language
# (npm, yarn, pnpm; curl, Python, Node.js). Starlight, Docusaurus, Sphinx's tabs and React Aria
# write WAI-ARIA's tab pattern, a panel's role "tabpanel", hidden until its tab is chosen, and
# trafilatura drops hidden elements, so a page read one tool's command alone. WCXB's gold holds
# the panels of code, not those of prose: WCXB dev's tuning part has 21 hidden panels of code on
# 4 pages, 18 in the gold text (3 of a service's feature tour, whose panels show code, are not),
# and 46 hidden panels of prose on 14 pages (slides, FAQs, feature tours), 6 in the gold text.
# Shown: 3 pages changed, all up (a Terraform reference 0.971 -> 0.983, an API's code samples
# 0.801 -> 0.948, the tour 0.674 -> 0.681); the check part's documentation 0.9056 -> 0.9278.
def show_code_tabs(root: HtmlElement) -> bool:
    """Show the hidden tab panels (``role="tabpanel"``) that hold a code block (``<pre>``); True
    if one was shown."""
    shown = False
    for el in _TAB_PANELS(root):
        if is_hidden(el) and el.find(".//pre") is not None:
            el.attrib.pop("hidden", None)
            el.attrib.pop("aria-hidden", None)
            style = el.get("style")
            if style:
                el.set("style", VISIBILITY_HIDDEN.sub("", DISPLAY_NONE.sub("", style)))
            shown = True
    return shown
