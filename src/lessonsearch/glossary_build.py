"""The glossary stage of a build: entries + lesson definitions → terms with their mentions.

Reads ``glossary/``, finds where lessons define terms, merges both into one term list, counts
every term's mentions per section in course order, and writes the glossary table, with the
facts the coverage report needs from build time (jargon candidates, lost anchors, glossary
conflicts). It also tells the Whoosh stage which terms each section mentions, so a search for
a term's alias finds sections that use another of its names.
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from .build_cache import BuildCache, fingerprint
from .candidates import find_candidates, sample
from .completions import Suggestion, write_completions
from .coverage_facts import find_broken_anchors, glossary_conflicts
from .definitions import find_definitions
from .glossary_source import read_glossary
from .glossary_table import (
    GLOSSARY_DB,
    CoverageFacts,
    Definition,
    SectionRow,
    TermRecord,
    patch_glossary_table,
    write_coverage_tables,
    write_glossary_table,
)
from .model import Course, GlossaryEntry, LessonDefinition, Problem
from .slugs import slugify
from .term_forms import term_key
from .term_lessons import patch_term_lessons, write_term_lessons
from .term_matching import TermMatcher
from .whoosh_index import Document


@dataclass
class GlossaryBuild:
    """The course's terms, found (``find_terms``) and not yet written (``write_glossary``)."""

    problems: tuple[Problem, ...] = ()
    terms_by_document: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The names of the terms each document mentions: the Whoosh stage indexes them."""
    records: list[TermRecord] = field(default_factory=list)
    entries: tuple[GlossaryEntry, ...] = ()
    sections: list[SectionRow] = field(default_factory=list)
    mentions: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """Each term's (course order, count) of every section that mentions it."""
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    lesson_mentions: dict[str, str] = field(default_factory=dict)
    """A fingerprint of each lesson's rows in the mention tables (its place included)."""

    @property
    def term_count(self) -> int:
        return len(self.records)


@dataclass
class _Term:
    name: str
    entry: GlossaryEntry | None = None
    lesson_defs: list[tuple[int, LessonDefinition]] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)


def find_terms(course: Course, glossary_dir: Path | None, cache: BuildCache,
               docs: list[Document]) -> GlossaryBuild:
    """The glossary's entries and the terms lessons define, each with its mentions per
    section; ``docs`` are ``documents(course)``."""
    entries: tuple[GlossaryEntry, ...] = ()
    problems: tuple[Problem, ...] = ()
    if glossary_dir is not None and Path(glossary_dir).is_dir():
        entries, problems = read_glossary(Path(glossary_dir))
    terms = _merge(entries, course, cache)
    variants = {t.name: [t.name, *t.aliases] for t in terms}
    matcher = TermMatcher(variants)
    matcher_key = fingerprint(sorted(variants.items()))
    counts: dict[str, list[tuple[int, int]]] = {t.name: [] for t in terms}
    sections: list[SectionRow] = []
    by_doc: dict[str, tuple[str, ...]] = {}
    texts = ["\n".join(filter(None, (doc.heading, doc.body))) for doc in docs]
    keyed = [(f"{matcher_key}:{hashlib.sha256(text.encode()).hexdigest()}", text)
             for text in texts]
    counted = cache.remember_many("mentions", keyed, partial(_mention_counts, matcher))
    per_lesson: dict[str, list] = {lesson.slug: [] for lesson in course.lessons}
    for doc, found in zip(docs, counted, strict=True):
        if not found:
            continue
        by_doc[doc.id] = tuple(variant for name in sorted(found) for variant in variants[name])
        section = (doc.order, doc.lesson.slug, doc.lesson.title, doc.anchor, doc.url)
        sections.append(section)
        per_lesson[doc.lesson.slug].append((section, sorted(found.items())))
        for name, count in found.items():
            counts[name].append((doc.order, count))
    records = [_record(t, counts[t.name]) for t in sorted(terms, key=lambda t: t.name.lower())]
    return GlossaryBuild(problems, by_doc, records, entries, sections, counts,
                         {t.name: tuple(t.aliases) for t in terms},
                         {slug: fingerprint((number, rows))
                          for number, (slug, rows) in enumerate(per_lesson.items(), start=1)})


def write_glossary(found: GlossaryBuild, course: Course, glossary_dir: Path | None,
                   out_dir: Path, index_dir: Path | None, cache: BuildCache,
                   docs: list[Document], previous: Path | None = None) -> None:
    """The glossary table, the completions and the coverage report's build-time facts, in
    the version being built in ``out_dir``; ``index_dir`` holds the live version.

    When only a few lessons' mentions differ from the ``previous`` version's, its file is
    copied and patched: those lessons' rows are replaced, the completions kept if they are
    the same, and the small tables written again. The tables are the same either way.
    """
    names = [record.term for record in found.records]
    slugs = [lesson.slug for lesson in course.lessons]
    patched = _lessons_to_patch(found, names, cache, previous)
    if patched is None:
        write_glossary_table(out_dir, found.records, found.sections, found.mentions)
        write_term_lessons(out_dir, slugs)
    else:
        shutil.copyfile(previous / GLOSSARY_DB, out_dir / GLOSSARY_DB)
        patch_glossary_table(out_dir, found.records, found.sections, found.mentions, patched)
        patch_term_lessons(out_dir, slugs, patched)
    cache.keep("glossary", "terms", names)
    for slug, lesson_print in found.lesson_mentions.items():
        cache.keep("lesson mentions", slug, lesson_print)
    completions = list(_completion_entries(found.records, course, docs))
    key = fingerprint([(s.text, s.kind, s.target, spellings) for s, spellings in completions])
    if patched is None or cache.previous("glossary", "completions") != key:
        write_completions(out_dir, completions)
    cache.keep("glossary", "completions", key)
    write_coverage_tables(out_dir, CoverageFacts(
        candidates=_candidates(course, docs, found.aliases, cache),
        broken_anchors=find_broken_anchors(course, index_dir),
        conflicts=glossary_conflicts(found.problems, found.entries, glossary_dir),
    ))


