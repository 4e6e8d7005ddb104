"""Numbers of several parts in a query: a ratio (``2:1``), a fraction (``3/4``), a decimal
(``1.5``). Each is searched as a phrase of its digits, as a word of several parts is
(``key-value``), and a snippet marks it whole, never a digit of it alone. A colon or slash
between digits parted them as a space does, so ``1:1`` found every section with a 1 in
it ("1.5 kg", "1,500 eggs") and ``2:1`` marked the 1:1 of another line.

The course is this file's own: an apiary's notes on feeding."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

LESSONS = {
    "01-feeding.md": """---
title: Feeding
---

## Syrup

Mix 1:1 syrup in spring to get the queen laying. Mix 2:1 syrup in autumn, when the bees
must store it fast.

## Packages

A package weighs 1.5 kg to 2 kg and holds some 10,000 bees; the queen starts laying 3 or 4
days after her release, and lays up to 1,500 eggs a day at the peak.

## Frames

Fill 3/4 of a frame with foundation. Leave 3 frames of stores and 4 of brood.
""",
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("feeding"), LESSONS) as opened:
        yield opened


def headings(found) -> list[str]:
    return [hit.heading for hit in found.results]


@pytest.mark.parametrize("query", ["1:1", "2:1", "3/4"])
def test_a_ratio_or_fraction_finds_only_the_sections_that_write_it(searcher, query) -> None:
    wanted = "Frames" if "/" in query else "Syrup"
    assert headings(searcher.search(query)) == [wanted]


def test_a_ratio_s_snippet_marks_the_ratio_not_another(searcher) -> None:
    snippet = searcher.search("2:1").results[0].snippet
    assert "<mark>2</mark>:<mark>1</mark> syrup" in snippet
    assert "<mark>1</mark>:" not in snippet and ":<mark>1</mark> syrup in spring" not in snippet


def test_a_decimal_s_snippet_marks_it_whole(searcher) -> None:
    found = searcher.search("1.5")
    assert headings(found) == ["Packages"]
    assert "1,<mark>500</mark>" not in found.results[0].snippet
    assert "<mark>1</mark>,500" not in found.results[0].snippet


def test_a_word_and_a_number_after_a_colon_are_still_two_words(searcher) -> None:
    """Only digits on both sides join: ``frame:3`` is frame and 3, as before."""
    assert headings(searcher.search("frames:3")) == ["Frames"]


@pytest.mark.parametrize("query", ["35C", "35c stores"])
def test_a_number_typed_with_its_unit_is_searched_apart_unsaid(tmp_path, query) -> None:
    """The course writes "35 °C"; "35C" finds it, and says nothing of a correction."""
    lessons = {"01-warmth.md": "---\ntitle: Warmth\n---\n\n## The brood nest\n\nThe nest "
               "stays near 35 °C while there is brood, on the warmth of its stores.\n\n"
               "## Winter\n\nIn a cold spell the cluster tightens.\n"}
    with open_course(tmp_path, lessons) as opened:
        found = opened.search(query)
    assert found.total == 1 and found.results[0].heading == "The brood nest"
    assert found.suggestion is None and not found.suggestion_searched


@pytest.mark.parametrize("query", ["1.5kg", "1.5KG", "1.5kg package"])
def test_a_decimal_typed_with_its_unit_is_searched_apart_unsaid(searcher, query) -> None:
    """The course writes "1.5 to 2 kg" and "1.5 kg"; a reader types "1.5kg", which found
    nothing: the number's two parts and the unit are three words of the index, and only
    a whole number before a unit ("35C") was cut from it."""
    found = searcher.search(query)
    assert headings(found) == ["Packages"] and not found.relaxed
    assert found.suggestion is None and not found.suggestion_searched
