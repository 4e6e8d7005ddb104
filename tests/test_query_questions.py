"""The verb "mean" of a question ("what does variance mean?") is a question word, as "what"
and "does" are, in a course whose glossary defines the statistic mean: it names no term and
is not searched. The noun is still the term ("what is the mean?", "mean and median", `mean`
alone, `"mean"` in quotes)."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest
from course_fixtures import built_course, first, terms
from web_fixtures import serving

from lessonsearch.searcher import Searcher

GLOSSARY = """\
---
title: Glossary
---

mean {#mean}
: The sum of a list of numbers divided by how many numbers there are.
  Also: average, arithmetic mean

median {#median}
: The middle value of a sorted list of numbers.

variance {#variance}
: How widely values scatter: the average squared distance of each value from the centre.

standard deviation {#standard-deviation}
: The square root of the variance, in the units of the data.

p-value {#p-value}
: How likely data at least this extreme would be if nothing but chance were at work.
  Also: p-values

overfitting {#overfitting}
: Fitting the noise of a training sample along with its signal.
  Also: overfit
"""

LESSONS = {
    "01-averages.md": """\
---
title: Averages
slug: averages
---

## Adding up and dividing

The mean of a list is its total divided by its count. The mean of 2, 4 and 9 is 5: add
them up to 15, then divide by 3. A spreadsheet computes the mean with its AVERAGE function.

## The middle value

Sort the list and take the value in the middle: that is the median. One huge value moves
the mean a long way and the median hardly at all, so incomes are summed up by their median.

## Which mean to report

A mean of rates is best taken as a harmonic mean; a mean of growth factors as a geometric
mean. The plain arithmetic mean is right for amounts that add up.
""",
    "02-spread.md": """\
---
title: Spread
slug: spread
---

## Variance

Variance says how far the values scatter. Take each value's distance from the centre,
square it, and average the squares. A variance of zero says every value is the same.

## Standard deviation

The standard deviation is the square root of the variance, so it comes back in the units
of the data: centimetres for heights, seconds for times.
""",
    "03-testing.md": """\
---
title: Testing a hunch
slug: testing
---

## Chance alone

A p-value asks how surprising the data would be if chance alone were at work. Small
p-values say chance alone is a poor explanation; they never say how big an effect is.
""",
    "04-models.md": """\
---
title: Fitting models
slug: models
---

## Too close a fit

A model can overfit: it learns the noise of its training sample along with the signal, and
predicts new data worse than a simpler model would. Hold back some data to catch it.
""",
}


@pytest.fixture(scope="module")
def stats_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_course(tmp_path_factory.mktemp("stats"), LESSONS, GLOSSARY)


@pytest.fixture(scope="module")
def stats(stats_index: Path):
    opened = Searcher.open(stats_index)
    yield opened
    opened.close()


@pytest.mark.parametrize(("query", "term", "section"), [
    ("what does variance mean?", "variance", ("spread", "variance")),
    ("What does variance mean", "variance", ("spread", "variance")),
    ("what do p-values mean", "p-value", ("testing", "chance-alone")),
    ("what is meant by variance", "variance", ("spread", "variance")),
    ("what's meant by the standard deviation?", "standard deviation",
     ("spread", "standard-deviation")),
    ("what does it mean to overfit", "overfitting", ("models", "too-close-a-fit")),
    ("what does a small p-value mean for my hunch?", "p-value", ("testing", "chance-alone")),
    ('what does "variance" mean?', "variance", ("spread", "variance")),  # a word in quotes
])
def test_the_verb_mean_of_a_question_is_no_term(stats, query, term, section) -> None:
    response = stats.search(query)
    assert terms(response) == [term]
    assert first(response) == section
    assert "averages" not in {hit.lesson for hit in response.results}  # no section on means
    assert "mean" not in response.words and "meant" not in response.words
    assert all("<mark>mean" not in hit.snippet for hit in response.results)


@pytest.mark.parametrize(("query", "named"), [
    ("what is the mean?", ["mean"]),
    ("how is the mean computed", ["mean"]),
    ("mean and median", ["mean", "median"]),
    ("mean", ["mean"]),
    ('"mean"', ["mean"]),
    ("what does the mean mean?", ["mean"]),  # the noun, then the verb
    ("how does the mean change with one huge value", ["mean"]),
    ("how do mean and median differ", ["mean", "median"]),
    ('what does "mean" mean', ["mean"]),
])
def test_the_noun_mean_is_still_the_term(stats, query, named) -> None:
    response = stats.search(query)
    assert terms(response) == named
    assert "mean" in response.words
    assert first(response)[0] == "averages"


def test_the_api_names_no_term_for_the_verb(stats_index) -> None:
    with serving(stats_index) as client:
        asked = client.get("/api/search", query_string={"q": "what does variance mean?"})
        noun = client.get("/api/search", query_string={"q": "what is the mean?"})
    assert [t["term"] for t in asked.get_json()["terms"]] == ["variance"]
    assert asked.get_json()["results"][0]["anchor"] == "variance"
    assert [t["term"] for t in noun.get_json()["terms"]] == ["mean"]


def test_mean_in_quotes_is_the_term_wherever_it_stands(stats) -> None:
    """The reader who quotes it asks for the word: `what does variance "mean"` names both."""
    assert terms(stats.search('what does variance "mean"')) == ["variance", "mean"]


def test_the_verb_stays_when_nothing_else_is_asked(stats) -> None:
    """`what does it mean?` has no other word to search: the word is searched as before."""
    response = stats.search("what does it mean?")
    assert response.words == ("mean",)
    assert terms(response) == ["mean"]


@pytest.mark.parametrize(("query", "term", "section"), [
    ("so what does variance mean", "variance", ("spread", "variance")),
    ("ok, what does variance mean?", "variance", ("spread", "variance")),
    ("hey what's meant by the standard deviation", "standard deviation",
     ("spread", "standard-deviation")),
    ("what does variance mean exactly?", "variance", ("spread", "variance")),
    ("so what do p-values actually mean", "p-value", ("testing", "chance-alone")),
    ("what's variance mean?", "variance", ("spread", "variance")),  # "what does", said
    ("whats a p-value mean", "p-value", ("testing", "chance-alone")),
])
def test_a_word_before_the_question_or_after_the_verb_leaves_it_the_verb(
        stats, query, term, section) -> None:
    """People type "so", "ok" or "hey" before the question, "exactly" after it, and "what's"
    for "what does": the verb named the glossary's mean and ranked its sections."""
    response = stats.search(query)
    assert terms(response) == [term]
    assert first(response) == section
    assert "averages" not in {hit.lesson for hit in response.results}
    assert not {"mean", "meant", "exactly", "so", "ok", "hey"} & set(response.words)


@pytest.mark.parametrize(("query", "named"), [
    ("so what is the mean?", ["mean"]),
    ("ok mean and median", ["mean", "median"]),
    ("so what does it mean?", ["mean"]),
    ("what's the mean?", ["mean"]),
    ("whats mean", ["mean"]),
])
def test_a_word_before_the_question_leaves_the_noun_the_term(stats, query, named) -> None:
    response = stats.search(query)
    assert terms(response) == named
    assert "mean" in response.words


@pytest.mark.parametrize(("query", "term", "section"), [
    ("variance: what does it mean?", "variance", ("spread", "variance")),
    ("variance - what does it mean", "variance", ("spread", "variance")),
    ("can you explain what variance means", "variance", ("spread", "variance")),
    ("what variance means", "variance", ("spread", "variance")),
    ("tell me what a p-value means exactly", "p-value", ("testing", "chance-alone")),
])
def test_a_question_asked_after_its_subject_ends_with_the_verb(stats, query, term,
                                                               section) -> None:
    """A question after the word it asks about, or one inside another ("can you explain
    what variance means"), ends with the verb: it named the glossary's mean and ranked its
    sections, where only a question begun by its question word had the verb dropped."""
    response = stats.search(query)
    assert terms(response) == [term]
    assert first(response) == section
    assert "averages" not in {hit.lesson for hit in response.results}
    assert not {"mean", "means", "exactly"} & set(response.words)


@pytest.mark.parametrize(("query", "named"), [
    ("variance and mean", ["variance", "mean"]),
    ("the mean means the average", ["mean"]),
    ("mean of a sample", ["mean"]),
    ("what is the sample mean", ["mean"]),
    ("how to compare sample means", ["mean"]),
    ("what are the means", ["mean"]),
    ("mean: what does it mean?", ["mean"]),  # the noun is still asked about
])
def test_the_noun_mean_before_or_at_the_end_is_still_the_term(stats, query, named) -> None:
    response = stats.search(query)
    assert terms(response) == named
    assert {"mean", "means"} & set(response.words)
    if named == ["mean"]:
        assert "averages" in {hit.lesson for hit in response.results[:2]}


WORKSHOP = {
    "01-workshop.md": """\
---
title: The workshop
slug: workshop
---

## Holding the bike

Clamp the seat post in a repair stand, never the frame's thin tubes, and let the wheels
turn freely while you work.

## The bottom bracket

The BB, short for bottom bracket, is the bearing the crank axle turns in. A worn BB creaks
under load and lets the cranks rock from side to side.
""",
}


@pytest.mark.parametrize("query", ["what does BB stand for", "What does BB stand for?",
                                   "so what does the BB stand for"])
def test_stand_for_of_a_question_is_no_word_searched(tmp_path, query) -> None:
    """"what does BB stand for" asks what "mean" asks: "stand" before "for" is a question
    word, so the repair stand of another section is no hit (it was the second)."""
    with closing(Searcher.open(built_course(tmp_path, WORKSHOP))) as opened:
        found = opened.search(query)
    assert [hit.heading for hit in found.results] == ["The bottom bracket"]


def test_stand_is_still_a_word_elsewhere(tmp_path) -> None:
    """Not before "for", or not after a question's do and subject, "stand" is searched."""
    with closing(Searcher.open(built_course(tmp_path, WORKSHOP))) as opened:
        for query in ("repair stand", "what stand holds the bike", "stand"):
            assert opened.search(query).results[0].heading == "Holding the bike", query
