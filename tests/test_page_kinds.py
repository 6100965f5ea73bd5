"""Every kind of page web_fetch is sent to: threads, products, listings, services, and the
verdicts above trafilatura on them (issue 22). Pure.

Each page is small but shaped like its kind on the web (the bench part wcxb scores the real
ones, WCXB's dev split, per page type).
"""

from __future__ import annotations

import json
import re

import pytest

from llmweb.errors import NeedsJavaScript
from llmweb.fetch.html import threads
from llmweb.fetch.html.cards import drop_card_fields
from llmweb.fetch.html.carousels import priced_carousels
from llmweb.fetch.html.extract import _justext_reading, _parse, read_html_page
from llmweb.fetch.html.threads import declares_thread


def page(body: str, head: str = "", title: str = "Example") -> str:
    return f"<!DOCTYPE html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def json_ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


NAV = (
    '<nav><ul><li><a href="/">Home</a></li><li><a href="/shop">Shop</a></li>'
    '<li><a href="/about">About us</a></li><li><a href="/contact">Contact</a></li></ul></nav>'
)
FOOTER = "<footer><p>© 2025 Example Ltd. All rights reserved. Terms of use · Privacy policy</p></footer>"

# --- forum threads and Q&A ---------------------------------------------------------------

POSTS = [
    ("b.scherer", "Sun Dec 17, 2023 11:23 am",
     "I just got my new board and I wanted to disable all of its status lights. I followed some tutorials "
     "written for the previous model, but they are not working. Do you maybe know why they are not working?"),
    ("jahboater", "Wed Dec 27, 2023 10:00 am",
     "This works on the new model to turn off the bright power and activity lights: set the trigger to "
     "default-on and the active-low flag to off for both of them. The old ethernet setting fails, though."),
    ("sgbeal", "Wed Dec 27, 2023 11:04 am",
     "For what it is worth, I lay a bandana over my board and the USB drives for that reason and it works "
     "quite well. I was not aware that the lights can be turned off until seeing this thread."),
    ("bensimmo", "Wed Dec 27, 2023 11:14 am",
     "Look in the firmware folder now: the configuration file moved there with the new release. I cannot "
     "see anything specific to the new model for the ethernet lights in the overlays readme either."),
]  # fmt: skip


def forum_post(number: int, author: str, when: str, text: str) -> str:
    return (
        f'<div id="p{number}" class="post"><div class="inner"><dl class="postprofile"><dt>'
        f'<a href="/u/{author}" class="username">{author}</a></dt><dd>Posts: {12 + number}</dd></dl>'
        f'<div class="postbody"><p class="author">by <strong>{author}</strong> » {when}</p>'
        f'<div class="content">{text}</div></div></div></div>'
    )


def test_a_forum_thread_gives_every_post_in_order() -> None:
    posts = "".join(forum_post(i, *p) for i, p in enumerate(POSTS))
    body = f'{NAV}<div id="page-body"><h2>Turning off all status lights</h2>{posts}</div>{FOOTER}'
    text = read_html_page(
        page(body, title="Turning off all status lights - Forums"), "https://f.example/t/1"
    ).text
    where = [text.index(post[:60]) for _, _, post in POSTS]
    assert where == sorted(where)


def test_a_forum_threads_poster_cards_leave_their_counts_out() -> None:
    cards = "".join(
        forum_post(i, *p).replace("</dd></dl>", f"</dd><dd>Joined: Mon Mar {i + 2}, 2015 6:38 pm</dd></dl>")
        for i, p in enumerate(POSTS)
    )
    body = f'{NAV}<div id="page-body"><h2>Turning off all status lights</h2>{cards}</div>{FOOTER}'
    text = read_html_page(page(body, title="Turning off all status lights"), "https://f.example/t/1").text
    assert "Posts:" not in text and "Joined:" not in text
    where = [text.index(post[:60]) for _, _, post in POSTS]
    assert where == sorted(where)


def test_a_field_only_some_posters_fill_in_leaves_with_their_cards_counts() -> None:
    # "Location:" on one card of four is no label of most cards, but the cards are a thread's
    extra = {1: "<dd>Location: Leeds, United Kingdom</dd>", 3: "<dd>Primary OS: MS Windows 10</dd>"}
    cards = "".join(
        forum_post(i, *p).replace(
            "</dd></dl>", f"</dd><dd>Joined: Mon Mar {i + 2}, 2015</dd>{extra.get(i, '')}</dl>"
        )
        for i, p in enumerate(POSTS)
    )
    body = f'{NAV}<div id="page-body"><h2>Turning off all status lights</h2>{cards}</div>{FOOTER}'
    text = read_html_page(page(body, title="Turning off all status lights"), "https://f.example/t/1").text
    assert "Location:" not in text and "Primary OS:" not in text and "Joined:" not in text
    where = [text.index(post[:60]) for _, _, post in POSTS]
    assert where == sorted(where)


def test_a_poster_cards_terms_go_with_their_values_and_the_names_that_differ_stay() -> None:
    card = (
        '<div class="post"><div class="userinfo"><a class="username" href="/u/{0}">{0}</a><dl class="userstats">'
        "<dt>Join Date</dt><dd>Aug 20{1:02}</dd><dt>Posts</dt><dd>8,1{1:02}</dd></dl></div><p>{2}</p></div>"
    )
    root = _parse(page("".join(card.format(author, i, post) for i, (author, _, post) in enumerate(POSTS))))
    assert root is not None and drop_card_fields(root) == 4 * 4
    text = root.text_content()
    assert "Join Date" not in text and "8,1" not in text and all(author in text for author, _, _ in POSTS)


def board_post(number: int, author: str, when: str, text: str) -> str:
    """A post as a board without schema.org markup writes it (Simple Machines' shape): the
    poster's box beside the message, the message in a class trafilatura looks for first."""
    return (
        f'<div class="windowbg" id="msg{number}"><div class="post_wrapper"><div class="poster">'
        f'<h4><a href="/profile/{author}">{author}</a></h4><ul class="user_info"><li class="postgroup">'
        f'Member</li><li class="postcount">Posts: {40 + number}</li></ul></div><div class="postarea">'
        f'<div class="keyinfo"><a href="/msg/{number}" class="smalltext">{when}</a></div>'
        f'<div class="post"><div class="inner" id="msg_{number}">{text}</div></div></div></div></div>'
        '<hr class="post_separator">'
    )


def test_a_thread_of_unmarked_posts_gives_every_reply_not_only_the_first_post() -> None:
    # an opening post of two paragraphs, as trafilatura wants of the container it takes ("post")
    opening = (
        *POSTS[0][:2],
        f"{POSTS[0][2]}<br><br>I also tried the settings from the release notes, rebooted twice and checked "
        "the cables, but the green light still blinks all night long in the bedroom. Any idea what changed?",
    )
    thread = [opening, *POSTS[1:]]
    posts = "".join(board_post(i, *p) for i, p in enumerate(thread))
    body = (
        f'{NAV}<div id="forum"><h2>Turning off all status lights</h2><form id="quickModForm">{posts}'
        f"</form><p>Started by b.scherer, Sun Dec 17, 2023</p></div>{FOOTER}"
    )
    text = read_html_page(page(body, title="Turning off all status lights"), "https://board.example/t/1").text
    where = [text.find(post[-40:]) for _, _, post in thread]
    assert -1 not in where and where == sorted(where)


def test_a_thread_whose_opening_post_outweighs_its_short_replies_gives_every_reply() -> None:
    # the replies together are shorter than the first post trafilatura read: each one signed by
    # its poster and dated says the run is a thread's posts, not a page's like sections; each is
    # read under its author line, as a marked post is
    guide = " ".join(f"<p>Step {n}: {POSTS[0][2]}</p>" for n in range(1, 3))
    replies = [
        ("jahboater", "Wed Dec 27, 2023 10:00 am", "Moving this to the guides section, thanks for writing it."),
        ("sgbeal", "Wed Dec 27, 2023 11:04 am", "The second step no longer works on the new firmware, sadly."),
        ("b.scherer", "Wed Dec 27, 2023 11:14 am", "Thanks for spotting that, I fixed it in the guide today."),
    ]  # fmt: skip
    thread = [(*POSTS[0][:2], guide), *replies]
    posts = "".join(board_post(i, *p) for i, p in enumerate(thread))
    body = (
        f'{NAV}<div id="forum"><h2>Turning off all status lights</h2><form id="quickModForm">{posts}'
        f"</form><p>Started by b.scherer, Sun Dec 17, 2023</p></div>{FOOTER}"
    )
    read = read_html_page(page(body, title="Turning off all status lights"), "https://board.example/t/1")
    where = [read.text.find(f"**{author}** · {when}\n\n{reply}") for author, when, reply in replies]
    assert "post_run" in read.fired and -1 not in where and where == sorted(where)
    assert "Posts: 41" not in read.text  # the first reply under its author line, without its poster's box


def avatar_post(number: int, author: str, when: str, text: str) -> str:
    """A post as phpBB writes it when no markup declares the thread: the poster's card with an
    avatar and a name linking to one profile, the date, the message quoting a setting as code,
    and the buttons under it."""
    profile = f"./memberlist.php?mode=viewprofile&amp;u={number}"
    return (
        f'<div id="p{number}" class="post has-profile bg{number % 2 + 1}"><div class="inner">'
        f'<dl class="postprofile"><dt><a href="{profile}" class="avatar"><img src="/avatar/{number}.jpg" '
        f'width="90" height="62" alt="User avatar"></a> <a href="{profile}" class="username">{author}</a></dt>'
        f"<dd><strong>Posts:</strong> {9 + number}</dd><dd><strong>Joined:</strong> Wed Feb 04, 2015</dd></dl>"
        f'<div class="postbody"><h3><a href="#p{number}">Re: Turning off all status lights</a></h3>'
        f'<p class="author"><a href="./viewtopic.php?p={number}">{when}</a></p><div class="content">{text}'
        f"<pre><code>dtparam=act_led_trigger=none</code></pre></div></div>"
        f'<ul class="post-buttons"><li><a href="./posting.php?mode=quote&amp;p={number}">Quote</a></li></ul>'
        f'<div class="back2top"><a href="#top">Top</a></div></div></div>'
    )


def test_a_thread_whose_posts_quote_code_is_not_read_as_a_manual() -> None:
    # three code blocks make a page look like documentation (.manual); posts signed by their
    # posters' avatars and names, each dated, make it a discussion, read as one
    posts = "".join(avatar_post(i, *p) for i, p in enumerate(POSTS))
    body = f'{NAV}<div id="page-body"><h2>Turning off all status lights</h2>{posts}</div>{FOOTER}'
    read = read_html_page(page(body, title="Turning off all status lights"), "https://f.example/t/1")
    assert "manual" not in read.fired
    lines = read.text.split("\n")
    assert not any("Quote" in line for line in lines)  # the buttons under each post
    where = [read.text.find(post[:60]) for _, _, post in POSTS]
    assert -1 not in where and where == sorted(where)


def test_a_thread_whose_posts_quote_code_loses_its_posters_cards() -> None:
    # taken for documentation by its code, whose definition lists are its text; but its signed,
    # dated posts (.manual.discussion_posts) make it a thread, its lists posters' cards (.cards)
    posts = "".join(avatar_post(i, *p) for i, p in enumerate(POSTS))
    body = f'{NAV}<div id="page-body"><h2>Turning off all status lights</h2>{posts}</div>{FOOTER}'
    read = read_html_page(page(body, title="Turning off all status lights"), "https://f.example/t/1")
    assert "card_fields" in read.fired
    assert "Posts:" not in read.text and "Joined:" not in read.text
    assert all(author in read.text for author, _, _ in POSTS)  # the name is the card's, and stays


SIGNATURES = (
    "Currently playing: Tales of Hearts R, Dragon Quest Treasures",
    "Pi 4 8GB, Bookworm 64-bit, NVMe boot",
)


def test_a_thread_without_markup_loses_its_posters_signatures() -> None:
    # phpBB's shape: each poster's signature in its block under the message, not the post
    posts = "".join(
        forum_post(i, *p).replace(
            "</div></div></div></div>",
            f'</div><div id="sig{i}" class="signature">{SIGNATURES[i % 2]}</div></div></div></div>',
        )
        for i, p in enumerate(POSTS)
    )
    body = f'{NAV}<div id="page-body"><h2>Turning off all status lights</h2>{posts}</div>{FOOTER}'
    read = read_html_page(page(body, title="Turning off all status lights"), "https://f.example/t/1")
    assert "signatures" in read.fired
    assert not any(signature in read.text for signature in SIGNATURES)
    where = [read.text.find(post[:60]) for _, _, post in POSTS]
    assert -1 not in where and where == sorted(where)


def postbit(number: int, author: str, when: str, text: str) -> str:
    """A post as vBulletin writes it: a header with its date and number, the poster's card (a
    name linking to the profile, a title), the message; no schema.org markup."""
    return (
        f'<li class="postbit postcontainer" id="post_{number}"><div class="posthead"><span class="postdate">'
        f'<span class="date">{when}</span></span><span class="nodecontrols"><a href="#post{number}">'
        f'#{number + 1}</a></span></div><div class="postdetails"><div class="userinfo"><a class="username" '
        f'href="member.php?u={300 + number}">{author}</a><span class="usertitle">Junior Guru</span></div>'
        f'<div class="postbody"><div class="content"><blockquote class="postcontent">{text}</blockquote>'
        "</div></div></div></li>"
    )


def test_a_thread_without_markup_gives_each_post_under_its_author_line() -> None:
    # read by trafilatura, the posts kept their messages but not who wrote each and when
    posts = "".join(postbit(i, *p) for i, p in enumerate(POSTS))
    body = f'{NAV}<div id="postlist"><h2>Turning off all status lights</h2><ol id="posts">{posts}</ol></div>{FOOTER}'
    read = read_html_page(page(body, title="Turning off all status lights"), "https://f.example/t/1")
    assert "author_lines" in read.fired
    where = [read.text.find(f"**{author}** · {when}") for author, when, _ in POSTS]
    bodies = [read.text.find(post[:60]) for _, _, post in POSTS]
    assert -1 not in where and -1 not in bodies
    assert sorted(where + bodies) == [x for pair in zip(where, bodies, strict=True) for x in pair]


def test_a_guests_post_among_a_threads_gets_its_date_line() -> None:
    # a guest's name is no link: the post is still one of the thread's, under its date alone
    posts = "".join(postbit(i, *p) for i, p in enumerate(POSTS))
    guest = f'<a class="username" href="member.php?u=302">{POSTS[2][0]}</a>'
    posts = posts.replace(guest, f'<span class="username guest">{POSTS[2][0]}</span>')
    body = f'{NAV}<div id="postlist"><h2>Turning off all status lights</h2><ol id="posts">{posts}</ol></div>{FOOTER}'
    read = read_html_page(page(body, title="Turning off all status lights"), "https://f.example/t/1")
    lines = [line for line in read.text.split("\n") if "2023" in line]
    assert lines == [
        f"**{author}** · {when}" if i != 2 else when for i, (author, when, _) in enumerate(POSTS)
    ]


def test_a_link_every_posters_card_holds_is_not_taken_for_their_names() -> None:
    # FluxBB's shape for a guest: the name in bold, no link; each card links its poster's website
    posts = "".join(
        f'<div class="blockpost" id="p{i}"><h2><a href="viewtopic.php?pid={i}">{when}</a></h2><div class="postleft">'
        f'<dl><dt><strong>{author}</strong></dt><dd><a href="https://{author}.example">Website</a></dd></dl>'
        f'</div><div class="postright"><div class="postmsg"><p>{post}</p></div></div></div>'
        for i, (author, when, post) in enumerate(POSTS)
    )
    body = f'{NAV}<div id="brdmain"><h2>Turning off all status lights</h2>{posts}</div>{FOOTER}'
    read = read_html_page(page(body, title="Turning off all status lights"), "https://bbs.example/t/1")
    assert "author_lines" in read.fired and "Website" not in read.text  # each post under its date alone


def test_a_listing_of_entries_with_bylines_gains_no_author_lines() -> None:
    # a blog's index: each entry signed and dated, but by its day (no time of day, as a post's stamp)
    entries = "".join(
        f'<div class="entry"><h2><a href="/{i}">{post[:30]}</a></h2><p class="byline">by '
        f'<a href="/authors/{author}">{author}</a> on {when.split(" 2023")[0]}, 2023</p><p>{post}</p></div>'
        for i, (author, when, post) in enumerate(POSTS)
    )
    body = f"{NAV}<main><h1>Latest entries</h1>{entries}</main>{FOOTER}"
    read = read_html_page(page(body, title="Latest entries"), "https://blog.example/")
    assert "author_lines" not in read.fired


def signed_post(number: int, author: str, when: str, text: str) -> str:
    """A post as XenForo writes it: the poster's avatar and name linking to one profile, a
    <time>, the message."""
    profile = f"/members/{author}.{number}/"
    return (
        f'<article class="message message--post" id="post-{number}"><div class="message-inner">'
        f'<div class="message-cell--user"><a href="{profile}" class="avatar"><img src="/a/{number}.jpg" '
        f'alt="{author}"></a><h4><a href="{profile}" class="username">{author}</a></h4></div>'
        f'<div class="message-cell--main"><time datetime="2023-12-{17 + number}">{when}</time>'
        f'<div class="bbWrapper">{text}</div></div></div></article>'
    )


TRENDING = [
    ("Retailer denies memory replacement over DDR5 prices", "News", "12 minutes ago"),
    ("Does resetting remove a possible virus?", "Question", "15 minutes ago"),
    ("Two CPU power outputs for one graphics card", "Question", "40 minutes ago"),
    ("Which board for a small home server in 2024?", "Question", "1 hour ago"),
]  # fmt: skip


def test_a_thread_beside_a_box_of_other_threads_is_not_read_as_a_listing() -> None:
    # the box of trending threads is a grid of cards (.listing), but the page is the thread its
    # signed, dated posts (.manual.discussion_posts) hold: read as a list, the box was kept
    cards = "".join(
        f'<div class="trending-card"><a href="/threads/{i}/"><img src="/t/{i}.jpg" alt=""></a>'
        f'<div class="trending-body"><span class="label">{label}</span> · <a href="/threads/{i}/">{title}</a>'
        f'<div class="meta">Latest: reader{i} · {ago} · Graphics cards and monitors, answered by '
        f"the community</div></div></div>"
        for i, (title, label, ago) in enumerate(TRENDING)
    )
    posts = "".join(signed_post(i, *p) for i, p in enumerate(POSTS[:3]))
    head = '<script type="application/ld+json">{"@type": "DiscussionForumPosting", "headline": "Lights"}</script>'
    body = (
        f'{NAV}<div class="p-body"><div class="p-main"><h1>Turning off all status lights</h1>{posts}</div>'
        f'<div class="p-sidebar"><h3>Trending threads</h3><div class="trending">{cards}</div></div></div>{FOOTER}'
    )
    read = read_html_page(page(body, head, title="Turning off all status lights"), "https://f.example/t/2")
    assert "item_list" not in read.fired
    assert not any(title in read.text for title, _, _ in TRENDING)
    where = [read.text.find(post[:60]) for _, _, post in POSTS[:3]]
    assert -1 not in where and where == sorted(where)


