"""Four shapes a lesson's sentence may take around a term: a question-word clause after
"means" ("Hydration means how much water …", which says what the term is), a describing word
after "what people call" ("… is what people call fast", which names nothing), a subject that
runs on into its verb before "is defined as" ("The heap stores every object that is defined
as …"), and a bold word inside a plain list of things ("a big bowl, a **lame**, a tin"),
which is one thing listed, not defined."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

from lessonsearch.definitions import find_definitions
from lessonsearch.model import Lesson, Section
from lessonsearch.readers.markdown import read_markdown_lesson


def found_in(*paragraphs: str) -> list[tuple[str, str, bool]]:
    """(term, kind, glossary_only) of every definition a one-section lesson makes."""
    lesson = Lesson(slug="dough", title="Dough", url="/lessons/dough", source="dough.md",
                    format="markdown", sections=(Section(
                        anchor="mixing", heading="Mixing", level=2, paragraphs=paragraphs),))
    return [(d.term, d.kind, d.glossary_only) for d in find_definitions(lesson)]


def marked_in(markdown: str) -> list[tuple[str, str]]:
    """(term, kind) of every definition a markdown lesson of one section makes, with its
    bold and italic words read as a build reads them."""
    lesson = read_markdown_lesson(f"## Kit\n\n{markdown}\n", "kit.md")
    return [(d.term, d.kind) for d in find_definitions(lesson)]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Hydration means how much water the dough holds against its flour.", "hydration"),
        ("Latency means how long a packet waits before it leaves the queue.", "latency"),
        ("Oven spring means how far a loaf rises in its first minutes of baking.",
         "oven spring"),
        ("Crumb means what is left inside the loaf once the crust has set.", "crumb"),
        ("Doneness means whether the middle of the loaf has set.", "doneness"),
        ("Robbing means when bees from one hive raid the stores of another.", "robbing"),
        ("The brood nest means where the queen lays and the nurses keep the young warm.",
         "brood nest"),
    ],
)
def test_a_question_word_clause_after_means_names_a_glossary_term(sentence, term):
    """"X means how much …", "… what is left …", "… whether …", "… when …", "… where …"
    say what X is, as a gerund or a noun phrase after "means" does; as those, the hit names
    a term only where the glossary has it."""
    assert found_in(sentence) == [(term, "defining", True)]


@pytest.mark.parametrize(
    "sentence",
    [
        "This means how we bake on a weekday.",
        "That means what you think.",
        "It means whether the oven is hot enough.",
        "Hydration means what you think it means.",
        "Hydration means how we weigh the water.",
        "Knowing this means how long the dough rests.",
        "Baking it means whether we eat today.",
        "Robbing means when you leave honey out.",
        "This means when the oven is hot.",
        "That means where we keep the flour.",
        "By means of how the scale reads, we weigh the flour.",
    ],
)
def test_a_question_word_clause_after_a_pointer_or_a_remark_names_nothing(sentence):
    """The subject must be a term-like noun phrase: "This", "That", "It" or a phrase that
    holds one point back at what came before; and a clause opened by a pronoun ("what you
    think", "how we weigh …") says what the speaker means, not what the term is."""
    assert found_in(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "A quick bake is what people call fast.",
        "What people call fast is rarely fast.",
        "A loaf like this is what people call good.",
        "The crust is what people call done.",
        "This is what people call the problem.",
    ],
)
def test_a_describing_word_after_what_people_call_names_nothing(sentence):
    """"… is what people call fast" says how a thing is judged, not what it is called: a
    describing word ("fast", "good") or a state ("done") names no term, nor an everyday
    noun ("the problem"); and the subject ("quick bake") is defined by nothing."""
    assert found_in(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Warm dough is what bakers call slack dough.", "slack dough"),
        ("Splitting the dough in two is what bakers call dividing.", "dividing"),
        ("What bakers call a levain is a starter built for one bake.", "levain"),
    ],
)
def test_a_name_after_what_people_call_still_names(sentence, term):
    assert found_in(sentence) == [(term, "naming", False)]


@pytest.mark.parametrize(
    "sentence",
    [
        "The heap stores objects that outlive a call.",
        "The heap stores every object that is defined as global.",
        "The heap stores values that are defined as static.",
        "The heap stores objects whose lifetime is defined as longer than a call.",
        "In C, the heap stores whatever is defined as dynamic.",
        "The linker keeps each symbol that is defined as weak.",
    ],
)
def test_a_subject_that_runs_into_its_verb_is_not_defined(sentence):
    """The words before "is defined as" are the term only when they are all of the subject,
    a noun phrase: in "The heap stores every object that is defined as global." the verb is
    "stores", and neither "heap stores" nor "heap stores every object that" is a term."""
    assert found_in(sentence) == []


@pytest.mark.parametrize(
    "markdown",
    [
        "You need a big bowl, a **lame**, a tin.",
        "Tools: a **lame**, a tin, a bowl.",
        "Set out a bowl, the **couche**, a scraper and a tin.",
        "Bake in a tin, a **banneton**, a basket.",
        "A loaf needs flour, **salt**, a little water.",
        "You need a big bowl, a **lame**, a tin for the loaf.",
        "A **lame**, a tin, a bowl and a towel are all you need.",
    ],
)
def test_a_bold_word_in_a_list_of_things_defines_nothing(markdown):
    """Between two commas of a list ("a big bowl, a **lame**, a tin") the bold word is one
    thing listed: the phrase after it is the next thing, not what it is."""
    assert marked_in(markdown) == []


@pytest.mark.parametrize(
    ("markdown", "term"),
    [
        ("A **lame**, a razor blade on a handle, scores the dough.", "lame"),
        ("In the oven, the **crust**, the outer layer that browns, sets first.", "crust"),
        ("After the first rise, the **bench rest**, a short pause, lets the gluten relax.",
         "bench rest"),
        ("Score the loaf with a **lame**, a blade that opens the crust.", "lame"),
    ],
)
def test_a_bold_word_with_an_appositive_outside_a_list_is_still_defined(markdown, term):
    assert marked_in(markdown) == [(term, "emphasis")]


LESSONS = {"01-dough.md": """---
title: Dough
slug: dough
---

## Water

Hydration means how much water the dough holds against its flour.

## Kit

You need a big bowl, a **lame**, a tin. A quick bake is what people call fast.
"""}

GLOSSARY = """hydration
: The weight of water in a dough against the weight of its flour.

lame
: A blade on a handle that scores the top of a loaf.

fast
: Going without food.
"""


def test_a_built_course_links_what_means_how_defines_and_not_what_a_list_holds(tmp_path):
    """The glossary's hydration links the lesson that says what it is; its lame and its fast
    are the glossary's alone: the list and the remark define neither."""
    with open_course(tmp_path, LESSONS, GLOSSARY) as searcher:
        assert searcher.glossary.find("hydration").lesson_definition.url == (
            "/lessons/dough#water")
        assert searcher.glossary.find("lame").lesson_definition is None
        assert searcher.glossary.find("fast").lesson_definition is None
