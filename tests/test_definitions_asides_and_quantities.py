"""Plain definitions a section opens with in shapes the plain form did not read: a subject
given its long name in an aside ("A scion, short for scion wood, is …"), a gerund said to be
another ("Pinching is nipping …"), a part of a thing ("A division is half or more of a clump
…"), a thing a group names in a relative clause (", which growers call the root ball"), and a
name whose describing words the glossary lacks ("A home fruit orchard is …" under "The
orchard", or in a lesson whose key idea says what an orchard is). And a marked label opening
a list item, which defines nothing unless a colon or a dash says what it is."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

from lessonsearch.definitions import find_definitions
from lessonsearch.readers.markdown import read_markdown_lesson


def found_in(heading: str, markdown: str) -> list[tuple[str, str | None]]:
    """(term, abbreviation) of every definition a one-section markdown lesson makes."""
    lesson = read_markdown_lesson(f"## {heading}\n\n{markdown}\n", "garden.md")
    return [(d.term, d.abbreviation) for d in find_definitions(lesson)]


@pytest.mark.parametrize(
    ("heading", "sentence", "found"),
    [
        ("What a scion is", "A scion, short for scion wood, is a cut shoot of the variety you "
         "want to grow.", [("scion wood", "scion")]),
        ("Pinching", "Pinching is nipping the soft tip off a shoot so the plant bushes out.",
         [("pinching", None)]),
        ("Dividing plants", "A division is half or more of a clump lifted with its own roots.",
         [("division", None)]),
        ("Taking cuttings", "A cutting is part of a stem taken from a parent plant to root.",
         [("cutting", None)]),
        ("Clumps", "A clump is two or more crowns grown together from one root.",
         [("clump", None)]),
        ("Hedges", "A hedge is one or more rows of shrubs planted close to make a screen.",
         [("hedge", None)]),
        ("The root ball", "By late summer the roots fill the pot in a dense mat, which growers "
         "call the root ball.", [("root ball", None)]),
        ("The root ball", "The roots fill the pot in a dense mat on the bottom, which most "
         "growers call the root ball.", [("root ball", None)]),
    ],
)
def test_a_section_s_opening_sentence_defines_its_term(heading, sentence, found):
    assert found_in(heading, sentence) == found


@pytest.mark.parametrize(
    ("heading", "sentence"),
    [
        ("Pruning", "Pruning is getting easier with sharp tools."),  # a progressive, not a
        ("Pruning", "Pruning is taking longer this year."),  # gerund that says what it is
        ("Watering", "Pinching is nipping the soft tip off a shoot."),  # a heading elsewhere
        ("Dividing plants", "A division is half of the fun."),  # a part of nothing set apart
        ("Dividing plants", "A division is half or more of the work."),
        ("The root ball", "Water the pot, which growers call often."),
    ],
)
def test_a_near_miss_defines_nothing(heading, sentence):
    assert found_in(heading, f"Some words open the section here. {sentence}") == []


def test_an_aside_that_is_no_other_name_still_defines_the_subject():
    """Any aside between commas after the subject: the sentence still says what it is."""
    assert found_in("What a scion is", "A scion, in most cases, is a cut shoot of a tree.") == [
        ("scion", None)]


def test_a_marked_label_opening_a_list_item_defines_nothing():
    """"- **Bone meal** (a spoonful a plant) in spring, which …;" says when to use it: the
    item is a line of a list of things, and its words are no definition of the name."""
    markdown = ("Feed the beds twice a year:\n\n"
                "- **Bone meal** (a spoonful per plant) in spring, which feeds the roots and "
                "helps the first flowers;\n"
                "- **Blood meal** (half as much) in summer, when the leaves need it.\n")
    assert found_in("Feeding", markdown) == []


@pytest.mark.parametrize("item", [
    "- **Dibber**: a pointed stick that makes holes for seedlings.",
    "- **Dibber** — a pointed stick that makes holes for seedlings.",
    "- A **dibber** is a pointed stick that makes holes for seedlings.",
])
def test_a_marked_label_that_a_colon_or_a_verb_explains_stays_a_definition(item):
    assert found_in("Tools", f"Bring these:\n\n{item}\n- A trowel.\n") == [("dibber", None)]


LESSONS = {"01-orchard.md": (
    "---\ntitle: Orchards\nslug: orchards\n---\n\n## The orchard\n\nA home fruit orchard is "
    "a planting of trees kept for their crop, each on its own rootstock. Plant it in "
    "winter.\n\n## What a scion is\n\nA scion, short for scion wood, is a cut shoot of the "
    "variety you want to grow. Graft it in spring.\n\n## Pinching\n\nPinching is nipping the "
    "soft tip off a shoot so the plant bushes out. Do it in May.\n\n## Feeding\n\n- **Bone "
    "meal** (a spoonful per plant) in spring, which feeds the roots;\n- **Blood meal** in "
    "summer.\n")}
GLOSSARY = ("orchard\n: Land planted with fruit trees.\n\nscion wood\n: A shoot cut from the "
            "tree one wants more of, to graft.\n\npinching\n: Removing a shoot's growing tip."
            "\n\nbone meal\n: Ground bone, a slow feed rich in phosphorus.\n")


@pytest.fixture(scope="module")
def orchard(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("orchard"), LESSONS, GLOSSARY) as searcher:
        yield searcher


@pytest.mark.parametrize(("term", "url"), [
    ("orchard", "/lessons/orchards#the-orchard"),
    ("scion wood", "/lessons/orchards#what-a-scion-is"),
    ("pinching", "/lessons/orchards#pinching"),
    ("bone meal", None),
])
def test_a_built_course_links_the_glossary_term_each_section_defines(orchard, term, url):
    found = orchard.glossary.find(term).lesson_definition
    assert (found.url if found else None) == url


def test_the_short_name_an_aside_gives_finds_the_long_name_s_card(orchard):
    """"A scion, short for scion wood,": the glossary has only scion wood, and a reader who
    searches scion gets its card."""
    assert "scion" in orchard.glossary.find("scion wood").aliases
    assert [card.term for card in orchard.search("scion").terms] == ["scion wood"]


KEYED = ("---\ntitle: Fruit trees\nslug: fruit\nkey_idea: {key}\n---\n\n## Planting out\n\n"
         "A home fruit orchard is a planting of trees kept for their crop, each on its own "
         "rootstock. Plant it in winter.\n")


@pytest.mark.parametrize(("key", "url"), [
    ("An orchard is a patch of ground given over to fruit trees.", "/lessons/fruit"
     "#planting-out"),
    # the key idea says what something else is, or says nothing of what a thing is
    ("A rootstock is the lower half of a grafted tree.", None),
    ("Plant fruit trees in winter, while they sleep.", None),
])
def test_a_key_idea_that_says_what_the_last_word_is_names_it(tmp_path, key, url):
    """No heading names the orchard, but the lesson's key idea says what one is: "A home
    fruit orchard is …", opening a section, defines the glossary's orchard, as under a
    heading "The orchard"; a key idea about another thing leaves it undefined."""
    with open_course(tmp_path, {"01-fruit.md": KEYED.format(key=key)}, GLOSSARY) as searcher:
        found = searcher.glossary.find("orchard").lesson_definition
        assert (found.url if found else None) == url
