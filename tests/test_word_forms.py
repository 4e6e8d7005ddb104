"""A reader's word in another form than the course writes it: a hyphenated word typed
joined and inflected ("pourovers" for pour-over), a misspelt -ion noun of a verb the course
writes ("decission" where it writes decide), a hyphenated word no section writes whose one
topical part is searched ("in-context": context, and the reader is told). On courses of our
own."""

from __future__ import annotations

import pytest
from course_fixtures import built_course, open_course

from lessonsearch.searcher import Searcher


def places(response) -> list[tuple[str, str | None]]:
    return [(hit.lesson, hit.anchor) for hit in response.results]


BREWING = """---
title: Brewing
---

## Cones and filters

A pour-over drips through a paper filter into the cup, one cup at a time.

## Grind size

Grind finer for a pour-over than for a press: the water runs through faster.

## Bitter cups

Too fine a grind will over-extract the coffee. An over-extracted cup tastes bitter and
dry: the grounds sat too long in hot water.

## Choosing a method

Decide on a method before you buy a grinder. Most people decided by the taste they like,
and a few by the price.

## Sour cups

A sour cup is under-brewed: grind finer or pour more slowly.
"""


@pytest.fixture(scope="module")
def brewing(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("brewing")
    opened = Searcher.open(built_course(folder, {"01-brewing.md": BREWING}))
    yield opened
    opened.close()


# --- A hyphenated word typed joined, in another form -----------------------------------------


@pytest.mark.parametrize(("query", "suggestion", "as_written", "first"), [
    ("pourovers", "pour-overs", "pour-overs", "cones-and-filters"),
    ("Pourovers", "Pour-overs", "pour-overs", "cones-and-filters"),
    ("overextraction", "over-extraction", "over-extraction", "bitter-cups"),
    ("overextracting", "over-extracting", "over-extracting", "bitter-cups"),
    ("overextracts", "over-extracts", "over-extracts", "bitter-cups"),
    ("overextracted cup", "over-extracted cup", "over-extracted cup", "bitter-cups"),
])
def test_a_joined_word_in_another_form_finds_the_hyphenated_word(brewing, query, suggestion,
                                                                 as_written, first) -> None:
    """"pourover" was "Showing results for pour-over", but "pourovers" found nothing and
    suggested nothing: a word was cut into two only where the course writes each part as
    it is, and it writes "over" and "pour-over", never "overs" on its own. Nor
    "overextraction" where the course writes "over-extract" and "over-extracted"."""
    response = brewing.search(query)
    assert (response.suggestion, response.suggestion_searched) == (suggestion, True)
    assert places(response) == places(brewing.search(as_written))
    assert ("brewing", first) in places(response)


def test_a_joined_word_in_another_form_is_cut_at_a_stop_word_only_where_hyphenated(
        tmp_path) -> None:
    """A course that writes "pour over" side by side but never hyphenated: "pourovers" is
    not cut at the stop word's form, as "upon" is not "up on"."""
    lessons = {"01-water.md": "# Water\n\n## Pouring\n\nPour over the grounds in slow "
               "circles, then pour over the rim.\n"}
    with open_course(tmp_path, lessons) as searcher:
        for query in ("pourovers", "pourover"):
            response = searcher.search(query)
            assert (response.suggestion, response.total) == (None, 0)
