"""The HTML pages through Flask's test client: what a reader sees and can follow."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import pytest
from web_fixtures import Page, build_odd_index, copy_course, serving

from lessonsearch.build import build_index
from lessonsearch.search_log import read_zero_results
from lessonsearch.searcher import MAX_QUERY_CHARS
from lessonsearch.web import Settings, create_app
from lessonsearch.web.request_index import live_index


@pytest.fixture
def client(tiny_index: Path):
    with serving(tiny_index) as client:
        yield client


def page(client, url: str, status: int = 200) -> Page:
    got = client.get(url)
    assert got.status_code == status, url
    assert got.mimetype == "text/html"
    return Page(got.get_data(as_text=True))


COURSE = "A Tiny Course on Models"
COURSE_URL = "https://courses.example.test/tiny"


def framed_by_the_course(p: Page, heading: str) -> None:
    """The page has what every page has: the course's name in the title and the header, the
    site's navigation and the way back to the course."""
    assert p.title == f"{heading} · {COURSE}"
    assert f"Skip to content {COURSE} Search Glossary {heading} " in p.text, p.text
    assert {"/", "/glossary", COURSE_URL} <= set(p.links())
    assert "Back to the course" in p.text


def hit_links(p: Page) -> list[str]:
    """The links to lesson sections in the results."""
    return p.links(within="hits")


# --- The frame every page shares --------------------------------------------------------------


@pytest.mark.parametrize("url", ["/", "/search?q=token", "/glossary", "/glossary/token"])
def test_every_page_has_landmarks_a_skip_link_and_a_language(client, url):
    p = page(client, url)
    assert p.find("html", lang="en")
    for landmark in ("header", "main", "nav", "footer"):
        assert p.find(landmark), landmark
    skip = p.find("a", class_="skip")
    assert skip and skip[0]["href"] == "#main-content"
    assert p.find("main", id="main-content")
    assert p.find("link", rel="search", type="application/opensearchdescription+xml",
                  href="/opensearch.xml")
    assert p.find("meta", name="viewport")


@pytest.mark.parametrize("url", ["/", "/search?q=token", "/glossary", "/glossary/kv-cache",
                                 "/search?q=", "/no-such-page"])
def test_pages_have_no_inline_script_or_style_for_the_csp(client, url):
    got = client.get(url)
    assert "script-src 'self'" in got.headers["Content-Security-Policy"]
    assert "frame-ancestors 'self'" in got.headers["Content-Security-Policy"]
    assert got.headers["X-Content-Type-Options"] == "nosniff"
    assert got.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    p = Page(got.get_data(as_text=True))
    assert all(attrs.get("src") for tag, attrs in p.tags if tag == "script")
    assert not p.find("style")
    assert not [tag for tag, attrs in p.tags if "style" in attrs or
                any(name.startswith("on") for name in attrs)]
    assert got.headers["X-Content-Type-Options"] == "nosniff"


def test_the_stylesheet_and_script_are_served_from_the_package(client):
    with client.get("/static/style.css") as css:
        assert css.status_code == 200
        assert b"prefers-color-scheme: dark" in css.data
        assert b"http" not in css.data  # no external fonts or images
    with client.get("/static/suggest.js") as script:
        assert script.status_code == 200


# --- Home and search --------------------------------------------------------------------------


def test_home_is_a_plain_get_form_with_a_label(client):
    p = page(client, "/")
    form = p.find("form")[0]
    assert form["action"] == "/search" and form["method"] == "get"
    search_box = p.find("input", name="q")[0]
    assert p.find("label", for_=search_box["id"])
    assert p.find("label", for_="module") and p.find("label", for_="lesson")
    assert "Tokens and vocabularies" in p.text and "The KV cache" in p.text


def test_every_search_box_takes_the_longest_query_the_service_searches(client):
    """The page's box, the embeddable box and the OpenAPI document say the limit the search
    keeps (a pasted traceback of a few frames): the boxes cut a paste at 512 characters,
    the document said 512."""
    assert p_box_length(client) == MAX_QUERY_CHARS
    with client.get("/static/lessonsearch.js") as script:
        assert f'maxlength: "{MAX_QUERY_CHARS}"'.encode() in script.data
    document = client.get("/api/openapi.json").get_data(as_text=True)
    assert set(re.findall(r'"maxLength": ?(\d+)', document)) == {str(MAX_QUERY_CHARS)}


def p_box_length(client) -> int:
    return int(page(client, "/").find("input", name="q")[0]["maxlength"])


def test_results_are_grouped_by_lesson_with_up_to_three_sections(client):
    p = page(client, "/search?q=token")
    lesson_titles = [a["id"] for a in p.find("h2") if a.get("id", "").startswith("lesson-")]
    assert lesson_titles[:2] == ["lesson-tokens", "lesson-kv-cache"]
    assert len(lesson_titles) == len(set(lesson_titles))
    for slug in ("tokens", "kv-cache"):
        shown = [h for h in hit_links(p) if f"/tiny/{slug}" in h]
        assert 1 <= len(shown) <= 3, slug


def test_more_from_this_lesson_narrows_the_search(client):
    p = page(client, "/search?q=token")
    more = [h for h in p.links() if "lesson=tokens" in h]
    assert more, "the tokens lesson has more than three matching sections"
    assert parse_qs(urlsplit(more[0]).query) == {"q": ["token"], "lesson": ["tokens"]}
    narrowed = page(client, more[0])
    in_lesson = [h for h in hit_links(narrowed) if "/tiny/tokens" in h]
    other = [h for h in hit_links(narrowed) if "/tiny/tokens" not in h]
    assert len(in_lesson) > 3
    assert other == []


@pytest.mark.parametrize("query", ["memory", "cache", "token", "the cache", "softmax"])
def test_section_links_land_on_the_section(client, query):
    """A ``:~:text=`` directive is looked for from the top of the page, ahead of the anchor:
    the matched words written earlier on the page (or not as the index read them) took the
    reader to another section or left them at the top. A hit links to its section's anchor,
    as the API does; only a passage without one carries the directive of its first words."""
    links = hit_links(page(client, f"/search?q={query}"))
    api = client.get(f"/api/search?q={query}&limit=50").get_json()
    assert links and set(links) <= {hit["url"] for hit in api["results"]}
    for link in links:
        anchor = urlsplit(link).fragment  # none for a lesson's opening, before any heading
        assert anchor.startswith(":~:text=") or ":~:" not in anchor, link


