"""HTML → the page's main text as light markdown, with its title and stated date. Pure.

Three kinds of page are read three ways:

- **Threads** whose markup marks each post (:mod:`.posts`: schema.org microdata, or the
  posts its JSON-LD lists) are read post by post, in page order, each under its author line.
- **Manuals** (:mod:`.manual`: code in the page or a documentation generator's name, and
  not an article) whose main region is known, declared or found, are read whole: every
  visible block of the region is content, as a reader of the manual sees it.
- **Everything else** goes to trafilatura (F1 0.958 on the Zyte article benchmark) for its
  main content, after what it would delete anyway is removed (so it copies less),
  promotions are dropped (:mod:`.promotions`), and the links of a declared main region
  are made text; an article body split over containers of one kind is joined
  afterwards (:mod:`.continuation`), a thread's posts beside the one trafilatura read are
  added (:mod:`.post_run`) or its posts' author lines put back (:mod:`.author_lines`), and an
  article's headline is left to the title.

Either way each ``<pre>`` is swapped for a unique placeholder paragraph first and restored
verbatim afterwards (trafilatura collapses code's whitespace), and the tree is rendered
here (:mod:`.markdown`) without the backslash escapes trafilatura's markdown puts in prose.
Title and date come from :mod:`.metadata`.

Bot challenges are refused; for pages that JavaScript fills in, :func:`read_html_page` reads
the data the page embeds (:mod:`llmweb.fetch.javascript.embedded`) and lets :mod:`llmweb.fetch.javascript.shell` decide which text stands
for the page, or refuses an empty shell.
"""

from __future__ import annotations

import copy
import functools
import re
import secrets
import string
from itertools import islice
from typing import Any, NamedTuple

import justext
import lxml.html
import trafilatura
from lxml import etree
from lxml.html import HtmlElement
from trafilatura.external import jt_stoplist_init, try_readability
from trafilatura.settings import Extractor

from llmweb.errors import ChallengePage, NeedsJavaScript, NoReadableText
from llmweb.fetch.html.author_lines import signed_posts, with_author_lines
from llmweb.fetch.html.between import restore_between
from llmweb.fetch.html.bios import drop_author_bios
from llmweb.fetch.html.cards import drop_card_fields, drop_signatures
from llmweb.fetch.html.carousels import priced_carousels
from llmweb.fetch.html.contents import drop_tables_of_contents
from llmweb.fetch.html.continuation import ElementKeys, add_split_parts
from llmweb.fetch.html.dialogs import drop_dialogs
from llmweb.fetch.html.faq import declared_answers, missing_answers
from llmweb.fetch.html.forms import open_quiet_forms
from llmweb.fetch.html.hidden import drop_screen_reader_text, hidden_chrome, may_hold_screen_reader_text
from llmweb.fetch.html.interleaved import boxes_between, container_with_gaps, enclosing, holds
from llmweb.fetch.html.layers import ALL_LAYERS, Layers
from llmweb.fetch.html.listing import (
    Grid,
    item_grid,
    may_head_entries,
    unlink_headlines,
    without_toolbar,
    write_list,
)
from llmweb.fetch.html.loose import wrap_loose_text
from llmweb.fetch.html.manual import (
    declared_main,
    discussion_posts,
    leaves_out_contents,
    looks_like_documentation,
    main_region,
    manual_body,
    own_article,
    reads_whole,
    unlink,
)
from llmweb.fetch.html.markdown import CodeBlock, CodeBlocks, render_markdown, restore_code_blocks
from llmweb.fetch.html.metadata import (
    declares_article,
    declares_product,
    head_titles,
    marks_one_entry,
    page_description,
    page_title,
    published_date,
    site_name,
)
from llmweb.fetch.html.notices import drop_small_print, may_hold_small_print
from llmweb.fetch.html.panels import open_panels, show_code_tabs
from llmweb.fetch.html.post_run import READ_SHARE, other_posts
from llmweb.fetch.html.posts import read_described_posts, read_posts, show_scriptless_thread
from llmweb.fetch.html.promotions import drop_promotions
from llmweb.fetch.html.repeats import (
    REPEAT_PARAGRAPH_WORDS,
    REPEAT_SENTENCE_WORDS,
    without_repeated_sentences,
    without_repeats,
    words,
)
from llmweb.fetch.html.reviews import drop_reviews, marks_reviews_in_data, may_hold_reviews
from llmweb.fetch.html.sections import restore_section_bodies
from llmweb.fetch.html.sizes import text_size
from llmweb.fetch.html.streamed import may_hold_streamed_parts, place_streamed_parts
from llmweb.fetch.html.threads import declares_comments, declares_thread, is_thread, replies_text
from llmweb.fetch.html.trailing import drop_trailing_blocks
from llmweb.fetch.html.whole import (
    LANDING_SHARE,
    from_main_heading,
    landing_bound,
    read_whole,
    sectioned,
    whole_page_text,
)
from llmweb.fetch.html.workload import check_html_workload, check_tree_workload
from llmweb.fetch.javascript.embedded import read_embedded
from llmweb.fetch.javascript.payloads import SCRIPT_TYPES
from llmweb.fetch.javascript.shell import Verdict, is_tagline, judge, subject_share, weigh_visible
from llmweb.fetch.limits import MIN_TEXT_CHARS
from llmweb.fetch.net.rewrite import github_cli_hint


class ExtractedPage(NamedTuple):
    title: str | None
    published: str | None  # ISO date the page itself states, e.g. "2024-05-01"
    text: str
    notes: tuple[str, ...] = ()
    # The text is a manual's main region read whole (.manual), or a thread's posts as its
    # markup marks them (.posts): short means a short page (a constant's entry, an empty
    # member list, a two-line thread), not a shell that scripts fill in; and the embedded
    # data (a thread's JSON-LD repeats its posts) has nothing to add.
    whole_region: bool = False
    # the layers above trafilatura (.layers) that changed this answer, for the bench
    fired: tuple[str, ...] = ()
    # a first heading left out of the text as the name the page's head gives it (not an
    # article's: its headline is its title): the shell verdict weighs the text with it, as the
    # text on the page's subject it was
    named_heading: str = ""


def extract_page(html: str, url: str = "") -> ExtractedPage:
    """The main content of ``html`` as light markdown, its title and publication date.

    Never raises on malformed markup; an unreadable document gives an empty text.
    """
    root = _parse(html)
    if root is None:
        return ExtractedPage(None, None, "")
    return _extract(root, html, url)


def read_html_page(
    html: str, url: str = "", *, page_url: str | None = None, layers: Layers = ALL_LAYERS
) -> ExtractedPage:
    """Like :func:`extract_page`, but never hands back a challenge, an empty shell or chrome.

    The page's embedded data (JSON-LD, framework state; :mod:`llmweb.fetch.javascript.embedded`) is read too, and
    :mod:`llmweb.fetch.javascript.shell` decides by content which text stands for the page: the rendered text, that
    text filled in from the data, or the data alone. Raises ChallengePage for bot checks,
    NeedsJavaScript for a shell whose subject only scripts fetch (with the page's own title
    and description, for the fenced answer), NoReadableText for a page without text, and
    TooLarge, before extraction, for a page with more elements, table cells, links or code
    blocks than :mod:`llmweb.fetch.limits` allows (:mod:`.workload`). Errors name ``url``; the page is read
    as the one at ``page_url`` (default ``url``), where a redirect may have led. ``layers``
    switches layers off for the bench (:mod:`.layers`).
    """
    check_html_workload(html, url)
    root = _parse(html)
    if root is None:
        raise NoReadableText(f"{url} returned an empty HTML document. Search for another source.", url)
    check_tree_workload(root, url)
    challenge = _find_challenge(root)
    if challenge:
        raise ChallengePage(challenge_message(url, challenge), url)
    # what the verdict reads, taken before extraction takes the tree apart (copying it cost
    # more than a millisecond a page): the scripts alone, whose data is read only for a verdict
    scripts = _scripts(root)
    description = page_description(root)
    # what the page calls itself and its site, to tell its description from the site's tagline
    names, site = (head_titles(root), site_name(root)) if description else ([], None)
    has_scripts = _has_scripts(root)
    page = _extract(root, html, page_url or url, layers)
    if page.whole_region:  # a region read whole, or a thread's posts: short means a short page
        return page
    seen = weigh_visible(
        f"{page.named_heading}\n\n{page.text}" if page.named_heading else page.text, page.title
    )
    embedded = read_embedded(scripts, declared_only=seen.stands)

    def tagline() -> bool:  # asked only where the description would stand for the page
        return description is not None and is_tagline(
            description, [*names, page.title or ""], page_url or url, site
        )

    verdict = judge(seen, embedded, has_scripts=has_scripts, description=description, title=page.title)
    if verdict.kind == "description" and tagline():
        verdict = Verdict("shell")  # the site's slogan says nothing of the page: a shell (.shell.is_tagline)
    notes = list(page.notes)
    if embedded.cut:
        notes.append(
            f"Part of the page's embedded data was not read (past llmweb's bounds): {', '.join(embedded.cut)}."
        )
    sources = ", ".join(verdict.sources)
    layer = _verdict_layer(verdict.kind, bool(verdict.sources), has_scripts=has_scripts)
    if layer and not getattr(layers, layer):
        return page  # the layer is off: the visible text stands
    if layer:
        page = page._replace(fired=(*page.fired, layer))
    if verdict.kind == "visible":
        if verdict.sources:
            notes.append(
                f"The end of the text comes from the data embedded in the page's HTML ({sources}): "
                "what the page holds but did not show without JavaScript."
            )
        text = verdict.text
        if page.named_heading and text.startswith(page.named_heading + "\n\n"):
            text = text[len(page.named_heading) + 2 :]
        return page._replace(text=text, notes=tuple(notes))
    if verdict.kind == "embedded":
        notes.append(
            f"The page is filled in by JavaScript; this text was recovered from the data embedded in its HTML "
            f"({sources}), not from the rendered page, so its layout may differ."
        )
        return page._replace(text=verdict.text, notes=tuple(notes))
    if verdict.kind == "description":
        notes.append(
            "The page's HTML holds no text of its own but its description (its meta description), "
            "given here; the full page may say more."
        )
        return page._replace(text=verdict.text, notes=tuple(notes))
    if verdict.kind == "empty":
        raise NoReadableText(f"{url} holds no readable text. Search for another source.", url)
    if verdict.kind == "chrome" and not has_scripts:
        raise NoReadableText(
            f"{url} holds only site furniture (a cookie notice, a login prompt, a footer), no text of its own. "
            "Search for another source.",
            url,
        )
    if layers.noscript:
        fallback = _noscript_page(html, page_url or url, layers)
        if fallback is not None:
            return fallback
    raise NeedsJavaScript(
        _javascript_message(url, chrome=verdict.kind == "chrome"),
        url,
        title=page.title,
        description=None if tagline() else description,  # a site's slogan is not the page's words
    )


