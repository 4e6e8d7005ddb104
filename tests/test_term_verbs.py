"""A term word in -ing is mentioned by its verb, bare or with -s, only where the course writes
that verb as a verb: "the model overfits" uses overfitting, but a coffee course's "a cup"
is no use of cupping, which names the tasters' method."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lessonsearch.cli import main
from lessonsearch.searcher import Searcher
from lessonsearch.term_matching import TermMatcher
from lessonsearch.term_verbs import count_forms, forms_of, ing_words, nouns

GLOSSARY = ("cupping\n: Tasting coffees side by side from bowls, by a set method.\n\n"
            "tamping\n: Pressing the grounds into an even bed before brewing.\n\n"
            "overfitting\n: Learning the training examples rather than the pattern.\n")
LESSONS = {
    "01-serving.md": "# Serving\n\n## The cup\n\nPour a cup for each guest. The cups should be "
                     "warm; two cups of water heat them.\n",
    "02-espresso.md": "# Espresso\n\n## The bed\n\nTamp the grounds level. You tamp once, "
                      "firmly: a bed tamped unevenly lets water through.\n",
    "03-models.md": "# Models\n\n## Too close a fit\n\nA model that overfits scores well on "
                    "its examples only. Models overfitted so need fewer steps; we try not to "
                    "overfit.\n",
}


def build(tmp_path: Path, **changed: str) -> Path:
    """The course, a lesson's text replaced by ``changed`` (by its name's second part),
    built (again) into the same index."""
    lessons, glossary = tmp_path / "lessons", tmp_path / "glossary"
    lessons.mkdir(exist_ok=True)
    glossary.mkdir(exist_ok=True)
    for name, text in LESSONS.items():
        (lessons / name).write_text(changed.get(name[3:-3], text), encoding="utf-8")
    (glossary / "glossary.md").write_text(GLOSSARY, encoding="utf-8")
    index = tmp_path / "index"
    assert main(["index", "--lessons", str(lessons), "--glossary", str(glossary),
                 "--out", str(index)]) == 0
    return index


def mentions(index: Path, term: str, capsys: pytest.CaptureFixture) -> tuple[int, list[str]]:
    capsys.readouterr()
    assert main(["term", term, "--index", str(index), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    return found["mention_count"], [m["lesson"] for m in found["mentions"]]


@pytest.fixture(autouse=True)
def no_allow_file_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_a_noun_is_no_mention_of_the_term_its_ing_form_names(tmp_path, capsys):
    index = build(tmp_path)
    assert mentions(index, "cupping", capsys) == (0, [])
    capsys.readouterr()
    assert main(["coverage", "--index", str(index), "--format", "json"]) == 0
    unused = [u["term"] for u in json.loads(capsys.readouterr().out)["unused"]]
    assert "cupping" in unused


def test_a_verb_the_course_writes_as_one_is_a_mention(tmp_path, capsys):
    index = build(tmp_path)
    # "Tamp" and "tamp", not "tamped": a participle is no use of the act.
    assert mentions(index, "tamping", capsys) == (2, ["espresso"])
    # "overfits" and "overfit", not "overfitted".
    assert mentions(index, "overfitting", capsys) == (2, ["models"])


def cards(index: Path, *queries: str) -> list[list[str]]:
    """The terms whose cards each query's results show."""
    searcher = Searcher.open(index)
    try:
        return [[card.term for card in searcher.search(query).terms] for query in queries]
    finally:
        searcher.close()


def test_a_search_for_the_noun_shows_no_card_of_the_term(tmp_path, capsys):
    """A search names a term as a lesson mentions it: "cups" is no cupping here, and its
    results show no card for it; "tamp" is tamping."""
    index = build(tmp_path)
    assert cards(index, "cups", "tamp") == [[], ["tamping"]]
    assert main(["term", "cup", "--index", str(index)]) == 1
    assert "Did you mean: cupping?" in capsys.readouterr().err


def test_a_rebuild_that_makes_a_word_a_verb_counts_the_lessons_it_did_not_change(
        tmp_path, capsys):
    """The first course writes "tamp" once and never as a verb's other forms: no mention.
    An edit to another lesson writes the verb ("will tamp", "tamped"), and the unchanged
    lesson's "Tamp" becomes one, as a build from nothing finds; the edit undone, it is none
    again."""
    first = {"espresso": "# Espresso\n\n## The bed\n\nTamp it level.\n",
             "serving": "# Serving\n\n## Cups\n\nWarm the cups first.\n"}
    (tmp_path / "lessons").mkdir()
    for number in range(4, 10):  # enough lessons that a rebuild patches the glossary file
        (tmp_path / "lessons" / f"{number:02}-more.md").write_text(
            f"# More {number}\n\n## Beans\n\nBeans number {number} are roasted.\n")
    index = build(tmp_path, **first)
    assert mentions(index, "tamping", capsys) == (0, [])
    assert cards(index, "tamp") == [[]]
    verb = {**first, "serving": "# Serving\n\n## Cups\n\nBaristas will tamp again once a "
                                "bed is tamped badly. Warm the cups first.\n"}
    index = build(tmp_path, **verb)
    assert mentions(index, "tamping", capsys) == (2, ["serving", "espresso"])
    assert cards(index, "tamp") == [["tamping"]]
    (tmp_path / "fresh").mkdir()
    assert mentions(build(tmp_path / "fresh", **verb), "tamping", capsys) == (
        2, ["serving", "espresso"])
    index = build(tmp_path, **first)
    assert mentions(index, "tamping", capsys) == (0, [])
    assert cards(index, "tamp") == [[]]


def test_the_evidence_is_the_verb_written_as_a_verb():
    ing = ing_words({"cupping": [], "quoting": ["quotes"], "tamping": [], "token": []})
    assert set(ing) == {"cupping", "quoting", "tamping"}
    forms = forms_of(ing)
    texts = ["Put the pattern in quotes. The quote marks stop the shell.",
             "Pour a cup. Then tamp the bed: baristas tamp it and have tamped it."]
    counted = count_forms(forms, texts)
    assert counted[0]["tamp"] == 2 and counted[1][("baristas", "tamp")] == 1
    assert nouns(ing, [counted]) == {"cupping", "quoting"}


def test_the_matcher_takes_a_nouns_bare_word_for_no_mention():
    text = "A cup, two cups; the model overfits."
    assert TermMatcher({"cupping": [], "overfitting": []}).mentions(text) == {
        "cupping": 2, "overfitting": 1}
    assert TermMatcher({"cupping": [], "overfitting": []}, nouns={"cupping"}).mentions(text) == {
        "overfitting": 1}
