"""A listing's items: a shop's product grid, a category's entries, a list of results. Pure.

On a page that is not an article, its items are its content: each a card holding a name, a
price or a date, a line of description, most of it links. trafilatura reads such cards badly:
a block made mostly of links goes as navigation, and a card's name (a link in a box of its
own) is dropped while its price (a paragraph) stays; a desk shop's 159 accessories came back
as 159 prices. Before trafilatura reads the page, the grid is found by its shape, never by
its names, and each card becomes one line of a list, its visible texts joined, each once (a
card names its item in a label for screen readers, its link and its heading, and says "Regular
price" beside each price; said once, WCXB dev's listings went 0.692 -> 0.698 on the tuning part
and 0.703 -> 0.713 on the check part, collections 0.703 -> 0.707 there), less the calls to
action every card repeats: a link, button or label saying the same words to each item's own
address or to none ("Quick view", "Compare", "Read full story"; WCXB dev's tuning part:
collections 0.647 -> 0.651, 9 pages changed, none lower; check part: collections 0.711 -> 0.711,
listings 0.713 -> 0.716, no type lower); a control whose words hold a digit is left out only
when it goes nowhere in every card, a rating widget's "1 of 5 stars" (tuning part: one listing
0.52 -> 0.66, listings 0.7043 -> 0.7063; check part and article set unchanged), and less a
widget every card repeats word for word, a box of calls to action and the words about using
them (a rating widget's "Rate this book", "Clear rating"; that book list 0.66 -> 0.78, listings
0.7063 -> 0.7080; check part and article set unchanged), and less a bare count, a number in
brackets beside a rating's stars or with a plus beside a product's colour swatches, which counts
what only the picture shows (WCXB dev's tuning part: 13 pages up, one down, a shop's gold keeping
its "+8"; collections 0.7042 -> 0.7055). The grid is:

- a run of four or more children of one element with the same tag and class, nearly all
  (:data:`_LINKED_MEMBERS`) holding a link, a dozen characters each on average; or with the
  same tag, each card naming itself in a class of its own beside the names they share
  (:func:`_per_item_runs`: a marketplace's "item-card--3"; WCXB dev's tuning part, 2 pages
  changed, none lower: a marketplace's collectibles 0.76 -> 0.94, a shop's search results
  0.56 -> 0.60; listings 0.7161 -> 0.7166, collections 0.6955 -> 0.6980);
- the run holding the most text of any, at least a fifth (:data:`_PAGE_SHARE`) of the
  page's visible text;
- a fifth of its text or more (:data:`_LINK_SHARE`) in links. Cards whose text is mostly
  their own (forum posts, a service's feature blocks, an article's sections) trafilatura
  reads already; flattening them lost what it kept (WCXB dev's tuning part: 25 such pages
  lost 3.5 F1 in sum where 15 gained 2.5). Or a shop's cards with less in links, saying their
  fields beside a linked name (:func:`_short_fields`): WCXB dev's tuning part, 6 pages changed,
  +0.09 summed (a shop's headlamps 0.54 -> 0.68, a trail table 0.53 -> 0.60), one article
  0.998 -> 0.986, and two shops whose gold text is their buying guide without their products
  lower (0.51 -> 0.44, 0.34 -> 0.27); listings 0.7150 -> 0.7160, collections 0.6938 -> 0.6943;
  check part: collections 0.7355 -> 0.7428, products 0.6930 -> 0.6940, services 0.7962 ->
  0.7968, articles 0.9437 -> 0.9436; the article set unchanged (0.974, other half 0.972).

Nor is a run of the page's own parts a grid (:func:`_page_parts`): the children of its <main> or
<body>, or a handful of blocks none of which shows a picture and most of which link to three places
or more, a service page's columns of practices, a wiki's lists of links under headings. Read as
lines, a service page's four columns of practices came back as four lines, and trafilatura then
left out the case studies under them (WCXB dev's tuning part: 4 pages changed, none lower: that
page 0.80 -> 0.96, a console's page of sections 0.78 -> 0.83, a wiki's lists 0.910 -> 0.923, a
collection 0.417 -> 0.432; services 0.8666 -> 0.8678, products 0.6639 -> 0.6645; check part:
collections 0.7435 -> 0.7490, no type lower).

Menus, headers, footers and forms are never searched, and a page that declares it sells one
thing (:func:`.metadata.declares_product`) is left alone: its cards are other products; so is
one post of a blog that its microformats mark (:func:`.metadata.marks_one_entry`), where an old
template's regions, ``<div>``s named by id alone (header, main column, sidebar, footer), made a run
of four with links and the page came back as one line (WCXB dev's tuning part: one article 0.36 ->
0.99). A page that declares an article is read as a listing only when its grid holds half its
visible text and no card holds over a quarter of the grid's: a news section, a shop's genre page or a list article
that calls itself an article, where trafilatura read the cards' captions or lost the headlines
(WCXB dev's tuning part: 7 pages changed, +0.86 summed, one 0.004 lower; listings 0.7069 ->
0.7149, collections 0.6898 -> 0.6938; check part: listings 0.7269 -> 0.7289, collections 0.7306
-> 0.7356, one article -0.020). A story page whose run of blocks holds the story itself is not
one: without that test the article set's other half lost a page (precision 1.0 -> 0.62). Nor
need the grid hold half the text of such a page with no paragraph of prose beside it
(:func:`_no_prose_beside`): a maker's category page that calls itself an article, its menus in
``<div>``s outweighing its products (WCXB dev's tuning part: one listing 0.07 -> 0.68, no other
page changed; check part: collections 0.7430 -> 0.7433, no type lower). Measured and not kept:
a grid outweighing the prose beside it by half again (a recipe index 0.43 -> 0.76 on the tuning
part, but the check part's listings 0.7577 -> 0.7570).

On WCXB dev (bench/wcxb.py, layer ``item_list``) this fired on 76 of the tuning part's 998
pages, 60 of them collections and listings: F1 0.633 -> 0.687 there (listings 0.577 -> 0.685),
and on 41 pages of the check part nobody looked at, 0.691 -> 0.742. Where it lost most, a
shop's grid in <main> beside a long buying guide outside it, the list's plain lines made
<main> enough for trafilatura, which left the guide out; so the page is read again as it was
and that reading kept when the list's reading left out a third of its length in paragraphs of
prose (.extract._loses_prose). WCXB dev's tuning part: the list's gain where it fires +0.018
on 76 pages -> +0.037 on 74 (2 collections 0.22 -> 0.94 and 0.24 -> 0.87, no page lower,
collections 0.651 -> 0.670); check part: no type changed.

A page of headlines whose cards make no run, each in boxes of its own shape, keeps its entries'
titles another way: its linked headings are made text (:func:`unlink_headlines`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from itertools import islice

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.sizes import link_text_size, text_size

_MIN_MEMBERS = 4
_LINKED_MEMBERS = 0.8
_MIN_MEMBER_CHARS = 12
_PAGE_SHARE = 0.2
_ARTICLE_SHARE = 0.5  # on a page that declares an article: a news section's, a shop's genre page
_PROSE_CHARS = 150  # a paragraph of prose: a story's, not a card's teaser or a caption (._no_prose_beside)
_CARD_SHARE = 0.25  # of the grid's text, the most one card holds on such a page (._one_shape)
_LINK_SHARE = 0.2
_FIELD_CHARS = 80  # a card's longest text, in the middle card: a name, a price, a rating's words
_MORE_CARDS = 3  # the grid's cards under another parent: a run of them too (._more_cards)
_PART_PLACES = 3  # a part of the page links to this many places (an item card: its item, its maker)
_FEW_CARDS = 6  # a run this short, none of it pictured, may be the page's own parts (._page_parts)
_WIDGET_CONTROLS = 2  # calls to action in a box of nothing else: a widget (._leave_out_widgets)
_ACTION_SHARE = 0.8  # of the cards: a call to action every card makes (.write_list leaves it out)
_NOT_SEARCHED = frozenset(
    {"nav", "header", "footer", "aside", "form", "script", "style", "noscript", "template", "select"}
)
_SEPARATOR = " · "
_NOWHERE = (None, "", "#")  # a control's address when its script does what it says
_CONTROLS = frozenset({"a", "button", "label"})  # a label: a card's "Compare" box, its "Size" picker

# what a card shows: not a video's, a drawing's or a picker's words, which a browser shows only
# when it cannot play or draw them (and trafilatura drops; WCXB dev's tuning part: 1 collection
# 0.772 -> 0.787, no page lower, check part unchanged)
_VISIBLE_TEXT = etree.XPath(
    ".//text()[not(ancestor::script or ancestor::style or ancestor::noscript or ancestor::template"
    " or ancestor::video or ancestor::audio or ancestor::svg or ancestor::canvas or ancestor::object"
    " or ancestor::select or ancestor::textarea)]"
)
# elements with children enough for a run (a 4th child: libxml2 stops there, where count(*) >= 4
# counted them all), outside the page's menus, header, footer and forms
_PARENTS = etree.XPath(
    "descendant-or-self::*[*[4]][not(ancestor-or-self::*[self::nav or self::header or self::footer"
    " or self::aside or self::form or self::select or self::noscript or self::template])]"
)
_TEXT = etree.XPath("normalize-space()")
# a card's count of what it draws: its reviews' beside its stars ("(28)"), its other colours'
# beside its swatches ("+3"); a count with its words ("1,202 ratings") says what it counts
_BARE_COUNT = re.compile(r"\(\d[\d,]*\)|\+\d+")
_UNSEEN = ("script", "style", "noscript", "template")


Grid = tuple[HtmlElement, list[HtmlElement]]


def item_grid(root: HtmlElement, *, article: bool = False) -> Grid | None:
    """The page's item grid (its container and its cards), if it has one; on a page that declares
    an article, only a grid holding half its visible text (:data:`_ARTICLE_SHARE`), or a fifth
    of it with no paragraph of prose beside it (:func:`_no_prose_beside`)."""
    body = root.find("body")
    if body is None:
        return None
    if not article:
        return _item_grid(body, _PAGE_SHARE, one_shape=False)
    found = _item_grid(body, _PAGE_SHARE, one_shape=True)
    if found is None:
        return None
    size = sum(_size(member) for member in found[1])
    return found if size >= _ARTICLE_SHARE * _visible_size(body) or _no_prose_beside(body, found[1]) else None


def _no_prose_beside(body: HtmlElement, members: list[HtmlElement]) -> bool:
    """Whether no paragraph outside the cards says more than :data:`_PROSE_CHARS` characters: a
    shop's category page that declares an article (its grid a fifth of its text, the rest its
    menus and a dealer finder) has no story beside its cards; a story page has its story."""
    inside = {p for member in members for p in member.iter("p")}  # held: a proxy is one while held
    return not any(
        len(" ".join(p.text_content().split())) > _PROSE_CHARS for p in body.iter("p") if p not in inside
    )


def _one_shape(members: list[HtmlElement]) -> bool:
    """Whether no card holds over a quarter of the cards' text (:data:`_CARD_SHARE`): a section's
    stories are alike; a run of a story page's blocks, the story one of them, is not."""
    sizes = [_size(member) for member in members]
    return max(sizes) <= _CARD_SHARE * sum(sizes)


