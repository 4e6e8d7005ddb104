"""Prefix completion over glossary terms, lesson titles and section headings.

Built once per index version, at build time, into two SQLite tables beside the glossary: the
entries, and their keys sorted by an index. Each text is listed under its whole folded form
and again under every word start inside it, which is what lets "cache" complete "KV cache" and
"token" complete "What is a token?". Whole-text matches come before word-start matches, and
kinds come in a fixed order: terms first, then lessons, then headings. A keystroke is a few
indexed range reads; the server holds nothing (held in memory, the tables of a 100,000-section
course took a worker 100–260 MB).
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from .analysis import STOP_WORDS
from .glossary_table import GLOSSARY_DB, for_build, read_only
from .spelling import fold_accents

KINDS = ("term", "lesson", "heading")
MAX_SUGGESTIONS = 10
_TOP = "\U0010ffff"
"""Above every character: ``key < prefix + _TOP`` bounds the keys that start with prefix."""

_WORD_START = re.compile(r"(?<![^\W_])[^\W_]")
"""A letter or digit that follows the start, a space, punctuation or an underscore."""
_WORD = re.compile(r"[^\W_]+")

SCHEMA = """
DROP TABLE IF EXISTS completion_entries;  -- a patched build's file is the previous version's
DROP TABLE IF EXISTS completion_keys;
DROP TABLE IF EXISTS completion_headings;
CREATE TABLE completion_entries (
    number INTEGER PRIMARY KEY, text TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL
);
CREATE TABLE completion_keys (
    tier INTEGER NOT NULL,           -- 2 × the kind's place in KINDS, + 1 for a word start
    key TEXT NOT NULL,               -- folded, from the start or from a word start
    number INTEGER NOT NULL,
    lead INTEGER NOT NULL            -- function words' characters to type past; 0 at the start
);
CREATE TABLE completion_headings (   -- every heading, its repeats too: what a patch reads
    folded TEXT NOT NULL, number INTEGER NOT NULL, PRIMARY KEY (folded, number)
) WITHOUT ROWID;
"""
INDEX = "CREATE INDEX completion_order ON completion_keys(tier, key, number, lead);"
"""(A patch finds a lesson's headings by number in one pass over ``completion_headings``,
which an index by number would double.)"""


@dataclass(frozen=True, slots=True)
class Suggestion:
    text: str
    kind: str
    """``term``, ``lesson`` or ``heading``."""
    target: str
    """A term's glossary anchor; a lesson's or section's URL."""


Entry = tuple[int, Suggestion, tuple[str, ...]]
"""A suggestion, the names it is found by, and its number: entries are ordered by number
within a kind. Numbers need not follow one another (a heading's is its document's place in
the course, so headings added to one lesson renumber no other)."""


