"""The glossary table: terms, aliases, definitions and mentions, as SQLite in the index version.

Written once per build beside the Whoosh index, so both are one version and swap together.
Readers load it whole into memory (``load_glossary``): a course has hundreds of terms, and a
dictionary lookup is what keeps term lookup far under a millisecond.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

GLOSSARY_DB = "glossary.sqlite"

SCHEMA = """
CREATE TABLE terms (
    id INTEGER PRIMARY KEY,
    term TEXT NOT NULL,              -- canonical name
    anchor TEXT NOT NULL,            -- id on the /glossary page
    definition TEXT,                 -- the glossary's, else the first lesson's sentence
    source TEXT,                     -- glossary/file.md:LINE, or the defining lesson's url
    in_glossary INTEGER NOT NULL,
    see_also TEXT NOT NULL           -- JSON list
);
CREATE TABLE aliases (
    term_id INTEGER NOT NULL REFERENCES terms(id),
    alias TEXT NOT NULL
);
CREATE TABLE definitions (
    term_id INTEGER NOT NULL REFERENCES terms(id),
    origin TEXT NOT NULL,            -- 'glossary' or 'lesson'
    text TEXT NOT NULL,              -- the definition, or the defining sentence
    source TEXT NOT NULL,            -- glossary/file.md:LINE or lesson url
    lesson TEXT, anchor TEXT, url TEXT, kind TEXT, course_order INTEGER
);
CREATE TABLE mentions (
    term_id INTEGER NOT NULL REFERENCES terms(id),
    lesson TEXT NOT NULL, lesson_title TEXT NOT NULL, anchor TEXT, url TEXT NOT NULL,
    count INTEGER NOT NULL,
    course_order INTEGER NOT NULL    -- the section's place in the course
);
CREATE INDEX mentions_term ON mentions(term_id, course_order);
"""


@dataclass(frozen=True, slots=True)
class Mention:
    lesson: str
    lesson_title: str
    anchor: str | None
    url: str
    count: int
    order: int


@dataclass(frozen=True, slots=True)
class Definition:
    origin: str
    text: str
    source: str
    lesson: str | None = None
    anchor: str | None = None
    url: str | None = None
    kind: str | None = None
    order: int | None = None


@dataclass(frozen=True, slots=True)
class TermRecord:
    """Everything known of one term, as the table stores it."""

    term: str
    anchor: str
    definition: str | None
    source: str | None
    in_glossary: bool
    aliases: tuple[str, ...]
    see_also: tuple[str, ...]
    definitions: tuple[Definition, ...]
    mentions: tuple[Mention, ...]

    @property
    def lesson_definition(self) -> Definition | None:
        return next((d for d in self.definitions if d.origin == "lesson"), None)

    @property
    def mention_count(self) -> int:
        return sum(m.count for m in self.mentions)


def write_glossary_table(folder: Path, records: list[TermRecord]) -> None:
    db = sqlite3.connect(folder / GLOSSARY_DB)
    try:
        db.executescript(SCHEMA)
        for term_id, r in enumerate(records, start=1):
            db.execute(
                "INSERT INTO terms VALUES (?, ?, ?, ?, ?, ?, ?)",
                (term_id, r.term, r.anchor, r.definition, r.source, int(r.in_glossary),
                 json.dumps(list(r.see_also))),
            )
            db.executemany("INSERT INTO aliases VALUES (?, ?)", [(term_id, a) for a in r.aliases])
            db.executemany(
                "INSERT INTO definitions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(term_id, d.origin, d.text, d.source, d.lesson, d.anchor, d.url, d.kind, d.order)
                 for d in r.definitions],
            )
            db.executemany(
                "INSERT INTO mentions VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(term_id, m.lesson, m.lesson_title, m.anchor, m.url, m.count, m.order)
                 for m in r.mentions],
            )
        db.commit()
    finally:
        db.close()


def load_glossary(folder: Path) -> list[TermRecord]:
    """Every term of one index version, A–Z; empty when the version has no glossary table."""
    path = Path(folder) / GLOSSARY_DB
    if not path.is_file():
        return []
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        aliases: dict[int, list[str]] = {}
        for term_id, alias in db.execute("SELECT term_id, alias FROM aliases"):
            aliases.setdefault(term_id, []).append(alias)
        definitions: dict[int, list[Definition]] = {}
        for row in db.execute("SELECT * FROM definitions ORDER BY course_order"):
            definitions.setdefault(row[0], []).append(Definition(*row[1:]))
        mentions: dict[int, list[Mention]] = {}
        for row in db.execute("SELECT * FROM mentions ORDER BY course_order"):
            mentions.setdefault(row[0], []).append(Mention(*row[1:]))
        records = []
        for term_id, term, anchor, definition, source, in_glossary, see_also in db.execute(
            "SELECT * FROM terms ORDER BY lower(term)"
        ):
            records.append(TermRecord(
                term, anchor, definition, source, bool(in_glossary),
                tuple(aliases.get(term_id, ())), tuple(json.loads(see_also)),
                tuple(definitions.get(term_id, ())), tuple(mentions.get(term_id, ())),
            ))
        return records
    finally:
        db.close()
