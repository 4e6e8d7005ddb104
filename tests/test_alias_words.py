"""A name of several words of a glossary term (its name or an alias) finds a section that
mentions the term only as the whole name: "bike seat" finds the section on saddles, "seat"
only the sections that write it. Each word of such a name was indexed as a word of every
section mentioning the term, so a search for one of them found sections that never wrote
it, with nothing of theirs marked."""

from __future__ import annotations

import pytest
from course_fixtures import built_course

from lessonsearch.searcher import Searcher

LESSONS = {
    "01-fit.md": """---
title: Fitting a bicycle
slug: fit
---

# Fitting a bicycle

## Saddle height

Raise the saddle until your leg is almost straight at the bottom of each pedal stroke.

## Car seats and racks

A rack on the roof keeps the back seat free for passengers.

## Bars

Wider bars steady the front wheel on rough ground.
""",
    "02-repairs.md": """---
title: Roadside repairs
slug: repairs
---

# Roadside repairs

## A flat

Lever the tyre off, pull out the tube and find the hole before you patch it.

## Inner workings of a hub

Cones and bearings sit inside the hub; grit on the inner races makes the wheel grind.
""",
}

GLOSSARY = """saddle {#saddle}
: The seat of a bicycle.
  Also: bike seat

inner tube {#inner-tube}
: The rubber ring inside a tyre that holds the air.
  Also: tube
"""


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    opened = Searcher.open(built_course(tmp_path_factory.mktemp("alias-words"), LESSONS,
                                        GLOSSARY))
    yield opened
    opened.close()


def anchors(response) -> list[str | None]:
    return [hit.anchor for hit in response.results]


@pytest.mark.parametrize(("word", "written", "names", "found"), [
    ("seat", ["car-seats-and-racks"],  # not "Saddle height", through "bike seat"
     ["bike seat", "Bike Seat", '"bike seat"', "bike-seat"], "saddle-height"),
    ("bike", [], ["bike seat"], "saddle-height"),  # the title's "bicycle" is another word
    ("inner", ["inner-workings-of-a-hub"],  # not "A flat", through "inner tube"
     ["inner tube", "inner tubes", "Inner tube"], "a-flat"),
])
def test_a_word_of_a_name_of_several_words_finds_only_the_sections_writing_it(
        searcher, word: str, written: list[str], names: list[str], found: str) -> None:
    """"seat" found "Saddle height", which never writes it, with nothing marked, through
    the alias "bike seat" of the term saddle it mentions. The whole name still finds it,
    typed as words, in quotes or hyphenated, its term marked as the section writes it."""
    response = searcher.search(word)
    assert anchors(response) == written
    assert all("<mark>" in hit.snippet for hit in response.results)
    for name in names:
        response = searcher.search(name)
        assert found in anchors(response), name
        hit = next(h for h in response.results if h.anchor == found)
        assert "<mark>" in hit.snippet, name
