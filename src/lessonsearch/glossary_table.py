"""The glossary table: terms, aliases, definitions and mentions, as SQLite in the index version.

Written once per build beside the Whoosh index, so both are one version and swap together.
Readers load the terms into memory (``load_glossary``): a course has hundreds of terms, and a
dictionary lookup is what keeps term lookup far under a millisecond. The mentions, one row per
term and section (millions at 100,000 sections), stay on disk for the server, which reads one
term's when it is looked up (``load_mentions``); the coverage report reads them summed per
lesson (``term_lessons``).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Mapping
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from .model import value

GLOSSARY_DB = "glossary.sqlite"
GLOSSARY_PART = f"glossary file ({GLOSSARY_DB})"
"""How a refusal names the file: what it holds, and its name in the version folder."""

SCHEMA = """
CREATE TABLE terms (
    id INTEGER PRIMARY KEY,
    term TEXT NOT NULL,              -- canonical name
    anchor TEXT NOT NULL,            -- id on the /glossary page
    definition TEXT,                 -- the glossary's, else the first lesson's sentence
    source TEXT,                     -- glossary/file.md:LINE, or the defining lesson's url
    in_glossary INTEGER NOT NULL,
    see_also TEXT NOT NULL,          -- JSON list
    mention_total INTEGER NOT NULL,  -- mentions in all sections
    mention_sections INTEGER NOT NULL,
    everyday INTEGER NOT NULL        -- 1: the glossary says the term is an everyday word too
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
    -- a term's rows are written the glossary's first, then the lessons', the clearest first
);
CREATE TABLE sections (
    course_order INTEGER PRIMARY KEY,  -- the section's place in the course
    lesson TEXT NOT NULL, lesson_title TEXT NOT NULL, anchor TEXT,
    heading TEXT,                    -- null for the text above a lesson's first heading
    url TEXT NOT NULL
);
CREATE TABLE mentions (
    term_id INTEGER NOT NULL REFERENCES terms(id),
    course_order INTEGER NOT NULL REFERENCES sections(course_order),
    count INTEGER NOT NULL,
    PRIMARY KEY (term_id, course_order)
) WITHOUT ROWID;
CREATE TABLE verb_nouns (
    word TEXT PRIMARY KEY            -- a term word in -ing whose bare verb is no mention of it
);
CREATE TABLE noun_words (
    word TEXT PRIMARY KEY            -- a term word naming a thing: its -ed, -ing forms are none
);
"""
"""A mention is a term, a section and a count: each section's lesson, title and link are
written once, not once for every term it mentions. Mentions are stored, and inserted, in
(term, course order) order, so one term's are one range of the file."""

_MENTION = ("SELECT term_id, lesson, lesson_title, anchor, heading, url, count, course_order "
            "FROM mentions JOIN sections USING (course_order)")


@dataclass(frozen=True, slots=True)
class Mention:
    lesson: str
    lesson_title: str
    anchor: str | None
    heading: str | None
    """The section's heading, as the term page names it (None: the lesson's top)."""
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
    """Empty in the server's glossary until the term is looked up (``Glossary.with_mentions``)."""
    mention_count: int = 0
    """How often lessons mention the term, in all sections."""
    mention_sections: int = 0
    everyday: bool = False
    """The glossary marks the term an everyday word too (``GlossaryEntry.everyday``)."""

    @property
    def lesson_definition(self) -> Definition | None:
        """The lesson definition a reader is shown: the clearest, as the build orders them
        (``definitions.clarity``)."""
        return next((d for d in self.definitions if d.origin == "lesson"), None)


SectionRow = tuple[int, str, str, str | None, str | None, str]
"""A section some term is mentioned in: (course order, lesson, lesson title, anchor,
heading, url)."""


def write_glossary_table(folder: Path, records: list[TermRecord], sections: Iterable[SectionRow],
                         mentions: Mapping[str, Iterable[tuple[int, ...]]],
                         nouns: Iterable[str] = (), things: Iterable[str] = ()) -> None:
    """The terms (ids: ``term_ids``), and each term's ``mentions`` (by name): the
    (course order, count) of every section in ``sections`` that mentions it, in course order.
    The records' own ``mentions`` are not read. ``nouns``: the term words in -ing whose bare
    verb the lessons write as a noun only (``term_verbs``), and ``things``, the term words
    that name a thing, whose -ed and -ing forms are no mention (``term_verbs.noun_words``),
    so that a search names their terms as the mentions were counted."""
    db = for_build(folder)
    try:
        db.executescript(SCHEMA)
        db.executemany("INSERT INTO verb_nouns VALUES (?)", [(w,) for w in sorted(nouns)])
        db.executemany("INSERT INTO noun_words VALUES (?)", [(w,) for w in sorted(things)])
        ids = _write_terms(db, records)
        _write_mentions(db, sections, mentions, ids)
        db.commit()
    finally:
        db.close()


