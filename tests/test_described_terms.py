"""A word no lesson writes but a glossary definition does: "torpedo" of a bâtard, "a torpedo-
shaped loaf". The search found nothing; the term whose definition writes it is shown, and
its sections. The course is this file's own."""

from __future__ import annotations

import pytest
from course_fixtures import first, open_course, terms

LESSONS = {
    "01-shaping.md": """---
title: Shaping loaves
---

## Long loaves

Roll the dough into a bâtard, tapering the ends, and let it rest seam side up.

## Round loaves

A boule is shaped by tucking the dough under itself until the surface is taut.
""",
}

GLOSSARY = """bâtard
: An oval loaf with pointed ends, shaped like a torpedo, as a baker rolls it.

boule
: A round loaf; the word is French for ball, and a baker's first shape.

crumb
: The inside of a loaf, which a baker usually judges by its holes.

couche
: A linen cloth a baker folds around shaped dough, whose folds keep its shape despite
its softness.
"""


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("loaves"), LESSONS, GLOSSARY) as opened:
        yield opened


@pytest.mark.parametrize(("query", "term", "anchor"), [
    ("torpedo", "bâtard", "long-loaves"), ("torpedoes", "bâtard", "long-loaves"),
    ("ball", "boule", "round-loaves")])
def test_a_word_only_a_definition_writes_finds_its_term(searcher, query, term, anchor):
    found = searcher.search(query)
    assert terms(found) == [term]
    assert found.related == ((query, term),)  # "No results for torpedo; showing … bâtard"
    assert first(found)[1] == anchor


@pytest.mark.parametrize("query", [
    "zebra",  # no definition writes it
    "baker",  # four do: the word says too little to choose
    "usually",  # one does, but an adverb says nothing of what a term is
    "whose", "despite",  # so do function words
    '"torpedo"',  # asked for as written
])
def test_no_term_is_shown_where_no_definition_or_too_many_write_the_word(searcher, query):
    found = searcher.search(query)
    assert terms(found) == [] and found.total == 0
