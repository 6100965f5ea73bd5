"""Text every site wraps around its pages: consent banners, login prompts, footers. Pure.

A JavaScript application's HTML often holds nothing of the page but this: the cookie notice
it renders on the server, the "Log in / Sign up" bar, the legal footer, a notice that
JavaScript is needed or that the rest is for subscribers. Such a paragraph is recognised by
what it says, in the languages households here read most (English, Polish, German, French,
Spanish, Italian, Dutch), and only while it is short: a long paragraph that mentions
cookies is an article about them (or a recipe). A notice (consent, paywall, JavaScript
needed) may run to a long paragraph; furniture (login links, a footer line) is a line.
"""

from __future__ import annotations

import re

# A notice (consent, a paywall, JavaScript needed) longer than this is the page's own text,
# whatever it says: consent notices run long (YouTube's German one is 880 characters),
# articles about cookies run longer.
_MAX_NOTICE_CHARS = 1200
# Furniture (a login link, a footer line) is a line or two: a longer paragraph that says
# "register" or "privacy" is the page's text ("…until the thermometer registers 135°").
_MAX_FURNITURE_CHARS = 200

_NOTICE = re.compile(
    "|".join(
        (
            # consent and cookies
            r"\bcookies?\b.{0,200}\b(?:accept|agree|consent|use|settings|preferences|partners|polic|personali[sz]|manage|zgod|akcept|zustimm|akzeptier|accepte|acepta|accett|gebruik|toestemming|préférences)",
            r"\b(?:accept|reject|allow|deny|manage) (?:all )?cookies\b|\bcookie[- ](?:settings|preferences|policy|notice|erklärung|beleid|richtlinie)\b|\bcookie preferences\b",
            r"\bwe (?:and our (?:\d+ )?partners )?(?:use|store|process)\b.{0,80}\b(?:cookies|data|information)\b",
            r"\bgdpr\b|\bdsgvo\b",
            # the scripts themselves
            r"\b(?:enable|turn on|activate) javascript\b|\bjavascript (?:is )?(?:disabled|required|needed|must be enabled)\b|\bbrowser (?:is )?(?:not supported|out of date|outdated)\b|\bupdate your browser\b",
            r"\bwłącz javascript\b|\bjavascript aktivieren\b|\bactivez javascript\b|\bhabilita javascript\b",
            # paywalls
            r"\bsubscribe (?:to (?:continue|read|unlock)|now)\b|\bsubscribers only\b|\bfor subscribers\b|\byou have reached your\b|\bfree articles? (?:left|remaining)\b",
        )
    ),
    re.I,
)
_FURNITURE = re.compile(
    "|".join(
        (
            r"\b(?:privacy|datenschutz|prywatnoś|confidentialité|privacidad|privacybeleid)",
            r"\brodo\b",
            # accounts
            r"\b(?:log ?in|sign ?in|sign ?up|log ?out|register|create (?:an |your )?account|forgot (?:your )?password|zaloguj|zarejestruj|anmelden|registrieren|se connecter|s'inscrire|iniciar sesión|regístrate|accedi|inloggen)\b",
            r"\bdon.t have an account\b|\balready (?:a member|have an account|a subscriber)\b|\bjoin (?:now|today|free)\b",
            r"^(?:loading|ładowanie|wird geladen|chargement|cargando)\W*$",
            # legal footer
            r"©|\(c\) ?\d{4}|\ball rights reserved\b|\bwszelkie prawa zastrzeżone\b|\balle rechte vorbehalten\b|\btous droits réservés\b|\btodos los derechos reservados\b",
            r"\bterms (?:of (?:use|service)|and conditions)\b|\bimpressum\b|\bimprint\b|\bregulamin\b|\bagb\b|\bmentions légales\b|\baviso legal\b",
            # newsletters, apps, page furniture
            r"\bnewsletter\b|\bsign up for (?:our|the)\b",
            r"\b(?:download|get|open in) (?:the|our) app\b|\bapp herunterladen\b|\bpobierz aplikację\b|\btélécharger l'application\b",
            r"\bskip to (?:main )?content\b|\bback to top\b|\bfollow us\b",
        )
    ),
    re.I,
)


# A piece of a word one of the patterns above needs: most paragraphs hold none, and skip the
# long search (substring tests cost a fraction of one regular-expression pass).
_TRIGGERS = (
    "cookie", "privacy", "datenschutz", "prywatno", "confidentialit", "privacidad", "gdpr", "rodo", "dsgvo",
    "log in", "login", "log out", "logout", "sign", "regist", "account", "password", "zaloguj", "zarejestruj",
    "anmelden", "connecter", "inscrire", "sesión", "accedi", "inloggen", "already", "join", "subscri",
    "javascript", "browser", "loading", "ładowanie", "geladen", "chargement", "cargando", "©", "(c)",
    "rights", "prawa", "rechte", "droits", "derechos", "terms", "impressum", "imprint", "regulamin", "agb",
    "mentions", "aviso", "free article", "newsletter", "app", "aplikacj", "application", "skip to",
    "back to top", "follow us", "we and", "we use", "we store", "we process",
)  # fmt: skip


def is_chrome(paragraph: str) -> bool:
    """True for a short paragraph that is site furniture rather than the page's text."""
    if len(paragraph) > 2 * _MAX_NOTICE_CHARS:
        return False
    lowered = paragraph.lower()
    if not any(trigger in lowered for trigger in _TRIGGERS):
        return False
    text = " ".join(paragraph.split())
    if len(text) <= _MAX_FURNITURE_CHARS and _FURNITURE.search(text):
        return True
    return len(text) <= _MAX_NOTICE_CHARS and bool(_NOTICE.search(text))


def without_chrome(text: str) -> str:
    """``text`` with its chrome paragraphs (and the lines of one) left out."""
    kept = []
    for paragraph in re.split(r"\n\s*\n", text):
        split = paragraph.split("\n")
        lines = [line for line in split if not is_chrome(line)]
        # a paragraph of one line was judged as that line (most are: half the time it took)
        if lines and (len(split) == 1 or not is_chrome(paragraph)):
            kept.append("\n".join(lines))
    return "\n\n".join(kept)
