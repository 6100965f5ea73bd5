"""The pages of ``scripts/bench jsshell``: real saved pages someone else captured, each with the
key facts a reader of it must get, written by hand.

Every page is a test fixture of a public MIT-licensed repository (named with the commit):
recipe-scrapers' saved recipe pages, metascraper's saved social, video and article pages,
youtube-transcript-api's saved consent page. The pages themselves are not committed here:
the bench reads them from ``shared/bench/jsshell/`` (where the articles of the extraction part
live), or from ``var/bench-cache/jsshell/``; ``python -m bench.jsshell_corpus DEST MIRRORS``
lays them out from snapshots of the three repositories, with a README naming each source.

Four classes, as issue 17 asks:

- ``embedded``: the page's content is only in data it embeds (JSON-LD, framework state);
  its visible HTML is chrome or a teaser. Facts: what a reader came for (a recipe's
  ingredients and a step, a video's title and channel).
- ``description``: all the HTML says of the page is its meta description. Facts: phrases of it.
- ``shell``: nothing of the page's subject is in the HTML (a consent wall, an app that
  fetches everything). No facts: the page must be refused, never answered with chrome.
- ``control``: server-rendered pages, many built with Next.js or Nuxt, whose text must read
  as it does without the embedded data. Facts: phrases of the rendered text.

Facts match case-insensitively, punctuation and spacing ignored.
"""

from __future__ import annotations

import gzip
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

RECIPES = ("hhursev/recipe-scrapers", "d08ddd0240ee0ff73dd9d705e43077a821944716", "MIT")
META = ("microlinkhq/metascraper", "20423f52ef9b4a07d3b25e56e34d2756b3291250", "MIT")
TRANSCRIPTS = ("jdepoix/youtube-transcript-api", "85c859450c014d860297ab9fd4f88145c47ff2e2", "MIT")


@dataclass(frozen=True)
class JsPage:
    name: str
    kind: str  # embedded | description | shell | control
    data: str  # the kind of data the page carries its content in (or "HTML" for controls)
    source: tuple[str, str, str]  # repository, commit, licence
    path: str
    facts: tuple[str, ...] = ()

    @property
    def file(self) -> str:
        """Where the page lies in the corpus folder, gzip-compressed."""
        return f"{self.source[0].replace('/', '+')}/{self.path}.gz"


def _recipe(name: str, kind: str, data: str, path: str, *facts: str) -> JsPage:
    return JsPage(name, kind, data, RECIPES, f"tests/test_data/{path}", facts)


def _meta(name: str, kind: str, data: str, path: str, *facts: str) -> JsPage:
    return JsPage(name, kind, data, META, f"packages/{path}", facts)


