"""A reader who misspells a short word beside other words: "chan wear" for chain wear. A
word of three or four letters was corrected only as the search's one word, so beside others
it was searched with fewer words ("No section has every word"). Now it is corrected where
the course writes the word meant side by side with the word the reader put beside it; never
to a word the course only writes elsewhere in the section, and never when the reader's word
is an everyday English word.

The course is this file's own: a bicycle workshop's notes for a new mechanic."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

LESSONS = {
    "01-drivetrain.md": """---
title: Drivetrain care
---

## Chain wear

A chain stretches as its pins and rollers wear. Measure chain wear with a checker every few
hundred kilometres: a worn chain wears the cassette and the chainrings with it. Replace the
chain before the checker drops in all the way.

## Cleaning the chain

Wipe the chain with a rag, then soak it in degreaser. Dry it fully before oiling, since oil
on a wet chain washes off. One drop of oil on each roller is plenty.
""",
    "02-fitting.md": """---
title: Fitting the rider
---

## Saddle height

Loosen the seat post clamp and raise the saddle until the knee is almost straight at the
bottom of the stroke. Mark the seat post with tape before moving it, so it can go back.

## Reach

Spacers under the stem raise the bar. Blue spacers are thick, grey ones thin.
""",
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("workshop"), LESSONS) as opened:
        yield opened


@pytest.mark.parametrize(("typed", "meant", "heading"), [
    ("chan wear", "chain wear", "Chain wear"),  # a letter dropped
    ("measure chain waer", "measure chain wear", "Chain wear"),  # two swapped
    ("sat post clamp", "seat post clamp", "Saddle height"),  # before the word beside it
])
def test_a_short_word_the_course_writes_beside_the_next_is_corrected(
        searcher, typed: str, meant: str, heading: str) -> None:
    found = searcher.search(typed)
    assert (found.suggestion, found.suggestion_searched) == (meant, True)
    assert not found.relaxed
    assert [hit.heading for hit in found.results] == [heading]


def test_only_beside_a_word_the_course_writes_it_beside(searcher) -> None:
    """"chan" beside "wear" is chain; beside "rag", which the section on cleaning writes
    with "chain" but never next to it, it is left as typed, as "red" beside "green" once
    should have been where the course wrote "read" elsewhere in the section."""
    assert searcher.search("chan wear").suggestion == "chain wear"
    found = searcher.search("chan rag")
    assert found.suggestion is None and found.relaxed
    assert [hit.heading for hit in found.results] == ["Cleaning the chain"]


def test_an_everyday_word_is_never_corrected_beside_others(searcher) -> None:
    """"sat post" is seat post; "set post", an everyday word the course does not write, is
    as the reader typed it, though "seat post" is one slip away and written so."""
    assert searcher.search("sat post").suggestion == "seat post"
    found = searcher.search("set post")
    assert found.suggestion is None and found.relaxed


def test_a_word_in_quotes_is_still_as_typed(searcher) -> None:
    assert searcher.search('"chan wear"').suggestion is None
    assert searcher.search("chan wear").suggestion == "chain wear"

