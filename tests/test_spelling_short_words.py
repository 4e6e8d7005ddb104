"""A reader who misspells a short word of the course: "hony" for honey, "quen" for queen,
"waks" for wax. Words of three or four letters were never corrected (one slip takes a short
word to too many others), so each found nothing. Now one is, to a word the course leans on
with no rival near it, or to the word of a glossary term's name that the words beside it
complete; never a word the course writes, nor to a word it seldom writes.

The course is this file's own: an apiary's notes for a new volunteer."""

from __future__ import annotations

from pathlib import Path

import pytest
from course_fixtures import built_course, open_course, terms

LESSONS = {
    "01-the-apiary.md": """---
title: Around the apiary
---

## The hive

Each hive stands on a low stand, facing away from the path. Lift the hive roof slowly; a
hive opened in a hurry is a hive of angry bees. We keep six hive stacks in the orchard.

## Honey and wax

Honey is taken in late summer, once a frame of honey is capped with fresh wax. The wax
cappings are melted down, and the clean wax is sold beside the honey jars. Honey left on
the hive feeds the colony. Wax moths spoil stored comb.

## Nucs for new volunteers

A nuc is a small colony on five frames. Each nuc comes with a laying queen; we pick a nuc up
in May and move the nuc into a full hive a month later. A drone has no sting.

## Queen excluder

A queen excluder sits between the brood boxes and the honey boxes, so the queen lays only
below it. Check that the excluder is flat before the roof goes on.
""",
}

GLOSSARY = """# Apiary words

nuc {#nuc}
: A small starter colony on a few frames.

drone {#drone}
: A male bee.

queen excluder {#queen-excluder}
: A slotted sheet the workers pass through and the queen cannot.
"""


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_course(tmp_path_factory.mktemp("apiary"), LESSONS, GLOSSARY)


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("apiary-open"), LESSONS, GLOSSARY) as opened:
        yield opened


@pytest.mark.parametrize(("typed", "meant"), [
    ("hony", "honey"),  # a letter dropped
    ("hiev", "hive"),  # two swapped
    ("waks", "wax"),  # x spelt by ear
    ("nuk", "nuc"),  # a k for a hard c
    ("dron", "drone"),  # a glossary term the course writes once
])
def test_a_misspelt_short_word_is_corrected_to_the_course_s(searcher, typed: str,
                                                              meant: str) -> None:
    found = searcher.search(typed)
    assert (found.suggestion, found.suggestion_searched) == (meant, True)
    assert found.total > 0


def test_a_misspelt_short_word_finds_the_sections_that_write_the_word_meant(searcher) -> None:
    found = searcher.search("hony")
    assert {hit.heading for hit in found.results} == {"Honey and wax", "Queen excluder"}


def test_a_short_glossary_term_misspelt_shows_its_card(searcher) -> None:
    assert terms(searcher.search("nuk")) == ["nuc"]


def test_a_term_s_name_with_a_short_word_misspelt_is_the_term(searcher) -> None:
    """"quen" alone is one slip from queen, but the words beside it say so for certain: it
    was searched for "excluder" alone, most words, with no card."""
    found = searcher.search("quen excluder")
    assert (found.suggestion, found.suggestion_searched) == ("queen excluder", True)
    assert not found.relaxed
    assert terms(found) == ["queen excluder"]


def test_a_term_s_name_in_quotes_with_one_word_misspelt_is_the_term(searcher) -> None:
    found = searcher.search('"quen excluder"')
    assert found.suggestion == '"queen excluder"'
    assert found.total == 1 and terms(found) == ["queen excluder"]


def test_a_phrase_that_names_no_term_is_still_as_typed(searcher) -> None:
    assert searcher.search('"quen lays"').total == 0


@pytest.mark.parametrize("typed", [
    "cob",  # one slip from "comb", which the course writes once
    "stan",  # "stand" and "stands": written too seldom
])
def test_a_short_word_near_no_word_the_course_leans_on_is_left_alone(searcher,
                                                                      typed: str) -> None:
    found = searcher.search(typed)
    assert found.suggestion is None and found.total == 0


@pytest.mark.parametrize("typed", ["jars", "stand", "moths", "lift"])
def test_a_short_word_the_course_writes_is_never_corrected(searcher, typed: str) -> None:
    found = searcher.search(typed)
    assert found.suggestion is None and found.total > 0


def test_a_short_word_beside_words_that_find_their_section_is_not_guessed_at(searcher) -> None:
    """"hone" is one slip from honey, but beside "cappings", which the course never writes
    next to "honey", it is as likely a word the course does not write: the search keeps to
    what was typed (a course that wrote "red, green and blue" in one section lost it to
    "read, green and blue"). Beside "jars" it is honey: the course writes "honey jars"."""
    found = searcher.search("hone cappings")
    assert found.suggestion is None
    assert [hit.heading for hit in found.results] == ["Honey and wax"]
    assert searcher.search("hone jars").suggestion == "honey jars"