# A shell's <noscript> is read as the page when it holds at least this much text: what it shows a
# browser without scripts (llmweb is one) is then the page itself, server-rendered for such
# readers, not the usual line asking to turn JavaScript on ("You need to enable JavaScript to run
# this app.", 47 characters; Disqus's 64), a tracking pixel or a tag manager's iframe.
NOSCRIPT_MIN_CHARS = 500


def _noscript_page(html: str, url: str, layers: Layers) -> ExtractedPage | None:
    """The page as a browser without scripts shows it, its <noscript> parts read as its own, when
    they hold the page's text (:data:`NOSCRIPT_MIN_CHARS`); None otherwise. For a shell only."""
    root = _parse(html)
    if root is None:
        return None
    hidden = [el for el in root.iter("noscript") if next(el.iterancestors("head"), None) is None]
    if sum(len(" ".join(el.text_content().split())) for el in hidden) < NOSCRIPT_MIN_CHARS:
        return None
    for el in hidden:
        el.tag = "div"
    page = _extract(root, html, url, layers)
    if len(page.text) < NOSCRIPT_MIN_CHARS:
        return None
    note = (
        "The page is filled in by JavaScript; this text is what it shows a browser without scripts "
        "(its <noscript> part), which may be shorter or older than the full page."
    )
    return page._replace(fired=(*page.fired, "noscript"), notes=(*page.notes, note))


def _verdict_layer(kind: str, filled: bool, *, has_scripts: bool) -> str | None:
    """The layer (.layers) a verdict of .shell is, or None for the visible text as it is."""
    if kind == "visible":
        return "fill" if filled else None
    if kind == "chrome" and not has_scripts:
        return "furniture"
    if kind in ("shell", "chrome"):
        return "javascript"
    return None if kind == "empty" else kind  # "embedded", "description"


def find_bot_challenge(html: str) -> str | None:
    """A description of the bot check ``html`` is (e.g. "a Cloudflare check"), or None."""
    root = _parse(html)
    return None if root is None else _find_challenge(root)


def challenge_message(url: str, challenge: str) -> str:
    return (
        f"{url} answered with {challenge} instead of the page. Try a cached copy "
        f"(https://web.archive.org/web/{url}) or find the same content on another site."
    )


# --- parsing and extraction -------------------------------------------------------------


# C0 controls are invalid in HTML, and lxml refuses to store text holding them. They are
# replaced in the UTF-8 bytes, where no other character uses their byte values (a byte
# table, four times as fast as a regular expression over the text).
_CONTROLS_TO_SPACES = bytes.maketrans(
    bytes(c for c in range(32) if c not in b"\t\n\r"), b" " * (32 - len(b"\t\n\r"))
)


# A template that writes its header's </body></html> before the page's content: a browser
# reads on (HTML's "after body" modes put what follows back into the body), libxml2 2.14
# drops everything after </html> and sets what follows </body> beside the body. The end
# tags say nothing a parser needs (the document ends where the bytes do), so they go.
_DOCUMENT_END_TAGS = re.compile(rb"</(?:body|html)\s*>", re.IGNORECASE)


def _parse(html: str) -> HtmlElement | None:
    # lone surrogates cannot reach libxml2
    data = _DOCUMENT_END_TAGS.sub(b"", html.encode("utf-8", "replace").translate(_CONTROLS_TO_SPACES))
    if not data.strip():
        return None
    parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True)
    # Every element an HtmlElement, chosen in C: lxml.html's own lookup (form and input
    # classes) runs Python for each element handed out, a tenth of trafilatura's time.
    parser.set_element_class_lookup(
        etree.ElementDefaultClassLookup(
            element=HtmlElement,
            comment=lxml.html.HtmlComment,
            pi=lxml.html.HtmlProcessingInstruction,
            entity=lxml.html.HtmlEntity,
        )
    )
    try:
        root = lxml.html.document_fromstring(data, parser=parser)
    except (etree.ParserError, ValueError):
        return None
    return root if isinstance(root, HtmlElement) else None


def _thread_beside(grid: Grid, root: HtmlElement, *, declared: bool) -> bool:
    """Whether the item grid is a box of other threads beside a thread's posts: the page's body
    holds a discussion's signed and dated posts (.manual.discussion_posts) outside the grid, and
    either declares a thread or its posts outweigh the grid (a listing's comments do not).

    A grid that holds the posts stays: a list reads them well. WCXB dev's tuning part: fires on
    2 forum threads, whose sidebars of trending threads were read as the page (0.59 -> 0.87,
    0.62 -> 0.64), and on no other page; the check part's aggregate did not change."""
    body = root.find("body")
    posts = discussion_posts(body) if body is not None else []
    container = grid[0]
    ancestors = set(container.iterancestors())
    if not posts or any(
        post is container or post in ancestors or container in post.iterancestors() for post in posts
    ):
        return False  # the grid is the thread's posts (or one post's), which a list reads well
    return declared or sum(map(text_size, posts)) > text_size(container)


def _holds_posts(root: HtmlElement) -> bool:
    body = root.find("body")
    return body is not None and bool(discussion_posts(body))


_NOSCRIPT = re.compile("<noscript", re.IGNORECASE)  # <NOSCRIPT> is one too


