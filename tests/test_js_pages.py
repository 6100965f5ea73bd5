"""Pages that JavaScript fills in: what their embedded data carries, and shells refused. Pure.

Each page below is small but shaped like the real ones of its kind (the bench part jsshell
runs the real saved pages): the data sits in the same element or assignment, nested the same
way, beside the same kind of machine strings.
"""

from __future__ import annotations

import json

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmweb.errors import NeedsJavaScript, NoReadableText
from llmweb.fetch import limits
from llmweb.fetch.html.extract import read_html_page
from llmweb.fetch.javascript.embedded import Budget, read_embedded
from llmweb.fetch.javascript.seen import SeenText
from llmweb.render import error_object, render_error

URL = "https://food.example.com/recipes/42"
APP = '<script src="/_next/static/chunks/main-3f2a.js" defer></script>'
EMPTY_APP = '<div id="__next"></div>'
COOKIES = (
    "<div class='consent'><p>We and our 842 partners use cookies to store and access information on your "
    "device, for personalised ads and content, ad and content measurement and audience insights. Click "
    "Accept all to consent, or Manage preferences to choose.</p><button>Accept all</button></div>"
)
LOGIN = "<header><p>Log in</p><p>Sign up</p></header>"
FOOTER = "<footer><p>© 2025 Example Media Ltd. All rights reserved. Terms of use · Privacy policy · Imprint</p></footer>"


# Embedded text stands for a page when it holds at least limits.MIN_TEXT_CHARS: these pages
# carry a paragraph this long beside the facts each test looks for.
INTRO = (
    "A soft sponge soaked in lemon syrup while it is still warm from the oven, so that every slice "
    "stays moist for days: it is the cake our readers ask for most, and the one we bake for birthdays."
)
BODY = (
    "The city opened three libraries on Monday, in Nowa Huta, Podgórze and Bronowice. Each has a "
    "reading room, a maker space with 3D printers and study rooms that students can book online."
)


def page(body: str = EMPTY_APP, head: str = APP, title: str = "Lemon drizzle cake | Example Food") -> str:
    return f"<!DOCTYPE html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def json_ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def read(html: str) -> str:
    return read_html_page(html, URL).text


RECIPE = {
    "@context": "https://schema.org",
    "@type": "Recipe",
    "name": "Lemon drizzle cake",
    "author": {"@type": "Person", "name": "Mary Baker"},
    "recipeYield": "8 slices",
    "prepTime": "PT15M",
    "cookTime": "PT45M",
    "image": "https://food.example.com/img/cake.jpg",
    "recipeIngredient": ["225g unsalted butter", "225g caster sugar", "4 eggs", "1 lemon, zested"],
    "recipeInstructions": [
        {
            "@type": "HowToSection",
            "name": "For the cake",
            "itemListElement": [
                {"@type": "HowToStep", "text": "Heat the oven to 180C."},
                {"@type": "HowToStep", "text": "Beat the butter and sugar until pale and creamy."},
            ],
        },
        {
            "@type": "HowToSection",
            "name": "For the drizzle",
            "itemListElement": [{"@type": "HowToStep", "text": "Mix the lemon juice with the sugar."}],
        },
    ],
    "nutrition": {"@type": "NutritionInformation", "calories": "399 kcal"},
}


# --- JSON-LD, read for what each type means -----------------------------------------------


def test_a_json_ld_recipe_gives_every_ingredient() -> None:
    text = read(page(head=APP + json_ld(RECIPE)))
    assert all(f"- {item}" in text for item in RECIPE["recipeIngredient"])


def test_a_json_ld_recipe_numbers_its_steps_through_its_sections() -> None:
    text = read(page(head=APP + json_ld(RECIPE)))
    assert "For the cake:\n1. Heat the oven to 180C.\n2. Beat the butter" in text
    assert "For the drizzle:\n3. Mix the lemon juice with the sugar." in text


def test_a_json_ld_recipe_gives_its_yield_times_and_nutrition_as_labelled_lines() -> None:
    text = read(page(head=APP + json_ld(RECIPE)))
    assert "Yield: 8 slices" in text and "Prep time: 15 min" in text and "Cook time: 45 min" in text
    assert "Nutrition: Calories 399 kcal" in text


def test_a_json_ld_product_gives_brand_sku_offer_and_properties() -> None:
    product = {
        "@context": "https://schema.org/",
        "@type": "Product",
        "name": "Trail running shoe X2",
        "brand": {"@type": "Brand", "name": "Stride"},
        "sku": "STR-X2-42",
        "gtin13": "5901234123457",
        "description": "A light shoe with a grippy sole for muddy trails and long distances in the hills.",
        "offers": {
            "@type": "Offer",
            "price": "119.99",
            "priceCurrency": "EUR",
            "availability": "https://schema.org/InStock",
            "url": "https://shop.example.com/x2",
        },
        "additionalProperty": [
            {"@type": "PropertyValue", "name": "Weight", "value": 240, "unitText": "g"},
            {"@type": "PropertyValue", "name": "Drop", "value": "6 mm"},
        ],
        "aggregateRating": {
            "@type": "AggregateRating",
            "ratingValue": 4.6,
            "bestRating": 5,
            "reviewCount": 87,
        },
    }
    text = read(page(head=APP + json_ld(product), title="Trail running shoe X2 – Stride"))
    assert "Brand: Stride" in text and "SKU: STR-X2-42" in text and "GTIN: 5901234123457" in text
    assert "Offer: 119.99 EUR, in stock" in text
    assert "Properties: Weight: 240 g; Drop: 6 mm" in text
    assert "Rating: 4.6 of 5 (87 ratings)" in text


