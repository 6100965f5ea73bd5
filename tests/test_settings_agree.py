"""Facts that must live in two places stay in step: settings.yml is the home, the copies follow.

SearXNG's engine contract gives every engine setting a module-level default beside its
settings.yml entry, and the client is installed where settings.yml may not be; each test
names one such pair and fails when they disagree."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from conftest import load_engine_module, shipped_settings

from llmweb import config
from llmweb.search import LAST_PAGE, SearchRequest
from plugins import language
from serve import stack

engine: Any = load_engine_module()

# The engine settings whose module default is the shipped value, not a neutral fallback.
SHIPPED_DEFAULTS = (
    "search_lang",
    "country",
    "ui_lang",
    "results_per_page",
    "monthly_budget",
    "daily_budget",
    "cache_seconds",
    "cache_entries",
)


def brave_entry(settings: dict[str, Any]) -> dict[str, Any]:
    (entry,) = [e for e in settings["engines"] if e.get("engine") == "llmwebbrave"]
    return dict(entry)


@pytest.mark.parametrize("key", SHIPPED_DEFAULTS)
def test_the_engine_module_default_is_the_settings_yml_value(key: str) -> None:
    assert getattr(engine, key) == brave_entry(shipped_settings())[key]


def test_the_engine_docstring_example_configures_what_settings_yml_does() -> None:
    example = re.search(r"\.\. code:: yaml\n\n(.*?)\n\n", engine.__doc__, flags=re.DOTALL)
    assert example is not None
    (documented,) = yaml.safe_load(example.group(1))
    shipped = brave_entry(shipped_settings())
    assert documented == {k: shipped[k] for k in documented}


def test_the_last_page_is_the_same_for_the_client_searxng_and_the_engine() -> None:
    last_page = SearchRequest.model_json_schema()["properties"]["page"]["maximum"]
    assert (last_page, LAST_PAGE, engine.max_page) == (shipped_settings()["search"]["max_page"],) * 3


def test_the_client_default_url_is_where_settings_yml_listens() -> None:
    server = shipped_settings()["server"]
    assert f"http://{server['bind_address']}:{server['port']}" == config.DEFAULT_SEARXNG_URL


def test_both_layers_of_the_locale_name_the_same_language() -> None:
    settings = shipped_settings()
    entry = brave_entry(settings)
    default_lang = settings["search"]["default_lang"]
    assert default_lang == entry["ui_lang"]
    assert default_lang.split("-") == [entry["search_lang"], entry["country"]]


def test_scripts_serve_and_the_engine_know_the_same_text_languages() -> None:
    assert stack.TEXT_LANGUAGES == engine.DATE_LANGUAGES


def test_the_language_plugin_default_is_the_shipped_honour_mode() -> None:
    assert shipped_settings()["llmweb_language"]["honour"] == language.DEFAULT_MODE