def _extract(root: HtmlElement, html: str, url: str, layers: Layers = ALL_LAYERS) -> ExtractedPage:
    title = page_title(root)
    article = declares_article(root)
    # a blog post its microformats mark (.metadata.marks_one_entry) but no og:type or schema.org
    # declares: not a listing of its template's regions, its comments not its text
    entry = not article and marks_one_entry(root)
    # Measured, not kept: a page that calls itself an article and shows code read as a manual
    # (documentation sites write og:type "article": Hugo's, Starlight's), its region read whole
    # (branch i22doc4). WCXB dev's tuning part: 18 pages changed, 6 up and 12 down (blog posts'
    # bylines, tags and comment boxes came in), summed -0.013 and +0.051 on the halves by id
    # parity, all 0.8814 -> 0.8814; check part 0.8699 -> 0.8702. Nor did a sign of a manual
    # without code (a sidebar of 20 links into the page's section, headings with ids) separate
    # the documentation pages read better whole (7 of 19) from the articles (367 of 454 lower).
    documentation = not article and looks_like_documentation(html)
    # first: a streamed part is a hidden <div> until it is moved, and its placeholder a <template>
    streamed = layers.streamed and may_hold_streamed_parts(root, html) and place_streamed_parts(root)
    declared_thread = declares_thread(html)  # one search of the whole HTML, used thrice
    # a thread written for browsers without scripts (.posts), before <noscript> goes as furniture;
    # its marked posts declare it (a first post that opens a thread is of a declaring type)
    scriptless = (
        layers.thread_posts
        and declared_thread
        and _NOSCRIPT.search(html) is not None
        and show_scriptless_thread(root)
    )
    # a page selling one thing (.metadata) says so in its scripts' data, which _drop_unseen hides
    product = declares_product(root, html)
    # an article's FAQ its JSON-LD declares (.faq), read while its hidden panels are in the tree
    answers = declared_answers(root) if article and layers.faq else []
    _drop_unseen(root, documentation=documentation, article=article)
    published = published_date(root, url)  # after: menus and footers hold other dates
    _drop_permalinks(root)
    fired: list[str] = ["streamed"] if streamed else []
    # the tree's test, not the page's: a search of a page with curly quotes in it (stored two
    # bytes a character) looks at its characters one by one, 0.1 ms a search on the article set
    shows_code = root.find(".//pre") is not None
    # every tab of a tab set of code, before a manual's reading or trafilatura drops the hidden ones
    if layers.code_tabs and shows_code and "tabpanel" in html and show_code_tabs(root):
        fired.append("code_tabs")
    if layers.code_labels and shows_code and _drop_language_labels(root):
        fired.append("code_labels")
    codes = _protect_code_blocks(root, html)  # first: the language is read from class names
    if root.find(".//code") is not None and "<code" in html:  # the tree's test first: a tag's is in C
        _flatten_nested_code(root)
    one_post = ""  # the reading post_run widened with its run's other members, for the landing test
    # characters the boxes read back (.interleaved) and the blocks put back (.between) added,
    # which the landing test leaves out
    boxed = 0
    # a thread whose markup says where each post is (.posts) is read post by post
    posts = read_posts(root, codes, declared=declared_thread) if layers.thread_posts else ""
    if posts:
        fired.append("thread_posts")
    elif scriptless:
        fired.append("thread_posts")  # its <noscript> shown, though it did not read as a thread
    elif declared_thread and not article and layers.thread_json_ld:
        posts = read_described_posts(root)
        if posts:
            fired.append("thread_json_ld")
    # a thread without markup: the posters' cards beside its posts (.cards), before any reading;
    # a manual's definition lists are its text (options and what they do), but a thread quoting
    # code looks like one: its signed, dated posts say what it is
    if (
        not posts
        and layers.card_fields
        and root.find(".//dl") is not None  # the tree's test first: a tag's is in C
        and "<dl" in html
        and (not documentation or _holds_posts(root))
        and drop_card_fields(root)
    ):
        fired.append("card_fields")
    # and its posters' signatures (.cards); a thread read post by post left them out with the
    # rest of the page
    if (
        not (posts or article)
        and layers.signatures
        and "ignature" in html
        and (not documentation or _holds_posts(root))
        and drop_signatures(root)
    ):
        fired.append("signatures")
    # a thread without markup: its posts' posters and dates, before its links become text (.author_lines)
    signed = signed_posts(root) if layers.author_lines and not (posts or article or entry or product) else []
    region = [] if posts else declared_main(root) or (main_region(root) if documentation else [])
    if not region and not posts and not article:
        region = _html_main(root)  # its links made text below: a listing's items are links
    manual = not posts and documentation and reads_whole(region, root.find("body"), codes.marker, html)
    if manual and product:
        # a page selling one thing is its product's, whatever code its widgets show: read whole,
        # its main column's carousels and filters came along (WCXB dev's tuning part, 2 product
        # pages: 0.45 read whole, 0.49 through trafilatura)
        manual = False
    # Measured, not kept: a page whose main region holds a grid of cards (listing.item_grid) not read
    # whole, whatever code it shows (branch i22doc3): WCXB dev's tuning part, its collections,
    # listings and services read whole as if they showed code, the 43 whose region holds a grid lost
    # 0.078 F1 each; but of the tuning part's 49 manuals none changed, the check part's collections
    # 0.7517 -> 0.7530 (one page), and the grid's search on every manual cost 0.47 ms a page on average.
    if manual and not layers.manual:
        manual = False
    elif manual:
        fired.append("manual")
        region = [own_article(main) for main in region]
    # the body's text before trafilatura reads it, to see how much of it a reading kept
    page_chars = len(root.text_content()) if not manual else 0
    # before links become text
    if not documentation and layers.promotions and drop_promotions(root, title, article=article):
        fired.append("promotions")
    if (
        not (documentation or posts)
        and layers.small_print
        and may_hold_small_print(html)
        and drop_small_print(root)
    ):
        fired.append("small_print")
    if article and not posts and layers.author_bios and drop_author_bios(root):
        fired.append("author_bios")
    if article and not posts and layers.trailing and drop_trailing_blocks(root):
        fired.append("trailing")
    elif (
        (manual or not (article or posts or documentation))
        and layers.trailing
        and drop_trailing_blocks(root, near_blocks=False)
    ):
        # other stories after the body of a page that does not say it is an article; on a manual
        # read whole too: a blog post with code under a <main> that holds its "More blogs" cards
        # (trafilatura drops the cards of a page it reads, a manual's reading keeps all it sees).
        # WCXB dev's tuning part: of 49 manuals, 1 changed (a blog post 0.966 -> 0.990)
        fired.append("trailing")
    if article and not posts and layers.contents and drop_tables_of_contents(root):
        fired.append("contents")
    lists_items = not (article or entry or documentation or posts) and layers.item_list
    thread = (
        not (posts or manual)
        and layers.thread_replies
        and (not (article or entry) or declared_thread)
        and _may_hold_comments(html)
    )
    # a page selling one thing: the links and cards beside it are other products, the comments
    # under it its reviews (read before write_list rewrites cards, microdata and all)
    sells_one = (lists_items or bool(region) or thread) and product
    # the page as it was before its grid became a list (a copy only where a grid was found), read
    # again in its place when the list's reading left out the prose it kept (_loses_prose)
    plain = None
    # Measured, not kept: a listing's links to its own address with a query that keeps its
    # parameters (filters with their counts, sort orders, "Page 2"), dropped in runs of two or
    # more (branch i22coll, c442eac). WCXB dev's tuning part: 9 pages changed, collections
    # 0.6955 -> 0.7001 (a shop's facets 0.59 -> 0.71), listings 0.7161 -> 0.7166; check part:
    # listings 0.7577 -> 0.7594 but collections 0.7430 -> 0.7393, also with the controls dropped
    # before the page's text is measured and with runs over a tenth of the page kept.
    grid = item_grid(root) if lists_items and not sells_one else None
    if article and not (posts or documentation or sells_one) and layers.item_list:
        grid = item_grid(root, article=True)  # a section page that calls itself an article
    if grid is not None and _thread_beside(grid, root, declared=declared_thread):
        # a box of other threads beside a thread's posts, not a listing (a grid is found on a
        # tenth of pages; finding the posts costs 2 ms on average)
        grid = None
    # not on an article: its words for screen readers are a share button's name, and no article
    # of WCXB dev read differently without them (tuning or check), for 1.3 ms of search a page
    if (
        layers.screen_reader
        and not article
        and may_hold_screen_reader_text(html)
        and drop_screen_reader_text(root)
    ):
        fired.append("screen_reader")
    if grid is not None:
        plain = copy.deepcopy(root)
        write_list(grid)
        fired.append("item_list")  # a listing's cards as lines of text, before trafilatura drops their links
    # after page_chars and the item grid were measured: the second opinion's and the landing
    # page's shares, and the grid's, were set with the dialogs' text counted
    if not (posts or manual) and layers.dialogs and drop_dialogs(root):
        fired.append("dialogs")
        if plain is not None:
            drop_dialogs(plain)
    reviews = (
        not (posts or manual or article or declared_thread) and layers.reviews and may_hold_reviews(html)
    )
    data_marked = reviews and marks_reviews_in_data(html)  # one search of the page for both copies
    if reviews and drop_reviews(root, data_marked=data_marked):
        fired.append("reviews")
        if plain is not None:
            drop_reviews(plain, data_marked=data_marked)
    if not (posts or manual) and layers.panels and open_panels(root):
        fired.append("panels")
        if plain is not None:
            open_panels(plain)
    if posts:
        text = posts
    elif manual:  # a manual's main region is read whole (.manual), not judged block by block
        drop = leaves_out_contents(html)
        text = "\n\n".join(
            render_markdown(manual_body(main, drop_contents=drop, drop_dates=True), codes) for main in region
        )
    else:
        # the region's twins in the page as it was, for the landing test if that page is read
        twins = (
            [] if plain is None else [t for m in region for t in plain.xpath(root.getroottree().getpath(m))]
        )
        # before the region's links become text: a form of links is a listing's (.forms)
        if layers.quiet_forms and open_quiet_forms(root):
            if plain is not None:
                open_quiet_forms(plain)
            fired.append("quiet_forms")
        # a main region's links are its items (a listing's entries), but on a page selling one
        # thing they are other things: related products, which trafilatura drops as link lists
        if region and not sells_one:
            for main in (*region, *twins):
                # …and so are a carousel's priced cards beside an undeclared product (.carousels),
                # which go: left as links, their prices and delivery dates kept them in the reading
                carousels = priced_carousels(main) if layers.carousels else []
                for carousel in carousels:
                    carousel.drop_tree()
                unlink(main)
                if carousels and main in region and "carousels" not in fired:
                    fired.append("carousels")
        # before trafilatura: a block's text between <br>s read as its paragraphs (.loose)
        if layers.loose_text and not article and wrap_loose_text(root):
            if plain is not None:
                wrap_loose_text(plain)
            fired.append("loose_text")
        # a page of headlines: its linked headings made text, before trafilatura drops them as links
        # (on a declared article only when they head <article>s of their own: an index's entries)
        if (
            layers.headlines
            and not documentation
            and (not article or may_head_entries(root))
            and unlink_headlines(root, article=article)
        ):
            if plain is not None:
                unlink_headlines(plain, article=article)
            fired.append("headlines")
        body, comments = _trafilatura(root, url, fast=True, comments=thread)
        if plain is not None and body is not None:
            plain_body, plain_comments = _trafilatura(plain, url, fast=True, comments=thread)
            if _loses_prose(body, plain_body):
                root, region, body, comments = plain, twins, plain_body, plain_comments
                fired.remove("item_list")
        # the keys of the page's and the readings' elements, made once for the layers below: from
        # here on the page's text does not change, nor a reading's elements' (ElementKeys)
        keys = ElementKeys()
        if layers.interleaved and body is not None:
            fuller = _with_dropped_blocks(root, url, body, keys)
            if fuller is not None:
                body = fuller
                fired.append("interleaved")
        body_chars = _text_chars(body)
        if layers.full_reading and body is not None and _short_reading(body_chars, page_chars):
            full = _full_reading(root, url, body, body_chars)
            if full is not None:
                body, body_chars = full, _text_chars(full)
                fired.append("full_reading")
        if (
            layers.second_opinion
            and sells_one
            and "full_reading" not in fired
            and _flattened(body, page_chars)
        ):
            # a product page trafilatura found no main text on: its fallback flattened the whole
            # body, menus, rails and footer, into one paragraph; jusText's paragraphs are the product's
            rescue = _justext_reading(root, 0, page_chars)
            if _text_chars(rescue) >= JUSTEXT_MIN_READING:
                body, body_chars = rescue, _text_chars(rescue)
                fired.append("second_opinion")
        if layers.second_opinion and "full_reading" not in fired and _short_reading(body_chars, page_chars):
            # a short reading: jusText's paragraph classification (which trafilatura's slow mode
            # falls back to) often finds the rest (a Q&A page's answers, a product's details)
            rescue = _justext_reading(root, body_chars, page_chars)
            rescue_chars = _text_chars(rescue)
            if rescue_chars > JUSTEXT_RATIO * body_chars and not (
                # …but a landing page's (whole.py's LANDING_SHARE: no declared type, and the fast
                # reading kept under 0.7 of its text read whole) is read whole below: jusText judges
                # its sections paragraph by paragraph, and leaves out the short lines they are made
                # of (specifications, feature titles, plan names) or keeps their chrome. WCXB dev's
                # tuning part, 16 of the 41 pages it fired on: 15 changed, 10 up and 5 down (a phone's
                # page 0.72 -> 0.97); products 0.6639 -> 0.6669, collections 0.6980 -> 0.7038,
                # listings 0.7256 -> 0.7282, services 0.8666 -> 0.8670, all 0.8787 -> 0.8796. Check
                # part, where it had lost (5 services 0.921 -> 0.773, 3 products 0.259 -> 0.233):
                # services 0.7981 -> 0.8142, products 0.6968 -> 0.6986, all 0.8664 -> 0.8677
                layers.landing
                and not (article or documentation or sells_one)
                and not declares_comments(html)
                and _landing_text(root, region, codes, body_chars, page_chars, published) is not None
            ):
                if not (sells_one and _passes_over(rescue, body, body_chars)):
                    body, body_chars = rescue, rescue_chars
                    fired.append("second_opinion")
                elif layers.joined_opinion and body is not None and _join_opinion(body, rescue):
                    # a product's box that jusText passes over, and the description it reads beside
                    # it: both are the product's (_join_opinion)
                    body_chars = _text_chars(body)
                    fired.append("joined_opinion")
        # after the readings of a short page: boxes read back lengthen a reading past their bounds
        if (
            layers.boxes
            and body is not None
            and not {"full_reading", "second_opinion", "joined_opinion"} & set(fired)
        ):
            fuller = _with_boxes(root, url, body, keys)
            if fuller is not None:
                boxed = _text_chars(fuller) - body_chars
                body, body_chars = fuller, body_chars + boxed
                fired.append("boxes")
        # …and so do the headings and lists put back between the paragraphs (.between)
        if (
            layers.between
            and body is not None
            and not {"interleaved", "full_reading", "second_opinion", "joined_opinion"} & set(fired)
            and restore_between(root, body, keys)
        ):
            put = _text_chars(body) - body_chars
            boxed, body_chars = boxed + put, body_chars + put
            fired.append("between")
        # …and the bodies of sections the reading keeps the heading of alone (.sections)
        if (
            layers.sections
            and body is not None
            and not {"full_reading", "second_opinion", "joined_opinion"} & set(fired)
            and restore_section_bodies(root, body, keys)
        ):
            put = _text_chars(body) - body_chars
            boxed, body_chars = boxed + put, body_chars + put
            fired.append("sections")
        replies = replies_text(comments) if thread else ""
        if replies and is_thread(
            declared=declared_thread,
            article=article or entry,
            product=sells_one,
            main_chars=body_chars,
            replies_chars=len(replies),
        ):
            fired.append("thread_replies")
            if body is None:
                body = comments
            else:
                body.extend(list(comments))
        if layers.continuation and add_split_parts(root, body, keys):
            fired.append("continuation")
        text = render_markdown(body, codes)
        lost = missing_answers(text, answers) if answers else ""
        if lost:
            text = f"{text}\n\n{lost}" if text else lost
            fired.append("faq")
        if layers.post_run and not (article or sells_one) and body_chars < READ_SHARE * page_chars:
            found = other_posts(root, text, codes)
            if found is not None:
                one_post = text
                text = "\n\n".join(part for part in (found[0], text, found[1]) if part)
                fired.append("post_run")
        if (
            layers.author_lines
            and "post_run" not in fired
            and (lines := with_author_lines(signed, text)) is not None
        ):
            # a thread without markup read by trafilatura or jusText: its posts' author lines (.author_lines)
            text = lines
            fired.append("author_lines")
        if article and layers.closing_heading:
            closed = _without_closing_headings(text)
            if closed != text:
                text = closed
                fired.append("closing_heading")
        if layers.repeats:
            once = without_repeats(text, REPEAT_SENTENCE_WORDS if product else REPEAT_PARAGRAPH_WORDS)
            if product:  # a page of one product flattened into a line: its copies are sentences
                once = without_repeated_sentences(once)
            if once != text:
                text = once
                fired.append("repeats")
    kept = len(codes.found_in(text))
    if kept < len(codes.blocks) and not manual and not posts:
        # trafilatura's fallback extractors sometimes keep a code block its main pass
        # dropped; they cost a second parse, so only a page that lost code pays for them.
        second_text = render_markdown(_trafilatura(root, url, fast=False)[0], codes)
        if len(codes.found_in(second_text)) > kept:
            text = second_text
    text = restore_code_blocks(text, codes)
    # a run of like sections post_run read beside the one trafilatura chose may be a landing page's:
    # the landing test judges trafilatura's reading, and a landing text read whole replaces the run
    reading_chars = len(one_post or text) - boxed
    if (
        layers.landing
        and not (article or documentation or posts or manual or sells_one)
        and "thread_replies" not in fired
        and not declares_comments(html)  # readers' posts: a discussion, whose sidebars read whole come in
    ):
        landing = _landing_text(root, region, codes, reading_chars, page_chars, published)
        if landing is not None:
            # from its main heading on only now: the test weighs the whole landing text
            text = "\n\n".join(from_main_heading(landing.split("\n\n")))
            fired = [layer for layer in fired if layer not in ("post_run", "author_lines")] + ["landing"]
    # after the landing test: a short reading of a landing page is read whole as a landing page,
    # without the menus of links, the footer and the top bar above its heading that the plain
    # whole page keeps (read first, its length had the landing test let the page go). WCXB dev's
    # tuning part: 2 of the 4 pages read whole changed, both up (a shop's skincare sets 0.19 ->
    # 0.65: read whole plainly, its promotion bar's copies for each currency came in), all
    # 0.88785 -> 0.88832; the check part's one such page unchanged
    if len(text) < MIN_TEXT_CHARS and not (manual and text.strip()) and layers.whole_page:
        whole = restore_code_blocks(whole_page_text(root), codes)
        if len(whole) > len(text):
            text = whole
            fired.append("whole_page")
    if layers.toolbar and "item_list" in fired:
        bare = without_toolbar(text)
        if bare != text:
            text = bare
            fired.append("toolbar")
    named_heading = ""
    if layers.title_heading and (article or not (documentation or manual)):
        headless = (
            _without_title_heading(text, title)
            if article
            else _without_named_heading(text, head_titles(root))
        )
        if headless != text:
            if not article:
                named_heading = text[: len(text) - len(headless)].rstrip("\n")
            text = headless
            fired.append("title_heading")
    whole_region = (manual or bool(posts)) and bool(text.strip())
    return ExtractedPage(
        title, published, text, whole_region=whole_region, fired=tuple(fired), named_heading=named_heading
    )


