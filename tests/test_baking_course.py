"""What a reader of a bread-baking course types: a French name without its accents, and a
hyphenated word typed as two words whose first is a stop word ("over proofed").

The course is this file's own: three short lessons and a glossary, in the words a home
baker's course uses."""

from __future__ import annotations

from pathlib import Path

import pytest
from course_fixtures import built_course, first, open_course
from web_fixtures import serving

from lessonsearch.query import parse_query

LESSONS = {
    "01-pre-ferments.md": """---
title: Pre-ferments
---

## Poolish

A poolish is flour and water in equal weights with a pinch of yeast, left overnight. It is
wetter than a biga, the stiff pre-ferment of Italian bakers.

## Pâte fermentée

A piece of yesterday's dough, salt and all, kept cold and mixed into today's batch.
""",
    "02-proofing.md": """---
title: Proofing the shaped loaf
---

## Proofed in a basket

A shaped loaf is proofed in a floured basket. Proofed loaves are proofed seam side up, and a
loaf proofed cold is proofed for longer.

## The poke test

Press a floured finger into the dough. A dent that springs back at once means the loaf is
under-proofed; a dent that stays means it is over-proofed and will spread in the oven.

## Keeping it cold

Put the basket in the fridge overnight; in the fridge the yeast slows down.
""",
    "03-troubles.md": """---
title: When loaves go wrong
---

## A flat loaf

A loaf that spreads flat was usually over-proofed: its gluten gave way before the bake.

## A dense loaf

A dense crumb often comes from dough that was under-proofed, or from a cold kitchen.
""",
}

GLOSSARY = """pâte fermentée {#pate-fermentee}
: A piece of finished, salted dough kept from one bake and mixed into the next.

over-proofed {#over-proofed}
: Left to rise so long that the gluten weakens and the loaf spreads.
"""


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_course(tmp_path_factory.mktemp("bread"), LESSONS, GLOSSARY)


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("bread-open"), LESSONS, GLOSSARY) as opened:
        yield opened


def _suggested(client, prefix: str) -> list[tuple[str, str]]:
    got = client.get("/api/suggest", query_string={"q": prefix})
    assert got.status_code == 200
    return [(s["kind"], s["text"]) for s in got.get_json()["suggestions"]]


@pytest.mark.parametrize("typed", ["pate", "Pate f", "pate fermentee", "pâte", "pâte ferme",
                                   "fermentee", "PÂTE"])
def test_a_name_with_accents_is_completed_without_them(index_dir: Path, typed: str) -> None:
    """The search box offered nothing for "pate", though the search finds "Pâte fermentée"
    for it: a reader who cannot type â saw an empty list under the box."""
    with serving(index_dir) as client:
        found = _suggested(client, typed)
        assert ("term", "pâte fermentée") in found
        assert ("heading", "Pâte fermentée") in found


def test_the_address_bar_is_offered_the_accented_name_too(index_dir: Path) -> None:
    with serving(index_dir) as client:
        body = client.get("/opensearch/suggestions", query_string={"q": "pate"}).get_json()
        assert body[0] == "pate"
        assert "pâte fermentée" in [text.casefold() for text in body[1]]


def test_an_accent_folded_completion_names_no_alias(index_dir: Path) -> None:
    """The name itself explains the completion: "matched" stays empty."""
    with serving(index_dir) as client:
        got = client.get("/api/suggest", query_string={"q": "pate"}).get_json()
        term = next(s for s in got["suggestions"] if s["kind"] == "term")
        assert term["matched"] is None


@pytest.mark.parametrize(("query", "written"), [
    ("over proofed", "over-proofed"), ("under proofed", "under-proofed"),
    ("Over proofed", "Over-proofed")])
