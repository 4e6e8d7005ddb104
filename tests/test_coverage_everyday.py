"""A glossary term that is also an everyday word ("value", "key"): the entry may say so, and
then only its marked uses count before its definition; unmarked, a term used as a plain
word in many lessons before its definition gets a hint.

The course below uses "value" in its everyday sense in lessons 1, 2 and 4 ("the value of
practice"), in bold in lesson 3 and by its alias in lesson 4, and defines it in lesson 5.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from lessonsearch.cli import main
from lessonsearch.coverage_render import describe
from lessonsearch.glossary_source import read_glossary_text
from lessonsearch.term_matching import TermMatcher

LESSONS = {
    "01-practice.md": "# Practice\n\n## Why practise\n\nThe value of daily practice is easy to "
                      "miss. Practice pays off slowly.\n",
    "02-habits.md": "# Habits\n\n## Small steps\n\nA habit adds value over months, not days. "
                    "Habits are built slowly.\n",
    "03-vectors.md": "# Vectors\n\n## Passing things on\n\nEach token passes a **value** on. "
                     "Tokens are the units.\n",
    "04-review.md": "# Review\n\n## Looking back\n\nThe real value of review is plain. A value "
                    "vector is what a token hands on.\n",
    "05-attention.md": "# Attention\n\n## The value\n\nA **value** is the vector a token "
                       "passes on to the tokens that attend to it.\n",
    "06-later.md": "# Later\n\n## More\n\nEvery value is summed by the attention weights.\n",
}
GLOSSARY = ("value {{#value}}\n: In attention, the vector a token passes on.\n"
            "  Also: value vector\n{everyday}\n"
            "token\n: The unit a model reads.\n")


def build(tmp_path: Path, everyday: str = "", **changed: str) -> Path:
    """The course (a lesson's text replaced by ``changed``, by its name's second part) built
    with the glossary; ``everyday`` is the line that marks the entry, if any."""
    lessons, glossary = tmp_path / "lessons", tmp_path / "glossary"
    lessons.mkdir()
    glossary.mkdir()
    for name, text in LESSONS.items():
        text = changed.get(name[3:-3], text)
        (lessons / name).write_text(text, encoding="utf-8")
    (glossary / "glossary.md").write_text(GLOSSARY.format(everyday=everyday), encoding="utf-8")
    index = tmp_path / "index"
    assert main(["index", "--lessons", str(lessons), "--glossary", str(glossary),
                 "--out", str(index)]) == 0
    return index


def coverage_json(index: Path, capsys: pytest.CaptureFixture) -> dict:
    capsys.readouterr()
    assert main(["coverage", "--index", str(index), "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(autouse=True)
def no_allow_file_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def entry(body: dict, term: str) -> dict | None:
    return next((e for e in body["used_before_definition"] if e["term"] == term), None)


def test_an_unmarked_everyday_word_gets_a_hint(tmp_path, capsys):
    body = coverage_json(build(tmp_path), capsys)
    value = entry(body, "value")
    assert value["used_count"] == 4
    assert [p["lesson"] for p in value["used_at"]] == ["practice", "habits", "vectors", "review"]
    assert value["everyday"] is False
    assert value["plain_count"] == 2  # practice and habits: review has its alias too
    assert value["hint"] is None  # two plain lessons of four are too few


PLAIN = {"vectors": LESSONS["03-vectors.md"].replace("**value**", "value"),
         "review": LESSONS["04-review.md"].replace("A value vector", "A vector")}
"""Lessons 3 and 4 with the plain word only."""


def test_the_hint_fires_when_most_earlier_lessons_use_the_plain_word(tmp_path, capsys):
    body = coverage_json(build(tmp_path, **PLAIN), capsys)
    value = entry(body, "value")
    assert value["plain_count"] == 4
    assert value["hint"].startswith("'value' may be an everyday word here: 4 of the 4 lessons")
    assert "everyday: true" in value["hint"]
    capsys.readouterr()
    assert main(["coverage", "--index", str(tmp_path / "index")]) == 0
    assert "'value' may be an everyday word here" in capsys.readouterr().out


def test_marked_everyday_counts_only_marked_uses(tmp_path, capsys):
    body = coverage_json(build(tmp_path, "  Everyday: yes\n"), capsys)
    value = entry(body, "value")
    assert value["everyday"] is True
    assert [p["lesson"] for p in value["used_at"]] == ["vectors", "review"]  # bold, alias
    assert value["used_count"] == 2
    assert value["plain_count"] == 2
    assert value["hint"] is None
    row = next(t for t in body["terms"] if t["term"] == "value")
    assert row["lesson_count"] == 6  # the row still counts every use, as search does
    assert body["summary"]["used_before_definition"] == 1
    capsys.readouterr()
    assert main(["coverage", "--index", str(tmp_path / "index"),
                 "--fail-on", "used-before-definition"]) == 1
    assert ("used-before-definition: value  # used in vectors, review before attention "
            "defines it (marked uses only; it is only the everyday word in 2 more lessons)"
            in capsys.readouterr().err)


def test_marked_everyday_with_only_plain_uses_is_no_problem(tmp_path, capsys):
    body = coverage_json(build(tmp_path, "  Everyday: yes\n", **PLAIN), capsys)
    assert entry(body, "value") is None
    assert body["summary"]["used_before_definition"] == 0


def test_a_heading_is_a_marked_use(tmp_path, capsys):
    body = coverage_json(build(tmp_path, "  Everyday: yes\n",
                               habits="# Habits\n\n## Value\n\nA habit adds value over "
                                      "months.\n"), capsys)
    assert [p["lesson"] for p in entry(body, "value")["used_at"]] == [
        "habits", "vectors", "review"]


def test_the_glossary_says_a_term_is_an_everyday_word():
    drafts, problems = read_glossary_text(
        "value\n: A vector.\n  Also: values\n  Everyday: yes\n\nkey\n: A vector.\n"
        "  Everyday: no\n", "glossary/g.md")
    assert [(d.term, d.everyday, d.aliases) for d in drafts] == [
        ("value", True, ("values",)), ("key", False, ())]
    assert problems == []
    drafts, problems = read_glossary_text("---\nterm: head\neveryday: true\n---\nA part.\n",
                                          "glossary/head.md")
    assert drafts[0].everyday is True and problems == []
    drafts, problems = read_glossary_text("---\nterm: head\neveryday: often\n---\nA part.\n",
                                          "glossary/head.md")
    assert drafts[0].everyday is False
    assert [(p.line, p.message) for p in problems] == [
        (3, "everyday must be true or false, not 'often'; it was ignored.")]


def test_plain_mentions_are_the_terms_own_word_alone():
    matcher = TermMatcher({"value": ["value vector"], "KV cache": ["key-value cache"],
                           "key": [], "cache": ["memo"], "RAG": []})
    plain: Counter[str] = Counter()
    found = matcher.mentions("The value of it. Values, a value vector, the key idea, a "
                             "key-value cache, a memo in the cache, RAG.", None, plain)
    assert found == {"value": 3, "key": 1, "KV cache": 1, "cache": 2, "RAG": 1}
    assert plain == {"value": 2, "key": 1, "cache": 1}


def test_the_hint_needs_enough_plain_lessons_and_half_of_those_before():
    from lessonsearch.coverage_terms import EVERYDAY_LESSONS, everyday_hint

    assert everyday_hint("value", EVERYDAY_LESSONS, 2 * EVERYDAY_LESSONS) is not None
    assert everyday_hint("value", EVERYDAY_LESSONS - 1, EVERYDAY_LESSONS - 1) is None
    assert everyday_hint("value", EVERYDAY_LESSONS, 2 * EVERYDAY_LESSONS + 1) is None
    for name in ("HEAD", "Git", "scaling law", "C++", "2pc"):  # names, phrases, symbols
        assert everyday_hint(name, 5, 5) is None


def test_describe_says_the_hint():
    e = SimpleNamespace(used_at=(), used_count=0, everyday=False, plain_count=3,
                        defined_at=SimpleNamespace(lesson="five"), hint="a hint")
    assert describe("used-before-definition", e).endswith("defines it; a hint")


def test_marking_the_entry_in_a_rebuild_changes_the_report(tmp_path, capsys):
    """A rebuild reuses the lessons' counted mentions (the terms' names are unchanged); the
    marked uses are among them, so only the glossary's word changes the report."""
    index = build(tmp_path, **PLAIN)
    assert entry(coverage_json(index, capsys), "value")["used_count"] == 4
    (tmp_path / "glossary" / "glossary.md").write_text(
        GLOSSARY.format(everyday="  Everyday: yes\n"), encoding="utf-8")
    assert main(["index", "--lessons", str(tmp_path / "lessons"), "--glossary",
                 str(tmp_path / "glossary"), "--out", str(index)]) == 0
    assert "the glossary changed" in capsys.readouterr().out
    assert entry(coverage_json(index, capsys), "value") is None


def test_a_check_question_is_no_marked_use(tmp_path, capsys):
    """The check's question is the heading of its own hit, but a sentence: "What is the value
    of practice?" uses the everyday word, as the lesson's prose would."""
    lesson = {"lesson": {"slug": "habits", "title": "Habits", "position": 2},
              "body": {"format": "markdown", "text": "## Small steps\n\nHabits grow slowly.\n"},
              "check": {"question": "What is the value of a habit?",
                        "options": [{"text": "Time", "correct": True},
                                    {"text": "Nothing", "correct": False}]}}
    index = build(tmp_path, "  Everyday: yes\n", **PLAIN)
    (tmp_path / "lessons" / "02-habits.md").unlink()
    (tmp_path / "lessons" / "02-habits.json").write_text(json.dumps(lesson), encoding="utf-8")
    assert main(["index", "--lessons", str(tmp_path / "lessons"), "--glossary",
                 str(tmp_path / "glossary"), "--out", str(index)]) == 0
    body = coverage_json(index, capsys)
    assert "habits" in [p["lesson"] for t in body["terms"] if t["term"] == "value"
                        for p in t["lessons"]]
    assert entry(body, "value") is None
