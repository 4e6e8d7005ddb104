"""A term word in -ing is mentioned by its verb, bare or with -s, only where the course writes
that verb as a verb: "the model overfits" uses overfitting, but a coffee course's "a cup"
is no use of cupping, which names the tasters' method."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from course_fixtures import cards, cli_mentions

from lessonsearch.cli import main
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


@pytest.fixture(autouse=True)
def no_allow_file_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_a_noun_is_no_mention_of_the_term_its_ing_form_names(tmp_path, capsys):
    index = build(tmp_path)
    assert cli_mentions(index, "cupping", capsys) == (0, [])
    capsys.readouterr()
    assert main(["coverage", "--index", str(index), "--format", "json"]) == 0
    unused = [u["term"] for u in json.loads(capsys.readouterr().out)["unused"]]
    assert "cupping" in unused


def test_a_verb_the_course_writes_as_one_is_a_mention(tmp_path, capsys):
    index = build(tmp_path)
    # "Tamp" and "tamp", not "tamped": a participle is no use of the act.
    assert cli_mentions(index, "tamping", capsys) == (2, ["espresso"])
    # "overfits" and "overfit", not "overfitted".
    assert cli_mentions(index, "overfitting", capsys) == (2, ["models"])


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
    assert cli_mentions(index, "tamping", capsys) == (0, [])
    assert cards(index, "tamp") == [[]]
    verb = {**first, "serving": "# Serving\n\n## Cups\n\nBaristas will tamp again once a "
                                "bed is tamped badly. Warm the cups first.\n"}
    index = build(tmp_path, **verb)
    assert cli_mentions(index, "tamping", capsys) == (2, ["serving", "espresso"])
    assert cards(index, "tamp") == [["tamping"]]
    (tmp_path / "fresh").mkdir()
    assert cli_mentions(build(tmp_path / "fresh", **verb), "tamping", capsys) == (
        2, ["serving", "espresso"])
    index = build(tmp_path, **first)
    assert cli_mentions(index, "tamping", capsys) == (0, [])
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
    text = "Cup it twice. Tasters cup; the model overfits."
    assert TermMatcher({"cupping": [], "overfitting": []}).mentions(text) == {
        "cupping": 2, "overfitting": 1}
    assert TermMatcher({"cupping": [], "overfitting": []}, nouns={"cupping"}).mentions(text) == {
        "overfitting": 1}


@pytest.mark.parametrize("nouns", [set(), {"cupping"}])
def test_the_word_before_a_use_reads_it_whatever_the_course_writes(nouns):
    """After an article, a determiner, a number, a possessive or "of" the bare word is a
    noun; after "to", a modal or a pronoun the verb; only elsewhere does the course's
    reading (``nouns``) decide. A comma or a paragraph's break between leaves it to the
    course, as the evidence is counted."""
    matcher = TermMatcher({"cupping": [], "overfitting": []}, nouns)
    nouns_only = ("A cup, the cups, two cups of water, 3 cups, the taster's cup, "
                  "a cup of the cups, this model's overfits")
    assert matcher.mentions(nouns_only) == {}
    verbs = "We cup, you should cup, learn to cup, let's cup; it overfits, they overfit."
    assert matcher.mentions(verbs) == {"cupping": 4, "overfitting": 2}
    spans = [(term, verbs[start:end]) for term, start, end in matcher.spans(verbs)]
    assert spans[:2] == [("cupping", "cup"), ("cupping", "cup")]
    course = {} if nouns else {"cupping": 3}
    # "a good cup" is a noun phrase (``test_a_noun_phrase_is_no_mention_...``)
    assert matcher.mentions("Tasters cup. Cup the samples.\n\ncup again, a good cup") == course
    course = {} if nouns else {"cupping": 2}
    assert matcher.mentions("We, cup them; a\n\ncup") == course
    mixed = "a cup and a; cup, we cup, we, cup, a\ncup"
    assert matcher.mentions(mixed) == ({"cupping": 1} if nouns else {"cupping": 3})
    assert [mixed[start:start + 6] for _, start, _ in matcher.spans(mixed)] == (
        ["cup, w"] if nouns else ["cup, w", "cup, w", "cup, a"])


SERVING = ("# Serving\n\n## The cup\n\nPour a cup for each guest. The cups should be warm; "
           "two cups of water heat them. A taster's cup is smaller.\n")
TASTING = ("# Tasting day\n\n## How we cup\n\nWe cup every lot the day after roasting, and you "
           "should cup blind. To cup well, tasters cupped forty samples.\n\nCup each sample "
           "twice.\n")


def build_lessons(folder: Path, lessons: dict[str, str]) -> Path:
    """``lessons`` (file name → text) and the glossary, built (again) into one index: a
    lesson no longer named is removed."""
    (folder / "lessons").mkdir(parents=True, exist_ok=True)
    (folder / "glossary").mkdir(exist_ok=True)
    for path in (folder / "lessons").iterdir():
        if path.name not in lessons:
            path.unlink()
    for name, text in lessons.items():
        (folder / "lessons" / name).write_text(text, encoding="utf-8")
    (folder / "glossary" / "glossary.md").write_text(GLOSSARY, encoding="utf-8")
    index = folder / "index"
    assert main(["index", "--lessons", str(folder / "lessons"), "--glossary",
                 str(folder / "glossary"), "--out", str(index)]) == 0
    return index


def test_a_lesson_that_writes_the_verb_leaves_the_nouns_no_mention(tmp_path, capsys):
    """A lesson writing "we cup", "should cup", "to cup" makes the course write cup as a
    verb, and its uses are mentions of cupping, with "Cup each sample" where nothing before
    it tells; another lesson's "a cup", "the cups", "two cups of water" and "a taster's
    cup" stay none, in a rebuild as in a build from nothing, and when the lesson goes."""
    serving = {"01-serving.md": SERVING}
    assert cli_mentions(build_lessons(tmp_path, serving), "cupping", capsys) == (0, [])
    both = {**serving, "02-tasting.md": TASTING}
    # "How we cup", "We cup", "should cup", "To cup", "Cup each": not "cupped".
    assert cli_mentions(build_lessons(tmp_path, both), "cupping", capsys) == (5, ["tasting"])
    assert cli_mentions(build_lessons(tmp_path / "fresh", both), "cupping", capsys) == (
        5, ["tasting"])
    assert cli_mentions(build_lessons(tmp_path, serving), "cupping", capsys) == (0, [])