def write_list(found: Grid) -> None:
    """Rewrite a grid :func:`item_grid` found as a list of one line per item, and the runs of
    its cards elsewhere on the page (:func:`_more_cards`) as lists too."""
    for run in (found, *_more_cards(found)):
        _write_run(*run)


# A listing's toolbar: the short blocks right above its first item, this many words each at most
# and this many blocks at most, none a heading: its count ("Products (153)", "loaded 153 results"),
# its sort order and view switch ("Sort: Best Match", "View:"), its filters' buttons and chips
# ("Filter & Sort", "Black", "Blue"). A reader scans past them to the items, and WCXB's gold texts
# mostly leave them out. WCXB dev's tuning part: 22 pages changed, 3 lower by 0.002 at most,
# collections 0.7115 -> 0.7121, listings 0.7284 -> 0.7289; check part: collections 0.7590 ->
# 0.7593, listings 0.7548 -> 0.7552, products 0.6992 -> 0.6993, no type lower; the article set
# unchanged. At 2 and 3 words the tuning part gained less; at 6 words over 10 blocks more
# (collections 0.7123), but the check part's products fell (0.6992 -> 0.6982); with headings
# counted as toolbar, less at every size.
TOOLBAR_WORDS = 4
TOOLBAR_BLOCKS = 6


