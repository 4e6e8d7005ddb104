"""A thing described first and named after it: "a thin clay slurry called slip", "the ridge
potters call a *foot*", "… is **wedging**" (a description, then "is" and the marked name), "a
low wide bowl, a **shallow dish**," (an appositive naming what was just described); and a
marked name given its short form ("**heat work**, often shortened to HW: …") or after a hedged
"means" ("*Sgraffito* simply means …"). Most "X called Y" name one thing (a file, a function,
a dog), and most descriptions before "is" are remarks, so each form asks for a glossary term
or a name the lesson marks, and the near-misses are refused by the sentence's shape."""

from __future__ import annotations

import pytest
from course_fixtures import built_course, cards, cli_mentions, open_course

from lessonsearch.definitions import find_definitions
from lessonsearch.readers.markdown import read_markdown_lesson


def found_in(markdown: str) -> list[tuple[str, str, bool]]:
    """(term, kind, glossary_only) of every definition a one-section markdown lesson makes."""
    lesson = read_markdown_lesson(f"## Clay\n\n{markdown}\n", "pottery.md")
    return [(d.term, d.kind, d.glossary_only) for d in find_definitions(lesson)]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Dip the pot in a thin clay slurry called slip.", "slip"),
        ("Mix ash and feldspar into a glassy coating called glaze, then let it dry.", "glaze"),
        ("The wheel leaves a raised ring potters call the foot.", "foot"),
        ("Trim the base into the ring most potters call a foot ring.", "foot ring"),
        ("Keep the pots on the structure potters call a ware board.", "ware board"),
    ],
)
def test_a_thing_described_and_called_x_names_a_glossary_term(sentence, term):
    """Unmarked, the name is a glossary term's only (``glossary_only``): the sentence cannot
    tell a term from one thing's name."""
    assert found_in(sentence) == [(term, "naming", True)]


def test_a_marked_name_after_a_group_calling_the_thing_described_names_it():
    assert found_in("The wheel leaves a raised ring potters call a *foot*.") == [
        ("foot", "naming", False)]


@pytest.mark.parametrize(
    "sentence",
    [
        "Write a function called average.",
        "Write a function called `average`.",
        "Save the glaze recipe in a file called slip.",
        "Pass the kiln script a parameter called glaze.",
        "Create a branch called glaze for the new recipes.",
        "Our studio keeps a grey cat called Slip.",
        "The script prints a string called glaze.",
        "Add each pot to the dictionary we call glazes.",
        "Use the value we call slip.",
        "The loader runs the helper we call twice.",
        "The slow helper the tests call a fixture is gone.",
        "The studio critics call a disaster is closed.",
        "Dip the pot in a thin slurry called slip before firing it.",
    ],
)
def test_a_thing_with_a_name_of_its_own_is_no_term(sentence):
    """A function, a file, a parameter, a branch or a cat called so has a name, not a term;
    code and a capitalised word are names of one thing; "we call twice" says how often;
    tests call and critics judge; and a name that does not end its clause ("slip before
    firing it") may be where or when a thing is called."""
    assert found_in(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("The kneading of clay in a spiral until no air is left in the clay is **wedging**.",
         "wedging"),
        ("The hardness of clay that is dry enough to carve but still damp is "
         "*leather-hard*, or simply leather.", "leather-hard"),
        ("Shape it into a low wide bowl, a **shallow dish**, before it stiffens.",
         "shallow dish"),
        ("Throw a tall narrow vase, a **bottle form**.", "bottle form"),
    ],
)
def test_a_marked_name_after_its_description_names_a_glossary_term(sentence, term):
    """The definition the other way round: a description, then "is" or a comma, and the
    marked name. Both also read as remarks or lists, so the glossary decides."""
    assert found_in(sentence) == [(term, "emphasis", True)]


@pytest.mark.parametrize(
    "sentence",
    [
        "The most important tool on the bench is **patience**.",
        "The key to a good pot is **wedging**.",
        "The thing to check before firing is **dryness**.",
        "The usual choice is **stoneware**.",
        "You need a damp sponge, a **needle tool**, two bats and a bucket.",
        "Bring a damp sponge, a **needle tool**, and a bucket.",
        "Fill a bucket, a **slop bucket**, of water.",
        "Throw a tall one, a **bottle form**, next.",
    ],
)
def test_a_remark_or_a_list_before_a_marked_name_names_nothing(sentence):
    """A description that weighs ("most important") or opens with an everyday noun ("the
    key", "the thing"), a plain noun phrase, a list going on ("two bats", "and") and a
    pronoun as the thing described ("a tall one") name nothing."""
    assert found_in(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Kilns are rated by **heat work**, often shortened to HW: what a firing's heat and "
         "time do together to the clay.", "heat work"),
        ("The firing is measured in **pyrometric cones**, usually abbreviated as PCs.",
         "pyrometric cones"),
        ("*Sgraffito* simply means \"scratched\": a design cut through a coloured layer.",
         "sgraffito"),
        ("**Bisque** basically means a first, low firing.", "bisque"),
    ],
)
def test_a_marked_name_given_a_short_form_or_a_hedged_means_is_defined(sentence, term):
    """A name is given its short form where it is introduced; a hedge before "means" after a
    marked subject still says what it is."""
    assert found_in(sentence) == [(term, "emphasis", False)]


