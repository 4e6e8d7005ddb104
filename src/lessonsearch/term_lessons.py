"""Each term's mentions summed per lesson, stored at build time for the coverage report.

The ``mentions`` table has a row per term and section: 1.35 million at 100,000 sections, which
took the report 21 s and 690 MB to read into Python and sum per lesson. The build has every
term's mentions in course order anyway, so it sums them once into ``term_lessons``, a row per
term and lesson (about a third as many rows, and no per-section objects for the reader), and
the report reads those.

A version written before this table existed gets the same rows from the ``mentions`` table,
summed by one SQL ``GROUP BY``: slower, but the same report.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from .glossary_table import GLOSSARY_DB, Mention, TermRecord, for_build, read_only

SCHEMA = """
CREATE TABLE term_lessons (
    term_id INTEGER NOT NULL REFERENCES terms(id),
    lesson TEXT NOT NULL, lesson_title TEXT NOT NULL,
    url TEXT NOT NULL,               -- the term's first mention in the lesson
    first_count INTEGER NOT NULL,    -- mentions in that first section
    count INTEGER NOT NULL,          -- mentions in all the lesson's sections
    course_order INTEGER NOT NULL    -- the first mention's place in the course
);
"""
INDEX = "CREATE INDEX term_lessons_term ON term_lessons(term_id, course_order);"

_FROM_MENTIONS = """
SELECT term_id, lesson, lesson_title, url, count, SUM(count), MIN(course_order)
FROM mentions GROUP BY term_id, lesson ORDER BY term_id, MIN(course_order)
"""
"""The same rows from an older version's mentions. With one ``MIN()`` in the query, SQLite
takes the bare columns (title, url, count) from the row holding the minimum: the first
mention in the lesson."""


@dataclass(frozen=True, slots=True)
class LessonUse:
    """One term in one lesson: where it is first mentioned there, and how often in all."""

    lesson: str
    title: str
    url: str
    """The first section of the lesson that mentions the term."""
    first_count: int
    """Mentions in that first section."""
    count: int
    """Mentions in all the lesson's sections."""
    order: int
    """The first section's place in the course: lessons in course order sort by it."""


def lesson_uses(mentions: Iterable[Mention]) -> list[LessonUse]:
    """A term's mentions (a row per section) summed per lesson, in course order."""
    found: dict[str, LessonUse] = {}
    for m in sorted(mentions, key=lambda m: m.order):
        seen = found.get(m.lesson)
        found[m.lesson] = LessonUse(m.lesson, m.lesson_title, m.url, m.count, m.count, m.order) \
            if seen is None else LessonUse(seen.lesson, seen.title, seen.url, seen.first_count,
                                           seen.count + m.count, seen.order)
    return list(found.values())


def write_term_lessons(folder: Path, records: list[TermRecord]) -> None:
    """The table for the terms ``glossary_table.write_glossary_table`` has written."""
    with closing(for_build(folder)) as db:
        db.executescript(SCHEMA)
        ids = dict(db.execute("SELECT term, id FROM terms"))
        for record in records:
            db.executemany("INSERT INTO term_lessons VALUES (?, ?, ?, ?, ?, ?, ?)", [
                (ids[record.term], u.lesson, u.title, u.url, u.first_count, u.count, u.order)
                for u in lesson_uses(record.mentions)
            ])
        db.executescript(INDEX)
        db.commit()


def load_term_lessons(folder: Path) -> Iterator[tuple[str, list[LessonUse]]]:
    """Each mentioned term's name and the lessons that mention it, in course order; one
    term's lessons at a time, so a reader never holds every term's."""
    path = Path(folder) / GLOSSARY_DB
    if not path.is_file():
        return
    with closing(read_only(path)) as db:
        names = dict(db.execute("SELECT id, term FROM terms"))
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        rows = db.execute(
            "SELECT term_id, lesson, lesson_title, url, first_count, count, course_order "
            "FROM term_lessons ORDER BY term_id, course_order"
            if "term_lessons" in tables else _FROM_MENTIONS)
        term_id, uses = None, []
        for row in rows:
            if row[0] != term_id:
                if uses:
                    yield names[term_id], uses
                term_id, uses = row[0], []
            uses.append(LessonUse(*row[1:]))
        if uses:
            yield names[term_id], uses