def test_the_verb_after_to_is_a_mention_where_the_course_writes_the_noun(tmp_path, capsys):
    """The course writes cup as a noun (never "cupped" or "cupping"), but "learn to cup" is
    the verb all the same."""
    lessons = {"01-serving.md": SERVING,
               "02-training.md": "# Training\n\n## New staff\n\nBaristas learn to cup in "
                                 "their first week. A cup is poured for each.\n"}
    assert cli_mentions(build_lessons(tmp_path, lessons), "cupping", capsys) == (1, ["training"])


@pytest.mark.parametrize("nouns", [set(), {"cupping"}])
def test_a_noun_phrase_is_no_mention_whatever_the_course_writes(nouns):
    """An article, a determiner, a possessive or "of", then a word or two that modify, then
    the bare word: a noun phrase, and no mention of cupping even where the course writes
    cup as a verb; with a hyphen in a compound too. The -s form is a plural noun after a
    plural opener ("two small cups")."""
    matcher = TermMatcher({"cupping": [], "overfitting": []}, nouns)
    phrases = ("A good cup starts the day. Rinse the filter cup, then pour your morning cup; "
               "the first cup of the day counts. A very good cup, a single-origin cup, two "
               "small cups, a 200 ml cup and the same cup.")
    assert matcher.mentions(phrases) == {}


def test_a_verb_after_a_noun_phrase_still_reads_as_the_course_does():
    """A noun phrase that is the verb's subject or comes before "and" leaves the verb to the
    course: a plural agrees with the bare verb ("the tasters cup"), an object follows the
    verb ("the head barista cups every lot"), an adverb or a conjunction stands between
    ("the sample and cup it", "the team also cups"), and the -s form after "the" or "a" may
    be the verb ("the model overfits")."""
    verbs = ("The tasters cup the beans. Our tasters always cup blind. The head barista cups "
             "every lot. Grind the sample and cup it. The team also cups. Most of us cup. "
             "A model overfits; the model overfits.")
    assert TermMatcher({"cupping": [], "overfitting": []}).mentions(verbs) == {
        "cupping": 6, "overfitting": 2}
    assert TermMatcher({"cupping": [], "overfitting": []}, nouns={"cupping"}).mentions(
        verbs) == {"overfitting": 2}


BREWING = ("# Brewing\n\n## The morning cup\n\nA good cup starts with fresh beans. Rinse the "
           "filter cup, then pour your morning cup slowly: the first cup of the day is the one "
           "guests remember. Two small cups suit an espresso. On Mondays the head barista cups "
           "every new lot.\n")


def test_a_course_that_writes_the_verb_counts_no_noun_phrase(tmp_path, capsys):
    """The course writes cup as a verb ("We cup every lot"), yet another lesson's "a good
    cup", "the filter cup", "your morning cup", "the first cup" and "two small cups" (and its
    heading's "The morning cup") are no mention of cupping; its "the head barista cups every
    lot" is one."""
    lessons = {"01-serving.md": SERVING, "02-tasting.md": TASTING, "03-brewing.md": BREWING}
    index = build_lessons(tmp_path, lessons)
    assert cli_mentions(index, "cupping", capsys) == (6, ["tasting", "brewing"])
    capsys.readouterr()
    assert main(["term", "cupping", "--index", str(index), "--json"]) == 0
    sections = {m["lesson"]: m["count"] for m in json.loads(capsys.readouterr().out)["mentions"]}
    assert sections == {"tasting": 5, "brewing": 1}
