"""A framework's state → the human text in it, in the data's order. Pure.

State a page hydrates from mixes the page's words with machine strings: ids, URLs, hashes,
class lists, CSS values, enums, feature flags, the site's UI translations. What decides is
where a string sits and what it looks like:

- subtrees under machine keys (``className``, ``style``, ``config``, ``i18n``, ``seo``,
  ``tracking``, ``related``…) and tables of UI translations are skipped whole;
- a string under a content key (``title``, ``ingredients``, ``steps``, ``text``, a React
  element's ``children``) counts when it is words, however short ("2 cups", "salt");
- anywhere else a string counts only when it is prose: several words, few of them technical.

The short values of one object make one line (``2`` ``cups`` ``flour`` → "2 cups flour");
long ones stand as paragraphs. A string already given is not given again.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import lxml.html
from lxml import etree

from llmweb.fetch.javascript.payloads import Budget

# Keys whose values are never the page's text, compared lowercased.
_MACHINE_KEYS = frozenset(
    """
    __typename id _id ids uuid guid key keys slug hash token nonce sig signature etag cursor
    classname class classes style styles css sx theme tokens color colors font fonts icon icons svg
    image images img imgs photo photos thumbnail thumbnails avatar media src srcset sizes href url
    urls uri link links canonical path pathname route routes query aspath locale locales lang
    language languages i18n translation translations messages strings dictionary config
    configuration settings env feature features flags featureflags experiment experiments tracking
    analytics datalayer ads advertising adunit adunits gtm seo meta metadata head schema jsonld
    structureddata navigation nav navbar menu menus footer header breadcrumb breadcrumbs cookie
    cookies consent session auth user viewer account cart buildid runtimeconfig __n_ssg __n_ssp
    preview fallback isfallback gssp gsp scriptloader appgip chunks manifest assets scripts
    stylesheets polyfills sentry facets filters sort pagination width height aspectratio format
    mimetype contenttype variant size position layout template component components module modules
    a11y accessibility accessibilitydata aria arialabel tooltip trackingparams clicktrackingparams
    loggingdirectives serviceendpoint navigationendpoint commandmetadata webcommandmetadata icontype
    responsecontext frameworkupdates topbar sidebar overlay adslot adslots recommendations related
    relatedposts relatedrecipes morelikethis popular trending ratelimit error errors notfound
    notfoundstyles loading errorscripts errorstyles templatestyles templatescripts
    """.split()  # noqa: SIM905 (a word list reads best as text)
)
# What chompjs makes of JavaScript expressions inside literals: no text of the page.
_EXPRESSIONS = re.compile(
    r"^(?:void 0|undefined|null|!0|!1|true|false|NaN|Infinity)$|^(?:function\b|new [A-Z]|\(\w*\)\s*=>)"
)
_MACHINE_KEY_SUFFIX = re.compile(
    r"(?:Url|URL|Uri|Id|ID|Ids|Path|Key|Token|Hash|Class|ClassName|Style|Styles|Config|Settings|"
    r"Params|Endpoint|Metadata|Type|Slug|Src|Href|Icon|Image|Color|Variant|Locale|Tracking)$"
)
# Keys whose strings are the page's words even when short: an ingredient, a unit, a step.
_CONTENT_KEY = re.compile(
    r"title|name|headline|heading|description|text|body|content|caption|summary|excerpt|lede|"
    r"abstract|teaser|ingredient|instruction|step|direction|method|preparation|quantity|amount|"
    r"unit|note|tip|question|answer|transcript|lyrics|bio|comment|review|byline|serving|yield|"
    r"price|brand|children|label|value|detail|spec|feature|author|artist|creator|genre|album|__html",
    re.I,
)
_QUANTITY_KEY = re.compile(r"quantity|amount|qty|value|count|price|serving|yield|number|min|max", re.I)

_URLISH = re.compile(
    r"^(?:[a-z][a-z0-9+.-]*:/|//|/|\./|\.\./|www\.|#|\$|data:|mailto:|tel:)"
    r"|^[\w.-]+\.(?:com|org|net|io|de|js|css|png|jpe?g|svg|webp|gif|mp4|json|html?)\b",
    re.I,
)
_TECHNICAL_WORD = re.compile(
    r"[_/=<>{}|\\@]|^\d+(?:\.\d+)?(?:px|rem|em|vh|vw|ms|s|deg)$|^rgba?\(|^#[0-9a-f]{3,8}$|^var\(|"
    r"^[a-z]+[A-Z]\w*$|^[A-Z0-9]+_[A-Z0-9_]+$|\.\w+\(|^\w+:\w",
)
_CODE = re.compile(r"\bfunction\s*\w*\(|\bwindow\.\w|\bdocument\.\w|=>|\b(?:var|const|let)\s+\w+\s*=|;\s*\}")
# "225g", "1.5kg", "½", "2x": a quantity, not an id (CSS lengths are machine strings)
_QUANTITY = re.compile(
    r"^(?!\d+(?:\.\d+)?(?:px|rem|em|vh|vw|ms|deg|s)$)[\d½¼¾⅓⅔]+(?:[.,/]\d+)?[^\W\d_]{0,5}\.?$"
)
_PASCAL_CASE = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+$")
_CLASS_TOKEN = re.compile(r"^[a-z0-9:_\[\]./#-]+$")
_WORD = re.compile(r"^[^\W\d_]+(?:['’-][^\W\d_]+)*[.,!?:;]?$")
_HTML_TAG = re.compile(r"<(?:p|br|div|li|ul|ol|h[1-6]|strong|em|b|i|a|span|table|blockquote)\b[^>]*>", re.I)
_BLOCK_TAGS = (
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "br",
    "tr",
    "blockquote",
    "section",
)
# React elements whose text a page shows: any; these carry none.
_NON_TEXT_ELEMENTS = frozenset({
    "script", "style", "link", "meta", "template", "svg", "path", "noscript", "head", "title", "nav",
    "footer", "header", "aside", "button", "form", "select", "option", "dialog",
})  # fmt: skip
_SHORT_PART = 80  # values of one object up to this long make one line together
_TEXT_RUN = 50  # a list of at most this many strings under a content key may be one line of text


def state_text(data: Any, budget: Budget, seen: set[str], *, elements_only: bool = False) -> list[str]:
    """The paragraphs of human text in ``data``, in its order; ``seen`` (normalised texts
    already given) grows with what is returned. ``elements_only`` (React flight data) keeps
    only text inside React elements: the rest of a flight stream is the router's tree."""
    paragraphs: list[str] = []
    # a stack of (key, value, depth, inside an element), reversed so the data's order comes out
    stack: list[tuple[str, Any, int, bool]] = [("", data, 0, not elements_only)]
    while stack:
        key, value, depth, inside = stack.pop()
        if not budget.take_node() or budget.text_chars <= 0:
            break
        if depth > budget.depth:
            if "data nested deeper than it may be" not in budget.cut:
                budget.cut.append("data nested deeper than it may be")
            continue
        if isinstance(value, dict):
            if _is_translation_table(value):
                continue
            small = _small_line(value) if inside else None
            if small is not None:  # {amount: "1", unit: "cup", name: "flour"} → "1 cup flour"
                _emit([small], paragraphs, budget, seen)
                continue
            line, children = _object_parts(value)
            if inside:
                _emit(line, paragraphs, budget, seen)
            stack += [(k, v, depth + 1, inside) for k, v in reversed(children)]
        elif isinstance(value, list):
            element = _react_element(value)
            if element is not None:
                tag, props = element
                if tag in _NON_TEXT_ELEMENTS or _is_link(props):
                    continue
                inline = _inline_text(props.get("children"), depth)
                if inline is not None:  # a paragraph or a list item: its text nodes make one line
                    _emit(_text_value("children", inline), paragraphs, budget, seen)
                    stack.append(
                        ("props", {k: v for k, v in props.items() if k != "children"}, depth + 1, True)
                    )
                else:
                    stack.append(("props", props, depth + 1, True))
                continue
            if len(value) <= _TEXT_RUN and inside and _is_content_key(key or "children"):
                texts = [v for v in value if isinstance(v, str)]
                if (
                    texts
                    and len(texts) == len(value)
                    and (key == "children" or all(len(t) < 3 for t in texts))
                ):
                    # React text nodes, or a word cut into characters: one line
                    _emit([" ".join(t for t in texts if _is_words(t))], paragraphs, budget, seen)
                    continue
            stack += [(key, v, depth + 1, inside) for v in reversed(value)]
        elif isinstance(value, str) and inside:
            _emit(_text_value(key, value), paragraphs, budget, seen)
    return paragraphs


