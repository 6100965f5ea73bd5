"""JSON-LD (schema.org) → labelled text, each thing the page describes in the data's order. Pure.

A recipe becomes its name, yield and times, every ingredient and every step (through
``HowToSection`` and ``HowToStep``) and its nutrition; a product or vehicle its brand,
identifiers, offers with price, currency and availability, its listed properties and rating;
an FAQ its questions and answers; an article its headline, author, dates and body; an event
its dates, place and offers; a video its description and transcript. Any other type gets
its name and its readable properties, "Label: value". The site's own furniture (WebSite,
WebPage, BreadcrumbList, Organization, ImageObject…) is no content and is skipped.
"""

from __future__ import annotations

import html
import re
import urllib.parse
from collections import deque
from dataclasses import dataclass
from typing import Any

from llmweb.fetch.javascript.app_state import html_paragraphs
from llmweb.fetch.javascript.payloads import Budget


@dataclass(frozen=True)
class Thing:
    kind: str  # its schema.org type, e.g. "Recipe"
    text: str


# Types that describe the site or the page's frame, not its subject.
_FRAME_TYPES = frozenset({
    "WebSite", "WebPage", "BreadcrumbList", "ListItem", "Organization", "Corporation",
    "NewsMediaOrganization", "ImageObject", "SearchAction", "EntryPoint", "ReadAction",
    "SiteNavigationElement", "WPHeader", "WPFooter", "WPSideBar", "ContactPoint", "PostalAddress",
    "GeoCoordinates", "Brand", "ItemList", "CollectionPage", "SearchResultsPage", "Thing",
    "WebPageElement", "SpeakableSpecification", "CreativeWork", "Place", "LocalBusiness", "ItemPage",
})  # fmt: skip
# Frame types whose mainEntity is the page's subject (an ItemPage is "a page devoted to a single
# item": its product)
_HOLDERS = ("WebPage", "ItemPage", "ItemList")
# Properties that never carry the page's words.
_SKIP_PROPERTIES = frozenset({
    "@context", "@id", "@type", "url", "image", "logo", "thumbnail", "thumbnailUrl", "contentUrl",
    "embedUrl", "sameAs", "potentialAction", "mainEntityOfPage", "isPartOf", "breadcrumb",
    "inLanguage", "encodingFormat", "width", "height", "speakable", "hasPart", "isAccessibleForFree",
    "copyrightHolder", "copyrightYear", "license", "publisher", "dateModified", "interactionStatistic",
    "video", "primaryImageOfPage", "associatedMedia", "hasMap", "itemListOrder", "position",
    "identifier", "@graph", "review", "subjectOf", "significantLink", "relatedLink", "discussionUrl",
    "wordCount", "thumbnailURL", "uploadDate", "isFamilyFriendly", "requiresSubscription",
    "playerType", "regionsAllowed", "contentLocation", "keywords", "alternativeHeadline",
    "articleSection", "creativeWorkStatus", "accountablePerson", "audience", "countryOfOrigin",
    "hasMerchantReturnPolicy", "shippingDetails", "potentialActions", "citation",
})  # fmt: skip
_LABELS = {
    "recipeYield": "Yield", "prepTime": "Prep time", "cookTime": "Cook time", "totalTime": "Total time",
    "performTime": "Time", "recipeCategory": "Category", "recipeCuisine": "Cuisine",
    "datePublished": "Published", "startDate": "Starts", "endDate": "Ends", "aggregateRating": "Rating",
    "sku": "SKU", "gtin": "GTIN", "gtin8": "GTIN", "gtin12": "GTIN", "gtin13": "GTIN", "gtin14": "GTIN",
    "mpn": "MPN", "vehicleIdentificationNumber": "VIN", "mileageFromOdometer": "Mileage",
    "vehicleEngine": "Engine", "fuelType": "Fuel", "vehicleTransmission": "Transmission",
    "numberOfPreviousOwners": "Previous owners", "vehicleModelDate": "Model year",
    "productionDate": "Production date", "eventStatus": "Status", "eventAttendanceMode": "Attendance",
    "author": "By", "creator": "By", "duration": "Duration", "offers": "Offer",
    "additionalProperty": "Properties", "nutrition": "Nutrition", "estimatedCost": "Estimated cost",
}  # fmt: skip
_DURATION_KEYS = frozenset({"prepTime", "cookTime", "totalTime", "performTime", "duration", "timeRequired"})
_PEOPLE_KEYS = frozenset({"author", "creator", "director", "actor", "actors", "organizer", "performer",
                          "byArtist", "contributor", "editor", "brand", "manufacturer", "seller", "provider"})  # fmt: skip