def test_the_term_card_comes_first_when_the_query_names_a_term(client):
    got = client.get("/search?q=KV+cache")
    html = got.get_data(as_text=True)
    card = html.index('class="card"')
    assert card < html.index('class="group"')
    p = Page(html)
    assert "/glossary/kv-cache" in p.links()
    assert "The stored keys and values of earlier tokens" in p.text


def test_a_typo_says_which_search_the_results_are_for(client):
    """The typed word finds nothing, so the results shown are the corrected search's:
    "Did you mean" asked a question the page had already answered."""
    p = page(client, "/search?q=temprature")
    assert "Showing results for “ temperature ”." in p.text
    assert "Did you mean" not in p.text
    assert "/search?q=temperature" in p.links()


def test_a_corrected_question_is_shown_with_its_own_question_mark(client):
    """"Did you mean what is temperature??" had the question's own mark, then the
    sentence's; the results for the corrected question end with one, then a full stop."""
    p = page(client, "/search?q=what+is+temprature%3F")
    assert "Showing results for “ what is temperature? ”." in p.text
    assert "?”?" not in p.text.replace(" ", "") and "??" not in p.text
    assert "/search?q=what+is+temperature?" in p.links()


def test_relaxed_results_say_so(client):
    assert "No section has every word" in page(client, "/search?q=zebra+token+cache").text


def test_no_results_says_so(client):
    assert "No sections match “qqqzzz”" in page(client, "/search?q=qqqzzz").text


def test_no_results_points_the_reader_onward(client):
    """The page said only "No sections match": now where else to look, and no tips for a
    query of plain words."""
    p = page(client, "/search?q=qqqzzz")
    assert "Try other words, or browse the glossary , the list of lessons or the course " \
           "itself ." in p.text
    assert p.links(within="onward") == ["/glossary", "/#lessons-heading", COURSE_URL]
    assert "Search tips" not in p.text
    assert page(client, "/").find("h2", id="lessons-heading")
    assert not page(client, "/search?q=token").find("p", class_="onward")


@pytest.mark.parametrize("query, tips", [
    ('"token qqqzzz"', ["Words in quotes are found only side by side"]),
    ("qqqzzz -token", ["A word after - or NOT leaves out every section that has it"]),
    ("qqqzzz NOT token", ["A word after - or NOT"]),
    ("qqqzzz OR zzzqqq", ["With OR, a section needs every word of one side"]),
    ('qqqzzz OR ("key cache" -token)', ["A word after - or NOT", "With OR,", "Words in quotes"]),
    ("--qqqzzz", []),
])
def test_no_results_for_a_query_with_operators_gives_search_tips(client, query, tips):
    p = page(client, "/search?" + urlencode({"q": query}))
    assert "No sections match" in p.text
    assert [tip for tip in tips if tip in p.text] == tips
    assert bool(p.find("ul", class_="tips")) == ("Search tips" in p.text) == bool(tips)


def test_a_count_of_one_is_worded_in_the_singular(client):
    assert "1 matching section in 1 lesson." in page(client, "/search?q=memory").text
    assert re.search(r"\b\d+ matching sections in [2-9] lessons\.",
                     page(client, "/search?q=token").text)


def test_module_filter_keeps_only_that_module_and_stays_selected(client):
    p = page(client, "/search?q=token&module=memory")
    hosts = {urlsplit(h).path for h in hit_links(p)}
    assert hosts and all(path.startswith(("/tiny/kv-cache", "/tiny/notes")) for path in hosts)
    assert p.find("option", value="memory", selected="")


@pytest.mark.parametrize("url, said, wider, label", [
    ("/search?q=token&lesson=nope", "No lesson “nope” in this course.",
     {"q": ["token"]}, "Search every lesson for “token”"),
    ("/search?q=token&module=memory&lesson=nope&page=2", "No lesson “nope”",
     {"q": ["token"], "module": ["memory"]}, "Search every lesson for “token”"),
    ("/search?q=token&module=nope", "No module “nope” in this course.",
     {"q": ["token"]}, "Search every module for “token”"),
])
def test_an_unknown_filter_says_so_and_links_the_wider_search(client, url, said, wider, label):
    p = page(client, url, status=400)
    assert said in p.text
    assert "No sections match" not in p.text
    link = next(a for a in p.find("a") if a.get("href", "").startswith("/search?"))
    assert parse_qs(urlsplit(link["href"]).query) == wider
    assert label in p.text
    assert page(client, link["href"]).find("ol", class_="hits")



def test_a_lesson_outside_the_module_chosen_is_said_to_be(client):
    """Both filters, and the lesson is in another module: the page said no section of the
    lesson matched, which is false (the module excluded them), and its "search every
    lesson" link kept the module."""
    p = page(client, "/search?q=token&module=memory&lesson=tokens")
    assert "the lesson “Tokens and vocabularies” is not in the module “Memory”" in p.text, p.text
    wider = [parse_qs(urlsplit(a["href"]).query) for a in p.find("a")
             if a.get("href", "").startswith("/search?")]
    assert {"q": ["token"], "lesson": ["tokens"]} in wider
    assert {"q": ["token"], "module": ["memory"]} in wider
    assert page(client, "/search?q=token&lesson=tokens").find("ol", class_="hits")


def test_a_lesson_in_the_module_chosen_links_every_lesson_of_the_module(client):
    p = page(client, "/search?q=zzzqqq&module=memory&lesson=kv-cache")
    assert "No sections match “zzzqqq” in “The KV cache”" in p.text
    assert "search every lesson in “Memory”" in p.text
    wider = [parse_qs(urlsplit(a["href"]).query) for a in p.find("a")
             if a.get("href", "").startswith("/search?")]
    assert wider == [{"q": ["zzzqqq"], "module": ["memory"]}]


def test_a_module_filter_links_every_module(client):
    p = page(client, "/search?q=token&module=memory")
    assert "lesson in “Memory” · search every module" in p.text
    wider = [parse_qs(urlsplit(a["href"]).query) for a in p.find("a")
             if a.get("href", "").startswith("/search?")]
    assert {"q": ["token"]} in wider

