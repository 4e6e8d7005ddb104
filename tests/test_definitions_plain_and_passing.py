"""An abbreviation spelt out in passing ("Binoculars show a wide field of view (FOV) and …")
defines nothing: it only makes its two names one term's. And the plain "X is the …" form,
read where a section expects a definition, takes a name after "The" or with no article
("Declination is the angle …", "The exit pupil is the width …"), a size word ("the small
lens"), and "defined as" an aside before its verb ("Absolute magnitude, by contrast, is
defined as …"); a judging or comparing predicate still defines nothing. Past a section's
first sentence, "The X is the <kind> that <does …>" defines a glossary term or alias."""

from __future__ import annotations

from contextlib import closing

import pytest
from course_fixtures import built_course, open_course

from lessonsearch.coverage import coverage_report
from lessonsearch.definitions import find_definitions
from lessonsearch.index_store import current_version
from lessonsearch.model import Lesson, Section
from lessonsearch.searcher import Searcher


def found_in(*paragraphs: str, heading: str = "Optics") -> list[tuple[str, str]]:
    """(term, kind) of every definition a one-section lesson makes, passing ones left out."""
    lesson = Lesson(slug="optics", title="Optics", url="/lessons/optics", source="optics.md",
                    format="markdown",
                    sections=(Section(anchor="optics", heading=heading, level=2,
                                      paragraphs=paragraphs),))
    return [(d.term, d.kind) for d in find_definitions(lesson) if not getattr(d, "passing", False)]


@pytest.mark.parametrize(
    "sentence",
    [
        "Binoculars show a wide field of view (FOV) and an upright image.",
        "Most clubs lend out a large Dobsonian telescope (LDT) to new members.",
        "We pack a red torch, total dissolved solids (TDS), and a chart.",
        "The data may receive its own digital object identifier (DOI) when deposited.",
        "Binoculars show a wide field of view (FOV), a tripod for steadiness, and a case.",
        "Binoculars show a wide field of view (FOV), an upright image and a bright view.",
        "Next comes continuous integration (CI), the topic of the next lesson.",
        "Pack binoculars with a wide field of view (FOV), a tripod for steadiness and a case.",
        "Pack binoculars with a wide field of view (FOV), a tripod for the night and a case.",
        "Pack binoculars with a wide field of view (FOV), a tripod for steadiness or a "
        "monopod.",
        "Most kits hold a meter for total dissolved solids (TDS), a net for catching fish "
        "and a heater.",
        "Pack binoculars with a wide field of view (FOV), the most important number to check.",
    ],
)
def test_an_abbreviation_spelt_out_in_passing_defines_nothing(sentence):
    assert found_in(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("The true field of view (TFOV) is the patch of sky actually visible.",
         "true field of view"),
        ("Direct preference optimization (DPO) skips the reward model entirely.",
         "direct preference optimization"),
        ("The result is a large language model (LLM).", "large language model"),
        ("The second is a feed-forward network (FFN): two matrix multiplications.",
         "feed-forward network"),
        ("In practice, the true field of view (TFOV) is what a chart circle shows.",
         "true field of view"),
        ("One such tool, continuous integration (CI), can run the tests on every commit.",
         "continuous integration"),
        ("Each has a focal length (printed in mm) and an apparent field of view (AFOV), the "
         "angle you see across the field stop, typically 50 to 82 degrees.",
         "apparent field of view"),
        ("Most tools speak JavaScript Object Notation (JSON), a text format for nested data.",
         "JavaScript Object Notation"),
        ("When the call returns, a local variable (LV), the name inside the function, "
         "disappears.", "local variable"),
        ("Each has a focal length and an apparent field of view (AFOV), the angle you see "
         "across the eyepiece, which sets how wide the view feels.", "apparent field of view"),
        ("Browsers fetch each page over Hypertext Transfer Protocol (HTTP), the rules a "
         "client and a server follow to trade requests.", "Hypertext Transfer Protocol"),
        ("Eyepieces differ in apparent field of view (AFOV), the angle between the eyepiece "
         "and the field stop.", "apparent field of view"),
        ("A good monitor reports the round-trip time (RTT), the delay between sending a probe "
         "and hearing its reply.", "round-trip time"),
    ],
)
def test_an_abbreviation_that_opens_or_completes_the_sentence_still_defines(sentence, term):
    assert found_in(sentence) == [(term, "abbreviation")]


