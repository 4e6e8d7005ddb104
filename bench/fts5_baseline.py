"""The baseline every lessonsearch figure is compared with: SQLite FTS5 with bm25.

Built over exactly the documents the Whoosh index holds (``whoosh_index.documents``), with
Porter stemming, and queried with the reader's words OR-ed together (a plain bag-of-words
BM25, as a search box on a site would use it).
"""

from __future__ import annotations

import re
import sqlite3
import time

from lessonsearch.model import Course
from lessonsearch.whoosh_index import documents

_WORD = re.compile(r"[^\W_]+")


class Fts5Baseline:
    def __init__(self, course: Course):
        started = time.perf_counter()
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute(
            "CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, lesson UNINDEXED, "
            "anchor UNINDEXED, lesson_title, heading, body, code, "
            "tokenize='porter unicode61')"
        )
        rows = [
            (d.id, d.lesson.slug, d.anchor, d.lesson.title, d.heading or "", d.body, d.code)
            for d in documents(course)
        ]
        self.db.executemany("INSERT INTO docs VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        self.db.commit()
        self.count = len(rows)
        self.build_seconds = time.perf_counter() - started

    def search(self, text: str, limit: int = 10) -> list[tuple[str, str | None]]:
        """(lesson slug, anchor) of the top hits."""
        words = _WORD.findall(text.lower())
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        rows = self.db.execute(
            "SELECT lesson, anchor FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?",
            (match, limit),
        )
        return list(rows)