def test_a_stop_word_and_a_word_the_course_hyphenates_are_its_word(
        searcher, query: str, written: str) -> None:
    """"over" is a stop word, so "over proofed" searched "proofed" alone: the section that
    writes "proofed" most came first, and every section on proofing was a hit. The course
    writes over-proofed with its hyphen, so the two are that word, and the reader is told."""
    found = searcher.search(query)
    word = written.lower()
    assert found.total == 2
    assert all(word in (hit.snippet or "").lower().replace("<mark>", "").replace("</mark>", "")
               for hit in found.results)
    assert first(found)[1] != "proofed-in-a-basket"
    assert (found.suggestion, found.suggestion_searched) == (written, True)


def test_a_question_with_such_a_pair_finds_the_word_first(searcher) -> None:
    found = searcher.search("why is my loaf over proofed")
    assert first(found) in {("proofing", "the-poke-test"), ("troubles", "a-flat-loaf")}
    assert found.suggestion == "why is my loaf over-proofed"


@pytest.mark.parametrize("query", ["in the fridge", "fridge overnight", "over-proofed",
                                   "loaf proofed"])
def test_words_the_course_writes_apart_are_searched_as_typed(searcher, query: str) -> None:
    """"in the fridge": the course writes "in the fridge", never "in-fridge"; no notice."""
    found = searcher.search(query)
    assert found.total > 0
    assert found.suggestion is None and not found.suggestion_searched


def test_a_one_letter_stop_word_is_no_part_of_a_word() -> None:
    """A question's "I" before a verb: shell-novice writes "reverse-i-search", and "how do I
    search backwards" was suggested as "how do I-search backwards"."""
    from lessonsearch.searcher import _hyphen_joined
    asked = parse_query("how do I search backwards")
    assert _hyphen_joined(asked, lambda first, second: True) is None
    joined = _hyphen_joined(parse_query("why over proofed"), lambda first, second: True)
    assert joined is not None and joined[1]("why over proofed") == "why over-proofed"


@pytest.mark.parametrize(("query", "written"), [
    ('"pate fermentee"', '"pâte fermentée"'), ('"pate"', '"pâte"'),
    ('"Pate fermentee" salt', '"Pâte fermentée" salt')])
def test_a_phrase_typed_without_its_accents_is_the_course_s(
        searcher, query: str, written: str) -> None:
    """A phrase in quotes is searched as written, so "pate fermentee" in quotes, from a
    keyboard without accents, found nothing, under the card for pâte fermentée itself."""
    found = searcher.search(query)
    assert first(found) == ("pre-ferments", "pâte-fermentée")
    assert (found.suggestion, found.suggestion_searched) == (written, True)


@pytest.mark.parametrize("query", ['"pâte fermentée"', '"poolish"', '"over-proofed"'])
def test_a_phrase_written_as_the_course_writes_it_is_no_correction(searcher, query) -> None:
    found = searcher.search(query)
    assert found.total > 0
    assert found.suggestion is None and not found.suggestion_searched


def test_a_phrase_in_quotes_is_still_no_slip(searcher) -> None:
    """Only accents: a misspelt word in quotes is still searched as written."""
    found = searcher.search('"pate fermantee"')
    assert found.total == 0


@pytest.mark.parametrize("query", ["poolish vs biga", "poolish vs. biga", "Poolish versus biga",
                                   "biga VS poolish"])
def test_a_comparison_finds_the_sections_on_both(searcher, query: str) -> None:
    """"vs" is no topic: no section writes it, so "poolish vs biga" said "No section has
    every word" and listed sections on either, where one compares the two."""
    found = searcher.search(query)
    assert not found.relaxed
    assert found.total == 1 and first(found) == ("pre-ferments", "poolish")


def test_a_vs_the_course_writes_is_searched(tmp_path: Path) -> None:
    """A course on editors writes "VS Code": "install vs code" keeps its "vs"."""
    lessons = {"01-editors.md": "---\ntitle: Editors\n---\n\n## Installing\n\nInstall VS Code "
                                "from its site, then open a folder.\n\n## Other code\n\nInstall "
                                "the code of a plugin by hand.\n"}
    with open_course(tmp_path, lessons) as opened:
        found = opened.search("install vs code")
        assert found.total == 1 and first(found) == ("editors", "installing")
