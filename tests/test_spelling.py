"""Corrections come from the course's own words: nearest first, then most used."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lessonsearch.nltk_parts import edit_distance
from lessonsearch.spelling import (
    ODD_COST,
    Speller,
    made_from_verb,
    slips,
    third_person_of,
    verb_forms_written,
)


def test_one_edit_of_every_kind_is_found():
    speller = Speller(["temperature", "attention", "tokenizer"])
    assert speller.candidates("temprature", 2) == [(1, "temperature")]  # a letter dropped
    assert speller.candidates("atention", 1) == [(1, "attention")]
    assert speller.candidates("tokenizre", 1) == [(1, "tokenizer")]  # two letters swapped
    assert speller.candidates("tokenizar", 1) == [(1, "tokenizer")]  # a letter changed


def test_two_edits_of_every_kind_are_found():
    speller = Speller(["temperature", "hallucination", "distribution", "vocabulary"])
    assert speller.candidates("tempreture", 2) == [(2, "temperature")]  # dropped, swapped
    assert speller.candidates("halucinaton", 2) == [(2, "hallucination")]  # two dropped
    assert speller.candidates("distrubition", 2) == [(2, "distribution")]  # two changed
    assert speller.candidates("vocabluray", 2) == [(2, "vocabulary")]  # two pairs swapped
    assert speller.candidates("vocabbularyy", 2) == [(2, "vocabulary")]  # two added
    assert speller.candidates("tempreture", 1) == []


# A small alphabet, so that many words are within two edits of each other.
SPELLINGS = st.text(alphabet="abcdé", min_size=1, max_size=9)


@given(st.lists(SPELLINGS, max_size=40), SPELLINGS)
def test_two_edits_find_every_word_two_edits_away_and_no_other(words, word):
    """The keys a misspelt word makes for two edits miss no word the table files."""
    speller = Speller(words)
    folded = word.replace("é", "e")
    expected = sorted(
        (d, known) for known in set(words) if known != word
        and known.replace("é", "e")[:1] == folded[:1]
        and (d := edit_distance(known.replace("é", "e"), folded, transpositions=True)) <= 2)
    assert speller.candidates(word, 2) == expected


def test_nearest_first_and_nothing_past_the_distance():
    speller = Speller(["hallucination", "hallucinations", "halt"])
    assert speller.candidates("halucinations", 2)[0] == (1, "hallucinations")
    assert speller.candidates("halucinations", 1) == [(1, "hallucinations")]
    assert speller.candidates("xyz", 2) == []


def test_a_different_first_letter_is_not_a_correction():
    assert Speller(["cache"]).candidates("kache", 1) == []


def test_accents_are_no_edit_on_either_side():
    speller = Speller(["embedding", "embeddings", "naïve", "café"])
    assert speller.candidates("émbedding", 0) == [(0, "embedding")]
    assert speller.candidates("naive", 0) == [(0, "naïve")]
    assert speller.candidates("cafè", 0) == [(0, "café")]
    assert speller.candidates("émbedings", 1) == [(1, "embeddings")]  # an accent, a letter
    assert speller.candidates("embedding", 0) == []  # itself is no candidate


def test_the_words_a_prefix_begins():
    speller = Speller(["softmax", "soft", "software", "sampling", "café"])
    assert sorted(speller.starting("soft")) == ["softmax", "software"]  # not itself
    assert speller.starting("cafe") == ["café"]  # accents aside
    assert speller.starting("zz") == []


def test_a_verb_s_forms_are_spelt_as_english_spells_them():
    """A y after a consonant turns to i before -s and -ed, -ie to y before -ing: a course
    writing "dries" and "dried" writes dry as a verb, so a dryer is made from it; one
    writing "lie" and "lying" writes lie as one; "queries" may be query's -s form."""
    assert made_from_verb("dryer", Counter({"dry": 3, "dries": 2, "dried": 1})) == (
        "dry", ("dry", "dries", "dried"))
    assert verb_forms_written("lie", {"lie", "lying"}) == ("lie", "lying")
    assert "query" in third_person_of("queries")