def test_pagination_walks_through_lessons(tiny_index: Path):
    with serving(tiny_index, groups_per_page=1) as client:
        first = page(client, "/search?q=token")
        assert "Page 1 of" in first.text
        next_link = first.find("a", rel="next")[0]["href"]
        assert parse_qs(urlsplit(next_link).query) == {"q": ["token"], "page": ["2"]}
        second = page(client, next_link)
        assert second.find("a", rel="prev")
        firsts = {a["id"] for a in first.find("h2") if a.get("id", "").startswith("lesson-")}
        seconds = {a["id"] for a in second.find("h2") if a.get("id", "").startswith("lesson-")}
        assert len(firsts) == len(seconds) == 1
        assert firsts != seconds


@pytest.mark.parametrize("url", ["/search?q=", "/search", "/search?q=+%20+", "/search?q=%00%07",
                                 "/search?q=&page=0"])
def test_search_pressed_on_an_empty_box_shows_the_box_again(client, url):
    """Not a 400 page saying the query is empty: the reader made no mistake worth one."""
    p = page(client, url)
    framed_by_the_course(p, "Search")
    assert ("input", "") in [(t, a.get("value")) for t, a in p.tags if a.get("name") == "q"]
    assert "empty" not in p.text and not p.find("p", role="alert")
    assert "https://courses.example.test/tiny/kv-cache" in p.links()  # the lessons, as on /
    assert client.get(url.replace("/search", "/api/search")).status_code == 400


def test_an_empty_search_keeps_the_filter_chosen(client):
    p = page(client, "/search?q=&module=memory")
    assert p.find("option", value="memory", selected="")
    refused = page(client, "/search?q=&lesson=nope", 400)
    assert "No lesson “nope” in this course." in refused.text
    assert "Search every lesson" in refused.text and "for “”" not in refused.text


def test_a_query_over_the_word_limit_shows_its_first_64_words_results_and_says_so(client):
    """A pasted paragraph was refused; the results of its first 64 words are shown, under a
    notice that the rest were left out."""
    whole = page(client, "/search?q=" + "+".join(["token"] * 64))
    p = page(client, "/search?q=" + "+".join(["token"] * 64 + ["zebra", "-token"]))
    assert ("Searched the first 64 words and phrases of 66; the rest were left out, among "
            "them 1 to exclude.") in p.text
    assert len(p.find("p", class_="notice")) == 1 and not whole.find("p", class_="notice")
    assert p.links(within="hits") == whole.links(within="hits") != []


@pytest.mark.parametrize("url, words", [
    ("/search?q=" + "a" * 4097, "the limit is 4096"),
    ("/search?q=-model", "only excludes"),
    ("/search?q=%28%29", "The query has no word to search for (())"),
    ("/search?q=" + "+".join([f"-w{n}" for n in range(64)] + ["token"]),
     "only excludes words in its first 64 words and phrases of 65"),
    ("/search?q=" + "+".join(f"%22the+{w}%22" for w in "abcdefghi"),
     "Too many phrases: the query has 9"),
    ("/search?q=token&page=zero", "page"),
])
def test_bad_searches_show_the_form_and_a_400(client, url, words):
    p = page(client, url, status=400)
    assert words in p.text
    assert p.find("input", name="q")


# --- Escaping -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def odd_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_odd_index(tmp_path_factory.mktemp("odd"))


def test_lesson_text_and_titles_are_escaped_and_only_marks_survive(odd_index: Path):
    with serving(odd_index) as client:
        html = client.get("/search?q=zephyrology").get_data(as_text=True)
    assert "Zephyr &lt;b&gt;&amp; friends&lt;/b&gt;" in html
    assert "<b>" not in html and "<i>" not in html
    assert "<mark>zephyrology</mark>" in html.lower()
    assert "models &amp;" in html


def test_the_query_is_escaped_back_into_the_page(client):
    html = client.get('/search?q=<script>alert("x")</script>').get_data(as_text=True)
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert" in html


@pytest.mark.parametrize("url, status, shown", [
    ("/search?q=tok%00en%1b", 200, "tok en"),
    ("/search?q=%00%07", 200, "Search the course"),
    ("/search?q=token&lesson=to%00kens", 400, "No lesson “to kens”"),
    ("/glossary/tok%00en", 404, "No term named “tok en”"),
])
def test_control_characters_never_reach_a_page(client, url, status, shown):
    got = client.get(url)
    assert got.status_code == status
    html = got.get_data(as_text=True)
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", html)
    assert shown in Page(html).text


def test_a_query_with_control_characters_is_listed_clean_on_the_coverage_page(tmp_path: Path):
    index_dir = build_odd_index(tmp_path)
    with serving(index_dir) as client:
        assert client.get("/api/search?q=qqzz%00xx%1bvv").get_json()["query"] == "qqzz xx vv"
        html = client.get("/coverage").get_data(as_text=True)
    assert "qqzz xx vv" in Page(html).text
    assert "\x00" not in html and "\x1b" not in html


def test_a_query_that_is_not_utf8_is_refused_alike_by_page_and_api_and_never_logged(
        tmp_path: Path):
    """``q=%ff%fe`` was searched, shown and logged as the text ``%FF%FE``, as if typed."""
    index_dir = build_odd_index(tmp_path)
    sentence = "The q parameter must be UTF-8 text, and its byte %FF is not part of any character."
    with serving(index_dir) as client:
        for url in ("/api/search?q=caf%c3%a9%ff%fe", "/api/suggest?q=caf%c3%a9%ff%fe"):
            got = client.get(url)
            assert got.status_code == 400 and got.get_json() == {"error": sentence}
        p = page(client, "/search?q=caf%c3%a9%ff%fe", 400)
        assert sentence in p.text
        assert ("input", {"id": "q", "value": "café\ufffd\ufffd"}) in [
            (tag, {k: a[k] for k in ("id", "value") if k in a}) for tag, a in p.tags]
        typed = client.get("/api/search?q=%25FF%25FE").get_json()  # the text, typed
        assert typed["query"] == "%FF%FE" and typed["total"] == 0
    assert [z.query for z in read_zero_results(index_dir)] == ["%FF%FE"]


# --- Glossary -----------------------------------------------------------------------------------


def test_glossary_lists_every_term_a_to_z_with_its_own_anchor(client):
    p = page(client, "/glossary")
    expected = client.get("/api/terms").get_json()["terms"]
    ids = [a["id"] for tag, a in p.tags if tag == "dt"]
    assert ids == [t["anchor"] for t in expected]
    letters = [a["href"] for a in p.find("a") if a.get("href", "").startswith("#letter-")]
    assert letters == ["#letter-k", "#letter-t", "#letter-v"]


