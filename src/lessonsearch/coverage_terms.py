"""A term's row of the coverage report, from the lessons that mention it (``term_lessons``).

A term used throughout a 100,000-section course is mentioned in some 12,000 lessons. The row
keeps what does not grow with that: how many lessons, the first ``shown`` of them, and the
term's strip across the course, summed into at most ``STRIP_BARS`` bars of consecutive
lessons. SQLite does the counting and summing (``term_lessons``); only what is shown becomes
Python objects.
"""

from __future__ import annotations

from dataclasses import dataclass

from .glossary_table import Place, TermRecord
from .term_lessons import Bar, LessonUse, TermLessons

LESSONS_SHOWN = 100
"""Lessons listed per term (and per used-before-definition entry) unless asked for more."""
MAX_LESSONS = 10_000
EVERYDAY_LESSONS = 3
"""A one-word term is likely an everyday word, used in its everyday sense, when at least
this many lessons before its definition, and at least half of them, write it only as a plain
word of prose. A technical term is rarely used so widely before it is explained: of the 21
used-before-definition entries of the five Carpentries lessons and the sample course, 19 are
used in one or two lessons before the definition, and only 'value' (4 of the 8 lessons
before it) and shell-novice's 'bash' (4 of 5, mostly the shell's name) reach this."""
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
    """How many lessons before the defining one mention it (of a term the glossary marks
    as an everyday word, how many use it marked: see ``everyday``)."""
    everyday: bool = False
    """The glossary marks the term an everyday word too (``everyday: true``): only its
    marked uses count here, in a heading, in bold or italics, or by an alias."""
    plain_count: int = 0
    """How many lessons before the defining one write the term only as a plain word of
    their prose. Of an ``everyday`` term, these are left out of ``used_count``."""
    hint: str | None = None
    """For a one-word term not marked ``everyday``, used before its definition so widely
    that it is likely the everyday word (``everyday_hint``): what the editor can do."""


def term_coverage(record: TermRecord, found: TermLessons, bars: list[Bar],
                  position: dict[str, int], titles: dict[str, str],
                  shown: int | None = LESSONS_SHOWN
                  ) -> tuple[TermCoverage, UsedBeforeDefinition | None]:
    """The term's row, and its used-before-definition entry when it has one.

    ``found`` answers for the lessons that mention it, ``bars`` are its mentions summed per
    bar (``TermLessons.bars``); ``position`` numbers every lesson of the course from 1 and
    ``titles`` names it (a term defined where no mention of it is counted still has its
    lesson's title); ``shown`` bounds the lists (None: every lesson).
    """
    lesson_defs = sorted((d for d in record.definitions if d.origin == "lesson" and d.lesson),
                         key=lambda d: position.get(d.lesson or "", 0))
    defined = lesson_defs[0] if lesson_defs else None
    defining = position.get(defined.lesson or "") if defined else None
    glossary = next((d for d in record.definitions if d.origin == "glossary"), None)
    count = sum(b.lessons for b in bars)
    listed = found.first(record.term, shown) if count else []
    early, early_count = found.before(record.term, defining, shown, record.everyday) \
        if count and defining is not None else ([], 0)
    title = titles.get(defined.lesson or "", "") if defined else ""
    defined_at = DefinedAt(defined.lesson or "", title, defined.url or defined.source,
                           defined.text) if defined else None
    first = listed[0] if listed else None
    row = TermCoverage(
        term=record.term,
        anchor=record.anchor,
        in_glossary=record.in_glossary,
        glossary_entry=glossary.source if glossary else None,
        defined_at=defined_at,
        mentions=record.mention_count,
        lessons=tuple(_place(u) for u in listed),
        lesson_count=count,
        first_mention=Place(first.lesson, first.title, first.url, first.first_count)
        if first else None,
        spread=_stretches(bars, len(position), defining, defined_at),
    )
    used = None
    if defined_at and early_count:  # asked only of a term used before its definition
        plain = found.plain_before(record.term, defining)
        hint = None if record.everyday else everyday_hint(
            record.term, plain, (defining or 1) - 1)
        used = UsedBeforeDefinition(record.term, defined_at, tuple(_place(u) for u in early),
                                    early_count, record.everyday, plain, hint)
    return row, used


def everyday_hint(term: str, plain: int, lessons_before: int) -> str | None:
    """The hint a used-before-definition entry gives when ``term`` is likely an everyday
    word used in its everyday sense (see ``EVERYDAY_LESSONS``), else None: ``plain`` of the
    ``lessons_before`` lessons before the defining one write it only as the plain word in
    prose."""
    if not _one_plain_word(term) or plain < EVERYDAY_LESSONS:
        return None
    if plain * 2 < lessons_before:
        return None
    return (f"'{term}' may be an everyday word here: {plain} of the {lessons_before} lessons "
            f"before its definition use it only as a plain word; if they mean the everyday "
            f"word, mark its glossary entry 'everyday: true', else define it earlier or allow "
            f"it")


def _one_plain_word(term: str) -> bool:
    """A word of lower-case letters, as an everyday word is written: not a name written
    with capitals (Git, HEAD), a phrase, or a word with digits or symbols (C++, 2PC)."""
    return term.isalpha() and term.islower()


def _place(use: LessonUse) -> Place:
    return Place(use.lesson, use.title, use.url, use.count)


def _stretches(bars: list[Bar], lessons: int, defining: int | None,
               defined_at: DefinedAt | None) -> tuple[Stretch, ...]:
    """The term's bars, and the defining lesson's even where it has no mention."""
    most = min(lessons, STRIP_BARS)
    def_bar = None if defining is None else (defining - 1) * most // lessons
    found = {b.bar: (b.lessons, b.count, b.url) for b in bars}
    if def_bar is not None and defined_at is not None and def_bar not in found:
        found[def_bar] = (0, 0, defined_at.url)
    stretches = []
    for bar, (used, count, url) in sorted(found.items()):
        # the lessons k (from 0) with k * most // lessons == bar; just one while lessons <= most
        first, last = -(-bar * lessons // most) + 1, -(-(bar + 1) * lessons // most)
        stretches.append(Stretch(bar, first, last, used, count, url,
                                 bar == def_bar and defined_at is not None))
    return tuple(stretches)