PAGES: tuple[JsPage, ...] = (
    # --- content only in embedded data ---------------------------------------------------
    _recipe("nytimes cooking", "embedded", "JSON-LD", "cooking.nytimes.com/nytimes.testhtml",
            "Cacio e Pepe Crackers", "unbleached all-purpose flour", "white Cheddar", "Asiago cheese",
            "pulse several times"),
    _recipe("bon appétit", "embedded", "JSON-LD", "bonappetit.com/bonappetit.testhtml",
            "Pork Chops with Celery Salad", "dried unsweetened cranberries", "unseasoned rice vinegar",
            "bone-in pork rib chops", "Season pork generously with salt"),
    _recipe("deliciously ella", "embedded", "JSON-LD", "deliciouslyella.com/deliciouslyella_1.testhtml",
            "Creamy Kale & Sweet Potato Salad", "sweet potatoes", "canned chickpeas", "ground cumin",
            "make the dressing"),
    _recipe("eat this much", "embedded", "JSON-LD", "eatthismuch.com/eatthismuch.testhtml",
            "Easy Garlic Chicken", "Chicken breast", "Garlic powder", "sprinkle with garlic powder"),
    _recipe("kitchen stories", "embedded", "JSON-LD", "kitchenstories.com/kitchenstories.testhtml",
            "strawberry jam with matcha", "strawberries", "jam sugar", "matcha powder",
            "mix the matcha powder with half of the water"),
    _recipe("picnic", "embedded", "flight data", "picnic.app/picnic_3.testhtml",
            "Rode curry met kabeljauw en boontjes", "rode paprika", "sperziebonen", "kabeljauwfilet",
            "kokosmelk", "Snij 1 rode paprika in kleine reepjes"),
    _recipe("weight watchers", "embedded", "JSON-LD", "weightwatchers.com/weightwatcherspublic_1.testhtml",
            "Kartoffelgulasch", "Kartoffeln", "Zwiebel", "Paprika", "Kartoffelwürfel und Zwiebelstreifen"),
    _recipe("yemek", "embedded", "JSON-LD", "yemek.com/yemek.testhtml",
            "Köri Soslu Tavuklu Patates Topları", "sıvı yağ", "tavuk", "soğan", "Tavukları pişireceğiniz tavayı"),
    _recipe("picnic 2", "embedded", "flight data", "picnic.app/picnic_1.testhtml",
            "Udon Nudeln-Bowl mit Pak Choi", "Pak Choi", "Mungobohnenkeimlinge", "Tahin", "veganes Hack"),
    _recipe("cookwell", "embedded", "JSON-LD", "cookwell.com/cookwell_1.testhtml",
            "Crispy oven fries", "Russet potatoes", "Vinegar", "Preheat the oven to 450"),
    _recipe("akis petretzikis", "embedded", "JSON-LD", "akispetretzikis.com/akispetretzikis.testhtml",
            "Lemon chicken with artichokes", "artichokes", "chicken breast fillet", "olive oil",
            "Cut the chicken into 2-3 cm pieces"),
    _recipe("jow", "embedded", "JSON-LD", "jow.fr/jow.testhtml",
            "Tartine à la provençale", "Pain de campagne", "Fromage frais", "Ratatouille",
            "réchauffez la ratatouille"),
    _recipe("delish kitchen", "embedded", "JSON-LD", "delishkitchen.tv/delishkitchen_2.testhtml",
            "ごぼうとベーコンのクリームスープ", "ベーコン", "ごぼう", "玉ねぎ", "ベーコンは1cm幅に切る"),
    _recipe("hellofresh", "embedded", "JSON-LD", "hellofresh.com/hellofresh_adhoc.testhtml",
            "Chakchouka au chèvre frais", "Oignon", "Gousse d'ail", "Piment",
            "Faites chauffer l’huile d’olive dans un wok"),
    _meta("youtube video", "embedded", "ytInitialPlayerResponse", "metascraper-youtube/test/fixtures/youtube-video.html",
          "Star Wars 8 THE LAST JEDI Official TRAILER", "ONE Media", "Star Wars 8 El Ultimo JEDI Trailer Espanol"),
    _meta("tidal track", "embedded", "JSON-LD", "metascraper-audio/test/fixtures/providers/tidal.com.html",
          "DESPECHÁ", "ROSALÍA", "2022-07-28"),
    _meta("imdb title", "embedded", "JSON-LD", "metascraper-imdb/test/fixtures/title.html",
          "Ferris Bueller's Day Off", "John Hughes", "A brash, cocky high school senior", "Comedy"),
    _meta("tiktok video", "embedded", "JSON state", "metascraper-tiktok/test/fixtures/video.html",
          "Mystery King", "BRUJILLO JUAN", "Fran Molina", "illojuan"),
    _meta("soundcloud track", "embedded", "window.NAME", "metascraper-soundcloud/test/fixtures/song.html",
          "Swag Bandicoot", "Beauty Brain", "MUSIC SUPPORTED BY", "Diplo"),
    # --- only a meta description ---------------------------------------------------------
    _meta("x post, crawler page", "description", "meta", "metascraper-x/test/fixtures/post-og.html",
          "Schiff blasted for not focusing on California homeless", "Impeachment Hoax"),
    _meta("x image post, crawler page", "description", "meta", "metascraper-x/test/fixtures/post-image-og.html",
          "Cultura de empresa", "codemotion2017"),
    _meta("x video post, crawler page", "description", "meta", "metascraper-x/test/fixtures/post-video-og.html",
          "Is it bad to blow into game cartridges"),
    _meta("x profile, crawler page", "description", "meta", "metascraper-x/test/fixtures/profile-og.html",
          "founder of"),
    _meta("reddit post", "description", "meta", "metascraper-reddit/test/fixtures/post.html",
          "Lotus Elise post with square wheels", "Volk GT-P"),
    _meta("instagram photo", "description", "meta", "metascraper-instagram/test/fixtures/post-with-photo.html",
          "Una de mis nuevas sudaderas top", "298K likes"),
    _meta("instagram clip", "description", "meta", "metascraper-instagram/test/fixtures/post-with-clip.html",
          "152K likes", "jaimelorentelo"),
    _meta("telegram post", "description", "meta", "metascraper-telegram/test/fixtures/post-link-image.html",
          "Tesla Model 3 Long Range AWD 2019", "51,500"),
    _meta("telegram post 2", "description", "meta", "metascraper-telegram/test/fixtures/post-right-preview.html",
          "Model S P90D 2016", "54,700"),
    # --- empty shells --------------------------------------------------------------------
    _meta("youtube comments", "shell", "none", "metascraper-youtube/test/fixtures/youtube-video-comments.html"),
    _meta("instagram story", "shell", "none", "metascraper-instagram/test/fixtures/story.html"),
    _meta("instagram profile", "shell", "none", "metascraper-instagram/test/fixtures/profile.html"),
    _meta("instagram igtv", "shell", "none", "metascraper-instagram/test/fixtures/post-with-igtv.html"),
    _meta("telegram channel", "shell", "none", "metascraper-telegram/test/fixtures/no-iframe.html"),
    _meta("twitch clip", "shell", "none", "metascraper-video/test/fixtures/providers/clip.twitch.tv.html"),
    JsPage("youtube consent wall", "shell", "none", TRANSCRIPTS,
           "youtube_transcript_api/test/assets/youtube_consent_page.html.static"),
    # --- server-rendered controls ----------------------------------------------------------
    _recipe("matprat (Next.js)", "control", "HTML", "matprat.no/matprat_2.testhtml",
            "Mangosalat", "modne mango", "rødløk", "Bland sammen mangobiter"),
    _recipe("mob (Next.js)", "control", "HTML", "mob.co.uk/mob_1.testhtml",
            "Chilli Cheese Paratha", "Plain Flour", "prepare the garlic chilli oil"),
    _recipe("the kitchn (Next.js)", "control", "HTML", "thekitchn.com/thekitchn_1.testhtml",
            "Beef and Cheese Manicotti", "lean ground beef", "finely chopped", "Cook the beef for the filling"),
    _recipe("bbc good food (Next.js)", "control", "HTML", "bbcgoodfood.com/bbcgoodfood_2.testhtml",
            "Monster cupcakes", "self-raising flour", "cocoa powder", "light muscovado sugar"),
    _recipe("delish (Next.js)", "control", "HTML", "delish.com/delish_1.testhtml",
            "Pumpkin Cheesecake Roll", "all-purpose flour", "kosher salt", "jelly roll pan"),
    _recipe("lecker (Next.js)", "control", "HTML", "lecker.de/lecker_1.testhtml",
            "Gemüsepfanne mit Hähnchen", "Zuckerschoten", "Lauchzwiebeln", "reichlich kochendem Salzwasser"),
    _recipe("aldi süd (Nuxt)", "control", "HTML", "aldi-sued.de/aldisued_vue_nuxt.testhtml",
            "Nizza-Salat", "Kopfsalat", "grüne Bohnen", "Die Tomaten waschen und achteln"),
    _recipe("america's test kitchen (Next.js)", "control", "HTML", "americastestkitchen.com/americastestkitchen_2.testhtml",
            "Prosciutto, Apple, and Goat Cheese Salad", "cider vinegar", "fig preserves", "Toss mesclun"),
    _recipe("good housekeeping (Next.js)", "control", "HTML", "goodhousekeeping.com/goodhousekeeping_1.testhtml",
            "Spiced pumpkin soup", "pumpkin flesh", "celery sticks", "simmer for 15 minutes"),
    _recipe("milk street (Next.js, flight)", "control", "HTML", "177milkstreet.com/onesevensevenmilkstreet_1.testhtml",
            "Charred Red Sauce Spaghetti", "tomato puree", "boiling water", "red pepper flakes",
            "heavy-bottomed 12-inch nonstick skillet"),
    _recipe("chefkoch (Nuxt)", "control", "HTML", "chefkoch.de/chefkoch.testhtml",
            "Saftiger Hackbraten", "Gewürzgurke", "Zwiebeln glasig anschwitzen"),
    _meta("nature article", "control", "HTML", "metascraper-citation/test/fixtures/www.nature.com-articles-s41586-021-03819-2.html",
          "Highly accurate protein structure prediction with AlphaFold", "Evoformer"),
    _meta("plos article", "control", "HTML", "metascraper-citation/test/fixtures/journals.plos.org-plosone-article-id-10.1371-journal.pone.0000001.html",
          "Systemic inflammation is a leading cause of hospital death", "cold-seeking behavior"),
    _meta("arxiv abstract", "control", "HTML", "metascraper-citation/test/fixtures/arxiv.org-abs-1706.03762.html",
          "Attention Is All You Need", "dispensing with recurrence and convolutions entirely"),
    _meta("frontiers article (Nuxt)", "control", "HTML", "metascraper-citation/test/fixtures/www.frontiersin.org-journals-psychology-articles-10.3389-fpsyg.2014.00781-full.html",
          "No scientific conclusion follows automatically", "statistically non-significant result"),
    _meta("dribbble shot", "control", "HTML", "metascraper-dribbble/test/fixtures/post.html",
          "Flup is an admin platform for an online furniture store"),
    _meta("x post", "control", "HTML", "metascraper-x/test/fixtures/post.html",
          "Schiff blasted for not focusing on California homeless"),
)  # fmt: skip

KINDS = ("embedded", "description", "shell", "control")


def lay_out(destination: Path, mirrors: Path) -> None:
    """Copy every page out of git snapshots of its repository (``MIRRORS/owner+name/repo``)
    into ``destination``, with a README naming each page's source and licence."""
    for page in PAGES:
        repo, commit, _ = page.source
        git_dir = mirrors / repo.replace("/", "+") / "repo"
        data = subprocess.run(
            ["git", "-C", str(git_dir), "show", f"{commit}:{page.path}"], capture_output=True, check=True
        ).stdout
        target = destination / page.file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(gzip.compress(data, mtime=0))
    lines = [
        "# Saved pages of scripts/bench jsshell",
        "",
        "Test fixtures of public repositories, each under `owner+name/<path in the repository>.gz`,",
        "as the commit below holds them. Every repository is MIT-licensed; the pages are captures",
        "of the sites named in their paths, kept for testing as those projects keep them.",
        "",
        "| page | class | repository | commit | path | licence |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {p.name} | {p.kind} | {p.source[0]} | {p.source[1][:12]} | {p.path} | {p.source[2]} |"
        for p in PAGES
    ]
    (destination / "README.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    lay_out(Path(sys.argv[1]), Path(sys.argv[2]))