def test_a_passing_abbreviation_gives_way_to_a_definition_later_in_the_lesson():
    lesson = Lesson(slug="optics", title="Optics", url="/lessons/optics", source="optics.md",
                    format="markdown", sections=(
                        Section(anchor="a", heading="Eyepieces", level=2, paragraphs=(
                            "Each has a focal length and an apparent field of view (AFOV), "
                            "printed on its barrel.",)),
                        Section(anchor="b", heading="Angles", level=2, paragraphs=(
                            "The apparent field of view is defined as the angle across the "
                            "field stop.",))))
    (found,) = find_definitions(lesson)
    assert (found.term, found.kind, found.passing, found.abbreviation, found.anchor) == (
        "apparent field of view", "defining", False, "AFOV", "b")


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("An eyepiece is the small lens you look through; swapping eyepieces changes the "
         "magnification.", "eyepiece"),
        ("Declination is the angle north or south of the celestial equator.", "declination"),
        ("Light pollution is artificial light scattered back down by the atmosphere.",
         "light pollution"),
        ("The exit pupil is the width of the beam of light leaving the eyepiece.",
         "exit pupil"),
        ("Declination (Dec) is the sky's latitude: degrees north or south of the equator.",
         "declination"),
        ("Garbage is memory that no variable can reach any longer.", "garbage"),
        ("Dew is water that condenses on the cold lens.", "dew"),
        # what makes it the one thing of its kind
        ("The objective is the only lens that gathers the light, and the rest just bend "
         "it.", "objective"),
        ("A diagonal is the only truly flat mirror in a refractor's light path.", "diagonal"),
    ],
)
def test_a_plain_definition_opening_its_section_names_a_glossary_term(sentence, term):
    lesson = Lesson(slug="optics", title="Optics", url="/lessons/optics", source="optics.md",
                    format="markdown", sections=(Section(anchor="optics", heading="Optics",
                                                         level=2, paragraphs=(sentence,)),))
    (found,) = find_definitions(lesson)
    assert (found.term, found.kind, found.glossary_only) == (term, "plain", True)


@pytest.mark.parametrize(
    "sentence",
    [
        "Declination is tricky to read at first.",
        "The exit pupil is larger in binoculars.",
        "The exit pupil is the same in both eyepieces.",
        "Declination is the main reason charts look odd.",
        "The problem is the network.",
        "A Barlow is a cheap way to fill the gaps.",
        "A refractor is a big problem for beginners.",
        "Light pollution is measured in magnitudes.",
        "It is the small lens you look through.",
        "Declination is harder that way.",
        "Dew is something that ruins a night.",
        "Dew is likely when the air is still.",
        "The Barlow is the only way to double the power.",
        "The eyepiece is the only lens you need.",
        "The mount is the only part that we replace.",
        "Declination is the only main reason charts look odd.",
    ],
)
def test_a_judging_or_comparing_predicate_defines_nothing(sentence):
    assert found_in(sentence) == []


def test_a_plain_definition_after_the_first_sentence_needs_a_heading_that_asks_or_names():
    later = ("Charts give two numbers for every star.",
             "Declination is the angle north or south of the celestial equator.")
    assert found_in(" ".join(later), heading="Reading a chart") == []
    assert found_in(" ".join(later), heading="What is declination?") == [
        ("declination", "plain")]
    assert found_in(" ".join(later), heading="Declination on a chart") == [
        ("declination", "plain")]


def test_the_only_one_of_its_kind_needs_a_place_that_expects_a_definition():
    """"The objective is the only lens that …" read anywhere as often weighs a thing or
    states a fact of it, so it defines only where the plain form is read."""
    later = ("A telescope has several pieces of glass.",
             "The objective is the only lens that gathers the light.")
    assert found_in(*later, heading="The tube") == []
    assert found_in(*later, heading="The objective") == [("objective", "plain")]


