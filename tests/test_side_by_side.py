"""Words a query writes side by side: a section that writes them so is favoured over one
that only holds each somewhere, and a term's alias of two words finds the sections that
mention the term first."""

from __future__ import annotations

import pytest
from course_fixtures import built_course

from lessonsearch.searcher import Searcher

LESSONS = {
    "01-containers.md": """# Growing in containers

## Why containers?

A balcony, a doorstep or a sunny windowsill can grow herbs and salad leaves. Containers
warm up quickly in spring and keep slugs at a distance.

## Filling a pot

Should a pot be filled with soil dug from the garden?

## What goes into potting soil

Bought potting soil is mostly composted bark or coir, with grit for drainage and a little
slow fertiliser mixed through. It holds water without turning to mud, and it stays loose
enough for roots to push through for a whole season. Garden earth, by contrast, packs down
hard once it sits in a pot and is watered every day, and it may carry weed seeds and the
eggs of pests. Refresh the top few centimetres each spring and replace the whole mix every
second year, when the bark has broken down and the water runs straight off.

## Keeping the surface covered

Is the layer on top too thin? Bark, straw and leaf mould all work as mulch, and a thick
one keeps weeds down as well as water in. Top it up in late spring, once the compost has
warmed, and pull it back from the stems so they stay dry.

## Watering

Water until it runs from the holes underneath, then let the top dry out. On hot days a
layer of mulch on the surface slows drying, and a saucer under the pot keeps a little
water back for the afternoon, though roots left standing in it for days will rot.
Containers in full sun may need watering twice a day in midsummer, and ones under the eaves
get no rain at all, so check them even after a wet night.

## Checking the roots

Once a year, tap the rim of the pot on the bench, lift the plant out and look at the root
ball: the root check. Roots
circling round and round the bottom mean the plant needs a larger pot, and a few new ones at
the edge mean it is settled. Do it on a dry day, when the compost slides out in one piece,
and slide it back before the roots dry in the wind.

## Is it thirsty?

Fill the can at the garden tap. To test whether a pot is dry, push a finger into the
compost up to the knuckle.
""",
    "02-pests.md": """# Pests

## Slugs

Slugs hide under pots by day. A ring of grit slows them; so does picking them off at dusk
with a torch, which works better than any bait. Collect them in a jar, move them to the
far end of the garden, and check the undersides of the pots again a few days later.

## Aphids

Aphids cluster on new shoots. Squash them by hand, or hose them off the stems with a jet
of water.
""",
}

GLOSSARY = """root check
: Lifting a plant out of its pot to see whether the roots have filled it.
  Also: tap test
"""


@pytest.fixture(scope="module")
def searcher(tmp_path_factory) -> Searcher:
    folder = tmp_path_factory.mktemp("side-by-side")
    found = Searcher.open(built_course(folder, LESSONS, GLOSSARY))
    yield found
    found.close()


def headings(searcher: Searcher, query: str, **options) -> list[str | None]:
    return [hit.heading for hit in searcher.search(query, **options).results]


def test_a_section_writing_two_words_side_by_side_comes_before_one_holding_each(
        searcher: Searcher) -> None:
    """BM25 put the one-line question that writes "pot" and "soil" apart first: short, it
    scores each word high."""
    assert headings(searcher, "potting soil")[:2] == [
        "What goes into potting soil", "Filling a pot"]


def test_the_words_in_the_other_order_are_not_favoured(searcher: Searcher) -> None:
    assert headings(searcher, "soil potting")[:2] == [
        "Filling a pot", "What goes into potting soil"]


def test_a_stop_word_between_them_is_read_as_the_query_writes_it(searcher: Searcher) -> None:
    """"layer of mulch" is written so in the long section on watering; the short one on
    mulch writes "layer" and "mulch" sentences apart, and comes first for "layer mulch",
    which no section writes."""
    assert headings(searcher, "layer of mulch")[:2] == ["Watering", "Keeping the surface covered"]
    assert headings(searcher, "layer mulch")[:2] == ["Keeping the surface covered", "Watering"]


def test_an_alias_of_two_words_finds_the_section_of_its_term_first(searcher: Searcher) -> None:
    """The index keeps the names of the terms a section mentions beside its words, so the
    section on the root check writes its alias "tap test" side by side there; the short
    section that fills a can at the tap and tests the compost came first."""
    assert headings(searcher, "tap test")[:2] == ["Checking the roots", "Is it thirsty?"]


def test_the_number_of_matches_and_the_pages_do_not_change(searcher: Searcher) -> None:
    """The bonus only reorders: each page of one result is the next of the first page's."""
    whole = searcher.search("pot water", limit=10)
    pages = [searcher.search("pot water", limit=1, page=p)
             for p in range(1, len(whole.results) + 1)]
    assert [page.results[0].url for page in pages] == [hit.url for hit in whole.results]
    assert {page.total for page in pages} == {whole.total}


def test_a_question_favours_its_words_written_side_by_side(searcher: Searcher) -> None:
    assert headings(searcher, "how do I choose potting soil")[:2] == [
        "What goes into potting soil", "Filling a pot"]
