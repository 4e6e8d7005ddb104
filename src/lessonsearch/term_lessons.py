"""Each term's mentions summed per lesson, stored at build time for the coverage report.

The ``mentions`` table has a row per term and section: 1.35 million at 100,000 sections, which
took the report 21 s and 690 MB to read into Python and sum per lesson. The build sums them
once into ``term_lessons``, a row per term and lesson (about a third as many), in one pass
over the mention rows it has just written; the report asks SQLite only for
what it shows: each term's first lessons, its lessons before the defining one, and its
strip's bars, summed over runs of consecutive lessons.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from .glossary_table import GLOSSARY_DB, Ranges, for_build, per_term, read_only

SCHEMA = """
CREATE TABLE term_lessons (
    term_id INTEGER NOT NULL REFERENCES terms(id),
    course_order INTEGER NOT NULL,   -- the term's first mention in the lesson: its place
    number INTEGER NOT NULL,         -- the lesson's place in the course, from 1
    first_count INTEGER NOT NULL,    -- mentions in that first section
    count INTEGER NOT NULL,          -- mentions in all the lesson's sections
    marked INTEGER NOT NULL,         -- of them, those not a plain word of prose
    PRIMARY KEY (term_id, course_order)
) WITHOUT ROWID;
"""
"""Stored in (term, course order) order, so one term's lessons are one range of the file.
The lesson, its title and the first mention's link are the ``sections`` row at
``course_order`` (written there once, not once per term: half the file at 100k sections)."""

_IN_RANGE = "WHERE term_id = ? AND course_order BETWEEN ? AND ?"
_USE = ("SELECT lesson, lesson_title, url, first_count, count, course_order "
        "FROM term_lessons JOIN sections USING (course_order)")


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


@dataclass(frozen=True, slots=True)
class Bar:
    """One term's mentions in a run of consecutive lessons."""

    bar: int
    lessons: int
    """How many of the run's lessons mention the term."""
    count: int
    url: str
    """The first mention in the run."""


Found = Mapping[str, Iterable[tuple[int, int, int]]]
"""Each term's mentions, by name, in course order: (course order, count, marked count) of
each section that mentions it (``GlossaryBuild.tables``)."""


def write_term_lessons(folder: Path, mentions: Found, orders_per_lesson: int) -> None:
    """The table, summed from the rows ``write_glossary_table`` has just written: each
    term's ``mentions``. A section's course order, divided by
    ``orders_per_lesson``, is its lesson's place in the course (from 1)."""
    with closing(for_build(folder)) as db:
        db.executescript(SCHEMA)
        _insert(db, mentions, orders_per_lesson)
        db.commit()


def patch_term_lessons(folder: Path, mentions: Found,
                       orders_per_lesson: int, old: Ranges, gone: Sequence[int]) -> None:
    """``write_term_lessons`` on the previous version's file, copied into ``folder`` and
    patched by ``patch_glossary_table`` with these ``mentions``: the rows in the patched
    lessons' ``old`` ranges of course order are deleted, one term at a time along the
    table's key, every row of the terms ``gone`` (ids) deleted, and the new rows summed.
    The other lessons' places in the course must be as the previous version has them."""
    with closing(for_build(folder)) as db:
        db.executemany("DELETE FROM term_lessons WHERE term_id = ?", [(t,) for t in gone])
        terms = [term_id for (term_id,) in db.execute("SELECT id FROM terms")]
        db.executemany(f"DELETE FROM term_lessons {_IN_RANGE}", per_term(terms, old))
        _insert(db, mentions, orders_per_lesson)
        db.commit()


def _insert(db: sqlite3.Connection, mentions: Found, orders_per_lesson: int) -> None:
    """Each term's rows, summed in one pass over its mentions in course order, and written in
    the table's key order. (SQLite's ``GROUP BY`` over the ``mentions`` table sorted them all
    in a temporary B-tree: 0.2 s of a 10,000-section build, against 0.1 s.)"""
    for name, term_id in sorted(db.execute("SELECT term, id FROM terms"), key=lambda t: t[1]):
        db.executemany("INSERT INTO term_lessons VALUES (?, ?, ?, ?, ?, ?)",
                       _per_lesson(term_id, mentions.get(name, ()), orders_per_lesson))