def without_toolbar(text: str) -> str:
    """``text`` (a reading of a page whose grid :func:`write_list` wrote, blocks parted by blank
    lines) less the toolbar above the first of its items, the first block with a line of fields."""
    blocks = text.split("\n\n")
    first = next((i for i, block in enumerate(blocks) if _SEPARATOR in block), None)
    if first is None:
        return text
    start = first
    while (
        start > 0
        and first - start < TOOLBAR_BLOCKS
        and not blocks[start - 1].startswith("#")
        and len(re.findall(r"\w+", blocks[start - 1])) <= TOOLBAR_WORDS
    ):
        start -= 1
    return text if start == first else "\n\n".join(blocks[:start] + blocks[first:])


def _more_cards(found: Grid) -> list[Grid]:
    """Runs of three or more of the grid's cards (the same tag and class) under other parents,
    outside the menus, header, footer and forms: a grid an advertisement or a heading splits,
    a second row of the same stories. A class-less card is no shape to go by. Two such cards
    were a page's fields of another kind (WCXB dev's tuning part: a listing 0.96 -> 0.94).
    With three, the tuning part: 3 pages changed, a topic page's stories 0.80 -> 0.93, collections
    0.6816 -> 0.6833, listings 0.7080 -> 0.7081; the check part: listings and collections
    unchanged, one product page lower (products 0.6787 -> 0.6776); the article set unchanged."""
    container, members = found
    tag, shape = members[0].tag, members[0].get("class")
    if not shape:
        return []
    shared = _shared_classes(members)
    runs: defaultdict[HtmlElement, list[HtmlElement]] = defaultdict(list)
    for card in container.getroottree().getroot().iter(tag):
        parent = card.getparent()
        alike = card.get("class") == shape or (
            shared is not None and shared <= set((card.get("class") or "").split())
        )
        if alike and parent is not None and parent is not container:
            runs[parent].append(card)
    return [
        (parent, cards)
        for parent, cards in runs.items()
        if len(cards) >= _MORE_CARDS and next(cards[0].iterancestors(*_NOT_SEARCHED), None) is None
    ]