_BODY_KEYS = ("articleBody", "text", "reviewBody", "transcript", "description", "abstract")
_ISO_DURATION = re.compile(
    r"^P(?:(\d+)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$", re.I
)


def read_json_ld(data: Any, budget: Budget) -> list[Thing]:
    """Each thing the JSON-LD describes (besides the site's frame), as labelled text."""
    things: list[Thing] = []
    for node in _nodes(data, budget):
        kind = _type(node)
        if kind is None or (kind in _FRAME_TYPES and not _is_subject(node)):
            continue
        lines = _render(node, kind, budget, depth=0)
        text = "\n".join(lines).strip()
        if text:
            things.append(Thing(kind, text))
            budget.text_chars -= len(text)
    return things


def thing_parts(text: str) -> tuple[str, list[str], str]:
    """A thing's text as :func:`read_json_ld` lays it out: its "Type: name" line, its facts
    ("Label: value", a line each), and what follows the first blank line (its description or
    body, an FAQ's questions, a recipe's steps)."""
    head, *lines = text.split("\n")
    blank = lines.index("") if "" in lines else len(lines)
    return head, lines[:blank], "\n".join(lines[blank + 1 :])


def _nodes(data: Any, budget: Budget) -> list[dict[str, Any]]:
    """The top-level things: a block's object, its list, its @graph, a page's mainEntity."""
    found: list[dict[str, Any]] = []
    pending = deque([data])  # in page order: a list's items go first, in their order
    while pending and len(found) < 200:
        item = pending.popleft()
        if not budget.take_node():
            break
        if isinstance(item, list):
            pending.extendleft(reversed(item))
        elif isinstance(item, dict):
            if "@graph" in item:
                graph = item["@graph"]
                pending.extendleft(reversed(graph) if isinstance(graph, list) else [graph])
            elif _type(item) in _HOLDERS and isinstance(item.get("mainEntity"), dict | list):
                pending.appendleft(item["mainEntity"])
            else:
                found.append(item)
    return found


def _is_subject(node: dict[str, Any]) -> bool:
    """A frame-typed node that still carries text of its own (a WebPage with an article body)."""
    return any(isinstance(node.get(k), str) and len(node[k]) > 200 for k in ("articleBody", "text"))


def _type(node: dict[str, Any]) -> str | None:
    kind = node.get("@type")
    if isinstance(kind, list):
        kind = next(
            (k for k in kind if isinstance(k, str) and k not in _FRAME_TYPES), kind[0] if kind else None
        )
    return kind.rsplit("/", 1)[-1] if isinstance(kind, str) else None


def _render(node: dict[str, Any], kind: str, budget: Budget, depth: int) -> list[str]:
    name = _first_text(node, "name", "headline", "title")
    lines = [f"{_spaced(kind)}: {name}" if name else _spaced(kind)]
    facts: list[str] = []
    after: list[str] = []
    for key, value in node.items():
        if key in _SKIP_PROPERTIES or key in ("name", "headline", "title") or not budget.take_node():
            continue
        if key in ("recipeIngredient", "ingredients", "supply", "tool"):
            items = [_plain_one(v) for v in _as_list(value)]
            after += _list_block(_label(key) if key != "recipeIngredient" else "Ingredients", items)
        elif key in ("recipeInstructions", "step"):
            after += ["", "Instructions:" if kind == "Recipe" else "Steps:", *_steps(value, budget, depth)]
        elif (key == "mainEntity" and kind == "FAQPage") or key == "acceptedAnswer":
            after += _questions(value)
        elif key in _BODY_KEYS:
            paragraphs = [p for v in _as_list(value) if isinstance(v, str) for p in _paragraphs(v)]
            if paragraphs:
                after += ["", *paragraphs]
        else:
            fact = _fact(key, value, budget, depth, subject=name)
            if fact:
                facts.append(fact)
    return [*lines, *facts, *after]


