"""A lesson's key idea and short answer: searched, linked to the lesson's top, and shown.

An export's ``lesson.keyIdea`` (or ``reader.keyIdea``) and ``lesson.answer``, and a Markdown
lesson's ``key_idea`` and ``answer`` front matter, were read (the answer not even that) but
never indexed: a word only they wrote found nothing.
"""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest
from web_fixtures import serving

from lessonsearch.build import build_index
from lessonsearch.searcher import Searcher

KILN_URL = "https://pottery.example.test/course/kilns"
GLAZE_URL = "https://pottery.example.test/course/glazes"

KILN_EXPORT = {
    "course": {"slug": "pottery", "title": "Pottery"},
    "lesson": {"slug": "kilns", "title": "How hot does a kiln get?", "url": KILN_URL,
               "position": 1,
               "answer": "Stoneware firings reach about 1,240 degrees, earthenware far less",
               "keyIdea": "Cone packs sag when the heat has done its work, whatever the "
                          "thermometer says."},
    "reader": {"schema": 1, "blocks": [
        {"t": "h2", "id": "loading-the-kiln", "runs": [{"text": "Loading the kiln"}]},
        {"t": "p", "runs": [{"text": "Shelves go in first, then the pots, never touching."}]},
        {"t": "h2", "id": "cooling", "runs": [{"text": "Cooling"}]},
        {"t": "p", "runs": [{"text": "Open the lid only when the pots are cool to touch."}]},
    ]},
}

GLAZE_LESSON = f"""---
title: Why do glazes crawl?
url: {GLAZE_URL}
position: 2
key_idea: Dust under the glaze lifts it off the pot as it melts.
answer: The glaze shrinks away from a greasy or dusty surface
---

## Mixing a glaze

Sieve the powder twice and stir it to the thickness of single cream.
"""

WHEEL_URL = "https://pottery.example.test/course/wheel"
TRIM_URL = "https://pottery.example.test/course/trimming"

WHEEL_LESSON = f"""---
title: How do I centre clay on the wheel?
url: {WHEEL_URL}
position: 3
key_idea: Centred clay spins without a wobble; every wobble grows as the walls rise.
answer: Brace your elbows and lean in until the clay stops its wobble
---

## Wetting the wheel head

Splash a little water on the wheel head and slap the ball of clay down in its middle.

## Bracing against the spin

Sit close, with your elbows braced against your thighs, and lean your weight into the
spinning clay. Push with the heel of your hand, not the fingers, and let the wheel do the
work: keep the speed high and the water sparing. When the clay runs smooth under your palm
and no wobble is left to feel, it is centred, and you can open it.
"""
"""Its summary says "wobble" three times in 25 words; the section that teaches what to do
about one says it once in 70."""