_SMALL_PIECES = 12
_SMALL_CHARS = 160


def _small_line(value: dict[str, Any]) -> str | None:
    """The text of a small object as one line — an ingredient, a spec, a rich-text run — or
    None when it holds more than a line's worth (then its parts are read one by one)."""
    if len(value) > 2 * _SMALL_PIECES:
        return None
    pieces: list[str] = []
    pending: list[tuple[str, Any]] = [(k, v) for k, v in reversed(value.items())]
    visited = 0
    while pending:
        key, item = pending.pop()
        visited += 1
        if visited > 4 * _SMALL_PIECES:
            return None
        if _is_machine_key(key):
            continue
        if isinstance(item, dict):
            pending += [(str(k), v) for k, v in reversed(item.items())]
        elif isinstance(item, list):
            if _react_element(item) is not None:
                return None
            pending += [(key, v) for v in reversed(item)]
        elif isinstance(item, str):
            text = item.strip()
            if not text:
                continue
            if len(text) > _SHORT_PART or _HTML_TAG.search(text):
                return None
            if _is_content_key(key) and (_is_words(text) or text.replace(".", "").isdigit()):
                pieces.append(text)
            elif is_prose(text):
                return None
        elif isinstance(item, int | float) and not isinstance(item, bool) and _QUANTITY_KEY.search(key):
            pieces.append(f"{item:g}")
        if len(pieces) > _SMALL_PIECES:
            return None
    line = " ".join(" ".join(pieces).split())
    if len(line) > _SMALL_CHARS or not any(c.isalpha() for c in line):
        return None
    return line