def test_json_ld_text_escaped_twice_or_percent_encoded_reads_as_written() -> None:
    product = {
        "@context": "https://schema.org/",
        "@type": "Product",
        "name": "L&amp;#8217;atelier drop necklace",
        "brand": {"@type": "Brand", "name": "L&amp;#8217;atelier"},
        "description": "A%20pendant%20of%2018K%20gold%20with%20a%20tear-shaped%20diamond%20drop%2C%20"
        "on%20an%20adjustable%20chain%20of%2040%20to%2042%20cm.",
    }
    shown = (
        "<main><h1>L’atelier drop necklace</h1><p>Handmade in the atelier's workshop: a gold bar wrapped in "
        "yellow and silver toned half rings, adorned by small diamonds that frame the drop. Wear it layered "
        "with your other favourite chains.</p><p>Price: 3,665 USD</p></main>"
    )
    text = read(page(body=shown, head=APP + json_ld(product), title="L’atelier drop necklace"))
    assert "Product: L’atelier drop necklace" in text
    assert "A pendant of 18K gold with a tear-shaped diamond drop, on an adjustable chain" in text
    assert "&#8217;" not in text and "%20" not in text


def test_a_product_groups_variants_are_named_by_what_sets_them_apart() -> None:
    colours = ["Black/White", "Sea Blue/Grey", "Forest Green/Cream"]
    group = {
        "@context": "https://schema.org/",
        "@type": "ProductGroup",
        "name": "Trail running shoe X2",
        "description": "A light shoe with a grippy sole for muddy trails and long distances in the hills, "
        "with a rock plate under the forefoot and a gusseted tongue that keeps grit out on the way down.",
        "variesBy": "color",
        "hasVariant": [{"@type": "Product", "name": f"Trail running shoe X2 - {c}"} for c in colours],
    }
    text = read(page(head=APP + json_ld(group), title="Trail running shoe X2 – Stride"))
    assert "Has variant: Black/White, Sea Blue/Grey, Forest Green/Cream" in text
    assert text.count("Trail running shoe X2") == 1


def test_a_json_ld_vehicle_gives_its_vin_and_mileage() -> None:
    car = {
        "@context": "https://schema.org",
        "@type": ["Product", "Car"],
        "name": "Tesla Model 3 Long Range AWD 2019",
        "description": "One owner, full service history, white interior, the 2019 autopilot hardware and a "
        "battery health report from last month showing 91 per cent of the original capacity.",
        "vehicleIdentificationNumber": "5YJ3E7EB2KF123456",
        "mileageFromOdometer": {"@type": "QuantitativeValue", "value": 65544, "unitCode": "KMT"},
        "offers": {"@type": "Offer", "price": 31500, "priceCurrency": "EUR"},
    }
    text = read(page(head=APP + json_ld(car), title="Tesla Model 3 Long Range AWD 2019"))
    assert "VIN: 5YJ3E7EB2KF123456" in text and "Mileage: 65544 KMT" in text and "Offer: 31500 EUR" in text


def test_a_json_ld_faq_page_gives_each_question_with_its_answer() -> None:
    faq = {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": [
            {
                "@type": "Question",
                "name": "How long does delivery take?",
                "acceptedAnswer": {
                    "@type": "Answer",
                    "text": "<p>Orders arrive within <b>3 working days</b>.</p>",
                },
            },
            {
                "@type": "Question",
                "name": "Can I return an item?",
                "acceptedAnswer": {
                    "@type": "Answer",
                    "text": "Yes, within 30 days of delivery, free of charge. "
                    "Print the label from your account and drop the parcel at any post office.",
                },
            },
        ],
    }
    text = read(page(head=APP + json_ld(faq), title="Help"))
    assert "Q: How long does delivery take?\nA: Orders arrive within 3 working days." in text
    assert "Q: Can I return an item?\nA: Yes, within 30 days of delivery, free of charge. Print" in text


def test_a_json_ld_how_to_gives_its_supplies_and_steps() -> None:
    how_to = {
        "@context": "https://schema.org",
        "@type": "HowTo",
        "name": "How to bleed a radiator",
        "supply": [{"@type": "HowToSupply", "name": "an old towel"}],
        "tool": [{"@type": "HowToTool", "name": "a radiator key"}],
        "step": [
            {
                "@type": "HowToStep",
                "name": "Turn off",
                "text": "Turn the heating off and let the radiators cool.",
            },
            {"@type": "HowToStep", "text": "Open the valve a quarter turn until water appears."},
            {
                "@type": "HowToStep",
                "text": "Close the valve, then check the boiler pressure and top it up to "
                "1.5 bar if the gauge shows less; the radiator should now heat evenly from top to bottom.",
            },
        ],
    }
    text = read(page(head=APP + json_ld(how_to), title="How to bleed a radiator"))
    assert "- an old towel" in text and "- a radiator key" in text
    assert "Open the valve a quarter turn until water appears." in text


