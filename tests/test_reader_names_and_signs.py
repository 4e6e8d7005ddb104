"""What a reader of a course other than the sample sees: a capitalised term asked about in
lower case, a hit found only through a term's alias, a negative number, the example an error
sentence gives, and completions by a title's content words.

The course is this file's own: a short stargazing course whose glossary writes a few
one-word names with a capital (most of its terms are in lower case, so a capital there marks
a name: ``TermMatcher.title_rule``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from course_fixtures import built_course, open_course
from web_fixtures import serving

from lessonsearch.errors import BadQuery

LESSONS = {
    "01-mounts.md": """---
title: Mounts for a first telescope
---

## Rocker boxes

A Dobsonian sits in a plain wooden box that turns left and right and tips up and down.
Many owners call their Dobsonian a light bucket, since its wide mirror gathers plenty of
light for its price.

## Lenses in front of the tube

A cheap lens bends blue and red light by different amounts, so bright stars wear a violet
halo. Makers call this chromatic aberration and fight it with a second glass element.

## Pointing the tube

Start with the finder, centre a bright star, then switch to the main eyepiece.
""",
    "02-eyepieces.md": """---
title: The eyepiece drawer
---

## Stretching the focal length

Slide a Barlow between the focuser and the eyepiece and every eyepiece you own gives twice
the power. Good glass in the Barlow matters more than its price tag suggests.

## Hues of the planets

Mars shows a rusty colour even in a small scope, and Jupiter's belts look tan.
""",
    "03-coordinates.md": """---
title: Finding your way by the numbers
---

## Below the celestial equator

The bright star Rigel sits at a declination of about -8 degrees, and the Orion Nebula
near -5 degrees, so both climb well clear of the horizon from northern Europe.

## Above it

Vega sits at about +38 degrees and passes almost overhead from the same places, while
Polaris stays close to +89 degrees all night, 5 degrees from nothing at all.
""",
    "04-planning.md": """---
title: Planning a session
---

## For the deep sky

Wait until the Moon has set, then hunt galaxies low in the south.

## The weather window

Clear nights after a cold front are steady enough for the planets.
""",
}

GLOSSARY = """---
title: Stargazing words
---

Dobsonian
: A reflecting telescope on a simple box mount that swings by hand.
  Also: Dob

Barlow
: A lens that multiplies a telescope's focal length, raising the power of each eyepiece.

chromatic aberration
: Coloured fringes round bright objects, made by a lens that bends colours unequally.
  Also: false color

declination
: How far north or south of the celestial equator a point of the sky lies, in degrees.

eyepiece
: The small lens a viewer looks through, which magnifies the image the telescope forms.

focal length
: The distance from a lens or mirror to the point where it brings light to focus.

light bucket
: A large-aperture telescope bought for faint objects rather than for fine detail.
"""


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_course(tmp_path_factory.mktemp("stars"), LESSONS, GLOSSARY)


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("stars-open"), LESSONS, GLOSSARY) as opened:
        yield opened


def _terms(response) -> list[str]:
    return [t.term for t in response.terms]


@pytest.mark.parametrize("query", ["what is a dobsonian", "what is a dob", "dobsonians?",
                                   "how does a barlow work", "what is a Dob"])
def test_a_lower_case_question_names_a_capitalised_term(searcher, query: str) -> None:
    """The glossary writes Dobsonian and Barlow with a capital, which a lesson's word must
    have to mention them; a reader types a question in lower case and gets the card all
    the same, as they do for the term typed alone."""
    response = searcher.search(query)
    expected = "Barlow" if "barlow" in query else "Dobsonian"
    assert _terms(response) == [expected]
    assert f"<mark>{expected}</mark>" in response.results[0].snippet


def test_a_lower_case_word_the_course_writes_as_a_word_names_no_capitalised_term(
        tmp_path: Path) -> None:
    """A one-word term written with a capital whose word the course also writes in lower
    case, as a word of its own, is no card for a question that uses the word: a course with
    a tool called Finder that tells readers to "finder" nothing, and "how do I align the
    finder" is about the little scope."""
    lessons = {"01-tools.md": """---
title: Tools
---

## Aligning

Align the finder on a distant chimney by day. A finder that drifts needs its screws
tightened, and a loose finder is the commonest complaint.

## Logging

Finder, the logging app, keeps each night's notes.
"""}
    glossary = GLOSSARY + "\nFinder\n: A logging app for observing notes.\n"
    with open_course(tmp_path, lessons, glossary) as opened:
        assert "Finder" not in _terms(opened.search("how do i align the finder"))
        assert _terms(opened.search("finder")) == ["Finder"]  # the term alone still is