def form_comment(number: int, author: str, when: str, text: str, replies: str = "") -> str:
    """A comment as a board that edits it in place writes it (old Reddit's shape): a header
    line, then the message inside the form its author edits it through, with hidden fields
    only; the replies nested under it."""
    return (
        f'<div class="thing comment" id="c{number}"><div class="entry"><p class="tagline">'
        f'<a href="/user/{author}" class="author">{author}</a> <span class="score">{12 - number} points'
        f'</span> <time>{when}</time> ({number % 3} children)</p><form action="#" class="usertext" '
        f'id="form-c{number}"><input type="hidden" name="thing_id" value="c{number}"><div class="usertext-body">'
        f'<div class="md"><p>{text}</p></div></div></form><ul class="buttons"><li><a href="/c/{number}">'
        f'permalink</a></li><li><a href="#">reply</a></li></ul></div><div class="child">{replies}</div></div>'
    )


SUBMISSION = (
    "The new board ships with a bright power light and a blinking activity light, and the old way of "
    "switching them off no longer works. This thread collects what readers found: which settings still "
    "apply, which moved, and what to do when nothing helps. Please add what worked for you below."
)


def comment_tree(box: str = "") -> str:
    """A thread of nested comments, its messages in forms, under a link's submission line."""
    tree = form_comment(
        0, *POSTS[0], form_comment(1, *POSTS[1], form_comment(2, *POSTS[2])) + form_comment(3, *POSTS[3])
    )
    more = "".join(
        form_comment(
            4 + i, f"reader{i}", f"Thu Dec 28, 2023 9:{i:02} am", f"Thanks, that worked for me too ({i})."
        )
        for i in range(6)
    )
    return (
        f'{NAV}<div class="content"><div class="link"><p class="title"><a href="/out">Turning off all status '
        f'lights</a></p><p class="tagline">submitted by b.scherer</p><p>{SUBMISSION}</p></div>'
        f'<div class="commentarea">{box}'
        f"{tree}{more}</div></div>{FOOTER}"
    )


def test_a_comment_tree_whose_messages_sit_in_forms_gives_every_message() -> None:
    # each message in a form that asks for nothing (hidden fields only): trafilatura deletes
    # forms as widgets, and kept every header line and no message
    page_html = page(comment_tree(), title="Turning off all status lights")
    text = read_html_page(page_html, "https://board.example/c/1").text
    where = [text.find(post[:60]) for _, _, post in POSTS]
    assert -1 not in where and where == sorted(where)


def test_a_form_a_reader_fills_in_stays_out_of_a_thread() -> None:
    reply_box = (
        '<form action="/reply" class="usertext"><input type="hidden" name="parent" value="c0">'
        "<p>Please be kind and stay on topic when you reply to other members of the community here.</p>"
        '<textarea name="text"></textarea><button type="submit">save</button></form>'
    )
    page_html = page(comment_tree(reply_box), title="Turning off all status lights")
    text = read_html_page(page_html, "https://board.example/c/1").text
    assert POSTS[1][2][:60] in text
    assert "stay on topic" not in text


QUESTION = (
    "I am starting a catering service for my cooking. The events will be for about forty people and the "
    "menu is curry with rice, fried chicken and a green salad. How should I prepare the day before?"
)
ANSWERS = [
    ("Jolenealaska", "Cook the curry the day before: like most stews it tastes better after a night in the "
     "fridge, and reheating a big pot is easy. Fry the chicken on the day, in batches."),
    ("SAJ14SAJ", "Make a written timeline that works backwards from the serving time, and do a full test run "
     "at home for a smaller group. Rent a second rice cooker rather than cooking rice in batches."),
    ("Catija", "Check with your local health department before the first event: many places require a "
     "licensed kitchen for catering, and the rules for holding hot food are strict."),
]  # fmt: skip


def test_a_qa_page_gives_the_question_and_every_answer() -> None:
    answers = "".join(
        f'<div class="answer" itemscope itemtype="https://schema.org/Answer"><div class="s-prose" '
        f'itemprop="text"><p>{text}</p></div><div class="user-details"><a href="/u/{author}">{author}</a>'
        "</div></div>"
        for author, text in ANSWERS
    )
    body = (
        '<div itemscope itemtype="https://schema.org/QAPage"><div itemscope itemtype="https://schema.org/Question">'
        f'<h1 itemprop="name">Catering event: how should I prepare?</h1><div id="question"><p>{QUESTION}</p>'
        f'</div><div id="answers"><h2>3 Answers</h2>{answers}</div></div></div>{FOOTER}'
    )
    text = read_html_page(page(body), "https://cooking.example/questions/1").text
    assert all(answer[:50] in text for _, answer in ANSWERS)


def marked_post(number: int, author: str, when: str, text: str, *, marked: bool = True) -> str:
    """A post as XenForo-like forum software writes it: schema.org microdata on the container
    (left off for an opening post the page describes in JSON-LD instead)."""
    markup = ' itemscope itemtype="https://schema.org/Comment"' if marked else ""
    person = ' itemscope itemtype="https://schema.org/Person"' if marked else ""

    def prop(name: str) -> str:
        return f' itemprop="{name}"' if marked else ""

    return (
        f'<article class="message message--post" id="post-{number}"{markup}>'
        f'<div class="message-cell message-cell--user"><h4 class="message-name"{prop("author")}{person}>'
        f'<a href="/members/{author}" class="username"><span{prop("name")}>{author}</span></a></h4>'
        f'<div class="message-userExtras">Messages: {40 + number}</div></div>'
        f'<div class="message-cell message-cell--main"><ul class="message-attribution">'
        f'<li><time class="u-dt"{prop("datePublished")} datetime="2023-12-2{number}T10:00:00+0000">'
        f"{when}</time></li><li>#{number + 1}</li></ul>"
        f'<div class="message-body"><div class="bbWrapper"{prop("text")}>{text}</div></div>'
        f'<div class="message-actions"><a href="/react/{number}">Like</a> <a href="/reply/{number}">Reply</a>'
        "</div></div></article>"
    )


def marked_thread(*, opening_marked: bool = True, quote: str = "") -> str:
    posts = [
        marked_post(i, author, when, f"<p>{text}</p>" if i != 3 or not quote else f"{quote}<p>{text}</p>",
                    marked=opening_marked or i > 0)
        for i, (author, when, text) in enumerate(POSTS)
    ]  # fmt: skip
    head = json_ld({
        "@context": "https://schema.org", "@type": "DiscussionForumPosting",
        "headline": "Turning off all status lights", "author": {"@type": "Person", "name": POSTS[0][0]},
        "articleBody": POSTS[0][2], "datePublished": "2023-12-17T11:23:00+0000",
    })  # fmt: skip
    body = (
        f'{NAV}<div class="p-body"><h1 class="p-title">Turning off all status lights</h1>'
        f'<div class="block-body">{"".join(posts)}</div></div>{FOOTER}'
    )
    return page(body, head=head, title="Turning off all status lights | Example Forums")


def author_lines_in(text: str) -> list[tuple[str, str]]:
    """Each ``**name** · date`` line of ``text``, as (name, date)."""
    return re.findall(r"^\*\*(.+?)\*\* · (.+)$", text, flags=re.M)


def test_a_thread_marked_up_post_by_post_gives_each_post_under_its_author_line_in_order() -> None:
    text = read_html_page(marked_thread(), "https://forum.example/threads/lights.1/").text
    assert author_lines_in(text) == [(author, when) for author, when, _ in POSTS]
    blocks = re.split(r"^\*\*.+$", text, flags=re.M)[1:]
    assert [block.strip() for block in blocks] == [post for _, _, post in POSTS]


def test_an_opening_post_described_only_in_json_ld_is_read_from_the_container_its_replies_share() -> None:
    text = read_html_page(marked_thread(opening_marked=False), "https://forum.example/threads/lights.1/").text
    assert author_lines_in(text)[0] == POSTS[0][:2]
    assert text.index(POSTS[0][2]) < text.index(POSTS[1][2])


# the date property a <meta> holding a timestamp, the date shown beside it a <time> of the same
# instant written another way (-0500 against -05:00), or a second off it (the property's fraction
# of a second cut, 10:00:00, the <time>'s rounded up, 10:00:01)
@pytest.mark.parametrize(
    ("stored", "shown"),
    [("T05:00:00-05:00", "T05:00:00-0500"), ("T10:00:00Z", "T10:00:01Z")],
)
def test_a_posts_date_given_as_a_timestamp_is_written_as_the_page_shows_it(stored: str, shown: str) -> None:
    thread = re.sub(
        r'<time class="u-dt" itemprop="datePublished" datetime="2023-12-2(\d)T10:00:00\+0000">',
        rf'<meta itemprop="datePublished" content="2023-12-2\1{stored}">'
        rf'<time class="u-dt" datetime="2023-12-2\1{shown}">',
        marked_thread(),
    )
    text = read_html_page(thread, "https://forum.example/threads/lights.1/").text
    assert author_lines_in(text) == [(author, when) for author, when, _ in POSTS]


def test_a_reply_quoting_an_earlier_post_does_not_repeat_it() -> None:
    quote = (
        f'<blockquote class="bbCodeBlock bbCodeBlock--quote"><div class="bbCodeBlock-title">{POSTS[1][0]} said:'
        f'</div><div class="bbCodeBlock-content">{POSTS[1][2]}</div></blockquote>'
    )
    text = read_html_page(marked_thread(quote=quote), "https://forum.example/threads/lights.1/").text
    assert text.count(POSTS[1][2]) == 1
    assert POSTS[3][2] in text


def test_a_quote_of_something_else_than_the_thread_stays_in_the_reply() -> None:
    manual = (
        "The trigger of each light is set in the board's configuration file: dtparam=act_led_trigger=none "
        "turns the activity light off, and the power light has a parameter of its own."
    )
    quote = f"<blockquote><p>{manual}</p></blockquote>"
    text = read_html_page(marked_thread(quote=quote), "https://forum.example/threads/lights.1/").text
    assert manual in text


def test_a_quotes_expand_control_is_not_read_as_the_replys_text() -> None:
    # XenForo's "Click to expand..." under a quote: a link to nowhere that calls itself a button
    quote = (
        f'<blockquote class="bbCodeBlock bbCodeBlock--quote"><div class="bbCodeBlock-title">{POSTS[0][0]} said:'
        '</div><div class="bbCodeBlock-content"><div class="bbCodeBlock-expandContent">Do you maybe know why?'
        '</div><div class="bbCodeBlock-expandLink"><a role="button" tabindex="0">Click to expand...</a></div>'
        "</div></blockquote>"
    )
    text = read_html_page(marked_thread(quote=quote), "https://forum.example/threads/lights.1/").text
    assert "Do you maybe know why?" in text and POSTS[3][2] in text
    assert "Click to expand" not in text


def test_a_quote_a_reply_writes_as_an_aside_stays_in_the_reply() -> None:
    # Discourse's shape: a quote of another topic, an <aside> around a <blockquote>
    quoted = (
        "Each light has a trigger of its own in the configuration file, and setting it to none turns that "
        "light off until the next boot, whatever the firmware did before."
    )
    quote = (
        f'<aside class="quote" data-topic="58018"><div class="title">someone:</div><blockquote><p>{quoted}</p>'
        "</blockquote></aside>"
    )
    text = read_html_page(marked_thread(quote=quote), "https://forum.example/t/lights/1").text
    assert quoted in text
    assert POSTS[3][2] in text


def test_a_links_preview_inside_a_post_is_left_out() -> None:
    # Discourse's "onebox": the linked page's title and description, an <aside> around an <article>
    preview = (
        '<aside class="onebox allowlistedgeneric" data-onebox-src="https://docs.example/config">'
        '<header class="source"><a href="https://docs.example/config">docs.example</a></header>'
        '<article class="onebox-body"><h3><a href="https://docs.example/config">Configuration file reference'
        "</a></h3><p>Every parameter of the board's configuration file, with its default value and the "
        "firmware release that added it.</p></article></aside>"
    )
    text = read_html_page(marked_thread(quote=preview), "https://forum.example/t/lights/1").text
    assert "Configuration file reference" not in text
    assert "default value" not in text
    assert POSTS[3][2] in text


def test_a_post_nested_in_another_posts_text_is_read_once() -> None:
    nested = "".join(
        f'<div itemscope itemtype="https://schema.org/Comment"><b itemprop="author">{author}</b>'
        f'<div itemprop="text"><p>{text}</p>'
        for author, _, text in POSTS[1:]
    ) + "</div></div>" * len(POSTS[1:])
    body = (
        f'<div itemscope itemtype="https://schema.org/DiscussionForumPosting"><b itemprop="author">{POSTS[0][0]}'
        f'</b><div itemprop="text"><p>{POSTS[0][2]}</p></div>{nested}</div>'
    )
    text = read_html_page(page(body), "https://forum.example/threads/lights.1/").text
    assert [text.count(post) for _, _, post in POSTS] == [1] * len(POSTS)


def described_thread(*, shown: bool) -> str:
    """A thread as Invision-like software writes it: no microdata, its posts listed in JSON-LD."""

    def described(number: int) -> dict[str, object]:
        author, _, text = POSTS[number]
        return {
            "@type": "Comment" if number else "DiscussionForumPosting",
            "author": {"@type": "Person", "name": author},
            "dateCreated": f"2023-12-2{number}T10:00:00+0000",
            "text": text,
        }

    data = {"@context": "https://schema.org", **described(0), "headline": "Turning off all status lights"}
    data["comment"] = [described(i) for i in range(1, len(POSTS))]
    posts = "".join(
        f'<article class="cPost"><aside class="cAuthorPane"><h3><a href="/profile/{i}">{author}</a></h3>'
        f'<ul><li>Members</li><li>{40 + i} posts</li></ul></aside><div class="cPost_contentWrap">'
        f'<p class="cMeta">Posted {when}</p><div class="cPost_content"><p>{text}</p></div>'
        '<ul class="cPost_controls"><li><a href="#quote">Quote</a></li></ul></div></article>'
        for i, (author, when, text) in enumerate(POSTS)
    )
    shown_posts = posts if shown else "<p>Sign in to read this topic.</p>"
    body = f"{NAV}<div id='content'><h1>Turning off all status lights</h1>{shown_posts}</div>{FOOTER}"
    return page(body, head=json_ld(data), title="Turning off all status lights - Example Community")


def test_a_thread_whose_json_ld_lists_its_posts_gives_each_under_its_author_line_in_order() -> None:
    text = read_html_page(described_thread(shown=True), "https://community.example/topic/1").text
    assert [author for author, _ in author_lines_in(text)] == [author for author, _, _ in POSTS]
    where = [text.index(post) for _, _, post in POSTS]
    assert where == sorted(where)


def test_a_json_ld_posts_date_is_written_as_the_page_shows_it_and_an_age_leaves_the_day() -> None:
    thread = described_thread(shown=True)
    for i, (_, when, _) in enumerate(POSTS):
        # a long and a short form, one hidden by a style sheet; the opening post shows only its age
        shown = "<span>1 yr</span>" if i == 0 else f"<span>{when}</span><span>1 yr</span>"
        thread = thread.replace(
            f"Posted {when}", f'Posted <time datetime="2023-12-2{i}T10:00:00Z">{shown}</time>'
        )
    text = read_html_page(thread, "https://community.example/topic/1").text
    assert author_lines_in(text) == [(POSTS[0][0], "2023-12-20"), *(post[:2] for post in POSTS[1:])]


def test_posts_listed_in_json_ld_that_the_page_does_not_show_are_not_read_as_its_thread() -> None:
    got = read_html_page(described_thread(shown=False), "https://community.example/topic/1")
    assert "thread_json_ld" not in got.fired


def described_question(*, listed: int | None = None) -> str:
    """A Q&A page as many sites write it after Google's QAPage format: the question and its answers
    in JSON-LD (the accepted one apart), shown in plain containers in date order."""

    def person(number: int) -> dict[str, str]:
        return {"@type": "Person", "name": POSTS[number][0]}

    def answer(number: int) -> dict[str, object]:
        return {
            "@type": "Answer",
            "text": POSTS[number][2],
            "dateCreated": f"2023-12-2{number}",
            "author": person(number),
        }

    question = {"@type": "Question", "name": "Turning off all status lights", "text": POSTS[0][2],
                "dateCreated": "2023-12-17", "author": person(0), "answerCount": listed or len(POSTS) - 1,
                "acceptedAnswer": answer(2), "suggestedAnswer": [answer(1), answer(3)]}  # fmt: skip
    data = {"@context": "https://schema.org", "@type": "QAPage", "mainEntity": question}
    shown = "".join(
        f'<div class="answer"><div class="meta"><a href="/u/{author}">{author}</a> answered {when}</div>'
        f'<div class="answer-text"><p>{text}</p></div><div class="votes">3 votes · Share</div></div>'
        for author, when, text in POSTS[1:]
    )
    body = (
        f"{NAV}<main><h1>Turning off all status lights</h1><div class='question'><p>{POSTS[0][2]}</p>"
        f"<p class='meta'>Asked by {POSTS[0][0]}</p></div><h2>3 answers</h2>{shown}</main>{FOOTER}"
    )
    return page(body, head=json_ld(data), title="Turning off all status lights - Example Answers")


def test_a_qa_page_whose_json_ld_lists_its_answers_gives_each_under_its_author_line_in_page_order() -> None:
    text = read_html_page(described_question(), "https://answers.example/q/1").text
    assert [author for author, _ in author_lines_in(text)] == [author for author, _, _ in POSTS]
    where = [text.index(post) for _, _, post in POSTS]
    assert where == sorted(where)


