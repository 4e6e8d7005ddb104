"""A reader who spells a word of the course by ear: "sourdoe" for sourdough, three edits
away, or "fotograph" for photograph, its first letter another. The course's word that sounds
the same is suggested and searched, but never in the place of a word the course writes, of a
word one slip away, or for a short word.

The course is this file's own: a home baker's notes on two breads, a croissant and taking a
picture of the loaf."""

from __future__ import annotations

from pathlib import Path

import pytest
from course_fixtures import built_course, open_course
from web_fixtures import serving

from lessonsearch.spelling import sounds

LESSONS = {
    "01-breads.md": """---
title: Two breads and a pastry
---

## Baguette

A baguette is a long, thin loaf with a crisp crust. Shape each baguette gently and score it
five times before the bake.

## Sourdough starter

A sourdough starter is flour and water kept alive by wild yeast. Feed the sourdough starter
every morning; a lively sourdough doubles in four hours, and a sourdough loaf keeps for days.
Once the starter has risen and fallen again, it is ready.

## Croissant

A croissant is a rolled triangle of laminated dough. The butter is kneaded cold and folded
in; the dough is kneaded only as long as needed, then kneaded again after a rest.

## Photograph the crumb

Cut the loaf when it is cold and photograph the crumb in daylight. The recipe is written on
the back of the card, shared with friends; the crumb varies with the flour.
""",
}


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_course(tmp_path_factory.mktemp("breads"), LESSONS)


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("breads-open"), LESSONS) as opened:
        yield opened


def test_a_word_spelt_by_ear_is_suggested_and_searched(index_dir: Path) -> None:
    """"sourdoe" is three edits from sourdough: no slip explains it, its sound does."""
    with serving(index_dir) as client:
        body = client.get("/api/search", query_string={"q": "sourdoe"}).get_json()
    assert (body["suggestion"], body["suggestion_searched"]) == ("sourdough", True)
    assert body["total"] == 1
    assert body["results"][0]["heading"] == "Sourdough starter"


@pytest.mark.parametrize(("typed", "meant"), [
    ("fotograph", "photograph"),  # ph for f: another first letter
    ("kroissant", "croissant"),  # k for a hard c
    ("bagett", "baguette"),  # a silent u and e, a single t: two edits in six letters
    ("sourdo", "sourdough"),  # -ough as a long o
])
def test_a_misspelling_that_sounds_as_the_course_s_word_finds_it(searcher, typed: str,
                                                                  meant: str) -> None:
    response = searcher.search(typed)
    assert (response.suggestion, response.suggestion_searched) == (meant, True)
    assert response.total == 1


def test_a_word_the_course_writes_is_never_respelt_by_sound(searcher) -> None:
    """"needed" sounds as "kneaded", which the course writes three times as often; the
    reader's word is the course's own, and is searched as typed. A misspelling that only
    sounds as the two is no guess: neither is written four times as often as the other."""
    assert sounds("needed") == sounds("kneaded")
    needed = searcher.search("needed")
    assert needed.suggestion is None
    assert [hit.heading for hit in needed.results] == ["Croissant"]
    assert searcher.search("kneeded").suggestion == "kneaded"  # one letter changed
    assert searcher.search("kniededd").suggestion is None  # by sound, either
    assert searcher.search("photograph").suggestion is None
    assert searcher.search("fotograf").suggestion == "photograph"  # its misspelling is


def test_a_word_one_slip_away_is_the_correction_before_one_that_sounds_alike(
        searcher) -> None:
    """"riten" sounds as "written" but is one letter from "risen": the slip wins."""
    assert sounds("riten") == sounds("written")
    assert searcher.search("riten").suggestion == "risen"
    assert searcher.search("ritten").suggestion == "written"  # a w dropped, by sound too
    assert searcher.search("writen").suggestion == "written"
    assert searcher.search("sourdoe").suggestion == "sourdough"


def test_a_short_word_or_a_short_sound_is_not_guessed_by_sound(searcher) -> None:
    """A word of four letters or fewer, or one whose sound is (``MIN_SOUNDS``), reaches
    too many other words: "doe" is not dough, nor "yeeste" yeast (two edits in six
    letters), though each sounds the same."""
    assert sounds("doe") == sounds("dough")
    assert sounds("yeeste") == sounds("yeast")
    assert searcher.search("doe").suggestion is None
    assert searcher.search("yeeste").suggestion is None
    assert searcher.search("photograff").suggestion == "photograph"  # a long one is


def test_a_real_word_near_the_sound_of_the_course_s_is_left_alone(searcher) -> None:
    """A ch is not an sh ("chaired", "shared"), nor a run of vowels its first letter
    ("various", "varies"): both are other words, with sounds of their own, where
    "vareez" is the course's word spelt by ear."""
    assert searcher.search("chaired").suggestion is None
    assert searcher.search("various").suggestion is None
    assert searcher.search("vareez").suggestion == "varies"