def test_a_json_ld_event_gives_its_dates_place_and_offer() -> None:
    event = {
        "@context": "https://schema.org",
        "@type": "MusicEvent",
        "name": "Autumn organ recital",
        "startDate": "2026-10-04T19:00",
        "location": {
            "@type": "Place",
            "name": "St Mary's Church",
            "address": {
                "@type": "PostalAddress",
                "streetAddress": "1 Church Lane",
                "addressLocality": "Kraków",
            },
        },
        "offers": {
            "@type": "Offer",
            "price": "40",
            "priceCurrency": "PLN",
            "availability": "https://schema.org/SoldOut",
        },
        "description": "Bach and Buxtehude on the restored 18th-century organ, with an introduction by the organist.",
    }
    text = read(page(head=APP + json_ld(event), title="Autumn organ recital"))
    assert "Starts: 2026-10-04T19:00" in text
    assert "Location: St Mary's Church, 1 Church Lane, Kraków" in text
    assert "Offer: 40 PLN, sold out" in text


def test_a_json_ld_video_gives_its_description_and_transcript() -> None:
    video = {
        "@context": "https://schema.org",
        "@type": "VideoObject",
        "name": "Fixing a puncture in five minutes",
        "description": "A quick roadside fix for a bicycle inner tube, with tyre levers and a patch kit.",
        "duration": "PT5M12S",
        "transcript": "First take the wheel off. Then lever one side of the tyre over the rim and pull the tube out.",
        "thumbnailUrl": "https://video.example.com/t.jpg",
    }
    text = read(page(head=APP + json_ld(video), title="Fixing a puncture in five minutes"))
    assert "Duration: 5 min 12 s" in text
    assert "A quick roadside fix for a bicycle inner tube" in text
    assert "Then lever one side of the tyre over the rim" in text


def test_a_json_ld_graph_gives_the_article_and_skips_the_sites_frame() -> None:
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebSite", "name": "Example News", "url": "https://news.example.com/"},
            {"@type": "Organization", "name": "Example Media Ltd", "logo": "https://news.example.com/l.png"},
            {
                "@type": "NewsArticle",
                "headline": "City opens three new libraries",
                "author": [{"@type": "Person", "name": "Anna Nowak"}],
                "datePublished": "2026-03-01",
                "articleBody": BODY,
            },
        ],
    }
    text = read(page(head=APP + json_ld(graph), title="City opens three new libraries"))
    assert text.startswith(
        "News article: City opens three new libraries\nBy: Anna Nowak\nPublished: 2026-03-01"
    )
    assert BODY in text
    assert "Example Media Ltd" not in text and "Example News" not in text


# --- framework state, parsed and never run --------------------------------------------------


def test_next_js_flight_data_gives_the_rendered_text_but_not_the_router_tree() -> None:
    rows = [
        '0:{"P":null,"b":"build-7","f":[[["",{"children":[["locale","en","d"],{"children":["recipes",{}]}]}]]]}',
        '1:I[5311,["static/chunks/311.js"],"Link"]',
        '2:["$","article",null,{"className":"recipe","children":[["$","h1",null,{"children":"Lemon drizzle cake"}],'
        '["$","ul",null,{"children":[["$","li","a",{"children":["225","g"," ","unsalted butter"]}],'
        '["$","li","b",{"children":[["$","strong",null,{"children":"4"}]," eggs"]}]]}],'
        f'["$","p",null,{{"children":{json.dumps(INTRO)}}}],'
        '["$","nav",null,{"children":[["$","$L1",null,{"href":"/about","children":"About us"}]]}]]}]',
    ]
    stream = "\n".join(rows) + "\n"
    pushes = f"<script>self.__next_f.push([1,{json.dumps(stream[:90])}])</script>"
    pushes += f"<script>self.__next_f.push([1,{json.dumps(stream[90:])}])</script>"
    text = read(page(head=APP, body=EMPTY_APP + pushes))
    assert text.split("\n\n") == ["Lemon drizzle cake", "225g unsalted butter", "4 eggs", INTRO]
    assert "locale" not in text and "recipes" not in text and "About us" not in text


def test_a_nuxt_2_payload_gets_its_values_in_place_of_the_parameters() -> None:
    nuxt = (
        '<script>window.__NUXT__=(function(a,b,c,g){return {layout:"default",data:[{recipe:{title:c,'
        'ingredients:[{amount:225,unit:"g",name:"unsalted butter"},{amount:4,unit:a,name:"eggs"}],'
        'steps:[{text:"Beat the butter and the sugar until pale and creamy, then add the eggs."}],'
        f"intro:{json.dumps(INTRO)},"
        'published:b,rating:void 0,featured:!0}}],fetch:{},mutations:[]}}("pcs",false,"Lemon drizzle cake",null));'
        "</script>"
    )
    text = read(page(body=EMPTY_APP + nuxt))
    assert "Lemon drizzle cake" in text
    assert "225 g unsalted butter" in text  # "g" is a string here, not the parameter g
    assert "4 pcs eggs" in text