def test_a_threads_json_ld_comment_tree_gives_every_reply_under_its_author_line() -> None:
    def comment(number: int, replies: list[dict[str, object]]) -> dict[str, object]:
        author, _, text = POSTS[number]
        return {"@type": "Comment", "text": text, "datePublished": f"2023-12-2{number}T10:00:00",
                "author": {"@type": "Person", "name": author}, "comment": replies}  # fmt: skip

    thread = {"@type": "DiscussionForumPosting", "headline": "Turning off all status lights", "text": POSTS[0][2],
              "author": {"@type": "Person", "name": POSTS[0][0]}, "datePublished": "2023-12-17T11:23:00",
              "comment": [comment(1, [comment(2, [])]), comment(3, [])]}  # fmt: skip
    data = {"@context": "https://schema.org", "@type": "WebPage", "mainEntity": thread}
    shown = "".join(
        f'<div class="comment"><div class="head"><a href="/u/{author}">{author}</a> · {when}</div><p>{text}</p></div>'
        for author, when, text in POSTS
    )
    html = page(
        f"{NAV}<main><h1>Turning off all status lights</h1>{shown}</main>{FOOTER}", head=json_ld(data)
    )
    text = read_html_page(html, "https://social.example/r/boards/1").text
    assert [author for author, _ in author_lines_in(text)] == [author for author, _, _ in POSTS]


def scriptless_thread() -> str:
    """A thread as Discourse serves it: an empty application for scripts to fill in, and in a
    <noscript> the topic as a crawler reads it, every post marked up (a DiscussionForumPosting
    holding its replies as Comments)."""

    def crawler_post(number: int, author: str, when: str, text: str) -> str:
        markup = ' itemprop="comment" itemscope itemtype="http://schema.org/Comment"' if number else ""
        date = ' itemprop="datePublished"' if number else ""
        return (
            f"<div id='post_{number + 1}'{markup} class='topic-body crawler-post'><div class='crawler-post-meta'>"
            '<span class="creator" itemprop="author" itemscope itemtype="http://schema.org/Person">'
            f'<a itemprop="url" href="/u/{author}"><span itemprop="name">{author}</span></a></span>'
            f"<span class='crawler-post-infos'><time{date} datetime='2023-12-2{number}T10:00:00Z' class='post-time'>"
            f"{when}</time><span itemprop='position'>{number + 1}</span></span></div>"
            f"<div class='post' itemprop='text'><p>{text}</p></div>"
            f"<span class='post-likes'>{number + 1} Likes</span></div>"
        )

    posts = "".join(crawler_post(i, *post) for i, post in enumerate(POSTS))
    topic = (
        "<div itemscope itemtype='http://schema.org/DiscussionForumPosting'>"
        "<meta itemprop='headline' content='Turning off all status lights'>"
        f"<meta itemprop='datePublished' content='2023-12-17T11:23:00Z'>{posts}</div>"
    )
    crawler_view = (
        f"<noscript data-path='/t/turning-off-all-status-lights/1'><header><a href='/'>Example Forum</a>"
        f"</header><div id='main-outlet' class='wrap'><h1>Turning off all status lights</h1>{topic}"
        "</div><footer><a href='/tos'>Terms of Service</a></footer></noscript>"
    )
    body = f"<section id='d-splash'><div class='preloader-image'></div></section><section id='main'></section>{crawler_view}"
    return page(body, title="Turning off all status lights - Example Forum")


@pytest.mark.parametrize("tag", ["noscript", "NOSCRIPT"])
def test_a_thread_written_for_browsers_without_scripts_gives_each_post_under_its_author_line(
    tag: str,
) -> None:
    html = scriptless_thread().replace("<noscript", f"<{tag}").replace("</noscript", f"</{tag}")
    text = read_html_page(html, "https://forum.example/t/turning-off-all-status-lights/1").text
    assert [author for author, _ in author_lines_in(text)] == [author for author, _, _ in POSTS]
    where = [text.index(post) for _, _, post in POSTS]
    assert where == sorted(where)


QA_COMMENTS = [
    ("Aaronut", "Forty people is a lot for a first event: is there a kitchen at the venue?"),
    ("rumtscho", "This question is too broad as written; please narrow it down to one dish."),
]


def test_a_qa_page_gives_each_answer_under_its_author_without_the_comments_on_them() -> None:
    def comments() -> str:
        return "".join(
            f'<li itemscope itemtype="https://schema.org/Comment"><span itemprop="text">{said}</span> – '
            f'<a itemprop="author" href="/u/{who}">{who}</a> <time itemprop="dateCreated" '
            f'datetime="2024-03-0{i + 2}T08:00:00">Mar {i + 2}, 2024</time></li>'
            for i, (who, said) in enumerate(QA_COMMENTS)
        )

    def post(kind: str, author: str, text: str, day: int) -> str:
        return (
            f'<div class="{kind.lower()}" itemscope itemtype="https://schema.org/{kind}">'
            f'<div class="s-prose" itemprop="text"><p>{text}</p></div><div class="user-info">answered '
            f'<time itemprop="dateCreated" datetime="2024-03-{day:02d}T09:00:00">Mar {day}, 2024 at 9:00</time>'
            f' <div itemprop="author" itemscope itemtype="https://schema.org/Person">'
            f'<a href="/u/{author}"><span itemprop="name">{author}</span></a></div></div>'
            f'<ul class="comments">{comments()}</ul></div>'
        )

    answers = "".join(post("Answer", author, text, 10 + i) for i, (author, text) in enumerate(ANSWERS))
    body = (
        f'{NAV}<main itemscope itemtype="https://schema.org/QAPage"><h1>Catering event: how should I prepare?</h1>'
        f'{post("Question", "tanuki", QUESTION, 1)}<div id="answers"><h2>3 Answers</h2>{answers}</div>'
        f"</main>{FOOTER}"
    )
    text = read_html_page(page(body), "https://cooking.example/questions/1").text
    assert [author for author, _ in author_lines_in(text)] == ["tanuki", *(author for author, _ in ANSWERS)]
    assert not any(said in text for _, said in QA_COMMENTS)


def test_the_comments_under_a_blog_post_are_not_read_as_a_thread() -> None:
    story = (
        "The city council voted on Tuesday to close the old library on Market Street next spring and to "
        "move its collection to the new learning centre by the station, which opens in March."
    )
    comments = "".join(
        f'<li itemscope itemtype="https://schema.org/Comment"><b itemprop="author">{who}</b> '
        f'<time itemprop="datePublished" datetime="2024-05-0{i + 1}">May {i + 1}, 2024</time>'
        f'<p itemprop="text">{said}</p></li>'
        for i, (who, said) in enumerate(QA_COMMENTS)
    )
    head = '<meta property="og:type" content="article">'
    body = (
        f"{NAV}<article><h1>Old library to close</h1><p>{story}</p><p>{story}</p></article>"
        f'<section id="comments"><h2>Comments</h2><ol>{comments}</ol></section>{FOOTER}'
    )
    got = read_html_page(page(body, head=head), "https://news.example/2024/05/library")
    assert "thread_posts" not in got.fired
    assert story in got.text


# --- products, listings, services ----------------------------------------------------------


def test_a_product_page_gives_its_name_price_and_specifications() -> None:
    body = (
        f"{NAV}<main><h1>Trail Runner 4 waterproof running shoe</h1><p class='price'>€129.95</p>"
        "<p>A light trail shoe with a waterproof membrane and a grippy outsole for wet rocks and mud, "
        "cushioned for long days in the hills and stable on rough descents.</p><h2>Specifications</h2>"
        "<table><tr><th>Weight</th><td>310 g</td></tr><tr><th>Drop</th><td>6 mm</td></tr>"
        "<tr><th>Membrane</th><td>three-layer waterproof</td></tr></table></main>"
        f"<aside><h3>Filter</h3><ul><li><a href='?size=42'>Size 42</a></li></ul></aside>{FOOTER}"
    )
    text = read_html_page(page(body, title="Trail Runner 4 | Example Shop"), "https://shop.example/p/4").text
    assert all(
        fact in text for fact in ("Trail Runner 4", "€129.95", "310 g", "6 mm", "three-layer waterproof")
    )


GUITAR_SPECS = [
    ("Body", "Alder"), ("Neck", "Maple, bolt-on"), ("Fingerboard", "Rosewood"),
    ("Fingerboard radius", "241 mm"), ("Scale", "648 mm"), ("Nut width", "42 mm"),
    ("Frets", "22 medium jumbo"), ("Pickups", "3 Alnico 5 single coils"), ("Controls", "one volume, two tone"),
    ("Switch", "5-way"), ("Tremolo", "2-point synchronised"), ("Machine heads", "ClassicGear"),
    ("Hardware", "Nickel/Chrome"), ("Strings", "Nickel-plated steel .009 - .042"), ("Colour", "Birch Green"),
]  # fmt: skip
GUITAR_REVIEWS = [
    ("QuietOwl", "The first one arrived with a crack in the neck pocket and scratched lacquer around the truss rod hole, "
     "and the second had a paint mark near the strap button. I really like the looks of the guitar and the way it "
     "sounds, but the quality control was a letdown and I would inspect yours with attention when it arrives."),
    ("inrainbows", "I bought this to upgrade from a cheaper model and while it looks incredible and I will be keeping "
     "it, the setup out of the box was poor and made me appreciate the old one a lot more. After an evening with the "
     "truss rod and the saddles it plays very well, and the neck is the most comfortable I have owned."),
    ("Frusciantino", "It finally came today and I had the shop set it up before shipping, so I had to wait a little "
     "longer. As soon as I pick it up it feels right: pleasant to play, well balanced and solidly made, and the "
     "rolled fingerboard edges are lovely. It sounds clear and lively, with enough punch for blues and rock."),
    ("maple_neck", "This is my third guitar of the series and the best one yet. The pickups are quieter than on my "
     "older one, the tuners hold their pitch through a whole rehearsal, and the green finish looks even better in "
     "daylight than in the photos. For the price I do not think you can find a better guitar of this kind."),
    ("gigging_dad", "I take it to two gigs a week and it has not needed a single adjustment since the first setup. "
     "The tremolo returns to pitch far better than I expected from a guitar at this price, and the bridge pickup has "
     "enough bite for the rock covers we play, while the neck pickup is warm and round for the slower songs."),
    ("Lena R.", "Ordered on Monday and it was here on Wednesday, well packed in a cardboard box with plenty of foam. "
     "The colour is a little darker than on my screen but I prefer it that way. The frets were polished and the "
     "edges smooth, and the action was low enough to play straight away without buzzing anywhere on the neck."),
    ("old_strummer", "I have played these for thirty years and this version is a real step up from the last one. "
     "The satin neck does not get sticky in a hot room, the rosewood board feels smooth, and the whole guitar is a "
     "little lighter than my older one, which my shoulder is thankful for after a long evening on stage."),
    ("nico_b", "The electronics are quiet and the five-way switch feels solid, although the knobs are a bit loose "
     "on their shafts. A drop of glue fixed that. Apart from this small detail I am very happy with it, and my "
     "teacher was surprised by how well it stays in tune from one lesson to the next, week after week."),
]  # fmt: skip


def test_a_product_page_keeps_its_specifications_when_justext_reads_only_its_reviews() -> None:
    # the fast reading is the product's box, a short part of a page of reviews; jusText's
    # paragraphs are the reviews alone, and they do not stand for the product
    specs = "".join(f"<li>{name}: {value}</li>" for name, value in GUITAR_SPECS)
    reviews = "".join(
        f'<div class="review-item"><div class="author">{who}</div><div class="review-text">{said}</div>'
        "<span>Was this review helpful?</span></div>"
        for who, said in GUITAR_REVIEWS
    )
    product = {
        "@context": "https://schema.org", "@type": "Product", "name": "Player II Stratocaster",
        "offers": {"@type": "Offer", "price": "649.00", "priceCurrency": "GBP"},
    }  # fmt: skip
    body = (
        f"{NAV}<div class='content'><h1>Player II Stratocaster</h1><h2>Electric guitar</h2><ul>{specs}</ul>"
        f"<p>£649.00</p></div><section class='reviews'><h3>Reviews</h3>{reviews}</section>{FOOTER}"
    )
    html = page(body, head=json_ld(product), title="Player II Stratocaster – Example Music")
    text = read_html_page(html, "https://music.example/player-ii.htm").text
    assert all(f"{name}: {value}" in text for name, value in GUITAR_SPECS)


MIC_SPECS = [
    ("Capsule", '1" gold-plated'), ("Polar pattern", "cardioid"), ("Self-noise", "4 dBA"),
    ("Sensitivity", "25 mV/Pa"), ("Maximum SPL", "142 dB"), ("Frequency response", "20 - 20,000 Hz"),
    ("Sampling rate", "up to 192 kHz"), ("Outputs", "XLR and USB-C"), ("Power", "48 V phantom or 5 V USB"),
    ("Housing", "black aluminium"), ("Dimensions", "190 x 50 mm"), ("Weight", "311 g"),
]  # fmt: skip
MIC_DESCRIPTION = [
    ("A classic with an interface built in", "The studio condenser keeps the warm and detailed sound of the model "
     "it follows and adds an audio interface of its own, so that it can be plugged into a computer without a mixer "
     "in between. Its cardioid pattern picks up what is in front of it and leaves the room behind it quiet, and its "
     "frequency response covers the whole range of human hearing."),
    ("Quiet enough for whispers", "The capsule is large and sensitive, and its self-noise is among the lowest of "
     "any microphone in its class, which means that soft voices and acoustic instruments come through clean. At the "
     "other end it takes loud singers and guitar amplifiers without distortion, and the converter's floating point "
     "output makes clipping in the recording nearly impossible."),
    ("For beginners and for studios", "Everything needed to start recording is in the box: a shock mount with a pop "
     "filter, a long cable for the mixer and a shorter one for the computer. Those who own a studio already can use "
     "it as an analogue microphone through their preamps and keep the digital output for recording on the road."),
    ("About the maker", "The company was founded in a garage forty years ago and still designs and builds its "
     "microphones in the same city. Its first studio model became a classic that is made to this day, and the range "
     "has grown to microphones for video, for podcasts and for the stage."),
]  # fmt: skip


def test_a_product_page_keeps_its_box_and_the_description_in_a_section_of_its_own() -> None:
    # trafilatura reads the product's box (its column is the page's main content as its class
    # names go), jusText the description's paragraphs below it and not the box: the product is both
    specs = "".join(f"<li>{name}: {value}</li>" for name, value in MIC_SPECS)
    description = "".join(f"<h2>{heading}</h2><p>{text}</p>" for heading, text in MIC_DESCRIPTION)
    product = {
        "@context": "https://schema.org", "@type": "Product", "name": "Studio Condenser 5",
        "offers": {"@type": "Offer", "price": "199.00", "priceCurrency": "GBP"},
    }  # fmt: skip
    body = (
        f"{NAV}<main><div class='product-main-content'><h1>Studio Condenser 5</h1>"
        f"<h2>Large diaphragm condenser microphone</h2><ul>{specs}</ul><p>£199.00</p>"
        f"<button>Add to basket</button></div><section class='rich-content'>{description}</section></main>{FOOTER}"
    )
    html = page(body, head=json_ld(product), title="Studio Condenser 5 – Example Music")
    text = read_html_page(html, "https://music.example/condenser-5.htm").text
    assert all(f"{name}: {value}" in text for name, value in MIC_SPECS)
    assert "£199.00" in text
    assert all(paragraph in text for _, paragraph in MIC_DESCRIPTION)
    assert text.count(MIC_DESCRIPTION[1][1]) == 1


KETTLE_DESCRIPTION = (
    "A stove-top kettle of brushed stainless steel with a heat-resistant handle and a whistle that sounds "
    "when the water boils. Its wide base heats quickly on gas, electric and induction hobs, and the spout's "
    "flip cap keeps the steam away from your fingers when you pour. The lid lifts off for filling and "
    "cleaning, and the kettle holds enough water for eight cups of tea. The steel does not stain or take "
    "on tastes, and the kettle goes in the dishwasher without its handle losing its colour. "
    "Every kettle is tested for leaks before it leaves the workshop, and comes with a five-year guarantee "
    "that covers the handle, the whistle and the base. The handle folds down for storage and stays "
    "cool on the hob, and the whistle can be lifted off when you would rather boil the water quietly, "
    "early in the morning or late at night. A ring of copper inside the base spreads the heat evenly, "
    "so the kettle boils a litre in about five minutes on a medium gas ring and a little faster on "
    "induction. To descale it, boil a mixture of water and white vinegar, leave it overnight and rinse "
    "it twice in the morning; the inside is polished so that limescale comes away without scrubbing. "
    "The kettle is made in a family workshop that has been pressing steel for kitchens since 1952, "
    "and spare whistles, lids and handles can be ordered separately for as long as the model is made."
)
RELATED_KETTLES = [
    ("Copper whistling kettle 2 l", "$54.00"), ("Enamel kettle, cream, 1.5 l", "$39.50"),
    ("Gooseneck pour-over kettle 1 l", "$44.99"), ("Cast iron teapot with infuser", "$62.00"),
    ("Glass stove-top kettle 1.2 l", "$29.95"), ("Camping kettle, folding handle", "$24.00"),
]  # fmt: skip


def kettle_page_text(sections: str, carousel: str, related: str) -> str:
    """web_fetch's text of a kettle's page that declares nothing: its name, price and description,
    then ``sections``, then the carousel ``related`` of other products under the heading ``carousel``."""
    body = (
        f"{NAV}<main><h1>Whistling stainless steel kettle 2.5 l</h1><p class='price'>$48.00</p>"
        f"<p>{KETTLE_DESCRIPTION}</p>{sections}<h2>{carousel}</h2><ol class='carousel'>{related}</ol></main>{FOOTER}"
    )
    html = page(body, title="Whistling stainless steel kettle 2.5 l | Example Kitchen")
    return read_html_page(html, "https://kitchen.example/kettle").text


def test_a_product_page_that_declares_nothing_leaves_out_its_carousel_of_other_products() -> None:
    # no schema.org Product: the page's <main> is read with its links as text, and its carousel of
    # other products, each a link and a price, would come along
    related = "".join(
        f'<li><a href="/p/{n}">{name}</a><span class="price">{price}</span></li>'
        for n, (name, price) in enumerate(RELATED_KETTLES)
    )
    sections = (
        "<h2>Specifications</h2><table><tr><th>Capacity</th><td>2.5 l</td></tr>"
        "<tr><th>Weight</th><td>1.1 kg</td></tr><tr><th>Hobs</th><td>gas, electric, induction</td></tr></table>"
    )
    text = kettle_page_text(sections, "Customers also bought", related)
    assert "$48.00" in text and "five-year guarantee" in text and "induction" in text
    assert not any(name in text for name, _ in RELATED_KETTLES)


