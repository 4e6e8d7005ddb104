"""Definitions by phrasings read apart from the older rules: "… is what sailors mean by
tacking" (the "what people call" family, said with "mean by"), "GPS stands for Global
Positioning System" (an abbreviation spelt out in words), a marked name a gerund clause
"is" or "gives" ("Easing the sheet until the sail just flutters is **luffing** it: …",
"Dividing … gives the **leeway angle**: …"), and "This is called X when …", which says what
X is in its own sentence."""

from __future__ import annotations

import pytest

from lessonsearch.definitions import find_definitions
from lessonsearch.readers.markdown import read_markdown_lesson


def defined(markdown: str) -> list[tuple[str, str | None]]:
    """(term, abbreviation) of every definition a one-section markdown lesson makes."""
    lesson = read_markdown_lesson(f"## On the water\n\n{markdown}\n", "sailing.md")
    return [(d.term, d.abbreviation) for d in find_definitions(lesson)]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Turning the bow through the wind, so that the sails fill on the other side, is what "
         "sailors mean by tacking.", "tacking"),
        ("Turning the stern through the wind is what is meant by gybing.", "gybing"),
        ("What sailors mean by reefing is making the sail smaller in a strong wind.",
         "reefing"),
        # the family it joins, read as before
        ("Turning the bow through the wind is what sailors call tacking.", "tacking"),
        ("Turning the bow through the wind is known as tacking.", "tacking"),
    ],
)
def test_what_people_mean_by_a_name_defines_it(sentence, term):
    assert defined(sentence) == [(term, None)]


@pytest.mark.parametrize(
    "sentence",
    [
        "Whether a boat is fast depends on what you mean by fast.",
        "That is what I mean by simple.",
        "A dinghy capsizes easily, which is what we mean by tender in a gust of wind.",
    ],
)
def test_what_people_mean_by_a_word_that_judges_or_goes_on_names_nothing(sentence):
    assert defined(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term", "short"),
    [
        ("GPS stands for Global Positioning System.", "Global Positioning System", "GPS"),
        ("LAT stands for lowest astronomical tide, the depth a chart counts from.",
         "lowest astronomical tide", "LAT"),
        ("MPH is short for miles per hour.", "miles per hour", "MPH"),
        ("The acronym AIS stands for Automatic Identification System.",
         "Automatic Identification System", "AIS"),
    ],
)
def test_an_abbreviation_spelt_out_in_words_defines_its_long_name(sentence, term, short):
    assert defined(sentence) == [(term, short)]


@pytest.mark.parametrize(
    "sentence",
    [
        "Red stands for danger on a buoy.",
        "VHF stands for the radio on the chart table.",
        "GPS stands for nothing much without charts.",
    ],
)
def test_stands_for_words_that_are_not_its_initials_names_nothing(sentence):
    assert defined(sentence) == []


def test_a_small_word_inside_a_long_name_gives_no_letter():
    """"per" stands in a long name as "of" does, in brackets too."""
    assert defined("Pounds per square inch (PSI) is the unit a life raft's gas bottle "
                   "gauge reads.") == [("pounds per square inch", "PSI")]


def test_this_is_called_x_when_defines_x_by_its_own_clause():
    """The sentence before, which "This" points back at, is not what the name means: the
    "when" clause is, so the definition is shown alone, as one that says it itself."""
    lesson = read_markdown_lesson(
        "## Sail trim\n\nA sail sheeted in too hard stalls and the boat slows down. This is "
        "called luffing when the front edge of the sail flaps because it points too close "
        "to the wind.\n", "sailing.md")
    [found] = find_definitions(lesson)
    assert (found.term, found.points_back, found.before) == ("luffing", False, None)


def test_this_is_called_x_after_a_description_still_points_back():
    lesson = read_markdown_lesson(
        "## Sail trim\n\nThe front edge of the sail flaps because it points too close to the "
        "wind. This is called luffing, and it costs speed.\n", "sailing.md")
    [found] = find_definitions(lesson)
    assert (found.term, found.points_back) == ("luffing", True)
    assert found.before.startswith("The front edge of the sail flaps")


def marked(markdown: str) -> list[str]:
    """The terms a one-section markdown lesson defines."""
    return [term for term, _ in defined(markdown)]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Letting the sheet out until the sail just shivers is **easing** the sail: you give "
         "it only as much rope as the wind asks for.", "easing"),
        ("Pulling the boom down towards the deck is **kicking** it.", "kicking"),
        ("Dividing the distance sailed by the hours it took gives the **speed made good**: a "
         "boat that covers twelve miles in three hours makes good four knots.",
         "speed made good"),
        ("Subtracting the heading from the track yields the **leeway angle**.", "leeway angle"),
    ],
)
def test_a_marked_name_a_gerund_clause_is_or_gives_is_defined(sentence, term):
    assert marked(sentence) == [term]


@pytest.mark.parametrize(
    "markdown",
    [
        "Nothing is **free** on a boat: every rope wears.",
        "Something is **wrong** when the boom swings: stop and look.",
        "The first job is **draining** the bilge: open the seacock.",
        "Checking the forecast is **important**.",
        "Hoisting the sail is **hard work** on a big boat.",
        "- **Easing** the sail: let the sheet out.\n- **Kicking** it: pull the boom down.",
        "Before leaving:\n\n- Coiling the lines is **tidy**.\n- Stowing the fenders is **quick**.",
        "Pulling the boom down is **kicking** it, and then you sail on.",
    ],
)
def test_list_labels_judgements_and_nouns_in_ing_define_nothing(markdown):
    assert marked(markdown) == []
