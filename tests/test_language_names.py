"""Names that end in ``++`` or ``#`` (C++, C#) as a reader meets them: a search, a term
look-up and a term's mentions, through the CLI, the JSON API and the search page.

C, C++ and C# are three languages: a section about C++ is not about C, and a glossary that
has C but no C++ has no answer for "C++"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from web_fixtures import serving

from lessonsearch.build import build_index

LESSON = """---
title: Languages
slug: a
---

## Plus

Templates make C++ generic; its compiler g++ reads them.

## Sharp

Properties make C# concise.

## Loops

A counter goes up with `count++` in a loop, and a page links to `guide.html#setup`.

## Standards

Lambdas came with C++11, and structured bindings with C++17.

## Editors

Notepad++ opens large files quickly.
"""

C = "C\n: A small systems language with pointers.\n"
PLUS = "C++\n: A language of templates and classes.\n"
SHARP = "C#\n: A managed language for the .NET runtime.\n"


def course_index(folder: Path, *entries: str) -> Path:
    """A one-lesson course whose glossary holds ``entries``, built into ``folder/index``."""
    (folder / "lessons").mkdir(parents=True)
    (folder / "glossary").mkdir()
    (folder / "lessons" / "a.md").write_text(LESSON, encoding="utf-8")
    (folder / "glossary" / "glossary.md").write_text("\n".join(entries), encoding="utf-8")
    build_index(folder / "lessons", folder / "glossary", folder / "index")
    return folder / "index"


@pytest.fixture(scope="module")
def all_three(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return course_index(tmp_path_factory.mktemp("all-three"), C, PLUS, SHARP)


@pytest.fixture(scope="module")
def no_plus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return course_index(tmp_path_factory.mktemp("no-plus"), C, SHARP)


def run(*args: str, index: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("LESSONSEARCH_INDEX", None)
    return subprocess.run(
        [sys.executable, "-m", "lessonsearch.cli", *args, "--index", str(index)],
        env=env, capture_output=True, text=True, encoding="utf-8", timeout=120,
    )


def search(query: str, index: Path) -> dict:
    result = run("search", query, "--json", index=index)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize(("query", "headings"), [
    ("C#", ["Sharp"]),
    ("c#", ["Sharp"]),
    ('"make C++ generic"', ["Plus"]),
    ("C", []),
    ("g++", ["Plus"]),
    ("count++", ["Loops"]),
    ("count", ["Loops"]),
    ("guide html setup", ["Loops"]),
    ("C++11", ["Standards"]),
    ("c++17", ["Standards"]),
    ('"with C++17"', ["Standards"]),
    ("C++ lambdas", ["Standards"]),
    ("Notepad++", ["Editors"]),
    ("notepad++", ["Editors"]),  # typed in lower case: the name, or the word notepad
    ("clang++", []),
])
def test_a_search_tells_the_languages_apart(all_three: Path, query: str,
                                            headings: list[str]) -> None:
    body = search(query, all_three)
    assert [hit["heading"] for hit in body["results"]] == headings
    assert body["suggestion"] is None  # found as written, not as a correction


def test_a_language_and_its_standards_are_found_by_its_name(all_three: Path) -> None:
    body = search("C++", all_three)
    assert sorted(hit["heading"] for hit in body["results"]) == ["Plus", "Standards"]


@pytest.mark.parametrize(("query", "marked"), [
    ("C#", "<mark>C#</mark> concise"),
    ("C++ generic", "<mark>C++</mark> <mark>generic</mark>"),
    ("C++11", "with <mark>C++</mark><mark>11</mark>,"),
    ("notepad++", "<mark>Notepad++</mark> opens"),
    ("count", "<mark>count</mark>++ in"),
])
def test_the_snippet_marks_the_whole_name(all_three: Path, query: str, marked: str) -> None:
    assert marked in search(query, all_three)["results"][0]["snippet"]


def test_a_glossary_without_c_plus_plus_has_no_term_c_plus_plus(no_plus: Path) -> None:
    result = run("term", "C++", index=no_plus)
    assert result.returncode == 1
    assert result.stdout == ""
    assert "No term named 'C++'" in result.stderr
    with serving(no_plus) as client:
        got = client.get("/api/terms/C%2B%2B")
        assert got.status_code == 404
        assert got.get_json()["error"]
        assert client.get("/api/search?q=C%2B%2B").get_json()["terms"] == []
        page = client.get("/search?q=C%2B%2B").get_data(as_text=True)
        assert "systems language" not in page and 'class="card"' not in page
        card = client.get("/api/search?q=C%23").get_json()["terms"]
        assert [t["term"] for t in card] == ["C#"]


@pytest.mark.parametrize("fixture", ["no_plus", "all_three"])
def test_a_mention_of_c_plus_plus_is_no_mention_of_c(fixture: str,
                                                     request: pytest.FixtureRequest) -> None:
    index = request.getfixturevalue(fixture)
    result = run("term", "C", "--json", index=index)
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert (body["term"], body["mention_count"], body["mentions"]) == ("C", 0, [])
    sharp = json.loads(run("term", "C#", "--json", index=index).stdout)
    assert [m["url"] for m in sharp["mentions"]] == ["/lessons/a#sharp"]


def test_a_standard_is_a_mention_of_its_language_and_an_increment_of_nothing(
        all_three: Path, tmp_path: Path) -> None:
    """C++11 mentions C++; ``count++`` is the word count, a mention of a term count and of no
    term spelt count++."""
    plus = json.loads(run("term", "C++", "--json", index=all_three).stdout)
    assert sorted(m["url"] for m in plus["mentions"]) == ["/lessons/a#plus",
                                                          "/lessons/a#standards"]
    index = course_index(tmp_path, "count\n: How many there are.\n")
    count = json.loads(run("term", "count", "--json", index=index).stdout)
    assert [m["url"] for m in count["mentions"]] == ["/lessons/a#loops"]
