"""Whether a page's HTML carries its subject, and which text to hand back. Pure.

Decided by content, not by length. The visible text, less its chrome (:mod:`.chrome`), is
the page when it is real text and not dwarfed by what the embedded data adds; the schema.org
data then only fills in what the visible text lacks (a recipe card drawn by scripts, a
product's price). When the visible text is chrome or a scrap beside much larger embedded
content, the embedded data is the page; beside a visible text on the page's subject, only
declared (schema.org) data may be, never a framework's state, and a page that declares its
subject is read from that declaration, not from the state around it. When neither carries anything,
the page is a shell: a scriptless placeholder is answered with its own description, anything
else is refused, and so is a placeholder whose description is the site's tagline, not the page's
summary (:func:`is_tagline`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Literal, NamedTuple
from urllib.parse import urlsplit

from llmweb.fetch.javascript.chrome import without_chrome
from llmweb.fetch.javascript.embedded import Block, EmbeddedText
from llmweb.fetch.javascript.schema_org import thing_parts
from llmweb.fetch.javascript.seen import SeenText
from llmweb.fetch.limits import MIN_TEXT_CHARS

Kind = Literal["visible", "embedded", "description", "shell", "chrome", "empty"]

# Visible text this long is the page even beside larger embedded data: a rendered article
# whose state also holds teasers, comments and related stories keeps its text alone.
_OWN_TEXT_CHARS = 2000
_CHROME_CHECK_CHARS = 10_000
_DWARFED = 3  # embedded text this many times the visible text (and new to it) takes over
_FILL_MIN_CHARS = 30  # a declared thing fills in a rendered page when it adds this much
_ARTICLE_FILL_MIN_CHARS = 1000  # an article's data mostly repeats its page: only a missing body counts
_OFF_SUBJECT = 1 / 3  # the visible text holds less than this share of the title's words…
_ON_SUBJECT = 2 / 3  # …and the embedded data at least this share: the data is the page
_ARTICLE = re.compile(r"Article|Posting|Report|NewsArticle|BlogPosting|WebPage", re.I)
_PRODUCT = re.compile(r"Product")  # JSON-LD Product, ProductGroup, IndividualProduct…
_PRICED_OFFER = re.compile(r"^Offer: [^\n]*\d", re.M)  # .schema_org's offers line, with a price


class Verdict(NamedTuple):
    kind: Kind  # visible: the rendered text; embedded: recovered data; description: a placeholder's
    # own summary; shell / chrome / empty: nothing of the page's subject reached the HTML
    text: str = ""
    sources: tuple[str, ...] = ()  # the embedded data the text (or part of it) came from


class Visible(NamedTuple):
    """The rendered text as the verdict weighs it."""

    text: str
    real: str  # less its chrome
    share: float  # of the title's words it holds (subject_share)
    # A long visible text on the page's subject is the page whatever a framework's state holds
    # (judge: only declared data may fill it in), so the state is neither decoded
    # (embedded.read_embedded's declared_only) nor weighed: on WCXB dev's pages weighing it was
    # 2.4 ms a page (of 6) of a judgement that could not change.
    stands: bool
    normal: str  # the text as _normal gives it: judge compares the data with it, weigh_visible
    # weighs the title's words in it (a long text's words sought once, not twice: 0.15 ms a page)


def weigh_visible(visible: str, title: str | None) -> Visible:
    """The visible text less its chrome, its share of the title's words, and whether it stands."""
    # chrome is short: a long text is the page's own, and is not searched paragraph by paragraph
    real = without_chrome(visible) if len(visible) < _CHROME_CHECK_CHARS else visible
    normal = _normal(visible)
    share = subject_share(title, real, normal=normal if real == visible else None)
    return Visible(visible, real, share, len(real) >= _OWN_TEXT_CHARS and share >= _OFF_SUBJECT, normal)


