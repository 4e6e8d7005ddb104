"""Definitions written with a comma or a colon where other forms use brackets or "is": an
abbreviation beside its long name ("ATIS, the Automatic Terminal Information Service, is …",
"the minimum safe altitude, or MSA: the lowest …", "That reading is indicated air
speed, IAS."). The sentences are invented (a flying course) so the rules are checked on prose they
were not tuned on."""

from __future__ import annotations

import pytest
from course_fixtures import built_course, open_course

from lessonsearch.coverage import coverage_report
from lessonsearch.definitions import find_definitions
from lessonsearch.index_store import current_version
from lessonsearch.model import Lesson, Section
from lessonsearch.readers.markdown import read_markdown_lesson


def found_in(*paragraphs: str, emphasis: tuple[str, ...] = ()) -> list[tuple[str, str, str]]:
    """(term, kind, abbreviation) of every definition a one-section lesson makes, its first
    sentence a plain one so that no rule for a section's opening applies."""
    lesson = Lesson(slug="charts", title="Charts", url="/lessons/charts", source="charts.md",
                    format="markdown",
                    sections=(Section(anchor="heights", heading="Heights", level=2,
                                      paragraphs=("Charts carry a lot of numbers.",
                                                  *paragraphs),
                                      emphasis=emphasis),))
    return [(d.term, d.kind, d.abbreviation) for d in find_definitions(lesson)]


@pytest.mark.parametrize(
    ("sentence", "term", "short"),
    [
        ("ATIS, the Automatic Terminal Information Service, is a recorded broadcast of the "
         "weather at one airfield.", "Automatic Terminal Information Service", "ATIS"),
        ("Every chart prints a minimum safe altitude, or MSA: the lowest height that clears "
         "every obstacle near the beacon.", "minimum safe altitude", "MSA"),
        ("Each sector has a minimum safe altitude, or MSA — the lowest height that clears "
         "every obstacle.", "minimum safe altitude", "MSA"),
        ("That reading is indicated air speed, IAS.", "indicated air speed", "IAS"),
        ("The figure on the dial is called indicated air speed, or IAS.",
         "indicated air speed", "IAS"),
    ],
)
def test_an_abbreviation_beside_its_long_name_with_a_comma_defines_it(sentence, term, short):
    assert found_in(sentence) == [(term, "abbreviation", short)]


@pytest.mark.parametrize(
    "sentence",
    [
        # the words between the commas are no long name of the letters
        "ATIS, the recording, is updated every hour.",
        # a place and its code, not a name spelt out
        "We flew on to Leeds, or LBA: the airfield north of the city.",
        # nothing after ", or MSA" says what it is
        "Climb to the minimum safe altitude, or MSA, before turning.",
        # the words after "is" are more than the long name
        "That reading is the speed shown on the dial, IAS.",
        # a capitalised word, not an abbreviation
        "Tower, the controller on duty, clears each landing.",
    ],
)
def test_a_comma_beside_capitals_that_spell_nothing_out_defines_nothing(sentence):
    assert found_in(sentence) == []


def test_an_abbreviation_a_later_lesson_spells_out_is_used_before_its_definition(tmp_path):
    """The coverage report counts the first lesson's MSA as a use before the second lesson
    says what it is, and links that lesson's sentence."""
    lessons = {
        "01-planning.md": "---\ntitle: Planning\nslug: planning\n---\n\n## The route\n\n"
                          "Draw the line and note the MSA of each leg.\n",
        "02-charts.md": "---\ntitle: Charts\nslug: charts\n---\n\n## Heights\n\nCharts carry "
                        "a lot of numbers. Every chart prints a minimum safe altitude, or MSA: "
                        "the lowest height that clears every obstacle near the beacon.\n",
    }
    glossary = ("minimum safe altitude\n: The lowest height that clears every obstacle in a "
                "sector.\n  Also: MSA\n")
    index = built_course(tmp_path, lessons, glossary)
    report = coverage_report(current_version(index), index)
    (entry,) = report.used_before_definition
    assert entry.term == "minimum safe altitude"
    assert [p.lesson for p in entry.used_at] == ["planning"]
    assert entry.defined_at.lesson == "charts"


def test_a_pointer_with_a_noun_ending_the_sentence_names_a_glossary_term_only():
    """"That correction is crabbing." names what the sentence before it described, but only
    where the glossary has crabbing: "That limit is the ceiling." says which limit."""
    found = find_definitions(Lesson(
        slug="wind", title="Wind", url="/lessons/wind", source="wind.md", format="markdown",
        sections=(Section(anchor="crosswind", heading="Crosswind", level=2, paragraphs=(
            "The pilot points the nose a little into the wind so the track over the ground "
            "stays straight. That correction is crabbing.",)),)))
    assert [(d.term, d.kind, d.glossary_only, d.points_back) for d in found] == [
        ("crabbing", "pointing-back", True, True)]
    assert found[0].before.startswith("The pilot points the nose")