def make_course(tmp_path: Path):
    """A course about a build tool Make that writes the name in each of its first sections
    and more often than the verb, but writes "make" in lower case too, as a verb, further
    on."""
    rebuilds = "".join(f"""
## Target {n}

Ask Make for target {n}, and Make rebuilds it when an input is newer.
""" for n in range(12))
    lessons = {"01-build.md": f"""---
title: Rebuilding star charts
---
{rebuilds}""", "02-by-hand.md": """---
title: Charts by hand
---

## Paper and pencil

You can make a star chart by hand: make a list of the bright stars first, then make
a grid and plot them. It takes a whole evening to make one.
"""}
    glossary = GLOSSARY + "\nMake\n: A tool that rebuilds files from rules.\n"
    return open_course(tmp_path, lessons, glossary)


@pytest.mark.parametrize("query", ["how do i make a list", "make a star chart",
                                   "what can i make", "how do i make", "what is make a list"])
def test_a_capitalised_term_whose_word_the_course_also_writes_as_a_verb_names_none(
        tmp_path: Path, query: str) -> None:
    """A reader's "make a list" is the verb, whatever the first few sections hold. The name
    written with its capital, or typed alone, is still the term."""
    with make_course(tmp_path) as opened:
        assert "Make" not in _terms(opened.search(query))
        assert _terms(opened.search("what is Make")) == ["Make"]
        assert _terms(opened.search("make")) == ["Make"]


@pytest.mark.parametrize("query", ["what is make", "What is make?", "what's make",
                                   "whats make", "what exactly is make", "what does make do",
                                   "what is make for", "so what is make", "meaning of make",
                                   "make definition", "what does make mean"])
def test_a_question_asking_what_a_word_is_names_the_capitalised_term(
        tmp_path: Path, query: str) -> None:
    """Asked what it is, the word is a thing's name, not the verb: "what is make" showed no
    card for the build tool Make, since the course writes "make" as a verb too."""
    with make_course(tmp_path) as opened:
        assert _terms(opened.search(query)) == ["Make"]


def test_a_hit_found_through_an_alias_marks_the_term_it_mentions(searcher) -> None:
    """"false color", an alias of chromatic aberration, finds the section on lenses, which
    names the term but never writes the alias: its snippet marks the term as the section
    writes it. "color" alone, a word of the alias, does not: the section never writes it
    (it found the section, its snippet marking the term, as if the alias were the
    section's words)."""
    by_heading = {hit.heading: hit.snippet for hit in searcher.search("false color").results}
    lens = by_heading["Lenses in front of the tube"]
    assert "<mark>chromatic</mark> <mark>aberration</mark>" in lens
    response = searcher.search("color")
    assert _terms(response) == []
    by_heading = {hit.heading: hit.snippet for hit in response.results}
    assert "<mark>colour</mark>" in by_heading["Hues of the planets"]
    assert "Lenses in front of the tube" not in by_heading