def judge(
    seen: Visible,
    embedded: EmbeddedText,
    *,
    has_scripts: bool,
    description: str | None,
    title: str | None = None,
) -> Verdict:
    """Which text stands for the page: see the module's docstring. ``seen`` is
    :func:`weigh_visible`'s reading of the visible text, with the same title. A "description"
    verdict whose description is the site's tagline (:func:`is_tagline`, asked by the caller
    only then: it reads the page's head) is a shell."""
    visible, real, share, stands, normal = seen
    blocks = [replace(b, text=without_chrome(b.text)) for b in embedded.blocks if b.declared or not stands]
    blocks = [b for b in blocks if b.text.strip()]
    if any(b.declared and _names_subject(title, b) for b in blocks):
        # The page declares its subject (a schema.org thing named as the title): a framework's
        # state holds that too, and the site around it (menus, filters, related items,
        # promotions). On WCXB dev's tuning part this took 3 product pages from F1 0.19 to 0.46.
        blocks = [b for b in blocks if b.declared]
    # each text normalised once: a page of many blocks compared each with the whole visible text
    in_blocks = SeenText(_normal("\n\n".join(b.text for b in blocks)))
    if real and len(real) < MIN_TEXT_CHARS and not _missing_from(real, in_blocks):
        # a scrap the extractor took from the data itself (JSON-LD steps): the data says it better
        visible = real = normal = ""
    in_visible = SeenText(normal)  # sought once for each line of the data
    new = [replace(b, text=t) for b in blocks if (t := _missing_from(b.text, in_visible))]
    # Beside a real visible text on the page's subject, only declared data (schema.org: the
    # page's own subject) may take the page over. A framework's state also holds menus,
    # related items, translations and settings: on WCXB dev's tuning part the data took 18
    # pages over (most of them products, services and listings with 300-1,400 characters of
    # rendered text), F1 0.19 against 0.45 without it; with this rule they read 0.35. A
    # visible text off the subject (a video page's footer beside its player's data) is no
    # such text.
    on_subject = len(real) >= MIN_TEXT_CHARS and share >= _OFF_SUBJECT
    rival = [b for b in new if b.declared] if on_subject else new
    dwarfed = len(real) < _OWN_TEXT_CHARS and sum(len(b.text) for b in rival) > _DWARFED * len(real)
    # the visible text is about something else (a sidebar, related items) while the data
    # names the page's subject: the data is the page. A long visible text (an essay whose
    # title's words it never repeats) gives way only to declared data at least as long, and
    # any visible text to declared data only when it would be worth filling it in with
    # (_fills): a shop's rendered sizes and prices, its product's name in a heading trafilatura
    # left out, are not displaced by catalogue data (an id, a category, a rating: on WCXB
    # dev's tuning part a product page fell from F1 0.43 to 0.19). A framework's state is
    # judged as before (a track's page: its description in the player's state).
    long_visible = len(real) >= _OWN_TEXT_CHARS
    takers = [b for b in rival if b.declared or not long_visible]
    recovered = "\n\n".join(b.text for b in takers)
    off_subject = (
        len(recovered) >= max(MIN_TEXT_CHARS, len(real))
        and share < _OFF_SUBJECT
        and subject_share(title, recovered) >= _ON_SUBJECT
        and any(not b.declared or _fills(b, title) for b in takers)
    )
    if len(real) >= MIN_TEXT_CHARS and not dwarfed and not off_subject:
        # only the sentences the page does not show: an article's body in its JSON-LD is one
        # line, kept whole beside the rendered body whenever part of it was not shown
        unshown = [replace(b, text=_unshown(b.text, in_visible)) for b in new if b.declared]
        fill = [b for b in unshown if _fills(b, title, shown=len(real))]
        # the page's numbers read once, not once per product (a page may declare hundreds)
        shown = _shown_prices(visible) if any(_PRODUCT.search(b.source) for b in fill) else set()
        fill = [b for b in (_shop_card(b, shown) for b in fill) if b is not None]
        if not fill:
            return Verdict("visible", visible)
        text = "\n\n".join([visible, *(b.text for b in fill)])
        return Verdict("visible", text, tuple(dict.fromkeys(b.source for b in fill)))
    # the visible scrap stays when it says something the data does not; the data then gives
    # everything the kept scrap lacks (not only what the whole visible text lacked)
    own = real if real and not off_subject and _missing_from(real, in_blocks) else ""
    in_own = SeenText(_normal(own))
    given = [replace(b, text=t) for b in blocks if (t := _missing_from(b.text, in_own))]
    recovered = "\n\n".join(b.text for b in given)
    if len(recovered) + len(own) >= MIN_TEXT_CHARS and recovered:
        text = "\n\n".join(t for t in (own, recovered) if t)
        return Verdict("embedded", text, tuple(dict.fromkeys(b.source for b in given)))
    if not has_scripts:
        if len(visible) >= _OWN_TEXT_CHARS:
            # a long visible text is the page's own even when its paragraphs read like
            # furniture (a blog post about logins and privacy): never a description or a refusal
            return Verdict("visible", visible)
        if description and (not real or len(real) < min(MIN_TEXT_CHARS, len(description))):
            # a page without text of its own, or with a scrap its description outsays: a thread
            # saved without its posts, which come by script, keeps its site's menu bar ("esk8.news
            # esk8 calc donate now"; WCXB dev's tuning part, 1 forum thread: F1 0.003 -> 0.275,
            # and no other page changed, nor with the scrap a third of the description's length)
            return Verdict("description", description)
        if real:
            return Verdict("visible", visible)  # a page that is simply short
        return Verdict("chrome" if visible.strip() else "empty")
    return Verdict("chrome" if visible.strip() and not real else "shell")


