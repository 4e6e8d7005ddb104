"""A lesson's title counts the same in each of its documents, however short the document:
a one-line section or a one-line lesson top no longer comes first by its title alone."""

from __future__ import annotations

import pytest
from course_fixtures import built_course

from lessonsearch.query import parse_query
from lessonsearch.query_plan import plan
from lessonsearch.searcher import Searcher
from lessonsearch.whoosh_index import CONTENT
from lessonsearch.word_scoring import can_score

LESSONS = {
    "01-cutting-back.md": """---
title: Pruning roses
slug: cutting-back
---

Late winter is the usual time to cut back most garden shrubs, before the new buds swell.
This lesson walks through it one step at a time.

## Choosing the cut

Take out dead and crossing stems first, down to healthy wood. Then shorten the strongest
stems by about a third, cutting just above an outward-facing bud so the new growth opens
the middle of the plant to light and air.

## Look again

Step back and check the shape is even.

## Clearing up

Gather every clipping and burn or bin it rather than composting: leaves left under the
plant carry spores of black spot into next spring.
""",
    "02-sourness.md": """---
title: Soil acidity
slug: sourness
---

How sour is the soil in my beds?

## Why acidity matters

Most vegetables grow best in ground that is close to neutral. Where the acidity is high,
the roots cannot take up the calcium and phosphorus that are there, and brassicas suffer
clubroot; lime raises the figure over a season or two. Blueberries and rhododendrons want
the opposite, and sulphur chips lower it.

## Testing a sample

Dig a trowel of soil from a few places in the bed, mix it in a clean jar with distilled
water, and dip the strip from a soil kit. Match its colour to the chart: below six the soil
is acid, and its acidity tells you how much lime to spread per square metre.
""",
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    found = Searcher.open(built_course(tmp_path_factory.mktemp("title-length"), LESSONS))
    yield found
    found.close()


def places(response) -> list[tuple[str, str | None]]:
    return [(hit.lesson, hit.anchor) for hit in response.results]


@pytest.mark.parametrize("query, whoosh", [("roses", False), ("roses OR -zebra", True)])
def test_a_word_only_the_title_writes_finds_the_lesson_top_first_then_its_sections_in_order(
        searcher: Searcher, query: str, whoosh: bool) -> None:
    """Only the title says "roses". The one-line "Look again" came first, the lesson's top
    second: shorter, so its title's words counted more. The same where Whoosh's matchers
    score the query (an OR beside a NOT, which every section without "zebra" matches,
    below those) as where the posting blocks do."""
    response = searcher.search(query)
    assert can_score(plan(parse_query(query), relaxed=response.relaxed).query,
                     CONTENT) is not whoosh
    assert places(response)[:4] == [("cutting-back", None), ("cutting-back", "choosing-the-cut"),
                                ("cutting-back", "look-again"),
                                ("cutting-back", "clearing-up")]


@pytest.mark.parametrize("query", ["soil acidity", "Soil acidity"])
def test_the_sections_that_answer_come_before_a_one_line_top_found_by_the_title(
        searcher: Searcher, query: str) -> None:
    """The lesson's top is one line that writes "soil" once and "acidity" never: its title
    gave it the rest, and its shortness put it above the sections that explain acidity and
    how to test the soil for it. A word only that line writes still finds it first."""
    found = places(searcher.search(query))
    assert found[:2] == [("sourness", "testing-a-sample"), ("sourness", "why-acidity-matters")]
    assert found[2] == ("sourness", None)
    assert places(searcher.search("sour")) == [("sourness", None)]