KETTLE_WORKSHOP = (
    "Each body is pressed from a single sheet of steel, so there is no seam for water to seep through, "
    "and the spout is welded on by hand before the kettle is polished inside and out. The whistle is "
    "tuned by ear in the workshop: a low note for the large kettle, a higher one for the small. The "
    "handle's wood comes from beech trees felled in managed forests, oiled rather than varnished, and "
    "it can be sanded and oiled again at home when it wears. We repair our kettles for as long as "
    "their parts are made: send one back with a note saying what is wrong and it returns within a month."
)
KETTLE_CARE = (
    "Rinse the kettle after use and leave its lid off so that it dries inside. Once a month, or more "
    "often where the water is hard, boil a mixture of water and white vinegar in it, leave it overnight "
    "and rinse it twice in the morning. Oil the beech handle twice a year with any food-safe oil, and "
    "never leave the kettle on a hot ring when it is empty: the base can warp, and the guarantee does "
    "not cover a kettle boiled dry."
)
KETTLE_DELIVERY = (
    "Every kettle is packed in a box of recycled card with paper padding, no plastic, and leaves the "
    "workshop the day after it is ordered. Parcels within the country arrive in two to four working days; "
    "abroad, allow a week or two, and duties may apply outside the union. Unused kettles may be returned "
    "within sixty days in their box for a full refund, and we pay for the return of a faulty one."
)
KETTLE_SPECS = [
    ("Capacity", "2.5 litres, eight cups of tea"), ("Weight", "1.1 kg empty"),
    ("Hobs", "gas, electric, ceramic and induction"), ("Body", "brushed stainless steel, pressed from one sheet"),
    ("Handle", "oiled beech, folds down for storage"), ("Base", "three layers, a copper ring inside"),
    ("Whistle", "removable, tuned by hand"), ("Guarantee", "five years on handle, whistle and base"),
    ("Made in", "the family workshop, since 1952"), ("Care", "dishwasher safe without the handle"),
]  # fmt: skip


def test_a_carousel_whose_cards_write_more_than_their_links_is_left_out_too() -> None:
    # a marketplace's card writes its rating count, material, price and delivery date in boxes
    # beside its link: a list a little over half links, which trafilatura kept as text
    related = "".join(
        f'<li><div><div><a href="/p/{n}"><span>{name}, for stove-top, camping and kitchen use</span></a>'
        f'<div><a href="/p/{n}#reviews">1,234</a></div><div><span>Stainless steel</span></div>'
        f"<span><span>{price}</span></span><div><div>$9.93 delivery <span>Tue, Mar 24</span></div></div>"
        "</div></div></li>"
        for n, (name, price) in enumerate(RELATED_KETTLES)
    )
    specs = "".join(f"<tr><th>{name}</th><td>{value}</td></tr>" for name, value in KETTLE_SPECS)
    sections = (
        f"<h2>From the workshop</h2><p>{KETTLE_WORKSHOP}</p><h2>Specifications</h2><table>{specs}</table>"
        f"<h2>Care</h2><p>{KETTLE_CARE}</p><h2>Delivery</h2><p>{KETTLE_DELIVERY}</p>"
    )
    text = kettle_page_text(sections, "Products related to this item", related)
    assert "$48.00" in text and "family workshop" in text and "food-safe oil" in text and "sixty days" in text
    assert "delivery Tue" not in text and not any(name in text for name, _ in RELATED_KETTLES)


@pytest.mark.parametrize("written", ["${}", "USD {}", "USD{}", "{}USD", "{} zł", "{}PLN"])
def test_a_carousels_prices_are_found_however_their_currency_is_written(written: str) -> None:
    # a price names its currency by a sign or a code, before or after the number, with a space or
    # none, and its span touches the name's link in the markup ("…2 l</a><span>USD54.00")
    related = "".join(
        f'<li><a href="/p/{n}">{name}</a><span class="price">{written.format(price[1:])}</span></li>'
        for n, (name, price) in enumerate(RELATED_KETTLES)
    )
    root = _parse(
        f"<html><body><main><h1>Whistling stainless steel kettle 2.5 l</h1><p>{KETTLE_DESCRIPTION}</p>"
        f"<ol class='carousel'>{related}</ol></main></body></html>"
    )
    assert root is not None
    assert [el.get("class") for el in priced_carousels(root.find(".//main"))] == ["carousel"]


KETTLE_REVIEWS = [
    ("Marta K.", "Bought it for the induction hob in our new flat and it boils quickly, faster than the electric "
     "kettle we had before. The whistle is loud enough to hear from the living room, which is what I wanted."),
    ("teapot_tom", "Solid and well made, but the handle gets warm if you leave it on a big gas ring for long. "
     "I use the small ring now and it is fine. It still looks new after six months of daily use."),
    ("Ines", "Lovely kettle. I was worried about limescale because our water is very hard, but the vinegar trick "
     "from the description works and the inside is shiny again after one night."),
    ("old_camper", "My second one from this workshop; the first lasted eleven years before the whistle cracked. "
     "Spare parts arrived within a week when I needed them, which says a lot about the people behind it."),
]  # fmt: skip


def test_a_product_pages_customer_reviews_are_left_out() -> None:
    # WCXB's gold text of a product page is its name, price, facts and description; the buyers'
    # reviews under it, each a block the page marks as a review, are not the product's text
    reviews = "".join(
        f'<div class="review"><p class="review-author">{who}</p><p>★★★★☆</p><p>{said}</p>'
        "<p>Was this review helpful?</p></div>"
        for who, said in KETTLE_REVIEWS
    )
    body = (
        f"{NAV}<main><h1>Whistling stainless steel kettle 2.5 l</h1><p class='price'>$48.00</p>"
        f"<p>{KETTLE_DESCRIPTION}</p><h2>Specifications</h2><table><tr><th>Capacity</th><td>2.5 l</td></tr>"
        "<tr><th>Weight</th><td>1.1 kg</td></tr></table>"
        f"<section id='reviews'><h2>Customer reviews</h2>{reviews}</section></main>{FOOTER}"
    )
    html = page(body, title="Whistling stainless steel kettle 2.5 l | Example Kitchen")
    text = read_html_page(html, "https://kitchen.example/kettle").text
    assert "$48.00" in text and "five-year guarantee" in text and "1.1 kg" in text
    assert not any(said[:40] in text for _, said in KETTLE_REVIEWS)


def test_a_marketplaces_two_top_reviews_are_left_out() -> None:
    # a marketplace shows a product's top reviews, two long ones, in a list it marks as its
    # reviews: they are the buyers' words, not the product's text, however long they run
    said = [said for _, said in KETTLE_REVIEWS]
    reviews = "".join(
        f'<li class="review"><p class="review-author">{who}</p><p>★★★★☆ Reviewed on 3 May 2025</p>'
        f"<p>{first}</p><p>{second}</p><p>{third}</p><p>12 people found this helpful</p></li>"
        for who, first, second, third in (("Marta K.", *said[:3]), ("old_camper", *said[1:]))
    )
    body = (
        f"{NAV}<main><h1>Whistling stainless steel kettle 2.5 l</h1><p class='price'>$48.00</p>"
        f"<p>{KETTLE_DESCRIPTION}</p><h2>Top reviews</h2><ul class='review-list'>{reviews}</ul></main>{FOOTER}"
    )
    html = page(body, title="Whistling stainless steel kettle 2.5 l | Example Market")
    text = read_html_page(html, "https://market.example/dp/kettle").text
    assert "$48.00" in text and "five-year guarantee" in text
    assert not any(s[:40] in text for s in said)


def test_a_listing_gives_each_item_on_a_line_of_its_own() -> None:
    items = [
        "Nowa Huta branch library",
        "Podgórze reading room",
        "Bronowice maker space",
        "Kazimierz archive",
    ]
    cards = "".join(
        f'<li class="card"><h3><a href="/places/{i}">{name}</a></h3><p>Open Monday to Saturday, '
        f"with study rooms that students can book online and a children's corner.</p></li>"
        for i, name in enumerate(items)
    )
    body = f"{NAV}<main><h1>Libraries in the city</h1><ul class='results'>{cards}</ul></main>{FOOTER}"
    text = read_html_page(page(body, title="Libraries in the city"), "https://city.example/libraries").text
    lines = text.split("\n")
    assert all(
        any(name in line and not any(o in line for o in items if o != name) for line in lines)
        for name in items
    )


ACCESSORIES = [
    ("Bamboo Motion-X Board", "$99+"), ("Inclining Walking Pad", "$349+"), ("Narrow File Cabinet", "$269+"),
    ("Desk Organizer Set", "$49+"), ("Headphone Stand", "$29+"), ("Compact Desk Drawer", "$79+"),
    ("Foot Hammock", "$39+"), ("Slim Under Desk Shelf", "$69+"),
]  # fmt: skip


def test_a_shops_grid_gives_each_products_name_and_price_on_a_line() -> None:
    # a shop's card: a picture linking to the product, its name a link in a box of its own, its price
    cards = "".join(
        f'<div class="card"><a href="/p/{i}"><img src="/i/{i}.jpg" alt=""></a>'
        f'<div class="name"><a href="/p/{i}">{name}</a></div><p class="price">{price}</p></div>'
        for i, (name, price) in enumerate(ACCESSORIES)
    )
    body = (
        f"<header>{NAV}</header><div class='page'><h1>Accessories for standing desks</h1><p>Choose from "
        "hundreds of accessories designed to complement your workspace and help you work better.</p>"
        f"<div class='grid'>{cards}</div></div>{FOOTER}"
    )
    html = page(body, title="Accessories for standing desks | Example Desks")
    lines = read_html_page(html, "https://desks.example/accessories").text.split("\n")
    assert all(any(name in line and price in line for line in lines) for name, price in ACCESSORIES)


def in_main(heading: str, intro: str, grid: str) -> str:
    """A page's body: the site's menu in its header, then in <main> a heading, a line of intro and
    the grid, then the footer."""
    return f"<header>{NAV}</header><main><h1>{heading}</h1><p>{intro}</p>{grid}</main>{FOOTER}"


HEADLAMPS = [
    ("Spot 400 Headlamp", "$54.95", "2.7 ounces"), ("Astro 300 Headlamp", "$24.95", "2.65 ounces"),
    ("Actik Core Headlamp", "$87.95", "3.1 ounces"), ("Iko Core Headlamp", "$99.95", "2.8 ounces"),
    ("Storm 500-R Headlamp", "$79.95", "4.2 ounces"), ("Swift RL Headlamp", "$109.95", "3.5 ounces"),
]  # fmt: skip


def test_a_shops_grid_whose_cards_say_more_beside_their_links_gives_each_product_on_a_line() -> None:
    # a card links its brand and name and says the rest beside them: its price, its rating in
    # words, its specifications' names and values; its links hold less than a fifth of its text
    cards = "".join(
        f'<li class="product"><a href="/product/{i}"><img src="/i/{i}.jpg" alt=""><span>Lumen Co</span>'
        f"<span>{name}</span></a><div>{price}</div><div>({i + 20}) {i + 20} reviews with an average "
        f"rating of 4.{i} out of 5 stars</div><dl><dt>Max Light:</dt><dd>{300 + i} lumens</dd>"
        f"<dt>Rechargeability:</dt><dd>Rechargeable</dd><dt>Weight With Batteries:</dt><dd>{weight}</dd>"
        f"<dt>Beam Type:</dt><dd>Flood and spot</dd></dl></li>"
        for i, (name, price, weight) in enumerate(HEADLAMPS)
    )
    body = in_main(
        "Headlamps",
        "Light the trail ahead with a headlamp for running, camping and climbing.",
        f"<ul class='grid'>{cards}</ul>",
    )
    html = page(body, title="Headlamps | Example Outfitters")
    lines = read_html_page(html, "https://outfitters.example/c/headlamps").text.split("\n")
    assert all(
        any(name in line and price in line and weight in line for line in lines)
        for name, price, weight in HEADLAMPS
    )


def test_a_shops_grid_loses_the_count_sort_order_and_filter_chips_above_it() -> None:
    # above the cards, the grid's toolbar: how many products, the order they are sorted in, the
    # view switch and the filters chosen, each a short block of its own
    cards = "".join(
        f'<li class="product"><a href="/product/{i}"><img src="/i/{i}.jpg" alt=""><span>Lumen Co</span>'
        f"<span>{name}</span></a><div>{price}</div><div>({i + 20}) {i + 20} reviews with an average "
        f"rating of 4.{i} out of 5 stars</div><dl><dt>Max Light:</dt><dd>{300 + i} lumens</dd>"
        f"<dt>Weight With Batteries:</dt><dd>{weight}</dd></dl></li>"
        for i, (name, price, weight) in enumerate(HEADLAMPS)
    )
    toolbar = (
        "<div class='summary'><p>Products (52)</p><p>Sort: Best Match</p><p>View:</p>"
        "<p>Rechargeable</p></div>"
    )
    body = in_main(
        "Headlamps",
        "Light the trail ahead with a headlamp for running, camping and climbing.",
        f"{toolbar}<ul class='grid'>{cards}</ul>",
    )
    html = page(body, title="Headlamps | Example Outfitters")
    text = read_html_page(html, "https://outfitters.example/c/headlamps").text
    assert "Sort: Best Match" not in text and "Products (52)" not in text and "View:" not in text
    assert "Light the trail ahead" in text
    assert all(name in text and price in text for name, price, _ in HEADLAMPS)


POSTCARDS = [
    ("Vintage postcard of the harbour at Dubrovnik, 1930s", "$12.50", "Free shipping"),
    ("Hand-coloured view of Lake Bled with the island church", "$18.00", "+$4.00 shipping"),
    ("Real photo postcard: tram on the main square of Kraków", "$9.99", "Free shipping"),
    ("Set of six Alpine railway postcards, unused", "$24.00", "+$3.50 shipping"),
    ("Embossed greetings card from Vienna, posted 1912", "$15.75", "Free shipping"),
    ("Lighthouse at Cape Kaliakra, Bulgarian Black Sea coast", "$7.25", "+$2.00 shipping"),
    ("Aerial view of Budapest's Chain Bridge in winter, 1950s", "$11.00", "Free shipping"),
    ("Art nouveau poster card of the Prague spring fair", "$21.40", "+$4.00 shipping"),
]  # fmt: skip


def test_a_grid_whose_cards_each_carry_a_class_of_their_own_gives_each_item_on_a_line() -> None:
    # a marketplace numbers its cards in their class names ("item-card--3"), and a blog classes
    # each post by its id: no two cards spell their classes alike, though all share the rest
    cards = "".join(
        f'<li class="item-card item-card--{i + 1} item-card--list"><a href="/itm/{4000 + i}">'
        f'<img src="/i/{i}.jpg" alt=""></a><div class="item-card__title"><a href="/itm/{4000 + i}">'
        f'{name}</a></div><div class="item-card__price">{price}</div><div>{shipping}</div></li>'
        for i, (name, price, shipping) in enumerate(POSTCARDS)
    )
    body = in_main(
        "Postcards",
        "Postcards from the collectors of our marketplace, from every decade of the last century.",
        f"<ul class='items'>{cards}</ul>",
    )
    lines = read_html_page(
        page(body, title="Postcards for sale"), "https://market.example/b/postcards"
    ).text.split("\n")
    names = [name for name, _, _ in POSTCARDS]
    assert all(
        any(
            name in line and price in line and not any(o in line for o in names if o != name)
            for line in lines
        )
        for name, price, _ in POSTCARDS
    )


SCIENCE_STORIES = [
    ("Teen sleep is getting wrecked by more than just phones", "March 6, 2026",
     "A two-decade study suggests that high school students sleep less every year."),
    ("Colossal Biosciences breeds controversy while trying to revive mammoths", "March 4, 2026",
     "A Texas company is trying to bring extinct creatures back to life."),
    ("Peer pressure can make this clownfish change its stripes", "March 2, 2026",
     "Young clownfish lose their stripes faster when others around them already have."),
    ("Spring ice is thawing earlier in lakes", "March 2, 2026",
     "Lakes are freezing later and thawing earlier, which throws off the life below."),
    ("Unlocking the secrets of an ancient plague", "February 28, 2026",
     "A mass grave sheds light on the first pandemic the histories recorded."),
]  # fmt: skip


def test_a_section_page_that_calls_itself_an_article_gives_each_story_on_a_line() -> None:
    # a news site's section page says og:type article; each story is a card: a captioned picture,
    # its headline a link, and its date and teaser one more link
    cards = "".join(
        f'<article class="item"><div class="image"><a href="/s/{i}"><img src="/i/{i}.jpg" alt=""></a>'
        f'<p class="caption">A photograph for the story, taken by a staff photographer. Agency {i}</p></div>'
        f'<div class="info"><h2 class="title"><a href="/s/{i}">{headline}</a></h2><p class="teaser">'
        f'<a href="/s/{i}"><time>{date} • </time>{teaser}</a></p></div></article>'
        for i, (headline, date, teaser) in enumerate(SCIENCE_STORIES)
    )
    body = in_main("Science", "The latest health and science news.", f"<div class='list'>{cards}</div>")
    head = '<meta property="og:type" content="article">'
    lines = read_html_page(
        page(body, head, title="Science : NPR"), "https://news.example/science"
    ).text.split("\n")
    stories = [line for line in lines if line.startswith("- ")]
    assert [next(h for h, _, _ in SCIENCE_STORIES if h in line) for line in stories] == [
        headline for headline, _, _ in SCIENCE_STORIES
    ]
    assert all(teaser in line for line, (_, _, teaser) in zip(stories, SCIENCE_STORIES, strict=True))


USES = ["small gardens", "large gardens", "slopes", "professionals"]
MOWERS = [
    ("KR161", "Robotic lawn mower for a quarter acre", "$2,099.99"),
    ("KR172", "Robotic lawn mower for half an acre", "$2,499.99"),
    ("KR173", "Robotic lawn mower for three quarters of an acre", "$2,999.99"),
    ("KR174", "Robotic lawn mower for an acre and a quarter", "$3,499.99"),
    ("KR233", "Robotic lawn mower for three acres", "$8,499.99"),
]  # fmt: skip