def test_a_term_page_shows_definition_definer_and_mentions(client):
    p = page(client, "/glossary/key-value cache")
    assert p.find("h1")
    assert "KV cache" in p.text
    assert "The stored keys and values of earlier tokens" in p.text
    assert "https://courses.example.test/tiny/kv-cache#keys-and-values-are-kept" in p.links()
    mentions = client.get("/api/terms/KV cache").get_json()["mentions"]
    assert mentions and all(m["url"] in p.links() for m in mentions)


def _models_course(folder: Path) -> Path:
    """Four lessons (so one changed is patched, not rewritten), the first mentioning base
    model above its first heading and under it, and a glossary whose aliases are plurals
    and British spellings of their terms, and one, C sharp, only a name's spelling."""
    lessons = folder / "lessons"
    lessons.mkdir(parents=True)
    (lessons / "01-models.md").write_text(
        "---\ntitle: Where models start\n---\n\nEvery assistant was a base model once.\n\n"
        "## Pretraining first {#pretraining}\n\nPretraining makes base models. A tokeniser "
        "cuts their text; C sharp and C# are one language.\n", encoding="utf-8")
    for number, topic in enumerate(["Soup", "Bread", "Salad"], start=2):
        (lessons / f"0{number}-{topic.lower()}.md").write_text(
            f"---\ntitle: {topic}\n---\n\n## Making it\n\n{topic} is made by hand.\n",
            encoding="utf-8")
    (folder / "glossary").mkdir()
    (folder / "glossary" / "glossary.md").write_text(
        "base model\n: A model trained only to predict the next token.\n"
        "  Also: base models, pretrained model\n\n"
        "tokenizer\n: What cuts text into tokens.\n  Also: tokeniser, Tokenisers, tokenization\n\n"
        "C#\n: A programming language.\n  Also: C sharp\n", encoding="utf-8")
    return folder


def _mentions_listed(html: str) -> list[str]:
    """Each line of a term page's "Where it is mentioned" list, as a reader reads it."""
    listed = html.split('<ul class="mentions">', 1)[1].split("</ul>", 1)[0]
    return [Page(item).text for item in re.findall(r"<li>(.*?)</li>", listed, re.S)]


def test_a_mention_is_listed_by_its_sections_heading_after_an_incremental_build_too(
        tmp_path, monkeypatch):
    """The term page listed a mention as its lesson's title and ``#anchor``; it names the
    section by its heading, as the API does, and the lesson's top by the title alone. A
    heading renamed (its anchor kept) shows after a build that patches the glossary file."""
    from lessonsearch import glossary_build

    course = _models_course(tmp_path / "course")
    build_index(course / "lessons", course / "glossary", tmp_path / "index")
    with serving(tmp_path / "index") as client:
        assert _mentions_listed(client.get("/glossary/base-model").get_data(as_text=True)) == [
            "Where models start · 1×", "Where models start › Pretraining first · 1×"]
        mentions = client.get("/api/terms/base-model").get_json()["mentions"]
        assert [(m["anchor"], m["heading"]) for m in mentions] == [
            (None, None), ("pretraining", "Pretraining first")]
    lesson = course / "lessons" / "01-models.md"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(
        "Pretraining first", "Before any tuning"), encoding="utf-8")
    patched: list = []
    patch = glossary_build.patch_glossary_table
    monkeypatch.setattr(glossary_build, "patch_glossary_table",
                        lambda *args: patched.append(args) or patch(*args))
    build_index(course / "lessons", course / "glossary", tmp_path / "index")
    assert patched  # one lesson of four: its rows replaced in the previous version's file
    with serving(tmp_path / "index") as client:
        assert _mentions_listed(client.get("/glossary/base-model").get_data(as_text=True)) == [
            "Where models start · 1×", "Where models start › Before any tuning · 1×"]
        mentions = client.get("/api/terms/base-model").get_json()["mentions"]
        assert [(m["anchor"], m["heading"]) for m in mentions] == [
            (None, None), ("pretraining", "Before any tuning")]


def test_an_alias_that_is_the_terms_plural_or_british_spelling_is_not_listed(tmp_path):
    """``Also: base models`` was listed as an alias (\"also base models\" on /glossary),
    though a last word's plural is the same name; so were British spellings. They are left
    out, as a respelling is, and still find the term and count as its mentions. C sharp is
    no spelling the name C# matches, and stays."""
    course = _models_course(tmp_path / "course")
    build_index(course / "lessons", course / "glossary", tmp_path / "index")
    with serving(tmp_path / "index") as client:
        terms = {t["term"]: t for t in client.get("/api/terms").get_json()["terms"]}
        assert {name: t["aliases"] for name, t in terms.items()} == {
            "base model": ["pretrained model"], "tokenizer": ["tokenization"],
            "C#": ["C sharp"]}
        assert {name: t["mentions"] for name, t in terms.items()} == {
            "base model": 2, "tokenizer": 1, "C#": 2}
        text = page(client, "/glossary").text
        assert "also pretrained model" in text and "base models" not in text
        assert "Also called pretrained model" in page(client, "/glossary/base-model").text
        for name, term in (("base models", "base model"), ("tokenisers", "tokenizer"),
                           ("Tokenisers", "tokenizer")):
            assert client.get(f"/api/terms/{name}").get_json()["term"] == term
            cards = client.get(f"/api/search?q={name}").get_json()["terms"]
            assert [c["term"] for c in cards] == [term]


def test_an_alias_that_is_another_aliass_plural_is_not_listed(sample_index):
    """The sample course's attention head was "Also called head, heads": heads is head's
    plural, found by it, as base models is found by base model. The first written stays;
    the plural still looks the term up and counts its mentions."""
    with serving(sample_index) as client:
        text = page(client, "/glossary/attention-head").text
        assert "Also called head One of several" in text and "head, heads" not in text
        term = client.get("/api/terms/attention-head").get_json()
        assert term["aliases"] == ["head"]
        assert client.get("/api/terms/heads").get_json()["term"] == "attention head"
        cards = client.get("/api/search?q=heads").get_json()["terms"]
        assert [c["term"] for c in cards] == ["attention head"]