@pytest.mark.parametrize(("typed", "known"), [
    ("softmaks", "softmax"),  # ks for x: a sound spelt another way, one slip
    ("egsample", "example"),
    ("sofmaxx", "softmax"),  # a letter dropped, one doubled
    ("nettwerk", "network"),  # doubled, a vowel for a vowel
    ("sentanse", "sentence"),  # a vowel for a vowel, s for a soft c
    ("lenguaje", "language"),  # j for a soft g
    ("atension", "attention"),  # a t dropped, s for the t of -tion
    ("anwsres", "answers"),  # two pairs swapped
    ("wheigts", "weights"),  # a letter typed early, then left out
    ("passeges", "passage"),  # a vowel for a vowel, an s beside the e whose key it touches
    ("tempreture", "temperature"),
    ("benshmarc", "benchmark"),  # sh for ch, c for k
])
def test_slips_people_make_count_one_each(typed, known):
    assert edit_distance(typed, known, transpositions=True) == 2
    assert slips(typed, known) <= 2


@pytest.mark.parametrize(("typed", "known"), [
    ("complex", "complete"),  # an x for a t: keys apart, no sound alike
    ("package", "passage"),  # a k for an s
    ("trapped", "trained"),  # two p for i and n
    ("portions", "positions"),
    ("renaming", "reading"),  # an n added among letters far from it, an m for a d
    ("regarding", "reading"),  # a g added among letters far from it
    ("conservation", "conversation"),  # two letters that trade places far apart
])
def test_a_change_no_slip_explains_costs_more_than_two(typed, known):
    assert edit_distance(typed, known, transpositions=True) == 2
    assert slips(typed, known) > 2


def test_slips_cost_one_for_each_kind_and_more_for_any_other_change():
    assert slips("network", "network") == 0
    assert slips("netwprk", "network") == 1  # p beside o
    assert slips("netwxrk", "network") == ODD_COST  # x far from o
    assert slips("nerwork", "network") == 1  # r beside t
    assert slips("vektor", "vector") == 1  # k for c
    assert slips("networrk", "network") == 1  # r doubled
    assert slips("netwrk", "network") == 1  # o dropped
    assert slips("newtork", "network") == 1  # t and w swapped
    assert slips("netwoqrk", "network") == ODD_COST  # q added among keys far from it


@pytest.mark.parametrize("full", [True, False])
def test_a_check_questions_words_are_counted_once(tmp_path, full: bool) -> None:
    """A check's heading is its question, which its text writes too: the course's word counts,
    which rank corrections, counted each word of it twice. Counted by the build's workers
    (a full build) and from its documents (an incremental one) alike."""
    import json

    from lessonsearch.build import build_index
    from lessonsearch.index_store import current_version
    from lessonsearch.whoosh_index import read_spelling

    lessons = tmp_path / "lessons"
    lessons.mkdir()
    lesson = {"lesson": {"slug": "bar", "title": "Crossing the bar", "position": 1},
              "body": {"format": "markdown", "text": "## Timing\n\nCross when the tide rests.\n"},
              "check": {"question": "When is slack water?",
                        "options": [{"text": "When the current rests", "correct": True},
                                    {"text": "At noon", "correct": False}]}}
    (lessons / "01-bar.json").write_text(json.dumps(lesson), encoding="utf-8")
    (lessons / "02-other.md").write_text("# Other\n\n## Knots\n\nTie a bowline.\n")
    build_index(lessons, None, tmp_path / "index")
    if not full:  # the bar lesson taken from the build before, its counts from its documents
        (lessons / "02-other.md").write_text("# Other\n\n## Knots\n\nTie a reef knot.\n")
        build_index(lessons, None, tmp_path / "index")
    counts = read_spelling(current_version(tmp_path / "index"))
    assert (counts["slack"], counts["water"]) == (1, 1)