Ranges = list[tuple[int, int]]
"""Lessons' spans of course order: (first, last), both included."""


def per_term(term_ids: Iterable[int], ranges: Ranges) -> list[tuple[int, int, int]]:
    """(term id, first, last) for every term and range: the parameters of a statement that
    walks a term-keyed table one term's span at a time."""
    return [(term_id, *span) for term_id in term_ids for span in ranges]


def lesson_ranges(folder: Path, lessons: Iterable[str]) -> Ranges:
    """Where the glossary file in ``folder`` has the mention rows of ``lessons``."""
    with closing(for_build(folder)) as db:
        return db.execute(
            "SELECT MIN(course_order), MAX(course_order) FROM sections "
            "WHERE lesson IN (SELECT value FROM json_each(?)) GROUP BY lesson",
            (json.dumps(sorted(lessons)),)).fetchall()


def patch_glossary_table(folder: Path, records: list[TermRecord], sections: list[SectionRow],
                         mentions: Mapping[str, Iterable[tuple[int, ...]]],
                         old: Ranges, before: list[str], nouns: Iterable[str] = (),
                         things: Iterable[str] = ()) -> list[int]:
    """``write_glossary_table`` on the previous version's file, copied into ``folder``, when
    only some lessons (changed, moved or removed, or holding a word of a term added or
    removed) differ: the terms are written again (a few hundred rows); the rows in those
    lessons' ``old`` ranges are deleted and their new ``sections`` and ``mentions`` written,
    and every mention of a term the previous version had (``before``, A–Z) and this one
    has not. Every other lesson's rows, course order included, must be as the previous
    version has them. Each term's mentions are deleted a range at a time along the table's
    key: no pass over the whole table. Returns the ids of the terms gone."""
    db = for_build(folder)
    try:
        db.executescript("DELETE FROM terms; DELETE FROM aliases; DELETE FROM definitions; "
                         "CREATE TABLE IF NOT EXISTS verb_nouns (word TEXT PRIMARY KEY); "
                         "DELETE FROM verb_nouns; "
                         "CREATE TABLE IF NOT EXISTS noun_words (word TEXT PRIMARY KEY); "
                         "DELETE FROM noun_words;")
        db.executemany("INSERT INTO verb_nouns VALUES (?)", [(w,) for w in sorted(nouns)])
        db.executemany("INSERT INTO noun_words VALUES (?)", [(w,) for w in sorted(things)])
        ids = _write_terms(db, records)
        gone = [term_id for name, term_id in zip(before, term_ids(before), strict=True)
                if name not in ids]
        db.executemany("DELETE FROM mentions WHERE term_id = ?", [(t,) for t in gone])
        db.executemany("DELETE FROM sections WHERE course_order BETWEEN ? AND ?", old)
        db.executemany("DELETE FROM mentions WHERE term_id = ? AND course_order BETWEEN ? AND ?",
                       per_term(ids.values(), old))
        _write_mentions(db, sections, mentions, ids)
        db.commit()
        return gone
    finally:
        db.close()


def term_ids(names: Iterable[str]) -> list[int]:
    """Each term's id: a digest of its name, so a term keeps its id, and its rows their
    place in the file, when others are added or removed (a term's place A–Z moved every
    later term's rows). Two names with one digest would be a 1 in 2⁶³ chance; the later
    one A–Z takes the next free id, so the ids are still those of the names alone."""
    taken: set[int] = set()
    found = []
    for name in names:
        digest = hashlib.blake2b(name.encode("utf-8"), digest_size=8).digest()
        term_id = int.from_bytes(digest, "big") >> 1
        while term_id in taken:
            term_id = (term_id + 1) % (1 << 63)
        taken.add(term_id)
        found.append(term_id)
    return found


def _write_terms(db: sqlite3.Connection, records: list[TermRecord]) -> dict[str, int]:
    """The terms' rows; each term's id, by name."""
    ids = dict(zip((r.term for r in records), term_ids(r.term for r in records), strict=True))
    for r in records:
        term_id = ids[r.term]
        db.execute(
            "INSERT INTO terms VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (term_id, r.term, r.anchor, r.definition, r.source, int(r.in_glossary),
             json.dumps(list(r.see_also)), r.mention_count, r.mention_sections,
             int(r.everyday)),
        )
        db.executemany("INSERT INTO aliases VALUES (?, ?)", [(term_id, a) for a in r.aliases])
        db.executemany(
            "INSERT INTO definitions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(term_id, d.origin, d.text, d.source, d.lesson, d.anchor, d.url, d.kind, d.order)
             for d in r.definitions],
        )
    return ids


