"""A hit found through its lesson's title alone says so: its text marks none of the query's
words, so the lesson's title is given with them marked (``matched_in_title``), in the API,
the CLI's JSON and on the page, where a bare snippet read as a wrong hit."""

from __future__ import annotations

import pytest
from course_fixtures import built_course
from web_fixtures import Page, serving

from lessonsearch.searcher import Searcher

LESSONS = {
    "01-pond.md": """---
title: Building a garden pond
slug: pond
---

# Building a garden pond

## Digging

Mark the outline with a hose, dig in shelves at two depths, and take out every sharp stone
before the liner goes in.

## Filling

Rainwater is best. Tap water may turn green for a few weeks, which settles once plants
take hold.

## Planting

A pond needs plants at each depth: oxygenators on the bottom, lilies in the middle.
""",
    "02-birds.md": """---
title: Feeding garden birds
slug: birds
---

# Feeding garden birds

## Seed

Sunflower hearts suit most small birds and leave no husks on the lawn.
""",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory):
    return built_course(tmp_path_factory.mktemp("title-matches"), LESSONS)


@pytest.fixture(scope="module")
def searcher(index):
    opened = Searcher.open(index)
    yield opened
    opened.close()


def by_anchor(response) -> dict[str | None, object]:
    return {hit.anchor: hit for hit in response.results}


def test_a_hit_found_through_its_title_alone_names_the_title_marked(searcher) -> None:
    """"Filling" never writes "pond": its lesson's title does. Its snippet marks nothing, and
    the hit gives the title with the word marked; "Planting", which writes it, needs none."""
    hits = by_anchor(searcher.search("pond"))
    assert "<mark>" not in hits["filling"].snippet
    assert hits["filling"].matched_in_title == "Building a garden <mark>pond</mark>"
    assert hits["digging"].matched_in_title == "Building a garden <mark>pond</mark>"
    assert "<mark>pond</mark>" in hits["planting"].snippet.lower()
    assert hits["planting"].matched_in_title is None


def test_a_heading_that_writes_the_word_says_why_itself(searcher) -> None:
    """"Seed" of "Feeding garden birds", for `seed`: the heading, which the reader sees,
    holds the word, so no title is given."""
    hits = by_anchor(searcher.search("seed"))
    assert hits["seed"].matched_in_title is None


def test_the_api_and_the_page_show_the_title_a_hit_was_found_through(index) -> None:
    with serving(index) as client:
        body = client.get("/api/search", query_string={"q": "garden"}).get_json()
        found = {(r["lesson"], r["anchor"]): r["matched_in_title"] for r in body["results"]}
        assert found[("birds", "seed")] == "Feeding <mark>garden</mark> birds"
        assert found[("pond", "filling")] == "Building a <mark>garden</mark> pond"
        page = Page(client.get("/search", query_string={"q": "garden"}).get_data(as_text=True))
        assert "Found in the lesson’s title: Feeding garden birds" in page.text
        assert "Found in the lesson’s title: Building a garden pond" in page.text
