"""A glossary term's word in a form Snowball stems apart from it: "trued" and "truing" (stem
"tru") of the verb true (stem "true"), "queued" of queue, "aliases" of alias, "added" of
add. They are mentions of the term and name it in a search, as "adjusts" does of adjust. And a
one-word search for an -ed or -ing form of a one-word term that names a thing ("braking" of
brake), which no lesson's use of the form mentions, shows that term's card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from course_fixtures import built_course, cards, cli_mentions
from web_fixtures import serving

from lessonsearch.cli import main
from lessonsearch.term_matching import TermMatcher

GLOSSARY = """true
: To adjust the spokes so a wheel spins without a wobble.

brake
: The part that slows the wheel when you squeeze the lever.

cable
: A steel wire inside a housing that pulls a brake or shifts a gear.

set
: A matched group of parts sold together.
"""
LESSONS = {
    "01-wheels.md": "# Wheels\n\n## Truing the wheel\n\nTo true a wheel, tighten the spokes "
                    "until the rim runs straight. A trued wheel rolls without wobble.\n",
    "02-stopping.md": "# Stopping\n\n## Levers\n\nBraking gets smoother once the pads sit "
                      "square. Squeeze the brake gently at first.\n\n## Gear\n\nThe settings "
                      "of the setting tool decide how far it turns.\n",
}


@pytest.fixture(autouse=True)
def no_allow_file_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_course(tmp_path_factory.mktemp("wheels"), LESSONS, GLOSSARY)


def test_the_forms_of_a_verbs_term_stemmed_apart_are_its_mentions(index, capsys):
    # The heading "Truing the wheel", "To true a wheel", "A trued wheel".
    assert cli_mentions(index, "true", capsys) == (3, ["wheels"])
    capsys.readouterr()
    main(["coverage", "--index", str(index), "--format", "json"])
    report = {t["term"]: t for t in json.loads(capsys.readouterr().out)["terms"]}
    assert report["true"]["mentions"] == 3
    # "Braking" is still no mention of the thing brake: "the brake" is its one.
    assert report["brake"]["mentions"] == 1


def test_a_search_for_such_a_form_shows_the_terms_card(index):
    assert cards(index, "trued", "truing", "true") == [["true"], ["true"], ["true"]]
    with serving(index) as client:
        found = client.get("/api/search", query_string={"q": "trued"}).get_json()
    assert [t["term"] for t in found["terms"]] == ["true"]


def test_the_matcher_meets_forms_stemmed_apart_and_not_another_words():
    variants = {"alias": [], "queue": [], "add": [], "menu": [], "tie": [], "car": [],
                "see": [], "cal": []}
    text = ("Shell aliases save typing. Queued jobs wait, queuing up. We added a file and "
            "kept adding. Two menus. Tying the knot. We cared for it; the seed grew; they "
            "called twice.")
    assert TermMatcher(variants).mentions(text) == {"alias": 1, "queue": 2, "add": 2,
                                                   "menu": 1, "tie": 1}
    # Words run together are no word to inflect: "topp" of top-p makes no "top" a mention.
    joined = TermMatcher({"nucleus sampling": ["top-p"], "queue": []})
    assert joined.mentions("Keep the top token; the queued one waits.") == {"queue": 1}


def test_a_one_word_search_for_a_things_participle_shows_its_card(index):
    assert cards(index, "braking", "what is braking", "cabling", "cabled") == [
        ["brake"], ["brake"], ["cable"], ["cable"]]
    with serving(index) as client:
        found = client.get("/api/search", query_string={"q": "braking"}).get_json()
    assert [t["term"] for t in found["terms"]] == ["brake"]


def test_not_for_a_participle_the_course_writes_as_a_noun_nor_beside_other_words(index):
    # The course writes "settings": a setting is a thing of its own, no set. And the words
    # beside a form say what it is: "braking gently" is no card, "braking" alone is.
    assert cards(index, "setting", "braking gently", "braking") == [[], [], ["brake"]]


def test_a_term_named_as_written_comes_first(tmp_path):
    glossary = GLOSSARY + "\nbraking\n: Slowing the bike with both levers at once.\n"
    index = built_course(tmp_path, LESSONS, glossary)
    assert cards(index, "braking") == [["braking", "brake"]]
