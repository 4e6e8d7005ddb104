"""More forms by which lesson prose defines a term: a group of people naming it
("Roasters call this first crack."), a measure counted in a plural unit ("The minutes
between … are the development time.") and an appositive ("Alkalinity, the water's capacity
to buffer acid, is …"), and an unmarked "X means …" ("Dialling in means adjusting grind, …")
and one person naming for a group ("Every roaster calls this first crack."). Each also reads
as a remark, so each names only a term the glossary
has (``glossary_only``), and the near-misses are refused by the sentence's shape where it can
tell."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

from lessonsearch.definitions import KINDS, find_definitions
from lessonsearch.model import Lesson, Section


def found_in(*paragraphs: str) -> list[tuple[str, str, bool]]:
    """(term, kind, glossary_only) of every definition a one-section lesson makes."""
    lesson = Lesson(slug="roasting", title="Roasting", url="/lessons/roasting",
                    source="roasting.md", format="markdown",
                    sections=(Section(anchor="heat", heading="Heat", level=2,
                                      paragraphs=paragraphs),))
    return [(d.term, d.kind, d.glossary_only) for d in find_definitions(lesson)]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Roasters call this first crack.", "first crack"),
        ("Roasters call this first crack; a light roast ends soon after it.", "first crack"),
        ("Most home bakers call this oven spring.", "oven spring"),
        ("In Italy, baristas call this a ristretto.", "ristretto"),
        ("Sailors usually call this dead reckoning.", "dead reckoning"),
        ("Brewers call it the hot break.", "hot break"),
    ],
)
def test_a_group_of_people_calling_this_x_names_a_glossary_term(sentence, term):
    """Any plural noun for people may name, not only "we", "people" or "engineers"; it may
    as well judge, so the glossary decides."""
    assert found_in(sentence) == [(term, "naming", True)]


@pytest.mark.parametrize(
    "sentence",
    [
        "Critics call this nonsense.",
        "Some sceptics call this a fad.",
        "Roasters never call this first crack.",
        "Then both handlers call this cache.",
        "Both workers call this cache.",
        "Tests call this helper twice.",
        "The two scripts call this function.",
        "Its callers call this function first.",
        "Perhaps call this function later.",
    ],
)
def test_a_group_that_judges_or_a_program_that_calls_names_nothing(sentence):
    assert found_in(sentence) == []


def test_a_group_naming_points_back_at_the_sentence_before():
    lesson = Lesson(slug="roasting", title="Roasting", url="/lessons/roasting",
                    source="roasting.md", format="markdown", sections=(Section(
                        anchor="heat", heading="Heat", level=2, paragraphs=(
                            "The beans swell until their walls split with a pop. Roasters "
                            "call this first crack.",)),))
    (definition,) = find_definitions(lesson)
    assert definition.text == ("The beans swell until their walls split with a pop. Roasters "
                               "call this first crack.")


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("We call this first crack.", "first crack"),
        ("This popping is called first crack.", "first crack"),
    ],
)
def test_a_name_opening_with_an_ordinal_names_a_glossary_term(sentence, term):
    assert [(t, k) for t, k, _ in found_in(sentence)] == [(term, "naming")]


@pytest.mark.parametrize(
    "sentence",
    [
        "We call this first, then the parser.",
        "We call this first thing in the morning.",
        "The handler is called first by the loader.",
        "The handler is called the first time a request arrives.",
        "The handler is called first thing.",
    ],
)
def test_an_ordinal_that_says_when_names_nothing(sentence):
    assert found_in(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("The minutes between first crack and the end of the roast are the development "
         "time.", "development time"),
        ("The hours between mixing the dough and shaping it are the bulk fermentation.",
         "bulk fermentation"),
        ("The degrees the dough gains from the mixer while it turns are the friction factor, "
         "and cold water offsets them.", "friction factor"),
    ],
)
def test_a_measure_in_a_plural_unit_is_the_x(sentence, term):
    assert found_in(sentence) == [(term, "setting", True)]


@pytest.mark.parametrize(
    "sentence",
    [
        "The minutes are the worst part.",
        "The minutes after it are the worst.",
        "The hours we spent kneading were the best part of the course.",
        "The seconds a request waits in the queue is the latency.",
        "The minutes between first crack and the end of the roast are short.",
    ],
)
def test_a_plural_unit_near_misses(sentence):
    assert found_in(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Alkalinity, the water's capacity to buffer acid, is the number to watch: keep it "
         "around 40 mg/L.", "alkalinity"),
        ("Gluten, the elastic web of proteins that wheat flour forms with water, holds the "
         "gas.", "gluten"),
        ("Autolyse, a rest of flour and water before the salt, makes the dough easier to "
         "knead.", "autolyse"),
        ("The bloom, the first pour that wets the grounds, lasts thirty seconds.", "bloom"),
        ("Crema, the foam that tops an espresso, can vanish in a minute.", "crema"),
    ],
)
def test_an_appositive_says_what_a_glossary_term_is(sentence, term):
    assert found_in(sentence) == [(term, "appositive", True)]


@pytest.mark.parametrize(
    "sentence",
    [
        "Paris, the capital, is big.",
        "The server, a machine in the basement, is slow.",
        "Bread, the most important food of all, is easy to get wrong.",
        "Salt, the yeast that feeds on it, and water are all you need.",
        "Alkalinity, the capacity of water to buffer acid, hardness and calcium all matter.",
        "However, the capacity of water to buffer acid, is low.",
        "In practice, the capacity of water to buffer acid, is what matters.",
        "Our dataset, a list of patients with their scores, is small.",
        "Extraction, the topic of the next lesson, is what this course keeps coming back to.",
        "Bypass, the focus of the last lesson, is simple.",
        "Puck, the subject of a later section, can crack.",
        "Channeling, the cause of most sour shots, is easy to miss.",
        "Alkalinity, the second of the two water numbers in the next lesson, is harder to "
        "measure.",
        "Bloom, the first of the things to watch, is quick.",
    ],
)
def test_an_appositive_that_is_a_remark_names_nothing(sentence):
    assert found_in(sentence) == []


def test_appositive_is_a_kind():
    assert "appositive" in KINDS


def test_a_built_course_links_the_glossary_terms_these_forms_define(tmp_path):
    """As a build reads them: the glossary's first crack, development time and alkalinity
    are defined in the lesson, and nonsense, which the glossary lacks, is no term."""
    lessons = {"01-roasting.md": (
        "---\ntitle: Roasting\nslug: roasting\n---\n\n## Cracks\n\nThe beans swell until "
        "their walls split with a pop. Roasters call this first crack. Critics call this "
        "nonsense.\n\n## Timing\n\nThe minutes between first crack and the end of the roast "
        "are the development time.\n\n## Water\n\nAlkalinity, the water's capacity to buffer "
        "acid, is the number to watch.\n")}
    glossary = ("first crack\n: The popping as a roast splits the beans.\n\ndevelopment time"
                "\n: The time from first crack to the end of a roast.\n\nalkalinity\n: How much "
                "acid water can neutralise.\n")
    with open_course(tmp_path, lessons, glossary) as searcher:
        urls = {term: searcher.glossary.find(term).lesson_definition.url
                for term in ("first crack", "development time", "alkalinity")}
        assert urls == {"first crack": "/lessons/roasting#cracks",
                        "development time": "/lessons/roasting#timing",
                        "alkalinity": "/lessons/roasting#water"}
        assert searcher.glossary.find("nonsense") is None


def test_a_remark_in_an_earlier_lesson_leaves_the_definition_to_the_later_one(tmp_path):
    """An overview that names the topic of a later lesson in an appositive ("Extraction, the
    topic of the next lesson, is …") does not define it: the glossary's term links the
    lesson that says what extraction is."""
    lessons = {
        "01-intro.md": "---\ntitle: Introduction\nslug: intro\n---\n\n## Overview\n\n"
                       "Extraction, the topic of the next lesson, is what this course keeps "
                       "coming back to.\n",
        "02-extraction.md": "---\ntitle: Extraction\nslug: extraction\n---\n\n## What "
                            "extraction means\n\n**Extraction** is the share of the coffee "
                            "that dissolves into the water.\n",
    }
    glossary = "extraction\n: The share of the coffee that dissolves into the brew.\n"
    with open_course(tmp_path, lessons, glossary) as searcher:
        found = searcher.glossary.find("extraction").lesson_definition
        assert found.url == "/lessons/extraction#what-extraction-means"


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Dialling in means adjusting grind, dose and time until the shot tastes right.",
         "dialling in"),
        ("Preinfusion means wetting the puck at low pressure first.", "preinfusion"),
        ("The dose means the mass of dry coffee in the basket.", "dose"),
        ("Crema means foam on top of the shot.", "crema"),
        ("Crema means the foam that forms on top of an espresso.", "crema"),
        ("Ristretto means espresso pulled short, with about half the usual water.",
         "ristretto"),
        ("Channeling means water finding an easy path through the puck.", "channeling"),
        ("Latency means the time a request waits.", "latency"),
        ("Throughput means work done per second.", "throughput"),
        ("Throughput means the bytes per second a link carries.", "throughput"),
        ("Bandwidth means data sent over a link in one second.", "bandwidth"),
        ("Bandwidth means capacity.", "bandwidth"),
        ("Latency means delay, counted in milliseconds.", "latency"),
        ("Bandwidth means peak capacity, so a wider link moves more.", "bandwidth"),
        ("Resolution means angle, the smallest one the scope can split.", "resolution"),
        ("Bandwidth simply means capacity.", "bandwidth"),
        ("Dialling in simply means adjusting the grind.", "dialling in"),
    ],
)
def test_an_unmarked_name_that_means_a_thing_names_a_glossary_term(sentence, term):
    """"X means …" opening the sentence, with a gerund, an article or a noun phrase after
    "means": as often a remark, so the glossary decides."""
    assert found_in(sentence) == [(term, "defining", True)]


@pytest.mark.parametrize(
    "sentence",
    [
        "This means the shot runs fast.",
        "Tamping means nothing if the grind is wrong.",
        "Tamping means little when the grind is wrong.",
        "Tamping means more than pressing down.",
        "Bloom means that gas escapes from the grounds.",
        "Bloom means we wait thirty seconds.",
        "Bloom means it is fresh.",
        "Channeling means the water found a crack.",
        "By means of a scale you can weigh the dose.",
        "Looking up a token means reading its row, so the step is cheap.",
        "In practice, dialling in means adjusting the grind.",
        "Channeling means sour coffee.",
        "Channeling means sour coffee and a thin body.",
        "Channeling means a thin, bitter shot.",
        "Bloom means fresh beans, so grind just before you brew.",
        "Underextraction means sour coffee when the grind is coarse.",
        "Recursion means trouble for beginners.",
        "Shared state means headaches in tests.",
        "Recursion means problems with deep inputs.",
        "Bloom means freshness.",
        "Bloom means a delay.",
        "Channeling means higher pressure.",
        "Channeling means lower extraction yield.",
        "Recursion means frustration.",
        "Jitter means longer queues at every hop.",
        "Channeling means a higher flow rate through the puck.",
        "Bloom means time.",
        "Preinfusion means delays.",
        "Recursion usually means trouble for beginners.",
    ],
)
def test_means_that_says_what_follows_names_nothing(sentence):
    """What the term leads to or shows is no definition: a clause, a judging word, or a
    noun phrase that ends at its noun, with nothing that sets its thing apart ("sour
    coffee.", "a thin, bitter shot.", "fresh beans, so …"), unless that noun, bare, names a
    quantity ("Bandwidth means capacity."): a quality ("freshness"), one case ("a delay")
    or a change ("higher pressure") is what the term leads to."""
    assert found_in(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Every roaster calls this first crack.", "first crack"),
        ("Each barista calls this a ristretto.", "ristretto"),
        ("In Italy, the barista usually calls this a ristretto.", "ristretto"),
        ("A home roaster calls this first crack.", "first crack"),
        ("Baristas call this dialling in.", "dialling in"),
        ("Every barista calls this dialling in.", "dialling in"),
    ],
)
def test_one_person_of_a_group_calling_this_x_names_a_glossary_term(sentence, term):
    assert found_in(sentence) == [(term, "naming", True)]


@pytest.mark.parametrize(
    "sentence",
    [
        "Every critic calls this nonsense.",
        "The compiler calls this function.",
        "Each worker calls this cache.",
        "The handler calls this helper.",
        "The parser calls this first.",
        "Then the roaster calls this first crack.",
        "Every roaster calls this first, then the cooling tray.",
        "The roaster never calls this first crack.",
        "Baristas call this dialling in the grinder.",
    ],
)
def test_one_that_judges_or_a_program_part_that_calls_names_nothing(sentence):
    assert found_in(sentence) == []


def test_a_built_course_reads_means_and_one_person_naming_for_glossary_terms(tmp_path):
    """The glossary's "dialing in" is defined by the lesson's British "Dialling in means …",
    its "first crack" by "Every roaster calls this first crack."; "Bloom means that …" leaves
    bloom to the glossary, and "Tamping means …" adds no term the glossary lacks."""
    lessons = {"01-espresso.md": (
        "---\ntitle: Espresso\nslug: espresso\n---\n\n## Recipe\n\nDialling in means "
        "adjusting grind, dose and time until the shot tastes right. Bloom means that gas "
        "escapes. Tamping means pressing the grounds flat.\n\n## Cracks\n\nThe beans pop as "
        "they swell. Every roaster calls this first crack.\n")}
    glossary = ("dialing in\n: Changing grind, dose and time until an espresso tastes right.\n"
                "  Also: dial in\n\nbloom\n: The gas fresh grounds give off when wetted.\n\n"
                "first crack\n: The popping as a roast splits the beans.\n")
    with open_course(tmp_path, lessons, glossary) as searcher:
        assert searcher.glossary.find("dial in").lesson_definition.url == (
            "/lessons/espresso#recipe")
        assert searcher.glossary.find("first crack").lesson_definition.url == (
            "/lessons/espresso#cracks")
        assert searcher.glossary.find("bloom").lesson_definition is None
        assert searcher.glossary.find("tamping") is None


def test_a_consequence_after_means_leaves_the_term_to_its_definition(tmp_path):
    """"Channeling means sour coffee." in the first lesson says what channeling leads to: the
    term links the later lesson that says what it is."""
    lessons = {
        "01-faults.md": "---\ntitle: Faults\nslug: faults\n---\n\n## Sour shots\n\n"
                        "Channeling means sour coffee. Check the puck for cracks.\n",
        "02-puck.md": "---\ntitle: The puck\nslug: puck\n---\n\n## Cracks\n\nChanneling "
                      "means water finding an easy path through the puck.\n",
    }
    glossary = "channeling\n: Water rushing through a weak spot of the puck.\n"
    with open_course(tmp_path, lessons, glossary) as searcher:
        found = searcher.glossary.find("channeling").lesson_definition
        assert found.url == "/lessons/puck#cracks"


def test_a_quantity_after_means_defines_the_term_where_a_consequence_does_not(tmp_path):
    """"Bandwidth means capacity." says what bandwidth is, so the glossary's bandwidth links
    the lesson; "Channeling means sour coffee." in the same lesson leaves channeling to the
    glossary."""
    lessons = {"01-links.md": (
        "---\ntitle: Links\nslug: links\n---\n\n## Pipes\n\nBandwidth means capacity. "
        "Channeling means sour coffee.\n")}
    glossary = ("bandwidth\n: How much data a link carries each second.\n\n"
                "channeling\n: Water rushing through a weak spot of the puck.\n")
    with open_course(tmp_path, lessons, glossary) as searcher:
        assert searcher.glossary.find("bandwidth").lesson_definition.url == (
            "/lessons/links#pipes")
        assert searcher.glossary.find("channeling").lesson_definition is None
