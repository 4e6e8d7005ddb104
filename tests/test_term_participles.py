"""The -ed and -ing forms of a word a glossary names a thing with are no mention of it: a
parameter's alias "weight" is no "weighted", a type no "typing", a function call no
"function called". A term the glossary defines as a verb ("To record …") keeps them, and so
does a one-word term whose participle the lessons set as a term of their own, in a heading,
bold or italics ("Slicing lists")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from course_fixtures import built_course, cards, cli_mentions
from web_fixtures import serving

from lessonsearch.cli import main
from lessonsearch.term_matching import TermMatcher
from lessonsearch.term_verbs import noun_words

GLOSSARY = """parameter
: One of the numbers inside a model that learning changes.
  Also: weight, weights

function
: A named block of code that a program runs by its name.

function call
: One use of a function, which runs its code and gives back what it returns.

type
: The kind of a value, which decides what a program may do with it.

slice
: A run of neighbouring items taken from a list.

commit
: To record the state of the files in the project's history.
"""
LESSONS = {
    "01-models.md": "# Models\n\n## Learning\n\nThe weights of the model move a little at "
                    "each step. A weighted sum mixes the last few steps.\n",
    "02-functions.md": "# Functions\n\n## Calls\n\nA function call returns a value. Write a "
                       "function called average that adds the numbers and divides.\n",
    "03-values.md": "# Values\n\n## Kinds\n\nThe type of a value decides what you may do "
                    "with it. Start typing Ctrl+M to number the lines, as you typed before."
                    "\n\n## Slicing lists\n\nTake a slice with two numbers. A sliced list is "
                    "a new list.\n\n## Saving\n\nWe committed the change at once.\n",
}


@pytest.fixture(autouse=True)
def no_allow_file_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def index(tmp_path: Path) -> Path:
    return built_course(tmp_path, LESSONS, GLOSSARY)


def test_a_participle_of_a_things_name_is_no_mention_of_it(index, capsys):
    # "The weights" (not "weighted"), "A function call" (not "function called"), "The
    # type" (not "typing" or "typed").
    assert cli_mentions(index, "parameter", capsys) == (1, ["models"])
    assert cli_mentions(index, "function call", capsys) == (1, ["functions"])
    assert cli_mentions(index, "type", capsys) == (1, ["values"])
    # "a function called average" is the function's.
    assert cli_mentions(index, "function", capsys) == (1, ["functions"])


def test_a_verbs_term_and_a_participle_the_lessons_mark_still_count(index, capsys):
    assert cli_mentions(index, "commit", capsys) == (1, ["values"])  # "To record …"
    # The heading "Slicing lists", "a slice", "A sliced list".
    assert cli_mentions(index, "slice", capsys) == (3, ["values"])


def test_api_terms_forms_and_the_coverage_report_leave_them_out(index, capsys):
    with serving(index) as client:
        forms = {t["term"]: t["forms"] for t in client.get("/api/terms").get_json()["terms"]}
    assert forms["type"] == forms["function call"] == []
    assert forms["parameter"] == ["weights"]  # not "weighted"
    assert set(forms["slice"]) == {"slicing", "sliced"}
    capsys.readouterr()
    main(["coverage", "--index", str(index), "--format", "json"])
    report = {t["term"]: t for t in json.loads(capsys.readouterr().out)["terms"]}
    assert report["type"]["mentions"] == report["parameter"]["mentions"] == 1


def test_a_search_with_the_participle_shows_no_card_of_the_term(index):
    assert cards(index, "typing ctrl+m", "weighted sum", "the type of a value") == [
        [], [], ["type"]]


def test_a_rebuild_that_defines_the_term_as_a_verb_counts_again(tmp_path, capsys):
    """An edit that makes type a verb's term ("To press keys …") counts "typing" and
    "typed" at the next build, as a fresh build does."""
    as_verb = GLOSSARY.replace("The kind of a value, which decides what a program may do "
                               "with it.", "To press the keys that write text.")
    (tmp_path / "fresh").mkdir()
    built_course(tmp_path, LESSONS, GLOSSARY)
    again = built_course(tmp_path, LESSONS, as_verb)
    assert cli_mentions(again, "type", capsys) == cli_mentions(
        built_course(tmp_path / "fresh", LESSONS, as_verb), "type", capsys) == (3, ["values"])


def test_the_matcher_without_the_words_keeps_every_form():
    """A matcher given no such words reads every form of a term word, as before."""
    variants = {"parameter": ["weight", "weights"], "function call": [], "type": [],
                "collimation": ["collimate"]}
    text = "A weighted die, a function called main, typing. The weights, a function call."
    assert TermMatcher(variants).mentions(text) == {"parameter": 2, "function call": 2,
                                                    "type": 1}
    things = noun_words(variants)
    assert {"weight", "weights", "call", "type"} <= things and "collimate" not in things
    read = TermMatcher(variants, things=things)
    assert read.mentions(text) == {"parameter": 1, "function call": 1}
    assert read.mentions("A collimated mirror; collimating it.") == {"collimation": 2}


def test_a_participle_in_a_check_question_is_not_set_as_a_term(tmp_path, capsys):
    """The check's question is its hit's heading, but a sentence, not a heading the lesson
    sets: "Why does typing fast…?" there marks no "typing", so "typed" and "typing" stay no
    uses of the thing type."""
    check = {"lesson": {"slug": "keys", "title": "Keys", "position": 1},
             "body": {"format": "markdown", "text": "## Speed\n\nThe type of a value decides "
                                                    "what you may do with it. We typed "
                                                    "slowly.\n"},
             "check": {"question": "Why does typing fast cause mistakes?",
                       "options": [{"text": "Haste", "correct": True},
                                   {"text": "Luck", "correct": False}]}}
    index = built_course(tmp_path, {"01-keys.json": json.dumps(check)}, GLOSSARY)
    assert cli_mentions(index, "type", capsys) == (1, ["keys"])