def _write_mentions(db: sqlite3.Connection, sections: Iterable[SectionRow],
                    mentions: Mapping[str, Iterable[tuple[int, ...]]],
                    ids: dict[str, int]) -> None:
    db.executemany("INSERT INTO sections VALUES (?, ?, ?, ?, ?, ?)", sections)
    for name, term_id in sorted(ids.items(), key=lambda item: item[1]):  # in the key's order
        db.executemany("INSERT INTO mentions VALUES (?, ?, ?)",
                       [(term_id, order, count) for order, count, *_ in mentions[name]])


def load_glossary(folder: Path, mentions: bool = True) -> list[TermRecord]:
    """Every term of one index version, A–Z; empty when the version has no glossary table.

    Without ``mentions``, each record's ``mentions`` is empty (its counts are still there).
    """
    path = Path(folder) / GLOSSARY_DB
    if not path.is_file():
        return []
    db = read_only(path)
    try:
        aliases: dict[int, list[str]] = {}
        for term_id, alias in db.execute("SELECT term_id, alias FROM aliases"):
            aliases.setdefault(term_id, []).append(alias)
        definitions: dict[int, list[Definition]] = {}
        for row in db.execute("SELECT * FROM definitions ORDER BY rowid"):  # as written
            definitions.setdefault(row[0], []).append(Definition(*row[1:]))
        found: dict[int, list[Mention]] = {}
        if mentions:
            for row in db.execute(f"{_MENTION} ORDER BY course_order"):
                found.setdefault(row[0], []).append(Mention(*row[1:]))
        records = []
        for (term_id, term, anchor, definition, source, in_glossary, see_also, total,
             sections, everyday) in db.execute("SELECT * FROM terms ORDER BY lower(term)"):
            records.append(TermRecord(
                term, anchor, definition, source, bool(in_glossary),
                tuple(aliases.get(term_id, ())), tuple(json.loads(see_also)),
                tuple(definitions.get(term_id, ())), tuple(found.get(term_id, ())),
                total, sections, bool(everyday),
            ))
        return records
    finally:
        db.close()


def load_verb_nouns(folder: Path) -> frozenset[str]:
    """The term words in -ing whose bare verb is no mention of them in this version
    (``write_glossary_table``'s ``nouns``): none for a version with no glossary table."""
    path = Path(folder) / GLOSSARY_DB
    if not path.is_file():
        return frozenset()
    with closing(read_only(path)) as db:
        return frozenset(word for word, in db.execute("SELECT word FROM verb_nouns"))


def load_noun_words(folder: Path) -> frozenset[str]:
    """The term words that name a thing in this version, whose -ed and -ing forms are no
    mention of them (``write_glossary_table``'s ``things``): none for a version with no
    glossary table, or one written before the table was (whose mentions took them)."""
    path = Path(folder) / GLOSSARY_DB
    if not path.is_file():
        return frozenset()
    with closing(read_only(path)) as db:
        try:
            return frozenset(word for word, in db.execute("SELECT word FROM noun_words"))
        except sqlite3.OperationalError:  # no such table
            return frozenset()


def load_mentions(folder: Path, term: str, limit: int | None = None) -> tuple[Mention, ...]:
    """One term's mentions in course order: the first ``limit`` sections, or all."""
    return _mentions(folder, term, "course_order", limit)


def busiest_mentions(folder: Path, term: str, count: int = 2) -> tuple[Mention, ...]:
    """The ``count`` sections that mention one term most, most first (the first in course
    order among equals): read by the index on the term's mentions, not by loading them all
    (thousands of rows at 100,000 sections)."""
    return _mentions(folder, term, "count DESC, course_order", count)


def headings_beginning(folder: Path, word: str) -> list[tuple[str, str]]:
    """(heading, link) of each section whose heading begins with ``word`` (any case; "What's"
    too), as the search box's completions list them: the few a question's restated heading
    may be among (``Searcher.asking``), read from the completions' table, not from the
    search index."""
    db = read_only(Path(folder) / GLOSSARY_DB)
    try:
        return db.execute("SELECT text, target FROM completion_entries WHERE kind = 'heading' "
                          "AND text LIKE ? ORDER BY number", (f"{word}%",)).fetchall()
    finally:
        db.close()