def test_defined_as_after_an_aside_between_commas():
    assert found_in("Absolute magnitude, by contrast, is defined as the apparent magnitude a "
                    "star would have at ten parsecs.") == [("absolute magnitude", "defining")]


GLOSSARY = (
    "field of view {#fov}\n: The patch of sky visible at once.\n  Also: FOV, TFOV\n\n"
    "eyepiece\n: The lens assembly you look into.\n\n"
    "exit pupil\n: The width of the beam leaving the eyepiece.\n\n"
    "declination\n: The angle north or south of the celestial equator.\n\n"
    "light pollution\n: Artificial light that brightens the night sky.\n\n"
    "absolute magnitude\n: How bright a star would look from ten parsecs.\n")
LESSONS = {
    "01-first-night.md": (
        "---\ntitle: First night\nslug: first-night\n---\n\n## Before you buy\n\n"
        "Start with binoculars. Binoculars show a wide field of view (FOV) and an upright "
        "image, so what you see matches the chart.\n"),
    "02-eyepieces.md": (
        "---\ntitle: Eyepieces\nslug: eyepieces\n---\n\n## Eyepiece basics\n\n"
        "An eyepiece is the small lens you look through. Each has a focal length and an "
        "apparent field of view (AFOV), the angle across its field stop.\n\n"
        "## True field\n\nThe true field of view (TFOV) is the patch of sky actually "
        "visible.\n\n## Exit pupil\n\nThe exit pupil is the width of the beam of light "
        "leaving the eyepiece. The exit pupil is larger in binoculars.\n"),
    "03-sky.md": (
        "---\ntitle: The sky\nslug: sky\n---\n\n## What is declination?\n\n"
        "Declination is the angle north or south of the celestial equator.\n\n"
        "## What light pollution does\n\nLight pollution is artificial light scattered "
        "back down by the atmosphere.\n\n## Magnitudes\n\nApparent brightness is easy to "
        "judge. Absolute magnitude, by contrast, is defined as the brightness at ten "
        "parsecs.\n"),
}


def test_a_built_course_defines_each_term_where_its_lesson_says_what_it_is(tmp_path):
    """Field of view is defined where the lesson says what the true field of view is, not
    by the passing "a wide field of view (FOV)" a lesson before; "apparent field of view
    (AFOV), the angle across its field stop" says what it is after a comma, and makes a
    lesson term; the plain forms define the glossary's terms."""
    with open_course(tmp_path, LESSONS, GLOSSARY) as searcher:
        glossary = searcher.glossary
        fov = glossary.find("FOV").lesson_definition
        assert fov.url == "/lessons/eyepieces#true-field"
        assert fov.text.startswith("The true field of view (TFOV) is the patch")
        apparent = glossary.find("AFOV")
        assert apparent.term == "apparent field of view"
        assert apparent.lesson_definition.url == "/lessons/eyepieces#eyepiece-basics"
        assert [t.term for t in searcher.search("apparent field of view").terms] == [
            "apparent field of view"]
        for name, url in [("eyepiece", "/lessons/eyepieces#eyepiece-basics"),
                          ("exit pupil", "/lessons/eyepieces#exit-pupil"),
                          ("declination", "/lessons/sky#what-is-declination"),
                          ("light pollution", "/lessons/sky#what-light-pollution-does"),
                          ("absolute magnitude", "/lessons/sky#magnitudes")]:
            assert glossary.find(name).lesson_definition.url == url, name


def test_a_passing_abbreviation_reports_no_conflict(tmp_path):
    """The coverage report compared the passing sentence with the real definition, and
    called the two lessons' field of view a disagreement."""
    index = built_course(tmp_path, LESSONS, GLOSSARY)
    report = coverage_report(current_version(index), index)
    assert [c.term for c in report.conflicting] == []
    assert [m.term for m in report.missing_from_glossary] == ["apparent field of view"]