@pytest.mark.parametrize("query", ["-5 degrees", "degrees -5", "-5", "--5 degrees", "--5"])
def test_a_minus_before_a_number_is_a_negative_number_not_an_exclusion(searcher,
                                                                       query: str) -> None:
    """``-5 degrees`` searched degrees without the sections that write 5; a minus before a
    digit is a sign, so the number is searched. ``--5`` is -(-5), as ``--model`` is the word
    model: it was refused as a query that only excludes 5."""
    response = searcher.search(query)
    headings = {hit.heading for hit in response.results}
    assert "Below the celestial equator" in headings
    assert "Above it" in headings  # which writes 5 too ("5 degrees from nothing")


def test_a_minus_before_a_word_still_excludes_it(searcher) -> None:
    response = searcher.search("degrees -vega")
    assert {hit.heading for hit in response.results} == {"Below the celestial equator"}


def test_the_command_line_searches_a_negative_number(index_dir: Path) -> None:
    """Quoted, after ``--`` or not, and alone (argparse reads ``-5`` as a value, not an
    option, since no option of the command looks like a number)."""
    for args in (["--", "-5 degrees"], ["-5 degrees"], ["-5"]):
        done = subprocess.run(
            [sys.executable, "-m", "lessonsearch.cli", "search", "--index", str(index_dir),
             *args], capture_output=True, text=True, encoding="utf-8", timeout=120,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"})
        assert done.returncode == 0, (args, done.stderr)
        assert "Below the celestial equator" in done.stdout, args


def test_an_error_sentence_gives_an_example_of_this_course(searcher) -> None:
    """The sentences that say how to write a query gave the sample course's words ("as in:
    kv cache", "as in: cache -model") on every course; they give this one's: a term it
    mentions, and the query with it."""
    with pytest.raises(BadQuery) as empty:
        searcher.search("( ? )")
    with pytest.raises(BadQuery) as excluding:
        searcher.search("-nebula")
    for said in (str(empty.value), str(excluding.value)):
        assert "kv cache" not in said and "cache -model" not in said
    example = str(empty.value).rsplit("as in: ", 1)[1].rstrip(".")
    assert example in {t.term for t in searcher.glossary.records}
    assert str(excluding.value).endswith(f"as in: {example} -nebula.")
    assert searcher.search(example).total > 0


def test_an_excluded_word_is_not_given_as_the_example(searcher) -> None:
    with pytest.raises(BadQuery) as empty:
        searcher.search("?")
    example = str(empty.value).rsplit("as in: ", 1)[1].rstrip(".")
    with pytest.raises(BadQuery) as excluding:
        searcher.search(f"-{example.split()[0]}")
    said = str(excluding.value)
    assert f"as in: {example} " not in said and "as in: " in said


def _suggested(client, prefix: str) -> list[str]:
    got = client.get("/api/suggest", query_string={"q": prefix})
    assert got.status_code == 200
    return [s["text"] for s in got.get_json()["suggestions"]]


def test_completions_go_by_content_words_not_function_words(index_dir: Path) -> None:
    """"fo" offered "Mounts for a first telescope" for its "for", and "the" every title with
    a "the" inside; a function word inside a title completes it only once the reader types
    past it, so "for a f" still finds it. A title's first words complete it as typed ("fo":
    "For the deep sky", "the": "The weather window")."""
    with serving(index_dir) as client:
        fo = _suggested(client, "fo")
        assert "focal length" in fo
        assert "Mounts for a first telescope" not in fo
        assert "For the deep sky" in fo
        the = _suggested(client, "the")
        assert {"The weather window", "The eyepiece drawer"} <= set(the)
        assert not {"For the deep sky", "Pointing the tube", "Hues of the planets"} & set(the)
        assert "The weather window" in _suggested(client, "the w")
        assert "The eyepiece drawer" in _suggested(client, "eye")
        assert "Mounts for a first telescope" in _suggested(client, "for a f")
        assert "Mounts for a first telescope" in _suggested(client, "fir")
        assert "For the deep sky" in _suggested(client, "for the d")