def _write_run(container: HtmlElement, members: list[HtmlElement]) -> None:
    actions = _card_actions(members)
    _leave_out_widgets(members, actions)
    for member in members:
        # each text once: a card names its item in its image's caption, its link and its heading,
        # and says "Regular price" to screen readers beside each price
        texts = dict.fromkeys(text for text in (" ".join(t.split()) for t in _VISIBLE_TEXT(member)) if text)
        line = _SEPARATOR.join(
            text for text in texts if text not in actions and not _BARE_COUNT.fullmatch(text)
        )
        tail = member.tail
        member.clear()  # its attributes too: a card's class names mean nothing to a list item
        member.tag, member.text, member.tail = "li", line, tail
    container.tag = "ul"
    container.attrib.clear()


def _item_grid(body: HtmlElement, share: float, *, one_shape: bool) -> Grid | None:
    best: Grid | None = None
    best_size = 0
    for parent in _PARENTS(body):  # found in C: walking every element in Python took 7 ms a page
        runs: defaultdict[tuple[str, str | None], list[HtmlElement]] = defaultdict(list)
        for child in parent:
            if isinstance(child.tag, str) and child.tag not in _NOT_SEARCHED:
                runs[(child.tag, child.get("class"))].append(child)
        for members in (*runs.values(), *_per_item_runs(runs)):
            if len(members) < _MIN_MEMBERS:
                continue
            # a link is the member or in it (an iterator in C: ElementPath's find took twice as long)
            linked = sum(1 for m in members if next(m.iter("a"), None) is not None)
            if linked < _LINKED_MEMBERS * len(members):
                continue
            size = sum(_size(m) for m in members)
            if size >= _MIN_MEMBER_CHARS * len(members) and size > best_size:
                best, best_size = (parent, members), size
    if best is None:
        return None
    links = sum(link_text_size(m) for m in best[1])
    if links < _LINK_SHARE * best_size and not _short_fields(best[1]):
        return None
    if one_shape and not _one_shape(best[1]):
        return None
    if _page_parts(*best):
        return None
    # last: the body's visible text, measured whole, for a run that passed the tests on its own
    # cards (the article set's pages: measured on 32 of them, not on the 72 with a run)
    return None if best_size < share * _visible_size(body) else best