def test_a_passing_abbreviation_leaves_the_sentence_to_the_other_forms():
    """A sentence that spells an abbreviation out in passing may still define another term,
    and a pointer after it reads it as what it points back to."""
    assert found_in("Light pollution is artificial light from lamps and light-emitting "
                    "diodes (LEDs) that brightens the sky.") == [("light pollution", "plain")]
    lesson = Lesson(slug="optics", title="Optics", url="/lessons/optics", source="optics.md",
                    format="markdown", sections=(Section(anchor="optics", heading="Optics",
                                                         level=2, paragraphs=(
        "Our eyes slowly widen their pupils and refresh their rod cells in the dark, "
        "whatever a red torch (RT) shows. We call this process dark adaptation.",)),))
    (adaptation,) = [d for d in find_definitions(lesson) if not getattr(d, "passing", False)]
    assert adaptation.term == "dark adaptation"
    assert adaptation.text.startswith("Our eyes slowly widen their pupils")


PASSING_LESSONS = {
    "01-health.md": (
        "---\ntitle: Health data\nslug: health\n---\n\n## Measures\n\n"
        "Each row holds a patient's weight and their Body Mass Index (BMI) for the visit, "
        "and an index of the clinic.\n\n## Sharing\n\nWe publish the tables with a Digital "
        "Object Identifier (DOI) on the archive. Every body of data has a field of view (FOV) "
        "and an owner.\n"),
    "02-archive.md": (
        "---\ntitle: Archive\nslug: archive\n---\n\n## Identifiers\n\nA Digital Object "
        "Identifier (DOI) is the lasting name an archive gives a published data set.\n\n"
        "## Again\n\nCite the Body Mass Index (BMI) tables with care.\n"),
}
PASSING_GLOSSARY = (
    "body\n: The main part of a text or a request.\n\n"
    "index\n: A table that finds rows fast.\n\n"
    "field of view\n: The patch of sky visible at once.\n")


def test_a_passing_abbreviation_of_a_name_the_glossary_lacks_makes_a_lesson_term(tmp_path):
    """"their Body Mass Index (BMI) for the visit" says nothing of what it is, but it names
    a thing the course has no other card for: it makes a lesson term, found by either name,
    whose long name is no mention of the glossary's body and index. A lesson that says what
    a DOI is defines it, however early the passing one comes, and the two do not disagree;
    a glossary term spelt out in passing (field of view) keeps no lesson definition."""
    index = built_course(tmp_path, PASSING_LESSONS, PASSING_GLOSSARY)
    with closing(Searcher.open(index)) as searcher:
        glossary = searcher.glossary
        bmi = glossary.find("BMI")
        assert bmi.term == "Body Mass Index"
        assert bmi.lesson_definition.url == "/lessons/health#measures"
        assert [d.lesson for d in bmi.definitions] == ["health"]
        assert [t.term for t in searcher.search("body mass index").terms] == ["Body Mass Index"]
        assert searcher.search("body mass index").results[0].url == "/lessons/health#measures"
        assert [t.term for t in searcher.search("what is a DOI").terms] == [
            "Digital Object Identifier"]
        doi = glossary.find("DOI")
        assert doi.lesson_definition.url == "/lessons/archive#identifiers"
        assert [d.lesson for d in doi.definitions] == ["archive"]
        assert glossary.find("body").mention_count == 1  # "Every body of data"
        assert glossary.find("index").mention_count == 1  # "an index of the clinic"
        assert glossary.find("field of view").lesson_definition is None
    report = coverage_report(current_version(index), index)
    assert [c.term for c in report.conflicting] == []


def test_a_built_course_leaves_a_name_in_an_unmarked_list_to_the_lesson_that_defines_it(
        tmp_path):
    """"Pack binoculars with a wide field of view (FOV), a tripod for steadiness and a case."
    lists three things: "a tripod for steadiness" is not what field of view is, so the
    glossary's field of view links the later sentence that says what it is."""
    lessons = {
        "01-packing.md": (
            "---\ntitle: Packing\nslug: packing\n---\n\n## The bag\n\nPack binoculars with a "
            "wide field of view (FOV), a tripod for steadiness and a case.\n"),
        "02-optics.md": (
            "---\ntitle: Optics\nslug: optics\n---\n\n## Field\n\nThe true field of view "
            "(TFOV) is the patch of sky actually visible.\n"),
    }
    with open_course(tmp_path, lessons, GLOSSARY) as searcher:
        fov = searcher.glossary.find("FOV").lesson_definition
        assert fov.url == "/lessons/optics#field"
        assert fov.text.startswith("The true field of view (TFOV) is")


