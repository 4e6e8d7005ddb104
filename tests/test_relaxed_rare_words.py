"""A search no section answers whole ("No section has every word") ranks first the sections
holding its rarest word. Each section holds some of the words, and the rare one is what the
reader asked about; the common one is what the whole course is about. At BM25's weights a
common word said twice in a short section outscored a rare word said once in a long one:
the only section on a swarm came below every short section that said "beekeepers".

The course is this file's own: a club's notes for new beekeepers."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

LESSONS = {
    "01-club.md": """---
title: The club
---

## Meetings

Beekeepers meet on the first Sunday. New beekeepers bring a veil.

## Borrowing kit

Beekeepers may borrow a smoker. Beekeepers return it clean.

## Fees

Beekeepers pay a small fee each year; older beekeepers pay less.
""",
    "02-season.md": """---
title: The season
---

## Spring inspections

Open the hive on a warm, still day, when most foragers are out and the colony is calm.
Lift each frame in turn and look for eggs, young larvae and capped brood, and for queen
cells along the bottom bars. Note what you find on a card kept under the roof, so the
next visit starts from it. A colony short of stores in April needs syrup at once, since
a cold week can starve it before the first flowers open. If the queen cells are many,
the colony is getting ready to swarm, and it needs more room or a split.
""",
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("bees"), LESSONS) as opened:
        yield opened


@pytest.mark.parametrize("typed", [
    "beekeepers' swarm", "beekeepers swarm",
    "beekepers swarm",  # a misspelt word weighs as the word it is searched as
])
def test_the_section_holding_the_rare_word_comes_first(searcher, typed: str) -> None:
    found = searcher.search(typed)
    assert found.relaxed
    headings = [hit.heading for hit in found.results]
    assert headings[0] == "Spring inspections"
    assert set(headings[1:]) == {"Meetings", "Borrowing kit", "Fees"}


def test_every_word_found_is_ranked_as_before(searcher) -> None:
    """A search some section answers whole is no relaxed one: the rare word weighs as
    BM25 weighs it."""
    found = searcher.search("queen cells")
    assert not found.relaxed
    assert [hit.heading for hit in found.results] == ["Spring inspections"]