_TITLE_SEPARATORS = re.compile(r"\s[|\-–—·:»]\s")
_STOPWORDS = frozenset({
    "the", "and", "for", "with", "from", "this", "that", "your", "you", "our", "are", "was", "were",
    "how", "what", "why", "who", "when", "der", "die", "das", "und", "mit", "von", "für", "ein",
    "eine", "les", "des", "une", "pour", "avec", "dans",
})  # fmt: skip


def subject_share(title: str | None, text: str, *, normal: str | None = None) -> float:
    """The share of the title's words (its longest part: sites add their name) that ``text`` holds;
    1.0 when the title says nothing to check. ``normal``: the text as _normal gives it, if at hand."""
    if not title:
        return 1.0
    part = max(_TITLE_SEPARATORS.split(title), key=len)
    words = {w for w in _normal(part).split() if len(w) > 2 and w not in _STOPWORDS}
    if len(words) < 2:
        return 1.0
    held = set((_normal(text) if normal is None else normal).split())
    return sum(1 for w in words if w in held) / len(words)


_SLUG_WORD = re.compile(r"[^\W\d_]{3,}")  # a word of letters in a URL's path: "beatrice-tan-rug"
_HOST_LABELS = frozenset({"www", "com", "org", "net"})
_STEM = 4  # words are compared by their first letters: "smartwatches" names what "smartwatch" does
_TAGLINE_WORDS = 20  # a slogan is a line; a thread's first post or a page's summary runs longer


def is_tagline(description: str, names: Sequence[str], url: str = "", site: str | None = None) -> bool:
    """Whether ``description`` is the site's tagline rather than the page's summary: one line (at
    most :data:`_TAGLINE_WORDS` words) that names the site (a word of ``site``, its og:site_name,
    or of ``url``'s host) and shares no word with the ``names`` the page gives itself (the
    longest part of each title: sites add their name) or with ``url``'s path. A name of the
    site's words only is the site's (a logo's <h1>). Never when the page's names hold fewer than
    two words.

    For a page without text of its own (.judge's scriptless placeholder), whose description is
    all it could be answered with. A thread's description is its first post, which names the
    thread; a category's or a home page's says what it lists or offers. A shop whose item pages
    all carry the site's slogan ("Smarter Shopping, Better Living! Aliexpress.com" beside an
    og:title naming a keyboard) says nothing of the item: on WCXB dev's tuning part the slogan
    answered 3 item pages the annotators saw blank (F1 0 each); the 6 other descriptions answered
    (4 of them on pages seen blank too) all share a word with their page's names. A teaser may
    share no word with its title and still be about the page ("Dig, fight, explore, build!" for
    Terraria): 80 of the tuning part's 914 descriptions share none, and 7 of them are one line
    naming the site, all the site's own ("Rapid7 Website", "Antoyo's Personal Blog", the slogan,
    a shop's name alone)."""
    parts = urlsplit(url)
    site_words = _words(f"{site or ''} {(parts.hostname or '').replace('.', ' ')}") - _HOST_LABELS
    said = _words(description)
    if len(description.split()) > _TAGLINE_WORDS or not site_words & said:
        return False
    subjects = [max(_TITLE_SEPARATORS.split(name), key=len) for name in names]
    named = [_words(s) for s in [*subjects, " ".join(_SLUG_WORD.findall(parts.path))]]
    stems = {w[:_STEM] for words in named if not words <= site_words for w in words}
    return len(stems) >= 2 and not stems & {w[:_STEM] for w in said}


