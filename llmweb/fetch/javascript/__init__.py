"""Pages that JavaScript fills in: the data they embed, read without running any script. Pure.

- :mod:`.shell` — whether a page's HTML carries its subject, and which text stands for it.
- :mod:`.seen` — whether a line of the data is in the page's text, asked of one text many times.
- :mod:`.embedded` — what a page's embedded data says, as text naming where it came from.
- :mod:`.payloads` — the data found and decoded: JSON-LD, framework state, JS literals.
- :mod:`.schema_org` — JSON-LD read for what each schema.org type means.
- :mod:`.app_state` — a framework's state → the human text in it.
- :mod:`.chrome` — text every site wraps around pages (consent, login, footers); it lives
  here because the shell verdict is what reads it, and :mod:`llmweb.fetch.html` reads the
  verdict (putting it with the HTML modules would make the two rooms import each other).
"""