def _page_parts(container: HtmlElement, members: list[HtmlElement]) -> bool:
    """Whether the run is the page's own parts, not a grid of items: the children of its <main>
    or <body> (a product's landing page, its sections classed alike), or a handful of blocks
    (:data:`_FEW_CARDS` or fewer) none of which shows a picture and most of which link to
    :data:`_PART_PLACES` places or more: a service page's columns, each listing its practices with
    a line of description, or a wiki's lists of links under headings. An item's card links to its
    item and perhaps its maker or author (two places, a fragment of one address counted as it),
    and a shop's or a news section's shows a picture of it."""
    if container.tag in ("main", "body"):
        return True
    if len(members) > _FEW_CARDS or any(next(m.iter("img", "picture"), None) is not None for m in members):
        return False
    places = sorted(
        len({(a.get("href") or "").partition("#")[0] for a in m.iter("a")} - {""}) for m in members
    )
    return places[len(places) // 2] >= _PART_PLACES


def _per_item_runs(runs: dict[tuple[str, str | None], list[HtmlElement]]) -> list[list[HtmlElement]]:
    """Runs of one tag whose cards each carry a class name of their own beside the names they
    share: a marketplace numbering its cards ("item-card item-card--3 item-card--list"), a
    shop's grid placing each ("wt-order-xs-2"), a blog classing each post by its id. Grouped by
    their whole class, no two such cards made a run. They are one when half the cards or more
    spell their classes differently, the names they share are half each card's or more (not a
    page builder's "widget" on a heading, a text and a picture) and no card holds over a quarter
    of the run's text (not a page's sections, one of them its buying guide)."""
    by_tag: defaultdict[str, list[HtmlElement]] = defaultdict(list)
    for (tag, _), members in runs.items():
        by_tag[tag].extend(members)
    found: list[list[HtmlElement]] = []
    for members in by_tag.values():
        shared = _shared_classes(members)
        if (
            shared
            and len(members) >= _MIN_MEMBERS
            and 2 * len({m.get("class") for m in members}) >= len(members)
            and all(2 * len(shared) >= len(m.get("class", "").split()) for m in members)
            and _one_shape(members)
        ):
            parent = members[0].getparent()
            order = {child: i for i, child in enumerate(parent)} if parent is not None else {}
            found.append(sorted(members, key=lambda m: order.get(m, 0)))
    return found


def _shared_classes(members: list[HtmlElement]) -> set[str] | None:
    """The class names every member has, when the members' classes are not all one (else None)."""
    shapes = {m.get("class") for m in members}
    if len(shapes) < 2 or None in shapes:
        return None
    return set.intersection(*(set((shape or "").split()) for shape in shapes))


def _short_fields(members: list[HtmlElement]) -> bool:
    """Whether the cards are a shop's, their links' text or not: fields of a few words (their
    middle card's longest text :data:`_FIELD_CHARS` or less), each card linking to an address of
    its own. A product card links its name and image and says the rest beside them, its price,
    its rating's words, its specifications' names and values, so its links can hold less than a
    fifth of its text; a forum post or a feature block says its own text in sentences."""
    longest = sorted(max((len(" ".join(t.split())) for t in _VISIBLE_TEXT(m)), default=0) for m in members)
    if longest[len(longest) // 2] > _FIELD_CHARS:
        return False
    own = {next((a.get("href") for a in m.iter("a") if a.get("href") not in _NOWHERE), None) for m in members}
    return len(own - {None}) >= _LINKED_MEMBERS * len(members)


def _leave_out_widgets(members: list[HtmlElement], actions: set[str]) -> None:
    """Leave out of the cards the widgets nearly every card repeats word for word, a box whose
    controls, two or more, are all calls to action: a rating widget (its stars, "Rate this
    book", "Clear rating", its hidden error message), a box of "Want to read" and "Share"
    buttons. What such a box says beside its controls is about using them, not about the item;
    a box holding the item's own link, or its price beside an "Add to cart", is not one."""
    found = [_widgets(member, actions) for member in members]
    texts = Counter(text for boxes in found for text in {_TEXT(box) for box in boxes})
    for boxes in found:
        for box in boxes:
            if texts[_TEXT(box)] >= _ACTION_SHARE * len(members):
                box.drop_tree()  # its tail is the card's own text


def _widgets(member: HtmlElement, actions: set[str]) -> list[HtmlElement]:
    """The outermost boxes in a card holding calls to action only, two or more."""
    said: dict[HtmlElement, list[int]] = {}  # a box: [other controls, calls to action] within it
    for control in member.iter():
        if control.tag not in _CONTROLS and control.get("role") != "button":
            continue
        text = " ".join(control.text_content().split())
        if not text:
            continue
        for box in control.iterancestors():
            if box is member:
                break
            said.setdefault(box, [0, 0])[text in actions] += 1
    widgets = {box for box, (other, acting) in said.items() if not other and acting >= _WIDGET_CONTROLS}
    return [box for box in widgets if not any(up in widgets for up in box.iterancestors())]


def _card_actions(members: list[HtmlElement]) -> set[str]:
    """The words of the links and controls nearly every card repeats to a different address (or
    to none): "Quick view", "Compare", "Read full story" are things to do with each item, not
    what it is. A link saying the same to one address in every card (the one brand a shop
    carries, the category of a list of events) is data, and one with a digit is a count or a
    price, unless it goes nowhere in every card: a rating widget's "1 of 5 stars" (a count
    links to its item's reviews, a price to its item)."""
    addresses: defaultdict[str, list[str | None]] = defaultdict(list)
    for member in members:
        said: dict[str, str | None] = {}
        for control in member.iter():
            if control.tag not in _CONTROLS and control.get("role") != "button":
                continue
            text = " ".join(control.text_content().split())
            if text:
                said.setdefault(text, control.get("href"))
        for text, href in said.items():
            addresses[text].append(href)
    return {
        text
        for text, hrefs in addresses.items()
        if len(hrefs) >= _ACTION_SHARE * len(members)
        and (
            all(href in _NOWHERE for href in hrefs)
            if any(c.isdigit() for c in text)
            else len(set(hrefs)) > 1 or hrefs[0] in _NOWHERE
        )
    }


def _size(el: HtmlElement) -> int:
    return text_size(el)


def _visible_size(el: HtmlElement) -> int:
    # the whole text less what scripts and styles hold: an XPath of the text nodes outside
    # them looked up each node's ancestors (7 ms on a large page); the outermost only, as a
    # <noscript> holding scripts counted twice left a page's visible text below nothing
    return _size(el) - sum(_size(unseen) for unseen in _outer_unseen(el))


def _outer_unseen(el: HtmlElement) -> list[HtmlElement]:
    """``el``'s scripts, styles, <noscript>s and <template>s outside any other: an XPath testing
    every element's ancestors took three times as long as the ancestors of these few."""
    return [
        unseen
        for unseen in el.iterdescendants(*_UNSEEN)
        if next(unseen.iterancestors(*_UNSEEN), None) is None
    ]


_HEADINGS = ("h2", "h3", "h4")  # an entry's title: the page's own is its <h1>
_HEADLINE_WORDS = 4  # a story's title says this many words at least; "Most read", "Latest" fewer
_MIN_HEADLINES = 6
_HEADLINE_SHARE = 0.5  # of the page's headings outside its chrome


def may_head_entries(root: HtmlElement) -> bool:
    """Whether a page that declares an article may be an index of entries for
    :func:`unlink_headlines`: :data:`_MIN_HEADLINES` <article> elements or more, found by lxml in
    C (the headings' search cost 0.15 ms a page over the dev pages that declare one, and a count
    in the HTML of a page stored two bytes a character 0.1 ms)."""
    return sum(1 for _ in islice(root.iter("article"), _MIN_HEADLINES)) >= _MIN_HEADLINES


def unlink_headlines(root: HtmlElement, *, article: bool = False) -> bool:
    """Make the linked headings of a page of headlines plain text (their links' words stay),
    so that trafilatura keeps the entries' titles; whether the page is one. Not for a manual
    (.extract), nor for a page that declares an article (``article``) unless its linked headings
    head :data:`_MIN_HEADLINES` <article>s or more (each heading's nearest): a story's linked
    headings are other stories, but a blog's index that its theme calls an article marks each
    entry an <article> of its own.

    A news front page, a section or a blog's index heads each entry with a link to it; its
    cards, each in boxes of its own and of many shapes, make no run for :func:`item_grid`, and
    trafilatura drops their titles as links while keeping their teasers and bylines: a
    technology site's front page came back with 1 of its 36 headlines. WCXB's gold texts keep
    an index's linked headings: of the 25 tuning listings with three or more (four words or
    more each), 16 keep 94 % of them or more, where their other fields (dates, bylines, counts,
    teasers, "Read more") are kept on some pages and dropped on as many. The page is one when
    :data:`_MIN_HEADLINES` or more of its <h2>-<h4>s outside its chrome, :data:`_HEADLINE_WORDS`
    words or more each, link (a link in the heading or around it), and they are half its
    headings or more (:data:`_HEADLINE_SHARE`): a service page's or an undeclared article's few
    linked headings, "related stories" under a text of its own headings, stay links.

    WCXB dev's tuning part: fires on 6 pages, 2 changed, none lower (that front page 0.689 ->
    0.929, a news hub 0.639 -> 0.673): listings 0.7284 -> 0.7325; check part: fires on one
    listing, no page changed; the article set unchanged (0.9749, held-out half 0.9741). Measured:
    three linked headings or more, whatever their share, 38 pages (tuning listings the same,
    an undeclared article 0.994 -> 0.953; check services 0.8148 -> 0.8144); three words a
    heading, a shop's sofas 0.965 -> 0.941; a share of 0.3, one more article up (0.80 -> 0.83),
    12 pages; on declared articles too, a magazine's category page 0.929 -> 0.675.

    On a declared article whose linked headings head six <article>s or more: of the 25 tuning
    pages (any type) that declare an article and have the linked headings above, the 5 listings
    keep them in their gold texts (4 all, a news index half); the 20 others drop them on 9 pages
    (related stories) and keep them on 11 (list articles, whose entries are its sections); none
    of those 20 heads six <article>s with them. WCXB dev's tuning part: fires on 3 pages, all
    listings (one, a news section, once its grid is a list): a recipe index 0.435 -> 0.548, that
    news section 0.702 -> 0.719, a company blog 0.448 -> 0.403 (its entries written twice, as
    cards and as a list, their teasers now read twice); listings 0.7330 -> 0.7343; check part:
    no page changed; the cost, behind a test of the HTML (:func:`may_head_entries`), 0.06 ms a
    page over all dev pages.
    """
    body = root.find("body")
    if body is None:
        return False
    headings = 0
    linked: list[list[HtmlElement]] = []
    entries: set[HtmlElement] = set()  # the nearest <article> around each linked heading
    for heading in body.iter(*_HEADINGS):
        # the ancestors walked in C: 90,000 headings 250 wrappers deep took 7.5 s in Python
        if next(heading.iterancestors(*_NOT_SEARCHED), None) is not None:
            continue
        headings += 1
        links = list(heading.iter("a")) or list(islice(heading.iterancestors("a"), 1))
        if links and len(heading.text_content().split()) >= _HEADLINE_WORDS:
            linked.append(links)
            entry = next(heading.iterancestors("article"), None)
            if entry is not None:
                entries.add(entry)
    if len(linked) < _MIN_HEADLINES or len(linked) < _HEADLINE_SHARE * headings:
        return False
    if article and len(entries) < _MIN_HEADLINES:
        return False
    for links in linked:
        for a in links:
            a.tag = "span"
            a.attrib.clear()
    return True