def _landing_text(
    root: HtmlElement,
    region: list[HtmlElement],
    codes: CodeBlocks,
    reading_chars: int,
    page_chars: int,
    published: str | None,
) -> str | None:
    """The text of a landing page read whole (.whole), when a reading of ``reading_chars`` kept
    less than LANDING_SHARE of it; else None. The caller tells a landing page by its type."""
    if not (
        reading_chars < LANDING_SHARE * page_chars  # cheap first: the body's text, chrome and all
        and reading_chars < LANDING_SHARE * landing_bound(root, region)
    ):
        return None
    landing, hidden = read_whole(root, landing=True, within=region)
    landing = restore_code_blocks(landing, codes)
    # a dated page is a landing page when its text is a run of short sections; its hidden
    # chrome counts, as it does in page_chars and the bound above (LANDING_SHARE was set so)
    if reading_chars < LANDING_SHARE * (len(landing) + hidden) and (not published or sectioned(landing)):
        return landing
    return None


# What trafilatura's comment containers (its COMMENTS_XPATH and its prunes of comments) hold
# in an id or a class, as its case-sensitive patterns spell them ("[Cc]omment", "comol",
# "disqus", an id starting "social"): a page without any of them gets nothing from reading
# its comments but the cost (half of WCXB dev's pages, 8 % of their reading time).
_COMMENT_MARKERS = ("omment", "comol", "disqus")
_SOCIAL_ID = re.compile(r"""\bid\s*=\s*["']?\s*$""", re.I)


_MAIN_ON_SUBJECT = 1 / 3  # of the <title>'s words, as the shell verdict counts them
_MAIN_MIN_CHARS = 1000  # a listing's items; less is a few lines beside a player or an app


def _html_main(root: HtmlElement) -> list[HtmlElement]:
    """HTML's own <main>, when it holds at least half of the body's text (and a listing's worth)
    and names the page's subject (a third of its <title>'s words).

    trafilatura drops blocks made mostly of links as navigation; on a page that is not an
    article, inside its <main>, those are the page's items: a category's entries, a list of
    papers, a shop's products. Made plain text (manual.unlink), they stay. A <main> that does
    not name the page's subject holds other things (a video page's "popular clips" beside a
    player its scripts fill in): its links stay links.
    """
    body = root.find("body")
    if body is None:
        return []
    mains = list(body.iter("main"))
    if not mains:
        return []
    half = len("".join(body.text_content().split())) / 2
    size = max(half, _MAIN_MIN_CHARS)
    main = next((el for el in mains if len("".join(el.text_content().split())) >= size), None)
    if main is None or subject_share(root.findtext(".//title"), main.text_content()) < _MAIN_ON_SUBJECT:
        return []
    return [main]


def _may_hold_comments(html: str) -> bool:
    if any(marker in html for marker in _COMMENT_MARKERS):
        return True
    # substring searches, not a pattern over the page (that took 6 ms a page)
    at = html.find("social")
    while at >= 0:
        if _SOCIAL_ID.search(html, max(0, at - 16), at):
            return True
        at = html.find("social", at + 1)
    return False