def test_a_nuxt_3_devalue_payload_is_resolved() -> None:
    flat = [
        {"data": 1, "state": 6},
        ["ShallowReactive", 2],
        {"recipe": 3},
        {"title": 4, "intro": 5},
        "Lemon drizzle cake",
        INTRO,
        {"$sconsent": 7},
        False,
    ]
    script = f'<script type="application/json" id="__NUXT_DATA__" data-ssr="true">{json.dumps(flat)}</script>'
    text = read(page(body=EMPTY_APP + script))
    assert f"Lemon drizzle cake\n\n{INTRO}" in text


def test_an_apollo_store_gives_its_entities_text_without_typenames_or_references() -> None:
    store = {
        "ROOT_QUERY": {"__typename": "Query", 'recipe({"id":"42"})': {"__ref": "Recipe:42"}},
        "Recipe:42": {
            "__typename": "Recipe",
            "id": "42",
            "title": "Lemon drizzle cake",
            "intro": INTRO,
            "ingredients": [{"__ref": "Ingredient:1"}],
        },
        "Ingredient:1": {"__typename": "Ingredient", "quantity": "225g", "name": "unsalted butter"},
    }
    script = f"<script>window.__APOLLO_STATE__={json.dumps(store)};</script>"
    text = read(page(body=EMPTY_APP + script))
    assert text.split("\n\n") == ["Lemon drizzle cake", INTRO, "225g unsalted butter"]


def test_a_redux_state_given_to_json_parse_is_read() -> None:
    state = {
        "article": {
            "headline": "City opens three new libraries",
            "body": f"<p>{BODY}</p><p>Each has a café too.</p>",
        },
        "ui": {"theme": {"fontFamily": "'Inter', sans-serif", "shadow": "0 1px 2px rgba(0,0,0,.2)"}},
    }
    literal = json.dumps(json.dumps(state))
    script = f"<script>window.__PRELOADED_STATE__ = JSON.parse({literal});</script>"
    text = read(page(body=EMPTY_APP + script, title="City opens three new libraries"))
    assert text == f"City opens three new libraries\n\n{BODY}\n\nEach has a café too."


def test_a_youtube_player_response_gives_the_title_channel_and_description() -> None:
    response = {
        "responseContext": {"serviceTrackingParams": [{"service": "GFEEDBACK"}]},
        "videoDetails": {
            "videoId": "dQw4w9WgXcQ",
            "title": "Fixing a puncture in five minutes",
            "lengthSeconds": "312",
            "author": "Roadside Bikes",
            "shortDescription": f"A quick roadside fix for a bicycle inner tube.\n\n{BODY}\n\nTools: tyre levers, patch kit.",
        },
        "microformat": {"playerMicroformatRenderer": {"publishDate": "2024-05-01T03:00:00-07:00"}},
    }
    script = f"<script>var ytInitialPlayerResponse = {json.dumps(response)};var meta = document.createElement('meta');</script>"
    text = read(
        page(body="<div id='player'></div>" + script, title="Fixing a puncture in five minutes - YouTube")
    )
    assert text.startswith(
        "Video: Fixing a puncture in five minutes\nChannel: Roadside Bikes\nPublished: 2024-05-01\nLength: 5 min 12 s"
    )
    assert "Tools: tyre levers, patch kit." in text


def test_a_window_literal_with_expressions_is_read_without_running_them() -> None:
    script = (
        "<script>window.__INITIAL_STATE__ = {post: {title: 'Why sourdough needs time', "
        f"lede: '{INTRO}', "
        "onLoad: function () { document.body.innerHTML = 'pwned' }, views: void 0, draft: !1}};</script>"
    )
    text = read(page(body=EMPTY_APP + script, title="Why sourdough needs time"))
    assert text == f"Why sourdough needs time\n\n{INTRO}"


def test_machine_strings_in_state_are_left_out() -> None:
    props = {
        "props": {
            "pageProps": {
                "slug": "lemon-drizzle-cake",
                "hero": {
                    "src": "https://cdn.example.com/a.jpg",
                    "className": "flex items-center px-4 md:px-8",
                },
                "title": "Lemon drizzle cake",
                "status": "PUBLISHED",
                "componentName": "RecipeHero",
                "theme": {"font": "'Inter', -apple-system, sans-serif", "radius": "4px"},
                "labels": {f"key{i}Label": f"Label {i}" for i in range(30)},
                "intro": INTRO,
                "hash": "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
            }
        },
        "buildId": "Xk2_3fPq",
    }
    script = f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(props)}</script>'
    text = read(page(body=EMPTY_APP + script))
    assert text == f"Lemon drizzle cake\n\n{INTRO}"


