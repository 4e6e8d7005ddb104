"""The verb of a term word in -ing is no mention of a term the glossary marks as an everyday
word: an astronomy course's "seeing" names the air's steadiness, and "you see" or "rods see"
is the everyday verb. A coffee course's cupping, not marked so, still counts "we cup"."""

from __future__ import annotations

from pathlib import Path

import pytest
from course_fixtures import built_course, cards, cli_mentions

from lessonsearch.term_matching import TermMatcher

SKY_GLOSSARY = ("seeing\n: How still the air is, which sets the finest detail a telescope "
                "shows at high power.\n  Everyday: yes\n\n"
                "eyepiece\n: The small lens set you look through.\n")
SKY_LESSONS = {
    "01-eyes.md": "# Eyes at night\n\n## Rods\n\nRods see almost no colour, so a nebula "
                  "looks grey. What you see at first is only the brightest stars.\n",
    "02-targets.md": "# Targets\n\n## Galaxies\n\nTo see a faint galaxy, look beside it. We "
                     "see more once our eyes adapt, and an eyepiece of low power helps.\n",
    "03-air.md": "# The air\n\n## Steady nights\n\nSeeing is how still the air is. Good "
                 "seeing lets a planet's bands stay sharp; bad seeing makes them boil.\n",
}
COFFEE_GLOSSARY = ("cupping\n: Tasting coffees side by side from bowls, by a set method.\n\n"
                   "crema\n: The foam on top of an espresso.\n")
COFFEE_LESSONS = {
    "01-tasting.md": "# Tasting\n\n## The table\n\nWe cup the coffee at the same table each "
                     "morning. Tasters cup every lot twice.\n",
    "02-method.md": "# Method\n\n## Steps\n\nCupping starts with dry fragrance. You should "
                    "cup before the crema settles.\n",
}


def build(root: Path, lessons: dict[str, str], glossary: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    return built_course(root, lessons, glossary)


@pytest.fixture(autouse=True)
def no_allow_file_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_an_everyday_terms_verb_is_no_mention_of_it(tmp_path, capsys):
    index = build(tmp_path, SKY_LESSONS, SKY_GLOSSARY)
    # "Seeing" and "seeing" twice in the air lesson; no "see" of the other two lessons.
    assert cli_mentions(index, "seeing", capsys) == (3, ["air"])


def test_a_search_with_the_everyday_verb_shows_no_card_of_the_term(tmp_path):
    index = build(tmp_path, SKY_LESSONS, SKY_GLOSSARY)
    assert cards(index, "how do i see faint galaxies", "what can I see with an eyepiece",
                 "what is seeing") == [[], ["eyepiece"], ["seeing"]]


def test_without_the_everyday_mark_the_verb_is_the_act(tmp_path, capsys):
    """The mark is what tells: the same course with an unmarked entry counts "we see"."""
    index = build(tmp_path, SKY_LESSONS, SKY_GLOSSARY.replace("  Everyday: yes\n", ""))
    count, lessons = cli_mentions(index, "seeing", capsys)
    assert count > 3 and "targets" in lessons


def test_a_rebuild_that_marks_or_unmarks_the_term_counts_again(tmp_path, capsys):
    marked = cli_mentions(build(tmp_path, SKY_LESSONS, SKY_GLOSSARY), "seeing", capsys)
    unmarked = SKY_GLOSSARY.replace("  Everyday: yes\n", "")
    index = build(tmp_path, SKY_LESSONS, unmarked)
    assert cli_mentions(index, "seeing", capsys) == cli_mentions(
        build(tmp_path / "fresh", SKY_LESSONS, unmarked), "seeing", capsys) != marked
    assert cli_mentions(build(tmp_path, SKY_LESSONS, SKY_GLOSSARY), "seeing", capsys) == marked


def test_a_verb_that_names_the_act_still_counts(tmp_path, capsys):
    index = build(tmp_path, COFFEE_LESSONS, COFFEE_GLOSSARY)
    # "We cup", "Tasters cup"; "Cupping", "should cup".
    assert cli_mentions(index, "cupping", capsys) == (4, ["tasting", "method"])
    assert cards(index, "how do we cup coffee") == [["cupping"]]


def test_the_matcher_reads_no_everyday_verb_whatever_the_word_before():
    text = "We see it. You should see it; see it. Seeing is poor."
    assert TermMatcher({"seeing": []}, everyday={"seeing"}).mentions(text) == {"seeing": 1}
    assert TermMatcher({"seeing": []}).mentions(text) == {"seeing": 4}
