"""Customer reviews under a shop's product: a run of blocks the page marks as reviews. Pure.

A product page shows its buyers' reviews under the product: a star histogram, then a run of
like blocks, each a name, a rating, a date and what the buyer wrote. WCXB's gold text of a
product page is the product's name, price, facts and description; the reviews are not in it,
and on a marketplace's page they outweigh the product several times. trafilatura keeps them as
any other prose.

The markup says what they are: review widgets and shop platforms mark each review with the
word "review" in its class, id or microdata (``class="review"``, ``itemprop="review"``,
``okeReviews-reviews-review``) or in the name of a data attribute (``data-review-id``, where
judge.me's classes say "rev"), and write the run as siblings of one tag and class. A run of
three such siblings or more, at least half of them written (a sentence, and no field to fill
in: a widget's filter menus are marked as reviews too and explain themselves beside their
checkboxes), is dropped before trafilatura reads the page, and so are two written reviews alone
in a list the page marks as reviews too (a marketplace's top reviews, each longer than the
product's description); one or two elsewhere (a review summary, a "write a review" button, a
pair of testimonials) stay, as does a run holding half the body's text (a page of reviews).
Never on a page that declares an article or a thread: a review article's text is the review.

On WCXB dev (bench/wcxb.py, layer ``reviews``) it fired on 10 of the tuning part's 998 pages,
all products, and changed 5, all up (0.38 -> 0.51 and 0.27 -> 0.37 on two marketplaces, a desk
0.86 -> 0.96, a wallet 0.66 -> 0.70, a book 0.39 -> 0.41; product 0.6256 -> 0.6306); check
part: 4 pages, product 0.6787 -> 0.6923, collection 0.7251 -> 0.7284, no type down. Runs of
two as well took a marketplace's book 0.39 -> 0.72 but two services' testimonials out of their
text (0.97 -> 0.83, 0.93 -> 0.71); without the written test a game shop's filter menus went and
trafilatura read another block (two pages -0.12, -0.20). The pair in a marked list fires on 3
tuning pages (a marketplace's book 0.45 -> 0.86, headphones 0.92 -> 0.94, one unchanged) and on
one check page (unchanged). The data attributes (branch i22prod2) changed one tuning page, with
a FAQPage no longer taken for a thread (.threads): a beard oil's page 0.43 -> 0.50, its seven
reviews out; the check part unchanged.
"""

from __future__ import annotations

import re
from collections import Counter

from lxml import etree
from lxml.html import HtmlElement

from llmweb.fetch.html.marks import Marked
from llmweb.fetch.html.sizes import SPACED_SIZE

# "review" as a word of a class or id: review, reviews, review-item, productReview, not preview
_REVIEW = re.compile(r"(?<![A-Za-z])[Rr]eviews?(?![a-z])|(?<=[a-z])Reviews?(?![a-z])")
_MIN_RUN = 3
_MIN_PAIR = 2  # two reviews alone in a list marked as reviews (_a_pair_of_reviews)
# what a buyer wrote: a sentence, words ending in a full stop, "!" or "?" (a run of filters,
# "Review type: All (850) Positive (552)", and rows of stars write none)
_SENTENCE = re.compile(r"\w[^.!?]{30,}?\w[.!?](?:\s|$)")
_MAX_SHARE = 0.5  # a run holding half the body's text is the page itself (a page of reviews)
_MARKED = Marked(  # found from their attributes (.marks)
    "/descendant::body/descendant::*",
    *(f"@{name}[contains(., 'eview')]" for name in ("class", "id", "itemprop", "itemtype")),
)
# …and a review widget's data attributes (judge.me's data-review-id on each review, whose classes
# say "rev"): sought only in a page whose HTML holds the prefix, as an attribute's name is tested on
# every attribute of the page (2 ms on a 2.5 MB page)
_DATA_PREFIX = "data-review"
_DATA_MARKED = Marked("/descendant::body/descendant::*", f"@*[starts-with(name(), '{_DATA_PREFIX}')]")
_FIELDS = etree.XPath(
    "count(descendant::input[not(@type='hidden')] | descendant::select | descendant::textarea)"
)


def may_hold_reviews(html: str) -> bool:
    """Whether the page's HTML names a review at all: one substring search."""
    return "eview" in html


def marks_reviews_in_data(html: str) -> bool:
    """Whether the page's HTML holds a review widget's data attribute: one substring search."""
    return _DATA_PREFIX in html


def _marked(el: HtmlElement) -> bool:
    return any(_REVIEW.search(el.get(name) or "") for name in ("class", "id", "itemprop", "itemtype")) or any(
        name.startswith(_DATA_PREFIX) for name in el.attrib
    )


def _written(block: HtmlElement) -> bool:
    """Whether a block reads as what someone wrote: a sentence, and no field to fill in (a
    review widget's filter menus explain themselves in sentences beside their checkboxes)."""
    return _FIELDS(block) == 0 and bool(_SENTENCE.search(block.text_content()))


def review_runs(root: HtmlElement, *, data_marked: bool = False) -> list[list[HtmlElement]]:
    """The runs of sibling blocks marked as reviews (the module's docstring); with ``data_marked``
    (the page's HTML holds _DATA_PREFIX), those its data attributes mark too."""
    parents: dict[HtmlElement, list[HtmlElement]] = {}
    marked = dict.fromkeys([*_MARKED(root), *(_DATA_MARKED(root) if data_marked else [])])
    for el in marked:
        if _marked(el):
            parent = el.getparent()
            if parent is not None:
                parents.setdefault(parent, []).append(el)
    runs = []
    for parent, kids in parents.items():
        if _a_pair_of_reviews(parent, kids):
            runs.append(kids)
            continue
        shapes = Counter((kid.tag, kid.get("class")) for kid in kids)
        for shape, count in shapes.items():
            run = [kid for kid in kids if (kid.tag, kid.get("class")) == shape]
            if count >= _MIN_RUN and sum(1 for kid in run if _written(kid)) * 2 >= count:
                runs.append(run)
    return runs


def _a_pair_of_reviews(parent: HtmlElement, kids: list[HtmlElement]) -> bool:
    """Whether ``kids`` are two reviews a list of reviews holds alone: a marketplace's top reviews
    of a product, each often longer than its description. Two blocks are weaker evidence than a
    run, so the list itself must be marked as reviews and both must be written, and neither a
    link (a game shop's two rows summing its reviews, "95% of 7,778 user reviews are positive",
    each link to the reviews)."""
    return (
        len(kids) == _MIN_PAIR
        and _marked(parent)
        and len({(kid.tag, kid.get("class")) for kid in kids}) == 1
        and all(kid.tag != "a" and _written(kid) for kid in kids)
    )


def drop_reviews(root: HtmlElement, *, data_marked: bool = False) -> int:
    """Remove the runs of reviews (the module's docstring; ``data_marked`` as for review_runs);
    how many reviews went."""
    runs = review_runs(root, data_marked=data_marked)
    if not runs:
        return 0
    body = root.find("body")
    most = _MAX_SHARE * (SPACED_SIZE(body) if body is not None else 0)
    dropped = 0
    for run in runs:
        if sum(SPACED_SIZE(kid) for kid in run) > most:
            continue
        for kid in run:
            if kid.getparent() is not None:
                kid.drop_tree()
                dropped += 1
    return dropped