def _extraction_options(*, fast: bool, comments: bool) -> Extractor:
    return Extractor(
        output_format="xml",  # the tree only: its own text rendering is not used
        formatting=True,
        tables=True,
        comments=comments,  # a thread's replies (.threads), set apart from the main text
        links=False,
        images=False,
        with_metadata=False,  # title and date come from .metadata, without trafilatura's other fields
        date_params={},  # no metadata, so no dates: skips computing their defaults
        # fast: without the readability/justext fallbacks, article F1 rose 0.958 → 0.960,
        # docs were unchanged, and a 5 MB page peaked at 84 MB instead of 142 MB
        fast=fast,
    )


# A fast reading shorter than this gets a second opinion from jusText's paragraph
# classification (WCXB dev, tuning part: forum, product and listing pages read short in fast mode):
# trafilatura's own bound for the readings its slow mode escalates (ESCALATION_MAX_LENGTH).
# At 1,500 a service page's intro read without the feature blocks below it stood; at 3,000 (and
# 4,000, 5,000: the same pages) WCXB dev's tuning part went service 0.799 -> 0.804, all 0.8478 ->
# 0.8492, on 3 pages changed, none lost (the article set unchanged)…
SECOND_OPINION_CHARS = 3000
# …when it also kept less than this share of the page's text: a short reading that kept half
# of a short page is the page (on WCXB dev's tuning part the second opinion never changed such
# a reading)…
SECOND_OPINION_SHORT_SHARE = 0.5
# …and so does a longer one that kept less than this share (a listing read as one of its
# items: 2,000 of 43,000 characters; between 6 and 10 % it changed nothing there)
SECOND_OPINION_SHARE = 0.06
# jusText's reading replaces the fast one when it is this many times longer (trafilatura's rule
# for its jusText candidate; on WCXB dev's tuning part 1.5 and 1 lost listings and products)
JUSTEXT_RATIO = 2.0
# …and only where trafilatura's slow mode would try jusText: a reading under its minimum size
# (MIN_EXTRACTED_SIZE), or one under this share of the text jusText reads (its recall
# escalation's share). A short news story read whole is 22 % of its page: jusText's reading
# of it added the page's menus and comment form (article set F1 0.971 -> 0.969 without this).
JUSTEXT_MIN_READING = 250
JUSTEXT_PAGE_SHARE = 0.2
# On a page selling one thing (metadata.declares_product), jusText's reading stands only when it
# holds at least this share of the fast reading's words: a fast reading of the product's box (its
# name, facts and price) that jusText's reading leaves out was traded for the long paragraphs
# beside it, the customers' reviews. Like FULL_READING_HOLDS for trafilatura's full reading. WCXB
# dev's tuning part, 2 product pages changed: a guitar's specs read as its reviews 0.08 -> 0.95, and
# a microphone's box 0.61 -> 0.29, whose description jusText had read with the reviews; product
# 0.6103 -> 0.6178, the other types and the whole check part unchanged.
SECOND_OPINION_HOLDS = 0.5
# …and then its paragraphs are added after the fast reading (_join_opinion), those it does not
# say already: a paragraph with this share of its words in the fast reading is said there
JOIN_HELD = 0.5


# trafilatura's reading is its fallback, the body's text in one paragraph, when one <p> holds at
# least this share of the page's text (a page it found no main text on). WCXB dev's tuning part:
# three pages read so, two listings (read as lists, F1 0.99 and 0.70) and a marketplace's book,
# the one that sells one thing, read by jusText instead: 0.42 -> 0.59 (its menus, rails of other
# books and footer had come in one line), products 0.7073 -> 0.7095; no check page changed
FLATTENED_SHARE = 0.8


def _flattened(body: Any, page_chars: int) -> bool:
    """Whether trafilatura's reading ``body`` is the page's whole text in one paragraph."""
    if body is None or len(body) != 1 or body[0].tag != "p":
        return False
    return _text_chars(body) >= FLATTENED_SHARE * page_chars


def _short_reading(chars: int, page_chars: int) -> bool:
    if chars < SECOND_OPINION_CHARS and chars < SECOND_OPINION_SHORT_SHARE * page_chars:
        return True
    return chars < SECOND_OPINION_SHARE * page_chars


# Built once: reading trafilatura's settings for every page cost half a millisecond.
_OPTIONS = {
    (fast, comments): _extraction_options(fast=fast, comments=comments)
    for fast in (True, False)
    for comments in (True, False)
}


def _trafilatura(root: HtmlElement, url: str, *, fast: bool, comments: bool = False) -> tuple[Any, Any]:
    """trafilatura's main-content tree of ``root`` and its comments' tree (with ``comments``),
    each None when absent or when trafilatura trips over an odd tree."""
    options = copy.copy(_OPTIONS[fast, comments])
    options.url = options.source = url or None
    try:
        document = trafilatura.bare_extraction(root, url=url or None, options=options)
    except MemoryError:
        raise  # past the worker's memory ceiling: the page is too big, not oddly built
    except Exception:  # the whole-page fallback in _extract still reads such pages
        return None, None
    return getattr(document, "body", None), getattr(document, "commentsbody", None)


def _with_dropped_blocks(root: HtmlElement, url: str, body: Any, keys: ElementKeys) -> Any:
    """trafilatura's reading again, with the element declared the article whose headings,
    lists or tables between kept paragraphs the first reading dropped (.interleaved), when it
    holds the first reading and adds to it; else None (and ``root`` as it was)."""
    container = container_with_gaps(root, body, keys)
    if container is None:
        return None
    container = enclosing(container, body)
    was, container.tag = container.tag, "article"
    second = _trafilatura(root, url, fast=True)[0]
    if second is not None and holds(second, body):
        return second
    container.tag = was
    return None


def _with_boxes(root: HtmlElement, url: str, body: Any, keys: ElementKeys) -> Any:
    """trafilatura's reading again with the class and id of the boxes of prose it dropped between
    kept paragraphs as furniture left out (.interleaved), when it holds the first reading and adds
    to it; else None. ``root`` is as it was either way."""
    boxes = boxes_between(root, body, keys)
    if not boxes:
        return None
    names = [
        (el, el.attrib.pop("class", None), el.attrib.pop("id", None)) for box in boxes for el in box.iter()
    ]
    second = _trafilatura(root, url, fast=True)[0]
    for el, klass, ident in names:
        if klass is not None:
            el.set("class", klass)
        if ident is not None:
            el.set("id", ident)
    return second if second is not None and holds(second, body) else None


# A short fast reading is read again in trafilatura's full mode when Readability's reading of the
# page is this many times longer (trafilatura's own rule for preferring Readability's reading)…
FULL_READING_RATIO = 2.0
# …unless the fast reading is this long already: an article's length (the Zyte article set's
# median is 3,100 characters), where Readability's more is the page around it (a newsletter
# read with its site's other stories, 2,500 -> 8,900 characters). On WCXB dev's tuning part
# the readings it completed were 300 to 1,300 characters long.
FULL_READING_MAX_CHARS = 2000
# …and the full reading is kept when it is that much longer too and holds this share of the fast
# reading's words: Readability sometimes reads another block of the page whole (a cookie
# notice's text in place of a recipe listing's titles: 13 % of the fast reading's words)
FULL_READING_HOLDS = 0.8
_WORD = re.compile(r"\w+")


def _full_reading(root: HtmlElement, url: str, body: Any, body_chars: int) -> Any:
    """trafilatura's full (not fast) reading of ``root``, for a short fast reading ``body`` that
    left out most of an article, or None.

    The fast mode skips trafilatura's comparison with Readability, which reads a page's text
    where its markup does not say paragraph: text in nested <div>s (a WYSIWYG editor's body),
    a buyer's guide's sections around the few paragraphs the fast reading kept. Readability
    alone costs a fraction of a fast reading, and it is asked first, so only the pages where it
    finds at least FULL_READING_RATIO times as much are read a second time in full. WCXB dev
    (bench/wcxb.py, layer ``full_reading``): fired on 10 tuning pages, F1 0.603 -> 0.655 (7
    changed, all articles: one 0.58 -> 0.92, two 0.002 down), all pages 0.8596 -> 0.8602; on
    6 pages of the check part 0.622 -> 0.667. jusText's reading (the second opinion below) is
    not asked after it: on those pages it read the page's menus and sidebars along.
    """
    if body_chars >= FULL_READING_MAX_CHARS:
        return None
    readability = try_readability(copy.deepcopy(root))
    if _text_chars(readability) <= FULL_READING_RATIO * body_chars:
        return None
    full = _trafilatura(root, url, fast=False)[0]
    if full is None or _text_chars(full) <= FULL_READING_RATIO * body_chars:
        return None
    return full if _words_held(body, full) >= FULL_READING_HOLDS else None


def _words_held(first: Any, second: Any) -> float:
    """The share of the words of reading ``first`` that reading ``second`` holds too (1 for none)."""
    said = set(_WORD.findall(_TEXT(first).lower()))
    return len(said & set(_WORD.findall(_TEXT(second).lower()))) / len(said) if said else 1.0


# jusText's revision looks from each short paragraph to its nearest long ones, through the short
# ones between: a run of thousands of short paragraphs costs their number squared (20,000 took
# 58 s). WCXB dev's pages reach 867 where it reads them; a page of more is read by trafilatura.
JUSTEXT_MAX_PARAGRAPHS = 2_000