def test_the_note_names_the_data_the_text_came_from() -> None:
    props = {"props": {"pageProps": {"story": "The city opened three libraries on Monday. " * 6}}}
    head = APP + json_ld(RECIPE)
    script = f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(props)}</script>'
    # a title the recipe does not name: the recipe is not declared as the page's subject
    html = page(head=head, body=EMPTY_APP + script, title="Weekend news and baking | Example")
    notes = read_html_page(html, URL).notes
    assert any("embedded in its HTML (JSON-LD Recipe, __NEXT_DATA__)" in note for note in notes)


# --- which text stands for the page ---------------------------------------------------------


STORY = "".join(
    f"<p>{s}</p>"
    for s in (
        "My grandmother baked this cake every Sunday, and the whole street knew it by the smell of lemons.",
        "It keeps for three days in a tin, if it lasts that long, and it freezes well without the drizzle.",
        "The trick is to pour the syrup while the sponge is still warm, so that it soaks right through.",
    )
)


def test_a_rendered_page_keeps_its_text_and_gains_the_recipe_its_scripts_would_draw() -> None:
    text = read(
        page(body=f"<article><h1>Lemon drizzle cake</h1>{STORY}</article>", head=APP + json_ld(RECIPE))
    )
    # the heading that repeats the page's <title> is left to the title; the rendered text comes first
    assert text.startswith("My grandmother baked this cake every Sunday")
    assert text.index("My grandmother baked this cake every Sunday") < text.index("- 225g caster sugar")


def test_a_rendered_page_is_not_filled_with_what_it_already_shows() -> None:
    shown = STORY + "<ul>" + "".join(f"<li>{i}</li>" for i in RECIPE["recipeIngredient"]) + "</ul>"
    steps = "".join(
        f"<p>{s}</p>"
        for s in (
            "Heat the oven to 180C.",
            "Beat the butter and sugar until pale and creamy.",
            "Mix the lemon juice with the sugar.",
        )
    )
    text = read(
        page(body=f"<article><h1>Lemon drizzle cake</h1>{shown}{steps}</article>", head=APP + json_ld(RECIPE))
    )
    assert text.count("225g unsalted butter") == 1


def test_a_rendered_article_is_not_filled_from_its_authors_card() -> None:
    person = {"@context": "https://schema.org", "@type": "Person", "name": "Anna Nowak",
              "description": "Anna writes about cities, transport and the people who plan them for Example News."}  # fmt: skip
    body = "<article><h1>City opens three new libraries</h1>" + STORY + "</article>"
    text = read(page(body=body, head=APP + json_ld(person), title="City opens three new libraries"))
    assert "Anna writes about cities" not in text


def test_a_rendered_product_keeps_its_text_beside_a_larger_framework_state() -> None:
    shown = (
        "<main><h1>Linen armchair Sofia</h1><p>A deep armchair in washed linen on solid oak legs, with "
        "removable covers you can wash at 30 degrees. Seat height 44 cm, width 78 cm.</p><p>Price: 1,299 PLN. "
        "Delivered in two weeks, assembled by our team.</p></main>"
    )
    things = ["sofa", "bed", "lamp", "rug", "desk", "shelf", "mirror", "stool", "cabinet", "bench"]
    woods = ["oak", "walnut", "ash", "beech", "pine", "birch", "cherry", "maple", "teak", "elm"]
    catalogue = [
        {"title": f"{wood.title()} {thing} {n}", "description": f"Our {wood} {thing} number {n} comes flat packed, "
         f"ships from the {woods[n % 10]} warehouse and suits a {things[(n + 3) % 10]} corner."}
        for n, (thing, wood) in enumerate((t, w) for t in things for w in woods)
    ]  # fmt: skip
    state = {"props": {"pageProps": {"catalogue": catalogue, "product": {"name": "Linen armchair Sofia"}}}}
    data = f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(state)}</script>'
    text = read(
        page(body=f"<div id='__next'>{shown}</div>{data}", title="Linen armchair Sofia | Example Home")
    )
    assert "removable covers you can wash" in text
    assert "flat packed" not in text


def test_a_rendered_product_is_filled_with_its_price_not_with_the_item_page_that_frames_it() -> None:
    # schema.org's ItemPage is the page about one item, like WebPage: its name is the page's title
    # and its date the page's, not something the product page lacks
    shown = (
        "<main><h1>Linen armchair Sofia</h1><p>A deep armchair in washed linen on solid oak legs, with "
        "removable covers you can wash at 30 degrees. Seat height 44 cm, width 78 cm. Delivered in two "
        "weeks and assembled by our team.</p></main>"
    )
    graph = {"@context": "https://schema.org", "@graph": [
        {"@type": "ItemPage", "name": "Linen armchair Sofia | Example Home", "datePublished": "2023-02-03T23:19:53+00:00"},
        {"@type": "Product", "name": "Linen armchair Sofia", "brand": {"@type": "Brand", "name": "Example Home"},
         "offers": {"@type": "Offer", "price": "1299", "priceCurrency": "PLN",
                    "availability": "https://schema.org/InStock"}},
    ]}  # fmt: skip
    text = read(page(body=shown, head=APP + json_ld(graph), title="Linen armchair Sofia | Example Home"))
    assert "Offer: 1299 PLN" in text
    assert "Item page" not in text and "2023-02-03T23:19:53" not in text