def fold(text: str) -> str:
    """Case- and width-insensitive form with single spaces: what keys and prefixes compare as."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split()).replace("\0", "")


def plain(folded: str) -> str:
    """A folded text without its accents ("pâte fermentée": "pate fermentee"). A text with
    accents is keyed under both forms, so a reader who cannot type â is offered "Pâte
    fermentée" for "pate", as the search reads "cafe" as "café", while one who types "pâ" is
    offered only what is written with it, not "pace"."""
    return unicodedata.normalize("NFC", fold_accents(folded))


def word_starts(text: str) -> list[int]:
    return [m.start() for m in _WORD_START.finditer(text)]


def key_starts(folded: str) -> list[tuple[int, int]]:
    """Where a folded text is completed from: its start and each word start inside it, each
    with the length of the function words it starts with ("for a "), which a prefix must go
    past to complete it from there. Inside a text, it is completed by its content words:
    "fo" completes no "Deep-sky targets for a small telescope", while "for a sm" still does.
    From its start (its first word, after any punctuation) it is completed by whatever the
    reader types, function words included: "what is" completes "What is a language model?"
    and "the" a heading that starts "The …". A text of function words alone ("What is it?")
    is completed from its start only."""
    starts = [m.start() for m in _WORD_START.finditer(folded)]
    if not starts:
        return [(0, 0)]
    content = [m.group(0) not in STOP_WORDS
               for m in (_WORD.match(folded, i) for i in starts)]
    if not any(content):
        return [(0, 0)]
    found = []
    after = len(folded)  # the start of the next content word
    for i, is_content in zip(reversed(starts), reversed(content), strict=True):
        if is_content:
            after = i
        found.append((i, after - i if after < len(folded) else len(folded) - i))
    found.reverse()
    found[0] = (starts[0], 0)  # the first word: the text's start
    if starts[0]:  # a text that starts with punctuation ("(optional) setup")
        found.insert(0, (0, 0))
    return found


def matched_name(prefix: str, text: str, names: Iterable[str]) -> str | None:
    """The name among ``names`` that ``prefix`` completes, when ``text`` itself does not
    start with it (nor any word of it, ``key_starts``): "te" completes "benchmark" through
    its alias "test set", and a reader should see why. None when ``text`` explains
    itself."""
    key = fold(prefix)
    if not key:
        return None
    for form in (lambda folded: folded, plain):  # as written first, then without accents
        for name in (text, *names):
            folded = form(fold(name))
            if any(folded.startswith(form(key), i) and len(form(key)) > lead
                   for i, lead in key_starts(folded)):
                return None if name == text else name
    return None


def write_completions(folder: Path, entries: Iterable[Entry]) -> None:
    """Each suggestion once per kind and folded text, the first by number (``entries`` come
    in number order)."""
    db = for_build(folder)
    try:
        entries = list(entries)
        unique = list(_unique(entries))
        db.executescript(SCHEMA)
        _insert(db, unique)
        db.executemany("INSERT INTO completion_headings VALUES (?, ?)",
                       ((fold(s.text), n) for n, s, _ in entries if s.kind == "heading"))
        db.executescript(INDEX)
        db.commit()
    finally:
        db.close()


def patch_headings(folder: Path, ranges: Iterable[tuple[int, int]],
                   headings: dict[int, Suggestion]) -> None:
    """Replace the headings numbered within ``ranges`` (a few lessons' documents) by those
    of ``headings`` (every heading of the course, by number): the tables come out as
    ``write_completions`` would write them. A heading's text kept elsewhere is suggested
    by its first number: where an edit adds or removes a first one, the one after it takes
    or gives up its place."""
    db = for_build(folder)
    try:
        ranges = list(ranges)
        old = [row for low, high in ranges for row in db.execute(
            "SELECT folded, number FROM completion_headings WHERE number BETWEEN ? AND ?",
            (low, high))]
        new = [(fold(s.text), n) for n, s in headings.items()
               if any(low <= n <= high for low, high in ranges)]
        texts = sorted({folded for folded, _ in old} | {folded for folded, _ in new})
        for folded in texts:  # the suggestion each text had, taken out
            first = db.execute("SELECT MIN(number) FROM completion_headings WHERE folded = ?",
                               (folded,)).fetchone()[0]
            if first is not None:
                db.execute("DELETE FROM completion_entries WHERE number = ?", (first,))
                db.executemany("DELETE FROM completion_keys WHERE tier = ? AND key = ? "
                               "AND number = ?", (row[:3] for row in
                                                  _key_rows(_HEADINGS, folded, first)))
        db.executemany("DELETE FROM completion_headings WHERE folded = ? AND number = ?", old)
        db.executemany("INSERT INTO completion_headings VALUES (?, ?)", new)
        for folded in texts:  # and the one it has now
            first = db.execute("SELECT MIN(number) FROM completion_headings WHERE folded = ?",
                               (folded,)).fetchone()[0]
            if first is not None:
                found = headings[first]
                _insert(db, [(first, found, (found.text,))])
        db.commit()
    finally:
        db.close()


def patch_kind(folder: Path, kind: str, entries: Iterable[Entry]) -> None:
    """Replace every suggestion of one ``kind`` by those of ``entries`` (all of that kind,
    in number order), as ``write_completions`` would write them: the terms when one is
    added, removed or renamed; the lessons when one is added, removed or retitled. One row
    per term or lesson, so they are written whole."""
    db = for_build(folder)
    try:
        unique = list(_unique(entries))
        tier = 2 * KINDS.index(kind)
        db.execute("DELETE FROM completion_entries WHERE kind = ?", (kind,))
        db.execute("DELETE FROM completion_keys WHERE tier IN (?, ?)", (tier, tier + 1))
        _insert(db, unique)
        db.commit()
    finally:
        db.close()


_HEADINGS = 2 * KINDS.index("heading")


def _insert(db: sqlite3.Connection, unique: list[Entry]) -> None:
    """The entries' rows and their keys' rows."""
    db.executemany("INSERT INTO completion_entries VALUES (?, ?, ?, ?)",
                   ((n, s.text, s.kind, s.target) for n, s, _ in unique))
    db.executemany("INSERT INTO completion_keys VALUES (?, ?, ?, ?)", _keys(unique))


def _unique(entries: Iterable[Entry]) -> Iterator[Entry]:
    seen: set[tuple[str, str]] = set()
    for entry in entries:
        suggestion = entry[1]
        mark = (suggestion.kind, fold(suggestion.text))
        if mark not in seen:  # a heading repeated across lessons completes once, to its first
            seen.add(mark)
            yield entry


def _keys(unique: Iterable[Entry]) -> Iterator[tuple[int, str, int, int]]:
    for number, suggestion, names in unique:
        tier = 2 * KINDS.index(suggestion.kind)
        for name in names:
            yield from _key_rows(tier, fold(name), number)


def _key_rows(tier: int, key: str, number: int) -> Iterator[tuple[int, str, int, int]]:
    """A folded name's rows: from its start, and from each word start inside it, each with
    the length of the function words it starts with (``key_starts``); and the same again
    without its accents, when it has any (``plain``)."""
    for form in dict.fromkeys((key, plain(key))):
        for i, lead in key_starts(form):
            yield tier + (i > 0), form[i:], number, lead


class Completions:
    """The completion tables of one index version, read on each request."""

    def __init__(self, folder: Path):
        self.path = Path(folder) / GLOSSARY_DB

    def __len__(self) -> int:
        with self._connect() as db:
            return db.execute("SELECT count(*) FROM completion_entries").fetchone()[0]

    def complete(self, prefix: str, limit: int = MAX_SUGGESTIONS) -> list[Suggestion]:
        key = fold(prefix)
        if not key or not self.path.is_file():
            return []
        found = self._complete(key, limit)
        if not found and plain(key) != key:  # "pâte fermentee": accents typed in part
            found = self._complete(plain(key), limit)
        return found

    def _complete(self, key: str, limit: int) -> list[Suggestion]:
        numbers: list[int] = []
        with self._connect() as db:
            for tier in range(2 * len(KINDS)):
                rows = db.execute(
                    "SELECT number FROM completion_keys WHERE tier = ? AND key >= ? AND key < ? "
                    "AND lead < ? ORDER BY key, number LIMIT ?",
                    (tier, key, key + _TOP, len(key), limit + len(numbers)))
                numbers.extend(n for (n,) in rows if n not in numbers)
                if len(numbers) >= limit:
                    break
            numbers = numbers[:limit]
            found = {n: Suggestion(text, kind, target) for n, text, kind, target in db.execute(
                f"SELECT number, text, kind, target FROM completion_entries WHERE number IN "
                f"({', '.join('?' * len(numbers))})", numbers)} if numbers else {}
        return [found[n] for n in numbers]

    def _connect(self) -> closing[sqlite3.Connection]:
        return closing(read_only(self.path))