PATCH_AT_MOST = 0.25
"""The share of lessons above which the glossary file is written anew, not patched."""


def _lessons_to_patch(found: GlossaryBuild, names: list[str], cache: BuildCache,
                      previous: Path | None) -> set[str] | None:
    """The lessons whose mention rows differ from the previous version's (changed, moved or
    removed), or None when the file must be written anew: no previous file, other terms (a
    term's id is its place in the A–Z list), or too many lessons."""
    if (previous is None or not (previous / GLOSSARY_DB).is_file()
            or cache.previous("glossary", "terms") != names):
        return None
    current = found.lesson_mentions
    patched = {slug for slug, lesson_print in current.items()
               if cache.previous("lesson mentions", slug) != lesson_print}
    patched |= cache.previous_keys("lesson mentions") - current.keys()
    return patched if len(patched) <= PATCH_AT_MOST * max(len(current), 1) else None


def _completion_entries(records: list[TermRecord], course: Course, docs: list[Document]):
    """What readers complete as they type: terms A–Z, then lessons and headings in order."""
    for record in records:
        yield Suggestion(record.term, "term", record.anchor), (record.term, *record.aliases)
    for lesson in course.lessons:
        yield Suggestion(lesson.title, "lesson", lesson.url), (lesson.title,)
    for doc in docs:
        if doc.kind == "section" and doc.heading:
            yield Suggestion(doc.heading, "heading", doc.url), (doc.heading,)


def _mention_counts(matcher: TermMatcher, text: str) -> dict[str, int]:
    """A plain dict: the build cache pickles ten thousands of these, Counters slowly."""
    return dict(matcher.mentions(text))


def _candidates(course: Course, docs: list[Document], variants: dict[str, tuple[str, ...]],
                cache: BuildCache):
    """Jargon candidates, reused while the sampled text and the known terms are unchanged."""
    texts = [(d.id, d.heading, d.body) for d in sample(docs)]
    key = fingerprint((texts, sorted(variants.items())))
    return cache.remember("candidates", key,
                          lambda: find_candidates(course, variants, docs=docs))


def _merge(entries: tuple[GlossaryEntry, ...], course: Course, cache: BuildCache) -> list[_Term]:
    """One term per name: glossary entries first, then terms only lessons define.

    A lesson's term is the glossary's when the glossary's matcher knows any spelling of it;
    terms only lessons define are told apart by ``term_key`` (case and plural), which needs
    no matcher rebuilt for each new one.
    """
    terms: list[_Term] = [_Term(e.term, e, aliases=list(e.aliases)) for e in entries]
    matcher = TermMatcher({t.name: [t.name, *t.aliases] for t in terms})
    lookup = {t.name: t for t in terms}
    lesson_only: dict[str, str] = {}  # term_key of a lesson-only term or its abbreviation → name
    keyed = [(fingerprint(lesson), lesson) for lesson in course.lessons]
    found_in = cache.remember_many("definitions", keyed, find_definitions)
    for order, found in enumerate(found_in, start=1):
        for definition in found:
            spellings = [definition.term, *filter(None, [definition.abbreviation])]
            name = next((n for s in spellings if (n := matcher.canonical_for(s))), None)
            name = name or next((lesson_only[k] for s in spellings
                                 if (k := term_key(s)) in lesson_only), None)
            if name is None:
                term = _Term(definition.term, aliases=spellings[1:])
                terms.append(term)
                lookup[term.name] = term
                lesson_only.update((term_key(s), term.name) for s in spellings)
                name = term.name
            lookup[name].lesson_defs.append((order, definition))
    return terms


def _record(term: _Term, mentions: list[tuple[int, int]]) -> TermRecord:
    """The term as the table stores it; its ``mentions`` (course order, count) are written
    beside it, not kept in the record."""
    entry = term.entry
    definitions = []
    if entry is not None:
        definitions.append(Definition("glossary", entry.definition, entry.source))
    for order, d in term.lesson_defs:
        definitions.append(Definition("lesson", d.sentence, d.url, d.lesson, d.anchor, d.url,
                                      d.kind, order))
    first_lesson = term.lesson_defs[0][1] if term.lesson_defs else None
    return TermRecord(
        term=term.name,
        anchor=(entry.anchor if entry and entry.anchor else slugify(term.name)),
        definition=entry.definition if entry else (first_lesson.sentence if first_lesson else None),
        source=entry.source if entry else (first_lesson.url if first_lesson else None),
        in_glossary=entry is not None,
        aliases=tuple(dict.fromkeys(term.aliases)),
        see_also=tuple(entry.see_also) if entry else (),
        definitions=tuple(definitions),
        mentions=(),
        mention_count=sum(count for _, count in mentions),
        mention_sections=len(mentions),
    )
