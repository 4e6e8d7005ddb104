"""A term's row of the coverage report, from the lessons that mention it (``term_lessons``).

A term used throughout a 100,000-section course is mentioned in some 12,000 lessons. The row
keeps what does not grow with that: how many lessons, the first ``shown`` of them, and the
term's strip across the course, summed into at most ``STRIP_BARS`` bars of consecutive
lessons. The lessons are read one term at a time and dropped once counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .glossary_table import Place, TermRecord
from .term_lessons import LessonUse

LESSONS_SHOWN = 100
"""Lessons listed per term (and per used-before-definition entry) unless asked for more."""
MAX_LESSONS = 10_000
STRIP_BARS = 64
"""The most bars a term's strip has: a longer course puts consecutive lessons in one bar."""


@dataclass(frozen=True, slots=True)
class DefinedAt:
    lesson: str
    title: str
    url: str
    sentence: str


@dataclass(frozen=True, slots=True)
class Stretch:
    """Consecutive lessons of the course drawn as one bar of a term's strip (one lesson each
    on a course of at most ``STRIP_BARS`` lessons)."""

    bar: int
    """0 for the leftmost bar."""
    first: int
    last: int
    """The first and last lesson in it, numbered from 1 in course order."""
    lessons: int
    """How many of them mention the term."""
    count: int
    """Mentions in them."""
    url: str
    """The first mention in them; the definition when none mentions the term."""
    defines: bool
    """Whether the lesson that defines the term is one of them."""


@dataclass(frozen=True, slots=True)
class TermCoverage:
    term: str
    anchor: str
    """The term's id on the /glossary page."""
    in_glossary: bool
    glossary_entry: str | None
    """``glossary/file.md:LINE`` of its entry."""
    defined_at: DefinedAt | None
    """The first lesson, in course order, whose prose defines it."""
    mentions: int
    lessons: tuple[Place, ...]
    """The first lessons that mention it (``shown`` of them), in course order, each linked at
    its first mention."""
    lesson_count: int
    """How many lessons mention it: all of them, however many ``lessons`` lists."""
    first_mention: Place | None
    spread: tuple[Stretch, ...] = ()
    """Its strip: the bars with a mention or the definition, left to right. Drawn by the
    page; the JSON body leaves it out."""


@dataclass(frozen=True, slots=True)
class UsedBeforeDefinition:
    term: str
    defined_at: DefinedAt
    used_at: tuple[Place, ...]
    """The first lessons before the defining one that mention the term (``shown`` of them)."""
    used_count: int
    """How many lessons before the defining one mention it."""


def term_coverage(record: TermRecord, uses: Iterable[LessonUse], position: dict[str, int],
                  shown: int | None = LESSONS_SHOWN
                  ) -> tuple[TermCoverage, UsedBeforeDefinition | None]:
    """The term's row, and its used-before-definition entry when it has one.

    ``uses`` are the lessons that mention it, in course order; ``position`` numbers every
    lesson of the course from 1; ``shown`` bounds the lists (None: every lesson).
    """
    lesson_defs = sorted((d for d in record.definitions if d.origin == "lesson" and d.lesson),
                         key=lambda d: position.get(d.lesson or "", 0))
    defined = lesson_defs[0] if lesson_defs else None
    defining = position.get(defined.lesson or "") if defined else None
    glossary = next((d for d in record.definitions if d.origin == "glossary"), None)
    bars = _Bars(len(position))
    listed: list[Place] = []
    early: list[Place] = []
    early_count = count = 0
    first: Place | None = None
    title = ""
    for use in uses:
        place = Place(use.lesson, use.title, use.url, use.count)
        first = first or Place(use.lesson, use.title, use.url, use.first_count)
        count += 1
        if shown is None or len(listed) < shown:
            listed.append(place)
        number = position.get(use.lesson)
        if number is not None and defining is not None and number < defining:
            early_count += 1
            if shown is None or len(early) < shown:
                early.append(place)
        if defined and use.lesson == defined.lesson:
            title = use.title
        if number is not None:
            bars.add(number, use.count, use.url)
    defined_at = DefinedAt(defined.lesson or "", title, defined.url or defined.source,
                           defined.text) if defined else None
    if defined_at is not None and defining is not None:
        bars.define(defining, defined_at.url)
    row = TermCoverage(
        term=record.term,
        anchor=record.anchor,
        in_glossary=record.in_glossary,
        glossary_entry=glossary.source if glossary else None,
        defined_at=defined_at,
        mentions=record.mention_count,
        lessons=tuple(listed),
        lesson_count=count,
        first_mention=first,
        spread=bars.stretches(),
    )
    used = UsedBeforeDefinition(record.term, defined_at, tuple(early), early_count) \
        if defined_at and early_count else None
    return row, used


class _Bars:
    """A term's strip being summed: lesson ``number`` (from 1) of ``lessons`` goes to bar
    ``(number - 1) * STRIP_BARS // lessons``, so each bar holds a run of consecutive lessons,
    as many in each as the division allows."""

    def __init__(self, lessons: int):
        self.lessons = lessons
        self.bars: dict[int, list] = {}  # bar → [lessons mentioning, count, url, defines]

    def _bar(self, number: int) -> int:
        return (number - 1) * STRIP_BARS // self.lessons if self.lessons > STRIP_BARS \
            else number - 1

    def add(self, number: int, count: int, url: str) -> None:
        bar = self.bars.setdefault(self._bar(number), [0, 0, url, False])
        bar[0] += 1
        bar[1] += count

    def define(self, number: int, url: str) -> None:
        self.bars.setdefault(self._bar(number), [0, 0, url, False])[3] = True

    def stretches(self) -> tuple[Stretch, ...]:
        n, most = self.lessons, STRIP_BARS
        found = []
        for bar, (lessons, count, url, defines) in sorted(self.bars.items()):
            if n > most:  # the lessons k (from 0) with k * most // n == bar
                first, last = -(-bar * n // most) + 1, -(-(bar + 1) * n // most)
            else:
                first = last = bar + 1
            found.append(Stretch(bar, first, last, lessons, count, url, defines))
        return tuple(found)
