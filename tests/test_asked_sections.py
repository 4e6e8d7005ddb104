"""A reader who asks what a thing is ("what is a glaze?") is shown first the section that says
what it is, even when other sections use the word more: the one whose heading restates the
question ("What a glaze is"), or, for a term only the glossary defines, the one that says in
its own words what the glossary says. A heading a lesson repeats does not put its short
second section above the one it introduces. A question made only of question and stop words
("how do I") finds the sections that write its words side by side, not every section that
holds a "how" and a "do"."""

from __future__ import annotations

from pathlib import Path

import pytest
from course_fixtures import built_course, first, open_course
from web_fixtures import serving

from lessonsearch.searcher import Searcher

GLOSSARY = """\
---
title: Glossary
---

kiln {#kiln}
: A closed oven that bakes shaped clay hot enough to turn it hard as stone.

slip {#slip}
: Clay thinned with water to a cream, used to join pieces or coat a surface.
"""

LESSONS = {
    "01-firing.md": """\
---
title: Firing your pots
slug: firing
---

## Loading

Stack the kiln from the bottom up. Shelves sit on posts; leave a finger's gap between pots
so the heat reaches every side. Never let glazed pots touch in the kiln.

## The hot box

The kiln in every studio works the same way: closed, brick-lined, an oven that bakes your
shaped clay until it turns as hard as stone. Nothing else in the craft is so final.

## Keeping a log

Write each kiln firing down: the date, the cones and how long the kiln took to cool.
""",
    "02-surfaces.md": """\
---
title: Surfaces and colour
slug: surfaces
---

## Mixing glaze

Weigh the glaze powders dry, then add water until the glaze is like single cream. Sieve the
glaze twice; lumps in a glaze become pinholes after firing. Stir the glaze before each dip.

## What a glaze is

Think of it as a thin coat of glass fused onto the pot's surface in the fire. It seals the
clay and gives it colour and shine.

## Glaze faults

Crawling glaze pulls back into beads; a crazed glaze cracks into a fine net. Most glaze
faults come from glaze laid on too thick or over dust.

## Slip decoration

Trail coloured slip over leather-hard clay, or dip the rim in slip for a band of colour.
""",
    "03-preparing.md": """\
---
title: Preparing clay
slug: preparing
---

## Wedging

Wedging drives the air out of clay and evens its damp. Ram's head wedging rolls the lump
forward and back; spiral wedging turns it like a shell. Wedge for a few minutes before throwing.

## Storing clay

Keep opened bags sealed, with a damp cloth inside.

## Wedging

A short note.
""",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_course(tmp_path_factory.mktemp("pottery"), LESSONS, GLOSSARY)


@pytest.fixture(scope="module")
def course(index: Path):
    opened = Searcher.open(index)
    yield opened
    opened.close()


@pytest.mark.parametrize("query", ["what is a glaze", "what is a glaze?", "what are glazes",
                                   "what exactly is glaze", "define glaze"])
def test_a_heading_restating_the_question_is_first(course: Searcher, query: str) -> None:
    """No glossary entry says where glaze is defined; the sections on mixing it and on its
    faults write "glaze" five times each, but the one headed "What a glaze is" answers."""
    assert first(course.search(query)) == ("surfaces", "what-a-glaze-is")


def test_the_heading_lifts_only_the_question_it_restates(course: Searcher) -> None:
    """Typed alone, or in a question about something else, glaze finds the section that uses
    it most, as before."""
    assert first(course.search("glaze")) != ("surfaces", "what-a-glaze-is")
    assert first(course.search("how do I mix glaze")) == ("surfaces", "mixing-glaze")


@pytest.mark.parametrize("query", ["what is a kiln", "what is a kiln?", "kiln"])
def test_the_section_saying_what_the_glossary_says_is_first(course: Searcher,
                                                            query: str) -> None:
    """Only the glossary defines kiln, and no section uses the word twice as often as any
    other; "The hot box" writes it once, but says what the glossary says (a closed oven
    baking shaped clay hard as stone), so it is where the course says what a kiln is."""
    assert first(course.search(query)) == ("firing", "the-hot-box")


def test_a_section_sharing_few_words_with_the_definition_is_not_lifted(
        course: Searcher) -> None:
    """Slip's glossary definition shares only "clay" and "colour" with "Slip decoration"'s
    text, less than half its words: that section is first by its heading, as before, and
    no other is lifted above it."""
    assert first(course.search("what is slip")) == ("surfaces", "slip-decoration")


def test_a_repeated_heading_does_not_outrank_the_section_it_introduces(
        course: Searcher) -> None:
    """The second "Wedging" is two words long and never writes the word; the first is about
    wedging, and comes first with the word marked in its snippet."""
    response = course.search("wedging")
    assert first(response) == ("preparing", "wedging")
    assert "<mark>" in response.results[0].snippet
    assert [hit.anchor for hit in response.results].index("wedging-1") > 0


STOP_WORD_LESSON = """---
title: Wheels
---

## What it is not

A wheel is not a kiln, and it is not a glaze.

## Centring

How do I centre the clay? Press down with both palms while the wheel turns fast.

## Trimming

Trim the foot once the pot is leather hard; it is what keeps it level.
"""


@pytest.mark.parametrize(("query", "found"), [
    ("What it is not", ["what-it-is-not"]),  # a heading of stop words, typed as it reads
    ("how do I", ["centring"]),  # written so in one section only
    ("Can I?", []), ("so why is the", []),  # written so in none
])
def test_a_question_of_only_question_and_stop_words_finds_them_side_by_side(
        tmp_path: Path, query: str, found: list[str]) -> None:
    """Each of its words is in nearly every section: "how do I" found the sections with a
    "do" and a "how" anywhere, the first with no word marked. Side by side, as a phrase,
    they find the sections that write them so."""
    with open_course(tmp_path, {"wheels.md": STOP_WORD_LESSON}) as searcher:
        response = searcher.search(query)
        assert [hit.anchor for hit in response.results] == found
        if query == "how do I":
            assert "<mark>How</mark> <mark>do</mark> <mark>I</mark> centre" in \
                response.results[0].snippet


def test_the_api_answers_it_as_the_search_does(tmp_path: Path) -> None:
    with serving(built_course(tmp_path, {"wheels.md": STOP_WORD_LESSON})) as client:
        for typing in ("0", "1"):  # a search box still typing it too
            got = client.get("/api/search", query_string={"q": "how do I", "typing": typing})
            assert got.status_code == 200
            assert [hit["anchor"] for hit in got.get_json()["results"]] == ["centring"]


@pytest.mark.parametrize("query", ["how", "the", '"how do I"', "how do I wedge"])
def test_one_stop_word_a_phrase_or_a_question_with_a_topic_is_still_searched(
        course: Searcher, query: str) -> None:
    course.search(query)  # no BadQuery