def test_a_shops_category_page_that_calls_itself_an_article_and_says_no_prose_gives_each_product_on_a_line() -> (
    None
):
    # a maker's category page says og:type article; its menus are lists in <div>s, not <nav>, and
    # hold more text than its grid; beside the grid no paragraph of prose, only a dealer finder
    menu = "".join(
        f'<div class="menu"><a href="/c/{i}">{name}</a><ul>'
        + "".join(f'<li><a href="/c/{i}/{j}">{name} for {use}</a></li>' for j, use in enumerate(USES))
        + "</ul></div>"
        for i, name in enumerate(["Lawn mowers", "String trimmers", "Hedge trimmers"])
    )
    cards = "".join(
        f'<div class="col item"><a href="/p/{model}"><img src="/i/{model}.jpg" alt=""><h4>{model}</h4>'
        f'<span class="name">{name}</span><span class="price">{price}</span></a></div>'
        for model, name, price in MOWERS
    )
    body = (
        f"<div class='top'>{menu}</div><div class='content'><h1>Robotic lawn mowers</h1><div class='row'>"
        f"{cards}</div><div class='finder'><h4>Find a dealer</h4><p>Use my location</p></div></div>"
    )
    head = '<meta property="og:type" content="article">'
    lines = read_html_page(
        page(body, head, title="Robotic lawn mowers"), "https://mowers.example/c/robotic"
    ).text.split("\n")
    models = [model for model, _, _ in MOWERS]
    assert all(
        any(
            model in line
            and name in line
            and price in line
            and not any(o in line for o in models if o != model)
            for line in lines
        )
        for model, name, price in MOWERS
    )


def test_repeated_blocks_of_their_own_text_keep_their_paragraphs() -> None:
    # a service's feature blocks, each with a "Learn more" link: its text is its own, not links
    blocks = "".join(
        f'<div class="feature"><h3>{head}</h3><p>{first}</p><p>{second}</p><a href="/f/{i}">Learn more</a></div>'
        for i, (head, first, second) in enumerate(
            (p[:20], p, q) for p, q in zip(ARTICLE_PARAGRAPHS[::2], ARTICLE_PARAGRAPHS[1::2], strict=True)
        )
    )
    html = page(f"{NAV}<div class='features'>{blocks}</div>{FOOTER}", title="What the city offers")
    lines = read_html_page(html, "https://city.example/offer").text.split("\n")
    assert all(paragraph in lines for paragraph in ARTICLE_PARAGRAPHS)


def test_a_category_page_keeps_its_entries_though_each_is_only_a_link() -> None:
    languages = ["Ada", "ALGOL 68", "APL", "BASIC", "C", "COBOL", "Eiffel", "Forth", "Fortran", "Haskell", "Icon",
                 "Lisp", "Logo", "ML", "Modula-2", "Oberon", "Pascal", "PL/I", "Prolog", "Simula", "Smalltalk",
                 "Snobol", "Tcl", "Turing", "Zig", "Rexx", "Racket", "Miranda", "Occam", "Joy", "Hope"]  # fmt: skip
    entries = "".join(
        f'<li><a href="/wiki/{name}">{name} (programming language)</a></li>' for name in languages
    )
    body = (
        f"{NAV}<main><h1>Category: Programming languages</h1><p>This category lists individual programming "
        "languages. Articles about programming language topics in general, such as type systems, paradigms or "
        "the history of compilers, belong to the category of programming language topics instead; lists of "
        "languages by year, by family or by paradigm each have a category of their own.</p>"
        f"<h2>Pages in this category</h2><ul>{entries}</ul></main>{FOOTER}"
    )
    text = read_html_page(page(body, title="Category: Programming languages"), "https://wiki.example/c").text
    assert all(f"- {name} (programming language)" in text.split("\n") for name in languages)
    assert "About us" not in text  # the site's menu outside <main> still goes


def test_a_service_page_keeps_its_feature_and_pricing_blocks() -> None:
    plans = "".join(
        f'<div class="plan"><h3>{name}</h3><p class="price">{price} per month</p><ul>'
        + "".join(f"<li>{feature}</li>" for feature in features)
        + "</ul></div>"
        for name, price, features in (
            ("Starter", "$9", ("5 projects", "Email support")),
            ("Team", "$29", ("50 projects", "Priority support", "Single sign-on")),
        )
    )
    body = (
        f"{NAV}<main><h1>Hosted backups for small teams</h1><p>Nightly encrypted backups of your servers "
        "and databases, kept for ninety days in two regions, restored with one command when something "
        f"breaks.</p><h2>Pricing</h2>{plans}</main>{FOOTER}"
    )
    text = read_html_page(page(body, title="Pricing | Example Backup"), "https://backup.example/pricing").text
    assert all(
        fact in text
        for fact in ("Nightly encrypted backups", "$9 per month", "$29 per month", "Single sign-on")
    )


# A consultancy's services page: its practices in four columns of a layout grid, each column
# listing three, every practice a link holding its name, a sentence about it and "Find out more".
SERVICE_COLUMNS = [
    [("Audit", "Our audits help clients understand how to address risks and strengthen their controls."),
     ("Cloud", "We move workloads to the cloud and keep them running securely once they are there."),
     ("Cyber", "We help organisations operate with resilience and respond quickly to every breach.")],
    [("Data", "Data platforms, governance and analytics that turn records into decisions for the board."),
     ("Legal", "Combining business experience and legal excellence across every market we serve."),
     ("Payroll", "Customised payroll operations delivered by our people on our own secure platforms.")],
    [("Risk", "Risk programmes that anticipate regulation rather than reacting to it after the fact."),
     ("Strategy", "Strategy work that connects an organisation's purpose to the plans it funds each year."),
     ("Tax", "Indirect and direct tax compliance, planning and advice for firms large and small.")],
    [("Transactions", "Support for mergers, acquisitions and divestitures from the first deal to the last."),
     ("Turnaround", "Restructuring advice when a business needs to act fast to protect its value."),
     ("Workforce", "Workforce planning, culture and change programmes for organisations in motion.")],
]  # fmt: skip


def test_a_services_page_whose_columns_each_list_several_practices_keeps_them_apart() -> None:
    columns = "".join(
        '<div class="grid-column">'
        + "".join(
            f'<div class="promo"><a href="/services/{name.lower()}"><h3>{name}</h3><p>{about}</p>'
            "<span>Find out more</span></a></div>"
            for name, about in column
        )
        + "</div>"
        for column in SERVICE_COLUMNS
    )
    body = in_main(
        "Our services",
        "Whether you are starting up or among the largest companies, our services help your business thrive.",
        f"<div class='grid-row'>{columns}</div>",
    )
    read = read_html_page(page(body, title="Our services"), "https://consulting.example/services")
    lines = read.text.split("\n")
    assert "item_list" not in read.fired
    assert all(
        any(about in line and " · " not in line for line in lines) for c in SERVICE_COLUMNS for _, about in c
    )


# A games console's page: in <main> its sections, classed alike, each a heading, features under
# headings of their own and a link or two; one holds a carousel of games with their prices.
CONSOLE_SECTIONS = [
    ("Three modes in one", [("TV mode", "Dock the system to enjoy high-definition gaming on your television."),
                            ("Tabletop mode", "Flip out the stand to share the screen with a friend nearby.")]),
    ("Better together", [("Local co-op", "Play on the big screen at home with friends and family."),
                         ("Online play", "Team up or face off with others online in compatible games.")]),
    ("More system features", [("Game shop", "Find and buy digital versions of full games on the system."),
                              ("Parental controls", "Settings that let you keep the focus on fun for all.")]),
    ("Games to play", [("Racing Deluxe", "Regular price $59.99, out now for every model of the system."),
                       ("Island Life", "Regular price $59.99, build the island of your dreams with friends.")]),
]  # fmt: skip


def test_a_products_page_whose_main_region_holds_its_sections_classed_alike_keeps_their_lines() -> None:
    sections = "".join(
        f'<section class="block"><h2>{heading}</h2>'
        + "".join(f"<h3>{name}</h3><p>{about}</p>" for name, about in features)
        + f'<a href="/system/{i}">Learn more about {heading.lower()}</a></section>'
        for i, (heading, features) in enumerate(CONSOLE_SECTIONS)
    )
    body = f"<header>{NAV}</header><main><h1>The game system</h1>{sections}</main>{FOOTER}"
    read = read_html_page(page(body, title="The game system"), "https://games.example/system")
    lines = read.text.split("\n")
    assert "item_list" not in read.fired
    assert all(f"## {heading}" in lines for heading, _ in CONSOLE_SECTIONS)
    assert all(about in lines for _, features in CONSOLE_SECTIONS for _, about in features)


# A consultancy's service page: an introduction, then a grid of its practices, each in a box
# whose class ("next-selection") trafilatura's fast reading takes for pagination and drops.
PRACTICES = [
    "Governance", "Cloud security", "Ransomware defense", "Data protection", "Managed detection",
    "Identity and access", "Network security", "Endpoint security", "Incident response",
    "Penetration testing", "Security awareness", "Threat intelligence", "Vendor risk",
    "Application security", "Email security", "Zero trust",
]  # fmt: skip
AUDIENCES = [
    "in every region", "across industries", "with decades of experience", "on every continent",
    "in hospitals and banks", "for retailers", "for factories", "for schools", "for cities",
]  # fmt: skip


def test_a_service_page_read_short_keeps_the_practices_its_fast_reading_dropped() -> None:
    # the fast reading holds the introduction, 1,700 characters of a 9,600-character page:
    # longer than jusText's second opinion once waited for, still short as trafilatura counts
    intro = "".join(
        f"<p>Our consultants {who} help teams assess the risks they face, design the controls that fit "
        "their operations, and keep their programmes running as regulations and threats change.</p>"
        for who in AUDIENCES
    )
    grid = "".join(
        f'<div class="column padding-40 next-selection"><p class="hub-headline"><span>{name}</span></p>'
        f"<h3><b>{name}, simplified.</b></h3><p>Our {name.lower()} practice aligns your security strategy "
        "with business goals, with assessments tailored to your organization, a framework rolled out with "
        f"your staff, and {name.lower()} specialists who run the programme beside your team for as long as "
        f"you need them.</p><p>Every {name.lower()} engagement starts with a workshop where we learn how "
        "your business runs, which systems matter most, and what your auditors expect to see from you next "
        "year.</p></div>"
        for name in PRACTICES
    )
    body = f"<main><h1>Cybersecurity</h1>{intro}<div class='row'>{grid}</div></main>"
    text = read_html_page(page(body, title="Cybersecurity services"), "https://consult.example/security").text
    assert "for cities help teams" in text
    assert all(f"Our {name.lower()} practice aligns" in text for name in PRACTICES)


# A consultancy's landing page of sections: each pillar's text in a box whose class
# ("content-info") trafilatura drops, set as a heading of the smallest kind, and FAQ answers in
# collapsed panels (a class "hidden" a script toggles), which trafilatura drops too.
PILLARS = [
    ("Consolidation", "Putting all data into one place creates a single version of the truth for every "
     "team, and makes quality audits easier to run."),
    ("Democratization", "Business users reach the data they need without waiting on IT, and decide faster "
     "with insights they can trust."),
    ("Automation", "Pipelines that load, check and publish data on their own free engineers for the "
     "projects that move the business."),
    ("Governance", "Clear ownership, lineage and access rules keep the data compliant as it spreads "
     "across the organisation."),
]  # fmt: skip
FAQ_ANSWERS = [
    "Most assessments take two to four weeks, depending on how many systems hold your data.",
    "We work with every major cloud warehouse and with the databases you already run yourselves.",
    "Every engagement ends with workshops where your analysts learn to extend what we built.",
]


def landing_sections(sections: list[tuple[str, str]]) -> str:
    """Sections as a page builder writes them: a heading, then the text in a box whose class
    ("content-info") trafilatura drops, set as a heading of the smallest kind."""
    return "".join(
        f'<div class="col"><h3><b>{name}</b></h3><div class="content-info"><h6><span>{text}</span></h6></div></div>'
        for name, text in sections
    )


def collapsed_answers(answers: list[str], hiding: str) -> str:
    """FAQ answers under their questions' buttons, each in a panel that ``hiding`` collapses."""
    return "".join(
        f'<div class="flex flex-col"><button type="button"><h5>Question {i}?</h5></button>'
        f"<div {hiding}><p>{answer}</p></div></div>"
        for i, answer in enumerate(answers)
    )


def test_a_landing_page_of_sections_is_read_whole_without_its_menus() -> None:
    pillars = landing_sections(PILLARS)
    faq = collapsed_answers(FAQ_ANSWERS, 'class="text-sm hidden"')
    body = (
        f"<div class='top'>{NAV}</div><div class='container'><h1>Data analytics services</h1><p>Unlock the "
        "value in your data: convert data to information, information to insights, and insights to better "
        "business outcomes with a partner who has done it for two decades.</p></div><div class='container'>"
        f"<section><h2>Our four pillars</h2><div class='row'>{pillars}</div></section></div>"
        f"<section><h2>Frequently asked questions</h2>{faq}</section>{FOOTER}"
    )
    text = read_html_page(page(body, title="Data analytics services"), "https://consult.example/data").text
    assert "Unlock the value in your data" in text
    assert all(line in text for _, line in PILLARS)
    assert all(answer in text for answer in FAQ_ANSWERS)
    assert "About us" not in text and "All rights reserved" not in text


# A payments company's landing page of features: a menu built of <div>s (no nav, no header),
# each feature's call to act a link alone on its line, a row of two calls to act under the
# opening, and beside one feature a checkout form
# drawn in markup, hidden from screen readers: none of it the page's text.
PAYMENT_FEATURES = [
    ("Checkout", "Accept cards, wallets and bank debits on one page that adapts its methods to the "
     "country and the currency of every buyer who reaches it."),
    ("Invoicing", "Send invoices that customers pay in one click, with reminders that go out on their "
     "own until the money arrives in your account."),
    ("Fraud checks", "Every payment is scored against signals from millions of businesses before it is "
     "approved, so stolen cards are stopped without slowing honest buyers."),
]  # fmt: skip
MENU_ENTRIES = ["Driver jobs Boston", "Investor relations", "Newsroom", "Careers"]


def test_a_landing_page_leaves_out_its_calls_to_act_lone_menu_links_and_drawn_forms() -> None:
    menu = "".join(
        f'<div class="menu-item"><a href="/m/{i}">{m}</a></div>' for i, m in enumerate(MENU_ENTRIES)
    )
    features = "".join(
        f'<div class="col"><h3>{name}</h3><div class="content-info"><h6><span>{text}</span></h6></div>'
        f'<div class="cta"><a href="/{name.lower()}">Explore {name.lower()} now</a></div></div>'
        for name, text in PAYMENT_FEATURES
    )
    drawing = (
        '<figure class="graphic" aria-hidden="true"><div>Card number</div><div>1234 1234 1234 1234</div>'
        "<div>Expiry date</div><div>MM/YY</div><div>Whitney Fujikawa</div><div>Pay JP¥7,788</div></figure>"
    )
    body = (
        f"<div class='top'>{menu}</div><div class='container'><h1>Payments</h1><p>Accept payments online, "
        "in person and around the world with one platform built for businesses of every size, from a "
        f"startup's first sale to a global enterprise's millionth.</p><p>Payouts reach your bank account in "
        "two days in most countries, reports reconcile every charge with the fees it paid, and one contract "
        "covers every market you sell in, with support in your language at any hour.</p><div class='actions'>"
        f"<a href='/signup'>Start now</a> <a href='/sales'>Contact sales</a></div></div>{drawing}<div class='container'>"
        f"<section><h2>What you can build</h2><div class='row'>{features}</div></section></div>{FOOTER}"
    )
    got = read_html_page(page(body, title="Payments"), "https://pay.example/payments")
    assert "landing" in got.fired
    assert "Accept payments online" in got.text
    assert all(line in got.text for _, line in PAYMENT_FEATURES)
    assert "Explore" not in got.text and "Contact sales" not in got.text
    assert not any(entry in got.text for entry in MENU_ENTRIES)
    assert "Card number" not in got.text and "Whitney Fujikawa" not in got.text


# A shop's category page of sections, read whole as a landing page: its filter panel and its
# mobile menu ship in the page hidden until the reader opens them (checkboxes and counts, a menu
# of links), and so do its sections' answers, collapsed: prose a reader opens, the page's text.
FILTERS = ["Synthetic insulation (41)", "Down insulation (27)", "Mummy shape (55)", "Rectangular shape (13)"]
SEASONS = [
    ("Summer bags", "Light bags rated to ten degrees that pack down to the size of a water bottle and dry "
     "quickly after a damp night by the lake."),
    ("Three-season bags", "Bags for spring and autumn nights near freezing, with a hood that cinches around "
     "the face and a draft collar along the zipper."),
    ("Winter bags", "Expedition bags filled with high-loft down for nights far below freezing, cut roomy "
     "enough to keep boots and a water bottle inside."),
]  # fmt: skip
BAG_ANSWERS = [
    "Pick the bag rated a few degrees below the coldest night you expect, since ratings assume a pad.",
    "Down packs smaller for its warmth, while synthetic fill keeps warming you when it gets wet.",
]


def bags_page(*, top: str = "", panel: str = "", tail: str = "") -> str:
    """A shop's landing page of sleeping bags, its seasons in sections: ``top`` after the site's
    menu, ``panel`` between the introduction and the sections, ``tail`` before the footer."""
    return (
        f"<div class='top'>{NAV}</div>{top}<div class='container'><h1>Sleeping bags</h1><p>Find the bag "
        "that keeps you warm where you camp, from beach nights to winter summits, chosen and tested by our "
        f"staff on every trip they take.</p></div>{panel}<div class='container'><section><h2>Bags by season"
        f"</h2><div class='row'>{landing_sections(SEASONS)}</div></section></div>{tail}{FOOTER}"
    )


BAGS_FAQ = (
    "<section><h2>Frequently asked questions</h2>"
    + collapsed_answers(BAG_ANSWERS, 'class="text-sm" style="display: none"')
    + "</section>"
)


def test_a_landing_page_is_read_whole_without_the_menus_and_filters_it_hides() -> None:
    filters = "".join(
        f'<label><input type="checkbox" name="f{i}"> {f}</label>' for i, f in enumerate(FILTERS)
    )
    menu = "".join(f'<li><a href="/c/{n}">{n} sale</a></li>' for n in ("Tents", "Stoves", "Packs", "Boots"))
    body = bags_page(
        top=f"<div class='mobile-menu' aria-hidden='true'><ul>{menu}</ul></div>",
        panel=f"<div class='filters' style='display:none'><h4>Filter</h4>{filters}</div>",
        tail=BAGS_FAQ,
    )
    got = read_html_page(page(body, title="Sleeping bags"), "https://shop.example/c/sleeping-bags")
    assert "landing" in got.fired
    assert all(line in got.text for _, line in SEASONS)
    assert all(answer in got.text for answer in BAG_ANSWERS)
    assert not any(name in got.text for name in FILTERS)
    assert "Tents sale" not in got.text


