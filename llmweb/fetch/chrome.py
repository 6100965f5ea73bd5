"""Text every site wraps around its pages: consent banners, login prompts, footers. Pure.

A JavaScript application's HTML often holds nothing of the page but this: the cookie notice
it renders on the server, the "Log in / Sign up" bar, the legal footer, a notice that
JavaScript is needed or that the rest is for subscribers. Such a paragraph is recognised by
what it says, in the languages households here read most (English, Polish, German, French,
Spanish, Italian, Dutch), and only while it is short: a long paragraph that mentions
cookies is an article about them (or a recipe).
"""

from __future__ import annotations

import re

# A paragraph longer than this is the page's own text, whatever it says. Consent notices run
# long (YouTube's German one is 880 characters); articles about cookies run longer.
_MAX_CHROME_CHARS = 1200

_CHROME = re.compile(
    "|".join(
        (
            # consent and cookies
            r"\bcookies?\b.{0,200}\b(?:accept|agree|consent|use|settings|preferences|partners|polic|personali[sz]|manage|zgod|akcept|zustimm|akzeptier|accepte|acepta|accett|gebruik|toestemming|préférences)",
            r"\b(?:accept|reject|allow|deny|manage) (?:all )?cookies\b|\bcookie[- ](?:settings|preferences|policy|notice|erklärung|beleid|richtlinie)\b|\bcookie preferences\b",
            r"\bwe (?:and our (?:\d+ )?partners )?(?:use|store|process)\b.{0,80}\b(?:cookies|data|information)\b",
            r"\b(?:privacy|datenschutz|prywatnoś|confidentialité|privacidad|privacybeleid)",
            r"\bgdpr\b|\brodo\b|\bdsgvo\b",
            # accounts
            r"\b(?:log ?in|sign ?in|sign ?up|log ?out|register|create (?:an |your )?account|forgot (?:your )?password|zaloguj|zarejestruj|anmelden|registrieren|se connecter|s'inscrire|iniciar sesión|regístrate|accedi|inloggen)\b",
            r"\bdon.t have an account\b|\balready (?:a member|have an account|a subscriber)\b|\bjoin (?:now|today|free)\b",
            # the scripts themselves
            r"\b(?:enable|turn on|activate) javascript\b|\bjavascript (?:is )?(?:disabled|required|needed|must be enabled)\b|\bbrowser (?:is )?(?:not supported|out of date|outdated)\b|\bupdate your browser\b",
            r"\bwłącz javascript\b|\bjavascript aktivieren\b|\bactivez javascript\b|\bhabilita javascript\b",
            r"^(?:loading|ładowanie|wird geladen|chargement|cargando)\W*$",
            # legal footer
            r"©|\(c\) ?\d{4}|\ball rights reserved\b|\bwszelkie prawa zastrzeżone\b|\balle rechte vorbehalten\b|\btous droits réservés\b|\btodos los derechos reservados\b",
            r"\bterms (?:of (?:use|service)|and conditions)\b|\bimpressum\b|\bimprint\b|\bregulamin\b|\bagb\b|\bmentions légales\b|\baviso legal\b",
            # paywalls, newsletters, apps
            r"\bsubscribe (?:to (?:continue|read|unlock)|now)\b|\bsubscribers only\b|\bfor subscribers\b|\byou have reached your\b|\bfree articles? (?:left|remaining)\b",
            r"\bnewsletter\b|\bsign up for (?:our|the)\b",
            r"\b(?:download|get|open in) (?:the|our) app\b|\bapp herunterladen\b|\bpobierz aplikację\b|\btélécharger l'application\b",
            r"\bskip to (?:main )?content\b|\bback to top\b|\bfollow us\b",
        )
    ),
    re.I,
)


# A word one of the patterns above needs: most paragraphs hold none, and skip the long search.
_TRIGGER = re.compile(
    r"cookie|privacy|datenschutz|prywatno|confidentialit|privacidad|\bgdpr|\brodo\b|dsgvo|\blog ?(?:in|out)\b|"
    r"\bsign ?(?:in|up)\b|\bsign up for\b|\bregist|create (?:an |your )?account|password|zaloguj|zarejestruj|"
    r"anmelden|registrieren|connecter|inscrire|iniciar sesi|regístrate|\baccedi\b|inloggen|\balready (?:a|have)|"
    r"don.t have an account|\bjoin (?:now|today|free)|subscri|javascript|\bbrowser|^\W*(?:loading|ładowanie|"
    r"wird geladen|chargement|cargando)|©|\(c\) ?\d|rights reserved|prawa zastrzeżone|rechte vorbehalten|"
    r"droits réservés|derechos reservados|\bterms (?:of|and)|impressum|imprint|regulamin|\bagb\b|mentions légales|"
    r"aviso legal|free articles?|newsletter|\b(?:download|get|open in) (?:the|our) app|app herunterladen|"
    r"pobierz aplikację|télécharger l'application|skip to|back to top|follow us|\bwe (?:and|use|store|process)\b",
    re.I,
)


def is_chrome(paragraph: str) -> bool:
    """True for a short paragraph that is site furniture rather than the page's text."""
    if len(paragraph) > 2 * _MAX_CHROME_CHARS or not _TRIGGER.search(paragraph):
        return False
    text = " ".join(paragraph.split())
    return len(text) <= _MAX_CHROME_CHARS and bool(_CHROME.search(text))


def without_chrome(text: str) -> str:
    """``text`` with its chrome paragraphs (and the lines of one) left out."""
    kept = []
    for paragraph in re.split(r"\n\s*\n", text):
        lines = [line for line in paragraph.split("\n") if not is_chrome(line)]
        if lines and not is_chrome(paragraph):
            kept.append("\n".join(lines))
    return "\n\n".join(kept)
