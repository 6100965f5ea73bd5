"""scripts/serve names every locale setting outside the languages llmweb's text readers know."""

from __future__ import annotations

from typing import Any

from conftest import shipped_settings

from serve import stack


def german(settings: dict[str, Any]) -> dict[str, Any]:
    settings["search"]["default_lang"] = "de-DE"
    for entry in settings["engines"]:
        if entry.get("engine") == "llmwebbrave":
            entry.update(search_lang="de", country="DE", ui_lang="de-DE")
    return settings


def test_the_shipped_polish_locale_gets_no_note() -> None:
    assert stack.locale_notes(shipped_settings()) == []


def test_an_english_locale_gets_no_note() -> None:
    settings = shipped_settings()
    settings["search"]["default_lang"] = "en-US"
    assert stack.locale_notes(settings) == []


def test_a_german_locale_is_noted_for_every_setting_that_names_it() -> None:
    notes = stack.locale_notes(german(shipped_settings()))
    assert [note.split(" is ")[0] for note in notes] == [
        "search.default_lang",
        "brave api: search_lang",
        "brave api: ui_lang",
    ]
    assert all("only English and Polish" in note and "docs/language.md" in note for note in notes)
