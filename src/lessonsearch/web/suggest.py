"""Prefix completion over glossary terms, lesson titles and section headings.

Built once per opened index version into sorted ``(key, entry)`` lists, so a keystroke costs a
binary search and a short scan, not a pass over the course. Each text is listed under its
whole folded form and again under every word start inside it, which is what lets "cache"
complete "KV cache" and "token" complete "What is a token?". Whole-text matches come before
word-start matches, and kinds come in a fixed order: terms first, then lessons, then headings.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..searcher import Searcher

KINDS = ("term", "lesson", "heading")
MAX_SUGGESTIONS = 10

_WORD_START = re.compile(r"(?<![^\W_])[^\W_]")
"""A letter or digit that follows the start, a space, punctuation or an underscore."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    text: str
    kind: str
    """``term``, ``lesson`` or ``heading``."""
    target: str
    """A term's glossary anchor; a lesson's or section's URL."""


@dataclass(frozen=True, slots=True)
class _Entry:
    suggestion: Suggestion
    names: tuple[str, ...]
    """What the entry is found by: the text itself, plus a term's aliases."""


class SuggestionIndex:
    def __init__(self, entries: Iterable[_Entry]):
        self._entries: list[Suggestion] = []
        tables: dict[tuple[str, bool], list[tuple[str, int]]] = {
            (kind, inner): [] for kind in KINDS for inner in (False, True)
        }
        seen: set[tuple[str, str]] = set()
        for entry in entries:
            s = entry.suggestion
            if (s.kind, fold(s.text)) in seen:
                continue  # a heading repeated across lessons completes once, to its first place
            seen.add((s.kind, fold(s.text)))
            number = len(self._entries)
            self._entries.append(s)
            for name in entry.names:
                key = fold(name)
                tables[(s.kind, False)].append((key, number))
                tables[(s.kind, True)].extend((key[i:], number) for i in word_starts(key) if i)
        self._tables = [sorted(tables[(kind, inner)]) for kind in KINDS for inner in (False, True)]

    @classmethod
    def for_searcher(cls, searcher: Searcher) -> SuggestionIndex:
        return cls(_course_entries(searcher))

    def __len__(self) -> int:
        return len(self._entries)

    def complete(self, prefix: str, limit: int = MAX_SUGGESTIONS) -> list[Suggestion]:
        key = fold(prefix)
        found: list[Suggestion] = []
        if not key:
            return found
        taken: set[int] = set()
        for table in self._tables:
            i = bisect_left(table, (key,))
            while i < len(table) and table[i][0].startswith(key):
                number = table[i][1]
                i += 1
                if number in taken:
                    continue
                taken.add(number)
                found.append(self._entries[number])
                if len(found) >= limit:
                    return found
        return found


def fold(text: str) -> str:
    """Case- and width-insensitive form with single spaces: what keys and prefixes compare as."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def word_starts(text: str) -> list[int]:
    return [m.start() for m in _WORD_START.finditer(text)]


def _course_entries(searcher: Searcher) -> Iterator[_Entry]:
    for record in searcher.glossary.records:
        yield _Entry(Suggestion(record.term, "term", record.anchor),
                     (record.term, *record.aliases))
    for lesson in searcher.manifest.get("lessons", ()):
        yield _Entry(Suggestion(lesson["title"], "lesson", lesson["url"]), (lesson["title"],))
    for heading, url in _headings(searcher):
        yield _Entry(Suggestion(heading, "heading", url), (heading,))


def _headings(searcher: Searcher) -> list[tuple[str, str]]:
    """Every section heading with its URL, in course order.

    The manifest lists anchors but not heading texts, so they are read from the index's
    stored fields: the one place the web package reaches through the searcher into Whoosh.
    """
    reader = searcher.whoosh_searcher().reader()
    stored = sorted(
        (fields for fields in reader.all_stored_fields()
         if fields.get("kind") == "section" and fields.get("heading")),
        key=lambda fields: (fields.get("position") or 0, fields.get("section") or 0),
    )
    return [(fields["heading"], fields["url"]) for fields in stored]