def test_a_landing_page_is_read_whole_without_the_choices_of_its_filter_panel() -> None:
    # the panel is shown, and built without <form>: each option a radio button's label
    prices = ["$50 to $99.99", "$100 to $149.99", "$150 and above"]
    choices = "".join(
        f'<li><label><span>{p}</span><input type="radio" name="price"></label></li>' for p in prices
    )
    body = bags_page(panel=f"<div class='refinements'><h4>Price</h4><ul>{choices}</ul></div>", tail=BAGS_FAQ)
    got = read_html_page(page(body, title="Sleeping bags"), "https://shop.example/c/sleeping-bags")
    assert "landing" in got.fired
    assert all(line in got.text for _, line in SEASONS)
    assert not any(price in got.text for price in prices)


def test_a_page_that_declares_its_readers_comments_is_not_read_whole_as_a_landing_page() -> None:
    # a thread's first post in sections, its replies marked as schema.org comments: a discussion,
    # whose sidebars and boxes of other threads a landing reading would bring in
    replies = "".join(
        f'<article class="message" itemscope itemtype="https://schema.org/Comment"><div itemprop="text">'
        f"<p>{answer}</p></div></article>"
        for answer in BAG_ANSWERS
    )
    others = "".join(
        f'<li><a href="/t/{n}">{n} for a winter trip?</a> Started by hiker{n}</li>' for n in range(6)
    )
    body = bags_page(
        tail=f"<div class='replies'>{replies}</div><div class='similar'><h3>Similar threads</h3><ul>{others}</ul></div>"
    )
    got = read_html_page(page(body, title="Sleeping bags"), "https://forum.example/t/sleeping-bags")
    assert "landing" not in got.fired


# A mover's landing page with a table of prices: read whole, each row is a line of its cells,
# parted as a browser's columns part them, not run together ("2 movers2.2 hours").
MOVING_COSTS = [("1 bedroom apartment", "$339.56", "2 movers", "2.2 hours"),
                ("3 bedroom house", "$521.64", "2 movers", "2.7 hours"),
                ("5 bedroom house", "$739.66", "3 movers", "3.9 hours")]  # fmt: skip


def test_a_landing_page_read_whole_keeps_a_tables_cells_apart() -> None:
    rows = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in MOVING_COSTS)
    body = (
        f"<div class='top'>{NAV}</div><div class='container'><h1>Movers in Jackson</h1><p>Compare local "
        "movers, get an instant estimate and book helpers for your move in minutes.</p></div>"
        f"<div class='container'><section><h2>Why book with us</h2><div class='row'>{landing_sections(PILLARS)}"
        "</div></section><section><h2>What a move costs</h2><table><tr><th>Home size</th><th>Average cost</th>"
        f"<th>Movers</th><th>Hours</th></tr>{rows}</table></section></div>{FOOTER}"
    )
    got = read_html_page(page(body, title="Movers in Jackson"), "https://movers.example/jackson")
    assert "landing" in got.fired
    assert all(" | ".join(row) in got.text for row in MOVING_COSTS)


# A design agency's landing page whose footer a site builder wrote as <div>s (no <footer>, no
# role): columns of links under small headings, its address, and its copyright notice.
def builder_footer(notice: str = "© 2026 Northwind Studio Ltd.") -> str:
    columns = (
        ("Company", ("About us", "Careers", "Press")),
        ("Services", ("Branding", "Web design", "Packaging")),
    )
    return (
        '<div class="site-bottom"><div class="cols">'
        + "".join(
            f'<div class="col"><h4>{name}</h4><ul>{"".join(f"<li><a href=/{i}>{link}</a></li>" for i, link in enumerate(links))}</ul></div>'
            for name, links in columns
        )
        + '<div class="col"><h4>Visit us</h4><p>12 Harbour Street, Leeds LS1 4AP</p></div></div>'
        f'<div class="legal"><p>{notice} <a href="/terms">Terms</a> <a href="/privacy">Privacy</a></p></div></div>'
    )


@pytest.mark.parametrize(
    "notice",
    [
        "© 2026 Northwind Studio Ltd.",
        "Copyright 2026 Northwind Studio Ltd.",
        "COPYRIGHT 2026 NORTHWIND STUDIO LTD.",
        "CopyRight 2026 Northwind Studio Ltd.",
        "Northwind Studio Ltd. All Rights Reserved.",
        "NORTHWIND STUDIO LTD. ALL RIGHTS RESERVED.",
        "Northwind Studio Ltd. all rights reserved.",
    ],
)
def test_a_landing_page_leaves_out_a_footer_built_of_divs_that_its_copyright_notice_marks(
    notice: str,
) -> None:
    body = (
        f"<div class='top'>{NAV}</div><div class='container'><h1>Data analytics services</h1><p>Unlock the "
        "value in your data: convert data to information, information to insights, and insights to better "
        "business outcomes with a partner who has done it for two decades.</p></div><div class='container'>"
        f"<section><h2>Our four pillars</h2><div class='row'>{landing_sections(PILLARS)}</div></section></div>"
        f"<section><h2>Frequently asked questions</h2>{collapsed_answers(FAQ_ANSWERS, 'class=hidden')}</section>"
        f"{builder_footer(notice)}"
    )
    got = read_html_page(page(body, title="Data analytics services"), "https://consult.example/data")
    assert "landing" in got.fired
    assert all(line in got.text for _, line in PILLARS)
    assert "northwind studio" not in got.text.lower() and "Harbour Street" not in got.text
    assert "Visit us" not in got.text and "Company" not in got.text


def test_a_landing_page_starts_at_its_main_heading_without_the_top_bar_above_it() -> None:
    top_bar = (
        "<div class='promo'><span>Spring webinar series: register today</span></div>"
        "<div class='crumbs'><span>Services</span> <span>Data analytics</span></div>"
    )
    body = (
        f"{top_bar}<div class='top'>{NAV}</div><div class='container'><h1>Data analytics services</h1><p>Unlock "
        "the value in your data: convert data to information, information to insights, and insights to better "
        "business outcomes with a partner who has done it for two decades.</p></div><div class='container'>"
        f"<section><h2>Our four pillars</h2><div class='row'>{landing_sections(PILLARS)}</div></section></div>"
        f"<section><h2>Frequently asked questions</h2>{collapsed_answers(FAQ_ANSWERS, 'class=hidden')}</section>"
    )
    # a <title> of the site's name: a heading the head names the page by is left to the title
    got = read_html_page(page(body, title="Northwind consulting"), "https://consult.example/data")
    assert "landing" in got.fired
    assert got.text.startswith("# Data analytics services")
    assert all(line in got.text for _, line in PILLARS)
    assert "webinar" not in got.text and "Services Data analytics" not in got.text


def test_a_short_reading_of_a_landing_page_is_read_whole_without_its_menu_of_links() -> None:
    # a shop's sets, each card one link: trafilatura keeps the heading and the intro (under
    # MIN_TEXT_CHARS), the page read whole keeps a menu built of <div>s too; the landing reading not
    menu = "".join(
        f"<div><a href='/c/{i}'>{name}</a></div>"
        for i, name in enumerate(("Skip to main", "Cleansers", "Treatments", "Sunscreen", "Moisturizers"))
    )
    sets = (
        ("Balm Trio", "Three lip balms in their original formula", "€49,95"),
        ("Super Pack", "All three of our serums", "€104,95"),
        ("Dewy Look", "Cloud paint with a dewy balm", "€51,95"),
    )
    cards = "".join(
        f"<div class='card'><a href='/p/{i}'><div>{name}</div><div>{line}</div><div>{price}</div></a></div>"
        for i, (name, line, price) in enumerate(sets)
    )
    body = (
        f"<div class='bar'>{menu}</div>{NAV}<div class='main'><h1>Skincare sets</h1><p>Our sets pair the "
        "serums, balms and cleansers that work best together, at a better price than each on its own.</p>"
        f"<div class='grid'>{cards}</div></div>"
    )
    got = read_html_page(page(body, title="Skincare sets"), "https://shop.example/collections/skincare-sets")
    assert "landing" in got.fired and "whole_page" not in got.fired
    assert all(line in got.text for _, line, _ in sets)
    assert "Cleansers" not in got.text and "Skip to main" not in got.text


QUOTE_FORM_TEXT = (
    "Request a consultation: tell us about your organisation, the systems you run and the deadlines your "
    "auditors set, and one of our partners will call you back within two working days with a first estimate."
)


def test_the_second_opinion_leaves_out_a_form_the_page_hides() -> None:
    # jusText reads every paragraph of the body; a hidden "request a quote" form's prose reads as one
    intro = "".join(
        f"<p>Our consultants {who} help teams assess the risks they face, design the controls that fit "
        "their operations, and keep their programmes running as regulations and threats change.</p>"
        for who in AUDIENCES
    )
    form = (
        f"<div class='quote' style='display: none'><form action='/quote'><p>{QUOTE_FORM_TEXT}</p>"
        "<label>Email <input type='email' name='email'></label><textarea name='message'></textarea>"
        "<button type='submit'>Send request</button></form></div>"
    )
    root = _parse(page(f"<main><h1>Cybersecurity</h1>{intro}{form}</main>", title="Cybersecurity"))
    assert root is not None
    reading = _justext_reading(root, reading_chars=100, page_chars=10_000)
    assert reading is not None
    text = " ".join(reading.itertext())
    assert "for cities help teams" in text
    assert "Request a consultation" not in text


# A phone maker's page for one model (declaring no product): an opening paragraph, camera features
# in boxes trafilatura drops, and a row of specifications, each a few words on a line of its own.
CAMERA_FEATURES = [
    ("Clear Burst", "Continuous shooting captures the fleeting beauty of a subject in motion with all of "
     "its detail, from a child's first steps to a dog that will not sit still for a portrait."),
    ("Dual Exposure", "The camera takes a short and a long exposure at once and combines them into one "
     "clear shot, so a street at night keeps both its lights and the faces under them."),
    ("Action Mode", "From extreme sports to a ball in flight, the image processing keeps up with the "
     "action and freezes every frame of it sharp, even when you are moving too."),
    ("Portrait Mode", "Faces stay sharp while the background falls away into a soft blur, with skin tones "
     "kept true to life in daylight, under a lamp and by the light of a candle."),
    ("Night Mode", "Hold the phone still for a second and the camera gathers enough light to show a "
     "garden after sunset as you saw it, without the grain and the smears of older phones."),
]  # fmt: skip
PHONE_SPECS = [
    "50 MP main camera",
    "1/1.4 inch sensor",
    "F1.6 aperture",
    "6,000 mAh battery",
    "120 Hz display",
]


def test_a_landing_page_read_short_is_read_whole_not_by_the_second_opinion() -> None:
    # jusText's reading holds the opening and the features' prose, and leaves out the specifications:
    # lines of a few words, far from any paragraph
    specs = "".join(f'<div class="spec"><span>{spec}</span></div>' for spec in PHONE_SPECS)
    body = (
        f"<div class='top'>{NAV}</div><div class='container'><h1>Aurora 7</h1><p>The phone that keeps up "
        "with you: a camera tuned by photographers, a battery that lasts two days and a screen you can read "
        "in the sun. Built to last as well, in a frame of aluminium, with four years of updates.</p></div>"
        f"<div class='container'><section><h2>Camera</h2><div class='row'>{landing_sections(CAMERA_FEATURES)}"
        f"</div></section></div><div class='specs'>{specs}</div>{FOOTER}"
    )
    got = read_html_page(page(body, title="Aurora 7"), "https://phone.example/aurora-7")
    assert "landing" in got.fired and "second_opinion" not in got.fired
    assert all(line in got.text for _, line in CAMERA_FEATURES)
    assert all(spec in got.text for spec in PHONE_SPECS)
    assert "About us" not in got.text and "All rights reserved" not in got.text


FEATURES = [
    "Backups", "Monitoring", "Alerts", "Dashboards", "Audit logs", "Single sign-on", "Roles", "API access",
    "Webhooks", "Exports", "Retention", "Support",
]  # fmt: skip


def test_a_dated_landing_page_of_many_short_sections_is_read_whole() -> None:
    # a service page's schema states a date, as a news story's does: its dozen short sections
    # say it is a landing page
    head = json_ld(
        {"@context": "https://schema.org", "@type": "WebPage", "datePublished": "2024-03-05T10:00:00Z"}
    )
    intro = "".join(
        "<p>Everything your team needs to keep its data safe, watched and easy to reach, in one "
        f"subscription with no surprises, whether you run {who}.</p>"
        for who in ("a shop", "a clinic", "a school", "a studio")
    )
    sections = "".join(
        f'<div class="col"><h3>{name}</h3><div class="content-info"><h6>{name} come with every plan, set up '
        "in minutes and managed from one place by your whole team.</h6></div></div>"
        for name in FEATURES
    )
    body = (
        f"<div class='top'>{NAV}</div><div class='container'><h1>One platform for your data</h1>{intro}</div>"
        f"<div class='container'><section><h2>Features</h2><div class='row'>{sections}</div></section></div>{FOOTER}"
    )
    got = read_html_page(page(body, head=head, title="Platform"), "https://platform.example/")
    assert got.published == "2024-03-05"
    assert all(f"{name} come with every plan" in got.text for name in FEATURES)
    assert "About us" not in got.text


# A hosting company's page: an opening of its own, then feature cards whose text sits in a box of
# the class trafilatura looks for first ("post"), so its reading is one card; the cards are a run of
# like siblings, as a thread's posts are, each opening with the same line.
HOSTING_CARDS = [
    ("Backups", "Every night your data is copied to two other cities and kept for ninety days, so a deleted "
     "file or a broken disk costs you a restore, not a week of work."),
    ("Monitoring", "We watch your servers every minute from three continents and tell you before your "
     "customers notice that a page is slow or a certificate is about to expire."),
    ("Support", "Real engineers answer the phone around the clock, read your configuration before they call "
     "back, and stay on the line until the problem is gone for good."),
]  # fmt: skip
EVERY_PLAN = (
    "Included in every plan from the first day, set up by our team in minutes and managed with you from one "
    "place, with no setup fee and no contract."
)


def test_a_landing_page_whose_reading_is_one_card_of_a_run_is_read_whole_not_as_the_run() -> None:
    # the run of cards alone (what post_run reads for a thread's other posts) leaves out the opening
    cards = "".join(
        f'<div class="card"><h3>{name}</h3><div class="post"><p>{EVERY_PLAN}</p><p>{line}</p></div></div>'
        for name, line in HOSTING_CARDS
    )
    opening = "".join(
        f"<p>Hosting for {who} that would rather sell than patch servers: we run the machines, you run "
        "the shop, and one monthly price covers it all.</p>"
        for who in ("small businesses", "clinics")
    )
    body = (
        f"<div class='top'>{NAV}</div><div class='hero'><h1>Managed hosting</h1>{opening}</div>"
        f"<section><h2>What you get</h2><div class='row'>{cards}</div></section>{FOOTER}"
    )
    text = read_html_page(page(body, title="Managed hosting"), "https://host.example/").text
    assert "Hosting for clinics that would rather sell" in text
    assert all(text.count(line) == 1 for _, line in HOSTING_CARDS)
    assert "About us" not in text and "All rights reserved" not in text


# --- verdicts that must not fire on real pages -----------------------------------------------

# A help article about accounts: each step is a short line that names logins and passwords,
# the words of site furniture, and together they are the page's whole text.
HELP_STEPS = [
    "Open the sign in page and choose Forgot your password below the log in button.",
    "Enter the email address you used to create an account, then check your inbox for our message.",
    "The message holds a link to reset your password; it works for thirty minutes, then sign in again.",
    "Choose a new password of at least twelve characters and sign in again with it on every device.",
    "If no message arrives, look in the spam folder, then ask us to send it again from the log in page.",
    "Still cannot sign in? Your account may be locked after five wrong passwords: wait an hour and retry.",
    "Accounts made with a school or company login are reset by that organisation, not on this page.",
    "After a reset we sign you out everywhere, so log in again on your phone, tablet and computer.",
    "To stop others from getting in, turn on two-step sign in from the privacy and security settings.",
    "Write down the backup codes we show when you turn it on: each lets you log in once without your phone.",
    "Lost the codes and the phone? Contact support from the sign in page and prove the account is yours.",
    "We never ask for your password by email, phone or chat, only on the log in page of this site.",
    "Shared computers: always log out when you are done, and do not let the browser save your password.",
    "Password managers can create and remember a strong password for each site you register on.",
    "Changing your email address? Sign in and do it from the account page, so resets reach the new one.",
    "For children's accounts, a parent can reset the password from the family page after they log in.",
    "Signed up with a phone number instead? Choose Forgot your password and we send the code by text.",
    "Codes sent by text expire after ten minutes; ask for a new one on the sign in page if yours did.",
    "Travelling abroad? Sign in once from a known device first, or we may ask you to confirm it is you.",
    "Business plans can require sign in through their own identity provider from the admin settings.",
    "Questions about how we keep login data are answered in our privacy notice and the security page.",
]


def help_article(head: str) -> str:
    steps = "".join(f"<p>{step}</p>" for step in HELP_STEPS)
    return page(f"<h1>Reset your password</h1><div>{steps}</div>", head=head, title="Reset your password")


def test_a_long_page_is_not_answered_with_its_short_meta_description() -> None:
    head = '<meta name="description" content="How to reset your password.">'
    text = read_html_page(help_article(head), "https://help.example/reset").text
    assert HELP_STEPS[5] in text


def test_a_title_and_description_the_site_escaped_twice_read_as_the_page_shows_them() -> None:
    # a forum thread saved without its posts (they come by script), whose head escapes the
    # description's apostrophe and ellipsis twice, as Discourse does: the description is the page
    head = (
        '<meta name="description" content="I&amp;rsquo;m looking for a first telescope that shows planets '
        'and deep-sky objects, for a budget of $300 to $500, easy to set up&amp;hellip;">'
        '<meta property="og:title" content="First telescope &amp;#x26; mount?">'
    )
    body = "<section id='main'></section><div class='hidden' id='data-preloaded'></div>"
    read = read_html_page(page(body, head=head, title="Forum"), "https://forum.example/t/first-telescope/15")
    assert "I’m looking for a first telescope" in read.text and read.text.endswith("easy to set up…")
    assert "&" not in read.text
    assert read.title == "First telescope & mount?"