def test_a_rendered_product_is_filled_with_its_price_and_description_not_its_catalogue_facts() -> None:
    # what a reader of the page sees of a product is its name, price and description; the data's
    # identifiers, weight, rating and the offer's stock and seller are the shop's catalogue
    shown = (
        "<main><h1>Linen armchair Sofia</h1><p>Seat height 44 cm, width 78 cm, depth 82 cm. Delivered in "
        "two weeks and assembled by our team; covers can be ordered separately in six colours and washed "
        "at 30 degrees.</p><p>Questions? Our showroom in Gdańsk is open every day but Sunday.</p></main>"
    )
    product = {"@context": "https://schema.org", "@type": "Product", "name": "Linen armchair Sofia",
               "sku": "SOF-44", "gtin13": "5901234123457", "weight": "21 kg",
               "brand": {"@type": "Brand", "name": "Example Home"},
               "aggregateRating": {"@type": "AggregateRating", "ratingValue": "4.8", "reviewCount": "112"},
               "description": "A deep armchair in washed linen on solid oak legs, with removable covers.",
               "offers": {"@type": "Offer", "price": "1299", "priceCurrency": "PLN",
                          "availability": "https://schema.org/InStock",
                          "seller": {"@type": "Organization", "name": "Example Home"}}}  # fmt: skip
    text = read(page(body=shown, head=APP + json_ld(product), title="Linen armchair Sofia | Example Home"))
    assert "Offer: 1299 PLN" in text and "A deep armchair in washed linen" in text
    assert "SOF-44" not in text and "5901234123457" not in text and "21 kg" not in text
    assert "4.8" not in text and "in stock" not in text and "Brand:" not in text


def test_a_rendered_product_is_not_filled_with_the_price_it_shows_in_another_form() -> None:
    shown = (
        "<main><h1>Linen armchair Sofia</h1><p>A deep armchair in washed linen on solid oak legs, with "
        "removable covers you can wash at 30 degrees. Seat height 44 cm, width 78 cm.</p>"
        "<p class='price'>1\u00a0299,00 zł</p><p>Questions? Our showroom in Gdańsk is open every day "
        "but Sunday.</p></main>"
    )
    product = {"@context": "https://schema.org", "@type": "Product", "name": "Linen armchair Sofia",
               "description": "Delivered in two weeks and assembled by our team.",
               "offers": {"@type": "Offer", "price": "1299.00", "priceCurrency": "PLN"}}  # fmt: skip
    text = read(page(body=shown, head=APP + json_ld(product), title="Linen armchair Sofia | Example Home"))
    assert "Delivered in two weeks" in text
    assert "PLN" not in text


def test_a_rendered_product_is_not_filled_with_catalogue_data_alone() -> None:
    # the page shows its product; its data adds no price and no description, only identifiers,
    # the offer's condition and seller, and the names of its variants
    shown = (
        "<main><h1>Linen armchair Sofia</h1><p>A deep armchair in washed linen on solid oak legs, with "
        "removable covers you can wash at 30 degrees. Seat height 44 cm, width 78 cm. Price: 1,299 PLN, "
        "delivered in two weeks and assembled by our team.</p></main>"
    )
    product = {"@context": "https://schema.org", "@type": "ProductGroup", "name": "Linen armchair Sofia",
               "sku": "SOF-44", "gtin13": "5901234123457", "productGroupID": "SOF", "variesBy": "color",
               "hasVariant": [{"@type": "Product", "name": f"Linen armchair Sofia - {c}"} for c in ("Sand", "Moss")],
               "offers": {"@type": "Offer", "availability": "https://schema.org/InStock",
                          "itemCondition": "https://schema.org/NewCondition",
                          "seller": {"@type": "Organization", "name": "Example Home"}}}  # fmt: skip
    read = read_html_page(
        page(body=shown, head=APP + json_ld(product), title="Linen armchair Sofia | Example Home"), URL
    )
    assert "fill" not in read.fired
    assert "SOF-44" not in read.text and "Moss" not in read.text


def test_a_product_its_page_declares_is_read_from_the_declaration_not_the_state_around_it() -> None:
    product = {"@context": "https://schema.org", "@type": "Product", "name": "Linen armchair Sofia",
               "brand": {"@type": "Brand", "name": "Example Home"}, "sku": "SOF-44",
               "description": "A deep armchair in washed linen on solid oak legs, with removable covers you can "
               "wash at 30 degrees. Seat height 44 cm, width 78 cm; delivered in two weeks and assembled by our team.",
               "offers": {"@type": "Offer", "price": "1299", "priceCurrency": "PLN"}}  # fmt: skip
    related = [
        {"title": f"Oak shelf {n}", "description": f"Our oak shelf number {n} comes flat packed and ships from the "
         "north warehouse within three working days of your order."}
        for n in range(20)
    ]  # fmt: skip
    state = {"props": {"pageProps": {"product": {"name": "Linen armchair Sofia", "catalogue": related}}}}
    data = f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(state)}</script>'
    scrap = "<div id='__next'><p>Free delivery on orders over 500 PLN. Sign in to collect points.</p></div>"
    text = read(
        page(body=scrap + data, head=APP + json_ld(product), title="Linen armchair Sofia | Example Home")
    )
    assert "SKU: SOF-44" in text and "removable covers" in text
    assert "flat packed" not in text