def _fact(key: str, value: Any, budget: Budget, depth: int, *, subject: str | None = None) -> str | None:
    """One "Label: value" line, or None when the value is nothing a reader would want."""
    label = _label(key)
    if key in _DURATION_KEYS and isinstance(value, str):
        return f"{label}: {_duration(value)}" if _duration(value) else None
    if key in _PEOPLE_KEYS:
        names = [n for n in (_name(v) for v in _as_list(value)) if n]
        return f"{label}: {', '.join(dict.fromkeys(names))}" if names else None
    if key in ("offers",):
        offers = [o for o in (_offer(v) for v in _as_list(value)) if o]
        return f"{label}: {'; '.join(offers[:10])}" if offers else None
    if key == "aggregateRating" and isinstance(value, dict):
        return f"{label}: {_rating(value)}" if _rating(value) else None
    if key == "additionalProperty":
        pairs = [p for p in (_property(v) for v in _as_list(value)) if p]
        return f"{label}: {'; '.join(pairs)}" if pairs else None
    if key == "nutrition" and isinstance(value, dict):
        parts = [f"{_spaced(k.removesuffix('Content'))} {v}" for k, v in value.items()
                 if not k.startswith("@") and isinstance(v, str | int | float)]  # fmt: skip
        return f"{label}: {', '.join(parts)}" if parts else None
    if key in ("location", "address") or (
        isinstance(value, dict) and _type(value) in ("Place", "PostalAddress")
    ):
        places = [p for p in (_place(v) for v in _as_list(value)) if p]
        return f"{label}: {'; '.join(places)}" if places else None
    values = [v for v in (_value(v, depth) for v in _as_list(value)) if v]
    if len(values) > 1 and subject:
        values = _without_subject(values, subject)
    return f"{label}: {', '.join(dict.fromkeys(values))}" if values else None


_JOINERS = " -–—:|,/"


def _without_subject(values: list[str], subject: str) -> list[str]:
    """A product's variants named "<product> - Black", "<product> - White": only what tells
    them apart, when most of them start with the subject's name."""
    rests = [v[len(subject) :].strip(_JOINERS) if v.startswith(subject) else "" for v in values]
    if sum(1 for r in rests if r) * 2 < len(values):
        return values
    return [rest or v for rest, v in zip(rests, values, strict=True)]


def _value(value: Any, depth: int) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return f"{value:g}"
    if isinstance(value, str):
        text = _plain_one(value)
        if not text or re.match(r"^(?:https?:|//|/)", text):
            return _enum(text) if text.startswith("http") and "schema.org/" in text else None
        return text
    if isinstance(value, dict):
        if "value" in value and not isinstance(value["value"], dict | list):  # QuantitativeValue
            unit = value.get("unitText") or value.get("unitCode") or ""
            return f"{value['value']} {unit}".strip()
        return _name(value)
    return None


def _steps(value: Any, budget: Budget, depth: int) -> list[str]:
    """Numbered steps from strings, HowToStep, HowToSection (its name, then its steps)."""
    lines: list[str] = []
    number = 0
    pending: list[Any] = list(reversed(_as_list(value)))
    while pending:
        item = pending.pop()
        if not budget.take_node():
            break
        if isinstance(item, str):
            for paragraph in _paragraphs(item):
                number += 1
                lines.append(f"{number}. {paragraph}")
        elif isinstance(item, dict):
            kind = _type(item)
            children = item.get("itemListElement") or item.get("steps") or item.get("step")
            if kind == "HowToSection" or (children and kind != "HowToStep"):
                title = _first_text(item, "name", "headline")
                if title:
                    lines.append(f"{title}:")
                pending += reversed(_as_list(children))
            else:
                text = _first_text(item, "text", "description", "name")
                if not text and children:
                    pending += reversed(_as_list(children))
                    continue
                if text:
                    number += 1
                    lines.append(f"{number}. {' '.join(_paragraphs(text))}")
    return lines


def _questions(value: Any) -> list[str]:
    lines: list[str] = []
    for item in _as_list(value):
        if not isinstance(item, dict):
            continue
        question = _first_text(item, "name", "text")
        answers = item.get("acceptedAnswer") or item.get("suggestedAnswer")
        answer = " ".join(
            " ".join(_paragraphs(a.get("text", ""))) for a in _as_list(answers) if isinstance(a, dict)
        )
        if question:
            lines += ["", f"Q: {question}"] + ([f"A: {answer}"] if answer else [])
    return lines