TRIM_LESSON = f"""---
title: Trimming a foot ring
url: {TRIM_URL}
position: 4
---

## Tapping it true

Tap the leather-hard pot until its wobble stops, then fix it down with three coils of soft
clay.
"""
"""A short section of another lesson that says "wobble" once."""


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A JSON export and a Markdown lesson, each with a key idea and an answer, and a
    glossary term that only the export's key idea names; a lesson whose summary repeats
    what a section of it teaches, and one more that says it once."""
    root = tmp_path_factory.mktemp("pottery")
    (root / "lessons").mkdir()
    (root / "glossary").mkdir()
    (root / "lessons" / "01-kilns.json").write_text(json.dumps(KILN_EXPORT, indent=1),
                                                    encoding="utf-8")
    (root / "lessons" / "02-glazes.md").write_text(GLAZE_LESSON, encoding="utf-8")
    (root / "lessons" / "03-wheel.md").write_text(WHEEL_LESSON, encoding="utf-8")
    (root / "lessons" / "04-trimming.md").write_text(TRIM_LESSON, encoding="utf-8")
    (root / "glossary" / "glossary.md").write_text(
        "cone pack {#cone-pack}\n: Small clay cones that bend at a known heat.\n",
        encoding="utf-8")
    report = build_index(root / "lessons", root / "glossary", root / "index")
    assert report.problems == ()
    return root


# Each word is written by one key idea or one answer, and nowhere else in its lesson.
WORDS = [
    ("thermometer", KILN_URL, "whatever the <mark>thermometer</mark> says."),
    ("stoneware", KILN_URL, "<mark>Stoneware</mark> firings reach about 1,240 degrees"),
    ("dust lifts", GLAZE_URL, "<mark>Dust</mark> under the glaze <mark>lifts</mark> it off"),
    ("greasy", GLAZE_URL, "shrinks away from a <mark>greasy</mark> or dusty surface"),
]


@pytest.mark.parametrize(("query", "url", "snippet"), WORDS, ids=[w[0] for w in WORDS])
def test_a_word_only_the_key_idea_or_answer_writes_finds_the_lesson_top(
        course: Path, query: str, url: str, snippet: str) -> None:
    with closing(Searcher.open(course / "index")) as searcher:
        response = searcher.search(query)
    assert len(response.results) == 1
    (hit,) = response.results
    assert (hit.url, hit.anchor, hit.heading, hit.kind) == (url, None, None, "summary")
    assert snippet in hit.snippet


@pytest.mark.parametrize(("query", "url", "snippet"), WORDS, ids=[w[0] for w in WORDS])
def test_the_api_answers_the_key_idea_and_answer_as_a_hit_at_the_lesson_top(
        course: Path, query: str, url: str, snippet: str) -> None:
    with serving(course / "index") as client:
        body = client.get("/api/search", query_string={"q": query}).get_json()
    assert body["total"] == 1
    (hit,) = body["results"]
    assert (hit["url"], hit["anchor"], hit["heading"], hit["kind"]) == (
        url, None, None, "summary")
    assert snippet in hit["snippet"]


def test_the_summary_shows_the_answer_then_the_key_idea(course: Path) -> None:
    """Both in the one hit; an answer with no full stop is parted from the key idea."""
    with closing(Searcher.open(course / "index")) as searcher:
        (hit,) = searcher.search("crawl glaze shrinks melts").results
    assert hit.snippet == ("The <mark>glaze</mark> <mark>shrinks</mark> away from a greasy or "
                           "dusty surface · Dust under the <mark>glaze</mark> lifts it off the "
                           "pot as it <mark>melts</mark>.")


def test_the_search_page_shows_the_summary_at_the_start_of_the_lesson(course: Path) -> None:
    with serving(course / "index") as client:
        page = client.get("/search", query_string={"q": "thermometer"}).get_data(as_text=True)
    assert f'<h3><a href="{KILN_URL}">Start of the lesson</a></h3>' in page
    assert "whatever the <mark>thermometer</mark> says." in page


def shown(hits) -> list[tuple[str, str | None]]:
    return [(hit.url.rsplit("/", 1)[1].split("#")[0], hit.kind) for hit in hits]


def test_the_section_that_teaches_the_summary_s_words_comes_before_the_summary(
        course: Path) -> None:
    """The summary is short and says "wobble" three times: scored as a document of its own,
    it came first, above the section that teaches it and the other lesson's section. The
    section takes the summary's place: the lesson still comes first, through its section,
    and its summary follows what ranked below it."""
    with closing(Searcher.open(course / "index")) as searcher:
        response = searcher.search("wobble")
    assert shown(response.results) == [
        ("wheel", "section"), ("trimming", "section"), ("wheel", "summary")]
    assert response.results[0].heading == "Bracing against the spin"


def test_a_question_with_a_phrase_puts_the_section_before_the_summary_too(
        course: Path) -> None:
    """Ranked by Whoosh's matchers (a phrase among a question's words), not by the block
    scorer, to the same rule."""
    with closing(Searcher.open(course / "index")) as searcher:
        response = searcher.search('what makes "the clay" wobble')
    assert shown(response.results) == [
        ("wheel", "section"), ("wheel", "summary"), ("trimming", "section")]
    assert response.results[0].heading == "Bracing against the spin"


def test_the_search_page_shows_the_section_before_the_start_of_the_lesson(
        course: Path) -> None:
    with serving(course / "index") as client:
        page = client.get("/search", query_string={"q": "wobble"}).get_data(as_text=True)
    section = page.index(f'<a href="{WHEEL_URL}#bracing-against-the-spin">')
    assert section < page.index(f'<a href="{WHEEL_URL}">Start of the lesson</a>')
    assert section < page.index(f'<a href="{TRIM_URL}')


def test_the_api_gives_the_section_the_summary_s_score(course: Path) -> None:
    """The scores a page holds stay the same: the two trade them."""
    with serving(course / "index") as client:
        body = client.get("/api/search", query_string={"q": "wobble"}).get_json()
    hits = body["results"]
    assert [(hit["anchor"], hit["kind"]) for hit in hits] == [
        ("bracing-against-the-spin", "section"), ("tapping-it-true", "section"),
        (None, "summary")]
    assert hits[0]["score"] > hits[1]["score"] > hits[2]["score"]


def test_a_lesson_filter_keeps_the_section_before_the_summary(course: Path) -> None:
    with closing(Searcher.open(course / "index")) as searcher:
        response = searcher.search("wobble", lesson="wheel")
    assert shown(response.results) == [("wheel", "section"), ("wheel", "summary")]


def test_a_word_only_the_summary_writes_keeps_the_summary_s_own_place(course: Path) -> None:
    """No section of the wheel lesson says "walls" or "rise": its summary is the lesson's
    hit, and ranks as its words put it, above the other lesson's section."""
    with closing(Searcher.open(course / "index")) as searcher:
        response = searcher.search("walls OR rise OR coils")
    assert shown(response.results) == [("wheel", "summary"), ("trimming", "section")]