_INLINE_TAGS = frozenset({
    "span", "a", "strong", "em", "b", "i", "u", "sup", "sub", "small", "time", "abbr", "code",
    "mark", "s", "q", "cite", "data", "bdi", "wbr", "br",
})  # fmt: skip


def _inline_text(children: Any, depth: int) -> str | None:
    """The text of React children made only of text and inline elements, or None."""
    parts: list[str] = []
    pending = [(children, depth)]
    while pending:
        item, level = pending.pop()
        if level > depth + 8 or len(parts) > 200:
            return None
        if isinstance(item, str):
            if item.startswith("$"):
                return None if len(item) > 1 and item[1] in "L@" else ""
            parts.append(item)
        elif isinstance(item, int | float) and not isinstance(item, bool):
            parts.append(f"{item:g}")
        elif isinstance(item, list):
            element = _react_element(item)
            if element is None:
                pending += [(child, level + 1) for child in reversed(item)]
            elif element[0] in _INLINE_TAGS and not (element[0] == "a" and _is_link(element[1])):
                pending.append((element[1].get("children"), level + 1))
            else:
                return None
        elif item is not None:
            return None
    text = " ".join("".join(parts).split())
    return text or None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_link(props: dict[str, Any]) -> bool:
    """A link with a short label: navigation (menus, footers), not the page's text."""
    children = props.get("children")
    return "href" in props and (children is None or (isinstance(children, str) and len(children) < 60))


def _object_parts(value: dict[str, Any]) -> tuple[list[str], list[tuple[str, Any]]]:
    """An object's own text (each kept value) and its containers to walk, in key order."""
    texts: list[str] = []
    children: list[tuple[str, Any]] = []
    for raw_key, item in value.items():
        key = str(raw_key)
        if _is_machine_key(key):
            continue
        if isinstance(item, dict | list):
            children.append((key, item))
        elif isinstance(item, str):
            texts += _text_value(key, item)
        elif _is_number(item) and _QUANTITY_KEY.search(key) and _is_content_key(key):
            texts.append(f"{item:g}")
    if texts and all(len(t) <= _SHORT_PART for t in texts) and len(texts) > 1:
        if not all(t.replace(".", "").isdigit() for t in texts):
            return [" ".join(texts)], children
        return [], children
    return [t for t in texts if not t.replace(".", "").isdigit()], children