def test_a_thread_saved_without_its_posts_is_answered_with_its_longest_description() -> None:
    # Discourse cuts the meta description short and writes a longer Open Graph one from the same
    # post, an emoji as a shortcode in the one and drawn in the other
    opening = "Howdy everyone :wave: I’m new to astronomy and would love advice on a first telescope"
    head = (
        f'<meta name="description" content="{opening} for planets and deep-sk&amp;hellip;">'
        '<meta property="og:description" content="Howdy everyone 👋 I’m new to astronomy and would love '
        "advice on a first telescope for planets and deep-sky objects. My budget is around $300 to $500. "
        'Refractor or reflector for a beginner?...">'
    )
    body = "<section id='main'></section><div class='hidden' id='data-preloaded'></div>"
    read = read_html_page(page(body, head=head, title="Forum"), "https://forum.example/t/first-telescope/15")
    assert "My budget is around $300 to $500." in read.text and "Refractor or reflector" in read.text


def test_a_thread_saved_without_its_posts_beside_its_sites_menu_bar_is_answered_with_its_description() -> (
    None
):
    head = (
        '<meta name="description" content="So I wanted to know what real world range people are getting. '
        "I did 24 miles on Friday, 10 on Sunday and another 15 on Tuesday, all without charging, and still "
        'had 18% left when I got back to my car.">'
    )
    body = (
        "<div id='top-navbar'><a href='https://board.example/'>board.example</a> "
        "<a href='https://calc.board.example/'>range calc</a> <a href='/donate'>donate now</a></div>"
        "<section id='main'></section><div class='hidden' id='data-preloaded'></div>"
    )
    read = read_html_page(
        page(body, head=head, title="Forum"), "https://board.example/t/whats-your-range/3275"
    )
    assert read.text.startswith("So I wanted to know what real world range") and "donate" not in read.text


def test_a_whole_description_is_not_traded_for_a_longer_one() -> None:
    head = (
        '<meta name="description" content="Members discuss first telescopes for planets and deep-sky objects.">'
        '<meta property="og:description" content="Members discuss first telescopes for planets and deep-sky '
        'objects. Join the forum today and share your own observing reports with thousands of others.">'
    )
    body = "<section id='main'></section>"
    read = read_html_page(page(body, head=head, title="Forum"), "https://forum.example/t/first-telescope/15")
    assert read.text == "Members discuss first telescopes for planets and deep-sky objects."


def test_a_heading_that_shows_a_character_reference_keeps_it() -> None:
    body = "<h1>What &amp;nbsp; means in HTML</h1>" + "".join(f"<p>{step}</p>" for step in HELP_STEPS)
    read = read_html_page(page(body, title="Entities"), "https://help.example/nbsp")
    assert read.title == "What &nbsp; means in HTML"


def test_a_long_page_whose_lines_name_logins_is_not_refused_as_site_furniture() -> None:
    text = read_html_page(help_article(""), "https://help.example/reset").text
    assert HELP_STEPS[9] in text


ARTICLE_PARAGRAPHS = [
    "The city opened three libraries on Monday, in Nowa Huta, Podgórze and Bronowice, the first new "
    "branches in twenty years and the largest public building programme since the tram extension.",
    "Each has a reading room, a maker space with 3D printers and study rooms that students can book "
    "online; the Bronowice branch also keeps a collection of board games that members can borrow.",
    "The libraries cost 48 million złoty together, two thirds of it from the European regional fund, "
    "and were designed by three local studios chosen in an open competition held two years ago.",
    "Opening hours run from nine in the morning until eight in the evening on weekdays, and until "
    "four on Saturdays, when the children's rooms hold readings and workshops for families.",
    "The mayor said the next two branches, in Prokocim and Krowodrza, would open before the end of "
    "the following year, once the land for both had been bought back from the state railway company.",
    "Librarians from the closed Old Town branch moved to the new buildings, and its books were shared "
    "between them; the old building will become a reading garden run by the neighbourhood council.",
    "Readers can return books to any of the five branches, and a van takes them back to the one they "
    "came from twice a week; reservations made online wait at the chosen branch for seven days.",
    "The city also plans a mobile library for the villages joined to it last year, a bus fitted with "
    "shelves for three thousand books that will stop in each village square once a fortnight.",
    "Membership stays free for residents, students and pensioners, while visitors pay a small yearly "
    "fee; the card also opens the city's museums on the first Sunday of every month at no charge.",
    "A survey last spring found that one resident in three had not visited a library in five years, "
    "and the city hopes that the new branches, close to schools and tram stops, will change that.",
]


def read_libraries_article(shown: str, *, article_body: str) -> str:
    """The libraries article showing ``shown`` (its paragraphs' HTML), its JSON-LD's articleBody
    ``article_body``: the text web_fetch reads."""
    data = {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": "City opens three new libraries",
        "articleBody": article_body,
    }
    html = page(
        f"<article><h1>City opens three new libraries</h1>{shown}</article>",
        head=json_ld(data),
        title="City opens three new libraries",
    )
    return read_html_page(html, "https://news.example/libraries").text


def test_an_articles_json_ld_body_is_not_appended_when_the_page_shows_it() -> None:
    shown = "".join(f"<p>{p}</p>" for p in ARTICLE_PARAGRAPHS[:4])  # the rest behind "read more"
    text = read_libraries_article(shown, article_body=" ".join(ARTICLE_PARAGRAPHS))
    assert text.count("The city opened three libraries on Monday") == 1


def test_an_articles_json_ld_body_still_gives_what_the_page_does_not_show() -> None:
    shown = "".join(f"<p>{p}</p>" for p in ARTICLE_PARAGRAPHS[:4])
    text = read_libraries_article(shown, article_body=" ".join(ARTICLE_PARAGRAPHS))
    assert "reading garden run by the neighbourhood council" in text


def test_an_article_shown_whole_is_not_filled_with_the_shorter_summary_its_json_ld_holds() -> None:
    shown = "".join(f"<p>{p}</p>" for p in ARTICLE_PARAGRAPHS)
    summary = (
        "In short: the city has opened three libraries, in Nowa Huta, Bronowice and Podgórze, each with a "
        "reading room, a children's floor and a café. They cost 48 million złoty, two thirds of it from the "
        "European regional fund. Two more branches, in Prokocim and Krowodrza, follow next year, and the "
        "closed Old Town branch becomes a reading garden. Books can be returned to any branch; a van takes "
        "them back twice a week. A bus with three thousand books will visit the villages joined to the city "
        "last year once a fortnight. Membership stays free for residents, students and pensioners, and the "
        "card opens the city's museums on the first Sunday of the month. A survey found that one resident "
        "in three had not visited a library in five years; the city hopes branches near schools and tram "
        "stops will change that, and it will count visits at each of them for the next two years. Opening "
        "hours run from nine to eight on weekdays and until four on Saturdays, with readings for families. "
        "The mayor thanked the librarians who moved from the old branch and the architects of all three."
    )
    text = read_libraries_article(shown, article_body=summary)
    assert "reading garden run by the neighbourhood council" in text
    assert "In short" not in text


def test_a_qa_pages_json_ld_naming_only_its_question_adds_nothing_to_it() -> None:
    title = "Multiple agents crashing after the last update"
    replies = [
        "Since updating to the new release last week, all three of my monitoring agents crash a few minutes "
        "after they start. The log ends with a segmentation fault in the collector for disk statistics.",
        "Same here on two servers. Turning off the disk statistics collector in the configuration file keeps "
        "the agents running, so the crash is in that collector and not in the agent itself.",
        "Thanks, that works for me as well. A fixed build is out now: version 2.4.1 repairs the collector, "
        "and after upgrading I switched it back on and the agents have been running for a day.",
    ]
    posts = "".join(f'<div class="topic-post"><div class="cooked"><p>{r}</p></div></div>' for r in replies)
    data = {"@context": "https://schema.org", "@type": "QAPage", "name": title,
            "mainEntity": {"@type": "Question", "name": title}}  # fmt: skip
    html = page(f"<header><h1>{title}</h1></header><main>{posts}</main>", head=json_ld(data), title=title)
    text = read_html_page(html, "https://community.example/t/agents-crashing/42").text
    assert "the agents have been running for a day" in text
    assert "Main entity" not in text


def test_a_next_js_page_of_only_configuration_and_feature_flags_is_refused() -> None:
    config = {
        "props": {"pageProps": {}},
        "runtimeConfig": {
            "theme": {"fontStack": "Inter, system-ui, sans-serif", "palette": {"primary": "#0a58ca"}},
            "featureFlags": {"newCheckout": True, "abAllocation": {"variantA": 0.5, "variantB": 0.5}},
            "environment": "staging",
        },
        "page": "/[slug]",
        "buildId": "b1c2d3",
    }
    head = '<script src="/_next/static/chunks/main-3f2a.js" defer></script>'
    body = f'<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{json.dumps(config)}</script>'
    with pytest.raises(NeedsJavaScript):
        read_html_page(page(body, head=head), "https://app.example/pricing")


# --- manuals read whole only where the region holds the page's code ------------------------

EMBED_SNIPPETS = (
    "<aside><h3>Share this product</h3><p>Embed it on your site:</p>"
    '<code>&lt;iframe src="https://shop.example/embed/4"&gt;&lt;/iframe&gt;</code>'
    "<p>Or link to it:</p><code>https://shop.example/p/4</code><p>Or as markdown:</p>"
    "<code>[Trail Runner 4](https://shop.example/p/4)</code></aside>"
)
PRODUCT_MAIN = (
    "<main><h1>Trail Runner 4 waterproof running shoe</h1><p class='price'>€129.95</p>"
    "<p>A light trail shoe with a waterproof membrane and a grippy outsole for wet rocks and mud, "
    "cushioned for long days in the hills and stable on rough descents. The upper is a recycled mesh "
    "that dries within the hour, the heel counter holds the foot on off-camber paths, and the rock "
    "plate keeps sharp stones away without making the shoe stiff.</p><h2>Specifications</h2>"
    "<table><tr><th>Weight</th><td>310 g</td></tr><tr><th>Drop</th><td>6 mm</td></tr>"
    "<tr><th>Membrane</th><td>three-layer waterproof</td></tr></table></main>"
)


def test_a_product_page_with_code_only_beside_its_main_region_is_not_read_as_a_manual() -> None:
    body = f"{NAV}{PRODUCT_MAIN}{EMBED_SNIPPETS}{FOOTER}"
    read = read_html_page(page(body, title="Trail Runner 4 | Example Shop"), "https://shop.example/p/4")
    assert "manual" not in read.fired


def test_a_manual_whose_main_region_holds_its_code_is_still_read_whole() -> None:
    main = (
        "<main><h1>Module <code>netcfg</code></h1><p>Reads and writes the network settings of a host, "
        "from its configuration files or from the running system.</p><h2><code>netcfg.lookup(name)</code></h2>"
        "<p>Looks up <code>name</code> in the configured resolvers in turn and returns the first address "
        "found, or raises <code>LookupError</code> when none of them knows it.</p></main>"
    )
    read = read_html_page(
        page(f"{NAV}{main}{FOOTER}", title="netcfg — Manual"), "https://docs.example/netcfg"
    )
    assert "manual" in read.fired


RELATED_PRODUCTS = [
    ("Ridge Hiker mid boot", "€149.00"),
    ("Summit Trail GTX", "€139.95"),
    ("Fell Racer 2", "€119.00"),
    ("Canyon Sandal", "€59.95"),
    ("Alpine Approach shoe", "€124.50"),
    ("Scree Gaiter low", "€29.95"),
]


@pytest.mark.parametrize("script_type", ["application/ld+json", "application/json"])
def test_a_product_pages_carousel_of_other_products_is_left_out(script_type: str) -> None:
    # a shop's product page declares the one thing it sells (schema.org Product with an offer);
    # the links inside its <main> are other products, not its items, as they are on a listing.
    # A theme may write that JSON-LD as application/json, for a script to copy into the head
    carousel = "".join(
        f'<li class="tile"><a href="/p/{i}"><span class="name">{name}</span> '
        f'<span class="price">{price}</span> <span class="stars">4.{i} out of 5 stars</span></a></li>'
        for i, (name, price) in enumerate(RELATED_PRODUCTS)
    )
    care = (
        "<h2>Care</h2><p>Rinse the mud off with cold water after a wet run, take the insoles out and let "
        "the shoe dry at room temperature, away from radiators, which harden the glue of the sole. Brush "
        "the outsole's lugs clean now and then: packed mud loses its grip on wet rock. The membrane needs "
        "no proofing, but a spray on the upper keeps it from soaking up water on long days in the rain. Replace the laces when they fray at the "
        "eyelets, and the insoles after about five hundred kilometres.</p>"
    )
    body = PRODUCT_MAIN.replace(
        "</main>", f"{care}<h2>Customers who viewed this item also viewed</h2><ol>{carousel}</ol></main>"
    )
    product = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": "Trail Runner 4 waterproof running shoe",
        "offers": {"@type": "Offer", "price": "129.95", "priceCurrency": "EUR"},
    }
    head = f'<script type="{script_type}">{json.dumps(product)}</script>'
    text = read_html_page(
        page(f"{NAV}{body}{FOOTER}", head=head, title="Trail Runner 4 | Example Shop"),
        "https://shop.example/p/4",
    ).text
    assert "€129.95" in text and "recycled mesh" in text and "310 g" in text
    assert not any(name in text for name, _ in RELATED_PRODUCTS)


def test_a_logo_drawn_into_an_images_data_address_does_not_get_the_page_refused() -> None:
    path = " ".join(f"L {n % 97}.{n % 7} {n % 41}.{n % 3}" for n in range(400))  # 1,600 numbers and letters
    logo = f'<img alt="" src="data:image/svg+xml,<svg viewBox=&quot;0 0 92 41&quot;><path d=&quot;M 0 0 {path} Z&quot;/></svg>">'
    story = (
        "<p>The studio designs furniture from reclaimed oak and ships it across Europe within two weeks.</p>"
        * 4
    )
    html = page(
        f"<header>{logo}</header><main><h1>About the studio</h1>{story}</main>", title="About the studio"
    )
    assert "reclaimed oak" in read_html_page(html, "https://studio.example/about").text


def test_an_article_after_a_header_template_that_ends_the_document_is_read() -> None:
    # a theme's header template writes </body></html>, and the post follows it: browsers read on
    header = f"<!DOCTYPE html><html><head><title>New libraries</title></head><body><header>{NAV}</header></body></html>"
    story = "".join(f"<p>{p}</p>" for p in ARTICLE_PARAGRAPHS)
    html = f'{header}\n<div class="post"><h1>New libraries</h1>{story}</div>{FOOTER}</body></html>'
    text = read_html_page(html, "https://city.example/news/libraries").text
    assert ARTICLE_PARAGRAPHS[0] in text
    assert ARTICLE_PARAGRAPHS[-1] in text


# --- verdicts narrowed to the pages they are for (issue 22) -------------------------------

TRAIL_RUNNER_OFFER = {
    "@context": "https://schema.org",
    "@type": "Product",
    "name": "Trail Runner 4 waterproof running shoe",
    "offers": {"@type": "Offer", "price": "129.95", "priceCurrency": "EUR"},
}
REVIEWS = [
    ("hillwalker", "Wore them for a wet week in the Lake District and my feet stayed dry every day; the grip "
     "on slate and wet grass is the best I have had from any shoe, and they were comfortable from day one."),
    ("runs_at_dawn", "Sizing runs half a size small, so order up. After two hundred miles the outsole shows "
     "little wear, though the laces came undone on every descent until I swapped them for flat ones."),
    ("mkowalska", "Light and quick on dry trails, a little warm in summer because of the membrane. The rock "
     "plate does its job on stony paths without making the shoe feel stiff or dead under foot."),
]  # fmt: skip


def test_the_reviews_under_a_product_are_not_read_as_a_thread() -> None:
    reviews = "".join(
        f'<li class="comment"><p class="comment-author">{who}</p><p>{said}</p></li>' for who, said in REVIEWS
    )
    body = (
        f"{NAV}<main><article class='product'><h1>Trail Runner 4 waterproof running shoe</h1>"
        "<p class='price'>€129.95</p><p>A light trail shoe with a waterproof membrane and a grippy outsole "
        "for wet rocks and mud, cushioned for long days in the hills and stable on rough descents.</p></article>"
        f'<section id="comments" class="comments-area"><h2>Reviews</h2><ol class="comment-list">{reviews}</ol>'
        f"</section></main>{FOOTER}"
    )
    html = page(body, head=json_ld(TRAIL_RUNNER_OFFER), title="Trail Runner 4 | Example Shop")
    got = read_html_page(html, "https://shop.example/p/4")
    assert "grippy outsole" in got.text
    assert REVIEWS[0][1][:40] not in got.text


def test_an_image_named_for_a_question_does_not_declare_a_thread() -> None:
    assert not declares_thread('<img src="https://games.example/uploads/2020/07/Question-Main-100x75.jpg">')
    assert declares_thread('<div itemscope itemtype="https://schema.org/Question">')
    assert declares_thread('{"@type": "QAPage", "mainEntity": {}}')


