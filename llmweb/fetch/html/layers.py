"""Which of web_fetch's layers above trafilatura run, as data: a switch for each. Pure.

:func:`llmweb.fetch.html.extract.read_html_page` takes a :class:`Layers` (default: all on) and
reports in ``ExtractedPage.fired`` the layers that changed its answer, so the bench
(bench/wcxb.py) can score each layer on the pages where it fires, with and without it,
without patching the code it measures.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class Layers:
    code_labels: bool = True  # a code block's label naming its language dropped: its fence says it
    manual: bool = True  # a documentation page's main region read whole (.manual)
    promotions: bool = True  # "Related stories" and newsletter calls dropped (.promotions)
    small_print: bool = True  # disclosures and disclaimers its class names mark dropped (.notices)
    author_bios: bool = True  # the author's biography below the text dropped (.bios)
    trailing: bool = True  # blocks after an article's body, beside its paragraphs' container (.trailing)
    contents: bool = True  # an article's table of contents, links to its own sections, dropped (.contents)
    interleaved: bool = True  # headings, lists, tables dropped between kept paragraphs (.interleaved)
    between: bool = True  # headings and lists between two paragraphs read side by side put back (.between)
    sections: bool = True  # a section's body dropped under its kept heading put back (.sections)
    boxes: bool = True  # boxes of prose dropped as furniture between kept paragraphs (.interleaved)
    faq: bool = True  # an article's declared FAQ answers the reading lost put back (.faq)
    panels: bool = True  # an accordion's collapsed panels shown (.panels)
    code_tabs: bool = True  # a tab set's hidden panels of code shown (.panels)
    streamed: bool = True  # a streamed page's hidden parts moved to their placeholders (.streamed)
    dialogs: bool = True  # dialogs, modals and pop-ups dropped (.dialogs)
    reviews: bool = True  # a product's run of customer reviews dropped (.reviews)
    full_reading: bool = True  # trafilatura's full reading of a short fast one Readability outreads
    second_opinion: bool = True  # jusText's reading when trafilatura's fast reading is short
    joined_opinion: bool = True  # a product's short reading and jusText's that passes over it, joined
    carousels: bool = True  # a main region's lists of priced links left links: other products (.carousels)
    screen_reader: bool = True  # words for screen readers only dropped, outside the chrome (.hidden)
    item_list: bool = True  # a listing's repeated items read as a list, a line each (.listing)
    toolbar: bool = True  # a listing's count, sort order and filter chips above its items dropped (.listing)
    headlines: bool = True  # a page of linked headlines: their links made text (.listing)
    thread_posts: bool = True  # a thread read post by post from its microdata, with author lines (.posts)
    thread_json_ld: bool = True  # a thread read post by post from the posts its JSON-LD lists (.posts)
    card_fields: bool = True  # the statistics fields of a forum's poster cards dropped (.cards)
    signatures: bool = True  # the posters' signatures under a thread's posts dropped (.cards)
    author_lines: bool = True  # an unmarked thread's posts under their author lines (.author_lines)
    post_run: bool = True  # a thread's other posts beside the one trafilatura read (.post_run)
    quiet_forms: bool = True  # a form that asks for nothing read as the text it holds (.forms)
    thread_replies: bool = True  # a forum's or Q&A page's replies joined to its first post (.threads)
    loose_text: bool = True  # loose text between <br>s in a block made paragraphs (.loose)
    continuation: bool = True  # an article body split over containers joined (.continuation)
    whole_page: bool = True  # every visible line when the extraction is shorter than MIN_TEXT_CHARS
    landing: bool = True  # a landing page of sections read whole when the reading kept a small part
    title_heading: bool = True  # a first heading repeating the title or the head's name dropped
    closing_heading: bool = True  # a last heading with next to nothing under it dropped
    repeats: bool = True  # a long paragraph said again later in the reading dropped (a copy of the text)
    fill: bool = True  # the visible text filled in from embedded data (.shell "visible" + sources)
    embedded: bool = True  # the visible text replaced by embedded data (.shell "embedded")
    description: bool = True  # the page answered with its meta description (.shell "description")
    furniture: bool = True  # NoReadableText for a page of site furniture only (.shell "chrome")
    noscript: bool = True  # a shell read from what it shows a browser without scripts (<noscript>)
    javascript: bool = True  # NeedsJavaScript for a shell scripts fill in (.shell "shell"/"chrome")


ALL_LAYERS = Layers()
LAYER_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Layers))


def without(name: str) -> Layers:
    """Every layer on but ``name``."""
    return replace(ALL_LAYERS, **{name: False})