def _emit(texts: list[str], paragraphs: list[str], budget: Budget, seen: set[str]) -> None:
    for text in texts:
        text = text.strip()
        normal = " ".join(text.lower().split())
        if not normal or normal in seen:
            continue
        seen.add(normal)
        paragraphs.append(text)
        budget.text_chars -= len(text)


def _text_value(key: str, value: str) -> list[str]:
    """``value`` as the page's text (possibly several paragraphs of an HTML string), or nothing."""
    value = value.strip()
    if not value or _is_machine_string(value):
        return []
    if _HTML_TAG.search(value):
        return [p for p in html_paragraphs(value) if p]
    if _is_content_key(key) or key == "":
        return [" ".join(value.split())] if _is_words(value) else []
    return [" ".join(value.split())] if is_prose(value) else []


@functools.lru_cache(maxsize=4096)
def _is_content_key(key: str) -> bool:
    return bool(_CONTENT_KEY.search(key))


@functools.lru_cache(maxsize=4096)
def _is_machine_key(key: str) -> bool:
    if key == "__html":  # dangerouslySetInnerHTML: the element's HTML, text of the page
        return False
    return key.lower() in _MACHINE_KEYS or bool(_MACHINE_KEY_SUFFIX.search(key)) or key.startswith("__")


@functools.lru_cache(maxsize=16384)
def _is_machine_string(value: str) -> bool:
    if not any(c.isalpha() for c in value) and not value.replace(".", "").replace(",", "").isdigit():
        return True
    if _EXPRESSIONS.search(value):
        return True
    if _URLISH.search(value) or (value.startswith(("{", "[", "(")) and value.endswith(("}", "]", ")"))):
        return True
    if _CODE.search(value):
        return True
    words = value.split()
    if len(words) == 1:
        if _PASCAL_CASE.match(value):  # a type or component name: "BlogConfig", "NutritionInformation"
            return True
        return not (_WORD.match(value) or _QUANTITY.match(value))
    technical = sum(1 for w in words if _TECHNICAL_WORD.search(w))
    if technical / len(words) >= 0.3:
        return True
    # class lists: lowercase tokens, many of them hyphenated ("flex items-center px-4")
    hyphenated = sum("-" in w or ":" in w for w in words)
    return all(_CLASS_TOKEN.match(w) for w in words) and hyphenated * 2 >= len(words)


def _is_words(value: str) -> bool:
    """Something a person reads: letters, not an enum, id or code."""
    return (any(c.isalpha() for c in value) and not _is_machine_string(value)) or value.isdigit()


def is_prose(value: str) -> bool:
    """A sentence-like string: at least four words and a lowercase letter, few technical words."""
    words = value.split()
    return (
        len(words) >= 4
        and len(value) >= 20
        and any(c.islower() for c in value)
        and not _is_machine_string(value)
    )


def _is_translation_table(value: dict[str, Any]) -> bool:
    """A dictionary of the site's UI strings ({"addToCart": "Add to cart", …}): many
    identifier keys with short string values."""
    if len(value) < 25:
        return False
    strings = [v for v in value.values() if isinstance(v, str)]
    if len(strings) < 0.8 * len(value):
        return False
    identifiers = sum(1 for k in value if re.fullmatch(r"[a-z][\w.-]*[A-Z_.-][\w.-]*", str(k)))
    return identifiers >= 0.6 * len(value) and sum(len(s) for s in strings) / len(strings) < 60


def _react_element(value: list[Any]) -> tuple[str, dict[str, Any]] | None:
    """(tag, props) of a React element as flight data writes it: ["$", tag, key, props]."""
    if len(value) == 4 and value[0] == "$" and isinstance(value[1], str) and isinstance(value[3], dict):
        return value[1], value[3]
    return None


def html_paragraphs(html: str) -> list[str]:
    """The paragraphs of an HTML fragment's text, block elements on their own lines."""
    try:
        fragment = lxml.html.fragment_fromstring(html, create_parent="div")
    except (etree.ParserError, ValueError):
        return [" ".join(html.split())]
    etree.strip_elements(fragment, "script", "style", with_tail=False)
    for element in fragment.iter(*_BLOCK_TAGS):
        element.tail = "\n" + (element.tail or "")
        element.text = "\n" + (element.text or "")
    lines = (" ".join(line.split()) for line in fragment.text_content().split("\n"))
    return [line for line in lines if line]