def _justext_reading(root: HtmlElement, reading_chars: int, page_chars: int) -> Any:
    """jusText's main text of ``root`` as paragraphs, read as trafilatura's slow mode reads it (its
    settings and stoplists), or None. jusText's own steps (ParagraphMaker, classify_paragraphs,
    revise_paragraph_classification: what ``justext.justext`` runs) on a copy of the parsed
    tree: a second trafilatura pass in slow mode repeated the whole fast one to reach this,
    twice the page's reading time, and ``justext.justext`` would parse the page again.
    ``page_chars``, the page's text before extraction, bounds what the copy holds."""
    # Enough of the page read is decided on the page's text first: what the copy leaves out
    # only shortens it, and most pages asked are decided without copying or searching it.
    if _read_enough(reading_chars, page_chars):
        return None
    body = root.find("body")
    source = body if body is not None else root
    if _read_enough(reading_chars, _text_chars(source)):
        return None
    tree = copy.deepcopy(source)
    for el in _justext_skips(tree):
        el.drop_tree()
    for el in hidden_chrome(tree):  # a hidden menu or filter panel reads as paragraphs (.hidden)
        el.drop_tree()
    if _read_enough(reading_chars, _text_chars(tree)):
        return None
    paragraphs = justext.core.ParagraphMaker.make_paragraphs(tree)
    if len(paragraphs) > JUSTEXT_MAX_PARAGRAPHS:
        return None
    # length_low, length_high, stopwords_low, stopwords_high, max_link_density, no_headings:
    # trafilatura's values for its jusText reading
    justext.core.classify_paragraphs(paragraphs, _stoplist(), 50, 150, 0.1, 0.2, 0.25, True)
    justext.core.revise_paragraph_classification(paragraphs, 150)
    result = etree.Element("body")
    for paragraph in paragraphs:
        if not paragraph.is_boilerplate:
            etree.SubElement(result, "p").text = paragraph.text
    return result if len(result) else None


def _passes_over(rescue: Any, body: Any, body_chars: int) -> bool:
    """Whether jusText's reading ``rescue`` of a page selling one thing leaves out most of the words
    of a fast reading ``body`` longer than a name and a price (:data:`SECOND_OPINION_HOLDS`)."""
    if body is None or body_chars < JUSTEXT_MIN_READING:
        return False
    return _words_held(body, rescue) < SECOND_OPINION_HOLDS


def _join_opinion(body: Any, rescue: Any) -> bool:
    """Add to the fast reading ``body`` of a page selling one thing the paragraphs of jusText's
    reading ``rescue`` it lacks (under half of their words in it), after it; whether any were.

    For a fast reading of the product's box (its name, facts and price) that jusText's reading
    passes over (:func:`_passes_over`), where jusText read the product's description: trafilatura
    chose the box's column as the page's main block, and a shop writes its description in a
    section of its own below (a full-width "about this item" band). The box alone lost the
    description; jusText's reading alone lost the box. WCXB dev's tuning part: fires on one page
    (a microphone 0.29 -> 0.93, its description's five sections); the other types unchanged.
    """
    said = set(_WORD.findall(_TEXT(body).lower()))
    added = False
    for paragraph in list(rescue):
        own = set(_WORD.findall(_TEXT(paragraph).lower()))
        if own and len(own & said) < JOIN_HELD * len(own):
            body.append(paragraph)
            added = True
    return added


def _read_enough(reading_chars: int, page_chars: int) -> bool:
    return reading_chars >= JUSTEXT_MIN_READING and reading_chars >= JUSTEXT_PAGE_SHARE * page_chars


# What trafilatura clears before its jusText reading: scripts, footers, comment sections,
# cookie notices (its patterns, as plain substring tests).
_COMMENT_SECTION_TAGS = frozenset({"div", "section", "ul", "ol", "details"})
_COMMENT_SECTION_IDS = ("comment", "Comment", "disqus_thread", "dsq-comments", "comol")
_COMMENT_SECTION_CLASSES = ("comment", "Comment")
_COMMENT_SECTION_CLASS_PARTS = ("article-comments", "post-comments")
_CONSENT_PARTS = ("cookie", "Cookie", "consent", "Consent", "gdpr")


def _justext_skips(tree: HtmlElement) -> list[HtmlElement]:
    """The elements below ``tree`` trafilatura clears before its jusText reading, in page order.
    A loop of string tests over the elements: an XPath of the same tests (contains(),
    starts-with()) took twice as long, a regular expression per element longer still."""
    skips = []
    for el in tree.iterdescendants(etree.Element):
        tag = el.tag
        if tag == "script":
            skips.append(el)
            continue
        classes, ident = el.get("class"), el.get("id")
        if classes is None and ident is None:
            continue
        classes, ident = classes or "", ident or ""
        if (
            (tag == "div" and ("footer" in classes or "footer" in ident))
            or (
                tag in _COMMENT_SECTION_TAGS
                and (
                    ident.startswith(_COMMENT_SECTION_IDS)
                    or classes.startswith(_COMMENT_SECTION_CLASSES)
                    or any(part in classes for part in _COMMENT_SECTION_CLASS_PARTS)
                )
            )
            or any(part in classes or part in ident for part in _CONSENT_PARTS)
        ):
            skips.append(el)
    return skips


@functools.cache
def _stoplist() -> frozenset[str]:
    """Every language's stop words, as trafilatura's jusText reading uses them for a page of
    unknown language: trafilatura's own list (JT_STOPLIST, built once a process: 0.12 s), so a
    process that reads with both builds it once. A set, not its tuple: jusText caches the list
    it is given by its hash, which a tuple of 154,000 words computes anew at each call (4 ms)."""
    return frozenset(trafilatura.external.JT_STOPLIST or jt_stoplist_init())


# A tree's text as one string, gathered in C (joining itertext()'s pieces took four times as long)
_TEXT = etree.XPath("string()", smart_strings=False)


def _text_chars(tree: Any) -> int:
    """Characters of a trafilatura tree's text, spaces collapsed (0 for None)."""
    return 0 if tree is None else len(" ".join(_TEXT(tree).split()))


_PROSE_CHARS = 150  # a paragraph of a buying guide, not a card's line
_PROSE_LOST = 1 / 3  # of the list reading's characters


def _loses_prose(body: Any, plain_body: Any) -> bool:
    """Whether trafilatura's reading of the page with its grid as a list left out paragraphs of
    prose its reading of the page as it was kept (a third of the list reading's length or more).

    A list of plain lines is text where the cards were links, and trafilatura may then settle on
    the region holding the grid (HTML's <main>) and leave out what the page said outside it: a
    shop's buying guide under its products (WCXB dev's tuning part, 2 collections: 0.22 and 0.24
    with the list, 0.94 and 0.87 without; no other page of the 76 the list fired on changed).
    """
    if plain_body is None:
        return False
    kept = set(_WORD.findall(_TEXT(body).lower()))
    lost = 0
    for paragraph in plain_body.iter("p"):
        text = " ".join(_TEXT(paragraph).split())
        if len(text) < _PROSE_CHARS or ". " not in text:
            continue
        words = _WORD.findall(text.lower())
        if sum(word not in kept for word in words) > len(words) / 2:
            lost += len(text)
    return lost >= _PROSE_LOST * _text_chars(body)


def _without_title_heading(text: str, title: str | None) -> str:
    """The text without a first heading that repeats the title, which the answer states already.

    Only for pages that declare themselves articles: a story's headline is its title (the
    article benchmark's text leaves it out, and dropping it raised F1 0.965 → 0.968), while a
    manual's first heading opens its outline (rustdoc's F1 fell 0.967 → 0.949 without it).
    """
    if not title or not text.startswith("#"):
        return text
    heading, _, rest = text.partition("\n\n")
    said, named = words(heading), words(title)
    if said and (said in named or named in said):
        return rest
    return text


def _without_named_heading(text: str, names: list[str]) -> str:
    """The text without a first heading of two words or more that the page's head names it by
    (its <title>, a social card's title: "Parks budget approved | City News").

    For pages that do not declare themselves articles, where the one <h1> (:func:`page_title`)
    may be a section's or a slogan: the head's name says which heading is the page's own. Not
    for documentation, whose first heading opens its outline (see :func:`_without_title_heading`).
    WCXB dev's tuning part: 72 pages changed, 17 of them down (the most 0.016: a gold that keeps
    the name); summed F1 articles +0.118 (34 pages, 0.9560 -> 0.9562), product +0.049, forum
    +0.032, service +0.026, listing +0.015, documentation +0.004, collection +0.002; the check
    part's aggregate up or level on every type. A dropped heading still counts for the shell
    verdict (ExtractedPage.named_heading): without it the text read off its subject, and a
    listing's scripts' data took it over. Measured on documentation and manuals too (issue 22,
    2026-12-04), not kept: the tuning part's 24 pages changed, 20 higher (+0.020 summed,
    documentation 0.9390 -> 0.9393, a service -0.010), but the check part's documentation fell
    0.9052 -> 0.9050, and the docs bench's Sphinx 0.994 -> 0.991 and Django 0.990 -> 0.988.
    """
    if not text.startswith("#"):
        return text
    heading, _, rest = text.partition("\n\n")
    said = words(heading)
    if len(said.split()) >= 2 and any(said in words(name) for name in names):
        return rest
    return text


# A heading is a section's: one with at most this many words under it at the end of a reading
# heads a section trafilatura stopped reading (comments, sources, a sign-up box, tags, a
# paywall's notice). Code blocks are placeholders here, as many words as the code is long.
CLOSING_HEADING_WORDS = 10
_HEADING = re.compile(r"#{1,6} ")


def _without_closing_headings(text: str) -> str:
    """The text without its closing headings: the last headings with at most CLOSING_HEADING_WORDS
    words under them all (none a table's), and those words, as long as text is left above.

    For trafilatura's readings of articles: what follows an article is its site's, headed by a
    title and cut short where the extraction stopped ("### Comments", "## Sources" and one line,
    "## This post is for paid subscribers" and "Sign in"). WCXB dev's tuning part, articles: 13
    pages up (to +0.03), 3 down (to -0.018); the article set's tuned half: 2 pages up (a comment
    section's title, a sign-up box's). Not on other pages: a service page, a listing or a product
    ends in short headed sections of its own (on every page it cost WCXB's tuning part's products
    0.605 -> 0.598, services 0.812 -> 0.810).
    """
    blocks = text.split("\n\n")
    cut, words = len(blocks), 0  # words under the headings cut, all of them together
    for i in range(len(blocks) - 1, 0, -1):
        if _HEADING.match(blocks[i]):
            cut = i
            continue
        words += len(re.findall(r"\w+", blocks[i]))
        if words > CLOSING_HEADING_WORDS or blocks[i].startswith("|"):
            break
    return "\n\n".join(blocks[:cut])


