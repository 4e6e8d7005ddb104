"""A lesson's check question: found by what it says is true, and ranked as a part of its lesson.

Its wrong options were indexed as its text: a short document, so BM25 put it above the
sections that teach its words ("tokenizer" found the tokens lesson's check first, "residual
connection" the transformer block's), and a wrong option's false words found it ("how does
the model know word order?" through "Because words are stored in alphabetical order").
"""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest
from web_fixtures import serving

from lessonsearch.build import build_index
from lessonsearch.searcher import Searcher

RISING_URL = "https://bakery.example.test/course/rising"
BAKING_URL = "https://bakery.example.test/course/baking"

RISING_EXPORT = {
    "course": {"slug": "bakery", "title": "Bread"},
    "lesson": {"slug": "rising", "title": "Letting bread rise", "url": RISING_URL,
               "position": 1,
               "keyIdea": "Warmth sets the pace of proofing: yeast is alive."},
    "reader": {"schema": 1, "blocks": [
        {"t": "h2", "id": "weighing", "runs": [{"text": "Weighing the flour"}]},
        {"t": "p", "runs": [{"text": "Weigh the flour and the water; cups vary too much."}]},
        {"t": "h2", "id": "the-first-rise", "runs": [{"text": "The first rise"}]},
        {"t": "p", "runs": [{"text":
            "Cover the bowl and leave the dough somewhere draught-free. This first rise is "
            "called bulk fermentation, and the shorter rise after shaping is called proofing. "
            "Yeast eats the sugars in the flour and breathes out gas, which the gluten holds "
            "in small pockets, so the dough swells and turns soft and airy. In a warm room "
            "it doubles in about an hour; in a cool one the yeast works slowly and the same "
            "dough may need three or four hours, which many bakers prefer for the flavour. "
            "Judge it by the dough, not the clock: a floured finger pressed into it should "
            "leave a dent that fills back in bit by bit."}]},
    ]},
    "check": {
        "question": "Why does proofing take longer in a cold kitchen?",
        "options": [
            {"text": "The yeast works slowly when it is cool", "correct": True},
            {"text": "Cold flour soaks up the salt", "correct": False,
             "tempting": "Salt does hold yeast back during proofing, but far less than the cold."},
            {"text": "The banneton is too small", "correct": False},
            {"text": "Because the oven is preheated in stages", "correct": False},
        ],
    },
}
"""Its check asks about proofing twice (the heading and the question) in 40 words; the
section that teaches it says it once in 110. A wrong option names the oven and the
banneton, which the baking lesson teaches."""

BAKING_LESSON = f"""---
title: Baking the loaf
url: {BAKING_URL}
position: 2
---

## Before the loaf goes in

Half an hour before baking, preheat the oven with the stone on its middle shelf, so that
the stone is as hot as the air around it by the time the dough arrives. A loaf set on a
stone that is still cold spreads sideways before its crust can hold it, and it bakes
pale underneath however long it stays in. Tip the shaped dough out of its banneton onto
a floured peel, score the top with one quick cut, and slide it onto the stone in a
single movement.
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A JSON lesson with a check and a key idea, a Markdown lesson after it, and a glossary
    term that the check names only in a wrong option."""
    root = tmp_path_factory.mktemp("bakery")
    (root / "lessons").mkdir()
    (root / "glossary").mkdir()
    (root / "lessons" / "01-rising.json").write_text(json.dumps(RISING_EXPORT, indent=1),
                                                     encoding="utf-8")
    (root / "lessons" / "02-baking.md").write_text(BAKING_LESSON, encoding="utf-8")
    (root / "glossary" / "glossary.md").write_text(
        "banneton {#banneton}\n: A basket that holds shaped dough while it proofs.\n",
        encoding="utf-8")
    report = build_index(root / "lessons", root / "glossary", root / "index")
    assert report.problems == ()
    return root


def shown(hits) -> list[tuple[str, str | None, str]]:
    return [(hit.lesson, hit.anchor, hit.kind) for hit in hits]


def search(course: Path, query: str, **options):
    with closing(Searcher.open(course / "index")) as searcher:
        return searcher.search(query, **options)


def test_the_section_that_teaches_a_word_comes_before_the_check_that_asks_about_it(
        course: Path) -> None:
    """The check says "proofing" three times in 40 words, and scored above the section that
    teaches it. The section takes its place; the summary, which the check traded places
    with no section, keeps its own score; the check follows."""
    response = search(course, "proofing")
    assert shown(response.results) == [
        ("rising", "the-first-rise", "section"), ("rising", None, "summary"),
        ("rising", None, "check")]
    assert response.results[0].score > response.results[1].score > response.results[2].score


