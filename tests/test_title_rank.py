"""A section ranks by what it says itself: its lesson's title counts less than its own
words, and a section that defines a term comes first for it."""

from __future__ import annotations

import pytest
from course_fixtures import built_course

from lessonsearch.searcher import Searcher

FILLER = "Then look at the addresses each device has, and restart what looks stuck."

LESSONS = {
    "01-radio.md": """---
title: Wi-Fi bands and channels
slug: radio
---

# Wi-Fi bands and channels

## Channels

Each band is split into channels. The centre of a channel is what a scanner app shows,
and how much of the band one network takes is its width.

## Placement

Put the box high up and near the middle of the flat. A larger house may need a second box
that passes traffic back to the first one.
""",
    "02-help.md": f"""---
title: Fixing a slow connection
slug: help
---

# Fixing a slow connection

## Start at the bottom

Check the cable or the Wi-Fi connection first. {FILLER}

## Ask a neighbour

{FILLER}
""",
    "03-boxes.md": f"""---
title: Boxes in the hallway
slug: boxes
---

# Boxes in the hallway

## What the box does

Your flat and the street are two separate networks. Something passes parcels between
them, and we call this box a hub. {FILLER}

## Lights on the front

A hub sits in every flat, and the one in the hallway blinks all day: each light of a hub
is one of its ports. {FILLER}
""",
}

GLOSSARY = """# Glossary

Wi-Fi
: Wireless networking by radio.
  Also: WLAN, WiFi
"""


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    found = Searcher.open(built_course(tmp_path_factory.mktemp("title-rank"), LESSONS,
                                       GLOSSARY))
    yield found
    found.close()


def places(response) -> list[tuple[str, str | None]]:
    return [(hit.lesson, hit.anchor) for hit in response.results]


@pytest.mark.parametrize("query", ["Wi-Fi", "wifi", "WLAN"])
def test_a_section_that_writes_the_word_comes_before_one_whose_title_alone_has_it(
        searcher: Searcher, query: str) -> None:
    """The radio lesson's short sections never write Wi-Fi: only their lesson's title (and
    so the names of its term) do. The section of another lesson that writes it comes first,
    by whichever name the reader searches."""
    found = places(searcher.search(query))
    assert found[0] == ("help", "start-at-the-bottom")
    assert ("radio", "channels") in found  # a lesson on Wi-Fi is still about Wi-Fi


def test_a_lesson_title_still_finds_the_lesson(searcher: Searcher) -> None:
    found = places(searcher.search("Wi-Fi bands"))
    assert {lesson for lesson, _ in found} == {"radio"}


def test_a_section_that_defines_a_term_comes_first_for_it(searcher: Searcher) -> None:
    """"we call this box a hub" says what a hub is, once in passing; the next section writes
    hub twice, and came first."""
    assert places(searcher.search("hub"))[0] == ("boxes", "what-the-box-does")


@pytest.mark.parametrize("query", ["wifi", "WLAN"])
def test_a_search_by_another_name_marks_the_name_the_section_writes(
        searcher: Searcher, query: str) -> None:
    """The section was found through the term's names; its snippet marked nothing."""
    hit = searcher.search(query).results[0]
    assert "<mark>Wi</mark>-<mark>Fi</mark> connection" in hit.snippet
