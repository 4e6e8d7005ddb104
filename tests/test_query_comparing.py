"""A reader who compares two topics: "thymol vs oxalic". The "vs" is no topic, so a section
that writes both is the answer. It was searched as a word wherever any heading wrote it
("Nuc vs package"), so that heading was found for "vs" alone and the search went relaxed.
Only a "VS" that begins a name the course writes ("VS Code") is a word to search.

The course is this file's own: an apiary's notes on mite treatments, buying bees and
keeping records."""

from __future__ import annotations

import pytest
from course_fixtures import first, open_course

LESSONS = {
    "01-mites.md": """---
title: Mites
---

## Treatments

Thymol strips go in when the evenings are still warm. Oxalic acid is dribbled in midwinter,
once the brood is gone.

## Swarm control

A swarm leaves with the old queen; supersedure replaces her quietly, without a swarm.
""",
    "02-buying.md": """---
title: Buying bees
---

## Nuc vs package

A nuc arrives on frames with brood. A package arrives as loose bees and a caged queen.
""",
    "03-records.md": """---
title: Records
---

## Hive notes

Keep one note file per hive and open it in VS Code on the shed laptop.

## Spare code

The lock on the shed takes the code written inside the lid.
""",
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("mites"), LESSONS) as opened:
        yield opened


@pytest.mark.parametrize(("query", "place"), [
    ("thymol vs oxalic", ("mites", "treatments")),
    ("swarm vs supersedure", ("mites", "swarm-control")),
    ("thymol vs. oxalic", ("mites", "treatments")),
    ("Thymol VS oxalic", ("mites", "treatments")),
])
def test_a_comparison_finds_the_section_on_both_though_a_heading_writes_vs(
        searcher, query: str, place: tuple[str, str]) -> None:
    found = searcher.search(query)
    assert not found.relaxed
    assert found.total == 1 and first(found) == place


def test_the_vs_of_a_name_the_course_writes_is_searched(searcher) -> None:
    """"VS Code" is a name: `open vs code` finds the note on it, not the shed's lock code."""
    found = searcher.search("open vs code")
    assert found.total == 1 and first(found) == ("records", "hive-notes")
