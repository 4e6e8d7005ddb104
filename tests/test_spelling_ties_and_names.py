"""Which of the course's words a correction shows, and how it writes it.

Two words one letter from the reader's, each written as often, were parted by the order of
the alphabet: "lenta" showed as "lent" (a lender's word) where the course's tempo marking is
"lento", a vowel changed, which fewer slips explain. And a place the course writes only
at sentences' starts and in headings ("Zürich has…", "## Concerts in Zürich") was shown in
lower case ("zürich"), though the course never writes it so.

The course is this file's own: a few notes for an orchestra's new players."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

LESSONS = {
    "01-markings.md": """---
title: Reading the markings
---

## Slow movements

The second movement is marked *lento*: slow, with weight on each bar. Count the rests
aloud until the tempo settles.

## Borrowed instruments

The school lent each new player a violin for the first term. Return it with its bow.
""",
    "02-touring.md": """---
title: Touring abroad
---

## Concerts in Zürich

Zürich has a hall by the lake where the orchestra plays each spring. Bring a warm coat.

## Packing

Tempo markings in the parts are pencilled, never inked. Pack the parts flat.
""",
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("orchestra"), LESSONS) as opened:
        yield opened


@pytest.mark.parametrize(("typed", "meant"), [
    ("lenta", "lento"),
    ("marked lenta", "marked lento"),
])
def test_of_two_words_as_near_the_one_fewer_slips_explain_is_shown(
        searcher, typed: str, meant: str) -> None:
    found = searcher.search(typed)
    assert found.suggestion == meant
    assert [hit.heading for hit in found.results] == ["Slow movements"]


@pytest.mark.parametrize("typed", ["zurich", "Zurich", "ZURICH"])
def test_a_name_only_written_with_its_capital_is_shown_with_it(searcher, typed: str) -> None:
    found = searcher.search(typed)
    assert found.suggestion == "Zürich"
    assert [hit.heading for hit in found.results] == ["Concerts in Zürich"]


def test_a_word_also_written_in_lower_case_stays_in_the_readers_case(searcher) -> None:
    """"Tempo markings…" opens a sentence, but "the tempo settles" is the word."""
    assert searcher.search("tempoo").suggestion == "tempo"