def test_a_word_of_the_right_answer_finds_the_section_first(course: Path) -> None:
    """The right answer is searched (so the check is found), after the lesson's section that
    says it; the check still shows every option, wrong ones too."""
    hits = search(course, "slowly").results
    assert shown(hits) == [("rising", "the-first-rise", "section"), ("rising", None, "check")]
    assert hits[1].heading == "Check: Why does proofing take longer in a cold kitchen?"
    assert "The yeast works <mark>slowly</mark> when it is cool · Cold flour soaks up the " \
           "salt · The banneton is too small" in hits[1].snippet


def test_whoosh_s_matchers_rank_the_check_after_the_section_too(course: Path) -> None:
    """A query with NOT is ranked by Whoosh's matchers, not by the block scorer: same rule."""
    hits = search(course, "proofing -bagel").results
    assert shown(hits) == [
        ("rising", "the-first-rise", "section"), ("rising", None, "summary"),
        ("rising", None, "check")]


def test_a_lesson_filter_keeps_the_section_before_the_check(course: Path) -> None:
    hits = search(course, "slowly", lesson="rising").results
    assert [hit.kind for hit in hits] == ["section", "check"]


def test_the_api_gives_the_section_the_check_s_score(course: Path) -> None:
    with serving(course / "index") as client:
        body = client.get("/api/search", query_string={"q": "slowly"}).get_json()
    assert [(hit["anchor"], hit["kind"]) for hit in body["results"]] == [
        ("the-first-rise", "section"), (None, "check")]
    assert body["results"][0]["score"] > body["results"][1]["score"]


@pytest.mark.parametrize("query", ["stages", "oven preheated in stages", "oven preheated",
                                   "how is the oven preheated?"])
def test_a_wrong_option_s_words_do_not_find_the_check(course: Path, query: str) -> None:
    """"Because the oven is preheated in stages" is false: a reader searching for preheating
    the oven wants the baking lesson, not a quiz whose wrong answer says it."""
    hits = search(course, query).results
    assert [hit.kind for hit in hits] == (["section"] if "oven" in query else [])


def test_why_a_wrong_option_tempts_is_searched(course: Path) -> None:
    """It explains the misconception, as teaching prose does; the option it explains is not
    searched."""
    (hit,) = search(course, "salt").results
    assert hit.kind == "check"
    assert "<mark>Salt</mark> does hold yeast back during proofing" in hit.snippet
    assert search(course, "soaks").total == 0


def test_a_term_only_a_wrong_option_names_neither_finds_nor_is_mentioned_by_the_check(
        course: Path) -> None:
    """The banneton, named by the wrong option "The banneton is too small", is the baking
    lesson's: its term page lists that lesson only, and a search for it finds only it."""
    hits = search(course, "banneton").results
    assert shown(hits) == [("baking", "before-the-loaf-goes-in", "section")]
    with serving(course / "index") as client:
        term = client.get("/api/terms/banneton").get_json()
    assert [(m["lesson"], m["url"]) for m in term["mentions"]] == [
        ("baking", f"{BAKING_URL}#before-the-loaf-goes-in")]


@pytest.mark.parametrize(("query", "heading"), [
    ("tokenizer", "Text arrives as pieces"),
    ("tokeniser", "Text arrives as pieces"),
    ("tokenisation", "Text arrives as pieces"),
    ("residual connection", "Adding instead of replacing"),
])
def test_the_sample_course_s_sections_come_before_their_lesson_s_check(
        sample_searcher, query: str, heading: str) -> None:
    hits = sample_searcher.search(query).results
    assert (hits[0].kind, hits[0].heading) == ("section", heading)


def test_the_transformer_block_s_section_comes_before_its_check_for_input(
        sample_searcher) -> None:
    """"input" is a name of the glossary's prompt, so the section defining the prompt comes
    first (``DEFINING_BOOST``); the transformer block's section still comes before its check."""
    hits = sample_searcher.search("input").results
    assert (hits[0].lesson, hits[0].heading) == ("what-is-a-language-model",
                                                 "A machine for continuing text")
    block = [(hit.kind, hit.heading) for hit in hits if hit.lesson == "transformer-block"]
    assert block[0] == ("section", "The same block, many times")
    assert block[1][0] == "check"


def test_the_sample_course_s_wrong_answer_about_alphabetical_order_is_not_searched(
        sample_searcher) -> None:
    """"Because words are stored in alphabetical order" made the tokens lesson's check the
    first hit for "how does the model know word order?", ahead of the section on position."""
    assert "check" not in {hit.kind for hit in sample_searcher.search("alphabetical").results}
    hits = sample_searcher.search("how does the model know word order?").results
    headings = [hit.heading for hit in hits]
    assert headings.index("Why does position need adding?") < 3
    assert all(hit.kind != "check" for hit in hits[:3])