@pytest.mark.parametrize("name, said", [("temperature", "In the glossary ."),
                                        ("token", "Also in the glossary .")])
def test_a_term_page_says_the_glossary_defines_it_not_in_which_file(client, name, said):
    """"Glossary entry: glossary/glossary.md:13" told readers a file and line of the
    course's sources; the API's ``source`` keeps them for editors and tools."""
    p = page(client, f"/glossary/{name}")
    assert said in p.text
    assert f"/glossary#{name}" in p.links()
    assert "glossary.md" not in p.text and not re.search(r":\d+\b", p.text)
    assert client.get(f"/api/terms/{name}").get_json()["source"].startswith("glossary/glossary.md:")


def test_see_also_links_to_other_terms(client):
    p = page(client, "/glossary/token")
    assert "/glossary/vocabulary" in p.links()
    page(client, "/glossary/vocabulary")


def test_see_also_naming_no_term_is_a_warning_and_no_link(tmp_path):
    """A link to a term that does not exist leads to a 404; an alias is a term's name."""
    course = copy_course(tmp_path / "course")
    glossary = course / "glossary" / "glossary.md"
    text = glossary.read_text(encoding="utf-8")
    glossary.write_text(text.replace("See also: vocabulary",
                                     "See also: vocabulary, gizmo, KV-caches"), encoding="utf-8")
    report = build_index(course / "lessons", course / "glossary", tmp_path / "index")
    assert [str(p) for p in report.problems] == [  # line 7: token's "See also:"
        "glossary/glossary.md:7: See also 'gizmo' names no term of the glossary or the "
        "lessons; it is not linked."]
    with serving(tmp_path / "index") as client:
        p = page(client, "/glossary/token")
        assert "/glossary/vocabulary" in p.links()
        assert not [link for link in p.links() if "gizmo" in link]
        assert "gizmo" not in p.text
        assert client.get("/api/terms/token").get_json()["see_also"] == ["vocabulary",
                                                                         "KV-caches"]


def _indexes_course(folder: Path) -> Path:
    """One lesson and a glossary whose terms claim each other's anchors: twice ``{#index}``
    in one file, ``anchor: index`` in a one-term file, an anchor written for B-tree that is
    the one covering index's name gives, and two names with no ASCII letter, whose anchors
    are their own letters (both were ``untitled``)."""
    (folder / "lessons").mkdir(parents=True)
    (folder / "lessons" / "01-indexes.md").write_text(
        "---\ntitle: Indexes\n---\n\n## Finding rows\n\nAn index finds rows fast. A "
        "secondary index finds them by another column, a clustered index keeps them in its "
        "order, a covering index answers without the table, and each is a B-tree. Within δ "
        "of the key means within ε of it.\n", encoding="utf-8")
    glossary = folder / "glossary"
    glossary.mkdir()
    (glossary / "a.md").write_text(
        "index {#index}\n: A structure that finds rows without reading them all.\n\n"
        "secondary index {#index}\n: An index on a column that is not the key.\n\n"
        "B-tree {#covering-index}\n: The balanced tree most indexes are.\n\n"
        "δ\n: A small distance.\n\nε\n: A smaller distance.\n", encoding="utf-8")
    (glossary / "b.md").write_text("---\nterm: covering index\n---\n\n"
                                   "An index that holds every column a query reads.\n",
                                   encoding="utf-8")
    (glossary / "c.md").write_text("---\ntitle: Clustered\nterm: clustered index\n"
                                   "anchor: index\n---\n\nAn index the table is sorted by.\n",
                                   encoding="utf-8")
    return folder


def test_terms_written_with_one_anchor_each_get_their_own(tmp_path):
    """``secondary index {#index}`` below ``index {#index}`` was linked to /glossary/index,
    the index page, on the glossary, the coverage report and the search cards, and
    /glossary had two ``id="index"``. A term keeps its own name's anchor; the later of two
    others claiming one gets its name's, or that with -1 when it is taken too, with a
    warning naming both, at the line of the anchor it gave up (a front matter's
    ``anchor:``, not its ``term:``)."""
    course = _indexes_course(tmp_path / "course")
    report = build_index(course / "lessons", course / "glossary", tmp_path / "index")
    taken = "glossary/{}: The anchor {!r} of {!r} is the anchor of {!r} ({}) too; {!r} has " \
            "the anchor {!r}."
    assert [str(p) for p in report.problems] == [
        taken.format("a.md:4", "index", "secondary index", "index", "glossary/a.md:1",
                     "secondary index", "secondary-index"),
        taken.format("a.md:7", "covering-index", "B-tree", "covering index", "glossary/b.md:2",
                     "B-tree", "b-tree"),
        taken.format("c.md:4", "index", "clustered index", "index", "glossary/a.md:1",
                     "clustered index", "clustered-index")]
    expected = {"B-tree": "b-tree", "clustered index": "clustered-index",
                "covering index": "covering-index", "index": "index",
                "secondary index": "secondary-index", "δ": "δ", "ε": "ε"}
    with serving(tmp_path / "index") as client:
        terms = client.get("/api/terms").get_json()["terms"]
        assert {t["term"]: t["anchor"] for t in terms} == expected
        glossary = page(client, "/glossary")
        assert sorted(a["id"] for tag, a in glossary.tags if tag == "dt") == sorted(
            expected.values())
        coverage = page(client, "/coverage")
        for term, anchor in expected.items():
            link = f"/glossary/{anchor}"
            assert f"/glossary/{quote(anchor)}" in glossary.links()
            assert f"/glossary/{quote(anchor)}" in coverage.links()
            assert f"<h1>{term}</h1>" in client.get(link).get_data(as_text=True)
            assert client.get(f"/api/terms/{anchor}").get_json()["term"] == term
        cards = client.get("/api/search?q=secondary index").get_json()["terms"]
        assert [c["glossary_anchor"] for c in cards if c["term"] == "secondary index"] == [
            "secondary-index"]
        assert "/glossary/secondary-index" in page(client, "/search?q=secondary index").links()