def test_a_built_course_links_the_glossary_term_a_pointer_with_a_noun_names(tmp_path):
    lessons = {"01-wind.md": (
        "---\ntitle: Wind\nslug: wind\n---\n\n## Crosswind\n\nThe pilot points the nose a "
        "little into the wind so the track over the ground stays straight. That correction "
        "is crabbing.\n\n## Cloud\n\nBelow the cloud base you may fly by sight. That limit "
        "is the ceiling.\n")}
    glossary = "crabbing\n: Pointing into a crosswind so the track stays straight.\n"
    with open_course(tmp_path, lessons, glossary) as searcher:
        assert searcher.glossary.find("crabbing").lesson_definition.url == (
            "/lessons/wind#crosswind")
        assert searcher.glossary.find("ceiling") is None


def marked(markdown: str) -> list[tuple[str, str]]:
    """(term, kind) of every definition a one-section markdown lesson makes, after a plain
    first sentence."""
    lesson = read_markdown_lesson(f"## The plan\n\nA plan has many rows.\n\n{markdown}\n",
                                  "plan.md")
    return [(d.term, d.kind) for d in find_definitions(lesson)]


@pytest.mark.parametrize(
    ("markdown", "term"),
    [
        ("Each row of the plan is one **waypoint**: a named point the route turns at.",
         "waypoint"),
        ("The last box of the form names the *alternate aerodrome*: the field you divert to "
         "if the destination closes.", "alternate aerodrome"),
        ("The top line names the **transition altitude** — the height at which you set the "
         "standard pressure.", "transition altitude"),
    ],
)
def test_a_marked_name_after_is_one_or_names_then_a_colon_defines_it(markdown, term):
    assert marked(markdown) == [(term, "emphasis")]


@pytest.mark.parametrize(
    "markdown",
    [
        # a value, not what the thing is
        "The form names the *pilot*: Jane Smith.",
        "The box names the **alternate aerodrome**: Leeds Bradford.",
        # one of several listed after the colon
        "Each row is one **waypoint**: three letters and a number.",
    ],
)
def test_a_marked_name_a_colon_gives_a_value_defines_nothing(markdown):
    assert marked(markdown) == []


WEATHERCOCK = ("On the ground a crosswind swings the tail downwind and the nose into the wind. "
               "This turning is called weathercocking or weathervaning{end}")


@pytest.mark.parametrize("end", [".", "; hold the brakes against it.", ": the fin acts as a vane."])
def test_is_called_x_or_y_gives_the_term_a_second_name(end):
    found = find_definitions(Lesson(
        slug="taxi", title="Taxiing", url="/lessons/taxi", source="taxi.md", format="markdown",
        sections=(Section(anchor="wind", heading="Wind", level=2,
                          paragraphs=(WEATHERCOCK.format(end=end),)),)))
    assert [(d.term, d.kind, d.abbreviation) for d in found] == [
        ("weathercocking", "naming", "weathervaning")]


@pytest.mark.parametrize(
    "sentence",
    [
        "A row of values in brackets is called a list or a tuple.",  # an article: two things
        "This turning is called weathercocking or weathervaning, depending on the school.",
        "This turning is called weathercocking or Weathervane, after the instructor.",
        "This turning is called weathercocking or not at all.",
    ],
)
def test_is_called_x_or_something_else_gives_no_second_name(sentence):
    found = find_definitions(Lesson(
        slug="taxi", title="Taxiing", url="/lessons/taxi", source="taxi.md", format="markdown",
        sections=(Section(anchor="wind", heading="Wind", level=2, paragraphs=(sentence,)),)))
    assert [d.abbreviation for d in found] in ([], [None])


def test_the_second_name_finds_the_term_a_lesson_defines(tmp_path):
    """The second name shows the term's card and opens its page, as an abbreviation does."""
    lessons = {"01-taxi.md": ("---\ntitle: Taxiing\nslug: taxi\n---\n\n## Wind\n\n"
                              + WEATHERCOCK.format(end=".") + "\n")}
    with open_course(tmp_path, lessons) as searcher:
        record = searcher.glossary.find("weathervaning")
        assert record is not None and record.term == "weathercocking"
        assert record.lesson_definition.url == "/lessons/taxi#wind"


SQUAWK = ("Controllers tell the aircraft on their screen apart by a number. The number is "
          "handed out by the controller: a squawk is the four-digit code the transponder "
          "sends with every reply.")


def squawk_under(heading: str) -> list[tuple[str, str]]:
    lesson = Lesson(slug="radar", title="Radar", url="/lessons/radar", source="radar.md",
                    format="markdown",
                    sections=(Section(anchor="codes", heading=heading, level=2,
                                      paragraphs=(SQUAWK,)),))
    return [(d.term, d.kind) for d in find_definitions(lesson)]


def test_the_plain_form_after_a_colon_defines_under_a_heading_naming_the_term():
    assert squawk_under("Squawks") == [("squawk", "plain")]


def test_the_plain_form_after_a_colon_defines_nothing_under_another_heading():
    assert squawk_under("Radar") == []
