"""A reader who asks what a thing is ("what is a sample?", "what sample means", "meaning of
variance", "define variance", "explain variance") is shown the card of the term asked about
and the section that defines it first, as for the term typed alone. The words that only ask
("meaning", "definition", "define", "explain", "exactly") are not searched: in a statistics
course "meaning" named the glossary's mean."""

from __future__ import annotations

import pytest
from course_fixtures import built_course, first, terms

from lessonsearch.searcher import Searcher

GLOSSARY = """\
---
title: Glossary
---

mean {#mean}
: A list's total divided by how many values it holds.
  Also: average

variance {#variance}
: The average squared distance of each value from the mean.

sample {#sample}
: The part of a population that is measured.
  Also: samples

population {#population}
: Everyone or everything a study wants to say something about.

leave one out {#leave-one-out}
: Fitting a model once for each value, with that value held back to test the fit.
"""

LESSONS = {
    "01-samples.md": """\
---
title: Samples and populations
slug: samples
---

## Who gets measured

Nobody weighs every trout in a lake. A **sample** is the handful of fish that a survey
actually nets, weighs and throws back, chosen so that what holds for them is likely to hold
for the whole lake. How they are chosen matters more than how many there are: forty fish
netted at one sunny jetty tell you about that jetty on sunny afternoons, and about little
else in the water.

## Drawing one at random

Number the sample slots, draw a sample, then draw another sample: each sample differs, and
a bigger sample differs less from sample to sample.

## Marking the nets

**Floats** are the painted buoys tied to a survey net's corners, so the crew can find the net
again from the boat the next morning. A net left afloat overnight catches more than one
lifted at dusk.

## Setting the scope

To define a population, say who belongs to it and who does not: every trout in the lake
this spring, not every trout in the county.
""",
    "02-averages.md": """\
---
title: Averages
slug: averages
---

## Adding up and dividing

The **mean** is the total of a list divided by the number of values in it. Add the weights
of five trout and divide by five; that single figure is what a report means when it gives
the average weight, although it hides how far the heaviest and lightest fish sit from it.

## Means of many samples

Means of different samples of a lake differ: each mean moves with its sample, and a mean
of a mean of means steadies as samples grow.

## What a figure tells you

The meaning of a figure depends on its definition: explain which fish were netted, define
each measure you report, and say what the meaning of a small spread was for the lake.
""",
    "03-spread.md": """\
---
title: Spread
slug: spread
---

## How far values scatter

Two lakes can share an average weight and still look nothing alike. **Variance** is the
average of the squared distances between each value and the mean: square each fish's gap
from the average, add the squares up, and divide. A lake of identical fish has none of it;
a lake of minnows and pike has a great deal, whatever their average says.

## Variance in a spreadsheet

A spreadsheet's variance function gives a variance; a variance of a sample and a variance
of a population use different divisors, so check which variance it gives.

## Residuals

A **residual** is what is left of a measured value once the value a model predicted for it
is taken away: a trout weighing 900 grams where the model of its length said 850 leaves a
residual of 50, and a model that fits well leaves residuals scattered evenly around zero.

## Plotting the leftovers

Plot each residual against its prediction. Residuals fanning out, residuals curving,
residuals drifting with time: each shape of a residuals plot says what the residuals show the
model missed.
""",
}


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory):
    opened = Searcher.open(built_course(tmp_path_factory.mktemp("lake"), LESSONS, GLOSSARY))
    yield opened
    opened.close()


SAMPLE = ("samples", "who-gets-measured")
VARIANCE = ("spread", "how-far-values-scatter")
MEAN = ("averages", "adding-up-and-dividing")
RESIDUAL = ("spread", "residuals")


