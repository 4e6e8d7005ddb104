"""A dotted address (``10.0.0.1``) beside other words: one word of the query, searched as a
phrase of its parts, with every other word still required. Its four parts were counted as
four words, so a query of a word and an address read as a long run of words, ranked by how
many of them a section holds: "gateway 10.0.0.1" listed sections without "gateway", with
``relaxed`` false and no word of why, and "pnig 10.0.0.1" was never corrected.

The course is this file's own: a small network's notes on its router."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

LESSONS = {
    "01-router.md": """---
title: The router
---

## Its address

The box in the hallway answers at 10.0.0.1 on the wired side. Open that page in a browser
to reach its settings.

## Leases

Each laptop asks for an address when it joins and gets one such as 10.0.0.23 for a day.

## Reaching it

To see whether the box is alive, ping it: ping 10.0.0.1 prints one line per reply.
Ping is the first thing to try whenever a page will not load.

## Walls

The packet filter drops what nobody asked for. Keep the filter on even at home.
""",
}

GLOSSARY = """# Network words

ping {#ping}
: A small echo sent to a machine to learn whether it answers, and how fast.
"""


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("router"), LESSONS, GLOSSARY) as opened:
        yield opened


def headings(found) -> list[str]:
    return [hit.heading for hit in found.results]


def test_a_word_beside_an_address_is_still_required(searcher) -> None:
    found = searcher.search("browser 10.0.0.1")
    assert headings(found) == ["Its address"]
    assert not found.relaxed


def test_no_section_with_both_says_the_search_was_relaxed(searcher) -> None:
    """No section writes "filter" and the address: the sections with either are shown, and
    the reader is told not every word was found."""
    found = searcher.search("filter 10.0.0.1")
    assert found.relaxed
    assert found.total >= 2


def test_an_unknown_word_beside_an_address_is_relaxed_too(searcher) -> None:
    found = searcher.search("zzqx 10.0.0.1")
    assert found.relaxed


def test_a_misspelt_short_word_beside_an_address_is_corrected(searcher) -> None:
    """A number beside a short unknown word says nothing of whether that word is real, as
    another word would: "pnig 10.0.0.1" is corrected as "pnig" alone is."""
    found = searcher.search("pnig 10.0.0.1")
    assert found.suggestion == "ping 10.0.0.1"
    assert headings(found) == ["Reaching it"]


def test_a_long_run_of_words_is_still_ranked_by_overlap(searcher) -> None:
    """Five words typed are a run of words, any of them enough, as before."""
    found = searcher.search("browser page settings hallway zebra")
    assert not found.relaxed and found.total >= 1


@pytest.mark.parametrize("query", ["ping 10.0.0.1 prints replies .",
                                   "ping , 10.0.0.1 , prints replies"])
def test_punctuation_typed_apart_is_no_word_of_the_run(searcher, query) -> None:
    """A "." or "," typed on its own is no word: four words and a stop are four words, each
    required, not a long run of five ranked by overlap."""
    found = searcher.search(query)
    assert headings(found) == ["Reaching it"]
    assert not found.relaxed