_UNSEEN = ("style", "svg", "template")
# What trafilatura deletes in any case, removed from pages that are not manuals before it
# copies the tree three times and runs its pruning passes over each copy: navigation,
# footers, asides and embedded frames are often most of a news page's markup (article
# extraction went 54 → 65 pages a second, its F1 unchanged). A manual's asides are content
# (Sphinx writes its topics and sidebars as <aside>).
_NEVER_ARTICLE = ("nav", "footer", "aside", "iframe", "button", "select", "noscript")
# Measured, not kept (branch i22svc7): a button that is a heading's child (WAI-ARIA's accordion, a
# FAQ's question) kept as text. WCXB dev's tuning part: 16 pages changed, services +0.0006, all
# +0.0002; the check part: collections -0.0013, products -0.0006 (a FAQ the gold leaves out, a
# shop's guide titles said again in their "Read full article" links).


_CHROME_TAGS = ("nav", "footer", "aside", "button")


# below the element: role="main" found from the attribute, in C (lxml's find(".//*[@role='main']")
# tested every element in Python)
_HOLDS_ROLE_MAIN = etree.XPath("boolean(descendant::*/@role[.='main'])")


def _holds_main(el: HtmlElement) -> bool:
    # per chrome element, not an XPath over every element of the page (a third of the time)
    return el.find(".//main") is not None or el.find(".//article") is not None or bool(_HOLDS_ROLE_MAIN(el))


def _not_chrome(el: HtmlElement) -> bool:
    """Whether ``el``, a tag of _CHROME_TAGS, is text rather than chrome: one holding the page's
    ``<main>`` or ``<article>`` (an unclosed tag that swallowed it), or inside a post's text
    (its schema.org ``text`` property) an ``<aside>`` holding a quote.

    Discourse writes a reply's quote of what it answers as an ``<aside>`` around a
    ``<blockquote>``, and a link's preview (its "onebox": the linked page's title and
    description) as an ``<aside>`` around an ``<article>``: inside a post the quote is the
    reply's text and the preview is not, whatever it holds (a quote of an earlier post of the
    thread then goes as :mod:`.posts` drops those). WCXB dev's tuning part, 6 Discourse
    threads change: quotes of other topics back 0.955 -> 0.995, previews out 0.806 -> 0.931;
    four lose 0.002-0.009 (a short quote of an earlier post stays; one reference keeps a
    preview); no other page changes.
    """
    if el.tag == "aside" and any(up.get("itemprop") == "text" for up in el.iterancestors()):
        return el.find(".//blockquote") is not None
    return _holds_main(el)


# a paragraph of an article's text beside an <aside>, at least this long: not a caption or a label
_STORY_PARAGRAPH_CHARS = 60
# siblings looked at each way for that paragraph: a tip box stands among the story's paragraphs,
# and a page of 20,000 sibling asides made the look quadratic (61 s)
_STORY_SIBLINGS = 10


def _aside_in_story(el: HtmlElement) -> bool:
    """Whether ``el`` is an article's ``<aside>`` between two of its paragraphs (a paragraph of
    _STORY_PARAGRAPH_CHARS at least among its siblings before it and after it), holding a
    paragraph of its own, its text mostly not links: a box of the story (a tip, a note beside a
    step), not the page's sidebar, which stands beside the story's container, not inside it.
    WCXB dev's tuning part: 1 page changed (a health page's two tip boxes, 0.949 -> 0.997), the
    check part and the article set unchanged; of the tuning part's asides inside an article or
    a main region that hold a paragraph, those between two paragraphs were the gold's text on 4
    of 6, those beside none (sidebars, newsletter calls, author boxes) on 6 of 30."""
    if el.tag != "aside" or el.find(".//p") is None:
        return False
    text = len(el.text_content())
    if sum(len(link.text_content()) for link in el.iter("a")) >= 0.5 * text:
        return False
    return all(
        any(
            sibling.tag == "p" and len(sibling.text_content()) >= _STORY_PARAGRAPH_CHARS
            for sibling in islice(el.itersiblings(preceding=before), _STORY_SIBLINGS)
        )
        for before in (True, False)
    )


def _drop_unseen(root: HtmlElement, *, documentation: bool, article: bool = False) -> None:
    """Remove what no reader sees as the page's text, before trafilatura copies the tree:
    scripts (JSON-LD aside, where its fallback looks for an article body), styles, vector
    drawings, and on pages that are not manuals the elements of _NEVER_ARTICLE."""
    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            script.tag = "llmweb-unseen"
    if not documentation:
        # an unclosed <aside>, <nav> or <button> swallows the rest of the page as the parser
        # reads it (a banner's aside held a whole blog post, a menu button a whole article):
        # one holding the page's <main> or <article>, or most of its text, is not chrome
        for el in [
            el for el in root.iter(*_CHROME_TAGS) if _not_chrome(el) or (article and _aside_in_story(el))
        ]:
            el.tag = "div"
    etree.strip_elements(root, "llmweb-unseen", *_UNSEEN, with_tail=False)
    if not documentation:
        _keep_swallowed_text(root)  # measured without the scripts' text
        etree.strip_elements(root, *_NEVER_ARTICLE, with_tail=False)


# The elements an unclosed tag turns into a page's container as the parser reads it
_SWALLOWING_TAGS = ("nav", "footer", "aside", "button")
_SWALLOWED_SHARE = 0.5  # …when one holds the page's heading and more than this share of its text
_SWALLOWING_DEPTH = 8  # nested swallowing elements looked through; more is a hostile page's


def _outermost_holding_h1(root: HtmlElement) -> list[HtmlElement]:
    """The outermost elements of _SWALLOWING_TAGS in the body that hold an h1: disjoint subtrees,
    so measuring each one's text reads the page once. Found from the page's few h1 up (an XPath
    testing every element's ancestors and descendants took 8 ms a page on WCXB dev)."""
    found: dict[HtmlElement, None] = {}  # ordered and without repeats
    for h1 in root.iter("h1"):
        outermost = None
        for el in h1.iterancestors(*_SWALLOWING_TAGS):
            outermost = el
        if outermost is not None and next(outermost.iterancestors("body"), None) is not None:
            found[outermost] = None
    return list(found)


def _keep_swallowed_text(root: HtmlElement) -> None:
    """Turn back into a plain container a nav, footer, aside or button that swallowed the page:
    one holding its h1 and most of its text (WCXB dev's tuning part: 3 articles read from
    their menu button's or nav's remains, F1 0.03 → 1.00; a long footer or a big menu
    without the page's heading stays furniture, and so does a <noscript> copy of the page)."""
    body = root.find("body")
    if body is None:
        return
    half = None  # the body's text is measured only on a page with a candidate
    for _ in range(_SWALLOWING_DEPTH):
        candidates = _outermost_holding_h1(root)
        if not candidates:
            return
        if half is None:
            half = _SWALLOWED_SHARE * len(body.text_content())
        swallowing = [el for el in candidates if len(el.text_content()) > half]
        if not swallowing:
            return
        for el in swallowing:
            el.tag = "div"


_PERMALINK_TEXT = frozenset({"¶", "#", "§", "🔗"})
_PERMALINK_CHARS = max(map(len, _PERMALINK_TEXT))
_PERMALINK_CLASS = re.compile(r"\b(headerlink|hash-link|anchor-link|anchorjs-link)\b")


def _drop_permalinks(root: HtmlElement) -> None:
    """Remove the "¶" anchors docs generators put in every heading, and unwrap a heading's text
    written as a link to the heading itself (:func:`_links_own_heading`)."""
    for a in list(root.iter("a")):
        if _PERMALINK_CLASS.search(a.get("class") or "") or (
            # a link's own text is in its whole text: one longer than a permalink's is none (most
            # links, whose whole text is not built)
            len((a.text or "").strip()) <= _PERMALINK_CHARS and a.text_content().strip() in _PERMALINK_TEXT
        ):
            a.drop_tree()
    # from the headings, which lxml finds in C: most of a page's links are elsewhere
    for a in [a for heading in root.iter(*_HEADING_TAGS) for a in heading.iterchildren("a")]:
        if _links_own_heading(a):
            a.drop_tag()


_HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_OWN_ANCHOR_LEVELS = 3  # the heading, its wrapper, its section: where a generator puts the id


# A heading whose text is a link to its own anchor (Starlight's "heading-link", Hugo's and
# Jekyll's heading anchors): the reader clicks it for the section's address. trafilatura takes a
# block whose text is all a link's for navigation, so the heading went once it was wrapped in a
# <div> (Starlight's "sl-heading-wrapper"), and a page read its sections' text without titles.
# WCXB dev's tuning part: 2 pages changed (Tauri's guide 0.929 -> 0.939, a shop's product page
# 0.630 -> 0.628), documentation 0.9431 -> 0.9432; check part articles 0.9466 -> 0.9467.
def _links_own_heading(a: HtmlElement) -> bool:
    href = a.get("href") or ""
    parent = a.getparent()
    if not href.startswith("#") or len(href) < 2 or parent is None or parent.tag not in _HEADING_TAGS:
        return False
    target = href[1:]
    up: HtmlElement | None = parent
    for _ in range(_OWN_ANCHOR_LEVELS):
        if up is None:
            return False
        if up.get("id") == target:
            return True
        up = up.getparent()
    return False


_LANGUAGE_CLASS = re.compile(
    r"(?:^|\s)(?:language|lang|highlight(?:-source)?|brush:?)[-_ ]?([a-z0-9+#_-]{1,20})", re.I
)
_NOT_LANGUAGES = frozenset({"default", "none", "text", "plaintext", "notranslate", "nohighlight"})