def test_the_short_form_must_end_its_clause():
    assert found_in("The **recipe**, often shortened to three lines, is easy.") == []


def test_a_glossary_only_finding_gives_way_to_a_later_definition_of_the_term():
    """"A special identifier called HEAD" names HEAD only where the glossary has it; a later
    sentence of the lesson that names it outright is kept, so a course whose glossary lacks
    HEAD still links the lesson."""
    lesson = read_markdown_lesson(
        "## History\n\nGit keeps a special identifier called HEAD. The newest commit is "
        "referred to as HEAD.\n", "history.md")
    assert [(d.term, d.sentence, d.glossary_only) for d in find_definitions(lesson)] == [
        ("HEAD", "The newest commit is referred to as HEAD.", False)]


def test_a_built_course_links_the_glossary_terms_a_description_names(tmp_path):
    """As a build reads them: the term pages of slip, foot and wedging link the lesson's
    sections, not the glossary alone; a file called glaze defines nothing."""
    lessons = {"01-clay.md": (
        "---\ntitle: Clay\nslug: clay\n---\n\n## Slips\n\nDip the pot in a thin clay slurry "
        "called slip. Save notes in a file called glaze.\n\n## Feet\n\nThe wheel leaves a "
        "raised ring potters call a *foot*.\n\n## Preparing\n\nThe kneading of clay in a "
        "spiral until no air is left in the clay is **wedging**.\n")}
    glossary = ("slip\n: Clay thinned with water to a cream.\n\nfoot\n: The ring a pot stands "
                "on.\n\nwedging\n: Kneading clay to drive out air.\n\nglaze\n: A glassy "
                "coating fused to a pot.\n")
    with open_course(tmp_path, lessons, glossary) as searcher:
        urls = {term: (found.url if (found := searcher.glossary.find(term).lesson_definition)
                       else None) for term in ("slip", "foot", "wedging", "glaze")}
    assert urls == {"slip": "/lessons/clay#slips", "foot": "/lessons/clay#feet",
                    "wedging": "/lessons/clay#preparing", "glaze": None}


def test_a_short_form_a_lesson_gives_is_the_term_s_other_name(tmp_path):
    """"**heat work**, often shortened to HW:": a reader who searches HW gets heat work's
    card, as "Heat Work (HW)" would give it, and the short form is found as its name."""
    lessons = {"01-kilns.md": (
        "---\ntitle: Kilns\nslug: kilns\n---\n\n## Rating a firing\n\nKilns are rated by "
        "**heat work**, often shortened to HW: what a firing's heat and time do together to "
        "the clay.\n\n## Cones\n\nA cone bends once the HW of a firing reaches its own.\n")}
    glossary = "heat work\n: What heat and time together do to clay in a kiln.\n"
    with open_course(tmp_path, lessons, glossary) as searcher:
        assert "HW" in searcher.glossary.find("heat work").aliases
        assert [card.term for card in searcher.search("HW").terms] == ["heat work"]


GARDEN = {
    "01-feeding.md": "---\ntitle: Feeding the beds\nslug: feeding\n---\n\n## Brewing\n\n"
                     "Compost tea, also called liquid compost, is water left to steep with a "
                     "sack of finished compost for a day or two.\n",
    "02-seedlings.md": "---\ntitle: Seedlings\nslug: seedlings\n---\n\n## Watering\n\n"
                       "Water young seedlings with weak liquid compost once a week.\n",
}


def test_a_subject_given_another_name_is_found_by_that_name(tmp_path, capsys):
    """"Compost tea, also called liquid compost, is …" defines the glossary's compost tea,
    and liquid compost becomes its other name: a search for it shows compost tea's card,
    and the seedlings lesson's "liquid compost" counts as a use of compost tea."""
    glossary = "compost tea\n: Water steeped with compost, poured on as a feed.\n"
    index = built_course(tmp_path, GARDEN, glossary)
    assert cards(index, "liquid compost") == [["compost tea"]]
    assert cli_mentions(index, "compost tea", capsys) == (3, ["feeding", "seedlings"])
    assert cli_mentions(index, "liquid compost", capsys)[0] == 3


def test_a_subject_given_another_name_makes_one_lesson_term(tmp_path):
    """With no glossary entry for either name the lesson's term is the subject, found by
    both names, not two terms."""
    index = built_course(tmp_path, GARDEN, "mulch\n: A layer spread over the soil.\n")
    assert cards(index, "liquid compost", "compost tea") == [["compost tea"], ["compost tea"]]