def test_a_thread_declared_after_many_capitals_of_its_types_names_is_found() -> None:
    # past threads.MAX_MET capitals met ("Q", "D") the types' whole names are sought from there
    capitals = '<p>QQ DD "Quiz" "Data"</p>' * (threads.MAX_MET // 2)
    assert declares_thread(capitals + '<script type="application/ld+json">{"@type": "QAPage"}</script>')
    assert declares_thread(capitals + '<div itemtype="https://schema.org/DiscussionForumPosting">')
    assert not declares_thread(capitals + "<p>Questions and answers</p>")


def test_a_product_page_whose_main_column_shows_code_is_not_read_as_a_manual() -> None:
    # a shop's main column with its promo codes and a share widget's snippet: <code> three times
    main = (
        f"{PRODUCT_MAIN.removesuffix('</main>')}<div class='promo'><p>Use <code>TRAIL10</code> for 10 % off, "
        '<code>FREESHIP</code> for free delivery.</p><p>Embed: <code>&lt;iframe src="/embed/4"&gt;</code></p>'
        "</div><div class='carousel'><h3>You may also like</h3><ul><li>Trail Runner 3 — €99.95</li>"
        "<li>Road Glide 2 — €119.95</li><li>Summit Mid GTX — €159.95</li></ul></div></main>"
    )
    html = page(
        f"{NAV}{main}{FOOTER}", head=json_ld(TRAIL_RUNNER_OFFER), title="Trail Runner 4 | Example Shop"
    )
    got = read_html_page(html, "https://shop.example/p/4")
    assert "manual" not in got.fired
    assert "€129.95" in got.text


def test_a_products_rendered_details_are_not_displaced_by_its_catalogue_data() -> None:
    # the product's name is in a heading the reading leaves out; what it keeps (price, sizes,
    # delivery) names none of the title's words, and the JSON-LD has only catalogue data (ids,
    # a category, its ingredients, a rating) and a placeholder description: the rendered text
    # stays the page, and that data neither displaces nor fills it
    shown = (
        "<div class='buy'><p>Highly rated by customers for: texture, results, value</p>"
        "<p>$195.00 or 4 payments of $48.75 with Klarna</p><p>Size: 1 oz / 30 mL</p>"
        "<p>Free standard shipping on orders over $50, returns within 30 days of purchase at any store.</p></div>"
    )
    data = {
        "@context": "https://schema.org",
        "@type": "ProductGroup",
        "name": "The Night Cream with Peptides Moisturizer",
        "brand": {"@type": "Brand", "name": "Example Labs"},
        "productGroupID": "P470507",
        "category": "face-creams",
        "material": "Aqua, glycerin, caprylic triglyceride, squalane, butylene glycol, pentylene glycol, "
        "cetearyl alcohol, shea butter, tocopherol, hydrolyzed rice protein, sodium hyaluronate",
        "description": "wf",
        "aggregateRating": {"@type": "AggregateRating", "ratingValue": 4.2, "reviewCount": 487},
        "review": [
            {"@type": "Review", "name": name}
            for name in (
                "Worth every cent",
                "Too rich for oily skin",
                "My skin felt softer and tighter",
                "Allergic reaction after a week",
                "Better than the one I used for years",
            )
        ],
    }
    head = json_ld(data) + '<script src="/static/app.js" defer></script>'
    html = page(shown, head=head, title="Example Labs The Night Cream with Peptides Moisturizer")
    got = read_html_page(html, "https://beauty.example/product/P470507")
    assert "$195.00" in got.text
    assert "P470507" not in got.text


# a blog's sidebar: an archive by month, or its recent posts' titles (its links a fifth of the page)
ARCHIVE = "".join(f'<li><a href="/2008/{m:02}/">2008 ({m})</a></li>' for m in range(1, 13))
RECENT = "".join(
    f'<li><a href="/2008/{m:02}/post">What I learned from startup number {m}</a></li>' for m in range(1, 13)
)


@pytest.mark.parametrize("sidebar", [ARCHIVE, RECENT], ids=["archive", "recent-posts"])
def test_the_comments_under_a_post_its_microformats_mark_as_one_entry_are_not_its_text(sidebar: str) -> None:
    # an old blog's post page (Blogger's shape): no og:type, no schema.org; its template's regions
    # are <div>s named by id alone, the post a "hentry", its readers' comments longer than it.
    # Before: its comments were joined as a thread's replies, or (with the recent posts) its
    # regions read as a listing's cards, the whole page one line
    story = [
        "I have been looking for a word for the way small teams now build products: cheap tools, "
        "short cycles and a close look at what customers do rather than what they say they want.",
        "Three things drive it: open source software, agile methods and rapid iteration with customers, "
        "each of them part of a larger trend that has changed how new companies start and grow.",
    ]
    said = [
        "Great post, I have been thinking about exactly this for a while and the name fits it well. "
        "We tried the same approach at my last company and it saved us a year of building the wrong thing.",
        "I am not sure the term will stick, but the ideas are sound. Customer development is the part most "
        "founders skip, and it is the part that matters most when money is short and time is shorter.",
        "How does this apply to hardware? Iterating quickly is much harder when every prototype costs "
        "thousands of dollars and takes weeks to arrive from the factory, so the cycles are far longer.",
        "Thanks for writing this up. I shared it with our whole team and we are going to try the weekly "
        "customer interviews you described, starting next Monday with the five customers we know best.",
    ]
    comments = "".join(
        f'<dt class="comment-author" id="c{i}"><a href="/profile/{i}">Reader {i}</a> said...</dt>'
        f'<dd class="comment-body"><p>{text}</p></dd><dd class="comment-footer">'
        f'<span class="comment-timestamp"><a href="#c{i}">September 8, 2008 at {i + 1}:00 PM</a></span></dd>'
        for i, text in enumerate(said)
    )
    post = (
        '<div class="post hentry"><h3 class="post-title entry-title">The lean startup</h3>'
        f'<div class="post-body entry-content">{"".join(f"<p>{p}</p>" for p in story)}</div>'
        '<div class="post-footer">Posted by <a href="/profile/eric">Eric</a> at 9:40 AM</div></div>'
        f'<div class="comments" id="comments"><h4>4 comments:</h4><dl id="comments-block">{comments}</dl></div>'
    )
    body = (
        '<div id="outer-wrapper"><div id="header-wrapper"><h1><a href="/">Lessons Learned</a></h1></div>'
        '<div id="crosscol-wrapper"><a href="/">Home</a> <a href="/bio">Bio</a></div>'
        f'<div id="main-wrap1"><h2 class="date-header">Monday, September 8, 2008</h2>{post}</div>'
        f'<div id="sidebar-wrap"><h2>On this blog</h2><ul>{sidebar}</ul></div>'
        '<div id="footer-wrap1"></div></div>'
    )
    text = read_html_page(
        page(body, title="Lessons Learned: The lean startup"), "http://blog.example/2008/09/lean"
    ).text
    assert all(p in text for p in story)
    assert not any(s[:50] in text for s in said)


def test_a_products_tabs_written_once_per_screen_are_read_once() -> None:
    # a shop writes its product's details twice, as tabs for wide screens and as an accordion for
    # narrow ones; each sentence is shorter than a paragraph an article's copy is told by
    details = (
        "<h3>Care</h3><p>Rinse the shoes in cold water after a muddy run and let them dry away from the heater.</p>"
        "<h3>Shipping and returns</h3><p>Orders placed before two in the afternoon leave our warehouse on the "
        "same day.</p><p>Unworn shoes can be returned within thirty days for a refund or an exchange.</p>"
    )
    body = (
        f"{NAV}<main><h1>Trail Runner 4 waterproof running shoe</h1><p class='price'>€129.95</p>"
        "<p>A light trail shoe with a waterproof membrane and a grippy outsole for wet rocks and mud, cushioned "
        "for long days in the hills and stable on rough descents.</p>"
        f"<div class='tabs desktop'>{details}</div><div class='accordion mobile'>{details}</div></main>{FOOTER}"
    )
    html = page(body, head=json_ld(TRAIL_RUNNER_OFFER), title="Trail Runner 4 | Example Shop")
    text = read_html_page(html, "https://shop.example/p/4").text
    assert "grippy outsole" in text
    assert text.count("let them dry away from the heater") == 1
    assert text.count("returned within thirty days") == 1


def test_a_product_page_flattened_into_one_line_says_each_sentence_once() -> None:
    # a marketplace writes the item's editorial reviews again under each seller's listing, all in
    # inline markup: the reading is one line, and the copies are its sentences, not its lines
    praise = (
        "A graceful account of the wild places we lost and the ones we may still bring back to life. "
        "The author walks the reader through forests, rivers and coasts as they were three centuries ago. "
        "Few books on nature have changed the way I look at an ordinary field on the edge of town. "
    )
    listings = "".join(
        f"<span>Listing {n}: hardcover, {n + 2} dollars plus shipping. </span><span>{praise * 3}</span>"
        for n in range(8)
    )
    body = (
        f"{NAV}<main><div><span>Trail Runner 4 waterproof running shoe. </span><span>Price: 129.95 euros. "
        f"</span>{listings}</div></main>{FOOTER}"
    )
    html = page(body, head=json_ld(TRAIL_RUNNER_OFFER), title="Trail Runner 4 | Example Shop")
    text = read_html_page(html, "https://shop.example/p/4").text
    assert text.count("changed the way I look at an ordinary field") == 1
    assert "Listing 7: hardcover" in text


def test_an_offers_terms_said_again_under_each_offer_are_kept() -> None:
    # a travel site's offers page lists each offer's terms: the terms they share (one a paragraph
    # long) come again under each offer between its own, and each offer's terms are its text
    shared = (
        "<li>Offer is valid on reservations that include a minimum of one flight on the airline and its "
        "regional partners, for travel on dates that vary by destination, and it cannot be combined with "
        "any other discount, voucher, credit or promotional code, whether issued before or after the "
        "booking was made, nor applied to bookings made by travel agents on behalf of their clients.</li>"
        "<li>No refunds will be issued toward the offer. The offer has no cash value.</li>"
    )
    offers = "".join(
        f"<section><h2>{place}</h2><p>Save {save} dollars on a flight and hotel package to {place}.</p>"
        f"<h3>Terms and conditions</h3><ul><li>Minimum {nights}-night hotel stay required.</li>{shared}"
        f"<li>At time of reservation, you must refer to promotional code {code}.</li></ul></section>"
        for place, save, nights, code in (
            ("Mexico", 150, 4, "SUNMX26"),
            ("the Caribbean", 200, 3, "SUNCB26"),
            ("Hawaii", 250, 5, "SUNHI26"),
        )
    )
    body = f"{NAV}<main><h1>Vacation offers and deals</h1>{offers}</main>{FOOTER}"
    text = read_html_page(page(body, title="Vacation offers and deals"), "https://travel.example/offers").text
    assert text.count("nor applied to bookings made by travel agents") == 3
    assert text.count("The offer has no cash value") == 3


def faq_page(question: str, answer: str) -> dict[str, object]:
    """A shop's FAQ section as its JSON-LD declares it: a FAQPage of one question."""
    return {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": [
            {"@type": "Question", "name": question, "acceptedAnswer": {"@type": "Answer", "text": answer}}
        ],
    }


def test_a_faq_pages_questions_do_not_declare_a_thread() -> None:
    # a shop's or a service's FAQ declares its questions and answers inside a FAQPage: a section
    # of the page, not a discussion; a Q&A page or a forum's posting declared beside one still is
    faq = faq_page("Is it dishwasher safe?", "Yes, on the top rack.")
    assert not declares_thread(json_ld(faq))
    assert declares_thread(json_ld(faq) + json_ld({"@type": "QAPage", "mainEntity": {"@type": "Question"}}))
    assert declares_thread(json_ld(faq) + '<article itemtype="https://schema.org/DiscussionForumPosting">')


def test_a_review_widgets_reviews_marked_by_their_data_attributes_are_left_out() -> None:
    # a review widget whose classes say "rev" marks each review with its data attributes
    # (data-review-id); the page's FAQ, declared as a FAQPage, does not make its reviews a thread
    faq = faq_page("Does the whistle come off?", "Yes: lift it off to boil quietly.")
    reviews = "".join(
        f'<div class="wdg-rev" data-review-id="r{i}" data-verified-buyer="true"><div class="wdg-rev__header">'
        f'<span class="wdg-rev__rating" aria-label="5 star review" role="img"></span>'
        f'<span class="wdg-rev__author">{who}</span></div><div class="wdg-rev__body"><p>{said}</p></div></div>'
        for i, (who, said) in enumerate(KETTLE_REVIEWS)
    )
    body = (
        f"{NAV}<main><h1>Whistling stainless steel kettle 2.5 l</h1><p class='price'>$48.00</p>"
        f"<p>{KETTLE_DESCRIPTION}</p><h2>Does the whistle come off?</h2><p>Yes: lift it off to boil quietly.</p>"
        f"<h2>Customer reviews</h2><div class='wdg-rev-widg__reviews'>{reviews}</div></main>{FOOTER}"
    )
    html = page(body, head=json_ld(faq), title="Whistling stainless steel kettle 2.5 l | Example Kitchen")
    text = read_html_page(html, "https://kitchen.example/kettle").text
    assert "$48.00" in text and "five-year guarantee" in text
    assert not any(said[:40] in text for _, said in KETTLE_REVIEWS)


def test_a_product_page_trafilatura_flattens_whole_is_read_by_its_paragraphs() -> None:
    # a marketplace's item page written in <div>s and <span>s, no paragraph, no main region:
    # trafilatura finds no main text and gives the body's text as one paragraph, its menu and its
    # rails of other items with the item's description; jusText's paragraphs are the item's
    menu = "".join(
        f'<div class="menu-item"><a href="/b/{n}"><span>{n}</span></a></div>'
        for n in ("Motors", "Parts and accessories", "Clothing", "Collectibles", "Sporting goods", "Toys")
    )
    rail = "".join(
        f'<div class="card"><a href="/itm/{i}"><span>{name}</span></a><div><span>${price}</span></div></div>'
        for i, (name, price) in enumerate(
            (
                ("Enamel camping kettle 1 l", "19.99"),
                ("Copper tea kettle", "64.00"),
                ("Glass kettle", "27.50"),
            )
        )
    )
    item = (
        "<div class='item'><div><span>Whistling stainless steel kettle 2.5 l</span></div>"
        "<div><span>US $48.00</span></div>"
        f"<div class='desc'><span>{KETTLE_DESCRIPTION}</span></div></div>"
    )
    body = f"<div class='header'>{menu}</div>{item}<div class='rail'><span>Similar items</span>{rail}</div>"
    html = page(body, head=json_ld(TRAIL_RUNNER_OFFER | {"name": "Whistling stainless steel kettle 2.5 l"}))
    read = read_html_page(html, "https://market.example/itm/1")
    assert "five-year guarantee" in read.text
    assert "Copper tea kettle" not in read.text and "Sporting goods" not in read.text


HEADLINES = [
    "Hunting for elusive ghost elephants in the forests of Angola",
    "A unicorn-like dinosaur with a tall crest found in the Sahara",
    "Why the exploration upper stage was cancelled after ten years",
    "Everyone is trying to hack the security cameras of their rivals",
    "How moss helped convict the grave robbers of a Chicago cemetery",
    "Satellite firm pauses imagery after its pictures revealed a strike",
    "The new command-line tool that plugs an assistant into your mail",
    "Asteroid defence mission shifted the orbit of more than its target",
]


def test_a_page_of_linked_headlines_keeps_each_entrys_title() -> None:
    # a front page's stories, each in boxes of its own shape (no run of cards), each titled by a
    # link in a heading above a teaser and a linked byline; trafilatura drops the titles as links
    boxes = "".join(
        f"<div class='zone-{i}'><div class='layout-{i % 3}'><article class='story-{i}'>"
        f"<a href='/{i}/story'><img src='/{i}.jpg' alt=''></a><h3><a href='/{i}/story'>{title}</a></h3>"
        f"<p>Story {i}: our reporter spent a week finding out what the people who know this story best "
        "think of it, what they fear, what they hope for, and what comes next for them and for everyone "
        f"else who lives nearby, in the town and beyond it.</p><p><a href='/author/{i}'>Staff Writer "
        f"{i}</a> – 3/7/2026 | <a href='/{i}/story#comments'>{i + 12}</a></p></article></div></div>"
        for i, title in enumerate(HEADLINES)
    )
    body = (
        f"<header>{NAV}</header><div class='page'><h1>Science and technology news</h1><p>Updated "
        f"<time datetime='2026-03-07'>March 7, 2026</time></p>{boxes}</div>{FOOTER}"
    )
    html = page(body, title="Science and technology news | Example Times")
    text = read_html_page(html, "https://times.example/").text
    assert all(title in text for title in HEADLINES)


RECIPE_SHELVES = {
    "Top Rated Air Fryer Recipes": ["Crispy Air Fryer Salmon Bites", "Honey Chipotle Chicken Skewers", "Crispy Air Fryer Tofu Cubes"],
    "Air Fryer Chicken Recipes": ["Yummy Air Fryer Chicken Tenders", "Crispy Gochujang Chicken Thighs", "Crispy Chicken Cutlets Tonight"],
    "All Air Fryer Recipes": ["Crispy Smashed Potato Salad", "Garlic Black Pepper Beef Skewers", "Air Fryer Broccoli With Lemon"],
}  # fmt: skip


def test_an_index_of_entries_that_calls_itself_an_article_keeps_its_linked_headings() -> None:
    # a recipe blog's category page says og:type article; its recipes are <article>s in shelves of
    # three, each one link around its picture, its <h3> name and its rating, and no story beside them
    shelves = "".join(
        f"<section><h2>{shelf}</h2><div class='carousel'>"
        + "".join(
            f'<article class="cell"><a href="/r/{i}"><img src="/i/{i}.jpg" alt=""><h3>{name}</h3>'
            f'<div class="rating"><span>{20 + 3 * k + i} reviews</span> / <span>5 average</span></div></a></article>'
            for i, name in enumerate(names)
        )
        + "</div></section>"
        for k, (shelf, names) in enumerate(RECIPE_SHELVES.items())
    )
    intro = (
        "<p>I love a meal with crispiness and crunch, and these air fryer recipes deliver! The air fryer is a "
        "weeknight dinner superstar for me, perfectly cooked salmon and crispy tofu in minutes.</p>"
    )
    body = f"<div class='content'><h1>Air Fryer Recipes</h1>{intro}{shelves}</div>"
    head = '<meta property="og:type" content="article">'
    text = read_html_page(
        page(body, head, title="Air Fryer Recipes"), "https://recipes.example/air-fryer"
    ).text
    top_rated, chicken, _ = RECIPE_SHELVES.values()
    assert all(name in text for name in [*top_rated, *chicken])


def test_a_story_that_calls_itself_an_article_leaves_out_the_entries_linked_below_it() -> None:
    # the same shelves of <article>s under a story of more paragraphs than entries: other stories
    story = "".join(
        f"<p>Paragraph {i} of the story about air fryers, long enough to be prose: it says how the machine "
        "blows hot air around the food, how long each dish takes, and what to watch for on the way.</p>"
        for i in range(12)
    )
    shelves = "".join(
        f"<section><h2>{shelf}</h2><div class='carousel'>"
        + "".join(
            f'<article class="cell"><a href="/r/{i}"><img src="/i/{i}.jpg" alt=""><h3>{name}</h3></a></article>'
            for i, name in enumerate(names)
        )
        + "</div></section>"
        for shelf, names in RECIPE_SHELVES.items()
    )
    body = f"<div class='content'><h1>How an air fryer works</h1>{story}{shelves}</div>"
    head = '<meta property="og:type" content="article">'
    text = read_html_page(
        page(body, head, title="How an air fryer works"), "https://recipes.example/how"
    ).text
    assert "Paragraph 11 of the story" in text
    assert not any(name in text for names in RECIPE_SHELVES.values() for name in names)