def _mentions(folder: Path, term: str, order: str, limit: int | None) -> tuple[Mention, ...]:
    db = read_only(Path(folder) / GLOSSARY_DB)
    try:
        found = db.execute("SELECT id FROM terms WHERE term = ?", (term,)).fetchone()
        if found is None:
            return ()
        # By the term's id: joined on the name, SQLite sorted every mention of every term.
        return tuple(Mention(*row[1:]) for row in db.execute(
            f"{_MENTION} WHERE term_id = ? ORDER BY {order} LIMIT ?",
            (found[0], -1 if limit is None else limit)))
    finally:
        db.close()


def read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot change a published version's file."""
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def for_build(folder: Path) -> sqlite3.Connection:
    """The version's SQLite file, opened by a build to add tables. No journal and no syncs:
    the file is new, in a version folder that is synced, then published whole or not at all."""
    db = sqlite3.connect(Path(folder) / GLOSSARY_DB)
    db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
    return db


# --- What the coverage report needs from build time ---------------------------------------
# The server has no course text and no earlier versions, so the build stores what only it can
# see: jargon candidates, anchors lost since earlier versions, and glossary duplicates.

COVERAGE_SCHEMA = """
DROP TABLE IF EXISTS candidates;  -- a patched build's file is the previous version's
DROP TABLE IF EXISTS broken_anchors;
DROP TABLE IF EXISTS moved_links;
DROP TABLE IF EXISTS glossary_conflicts;
DROP TABLE IF EXISTS glossary_stubs;
CREATE TABLE candidates (
    rank INTEGER NOT NULL, phrase TEXT NOT NULL,
    kind TEXT NOT NULL,  -- 'see-also', 'marked', 'collocation', 'acronym' or 'capitalised'
    count INTEGER NOT NULL,
    lessons TEXT NOT NULL            -- JSON list of [lesson, title, url, count], course order
);
CREATE TABLE broken_anchors (
    lesson TEXT NOT NULL, anchor TEXT NOT NULL, old_url TEXT NOT NULL,
    last_seen TEXT NOT NULL,         -- the last version that had it
    source TEXT NOT NULL,            -- the lesson's file: what it is known by across versions
    url TEXT NOT NULL                -- the lesson's link now, with the anchor
);
CREATE TABLE moved_links (       -- a lesson whose link changed, file or slug the same
    lesson TEXT NOT NULL, source TEXT NOT NULL,
    old_url TEXT NOT NULL, url TEXT NOT NULL,
    last_seen TEXT NOT NULL          -- the last version that published old_url
);
CREATE TABLE glossary_stubs (    -- a term written in glossary/ with no definition yet
    term TEXT NOT NULL, entry TEXT NOT NULL
);
CREATE TABLE glossary_conflicts (
    term TEXT NOT NULL, kept TEXT NOT NULL, kept_text TEXT NOT NULL,
    other TEXT NOT NULL, other_text TEXT NOT NULL
);
"""


@value
class Place:
    """A lesson where something occurs, linked at its first section there."""

    lesson: str
    title: str
    url: str
    count: int = 1


@value
class Candidate:
    """Jargon the glossary may be missing."""

    phrase: str
    kind: str
    count: int
    lessons: tuple[Place, ...]


@dataclass(frozen=True, slots=True)
class BrokenAnchor:
    """A section link an earlier version published that this version no longer has.

    It belongs to a lesson, known across versions by its file (``source``) or else its slug,
    not by its link: a lesson whose link changed (a new base URL, a new slug) and kept the
    section has not lost it, and one that lost it is listed under its slug and link now."""

    lesson: str
    """The lesson's slug now (the one it had when last seen, if the course has it no more)."""
    anchor: str
    """Empty for the lesson's page itself, which no lesson of the course has now."""
    old_url: str
    """The link as it was last published: what readers and sites hold."""
    last_seen: str
    """The last index version that had it."""
    source: str = ""
    """The lesson's file (empty in a table written before files were kept)."""
    url: str = ""
    """The lesson's link now, with the anchor; ``old_url`` when the lesson is gone or the
    link did not change."""


@dataclass(frozen=True, slots=True)
class MovedLink:
    """A lesson's link that changed while the lesson stayed (its file, or its slug): the
    old link leads nowhere unless the site redirects it to the new one."""

    lesson: str
    source: str
    old_url: str
    url: str
    last_seen: str
    """The last index version that published ``old_url``."""


@dataclass(frozen=True, slots=True)
class GlossaryConflict:
    """One term written twice in ``glossary/`` with different text; ``kept`` won."""

    term: str
    kept: str
    kept_text: str
    other: str
    other_text: str


