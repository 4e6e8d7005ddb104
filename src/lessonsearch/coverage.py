"""The term coverage report: does the glossary cover the course, and where does it fall short?

One function, ``coverage_report``, reads one index version (glossary table, manifest and the
facts the build stored) and returns a ``CoverageReport``; the CLI, ``GET /api/coverage`` and
the ``/coverage`` page only render it (``coverage_render``), so the three always agree.

Every problem list is sorted the same way on every run, so a CI diff of the report is
readable. Entries an editor has accepted are silenced by an allow-list (``kind: name`` lines,
``#`` comments) read from the course file's ``[coverage]`` table at build time and from a file
at report time (``coverage_allow``); a line that silences nothing becomes a warning.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .analysis import STOP_WORDS, stem, words
from .coverage_allow import KINDS, AllowWarning, anchors_back, read_allow, silence
from .coverage_terms import (
    LESSONS_SHOWN,
    MAX_LESSONS,
    STRIP_BARS,
    DefinedAt,
    Stretch,
    TermCoverage,
    UsedBeforeDefinition,
    term_coverage,
)
from .glossary_table import (
    GLOSSARY_PART,
    BrokenAnchor,
    Candidate,
    MovedLink,
    Place,
    TermRecord,
    load_coverage_tables,
    load_glossary,
    load_noun_words,
    load_verb_nouns,
)
from .index_store import open_manifest, reading_part
from .search_log import ZeroResult, read_zero_results
from .searcher import Searcher
from .term_lessons import TermLessons
from .term_lookup import Glossary

__all__ = ["LESSONS_SHOWN", "MAX_LESSONS", "STRIP_BARS", "CoverageReport", "DefinedAt",
           "LinksMoved", "Stretch", "TermCoverage", "UsedBeforeDefinition", "coverage_report"]

LESSONS_AGREE = 0.25
"""Two lessons' defining sentences conflict when they share less than this fraction of the
shorter one's content words (stems, without stop words and the term's own words)."""


@dataclass(frozen=True, slots=True)
class MissingFromGlossary:
    term: str
    defined_at: DefinedAt


@dataclass(frozen=True, slots=True)
class Unused:
    term: str
    glossary_entry: str


@dataclass(frozen=True, slots=True)
class Undefined:
    """A glossary entry lessons use but never explain; unused entries are not repeated here."""

    term: str
    glossary_entry: str
    first_mention: Place | None


@dataclass(frozen=True, slots=True)
class NeedsDefinition:
    """A term the glossary writes with no definition yet: an editor's stub, which readers do
    not see until it has one."""

    term: str
    glossary_entry: str


@dataclass(frozen=True, slots=True)
class ConflictingText:
    source: str
    """``glossary/file.md:LINE`` or the defining lesson's slug."""
    text: str
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Conflict:
    term: str
    reason: str
    """``glossary-duplicate`` (written twice in glossary/) or ``lessons-disagree``."""
    definitions: tuple[ConflictingText, ...]


@dataclass(frozen=True, slots=True)
class LinksMoved:
    """Lessons whose links moved together and whose sections stayed: a new base URL moves
    every lesson's from one base to the other, a new slug one lesson's from its old page to
    its new one. Their anchors are no broken anchors; the old links need redirects."""

    old_url: str
    """What the old links start with (the whole old link, for one lesson's new slug)."""
    url: str
    """What the links start with now, in the old ones' place."""
    lesson_count: int
    last_seen: str
    """The last index version that published the old links."""


@dataclass(frozen=True, slots=True)
class LessonInfo:
    slug: str
    title: str
    url: str
    position: int
    """Its number as the course gives it (``/api/lessons``'s): a lesson the build skipped
    leaves a gap, so it is not its place in ``CoverageReport.lessons``."""