def test_a_long_essay_keeps_its_text_beside_data_that_only_names_its_title() -> None:
    essay = "".join(f"<p>{BODY} {INTRO} Paragraph {n} goes on with the argument.</p>" for n in range(8))
    headline = {"@context": "https://schema.org", "@type": "NewsArticle",
                "headline": "What is once sprung cannot be unsprung", "author": {"@type": "Person", "name": "D. D."}}  # fmt: skip
    blurbs = [
        f"What is once sprung cannot be unsprung: thousands of subscribers read note {n}" for n in range(60)
    ]
    state = {
        "props": {
            "pageProps": {"post": {"title": "What is once sprung cannot be unsprung"}, "blurbs": blurbs}
        }
    }
    data = f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(state)}</script>'
    html = page(
        body=f"<div id='__next'><article>{essay}</article></div>{data}",
        head=APP + json_ld(headline),
        title="What is once sprung cannot be unsprung",
    )
    text = read(html)
    assert "maker space with 3D printers" in text
    assert "thousands of subscribers" not in text


def test_a_headings_own_style_element_is_not_part_of_the_title() -> None:
    styled = (
        '<h1 class="css-181u9pf"><style data-emotion="css 1a8e5pi">.css-1a8e5pi{cursor:pointer;font-weight:700;}'
        "</style>Linen armchair Sofia</h1>"
    )
    html = page(body=f"<main>{styled}{STORY}</main>", head="", title="Home | Example")
    assert read_html_page(html, URL).title == "Linen armchair Sofia"


def test_a_page_of_cookie_banner_login_and_footer_is_refused_not_returned() -> None:
    with pytest.raises(NeedsJavaScript):
        read_html_page(page(body=LOGIN + COOKIES + EMPTY_APP + FOOTER), URL)


def test_chrome_the_extractor_keeps_is_refused_too() -> None:
    chrome = (
        "<div><p>Don't miss what's happening. People on Example are the first to know.</p><p>Log in</p>"
        "<p>Sign up</p><p>Did someone say … cookies? Example and its partners use cookies to provide you "
        "with a better, safer and faster service and to support our business. Some cookies are necessary "
        "to use our services.</p><p>Accept all cookies</p><p>Refuse non-essential cookies</p></div>"
    )
    with pytest.raises(NeedsJavaScript):
        read_html_page(page(body=chrome + EMPTY_APP), URL)


def test_a_shell_refusal_carries_the_pages_title_and_description() -> None:
    head = APP + '<meta property="og:description" content="Zesty, moist and ready in an hour.">'
    with pytest.raises(NeedsJavaScript) as caught:
        read_html_page(page(head=head), URL)
    assert (caught.value.title, caught.value.description) == (
        "Lemon drizzle cake | Example Food",
        "Zesty, moist and ready in an hour.",
    )


def test_a_shell_refusal_message_quotes_nothing_the_page_wrote() -> None:
    head = APP + '<meta property="og:description" content="Zesty, moist and ready in an hour.">'
    with pytest.raises(NeedsJavaScript) as caught:
        read_html_page(page(head=head), URL)
    assert "Zesty" not in caught.value.message and "Lemon drizzle" not in caught.value.message


def test_the_shells_title_and_description_are_shown_between_the_markers() -> None:
    error = NeedsJavaScript(
        "https://x.example/ is filled in by JavaScript.", "https://x.example/", "Cake", "Zesty."
    )
    answer = render_error(error, nonce="0123456789abcdef")
    fenced = answer.split("<<<BEGIN UNTRUSTED PAGE TEXT 0123456789abcdef>>>\n")[1]
    assert fenced == "Title: Cake\nDescription: Zesty.\n<<<END UNTRUSTED PAGE TEXT 0123456789abcdef>>>"


def test_a_json_error_object_carries_the_shells_description_in_its_own_field() -> None:
    error = NeedsJavaScript(
        "https://x.example/ is filled in by JavaScript.", "https://x.example/", None, "Zesty."
    )
    assert error_object(error)["error"]["page_description"] == "Zesty."


def test_a_scriptless_placeholder_answers_with_its_description() -> None:
    head = (
        '<meta name="description" content="Zesty, moist and ready in an hour: the cake everyone asks for.">'
    )
    result = read_html_page(page(head=head, body=""), URL)
    assert result.text == "Zesty, moist and ready in an hour: the cake everyone asks for."
    assert any("description" in note for note in result.notes)