@dataclass(frozen=True, slots=True)
class CoverageFacts:
    candidates: tuple[Candidate, ...] = ()
    broken_anchors: tuple[BrokenAnchor, ...] = ()
    conflicts: tuple[GlossaryConflict, ...] = ()
    stubs: tuple[tuple[str, str], ...] = ()
    """Each term the glossary names with no definition yet, and its ``file:line``."""
    moved: tuple[MovedLink, ...] = ()


def write_coverage_tables(folder: Path, facts: CoverageFacts) -> None:
    db = for_build(folder)
    try:
        db.executescript(COVERAGE_SCHEMA)
        db.executemany("INSERT INTO candidates VALUES (?, ?, ?, ?, ?)", [
            (rank, c.phrase, c.kind, c.count,
             json.dumps([[p.lesson, p.title, p.url, p.count] for p in c.lessons]))
            for rank, c in enumerate(facts.candidates, start=1)
        ])
        db.executemany("INSERT INTO broken_anchors VALUES (?, ?, ?, ?, ?, ?)", [
            (b.lesson, b.anchor, b.old_url, b.last_seen, b.source, b.url or b.old_url)
            for b in facts.broken_anchors
        ])
        db.executemany("INSERT INTO moved_links VALUES (?, ?, ?, ?, ?)", [
            (m.lesson, m.source, m.old_url, m.url, m.last_seen) for m in facts.moved
        ])
        db.executemany("INSERT INTO glossary_conflicts VALUES (?, ?, ?, ?, ?)", [
            (c.term, c.kept, c.kept_text, c.other, c.other_text) for c in facts.conflicts
        ])
        db.executemany("INSERT INTO glossary_stubs VALUES (?, ?)", facts.stubs)
        db.commit()
    finally:
        db.close()


def load_coverage_tables(folder: Path, only_anchors: bool = False) -> CoverageFacts:
    """The stored facts; empty for a version built before these tables existed. With
    ``only_anchors``, only the broken anchors and moved links are read (a build needs no
    more of them)."""
    path = Path(folder) / GLOSSARY_DB
    if not path.is_file():
        return CoverageFacts()
    db = read_only(path)
    try:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if not {"candidates", "broken_anchors", "glossary_conflicts"} <= tables:
            return CoverageFacts()
        broken = _broken_anchors(db)
        moved = tuple(MovedLink(*row) for row in db.execute(
            "SELECT * FROM moved_links ORDER BY rowid")) if "moved_links" in tables else ()
        if only_anchors:
            return CoverageFacts(broken_anchors=broken, moved=moved)
        candidates = tuple(
            Candidate(phrase, kind, count, tuple(Place(*p) for p in json.loads(lessons)))
            for phrase, kind, count, lessons in db.execute(
                "SELECT phrase, kind, count, lessons FROM candidates ORDER BY rank")
        )
        conflicts = tuple(GlossaryConflict(*row) for row in db.execute(
            "SELECT * FROM glossary_conflicts ORDER BY rowid"))
        stubs = tuple(db.execute("SELECT term, entry FROM glossary_stubs ORDER BY rowid")
                      ) if "glossary_stubs" in tables else ()  # none in a file built before
        return CoverageFacts(candidates, broken, conflicts, stubs, moved)
    finally:
        db.close()


def load_stubs(folder: Path) -> tuple[tuple[str, str], ...]:
    """Each term the glossary writes with no definition yet and its ``file:line``, as the
    build stored them (``glossary_stubs``); none for a version built before that table."""
    path = Path(folder) / GLOSSARY_DB
    if not path.is_file():
        return ()
    db = read_only(path)
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'glossary_stubs'"
                          ).fetchone():
            return ()
        return tuple(db.execute("SELECT term, entry FROM glossary_stubs ORDER BY rowid"))
    finally:
        db.close()


def _broken_anchors(db: sqlite3.Connection) -> tuple[BrokenAnchor, ...]:
    """The table's rows; one written before it kept the lesson's file and link now (a live
    version of an earlier release, whose anchors a build carries over) has neither."""
    columns = [row[1] for row in db.execute("PRAGMA table_info(broken_anchors)")]
    found = []
    for row in db.execute("SELECT * FROM broken_anchors ORDER BY rowid"):
        fields = dict(zip(columns, row, strict=True))
        found.append(BrokenAnchor(fields["lesson"], fields["anchor"], fields["old_url"],
                                  fields["last_seen"], fields.get("source") or "",
                                  fields.get("url") or fields["old_url"]))
    return tuple(found)