def test_a_term_the_key_idea_names_is_mentioned_at_the_lesson_top(course: Path) -> None:
    """A key idea is the author's prose: its terms are the lesson's mentions."""
    with serving(course / "index") as client:
        term = client.get("/api/terms/cone pack").get_json()
    assert [(m["lesson"], m["url"], m["count"]) for m in term["mentions"]] == [
        ("kilns", KILN_URL, 1)]


def test_a_key_idea_only_the_reader_object_gives_is_searched(tmp_path: Path) -> None:
    export = json.loads(json.dumps(KILN_EXPORT))
    del export["lesson"]["keyIdea"], export["lesson"]["answer"]
    export["reader"]["keyIdea"] = "Bisque ware rings when tapped."
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-kilns.json").write_text(json.dumps(export), encoding="utf-8")
    build_index(tmp_path / "lessons", None, tmp_path / "index")
    with closing(Searcher.open(tmp_path / "index")) as searcher:
        (hit,) = searcher.search("bisque").results
    assert (hit.url, hit.snippet) == (KILN_URL, "<mark>Bisque</mark> ware rings when tapped.")


@pytest.mark.parametrize(("written", "shown"), [("7", "7"), ('["a"]', "['a']")])
def test_a_json_key_idea_that_is_no_string_is_ignored_with_a_warning(
        tmp_path: Path, written: str, shown: str) -> None:
    """As an ``answer`` that is none: the lesson is indexed, with the reader's key idea if
    it gives one. It was skipped whole ("lesson.keyIdea must be a string, not int"), where
    a bad ``answer``, or a bad ``key_idea`` in Markdown, only cost the value."""
    export = json.loads(json.dumps(KILN_EXPORT))
    export["reader"]["keyIdea"] = "Bisque ware rings when tapped."
    text = json.dumps(export, indent=1).replace(
        json.dumps(KILN_EXPORT["lesson"]["keyIdea"]), written)
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-kilns.json").write_text(text, encoding="utf-8")
    report = build_index(tmp_path / "lessons", None, tmp_path / "index")
    assert [str(p) for p in report.problems] == [
        f"lessons/01-kilns.json:12: lesson.keyIdea must be text, not {shown}; it is ignored"]
    assert report.lessons == 1 and report.skipped == 0
    with closing(Searcher.open(tmp_path / "index")) as searcher:
        assert searcher.search("shelves").total == 1
        assert searcher.search("thermometer").total == 0
        hits = searcher.search("bisque OR stoneware").results
        assert [(hit.kind, hit.url) for hit in hits] == [("summary", KILN_URL)]


@pytest.mark.parametrize(("name", "text", "warning", "gone"), [
    ("01-kilns.json",
     json.dumps(KILN_EXPORT, indent=1).replace(
         '"Stoneware firings reach about 1,240 degrees, earthenware far less"', "[1240]"),
     "lessons/01-kilns.json:11: lesson.answer must be text, not [1240]; it is ignored", "1240"),
    ("01-kilns.json",
     json.dumps(KILN_EXPORT, indent=1).replace(
         '"Stoneware firings reach about 1,240 degrees, earthenware far less"', "1240"),
     "lessons/01-kilns.json:11: lesson.answer must be text, not 1240; it is ignored", "1240"),
    ("02-glazes.md", GLAZE_LESSON.replace("answer: The glaze", "answer:\n  - The glaze"),
     "lessons/02-glazes.md:6: answer must be text, not ['The glaze shrinks away from a "
     "greasy or dusty surface']; it is ignored", "greasy"),
    ("02-glazes.md", GLAZE_LESSON.replace("key_idea: Dust", "key_idea: {a: b}\nkeyIdea: Dust"),
     "lessons/02-glazes.md:5: key_idea must be text, not {'a': 'b'}; it is ignored", "b"),
], ids=["json-list", "json-number", "markdown-list", "markdown-mapping"])
def test_an_answer_or_key_idea_that_is_no_text_is_ignored_with_a_warning(
        tmp_path: Path, name: str, text: str, warning: str, gone: str) -> None:
    """Not worth losing the lesson over, nor worth indexing as written ("[1240]"): a warning
    at its line, and the lesson is indexed without it (a Markdown ``key_idea`` that is no
    text leaves the ``keyIdea`` spelling to be read)."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / name).write_text(text, encoding="utf-8")
    report = build_index(tmp_path / "lessons", None, tmp_path / "index")
    assert [str(p) for p in report.problems] == [warning]
    with closing(Searcher.open(tmp_path / "index")) as searcher:
        assert searcher.search(gone).total == 0
        assert searcher.search("shelves OR sieve").total == 1
        hits = searcher.search("thermometer OR dust").results
        assert [(hit.kind, hit.url) for hit in hits] == [
            ("summary", KILN_URL if name.endswith(".json") else GLAZE_URL)]
