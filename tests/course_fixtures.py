"""A course of a test's own: its lessons and glossary written into a folder, and built.

Imported by the tests that need a few lessons of their own prose (a form of definition, a
hyphenated word, a question): each writes the files, builds the index and opens it the same
way.
"""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

from lessonsearch.build import build_index
from lessonsearch.cli import main
from lessonsearch.searcher import Searcher


def built_course(folder: Path, lessons: dict[str, str],
                 glossary: str | dict[str, str] | None = None) -> Path:
    """The index of a course written into ``folder``: ``lessons`` (file name → text) and,
    when given, its glossary (one file's text, or file name → text)."""
    files = {"glossary.md": glossary} if isinstance(glossary, str) else glossary or {}
    for part, written in (("lessons", lessons), ("glossary", files)):
        (folder / part).mkdir(exist_ok=True)
        for name, text in written.items():
            (folder / part / name).write_text(text, encoding="utf-8")
    build_index(folder / "lessons", folder / "glossary" if files else None, folder / "index")
    return folder / "index"


def open_course(folder: Path, lessons: dict[str, str],
                glossary: str | dict[str, str] | None = None) -> closing[Searcher]:
    """A searcher over ``built_course``; close it when done (``with``)."""
    return closing(Searcher.open(built_course(folder, lessons, glossary)))


def cli_mentions(index: Path, term: str, capsys) -> tuple[int, list[str]]:
    """``lessonsearch term TERM --json`` on ``index``: the term's mention count and the
    lessons of its mentions, in course order (``capsys`` reads what the command printed)."""
    capsys.readouterr()
    assert main(["term", term, "--index", str(index), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    return found["mention_count"], [m["lesson"] for m in found["mentions"]]


def cards(index: Path, *queries: str) -> list[list[str]]:
    """The terms whose cards each query's results show, over ``index``."""
    with closing(Searcher.open(index)) as searcher:
        return [[card.term for card in searcher.search(query).terms] for query in queries]


def first(response) -> tuple[str, str | None]:
    """The lesson and anchor of a search's first hit."""
    return (response.results[0].lesson, response.results[0].anchor)


def terms(response) -> list[str]:
    """The terms whose cards a search's results show."""
    return [t.term for t in response.terms]