@pytest.mark.parametrize(
    ("later", "term"),
    [
        ("The finder is the small scope on the tube that points the telescope.", "finder"),
        ("The focuser is the geared tube that slides the eyepiece in and out.", "focuser"),
        ("The dew shield is the hood at the front of the tube that keeps the lens dry.",
         "dew shield"),
        ('The finder ("spotter") is the small scope on the tube that points the telescope.',
         "finder"),
        ("The focuser (or drawtube) is the geared tube that slides the eyepiece in and out.",
         "focuser"),
    ],
)
def test_the_name_is_the_kind_and_what_sets_it_apart_defines_past_the_first_sentence(
        later, term):
    """Past a section's first sentence, under a heading that names nothing, "The X is the
    <kind> that <does …>" (or "the <kind> of/in/on …") still says what X is, for a term the
    glossary has (``glossary_only``), a gloss in brackets after the name or not."""
    lesson = Lesson(slug="optics", title="Optics", url="/lessons/optics", source="optics.md",
                    format="markdown", sections=(Section(
                        anchor="setting-up", heading="Setting up", level=2,
                        paragraphs=(f"Carry the tube out an hour before dark. {later}",)),))
    (found,) = find_definitions(lesson)
    assert (found.term, found.kind, found.glossary_only) == (term, "plain", True)


@pytest.mark.parametrize(
    "later",
    [
        "The mount is the part that wobbles in a breeze.",
        "The finder is the scope that you align first.",
        "The finder is the scope which we align first.",
        "The finder is the scope you align first.",
        "The finder is the first scope that points at the target.",
        "The topmost eyepiece is the one that magnifies most.",
        "The topmost lens is the objective that gathers the light.",
        "The finder is the largest scope that fits the bracket.",
        "The finder is the final piece that goes on.",
        "The following is the checklist of parts that every kit needs.",
        "The finder is the finder scope that ships with the kit.",
        "The objective is the only lens that gathers the light.",
        "The focuser is the same tube that holds the diagonal.",
        "Declination is the angle north or south of the celestial equator.",
        "The finder is the scope that is easiest to knock.",
        "A finder is the scope that points the telescope.",
        "The finder is the reason that setting up takes time.",
    ],
)
def test_a_later_sentence_that_weighs_ranks_or_tells_how_to_use_defines_nothing(later):
    """Of two such sentences past the first, only the one that says what its thing is
    defines: one with an everyday kind, a subject of its own in the clause, a word that
    ranks, places or weighs, a kind that says the name again, no "The" before the name or
    no clause is left to the first sentence."""
    assert found_in(f"Carry the tube out an hour before dark. {later} The dew shield is the "
                    "hood at the front of the tube that keeps the lens dry.",
                    heading="Setting up") == [("dew shield", "plain")]


def test_a_later_sentence_defines_the_term_an_alias_names_in_a_built_course(tmp_path):
    """"The star diagonal is the mirror …", star diagonal an alias of diagonal: the lesson
    defines diagonal, so the coverage report says which lesson defines it and that an
    earlier one uses it first. A name the glossary lacks, said of so, is no lesson term."""
    index = built_course(tmp_path, {
        "01-first-night.md": "# First night\n\n## Looking\n\nFit the diagonal and look up.\n",
        "02-parts.md": ("# Parts\n\n## Setting up\n\nCarry the tube out an hour before dark. "
                        "The star diagonal is the mirror in the eyepiece holder that turns "
                        "the light through a right angle. The dew shield is the hood at the "
                        "front of the tube that keeps the lens dry.\n"),
    }, "diagonal\n: A mirror or prism that bends the light so you look down into the "
       "eyepiece.\n  Also: star diagonal\n")
    report = coverage_report(current_version(index), index)
    (diagonal,) = [t for t in report.terms if t.term == "diagonal"]
    assert diagonal.defined_at is not None and diagonal.defined_at.lesson == "parts"
    assert [(u.term, u.defined_at.lesson, [p.lesson for p in u.used_at])
            for u in report.used_before_definition] == [("diagonal", "parts", ["first-night"])]
    assert report.undefined == () and report.missing_from_glossary == ()