def _per_lesson(term_id: int, found: Iterable[tuple[int, int, int]], orders_per_lesson: int
                ) -> Iterator[tuple[int, int, int, int, int, int]]:
    """A term's rows: one per lesson, from its (course order, count, marked) mentions in
    course order; the first mention in a lesson gives its place and its first count."""
    first = lesson = first_count = total = marked = None
    for order, count, marks in found:
        number = order // orders_per_lesson
        if number == lesson:
            total += count
            marked += marks
            continue
        if first is not None:
            yield term_id, first, lesson, first_count, total, marked
        first, lesson, first_count, total, marked = order, number, count, count, marks
    if first is not None:
        yield term_id, first, lesson, first_count, total, marked


class TermLessons:
    """One version's ``term_lessons``, open while a report asks it about each term."""

    def __init__(self, folder: Path, lessons: Sequence[str]):
        """``lessons``: the version's lesson slugs in course order (its manifest's)."""
        self.db = read_only(Path(folder) / GLOSSARY_DB)
        self.ids = dict(self.db.execute("SELECT term, id FROM terms"))
        self.lessons = len(lessons)
        self.numbers = {slug: number for number, slug in enumerate(lessons, start=1)}

    def __enter__(self) -> TermLessons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.db.close()

    def first(self, term: str, limit: int | None) -> list[LessonUse]:
        """The first ``limit`` lessons (None: all) that mention ``term``, in course order."""
        return [LessonUse(*row) for row in self.db.execute(
            f"{_USE} WHERE term_id = ? ORDER BY course_order LIMIT ?",
            (self.ids.get(term), -1 if limit is None else limit))]

    def before(self, term: str, number: int, limit: int | None, marked: bool = False
               ) -> tuple[list[LessonUse], int]:
        """The first ``limit`` lessons before lesson ``number`` that mention ``term``, and how
        many there are; with ``marked``, only those with a marked use of it (a heading,
        bold or italics, an alias: not the plain word in prose)."""
        where = "WHERE term_id = ? AND number < ?" + (" AND marked > 0" if marked else "")
        found = [LessonUse(*row) for row in self.db.execute(
            f"{_USE} {where} ORDER BY course_order LIMIT ?",
            (self.ids.get(term), number, -1 if limit is None else limit))]
        (count,), = self.db.execute(f"SELECT COUNT(*) FROM term_lessons {where}",
                                    (self.ids.get(term), number))
        return found, count

    def plain_before(self, term: str, number: int) -> int:
        """How many lessons before lesson ``number`` use ``term`` only as a plain word of
        their prose: no heading, bold or italics or alias of theirs writes it."""
        (count,), = self.db.execute(
            "SELECT COUNT(*) FROM term_lessons WHERE term_id = ? AND number < ? AND marked = 0",
            (self.ids.get(term), number))
        return count

    def bars(self, most: int) -> dict[str, list[Bar]]:
        """Every term's mentions summed over runs of consecutive lessons, at most ``most``
        runs: lesson ``n`` (from 1) of ``lessons`` goes to bar ``(n - 1) * most // lessons``
        (``most`` no more than ``lessons``: a bar per lesson on a shorter course). One pass of
        SQLite over the table."""
        scale = (min(most, self.lessons), max(self.lessons, 1))
        names = {term_id: term for term, term_id in self.ids.items()}
        found: dict[str, list[Bar]] = {}
        for term_id, bar, lessons, count, url in self.db.execute(
                "SELECT term_id, bar, lessons, count, url FROM (SELECT term_id, "
                "(number - 1) * ? / ? AS bar, COUNT(*) AS lessons, SUM(count) AS count, "
                "MIN(course_order) AS course_order FROM term_lessons GROUP BY term_id, bar) "
                "JOIN sections USING (course_order) ORDER BY term_id, bar", scale):
            found.setdefault(names[term_id], []).append(Bar(bar, lessons, count, url))
        return found