@dataclass(frozen=True, slots=True)
class CoverageReport:
    version: str
    course: dict[str, Any]
    lessons: tuple[LessonInfo, ...]
    """Every lesson, in course order: the x axis of each term's strip."""
    terms: tuple[TermCoverage, ...]
    used_before_definition: tuple[UsedBeforeDefinition, ...] = ()
    missing_from_glossary: tuple[MissingFromGlossary, ...] = ()
    unused: tuple[Unused, ...] = ()
    undefined: tuple[Undefined, ...] = ()
    conflicting: tuple[Conflict, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    broken_anchors: tuple[BrokenAnchor, ...] = ()
    needs_definition: tuple[NeedsDefinition, ...] = ()
    zero_result_searches: tuple[ZeroResult, ...] = ()
    moved_links: tuple[LinksMoved, ...] = ()
    """Informational, never failing: lessons' links an earlier version published that moved
    (``links_moved``), which a site redirects so that readers' links still lead somewhere."""
    allowed: int = 0
    """How many entries the allow-list silenced."""
    allow_warnings: tuple[AllowWarning, ...] = ()
    """The allow-list lines that silenced nothing."""

    def problems(self, kind: str) -> tuple:
        return getattr(self, kind.replace("-", "_"))

    def summary(self) -> dict[str, int]:
        counts = {"terms": len(self.terms),
                  "in_glossary": sum(t.in_glossary for t in self.terms)}
        counts.update({kind.replace("-", "_"): len(self.problems(kind)) for kind in KINDS})
        counts["zero_result_searches"] = len(self.zero_result_searches)
        counts["allowed"] = self.allowed
        return counts


def coverage_report(
    version_dir: Path, index_dir: Path, allow_file: Path | None = None,
    shown: int | None = LESSONS_SHOWN, strict_allow: bool = False,
    answers: Callable[[str], bool] | None = None,
) -> CoverageReport:
    """The report for one index version; ``allow_file`` adds to the course file's allow-list.
    ``strict_allow``: a line of ``allow_file`` that is no ``kind: name`` line is an error
    (the CLI's) rather than a warning of the report (the server's, which must answer).

    Each term's lessons and each used-before-definition entry list at most ``shown`` lessons
    (None: all) beside the full count. SQLite sums the mentions per lesson and per bar of each
    term's strip (``term_lessons``), so the time and memory grow with what is shown, not with
    every section's mentions.

    The searches that found nothing are listed without those the version answers now:
    ``answers`` (the server's ``Searcher.answers``) says whether a query finds anything;
    without it, the version is opened to ask (``_asking``), only if the log holds a query.
    """
    manifest = open_manifest(version_dir)
    with _asking(version_dir, answers) as ask:
        zero = read_zero_results(index_dir, answered=ask)
    with reading_part(version_dir, GLOSSARY_PART):  # every table below is the glossary file's
        return _report(manifest, version_dir, index_dir, allow_file, shown, strict_allow,
                       zero)


@contextmanager
def _asking(version_dir: Path, answers: Callable[[str], bool] | None
            ) -> Iterator[Callable[[str], bool]]:
    """``answers``, or a function that opens a ``Searcher`` on ``version_dir`` the first
    time it is asked (a log with no query to check opens nothing), closed afterwards."""
    if answers is not None:
        yield answers
        return
    opened: list[Searcher] = []

    def ask(query: str) -> bool:
        if not opened:
            opened.append(Searcher(version_dir))
        return opened[0].answers(query)

    try:
        yield ask
    finally:
        for searcher in opened:
            searcher.close()


def _report(manifest: dict[str, Any], version_dir: Path, index_dir: Path,
            allow_file: Path | None, shown: int | None, strict_allow: bool,
            zero: tuple[ZeroResult, ...]) -> CoverageReport:
    records = load_glossary(version_dir, mentions=False)
    facts = load_coverage_tables(version_dir)
    lessons = tuple(LessonInfo(x["slug"], x["title"], x["url"], x["position"])
                    for x in manifest["lessons"])
    allow = read_allow(manifest.get("coverage_allow", []), allow_file, strict_allow)
    anchors = anchors_back(allow, manifest["lessons"])
    del manifest["lessons"]  # every section's anchor: most of a big course's manifest
    position = {lesson.slug: number for number, lesson in enumerate(lessons, start=1)}
    titles = {lesson.slug: lesson.title for lesson in lessons}
    rows: dict[str, tuple[TermCoverage, UsedBeforeDefinition | None]] = {}
    if records:
        with TermLessons(version_dir, [lesson.slug for lesson in lessons]) as found:
            bars = found.bars(STRIP_BARS)
            for r in records:
                rows[r.term] = term_coverage(r, found, bars.get(r.term, []), position, titles,
                                             shown)
    terms = tuple(rows[r.term][0] for r in records)
    report = CoverageReport(
        version=manifest.get("version", Path(version_dir).name),
        course=manifest.get("course") or {},
        lessons=lessons,
        terms=terms,
        used_before_definition=tuple(used for r in records if (used := rows[r.term][1])),
        missing_from_glossary=tuple(MissingFromGlossary(t.term, t.defined_at) for t in terms
                                    if not t.in_glossary and t.defined_at),
        unused=tuple(Unused(t.term, t.glossary_entry or "") for t in terms
                     if t.in_glossary and not t.mentions),
        undefined=tuple(Undefined(t.term, t.glossary_entry or "", t.first_mention)
                        for t in terms if t.in_glossary and t.mentions and not t.defined_at),
        conflicting=_conflicts(records, facts.conflicts, position),
        candidates=facts.candidates,
        broken_anchors=facts.broken_anchors,
        moved_links=links_moved(facts.moved),
        needs_definition=tuple(NeedsDefinition(*stub) for stub in facts.stubs),
        zero_result_searches=zero,
    )
    glossary = Glossary(records, nouns=load_verb_nouns(version_dir),
                        things=load_noun_words(version_dir))
    return silence(report, allow, glossary, _has_history(version_dir, index_dir),
                   anchors)


def links_moved(moved: tuple[MovedLink, ...]) -> tuple[LinksMoved, ...]:
    """The lessons' moved links, grouped by what changed (``_moved_part``) and the version
    that last had the old ones: one line for a new base URL, however many lessons it moved."""
    groups: dict[tuple[str, str, str], int] = {}
    for link in moved:
        key = (*_moved_part(link.old_url, link.url), link.last_seen)
        groups[key] = groups.get(key, 0) + 1
    return tuple(LinksMoved(old, new, count, seen)
                 for (old, new, seen), count in sorted(groups.items(),
                                                       key=lambda g: (g[0][2], g[0][:2])))


def _moved_part(old: str, new: str) -> tuple[str, str]:
    """The two links without the path they end in alike, cut after a ``/``:
    ``https://a.test/x/intro`` and ``https://b.test/y/intro`` give ``https://a.test/x/`` and
    ``https://b.test/y/``; links that end apart (a new slug) are given whole."""
    same = 0
    while same < min(len(old), len(new)) and old[-1 - same] == new[-1 - same]:
        same += 1
    for kept in range(same, 0, -1):
        if (kept < len(old) and kept < len(new)
                and old[-1 - kept] == new[-1 - kept] == "/"):
            return old[:-kept], new[:-kept]
    return old, new


def _has_history(version_dir: Path, index_dir: Path) -> bool:
    """Whether the index holds a version older than this one, which its broken anchors are
    found against (``coverage_facts``)."""
    name = Path(version_dir).name
    return any(p.name < name and not p.name.endswith(".tmp")
               for p in Path(index_dir).glob("v-*"))


def _conflicts(records: list[TermRecord], duplicates, position: dict[str, int]
               ) -> tuple[Conflict, ...]:
    found = [Conflict(d.term, "glossary-duplicate", (ConflictingText(d.kept, d.kept_text),
                                                     ConflictingText(d.other, d.other_text)))
             for d in duplicates]
    for record in records:
        defs = sorted((d for d in record.definitions if d.origin == "lesson" and d.lesson),
                      key=lambda d: position.get(d.lesson or "", 0))
        if len(defs) < 2:
            continue
        own = {stem(w) for w in words(record.term)}
        # What the others are compared with, and listed after, is the definition the term
        # page shows (``TermRecord.lesson_definition``), not the first in course order.
        first = record.lesson_definition or defs[0]
        disagreeing = [d for d in defs if d.lesson != first.lesson
                       and not _agree(first.text, d.text, own)]
        if disagreeing:
            found.append(Conflict(record.term, "lessons-disagree", tuple(
                ConflictingText(d.lesson or "", d.text, d.url) for d in [first, *disagreeing])))
    return tuple(sorted(found, key=lambda c: (c.term.lower(), c.reason)))


def _agree(one: str, other: str, own: set[str]) -> bool:
    a, b = (({stem(w) for w in words(s)} - STOP_WORDS) - own for s in (one, other))
    if not a or not b:
        return True
    return len(a & b) / min(len(a), len(b)) >= LESSONS_AGREE

