"""Numbers typed otherwise than the course writes them: a decade in the plural (``1400s``),
a year after circa typed close (``c1455``), a long number without its thousands parted
(``1500`` for "1,500"), an ordinal in words or digits (``fifteenth`` and ``15th``). Each is
searched as the number too, silently; and a number is never "corrected" to another one
(``1400s`` was shown as "1040s", which the course writes, and found only that).

The course is this file's own: a few notes on early paper mills."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

LESSONS = {
    "01-mills.md": """---
title: Paper mills
---

## Rags

A mill beat linen rags to pulp with hammers driven by a water wheel. The mill at Fabriano
was working by about 1270. A few hand mills still work in the 21st century.

## Far east

Paper from mulberry bark was made in China long before; a scholar of the 1040s wrote of
type baked from clay.

## Mould and deckle

A vatman dipped the mould, shook it and passed it to the coucher. A good pair made a
ream in a morning and a stock of 2,500 sheets in a week, 30 sheets to a post.

## Watermarks

Wire twisted into a shape and sewn onto the mould left a thin place in each sheet: a
watermark. Mills were marking their sheets so from the late thirteenth century, and the
oldest dated one was made c. 1282.

## Cheaper paper

Around 1400 paper cost a sixth of what parchment did, and by 2500 feet of mill race a town
could run three vats. In the 16th century paper was the stuff of every office.
""",
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("mills"), LESSONS) as opened:
        yield opened


def headings(found) -> list[str]:
    return [hit.heading for hit in found.results]


def test_a_decade_in_the_plural_finds_its_number_and_is_not_corrected(searcher) -> None:
    found = searcher.search("1400s")
    assert found.suggestion is None
    assert headings(found) == ["Cheaper paper"]
    assert "<mark>1400</mark> paper" in found.results[0].snippet
    assert searcher.search("30s").total == 0  # thirty seconds as often: not every 30


def test_a_number_is_never_corrected_to_another(searcher) -> None:
    found = searcher.search("1070s")  # one slip from the 1040s the course writes
    assert found.suggestion is None
    assert found.total == 0


def test_a_year_after_circa_typed_close_finds_the_year(searcher) -> None:
    found = searcher.search("c1282")
    assert found.suggestion is None
    assert headings(found) == ["Watermarks"]


@pytest.mark.parametrize("query, wanted", [
    ("2500", {"Mould and deckle", "Cheaper paper"}),  # "2,500 sheets" and "2500 feet"
    ("2500 sheets", {"Mould and deckle"}),
])
def test_a_long_number_finds_it_written_with_its_thousands_parted(searcher, query,
                                                                    wanted) -> None:
    assert set(headings(searcher.search(query))) == wanted


def test_a_number_s_thousands_are_marked_whole(searcher) -> None:
    snippet = searcher.search("2500 sheets").results[0].snippet
    assert "<mark>2</mark>,<mark>500</mark> <mark>sheets</mark>" in snippet


@pytest.mark.parametrize("query, wanted", [
    ("thirteenth century", "Watermarks"),
    ("13th century", "Watermarks"),
    ("sixteenth century", "Cheaper paper"),
    ("16th century", "Cheaper paper"),
    ("twenty-first century", "Rags"),
])
def test_an_ordinal_in_words_or_digits_finds_the_other(searcher, query, wanted) -> None:
    found = searcher.search(query)
    assert not found.relaxed and found.suggestion is None
    assert headings(found) == [wanted]


def test_an_ordinal_s_other_form_is_marked(searcher) -> None:
    snippet = searcher.search("sixteenth century").results[0].snippet
    assert "<mark>16th</mark> <mark>century</mark>" in snippet


def test_a_name_with_a_number_after_it_may_still_lose_the_number(tmp_path) -> None:
    """A placeholder's name ("action1", "step2") is corrected to the word it numbers, as
    before numbers were spared: only a correction to other numbers is refused."""
    lessons = {"01-rules.md": "---\ntitle: Rules\n---\n\n## Actions\n\nEach rule runs its "
               "actions in order; an action is one shell command.\n"}
    with open_course(tmp_path, lessons) as opened:
        found = opened.search("action1")
    assert found.total == 1 and found.suggestion in ("action", "actions")