@pytest.mark.parametrize(("query", "term", "section", "searched"), [
    ("what is a sample", "sample", SAMPLE, ("sample",)),
    ("what exactly is a sample?", "sample", SAMPLE, ("sample",)),
    ("what sample means", "sample", SAMPLE, ("sample",)),
    ('what does "sample" mean', "sample", SAMPLE, ("sample",)),
    ("sample meaning", "sample", SAMPLE, ("sample",)),
    ("definition of sample", "sample", SAMPLE, ("sample",)),
    ("what's the meaning of a sample?", "sample", SAMPLE, ("sample",)),
    ("what’s the definition of a sample", "sample", SAMPLE, ("sample",)),  # curly
    ("define sample", "sample", SAMPLE, ("sample",)),
    ("what variance means", "variance", VARIANCE, ("variance",)),
    ("what is variance?", "variance", VARIANCE, ("variance",)),
    ("meaning of variance", "variance", VARIANCE, ("variance",)),
    ("variance definition", "variance", VARIANCE, ("variance",)),
    ("define variance", "variance", VARIANCE, ("variance",)),
    ("what's meant by variance", "variance", VARIANCE, ("variance",)),
    ("explain variance", "variance", VARIANCE, ("variance",)),
    ("please explain what variance means", "variance", VARIANCE, ("variance",)),
    ("what is the mean?", "mean", MEAN, ("mean",)),
    ("meaning of the mean", "mean", MEAN, ("mean",)),
    ("define the mean", "mean", MEAN, ("mean",)),
])
def test_a_question_about_a_term_shows_its_card_and_defining_section_first(
        course, query, term, section, searched) -> None:
    """The term asked about, and no other: "meaning" is no mention of the statistic mean.
    Its defining section comes first, as for the term alone, where the questions found a
    shorter section writing the word more often first."""
    response = course.search(query)
    assert terms(response) == [term]
    assert first(response) == section
    assert response.words == searched
    assert first(course.search(term)) == section  # as the term alone


@pytest.mark.parametrize("query", ["what are residuals", "what is a residual?",
                                   "residual meaning", "define a residual"])
def test_a_word_only_a_lesson_defines_finds_its_defining_section_first(course, query) -> None:
    """"residual" is in no glossary entry; the lesson that says what a residual is makes it a
    term, and a question about it finds that section before one writing the word more."""
    response = course.search(query)
    assert terms(response) == ["residual"]
    assert first(response) == RESIDUAL


def test_the_statistic_mean_is_named_only_when_asked(course) -> None:
    """`sample means` asks about the statistic; `what sample means` about a sample."""
    plural = course.search("sample means")
    assert terms(plural) == ["sample", "mean"]
    assert first(plural) == ("averages", "means-of-many-samples")
    asked = course.search("what sample means")
    assert terms(asked) == ["sample"]
    assert first(asked) == SAMPLE


def test_define_is_searched_where_the_course_writes_it_before_the_subject(course) -> None:
    """The course writes "define a population" (how to set a study's scope), so the words
    are the course's own and searched; no section writes "define variance", which asks
    what variance is."""
    for query in ("define a population", "define population"):  # "a" or not between
        own = course.search(query)
        assert own.words == ("define", "population")
        assert first(own) == ("samples", "setting-the-scope")
    assert course.search("define variance").words == ("variance",)


@pytest.mark.parametrize(("query", "searched"), [
    ("meaning", ("meaning",)),  # nothing else asked
    ("what is the meaning?", ("meaning",)),
    ('"meaning" of variance', ("meaning", "variance")),  # in quotes: the word itself
    ("how a figure's meaning changes", ("figure's", "meaning", "changes")),
    ("explain", ("explain",)),
    ("what exactly", ("exactly",)),
    ("meaning of variance", ("variance",)),
])
def test_the_asking_words_stay_where_they_ask_nothing(course, query, searched) -> None:
    """Only around a subject of a few words are they the reader's question; alone, in
    quotes or in the middle of other words they are searched as typed."""
    assert course.search(query).words == searched


def test_a_term_whose_name_has_stop_words_is_a_subject_too(course) -> None:
    """"out" ends no subject of a few plain words, but "leave one out" is a term's name."""
    response = course.search("explain leave one out")
    assert terms(response) == ["leave one out"]
    assert "explain" not in response.words


def test_a_question_s_article_is_no_part_of_the_word_after_it(course) -> None:
    """The course writes "afloat", never "a float": `what is a float?` asks about a float,
    where a question's two words the course writes as one ("soft max") are searched so."""
    response = course.search("what is a float?")
    assert response.suggestion is None
    assert response.words == ("float",)
    assert terms(response) == ["floats"]
    assert first(response) == ("samples", "marking-the-nets")