SHOP_ITEM = "https://www.shop.example/item/1005010537563439.html"
SHOP_HEAD = (
    '<meta property="og:title" content="TarsWorks T-1 80 Mechanical Keyboard Wireless Tri-mode RGB - Shop.example">'
    '<meta property="og:site_name" content="shop.example">'
    '<meta property="og:type" content="product">'
)


def test_a_scriptless_item_whose_description_is_the_sites_slogan_is_refused() -> None:
    # a shop's item page saved without its scripts: all it says of itself is the site's slogan
    head = (
        SHOP_HEAD + '<meta property="og:description" content="Smarter Shopping, Better Living! Shop.example">'
    )
    body = '<header><h1>Shop.example</h1><form><input placeholder="I\'m shopping for..."></form></header>'
    with pytest.raises(NeedsJavaScript) as caught:
        read_html_page(page(head=head, body=body, title=""), SHOP_ITEM)
    assert caught.value.description is None


def test_a_scriptless_placeholder_naming_its_site_and_its_subject_answers_with_its_description() -> None:
    head = SHOP_HEAD + (
        '<meta property="og:description" content="A wireless mechanical keyboard in aluminium, '
        'with hot-swap switches. Shop.example">'
    )
    result = read_html_page(page(head=head, body="<h1>Shop.example</h1>", title=""), SHOP_ITEM)
    assert result.text.startswith("A wireless mechanical keyboard")


def test_a_scriptless_page_of_only_chrome_has_no_readable_text() -> None:
    with pytest.raises(NoReadableText):
        read_html_page(page(head="", body=LOGIN + COOKIES + FOOTER), URL)


# --- bounds ---------------------------------------------------------------------------------


def test_state_past_the_byte_cap_is_skipped_and_the_answer_says_so() -> None:
    blob = json.dumps({"props": {"pageProps": {"items": ["x" * 1000] * (limits.MAX_EMBEDDED_BYTES // 1000)}}})
    script = f'<script id="__NEXT_DATA__" type="application/json">{blob}</script>'
    result = read_html_page(page(body=f"<article>{STORY}</article>{script}"), URL)
    assert result.text.startswith("My grandmother baked")
    assert any("__NEXT_DATA__" in note and "not read" in note for note in result.notes)


def test_deeply_nested_state_stops_at_the_depth_cap() -> None:
    depth = 100_000
    script = (
        "<script>window.__INITIAL_STATE__ = "
        + '{"a":[' * 50
        + "[" * depth
        + "]" * depth
        + "]}" * 50
        + ";</script>"
    )
    with pytest.raises(NeedsJavaScript):
        read_html_page(page(body=EMPTY_APP + script), URL)


def test_a_million_tiny_strings_stop_at_the_node_cap() -> None:
    root = lxml.html.document_fromstring(
        page(
            body='<script id="__NEXT_DATA__" type="application/json">'
            + json.dumps({"props": {"pageProps": {"t": ["ab"] * 1_000_000}}})
            + "</script>"
        )
    )
    embedded = read_embedded(root, Budget(bytes=10_000_000, nodes=50_000))
    assert embedded.cut == ("the rest of the data",)


def test_declared_only_reads_the_json_ld_and_leaves_the_framework_state_undecoded() -> None:
    state = {"props": {"pageProps": {"story": BODY}}}
    root = lxml.html.document_fromstring(
        page(
            body=json_ld(RECIPE)
            + f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(state)}</script>'
        )
    )
    embedded = read_embedded(root, declared_only=True)
    assert [block.source for block in embedded.blocks] == ["JSON-LD Recipe"]


def test_a_shell_is_read_from_what_it_shows_a_browser_without_scripts() -> None:
    story = "".join(f"<p>{BODY} Paragraph {n}.</p>" for n in range(4))
    html = page(EMPTY_APP + f"<noscript><article><h1>Three new libraries</h1>{story}</article></noscript>")
    found = read_html_page(html, URL)
    assert found.text.startswith("# Three new libraries\n\nThe city opened three libraries")
    assert "Paragraph 3." in found.text
    assert "what it shows a browser without scripts" in found.notes[-1]


def test_a_shell_whose_noscript_only_asks_for_javascript_is_still_refused() -> None:
    html = page("<noscript>You need to enable JavaScript to run this app.</noscript>" + EMPTY_APP)
    with pytest.raises(NeedsJavaScript):
        read(html)


# words that hold one another, so a line may begin and end inside the text's words
_SEEN_WORDS = st.lists(st.sampled_from(["a", "b", "ab", "ba", "aab", "bab", "c"]), max_size=40).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(_SEEN_WORDS, _SEEN_WORDS, st.integers(0, 3), st.integers(0, 3))
def test_an_indexed_seen_text_holds_a_line_exactly_where_the_text_does(
    text: str, line: str, cut_front: int, cut_back: int
) -> None:
    # judge's comparisons of the data with the visible text, indexed at once and place by place
    line = " ".join(line[cut_front : len(line) - cut_back].split())
    seen = SeenText(text, scan_chars=0, chars_per_place=0)
    assert (line in seen) == (line in text)
    assert all(
        (text[i:j].strip() in seen) for i in range(len(text)) for j in range(i, min(len(text), i + 12))
    )