def _named_anchors_course(folder: Path) -> Path:
    """One lesson and a glossary whose ``{#anchor}`` are other terms' names: B-tree's
    ``{#Index}`` is the name of Index (a one-term file), clustered index's front-matter
    ``anchor: Heap`` that of Heap, checkpoint's ``{#WAL}`` that of WAL, which a lesson
    defines, δ's ``{#untitled}`` that of untitled (whose name gives it, so δ gives it way
    and keeps its own letters), and covering index's ``{#tables}`` the plural of table."""
    (folder / "lessons").mkdir(parents=True)
    (folder / "lessons" / "01-storage.md").write_text(
        "---\ntitle: Storage\n---\n\n## Finding rows\n\nAn index finds rows without reading "
        "the table, and most are a B-tree. A heap keeps its rows in no order; a clustered "
        "index keeps them in its own, and a covering index answers without the table. Within "
        "δ of the key is near it. A new notebook stays untitled until it is saved. The log "
        "every change goes to first is called the WAL.\n", encoding="utf-8")
    glossary = folder / "glossary"
    glossary.mkdir()
    (glossary / "a.md").write_text(
        "B-tree {#Index}\n: The balanced tree most indexes are.\n  Also: balanced tree\n"
        "  See also: Index\n\n"
        "Heap\n: A table whose rows are kept in no order.\n\n"
        "covering index {#tables}\n: An index that holds every column a query reads.\n\n"
        "table\n: Rows of one shape, kept together.\n\n"
        "δ {#untitled}\n: A small distance.\n\n"
        "untitled\n: The name a notebook has until it is saved.\n\n"
        "checkpoint {#WAL}\n: The point up to which the log has reached the tables.\n",
        encoding="utf-8")
    (glossary / "b.md").write_text("---\nterm: Index\n---\n\n"
                                   "A structure that finds rows without reading them all.\n",
                                   encoding="utf-8")
    (glossary / "c.md").write_text("---\ntitle: Clustered\nterm: clustered index\n"
                                   "anchor: Heap\n---\n\nAn index the table is sorted by.\n",
                                   encoding="utf-8")
    return folder


NAMED_ANCHORS = {"B-tree": "Index", "checkpoint": "WAL", "clustered index": "Heap",
                 "covering index": "tables", "Heap": "heap", "Index": "index", "table": "table",
                 "untitled": "untitled", "WAL": "wal", "δ": "δ"}


def test_a_link_by_an_anchor_that_is_another_terms_name_opens_its_own_term(tmp_path):
    """B-tree's ``{#Index}`` linked every B-tree card, glossary entry, coverage row and
    completion to /glossary/Index, which opened Index: a name was looked up before an
    anchor. An anchor now comes first; the term it names keeps a page at its own anchor,
    and a name the service links (See also, a 404's suggestions) is linked by its term's
    anchor, and a name typed in a search still finds its term."""
    course = _named_anchors_course(tmp_path / "course")
    build_index(course / "lessons", course / "glossary", tmp_path / "index")
    with serving(tmp_path / "index") as client:
        terms = client.get("/api/terms").get_json()["terms"]
        assert {t["term"]: t["anchor"] for t in terms} == NAMED_ANCHORS
        glossary = page(client, "/glossary")
        coverage = page(client, "/coverage")
        for term, anchor in NAMED_ANCHORS.items():
            link = f"/glossary/{anchor}"
            assert f"/glossary/{quote(anchor)}" in glossary.links()
            assert f"/glossary/{quote(anchor)}" in coverage.links()
            assert f"<h1>{term}</h1>" in client.get(link).get_data(as_text=True), link
            assert client.get(f"/api/terms/{anchor}").get_json()["term"] == term, link
        cards = client.get("/api/search?q=B-tree").get_json()["terms"]
        assert [(c["term"], c["glossary_anchor"]) for c in cards] == [("B-tree", "Index")]
        completed = client.get("/api/suggest?q=balanced").get_json()["suggestions"]
        assert [(s["text"], s["url"], s["matched"]) for s in completed] == [
            ("B-tree", "/glossary/Index", "balanced tree")]
        assert "/glossary/index" in page(client, "/glossary/Index").links(within="see-also")
        assert "/glossary/index" in page(client, "/glossary/Indx", status=404).links()
        typed = client.get("/api/search?q=Index").get_json()["terms"]
        assert [(c["term"], c["glossary_anchor"]) for c in typed] == [("Index", "index")]
        links = page(client, "/search?q=Index").links()
        assert "/glossary/index" in links and "/glossary/Index" not in links


def test_an_anchor_that_is_another_terms_name_is_a_warning_at_its_line(tmp_path):
    """Nothing told the editor that B-tree's ``{#Index}`` took /glossary/Index from the term
    Index. A kept anchor that is another term's name, or spells it (``tables``, table's
    plural), is a warning at the line the anchor is written on (a front-matter key's, not the
    term's), naming both terms and both pages."""
    course = _named_anchors_course(tmp_path / "course")
    report = build_index(course / "lessons", course / "glossary", tmp_path / "index")
    named = "glossary/{}: The anchor {!r} of {!r} is {} of {!r} ({}): /glossary/{} opens {!r}, " \
            "and {!r} is at /glossary/{}."
    assert [str(p) for p in report.problems] == [
        named.format("a.md:1", "Index", "B-tree", "the name", "Index", "glossary/b.md:2",
                     "Index", "B-tree", "Index", "index"),
        named.format("a.md:9", "tables", "covering index", "a spelling", "table",
                     "glossary/a.md:12", "tables", "covering index", "table", "table"),
        "glossary/a.md:15: The anchor 'untitled' of 'δ' is the anchor of 'untitled' "
        "(glossary/a.md:18) too; 'δ' has the anchor 'δ'.",
        named.format("a.md:21", "WAL", "checkpoint", "the name", "WAL",
                     "a term a lesson defines", "WAL", "checkpoint", "WAL", "wal"),
        named.format("c.md:4", "Heap", "clustered index", "the name", "Heap", "glossary/a.md:6",
                     "Heap", "clustered index", "Heap", "heap")]