def _words(text: str) -> set[str]:
    """The words of ``text`` that may tell its subject: not short, not a stopword, not a number."""
    return {w for w in _normal(text).split() if len(w) > 2 and w not in _STOPWORDS and not w.isdigit()}


def _names_subject(title: str | None, block: Block) -> bool:
    """Whether a block's first line (a declared thing's "Type: name") names the page's title."""
    return subject_share(title, block.text.partition("\n")[0]) >= _ON_SUBJECT


def _fills(block: Block, title: str | None, *, shown: int = 0) -> bool:
    """Whether a declared thing may fill in a rendered page showing ``shown`` characters of its
    own: it is the page's subject (its name is the title's: not the author's card, an embedded
    video, an event the article mentions) and adds enough to be worth it.

    An article's data counts only as a body the page lacks: its unshown sentences at least as
    long as the page's text. Beside a rendered body they are its summary or the body in another
    form (WCXB dev's tuning part: 2 articles showing 29,000 and 43,000 characters lost 0.02 and
    0.03 F1 to 1,200 and 2,200 characters of them; an article showing 3,300 of a 9,100 character
    body gained 0.50). A thing whose data says nothing but its name again (a Q&A page's "Main
    entity:" its own question: 4 forum threads, 0.006 to 0.015 each) adds nothing. With both, the
    fill fired on 32 tuning pages instead of 38, gain there +0.011 -> +0.016; on the check part
    on 14 instead of 16, -0.008 -> -0.005."""
    if not _names_subject(title, block):
        return False
    head, _, body = block.text.partition("\n")
    if not _adds_to_name(head, body):
        return False
    if _ARTICLE.search(block.source):
        return len(body) >= max(_ARTICLE_FILL_MIN_CHARS, shown)
    if _PRODUCT.search(block.source) and not _PRICED_OFFER.search(body) and not _has_description(block.text):
        # a shop's page shows its product; what its data adds beside a price or a description
        # (SKU, GTIN, condition, a rating, the names of its variants) is catalogue data, not the
        # page: on WCXB dev's tuning part, leaving them out took 2 product pages from F1 0.80 to
        # 0.99 and 0.73 to 0.95
        return False
    return len(body) >= _FILL_MIN_CHARS


def _adds_to_name(head: str, body: str) -> bool:
    """Whether ``body`` (a thing's "Label: value" lines, then its text) says a word its ``head``
    ("Type: name") does not, labels left out."""
    said = set(_normal(head.partition(": ")[2] or head).split())
    values = (line.partition(": ")[2] if ": " in line else line for line in body.splitlines())
    return any(word not in said for value in values for word in _normal(value).split())


_PRICE = re.compile(r"^\d+(?:\.\d+)?")
# a number as shops write prices: digits grouped by , . ' or a (no-break) space before three digits
_SHOWN_NUMBER = re.compile(r"\d+(?:(?:[,.'\u00a0\u202f]|\s(?=\d{3}\b))\d+)*")


