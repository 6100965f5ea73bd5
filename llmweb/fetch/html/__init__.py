"""Reading HTML: a page's markup → its main text as light markdown, title and date. Pure.

- :mod:`.extract` — the reading itself: manuals read whole, marked threads post by post, other
  pages through trafilatura.
- :mod:`.workload` — what a page will cost to read, counted before the parse and after it.
- :mod:`.manual` — whether a page is a manual, its main region, and that region read whole.
- :mod:`.posts` — a thread's posts as its schema.org microdata or JSON-LD gives them, each with its
  author line.
- :mod:`.post_run` — a thread's other posts when trafilatura read one post of a run of like
  containers.
- :mod:`.author_lines` — the author line above each post of an unmarked thread trafilatura read.
- :mod:`.cards` — the statistics fields of the poster's card beside each post of a forum thread, dropped.
- :mod:`.threads` — the replies of forum threads, Q&A and comment pages, from trafilatura's comments.
- :mod:`.loose` — a block's loose text between ``<br>`` tags made paragraphs (an old forum's messages).
- :mod:`.forms` — forms that ask for nothing (a comment's message in its edit form), read as text.
- :mod:`.sections` — the bodies of sections a reading keeps the heading of alone, put back.
- :mod:`.continuation` — parts of an article trafilatura's one container leaves out.
- :mod:`.panels` — an accordion's collapsed panels shown, as a reader who opens them sees them.
- :mod:`.faq` — an article's FAQ answers its JSON-LD declares, put back where the reading lost them.
- :mod:`.whole` — a page read whole, its chrome left out: a page trafilatura empties, a landing page.
- :mod:`.hidden` — the menus and forms a page hides from its reader, left out of a page read whole,
  and the words it writes for screen readers only.
- :mod:`.streamed` — a streamed page's parts moved from the end of its body to their placeholders.
- :mod:`.repeats` — passages a reading says again word for word, read once.
- :mod:`.promotions` — blocks that send the reader elsewhere, dropped.
- :mod:`.notices` — the small print (disclosures, disclaimers) a page's class names mark, dropped.
- :mod:`.bios` — the author's biography below an article, dropped.
- :mod:`.trailing` — the blocks after an article's body, beside its paragraphs' container, dropped.
- :mod:`.listing` — a listing's grid of cards, one line per item.
- :mod:`.carousels` — carousels of other products (lists of priced links) in a main region.
- :mod:`.reviews` — the run of customer reviews under a product, dropped.
- :mod:`.markdown` — trafilatura's tree → light markdown, code blocks verbatim.
- :mod:`.metadata` — the page's title and the publication date it states.
- :mod:`.sizes` — how much text an element holds, as the layers weigh it.
- :mod:`.layers` — which layers above trafilatura run, as data (the bench switches them).

Pages that scripts fill in are judged by :mod:`llmweb.fetch.javascript`.
"""