def test_an_anchor_that_is_another_terms_alias_is_warned_as_an_alias(tmp_path):
    """memoization's ``{#memo}``, an alias of cache, was warned as "a spelling of 'cache'",
    which it is not: the warning says what of the other term the anchor is, an alias, a
    spelling of one, or a spelling of its name."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-cache.md").write_text(
        "---\ntitle: Caching\n---\n\n## Keeping results\n\nA cache keeps results.\n",
        encoding="utf-8")
    (tmp_path / "glossary").mkdir()
    (tmp_path / "glossary" / "g.md").write_text(
        "cache\n: A store of results kept to be reused.\n  Also: memo, stash\n\n"  # 1
        "memoization {#memo}\n: Keeping the result of each call.\n\n"               # 5
        "hoard {#stashes}\n: A store kept out of sight.\n\n"                        # 8
        "buffer {#caches}\n: Memory that holds data on its way.\n", encoding="utf-8")  # 11
    report = build_index(tmp_path / "lessons", tmp_path / "glossary", tmp_path / "index")
    named = "glossary/g.md:{}: The anchor {!r} of {!r} is {} of {!r} (glossary/g.md:{}): " \
            "/glossary/{} opens {!r}, and {!r} is at /glossary/{}."
    assert [str(p) for p in report.problems] == [
        named.format(5, "memo", "memoization", "an alias", "cache", 1, "memo", "memoization",
                     "cache", "cache"),
        named.format(8, "stashes", "hoard", "a spelling of an alias", "cache", 1, "stashes",
                     "hoard", "cache", "cache"),
        named.format(11, "caches", "buffer", "a spelling", "cache", 1, "caches", "buffer",
                     "cache", "cache")]


def _anchors_spelling_names_course(folder: Path) -> Path:
    """A glossary whose anchors spell other terms' names written otherwise than the anchor:
    heap's ``{#tables}`` the plural of table (which index's See also names), A's ``{#b}``
    the name B in lower case (B's own anchor is ``c``), snapshot's front-matter
    ``anchor: Commits`` the plural of commit."""
    (folder / "lessons").mkdir(parents=True)
    (folder / "lessons" / "01-storage.md").write_text(
        "---\ntitle: Storage\n---\n\n## Rows\n\nA table holds rows, and most tables are "
        "read through an index. A heap keeps rows in no order.\n\n## History\n\nEvery "
        "commit is a snapshot of the project; commits form a history.\n\n## Letters\n\n"
        "The letter B comes second.\n", encoding="utf-8")
    glossary = folder / "glossary"
    glossary.mkdir()
    (glossary / "a.md").write_text(
        "heap {#tables}\n: Rows kept in no order.\n\n"
        "table\n: Rows of one shape, kept together.\n\n"
        "index\n: A structure that finds rows fast.\n  See also: tables\n\n"
        "A {#b}\n: The first letter.\n\n"
        "B {#c}\n: The second letter.\n\n"
        "C\n: The third letter.\n\n"
        "commit\n: A recorded change to a project.\n", encoding="utf-8")
    (glossary / "s.md").write_text("---\nterm: snapshot\nanchor: Commits\n---\n\n"
                                   "The state of every file at one moment.\n",
                                   encoding="utf-8")
    return folder


def test_a_name_typed_or_linked_finds_its_term_before_a_term_whose_anchor_spells_it(tmp_path):
    """A name was looked up as an anchor before its other spellings: a search for tables
    showed heap's card (``{#tables}``) first and a See also ``tables`` opened heap; ``b``
    showed A's card only; ``Commits`` showed snapshot's (``anchor: Commits``) first and
    marked "snapshot" in the snippets. Every spelling of every name now comes first, and a
    page's link (``/glossary/tables``) still opens the term of its anchor."""
    course = _anchors_spelling_names_course(tmp_path / "course")
    build_index(course / "lessons", course / "glossary", tmp_path / "index")
    with serving(tmp_path / "index") as client:
        def cards(query: str) -> list[tuple[str, str]]:
            body = client.get(f"/api/search?q={query}").get_json()
            return [(c["term"], c["glossary_anchor"]) for c in body["terms"]]

        assert cards("tables") == [("table", "table")]
        assert cards("b") == [("B", "b-1")]
        assert cards("Commits") == [("commit", "commit")]
        found = client.get("/api/search?q=Commits").get_json()["results"]
        assert found and not any("snapshot</mark>" in hit["snippet"] for hit in found)
        links = page(client, "/search?q=tables").links()
        assert "/glossary/table" in links and "/glossary/tables" not in links
        assert page(client, "/glossary/index").links(within="see-also") == ["/glossary/table"]
        assert "<h1>heap</h1>" in client.get("/glossary/tables").get_data(as_text=True)
        assert client.get("/api/terms/Commits").get_json()["term"] == "snapshot"
    # The command line is a name someone writes too.
    for name, term in (("tables", "table"), ("Commits", "commit"), ("heap", "heap")):
        shown = subprocess.run(
            [sys.executable, "-m", "lessonsearch.cli", "term", name, "--json",
             "--index", str(tmp_path / "index")], capture_output=True, text=True, timeout=120)
        assert json.loads(shown.stdout)["term"] == term, shown.stderr


def test_an_unknown_term_page_is_a_404_with_suggestions(client):
    p = page(client, "/glossary/tokne", status=404)
    assert "tokne" in p.text
    assert "/glossary/token" in p.links()


def test_an_unknown_page_is_an_html_404(client):
    p = page(client, "/nowhere", status=404)
    assert p.find("input", name="q")


@pytest.mark.parametrize("url, status, heading, said", [
    ("/search?q=token&page=0", 400, "Try another search",
     "The page parameter must be a whole number of at least 1, not '0'."),
    ("/search?q=%ff", 400, "Try another search", "The q parameter must be UTF-8 text"),
    ("/search?q=-model", 400, "Try another search", "only excludes words (-model)"),
    ("/search?q=%3F", 400, "Try another search", "The query has no word to search for (?)"),
    ("/search?q=token&lesson=nope", 400, "Try another search", "No lesson “nope”"),
    ("/nothing", 404, "Not found", "There is no page at this address"),
    ("/glossary/nope", 404, "Not found", "No term named “nope” in the glossary."),
])
def test_every_error_page_names_the_course_and_says_what_is_wrong(client, url, status,
                                                                  heading, said):
    """An error raised before the view opened the index (a bad parameter, an unknown address)
    was framed as "Course search", without the way back, and an unknown address said
    Werkzeug's "The requested URL was not found on the server"."""
    p = page(client, url, status)
    framed_by_the_course(p, heading)
    assert said in p.text
    assert "requested URL" not in p.text and "the server" not in p.text


def test_a_form_sent_to_a_page_is_a_405_of_ours(client):
    got = client.post("/search", data={"q": "token"})
    assert got.status_code == 405 and got.headers["Allow"]
    p = Page(got.get_data(as_text=True))
    framed_by_the_course(p, "Something went wrong")
    assert "This page can only be opened, not sent a form or data." in p.text


def test_a_bug_is_a_500_page_of_ours_with_the_course_frame(tiny_index: Path):
    app = create_app(Settings(index_dir=tiny_index))

    def broken():
        raise RuntimeError("a bug at /srv/secret")

    app.add_url_rule("/broken", "broken", broken)
    try:
        got = app.test_client().get("/broken")
    finally:
        live_index(app).close()
    assert got.status_code == 500 and got.mimetype == "text/html"
    p = Page(got.get_data(as_text=True))
    framed_by_the_course(p, "Something went wrong")
    assert "Something went wrong on our side while answering." in p.text
    assert "/srv/secret" not in p.text and "the server" not in p.text


@pytest.mark.parametrize("url, to", [
    ("/glossary/", "/glossary"),
    ("/search/?q=kv+cache", "/search?q=kv+cache"),
    ("/glossary//", "/glossary"),
])
def test_a_page_with_a_trailing_slash_redirects_to_the_page(client, url, to):
    got = client.get(url)
    assert got.status_code == 308 and got.headers["Location"] == to
    page(client, to)


def test_a_trailing_slash_on_no_page_or_the_api_stays_a_404(client):
    page(client, "/nothing/", 404)
    got = client.get("/api/terms/")
    assert got.status_code == 404 and got.is_json


def test_without_an_index_pages_say_so_to_readers_with_a_503(tmp_path: Path, caplog):
    """The page told readers "Index not built: run `lessonsearch index` on the server",
    backticks and all: what to run is for the operator, in the log and the JSON API."""
    with serving(tmp_path / "none") as client:
        for url in ("/", "/search?q=token", "/glossary", "/glossary/token"):
            got = client.get(url)
            assert got.status_code == 503 and got.headers["Retry-After"], url
            p = Page(got.get_data(as_text=True))
            assert p.title == "Search is not ready · Course search"
            assert "Search is not available yet. Please come back in a little while." in p.text
            assert "lessonsearch" not in p.text and "`" not in p.text and "index" not in p.text
        api = client.get("/api/search?q=token")
        assert api.status_code == 503
        assert api.get_json()["error"].startswith("Index not built: run `lessonsearch index`")
        with client.get("/static/style.css") as css:
            assert css.status_code == 200
    told = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert f"Answered /search with 503: No index at {tmp_path / 'none'}. Build one with: " \
           f"lessonsearch index --out {tmp_path / 'none'}" in told


# --- Caching -------------------------------------------------------------------------------------


def test_pages_revalidate_with_an_etag(client):
    first = client.get("/glossary")
    assert first.headers["Cache-Control"] == "no-cache"
    again = client.get("/glossary", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_a_page_past_the_end_shows_the_last_page(tiny_index: Path):
    with serving(tiny_index, groups_per_page=1) as client:
        pages = re.search(r"Page 1 of (\d+)", page(client, "/search?q=token").text).group(1)
        last = page(client, "/search?q=token&page=999")
        assert f"Page {pages} of {pages}" in last.text
        assert last.find("a", rel="prev") and not last.find("a", rel="next")
        assert hit_links(last)


def test_a_page_past_the_end_says_it_shows_the_last_one(tiny_index: Path):
    """A stale ``page=`` showed the last page as if it were the one asked for; with one page
    of results, page 1 with no word at all."""
    with serving(tiny_index, groups_per_page=1) as client:
        pages = re.search(r"Page 1 of (\d+)", page(client, "/search?q=token").text).group(1)
        last = page(client, "/search?q=token&page=999")
        assert (f"There is no page 999 of these results; showing the last, page {pages} of "
                f"{pages}.") in last.text
        assert "There is no page" not in page(client, f"/search?q=token&page={pages}").text
    with serving(tiny_index) as client:  # every lesson on one page
        one = page(client, "/search?q=token&page=3")
        assert "There is no page 3 of these results; they fit on one page, shown here." in (
            one.text)
        assert hit_links(one) == hit_links(page(client, "/search?q=token"))
        assert "There is no page" not in page(client, "/search?q=zyzzyva&page=3").text


def test_a_term_only_a_lesson_defines_shows_its_sentence_once(sample_index):
    """Its definition is the lesson's sentence: shown as the definition, and the page links
    the lesson that says it, without quoting the sentence a second time below."""
    with serving(sample_index) as client:
        term = client.get("/api/terms/repetition-penalty").get_json()
        sentence = term["defined_at"]["sentence"]
        assert term["definition"] == sentence  # no glossary entry: the lesson's words
        p = page(client, "/glossary/repetition-penalty")
        assert p.text.count(sentence) == 1
        assert term["defined_at"]["url"] in p.links()
        glossary_defined = client.get("/api/terms/kv-cache").get_json()
        quoted = glossary_defined["defined_at"]["sentence"]
        assert quoted != glossary_defined["definition"]
        assert quoted in page(client, "/glossary/kv-cache").text  # the lesson's own words


def test_a_module_named_by_front_matter_and_by_an_export_is_one_in_the_menus(tmp_path: Path):
    """Front matter's ``module: kit`` and an export's ``{index: 1, slug: kit, title: "Your
    kit"}``: the Module menu listed "kit" and "Your kit", the Lesson menu each lesson under
    one of the two, and the results were labelled by their file's format."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "1-boots.md").write_text(
        "---\ntitle: Boots\nposition: 1\nmodule: kit\n---\n\n## Fit\n\nBoots for a long "
        "walk should fit over thick socks.\n", encoding="utf-8")
    export = {"lesson": {"slug": "packs", "title": "Packs", "position": 2},
              "reader": {"module": {"index": 1, "slug": "kit", "title": "Your kit"}},
              "body": {"text": "## Fit\n\nA pack should fit the length of your back."}}
    (lessons / "2-packs.json").write_text(json.dumps(export), encoding="utf-8")
    (tmp_path / "glossary").mkdir()
    build_index(lessons, tmp_path / "glossary", tmp_path / "index")
    with serving(tmp_path / "index") as client:
        p = page(client, "/search?q=fit")
    assert [a["value"] for a in p.find("option") if a.get("value")] == ["kit", "boots", "packs"]
    assert [a["label"] for a in p.find("optgroup")] == ["Your kit"]
    assert p.text.count("Your kit") == 3  # in the Module menu, and above each lesson's hits