def _shop_card(block: Block, shown: set[float]) -> Block | None:
    """What a product's data adds to the page that shows it, as a reader of the page sees a
    product: its name, its price when the page does not show it (``shown``: the numbers of
    the visible text, :func:`_shown_prices`), its description. Its
    catalogue facts (SKU, GTIN, MPN, weight, condition, rating, category, variants) and the
    offer's availability and seller stay out. None when nothing is left but the name.

    On WCXB dev's tuning part the fill added those facts to 22 product pages whose gold text
    (what the page shows) holds none of them, and repeated the price the page shows in
    another form ("4345 AUD" beside "$4,345.00"). Other types fill as they are.
    """
    if not _PRODUCT.search(block.source):
        return block
    head, facts, description = thing_parts(block.text)
    kept = []
    for line in facts:
        label, _, value = line.partition(": ")
        if label != "Offer":
            continue
        prices = [
            offer.partition(",")[0].strip()
            for offer in value.split("; ")
            if (found := _PRICE.match(offer.strip())) and float(found.group()) not in shown
        ]
        if prices:
            kept.append(f"{label}: {'; '.join(dict.fromkeys(prices))}")
    card = [head, *kept]
    if description.strip() and _normal(description) != _normal(head.partition(": ")[2]):  # not its name again
        card += ["", description.strip()]
    return replace(block, text="\n".join(card)) if len(card) > 1 else None


def _shown_prices(visible: str) -> set[float]:
    """The numbers ``visible`` shows, each read with either decimal mark ("4,345.00", "49,99")."""
    numbers: set[float] = set()
    for token in _SHOWN_NUMBER.findall(visible):
        token = re.sub(r"[\s'\u00a0\u202f]", "", token)
        for decimal, group in ((".", ","), (",", ".")):
            whole, _, fraction = token.rpartition(decimal) if decimal in token else (token, "", "")
            digits = whole.replace(group, "") + ("." + fraction if fraction else "")
            try:
                numbers.add(float(digits))
            except ValueError:
                continue
    return numbers


def _has_description(text: str) -> bool:
    """Whether a declared thing's text (.schema_org) holds prose after its name and facts: a
    description or body of _FILL_MIN_CHARS at least (a shop's placeholder "wf" describes nothing)."""
    return len(thing_parts(text)[2].strip()) >= _FILL_MIN_CHARS


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _unshown(text: str, seen: SeenText) -> str:
    """``text`` (its first line, the "Type: name" heading, kept) less the sentences ``seen``
    (a text through _normal) holds, line by line."""
    head, *lines = text.split("\n")
    kept = []
    for line in lines:
        sentences = [s for s in _SENTENCE_END.split(line) if s.strip() and _normal(s) not in seen]
        if sentences or not line.strip():
            kept.append(" ".join(sentences))
    return "\n".join([head, *kept]).strip()


def _missing_from(text: str, seen: SeenText) -> str:
    """The lines of ``text`` that ``seen`` (a text through _normal) does not already hold
    (the first line, a block's "Type: name" heading, stays with any line kept)."""
    lines = text.split("\n")
    kept = [line for line in lines[1:] if not line.strip() or not _covered(line, seen)]
    if not any(line.strip() for line in kept):
        return "" if _covered(lines[0], seen) or len(lines) > 1 else lines[0]
    head = [lines[0]] if len(lines) > 1 else []
    return "\n".join(head + kept).strip()


_SAMPLE_WORDS = 8  # a long line is held when most of its 8-word runs sampled across it are


def _covered(line: str, seen: SeenText) -> bool:
    normal = _normal(re.sub(r"^(?:[-•*]|\d+\.|[A-Z][\w ]{0,30}:)\s+", "", line.strip()))
    if not normal:
        return True
    if len(normal) < 200:
        return normal in seen
    words = normal.split()
    starts = range(0, max(1, len(words) - _SAMPLE_WORDS), max(1, len(words) // 10))
    samples = [" ".join(words[i : i + _SAMPLE_WORDS]) for i in starts]
    return sum(1 for sample in samples if sample in seen) >= 0.6 * len(samples)


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())