def _protect_code_blocks(root: HtmlElement, html: str) -> CodeBlocks:
    """Swap each outermost <pre> for a placeholder paragraph; return the blocks taken out."""
    # a page cannot forge a placeholder it does not know: a random marker, checked once
    # (extending a fixed one until the page lacked it was quadratic in a page of its letters),
    # and only on a page with code to protect: a search of the whole page, which most pages
    # (no <pre>, so no placeholder to find) were spared
    marker = _new_marker()
    if root.find(".//pre") is not None:
        while marker in html:
            marker = _new_marker()
    codes = CodeBlocks(marker, [])
    for pre in list(root.iter("pre")):
        parent = pre.getparent()
        if parent is None or any(a.tag == "pre" for a in pre.iterancestors()):
            continue
        code = _pre_text(pre)
        if not code.strip() or _is_line_numbers(pre):
            pre.drop_tree()
            continue
        token = codes.placeholder(len(codes.blocks))
        codes.blocks.append(CodeBlock(code, _code_language(pre)))
        placeholder = lxml.html.Element("p")
        # repeated to the code's length: a one-word placeholder made a short example look
        # like a snippet of links, which trafilatura deletes as navigation
        placeholder.text = " ".join([token] * max(1, len(code) // (len(token) + 1)))
        placeholder.tail = pre.tail
        parent.replace(pre, placeholder)
    return codes


# A code block's header that names its language ("js" above MDN's examples, "Python" beside
# Microsoft Learn's Copy button): the fence says it already (```js), and the label read as a
# line of text of its own was a word the page's text lacks, before every example.
_LABEL_LEVELS = 2  # the block's wrappers it may open, as the first thing in each


def _drop_language_labels(root: HtmlElement) -> bool:
    """Drop the element just before each outermost <pre> (or before a wrapper it opens) whose
    visible text, buttons left out, is the language the code block is read as; whether any was."""
    dropped = False
    for pre in list(root.iter("pre")):
        language = _code_language(pre)
        if not language or any(a.tag == "pre" for a in pre.iterancestors()):
            continue
        node = pre
        for _ in range(_LABEL_LEVELS + 1):
            label = node.getprevious()
            while label is not None and not isinstance(label.tag, str):
                label = label.getprevious()
            if label is not None:
                if _label_text(label).casefold() == language.casefold():
                    label.drop_tree()
                    dropped = True
                break
            if (node.text or "").strip() or node.getparent() is None:
                break
            node = node.getparent()
            if (node.text or "").strip():
                break
    return dropped


def _label_text(el: HtmlElement) -> str:
    if el.tag == "pre" or el.tag in _HEADING_TAGS:  # a section headed "Python" is the page's outline
        return ""
    return "".join("".join(el.xpath("descendant::text()[not(ancestor::button)]")).split())


def _new_marker() -> str:
    return "llmwebcode" + "".join(secrets.choice(string.ascii_lowercase) for _ in range(12))


def _flatten_nested_code(root: HtmlElement) -> None:
    """Make ``<code><code>shift</code> x i</code>`` one code element (Haddock writes such):
    trafilatura moved the inner one's text out, "shift x i shifts x" became "shifts shift x i x"."""
    for outer in root.xpath("/descendant::code[descendant::code][not(ancestor::code)]"):
        etree.strip_tags(outer, "code")


def _pre_text(pre: HtmlElement) -> str:
    for br in pre.iter("br"):
        br.tail = "\n" + (br.tail or "")
    text = pre.text_content()
    text = re.sub(r"\A(?:[ \t]*\n)+", "", text)  # leading blank lines, not the first line's indent
    return text.rstrip()


def _is_line_numbers(pre: HtmlElement) -> bool:
    elements = [pre, *list(pre.iterancestors())[:3]]
    return any(re.search(r"linenos|lineno|gutter", el.get("class") or "") for el in elements)


def _code_language(pre: HtmlElement) -> str:
    candidates = [pre, *pre.findall("code"), *list(pre.iterancestors())[:2]]
    for el in candidates:
        if el.get("data-lang"):
            return re.sub(r"[^\w+#-]", "", el.get("data-lang") or "")[:20]
        for match in _LANGUAGE_CLASS.finditer(el.get("class") or ""):
            language = match.group(1).lower().removeprefix("source-")
            if language not in _NOT_LANGUAGES:
                return language
    return ""


# --- bot challenges ---------------------------------------------------------------------

_CHALLENGE_TITLES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^just a moment\b"), "a Cloudflare check (“Just a moment…”)"),
    (re.compile(r"^attention required\b"), "a Cloudflare block page (“Attention Required”)"),
    (re.compile(r"checking your browser|checking if the site connection is secure"), "a browser check"),
    (re.compile(r"^ddos-guard\b"), "a DDoS-Guard check"),
    (re.compile(r"^(please wait|one more step)\b.*cloudflare"), "a Cloudflare check"),
    (re.compile(r"verif(y|ying) (that )?you are (a )?human|are you a (human|robot)|human verification"),
     "a human-verification page"),
)  # fmt: skip
_CHALLENGE_MARKERS: tuple[tuple[str, str], ...] = (
    ("_cf_chl_opt", "a Cloudflare check"),
    ('id="challenge-form"', "a Cloudflare check"),
    ("cf-browser-verification", "a Cloudflare check"),
    ("ddos-guard", "a DDoS-Guard check"),
    ("captcha-delivery.com", "a DataDome captcha"),
    ("px-captcha", "a PerimeterX captcha"),
    ("sucuri_cloudproxy_js", "a Sucuri check"),
    ("awswafintegration", "an AWS WAF challenge"),
)
_CAPTCHA_WIDGETS = ("g-recaptcha", "recaptcha/api.js", "h-captcha", "hcaptcha.com/1/api.js", "cf-turnstile")
# A real article is long; challenge pages say a sentence or two. The limits keep an
# article that merely mentions "captcha" or loads a captcha for its comment form out.
_CHALLENGE_MAX_TEXT = 1500
_CAPTCHA_MAX_TEXT = 600


def _find_challenge(root: HtmlElement) -> str | None:
    visible = _visible_text_length(root)
    if visible < _CHALLENGE_MAX_TEXT:
        title = " ".join((root.findtext(".//title") or "").split()).lower()
        for pattern, kind in _CHALLENGE_TITLES:
            if pattern.search(title):
                return kind
        source = etree.tostring(root, encoding="unicode").lower()
        for marker, kind in _CHALLENGE_MARKERS:
            if marker in source:
                return kind
        if visible < _CAPTCHA_MAX_TEXT and ("captcha" in title or any(w in source for w in _CAPTCHA_WIDGETS)):
            return "a captcha page"
    return None


def _visible_text_length(root: HtmlElement) -> int:
    """Characters of the body's text outside scripts and styles, spaces collapsed; at least
    _CHALLENGE_MAX_TEXT when a bound read without copying the page shows it is that long."""
    body = root.find("body")
    if body is None:
        return 0
    if _paragraphs_length(body) >= _CHALLENGE_MAX_TEXT:
        return _CHALLENGE_MAX_TEXT
    # removing one hidden element's text shortens the collapsed text by at most its length + 1
    hidden = sum(len(el.text_content()) + 1 for el in body.iter("script", "style", "noscript", "template"))
    if len(" ".join(body.text_content().split())) - hidden >= _CHALLENGE_MAX_TEXT:
        return _CHALLENGE_MAX_TEXT
    tree = copy.deepcopy(body)
    etree.strip_elements(tree, "script", "style", "noscript", "template", with_tail=False)
    return len(" ".join(tree.text_content().split()))


_HIDDEN = ("script", "style", "noscript", "template")


def _paragraphs_length(body: HtmlElement) -> int:
    """The collapsed length of the body's paragraphs outside and without hidden elements, read until
    it reaches _CHALLENGE_MAX_TEXT: a bound of the visible text's that an article's first paragraphs
    reach (the bound below reads the whole body, its scripts' text and all: 0.3 ms a page). Each
    such paragraph's text is a piece of the visible text, none inside another, and a text's
    collapsed length is at least its pieces' summed (words only merge across them)."""
    total = 0
    for p in body.iter("p"):
        if next(p.iterancestors("p", *_HIDDEN), None) is None and next(p.iter(*_HIDDEN), None) is None:
            total += len(" ".join(p.text_content().split()))
            if total >= _CHALLENGE_MAX_TEXT:
                break
    return total


# --- JavaScript shells ------------------------------------------------------------------


def _scripts(root: HtmlElement) -> HtmlElement:
    """A copy of every script of the page, in page order, under one element: all that
    read_embedded reads (a manual's or a thread's answer, a sixth of WCXB dev's pages, never
    needs it, and decoding it cost them 10 ms a page)."""
    holder = lxml.html.Element("div")
    holder.extend(copy.copy(script) for script in root.iter("script"))
    for script in holder:
        script.tail = None  # the page's text after it, copied along
    return holder


def _has_scripts(root: HtmlElement) -> bool:
    return any(
        (script.get("type") or "").strip().lower() in SCRIPT_TYPES
        and (script.get("src") or (script.text or "").strip())
        for script in root.iter("script")
    )


def _javascript_message(url: str, *, chrome: bool) -> str:
    # Nothing the page wrote is quoted here: an error is read as llmweb's own words. The page's
    # title and description travel beside the message (NeedsJavaScript.title/.description),
    # and render_error shows them between the untrusted-text markers.
    hint = github_cli_hint(url)
    if hint:
        return (
            f"{url} is a GitHub page that needs JavaScript, so its HTML holds almost no text. "
            f"Read it with the GitHub command-line tool instead: `{hint}`."
        )
    holds = (
        "only site furniture (a cookie notice, a login prompt, a footer)"
        if chrome
        else "none of the page's text, in its markup or in the data embedded in it"
    )
    return (
        f"{url} is filled in by JavaScript; its HTML holds {holds}. Use the search result's snippet, "
        f"try a cached copy (https://web.archive.org/web/{url}) or the site's API, or search for another source."
    )