def _offer(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    if _type(value) == "AggregateOffer" and "price" not in value:
        low, high = value.get("lowPrice"), value.get("highPrice")
        price = f"{low}–{high}" if low is not None and high is not None else str(low or high or "")
    else:
        price = str(value.get("price", "")) if value.get("price") is not None else ""
        spec = value.get("priceSpecification")
        if not price and isinstance(spec, dict) and spec.get("price") is not None:
            price = str(spec["price"])
    currency = value.get("priceCurrency") or ""
    parts = [f"{price} {currency}".strip()] if price else []
    for key in ("availability", "itemCondition"):
        if isinstance(value.get(key), str):
            parts.append(_enum(value[key]))
    seller = _name(value.get("seller"))
    if seller:
        parts.append(f"sold by {seller}")
    return ", ".join(p for p in parts if p) or None


def _rating(value: dict[str, Any]) -> str:
    rating, best = value.get("ratingValue"), value.get("bestRating")
    count = value.get("reviewCount") or value.get("ratingCount")
    if rating is None:
        return ""
    text = f"{rating} of {best}" if best is not None else str(rating)
    return f"{text} ({count} ratings)" if count is not None else text


def _property(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    name, amount = _plain_one(str(value.get("name") or "")), value.get("value")
    if isinstance(amount, dict | list) or amount is None:
        return name or None
    unit = value.get("unitText") or ""
    return f"{name}: {amount} {unit}".strip() if name else f"{amount} {unit}".strip()


def _place(value: Any) -> str | None:
    if isinstance(value, str):
        return _plain_one(value)
    if not isinstance(value, dict):
        return None
    address = value.get("address")
    parts = [_plain_one(str(value["name"]))] if isinstance(value.get("name"), str) else []
    if isinstance(address, dict):
        keys = ("streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry")
        parts += [
            str(_name(address[k]) or address[k]) for k in keys if isinstance(address.get(k), str | dict)
        ]
    elif isinstance(address, str):
        parts.append(_plain_one(address))
    if _type(value) == "PostalAddress":
        keys = ("streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry")
        parts += [str(value[k]) for k in keys if isinstance(value.get(k), str)]
    return ", ".join(p for p in parts if p) or None


def _name(value: Any) -> str | None:
    if isinstance(value, str):
        text = _plain_one(value)
        return None if re.match(r"^(?:https?:|//|/)", text) else text or None
    if isinstance(value, dict):
        return _first_text(value, "name", "headline", "alternateName")
    return None


def _first_text(node: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = node.get(key)
        if isinstance(value, list) and value:
            value = value[0]
        if isinstance(value, str) and value.strip():
            return _plain_one(value)
    return None


def _list_block(title: str, items: list[str]) -> list[str]:
    items = [i for i in items if i]
    return ["", f"{title}:", *(f"- {i}" for i in items)] if items else []


def _decoded(text: str) -> str:
    """A value as its author wrote it: JSON-LD often carries HTML entities (&apos;, &amp;),
    sometimes escaped twice by a CMS (&amp;#8217;), and now and then a whole text
    percent-encoded as if it were a URL ("An%20elegant%20sofa")."""
    for _ in range(2):
        if "&" not in text:
            break
        text = html.unescape(text)
    if "%20" in text and not any(c.isspace() for c in text):
        text = urllib.parse.unquote(text)
    return text


def _paragraphs(text: str) -> list[str]:
    text = _decoded(text)
    if "<" in text and ">" in text:
        return html_paragraphs(text)
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n|\r\n", text) if p.strip()]


def _plain_one(value: Any) -> str:
    if not isinstance(value, str):
        return _value(value, 0) or "" if isinstance(value, dict | int | float) else ""
    value = _decoded(value)
    return " ".join(" ".join(_paragraphs(value)).split()) if "<" in value else " ".join(value.split())


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _label(key: str) -> str:
    return _LABELS.get(key) or _spaced(key)


def _spaced(name: str) -> str:
    """ "recipeCategory" → "Recipe category", "FAQPage" → "FAQ page"."""
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)
    if not words:
        return name
    text = " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in words)
    return text[0].upper() + text[1:]


def _enum(value: str) -> str:
    """ "https://schema.org/InStock" → "in stock"."""
    return _spaced(value.rstrip("/").rsplit("/", 1)[-1]).lower()


def _duration(value: str) -> str:
    """ "PT1H30M" → "1 h 30 min"; anything else as it is."""
    match = _ISO_DURATION.match(value.strip())
    if match is None or not any(match.groups()):
        return "" if "null" in value or value.upper().startswith("PT") else value
    days, hours, minutes, seconds = match.groups()
    parts = [
        f"{float(n):g} {unit}"
        for n, unit in ((days, "d"), (hours, "h"), (minutes, "min"), (seconds, "s"))
        if n
    ]
    return " ".join(p for p in parts if not p.startswith("0 ")) or "0 min"
